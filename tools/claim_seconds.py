"""Write nacverify/data/claim_seconds.json, the claims' measured seconds that `nacverify.runner.plan_tasks`
cuts and orders tasks by, from the per-claim ``seconds`` of ``check --quick`` reports.

    python tools/claim_seconds.py --warm W1.h5 W2.h5 --cold C1.h5 C2.h5

``--warm``: reports of runs with the compilation and traced-program caches full (run the same
command twice; the second is warm). ``--cold``: reports of runs with both empty (e.g. with
``XDG_CACHE_HOME`` a new empty folder). Each claim's value is its smallest seconds over the
reports of that kind (the least disturbed by the rest of the machine), to 0.01 s.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import h5py

OUT = Path(__file__).resolve().parents[1] / "nacverify" / "data" / "claim_seconds.json"


def _seconds(paths: list[str]) -> dict[str, float]:
    best: dict[str, float] = {}
    for path in paths:
        with h5py.File(path, "r") as f:
            for cid, group in f["claims"].items():
                value = float(group.attrs["seconds"])
                best[cid] = min(value, best.get(cid, value))
    return {cid: round(best[cid], 2) for cid in sorted(best)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", nargs="+", required=True, help="reports of runs with warm caches")
    parser.add_argument("--cold", nargs="+", required=True, help="reports of runs with empty caches")
    args = parser.parse_args()
    table = {"warm": _seconds(args.warm), "cold": _seconds(args.cold)}
    OUT.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    for kind, seconds in table.items():
        print(f"{kind}: {len(seconds)} claims, {sum(seconds.values()):.1f} s in all")


if __name__ == "__main__":
    main()
