"""Where people's output goes: the consoles of stdout and stderr, their widths, and what happens
when stdout cannot take more (its reader has gone away, or its disk is full); a table fitted to
the width (`fitted`), the JSON document on stdout (`print_json`), and progress bars on stderr."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ._options import OutputFormat

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


def screen(fmt: str) -> Console:
    """The console for people's output: stdout's, or a silent one with --format json (stdout then holds the JSON only)."""
    return Console(quiet=True) if fmt == OutputFormat.json else console


def print_json(document: Any) -> None:
    """One JSON document on stdout, as plain text (no rich markup, wrapping or highlighting)."""
    from nacverify.report.json_export import dumps

    utf8 = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "") == "utf8"
    write_stdout(dumps(document, ensure_ascii=not utf8) + "\n")


def _plain(cell: Any) -> Text:
    if isinstance(cell, Text):
        return cell
    if isinstance(cell, str):
        return Text.from_markup(cell)
    return Text(str(cell))


def fitted(table: Table, width: int | None = None, *, indent: int = 4) -> RenderableType:
    """`table` as it is where every row fits `width` (default: stdout's) on one line per cell, so that
    no id, verdict or word is cut or folded; otherwise each row stacked: its first cell on a line,
    then the other columns as ``name: value`` pairs, wrapped between words and indented (what `check`
    does with its verdict table). Styles in the cells are kept."""
    from rich.measure import Measurement

    width = width or console.width
    if Measurement.get(console, console.options.update_width(10_000), table).maximum <= width:
        return table
    import textwrap

    out: list[RenderableType] = [Text(table.title if isinstance(table.title, str) else _plain(table.title).plain, style="italic")] if table.title else []
    heads = [_plain(c.header).plain for c in table.columns]
    cells = [[_plain(cell) for cell in c._cells] for c in table.columns]
    for row in range(table.row_count):
        head = cells[0][row].copy()
        head.stylize("bold")
        out.append(head)
        pairs = [(name, column[row]) for name, column in zip(heads[1:], cells[1:]) if column[row].plain.strip() not in ("", "-")]
        line = Text()
        for i, (name, value) in enumerate(pairs):
            line.append(("; " if i else "") + f"{name}: ")
            line.append_text(value)
        if pairs:
            body = textwrap.wrap(line.plain, width=max(20, width - indent), break_long_words=True, break_on_hyphens=False)
            start = 0
            for piece in body:  # keep the styles: cut the styled line where textwrap cut the plain one
                at = line.plain.index(piece, start)
                out.append(Padding(line[at:at + len(piece)], (0, 0, 0, indent), expand=False))
                start = at + len(piece)
    return Group(*out)


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[Progress]:
    """A progress bar on stderr (people's output stays on stdout); `enabled=False`: a silent one."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
        disable=not enabled,
    )
    with progress:
        yield progress
