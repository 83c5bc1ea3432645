r"""The observed order of convergence: the slope of $\log e$ against $\log \Delta t$ on the
asymptotic range, as DiffEqDevTools' ``test_convergence`` reports it, with the range made explicit.

A method of order $p$ has global error $e(\Delta t) = C \Delta t^p + O(\Delta t^{p+1})$, so on a ladder
$\Delta t_k = T / 2^k$ the points $(\log \Delta t_k, \log e_k)$ lie on a line of slope $p$ once
$\Delta t$ is small enough (asymptotic), and until $e_k$ reaches the floor set by the reference and
round-off. The fit:

1. drop the points whose error is not finite, at or below the floor (`Reference.floor`), or
   above `ERROR_CAP` (a step where the method is unstable or far from asymptotic);
2. among the runs of at least `MIN_POINTS` consecutive kept points, keep those on which the data are
   a straight line: every local slope $\log(e_{k}/e_{k+1}) / \log(\Delta t_k/\Delta t_{k+1})$ within
   `SLOPE_TOLERANCE` of the run's least-squares slope;
3. take the finest such run (the one reaching the smallest $\Delta t$; the longest of those): the
   asymptotic range is where the steps are smallest; its least-squares slope is the observed order,
   its $\Delta t$ range and the RMS of its residuals in $\log_{10} e$ are reported with it.

A method that is exact on the problem (NAC's exact mode with constant coefficients) has every error
at the floor: no order is fitted and the maximum error is reported instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["OrderFit", "fit_order", "MIN_POINTS", "SLOPE_TOLERANCE", "ERROR_CAP"]

MIN_POINTS = 3
SLOPE_TOLERANCE = 0.15
ERROR_CAP = 0.1


@dataclass(frozen=True)
class OrderFit:
    order: float  # nan when no run qualifies
    dt_min: float
    dt_max: float
    residual: float  # RMS of the log10 residuals
    used: np.ndarray  # bool mask over the ladder
    why: str  # empty, or why no order was fitted


def _slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    k, c = np.polyfit(x, y, 1)
    return float(k), float(np.sqrt(np.mean((y - (k * x + c)) ** 2)))


def fit_order(dts, errors, floor, *, cap: float = ERROR_CAP, straight: bool = True) -> OrderFit:
    """The observed order on the ladder (`dts` decreasing) against errors (module docstring). With
    `straight` False (errors that oscillate about a power law: hidden jumps), the slope of every
    kept point, the longest run of them, without the straight-line test. `floor`: a number, or one per level."""
    dts, errors = np.asarray(dts, float), np.asarray(errors, float)
    keep = np.isfinite(errors) & (errors > floor) & (errors < cap)
    used = np.zeros(dts.shape, bool)
    x, y = np.log10(dts), np.log10(np.where(keep, errors, 1.0))
    best = None
    n = len(dts)
    for i in range(n):
        for j in range(i + MIN_POINTS, n + 1):
            if not keep[i:j].all():
                break
            k, res = _slope(x[i:j], y[i:j])
            local = np.diff(y[i:j]) / np.diff(x[i:j])
            if not straight or np.all(np.abs(local - k) <= SLOPE_TOLERANCE):
                key = (j, j - i)
                if best is None or key > best[0]:
                    best = (key, i, j, k, res)
    if best is None:
        why = "every error at the floor (exact to round-off)" if np.all((errors <= floor)[np.isfinite(errors)]) else \
            f"fewer than {MIN_POINTS} consecutive points between the floor and the cap on a straight line"
        return OrderFit(float("nan"), float("nan"), float("nan"), float("nan"), used, why)
    _, i, j, k, res = best
    used[i:j] = True
    return OrderFit(k, float(dts[i:j].min()), float(dts[i:j].max()), res, used, "")
