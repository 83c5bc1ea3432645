"""`nacverify bench --ltc-audit`: time `nacverify audit-ltc` on a seeded ncps LTC (nacverify.audit.ltc.bench)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from nacverify.audit.ltc.bench import AUDIT_TARGET_S, ELAPSED, bench_ltc_audit, ltc_bench_section
from nacverify.compute.environment import device_description
from nacverify.report import Report, check_writable, default_report_path

from ._exits import command_line
from ._finish import finish_interrupted, write_report_file
from ._output import console, fitted, progress_bar


def _cli_run(export_file: str, folder: str) -> tuple[float, int]:
    """Wall seconds and exit code of ``nacverify audit-ltc FILE`` in a fresh process (imports and compilations included)."""
    out = Path(folder) / "cli-audit.h5"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "nacverify.cli.app", "audit-ltc", export_file, "--out", str(out), "--force", "--no-gate"],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    return time.perf_counter() - start, proc.returncode


def ltc_audit_bench(*, units: int, steps: int, wiring: str, seed: int, cli_run: bool, out: Optional[Path], force: bool) -> typer.Exit:
    """Run the LTC audit benchmark, print its tables, write `/bench/ltc_audit` (reports/SCHEMA.md)."""
    out_path = check_writable(out or default_report_path("bench-ltc-audit"), overwrite=force)
    report = Report(command=command_line(), seed=seed)
    console.print(f"device: {device_description()}; load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}", markup=False)
    partial: dict = {}
    try:
        with tempfile.TemporaryDirectory(prefix="nacverify-ltc-bench-") as tmp, progress_bar() as bar:
            task = bar.add_task("ltc-audit", total=None)
            result = bench_ltc_audit(tmp, units=units, steps=steps, wiring=wiring, seed=seed, partial=partial,
                                     progress=lambda stage: bar.update(task, description=stage))
            if cli_run:
                bar.update(task, description="nacverify audit-ltc FILE (a fresh process)")
                wall, code = _cli_run(result.config["export_file"], tmp)
                result.extra.update(cli_audit_wall_s=wall, cli_audit_exit_code=code, cli_target_met=bool(wall <= AUDIT_TARGET_S and code in (0, 1)))
    except KeyboardInterrupt:
        report.sections = {"bench/ltc_audit/partial": partial or {"note": "nothing finished"}}
        raise finish_interrupted(report, out_path, force=force, note="interrupted during the LTC audit benchmark") from None
    report.sections = ltc_bench_section(result)

    c = result.config
    table = Table(title=f"nacverify audit-ltc: {c['units']}-unit ncps LTC ({wiring}), {c['steps']} steps, seed {seed} "
                        f"(load average before/after: {result.load_before[0]:.2f} / {result.load_after[0]:.2f})")
    for col in ("part", "verdict", "wall s", "cpu s"):
        table.add_column(col, justify="left" if col in ("part", "verdict") else "right", no_wrap=True)
    table.add_row("export: run the ncps cell", "", f"{result.export_run.wall_s:.2f}", f"{result.export_run.cpu_s:.2f}")
    table.add_row("export: write the file", "", f"{result.export_write.wall_s:.2f}", f"{result.export_write.cpu_s:.2f}")
    table.add_row("audit: read the file", "", f"{result.read.wall_s:.2f}", f"{result.read.cpu_s:.2f}")
    for cid, verdict, t in result.claims:
        table.add_row(f"audit: {cid}", verdict, f"{t.wall_s:.2f}", f"{t.cpu_s:.2f}")
    table.add_row("audit total (in process)", "", f"{result.audit.wall_s:.2f}", f"{result.audit.cpu_s:.2f}")
    if "cli_audit_wall_s" in result.extra:
        table.add_row("nacverify audit-ltc FILE (fresh process)", f"exit {result.extra['cli_audit_exit_code']}", f"{result.extra['cli_audit_wall_s']:.2f}", "")
    table.caption = f"target: the audit under {AUDIT_TARGET_S:g} s on this project's 2-core CPU (wall times depend on the load; cpu = this process's CPU time)"
    console.print(fitted(table))

    err = Table(title=f"fused solver ({c['ode_unfolds']} unfolds) vs the reference: relative error per step over {c['samples']} exported states")
    err.add_column("elapsed", justify="right")
    err.add_column("max", justify="right")
    err.add_column("median", justify="right")
    err.add_column("reference error <=", justify="right")
    err.add_column("measured (32 re-solved)", justify="right")
    err.add_column("unfolds for max <= 1e-2", justify="right")
    for i, h in enumerate(ELAPSED):
        mx, md = result.error_at(h, c["ode_unfolds"])
        need = [int(u) for u, m in zip(result.unfolds, result.max_relative_error[i]) if m <= 1e-2]
        err.add_row(f"{h:g}", f"{mx:.3g}", f"{md:.3g}", f"{result.reference_error_bound[i]:.2g}", f"{result.reference_error_measured[i]:.2g}",
                    str(need[0]) if need else f"> {int(result.unfolds[-1])}")
    console.print(fitted(err))
    path = write_report_file(report, out_path, force=force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
    return typer.Exit(0)
