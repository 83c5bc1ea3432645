r"""The bounds on the frozen-coefficient error $|\varepsilon(t)| = |a_{\mathrm{varying}}(t) - a_f(t)|$
(Theorem 3, its sharp form, the bounded-variation form) and the variation bound on the
relative error. Their statements and derivations are the package docstring
(`nacverify/frozen/__init__.py`, `help(nacverify.frozen)`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BOUNDS", "bound_curves", "variation_bound"]

#: Bound names and the claim they belong to.
BOUNDS = {"thm3": "nac.thm3.bound", "sharp": "nac.thm3.sharp", "bv": "nac.thm3.bv"}


def bound_curves(t: np.ndarray, facts, a0: np.ndarray) -> dict[str, np.ndarray]:
    """The three bounds on |eps(t)| for each member: arrays (N, P) (inf when not
    Lipschitz for thm3 and sharp)."""
    t = np.asarray(t)[None, :]
    C = (np.abs(a0) + np.abs(facts.phi0) / facts.omega0)[:, None]
    Lp, Lw = facts.L_phi[:, None], facts.L_omega[:, None]
    Vp, Vw, wmin = facts.V_phi[:, None], facts.V_omega[:, None], facts.omega_min[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        k = Lp + C * Lw
        thm3 = np.where(np.isfinite(k), k * t**2 * np.exp(Lw * t), np.inf)
        sharp = np.where(np.isfinite(k), k * t**2 / 2, np.inf)
    bv = (Vp + C * Vw) * -np.expm1(-wmin * t) / wmin
    return {"thm3": thm3, "sharp": sharp, "bv": bv}


def variation_bound(v_phi: np.ndarray | float, v_omega: np.ndarray | float) -> np.ndarray:
    """Largest possible relative error (fraction) given the variations (fractions),
    for a0 = 0 and positive gates: (v_phi + v_omega) / (1 - v_phi)."""
    v_phi, v_omega = np.abs(np.asarray(v_phi, float)), np.abs(np.asarray(v_omega, float))
    with np.errstate(divide="ignore"):
        return np.where(v_phi < 1, (v_phi + v_omega) / (1 - v_phi), np.inf)
