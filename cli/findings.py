"""`nacverify findings`: one finding per ledger item, the unit a reader counts (nacverify/findings.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.ledger import SEED_FILES, load_ledgers

from ._common import EXIT_GATE, EXIT_OK, console, err_console, guarded
from ._common import FormatOption, JsonFlag, OutputFormat, output_format, print_json

FINDING_STYLE = {"error": "red", "slip": "magenta", "depends-on-reading": "yellow", "holds": "green", "inconclusive": "blue", "not-checkable": "dim"}
#: the findings listed without --all: those that say the document is wrong, or that it depends on the reading
LISTED = ("error", "slip", "depends-on-reading")


@guarded
def findings(
    source: Annotated[Optional[list[str]], typer.Option("--source", help=f"Document id ({', '.join(SEED_FILES)}; repeatable; default: all).")] = None,
    report: Annotated[Optional[Path], typer.Option("--report", help="Use the verdicts of this check report (default: each claim's expected verdict, "
                                                   "which is what the checks give wherever `check --gate` passes).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List every item, not only errors, slips and items that depend on the reading.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """One finding per ledger item: error (false under every reading that keeps its words and scope), slip
    (a typo or omission whose meaning is unique), depends-on-reading, inconclusive, holds or not-checkable,
    with the claims it tests and cites, the defence and the prosecution tried (reports/FINDINGS_STANDARD.md).
    One statement is one finding, however many claims support it; claims stay the unit of evidence and of
    the gate. Exits 1 when an item breaks the standard's enforceable rules (listed on stderr)."""
    fmt = output_format(fmt, as_json)
    from nacverify.findings import FINDINGS, expected_verdicts, finding_counts, findings as item_findings, missing_defenses, owners, report_claims, standard_problems

    ledgers = load_ledgers(source)
    if report is None:
        import nacverify.catalog  # noqa: F401  (registers every claim provider)
        from nacverify.claims import registry

        claims = registry()
        verdicts = expected_verdicts(claims)
    else:
        from nacverify.report import read_report

        claims, verdicts = report_claims(read_report(report).claims.values())
    found = item_findings(ledgers, verdicts, claims)
    counts = finding_counts(found)
    problems = missing_defenses(ledgers, claims, verdicts)
    if report is None:  # ownership, twins and readings are the repository's, judged on the expected verdicts
        problems += standard_problems(ledgers, claims, verdicts)
    owned = {cid: {doc: items[0] for doc, items in per_doc.items()} for cid, per_doc in owners(ledgers, verdicts, claims).items()}
    left_out = sum(len(led.items) for led in ledgers.values()) - len(found)
    if fmt == OutputFormat.json:
        print_json({"schema": "nacverify.findings/2", "basis": "report" if report else "expected", "report": str(report) if report else None,
                    "counts": counts, "findings": [f.to_json() for f in found], "owners": owned, "problems": problems})
    else:
        table = Table(title=f"findings per document ({'verdicts of ' + str(report) if report else 'expected verdicts'}; one per ledger item)")
        table.add_column("document")
        for name in FINDINGS:
            table.add_column(name, justify="right")
        for doc, c in counts.items():
            table.add_row(doc, *[f"[{FINDING_STYLE[n]}]{c[n]}[/]" if c[n] and n in LISTED else str(c[n]) for n in FINDINGS])
        console.print(table)
        listed = [f for f in found if show_all or f.finding in LISTED]
        if listed:
            rows = Table(title="items" if show_all else "items found in error, slips, and items depending on the reading", show_lines=True)
            for col in ("item", "finding", "claims", "defense"):
                rows.add_column(col, overflow="fold", no_wrap=col == "finding")
            for f in listed:
                claim_text = ", ".join(f"{cid} ({kind}: {verdict})" for cid, kind, verdict in f.claims)
                if f.cited:
                    claim_text += "; cites " + ", ".join(f"{cid} ({kind}: {verdict})" for cid, kind, verdict in f.cited)
                why = " ".join(p for p in (f"slip, meant: {f.slip}" if f.slip else "", f.defense, f"prosecution: {f.prosecution}" if f.prosecution else "") if p)
                rows.add_row(escape(f"{f.document}:{f.item}"), f"[{FINDING_STYLE[f.finding]}]{f.finding}[/]", escape(claim_text), escape(why))
            console.print(rows)
        if left_out:
            console.print(f"{left_out} item(s) left out: their claims are not all in {report}", markup=False)
    for p in problems:
        err_console.print(f"findings: {p}", markup=False)
    if problems:
        err_console.print(f"findings: {len(problems)} item(s) break the labelling standard (reports/FINDINGS_STANDARD.md)", markup=False)
        raise typer.Exit(EXIT_GATE)
    raise typer.Exit(EXIT_OK)
