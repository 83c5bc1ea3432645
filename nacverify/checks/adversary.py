r"""Local maximisation of a violation ratio from the worst random draws.

A bound claim is attacked in two stages: seeded random draws (vmapped), then gradient
ascent (Adam, `jax.grad`) on the violation ratio $r(\theta)$ from the `starts` worst
draws, in unconstrained coordinates (the caller's `to_params` maps them into the
claim's assumption domain, so every iterate satisfies the assumptions). The result is
the best point found; the caller re-verifies it with an independent solve before using
it as a witness.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["AscentResult", "maximise", "rk4_trajectory"]


@dataclass(frozen=True)
class AscentResult:
    theta: np.ndarray  # (starts, d) final unconstrained points
    value: np.ndarray  # (starts,) objective at theta
    initial: np.ndarray  # (starts,) objective at the starting points
    best: int  # index of the largest value


@functools.lru_cache(maxsize=32)
def _ascent(objective: Callable[..., jax.Array], steps: int, lr: float) -> Callable:
    """The compiled ascent ``run(theta, *args)`` of `objective` (one per objective, step count
    and rate: a caller that searches chunk after chunk with the same objective traces and
    compiles it once)."""
    value_and_grad = jax.vmap(jax.value_and_grad(objective))
    value = jax.vmap(objective)
    b1, b2, eps = 0.9, 0.999, 1e-8

    @jax.jit
    def run(theta, *args):
        def step(carry, i):
            th, m, v, best_th, best_val = carry
            val, g = value_and_grad(th, *args)
            g = jnp.where(jnp.isfinite(g), g, 0.0)
            improved = val > best_val
            best_th = jnp.where(improved[:, None], th, best_th)
            best_val = jnp.where(improved, val, best_val)
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g**2
            mh = m / (1 - b1 ** (i + 1))
            vh = v / (1 - b2 ** (i + 1))
            th = th + lr * mh / (jnp.sqrt(vh) + eps)
            return (th, m, v, best_th, best_val), None

        init_val = value(theta, *args)
        carry = (theta, jnp.zeros_like(theta), jnp.zeros_like(theta), theta, init_val)
        (th, _, _, best_th, best_val), _ = jax.lax.scan(step, carry, jnp.arange(steps))
        final_val = value(th, *args)
        better = final_val > best_val
        return jnp.where(better[:, None], th, best_th), jnp.where(better, final_val, best_val), init_val

    return run


def maximise(objective: Callable[..., jax.Array], theta0: np.ndarray, *, args: tuple = (), steps: int = 60, lr: float = 0.05) -> AscentResult:
    """Adam ascent of `objective(theta, *row_args)` (a scalar) from each row of `theta0`,
    vmapped over rows (`args` are arrays with one row per start). Non-finite gradients
    stop that row's updates; the best value seen per row is returned."""
    run = _ascent(objective, steps, lr)
    out = run(jnp.asarray(theta0, dtype=jnp.float64), *(jnp.asarray(a) for a in args))
    theta, value, initial = (np.asarray(x) for x in out)
    value = np.where(np.isfinite(value), value, -np.inf)
    return AscentResult(theta, value, initial, int(np.argmax(value)))


def rk4_trajectory(rhs: Callable[[jax.Array, jax.Array], jax.Array], y0: jax.Array, h: float, steps: int) -> jax.Array:
    """Fixed-step classical RK4 of y' = rhs(t, y) from y(0) = y0: the states after each
    step, shape (steps, *y0.shape). Differentiable and cheap to compile; used only as the
    adversary's search surrogate (every point it finds is re-solved with diffrax)."""

    def step(y, i):
        t = i * h
        k1 = rhs(t, y)
        k2 = rhs(t + h / 2, y + h / 2 * k1)
        k3 = rhs(t + h / 2, y + h / 2 * k2)
        k4 = rhs(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return y, y

    _, ys = jax.lax.scan(step, y0, jnp.arange(steps))
    return ys
