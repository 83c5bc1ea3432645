r"""Many-restart adversarial search for the frozen-coefficient bounds, in chunks of restarts.

Restart $i$ starts from draw $i$ of the sweep sequence of (family, seed)
(`nacverify.regimes.sample_draws`), so chunk $k$ (restarts $k c \dots k c + c - 1$) is a
function of (family, bound, seed, $k$, $c$) alone and can be computed anywhere: serially, or as
one Dask task, exactly like a sweep's chunks. A chunk runs `steps` Adam steps of the search
surrogate (`_adversary._objective`: fixed-step RK4 tightness, differentiable) from all its
restarts at once (`checks.adversary.maximise`, vmapped) and returns its `keep` best points.
The driver keeps the `keep` best of all chunks, ordered by (surrogate value, restart index),
so the result does not depend on the order in which chunks finish, and re-solves them with
diffrax at two tolerances (`run_frozen_error`): only those verified tightnesses decide.

The chunk size is part of the search's definition (restarts of one chunk are one vmapped
computation, the last one only as long as the restarts left), as for sweeps: the same seed,
number of restarts and chunk size give the same numbers, bit for bit, wherever the chunks run.

Like a sweep's, the chunks can run on `threads` threads of one process: the compiled ascent runs
without Python's lock, so two chunks climb at once. The first chunk runs alone, so that the
ascent is traced and compiled once, not once per thread.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

import numpy as np

from ..checks.adversary import maximise
from ..errors import BadInput, Interrupted
from ..compute.precision import float64
from ..regimes import NAMED_REGIMES, sample_draws
from ._adversary import _objective, _theta, point_spec
from ._solve import FrozenErrorRun, run_frozen_error
from ._sweep import check_threads
from ._specs import RegimeSpec, SolveOptions

#: One surrogate per (family, bound, T, a0, grid) in a process: `maximise` then reuses its compiled
#: ascent for every chunk of a search (a worker traces and compiles once, not once per chunk).
_cached_objective = functools.lru_cache(maxsize=32)(_objective)

__all__ = ["SearchChunk", "SearchResult", "search_chunk", "run_search", "MAX_CHUNK", "MAX_STEPS"]

MAX_CHUNK = 65_536  # restarts in one vmapped computation (its RK4 trajectories are kept for the gradient)
MAX_STEPS = 10_000


@dataclass(frozen=True)
class SearchChunk:
    """The `keep` best restarts of one chunk (by surrogate value, then restart index)."""

    index: int
    count: int  # restarts in the chunk
    restarts: np.ndarray  # (keep,) global restart indices
    values: np.ndarray  # (keep,) best surrogate tightness of each
    thetas: np.ndarray  # (keep, dims) their points (unconstrained coordinates)
    fixed_shape: np.ndarray  # (keep,) a step's held position (0 for the other families)
    best_start: float  # the largest surrogate value at the chunk's starting draws
    seconds: float


@dataclass
class SearchResult:
    name: str
    bound: str
    n: int
    seed: int
    chunk: int
    steps: int
    T: float
    a0: float
    best_start: float  # the best surrogate value among the starting draws
    restarts: np.ndarray  # the kept restarts, best first
    values: np.ndarray  # their surrogate values
    specs: list[RegimeSpec]
    verified: list[FrozenErrorRun] = field(default_factory=list)  # diffrax re-solves of `specs`
    seconds: float = 0.0
    chunks_done: int = 0

    @property
    def verified_tightness(self) -> np.ndarray:
        return np.array([float(run.summary.tightness[self.bound][0]) for run in self.verified])


def _check(name: str, bound: str, n: int, chunk: int, steps: int, keep: int) -> None:
    if name not in NAMED_REGIMES:
        raise BadInput(f"searches need a named regime, got {name!r}")
    if name == "step" and bound != "bv":
        raise BadInput("the step family is not Lipschitz: only the BV bound can be searched")
    if n < 1 or chunk < 1 or steps < 1 or keep < 1:
        raise BadInput(f"--search, its chunk, steps and kept points must be >= 1, got {n}, {chunk}, {steps}, {keep}")
    if chunk > MAX_CHUNK or steps > MAX_STEPS:
        raise BadInput(f"--search-chunk is at most {MAX_CHUNK} and --search-steps at most {MAX_STEPS}, got {chunk} and {steps}")


def search_chunk(name: str, bound: str, seed: int, index: int, chunk: int, n: int, *, T: float = 1.0, a0: float = 0.0,
                 steps: int = 40, keep: int = 4, grid: int = 200) -> SearchChunk:
    """Restarts index*chunk ... min(n, (index + 1) chunk) - 1 (module docstring)."""
    start, stop = index * chunk, min(n, (index + 1) * chunk)
    t0 = time.perf_counter()
    draws = sample_draws(name, seed, start, stop, T=T, a0=a0)
    theta0, fixed = _theta(draws.params, name)
    with float64():
        res = maximise(_cached_objective(name, bound, float(T), float(a0), grid), theta0, args=(fixed,), steps=steps, lr=0.1)
    count = stop - start
    order = np.lexsort((np.arange(count), -res.value))[:keep]  # best first, ties by restart index
    return SearchChunk(index, count, start + order, res.value[order], res.theta[order], fixed[order],
                       float(np.max(np.where(np.isfinite(res.initial), res.initial, -np.inf))), time.perf_counter() - t0)


def run_search(name: str, bound: str, n: int, seed: int, *, T: float = 1.0, a0: float = 0.0, chunk: int = 1024, steps: int = 40,
               keep: int = 4, options: SolveOptions = SolveOptions(), executor: Executor | None = None,
               progress: Callable[[int, int], None] | None = None, threads: int = 1) -> SearchResult:
    """Search `n` restarts in chunks of `chunk` (each chunk a task on `executor`, or here: serially,
    or on `threads` threads of this process when > 1), keep the `keep` best points and verify
    them with diffrax. The numbers do not depend on where the chunks run. `progress(done, n)`
    after each chunk. On KeyboardInterrupt raises `Interrupted` (nothing verified)."""
    _check(name, bound, n, chunk, steps, keep)
    check_threads(threads, executor)
    t0 = time.perf_counter()
    chunks = math.ceil(n / chunk)
    kw = dict(T=T, a0=a0, steps=steps, keep=keep)
    parts: list[SearchChunk] = []
    done = 0
    futures = []
    own_pool = ThreadPoolExecutor(int(threads), thread_name_prefix="nacverify-search") if executor is None and threads > 1 and chunks > 1 else None

    def take(part: SearchChunk) -> None:
        nonlocal done
        parts.append(part)
        done += part.count
        if progress:
            progress(done, n)

    try:
        if executor is None and own_pool is None:
            for k in range(chunks):
                take(search_chunk(name, bound, seed, k, chunk, n, **kw))
        else:
            first = 0
            if own_pool is not None:  # the first chunk alone: one trace and compilation, not one per thread
                take(search_chunk(name, bound, seed, 0, chunk, n, **kw))
                first = 1
            pool = own_pool or executor
            futures = [pool.submit(search_chunk, name, bound, seed, k, chunk, n, **kw) for k in range(first, chunks)]
            for f in as_completed(futures):
                take(f.result())
    except KeyboardInterrupt:
        for f in futures:
            f.cancel()
        raise Interrupted(f"search interrupted after {done} of {n} restarts", None) from None
    finally:
        if own_pool is not None:
            own_pool.shutdown(wait=True, cancel_futures=True)
    restarts = np.concatenate([p.restarts for p in parts])
    values = np.concatenate([p.values for p in parts])
    thetas = np.concatenate([p.thetas for p in parts])
    fixed = np.concatenate([p.fixed_shape for p in parts])
    order = np.lexsort((restarts, -values))[:keep]  # the same whatever order the chunks finished in
    specs = [point_spec(name, thetas[i], fixed[i], T=T, a0=a0) for i in order]
    result = SearchResult(name, bound, n, seed, chunk, steps, T, a0, max(p.best_start for p in parts), restarts[order], values[order], specs,
                          chunks_done=len(parts))
    with float64():
        result.verified = [run_frozen_error(spec, options) for spec in specs]
    result.seconds = time.perf_counter() - t0
    return result
