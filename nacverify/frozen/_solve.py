"""One regime instance solved twice (at `SolveOptions` tolerances and 100x tighter, the
second estimating the first one's error), compared with the frozen solution, and
reduced per member to a `MemberSummary` (tightness of every bound, relative errors).

The reference solver is diffrax's `solve_ensemble` unless `SolveOptions.backend` names
another backend of `nacverify.solvers`.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from ..errors import BadInput, EnvironmentProblem, NacverifyError
from ..compute.precision import uses_float64
from ..margins import solver_margin
from ..odes import frozen_solution
from ..regimes import Regime
from ..run.shared_work import cached
from ..solvers import solve_ensemble
from ._bounds import bound_curves, variation_bound
from ._specs import RegimeSpec, SolveOptions

__all__ = ["TIGHTER_FACTOR", "ROUNDING", "MemberSummary", "FrozenErrorRun", "run_frozen_error", "cached_run"]

TIGHTER_FACTOR = 100.0  # second solve at tolerances / 100 estimates the first one's error
ROUNDING = 16 * np.finfo(np.float64).eps


@dataclass
class MemberSummary:
    """Per-member reductions over t (arrays of shape (N,)) for every bound."""

    tightness: dict[str, np.ndarray]  # max_t |eps| / bound
    peak_t: dict[str, np.ndarray]  # argmax time of the ratio
    min_slack: dict[str, np.ndarray]  # min_t (bound - |eps| - margin)
    max_excess: dict[str, np.ndarray]  # max_t (|eps| - margin - bound)
    rel_mean_pct: np.ndarray
    rel_max_pct: np.ndarray
    rel_margin_pct: np.ndarray
    max_abs_error: np.ndarray
    max_solver_error: np.ndarray
    phi_variation_pct: np.ndarray
    omega_variation_pct: np.ndarray
    variation_bound_pct: np.ndarray
    variation_applicable: np.ndarray

    @staticmethod
    def concat(parts: list["MemberSummary"]) -> "MemberSummary":
        def cat(values):
            if isinstance(values[0], dict):
                return {k: np.concatenate([v[k] for v in values]) for k in values[0]}
            return np.concatenate(values)

        return MemberSummary(**{f: cat([getattr(p, f) for p in parts]) for f in MemberSummary.__dataclass_fields__})

    def take(self, n: int) -> "MemberSummary":
        def cut(v):
            return {k: a[:n] for k, a in v.items()} if isinstance(v, dict) else v[:n]

        return MemberSummary(**{f: cut(getattr(self, f)) for f in MemberSummary.__dataclass_fields__})


@dataclass(eq=False)
class FrozenErrorRun:
    """One regime instance solved and measured (N = 1 for a single run)."""

    spec: RegimeSpec
    regime: Regime
    options: SolveOptions
    t: np.ndarray
    phi: np.ndarray  # (N, P)
    omega: np.ndarray
    a_varying: np.ndarray
    a_frozen: np.ndarray
    solver_error: np.ndarray  # running max of |a(rtol) - a(rtol/100)|, plus rounding
    bounds: dict[str, np.ndarray]
    summary: MemberSummary
    num_steps: int
    seconds: float

    @functools.cached_property
    def abs_error(self) -> np.ndarray:
        return np.abs(self.a_varying - self.a_frozen)

    @functools.cached_property
    def rel_error(self) -> np.ndarray:
        """Relative error as defined in the package docstring (NaN where excluded)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = self.abs_error / np.abs(self.a_varying)
        rel[:, 0] = np.nan
        rel[np.abs(self.a_varying) < self.options.rel_floor] = np.nan
        return rel

    @functools.cache
    def series(self, member: int = 0) -> dict[str, np.ndarray]:
        """One member's curves over t as 1-D arrays (the same objects on every call,
        so a report stores each once)."""
        out = {
            "t": self.t,
            "phi": self.phi[member],
            "omega": self.omega[member],
            "a_varying": self.a_varying[member],
            "a_frozen": self.a_frozen[member],
            "abs_error": self.abs_error[member],
            "rel_error": self.rel_error[member],
            "solver_error": self.solver_error[member],
        }
        out.update({f"bound_{k}": v[member] for k, v in self.bounds.items()})
        return out


def _evaluate_gates(regime: Regime, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    coeffs = regime.coefficients
    tj = jnp.asarray(t)
    phi = jax.vmap(coeffs.phi)(tj)  # (P, N)
    omega = jax.vmap(coeffs.omega)(tj)
    shape = (regime.size, t.shape[0])
    return np.broadcast_to(np.asarray(phi).T, shape).copy(), np.broadcast_to(np.asarray(omega).T, shape).copy()


def _summarise(regime: Regime, t, phi, omega, a_var, a_frz, margin, bounds, opts: SolveOptions) -> MemberSummary:
    eps = np.abs(a_var - a_frz)[:, 1:]
    m = margin[:, 1:]
    tt = t[1:]
    tightness, peak_t, min_slack, max_excess = {}, {}, {}, {}
    for name, b in bounds.items():
        b = b[:, 1:]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(b > 0, eps / b, np.where(eps > m, np.inf, 0.0))
        ratio = np.where(np.isfinite(b), ratio, 0.0)
        idx = np.argmax(ratio, axis=1)
        tightness[name] = ratio[np.arange(len(idx)), idx]
        peak_t[name] = tt[idx]
        with np.errstate(invalid="ignore"):
            min_slack[name] = np.min(b - eps - m, axis=1)
            max_excess[name] = np.max(eps - m - b, axis=1)
    denom = np.abs(a_var[:, 1:])
    ok = denom >= opts.rel_floor
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(ok, eps / denom, np.nan)
        rel_m = np.where(ok, m / denom, np.nan)
    count = ok.sum(axis=1)
    rel_mean = np.where(count > 0, np.nansum(rel, axis=1) / np.maximum(count, 1), np.nan)
    rel_max = np.where(count > 0, np.nanmax(np.where(ok, rel, -np.inf), axis=1), np.nan)
    rel_marg = np.where(count > 0, np.nanmax(np.where(ok, rel_m, -np.inf), axis=1), np.nan)
    f = regime.facts
    v_phi = f.V_phi / np.abs(f.phi0)
    v_omega = f.V_omega / f.omega0
    a0 = a_var[:, 0]
    applicable = (a0 == 0) & (f.phi0 > 0) & (np.min(phi, axis=1) > 0) & (v_phi < 1) & (v_omega < 1)
    measured_vphi = 100 * np.max(np.abs(phi - phi[:, :1]), axis=1) / np.abs(phi[:, 0])
    measured_vomega = 100 * np.max(np.abs(omega - omega[:, :1]), axis=1) / omega[:, 0]
    return MemberSummary(
        tightness=tightness,
        peak_t=peak_t,
        min_slack=min_slack,
        max_excess=max_excess,
        rel_mean_pct=100 * rel_mean,
        rel_max_pct=100 * rel_max,
        rel_margin_pct=100 * rel_marg,
        max_abs_error=np.max(eps, axis=1),
        max_solver_error=np.max(m, axis=1),
        phi_variation_pct=measured_vphi,
        omega_variation_pct=measured_vomega,
        variation_bound_pct=100 * variation_bound(v_phi, v_omega),
        variation_applicable=applicable,
    )


def _solve_pair_backend(regime: Regime, t: np.ndarray, opts: SolveOptions):
    """`_solve_pair` with another backend of nacverify.solvers (EnvironmentProblem if missing)."""
    from ..solvers import EnsembleSolution, nac_problem, require_backend

    backend = require_backend(opts.backend)
    problem = nac_problem(regime, t)
    pair = []
    for factor in (1.0, TIGHTER_FACTOR):
        sol = backend.solve(problem, rtol=opts.rtol / factor, atol=opts.atol / factor, estimate_error=False)
        pair.append(EnsembleSolution(t, sol.ys, sol.num_steps, max(sol.num_rejected, 0)))
    return tuple(pair)


def _solve_pair(regime: Regime, t: np.ndarray, opts: SolveOptions):
    if opts.backend != "diffrax":
        return _solve_pair_backend(regime, t, opts)
    a0 = regime.params["a0"]
    jumps = regime.facts.jump_ts
    first = solve_ensemble(regime.coefficients, a0, t, rtol=opts.rtol, atol=opts.atol, jump_ts=jumps)
    tight = solve_ensemble(
        regime.coefficients, a0, t, rtol=opts.rtol / TIGHTER_FACTOR, atol=opts.atol / TIGHTER_FACTOR, jump_ts=jumps
    )
    return first, tight


def _measure(spec: RegimeSpec, regime: Regime, opts: SolveOptions, t: np.ndarray, first, tight, seconds: float) -> FrozenErrorRun:
    a0 = regime.params["a0"]
    a_var = first.ys
    a_frz = np.asarray(frozen_solution(t[None, :], a0[:, None], regime.facts.phi0[:, None], regime.facts.omega0[:, None]))
    margin = solver_margin(first.ys, tight.ys, opts.rtol / TIGHTER_FACTOR, opts.atol / TIGHTER_FACTOR) + ROUNDING * np.abs(a_frz)
    margin[:, 0] = 0.0  # a(0) = a0 exactly in both
    phi, omega = _evaluate_gates(regime, t)
    bounds = bound_curves(t, regime.facts, a0)
    summary = _summarise(regime, t, phi, omega, a_var, a_frz, margin, bounds, opts)
    return FrozenErrorRun(spec, regime, opts, t, phi, omega, a_var, a_frz, margin, bounds, summary, first.num_steps, seconds)


@uses_float64
def run_frozen_error(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> FrozenErrorRun:
    """Solve one regime instance at `opts` and at 100x tighter tolerances, and measure (in float64,
    whatever the caller's JAX setting: `nacverify.compute.precision`)."""
    regime = spec.build()
    t = np.linspace(0.0, regime.T, opts.points)
    start = time.perf_counter()
    try:
        first, tight = _solve_pair(regime, t, opts)
    except (BadInput, EnvironmentProblem):
        raise
    except NacverifyError as exc:
        if spec.name != "custom":
            raise
        # the user's formulas are what the solver could not integrate (a pole between the grid's
        # points, a frequency beyond any step size): their input, not the environment
        raise BadInput(f"--phi {spec.phi_formula!r} and --omega {spec.omega_formula!r} cannot be integrated on [0, {regime.T:g}] "
                       f"({exc}): a pole or a frequency too high for the solver?") from None
    return _measure(spec, regime, opts, t, first, tight, time.perf_counter() - start)


_RUN_CACHE: dict[tuple, FrozenErrorRun] = {}


def cached_run(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> FrozenErrorRun:
    """`run_frozen_error`, once per (spec, options) in this process (the claims on one regime share it)."""
    return cached(_RUN_CACHE, (spec, opts), lambda: run_frozen_error(spec, opts), f"frozen-error.run:{spec!r}:{opts!r}")
