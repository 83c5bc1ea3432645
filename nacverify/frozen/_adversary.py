r"""Adversarial search for the frozen-coefficient bounds (after a sweep's random draws).

From the `starts` draws of largest tightness, gradient ascent (`nacverify.checks.adversary`)
maximises the tightness $\max_t |\varepsilon(t)| / \mathrm{bound}(t)$ over the regime
parameters, kept inside `SWEEP_RANGES` by a sigmoid map (the step position is held at
its drawn value: it is a discrete choice). The search integrates with fixed-step RK4
(differentiable, cheap); its best point is then re-solved with diffrax at two
tolerances (`run_frozen_error`) and only that verified tightness counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from ..checks.adversary import maximise, rk4_trajectory
from ..regimes import KIND_CODE, SWEEP_RANGES, ShapeFamily
from ._solve import FrozenErrorRun, run_frozen_error
from ._specs import RegimeSpec
from ._sweep import SweepRun

__all__ = ["AdversaryResult", "attack_bound", "point_spec"]

_KEYS = ("phi0", "omega0", "phi_amp", "omega_amp", "shape")
_RANGE = {"phi0": "phi0", "omega0": "omega0", "phi_amp": "amp", "omega_amp": "amp", "rate": "rate", "cycles": "cycles"}


@dataclass(frozen=True)
class AdversaryResult:
    bound: str
    start_tightness: float  # the best random draw
    search_tightness: float  # the surrogate's value at the best point found
    verified: FrozenErrorRun  # the best point re-solved with diffrax
    spec: RegimeSpec

    @property
    def verified_tightness(self) -> float:
        return float(self.verified.summary.tightness[self.bound][0])


def _shape_key(name: str) -> str | None:
    return {"fast": "rate", "oscillatory": "cycles", "step": "jump_at"}.get(name)


def _space(name: str) -> tuple[np.ndarray, np.ndarray, bool, str | None]:
    """(lows, highs, optimise_shape, shape_key) of the search over family `name`: phi0, omega0,
    phi_amp, omega_amp within SWEEP_RANGES, and the shape parameter (rate, cycles) when it is
    continuous; a step's position is held (a discrete choice)."""
    shape_key = _shape_key(name)
    lows, highs = [], []
    for key in ("phi0", "omega0", "phi_amp", "omega_amp"):
        lo, hi = SWEEP_RANGES[_RANGE[key]]
        lows.append(lo)
        highs.append(hi)
    optimise_shape = shape_key in ("rate", "cycles")
    if optimise_shape:
        lo, hi = SWEEP_RANGES[shape_key]
        lows.append(lo)
        highs.append(hi)
    return np.array(lows), np.array(highs), optimise_shape, shape_key


def _theta(p: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """(theta0 (starts, dims), fixed shape (starts,)): draws `p` mapped to the search's
    unconstrained coordinates (inverse of the sigmoid map onto the ranges)."""
    lows, highs, optimise_shape, shape_key = _space(name)
    raw = np.stack([p["phi0"], p["omega0"], p["phi_amp"], p["omega_amp"]] + ([p[shape_key]] if optimise_shape else []), axis=1)
    u = np.clip((raw - lows) / (highs - lows), 1e-6, 1 - 1e-6)
    fixed_shape = np.asarray(p[shape_key]) if shape_key and not optimise_shape else np.zeros(raw.shape[0])
    return np.log(u / (1 - u)), fixed_shape


def _objective(name: str, bound: str, T: float, a0: float, grid: int):
    """The surrogate tightness max_t |eps(t)| / bound(t) of one point theta (fixed-step RK4 on
    `grid` steps; module docstring), as a JAX function of (theta, shape_fixed)."""
    lows, highs, optimise_shape, _ = _space(name)
    h = T / grid
    ts = jnp.linspace(0.0, T, grid + 1)
    lows_j, highs_j = jnp.asarray(lows), jnp.asarray(highs)

    def objective(theta, shape_fixed):
        v = lows_j + jax.nn.sigmoid(theta) * (highs_j - lows_j)
        shape = v[4] if optimise_shape else shape_fixed
        fam = ShapeFamily(jnp.full((1,), KIND_CODE[name]), T, v[0:1], v[1:2], v[2:3], v[3:4], jnp.reshape(shape, (1,)))

        def rhs(t, a):
            return -fam.omega(t) * a + fam.phi(t)

        traj = rk4_trajectory(rhs, jnp.full((1,), a0), h, grid)[:, 0]
        t = ts[1:]
        phi0, omega0 = v[0], v[1]
        a_star = phi0 / omega0
        frozen = a_star + (a0 - a_star) * jnp.exp(-omega0 * t)
        eps = jnp.abs(traj - frozen)
        C = jnp.abs(a0) + jnp.abs(phi0) / omega0
        if bound == "bv":
            V_phi, V_omega = phi0 * jnp.abs(v[2]), omega0 * jnp.abs(v[3])
            wmin = omega0 * (1 - jnp.abs(v[3]))  # <= the true min of omega (|g| <= 1); verification uses exact facts
            b = (V_phi + C * V_omega) * -jnp.expm1(-wmin * t) / wmin
        else:
            gp = {"slow": 1.0 / T, "fast": shape * jnp.exp(shape) / (T * jnp.expm1(shape)), "oscillatory": 2 * jnp.pi * shape / T}[name]
            L_phi, L_omega = jnp.abs(phi0 * v[2]) * gp, jnp.abs(omega0 * v[3]) * gp
            k = L_phi + C * L_omega
            b = k * t**2 * (jnp.exp(L_omega * t) if bound == "thm3" else 0.5)
        return jnp.max(eps / b)

    return objective


def point_spec(name: str, theta: np.ndarray, fixed_shape: float, *, T: float, a0: float) -> RegimeSpec:
    """The regime of search point `theta` (the sigmoid map onto the ranges), for diffrax."""
    lows, highs, optimise_shape, shape_key = _space(name)
    v = lows + (1 / (1 + np.exp(-np.asarray(theta)))) * (highs - lows)
    shape = float(v[4]) if optimise_shape else (float(fixed_shape) if shape_key else None)
    return RegimeSpec(name, T=T, phi0=float(v[0]), omega0=float(v[1]), phi_variation_pct=float(100 * v[2]),
                      omega_variation_pct=float(100 * v[3]), shape=shape, a0=a0)


def attack_bound(sweep: SweepRun, bound: str, *, starts: int = 8, steps: int = 40, grid: int = 200) -> AdversaryResult:
    """Maximise one bound's tightness from the sweep's worst draws; verify with diffrax."""
    name, T = sweep.regime_name, sweep.T
    top = sweep.stats.bounds[bound].top[:starts][::-1]  # the draws of largest tightness, best last
    p = {k: np.array([e.params[k] for e in top]) for k in top[0].params}
    theta0, fixed_shape = _theta(p, name)
    a0 = float(p["a0"][0])
    res = maximise(_objective(name, bound, T, a0, grid), theta0, args=(fixed_shape,), steps=steps, lr=0.1)
    i = res.best
    spec = point_spec(name, res.theta[i], fixed_shape[i], T=T, a0=a0)
    verified = run_frozen_error(spec, sweep.options)
    return AdversaryResult(bound, top[-1].value, float(res.value[i]), verified, spec)
