r"""Seed 002's restatement of the 2018 paper's bounds (table 11 rows 13-16): eq. 13, the
biophysical neuron's voltage interval (2018 eq. 50: `ltc.eq13.outside_start`,
`ltc.eq13.simulation`, `ltc.eq13.gap_junction`), Lemma 1's global existence for eq. 15
(`ltc.eq15.global_existence`) and eq. 16's state interval (`ltc.eq16.t0_negative`,
`ltc.eq16.F_zero`).

* ``ltc.eq13.outside_start``, ``ltc.eq16.t0_negative``, ``ltc.eq16.F_zero``: eq. 13 and eq. 16 at
  $t = 0$ and, for eq. 16, with a smooth $F = 1/(1 + e^{-(x-5)})$, $\sup F = 1 = M$, small along the trajectory
  (so $x \to$ about $\tau A$, outside $[0, \tau(A + BM)/(1 + \tau M)]$).

Simulations: ``ltc.eq13.simulation`` (biophysical networks over table 12's ranges, irregular
inputs, diffrax at two tolerances), ``ltc.eq13.gap_junction`` (a lemma: eq. 13 extended to one gap junction, beyond its scope, fails),
``ltc.eq15.global_existence`` (eq. 15 with $F = \tanh(Wx + b)$ on $[0, 100]$ against the
Gronwall bound).
"""

from __future__ import annotations

import math
from fractions import Fraction

import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..compute.host import from_host
from ..margins import TIGHTER, solver_margin
from ..solvers._diffrax import solve_system
from ._ltc_common import SEED002

__all__ = ["bounds_2018_claims", "eq16_holds_for_constant_F", "eq16_condition"]


def _eq13_outside_start_check(ctx: CheckContext) -> Outcome:
    V_L, E1, E2, v0 = Fraction(-1), Fraction(-1, 2), Fraction(-3, 4), Fraction(1, 2)
    lo, hi = min(V_L, E1, E2), max(V_L, E1, E2)
    witness = {"V_Leak": float(V_L), "E1": float(E1), "E2": float(E2), "v0": float(v0), "t": 0.0, "lower": float(lo), "upper": float(hi),
               "excess_at_t0": float(v0 - hi)}
    msg = (f"eq. 13 states the bound for every t in I, with no condition on v_i(0): at t = 0 with v_i(0) = {v0} (V_Leak = {V_L}, E = {E1}, {E2}, "
           f"all within table 12's ranges) v_i(0) exceeds max(V_Leak, E^max) = {hi} by {v0 - hi}; the bound needs v_i(0) in the interval "
           f"(ltc.eq13.invariant), from where it is forward-invariant; from outside, v_i only approaches it")
    return Outcome(Verdict.REFUTED if v0 > hi else Verdict.HOLDS, msg, Evidence(witness=witness))


# biophysical network: eq. 1 with eq. 2 synapses between N neurons and from M inputs (sensory synapses, eq. 2 with V_j
# replaced by the input I_m; their reversal potentials count among neuron i's E_ij)
BIO_N, BIO_M = 4, 2


EVENTS = (0.13, 0.29, 0.47, 0.61, 0.83)


BIO_RANGES = {"C_m": (0.1, 10.0), "tau": (0.001, 10.0), "V_Leak": (-1.0, 0.0), "w": (0.0, 2.0), "gamma": (0.5, 5.0), "mu": (-2.0, 2.0), "E": (-1.0, 1.0)}


def draw_bio(b: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng([seed, 13])
    n, m = BIO_N, BIO_M
    lu = lambda lo, hi, shape: np.exp(rng.uniform(np.log(lo), np.log(hi), shape))  # noqa: E731
    u = lambda key, shape: rng.uniform(*BIO_RANGES[key], shape)  # noqa: E731
    C = lu(*BIO_RANGES["C_m"], (b, n))
    p = {"C": C, "G": C / lu(*BIO_RANGES["tau"], (b, n)), "VL": u("V_Leak", (b, n)),
         "w": u("w", (b, n, n)), "gamma": u("gamma", (b, n, n)), "mu": u("mu", (b, n, n)), "E": u("E", (b, n, n)),
         "ws": u("w", (b, n, m)), "gammas": u("gamma", (b, n, m)), "mus": u("mu", (b, n, m)), "Es": u("E", (b, n, m)),
         "I0": rng.normal(0, 1, (b, m)), "jumps": rng.normal(0, 1, (b, len(EVENTS), m))}
    lo = np.minimum(p["VL"], np.minimum(p["E"].min(axis=2), p["Es"].min(axis=2)))
    hi = np.maximum(p["VL"], np.maximum(p["E"].max(axis=2), p["Es"].max(axis=2)))
    p["lo"], p["hi"] = lo, hi
    p["v0"] = lo + rng.uniform(0.0, 1.0, (b, n)) * (hi - lo)
    return p


def _bio_rhs(t, y, p):
    v = y.reshape(p["VL"].shape)                                     # (B, N)
    I = p["I0"] + sum(jnp.where(t >= te, p["jumps"][:, k], 0.0) for k, te in enumerate(EVENTS))  # (B, M)
    sig = 1 / (1 + jnp.exp(-p["gamma"] * (v[:, None, :] + p["mu"])))        # (B, N_post, N_pre)
    sigs = 1 / (1 + jnp.exp(-p["gammas"] * (I[:, None, :] + p["mus"])))     # (B, N_post, M)
    current = (p["G"] * (p["VL"] - v) + jnp.sum(p["w"] * sig * (p["E"] - v[..., None]), axis=2)
               + jnp.sum(p["ws"] * sigs * (p["Es"] - v[..., None]), axis=2))
    return (current / p["C"]).reshape(-1)


def _eq13_simulation_check(ctx: CheckContext) -> Outcome:
    b = 16 if ctx.quick else 64
    p = draw_bio(b, ctx.seed)
    pj = {k: from_host(v) for k, v in p.items() if k not in ("lo", "hi", "v0")}
    ts = np.linspace(0.0, 1.0, 401)
    rtol, atol = 1e-7, 1e-9
    first = solve_system(_bio_rhs, pj, p["v0"].reshape(-1), ts, rtol=rtol, atol=atol, jump_ts=EVENTS)
    tight = solve_system(_bio_rhs, pj, p["v0"].reshape(-1), ts, rtol=rtol / TIGHTER, atol=atol / TIGHTER, jump_ts=EVENTS)
    v = first.ys.reshape(b, BIO_N, -1)
    margin = solver_margin(first.ys, tight.ys, rtol / TIGHTER, atol / TIGHTER).reshape(b, BIO_N, -1)
    lo, hi = p["lo"][..., None], p["hi"][..., None]
    excess = np.maximum(v - hi, lo - v)                               # <= 0 inside
    worst = float(np.max(excess - margin))
    max_abs = float(np.max(np.abs(v)))
    scalars = {"networks": b, "neurons": BIO_N, "inputs": BIO_M, "max_excess": float(excess.max()), "max_solver_margin": float(margin.max()),
               "max_abs_v": max_abs, "diffrax_steps": first.num_steps, "ranges": str(BIO_RANGES),
               "min_tau": float((p["C"] / p["G"]).min()), "max_tau": float((p["C"] / p["G"]).max())}
    arrays = {"max_excess_per_network": excess.max(axis=(1, 2)), "max_abs_v_per_network": np.abs(v).max(axis=(1, 2))}
    if worst > 0 or max_abs > 1 + float(margin.max()):
        k, i, tk = np.unravel_index(int(np.argmax(excess - margin)), excess.shape)
        witness = {"network": int(k), "neuron": int(i), "t": float(ts[tk]), "v": float(v[k, i, tk]), "lower": float(p["lo"][k, i]), "upper": float(p["hi"][k, i])}
        return Outcome(Verdict.REFUTED, f"a trajectory leaves [min(V_L, E^min), max(V_L, E^max)] by {excess.max():.3g} (margin {margin.max():.1g})",
                       Evidence(arrays, scalars, witness))
    msg = (f"{b} networks ({BIO_N} neurons, {BIO_M} held irregular inputs through sensory synapses, v(0) inside, table 12's ranges, tau = C_m/G_Leak "
           f"in [{scalars['min_tau']:.2g}, {scalars['max_tau']:.2g}]): every v_i(t) stays in its interval (max excess {excess.max():.3g} <= 0, "
           f"solver margin {margin.max():.1g}) and |v| <= {max_abs:.3f} <= 1 as V_Leak in [-1, 0], E in [-1, 1] imply")
    return Outcome(Verdict.HOLDS, msg, Evidence(arrays, scalars))


def _gap_pair_rhs(t, y, omega):
    """Two neurons, one chemical synapse each (from the other) and one gap junction (eq. 3). C = G = w = gamma = 1, mu = 0.
    Neuron 1: V_L = -1, E = -1/2 (interval [-1, -1/2]); neuron 2: V_L = 0, E = 1 (interval [0, 1])."""
    v1, v2 = y
    s21, s12 = 1 / (1 + math.exp(-v2)), 1 / (1 + math.exp(-v1))
    return [(-1 - v1) + s21 * (-0.5 - v1) + omega * (v2 - v1), (0 - v2) + s12 * (1 - v2) + omega * (v1 - v2)]


def _eq13_gap_check(ctx: CheckContext) -> Outcome:
    from scipy.integrate import solve_ivp

    omega, y0 = 1.0, [-0.5, 1.0]
    slope0 = _gap_pair_rhs(0.0, y0, omega)[0]              # exact: -(1/2) + 0 + 1.5 = 1
    ts = np.linspace(0, 2, 401)
    first = solve_ivp(_gap_pair_rhs, (0, 2), y0, t_eval=ts, args=(omega,), rtol=1e-9, atol=1e-12, method="DOP853")
    tight = solve_ivp(_gap_pair_rhs, (0, 2), y0, t_eval=ts, args=(omega,), rtol=1e-11, atol=1e-14, method="DOP853")
    margin = solver_margin(first.y, tight.y, 1e-11, 1e-14)
    excess = first.y[0] - (-0.5)
    k = int(np.argmax(excess - margin[0]))
    witness = {"omega": omega, "v1_0": y0[0], "v2_0": y0[1], "V_Leak_1": -1.0, "E_1": -0.5, "V_Leak_2": 0.0, "E_2": 1.0, "upper_1": -0.5,
               "dv1_dt_at_0": slope0, "t": float(ts[k]), "v1": float(first.y[0, k]), "excess": float(excess[k])}
    refuted = slope0 > 0 and excess[k] > margin[0, k]
    msg = (f"two neurons, each starting inside its eq. 13 interval (v1(0) = -0.5 in [-1, -0.5], v2(0) = 1 in [0, 1]), coupled by one gap "
           f"junction omega = 1 (table 12: [0, 1]): dv1/dt(0) = {slope0:g} > 0 at the top of neuron 1's interval, and v1 reaches "
           f"{first.y[0, k]:.4f} at t = {ts[k]:.3f}, {excess[k]:.3g} above it (solver margin {margin[0, k]:.1g}); eq. 13 names chemical synapses only")
    return Outcome(Verdict.REFUTED if refuted else Verdict.INCONCLUSIVE, msg,
                   Evidence({"t": ts, "v1": first.y[0], "v2": first.y[1]}, {"max_excess": float(excess.max())}, witness if refuted else {}))


CAP = 1e3


def _eq15_check(ctx: CheckContext) -> Outcome:
    from scipy.integrate import solve_ivp

    rng = np.random.default_rng([ctx.seed, 15])
    n, T = 3, 100.0
    draws = 4 if ctx.quick else 12
    ts = np.linspace(0, T, 1001)
    worst_ratio, rows = 0.0, []
    for k in range(draws):
        tau = np.exp(rng.uniform(np.log(0.1), np.log(10.0), n))
        W, bias = rng.normal(0, 1.5, (n, n)), rng.normal(0, 1, n)
        A, B = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
        x0 = rng.uniform(-1, 1, n)

        def rhs(t, x):
            F = np.tanh(W @ x + bias)                       # bounded C^1, M = 1
            return -(1 / tau + F) * x + A + B * F

        def runaway(t, x):                                  # stop growing draws at |x| = 1e6 (see the message)
            return np.max(np.abs(x)) - CAP

        runaway.terminal = True
        sols = [solve_ivp(rhs, (0, T), x0, t_eval=ts, rtol=r, atol=r * 1e-2, method="DOP853", events=runaway) for r in (1e-8, 1e-10)]
        if any(s.status not in (0, 1) for s in sols):
            return Outcome(Verdict.INCONCLUSIVE, f"draw {k}: the solver failed: {sols[0].message}")
        m = min(sols[0].y.shape[1], sols[1].y.shape[1])
        y, yt, tt = sols[0].y[:, :m], sols[1].y[:, :m], ts[:m]
        K, c = 1 / tau + 1.0, np.abs(A) + np.abs(B)
        # log of the Gronwall bound (|x0| + c/K) e^(K t) - c/K, evaluated without overflow
        log_bound = K[:, None] * tt + np.log(np.abs(x0)[:, None] + (c / K)[:, None] * (1 - np.exp(-K[:, None] * tt)))
        margin = solver_margin(y, yt, 1e-10, 1e-12)
        log_ratio = float(np.max((np.log(np.maximum(np.abs(y) - margin, 1e-300)) - log_bound)[:, 1:]))   # t > 0 (equality at t = 0)
        worst_ratio = max(worst_ratio, math.exp(min(log_ratio, 700.0)))
        stopped = sols[0].status == 1 or sols[1].status == 1
        rows.append((float(tau.min()), float(tau.max()), float(np.max(np.abs(y))), math.exp(min(log_ratio, 700.0)), float(tt[-1]), float(stopped)))
    arr = np.array(rows)
    grown = int(arr[:, 5].sum())
    scalars = {"draws": draws, "horizon": T, "max_ratio_abs_x_to_gronwall_bound": worst_ratio, "max_abs_x": float(arr[:, 2].max()),
               "draws_stopped_at_cap": grown, "cap": CAP, "min_time_reached": float(arr[:, 4].min())}
    msg = (f"{draws} systems (n = {n}, F = tanh(W x + b), M = 1, tau in [0.1, 10], A, B in [-1, 1]): {draws - grown} reach t = {T:g} "
           f"(max |x| = {arr[:, 2].max():.3g}); {grown} grow exponentially (tau > 1 lets 1/tau + F < 0) and are followed until |x| = {CAP:.0e} "
           f"(reached at t >= {arr[:, 4].min():.3g}; the cap keeps the explicit solver away from large |x|, where tanh(W x + b) switches sharply "
           f"and it stalls: one draw needed > 5e6 evaluations near |x| = 1e8), and |x_i(t)| stays under the Gronwall bound (|x_i(0)| + c/K) e^(K t) - c/K, K = 1/tau_i + M, "
           f"c = |A_i| + |B_i| M (max ratio over t > 0: {worst_ratio:.3g}); with the linear-growth bound (ltc.eq15.growth_bound) and F in C^1 this gives "
           f"the global unique solution; tau != 0 suffices for existence (tau > 0 for the decay)")
    verdict = Verdict.HOLDS if worst_ratio <= 1 else Verdict.REFUTED
    return Outcome(verdict, msg, Evidence({"tau_min": arr[:, 0], "tau_max": arr[:, 1], "max_abs_x": arr[:, 2], "ratio": arr[:, 3], "time_reached": arr[:, 4]}, scalars))


def eq16_bounds(x0, A, B, tau, M):
    K = tau * (A + B * M) / (1 + tau * M)
    return min(abs(x0), K), max(abs(x0), K)


def eq16_condition(x0, A, B, tau, M) -> bool:
    """eq. 16 holds for every F with 0 <= F <= M iff x(0) and tau A (the F = 0 equilibrium) lie in its interval
    (the solution stays in the hull of x(0), tau A and K: ltc.eq16.corrected)."""
    lo, hi = eq16_bounds(x0, A, B, tau, M)
    return lo <= x0 <= hi and lo <= tau * A <= hi


def eq16_holds_for_constant_F(x0, A, B, tau, M, Fs=None, ts=None) -> bool:
    """eq. 16 checked on the closed-form solutions for constant F: x(t) = x*(F) + (x0 - x*(F)) e^{-(1/tau + F) t}."""
    lo, hi = eq16_bounds(x0, A, B, tau, M)
    Fs = np.linspace(0, M, 9) if Fs is None else Fs
    ts = np.concatenate([[0.0], np.geomspace(1e-3, 1e3, 200)]) if ts is None else ts
    for F in Fs:
        xs = tau * (A + B * F) / (1 + tau * F)
        x = xs + (x0 - xs) * np.exp(-(1 / tau + F) * ts)
        if np.any(x < lo - 1e-12) or np.any(x > hi + 1e-12):
            return False
    return True


def eq16_sigmoid_F_solution(x0: float, A: float, B: float, tau: float, t: float) -> tuple[float, float, float]:
    """x(t) of scalar eq. 15 with F(x) = 1/(1 + exp(-(x - 5))) (sup F = 1), at two tolerances, and F(x(t))."""
    from scipy.integrate import solve_ivp

    F = lambda x: 1 / (1 + np.exp(-(x - 5.0)))  # noqa: E731
    rhs = lambda _, x: -(1 / tau + F(x)) * x + A + B * F(x)  # noqa: E731
    xs = [solve_ivp(rhs, (0.0, t), [x0], rtol=r, atol=r * 1e-2, method="DOP853").y[0, -1] for r in (1e-10, 1e-12)]
    return float(xs[0]), float(xs[1]), float(F(xs[0]))


def _eq16_check(which: str):
    def check(ctx: CheckContext) -> Outcome:
        # grid over (x0, A, B, M) at tau = 1: where does eq. 16 hold for every constant F in [0, M]?
        grid = np.linspace(-1, 1, 9)
        Ms = (0.5, 1.0, 2.0)
        total = holds = agree = 0
        for x0 in grid:
            for A in grid:
                for B in grid:
                    for M in Ms:
                        h = eq16_holds_for_constant_F(x0, A, B, 1.0, M)
                        total += 1
                        holds += h
                        agree += h == eq16_condition(x0, A, B, 1.0, M)
        scalars = {"grid_points": total, "fraction_where_eq16_holds_for_constant_F": holds / total,
                   "condition_matches_closed_forms": agree / total,
                   "condition": "x(0) and tau A in [min{|x(0)|, K}, max{|x(0)|, K}], K = tau(A + BM)/(1 + tau M)"}
        if which == "t0":
            x0, A, B, tau, M = Fraction(-1), Fraction(1), Fraction(0), Fraction(1), Fraction(1)
            lo, hi = eq16_bounds(x0, A, B, tau, M)
            witness = {"x0": float(x0), "A": float(A), "B": float(B), "tau": float(tau), "M": float(M), "t": 0.0, "lower": float(lo), "x_at_t": float(x0)}
            bad = lo > x0
            msg = (f"at t = 0 with x(0) = {x0}, A = {A}, B = {B}, tau = {tau}, M = {M}: the lower bound min{{|x(0)|, tau(A+BM)/(1+tau M)}} = {lo} "
                   f"exceeds x(0) = {x0} (|x(0)| in the bound cannot hold a negative x(0)). ")
        else:
            x0, A, B, tau, M, t = 0.0, 1.0, 0.0, 1.0, 1.0, 2.0
            lo, hi = eq16_bounds(x0, A, B, tau, M)
            x_t, x_tight, F_t = eq16_sigmoid_F_solution(x0, A, B, tau, t)
            witness = {"x0": x0, "A": A, "B": B, "tau": tau, "M": M, "F": "1/(1 + exp(-(x - 5)))", "sup_F": 1.0, "t": t, "x_at_t": x_t,
                       "F_at_x_t": F_t, "upper": hi, "solver_difference": abs(x_t - x_tight)}
            bad = x_t - hi > 10 * abs(x_t - x_tight) + 1e-9
            msg = (f"F(x) = 1/(1 + e^-(x - 5)), smooth (C^1), 0 < F < 1 with sup F = 1 = M (M read as sup F, the only meaning 002's eq. 16 allows); "
                   f"with x(0) = 0, A = 1, B = 0, tau = 1 the state stays where F is small (F(x(2)) = {F_t:.3g}) and heads for about tau A = 1: "
                   f"x(2) = {x_t:.4f} (scipy DOP853, rtol 1e-10 vs 1e-12: {abs(x_t - x_tight):.1g}) > max{{|x(0)|, tau(A+BM)/(1+tau M)}} = {hi:g}. ")
        msg += (f"Over a grid of {total} points (x(0), A, B in [-1, 1], M in {{0.5, 1, 2}}, tau = 1) eq. 16 holds for every constant F in [0, M] on "
                f"{100 * holds / total:.1f}% of them, exactly where x(0) and tau A lie in its interval (condition matches the closed forms on "
                f"{100 * agree / total:.1f}%; ltc.eq16.corrected). M is undefined in 002 (section 4 uses M for the input dimension); read as sup F")
        return Outcome(Verdict.REFUTED if bad else Verdict.HOLDS, msg, Evidence(scalars=scalars, witness=witness if bad else {}))

    return check


def bounds_2018_claims() -> list[Claim]:
    R, H = Verdict.REFUTED, Verdict.HOLDS
    return [
        Claim("ltc.eq13.outside_start", f"{SEED002}, eq. 13 (line 272), 'min_(t in I)(V_Leak_i, E_ij^min) <= v_i(t) <= max_(t in I)(V_Leak_i, E_ij^max)'",
              "eq. 13 holds for every t in I (t = 0 included) with no condition on v_i(0)",
              "biophysical neuron, two chemical synapses, V_Leak in [-1, 0], E in [-1, 1] (table 12)", R,
              "at t = 0 the bound is a condition on v_i(0), which eq. 13 does not state", _eq13_outside_start_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq13.simulation", f"{SEED002}, eq. 13 (line 272) and line 274, 'The neuron can never go above the most excitatory reversal potential or "
              "below the most inhibitory one'; table 12 V_Leak [-1, 0] (line 421), E [-1, 1] (line 425)",
              "biophysical networks (eq. 1-2) started inside: v_i(t) stays in [min(V_Leak_i, min_j E_ij), max(V_Leak_i, max_j E_ij)] and in [-1, 1]",
              f"{BIO_N} neurons, {BIO_M} held irregular inputs through sensory synapses (their E counted among E_ij); table 12's ranges: C_m log-uniform "
              "[0.1, 10], tau = C_m/G_Leak log-uniform [0.001, 10], V_Leak [-1, 0], w [0, 2], gamma [0.5, 5], mu [-2, 2], E [-1, 1]; v(0) uniform in the "
              "interval; t in [0, 1]; diffrax Tsit5 at rtol 1e-7 and 1e-9", H, "the interval is forward-invariant (ltc.eq13.invariant)",
              _eq13_simulation_check, group="ltc", kind=Kind.READING,
              reading="eq. 13 with v_i(0) inside the interval and chemical synapses only; min/max over t of constants read as notation"),
        Claim("ltc.eq13.gap_junction", f"{SEED002}, eq. 13 (line 272) with gap junctions (eq. 3, line 73; eq. 10 includes them)",
              "eq. 13's interval, extended beyond its scope (line 270: 'receiving N chemical synapses'; eq. 10 names gap junctions apart), stays "
              "forward-invariant for a neuron that also has a gap junction (eq. 3) to a neuron that starts inside its own interval",
              "two neurons, C = G = w = gamma = 1, mu = 0; neuron 1 V_L = -1, E = -1/2; neuron 2 V_L = 0, E = 1; omega = 1 (table 12: [0, 1])", R,
              "the gap current omega (v_j - v_i) is not bounded by neuron i's reversal potentials: the extension fails, which says where eq. 13 "
              "stops, not that it is wrong", _eq13_gap_check, group="ltc", kind=Kind.LEMMA),
        Claim("ltc.eq15.global_existence", f"{SEED002}, Lemma 1 (line 294), 'For bounded C^1 function F, this has a unique solution on [0, infinity).'",
              "eq. 15 with F = tanh(W x + b) (bounded, C^1) has a solution on [0, 100] (exponentially growing draws: until |x| = 1e6) that stays below the "
              "Gronwall bound of ltc.eq15.growth_bound",
              "n = 3, tau log-uniform in [0.1, 10], W ~ N(0, 1.5^2), b ~ N(0, 1), A, B, x(0) uniform in [-1, 1]; scipy DOP853 at rtol 1e-8 and 1e-10; "
              "a numerical confirmation on [0, 100] (global existence itself follows from the growth lemma)", H,
              "linear growth plus local Lipschitz rule out blow-up", _eq15_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq16.t0_negative", f"{SEED002}, eq. 16 (line 298), 'min{{|x_i(0)|, tau(A + BM)/(1 + tau M)}} <= x_i(t) <= max{{...}}'",
              "eq. 16 holds at t = 0 for every x_i(0)", "scalar eq. 15, 0 <= F <= M, tau > 0; x(0) = -1, A = 1, B = 0, tau = 1, M = 1", R,
              "the bound uses |x_i(0)|, so a negative x_i(0) lies below its lower end", _eq16_check("t0"), group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq16.F_zero", f"{SEED002}, eq. 16 (line 298), 'min{{|x_i(0)|, tau(A + BM)/(1 + tau M)}} <= x_i(t) <= max{{...}}'",
              "eq. 16 holds for all t >= 0 and every bounded C^1 F with 0 <= F <= M, M = sup F",
              "scalar eq. 15, tau > 0; F(x) = 1/(1 + e^-(x - 5)) (sup F = 1 = M), x(0) = 0, A = 1, B = 0, tau = 1", R,
              "where F stays small the state tends to about tau A, which the interval [0, tau (A + B M)/(1 + tau M)] = [0, 1/2] does not contain",
              _eq16_check("F0"), group="ltc", kind=Kind.AS_PRINTED),
    ]


add_provider(bounds_2018_claims)
