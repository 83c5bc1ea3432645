"""Verdicts of the bounds over every member of a run or sweep: `holds` only when the
slack exceeds the solver's own error estimate, `refuted` with the worst member as the
witness, `inconclusive` in between, `inapplicable` outside a bound's assumptions.
"""

from __future__ import annotations

import numpy as np

from ..claims import Evidence, Outcome, Verdict
from ._solve import MemberSummary
from ._specs import SolveOptions

__all__ = ["bound_outcome", "variation_bound_outcome"]


def _member_verdicts(summary: MemberSummary, bound: str) -> tuple[np.ndarray, np.ndarray]:
    refuted = summary.max_excess[bound] > 0
    holds = summary.min_slack[bound] >= 0
    return refuted, holds


def bound_outcome(bound: str, summary: MemberSummary, lipschitz: bool, params: dict[str, np.ndarray], options: SolveOptions) -> Outcome:
    """Verdict of one bound over every member of a run or sweep.

    holds: for every member and every t > 0, |eps| + margin <= bound (margin = the
    solver's own error estimate). refuted: some member has |eps| - margin > bound
    (witness kept). inconclusive otherwise. inapplicable: thm3/sharp on a
    non-Lipschitz regime."""
    n = summary.rel_max_pct.shape[0]
    if bound in ("thm3", "sharp") and not lipschitz:
        return Outcome(
            Verdict.INAPPLICABLE,
            "coefficients are not Lipschitz (a jump inside the window): Theorem 3's assumption fails",
        )
    refuted, holds = _member_verdicts(summary, bound)
    worst = int(np.argmax(summary.tightness[bound]))
    witness = {k: (float(v[worst]) if np.asarray(v).dtype.kind in "fi" else str(v[worst])) for k, v in params.items()}
    scalars = {
        "members": n,
        "max_tightness": float(summary.tightness[bound][worst]),
        "peak_t": float(summary.peak_t[bound][worst]),
        "min_slack": float(np.min(summary.min_slack[bound])),
        "max_solver_error": float(np.max(summary.max_solver_error)),
        "members_refuted": int(refuted.sum()),
        "members_inconclusive": int((~refuted & ~holds).sum()),
        "rtol": options.rtol,
        "atol": options.atol,
    }
    tight = f"|eps|/bound <= {scalars['max_tightness']:.4g} (t={scalars['peak_t']:.3g})"
    if refuted.any():
        i = int(np.argmax(summary.max_excess[bound]))
        witness = {k: (float(v[i]) if np.asarray(v).dtype.kind in "fi" else str(v[i])) for k, v in params.items()}
        witness["excess"] = float(summary.max_excess[bound][i])
        return Outcome(Verdict.REFUTED, f"|eps| exceeds the bound by {witness['excess']:.3g} beyond the solver margin; {tight}", Evidence(scalars=scalars, witness=witness))
    if holds.all():
        return Outcome(Verdict.HOLDS, f"{tight}; slack {scalars['min_slack']:.2g} beyond solver err {scalars['max_solver_error']:.1g}" + (f"; {n} draws" if n > 1 else ""), Evidence(scalars=scalars, witness=witness))
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{scalars['members_inconclusive']} member(s) within the solver margin of the bound; {tight}",
        Evidence(scalars=scalars, witness=witness),
    )


def variation_bound_outcome(summary: MemberSummary, params: dict[str, np.ndarray]) -> Outcome:
    """The derived bound r(t) <= (v_phi + v_omega)/(1 - v_phi) on every applicable member."""
    app = summary.variation_applicable
    if not app.any():
        return Outcome(Verdict.INAPPLICABLE, "needs a0 = 0 and phi > 0 (NAC's setting) and variations < 100%")
    ratio = np.where(app, summary.rel_max_pct / summary.variation_bound_pct, -np.inf)
    excess = np.where(app, summary.rel_max_pct - summary.rel_margin_pct - summary.variation_bound_pct, -np.inf)
    slack = np.where(app, summary.variation_bound_pct - summary.rel_max_pct - summary.rel_margin_pct, np.inf)
    worst = int(np.argmax(ratio))
    witness = {k: (float(v[worst]) if np.asarray(v).dtype.kind in "fi" else str(v[worst])) for k, v in params.items()}
    scalars = {
        "members": int(app.sum()),
        "max_ratio": float(ratio[worst]),
        "rel_max_pct_at_worst": float(summary.rel_max_pct[worst]),
        "bound_pct_at_worst": float(summary.variation_bound_pct[worst]),
        "min_slack_pct": float(np.min(slack)),
    }
    if (excess > 0).any():
        return Outcome(Verdict.REFUTED, f"relative error exceeds the variation bound (ratio {scalars['max_ratio']:.4g})", Evidence(scalars=scalars, witness=witness))
    if (slack >= 0).all():
        return Outcome(
            Verdict.HOLDS,
            f"rel. error / variation bound <= {scalars['max_ratio']:.4g}" + (f"; {scalars['members']} draws" if scalars["members"] > 1 else ""),
            Evidence(scalars=scalars, witness=witness),
        )
    return Outcome(Verdict.INCONCLUSIVE, "relative error within the solver margin of the variation bound", Evidence(scalars=scalars, witness=witness))
