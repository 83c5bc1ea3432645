"""The enforceable rules of the labelling standard (reports/FINDINGS_STANDARD.md), on the repository's own ledgers,
and `standard_problems` catching each kind of defect on ledgers built by hand.

The hand-built cases state the defect and the problem it must raise; the ledger-wide tests state the rule directly
over the ledgers and the registry (not through `standard_problems`), so that a change to the function cannot make
them pass by itself."""

from __future__ import annotations

from collections import defaultdict

import pytest

import nacverify.catalog  # noqa: F401  (registers every claim provider)
from nacverify.claims import DOCUMENT_KINDS, Claim, Kind, Outcome, Verdict, registry
from nacverify.findings import ACCUSING, expected_verdicts, findings, owners, standard_problems
from nacverify.ledger import DocumentLedger, LedgerItem, load_ledgers

H, F = Verdict.HOLDS, Verdict.REFUTED


@pytest.fixture(scope="module")
def world():
    claims = registry()
    return claims, expected_verdicts(claims), load_ledgers()


def _accuses(claim, verdict) -> bool:
    return Kind(claim.kind) in DOCUMENT_KINDS and verdict == F and not claim.threshold


def test_every_refutation_is_tested_by_one_item_of_a_document_at_most_and_by_some_item(world):
    claims, verdicts, ledgers = world
    tested, named = defaultdict(list), defaultdict(set)
    for doc, led in ledgers.items():
        for it in led.items:
            for cid in it.claims:
                tested[(doc, cid)].append(it.item)
            for cid in it.claims + it.cites:
                named[cid].add(doc)
    for cid, docs in named.items():
        if not _accuses(claims[cid], verdicts[cid]):
            continue
        # at most one owner per document (a document whose words do not say it may only cite it), and an owner somewhere
        for doc in docs:
            assert len(tested[(doc, cid)]) <= 1, f"{doc}: {cid} is tested by {tested[(doc, cid)]}"
        assert any(tested[(doc, cid)] for doc in docs), f"{cid} is cited but tested by no item"


def test_definitions_and_table_headers_accuse_only_through_their_own_words(world):
    """An item that only defines or heads a table may be error or depends-on-reading only through claims that quote
    its own words (its line, or the start of its quote, in the claim's source)."""
    claims, verdicts, ledgers = world
    checked = 0
    for doc, led in ledgers.items():
        for it in led.items:
            if it.type not in ("definition", "table"):
                continue
            for cid in it.claims:
                if _accuses(claims[cid], verdicts[cid]):
                    checked += 1
                    head = " ".join(it.quote.split()[:3])
                    assert f"line {it.line}" in claims[cid].source or head in claims[cid].source, (doc, it.item, cid)
    assert checked >= 3  # 000 table2.columns, table5.throughput and 002 s3.eq6.W-A-B own refutations of their own words


def test_twins_agree_or_the_ledger_says_how_their_words_differ(world):
    claims, verdicts, ledgers = world
    found = {(f.document, f.item): f.finding for f in findings(ledgers, verdicts, claims)}
    items = {(doc, it.item): it for doc, led in ledgers.items() for it in led.items}
    pairs = 0
    for (doc, name), it in items.items():
        if not it.twin:
            continue
        twin = items[tuple(it.twin.split(":", 1))]
        assert twin.twin == f"{doc}:{name}"
        pairs += 1
        if found[(doc, name)] != found[(twin.document, twin.item)]:
            assert it.twin_differs or twin.twin_differs, (doc, name, it.twin)
    assert pairs >= 2 * 150  # 000 and 001 share about 150 statements


def test_a_holding_correction_beside_a_refuted_printed_claim_makes_an_error_or_a_slip(world):
    claims, verdicts, ledgers = world
    found = {(f.document, f.item): f.finding for f in findings(ledgers, verdicts, claims)}
    seen = 0
    for doc, led in ledgers.items():
        for it in led.items:
            kinds = {cid: Kind(claims[cid].kind) for cid in it.claims}
            corrected = any(k == Kind.CORRECTION and verdicts[cid] == H for cid, k in kinds.items())
            printed = any(k == Kind.AS_PRINTED and _accuses(claims[cid], verdicts[cid]) for cid, k in kinds.items())
            if corrected and printed:
                seen += 1
                assert found[(doc, it.item)] in ACCUSING, (doc, it.item)
    assert seen >= 5


def test_no_charitable_reading_is_a_correction(world):
    claims, _, ledgers = world
    for doc, led in ledgers.items():
        for it in led.items:
            if it.charitable:
                assert Kind(claims[it.charitable].kind) in DOCUMENT_KINDS, (doc, it.item, it.charitable)


def test_slips_name_their_meaning_and_are_refuted_as_printed(world):
    claims, verdicts, ledgers = world
    found = {(f.document, f.item): f for f in findings(ledgers, verdicts, claims)}
    slips = [(doc, it) for doc, led in ledgers.items() for it in led.items if it.slip]
    assert len(slips) >= 6
    for doc, it in slips:
        f = found[(doc, it.item)]
        assert f.finding == "slip" and f.accusing and len(it.slip.split()) >= 5, (doc, it.item)


def test_the_repository_ledgers_break_no_rule_and_every_deciding_label_was_reviewed(world):
    claims, verdicts, ledgers = world
    assert standard_problems(ledgers, claims, verdicts) == []
    # the reviews are the independent reviewers' answers, recorded with the role the label calls for
    found = {(f.document, f.item): f for f in findings(ledgers, verdicts, claims)}
    for (doc, name), f in found.items():
        if f.finding in ("error", "slip"):
            assert "Defender (independent" in f.defense or "Independent defender" in f.defense, (doc, name)
        elif f.claims:
            assert f.prosecution.startswith("Prosecutor (independent"), (doc, name)


# ----------------------------------------------------------------------------- standard_problems on hand-made ledgers


def _claim(cid: str, kind: Kind, expected: Verdict = H, threshold: str = "") -> Claim:
    return Claim(id=cid, source="X.txt, eq. 1", statement=cid, assumptions="none", expected=expected, expected_reason="by hand",
                 check=lambda ctx: Outcome(expected, "never run"), group="test", kind=kind,
                 reading="a named reading" if kind == Kind.READING else "", threshold=threshold)


CLAIMS = {c.id: c for c in [_claim("p", Kind.AS_PRINTED, F), _claim("r", Kind.READING), _claim("fix", Kind.CORRECTION)]}
VERDICTS = {"p": F, "r": H, "fix": H}


def _item(doc: str, name: str, **fields) -> LedgerItem:
    return LedgerItem(document=doc, item=name, type="sentence", location="here", line=1, quote="words", **fields)


def _problems(*items: LedgerItem, reviews: bool = False) -> list[str]:
    docs = defaultdict(list)
    for it in items:
        docs[it.document].append(it)
    ledgers = {d: DocumentLedger(d, f"{d}.txt", "t", tuple(v)) for d, v in docs.items()}
    return standard_problems(ledgers, CLAIMS, VERDICTS, reviews=reviews)


def test_standard_problems_names_each_defect():
    owner = _item("A", "s1", claims=("p", "r"), charitable="r", defense="d")
    assert _problems(owner) == []
    # counted twice in one document
    twice = _problems(owner, _item("A", "s2", claims=("p", "r"), charitable="r", defense="d"))
    assert twice == ["A: p is tested by 2 items (s1, s2); one owns it, the others cite it"]
    # cited instead: fine, and the same claim tested once in another document is fine too
    assert _problems(owner, _item("A", "s2", claims=("r",), cites=("p",)), _item("B", "t1", claims=("p", "r"), charitable="r", defense="d")) == []
    # a correction named as the charitable reading
    assert _problems(_item("A", "s1", claims=("p", "fix"), charitable="fix", defense="d")) == [
        "A:s1: charitable reading fix is a correction claim; a reading keeps the words"]
    # a slip on a statement that is not refuted as printed
    assert _problems(_item("A", "s1", claims=("r",), slip="meant: y")) == ["A:s1: marked slip, but its finding is holds"]
    # twins that disagree, unless their words differ
    a = _item("A", "s1", claims=("p", "r"), charitable="r", defense="d", twin="B:t1")
    b = _item("B", "t1", claims=("r",), twin="A:s1")
    assert _problems(a, b) == ["A:s1: depends-on-reading, but its twin B:t1 is holds (equal findings, or twin_differs)",
                               "B:t1: holds, but its twin A:s1 is depends-on-reading (equal findings, or twin_differs)"]
    assert _problems(a, LedgerItem(**{**b.__dict__, "twin_differs": "words: B adds a condition"})) == []


def test_standard_problems_asks_for_a_review_of_every_label_that_decides():
    error = _item("A", "s1", claims=("p",), charitable="p")
    held = _item("A", "s2", claims=("r",))
    assert _problems(error, held, reviews=True) == ["A:s1: error without a recorded defence", "A:s2: holds without a recorded prosecution"]
    reviewed = (LedgerItem(**{**error.__dict__, "defense": "the defender found no reading"}),
                LedgerItem(**{**held.__dict__, "prosecution": "the prosecutor found it true"}))
    assert _problems(*reviewed, reviews=True) == []
    assert owners({"A": DocumentLedger("A", "A.txt", "t", reviewed)}, VERDICTS, CLAIMS) == {"p": {"A": ["s1"]}}
