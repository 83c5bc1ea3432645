r"""The largest step of each fixed-step method at which the solution stays bounded, and the largest
at which it is also free of oscillations the ODE does not have, by bisection on $\Delta t$.

A run is `STEPS` steps of size $\Delta t$ from $y_0$ (the horizon grows with $\Delta t$). It is

* **bounded** when every $\|y_n\|_\infty \le 10 \max(1, \|y_0\|_\infty)$ and finite;
* **free of spurious oscillation** when no component's increment $d_n = y_{n+1} - y_n$ alternates in
  sign three times in a row ($d_n d_{n+1} < 0$ and $d_{n+1} d_{n+2} < 0$, each $|d| > 10^{-10}$): the
  solutions of the settings below vary on time scales of many steps at every $\Delta t$ the
  bisection reaches, so a zigzag at the step's own scale belongs to the method.

Bisection in $\log \Delta t$ between `DT_MIN` (stable) and `DT_MAX`; a method still stable at `DT_MAX`
is reported as stable at every step tried (inf). Bisection presumes the stable steps form an
interval $(0, \Delta t^*]$, true on the negative real axis for the methods here.

**Linear bounds.** On $y' = -\lambda y + c$ a one-step method multiplies $y_n - y^*$ by its
stability function $R(-\lambda\Delta t)$: bounded iff $|R| \le 1$, monotone iff $R \ge 0$. Explicit
Euler, $R(z) = 1 + z$: bounded for $\Delta t \le 2/\lambda$, no oscillation for $\Delta t \le 1/\lambda$;
RK4, $R(z) = \sum_{k \le 4} z^k/k!$ (positive on the real axis): bounded up to $\Delta t \approx 2.785/\lambda$;
for an explicit Runge-Kutta tableau $(A, b)$, $R(z) = 1 + z b^\top (I - zA)^{-1}\mathbf 1$ (`linear_bound`,
evaluated on a grid and refined by bisection); implicit Euler ($R = 1/(1 - z)$), the fused step on a
linear field (the same) and Kvaerno5 (L-stable) are bounded and monotone at every step.

The zigzag test cannot tell a method's oscillation from the ODE's own oscillation sampled every
third step or so: on the ``stiff`` setting (input periods down to 0.033) the A-stable methods are
bounded at every step but "oscillate" from $\Delta t \approx 0.011$, which is the input's oscillation
aliased, not instability; read the bounded column there.

Settings: ``linear`` (NAC with $\phi = 1$, $\omega = 50$, $a_0 = 1$: $\lambda = 50$, the closed form
above applies), ``stiff`` (`ltc.stiff`, $\tau \in [10^{-3}, 10^{-2}]$) and ``oscillatory`` (NAC's
oscillatory regime with $\omega_0 = 20$, 2 cycles per unit time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..compute.precision import float64
from ..regimes import custom_regime, named_regime
from ..solvers.problem import nac_problem
from .methods import compiled_trajectory, methods_for
from .problems import StudyProblem, study_problem

__all__ = ["StabilityResult", "SETTINGS", "setting", "largest_steps", "stability_study", "linear_bound", "STEPS", "DT_MIN", "DT_MAX"]

STEPS = 2000
DT_MIN, DT_MAX = 1e-6, 10.0
BISECTIONS = 40
SETTINGS = ("linear", "stiff", "oscillatory")
LINEAR_LAMBDA = 50.0


def setting(name: str) -> StudyProblem:
    if name == "linear":
        regime = custom_regime("1", str(LINEAR_LAMBDA), a0=1.0)
        return StudyProblem("stability.linear", "nac", nac_problem(regime, np.array([0.0, 1.0])), True, f"a' = -{LINEAR_LAMBDA:g} a + 1, a(0) = 1")
    if name == "stiff":
        return study_problem("ltc.stiff")
    regime = named_regime("oscillatory", omega0=20.0)
    return StudyProblem("stability.oscillatory", "nac", nac_problem(regime, np.array([0.0, 1.0])), True, "oscillatory regime, omega0 = 20")


@dataclass(frozen=True)
class StabilityResult:
    setting: str
    method: str
    largest_bounded_dt: float  # inf: bounded at every step tried
    largest_stable_dt: float  # bounded and free of spurious oscillation
    linear_bound: float  # the linear-stability bound 2/lambda-like (linear setting), nan elsewhere
    linear_monotone_bound: float


def _judge(traj: np.ndarray, scale: float) -> tuple[bool, bool]:
    if not np.all(np.isfinite(traj)) or np.max(np.abs(traj)) > 10 * scale:
        return False, False
    d = np.diff(traj, axis=0)
    d = np.where(np.abs(d) > 1e-10, d, 0.0)
    flip = (d[:-1] * d[1:]) < 0
    zigzag = bool(np.any(flip[:-2] & flip[1:-1] & flip[2:])) if flip.shape[0] > 2 else False
    return True, not zigzag


def _bisect(ok, lo: float, hi: float) -> float:
    if ok(hi):
        return math.inf
    for _ in range(BISECTIONS):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
        if hi / lo < 1 + 1e-4:
            break
    return lo


def largest_steps(sp: StudyProblem, mid: str, *, oscillation: bool = True) -> tuple[float, float]:
    """(largest bounded dt, largest bounded and oscillation-free dt) of method `mid` on `sp` (the
    second nan without `oscillation`)."""
    program = compiled_trajectory(mid, sp, STEPS)
    scale = max(1.0, float(np.max(np.abs(sp.problem.y0))))
    cache: dict[float, tuple[bool, bool]] = {}

    def judged(dt: float) -> tuple[bool, bool]:
        if dt not in cache:
            with float64(), np.errstate(all="ignore"):
                cache[dt] = _judge(np.asarray(program(np.asarray(sp.problem.y0, float), dt)), scale)
        return cache[dt]

    bounded = _bisect(lambda dt: judged(dt)[0], DT_MIN, DT_MAX)
    stable = _bisect(lambda dt: all(judged(dt)), DT_MIN, DT_MAX) if oscillation else math.nan
    return bounded, stable


def _stability_function(A: np.ndarray, b: np.ndarray, z: float) -> float:
    s = A.shape[0]
    return float(1 + z * b @ np.linalg.solve(np.eye(s) - z * A, np.ones(s)))


def _tableau(mid: str) -> tuple[np.ndarray, np.ndarray] | None:
    if mid in ("euler", "nac_euler"):
        return np.zeros((1, 1)), np.ones(1)
    if mid == "rk4":
        A = np.zeros((4, 4))
        A[1, 0], A[2, 1], A[3, 2] = 0.5, 0.5, 1.0
        return A, np.array([1, 2, 2, 1]) / 6.0
    if mid in ("tsit5", "dopri8"):
        import diffrax

        tab = (diffrax.Tsit5() if mid == "tsit5" else diffrax.Dopri8()).tableau
        s = len(tab.c) + 1
        A = np.zeros((s, s))
        for i, row in enumerate(tab.a_lower):
            A[i + 1, : len(row)] = np.asarray(row, float)
        return A, np.asarray(tab.b_sol, float)
    return None


def linear_bound(mid: str, lam: float) -> tuple[float, float]:
    """(largest dt with |R(-lam dt)| <= 1, largest with 0 <= R <= 1) from the method's stability
    function; inf for the A-stable methods here (implicit Euler, fused, NAC exact, Kvaerno5)."""
    tab = _tableau(mid)
    if tab is None:
        return math.inf, math.inf
    A, b = tab
    grid = np.linspace(0.0, 10.0, 20001)[1:]
    R = np.array([_stability_function(A, b, -x) for x in grid])

    def edge(good: np.ndarray, test) -> float:
        bad = np.nonzero(~good)[0]
        if bad.size == 0:
            return math.inf
        lo, hi = (grid[bad[0] - 1] if bad[0] else 0.0), grid[bad[0]]
        for _ in range(60):
            m = 0.5 * (lo + hi)
            lo, hi = (m, hi) if test(_stability_function(A, b, -m)) else (lo, m)
        return lo / lam

    return edge(np.abs(R) <= 1, lambda r: abs(r) <= 1), edge((R >= 0) & (R <= 1), lambda r: 0 <= r <= 1)


def stability_study(settings=SETTINGS, methods=None, progress=None):
    """One `StabilityResult` per (setting, applicable fixed-step method), one at a time."""
    for name in settings:
        sp = setting(name)
        for m in methods_for(sp, methods):
            if m.id.startswith("authors."):
                continue
            bounded, stable = largest_steps(sp, m.id)
            lin = linear_bound(m.id, LINEAR_LAMBDA) if name == "linear" else (math.nan, math.nan)
            yield StabilityResult(name, m.id, bounded, stable, *lin)
            if progress is not None:
                progress(f"stability {name} {m.id}")

