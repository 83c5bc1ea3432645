r"""Seed 002's bounds on the abstract LTC's state and time constants: the state interval of
eq. 12 (`ltc.eq12.bounds.*`), eq. 11's time-constant bounds with 002's own f
(`ltc.eq11.own_f.*`), section 15's tau_sys ranges along trajectories
(`ltc.sec15.*_tau_sys.numeric`) and section 6's 'LTCs cannot [have unbounded hidden states]'
(`ltc.sec6.unbounded.*`). The networks are `_ltc_common`'s batched eq. 7.

Why the tanh variants fail. At the endpoint $x_i = 0$ of eq. 12's interval,
$x_i' = f_i A_i$; with $f = \tanh(\cdot) < 0$ and $A_i > 0$ the state leaves $[0, A_i]$
downwards. For eq. 11 / section 15, $\tau_{sys} = \tau/(1 + \tau f)$ with $f \in (-1, 1)$
lies in $(\tau/(1+\tau), \tau/(1-\tau))$ only when $\tau < 1$; for $\tau \ge 1$ the denominator
reaches 0 and $\tau_{sys}$ is unbounded or negative. Section 6: one neuron with f = tanh and
$\tau = 10$ has the decay rate $1/\tau + f \to -0.9 < 0$ and grows like $e^{0.9 t}$.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider, restated
from ..solvers._diffrax import solve_system
from ._ltc_common import M, N, QUICK_NETWORKS, RANGES_TEXT, SEED002, T, _f, _solve, _trajectory_f, activation_fn, draw_networks
from .adversary import maximise, rk4_trajectory

__all__ = ["bounds_claims"]


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


def _one_neuron(activation):
    p = {"tau": jnp.array([[10.0]]), "gamma_r": jnp.array([[[0.5]]]), "gamma": jnp.array([[[2.0]]]), "mu": jnp.array([[0.0]]), "A": jnp.array([[1.0]])}
    return p


def _const_rhs_sigmoid(t, y, p):
    return _const_rhs(t, y, p, "sigmoid")


def _const_rhs_tanh(t, y, p):
    return _const_rhs(t, y, p, "tanh")


def _const_rhs(t, y, p, activation):
    x = y.reshape(1, 1)
    f = activation_fn(activation)(x * p["gamma_r"][0] + p["I"] * p["gamma"][0] + p["mu"])
    return (-(1 / p["tau"] + f) * x + f * p["A"]).reshape(-1)


def _unbounded_check(activation: str):
    def check(ctx: CheckContext) -> Outcome:
        rows = {}
        for I in (-5.0, 5.0):
            p = dict(_one_neuron(activation))
            p["I"] = jnp.array([[I]])
            ts = np.linspace(0, 20.0, 201)
            rhs = _const_rhs_tanh if activation == "tanh" else _const_rhs_sigmoid
            x = solve_system(rhs, p, np.zeros(1), ts, rtol=1e-10, atol=1e-12).ys[0]
            # fused step eq. 9, dt = 0.1 (table 12's range), 200 steps
            xf, xs = 0.0, []
            act = activation_fn(activation, np)
            for _ in range(200):
                f = float(act(0.5 * xf + 2.0 * I))
                xf = (xf + 0.1 * f * 1.0) / (1 + 0.1 * (0.1 + f))
                xs.append(xf)
            late = ts >= 10
            rate = float(np.polyfit(ts[late], np.log(np.maximum(np.abs(x[late]), 1e-300)), 1)[0])
            rows[I] = (x, np.array(xs), rate)
        worst = max(rows, key=lambda k: abs(rows[k][0][-1]))
        x, xs, rate = rows[worst]
        scalars = {"ode_abs_x_at_t20": float(abs(x[-1])), "ode_growth_rate_t10_20": rate, "fused_abs_x_after_200_steps": float(abs(xs[-1])),
                   "input": worst}
        ev = Evidence({"t": np.linspace(0, 20.0, 201), "x_ode": x, "x_fused": xs}, scalars,
                      {"tau": 10.0, "gamma_r": 0.5, "gamma": 2.0, "mu": 0.0, "A": 1.0, "I": worst, "x_t20": float(x[-1]), "growth_rate": rate})
        why = "(1/tau + f -> 0.1 - 1 = -0.9)" if activation == "tanh" else "(f = sigmoid > 0, so 1/tau + f > 0.1)"
        msg = (f"one neuron, f = {activation}(0.5 x + 2 I), tau = 10, A = 1, mu = 0 (inside table 12), constant input I = {worst:g}: "
               f"|x(20)| = {abs(x[-1]):.3g}, growth rate of log|x| on [10, 20] = {rate:.3f} {why}; fused step "
               f"(dt = 0.1, 200 steps): |x| = {abs(xs[-1]):.3g}")
        if abs(x[-1]) > 1e3 and rate > 0.5:
            return Outcome(Verdict.REFUTED, msg + ": the hidden state grows exponentially without bound", ev)
        if abs(x[-1]) <= 1.0 + 1e-9 and np.all(np.abs(xs) <= 1.0 + 1e-12):
            return Outcome(Verdict.HOLDS, msg + ": stays in [min(0, A), max(0, A)] = [0, 1]", ev)
        return Outcome(Verdict.INCONCLUSIVE, msg, ev)

    return check


X0_TEXT = ("x(0) = 0 (even draws; section 14, line 485, 'Initialize to zeros') or uniform inside [min(0, A_i), max(0, A_i)] (odd draws); a start "
           "outside the interval, which eq. 12 does not exclude ('or sample from p(x_t0)'), is outside at t = 0 and is not tested")


SEC15_QUOTE = "'When using `tanh` activation, f in [-1, 1], so tau_sys in [tau/(1+tau), tau/(1-tau)]. With `sigmoid`, f in [0, 1], so tau_sys in [tau/(1+tau), tau]'"


def bounds_claims() -> list[Claim]:
    s = SEED002
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
        Claim("ltc.sec6.unbounded.tanh", f"{s}, section 6 line 264, 'Standard neural ODEs and RNNs can have unbounded hidden states. LTCs cannot, by construction.'",
              "an LTC with f = tanh (eq. 9a) and parameters inside table 12 has a bounded hidden state for all t",
              "one neuron, tau = 10, gamma_r = 0.5, gamma = 2, mu = 0, A = 1, constant input I = +-5, t in [0, 20]; eq. 7 (Tsit5) and eq. 9 (dt = 0.1)",
              Verdict.REFUTED, "f -> -1 gives a decay rate 1/tau + f = -0.9 < 0: x grows like e^(0.9 t)", _unbounded_check("tanh"), group="ltc",
              kind=Kind.AS_PRINTED),
        Claim("ltc.sec6.unbounded.sigmoid", f"{s}, section 6 line 264, 'LTCs cannot, by construction.'",
              "with f = sigmoid, the neuron of ltc.sec6.unbounded.tanh stays in [min(0, A), max(0, A)] = [0, 1] (one example, not the general "
              "'cannot': that is ltc.eq12.bounds.sigmoid, random networks)", "as ltc.sec6.unbounded.tanh with f = sigmoid",
              Verdict.HOLDS, "f >= 0: eq. 12 holds", _unbounded_check("sigmoid"), group="ltc", kind=Kind.READING,
              reading="'LTCs cannot [have unbounded states]' read for f = sigmoid, one of 002's two typical choices"),
    ]
    return claims + _restated({c.id: c for c in claims})


def _restated(by_id: dict[str, Claim]) -> list[Claim]:
    """The sentences that say the bounds again in their own words (an accusation is counted where it is made):
    section 6's gloss of eq. 11 and of eq. 12, section 15's 'prevent state explosion' and section 16's summary."""
    s = SEED002
    tanh11, unbounded = by_id["ltc.eq11.own_f.tanh"], by_id["ltc.sec6.unbounded.tanh"]
    return [
        restated(tanh11, suffix="never_exceeds", source=f"{s}, section 6 line 252, 'The time-constant can never exceed the intrinsic tau_i and can "
                 "never drop below tau_i/(1+tau_i W_i)', with 002's own f = tanh (eq. 9a)"),
        restated(unbounded, suffix="never_explode", source=f"{s}, section 6 line 262, 'The hidden state of every LTC neuron is always bounded. This "
                 "guarantees state stability --- outputs never explode even if inputs grow to infinity.'"),
        restated(unbounded, suffix="no_explosion", source=f"{s}, section 15 line 498, 'The sigmoid/tanh bounds naturally prevent state explosion (Eq. 12)'"),
        restated(unbounded, suffix="s16", source=f"{s}, section 16 line 525, 'Both the time-constant and hidden state are provably bounded, "
                 "guaranteeing stability.'"),
    ]


add_provider(bounds_claims)
