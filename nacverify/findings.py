r"""Findings: one verdict about the document per ledger item.

Claims are the unit of evidence and of the gate; a *finding* is the unit a reader counts. Each
ledger item (one statement of a document, `nacverify.ledger`) gets exactly one finding, however
many claims support it, so one accusation is counted once. The labelling standard is
``reports/FINDINGS_STANDARD.md``; this module is its mechanical part.

Only the claims an item *tests* (its ``claims``) decide its finding; the claims it *cites*
(``cites``) are evidence shown beside it. A claim of kind ``as-printed`` or ``reading`` that is
refuted *accuses* the document, unless its refutation turns on a threshold of ours
(`Claim.threshold`): such a claim is a measurement (its flip point is in its evidence), never an
accusation. Then, in order:

- ``error``: an as-printed claim accuses and a ``correction`` claim of the item holds (the
  statement is true only once a sign, an operator, a number or a technical word is changed); or
  a claim accuses and the item's most charitable reading that keeps the words and the scope
  (``charitable``, of kind ``as-printed`` or ``reading``) accuses too;
- ``slip``: what would be ``error``, where the ledger names the unique intended meaning of a
  typo, a repeated word, an omitted input or a name shorthand (``slip``);
- ``depends-on-reading``: a claim accuses, but the charitable reading holds (or fails only
  through a threshold of ours), whatever part of the statement is left untested;
- ``inconclusive``: a claim accuses but no charitable reading is registered, or the charitable
  reading could not be decided; or nothing accuses but a claim about the document could not be
  decided, or the ledger names a part of the statement that no claim tests (``untested``);
- ``holds``: nothing accuses, and every claim about the document decided (a measured threshold
  counts as decided);
- ``not-checkable``: the item tests no claim (``not_checkable`` or ``missing`` in the ledger).

Claims of kind ``correction``, ``implementation`` or ``lemma`` never accuse the document.
`standard_problems` lists the items that break the standard's enforceable rules (ownership,
twins, readings that are corrections, reviews recorded). Findings can be computed from
expected verdicts (the repository's knowledge, which the gate keeps equal to the checks'
verdicts) or from a report's verdicts.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .claims import DOCUMENT_KINDS, Claim, Kind, Verdict
from .ledger import UNTESTABLE, DocumentLedger, LedgerItem

__all__ = [
    "FINDINGS", "ACCUSING", "Finding", "item_finding", "findings", "finding_counts", "missing_defenses", "expected_verdicts",
    "report_claims", "report_findings", "owners", "standard_problems", "rule_problems", "is_header",
]

#: Every finding, heaviest first (the order in which reports list them).
FINDINGS = ("error", "slip", "depends-on-reading", "inconclusive", "holds", "not-checkable")
#: The findings that say the document is wrong as meant or as printed.
ACCUSING = ("error", "slip")
_DECIDED = (Verdict.HOLDS, Verdict.INAPPLICABLE)

Row = tuple[str, str, str]  # (claim id, kind, verdict)


@dataclass(frozen=True)
class Finding:
    """The finding of one ledger item, with the claims it tests and cites (id, kind, verdict), the
    defence (of an error or slip, or the charitable reading tried) and the prosecution (of a holds,
    depends-on-reading or inconclusive)."""

    document: str
    item: str
    quote: str
    finding: str
    claims: tuple[Row, ...]
    defense: str
    prosecution: str = ""
    cited: tuple[Row, ...] = ()
    location: str = ""
    line: int = 0
    slip: str = ""
    untested: str = ""
    accusing: tuple[str, ...] = ()

    def to_json(self) -> dict:
        row = lambda r, owns: {"id": r[0], "kind": r[1], "verdict": r[2], "role": "tests" if owns else "cites"}  # noqa: E731
        return {
            "document": self.document,
            "item": self.item,
            "location": self.location,
            "line": self.line,
            "quote": self.quote,
            "finding": self.finding,
            "claims": [row(r, True) for r in self.claims] + [row(r, False) for r in self.cited],
            "accusing": list(self.accusing),
            "defense": self.defense,
            "prosecution": self.prosecution,
            "slip": self.slip,
            "untested": self.untested,
        }


def _is_document(claim: Any) -> bool:
    return bool(claim.kind) and Kind(claim.kind) in DOCUMENT_KINDS


def _kind(claim: Any) -> str:
    return str(claim.kind or "")


def item_finding(item: LedgerItem, verdicts: Mapping[str, Verdict], claims: Mapping[str, Any]) -> Finding:
    """The finding of `item` from the verdicts of its claims (see the module docstring). `claims` maps
    ids to anything with ``kind`` and ``threshold``: registered `Claim`s or a report's records."""
    rows = tuple((cid, _kind(claims[cid]), Verdict(verdicts[cid]).value) for cid in item.claims)
    cited = tuple((cid, _kind(claims[cid]), Verdict(verdicts[cid]).value) for cid in item.cites if cid in claims and cid in verdicts)
    document = [cid for cid in item.claims if _is_document(claims[cid])]
    accusing = tuple(cid for cid in document if verdicts[cid] == Verdict.REFUTED and not claims[cid].threshold)
    measured = [cid for cid in document if verdicts[cid] == Verdict.REFUTED and claims[cid].threshold]

    def made(finding: str, defense: str) -> Finding:
        if finding == "error" and item.slip:
            finding = "slip"
        return Finding(item.document, item.item, item.quote, finding, rows, defense, item.prosecution, cited,
                       item.location, item.line, item.slip, item.untested, accusing if finding in ACCUSING else ())

    if not item.claims:
        why = item.not_checkable.get("why", "") if item.not_checkable else f"missing: {item.missing}"
        return made("not-checkable", str(why))
    flips = "".join(f" [{cid}: refuted only through a threshold of ours ({claims[cid].threshold}); a measurement]" for cid in measured)
    if accusing:
        printed = [cid for cid in accusing if Kind(claims[cid].kind) == Kind.AS_PRINTED]
        corrected = [cid for cid in item.claims if _kind(claims[cid]) == Kind.CORRECTION.value and verdicts[cid] == Verdict.HOLDS]
        if printed and corrected:
            return made("error", f"{item.defense} [true only as corrected: {', '.join(corrected)} holds]".strip())
        charitable = item.charitable
        if charitable is None:
            return made("inconclusive", f"refuted ({', '.join(accusing)}), but no charitable reading is registered for this item")
        if charitable in accusing:
            return made("error", item.defense)
        verdict = Verdict(verdicts[charitable])
        if (verdict == Verdict.HOLDS or charitable in measured) and item.untested:
            # an accusing reading is refuted and the charitable one holds: the reading decides, whatever is left untested
            return made("depends-on-reading", f"{item.defense} [the charitable reading {charitable} holds; not tested: {item.untested}]{flips}")
        if verdict == Verdict.HOLDS or charitable in measured:
            return made("depends-on-reading", f"{item.defense} [the charitable reading {charitable} holds]{flips}")
        return made("inconclusive", f"{item.defense} [the charitable reading {charitable} is {verdict.value}]")
    deciding = document or [cid for cid in item.claims if verdicts[cid] != Verdict.REFUTED]
    undecided = [cid for cid in deciding if verdicts[cid] not in _DECIDED and cid not in measured]
    if deciding and not undecided and any(verdicts[cid] == Verdict.HOLDS or cid in measured for cid in deciding):
        if item.untested:
            return made("inconclusive", f"{item.defense} [not tested: {item.untested}]{flips}".strip())
        return made("holds", f"{item.defense}{flips}".strip())
    return made("inconclusive", item.defense or f"undecided: {', '.join(undecided) or 'no claim about the document decided'}")


def findings(ledgers: Mapping[str, DocumentLedger], verdicts: Mapping[str, Verdict], claims: Mapping[str, Any]) -> list[Finding]:
    """One finding per ledger item whose claims all have a verdict in `verdicts` (items some of whose
    claims were not run are left out)."""
    return [item_finding(it, verdicts, claims) for led in ledgers.values() for it in led.items
            if all(c in verdicts and c in claims for c in it.claims)]


def expected_verdicts(claims: Mapping[str, Claim]) -> dict[str, Verdict]:
    """Each claim's expected verdict: what the checks give wherever the gate passes."""
    return {cid: Verdict(c.expected) for cid, c in claims.items()}


def report_claims(records: Iterable[Any]) -> tuple[dict[str, Any], dict[str, Verdict]]:
    """(claims, verdicts) from a report's claim records (`nacverify.report.ClaimRecord`: id, kind,
    threshold, verdict), for `findings` of what a run found rather than what is expected."""
    known = {v.value for v in Verdict}
    records = [r for r in records if r.verdict in known]  # a verdict this version does not know decides nothing
    return {r.id: r for r in records}, {r.id: Verdict(r.verdict) for r in records}


def report_findings(records: Iterable[Any]) -> list[Finding]:
    """The findings of every ledger item whose claims are all among a report's claim records, and the
    not-checkable items of the documents it checks."""
    from .ledger import load_ledgers

    claims, verdicts = report_claims(records)
    found = findings(load_ledgers(), verdicts, claims) if claims else []
    checked = {f.document for f in found if f.claims}  # documents this report checks at least one item of
    return [f for f in found if f.document in checked]


def finding_counts(items: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """document -> finding -> items (every finding named, zeros included)."""
    out: dict[str, Counter] = {}
    for f in items:
        out.setdefault(f.document, Counter())[f.finding] += 1
    return {doc: {name: c.get(name, 0) for name in FINDINGS} for doc, c in sorted(out.items())}


def owners(ledgers: Mapping[str, DocumentLedger], verdicts: Mapping[str, Verdict], claims: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    """claim id -> document -> the items that test it, for every refuted claim about a document that
    accuses (no threshold of ours). The standard wants exactly one item per document."""
    out: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for doc, led in ledgers.items():
        for it in led.items:
            for cid in it.claims:
                if cid in claims and cid in verdicts and _is_document(claims[cid]) and Verdict(verdicts[cid]) == Verdict.REFUTED \
                        and not claims[cid].threshold:
                    out[cid].setdefault(doc, []).append(it.item)
    return dict(sorted(out.items()))


def missing_defenses(ledgers: Mapping[str, DocumentLedger], claims: Mapping[str, Any],
                     verdicts: Mapping[str, Verdict] | None = None) -> list[str]:
    """Items with a claim about the document that accuses (refuted in `verdicts`, by default each claim's expected verdict,
    and not through a threshold of ours) but no registered charitable reading (``charitable`` and ``defense`` in the ledger)."""
    verdicts = expected_verdicts(claims) if verdicts is None else verdicts
    out = []
    for led in ledgers.values():
        for it in led.items:
            refuted = [c for c in it.claims if c in claims and c in verdicts and _is_document(claims[c]) and Verdict(verdicts[c]) == Verdict.REFUTED
                       and not claims[c].threshold]  # a threshold of ours never accuses: nothing to defend
            if refuted and (it.charitable is None or not it.defense):
                out.append(f"{it.key}: {', '.join(refuted)} refuted, but no charitable reading and defense are registered")
    return out


def standard_problems(ledgers: Mapping[str, DocumentLedger], claims: Mapping[str, Any], verdicts: Mapping[str, Verdict] | None = None,
                      *, reviews: bool = True) -> list[str]:
    """The items that break the enforceable rules of ``reports/FINDINGS_STANDARD.md``:

    - *count once*: each accusing claim is tested by exactly one item per document (others cite it);
    - *readings keep the words*: a charitable reading is an as-printed or reading claim, never a correction;
    - *slips*: an item marked ``slip`` is refuted as printed (its finding would be error);
    - *twins agree*: twins have equal findings, or ``twin_differs`` says how their words differ;
    - *every label is attacked* (`reviews`): each error and slip records a defence, each holds,
      depends-on-reading and inconclusive with claims a prosecution;
    - and the rules of `rule_problems`.
    """
    verdicts = expected_verdicts(claims) if verdicts is None else verdicts
    found = {(f.document, f.item): f for f in findings(ledgers, verdicts, claims)}
    out = []
    for cid, per_doc in owners(ledgers, verdicts, claims).items():
        for doc, items in per_doc.items():
            if len(items) > 1:
                out.append(f"{doc}: {cid} is tested by {len(items)} items ({', '.join(items)}); one owns it, the others cite it")
    for doc, led in ledgers.items():
        for it in led.items:
            f = found.get((doc, it.item))
            if f is None:
                continue
            if it.charitable and it.charitable in claims and not _is_document(claims[it.charitable]):
                out.append(f"{it.key}: charitable reading {it.charitable} is a {_kind(claims[it.charitable])} claim; a reading keeps the words")
            if it.slip and f.finding != "slip":
                out.append(f"{it.key}: marked slip, but its finding is {f.finding}")
            if it.twin:
                twin = found.get(tuple(it.twin.split(":", 1)))
                if twin is not None and twin.finding != f.finding and not (it.twin_differs or _twin_differs(ledgers, it.twin)):
                    out.append(f"{it.key}: {f.finding}, but its twin {it.twin} is {twin.finding} (equal findings, or twin_differs)")
            if reviews and f.finding in ACCUSING and not it.defense:
                out.append(f"{it.key}: {f.finding} without a recorded defence")
            if reviews and it.claims and f.finding in ("holds", "depends-on-reading", "inconclusive") and not it.prosecution:
                out.append(f"{it.key}: {f.finding} without a recorded prosecution")
    return out + rule_problems(ledgers, claims, verdicts, found)


#: Item types that head, label or define rather than state (rule: they accuse only through their own words).
_HEADER_TYPES = ("table", "figure", "algorithm", "definition")
_HEADER_WORDS = re.compile(r"caption|heading|header|title|class\b|pseudo-?code", re.IGNORECASE)
#: Locations where a document restates its results in its own words (rule 5: tested there by a claim of their own).
_SUMMARY_WORDS = re.compile(r"abstract|conclusion|summary|contribution", re.IGNORECASE)


def is_header(item: LedgerItem) -> bool:
    """A heading, caption, table or figure label, class header, algorithm title or pseudo-code definition."""
    return item.type in _HEADER_TYPES or bool(_HEADER_WORDS.search(item.location))


_QUOTED = re.compile(r"'([^']{3,})'|\u2018([^\u2019]{3,})\u2019|\"([^\"]{3,})\"")
_DECIMAL = re.compile(r"\d+\.\d+")


def _fold(text: str) -> str:
    return " ".join(text.split())


def _own_words(item: LedgerItem, claim: Any) -> bool:
    """The claim tests `item`'s own words: its source names the item's line, or a piece of the words it quotes (split at
    '...') is in the item's quote, letters and digits compared (where it quotes nothing: the start of the item's quote)."""
    source = str(getattr(claim, "source", ""))
    if f"line {item.line}" in source:
        return True
    quoted = [_letters(piece) for m in _QUOTED.finditer(source) for piece in next(g for g in m.groups() if g).split("...")]
    quoted = [q for q in quoted if len(q) >= 3]
    if quoted:
        mine = _letters(item.quote)
        return any(q in mine or mine in q for q in quoted)
    return " ".join(item.quote.split()[:3]) in source


def _letters(text: str) -> str:
    """Letters and digits only, lower case: LaTeX and plain transcriptions of one formula compare equal
    ('V_Leak_i/C_m_i' and '$V_{Leak_i}/C_{m_i}$')."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


_BIG_O = re.compile(r"(?:O|\U0001d4aa)\(([^()]*)\)")


def _printed(item: LedgerItem, claims: Iterable[Any]) -> set[str]:
    """The numbers an item's accusation rests on: the decimals (1.87; 0.50 = 0.5) and the O(...) orders in the words its
    accusing claims' sources quote (in the item's quote where they quote nothing)."""
    texts = [next(g for g in m.groups() if g) for c in claims for m in _QUOTED.finditer(str(getattr(c, "source", "")))] or [item.quote]
    out = {f"{float(x):g}" for text in texts for x in _DECIMAL.findall(text)}
    out |= {f"O({_letters(x)})" for text in texts for x in _BIG_O.findall(text) if _letters(x)}
    return out


def _same_defect(first: str, second: str) -> bool:
    """Two claim ids check one proposition: equal, or one restates the other (`claims.restated`: ``<id>.<suffix>``)."""
    return first == second or first.startswith(second + ".") or second.startswith(first + ".")


def rule_problems(ledgers: Mapping[str, DocumentLedger], claims: Mapping[str, Any], verdicts: Mapping[str, Verdict],
                  found: Mapping[tuple[str, str], Finding]) -> list[str]:
    """The rules of issue 43 that a program catches (``reports/FINDINGS_STANDARD.md``, "Rules a program checks"):

    - *headers*: a heading, caption, class header, algorithm title or pseudo-code definition accuses only through
      claims that quote its own words (the words a claim's source quotes are in the item's quote);
    - *one defect, one item*: two items of one document whose accusing claims check one proposition (one restated from
      the other) on the same printed numbers (a decimal or an O(...) that both print or quote) are one owner and one citer, unless one of
      them says it again in a summary (the same claim tested twice is `owners`' business);
    - *untested*: a part left untested says why no claim can decide it (``untested_reason``);
    - *outside evidence*: a claim resting on evidence from outside the document (`Claim.outside`) is cited, never tested;
    - *readings*: an ``error`` item beside a holding ``reading`` claim says in its defence why that reading breaks the
      words or the scope (it names the claim);
    - *contradictions*: an item that contradicts another place says which place is wrong (``blame``), and the
      contradicted place does not accuse through the same claims (counted once);
    - *twins*: ``twin_differs`` says whether their words or the data their words refer to differ.
    """
    out: list[str] = []
    accusing_of: dict[tuple[str, str], list[str]] = {}
    for doc, led in ledgers.items():
        for it in led.items:
            accusing_of[(doc, it.item)] = [cid for cid in it.claims if cid in claims and cid in verdicts and _is_document(claims[cid])
                                           and Verdict(verdicts[cid]) == Verdict.REFUTED and not claims[cid].threshold]
    # the items that accuse, and the numbers each accusation rests on, once per item (the pairs below compare only these)
    accusers = {doc: [it for it in led.items if accusing_of[(doc, it.item)]] for doc, led in ledgers.items()}
    printed_of = {(doc, it.item): _printed(it, [claims[c] for c in accusing_of[(doc, it.item)]]) for doc, items in accusers.items() for it in items}
    for doc, led in ledgers.items():
        by_item = {it.item: it for it in led.items}
        for it in led.items:
            f = found.get((doc, it.item))
            accusing = accusing_of[(doc, it.item)]
            if is_header(it):
                for cid in accusing:
                    if not _own_words(it, claims[cid]):
                        out.append(f"{it.key}: a {it.type} ({it.location}) accuses through {cid}, a claim about other words; cite it")
            for other in (o for o in accusers[doc] if accusing and o.item > it.item):
                if _SUMMARY_WORDS.search(other.location) or _SUMMARY_WORDS.search(it.location):
                    continue
                shared = sorted({f"{a}/{b}" for a in accusing for b in accusing_of[(doc, other.item)] if a != b and _same_defect(a, b)})
                same_numbers = printed_of[(doc, it.item)] & printed_of[(doc, other.item)] if shared else set()
                if shared and same_numbers:
                    printed = ", ".join(sorted(same_numbers))
                    out.append(f"{doc}: {it.item} and {other.item} accuse through one proposition ({', '.join(shared)}) on the same "
                               f"printed numbers ({printed}); one owns it, the other cites it")
            if it.untested and it.untested_reason not in UNTESTABLE:
                out.append(f"{it.key}: untested part without an untested_reason from {', '.join(UNTESTABLE)}: a part that the "
                           "document's own tables, equations or code decide gets a claim")
            for cid in it.claims:
                if cid in claims and getattr(claims[cid], "outside", ""):
                    out.append(f"{it.key}: tests {cid}, which rests on outside evidence ({claims[cid].outside}); cite it")
            if f is not None and f.finding == "error":
                held = [cid for cid in it.claims if cid in claims and _kind(claims[cid]) == Kind.READING.value
                        and Verdict(verdicts.get(cid, Verdict.INCONCLUSIVE)) == Verdict.HOLDS]
                for cid in held:
                    if cid not in it.defense:
                        out.append(f"{it.key}: error beside the holding reading {cid}: the defence says why that reading breaks the "
                                   "words or the scope, or the item is depends-on-reading")
            if it.contradicts:
                other = by_item.get(it.contradicts)
                if not it.blame:
                    out.append(f"{it.key}: contradicts {it.contradicts} but does not say which place is wrong (blame)")
                if other is not None and set(accusing) & set(accusing_of[(doc, other.item)]):
                    out.append(f"{it.key}: contradicts {it.contradicts}, and both accuse through the same claims; count it once")
            if it.twin_differs and not it.twin_differs.startswith(("words:", "data:")):
                out.append(f"{it.key}: twin_differs must say what differs: begin with 'words:' or 'data:'")
    return out


def _twin_differs(ledgers: Mapping[str, DocumentLedger], key: str) -> bool:
    doc, _, item = key.partition(":")
    return doc in ledgers and any(it.item == item and it.twin_differs for it in ledgers[doc].items)
