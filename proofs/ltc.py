"""LTC equations (seed 002): the single-neuron reformulation (eq. 4-5a), the abstract
LTC ODE (eq. 7, 7a), the fused semi-implicit step (eq. 8-9), the state bound (eq. 12)
under the fused step, and the time-constant bounds (eq. 10, 11 and section 15).

    dV/dt = (G_L/C_m)(V_L - V) + (w/C_m) sigma (E - V)                              (4)
    dV/dt = -(1/tau + (w/C_m) sigma) V + (V_L/tau + (w/C_m) sigma E),  tau = C_m/G_L  (5)
    tau_system = 1 / (1/tau + (w/C_m) sigma)                                        (5a)
    dx/dt = -x/tau + S,  S = f (A - x)   =>  dx/dt = -[1/tau + f] x + f A          (7)
    tau_sys = tau / (1 + tau f)                                                     (7a)
    x_{n+1} = x_n + dt (-(1/tau + f) x_{n+1} + f A)      (8: x linear in f's argument implicit)
    x_{n+1} = (x_n + dt f A) / (1 + dt (1/tau + f))                                 (9)
    min(0, A) <= x <= max(0, A)                                                     (12)
"""


from sympy import Max, Min, Symbol, symbols, tanh

from nacverify.claims import Kind
from nacverify.symbolic import (
    HOLDS, REFUTED, SEED002, AllOf, Identity, Obligation, Sign, Solve, Within,
)

V, V_L, E, A, x_n, z = symbols("V V_L E A x_n z", real=True)
C_m, G_L, tau, dt, n, y = symbols("C_m G_L tau dt n y", positive=True)
w_syn, sig, f, p, alpha, beta, r = symbols("w sigma f p alpha beta r", nonnegative=True)
x_next = Symbol("x_next", real=True)
f_r = Symbol("f", real=True)
g_leak, C_i, W = symbols("g C W", positive=True)
w1, w2, w_gap, z1, z2, q = symbols("w1 w2 w_gap z1 z2 q", nonnegative=True)
ws1, ws2 = symbols("w1 w2", real=True)

# --- eq. 4 -> 5 ---------------------------------------------------------------------
eq4 = G_L / C_m * (V_L - V) + w_syn / C_m * sig * (E - V)
eq5 = -(1 / tau + w_syn / C_m * sig) * V + (V_L / tau + w_syn / C_m * sig * E)
tau_def = {G_L: C_m / tau}                                  # tau = C_m / G_L

# --- eq. 7, 9 -----------------------------------------------------------------------
def ltc_rhs(x, f=f):
    """eq. 7 right-hand side (f evaluated at the old state)."""
    return -(1 / tau + f) * x + f * A


def fused_step(x, f=f, dt=dt):
    """eq. 9."""
    return (x + dt * f * A) / (1 + dt * (1 / tau + f))


# fused step with f = tanh(z) in (-1, 1), for the interval question
tanh_step = fused_step(x_n, tanh(z))

# --- eq. 10: two chemical synapses, one gap junction, sigma_j = 1/(1 + z_j) in (0, 1] ---
tau_bio = C_i / (g_leak + w1 / (1 + z1) + w2 / (1 + z2) + w_gap)

# eq. 12 under eq. 9, f >= 0: cases A = p >= 0 or A = -n < 0, with the state written against the bound it must respect
STATE_CASES = {
    "lower_A_pos": (fused_step(alpha, f) - 0, {A: p}),                 # x_n = alpha >= 0 = m
    "upper_A_pos": (p - fused_step(p - beta, f), {A: p}),              # x_n = p - beta <= p = M
    "lower_A_neg": (fused_step(-n + alpha, f) + n, {A: -n}),           # x_n = -n + alpha >= -n = m
    "upper_A_neg": (0 - fused_step(-beta, f), {A: -n}),                # x_n = -beta <= 0 = M
}

OBLIGATIONS = [
    Obligation(
        "ltc.eq4_to_5",
        source=f"{SEED002}, eq. 4 -> eq. 5",
        statement="with tau = C_m/G_L, eq. 4 equals -(1/tau + (w/C_m) sigma) V + (V_L/tau + (w/C_m) sigma E)",
        check=Identity(eq4.subs(tau_def), eq5),
        expect=HOLDS,
        reason="collect the V terms",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq5a.tau_system",
        source=f"{SEED002}, eq. 5a",
        statement="the decay rate of eq. 5 is 1/tau_system = 1/tau + (w/C_m) sigma",
        check=Identity(-eq5.diff(V), 1 / (1 / (1 / tau + w_syn / C_m * sig))),
        expect=HOLDS,
        reason="coefficient of -V in eq. 5",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq7.from_S",
        source=f"{SEED002}, eq. 7 and its derivation context",
        statement="-x/tau + f (A - x) = -[1/tau + f] x + f A",
        check=Identity(-x_n / tau + f * (A - x_n), ltc_rhs(x_n)),
        expect=HOLDS,
        reason="distribute and collect x",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq7a.tau_sys",
        source=f"{SEED002}, eq. 7a",
        statement="tau_sys = tau/(1 + tau f) is the reciprocal of the decay rate 1/tau + f of eq. 7",
        check=Identity(tau / (1 + tau * f), 1 / (-ltc_rhs(x_n).diff(x_n))),
        expect=HOLDS,
        reason="1/(1/tau + f) = tau/(1 + tau f)",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq9.fused_solve",
        source=f"{SEED002}, eq. 8 -> eq. 9",
        statement="solving x_{n+1} = x_n + dt(-(1/tau + f) x_{n+1} + f A) for x_{n+1} gives eq. 9",
        check=Solve(x_next, x_n + dt * ltc_rhs(x_next), x_next, expected=fused_step(x_n)),
        expect=HOLDS,
        reason="the fused step is linear in x_{n+1}",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq9.state_bound_nonnegative_f",
        source=f"{SEED002}, eq. 9 with eq. 12",
        statement="for f >= 0 and every dt > 0, x_n in [min(0, A), max(0, A)] implies x_{n+1} of eq. 9 in the same interval",
        check=AllOf(**{name: Sign(expr, ">=", cases=[case]) for name, (expr, case) in STATE_CASES.items()}),
        expect=HOLDS,
        reason="x_{n+1} = (1 x_n + dt f A + (dt/tau) 0)/(1 + dt f + dt/tau) is a convex combination of x_n, A and 0",
        note="f >= 0 (sigmoid); cases A = p >= 0, A = -n < 0",
        kind=Kind.READING,
        reading="section 15's 'bounds naturally prevent state explosion (Eq. 12)' read as: one fused step eq. 9 maps eq. 12's interval into itself; f >= 0 (sigmoid)",
    ),
    Obligation(
        "ltc.eq9.state_bound_tanh",
        source=f"{SEED002}, eq. 9 with eq. 9a (f = tanh) and eq. 12",
        statement="with f = tanh(.) in (-1, 1) and every dt > 0, x_n in [min(0, A), max(0, A)] implies x_{n+1} of eq. 9 in the same interval",
        check=Within(tanh_step, Min(0, A), Max(0, A), where=lambda c: min(0, c["A"]) <= c["x_n"] <= max(0, c["A"])),
        expect=REFUTED,
        reason="a negative f drives the state away from A: already from x_n = 0 the step is dt f A / (1 + dt(1/tau + f)), of the sign "
               "opposite to A (the ODE eq. 7 leaves the interval too); eq. 12 needs f >= 0",
        note="x_n in [min(0, A), max(0, A)]",
        kind=Kind.READING,
        reading='same reading as ltc.eq9.state_bound_nonnegative_f with f = tanh (eq. 9a)',
    ),
    Obligation(
        "ltc.eq10.bounds",
        source=f"{SEED002}, eq. 10, 10a, 10b",
        statement="C/(g + sum w + sum w_gap) <= C/(g + sum w_j sigma_j + sum w_gap) <= C/(g + sum w_gap) (two chemical synapses, one gap junction)",
        check=Within(tau_bio, C_i / (g_leak + w1 + w2 + w_gap), C_i / (g_leak + w_gap)),
        expect=HOLDS,
        reason="the denominator grows with each sigma_j in (0, 1) and w_j >= 0",
        note="sigma_j = 1/(1 + z_j) with z_j >= 0",
        kind=Kind.READING,
        reading='tau_i of eq. 10 read as the synaptically modulated time-constant C/(g + sum_j w_j sigma_j + sum w_gap) with sigma_j in (0, 1), w_j >= 0 (002 never writes this expression; its tau_i elsewhere is C_m/G_Leak); instance with two chemical synapses and one gap junction',
    ),
    Obligation(
        "ltc.eq11.bounds_nonnegative_f",
        source=f"{SEED002}, eq. 11 (line 250), 'tau_i/(1 + tau_i W_i) <= tau_sys_i <= tau_i'",
        statement="the suite's correction of eq. 11: under the suite's added hypothesis 0 <= f <= W (002 never states it; 002's own f is "
                  "sigmoid or tanh(gamma_r x + gamma I + mu), eq. 9a, which need not satisfy it, see ltc.eq11.own_f.*), "
                  "tau/(1 + tau W) <= tau/(1 + tau f) <= tau",
        check=Within(tau / (1 + tau * f), tau / (1 + tau * W), tau, cases=[{f: W / (1 + q)}, {f: 0}]),
        expect=HOLDS,
        reason="tau/(1 + tau f) decreases in f; the hypothesis 0 <= f <= W is the suite's, not 002's",
        note="f = W/(1 + q), q >= 0, or f = 0 (the suite's assumption 0 <= f <= W)",
        kind=Kind.CORRECTION,
    ),
    Obligation(
        "ltc.eq11.signed_weights",
        source=f"{SEED002}, eq. 11 with W_i = sum_j |w_ij|",
        statement="for f = w1 sigma1 + w2 sigma2 with signed weights and W = |w1| + |w2|: tau/(1 + tau W) <= tau_sys <= tau",
        check=Within(tau / (1 + tau * (ws1 * sig + ws2 * q)), tau / (1 + tau * (abs(ws1) + abs(ws2))), tau,
                     intervals={sig: (0.0, 1.0), q: (0.0, 1.0)},
                     where=lambda c: 1 + c["tau"] * (c["w1"] * c["sigma"] + c["w2"] * c["q"]) > 0),
        expect=REFUTED,
        reason="|w| in W allows negative weights; then f < 0 and tau_sys = tau/(1 + tau f) > tau: the upper bound needs f >= 0",
        note="sigma1 = sigma, sigma2 = q in [0, 1]; 1 + tau f > 0",
        kind=Kind.READING,
        reading='f read as sum_j w_ij sigma_j with signed weights w_ij, W_i = sum_j |w_ij| as printed (002 defines W_i but never writes f in terms of w_ij)',
    ),
    Obligation(
        "ltc.sec15.tanh_tau_sys",
        source=f"{SEED002}, section 15 'Numerical Stability'",
        statement="with f = tanh(.) in [-1, 1], tau_sys = tau/(1 + tau f) lies in [tau/(1 + tau), tau/(1 - tau)]",
        check=Within(tau / (1 + tau * tanh(z)), tau / (1 + tau), tau / (1 - tau)),
        expect=REFUTED,
        reason="true only for tau < 1; for tau >= 1 (the seed's table allows tau up to 10) 1 + tau f vanishes at f = -1/tau and "
               "tau/(1 - tau) is negative",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.sec15.tanh_tau_sys_small_tau",
        source=f"{SEED002}, section 15 'Numerical Stability'",
        statement="for tau < 1 and f in (-1, 1]: tau/(1 + tau) <= tau/(1 + tau f) < tau/(1 - tau)",
        check=Within(tau / (1 + tau * f_r), tau / (1 + tau), tau / (1 - tau), strict=(False, True),
                     cases=[{tau: 1 / (1 + y), f_r: (1 - r) / (1 + r)}],
                     intervals={tau: (0.0, 0.999), f_r: (-0.999, 0.999)}),
        expect=HOLDS,
        reason="1 + tau f stays in (1 - tau, 1 + tau), positive when tau < 1",
        note="tau = 1/(1 + y), y > 0; f = (1 - r)/(1 + r), r >= 0 covers (-1, 1]",
        kind=Kind.CORRECTION,
    ),
    Obligation(
        "ltc.sec15.sigmoid_tau_sys",
        source=f"{SEED002}, section 15 'Numerical Stability'",
        statement="with f = sigmoid(.) in (0, 1): tau_sys = tau/(1 + tau f) lies in [tau/(1 + tau), tau]",
        check=Within(tau / (1 + tau * f), tau / (1 + tau), tau, cases=[{f: 1 / (1 + y)}]),
        expect=HOLDS,
        reason="tau/(1 + tau f) decreases in f >= 0",
        note="f = 1/(1 + y), y > 0",
        kind=Kind.AS_PRINTED,
    ),
]
