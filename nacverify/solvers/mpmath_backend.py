r"""The mpmath backend: arbitrary-precision Taylor integration (`mpmath.odefun`), an oracle.

`mpmath.odefun` builds Taylor polynomials of degree $n$ (default $3 + \lfloor 3\,\mathrm{dps}/2 \rfloor$)
from $n$ evaluations of the vector field at very high working precision, and chains them
with a step radius chosen so that the last coefficient's contribution is below the target
precision. Its accuracy is set by the number of digits `dps`, not by rtol/atol (which
this backend records but ignores). A Taylor series needs a smooth vector field, so the
problem is integrated piece by piece between its breaks (the step regime's jump, an
irregular input's events), each piece with its own smooth field (`ref` = its midpoint).

Values are kept exactly (`Solution.exact`, mpf objects) and rounded to float64 in
`Solution.ys`. Error estimate: the same solve with `dps + 5` digits; the estimate is the
largest difference (it is far below float64 resolution for well-behaved problems).
Step statistics: `num_steps` counts Taylor expansions, `num_rhs` vector-field calls.
"""

from __future__ import annotations

import time

import mpmath
import numpy as np

from ..errors import BadInput
from ._mpns import MP
from .base import Availability, Solution, check_tolerances
from .problem import Problem

__all__ = ["MpmathBackend", "solve_pieces_mp", "DEFAULT_DPS"]

DEFAULT_DPS = 20
ESTIMATE_EXTRA_DIGITS = 5


def default_degree(dps: int) -> int:
    return 3 + int(3 * dps / 2.0)


def solve_pieces_mp(problem: Problem, dps: int, degree: int | None = None) -> tuple[np.ndarray, int, int]:
    """(exact values (D, P) as mpf, Taylor expansions, vector-field calls)."""
    degree = degree or default_degree(dps)
    ts = problem.ts
    exact = np.empty((problem.dim, ts.shape[0]), dtype=object)
    calls = [0]
    with mpmath.mp.workdps(dps):
        F = problem.vector_field(MP)
        y = [mpmath.mpf(float(v)) for v in problem.y0]
        exact[:, 0] = y
        k = 1
        for a, b, ref in problem.pieces():

            def G(t, u, ref=ref):
                calls[0] += 1
                return list(F(t, np.array(u, dtype=object), ref))

            sol = mpmath.odefun(G, mpmath.mpf(a), y, degree=degree)
            stop = int(np.searchsorted(ts, b, side="right"))
            for j in range(k, stop):
                exact[:, j] = sol(mpmath.mpf(float(ts[j])))
            k = stop
            y = sol(mpmath.mpf(b))
    return exact, calls[0] // degree, calls[0]


def to_float(exact: np.ndarray) -> np.ndarray:
    return np.vectorize(float, otypes=[np.float64])(exact)


class MpmathBackend:
    name = "mpmath"
    default_method = "taylor"

    def __init__(self, dps: int = DEFAULT_DPS, degree: int | None = None):
        if dps < 16:
            raise BadInput(f"mpmath needs at least 16 digits to serve as an oracle for float64, got {dps}")
        if degree is not None and degree < 4:
            raise BadInput(f"Taylor degree must be >= 4, got {degree}")
        self.dps = int(dps)
        self.degree = degree

    def configured(self, dps: int | None = None, degree: int | None = None) -> "MpmathBackend":
        return MpmathBackend(self.dps if dps is None else dps, self.degree if degree is None else degree)

    def availability(self) -> Availability:
        return Availability(self.name, True, mpmath.__version__, f"installed; Taylor series at {self.dps} digits", ("taylor",))

    def solve(self, problem: Problem, *, rtol: float, atol: float, method: str | None = None, estimate_error: bool = True) -> Solution:
        if method not in (None, "taylor"):
            raise BadInput(f"mpmath method {method!r} unknown; the only one is taylor")
        check_tolerances(rtol, atol)
        start = time.perf_counter()
        exact, series, calls = solve_pieces_mp(problem, self.dps, self.degree)
        seconds = time.perf_counter() - start
        estimate = None
        if estimate_error:
            finer, _, _ = solve_pieces_mp(problem, self.dps + ESTIMATE_EXTRA_DIGITS, self.degree and self.degree + ESTIMATE_EXTRA_DIGITS)
            with mpmath.mp.workdps(self.dps + ESTIMATE_EXTRA_DIGITS):
                estimate = np.array([float(max(abs(x - y) for x, y in zip(row_a, row_b))) for row_a, row_b in zip(exact, finer)])
        degree = self.degree or default_degree(self.dps)
        return Solution(
            self.name, f"taylor(dps={self.dps}, degree={degree})", problem.ts, to_float(exact), rtol, atol, series, 0, calls, estimate, seconds,
            exact=exact, notes="tolerances ignored: accuracy is set by the working precision",
        )
