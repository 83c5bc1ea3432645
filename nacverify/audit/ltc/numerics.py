r"""Batched float64 kernels of the LTC audit (nacverify.audit.ltc.claims), compiled once per shape.

Two computations carry the audit's cost, and both are embarrassingly parallel over steps:

* **the declared solver's update** (fused, seed 002 eq. 8-9, biophysical form; or explicit
  Euler, or RK4: nacverify.audit.ltc.updates) from each step's exported state and
  input, ``unfolds`` times with $\Delta t$ = elapsed / unfolds: step k needs only states[k] and
  inputs[k], so a whole trajectory is one batched computation, run in fixed-size
  row chunks (the last one padded, `_run_chunks`), with the unfold count a traced loop bound: one compilation
  per (solver, rows, N, M) serves every unfold count, the step sweep and the solver-error grid;
* **adaptive reference solves** of the cell ODE over one step's interval each, from the
  exported state with the input held (`ode_solve`): diffrax ``Tsit5`` with a ``PIDController``
  in float64, a fixed number of intervals (lanes) solved as one system in rescaled time
  (`_ode_kernel`; the error control takes the largest of the lanes' RMS norms, so every
  lane meets the tolerance); lanes are sorted by elapsed time before chunking so that a
  chunk's lanes need similar step sizes. rtol and atol are traced: the reference and its
  tighter check share one compilation.

Chunks run on two threads (XLA computes without the GIL); compiled executables are cached per
shape for the process (`_executable`), whichever thread compiles them first. Neither changes a
number.

Both evaluate the synaptic sums as $\sum_j (wE)_{ji} s_{ji}$ and $\sum_j w_{ji} s_{ji}$ with
$s_{ji} = \mathrm{sigmoid}(\sigma_{ji}(v_j - \mu_{ji}))$, i.e. $\sum_j g_{ji} E_{ji}$ and
$\sum_j g_{ji}$ of the module docstring of nacverify.audit.ltc.claims. Inputs and outputs are numpy float64; the
JAX computations run inside `nacverify.compute.precision.float64()` and leave the caller's JAX
configuration alone.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ...compute.precision import float64

__all__ = ["CellArrays", "ReferenceComparison", "compare_with_reference", "ode_solve", "ODE_SOLVER",
           "MAX_ROWS", "MAX_LANES", "MAX_ODE_STEPS", "workers"]

MAX_ROWS = 64  # rows (steps x batch) per fused-kernel call: its (rows, N, N) sigmoids stay in cache (fewer, a power of two, on short runs)
MAX_LANES = 32  # intervals per diffrax solve (fewer, a power of two, when there are fewer)
MAX_ODE_STEPS = 200_000  # per chunk of lanes; a chunk that needs more is reported as not finished
ODE_SOLVER = ("diffrax Tsit5, PIDController (rtol, atol; norm: the largest lane RMS of a chunk), float64; "
              "time rescaled to [0, 1] per interval, 32 intervals per solve")


@dataclass(frozen=True)
class CellArrays:
    """The cell's float64 parameters as used (cm, gleak, w, sensory_w after make_positive_fn;
    w and sensory_w multiplied by their masks). Matrices are [presynaptic, postsynaptic]."""

    cm: np.ndarray  # (N,)
    gleak: np.ndarray
    vleak: np.ndarray
    w: np.ndarray  # (N, N)
    sigma: np.ndarray
    mu: np.ndarray
    erev: np.ndarray
    sw: np.ndarray  # (M, N)
    ssigma: np.ndarray
    smu: np.ndarray
    serev: np.ndarray
    epsilon: float

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(getattr(self, f.name), dtype=np.float64) for f in fields(self) if f.name != "epsilon")


def _sig(z, xp):
    return 0.5 * (1.0 + xp.tanh(0.5 * z))  # the logistic function, without overflow


def _pow2_at_most(n: int, cap: int) -> int:
    """The smallest power of two >= n, capped: few distinct shapes, little padding on short runs."""
    return min(cap, 1 << max(0, int(n) - 1).bit_length())


def workers() -> int:
    """Threads that run chunks at once (XLA releases the GIL while it computes): two, or one when
    this process may use a single core (e.g. a Dask worker bound to its own core), so that a
    pinned worker does not run two computations on one core. Read at call time: binding can
    happen after import."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no sched_getaffinity (not Linux)
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def _run_chunks(calls: list[Callable[[], Any]], done: Callable[[int, Any], None]) -> None:
    """Run the chunk computations `calls` on `workers()` threads; `done(i, result)` in this thread,
    in order. An interrupt cancels what has not started and returns at once."""
    n = workers()
    if n == 1 or len(calls) == 1:
        for i, call in enumerate(calls):
            done(i, call())
        return
    pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="nacverify-ltc")
    try:
        futures = [pool.submit(call) for call in calls]
        for i, future in enumerate(futures):
            done(i, future.result())
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


_EXECUTABLES: dict[tuple, Future] = {}
_LOCK = threading.Lock()


def _executable(key: tuple, build: Callable[[], Any]):
    """The compiled executable for `key`, built once per process (`build` runs in the first
    caller's thread; callers in other threads meanwhile wait for it)."""
    with _LOCK:
        future = _EXECUTABLES.get(key)
        mine = future is None
        if mine:
            future = _EXECUTABLES[key] = Future()
    if mine:
        try:
            with float64():
                future.set_result(build())
        except Exception as exc:
            future.set_exception(exc)
        except BaseException:  # an interrupt: forget the attempt, so that a later call compiles again
            with _LOCK:
                _EXECUTABLES.pop(key, None)
            future.cancel()
            raise
    return future.result()


def _specs(*shapes: tuple[int, ...]):
    import jax
    import jax.numpy as jnp

    return [jax.ShapeDtypeStruct(shape, jnp.float64) for shape in shapes]


def _param_specs(N: int, M: int):
    return tuple(_specs(*([(N,)] * 3 + [(N, N)] * 4 + [(M, N)] * 4)))


def _ode_executable(lanes: int, N: int, M: int):
    def build():
        import jax

        fn = jax.jit(_ode_kernel, static_argnums=(7,))
        return fn.trace(_param_specs(N, M), *_specs((lanes, N), (lanes, N), (lanes, N), (lanes,), (), ()), MAX_ODE_STEPS).lower().compile()

    return _executable(("ode", lanes, N, M), build)


# ---------------------------------------------------------------------------- reference solves
def _lane_rms_max(scaled_error):
    """The step size controller's norm: the largest over lanes of each lane's RMS over its units
    (each lane is controlled as diffrax's default RMS norm would control it alone)."""
    import jax.numpy as jnp

    return jnp.max(jnp.sqrt(jnp.mean(scaled_error**2, axis=1)))


def _ode_kernel(params, v0, num_s, den_s, el, rtol, atol, max_steps: int):
    """One diffrax solve of a chunk of intervals as one system in rescaled time s = t / elapsed in
    [0, 1]: lane k obeys dv_k/ds = elapsed_k f(v_k, I_k). The step size controller takes the
    largest of the lanes' RMS norms (`_lane_rms_max`), so every accepted step meets each lane's
    tolerance as a solve of that lane alone would."""
    import diffrax
    import jax.numpy as jnp

    cm, gleak, vleak, w, sigma, mu, erev = params[:7]
    glvl, wE = gleak * vleak, w * erev

    def vf(s, y, args):  # y (lanes, N); sg (lanes, presynaptic j, postsynaptic i)
        sg = _sig(sigma * (y[:, :, None] - mu), jnp)
        return el[:, None] * ((glvl + num_s + jnp.sum(wE * sg, axis=1)) - y * (gleak + den_s + jnp.sum(w * sg, axis=1))) / cm

    sol = diffrax.diffeqsolve(diffrax.ODETerm(vf), diffrax.Tsit5(), 0.0, 1.0, None, v0,
                              stepsize_controller=diffrax.PIDController(rtol=rtol, atol=atol, norm=_lane_rms_max),
                              max_steps=max_steps, throw=False, adjoint=diffrax.ForwardMode())
    lanes = v0.shape[0]
    return sol.ys[-1], jnp.full(lanes, sol.result == diffrax.RESULTS.successful), jnp.full(lanes, sol.stats["num_steps"])


def _sensory_sums(cell: CellArrays, I: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    gs = cell.sw * _sig(cell.ssigma * (I[:, :, None] - cell.smu), np)
    return np.sum(gs * cell.serev, axis=1), np.sum(gs, axis=1)


def ode_solve(cell: CellArrays, v0: np.ndarray, I: np.ndarray, elapsed: np.ndarray, rtol: float, atol: float,
              progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Adaptive float64 solves of the cell ODE (epsilon plays no part in it), one per row:
    from v0 (S, N) over [0, elapsed] (S,) with I (S, M) held. Returns (v(elapsed) (S, N),
    finished (S,) bool, accepted + rejected steps of the row's chunk (S,)). `progress(rows)`
    after each chunk."""
    import jax.numpy as jnp

    S, N = v0.shape
    lanes = _pow2_at_most(S, MAX_LANES)
    fn = _ode_executable(lanes, N, I.shape[1])
    num_s, den_s = _sensory_sums(cell, I)
    order = np.argsort(elapsed, kind="stable")  # similar intervals share a chunk
    ys, ok, steps = np.empty((S, N)), np.zeros(S, bool), np.zeros(S, np.int64)
    with float64():
        params = tuple(jnp.asarray(a) for a in cell.arrays())
        tol = (jnp.asarray(float(rtol)), jnp.asarray(float(atol)))
    chunks = [order[start: start + lanes] for start in range(0, S, lanes)]

    def chunk(idx: np.ndarray):
        take = np.r_[idx, np.full(lanes - idx.size, idx[-1], dtype=int)]  # pad by repeating a lane
        with float64():
            res = fn(params, *(jnp.asarray(a[take], dtype=jnp.float64) for a in (v0, num_s, den_s, elapsed)), *tol)
            return [np.asarray(r)[: idx.size] for r in res]

    def done(i: int, res) -> None:
        idx = chunks[i]
        ys[idx], ok[idx], steps[idx] = res
        if progress is not None:
            progress(idx.size)

    _run_chunks([lambda idx=idx: chunk(idx) for idx in chunks], done)
    return ys, ok, steps


# ---------------------------------------------------------------------------- fused vs reference
@dataclass(frozen=True)
class ReferenceComparison:
    """The fused update against the reference solve, per row (one step's interval each).

    rel[u]: max_i |fused_u - ref|_i / max(max_i |ref_i|, max_i |v0_i|), the fused update with u
    unfolds, ref solved at (rtol, atol). `estimate`: the reference's error in that measure, per
    row: `floor` x rtol plus 8 (steps + 8) eps for the rounding of `steps` Tsit5 steps. It is
    tested, not assumed: the `check_index` rows (the longest intervals, then the largest
    errors rel[primary]) are re-solved at tolerances `check_factor` x tighter, `check_error` is
    the reference's error measured there, and `estimate_covers` says where the estimate holds.
    (An estimate from a looser solve instead understates the error where stability rather than
    the tolerance sets the step size: both solves then take nearly the same steps; measured up
    to 7x on 64-unit ncps cells over elapsed 100.)"""

    rel: dict[int, np.ndarray]
    scale: np.ndarray
    steps: np.ndarray
    finished: np.ndarray
    estimate: np.ndarray
    check_index: np.ndarray
    check_error: np.ndarray
    check_finished: np.ndarray
    rtol: float
    atol: float
    check_factor: float
    floor: float

    @property
    def estimate_covers(self) -> np.ndarray:
        """Per checked row: the measured error of the reference is within its estimate."""
        return self.check_error <= self.estimate[self.check_index]

    @property
    def bound(self) -> float:
        """The largest error estimate."""
        return float(np.max(self.estimate))


def _check_rows(elapsed: np.ndarray, rel: np.ndarray, k: int) -> np.ndarray:
    """All rows if at most `k`, else the k/2 longest intervals (the most steps, the most error
    accumulated) and then the largest errors (the figures reported)."""
    if elapsed.size <= k:
        return np.arange(elapsed.size)
    longest = np.argsort(-elapsed, kind="stable")[: k // 2]
    taken = set(longest.tolist())
    worst = [i for i in np.argsort(-np.nan_to_num(rel, nan=np.inf), kind="stable") if i not in taken][: k - longest.size]
    return np.sort(np.concatenate([longest, np.asarray(worst, dtype=int)]))


def compare_with_reference(cell: CellArrays, v0: np.ndarray, I: np.ndarray, elapsed: np.ndarray, unfolds: list[int], primary: int, *,
                           rtol: float, atol: float, check_factor: float = 100.0, check_rows: int = MAX_LANES,
                           floor: float = 10.0, update: Callable[..., tuple]) -> ReferenceComparison:
    """Solve every row's interval at (rtol, atol) (`ode_solve`), apply `update(cell, v0, I, elapsed, u)`
    (a solver's update, nacverify.audit.ltc.updates.advance with its solver bound: fused, euler or rk4;
    returning the new rows first) with each
    unfold count of `unfolds` (`primary` among them), over the same interval, and re-solve `check_rows` rows at
    tolerances `check_factor` x tighter to test the error estimate `floor` x rtol
    (`ReferenceComparison`)."""
    eps64 = float(np.finfo(np.float64).eps)
    ref, ok, steps = ode_solve(cell, v0, I, elapsed, rtol, atol)
    scale = np.maximum(np.max(np.abs(ref), axis=1), np.max(np.abs(v0), axis=1))
    scale = np.where(scale > 0, scale, 1.0)
    estimate = floor * rtol + 8 * (steps + 8) * eps64

    def rel_error(u: int) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return np.max(np.abs(update(cell, v0, I, elapsed, u)[0] - ref), axis=1) / scale

    rel = {int(primary): rel_error(int(primary))}
    if not ok.all():  # no reference, nothing to check
        rel.update({int(u): rel_error(int(u)) for u in unfolds if int(u) not in rel})
        return ReferenceComparison(rel, scale, steps, ok, estimate, np.arange(0), np.zeros(0), np.zeros(0, bool), rtol, atol,
                                   check_factor, floor)
    chk = _check_rows(elapsed, rel[int(primary)], check_rows)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nacverify-ltc-check")
    try:  # the tighter solve runs while the other unfold counts are computed here
        check = pool.submit(ode_solve, cell, v0[chk], I[chk], elapsed[chk], rtol / check_factor, atol / check_factor)
        rel.update({int(u): rel_error(int(u)) for u in unfolds if int(u) not in rel})
        tight, ok_tight, _ = check.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    check_err = np.max(np.abs(ref[chk] - tight), axis=1) / scale[chk]
    return ReferenceComparison(rel, scale, steps, ok, estimate, chk, check_err, ok_tight, rtol, atol, check_factor, floor)
