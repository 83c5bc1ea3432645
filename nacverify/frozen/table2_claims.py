"""Claims of Table 2 (document 000): each row under the max-deviation reading, its mean <= max, its
other readings (`_readings`), the Average row, and the one charitable reading of the four rows
(``nac.table2.rows.not_excluded``: a0 and the sign of phi left free, no row is excluded).

Ids: ``nac.table2.<regime>``, ``nac.table2.<row>.mean_le_max``, ``nac.table2.<row>.reading.{range,rate,signed}``,
``nac.table2.average``, ``nac.table2.rows.not_excluded``.
"""

from __future__ import annotations

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict
from ..regimes import NAMED_REGIMES
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
from ._solve import cached_run
from ._specs import RegimeSpec, SolveOptions
from ._table2 import table2_average_outcome, table2_row_outcome

__all__ = ["TABLE2_READING", "table2_claim", "mean_le_max_claim", "reading_claims", "rows_not_excluded_claim", "average_claim"]

SEED000 = "000_8dd0046228b94766.txt"
#: The reading under which the Table 2 rows are audited (other readings: nac.table2.<row>.reading.*).
TABLE2_READING = (
    "max-deviation: 'phi (%)' and 'omega (%)' are max over the window [0, T] of |phi(t) - phi(0)|/phi(0) and "
    "|omega(t) - omega(0)|/omega(0), with a0 = 0 and phi > 0"
)

_ROW_QUOTE = {
    "slow": "Slow 1.87 3.05 0.50 0.26",
    "fast": "Fast 6.41 6.50 2.63 1.58",
    "step": "Step 6.53 7.20 3.51 2.11",
    "oscillatory": "Oscillatory 7.81 6.90 8.28 2.10",
}
_COLUMNS_QUOTE = "Variation mean (%) max (%) phi (%) omega_tau (%)"


def _row_source(name: str) -> str:
    return f"{SEED000}, appendix B.1.2, Table 2, {name} row, '{_ROW_QUOTE[name]}' (columns '{_COLUMNS_QUOTE}')"


def table2_claim(spec: RegimeSpec, opts: SolveOptions) -> Claim:
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


def mean_le_max_claim(name: str) -> Claim:
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


def reading_claims(name: str, opts: SolveOptions) -> list[Claim]:
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
