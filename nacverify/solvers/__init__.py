"""ODE solving backends. `diffrax` is the reference path (float64, adaptive)."""

from ._diffrax import EnsembleSolution, solve_ensemble

__all__ = ["EnsembleSolution", "solve_ensemble"]
