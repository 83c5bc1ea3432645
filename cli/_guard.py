"""Running a command: `guarded` checks what every command checks first (the seed, the path variables),
switches on float64, maps library errors to exit codes with one line (no traceback), and turns an
interrupt (Ctrl-C, SIGTERM; `cli._signals`) into an exit that still leaves a report."""

from __future__ import annotations

import datetime as _dt
import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from nacverify.errors import BadInput, EnvironmentProblem, Interrupted, NacverifyError

from . import _signals
from ._exits import EXIT_ENVIRONMENT, EXIT_USAGE, INTERRUPTED, RUN, command_line, fail
from ._finish import finish_interrupted
from ._options import OutputFormat, check_junit_xml, check_seed, output_format
from ._output import OUTPUT_ERRNOS, refresh_console

F = TypeVar("F", bound=Callable[..., Any])


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
