"""`nacverify bench --check-scaling`: how `check --quick` scales with its workers, into HDF5.

Each run is ``nacverify check --quick --no-gate --jobs J`` in a fresh process, as a user runs it
(worker start, catalog load and compiles included), for J = 1, 2, 4, ... up to the usable cores
(or `--scaling-jobs`). A warm-up run first fills the caches (JAX's compilation cache, the traced
programs, the claim catalog), so that every timed run finds them warm (the order of the runs would
otherwise decide which one pays the compiles). With ``--cold-caches`` there is no warm-up, and each
run gets empty caches of its own instead (a first run after installing: every program traced and
compiled). Each run's
verdicts must equal the others' (`same_verdicts`): the plan of tasks changes with J, the verdicts
must not. Report: ``/bench/check_scaling`` (reports/SCHEMA.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from nacverify.compute.environment import device_description
from nacverify.report import Report, check_writable, default_report_path

from ._cluster import usable_cores
from ._exits import command_line
from ._finish import finish_interrupted, write_report_file
from ._output import console, fitted, progress_bar


def jobs_ladder(cores: int) -> list[int]:
    """1, 2, 4, ... up to `cores`, and `cores` itself when it is no power of two."""
    out = [1]
    while out[-1] * 2 <= cores:
        out.append(out[-1] * 2)
    return out if out[-1] == cores else [*out, cores]


#: The environment variables naming the command line's caches (cli/__init__.py), and JAX's own.
CACHE_VARIABLES = ("NACVERIFY_JAX_CACHE", "NACVERIFY_PROGRAM_CACHE", "NACVERIFY_CATALOG_CACHE")


def _cold_env(folder: Path) -> dict[str, str]:
    """An environment whose caches are new empty folders under `folder` (the user's own left alone)."""
    env = {k: v for k, v in os.environ.items() if k != "JAX_COMPILATION_CACHE_DIR"}
    for variable in CACHE_VARIABLES:
        env[variable] = str(folder / variable.lower())
    return env


def _run_check(jobs: int, folder: Path, *, cold: bool = False) -> tuple[float, dict]:
    path = folder / f"check-{jobs}.h5"
    cmd = [sys.executable, "-m", "nacverify.cli.app", "check", "--quick", "--no-gate", "--jobs", str(jobs), "--format", "json", "--out", str(path), "--force"]
    env = _cold_env(Path(tempfile.mkdtemp(prefix=f"caches-{jobs}-", dir=folder))) if cold else dict(os.environ)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**env, "NO_COLOR": "1"})
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise typer.Exit(proc.returncode)
    return wall, json.loads(proc.stdout)


def check_scaling_bench(*, jobs: Optional[list[int]], out: Optional[Path], force: bool, cold: bool = False) -> typer.Exit:
    ladder = jobs or jobs_ladder(usable_cores())
    out_path = check_writable(out or default_report_path("bench-check-scaling"), overwrite=force)
    report = Report(command=command_line())
    rows: dict[int, dict] = {}
    verdicts: dict[int, dict[str, str]] = {}
    runs = f"jobs {', '.join(map(str, ladder))}, each with empty caches" if cold else f"warm-up, then jobs {', '.join(map(str, ladder))}"
    console.print(f"device: {device_description()}; {usable_cores()} usable cores; runs: {runs}", markup=False)
    warm_wall = float("nan")
    try:
        with tempfile.TemporaryDirectory() as tmp, progress_bar() as bar:
            task = bar.add_task("check --quick", total=len(ladder) + (0 if cold else 1))
            if not cold:
                bar.update(task, description="warm-up (fills the caches)")
                warm_wall, _ = _run_check(ladder[-1], Path(tmp))
                bar.advance(task)
            for j in ladder:
                bar.update(task, description=f"check --quick --jobs {j}{' (empty caches)' if cold else ''}")
                wall, doc = _run_check(j, Path(tmp), cold=cold)
                verdicts[j] = {c["id"]: c["verdict"] for c in doc["claims"]}
                claims_s = float(sum(c["seconds"] for c in doc["claims"]))
                rows[j] = {"jobs": j, "wall_s": wall, "claims": len(doc["claims"]), "claim_seconds_sum": claims_s,
                           "speedup": rows[ladder[0]]["wall_s"] / wall if rows else 1.0}
                bar.advance(task)
    except KeyboardInterrupt:
        report.sections["bench/check_scaling"] = {f"jobs_{j}": r for j, r in rows.items()}
        raise finish_interrupted(report, out_path, force=force, note=f"interrupted after {len(rows)} of {len(ladder)} runs") from None
    same = len({json.dumps(v, sort_keys=True) for v in verdicts.values()}) == 1
    report.sections["bench/check_scaling"] = {
        "device": device_description(), "usable_cores": usable_cores(), "caches": "cold" if cold else "warm", "warmup_wall_s": warm_wall,
        "same_verdicts": same,
        **{f"jobs_{j}": r for j, r in rows.items()},
    }
    title = "fresh process and empty caches each" if cold else f"fresh process each, warm caches; warm-up {warm_wall:.1f} s"
    table = Table(title=f"check --quick against workers ({title})")
    for col in ("jobs", "wall s", "speedup", "claim s (sum)"):
        table.add_column(col, justify="right")
    for j, r in rows.items():
        table.add_row(str(j), f"{r['wall_s']:.1f}", f"{r['speedup']:.2f}", f"{r['claim_seconds_sum']:.1f}")
    console.print(fitted(table))
    console.print(f"verdicts equal across runs: {'yes' if same else 'NO'}", markup=False)
    path = write_report_file(report, out_path, force=force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
    return typer.Exit(0 if same else 1)
