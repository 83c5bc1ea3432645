r"""Solve an ensemble of scalar NAC logit ODEs with diffrax as one vector system.

The N members are integrated together as one state of shape (N,), with the
PID controller's error norm set to the *maximum* over members. diffrax scales each
member's local error by its own tolerance (atol + rtol |a_i|) before the norm, so every
member meets its own tolerance and the shared steps are those the hardest member needs.
This is much faster than `jax.vmap` over separate solves, whose saving loop is masked
per member (measured here: 64k vs 5k trajectories/s at 1001 saved points).

Discontinuities (`jump_ts`) are passed to `ClipStepSizeController`, so the solver
restarts at each jump instead of stepping over it blindly.

Compiled solves are kept by JAX's persistent compilation cache only when they hold no host
callback, and diffrax checks its arguments (`SaveAt(ts=...)` increasing and inside
[t0, t1]; `throw=True`'s final result) with `equinox.error_if`, which lowers to a Python
callback that raises. `checks_without_callbacks` traces those checks in equinox's `nan`
mode instead (a failed check turns its array into NaN, no callback), and `solve_system`
makes the same argument checks in Python first, so a bad grid still raises; a solve that
does not reach t1 is reported by its `result`, as before. The compiled solve is then the
same computation, cached between runs.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..errors import NacverifyError
from ..compute.host import from_host
from ..odes import logit_rhs
from ..compute.precision import uses_float64
from ..compute.program_cache import cached_jit

__all__ = ["EnsembleSolution", "solve_ensemble", "solve_system", "max_norm", "checks_without_callbacks", "in_checks_without_callbacks"]


def _nan_mode_impl(x, pred, index, msgs, *, on_error):
    from equinox import _errors

    return _errors.branched_error_if_impl(x, pred, index, msgs, on_error="nan" if on_error == "default" else on_error)


_NAN_MODE_IMPL = eqx.filter_jit(_nan_mode_impl)  # its own trace cache: no trace is shared with the default (raise) mode
_NAN_MODE = threading.local()  # .on: this thread is inside `checks_without_callbacks`
_INSTALL_LOCK = threading.Lock()


def _install_switch() -> bool:
    """Route equinox's `branched_error_if_impl_jit` through a per-thread switch, once per process
    (outside `checks_without_callbacks` the switch calls equinox's own function, unchanged).
    False with an equinox that lacks the internal hook."""
    from equinox import _errors

    with _INSTALL_LOCK:
        current = getattr(_errors, "branched_error_if_impl_jit", None)
        if current is None or not hasattr(_errors, "branched_error_if_impl"):
            return False
        if getattr(current, "_nacverify_switch", False):
            return True
        original = current

        def switch(*args, **kwargs):
            return (_NAN_MODE_IMPL if getattr(_NAN_MODE, "on", False) else original)(*args, **kwargs)

        switch._nacverify_switch = True
        _errors.branched_error_if_impl_jit = switch
        return True


@contextlib.contextmanager
def checks_without_callbacks() -> Iterator[None]:
    """While inside, `equinox.error_if` checks this thread traces with the default mode use `nan`
    mode: no host callback in the compiled function, so that JAX's persistent cache keeps it.
    Callers check in Python what the traced checks would have raised on (argument validity, the
    solver's `result`). Per thread (other threads, and solves running at the same time, are not
    affected or serialised). With an equinox that lacks the internal hook, nothing changes (the
    solve is only recompiled per process)."""
    if not _install_switch():
        yield
        return
    before = getattr(_NAN_MODE, "on", False)
    _NAN_MODE.on = True
    try:
        yield
    finally:
        _NAN_MODE.on = before


def max_norm(y) -> jax.Array:
    return jnp.max(jnp.abs(y))


@dataclass(frozen=True)
class EnsembleSolution:
    ts: np.ndarray  # (P,)
    ys: np.ndarray  # (N, P)
    num_steps: int
    num_rejected: int


@uses_float64
def solve_ensemble(
    coefficients,
    a0: np.ndarray,
    ts: np.ndarray,
    *,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    jump_ts: tuple[float, ...] = (),
    solver: diffrax.AbstractSolver | None = None,
    max_steps: int = 1_000_000,
    members: int | None = None,
) -> EnsembleSolution:
    """Solve eq. 1 for every member of `coefficients` from `a0` (N,), saving at `ts`.

    Default solver Tsit5 (5th order, adaptive). Raises `NacverifyError` when the solver
    does not reach the end of the window.

    `members` (>= N): solve as that many members, the N given ones followed by copies of the
    first, and return the N given ones. XLA compiles one program per ensemble size, so two
    ensembles that differ only in size can share one compiled solve this way. The copies change
    nothing: the step size follows the max norm of the error estimate over members, which a
    copy of a member leaves as it is, and each member's arithmetic is its own (tested bit for
    bit)."""
    n = int(np.shape(a0)[0])
    if members is not None and members > n:
        coefficients, a0 = _with_copies(coefficients, a0, n, members)
    solution = solve_system(logit_rhs, coefficients, a0, ts, rtol=rtol, atol=atol, jump_ts=jump_ts, solver=solver, max_steps=max_steps)
    return solution if solution.ys.shape[0] == n else EnsembleSolution(solution.ts, solution.ys[:n], solution.num_steps, solution.num_rejected)


def _with_copies(coefficients, a0, n: int, members: int):
    """`coefficients` and `a0` of n members extended to `members` by copies of member 0 (every
    array of the coefficients holds one value per member)."""

    def extend(leaf):
        if not eqx.is_array(leaf) or np.ndim(leaf) == 0 or np.shape(leaf)[0] != n:
            raise NacverifyError(f"members: every array of the coefficients must hold one value per member ({n}), got shape {np.shape(leaf)}")
        host = np.asarray(leaf)
        return from_host(np.concatenate([host, np.repeat(host[:1], members - n, axis=0)]))

    return jax.tree.map(extend, coefficients, is_leaf=eqx.is_array), extend(a0)


def in_checks_without_callbacks() -> bool:
    """Whether this thread is inside `checks_without_callbacks` (it changes the traced solve)."""
    return bool(getattr(_NAN_MODE, "on", False))


@cached_jit(context=in_checks_without_callbacks)
def _solve_system(vector_field, args, y0, ts, rtol, atol, jump_ts, solver, max_steps):
    """The solve, compiled (kept between runs by `nacverify.compute.program_cache`). Returns the saved
    states, the accepted and rejected step counts, and two flags: the solve succeeded, and it
    stopped at `max_steps` (arrays only, so that the program can be exported). The loop is
    diffrax's `ForwardMode` one, a plain ``lax.while_loop``: nothing differentiates through
    `solve_system` (it returns NumPy arrays), and the default `RecursiveCheckpointAdjoint`'s
    checkpointed loop, built for reverse mode, costs a third more tracing for the same bits
    (measured on 14 solve claims)."""
    controller = diffrax.PIDController(rtol=rtol, atol=atol, norm=max_norm)
    if jump_ts is not None:
        controller = diffrax.ClipStepSizeController(controller, jump_ts=jump_ts)
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(vector_field),
        solver,
        t0=ts[0],
        t1=ts[-1],
        dt0=None,
        y0=y0,
        args=args,
        saveat=diffrax.SaveAt(ts=ts),
        stepsize_controller=controller,
        max_steps=max_steps,
        throw=False,
        adjoint=diffrax.ForwardMode(),
    )
    return (sol.ys, sol.stats["num_accepted_steps"], sol.stats["num_rejected_steps"], sol.result == diffrax.RESULTS.successful,
            sol.result == diffrax.RESULTS.max_steps_reached)


@uses_float64
def solve_system(
    vector_field,
    args,
    y0: np.ndarray,
    ts: np.ndarray,
    *,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    jump_ts: tuple[float, ...] = (),
    solver: diffrax.AbstractSolver | None = None,
    max_steps: int = 1_000_000,
) -> EnsembleSolution:
    """Solve y' = vector_field(t, y, args) from y0 (D,), saving at `ts`; the same PID
    control (max norm) and jump handling as `solve_ensemble`. `vector_field` should be a
    module-level function (it is a static argument of the compiled solve)."""
    y0 = from_host(y0, np.float64)
    grid = np.asarray(ts, dtype=np.float64)
    if grid.ndim != 1 or np.any(np.diff(grid) < 0):  # diffrax's own SaveAt(ts) check, made here (module docstring)
        raise NacverifyError(f"the saving grid must be one-dimensional and non-decreasing (shape {grid.shape})")
    ts = from_host(grid)
    inside = [t for t in sorted(set(jump_ts)) if float(grid[0]) < t < float(grid[-1])]
    jumps = from_host(np.asarray(inside, dtype=np.float64)) if inside else None
    with checks_without_callbacks():
        ys, accepted, rejected, successful, max_steps_reached = _solve_system(
            vector_field, args, y0, ts, jnp.asarray(rtol, dtype=jnp.float64), jnp.asarray(atol, dtype=jnp.float64), jumps, solver or diffrax.Tsit5(),
            int(max_steps)
        )
    if not bool(successful):
        why = f"the maximum number of steps ({int(max_steps)}) was reached" if bool(max_steps_reached) else "the solve failed"
        raise NacverifyError(f"diffrax did not reach t1: {why}")
    return EnsembleSolution(np.asarray(ts), np.asarray(ys).T, int(accepted), int(rejected))
