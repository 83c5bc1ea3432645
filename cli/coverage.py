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
    uncovered: Annotated[bool, typer.Option("--uncovered", help="Also list each unit of the documents (sentence, equation, table row, ...) that no ledger item covers, with its line.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/coverage-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
) -> None:
    """Per document: its units (the sentence map: sentences, equations, table rows, captions, ...), the units a ledger item
    covers and the units by the finding of the item that owns them; then ledger items, checked, not checkable (by reason) and
    missing, and the items found in error or depending on the reading (one finding per item, from the expected verdicts:
    `nacverify findings`). Exits 1 when a unit of a completely mapped document is uncovered, an item is missing, or the ledger
    is inconsistent with the registered claims (or, where ../shared/seeds exists, with the documents' words)."""
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

    from nacverify.ledger.units import COMPLETE_MAPS, unit_counts

    registered = claim_registry.registry()
    found = findings(ledgers, expected_verdicts(registered), registered)
    per_doc = finding_counts(found)
    label = {(f.document, f.item): f.finding for f in found}
    unmapped: dict[str, list] = {}
    for doc, c in counts.items():
        c["findings"] = per_doc.get(doc, {})
        units = unit_counts(doc, ledgers[doc].items, {item: lab for (d, item), lab in label.items() if d == doc})
        unmapped[doc] = units["uncovered"]
        c["units"], c["units_covered"], c["units_by_finding"] = units["units"], units["covered"], units["by_finding"]
        c["uncovered"] = [{"line": u.line, "kind": u.kind, "text": u.text} for u in units["uncovered"]]
    total_missing = sum(c["missing"] for c in counts.values())
    gate_uncovered = sum(len(unmapped[doc]) for doc in counts if doc in COMPLETE_MAPS)
    report = Report(command=command_line())
    for doc, c in counts.items():
        report.sections[f"coverage/{doc}"] = {
            "file": c["file"],
            "units": c["units"],
            "units_covered": c["units_covered"],
            **{f"units_{k.replace('-', '_')}": v for k, v in c["units_by_finding"].items()},
            "uncovered_lines": json.dumps([u["line"] for u in c["uncovered"]]),
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
        print_json({"schema": "nacverify.coverage/4", "documents": counts, "problems": problems, "quotes_checked": seeds is not None, "report": str(path)})
    else:
        _print_tables(counts, ledgers, COMPLETE_MAPS, missing=missing, uncovered=uncovered, seeds_found=seeds is not None, path=path)
    for p in problems:
        err_console.print(f"ledger: {p}", markup=False)
    if total_missing or problems or gate_uncovered:
        err_console.print(f"coverage: {total_missing} item(s) missing, {gate_uncovered} unit(s) uncovered, {len(problems)} ledger problem(s)",
                          markup=False)
        raise typer.Exit(EXIT_GATE)
    raise typer.Exit(EXIT_OK)


def _print_tables(counts: dict, ledgers, complete: frozenset, *, missing: bool, uncovered: bool, seeds_found: bool, path) -> None:
    """The terminal output: the documents unit by unit, the ledger's counts, and the lists asked for."""
    units_table = Table(title="the documents, unit by unit (the sentence map: nacverify/ledger/units.py)")
    for col in ("document", "units", "covered", "uncovered", "by finding"):
        units_table.add_column(col, justify="left" if col in ("document", "by finding") else "right", overflow="fold")
    for doc, c in counts.items():
        style = "green" if not c["uncovered"] else ("red" if doc in complete else "yellow")
        by = ", ".join(f"{k} {v}" for k, v in c["units_by_finding"].items()) or "-"
        units_table.add_row(doc, str(c["units"]), str(c["units_covered"]), f"[{style}]{len(c['uncovered'])}[/]", by)
    console.print(fitted(units_table))
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
    if uncovered:
        for doc, c in counts.items():
            for u in c["uncovered"]:
                console.print(f"uncovered {doc} line {u['line']} [{u['kind']}]: {u['text']}", markup=False, soft_wrap=True)
    if not seeds_found:
        console.print("quotes not checked: ../shared/seeds not found (set NACVERIFY_SEEDS to the folder of the documents)", markup=False)
    console.print(f"report: {path}", markup=False, soft_wrap=True)
