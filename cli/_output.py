"""Where people's output goes: the consoles of stdout and stderr, their widths, and what happens
when stdout cannot take more (its reader has gone away, or its disk is full)."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

from rich.console import Console

#: Columns of stdout when it is a file or a pipe and COLUMNS is unset (rich would use 80).
WIDE = 140


def stdout_width() -> int | None:
    """The width of people's output: None (rich follows the terminal, or COLUMNS when set) for a
    terminal or when COLUMNS is set; `WIDE` for a file or pipe without COLUMNS."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").strip().isdigit():
        return None
    return WIDE


def wrap_width(stream: Any = None) -> int | None:
    """Where to wrap lines written by hand (the gate line on stderr): COLUMNS when set, else the
    terminal's width, else None (a file or pipe: one line per item, for grep)."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = stream or sys.stderr
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        pass
    return None


#: Set when stdout's reader has gone away (`nacverify list | head -1`): what is left to print is
#: dropped, the run goes on to its end (its report is written), and the console script then ends
#: as git and coreutils do on a closed pipe, by SIGPIPE, silently (the shell's status 141).
PIPE = {"closed": False}


def stdout_closed() -> None:
    """stdout's reader went away: point stdout at /dev/null (so that no later write or the final
    flush fails again) and remember it (`PIPE`)."""
    PIPE["closed"] = True
    console.quiet = True
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor (captured output): nothing to redirect
        pass


class _Console(Console):
    """rich's Console, whose answer to a closed pipe (SystemExit(1), which would read as a gate
    failure) is replaced: stdout's console calls `stdout_closed`, stderr's goes quiet."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        if self.stderr:
            return
        stdout_closed()


def write_stdout(text: str) -> None:
    """Write `text` to stdout and flush; a closed pipe is `stdout_closed`, not an error."""
    if PIPE["closed"]:
        return
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_closed()


console = _Console(highlight=False, soft_wrap=False, width=stdout_width())
err_console = _Console(stderr=True, highlight=False, soft_wrap=True)



def refresh_console() -> None:
    """Follow COLUMNS and stdout as they are now (a command run in-process after a change)."""
    console.width = stdout_width()  # type: ignore[assignment]


#: errno values of a write that failed for want of room or of a device (ENOSPC: `> /dev/full`)
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
