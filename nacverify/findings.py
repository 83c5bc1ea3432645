r"""Findings: one verdict about the document per ledger item.

Claims are the unit of evidence and of the gate; a *finding* is the unit a reader counts. Each
ledger item (one statement of a document, `nacverify.ledger`) gets exactly one finding, however
many claims support it, so one accusation is counted once:

- ``error``: the statement fails under its most charitable plausible reading (the item's
  ``charitable`` claim, of kind ``as-printed`` or ``reading``, is refuted; where that claim is
  ``as-printed``, the words admit no kinder meaning), and the refutation does not turn on a
  threshold of ours (`Claim.threshold`);
- ``depends-on-reading``: some claim of kind ``as-printed`` or ``reading`` is refuted, but the
  charitable reading holds, or its refutation turns on a threshold the document does not give;
- ``holds``: no claim about the document is refuted, and every one that decided holds;
- ``inconclusive``: nothing refuted the statement, but a check could not decide (or the
  charitable reading itself could not be decided);
- ``not-checkable``: the item has no claims (``not_checkable`` or ``missing`` in the ledger).

Claims of kind ``correction``, ``implementation`` or ``lemma`` are evidence but never accuse
the document: refuted, they are listed and do not count against it.

An item with a refuted document claim must name its charitable reading (``charitable``) and
the defence tried (``defense``); `missing_defenses` lists those that do not. Findings can be
computed from expected verdicts (the repository's knowledge, which the gate keeps equal to
the checks' verdicts) or from a report's verdicts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .claims import DOCUMENT_KINDS, Claim, Kind, Verdict
from .ledger import DocumentLedger, LedgerItem

__all__ = ["FINDINGS", "Finding", "item_finding", "findings", "finding_counts", "missing_defenses", "expected_verdicts", "report_claims", "report_findings"]

FINDINGS = ("error", "depends-on-reading", "holds", "inconclusive", "not-checkable")
_DECIDED = (Verdict.HOLDS, Verdict.INAPPLICABLE)


@dataclass(frozen=True)
class Finding:
    """The finding of one ledger item, with the claims behind it (id, kind, verdict)."""

    document: str
    item: str
    quote: str
    finding: str
    claims: tuple[tuple[str, str, str], ...]
    defense: str

    def to_json(self) -> dict:
        return {
            "document": self.document,
            "item": self.item,
            "quote": self.quote,
            "finding": self.finding,
            "claims": [{"id": cid, "kind": kind, "verdict": verdict} for cid, kind, verdict in self.claims],
            "defense": self.defense,
        }


def _is_document(claim: Any) -> bool:
    return bool(claim.kind) and Kind(claim.kind) in DOCUMENT_KINDS


def item_finding(item: LedgerItem, verdicts: Mapping[str, Verdict], claims: Mapping[str, Any]) -> Finding:
    """The finding of `item` from the verdicts of its claims (see the module docstring). `claims` maps
    ids to anything with ``kind`` and ``threshold``: registered `Claim`s or a report's records."""
    rows = tuple((cid, str(claims[cid].kind or ""), Verdict(verdicts[cid]).value) for cid in item.claims)
    made = lambda finding, defense: Finding(item.document, item.item, item.quote, finding, rows, defense)  # noqa: E731
    if not item.claims:
        why = item.not_checkable.get("why", "") if item.not_checkable else f"missing: {item.missing}"
        return made("not-checkable", str(why))
    document = [cid for cid in item.claims if _is_document(claims[cid])]
    refuted = [cid for cid in document if verdicts[cid] == Verdict.REFUTED]
    if not refuted:
        deciding = document or [cid for cid in item.claims if verdicts[cid] != Verdict.REFUTED]
        undecided = [cid for cid in deciding if verdicts[cid] not in _DECIDED]
        if deciding and not undecided and any(verdicts[cid] == Verdict.HOLDS for cid in deciding):
            return made("holds", item.defense)
        return made("inconclusive", item.defense or f"undecided: {', '.join(undecided) or 'no claim about the document decided'}")
    charitable = item.charitable
    if charitable is None:
        return made("inconclusive", f"refuted ({', '.join(refuted)}), but no charitable reading is registered for this item")
    verdict = Verdict(verdicts[charitable])
    if verdict == Verdict.HOLDS:
        return made("depends-on-reading", f"{item.defense} [the charitable reading {charitable} holds]")
    if verdict == Verdict.REFUTED:
        ours = claims[charitable].threshold
        if ours:
            return made("depends-on-reading", f"{item.defense} [refuted only through a threshold of ours: {ours}]")
        return made("error", item.defense)
    return made("inconclusive", f"{item.defense} [the charitable reading {charitable} is {verdict.value}]")


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


def missing_defenses(ledgers: Mapping[str, DocumentLedger], claims: Mapping[str, Any],
                     verdicts: Mapping[str, Verdict] | None = None) -> list[str]:
    """Items with a claim about the document that is refuted (in `verdicts`; by default each claim's
    expected verdict) but no registered charitable reading (``charitable`` and ``defense`` in the ledger)."""
    verdicts = expected_verdicts(claims) if verdicts is None else verdicts
    out = []
    for led in ledgers.values():
        for it in led.items:
            refuted = [c for c in it.claims if c in claims and c in verdicts and _is_document(claims[c]) and Verdict(verdicts[c]) == Verdict.REFUTED]
            if refuted and (it.charitable is None or not it.defense):
                out.append(f"{it.key}: {', '.join(refuted)} refuted, but no charitable reading and defense are registered")
    return out
