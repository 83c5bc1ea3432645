r"""The solver's own error estimate, used as the margin of every numerical verdict.

A trajectory solved at tolerances (rtol, atol) is compared with a second solve at
tolerances 100 times tighter. The margin at time $t$ is

$$\mu(t) = 2 \max_{s \le t} |a(s) - a_{\mathrm{tight}}(s)| + 10\,(\mathrm{rtol}_{\mathrm{tight}} |a_{\mathrm{tight}}(t)| + \mathrm{atol}_{\mathrm{tight}}) + 64\,\epsilon_{64} |a(t)|,$$

the running maximum of the difference (global error accumulates) with a safety factor
of 2, plus the tight solve's own tolerance (its error is not negligible once rtol
approaches 1e-12), plus rounding. A bound is `holds` when it holds by more than
$\mu$, `refuted` when violated by more than $\mu$, else `inconclusive`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["solver_margin", "TIGHTER"]

TIGHTER = 100.0
_ROUND = 64 * np.finfo(np.float64).eps


def solver_margin(first: np.ndarray, tight: np.ndarray, rtol_tight: float, atol_tight: float) -> np.ndarray:
    """Margin per member and time (arrays (N, P), time along the last axis)."""
    diff = np.maximum.accumulate(np.abs(first - tight), axis=-1)
    return 2 * diff + 10 * (rtol_tight * np.abs(tight) + atol_tight) + _ROUND * np.abs(first)
