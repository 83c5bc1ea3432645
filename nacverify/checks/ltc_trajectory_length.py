r"""Seed 002's trajectory-length statements: section 8's 'LTCs have a larger trajectory length
lower bound than both Neural ODEs and CT-RNNs' (`ltc.sec8.larger_bound`) and section 16's
'LTCs produce longer latent trajectories than Neural ODEs and CT-RNNs ... linearly with width
... faster-than-linear dependence on weight variance' (`ltc.sec16.expressivity`).

Section 8: reading $\ge O(g)$ as $\ge c\,g$ with one $c$, eq. 21 / eq. 19
$= \|z\|/\sigma_w + 1/\min(\delta t, L)$, below 1 for $\delta t = L = 2$, $\|z\| = 0.1$, $\sigma_w = 1.41$.
Section 16: latent trajectory lengths (summed RK4 step lengths, full latent space) of
random Hard-tanh Neural ODE, CT-RNN and LTC models sharing weights, circular 2-D input.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..compute.host import from_host
from ..compute.program_cache import cached_jit
from ..run.shared_work import cached
from ._ltc_common import _CACHE, SEED002, _fit

__all__ = ["trajectory_length_claims", "trajectory_bound_ratio"]


def trajectory_bound_ratio(z_norm: float, sigma_w: float, dt: float, L: float) -> float:
    """eq. 21 / eq. 19 with one constant for both: ||z||/sigma_w + 1/min(dt, L)."""
    return z_norm / sigma_w + 1 / min(dt, L)


def _larger_bound_check(ctx: CheckContext) -> Outcome:
    z, sw, sb, dt, L, d = 0.1, 1.41, 1.0, 2.0, 2, 1
    ltc = trajectory_bound_ratio(z, sw, dt, L)
    ctrnn = ((sw - sb) / sw) ** (d * L)
    dts = np.linspace(0.001, 4, 400)
    ratio_grid = np.array([trajectory_bound_ratio(z, sw, t, L) for t in dts])
    witness = {"z_norm": z, "sigma_w": sw, "sigma_b": sb, "delta_t": dt, "L": L, "d": d, "ltc_over_neural_ode": ltc, "ctrnn_over_neural_ode": ctrnn}
    msg = (f"eq. 21 / eq. 19 = ||z||/sigma_w + 1/min(delta t, L) = {ltc:.4f} < 1 at delta t = {dt:g}, L = {L}, ||z|| = {z}, sigma_w = {sw} "
           f"(sigma_w^2 = 2 of line 326): the LTC bound is below the Neural ODE's (CT-RNN/Neural ODE = ((sigma_w - sigma_b)/sigma_w)^(dL) = {ctrnn:.4f} "
           f"with sigma_b = 1, d = 1). 'Larger than both' fails exactly when ||z||/sigma_w + 1/min(delta t, L) <= max(1, CT-RNN ratio), "
           f"which needs delta t > 1 and L > 1 (for 0 < sigma_b < sigma_w); for delta t <= 1 (table 12) it holds: ltc.sec8.larger_bound.small_dt")
    return Outcome(Verdict.REFUTED if ltc < 1 else Verdict.HOLDS, msg,
                   Evidence({"delta_t": dts, "ltc_over_neural_ode": ratio_grid}, {"ltc_over_neural_ode": ltc, "ctrnn_over_neural_ode": ctrnn},
                            witness if ltc < 1 else {}))


@cached_jit  # `steps` static; kept between runs (nacverify.compute.program_cache)
def _traj_run(W, U, b, A, steps: int):
    """Summed step lengths (seeds, 3) of the three models of `_traj_lengths`, by RK4 from x = 0
    (the weights are arguments, so one compile serves every draw of the same width)."""
    h = 2 * np.pi / steps

    def fields(t, x):
        I = jnp.array([jnp.cos(t), jnp.sin(t)])
        f = jnp.clip(jnp.einsum("sik,skj->sij", x, W) + (I @ U)[:, None, :] + b, -1.0, 1.0)
        return jnp.stack([f[:, 0], -x[:, 1] + f[:, 1], -(1 + f[:, 2]) * x[:, 2] + f[:, 2] * A[:, 0]], axis=1)

    def step(x, n):
        t = n * h
        k1 = fields(t, x)
        k2 = fields(t + h / 2, x + h / 2 * k1)
        k3 = fields(t + h / 2, x + h / 2 * k2)
        k4 = fields(t + h, x + h * k3)
        xn = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return xn, jnp.linalg.norm(xn - x, axis=-1)

    # x has shape (seeds, 3 models, k): the three models share weights
    x0 = jnp.zeros((W.shape[0], 3, W.shape[-1]), W.dtype)
    return jnp.sum(jax.lax.scan(step, x0, jnp.arange(steps))[1], axis=0)


def _traj_lengths(k: int, sw2: float, seeds: int, steps: int = 300):
    """Latent trajectory lengths (seeds, 3: Neural ODE, CT-RNN, LTC), Hard-tanh, width k,
    weights N(0, sw2/k), biases N(0, 1), circular 2-D input I(t) = (cos t, sin t), t in [0, 2 pi], RK4."""
    def computed():
        rng = np.random.default_rng([k, int(sw2 * 10), 8])
        W = from_host(rng.normal(0, np.sqrt(sw2 / k), (seeds, k, k)))
        U = from_host(rng.normal(0, np.sqrt(sw2 / 2), (seeds, 2, k)))
        b = from_host(rng.normal(0, 1.0, (seeds, 1, k)))
        A = from_host(rng.normal(0, 1.0, (seeds, 1, k)))
        return np.asarray(_traj_run(W, U, b, A, steps))  # (seeds, 3)

    return cached(_CACHE, ("traj", k, sw2, seeds, steps), computed, f"ltc.trajectory_lengths.k{k}")


def _expressivity_check(ctx: CheckContext) -> Outcome:
    seeds = 5 if ctx.quick else 20
    ks = np.array([25, 50, 100, 200])
    sws = np.array([1.0, 2.0, 4.0, 8.0])
    by_k = np.array([_traj_lengths(int(k), 2.0, seeds).mean(axis=0) for k in ks])  # (K, 3)
    by_s = np.array([_traj_lengths(100, float(s), seeds).mean(axis=0) for s in sws])
    at100 = by_k[2]
    e_k = [_fit(ks, by_k[:, m]) for m in range(3)]
    e_s = [_fit(sws, by_s[:, m]) for m in range(3)]
    longer = bool(at100[2] > at100[0] and at100[2] > at100[1])
    scalars = {"ltc_length_k100": float(at100[2]), "ctrnn_length_k100": float(at100[1]), "node_length_k100": float(at100[0]),
               "ltc_exponent_in_width": e_k[2], "ltc_exponent_in_sigma_w2": e_s[2], "seeds": seeds}
    ev = Evidence({"width": ks.astype(float), "lengths_by_width_node_ctrnn_ltc": by_k, "sigma_w2": sws, "lengths_by_sigma_w2_node_ctrnn_ltc": by_s}, scalars)
    msg = (f"Hard-tanh, 1 layer, sigma_b^2 = 1, circular input, t in [0, 2 pi], x(0) = 0, tau = 1, length in the full latent space (not projected), "
           f"{seeds} seeds: width 100, sigma_w^2 = 2: Neural ODE {at100[0]:.3g}, CT-RNN {at100[1]:.3g}, LTC {at100[2]:.3g}; LTC length ~ k^{e_k[2]:.2f} "
           f"(k = 25..200) and ~ (sigma_w^2)^{e_s[2]:.2f} (1..8)")
    why = (" — inconclusive: 002 fixes neither the input, the horizon, x(0), tau and A, nor how the trajectory is projected (line 327 quotes a 2-D "
           "projection of the cited paper); the length in the full space grows like sqrt(k) for any model whose coordinates move O(1), so "
           "'linear in width' depends on that unspecified projection")
    fails = [name for name, ok in (("LTC longest", longer), ("linear in width", abs(e_k[2] - 1) <= 0.2), ("faster than linear in sigma_w^2", e_s[2] > 1))
             if not ok]
    found = ("; in this setting none of the three statements holds" if len(fails) == 3 else
             f"; in this setting these fail: {', '.join(fails)}" if fails else "; in this setting all three hold")
    return Outcome(Verdict.INCONCLUSIVE, msg + found + why, ev)


def trajectory_length_claims() -> list[Claim]:
    R = Verdict.REFUTED
    s = SEED002
    return [
        Claim("ltc.sec8.larger_bound", f"{SEED002}, section 8 (line 324), 'LTCs have a larger trajectory length lower bound than both Neural ODEs and CT-RNNs.'",
              "eq. 21's bound exceeds eq. 19's and eq. 20's", "d = 1, L = 2, delta t = 2, ||z|| = 0.1, sigma_w = 1.41, sigma_b = 1", R,
              "eq. 21/eq. 19 = ||z||/sigma_w + 1/min(delta t, L) is below 1 when delta t, L > 1 and ||z|| is small", _larger_bound_check,
              group="ltc", kind=Kind.READING,
              reading="'>= O(g)' read as '>= c g' with the same constant c in eq. 19, 20 and 21, so the bounds compare by their ratio"),
        Claim("ltc.sec16.expressivity", f"{s}, section 16 line 527, 'LTCs produce longer latent trajectories than Neural ODEs and CT-RNNs ... The trajectory "
              f"length grows linearly with width and has a faster-than-linear dependence on weight variance'",
              "latent trajectory length: LTC > CT-RNN and > Neural ODE; ~ linear in width k; faster than linear in sigma_w^2",
              "random Hard-tanh networks as line 326 (1 layer, sigma_b^2 = 1), width 25..200, sigma_w^2 1..8, circular 2-D input over one period, RK4",
              Verdict.INCONCLUSIVE, "002 does not fix the setting the lengths depend on (input, horizon, projection)", _expressivity_check, group="ltc",
              kind=Kind.READING, reading="lengths measured in the full latent space for the stated random networks, x(0) = 0, tau = 1, A ~ N(0, 1)"),
    ]


add_provider(trajectory_length_claims)
