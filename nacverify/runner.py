"""Run registered claims, serially or as tasks on an executor (a Dask cluster's, from the CLI).

A group (symbolic, frozen-error, numeric, ltc, solvers, model, ...) shares cached solves and
compiled functions between its claims, so groups are the unit of work: one task per group,
costliest first, as long as the workers do not outnumber what the groups can keep busy. A group
whose measured cost exceeds its share, total / (`TASKS_PER_WORKER` x workers), is cut into
consecutive runs of its claims (neighbours in id order share the most), each its own task
(`plan_tasks`); what two tasks of one group both compute is computed twice, the price of the
parallelism. Claims recorded as sharing a computation (`nacverify.shared_work`) are not cut
apart while keeping them together costs less than computing it twice (`shared_units`). A claim's cost is measured twice, with warm caches and with cold ones, where the
groups weigh very differently (compiling is most of a cold run: the model group is 15 % of a
warm `check --quick` and 31 % of a cold one), and the plan uses the mean of the two shares.
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

import json
import math
import pickle
import threading
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from typing import Any

from .claims import CheckContext, Claim, Outcome, Result, evaluate, registry
from .errors import EnvironmentProblem, Interrupted, NacverifyError
from .precision import float64

__all__ = ["run_claims", "run_group", "load_catalog", "plan_tasks", "shared_units", "claim_cost", "Progress"]


#: A group costing more than total / (TASKS_PER_WORKER x workers) is cut into runs of about that cost.
#: 1, measured on 2 cores: 2 cuts the ltc group in two, which shortens a cold ``check --quick`` (80 s
#: -> 77 s) but lengthens a warm one (27 s -> 30 s: work the group's claims share is done twice).
TASKS_PER_WORKER = 1


def _claim_seconds() -> dict[str, dict[str, float]]:
    """Seconds of each claim in a ``check --quick --jobs 2`` run on a 2-core machine, measured twice
    (nacverify/data/claim_seconds.json, written by tools/claim_seconds.py from the reports' per-claim
    seconds): ``warm``, with the compilation and traced-program caches full, and ``cold``, with both
    empty. Only ratios within one measurement matter (`claim_cost`)."""
    from importlib import resources

    return json.loads(resources.files("nacverify.data").joinpath("claim_seconds.json").read_text(encoding="utf-8"))


#: The cache states `claim_seconds.json` measured: compilation and traced-program caches full, and empty.
CACHE_STATES = ("warm", "cold")


def claim_cost(claims: Sequence[Claim], caches: str | None = None) -> dict[str, float]:
    """Each claim's expected share of the run: its seconds as a fraction of all `claims`' seconds,
    measured with the caches in state `caches` ("warm" or "cold"), or averaged over both (None:
    the state is unknown). A claim newer than a measurement counts its group's mean there (1 s for a
    new group); each claim counts at least 0.01 s."""
    if caches is not None and caches not in CACHE_STATES:
        raise ValueError(f"caches must be one of {CACHE_STATES} or None, got {caches!r}")
    shares: dict[str, float] = {c.id: 0.0 for c in claims}
    measurements = {k: v for k, v in _claim_seconds().items() if k in CACHE_STATES and (caches is None or k == caches)}
    for measured in measurements.values():
        by_group: dict[str, list[float]] = {}
        for c in claims:
            if c.id in measured:
                by_group.setdefault(c.group, []).append(measured[c.id])
        mean = {g: sum(v) / len(v) for g, v in by_group.items()}
        seconds = {c.id: max(0.01, measured.get(c.id, mean.get(c.group, 1.0))) for c in claims}
        total = sum(seconds.values()) or 1.0
        for cid, value in seconds.items():
            shares[cid] += value / total / max(1, len(measurements))
    return shares


def plan_tasks(claims: Sequence[Claim], workers: int, caches: str | None = None) -> list[tuple[str, list[Claim]]]:
    """The tasks of a run on `workers` workers, costliest first (`claim_cost` with the caches in
    state `caches`): (group, claims) pairs. One task per group, except that a group costing more
    than its share, total / (`TASKS_PER_WORKER` x workers), is cut into at most ceil(cost / share)
    runs of about equal cost (`_cut`). Claims that share a computation (`shared_units`) are not
    cut apart; a task runs its claims in their given order. One worker: one task per group.

    Why the cache state. The groups' costs differ in kind: SymPy's proofs cost the same with every
    cache full, the diffrax solves and the NAC model mostly compile. Ordered by the average of both
    measurements, a cold `check --quick` on 2 workers took up its solver group last, and one worker
    ended 2.6 s after the other (a makespan 2.5 % above half the claims' seconds); ordered by the
    cold seconds, the same claims' plan is 0.4 % above it."""
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(claim.group, []).append(claim)
    cost = claim_cost(claims, caches)
    share = sum(cost.values()) / max(1, TASKS_PER_WORKER * workers)
    shared = _shared_computations(claims)
    tasks: list[tuple[str, list[Claim], float]] = []
    for name, members in groups.items():
        if workers <= 1:
            tasks.append((name, members, sum(cost[c.id] for c in members)))
            continue
        order = {c.id: i for i, c in enumerate(members)}
        for chunk in _cut(shared_units(members, cost, share, shared), cost, share):
            chunk.sort(key=lambda c: order[c.id])  # a run's claims in the given order (neighbours share compiled programs)
            tasks.append((name, chunk, sum(cost[c.id] for c in chunk)))
    tasks.sort(key=lambda t: (-t[2], t[0]))
    return [(name, members) for name, members, _ in tasks]


def _shared_computations(claims: Sequence[Claim]) -> list[tuple[float, list[str]]]:
    """`claim_seconds.json`'s record of shared work (`nacverify.shared_work`), as (cost, claim ids)
    pairs: a computation's seconds as a fraction of `claims`' cold seconds (`claim_cost`'s unit,
    the record being of a cold run)."""
    table = _claim_seconds()
    cold = table.get("cold", {})
    total = sum(max(0.01, cold.get(c.id, 1.0)) for c in claims) or 1.0
    return [(float(entry.get("seconds", 0.0)) / total, list(entry.get("claims", ()))) for entry in table.get("shared", {}).values()]


def shared_units(members: Sequence[Claim], cost: dict[str, float], limit: float,
                 shared: Sequence[tuple[float, Sequence[str]]] = ()) -> list[list[Claim]]:
    """`members` (one group's claims, in order) joined into units: the claims that use one shared
    computation (`shared`: (its cost, the ids of its claims) pairs, `_shared_computations`) form
    one unit, which a task keeps whole, since two tasks would each compute it. Computations are
    joined costliest first, each only while the unit it makes costs at most the computation's own
    cost more than `limit` or the dearest single claim (whichever is more): past that, a worker
    running the whole unit alone costs more than computing it twice. Units are listed in the order
    of their first claims, each with its claims in the given order."""
    index = {c.id: i for i, c in enumerate(members)}
    parent = list(range(len(members)))
    unit_cost = [cost[c.id] for c in members]

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    ceiling = max([limit, *unit_cost])
    for seconds, ids in sorted(shared, key=lambda entry: -entry[0]):
        roots = sorted({root(index[cid]) for cid in ids if cid in index})
        if len(roots) < 2 or sum(unit_cost[r] for r in roots) > ceiling + seconds + 1e-12:
            continue
        for r in roots[1:]:
            parent[r] = roots[0]
            unit_cost[roots[0]] += unit_cost[r]
    units: dict[int, list[Claim]] = {}
    for i, claim in enumerate(members):
        units.setdefault(root(i), []).append(claim)
    return list(units.values())


def _cut(units: list[list[Claim]], cost: dict[str, float], share: float) -> list[list[Claim]]:
    """`units` (in order) cut into at most parts = min(units, ceil(total / share)) consecutive runs, at the
    boundaries total x j / parts (j = 1 .. parts - 1): a run ends at the unit that reaches the next
    boundary, or before a unit that would pass it by more than the run falls short of it (so a
    costly unit starts a run of its own instead of swelling its neighbours')."""
    sizes = [sum(cost[c.id] for c in unit) for unit in units]
    total = sum(sizes)
    parts = min(len(units), max(1, math.ceil(total / share - 1e-9))) if share > 0 else 1
    runs: list[list[Claim]] = []
    run: list[Claim] = []
    spent, cut = 0.0, 1
    for unit, size in zip(units, sizes):
        boundary = total * cut / parts
        if run and cut < parts and spent + size - boundary > boundary - spent:
            runs.append(run)
            run, cut = [], cut + 1
        run.extend(unit)
        spent += size
        if cut < parts and spent >= total * cut / parts - 1e-12:  # the cut-th of parts equal shares is reached
            runs.append(run)
            run = []
            while cut < parts and spent >= total * cut / parts - 1e-12:
                cut += 1
    if run:
        runs.append(run)
    return runs


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
    claim is kept in `_FINISHED` until the task returns, for `take_finished`. `version`
    is the caller's nacverify version; a worker with another one refuses the task."""
    import nacverify

    if nacverify.__version__ != version:
        raise EnvironmentProblem(f"a Dask worker runs nacverify {nacverify.__version__}, this run {version}: install the same version on every worker")
    known = load_catalog()
    unknown = [cid for cid in claim_ids if cid not in known]
    if unknown:
        raise EnvironmentProblem(f"a Dask worker does not know claim {unknown[0]!r}: install the same nacverify on every worker")
    worker = _dask_worker()
    key = (token, uuid.uuid4().hex)
    finished = _FINISHED[key] = {}
    out: list[Triple] = []
    try:
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
    finally:
        _FINISHED.pop(key, None)
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
        for future in futures:
            future.cancel()
        if client is not None:
            _collect_finished(client, token, by_id, done)
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
