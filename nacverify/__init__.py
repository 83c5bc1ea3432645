"""nacverify: which claims of the NAC and LTC papers hold.

Verification numerics run in float64, scoped to nacverify's own computations
(`nacverify.precision`): importing nacverify leaves the caller's JAX configuration as it was.
"""

from __future__ import annotations

from .claims import CheckContext, Claim, Evidence, Outcome, Result, Verdict
from .errors import BadInput, EnvironmentProblem, NacverifyError, ReportError

try:
    from importlib.metadata import version as _version

    __version__ = _version("nacverify")
except Exception:  # running from a source tree that is not installed
    __version__ = "0+unknown"

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
