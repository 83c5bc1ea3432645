"""ODE solving backends behind one protocol (`nacverify.solvers.base`);
the registry (`nacverify.solvers._registry`) imports the backends, which import only the
protocol, so no module imports back up.

`diffrax` is the reference path (float64, adaptive); `scipy` (DOP853, Radau, LSODA) and
`mpmath` (arbitrary-precision Taylor series) are independent solvers available everywhere;
`julia` (OrdinaryDiffEq via juliacall) runs where a Julia installation exists and is
reported unavailable, with what was looked for, elsewhere.
"""

from ._diffrax import EnsembleSolution, solve_ensemble, solve_system
from ._registry import BACKEND_NAMES, backend_status, get_backend, parse_backends, require_backend
from .base import Availability, Backend, Discrepancy, Solution, discrepancy, pairwise
from .problem import Problem, ltc_as_problem, nac_problem

__all__ = [
    "BACKEND_NAMES",
    "Availability",
    "Backend",
    "Discrepancy",
    "EnsembleSolution",
    "Problem",
    "Solution",
    "backend_status",
    "discrepancy",
    "get_backend",
    "ltc_as_problem",
    "nac_problem",
    "pairwise",
    "parse_backends",
    "require_backend",
    "solve_ensemble",
    "solve_system",
]
