r"""Logits recomputed from exported gates, and the rounding tolerance of the exporter.

With $a_0 = 0$ (seed 001 eq. 17; ../shared/reference/REFERENCE_IMPLEMENTATION.md):

- steady: $a = A = \phi/\omega$ (eq. 18);
- exact: $a = A + (0 - A)e^{-\omega t}$, the closed form eq. 3 at the pseudo-time $t$;
- euler: $a_0 = 0$, then ``euler_steps`` times $a \leftarrow a + \Delta t(-\omega a + \phi)$ (eq. 2).

Everything is recomputed in float64 from the exported (already rounded) gates, so the
difference from the exported logits is the exporter's own rounding. Its size: each of
the few operations of a mode rounds to half an ulp of the exported dtype, relative to
the magnitude it works on. That magnitude, the *logit scale*, is $\max(|A|, |a|)$ for
steady and exact ($|a| \le |A|$ for $t \ge 0$; cancellation in $1 - e^{-\omega t}$ costs at
most an ulp of $|A|$); for euler it is the largest iterate magnitude times
$\max(1, \Delta t\,\omega)$, since every step adds rounding of that size and a stable step
($\Delta t\,\omega \le 2$) does not amplify earlier errors. The tolerance is
`ULPS` (+ 4 per Euler step) ulps of the coarsest dtype among phi, omega, t_pseudo and logits
times that scale: generous for a correct exporter (a handful of ulps), far below any
modelling difference (a wrong mode, a missing factor, a masked logit).
"""

from __future__ import annotations

import numpy as np

from ...odes import frozen_solution
from .format import GateExport

__all__ = ["ULPS", "recompute_logits", "logit_tolerance", "mode_logits_available"]

ULPS = 256


def mode_logits_available(export: GateExport) -> str | None:
    """None when the logits can be recomputed from the export, else the reason they cannot."""
    if export.mode is None:
        return "no mode attribute: the logits cannot be recomputed"
    if export.mode == "exact" and export.t_pseudo is None:
        return "mode exact without t_pseudo: the closed form eq. 3 needs the pseudo-time"
    return None


def recompute_logits(export: GateExport) -> tuple[np.ndarray, np.ndarray]:
    """(logits, scale): float64 logits from phi, omega (and t_pseudo) in the export's mode, and
    the per-pair logit scale of the module docstring. Call only when `mode_logits_available`
    returns None."""
    phi = export.phi.astype(np.float64)
    omega = export.omega.astype(np.float64)
    A = phi / omega
    if export.mode == "steady":
        return A, np.abs(A)
    if export.mode == "exact":
        t = export.t_pseudo.astype(np.float64)
        a = np.asarray(frozen_solution(t, 0.0, phi, omega))
        return a, np.maximum(np.abs(A), np.abs(a))
    if export.mode == "euler":
        # odes.euler_step, a + dt (-omega a + phi), in place (phi - omega a is the same float), with the running max |a|
        a, step, largest = np.zeros_like(phi), np.empty_like(phi), np.zeros_like(phi)
        for _ in range(export.euler_steps):
            np.multiply(omega, a, out=step)
            np.subtract(phi, step, out=step)
            step *= export.delta_t
            a += step
            np.maximum(largest, np.abs(a, out=step), out=largest)
        scale = np.maximum(np.abs(A), largest) * np.maximum(1.0, export.delta_t * omega)
        return a, scale
    raise ValueError(f"unknown mode {export.mode!r}")


def logit_tolerance(export: GateExport, scale: np.ndarray) -> np.ndarray:
    """Per-pair absolute tolerance for exported-vs-recomputed logits (module docstring)."""
    eps = export.eps("phi", "omega", "t_pseudo", "logits")
    ulps = ULPS + (4 * export.euler_steps if export.mode == "euler" else 0)
    return ulps * eps * np.maximum(scale, np.finfo(np.float64).tiny)
