"""`nacverify findings`: one finding per ledger item, the unit a reader counts (nacverify/findings.py).

People's output is a summary (the counts per document) and then the findings that say the document
is wrong or depends on the reading, each at a glance: label, item and place, the start of its words,
what fails (the reading that holds too, for depends-on-reading) and the witness. ``--finding`` chooses
the labels listed, ``--all`` lists every item, ``-v`` prints every item with everything (words, what
fails, witness, the defence in one sentence and in full, the prosecution and review record, claims
and where each is decided). ``--format markdown`` writes the same views as Markdown, to paste
into an e-mail, a review or an issue (formulas as ``$LaTeX$``). Lines are wrapped at the terminal's
width (or COLUMNS) between words: ids, labels and words are never cut."""

from __future__ import annotations

import enum
import textwrap
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.text import Text

from nacverify.errors import BadInput
from nacverify.ledger import SEED_FILES, load_ledgers

from ._exits import EXIT_GATE, EXIT_OK
from ._guard import guarded
from ._options import VerboseOption
from ._output import console, err_console, print_json

FINDING_STYLE = {"error": "bold red", "slip": "bold magenta", "depends-on-reading": "bold yellow", "holds": "green", "inconclusive": "blue",
                 "not-checkable": "dim"}
#: the findings listed by default: those that say the document is wrong, or that it depends on the reading
LISTED = ("error", "slip", "depends-on-reading")
QUOTE_CHARS = 100  # the start of an item's words in the default listing; -v prints all of them
WHY_CHARS = 140  # the start of what fails
WITNESS_CHARS = 100  # the start of the witness
FAILS_SHOWN = 1  # claims that fail, in the default listing (depends-on-reading adds the reading that holds); -v prints every one


class FindingsFormat(str, enum.Enum):
    """What `findings` writes: text for people, one JSON document, or Markdown to paste."""

    table = "table"
    json = "json"
    markdown = "markdown"


def _listed(finding: Optional[str], show_all: bool, verbose: bool) -> tuple[str, ...]:
    from nacverify.findings import FINDINGS

    if finding is None:
        return FINDINGS if (show_all or verbose) else LISTED
    names = tuple(n.strip() for n in finding.split(",") if n.strip())
    unknown = [n for n in names if n not in FINDINGS]
    if unknown or not names:
        raise BadInput(f"--finding {finding!r}: expected a comma-separated list of {', '.join(FINDINGS)}")
    return tuple(n for n in FINDINGS if n in names)


def _clip(text: str, chars: int) -> str:
    """The start of `text`, cut between words, with " [...]" when anything was left out."""
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    return text[:chars].rsplit(" ", 1)[0].rstrip(" ,;:—") + " [...]"


def _wrapped(text: str, width: int, indent: str) -> list[str]:
    # a word longer than a line (a long formula) is broken; ids and words that fit a line never are
    return textwrap.wrap(text, width=max(20, width), initial_indent=indent, subsequent_indent=indent, break_long_words=True,
                         break_on_hyphens=False) or [indent.rstrip()]


def _print_view(v, width: int, verbose: bool) -> None:
    from nacverify.report import formulas
    from nacverify.report.findings_view import witness_text

    f = v.finding
    first, *rest = _wrapped(f"{v.name} {v.key} at {v.where}", width, "")  # the label and the item never wrap: both are short
    head = Text(first)
    head.stylize(FINDING_STYLE.get(v.name, ""), 0, len(v.name))
    head.stylize("bold", len(v.name) + 1, len(v.name) + 1 + len(v.key))
    lines = [head] + [Text(line) for line in _wrapped(" ".join(rest), width, "    ")] if rest else [head]
    quote = formulas.markdown(f.quote)
    lines += [Text(line) for line in _wrapped(f'"{quote if verbose else _clip(quote, QUOTE_CHARS)}"', width, "    ")]
    if f.slip:
        lines += [Text(line) for line in _wrapped(f"meant: {f.slip if verbose else _clip(f.slip, WHY_CHARS)}", width, "    ")]
    fails = v.fails()
    failing = {c.id for c in v.failing}
    shown = fails if verbose else [x for x in fails if x.claim in failing][:FAILS_SHOWN] + [x for x in fails if x.claim not in failing][:1]
    more = "" if verbose or len(fails) <= len(shown) else f" (+{len(fails) - len(shown)} more: -v)"
    for i, x in enumerate(shown):
        if verbose:
            text = x.text()
        elif x.claim in failing:  # at a glance: what fails and why; the claim's id is in -v and on the page
            text = _clip(f"{x.said} — {x.why}" if x.why else x.said, WHY_CHARS)
        else:
            text = _clip(f"holds: {x.said}", WHY_CHARS)
        text += more if i == len(shown) - 1 else ""
        lines += [Text(line, style="yellow" if v.name != "depends-on-reading" or x.claim in failing else "")
                  for line in _wrapped(("fails: " if x.claim in failing else "") + text, width, "    ")]
    for c in v.failing if verbose else v.failing[:1]:
        if c.witness:
            head, text = (f"witness ({c.id})", witness_text(c.witness)) if verbose else ("witness", _clip(witness_text(c.witness), WITNESS_CHARS))
            lines += [Text(line) for line in _wrapped(f"{head}: {text}", width, "    ")]
    if verbose:
        if f.defense:
            label = "why" if v.name == "not-checkable" else "defence"
            lines += [Text(line, style="bold") for line in _wrapped(f"{label}, in one sentence: {v.defence_conclusion}", width, "    ")]
            lines += [Text(line) for line in _wrapped(f"{label}: {f.defense}", width, "    ")]
        if f.prosecution:
            lines += [Text(line) for line in _wrapped(f"prosecution and review record: {f.prosecution}", width, "    ")]
        if f.untested and v.name != "inconclusive":
            lines += [Text(line) for line in _wrapped(f"not tested: {f.untested}", width, "    ")]
        for role, claims in (("tests", v.tests), ("cites", v.cites)):
            for c in claims:
                mark = "" if c.as_expected else f" ≠ expected {c.expected}"
                where = f", decided in {c.decided_in} ({c.file_line})" if c.decided_in else ""
                lines += [Text(line) for line in _wrapped(f"{role} {c.id} ({c.kind or 'no kind'}: {c.verdict}{mark}){where}", width, "    ")]
    for line in lines:
        console.print(line, soft_wrap=True)


def _print_counts(counts: dict, title: str, width: int) -> None:
    """The counts per document: a table where it fits `width`, else one line per document."""
    from rich.table import Table

    from nacverify.findings import FINDINGS

    need = len("document") + sum(max(len(n), 3) for n in FINDINGS) + 2 * len(FINDINGS)  # columns, one space each side, no rules
    for line in _wrapped(title, width, ""):
        console.print(Text(line, style="italic"), soft_wrap=True)
    if need <= width:
        table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold underline")
        table.add_column("document", no_wrap=True)
        for name in FINDINGS:
            table.add_column(name, justify="right", no_wrap=True)
        for doc, c in counts.items():
            table.add_row(doc, *[f"[{FINDING_STYLE[n]}]{c[n]}[/]" if c[n] and n in LISTED else str(c[n]) for n in FINDINGS])
        console.print(table)
        return
    for doc, c in counts.items():
        for line in _wrapped(f"{doc}: " + ", ".join(f"{c[n]} {n}" for n in FINDINGS), width, ""):
            console.print(line, markup=False, soft_wrap=True)


@guarded
def findings(
    source: Annotated[Optional[list[str]], typer.Option("--source", help=f"Document id ({', '.join(SEED_FILES)}; repeatable; default: all).")] = None,
    report: Annotated[Optional[Path], typer.Option("--report", help="Use the verdicts, messages and witnesses of this check report (default: "
                                                   "each claim's expected verdict and the reason for it, which is what the checks give "
                                                   "wherever `check --gate` passes).")] = None,
    finding: Annotated[Optional[str], typer.Option("--finding", metavar="LIST", help="List only these findings, comma-separated "
                                                   "(error,slip,depends-on-reading,inconclusive,holds,not-checkable); default: error, "
                                                   "slip and depends-on-reading.")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List every item, not only errors, slips and items that depend on the reading.")] = False,
    verbose: VerboseOption = False,
    fmt: Annotated[FindingsFormat, typer.Option("--format", help="table (for people), json (one JSON document on stdout; schema in "
                                                "reports/JSON_SCHEMA.md) or markdown (the findings of each document, heaviest first, "
                                                "to paste: formulas as $LaTeX$).")] = FindingsFormat.table,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
) -> None:
    """One finding per ledger item: error (false under every reading that keeps its words and scope), slip
    (a typo or omission whose meaning is unique), depends-on-reading, inconclusive, holds or not-checkable,
    with the claims it tests and cites, the defence and the prosecution tried (reports/FINDINGS_STANDARD.md).
    Prints the counts, then each error, slip and depends-on-reading item in a few lines (-v: every item, in
    full). One statement is one finding, however many claims support it; claims stay the unit of evidence
    and of the gate. Exits 1 when an item breaks the standard's enforceable rules (listed on stderr)."""
    fmt = FindingsFormat.json if as_json else FindingsFormat(fmt)
    listed = _listed(finding, show_all, verbose)
    from nacverify.findings import expected_verdicts, finding_counts, findings as item_findings, missing_defenses, owners, report_claims, standard_problems

    ledgers = load_ledgers(source)
    import nacverify.catalog  # noqa: F401  (registers every claim provider)
    from nacverify.claims import registry

    known = registry()
    records = None
    if report is None:
        claims = known
        verdicts = expected_verdicts(claims)
    else:
        from nacverify.report import read_report

        records = read_report(report).claims
        claims, verdicts = report_claims(records.values())
    found = item_findings(ledgers, verdicts, claims)
    counts = finding_counts(found)
    problems = missing_defenses(ledgers, claims, verdicts)
    if report is None:  # ownership, twins and readings are the repository's, judged on the expected verdicts
        problems += standard_problems(ledgers, claims, verdicts)
    owned = {cid: {doc: items[0] for doc, items in per_doc.items()} for cid, per_doc in owners(ledgers, verdicts, claims).items()}
    left_out = sum(len(led.items) for led in ledgers.values()) - len(found)
    if fmt == FindingsFormat.json:
        print_json({"schema": "nacverify.findings/2", "basis": "report" if report else "expected", "report": str(report) if report else None,
                    "counts": counts, "findings": [f.to_json() for f in found], "owners": owned, "problems": problems})
    else:
        views = _views(ledgers, found, known, records)
        basis = f"verdicts of {report}" if report else "expected verdicts"
        if fmt == FindingsFormat.markdown:
            _print_markdown(ledgers, views, counts, listed, basis)
        else:
            width = console.width
            _print_counts(counts, f"findings per document ({basis}; one per ledger item)", width)
            shown = [v for v in views if v.name in listed]
            if shown:
                console.print()
                for line in _wrapped(f"{len(shown)} item(s): {', '.join(listed)}, heaviest first" + ("" if verbose else " (-v: everything)"), width, ""):
                    console.print(Text(line, style="italic"), soft_wrap=True)
            for v in shown:
                console.print()
                _print_view(v, width, verbose)
        if left_out:
            err_console.print(f"{left_out} item(s) left out: their claims are not all in {report}", markup=False)
    for p in problems:
        err_console.print(f"findings: {p}", markup=False)
    if problems:
        err_console.print(f"findings: {len(problems)} item(s) break the labelling standard (reports/FINDINGS_STANDARD.md)", markup=False)
        raise typer.Exit(EXIT_GATE)
    raise typer.Exit(EXIT_OK)


def _views(ledgers, found, known, records):
    """The findings' views (nacverify.report.findings_view), heaviest first within each document."""
    from nacverify.provenance import defined_in
    from nacverify.report.findings_view import finding_views, ordered

    items = {(it.document, it.item): it for led in ledgers.values() for it in led.items}
    ids = {cid for f in found for cid, _, _ in (*f.claims, *f.cited)}
    definitions = {cid: defined_in(known[cid]) for cid in ids if cid in known}
    views = finding_views([(items[(f.document, f.item)], f) for f in found], known, records=records, definitions=definitions,
                          titles={doc: led.title for doc, led in ledgers.items()})
    by_doc: dict[str, list] = {}
    for v in views:
        by_doc.setdefault(v.finding.document, []).append(v)
    return [v for doc in by_doc for v in ordered(by_doc[doc])]


def _print_markdown(ledgers, views, counts, listed, basis) -> None:
    import sys

    from nacverify.report.findings_view import findings_markdown

    parts = []
    for doc in counts:
        parts.append(findings_markdown([v for v in views if v.finding.document == doc], document=doc, title=ledgers[doc].title, counts=counts[doc],
                                       basis=basis, listed=listed))
    sys.stdout.write("\n".join(parts))
    sys.stdout.flush()
