"""The names of the three update rules an LTC export may declare (its `solver` entry;
reports/LTC_AUDIT_FORMAT.md, "Solver"), shared by the format reader and the LTC authors' reader."""

from __future__ import annotations

from typing import Any

from ...errors import BadInput
from ..gates.format import _scalar

__all__ = ["SOLVERS", "SOLVER_ALIASES", "solver_name"]

SOLVERS = ("fused", "euler", "rk4")
#: accepted spellings of each solver (compared without case, spaces, '-' and '_'): the LTC authors' ODESolver names too
SOLVER_ALIASES = {"fused": ("fused", "semiimplicit", "semi"), "euler": ("euler", "explicit", "expliciteuler"),
                  "rk4": ("rk4", "rungekutta", "rungekutta4")}


def solver_name(value: Any, source: str = "<arrays>") -> str:
    """The canonical solver name ("fused", "euler", "rk4") of a spelling in SOLVER_ALIASES; else one-line BadInput."""
    text = str(_scalar("solver", value))
    key = "".join(ch for ch in text.lower() if ch not in " -_")
    for name, spellings in SOLVER_ALIASES.items():
        if key in spellings:
            return name
    raise BadInput(f"{source}: solver {text!r} is not one of fused (SemiImplicit), euler (Explicit), rk4 (RungeKutta)")
