"""`nacverify bench --plan-workers N`: what `check --quick` would take on N workers, estimated on
this machine, into HDF5.

`check` cuts its claims into tasks for its workers (`nacverify.run.task_plan.plan_tasks`). Here each
task of the N-worker plan runs alone, ``nacverify check --quick --no-gate --jobs 1 --only ...`` in
a fresh process bound to one core (as a local worker is when there is a core for each), as many
at a time as this machine has usable cores. With ``--cold-caches`` each process gets empty caches
of its own, as every worker of a first run after installing finds them; otherwise each gets a
copy of the caches a serial warm-up run filled (the folders may be moved: cli/__init__.py).

The estimate is the plan's makespan: the tasks' measured claim seconds handed out as the runner
hands them out (`nacverify.run.task_plan.makespan`), to which a run adds its start-up (the local
cluster's workers import and load the catalog once; ``startup_s`` is the median over the tasks of
a process's wall time less its claims' seconds). Pessimistic where a worker's later task would
find what its earlier one computed (each task here starts in a new process), and where two
tasks here share a core's memory bandwidth with the other running ones. Report:
``/bench/check_plan`` (reports/SCHEMA.md).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
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
from .bench_check import _cold_env


def _check_command(ids: list[str], path: Path) -> list[str]:
    cmd = [sys.executable, "-m", "nacverify.cli.app", "check", "--quick", "--no-gate", "--jobs", "1", "--format", "json", "--out", str(path), "--force"]
    for cid in ids:
        cmd += ["--only", cid]
    return cmd


def _run(cmd: list[str], env: dict[str, str], core: Optional[int]) -> tuple[float, dict]:
    """Run `cmd` (a `check --format json`) bound to `core` (None: unbound); its wall time and document.
    The process is bound as soon as it exists (not in a `preexec_fn`: forking this multithreaded
    process could deadlock the child), well before its JAX sizes its thread pool."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**env, "NO_COLOR": "1"})
    if core is not None:
        try:
            os.sched_setaffinity(proc.pid, {core})
        except (AttributeError, OSError):  # not Linux, or refused: the process runs unbound
            pass
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"check exited {proc.returncode}: {' '.join(stderr.strip().splitlines()[-1:])}")
    return wall, json.loads(stdout)


def plan_bench(*, workers: int, out: Optional[Path], force: bool, cold: bool = False, only: Optional[list[str]] = None) -> typer.Exit:
    """The bench (module docstring); `only`: claim globs (default: every claim of `check --quick`)."""
    from nacverify.run.task_plan import makespan, plan_tasks

    from .check import _select

    claims = _select(only)
    tasks = plan_tasks(claims, workers, "cold" if cold else "warm")
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [None] * usable_cores()
    slots = max(1, min(len(cores), usable_cores()))
    out_path = check_writable(out or default_report_path("bench-check-plan"), overwrite=force)
    report = Report(command=command_line())
    console.print(f"device: {device_description()}; plan of check --quick for {workers} workers: {len(tasks)} tasks, "
                  f"{slots} at a time here, one core each, {'empty caches' if cold else 'warm caches'}", markup=False)
    rows: dict[int, dict] = {}
    warm_wall = float("nan")
    try:
        with tempfile.TemporaryDirectory() as tmp, progress_bar() as bar:
            folder = Path(tmp)
            progress = bar.add_task("tasks", total=len(tasks) + (0 if cold else 1))
            warm_caches = folder / "warm-caches"
            if not cold:
                bar.update(progress, description="warm-up (a serial check --quick fills the caches)")
                ids = [c.id for c in claims]
                warm_wall, _ = _run(_check_command(ids, folder / "warm-up.h5"), _cold_env(warm_caches), None)
                bar.advance(progress)

            def one(number: int) -> dict:
                group, members = tasks[number]
                caches = folder / f"caches-{number}"
                if not cold:
                    shutil.copytree(warm_caches, caches)
                core = free_cores.pop()
                try:
                    wall, doc = _run(_check_command([c.id for c in members], folder / f"task-{number}.h5"), _cold_env(caches), core)
                finally:
                    free_cores.append(core)
                seconds = float(sum(c["seconds"] for c in doc["claims"]))
                top = max(doc["claims"], key=lambda c: c["seconds"])
                return {"task": number, "group": group, "claims": len(members), "wall_s": wall, "claim_seconds_sum": seconds,
                        "costliest_claim": top["id"], "costliest_claim_s": float(top["seconds"])}

            free_cores = list(cores[:slots])
            with ThreadPoolExecutor(max_workers=slots) as pool:
                pending: set[Future] = set()
                for number in range(len(tasks)):
                    if len(pending) >= slots:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in finished:
                            row = future.result()
                            rows[row["task"]] = row
                            bar.advance(progress)
                    bar.update(progress, description=f"task {number + 1} of {len(tasks)} ({tasks[number][0]})")
                    pending.add(pool.submit(one, number))
                for future in pending:
                    row = future.result()
                    rows[row["task"]] = row
                    bar.advance(progress)
    except KeyboardInterrupt:
        report.sections["bench/check_plan"] = {f"task_{k}": r for k, r in sorted(rows.items())}
        raise finish_interrupted(report, out_path, force=force, note=f"interrupted after {len(rows)} of {len(tasks)} tasks") from None
    except RuntimeError as exc:
        console.print(f"bench --plan-workers: {exc}", markup=False)
        raise typer.Exit(3) from None
    ordered = [rows[k] for k in sorted(rows)]
    claim_span = makespan([r["claim_seconds_sum"] for r in ordered], workers)
    startup = statistics.median(r["wall_s"] - r["claim_seconds_sum"] for r in ordered)
    summary = {"device": device_description(), "usable_cores": usable_cores(), "workers": workers, "caches": "cold" if cold else "warm",
               "tasks": len(ordered), "warmup_wall_s": warm_wall, "claim_seconds_sum": float(sum(r["claim_seconds_sum"] for r in ordered)),
               "makespan_claim_s": claim_span, "startup_s": startup, "estimate_s": claim_span + startup}
    report.sections["bench/check_plan"] = {**summary, **{f"task_{r['task']}": r for r in ordered}}
    table = Table(title=f"check --quick planned for {workers} workers: each task alone ({summary['caches']} caches)")
    for col in ("task", "group", "claims", "claim s", "wall s", "costliest claim"):
        table.add_column(col, justify="left" if col in ("group", "costliest claim") else "right")
    for r in sorted(ordered, key=lambda r: -r["claim_seconds_sum"]):
        table.add_row(str(r["task"]), r["group"], str(r["claims"]), f"{r['claim_seconds_sum']:.1f}", f"{r['wall_s']:.1f}",
                      f"{r['costliest_claim']} {r['costliest_claim_s']:.1f} s")
    console.print(fitted(table))
    console.print(f"claims {summary['claim_seconds_sum']:.1f} s in all; on {workers} workers the last task ends after "
                  f"{claim_span:.1f} s of claims; start-up {startup:.1f} s; estimate {summary['estimate_s']:.1f} s", markup=False)
    path = write_report_file(report, out_path, force=force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
    return typer.Exit(0)
