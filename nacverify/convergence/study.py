r"""The convergence study: every applicable method on every problem over a ladder of steps
$\Delta t_k = T / n_k$, its error at $T$ against the reference, and the fitted order.

Ladders (exponents $k$ of $n = 2^k$ steps; $n = \mathrm{round}(2^{k/2})$ for orders 5 and 8; the quick ladder in brackets) are chosen per method so that the range reaches
from where the error is below `ERROR_CAP` down to the reference's floor: order 1: 3..13 [3..11];
order 4: 1..10 [2..8]; order 5: 1..9 [1..7]; order 8: 0..6 [0..5]. On problems whose jumps are hidden
from the method the error oscillates with the jump's position inside its step (the local error there is
$\Delta F\,(t_{n+1} - t_j)$, of size between 0 and $\Delta F\,\Delta t$), so the order there is the
least-squares slope over every kept point (`nacverify.convergence.order`, ``straight=False``), not a
straight run.

The error of a level is $\|y_{\Delta t}(T) - y_{ref}(T)\|_\infty$; its wall time is measured after one
run that compiles the method (`methods.integrator`); "the default step" is $\Delta t = T/64$. The floor of a
level is the reference's (`Reference.floor`) or the method's own round-off, a random walk of $n$ roundings
of the solution: $3\,\epsilon \max(1, \|y\|_\infty)\sqrt{n}$, whichever is larger.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .methods import Method, expected_order, integrator, methods_for, rhs_per_step
from .order import OrderFit, fit_order
from .problems import StudyProblem
from .reference import Reference, reference

__all__ = ["Ladder", "ConvergenceResult", "ladder_for", "converge", "run_study", "DEFAULT_DIVISIONS"]

DEFAULT_DIVISIONS = 64
ROUNDOFF = 3.0
EPS = float(np.finfo(np.float64).eps)
_LADDERS = {1: ((3, 13), (3, 11)), 4: ((1, 10), (2, 8)), 5: ((1, 9), (1, 7)), 8: ((0, 6), (0, 5))}


def ladder_for(m: Method, T: float, *, quick: bool) -> np.ndarray:
    """The steps T / n of `m`'s ladder (decreasing): n = 2^k, or for orders 5 and 8, whose error
    falls by 2^5 or 2^8 per halving, n = round(2^(k/2)) (twice the points in the same range)."""
    lo, hi = _LADDERS[m.order][1 if quick else 0]
    if m.order < 5:
        return T / 2.0 ** np.arange(lo, hi + 1)
    return T / np.unique(np.round(2.0 ** (np.arange(2 * lo, 2 * hi + 1) / 2)))


@dataclass
class ConvergenceResult:
    problem: str
    method: str
    description: str
    expected: int
    dts: np.ndarray
    errors: np.ndarray
    steps: np.ndarray
    seconds: np.ndarray
    compile_seconds: float
    fit: OrderFit
    rhs_per_step: float
    reference_error: float
    reference_checked: bool
    floor: float
    notes: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def error_at_default(self) -> float:
        """The error at the default step T / DEFAULT_DIVISIONS (nan when the ladder lacks it)."""
        return _at(self.dts, self.errors, self._T / DEFAULT_DIVISIONS)

    @property
    def _T(self) -> float:
        return float(self.extra["T"])

    @property
    def rhs_at_default(self) -> float:
        return self.rhs_per_step * DEFAULT_DIVISIONS

    @property
    def within(self) -> bool:
        return bool(np.isfinite(self.fit.order) and abs(self.fit.order - self.expected) <= 0.1)


def _at(dts: np.ndarray, values: np.ndarray, dt: float) -> float:
    i = int(np.argmin(np.abs(np.log(dts / dt))))
    return float(values[i]) if abs(math.log(dts[i] / dt)) < 1e-9 else math.nan


def converge(sp: StudyProblem, m: Method, ref: Reference, *, quick: bool) -> ConvergenceResult:
    """One method's ladder on one problem."""
    dts = ladder_for(m, sp.T, quick=quick)
    start = time.perf_counter()
    run = integrator(m.id, sp).run
    run(dts[0])  # compiles (the same program serves every level)
    compile_seconds = time.perf_counter() - start
    errors, steps, seconds = (np.empty(len(dts)) for _ in range(3))
    for k, dt in enumerate(dts):
        t0 = time.perf_counter()
        with np.errstate(all="ignore"):
            y, n = run(float(dt))
            seconds[k] = time.perf_counter() - t0
            errors[k] = float(np.max(np.abs(y - ref.y))) if np.all(np.isfinite(y)) else math.inf
        steps[k] = n
    scale = max(1.0, float(np.max(np.abs(ref.y))))
    floors = np.maximum(ref.floor, ROUNDOFF * EPS * scale * np.sqrt(steps))  # the method's own round-off over n steps
    fit = fit_order(dts, errors, floors, straight=not sp.hidden_jumps)
    notes = ""
    if sp.hidden_jumps:
        notes = "jumps hidden from the method: O(dt) local error in the step holding each jump; least-squares slope over every kept point"
    elif m.id == "nac_exact" and not np.isfinite(fit.order):
        notes = "exact for frozen coefficients"
    return ConvergenceResult(sp.id, m.id, m.description, expected_order(m, sp), dts, errors, steps, seconds, compile_seconds, fit,
                             rhs_per_step(m, sp.problem.dim), ref.error, ref.checked, ref.floor, notes, {"T": sp.T})


def run_study(problems: list[StudyProblem], *, methods=None, quick: bool = False, check_reference: bool = True,
              progress: Callable[[str], None] | None = None) -> Iterator[ConvergenceResult]:
    """Every applicable method of `methods` (default all) on every problem, one result at a time
    (an interrupted study keeps what was yielded). `progress(label)` after each pair."""
    for sp in problems:
        ref = reference(sp, check=check_reference)
        for m in methods_for(sp, methods):
            yield converge(sp, m, ref, quick=quick)
            if progress is not None:
                progress(f"{sp.id} {m.id}")
