"""The diffrax backend (JAX, float64): explicit Runge-Kutta with PID step control.

NAC problems go through `solve_ensemble` (the path `nacverify.frozen` uses), LTC problems
through `solve_system`; both stop at every break via diffrax's `ClipStepSizeController`
(`jump_ts`), which ends a step just before a jump and restarts just after it.
Methods: Tsit5 (default, order 5), Dopri8 (order 8), Kvaerno5 (implicit, for stiff problems).
"""

from __future__ import annotations

import importlib.metadata
import time

import diffrax
import numpy as np

from ..errors import BadInput
from ._diffrax import solve_ensemble, solve_system
from .base import TIGHTER, Availability, Solution, check_tolerances
from .problem import Problem

__all__ = ["DiffraxBackend", "METHODS"]

METHODS = {"Tsit5": diffrax.Tsit5, "Dopri8": diffrax.Dopri8, "Kvaerno5": diffrax.Kvaerno5}


def _ltc_vector_field(t, y, args):
    model, signal = args
    return model.rhs(t, y, signal)


def _solve_once(problem: Problem, rtol: float, atol: float, method: str):
    solver = METHODS[method]()
    if problem.kind == "nac":
        return solve_ensemble(problem.regime.coefficients, problem.y0, problem.ts, rtol=rtol, atol=atol, jump_ts=problem.breaks, solver=solver)
    ltc = problem.ltc
    return solve_system(_ltc_vector_field, (ltc.model, ltc.signal), problem.y0, problem.ts, rtol=rtol, atol=atol, jump_ts=problem.breaks, solver=solver)


class DiffraxBackend:
    name = "diffrax"
    default_method = "Tsit5"

    def availability(self) -> Availability:
        return Availability(self.name, True, importlib.metadata.version("diffrax"), "installed (a nacverify dependency)", tuple(METHODS))

    def solve(self, problem: Problem, *, rtol: float, atol: float, method: str | None = None, estimate_error: bool = True) -> Solution:
        method = method or self.default_method
        if method not in METHODS:
            raise BadInput(f"diffrax method {method!r} unknown; choose one of {', '.join(METHODS)}")
        check_tolerances(rtol, atol)
        start = time.perf_counter()
        first = _solve_once(problem, rtol, atol, method)
        seconds = time.perf_counter() - start
        estimate = None
        if estimate_error:
            tight = _solve_once(problem, rtol / TIGHTER, atol / TIGHTER, method)
            estimate = np.max(np.abs(first.ys - tight.ys), axis=1)
        return Solution(
            self.name, method, problem.ts, first.ys, rtol, atol, first.num_steps, first.num_rejected, -1, estimate, seconds,
            notes="seconds include JIT compilation on first use; num_rhs not reported by diffrax",
        )
