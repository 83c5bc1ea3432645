r"""LTC equation reference (seed 002), sections 2-8: the statements made *about* the
equations (what a parameter does, what a term does, where a bound comes from), checked
in SymPy. Only the statements that hold live here; the refuted ones (eq. 6's A and B,
eq. 7's decay term with tanh, eq. 13 without its initial condition, eq. 16, section 8's
comparison, the parameter shapes) are claims of `nacverify.checks.ltc_model_equations`,
`nacverify.checks.ltc_bounds_2018` and `nacverify.checks.ltc_trajectory_length`, each with its
counterexample.

    C dV/dt = G (V_L - V) + sum_j I_in                                   (1)
    I_s = w sigma (E - V_i),  sigma = 1/(1 + exp(-gamma (V_j + mu)))    (2, 2a)
    I_gap = omega (v_j - v_i)                                            (3)
    dV/dt = (G/C)(V_L - V) + (w/C) sigma (E - V)                         (4)
    tau_system = 1/(1/tau + (w/C) sigma)                                 (5a)
    u' = -(1/tau + W sigma(u)) u + A + W sigma(u) B                      (6)
    C/(g + sum w + sum w_gap) <= tau <= C/(g + sum w_gap)                (10)
    min(V_L, E^min) <= v_i(t) <= max(V_L, E^max)                         (13)
    x' = -(1/tau + F(x)) x + A + B F(x)                                  (15)
"""

from sympy import Rational, Symbol, diff, exp, oo, symbols

from nacverify.claims import Kind
from nacverify.symbolic import HOLDS, REFUTED, SEED002, AllOf, DSolve, Identity, Limit, Obligation, Sign, Solve, Within

# --- symbols ------------------------------------------------------------------------
V, V_L, E, V0, V_j, mu, I_in, v_i, v_j = symbols("V V_L E V_0 V_j mu I_in v_i v_j", real=True)
C_m, G_L, tau, w, t, d = symbols("C_m G_L tau w t d", positive=True)
gamma = Symbol("gamma", real=True, nonzero=True)
sig, omega = symbols("sigma omega", positive=True)
a, b, c, y = symbols("a b c y", nonnegative=True)
y_pos = Symbol("y", positive=True)


def sigmoid(v_pre, gamma=gamma, mu=mu):
    """eq. 2a."""
    return 1 / (1 + exp(-gamma * (v_pre + mu)))


def synapse(v_post, v_pre, w=w, E=E):
    """eq. 2: chemical synaptic current into the postsynaptic neuron."""
    return w * sigmoid(v_pre) * (E - v_post)


def gap(v_to, v_from, omega=omega):
    """eq. 3: gap-junction current into neuron `v_to` from neuron `v_from`."""
    return omega * (v_from - v_to)


# eq. 1 divided by C_m, with a generic input current
eq1_rate = (G_L * (V_L - V) + I_in) / C_m
# eq. 1 without input: V(t) of a leaky RC circuit
rc_solution = V_L + (V0 - V_L) * exp(-G_L * t / C_m)
# eq. 4 as printed (sigma_i(V_j) written out with eq. 2a)
eq4_printed = G_L / C_m * (V_L - V) + w / C_m * sigmoid(V_j) * (E - V)
# eq. 4 with one gap junction added (the current of eq. 3 divided by C_m), sigma a value in (0, 1)
with_gap = G_L / C_m * (V_L - V) + w / C_m * sig * (E - V) + omega * (v_j - V) / C_m
# eq. 5a
tau_system = 1 / (1 / tau + w / C_m * sig)

# eq. 6: n + N = 3 neurons, eq. 1 with eq. 2 synapses from every neuron (self-synapse included);
# sigma(u_j) values s_j > 0 are held as symbols (eq. 6's claims are about the coefficients)
u = symbols("u1:4", real=True)
s = symbols("s1:4", positive=True)
taus = symbols("tau1:4", positive=True)
Ws = [[Symbol(f"W{i}{j}", nonnegative=True) for j in range(1, 4)] for i in range(1, 4)]
Cs = symbols("C1:4", positive=True)
Es = [[Symbol(f"E{i}{j}", real=True) for j in range(1, 4)] for i in range(1, 4)]
VLs = symbols("V_L1:4", real=True)
Bs = symbols("B1:4", real=True)


def network_rate(i):
    """eq. 1 + eq. 2 summed over presynaptic j, divided by C_i, with w_ij = W_ij C_i (W = w/C_m, line 125)
    and G_i = C_i / tau_i (tau = C_m/G_Leak, line 98)."""
    G_i = Cs[i] / taus[i]
    current = G_i * (VLs[i] - u[i]) + sum(Ws[i][j] * Cs[i] * s[j] * (Es[i][j] - u[i]) for j in range(3))
    return current / Cs[i]


def Wsigma(i):
    return sum(Ws[i][j] * s[j] for j in range(3))


# eq. 10 with two chemical synapses (sigma_j = sigma for the attainment limits) and one gap junction
C_i, g = symbols("C g", positive=True)
w1, w2, w_gap = symbols("w1 w2 w_gap", positive=True)
tau_min = C_i / (g + w1 + w2 + w_gap)   # (10a)
tau_max = C_i / (g + w_gap)             # (10b)
tau_of_sigma = C_i / (g + w1 * sig + w2 * sig + w_gap)

# eq. 13: neuron with two chemical synapses, gates s1, s2 in (0, 1), weights >= 0
E1, E2, U = symbols("E1 E2 U", real=True)
wn1, wn2 = symbols("w1 w2", nonnegative=True)
s1, s2 = s[0], s[1]


def bio_rate(v):
    return (G_L * (V_L - v) + wn1 * s1 * (E1 - v) + wn2 * s2 * (E2 - v)) / C_m


# eq. 15, scalar: |F| <= M written F = M c, c = (1 - r)/(1 + r) in (-1, 1] or c = -1
M = Symbol("M", positive=True)
p, r = symbols("p r", nonnegative=True)
c_in = (1 - r) / (1 + r)


def eq15_rate(x, A_, B_, F):
    return -(1 / tau + F) * x + A_ + B_ * F


GROWTH = {}
for xn, xs in (("x_pos", p), ("x_neg", -p)):
    for an, As in (("A_pos", a), ("A_neg", -a)):
        for bn, Bs_ in (("B_pos", b), ("B_neg", -b)):
            for cn, cs in (("F_in", c_in), ("F_min", -1)):
                rate = eq15_rate(xs, As, Bs_, M * cs)
                bound = (1 / tau + M) * p + a + b * M
                GROWTH[f"{xn}_{an}_{bn}_{cn}_upper"] = Sign(bound - rate, ">=")
                GROWTH[f"{xn}_{an}_{bn}_{cn}_lower"] = Sign(bound + rate, ">=")

# eq. 16 corrected: the frozen equilibria x*(F) = tau (A + B F)/(1 + tau F), F in [0, M], run from
# tau A (F = 0) to K = tau (A + B M)/(1 + tau M) (F = M); at any U >= tau A, K the rate is <= 0
# (and at any L <= tau A, K it is >= 0). Parametrised by U = tau A + a = K + k.
k, q = symbols("k q", nonnegative=True)
A_up = (U - a) / tau
B_up = ((U - k) * (1 + tau * M) / tau - A_up) / M
A_lo = (U + a) / tau
B_lo = ((U + k) * (1 + tau * M) / tau - A_lo) / M

# section 8: trajectory-length bounds, ">= O(g)" read as ">= c g" with one c for all three.
# eq. 21 / eq. 19 = ||z||/sigma_w + 1/min(dt, L); for dt <= 1 <= L, min = dt = 1/(1 + y)
znorm, sigma_w, k_depth = Symbol("z_norm", positive=True), Symbol("sigma_w", positive=True), Symbol("dL", positive=True, integer=True)
t_ratio = Symbol("t", positive=True)   # sigma_b = sigma_w t/(1 + t): 0 < sigma_b < sigma_w
dt_small = 1 / (1 + y)
ltc_over_node = znorm / sigma_w + 1 / dt_small
ctrnn_over_node = (1 - t_ratio / (1 + t_ratio)) ** k_depth    # ((sigma_w - sigma_b)/sigma_w)^(d L)

OBLIGATIONS = [
    Obligation(
        "ltc.eq1.cm_slower",
        source=f"{SEED002}, section 2, eq. 1 parameter list (line 34), 'Larger values = slower dynamics.'",
        statement="from eq. 1 with G_Leak, V_Leak and the input current fixed: C_m d(dV/dt)/dC_m = -dV/dt (dV/dt scales as 1/C_m), "
                  "|dV/dt| does not increase with C_m, and the free-decay time-constant C_m/G_Leak increases with C_m (d tau/dC_m = 1/G_Leak > 0)",
        check=AllOf(
            rate_scales_as_inverse_Cm=Identity(C_m * diff(eq1_rate, C_m), -eq1_rate),
            speed_nonincreasing=Sign(-diff(eq1_rate**2, C_m), ">="),
            tau_increasing=Sign(diff(C_m / G_L, C_m), ">"),
        ),
        expect=HOLDS,
        reason="dV/dt = (G (V_L - V) + I)/C_m: the numerator does not involve C_m",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq1.rc_decay",
        source=f"{SEED002}, section 2, eq. 1 interpretation (line 40), 'Without input, V_i(t) -> V_Leak_i exponentially with time-constant tau_i = C_m_i / G_Leak_i'",
        statement="eq. 1 with every I_in = 0 and V(0) = V_0 has the solution V_L + (V_0 - V_L) exp(-G t/C) (dsolve), which satisfies "
                  "V - V_L = (V_0 - V_L) exp(-t/tau) with tau = C_m/G_Leak and tends to V_L as t -> oo",
        check=AllOf(
            dsolve=DSolve(lambda v: G_L / C_m * (V_L - v), t, (0, V0), rc_solution),
            time_constant=Identity(rc_solution - V_L, (V0 - V_L) * exp(-t / (C_m / G_L))),
            limit=Limit(rc_solution, t, oo, V_L),
        ),
        expect=HOLDS,
        reason="a linear first-order ODE with rate G/C_m > 0",
        note="the same line calls G_Leak 'the resistor'; it is a conductance (1/R): a wording slip, not checked",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq2.zero_at_reversal",
        source=f"{SEED002}, section 2, eq. 2 'What it does' (line 50), 'The current is zero when V_i = E_ij.'; sign as in line 57",
        statement="I_s of eq. 2 vanishes at V_i = E_ij for every w, gamma, mu, V_j; for w > 0 it is > 0 for V_i < E_ij "
                  "(excitatory side) and < 0 for V_i > E_ij",
        check=AllOf(
            zero=Identity(synapse(E, V_j), 0),
            positive_below=Sign(synapse(V, V_j), ">", cases=[{V: E - d}]),
            negative_above=Sign(synapse(V, V_j), "<", cases=[{V: E + d}]),
        ),
        expect=HOLDS,
        reason="I_s = w sigma (E - V_i) with w sigma > 0",
        note="V_i = E -+ d, d > 0",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq2.half_activation",
        source=f"{SEED002}, section 2, eq. 2 parameter list (line 56), 'Determines at what presynaptic voltage V_j the synapse is half-activated.'",
        statement="sigma_i(V_j) of eq. 2a equals 1/2 exactly at V_j = -mu_ij (unique solution, gamma != 0): mu fixes the half-activation "
                  "point, at -mu (not +mu, since eq. 2a has V_j + mu_ij)",
        check=Solve(sigmoid(V_j), Rational(1, 2), V_j, expected=-mu),
        expect=HOLDS,
        reason="exp(-gamma (V_j + mu)) = 1 iff V_j = -mu",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq2a.range",
        source=f"{SEED002}, section 2, after eq. 2a (line 65), 'This is a standard logistic sigmoid bounded in (0, 1).'",
        statement="0 < 1/(1 + exp(-gamma (V_j + mu))) < 1 for all real gamma != 0, mu, V_j",
        check=Within(sigmoid(V_j), 0, 1, strict=(True, True)),
        expect=HOLDS,
        reason="exp(.) > 0",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq3.bidirectional",
        source=f"{SEED002}, section 2, eq. 3 'What it does' (line 75), 'Unlike chemical synapses, they are bidirectional and linear.'",
        statement="with omega_ij = omega_ji: I_ij = -I_ji (the current leaving one neuron enters the other) and I_ij is linear in (v_i, v_j): "
                  "I(a v + b v') = a I(v) + b I(v')",
        check=AllOf(
            antisymmetric=Identity(gap(v_i, v_j) + gap(v_j, v_i), 0),
            linear=Identity(gap(a * v_i + b * V, a * v_j + b * E), a * gap(v_i, v_j) + b * gap(V, E)),
        ),
        expect=HOLDS,
        reason="omega (v_j - v_i) is antisymmetric and linear",
        note="(v_i, v_j) and (V, E) two states; a, b >= 0 coefficients (linearity over nonnegative combinations; the identity is polynomial, so it extends to all reals)",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq3.linear_term.rate",
        source=f"{SEED002}, section 2, eq. 3 interpretation (line 82), 'gap junctions add a linear term to both the system time-constant tau_sys and the equilibrium state vector A'",
        statement="adding eq. 3's omega (v_j - V) to eq. 1 (divided by C_m) adds omega/C_m to the decay rate 1/tau_sys and omega v_j/C_m to the drive; "
                  "the rate is linear in omega, and sigma -> 1 / sigma -> 0 give eq. 10's denominators C/(G + w + omega), C/(G + omega)",
        check=AllOf(
            rate=Identity(-diff(with_gap, V), G_L / C_m + w * sig / C_m + omega / C_m),
            drive=Identity(with_gap.subs(V, 0), G_L * V_L / C_m + w * sig * E / C_m + omega * v_j / C_m),
            rate_linear_in_omega=Identity(diff(with_gap, V, omega, omega), 0),
            tau_min=Identity(1 / (-diff(with_gap, V)).subs(sig, 1), C_m / (G_L + w + omega)),
            tau_max=Identity(1 / (-diff(with_gap, V)).subs(sig, 0), C_m / (G_L + omega)),
        ),
        expect=HOLDS,
        reason="the gap current is linear in V with slope -omega/C_m",
        kind=Kind.READING,
        reading="'a linear term to the system time-constant' read as a term linear in omega added to the decay rate 1/tau_sys, and 'to A' as the "
                "term omega v_j/C_m added to the drive (tau_sys itself is not linear in omega: ltc.eq3.linear_term.tau_sys)",
    ),
    Obligation(
        "ltc.eq4.from_eq1",
        source=f"{SEED002}, eq. 4 (line 90) and line 92, 'This is Eq. 1 expanded with one chemical synapse substituted in.'",
        statement="eq. 1 with I_in = I_s of eq. 2 (one synapse, sigma of eq. 2a), divided by C_m, equals eq. 4 as printed",
        check=Identity((G_L * (V_L - V) + synapse(V, V_j)) / C_m, eq4_printed),
        expect=HOLDS,
        reason="divide both terms by C_m",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq5a.monotone",
        source=f"{SEED002}, section 2, eq. 5a interpretation (line 106), 'When presynaptic activity sigma_i(V_j) is large (strong input), the effective "
               "time-constant decreases ... When input is weak, the neuron reverts to its intrinsic time-constant tau_i.'",
        statement="d tau_system/d sigma = -(w/C_m) tau_system^2 < 0 (w, C_m > 0), and tau_system -> tau_i as sigma -> 0+",
        check=AllOf(
            derivative=Identity(diff(tau_system, sig), -(w / C_m) * tau_system**2),
            decreasing=Sign(diff(tau_system, sig), "<"),
            weak_input=Limit(tau_system, sig, 0, tau),
        ),
        expect=HOLDS,
        reason="1/tau_system grows linearly in sigma",
        note="sigma in (0, 1) (eq. 2a); the statement needs w > 0 (line 54: 'Always positive')",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq6.decay",
        source=f"{SEED002}, eq. 6 (line 116), '-(1/tau + W sigma(u(t))) u(t)', with W = w/C_m (line 125)",
        statement="for n + N = 3, eq. 1 with eq. 2 synapses from every neuron j, divided by C_i (w_ij = W_ij C_i, G_i = C_i/tau_i), has the "
                  "coefficient -(1/tau_i + (W sigma(u))_i) on u_i, as in eq. 6",
        check=AllOf(**{f"neuron{i + 1}": Identity(diff(network_rate(i), u[i]), -(1 / taus[i] + Wsigma(i))) for i in range(3)}),
        expect=HOLDS,
        reason="each synapse adds W_ij sigma_j to the decay rate",
        note="sigma(u_j) held as values s_j > 0; eq. 6's sigma has no per-synapse gamma_ij, mu_ij (eq. 2a): read as one sigmoid per presynaptic neuron",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq6.drive.shared_reversal",
        source=f"{SEED002}, eq. 6 (line 116), 'A + W sigma(u(t)) B', A and B of lines 126-127",
        statement="eq. 6's drive A_i + (W sigma(u))_i B_i equals the summed synaptic drive V_L_i/tau_i + sum_j W_ij sigma_j E_ij when "
                  "E_ij = B_i for every j (one reversal potential per postsynaptic neuron) and A_i = V_L_i/tau_i = G_i V_L_i/C_i (n + N = 3)",
        check=AllOf(**{f"neuron{i + 1}": Identity(network_rate(i).subs(u[i], 0).subs({Es[i][j]: Bs[i] for j in range(3)}),
                                                   VLs[i] / taus[i] + Wsigma(i) * Bs[i]) for i in range(3)}),
        expect=HOLDS,
        reason="with one E per row the sum factors as (W sigma)_i B_i",
        kind=Kind.CORRECTION,
    ),
    Obligation(
        "ltc.eq7.pulls_to_zero.sigmoid",
        source=f"{SEED002}, section 4, eq. 7 'What it does' (line 143), 'a state-dependent decay term -[1/tau + f(.)]x(t) that pulls the state toward zero'",
        statement="with f = sigmoid(z) (line 150), the decay rate 1/tau + f is > 0 for every tau > 0 and real pre-activation z, so -(1/tau + f) x "
                  "has the sign of -x",
        check=Sign(1 / tau + 1 / (1 + exp(-Symbol("z", real=True))), ">"),
        expect=HOLDS,
        reason="both terms are positive",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq10.gap_lower",
        source=f"{SEED002}, section 6, eq. 10 'What it does' (line 234), 'Gap junctions always contribute to the lower bound of tau.'",
        statement="each gap weight w_gap enters tau_min of eq. 10a and lowers it (d tau_min/d w_gap = -C/(.)^2 < 0); it lowers tau_max of eq. 10b too "
                  "(d tau_max/d w_gap < 0), so gap junctions lower both bounds, not only the lower one",
        check=AllOf(
            lowers_tau_min=Sign(diff(tau_min, w_gap), "<"),
            lowers_tau_max=Sign(diff(tau_max, w_gap), "<"),
        ),
        expect=HOLDS,
        reason="w_gap appears in both denominators",
        note="two chemical synapses, one gap junction",
        kind=Kind.READING,
        reading="'contribute to the lower bound of tau' read as: gap weights appear in tau_min and decrease it (they also decrease tau_max)",
    ),
    Obligation(
        "ltc.eq10.attainment",
        source=f"{SEED002}, section 6, eq. 10 'What it does' (line 234), 'a minimum (when all chemical synapses are fully active) and a maximum "
               "(when all chemical synapses are silent)'; line 236 '0 < sigma < 1'",
        statement="tau(sigma) = C/(g + (w1 + w2) sigma + w_gap) tends to tau_min as sigma -> 1 and to tau_max as sigma -> 0, and "
                  "tau_min < tau(sigma) < tau_max strictly for sigma in (0, 1): the bounds are limits, never attained",
        check=AllOf(
            fully_active=Limit(tau_of_sigma, sig, 1, tau_min, direction="-"),
            silent=Limit(tau_of_sigma, sig, 0, tau_max),
            strict=Within(tau_of_sigma, tau_min, tau_max, strict=(True, True), cases=[{sig: 1 / (1 + y_pos)}], intervals={sig: (0.0, 1.0)}),
        ),
        expect=HOLDS,
        reason="tau(sigma) is strictly decreasing in sigma when w1 + w2 > 0",
        note="sigma = 1/(1 + y), y > 0 covers (0, 1); every sigma_j = sigma for the limits; w1, w2 > 0",
        kind=Kind.READING,
        reading="'when all chemical synapses are fully active / silent' read as the limits sigma -> 1 / sigma -> 0 (sigma is strictly inside (0, 1), line 236)",
    ),
    Obligation(
        "ltc.eq13.invariant",
        source=f"{SEED002}, eq. 13 (line 272), 'min(V_Leak_i, E_ij^min) <= v_i(t) <= max(V_Leak_i, E_ij^max)'; line 274 'The neuron can never go above "
               "the most excitatory reversal potential or below the most inhibitory one.'",
        statement="for eq. 1 with two eq. 2 synapses (w >= 0, sigma in (0, 1), C_m, G_Leak > 0): at any v = U >= max(V_L, E_1, E_2), dv/dt <= 0, and at "
                  "any v = U <= min(V_L, E_1, E_2), dv/dt >= 0; so [min(V_L, E^min), max(V_L, E^max)] is forward-invariant",
        check=AllOf(
            upper=Sign(bio_rate(U), "<=", cases=[{V_L: U - a, E1: U - b, E2: U - c}]),
            lower=Sign(bio_rate(U), ">=", cases=[{V_L: U + a, E1: U + b, E2: U + c}]),
        ),
        expect=HOLDS,
        reason="at the top every term G (V_L - v), w sigma (E_j - v) is <= 0 (and >= 0 at the bottom)",
        note="V_L = U -+ a, E_j = U -+ b, c with a, b, c >= 0; chemical synapses only; gates s1, s2 > 0",
        kind=Kind.READING,
        reading="eq. 13 read as forward invariance: v_i(t) stays in the interval when v_i(0) lies in it (an assumption eq. 13 omits, "
                "ltc.eq13.outside_start); the min/max over t in I of time-independent quantities is notation only",
    ),
    Obligation(
        "ltc.s6.eq13.never_above_reversal",
        source=f"{SEED002}, section 6 line 274, 'The neuron can never go above the most excitatory reversal potential or below the most "
               "inhibitory one.' (eq. 13's interval also contains V_Leak, line 272)",
        statement="for eq. 1 with two eq. 2 synapses (w >= 0, sigma in (0, 1), C_m, G_Leak > 0), the equilibrium v* = (G_L V_L + w1 s1 E1 + "
                  "w2 s2 E2)/(G_L + w1 s1 + w2 s2), where the state settles, never lies above the most excitatory reversal potential max(E1, E2)",
        check=Sign((G_L * (V_L - U) + wn1 * s1 * (E1 - U) + wn2 * s2 * (E2 - U)).subs({E1: U, E2: U - c, V_L: U + a}), "<="),
        expect=REFUTED,
        reason="the leak pulls towards V_Leak, which the sentence leaves out: with V_Leak above every E_ij the state settles above max E_ij "
               "(eq. 13's own interval includes V_Leak)",
        note="E1 = U = max(E1, E2), E2 = U - c, V_L = U + a, a, c >= 0: dv/dt at v = U is (G_L a - w2 s2 c)/C_m, positive for small c",
        kind=Kind.AS_PRINTED,
    ),
    Obligation(
        "ltc.eq15.growth_bound",
        source=f"{SEED002}, eq. 15 (line 292) and Lemma 1 (line 294), 'For bounded C^1 function F, this has a unique solution on [0, infinity).'",
        statement="for |F| <= M: |x'| <= (1/tau + M)|x| + |A| + |B| M for eq. 15 (scalar or per component, F(x) x elementwise); with F in C^1 "
                  "(locally Lipschitz) this linear growth rules out finite-time blow-up (Gronwall), so the local solution extends to [0, oo)",
        check=AllOf(**GROWTH),
        expect=HOLDS,
        reason="triangle inequality: |1/tau + F| <= 1/tau + M for tau > 0",
        note="cases x = +-p, A = +-a, B = +-b, F = M c with c = (1 - r)/(1 + r) in (-1, 1] or c = -1",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "ltc.eq16.corrected",
        source=f"{SEED002}, eq. 16 (line 298), 'min{{|x_i(0)|, tau(A + BM)/(1 + tau M)}} <= x_i(t) <= max{{...}}'",
        statement="for eq. 15 (scalar, 0 <= F <= M, tau > 0) the interval [min(x(0), tau A, K), max(x(0), tau A, K)], K = tau(A + BM)/(1 + tau M), "
                  "is forward-invariant: the rate is <= 0 at any U >= tau A, K and >= 0 at any U <= tau A, K",
        check=AllOf(
            upper_F_pos=Sign(eq15_rate(U, A_up, B_up, M / (1 + q)), "<="),
            upper_F_zero=Sign(eq15_rate(U, A_up, B_up, 0), "<="),
            lower_F_pos=Sign(eq15_rate(U, A_lo, B_lo, M / (1 + q)), ">="),
            lower_F_zero=Sign(eq15_rate(U, A_lo, B_lo, 0), ">="),
        ),
        expect=HOLDS,
        reason="the frozen equilibria tau(A + BF)/(1 + tau F) run monotonically from tau A (F = 0) to K (F = M)",
        note="U = tau A + a = K + k (top) or U = tau A - a = K - k (bottom), a, k >= 0; F = M/(1 + q) or F = 0",
        kind=Kind.CORRECTION,
    ),
    Obligation(
        "ltc.sec8.larger_bound.small_dt",
        source=f"{SEED002}, section 8 (line 324), 'LTCs have a larger trajectory length lower bound than both Neural ODEs and CT-RNNs.'",
        statement="for delta t <= 1 <= L (table 12: dt in [0.001, 1]) and ||z|| > 0: eq. 21/eq. 19 = ||z||/sigma_w + 1/min(delta t, L) > 1, "
                  "and for 0 < sigma_b < sigma_w: eq. 20/eq. 19 = ((sigma_w - sigma_b)/sigma_w)^(d L) < 1; so eq. 21 > eq. 19 > eq. 20",
        check=AllOf(
            ltc_over_node=Sign(ltc_over_node - 1, ">"),
            ctrnn_under_node=Sign(1 - ctrnn_over_node, ">", along=(t_ratio, 0)),
        ),
        expect=HOLDS,
        reason="1/min(dt, L) = 1/dt >= 1 when dt <= 1 <= L",
        note="delta t = 1/(1 + y), y >= 0; sigma_b = sigma_w t/(1 + t), t > 0; dL = d x L a positive integer",
        kind=Kind.CORRECTION,
    ),
]
