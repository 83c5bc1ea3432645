"""Random sweeps that stream: N draws of a named regime family, solved in chunks, kept only
as streaming reductions (`SweepStats`) while each chunk's per-draw summaries go to a sink
(the report's HDF5 spool) as it finishes.

What a sweep is (`SweepSpec`): family, N, seed, chunk size c, T, a0, solver options.
Draw i is `sample_draws(name, seed, i, i + 1)` (a function of the seed and i alone). Chunk k
holds draws k c ... k c + c - 1 and is solved as one system whose step control takes the
max-norm error over the chunk, so a draw's numbers depend on the draws that share its chunk:
the chunk size is part of the sweep's definition (recorded in the report). The last chunk is
solved full, and only its draws below N are kept, so every chunk's composition is a function
of (seed, c, k) alone. With c >= N the chunk size is N (one chunk).

Each chunk is one task (`sweep_chunk`, a module-level function, so it can run in another
process): it draws, solves in float64 (scoped), and reduces. `run_sweep` runs the tasks here,
on `threads` threads of this process, or on an executor (`concurrent.futures`, e.g. a Dask
client's), keeps at most a few chunks in flight, and hands the results to `on_chunk` in chunk
order, whatever the order in which they finish. Threads share one compiled solve and kernel
(compiled once, under a lock) and run them at once: XLA executes compiled code without holding
Python's GIL, and the host's share of a chunk (drawing, reductions, `on_chunk`'s storage)
overlaps the other threads' solves. The numbers are therefore the same serially, on any number
of threads or workers, or on a remote scheduler; a task lost with its worker is recomputed (by
Dask) to the same result.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from ..errors import BadInput, Interrupted
from ..compute.precision import float64
from ..regimes import NAMED_REGIMES, Regime, sample_draws
from ..run.shared_work import cached
from ..solvers import solve_ensemble
from ._bounds import BOUNDS
from ._chunking import DEFAULT_CHUNK, default_chunk
from ._kernel import KindFamily, chunk_summary, gates_needed, summary_of
from ._solve import TIGHTER_FACTOR, MemberSummary
from ._specs import SolveOptions
from ._stats import Extreme, SweepStats

__all__ = [
    "SweepSpec",
    "ChunkResult",
    "SweepRun",
    "SweepEstimate",
    "STORED_FIELDS",
    "DEFAULT_CHUNK",
    "default_chunk",
    "run_sweep",
    "sweep_chunk",
    "estimate_sweep",
    "cached_sweep",
]

#: Per-draw summaries a sweep stores (float64 each), besides the draw parameters.
STORED_FIELDS = (
    *(f"tightness_{b}" for b in BOUNDS),
    *(f"peak_t_{b}" for b in BOUNDS),
    "rel_mean_pct",
    "rel_max_pct",
    "variation_bound_pct",
    "max_solver_error",
)
#: Draw parameters stored per draw: phi0, omega0, phi_amp, omega_amp, a0 and the shape parameter.
N_PARAMS = 6
#: Uncompressed bytes per stored draw: an upper bound of what the report needs per draw.
RAW_BYTES_PER_DRAW = 8 * (len(STORED_FIELDS) + N_PARAMS)


@dataclass(frozen=True)
class SweepSpec:
    """What defines a sweep's numbers: the same spec gives the same bits anywhere."""

    name: str
    n: int
    seed: int
    chunk: int = 2000  # DEFAULT_CHUNK
    T: float = 1.0
    a0: float = 0.0
    options: SolveOptions = SolveOptions()

    def __post_init__(self) -> None:
        if self.name not in NAMED_REGIMES:
            raise BadInput(f"sweeps need a named regime, got {self.name!r}")
        if self.n < 1:
            raise BadInput(f"--sweep must be >= 1, got {self.n}")
        if self.chunk < 1:
            raise BadInput(f"--chunk must be >= 1, got {self.chunk}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise BadInput(f"--seed must be an integer >= 0 for a sweep, got {self.seed}")
        if self.options.backend != "diffrax":
            raise BadInput("sweeps solve with diffrax (--backend selects the solver of single runs)")
        object.__setattr__(self, "chunk", int(min(self.chunk, self.n)))

    @property
    def n_chunks(self) -> int:
        return -(-self.n // self.chunk)

    def chunk_draws(self, index: int) -> tuple[int, int]:
        """(first draw, number of draws kept) of chunk `index`."""
        start = index * self.chunk
        return start, min(self.chunk, self.n - start)


@dataclass
class ChunkResult:
    """One solved chunk: its kept draws' parameters and summaries, their reduction, timings."""

    index: int
    start: int
    count: int
    params: dict[str, np.ndarray]
    summary: MemberSummary
    stats: SweepStats
    num_steps: int
    compile_seconds: float  # this process's first compile (0 when already compiled)
    solve_seconds: float  # primary solve
    verify_seconds: float  # the 100x tighter solve
    analysis_seconds: float  # frozen solution, bounds, reductions
    worker: str  # host:pid that computed it

    @property
    def seconds(self) -> float:
        """Compute time of the chunk, compile excluded."""
        return self.solve_seconds + self.verify_seconds + self.analysis_seconds

    def stored(self) -> dict[str, np.ndarray]:
        """The per-draw datasets the report keeps: summaries and parameters (float64)."""
        s = self.summary
        out = {**{f"tightness_{b}": s.tightness[b] for b in BOUNDS}, **{f"peak_t_{b}": s.peak_t[b] for b in BOUNDS}}
        out.update(rel_mean_pct=s.rel_mean_pct, rel_max_pct=s.rel_max_pct, variation_bound_pct=s.variation_bound_pct, max_solver_error=s.max_solver_error)
        return out


#: Per process: solve shapes already compiled (a worker compiles once, then reuses).
_COMPILED: set[tuple] = set()
#: Held while a shape compiles, so that threads of one process compile it once.
_COMPILE_LOCK = threading.Lock()


def _chunk_regime(spec: SweepSpec, index: int) -> Regime:
    start = index * spec.chunk
    return sample_draws(spec.name, spec.seed, start, start + spec.chunk, T=spec.T, a0=spec.a0)


def _solve(regime: Regime, t: np.ndarray, opts: SolveOptions, factor: float, coefficients=None):
    coefficients = regime.coefficients if coefficients is None else coefficients
    return solve_ensemble(coefficients, regime.params["a0"], t, rtol=opts.rtol / factor, atol=opts.atol / factor, jump_ts=regime.facts.jump_ts)


def _analyse_chunk(regime: Regime, t: np.ndarray, opts: SolveOptions, count: int) -> tuple[MemberSummary, object, float, float]:
    """Both solves of a chunk (its own family's coefficients, `KindFamily`: the same bits as
    the regime's, but for the oscillatory sine, to 1 ulp) and the streaming analysis of their trajectories, in the solver's (P, N) layout;
    (summary of the first `count` draws, primary solution, solve seconds, tighter solve seconds)."""
    coeffs = KindFamily.of(regime)
    t0 = time.perf_counter()
    first = _solve(regime, t, opts, 1.0, coeffs)
    t1 = time.perf_counter()
    tight = _solve(regime, t, opts, TIGHTER_FACTOR, coeffs)
    t2 = time.perf_counter()
    out = chunk_summary(regime, t, first.ys.T, tight.ys.T, opts, gates=gates_needed(regime))
    return summary_of({k: np.asarray(v)[:count] for k, v in out.items()}), first, t1 - t0, t2 - t1


def sweep_chunk(spec: SweepSpec, index: int) -> ChunkResult:
    """Draw, solve (twice: tolerances and 100x tighter) and reduce chunk `index` of `spec`.

    A module-level task: it runs in this process or in a worker, in float64 (scoped), and
    its result depends on (spec, index) alone. The first call per process and solve shape
    compiles first (timed apart)."""
    if not 0 <= index < spec.n_chunks:
        raise BadInput(f"chunk {index} is outside the sweep's {spec.n_chunks} chunks")
    opts = spec.options
    start, count = spec.chunk_draws(index)
    with float64():
        regime = _chunk_regime(spec, index)
        t = np.linspace(0.0, spec.T, opts.points)
        key = (spec.name, spec.chunk, spec.T, opts)
        compile_s = 0.0
        if key not in _COMPILED:
            with _COMPILE_LOCK:  # compile the solves and the analysis once per process, timed apart
                if key not in _COMPILED:
                    t0 = time.perf_counter()
                    _analyse_chunk(regime, t, opts, count)
                    compile_s = time.perf_counter() - t0
                    _COMPILED.add(key)
        t0 = time.perf_counter()
        summary, first, solve_s, verify_s = _analyse_chunk(regime, t, opts, count)
        params = {k: v[:count] for k, v in regime.params.items()}
        stats = SweepStats.of(summary, params, start)
        t3 = time.perf_counter()
    return ChunkResult(index, start, count, params, summary, stats, int(first.num_steps), compile_s, solve_s, verify_s, t3 - t0 - solve_s - verify_s,
                       f"{socket.gethostname()}:{os.getpid()}")


@dataclass
class SweepRun:
    """A sweep's result: its definition, the streaming reductions of the draws done (no
    per-draw arrays: those went to `on_chunk`), and timings."""

    spec: SweepSpec
    stats: SweepStats | None
    n_done: int
    complete: bool
    compile_seconds: float = 0.0  # summed over the processes that compiled
    solve_seconds: float = 0.0  # primary solves, summed over chunks (compile excluded)
    verify_seconds: float = 0.0  # the 100x tighter solves
    analysis_seconds: float = 0.0
    write_seconds: float = 0.0  # in `on_chunk` (the caller's storage of the per-draw summaries), here
    wall_seconds: float = 0.0  # the whole sweep as the caller waited for it, compiles included
    num_steps_max: int = 0
    workers: int = 1
    first_chunk_seconds: float = float("nan")  # compute time of chunk 0, compile excluded (the calibration)
    worker_names: set[str] = field(default_factory=set)

    # the fields of the former in-memory sweep, for readers of SweepRun
    @property
    def regime_name(self) -> str:
        return self.spec.name

    @property
    def T(self) -> float:
        return self.spec.T

    @property
    def seed(self) -> int:
        return self.spec.seed

    @property
    def n_requested(self) -> int:
        return self.spec.n

    @property
    def chunk(self) -> int:
        return self.spec.chunk

    @property
    def options(self) -> SolveOptions:
        return self.spec.options

    @property
    def total_seconds(self) -> float:
        """Compute time of every chunk (both solves and the analysis), compile excluded."""
        return self.solve_seconds + self.verify_seconds + self.analysis_seconds

    @property
    def trajectories_per_second(self) -> float:
        """Primary diffrax solves only (`points` saved points each), compile excluded, per worker."""
        return self.n_done / self.solve_seconds if self.solve_seconds > 0 else float("nan")

    @property
    def end_to_end_per_second(self) -> float:
        """Both solves and the per-draw analysis, compile excluded, per worker."""
        return self.n_done / self.total_seconds if self.total_seconds > 0 else float("nan")

    @property
    def wall_per_second(self) -> float:
        """Draws per second of wall time, all workers together, compiles included."""
        return self.n_done / self.wall_seconds if self.wall_seconds > 0 else float("nan")

    @property
    def worst(self) -> dict[str, Extreme]:
        """bound -> the draw of largest tightness."""
        return {} if self.stats is None else {b: s.tightness for b, s in self.stats.bounds.items()}

    def _absorb(self, res: ChunkResult) -> None:
        self.stats = res.stats if self.stats is None else self.stats.merge(res.stats)
        self.n_done += res.count
        self.compile_seconds += res.compile_seconds
        self.solve_seconds += res.solve_seconds
        self.verify_seconds += res.verify_seconds
        self.analysis_seconds += res.analysis_seconds
        self.num_steps_max = max(self.num_steps_max, res.num_steps)
        self.worker_names.add(res.worker)
        if res.index == 0:
            self.first_chunk_seconds = res.seconds


@dataclass(frozen=True)
class SweepEstimate:
    """Time and storage a sweep will take, from its calibration chunk (chunk 0)."""

    seconds: float  # total wall time expected
    bytes: int  # storage of the per-draw datasets
    chunk_seconds: float  # compute time of the calibration chunk
    workers: int


def estimate_sweep(spec: SweepSpec, chunk_seconds: float, workers: int, bytes_per_draw: float) -> SweepEstimate:
    """Wall time = chunks x calibration chunk time / workers (every chunk costs about the same:
    the same size and the same compiled solve); storage = N x bytes per draw."""
    waves = -(-spec.n_chunks // max(1, workers))
    return SweepEstimate(waves * chunk_seconds, int(round(spec.n * bytes_per_draw)), chunk_seconds, workers)


def _parallelism(executor: Executor) -> int:
    """Workers behind an executor: a Dask client's threads, a pool's workers, else 1."""
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # noqa: BLE001  (a scheduler that cannot say: assume one)
            return 1
    return int(getattr(executor, "_max_workers", 1) or 1)


def check_threads(threads: object, executor: Executor | None) -> None:
    """Refuse (`BadInput`) a thread count that is not an integer >= 1, or > 1 beside an executor
    (whose workers run the chunks then): for sweeps and searches alike."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise BadInput(f"--threads must be an integer >= 1, got {threads}")
    if executor is not None and threads > 1:
        raise BadInput("threads run the chunks in this process; with an executor, its workers do")


def run_sweep(
    name: str,
    n: int,
    seed: int,
    *,
    T: float = 1.0,
    a0: float = 0.0,
    opts: SolveOptions = SolveOptions(),
    chunk: int = 2000,
    executor: Executor | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    in_flight: int | None = None,
    threads: int = 1,
) -> SweepRun:
    """Run the sweep `SweepSpec(name, n, seed, chunk, T, a0, opts)`.

    Chunks run here (`executor` None; on `threads` threads of this process when > 1) or as
    `sweep_chunk` tasks on `executor`, at most `in_flight` at a time (default: twice its
    workers). The numbers do not depend on where the chunks run. Results are handed to
    `on_chunk(result)` and merged in chunk order; `progress(done, n)` follows each. Memory
    holds the reductions and the chunks in flight, not the draws done. On KeyboardInterrupt
    the pending tasks are cancelled and `Interrupted` is raised, its `partial` the SweepRun
    of the chunks delivered (complete=False)."""
    spec = SweepSpec(name, n, seed, chunk, T, a0, opts)
    check_threads(threads, executor)
    own_pool = ThreadPoolExecutor(int(threads), thread_name_prefix="nacverify-sweep") if executor is None and threads > 1 and spec.n_chunks > 1 else None
    executor = own_pool or executor
    workers = 1 if executor is None else _parallelism(executor)
    run = SweepRun(spec, None, 0, False, workers=workers)
    start = time.perf_counter()

    def deliver(res: ChunkResult) -> None:
        # the rows are stored before the chunk counts: an interrupt between the two leaves stored rows
        # beyond n_done (the caller trims them), never a count without its rows
        if on_chunk is not None:
            t0 = time.perf_counter()
            on_chunk(res)
            run.write_seconds += time.perf_counter() - t0
        run._absorb(res)
        run.wall_seconds = time.perf_counter() - start
        if progress is not None:
            progress(run.n_done, spec.n)

    futures: dict[Future, int] = {}
    try:
        if executor is None:
            for k in range(spec.n_chunks):
                deliver(sweep_chunk(spec, k))
        else:
            window = max(1, in_flight or 2 * workers)
            ready: dict[int, ChunkResult] = {}
            submitted = delivered = 0
            while delivered < spec.n_chunks:
                while submitted < spec.n_chunks and submitted < delivered + window:
                    futures[executor.submit(sweep_chunk, spec, submitted)] = submitted
                    submitted += 1
                done, _ = wait(list(futures), return_when=FIRST_COMPLETED)
                for f in done:
                    ready[futures.pop(f)] = f.result()
                while delivered in ready:
                    deliver(ready.pop(delivered))
                    delivered += 1
    except KeyboardInterrupt as exc:
        run.wall_seconds = time.perf_counter() - start
        raise Interrupted(f"sweep of {name} interrupted after {run.n_done} of {n} draws", run) from exc
    finally:
        for f in futures:  # left over after an interrupt or a failed chunk
            f.cancel()
        if own_pool is not None:
            own_pool.shutdown(wait=True, cancel_futures=True)
    run.complete = True
    run.wall_seconds = time.perf_counter() - start
    return run


_SWEEP_CACHE: dict[tuple, SweepRun] = {}


def cached_sweep(name: str, n: int, seed: int, T: float = 1.0, a0: float = 0.0, opts: SolveOptions = SolveOptions(), progress=None,
                 chunk: int = 2000, executor: Executor | None = None, on_chunk: Callable[[ChunkResult], None] | None = None,
                 threads: int = 1) -> SweepRun:
    """`run_sweep`, once per definition in this process (the claims of one sweep share it).
    `on_chunk` only sees the chunks of the run that computes it."""
    key = SweepSpec(name, n, seed, chunk, T, a0, opts)
    return cached(_SWEEP_CACHE, key, lambda: run_sweep(name, n, seed, T=T, a0=a0, opts=opts, chunk=chunk, executor=executor, on_chunk=on_chunk,
                                                       progress=progress, threads=threads), f"frozen-error.sweep:{key!r}")
