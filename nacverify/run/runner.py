"""Run registered claims, serially or as tasks on an executor (a Dask cluster's, from the CLI).

Claims run in tasks: a claim group, or a run of a group's claims when the group is costlier than a
worker's share (`nacverify.run.task_plan.plan_tasks`, which says how and why).
Tasks are handed out one per worker slot, the costliest waiting task whenever a slot frees
(`_run_on`): a scheduler that queues several tasks on one worker ahead of time (Dask's
default) could otherwise leave another worker idle while the queued one is busy (measured: a
cold `check --quick` with one worker idle for its last 28 s). A task (`run_group`, module-level so that it pickles by name) runs
in a worker process: it loads the claim catalog once per process, evaluates its claims in
order in float64 (scoped, `claims.evaluate`) and returns their outcomes. The results are a
serial run's, since every check is seeded by the context alone.

With a Dask executor (`distributed.Client.get_executor`) each claim's start and end reach
`progress` as they happen (worker events on a topic of the run), and on an interrupt the claims
already finished inside running groups are collected from the workers, which then stop between
claims. Any other `concurrent.futures.Executor` works too, with progress per finished group.
The library never starts a cluster: the caller passes the executor.
"""

from __future__ import annotations

import pickle
import threading
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from typing import Any

from ..claims import CheckContext, Claim, Outcome, Result, evaluate, registry
from ..errors import EnvironmentProblem, Interrupted, NacverifyError
from ..compute.precision import float64
from .task_plan import claim_cost, plan_tasks

__all__ = ["run_claims", "run_group", "load_catalog", "plan_tasks", "claim_cost", "Progress"]


def _workers(executor: Executor) -> int:
    """How many tasks `executor` runs at once: a Dask cluster's worker threads, a pool's `_max_workers`, else 1."""
    client = _dask_client(executor)
    if client is not None:
        try:
            workers = client.scheduler_info().get("workers", {})
            return max(1, sum(int(w.get("nthreads", 1) or 1) for w in workers.values()))
        except Exception:  # noqa: BLE001  (an unreachable scheduler fails the run later, with its own message)
            return 1
    return max(1, int(getattr(executor, "_max_workers", 1) or 1))


#: `progress(claim, False)` when a claim starts, `progress(claim, True)` when it is finished.
Progress = Callable[[Claim, bool], None]

Triple = tuple[str, Outcome, float]  # claim id, outcome, seconds: what a task returns per claim


def run_claims(claims: Sequence[Claim], ctx: CheckContext, *, executor: Executor | None = None, progress: Progress | None = None,
               caches: str | None = None) -> list[Result]:
    """Evaluate `claims` and return their results in the given order.

    `executor` None runs serially in this process; otherwise each claim group is one task
    submitted to `executor` (costliest group first, `plan_tasks`; `caches`: "warm", "cold" or None,
    the state of the caches the run will find, when the caller knows it). On KeyboardInterrupt raises `Interrupted`
    whose `partial` holds the results finished so far (in the given order). A group whose task
    fails raises a `NacverifyError` naming it (`BadInput` and `EnvironmentProblem` from a worker
    keep their type); a check that fails is an `error` verdict, as in a serial run."""
    done: dict[str, Result] = {}
    try:
        if executor is None:
            for claim in claims:
                if progress:
                    progress(claim, False)
                done[claim.id] = evaluate(claim, ctx)
                if progress:
                    progress(claim, True)
        else:
            _run_on(executor, claims, ctx, done, progress, caches)
    except KeyboardInterrupt as exc:
        partial = [done[c.id] for c in claims if c.id in done]
        raise Interrupted(f"interrupted after {len(partial)} of {len(claims)} claims", partial) from exc
    return [done[c.id] for c in claims]


# ------------------------------------------------------------------ the task (runs on a worker)

_CATALOG_LOCK = threading.Lock()
_FINISHED: dict[tuple[str, str], dict[str, tuple[Outcome, float]]] = {}  # (run token, task) -> claim id -> outcome, seconds
_STOPPED: set[str] = set()  # run tokens whose caller was interrupted: their tasks stop between claims
#: How many runs' finished claims a worker keeps (`_FINISHED`), its latest: they outlive their
#: tasks, since an interrupt may ask for them (`take_finished`) while a returned task's result is
#: still on its way to the caller, which then would have them from neither.
KEPT_RUNS = 4
_RUNS: list[str] = []  # the run tokens this process has seen tasks of, the latest last
_RUNS_LOCK = threading.Lock()


def _keep_run(token: str) -> None:
    """Note run `token`; forget the finished claims (and the stop) of runs older than the latest `KEPT_RUNS`."""
    with _RUNS_LOCK:
        if token in _RUNS:
            return
        _RUNS.append(token)
        for old in _RUNS[:-KEPT_RUNS]:
            for key in [k for k in list(_FINISHED) if k[0] == old]:
                _FINISHED.pop(key, None)
            _STOPPED.discard(old)
        del _RUNS[:-KEPT_RUNS]


def load_catalog() -> dict[str, Claim]:
    """Import every claim provider and build the registry; once per process, thread-safe
    (a worker may warm up in a background thread while its first task arrives)."""
    with _CATALOG_LOCK:
        import nacverify.catalog  # noqa: F401  (registers every claim provider)

        return registry()


def run_group(claim_ids: Sequence[str], ctx: CheckContext, token: str, version: str) -> bytes:
    """Task: evaluate the claims `claim_ids` here, in order, and return their (id, outcome,
    seconds) triples, pickled (the caller unpickles them in float64, so that arrays in the
    evidence keep their dtype whatever its JAX setting).

    `token` names the run: the claim events (on a Dask worker) go to its topic, and each finished
    claim is kept in `_FINISHED` for `take_finished` (`KEPT_RUNS`). `version`
    is the caller's nacverify version; a worker with another one refuses the task."""
    import nacverify

    if nacverify.__version__ != version:
        raise EnvironmentProblem(f"a Dask worker runs nacverify {nacverify.__version__}, this run {version}: install the same version on every worker")
    known = load_catalog()
    unknown = [cid for cid in claim_ids if cid not in known]
    if unknown:
        raise EnvironmentProblem(f"a Dask worker does not know claim {unknown[0]!r}: install the same nacverify on every worker")
    worker = _dask_worker()
    _keep_run(token)
    key = (token, uuid.uuid4().hex)
    finished = _FINISHED[key] = {}
    out: list[Triple] = []
    for cid in claim_ids:
        if token in _STOPPED:
            break
        _emit(worker, token, cid, False)
        try:
            result = evaluate(known[cid], ctx)
        except NacverifyError:
            raise
        except BaseException as exc:  # an interrupt inside this process: the group cannot finish
            raise NacverifyError(f"{cid}: {type(exc).__name__}: {exc}") from None
        finished[cid] = (result.outcome, result.seconds)
        out.append((cid, result.outcome, result.seconds))
        _emit(worker, token, cid, True)
    return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)


def take_finished(token: str) -> bytes:
    """Run on each worker when the caller is interrupted: stop the run's tasks between claims
    and hand back the claims they have finished (pickled {id: (outcome, seconds)})."""
    _STOPPED.add(token)
    finished = {cid: value for (run, _), claims in list(_FINISHED.items()) if run == token for cid, value in list(claims.items())}
    return pickle.dumps(finished, protocol=pickle.HIGHEST_PROTOCOL)


def _dask_worker() -> Any:
    """The Dask worker running this task, or None (another executor, or in-process)."""
    try:
        from distributed import get_worker

        return get_worker()
    except (ImportError, ValueError):
        return None


def _emit(worker: Any, token: str, cid: str, finished: bool) -> None:
    if worker is not None:
        worker.log_event(_topic(token), {"claim": cid, "finished": finished})


def _topic(token: str) -> str:
    return f"nacverify-run-{token}"


# ------------------------------------------------------------------ the caller's side


class _Tracker:
    """Forwards claim events to `progress` once each (events come from the client's event loop
    thread, task results from this one; a rescheduled task repeats its events)."""

    def __init__(self, by_id: dict[str, Claim], progress: Progress | None):
        self.by_id, self.progress = by_id, progress
        self.lock = threading.Lock()
        self.started: set[str] = set()
        self.finished: set[str] = set()
        self.closed = False

    def mark(self, cid: str, finished: bool) -> None:
        with self.lock:
            seen = self.finished if finished else self.started
            if self.closed or self.progress is None or cid in seen or cid in self.finished:
                return
            seen.add(cid)
            self.progress(self.by_id[cid], finished)

    def event(self, event: tuple[float, dict]) -> None:
        msg = event[1]
        if isinstance(msg, dict) and msg.get("claim") in self.by_id:
            self.mark(msg["claim"], bool(msg.get("finished")))


def _run_on(executor: Executor, claims: Sequence[Claim], ctx: CheckContext, done: dict[str, Result], progress: Progress | None,
            caches: str | None = None) -> None:
    import nacverify

    by_id = {c.id: c for c in claims}
    token = uuid.uuid4().hex
    client = _dask_client(executor)
    tracker = _Tracker(by_id, progress)
    if client is not None and progress is not None:
        client.subscribe_topic(_topic(token), tracker.event)
    futures: dict[Future, str] = {}
    try:
        slots = _workers(executor)
        waiting = plan_tasks(claims, slots, caches)  # costliest first
        waiting.reverse()
        pending: set[Future] = set()
        while pending or waiting:  # short waits: a Ctrl-C is seen within half a second, whichever thread got it
            while waiting and len(pending) < slots:  # one task per free slot (module docstring)
                name, members = waiting.pop()
                future = executor.submit(run_group, [c.id for c in members], ctx, token, nacverify.__version__)
                futures[future] = name
                pending.add(future)
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: futures[f]):
                for cid, outcome, seconds in _unpickle(_task_result(future, futures[future])):
                    done[cid] = Result(by_id[cid], outcome, seconds)
                    tracker.mark(cid, True)
    except KeyboardInterrupt:
        if client is not None:
            _collect_finished(client, token, by_id, done)  # also stops the running tasks between claims
        for future in futures:
            future.cancel()
        raise
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        with tracker.lock:
            tracker.closed = True
        if client is not None and progress is not None:
            try:
                client.unsubscribe_topic(_topic(token))
            except Exception:  # noqa: BLE001  (the client may already be gone)
                pass


def _task_result(future: Future, group: str) -> bytes:
    """The task's pickled triples; a failed task becomes one typed error naming its group."""
    try:
        return future.result()
    except NacverifyError:
        raise
    except CancelledError:
        raise EnvironmentProblem(f"the task of claim group {group!r} was cancelled by the Dask cluster (scheduler gone or restarted?)") from None
    except Exception as exc:  # KilledWorker (workers kept dying), a lost connection, ...
        raise NacverifyError(f"claim group {group!r} failed on the Dask cluster: {type(exc).__name__}: {exc}") from None


def _unpickle(blob: bytes) -> Any:
    with float64():  # jax arrays in evidence come back as float64, whatever this thread's setting
        return pickle.loads(blob)


def _collect_finished(client: Any, token: str, by_id: dict[str, Claim], done: dict[str, Result]) -> None:
    """After an interrupt: claims finished inside still-running groups (best effort: a worker
    that does not answer keeps its claims)."""
    try:
        answers = client.run(take_finished, token, on_error="return")
    except Exception:  # noqa: BLE001  (the cluster may be going away too)
        return
    for blob in answers.values():
        if not isinstance(blob, bytes):
            continue
        for cid, (outcome, seconds) in _unpickle(blob).items():
            if cid in by_id and cid not in done:
                done[cid] = Result(by_id[cid], outcome, seconds)


def _dask_client(executor: Executor) -> Any:
    """The `distributed.Client` behind a Dask executor (`Client.get_executor()`), else None.
    (Dask's `ClientExecutor` keeps it as `_client`; it offers no public accessor.)"""
    if type(executor).__module__.startswith("distributed."):
        return getattr(executor, "_client", None)
    return None
