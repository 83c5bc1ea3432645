r"""The LTC audit claims: what seed 002 asks of an LTC cell's implementation (one `LTCExport`).

Every check recomputes in float64 from the exported parameters (cm, gleak, w, sensory_w as
*used*: softplus(raw) under implicit constraints, raw otherwise). In seed 002's notation the
cell integrates eq. 1 with eq. 2 synapses plus sensory synapses from the mapped input
$I = x \cdot input\_w + input\_b$,

$$C_{m,i}\dot v_i = G_{leak,i}(V_{leak,i} - v_i) + \sum_j g_{ji}(v_j)(E_{ji} - v_i) + \sum_m g^s_{mi}(I_m)(E^s_{mi} - v_i),
\qquad g_{ji}(v_j) = w_{ji}\,\mathrm{mask}_{ji}\,\sigma\big(\sigma_{ji}(v_j - \mu_{ji})\big)$$

(ncps layout [presynaptic, postsynaptic]; gamma = sigma, mu_002 = -mu), and the fused step
(eq. 8-9, biophysical analogue) with $\Delta t$ = elapsed / ode_unfolds, $c_t = C_m/\Delta t$:

$$v \leftarrow \frac{c_t v + G_{leak} V_{leak} + \sum_j g_{ji} E_{ji} + \sum_m g^s_{mi} E^s_{mi}}
{c_t + G_{leak} + \sum_j g_{ji} + \sum_m g^s_{mi} + \epsilon}\quad\text{(ode\_unfolds times per step).}$$

The export's ``solver`` entry names the rule its implementation applies per input step: the
fused step above (the default), explicit Euler or RK4 on eq. 1's right-hand side
(nacverify.audit.ltc.updates); `audit.ltc.step` recomputes the declared rule and
`audit.ltc.solver_error` measures it against the ODE over the horizon it integrates per input
step (elapsed = ode_unfolds x step), which it reports.

Expected verdicts without ``--expect``: ``holds`` for a healthy cell.

`fused_step` and `ltc_rhs` state the fused formula and the ODE in plain numpy; the checks run the
declared solver batched (nacverify.audit.ltc.updates): step k's update depends only on the
exported state k and input k, so the whole trajectory is one computation, and each checked
interval of the solver-error claim is solved on its own, from the implementation's state.

**The step tolerance** is `STEP_SIGMAS` standard deviations of the first-order rounding model
of nacverify.audit.ltc.updates (each operation's rounding uniform on [-eps/2, eps/2], eps of the
arithmetic's dtype: the declared ``compute_dtype``, else the stored one), plus eps_stored/2 |v|
when the arrays are stored in a coarser dtype than the arithmetic's. Measured on real cells
(ncps torch and TF, 8 to 64 units, trained and untrained; the LTC authors' TF1 cell with its
three solvers) the largest error is 1.5 to 6.2 of these standard deviations: the tolerance
sits within 2x to 8x of the observed rounding.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from ...claims import Claim, Evidence, Outcome, Verdict
from ...compute.precision import float64
from .format import AbstractLTCExport, LTCExport
from .format import COMPUTE_DTYPES, SOLVERS
from .numerics import ODE_SOLVER, CellArrays, ReferenceComparison, compare_with_reference
from .shared import (GROSS_FACTOR, LTC_CLAIM_IDS, SEED002, bind_claims, largest_elapsed_within, select_steps, solver_error_outcome,
                     solver_words, step_outcome, unfolds_needed)
from .updates import advance, update_of

__all__ = ["ltc_audit_claims", "LTC_CLAIM_IDS", "LTC_CLAIM_SPECS", "DEFAULT_SOLVER_TOL", "DEFAULT_SOLVER_STEPS",
           "fused_step", "ltc_rhs", "UNFOLD_GRID", "STEP_SIGMAS", "step_sweep"]

DEFAULT_SOLVER_TOL: float | None = None  # seed 002 gives its fused solver no tolerance: without --tol the error is measured, not judged
DEFAULT_REPORT_TOL = 1e-2  # without --tol: the tolerance of the evidence's 'largest elapsed within' and 'unfolds needed' figures only
DEFAULT_SOLVER_STEPS = 256  # IVPs solved by diffrax: the longest intervals first, then evenly spread steps
REF_RTOL, REF_ATOL = 1e-8, 1e-10  # the reference solves (diffrax Tsit5, PIDController)
ESTIMATE_FLOOR = 10  # the reference's error: 10 x REF_RTOL (+ rounding), tested on CHECK_LANES intervals (the longest,
CHECK_FACTOR = 100  # then the largest errors) re-solved at tolerances 100 x tighter
CHECK_LANES = 32
UNFOLD_GRID = (1, 2, 3, 6, 12, 24, 48, 96)
STEP_SIGMAS = 12  # the step tolerance in standard deviations of the rounding model (module docstring)
OUTPUT_SAFETY = 2  # the output tolerance: OUTPUT_SAFETY eps (|v w| + |b| + |y|), twice the first-order bound of its two roundings
EPS64 = float(np.finfo(np.float64).eps)


def _sig(z, xp=np):
    return 0.5 * (1.0 + xp.tanh(0.5 * z))  # the logistic function without overflow warnings


class _Cell(CellArrays):
    """float64 parameters as used (w, sw: used * mask), with the numpy formulas of the module docstring."""

    @classmethod
    def of(cls, e: LTCExport) -> "_Cell":
        return cls(e.used("cm"), e.used("gleak"), e.p("vleak"), e.used("w") * e.p("sparsity_mask"), e.p("sigma"), e.p("mu"),
                   e.p("erev"), e.used("sensory_w") * e.p("sensory_sparsity_mask"), e.p("sensory_sigma"), e.p("sensory_mu"),
                   e.p("sensory_erev"), e.epsilon)

    def sensory(self, I, xp=np):  # I (..., M) -> g^s (..., M, N)
        return self.sw * _sig(self.ssigma * (I[..., :, None] - self.smu), xp)

    def synaptic(self, v, xp=np):  # v (..., N) -> g (..., N, N)
        return self.w * _sig(self.sigma * (v[..., :, None] - self.mu), xp)


def fused_step(cell: _Cell, v, I, elapsed, unfolds: int, *, xp=np):
    """The fused update (module docstring) in float64: v (S, N), I (S, M), elapsed (S,)."""
    gs = cell.sensory(I, xp)
    num_s, den_s = xp.sum(gs * cell.serev, axis=-2), xp.sum(gs, axis=-2)
    cm_t = cell.cm / (elapsed[:, None] / unfolds)
    for _ in range(unfolds):
        g = cell.synaptic(v, xp)
        num = cm_t * v + cell.gleak * cell.vleak + xp.sum(g * cell.erev, axis=-2) + num_s
        den = cm_t + cell.gleak + xp.sum(g, axis=-2) + den_s + cell.epsilon
        v = num / den
    return v


def ltc_rhs(cell: _Cell, v, I, xp=np):
    """dv/dt of the cell's ODE (module docstring), in namespace `xp`."""
    gs = cell.sw * (0.5 * (1.0 + xp.tanh(0.5 * cell.ssigma * (I[:, None] - cell.smu))))
    g = cell.w * (0.5 * (1.0 + xp.tanh(0.5 * cell.sigma * (v[:, None] - cell.mu))))
    cur = cell.gleak * (cell.vleak - v) + xp.sum(g * (cell.erev - v[None, :]), axis=0) + xp.sum(gs * (cell.serev - v[None, :]), axis=0)
    return cur / cell.cm


# ---------------------------------------------------------------------------- shared pass
@dataclass
class _Pass:
    """What one vectorised sweep over the trajectory yields (the step and tau_sys checks share it)."""

    step_err: np.ndarray  # (T, B, N) |recomputed - exported|
    step_tol: np.ndarray  # (T, B, N)
    tau: np.ndarray  # (T, B, N) tau_sys at the exported state and input of each step
    out_err: np.ndarray | None
    out_tol: np.ndarray | None


def _input_rounding(e: LTCExport) -> np.ndarray:
    """Variance (units of (eps/sqrt(12))^2) of the mapped input's own rounding, x w_in + b_in: two
    roundings, (x w_in)^2 + I^2; none without an input mapping."""
    if "input_w" not in e.params and "input_b" not in e.params:
        return np.zeros(e.inputs.shape)
    x = e.inputs.astype(np.float64)
    return (x * e.p("input_w")) ** 2 + e.mapped_inputs() ** 2


def step_sweep(e: LTCExport, solver: str | None = None, progress: Callable[[int], None] | None = None) -> _Pass:
    """`solver`'s update (default: the declared one) of every step from the exported state before
    it, over the elapsed time that solver has in the file's convention: one batched computation
    (nacverify.audit.ltc.updates), which also yields the rounding model's standard deviation and tau_sys."""
    solver = solver or e.solver
    T, B, N, M = e.T, e.B, e.N, e.M
    states = e.states.astype(np.float64)
    done = {"rows": 0, "steps": 0}

    def advanced(rows: int) -> None:  # rows are (step, batch) pairs; progress counts steps
        done["rows"] += rows
        steps = done["rows"] // B
        if progress is not None and steps > done["steps"]:
            progress(steps - done["steps"])
        done["steps"] = steps

    new, sd, tau = advance(solver, _Cell.of(e), states[:-1].reshape(T * B, N), e.mapped_inputs().reshape(T * B, M),
                           e.elapsed_for(solver).astype(np.float64).reshape(T * B), e.ode_unfolds,
                           var_I=_input_rounding(e).reshape(T * B, M), progress=advanced)
    exported = states[1:]
    new, sd = new.reshape(T, B, N), sd.reshape(T, B, N)
    err = np.abs(new - exported)
    eps, stored = e.dtype_eps, e.stored_eps
    tol = STEP_SIGMAS * eps / np.sqrt(12.0) * sd + (0.5 * stored * np.abs(exported) if stored > eps else 0.0)
    out_err = out_tol = None
    if e.outputs is not None:
        K = e.outputs.shape[2]
        y = states[1:, :, :K] * e.p("output_w")[:K] + e.p("output_b")[:K]
        out_err = np.abs(y - e.outputs.astype(np.float64))
        out_tol = OUTPUT_SAFETY * max(eps, stored) * (np.abs(states[1:, :, :K] * e.p("output_w")[:K]) + np.abs(e.p("output_b")[:K]) + np.abs(y))
    return _Pass(err, tol, tau.reshape(T, B, N), out_err, out_tol)


def _sweep(e: LTCExport, progress: Callable[[int], None] | None = None) -> _Pass:
    return step_sweep(e, None, progress)


# ---------------------------------------------------------------------------- checks
def _gross_hint(e: LTCExport, sw: _Pass) -> str:
    """What to check when the step is off by more than GROSS_FACTOR tolerances: the dtype (with the
    coarsest dtype that would explain the errors, if one does), the elapsed times, the unfolds."""
    with np.errstate(invalid="ignore", divide="ignore"):
        worst = float(np.nanmax(np.where(sw.step_tol > 0, sw.step_err / sw.step_tol, np.inf)))
    fits = [name for name, eps in COMPUTE_DTYPES.items() if eps > e.dtype_eps and worst * e.dtype_eps / eps <= 1.0]
    dtype = (f"the dtype: the errors fit {fits[-1]} arithmetic (declare compute_dtype = {fits[-1]}; the tolerance now follows "
             f"{e.dtype_source})" if fits else f"the dtype (the tolerance follows {e.dtype_source}; declare compute_dtype if the run "
             "computed in another)")
    el = np.unique(e.elapsed)
    span = f"{float(el[0]):.4g} for every step" if el.size == 1 else f"{el.size} values, {float(el[0]):.4g} to {float(el[-1]):.4g}"
    return (f"check {dtype}; the elapsed times ({span}, in the time unit of cm) and ode_unfolds ({e.ode_unfolds}); "
            f"and the solver ({e.solver})")


_WORDS = {"fused": "the fused solver", "euler": "the explicit Euler solver", "rk4": "the RK4 solver"}


def _other_solvers(e: LTCExport, sw: _Pass) -> tuple[str, dict]:
    """After a refutation: each other solver's worst error over its own tolerance, on the elapsed
    time it has in the file's convention; a note when one fits the states better than the declared one."""
    def worst(p: _Pass) -> float:
        with np.errstate(invalid="ignore", divide="ignore"):
            return float(np.nanmax(np.where(p.step_tol > 0, p.step_err / p.step_tol, np.inf)))

    mine = worst(sw)
    scores = {s: worst(step_sweep(e, s)) for s in SOLVERS if s != e.solver}
    scalars = {f"error_over_tolerance_as_{s}": v for s, v in scores.items()}
    best = min(scores, key=scores.get)
    if scores[best] >= mine:
        return "", scalars
    step = float(e.elapsed_for(best).flat[0]) / e.ode_unfolds
    verdict = "they hold as" if scores[best] <= 1 else "they come closer to"
    return (f"the states match {_WORDS[best]} better than the declared "
            f"{e.solver}: {verdict} {best} (worst {scores[best]:.3g} x its tolerance, step h = {step:.4g}, vs {mine:.3g} as {e.solver}); "
            f"declare solver = {best}"), scalars


def _step(e: LTCExport, sw: _Pass) -> Outcome:
    rule = (f"{e.solver} solver recomputed; tolerance {STEP_SIGMAS} standard deviations of the first-order rounding model "
            f"(each operation's rounding uniform on +-eps/2, carried through the later unfolds), eps = {e.dtype_eps:.3g} from "
            f"{e.dtype_source}, {e.ode_unfolds} unfolds, step h = {float(e.elapsed.flat[0]) / e.ode_unfolds:.4g}"
            + ("" if np.all(e.elapsed == e.elapsed.flat[0]) else " (first step)"))
    constants = {"sigmas": STEP_SIGMAS, "solver": e.solver, "compute_dtype": e.compute_dtype or None,
                 "stored_dtype": str(e.states.dtype), "convention": e.convention}
    note, scalars = _other_solvers(e, sw) if (sw.step_err > sw.step_tol).any() else ("", {})
    constants.update(scalars)
    return step_outcome(e, sw, rule, constants, gross_hint=_gross_hint(e, sw), notes=note)


def _positivity(e: LTCExport) -> Outcome:
    how = "softplus(raw) (implicit_param_constraints)" if e.implicit_param_constraints else "raw values (no implicit constraints)"
    entries = {"w": (e.used("w"), e.p("sparsity_mask") != 0, 0.0, ">= 0"),
               "sensory_w": (e.used("sensory_w"), e.p("sensory_sparsity_mask") != 0, 0.0, ">= 0"),
               "gleak": (e.used("gleak"), np.ones(e.N, bool), 0.0, ">= 0"),
               "cm": (e.used("cm"), np.ones(e.N, bool), None, "> 0")}
    scalars: dict = {"implicit_param_constraints": int(e.implicit_param_constraints)}
    arrays = {}
    bad, worst = [], None
    for name, (vals, mask, _, rule) in entries.items():
        present = vals[mask]
        negative = (present <= 0) if name == "cm" else (present < 0)
        scalars[f"min_{name}"] = float(present.min()) if present.size else float("nan")
        scalars[f"{name}_violations"] = int(negative.sum())
        arrays[f"{name}_used"] = vals
        if negative.any():
            idx = np.argwhere(mask & ((vals <= 0) if name == "cm" else (vals < 0)))
            k = int(np.argmin(vals[tuple(idx.T)]))
            where = [int(i) for i in idx[k]]
            bad.append(f"{name}: {int(negative.sum())} of {present.size} not {rule} (min {float(vals[tuple(where)]):.4g} at {where})")
            if worst is None:
                worst = {"parameter": name, "index": str(where), "value_used": float(vals[tuple(where)]),
                         "raw": float(e.p(name)[tuple(where)])}
    ev = Evidence(arrays, scalars, worst or {})
    if bad:
        return Outcome(Verdict.REFUTED, f"as used ({how}): " + "; ".join(bad) +
                       " (eq. 2: w 'always positive'; ncps' LTCCell relies on apply_weight_constraints() after each optimizer step)", ev)
    return Outcome(Verdict.HOLDS, f"as used ({how}): w >= 0 (min {scalars['min_w']:.3g}), sensory_w >= 0 (min {scalars['min_sensory_w']:.3g}), "
                   f"gleak >= 0 (min {scalars['min_gleak']:.3g}), cm > 0 (min {scalars['min_cm']:.3g}) on every existing synapse and unit", ev)


def _bounds(e: LTCExport):
    """Eq. 13 per unit: [min(vleak, E of incoming synapses), max(...)] over existing synapses."""
    mask, smask = e.p("sparsity_mask") != 0, e.p("sensory_sparsity_mask") != 0
    erev, serev, vleak = e.p("erev"), e.p("sensory_erev"), e.p("vleak")
    lo = np.minimum(vleak, np.minimum(np.where(mask, erev, np.inf).min(axis=0), np.where(smask, serev, np.inf).min(axis=0)))
    hi = np.maximum(vleak, np.maximum(np.where(mask, erev, -np.inf).max(axis=0), np.where(smask, serev, -np.inf).max(axis=0)))
    return lo, hi


def _state_bounds(e: LTCExport) -> Outcome:
    lo, hi = _bounds(e)
    v = e.states.astype(np.float64)
    v0 = v[0]
    lo_b, hi_b = np.minimum(lo, v0), np.maximum(hi, v0)  # (B, N): a start outside may only approach the interval
    eps = e.dtype_eps
    mag = np.maximum(np.abs(lo_b), np.abs(hi_b))
    tol = 8 * (e.N + e.M + 8) * eps * mag
    cm_t_min = e.used("cm") * e.ode_unfolds / float(np.max(e.elapsed))
    zero_outside = (lo_b > 0) | (hi_b < 0)  # then epsilon's shrink towards 0 can leave the hull slightly
    with np.errstate(divide="ignore", invalid="ignore"):
        shrink = np.where(zero_outside, mag * np.minimum(1.0, e.T * e.ode_unfolds * e.epsilon / np.abs(cm_t_min)), 0.0)
    tol = tol + shrink
    excess = np.maximum(v - hi_b, lo_b - v) - tol  # (T+1, B, N)
    flat = int(np.argmax(excess))
    step, b, i = (int(x) for x in np.unravel_index(flat, excess.shape))
    out = excess > 0
    premises = _outside_domain(e)
    failed = [name for name, flags in premises.items() if flags[i]]
    outside_units = np.any(list(premises.values()), axis=0)
    w = {"step": step, "batch": b, "unit": i, "v": float(v[step, b, i]), "lower": float(lo_b[b, i]), "upper": float(hi_b[b, i]),
         "v0": float(v0[b, i]), "unit_has_negative_conductance": bool(premises["an incoming w < 0"][i] or premises["an incoming sensory_w < 0"][i]),
         "unit_outside_premises": ", ".join(failed) or "none"}
    started_outside = int(((v0 < lo) | (v0 > hi)).sum())
    scalars = {"values": int(v.size), "values_outside": int(out.sum()), "max_excess": float(excess.flat[flat] + tol[b, i]),
               "starts_outside": started_outside, "min_slack": float(-np.max(excess + tol[None]))}
    first = int(np.argmax(out.reshape(v.shape[0], -1).any(axis=1))) if out.any() else -1
    scalars["first_step_outside"] = first
    scalars["values_outside_at_units_within_premises"] = int(out[:, :, ~outside_units].sum())
    ev = Evidence({"lower": lo, "upper": hi, "max_excess_per_step": np.max(excess + tol[None], axis=(1, 2))}, scalars, w)
    note = f"; {started_outside} unit(s) start outside (their bound is widened to v(0))" if started_outside else ""
    if out.any():
        why = (f" (that unit has {' and '.join(failed)} as used: outside eq. 13's premises, so its states may leave the interval; "
               f"{scalars['values_outside_at_units_within_premises']} values outside at units within them)") if failed else ""
        return Outcome(Verdict.REFUTED, f"{int(out.sum())} of {v.size} state values leave eq. 13's [min(vleak, E), max(vleak, E)]; first at step "
                       f"{first}; worst v = {w['v']:.6g} vs [{w['lower']:.4g}, {w['upper']:.4g}] at step {step}, batch {b}, unit {i}{why}{note}", ev)
    return Outcome(Verdict.HOLDS, f"all {e.T + 1} x {e.B} x {e.N} state values inside eq. 13's bounds (min slack {scalars['min_slack']:.3g}){note}", ev)


def _outside_domain(e: LTCExport) -> dict[str, np.ndarray]:
    """Per unit, the premises of eq. 10 and eq. 13 that fail as used: cm < 0, gleak < 0, an
    incoming (existing) synapse with w < 0 or sensory_w < 0 (each (N,) bool)."""
    return {"cm < 0": e.used("cm") < 0, "gleak < 0": e.used("gleak") < 0,
            "an incoming w < 0": ((e.used("w") < 0) & (e.p("sparsity_mask") != 0)).any(axis=0),
            "an incoming sensory_w < 0": ((e.used("sensory_w") < 0) & (e.p("sensory_sparsity_mask") != 0)).any(axis=0)}


def _time_constants(e: LTCExport, sw: _Pass) -> Outcome:
    """Eq. 10 on the units that meet its premises (cm >= 0, gleak >= 0, incoming w >= 0 as used);
    the others are counted, not judged: their parameters are audit.ltc.positivity's finding. A unit
    with cm = 0 has tau_sys = 0 in eq. 10's degenerate interval [0, 0] (it relaxes at once)."""
    cm, gleak = e.used("cm"), e.used("gleak")
    wsum = np.sum(e.used("w") * e.p("sparsity_mask"), axis=0) + np.sum(e.used("sensory_w") * e.p("sensory_sparsity_mask"), axis=0)
    premises = _outside_domain(e)
    outside = np.any(list(premises.values()), axis=0)  # (N,)
    inside = ~outside
    with np.errstate(divide="ignore", invalid="ignore"):
        tmin = np.where(cm == 0, 0.0, cm / (gleak + wsum))
        tmax = np.where(cm == 0, 0.0, np.where(gleak > 0, cm / gleak, np.inf))
        tau = np.where(cm == 0, 0.0, sw.tau)  # cm / (gleak + sum g) with cm = 0 (0/0 only when no conductance at all)
    rel = 16 * (e.N + e.M + 4) * EPS64
    with np.errstate(invalid="ignore"):
        below = np.where(tau >= 0, np.maximum(tmin * (1 - rel) - tau, 0.0) / np.where(tmin > 0, tmin, 1.0), np.inf)
        above = np.where(tau >= 0, np.where(np.isfinite(tmax), np.maximum(tau - tmax * (1 + rel), 0.0) / np.where(tmax > 0, tmax, 1.0), 0.0),
                         np.inf)
    viol = np.maximum(below, above)
    viol = np.where(np.isnan(viol), np.inf, viol)
    bad = (viol > 0) & inside[None, None, :]
    checked = np.broadcast_to(inside[None, None, :], tau.shape)
    zero_cm = inside & (cm == 0)
    scalars = {"values": int(tau.size), "values_checked": int(checked.sum()), "values_outside": int(bad.sum()),
               "units_outside_premises": int(outside.sum()), "units_with_zero_cm": int(zero_cm.sum())}
    for name, flags in premises.items():
        scalars[f"units_{name.replace(' ', '_').replace('<', 'lt')}"] = int(flags.sum())
    in_tau = tau[checked]
    finite = in_tau[np.isfinite(in_tau)]
    scalars["min_tau_sys"] = float(finite.min()) if finite.size else float("nan")
    scalars["max_tau_sys"] = float(finite.max()) if finite.size else float("nan")
    arrays = {"tau_min": tmin, "tau_max": tmax, "unit_outside_premises": outside.astype(np.int8)}
    skipped = ""
    if outside.any():
        why = ", ".join(f"{int(f.sum())} with {name}" for name, f in premises.items() if f.any())
        skipped = (f"; {int(outside.sum())} of {e.N} units are outside eq. 10's premises as used ({why}: audit.ltc.positivity's "
                   f"finding, not judged here)")
    if not inside.any():
        return Outcome(Verdict.INAPPLICABLE, f"no unit meets eq. 10's premises (cm, gleak and incoming w >= 0 as used){skipped}",
                       Evidence(arrays, scalars, {}))
    score = np.where(bad, viol + 1, np.where(checked, 0.0, -1.0))
    flat = int(np.argmax(score))
    step, b, i = (int(x) for x in np.unravel_index(flat, tau.shape))
    w = {"step": step, "batch": b, "unit": i, "tau_sys": float(tau[step, b, i]), "tau_min": float(tmin[i]), "tau_max": float(tmax[i]),
         "cm": float(cm[i]), "gleak": float(gleak[i]), "sum_w": float(wsum[i])}
    arrays.update({"tau_sys_min_per_step": np.min(np.where(checked, tau, np.inf), axis=(1, 2)),
                   "tau_sys_max_per_step": np.max(np.where(checked, tau, -np.inf), axis=(1, 2))})
    ev = Evidence(arrays, scalars, w)
    zero = (f"; {int(zero_cm.sum())} unit(s) with cm = 0: tau_sys = 0 in eq. 10's degenerate interval [0, 0] (the membrane "
            f"relaxes at once; C = 0 is audit.ltc.positivity's finding)") if zero_cm.any() else ""
    if bad.any():
        return Outcome(Verdict.REFUTED, f"{int(bad.sum())} of {int(checked.sum())} tau_sys values of units within eq. 10's premises lie outside "
                       f"its [C/(g + sum w), C/g]; worst tau_sys = {w['tau_sys']:.4g} vs [{w['tau_min']:.4g}, {w['tau_max']:.4g}] at step "
                       f"{step}, batch {b}, unit {i}{zero}{skipped}", ev)
    return Outcome(Verdict.HOLDS, f"tau_sys in [{scalars['min_tau_sys']:.4g}, {scalars['max_tau_sys']:.4g}], inside eq. 10's per-unit bounds "
                   f"at all {e.T} steps x {e.B} x {int(inside.sum())} units (eq. 11 with tau = C/g, W = sum w/C is the same interval)"
                   f"{zero}{skipped}", ev)


def _unfold_grid(e: LTCExport) -> np.ndarray:
    return np.array(sorted(set(UNFOLD_GRID) | {e.ode_unfolds}))


def _solver_comparison(e: LTCExport, limit: int) -> ReferenceComparison | None:
    """The numbers behind the solver-error claim (None when some cm <= 0: outside the claim's premises, `_solver_error`).
    All intervals are independent (each starts from the implementation's own state), so each
    kind of solve is one batched computation (nacverify.audit.ltc.numerics)."""
    cell = _Cell.of(e)
    if not (np.all(cell.cm > 0)):
        return None
    idx = select_steps(e, limit)
    v0 = e.states[:-1].astype(np.float64).reshape(-1, e.N)[idx]
    I = e.mapped_inputs().reshape(-1, e.M)[idx]
    el = e.elapsed.astype(np.float64).reshape(-1)[idx]
    return compare_with_reference(cell, v0, I, el, [int(u) for u in _unfold_grid(e)], e.ode_unfolds, rtol=REF_RTOL, atol=REF_ATOL,
                                  check_factor=CHECK_FACTOR, check_rows=CHECK_LANES, floor=ESTIMATE_FLOOR, update=update_of(e.solver))


def _in_background(fn: Callable, *args) -> Future:
    """`fn(*args)` in float64 in a daemon thread; its result (or exception) in the Future."""
    future: Future = Future()

    def run() -> None:
        try:
            with float64():
                future.set_result(fn(*args))
        except BaseException as exc:  # delivered to whoever asks for the result
            future.set_exception(exc)

    threading.Thread(target=run, name="nacverify-ltc-solver-error", daemon=True).start()
    return future


def _solver_error(e: LTCExport, tol: float, limit: int, prefetched: Future | None = None) -> Outcome:
    """Per checked step: the fused update (ode_unfolds, and the UNFOLD_GRID) from the exported state
    against an adaptive float64 solve of the ODE over the same interval with the input held."""
    cmp = prefetched.result() if prefetched is not None else _solver_comparison(e, limit)
    if cmp is None:
        return _solver_inapplicable(e)
    idx = select_steps(e, limit)
    el = e.elapsed.astype(np.float64).reshape(-1)[idx]
    grid = _unfold_grid(e)
    if not cmp.finished.all():
        return Outcome(Verdict.INCONCLUSIVE, f"diffrax (Tsit5) did not finish {int((~cmp.finished).sum())} of {idx.size} interval solves (stiff or blowing up)")
    if not cmp.check_finished.all():
        return Outcome(Verdict.INCONCLUSIVE, f"the tighter check solve (rtol {REF_RTOL / CHECK_FACTOR:g}) did not finish "
                       f"{int((~cmp.check_finished).sum())} of {cmp.check_index.size} intervals")
    rel, nsteps, chk, check_err, solver_rel = cmp.rel[e.ode_unfolds], cmp.steps, cmp.check_index, cmp.check_error, cmp.estimate
    bound = cmp.bound
    by_unfolds = np.array([np.max(cmp.rel[int(u)]) for u in grid])
    gate = DEFAULT_REPORT_TOL if tol is None else tol  # the evidence's per-tolerance figures; the verdict uses `tol` only
    over = rel - solver_rel > gate
    k = int(np.argmax(rel))
    step, b = divmod(int(idx[k]), e.B)
    largest_ok = largest_elapsed_within(el, rel, gate)
    smallest_bad = float(el[over].min()) if over.any() else None
    enough = [int(u) for u, err in zip(grid, by_unfolds) if err <= gate]
    w = {"step": step, "batch": b, "elapsed": float(el[k]), "relative_error": float(rel[k]), "ode_unfolds": e.ode_unfolds,
         "dt": float(el[k] / e.ode_unfolds)}
    scalars = {"tolerance": None if tol is None else tol, "figures_tolerance": gate, "steps_checked": int(idx.size), "steps_total": e.T * e.B, "max_relative_error": float(rel.max()),
               "median_relative_error": float(np.median(rel)), "steps_over_tolerance": int(over.sum()),
               "largest_elapsed_within_tolerance": largest_ok, "smallest_elapsed_over_tolerance": smallest_bad,
               "max_solver_error_estimate": bound, "max_diffrax_steps": int(nsteps.max()),
               "unfolds_needed": enough[0] if enough else None, "reference_solver": ODE_SOLVER,
               "reference_rtol": REF_RTOL, "reference_atol": REF_ATOL, "check_rtol": REF_RTOL / CHECK_FACTOR,
               "check_atol": REF_ATOL / CHECK_FACTOR, "estimate_floor": ESTIMATE_FLOOR * REF_RTOL, "reference_checked_intervals": int(chk.size),
               "max_reference_check_error": float(np.max(check_err)),
               "estimate_misses": int((~cmp.estimate_covers).sum()), "solver": e.solver,
               "horizon_per_input_step_min": float(el.min()), "horizon_per_input_step_max": float(el.max()),
               "solver_step_min": float(el.min()) / e.ode_unfolds, "solver_step_max": float(el.max()) / e.ode_unfolds}
    ev = Evidence({"checked_step": idx // e.B, "checked_batch": idx % e.B, "elapsed": el, "relative_error": rel,
                   "solver_error_estimate": solver_rel, "diffrax_steps": nsteps, "unfolds_grid": grid,
                   "max_relative_error_by_unfolds": by_unfolds, "reference_check_index": chk, "reference_check_error": check_err,
                   "reference_check_estimate": solver_rel[chk]}, scalars, w)
    sample = "" if idx.size == e.T * e.B else f" (checked {idx.size} of {e.T * e.B} steps: the {limit // 2} longest intervals and an even spread)"
    need = f"; {scalars['unfolds_needed']} unfolds would meet it" if enough else f"; even {grid[-1]} unfolds would not meet it"
    span = f"{el.min():.4g}" if el.min() == el.max() else f"{el.min():.4g} to {el.max():.4g}"
    sample = (f"; {solver_words(e)} integrates the ODE over a horizon of {span} per input step ({e.ode_unfolds} unfolds of "
              f"{el.min() / e.ode_unfolds:.4g}" + ("" if el.min() == el.max() else f" to {el.max() / e.ode_unfolds:.4g}") + ")" + sample)
    ref_note = (f"; reference (rtol {REF_RTOL:g}) error <= {bound:.2g}: a re-solve of {chk.size} intervals at rtol "
                f"{REF_RTOL / CHECK_FACTOR:g} measured at most {np.max(check_err):.2g}")
    if not cmp.estimate_covers.all():
        return Outcome(Verdict.INCONCLUSIVE, f"the reference's measured error exceeds its stated bound on {scalars['estimate_misses']} of "
                       f"{chk.size} re-solved intervals: the reference is not converged{ref_note}", ev)
    return solver_error_outcome(e, tol=tol, rows=idx, rel=rel, est=solver_rel, el=el, reference="the adaptive float64 solution",
                                sample=sample, advice=need, ref_note=ref_note, ev=ev, needed=unfolds_needed(grid, by_unfolds))


def _solver_inapplicable(e: LTCExport) -> Outcome:
    """Why the fused solver is not compared with the ODE when some cm <= 0 as used."""
    cm = e.used("cm")
    neg, zero = np.flatnonzero(cm < 0), np.flatnonzero(cm == 0)
    parts = []
    if neg.size:
        parts.append(f"cm < 0 for {neg.size} unit(s) (min {float(cm.min()):.4g} at unit {int(np.argmin(cm))}): the ODE C_m dv/dt = I(v) still "
                     "has a forward solution there (dv/dt = I(v)/C_m, smooth in v), but C_m < 0 flips the sign of every current, so the "
                     "unit runs away from the potentials a membrane relaxes to, and the fused update's denominator cm/dt + G_leak + "
                     "sum g passes through 0 at dt = -cm/(G_leak + sum g) (a pole): eq. 8-9 derive the update 'for accuracy' on "
                     "eq. 1's RC membrane (C_m > 0; audit.ltc.positivity), and say nothing of its error outside it")
    if zero.size:
        parts.append(f"cm = 0 for {zero.size} unit(s) (first: unit {int(zero[0])}): C_m dv/dt = I(v) is then no ODE for them but the "
                     "algebraic condition I(v) = 0, which each fused unfold solves for that unit outright; there is no ODE "
                     "solution to compare with")
    return Outcome(Verdict.INAPPLICABLE, "; ".join(parts),
                   Evidence({"cm_used": cm}, {"units_with_negative_cm": int(neg.size), "units_with_zero_cm": int(zero.size)}, {}))


# ---------------------------------------------------------------------------- claims
LTC_CLAIM_SPECS: dict[str, tuple[str, str, str]] = {
    "audit.ltc.step": (
        f"{SEED002}, eq. 8-9 ('x(t+dt) = (x + dt f A)/(1 + dt(1/tau + f))') with eq. 1-2 (biophysical analogue)",
        "every exported step equals the declared solver's update (fused semi-implicit Euler by default, or explicit Euler, or RK4; "
        "dt = elapsed/ode_unfolds, ode_unfolds times) recomputed in float64 from the exported state, input and parameters, to the "
        "rounding of the arithmetic's dtype (compute_dtype, else the stored one)",
        "any export; parameters as used (softplus under implicit constraints)",
    ),
    "audit.ltc.positivity": (
        f"{SEED002}, eq. 1-2 ('w_ij ... Always positive'; C_m, G_leak of an RC membrane); eq. 10 assumes it",
        "conductances w, sensory_w (existing synapses), gleak >= 0 and capacitance cm > 0 as used",
        "any export",
    ),
    "audit.ltc.state_bounds": (
        f"{SEED002}, eq. 13 ('min(V_Leak, E^min) <= v_i(t) <= max(V_Leak, E^max)'); eq. 12 is the abstract analogue",
        "every exported state value lies in [min(vleak_i, E of i's incoming synapses), max(...)] (widened to v_i(0) when it starts outside), "
        "up to rounding",
        "any export; eq. 13 assumes non-negative conductances (a refutation names the unit's sign)",
    ),
    "audit.ltc.time_constants": (
        f"{SEED002}, eq. 10 ('C_i/(g_i + sum w_ij) <= tau_i <= C_i/g_i', no gap junctions) and eq. 11",
        "tau_sys = cm/(gleak + sum of open conductances) of each unit at each exported state lies in eq. 10's per-unit interval",
        "units with cm, gleak and incoming w >= 0 as used (eq. 10's premises; the others are positivity's finding); cm = 0 gives "
        "the degenerate interval [0, 0]",
    ),
    "audit.ltc.solver_error": (
        f"{SEED002}, eq. 8-9 (fused solver, 'applied L times per input time step for accuracy') vs eq. 1-2",
        "per step, the declared solver's update (fused, explicit Euler or RK4) from the exported state, over the horizon it integrates "
        "(elapsed = ode_unfolds x step), is within the relative tolerance of an adaptive float64 (diffrax Tsit5, rtol 1e-8) "
        "solution of the same ODE with the input held over the elapsed interval",
        "cm > 0; piecewise-constant inputs; relative error = max-norm error / max(|v_ode|, |v_start|); the reference's own error "
        "(10 rtol = 1e-7 plus rounding, tested by a 100x tighter re-solve of the 16 longest and the 16 worst steps) decides "
        "inconclusive cases",
    ),
}


def ltc_audit_claims(export: LTCExport | AbstractLTCExport, *, tol: float | None = DEFAULT_SOLVER_TOL, solver_steps: int = DEFAULT_SOLVER_STEPS,
                     progress: Callable[[int], None] | None = None, warm_up: bool = False) -> list[Claim]:
    """The five LTC audit claims bound to one export (expected: holds, for a healthy cell); an
    abstract-form export gets the same five ids, checked against eq. 7/9 (nacverify.audit.ltc.abstract;
    computed in the caller's thread: `warm_up` plays no part there).
    The step and tau_sys checks share one sweep over the trajectory (`progress(n)` after each
    chunk, n steps). With `warm_up` (for callers that evaluate all five, like the CLI), the
    solver-error claim's computation (compilation and solves) starts at once in a background
    thread, so that it overlaps the sweep and the other claims; its verdict is the same either way."""
    from ...errors import BadInput

    if tol is not None and not (np.isfinite(tol) and tol > 0):
        raise BadInput(f"--tol must be > 0 and finite, got {tol}")
    if solver_steps < 1:
        raise BadInput(f"solver steps must be >= 1, got {solver_steps}")
    if isinstance(export, AbstractLTCExport):
        from .abstract import abstract_audit_claims

        return abstract_audit_claims(export, tol=tol, solver_steps=solver_steps, progress=progress)
    prefetched = _in_background(_solver_comparison, export, solver_steps) if warm_up else None
    return bind_claims(export, LTC_CLAIM_SPECS, tol, sweep=lambda e: _sweep(e, progress), step=_step, positivity=_positivity,
                       state_bounds=_state_bounds, time_constants=_time_constants,
                       solver_error=lambda e: _solver_error(e, tol, solver_steps, prefetched))
