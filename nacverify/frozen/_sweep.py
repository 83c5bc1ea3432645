"""Random sweeps: N members of a named regime family drawn with a seed, solved in chunks
by one compiled diffrax solve, kept only as per-member reductions (`SweepRun`); and the
scipy baseline the sweep's speed is compared with.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import Interrupted
from ..regimes import STEP_GRID, Regime, named_regime, sample_regime
from ..solvers import solve_ensemble
from ._bounds import BOUNDS
from ._solve import TIGHTER_FACTOR, MemberSummary, _measure, _solve_pair
from ._specs import RegimeSpec, SolveOptions

__all__ = ["SweepRun", "run_sweep", "cached_sweep", "member_spec", "scipy_baseline"]


@dataclass
class SweepRun:
    """N random members of a named family, reduced per member (no trajectories kept),
    plus the worst member re-run singly for its trajectory."""

    regime_name: str
    T: float
    n_requested: int
    seed: int
    options: SolveOptions
    params: dict[str, np.ndarray]
    summary: MemberSummary
    complete: bool
    solve_seconds: float  # primary solves only, compile excluded
    verify_seconds: float  # the 100x tighter solves
    compile_seconds: float
    total_seconds: float  # the whole sweep after compiling: both solves and the analysis
    chunk: int
    num_steps_max: int
    worst: dict[str, int] = field(default_factory=dict)  # bound -> member index of max tightness

    @property
    def n_done(self) -> int:
        return int(self.summary.rel_max_pct.shape[0]) if self.summary is not None else 0

    @property
    def trajectories_per_second(self) -> float:
        """Primary diffrax solves only (1001 saved points each), compile excluded."""
        return self.n_done / self.solve_seconds if self.solve_seconds > 0 else float("nan")

    @property
    def end_to_end_per_second(self) -> float:
        """Everything after the compile: both solves and the per-draw analysis."""
        return self.n_done / self.total_seconds if self.total_seconds > 0 else float("nan")


def _slice_regime(regime: Regime, lo: int, hi: int, pad_to: int) -> Regime:
    """Members lo:hi of a sampled regime, padded (by repeating the last) to `pad_to`."""
    idx = np.arange(lo, hi)
    if len(idx) < pad_to:
        idx = np.concatenate([idx, np.full(pad_to - len(idx), hi - 1)])
    p = regime.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    sub = named_regime(
        regime.name,
        T=regime.T,
        phi0=p["phi0"][idx],
        omega0=p["omega0"][idx],
        phi_variation_pct=100 * p["phi_amp"][idx],
        omega_variation_pct=100 * p["omega_amp"][idx],
        shape=p[shape_key][idx] if shape_key else np.zeros(len(idx)),
        a0=float(p["a0"][0]),
    )
    if regime.name == "step":  # one fixed set of possible jumps: no recompiles between chunks
        facts = sub.facts
        sub = Regime(sub.name, sub.T, sub.coefficients, type(facts)(**{**facts.__dict__, "jump_ts": tuple(STEP_GRID * regime.T)}), sub.params, sub.description)
    return sub


def run_sweep(
    name: str,
    n: int,
    seed: int,
    *,
    T: float = 1.0,
    a0: float = 0.0,
    opts: SolveOptions = SolveOptions(),
    chunk: int = 2000,
    progress: Callable[[int, int], None] | None = None,
) -> SweepRun:
    """Draw `n` members of family `name` with `seed` and solve them in chunks of
    `chunk` members (one compiled solve, reused). `progress(done, total)` is called
    after each chunk. On KeyboardInterrupt raises `Interrupted` whose `partial` is the
    SweepRun of the finished chunks (complete=False)."""
    regime = sample_regime(name, n, seed, T=T, a0=a0)
    t = np.linspace(0.0, T, opts.points)
    chunk = max(1, min(chunk, n))
    parts: list[MemberSummary] = []
    solve_s = verify_s = compile_s = 0.0
    loop_start = time.perf_counter()
    steps = 0
    spec = RegimeSpec(name, T=T, a0=a0)

    def result(complete: bool) -> SweepRun:
        summary = MemberSummary.concat(parts) if parts else None
        worst = {} if summary is None else {b: int(np.argmax(summary.tightness[b])) for b in BOUNDS}
        done = summary.rel_max_pct.shape[0] if summary is not None else 0
        params = {k: v[:done] for k, v in regime.params.items()}
        return SweepRun(name, T, n, seed, opts, params, summary, complete, solve_s, verify_s, compile_s, time.perf_counter() - loop_start, chunk, steps, worst)

    try:
        warm = _slice_regime(regime, 0, min(chunk, n), chunk)
        start = time.perf_counter()
        _solve_pair(warm, t, opts)  # compile both tolerances once (same shapes for every chunk)
        compile_s = time.perf_counter() - start
        loop_start = time.perf_counter()
        for lo in range(0, n, chunk):
            hi = min(lo + chunk, n)
            sub = _slice_regime(regime, lo, hi, chunk)
            a0s = sub.params["a0"]
            t0 = time.perf_counter()
            first = solve_ensemble(sub.coefficients, a0s, t, rtol=opts.rtol, atol=opts.atol, jump_ts=sub.facts.jump_ts)
            t1 = time.perf_counter()
            tight = solve_ensemble(
                sub.coefficients, a0s, t, rtol=opts.rtol / TIGHTER_FACTOR, atol=opts.atol / TIGHTER_FACTOR, jump_ts=sub.facts.jump_ts
            )
            t2 = time.perf_counter()
            solve_s += t1 - t0
            verify_s += t2 - t1
            steps = max(steps, first.num_steps)
            run = _measure(spec, sub, opts, t, first, tight, t2 - t0)
            parts.append(run.summary.take(hi - lo))
            if progress is not None:
                progress(hi, n)
    except KeyboardInterrupt as exc:
        raise Interrupted(f"sweep of {name} interrupted after {sum(p.rel_max_pct.shape[0] for p in parts)} of {n} draws", result(False)) from exc
    return result(True)


def member_spec(sweep: SweepRun, index: int) -> RegimeSpec:
    """The RegimeSpec of one sweep member (to re-run the witness singly)."""
    p = sweep.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    return RegimeSpec(
        sweep.regime_name,
        T=sweep.T,
        phi0=float(p["phi0"][index]),
        omega0=float(p["omega0"][index]),
        phi_variation_pct=float(100 * p["phi_amp"][index]),
        omega_variation_pct=float(100 * p["omega_amp"][index]),
        shape=float(p[shape_key][index]) if shape_key else None,
        a0=float(p["a0"][index]),
    )


_SWEEP_CACHE: dict[tuple, SweepRun] = {}


def cached_sweep(name: str, n: int, seed: int, T: float = 1.0, a0: float = 0.0, opts: SolveOptions = SolveOptions(), progress=None) -> SweepRun:
    key = (name, n, seed, T, a0, opts)
    if key not in _SWEEP_CACHE:
        _SWEEP_CACHE[key] = run_sweep(name, n, seed, T=T, a0=a0, opts=opts, progress=progress)
    return _SWEEP_CACHE[key]


def scipy_baseline(sweep_regime: Regime, t: np.ndarray, opts: SolveOptions, n: int, method: str = "DOP853") -> tuple[float, np.ndarray]:
    """Solve the first `n` members one by one with scipy.integrate.solve_ivp (the
    baseline the sweep's speed is compared with). Returns (trajectories per second,
    the solutions (n, P))."""
    from scipy.integrate import solve_ivp

    from ..regimes import shape_function

    p = sweep_regime.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    out = np.empty((n, t.shape[0]))
    start = time.perf_counter()
    for i in range(n):
        phi0, omega0, ap, aw = p["phi0"][i], p["omega0"][i], p["phi_amp"][i], p["omega_amp"][i]
        shape = p[shape_key][i] if shape_key else 0.0
        g = shape_function(sweep_regime.name, sweep_regime.T, shape)

        def rhs(s, a, phi0=phi0, omega0=omega0, ap=ap, aw=aw, g=g):
            gs = g(s)
            return -omega0 * (1 + aw * gs) * a + phi0 * (1 + ap * gs)

        y0 = [p["a0"][i]]
        if sweep_regime.name == "step":  # integrate the two smooth pieces separately
            tj = shape * sweep_regime.T
            left, right = t[t < tj], t[t >= tj]
            s1 = solve_ivp(rhs, (t[0], tj), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=np.append(left, tj))
            s2 = solve_ivp(rhs, (tj, t[-1]), s1.y[:, -1], method=method, rtol=opts.rtol, atol=opts.atol, t_eval=right)
            out[i] = np.concatenate([s1.y[0, :-1], s2.y[0]])
        else:
            out[i] = solve_ivp(rhs, (t[0], t[-1]), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=t).y[0]
    return n / (time.perf_counter() - start), out
