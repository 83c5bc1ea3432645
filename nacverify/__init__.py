"""nacverify: which claims of the NAC and LTC papers hold.

Verification numerics run in float64: importing nacverify enables ``jax_enable_x64``.
"""

from __future__ import annotations

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from .claims import CheckContext, Claim, Evidence, Outcome, Result, Verdict  # noqa: E402
from .errors import BadInput, EnvironmentProblem, NacverifyError, ReportError  # noqa: E402

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
