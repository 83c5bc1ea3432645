"""`nacverify report show|html|diff`: read HDF5 reports back, render them, compare two."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput


def read_report(path):
    """nacverify.report.read_report, imported when a command runs (it imports JAX)."""
    from nacverify.report import read_report as read

    return read(path)

from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, output_format
from ._output import console, err_console, fitted, print_json, write_stdout
from ._results import verdict_text

def _verdict(verdict: str, expected: str | None = None) -> str:
    """A verdict coloured by whether it is the expected one (with the mismatch mark when not)."""
    return verdict_text(verdict, None if expected is None else verdict == expected)


report_app = typer.Typer(help="Read nacverify HDF5 reports.", no_args_is_help=True)


@report_app.command("show")
@guarded
def show(
    file: Annotated[Path, typer.Argument(help="A report written by nacverify (.h5).")],
    claim: Annotated[Optional[str], typer.Option("--claim", help="Show one claim's evidence.")] = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """Print a report's verdict table, or one claim's evidence with --claim."""
    fmt = output_format(fmt, as_json)
    data = read_report(file)
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import report_document

        if claim is not None and claim not in data.claims:
            raise BadInput(f"claim {claim!r} is not in {file}")
        print_json(report_document(data, claim=claim))
        return
    a = data.attrs
    state = "complete" if data.complete else "[bold red]INCOMPLETE[/] (interrupted run)"
    console.print(f"[bold]{escape(str(file))}[/]  schema {escape(str(a.get('schema_version')))}  {state}")
    console.print(f"command: {a.get('command')}   seed: {data.seed_text}   created: {a.get('created_utc')}", markup=False)
    console.print(f"device: {a.get('device')}   nacverify {a.get('tool_version')}", markup=False)
    if claim is None:
        table = Table()
        for col in ("claim", "kind", "verdict", "expected", "message"):
            table.add_column(col, overflow="fold")
        by_kind: dict[str, dict[str, int]] = {}
        for rec in data.claims.values():
            table.add_row(escape(rec.id), escape(rec.kind or "-"), _verdict(rec.verdict, rec.expected), escape(rec.expected), escape(rec.message))
            counts = by_kind.setdefault(rec.kind or "-", {})
            counts[rec.verdict] = counts.get(rec.verdict, 0) + 1
        console.print(fitted(table))
        for kind, counts in by_kind.items():
            console.print(f"{kind}: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())), markup=False)
        from nacverify.claims import Verdict
        from nacverify.findings import finding_counts, report_findings

        known = {v.value for v in Verdict}  # a foreign or damaged file's unknown verdicts decide no finding
        for doc, counts in finding_counts(report_findings(r for r in data.claims.values() if r.verdict in known)).items():
            console.print(f"findings {doc} (one per ledger item): " + ", ".join(f"{n} {name}" for name, n in counts.items()), markup=False)
        return
    if claim not in data.claims:
        raise BadInput(f"claim {claim!r} is not in {file}")
    rec = data.claims[claim]
    console.print(f"[bold]{escape(rec.id)}[/]: {_verdict(rec.verdict, rec.expected)} (expected {escape(rec.expected)})")
    for label, value in (("kind", rec.kind or "-"), ("reading", rec.reading or "-"), ("source", rec.source), ("statement", rec.statement), ("assumptions", rec.assumptions),
                         ("expected because", rec.expected_reason), ("message", rec.message)):
        console.print(f"  {label}: {value}", markup=False)
    table = Table(title="evidence")
    table.add_column("name")
    table.add_column("value", overflow="fold")
    import numpy as np

    for key, value in rec.scalars.items():
        table.add_row(escape(key), f"{value:.6g}" if isinstance(value, float) else escape(str(value)))
    for key, value in rec.witness.items():
        table.add_row(escape(f"witness.{key}"), f"{value:.6g}" if isinstance(value, float) else escape(str(value)))
    for key, value in rec.arrays.items():
        arr = np.asarray(value)
        summary = f"array {arr.shape} {arr.dtype}"
        if arr.size and arr.dtype.kind in "fi":
            summary += f"  min {np.nanmin(arr):.6g}  max {np.nanmax(arr):.6g}"
        table.add_row(escape(key), summary)
    console.print(fitted(table))


@report_app.command("html")
@guarded
def html(
    file: Annotated[Path, typer.Argument(help="A report written by nacverify (.h5).")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Folder for index.html and its PNG figures (created if missing; "
                                                "default: beside the report, named after it: reports/check-X.h5 -> reports/check-X-html/).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into an --out that is not empty: replace its index.html and the files an earlier "
                                        "`report html` wrote there (recorded in .nacverify-html.json, unchanged since), and write beside "
                                        "any other file, which is never changed or removed. Without it such a folder is refused.")] = False,
) -> None:
    """Write a static, offline HTML page: verdict table, evidence and figures."""
    from nacverify.report.html import render_html

    data = read_report(file)
    if out is None:
        out = default_html_folder(file)
    page = render_html(data, out, overwrite=force)
    console.print(f"page: {page}", markup=False)


def default_html_folder(report: Path) -> Path:
    """`report html`'s folder without --out: beside the report, named after it (``x.h5`` -> ``x-html``)."""
    return report.parent / f"{report.stem}-html"


class ExportFormat(str, enum.Enum):
    json = "json"
    csv = "csv"


@report_app.command("export")
@guarded
def export(
    file: Annotated[Path, typer.Argument(help="A report written by nacverify (.h5).")],
    to: Annotated[ExportFormat, typer.Option("--to", help="json: everything (attributes, claims with their evidence arrays, sections); "
                                             "csv: the claims table, one row per claim.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="File to write (default: stdout).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
) -> None:
    """Export a report as JSON or CSV for readers without HDF5 tools (layout: reports/JSON_SCHEMA.md)."""
    from nacverify.atomic import atomic_write
    from nacverify.report import check_writable
    from nacverify.report.json_export import claims_csv, dumps, report_document

    if out is not None:  # before reading: a file that cannot be written fails now, not after the work
        check_writable(out, overwrite=force, option="--out", what="export")
        if file.exists() and out.resolve() == file.resolve():
            raise BadInput(f"--out {out} is the report being exported; choose another --out")
    data = read_report(file)
    if out is None:
        if to == ExportFormat.json:
            print_json(report_document(data, arrays=True))
        else:
            write_stdout(claims_csv(data))
        return
    text = dumps(report_document(data, arrays=True)) + "\n" if to == ExportFormat.json else claims_csv(data)
    path = atomic_write(out, lambda tmp: tmp.write_text(text, encoding="utf-8", newline=""), overwrite=force, what="export")
    console.print(f"export: {path}", markup=False)


_KIND_STYLE = {"regression": "bold red", "improvement": "green", "change": "yellow", "added": "blue", "removed": "magenta"}


def _value(value) -> str:
    import numpy as np

    if isinstance(value, np.ndarray):
        return f"array {value.shape}"
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@report_app.command("diff")
@guarded
def diff(
    old: Annotated[Path, typer.Argument(help="The baseline report (.h5).")],
    new: Annotated[Path, typer.Argument(help="The report to compare with the baseline (.h5).")],
    rtol: Annotated[float, typer.Option("--rtol", help="Relative tolerance for metric changes (math.isclose rel_tol; arrays: max|diff| / max|value|).")] = 1e-6,
    allow_missing: Annotated[bool, typer.Option("--allow-missing", help="A claim missing from NEW is listed, not a regression.")] = False,
    timings: Annotated[bool, typer.Option("--timings", help="Also compare machine measurements (seconds, rates, speedups, memory).")] = False,
    max_rows: Annotated[int, typer.Option("--max-rows", help="Metric changes listed at most (largest first); 0: none.")] = 50,
) -> None:
    """Compare NEW with the baseline OLD: verdict changes and metric changes beyond --rtol.

    Exit 1 on a regression (reports/SCHEMA.md): a claim as expected in OLD and not in NEW,
    a claim that held in OLD and does not in NEW, a claim missing from NEW (unless
    --allow-missing), or NEW marked incomplete. Exit 0 otherwise."""
    from nacverify.report.diff import diff_reports

    if max_rows < 0:
        raise BadInput(f"--max-rows must be >= 0, got {max_rows}")
    d = diff_reports(read_report(old), read_report(new), rtol=rtol, allow_missing=allow_missing, timings=timings)
    console.print(f"[bold]OLD[/] {escape(str(old))}  ({len(d.old.claims)} claims)   [bold]NEW[/] {escape(str(new))}  ({len(d.new.claims)} claims)", highlight=False)
    for note in d.notes:
        console.print(f"note: {note}", markup=False)
    if d.verdicts:
        table = Table(title=f"{len(d.verdicts)} verdict change(s)")
        for col in ("claim", "change", "OLD verdict", "OLD expected", "NEW verdict", "NEW expected", "why"):
            table.add_column(col, overflow="fold")
        for v in d.verdicts:
            cells = [v.old_verdict or "-", v.old_expected or "-", v.new_verdict or "-", v.new_expected or "-", v.reason]
            table.add_row(escape(v.claim), f"[{_KIND_STYLE[v.kind]}]{v.kind}[/]", *[escape(c) for c in cells])
        console.print(fitted(table))
    else:
        console.print("verdicts: no change")
    scope = "metrics" + (" incl. timings" if timings else "")
    if d.metrics and max_rows:
        shown = sorted(d.metrics, key=lambda m: -(m.rel if m.rel == m.rel else float("inf")))[:max_rows]
        table = Table(title=f"{len(d.metrics)} of {d.compared_metrics} {scope} changed beyond rtol {d.rtol:g}")
        for col in ("where", "OLD", "NEW", "rel. diff"):
            table.add_column(col, overflow="fold")
        for m in shown:
            table.add_row(escape(m.where), escape(_value(m.old)), escape(_value(m.new)), "-" if m.rel != m.rel else f"{m.rel:.3g}")
        console.print(fitted(table))
        if len(d.metrics) > len(shown):
            console.print(f"... and {len(d.metrics) - len(shown)} more (raise --max-rows)")
    else:
        console.print(f"{scope}: {len(d.metrics)} of {d.compared_metrics} changed beyond rtol {d.rtol:g}")
    if d.regressed:
        count = len(d.regressions) + int(d.new_incomplete)
        err_console.print(f"regression: {count} (" + ", ".join([r.claim for r in d.regressions[:5]] + (["NEW incomplete"] if d.new_incomplete else [])) + ")", markup=False)
        raise typer.Exit(1)
    console.print("no regression")
