"""Findings as a reader meets them: per ledger item, the quote and its place, what fails and for which
values (the witness), the defence and the prosecution, and the claims it tests and cites, each with
its evidence and the function that decides it. The report's document pages (`nacverify report
html`), ``nacverify findings`` in the terminal and ``nacverify findings --format markdown`` show the
same views; this module builds them and writes the Markdown.

A view is built from the finding (`nacverify.findings`, which decides the label: this module only
shows it), its ledger item, and the claims: with a report, each claim's record (the run's verdict,
message and witness); without one, each registered claim with its expected verdict and the reason
the repository expects it (which states the counterexample in words and numbers, but no witness).

*What fails* names the claims whose verdict makes the finding:

- ``error`` and ``slip``: the claims that accuse (refuted, about the document, no threshold of ours);
- ``depends-on-reading``: the readings that fail, then the charitable reading that holds;
- ``inconclusive``: the claims that accuse or could not decide, and the part no claim tests;
- ``holds`` and ``not-checkable``: nothing fails (the latter says why it cannot be checked).

At a glance a reader meets the quote, its place and what fails with the witness; the defence, the
prosecution and the review record are one click (or ``-v``) away, the defence announced by its
conclusion in one sentence (`conclusion`: the sentence of the recorded text that states its verdict).
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..findings import FINDINGS, Finding
from . import formulas

__all__ = ["ClaimLine", "Failure", "FindingView", "finding_views", "ordered", "findings_markdown", "witness_text", "conclusion", "clip", "WEIGHT",
           "MEANING"]

#: A finding's place in every listing: error first, not-checkable last (`nacverify.findings.FINDINGS`).
WEIGHT = {name: rank for rank, name in enumerate(FINDINGS)}
#: The words a finding's name stands for, for a reader who has not read the standard.
MEANING = {
    "error": "false as meant: it fails under every reading that keeps its words and scope",
    "slip": "false as printed, a typo or omission whose intended meaning is unique",
    "depends-on-reading": "one reading that keeps the words holds, another as plausible fails",
    "inconclusive": "nothing refutes it, but a check could not decide it or a part is untested",
    "holds": "every claim that tests the statement holds",
    "not-checkable": "cannot be checked here",
}
_DOCUMENT_KINDS = ("as-printed", "reading")
_UNDECIDED = ("inconclusive", "error")


#: A sentence ends at . ! or ? followed by a space and a capital, a quote or a parenthesis ("e.g. x" and "eq. 5" do not end one).
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?]\)))\s+(?=[A-Z'\"(])")
_NOT_AN_END = re.compile(r"(?:\b(?:e\.g|i\.e|eq|eqs|Eq|Eqs|cf|vs|Sec|Fig|Tab|approx|resp|No)\.)$")
#: Sentences that open with these state the defender's conclusion (the ledger's own words, e.g. "Defender's best: ... it holds in that sense.").
_CONCLUDING = ("Defender's best:", "It fails", "It is not a slip", "This is not a slip", "Kept as an error", "The label stands", "Kindest reading:")
#: Sentences that record the review (who answered what, what was changed), not the defence's conclusion.
_RECORD = ("Recorded:", "Mended:", "Answered:", "Prosecutor (", "Independent defender:")
_VERDICT_WORDS = re.compile(r"\b(?:errors?|slips?|depends[- ]on[- ](?:the[- ])?reading|holds?|inconclusive|not[- ]checkable|stands|fails|true|false)\b", re.I)
CONCLUSION_CHARS = 320  # the most a conclusion shows; the whole text is one click away


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for piece in _SENTENCE_END.split(text):
        if out and _NOT_AN_END.search(out[-1]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return [s for s in out if s]


def clip(text: str, chars: int) -> str:
    """The start of `text`, cut between words, with " [...]" when anything was left out (the terminal's
    mark: a "…" there would read as a line rich cut)."""
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    return text[:chars].rsplit(" ", 1)[0].rstrip(" ,;:—") + " [...]"


def conclusion(text: str) -> str:
    """The one sentence of a recorded defence (or prosecution) that states its verdict: the first that
    opens as a conclusion does (`_CONCLUDING`), else the last that names a label or a verdict word
    ("Depends on the reading.", "Error stands.", "So slip, not error.") and is not part of the
    review record (`_RECORD`), else the first sentence; at most `CONCLUSION_CHARS`. The finding's
    own bracketed note (the charitable reading it tried) is not part of the defender's words."""
    text = " ".join(re.sub(r"\s*\[[^\[\]]*\]", "", text).split())
    sentences = _sentences(text)
    if not sentences:
        return ""
    chosen = next((s for s in sentences if s.startswith(_CONCLUDING)), None)
    if chosen is None:
        chosen = next((s for s in reversed(sentences) if not s.startswith(_RECORD) and _VERDICT_WORDS.search(s)), sentences[0])
    return clip(chosen, CONCLUSION_CHARS)


@dataclass(frozen=True)
class ClaimLine:
    """One claim beside a finding: what it states and how it came out (`message`: the run's message,
    or without a report the reason its verdict is expected), its witness (the run's), and where it is
    decided (``module:function`` and ``file:line``, from `nacverify.provenance`; empty for a claim this
    version does not register)."""

    id: str
    kind: str
    verdict: str
    expected: str
    statement: str
    reading: str
    message: str
    witness: Mapping[str, Any]
    threshold: str = ""
    decided_in: str = ""
    file_line: str = ""

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.expected

    @property
    def accuses(self) -> bool:
        return self.verdict == "refuted" and self.kind in _DOCUMENT_KINDS and not self.threshold


@dataclass(frozen=True)
class FindingView:
    """A finding with everything a reader needs beside it (module docstring)."""

    finding: Finding
    title: str = ""
    charitable: str = ""
    measured: bool = False  # verdicts and messages of a run (a report), or the repository's expected ones
    tests: tuple[ClaimLine, ...] = ()
    cites: tuple[ClaimLine, ...] = ()
    failing: tuple[ClaimLine, ...] = ()
    holding: tuple[ClaimLine, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.finding.document}:{self.finding.item}"

    @property
    def name(self) -> str:
        return self.finding.finding

    @property
    def where(self) -> str:
        """The item's place in its document: location and line of the seed file."""
        f = self.finding
        return f"{f.location}, line {f.line}" if f.line else f.location

    @property
    def defence_conclusion(self) -> str:
        """The defence (or, for ``not-checkable``, why it cannot be checked) in one sentence (`conclusion`)."""
        return conclusion(self.finding.defense) if self.finding.defense else ""

    @property
    def review_conclusion(self) -> str:
        """The prosecution's answer in one sentence: its opening, which records the verdict it reached
        (``Prosecutor (independent review of DATE, reviewing 'holds'): upheld, ...``)."""
        first = _sentences(" ".join(self.finding.prosecution.split()))
        return clip(first[0], CONCLUSION_CHARS) if first else ""

    def fails(self) -> list["Failure"]:
        """What fails, one entry per claim that makes the finding (module docstring); the charitable
        reading that holds, for ``depends-on-reading``; empty when nothing fails."""
        out = []
        for c in self.failing:
            mark = "" if c.as_expected else f" (expected {c.expected})"
            out.append(Failure(c.id, f"{c.id} ({c.kind or 'claim'}) is {c.verdict}{mark}", f"read as {c.reading}" if c.reading else c.statement,
                               c.message))
        for c in self.holding:  # the charitable reading: it holds, or is refuted only through a threshold of ours (a measurement)
            verb = "holds" if c.verdict == "holds" else f"is {c.verdict} only through a threshold of ours ({c.threshold})"
            out.append(Failure(c.id, f"{c.id} {verb}", f"read as {c.reading}" if c.reading else c.statement, ""))
        if self.finding.untested and self.name == "inconclusive":
            out.append(Failure("", "Not tested", self.finding.untested, ""))
        return out


@dataclass(frozen=True)
class Failure:
    """One line of what fails: the claim (``claim``; empty for an untested part), a head naming it and
    its verdict, what it states (`said`: the statement, or its reading; formulas in the suite's plain
    text), and why (`why`: the run's message, or the reason the verdict is expected)."""

    claim: str
    head: str
    said: str
    why: str

    def text(self) -> str:
        return f"{self.head}: {self.said}" + (f" — {self.why}" if self.why else "")


def _claim_line(cid: str, kind: str, verdict: str, claims: Mapping[str, Any], records: Mapping[str, Any] | None,
                definitions: Mapping[str, Any]) -> ClaimLine:
    record = (records or {}).get(cid)
    known = claims.get(cid)
    source = record if record is not None else known
    expected = str(getattr(getattr(source, "expected", ""), "value", getattr(source, "expected", "")))
    message = getattr(record, "message", "") if record is not None else str(getattr(known, "expected_reason", "") or "")
    where = definitions.get(cid)
    return ClaimLine(cid, kind, verdict, expected, str(getattr(source, "statement", "") or ""), str(getattr(source, "reading", "") or ""),
                     " ".join(str(message).split()), dict(getattr(record, "witness", {}) or {}), str(getattr(source, "threshold", "") or ""),
                     str(where) if where else "", f"{where.file}:{where.line}" if where else "")


def finding_views(pairs: Iterable[tuple[Any, Finding]], claims: Mapping[str, Any], *, records: Mapping[str, Any] | None = None,
                  definitions: Mapping[str, Any] | None = None, titles: Mapping[str, str] | None = None) -> list[FindingView]:
    """The view of each (ledger item, finding) pair, in the order given. `claims`: the registered claims
    (their statements and expected verdicts); `records`: a report's claim records, whose verdicts,
    messages and witnesses then take their place; `definitions`: claim id -> `provenance.Definition`."""
    definitions = definitions or {}
    out = []
    for item, f in pairs:
        tests = tuple(_claim_line(cid, kind, verdict, claims, records, definitions) for cid, kind, verdict in f.claims)
        cites = tuple(_claim_line(cid, kind, verdict, claims, records, definitions) for cid, kind, verdict in f.cited)
        charitable = getattr(item, "charitable", None) or ""
        if f.finding in ("error", "slip"):
            failing = tuple(c for c in tests if c.id in f.accusing) or tuple(c for c in tests if c.accuses)
            holding: tuple[ClaimLine, ...] = ()
        elif f.finding == "depends-on-reading":
            failing = tuple(c for c in tests if c.accuses)
            holding = tuple(c for c in tests if c.id == charitable)
        elif f.finding == "inconclusive":
            failing = tuple(c for c in tests if c.accuses or (c.kind in _DOCUMENT_KINDS and c.verdict in _UNDECIDED)) \
                or tuple(c for c in tests if c.verdict in _UNDECIDED)
            holding = ()
        else:
            failing, holding = (), ()
        out.append(FindingView(f, (titles or {}).get(f.document, ""), charitable, records is not None, tests, cites, failing, holding))
    return out


def ordered(views: Iterable[FindingView]) -> list[FindingView]:
    """Heaviest first (error, slip, depends-on-reading, inconclusive, holds, not-checkable); the
    document's order within each."""
    return sorted(views, key=lambda v: WEIGHT.get(v.name, len(WEIGHT)))


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def witness_text(witness: Mapping[str, Any]) -> str:
    """``k = v; ...`` (floats to six significant digits)."""
    return "; ".join(f"{k} = {_value(v)}" for k, v in witness.items())


# ------------------------------------------------------------------ Markdown


def _md_code(text: str) -> str:
    return f"`{text}`" if "`" not in text else f"``{text}``"


def _md_quote(text: str) -> str:
    return "\n".join("> " + line if line.strip() else ">" for line in formulas.markdown(text).splitlines() or [""])


def _md_claim(c: ClaimLine) -> str:
    mark = "" if c.as_expected else f" **≠ expected {c.expected}**"
    where = f"; decided in {_md_code(c.decided_in)} ({_md_code(c.file_line)})" if c.decided_in else ""
    return f"{_md_code(c.id)} ({c.kind or 'no kind'}: {c.verdict}{mark}){where}"


def _md_view(v: FindingView) -> list[str]:
    f = v.finding
    esc = formulas.escape_markdown
    lines = [f"### {v.key}: {v.name}", "", f"**Where:** {esc(v.where)}", "", _md_quote(f.quote), ""]
    if f.slip:
        lines += [f"**Meant (slip):** {esc(f.slip)}", ""]
    fails = v.fails()
    if fails:
        lines.append("**What fails:**" if v.name != "depends-on-reading" else "**What fails, and the reading that holds:**")
        lines += [f"- {esc(x.head)}: {esc(x.said)}" + (f" — {esc(x.why)}" if x.why else "") for x in fails]
        lines.append("")
    witnesses = [(c.id, witness_text(c.witness)) for c in v.failing if c.witness]
    if witnesses:
        lines += ["**Witness:**"] + [f"- {_md_code(cid)}: {formulas.escape_markdown(w)}" for cid, w in witnesses] + [""]
    elif v.failing and not v.measured:
        lines += ["**Witness:** in a check report (`nacverify check`, then `findings --report F`); the reason above states it.", ""]
    if f.defense or f.prosecution:  # one click away: GitHub renders <details> and the Markdown inside it
        label = "Why it cannot be checked" if v.name == "not-checkable" else "Defence"
        summary = f"{label}: {v.defence_conclusion}" if f.defense else f"Review: {v.review_conclusion}"
        lines += ["<details>", f"<summary>{_html.escape(summary, quote=False)}</summary>", ""]
        if f.defense:
            lines += [f"**{label}:** {esc(f.defense)}", ""]
        if f.prosecution:
            lines += [f"**Prosecution (independent review) and the review record:** {esc(f.prosecution)}", ""]
        lines += ["</details>", ""]
    if f.untested and v.name != "inconclusive":
        lines += [f"**Not tested:** {esc(f.untested)}", ""]
    if v.tests:
        lines += ["**Claims it tests:**"] + [f"- {_md_claim(c)}" for c in v.tests] + [""]
    if v.cites:
        lines += ["**Claims it cites:**"] + [f"- {_md_claim(c)}" for c in v.cites] + [""]
    return lines


def findings_markdown(views: Iterable[FindingView], *, document: str, title: str, counts: Mapping[str, int], basis: str,
                      listed: Iterable[str] = FINDINGS) -> str:
    """One document's findings as Markdown: a heading, the counts, then each finding of the `listed`
    kinds, heaviest first, with its quote (formulas as ``$LaTeX$``), place, what fails, witness,
    defence, prosecution and claims. `basis` says whose verdicts these are."""
    listed = tuple(listed)
    views = [v for v in ordered(views) if v.name in listed]
    count_text = ", ".join(f"{counts.get(name, 0)} {name}" for name in FINDINGS)
    lines = [f"# Findings of document {document}: {formulas.escape_markdown(title)}", "",
             f"{count_text} (one finding per statement; {basis}). Labels follow the findings standard "
             "(`reports/FINDINGS_STANDARD.md` of nacverify): " + "; ".join(f"*{n}*: {MEANING[n]}" for n in FINDINGS if n in listed) + ".", ""]
    if set(listed) != set(FINDINGS):
        lines += [f"Listed here: {', '.join(listed)} ({len(views)} of {sum(counts.values())} items).", ""]
    current = None
    for v in views:
        if v.name != current:
            current = v.name
            lines += [f"## {current} ({sum(1 for w in views if w.name == current)})", ""]
        lines += _md_view(v)
    return "\n".join(lines).rstrip() + "\n"
