"""Ctrl-C and SIGTERM on the command line: one interrupt, however many signals, at any moment.

An interrupted run keeps what it has finished, in a report marked incomplete (`_guard.guarded`
and `_finish.finish_interrupted` write it). Three rules make that hold whenever the signals come:

- **The first signal interrupts; later ones are ignored.** The first SIGINT or SIGTERM raises
  KeyboardInterrupt in the main thread; every later one does nothing, so that a second Ctrl-C
  cannot cut short the writing of what the first one kept (a sweep's statistics, the finished
  claims). SIGKILL (or SIGQUIT) still ends the process at once. A KeyboardInterrupt that Python
  swallowed (raised inside a finalizer or a garbage-collection callback) is raised again once,
  through `redeliver` (the unraisable-exception hook `redelivering`).
- **During start-up a signal is held.** The console script installs the handler as the first
  thing it does (`hold_during_start_up`, from `cli/app.py`): from then until the command's
  function starts (`_guard.guarded`), modules are being imported and the command line parsed,
  and a KeyboardInterrupt there would leave half-imported modules that cannot write a report. A
  signal then is recorded, and raised as soon as the command starts (`command_started`), which
  writes its report marked incomplete. A signal before Python runs nacverify's first line (its
  first few tens of milliseconds) ends the process as Python does.
- **A report being written is not interrupted** (`held`): a signal during the write is raised
  once the file is complete.
- **An import is not interrupted** (`hold_imports`, in the console script): a KeyboardInterrupt
  raised inside a module's import leaves it half-initialised (JAX then cannot be imported again to
  write the report, and an interrupted extension's initialisation crashed the process with
  SIGSEGV). A signal during an import of the main thread is raised when the import returns.

A signal ignored when the process starts (SIGINT in a background job or under `nohup`) stays
ignored, as POSIX programs do. Signals are Python's to handle only in the main thread; elsewhere
(some test runners) these functions do nothing.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The signals that interrupt a run (SIGTERM behaves as Ctrl-C).
SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: first: the first signal's number (None: none yet); holding: record instead of raising;
#: pending: a held signal not raised yet; redeliver: raise at the next signal even after the
#: first (a swallowed KeyboardInterrupt); ignored: later signals ignored
STATE: dict[str, Any] = {"first": None, "holding": False, "pending": False, "redeliver": False, "ignored": 0, "installed": False}


def _handler(signum: int, frame: Any) -> None:
    if STATE["redeliver"]:  # the first one's KeyboardInterrupt was swallowed: this one stands for it
        STATE["redeliver"] = False
    elif STATE["first"] is not None:
        STATE["ignored"] += 1  # the first one's partial report is being written: nothing to add
        return
    STATE["first"] = signum
    if STATE["holding"]:
        STATE["pending"] = True
        return
    raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def install() -> dict[int, Any]:
    """Handle SIGINT and SIGTERM with `_handler` (a signal ignored at start stays ignored); the
    previous handlers, for `restore`. Nothing in another thread than the main one."""
    previous: dict[int, Any] = {}
    if not _main_thread():
        return previous
    for signum in SIGNALS:
        current = signal.getsignal(signum)
        if current is signal.SIG_IGN or current is _handler:
            continue
        previous[signum] = current
        signal.signal(signum, _handler)
    STATE["installed"] = True
    return previous


def restore(previous: dict[int, Any]) -> None:
    """Put back the handlers `install` replaced."""
    if not _main_thread():
        return
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def reset() -> None:
    """Forget earlier signals (a new command run in this process)."""
    STATE.update(first=None, holding=False, pending=False, redeliver=False, ignored=0)


def console_script() -> bool:
    """Whether this process is the `nacverify` console script (or ``python -m nacverify.cli.app``),
    not a program that imported the command line (a test, a notebook), nor a process that
    multiprocessing started from it (a local Dask worker: it is handed the script's argv and runs
    the script as ``__mp_main__``, and must keep its own signals)."""
    import os

    multiprocessing = sys.modules.get("multiprocessing")  # a spawned child imports it first; the script has not yet
    if multiprocessing is not None and (multiprocessing.parent_process() is not None or multiprocessing.current_process().name != "MainProcess"):
        return False  # (while a child runs __mp_main__, parent_process() is not set yet, its name is)
    name = os.path.basename(sys.argv[0] if sys.argv else "")
    main_spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return name in ("nacverify", "nacverify.exe", "nacverify-script.py") or getattr(main_spec, "name", None) == "nacverify.cli.app"


def hold_during_start_up() -> None:
    """In the console script, from its first line: hold signals until the command starts, and
    during every import of the main thread (`hold_imports`)."""
    if not console_script() or not _main_thread():
        return
    reset()
    STATE["holding"] = True
    install()
    hold_imports()


_MAIN = threading.main_thread().ident


def _held_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`function(...)` with a signal held while it runs in the main thread (raised after it)."""
    if STATE["holding"] or threading.get_ident() != _MAIN:
        return function(*args, **kwargs)
    STATE["holding"] = True
    try:
        return function(*args, **kwargs)
    finally:
        STATE["holding"] = False
        if STATE["pending"]:
            STATE["pending"] = False
            raise KeyboardInterrupt  # noqa: B012  (the signal, after the import is whole)


def hold_imports() -> None:
    """Route `import` statements and `importlib.import_module` through `_held_call` (this process
    only: the console script's, whose imports are its own)."""
    import builtins
    import importlib

    if getattr(builtins.__import__, "_nacverify_held", False):
        return
    plain_import, plain_import_module = builtins.__import__, importlib.import_module

    def held_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        return _held_call(plain_import, name, globals, locals, fromlist, level)

    def held_import_module(name: str, package: str | None = None) -> Any:
        return _held_call(plain_import_module, name, package)

    held_import._nacverify_held = True  # type: ignore[attr-defined]
    builtins.__import__ = held_import
    importlib.import_module = held_import_module  # type: ignore[assignment]


def command_started() -> None:
    """The command's function begins: signals interrupt from now on, and one held during start-up
    is raised here (KeyboardInterrupt)."""
    STATE["holding"] = False
    if STATE["pending"]:
        STATE["pending"] = False
        raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether a signal has come since the last `reset`."""
    return STATE["first"] is not None


def redeliver() -> None:
    """Let the next signal raise KeyboardInterrupt again: the first one's was swallowed."""
    STATE["redeliver"] = True


@contextmanager
def held() -> Iterator[None]:
    """Hold the first signal while the block runs (a report being written); raise it after."""
    before = STATE["holding"]
    STATE["holding"] = True
    try:
        yield
    finally:
        STATE["holding"] = before
    if not before and STATE["pending"]:
        STATE["pending"] = False
        raise KeyboardInterrupt


def redelivering(previous: Callable[[Any], Any]) -> Callable[[Any], None]:
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
                redeliver()  # the first signal's interrupt was lost: the next one raises again
                threading.Timer(0.01, _thread.interrupt_main, args=(signum,)).start()
            return
        previous(unraisable)

    return hook
