"""`nacverify bench --report-html F`: how long `nacverify report html F` takes, into HDF5.

Each run is ``nacverify report html F --out DIR`` in a fresh process, as a user runs it (imports, reading
the report, the findings, the figures and the pages), into a new folder each time. The first run finds
an empty catalog cache (a first `report html` after installing or editing nacverify: it loads the claim
catalog once to learn where each claim is decided, and stores that map; `nacverify.provenance`); the
next `--html-repeats` runs find it filled, as every later `report html` does. The machine's load
average is recorded before and after, since a shared machine's load changes the times. Report:
``/bench/report_html`` (reports/SCHEMA.md).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import typer
from rich.table import Table

from nacverify.compute.environment import device_description
from nacverify.report import Report, check_writable, default_report_path

from ._cluster import usable_cores
from ._exits import command_line
from ._finish import finish_interrupted, write_report_file
from ._output import console, fitted, progress_bar

#: `report html`'s aim for a `check --quick` report on a 2-core machine (issue 46), recorded beside the times.
TARGET_S = 5.0


def _run(report: Path, out: Path, cache: Path) -> tuple[float, float]:
    """The run's wall time and its process's CPU time (user + system), seconds: on a loaded machine
    the wall time waits for the other processes, the CPU time much less."""
    cmd = [sys.executable, "-m", "nacverify.cli.app", "report", "html", str(report), "--out", str(out)]
    env = {**os.environ, "NACVERIFY_CATALOG_CACHE": str(cache), "NO_COLOR": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        console.print(proc.stderr.strip(), markup=False)
        raise typer.Exit(proc.returncode)
    return wall, cpu


def _pages(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in sorted(folder.iterdir()) if p.suffix in (".html", ".css") and p.is_file()}


def report_html_bench(*, report: Path, repeats: int, out: Path | None, force: bool) -> typer.Exit:
    from nacverify.report import read_report

    data = read_report(report)  # a damaged or missing report is bad input before any run
    out_path = check_writable(out or default_report_path("bench-report-html"), overwrite=force)
    bench = Report(command=command_line())
    load_before = os.getloadavg()
    console.print(f"device: {device_description()}; {usable_cores()} usable cores; load average {load_before[0]:.2f}; "
                  f"report html {report} ({len(data.claims)} claims): one run with an empty catalog cache, then {repeats} with it filled",
                  markup=False)
    walls: list[float] = []
    cpus: list[float] = []
    pages: dict[str, int] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp, progress_bar() as bar:
            task = bar.add_task("report html", total=repeats + 1)
            for i in range(repeats + 1):
                bar.update(task, description="report html (empty catalog cache)" if i == 0 else f"report html (run {i} of {repeats})")
                folder = Path(tmp) / f"page-{i}"
                wall, cpu = _run(report, folder, Path(tmp) / "catalog")
                walls.append(wall)
                cpus.append(cpu)
                pages = _pages(folder)
                bar.advance(task)
    except KeyboardInterrupt:
        bench.sections["bench/report_html"] = {"report": str(report), "wall_s": list(walls)}
        raise finish_interrupted(bench, out_path, force=force, note=f"interrupted after {len(walls)} of {repeats + 1} runs") from None
    load_after = os.getloadavg()
    warm = walls[1:]
    median = statistics.median(warm)
    bench.sections["bench/report_html"] = {
        "device": device_description(), "usable_cores": usable_cores(), "report": str(report), "claims": len(data.claims),
        "cold_wall_s": walls[0], "wall_s": warm, "median_wall_s": median, "min_wall_s": min(warm), "target_s": TARGET_S,
        "cold_cpu_s": cpus[0], "cpu_s": cpus[1:], "median_cpu_s": statistics.median(cpus[1:]),
        "load_average_before": list(load_before), "load_average_after": list(load_after),
        "pages": {name: size for name, size in pages.items()}, "largest_page_bytes": max(pages.values(), default=0),
    }
    table = Table(title=f"report html {report.name}: fresh process each (load average {load_before[0]:.2f} -> {load_after[0]:.2f})")
    for col in ("run", "catalog cache", "wall s", "CPU s"):
        table.add_column(col, justify="right")
    for i, (wall, cpu) in enumerate(zip(walls, cpus)):
        table.add_row(str(i), "empty" if i == 0 else "filled", f"{wall:.2f}", f"{cpu:.2f}")
    console.print(fitted(table))
    largest = max(pages, key=pages.get) if pages else "-"
    console.print(f"median {median:.2f} s wall, {statistics.median(cpus[1:]):.2f} s CPU with the cache filled (aim: at most {TARGET_S:.0f} s on a quiet 2-core machine); "
                  f"largest page {largest}: {pages.get(largest, 0) / 1000:.0f} kB", markup=False)
    path = write_report_file(bench, out_path, force=force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
    return typer.Exit(0)
