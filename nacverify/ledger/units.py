r"""The sentence map: each source document cut into *units*, the pieces that carry a statement on
their own (sentences, equation blocks, table rows, captions, headings, algorithm and code lines,
list entries, footnotes).

The cut, for a document's text :math:`D`:

1. *Blocks.* Documents 000, 002, 003 and 004 put one paragraph, heading, equation, table row or
   code line on each line, so each non-blank line is a block. Document 001 is text taken from a
   PDF: its lines break mid-sentence, so a block is a run of non-blank lines (one paragraph, or one
   piece of a typeset equation or table), and inside a fenced ``` code block each line is a block.
2. *Sentences.* Each block is cut into sentences by pysbd (rule-based sentence boundary
   disambiguation: abbreviations such as "et al.", "e.g.", "Eq.", decimals and inline numbers do
   not end a sentence). pysbd also keeps a full stop after a unit or a symbol ("11 ms. The", "length
   N. For"); a second pass cuts at a full stop followed by a space and a capital letter unless the
   word before it is an abbreviation (`_ABBREVIATIONS`); and a piece that follows one with no
   sentence end (full stop, question or exclamation mark, colon, semicolon) is joined to it, since
   pysbd cuts before the "(t)" of inline math. A block that is a heading, an equation, a table row
   or a code line is one unit, uncut.
3. *Artifacts.* What a PDF adds and no author wrote is dropped: page numbers, the running title
   repeated at the head of each page, and fragments with no letter at all (the glyphs of a typeset
   equation's braces, ``(3)`` on a line of its own, a lone ``}``).

Positions are offsets into the document's *flat* text :math:`F = \operatorname{fold}(D)`, its
runs of whitespace folded to one space, as the ledger's quotes are compared (`quote_problems`).
A ledger item *covers* the units its quote overlaps in :math:`F` (the occurrence nearest its
``line``); a unit's *owner* is the covering item with the largest overlap (the earlier item on a
tie), so every covered unit belongs to exactly one item and one item may group several
consecutive units.

The map is computed from the documents shipped in the package (``nacverify/data/documents/``,
byte copies of ``../shared/seeds``; a test keeps them equal), so it needs nothing outside the
package. pysbd takes several seconds over the five documents, so the package also ships the map
itself (``nacverify/data/units.json``: each unit's line, kind and span, keyed by the SHA-256 of the
document it was cut from; ``python tools/sentence_map.py`` writes it and a test keeps it equal to
a fresh cut). `units` reads it when the digest matches and cuts the document otherwise.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["COMPLETE_MAPS", "UNIT_KINDS", "Unit", "cut", "digest", "document_text", "flat_text", "units", "item_spans", "owners_of_units", "unit_counts", "shipped_map"]

#: The kinds of unit, in the order `_kind` tries them.
UNIT_KINDS = ("heading", "equation", "table-row", "caption", "code", "list-entry", "sentence")

#: The documents whose map is complete: every unit has an item, and `nacverify coverage` fails on an
#: uncovered one (the others list their uncovered units without failing, until they are complete).
COMPLETE_MAPS: frozenset[str] = frozenset({"000", "001", "002", "003", "004"})

#: Documents that put one paragraph on each line (each non-blank line is a block).
_LINE_PARAGRAPHS = frozenset({"000", "002", "003", "004"})

_WS = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")
_HEADING = re.compile(
    r"^(#{1,6}\s|\*\*[^*]{1,120}\*\*$|\d+(\.\d+)*\.?\s+[A-Z][^.!?]{0,100}$|[A-Z]\.\d*\.?\s+[A-Z][^.!?]{0,80}$|"
    r"(Abstract|Acknowledg\w*|References|Appendix\b[^.]{0,80})$)"
)
_CAPTION = re.compile(r"^[_*]*(Table|Figure|Fig\.|Algorithm)\s*[_*]*\s*[A-Z]?\d+", re.IGNORECASE)
_EQUATION = re.compile(r"(\$\$|\\tag\{|\\frac|\\begin\{|\\mathbf|\\sum|\\underbrace)|\(\d+[a-z]?\)\s*$")
_CODE = re.compile(r"^(import |from \S+ import |class \w+|def \w+|return\b|self\.|for \w+ in |if .*:$|#\s|\w+\s*=\s*\S.*\(.*\)$|[{}]$)")
#: Words whose full stop does not end a sentence (the second pass of step 2).
_ABBREVIATIONS = frozenset("al e.g i.e etc vs cf eq eqs eqn fig figs sec sect no nos ref refs approx resp dr mr st ch app appx thm".split())
_SECOND_CUT = re.compile(r"(?<=[^\s.])\. (?=[A-Z])")
_LIST = re.compile(r"^([-*•]\s|\d+\.\s|\(?[ivx]+\)\s|\(\w\)\s)")


@dataclass(frozen=True)
class Unit:
    """One unit of a document: its 1-based `line` in the seed file, its `kind`, its text (whitespace
    folded) and its span ``[start, end)`` in the document's flat text."""

    document: str
    index: int
    line: int
    kind: str
    text: str
    start: int
    end: int


def _fold(text: str) -> str:
    return _WS.sub(" ", text).strip()


def document_text(doc: str) -> str:
    """The text of source document `doc` as shipped in the package (a byte copy of the seed)."""
    from . import SEED_FILES

    name = SEED_FILES[doc]
    data = resources.files("nacverify.data").joinpath("documents", name + ".gz").read_bytes()
    return gzip.decompress(data).decode("utf-8")


@lru_cache(maxsize=None)
def flat_text(doc: str) -> str:
    """The document's text with every run of whitespace folded to one space."""
    return _fold(document_text(doc))


def _blocks(doc: str, lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line index, lines) of each block (module docstring, step 1)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    first = 0
    fenced = False
    for index, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith("```"):
            if current:
                blocks.append((first, current))
            current = []
            fenced = not fenced
            continue
        if not line:
            if current:
                blocks.append((first, current))
            current = []
            continue
        if doc in _LINE_PARAGRAPHS or fenced:
            blocks.append((index, [line]))
            continue
        if not current:
            first = index
        current.append(line)
    if current:
        blocks.append((first, current))
    return blocks


def _kind(text: str, *, whole_block: bool) -> str:
    """The kind of a block or sentence (heading and code only for a whole block of one line)."""
    bare = text.strip()
    if whole_block and _HEADING.match(bare) and len(bare) <= 140:
        return "heading"
    if bare.startswith("|"):
        return "table-row"
    if _CAPTION.match(bare):
        return "caption"
    if _EQUATION.search(bare):
        return "equation"
    if whole_block and _CODE.match(bare):
        return "code"
    if _LIST.match(bare):
        return "list-entry"
    return "sentence"


def _is_artifact(text: str, running_title: str) -> bool:
    """A page number, the running title, or a fragment with no letter (glyphs of a typeset brace, "(3)", "}")."""
    bare = text.strip("*_ ").strip()
    if not _LETTER.search(bare):
        return True
    return bool(running_title) and _fold(bare.strip("*_ ")) == running_title


def _running_title(doc: str, lines: list[str]) -> str:
    """001's page heads repeat the title in bold; the first line's words, when repeated over 3 times."""
    if doc in _LINE_PARAGRAPHS:
        return ""
    title = _fold(lines[0].strip("#*_ ").strip("*_ ")) if lines else ""
    count = sum(1 for line in lines if _fold(line.strip("#*_ ").strip("*_ ")) == title)
    return title if count > 3 else ""


@lru_cache(maxsize=None)
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False, char_span=False)


_ENDS_SENTENCE = re.compile(r"[.!?:;][\"')\]*_]*$")


def _sentences(block: str) -> list[str]:
    """pysbd's sentences of a block, each cut again after a full stop that ends a sentence (step 2). A piece that follows
    one ending without a full stop, a question or exclamation mark, a colon or a semicolon is joined to it: pysbd takes the
    '(t)' of inline math ('phi(t)\\phi(t)') for a list marker and cuts there."""
    out: list[str] = []
    pieces: list[str] = []
    for piece in _segmenter().segment(block):
        piece = _fold(piece)
        if pieces and piece and not _ENDS_SENTENCE.search(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece}"
        elif piece:
            pieces.append(piece)
    for sentence in pieces:
        start = 0
        for match in _SECOND_CUT.finditer(sentence):
            word = re.split(r"[\s(\[]", sentence[start:match.start()])[-1].strip("_*")
            if word.lower() in _ABBREVIATIONS or len(word) == 1 and word.islower():  # "e.g", "Eq", "a. The"
                continue
            out.append(sentence[start:match.start() + 1])
            start = match.end()
        out.append(sentence[start:])
    return [s for s in out if s]


def digest(doc: str) -> str:
    """SHA-256 of the document's text (the key of the shipped map)."""
    return hashlib.sha256(document_text(doc).encode("utf-8")).hexdigest()


@lru_cache(maxsize=None)
def units(doc: str) -> tuple[Unit, ...]:
    """The sentence map of document `doc`, in the document's order: the shipped map when it was cut
    from this text, else a fresh cut (module docstring)."""
    try:
        shipped = json.loads(resources.files("nacverify.data").joinpath("units.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        shipped = {}
    entry = shipped.get(doc)
    if entry and entry.get("sha256") == digest(doc):
        flat = flat_text(doc)
        return tuple(Unit(doc, i, line, kind, flat[start:end], start, end) for i, (line, kind, start, end) in enumerate(entry["units"]))
    return cut(doc)


def cut(doc: str) -> tuple[Unit, ...]:
    """The sentence map of document `doc`, cut afresh with pysbd (module docstring)."""
    text = document_text(doc)
    flat = flat_text(doc)
    lines = text.splitlines()
    running = _running_title(doc, lines)
    starts = _line_starts(lines, flat)
    out: list[Unit] = []
    cursor = 0
    for first, block in _blocks(doc, lines):
        joined = _fold(" ".join(block))
        whole = _kind(joined, whole_block=len(block) == 1)
        pieces = [joined] if whole in ("heading", "equation", "table-row", "code") else _sentences(joined)
        for piece in pieces:
            if not piece:
                continue
            at = flat.find(piece, cursor)
            if at < 0:  # pysbd changed the text (it should not with clean=False); keep the block whole
                piece, at = joined, flat.find(joined, cursor)
                if at < 0:
                    continue
            cursor = at + len(piece)
            if _is_artifact(piece, running):
                continue
            line = bisect_right(starts, at)  # 1-based: the number of lines starting at or before `at`
            kind = whole if len(pieces) == 1 else _kind(piece, whole_block=False)
            out.append(Unit(doc, len(out), max(line, first + 1), kind, piece, at, at + len(piece)))
    return tuple(out)


def _line_starts(lines: list[str], flat: str) -> list[int]:
    """The flat offset at which each line's text starts (blank lines at the next line's offset)."""
    starts: list[int] = []
    cursor = 0
    for line in lines:
        folded = _fold(line)
        if folded:
            at = flat.find(folded, cursor)
            cursor = at if at >= 0 else cursor
        starts.append(cursor)
        if folded:
            cursor += len(folded)
    return starts


def item_spans(doc: str, items: Iterable) -> dict[str, tuple[int, int]]:
    """item id -> the span of its quote in the flat text (the occurrence on the item's line, else the nearest);
    items whose quote is not in the document are left out (`quote_problems` names them)."""
    flat = flat_text(doc)
    lines = document_text(doc).splitlines()
    starts = _line_starts(lines, flat)
    out: dict[str, tuple[int, int]] = {}
    for it in items:
        quote = _fold(it.quote)
        if not quote:
            continue
        target = starts[min(max(it.line, 1), len(starts)) - 1] if starts else 0
        best, best_key = None, None
        at = flat.find(quote)
        while at >= 0:
            key = (abs(bisect_right(starts, at) - it.line), abs(at - target))  # on the item's line first, then nearest
            if best_key is None or key < best_key:
                best, best_key = at, key
            at = flat.find(quote, at + 1)
        if best is not None:
            out[it.item] = (best, best + len(quote))
    return out


def owners_of_units(doc: str, items: Iterable) -> dict[int, str]:
    """unit index -> the id of the item that owns it (the covering item with the largest overlap;
    the earlier item on a tie). Units no item covers are absent."""
    spans = item_spans(doc, list(items))
    ordered = sorted(spans.items(), key=lambda kv: kv[1])
    owner: dict[int, str] = {}
    for unit in units(doc):
        best, best_overlap = None, 0
        for item, (start, end) in ordered:
            if start >= unit.end:
                break
            overlap = min(end, unit.end) - max(start, unit.start)
            if overlap > best_overlap:
                best, best_overlap = item, overlap
        if best is not None:
            owner[unit.index] = best
    return owner


def unit_counts(doc: str, items: Iterable, finding_of: Mapping[str, str]) -> dict:
    """Per document: units, units covered, units by their owner's finding, and the uncovered units."""
    items = list(items)
    owner = owners_of_units(doc, items)
    by_finding: dict[str, int] = {}
    for index, item in owner.items():
        label = finding_of.get(item, "not-checkable")
        by_finding[label] = by_finding.get(label, 0) + 1
    all_units = units(doc)
    uncovered = [u for u in all_units if u.index not in owner]
    return {
        "units": len(all_units),
        "covered": len(owner),
        "by_finding": dict(sorted(by_finding.items())),
        "uncovered": uncovered,
    }


def shipped_map(docs: Iterable[str]) -> dict:
    """The map to ship (``nacverify/data/units.json``): per document its digest and each unit's
    (line, kind, start, end), cut afresh."""
    return {doc: {"sha256": digest(doc), "units": [[u.line, u.kind, u.start, u.end] for u in cut(doc)]} for doc in docs}
