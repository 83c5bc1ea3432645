r"""Table 2 of seed 000 (appendix B.1.2) under each plausible reading of its undefined
"phi (%)" / "omega (%)" columns (the paper calls them "variation rates", line 406).

Every check here starts from the printed cells (`paper_table2`); which reading a verdict
rests on is named in the claim (`Claim.reading`). With $v_\phi, v_\omega$ the maximal
relative deviations $\max_{[0,T]} |x(t) - x(0)| / x(0)$ of the gates, $a_0 = 0$ and
$\phi > 0$, the relative error of the frozen solution never exceeds
$B(v_\phi, v_\omega) = (v_\phi + v_\omega)/(1 - v_\phi)$ (package docstring). Each reading
says what $v$ the printed column $c$ allows:

* **max-deviation** (`TABLE2_READING` in `table2_claims`): $v = c$ (nac.table2.<row>).
* **range** (peak-to-peak, $(\max x - \min x)/x(0)$): $x(0)$ lies in $[\min x, \max x]$, so
  $|x - x(0)| \le \max x - \min x$ and $v \le c$: the same bound.
* **rate** (per unit time, $\max |x'| / x(0)$; for the step row, whose derivative is infinite
  at the jump, the jump per window length): $|x(t) - x(0)| \le c\,t \le c\,T$, so $v \le cT$.
  The paper gives no window for Table 2; NAC's pseudo-time is $t = \sigma(\cdot) \in (0, 1)$
  (seed 000 line 154), so $T = 1$ (`RATE_T`), and $B$ grows with $T$: a refutation at $T = 1$
  covers every $T \le 1$. $T_{\mathrm{crit}}$, the window from which $B(cT)$ admits the
  largest printed error $E$, solves $(c_\phi + c_\omega) T / (1 - c_\phi T) = E$:
  $T_{\mathrm{crit}} = E / (c_\phi + c_\omega + c_\phi E)$.
* **signed** ($a_0 \ne 0$ or gates of either sign): $B$ needs $a_0 = 0$, $\phi > 0$. Without
  them $a_{\mathrm{varying}}$ can cross 0 inside the window, where
  $|a_{\mathrm{varying}} - a_f| / |a_{\mathrm{varying}}|$ is unbounded: the witness solves the
  row's regime with its printed variations and $a_0 = $ `SIGNED_A0` and shows a relative error
  above the printed max.

Rounding: the printed cells carry 2 decimals, so a refutation must survive moving each
variation up and each error down by half a unit (`ROUNDING_PCT`).

"mean <= max" is reading-independent: the mean of a set of numbers never exceeds its
maximum, whatever the columns mean (`mean_le_max_outcome`).
"""

from __future__ import annotations

import numpy as np

from ..claims import Evidence, Outcome, Verdict
from ._bounds import variation_bound
from ._solve import cached_run
from ._specs import RegimeSpec, SolveOptions
from ._table2 import Table2Row, paper_table2

__all__ = [
    "ROUNDING_PCT",
    "RATE_T",
    "SIGNED_A0",
    "RATE_READING",
    "RANGE_READING",
    "SIGNED_READING",
    "READING_COLUMNS",
    "mean_le_max_outcome",
    "range_reading_outcome",
    "rate_reading_outcome",
    "signed_reading_outcome",
    "rate_t_crit",
    "readings_table",
]

#: Half a unit of the printed cells' last decimal (percentage points).
ROUNDING_PCT = 0.005
#: Window length assumed under the rate reading (NAC's pseudo-time lies in (0, 1)).
RATE_T = 1.0
#: Initial logit of the signed-reading witnesses (phi0 = 0.5, omega0 = 1: a_frozen crosses 0 at t = ln 2).
SIGNED_A0 = -0.5

RANGE_READING = (
    "peak-to-peak: 'phi (%)' and 'omega (%)' are (max - min)/x(0) over the window [0, T] of each gate, "
    "so |x(t) - x(0)| <= (max - min) since x(0) lies in [min, max]; a0 = 0 and phi > 0"
)
RATE_READING = (
    f"rate per unit time: 'phi (%)' and 'omega (%)' are max |x'(t)|/x(0) in % per unit time (step row: the jump "
    f"|x(T) - x(0)|/x(0) per window length T), so max |x(t) - x(0)|/x(0) <= rate * T; T = {RATE_T:g} (the paper "
    "gives no window for Table 2; NAC's pseudo-time t = sigmoid(.) lies in (0, 1)); a0 = 0 and phi > 0"
)
SIGNED_READING = (
    "signed: the columns are the max-deviation variations, but a0 != 0 (or a gate of either sign) is allowed, "
    "so a_varying may cross 0 inside the window"
)

#: Columns of the reading table: name -> claim id template ({row}). "as-printed" is the
#: reading-independent check of a row (mean <= max); for the Average row, nac.table2.average.
READING_COLUMNS = {
    "as-printed": "nac.table2.{row}.mean_le_max",
    "max-deviation": "nac.table2.{row}",
    "range": "nac.table2.{row}.reading.range",
    "rate": "nac.table2.{row}.reading.rate",
    "signed": "nac.table2.{row}.reading.signed",
}


def _cells(row: Table2Row) -> dict[str, float]:
    return {
        "paper_mean_pct": row.mean_pct,
        "paper_max_pct": row.max_pct,
        "paper_phi_variation_pct": row.phi_variation_pct,
        "paper_omega_variation_pct": row.omega_variation_pct,
    }


def mean_le_max_outcome(name: str) -> Outcome:
    """The row's mean error does not exceed its max error (true of any set of numbers)."""
    row = paper_table2()[name]
    cells = _cells(row)
    if row.mean_pct > row.max_pct:
        return Outcome(
            Verdict.REFUTED,
            f"mean {row.mean_pct}% > max {row.max_pct}%: no set of errors has a mean above its maximum, under any reading of the columns",
            Evidence(scalars=cells, witness={"cell_mean_pct": row.mean_pct, "cell_max_pct": row.max_pct}),
        )
    return Outcome(Verdict.HOLDS, f"mean {row.mean_pct}% <= max {row.max_pct}%", Evidence(scalars=cells))


def _bound_verdict(name: str, scale: float, reading: str, extra: dict[str, float] | None = None, note: str = "") -> Outcome:
    """Printed errors against B(scale * printed variations), rounding in the row's favour."""
    row = paper_table2()[name]
    vp, vw = scale * row.phi_variation_pct, scale * row.omega_variation_pct
    bound = float(100 * variation_bound(vp / 100, vw / 100))
    bound_rounded = float(100 * variation_bound(scale * (row.phi_variation_pct + ROUNDING_PCT) / 100, scale * (row.omega_variation_pct + ROUNDING_PCT) / 100))
    largest = max(row.mean_pct, row.max_pct)
    scalars = {
        **_cells(row),
        "v_phi_pct": vp,
        "v_omega_pct": vw,
        "variation_bound_pct": bound,
        "variation_bound_rounded_pct": bound_rounded,
        "largest_printed_error_pct": largest,
        **(extra or {}),
    }
    head = f"under the {reading} reading with a0 = 0 and phi > 0, the variations are at most {vp:.4g}% / {vw:.4g}%, so the relative error is at most (v_phi + v_omega)/(1 - v_phi) = {bound:.4g}% ({bound_rounded:.4g}% with the cells' rounding)"
    if largest - ROUNDING_PCT > bound_rounded:
        cell = "mean" if row.mean_pct > row.max_pct else "max"
        witness = {"cell": cell, "printed_error_pct": largest, "bound_pct": bound, "bound_rounded_pct": bound_rounded, "v_phi_pct": vp, "v_omega_pct": vw, **(extra or {})}
        return Outcome(Verdict.REFUTED, f"{head}; the paper prints {cell} {largest}%{note}", Evidence(scalars=scalars, witness=witness))
    if row.mean_pct > row.max_pct:
        why = "no gate pair realises the row as a whole (its mean exceeds its max, nac.table2.<row>.mean_le_max), so only the bound part is decided here"
    else:
        why = "no gate pair realising the row is exhibited (the paper does not define its regimes)"
    return Outcome(Verdict.INCONCLUSIVE, f"{head} >= the printed errors {row.mean_pct}% / {row.max_pct}% (mean / max): not excluded; {why}{note}", Evidence(scalars=scalars))


def range_reading_outcome(name: str) -> Outcome:
    return _bound_verdict(name, 1.0, "peak-to-peak")


def rate_t_crit(name: str) -> float:
    """Window length from which B(rate * T) admits the row's largest printed error."""
    row = paper_table2()[name]
    p, w, e = row.phi_variation_pct / 100, row.omega_variation_pct / 100, max(row.mean_pct, row.max_pct) / 100
    return e / (p + w + p * e)


def rate_reading_outcome(name: str) -> Outcome:
    t_crit = rate_t_crit(name)
    note = f"; the bound would admit the printed errors only for windows T >= {t_crit:.3g}"
    return _bound_verdict(name, RATE_T, f"rate (T = {RATE_T:g})", {"T": RATE_T, "T_crit": t_crit}, note)


def signed_reading_outcome(name: str, opts: SolveOptions = SolveOptions()) -> Outcome:
    """Witness: the row's regime at its printed variations with a0 = SIGNED_A0 != 0."""
    row = paper_table2()[name]
    spec = RegimeSpec(name, a0=SIGNED_A0)
    run = cached_run(spec, opts)
    s = run.series()
    rel = np.asarray(s["rel_error"], float)
    a = np.asarray(s["a_varying"], float)
    t = np.asarray(s["t"], float)
    i = int(np.nanargmax(rel))
    rel_max_pct = float(100 * rel[i])
    crossings = t[1:][np.sign(a[1:]) != np.sign(a[:-1])]
    witness = {
        "regime": name,
        "a0": SIGNED_A0,
        "phi0": spec.phi0,
        "omega0": spec.omega0,
        "T": spec.T,
        "phi_variation_pct": float(run.summary.phi_variation_pct[0]),
        "omega_variation_pct": float(run.summary.omega_variation_pct[0]),
        "rel_error_max_pct": rel_max_pct,
        "t_at_max": float(t[i]),
        "a_varying_at_max": float(a[i]),
        "a_frozen_at_max": float(s["a_frozen"][i]),
        "a_varying_zero_crossing_t": float(crossings[0]) if crossings.size else float("nan"),
        "printed_max_pct": row.max_pct,
    }
    scalars = {**_cells(row), "witness_rel_max_pct": rel_max_pct, "witness_rel_mean_pct": float(run.summary.rel_mean_pct[0])}
    arrays = {"t": t, "a_varying": a, "a_frozen": np.asarray(s["a_frozen"]), "rel_error": rel}
    if rel_max_pct > row.max_pct and crossings.size:
        return Outcome(
            Verdict.INCONCLUSIVE,
            f"with a0 = {SIGNED_A0} the {name} regime at the printed variations {witness['phi_variation_pct']:.3g}% / {witness['omega_variation_pct']:.3g}% "
            f"has a_varying crossing 0 at t ~ {witness['a_varying_zero_crossing_t']:.3g} and relative error {rel_max_pct:.4g}% at t = {witness['t_at_max']:.3g} "
            f"(> printed max {row.max_pct}%): the relative error is unbounded, the printed numbers are not excluded, and nothing confirms them",
            Evidence(arrays=arrays, scalars=scalars, witness=witness),
        )
    return Outcome(Verdict.INCONCLUSIVE, f"witness with a0 = {SIGNED_A0} did not exceed the printed max ({rel_max_pct:.4g}%); nothing decided", Evidence(arrays=arrays, scalars=scalars, witness=witness))


def readings_table(verdicts: dict[str, str], rows: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """row -> column (`READING_COLUMNS`) -> verdict, from claim verdicts by id ('-' where a
    claim was not run). The Average row has only its as-printed claim, nac.table2.average."""
    table = {row: {col: str(verdicts.get(tmpl.format(row=row), "-")) for col, tmpl in READING_COLUMNS.items()} for row in rows}
    if "nac.table2.average" in verdicts:
        table["average"] = {col: "-" for col in READING_COLUMNS}
        table["average"]["as-printed"] = str(verdicts["nac.table2.average"])
    return table
