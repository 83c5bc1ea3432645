"""Statements 000 and 001 make twice (nacverify.checks.nac_twins and the ledgers' ``twin`` links), and the
statements of claims that test a subset of what the document quantifies over."""

import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks.nac_twins import attention_dot_flops, rnn_dot_flops
from nacverify.claims import CheckContext, Verdict, registry
from nacverify.findings import expected_verdicts, item_finding
from nacverify.ledger import load_ledgers

QUICK = CheckContext(seed=0, quick=True)
#: (000 item, 001 item) pairs linked by this change; both name each other
TWINS = [("c2.complexities", "c3.seq"), ("d3.4.pronostia", "d34.pronostia-16"), ("b3.backbone-uat", "b3.backbone-approx"),
         ("b3.phi-uat", "b3.ncp-uat"), ("b3.construct", "b3.construct"), ("b3.matches", "b3.matches"), ("b3.uat", "b3.uat"),
         ("s3.protocol", "s3.cv"), ("s2.1.1.no-overshoot", "s2.1.1.no-overshoot"), ("table4.nac-heads", "table4.nac-heads"),
         ("s2.1.motivation.ltc-ode", "s2.1.motivation.ltc-ode"), ("s2.1.motivation.ltc-plugged", "s2.lnn-motivation")] + [
    (f"count.{key}", f"count.{key}") for key in ("modes", "computational-modes", "irregular", "simulators", "bearing-datasets", "d2-subcategories")]


def _items():
    ledgers = load_ledgers(["000", "001"])
    return {doc: {it.item: it for it in led.items} for doc, led in ledgers.items()}


@pytest.mark.parametrize("n, k", [(1, 1), (3, 5), (7, 16)])
def test_rnn_and_attention_counts_by_hand(n, k):
    # Elman step: x_t W (k x k) and h U (k x k), 2 k^2 each; attention: Q K^T (n x n x k) and A V (n x n x k), 2 n^2 k each
    assert rnn_dot_flops(n, k) == 4 * n * k * k
    assert attention_dot_flops(n, k) == 4 * n * n * k


def test_rnn_nk_refuted_by_the_exact_count_and_its_reading_holds():
    r = registry()
    out = r["nac.c3.rnn.nk"].check(QUICK)
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness["dot_flops"] == 4 * 32 * 64**2 and out.evidence.witness["dot_flops_per_nk"] == 4 * 64
    assert r["nac.c3.rnn.linear_in_n"].check(QUICK).verdict == Verdict.HOLDS
    assert r["nac.c3.attention.n2k"].check(QUICK).verdict == Verdict.HOLDS


@pytest.mark.parametrize("item000, item001", TWINS)
def test_twins_name_each_other_and_are_checked_the_same_way(item000, item001):
    items = _items()
    a, b = items["000"][item000], items["001"][item001]
    assert a.twin == f"001:{item001}" and b.twin == f"000:{item000}"
    if a.twin_differs or b.twin_differs:  # their words differ, and the ledger says how (reports/FINDINGS_STANDARD.md, rule 6)
        assert len((a.twin_differs or b.twin_differs).split()) >= 5
    elif a.claims and b.claims:  # the same claims or per-version siblings (nac000.X / nac001.X); 001's c3.seq also names NAC
        same = lambda cid: (cid or "").replace("nac000.", "nac.").replace("nac001.", "nac.")  # noqa: E731
        assert {same(c) for c in a.claims} <= {same(c) for c in b.claims}
        assert same(a.charitable) == same(b.charitable) or not (a.charitable and b.charitable)  # one version may state it right
    else:
        assert not a.claims and not b.claims or item000 == "d3.4.pronostia"  # the one pair checked differently says why


def test_pronostia_000_cites_what_only_001_prints():
    """Issue 43: 000 prints the same '16 complete run-to-failure experiments' as 001 but no bearing list; 001's Table 5 (17
    bearings) is outside evidence for 000: cited, never deciding, and the twins say that their data differ."""
    items = _items()
    a, b = items["000"]["d3.4.pronostia"], items["001"]["d34.pronostia-16"]
    assert not a.claims and list(a.cites) == list(b.claims) == ["nac001.d34.pronostia.sixteen"]
    assert a.twin_differs.startswith("data:")
    r = registry()
    assert item_finding(a, expected_verdicts(r), r).finding == "not-checkable" and item_finding(b, expected_verdicts(r), r).finding == "error"


@pytest.mark.parametrize("doc, item", [("000", "c2.complexities"), ("001", "c3.seq")])
def test_rnn_sentence_is_an_error(doc, item):
    """Before: 000's sentence was 'external' (not checkable) and 001's held, then both depended on the reading; reading 'O(nk)'
    as 'linear in n' drops the k the sentence sets up, so the kinder reading is a correction and the RNN's O(nk) fails."""
    r = registry()
    it = _items()[doc][item]
    assert it.charitable == "nac.c3.rnn.nk"
    assert item_finding(it, expected_verdicts(r), r).finding == "error"


@pytest.mark.parametrize("regime", ["slow", "fast", "oscillatory"])
def test_thm3_bound_claims_say_which_subset_they_test(regime):
    r = registry()
    for cid in (f"nac.thm3.bound.{regime}", f"nac.thm3.bound.{regime}.sweep"):
        claim = r[cid]
        assert "not Theorem 3's quantifier over every admissible phi, omega" in claim.statement, cid
        assert claim.assumptions.startswith("Theorem 3 quantifies over every phi, omega Lipschitz") and "tested:" in claim.assumptions, cid


@pytest.mark.parametrize("doc, item, expected", [
    ("000", "abstract.guarantees", "depends-on-reading"),  # the theorems hold; 'rigorous' read as 'the printed proofs establish them' fails
    ("000", "s5.guarantees", "depends-on-reading"),
    ("000", "s2.1.1.no-overshoot", "depends-on-reading"),  # the ODE reading holds; the Euler mode Section 2.1 also names overshoots
    ("001", "s2.1.1.no-overshoot", "depends-on-reading"),
    ("001", "s2.2.analogous", "error"),  # an affine phi cannot equal q.k: no kinder reading of 'linear projection'
    ("000", "s2.1.motivation.ltc-ode", "slip"),  # x/tau + S lacks the leak's minus: a changed sign is a correction, the meaning unique
    ("001", "s2.1.motivation.ltc-ode", "slip"),
])
def test_defended_items_have_their_finding(doc, item, expected):
    """Before: these items had a refuted document claim and no charitable reading (finding 'inconclusive', listed by
    missing_defenses; 000's no-overshoot did not carry nac.thm1.euler and 'held')."""
    r = registry()
    it = _items()[doc][item]
    assert it.charitable in it.claims and it.defense
    assert item_finding(it, expected_verdicts(r), r).finding == expected


def test_count_parser_by_hand():
    from nacverify.checks.nac_twins import stated_and_listed

    assert stated_and_listed("requiring three inputs: a (x, y), b, and c")[:2] == (3, 3)
    assert stated_and_listed("two things: (i) A; (ii) B; and (iii) C.")[:2] == (2, 3)
    assert stated_and_listed("four groups:", ("A", "B", "C"))[:2] == (4, 3)


def test_d2_subcategories_against_the_seed_text():
    """001 D.2 says 'four subcategories' and three bold headings follow before Figure 4 (Top-K Ablations, Sparsity
    Ablations, Modes variants); 000's D.2 says five and heads five paragraphs."""
    from nacverify.ledger import find_seeds_dir

    seeds = find_seeds_dir()
    if seeds is None:
        pytest.skip("seeds not found")
    text = (seeds / "001_9075dda04a2ad935.txt").read_text(encoding="utf-8")
    start = text.index("also divided into four subcategories:")
    section = text[start:text.index("_Figure 4._", start)]
    assert section.count("Ablations:**") + section.count("variants:**") == 3
    out = registry()["nac001.count.d2-subcategories"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness == {"stated": 4, "listed": 3}
    assert registry()["nac000.count.d2-subcategories"].check(QUICK).verdict == Verdict.HOLDS


def test_table4_heads_by_hand():
    """100/20 = 5 (000) but 100/16 = 6.25 (001, Udacity); every other column divides."""
    from nacverify.checks.nac_twins import TABLE4_NAC, table4_heads

    assert table4_heads(TABLE4_NAC["000"]) == [(64, 8), (32, 4), (64, 16), (100, 20), (16, 8)]
    assert table4_heads(TABLE4_NAC["001"])[3] == (100, 16)
    out = registry()["nac001.table4.heads_divide"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness["d_model_over_heads"] == 6.25
    assert registry()["nac000.table4.heads_divide"].check(QUICK).verdict == Verdict.HOLDS


def test_counted_sentences_are_the_ledger_quotes():
    from nacverify.checks.nac_twins import COUNTED, TABLE4_NAC

    items = _items()
    for doc, key, sentence, _ in COUNTED:
        it = next(i for i in items[doc].values() if f"nac{doc}.count.{key}" in i.claims)
        assert it.quote == sentence, key
    for doc in ("000", "001"):
        assert items[doc]["table4.nac-heads"].quote == TABLE4_NAC[doc]


def test_000_d4_comparisons_from_table5_by_hand():
    """000's Table 5 prints NAC-09s 150.85 MB, NAC-02s 151.54 MB (90% -> 20% raises memory), 14 NAC rows of which the
    four FC ablations (0.0495-0.0588 s) run faster than CfC (6.0988 s), and CTA 1.43 MB below NAC-2k's 44.75 MB."""
    r = registry()
    out = r["nac000.d4.sparsity_memory.direction"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness == {"NAC-09s_memory_mb": 150.85, "NAC-02s_memory_mb": 151.54}
    out = r["nac000.d4.runtime_between"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.scalars["flips_at"] == pytest.approx(10 / 14)
    assert r["nac000.d4.runtime_between"].threshold and r["nac000.d4.runtime_between.ncp"].check(QUICK).verdict == Verdict.HOLDS
    out = r["nac000.d4.nac2k_least_memory"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.scalars["rows_failing"] == 5
    assert r["nac000.d4.memory_below_mtan.default"].check(QUICK).verdict == Verdict.HOLDS
    assert r["nac000.d4.topk_memory"].check(QUICK).verdict == Verdict.HOLDS
    items = _items()
    for a, b in [("d4.intermediate", "s3.4.intermediate"), ("d4.mtan", "s3.4.mtan"), ("d4.nac2k-least", "s3.4.nac2k-least"),
                 ("d4.sparsity-memory", "s3.4.sparsity-memory"), ("d4.topk-memory", "s3.4.topk-memory")]:
        assert items["000"][a].twin == f"001:{b}" and items["001"][b].twin == f"000:{a}"
    assert item_finding(items["000"]["d4.sparsity-memory"], expected_verdicts(r), r).finding == "slip"  # the direction only, meaning fixed by the numbers
    assert item_finding(items["000"]["d4.mtan"], expected_verdicts(r), r).finding == "holds"  # only "every NAC row", our quantifier, fails (rule 4)


def test_undeclared_reads_by_hand():
    from nacverify.checks.nac_twins import undeclared_reads

    alg = {"require": ("a",), "body": ((("b",), ("a", "c")), (("c",), ("b",)), (("d",), ("c", "e")))}
    assert undeclared_reads(alg) == ["c", "e"]  # c is read before the line that computes it; e is never given


def test_algorithm_inputs_against_the_seed_text():
    """001's Algorithm 2 declares 'Keys K ... Top-K value K' and its first line reads Q; 000's declares 'Queries Q' first."""
    from nacverify.ledger import find_seeds_dir

    r = registry()
    out = r["nac001.alg2.inputs"].check(QUICK)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness == {"undeclared": "Q"}
    assert r["nac000.alg2.inputs"].check(QUICK).verdict == Verdict.HOLDS
    for doc in ("000", "001"):
        assert r[f"nac{doc}.alg1.inputs"].check(QUICK).evidence.witness == {"undeclared": "u_t, x_t-1"}
        assert r[f"nac{doc}.alg1.inputs.cell_step"].check(QUICK).verdict == Verdict.HOLDS
    seeds = find_seeds_dir()
    if seeds is not None:
        lines = (seeds / "001_9075dda04a2ad935.txt").read_text(encoding="utf-8").splitlines()
        assert lines[444].startswith("**Require:** Keys") and "Quer" not in lines[444]
        assert "_S ←_ _Q · K_" in " ".join(lines[445:460])
    items = _items()
    assert item_finding(items["001"]["alg2.io"], expected_verdicts(r), r).finding == "slip"  # an omitted input, Q, that 000 declares
    assert item_finding(items["000"]["alg2.io"], expected_verdicts(r), r).finding == "holds"
    assert item_finding(items["001"]["alg1.io"], expected_verdicts(r), r).finding == "slip"  # treated as alg2.io: omitted u_t, x_{t-1}
