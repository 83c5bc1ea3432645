"""Claims of nacverify/checks/sentences_002_004.py (sentences of seeds 002 and 004 found checkable by the
ledger's coverage pass, issue 43).

Every expected number is derived by hand (stated beside it) or in plain Python from the printed
formulas, never from the code under test."""

import math

import numpy as np
import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks.sentences_002_004 import body_tags, summary_rows
from nacverify.claims import CheckContext, Kind, Verdict, evaluate, get_claim

QUICK = CheckContext(seed=0, quick=True)


def run(cid):
    return evaluate(get_claim(cid), QUICK)


def test_eq5a_nonlinear_in_presynaptic_voltage():
    # tau_system(V) = 1/(1 + sigma(V)) at tau = w = C_m = gamma = 1, mu = 0; differences in plain Python at V = 1
    def tau_system(v):
        return 1.0 / (1.0 + 1.0 / (1.0 + math.exp(-v)))

    h = 1e-4
    first = (tau_system(1 + h) - tau_system(1 - h)) / (2 * h)
    second = (tau_system(1 + h) - 2 * tau_system(1) + tau_system(1 - h)) / h ** 2
    # by hand: sigma(1) = 0.731059, tau_system = 0.577681, first = -tau_system^2 sigma (1 - sigma) = -0.065730
    assert first == pytest.approx(-0.577681 ** 2 * 0.731059 * 0.268941, rel=1e-4)
    r = run("ledger002.eq5a.nonlinear_presynaptic")
    assert r.verdict == Verdict.HOLDS
    assert r.outcome.evidence.scalars["first_derivative"] == pytest.approx(first, rel=1e-6)
    assert r.outcome.evidence.scalars["second_derivative"] == pytest.approx(second, rel=1e-4)
    assert abs(second) > 0.04                              # 0.0452: not affine in V_j


def test_gap_junction_difference_decays_faster():
    # C = 2, G = 1, omega = 0.5, V_L = 0, v1 = 1, v2 = 0: dv1 = (1 (0 - 1) + 0.5 (0 - 1))/2 = -0.75, dv2 = (0 + 0.5 (1 - 0))/2 = 0.25,
    # so d(v1 - v2)/dt = -1.0 = -(G + 2 omega)/C, against -G/C = -0.5 without the junction
    import sympy as sp

    r = run("ledger002.eq3.synchronize")
    assert r.verdict == Verdict.HOLDS and r.claim.kind == Kind.READING
    rate = sp.sympify(r.outcome.evidence.scalars["difference_rate"])
    values = {sp.Symbol(name): val for name, val in (("C_m", 2), ("G_Leak", 1), ("omega", sp.Rational(1, 2)))}
    assert float(rate.subs(values)) == pytest.approx(-1.0)
    assert r.outcome.evidence.scalars["linear"] is True


def test_eq6_w_sigma_enters_rate_and_drive():
    # eq. 6 per component with s = (W sigma(u))_i: rate 1/tau + s (d/ds = 1), drive A + s B (d/ds = B)
    r = run("ledger002.eq6.W_sigma_both")
    assert r.verdict == Verdict.HOLDS
    assert r.outcome.evidence.scalars["d_rate_ds"] == "1"
    assert r.outcome.evidence.scalars["d_drive_ds"] == "B"


def test_eq7a_tau_sys_varies_with_state_and_input():
    # z = 0.5 * 0.2 + 1 * 0.3 = 0.4, f = tanh(0.4) = 0.379949; d tau_sys/dz = -(1 - f^2)/(1 + f)^2 = -0.449329 (tau = 1);
    # times gamma_r = 0.5 for x, times gamma = 1 for I
    f = math.tanh(0.4)
    dz = -(1 - f * f) / (1 + f) ** 2
    assert dz == pytest.approx(-0.449329, abs=1e-6)
    r = run("ledger002.eq7a.varies")
    assert r.verdict == Verdict.HOLDS
    assert r.outcome.evidence.scalars["d_tau_sys_dx"] == pytest.approx(0.5 * dz, rel=1e-9)
    assert r.outcome.evidence.scalars["d_tau_sys_dI"] == pytest.approx(dz, rel=1e-9)


def test_eq21_over_eq19_is_the_factor():
    # plain Python at sigma_w = 1.4, sigma_b = 1, k = 100, dL = 3, ||z|| = 0.7, dt = 0.1, L = 4, l(I) = 2
    sw, sb, k, depth, z, dt, steps, length = 1.4, 1.0, 100.0, 3.0, 0.7, 0.1, 4.0, 2.0
    base = sw * math.sqrt(k) / math.sqrt(sw ** 2 + sb ** 2 + k * math.sqrt(sw ** 2 + sb ** 2))
    eq19 = base ** depth * length
    eq21 = base ** depth * (z / sw + 1 / min(dt, steps)) * length
    assert eq21 / eq19 == pytest.approx(0.5 + 10.0)
    assert run("ledger002.eq21.additional_factor").verdict == Verdict.HOLDS


def test_table11_helpers_on_a_hand_built_text():
    text = "$$a \\tag{1}$$\n$$b \\tag{1a}$$\n## 11. Summary of All Numbered Equations\n| # | E |\n|---|---|\n| 1 | a |\n\n## 12. next\n| 9 | x |\n"
    assert body_tags(text) == ["1", "1a"]
    assert summary_rows(text) == ["1"]          # the header and separator rows and rows after section 12 are not rows


def test_table11_heading_all_numbered_equations():
    # counted by hand in the seed: tags 1, 2, 2a, 3, 4, 5, 5a, 6, 7, 7a, 8, 9, 9a, 10, 10a, 10b, 11-24 (30 tags);
    # the table (lines 372-399) has 28 rows, all but 10a and 10b
    r = run("ledger002.table11.all_tags")
    assert r.verdict == Verdict.REFUTED and r.claim.kind == Kind.AS_PRINTED
    assert r.outcome.evidence.scalars["tags"] == 30
    assert r.outcome.evidence.scalars["rows"] == 28
    assert r.outcome.evidence.witness["missing"] == "10a, 10b"
    r = run("ledger002.table11.integer_tags")
    assert r.verdict == Verdict.HOLDS and r.claim.kind == Kind.READING
    assert r.outcome.evidence.scalars["missing"] == 0


def test_single_row_under_the_zero_row_premise():
    # five instances, four with empty args (blocks of shape (0, m)) and one with k = 3 (a (1, m) block): one row;
    # with NumPy's own empty product each instance gives a (1, m) row of zeros: five rows
    m = 6
    assert np.vstack([np.zeros((0, m))] * 4 + [np.ones((1, m))]).shape[0] == 1
    assert (np.ones((1, m))[:, np.arange(0, dtype=int)] @ np.ones((m, m))[np.arange(0, dtype=int)]).shape == (1, m)
    r = run("ledger004.batch.single_row")
    assert r.verdict == Verdict.HOLDS
    assert r.outcome.evidence.scalars["rows"] == 1
    assert r.outcome.evidence.scalars["rows_with_numpy_blocks"] == 5


@pytest.mark.parametrize("cid,original,line", [
    ("ltc.eq11.own_f.tanh.what_it_does", "ltc.eq11.own_f.tanh", "line 252"),
    ("ltc.eq13.outside_start.what_it_does", "ltc.eq13.outside_start", "line 274"),
])
def test_restated_glosses_keep_the_original_check(cid, original, line):
    claim, base = get_claim(cid), get_claim(original)
    assert line in claim.source
    assert claim.expected == base.expected == Verdict.REFUTED
    assert claim.kind == base.kind == Kind.AS_PRINTED


def test_eq13_gloss_refuted_at_t0_by_hand():
    # V_Leak = -1, E = -0.5, -0.75: the interval is [-1, -0.5]; v(0) = 0.5 lies above it at t = 0, whatever the dynamics
    lower, upper = min(-1, -0.5, -0.75), max(-1, -0.5, -0.75)
    assert not (lower <= 0.5 <= upper)
    r = run("ltc.eq13.outside_start.what_it_does")
    assert r.verdict == Verdict.REFUTED
    assert r.outcome.evidence.witness["v0"] == pytest.approx(0.5)


def test_eq6_w_as_a_product_by_hand():
    # raw = all ones (2 x 2), C_m = (1, 2), sigma = (1, 1): eq. 5 gives sum_j w_ij/C_m_i sigma_j = (2/1, 2/2) = (2, 1);
    # rows scaled by 1/C_m_i give (2, 1); NumPy's broadcast raw * (1, 1/2) scales columns: (1.5, 1.5); raw @ (1, 1/2) is a vector
    raw, inverse, sig = np.ones((2, 2)), np.array([1.0, 0.5]), np.ones(2)
    assert (np.diag(inverse) @ raw @ sig).tolist() == [2.0, 1.0]
    assert ((raw * inverse) @ sig).tolist() == [1.5, 1.5]
    assert (raw @ inverse).shape == (2,)
    r = run("ledger002.eq6.W_product.matvec")
    assert r.verdict == Verdict.REFUTED and r.claim.kind == Kind.AS_PRINTED
    assert r.outcome.evidence.witness["shape"] == "(3,)"
    r = run("ledger002.eq6.W_product.broadcast")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.scalars["largest_gap"] > 0.1
    r = run("ledger002.eq6.W_product.row_scaling")
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["largest_gap"] < 1e-12
