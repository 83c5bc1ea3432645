"""`nacverify coverage`: how much of each source document the claims check (the ledger)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.ledger import SEED_FILES, coverage as ledger_coverage, find_seeds_dir, load_ledgers, quote_problems, validate

from ._exits import EXIT_GATE, EXIT_OK, command_line
from ._finish import write_report_file
from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, output_format
from ._output import console, err_console, fitted, print_json


@guarded(report=lambda a: "coverage")
def coverage(
    source: Annotated[Optional[list[str]], typer.Option("--source", help=f"Document id ({', '.join(SEED_FILES)}; repeatable; default: all).")] = None,
    missing: Annotated[bool, typer.Option("--missing", help="Also list each missing item with what a check would do.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/coverage-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
) -> None:
    """Per document: ledger items, checked, not checkable (by reason) and missing, and the items found in error or
    depending on the reading (one finding per item, from the expected verdicts: `nacverify findings`). Exits 1 when anything is missing
    or the ledger is inconsistent with the registered claims (or, where ../shared/seeds exists, with the documents' words)."""
    fmt = output_format(fmt, as_json)
    import nacverify.catalog  # noqa: F401  (registers every claim provider)
    from nacverify import claims as claim_registry
    from nacverify.report import Report, check_writable, default_report_path

    ledgers = load_ledgers(source)
    out_path = check_writable(out or default_report_path("coverage"), overwrite=force)
    problems = validate(ledgers, claim_registry.registry())
    seeds = find_seeds_dir()
    if seeds is not None:
        problems += quote_problems(ledgers, seeds)
    counts = ledger_coverage(ledgers)
    from nacverify.findings import expected_verdicts, finding_counts, findings

    registered = claim_registry.registry()
    per_doc = finding_counts(findings(ledgers, expected_verdicts(registered), registered))
    for doc, c in counts.items():
        c["findings"] = per_doc.get(doc, {})
    total_missing = sum(c["missing"] for c in counts.values())
    report = Report(command=command_line())
    for doc, c in counts.items():
        report.sections[f"coverage/{doc}"] = {
            "file": c["file"],
            "items": c["items"],
            "checked": c["checked"],
            "not_checkable": c["not_checkable"],
            "missing": c["missing"],
            **{f"not_checkable_{k.replace('-', '_')}": v for k, v in c["not_checkable_by_reason"].items()},
            "missing_items": json.dumps(c["missing_items"]),
            **{f"findings_{k.replace('-', '_')}": v for k, v in c["findings"].items()},
        }
    report.sections["coverage"] = {"problems": json.dumps(problems), "quotes_checked": seeds is not None, "seeds_dir": str(seeds or "")}
    path = write_report_file(report, out_path, force=force)
    if fmt == OutputFormat.json:
        print_json({"schema": "nacverify.coverage/3", "documents": counts, "problems": problems, "quotes_checked": seeds is not None, "report": str(path)})
    else:
        table = Table(title="coverage of the source documents (nacverify/ledger/*.yaml)")
        numeric = ("items", "checked", "not checkable", "missing", "findings: error", "slip", "depends on reading")
        for col in ("document", "items", "checked", "not checkable", "by reason", "missing", "findings: error", "slip", "depends on reading"):
            table.add_column(col, justify="right" if col in numeric else "left", overflow="fold")
        for doc, c in counts.items():
            reasons = ", ".join(f"{k} {v}" for k, v in c["not_checkable_by_reason"].items()) or "-"
            style = "red" if c["missing"] else "green"
            table.add_row(escape(c["file"]), str(c["items"]), str(c["checked"]), str(c["not_checkable"]), reasons, f"[{style}]{c['missing']}[/]",
                          str(c["findings"].get("error", 0)), str(c["findings"].get("slip", 0)), str(c["findings"].get("depends-on-reading", 0)))
        console.print(fitted(table))
        if missing:
            for doc, led in ledgers.items():
                for it in led.items:
                    if it.status == "missing":
                        console.print(f"missing {doc}:{it.item} ({it.location}): {it.missing}", markup=False)
        if seeds is None:
            console.print("quotes not checked: ../shared/seeds not found (set NACVERIFY_SEEDS to the folder of the documents)", markup=False)
        console.print(f"report: {path}", markup=False, soft_wrap=True)
    for p in problems:
        err_console.print(f"ledger: {p}", markup=False)
    if total_missing or problems:
        err_console.print(f"coverage: {total_missing} item(s) missing, {len(problems)} ledger problem(s)", markup=False)
        raise typer.Exit(EXIT_GATE)
    raise typer.Exit(EXIT_OK)

