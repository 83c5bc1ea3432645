"""How a command ends: its exit codes, the one-line error it prints on stderr (`fail`), and what this
run has done so far (`RUN`: the command, its start and the report it wrote; `INTERRUPTED`)."""

from __future__ import annotations

import datetime as _dt
import sys
from typing import Any

import typer

from ._output import err_console

EXIT_OK = 0
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3


#: The command being run and when it started (set by `guarded`): the JUnit XML's suite name and time.
#: `report`: the path of the report this run has written, once written (`write_report_file`).
RUN: dict[str, Any] = {"command": "nacverify", "start": _dt.datetime.now(_dt.timezone.utc), "report": None}


#: Set when a run was interrupted (Ctrl-C, SIGTERM): the entry point then ends the process
#: without interpreter teardown, which can crash (SIGSEGV) while an interrupted XLA
#: computation is still running on its worker threads. The report is already on disk.
INTERRUPTED = {"seen": False}


def one_line(text: str) -> str:
    """`text` on one line: control characters (which str.splitlines also breaks at, e.g. \\x1e
    in a file name) are shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text).replace("\n", " "))


def fail(message: str, code: int) -> typer.Exit:
    """Print one line to stderr and return the Exit to raise."""
    err_console.print(f"nacverify: error: {one_line(message)}", markup=False)
    return typer.Exit(code)


def command_line() -> str:
    """The command as it was typed (the report's `command`)."""
    return " ".join(["nacverify", *sys.argv[1:]])
