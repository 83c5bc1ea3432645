"""Document 001's appendix claims (nacverify.checks.nac001_appendix_sentences): each verdict and its key numbers against
values derived by hand from the document's words."""

import math

import numpy as np
import pytest
import sympy as sp

import nacverify.catalog  # noqa: F401
from nacverify.checks import nac001_appendix_sentences as lb
from nacverify.claims import CheckContext, Verdict, registry

CTX = CheckContext(seed=0, quick=True)
H, F = Verdict.HOLDS, Verdict.REFUTED


def _run(cid):
    return registry()[f"nac001.app.{cid}"].check(CTX)


@pytest.mark.parametrize("cid", ["b1.rewrite_eq1", "b1.linear_first_order", "b1.integrating_factor", "b1.multiply", "b1.product_rule", "b1.integrate",
                                 "b1.substitute", "b1.rearrange", "b1.divide", "b2.unique_equilibrium", "b3.sigmoid_unit.whole_input", "c11.dependence"])
def test_derivation_steps_hold(cid):
    out = _run(cid)
    assert out.verdict == H, out.message


def test_a_wrong_step_is_refuted():
    # eq. 31 multiplied (not divided) by e^(omega t) is not eq. 32: the helper must see the difference
    om, t, a0, phi = sp.symbols("omega t a0 phi", positive=True)
    eq31 = a0 + phi / om * (sp.exp(om * t) - 1)
    eq32 = a0 * sp.exp(-om * t) + phi / om * (1 - sp.exp(-om * t))
    assert lb._zero(eq31 * sp.exp(om * t) - eq32, "wrong").verdict == F
    assert lb._zero(sp.expand(eq31 * sp.exp(-om * t) - eq32), "right").verdict == H


def test_keff_and_pair_construction():
    assert _run("b3.keff_one").verdict == H  # min(K, 1) = 1 for every K >= 1
    assert _run("b3.q_equals_k").verdict == H


def test_d1_four_heads_and_d2_names():
    out = _run("d1.four_subcategories")
    assert out.verdict == H and out.evidence.scalars["headed"] == 4  # DT-RNNs, CT-RNNs, DT-Attentions, CT-Attentions
    out = _run("d2.names_encode_settings")
    # NAC-2k: 2, NAC-32k: 32, NAC-02s: 20 %, NAC-09s: 90 %, NAC-Exact/05s/8k: 50 % and K = 8 ('All modes use Top-K=8, 50% sparsity')
    assert out.verdict == H and out.evidence.arrays["text_value"].tolist() == [2, 32, 20, 90, 50, 8]


def test_mnist_preprocessing_sentences():
    assert lb.event_encode([1, 1, 1, 1]) == [(1, 4)]
    assert lb.event_encode([0, 1, 1, 0]) == [(0, 1), (1, 2), (0, 1)]
    assert _run("d31.run_length_example").verdict == H
    out = _run("d31.eight_bit")
    assert out.verdict == H and out.evidence.scalars["printed_max"] == 2**8 - 1 == 255


def test_saliency_list_repeats_steady():
    out = _run("d33.saliency_modes")
    assert out.verdict == F and out.evidence.scalars["listed"] == "Steady, Euler, Steady"
    assert _run("d33.saliency_modes.intended").verdict == H


def test_nectiux_is_not_the_cited_nectoux():
    out = _run("d34.author_name")
    assert out.verdict == F and out.evidence.scalars["in_text"] == "Nectiux" and out.evidence.scalars["reference_list"] == "Nectoux"
    assert _run("d34.author_name.intended").verdict == H


def test_tables_4_and_5():
    assert _run("table4.loss_matches_head").verdict == H  # SM heads: SCE/Acc; Lin heads (Udacity, RUL): MSE
    assert _run("table5.roles").verdict == H  # XJTU-SY and HUST: no training bearings
    out = _run("table5.xjtu_speed_frequency")
    assert out.verdict == H and out.evidence.arrays["speed_rpm"].tolist() == [35 * 60, 37.5 * 60, 40 * 60]


def test_std_line_gives_the_deviation_of_one_sample():
    # x = 1, 2, 3, 4, mu = 2.5: summing over i a term in m gives |x_m - mu| = 1.5, 0.5, 0.5, 1.5; sigma = sqrt(5/4)
    out = _run("alg3.std_index")
    assert out.verdict == F
    assert np.allclose(out.evidence.arrays["value_per_m"], [1.5, 0.5, 0.5, 1.5])
    assert out.evidence.scalars["sum_index"] == "i" and out.evidence.scalars["summand_index"] == "m"
    assert math.isclose(out.evidence.scalars["std"], math.sqrt(1.25))
    assert _run("alg3.std_index.intended").verdict == H


def test_dominant_frequency_line_returns_a_scale():
    # Morlet, omega0 = 6, tone 50 Hz at T_s = 1 ms: w = 2 pi 50 1e-3 rad/sample; the energy a exp(-(a w - 6)^2) peaks at
    # a* = (6 + sqrt(38)) / (2 w) = 19.36; the printed f_d is that scale, the frequency f_c/(a* T_s) = (6 / 2 pi) / 0.01936 = 49.3 Hz
    w = 2 * math.pi * 50 * 1e-3
    a_star = (6 + math.sqrt(38)) / (2 * w)
    out = _run("alg3.dominant_frequency")
    assert out.verdict == F
    assert abs(out.evidence.scalars["best_scale"] - a_star) / a_star < 0.015  # the scale grid's step is 1.4 %
    assert abs(out.evidence.scalars["f_d"] - out.evidence.scalars["best_scale"]) < 1e-12
    assert _run("alg3.dominant_frequency.intended").verdict == H


def test_cwt_without_inverse_sqrt_a_moves_the_dominant_scale():
    # peak energy per tone: with 1/sqrt(a) proportional to A^2 / f, without it to A^2 / f^2:
    # 200 Hz, A = 1 against 50 Hz, A = 0.4: 1/200 = 0.005 > 0.16/50 = 0.0032 (200 Hz wins); 1/200^2 = 2.5e-5 < 0.16/50^2 = 6.4e-5 (50 Hz wins)
    out = _run("alg3.cwt_normalization")
    assert out.verdict == F
    assert abs(out.evidence.scalars["dominant_hz_text_cwt"] - 200) < 10 and abs(out.evidence.scalars["dominant_hz_line_as_printed"] - 50) < 3
    assert out.evidence.scalars["line_has_inv_sqrt_a"] is False and out.evidence.scalars["text_has_inv_sqrt_a"] is True
    assert _run("alg3.cwt_normalization.intended").verdict == H


def test_heads_of_b3_see_only_their_slice():
    # n = 3, m = 1: d_model = 4, H = 2 heads of width 2; q = [x1, x2, x3, 0]: head 1 sees (x1, x2), head 2 (x3, 0).
    # For f = x1 x3 the corner combination f(1,0,1) - f(1,0,-1) - f(-1,0,1) + f(-1,0,-1) = 4; for g1(x1, x2) + g2(x3) it is 0,
    # so some corner errs by at least 4 / 4 = 1
    out = _run("b3.sigmoid_unit")
    assert out.verdict == F
    sc = out.evidence.scalars
    assert sc["head_width"] == 2 and sc["head1_depends_on_x3"] is False
    assert sc["corner_combination_f"] == 4 and abs(sc["corner_combination_g"]) < 1e-12 and sc["sup_error_lower_bound"] == 1


def test_energy_line_leaves_the_translation_free():
    # the window is 200 Hz for its first half and 50 Hz after: |Gamma(a, b)|^2 at one b peaks at the scale of the tone there
    out = _run("alg3.energy_index")
    assert out.verdict == F
    assert out.evidence.scalars["sum_index"] == "m" and out.evidence.scalars["index_in_summand"] is False
    early, late = (float(x) for x in out.evidence.scalars["dominant_hz"].split(", "))
    assert abs(early - 200) < 10 and abs(late - 50) < 3
    assert _run("alg3.energy_index.intended").verdict == H
