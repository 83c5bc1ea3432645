"""Claims of the frozen-coefficient study, built for one regime instance or sweep.

Ids: ``nac.thm3.bound.<regime>``, ``nac.thm3.sharp.<regime>``, ``nac.thm3.bv.<regime>``,
``nac.table2.<regime>``, ``nac.table2.bound.<regime>``, ``nac.table2.average``, and for
sweeps the same bound ids with the suffix ``.sweep``. Each Table 2 row also has
``nac.table2.<row>.mean_le_max`` (as printed, reading-independent) and one claim per other
reading of its variation columns, ``nac.table2.<row>.reading.{range,rate,signed}``
(`_readings`).
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
from ._readings import (
    RANGE_READING,
    RATE_READING,
    RATE_T,
    SIGNED_A0,
    SIGNED_READING,
    mean_le_max_outcome,
    range_reading_outcome,
    rate_reading_outcome,
    signed_reading_outcome,
)
from ._table2 import table2_average_outcome, table2_row_outcome
from ._verdicts import bound_outcome, variation_bound_outcome
from ._exact import EXACT_REASON, exact_outcome

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
_ROW_QUOTE = {
    "slow": "Slow 1.87 3.05 0.50 0.26",
    "fast": "Fast 6.41 6.50 2.63 1.58",
    "step": "Step 6.53 7.20 3.51 2.11",
    "oscillatory": "Oscillatory 7.81 6.90 8.28 2.10",
}
_COLUMNS_QUOTE = "Variation mean (%) max (%) phi (%) omega_tau (%)"


def _row_source(name: str) -> str:
    return f"{SEED000}, appendix B.1.2, Table 2, {name} row, '{_ROW_QUOTE[name]}' (columns '{_COLUMNS_QUOTE}')"


def _table2_claim(spec: RegimeSpec, opts: SolveOptions) -> Claim:
    def check(ctx: CheckContext) -> Outcome:
        run = cached_run(spec, opts)
        out = table2_row_outcome(run)
        s = run.series()
        arrays = {"t": s["t"], "phi": s["phi"], "omega": s["omega"], "rel_error": s["rel_error"]}
        return Outcome(out.verdict, out.message, Evidence(arrays=arrays, scalars=out.evidence.scalars, witness=out.evidence.witness))

    if spec.name == "oscillatory":
        expected, reason = Verdict.HOLDS, (
            "under this reading the variation bound at 8.28% / 2.10% is 11.3%, above both printed errors (not excluded); the row's "
            "mean > max is nac.table2.oscillatory.mean_le_max (reading-independent)"
        )
    else:
        expected, reason = Verdict.REFUTED, "the row's errors exceed what its own phi/omega variations allow (variation bound) under this reading"
    return Claim(
        id=f"nac.table2.{spec.name}",
        source=_row_source(spec.name),
        statement=(
            f"{spec.name} row: the printed mean / max relative errors are within the variation bound (v_phi + v_omega)/(1 - v_phi) "
            "at the printed variations (the suite's own regime's errors are evidence only, not part of the verdict)"
        ),
        assumptions="NAC's setting: a0 = 0, phi0 in (0, 1), omega > 0, T = 1; regimes as defined in nacverify.regimes",
        expected=expected,
        expected_reason=reason,
        check=check,
        group="frozen-error",
        kind=Kind.READING,
        reading=TABLE2_READING,
    )


def _mean_le_max_claim(name: str) -> Claim:
    bad = name == "oscillatory"
    return Claim(
        id=f"nac.table2.{name}.mean_le_max",
        source=_row_source(name),
        statement=f"{name} row: the printed mean error does not exceed the printed max error",
        assumptions="cells as printed; holds for any reading of the columns (a mean never exceeds the maximum of what it averages)",
        expected=Verdict.REFUTED if bad else Verdict.HOLDS,
        expected_reason="mean 7.81% > max 6.90%" if bad else "mean below max as printed",
        check=lambda ctx: mean_le_max_outcome(name),
        group="frozen-error",
        kind=Kind.AS_PRINTED,
    )


#: Verdicts of the reading claims, decided after computing (figures in the reasons).
_READING_EXPECTED = {
    "range": {
        "slow": (Verdict.REFUTED, "same bound as max-deviation: 0.764% < 3.05%"),
        "fast": (Verdict.REFUTED, "same bound as max-deviation: 4.32% < 6.50%"),
        "step": (Verdict.REFUTED, "same bound as max-deviation: 5.82% < 7.20%"),
        "oscillatory": (Verdict.INCONCLUSIVE, "bound 11.3% >= 7.81% / 6.90%: not excluded; the row (mean > max) cannot be realised"),
    },
    "rate": {
        "slow": (Verdict.REFUTED, "v = rate * T <= 0.50% / 0.26% at T = 1: bound 0.764% < 3.05% (admitted only from T = 3.93)"),
        "fast": (Verdict.REFUTED, "bound 4.32% < 6.50% at T = 1 (admitted only from T = 1.48)"),
        "step": (Verdict.REFUTED, "bound 5.82% < 7.20% at T = 1 (admitted only from T = 1.23)"),
        "oscillatory": (Verdict.INCONCLUSIVE, "bound 11.3% >= 7.81% / 6.90% at T = 1 (admitted from T = 0.708): not excluded; the row (mean > max) cannot be realised"),
    },
}


def _reading_claims(name: str, opts: SolveOptions) -> list[Claim]:
    claims = []
    for key, reading, outcome, what in (
        ("range", RANGE_READING, range_reading_outcome, "peak-to-peak ranges"),
        ("rate", RATE_READING, rate_reading_outcome, f"rates per unit time over T = {RATE_T:g}"),
    ):
        expected, reason = _READING_EXPECTED[key][name]
        claims.append(
            Claim(
                id=f"nac.table2.{name}.reading.{key}",
                source=_row_source(name) + ("; appendix B.1.2, Interpretation, 'the variation rates in real-world irregular sequences rarely exceed 10%'" if key == "rate" else ""),
                statement=(
                    f"{name} row: with the phi/omega columns read as {what}, the printed mean / max errors are within the variation bound "
                    "(v_phi + v_omega)/(1 - v_phi) at the largest deviations that reading allows (cells' rounding in the row's favour)"
                ),
                assumptions="a0 = 0, phi > 0, omega > 0 (NAC's setting); printed cells, 2 decimals",
                expected=expected,
                expected_reason=reason,
                check=lambda ctx, outcome=outcome: outcome(name),
                group="frozen-error",
                kind=Kind.READING,
                reading=reading,
            )
        )
    claims.append(
        Claim(
            id=f"nac.table2.{name}.reading.signed",
            source=_row_source(name),
            statement=(
                f"{name} row: with a0 != 0 allowed, the printed errors are not excluded by the row's variations: a regime with those "
                f"variations and a0 = {SIGNED_A0} has a relative error above the printed max"
            ),
            assumptions=f"the suite's {name} regime (nacverify.regimes) at the printed variations, phi0 = 0.5, omega0 = 1, T = 1, a0 = {SIGNED_A0}",
            expected=Verdict.INCONCLUSIVE,
            expected_reason="a_varying crosses 0 inside the window, where the relative error is unbounded (witness above the printed max): "
            "nothing excludes or confirms the printed numbers",
            check=lambda ctx: signed_reading_outcome(name, opts),
            group="frozen-error",
            kind=Kind.READING,
            reading=SIGNED_READING,
        )
    )
    return claims


def rows_not_excluded_outcome(opts: SolveOptions = SolveOptions()) -> Outcome:
    """The charitable reading of Table 2's four regime rows together: for each row, a regime at its
    printed variations with a0 != 0 (a_varying crossing 0 inside the window) has a relative error above
    the printed max, so no bound on the error follows from the variations and the row is not excluded."""
    rows, witness = [], {}
    for name in NAMED_REGIMES:
        out = signed_reading_outcome(name, opts)
        w = out.evidence.witness
        above = w["rel_error_max_pct"] > w["printed_max_pct"] and np.isfinite(w["a_varying_zero_crossing_t"])
        rows.append((name, above, w["rel_error_max_pct"], w["printed_max_pct"]))
        witness[f"{name}_rel_error_max_pct"] = float(w["rel_error_max_pct"])
    arrays = {"regime": np.array([r[0] for r in rows]), "witness_rel_max_pct": np.array([r[2] for r in rows]),
              "printed_max_pct": np.array([r[3] for r in rows]), "not_excluded": np.array([r[1] for r in rows], int)}
    listing = "; ".join(f"{n} {w:.4g}% > printed {p}%" if ok else f"{n} {w:.4g}% <= printed {p}%" for n, ok, w, p in rows)
    if all(r[1] for r in rows):
        return Outcome(Verdict.HOLDS, f"with a0 = {SIGNED_A0} every row's regime at its printed variations reaches a relative error above the "
                       f"printed max ({listing}): with a0 and the sign of phi left free, no bound excludes any printed row", Evidence(arrays, {}, witness))
    return Outcome(Verdict.INCONCLUSIVE, f"not every row was shown not excluded ({listing})", Evidence(arrays, {}, witness))


def rows_not_excluded_claim(opts: SolveOptions = SolveOptions()) -> Claim:
    return Claim(
        id="nac.table2.rows.not_excluded",
        source=f"{SEED000}, appendix B.1.2, Table 2, rows Slow, Fast, Step, Oscillatory (columns '{_COLUMNS_QUOTE}')",
        statement=("Table 2's four regime rows (Slow, Fast, Step, Oscillatory) are not excluded by their own variations when a0 and the sign "
                   "of phi are left free: for each row, a regime at its printed variations has a relative error above the printed max"),
        assumptions=f"the suite's regimes (nacverify.regimes) at the printed variations, phi0 = 0.5, omega0 = 1, T = 1, a0 = {SIGNED_A0}; "
                    "Table 2 fixes neither a0 nor the sign of phi, nor whether its variation columns are maxima or spreads",
        expected=Verdict.HOLDS,
        expected_reason="a_varying crosses 0 inside the window, where the relative error is unbounded: every row's witness exceeds its printed max",
        check=lambda ctx: rows_not_excluded_outcome(opts),
        group="frozen-error",
        kind=Kind.READING,
        reading="the most charitable reading of Table 2: a0 and the sign of phi free (B.1.2 keeps a0 general), or the variation columns "
                "are stds / coefficients of variation of the gates; under either, no bound ties the relative error to the variations",
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
        claims.append(_mean_le_max_claim(spec.name))
        claims += _reading_claims(spec.name, opts)
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
        yield from instance_claims(RegimeSpec(name))
    yield average_claim()
    yield rows_not_excluded_claim()
    for name in NAMED_REGIMES:
        yield from sweep_claims(name)


add_provider(_default_claims)
