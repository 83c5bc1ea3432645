r"""Bounds of 0 met by an error that is provably 0: constant coefficients.

When $\phi$ and $\omega$ are constant in $t$ (`RegimeSpec.constant_coefficients`: a named
family with both variations exactly 0, or custom formulas that SymPy proves free of $t$),
the frozen solution $a_f(t) = a^* + (a_0 - a^*) e^{-\omega_0 t}$ *is* the solution of
$a' = -\omega a + \phi$, so $\varepsilon \equiv 0$. Every bound on $|\varepsilon|$
($L_\phi = L_\omega = V_\phi = V_\omega = 0$, so each bound is 0 as well) and the variation
bound on the relative error then hold with the exact margin 0, and the measured
$|\varepsilon|$ is solver noise. The numerical rule of `_verdicts` ("holds only when the
slack exceeds the solver's error") cannot see this and says `inconclusive`; `exact_outcome`
replaces that verdict by the proved one, and only while the measurement agrees (not
refuted: $|\varepsilon|$ within the solver's margin of the bound). A measurement that
contradicts the proof is `inconclusive` (the solve is off), never `refuted`.
"""

from __future__ import annotations

from ..claims import Evidence, Outcome, Verdict

__all__ = ["exact_outcome", "EXACT_REASON"]

EXACT_REASON = "phi and omega are provably constant in t: the frozen solution is exact, eps = 0 identically"


def exact_outcome(out: Outcome, what: str, measured: float) -> Outcome:
    """`out` (a bound's numerical verdict) when eps = 0 is proved: `holds` with the exact margin
    0, saying so in the message and in the evidence (`constant_coefficients`, `exact_error`,
    `exact_margin`; the measured numbers are kept). `measured` is the largest measured |eps|
    (or relative error) shown as solver noise. `inapplicable` stays as it is."""
    if out.verdict == Verdict.INAPPLICABLE:
        return out
    scalars = dict(out.evidence.scalars)
    scalars.update(constant_coefficients=True, exact_error=0.0, exact_margin=0.0, measured_max_error=float(measured))
    for key in ("min_slack", "min_slack_pct"):
        if key in scalars:
            scalars[f"measured_{key}"] = scalars[key]
            scalars[key] = 0.0
    for key in ("max_tightness", "max_ratio"):
        if key in scalars:  # 0 / 0 for an exact error over a bound of 0
            scalars[f"measured_{key}"] = scalars[key]
            scalars[key] = 0.0
    evidence = Evidence(out.evidence.arrays, scalars, out.evidence.witness)
    if out.verdict == Verdict.REFUTED:
        return Outcome(Verdict.INCONCLUSIVE, f"{EXACT_REASON}; yet the measured error {measured:.3g} exceeds the solver's margin "
                       "of the bound: the solve is off", evidence)
    return Outcome(Verdict.HOLDS, f"{EXACT_REASON}; {what} holds with the exact margin 0 (measured {measured:.2g}: solver noise)", evidence)
