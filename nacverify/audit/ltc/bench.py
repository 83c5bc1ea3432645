r"""The LTC audit benchmark (`nacverify bench --ltc-audit`, issue 12 B "Performance").

Protocol, one process, nothing compiled beforehand (the audit's compilations are part of its
time, as in a fresh `nacverify audit-ltc` run):

1. build a seeded ``ncps.torch.LTC`` (FullyConnected or AutoNCP wiring, ncps's defaults:
   6 unfolds, implicit constraints) and export a run of `steps` steps, batch 1, standard-normal
   inputs, elapsed times log-uniform in [0.1, 10] (`random_ncps_run`, as `export_random_ncps`), to an NPZ file;
   timed: running the cell, writing the file;
2. audit that file as `nacverify audit-ltc FILE` does: read it, build the five claims, evaluate
   each; timed per claim and in total (wall and process CPU time: on a shared machine the CPU
   time is the steadier number);
3. the fused solver's error against elapsed time (not timed): from `samples` exported states
   spread evenly over the run (step 0, the rest state, included), with their inputs held, the
   fused update with u unfolds over an interval of each of `ELAPSED` against the reference
   solve of the audit (`compare_with_reference`, the claim's relative error and reference
   check), for u in the audit's `UNFOLD_GRID` and the cell's own unfolds: max and median over
   the samples, with the reference's error (its stated bound, tested on 32 intervals); a
   figure whose reference is not shown converged is NaN.

Wall times depend on the machine's load; the result records ``os.getloadavg()`` before and after.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...claims import CheckContext, evaluate
from ...errors import BadInput
from .claims import CHECK_FACTOR, CHECK_LANES, ESTIMATE_FLOOR, REF_ATOL, REF_RTOL, UNFOLD_GRID, _Cell, ltc_audit_claims
from .export import ncps_cell_entries, random_ncps_run
from .format import read_ltc_export, write_ltc_export
from .numerics import ODE_SOLVER, compare_with_reference
from .updates import update_of

__all__ = ["ELAPSED", "AUDIT_TARGET_S", "WIRINGS", "Timing", "LTCAuditBench", "bench_ltc_audit", "ltc_bench_section"]

ELAPSED = (0.1, 1.0, 10.0, 100.0)
AUDIT_TARGET_S = 10.0  # issue 12: the whole audit of a 64-unit LTC over 10,000 steps, on the project's 2-core CPU
WIRINGS = ("fc", "autoncp")


@dataclass(frozen=True)
class Timing:
    """Wall-clock and process CPU seconds of one part."""

    wall_s: float
    cpu_s: float


class _Clock:
    def __enter__(self) -> "_Clock":
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc) -> None:
        self.timing = Timing(time.perf_counter() - self._wall, time.process_time() - self._cpu)


@dataclass
class LTCAuditBench:
    """What `bench_ltc_audit` measured."""

    config: dict[str, Any]
    export_run: Timing
    export_write: Timing
    read: Timing
    claims: list[tuple[str, str, Timing]]  # (claim id, verdict, time)
    audit: Timing  # read + claims, as `nacverify audit-ltc FILE` after its imports
    elapsed: np.ndarray  # (E,)
    unfolds: np.ndarray  # (U,)
    max_relative_error: np.ndarray  # (E, U)
    median_relative_error: np.ndarray  # (E, U)
    reference_error_bound: np.ndarray  # (E,) the stated bound of the reference's error (10 rtol + rounding)
    reference_error_measured: np.ndarray  # (E,) the largest error measured against a 100x tighter re-solve (32 intervals)
    max_reference_steps: np.ndarray  # (E,)
    samples: np.ndarray  # the steps whose states start the intervals
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def export(self) -> Timing:
        return Timing(self.export_run.wall_s + self.export_write.wall_s, self.export_run.cpu_s + self.export_write.cpu_s)

    def error_at(self, elapsed: float, unfolds: int) -> tuple[float, float]:
        """(max, median) relative error at one grid point."""
        i, j = int(np.argmin(np.abs(self.elapsed - elapsed))), int(np.flatnonzero(self.unfolds == unfolds)[0])
        return float(self.max_relative_error[i, j]), float(self.median_relative_error[i, j])


def _loadavg() -> tuple[float, float, float]:
    try:
        return tuple(float(x) for x in os.getloadavg())  # type: ignore[return-value]
    except OSError:  # pragma: no cover - not on every platform
        return (float("nan"),) * 3


def bench_ltc_audit(directory: str | os.PathLike, *, units: int = 64, inputs: int = 4, steps: int = 10_000, wiring: str = "fc",
                    seed: int = 0, samples: int = 64, progress: Callable[[str], None] | None = None,
                    partial: dict[str, Any] | None = None) -> LTCAuditBench:
    """Run the protocol of the module docstring; the export goes to `directory` (it must exist)
    as ``ltc-bench-<units>u-<steps>s-<wiring>-seed<seed>.npz`` (an existing one is replaced).
    `progress(stage)` names each stage as it starts; `partial` (if given) receives each timing
    as soon as it is measured, so an interrupted run keeps what finished."""
    if wiring not in WIRINGS:
        raise BadInput(f"unknown wiring {wiring!r}; choose one of {', '.join(WIRINGS)}")
    if samples < 1:
        raise BadInput(f"samples must be >= 1, got {samples}")
    say = progress or (lambda stage: None)
    done = partial if partial is not None else {}
    load_before = _loadavg()
    path = Path(directory) / f"ltc-bench-{units}u-{steps}s-{wiring}-seed{seed}.npz"
    say("export (ncps)")
    cell, x, el = random_ncps_run(units=units, inputs=inputs, steps=steps, seed=seed, wiring=wiring)
    with _Clock() as run:
        entries = ncps_cell_entries(cell, x, el)
    with _Clock() as write:
        written = write_ltc_export(entries, path, overwrite=True)
    done.update(export_run_wall_s=run.timing.wall_s, export_write_wall_s=write.timing.wall_s)
    say("audit")
    results = []
    with _Clock() as total:
        with _Clock() as reading:
            export = read_ltc_export(written)
        claims = ltc_audit_claims(export, warm_up=True)
        for claim in claims:
            say(f"audit: {claim.id}")
            with _Clock() as clock:
                result = evaluate(claim, CheckContext())
            results.append((claim.id, result.verdict.value, clock.timing))
            done[f"{claim.id}_wall_s"] = clock.timing.wall_s
    done["audit_wall_s"] = total.timing.wall_s
    say("fused error vs elapsed time")
    cell = _Cell.of(export)
    rows = np.unique(np.linspace(0, export.T - 1, min(samples, export.T)).round().astype(int))
    v0 = export.states[rows, 0].astype(np.float64)
    I = export.mapped_inputs()[rows, 0]
    grid = sorted(set(UNFOLD_GRID) | {export.ode_unfolds})
    E, U = len(ELAPSED), len(grid)
    mx, md, bound, measured, nsteps = np.empty((E, U)), np.empty((E, U)), np.empty(E), np.empty(E), np.empty(E, dtype=np.int64)
    for i, h in enumerate(ELAPSED):
        cmp = compare_with_reference(cell, v0, I, np.full(rows.size, h), grid, export.ode_unfolds, rtol=REF_RTOL, atol=REF_ATOL,
                                     check_factor=CHECK_FACTOR, check_rows=CHECK_LANES, floor=ESTIMATE_FLOOR,
                                     update=update_of("fused"))
        ok = bool(cmp.finished.all() and cmp.check_finished.all() and cmp.estimate_covers.all())  # else NaN: no figure without a reference
        for j, u in enumerate(grid):
            mx[i, j] = np.max(cmp.rel[u]) if ok else np.nan
            md[i, j] = np.median(cmp.rel[u]) if ok else np.nan
        bound[i] = cmp.bound if ok else np.nan
        measured[i] = float(np.max(cmp.check_error)) if cmp.check_error.size else np.nan
        nsteps[i] = int(cmp.steps.max())
    config = {"units": units, "inputs": inputs, "steps": steps, "batch": 1, "wiring": wiring, "seed": seed, "ode_unfolds": export.ode_unfolds,
              "elapsed_distribution": "log-uniform in [0.1, 10]", "implementation": export.implementation, "export_file": str(written),
              "export_bytes": written.stat().st_size, "cpu_count": os.cpu_count() or 0, "samples": int(rows.size),
              "reference_solver": ODE_SOLVER, "reference_rtol": REF_RTOL, "reference_atol": REF_ATOL,
              "reference_error_floor": ESTIMATE_FLOOR * REF_RTOL, "check_factor": CHECK_FACTOR}
    return LTCAuditBench(config, run.timing, write.timing, reading.timing, results, total.timing, np.asarray(ELAPSED),
                         np.asarray(grid), mx, md, bound, measured, nsteps, rows, load_before, _loadavg())


def ltc_bench_section(b: LTCAuditBench) -> dict[str, dict[str, Any]]:
    """`Report.sections` entries under ``bench/ltc_audit`` (reports/SCHEMA.md)."""
    root = "bench/ltc_audit"
    out: dict[str, dict[str, Any]] = {
        f"{root}/config": {**b.config, "load_average_before": list(b.load_before), "load_average_after": list(b.load_after)},
        f"{root}/timings": {
            "export_wall_s": b.export.wall_s, "export_cpu_s": b.export.cpu_s, "export_run_wall_s": b.export_run.wall_s,
            "export_run_cpu_s": b.export_run.cpu_s, "export_write_wall_s": b.export_write.wall_s, "read_wall_s": b.read.wall_s,
            "audit_wall_s": b.audit.wall_s, "audit_cpu_s": b.audit.cpu_s, "audit_target_s": AUDIT_TARGET_S,
            "audit_target_met": bool(b.audit.wall_s <= AUDIT_TARGET_S), **b.extra,
        },
        f"{root}/fused_error_vs_elapsed": {
            "elapsed": b.elapsed, "unfolds": b.unfolds, "max_relative_error": b.max_relative_error,
            "median_relative_error": b.median_relative_error, "reference_error_bound": b.reference_error_bound,
            "reference_error_measured": b.reference_error_measured,
            "max_reference_steps": b.max_reference_steps, "sample_steps": b.samples,
            "relative_error": "max_i |fused - ref|_i / max(max_i |ref_i|, max_i |v0_i|) per interval (as audit.ltc.solver_error)",
        },
    }
    for cid, verdict, t in b.claims:
        out[f"{root}/claims/{cid.replace('.', '_')}"] = {"claim": cid, "verdict": verdict, "wall_s": t.wall_s, "cpu_s": t.cpu_s}
    return out
