r"""Formulas in a document's own words, for the report's pages (MathML) and for Markdown (``$...$``).

The seed documents carry their formulas in three forms, and a quote keeps them verbatim:

- between ``$...$`` or ``$$...$$`` (document 002, written in Markdown);
- as LaTeX with no delimiters, directly after the text rendering of the same formula (document
  000, extracted from an HTML page: ``a=ϕ/ωτa^{*}=\phi/\omega_{\tau}`` is ``a* = ϕ/ωτ`` twice:
  its characters, then its source), or alone (display equations: ``\frac{da_{t}}{dt}=...``);
- as text from a PDF with Markdown emphasis (``**Theorem 1**``, ``_Let a_``: document 001).

`pieces` cuts a text into prose and formulas. An undelimited formula starts at a LaTeX command
(``\name``, ``\,``) or a braced sub- or superscript (``_{``, ``^{``), and runs to the first space
outside braces (a space ending a command word, as in ``\leq M``, belongs to it). The text rendering
before it, when there is one, is recognised by its letters and digits: the rendering of the
formula's MathML, compared after Unicode compatibility folding (``𝐪`` is ``q``), equals the end of
the word before it (the rendering drops signs and operators, so only letters and digits count).
That copy is dropped. A one-letter formula has no command to find; its doubled letter (``tt`` for
``t``) is read as that letter, in a text that has other undelimited formulas.

`html` writes prose with its Markdown emphasis (markdown-it) and each formula as MathML
(latex2mathml), which browsers render without scripts or fonts from the network; a formula that
does not convert (a LaTeX error, a command the converter does not know) stays as its source,
marked (``<code class="tex">``). `markdown` writes each formula as ``$LaTeX$`` (``$$...$$`` for a
display formula), which GitHub renders, and the prose as it is.
"""

from __future__ import annotations

import functools
import html as _html
import re
import unicodedata
from dataclasses import dataclass
from xml.etree import ElementTree

__all__ = ["Piece", "pieces", "mathml", "html", "markdown", "escape_markdown"]

_DELIMITED = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$(?!\$)", re.S)
#: where an undelimited formula shows itself: a command word or symbol, or a braced sub/superscript
_ANCHOR = re.compile(r"\\[A-Za-z]+|\\[,;:!|{}]|(?<=\S)[_^]\{")
#: a formula without a command, written twice (its rendering, then its source): ``tt``, ``T=1T=1``, ``[m,M][m,M]``
_DOUBLED = re.compile(r"(?<!\S)([A-Za-z])\1(?=[.,;:]?(?:\s|$))|(?<![^\s(])([A-Za-z0-9]*[=<>\[\],+][A-Za-z0-9=<>\[\],+]*)\2(?=[.,;:)]?(?:\s|$))")
_TAIL = ".,;:"
_GREEK_NAMES = "alpha|beta|gamma|delta|Delta|epsilon|eps|theta|lambda|mu|rho|sigma|tau|phi|omega|Omega|ell"
#: the suite's own formulas: a letter or a Greek name with braced or one-character sub- and superscripts
_SCRIPTED = re.compile(rf"(?<![\w.\\])(?:[A-Za-z]|{_GREEK_NAMES})(?:[_^]\{{[^{{}}]*\}}|(?:[_^][A-Za-z0-9]+)+(?![\w{{]))+")
_BARE_SCRIPTS = re.compile(r"(?:[_^][A-Za-z0-9]+)+")
_GREEK = re.compile(rf"(?<![A-Za-z\\])({_GREEK_NAMES})(?![A-Za-z])")
#: after a command word and a space, the formula goes on when the next word has LaTeX in it (``\leq Me^{-t}``, not ``\phi and``)
_CONTINUES = re.compile(r"[\x21-\x7e]*[\\_^{}=+<>|]")  # an ASCII word (a rendering has Greek and math letters)
#: a relation or operator command takes the next word as its right-hand side (``\leq C``, ``\ll 1``, ``\times 3``)
_BINARY = {"leq", "geq", "le", "ge", "ll", "gg", "equiv", "neq", "approx", "sim", "to", "rightarrow", "leftarrow", "implies", "in",
           "notin", "subset", "times", "cdot", "pm", "mp", "div", "coloneqq"}
_ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")
_PLACEHOLDER = "\ue000{}\ue001"
_PLACEHOLDER_RE = re.compile("\ue000(\\d+)\ue001")


@dataclass(frozen=True)
class Piece:
    """Prose (``math`` False) or a formula's LaTeX source; ``display``: set apart (``$$...$$``)."""

    text: str
    math: bool = False
    display: bool = False


def _fold(text: str) -> str:
    """The letters and digits of `text`, compatibility-folded (math alphanumerics to plain letters)."""
    return "".join(c for c in unicodedata.normalize("NFKC", text) if c.isalnum())


@functools.lru_cache(maxsize=4096)
def mathml(latex: str, display: bool = False) -> str | None:
    """`latex` as a MathML ``<math>`` element, or None when it does not convert (a syntax error, or a
    command the converter leaves as text)."""
    from latex2mathml.converter import convert

    try:
        out = convert(latex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001  (latex2mathml raises many kinds on malformed input; all mean "not converted")
        return None
    if re.search(r">\\[A-Za-z]", out) or not re.search(r"<m(i|n|o|text|frac|sqrt|space)\b", out):
        return None  # an unknown command kept as text, or nothing to show
    return out


def _characters(markup: str) -> str:
    """`markup` with its character references written as the characters (those markup needs kept)."""
    return _ENTITY.sub(lambda m: m.group(0) if chr(int(m.group(1), 16)) in '<>&"' else chr(int(m.group(1), 16)), markup)


@functools.lru_cache(maxsize=8192)
def _visible(latex: str) -> str:
    """The characters the formula shows (its MathML's text), or "" when it does not convert."""
    out = mathml(latex)
    if out is None:
        return ""
    try:
        return "".join(ElementTree.fromstring(_characters(out)).itertext())
    except ElementTree.ParseError:
        return ""


def _continues(text: str, at: int) -> bool:
    word = re.match(r"\S*", text[at:]).group(0)
    return bool(_CONTINUES.match(word)) and word.split("\\", 1)[0].isascii()


def _scan(text: str, start: int) -> int:
    """The end of an undelimited formula that starts at `start`: the first space outside braces, except
    a single space that ends a command word; trailing punctuation and unbalanced closing brackets
    are prose."""
    depth, j, n = 0, start, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", text[j:], re.S)
            if depth == 0 and (m is None or m.group(1).isspace()):  # a control space at the end: prose follows
                break
            j += len(m.group(0))
            if m.group(1).isalpha() and depth == 0 and j + 1 < n and text[j] == " " and not text[j + 1].isspace() \
                    and (m.group(1) in _BINARY or _continues(text, j + 1)):
                j += 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                break
            depth -= 1
        elif c.isspace() and depth == 0:
            break
        j += 1
    while j > start and text[j - 1] in _TAIL and text[j - 2:j - 1] != "\\":
        j -= 1
    for opening, closing in ("()", "[]"):
        while j > start and text[j - 1] == closing and text[start:j].count(closing) > text[start:j].count(opening):
            j -= 1
    return j


def _likeness(copy: str, latex: str) -> float:
    import difflib

    shown = "".join(unicodedata.normalize("NFKC", _visible(latex)).split())
    return difflib.SequenceMatcher(None, unicodedata.normalize("NFKC", copy), shown, autojunk=False).ratio()


def _subsequence(short: str, long: str) -> bool:
    chars = iter(long)
    return all(c in chars for c in short)


def _copy_before(word: str, latex: str) -> int | None:
    """Where the text rendering of `latex` starts at the end of `word`, or None when `word` does not end
    with it (compared on letters and digits)."""
    wanted = _fold(_visible(latex))
    if not wanted:
        return None
    got, q, found = "", len(word), None
    while q > 0 and len(got) < len(wanted):
        q -= 1
        got = _fold(word[q]) + got
        if got and got[0] == wanted[0] and len(got) >= len(wanted) - len(wanted) // 5 and _subsequence(got, wanted):
            found = q  # the rendering may drop a letter (a double-struck R): a near-complete copy counts
    if found is None:
        return None
    q = found
    lead = unicodedata.normalize("NFKC", _visible(latex))
    lead = lead[: next((i for i, c in enumerate(lead) if c.isalnum()), 0)]
    while q > 0 and word[q - 1] in lead and not word[q - 1].isspace():
        q -= 1
    return q


def _undelimited(text: str) -> list[Piece]:
    """Prose and the undelimited formulas in it (module docstring), their text renderings dropped."""
    out: list[Piece] = []
    i = 0
    for_words = 0
    while True:
        m = _ANCHOR.search(text, i)
        if m is None:
            break
        word_start = max(i, max(text.rfind(" ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1)
        end = _scan(text, word_start)
        if end <= m.start():  # the anchor sits in trailing punctuation: not a formula
            out.append(Piece(text[i:m.end()]))
            i = m.end()
            continue
        word = text[word_start:end]
        start, copy = word_start, word_start
        matches = [(p, q) for p in range(1, m.start() - word_start + 1) if (q := _copy_before(word[:p], word[p:])) is not None]
        if matches:  # where the copy is most like the formula's rendering, signs and brackets included
            p, q = max(matches, key=lambda pq: (_likeness(word[pq[1]:pq[0]], word[pq[0]:]), word[pq[0]] not in ")]},;.:", -pq[0]))
            start, copy = word_start + p, word_start + q
        out.append(Piece(text[i:copy]))
        out.append(Piece(text[start:end], math=True))
        for_words += 1
        i = end
    out.append(Piece(text[i:]))
    if for_words:  # a text with formulas of this kind: a doubled letter is a one-letter formula
        split: list[Piece] = []
        for piece in out:
            if piece.math:
                split.append(piece)
                continue
            last = 0
            for d in _DOUBLED.finditer(piece.text):
                split += [Piece(piece.text[last:d.start()]), Piece(d.group(1) or d.group(2), math=True)]
                last = d.end()
            split.append(Piece(piece.text[last:]))
        out = split
    return [p for p in out if p.text]


def _nested(scripts: str) -> str:
    """``_Leak_i`` as ``_{Leak_{i}}``: a chain of bare sub- and superscripts, each inside the one before."""
    parts = re.findall(r"([_^])([A-Za-z0-9]+)", scripts)
    out = ""
    for mark, name in reversed(parts):
        out = f"{mark}{{{name}{out}}}"
    return out


def _ascii_math(text: str) -> list[Piece]:
    """The sub- and superscripted names of the suite's own plain-text formulas (``x_{n+1}``, ``a_n``,
    ``e^{-omega t}``) as formulas, Greek letters spelled out becoming LaTeX's (``omega`` is ``\\omega``)."""
    out: list[Piece] = []
    last = 0
    for m in _SCRIPTED.finditer(text):
        braced = _BARE_SCRIPTS.sub(lambda b: _nested(b.group(0)), m.group(0))
        latex = _GREEK.sub(lambda g: "\\varepsilon" if g.group(1) == "eps" else "\\" + g.group(1), braced)
        out += [Piece(text[last:m.start()]), Piece(latex, math=True)]
        last = m.end()
    out.append(Piece(text[last:]))
    return [p for p in out if p.text]


def pieces(text: str, *, own: bool = False) -> list[Piece]:
    """`text` as prose and formulas: a document's words (module docstring), or with `own` the suite's
    (statements, readings, defences: plain text whose formulas are ``$...$`` or sub- and superscripted
    names, `_ascii_math`)."""
    out: list[Piece] = []
    last = 0
    cut = _ascii_math if own else _undelimited
    for m in _DELIMITED.finditer(text):
        out += cut(text[last:m.start()])
        display = m.group(1) is not None
        out.append(Piece((m.group(1) if display else m.group(2)).strip(), math=True, display=display))
        last = m.end()
    out += cut(text[last:])
    return out


@functools.lru_cache(maxsize=1)
def _emphasis():
    from markdown_it import MarkdownIt

    return MarkdownIt("zero").enable(["emphasis", "backticks", "escape"])


def _formula_html(piece: Piece) -> str:
    out = mathml(piece.text, piece.display)
    if out is None:
        return f'<code class="tex" title="this formula did not convert to MathML: its LaTeX source">{_html.escape(piece.text)}</code>'
    out = _characters(out.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', ""))  # the page is UTF-8: characters, not references
    return f'<span class="math{" display" if piece.display else ""}">{out}</span>'


def _clipped(parts: list[Piece], limit: int) -> list[Piece]:
    """The first `limit` characters or so: prose cut at a word, a formula whole or left out, and "…"."""
    out, used = [], 0
    for p in parts:
        size = len(_visible(p.text) or p.text) if p.math else len(p.text)
        if used + size <= limit:
            out.append(p)
            used += size
            continue
        if not p.math:
            cut = p.text[: max(0, limit - used)].rsplit(" ", 1)[0] if limit > used else ""
            out.append(Piece(cut.rstrip(" ,;:") + " …"))
        else:
            out.append(Piece(" …"))
        break
    return out


@functools.lru_cache(maxsize=8192)  # a quote is shown on its document's page and on the overview, a claim's statement beside each item that names it
def html(text: str, *, emphasis: bool = True, own: bool = False, limit: int = 0) -> str:
    """`text` as HTML: prose escaped (with its Markdown emphasis rendered when `emphasis`), formulas as
    MathML, or as their marked LaTeX source where they do not convert (`own`: see `pieces`); with a
    `limit`, about its first `limit` characters (`_clipped`)."""
    parts = pieces(text, own=own)
    if limit:
        parts = _clipped(parts, limit)
    if not any(p.math for p in parts) and not emphasis:
        return _html.escape("".join(p.text for p in parts))
    formulas = [_formula_html(p) for p in parts if p.math]
    joined, k = [], 0
    for p in parts:
        if p.math:
            joined.append(_PLACEHOLDER.format(k))
            k += 1
        else:
            joined.append(p.text)
    flat = "".join(joined)
    body = _emphasis().renderInline(flat) if emphasis else _html.escape(flat)
    return _PLACEHOLDER_RE.sub(lambda m: formulas[int(m.group(1))], body)


_MD_SPECIAL = re.compile(r"[*`<\\]|(?<!\w)_|_(?!\w)")


def escape_markdown(text: str) -> str:
    """Plain text safe in Markdown: the characters that would start emphasis, code or HTML escaped."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def markdown(text: str, *, own: bool = False) -> str:
    """`text` as Markdown: formulas as ``$LaTeX$`` (``$$LaTeX$$`` displayed), prose as it is (a document's
    quote, Markdown already or plain), or with `own` (the suite's plain text, `pieces`) escaped."""
    out = []
    for p in pieces(text, own=own):
        if not p.math:
            out.append(escape_markdown(p.text) if own else p.text)
        elif p.display:
            out.append(f"$${p.text}$$")
        else:
            out.append(f"${p.text.strip()}$")
    return "".join(out)
