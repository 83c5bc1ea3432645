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
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from nacverify.errors import BadInput, EnvironmentProblem, Interrupted, NacverifyError

if TYPE_CHECKING:  # nacverify.claims imports JAX: not at import time (`--help` stays fast)
    from nacverify.claims import Result, Verdict
    from nacverify.report import Report

EXIT_OK = 0
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3

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


console = Console(highlight=False, soft_wrap=False, width=stdout_width())
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

#: Colour says whether a verdict is what the repository expects, not which verdict it is: an
#: expected `refuted` is as green as an expected `holds`.
AS_EXPECTED_STYLE = "green"
NOT_EXPECTED_STYLE = "bold red"
MISMATCH = "≠"


def refresh_console() -> None:
    """Follow COLUMNS and stdout as they are now (a command run in-process after a change)."""
    console.width = stdout_width()  # type: ignore[assignment]


class Level(enum.IntEnum):
    """How much a command prints: -q, the default summary, -v."""

    quiet = 0
    normal = 1
    verbose = 2


VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Details: the full verdict table (one row per claim, with its message) and every witness.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Only the verdict counts and the gate line.")]


def output_level(verbose: bool, quiet: bool) -> Level:
    if verbose and quiet:
        raise BadInput("--verbose and --quiet exclude each other")
    return Level.verbose if verbose else Level.quiet if quiet else Level.normal


def check_seed(seed: int | None, option: str = "--seed") -> None:
    """A seed is a non-negative integer (a negative one would read as `seed: null`, "no random draws")."""
    if seed is not None and seed < 0:
        raise BadInput(f"{option} must be >= 0, got {seed}")

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
    where it can be (partial report, exit 3), through SIGINT or, where SIGINT is ignored, SIGTERM
    (which `guarded` handles as Ctrl-C). Other unraisable exceptions go to `previous`."""

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            # Raised again from a moment later, from another thread: raised here, it would be
            # handled at once, still inside the callback, and swallowed again. Through a signal
            # Python handles: with SIGINT ignored (a background job, CI) the interrupt came from
            # SIGTERM, and interrupt_main's default SIGINT would do nothing.
            signum = next((s for s in (signal.SIGINT, signal.SIGTERM) if callable(signal.getsignal(s))), None)
            if signum is not None:
                threading.Timer(0.01, _thread.interrupt_main, args=(signum,)).start()
            return
        previous(unraisable)

    return hook


class Background:
    """`fn()` started now on a daemon thread (e.g. loading the claim catalog while a cluster's
    workers start); `result()` waits for it and returns its value or raises its exception. A
    daemon thread, so that an interrupted command does not wait for it at exit."""

    def __init__(self, fn: Callable[[], Any]):
        self._box: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(fn,), name="nacverify-background", daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self._box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001  (handed to the caller by result())
            self._box["error"] = exc

    def result(self) -> Any:
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["value"]


def lazy_names(module_globals: dict[str, Any], names: dict[str, str]) -> tuple[Callable[[], None], Callable[[str], Any]]:
    """(load, __getattr__) for a command module whose library names import JAX: `load()` (called when the
    command runs) puts `names` (name -> module) into the module's globals, once; the module's
    `__getattr__` gives them on first access too, so that tests can patch them where the command uses them."""
    import importlib

    def load() -> None:
        for name, where in names.items():
            if name not in module_globals:
                module_globals[name] = getattr(importlib.import_module(where), name)

    def module_getattr(name: str) -> Any:
        if name in names:
            load()
            return module_globals[name]
        raise AttributeError(f"module {module_globals['__name__']!r} has no attribute {name!r}")

    return load, module_getattr


def enable_float64() -> None:
    """The command line computes in float64 (`nacverify.precision.enable_float64_globally`). Done when a
    command starts, not when the package is imported: importing JAX takes seconds, which `--help` and
    argument errors should not pay."""
    from nacverify.precision import enable_float64_globally

    enable_float64_globally()


def guarded(fn: F) -> F:
    """Map library errors to exit codes with a one-line message (no traceback).
    Set NACVERIFY_DEBUG=1 to see the traceback of an internal error."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        RUN.update(command=f"nacverify {fn.__name__.replace('_', '-')}", start=_dt.datetime.now(_dt.timezone.utc))
        refresh_console()
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
            seed = kwargs.get("seed")
            if isinstance(seed, int):  # every command that takes a seed: refused before any work
                check_seed(seed)
            enable_float64()
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


def _value(verdict: Any) -> str:
    return str(getattr(verdict, "value", verdict))


def verdict_text(verdict: "Verdict | str", as_expected: bool | None = None) -> str:
    """A verdict in rich markup, coloured by whether it is the expected one (green) or not (red,
    with the mismatch mark); uncoloured when that is unknown."""
    text = escape(_value(verdict))
    if as_expected is None:
        return text
    if as_expected:
        return f"[{AS_EXPECTED_STYLE}]{text}[/]"
    return f"[{NOT_EXPECTED_STYLE}]{text} {MISMATCH}[/]"


def kind_totals(claims) -> dict[str, int]:
    """kind -> number of claims, in `Kind` order."""
    from nacverify.claims import Kind

    out: dict[str, int] = {}
    for k in [*Kind, None]:
        n = sum(1 for c in claims if (c.kind and Kind(c.kind)) == k)
        if n:
            out[str(k) if k else "none"] = n
    return out


def kind_summary(results: "list[Result]") -> Table:
    """Verdict counts per kind: only as-printed and reading refutations say the document is wrong."""
    from nacverify.claims import Verdict, counts_by_kind

    verdicts = [v.value for v in Verdict]
    table = Table(title="verdicts by kind (refuted as-printed/reading: the document is wrong; the other kinds are the suite's own statements)")
    table.add_column("kind", no_wrap=True)
    for v in verdicts:
        table.add_column(v, justify="right")
    table.add_column("total", justify="right")
    for kind, counts in counts_by_kind(results).items():
        table.add_row(kind, *[str(counts.get(v, 0)) for v in verdicts], str(sum(counts.values())))
    return table


BORDERS = 3  # a rich table column's padding and rule, per column


def verdict_table(results: "Iterable[Result]", title: str | None = None, extra: dict[str, Callable[["Result"], str]] | None = None,
                  width: int | None = None) -> RenderableType:
    """One row per claim: id, kind, verdict (coloured by as-expected, with the mismatch mark), expected,
    extra columns, message. Where that table would not fit `width` (default: stdout's) with the ids,
    verdicts and marks whole, each claim is two lines instead: the verdict and id, then its message,
    indented and wrapped."""
    results = list(results)
    extra = extra or {}
    width = width or console.width
    cells = [[_value(r.claim.id), str(r.claim.kind or "-"), _value(r.verdict) + ("" if r.as_expected else f" {MISMATCH}"),
              _value(r.claim.expected), *[fn(r) for fn in extra.values()]] for r in results]
    heads = ["claim", "kind", "verdict", "expected", *extra]
    fixed = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(heads)]
    if sum(fixed) + 24 + BORDERS * (len(heads) + 1) + 1 <= width:  # room for a message column of 24 or more
        table = Table(title=title, show_lines=False, expand=False)
        table.add_column("claim", style="bold", no_wrap=True)
        table.add_column("kind", no_wrap=True)
        table.add_column("verdict", no_wrap=True)
        table.add_column("expected", no_wrap=True)
        for name in extra:
            table.add_column(name, justify="right", no_wrap=True)
        table.add_column("message", overflow="fold")
        for result, row in zip(results, cells):
            table.add_row(escape(row[0]), row[1], verdict_text(result.verdict, result.as_expected), *[escape(c) for c in row[3:]],
                          escape(result.outcome.message))
        return table
    lines: list[RenderableType] = [Text(title, style="italic")] if title else []
    for result, row in zip(results, cells):
        mark = " " if result.as_expected else MISMATCH
        head = Text()
        head.append(f"{mark} {_value(result.verdict):<12}", style=AS_EXPECTED_STYLE if result.as_expected else NOT_EXPECTED_STYLE)
        head.append(f" {row[0]}", style="bold")
        more = [row[1], f"expected {row[3]}", *(f"{name} {value}" for name, value in zip(extra, row[4:]) if value)]
        head.append(f" ({', '.join(more)})")
        lines.append(head)
        lines.append(Padding(Text(" ".join(result.outcome.message.split()), style="dim"), (0, 0, 0, 4), expand=False))
    return Group(*lines)


GATE_LINES = 10  # differing claims named one per line under the gate line; the rest are counted
REASON_CHARS = 160  # the start of each differing claim's message, its short reason


def _short(message: str, chars: int) -> str:
    msg = " ".join(message.split())
    return msg if len(msg) <= chars else msg[: chars - 3].rstrip() + "..."


def gate_reason(result: "Result") -> str:
    """One line naming a differing claim, its verdict against the expected one, and the start of its message."""
    return f"  {result.claim.id}: {_value(result.verdict)}, expected {_value(result.claim.expected)}: {_short(result.outcome.message, REASON_CHARS)}"


def _wrapped(line: str, width: int | None, indent: str = "    ") -> str:
    """`line` folded at `width` (continuations indented); unchanged without a width."""
    if not width or len(line) <= width:
        return line
    import textwrap

    return "\n".join(textwrap.wrap(line, width=width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False))


def gate_exit(results: "list[Result]", gate: bool) -> int:
    """Exit code per ARCHITECTURE: 1 when gating and any verdict differs from expected. The gate line
    names each differing claim (up to `GATE_LINES`) with its short reason, so a CI log says why; on a
    terminal or with COLUMNS each is folded at that width."""
    unexpected = [r for r in results if not r.as_expected]
    if unexpected:
        head = (f"gate: {len(unexpected)} verdict(s) differ from expected" if gate
                else f"note: {len(unexpected)} verdict(s) differ from expected (--no-gate)")
        lines = [head + ":"] + [gate_reason(r) for r in unexpected[:GATE_LINES]]
        if len(unexpected) > GATE_LINES:
            lines.append(f"  and {len(unexpected) - GATE_LINES} more (see the report)")
        width = wrap_width()
        err_console.print("\n".join(_wrapped(line, width) for line in lines), markup=False, soft_wrap=True)
        if gate:
            return EXIT_GATE
    return EXIT_OK


def witness_text(result: "Result") -> str:
    """A claim's witness (the counterexample's parameters) as `k=v, ...`."""
    return ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in result.outcome.evidence.witness.items())


def print_witnesses(results: "Iterable[Result]", show: Console | None = None) -> None:
    """One line per refuted claim with its witness (the counterexample's parameters)."""
    for r in results:
        if _value(r.verdict) == "refuted" and r.outcome.evidence.witness:
            (show or console).print(f"witness {r.claim.id}: {witness_text(r)}", markup=False)


def verdict_counts(results: "Iterable[Result]") -> str:
    """`418 claims: 300 holds, 80 refuted, ...; 417 as expected, 1 differs`."""
    from nacverify.claims import Verdict

    results = list(results)
    counts = {v.value: 0 for v in Verdict}
    for r in results:
        counts[_value(r.verdict)] += 1
    differ = sum(1 for r in results if not r.as_expected)
    parts = ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none"
    return f"{len(results)} claims: {parts}; {len(results) - differ} as expected, {differ} differ{'s' if differ == 1 else ''}"


SUMMARY_REASON_CHARS = 400  # a differing claim's message in the summary; -v shows all of it


def print_summary(results: "list[Result]", show: Console, level: Level, *, title: str = "", lines: Iterable[str] = ()) -> None:
    """The default output of a command that gives verdicts: a title, the counts, `lines` (e.g. the
    findings per document), then every verdict that differs from its expected one with its reason
    and witness. -q: the counts only."""
    if level == Level.quiet:
        show.print(verdict_counts(results), markup=False)
        return
    if title:
        show.print(title, markup=False)
    show.print(verdict_counts(results), markup=False)
    for line in lines:
        show.print(line, markup=False)
    unexpected = [r for r in results if not r.as_expected]
    if unexpected:
        show.print(f"[{NOT_EXPECTED_STYLE}]differ from expected ({len(unexpected)}):[/]")
        for r in unexpected:
            show.print(f"[{NOT_EXPECTED_STYLE}]{MISMATCH}[/] [bold]{escape(_value(r.claim.id))}[/]: {verdict_text(r.verdict, False)} "
                       f"(expected {escape(_value(r.claim.expected))})")
            show.print(Padding(Text("reason: " + _short(r.outcome.message, SUMMARY_REASON_CHARS)), (0, 0, 0, 4), expand=False))
            if r.outcome.evidence.witness:
                show.print(Padding(Text("witness: " + witness_text(r)), (0, 0, 0, 4), expand=False))
    elif level == Level.normal:
        show.print(f"[{AS_EXPECTED_STYLE}]every verdict as expected[/]; -v lists each claim")


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


def _ordinary_mode(path: Path) -> None:
    """Give a written report the mode of an ordinary new file (0666 less the umask), whichever writer
    made it: a sweep's spooled report, interrupted or not, was 0600."""
    mask = os.umask(0)
    os.umask(mask)
    try:
        os.chmod(path, 0o666 & ~mask)
    except OSError:
        pass


def _outputs(report: "Report", out_path, force: bool, junit_xml: Path | None, fmt: str, announce: bool = True,
             render: Callable[[], None] | None = None) -> tuple[Path, Path | None]:
    """Write the report and the JUnit XML first (a failure while rendering loses nothing); then, with
    --format json, print the report as JSON on stdout, else `render()` people's output and (when
    `announce`) name both files."""
    from nacverify.report import read_report, write_report
    from nacverify.report.junit import write_junit_xml

    path = write_report(report, out_path, overwrite=force)
    _ordinary_mode(Path(path))
    xml = None
    if junit_xml is not None:
        seconds = (_dt.datetime.now(_dt.timezone.utc) - RUN["start"]).total_seconds()
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
