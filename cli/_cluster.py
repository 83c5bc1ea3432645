"""The one place that chooses and starts a Dask cluster (the library only takes an executor).

`--jobs 1` with no scheduler runs serially in this process (`None`). Otherwise a local
`dask.distributed` cluster of `--jobs` worker processes (one thread each) is started, or,
with `--scheduler ADDRESS` (or `NACVERIFY_SCHEDULER`), an existing one is used. The
library receives `client.get_executor()`, a `concurrent.futures.Executor`.

The command line stays quiet: Dask's logs and warnings are off while a cluster is in use
(NACVERIFY_DEBUG=1 shows them), local workers ignore Ctrl-C (this process handles it, writes
its partial report and then closes the cluster), and, for `check`, each local worker loads
the claim catalog in the background as soon as it has started (`_worker_setup.py`, its preload).
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from nacverify.errors import BadInput, EnvironmentProblem

from ._devices import worker_env

SCHEDULER_ENV = "NACVERIFY_SCHEDULER"

#: Seconds to wait for a --scheduler to answer before giving up (exit 3).
CONNECT_TIMEOUT = 10.0
#: Seconds to wait for the local workers to start (each imports Dask and the command line).
WORKER_START_TIMEOUT = 300.0
#: Seconds the local workers have to close before they are killed.
LOCAL_CLOSE_TIMEOUT = 5.0

SchedulerOption = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        help=f"Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (or the environment variable {SCHEDULER_ENV}); its workers run the tasks and --jobs is ignored. Default: a local cluster of --jobs workers.",
        envvar=SCHEDULER_ENV,
        show_envvar=False,
    ),
]

_LOGGERS = ("distributed", "tornado", "asyncio")
WARM_CATALOG_ENV = "NACVERIFY_WARM_CATALOG"  # read by _worker_setup.py in each local worker
PIN_ENV = "NACVERIFY_PIN_CORES"  # read by _worker_setup.py: bind each local worker to one core


#: Dask settings of the local cluster (its scheduler, in this process, and its workers): the
#: background work that serves Dask's dashboard and its data-heavy workloads, of no use to one
#: task per worker with no data between tasks, off or rare. Each worker's statistical profiler
#: (a stack sample every 10 ms), the event-loop "tick" that detects blocking (every 20 ms, in
#: every process), the system monitor (every 0.5 s) and the active memory manager (every 2 s).
#: Measured on a 2-core machine, cold `check --quick`, just before and after (with work stealing
#: off as well): 120.4 s -> 113.7 s of CPU time in all processes, and this process's share of a
#: core during the claims 4.4 % -> 2 %.
#: Work stealing stays on: it moves a task off a worker that cannot start it (one still
#: starting, or stalled) to an idle one. A cluster given with --scheduler keeps its own settings.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.scheduler.active-memory-manager.start": False,
}


def _dask_environment(config: dict[str, Any]) -> dict[str, str]:
    """`config` as the environment variables Dask reads when a worker process starts
    (``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``, ...)."""
    return {"DASK_" + key.upper().replace(".", "__").replace("-", "_"): str(value) for key, value in config.items()}


#: Memory one local worker needs (JAX, the claim catalog, its largest claim): bounds the default --jobs.
WORKER_MEMORY = 2 * 2**30


def usable_cores() -> int:
    """Cores this process may run on (its affinity mask; os.cpu_count() where there is none)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def default_jobs() -> int:
    """The default --jobs of `check`: one worker per usable core, as many as the available memory holds
    (`WORKER_MEMORY` each), at least 1 and at most 64."""
    import psutil

    by_memory = int(psutil.virtual_memory().available // WORKER_MEMORY)
    return max(1, min(64, usable_cores(), by_memory))


def _pin_workers(jobs: int) -> bool:
    """Bind each of `jobs` local workers to a core of its own (`_worker_setup._pin_to_one_core`)
    when there are cores enough for them and NACVERIFY_PIN_CORES is not "0"."""
    if os.environ.get(PIN_ENV) == "0":
        return False
    try:
        return 1 < jobs <= len(os.sched_getaffinity(0))
    except AttributeError:  # no sched_getaffinity (not Linux)
        return False


@contextmanager
def cluster(jobs: int, scheduler: str | None = None, *, warm_catalog: bool = False, connect_timeout: float | None = None) -> Iterator[Executor | None]:
    """Yield the executor the library should use: None (serial, here), a local cluster's,
    or a remote scheduler's. An unreachable scheduler is an EnvironmentProblem (exit 3)
    naming the address; a malformed one is BadInput (exit 2). `warm_catalog`: local workers
    load the claim catalog as soon as they start (for tasks that evaluate claims)."""
    scheduler = (scheduler or "").strip() or None
    if scheduler is None and jobs <= 1:
        yield None
        return
    with ExitStack() as stack:
        if not os.environ.get("NACVERIFY_DEBUG"):
            stack.enter_context(_quiet())
        if scheduler is not None:
            client = _connect(scheduler, CONNECT_TIMEOUT if connect_timeout is None else connect_timeout)
            stack.callback(_close, client)
        else:
            import dask
            import distributed  # noqa: F401  (its defaults loaded first: on exit, dask.config.set removes what it added)

            stack.enter_context(dask.config.set(LOCAL_CLUSTER_CONFIG))
            local, procs = _start_local(jobs, warm_catalog)
            # after an error or an interrupt the workers' state is of no use: a short close
            stack.push(lambda kind, _exc, _tb: _close_local(local, procs, timeout=1.0 if kind else LOCAL_CLOSE_TIMEOUT))
            from distributed import Client

            client = Client(local, set_as_default=False)
            stack.callback(_close, client)
        yield client.get_executor(pure=False)


def _connect(scheduler: str, timeout: float) -> Any:
    from distributed import Client

    if ":" not in scheduler:
        raise BadInput(f"--scheduler must be an address such as tcp://HOST:PORT, got {scheduler!r}")
    try:
        return Client(scheduler, timeout=f"{timeout}s", set_as_default=False)
    except ValueError as exc:  # e.g. an unknown protocol
        raise BadInput(f"--scheduler {scheduler!r}: {exc}") from None
    except (OSError, TimeoutError) as exc:
        raise EnvironmentProblem(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s ({type(exc).__name__})") from None


def _start_local(jobs: int, warm_catalog: bool = False) -> tuple[Any, list[Any]]:
    """A loopback cluster of `jobs` worker processes, one thread each (and, when the machine has
    cores enough, one core each: `_pin_workers`), on the CPU with no accelerator memory preallocated
    (`_devices.worker_env`), no dashboards and Dask's background work off (`LOCAL_CLUSTER_CONFIG`), no
    memory limit (as in a serial run), each preloading `_worker_setup.py` (Ctrl-C ignored; with
    `warm_catalog`, the claim catalog loaded in the background). Returns it and its worker
    processes (`psutil.Process`)."""
    from distributed import LocalCluster

    if not os.environ.get("NACVERIFY_DEBUG"):
        _start_resource_tracker_quietly()
    local = LocalCluster(
        n_workers=0,  # the scheduler first; the workers below
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its health/metrics routes: any free port, not 8787
        memory_limit=0,
        silence_logs=logging.CRITICAL,
        preload=[str(Path(__file__).with_name("_worker_setup.py"))],
        env={WARM_CATALOG_ENV: "1" if warm_catalog else "", PIN_ENV: "1" if _pin_workers(jobs) else "", **_dask_environment(LOCAL_CLUSTER_CONFIG),
             **worker_env()},
    )
    procs: list[Any] = []
    try:
        with _sigint_ignored_until_spawned(jobs, procs):
            local.scale(jobs)
        _wait_for_workers(local, procs, jobs)
    except BaseException:
        _close_local(local, procs, timeout=1.0)
        raise
    return local, procs


def _start_resource_tracker_quietly() -> None:
    """Start multiprocessing's resource tracker (if this process has none yet) with its stderr
    on /dev/null. The local cluster's queues and the workers register their named semaphores
    with it; after a Ctrl-C this process kills busy workers and ends without waiting for Dask's
    event-loop thread, and the tracker then unlinks what they left, as it is there to do, and
    prints "UserWarning: resource_tracker: There appear to be N leaked semaphore objects" for
    each run. That line is about processes ended on purpose, not a fault of the user's run.
    NACVERIFY_DEBUG=1 leaves the tracker's stderr alone."""
    from multiprocessing import resource_tracker

    tracker = resource_tracker._resource_tracker
    if getattr(tracker, "_fd", None) is not None:  # already running (started with the real stderr)
        return
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)  # the tracker inherits descriptor 2 as its stderr
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _wait_for_workers(local: Any, procs: list[Any], jobs: int) -> None:
    """Until `jobs` workers have registered; an EnvironmentProblem when their processes died
    first (a worker that cannot start) or after WORKER_START_TIMEOUT seconds."""
    import psutil

    deadline = time.monotonic() + WORKER_START_TIMEOUT
    while len(local.scheduler_info.get("workers", {})) < jobs:
        alive = [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if len(procs) < jobs or not alive or time.monotonic() > deadline:
            why = "did not start" if alive or len(procs) < jobs else "ended while starting"
            raise EnvironmentProblem(f"the {jobs} local Dask worker processes {why} (NACVERIFY_DEBUG=1 shows Dask's log)")
        time.sleep(0.05)


@contextmanager
def _sigint_ignored_until_spawned(count: int, spawned: list[Any]) -> Iterator[None]:
    """Ignore SIGINT until `count` new worker processes have been spawned (a fraction of a
    second): a process started while SIGINT is ignored keeps it ignored (Python too), so a
    Ctrl-C, which a terminal sends to the whole process group, cannot interrupt a worker while
    it imports its modules and print a traceback. This process handles Ctrl-C again as soon as
    they exist (a Ctrl-C in that fraction of a second is lost); the workers' preload ignores it
    for the rest of their lives, and in workers restarted later. `spawned` receives them."""
    import psutil

    me = psutil.Process()
    before = {p.pid for p in me.children()}
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(spawned) < count:
            spawned[:] = _spawned(me, before)
            time.sleep(0.01)
    finally:
        signal.signal(signal.SIGINT, previous)


def _spawned(me: Any, before: set[int]) -> list[Any]:
    """Children of `me` not in `before` that run multiprocessing's spawn entry point (exec'ed)."""
    import psutil

    found = []
    for child in me.children():
        if child.pid in before:
            continue
        try:
            if any("spawn_main" in part for part in child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def _close_local(local: Any, procs: list[Any], timeout: float) -> None:
    """Close the local cluster; its worker processes that are still there after `timeout`
    seconds (busy in a check after Ctrl-C, or still importing) are killed: their work is not
    needed."""
    import psutil

    procs = list(procs)  # the workers as spawned, and as they are now (a killed one is restarted)
    for nanny in list(local.workers.values()):
        try:
            if nanny.pid and nanny.pid not in {p.pid for p in procs}:
                procs.append(psutil.Process(nanny.pid))
        except (AttributeError, psutil.Error):
            pass
    _close(local, timeout=timeout)
    for proc in procs:
        try:
            proc.kill()
        except psutil.Error:  # gone already, as it should be
            pass
    psutil.wait_procs(procs, timeout=5)
    gc.collect()  # finalizes the nannies' multiprocessing queues, or their semaphores are reported leaked at exit


def _close(thing: Any, timeout: float = 10) -> None:
    """Close a client or a cluster without a word, whatever state it is in."""
    try:
        thing.close(timeout=timeout)
    except BaseException:  # noqa: BLE001  (closing after an interrupt or a lost scheduler)
        pass


@contextmanager
def _quiet() -> Iterator[None]:
    """Dask's logs (and tornado's and asyncio's, which it uses) and warnings off, restored after."""
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)
