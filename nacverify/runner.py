"""Run registered claims, serially or with whole claim groups in parallel processes.

A group (symbolic, frozen-error, numeric, ltc, solvers, model) shares cached solves and
compiled functions between its claims, so groups, not claims, are the unit of parallel
work: each worker process (spawned, so JAX starts clean) takes the costliest remaining
group from a queue, evaluates its claims in order and reports each outcome back. The
results are the same as a serial run's: every check is seeded by the context alone.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import time
from collections.abc import Callable, Sequence

from .claims import CheckContext, Claim, Result, evaluate, get_claim
from .errors import Interrupted, NacverifyError

__all__ = ["run_claims", "GROUP_COST"]

#: Relative cost of each group in a full run on a 2-core CPU (seconds, measured), for scheduling.
GROUP_COST = {"complexity": 190.0, "solvers": 43.0, "ltc": 39.0, "frozen-error": 29.0, "numeric": 40.0, "model": 60.0, "symbolic": 6.0, "tables": 2.0}

Progress = Callable[[Claim, Result | None], None]


def _worker(tasks, results, seed: int, quick: bool) -> None:
    from .precision import enable_float64_globally

    enable_float64_globally()  # a worker is nacverify's own process, like the command line that spawned it
    import nacverify.catalog  # noqa: F401  (registers every claim provider in this process)

    ctx = CheckContext(seed=seed, quick=quick)
    while True:
        ids = tasks.get()
        if ids is None:
            return
        for cid in ids:
            results.put(("start", cid, None, 0.0))
            try:
                result = evaluate(get_claim(cid), ctx)
            except BaseException as exc:  # BadInput, interrupts: report and stop this worker
                results.put(("fatal", cid, f"{type(exc).__name__}: {exc}", 0.0))
                return
            results.put(("done", cid, result.outcome, result.seconds))


def run_claims(claims: Sequence[Claim], ctx: CheckContext, *, jobs: int = 1, progress: Progress | None = None) -> list[Result]:
    """Evaluate `claims` and return their results in the given order.

    `progress(claim, None)` is called when a claim starts and `progress(claim, result)`
    when it is done. With `jobs` > 1 and several groups, groups run in `jobs` worker
    processes. On KeyboardInterrupt raises `Interrupted` whose `partial` holds the
    results finished so far (in the given order)."""
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(claim.group, []).append(claim)
    done: dict[str, Result] = {}
    ordered = lambda: [done[c.id] for c in claims if c.id in done]  # noqa: E731
    try:
        if jobs <= 1 or len(groups) <= 1:
            for claim in claims:
                if progress:
                    progress(claim, None)
                done[claim.id] = evaluate(claim, ctx)
                if progress:
                    progress(claim, done[claim.id])
        else:
            _run_parallel(groups, ctx, jobs, done, progress)
    except KeyboardInterrupt as exc:
        raise Interrupted(f"interrupted after {len(done)} of {len(claims)} claims", ordered()) from exc
    return ordered()


def _run_parallel(groups: dict[str, list[Claim]], ctx: CheckContext, jobs: int, done: dict[str, Result], progress: Progress | None) -> None:
    spawn = mp.get_context("spawn")
    tasks, results = spawn.Queue(), spawn.Queue()
    by_id = {c.id: c for members in groups.values() for c in members}
    for name in sorted(groups, key=lambda g: -GROUP_COST.get(g, 10.0)):
        tasks.put([c.id for c in groups[name]])
    workers = [spawn.Process(target=_worker, args=(tasks, results, ctx.seed, ctx.quick), daemon=True) for _ in range(min(jobs, len(groups)))]
    for _ in workers:
        tasks.put(None)
    for w in workers:
        w.start()
    try:
        while len(done) < len(by_id):
            try:
                kind, cid, payload, seconds = results.get(timeout=0.5)
            except queue.Empty:
                if not any(w.is_alive() for w in workers):
                    raise NacverifyError(f"a worker process ended unexpectedly ({len(done)} of {len(by_id)} claims done)") from None
                continue
            claim = by_id[cid]
            if kind == "start":
                if progress:
                    progress(claim, None)
            elif kind == "fatal":
                raise NacverifyError(f"{cid}: {payload}")
            else:
                done[cid] = Result(claim, payload, seconds)
                if progress:
                    progress(claim, done[cid])
        for w in workers:
            w.join(timeout=10)
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
        for w in workers:
            w.join(timeout=5)
        time.sleep(0)  # let the queues' feeder threads wind down
