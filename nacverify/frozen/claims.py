"""Claims of the frozen-coefficient study, built for one regime instance or sweep.

Ids: ``nac.thm3.bound.<regime>``, ``nac.thm3.sharp.<regime>``, ``nac.thm3.bv.<regime>``,
``nac.table2.<regime>``, ``nac.table2.bound.<regime>``, ``nac.table2.average``, and for
sweeps the same bound ids with the suffix ``.sweep``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..regimes import NAMED_REGIMES
from ._adversary import attack_bound
from ._bounds import BOUNDS
from ._solve import cached_run
from ._specs import RegimeSpec, SolveOptions
from ._sweep import SweepRun, cached_sweep
from ._table2 import table2_average_outcome, table2_row_outcome
from ._verdicts import bound_outcome, variation_bound_outcome

__all__ = ["instance_claims", "sweep_claims", "average_claim", "SEED000"]

SEED000 = "000_8dd0046228b94766.txt"
_STATEMENTS = {
    "thm3": ("Theorem 3, eq. 34", "|eps(t)| <= (L_phi + C L_omega) t^2 exp(L_omega t) on [0, T]"),
    "sharp": ("Theorem 3, eq. 33-36 (sharper form from the error equation)", "|eps(t)| <= (L_phi + C L_omega) t^2 / 2 on [0, T]"),
    "bv": ("Theorem 3, eq. 33-36 (bounded-variation form)", "|eps(t)| <= (V_phi + C V_omega)(1 - exp(-omega_min t)) / omega_min on [0, T]"),
}
#: Theorem 3's eq. 34 is the paper's; the sharp and bounded-variation forms are the suite's own.
_KIND = {"thm3": Kind.AS_PRINTED, "sharp": Kind.LEMMA, "bv": Kind.LEMMA}
#: The reading under which the Table 2 rows are audited (other readings: nac.table2.<row>.reading.*).
TABLE2_READING = (
    "max-deviation: 'phi (%)' and 'omega (%)' are max over the window [0, T] of |phi(t) - phi(0)|/phi(0) and "
    "|omega(t) - omega(0)|/omega(0), with a0 = 0 and phi > 0"
)
_HOLD_REASON = {
    "thm3": "true statement (it follows from the sharp form, since t^2/2 <= t^2 e^{L t}), though the printed proof has gaps (eq. 38-41 integrate to T)",
    "sharp": "variation of constants on eps' = -omega eps + (phi - phi0) - (omega - omega0) a_frozen with |a_frozen| <= C",
    "bv": "same representation, bounding the gate deviations by their maxima; needs no continuity",
}


def _series_evidence(run, bound: str) -> dict[str, np.ndarray]:
    s = run.series()
    return {k: s[k] for k in ("t", "a_varying", "a_frozen", "abs_error", "solver_error", f"bound_{bound}")}


def _bound_claim(spec: RegimeSpec, opts: SolveOptions, bound: str, lipschitz: bool) -> Claim:
    source, statement = _STATEMENTS[bound]
    applicable = lipschitz or bound == "bv"

    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = bound_outcome(bound, run.summary, run.regime.facts.lipschitz, run.regime.params, opts)
        arrays = _series_evidence(run, bound) if out.verdict != Verdict.INAPPLICABLE else {}
        return Outcome(out.verdict, out.message, Evidence(arrays=arrays, scalars=out.evidence.scalars, witness=out.evidence.witness))

    return Claim(
        id=f"{BOUNDS[bound]}.{spec.name}",
        source=f"{SEED000}, {source}",
        statement=f"{statement}, {spec.name} regime",
        assumptions="omega(t) > 0; " + ("phi, omega Lipschitz on [0, T]" if bound != "bv" else "phi, omega bounded on [0, T]"),
        expected=Verdict.HOLDS if applicable else Verdict.INAPPLICABLE,
        expected_reason=_HOLD_REASON[bound] if applicable else "the step regime is not Lipschitz",
        check=check,
        group="frozen-error",
        kind=_KIND[bound],
    )


def _variation_claim(spec: RegimeSpec, opts: SolveOptions) -> Claim:
    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = variation_bound_outcome(run.summary, run.regime.params)
        s = run.series()
        return Outcome(out.verdict, out.message, Evidence(arrays={"t": s["t"], "rel_error": s["rel_error"]}, scalars=out.evidence.scalars, witness=out.evidence.witness))

    regime = spec.build()
    f = regime.facts
    applicable = spec.a0 == 0 and bool(np.all(f.phi0 > 0)) and bool(np.all(f.V_phi < f.phi0)) and bool(np.all(f.V_omega < f.omega0))
    return Claim(
        id=f"nac.table2.bound.{spec.name}",
        source=f"{SEED000}, appendix B.1.2, Table 2 (bound derived in nacverify.frozen)",
        statement=f"relative error <= (v_phi + v_omega)/(1 - v_phi) at every t > 0, {spec.name} regime",
        assumptions="a0 = 0, phi > 0, omega > 0, variations below 100%",
        expected=Verdict.HOLDS if applicable else Verdict.INAPPLICABLE,
        expected_reason="comparison argument (nacverify.frozen docstring)" if applicable else "a0 != 0 or a gate not positive",
        check=check,
        group="frozen-error",
        kind=Kind.LEMMA,
    )


def _table2_claim(spec: RegimeSpec, opts: SolveOptions) -> Claim:
    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = table2_row_outcome(run)
        s = run.series()
        return Outcome(out.verdict, out.message, Evidence(arrays={"t": s["t"], "phi": s["phi"], "omega": s["omega"], "rel_error": s["rel_error"]}, scalars=out.evidence.scalars))

    reason = {
        "oscillatory": "the row's mean error (7.81%) exceeds its max error (6.90%)",
    }.get(spec.name, "the row's errors exceed what its own phi/omega variations allow (variation bound)")
    return Claim(
        id=f"nac.table2.{spec.name}",
        source=f"{SEED000}, appendix B.1.2, Table 2, {spec.name} row",
        statement=f"{spec.name} regime: the frozen solution's mean / max relative error is as printed in Table 2",
        assumptions="NAC's setting: a0 = 0, phi0 in (0, 1), omega > 0, T = 1; regimes as defined in nacverify.regimes",
        expected=Verdict.REFUTED,
        expected_reason=reason,
        check=check,
        group="frozen-error",
        kind=Kind.READING,
        reading=TABLE2_READING,
    )


def average_claim() -> Claim:
    return Claim(
        id="nac.table2.average",
        source=f"{SEED000}, appendix B.1.2, Table 2, Average row",
        statement="each column of the Average row is the mean of the four regime rows",
        assumptions="values as printed, 2 decimals (tolerance 0.01)",
        expected=Verdict.REFUTED,
        expected_reason="the max column averages to 5.91, the row prints 5.18",
        check=lambda ctx: table2_average_outcome(),
        group="frozen-error",
        kind=Kind.AS_PRINTED,
    )


def instance_claims(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> list[Claim]:
    """The bound claims of one regime instance, plus its Table 2 row for named regimes."""
    lipschitz = spec.name != "step"
    claims = [_bound_claim(spec, opts, b, lipschitz) for b in BOUNDS]
    claims.append(_variation_claim(spec, opts))
    if spec.name in NAMED_REGIMES:
        claims.append(_table2_claim(spec, opts))
    return claims


def sweep_claims(name: str, n: int | None = None, seed: int | None = None, T: float = 1.0, a0: float = 0.0, opts: SolveOptions = SolveOptions()) -> list[Claim]:
    """Bound claims over `n` random draws of family `name` (n and seed default to the
    context's: 10,000 draws, or 1,000 with --quick)."""

    def sweep_for(ctx: CheckContext) -> SweepRun:
        size = n if n is not None else int(ctx.options.get("sweep", 1000 if ctx.quick else 10000))
        return cached_sweep(name, size, ctx.seed if seed is None else seed, T, a0, opts, ctx.options.get("progress"))

    claims = []
    for bound in BOUNDS:
        source, statement = _STATEMENTS[bound]
        applicable = name != "step" or bound == "bv"

        def check(ctx: CheckContext, bound=bound) -> Outcome:
            sw = sweep_for(ctx)
            out = bound_outcome(bound, sw.summary, name != "step", sw.params, opts)
            if out.verdict == Verdict.INAPPLICABLE or ctx.quick:  # --quick: random draws only
                return out
            return _with_adversary(out, attack_bound(sw, bound, steps=40), opts)

        claims.append(
            Claim(
                id=f"{BOUNDS[bound]}.{name}.sweep",
                source=f"{SEED000}, {source}",
                statement=f"{statement}, every random draw of the {name} family",
                assumptions="draws from nacverify.regimes.SWEEP_RANGES; omega > 0",
                expected=Verdict.HOLDS if applicable else Verdict.INAPPLICABLE,
                expected_reason=_HOLD_REASON[bound] if applicable else "the step regime is not Lipschitz",
                check=check,
                group="frozen-error",
                kind=_KIND[bound],
            )
        )

    def check_variation(ctx: CheckContext) -> Outcome:
        sw = sweep_for(ctx)
        return variation_bound_outcome(sw.summary, sw.params)

    claims.append(
        Claim(
            id=f"nac.table2.bound.{name}.sweep",
            source=f"{SEED000}, appendix B.1.2, Table 2 (bound derived in nacverify.frozen)",
            statement=f"relative error <= (v_phi + v_omega)/(1 - v_phi), every random draw of the {name} family",
            assumptions="a0 = 0, phi > 0, omega > 0, variations below 100%",
            expected=Verdict.HOLDS if a0 == 0 else Verdict.INAPPLICABLE,
            expected_reason="comparison argument (nacverify.frozen docstring)",
            check=check_variation,
            group="frozen-error",
            kind=Kind.LEMMA,
        )
    )
    return claims


def _with_adversary(out: Outcome, adv, opts: SolveOptions) -> Outcome:
    """Combine a sweep's verdict with the verified result of the adversarial search."""
    run = adv.verified
    adv_out = bound_outcome(adv.bound, run.summary, run.regime.facts.lipschitz, run.regime.params, opts)
    scalars = {**out.evidence.scalars, "adversary_start_tightness": adv.start_tightness, "adversary_tightness": adv.verified_tightness}
    note = f"; adversary {adv.start_tightness:.4g} -> {adv.verified_tightness:.4g} (diffrax-verified)"
    if adv_out.verdict == Verdict.REFUTED:
        return Outcome(Verdict.REFUTED, adv_out.message + " (adversarial search)", Evidence(scalars=scalars, witness=adv_out.evidence.witness))
    if out.verdict == Verdict.HOLDS and adv_out.verdict != Verdict.HOLDS:
        return Outcome(Verdict.INCONCLUSIVE, f"adversary's point within the solver margin of the bound{note}", Evidence(scalars=scalars, witness=adv_out.evidence.witness))
    return Outcome(out.verdict, out.message + note, Evidence(arrays=out.evidence.arrays, scalars=scalars, witness=out.evidence.witness))


def _default_claims() -> Iterator[Claim]:
    for name in NAMED_REGIMES:
        yield from instance_claims(RegimeSpec(name))
    yield average_claim()
    for name in NAMED_REGIMES:
        yield from sweep_claims(name)


add_provider(_default_claims)
