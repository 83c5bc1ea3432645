"""Shared CLI plumbing: exit codes, one-line errors (`guarded`), verdict tables, progress bars, and the
writing of reports (a partial one when a run is interrupted). The consoles are in `_output`, the
signals in `_signals`."""

from __future__ import annotations

import datetime as _dt
import enum
import functools
import os
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

from . import _signals

if TYPE_CHECKING:  # nacverify.claims imports JAX: not at import time (`--help` stays fast)
    from nacverify.claims import Result, Verdict
    from nacverify.report import Report

EXIT_OK = 0
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3

from ._output import OUTPUT_ERRNOS, PIPE, WIDE, console, err_console, refresh_console, stdout_closed, stdout_width, wrap_width, write_stdout  # noqa: E402,F401

#: Colour says whether a verdict is what the repository expects, not which verdict it is: an
#: expected `refuted` is as green as an expected `holds`.
AS_EXPECTED_STYLE = "green"
NOT_EXPECTED_STYLE = "bold red"
MISMATCH = "≠"


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
    """The command line computes in float64 (`nacverify.compute.precision.enable_float64_globally`). Done when a
    command starts, not when the package is imported: importing JAX takes seconds, which `--help` and
    argument errors should not pay."""
    from nacverify.compute.precision import enable_float64_globally

    enable_float64_globally()


def guarded(fn: F | None = None, *, report: Callable[[dict[str, Any]], str | None] | None = None) -> Any:
    """Map library errors to exit codes with a one-line message (no traceback).
    Set NACVERIFY_DEBUG=1 to see the traceback of an internal error.

    Signals (`cli._signals`): the first SIGINT or SIGTERM interrupts (KeyboardInterrupt), later
    ones are ignored while the run writes what it kept. `report` marks a command that writes a
    report: it maps the command's arguments to its default report name (`default_report_path`;
    None: this run writes none, e.g. `check --list`). An interrupt that the command did not turn
    into a partial report itself (one before its work began, from the first moment the command
    runs) still leaves one, marked incomplete and holding no claims (`_interrupted`)."""
    if fn is None:
        return functools.partial(guarded, report=report)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        RUN.update(command=f"nacverify {fn.__name__.replace('_', '-')}", start=_dt.datetime.now(_dt.timezone.utc), report=None)
        refresh_console()
        if not _signals.STATE["holding"]:  # run in-process (a test): earlier runs' signals are forgotten
            _signals.reset()
        previous = _signals.install()
        previous_hook = sys.unraisablehook
        sys.unraisablehook = _signals.redelivering(previous_hook)
        try:
            _signals.command_started()  # a signal held during start-up interrupts here
            seed = kwargs.get("seed")
            if isinstance(seed, int):  # every command that takes a seed: refused before any work
                check_seed(seed)
            check_path_variables()
            enable_float64()
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except BadInput as exc:
            raise fail(str(exc), EXIT_USAGE) from None
        except (Interrupted, KeyboardInterrupt) as exc:
            INTERRUPTED["seen"] = True
            raise _interrupted(str(exc) if isinstance(exc, Interrupted) else "interrupted", report, kwargs) from None
        except EnvironmentProblem as exc:
            raise fail(str(exc), EXIT_ENVIRONMENT) from None
        except NacverifyError as exc:
            raise fail(str(exc), EXIT_ENVIRONMENT) from None
        except MemoryError as exc:  # e.g. --points 99999999999: the machine, not a bug
            raise fail(f"out of memory: {exc or 'allocation failed'}", EXIT_ENVIRONMENT) from None
        except OSError as exc:
            if exc.errno in OUTPUT_ERRNOS:  # a full disk under stdout (`> /dev/full`): where the output goes, not a bug
                raise fail(f"cannot write the output: {exc.strerror or exc}", EXIT_ENVIRONMENT) from None
            if os.environ.get("NACVERIFY_DEBUG"):
                raise
            raise fail(f"internal error: {type(exc).__name__}: {exc} (set NACVERIFY_DEBUG=1 for a traceback)", EXIT_ENVIRONMENT) from None
        except Exception as exc:
            if os.environ.get("NACVERIFY_DEBUG"):
                raise
            raise fail(f"internal error: {type(exc).__name__}: {exc} (set NACVERIFY_DEBUG=1 for a traceback)", EXIT_ENVIRONMENT) from None
        finally:
            sys.unraisablehook = previous_hook
            if not (_signals.interrupted() and _signals.console_script()):  # the console script ends soon: later signals stay ignored
                _signals.restore(previous)

    return wrapper


def report_stem(prefix: str, source: Any, skip: bool = False) -> str | None:
    """`guarded(report=...)`'s name for a report about the file `source`: ``<prefix>-<file stem>``
    (None when the run writes no report: `skip`, or no file given)."""
    return None if skip or source is None else f"{prefix}-{Path(source).stem}"


def _interrupted(note: str, report: Callable[[dict[str, Any]], str | None] | None, kwargs: dict[str, Any]) -> typer.Exit:
    """The exit of an interrupt that reached `guarded`: the run's report was written already (say
    where), or, for a command that writes one, an empty report marked incomplete is written now
    to its --out or default path (`--force` as given; never over a file it may not replace)."""
    if RUN.get("report") is not None:
        return fail(f"{note}; the report was written before: {RUN['report']}", EXIT_ENVIRONMENT)
    stem = report(kwargs) if report is not None else None
    if stem is None:
        return fail(note, EXIT_ENVIRONMENT)
    note = note if note != "interrupted" else "interrupted before any claim finished"
    try:
        with _signals.held():
            from nacverify.report import Report, check_writable, default_report_path

            force = bool(kwargs.get("force", False))
            path = check_writable(kwargs.get("out") or default_report_path(stem), overwrite=force)
            junit_xml = kwargs.get("junit_xml")
            try:
                junit_xml = check_junit_xml(junit_xml, force=force, out=path)
            except BadInput:
                junit_xml = None  # unusable: the report alone
            fmt = output_format(kwargs.get("fmt", OutputFormat.table), bool(kwargs.get("as_json", False)))
            return finish_interrupted(Report(command=command_line()), path, force=force, note=note, junit_xml=junit_xml, fmt=fmt)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001  (whatever stops it: the interrupt's one line, never a traceback)
        why = str(exc) or type(exc).__name__
        return fail(f"{note}; no report written: {why}", EXIT_ENVIRONMENT)


def check_path_variables() -> None:
    """Every environment variable that names a path is checked before any work (`BadInput`, one
    line): a wrong one is an error, never a silent fallback (`nacverify.compute.environment.path_variable_problems`)."""
    from nacverify.compute.environment import PATH_VARIABLES, path_variable_problems

    from . import FILLED_IN

    named = {name: os.environ[name] for name in PATH_VARIABLES if name in os.environ and FILLED_IN.get(name) != os.environ[name]}
    problems = path_variable_problems(named)
    if problems:
        raise BadInput(problems[0])


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
    write_stdout(dumps(document, ensure_ascii=not utf8) + "\n")


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
