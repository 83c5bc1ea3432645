#!/usr/bin/env python
"""Mutation testing of the core numerics with mutmut (issue 26, item 1), one target at a time.

    python tools/mutate.py                      # every target, a deterministic sample of 40 mutants each
    python tools/mutate.py bounds parity        # some targets
    python tools/mutate.py ltc --sample 0       # every mutant of the target (slow)
    python tools/mutate.py --list               # the targets, their files and their tests
    python tools/mutate.py bounds --report      # the score of the last run, without running

Each target runs in its own scratch folder, .mutmut-work/<target>/ (ignored by git): symbolic
links to nacverify/ and tests/, and a copy of pyproject.toml with a [tool.mutmut] section that
names the target's files and its small test selection. mutmut copies the package into
.mutmut-work/<target>/mutants/, mutates the copy (the working tree is never touched), records
which tests reach each function, and runs only those tests against each mutant, with
``-x -q -p no:randomly`` and in a fresh forked process (``process_isolation = "forkserver"``, so
no JAX trace or compiled executable made for the original code is reused by a mutant).

Sampling: mutmut names its mutants ``module.x_function__mutmut_N``; the sample is the first N
names in the order of their SHA-256, so the same code gives the same sample on every machine.
``--sample 0`` runs them all.

What mutmut does not mutate: module-level constants and decorated functions (``@jax.jit``,
``@property``, ``@functools.cache``); their code is outside every score below. The score counts
killed, survived, timeout and the rest (no tests, suspicious); surviving mutants are either
killed by a test in tests/test_mutants_*.py or explained in tools/mutants_equivalent.md.

The last run's score of each target is written to .mutmut-work/<target>/score.json; survivors are
printed with their diff (``mutmut show NAME`` inside the target's folder shows one again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".mutmut-work"
PYTEST_ARGS = ["-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "-p", "no:xdist"]

# target -> files to mutate, mutant-name globs (None: every mutant of the files), test files
TARGETS: dict[str, dict] = {
    "bounds": {
        "files": ["nacverify/frozen/_bounds.py", "nacverify/frozen/_readings.py", "nacverify/frozen/_kernel.py"],
        "names": None,
        "tests": ["tests/test_frozen.py", "tests/test_table2_readings.py", "tests/test_sweep_stream.py"],
        "mutant_tests": ["tests/test_mutants_frozen.py"],
    },
    "ltc": {
        "files": ["nacverify/ltc.py"],
        "names": None,
        "tests": ["tests/test_ltc.py"],
        "mutant_tests": ["tests/test_mutants_ltc.py"],
    },
    "gates": {
        "files": ["nacverify/model/gates.py"],
        "names": None,
        "tests": ["tests/test_model.py"],
        "mutant_tests": ["tests/test_mutants_model.py"],
    },
    "ltc_numerics": {
        "files": ["nacverify/audit/ltc/numerics.py"],
        "names": None,
        "tests": ["tests/test_ltc_audit.py", "tests/test_ltc_audit_speed_semantics.py"],
        "mutant_tests": ["tests/test_mutants_ltc_audit.py"],
    },
    "parity": {
        "files": ["nacverify/checks/nac_reference_parity.py"],
        # parity_bounds and the enclosure arithmetic it is built from
        "names": [f"nacverify.checks.nac_reference_parity.x_{f}__mutmut_*" for f in (
            "parity_bounds", "_rounded", "_gamma", "_add", "_mul", "_div", "_fn", "_exp", "_sigmoid_slope_max",
            "_sigmoid", "_log1p", "_softplus", "_dot", "_affine", "_heads", "_gather", "_cell_once")]
        + ["nacverify.checks.nac_reference_parity.xǁ_Encǁ*"],
        "tests": ["tests/test_reference_parity.py"],
        "mutant_tests": ["tests/test_mutants_parity.py"],
    },
    "symbolic": {
        "files": ["nacverify/symbolic/obligation.py", "nacverify/symbolic/checks.py"],
        "names": None,
        "tests": ["tests/test_symbolic_engine.py"],
        "mutant_tests": ["tests/test_mutants_symbolic.py"],
    },
}

STATUS = {1: "killed", 3: "killed", 0: "survived", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout"}


def _tests(target: dict, new_tests: bool) -> list[str]:
    """The target's test files; with new_tests, also its tests/test_mutants_*.py (the tests written to kill
    its survivors), so that a run without them gives the score before they existed."""
    return (target["tests"] + (target.get("mutant_tests", []) if new_tests else [])
            + [f"--deselect={t}" for t in target.get("deselect", [])])


def _config(target: dict, new_tests: bool = True) -> str:
    lst = lambda xs: "[" + ", ".join(json.dumps(x) for x in xs) + "]"  # noqa: E731
    return (
        "\n\n[tool.mutmut]\n"
        'source_paths = ["nacverify"]\n'
        f"only_mutate = {lst(target['files'])}\n"
        f"pytest_add_cli_args_test_selection = {lst(_tests(target, new_tests))}\n"
        f"pytest_add_cli_args = {lst(PYTEST_ARGS)}\n"
        'process_isolation = "forkserver"\n'
        "use_git_change_detection = false\n"
    )


def _prepare(name: str, fresh: bool, new_tests: bool = True) -> Path:
    work = WORK / name
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for link in ("nacverify", "tests"):
        if not (work / link).exists():
            (work / link).symlink_to(ROOT / link, target_is_directory=True)
    (work / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text() + _config(TARGETS[name], new_tests))
    return work


def _mutmut(work: Path, *args: str, check: bool = False) -> int:
    cmd = [sys.executable, "-m", "mutmut", *args]
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run(cmd, cwd=work, env=env, check=check).returncode


def _exit_codes(work: Path, name: str) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for f in TARGETS[name]["files"]:
        meta = work / "mutants" / (f + ".meta")
        if meta.exists():
            out.update(json.loads(meta.read_text())["exit_code_by_key"])
    globs = TARGETS[name]["names"]
    if globs:
        import fnmatch

        out = {k: v for k, v in out.items() if any(fnmatch.fnmatch(k, g) for g in globs)}
    return out


def _sample(names: list[str], n: int) -> list[str]:
    ordered = sorted(names, key=lambda s: hashlib.sha256(s.encode()).hexdigest())
    return ordered if n <= 0 else ordered[:n]


def _statuses(last: dict) -> dict[str, str]:
    """Per-mutant status of a score.json (older files list only the survivors and the 'other' count)."""
    if "status" in last:
        return dict(last["status"])
    assert last.get("other", 0) + last.get("not checked", 0) == 0, "no per-mutant status to carry over"
    return {k: "survived" if k in last["survivors"] else "killed" for k in last["mutants"]}


def score(name: str, selected: list[str] | None = None, carried: dict[str, str] | None = None) -> dict:
    """Counts of the selected mutants' last results. `carried`: statuses of an earlier run, kept for the
    mutants not run again (a changed test selection makes mutmut forget its cached results)."""
    work = WORK / name
    codes = _exit_codes(work, name)
    if selected is not None:
        codes = {k: codes.get(k) for k in selected}
    counts: dict[str, int] = {"killed": 0, "survived": 0, "timeout": 0, "other": 0, "not checked": 0}
    survivors, status_by = [], {}
    for k, v in sorted(codes.items()):
        status = "not checked" if v is None else STATUS.get(v, "other")
        if status == "not checked" and carried and k in carried:
            status = carried[k]
        status_by[k] = status
        counts[status] += 1
        if status == "survived":
            survivors.append(k)
    result = {"target": name, "files": TARGETS[name]["files"], "tests": TARGETS[name]["tests"], "total": len(codes),
              **counts, "survivors": survivors, "mutants": sorted(codes), "status": status_by}
    (work / "score.json").write_text(json.dumps(result, indent=1))
    return result


def run(name: str, sample: int, fresh: bool, new_tests: bool = True, survivors: bool = False) -> dict:
    work = _prepare(name, fresh, new_tests)
    if survivors:  # re-run the last run's survivors only (after tests were added); the rest keep their result
        last = json.loads((work / "score.json").read_text())
        if not (work / "score_before.json").exists():
            (work / "score_before.json").write_text(json.dumps(last, indent=1))
        chosen = last["mutants"]
        before = json.loads((work / "score_before.json").read_text())
        carried = _statuses(before)
        again = [k for k in chosen if carried.get(k) != "killed"]  # survived, no tests, timeout, not checked
        if again:
            _mutmut(work, "run", "--max-children", "2", *again)
        return score(name, chosen, carried)
    # pass 1: generate the mutants and the test-to-function map (the filter matches nothing, so no mutant runs)
    if not any((work / "mutants" / (f + ".meta")).exists() for f in TARGETS[name]["files"]):
        _mutmut(work, "run", "--max-children", "2", "__generate_only__")
    all_names = sorted(_exit_codes(work, name))
    chosen = _sample(all_names, sample)
    print(f"[{name}] {len(all_names)} mutants, running {len(chosen)}", flush=True)
    if chosen:
        _mutmut(work, "run", "--max-children", "2", *chosen)
    result = score(name, chosen)
    for k in result["survivors"]:
        subprocess.run([sys.executable, "-m", "mutmut", "show", k], cwd=work)
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("targets", nargs="*", choices=[[], *TARGETS], help="targets (default: all)")
    p.add_argument("--sample", type=int, default=40, help="mutants per target, chosen by SHA-256 of their names (0: all)")
    p.add_argument("--fresh", action="store_true", help="remove the target's scratch folder first (new mutants, new stats)")
    p.add_argument("--no-new-tests", action="store_true", help="leave out tests/test_mutants_*.py (the score before them)")
    p.add_argument("--survivors", action="store_true", help="re-run only the last run's mutants that were not killed, with the current tests")
    p.add_argument("--report", action="store_true", help="print the last run's scores only")
    p.add_argument("--rescore", action="store_true", help="recount the last run from mutmut's results (with --survivors: carry the first run's kills)")
    p.add_argument("--list", action="store_true", help="list the targets")
    a = p.parse_args(argv)
    names = a.targets or list(TARGETS)
    if a.list:
        for n in names:
            print(f"{n}: {' '.join(TARGETS[n]['files'])}  <-  {' '.join(TARGETS[n]['tests'])}")
        return 0
    rows = []
    for n in names:
        if a.rescore:
            work = WORK / n
            last = json.loads((work / "score.json").read_text())
            carried = _statuses(json.loads((work / "score_before.json").read_text())) if a.survivors else None
            rows.append(score(n, last["mutants"], carried))
        elif a.report:
            f = WORK / n / "score.json"
            b = WORK / n / "score_before.json"
            if b.exists():
                rows.append({**json.loads(b.read_text()), "target": f"{n} (before)"})
            rows.append(json.loads(f.read_text()) if f.exists() else {"target": n, "total": 0})
        else:
            rows.append(run(n, a.sample, a.fresh, not a.no_new_tests, a.survivors))
    print(f"{'target':22} {'killed':>6} {'survived':>8} {'timeout':>7} {'other':>5} {'total':>5}")
    for r in rows:
        print(f"{r['target']:22} {r.get('killed', 0):6} {r.get('survived', 0):8} {r.get('timeout', 0):7} "
              f"{r.get('other', 0) + r.get('not checked', 0):5} {r['total']:5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
