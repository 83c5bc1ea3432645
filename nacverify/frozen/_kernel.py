r"""A sweep chunk's analysis as one compiled XLA function.

`_solve._measure` followed by `_solve._summarise` computes, with numpy, the frozen solution,
the solver margin (`nacverify.margins`), the gates, the three bounds (`_bounds`) and the
per-member reductions of a `MemberSummary`; on a chunk of 2,000 draws x 1,001 points that takes
three times as long as the two solves, because each numpy operation makes a full (N, P)
temporary. `summarise_chunk` computes the same formulas, operation for operation, inside one
`jax.jit`, where XLA fuses them into a few passes over the trajectories. Results agree with the
numpy path to rounding (exp and expm1 are XLA's, not numpy's; tests/test_sweep_stream.py
compares the two), and are deterministic: the same inputs give the same bits in every process.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..margins import _ROUND
from ..precision import float64
from ..regimes import KIND_CODE, Regime, _shape
from ._bounds import BOUNDS
from ._solve import ROUNDING, TIGHTER_FACTOR, MemberSummary
from ._specs import SolveOptions

__all__ = ["summarise_chunk"]


@functools.partial(jax.jit, static_argnames=("kind", "T"))
def _analyse(kind, T, shape, phi_amp, omega_amp, t, a_var, a_tight, diff, a0, phi0, omega0, L_phi, L_omega, V_phi, V_omega, omega_min,
             rtol_t, atol_t, rel_floor):
    # _measure: frozen solution (seed 000 eq. 39), margin (nacverify.margins.solver_margin + rounding), gates, bounds
    a_star = (phi0 / omega0)[:, None]
    a_frz = a_star + (a0[:, None] - a_star) * jnp.exp(-omega0[:, None] * t[None, :])
    margin = 2 * diff + 10 * (rtol_t * jnp.abs(a_tight) + atol_t) + _ROUND * jnp.abs(a_var) + ROUNDING * jnp.abs(a_frz)
    g = _shape(kind, t[None, :] / T, shape[:, None], jnp)  # the family's g, once for both gates (nacverify.regimes.ShapeFamily)
    phi = phi0[:, None] * (1 + phi_amp[:, None] * g)  # (N, P)
    omega = omega0[:, None] * (1 + omega_amp[:, None] * g)
    tt = t[None, :]
    C = (jnp.abs(a0) + jnp.abs(phi0) / omega0)[:, None]
    k = L_phi[:, None] + C * L_omega[:, None]
    bounds = {
        "thm3": jnp.where(jnp.isfinite(k), k * tt**2 * jnp.exp(L_omega[:, None] * tt), jnp.inf),
        "sharp": jnp.where(jnp.isfinite(k), k * tt**2 / 2, jnp.inf),
        "bv": (V_phi[:, None] + C * V_omega[:, None]) * -jnp.expm1(-omega_min[:, None] * tt) / omega_min[:, None],
    }
    # _summarise: t > 0 only (margin[:, 0] = 0 there in _measure; column 0 is dropped)
    eps = jnp.abs(a_var - a_frz)[:, 1:]
    m = margin[:, 1:]
    out = {}
    for name in BOUNDS:
        b = bounds[name][:, 1:]
        ratio = jnp.where(b > 0, eps / b, jnp.where(eps > m, jnp.inf, 0.0))
        ratio = jnp.where(jnp.isfinite(b), ratio, 0.0)
        idx = jnp.argmax(ratio, axis=1)
        out[f"tightness_{name}"] = jnp.take_along_axis(ratio, idx[:, None], axis=1)[:, 0]
        out[f"peak_t_{name}"] = t[1:][idx]
        out[f"min_slack_{name}"] = jnp.min(b - eps - m, axis=1)
        out[f"max_excess_{name}"] = jnp.max(eps - m - b, axis=1)
    denom = jnp.abs(a_var[:, 1:])
    ok = denom >= rel_floor
    rel = jnp.where(ok, eps / denom, jnp.nan)
    rel_m = jnp.where(ok, m / denom, jnp.nan)
    count = ok.sum(axis=1)
    rel_mean = jnp.where(count > 0, jnp.nansum(rel, axis=1) / jnp.maximum(count, 1), jnp.nan)
    rel_max = jnp.where(count > 0, jnp.nanmax(jnp.where(ok, rel, -jnp.inf), axis=1), jnp.nan)
    rel_marg = jnp.where(count > 0, jnp.nanmax(jnp.where(ok, rel_m, -jnp.inf), axis=1), jnp.nan)
    v_phi = V_phi / jnp.abs(phi0)
    v_omega = V_omega / omega0
    applicable = (a0 == 0) & (phi0 > 0) & (jnp.min(phi, axis=1) > 0) & (v_phi < 1) & (v_omega < 1)
    av_phi, av_omega = jnp.abs(v_phi), jnp.abs(v_omega)  # nacverify.frozen._bounds.variation_bound
    out.update(
        rel_mean_pct=100 * rel_mean,
        rel_max_pct=100 * rel_max,
        rel_margin_pct=100 * rel_marg,
        max_abs_error=jnp.max(eps, axis=1),
        max_solver_error=jnp.max(m, axis=1),
        phi_variation_pct=100 * jnp.max(jnp.abs(phi - phi[:, :1]), axis=1) / jnp.abs(phi[:, 0]),
        omega_variation_pct=100 * jnp.max(jnp.abs(omega - omega[:, :1]), axis=1) / omega[:, 0],
        variation_bound_pct=100 * jnp.where(av_phi < 1, (av_phi + av_omega) / (1 - av_phi), jnp.inf),
        variation_applicable=applicable,
    )
    return out


def summarise_chunk(regime: Regime, t: np.ndarray, a_var: np.ndarray, a_tight: np.ndarray, opts: SolveOptions) -> MemberSummary:
    """The `MemberSummary` of a chunk solved at `opts` (`a_var`) and 100x tighter (`a_tight`),
    arrays (N, P); the same quantities as `_solve._measure(...).summary`."""
    f, p, c = regime.facts, regime.params, regime.coefficients
    diff = np.maximum.accumulate(np.abs(a_var - a_tight), axis=1)  # numpy's running max is ~10x XLA's on CPU
    with float64():
        arrays = (c.shape, c.phi_amp, c.omega_amp, t, a_var, a_tight, diff, p["a0"], f.phi0, f.omega0, f.L_phi, f.L_omega, f.V_phi, f.V_omega, f.omega_min)
        out = _analyse(KIND_CODE[regime.name], float(regime.T), *(jnp.asarray(x, dtype=jnp.float64) for x in arrays),
                       jnp.float64(opts.rtol / TIGHTER_FACTOR), jnp.float64(opts.atol / TIGHTER_FACTOR), jnp.float64(opts.rel_floor))
        out = {k: np.asarray(v) for k, v in out.items()}
    per_bound = {kind: {b: out[f"{kind}_{b}"] for b in BOUNDS} for kind in ("tightness", "peak_t", "min_slack", "max_excess")}
    rest = {k: v for k, v in out.items() if not any(k.startswith(p) for p in ("tightness_", "peak_t_", "min_slack_", "max_excess_"))}
    return MemberSummary(**per_bound, **rest)
