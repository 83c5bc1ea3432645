"""nacverify: which claims of the NAC and LTC papers hold.

Verification numerics run in float64, scoped to nacverify's own computations
(`nacverify.compute.precision`): importing nacverify leaves the caller's JAX configuration as it was.
Importing the package itself is cheap (the names below load JAX on first use), so that the
pytest plugin (`nacverify.pytest_plugin`), which pytest loads for every run, costs nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import BadInput, EnvironmentProblem, NacverifyError, ReportError

if TYPE_CHECKING:
    from .claims import CheckContext, Claim, Evidence, Outcome, Result, Verdict

_LAZY = {name: "claims" for name in ("CheckContext", "Claim", "Evidence", "Outcome", "Result", "Verdict")}

__all__ = [
    "BadInput",
    "CheckContext",
    "Claim",
    "EnvironmentProblem",
    "Evidence",
    "NacverifyError",
    "Outcome",
    "ReportError",
    "Result",
    "Verdict",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """The claim types (they import JAX) and `__version__`, loaded on first access."""
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    elif name == "__version__":
        try:
            from importlib.metadata import version

            value = version("nacverify")
        except Exception:  # running from a source tree that is not installed
            value = "0+unknown"
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
