"""The `nacverify` application: one module per command, assembled here."""

from __future__ import annotations

import atexit
import os
import signal
import sys

from . import _signals

_signals.hold_during_start_up()  # the console script's first line: a Ctrl-C while it starts is held, not lost (cli/_signals.py)

from ._devices import prepare_process  # noqa: E402

prepare_process(sys.argv[1:])  # before anything imports JAX: the device of this command (cli/_devices.py)

from typing import Annotated  # noqa: E402

import typer  # noqa: E402

from ._exits import EXIT_ENVIRONMENT, EXIT_USAGE, INTERRUPTED, one_line  # noqa: E402
from ._output import OUTPUT_ERRNOS, PIPE, console, err_console, stdout_closed  # noqa: E402
from .list_cmd import list_claims  # noqa: E402
from .report_cmd import report_app  # noqa: E402

#: -h as well as --help, on every command and group
HELP = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="nacverify",
    help="Verify the claims of the NAC and LTC papers: symbolic proofs, ODE solvers, a JAX NAC model. "
    "Exit codes: 0 every verdict as expected, 1 a verdict differs (the gate), 2 bad input, 3 environment problem.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings=HELP,
    # help as click formats it: words wrap at the terminal's width (or COLUMNS) and a long option name puts its help on the
    # next line; rich's panels cut words that did not fit a narrow column to "…" (frozen-error -h lost six at 80 columns)
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("nacverify")
        except PackageNotFoundError:  # run from a source tree that is not installed
            number = "unknown (not installed)"
        print(f"nacverify {number}")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print nacverify's version and exit.")] = False,
) -> None:
    """Verify the claims of the NAC and LTC papers: symbolic proofs, ODE solvers, a JAX NAC model.
    Exit codes: 0 every verdict as expected, 1 a verdict differs (the gate), 2 bad input, 3 environment problem."""


app.command("list", context_settings=HELP)(list_claims)
report_app.info.context_settings = HELP
app.add_typer(report_app, name="report")


def _register_commands() -> None:
    from .frozen_error import frozen_error

    def command(name: str, fn) -> None:
        app.command(name, context_settings=HELP)(fn)

    command("frozen-error", frozen_error)
    command("check", __import__("nacverify.cli.check", fromlist=["check"]).check)
    command("prove", __import__("nacverify.cli.prove", fromlist=["prove"]).prove)
    solve_app = __import__("nacverify.cli.solve", fromlist=["solve_app"]).solve_app
    solve_app.info.context_settings = HELP
    for info in solve_app.registered_commands:
        info.context_settings = {**(info.context_settings or {}), **HELP}
    app.add_typer(solve_app, name="solve")
    command("backends", __import__("nacverify.cli.backends", fromlist=["backends"]).backends)
    command("bench", __import__("nacverify.cli.bench", fromlist=["bench"]).bench)
    command("audit", __import__("nacverify.cli.audit", fromlist=["audit"]).audit)
    command("audit-gen", __import__("nacverify.cli.audit_gen", fromlist=["audit_gen"]).audit_gen)
    command("audit-ltc", __import__("nacverify.cli.audit_ltc", fromlist=["audit_ltc"]).audit_ltc)
    command("coverage", __import__("nacverify.cli.coverage", fromlist=["coverage"]).coverage)
    command("findings", __import__("nacverify.cli.findings", fromlist=["findings"]).findings)
    command("convergence", __import__("nacverify.cli.convergence", fromlist=["convergence"]).convergence)
    for info in report_app.registered_commands:
        info.context_settings = {**(info.context_settings or {}), **HELP}


_register_commands()

_TEARDOWN = {"ignore_sigint": False}


def _ignore_sigint_for_the_rest_of_teardown() -> None:
    """An exit handler, registered when this module is imported, so it runs after the exit
    handlers of the libraries imported later (Dask, JAX), and before the interpreter's own
    finalization. From that point on, Python no longer runs signal handlers: it resets each
    signal with a Python handler to the default action, and a Ctrl-C then would kill the
    process with -2 (no message), although its work was done and reported. SIGINT is ignored
    instead, and Python leaves an ignored signal ignored. This applies only after `main` has
    finished its command (for a command-line run, not for `main(argv)` called from Python)."""
    if _TEARDOWN["ignore_sigint"]:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread
            pass


atexit.register(_ignore_sigint_for_the_rest_of_teardown)


def _stdout_is_devnull() -> bool:
    try:
        out, null = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
    except (OSError, ValueError, AttributeError):  # e.g. captured output without a file descriptor
        return False
    return (out.st_dev, out.st_ino, out.st_rdev) == (null.st_dev, null.st_ino, null.st_rdev)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: usage errors become one line and exit 2.

    Typer may vendor its own click, so click's exceptions are recognised by their
    interface (`exit_code`, `format_message`) rather than by class."""
    INTERRUPTED["seen"] = False
    PIPE["closed"] = False
    console.quiet = False
    if argv is not None:
        prepare_process(list(argv))
    try:
        code = app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        INTERRUPTED["seen"] = True
        err_console.print("nacverify: error: interrupted", markup=False)
        code = EXIT_ENVIRONMENT
    except SystemExit:  # rich, and typer's click-style main (its help), end with SystemExit(1) when stdout's reader goes away (`| head`)
        clicks = type(sys.stdout).__name__ == "PacifyFlushWrapper"  # what click and typer wrap stdout in on EPIPE
        if not (_stdout_is_devnull() or clicks):  # rich has pointed stdout at /dev/null; otherwise not ours
            raise
        if clicks:
            stdout_closed()
        PIPE["closed"] = True
        code = 0
    except BrokenPipeError:  # click's own output (help text) to a closed pipe
        stdout_closed()
        code = 0
    except OSError as exc:  # click's or typer's output to a full disk (`--help > /dev/full`)
        if exc.errno not in OUTPUT_ERRNOS:
            raise
        err_console.print(f"nacverify: error: cannot write the output: {exc.strerror or exc}", markup=False)
        code = EXIT_ENVIRONMENT
    except Exception as exc:
        if not (hasattr(exc, "exit_code") and hasattr(exc, "format_message")):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `nacverify` or group: show help, exit 2 (as click does)
            command = getattr(getattr(exc, "ctx", None), "command_path", "nacverify")
            try:
                print(exc.format_message(), flush=True)
            except BrokenPipeError:  # the help to a closed pipe
                stdout_closed()
            err_console.print(f"nacverify: error: missing command (see `{command} --help`)", markup=False)
            code = EXIT_USAGE
        else:
            message = " ".join(exc.format_message().split())
            command = getattr(getattr(exc, "ctx", None), "command_path", "nacverify")
            err_console.print(f"nacverify: error: {one_line(message)} (see `{command} --help`)", markup=False)
            code = EXIT_USAGE
    code = code if isinstance(code, int) else 0
    closed_pipe = PIPE["closed"] and not INTERRUPTED["seen"] and code != EXIT_USAGE
    if argv is not None:  # main(argv) from Python returns normally (a closed pipe: the status a shell shows for SIGPIPE)
        sys.exit(EXIT_CLOSED_PIPE if closed_pipe else code)
    if closed_pipe:  # as git and coreutils end on a closed pipe: by SIGPIPE, silently
        _exit_without_teardown(EXIT_CLOSED_PIPE, by_signal=signal.SIGPIPE)
    if INTERRUPTED["seen"]:
        # The report is written and fsync'ed; skip interpreter teardown, which can crash while an
        # interrupted XLA computation still runs on its threads (seen as SIGSEGV after Ctrl-C).
        _end_now(code)
    # The work is done and reported: a Ctrl-C during teardown (closing a Dask cluster's
    # threads, atexit handlers) ends the process with the run's own exit code, not with a
    # KeyboardInterrupt's -2 and a traceback.
    # From the exit handlers on, `_ignore_sigint_for_the_rest_of_teardown` takes over.
    try:
        signal.signal(signal.SIGINT, lambda _signum, _frame: _end_now(code))
    except ValueError:  # not the main thread
        pass
    _TEARDOWN["ignore_sigint"] = True
    _exit_without_teardown(code)


#: the status of a command whose stdout was closed before its end: 128 + SIGPIPE, what a shell shows
#: for git or coreutils killed by SIGPIPE (the console script itself ends by the signal)
EXIT_CLOSED_PIPE = 128 + int(signal.SIGPIPE)


def _exit_without_teardown(code: int, by_signal: int | None = None) -> None:
    """End a command-line process that has done its work: run the exit handlers now (atexit:
    multiprocessing's finalizers, h5py, logging, temporary files, ...), flush, and end without
    tearing the modules down (JAX, SymPy, Dask: about 0.8 s of every command). JAX's own handler
    (`jax._src.api.clean_up`, which clears every compiled executable and backend one by one) is
    dropped first: the process's end releases all of it at once. `main(argv)`, the library
    entry, returns before this and exits normally."""
    api = sys.modules.get("jax._src.api")
    clean_up = getattr(api, "clean_up", None)
    if callable(clean_up):
        atexit.unregister(clean_up)
    atexit._run_exitfuncs()  # prints, as the interpreter would, a handler's exception and goes on
    if by_signal is not None:  # end by the signal's default action (after flushing what can be)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        signal.signal(by_signal, signal.SIG_DFL)
        os.kill(os.getpid(), by_signal)
    _flush_and_exit(code)


def _end_now(code: int) -> None:
    """End the process at once with `code`, after releasing what multiprocessing would release
    at a normal exit: its exit-time finalizers unlink the named semaphores of queues still in
    use (a local Dask cluster's nannies hold some), which the resource tracker would otherwise
    report as leaked ("UserWarning: ... leaked semaphore objects") after the process is gone."""
    mp_util = sys.modules.get("multiprocessing.util")
    if mp_util is not None:
        try:
            mp_util._run_finalizers(0)  # what multiprocessing's own atexit hook runs first
        except Exception:  # noqa: BLE001  (ending anyway)
            pass
    _flush_and_exit(code)


def _flush_and_exit(code: int) -> None:
    """Flush stdout and stderr (a closed pipe is no error here) and end the process with `code`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    main()
