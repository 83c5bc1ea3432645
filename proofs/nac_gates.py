"""NAC gates and what they can express: the heads eq. 15-16 (001/000), the steady
logit eq. 18 and its scaled-dot-product reading, the shared-gate parameterisation of the
public implementation (../shared/reference/REFERENCE_IMPLEMENTATION.md:
phi = sigmoid(x), omega = softplus(x) + eps from ONE backbone output x), and the
construction of Theorem 2 (001 B.3, eq. 42-44; 000 eq. 52-54).

    phi   = sigma(NN(u))              (15)      sigma(x) = 1/(1 + e^{-x})
    omega = softplus(NN(u)) + eps     (16)      softplus(x) = log(1 + e^x), eps > 0
    a*    = phi / omega  (~ q.k / sqrt(d_k) in 001)   (18)
"""

from sympy import E, Max, Min, Rational, Symbol, diff, exp, log, oo, sqrt, symbols

from nacverify.symbolic import (
    HOLDS, REFUTED, SEED000, SEED001, AllOf, Identity, Limit, Obligation, Sign, Solve, Within,
)

x, x1, x2, z, qk, w, b, v, a, delta_z = symbols("x x1 x2 z qk w b v a Delta", real=True)
eps = Symbol("epsilon", nonnegative=True)
eps_pos = Symbol("epsilon", positive=True)
d_k = Symbol("d_k", positive=True)
p = Symbol("p", positive=True)
omega_target = Symbol("omega_target", positive=True)  # a value the time-constant head is asked to take
j = Symbol("j", integer=True, nonnegative=True)
y, s_ = symbols("y s", positive=True)
lam, ell = symbols("lambda ell", real=True)   # ray parameter and c.[q0; k0] (eq. 18 scaling argument)


def sigmoid(x):
    return 1 / (1 + exp(-x))


def softplus(x):
    return log(1 + exp(x))


steady_shared = sigmoid(x) / (softplus(x) + eps)               # a* with one shared output x
steady_separate = sigmoid(x1) / (softplus(x2) + eps_pos)        # a* with two heads
K = 2 + j                                                        # K >= 2 keys
ceiling = E / (E + K - 1)                                        # e^1 / (e^1 + (K - 1) e^0)
# top softmax weight with logits in (0, 1): e^{a1} = e/(1 + y) (a1 < 1), sum_{j>=2} e^{aj} = (K-1)(1 + s) (aj > 0)
top_weight = (E / (1 + y)) / (E / (1 + y) + (K - 1) * (1 + s_))
omega_one_x = log(exp(1 - eps_pos) - 1)                         # softplus(x) + eps = 1
single_key_output = exp(a) / exp(a) * v                          # T = 1: softmax over one key, times v

# Euler mode of the reference implementation: a = 0, then 5 times a = a + delta_t (-omega a + phi), delta_t = 0.5,
# with phi = sigmoid(x), omega = softplus(x) + tau_epsilon (tau_epsilon = 1e-6)
TAU_EPSILON, DELTA_T, EULER_STEPS = Rational(1, 10**6), Rational(1, 2), 5
phi_ref, omega_ref = sigmoid(x), softplus(x) + TAU_EPSILON
A_ref = phi_ref / omega_ref
euler_logit = A_ref * (1 - (1 - DELTA_T * omega_ref) ** EULER_STEPS)   # closed form of the 5-step loop from a = 0

OBLIGATIONS = [
    Obligation(
        "nac.gates.shared.steady_range",
        kind="implementation",
        source=f"{SEED001}, eq. 15-16 and 18, with the shared output x of the public implementation",
        statement="0 < sigma(x)/(softplus(x) + eps) < 1 for every real x and eps >= 0; the supremum 1 is approached as x -> -oo (eps = 0)",
        check=AllOf(
            bounds=Within(steady_shared, 0, 1, strict=(True, True), along=(x, -oo)),
            sup=Limit(steady_shared.subs(eps, 0), x, -oo, 1),
            inf=Limit(steady_shared, x, oo, 0),
        ),
        expect=HOLDS,
        reason="softplus(x) + eps - sigma(x) tends to eps >= 0 at -oo and has derivative sigma(x)^2 > 0; the steady logit of the reference "
               "implementation lives in (0, 1)",
    ),
    Obligation(
        "nac.gates.shared.max_softmax_weight",
        kind="implementation",
        source=f"{SEED001}, eq. 18 and softmax after eq. 17, shared gate; reference implementation topk = 8",
        statement="with steady logits in (0, 1) the largest softmax weight over K keys is below e/(e + K - 1) (0.2797 for K = 8)",
        check=Sign(ceiling - top_weight, ">"),
        expect=HOLDS,
        reason="the weight grows with its own logit (< 1) and falls with the others (> 0); at the corner it is e/(e + K - 1)",
        note="K = 2 + j; e^{a1} = e/(1 + y), sum of the other K - 1 exponentials = (K - 1)(1 + s), y, s > 0",
    ),
    Obligation(
        "nac.eq18.shared_gate_matches_attention",
        kind="implementation",
        source=f"{SEED001}, eq. 18 and text ('analogous to scaled-dot attention'); {SEED000}, eq. 18",
        statement="steady NAC with the shared gate reproduces scaled-dot-product attention: for two keys with score gap Delta = (q.k1 - q.k2)/sqrt(d), "
                  "the top weight 1/(1 + e^{-|Delta|}) never exceeds the shared-gate ceiling e/(e + 1)",
        check=Sign(E / (E + 1) - sigmoid(delta_z), ">=", where=lambda q: q["Delta"] >= 0),
        expect=REFUTED,
        reason="logit differences are confined to (-1, 1), so any score gap above 1 (a top weight above 0.731) is out of reach; "
               "000 concedes 'phi cannot reproduce exact dot products'",
    ),
    Obligation(
        "nac.eq18.scaled_dot_identity",
        kind="lemma",
        source=f"{SEED001}, eq. 18 and the sentence after it",
        statement="our algebraic step, not a statement of the document: substituting phi = q.k and omega = sqrt(d_k) into a* = phi/omega "
                  "gives q.k/sqrt(d_k)",
        check=Identity((qk) / sqrt(d_k), qk / sqrt(d_k)),
        expect=HOLDS,
        reason="a substitution, true by construction; what 001 asserts is that such phi and omega are reachable "
               "(nac.eq18.sigmoid_phi_reachable, nac.eq18.omega_sqrt_dk)",
    ),
    Obligation(
        "nac.eq18.omega_sqrt_dk",
        kind="reading",
        reading="eq. 16's eps read as the small stabiliser it is (eps < sqrt(d_k); the reference implementation's 1e-6), the backbone "
                "output for omega a constant x (weights zero, bias x)",
        source=f"{SEED001}, eq. 16 and the sentence after eq. 18: 'omega_tau(u) = sqrt(d_k)'",
        statement="omega_tau = softplus(x) + eps (eq. 16) equals sqrt(d_k) at x = log(e^(sqrt(d_k) - eps) - 1), which is real "
                  "(sqrt(d_k) - eps > 0) for every d_k >= 1 and 0 < eps < 1",
        check=AllOf(
            solves=Solve(softplus(x) + eps_pos, sqrt(d_k), x, expected=log(exp(sqrt(d_k) - eps_pos) - 1)),
            real=Sign(sqrt(d_k) - eps_pos, ">", cases=[{d_k: (1 + y) ** 2, eps_pos: 1 / (1 + s_)}],
                      intervals={d_k: (1.0, 1024.0), eps_pos: (1e-9, 0.999)}),
        ),
        expect=HOLDS,
        note="d_k = (1 + y)^2 >= 1 and eps = 1/(1 + s) < 1 with y, s > 0 cover the reading's domain",
        reason="softplus maps R onto (0, oo), so softplus(x) + eps fills (eps, oo), which holds sqrt(d_k) >= 1 > eps; "
               "eq. 16 leaves eps unbounded, and for eps >= sqrt(d_k) the value is out of reach",
    ),
    Obligation(
        "nac.eq18.sigmoid_phi_reachable",
        kind="as-printed",
        source=f"{SEED001}, eq. 18 and the sentence after it: 'the backbone NN_backbone is configured as a linear projection such that "
               f"phi(u) = q^T k ... (e.g., by setting NCP weights to emulate bilinear forms and disabling nonlinearities)'",
        statement="in 001's own setting (nonlinearities disabled, so phi(u) = c.u + b is an affine map of u = [q; k]) phi can equal q.k "
                  "for all q, k: on every ray u = lambda [q0; k0] the affine map is lambda ell + b (ell = c.[q0; k0]) and must equal "
                  "(lambda q0).(lambda k0) = lambda^2 qk, qk = q0.k0, so both sides have the same second lambda-derivative",
        check=Identity(diff(lam * ell + b, lam, 2), diff(lam**2 * qk, lam, 2), hints=({qk: 2},)),
        expect=REFUTED,
        reason="scaling q and k by lambda scales an affine map of [q; k] by lambda (second derivative 0) and q.k by lambda^2 (second "
               "derivative 2 q.k): no affine (or linear) projection, with any weights, equals the bilinear q.k unless q.k = 0; "
               "counterexample q = k = (1, 1), q.k = 2. A linear NCP unrolled from a zero state is still affine in u, so "
               "'disabling nonlinearities' rules the parameterization out",
        note="any d: restrict u to the ray lambda [q0; k0]; ell = c.[q0; k0] and qk = q0.k0 are scalars, lambda real",
        over=(lam, ell),
    ),
    Obligation(
        "nac.eq18.separate_heads_range",
        kind="reading", reading="eq. 15-16 read with two separate backbone outputs x1 (for phi) and x2 (for omega), the 'separate head layers' of Section 2.2",
        source=f"{SEED001}, eq. 15-16 and 18 with two separate head outputs",
        statement="with separate outputs, phi = sigma(x1), omega = softplus(x2) + eps give steady logits filling (0, 1/eps): "
                  "up to softmax's shift invariance every logit spread below 1/eps is reachable",
        check=AllOf(
            bounds=Within(steady_separate, 0, 1 / eps_pos, strict=(True, True)),
            phi_sup=Limit(sigmoid(x1), x1, oo, 1),
            sup=Limit(1 / (softplus(x2) + eps_pos), x2, -oo, 1 / eps_pos),
            inf=Limit(steady_separate, x1, -oo, 0),
        ),
        expect=HOLDS,
        reason="sigma(x1) fills (0, 1), softplus(x2) + eps fills (eps, oo); the ratio is continuous on a connected domain",
    ),
    Obligation(
        "nac.eq15_16.separate_heads_pairs",
        kind="reading",
        reading="Section 2.2's 'separate head layers' (the 'branches that compute phi and omega_tau' of Figure 1(c)): eq. 15-16 "
                "applied to two separate backbone outputs x1 (for phi) and x2 (for omega)",
        source=f"{SEED001}, Section 2.2: '(i) separate head layers enable the system to capture temporal and structural dependencies "
               f"independently' (000: the paragraph after eq. 13)",
        statement="with separate outputs x1(u), x2(u) of a shared representation of dimension >= 2 (eq. 14's output is the motor "
                  "group N_m), any pair of functions phi(u) in (0, 1), omega(u) > eps is produced, each head set on its own as a "
                  "function of the input: x1 = logit(phi(u)), x2 = log(e^(omega(u) - eps) - 1) at every u (so omega = 1 while phi "
                  "varies, as the Theorem 2 proof needs)",
        check=AllOf(
            phi_any=Identity(sigmoid(log(p / (1 - p))), p, intervals={p: (0.0, 1.0)}, where=lambda q: 0 < q["p"] < 1),
            omega_any=Identity(softplus(log(exp(omega_target - eps_pos) - 1)) + eps_pos, omega_target,
                               intervals={omega_target: (0.0, 20.0), eps_pos: (0.0, 0.5)},
                               where=lambda q: q["omega_target"] > q.get("epsilon", 0.0) + 1e-3),
        ),
        expect=HOLDS,
        reason="sigma and softplus are bijections onto (0, 1) and (0, oo), and the two heads read different outputs; the identities "
               "hold at every value, so at every input u. With one-dimensional shared output, two separate heads still tie phi to "
               "omega (phi = sigma(a log(e^(omega - eps) - 1) + c)): the dimension >= 2 is needed",
        note="pointwise identities at sampled (phi, omega, eps): a function pair is the same identity at each u",
    ),
    Obligation(
        "nac.eq15_16.shared_output_as_printed",
        # a lemma (issue 43): eq. 15-16 define the heads and assert nothing; the 'one shared output' reading contradicts the
        # backbone sentence's own 'separate head layers', so this fact is context for it, never an accusation
        kind="lemma",
        source=f"{SEED001}, Section 2.2, eq. 15-16 and '(i) separate head layers enable the system to capture temporal and "
               f"structural dependencies independently' (000: eq. 15-16 and the paragraph after eq. 13)",
        statement="with phi = sigma(NN_backbone(u)) and omega = softplus(NN_backbone(u)) + eps from one output, fixing omega "
                  "still lets phi take any value p in (0, 1)",
        check=Identity(sigmoid(log(exp(omega_target - eps_pos) - 1)), p,
                       intervals={p: (0.0, 1.0), omega_target: (0.0, 20.0), eps_pos: (0.0, 0.5)},
                       where=lambda q: 0 < q["p"] < 1 and q["omega_target"] > q.get("epsilon", 0.0) + 1e-3),
        expect=REFUTED,
        reason="omega fixes the shared output x = log(e^(omega - eps) - 1) and so phi = 1 - e^(eps - omega): the content gate is a "
               "strictly increasing function of the time constant, and nothing is set independently",
    ),
    Obligation(
        "nac.gates.shared.euler_mode_interval",
        kind="implementation",
        source=f"{SEED001}, Theorem 1 eq. 5 and eq. 2, with the reference implementation's euler mode (delta_t = 0.5, euler_steps = 5)",
        statement="the euler-mode logit a_5 of the shared gate (a_0 = 0, five steps of eq. 2) stays in Theorem 1's interval [0, A], A = phi/omega",
        check=Within(euler_logit, Min(0, A_ref), Max(0, A_ref)),
        expect=REFUTED,
        reason="omega = softplus(x) + eps exceeds 1/delta_t = 2 once x > 1.85, and the Euler steps overshoot A "
               "(nac.thm1.euler.step_condition.single); for omega > 4 the iteration even grows",
        note="a_5 = A (1 - (1 - delta_t omega)^5), the five-step loop from a = 0",
    ),
    Obligation(
        "nac.thm2.shared_omega_one",
        kind="implementation",
        source=f"{SEED001}, Theorem 2 proof, eq. 42-43 (000: eq. 52-53), with the shared output x of the public implementation",
        statement="with phi = sigma(x), omega = softplus(x) + eps from one output x, fixing omega = 1 still lets phi take any target p in (0, 1)",
        check=AllOf(
            omega_one=Solve(softplus(x) + eps_pos, 1, x, expected=omega_one_x),
            phi_free=Identity(sigmoid(omega_one_x), p, intervals={p: (0.0, 1.0), eps_pos: (0.0, 0.5)}, where=lambda q: 0 < q["p"] < 1),
        ),
        expect=REFUTED,
        reason="softplus is injective: omega = 1 forces x = log(e^{1-eps} - 1) and so phi = 1 - e^{-(1-eps)} (0.632 for eps -> 0); "
               "the construction needs two separate heads",
    ),
    Obligation(
        "nac.thm2.separate_omega_one",
        kind="reading", reading="eq. 42-43 read with two separate backbone outputs x1, x2",
        source=f"{SEED001}, Theorem 2 proof, eq. 42-43 (000: eq. 52-53), two separate head outputs",
        statement="with separate outputs x1, x2: omega = softplus(x2) + eps = 1 is solvable (eps < 1) and phi = sigma(x1) = p for every p in (0, 1)",
        check=AllOf(
            omega_one=Solve(softplus(x2) + eps, 1, x2, expected=log(exp(1 - eps) - 1)),
            phi_any=Solve(sigmoid(x1), p, x1, expected=log(p / (1 - p))),
        ),
        expect=HOLDS,
        reason="each head inverts on its own range: x2 = log(e^{1-eps} - 1) (real for eps < 1), x1 = logit(p)",
        note="eps < 1 (the implementation's tau_epsilon is 1e-6)",
    ),
    Obligation(
        "nac.thm2.single_key_head_output",
        kind="as-printed",
        source=f"{SEED001}, Theorem 2 proof, 'Attention Weights and output' (000: after eq. 53)",
        statement="for T = 1 the head output y = alpha v with v = 1 equals sigma(w x + b), so the head emulates a sigmoid unit",
        check=AllOf(
            logit_drops_out=Identity(single_key_output.diff(a), 0),
            emulates_sigmoid=Identity(single_key_output.subs(v, 1), sigmoid(w * x + b)),
        ),
        expect=REFUTED,
        reason="softmax over a single key is identically 1, so y = v whatever the logit a = phi/omega is: phi never reaches "
               "the output and the construction does not emulate sigma(w x + b)",
    ),
]
