"""`nacverify bench --sweep-bench`: the streaming sweep's numbers (issue 14), into HDF5.

1. Peak RSS and serial throughput: ``nacverify frozen-error --regime oscillatory --sweep D
   --scipy-draws 0 --threads 1`` in a fresh process (peak RSS from the kernel, `os.wait4`, as
   ``/usr/bin/time -v`` reports it; throughput from the report the command writes). Then the
   command as a user runs it (issue 24's target, >= 30,000 draws/s end to end on 2 cores):
   ``... --sweep D --scipy-draws 0 --no-keep-draws``, its default threads (one per usable core);
   its rate is the sweep's wall rate (compile included) and the process's (start to exit).
2. The 10^8 sweep's own statement: ``... --sweep 100000000`` in a fresh process, stopped with
   SIGTERM (which nacverify handles as Ctrl-C) once it has printed its time and storage estimate
   (its incomplete report keeps the estimate; its peak RSS is recorded too). Not SIGINT: a
   process started in the background by a non-interactive shell (``cmd &``, CI scripts)
   inherits SIGINT ignored, and Python then never raises KeyboardInterrupt: the 10^8 sweep ran on.
3. Scaling: the same sweep on a local Dask cluster of 2 workers (one thread each, started by
   `cli._cluster.cluster`), with every chunk pinned to one worker, then spread over both;
   efficiency = rate(2 workers) / (2 x rate(1 worker)), wall time, compiles excluded (both
   workers compile during a warm-up sweep first). Runs alternate, best of `repeats` each.

`uptime` (load averages) is recorded with each number: the machine may be shared.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

import h5py
import typer
from rich.table import Table

from nacverify.compute.environment import device_description
from nacverify.frozen import run_sweep
from nacverify.report import Report, Spool, check_writable, default_report_path

from ._cluster import cluster
from ._exits import command_line
from ._finish import finish_interrupted, write_report_file
from ._output import console, fitted, progress_bar

#: Issue 14: today's serial sweep throughput (primary solves, trajectories/s), same command, same machine.
BASELINE_TRAJECTORIES_PER_S = 47_000.0
#: Issue 24: the default command's end-to-end draws/s on the 2-core CPU.
END_TO_END_TARGET = 30_000.0
TARGET_DRAWS = 100_000_000
RSS_TARGET_BYTES = 2 * 10**9
EFFICIENCY_TARGET = 0.8
REGIME = "oscillatory"


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _command(args: list[str], folder: Path, name: str, *, stop_on: str | None = None) -> dict[str, Any]:
    """Run ``nacverify ARGS`` in a fresh process; its exit code, wall time, peak RSS (bytes, of
    that process) and, with `stop_on`, SIGTERM once a stderr line contains it (that line kept)."""
    log = folder / f"{name}.stdout"
    env = {**os.environ, "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
    uptime_start = _uptime()
    start = time.perf_counter()
    with open(log, "w") as stdout:
        proc = subprocess.Popen([sys.executable, "-m", "nacverify.cli.app", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, env=env)
        lines, matched = [], ""
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip())
            if stop_on and stop_on in line and not matched:
                matched = line.strip()
                proc.send_signal(signal.SIGTERM)  # SIGINT may be ignored (module docstring)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return {"command": "nacverify " + " ".join(args), "exit_code": proc.returncode, "process_wall_seconds": time.perf_counter() - start,
            "peak_rss_bytes": int(usage.ru_maxrss) * 1024, "uptime_start": uptime_start, "uptime_end": _uptime(), "matched_line": matched,
            "stderr_tail": "\n".join(lines[-5:])}


#: The parts of a sweep's time, as its report section names them (`<part>_seconds`): the primary
#: solves, the 100x tighter solves, the analysis (the streaming kernel and the reductions) and the
#: storage of the per-draw summaries (the spool's writes, in the sweep's own loop).
SPLIT = ("solve", "verify", "analysis", "write")


def _split(attrs: dict[str, Any]) -> dict[str, Any]:
    """End-to-end draws/s with the storage counted, and each part's share of that time."""
    parts = {k: float(attrs.get(f"{k}_seconds", 0.0)) for k in SPLIT}
    total = sum(parts.values())
    out: dict[str, Any] = {"split_parts": list(SPLIT), "split_seconds": [parts[k] for k in SPLIT],
                           "split_fraction": [parts[k] / total if total > 0 else float("nan") for k in SPLIT]}
    out["end_to_end_with_write_per_second"] = attrs["n_done"] / total if total > 0 else float("nan")
    return out


def _sweep_attrs(path: Path, regime: str) -> dict[str, Any]:
    """The attributes of a report's sweep section (not its per-draw datasets: they can be large)."""
    with h5py.File(path, "r") as f:
        g = f[f"frozen_error/{regime}/sweep"]
        return {k: (v.item() if hasattr(v, "item") else v) for k, v in g.attrs.items() if k != "draws"}


def _scaling(draws: int, chunk: int, seed: int, repeats: int, folder: Path, progress) -> dict[str, Any]:
    """Best wall rate of `draws` on one pinned worker and on two workers of one local cluster."""
    out: dict[str, Any] = {"draws": draws, "chunk": chunk, "repeats": repeats}
    with cluster(2) as ex2:
        assert ex2 is not None
        client = ex2._client  # a distributed.Client's executor
        progress("warm-up: compile on both workers")
        run_sweep(REGIME, 4 * chunk, seed, chunk=chunk, executor=ex2, in_flight=4)
        first_worker = sorted(client.scheduler_info()["workers"])[0]
        ex1 = client.get_executor(pure=False, workers=[first_worker])
        runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
        for r in range(repeats):
            for workers, ex in ((1, ex1), (2, ex2)):
                progress(f"{workers} worker{'s' if workers > 1 else ''}, run {r + 1} of {repeats}")
                spool = Spool(folder / f"scaling-{workers}.h5")
                uptime_start = _uptime()
                try:
                    sw = run_sweep(REGIME, draws, seed + 1 + r, chunk=chunk, executor=ex, in_flight=2 * workers,
                                   on_chunk=lambda res, spool=spool: (spool.append("members", res.stored()), spool.append("params", res.params)))
                finally:
                    spool.discard()
                runs[workers].append({"wall_seconds": sw.wall_seconds, "wall_per_second": sw.wall_per_second,
                                      "trajectories_per_second": sw.trajectories_per_second, "worker_processes": len(sw.worker_names),
                                      "uptime_start": uptime_start, "uptime_end": _uptime()})
    for workers, rows in runs.items():
        best = max(rows, key=lambda row: row["wall_per_second"])
        out[f"workers_{workers}"] = {**best, "all_wall_per_second": [row["wall_per_second"] for row in rows]}
    out["efficiency"] = out["workers_2"]["wall_per_second"] / (2 * out["workers_1"]["wall_per_second"])
    out["efficiency_target"] = EFFICIENCY_TARGET
    return out


def sweep_bench(*, draws: int, scaling_draws: int, repeats: int, seed: int, out: Optional[Path], force: bool) -> typer.Exit:
    """Run the three measurements, print them, write `/bench/sweep` (reports/SCHEMA.md)."""
    out_path = check_writable(out or default_report_path("bench-sweep"), overwrite=force)
    report = Report(command=command_line(), seed=seed)
    console.print(f"device: {device_description()}; {_uptime()}", markup=False)
    section: dict[str, Any] = {"regime": REGIME, "baseline_trajectories_per_second": BASELINE_TRAJECTORIES_PER_S, "rss_target_bytes": RSS_TARGET_BYTES,
                               "target_draws": TARGET_DRAWS, "cpu_count": os.cpu_count() or 0}
    try:
        with tempfile.TemporaryDirectory(prefix="nacverify-sweep-bench-") as tmp, progress_bar() as bar:
            folder = Path(tmp)
            task = bar.add_task("sweep bench", total=None)
            step = lambda text: bar.update(task, description=text)  # noqa: E731
            step(f"serial sample: frozen-error --sweep {draws:,}")
            sample = _command(["frozen-error", "--regime", REGIME, "--sweep", str(draws), "--scipy-draws", "0", "--seed", str(seed),
                               "--threads", "1", "--out", str(folder / "sample.h5")], folder, "sample")
            if sample["exit_code"] in (0, 1):
                sample.update(_sweep_attrs(folder / "sample.h5", REGIME))
                loop = max(sample["wall_seconds"] - sample["compile_seconds"], 1e-9)  # the sweep's own wall time, compile excluded
                sample["estimate_seconds_target"] = sample["compile_seconds"] + loop * TARGET_DRAWS / sample["n_done"]
                sample["ratio_to_baseline"] = sample["trajectories_per_second"] / BASELINE_TRAJECTORIES_PER_S
                sample.update(_split(sample))
            section["serial_sample"] = sample
            step(f"the default command: frozen-error --sweep {draws:,} --no-keep-draws")
            default = _command(["frozen-error", "--regime", REGIME, "--sweep", str(draws), "--scipy-draws", "0", "--no-keep-draws", "--seed", str(seed),
                                "--out", str(folder / "default.h5")], folder, "default")
            if default["exit_code"] in (0, 1):
                default.update(_sweep_attrs(folder / "default.h5", REGIME))
                default["process_draws_per_second"] = default["n_done"] / default["process_wall_seconds"]
                default["end_to_end_target"] = END_TO_END_TARGET
            section["default_sample"] = default
            step(f"the {TARGET_DRAWS:,}-draw command's own estimate")
            target = _command(["frozen-error", "--regime", REGIME, "--sweep", str(TARGET_DRAWS), "--scipy-draws", "0", "--seed", str(seed),
                               "--out", str(folder / "target.h5")], folder, "target", stop_on="estimated")
            if (folder / "target.h5").exists():
                attrs = _sweep_attrs(folder / "target.h5", REGIME)
                target.update({k: attrs[k] for k in ("estimate_seconds", "estimate_bytes", "calibration_chunk_seconds", "n_done", "chunk") if k in attrs})
            section["target_plan"] = target
            section["scaling"] = _scaling(scaling_draws, 2000, seed, repeats, folder, step)
    except KeyboardInterrupt:
        report.sections = {"bench/sweep": section}
        raise finish_interrupted(report, out_path, force=force, note="interrupted during the sweep benchmark") from None
    report.sections = {"bench/sweep": section}

    s, t, sc = section["serial_sample"], section["target_plan"], section["scaling"]
    table = Table(title=f"streaming sweep, {REGIME} regime (issue 14 targets)")
    for col in ("measure", "value", "target", "uptime"):
        table.add_column(col, no_wrap=col != "uptime")
    rss = s["peak_rss_bytes"] / 1e9
    table.add_row(f"peak RSS, --sweep {draws:,} (exit {s['exit_code']})", f"{rss:.2f} GB", "< 2 GB", s["uptime_end"])
    table.add_row(f"peak RSS, --sweep {TARGET_DRAWS:,} until its estimate (exit {t['exit_code']})", f"{t['peak_rss_bytes'] / 1e9:.2f} GB", "< 2 GB", t["uptime_end"])
    if "estimate_seconds" in t:
        table.add_row(f"--sweep {TARGET_DRAWS:,}: stated estimate", f"{t['estimate_seconds'] / 3600:.1f} h, {t['estimate_bytes'] / 1e9:.1f} GB", "stated", t["uptime_end"])
    if "trajectories_per_second" in s:
        table.add_row("serial traj/s (primary solves)", f"{s['trajectories_per_second']:,.0f}", f">= {BASELINE_TRAJECTORIES_PER_S:,.0f}", s["uptime_end"])
        table.add_row("serial end-to-end draws/s (both solves + analysis)", f"{s['end_to_end_per_second']:,.0f}", "-", s["uptime_end"])
        table.add_row("serial split, s (solve / verify / analysis / write)",
                      " / ".join(f"{s.get(f'{k}_seconds', float('nan')):.2f}" for k in SPLIT), "-", s["uptime_end"])
        table.add_row(f"serial wall draws/s (sample, compile included; 10^8 at this rate: {s['estimate_seconds_target'] / 3600:.1f} h)",
                      f"{s['wall_per_second']:,.0f}", "-", s["uptime_end"])
    d = section["default_sample"]
    if "wall_per_second" in d:
        table.add_row(f"default command ({d['scheduler']}): sweep wall draws/s, compile included", f"{d['wall_per_second']:,.0f}",
                      f">= {END_TO_END_TARGET:,.0f}", d["uptime_end"])
        table.add_row("default command: draws/s from process start to exit", f"{d['process_draws_per_second']:,.0f}", "-", d["uptime_end"])
    for w in (1, 2):
        row = sc[f"workers_{w}"]
        table.add_row(f"{w} worker{'s' if w > 1 else ''}: wall draws/s (best of {sc['repeats']})", f"{row['wall_per_second']:,.0f}", "-", row["uptime_end"])
    table.add_row("scaling efficiency 1 -> 2 workers", f"{100 * sc['efficiency']:.0f} %", f">= {100 * EFFICIENCY_TARGET:.0f} %", sc["workers_2"]["uptime_end"])
    console.print(fitted(table))
    path = write_report_file(report, out_path, force=force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
    return typer.Exit(0)
