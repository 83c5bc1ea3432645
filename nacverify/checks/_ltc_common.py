r"""The LTC models of seed 002 that the LTC claim modules (`ltc_bounds`, `ltc_stability`,
`ltc_unfolding`, `ltc_cost`, `ltc_bptt`, `ltc_trajectory_length`, `ltc_readings`) share: nothing
here is a claim.

Batched abstract LTC (eq. 7): B random networks of N neurons and M inputs are solved
together as one system (max-norm error control, as in `nacverify.solvers`):
$x' = -(1/\tau + f) x + f A$, $f = \mathrm{act}(x\gamma_r + I\gamma + \mu)$, $x(0) = 0$.
Inputs $I(t) = c + a \sin(2\pi\nu t + \varphi) + \sum_k h_k [t \ge t_k]$ (half of the draws
smooth, $h = 0$; half irregular, $a = 0$, with jumps at five shared event times passed to
the step-size controller). Parameters are drawn over seed 002's ranges (`RANGES_TEXT`).

The discrete LTC of section 10 / Algorithm 2, per input step $k$ with input $I_k$ held:

$$x \leftarrow \frac{x + h f \odot A}{1 + h (1/\tau + f)}, \qquad f = \mathrm{act}(x\gamma_r + I_k\gamma + \mu)$$

applied L times, with substep $h = \Delta t / L$ (or $h = \Delta t$, the other reading) and f
re-evaluated each substep (or computed once per input step, eq. 22). Readout
$\hat y_k = x W_{out} + b_{out}$, loss $\sum_k \|\hat y_k - y_k\|^2$ (`bptt_loss`). Its work is
counted exactly on the jaxpr (`op_count`), shared by the cost and BPTT claims (`_cost_data`).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext
from ..compute.host import from_host, host_zeros
from ..margins import TIGHTER, solver_margin
from ..run.shared_work import cached
from ..solvers._diffrax import solve_system

__all__ = ["draw_networks", "batched_rhs", "activation_fn", "TABLE_RANGES", "RANGES_TEXT", "fused_sequence", "bptt_loss", "op_count"]


SEED002 = "002_02b8eaa764ffef08.txt"


N, M = 4, 2


EVENTS = (0.17, 0.33, 0.52, 0.68, 0.86)


T = 1.0


#: Seed 002's parameter table (section 12, lines 407-415): the ranges every draw covers.
TABLE_RANGES = {"tau": (0.001, 10.0), "gamma": (-2.0, 2.0), "gamma_r": (-2.0, 2.0), "mu": (-1.0, 1.0), "A": (-1.0, 1.0), "dt": (0.001, 1.0), "L": (1, 10)}


RANGES_TEXT = ("tau log-uniform in [0.001, 10] (table 12); gamma, gamma_r, mu, A: half of the draws from section 14's initialisation "
               "(N(0, 2/fan-in), N(0, 1), N(0, 1)), half uniform over table 12's ranges [-2, 2], [-2, 2], [-1, 1], [-1, 1]")


def draw_networks(b: int, seed: int, *, tau_range=TABLE_RANGES["tau"], scale: float = 1.0) -> dict[str, np.ndarray]:
    """B random abstract LTC networks over seed 002's ranges (`RANGES_TEXT`): tau log-uniform
    in `tau_range` (table 12: [0.001, 10]); weights, mu and A from section 14's initialisation
    for even draws and uniform over table 12's ranges for odd draws; `scale` multiplies the
    weights."""
    rng = np.random.default_rng([seed, 2002])
    irregular = rng.random(b) < 0.5
    table = (np.arange(b) % 2 == 1)  # odd draws: uniform over the table's ranges

    def pick(init, lo, hi, shape):
        return np.where(table.reshape((b,) + (1,) * (len(shape) - 1)), rng.uniform(lo, hi, shape), init)

    p = {
        "tau": np.exp(rng.uniform(np.log(tau_range[0]), np.log(tau_range[1]), (b, N))),
        "gamma_r": scale * pick(rng.normal(0, np.sqrt(2 / N), (b, N, N)), *TABLE_RANGES["gamma_r"], (b, N, N)),
        "gamma": scale * pick(rng.normal(0, np.sqrt(2 / M), (b, M, N)), *TABLE_RANGES["gamma"], (b, M, N)),
        "mu": pick(rng.normal(0, 1, (b, N)), *TABLE_RANGES["mu"], (b, N)),
        "A": pick(rng.normal(0, 1, (b, N)), *TABLE_RANGES["A"], (b, N)),
        "c": rng.normal(0, 0.5, (b, M)),
        "amp": np.where(irregular[:, None], 0.0, rng.uniform(0.2, 1.0, (b, M))),
        "nu": rng.uniform(0.5, 3.0, (b, M)),
        "phase": rng.uniform(0, 2 * np.pi, (b, M)),
        "jumps": np.where(irregular[:, None, None], rng.normal(0, 1, (b, len(EVENTS), M)), 0.0),
    }
    return p


def _input(t, p):
    held = sum(jnp.where(t >= te, p["jumps"][:, k], 0.0) for k, te in enumerate(EVENTS))
    return p["c"] + p["amp"] * jnp.sin(2 * jnp.pi * p["nu"] * t + p["phase"]) + held


def activation_fn(activation: str, xp=jnp):
    """The four activations of table 12 (line 418): tanh, sigmoid, ReLU, Hard-tanh."""
    return {
        "tanh": xp.tanh,
        "sigmoid": (lambda z: 1 / (1 + xp.exp(-z))),
        "relu": (lambda z: xp.maximum(z, 0.0)),
        "hardtanh": (lambda z: xp.clip(z, -1.0, 1.0)),
    }[activation]


def _f(x, t, p, activation):
    z = jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", _input(t, p), p["gamma"]) + p["mu"]
    return activation_fn(activation)(z)


def batched_rhs(t, y, args):
    """Eq. 7 for every network; y is the flattened (B, N) state."""
    p, activation = args
    x = y.reshape(p["A"].shape)
    f = _f(x, t, p, activation)
    return (-(1 / p["tau"] + f) * x + f * p["A"]).reshape(-1)


def _rhs_sigmoid(t, y, p):
    return batched_rhs(t, y, (p, "sigmoid"))


def _rhs_tanh(t, y, p):
    return batched_rhs(t, y, (p, "tanh"))


def _rhs_relu(t, y, p):
    return batched_rhs(t, y, (p, "relu"))


def _rhs_hardtanh(t, y, p):
    return batched_rhs(t, y, (p, "hardtanh"))


_RHS = {"sigmoid": _rhs_sigmoid, "tanh": _rhs_tanh, "relu": _rhs_relu, "hardtanh": _rhs_hardtanh}


_ACTIVATIONS = tuple(_RHS)


def _rhs_any(t, y, args):
    """`batched_rhs` with the activation picked at run time (args = (p, index into `_ACTIVATIONS`)), so
    that one compiled solve serves the four activations (a diffrax solve compiles for seconds)."""
    p, which = args
    x = y.reshape(p["A"].shape)
    z = jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", _input(t, p), p["gamma"]) + p["mu"]
    f = jax.lax.switch(which, [activation_fn(a) for a in _ACTIVATIONS], z)
    return (-(1 / p["tau"] + f) * x + f * p["A"]).reshape(-1)


def _rhs_args(p, activation):
    return {k: from_host(v) for k, v in p.items()}, jnp.asarray(_ACTIVATIONS.index(activation))


def _solve(p, activation, ts, rtol=1e-8, atol=1e-10, x0=None):
    args = _rhs_args(p, activation)
    b = p["A"].shape[0]
    y0 = np.zeros(b * N) if x0 is None else np.asarray(x0, dtype=float).reshape(-1)
    first = solve_system(_rhs_any, args, y0, ts, rtol=rtol, atol=atol, jump_ts=EVENTS)
    tight = solve_system(_rhs_any, args, y0, ts, rtol=rtol / TIGHTER, atol=atol / TIGHTER, jump_ts=EVENTS)
    x = first.ys.reshape(b, N, -1)
    margin = solver_margin(first.ys, tight.ys, rtol / TIGHTER, atol / TIGHTER).reshape(b, N, -1)
    return x, margin, first.num_steps


#: Networks per batched solve under --quick: the same for every activation, so that the eq. 11, eq. 12 and
#: section 15 claims of all four activations share one compiled solve (`_rhs_any`); ReLU's and Hard-tanh's kinks make
#: their solves cost most per network (every kink crossing in any network rejects the batch's shared step).
QUICK_NETWORKS = 200


_TRAJ: dict[tuple, tuple] = {}


def _trajectory_f(activation: str, b: int, seed: int):
    """(p, ts, f) for B networks of `draw_networks(b, seed)`: f = act(x gamma_r + I gamma + mu)
    at every 10th of 201 saved states of one diffrax solve (rtol 1e-8). tau_sys is a function
    of f alone, so its range needs no solver margin: every sampled f is a value f takes."""
    key = (activation, b, seed)
    if key not in _TRAJ:
        p = draw_networks(b, seed)
        ts = np.linspace(0, T, 201)
        args = _rhs_args(p, activation)
        pj = args[0]
        sol = solve_system(_rhs_any, args, np.zeros(b * N), ts, rtol=1e-8, atol=1e-10, jump_ts=EVENTS)
        x = sol.ys.reshape(b, N, -1)
        f = np.stack([np.asarray(_f(jnp.asarray(x[..., k]), ts[k], pj, activation)) for k in range(0, ts.size, 10)], -1)
        _TRAJ.clear()
        _TRAJ[key] = (p, ts, f)
    return _TRAJ[key]


def fused_sequence(params, inputs, dt, L: int, *, substep: str = "dt/L", f_once: bool = False, activation: str = "sigmoid"):
    """States after each input step (S, B, N) of the discrete LTC above; params has tau,
    gamma_r, gamma, mu, A with a leading batch axis B; inputs (S, B, M)."""
    act = activation_fn(activation)
    h = dt / L if substep == "dt/L" else dt

    def f_of(x, I):
        return act(jnp.einsum("bn,bnk->bk", x, params["gamma_r"]) + jnp.einsum("bm,bmk->bk", I, params["gamma"]) + params["mu"])

    def step(x, I):
        f = f_of(x, I)
        for _ in range(L):
            if not f_once:
                f = f_of(x, I)
            x = (x + h * f * params["A"]) / (1 + h * (1 / params["tau"] + f))
        return x, x

    x0 = jnp.zeros_like(params["A"])
    return jax.lax.scan(step, x0, inputs)[1]


_CACHE: dict = {}


def _net(n: int, m: int, seed: int, b: int = 1):
    rng = np.random.default_rng([seed, n, m])
    return {
        "tau": from_host(np.exp(rng.uniform(np.log(0.01), 0.0, (b, n)))),
        "gamma_r": from_host(rng.normal(0, np.sqrt(2 / n), (b, n, n))),
        "gamma": from_host(rng.normal(0, np.sqrt(2 / m), (b, m, n))),
        "mu": from_host(rng.normal(0, 1, (b, n))),
        "A": from_host(rng.normal(0, 1, (b, n))),
    }


def _fit(x, y):
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def op_count(closed) -> float:
    """Work of a (closed) jaxpr: every executed primitive counts the elements it produces, a
    dot_general its multiply-adds; a scan's body counts `length` times, nested jaxprs (pjit,
    custom_jvp / custom_vjp calls) are entered. Exact and deterministic, unlike wall time."""
    jaxpr = getattr(closed, "jaxpr", closed)
    total = 0.0
    for eqn in jaxpr.eqns:
        sub = [v for k, v in eqn.params.items() if k in ("jaxpr", "call_jaxpr", "fun_jaxpr")]
        if eqn.primitive.name == "scan":
            total += eqn.params["length"] * op_count(eqn.params["jaxpr"])
        elif eqn.primitive.name == "while":
            raise ValueError("op_count: a while loop has no static trip count")
        elif sub:
            total += op_count(sub[0])
        elif eqn.primitive.name == "dot_general":  # multiply-adds: output size times the contracted size
            (lc, _), _ = eqn.params["dimension_numbers"]
            k = float(np.prod([eqn.invars[0].aval.shape[d] for d in lc])) if lc else 1.0
            total += k * float(np.prod(eqn.outvars[0].aval.shape))
        else:
            total += sum(float(np.prod(v.aval.shape)) if hasattr(v.aval, "shape") else 1.0 for v in eqn.outvars)
    return total


def _linear_fit(Ts, Ls, counts):
    """Least squares count = T (a L + b) + c over the (L, T) grid; returns (a, b, c, max relative residual)."""
    TT, LL = np.meshgrid(Ts, Ls)
    X = np.stack([(TT * LL).ravel(), TT.ravel(), np.ones(TT.size)], axis=1).astype(float)
    coef, *_ = np.linalg.lstsq(X, counts.ravel(), rcond=None)
    resid = float(np.max(np.abs(X @ coef - counts.ravel()) / counts.ravel()))
    return (*map(float, coef), resid)


def bptt_loss(theta, inputs, targets, dt, L: int):
    """L_total of Algorithm 2: sum over steps of ||x W_out + b_out - y||^2 (batch B = 1)."""
    xs = fused_sequence(theta, inputs, dt, L)  # (S, 1, N)
    y = xs @ theta["W_out"] + theta["b_out"]
    return jnp.sum((y - targets) ** 2)


def _bptt_problem(seed: int, S: int = 40, n: int = N, m: int = M, n_out: int = 2):
    rng = np.random.default_rng([seed, 77])
    theta = dict(_net(n, m, seed))
    theta["tau"] = jnp.asarray(np.exp(rng.uniform(np.log(0.001), np.log(10.0), (1, n))))  # table 12's tau range
    theta["W_out"] = jnp.asarray(rng.normal(0, np.sqrt(2 / (n + n_out)), (n, n_out)))
    theta["b_out"] = jnp.zeros(n_out)
    inputs = jnp.asarray(rng.normal(0, 1, (S, 1, m)))
    targets = jnp.asarray(rng.normal(0, 1, (S, 1, n_out)))
    return theta, inputs, targets


def _cost_data(ctx: CheckContext):
    return cached(_CACHE, ("cost", ctx.quick), lambda: _cost_data_computed(ctx), "ltc.bptt_op_counts")


def _cost_data_computed(ctx: CheckContext):
    n, m = 32, 4
    theta, _, _ = _bptt_problem(0, n=n, m=m)
    Ts = np.array([64, 256, 1024] if ctx.quick else [64, 128, 256, 512, 1024])
    Ls = np.array([1, 4, 16] if ctx.quick else [1, 2, 4, 8, 16])
    fwd = np.zeros((len(Ls), len(Ts)))
    both = np.zeros_like(fwd)
    for i, L in enumerate(Ls):
        for j, T in enumerate(Ts):
            inputs, targets = host_zeros((int(T), 1, m)), host_zeros((int(T), 1, 2))
            loss = functools.partial(bptt_loss, dt=0.1, L=int(L))
            fwd[i, j] = op_count(jax.make_jaxpr(loss)(theta, inputs, targets))
            both[i, j] = op_count(jax.make_jaxpr(jax.value_and_grad(loss))(theta, inputs, targets))
    return Ts, Ls, fwd, both
