r"""Work-precision (DiffEqDevTools' ``WorkPrecisionSet``): for each adaptive solver and tolerance
$\mathrm{rtol} \in \{10^{-3}, \dots, 10^{-12}\}$ (atol = rtol), the error at $T$ against the reference
(`nacverify.convergence.reference`), the wall time, the right-hand-side evaluations and the steps
accepted and rejected. Fixed-step methods join the diagram at each step of their ladder (their
error and $n \times$ `rhs_per_step`, from the convergence study).

Solvers: diffrax ``Tsit5``, ``Dopri8``, ``Kvaerno5`` with a PID controller (`nacverify.solvers`'
diffrax backend; jumps given as ``jump_ts``); scipy ``DOP853``, ``Radau``, ``LSODA`` (piece by piece
between the jumps); Julia's where the julia backend reports itself available, otherwise listed as
unavailable with the backend's reason.

Wall time: the median of `REPEATS` solves (one for scipy) after one untimed solve (diffrax compiles there). Right-hand-side
evaluations: scipy's ``nfev``; for diffrax's explicit solvers, which do not count them, the tableau's
count: (stages - 1) per attempted step for a first-same-as-last tableau (Tsit5: 6, Dopri8: 13), plus
the two evaluations of the initial step selection; Kvaerno5's count adds its stage solves' chord
iterations, which diffrax does not report: it is given as nan.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import numpy as np

from .problems import StudyProblem
from .reference import Reference

__all__ = ["WorkSeries", "series_node", "TOLERANCES", "QUICK_TOLERANCES", "ADAPTIVE", "work_precision", "julia_status"]

TOLERANCES = tuple(10.0 ** -k for k in range(3, 13))
QUICK_TOLERANCES = (1e-3, 1e-6, 1e-9)
ADAPTIVE = (("diffrax", "Tsit5"), ("diffrax", "Dopri8"), ("diffrax", "Kvaerno5"), ("scipy", "DOP853"), ("scipy", "Radau"), ("scipy", "LSODA"))
REPEATS = 3
_RHS_PER_ATTEMPT = {"Tsit5": 6, "Dopri8": 13}


@dataclass
class WorkSeries:
    problem: str
    backend: str
    method: str
    tol: np.ndarray
    error: np.ndarray
    seconds: np.ndarray
    rhs: np.ndarray
    accepted: np.ndarray
    rejected: np.ndarray
    note: str = ""


def julia_status() -> tuple[bool, str]:
    """(available, reason) as `nacverify backends` reports the julia backend."""
    from ..solvers import get_backend

    a = get_backend("julia").availability()
    return bool(a.available), a.reason


def _one(backend, sp: StudyProblem, method: str, tol: float):
    return backend.solve(sp.problem, rtol=max(tol, 1e-13), atol=max(tol, 1e-13), method=method, estimate_error=False)


def work_precision(sp: StudyProblem, ref: Reference, *, tolerances=TOLERANCES, solvers=ADAPTIVE, progress=None):
    """One `WorkSeries` per adaptive solver on `sp`, one at a time."""
    from ..solvers import get_backend

    for backend_name, method in solvers:
        backend = get_backend(backend_name)
        n = len(tolerances)
        err, secs, rhs, acc, rej = (np.full(n, np.nan) for _ in range(5))
        _one(backend, sp, method, tolerances[0])  # compiles (diffrax), imports and warms up (scipy)
        for k, tol in enumerate(tolerances):
            times = []
            for _ in range(REPEATS if backend_name == "diffrax" else 1):
                start = time.perf_counter()
                sol = _one(backend, sp, method, tol)
                times.append(time.perf_counter() - start)
            secs[k] = statistics.median(times)
            err[k] = float(np.max(np.abs(sol.ys[:, -1] - ref.y)))
            acc[k], rej[k] = sol.num_steps, (sol.num_rejected if sol.num_rejected >= 0 else np.nan)
            if sol.num_rhs >= 0:
                rhs[k] = sol.num_rhs
            elif method in _RHS_PER_ATTEMPT:
                rhs[k] = _RHS_PER_ATTEMPT[method] * (sol.num_steps + max(sol.num_rejected, 0)) + 2
        note = "rhs from the tableau (diffrax counts none)" if method in _RHS_PER_ATTEMPT else (
            "rhs not reported (chord iterations uncounted)" if method == "Kvaerno5" else "rhs: scipy nfev; rejected steps not reported" if backend_name == "scipy" else "")
        yield WorkSeries(sp.id, backend_name, method, np.asarray(tolerances, float), err, secs, rhs, acc, rej, note)
        if progress is not None:
            progress(f"work-precision {sp.id} {backend_name} {method}")


def series_node(s: WorkSeries) -> dict:
    return {"backend": s.backend, "method": s.method, "note": s.note, "tol": s.tol, "error": s.error, "seconds": s.seconds, "rhs": s.rhs,
            "accepted": s.accepted, "rejected": s.rejected}


