"""Locality-weighted attention (seed 003): the density rho(t, delta), the log-density
bias on the logits, and the claim that the window delta "is learned during training via
gradient descent through the rho computation (which is differentiable with respect to
delta)".

    rho(t, delta) = |{e in E : |t_e - t| < delta}| / (2 delta)
    LocalAttn = softmax(Q K^T / sqrt(d_k) + log(rho_ij + eps)) V

Between jumps the count n_ij is constant, so rho_ij = n_ij / (2 delta); the gradient is
derived for one query row with three keys (scores s_j, counts n_j):

    z_j = s_j + log(rho_j + eps),  alpha_1 = e^{z_1} / sum_j e^{z_j}
    d alpha_1 / d delta = alpha_1 (g_1 - sum_k alpha_k g_k),  g_j = -rho_j / (delta (rho_j + eps))
"""

from sympy import Heaviside, Symbol, exp, log, symbols

from nacverify.claims import Kind
from nacverify.symbolic import HOLDS, REFUTED, SEED003, Identity, Limit, Obligation, Sign

delta = Symbol("delta", positive=True)
d = Symbol("d", positive=True)                      # distance |t_e - t| of one event
y = Symbol("y", positive=True)                      # approach to the jump: delta = d -+ y
eps = Symbol("epsilon", nonnegative=True)
n1, n2, n3 = symbols("n1 n2 n3", integer=True, positive=True)
s1, s2, s3 = symbols("s1 s2 s3", real=True)
n = Symbol("n", integer=True, positive=True)

counts, scores = (n1, n2, n3), (s1, s2, s3)
rho = [nj / (2 * delta) for nj in counts]
logits = [sj + log(rj + eps) for sj, rj in zip(scores, rho)]
weights = [exp(zj) / sum(exp(zk) for zk in logits) for zj in logits]
g = [-rj / (delta * (rj + eps)) for rj in rho]
grad_formula = weights[0] * (g[0] - sum(ak * gk for ak, gk in zip(weights, g)))
grad_alpha1 = weights[0].diff(delta)
grad_alpha1_eps0 = weights[0].subs(eps, 0).diff(delta)

# the printed setting: eps fixed > 0.  h_j = eps / (rho_j + eps) in (0, 1]; g_j = -(1 - h_j)/delta
eps_pos = Symbol("epsilon", positive=True)
logits_fixed = [sj + log(rj + eps_pos) for sj, rj in zip(scores, rho)]
weights_fixed = [exp(zj) / sum(exp(zk) for zk in logits_fixed) for zj in logits_fixed]
h = [eps_pos / (rj + eps_pos) for rj in rho]
grad_fixed = weights_fixed[0].diff(delta)
grad_fixed_h_form = weights_fixed[0] / delta * (h[0] - sum(ak * hk for ak, hk in zip(weights_fixed, h)))

# key 3 with an empty midpoint window (n_3 = 0): its bias is log(eps), independent of delta
logits_empty = [s1 + log(rho[0] + eps_pos), s2 + log(rho[1] + eps_pos), s3 + log(eps_pos)]
weights_empty = [exp(zj) / sum(exp(zk) for zk in logits_empty) for zj in logits_empty]
grad_empty = weights_empty[0].diff(delta)
grad_empty_h_form = weights_empty[0] / delta * (h[0] * (1 - weights_empty[0]) - weights_empty[1] * h[1] - weights_empty[2])

# LIF neuron tau V' = -V + I, reset to 0 at threshold theta < I: rate 1 / (tau log(I / (I - theta)))
# (I = theta + u with u > 0: suprathreshold input; theta = u (e^w - 1) with w = log(I/(I - theta)) > 0 covers every theta > 0)
tau_m, theta, I_in, u, w = symbols("tau theta I u w", positive=True)
lif_rate = 1 / (tau_m * log(I_in / (I_in - theta)))
lif_rate_slope = lif_rate.diff(theta).subs(I_in, theta + u).subs(theta, u * (exp(w) - 1))

# one event at distance d: the strict inequality |t_e - t| < delta counts it only for delta > d
rho_one_event = Heaviside(delta - d, 0) / (2 * delta)

OBLIGATIONS = [
    Obligation(
        "locality.rho.derivative",
        source=f"{SEED003}, definition of rho(t, delta)",
        statement="between jumps of the count, d rho / d delta = -rho / delta",
        check=Identity((n / (2 * delta)).diff(delta), -(n / (2 * delta)) / delta),
        expect=HOLDS,
        reason="rho = n/(2 delta) with n constant between event distances",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.rho.continuity",
        source=f"{SEED003}, 'the rho computation (which is differentiable with respect to delta)'",
        statement="rho(t, delta) is continuous (let alone differentiable) in delta: with one event at distance d, "
                  "the limit of rho as delta -> d from below equals the limit from above, 1/(2d)",
        # approached as delta = d - y, y -> 0+ (SymPy's limit of Heaviside at its jump ignores the direction)
        check=Limit(rho_one_event.subs(delta, d - y), y, 0, expected=1 / (2 * d)),
        expect=REFUTED,
        reason="rho jumps by 1/(2 delta) whenever delta crosses an event distance |t_e - t|; its a.e. derivative -rho/delta ignores the jumps",
        kind=Kind.READING,
        reading="'differentiable with respect to delta' tested through its necessary condition, continuity, of the printed hard-count rho (strict inequality) with one event at distance d",
    ),
    Obligation(
        "locality.grad.formula",
        source=f"{SEED003}, LocalAttn logits with log(rho_ij + eps)",
        statement="d alpha_1 / d delta = alpha_1 (g_1 - sum_k alpha_k g_k) with g_j = -rho_j/(delta (rho_j + eps)) (three keys)",
        check=Identity(grad_alpha1, grad_formula),
        expect=HOLDS,
        reason="softmax Jacobian times d z_j / d delta = rho_j'/(rho_j + eps)",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.grad.eps_zero_vanishes",
        source=f"{SEED003}, LocalAttn with eps -> 0",
        statement="with eps = 0 the attention weights do not depend on delta between jumps: d alpha_1 / d delta = 0",
        check=Identity(grad_alpha1_eps0, 0),
        expect=HOLDS,
        reason="log rho_j = log n_j - log(2 delta): the delta term is the same for every key and softmax is shift-invariant",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.delta_learned_through_rho",
        source=f"{SEED003}, 'The delta parameter ... is learned during training via gradient descent through the rho computation'",
        statement="the attention weights give delta a nonzero gradient through rho, in the eps -> 0 limit of the log-density bias with every count n_j > 0",
        check=Sign(grad_alpha1_eps0**2, ">"),
        expect=REFUTED,
        reason="the gradient through rho is identically zero for eps = 0 (and O(eps) otherwise, see locality.grad.small_eps); delta only "
               "changes the weights through the jumps of the counts, where the gradient is undefined. A lemma, not a reading: the document fixes "
               "eps as a small positive constant, and taking it to 0 changes a number; with the printed fixed eps > 0 and empty midpoint windows "
               "the gradient is nonzero (locality.delta_learned_through_rho.fixed_eps)",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.grad.small_eps",
        source=f"{SEED003}, LocalAttn with a small eps",
        statement="d alpha_1 / d delta -> 0 as eps -> 0 (the learning signal for delta is O(eps))",
        check=Limit(grad_formula, eps, 0, 0),
        expect=HOLDS,
        reason="g_j -> -1/delta for every key as eps -> 0",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.grad.fixed_eps_form",
        source=f"{SEED003}, LocalAttn logits with log(rho_ij + eps), eps 'a small constant'",
        statement="for eps > 0 fixed and all counts n_j > 0: d alpha_1/d delta = (alpha_1/delta)(h_1 - sum_k alpha_k h_k), h_j = eps/(rho_j + eps) in (0, 1); "
                  "hence |d alpha_1/d delta| <= (alpha_1/delta) eps/(rho_min + eps), the learning signal is O(eps/rho) relative to 1/delta",
        check=Identity(grad_fixed, grad_fixed_h_form),
        expect=HOLDS,
        reason="d/d delta log(rho_j + eps) = -rho_j/(delta (rho_j + eps)) = -(1 - h_j)/delta; the common -1/delta cancels in the softmax",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.grad.empty_window_form",
        source=f"{SEED003}, LocalAttn with an empty midpoint window (rho_ij = 0, bias log eps)",
        statement="with n_3 = 0 (key 3's midpoint window empty) and eps > 0: d alpha_1/d delta = (alpha_1/delta)(h_1 (1 - alpha_1) - alpha_2 h_2 - alpha_3), "
                  "i.e. -alpha_1 alpha_3/delta up to O(eps/rho): an O(1/delta) signal when alpha_3 is not small",
        check=Identity(grad_empty, grad_empty_h_form),
        expect=HOLDS,
        reason="the empty key's bias log eps does not move with delta while the others drop by ~1/delta",
        kind=Kind.LEMMA,
    ),
    Obligation(
        "locality.lif.rate_decreases_with_threshold",
        source=f"{SEED003}, Mapping to spiking implementation: gate 'reduces the effective threshold ... causing them to fire less frequently'",
        statement="an LIF neuron tau V' = -V + I with reset to 0 and constant input I > theta fires at f = 1/(tau log(I/(I - theta))), and df/dtheta < 0: "
                  "lowering the threshold raises the rate",
        check=Sign(lif_rate_slope, "<"),
        expect=HOLDS,
        reason="df/dtheta = -1/(tau (I - theta) log(I/(I - theta))^2) < 0; the opposite of the printed 'reduces the threshold ... fire less'",
        kind=Kind.LEMMA,
    ),
]
