"""Seed 000's Table 2 (appendix B.1.2) as printed, and its audit: each regime row against
the measurement and the variation bound, and the Average row against its column means.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..claims import Evidence, Outcome, Verdict
from ..regimes import NAMED_REGIMES
from ._bounds import variation_bound
from ._solve import FrozenErrorRun

__all__ = ["Table2Row", "paper_table2", "table2_row_outcome", "table2_average_outcome", "AVERAGE_TOL"]


@dataclass(frozen=True)
class Table2Row:
    regime: str
    mean_pct: float
    max_pct: float
    phi_variation_pct: float
    omega_variation_pct: float


def paper_table2() -> dict[str, Table2Row]:
    """Seed 000 Table 2 as printed (shipped in nacverify/data)."""
    text = resources.files("nacverify.data").joinpath("paper_table2_frozen_error.csv").read_text()
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return {
        r["regime"]: Table2Row(r["regime"], float(r["mean_pct"]), float(r["max_pct"]), float(r["phi_variation_pct"]), float(r["omega_variation_pct"]))
        for r in rows
    }


def table2_row_outcome(run: FrozenErrorRun) -> Outcome:
    """Compare one Table 2 row with the measurement and with what the variations allow,
    under the max-deviation reading ('phi (%)' = max |phi - phi(0)|/phi(0) over the
    window) with a0 = 0 and phi > 0 (NAC's setting), where the variation bound holds.

    refuted: the row's errors exceed the variation bound evaluated at its own variations.
    holds: they do not (the row is not excluded under this reading). Whether the suite's regime
    family reproduces the printed numbers is reported as evidence only (the paper does not define
    its regimes: a mismatch refutes nothing and a match proves nothing about the document). Whether
    mean <= max (true under any reading) is a separate claim (nac.table2.<row>.mean_le_max)."""
    paper = paper_table2()[run.regime.name]
    s = run.summary
    bound_pct = float(100 * variation_bound(paper.phi_variation_pct / 100, paper.omega_variation_pct / 100))
    scalars = {
        "paper_mean_pct": paper.mean_pct,
        "paper_max_pct": paper.max_pct,
        "paper_phi_variation_pct": paper.phi_variation_pct,
        "paper_omega_variation_pct": paper.omega_variation_pct,
        "measured_mean_pct": float(s.rel_mean_pct[0]),
        "measured_max_pct": float(s.rel_max_pct[0]),
        "measured_phi_variation_pct": float(s.phi_variation_pct[0]),
        "measured_omega_variation_pct": float(s.omega_variation_pct[0]),
        "variation_bound_pct": bound_pct,
    }
    ev = Evidence(scalars=scalars)
    measured = f"measured {scalars['measured_mean_pct']:.3g}% / {scalars['measured_max_pct']:.3g}% (mean / max)"
    largest = max(paper.mean_pct, paper.max_pct)
    condition = (
        f"under the max-deviation reading with a0 = 0 and phi > 0, variations {paper.phi_variation_pct}% / {paper.omega_variation_pct}% "
        f"allow a relative error of at most (v_phi + v_omega)/(1 - v_phi) = {bound_pct:.3g}%"
    )
    if largest > bound_pct:
        witness = {
            "cell": "mean" if paper.mean_pct > paper.max_pct else "max",
            "printed_error_pct": largest,
            "variation_bound_pct": bound_pct,
            "phi_variation_pct": paper.phi_variation_pct,
            "omega_variation_pct": paper.omega_variation_pct,
        }
        return Outcome(Verdict.REFUTED, f"{condition}, paper prints {largest}%; {measured}", Evidence(scalars=scalars, witness=witness))
    return Outcome(
        Verdict.HOLDS,
        f"{condition} >= the printed {paper.mean_pct}% / {paper.max_pct}%: not excluded under this reading "
        f"(evidence only, not part of the verdict: the suite's regime gives {measured})",
        ev,
    )


AVERAGE_TOL = 0.01  # printed values carry 2 decimals: rounding of inputs and output


def table2_average_outcome() -> Outcome:
    """The 'Average' row equals the column means of the four regime rows (to rounding)."""
    table = paper_table2()
    rows = [table[r] for r in NAMED_REGIMES]
    avg = table["average"]
    scalars: dict[str, float] = {}
    bad = []
    for col in ("mean_pct", "max_pct", "phi_variation_pct", "omega_variation_pct"):
        mean = float(np.mean([getattr(r, col) for r in rows]))
        printed = getattr(avg, col)
        scalars[f"{col}_column_mean"] = mean
        scalars[f"{col}_printed"] = printed
        if abs(mean - printed) > AVERAGE_TOL:
            bad.append(f"{col}: printed {printed} vs column mean {mean:.4g}")
    if bad:
        return Outcome(Verdict.REFUTED, "; ".join(bad), Evidence(scalars=scalars))
    return Outcome(Verdict.HOLDS, "every column of the Average row is the mean of the four rows", Evidence(scalars=scalars))
