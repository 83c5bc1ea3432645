r"""The NAC logit ODE (seed 001 eq. 1; seed 000 eq. 33) and its closed forms.

$$\frac{da}{dt} = -\omega(t)\, a + \phi(t), \qquad \omega(t) > 0.$$

With frozen coefficients $\phi_0, \omega_0$ the solution is (seed 001 eq. 3; seed 000 eq. 39)

$$a(t) = a^* + (a_0 - a^*) e^{-\omega_0 t}, \qquad a^* = \phi_0 / \omega_0.$$

The explicit Euler step (seed 001 eq. 2) is $a_{n+1} = a_n + \Delta t(-\omega a_n + \phi)$.
"""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["logit_rhs", "frozen_solution", "euler_step"]


def logit_rhs(t, a, coefficients):
    """Right-hand side of eq. 1 for an ensemble: a (N,), coefficients.phi/omega (N,)."""
    return -coefficients.omega(t) * a + coefficients.phi(t)


def frozen_solution(t, a0, phi0, omega0):
    """Closed form eq. 3 with coefficients frozen at t = 0; broadcasts over its arguments."""
    a_star = phi0 / omega0
    return a_star + (a0 - a_star) * jnp.exp(-omega0 * t)


def euler_step(a, phi, omega, dt):
    """One explicit Euler step of eq. 1 (seed 001 eq. 2)."""
    return a + dt * (-omega * a + phi)
