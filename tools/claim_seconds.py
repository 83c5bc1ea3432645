"""Write nacverify/data/claim_seconds.json, what `nacverify.run.task_plan.plan_tasks` plans tasks by: the claims'
measured seconds, from the per-claim ``seconds`` of ``check --quick`` reports, and the work claims
share within a process (`nacverify.run.shared_work`).

    python tools/claim_seconds.py --warm W1.h5 W2.h5 --cold C1.h5 C2.h5
    python tools/claim_seconds.py --sharing
    python tools/claim_seconds.py --warm W.h5 --cold C.h5 --only ID [ID ...]

``--warm``: reports of runs with the compilation and traced-program caches full (run the same
command twice; the second is warm). ``--cold``: reports of runs with both empty (e.g. with
``XDG_CACHE_HOME`` a new empty folder). Each claim's value is its smallest seconds over the
reports of that kind (the least disturbed by the rest of the machine), to 0.01 s.

``--only``: update these claims alone (claims added since the table was measured), each at its
seconds in the reports times the table's scale: the table's total over the reports' total, both
over the claims the reports and the table share and ``--only`` leaves out. The table then keeps
one machine's and one load's proportions, which are all the plan reads (`claim_cost`).

``--sharing`` evaluates every claim of ``check --quick`` (seed 0) serially in this process, with
empty caches (a new ``XDG_CACHE_HOME``: every program compiles, as in a cold run), and records each shared
computation's seconds and the claims that used it (``"shared"``). What is not given keeps its
value in the file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import h5py

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "nacverify" / "data" / "claim_seconds.json"


def _seconds(paths: list[str]) -> dict[str, float]:
    best: dict[str, float] = {}
    for path in paths:
        with h5py.File(path, "r") as f:
            for cid, group in f["claims"].items():
                value = float(group.attrs["seconds"])
                best[cid] = min(value, best.get(cid, value))
    return {cid: round(best[cid], 2) for cid in sorted(best)}


def _rescaled(table: dict[str, float], measured: dict[str, float], only: list[str]) -> dict[str, float]:
    """`table` with the claims `only` set to their `measured` seconds in the table's scale (module docstring)."""
    missing = [cid for cid in only if cid not in measured]
    if missing:
        raise SystemExit(f"--only: {missing[0]} is not in the reports")
    common = [cid for cid in measured if cid in table and cid not in only]
    scale = sum(table[c] for c in common) / max(sum(measured[c] for c in common), 1e-9)
    return {**table, **{cid: round(measured[cid] * scale, 2) for cid in only}}


def _sharing() -> dict[str, dict]:
    """The shared computations of a serial quick check: name -> {"seconds", "claims"}."""
    sys.path.insert(0, str(ROOT))
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="nacverify-sharing-")  # empty caches: every program compiles
    from cli._devices import classic_cpu_emitters

    classic_cpu_emitters()  # the programs the command line's workers compile (before JAX starts)
    from nacverify.run import shared_work
    from nacverify.claims import CheckContext, evaluate
    from nacverify.run.runner import load_catalog

    catalog = load_catalog()
    ctx = CheckContext(seed=0, quick=True)
    shared_work.forget()
    for number, claim in enumerate(catalog.values(), 1):
        result = evaluate(claim, ctx)
        print(f"\r{number}/{len(catalog)} {claim.id[:60]:60s} {result.seconds:6.2f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return shared_work.record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", nargs="+", help="reports of runs with warm caches")
    parser.add_argument("--cold", nargs="+", help="reports of runs with empty caches")
    parser.add_argument("--only", nargs="+", help="update only these claims, in the table's scale")
    parser.add_argument("--sharing", action="store_true", help="record the work claims share (a serial quick check, here)")
    args = parser.parse_args()
    if bool(args.warm) != bool(args.cold) or not (args.warm or args.sharing):
        parser.error("give --warm and --cold together, or --sharing, or all three")
    table = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    if args.only and not args.warm:
        parser.error("--only needs --warm and --cold")
    if args.warm and args.only:
        table["warm"] = _rescaled(table["warm"], _seconds(args.warm), args.only)
        table["cold"] = _rescaled(table["cold"], _seconds(args.cold), args.only)
    elif args.warm:
        table["warm"], table["cold"] = _seconds(args.warm), _seconds(args.cold)
    if args.sharing:
        table["shared"] = _sharing()
    OUT.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    for kind in ("warm", "cold"):
        print(f"{kind}: {len(table[kind])} claims, {sum(table[kind].values()):.1f} s in all")
    for name, entry in table.get("shared", {}).items():
        if len(entry["claims"]) > 1:
            print(f"shared: {name[:70]}: {entry['seconds']:.2f} s, {len(entry['claims'])} claims")


if __name__ == "__main__":
    main()
