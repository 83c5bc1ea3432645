r"""The backend protocol: solve a `Problem` on its grid at given tolerances.

Every backend returns a `Solution`: values $y_i(t_k)$, step statistics, and an **error
estimate** per component, $\hat e_i = \max_k |y_i(t_k; \mathrm{tol}) - y_i(t_k; \mathrm{tol}/100)|$
(a second solve at 100x tighter tolerances; the mpmath oracle instead re-solves with 10 more
digits). Backends report whether they can run here (`Availability`) without importing
anything that could install software.

Discrepancy between two solutions (what `solvers.agree` bounds), per component $i$ scaled
by the larger of the two trajectories' sup norms:

$$d_{ab} = \max_i \frac{\max_k |y^a_i(t_k) - y^b_i(t_k)|}{\max(\max_k |y^a_i|, \max_k |y^b_i|, s_{\min})},$$

with $s_{\min} = 10^{-300}$ guarding an identically zero component.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from ..errors import BadInput
from .problem import Problem

__all__ = [
    "Availability",
    "Solution",
    "Backend",
    "Discrepancy",
    "TIGHTER",
    "discrepancy",
    "pairwise",
    "check_tolerances",
]

TIGHTER = 100.0
SCALE_FLOOR = 1e-300


@dataclass(frozen=True)
class Availability:
    name: str
    available: bool
    version: str  # the solver library's version ("" when unknown)
    reason: str  # why not available, or what was found
    methods: tuple[str, ...] = ()
    details: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Solution:
    backend: str
    method: str
    ts: np.ndarray  # (P,)
    ys: np.ndarray  # (D, P) float64
    rtol: float
    atol: float
    num_steps: int
    num_rejected: int
    num_rhs: int
    error_estimate: np.ndarray | None  # (D,), max over t; None when not estimated
    seconds: float
    exact: np.ndarray | None = None  # (D, P) object array of mpf (mpmath only)
    notes: str = ""

    @property
    def max_error_estimate(self) -> float:
        return float(np.max(self.error_estimate)) if self.error_estimate is not None else float("nan")


@runtime_checkable
class Backend(Protocol):
    """What every backend offers."""

    name: str
    default_method: str

    def availability(self) -> Availability: ...

    def solve(self, problem: Problem, *, rtol: float, atol: float, method: str | None = None, estimate_error: bool = True) -> Solution: ...


def check_tolerances(rtol: float, atol: float) -> None:
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not (np.isfinite(value) and value > 0):
            raise BadInput(f"--{name} must be a positive finite number, got {value}")
    if rtol < 1e-13:
        raise BadInput(f"--rtol {rtol:g} is below what float64 solvers can deliver (use >= 1e-13)")


@dataclass(frozen=True)
class Discrepancy:
    a: str
    b: str
    relative: float  # d_ab of the module docstring
    absolute: float  # max_{i,k} |y^a - y^b|
    component: int  # argmax i of the relative discrepancy
    t: float  # time of the largest difference in that component
    estimate: float  # (e_a + e_b) / scale in that component: what the solvers' own errors explain
    per_component: np.ndarray  # (D,)


def discrepancy(a: Solution, b: Solution) -> Discrepancy:
    if a.ys.shape != b.ys.shape or not np.array_equal(a.ts, b.ts):
        raise ValueError("solutions on different grids")
    diff = np.abs(a.ys - b.ys)
    scale = np.maximum(np.maximum(np.max(np.abs(a.ys), axis=1), np.max(np.abs(b.ys), axis=1)), SCALE_FLOOR)
    per = np.max(diff, axis=1) / scale
    i = int(np.argmax(per))
    k = int(np.argmax(diff[i]))
    ea = a.error_estimate[i] if a.error_estimate is not None else np.inf
    eb = b.error_estimate[i] if b.error_estimate is not None else np.inf
    return Discrepancy(a.backend, b.backend, float(per[i]), float(np.max(diff)), i, float(a.ts[k]), float((ea + eb) / scale[i]), per)


def pairwise(solutions: Iterable[Solution]) -> list[Discrepancy]:
    sols = list(solutions)
    return [discrepancy(sols[i], sols[j]) for i in range(len(sols)) for j in range(i + 1, len(sols))]
