r"""Statements about the LTC equations of seed 002 that fail as printed (each keeps its
counterexample), the simulations behind eq. 13 and Lemma 1 (eq. 15), and the section 11
summary table checked row by row against the body. The statements that hold
symbolically are obligations in ``proofs/ltc_equations.py``.

Closed forms and exact counterexamples:

* ``ltc.eq3.linear_term.tau_sys``: with a gap junction $\tau_{sys}(\omega) = C/(G + w\sigma + \omega)$,
  $\partial^2_\omega \tau_{sys} = 2C/(G + w\sigma + \omega)^3 \ne 0$: the term gap junctions add is linear
  in the rate $1/\tau_{sys}$, not in $\tau_{sys}$.
* ``ltc.eq6.drive``: summing eq. 5 over synapses gives the drive $\sum_j W_{ij}\sigma_j E_{ij}$; eq. 6's
  $(W\sigma)_i B_i$ matches it for every $\sigma$ only if $E_{ij} = B_i$ for all $j$.
* ``ltc.eq6.A``: line 126's $A_i = V_{L,i}/C_{m,i}$ against eq. 5's $V_{L,i}/\tau_i = G_i V_{L,i}/C_{m,i}$.
* ``ltc.eq7.pulls_to_zero.tanh``: the rate $1/\tau + \tanh(z)$ is negative for $\tanh z < -1/\tau$,
  possible exactly when $\tau > 1$ (table 12 allows $\tau$ up to 10).
* ``ltc.eq9a.shapes`` / ``ltc.eq24.shapes``: the printed shapes $\gamma \in \mathbb{R}^{M\times N}$ and
  $W_{out} \in \mathbb{R}^{N \times N_{out}}$ do not multiply $I \in \mathbb{R}^M$ and $x \in \mathbb{R}^N$.
* ``ltc.eq13.outside_start``, ``ltc.eq16.t0_negative``, ``ltc.eq16.F_zero``: eq. 13 and eq. 16 at
  $t = 0$ and, for eq. 16, with a smooth $F = 1/(1 + e^{-(x-5)})$, $\sup F = 1 = M$, small along the trajectory
  (so $x \to$ about $\tau A$, outside $[0, \tau(A + BM)/(1 + \tau M)]$).
* ``ltc.sec8.larger_bound``: reading $\ge O(g)$ as $\ge c\,g$ with one $c$, eq. 21 / eq. 19
  $= \|z\|/\sigma_w + 1/\min(\delta t, L)$, below 1 for $\delta t = L = 2$, $\|z\| = 0.1$, $\sigma_w = 1.41$.

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
import sympy as sp

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..margins import TIGHTER, solver_margin
from ..solvers._diffrax import solve_system
from ..symbolic.checks import Identity

__all__ = ["equation_claims", "TABLE11_ROWS", "eq16_holds_for_constant_F", "eq16_condition", "trajectory_bound_ratio"]

SEED002 = "002_02b8eaa764ffef08.txt"


def _finding_outcome(finding, message_prefix: str = "") -> Outcome:
    out = finding.to_outcome()
    return Outcome(out.verdict, message_prefix + out.message, out.evidence)


# --------------------------------------------------------------------------- eq. 3: tau_sys not linear in omega
def _gap_tau_sys_check(ctx: CheckContext) -> Outcome:
    C, G, w, sigma, omega = sp.symbols("C_m G_L w sigma omega", positive=True)
    tau_sys = C / (G + w * sigma + omega)
    curvature = sp.diff(tau_sys, omega, 2)
    point = {C: 1.0, G: 1.0, w: 1.0, sigma: 0.5, omega: 1.0}
    finding = Identity(curvature, 0, hints=[point]).run(ctx.seed)
    # tau_sys at omega = 0, 1, 2 (C = G = w = 1, sigma = 1/2): a linear term would make the steps equal
    vals = [Fraction(1) / (Fraction(1) + Fraction(1, 2) + k) for k in (0, 1, 2)]
    steps = (vals[1] - vals[0], vals[2] - vals[1])
    out = finding.to_outcome()
    witness = dict(out.evidence.witness)
    witness.update({"tau_sys_omega0": float(vals[0]), "tau_sys_omega1": float(vals[1]), "tau_sys_omega2": float(vals[2])})
    msg = (f"d^2 tau_sys / d omega^2 = {sp.simplify(curvature)} != 0; at C = G = w = 1, sigma = 1/2: tau_sys = {vals[0]}, {vals[1]}, {vals[2]} for "
           f"omega = 0, 1, 2 (steps {steps[0]}, {steps[1]}, not equal): the gap term omega/C_m is added to 1/tau_sys (ltc.eq3.linear_term.rate), "
           f"not linearly to tau_sys")
    return Outcome(finding.verdict, msg, Evidence(scalars=dict(out.evidence.scalars), witness=witness))


# --------------------------------------------------------------------------- eq. 6
def _eq6_drive_check(ctx: CheckContext) -> Outcome:
    """Two neurons (n + N = 2), neuron 1 with synapses from both: for eq. 6's drive to equal the summed
    synaptic drive for every sigma, B_1 must equal E_11 (sigma = (1, 0)) and E_12 (sigma = (0, 1))."""
    W11, W12 = sp.symbols("W11 W12", positive=True)
    E11, E12, B1 = sp.symbols("E11 E12 B1", real=True)
    s1, s2 = sp.symbols("s1 s2", positive=True)
    summed = W11 * s1 * E11 + W12 * s2 * E12          # eq. 5 summed over j, synaptic part of the drive
    printed = (W11 * s1 + W12 * s2) * B1              # eq. 6: (W sigma(u))_1 B_1
    only_first = sp.solve(sp.Eq(summed.subs({s1: 1, s2: 0}), printed.subs({s1: 1, s2: 0})), B1)
    only_second = sp.solve(sp.Eq(summed.subs({s1: 0, s2: 1}), printed.subs({s1: 0, s2: 1})), B1)
    values = {W11: 1, W12: 1, E11: -1, E12: 1}
    b_first, b_second = only_first[0].subs(values), only_second[0].subs(values)
    n = 3
    witness = {"W11": 1.0, "W12": 1.0, "E11": -1.0, "E12": 1.0, "B1_needed_at_sigma_1_0": float(b_first), "B1_needed_at_sigma_0_1": float(b_second),
               "entries_of_E_for_n_plus_N_3": n * n, "entries_of_B_for_n_plus_N_3": n}
    if b_first != b_second:
        msg = (f"summed drive sum_j W_1j sigma_j E_1j needs B_1 = {only_first[0]} at sigma = (1, 0) and B_1 = {only_second[0]} at sigma = (0, 1): "
               f"with E_11 = -1, E_12 = 1 no B_1 works ({b_first} != {b_second}); eq. 6 holds only with one reversal potential per postsynaptic "
               f"neuron (E_ij = B_i, ltc.eq6.drive.shared_reversal). An (n+N)-vector B cannot 'contain all E_ij' ((n+N)^2 values: 9 for n+N = 3). "
               f"eq. 6's sigma(u) also drops eq. 2a's per-synapse gamma_ij, mu_ij")
        return Outcome(Verdict.REFUTED, msg, Evidence(witness=witness))
    return Outcome(Verdict.HOLDS, "a single B_1 serves both gate patterns", Evidence(witness=witness))


def _eq6_A_check(ctx: CheckContext) -> Outcome:
    C, G = sp.symbols("C_m G_L", positive=True)
    VL = sp.Symbol("V_L", real=True)
    printed, eq5 = VL / C, G * VL / C                  # line 126 vs eq. 5's V_L/tau with tau = C/G
    finding = Identity(printed, eq5, hints=[{C: 1.0, G: 2.0, VL: -1.0}]).run(ctx.seed)
    agree = sp.solve(sp.Eq(printed, eq5), G)
    out = finding.to_outcome()
    msg = (f"A_i = V_L/C_m (line 126) vs eq. 5's constant drive V_L/tau_i = G_L V_L/C_m: {finding.message}; they agree only for G_L = "
           f"{agree} (or V_L = 0); corrected A_i = V_L_i/tau_i (ltc.eq6.drive.shared_reversal)")
    return Outcome(finding.verdict, msg, out.evidence)


# --------------------------------------------------------------------------- eq. 7 decay term with tanh
TAU_TABLE = (0.001, 10.0)


def _pulls_to_zero_tanh_check(ctx: CheckContext) -> Outcome:
    taus = np.exp(np.linspace(np.log(TAU_TABLE[0]), np.log(TAU_TABLE[1]), 401))
    inf_rate = 1 / taus - 1                            # inf over f in (-1, 1) of 1/tau + f (approached as f -> -1)
    flips = taus[inf_rate < 0]
    tau_w, f_w = Fraction(10), Fraction(-9, 10)
    rate_w = 1 / tau_w + f_w
    z_w = math.atanh(float(f_w))
    # the decay term alone moves x = 1 at speed -(rate) x = +0.8: away from zero
    witness = {"tau": float(tau_w), "f": float(f_w), "z": z_w, "rate": float(rate_w), "decay_term_at_x_1": float(-rate_w)}
    scalars = {"tau_min_table": TAU_TABLE[0], "tau_max_table": TAU_TABLE[1], "sign_flip_threshold": "f < -1/tau (needs tau > 1)",
               "fraction_of_log_tau_grid_with_possible_flip": float(len(flips) / len(taus)), "rate_at_witness": float(rate_w)}
    msg = (f"1/tau + tanh(z) < 0 when tanh(z) < -1/tau, possible exactly for tau > 1 ({100 * len(flips) / len(taus):.0f}% of table 12's log-tau range "
           f"[0.001, 10]); at tau = 10, f = -0.9 (z = {z_w:.4f}) the rate is {float(rate_w)} and the 'decay' term -(1/tau + f) x = +0.8 x pushes x away "
           f"from zero. With f = sigmoid the rate is always > 0 (ltc.eq7.pulls_to_zero.sigmoid)")
    verdict = Verdict.REFUTED if rate_w < 0 and len(flips) else Verdict.HOLDS
    return Outcome(verdict, msg, Evidence({"tau": taus, "inf_rate_over_f": inf_rate}, scalars, witness if verdict == Verdict.REFUTED else {}))


# --------------------------------------------------------------------------- shapes
def _try_product(a: np.ndarray, b: np.ndarray) -> str:
    try:
        return f"ok {np.matmul(a, b).shape}"
    except ValueError as exc:
        return f"fails: {exc}".split("(size")[0].strip()


def _shapes_check(which: str):
    def check(ctx: CheckContext) -> Outcome:
        N, M, N_out = 4, 3, 2
        x, I = np.ones(N), np.ones(M)
        if which == "gamma":
            products = {"gamma_r @ x (N x N)(N)": _try_product(np.ones((N, N)), x),
                        "gamma @ I (M x N)(M), as printed": _try_product(np.ones((M, N)), I),
                        "gamma.T @ I (N x M)(M)": _try_product(np.ones((M, N)).T, I),
                        "I @ gamma (row vector)": _try_product(I, np.ones((M, N)))}
            failing = "gamma @ I (M x N)(M), as printed"
            fix = "gamma in R^{N x M} (or gamma^T I, or the row-vector form I gamma)"
        else:
            products = {"W_out @ x (N x N_out)(N), as printed": _try_product(np.ones((N, N_out)), x),
                        "W_out.T @ x (N_out x N)(N)": _try_product(np.ones((N, N_out)).T, x),
                        "x @ W_out (row vector)": _try_product(x, np.ones((N, N_out)))}
            failing = "W_out @ x (N x N_out)(N), as printed"
            fix = "W_out in R^{N_out x N} (or the row-vector form x W_out)"
        witness = {"N": N, "M": M, "N_out": N_out, **{k: v for k, v in products.items()}}
        refuted = products[failing].startswith("fails")
        msg = (f"with the printed shapes (N = {N}, M = {M}, N_out = {N_out}): " + "; ".join(f"{k}: {v}" for k, v in products.items()) +
               f". The product as written needs {fix}")
        return Outcome(Verdict.REFUTED if refuted else Verdict.HOLDS, msg, Evidence(witness=witness if refuted else {}))

    return check


# --------------------------------------------------------------------------- eq. 13
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
    pj = {k: jnp.asarray(v) for k, v in p.items() if k not in ("lo", "hi", "v0")}
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


# --------------------------------------------------------------------------- eq. 15 / Lemma 1
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


# --------------------------------------------------------------------------- eq. 16
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


# --------------------------------------------------------------------------- section 8
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


# --------------------------------------------------------------------------- section 11 summary table
def _table11_parts():
    """Each row of section 11 and the numbered display in the body, both transcribed from their LaTeX
    (lines 372-399 and the body's displays) into SymPy, as tuples of parts (sides of an equation, the three
    members of a double inequality). None: the row prints no formula."""
    S = sp.Symbol
    Fn = sp.Function
    t = S("t", real=True)
    C, G, VL, V, Vj, Vi = S("C_m"), S("G_L"), S("V_L"), S("V"), S("V_j"), S("V_i")
    I1, I2 = S("I1"), S("I2")
    w, g_, mu, E, om, vj, vi = S("w"), S("gamma"), S("mu"), S("E"), S("omega"), S("v_j"), S("v_i")
    tau, dVdt = S("tau"), S("dV/dt")
    sigma_ij = 1 / (1 + sp.exp(-g_ * (Vj + mu)))
    u, A, B, W, sig_u, udot = S("u"), S("A"), S("B"), S("W"), S("sigma(u)"), S("udot")
    x, f_, dxdt, dt, fval = S("x"), S("f"), S("dx/dt"), S("Delta t"), S("f_val")
    x_i, x_next, f8 = S("x_i"), S("x_next"), Fn("f8")
    gam_r, gam, In = S("gamma_r"), S("gamma_I"), S("I")
    Ci, gi, w1, w2, wh1, wh2, Wi, taui, tausys = S("C_i"), S("g_i"), S("w1"), S("w2"), S("wh1"), S("wh2"), S("W_i"), S("tau_i"), S("tau_sys")
    Amin, Amax, xt, Emin, Emax, vt = S("A_min"), S("A_max"), S("x_i(t)"), S("E_min"), S("E_max"), S("v_i(t)")
    xu, eps, F, M = S("|x - u|_max"), S("epsilon"), S("F"), S("M")
    n_, C1, C2, xnorm, Wl, Cc = S("n", positive=True), S("C_1"), S("C_2"), S("x(t)"), S("W_l"), S("C")
    Wout, bout, yhat = S("W_out"), S("b_out"), S("yhat")
    sig = lambda z: 1 / (1 + sp.exp(-z))  # noqa: E731

    body = {
        "1": (C * dVdt, G * (VL - V) + I1 + I2),
        "2": (S("I_s"), w / (1 + sp.exp(-g_ * (Vj + mu))) * (E - Vi)),
        "2a": (S("sigma_i"), 1 / (1 + sp.exp(-g_ * (Vj + mu)))),
        "3": (S("I_hat"), om * (vj - vi)),
        "4": (dVdt, G / C * (VL - V) + w / C * sigma_ij * (E - V)),
        "5": (dVdt, -(1 / tau + w / C * sigma_ij) * V + (VL / tau + w / C * sigma_ij * E)),
        "5a": (S("tau_system"), 1 / (1 / tau + (w / C) * sigma_ij)),
        "6": (udot, -(1 / tau + W * sig_u) * u + A + W * sig_u * B),
        "7": (dxdt, -(1 / tau + f_) * x + f_ * A),
        "7a": (tausys, tau / (1 + tau * f_)),
        "8": (x_next, x_i + dt * f8(x_i, x_next)),
        "9": (x_next, (x + dt * f_ * A) / (1 + dt * (1 / tau + f_))),
        "9a": (f_, sp.tanh(gam_r * x + gam * In + mu)),
        "10": (Ci / (gi + w1 + w2 + wh1 + wh2), taui, Ci / (gi + wh1 + wh2)),
        "11": (taui / (1 + taui * Wi), tausys, taui),
        "12": (sp.Min(0, Amin), xt, sp.Max(0, Amax)),
        "13": (sp.Min(VL, Emin), vt, sp.Max(VL, Emax)),      # min_{t in I} of time-independent quantities: notation only
        "14": (xu, eps),
        "15": (S("xdot"), -(1 / tau + F) * x + A + B * F),
        "16": (tau * (A + B * M) / (1 + tau * M),),           # the second argument of eq. 16's min/max
        "17": (sp.sqrt(n_) * C1, xnorm, sp.sqrt(n_) * C2),
        "18": (tausys, 1 / (1 / tau + Wl * sig(Cc * x + mu))),
        "22": (fval, Fn("activation")(gam_r * x + gam * In + mu)),
        "23": (x_next, (x + dt * fval * A) / (1 + dt * (1 / tau + fval))),
        "24": (yhat, Wout * xnorm + bout),
    }
    row = {
        "1": (C * dVdt, G * (VL - V) + (I1 + I2)),
        "2": (S("I_s"), w / (1 + sp.exp(-g_ * (Vj + mu))) * (E - Vi)),
        "2a": (S("sigma_i"), 1 / (1 + sp.exp(-g_ * (Vj + mu)))),
        "3": (S("I_hat"), om * (vj - vi)),
        "4": (dVdt, G / C * (VL - V) + w / C * sigma_ij * (E - V)),
        "5": (dVdt, -(1 / tau + w / C * sigma_ij) * V + (VL / tau + w / C * sigma_ij * E)),
        "5a": (S("tau_system"), 1 / (1 / tau + (w / C) * sigma_ij)),
        "6": (udot, -(1 / tau + W * sig_u) * u + A + W * sig_u * B),
        "7": (dxdt, -(1 / tau + f_) * x + f_ * A),
        "7a": (tausys, tau / (1 + tau * f_)),
        "8": (x_next, x_i + dt * f8(x_i, x_next)),
        "9": (x_next, (x + dt * f_ * A) / (1 + dt * (1 / tau + f_))),
        "9a": (f_, sp.tanh(gam_r * x + gam * In + mu)),
        "10": (Ci / (gi + (w1 + w2) + (wh1 + wh2)), taui, Ci / (gi + (wh1 + wh2))),
        "11": (taui / (1 + taui * Wi), tausys, taui),
        "12": (sp.Min(0, Amin), xt, sp.Max(0, Amax)),
        "13": (sp.Min(VL, Emin), vt, sp.Max(VL, Emax)),
        "14": (xu, eps),
        "15": (S("xdot"), -(1 / tau + F) * x + A + B * F),
        "16": (tau * (A + B * M) / (1 + tau * M),),
        "17": (sp.sqrt(n_) * C1, xnorm, sp.sqrt(n_) * C2),
        "18": (tausys, 1 / (1 / tau + Wl * sig(Cc * x + mu))),
        "22": (fval, sp.Function("activation")(gam_r * x + gam * In + mu)),
        "23": None,                                           # 'Fused step (= Eq. 9 restated)': compared with eq. 9 at f_val = f
        "24": (yhat, Wout * xnorm + bout),
    }
    row["23"] = tuple(part.subs(fval, f_) for part in body["23"])
    body["23"] = body["9"]
    return row, body


#: (row, row's source label, the body's label for that display, body line, what the row shows, note)
TABLE11_ROWS = (
    ("1", "2018 Eq.1", "2018 Paper (section 2 heading; no equation number)", 27, "formula", "row drops (t) and the sum's limits"),
    ("2", "2018 Eq.2", "2018 Paper (section 2 heading; no equation number)", 48, "formula", ""),
    ("2a", "2018 (inline)", "2018 Paper (section 2 heading; inline)", 63, "formula", ""),
    ("3", "2018 Eq.3", "2018 Paper (section 2 heading; no equation number)", 73, "formula", "row drops (t)"),
    ("4", "2018 Eq.4", "2018 Paper (section 2 heading; no equation number)", 90, "formula", ""),
    ("5", "2018 Eq.5", "2018 Paper (section 2 heading; no equation number)", 100, "formula", ""),
    ("5a", "2018 (inline)", "2018 Paper (section 2 heading; inline)", 104, "formula", ""),
    ("6", "2018 Eq.6", "2018 Paper (section 3 heading; no equation number)", 116, "formula", ""),
    ("7", "2021 Eq.1", "2021 Eq. 1", 141, "formula", ""),
    ("7a", "2021 (inline)", "2021 Paper (section 4 heading; inline)", 158, "formula", ""),
    ("8", "2021 Eq.2", "2021 Eq. 2", 168, "formula", ""),
    ("9", "2021 Eq.3", "2021 Eq. 3", 178, "formula", "row writes f(.) for f(x(t), I(t), t, theta)"),
    ("9a", "2021 (inline)", "2021 Paper (section 4; inline)", 191, "formula", ""),
    ("10", "2018 Eq.40", "2018 Eq. 40", 232, "formula", "row drops the sums' limits (N chemical, P gap)"),
    ("11", "2021 Eq.4", "2021 Eq. 4", 250, "formula", ""),
    ("12", "2021 Eq.5", "2021 Eq. 5", 260, "formula", ""),
    ("13", "2018 Eq.50", "2018 Eq. 50", 272, "formula", "row drops min_{t in I} and max_{t in I}: the arguments do not depend on t, so the same interval"),
    ("14", "2018 Thm.1", "2018 Theorem 1", 284, "formula", ""),
    ("15", "2018 Eq.7", "2018 Eq. 7", 292, "formula", ""),
    ("16", "2018 Eq.10", "2018 Eq. 10-11 (shared by eq. 16 and 17)", 298, "expression only",
     "row gives no formula, only 'State bound via tau(A+BM)/(1+tau M)', the second argument of eq. 16's min and max"),
    ("17", "2018 Eq.11", "2018 Eq. 10-11 (shared by eq. 16 and 17)", 300, "formula", ""),
    ("18", "2018 Eq.16", "2018 Eq. 16", 304, "formula", ""),
    ("19", "2021 Eq.7", "2021 Eq. 7", 314, "name only", "row names the bound ('Neural ODE trajectory length lower bound'); the heading says 'Neural ODE / CT-RNN'"),
    ("20", "2021 Eq.8", "2021 Eq. 8", 318, "name only", "row names the bound ('CT-RNN trajectory length lower bound')"),
    ("21", "2021 Eq.9", "2021 Eq. 9", 322, "name only", "row names the bound ('LTC trajectory length lower bound')"),
    ("22", "Implementation", "Implementation (section 10)", 354, "formula", "row drops the dots of gamma_r . x"),
    ("23", "Implementation", "Implementation (section 10)", 357, "'= Eq. 9 restated'", "eq. 23 with f_val = f is eq. 9 (one step; section 10 applies it L times with f_val frozen)"),
    ("24", "Implementation", "Implementation (section 10)", 360, "formula", "row writes x for x(t + Delta t)"),
)

_TABLE_LINE = {r[0]: 372 + i for i, r in enumerate(TABLE11_ROWS)}


def _label_key(label: str) -> tuple[str, str]:
    """(year, number) of a source label: '2018 Eq.40' -> ('2018', '40'); '2018 Thm.1' -> ('2018', 'thm1')."""
    import re

    year = re.search(r"(2018|2021|Implementation)", label)
    num = re.search(r"Eq\.\s*(\d+)", label)
    thm = re.search(r"(Thm\.|Theorem)\s*(\d+)", label)
    return (year.group(1) if year else "", num.group(1) if num else (f"thm{thm.group(2)}" if thm else ""))


def _table11_check(row_id: str):
    def check(ctx: CheckContext) -> Outcome:
        _, row_label, body_label, body_line, shows, note = next(r for r in TABLE11_ROWS if r[0] == row_id)
        rows, bodies = _table11_parts()
        parts_row, parts_body = rows.get(row_id), bodies.get(row_id)
        ry, rn = _label_key(row_label)
        by, bn = _label_key(body_label)
        label_ok = ry == by and (rn == bn or bn == "" or ("10-11" in body_label and rn in ("10", "11")))
        label_text = f"source '{row_label}' vs body '{body_label}': {'consistent' if label_ok else 'different'}"
        scalars = {"row_label": row_label, "body_label": body_label, "body_line": body_line, "table_line": _TABLE_LINE[row_id], "row_shows": shows}
        if parts_row is None or parts_body is None:
            formula_ok, formula_text = True, "no formula in the row to compare"
        else:
            diffs = [sp.simplify(sp.sympify(a) - sp.sympify(b)) for a, b in zip(parts_row, parts_body)]
            formula_ok = len(parts_row) == len(parts_body) and all(d == 0 for d in diffs)
            formula_text = ("formula matches the body display part by part (" + ", ".join(sp.sstr(p)[:60] for p in parts_row) + ")" if formula_ok
                            else "formula differs: residuals " + ", ".join(sp.sstr(d) for d in diffs))
            scalars["parts"] = len(parts_row)
        msg = f"row {row_id} (line {_TABLE_LINE[row_id]}) vs body line {body_line}: {formula_text}; {label_text}" + (f"; {note}" if note else "")
        if formula_ok and label_ok:
            return Outcome(Verdict.HOLDS, msg, Evidence(scalars=scalars))
        witness = {"row": row_id, "row_label": row_label, "body_label": body_label}
        return Outcome(Verdict.REFUTED, msg, Evidence(scalars=scalars, witness=witness))

    return check


# --------------------------------------------------------------------------- registry
def equation_claims() -> list[Claim]:
    R, H = Verdict.REFUTED, Verdict.HOLDS
    claims = [
        Claim("ltc.eq3.linear_term.tau_sys", f"{SEED002}, section 2, eq. 3 interpretation (line 82), 'gap junctions add a linear term to both the system "
              "time-constant tau_sys and the equilibrium state vector A'",
              "adding a gap junction (eq. 3) to eq. 4 changes tau_sys = C_m/(G_L + w sigma + omega) by a term linear in omega (d^2 tau_sys/d omega^2 = 0)",
              "C_m, G_L, w, sigma, omega > 0", R, "the added term omega/C_m is linear in the rate 1/tau_sys; tau_sys itself is 1/(rate), convex in omega",
              _gap_tau_sys_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq6.drive", f"{SEED002}, eq. 6 (line 116), 'A + W sigma(u(t)) B', and line 127, 'B ... Contains all E_ij values'",
              "eq. 6's drive (W sigma(u))_i B_i equals the summed synaptic drive sum_j W_ij sigma(u_j) E_ij of eq. 5 for every sigma, for some B",
              "two presynaptic neurons into neuron 1, W_1j > 0, E_1j real (table 12: E in [-1, 1])", R,
              "one B_i per neuron can match only when every E_ij = B_i; the sum over j with distinct E_ij does not factor", _eq6_drive_check,
              group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq6.A", f"{SEED002}, eq. 6 parameter list (line 126), 'A ... Contains all V_Leak_i/C_m_i values'",
              "eq. 6's A_i = V_Leak_i/C_m_i equals eq. 5's constant drive V_Leak_i/tau_i = G_Leak_i V_Leak_i/C_m_i",
              "C_m, G_Leak > 0, V_Leak real", R, "they differ by the factor G_Leak: equal only for G_Leak = 1 or V_Leak = 0", _eq6_A_check,
              group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq7.pulls_to_zero.tanh", f"{SEED002}, section 4, eq. 7 'What it does' (line 143), 'a state-dependent decay term -[1/tau + f(.)]x(t) "
              "that pulls the state toward zero'; f = tanh (line 150, eq. 9a)",
              "with f = tanh(.), the rate 1/tau + f is > 0 over table 12's tau in [0.001, 10], so the decay term pulls x toward zero",
              "tau in [0.001, 10] (table 12), f = tanh(z) in (-1, 1)", R, "tanh(z) < -1/tau is possible whenever tau > 1: tau = 10, f = -0.9 gives rate -0.8",
              _pulls_to_zero_tanh_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq9a.shapes", f"{SEED002}, after eq. 9a (line 193), 'gamma in R^{{M x N}} are input weights'; eq. 9a / eq. 22 'gamma I'",
              "with the printed shapes gamma in R^{M x N} and I in R^M, the product gamma I of eq. 9a / eq. 22 is defined",
              "N = 4, M = 3, N_out = 2 (N != M != N_out)", R, "an (M x N) matrix times an M-vector is undefined unless M = N",
              _shapes_check("gamma"), group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq24.shapes", f"{SEED002}, table 12 (line 412), 'W_out | N x N_out', with eq. 24 (line 360), 'W_out . x(t + Delta t)'",
              "with the printed shape W_out in R^{N x N_out} and x in R^N, the product W_out x of eq. 24 is defined",
              "N = 4, M = 3, N_out = 2", R, "an (N x N_out) matrix times an N-vector is undefined unless N = N_out", _shapes_check("W_out"),
              group="ltc", kind=Kind.AS_PRINTED),
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
        Claim("ltc.sec8.larger_bound", f"{SEED002}, section 8 (line 324), 'LTCs have a larger trajectory length lower bound than both Neural ODEs and CT-RNNs.'",
              "eq. 21's bound exceeds eq. 19's and eq. 20's", "d = 1, L = 2, delta t = 2, ||z|| = 0.1, sigma_w = 1.41, sigma_b = 1", R,
              "eq. 21/eq. 19 = ||z||/sigma_w + 1/min(delta t, L) is below 1 when delta t, L > 1 and ||z|| is small", _larger_bound_check,
              group="ltc", kind=Kind.READING,
              reading="'>= O(g)' read as '>= c g' with the same constant c in eq. 19, 20 and 21, so the bounds compare by their ratio"),
    ]
    for row_id, row_label, body_label, body_line, shows, note in TABLE11_ROWS:
        reading = ("min_{t in I}/max_{t in I} of time-independent quantities read as notation only" if row_id == "13" else
                   "'Fused step (= Eq. 9 restated)' read as: eq. 23 with f_val = f is eq. 9" if row_id == "23" else "")
        claims.append(Claim(
            f"ltc.table11.{row_id}", f"{SEED002}, section 11 summary table, row {row_id} (line {_TABLE_LINE[row_id]}), source '{row_label}'",
            f"row {row_id} of the summary table ({shows}) and its source label agree with the body's display (line {body_line}) and heading",
            "row and body formulas transcribed from their LaTeX into SymPy and compared part by part; labels compared by year and equation number",
            H, "no difference found when the tables were read" + (f" ({note})" if note else ""), _table11_check(row_id), group="tables",
            kind=Kind.READING if reading else Kind.AS_PRINTED, reading=reading))
    return claims


add_provider(equation_claims)
