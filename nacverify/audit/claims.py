r"""The audit claims: what the theory of seed 001 asks of any NAC implementation's gates.

Each claim runs on one `GateExport` (arrays per pair = one query and one of its K selected
keys). Claims other than ``audit.omega_positive`` and ``audit.attention_rows`` are checked
on the valid pairs where Theorem 1's assumption $\omega > 0$ holds; pairs with
$\omega \le 0$ are counted as excluded (``audit.omega_positive`` refutes them).

Expected verdicts without ``--expect``: every claim is expected to hold for a healthy
export, except that a claim whose inputs the export does not carry (an optional array, the
mode, Euler mode itself) is expected to be ``inapplicable``. Which claims are applicable is
decided from the file before any check runs (`applicability`), so a missing optional array
never fails the gate, while a defect always does.

Witnesses name the worst pair by its index into the exported arrays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..checks.nac_stability import euler_invariance_threshold
from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict
from .format import GateExport
from .logits import ULPS, logit_tolerance, mode_logits_available, recompute_logits

__all__ = ["audit_claims", "applicability", "CLAIM_IDS", "CLAIM_SPECS", "DEFAULT_SHARP_THRESHOLD", "CONSTANT_ULPS"]

SEED001 = "001_9075dda04a2ad935.txt"
REFERENCE = "../shared/reference/REFERENCE_IMPLEMENTATION.md"
DEFAULT_SHARP_THRESHOLD = 0.5
CONSTANT_ULPS = 16  # a gate whose spread over all pairs is within this many ulps of its size is constant
QUANTILES = np.linspace(0.0, 1.0, 101)
EPS64 = float(np.finfo(np.float64).eps)

CLAIM_IDS = (
    "audit.omega_positive",
    "audit.thm1_interval",
    "audit.logits_consistent",
    "audit.euler_margin",
    "audit.gate_variation",
    "audit.sharpness",
    "audit.attention_rows",
)


# ---------------------------------------------------------------------------- helpers
def _index(flat: int, shape: tuple[int, ...]) -> str:
    return str([int(i) for i in np.unravel_index(int(flat), shape)])


def _worst(metric: np.ndarray, mask: np.ndarray) -> int:
    return int(np.argmax(np.where(mask, metric, -np.inf)))


def _quantiles(values: np.ndarray) -> np.ndarray:
    return np.quantile(values, QUANTILES) if values.size else np.zeros(0)


def _gates(export: GateExport):
    phi = export.phi.astype(np.float64)
    omega = export.omega.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        A = phi / omega
    return phi, omega, A


def _assumed(export: GateExport) -> tuple[np.ndarray, int]:
    """Valid pairs with omega > 0, and how many valid pairs were excluded for omega <= 0."""
    valid = export.valid_mask
    ok = valid & (export.omega > 0)
    return ok, int(valid.sum() - ok.sum())


def _logits(export: GateExport) -> tuple[np.ndarray | None, str]:
    """The logits a claim judges: the exported ones, else the mode's recomputation."""
    if export.logits is not None:
        return export.logits.astype(np.float64), "exported"
    if mode_logits_available(export) is None:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return recompute_logits(export)[0], f"recomputed ({export.mode})"
    return None, "none"


def applicability(export: GateExport) -> dict[str, str | None]:
    """For each claim id: None when the export carries what the claim needs, else the reason
    the claim is inapplicable to it."""
    logits_source = None if (export.logits is not None or mode_logits_available(export) is None) else (
        "no logits exported and " + (mode_logits_available(export) or ""))
    consistent = None
    if export.logits is None:
        consistent = "no logits exported: nothing to compare the recomputation with"
    elif mode_logits_available(export) is not None:
        consistent = mode_logits_available(export)
    counts = export.valid_mask.reshape(-1, export.K).sum(axis=1)
    return {
        "audit.omega_positive": None,
        "audit.thm1_interval": logits_source,
        "audit.logits_consistent": consistent,
        "audit.euler_margin": None if export.mode == "euler" else f"mode is {export.mode or 'not given'}, not euler: no Euler steps to bound",
        "audit.gate_variation": None,
        "audit.sharpness": None if (counts >= 2).any() else "every query has a single valid key: its softmax weight is 1 whatever the logits",
        "audit.attention_rows": None if export.attention is not None else "no attention exported",
    }


def _excluded_note(excluded: int) -> str:
    return f"; {excluded} pair(s) with omega <= 0 excluded" if excluded else ""


# ---------------------------------------------------------------------------- checks
def _omega_positive(export: GateExport) -> Outcome:
    valid = export.valid_mask
    omega = export.omega.astype(np.float64)
    bad = valid & ~(omega > 0)
    flat = int(np.argmin(np.where(valid, omega, np.inf)))
    w = {"index": _index(flat, export.pair_shape), "omega": float(omega.flat[flat]), "phi": float(export.phi.flat[flat])}
    scalars = {"pairs": int(valid.sum()), "min_omega": float(omega.flat[flat]), "nonpositive_pairs": int(bad.sum())}
    ev = Evidence({"omega_quantiles": _quantiles(omega[valid])}, scalars, w)
    if bad.any():
        return Outcome(Verdict.REFUTED, f"{int(bad.sum())} of {int(valid.sum())} pairs have omega <= 0 (min {w['omega']:.6g} at {w['index']}): "
                       "the logit ODE is not a decay there", ev)
    return Outcome(Verdict.HOLDS, f"omega > 0 on all {int(valid.sum())} pairs (min {w['omega']:.6g} at {w['index']})", ev)


def _thm1_interval(export: GateExport) -> Outcome:
    ok, excluded = _assumed(export)
    if not ok.any():
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0: Theorem 1 assumes omega > 0")
    phi, omega, A = _gates(export)
    a, source = _logits(export)
    with np.errstate(invalid="ignore"):
        m, M = np.minimum(0.0, A), np.maximum(0.0, A)
        excess = np.maximum(a - M, m - a)
    scale = np.maximum(np.abs(A), np.abs(a))
    if export.mode == "euler" and mode_logits_available(export) is None:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            scale = np.maximum(scale, recompute_logits(export)[1])
    tol = logit_tolerance(export, scale)
    ratio = np.where(ok, excess / tol, -np.inf)
    flat = _worst(ratio, ok)
    outside = ok & (excess > tol)
    w = {"index": _index(flat, export.pair_shape), "phi": float(phi.flat[flat]), "omega": float(omega.flat[flat]),
         "A": float(A.flat[flat]), "logit": float(a.flat[flat]), "m": float(m.flat[flat]), "M": float(M.flat[flat]),
         "excess": float(excess.flat[flat])}
    if export.t_pseudo is not None:
        w["t_pseudo"] = float(export.t_pseudo.flat[flat])
    scalars = {"pairs": int(ok.sum()), "excluded_nonpositive_omega": excluded, "pairs_outside": int(outside.sum()),
               "max_excess": float(excess.flat[flat]), "max_excess_over_tolerance": float(ratio.flat[flat]), "logits": source}
    rel = np.where(ok & (np.abs(A) > 0), excess / np.where(np.abs(A) > 0, np.abs(A), 1.0), -np.inf)
    ev = Evidence({"excess_over_A_quantiles": _quantiles(rel[ok & (np.abs(A) > 0)])}, scalars, w)
    if outside.any():
        return Outcome(Verdict.REFUTED, f"{int(outside.sum())} of {int(ok.sum())} {source} logits leave [min(0, A), max(0, A)]; worst {w['logit']:.6g} "
                       f"vs [{w['m']:.6g}, {w['M']:.6g}] at {w['index']}{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"all {int(ok.sum())} {source} logits inside [min(0, A), max(0, A)] up to rounding "
                   f"(worst excess {max(float(ratio.flat[flat]), 0.0):.2g} of the tolerance){_excluded_note(excluded)}", ev)


def _logits_consistent(export: GateExport) -> Outcome:
    ok, excluded = _assumed(export)
    if not ok.any():
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rec, scale = recompute_logits(export)
    a = export.logits.astype(np.float64)
    scale = np.maximum(scale, np.abs(a))
    tol = logit_tolerance(export, scale)
    diff = np.abs(a - rec)
    ratio = np.where(ok, diff / tol, -np.inf)
    flat = _worst(ratio, ok)
    off = ok & (diff > tol)
    eps = export.eps("phi", "omega", "t_pseudo", "logits")
    w = {"index": _index(flat, export.pair_shape), "phi": float(export.phi.flat[flat]), "omega": float(export.omega.flat[flat]),
         "logit_exported": float(a.flat[flat]), "logit_recomputed": float(rec.flat[flat]), "tolerance": float(tol.flat[flat])}
    if export.t_pseudo is not None:
        w["t_pseudo"] = float(export.t_pseudo.flat[flat])
    scalars = {"pairs": int(ok.sum()), "excluded_nonpositive_omega": excluded, "mode": export.mode, "pairs_off": int(off.sum()),
               "max_abs_diff": float(diff.flat[flat]), "max_diff_over_tolerance": float(ratio.flat[flat]), "dtype_eps": eps,
               "max_diff_ulps_of_scale": float(np.max(np.where(ok, diff / (eps * np.maximum(scale, 1e-300)), 0.0)))}
    ev = Evidence({"diff_over_tolerance_quantiles": _quantiles(ratio[ok])}, scalars, w)
    if off.any():
        return Outcome(Verdict.REFUTED, f"{int(off.sum())} of {int(ok.sum())} logits differ from the {export.mode} recomputation; worst "
                       f"{w['logit_exported']:.6g} vs {w['logit_recomputed']:.6g} at {w['index']} (tolerance {w['tolerance']:.2g})"
                       f"{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"all {int(ok.sum())} logits match the {export.mode} recomputation within "
                   f"{scalars['max_diff_ulps_of_scale']:.3g} ulps of the logit scale (tolerance {ULPS}+ ulps){_excluded_note(excluded)}", ev)


def _euler_margin(export: GateExport) -> Outcome:
    ok, excluded = _assumed(export)
    if not ok.any():
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    phi, omega, A = _gates(export)
    dt = export.delta_t
    h = dt * omega
    m, M = np.minimum(0.0, A), np.maximum(0.0, A)
    threshold = np.where(A == 0, np.inf, euler_invariance_threshold(m, M, A))  # phi = 0: the iterates stay at 0
    over = np.where(ok, h - threshold * (1 + 4 * EPS64), -np.inf)
    flat = _worst(h - threshold, ok)
    leaving = ok & (over > 0)
    diverging = ok & (h > 2)
    with np.errstate(divide="ignore"):
        safe_dt = float(np.min(np.where(ok, threshold / omega, np.inf)))
    w = {"index": _index(flat, export.pair_shape), "phi": float(phi.flat[flat]), "omega": float(omega.flat[flat]), "delta_t": dt,
         "dt_omega": float(h.flat[flat]), "threshold": float(threshold.flat[flat])}
    scalars = {"pairs": int(ok.sum()), "excluded_nonpositive_omega": excluded, "delta_t": dt, "euler_steps": export.euler_steps,
               "max_dt_omega": float(np.max(h[ok])), "min_margin": float(np.min((threshold - h)[ok])), "pairs_leaving": int(leaving.sum()),
               "pairs_diverging": int(diverging.sum()), "largest_safe_delta_t": safe_dt}
    ev = Evidence({"dt_omega_quantiles": _quantiles(h[ok])}, scalars, w)
    if leaving.any():
        grow = f" ({int(diverging.sum())} beyond 2: the iteration grows)" if diverging.any() else ""
        return Outcome(Verdict.REFUTED, f"delta_t*omega exceeds the invariance threshold (1 for one connection) at {int(leaving.sum())} of "
                       f"{int(ok.sum())} pairs{grow}; worst {w['dt_omega']:.6g} at {w['index']}; delta_t <= {safe_dt:.6g} would keep "
                       f"every logit in Theorem 1's interval{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"delta_t*omega <= {scalars['max_dt_omega']:.6g} <= 1 on all {int(ok.sum())} pairs "
                   f"(margin {scalars['min_margin']:.3g}; delta_t up to {safe_dt:.6g} would still be safe){_excluded_note(excluded)}", ev)


def _spread(gate: np.ndarray, mask: np.ndarray) -> tuple[float, float, bool]:
    values = gate[mask].astype(np.float64)
    spread = float(values.max() - values.min())
    size = float(np.max(np.abs(values)))
    constant = spread <= CONSTANT_ULPS * float(np.finfo(gate.dtype).eps) * size
    return spread, (spread / size if size > 0 else 0.0), constant


def _gate_variation(export: GateExport) -> Outcome:
    valid = export.valid_mask
    n = int(valid.sum())
    if n < 2:
        return Outcome(Verdict.INCONCLUSIVE, "a single valid pair: variation across pairs cannot be measured")
    phi_spread, phi_rel, phi_const = _spread(export.phi, valid)
    om_spread, om_rel, om_const = _spread(export.omega, valid)
    flats = np.flatnonzero(valid.reshape(-1))
    first = int(flats[0])
    scalars = {"pairs": n, "phi_spread": phi_spread, "omega_spread": om_spread, "phi_relative_spread": phi_rel,
               "omega_relative_spread": om_rel, "phi_constant": phi_const, "omega_constant": om_const, "constant_ulps": CONSTANT_ULPS}
    far = int(flats[-1])
    inputs = "across pairs"
    if export.u is not None:
        u = export.u.reshape(-1, export.u.shape[-1]).astype(np.float64)
        dist = np.max(np.abs(u[flats] - u[first]), axis=1)
        far = int(flats[int(np.argmax(dist))])
        scalars["u_max_distance"] = float(dist.max())
        if not dist.max() > 0:
            return Outcome(Verdict.INCONCLUSIVE, f"all {n} pairs have the same input u: input dependence cannot be measured",
                           Evidence({}, scalars, {"index": _index(first, export.pair_shape)}))
        inputs = f"though the inputs u differ (by up to {dist.max():.3g})"
    w = {"index": _index(far, export.pair_shape), "other_index": _index(first, export.pair_shape),
         "phi": float(export.phi.flat[far]), "other_phi": float(export.phi.flat[first]),
         "omega": float(export.omega.flat[far]), "other_omega": float(export.omega.flat[first])}
    ev = Evidence({"phi_quantiles": _quantiles(export.phi[valid].astype(np.float64)),
                   "omega_quantiles": _quantiles(export.omega[valid].astype(np.float64))}, scalars, w)
    if phi_const and om_const:
        return Outcome(Verdict.REFUTED, f"phi = {w['phi']:.6g} and omega = {w['omega']:.6g} are constant over all {n} pairs {inputs}: "
                       "the gates are input-independent", ev)
    note = "; phi is constant" if phi_const else ("; omega is constant" if om_const else "")
    return Outcome(Verdict.HOLDS, f"the gates vary {inputs}: relative spread phi {phi_rel:.3g}, omega {om_rel:.3g} over {n} pairs{note}", ev)


def _softmax_rows(a: np.ndarray, valid: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        x = np.where(valid, a, -np.inf)
        top = np.max(x, axis=-1, keepdims=True)
        e = np.where(valid, np.exp(x - np.where(np.isfinite(top), top, 0.0)), 0.0)
        return e / np.sum(e, axis=-1, keepdims=True)


def _sharpness(export: GateExport, threshold: float) -> Outcome:
    ok, excluded = _assumed(export)
    counts = export.valid_mask.sum(axis=-1)
    rows = counts >= 2
    if not ok.any():
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    phi, omega, A = _gates(export)
    hi_flat, lo_flat = _worst(A, ok), _worst(-A, ok)
    delta = max(0.0, float(A.flat[hi_flat])) - min(0.0, float(A.flat[lo_flat]))
    k = int(counts[rows].min())
    ceiling = 1.0 / (1.0 + (k - 1) * np.exp(-delta))
    needed = float(np.log(threshold / (1 - threshold) * (k - 1)))
    box = [phi[ok].min() / omega[ok].min(), phi[ok].min() / omega[ok].max(), phi[ok].max() / omega[ok].min(), phi[ok].max() / omega[ok].max()]
    delta_box = max(0.0, max(box)) - min(0.0, min(box))
    scalars = {"pairs": int(ok.sum()), "excluded_nonpositive_omega": excluded, "keys": k, "logit_spread": delta,
               "logit_spread_needed": needed, "ceiling": float(ceiling), "threshold": threshold, "logit_spread_box": float(delta_box),
               "ceiling_box": float(1.0 / (1.0 + (k - 1) * np.exp(-delta_box)))}
    if export.attention is not None:
        weights, source = export.attention.astype(np.float64), "exported attention"
    else:
        a, source = _logits(export)
        weights = None if a is None else _softmax_rows(a, export.valid_mask)
        source = f"softmax of {source} logits"
    if weights is not None:
        observed = float(np.max(np.where(export.valid_mask & rows[..., None], weights, -np.inf)))
        scalars["observed_max_weight"], scalars["observed_from"] = observed, source
    w = {"index": _index(hi_flat, export.pair_shape), "A_max": float(A.flat[hi_flat]),
         "index_min_A": _index(lo_flat, export.pair_shape), "A_min": float(A.flat[lo_flat]), "keys": k}
    ev = Evidence({"A_quantiles": _quantiles(A[ok])}, scalars, w)
    seen = f"; largest observed weight {scalars['observed_max_weight']:.4g}" if "observed_max_weight" in scalars else ""
    spread = f"the gates' equilibria A = phi/omega span {delta:.4g} (logit spread; {needed:.4g} needed for weight {threshold:g} over {k} keys)"
    if abs(ceiling - threshold) <= 1e-12:
        return Outcome(Verdict.INCONCLUSIVE, f"{spread}: the ceiling equals the threshold to rounding{seen}", ev)
    if ceiling > threshold:
        return Outcome(Verdict.HOLDS, f"{spread}: one key can take up to {ceiling:.4g}{seen}{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.REFUTED, f"{spread}: no row can put more than {ceiling:.4g} on one key, attention cannot become sharp{seen}"
                   f"{_excluded_note(excluded)}", ev)


def _attention_rows(export: GateExport) -> Outcome:
    valid = export.valid_mask
    att = export.attention.astype(np.float64)
    a, source = _logits(export)
    eps = export.eps("attention", "logits") if export.logits is not None else export.eps("attention", "phi", "omega")
    K = export.K
    row_valid = valid.any(axis=-1)
    sums = np.sum(np.where(valid, att, 0.0), axis=-1)
    sum_tol = (ULPS + K) * eps
    sum_err = np.where(row_valid, np.abs(sums - 1.0), -np.inf)
    stray = np.where(valid, 0.0, np.abs(att))  # weight on invalid pairs must be zero
    scalars = {"rows": int(row_valid.sum()), "keys": K, "dtype_eps": eps, "row_sum_tolerance": sum_tol, "logits": source,
               "max_row_sum_error": float(np.max(sum_err)), "rows_off": int((sum_err > sum_tol).sum()),
               "max_weight_on_invalid_pairs": float(np.max(stray)), "min_weight": float(np.min(np.where(valid, att, np.inf)))}
    problems = []
    row_flat = int(np.argmax(sum_err))
    row_index = _index(row_flat, export.pair_shape[:-1])
    w = {"row": row_index, "row_sum": float(sums.flat[row_flat])}
    if (sum_err > sum_tol).any():
        problems.append(f"{int((sum_err > sum_tol).sum())} of {int(row_valid.sum())} rows do not sum to 1 (worst {w['row_sum']:.6g} at row {row_index})")
    weight_tol = ULPS * eps
    if np.max(stray) > weight_tol:
        problems.append(f"weight {np.max(stray):.3g} on invalid pairs")
    if a is not None:
        with np.errstate(invalid="ignore", over="ignore"):
            expected = _softmax_rows(a, valid)
            mag = np.max(np.where(valid, np.abs(a), 0.0), axis=-1, keepdims=True)
            tol = weight_tol * (1.0 + mag)
            diff = np.where(valid & np.isfinite(expected), np.abs(att - expected), -np.inf)
        with np.errstate(invalid="ignore"):
            ratio = diff / tol
        ratio = np.where(np.isfinite(ratio), ratio, -np.inf)
        flat = int(np.argmax(ratio))
        off = ratio > 1
        scalars.update(max_softmax_diff=float(diff.flat[flat]), max_softmax_diff_over_tolerance=float(ratio.flat[flat]),
                       weights_off=int(off.sum()))
        w.update(index=_index(flat, export.pair_shape), weight=float(att.flat[flat]), softmax=float(expected.flat[flat]),
                 logit=float(a.flat[flat]))
        if off.any():
            problems.append(f"{int(off.sum())} weights differ from softmax of the {source} logits (worst {w['weight']:.6g} vs "
                            f"{w['softmax']:.6g} at {w['index']})")
    elif scalars["min_weight"] < -weight_tol:
        problems.append(f"negative weight {scalars['min_weight']:.3g}")
    ev = Evidence({"row_sum_error_quantiles": _quantiles(sum_err[row_valid])}, scalars, w)
    if problems:
        return Outcome(Verdict.REFUTED, "; ".join(problems), ev)
    what = f"and equal softmax of the {source} logits" if a is not None else "(no logits to compare with: sums only)"
    return Outcome(Verdict.HOLDS, f"all {int(row_valid.sum())} rows sum to 1 within {scalars['max_row_sum_error']:.2g} {what}", ev)


# ---------------------------------------------------------------------------- claims
CLAIM_SPECS: dict[str, tuple[str, str, str]] = {
    "audit.omega_positive": (
        f"{SEED001}, eq. 1 and 16 (omega_tau = softplus(.) + eps, eps > 0); Theorem 1 (f_omega > 0)",
        "omega > 0 at every exported pair",
        "any export",
    ),
    "audit.thm1_interval": (
        f"{SEED001}, Theorem 1, eq. 4-5 (one connection per logit: A = phi/omega)",
        "every logit lies in [min(0, A), max(0, A)], A = phi/omega, up to the export dtype's rounding",
        "omega > 0; a0 = 0; logits exported or recomputable from the mode",
    ),
    "audit.logits_consistent": (
        f"{SEED001}, eq. 2, 3, 17, 18; {REFERENCE} (modes exact / euler / steady)",
        "the exported logits equal the logits recomputed from phi, omega, t_pseudo and the mode, within a few hundred ulps of the export dtype",
        "logits and mode exported (exact: t_pseudo too); omega > 0",
    ),
    "audit.euler_margin": (
        f"{SEED001}, eq. 2 and appendix B.2, eq. 36 (corrected: nac.thm1.euler.condition)",
        "delta_t * omega <= 1 + min(rho, 1/rho) at every pair, which is 1 for one connection: the Euler steps keep Theorem 1's interval",
        "mode euler with delta_t and euler_steps; omega > 0",
    ),
    "audit.gate_variation": (
        f"{SEED001}, eq. 14-16 (phi(u), omega_tau(u) are functions of the pair u = [q; k])",
        "phi and omega are not both constant over the exported pairs (the gates depend on their input)",
        "at least two valid pairs; if u is exported, at least two different inputs",
    ),
    "audit.sharpness": (
        f"{SEED001}, eq. 17-18 and the softmax after eq. 17; cf. nac.gates.shared.max_softmax_weight",
        "the logit spread of the gates' equilibria lets some attention row exceed the sharpness threshold on one key",
        "omega > 0; rows with at least two valid keys",
    ),
    "audit.attention_rows": (
        f"{SEED001}, softmax after eq. 17 ('alpha_t = softmax(a_t), a valid probability distribution')",
        "attention rows sum to 1 over the valid keys, are 0 on invalid pairs, and equal softmax of the logits",
        "attention exported (logits exported or recomputable for the softmax comparison)",
    ),
}


def audit_claims(export: GateExport, *, sharp_threshold: float = DEFAULT_SHARP_THRESHOLD) -> list[Claim]:
    """The seven audit claims bound to one export, with their default expected verdicts."""
    if not 0.0 < sharp_threshold < 1.0:
        from ..errors import BadInput

        raise BadInput(f"sharpness threshold must lie in (0, 1), got {sharp_threshold}")
    reasons = applicability(export)
    checks: dict[str, Callable[[GateExport], Outcome]] = {
        "audit.omega_positive": _omega_positive,
        "audit.thm1_interval": _thm1_interval,
        "audit.logits_consistent": _logits_consistent,
        "audit.euler_margin": _euler_margin,
        "audit.gate_variation": _gate_variation,
        "audit.sharpness": lambda e: _sharpness(e, sharp_threshold),
        "audit.attention_rows": _attention_rows,
    }
    claims = []
    for cid in CLAIM_IDS:
        source, statement, assumptions = CLAIM_SPECS[cid]
        if cid == "audit.sharpness":
            statement += f" ({sharp_threshold:g})"
        reason = reasons[cid]

        def check(ctx: CheckContext, fn=checks[cid], reason=reason) -> Outcome:
            return Outcome(Verdict.INAPPLICABLE, reason) if reason else fn(export)

        expected = Verdict.INAPPLICABLE if reason else Verdict.HOLDS
        why = f"the export lacks what the claim needs: {reason}" if reason else "a healthy export satisfies it"
        # an audit checks one implementation's export against the documents: kind implementation
        claims.append(Claim(cid, source, statement, assumptions, expected, why, check, group="audit", kind=Kind.IMPLEMENTATION))
    return claims
