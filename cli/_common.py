"""Shared CLI plumbing: exit codes, one-line errors, verdict tables, progress bars."""

from __future__ import annotations

import datetime as _dt
import enum
import functools
import os
import _thread
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.markup import escape
from rich.table import Table

from nacverify.claims import Result, Verdict
from nacverify.errors import BadInput, EnvironmentProblem, Interrupted, NacverifyError

if TYPE_CHECKING:
    from nacverify.report import Report

EXIT_OK = 0
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3

# Wider than rich's 80-column default when writing to a file or pipe.
console = Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 140)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

VERDICT_STYLE = {
    Verdict.HOLDS: "green",
    Verdict.REFUTED: "red",
    Verdict.INAPPLICABLE: "blue",
    Verdict.INCONCLUSIVE: "yellow",
    Verdict.ERROR: "magenta",
}

F = TypeVar("F", bound=Callable[..., Any])


class OutputFormat(str, enum.Enum):
    """What a command writes to stdout: rich tables for people, or one JSON document for tools."""

    table = "table"
    json = "json"


FormatOption = Annotated[OutputFormat, typer.Option("--format", help="table (for people) or json: one JSON document on stdout and nothing else "
                                                    "there (progress and notes go to stderr); schema in reports/JSON_SCHEMA.md.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Same as --format json.")]


def output_format(fmt: "OutputFormat | str", as_json: bool) -> OutputFormat:
    """--format, or json when --json is given."""
    return OutputFormat.json if as_json else OutputFormat(fmt)


JunitXmlOption = Annotated[Optional[Path], typer.Option("--junit-xml", metavar="PATH", help="Also write JUnit XML (one test case per claim, "
                                                        "pytest's --junitxml layout) for CI test reports; an existing file needs --force.")]

#: The command being run and when it started (set by `guarded`): the JUnit XML's suite name and time.
RUN = {"command": "nacverify", "start": _dt.datetime.now(_dt.timezone.utc)}


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


def _redeliver_interrupts(previous: Callable[[Any], Any]) -> Callable[[Any], None]:
    """An unraisable-exception hook that does not let a Ctrl-C get lost. A KeyboardInterrupt
    raised while Python runs a callback it cannot propagate from (a garbage-collection
    callback, a finalizer) is only printed as "Exception ignored in ..." and the run goes on;
    this hook prints nothing and raises the signal again, so that the interrupt is handled
    where it can be (partial report, exit 3). Other unraisable exceptions go to `previous`."""

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            # Raised again from a moment later, from another thread: raised here, it would be
            # handled at once, still inside the callback, and swallowed again.
            threading.Timer(0.01, _thread.interrupt_main).start()
            return
        previous(unraisable)

    return hook


def guarded(fn: F) -> F:
    """Map library errors to exit codes with a one-line message (no traceback).
    Set NACVERIFY_DEBUG=1 to see the traceback of an internal error."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        RUN.update(command=f"nacverify {fn.__name__.replace('_', '-')}", start=_dt.datetime.now(_dt.timezone.utc))
        previous = signal.getsignal(signal.SIGTERM)

        def _term(signum, frame):  # SIGTERM behaves as Ctrl-C: finish cleanly
            raise KeyboardInterrupt

        try:
            signal.signal(signal.SIGTERM, _term)
        except ValueError:  # not in the main thread (e.g. some test runners)
            previous = None
        previous_hook = sys.unraisablehook
        sys.unraisablehook = _redeliver_interrupts(previous_hook)
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except BadInput as exc:
            raise fail(str(exc), EXIT_USAGE) from None
        except Interrupted as exc:
            INTERRUPTED["seen"] = True
            raise fail(str(exc), EXIT_ENVIRONMENT) from None
        except EnvironmentProblem as exc:
            raise fail(str(exc), EXIT_ENVIRONMENT) from None
        except KeyboardInterrupt:
            INTERRUPTED["seen"] = True
            raise fail("interrupted", EXIT_ENVIRONMENT) from None
        except NacverifyError as exc:
            raise fail(str(exc), EXIT_ENVIRONMENT) from None
        except MemoryError as exc:  # e.g. --points 99999999999: the machine, not a bug
            raise fail(f"out of memory: {exc or 'allocation failed'}", EXIT_ENVIRONMENT) from None
        except Exception as exc:
            if os.environ.get("NACVERIFY_DEBUG"):
                raise
            raise fail(f"internal error: {type(exc).__name__}: {exc} (set NACVERIFY_DEBUG=1 for a traceback)", EXIT_ENVIRONMENT) from None
        finally:
            sys.unraisablehook = previous_hook
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    return wrapper  # type: ignore[return-value]


def verdict_text(verdict: Verdict | str) -> str:
    v = Verdict(verdict)
    return f"[{VERDICT_STYLE[v]}]{v.value}[/]"


def kind_totals(claims) -> dict[str, int]:
    """kind -> number of claims, in `Kind` order."""
    from nacverify.claims import Kind

    out: dict[str, int] = {}
    for k in [*Kind, None]:
        n = sum(1 for c in claims if (c.kind and Kind(c.kind)) == k)
        if n:
            out[str(k) if k else "none"] = n
    return out


def kind_summary(results: list[Result]) -> Table:
    """Verdict counts per kind: only as-printed and reading refutations say the document is wrong."""
    from nacverify.claims import counts_by_kind

    verdicts = [v.value for v in Verdict]
    table = Table(title="verdicts by kind (refuted as-printed/reading: the document is wrong; the other kinds are the suite's own statements)")
    table.add_column("kind", no_wrap=True)
    for v in verdicts:
        table.add_column(v, justify="right")
    table.add_column("total", justify="right")
    for kind, counts in counts_by_kind(results).items():
        table.add_row(kind, *[str(counts.get(v, 0)) for v in verdicts], str(sum(counts.values())))
    return table


def verdict_table(results: Iterable[Result], title: str | None = None, extra: dict[str, Callable[[Result], str]] | None = None) -> Table:
    """One row per claim: id, kind, verdict, expected, key number, message."""
    table = Table(title=title, show_lines=False, expand=False)
    table.add_column("claim", style="bold", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("expected", no_wrap=True)
    for name in extra or {}:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("message", overflow="fold")
    for result in results:
        mark = "" if result.as_expected else " [bold red]≠[/]"
        row = [escape(result.claim.id), str(result.claim.kind or "-"), verdict_text(result.verdict) + mark, result.claim.expected.value]
        row += [escape(fn(result)) for fn in (extra or {}).values()]
        row.append(escape(result.outcome.message))
        table.add_row(*row)
    return table


GATE_LINES = 10  # differing claims named one per line under the gate line; the rest are counted
REASON_CHARS = 160  # the start of each differing claim's message, its short reason


def gate_reason(result: Result) -> str:
    """One line naming a differing claim, its verdict against the expected one, and the start of its message."""
    msg = " ".join(result.outcome.message.split())
    short = msg if len(msg) <= REASON_CHARS else msg[: REASON_CHARS - 3].rstrip() + "..."
    return f"  {result.claim.id}: {result.verdict.value}, expected {result.claim.expected.value}: {short}"


def gate_exit(results: list[Result], gate: bool) -> int:
    """Exit code per ARCHITECTURE: 1 when gating and any verdict differs from expected. The gate line
    names each differing claim (up to `GATE_LINES`) with its short reason, so a CI log says why."""
    unexpected = [r for r in results if not r.as_expected]
    if unexpected:
        head = (f"gate: {len(unexpected)} verdict(s) differ from expected" if gate
                else f"note: {len(unexpected)} verdict(s) differ from expected (--no-gate)")
        lines = [head + ":"] + [gate_reason(r) for r in unexpected[:GATE_LINES]]
        if len(unexpected) > GATE_LINES:
            lines.append(f"  and {len(unexpected) - GATE_LINES} more (see the report)")
        err_console.print("\n".join(lines), markup=False, soft_wrap=True)
        if gate:
            return EXIT_GATE
    return EXIT_OK


def print_witnesses(results: Iterable[Result]) -> None:
    """One line per refuted claim with its witness (the counterexample's parameters)."""
    for r in results:
        if r.verdict == Verdict.REFUTED and r.outcome.evidence.witness:
            w = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.outcome.evidence.witness.items())
            console.print(f"witness {r.claim.id}: {w}", markup=False)


def check_junit_xml(junit_xml: Path | None, *, force: bool, out: Path | None = None) -> Path | None:
    """Refuse an unusable --junit-xml before the run (BadInput, exit 2), as `check_writable` does for --out."""
    from nacverify.report.junit import check_junit_writable

    return None if junit_xml is None else check_junit_writable(junit_xml, overwrite=force, report=out)


def screen(fmt: str) -> Console:
    """The console for people's output: stdout's, or a silent one with --format json (stdout then holds the JSON only)."""
    return Console(quiet=True) if fmt == OutputFormat.json else console


def print_json(document: Any) -> None:
    """One JSON document on stdout, as plain text (no rich markup, wrapping or highlighting)."""
    from nacverify.report.json_export import dumps

    utf8 = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "") == "utf8"
    sys.stdout.write(dumps(document, ensure_ascii=not utf8) + "\n")
    sys.stdout.flush()


def _outputs(report: "Report", out_path, force: bool, junit_xml: Path | None, fmt: str, announce: bool = True) -> tuple[Path, Path | None]:
    """Write the report and the JUnit XML; with --format json print the report as JSON on stdout,
    else (when `announce`) name both files."""
    from nacverify.report import read_report, write_report
    from nacverify.report.junit import write_junit_xml

    path = write_report(report, out_path, overwrite=force)
    xml = None
    if junit_xml is not None:
        seconds = (_dt.datetime.now(_dt.timezone.utc) - RUN["start"]).total_seconds()
        xml = write_junit_xml(report.results, junit_xml, overwrite=force, suite_name=RUN["command"], seconds=seconds,
                              complete=report.complete, note=report.note, timestamp=RUN["start"])
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import report_document

        print_json(report_document(read_report(path), extra={"junit_xml": str(xml) if xml else None}))
    elif announce:
        console.print(f"report: {path}", markup=False)
        if xml is not None:
            console.print(f"junit-xml: {xml}", markup=False)
    return path, xml


def finish(report: "Report", out_path, *, force: bool, gate: bool, junit_xml: Path | None = None, fmt: str = OutputFormat.table) -> typer.Exit:
    """Write the report (and the JUnit XML), name them, and return the Exit the gate chooses."""
    _outputs(report, out_path, force, junit_xml, fmt)
    return typer.Exit(gate_exit(report.results, gate))


def finish_interrupted(report: "Report", out_path, *, force: bool, note: str, junit_xml: Path | None = None, fmt: str = OutputFormat.table) -> typer.Exit:
    """Mark the report incomplete, write what finished (report and JUnit XML), and return the one-line exit 3."""
    report.complete = False
    report.note = note
    path, xml = _outputs(report, out_path, force, junit_xml, fmt, announce=False)
    INTERRUPTED["seen"] = True
    also = f" (JUnit XML: {xml})" if xml is not None else ""
    return fail(f"{note}; partial report marked incomplete: {path}{also}", EXIT_ENVIRONMENT)


@contextmanager
def progress_bar(enabled: bool = True) -> Iterator[Progress]:
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


def command_line() -> str:
    return " ".join(["nacverify", *sys.argv[1:]])
