"""The sweep part of `nacverify frozen-error --sweep N`: plan (storage, refusal), run on the
executor `cli._cluster.cluster` chooses (or, with none, on `--threads` threads of this process:
one per usable core by default), stream per-draw summaries into the report's spool,
state the time estimate after the calibration chunk, and lay out the report section.

No math here: the sweep itself is `nacverify.frozen.run_sweep`.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from nacverify.claims import CheckContext, evaluate
from nacverify.errors import BadInput, Interrupted
from nacverify.frozen import BOUNDS, SolveOptions, SweepRun, SweepSpec, cached_run, run_sweep, scipy_baseline, witness_spec
from nacverify.frozen._stats import Extreme, SweepStats
from nacverify.frozen._sweep import RAW_BYTES_PER_DRAW, default_chunk, ChunkResult, SweepEstimate, _parallelism, estimate_sweep
from nacverify.frozen.claims import sweep_claims
from nacverify.regimes import DRAW_BLOCK, SWEEP_RANGES, sample_draws
from nacverify.report import Report, Spool, check_space, human_size

from ._output import progress_bar

#: The largest sweep accepted (global draw indices stay exact in float64 and int64).
MAX_DRAWS = 2**53
#: Quantiles read from the histograms (exact to one bin width).
QUANTILES = (0.5, 0.9, 0.99, 0.999)

DRAWS_DOC = (
    "draw i = nacverify.regimes.sample_draws(regime, seed, i, i + 1): entry i % {block} of block i // {block}, "
    "drawn from numpy SeedSequence(seed, spawn_key=(i // {block},)); chunk k = draws k*chunk .. k*chunk + chunk - 1, "
    "solved as one system (max-norm error control), so the chunk size is part of the sweep's definition"
)


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "unknown"
    seconds = int(round(seconds))
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return f"{d} d {h} h"
    if h:
        return f"{h} h {m} min"
    return f"{m} min {s} s" if m else f"{s} s"


def plan_sweeps(names: list[str], n: int, seed: int, T: float, a0: float, opts: SolveOptions, chunk: int, keep_draws: bool,
                out_path: Path) -> tuple[list[SweepSpec], str]:
    """Validate the sweeps and refuse (BadInput, one line) what cannot be stored: more than
    MAX_DRAWS draws, or per-draw datasets (uncompressed size, an upper bound) that do not fit
    on the report's file system. Returns the specs and the line that states the plan."""
    if n > MAX_DRAWS:
        raise BadInput(f"--sweep {n} exceeds the largest sweep nacverify runs ({MAX_DRAWS:,} = 2^53 draws)")
    specs = [SweepSpec(name, n, seed, chunk, T, a0, opts) for name in names]
    need = RAW_BYTES_PER_DRAW * n * len(specs) if keep_draws else 0
    what = f"--sweep {n:,} ({len(specs)} regime{'s' if len(specs) > 1 else ''} x {RAW_BYTES_PER_DRAW} B per draw, uncompressed)"
    free = check_space(out_path, need, what, "pass --no-keep-draws to keep only witnesses, statistics and histograms, or sweep fewer draws")
    c = specs[0].chunk
    line = (f"sweep: {n:,} draws per regime in {specs[0].n_chunks:,} chunks of {c:,} (seed {seed}); "
            + (f"per-draw storage at most {human_size(need)} ({human_size(free)} free)" if keep_draws else "per-draw summaries not kept (--no-keep-draws)"))
    return specs, line


def _attrs_of(e: Extreme | None) -> dict[str, Any]:
    if e is None:
        return {}
    return {"value": e.value, "draw": e.index, **e.extra, **{f"param_{k}": v for k, v in e.params.items()}}


def _stats_section(stats: SweepStats) -> dict[str, Any]:
    out: dict[str, Any] = {"max_solver_error": stats.max_solver_error, "draws": stats.draws}
    for b, s in stats.bounds.items():
        out[b] = {"min_slack": s.min_slack, "members_refuted": s.refuted, "members_inconclusive": s.undecided,
                  "top_draws": np.array([e.index for e in s.top], dtype=np.int64), "top_tightness": np.array([e.value for e in s.top])}
    v = stats.variation
    out["variation"] = {"applicable": v.applicable, "members_exceeded": v.exceeded, "min_slack_pct": v.min_slack}
    return out


def _histograms_section(stats: SweepStats) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, h in stats.histograms.items():
        edges = np.array([h.quantile(q) for q in QUANTILES])
        out[name] = {"counts": h.counts, "low": h.low, "high": h.high, "bins": int(h.counts.shape[0]), "bin_width": h.width,
                     "below": h.below, "above": h.above, "nan": h.nan, "quantiles": np.array(QUANTILES),
                     "quantile_low": edges[:, 0], "quantile_high": edges[:, 1], "quantile_error": h.width}
    return out


def sweep_section(sw: SweepRun, *, baseline: tuple[float, int] | None = None, worst_runs: dict[str, Any] | None = None,
                  estimate: SweepEstimate | None = None, stored_bytes: int = 0, keep_draws: bool = True, scheduler: str = "serial",
                  load: dict[str, tuple[float, float, float]] | None = None) -> dict[str, Any]:
    """The report section `/frozen_error/<regime>/sweep` (per-draw datasets come from the spool)."""
    section: dict[str, Any] = {
        "n_requested": sw.n_requested,
        "n_done": sw.n_done,
        "seed": sw.seed,
        "complete": sw.complete,
        "chunk": sw.chunk,
        "draw_block": DRAW_BLOCK,
        "draws": DRAWS_DOC.format(block=DRAW_BLOCK),
        "rtol": sw.options.rtol,
        "atol": sw.options.atol,
        "points": sw.options.points,
        "compile_seconds": sw.compile_seconds,
        "solve_seconds": sw.solve_seconds,
        "verify_seconds": sw.verify_seconds,
        "analysis_seconds": sw.analysis_seconds,
        "write_seconds": sw.write_seconds,
        "chunk_default": default_chunk(sw.options.points),
        "trajectories_per_second": sw.trajectories_per_second,
        "total_seconds": sw.total_seconds,
        "end_to_end_per_second": sw.end_to_end_per_second,
        "wall_seconds": sw.wall_seconds,
        "wall_per_second": sw.wall_per_second,
        "workers": sw.workers,
        "worker_processes": len(sw.worker_names),
        "scheduler": scheduler,
        "num_steps_max": sw.num_steps_max,
        "sweep_ranges": {k: list(v) for k, v in SWEEP_RANGES.items()},
        "keep_draws": keep_draws,
        "stored_bytes": stored_bytes,
        "bytes_per_draw": stored_bytes / sw.n_done if sw.n_done and keep_draws else 0.0,
    }
    for key, value in (load or {}).items():
        section[key] = list(value)
    if estimate is not None:
        section.update(estimate_seconds=estimate.seconds, estimate_bytes=estimate.bytes, calibration_chunk_seconds=estimate.chunk_seconds)
    if sw.stats is not None:
        section["witnesses"] = {
            **{f"tightness_{b}": _attrs_of(s.tightness) for b, s in sw.stats.bounds.items()},
            **{f"excess_{b}": _attrs_of(s.excess) for b, s in sw.stats.bounds.items()},
            "variation_ratio": _attrs_of(sw.stats.variation.ratio),
        }
        section["stats"] = _stats_section(sw.stats)
        section["histograms"] = _histograms_section(sw.stats)
    if baseline is not None:
        rate, count = baseline
        section["scipy_baseline"] = {
            "method": "scipy.integrate.solve_ivp DOP853, one trajectory at a time",
            "draws_timed": count,
            "trajectories_per_second": rate,
            "speedup": sw.trajectories_per_second / rate,
        }
    for bound, run in (worst_runs or {}).items():
        section[f"worst_{bound}"] = dict(run.series())
    return section


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_sweeps(specs: list[SweepSpec], *, report: Report, out_path: Path, executor: Executor | None, where: str, keep_draws: bool,
               scipy_draws: int, ctx: CheckContext, threads: int = 1) -> list[tuple[SweepRun, tuple[float, int] | None]]:
    """Run each sweep on `executor` (`where` names it in the report; None: here, on `threads` threads,
    at most one per chunk: the report says `serial` or `K threads`),
    spooling its per-draw summaries into the report, evaluate its claims into `report.results`,
    and add its section. On an interrupt the finished chunks' section is added before
    `Interrupted` propagates."""
    rows: list[tuple[SweepRun, tuple[float, int] | None]] = []
    spool = Spool(out_path, rows_per_chunk=min(max(specs[0].chunk, 1024), 65536)) if keep_draws else None
    if spool is not None:
        report.spool = spool.path
    finished = False
    try:
        with progress_bar() as bar:
            for spec in specs:
                group = f"frozen_error/{spec.name}/sweep"
                task = bar.add_task(f"sweep {spec.name}", total=spec.n)
                state: dict[str, Any] = {"estimate": None}
                load = {"load_average_start": os.getloadavg()}

                def on_chunk(res: ChunkResult, spec=spec, group=group, state=state) -> None:
                    if spool is not None:
                        spool.append(f"{group}/members", res.stored())
                        spool.append(f"{group}/params", res.params)
                    if res.index == 0:
                        workers = state["workers"]
                        if spool is not None:
                            spool.flush()  # compressed sizes are known once written
                        per_draw = spool.stored_bytes(group) / res.count if spool is not None else 0.0
                        est = estimate_sweep(spec, res.seconds, workers, per_draw)
                        state["estimate"] = est
                        bar.console.print(
                            f"sweep {spec.name}: estimated {_duration(est.seconds)} on {workers} worker{'s' if workers > 1 else ''} "
                            f"(calibration chunk: {res.seconds:.2f} s for {res.count:,} draws, compile {res.compile_seconds:.1f} s excluded); "
                            + (f"storage about {human_size(est.bytes)} ({per_draw:.0f} B per draw, compressed)" if spool is not None else "no per-draw storage"),
                            markup=False, highlight=False)

                state["workers"] = min(threads, spec.n_chunks) if executor is None else _parallelism(executor)
                label = where if executor is not None else ("serial" if state["workers"] <= 1 else f"{state['workers']} threads")
                progress = lambda done, total, task=task: bar.update(task, completed=done)  # noqa: E731
                stored = lambda group=group: spool.stored_bytes(group) if spool is not None else 0  # noqa: E731
                try:
                    sw = run_sweep(spec.name, spec.n, spec.seed, T=spec.T, a0=spec.a0, opts=spec.options, chunk=spec.chunk,
                                   executor=executor, on_chunk=on_chunk, progress=progress, threads=threads if executor is None else 1)
                except Interrupted as exc:
                    if isinstance(exc.partial, SweepRun) and exc.partial.stats is not None:  # the chunks that finished
                        if spool is not None:  # a Ctrl-C between a chunk's count and its rows' storage: keep what the count says
                            spool.truncate(group, exc.partial.n_done)
                        load["load_average_end"] = os.getloadavg()
                        report.sections[group] = sweep_section(exc.partial, stored_bytes=stored(), estimate=state["estimate"],
                                                               keep_draws=keep_draws, scheduler=label, load=load)
                    raise
                load["load_average_end"] = os.getloadavg()
                common = dict(estimate=state["estimate"], keep_draws=keep_draws, scheduler=label, load=load)
                report.sections[group] = sweep_section(sw, stored_bytes=stored(), **common)  # kept if interrupted below
                baseline = None
                if scipy_draws:
                    count = min(scipy_draws, spec.n)
                    first = sample_draws(spec.name, spec.seed, 0, count, T=spec.T, a0=spec.a0)
                    rate_sp, _ = scipy_baseline(first, np.linspace(0, spec.T, spec.options.points), spec.options, count)
                    baseline = (rate_sp, count)
                worst = {b: cached_run(witness_spec(sw, b), spec.options) for b in BOUNDS if spec.name != "step" or b == "bv"}
                report.results += [evaluate(c, ctx) for c in sweep_claims(spec.name, spec.n, spec.seed, spec.T, spec.a0, spec.options, chunk=spec.chunk, run=sw)]
                report.sections[group] = sweep_section(sw, baseline=baseline, worst_runs=worst, stored_bytes=stored(), **common)
                rows.append((sw, baseline))
        finished = True
    except (Interrupted, KeyboardInterrupt):
        finished = True  # the report is written with what finished
        raise
    finally:
        if spool is not None:
            spool.close()
            if not finished:  # an error escaped: no report will take the spool
                spool.discard()
                report.spool = None
    return rows


def sweep_table(rows: list[tuple[SweepRun, tuple[float, int] | None]], title: str) -> Table:
    table = Table(title=title)
    for col in ("regime", "traj/s", "end-to-end/s", "wall/s", "jobs", "compile s", "scipy/s", "speedup", "Thm3", "sharp", "BV", "err/var"):
        table.add_column(col, justify="right", no_wrap=True)
    for sw, baseline in rows:
        s = sw.stats
        tights = [f"{s.bounds[b].tightness.value:.4g}" if sw.regime_name != "step" or b == "bv" else "n/a" for b in BOUNDS]
        vb = s.variation.ratio.value if s.variation.ratio is not None else 0.0
        sp = (f"{baseline[0]:.0f}", f"{sw.trajectories_per_second / baseline[0]:.0f}x") if baseline else ("-", "-")
        table.add_row(sw.regime_name, f"{sw.trajectories_per_second:,.0f}", f"{sw.end_to_end_per_second:,.0f}", f"{sw.wall_per_second:,.0f}", str(sw.workers),
                      f"{sw.compile_seconds:.2f}", *sp, *tights, f"{vb:.4g}")
    return table

