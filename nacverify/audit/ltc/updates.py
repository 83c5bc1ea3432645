r"""The three update rules an LTC implementation may apply per input step (the export's `solver`
entry; reports/LTC_AUDIT_FORMAT.md), as batched float64 JAX kernels that also return the
first-order standard deviation of the implementation's own rounding.

With $\Delta t$ = elapsed / unfolds, the input held, $g_{ji} = w_{ji}\,\mathrm{sigmoid}(\sigma_{ji}(v_j - \mu_{ji}))$
(w already multiplied by its mask) and $g^s_{mi}$ likewise on the mapped input $I_m$, each
solver applies one rule ``unfolds`` times:

* ``fused`` (seed 002 eq. 8-9, the default), $c_t = C_m/\Delta t$:
  $v \leftarrow (c_t v + G V + \sum_j g_{ji}E_{ji} + \sum_m g^s_{mi}E^s_{mi}) / (c_t + G + \sum_j g_{ji} + \sum_m g^s_{mi} + \epsilon)$;
* ``euler`` (explicit Euler): $v \leftarrow v + \Delta t\, f(v)$ with
  $f(v) = (G(V - v) + \sum_j g_{ji}(E_{ji} - v_i) + \sum_m g^s_{mi}(E^s_{mi} - v_i))/C_m$, eq. 1's right-hand side;
* ``rk4`` (classical Runge-Kutta): $k_1 = \Delta t f(v)$, $k_2 = \Delta t f(v + k_1/2)$,
  $k_3 = \Delta t f(v + k_2/2)$, $k_4 = \Delta t f(v + k_3)$, $v \leftarrow v + (k_1 + 2k_2 + 2k_3 + k_4)/6$.

**Rounding model** (the step claim's tolerance). Each elementary operation of the implementation
rounds its result $x$ to $x(1 + \delta)$, $\delta$ independent, uniform on $[-u, u]$ ($u = \epsilon/2$
of the arithmetic's dtype), so of standard deviation $\rho = \epsilon/\sqrt{12}$. To first order the
error of a result is a linear combination of the $\delta$s; its variance in units of $\rho^2$ is the
sum of the squared sensitivities times values. Per unfold (all divided by the denominator $d$
for the fused rule, multiplied by $\Delta t/C_m$ for $f$):

* a synapse (and likewise a sensory synapse): the sigmoid's argument $z = \sigma(v - \mu)$ rounds
  twice ($2z^2$; the mapped input $I = x\,w_{in} + b_{in}$ twice more: $\sigma^2((x w_{in})^2 + I^2)$), the
  sigmoid itself counts as `SIGMOID_ROUNDINGS` roundings of $s$, $w s$ and the mask product once
  each: $\mathrm{var}(g) = w^2 (s(1-s))^2 \mathrm{var}(z) + g^2$ (`SIGMOID_ROUNDINGS` + 2); $g$ enters $v'$ through
  $(E - v')/d$ (fused) or $(E - v)$ (the current); the product $gE$ once more ($(gE)^2$);
* a sum over $j$ (or $m$), in index order: the partial sums $S_k$, $k \ge 2$, each round once:
  $\sum_k S_k^2$ (sequential summation; an implementation summing pairwise rounds less);
* the few products and additions that combine the sums (each partial result squared), $c_t$'s
  two roundings ($\Delta t$ and $C_m/\Delta t$), the final division or addition ($v'^2$).

An error carried in from the earlier unfolds passes through the unfold's Jacobian $J = \partial v'/\partial v$
(diagonal variance propagation: $\mathrm{var}'_i = \sum_j J_{ij}^2 \mathrm{var}_j + \text{local}_i$); for
``rk4`` $J$ is the whole unfold's, $I + (K_1 + 2K_2 + 2K_3 + K_4)/6$ with $K_1 = \Delta t J_f(v)$,
$K_2 = \Delta t J_f(x_2)(I + K_1/2)$, ..., and the local roundings of a stage reach the later
stages through $\Delta t J_f$ in the same way. The kernels return $\sqrt{\mathrm{var}}$ in units of
$\rho$ (`sd`); the step claim's tolerance is a stated number of these standard deviations.
Inputs and outputs are numpy float64; the computation runs inside `nacverify.compute.precision.float64()`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...compute.precision import float64

__all__ = ["SOLVERS", "SIGMOID_ROUNDINGS", "advance", "fused", "update_of"]

SOLVERS = ("fused", "euler", "rk4")
SIGMOID_ROUNDINGS = 4  # exp, the addition, the reciprocal and the library's own approximation error: a few ulps of s


def _sig(z, xp):
    return 0.5 * (1.0 + xp.tanh(0.5 * z))


def _seq(t, axis):
    """sum over k >= 2 of the squared partial sums of t along `axis` (sequential summation's roundings)."""
    import jax.numpy as jnp

    partial = jnp.cumsum(t, axis=axis)
    return jnp.sum(partial**2, axis=axis) - jnp.take(t, 0, axis=axis) ** 2


class _Synapses:
    """One evaluation of the synaptic (or sensory) conductances at presynaptic values `pre` (R, P):
    g, gE, their sums over P, the slope dg/dpre and the variance of each g (units of rho^2)."""

    def __init__(self, w, sigma, mu, erev, pre, var_pre_rounding):
        import jax.numpy as jnp

        z = sigma * (pre[:, :, None] - mu)  # (R, P, N)
        s = _sig(z, jnp)
        self.g = w * s
        self.gE = self.g * erev
        self.erev = erev
        self.sum_g, self.sum_gE = jnp.sum(self.g, axis=1), jnp.sum(self.gE, axis=1)
        self.seq_g, self.seq_gE = _seq(self.g, 1), _seq(self.gE, 1)
        slope = w * s * (1.0 - s)
        self.dg = slope * sigma  # d g_ji / d pre_j
        var_z = 2.0 * z**2 + sigma**2 * var_pre_rounding[:, :, None]
        self.var_g = slope**2 * var_z + self.g**2 * (SIGMOID_ROUNDINGS + 2)

    def variance(self, target):
        """Variance of sum g (E - target) from this evaluation's roundings, target (R, N)."""
        import jax.numpy as jnp

        t = target[:, None, :]
        return (jnp.sum((self.erev - t) ** 2 * self.var_g + self.gE**2, axis=1) + self.seq_gE + target**2 * self.seq_g)


def _fused_unfold(p, eps, sens, v, var, dt):
    """One fused unfold: (v', var')."""
    import jax.numpy as jnp

    cm, gleak, vleak, w, sigma, mu, erev = p[:7]
    syn = _Synapses(w, sigma, mu, erev, v, jnp.zeros_like(v))
    cm_t = cm / dt[:, None]
    glvl = gleak * vleak
    n_sums, d_sums = syn.sum_gE + sens.sum_gE, syn.sum_g + sens.sum_g
    n_front, d_front = cm_t * v + glvl, cm_t + gleak
    num, den = n_front + n_sums, d_front + d_sums + eps
    new = num / den
    local = (syn.variance(new) + sens.variance(new) + (cm_t * v) ** 2 + glvl**2 + n_sums**2 + n_front**2 + num**2
             + new**2 * (d_sums**2 + d_front**2 + (d_front + d_sums) ** 2 + den**2) + 2.0 * (cm_t * (v - new)) ** 2) / den**2 + new**2
    # J_ij = d v'_i / d v_j: cm_t/den on the diagonal, dg_ji (E_ji - v'_i)/den off it
    off = syn.dg * (erev - new[:, None, :]) / den[:, None, :]  # (R, j, i)
    carried = (cm_t / den) ** 2 * var + jnp.sum(off**2 * var[:, :, None], axis=1) + 2.0 * (cm_t / den) * jnp.diagonal(off, axis1=1, axis2=2) * var
    return new, carried + local


def _rhs(p, sens, x):
    """f(x) = current / cm, its rounding variance (units of rho^2, of f) and the Jacobian J_f [R, i, j]."""
    import jax.numpy as jnp

    cm, gleak, vleak, w, sigma, mu, erev = p[:7]
    syn = _Synapses(w, sigma, mu, erev, x, jnp.zeros_like(x))
    leak = gleak * (vleak - x)
    a = sens.sum_gE - x * sens.sum_g
    b = a + syn.sum_gE
    c = b - x * syn.sum_g
    cur = c + leak
    var_cur = (syn.variance(x) + sens.variance(x) + (x * syn.sum_g) ** 2 + (x * sens.sum_g) ** 2 + leak**2 + (gleak * (vleak - x)) ** 2
               + a**2 + b**2 + c**2 + cur**2)
    f = cur / cm
    var_f = var_cur / cm**2 + 2.0 * f**2
    diag = -(gleak + syn.sum_g + sens.sum_g) / cm
    off = syn.dg * (erev - x[:, None, :]) / cm  # (R, j, i)
    jac = jnp.swapaxes(off, 1, 2) + diag[:, :, None] * jnp.eye(x.shape[1])  # [R, i, j]
    return f, var_f, jac


def _propagate(jac, var):
    """sum_j J_ij^2 var_j, J [R, i, j], var (R, N)."""
    import jax.numpy as jnp

    return jnp.einsum("rij,rj->ri", jac**2, var)


def _euler_unfold(p, eps, sens, v, var, dt):
    f, var_f, jf = _rhs(p, sens, v)
    h = dt[:, None]
    new = v + h * f
    local = h**2 * var_f + 2.0 * (h * f) ** 2 + new**2
    import jax.numpy as jnp

    jac = jnp.eye(v.shape[1]) + h[:, :, None] * jf
    return new, _propagate(jac, var) + local


def _rk4_unfold(p, eps, sens, v, var, dt):
    import jax.numpy as jnp

    h = dt[:, None]
    hh = dt[:, None, None]
    eye = jnp.eye(v.shape[1])
    f1, vf1, j1 = _rhs(p, sens, v)
    k1 = h * f1
    vk1 = h**2 * vf1 + k1**2
    x2 = v + 0.5 * k1
    f2, vf2, j2 = _rhs(p, sens, x2)
    k2 = h * f2
    vk2 = h**2 * (_propagate(j2, vk1 / 4 + x2**2) + vf2) + k2**2
    x3 = v + 0.5 * k2
    f3, vf3, j3 = _rhs(p, sens, x3)
    k3 = h * f3
    vk3 = h**2 * (_propagate(j3, vk2 / 4 + x3**2) + vf3) + k3**2
    x4 = v + k3
    f4, vf4, j4 = _rhs(p, sens, x4)
    k4 = h * f4
    vk4 = h**2 * (_propagate(j4, vk3 + x4**2) + vf4) + k4**2
    combo = k1 + 2.0 * k2 + 2.0 * k3 + k4
    new = v + combo / 6.0
    local = ((vk1 + 4.0 * vk2 + 4.0 * vk3 + vk4) + (k1 + 2.0 * k2) ** 2 + (k1 + 2.0 * k2 + 2.0 * k3) ** 2 + 2.0 * combo**2) / 36.0 + new**2
    big1 = hh * j1
    big2 = hh * jnp.einsum("rij,rjk->rik", j2, eye + 0.5 * big1)
    big3 = hh * jnp.einsum("rij,rjk->rik", j3, eye + 0.5 * big2)
    big4 = hh * jnp.einsum("rij,rjk->rik", j4, eye + big3)
    jac = eye + (big1 + 2.0 * big2 + 2.0 * big3 + big4) / 6.0
    return new, _propagate(jac, var) + local


_UNFOLD = {"fused": _fused_unfold, "euler": _euler_unfold, "rk4": _rk4_unfold}


def _kernel(solver, params, eps, v, I, var_I, dt, unfolds):
    """`unfolds` unfolds of `solver` on rows v (R, N) with inputs I (R, M) held: (v', sd, tau_sys at v)."""
    import jax
    import jax.numpy as jnp

    cm, gleak = params[0], params[1]
    sens = _Synapses(*params[7:11], I, var_I)
    syn0 = jnp.sum(params[3] * _sig(params[4] * (v[:, :, None] - params[5]), jnp), axis=1)
    tau = cm / (gleak + syn0 + sens.sum_g)  # eq. 10's tau_sys at the exported state
    step = _UNFOLD[solver]

    def body(_, carry):
        x, var = carry
        return step(params, eps, sens, x, var, dt)

    new, var = jax.lax.fori_loop(0, unfolds, body, (v, jnp.zeros_like(v)))
    return new, jnp.sqrt(var), tau


def _executable(solver: str, rows: int, N: int, M: int):
    from .numerics import _executable as cached, _param_specs, _specs

    def build():
        import jax
        import jax.numpy as jnp

        eps, v, I, var_I, dt = _specs((), (rows, N), (rows, M), (rows, M), (rows,))
        fn = jax.jit(lambda *a: _kernel(solver, *a))
        return fn.trace(_param_specs(N, M), eps, v, I, var_I, dt, jax.ShapeDtypeStruct((), jnp.int32)).lower().compile()

    return cached(("update", solver, rows, N, M), build)


def advance(solver: str, cell, v: np.ndarray, I: np.ndarray, elapsed: np.ndarray, unfolds: int, *, var_I: np.ndarray | None = None,
            progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`solver` (one of SOLVERS) applied `unfolds` times with dt = elapsed / unfolds to rows v (S, N)
    with inputs I (S, M) held: (v_new, sd, tau_sys), each (S, N). sd is the first-order standard
    deviation of an implementation's rounding in units of rho = eps/sqrt(12) of its arithmetic
    (module docstring); var_I (S, M) the variance of the mapped input's own rounding (units of
    rho^2; default 0). One compilation per (solver, rows, N, M) serves every unfold count.
    `progress(rows)` after each chunk."""
    import jax.numpy as jnp

    from .numerics import MAX_ROWS, _pow2_at_most, _run_chunks

    if solver not in _UNFOLD:
        raise ValueError(f"unknown solver {solver!r}")
    S, N = v.shape
    rows = _pow2_at_most(S, MAX_ROWS)
    fn = _executable(solver, rows, N, I.shape[1])
    var_I = np.zeros_like(I) if var_I is None else var_I
    dt = np.asarray(elapsed, dtype=np.float64) / int(unfolds)
    out = [np.empty((S, N)) for _ in range(3)]
    with float64():
        params = tuple(jnp.asarray(a) for a in cell.arrays())
        eps, u = jnp.asarray(float(cell.epsilon)), jnp.asarray(int(unfolds), dtype=jnp.int32)
    spans = [(start, min(S, start + rows)) for start in range(0, S, rows)]

    def chunk(start: int, stop: int):
        take = np.r_[np.arange(start, stop), np.full(rows - (stop - start), stop - 1, dtype=int)]
        with float64():
            res = fn(params, eps, *(jnp.asarray(a[take], dtype=jnp.float64) for a in (v, I, var_I, dt)), u)
            return [np.asarray(r)[: stop - start] for r in res]

    def done(i: int, res) -> None:
        start, stop = spans[i]
        for dst, src in zip(out, res):
            dst[start:stop] = src
        if progress is not None:
            progress(stop - start)

    _run_chunks([lambda span=span: chunk(*span) for span in spans], done)
    return out[0], out[1], out[2]


def fused(cell, v: np.ndarray, I: np.ndarray, elapsed: np.ndarray, unfolds: int, *,
          progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`advance` with the fused solver (seed 002 eq. 8-9): (v_new, sd, tau_sys)."""
    return advance("fused", cell, v, I, elapsed, unfolds, progress=progress)


def update_of(solver: str) -> Callable[..., tuple]:
    """`solver`'s update as nacverify.audit.ltc.numerics.compare_with_reference takes it."""
    def update(cell, v, I, elapsed, unfolds):
        return advance(solver, cell, v, I, elapsed, unfolds)

    return update
