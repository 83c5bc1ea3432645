"""Every proof obligation reaches its expected verdict, and every counterexample is
re-evaluated here with independent numerics (plain floats, numpy, scipy quadrature and
ODE solves, brute-force grids), never with the SymPy expressions the engine used."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import quad, solve_ivp
from scipy.optimize import brentq

from nacverify.claims import Verdict, registry
from nacverify.symbolic import all_obligations, proof_modules

OBLIGATIONS = all_obligations()
BY_ID = {ob.id: ob for ob in OBLIGATIONS}
SEED_FILES = ("000_8dd0046228b94766.txt", "001_9075dda04a2ad935.txt", "002_02b8eaa764ffef08.txt",
              "003_15f93b400484390c.txt", "004_ca116cd7d91e9398.txt")
ISSUE_MODULES = {"nac_closed_form", "nac_stability", "nac_gradients", "nac_frozen", "nac_gates", "ltc",
                 "locality_attention", "sparse_recurrent"}


def finding(obligation_id):
    return BY_ID[obligation_id].run()


def test_discovery_finds_every_section_module():
    names = {name.rsplit(".", 1)[-1] for name in proof_modules()}
    assert ISSUE_MODULES <= names


def test_obligations_are_well_formed():
    assert len(OBLIGATIONS) >= 17 and len(BY_ID) == len(OBLIGATIONS)
    for ob in OBLIGATIONS:
        assert any(seed in ob.source for seed in SEED_FILES), ob.id
        assert ob.statement and ob.reason and ob.symbols(), ob.id
        assert all(text for text in ob.symbols().values()), ob.id


def test_obligations_are_registered_as_symbolic_claims():
    import nacverify.catalog  # noqa: F401

    claims = registry()
    for ob in OBLIGATIONS:
        assert claims[ob.id].group == "symbolic" and claims[ob.id].expected == ob.expect


@pytest.mark.parametrize("obligation_id", list(BY_ID))
def test_verdict_is_the_expected_one(obligation_id):
    ob = BY_ID[obligation_id]
    f = ob.run()
    assert f.verdict == ob.expect, f.message
    if f.verdict == Verdict.REFUTED:
        assert f.counterexample
        assert set(f.counterexample) <= set(ob.symbols()) | {"closed_statement"}, f.counterexample


# --- independent re-evaluation of each counterexample -----------------------------
def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def softplus(x):
    return math.log1p(math.exp(x))


def recheck_integral_to_T(c):
    T, w, t = c["T"], c["omega"], c["t"]
    printed_lhs = quad(lambda s: math.exp(w * s), 0, T)[0]
    return t <= T and abs(printed_lhs - (math.exp(w * t) - 1) / w) > 1e-6


def recheck_euler_all_steps(c):
    a, dt, w, phi = c["a"], c["dt"], c["omega"], c["phi"]
    m, M = min(0, phi / w), max(0, phi / w)
    nxt = a + dt * (-w * a + phi)
    return m <= a <= M and not (m - 1e-12 <= nxt <= M + 1e-12)


def recheck_euler_multi_necessary(c):
    f1, f2, A1, A2, dt = c["f1"], c["f2"], c["A1"], c["A2"], c["dt"]
    w, phi = f1 + f2, f1 * A1 + f2 * A2
    m, M = min(0, A1, A2), max(0, A1, A2)
    grid = np.linspace(m, M, 2001)
    images = grid + dt * (-w * grid + phi)
    return dt * w > 1 and bool(np.all((images >= m - 1e-12) & (images <= M + 1e-12)))  # invariant despite dt omega > 1


def recheck_eq38_as_printed(c):
    L, T, w, t = c["L_phi"], c["T"], c["omega0"], c["t"]
    printed = quad(lambda s: math.exp(-w * (t - s)) * L * s, 0, T)[0]
    sol = solve_ivp(lambda tt, e: -w * e + L * tt, (0, max(t, 1e-12)), [0.0], rtol=1e-12, atol=1e-14)
    true = sol.y[0, -1] if t > 0 else 0.0
    return t <= T and abs(printed - true) > 1e-6


def recheck_step40_41_second(c):
    K, L, t = c["K"], c["L_omega"], c["t"]
    lhs = L * quad(lambda s: s * K * s**2, 0, t)[0]
    rhs = L * quad(lambda s: K * s**2, 0, t)[0]
    return lhs > rhs + 1e-9


def recheck_shared_gate_attention(c):
    delta = c["Delta"]
    top = 1 / (1 + math.exp(-delta))                       # softmax([Delta, 0])[0]
    xs = np.linspace(-40, 40, 4001)
    steady = 1 / (1 + np.exp(-xs)) / (np.log1p(np.exp(xs)) + 1e-6)   # reachable steady logits, tau_epsilon = 1e-6
    best = 1 / (1 + math.exp(-(steady.max() - steady.min())))          # largest top weight over two keys
    return top > best + 1e-6


def recheck_sigmoid_reachable(c):
    """In 001's setting (nonlinearities disabled) phi is affine in u = [q; k]. On the ray
    u = lambda [q0; k0] an affine map is lambda*ell + b, q.k is lambda^2 * qk: the best affine
    fit in lambda over a symmetric grid leaves a residual unless qk = 0."""
    qk = c["qk"]
    lam = np.linspace(-2, 2, 41)
    target = lam**2 * qk
    design = np.stack([lam, np.ones_like(lam)], axis=1)
    coef, *_ = np.linalg.lstsq(design, target, rcond=None)
    return qk != 0 and float(np.max(np.abs(design @ coef - target))) > 1e-6


def recheck_shared_omega_one(c):
    eps, p = c["epsilon"], c["p"]
    x_star = brentq(lambda x: softplus(x) + eps - 1, -50, 50)
    return 0 < p < 1 and abs(sigmoid(x_star) - p) > 1e-6


def recheck_shared_output_as_printed(c):
    eps, p, omega = c["epsilon"], c["p"], c["omega_target"]
    x_star = brentq(lambda x: softplus(x) + eps - omega, -50, 50)   # the one output that gives omega
    return 0 < p < 1 and omega > eps and abs(sigmoid(x_star) - p) > 1e-6


def recheck_single_key(c):
    b, w, x = c["b"], c["w"], c["x"]
    for logit in (-3.0, 0.0, 2.5):                            # any logit: softmax over one key is 1
        alpha = np.exp([logit]) / np.exp([logit]).sum()
        y = float(alpha[0] * 1.0)
        if abs(y - 1.0) > 1e-15:
            return False
    return abs(1.0 - sigmoid(w * x + b)) > 1e-6


def recheck_rho_continuity(c):
    d = c["d"]
    events, t = [d], 0.0                                      # one event at distance d from t

    def rho(delta):
        return sum(abs(te - t) < delta for te in events) / (2 * delta)

    return abs(rho(d * (1 - 1e-9)) - rho(d * (1 + 1e-9))) > 0.4 / d


def recheck_delta_learned(c):
    delta = c["delta"]
    n = np.array([c["n1"], c["n2"], c["n3"]], dtype=float)
    s = np.array([c["s1"], c["s2"], c["s3"]], dtype=float)

    def alpha1(dl):
        z = s + np.log(n / (2 * dl))                          # eps = 0
        e = np.exp(z - z.max())
        return e[0] / e.sum()

    h = 1e-5 * delta
    grad = (alpha1(delta + h) - alpha1(delta - h)) / (2 * h)
    return abs(grad) < 1e-9                                   # no gradient reaches delta


def recheck_ltc_tanh_step(c):
    A, dt, tau, x, z = c["A"], c["dt"], c["tau"], c["x_n"], c["z"]
    f = math.tanh(z)
    nxt = (x + dt * f * A) / (1 + dt * (1 / tau + f))
    lo, hi = min(0, A), max(0, A)
    return lo <= x <= hi and not (lo - 1e-12 <= nxt <= hi + 1e-12)


def recheck_ltc_signed(c):
    tau, w1, w2, s1, s2 = c["tau"], c["w1"], c["w2"], c["sigma"], c["q"]
    f = w1 * s1 + w2 * s2
    tau_sys = tau / (1 + tau * f)
    W = abs(w1) + abs(w2)
    return 1 + tau * f > 0 and not (tau / (1 + tau * W) - 1e-12 <= tau_sys <= tau + 1e-12)


def recheck_tanh_tau_sys(c):
    tau, z = c["tau"], c["z"]
    denominator = 1 + tau * math.tanh(z)
    lo, hi = tau / (1 + tau), tau / (1 - tau) if tau != 1 else math.inf
    if denominator == 0:
        return True
    tau_sys = tau / denominator
    return not (lo - 1e-12 <= tau_sys <= hi + 1e-12)


def recheck_euler_mode(c):
    x = c["x"]
    phi, omega = sigmoid(x), softplus(x) + 1e-6
    a = 0.0
    for _ in range(5):                                        # the reference implementation's loop
        a = a + 0.5 * (-omega * a + phi)
    return not (-1e-12 <= a <= phi / omega + 1e-12)


def recheck_ltc_plugging(p):
    """000/001 Section 2.1: x/tau + f (A - x) against -(1/tau + f) x + f A, in plain floats."""
    x, tau, f, big_a = p["x"], p["tau"], p["f"], p["A"]
    printed = x / tau + f * (big_a - x)
    derived = -(1 / tau + f) * x + f * big_a
    return tau > 0 and math.isclose(printed - derived, 2 * x / tau, rel_tol=1e-9, abs_tol=1e-12) and x != 0


def recheck_eq28_to_T(p):
    """000 eq. 28 with the upper limit T, along the closed-form solution, in plain floats."""
    t, big_t, w, phi, a0 = p["t"], p["T"], p["omega"], p["phi"], p["a0"]
    a_t = a0 * math.exp(-w * t) + phi / w * (1 - math.exp(-w * t))
    lhs = math.exp(w * t) * a_t - a0
    rhs = phi * (math.exp(w * big_t) - 1) / w
    return t <= big_t and abs(lhs - rhs) > 1e-6


def recheck_plugged_as_extracted(p):
    """001's plugged line as extracted, -[-1/tau - f] x + f A, against the LTC neuron -x/tau + f (A - x)."""
    x, tau, f, big_a = p["x"], p["tau"], p["f"], p["A"]
    extracted = -(-1 / tau - f) * x + f * big_a
    ltc = -x / tau + f * (big_a - x)
    return tau > 0 and abs(extracted - ltc) > 1e-9


def recheck_scaling(p):
    d = p["d_k"]
    return d > 0 and abs(1 / d - 1 / math.sqrt(d)) > 1e-9


def recheck_never_above(p):
    """One LTC neuron with the most excitatory reversal potential at 0 (E1 = 0, E2 = -c) and V_Leak = a >= 0: its
    equilibrium (G_L V_Leak + w2 s2 E2)/(G_L + w2 s2) (the first synapse's weight is 0 at the witness) lies above 0."""
    g, a, c, s2, w2 = p["G_L"], p["a"], p["c"], p["s2"], p["w2"]
    equilibrium = (g * a + w2 * s2 * (-c)) / (g + w2 * s2)
    return equilibrium > 1e-12


def recheck_deltanet(p):
    h, beta, v, k = p["h_prev"], p["beta"], p["v_t"], p["k_t"]
    printed = h + beta * (v - h)
    delta_rule = h + beta * (v - h * k) * k
    return abs(printed - delta_rule) > 1e-9


def recheck_score_attribution(p):
    """A late prediction by `late` cycles: eq. 58/48's term e^(late/10) - 1 against the IEEE PHM 2012 accuracy A of its percent error
    Er = -100 late/actual (A = 2^(Er/5) for Er <= 0)."""
    late, actual = p["late"], p["actual_rul"]
    printed = math.exp(late / 10) - 1
    er = -100 * late / actual
    challenge = 2 ** (er / 5)
    return late >= 0 and actual > 0 and abs(printed - challenge) > 1e-9


RECHECK = {
    "nac.eq15_16.shared_output_as_printed": recheck_shared_output_as_printed,
    "nac.score.phm2012_attribution": recheck_score_attribution,
    "nac.eq28.integral_to_T_as_printed": recheck_eq28_to_T,
    "nac001.motivation.plugged_as_extracted": recheck_plugged_as_extracted,
    "nac.s1.scaling_by_key_dimension": recheck_scaling,
    "ltc.s6.eq13.never_above_reversal": recheck_never_above,
    "sparse.eq.deltanet": recheck_deltanet,
    "nac.motivation.ltc_plugging": recheck_ltc_plugging,
    "nac.gates.shared.euler_mode_interval": recheck_euler_mode,
    "nac.eq29.integral_to_T_as_printed": recheck_integral_to_T,
    "nac.thm1.euler.all_steps": recheck_euler_all_steps,
    "nac.thm1.euler.step_condition.multi_necessary": recheck_euler_multi_necessary,
    "nac.thm3.eq38.as_printed": recheck_eq38_as_printed,
    "nac.thm3.step40_41.second_term": recheck_step40_41_second,
    "nac.eq18.shared_gate_matches_attention": recheck_shared_gate_attention,
    "nac.eq18.sigmoid_phi_reachable": recheck_sigmoid_reachable,
    "nac.thm2.shared_omega_one": recheck_shared_omega_one,
    "nac.thm2.single_key_head_output": recheck_single_key,
    "locality.rho.continuity": recheck_rho_continuity,
    "locality.delta_learned_through_rho": recheck_delta_learned,
    "ltc.eq9.state_bound_tanh": recheck_ltc_tanh_step,
    "ltc.eq11.signed_weights": recheck_ltc_signed,
    "ltc.sec15.tanh_tau_sys": recheck_tanh_tau_sys,
}


def test_every_refuted_obligation_has_an_independent_recheck():
    refuted = {ob.id for ob in OBLIGATIONS if ob.expect == Verdict.REFUTED}
    assert refuted == set(RECHECK)


@pytest.mark.parametrize("obligation_id", list(RECHECK))
def test_counterexample_recomputes(obligation_id):
    f = finding(obligation_id)
    assert f.verdict == Verdict.REFUTED
    point = {k: float(v) for k, v in f.counterexample.items()}
    assert RECHECK[obligation_id](point), (obligation_id, point)


def _at(expr, **values):
    """A SymPy expression of a proof obligation at plain floats (symbols by name)."""
    import sympy

    expr = sympy.sympify(expr)
    return float(expr.subs({sym: values[sym.name] for sym in expr.free_symbols}))


def test_shared_gate_ceiling_by_brute_force():
    """The steady logit of the shared gate stays in (0, 1) on a wide grid, and the top softmax
    weight over K = 8 keys never exceeds e/(e + 7) = 0.2797 (nac.gates.shared.*): the grid values
    against the obligation's own steady logit, and e/(e + 7) against its ceiling at K = 8."""
    xs = np.linspace(-60, 60, 24001)
    steady = 1 / (1 + np.exp(-xs)) / (np.log1p(np.exp(xs)) + 1e-6)
    assert steady.min() > 0 and steady.max() < 1
    logit = BY_ID["nac.gates.shared.steady_range"].check.parts["bounds"].parts["lower"].expr  # sigma/(softplus + eps) - 0
    for x in (-30.0, -2.0, 0.0, 0.5, 7.0):
        i = int(np.argmin(np.abs(xs - x)))
        assert _at(logit, x=xs[i], epsilon=1e-6) == pytest.approx(steady[i], rel=1e-12)
    top = math.exp(steady.max()) / (math.exp(steady.max()) + 7 * math.exp(steady.min()))
    assert top < math.e / (math.e + 7) < 0.2798
    # the obligation's margin ceiling - top weight, K = 2 + j keys, e^{a_1} = e/(1 + y), each other e^{a_k} = 1 + s:
    # the brute-force top weight has a_1 = max steady logit, the others = min steady logit
    margin = BY_ID["nac.gates.shared.max_softmax_weight"].check.expr
    y, s = math.exp(1 - steady.max()) - 1, math.exp(steady.min()) - 1
    assert _at(margin, j=6, y=y, s=s) == pytest.approx(math.e / (math.e + 7) - top, rel=1e-9)
    assert _at(margin, j=6, y=1e-12, s=1e-12) == pytest.approx(0.0, abs=1e-11)  # at the corner the top weight is the ceiling


def test_euler_step_threshold_by_iteration():
    """nac.thm1.euler.step_condition.single: iterate the Euler map from the far end of [0, A], and
    compare with the obligation's E(0) = dt omega A and its threshold dt = 1/omega."""
    A, w = 1.5, 2.0
    parts = BY_ID["nac.thm1.euler.step_condition.single"].check.parts
    assert _at(parts["threshold_pos"].expected, omega=w) == 0.5
    for dt, inside in ((0.49, True), (0.5, True), (0.51, False)):
        a = 0.0 + dt * (-w * 0.0 + w * A)  # one step from m = 0
        assert (a <= A + 1e-12) is inside
        assert _at(parts["threshold_pos"].lhs, dt=dt, omega=w, n=A) == pytest.approx(a, rel=1e-15)


def test_step40_41_second_term_fails_exactly_beyond_four_thirds():
    """With |eps(s)| = K s^2: int_0^t s K s^2 ds = K t^4/4 against int_0^t K s^2 ds = K t^3/3, so the
    dropped factor s matters exactly for t > 4/3 (the README once said t > 1)."""
    from nacverify.symbolic import select_obligations

    (ob,) = [o for o in select_obligations(["nac.thm3.step40_41.second_term"])]
    assert "4/3" in ob.reason and "t <= 1" not in ob.reason
    for t, holds in ((1.0, True), (1.3, True), (4 / 3 - 1e-9, True), (4 / 3 + 1e-6, False), (2.0, False)):
        assert (t**4 / 4 <= t**3 / 3) == holds, t
    root = Path(__file__).resolve().parents[1]
    for doc in (root / "README.md", *sorted((root / "reports").glob("*.md"))):  # the README's findings moved to reports/ (issue 46)
        assert "fails for t > 1" not in doc.read_text(encoding="utf-8"), doc
    assert "fails for t > 4/3" in (root / "reports" / "FINDINGS.md").read_text(encoding="utf-8")


def test_eq18_identity_is_a_lemma_and_omega_sqrt_dk_is_reached():
    """The substitution q.k/sqrt(d_k) = q.k/sqrt(d_k) is ours (a lemma, never evidence about 001); what 001 says,
    omega_tau(u) = sqrt(d_k) with omega_tau = softplus(.) + eps, holds at x = log(e^(sqrt(d_k) - eps) - 1), checked here
    in plain floats for d_k in {1, 16, 64} and the reference's eps = 1e-6 and eps = 0.9."""
    assert BY_ID["nac.eq18.scaled_dot_identity"].kind == "lemma"
    ob = BY_ID["nac.eq18.omega_sqrt_dk"]
    assert ob.kind == "reading" and ob.run().verdict == Verdict.HOLDS
    for d_k in (1.0, 16.0, 64.0):
        for eps in (1e-6, 0.9):
            x = math.log(math.expm1(math.sqrt(d_k) - eps))
            assert math.isclose(math.log1p(math.exp(x)) + eps, math.sqrt(d_k), rel_tol=1e-12)


def test_motivation_leak_sign_by_hand():
    """-x/tau + f (A - x) = -(1/tau + f) x + f A at x = 2, tau = 4, f = 3, A = 5: -0.5 + 9 = 8.5 = -(3.25)(2) + 15."""
    assert BY_ID["nac.motivation.ltc_plugging.leaky"].run().verdict == Verdict.HOLDS
    assert -2 / 4 + 3 * (5 - 2) == -(1 / 4 + 3) * 2 + 3 * 5 == 8.5
    assert BY_ID["nac.motivation.ltc_plugging"].kind == "as-printed"


def test_obligation_texts_do_not_depend_on_the_hash_seed():
    """Two symbols of one name with different assumptions (t_a > 0 and t_a < 0 in
    nac.s22.tsample_limit.value) were described by whichever a set iterated last: the assumptions
    text changed with PYTHONHASHSEED (seeds 1 and 3 gave 't_a: < 0' and 't_a: > 0')."""
    import os
    import subprocess
    import sys

    script = ("import json; from nacverify.symbolic.discover import all_obligations; "
              "print(json.dumps({ob.id: ob.assumptions() for ob in all_obligations()}))")
    texts = []
    for seed in ("1", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
        assert res.returncode == 0, res.stderr
        texts.append(json.loads(res.stdout))
    assert texts[0] == texts[1]
    assert texts[0]["nac.s22.tsample_limit.value"].startswith("omega: > 0; phi: > 0 | real; t_a: < 0 | > 0;")
