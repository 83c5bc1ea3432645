"""Findings (nacverify/findings.py): one verdict about the document per ledger item.

Each test builds ledger items and claims by hand, gives the claims verdicts, and states the
finding the module docstring's rules give for them (worked out here, not by the code)."""

from __future__ import annotations

import pytest

import nacverify.catalog  # noqa: F401
from nacverify.claims import Claim, Kind, Outcome, Verdict, registry
from nacverify.findings import FINDINGS, expected_verdicts, finding_counts, findings, item_finding, missing_defenses
from nacverify.ledger import DocumentLedger, LedgerItem, load_ledgers

H, F, I, N = Verdict.HOLDS, Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.INAPPLICABLE


def _claim(cid: str, kind: Kind, expected: Verdict = H, threshold: str = "") -> Claim:
    return Claim(id=cid, source="X.txt, eq. 1", statement=cid, assumptions="none", expected=expected, expected_reason="by hand",
                 check=lambda ctx: Outcome(expected, "constant (never run)"), group="test", kind=kind,
                 reading="a named reading" if kind == Kind.READING else "", threshold=threshold)


CLAIMS = {c.id: c for c in [
    _claim("x.printed", Kind.AS_PRINTED, F),
    _claim("x.kind", Kind.READING),
    _claim("x.kind.fails", Kind.READING, F),
    _claim("x.kind.ours", Kind.READING, F, threshold="one std is our tolerance"),
    _claim("x.impl", Kind.IMPLEMENTATION, F),
    _claim("x.lemma", Kind.LEMMA),
    _claim("x.fix", Kind.CORRECTION),
]}


def _item(claims=(), charitable=None, defense="", **extra) -> LedgerItem:
    return LedgerItem(document="X", item="s1", type="sentence", location="Section 1", line=1, quote="a statement",
                      claims=tuple(claims), charitable=charitable, defense=defense, **extra)


def _finding(item: LedgerItem, **verdicts: Verdict) -> str:
    named = {cid.replace("_", "."): v for cid, v in verdicts.items()}
    return item_finding(item, named, CLAIMS).finding


def test_charitable_reading_refuted_without_threshold_is_an_error():
    item = _item(["x.printed", "x.kind.fails"], charitable="x.kind.fails", defense="the kindest reading fails too")
    assert _finding(item, x_printed=F, x_kind_fails=F) == "error"


def test_charitable_reading_holding_makes_it_depend_on_the_reading():
    item = _item(["x.printed", "x.kind"], charitable="x.kind", defense="read kindly it holds")
    f = item_finding(item, {"x.printed": F, "x.kind": H}, CLAIMS)
    assert f.finding == "depends-on-reading"
    assert "read kindly it holds" in f.defense and "x.kind holds" in f.defense


def test_charitable_reading_refuted_only_through_our_threshold_depends_on_the_reading():
    item = _item(["x.printed", "x.kind.ours"], charitable="x.kind.ours", defense="within one std it would match")
    f = item_finding(item, {"x.printed": F, "x.kind.ours": F}, CLAIMS)
    assert f.finding == "depends-on-reading"
    assert "one std is our tolerance" in f.defense


def test_the_same_item_is_an_error_once_the_threshold_is_the_documents():
    # identical verdicts, but the charitable claim carries no threshold of ours
    item = _item(["x.printed", "x.kind.fails"], charitable="x.kind.fails", defense="d")
    assert _finding(item, x_printed=F, x_kind_fails=F) == "error"
    assert _finding(item, x_printed=F, x_kind_fails=H) == "depends-on-reading"


def test_refuted_implementation_claim_does_not_accuse_the_document():
    item = _item(["x.kind", "x.impl"])
    assert _finding(item, x_kind=H, x_impl=F) == "holds"
    # nothing about the document decided: the implementation's refutation still accuses nobody
    assert _finding(_item(["x.impl"]), x_impl=F) == "inconclusive"


def test_lemma_and_correction_claims_never_accuse():
    assert _finding(_item(["x.lemma", "x.fix"]), x_lemma=F, x_fix=F) == "inconclusive"
    assert _finding(_item(["x.kind", "x.lemma", "x.fix"]), x_kind=H, x_lemma=F, x_fix=F) == "holds"


def test_holds_needs_a_decided_document_claim():
    assert _finding(_item(["x.kind", "x.printed"]), x_kind=H, x_printed=H) == "holds"
    assert _finding(_item(["x.kind", "x.printed"]), x_kind=H, x_printed=I) == "inconclusive"
    assert _finding(_item(["x.kind", "x.printed"]), x_kind=N, x_printed=N) == "inconclusive"  # none holds


def test_refuted_without_a_charitable_reading_is_inconclusive_not_an_error():
    f = item_finding(_item(["x.printed"]), {"x.printed": F}, CLAIMS)
    assert f.finding == "inconclusive"
    assert "no charitable reading" in f.defense


def test_undecided_charitable_reading_is_inconclusive():
    item = _item(["x.printed", "x.kind"], charitable="x.kind", defense="d")
    assert _finding(item, x_printed=F, x_kind=I) == "inconclusive"


def test_item_without_claims_is_not_checkable():
    item = _item(not_checkable={"reason": "external", "why": "needs the authors' runs"})
    f = item_finding(item, {}, CLAIMS)
    assert (f.finding, f.defense) == ("not-checkable", "needs the authors' runs")


def test_every_finding_value_is_reached_and_counted_once_per_item():
    items = [
        _item(["x.printed", "x.kind.fails"], charitable="x.kind.fails", defense="d"),  # error
        _item(["x.printed", "x.kind.fails"], charitable="x.kind.fails", defense="d", slip="meant: y"),  # slip
        _item(["x.printed", "x.kind"], charitable="x.kind", defense="d"),  # depends-on-reading
        _item(["x.impl"]),  # inconclusive
        _item(["x.kind", "x.impl"]),  # holds
        _item(not_checkable={"reason": "external", "why": "w"}),  # not-checkable
    ]
    items = [LedgerItem(**{**it.__dict__, "item": f"s{k}"}) for k, it in enumerate(items)]
    ledger = {"X": DocumentLedger("X", "X.txt", "title", tuple(items))}
    verdicts = {"x.printed": F, "x.kind.fails": F, "x.kind": H, "x.impl": F}
    out = findings(ledger, verdicts, CLAIMS)
    assert [f.finding for f in out] == list(FINDINGS) == ["error", "slip", "depends-on-reading", "inconclusive", "holds", "not-checkable"]
    assert finding_counts(out) == {"X": {name: 1 for name in FINDINGS}}
    # an item whose claims were not all run is left out, not guessed
    assert len(findings(ledger, {k: v for k, v in verdicts.items() if k != "x.impl"}, CLAIMS)) == 4


def test_a_threshold_of_ours_never_accuses_the_refutation_is_a_measurement():
    # rule 4: the only refuted claim turns on our tolerance; the statement holds and the flip is named in the defence
    f = item_finding(_item(["x.kind.ours", "x.kind"]), {"x.kind.ours": F, "x.kind": H}, CLAIMS)
    assert f.finding == "holds" and "one std is our tolerance" in f.defense and f.accusing == ()
    assert _finding(_item(["x.kind.ours"]), x_kind_ours=F) == "holds"  # the measurement alone decides, as a statement that holds


def test_a_correction_that_holds_beside_a_refuted_printed_claim_is_an_error_never_a_reading():
    # rule 1: the printed statement is true only once corrected; a kinder reading registered beside it does not soften that
    item = _item(["x.printed", "x.fix", "x.kind"], charitable="x.kind", defense="d")
    assert _finding(item, x_printed=F, x_fix=H, x_kind=H) == "error"
    assert _finding(LedgerItem(**{**item.__dict__, "slip": "meant: y"}), x_printed=F, x_fix=H, x_kind=H) == "slip"
    # the correction alone, with the printed claim holding, accuses nothing
    assert _finding(item, x_printed=H, x_fix=H, x_kind=H) == "holds"


def test_cited_claims_are_shown_but_do_not_decide():
    # rule 5: the refutation is owned elsewhere; this item cites it and is judged by what it tests
    item = _item(["x.kind"], cites=("x.printed",))
    f = item_finding(item, {"x.kind": H, "x.printed": F}, CLAIMS)
    assert f.finding == "holds" and f.cited == (("x.printed", "as-printed", "refuted"),)
    assert f.to_json()["claims"] == [{"id": "x.kind", "kind": "reading", "verdict": "holds", "role": "tests"},
                                     {"id": "x.printed", "kind": "as-printed", "verdict": "refuted", "role": "cites"}]


def test_an_untested_part_keeps_a_finding_inconclusive():
    # rule 8: a check of a weaker statement cannot decide 'holds'
    assert _finding(_item(["x.kind"], untested="whether it is learned"), x_kind=H) == "inconclusive"
    # but an accusing reading refuted beside a holding charitable one is depends-on-reading, whatever is left untested (issue 43)
    item = _item(["x.printed", "x.kind"], charitable="x.kind", defense="d", untested="whether it is learned")
    assert _finding(item, x_printed=F, x_kind=H) == "depends-on-reading"


def test_missing_defenses_lists_exactly_the_undefended_refutations():
    items = (
        _item(["x.printed"]),  # expected refuted, no defence: listed
        LedgerItem(**{**_item(["x.printed", "x.kind"], charitable="x.kind").__dict__, "item": "s2"}),  # charitable but no defence text: listed
        LedgerItem(**{**_item(["x.printed", "x.kind"], charitable="x.kind", defense="d").__dict__, "item": "s3"}),  # defended
        LedgerItem(**{**_item(["x.impl"]).__dict__, "item": "s4"}),  # only an implementation refuted: nothing to defend
    )
    listed = missing_defenses({"X": DocumentLedger("X", "X.txt", "t", items)}, CLAIMS)
    assert [m.split(":")[1] for m in listed] == ["s1", "s2"]


@pytest.mark.parametrize("doc", ["000", "001"])
def test_every_refuted_nac_statement_names_its_charitable_reading_and_defense(doc):
    claims = registry()
    assert [m for m in missing_defenses(load_ledgers([doc]), claims)] == []
    # and with the repository's expected verdicts no item of the document is left without a finding
    assert not any("no charitable reading" in f.defense for f in findings(load_ledgers([doc]), expected_verdicts(claims), claims))
