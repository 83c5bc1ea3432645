r"""A sweep chunk's analysis as one compiled XLA function.

`_solve._measure` followed by `_solve._summarise` computes, with numpy, the frozen solution,
the solver margin (`nacverify.margins`), the gates, the three bounds (`_bounds`) and the
per-member reductions of a `MemberSummary`; on a chunk of 2,000 draws x 1,001 points that takes
three times as long as the two solves, because each numpy operation makes a full (N, P)
temporary. `summarise_chunk` computes the same formulas, operation for operation, inside one
`jax.jit`, where XLA fuses them into a few passes over the trajectories. Results agree with the
numpy path to rounding (exp and expm1 are XLA's, not numpy's; tests/test_sweep_stream.py
compares the two), and are deterministic: the same inputs give the same bits in every process.

Sweeps use the streaming form below (`chunk_summary`): the same formulas reduced over t in one
`lax.scan` on the solver's (P, N) trajectories, with the chunk solved by `KindFamily` (its own
family's g only). On a 2-core CPU it takes a fifth of `summarise_chunk`'s time; only per-draw
summaries (N values each) leave the compiled function. `summarise_chunk` stays as the reference
the tests compare it with (tests/test_sweep_device.py).
"""

from __future__ import annotations

import functools

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..errors import NacverifyError
from ..margins import _ROUND
from ..compute.precision import float64
from ..regimes import KIND_CODE, Coefficients, Regime, ShapeFamily, _shape
from ..compute.sine import SINE_LIMIT, sine
from ._bounds import BOUNDS
from ._solve import ROUNDING, TIGHTER_FACTOR, MemberSummary
from ._specs import SolveOptions

__all__ = ["summarise_chunk", "chunk_summary", "gates_needed", "summary_of", "KindFamily"]


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


# ----------------------------------------------------------------------------------------------
# The streaming kernel: one pass over time, the trajectories in the solver's own (P, N) layout.
#
# `_analyse` above builds every (N, P) quantity and then reduces it; XLA on a CPU recomputes the
# transcendental producers in each reduction that reads them and runs the argmax reductions as
# slow variadic reduces (about 0.3 ms per draw at 1,001 points). `_scan_summary` computes the
# same per-point formulas, operation for operation, for one time point of every draw at a time
# (a loop over t whose carry holds the running reductions; it reads row j of the (P, N)
# trajectories in place: a scan over `a_var[1:]` copied both arrays first, 15 % of the kernel),
# so each transcendental is evaluated once per point and every reduction is a compare-and-select. Per point the arithmetic
# is the one of `_analyse` (the same bits); max, min, argmax and counts are exact in any order;
# only the sum behind `rel_mean_pct` runs in time order instead of XLA's vectorised order
# (equal to a few units in the last place).

_UNROLL = 1  # measured on a 2-core CPU: unrolling the loop (2 to 20) gained nothing


def _better(value, best):
    """Whether `value` replaces `best` in an argmax over increasing t: numpy's and XLA's argmax
    return the first maximum, NaN counting as the largest value."""
    return (value > best) | (jnp.isnan(value) & ~jnp.isnan(best))


@functools.partial(jax.jit, static_argnames=("kind", "T", "gates"))
def _scan_summary(kind, T, gates, shape, phi_amp, omega_amp, t, a_var, a_tight, a0, phi0, omega0, L_phi, L_omega, V_phi, V_omega, omega_min,
                  rtol_t, atol_t, rel_floor):
    """`_analyse`'s outputs from `a_var`, `a_tight` of shape (P, N) (time first, as diffrax saves)."""
    a_star = phi0 / omega0
    C = jnp.abs(a0) + jnp.abs(phi0) / omega0
    k = L_phi + C * L_omega
    k_finite = jnp.isfinite(k)

    def gate_values(tj):
        g = _family_g(kind, tj / T, shape)  # as the chunk's solve (KindFamily)
        return phi0 * (1 + phi_amp * g), omega0 * (1 + omega_amp * g)

    phi_first, omega_first = gate_values(t[0])
    n = a0.shape[0]
    zeros, ninf = jnp.zeros(n), jnp.full(n, -jnp.inf)
    carry0 = {
        "diff": jnp.abs(a_var[0] - a_tight[0]),
        "phi_dev": jnp.abs(phi_first - phi_first), "omega_dev": jnp.abs(omega_first - omega_first), "phi_min": phi_first,
        "count": jnp.zeros(n, jnp.int64), "rel_sum": zeros, "rel_max": ninf, "rel_seen": jnp.zeros(n, bool), "rel_marg": ninf, "marg_seen": jnp.zeros(n, bool),
        "max_abs_error": ninf, "max_solver_error": ninf,
        **{f"tightness_{b}": jnp.full(n, jnp.nan) for b in BOUNDS}, **{f"peak_t_{b}": zeros for b in BOUNDS},
        **{f"min_slack_{b}": jnp.full(n, jnp.inf) for b in BOUNDS}, **{f"max_excess_{b}": ninf for b in BOUNDS},
        "first": jnp.ones((), bool),
    }

    def step(j, c):
        tj, av, at = t[j], a_var[j], a_tight[j]  # row j read in place (no copy of a_var[1:])
        diff = jnp.maximum(c["diff"], jnp.abs(av - at))
        a_frz = a_star + (a0 - a_star) * jnp.exp(-omega0 * tj)
        m = 2 * diff + 10 * (rtol_t * jnp.abs(at) + atol_t) + _ROUND * jnp.abs(av) + ROUNDING * jnp.abs(a_frz)
        bounds = {
            "thm3": jnp.where(k_finite, k * tj**2 * jnp.exp(L_omega * tj), jnp.inf),
            "sharp": jnp.where(k_finite, k * tj**2 / 2, jnp.inf),
            "bv": (V_phi + C * V_omega) * -jnp.expm1(-omega_min * tj) / omega_min,
        }
        eps = jnp.abs(av - a_frz)
        out = {"diff": diff, "first": jnp.zeros((), bool)}
        for name in BOUNDS:
            b = bounds[name]
            ratio = jnp.where(b > 0, eps / b, jnp.where(eps > m, jnp.inf, 0.0))
            ratio = jnp.where(jnp.isfinite(b), ratio, 0.0)
            take = c["first"] | _better(ratio, c[f"tightness_{name}"])
            out[f"tightness_{name}"] = jnp.where(take, ratio, c[f"tightness_{name}"])
            # where the maximum moved: read from the new and old maxima, not from `take`, so that XLA
            # does not compute the ratio a second time for this output (11 % of the kernel; the same
            # points: `take` holds exactly where the value changed, or on the first point)
            new, old = out[f"tightness_{name}"], c[f"tightness_{name}"]
            moved = c["first"] | ~((new == old) | (jnp.isnan(new) & jnp.isnan(old)))
            out[f"peak_t_{name}"] = jnp.where(moved, tj, c[f"peak_t_{name}"])
            out[f"min_slack_{name}"] = jnp.minimum(c[f"min_slack_{name}"], b - eps - m)
            out[f"max_excess_{name}"] = jnp.maximum(c[f"max_excess_{name}"], eps - m - b)
        denom = jnp.abs(av)
        ok = denom >= rel_floor
        rel = jnp.where(ok, eps / denom, jnp.nan)
        rel_m = jnp.where(ok, m / denom, jnp.nan)
        out["count"] = c["count"] + ok
        out["rel_sum"] = c["rel_sum"] + jnp.where(jnp.isnan(rel), 0.0, rel)
        for key, seen, v in (("rel_max", "rel_seen", rel), ("rel_marg", "marg_seen", rel_m)):
            v = jnp.where(ok, v, -jnp.inf)  # nanmax: NaN ignored, NaN only when every value is NaN
            out[key] = jnp.where(jnp.isnan(v), c[key], jnp.maximum(c[key], v))
            out[seen] = c[seen] | ~jnp.isnan(v)
        out["max_abs_error"] = jnp.maximum(c["max_abs_error"], eps)
        out["max_solver_error"] = jnp.maximum(c["max_solver_error"], m)
        if gates:
            phi, omega = gate_values(tj)
            out["phi_dev"] = jnp.maximum(c["phi_dev"], jnp.abs(phi - phi_first))
            out["omega_dev"] = jnp.maximum(c["omega_dev"], jnp.abs(omega - omega_first))
            out["phi_min"] = jnp.minimum(c["phi_min"], phi)
        else:
            out.update(phi_dev=c["phi_dev"], omega_dev=c["omega_dev"], phi_min=c["phi_min"])
        return out

    c = jax.lax.fori_loop(1, t.shape[0], step, carry0, unroll=_UNROLL)
    count = c["count"]
    rel_mean = jnp.where(count > 0, c["rel_sum"] / jnp.maximum(count, 1), jnp.nan)
    rel_max = jnp.where(count > 0, jnp.where(c["rel_seen"], c["rel_max"], jnp.nan), jnp.nan)
    rel_marg = jnp.where(count > 0, jnp.where(c["marg_seen"], c["rel_marg"], jnp.nan), jnp.nan)
    v_phi = V_phi / jnp.abs(phi0)
    v_omega = V_omega / omega0
    phi_positive = c["phi_min"] > 0 if gates else True  # without gates: proved by the caller (`gates_needed`)
    applicable = (a0 == 0) & (phi0 > 0) & phi_positive & (v_phi < 1) & (v_omega < 1)
    av_phi, av_omega = jnp.abs(v_phi), jnp.abs(v_omega)
    out = {f"{key}_{b}": c[f"{key}_{b}"] for key in ("tightness", "peak_t", "min_slack", "max_excess") for b in BOUNDS}
    out.update(
        rel_mean_pct=100 * rel_mean,
        rel_max_pct=100 * rel_max,
        rel_margin_pct=100 * rel_marg,
        max_abs_error=c["max_abs_error"],
        max_solver_error=c["max_solver_error"],
        phi_variation_pct=100 * c["phi_dev"] / jnp.abs(phi_first) if gates else jnp.full(n, jnp.nan),
        omega_variation_pct=100 * c["omega_dev"] / omega_first if gates else jnp.full(n, jnp.nan),
        variation_bound_pct=100 * jnp.where(av_phi < 1, (av_phi + av_omega) / (1 - av_phi), jnp.inf),
        variation_applicable=applicable,
    )
    return out


def gates_needed(regime: Regime) -> bool:
    """Whether the chunk's analysis must evaluate the gates over t. Sweeps need them for one fact
    only, min_t phi > 0 (the variation bound's applicability); it is proved without them when
    every draw has |A_phi| < 1/2 and phi0 <= 0 or phi0 >= 1e-300: the families' g lies in
    [-1, 1], so 1 + A_phi g > 1/2 in floating point and phi0 (1 + A_phi g) > 0 exactly wherever
    phi0 > 0 (no underflow). Without the gates, phi_variation_pct and omega_variation_pct (read
    by single runs, not by sweeps) are NaN."""
    c = regime.coefficients
    phi0 = np.asarray(regime.facts.phi0)
    return not (isinstance(c, ShapeFamily) and bool(np.all(np.abs(np.asarray(c.phi_amp)) < 0.5))
                and bool(np.all((phi0 <= 0) | (phi0 >= 1e-300))))


def _family_g(kind: int, x, shape):
    """The family's g at x = t/T (`nacverify.regimes._shape` with a static family), the oscillatory
    sine by `nacverify.compute.sine.sine` (XLA vectorises it; ``jnp.sin`` runs element by element): the
    other families give the regime's own bits, the oscillatory one its g to 1 ulp."""
    if kind == KIND_CODE["oscillatory"]:
        return sine(2 * jnp.pi * shape * x)  # the argument as `_shape` forms it
    return _shape(kind, x, shape, jnp)


class KindFamily(Coefficients):
    """`nacverify.regimes.ShapeFamily` with the family a static choice: g(t) is evaluated once per
    call, for the chunk's own family only (ShapeFamily evaluates every family's g, twice, and
    selects). The same operations on the selected branch, hence the same bits (tested), except
    the oscillatory sine (`_family_g`): g to 1 ulp, the solutions to rounding (tested). Only for
    t in [0, T] with 2 pi |cycles| <= `nacverify.compute.sine.SINE_LIMIT` (`of` checks the cycles)."""

    kind: int = eqx.field(static=True)
    T: float = eqx.field(static=True)
    phi0: jax.Array
    omega0: jax.Array
    phi_amp: jax.Array
    omega_amp: jax.Array
    shape: jax.Array

    @staticmethod
    def of(regime: Regime) -> "KindFamily":
        c = regime.coefficients
        kind = KIND_CODE[regime.name]
        cycles = float(np.max(np.abs(np.asarray(c.shape))))
        if kind == KIND_CODE["oscillatory"] and not 2 * np.pi * cycles <= SINE_LIMIT:
            raise NacverifyError(f"oscillatory sweep: cycles up to {SINE_LIMIT / (2 * np.pi):.4g} (the sine's range), got {cycles:g}")
        return KindFamily(kind, c.T, c.phi0, c.omega0, c.phi_amp, c.omega_amp, c.shape)

    def g(self, t):
        return _family_g(self.kind, t / self.T, self.shape)

    def phi(self, t):
        return self.phi0 * (1 + self.phi_amp * self.g(t))

    def omega(self, t):
        return self.omega0 * (1 + self.omega_amp * self.g(t))


def summary_of(out: dict[str, np.ndarray]) -> MemberSummary:
    """A `MemberSummary` from the kernels' flat dictionary (host arrays)."""
    keys = ("tightness", "peak_t", "min_slack", "max_excess")
    per_bound = {kind: {b: out[f"{kind}_{b}"] for b in BOUNDS} for kind in keys}
    rest = {k: v for k, v in out.items() if not k.startswith(tuple(f"{p}_" for p in keys))}
    return MemberSummary(**per_bound, **rest)


def chunk_summary(regime: Regime, t: np.ndarray, a_var, a_tight, opts: SolveOptions, gates: bool = True) -> dict[str, jax.Array]:
    """The per-draw quantities of `summarise_chunk`, as device arrays, from trajectories of shape
    (P, N) (time first: the solver's layout, no transpose). `gates=False` only where
    `gates_needed(regime)` is False."""
    f, p, c = regime.facts, regime.params, regime.coefficients
    with float64():
        arrays = (c.shape, c.phi_amp, c.omega_amp, t, a_var, a_tight, p["a0"], f.phi0, f.omega0, f.L_phi, f.L_omega, f.V_phi, f.V_omega, f.omega_min)
        return _scan_summary(KIND_CODE[regime.name], float(regime.T), gates, *(jnp.asarray(x, dtype=jnp.float64) for x in arrays),
                             jnp.float64(opts.rtol / TIGHTER_FACTOR), jnp.float64(opts.atol / TIGHTER_FACTOR), jnp.float64(opts.rel_floor))
