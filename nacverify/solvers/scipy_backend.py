"""The scipy backend: scipy.integrate's ODE solvers (NumPy/Fortran code independent of
JAX), methods DOP853 (explicit order 8, default), Radau (implicit order 5, for stiff
problems) and LSODA (Adams/BDF switching, ODEPACK).

The solver classes are stepped directly (as `solve_ivp` does), so accepted steps can be
counted; grid values come from each step's dense output, as with `solve_ivp(t_eval=...)`.
The problem is integrated piece by piece between its breaks; on each piece the vector
field is the piece's own smooth field (`ref` = the piece's midpoint), so no stage ever
sees the other side of a jump. Grid points on a break are taken from the piece that ends
there (the solution is continuous, so either side gives the same value).
"""

from __future__ import annotations

import importlib.metadata
import time

import numpy as np

from ..errors import BadInput, NacverifyError
from .base import TIGHTER, Availability, Solution, check_tolerances
from .problem import Problem

__all__ = ["ScipyBackend", "METHODS", "solve_pieces"]

METHODS = ("DOP853", "Radau", "LSODA")
RTOL_FLOOR = 2.3e-14  # scipy raises a tighter rtol to 100 eps (with a warning)


def solve_pieces(problem: Problem, rtol: float, atol: float, method: str) -> tuple[np.ndarray, int, int]:
    """(ys (D, P), accepted steps, rhs evaluations) of one piecewise solve."""
    from scipy import integrate

    cls = getattr(integrate, method)
    F = problem.vector_field(np)
    ts = problem.ts
    ys = np.full((problem.dim, ts.shape[0]), np.nan)
    y = problem.y0.astype(np.float64)
    steps = nfev = 0
    for a, b, ref in problem.pieces():
        solver = cls(lambda t, u, ref=ref: F(t, u, ref), a, y, b, rtol=max(rtol, RTOL_FLOOR), atol=atol)
        k = int(np.searchsorted(ts, a, side="right"))  # ts[0] = y0 is set below
        while solver.status == "running":
            message = solver.step()
            if solver.status == "failed":
                raise NacverifyError(f"scipy {method} failed on [{a:g}, {b:g}] at t = {solver.t:g}: {message}")
            steps += 1
            stop = int(np.searchsorted(ts, solver.t, side="right"))
            if k < stop:
                ys[:, k:stop] = solver.dense_output()(ts[k:stop])
                if ts[stop - 1] == solver.t:  # a grid point on the step's end: the step's own value
                    ys[:, stop - 1] = solver.y
                k = stop
        nfev += int(solver.nfev)
        y = solver.y.copy()
    ys[:, 0] = problem.y0
    if np.isnan(ys).any():
        raise NacverifyError(f"scipy {method}: some grid points were not reached")
    return ys, steps, nfev


class ScipyBackend:
    name = "scipy"
    default_method = "DOP853"

    def availability(self) -> Availability:
        return Availability(self.name, True, importlib.metadata.version("scipy"), "installed (a nacverify dependency)", METHODS)

    def solve(self, problem: Problem, *, rtol: float, atol: float, method: str | None = None, estimate_error: bool = True) -> Solution:
        method = method or self.default_method
        if method not in METHODS:
            raise BadInput(f"scipy method {method!r} unknown; choose one of {', '.join(METHODS)}")
        check_tolerances(rtol, atol)
        start = time.perf_counter()
        ys, steps, nfev = solve_pieces(problem, rtol, atol, method)
        seconds = time.perf_counter() - start
        estimate = None
        notes = ""
        if estimate_error:
            tight_rtol = rtol / TIGHTER
            if tight_rtol < RTOL_FLOOR:
                notes = f"error estimate from rtol {RTOL_FLOOR:g} (scipy's floor), not rtol/{TIGHTER:g}"
            tight, _, _ = solve_pieces(problem, tight_rtol, atol / TIGHTER, method)
            estimate = np.max(np.abs(ys - tight), axis=1)
        return Solution(self.name, method, problem.ts, ys, rtol, atol, steps, -1, nfev, estimate, seconds, notes=notes)
