"""Claims of nacverify.checks.nac001_sentences (001, lines 1-1256: pointers, eq. 1's linearity, counts, numbers in the text).

Every expected number is read off the document by hand (the derivation is in each test's comment)."""

import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks.nac001_sentences import section_span, xref_outcome
from nacverify.claims import CheckContext, Verdict, registry

QUICK = CheckContext(seed=0, quick=True)


@pytest.mark.parametrize("section, line, title", [
    # read off the seed: '**A.1. Attention Mechanism**' on line 1351, '**B.1. Deriving Closed-form (Exact) Solution**' on 1398,
    # '**A.2. Neuronal Circuit Policies (NCPs)**' on 1435 (printed after B.1), '**B.2. Proof of Theorem 1**' on 1591,
    # '**B.3. Proof for Theorem 2**' on 1737, '**D.2. Ablations Details**' on 2015, 'D.3.3. AUTONOMOUS VEHICLE' on 2137
    ("A.1", 1351, "Attention Mechanism"), ("B.1", 1398, "Deriving Closed-form (Exact) Solution"), ("A.2", 1435, "Neuronal Circuit Policies (NCPs)"),
    ("B.2", 1591, "Proof of Theorem 1"), ("B.3", 1737, "Proof for Theorem 2"), ("D.2", 2015, "Ablations Details"), ("D.3.3", 2137, "AUTONOMOUS VEHICLE"),
])
def test_appendix_headings_by_hand(section, line, title):
    first, _, got = section_span(section)
    assert (first, got) == (line, title)


def test_spans_end_at_the_next_non_subsection():
    # B.1 (line 1398) is followed by A.2 on line 1435, so B.1 ends on 1434; D.3 (line 2066) holds D.3.1-D.3.4, so it runs past D.3.1 (2069)
    assert section_span("B.1")[:2] == (1398, 1434)
    first, last, _ = section_span("D.3")
    assert first == 2066 and last > 2282  # D.3.4 INDUSTRY 4.0 starts on line 2282
    assert section_span("E.1") is None


@pytest.mark.parametrize("suffix", ["A1", "A2", "B1", "B2", "B3", "D2", "D33"])
def test_pointers_that_hold(suffix):
    assert registry()[f"nac001.xref.{suffix}"].check(QUICK).verdict == Verdict.HOLDS


def test_d3_pointer_misses_the_ablations_which_d2_holds():
    # 'ablation' occurs only on lines 2015-2030 (D.2 'Ablations Details'); D.3 (2066-) mentions baselines, simulators, preprocessing,
    # architectures but never an ablation: the pointer 'Appendix D.3' fails for one of its five topics, 'Appendix D' holds all five
    out = registry()["nac001.xref.D3"].check(QUICK)
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness["missing_topic"] == "ablation" and out.evidence.witness["found_in"] == "D.2"
    assert out.evidence.scalars["topics_found"] == 4
    assert registry()["nac001.xref.D3.appendix_D"].check(QUICK).verdict == Verdict.HOLDS


def test_a_wrong_pointer_is_refuted():
    # C.3 is 'Efficiency and Complexity' (Table 3): no saliency map there; there is no Appendix E at all
    assert xref_outcome("C.3", {"saliency maps": r"saliency"}).verdict == Verdict.REFUTED
    out = xref_outcome("E", {"anything": r"."})
    assert out.verdict == Verdict.REFUTED and out.evidence.scalars["section_found"] == 0


def test_eq1_is_a_linear_first_order_ode():
    # da/dt = -w(u) a + p(u): order 1, the right side is affine in a; sigma'' = sigma(1-sigma)(1-2 sigma) != 0 at x = 0.5,
    # softplus'' = sigma(x)(1 - sigma(x)) > 0
    out = registry()["nac001.eq1.linear_first_order"].check(QUICK)
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.scalars["order"] == 1 and out.evidence.scalars["affine_in_a"] == 1 and out.evidence.scalars["gates_nonlinear"] == 1


@pytest.mark.parametrize("key, stated", [("design-steps", 5), ("emnist-steps", 2)])
def test_counts(key, stated):
    # 'five steps: (i) ... (v)' lists five; 'two steps: (i) ..., and (ii) ...' lists two
    out = registry()[f"nac001.count.{key}"].check(QUICK)
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.scalars == {"stated": stated, "listed": stated}


def test_cross_validation_sets_are_won_by_nac():
    # Table 1, lower is better. XJTU-SY: NAC-Exact/05s/8k 19.87 < NAC-FC 24.89 < CTA 25.86 (best baseline; CT-RNN 26.01 next);
    # HUST: NAC-Exact/05s/8k 27.82 < NAC-PW 30.14; best baseline CTA 38.41 (PhasedLSTM 38.66, CT-RNN 39.99)
    out = registry()["nac001.table1.cross_validation_first"].check(QUICK)
    assert out.verdict == Verdict.HOLDS
    a = out.evidence.arrays
    assert list(a["best_model"]) == ["NAC-Exact/05s/8k", "NAC-Exact/05s/8k"]
    assert list(a["best_score"]) == [19.87, 27.82]
    assert list(a["best_baseline"]) == ["CTA", "CTA"] and list(a["best_baseline_score"]) == [25.86, 38.41]


def test_sparsity_memory_values_are_table2s():
    # Table 2: NAC-02s 151.54 MB, NAC-09s 150.85 MB; the sentence's 'from 151.54 MB to 150.85 MB' prints them in that order
    from nacverify.checks.nac001_sentences import _sparsity_memory_values

    assert registry()["nac001.table2.sparsity_memory.values"].check(QUICK).verdict == Verdict.HOLDS
    assert _sparsity_memory_values(printed_from=150.85, printed_to=151.54).verdict == Verdict.REFUTED


def test_section_2_3_cites_the_b3_construction_counted_at_b3():
    # Section 2.3's 'We now establish ... by extending the classical UAT' announces Appendix B.3's construction, whose failing
    # step (at T = 1 the softmax over one key gives alpha = 1, so y = alpha v = 1, not sigma(w x + b)) is counted once, at B.3
    from nacverify.ledger import load_ledgers

    items = {it.item: it for it in load_ledgers(["001"])["001"].items}
    assert "nac.thm2.single_key_head_output" in items["s2.3.establish"].cites
    assert "nac.thm2.single_key_head_output.s2_3" not in registry()


def test_par_sampling_agrees_with_appendix():
    # Section 3.1: 'sampled every 211 ms'; Appendix D.3.2: 'sampled at a fixed interval of 211 ms'
    out = registry()["nac001.s3_1.par_sampling"].check(QUICK)
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.scalars == {"section_3_1_ms": 211, "appendix_d32_ms": 211}


def test_emnist_two_steps_against_the_appendix_pipeline():
    # Section 3.1 enumerates (i) and (ii); Appendix D.3.1 describes the same transformation with 'First, a threshold ... Second, each
    # 28 x 28 image is reshaped ... Third, the binary time series is encoded ... Finally, ... padded to a fixed length of 256': four steps
    assert registry()["nac001.count.emnist-steps"].check(QUICK).verdict == Verdict.HOLDS
    out = registry()["nac001.count.emnist-steps.d31"].check(QUICK)
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.scalars == {"stated_steps": 2, "appendix_steps": 4, "appendix_binarizes_first": 1}
    assert list(out.evidence.arrays["ordinals"]) == ["First", "Second", "Third", "Finally"]


def test_lane_keeping_models_are_two_different_networks():
    # Appendix D.3.3: CarRacing modifies 'the neural network architecture proposed in (Razzaq & Hongwei, 2023)' (its LNN layers
    # replaced); Udacity modifies 'the network proposed in (Bojarski et al., 2016) by replacing three latent MLP layers'
    out = registry()["nac001.s3_2.models_from_razzaq"].check(QUICK)
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness == {"task": "Udacity", "network_from": "Bojarski et al., 2016", "replaced": "three latent MLP layers"}
    assert list(out.evidence.arrays["matches_section_3_2"]) == [1, 0]
    assert registry()["nac001.s3_2.models_per_task"].check(QUICK).verdict == Verdict.HOLDS


def test_conclusion_bridges_two_readings():
    # a(t) = (phi/omega)(1 - e^{-omega t}): a' = phi e^{-omega t} = -omega a + phi, continuous on [0, oo);
    # S = Q K^T over n queries and n keys of width D in H heads: H n^2 dot products of 2 D FLOPs = 2 H D n^2, slope 2 in n
    assert registry()["nac001.s5.bridges.continuous"].check(QUICK).verdict == Verdict.HOLDS
    out = registry()["nac001.s5.bridges.quadratic"].check(QUICK)
    assert out.verdict == Verdict.REFUTED
    n = out.evidence.arrays["n"]
    assert list(out.evidence.arrays["score_flops"]) == [2 * 4 * 16 * int(k) ** 2 for k in n]
    assert out.evidence.witness["slope_flops"] == pytest.approx(2.0, abs=1e-9)


def test_bearing_protocol_against_table5():
    # Table 5: PRONOSTIA condition 1 trains on bearings 4~7 (four bearings), tests 1~3; every XJTU-SY and HUST Train cell is '-',
    # and their condition 1 tests 1~5: Bearing 1 of condition 1 is a test bearing of all three data sets
    out = registry()["nac001.table5.training_on_pronostia"].check(QUICK)
    assert out.verdict == Verdict.HOLDS and list(out.evidence.arrays["training_bearings"]) == [4, 0, 0]
    out = registry()["nac001.table5.bearing1_tested"].check(QUICK)
    assert out.verdict == Verdict.HOLDS and out.evidence.scalars["datasets_bearing1_tested"] == 3
