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

from ..claims import CheckContext, Claim, Evidence, Outcome, Verdict
from ..margins import TIGHTER, solver_margin
from ..solvers._diffrax import solve_system
from .adversary import maximise, rk4_trajectory

__all__ = ["ltc_claims", "draw_networks", "batched_rhs"]

SEED002 = "002_02b8eaa764ffef08.txt"
N, M = 4, 2
EVENTS = (0.17, 0.33, 0.52, 0.68, 0.86)
T = 1.0


def draw_networks(b: int, seed: int, *, tau_range=(0.01, 10.0), scale: float = 1.0) -> dict[str, np.ndarray]:
    """B random abstract LTC networks (seed 002 section 14 initialisation, tau wider)."""
    rng = np.random.default_rng([seed, 2002])
    irregular = rng.random(b) < 0.5
    p = {
        "tau": np.exp(rng.uniform(np.log(tau_range[0]), np.log(tau_range[1]), (b, N))),
        "gamma_r": scale * rng.normal(0, np.sqrt(2 / N), (b, N, N)),
        "gamma": scale * rng.normal(0, np.sqrt(2 / M), (b, M, N)),
        "mu": rng.normal(0, 1, (b, N)),
        "A": rng.normal(0, 1, (b, N)),
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


def _f(x, t, p, activation):
    z = jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", _input(t, p), p["gamma"]) + p["mu"]
    return jnp.tanh(z) if activation == "tanh" else jax.nn.sigmoid(z)


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


_RHS = {"sigmoid": _rhs_sigmoid, "tanh": _rhs_tanh}


def _solve(p, activation, ts, rtol=1e-8, atol=1e-10):
    pj = {k: jnp.asarray(v) for k, v in p.items()}
    b = p["A"].shape[0]
    y0 = np.zeros(b * N)
    first = solve_system(_RHS[activation], pj, y0, ts, rtol=rtol, atol=atol, jump_ts=EVENTS)
    tight = solve_system(_RHS[activation], pj, y0, ts, rtol=rtol / TIGHTER, atol=atol / TIGHTER, jump_ts=EVENTS)
    x = first.ys.reshape(b, N, -1)
    margin = solver_margin(first.ys, tight.ys, rtol / TIGHTER, atol / TIGHTER).reshape(b, N, -1)
    return x, margin, first.num_steps


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
        b = 500 if ctx.quick else 10_000
        p = draw_networks(b, ctx.seed + (0 if activation == "sigmoid" else 1))
        ts = np.linspace(0, T, 201)
        x, margin, steps = _solve(p, activation, ts)
        lo, hi = np.minimum(0, p["A"])[..., None], np.maximum(0, p["A"])[..., None]
        excess = np.maximum(x - hi, lo - x)  # (B, N, P)
        width = (hi - lo)
        ratio = np.max(excess / width, axis=(1, 2))

        q, xq, mq, adv_excess = None, None, None, None
        if not ctx.quick:  # --quick: random draws only
            # adversary: perturb the worst networks' mu and A (unconstrained) to increase the excursion
            starts = np.argsort(ratio)[-8:]
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

        refuted = excess > margin
        adv_refuted = adv_excess is not None and bool(np.any(adv_excess > mq))
        adv_ratio = float(np.max(adv_excess / (hiq - loq))) if adv_excess is not None else float(ratio.max())
        scalars = {"draws": b, "neurons": N, "inputs": M, "max_violation_ratio": float(ratio.max()), "diffrax_steps": steps,
                   "draws_violating": int(np.any(refuted, axis=(1, 2)).sum()), "adversary_ratio": adv_ratio, "adversary": not ctx.quick,
                   "max_solver_error": float(margin.max())}
        if refuted.any() or adv_refuted:
            if refuted.any():
                w = int(np.argmax(np.max(excess - margin, axis=(1, 2))))
                src, xs_w, ex = p, x[w], excess[w]
            else:
                w, src, xs_w, ex = 0, q, xq[0], adv_excess[0]
            i, tk = np.unravel_index(np.argmax(ex), ex.shape)
            witness = {"neuron": int(i), "t": float(ts[tk]), "x": float(xs_w[i, tk]), "A": float(src["A"][w, i]), "tau": float(src["tau"][w, i]),
                       "excess": float(ex[i, tk])}
            f0 = np.tanh if activation == "tanh" else (lambda z: 1 / (1 + np.exp(-z)))
            witness["f_at_x0"] = float(f0((src["c"][w] + src["amp"][w] * np.sin(src["phase"][w])) @ src["gamma"][w][:, i] + src["mu"][w, i]))
            return Outcome(Verdict.REFUTED, f"{scalars['draws_violating']} of {b} networks leave [min(0, A), max(0, A)] (worst excess {witness['excess']:.3g}, "
                           f"f(x0) = {witness['f_at_x0']:.3g}, A = {witness['A']:.3g})", Evidence({"violation_ratio": ratio}, scalars, witness))
        return Outcome(Verdict.HOLDS, f"{b} networks{'' if ctx.quick else ' + adversary'}: max excursion ratio {max(ratio.max(), scalars['adversary_ratio']):.2g} "
                       f"(<= 0 means inside; solver error {margin.max():.1g})", Evidence({"violation_ratio": ratio}, scalars))

    return check


def _tau_sys_check(activation: str):
    """tau_sys = tau / (1 + tau f) along trajectories against [tau/(1+tau), tau] (sigmoid)
    or section 15's [tau/(1+tau), tau/(1-tau)] (tanh)."""

    def check(ctx: CheckContext) -> Outcome:
        b = 500 if ctx.quick else 5000
        p = draw_networks(b, ctx.seed + 5)
        ts = np.linspace(0, T, 201)
        x, margin, _ = _solve(p, activation, ts)
        f = np.stack([np.asarray(_f(jnp.asarray(x[..., k]), ts[k], {kk: jnp.asarray(v) for kk, v in p.items()}, activation)) for k in range(0, ts.size, 10)], -1)
        tau = p["tau"][..., None]
        denom = 1 + tau * f
        tau_sys = tau / denom
        lo = tau / (1 + tau)
        hi = tau if activation == "sigmoid" else tau / (1 - tau)
        if activation == "sigmoid":
            inside = (tau_sys >= lo * (1 - 1e-12)) & (tau_sys <= hi * (1 + 1e-12))
        else:
            inside = (denom > 0) & (tau < 1) & (tau_sys >= lo * (1 - 1e-12)) & (tau_sys <= hi * (1 + 1e-12))
        small_tau = np.broadcast_to(tau < 1, inside.shape)
        scalars = {"draws": b, "fraction_outside": float(1 - inside.mean()), "fraction_outside_tau_below_1": float(1 - inside[small_tau].mean()),
                   "min_denominator": float(denom.min())}
        if inside.all():
            return Outcome(Verdict.HOLDS, f"tau_sys within the stated bounds at every sampled point ({b} networks, tau in [0.01, 10])", Evidence({}, scalars))
        w = np.unravel_index(np.argmin(np.where(inside, np.inf, denom)), inside.shape)
        witness = {"tau": float(tau[w[0], w[1], 0]), "f": float(f[w]), "tau_sys": float(tau_sys[w]), "stated_upper": float(hi[w[0], w[1], 0])}
        return Outcome(Verdict.REFUTED, f"outside the stated interval at {scalars['fraction_outside']:.1%} of points, all with tau >= 1 "
                       f"({scalars['fraction_outside_tau_below_1']:.0%} when tau < 1); min 1 + tau f = {denom.min():.3g}",
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
    p = draw_networks(32, ctx.seed + 7, tau_range=(0.1, 1.0))
    p["jumps"][:] = 0.0  # smooth inputs: the order statement is for smooth vector fields
    p["amp"][:] = np.where(p["amp"] == 0, 0.5, p["amp"])
    ref, margin, _ = _solve(p, "sigmoid", np.array([0.0, T]), rtol=1e-12, atol=1e-14)
    exact = ref[..., -1]
    levels = [2**k for k in range(6, 12)]
    errors = np.array([np.max(np.abs(_fused(p, "sigmoid", n, T / n) - exact), axis=1) for n in levels]).T
    dts = T / np.array(levels)
    slopes = np.array([np.polyfit(np.log(dts[-4:]), np.log(e[-4:]), 1)[0] for e in errors])
    scalars = {"min_order": float(slopes.min()), "max_order": float(slopes.max()), "finest_error": float(errors[:, -1].max()),
               "reference_error": float(margin.max())}
    ev = Evidence({"dt": dts, "errors": errors, "orders": slopes}, scalars)
    if np.all(np.abs(slopes - 1) <= 0.1) and errors[:, -1].max() > 100 * margin.max():
        return Outcome(Verdict.HOLDS, f"fused step converges with order {slopes.min():.3f}..{slopes.max():.3f} (32 networks, dt = 2^-8..2^-11)", ev)
    return Outcome(Verdict.REFUTED, f"fitted order {slopes.min():.3f}..{slopes.max():.3f}", ev)


def _stable_check(activation: str):
    def check(ctx: CheckContext) -> Outcome:
        p = draw_networks(500 if ctx.quick else 4000, ctx.seed + 9, tau_range=(0.01, 1.0))
        lo, hi = np.minimum(0, p["A"]), np.maximum(0, p["A"])
        rows = []
        worst = None
        for dt in (0.1, 1.0, 10.0, 100.0):
            steps = int(round(20 / dt)) if dt < 1 else 20
            xf = _fused(p, activation, steps, dt)
            xe = _fused(p, activation, steps, dt, scheme="euler")  # explicit Euler at the same dt
            out = (xf > hi + 1e-12) | (xf < lo - 1e-12) | ~np.isfinite(xf)
            euler_big = ~np.isfinite(xe) | (np.abs(xe) > 1e3 * np.maximum(np.abs(p["A"]), 1))
            rows.append((dt, out.mean(), euler_big.mean(), np.nanmax(np.abs(xf))))
            if out.any() and worst is None:
                w = np.unravel_index(np.argmax(np.where(out, np.abs(xf), -1)), out.shape)
                worst = {"dt": dt, "tau": float(p["tau"][w]), "A": float(p["A"][w]), "x": float(xf[w])}
        arr = np.array(rows)
        scalars = {f"fused_out_fraction_dt_{dt:g}": float(o) for dt, o, _, _ in rows}
        scalars.update({f"euler_blowup_fraction_dt_{dt:g}": float(e) for dt, _, e, _ in rows})
        ev = Evidence({"dt": arr[:, 0], "fused_out_fraction": arr[:, 1], "euler_blowup_fraction": arr[:, 2]}, scalars, worst or {})
        if worst is None and arr[-1, 2] > 0:
            return Outcome(Verdict.HOLDS, f"fused step stays in eq. 12's bounds for dt up to 100 (tau <= 1) while explicit Euler blows up in "
                           f"{arr[-1, 2]:.0%} of networks at dt = 100", ev)
        if worst is not None:
            return Outcome(Verdict.REFUTED, f"fused step leaves eq. 12's bounds at dt = {worst['dt']:g} (x = {worst['x']:.3g}, A = {worst['A']:.3g})", ev)
        return Outcome(Verdict.INCONCLUSIVE, "fused step bounded, but explicit Euler did not blow up either: no contrast shown", ev)

    return check


def _stiff_check(ctx: CheckContext) -> Outcome:
    """Accepted steps of Tsit5 (explicit) and Kvaerno5 (implicit) at equal tolerance
    across tau in [1e-3, 10] and weight scales; stiffness measure T / min tau (the
    ratio of the window to the fastest time scale; the Jacobian's eigenvalues are
    -(1/tau + f) + O(gamma_r f') so 1/tau dominates for small tau)."""
    taus = np.logspace(-3, 1, 5 if ctx.quick else 9)
    scales = (0.5, 2.0) if ctx.quick else (0.5, 1.0, 2.0, 4.0)
    ts = np.array([0.0, T])
    counts = np.zeros((len(scales), len(taus), 2))
    for i, s in enumerate(scales):
        base = draw_networks(1, ctx.seed + 13, scale=s)
        for j, tau in enumerate(taus):
            p = {k: v.copy() for k, v in base.items()}
            p["tau"][:] = tau
            pj = {k: jnp.asarray(v) for k, v in p.items()}
            for k, solver in enumerate((diffrax.Tsit5(), diffrax.Kvaerno5())):
                sol = solve_system(_rhs_sigmoid, pj, np.zeros(N), ts, rtol=1e-6, atol=1e-8, jump_ts=EVENTS, solver=solver)
                counts[i, j, k] = sol.num_steps
    stiffness = T / taus
    explicit = counts[..., 0].mean(axis=0)
    implicit = counts[..., 1].mean(axis=0)
    stiff = taus <= 0.1 + 1e-12  # the stiff range, where 1/tau dominates the Jacobian
    # exponential growth in the stiffness would make log(steps) linear in T/tau: compare the two fits there
    lin_resid = np.polyfit(stiffness[stiff], np.log(explicit[stiff]), 1, full=True)[1]
    pow_resid = np.polyfit(np.log(stiffness[stiff]), np.log(explicit[stiff]), 1, full=True)[1]
    scalars = {
        "explicit_steps_at_min_tau": float(explicit[0]),
        "implicit_steps_at_min_tau": float(implicit[0]),
        "explicit_steps_at_tau_1": float(explicit[np.argmin(np.abs(taus - 1))]),
        "implicit_steps_at_tau_1": float(implicit[np.argmin(np.abs(taus - 1))]),
        "power_law_exponent": float(np.polyfit(np.log(stiffness[stiff]), np.log(explicit[stiff]), 1)[0]),
        "power_fit_residual": float(pow_resid[0]) if len(pow_resid) else 0.0,
        "exponential_fit_residual": float(lin_resid[0]) if len(lin_resid) else 0.0,
    }
    ev = Evidence({"tau": taus, "explicit_steps": counts[..., 0], "implicit_steps": counts[..., 1], "weight_scales": np.array(scales)}, scalars)
    ratio = explicit[0] / implicit[0]
    msg = (f"stiff for tau << T: at tau = 1e-3 Tsit5 takes {explicit[0]:.0f} steps vs Kvaerno5 {implicit[0]:.0f} ({ratio:.0f}x); at tau = 1: "
           f"{scalars['explicit_steps_at_tau_1']:.0f} vs {scalars['implicit_steps_at_tau_1']:.0f}; for tau <= 0.1 explicit steps grow like "
           f"(T/tau)^{scalars['power_law_exponent']:.2f}, a power law, not exponentially")
    exponential = scalars["exponential_fit_residual"] < scalars["power_fit_residual"]
    return Outcome(Verdict.HOLDS if exponential else Verdict.REFUTED, msg, ev)


def ltc_claims() -> list[Claim]:
    claims = []
    for act in ("sigmoid", "tanh"):
        ok = act == "sigmoid"
        claims += [
            Claim(f"ltc.eq12.bounds.{act}", f"{SEED002}, eq. 12 (2021 eq. 5)", f"x_i(t) stays in [min(0, A_i), max(0, A_i)], f = {act}, smooth and irregular inputs",
                  "abstract LTC eq. 7, x(0) = 0, tau > 0, any inputs", Verdict.HOLDS if ok else Verdict.REFUTED,
                  "f >= 0 makes x' = -x/tau + f (A - x) point inward" if ok else "with f < 0 and A > 0, x' = f A < 0 at x = 0: the state leaves downwards",
                  _bounds_check(act), group="ltc"),
            Claim(f"ltc.eq11.tau_sys.{act}", f"{SEED002}, eq. 11 and section 15", "tau_sys = tau/(1 + tau f) lies in [tau/(1+tau), tau]" if ok else
                  "with tanh, tau_sys lies in [tau/(1+tau), tau/(1-tau)] (section 15)", "abstract LTC eq. 7, tau in [0.01, 10]",
                  Verdict.HOLDS if ok else Verdict.REFUTED, "f in (0, 1)" if ok else "for tau >= 1, 1 + tau f reaches 0 and tau_sys is unbounded or negative",
                  _tau_sys_check(act), group="ltc"),
            Claim(f"ltc.eq9.stable.{act}", f"{SEED002}, eq. 9 and section 15", f"the fused step stays within eq. 12's bounds at any dt (f = {act}), where explicit Euler diverges",
                  "abstract LTC, tau in [0.01, 1], dt in {0.1, 1, 10, 100}", Verdict.HOLDS if ok else Verdict.REFUTED,
                  "for f >= 0 eq. 9 is a weighted average of x, A and 0 with positive weights" if ok else "f < 0 puts a negative weight on A: the step overshoots",
                  _stable_check(act), group="ltc"),
        ]
    claims += [
        Claim("ltc.eq9.order", f"{SEED002}, eq. 8-9", "the fused semi-implicit step converges to the ODE solution with order 1",
              "abstract LTC eq. 7 (sigmoid), smooth inputs, tau in [0.1, 1]", Verdict.HOLDS, "it is a first-order IMEX step", _order_check, group="ltc"),
        Claim("ltc.stiff", f"{SEED002}, section 15 ('LTC ODEs are stiff ... require an exponential number of steps')",
              "explicit Runge-Kutta needs exponentially many steps on LTC ODEs", "abstract LTC eq. 7, tau in [1e-3, 10], weight scales 0.5-4",
              Verdict.REFUTED, "measured: stiff only when tau << T, and explicit steps grow like a power of T/tau, not exponentially", _stiff_check, group="ltc"),
    ]
    return claims
