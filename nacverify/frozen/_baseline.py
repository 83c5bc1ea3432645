"""The baseline a sweep's speed is compared with: the same draws solved one trajectory at a
time with scipy.integrate.solve_ivp (DOP853), as a user without nacverify would."""

from __future__ import annotations

import time

import numpy as np

from ..regimes import Regime
from ._specs import SolveOptions

__all__ = ["scipy_baseline"]


def scipy_baseline(sweep_regime: Regime, t: np.ndarray, opts: SolveOptions, n: int, method: str = "DOP853") -> tuple[float, np.ndarray]:
    """Solve the first `n` members one by one with scipy.integrate.solve_ivp (the
    baseline the sweep's speed is compared with). Returns (trajectories per second,
    the solutions (n, P))."""
    from scipy.integrate import solve_ivp

    from ..regimes import shape_function

    p = sweep_regime.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    out = np.empty((n, t.shape[0]))
    start = time.perf_counter()
    for i in range(n):
        phi0, omega0, ap, aw = p["phi0"][i], p["omega0"][i], p["phi_amp"][i], p["omega_amp"][i]
        shape = p[shape_key][i] if shape_key else 0.0
        g = shape_function(sweep_regime.name, sweep_regime.T, shape)

        def rhs(s, a, phi0=phi0, omega0=omega0, ap=ap, aw=aw, g=g):
            gs = g(s)
            return -omega0 * (1 + aw * gs) * a + phi0 * (1 + ap * gs)

        y0 = [p["a0"][i]]
        if sweep_regime.name == "step":  # integrate the two smooth pieces separately
            tj = shape * sweep_regime.T
            left, right = t[t < tj], t[t >= tj]
            s1 = solve_ivp(rhs, (t[0], tj), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=np.append(left, tj))
            s2 = solve_ivp(rhs, (tj, t[-1]), s1.y[:, -1], method=method, rtol=opts.rtol, atol=opts.atol, t_eval=right)
            out[i] = np.concatenate([s1.y[0, :-1], s2.y[0]])
        else:
            out[i] = solve_ivp(rhs, (t[0], t[-1]), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=t).y[0]
    return n / (time.perf_counter() - start), out
