"""Verdicts of the bounds over every member of a run or sweep: `holds` only when the
slack exceeds the solver's own error estimate, `refuted` with the worst member as the
witness, `inconclusive` in between, `inapplicable` outside a bound's assumptions.
"""

from __future__ import annotations

import numpy as np

from ..claims import Evidence, Outcome, Verdict
from ._solve import MemberSummary
from ._specs import SolveOptions
from ._stats import Extreme, SweepStats

__all__ = ["bound_outcome", "variation_bound_outcome"]


def _stats(summary: MemberSummary | SweepStats, params: dict[str, np.ndarray]) -> SweepStats:
    """A sweep arrives reduced already (`SweepStats`, merged chunk by chunk); a run is reduced here."""
    return summary if isinstance(summary, SweepStats) else SweepStats.of(summary, params)


def _witness(e: Extreme, sweep: bool) -> dict:
    """The draw's parameters; for a sweep also its global index (`draw`), from which
    `nacverify.regimes.sample_draws` recomputes it."""
    return {**e.params, "draw": e.index} if sweep else dict(e.params)


def bound_outcome(bound: str, summary: MemberSummary | SweepStats, lipschitz: bool, params: dict[str, np.ndarray], options: SolveOptions) -> Outcome:
    """Verdict of one bound over every member of a run (a `MemberSummary` and its
    `params`) or a sweep (its `SweepStats`; `params` unused).

    holds: for every member and every t > 0, |eps| + margin <= bound (margin = the
    solver's own error estimate). refuted: some member has |eps| - margin > bound
    (witness kept). inconclusive otherwise. inapplicable: thm3/sharp on a
    non-Lipschitz regime."""
    if bound in ("thm3", "sharp") and not lipschitz:
        return Outcome(
            Verdict.INAPPLICABLE,
            "coefficients are not Lipschitz (a jump inside the window): Theorem 3's assumption fails",
        )
    sweep = isinstance(summary, SweepStats)
    stats = _stats(summary, params)
    n, s = stats.draws, stats.bounds[bound]
    witness = _witness(s.tightness, sweep)
    scalars = {
        "members": n,
        "max_tightness": s.tightness.value,
        "peak_t": s.tightness.extra["peak_t"],
        "min_slack": s.min_slack,
        "max_solver_error": stats.max_solver_error,
        "members_refuted": s.refuted,
        "members_inconclusive": s.undecided,
        "rtol": options.rtol,
        "atol": options.atol,
    }
    tight = f"|eps|/bound <= {scalars['max_tightness']:.4g} (t={scalars['peak_t']:.3g})"
    if s.refuted:
        witness = _witness(s.excess, sweep)
        witness["excess"] = s.excess.value
        return Outcome(Verdict.REFUTED, f"|eps| exceeds the bound by {witness['excess']:.3g} beyond the solver margin; {tight}", Evidence(scalars=scalars, witness=witness))
    if not s.undecided:
        return Outcome(Verdict.HOLDS, f"{tight}; slack {scalars['min_slack']:.2g} beyond solver err {scalars['max_solver_error']:.1g}" + (f"; {n} draws" if n > 1 else ""), Evidence(scalars=scalars, witness=witness))
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{scalars['members_inconclusive']} member(s) within the solver margin of the bound; {tight}",
        Evidence(scalars=scalars, witness=witness),
    )


def variation_bound_outcome(summary: MemberSummary | SweepStats, params: dict[str, np.ndarray]) -> Outcome:
    """The derived bound r(t) <= (v_phi + v_omega)/(1 - v_phi) on every applicable member
    of a run (`MemberSummary` and its `params`) or a sweep (`SweepStats`)."""
    sweep = isinstance(summary, SweepStats)
    v = _stats(summary, params).variation
    if not v.applicable:
        return Outcome(Verdict.INAPPLICABLE, "needs a0 = 0 and phi > 0 (NAC's setting) and variations < 100%")
    witness = _witness(v.ratio, sweep)
    scalars = {
        "members": v.applicable,
        "max_ratio": v.ratio.value,
        "rel_max_pct_at_worst": v.ratio.extra["rel_max_pct"],
        "bound_pct_at_worst": v.ratio.extra["bound_pct"],
        "min_slack_pct": v.min_slack,
    }
    if v.exceeded:
        return Outcome(Verdict.REFUTED, f"relative error exceeds the variation bound (ratio {scalars['max_ratio']:.4g})", Evidence(scalars=scalars, witness=witness))
    if v.min_slack >= 0:
        return Outcome(
            Verdict.HOLDS,
            f"rel. error / variation bound <= {scalars['max_ratio']:.4g}" + (f"; {scalars['members']} draws" if scalars["members"] > 1 else ""),
            Evidence(scalars=scalars, witness=witness),
        )
    return Outcome(Verdict.INCONCLUSIVE, "relative error within the solver margin of the variation bound", Evidence(scalars=scalars, witness=witness))
