"""Importing this module registers every claim provider with the registry."""

from . import frozen_claims  # noqa: F401
from .symbolic import claims as _symbolic_claims  # noqa: F401
from .checks import claims as _numeric_claims  # noqa: F401
from .solvers import agreement as _solver_claims  # noqa: F401
from .model import claims as _model_claims  # noqa: F401
