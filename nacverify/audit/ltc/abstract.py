r"""The LTC audit claims for an abstract-form export (seed 002 eq. 7/9; one `AbstractLTCExport`).

The cell (reports/LTC_AUDIT_FORMAT.md, "The abstract form"): state $x \in \mathbb{R}^N$, input
$I \in \mathbb{R}^M$ held over each step, row vectors,

$$f(x, I) = \mathrm{act}(x \gamma_r + I \gamma + \mu),\qquad
\frac{dx}{dt} = -\Big[\frac{1}{\tau} + f\Big] x + f A \quad\text{(eq. 7)},$$

and the fused step (eq. 9), ``ode_unfolds`` times with $\Delta t$ = elapsed / ode_unfolds,

$$x \leftarrow \frac{x + \Delta t\, f(x, I)\, A}{1 + \Delta t\,(1/\tau + f(x, I))}.$$

The formulas are nacverify.ltc's `AbstractLTC` (`f`, `rhs`, `tau_sys`, `fused_step`), evaluated
with numpy in float64 for the sweep over all steps (step k needs only states[k] and inputs[k]:
one batched computation) and with jax.numpy inside the diffrax reference solve
(nacverify.solvers._diffrax.solve_system; every checked interval is a block of one system in
rescaled time $s = t/\mathrm{elapsed} \in [0, 1]$, the error norm the largest over all rows and
units, so each row meets the tolerance).

**Rounding tolerance of `audit.ltc.step`** (first order, eps of the export's dtype). The
pre-activation $z_i$ is a sum of $N + M + 1$ products: $|\delta z_i| \le (N + M + 1)\,\epsilon\, Z_i$
with $Z = |x||\gamma_r| + |I||\gamma| + |\mu|$; it moves $f$ by $|\mathrm{act}'(z)||\delta z|$ and
the update ($\partial x'/\partial f = \Delta t (A - x')/d$, $d$ the denominator) by
$\Delta t (|A| + |x'|)|\mathrm{act}'(z)||\delta z|/|d|$. The other operations (the activation's
own few ulps, $\Delta t f A$, the sum, $1/\tau$, $1 + \Delta t(\cdot)$, the quotient) round by at most
`OPS` $\epsilon$ relative to $(|x| + \Delta t|fA| + |x'|(1 + \Delta t/|\tau| + \Delta t|f|))/|d|$. The
tolerance is `STEP_SAFETY` (the implementation's rounding and the float64 recomputation, and
each unfold's error carried on) times eps times the sum over unfolds of these magnitudes, plus
$2\epsilon|x'|$ for storing the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax.numpy as jnp
import numpy as np

from ...claims import Claim, Evidence, Outcome, Verdict
from ...errors import NacverifyError
from ...ltc import AbstractLTC, InputSignal
from ...compute.precision import float64
from ...solvers._diffrax import solve_system
from .format import AbstractLTCExport
from .shared import SEED002, bind_claims, largest_elapsed_within, select_steps, solver_error_outcome, step_outcome

__all__ = ["abstract_audit_claims", "ABSTRACT_CLAIM_SPECS", "REF_RTOL", "REF_ATOL", "CHECK_FACTOR"]

STEP_SAFETY = 4
OPS = 8  # roundings per update outside the dot products (module docstring), relative to the terms' magnitudes
BOUND_ULPS = 16  # eq. 12: the update is a convex combination of x, A and 0 computed with a handful of roundings
TAU_REL = 8 * float(np.finfo(np.float64).eps)  # tau/(1 + tau f) in float64: a few roundings
F_MAX = 1.0  # the supremum of sigmoid and tanh
REF_RTOL, REF_ATOL = 1e-10, 1e-12  # the reference solve (diffrax Tsit5, PIDController, max norm)
CHECK_FACTOR = 100  # the reference's error is measured against a re-solve at tolerances 100x tighter
CHECK_FLOOR = 10  # ... plus 10 x the re-solve's rtol for the re-solve's own error
MAX_ODE_STEPS = 100_000


def _model(e: AbstractLTCExport, xp=np) -> AbstractLTC:
    """The exported cell in float64 (numpy, or jax.numpy inside `float64()`)."""
    return AbstractLTC(*(xp.asarray(e.p(n)) for n in ("tau", "gamma_r", "gamma", "mu", "A")), activation=e.activation)


def _rows(e: AbstractLTCExport, idx: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, I, elapsed) of each (step, batch) row in float64: (S, N), (S, M), (S,); all rows, or rows `idx`."""
    x = e.states[:-1].astype(np.float64).reshape(-1, e.N)
    I = e.inputs.astype(np.float64).reshape(-1, e.M)
    el = e.elapsed.astype(np.float64).reshape(-1)
    return (x, I, el) if idx is None else (x[idx], I[idx], el[idx])


def _magnitude(model: AbstractLTC, x, I, new, dt) -> np.ndarray:
    """One update's rounding magnitude in units of eps (module docstring), per (S, N)."""
    f = AbstractLTC.f(model, x, I, np)
    slope = f * (1 - f) if model.activation == "sigmoid" else 1 - f**2
    zabs = np.abs(x) @ np.abs(model.gamma_r) + np.abs(I) @ np.abs(model.gamma) + np.abs(model.mu)
    den = 1 + dt * (1 / model.tau + f)
    dots = (x.shape[1] + I.shape[1] + 1) * dt * (np.abs(model.A) + np.abs(new)) * np.abs(slope) * zabs
    terms = np.abs(x) + dt * np.abs(f * model.A) + np.abs(new) * (1 + dt / np.abs(model.tau) + dt * np.abs(f))
    return (dots + OPS * terms) / np.abs(den)


def _fused(model: AbstractLTC, x, I, elapsed, unfolds: int, *, with_scale: bool = False):
    """Eq. 9 `unfolds` times (dt = elapsed/unfolds) on rows x (S, N), I (S, M), elapsed (S,);
    with `with_scale`, also the sum over unfolds of each update's rounding magnitude."""
    dt = (elapsed / unfolds)[:, None]
    scale = np.zeros_like(x)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        for _ in range(unfolds):
            new = AbstractLTC.fused_step(model, x, I, dt, np)
            if with_scale:
                scale = scale + _magnitude(model, x, I, new, dt)
            x = new
    return (x, scale) if with_scale else x


# ---------------------------------------------------------------------------- shared pass
@dataclass
class _Pass:
    """The sweep over every step (the step and tau_sys checks share it); shaped (T, B, N)."""

    step_err: np.ndarray
    step_tol: np.ndarray
    tau: np.ndarray  # tau_sys = tau/(1 + tau f) at the exported state and input of each step
    out_err: None = None
    out_tol: None = None


def _sweep(e: AbstractLTCExport, progress: Callable[[int], None] | None = None) -> _Pass:
    model = _model(e)
    x, I, el = _rows(e)
    new, scale = _fused(model, x, I, el, e.ode_unfolds, with_scale=True)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        tau = AbstractLTC.tau_sys(model, x, I, np)
    shape = (e.T, e.B, e.N)
    exported = e.states[1:].astype(np.float64)
    err = np.abs(new.reshape(shape) - exported)
    tol = STEP_SAFETY * e.dtype_eps * scale.reshape(shape) + 2 * e.dtype_eps * np.abs(exported)
    if progress is not None:
        progress(e.T)
    return _Pass(err, tol, tau.reshape(shape))


# ---------------------------------------------------------------------------- checks
def _step_outcome(e: AbstractLTCExport, sw: _Pass) -> Outcome:
    rule = (f"tolerance {STEP_SAFETY} eps sum_u ((N + M + 1) dt (|A| + |x'|) |act'(z)| Z + {OPS} |terms|)/|den| + 2 eps |x'|, "
            f"eps = {e.dtype_eps:.3g} (the export's dtype), {e.ode_unfolds} unfolds")
    return step_outcome(e, sw, rule, {"safety": STEP_SAFETY, "ops_per_sum": e.N + e.M + 1, "ops_outside_sums": OPS})


def _positivity(e: AbstractLTCExport) -> Outcome:
    tau = e.p("tau")
    bad = ~(tau > 0)
    scalars = {"min_tau": float(tau.min()), "tau_violations": int(bad.sum())}
    if bad.any():
        i = int(np.argmin(tau))
        w = {"parameter": "tau", "unit": i, "value": float(tau[i])}
        units = [int(u) for u in np.flatnonzero(bad)]
        return Outcome(Verdict.REFUTED, f"tau: {int(bad.sum())} of {e.N} not > 0 (unit(s) {units[:8]}{' ...' if len(units) > 8 else ''}; "
                       f"min {tau[i]:.4g} at unit {i}): eq. 7's 1/tau is then no leak but a growth rate", Evidence({"tau": tau}, scalars, w))
    return Outcome(Verdict.HOLDS, f"tau > 0 for all {e.N} units (min {scalars['min_tau']:.4g})", Evidence({"tau": tau}, scalars))


def _state_bounds(e: AbstractLTCExport) -> Outcome:
    A = e.p("A")
    lo, hi = np.minimum(0.0, A), np.maximum(0.0, A)
    x = e.states.astype(np.float64)
    x0 = x[0]
    lo_b, hi_b = np.minimum(lo, x0), np.maximum(hi, x0)  # (B, N): a start outside may only approach the interval
    tol = BOUND_ULPS * e.dtype_eps * np.maximum(np.abs(lo_b), np.abs(hi_b))
    excess = np.maximum(x - hi_b, lo_b - x)  # (T+1, B, N)
    out = excess > tol
    started_outside = int(((x0 < lo) | (x0 > hi)).sum())
    scalars = {"values": int(x.size), "values_outside": int(out.sum()), "max_excess": float(excess.max()),
               "starts_outside": started_outside, "min_slack": float(0.0 - excess.max())}
    arrays = {"lower": lo, "upper": hi, "max_excess_per_step": np.max(excess, axis=(1, 2))}
    note = f"; {started_outside} unit(s) start outside (their bound is widened to x(0))" if started_outside else ""
    if not out.any():
        return Outcome(Verdict.HOLDS, f"all {e.T + 1} x {e.B} x {e.N} state values inside eq. 12's [min(0, A_i), max(0, A_i)] "
                       f"(min slack {scalars['min_slack']:.3g}){note}", Evidence(arrays, scalars))
    first = int(np.argmax(out.reshape(x.shape[0], -1).any(axis=1)))
    b, i = (int(k) for k in np.unravel_index(int(np.argmax(np.where(out[first], excess[first], -np.inf))), excess.shape[1:]))
    worst = int(np.argmax(excess)) // (e.B * e.N)
    scalars.update(first_step_outside=first, worst_step=worst)
    w = {"step": first, "batch": b, "unit": i, "x": float(x[first, b, i]), "lower": float(lo_b[b, i]), "upper": float(hi_b[b, i]),
         "x0": float(x0[b, i]), "A": float(A[i])}
    why = " (tanh's negative f drives x away from the hull of 0 and A)" if e.activation == "tanh" else ""
    return Outcome(Verdict.REFUTED, f"{int(out.sum())} of {x.size} state values leave eq. 12's [min(0, A_i), max(0, A_i)]; first at step {first}: "
                   f"x = {w['x']:.6g} vs [{w['lower']:.4g}, {w['upper']:.4g}] (batch {b}, unit {i}); worst at step {worst}{why}{note}",
                   Evidence(arrays, scalars, w))


def _time_constants(e: AbstractLTCExport, sw: _Pass) -> Outcome:
    tau_i = e.p("tau")
    with np.errstate(divide="ignore", invalid="ignore"):
        tmin, tmax = tau_i / (1 + tau_i * F_MAX), tau_i
        W = np.sum(np.abs(e.p("gamma_r")), axis=0) + np.sum(np.abs(e.p("gamma")), axis=0)
        eq11 = tau_i / (1 + tau_i * W)
    tau = sw.tau
    ok = np.isfinite(tau) & (tau > 0) & (tau >= tmin * (1 - TAU_REL)) & (tau <= tmax * (1 + TAU_REL)) & (tmin > 0) & (tmax > 0)
    bad = ~ok
    with np.errstate(divide="ignore", invalid="ignore"):
        off = np.where(bad, np.where(np.isfinite(tau) & (tau > 0), np.maximum(tau / tmax, tmin / tau), np.inf), 0.0)
    flat = int(np.argmax(off)) if bad.any() else int(np.argmin(np.minimum(tau / tmin, tmax / tau)))
    step, b, i = (int(k) for k in np.unravel_index(flat, tau.shape))
    finite = tau[np.isfinite(tau)]
    below11 = int((tau < eq11 * (1 - TAU_REL)).sum())
    w = {"step": step, "batch": b, "unit": i, "tau_sys": float(tau[step, b, i]), "tau_min": float(tmin[i]), "tau_max": float(tmax[i]),
         "tau": float(tau_i[i]), "eq11_lower": float(eq11[i])}
    scalars = {"values": int(tau.size), "values_outside": int(bad.sum()), "nonpositive_tau_sys": int((~(tau > 0)).sum()),
               "above_tau": int((tau > tmax * (1 + TAU_REL)).sum()), "f_max": F_MAX, "values_below_eq11_lower": below11,
               "min_tau_sys": float(finite.min()) if finite.size else float("nan"), "max_tau_sys": float(finite.max()) if finite.size else float("nan")}
    ev = Evidence({"tau_min": tmin, "tau_max": tmax, "eq11_lower": eq11, "eq11_W": W, "tau_sys_min_per_step": np.min(tau, axis=(1, 2)),
                   "tau_sys_max_per_step": np.max(tau, axis=(1, 2))}, scalars, w)
    eq11_note = (f"; eq. 11's printed lower bound tau/(1 + tau W_i) (W_i = sum of |gamma_r[:, i]| and |gamma[:, i]|) is evidence only: "
                 f"{below11} of {tau.size} values fall below it; the verdict does not rest on it (f is bounded by f_max = 1, not by W_i)")
    if bad.any():
        return Outcome(Verdict.REFUTED, f"{int(bad.sum())} of {tau.size} tau_sys = tau/(1 + tau f) values outside [tau/(1 + tau f_max), tau] "
                       f"({scalars['above_tau']} above tau: f < 0; {scalars['nonpositive_tau_sys']} non-positive or infinite: 1 + tau f <= 0); "
                       f"worst tau_sys = {w['tau_sys']:.4g} vs [{w['tau_min']:.4g}, {w['tau_max']:.4g}] at step {step}, batch {b}, unit {i}"
                       + eq11_note, ev)
    return Outcome(Verdict.HOLDS, f"tau_sys in [{scalars['min_tau_sys']:.4g}, {scalars['max_tau_sys']:.4g}], inside [tau/(1 + tau f_max), tau] "
                   f"per unit at all {e.T} steps x {e.B} x {e.N} units" + eq11_note, ev)


# ---------------------------------------------------------------------------- solver error
class _HeldRows(InputSignal):
    """Every row's input held over its interval: I(t) = values (S, M)."""

    values: Any

    def __call__(self, t, ref=None, xp=jnp):
        return self.values


def _field(s, y, args):
    """Eq. 7 for every row in rescaled time s = t / elapsed: dx/ds = elapsed dx/dt, y = x.ravel()."""
    model, held, el = args
    x = y.reshape(el.shape[0], -1)
    return (el[:, None] * AbstractLTC.rhs(model, s, x, held, xp=jnp)).reshape(-1)


def _solve(e: AbstractLTCExport, x0: np.ndarray, I: np.ndarray, el: np.ndarray, rtol: float, atol: float) -> tuple[np.ndarray, int] | None:
    """x(elapsed) of eq. 7 from x0 per row (diffrax Tsit5, adaptive, float64) and the accepted steps; None if unfinished."""
    with float64():
        args = (_model(e, jnp), _HeldRows(1.0, jnp.asarray(I)), jnp.asarray(el))
        try:
            sol = solve_system(_field, args, x0.reshape(-1), np.array([0.0, 1.0]), rtol=rtol, atol=atol, max_steps=MAX_ODE_STEPS)
        except NacverifyError:
            return None
    return sol.ys[:, -1].reshape(x0.shape), sol.num_steps


@dataclass(frozen=True)
class _Comparison:
    rows: np.ndarray  # flat (step, batch) indices checked
    elapsed: np.ndarray
    rel: np.ndarray  # max-norm |fused - ref| / max(|ref|, |x0|), per row
    estimate: np.ndarray  # the reference's error in that measure: |ref - tight| / scale + CHECK_FLOOR tight rtol
    steps: int


def _compare(e: AbstractLTCExport, limit: int) -> _Comparison | None:
    idx = select_steps(e, limit)
    x0, I, el = _rows(e, idx)
    ref, tight = _solve(e, x0, I, el, REF_RTOL, REF_ATOL), _solve(e, x0, I, el, REF_RTOL / CHECK_FACTOR, REF_ATOL / CHECK_FACTOR)
    if ref is None or tight is None:
        return None
    scale = np.maximum(np.max(np.abs(ref[0]), axis=1), np.max(np.abs(x0), axis=1))
    scale = np.where(scale > 0, scale, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        rel = np.max(np.abs(_fused(_model(e), x0, I, el, e.ode_unfolds) - ref[0]), axis=1) / scale
    estimate = np.max(np.abs(ref[0] - tight[0]), axis=1) / scale + CHECK_FLOOR * REF_RTOL / CHECK_FACTOR
    return _Comparison(idx, el, np.where(np.isnan(rel), np.inf, rel), estimate, ref[1])


def _solver_error(e: AbstractLTCExport, tol: float | None, limit: int) -> Outcome:
    """Per checked step: eq. 9 (ode_unfolds) from the exported state vs eq. 7 solved adaptively over the step, input held."""
    cmp = _compare(e, limit)
    tight = f"rtol {REF_RTOL / CHECK_FACTOR:g}, atol {REF_ATOL / CHECK_FACTOR:g}"
    if cmp is None:
        return Outcome(Verdict.INCONCLUSIVE, f"diffrax (Tsit5, rtol {REF_RTOL:g} or {tight}) did not finish within {MAX_ODE_STEPS} steps "
                       "(stiff or blowing up): no reference")
    rel, est, el = cmp.rel, cmp.estimate, cmp.elapsed
    bound = float(np.max(est))
    k = int(np.argmax(rel))
    step, b = divmod(int(cmp.rows[k]), e.B)
    w = {"step": step, "batch": b, "elapsed": float(el[k]), "relative_error": float(rel[k]), "ode_unfolds": e.ode_unfolds,
         "dt": float(el[k] / e.ode_unfolds)}
    gate = 1e-2 if tol is None else tol  # without --tol, the tolerance of the 'over' and 'largest elapsed within' figures only
    scalars = {"tolerance": None if tol is None else tol, "figures_tolerance": gate, "steps_checked": int(cmp.rows.size),
               "steps_total": e.T * e.B, "max_relative_error": float(rel.max()),
               "median_relative_error": float(np.median(rel)), "steps_over_tolerance": int((rel - est > gate).sum()),
               "largest_elapsed_within_tolerance": largest_elapsed_within(el, rel, gate), "max_solver_error_estimate": bound,
               "diffrax_steps": cmp.steps, "reference_rtol": REF_RTOL, "reference_atol": REF_ATOL, "check_rtol": REF_RTOL / CHECK_FACTOR,
               "check_atol": REF_ATOL / CHECK_FACTOR}
    ev = Evidence({"checked_step": cmp.rows // e.B, "checked_batch": cmp.rows % e.B, "elapsed": el, "relative_error": rel,
                   "solver_error_estimate": est}, scalars, w)
    sample = "" if cmp.rows.size == e.T * e.B else f" (checked {cmp.rows.size} of {e.T * e.B} steps: the {limit // 2} longest intervals and an even spread)"
    ref_note = (f"; reference diffrax Tsit5 (rtol {REF_RTOL:g}, atol {REF_ATOL:g}, max norm), its error <= {bound:.2g} "
                f"(measured against a re-solve at {tight}, plus {CHECK_FLOOR} x that rtol)")
    return solver_error_outcome(e, tol=tol, rows=cmp.rows, rel=rel, est=est, el=el, reference="the adaptive float64 solution of eq. 7",
                                sample=sample, advice="", ref_note=ref_note, ev=ev)


# ---------------------------------------------------------------------------- claims
ABSTRACT_CLAIM_SPECS: dict[str, tuple[str, str, str]] = {
    "audit.ltc.step": (
        f"{SEED002}, eq. 9 ('x(t + dt) = (x(t) + dt f(x(t), I(t), t, theta) (.) A) / (1 + dt (1/tau + f(x(t), I(t), t, theta)))'; "
        "'applied L times (unfolding steps) per input time step')",
        "every exported step equals eq. 9's fused update (dt = elapsed/ode_unfolds, ode_unfolds times, f at the current x, input held) "
        "recomputed in float64 from the exported state, input and parameters, to the export dtype's rounding",
        "abstract form; f = act(x gamma_r + I gamma + mu) with row vectors (eq. 9a as printed does not multiply: ltc.eq9a.shapes)",
    ),
    "audit.ltc.positivity": (
        f"{SEED002}, eq. 7 ('tau in R^(N x 1) --- Vector of intrinsic time-constants, one per neuron. All entries positive.')",
        "tau > 0 for every unit (eq. 7's 1/tau is a leak rate)",
        "abstract form",
    ),
    "audit.ltc.state_bounds": (
        f"{SEED002}, eq. 12 ('min(0, A_i^min) <= x_i(t) <= max(0, A_i^max)'; 'The hidden state of every LTC neuron is always bounded')",
        "every exported state value x_i lies in [min(0, A_i), max(0, A_i)] (widened to x_i(0) when it starts outside), up to rounding",
        "abstract form; eq. 12 needs f >= 0 and tau > 0 (the fused update is then a weighted average of x, A and 0): "
        "a tanh cell can leave it",
    ),
    "audit.ltc.time_constants": (
        f"{SEED002}, eq. 7a ('tau_sys = tau / (1 + tau f(x(t), I(t), t, theta))') and eq. 11 "
        "('tau_i/(1 + tau_i W_i) <= tau_sys_i <= tau_i'; 'The time-constant can never exceed the intrinsic tau_i')",
        "tau_sys = tau/(1 + tau f) of each unit at each exported state is finite, positive and in [tau/(1 + tau f_max), tau], "
        "f_max = 1 (the supremum of sigmoid and tanh); eq. 11's lower bound is reported as evidence only",
        "abstract form; f in [0, 1] (sigmoid) keeps it; tanh's negative f gives tau_sys > tau, or 1 + tau f <= 0",
    ),
    "audit.ltc.solver_error": (
        f"{SEED002}, eq. 9 (fused solver, 'applied L times (unfolding steps) per input time step for accuracy') vs eq. 7",
        "per step, eq. 9 from the exported state is within the relative tolerance of an adaptive float64 (diffrax Tsit5, rtol 1e-10, "
        "atol 1e-12) solution of eq. 7 with the input held over the elapsed interval",
        "piecewise-constant inputs; relative error = max-norm error / max(|x_ode|, |x_start|); the reference's own error (measured "
        "against a re-solve at 100x tighter tolerances, plus 1e-11) decides inconclusive cases",
    ),
}


def abstract_audit_claims(export: AbstractLTCExport, *, tol: float | None, solver_steps: int,
                          progress: Callable[[int], None] | None = None) -> list[Claim]:
    """The five audit-ltc claims (same ids as the biophysical form) bound to an abstract-form
    export; the step and tau_sys checks share one sweep (`progress(T)` after it)."""
    return bind_claims(export, ABSTRACT_CLAIM_SPECS, tol, sweep=lambda e: _sweep(e, progress), step=_step_outcome,
                       positivity=_positivity, state_bounds=_state_bounds, time_constants=_time_constants,
                       solver_error=lambda e: _solver_error(e, tol, solver_steps))
