"""Text statements of the NAC seeds (proofs/nac_text.py; nacverify/checks/nac_text_closed_forms.py, nac_thm3_proof.py,
nac_s22_model.py, nac_thm2_proof.py) and the
restated eq. 18 argument: every expectation below is computed here by hand or with plain
floats / numpy / finite differences, independently of the checks."""

import math

import numpy as np
import pytest

from nacverify.claims import CheckContext, Kind, Verdict, evaluate
from nacverify.checks.nac_s22_model import s22_model_claims
from nacverify.checks.nac_text_closed_forms import closed_form_claims
from nacverify.checks.nac_thm2_proof import thm2_proof_claims
from nacverify.checks.nac_thm3_proof import thm3_proof_claims
from nacverify.symbolic import all_obligations

QUICK = CheckContext(seed=0, quick=True)
CLAIMS = {c.id: c for c in [*closed_form_claims(), *thm3_proof_claims(), *s22_model_claims(), *thm2_proof_claims()]}
OBLIGATIONS = {o.id: o for o in all_obligations()}
NEW_OBLIGATIONS = [
    "nac.cor3.remark.time_inverse_omega", "nac.cor3.remark.log_accuracy", "nac.cor3.remark.faster_with_omega",
    "nac.s22.time_vector.unit_interval", "nac.s22.tsample_limit.value", "nac.eq33.equilibrium_form", "nac.c1.steady_derivatives",
    "nac.eq47.transient_below_steady.a0_zero", "nac.thm3.varying_bound.triangle", "nac.score.asymmetric",
]


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


# --- kinds -------------------------------------------------------------------------
def test_every_nac_obligation_has_a_kind():
    for ob in OBLIGATIONS.values():
        if ob.id.startswith(("nac.", "solvers.")):
            assert ob.kind is not None, ob.id
            assert (Kind(ob.kind) == Kind.READING) == bool(ob.reading.strip()), ob.id


def test_kinds_that_are_not_the_authors():
    # 001 never says dt*omega <= 1 is necessary; the shared gate comes from the public code
    assert Kind(OBLIGATIONS["nac.thm1.euler.step_condition.multi_necessary"].kind) in (Kind.LEMMA, Kind.CORRECTION)
    assert Kind(OBLIGATIONS["nac.eq18.shared_gate_matches_attention"].kind) == Kind.IMPLEMENTATION
    assert Kind(OBLIGATIONS["nac.eq18.sigmoid_phi_reachable"].kind) == Kind.AS_PRINTED
    for cid, claim in CLAIMS.items():
        assert claim.kind is not None and (claim.kind == Kind.READING) == bool(claim.reading), cid


# --- defect 1: eq. 18 in 001's own setting (nonlinearities disabled) ---------------------
def test_eq18_argument_is_the_affine_scaling_one():
    ob = OBLIGATIONS["nac.eq18.sigmoid_phi_reachable"]
    text = (ob.statement + " " + ob.reason).lower()
    assert "affine" in text and "lambda^2" in text and "disabling nonlinearities" in ob.source
    assert "eq. 15 keeps the sigmoid" not in ob.reason  # the old argument does not hold in 001's setting
    f = ob.run()
    assert f.verdict == Verdict.REFUTED
    assert "lambda" in ob.symbols() and "qk" in f.counterexample


def test_eq18_counterexample_by_least_squares():
    """At the counterexample q.k (q = k = (1, 1): 2), no affine function of lambda equals lambda^2 q.k at
    lambda = -1, 0, 1: the least-squares residual of [1, lambda] against lambda^2 q.k is nonzero."""
    qk = float(OBLIGATIONS["nac.eq18.sigmoid_phi_reachable"].run().counterexample["qk"])
    assert qk == pytest.approx(float(np.dot([1.0, 1.0], [1.0, 1.0])))
    lam = np.array([-1.0, 0.0, 1.0])
    A = np.stack([lam, np.ones(3)], axis=1)
    target = lam**2 * qk
    coef, *_ = np.linalg.lstsq(A, target, rcond=None)
    assert np.max(np.abs(A @ coef - target)) == pytest.approx(2 * qk / 3)  # hand: best fit is the constant 2qk/3
    # and scaling: an affine map doubles its non-constant part, q.k quadruples
    c, b, u = np.array([0.3, -1.2, 0.7, 2.0]), 0.4, np.array([1.0, 1.0, 1.0, 1.0])
    g = lambda v: c @ v + b  # noqa: E731
    assert g(2 * u) - b == pytest.approx(2 * (g(u) - b))
    assert np.dot(2 * u[:2], 2 * u[2:]) == pytest.approx(4 * np.dot(u[:2], u[2:]))


# --- symbolic obligations ----------------------------------------------------------
@pytest.mark.parametrize("oid", NEW_OBLIGATIONS)
def test_new_obligations_hold(oid):
    ob = OBLIGATIONS[oid]
    assert ob.expect == Verdict.HOLDS and ob.run().verdict == Verdict.HOLDS, ob.run().message


def _at(expr, **values):
    """A SymPy expression of a proof obligation, evaluated at plain floats (symbols by name)."""
    import sympy

    expr = sympy.sympify(expr)
    return float(expr.subs({sym: values[sym.name] for sym in expr.free_symbols}))


def test_cor3_remark_by_hand():
    """t* = ln(D/delta)/omega (eq. 12) by hand against the proof module's t* and the expressions
    the remark's obligations check: omega t* is constant, the slope in ln(1/delta) is 1/omega,
    and d t*/d omega (finite differences) is the obligation's -g/omega^2 with g = ln(D/delta)."""
    import importlib

    proof = importlib.import_module("nacverify.proofs.nac_text")
    D, delta = 2.0, 0.01
    t_star = lambda w, d=delta: math.log(D / d) / w  # noqa: E731
    for w, d in ((1.0, delta), (4.0, 1e-4), (0.3, 0.5)):
        assert _at(proof.t_star, omega=w, D=D, delta=d) == pytest.approx(t_star(w, d), rel=1e-14)
    assert 1.0 * t_star(1.0) == pytest.approx(4.0 * t_star(4.0))  # time inversely proportional
    assert _at(OBLIGATIONS["nac.cor3.remark.time_inverse_omega"].check.lhs) == 0.0
    slope = (t_star(2.0, 1e-4) - t_star(2.0, 1e-2)) / math.log(100)  # 1/2
    assert _at(OBLIGATIONS["nac.cor3.remark.log_accuracy"].check.parts["slope"].lhs, omega=2.0) == pytest.approx(slope)
    h = 1e-6
    d_omega = (t_star(1.0 + h) - t_star(1.0 - h)) / (2 * h)  # -ln(200) < 0
    assert d_omega < 0
    assert _at(OBLIGATIONS["nac.cor3.remark.faster_with_omega"].check.expr, omega=1.0, g=math.log(D / delta)) == pytest.approx(d_omega, rel=1e-6)


def test_score_penalties_by_hand():
    """e^{d/10} - 1 against e^{d/13} - 1 (000 eq. 58) by hand, against the expressions of
    nac.score.asymmetric: their difference, its factored form, the early penalty, both at 0."""
    parts = OBLIGATIONS["nac.score.asymmetric"].check.parts
    for d in (0.5, 5.0, 50.0):
        gap = math.expm1(d / 10) - math.expm1(d / 13)
        assert gap > 0
        assert _at(parts["factor"].lhs, x=d) == pytest.approx(gap, rel=1e-12)
        assert _at(parts["factor"].rhs, x=d) == pytest.approx(gap, rel=1e-12)
        assert _at(parts["early_positive"].expr, x=d) == pytest.approx(math.expm1(d / 13), rel=1e-12)
    assert _at(parts["zero_at_0"].lhs) == math.expm1(0 / 10) - math.expm1(0 / 13) == 0


def test_eq33_and_steady_derivatives_by_finite_differences():
    """Finite differences of a* = phi/omega and the two sides of eq. 33 by hand, against the
    expressions nac.c1.steady_derivatives and nac.eq33.equilibrium_form check."""
    phi, w, h = 0.7, 1.3, 1e-6
    a_star = lambda p, om: p / om  # noqa: E731
    parts = OBLIGATIONS["nac.c1.steady_derivatives"].check.parts
    assert _at(parts["d_phi"].lhs, phi=phi, omega=w) == pytest.approx((a_star(phi + h, w) - a_star(phi - h, w)) / (2 * h))
    assert _at(parts["d_omega"].lhs, phi=phi, omega=w) == pytest.approx((a_star(phi, w + h) - a_star(phi, w - h)) / (2 * h))
    # eq. 46 at a large t is 1/omega: (1 - e^{-omega t})/omega
    assert _at(parts["eq46_limit"].expr, omega=w, t=60.0) == pytest.approx(1 / w, rel=1e-12)
    a = 0.3
    eq33 = OBLIGATIONS["nac.eq33.equilibrium_form"].check.parts
    assert _at(eq33["factor"].lhs, a=a, omega=w, phi=phi) == pytest.approx(-w * a + phi)
    assert _at(eq33["factor"].rhs, a=a, omega=w, phi=phi) == pytest.approx(-w * (a - phi / w))
    assert _at(eq33["unique_root"].expected, phi=phi, omega=w) == pytest.approx(phi / w)


# --- numeric claims: verdicts and witnesses recomputed ------------------------------
def test_rate_witness():
    r = evaluate(CLAIMS["nac.cor3.remark.rate_as_printed"], QUICK)
    assert r.verdict == Verdict.REFUTED
    w = r.outcome.evidence.witness
    # |eps_t| = e^{-omega t}: the log-slope at omega = 1 and 2 is 1 and 2
    for om, key in ((1.0, "rate_1"), (2.0, "rate_2")):
        t, h = 0.3, 1e-6
        slope = -(math.log(math.exp(-om * (t + h))) - math.log(math.exp(-om * (t - h)))) / (2 * h)
        assert w[key] == pytest.approx(slope, rel=1e-6) == pytest.approx(om, rel=1e-6)


def test_time_vector_horizon_witness():
    r = evaluate(CLAIMS["nac.s22.time_vector.horizon"], QUICK)
    w = r.outcome.evidence.witness
    assert r.verdict == Verdict.REFUTED and sigmoid(w["t_a_t_sample_plus_t_b"]) > w["T"]


def test_tsample_limit_witness():
    r = evaluate(CLAIMS["nac.s22.tsample_limit"], QUICK)
    w = r.outcome.evidence.witness
    t = sigmoid(w["t_a"] * w["t_sample"] + w["t_b"])
    a_t = w["phi"] / w["omega"] * (1 - math.exp(-w["omega"] * t))
    assert r.verdict == Verdict.REFUTED
    assert a_t == pytest.approx(0.5 * (1 - math.exp(-1.0)))        # hand: phi = 0.5, omega = 1
    assert w["steady_state"] - a_t == pytest.approx(0.5 * math.exp(-1.0))


def test_transient_never_dominates_for_a0_zero():
    r = evaluate(CLAIMS["nac.eq47.interp.transient_dominates"], QUICK)
    assert r.verdict == Verdict.REFUTED
    phi, w = 0.5, 1.0
    for t in (1e-3, 0.5, 1.0, 3.0, 10.0):                         # the two terms of eq. 47 with a0 = 0
        transient = abs((0 - phi / w) * t * math.exp(-w * t))
        steady = abs(phi / w**2 * (1 - math.exp(-w * t)))
        assert transient < steady


def test_thm3_step_regime_inapplicable_and_lipschitz_by_hand():
    assert evaluate(CLAIMS["nac.thm3.lipschitz_increments.step"], QUICK).verdict == Verdict.INAPPLICABLE
    # slow ramp phi0 (1 + A t/T): |phi - phi0| = |phi0 A| t exactly L t
    phi0, A, T = 0.5, 0.0214, 1.0
    t = np.linspace(0, T, 11)
    assert np.allclose(np.abs(phi0 * A * t / T), abs(phi0 * A) / T * t)


def test_eq40_both_limits_hold():
    for cid in ("nac.thm3.eq40.as_printed", "nac.thm3.eq40.upper_limit_t", "nac.thm3.varying_bound.regimes", "nac.thm3.lipschitz_increments"):
        r = evaluate(CLAIMS[cid], QUICK)
        assert r.verdict == Verdict.HOLDS, (cid, r.outcome.message)


def test_backbone_affine_lower_bound_by_hand():
    r = evaluate(CLAIMS["nac.b3.backbone_affine"], QUICK)
    assert r.verdict == Verdict.REFUTED
    bound = (sigmoid(4) - sigmoid(-4)) / 2
    assert r.outcome.evidence.witness["lower_bound"] == pytest.approx(bound)
    # any monotone g on u1 = -1, 0, 1 against targets sigma(-4), sigma(4), sigma(-4): brute force over monotone triples
    grid = np.linspace(0, 1, 201)
    best = min(max(abs(a - sigmoid(-4)), abs(b - sigmoid(4)), abs(c - sigmoid(-4)))
               for a in grid[::10] for b in grid for c in (b, 1.0) if a <= b <= c)
    assert best >= bound - 0.01


def test_affine_best_sup_error_for_square_is_one_half():
    """Brute force over affine g = m x + c: the best sup error for x^2 on [-1, 1] is 1/2, the
    lower bound nac.thm2.eq20.linear_cells reports (its second difference e(-1) + e(1) - 2 e(0)
    of the error is 2 for every affine g)."""
    xs = np.linspace(-1, 1, 401)
    best = min(np.max(np.abs(xs**2 - (m * xs + c))) for m in np.linspace(-0.5, 0.5, 21) for c in np.linspace(0, 1, 101))
    assert best == pytest.approx(0.5, abs=1e-9)
    r = evaluate(CLAIMS["nac.thm2.eq20.linear_cells"], QUICK)
    assert r.verdict == Verdict.REFUTED
    w = r.outcome.evidence.witness
    assert w["sup_error_lower_bound"] == pytest.approx(best, abs=1e-9)
    assert w["second_difference_of_error"] == pytest.approx(2.0, abs=1e-9)


def test_thm2_claims():
    r = evaluate(CLAIMS["nac.thm2.t1_output_ignores_gates"], QUICK)
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.witness["max_abs_gradient_wrt_gate_parameters"] == 0.0
    # softmax over one key is 1: the model's own attention weight at T = 1
    import jax
    import jax.numpy as jnp

    from nacverify.model import NAC

    for mode in ("exact", "euler", "steady"):
        m = NAC(4, 2, key=jax.random.PRNGKey(0), dtype=jnp.float64, mode=mode, return_attention=True)
        _, att = m(jax.random.normal(jax.random.PRNGKey(1), (3, 1, 4), jnp.float64))
        np.testing.assert_array_equal(np.asarray(att.weights), 1.0)


def test_model_text_claims_hold():
    for cid in ("nac.s22.riemann", "nac.s22.tpseudo.per_pair", "nac.s22.tpseudo_range.model", "nac.b3.keff1"):
        r = evaluate(CLAIMS[cid], QUICK)
        assert r.verdict == Verdict.HOLDS, (cid, r.outcome.message)


def test_quick_t1_variants_cover_every_backbone_and_mode():
    # --quick checks the T = 1 refutation on the diagonal of backbone x mode: each backbone and each mode once
    from nacverify.checks.nac_thm2_proof import QUICK_DIAGONAL

    assert sorted(b for b, _ in QUICK_DIAGONAL) == ["circuit", "fc", "reference"]
    assert sorted(m for _, m in QUICK_DIAGONAL) == ["euler", "exact", "steady"]
    r = evaluate(CLAIMS["nac.thm2.t1_output_ignores_gates"], QUICK)
    assert r.outcome.evidence.scalars["variants"] == 3
    assert r.outcome.evidence.witness["max_output_change_under_new_gate_parameters"] == 0.0


def test_eq47_transient_dominates_for_general_a0_by_closed_form():
    import math

    import nacverify.checks.nac_readings  # noqa: F401
    from nacverify.claims import CheckContext, registry

    out = registry()["nac.eq47.interp.transient_dominates.general_a0"].check(CheckContext(quick=True))
    # at omega t = 1 the ratio is (|a0 - a*|/|a*|) / (e - 1); offset 5 |a*| gives 5/(e - 1)
    assert out.verdict == "holds"
    assert abs(out.evidence.witness["transient_over_steady"] - 5 / (math.e - 1)) < 1e-6


def test_time_vector_horizon_flips_at_one():
    import nacverify.checks.nac_readings  # noqa: F401
    from nacverify.claims import CheckContext, registry

    r = registry()
    assert r["nac.s22.time_vector.horizon"].threshold
    assert r["nac.s22.time_vector.horizon"].check(CheckContext(quick=True)).evidence.scalars["flips_at"] == 1.0
    assert r["nac.s22.time_vector.horizon.unit_window"].check(CheckContext(quick=True)).verdict == "holds"


def test_configurations_compiled_as_one_program_keep_each_ones_bits(monkeypatch):
    # _trace_all / _run_all (nac.s22.softmax, nac.s22.riemann) against the same configurations run one
    # by one (_trace / _run): the same bits, and one traced program for all of them
    import jax.numpy as jnp

    from nacverify.checks._nac_text import _inputs, _model, _run, _run_all, _trace, _trace_all
    from nacverify.compute.precision import float64
    from tests.jax_events import traced_names

    monkeypatch.setenv("NACVERIFY_PROGRAM_CACHE", "")  # traced here, not read back from a cache folder
    ctx = CheckContext(seed=3, quick=True)
    x = _inputs(ctx, (2, 9, 4))  # T = 9: a shape no claim uses, so compiled here for the first time
    mask = np.ones((2, 9))
    mask[:, :3] = 0.0
    with float64():
        models = [_model(ctx, dtype=jnp.float32, backbone=b, topk=3).with_options(mode=mode) for b, mode in (("reference", "exact"), ("fc", "euler"))]
        masks = [None, mask]
        traces, names = traced_names(_trace_all, models, x.astype(np.float32), masks)
        assert names.count("_trace_all") == 1 and "_trace" not in names
        for m, msk, tr in zip(models, masks, traces):
            alone = _trace(m, x.astype(np.float32), None, msk)
            np.testing.assert_array_equal(np.asarray(tr.attention), np.asarray(alone.attention))
            np.testing.assert_array_equal(np.asarray(tr.indices), np.asarray(alone.indices))
        runs = [_model(ctx, backbone="circuit", topk=3, return_attention=True).with_options(mode="steady", dt=dt) for dt in (0.5, 1.0)]
        for m, (y, att) in zip(runs, _run_all(runs, x)):
            y_alone, att_alone = _run(m, x)
            np.testing.assert_array_equal(np.asarray(y), np.asarray(y_alone))
            np.testing.assert_array_equal(np.asarray(att.weights), np.asarray(att_alone.weights))
