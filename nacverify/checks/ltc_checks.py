r"""Numerical checks of seed 002 (LTC): state bounds (eq. 12, 13), time-constant bounds
(eq. 10, 11, section 15), the fused step (eq. 9) and the stiffness statement (section 15).

Batched abstract LTC (eq. 7): B random networks of N neurons and M inputs are solved
together as one system (max-norm error control, as in `nacverify.solvers`):
$x' = -(1/\tau + f) x + f A$, $f = \mathrm{act}(x\gamma_r + I\gamma + \mu)$, $x(0) = 0$.
Inputs $I(t) = c + a \sin(2\pi\nu t + \varphi) + \sum_k h_k [t \ge t_k]$ (half of the draws
smooth, $h = 0$; half irregular, $a = 0$, with jumps at five shared event times passed to
the step-size controller).

Why the tanh variants fail. At the endpoint $x_i = 0$ of eq. 12's interval,
$x_i' = f_i A_i$; with $f = \tanh(\cdot) < 0$ and $A_i > 0$ the state leaves $[0, A_i]$
downwards. For eq. 11 / section 15, $\tau_{sys} = \tau/(1 + \tau f)$ with $f \in (-1, 1)$
lies in $(\tau/(1+\tau), \tau/(1-\tau))$ only when $\tau < 1$; for $\tau \ge 1$ the denominator
reaches 0 and $\tau_{sys}$ is unbounded or negative.
"""

from __future__ import annotations

import functools

import diffrax
import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict
from ..margins import TIGHTER, solver_margin
from ..solvers._diffrax import solve_system
from .adversary import maximise, rk4_trajectory

__all__ = ["ltc_claims", "draw_networks", "batched_rhs", "activation_fn", "TABLE_RANGES", "stiff_step_counts", "fit_growth"]

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
    return {k: jnp.asarray(v) for k, v in p.items()}, jnp.asarray(_ACTIVATIONS.index(activation))


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


def _rk4_trajectory(p1, activation, steps=200):
    """Fixed-step RK4 of one network (for the adversary's differentiable search only)."""
    h = T / steps
    p = {k: v[None] for k, v in p1.items()}

    def rhs(t, x):
        f = _f(x, t, p, activation)
        return -(1 / p["tau"] + f) * x + f * p["A"]

    return rk4_trajectory(rhs, jnp.zeros((1, N)), h, steps)[:, 0]  # (steps, N)


def _bounds_check(activation: str):
    def check(ctx: CheckContext) -> Outcome:
        # ReLU and Hard-tanh have kinks: every kink crossing in any network rejects the batch's shared step, so fewer networks
        b = QUICK_NETWORKS if ctx.quick else (10_000 if activation in ("sigmoid", "tanh") else 1000)
        p = draw_networks(b, ctx.seed + {"sigmoid": 0, "tanh": 1, "relu": 2, "hardtanh": 3}[activation])
        ts = np.linspace(0, T, 201)
        # x(0): zero in even draws (section 14, 'Initialize to zeros'), uniform inside the interval in odd draws (a sampled start that eq. 12 can cover)
        start = np.random.default_rng([ctx.seed, 12]).uniform(np.minimum(0, p["A"]), np.maximum(0, p["A"]))
        x0 = np.where((np.arange(b) % 2 == 1)[:, None], start, 0.0)
        x, margin, steps = _solve(p, activation, ts, x0=x0)
        lo, hi = np.minimum(0, p["A"])[..., None], np.maximum(0, p["A"])[..., None]
        excess = np.maximum(x - hi, lo - x)  # (B, N, P)
        width = (hi - lo)
        ratio = np.max(excess / width, axis=(1, 2))
        in_table_A = np.all(np.abs(p["A"]) <= 1, axis=1)  # table 12: A in [-1, 1]

        q, xq, mq, adv_excess = None, None, None, None
        if not ctx.quick:  # --quick: random draws only
            # adversary: perturb the worst non-stiff networks' mu and A (unconstrained) to increase the excursion;
            # its fixed-step RK4 (h = 0.01) needs tau >= 0.005 to be stable, the stiff draws are covered by the random ones
            eligible = np.where(p["tau"].min(axis=1) >= 0.005)[0]
            starts = eligible[np.argsort(ratio[eligible])[-8:]]
            theta0 = np.concatenate([p["mu"][starts], p["A"][starts]], axis=1)
            rest = {k: jnp.asarray(v[starts]) for k, v in p.items() if k not in ("mu", "A")}

            def objective(theta, *row):
                q = dict(zip(sorted(rest), row))
                q["mu"], q["A"] = theta[:N], theta[N:]
                xs = _rk4_trajectory(q, activation, steps=100)
                lo_, hi_ = jnp.minimum(0, q["A"]), jnp.maximum(0, q["A"])
                return jnp.max(jnp.maximum(xs - hi_, lo_ - xs) / (hi_ - lo_))

            res = maximise(objective, theta0, args=tuple(rest[k] for k in sorted(rest)), steps=40, lr=0.05)
            k = starts[res.best]
            q = {key: v[k : k + 1].copy() for key, v in p.items()}
            q["mu"][0], q["A"][0] = res.theta[res.best][:N], res.theta[res.best][N:]
            xq, mq, _ = _solve(q, activation, ts)
            loq, hiq = np.minimum(0, q["A"])[..., None], np.maximum(0, q["A"])[..., None]
            adv_excess = np.maximum(xq - hiq, loq - xq)

        refuted = excess > np.maximum(margin, 1e-10)  # an excursion below the solve's own atol (1e-10) is within its error, not a violation
        adv_refuted = adv_excess is not None and bool(np.any(adv_excess > np.maximum(mq, 1e-10)))
        adv_ratio = float(np.max(adv_excess / (hiq - loq))) if adv_excess is not None else float(ratio.max())
        scalars = {"draws": b, "neurons": N, "inputs": M, "max_violation_ratio": float(ratio.max()), "diffrax_steps": steps, "draws_started_inside": b // 2,
                   "draws_violating": int(np.any(refuted, axis=(1, 2)).sum()), "adversary_ratio": adv_ratio, "adversary": not ctx.quick,
                   "max_solver_error": float(margin.max()), "ranges": RANGES_TEXT,
                   "draws_with_A_in_table_range": int(in_table_A.sum()),
                   "max_abs_x_when_A_in_table_range": float(np.max(np.abs(x[in_table_A]))) if in_table_A.any() else 0.0}
        if refuted.any() or adv_refuted:
            if refuted.any():
                w = int(np.argmax(np.max(excess - margin, axis=(1, 2))))
                src, xs_w, ex = p, x[w], excess[w]
            else:
                w, src, xs_w, ex = 0, q, xq[0], adv_excess[0]
            i, tk = np.unravel_index(np.argmax(ex), ex.shape)
            witness = {"neuron": int(i), "t": float(ts[tk]), "x": float(xs_w[i, tk]), "A": float(src["A"][w, i]), "tau": float(src["tau"][w, i]),
                       "x0": float(x0[w, i]) if refuted.any() else 0.0,  # the adversary starts at 0
                       "excess": float(ex[i, tk])}
            f0 = activation_fn(activation, np)
            start_w = x0[w] if refuted.any() else np.zeros(N)
            witness["f_at_x0"] = float(f0(start_w @ src["gamma_r"][w][:, i] + (src["c"][w] + src["amp"][w] * np.sin(src["phase"][w])) @ src["gamma"][w][:, i] + src["mu"][w, i]))
            return Outcome(Verdict.REFUTED, f"{scalars['draws_violating']} of {b} networks leave [min(0, A), max(0, A)] (worst excess {witness['excess']:.3g}, "
                           f"f(x0) = {witness['f_at_x0']:.3g}, A = {witness['A']:.3g})", Evidence({"violation_ratio": ratio}, scalars, witness))
        return Outcome(Verdict.HOLDS, f"{b} networks{'' if ctx.quick else ' + adversary'}: max excursion ratio {max(ratio.max(), scalars['adversary_ratio']):.2g} "
                       f"(<= 0 means inside; solver error {margin.max():.1g}); networks with |A| <= 1 (table 12): max |x| = "
                       f"{scalars['max_abs_x_when_A_in_table_range']:.3g} <= 1", Evidence({"violation_ratio": ratio}, scalars))

    return check


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


def _tau_sys_check(activation: str):
    """tau_sys = tau / (1 + tau f) along trajectories against section 15's ranges:
    [tau/(1+tau), tau] (sigmoid) or [tau/(1+tau), tau/(1-tau)] (tanh; also applied to Hard-tanh)."""

    def check(ctx: CheckContext) -> Outcome:
        b = QUICK_NETWORKS if ctx.quick else (5000 if activation in ("sigmoid", "tanh") else 1000)
        p, ts, f = _trajectory_f(activation, b, ctx.seed + 5)
        tau = p["tau"][..., None]
        denom = 1 + tau * f
        tau_sys = tau / denom
        lo = tau / (1 + tau)
        hi = tau if activation == "sigmoid" else tau / (1 - tau)
        if activation == "sigmoid":
            inside = (tau_sys >= lo * (1 - 1e-12)) & (tau_sys <= hi * (1 + 1e-12))
        else:
            inside = (denom > 0) & (tau < 1) & (tau_sys >= lo * (1 - 1e-12)) & (tau_sys <= hi * (1 + 1e-12))
        tau_b = np.broadcast_to(tau, inside.shape)
        small_tau = tau_b < 1
        scalars = {"draws": b, "fraction_outside": float(1 - inside.mean()), "fraction_outside_tau_below_1": float(1 - inside[small_tau].mean()),
                   "min_denominator": float(denom.min()), "min_f": float(f.min()), "max_f": float(f.max()), "ranges": RANGES_TEXT,
                   "min_tau_outside": float(tau_b[~inside].min()) if (~inside).any() else float("nan")}
        if inside.all():
            return Outcome(Verdict.HOLDS, f"tau_sys within section 15's range at every sampled point ({b} networks, tau in [0.001, 10])", Evidence({}, scalars))
        w = np.unravel_index(np.argmin(np.where(inside, np.inf, denom)), inside.shape)
        witness = {"tau": float(tau[w[0], w[1], 0]), "f": float(f[w]), "tau_sys": float(tau_sys[w]), "stated_upper": float(hi[w[0], w[1], 0])}
        return Outcome(Verdict.REFUTED, f"outside section 15's interval at {scalars['fraction_outside']:.1%} of points, smallest tau among them "
                       f"{scalars['min_tau_outside']:.3g} ({scalars['fraction_outside_tau_below_1']:.0%} of points with tau < 1 are outside); "
                       f"min 1 + tau f = {denom.min():.3g}", Evidence({}, scalars, witness))

    return check


def _eq11_own_f_check(activation: str):
    r"""Eq. 11 as printed, $\tau/(1 + \tau W_i) \le \tau_{sys} \le \tau$, with 002's own f
    (act(x gamma_r + I gamma + mu), eq. 9a / line 150) and W_i = sum of |incoming weights| of
    neuron i (column i of gamma_r and of gamma). A larger W only loosens the lower bound, so a
    violation against this W is one against the input weights alone (the literal 'M incoming
    connections') too. Random draws over 002's ranges plus one hand-built network inside
    them (all weights 0.05, mu = +-1, I = 0, x = 0) evaluated exactly at t = 0."""

    def check(ctx: CheckContext) -> Outcome:
        b = QUICK_NETWORKS if ctx.quick else (5000 if activation in ("sigmoid", "tanh") else 1000)
        p, ts, f = _trajectory_f(activation, b, ctx.seed + 11)
        W_all = np.abs(p["gamma_r"]).sum(axis=1) + np.abs(p["gamma"]).sum(axis=1)  # (B, N): column sums
        W_in = np.abs(p["gamma"]).sum(axis=1)
        tau = p["tau"][..., None]
        denom = 1 + tau * f
        tau_sys = tau / denom
        lo = np.broadcast_to(tau / (1 + tau * W_all[..., None]), f.shape)
        lo_in = tau / (1 + tau * W_in[..., None])
        below = (denom > 0) & (tau_sys < lo * (1 - 1e-12))
        above = (denom <= 0) | (tau_sys > tau * (1 + 1e-12))
        below_in = (denom > 0) & (tau_sys < lo_in * (1 - 1e-12))
        # the hand-built network: f(0) = act(mu) exactly, W = 0.05 (N + M)
        act = activation_fn(activation, np)
        mu0 = -1.0 if activation in ("tanh", "hardtanh") else 1.0
        tau0, W0 = 1.0, 0.05 * (N + M)
        f0 = float(act(np.float64(mu0)))
        with np.errstate(divide="ignore"):
            ts0 = float(np.float64(tau0) / (1 + tau0 * f0))  # inf for Hard-tanh: f = -1 attained, 1 + tau f = 0 at tau = 1
        hand = {"tau": tau0, "weights": 0.05, "W": W0, "mu": mu0, "f": f0, "tau_sys": ts0, "lower": tau0 / (1 + tau0 * W0), "upper": tau0}
        hand_fails = not (hand["lower"] <= ts0 <= hand["upper"])
        scalars = {"draws": b, "fraction_below_lower": float(below.mean()), "fraction_above_upper": float(above.mean()),
                   "fraction_below_lower_input_weights_only": float(below_in.mean()), "ranges": RANGES_TEXT,
                   "hand_network_fails": hand_fails}
        if below.any() or above.any():
            kind = "above" if above.any() else "below"
            w = np.unravel_index(np.argmax(above if above.any() else below), f.shape)
            witness = {"source": "random draw", "side": kind, "tau": float(tau[w[0], w[1], 0]), "f": float(f[w]), "W": float(W_all[w[0], w[1]]),
                       "tau_sys": float(tau_sys[w]), "lower": float(lo[w]), "upper": float(tau[w[0], w[1], 0])}
        elif hand_fails:
            witness = {"source": "hand-built network", **hand}
        else:
            return Outcome(Verdict.HOLDS, f"eq. 11 holds at every sampled point of {b} networks and at the hand-built one", Evidence({}, scalars))
        return Outcome(Verdict.REFUTED, f"eq. 11 fails with f = {activation}: {scalars['fraction_above_upper']:.1%} of sampled points have tau_sys > tau "
                       f"(or 1 + tau f <= 0), {scalars['fraction_below_lower']:.2%} have tau_sys < tau/(1 + tau W) "
                       f"({scalars['fraction_below_lower_input_weights_only']:.1%} with W over the input weights only); hand-built network "
                       f"(weights 0.05, mu = {mu0:g}, tau = 1): tau_sys = {ts0:.4g} vs [{hand['lower']:.4g}, {hand['upper']:.4g}]",
                       Evidence({}, scalars, witness))

    return check


@functools.partial(jax.jit, static_argnames=("activation", "scheme"))
def _iterate(p, dt, steps, activation: str, scheme: str):
    """`steps` steps of size dt from x = 0 with the input sampled at each step's left end:
    the fused step (eq. 9) or explicit Euler. One compile for every dt and step count."""

    def body(n, x):
        f = _f(x, n * dt, p, activation)
        if scheme == "fused":
            return (x + dt * f * p["A"]) / (1 + dt * (1 / p["tau"] + f))
        return x + dt * (-(1 / p["tau"] + f) * x + f * p["A"])

    return jax.lax.fori_loop(0, steps, body, jnp.zeros_like(p["A"]))


def _fused(p, activation, steps, dt, scheme="fused"):
    pj = {k: jnp.asarray(v) for k, v in p.items()}
    return np.asarray(_iterate(pj, jnp.asarray(dt, dtype=jnp.float64), jnp.asarray(steps), activation, scheme))


def _order_check(ctx: CheckContext) -> Outcome:
    p = draw_networks(32, ctx.seed + 7)
    p["jumps"][:] = 0.0  # smooth inputs: the order statement is for smooth vector fields
    p["amp"][:] = np.where(p["amp"] == 0, 0.5, p["amp"])
    ref, margin, _ = _solve(p, "sigmoid", np.array([0.0, T]), rtol=1e-12, atol=1e-14)
    exact = ref[..., -1]
    levels = [2**k for k in range(6, 15)]  # dt down to 2^-14: below the smallest tau drawn (0.001), where the order is asymptotic
    errors = np.array([np.max(np.abs(_fused(p, "sigmoid", n, T / n) - exact), axis=1) for n in levels]).T
    dts = T / np.array(levels)
    slopes = np.array([np.polyfit(np.log(dts[-4:]), np.log(e[-4:]), 1)[0] for e in errors])
    scalars = {"min_order": float(slopes.min()), "max_order": float(slopes.max()), "finest_error": float(errors[:, -1].max()),
               "reference_error": float(margin.max())}
    ev = Evidence({"dt": dts, "errors": errors, "orders": slopes}, scalars)
    if np.all(np.abs(slopes - 1) <= 0.1) and errors[:, -1].max() > 100 * margin.max():
        return Outcome(Verdict.HOLDS, f"fused step converges with order {slopes.min():.3f}..{slopes.max():.3f} (32 networks, tau in "
                       f"[{p['tau'].min():.2g}, {p['tau'].max():.2g}], fit over dt = 2^-11..2^-14)", ev)
    return Outcome(Verdict.REFUTED, f"fitted order {slopes.min():.3f}..{slopes.max():.3f}", ev)


STABLE_DTS = (0.001, 0.01, 0.1, 1.0, 10.0, 100.0)
#: a run 'blows up' when an iterate is non-finite or exceeds this multiple of max(|A|, 1) (ours; the counts are reported per dt)
BLOWUP = 1e3


def _stable_check(activation: str):
    """Fused step (eq. 9) against explicit Euler at the same dt, on the networks whose ODE decays: 1/tau_i + f > 0 for every
    value f can take (every tau_i < 1 when f reaches down to -1, as tanh does; every network when f >= 0). Where some
    1/tau_i + f < 0 the ODE itself can grow (ltc.sec6.unbounded.tanh), and no solver's stability is at stake."""
    def check(ctx: CheckContext) -> Outcome:
        p = draw_networks(500 if ctx.quick else 4000, ctx.seed + 9)
        lo, hi = np.minimum(0, p["A"]), np.maximum(0, p["A"])
        decaying = np.all(p["tau"] < 1, axis=1) if activation in ("tanh", "hardtanh") else np.ones(p["A"].shape[0], bool)
        big = lambda x: np.any(~np.isfinite(x) | (np.abs(x) > BLOWUP * np.maximum(np.abs(p["A"]), 1)), axis=1)  # noqa: E731
        rows, worst = [], None
        for dt in STABLE_DTS:  # table 12's dt range [0.001, 1] and beyond
            steps = min(int(round(20 / dt)), 2000) if dt < 1 else 20
            xf = _fused(p, activation, steps, dt)
            xe = _fused(p, activation, steps, dt, scheme="euler")  # explicit Euler at the same dt
            fused_big, euler_big = big(xf), big(xe)
            out = np.any((xf > hi + 1e-12) | (xf < lo - 1e-12), axis=1)
            rows.append((dt, (fused_big & decaying).sum(), (euler_big & decaying).sum(), (fused_big & ~decaying).sum(), (euler_big & ~decaying).sum(), out.mean()))
            if worst is None and (fused_big & decaying).any():
                w = int(np.argmax(fused_big & decaying))
                worst = {"dt": dt, "network": w, "tau_max": float(p["tau"][w].max()), "max_abs_x": float(np.nanmax(np.abs(xf[w])))}
        arr = np.array(rows, dtype=float)
        in_table = arr[:, 0] <= 1.0
        scalars = {"networks": int(decaying.size), "decaying_networks": int(decaying.sum()), "blowup_factor": BLOWUP,
                   "fused_blowups_decaying": int(arr[:, 1].sum()), "euler_blowups_decaying_table_dt": int(arr[in_table, 2].sum()),
                   **{f"fused_blowups_growing_dt_{dt:g}": int(r[3]) for dt, r in zip(STABLE_DTS, rows)},
                   **{f"euler_blowups_growing_dt_{dt:g}": int(r[4]) for dt, r in zip(STABLE_DTS, rows)},
                   **{f"fused_outside_eq12_fraction_dt_{dt:g}": float(r[5]) for dt, r in zip(STABLE_DTS, rows)}}
        ev = Evidence({"dt": arr[:, 0], "fused_blowups_decaying": arr[:, 1], "euler_blowups_decaying": arr[:, 2],
                       "fused_blowups_growing": arr[:, 3], "euler_blowups_growing": arr[:, 4]}, scalars, worst or {})
        table = ", ".join(f"dt = {r[0]:g}: {int(r[1])} / {int(r[2])}" for r in rows)
        growing = (f"; on the {int((~decaying).sum())} networks with some tau_i >= 1, where 1/tau + f < 0 lets the ODE itself grow, the fused step "
                   f"blows up in {int(arr[:, 3].max())} at most and explicit Euler in {int(arr[:, 4].max())}" if (~decaying).any() else "")
        msg = (f"f = {activation}, {int(decaying.sum())} of {decaying.size} networks with a decaying ODE (1/tau + f > 0); blow-ups (|x| > {BLOWUP:g} "
               f"max(|A|, 1) or not finite, 20 time units or 2000 steps) fused / explicit Euler: {table}{growing}")
        if worst is not None:
            return Outcome(Verdict.REFUTED, f"{msg}: the fused step blows up on a decaying network at dt = {worst['dt']:g}", ev)
        if arr[in_table, 2].sum() > 0:
            return Outcome(Verdict.HOLDS, f"{msg}: the fused step never blows up where the ODE decays, explicit Euler does at table 12's dt", ev)
        return Outcome(Verdict.INCONCLUSIVE, f"{msg}: explicit Euler did not blow up either, no contrast shown", ev)

    return check


def _numpy_rhs(p1: dict, activation: str):
    """Eq. 7 of one network (B = 1) in numpy, for scipy's solve_ivp."""
    act = activation_fn(activation, np)
    g_r, g, mu, A, tau = p1["gamma_r"][0], p1["gamma"][0], p1["mu"][0], p1["A"][0], p1["tau"][0]
    c, amp, nu, phase = p1["c"][0], p1["amp"][0], p1["nu"][0], p1["phase"][0]

    def rhs(t, x):
        f = act(x @ g_r + (c + amp * np.sin(2 * np.pi * nu * t + phase)) @ g + mu)
        return -(1 / tau + f) * x + f * A

    return rhs


def _stiff_network(seed: int, tau: float) -> dict[str, np.ndarray]:
    """One network with a smooth input (no jumps: the step size must be limited by the
    dynamics, not by restarts) and every tau set to `tau`."""
    p = draw_networks(2, seed)
    p = {k: v[:1].copy() for k, v in p.items()}  # draw 0: section 14's initialisation
    p["jumps"][:] = 0.0
    p["amp"][:] = np.where(p["amp"] == 0, 0.5, p["amp"])
    p["tau"][:] = tau
    return p


def stiff_step_counts(taus, rtols, seed: int, *, solver: str = "Tsit5", horizon: float = T) -> np.ndarray:
    """Accepted steps (len(rtols), len(taus)) of an adaptive solver on eq. 7 (sigmoid) over
    [0, horizon], atol = rtol / 100: 'Tsit5' / 'Kvaerno5' (diffrax) or 'RK45' (scipy)."""
    from scipy.integrate import solve_ivp

    out = np.zeros((len(rtols), len(taus)))
    for j, tau in enumerate(taus):
        p = _stiff_network(seed, float(tau))
        for i, rtol in enumerate(rtols):
            if solver == "RK45":
                sol = solve_ivp(_numpy_rhs(p, "sigmoid"), (0.0, horizon), np.zeros(N), method="RK45", rtol=rtol, atol=rtol / 100)
                if sol.status != 0:
                    raise RuntimeError(f"scipy RK45 failed at tau = {tau:g}: {sol.message}")
                out[i, j] = sol.t.size - 1
            else:
                s = {"Tsit5": diffrax.Tsit5, "Kvaerno5": diffrax.Kvaerno5}[solver]()
                pj = {k: jnp.asarray(v) for k, v in p.items()}
                out[i, j] = solve_system(_rhs_sigmoid, pj, np.zeros(N), np.array([0.0, horizon]), rtol=rtol, atol=rtol / 100, solver=s).num_steps
    return out


def fit_growth(x: np.ndarray, steps: np.ndarray) -> dict[str, float]:
    """Power law (log steps vs log x) against exponential (log steps vs x): slope and
    residual sum of squares of each least-squares fit."""
    lx, ly = np.log(x), np.log(steps)
    pw, pres = np.polyfit(lx, ly, 1, full=True)[:2]
    ex, eres = np.polyfit(x, ly, 1, full=True)[:2]
    return {"exponent": float(pw[0]), "power_residual": float(pres[0]) if len(pres) else 0.0,
            "exp_rate": float(ex[0]), "exponential_residual": float(eres[0]) if len(eres) else 0.0}


def _stiff_check(ctx: CheckContext) -> Outcome:
    """Accepted steps of explicit RK (diffrax Tsit5, scipy RK45) on eq. 7 in the asymptotic
    stiff range tau in [1e-5, 1e-3] (T = 1, so T/tau in [1e3, 1e5]) at several tolerances,
    fitted against a power law and an exponential in T/tau; and, at 002's typical tau
    (0.01-1), explicit Tsit5 against implicit Kvaerno5 (steps and wall time)."""
    import time

    seed = ctx.seed + 13
    taus = np.logspace(-3, -5, 9)
    rtols = (1e-4, 1e-8) if ctx.quick else (1e-4, 1e-6, 1e-8)
    # scipy's RK45 is a Python loop (~30 us per stage): the same stiffness ratios T/tau on a shorter window
    T_scipy = 0.1
    taus_scipy = np.logspace(-4, -4.5, 3) if ctx.quick else np.logspace(-4, -5, 5)
    rtols_scipy = (1e-4, 1e-8)
    tsit = stiff_step_counts(taus, rtols, seed, solver="Tsit5")
    rk45 = stiff_step_counts(taus_scipy, rtols_scipy, seed, solver="RK45", horizon=T_scipy)
    # the asymptotic (stability-limited) range: where the step count no longer depends on the tolerance
    asym = np.max(tsit, axis=0) / np.min(tsit, axis=0) <= 1.1
    asym_scipy = np.max(rk45, axis=0) / np.min(rk45, axis=0) <= 1.1
    if asym.sum() < 3 or asym_scipy.sum() < 3:
        return Outcome(Verdict.INCONCLUSIVE, f"fewer than 3 tolerance-independent (asymptotic) points: Tsit5 {int(asym.sum())}, RK45 {int(asym_scipy.sum())}",
                       Evidence({"tau": taus, "tsit5_steps": tsit, "tau_rk45": taus_scipy, "rk45_steps": rk45}))
    fits = [fit_growth(T / taus[asym], row[asym]) for row in tsit] + [fit_growth(T_scipy / taus_scipy[asym_scipy], row[asym_scipy]) for row in rk45]
    exps = np.array([f["exponent"] for f in fits])
    tol_ratio_tsit = float(tsit[-1, -1] / tsit[0, -1])  # tightest over loosest rtol at the smallest tau
    tol_ratio_rk45 = float(rk45[-1, -1] / rk45[0, -1])
    tol_ratio_tsit_1e3 = float(tsit[-1, 0] / tsit[0, 0])

    typical = np.array([0.01, 0.1, 1.0])
    cmp_steps = np.full((2, typical.size), np.nan)
    cmp_seconds = np.full((2, typical.size), np.nan)
    if not ctx.quick:  # --quick: no explicit-vs-implicit cost comparison (it does not enter the verdict; Kvaerno5 compiles for ~6 s)
        for k, name in enumerate(("Tsit5", "Kvaerno5")):
            for j, tau in enumerate(typical):
                stiff_step_counts([tau], [1e-6], seed, solver=name)  # compile / warm up
                best = np.inf
                for _ in range(3):
                    t0 = time.perf_counter()
                    cmp_steps[k, j] = stiff_step_counts([tau], [1e-6], seed, solver=name)[0, 0]
                    best = min(best, time.perf_counter() - t0)
                cmp_seconds[k, j] = best

    power_better = all(f["power_residual"] < f["exponential_residual"] for f in fits)
    scalars = {
        "fitted_range_tau": f"[{taus[asym].min():.3g}, {taus[asym].max():.3g}] (Tsit5, T = 1), [{taus_scipy[asym_scipy].min():.3g}, "
                            f"{taus_scipy[asym_scipy].max():.3g}] (RK45, T = {T_scipy:g})",
        "fitted_range_T_over_tau_tsit5": f"[{T / taus[asym].max():.3g}, {T / taus[asym].min():.3g}]",
        "fitted_range_T_over_tau_rk45": f"[{T_scipy / taus_scipy[asym_scipy].max():.3g}, {T_scipy / taus_scipy[asym_scipy].min():.3g}]",
        "tsit5_steps_tightest_over_loosest_rtol_at_tau_1e-3": tol_ratio_tsit_1e3,
        "exponent_min": float(exps.min()), "exponent_max": float(exps.max()),
        "exponent_spread": float(exps.max() - exps.min()),
        "power_law_fits_better": bool(power_better),
        "tsit5_steps_tightest_over_loosest_rtol_at_tau_1e-5": tol_ratio_tsit,
        "rk45_steps_tightest_over_loosest_rtol_at_min_tau": tol_ratio_rk45,
        "tsit5_steps_times_tau_at_1e-5": float(tsit[0, -1] * taus[-1] / T),
        "tsit5_over_kvaerno5_seconds_tau_0.01": float(cmp_seconds[0, 0] / cmp_seconds[1, 0]),
        "tsit5_over_kvaerno5_seconds_tau_0.1": float(cmp_seconds[0, 1] / cmp_seconds[1, 1]),
        "tsit5_over_kvaerno5_seconds_tau_1": float(cmp_seconds[0, 2] / cmp_seconds[1, 2]),
    }
    for f, name in zip(fits, [f"tsit5_rtol_{r:g}" for r in rtols] + [f"rk45_rtol_{r:g}" for r in rtols_scipy]):
        scalars[f"exponent_{name}"] = f["exponent"]
    ev = Evidence({"tau": taus, "rtols": np.array(rtols), "tsit5_steps": tsit, "tsit5_fitted": asym, "rk45_fitted": asym_scipy, "rk45_window": np.array(T_scipy), "tau_rk45": taus_scipy, "rtols_rk45": np.array(rtols_scipy),
                   "rk45_steps": rk45, "tau_typical": typical, "typical_steps_tsit5_kvaerno5": cmp_steps,
                   "typical_seconds_tsit5_kvaerno5": cmp_seconds, "exponents": exps}, scalars)
    msg = (f"explicit steps grow like (T/tau)^{exps.min():.3f}..{exps.max():.3f} (min..max over solvers and rtol 1e-4..1e-8), fitted where the "
           f"count is tolerance-independent: tau in {scalars['fitted_range_tau']}; a power law (it fits better than an exponential in every case: "
           f"{power_better}); at tau = 1e-3 Tsit5 is still accuracy-limited (x{tol_ratio_tsit_1e3:.2f} steps from rtol 1e-4 to 1e-8); "
           f"tightening rtol 1e-4 -> 1e-8 changes the step count by x{tol_ratio_tsit:.3f} (Tsit5, tau = 1e-5) and x{tol_ratio_rk45:.3f} (RK45, "
           f"tau = {taus_scipy[-1]:.2g}): the step is limited by stability (Tsit5 takes {scalars['tsit5_steps_times_tau_at_1e-5']:.2f} T/tau steps), "
           f"not accuracy." + ("" if ctx.quick else f" At 002's typical tau 0.01 / 0.1 / 1: Tsit5 {cmp_steps[0, 0]:.0f} / {cmp_steps[0, 1]:.0f} / {cmp_steps[0, 2]:.0f} steps "
           f"vs Kvaerno5 {cmp_steps[1, 0]:.0f} / {cmp_steps[1, 1]:.0f} / {cmp_steps[1, 2]:.0f}; wall-time ratio explicit/implicit "
           f"{scalars['tsit5_over_kvaerno5_seconds_tau_0.01']:.2f} / {scalars['tsit5_over_kvaerno5_seconds_tau_0.1']:.2f} / "
           f"{scalars['tsit5_over_kvaerno5_seconds_tau_1']:.2f} (min of 3, rtol 1e-6)" + (": explicit RK is the cheaper solver there" if np.all(cmp_seconds[0] < cmp_seconds[1]) else "")))
    if power_better and np.all(np.abs(exps - 1) <= 0.1):
        return Outcome(Verdict.REFUTED, msg, ev)
    if not power_better and exps.min() > 1.5:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.INCONCLUSIVE, msg, ev)


X0_TEXT = ("x(0) = 0 (even draws; section 14, line 485, 'Initialize to zeros') or uniform inside [min(0, A_i), max(0, A_i)] (odd draws); a start "
           "outside the interval, which eq. 12 does not exclude ('or sample from p(x_t0)'), is outside at t = 0 and is not tested")
SEC15_QUOTE = "'When using `tanh` activation, f in [-1, 1], so tau_sys in [tau/(1+tau), tau/(1-tau)]. With `sigmoid`, f in [0, 1], so tau_sys in [tau/(1+tau), tau]'"


def ltc_claims() -> list[Claim]:
    claims = []
    for act in ("sigmoid", "tanh"):
        ok = act == "sigmoid"
        claims += [
            Claim(f"ltc.eq12.bounds.{act}", f"{SEED002}, eq. 12 (2021 eq. 5), line 260, 'min(0, A_i^min) <= x_i(t) <= max(0, A_i^max)'",
                  f"x_i(t) stays in [min(0, A_i), max(0, A_i)] from x_i(0) = 0 or from x_i(0) inside it, f = {act}, smooth and irregular inputs",
                  f"abstract LTC eq. 7, {X0_TEXT}, A_i^min = A_i^max = A_i; {RANGES_TEXT}", Verdict.HOLDS if ok else Verdict.REFUTED,
                  "f >= 0 makes x' = -x/tau + f (A - x) point inward" if ok else "with f < 0 and A > 0, x' = f A < 0 at x = 0: the state leaves downwards",
                  _bounds_check(act), group="ltc", kind=Kind.READING,
                  reading=f"A_i^min = A_i^max = A_i (A has one entry per neuron, eq. 7), x(0) = 0 or inside the interval (forward invariance), f = {act}" +
                  (" (one of 002's two typical choices)" if ok else " (002's 'typical choice', eq. 9a)")),
            Claim(f"ltc.sec15.{act}_tau_sys.numeric", f"{SEED002}, section 15 'Numerical Stability', line 499, {SEC15_QUOTE}",
                  "along trajectories, tau_sys = tau/(1 + tau f) lies in [tau/(1+tau), tau]" if ok else
                  "along trajectories, tau_sys = tau/(1 + tau f) lies in [tau/(1+tau), tau/(1-tau)] (tanh)",
                  f"abstract LTC eq. 7, f = {act}; {RANGES_TEXT}",
                  Verdict.HOLDS if ok else Verdict.REFUTED, "f in (0, 1)" if ok else "for tau >= 1, 1 + tau f reaches 0 and tau_sys is unbounded or negative",
                  _tau_sys_check(act), group="ltc", kind=Kind.AS_PRINTED),
            Claim(f"ltc.eq11.own_f.{act}", f"{SEED002}, eq. 11 (2021 eq. 4), line 250, 'tau_i/(1 + tau_i W_i) <= tau_sys_i <= tau_i', with W_i = sum_j |w_ij| "
                  f"(line 248) and 002's own f = {act}(gamma_r x + gamma I + mu) (line 150, eq. 9a)",
                  f"tau/(1 + tau W_i) <= tau/(1 + tau f) <= tau along trajectories, f = {act}, W_i = sum of |incoming weights| (gamma_r and gamma)",
                  f"abstract LTC eq. 7; {RANGES_TEXT}; plus one network inside these ranges (weights 0.05, mu = {'-1' if not ok else '1'})",
                  Verdict.REFUTED, ("f = sigmoid(.) is not bounded by W_i: with small weights (W_i = 0.3) and mu = 1, f = 0.73 > W_i and tau_sys "
                                    "drops below the lower bound" if ok else "f = tanh(.) < 0 gives tau_sys > tau (and 1 + tau f <= 0 for tau >= 1)"),
                  _eq11_own_f_check(act), group="ltc", kind=Kind.READING if ok else Kind.AS_PRINTED,
                  reading=("w_ij of line 248 identified with the entries of gamma_r and gamma (002 writes f = sigmoid(gamma_r x + gamma I + mu) "
                           "but never f in terms of w_ij)") if ok else ""),
            Claim(f"ltc.eq9.stable.{act}", f"{SEED002}, eq. 8-9, section 4 line 170, 'This gives better stability than explicit Euler'; section 15 line 493, "
                  "'It combines the stability of implicit Euler with the efficiency of explicit Euler'",
                  f"f = {act}: on every network whose ODE decays (1/tau_i + f > 0 for every value of f{'' if ok else ', i.e. every tau_i < 1'}), the fused "
                  "step never blows up at any dt, while explicit Euler at the same dt blows up on some of them within table 12's dt range",
                  f"abstract LTC; {RANGES_TEXT}; dt in {{0.001, 0.01, 0.1, 1}} (table 12's range [0.001, 1]) and {{10, 100}}; 20 time units (at most "
                  f"2000 steps); blow-up: |x| > {BLOWUP:g} max(|A|, 1) or not finite" + ("" if ok else "; networks with some tau_i >= 1, where the "
                  "ODE itself can grow (ltc.sec6.unbounded.tanh), are counted and reported, not judged"),
                  Verdict.HOLDS, "the fused step's factor on a decaying mode, 1/(1 + dt (1/tau + f)), lies in (0, 1) for every dt; explicit Euler's, "
                  "1 - dt (1/tau + f), falls below -1 once dt (1/tau + f) > 2 (measured: it blows up on most networks at dt >= 0.01)",
                  _stable_check(act), group="ltc", kind=Kind.READING,
                  reading="'better stability than explicit Euler' (line 170) and 'the stability of implicit Euler' (line 493) read as numerical "
                          "stability: no blow-up at any dt where the ODE itself decays, where explicit Euler blows up; f = " + act + ("" if ok else " (eq. 9a)")),
        ]
    for act, ok in (("relu", True), ("hardtanh", False)):
        claims += [
            Claim(f"ltc.eq12.bounds.{act}", f"{SEED002}, eq. 12 (line 260) with table 12's activation row (line 418), 'tanh, sigmoid, ReLU, Hard-tanh'",
                  f"x_i(t) stays in [min(0, A_i), max(0, A_i)] from x_i(0) = 0 or from x_i(0) inside it, f = {act}", f"abstract LTC eq. 7, {X0_TEXT}; {RANGES_TEXT}",
                  Verdict.HOLDS if ok else Verdict.REFUTED,
                  "ReLU >= 0: as for sigmoid, x' points inward at both ends" if ok else "Hard-tanh takes negative values: as for tanh, x' = f A has the wrong sign at x = 0",
                  _bounds_check(act), group="ltc", kind=Kind.READING,
                  reading=f"eq. 12 with A_i^min = A_i^max = A_i, x(0) = 0 or inside the interval (forward invariance) and f = {act}, one of table 12's listed activations"),
            Claim(f"ltc.eq11.own_f.{act}", f"{SEED002}, eq. 11 (line 250) with W_i = sum_j |w_ij| (line 248) and table 12's activation row (line 418)",
                  f"tau/(1 + tau W_i) <= tau/(1 + tau f) <= tau along trajectories, f = {act}, W_i = sum of |incoming weights|",
                  f"abstract LTC eq. 7; {RANGES_TEXT}; plus one network inside these ranges (weights 0.05, mu = {'1' if ok else '-1'})",
                  Verdict.REFUTED, "ReLU is unbounded above: f = relu(mu) = 1 > W_i = 0.3 puts tau_sys below the lower bound" if ok else
                  "Hard-tanh < 0 gives tau_sys > tau; f = -1 is attained, so 1 + tau f = 0 at tau = 1",
                  _eq11_own_f_check(act), group="ltc", kind=Kind.READING,
                  reading=f"eq. 11 with f = {act} (table 12 lists it as an activation for f; eq. 11 is stated for the abstract formulation)"),
        ]
    claims += [
        Claim("ltc.sec15.hardtanh_tau_sys.numeric", f"{SEED002}, section 15, line 499, {SEC15_QUOTE}, with table 12's Hard-tanh (line 418)",
              "along trajectories with f = Hard-tanh (f in [-1, 1], like tanh), tau_sys lies in [tau/(1+tau), tau/(1-tau)]",
              f"abstract LTC eq. 7, f = clip(z, -1, 1); {RANGES_TEXT}", Verdict.REFUTED,
              "as for tanh, for tau >= 1 the denominator 1 + tau f reaches 0 or below", _tau_sys_check("hardtanh"), group="ltc", kind=Kind.READING,
              reading="section 15's tanh range applied to Hard-tanh, which has the same range [-1, 1] and attains -1"),
        Claim("ltc.eq9.order", f"{SEED002}, eq. 8-9 and table 12 line 414, 'Smaller = more accurate but slower'",
              "the fused semi-implicit step converges to the ODE solution with order 1",
              f"abstract LTC eq. 7 (sigmoid), smooth inputs; {RANGES_TEXT}", Verdict.HOLDS, "it is a first-order IMEX step", _order_check, group="ltc",
              kind=Kind.LEMMA),
        Claim("ltc.stiff", f"{SEED002}, section 15 line 493, 'LTC ODEs are stiff ... require an exponential number of steps'",
              "explicit Runge-Kutta (RK45 / Tsit5) needs a number of steps exponential in T/tau on LTC ODEs",
              "abstract LTC eq. 7 (sigmoid), smooth input; Tsit5 on T = 1 with tau in [1e-5, 1e-3] (table 12 allows tau down to 0.001), scipy RK45 "
              "on T = 0.1 with tau in [1e-5, 1e-4] (T/tau up to 1e5 and 1e4); growth fitted only where the step count is tolerance-independent "
              "(asymptotic, stability-limited); rtol 1e-4..1e-8, atol = rtol/100",
              Verdict.REFUTED, "measured: explicit step counts grow linearly in T/tau (exponent 1.00 +- 0.01, stability-limited, independent of rtol), "
              "a power law, not exponentially", _stiff_check, group="ltc", kind=Kind.READING,
              reading="'require an exponential number of steps' read as: the number of accepted explicit Runge-Kutta steps grows exponentially in "
                      "the stiffness ratio T/tau (measured against a power law) in the asymptotic range tau in [1e-5, 1e-3]"),
    ]
    return claims
