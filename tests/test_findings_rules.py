"""The rules of issue 43 that `standard_problems` catches (nacverify.findings.rule_problems), each on a ledger built by
hand: the defect the reviews found, the problem it must raise, and the mended ledger that raises none.

Every case is shaped on a named case of the issue (000 table3, 000 b1.2.slow / table2.slow, 000 s3.5.topk, 001
alg1.input-mask, 001 eq47.interp.transient, 001 d34.xjtu-loads, abs.accuracy's twins)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from nacverify.claims import Claim, Kind, Outcome, Verdict
from nacverify.findings import item_finding, standard_problems
from nacverify.ledger import DocumentLedger, LedgerItem

H, F = Verdict.HOLDS, Verdict.REFUTED


def _claim(cid: str, kind: Kind, expected: Verdict, source: str, outside: str = "") -> Claim:
    return Claim(id=cid, source=source, statement=cid, assumptions="none", expected=expected, expected_reason="by hand",
                 check=lambda ctx: Outcome(expected, "never run"), group="test", kind=kind,
                 reading="a named reading" if kind == Kind.READING else "", outside=outside)


CLAIMS = {c.id: c for c in [
    # the prose sentence and its restatement on Table 3's RNN row (same printed order O(nk))
    _claim("rnn.nk", Kind.AS_PRINTED, F, "X.txt, C.2, 'RNNs scale linearly, O(nk)'"),
    _claim("rnn.nk.table3", Kind.AS_PRINTED, F, "X.txt, Table 3, RNN row, 'O(nk)'"),
    _claim("table3.caption", Kind.AS_PRINTED, H, "X.txt, Table 3 caption, 'Sequence and time-step prediction complexity'"),
    # the prose of B.1.2 and Table 2's slow row: the same four numbers
    _claim("slow", Kind.AS_PRINTED, F, "X.txt, Table 2, 'Slow 1.87 3.05 0.50 0.26'"),
    _claim("slow.b12", Kind.AS_PRINTED, F, "X.txt, B.1.2, 'mean error 1.87% and max 3.05% with phi 0.5% and omega 0.26%'"),
    _claim("slow.other", Kind.AS_PRINTED, F, "X.txt, B.1.2, 'the error stays predictable and bounded'"),
    _claim("charitable", Kind.READING, H, "X.txt, a reading"),
    _claim("accusing.reading", Kind.READING, F, "X.txt, another reading"),
    _claim("public.code", Kind.IMPLEMENTATION, Verdict.INCONCLUSIVE, "the public TF code, 'input_mask'", outside="the public TF code"),
]}
VERDICTS = {cid: c.expected for cid, c in CLAIMS.items()}


def _item(doc: str, name: str, **fields) -> LedgerItem:
    base = {"type": "sentence", "location": "Appendix C.2", "line": 10, "quote": "words"}
    return LedgerItem(document=doc, item=name, **{**base, **fields})


def _problems(*items: LedgerItem) -> list[str]:
    docs = defaultdict(list)
    for it in items:
        docs[it.document].append(it)
    ledgers = {d: DocumentLedger(d, f"{d}.txt", "t", tuple(v)) for d, v in docs.items()}
    return standard_problems(ledgers, CLAIMS, VERDICTS, reviews=False)


PROSE = _item("A", "c2.complexities", quote="RNNs scale linearly, O(nk)", claims=("rnn.nk", "accusing.reading"),
              charitable="accusing.reading", defense="no reading holds")


def test_a_caption_accuses_only_through_its_own_words():
    """000 table3: the caption item tested the RNN row's claim (words of the row, not of the caption)."""
    caption = _item("A", "table3", type="table", location="Table 3 (caption)", line=30,
                    quote="Table 3: Sequence and time-step prediction complexity.", claims=("table3.caption", "slow.other"),
                    charitable="slow.other", defense="none")
    assert _problems(caption) == [
        "A:table3: a table (Table 3 (caption)) accuses through slow.other, a claim about other words; cite it"]
    mended = replace(caption, claims=("table3.caption",), cites=("slow.other",), charitable=None, defense="")
    assert _problems(mended) == []


def test_one_defect_in_prose_and_again_in_its_table_row_is_one_item():
    """000 b1.2.slow repeats the four numbers of table2.slow; 000 c2.complexities and table3 share the RNN row's O(nk)."""
    row = _item("A", "table2.slow", type="table-cell", location="Table 2, Slow row", line=12, quote="Slow 1.87 3.05 0.50 0.26",
                claims=("slow", "charitable"), charitable="charitable", defense="d")
    prose = _item("A", "b1.2.slow", location="Appendix B.1.2", line=11, quote="mean error 1.87% and max 3.05%",
                  claims=("slow.b12", "charitable"), charitable="charitable", defense="d")
    assert _problems(row, prose) == [
        "A: b1.2.slow and table2.slow accuse through one proposition (slow.b12/slow) on the same printed numbers "
        "(0.26, 0.5, 1.87, 3.05); one owns it, the other cites it"]
    assert _problems(row, replace(prose, claims=("charitable",), cites=("slow",), charitable=None, defense="")) == []
    # a restatement on other numbers (the prose's own 'bounded') is a statement of its own words
    other = replace(prose, claims=("slow.other", "charitable"))
    assert _problems(row, other) == []
    # the same restatement in the abstract is a summary: tested where it is said
    summary = replace(prose, location="Abstract")
    assert _problems(row, summary) == []
    # a table row restating the prose's order on the same printed O(nk)
    table_row = _item("A", "table3.rnn", type="table-cell", location="Table 3, RNN row", line=30, quote="RNN O(nk) O(k)",
                      claims=("rnn.nk.table3", "charitable"), charitable="charitable", defense="d")
    assert _problems(PROSE, table_row) == [
        "A: c2.complexities and table3.rnn accuse through one proposition (rnn.nk/rnn.nk.table3) on the same printed "
        "numbers (O(nk)); one owns it, the other cites it"]


def test_an_untested_part_says_why_no_claim_decides_it():
    """000 s3.5.topk left 'the benefits diminish' untested although Table 1 decides it."""
    topk = _item("A", "s3.5.topk", claims=("charitable",), untested="the benefits diminish")
    assert _problems(topk) == [
        "A:s3.5.topk: untested part without an untested_reason from needs-authors-data, needs-authors-hardware, qualitative, "
        "external, intent: a part that the document's own tables, equations or code decide gets a claim"]
    assert _problems(replace(topk, untested_reason="needs-authors-data")) == []
    assert _problems(replace(topk, untested_reason="definition")) != []  # a definition asserts nothing to leave untested


def test_outside_evidence_is_cited_never_tested():
    """001 alg1.input-mask was inconclusive through the public code."""
    mask = _item("A", "alg1.input-mask", type="algorithm", location="Algorithm 1, line 3", claims=("public.code",))
    assert _problems(mask) == ["A:alg1.input-mask: tests public.code, which rests on outside evidence (the public TF code); cite it"]
    mended = replace(mask, claims=(), cites=("public.code",), not_checkable={"reason": "definition", "why": "defines the mask"})
    assert _problems(mended) == []


def test_an_error_beside_a_holding_reading_says_why_the_reading_fails():
    """001 eq47.interp.transient: error while its reading with a free a0 holds."""
    error = _item("A", "eq47", claims=("slow.other", "accusing.reading", "charitable"), charitable="accusing.reading",
                  defense="no reading holds")
    assert item_finding(error, VERDICTS, CLAIMS).finding == "error"
    assert _problems(error) == [
        "A:eq47: error beside the holding reading charitable: the defence says why that reading breaks the words or the "
        "scope, or the item is depends-on-reading"]
    assert _problems(replace(error, defense="charitable narrows 'every a0' to one a0: it breaks the scope")) == []
    # or the holding reading is the charitable one: depends-on-reading
    assert item_finding(replace(error, charitable="charitable"), VERDICTS, CLAIMS).finding == "depends-on-reading"


def test_an_accusation_beside_a_holding_charitable_reading_is_depends_on_reading_even_with_an_untested_part():
    """Before: inconclusive whenever `untested` was set (000 s3.5.topk's pattern)."""
    item = _item("A", "s1", claims=("accusing.reading", "charitable"), charitable="charitable", defense="d",
                 untested="a clause", untested_reason="qualitative")
    assert item_finding(item, VERDICTS, CLAIMS).finding == "depends-on-reading"


def test_two_places_that_contradict_each_other_name_the_wrong_one_and_count_once():
    """001 d34.xjtu-loads: the sentence's 12/11/10 kN are right; Table 5's XJTU-SY cells repeat its PRONOSTIA rows."""
    cells = _item("A", "table5.xjtu-loads", type="table-cell", location="Table 5, XJTU-SY rows", claims=("slow.other", "accusing.reading"),
                  charitable="accusing.reading", defense="d", contradicts="d34.xjtu-loads")
    sentence = _item("A", "d34.xjtu-loads", claims=("charitable",))
    assert _problems(cells, sentence) == [
        "A:table5.xjtu-loads: contradicts d34.xjtu-loads but does not say which place is wrong (blame)"]
    blamed = replace(cells, blame="the cells repeat the PRONOSTIA rows (4/4.2/5 kN): the table is wrong")
    assert _problems(blamed, sentence) == []
    twice = replace(sentence, claims=("slow.other", "accusing.reading"), charitable="accusing.reading", defense="d")
    assert _problems(blamed, twice)[-1] == "A:table5.xjtu-loads: contradicts d34.xjtu-loads, and both accuse through the same claims; count it once"


def test_twins_that_differ_say_whether_words_or_data_differ():
    """abs.accuracy: 000 depends-on-reading, 001 error, with the same words and the same printed gap."""
    first = _item("A", "abs", claims=("accusing.reading", "charitable"), charitable="charitable", defense="d", twin="B:abs")
    second = _item("B", "abs", claims=("accusing.reading",), charitable="accusing.reading", defense="d", twin="A:abs")
    assert _problems(first, second) == [
        "A:abs: depends-on-reading, but its twin B:abs is error (equal findings, or twin_differs)",
        "B:abs: error, but its twin A:abs is depends-on-reading (equal findings, or twin_differs)"]
    vague = replace(second, twin_differs="B is shorter")
    assert _problems(first, vague) == ["B:abs: twin_differs must say what differs: begin with 'words:' or 'data:'"]
    assert _problems(first, replace(second, twin_differs="data: B's table prints a wider std")) == []
