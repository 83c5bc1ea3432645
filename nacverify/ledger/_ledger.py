"""Loading, validating and counting the per-document ledgers (see the package docstring)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from ..errors import BadInput

#: Seed id -> file name in ``shared/seeds``.
SEED_FILES = {
    "000": "000_8dd0046228b94766.txt",
    "001": "001_9075dda04a2ad935.txt",
    "002": "002_02b8eaa764ffef08.txt",
    "003": "003_15f93b400484390c.txt",
    "004": "004_ca116cd7d91e9398.txt",
}

ITEM_TYPES = (
    "equation",
    "theorem",
    "corollary",
    "lemma",
    "proposition",
    "remark",
    "definition",
    "algorithm",
    "table",
    "table-cell",
    "figure",
    "sentence",
)

#: Why an item cannot be checked here; every ``not_checkable`` names one of these.
NOT_CHECKABLE = {
    "needs-authors-data": "an empirical result that needs the authors' data, training runs or checkpoints",
    "needs-authors-hardware": "a measurement on the authors' hardware or proprietary toolchain",
    "definition": "a definition or notation: it fixes a meaning and asserts nothing that can be false",
    "qualitative": "a statement with no quantity or criterion that could be tested",
    "external": "a statement about other work, a citation, or a future release",
    "intent": "the authors' intent, motivation or opinion",
    "background": "background or motivation: what the field does or needs, told to set the scene, with no result of this document",
    "plan": "a plan: what the authors will do, build or release",
    "heading": "a heading, title, author or affiliation line, or a figure's or table's label: it names a part and asserts nothing",
}

#: Why a part of a statement (``untested``) cannot be decided here: the not-checkable reasons that are not a
#: definition, a heading or a plan (those assert nothing that a claim could test).
UNTESTABLE = ("needs-authors-data", "needs-authors-hardware", "qualitative", "external", "intent")

#: libyaml's safe loader where PyYAML was built with it (the same documents, parsed ten times faster), else the
#: pure-Python one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class LedgerItem:
    """One statement of a document."""

    document: str
    item: str
    type: str
    location: str
    line: int
    quote: str
    claims: tuple[str, ...] = ()
    not_checkable: Mapping[str, str] | None = None
    missing: str | None = None
    charitable: str | None = None
    defense: str = ""
    twin: str | None = None
    cites: tuple[str, ...] = ()
    slip: str = ""
    prosecution: str = ""
    untested: str = ""
    untested_reason: str = ""
    twin_differs: str = ""
    contradicts: str | None = None
    blame: str = ""

    @property
    def key(self) -> str:
        return f"{self.document}:{self.item}"

    @property
    def status(self) -> str:
        """``checked``, ``not checkable`` or ``missing``."""
        if self.claims:
            return "checked"
        if self.not_checkable:
            return "not checkable"
        return "missing"


@dataclass(frozen=True)
class DocumentLedger:
    document: str
    file: str
    title: str
    items: tuple[LedgerItem, ...] = field(default_factory=tuple)


def _ledger_text(doc: str) -> str:
    return resources.files(__package__).joinpath(f"{doc}.yaml").read_text(encoding="utf-8")


def _text(value) -> str:
    """A prose field, its whitespace folded (YAML block scalars keep line breaks)."""
    return " ".join(str(value or "").split())


def _parse(doc: str, text: str) -> DocumentLedger:
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise BadInput(f"ledger {doc}.yaml is not valid YAML: {exc}".replace("\n", " ")) from None
    if not isinstance(data, dict) or "items" not in data:
        raise BadInput(f"ledger {doc}.yaml: expected a mapping with 'items'")
    items = []
    for raw in data["items"] or []:
        nc = raw.get("not_checkable")
        items.append(
            LedgerItem(
                document=doc,
                item=str(raw.get("item", "")),
                type=str(raw.get("type", "")),
                location=str(raw.get("location", "")),
                line=int(raw.get("line", 0) or 0),
                quote=str(raw.get("quote", "")),
                claims=tuple(raw.get("claims") or ()),
                not_checkable=dict(nc) if isinstance(nc, dict) else ({"reason": str(nc), "why": ""} if nc else None),
                missing=raw.get("missing"),
                charitable=raw.get("charitable"),
                defense=_text(raw.get("defense")),
                twin=raw.get("twin"),
                cites=tuple(raw.get("cites") or ()),
                slip=_text(raw.get("slip")),
                prosecution=_text(raw.get("prosecution")),
                untested=_text(raw.get("untested")),
                untested_reason=str(raw.get("untested_reason") or ""),
                twin_differs=_text(raw.get("twin_differs")),
                contradicts=raw.get("contradicts"),
                blame=_text(raw.get("blame")),
            )
        )
    return DocumentLedger(doc, str(data.get("document", SEED_FILES.get(doc, ""))), str(data.get("title", "")), tuple(items))


def load_ledgers(sources: Iterable[str] | None = None) -> dict[str, DocumentLedger]:
    """The ledgers of the given seed ids (all five when None)."""
    docs = list(sources) if sources else list(SEED_FILES)
    unknown = [d for d in docs if d not in SEED_FILES]
    if unknown:
        raise BadInput(f"unknown source {unknown[0]!r}; choose from {', '.join(SEED_FILES)}")
    out = {}
    for doc in docs:
        try:
            text = _ledger_text(doc)
        except FileNotFoundError:
            raise BadInput(f"no ledger for source {doc}") from None
        out[doc] = _parse(doc, text)
    return out


def validate(ledgers: Mapping[str, DocumentLedger], claim_ids: Iterable[str]) -> list[str]:
    """Structural problems: duplicate items, unknown types or reasons, an item with not
    exactly one status, an item naming a claim that does not exist, and (over the full
    set of ledgers) a claim that no item names."""
    known = set(claim_ids)
    problems: list[str] = []
    named: set[str] = set()
    for doc, led in ledgers.items():
        seen: set[str] = set()
        for it in led.items:
            where = f"{doc}:{it.item or '?'}"
            if not it.item:
                problems.append(f"{where}: item has no id")
            if it.item in seen:
                problems.append(f"{where}: duplicate item id")
            seen.add(it.item)
            if it.type not in ITEM_TYPES:
                problems.append(f"{where}: unknown type {it.type!r}")
            if not it.quote.strip():
                problems.append(f"{where}: no quote")
            if not it.location.strip():
                problems.append(f"{where}: no location")
            states = sum(bool(x) for x in (it.claims, it.not_checkable, it.missing))
            if states != 1:
                problems.append(f"{where}: needs exactly one of claims / not_checkable / missing (has {states})")
            if it.not_checkable:
                reason = it.not_checkable.get("reason")
                if reason not in NOT_CHECKABLE:
                    problems.append(f"{where}: not_checkable reason {reason!r} is not one of {sorted(NOT_CHECKABLE)}")
                if not str(it.not_checkable.get("why", "")).strip():
                    problems.append(f"{where}: not_checkable needs a 'why'")
            if it.charitable is not None and it.charitable not in it.claims:
                problems.append(f"{where}: charitable reading {it.charitable!r} is not one of the item's claims")
            if it.charitable is not None and not it.defense:
                problems.append(f"{where}: names a charitable reading but gives no defense")
            if it.twin is not None:
                tdoc, _, titem = str(it.twin).partition(":")
                twin = next((t for t in ledgers[tdoc].items if t.item == titem), None) if tdoc in ledgers else None
                if tdoc in ledgers and twin is None:
                    problems.append(f"{where}: twin {it.twin!r} is no ledger item")
                elif twin is not None and twin.twin != it.key:
                    problems.append(f"{where}: twin {it.twin!r} does not name this item back")
            for cid in it.claims + it.cites:
                named.add(cid)
                if cid not in known:
                    problems.append(f"{where}: names claim {cid!r}, which is not registered")
            for cid in sorted(set(it.claims) & set(it.cites)):
                problems.append(f"{where}: {cid} is both tested (claims) and cited (cites)")
            if it.cites and not it.claims and not it.not_checkable:
                problems.append(f"{where}: cites claims but tests none and gives no not_checkable reason")
            if it.contradicts and not any(t.item == it.contradicts for t in led.items):
                problems.append(f"{where}: contradicts {it.contradicts!r}, which is no item of this document")
            if (it.slip or it.untested) and not it.claims:
                problems.append(f"{where}: slip and untested need claims that test the item")
            if it.twin_differs and not it.twin:
                problems.append(f"{where}: twin_differs without a twin")
    if set(ledgers) == set(SEED_FILES):
        for cid in sorted(known - named):
            problems.append(f"claim {cid} is named by no ledger item")
    return problems


_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _WS.sub(" ", text).strip()


def find_seeds_dir() -> Path | None:
    """``$NACVERIFY_SEEDS``, else ``../shared/seeds`` from the working directory or from
    the source tree; None when none exists. A ``NACVERIFY_SEEDS`` that names no folder of
    the documents is `BadInput`, never replaced by the defaults."""
    env = os.environ.get("NACVERIFY_SEEDS", "").strip()
    if env:
        folder = Path(env).expanduser()
        if not (folder / SEED_FILES["000"]).is_file():
            raise BadInput(f"NACVERIFY_SEEDS={env}: no source documents there ({SEED_FILES['000']} is missing); unset it to use ../shared/seeds")
        return folder.resolve()
    candidates = [Path.cwd() / ".." / "shared" / "seeds", Path(__file__).resolve().parents[3] / "shared" / "seeds"]
    for c in candidates:
        if (c / SEED_FILES["000"]).is_file():
            return c.resolve()
    return None


def quote_problems(ledgers: Mapping[str, DocumentLedger], seeds_dir: Path) -> list[str]:
    """Items whose quote is not in the seed file verbatim (up to whitespace), or whose
    line does not hold the quote's first words."""
    problems = []
    for doc, led in ledgers.items():
        text = (seeds_dir / SEED_FILES[doc]).read_text(encoding="utf-8")
        flat = _norm(text)
        lines = text.splitlines()
        for it in led.items:
            q = _norm(it.quote)
            if q not in flat:
                problems.append(f"{doc}:{it.item}: quote not found verbatim: {q[:80]!r}")
                continue
            head = q.split(" ")[0:3]
            lo, hi = max(0, it.line - 1), min(len(lines), it.line + 2)
            window = _norm(" ".join(lines[lo:hi]))
            if it.line < 1 or " ".join(head) not in window:
                problems.append(f"{doc}:{it.item}: line {it.line} does not hold the quote's start {' '.join(head)!r}")
    return problems


def coverage(ledgers: Mapping[str, DocumentLedger]) -> dict[str, dict]:
    """Per document: items, checked, not checkable (total and by reason), missing (ids)."""
    out = {}
    for doc, led in ledgers.items():
        status = Counter(it.status for it in led.items)
        reasons = Counter(it.not_checkable["reason"] for it in led.items if it.not_checkable)
        out[doc] = {
            "file": led.file,
            "items": len(led.items),
            "checked": status.get("checked", 0),
            "not_checkable": status.get("not checkable", 0),
            "not_checkable_by_reason": dict(sorted(reasons.items())),
            "missing": status.get("missing", 0),
            "missing_items": [it.item for it in led.items if it.status == "missing"],
        }
    return out
