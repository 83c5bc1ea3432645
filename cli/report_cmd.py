"""`nacverify report ...`: read HDF5 reports back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import numpy as np
import typer
from rich.table import Table

from nacverify.errors import BadInput
from nacverify.report import read_report

from ._common import console, guarded, verdict_text

report_app = typer.Typer(help="Read nacverify HDF5 reports.", no_args_is_help=True)


@report_app.command("show")
@guarded
def show(
    file: Annotated[Path, typer.Argument(help="A report written by nacverify (.h5).")],
    claim: Annotated[Optional[str], typer.Option("--claim", help="Show one claim's evidence.")] = None,
) -> None:
    """Print a report's verdict table, or one claim's evidence with --claim."""
    data = read_report(file)
    a = data.attrs
    state = "complete" if data.complete else "[bold red]INCOMPLETE[/] (interrupted run)"
    console.print(f"[bold]{file}[/]  schema {a.get('schema_version')}  {state}")
    console.print(f"command: {a.get('command')}   seed: {a.get('seed')}   created: {a.get('created_utc')}", markup=False)
    console.print(f"device: {a.get('device')}   nacverify {a.get('tool_version')}", markup=False)
    if claim is None:
        table = Table()
        for col in ("claim", "verdict", "expected", "message"):
            table.add_column(col, overflow="fold")
        for rec in data.claims.values():
            mark = "" if rec.verdict == rec.expected else " [bold red]≠[/]"
            table.add_row(rec.id, verdict_text(rec.verdict) + mark, rec.expected, rec.message)
        console.print(table)
        return
    if claim not in data.claims:
        raise BadInput(f"claim {claim!r} is not in {file}")
    rec = data.claims[claim]
    console.print(f"[bold]{rec.id}[/]: {verdict_text(rec.verdict)} (expected {rec.expected})")
    for label, value in (("source", rec.source), ("statement", rec.statement), ("assumptions", rec.assumptions),
                         ("expected because", rec.expected_reason), ("message", rec.message)):
        console.print(f"  {label}: {value}", markup=False)
    table = Table(title="evidence")
    table.add_column("name")
    table.add_column("value", overflow="fold")
    for key, value in rec.scalars.items():
        table.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    for key, value in rec.witness.items():
        table.add_row(f"witness.{key}", f"{value:.6g}" if isinstance(value, float) else str(value))
    for key, value in rec.arrays.items():
        arr = np.asarray(value)
        summary = f"array {arr.shape} {arr.dtype}"
        if arr.size and arr.dtype.kind in "fi":
            summary += f"  min {np.nanmin(arr):.6g}  max {np.nanmax(arr):.6g}"
        table.add_row(key, summary)
    console.print(table)
