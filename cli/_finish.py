"""Finishing a run: its report written whole and with an ordinary file's mode, the JUnit XML beside it,
the JSON document or people's output, the files named, and the exit (the gate's, or the one-line
exit 3 of an interrupted run, whose report is marked incomplete)."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import _signals
from ._exits import EXIT_ENVIRONMENT, INTERRUPTED, RUN, fail
from ._options import Level, OutputFormat
from ._output import console, print_json
from ._results import gate_exit

if TYPE_CHECKING:
    from nacverify.report import Report


def _ordinary_mode(path: Path) -> None:
    """Give a written report the mode of an ordinary new file (0666 less the umask), whichever writer
    made it: a sweep's spooled report, interrupted or not, was 0600."""
    mask = os.umask(0)
    os.umask(mask)
    try:
        os.chmod(path, 0o666 & ~mask)
    except OSError:
        pass


def write_report_file(report: "Report", out_path, *, force: bool) -> Path:
    """Write the report (a signal meanwhile waits until the file is whole: `cli._signals.held`), give
    it an ordinary file's mode, and record that this run has written it (`RUN`)."""
    from nacverify.report import write_report

    with _signals.held():
        path = Path(write_report(report, out_path, overwrite=force))
        RUN["report"] = path
    _ordinary_mode(path)
    return path


def _outputs(report: "Report", out_path, force: bool, junit_xml: Path | None, fmt: str, announce: bool = True,
             render: Callable[[], None] | None = None) -> tuple[Path, Path | None]:
    """Write the report and the JUnit XML first (a failure while rendering loses nothing); then, with
    --format json, print the report as JSON on stdout, else `render()` people's output and (when
    `announce`) name both files."""
    from nacverify.report import read_report
    from nacverify.report.junit import write_junit_xml

    path = write_report_file(report, out_path, force=force)
    xml = None
    if junit_xml is not None:
        seconds = (_dt.datetime.now(_dt.timezone.utc) - RUN["start"]).total_seconds()
        with _signals.held():
            xml = write_junit_xml(report.results, junit_xml, overwrite=force, suite_name=RUN["command"], seconds=seconds,
                                  complete=report.complete, note=report.note, timestamp=RUN["start"])
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import report_document

        print_json(report_document(read_report(path), extra={"junit_xml": str(xml) if xml else None}))
        if render is not None:  # its console is silent with --format json; files it writes (a plot) are still written
            render()
        return path, xml
    try:
        if render is not None:
            render()
    finally:
        if announce:
            console.print(f"report: {path}", markup=False, soft_wrap=True)  # a path is never folded: it is copied
            if xml is not None:
                console.print(f"junit-xml: {xml}", markup=False, soft_wrap=True)
    return path, xml


def finish(report: "Report", out_path, *, force: bool, gate: bool, junit_xml: Path | None = None, fmt: str = OutputFormat.table,
           level: Level = Level.normal, render: Callable[[], None] | None = None) -> typer.Exit:
    """Write the report (and the JUnit XML), render people's output (`render`), name the files (not
    with -q), and return the Exit the gate chooses."""
    _outputs(report, out_path, force, junit_xml, fmt, announce=level >= Level.normal, render=render)
    return typer.Exit(gate_exit(report.results, gate))


def finish_interrupted(report: "Report", out_path, *, force: bool, note: str, junit_xml: Path | None = None, fmt: str = OutputFormat.table) -> typer.Exit:
    """Mark the report incomplete, write what finished (report and JUnit XML), and return the one-line exit 3."""
    report.complete = False
    report.note = note
    path, xml = _outputs(report, out_path, force, junit_xml, fmt, announce=False)
    INTERRUPTED["seen"] = True
    also = f" (JUnit XML: {xml})" if xml is not None else ""
    return fail(f"{note}; partial report marked incomplete: {path}{also}", EXIT_ENVIRONMENT)
