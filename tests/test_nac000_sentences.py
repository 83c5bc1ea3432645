"""Claims nac000.ledger.* (nacverify.checks.nac000_sentences) and the incoming ledger items of document 000 that use them.

Every expected value below is read off the document by hand (the seed's line is named), not from the module under test."""

import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks import nac000_sentences
from nacverify.claims import CheckContext, Verdict, registry
from nacverify.ledger import load_ledgers

QUICK = CheckContext(seed=0, quick=True)


def _outcome(claim_id: str):
    return registry()[claim_id].check(QUICK)


# Headings and captions as printed (000, lines 289, 311, 418, 478, 523, 559, 102, 101, 172, 244, 252, 409, 579, 581, 410, 531, 582).
HOLDING_XREFS = ["appendix_a2", "appendix_b1", "appendix_b2", "appendix_b3", "appendix_c2", "appendix_d31", "algorithm1", "figure1a", "figure2",
                 "figure3", "figure4", "figure5", "figure6", "figure7", "table2", "table3", "table4", "mode_equations"]


@pytest.mark.parametrize("suffix", HOLDING_XREFS)
def test_cross_references_hold(suffix):
    claim = registry()[f"nac000.ledger.xref.{suffix}"]
    assert claim.expected == Verdict.HOLDS
    assert _outcome(claim.id).verdict == Verdict.HOLDS


def test_xref_b2_names_the_heading_line():
    # line 418: 'B.2 Proof of Theorem 1'
    out = _outcome("nac000.ledger.xref.appendix_b2")
    assert out.evidence.scalars["line"] == 418 and out.evidence.scalars["heading"] == "B.2 Proof of Theorem 1"


def test_xref_fails_on_a_missing_label_and_a_wrong_topic():
    # a figure the document does not have, and Figure 3 ('Degradation Estimation Results', line 244) asked for saliency maps
    assert nac000_sentences._xref("Figure 9:", ("anything",)).verdict == Verdict.REFUTED
    assert nac000_sentences._xref("Figure 3:", ("Saliency",)).verdict == Verdict.REFUTED


def test_table1_details_pointer_d3_is_refuted_and_appendix_d_holds():
    # Section 3 (line 192) lists baselines, ablations, environments, data, preprocessing, architectures 'in Appendix D.3'.
    # D.3 (lines 557-643) has datasets, 'Preprocessing', 'Neural Network Architecture', simulators, 'Baselines Hyperparameters
    # Clarification', but never the word 'ablation'; the ablations are D.2 'Ablations Details' (line 548).
    out = _outcome("nac000.ledger.xref.table1_details_d3")
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness["missing"] == "ablations"
    assert _outcome("nac000.ledger.xref.table1_details_appendix_d").verdict == Verdict.HOLDS
    assert registry()["nac000.ledger.xref.table1_details_appendix_d"].kind.value == "correction"


@pytest.mark.parametrize("suffix, stated", [("design_steps", 5), ("emnist_steps", 2), ("b2_parts", 2), ("d1_subcategories", 4)])
def test_counts(suffix, stated):
    # line 134 lists (i)-(v); line 236 (i)-(ii); line 420 (i)-(ii); D.1 (lines 543-546): DT-RNNs, CT-RNNs, DT-Attentions, CT-Attentions
    out = _outcome(f"nac000.ledger.count.{suffix}")
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.scalars["stated"] == stated and out.evidence.scalars["listed"] == stated


def test_d1_headings_are_the_four_families():
    assert nac000_sentences._d1_headings() == ("DT-RNNs", "CT-RNNs", "DT-Attentions", "CT-Attentions")


def test_784():
    out = _outcome("nac000.ledger.emnist_784")
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.scalars["product"] == 28 * 28 == 784 and out.evidence.scalars["printed"] == 784


def test_eq42_is_eq34_and_derivation_steps():
    # lines 365 and 401 print the same LaTeX bound; -w (a - A) = 0 with w > 0 only at a = A; softmax over one logit is 1
    out = _outcome("nac000.ledger.thm3.eq42_is_eq34")
    assert out.verdict == Verdict.HOLDS and out.evidence.scalars["eq34_line"] == 365 and out.evidence.scalars["eq42_line"] == 401
    assert _outcome("nac000.ledger.b2.unique_equilibrium").evidence.scalars["roots"] == 1
    single = _outcome("nac000.ledger.b3.single_key_softmax")
    assert single.verdict == Verdict.HOLDS and single.evidence.scalars["max_deviation"] == 0.0


def test_table4_heads_and_losses():
    # line 586: 32–10(SM) 32–11(SM) 64–5(SM) 64–1(Lin) 1(Lin); digits 0-9 (line 561), eleven activities (567), five actions (573)
    out = _outcome("nac000.ledger.table4.output_heads")
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.arrays["printed_width"].tolist() == [10, 11, 5, 1, 1] == out.evidence.arrays["needed_width"].tolist()
    # line 590: SCE SCE SCE MSE MSE
    assert _outcome("nac000.ledger.table4.loss_matches_head").verdict == Verdict.HOLDS


def test_baseline_families_in_table1():
    # D.1 names RNN, LSTM, GRU | CT-RNN ... S4 | Attention, Multihead attention, Linear Attention, Performer | mTAN, CTA, ODEFormer,
    # ContiFormer; Table 1 (lines 197-229) has 14 NAC rows
    out = _outcome("nac000.ledger.s3.baseline_families")
    assert out.verdict == Verdict.HOLDS and out.evidence.scalars["nac_rows"] == 14
    assert out.evidence.arrays["rows_in_table1"].tolist() == [3, 8, 3, 4]  # 'Multihead attention' is Table 1's 'MHA'


def test_attention_timestep_is_4nk():
    # one query q (k) against K, V (n x k): K q is 2 n k FLOPs, the weighted sum of V 2 n k: 4 * 32 * 32 = 4096 at n = k = 32
    out = _outcome("nac000.ledger.table3.attention_timestep")
    assert out.verdict == Verdict.HOLDS
    assert out.evidence.arrays["dot_flops_vs_n"].tolist() == [4 * n * 32 for n in (8, 16, 32, 64)]


def test_every_new_claim_gives_its_expected_verdict():
    for claim in nac000_sentences.ledger000_claims():
        assert claim.check(QUICK).verdict == claim.expected, claim.id


def test_jaxpr_stats_works_in_a_fresh_process():
    """_costs.jaxpr_stats walks sub-jaxprs through jax.extend.core, a submodule `import jax` does not load: in a process that imported
    nothing else it raised AttributeError (module 'jax' has no attribute 'extend') before _costs imported jax.extend itself."""
    import subprocess
    import sys

    code = ("from nacverify.checks._costs import _sds, jaxpr_stats\n"
            "import jax.numpy as jnp\n"
            "print(jaxpr_stats(lambda a, b: jnp.tanh(a @ b), _sds(3, 4), _sds(4, 5))['dot_flops'])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == str(2 * 3 * 5 * 4)  # 2 x output elements (3 x 5) x contracted size 4


def test_single_connection_and_figure1_gates():
    # Theorem 1 with M = 1: A^min = A^max = f_phi/f_omega = f_phi/omega_tau, so eq. 4 is eq. 5 (lines 48, 52)
    assert _outcome("nac000.ledger.thm1.single_connection").evidence.scalars["equal"] == 1
    # eq. 13 (lines 138-139): G_input = G_output = [N_s], D = [N_i, N_c, N_m]; eq. 14 (lines 143-144): [N_i] -> [N_m], D = [N_s]
    assert nac000_sentences._groups(r"G_{\text{output}}=[N_{s}],\mathcal{D}=[N_{i},N_{c},N_{m}]", r"\mathcal{D}") == ("i", "c", "m")
    out = _outcome("nac000.ledger.fig1.gates")
    assert out.verdict == Verdict.HOLDS and out.evidence.scalars == {"panel_b": 1, "panel_c": 1}
