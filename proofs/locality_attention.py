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
    ),
    Obligation(
        "locality.grad.formula",
        source=f"{SEED003}, LocalAttn logits with log(rho_ij + eps)",
        statement="d alpha_1 / d delta = alpha_1 (g_1 - sum_k alpha_k g_k) with g_j = -rho_j/(delta (rho_j + eps)) (three keys)",
        check=Identity(grad_alpha1, grad_formula),
        expect=HOLDS,
        reason="softmax Jacobian times d z_j / d delta = rho_j'/(rho_j + eps)",
    ),
    Obligation(
        "locality.grad.eps_zero_vanishes",
        source=f"{SEED003}, LocalAttn with eps -> 0",
        statement="with eps = 0 the attention weights do not depend on delta between jumps: d alpha_1 / d delta = 0",
        check=Identity(grad_alpha1_eps0, 0),
        expect=HOLDS,
        reason="log rho_j = log n_j - log(2 delta): the delta term is the same for every key and softmax is shift-invariant",
    ),
    Obligation(
        "locality.delta_learned_through_rho",
        source=f"{SEED003}, 'The delta parameter ... is learned during training via gradient descent through the rho computation'",
        statement="the attention weights give delta a nonzero gradient through rho (eps -> 0 limit of the log-density bias)",
        check=Sign(grad_alpha1_eps0**2, ">"),
        expect=REFUTED,
        reason="the gradient through rho is identically zero for eps = 0 (and O(eps) otherwise, see locality.grad.small_eps); delta only "
               "changes the weights through the jumps of the counts, where the gradient is undefined",
    ),
    Obligation(
        "locality.grad.small_eps",
        source=f"{SEED003}, LocalAttn with a small eps",
        statement="d alpha_1 / d delta -> 0 as eps -> 0 (the learning signal for delta is O(eps))",
        check=Limit(grad_formula, eps, 0, 0),
        expect=HOLDS,
        reason="g_j -> -1/delta for every key as eps -> 0",
    ),
]
