"""Claims of the frozen-coefficient study, built for one regime instance or sweep.

Ids: ``nac.thm3.bound.<regime>``, ``nac.thm3.sharp.<regime>``, ``nac.thm3.bv.<regime>``,
``nac.table2.bound.<regime>``, and for sweeps the same bound ids with the suffix ``.sweep``;
the Table 2 claims themselves (``nac.table2.<regime>``, ``.mean_le_max``, ``.reading.*``,
``nac.table2.average``, ``nac.table2.rows.not_excluded``) are built in `table2_claims`.
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
from ._verdicts import bound_outcome, variation_bound_outcome
from ._exact import EXACT_REASON, exact_outcome
from .table2_claims import average_claim, mean_le_max_claim, reading_claims, rows_not_excluded_claim, table2_claim

__all__ = ["instance_claims", "sweep_claims", "average_claim", "SEED000"]

SEED000 = "000_8dd0046228b94766.txt"
_STATEMENTS = {
    "thm3": ("Theorem 3, eq. 34", "|eps(t)| <= (L_phi + C L_omega) t^2 exp(L_omega t) on [0, T]"),
    "sharp": ("Theorem 3, eq. 33-36 (sharper form from the error equation)", "|eps(t)| <= (L_phi + C L_omega) t^2 / 2 on [0, T]"),
    "bv": ("Theorem 3, eq. 33-36 (bounded-variation form)", "|eps(t)| <= (V_phi + C V_omega)(1 - exp(-omega_min t)) / omega_min on [0, T]"),
}
#: What Theorem 3 quantifies over (every phi, omega with the stated regularity) and the subset the claims test.
_QUANTIFIER = {
    "thm3": "Theorem 3 quantifies over every phi, omega Lipschitz on [0, T] (constants L_phi, L_omega) with omega > 0 and |a_frozen| <= C",
    "sharp": "as Theorem 3: every phi, omega Lipschitz on [0, T] with omega > 0",
    "bv": "every phi, omega bounded on [0, T] with omega >= omega_min > 0 (no continuity needed)",
}
_SUBSET = "gates phi0 (1 + A_phi g(t)), omega0 (1 + A_omega g(t)) sharing one shape g: ramp, exponential, step or sine"
#: Theorem 3's eq. 34 is the paper's; the sharp and bounded-variation forms are the suite's own.
_KIND = {"thm3": Kind.AS_PRINTED, "sharp": Kind.LEMMA, "bv": Kind.LEMMA}
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
    exact = spec.constant_coefficients

    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = bound_outcome(bound, run.summary, run.regime.facts.lipschitz, run.regime.params, opts)
        if exact:  # eps = 0 is proved: the bound (0 as well) holds with the exact margin 0 (_exact)
            out = exact_outcome(out, "the bound", float(run.summary.max_abs_error.max()))
        arrays = _series_evidence(run, bound) if out.verdict != Verdict.INAPPLICABLE else {}
        return Outcome(out.verdict, out.message, Evidence(arrays=arrays, scalars=out.evidence.scalars, witness=out.evidence.witness))

    return Claim(
        id=f"{BOUNDS[bound]}.{spec.name}",
        source=f"{SEED000}, {source}",
        statement=f"{statement}, on one member of the suite's {spec.name} regime family "
        f"({_SUBSET if spec.name in NAMED_REGIMES else 'the gate formulas given on the command line'}), not Theorem 3's quantifier over every admissible phi, omega",
        assumptions=_QUANTIFIER[bound] + f"; tested: the {spec.name} instance only (nacverify.regimes.named_regime, shape g of that family at its "
        "default parameters or the CLI's)",
        expected=Verdict.HOLDS if applicable else Verdict.INAPPLICABLE,
        expected_reason=(EXACT_REASON if exact else _HOLD_REASON[bound]) if applicable else "the step regime is not Lipschitz",
        check=check,
        group="frozen-error",
        kind=_KIND[bound],
    )


def _variation_claim(spec: RegimeSpec, opts: SolveOptions) -> Claim:
    exact = spec.constant_coefficients

    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = variation_bound_outcome(run.summary, run.regime.params)
        if exact:
            out = exact_outcome(out, "the variation bound", float(run.summary.rel_max_pct.max()) / 100)
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
        expected_reason=(EXACT_REASON if exact else "comparison argument (nacverify.frozen docstring)") if applicable else "a0 != 0 or a gate not positive",
        check=check,
        group="frozen-error",
        kind=Kind.LEMMA,
    )


#: Table 2's rows as printed (seed 000 lines 412-415), quoted in the claims' sources.
def instance_claims(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> list[Claim]:
    """The bound claims of one regime instance, plus its Table 2 row for named regimes."""
    lipschitz = spec.name != "step"
    claims = [_bound_claim(spec, opts, b, lipschitz) for b in BOUNDS]
    claims.append(_variation_claim(spec, opts))
    if spec.name in NAMED_REGIMES:
        claims.append(table2_claim(spec, opts))
        claims.append(mean_le_max_claim(spec.name))
        claims += reading_claims(spec.name, opts)
    return claims


def sweep_claims(name: str, n: int | None = None, seed: int | None = None, T: float = 1.0, a0: float = 0.0, opts: SolveOptions = SolveOptions(),
                 chunk: int = 2000, run: SweepRun | None = None) -> list[Claim]:
    """Bound claims over `n` random draws of family `name` (n and seed default to the
    context's: 10,000 draws, or 1,000 with --quick), in chunks of `chunk` draws; `run`: a
    sweep already run with exactly these settings (the claims read its reductions)."""

    def sweep_for(ctx: CheckContext) -> SweepRun:
        if run is not None:
            return run
        size = n if n is not None else int(ctx.options.get("sweep", 1000 if ctx.quick else 10000))
        return cached_sweep(name, size, ctx.seed if seed is None else seed, T, a0, opts, ctx.options.get("progress"), chunk=chunk)

    claims = []
    for bound in BOUNDS:
        source, statement = _STATEMENTS[bound]
        applicable = name != "step" or bound == "bv"

        def check(ctx: CheckContext, bound=bound) -> Outcome:
            sw = sweep_for(ctx)
            out = bound_outcome(bound, sw.stats, name != "step", {}, opts)
            if out.verdict == Verdict.INAPPLICABLE or ctx.quick:  # --quick: random draws only
                return out
            return _with_adversary(out, attack_bound(sw, bound, steps=40), opts)

        claims.append(
            Claim(
                id=f"{BOUNDS[bound]}.{name}.sweep",
                source=f"{SEED000}, {source}",
                statement=f"{statement}, at every random draw of the suite's {name} family ({_SUBSET}; full runs add an adversarial search "
                "inside the family), not Theorem 3's quantifier over every admissible phi, omega",
                assumptions=_QUANTIFIER[bound] + "; tested: uniform draws from nacverify.regimes.SWEEP_RANGES (phi0 in [0.05, 0.95], omega0 in "
                "[0.1, 5], amplitudes in [-0.2, 0.2]) of this one shape family",
                expected=Verdict.HOLDS if applicable else Verdict.INAPPLICABLE,
                expected_reason=_HOLD_REASON[bound] if applicable else "the step regime is not Lipschitz",
                check=check,
                group="frozen-error",
                kind=_KIND[bound],
            )
        )

    def check_variation(ctx: CheckContext) -> Outcome:
        sw = sweep_for(ctx)
        return variation_bound_outcome(sw.stats, {})

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


def search_claim(result, opts: SolveOptions) -> Claim:
    """The claim of a many-restart search (`_search.run_search`, CLI ``frozen-error --search``):
    the bound at the search's best points, each re-solved with diffrax. Refuted when one of
    them violates it beyond the solver's error, inconclusive when one is within it."""
    name, bound = result.name, result.bound
    source, statement = _STATEMENTS[bound]

    def check(ctx: CheckContext) -> Outcome:
        outs = [bound_outcome(bound, run.summary, run.regime.facts.lipschitz, run.regime.params, opts) for run in result.verified]
        rank = {Verdict.REFUTED: 0, Verdict.INCONCLUSIVE: 1, Verdict.INAPPLICABLE: 2, Verdict.HOLDS: 3}
        j = min(range(len(outs)), key=lambda i: (rank.get(outs[i].verdict, 1), i))
        vt = result.verified_tightness
        scalars = {"restarts": result.n, "chunk": result.chunk, "adam_steps": result.steps, "seed": result.seed,
                   "best_start_surrogate": result.best_start, "best_surrogate": float(result.values[0]),
                   "max_verified_tightness": float(vt.max()), "points_verified": len(vt)}
        msg = (f"{result.n} restarts from the sweep draws ({result.steps} Adam steps each, chunk {result.chunk}): surrogate tightness "
               f"{result.best_start:.4g} at the best starting draw -> {result.values[0]:.4g}; the {len(vt)} best points re-solved with "
               f"diffrax: tightness up to {vt.max():.4g}; {outs[j].message}")
        return Outcome(outs[j].verdict, msg, Evidence(arrays={"restart": result.restarts.astype(float), "surrogate_tightness": result.values,
                                                              "verified_tightness": vt}, scalars=scalars, witness=outs[j].evidence.witness))

    return Claim(
        id=f"{BOUNDS[bound]}.{name}.search",
        source=f"{SEED000}, {source}",
        statement=f"{statement}, at the best points of a {result.n}-restart gradient search over the {name} family's ranges (diffrax-verified; "
        f"{_SUBSET}), not Theorem 3's quantifier over every admissible phi, omega",
        assumptions=_QUANTIFIER[bound] + f"; tested: restarts from the sweep draws of nacverify.regimes.SWEEP_RANGES (seed {result.seed}), T = {result.T:g}, a0 = {result.a0:g}; "
        "search surrogate: fixed-step RK4 on 200 steps; only the diffrax re-solves decide",
        expected=Verdict.HOLDS,
        expected_reason=_HOLD_REASON[bound],
        check=check,
        group="frozen-error",
        kind=_KIND[bound],
    )


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
        # Appendix B.1.2's sentences say Table 2's rows again: the slow sentence prints the row's four numbers and tests the
        # row's claims (the row cites them); the fast/step sentence quotes only the means and cites the rows' claims (issue 43)
        yield from instance_claims(RegimeSpec(name))
    yield average_claim()
    yield rows_not_excluded_claim()
    for name in NAMED_REGIMES:
        yield from sweep_claims(name)


add_provider(_default_claims)
