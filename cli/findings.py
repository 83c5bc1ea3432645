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

FINDING_STYLE = {"error": "red", "depends-on-reading": "yellow", "holds": "green", "inconclusive": "blue", "not-checkable": "dim"}


@guarded
def findings(
    source: Annotated[Optional[list[str]], typer.Option("--source", help=f"Document id ({', '.join(SEED_FILES)}; repeatable; default: all).")] = None,
    report: Annotated[Optional[Path], typer.Option("--report", help="Use the verdicts of this check report (default: each claim's expected verdict, "
                                                   "which is what the checks give wherever `check --gate` passes).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List every item, not only those found in error or depending on the reading.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """One finding per ledger item: error (fails under its most charitable reading), depends-on-reading,
    holds, inconclusive or not-checkable, with the claims behind it and the defence tried. One statement
    is one finding, however many claims support it; claims stay the unit of evidence and of the gate.
    Exits 1 when an item with a refuted claim about the document registers no charitable reading."""
    fmt = output_format(fmt, as_json)
    from nacverify.findings import FINDINGS, expected_verdicts, finding_counts, findings as item_findings, missing_defenses, report_claims

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
    left_out = sum(len(led.items) for led in ledgers.values()) - len(found)
    if fmt == OutputFormat.json:
        print_json({"schema": "nacverify.findings/1", "basis": "report" if report else "expected", "report": str(report) if report else None,
                    "counts": counts, "findings": [f.to_json() for f in found], "problems": problems})
    else:
        table = Table(title=f"findings per document ({'verdicts of ' + str(report) if report else 'expected verdicts'}; one per ledger item)")
        table.add_column("document")
        for name in FINDINGS:
            table.add_column(name, justify="right")
        for doc, c in counts.items():
            table.add_row(doc, *[f"[{FINDING_STYLE[n]}]{c[n]}[/]" if c[n] and n in ("error", "depends-on-reading") else str(c[n]) for n in FINDINGS])
        console.print(table)
        listed = [f for f in found if show_all or f.finding in ("error", "depends-on-reading")]
        if listed:
            rows = Table(title="items" if show_all else "items found in error or depending on the reading", show_lines=True)
            for col in ("item", "finding", "claims", "defense"):
                rows.add_column(col, overflow="fold", no_wrap=col == "finding")
            for f in listed:
                claim_text = ", ".join(f"{cid} ({kind}: {verdict})" for cid, kind, verdict in f.claims)
                rows.add_row(escape(f"{f.document}:{f.item}"), f"[{FINDING_STYLE[f.finding]}]{f.finding}[/]", escape(claim_text), escape(f.defense))
            console.print(rows)
        if left_out:
            console.print(f"{left_out} item(s) left out: their claims are not all in {report}", markup=False)
    for p in problems:
        err_console.print(f"findings: {p}", markup=False)
    if problems:
        err_console.print(f"findings: {len(problems)} item(s) without a registered charitable reading", markup=False)
        raise typer.Exit(EXIT_GATE)
    raise typer.Exit(EXIT_OK)
