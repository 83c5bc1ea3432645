"""Tests that kill mutants of the frozen bounds (tools/mutate.py, target ``bounds``) which the
rest of the suite let survive. Every expected value is a hand derivation from the formulas of
Theorem 3, its sharp form and the bounded-variation form (nacverify/frozen/__init__.py):

    C = |a0| + |phi0| / omega0,  k = L_phi + C L_omega,
    thm3 = k t^2 e^(L_omega t),  sharp = k t^2 / 2,  bv = (V_phi + C V_omega) (1 - e^(-omega_min t)) / omega_min.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from nacverify.frozen._bounds import bound_curves, variation_bound


def _facts(**kw):
    return SimpleNamespace(**{k: np.asarray(v, float) for k, v in kw.items()})


def test_bound_curves_with_omega0_not_one_and_a0_not_zero():
    # kills: C = |a0| + |phi0| * omega0 (every other bound test has omega0 = 1 or a0 = 0)
    # member 0: a0 = -1, phi0 = 3, omega0 = 2 -> C = 1 + 3/2 = 2.5, k = 0.5 + 2.5 * 0.2 = 1
    # member 1: a0 = 2, phi0 = -4, omega0 = 0.5 -> C = 2 + 8 = 10, k = 0.1 + 10 * 0.3 = 3.1
    facts = _facts(phi0=[3.0, -4.0], omega0=[2.0, 0.5], L_phi=[0.5, 0.1], L_omega=[0.2, 0.3],
                   V_phi=[0.3, 0.05], V_omega=[0.4, 0.02], omega_min=[1.5, 0.25])
    t = np.array([0.0, 1.0, 2.0])
    out = bound_curves(t, facts, np.array([-1.0, 2.0]))
    thm3 = [[0.0, math.exp(0.2), 4 * math.exp(0.4)], [0.0, 3.1 * math.exp(0.3), 3.1 * 4 * math.exp(0.6)]]
    sharp = [[0.0, 0.5, 2.0], [0.0, 1.55, 6.2]]
    bv = [[1.3 * (1 - math.exp(-1.5 * s)) / 1.5 for s in t], [0.25 * (1 - math.exp(-0.25 * s)) / 0.25 for s in t]]
    np.testing.assert_allclose(out["thm3"], thm3, rtol=1e-14)
    np.testing.assert_allclose(out["sharp"], sharp, rtol=1e-14)
    np.testing.assert_allclose(out["bv"], bv, rtol=1e-14)


def test_bound_curves_not_lipschitz_is_inf_without_warnings():
    # kills: np.errstate(invalid=...) or (over=...) dropped or set to None. A member that is not
    # Lipschitz (L = inf) has thm3 = sharp = inf at every t, t = 0 included (inf * 0 would be nan and
    # warn), and a huge L_omega t overflows exp; the library neither warns nor returns nan.
    facts = _facts(phi0=[1.0, 1.0], omega0=[1.0, 1.0], L_phi=[np.inf, 1.0], L_omega=[0.0, 1e3],
                   V_phi=[0.1, 0.1], V_omega=[0.1, 0.1], omega_min=[1.0, 1.0])
    t = np.array([0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = bound_curves(t, facts, np.zeros(2))
    assert np.all(np.isinf(out["thm3"][0])) and np.all(np.isinf(out["sharp"][0]))
    # member 1: k = 1 + 1 * 1e3; thm3 at t = 1 overflows to inf, sharp is k / 2 exactly
    assert out["thm3"][1, 0] == 0.0 and np.isinf(out["thm3"][1, 1])
    assert out["sharp"][1].tolist() == [0.0, 1001.0 / 2]


def test_variation_bound_of_exact_fractions_is_float():
    # kills: np.asarray(v_phi, None) (the float conversion dropped): a Fraction stays an object array.
    # (v_phi + v_omega) / (1 - v_phi) = (1/10 + 1/5) / (9/10) = 1/3
    out = variation_bound(Fraction(1, 10), Fraction(1, 5))
    assert out.dtype == np.float64
    assert float(out) == pytest.approx(1 / 3, rel=1e-15)
    assert variation_bound(Fraction(-1, 10), 0.2).dtype == np.float64


def test_variation_bound_at_v_phi_one_is_inf_without_warnings():
    # kills: np.errstate(divide=...) dropped: at v_phi = 1 the bound (v_phi + v_omega) / (1 - v_phi) is inf,
    # returned without a division warning (np.where evaluates both branches)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = variation_bound(np.array([1.0, 0.5]), np.array([0.5, 0.25]))
    assert np.isinf(out[0]) and out[1] == pytest.approx(0.75 / 0.5, rel=1e-15)


# --- the Table 2 readings (nacverify/frozen/_readings.py) and the sweep kernel's gate shortcut ---------

import csv
from importlib import resources

from nacverify.claims import Verdict
from nacverify.frozen import _readings
from nacverify.frozen._kernel import gates_needed
from nacverify.frozen._table2 import Table2Row
from nacverify.regimes import named_regime


def _printed_rows() -> dict[str, dict[str, float]]:
    """Table 2 read straight from the shipped CSV (not through paper_table2)."""
    text = resources.files("nacverify.data").joinpath("paper_table2_frozen_error.csv").read_text()
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return {r["regime"]: {k: float(v) for k, v in r.items() if k != "regime"} for r in rows}


def test_range_reading_refutation_names_its_cells_and_witness_by_hand():
    """slow row, peak-to-peak reading: B = (0.50 + 0.26) / (100 - 0.50) * 100 = 0.7638 %, and with the
    cells' rounding (0.505 + 0.265) / (100 - 0.505) * 100 = 0.7739 %; the printed max 3.05 % - 0.005
    exceeds it, so the row is refuted at its max cell."""
    row = _printed_rows()["slow"]
    out = _readings.range_reading_outcome("slow")
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness == pytest.approx({
        "cell": "max", "printed_error_pct": 3.05, "bound_pct": 0.76 / 99.5 * 100, "bound_rounded_pct": 0.77 / 99.495 * 100,
        "v_phi_pct": 0.50, "v_omega_pct": 0.26,
    })
    assert {k: out.evidence.scalars[k] for k in ("paper_mean_pct", "paper_max_pct", "paper_phi_variation_pct", "paper_omega_variation_pct")} == {
        "paper_mean_pct": row["mean_pct"], "paper_max_pct": row["max_pct"], "paper_phi_variation_pct": row["phi_variation_pct"],
        "paper_omega_variation_pct": row["omega_variation_pct"]}


def test_rate_reading_witness_carries_the_window_by_hand():
    """fast row at T = 1: T_crit = e / (p + w + p e) with p = 0.0263, w = 0.0158, e = 0.065."""
    out = _readings.rate_reading_outcome("fast")
    assert out.verdict == Verdict.REFUTED
    assert set(out.evidence.witness) == {"cell", "printed_error_pct", "bound_pct", "bound_rounded_pct", "v_phi_pct", "v_omega_pct", "T", "T_crit"}
    assert out.evidence.witness["T"] == 1.0
    assert out.evidence.witness["T_crit"] == pytest.approx(0.065 / (0.0263 + 0.0158 + 0.0263 * 0.065), rel=1e-12)
    assert out.evidence.witness["v_omega_pct"] == pytest.approx(1.58)


def test_oscillatory_rows_inconclusive_message_says_the_mean_exceeds_the_max():
    """oscillatory: B = (8.28 + 2.10) / (100 - 8.28) * 100 = 11.3 % >= 7.81 %; the row's mean 7.81 exceeds its max 6.90."""
    out = _readings.range_reading_outcome("oscillatory")
    assert out.verdict == Verdict.INCONCLUSIVE
    assert "its mean exceeds its max" in out.message and "None" not in out.message


def _with_row(monkeypatch, row: Table2Row) -> None:
    monkeypatch.setattr(_readings, "paper_table2", lambda: {row.regime: row})


def test_a_refuted_row_whose_mean_exceeds_its_max_is_refuted_at_its_mean(monkeypatch):
    """A made-up row: variations 1 % / 1 % bound the error by 2/99 = 2.02 %; mean 9 % > max 8 % is the largest cell."""
    _with_row(monkeypatch, Table2Row("made_up", mean_pct=9.0, max_pct=8.0, phi_variation_pct=1.0, omega_variation_pct=1.0))
    out = _readings.range_reading_outcome("made_up")
    assert out.verdict == Verdict.REFUTED and out.evidence.witness["cell"] == "mean" and "prints mean 9.0%" in out.message


def test_a_printed_error_exactly_at_the_rounded_bound_is_not_excluded(monkeypatch):
    """The row's rounding goes in its favour: where the largest printed error less half a unit equals the
    rounded bound, the bound admits it (not refuted); one ulp more and it is refuted."""
    vp, vw = 1.0, 1.0
    rounded = float(100 * variation_bound((vp + _readings.ROUNDING_PCT) / 100, (vw + _readings.ROUNDING_PCT) / 100))
    largest = rounded + _readings.ROUNDING_PCT
    for _ in range(8):  # step to the float whose difference is exactly the rounded bound
        if largest - _readings.ROUNDING_PCT == rounded:
            break
        largest = float(np.nextafter(largest, np.inf if largest - _readings.ROUNDING_PCT < rounded else -np.inf))
    assert largest - _readings.ROUNDING_PCT == rounded
    _with_row(monkeypatch, Table2Row("edge", mean_pct=0.1, max_pct=largest, phi_variation_pct=vp, omega_variation_pct=vw))
    assert _readings.range_reading_outcome("edge").verdict == Verdict.INCONCLUSIVE
    above = float(np.nextafter(largest, np.inf))
    while above - _readings.ROUNDING_PCT == rounded:
        above = float(np.nextafter(above, np.inf))
    _with_row(monkeypatch, Table2Row("edge", mean_pct=0.1, max_pct=above, phi_variation_pct=vp, omega_variation_pct=vw))
    assert _readings.range_reading_outcome("edge").verdict == Verdict.REFUTED


def test_signed_reading_witness_names_its_regime():
    out = _readings.signed_reading_outcome("slow")
    assert out.evidence.witness["regime"] == "slow" and out.evidence.witness["a0"] == -0.5


def test_gates_are_skipped_at_phi0_exactly_1e_300():
    """gates_needed's docstring: phi0 >= 1e-300 is safe, since phi0 (1 + A g) >= 1e-300 / 2 is a normal double."""
    assert gates_needed(named_regime("slow", phi0=1e-300)) is False
    assert gates_needed(named_regime("slow", phi0=float(np.nextafter(1e-300, 0)))) is True
