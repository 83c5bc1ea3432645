r"""The audit claims: what the theory of seed 001 asks of any NAC implementation's gates.

Each claim runs on one export (arrays per pair = one query and one of its K selected
keys). Claims other than ``audit.omega_positive`` and ``audit.attention_rows`` are checked
on the valid pairs where Theorem 1's assumption $\omega > 0$ holds; pairs with
$\omega \le 0$ are counted as excluded (``audit.omega_positive`` refutes them).

Expected verdicts without ``--expect``: every claim is expected to hold for a healthy
export, except that a claim whose inputs the export does not carry (an optional array, the
mode, Euler mode itself) is expected to be ``inapplicable``. Which claims are applicable is
decided from the file before any check runs (`applicability`), so a missing optional array
never fails the gate, while a defect always does.

The per-pair arithmetic and its exact chunk-order summaries are in nacverify.audit.gates.blocks;
the passes over an export (in memory, or an HDF5 file chunk by chunk, serially or as tasks
on an executor) in nacverify.audit.gates.stream. Here: each claim's verdict, message and evidence
from the merged summaries. Witnesses name the worst pair by its index into the exported
arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ...claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict
from ...errors import BadInput
from .format import ExportLayout, GateExport
from .logits import ULPS, mode_logits_available
from .reduce import Failed

__all__ = ["applicability", "claims_from_summaries", "CLAIM_IDS", "CLAIM_SPECS", "DEFAULT_SHARP_THRESHOLD",
           "CONSTANT_ULPS"]

SEED001 = "001_9075dda04a2ad935.txt"
REFERENCE = "../shared/reference/REFERENCE_IMPLEMENTATION.md"
DEFAULT_SHARP_THRESHOLD = 0.5
CONSTANT_ULPS = 16  # a gate whose spread over all pairs is within this many ulps of its size is constant

CLAIM_IDS = (
    "audit.omega_positive",
    "audit.thm1_interval",
    "audit.logits_consistent",
    "audit.euler_margin",
    "audit.gate_variation",
    "audit.sharpness",
    "audit.attention_rows",
)

Export = GateExport | ExportLayout


# ---------------------------------------------------------------------------- helpers
def _index(flat: int, shape: tuple[int, ...]) -> str:
    return str([int(i) for i in np.unravel_index(int(flat), shape)])


def _logits_source(export: Export) -> str:
    if export.logits is not None:
        return "exported"
    return f"recomputed ({export.mode})" if mode_logits_available(export) is None else "none"


def _excluded_note(excluded: int) -> str:
    return f"; {excluded} pair(s) with omega <= 0 excluded" if excluded else ""


def applicability(export: Export, *, rows_with_two_keys: bool | None = None) -> dict[str, str | None]:
    """For each claim id: None when the export carries what the claim needs, else the reason
    the claim is inapplicable to it. `rows_with_two_keys` (whether some row has two valid
    keys) is read from an in-memory export's `valid`; a layout needs it given (pass 1 counts it)."""
    available = mode_logits_available(export)
    logits_source = None if (export.logits is not None or available is None) else ("no logits exported and " + (available or ""))
    consistent = None
    if export.logits is None:
        consistent = "no logits exported: nothing to compare the recomputation with"
    elif available is not None:
        consistent = available
    if rows_with_two_keys is None:
        if not isinstance(export, GateExport):
            raise ValueError("applicability of a layout needs rows_with_two_keys")
        rows_with_two_keys = bool((export.valid_mask.reshape(-1, export.K).sum(axis=1) >= 2).any())
    return {
        "audit.omega_positive": None,
        "audit.thm1_interval": logits_source,
        "audit.logits_consistent": consistent,
        "audit.euler_margin": None if export.mode == "euler" else f"mode is {export.mode or 'not given'}, not euler: no Euler steps to bound",
        "audit.gate_variation": None,
        "audit.sharpness": None if rows_with_two_keys else "every query has a single valid key: its softmax weight is 1 whatever the logits",
        "audit.attention_rows": None if export.attention is not None else "no attention exported",
    }


# ---------------------------------------------------------------------------- verdicts from summaries
Q = Mapping[str, np.ndarray]


def _omega_positive(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    low = s["lowest"]
    w = {"index": _index(low.index, L.pair_shape), "omega": low.at["omega"], "phi": low.at["phi"]}
    scalars = {"pairs": s["valid"], "min_omega": low.at["omega"], "nonpositive_pairs": s["bad"]}
    ev = Evidence({"omega_quantiles": q["omega_quantiles"]}, scalars, w)
    if s["bad"]:
        return Outcome(Verdict.REFUTED, f"{s['bad']} of {s['valid']} pairs have omega <= 0 (min {w['omega']:.6g} at {w['index']}): "
                       "the logit ODE is not a decay there", ev)
    return Outcome(Verdict.HOLDS, f"omega > 0 on all {s['valid']} pairs (min {w['omega']:.6g} at {w['index']})", ev)


def _thm1_interval(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    ok, excluded = s["ok"], s["valid"] - s["ok"]
    if not ok:
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0: Theorem 1 assumes omega > 0")
    worst, source = s["worst"], _logits_source(L)
    w = {"index": _index(worst.index, L.pair_shape), **{k: worst.at[k] for k in ("phi", "omega", "A", "logit", "m", "M", "excess")}}
    if L.t_pseudo is not None:
        w["t_pseudo"] = worst.at["t_pseudo"]
    scalars = {"pairs": ok, "excluded_nonpositive_omega": excluded, "pairs_outside": s["outside"],
               "max_excess": worst.at["excess"], "max_excess_over_tolerance": worst.value, "logits": source}
    ev = Evidence({"excess_over_A_quantiles": q["excess_over_A_quantiles"]}, scalars, w)
    if s["outside"]:
        return Outcome(Verdict.REFUTED, f"{s['outside']} of {ok} {source} logits leave [min(0, A), max(0, A)]; worst {w['logit']:.6g} "
                       f"vs [{w['m']:.6g}, {w['M']:.6g}] at {w['index']}{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"all {ok} {source} logits inside [min(0, A), max(0, A)] up to rounding "
                   f"(worst excess {max(worst.value, 0.0):.2g} of the tolerance){_excluded_note(excluded)}", ev)


def _logits_consistent(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    ok, excluded = s["ok"], s["valid"] - s["ok"]
    if not ok:
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    worst = s["worst"]
    w = {"index": _index(worst.index, L.pair_shape),
         **{k: worst.at[k] for k in ("phi", "omega", "logit_exported", "logit_recomputed", "tolerance")}}
    if L.t_pseudo is not None:
        w["t_pseudo"] = worst.at["t_pseudo"]
    scalars = {"pairs": ok, "excluded_nonpositive_omega": excluded, "mode": L.mode, "pairs_off": s["off"],
               "max_abs_diff": worst.at["diff"], "max_diff_over_tolerance": worst.value,
               "dtype_eps": L.eps("phi", "omega", "t_pseudo", "logits"), "max_diff_ulps_of_scale": s["ulps"].value}
    ev = Evidence({"diff_over_tolerance_quantiles": q["diff_over_tolerance_quantiles"]}, scalars, w)
    if s["off"]:
        return Outcome(Verdict.REFUTED, f"{s['off']} of {ok} logits differ from the {L.mode} recomputation; worst "
                       f"{w['logit_exported']:.6g} vs {w['logit_recomputed']:.6g} at {w['index']} (tolerance {w['tolerance']:.2g})"
                       f"{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"all {ok} logits match the {L.mode} recomputation within "
                   f"{scalars['max_diff_ulps_of_scale']:.3g} ulps of the logit scale (tolerance {ULPS}+ ulps){_excluded_note(excluded)}", ev)


def _euler_margin(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    ok, excluded = s["ok"], s["valid"] - s["ok"]
    if not ok:
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    worst, dt = s["worst"], L.delta_t
    safe_dt = s["safe_dt"].value
    w = {"index": _index(worst.index, L.pair_shape), "phi": worst.at["phi"], "omega": worst.at["omega"], "delta_t": dt,
         "dt_omega": worst.at["dt_omega"], "threshold": worst.at["threshold"]}
    scalars = {"pairs": ok, "excluded_nonpositive_omega": excluded, "delta_t": dt, "euler_steps": L.euler_steps,
               "max_dt_omega": s["max_h"].value, "min_margin": s["min_margin"].value, "pairs_leaving": s["leaving"],
               "pairs_diverging": s["diverging"], "largest_safe_delta_t": safe_dt}
    ev = Evidence({"dt_omega_quantiles": q["dt_omega_quantiles"]}, scalars, w)
    if s["leaving"]:
        grow = f" ({s['diverging']} beyond 2: the iteration grows)" if s["diverging"] else ""
        return Outcome(Verdict.REFUTED, f"delta_t*omega exceeds the invariance threshold (1 for one connection) at {s['leaving']} of "
                       f"{ok} pairs{grow}; worst {w['dt_omega']:.6g} at {w['index']}; delta_t <= {safe_dt:.6g} would keep "
                       f"every logit in Theorem 1's interval{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.HOLDS, f"delta_t*omega <= {scalars['max_dt_omega']:.6g} <= 1 on all {ok} pairs "
                   f"(margin {scalars['min_margin']:.3g}; delta_t up to {safe_dt:.6g} would still be safe){_excluded_note(excluded)}", ev)


def _spread(s: dict[str, Any], name: str, dtype: np.dtype) -> tuple[float, float, bool]:
    spread = s[f"{name}_max"].value - s[f"{name}_min"].value
    size = max(abs(s[f"{name}_max"].value), abs(s[f"{name}_min"].value))  # = max |gate|
    constant = spread <= CONSTANT_ULPS * float(np.finfo(dtype).eps) * size
    return spread, (spread / size if size > 0 else 0.0), constant


def _gate_variation(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    n = s["valid"]
    if n < 2:
        return Outcome(Verdict.INCONCLUSIVE, "a single valid pair: variation across pairs cannot be measured")
    phi_spread, phi_rel, phi_const = _spread(s, "phi", L.phi.dtype)
    om_spread, om_rel, om_const = _spread(s, "omega", L.omega.dtype)
    first, far = s["first"], s["far"]
    scalars = {"pairs": n, "phi_spread": phi_spread, "omega_spread": om_spread, "phi_relative_spread": phi_rel,
               "omega_relative_spread": om_rel, "phi_constant": phi_const, "omega_constant": om_const, "constant_ulps": CONSTANT_ULPS}
    inputs = "across pairs"
    if L.u is not None:
        scalars["u_max_distance"] = far.value
        if not far.value > 0:
            return Outcome(Verdict.INCONCLUSIVE, f"all {n} pairs have the same input u: input dependence cannot be measured",
                           Evidence({}, scalars, {"index": _index(first.index, L.pair_shape)}))
        inputs = f"though the inputs u differ (by up to {far.value:.3g})"
    w = {"index": _index(far.index, L.pair_shape), "other_index": _index(first.index, L.pair_shape),
         "phi": far.at["phi"], "other_phi": first.at["phi"], "omega": far.at["omega"], "other_omega": first.at["omega"]}
    ev = Evidence({"phi_quantiles": q["phi_quantiles"], "omega_quantiles": q["omega_quantiles"]}, scalars, w)
    if phi_const and om_const:
        return Outcome(Verdict.REFUTED, f"phi = {w['phi']:.6g} and omega = {w['omega']:.6g} are constant over all {n} pairs {inputs}: "
                       "the gates are input-independent", ev)
    note = "; phi is constant" if phi_const else ("; omega is constant" if om_const else "")
    return Outcome(Verdict.HOLDS, f"the gates vary {inputs}: relative spread phi {phi_rel:.3g}, omega {om_rel:.3g} over {n} pairs{note}", ev)


def _sharpness(L: Export, s: dict[str, Any], q: Q, threshold: float) -> Outcome:
    ok, excluded = s["ok"], s["valid"] - s["ok"]
    if not ok:
        return Outcome(Verdict.INAPPLICABLE, "no valid pair with omega > 0")
    hi, lo = s["hi"], s["lo"]
    delta = max(0.0, hi.at["A"]) - min(0.0, lo.at["A"])
    k = int(s["keys"].value)
    ceiling = 1.0 / (1.0 + (k - 1) * np.exp(-delta))
    needed = float(np.log(threshold / (1 - threshold) * (k - 1)))
    pmin, pmax, omin, omax = (s[n].value for n in ("phi_min", "phi_max", "omega_min", "omega_max"))
    box = [pmin / omin, pmin / omax, pmax / omin, pmax / omax]
    delta_box = max(0.0, max(box)) - min(0.0, min(box))
    scalars = {"pairs": ok, "excluded_nonpositive_omega": excluded, "keys": k, "logit_spread": delta,
               "logit_spread_needed": needed, "ceiling": float(ceiling), "threshold": threshold, "logit_spread_box": float(delta_box),
               "ceiling_box": float(1.0 / (1.0 + (k - 1) * np.exp(-delta_box)))}
    if "observed" in s:
        source = "exported attention" if L.attention is not None else f"softmax of {_logits_source(L)} logits"
        scalars["observed_max_weight"], scalars["observed_from"] = s["observed"].value, source
    w = {"index": _index(hi.index, L.pair_shape), "A_max": hi.at["A"], "index_min_A": _index(lo.index, L.pair_shape), "A_min": lo.at["A"],
         "keys": k}
    ev = Evidence({"A_quantiles": q["A_quantiles"]}, scalars, w)
    seen = f"; largest observed weight {scalars['observed_max_weight']:.4g}" if "observed_max_weight" in scalars else ""
    spread = f"the gates' equilibria A = phi/omega span {delta:.4g} (logit spread; {needed:.4g} needed for weight {threshold:g} over {k} keys)"
    if abs(ceiling - threshold) <= 1e-12:
        return Outcome(Verdict.INCONCLUSIVE, f"{spread}: the ceiling equals the threshold to rounding{seen}", ev)
    if ceiling > threshold:
        return Outcome(Verdict.HOLDS, f"{spread}: one key can take up to {ceiling:.4g}{seen}{_excluded_note(excluded)}", ev)
    return Outcome(Verdict.REFUTED, f"{spread}: no row can put more than {ceiling:.4g} on one key, attention cannot become sharp{seen}"
                   f"{_excluded_note(excluded)}", ev)


def _attention_rows(L: Export, s: dict[str, Any], q: Q) -> Outcome:
    eps = L.eps("attention", "logits") if L.logits is not None else L.eps("attention", "phi", "omega")
    K = L.K
    sum_tol = (ULPS + K) * eps
    row = s["row"]
    scalars = {"rows": s["rows"], "keys": K, "dtype_eps": eps, "row_sum_tolerance": sum_tol, "logits": _logits_source(L),
               "max_row_sum_error": row.value, "rows_off": s["rows_off"], "max_weight_on_invalid_pairs": s["stray"].value,
               "min_weight": s["min_weight"].value}
    problems = []
    row_index = _index(row.index, L.pair_shape[:-1])
    w = {"row": row_index, "row_sum": row.at["row_sum"]}
    if s["rows_off"]:
        problems.append(f"{s['rows_off']} of {s['rows']} rows do not sum to 1 (worst {w['row_sum']:.6g} at row {row_index})")
    weight_tol = ULPS * eps
    if s["stray"].value > weight_tol:
        problems.append(f"weight {s['stray'].value:.3g} on invalid pairs")
    if "softmax" in s:
        soft = s["softmax"]
        scalars.update(max_softmax_diff=soft.at["diff"], max_softmax_diff_over_tolerance=soft.value, weights_off=s["weights_off"])
        w.update(index=_index(soft.index, L.pair_shape), weight=soft.at["weight"], softmax=soft.at["softmax"], logit=soft.at["logit"])
        if s["weights_off"]:
            problems.append(f"{s['weights_off']} weights differ from softmax of the {_logits_source(L)} logits (worst {w['weight']:.6g} vs "
                            f"{w['softmax']:.6g} at {w['index']})")
    elif scalars["min_weight"] < -weight_tol:
        problems.append(f"negative weight {scalars['min_weight']:.3g}")
    ev = Evidence({"row_sum_error_quantiles": q["row_sum_error_quantiles"]}, scalars, w)
    if problems:
        return Outcome(Verdict.REFUTED, "; ".join(problems), ev)
    what = f"and equal softmax of the {_logits_source(L)} logits" if "softmax" in s else "(no logits to compare with: sums only)"
    return Outcome(Verdict.HOLDS, f"all {s['rows']} rows sum to 1 within {scalars['max_row_sum_error']:.2g} {what}", ev)


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


FINISH: dict[str, Callable[..., Outcome]] = {
    "audit.omega_positive": _omega_positive,
    "audit.thm1_interval": _thm1_interval,
    "audit.logits_consistent": _logits_consistent,
    "audit.euler_margin": _euler_margin,
    "audit.gate_variation": _gate_variation,
    "audit.sharpness": _sharpness,
    "audit.attention_rows": _attention_rows,
}


def _check_threshold(sharp_threshold: float) -> None:
    if not 0.0 < sharp_threshold < 1.0:
        raise BadInput(f"sharpness threshold must lie in (0, 1), got {sharp_threshold}")


def _claims(export: Export, reasons: Mapping[str, str | None], outcome: Callable[[str], Outcome], sharp_threshold: float) -> list[Claim]:
    claims = []
    for cid in CLAIM_IDS:
        source, statement, assumptions = CLAIM_SPECS[cid]
        if cid == "audit.sharpness":
            statement += f" ({sharp_threshold:g})"
        reason = reasons[cid]

        def check(ctx: CheckContext, cid=cid, reason=reason) -> Outcome:
            return Outcome(Verdict.INAPPLICABLE, reason) if reason else outcome(cid)

        expected = Verdict.INAPPLICABLE if reason else Verdict.HOLDS
        why = f"the export lacks what the claim needs: {reason}" if reason else "a healthy export satisfies it"
        # an audit checks one implementation's export against the documents: kind implementation
        claims.append(Claim(cid, source, statement, assumptions, expected, why, check, group="audit", kind=Kind.IMPLEMENTATION))
    return claims


def _outcome(export: Export, summaries: Mapping[str, Any], quantiles: Mapping[str, np.ndarray], cid: str, sharp_threshold: float) -> Outcome:
    from .blocks import EVIDENCE_QUANTITIES

    s = summaries[cid]
    if isinstance(s, Failed):
        raise RuntimeError(s.message)
    q = {name: quantiles[quantity] for name, quantity in EVIDENCE_QUANTITIES[cid].items()}
    if cid == "audit.sharpness":
        return _sharpness(export, s, q, sharp_threshold)
    return FINISH[cid](export, s, q)


def claims_from_summaries(layout: ExportLayout, summaries: Mapping[str, Any], quantiles: Mapping[str, np.ndarray], *,
                          sharp_threshold: float = DEFAULT_SHARP_THRESHOLD) -> list[Claim]:
    """The seven audit claims of an export whose passes are done (nacverify.audit.gates.stream):
    `summaries` maps claim id -> merged summary, `quantiles` quantity -> its quantiles."""
    _check_threshold(sharp_threshold)
    sharp = summaries.get("audit.sharpness")
    rows2 = isinstance(sharp, Failed) or bool(sharp and sharp["rows"])
    reasons = applicability(layout, rows_with_two_keys=rows2)
    return _claims(layout, reasons, lambda cid: _outcome(layout, summaries, quantiles, cid, sharp_threshold), sharp_threshold)
