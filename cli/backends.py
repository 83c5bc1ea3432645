"""`nacverify backends`: each ODE backend, available or not, its version, and why."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, output_format
from ._output import fitted, print_json, screen


@guarded
def backends(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also list every place searched for Julia.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """List the ODE backends (diffrax, scipy, mpmath, julia): available or not, version, reason; then the devices JAX
    sees and which parts of nacverify run on which. Imports no Julia. Writes no report."""
    from nacverify.solvers import backend_status

    from ._devices import device_table

    fmt = output_format(fmt, as_json)
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import backends_document

        print_json(backends_document(backend_status(), device_table()))
        return
    console = screen(fmt)
    table = Table(title="ODE backends")
    for col in ("backend", "available", "version", "methods", "reason"):
        table.add_column(col, no_wrap=col in ("backend", "available"), overflow="fold")
    statuses = backend_status()
    for s in statuses:
        mark = "[green]yes[/]" if s.available else "[red]no[/]"
        table.add_row(s.name, mark, escape(s.version or "-"), ", ".join(s.methods), escape(s.reason))
    console.print(fitted(table, console.width))
    devices = Table(title="devices (cli/_devices.py)")
    for col in ("part", "runs on"):
        devices.add_column(col, overflow="fold")
    for part, where in device_table():
        devices.add_row(escape(part), escape(where))
    console.print(fitted(devices, console.width))
    if verbose:
        for s in statuses:
            for key, value in s.details.items():
                console.print(f"{s.name} {key}: {value}", markup=False)
