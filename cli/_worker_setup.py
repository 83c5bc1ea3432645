"""Preload of the local cluster's worker processes (`dask_setup` runs when a worker starts,
`dask_teardown` when it closes).

Dask loads this file by its path, not as part of the `nacverify.cli` package, so a worker
starts without importing nacverify (JAX and the rest come with its first task, or, for
`check`, with the background warm-up below, once the worker has registered with the scheduler).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore Ctrl-C, which the terminal sends to the whole process group (the command line
    handles it, writes its partial report and then closes the cluster), and, when the command
    line asks for it (NACVERIFY_WARM_CATALOG=1, `check`), load the claim catalog in the
    background once the worker runs, so that the first task finds it loaded
    (`nacverify.run.runner.load_catalog` is thread-safe: the task waits for the warm-up). The
    process ends without module teardown (`_exit_now`)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to ignore here
        pass
    atexit.register(_exit_now)  # registered first, so it runs last, after every other exit handler
    if os.environ.get(PIN_ENV) == "1":
        _pin_to_one_core(worker.name)
    if os.environ.get("NACVERIFY_WARM_CATALOG") == "1":
        threading.Thread(target=_warm_up, args=(worker,), name="nacverify-catalog", daemon=True).start()


#: Set to "1" by the command line (`_cluster._start_local`) when it starts no more workers than
#: this machine has cores for it.
PIN_ENV = "NACVERIFY_PIN_CORES"


def _pin_to_one_core(name: Any) -> None:
    """Make "one thread per worker" true for JAX: XLA's CPU runtime runs a compiled function on
    a pool of as many threads as the process may use cores, whatever Dask's thread count, so two
    unpinned workers on two cores each try to use both. Worker `name` (0, 1, ... in a local
    cluster) is bound to the `name`-th core this process may use, with every thread it has now
    (threads started later inherit it), as ``taskset -a`` would; XLA then sizes its pool to
    one core. Nothing is pinned when the name is not an index or the kernel refuses."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        core = cores[int(name) % len(cores)]
        tasks = [int(t) for t in os.listdir("/proc/self/task")]
    except (AttributeError, ValueError, TypeError, OSError):
        return
    for tid in tasks:
        try:
            os.sched_setaffinity(tid, {core})
        except OSError:  # a thread that ended meanwhile
            pass


def dask_teardown(worker: Any) -> None:
    """When the worker closes: drop JAX's exit handler (`jax._src.api.clean_up`, which clears
    every compiled executable and backend one by one: after the quick check's claims, closing a
    2-worker cluster took 1.7 s with it and 0.3 s without). The process is about to end (`_exit_now`), which releases all
    of it at once. JAX registers the handler when it is first imported, after `dask_setup`'s
    `_exit_now`, so it would otherwise run first."""
    api = sys.modules.get("jax._src.api")
    clean_up = getattr(api, "clean_up", None)
    if callable(clean_up):
        atexit.unregister(clean_up)


def _exit_now() -> None:
    """End the worker process without tearing its modules down (JAX, SymPy, ...); the worker
    has closed and every other exit handler has run (but JAX's, which `dask_teardown` drops)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


def _warm_up(worker: Any) -> None:
    from distributed.core import Status

    for _ in range(600):  # first let the worker register (the imports compete for the GIL)
        if worker.status in (Status.running, Status.closing, Status.closed, Status.failed):
            break
        time.sleep(0.05)
    if worker.status != Status.running:
        return
    try:
        from nacverify.run.runner import load_catalog

        load_catalog()
    except Exception:  # noqa: BLE001  (the first task meets the same error and reports it)
        pass
