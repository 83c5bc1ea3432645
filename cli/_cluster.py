"""The one place that chooses and starts a Dask cluster (the library only takes an executor).

`--jobs 1` with no scheduler runs serially in this process (`None`). Otherwise a local
`dask.distributed` cluster of `--jobs` worker processes (one thread each) is started, or,
with `--scheduler ADDRESS` (or `NACVERIFY_SCHEDULER`), an existing one is used. The
library receives `client.get_executor()`, a `concurrent.futures.Executor`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Annotated, Optional

import typer

from nacverify.errors import BadInput, EnvironmentProblem

SCHEDULER_ENV = "NACVERIFY_SCHEDULER"

SchedulerOption = Annotated[
    Optional[str],
    typer.Option(
        "--scheduler",
        help=f"Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 [env {SCHEDULER_ENV}]; default: a local cluster of --jobs workers.",
        envvar=SCHEDULER_ENV,
        show_envvar=False,
    ),
]


@contextmanager
def cluster(jobs: int, scheduler: str | None = None, *, connect_timeout: float = 10.0) -> Iterator[Executor | None]:
    """Yield the executor the library should use: None (serial, here), a local cluster's,
    or a remote scheduler's. An unreachable scheduler is an EnvironmentProblem (exit 3)
    naming the address."""
    if scheduler is not None and not scheduler.strip():
        scheduler = None
    if scheduler is None and jobs <= 1:
        yield None
        return
    from distributed import Client, LocalCluster

    quiet = logging.ERROR
    for name in ("distributed", "distributed.worker", "distributed.scheduler", "distributed.nanny", "distributed.core"):
        logging.getLogger(name).setLevel(quiet)
    if scheduler is not None:
        if "://" not in scheduler and ":" not in scheduler:
            raise BadInput(f"--scheduler must be an address such as tcp://HOST:PORT, got {scheduler!r}")
        try:
            client = Client(scheduler, timeout=f"{connect_timeout}s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise EnvironmentProblem(f"cannot reach the Dask scheduler at {scheduler}: {type(exc).__name__}") from None
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
        return
    local = LocalCluster(
        n_workers=jobs,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=quiet,
        # each worker is nacverify's own process: float64 and the claim registry come from the task itself
        env={"NACVERIFY_WORKER": "1", "OMP_NUM_THREADS": "1", "XLA_FLAGS": os.environ.get("XLA_FLAGS", "")},
    )
    client = Client(local, set_as_default=False)
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        local.close()
