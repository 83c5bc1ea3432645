r"""The reference solution $y(T)$ of a study problem, and how far it can be trusted.

The reference is diffrax ``Dopri8`` with a PID controller at rtol = atol = $10^{-13}$ (the lowest nacverify's backends accept), restarted at
every jump (``jump_ts``; `nacverify.solvers.diffrax_backend`). It is checked against mpmath's
Taylor integrator at 20 digits (`nacverify.solvers.mpmath_backend`, piece by piece), an
independent arbitrary-precision oracle: `Reference.checked_error` $= \|y_{Dopri8}(T) - y_{mp}(T)\|_\infty$.
The scalar NAC problems take mpmath's value itself (20 digits, bounded by the difference to 25
digits). Where mpmath is skipped (``check=False``: the LTC problems whose Taylor solve costs more
than 5 s: tanh, biophysical, stiff), the estimate is
the difference between the solves at $10^{-13}$ and $10^{-12}$.

`Reference.floor` is the error below which a method's error says nothing about its order:
$\max(10\,e_{ref},\ 8\,\epsilon\,\max(1, \|y(T)\|_\infty))$ with $\epsilon = 2^{-52}$: a few ulps of the
solution (the high-order methods reach it in tens of steps, where their own round-off is a few ulps).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .problems import StudyProblem

__all__ = ["Reference", "reference", "REF_RTOL", "MP_DIGITS"]

REF_RTOL = 1e-13
MP_DIGITS = 20
EPS = float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class Reference:
    y: np.ndarray  # (D,) at T
    error: float  # bound on |y - y(T)|: checked against mpmath or estimated
    checked: bool  # True when the bound is the difference to mpmath
    steps: int

    @property
    def floor(self) -> float:
        return max(10 * self.error, 8 * EPS * max(1.0, float(np.max(np.abs(self.y)))))


def _oracle(sp: StudyProblem) -> Reference:
    """mpmath alone (scalar NAC problems, where it costs milliseconds): 20 digits, bounded by the
    difference to 25 digits plus float64's rounding of the value."""
    from ..solvers.mpmath_backend import MpmathBackend

    a = MpmathBackend(dps=MP_DIGITS).solve(sp.problem, rtol=REF_RTOL, atol=REF_RTOL, estimate_error=False).ys[:, -1]
    b = MpmathBackend(dps=MP_DIGITS + 5).solve(sp.problem, rtol=REF_RTOL, atol=REF_RTOL, estimate_error=False).ys[:, -1]
    y = np.asarray(b, dtype=np.float64)
    return Reference(y, float(np.max(np.abs(a - b))) + EPS / 2 * float(np.max(np.abs(y))), True, 0)


def reference(sp: StudyProblem, *, check: bool = True) -> Reference:
    """`sp`'s reference at T (module docstring). NAC problems (one scalar ODE each) take mpmath's
    value itself, which is cheaper there than compiling a diffrax solve."""
    from ..solvers.diffrax_backend import DiffraxBackend

    if sp.family == "nac":
        return _oracle(sp)

    solver = DiffraxBackend()
    sol = solver.solve(sp.problem, rtol=REF_RTOL, atol=REF_RTOL, method="Dopri8", estimate_error=False)
    y = np.asarray(sol.ys[:, -1], dtype=np.float64)
    if check:
        from ..solvers.mpmath_backend import MpmathBackend

        mp = MpmathBackend(dps=MP_DIGITS).solve(sp.problem, rtol=REF_RTOL, atol=REF_RTOL, estimate_error=False)
        err = float(np.max(np.abs(y - mp.ys[:, -1])))
        return Reference(y, err, True, int(sol.num_steps))
    looser = solver.solve(sp.problem, rtol=10 * REF_RTOL, atol=10 * REF_RTOL, method="Dopri8", estimate_error=False)
    return Reference(y, float(np.max(np.abs(y - looser.ys[:, -1]))), False, int(sol.num_steps))
