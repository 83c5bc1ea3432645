"""Seed 002 (LTC) checks added for the ledger's numeric items and the defects of the first LTC
checks, across the section modules ltc_bounds, ltc_stability, ltc_unfolding, ltc_cost, ltc_bptt,
ltc_epsilon, ltc_init and ltc_trajectory_length. Expected values are derived by hand (closed forms, erfc, finite differences), not
taken from the code under test."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.checks import ltc_bounds, ltc_bptt, ltc_cost, ltc_epsilon, ltc_init, ltc_stability, ltc_trajectory_length, ltc_unfolding
from nacverify.checks._ltc_common import M, N, TABLE_RANGES, bptt_loss, draw_networks, fused_sequence, op_count
from nacverify.checks.ltc_bptt import graph_depth
from nacverify.checks.ltc_init import outside_probability
from nacverify.checks.ltc_stability import fit_growth, stiff_step_counts
from nacverify.claims import CheckContext, Kind, Verdict, evaluate
from nacverify.compute.precision import float64

QUICK = CheckContext(seed=0, quick=True)


@pytest.fixture(autouse=True)
def _x64():
    with float64():
        yield


def _claims():
    return {c.id: c for c in [*ltc_bounds.bounds_claims(), *ltc_stability.stability_claims(), *ltc_unfolding.unfolding_claims(),
                              *ltc_cost.cost_claims(), *ltc_bptt.bptt_claims(), *ltc_epsilon.epsilon_claims(), *ltc_init.init_claims(),
                              *ltc_trajectory_length.trajectory_length_claims()]}


# ----------------------------------------------------------------------------- defect 1: eq. 11 with 002's own f


def test_eq11_own_f_sigmoid_counterexample_by_hand():
    # weights 0.05 (inside table 12's [-2, 2]), N + M = 6 incoming weights: W = 0.3; mu = 1, x = 0, I = 0
    tau, W, f = 1.0, 0.3, 1 / (1 + math.exp(-1.0))
    tau_sys = tau / (1 + tau * f)
    assert tau_sys == pytest.approx(0.57769, abs=1e-5)
    assert tau_sys < tau / (1 + tau * W)  # below eq. 11's lower bound 0.769
    claim = _claims()["ltc.eq11.own_f.sigmoid"]
    assert claim.kind == Kind.READING and claim.expected == Verdict.REFUTED  # w_ij read as the entries of gamma_r and gamma
    r = evaluate(claim, QUICK)
    assert r.verdict == Verdict.REFUTED
    w = r.outcome.evidence.witness
    if w.get("source") == "hand-built network":
        assert w["tau_sys"] == pytest.approx(tau_sys, rel=1e-12) and w["W"] == pytest.approx(W)


def test_eq11_correction_obligation_is_labelled_as_the_suites():
    from proofs import ltc as proofs_ltc

    ob = {o.id: o for o in proofs_ltc.OBLIGATIONS}["ltc.eq11.bounds_nonnegative_f"]
    assert Kind(ob.kind) == Kind.CORRECTION
    assert "suite" in ob.statement and "0 <= f <= W" in ob.statement
    for o in proofs_ltc.OBLIGATIONS:  # every LTC obligation says whose statement it is
        assert o.kind is not None
        assert (Kind(o.kind) == Kind.READING) == bool(o.reading)


# ----------------------------------------------------------------------------- defect 2: section 15 claims, not eq. 11


def test_section15_range_claims_are_sourced_to_section15():
    claims = _claims()
    assert not [cid for cid in claims if cid.startswith("ltc.eq11.tau_sys")]
    for act in ("sigmoid", "tanh"):
        c = claims[f"ltc.sec15.{act}_tau_sys.numeric"]
        assert "section 15" in c.source and "line 499" in c.source and "eq. 11" not in c.source


# ----------------------------------------------------------------------------- defect 3: draws over the table's ranges


def test_draws_cover_table12_ranges():
    p = draw_networks(4000, 0)
    assert p["tau"].min() < 0.002 and p["tau"].max() > 8.0  # table 12: [0.001, 10] (old draws: tau >= 0.01, or <= 1)
    assert p["tau"].min() >= TABLE_RANGES["tau"][0] and p["tau"].max() <= TABLE_RANGES["tau"][1]
    odd = p["gamma_r"][1::2]  # uniform over [-2, 2]
    assert odd.min() < -1.99 and odd.max() > 1.99 and np.abs(odd).max() <= 2.0
    assert np.abs(p["mu"][1::2]).max() <= 1.0 and np.abs(p["mu"][1::2]).max() > 0.99


def test_stability_claims_use_table_dt_and_tau():
    c = _claims()["ltc.eq9.stable.tanh"]
    assert "0.001" in c.assumptions and "[0.001, 10]" in c.assumptions


# ----------------------------------------------------------------------------- defect 4: stiffness in the asymptotic range


def test_explicit_steps_grow_linearly_and_ignore_tolerance_when_stiff():
    counts = stiff_step_counts([1e-4, 1e-5], [1e-4, 1e-8], seed=13, solver="Tsit5")
    # stability-limited: a step of a few tau, so steps ~ c T / tau with c between 0.1 and 1 (Tsit5's real stability interval ~3.5)
    assert 0.1 < counts[0, 1] * 1e-5 < 1.0
    assert counts[0, 1] / counts[0, 0] == pytest.approx(10.0, rel=0.05)  # linear in T/tau
    assert counts[1, 1] / counts[0, 1] == pytest.approx(1.0, abs=0.02)  # rtol 1e-8 vs 1e-4: the same count


def test_fit_growth_tells_power_from_exponential():
    x = np.array([10.0, 30.0, 100.0, 300.0])
    lin = fit_growth(x, 3 * x)
    assert lin["exponent"] == pytest.approx(1.0) and lin["power_residual"] < lin["exponential_residual"]
    ex = fit_growth(np.array([1.0, 2.0, 3.0, 4.0]), np.exp(2 * np.array([1.0, 2.0, 3.0, 4.0])))
    assert ex["exp_rate"] == pytest.approx(2.0) and ex["exponential_residual"] < ex["power_residual"]


def test_stiff_claim_keeps_fitted_range_and_tolerance_dependence():
    r = evaluate(_claims()["ltc.stiff"], QUICK)
    assert r.verdict == Verdict.REFUTED
    s = r.outcome.evidence.scalars
    assert abs(s["exponent_min"] - 1) < 0.1 and abs(s["exponent_max"] - 1) < 0.1
    assert "fitted_range_tau" in s and "tsit5_steps_tightest_over_loosest_rtol_at_tau_1e-5" in s
    assert r.outcome.evidence.arrays["tsit5_steps"].shape[0] >= 2  # several tolerances


# ----------------------------------------------------------------------------- unfolding steps L


def _linear_net(tau, mu, A):
    z = lambda *s: jnp.zeros((1, *s))  # noqa: E731
    return {"tau": jnp.full((1, N), tau), "gamma_r": z(N, N), "gamma": z(M, N), "mu": jnp.full((1, N), mu), "A": jnp.full((1, N), A)}


@pytest.mark.parametrize("L", [1, 3, 10])
def test_fused_substeps_match_the_closed_form(L):
    # gamma = gamma_r = 0: f = sigmoid(mu) = c constant; L implicit steps of h on x' = -lam x + c A from 0
    tau, mu, A, dt = 0.5, 0.3, 1.5, 0.2
    c = 1 / (1 + math.exp(-mu))
    lam = 1 / tau + c
    xstar = c * A / lam
    for substep, h in (("dt/L", dt / L), ("dt", dt)):
        expected = xstar * (1 - (1 + h * lam) ** (-L))
        x = fused_sequence(_linear_net(tau, mu, A), jnp.zeros((1, 1, M)), dt, L, substep=substep)
        assert float(x[0, 0, 0]) == pytest.approx(expected, rel=1e-12)
    exact = xstar * (1 - math.exp(-lam * dt))
    err = [abs(float(fused_sequence(_linear_net(tau, mu, A), jnp.zeros((1, 1, M)), dt, k)[0, 0, 0]) - exact) for k in (1, 2, 4)]
    assert err[0] > err[1] > err[2]  # dt/L: more substeps, closer to the ODE


# ----------------------------------------------------------------------------- BPTT, depth, op counts


def test_bptt_gradient_against_finite_differences():
    rng = np.random.default_rng(1)
    theta = {"tau": jnp.asarray(rng.uniform(0.1, 2, (1, 3))), "gamma_r": jnp.asarray(rng.normal(0, 1, (1, 3, 3))),
             "gamma": jnp.asarray(rng.normal(0, 1, (1, 2, 3))), "mu": jnp.asarray(rng.normal(0, 1, (1, 3))), "A": jnp.asarray(rng.normal(0, 1, (1, 3))),
             "W_out": jnp.asarray(rng.normal(0, 1, (3, 2))), "b_out": jnp.zeros(2)}
    inputs, targets = jnp.asarray(rng.normal(0, 1, (7, 1, 2))), jnp.asarray(rng.normal(0, 1, (7, 1, 2)))
    g = jax.grad(bptt_loss)(theta, inputs, targets, 0.3, 3)
    h = 1e-6
    for key, idx in (("mu", (0, 1)), ("gamma_r", (0, 2, 0)), ("W_out", (1, 1)), ("tau", (0, 0))):
        e = jnp.zeros_like(theta[key]).at[idx].set(1.0)
        up = bptt_loss({**theta, key: theta[key] + h * e}, inputs, targets, 0.3, 3)
        dn = bptt_loss({**theta, key: theta[key] - h * e}, inputs, targets, 0.3, 3)
        assert float(g[key][idx]) == pytest.approx(float((up - dn) / (2 * h)), rel=1e-6, abs=1e-9)


def test_memory_analysis_compile_options_leave_the_temporary_bytes_alone():
    """ltc.table_bptt.memory compiles its programs at XLA's optimisation level 0 (they are never run);
    the temporary bytes it reads must be those of the default compile (XLA's buffer assignment), for a
    BPTT gradient through the eq. 9 scan and a BacksolveAdjoint gradient."""
    import functools

    import diffrax

    with float64():
        theta, _, _ = ltc_bptt._bptt_problem(0)
        theta["tau"] = jnp.full((1, N), 0.5)
        rng = np.random.default_rng(4)
        inputs, targets = jnp.asarray(rng.normal(0, 1, (256, 1, M))), jnp.asarray(rng.normal(0, 1, (256, 1, 2)))
        programs = [(jax.grad(functools.partial(bptt_loss, dt=0.1, L=2)), (theta, inputs, targets)),
                    (jax.grad(functools.partial(ltc_bptt._adjoint_loss, T=1.0, adjoint=diffrax.BacksolveAdjoint())), (theta,))]
        for fn, args in programs:
            default = jax.jit(fn).lower(*args).compile().memory_analysis().temp_size_in_bytes
            assert default > 0
            assert ltc_bptt._temp_bytes(fn, *args) == float(default)


def test_graph_depth_and_op_count_by_hand():
    jaxpr = jax.make_jaxpr(lambda x: jnp.sin(jnp.cos(x)) + x)(1.0)
    assert graph_depth(jaxpr) == 3  # cos -> sin -> add
    scan = jax.make_jaxpr(lambda x: jax.lax.scan(lambda c, _: (c + 1.0, None), x, None, length=5)[0])(jnp.zeros(3))
    assert op_count(scan) == 15  # 5 iterations x 3 elements
    dot = jax.make_jaxpr(lambda a, b: a @ b)(jnp.zeros((4, 6)), jnp.zeros((6, 2)))
    assert op_count(dot) == 4 * 2 * 6  # multiply-adds


# ----------------------------------------------------------------------------- tables 12 / section 14, epsilon, unbounded


def test_outside_probabilities_by_hand():
    assert outside_probability(1.0, 1.0) == pytest.approx(0.3173105, abs=1e-7)  # P(|N(0,1)| > 1)
    assert outside_probability(2.0, 2.0) == pytest.approx(0.1572992, abs=1e-7)  # erfc(1)
    assert outside_probability(0.5, 2.0) == pytest.approx(0.0046777, abs=1e-7)  # erfc(2), fan-in 4


def test_epsilon_pole_by_hand():
    tau, f = 10.0, -1.0
    dt = 1 / (1 - 1 / tau)  # 10/9
    assert 1 + dt * (1 / tau + f) == pytest.approx(0.0, abs=1e-15)
    assert 1 + 1.0 * (1 / tau + f) == pytest.approx(0.1)  # the minimum inside table 12 (dt = 1)
    # ltc.sec15.epsilon.denominator's corners: 0.1 at (dt, tau, f) = (1, 10, -1); 1 + 0.001 (1/10 + 0) = 1.0001 for f >= 0
    scalars = evaluate(_claims()["ltc.sec15.epsilon.denominator"], QUICK).outcome.evidence.scalars
    assert scalars["min_over_corners_f_in_[-1,1]"] == pytest.approx(0.1, rel=1e-12)
    assert scalars["min_over_corners_f_nonnegative"] == pytest.approx(1.0001, rel=1e-12)
    assert scalars["min_sampled"] >= 0.1   # the corner bound holds for the random draws inside the same box
    # ltc.sec15.epsilon's witness sits on the hand pole dt = 1/(-(1/tau + f)): tau = 2, f = -1 gives dt = 2 and a zero denominator
    w = evaluate(_claims()["ltc.sec15.epsilon"], QUICK).outcome.evidence.witness
    assert w["dt"] == 1 / -(1 / w["tau"] + w["f"]) == 2.0 and w["denominator"] == 0.0


@pytest.mark.parametrize("cid", ["ltc.sec6.unbounded.tanh", "ltc.sec6.unbounded.sigmoid", "ltc.sec15.epsilon", "ltc.sec15.epsilon.denominator",
                                 "ltc.table12.gamma.init_range", "ltc.table12.gamma_r.init_range", "ltc.table12.mu.init_range",
                                 "ltc.table12.A.init_range", "ltc.table_bptt.depth", "ltc.table_bptt.depth_per_step",
                                 "ltc.eq9.unfold_L.dt_over_L", "ltc.sec10.f_once"])
def test_cheap_new_claims_meet_expectations(cid):
    claim = _claims()[cid]
    assert claim.kind is not None and (Kind(claim.kind) == Kind.READING) == bool(claim.reading)
    r = evaluate(claim, QUICK)
    assert r.verdict == claim.expected, r.outcome.message


def test_unbounded_growth_rate_is_one_over_tau_minus_one():
    # f -> -1: x' = (1 - 1/tau) x - A, so log|x| grows at rate 1 - 1/tau = 0.9 for tau = 10
    r = evaluate(_claims()["ltc.sec6.unbounded.tanh"], QUICK)
    assert r.outcome.evidence.witness["growth_rate"] == pytest.approx(0.9, abs=0.01)


# ----------------------------------------------------------------------------- check --quick speed-ups (issue 13, item 6)


def test_trajectory_lengths_by_closed_form_and_one_compile_per_width():
    # W = U = 0 and every bias c: f = c is constant, so each model's path is a straight line in its own space:
    # Neural ODE x = c t, CT-RNN x = c (1 - e^-t), LTC x = c A/(1 + c) (1 - e^-(1 + c) t); length = |end - start|.
    # One draw per width was compiled anew (weights captured in a closure); now a width compiles once.
    from nacverify.checks.ltc_trajectory_length import _traj_run

    k, c, a = 7, 0.5, 0.8
    W, U = jnp.zeros((2, k, k)), jnp.zeros((2, 2, k))
    b, A = jnp.full((2, 1, k), c), jnp.full((2, 1, k), a)
    from jax_events import traced_names

    lengths = np.asarray(_traj_run(W, U, b, A, 300))
    two_pi = 2 * math.pi
    expected = [c * two_pi, c * (1 - math.exp(-two_pi)), c * a / (1 + c) * (1 - math.exp(-(1 + c) * two_pi))]
    assert lengths == pytest.approx(np.tile(np.array(expected) * math.sqrt(k), (2, 1)), rel=1e-6)  # RK4, h = 2 pi / 300
    _, traced = traced_names(_traj_run, W + 0.1, U, b, A, 300)  # other weights, same width: the same program
    assert "_traj_run" not in traced, traced


def test_bptt_check_runs_once_for_both_claims():
    # ltc.table_bptt.accuracy used to rerun ltc.alg_bptt.gradient's whole check (recompiling every loss)
    from nacverify.checks.ltc_bptt import _bptt_check

    first = _bptt_check(QUICK)
    assert _bptt_check(QUICK) is first
    assert first.verdict == Verdict.HOLDS and first.evidence.scalars["max_relative_error"] <= 1e-6


def test_one_compiled_rhs_equals_each_activations_own():
    # the eq. 11 / eq. 12 / section 15 solves share `_rhs_any` (activation chosen at run time) under --quick
    from nacverify.checks._ltc_common import _ACTIVATIONS, _rhs_any, _rhs_args, batched_rhs

    p = draw_networks(5, 3)
    pj = {k: jnp.asarray(v) for k, v in p.items()}
    y = np.random.default_rng(0).normal(size=5 * N)
    for activation in _ACTIVATIONS:
        for t in (0.0, 0.2, 0.7):
            expected = np.asarray(batched_rhs(t, y, (pj, activation)))
            assert np.array_equal(np.asarray(_rhs_any(t, y, _rhs_args(p, activation))), expected)


# ----------------------------------------------------------------------------- mended refutations and their charitable readings


def test_fused_step_is_stable_where_explicit_euler_is_not_by_hand():
    """A decaying mode x' = -lam x, lam = 1/tau + f = 100 (tau = 0.01, f = 0), dt = 0.1 (table 12): explicit Euler multiplies by
    1 - dt lam = -9 per step, the fused step by 1/(1 + dt lam) = 1/11."""
    tau, f, dt = 0.01, 0.0, 0.1
    assert 1 - dt * (1 / tau + f) == pytest.approx(-9.0) and 1 / (1 + dt * (1 / tau + f)) == pytest.approx(1 / 11)
    r = evaluate(_claims()["ltc.eq9.stable.tanh"], QUICK)
    ev = r.outcome.evidence.scalars
    assert r.verdict == Verdict.HOLDS and ev["fused_blowups_decaying"] == 0 and ev["euler_blowups_decaying_table_dt"] > 0


def test_epsilon_avoids_the_division_by_zero_by_hand():
    tau, f, dt = 2.0, float(np.tanh(-20.0)), 2.0
    assert f == -1.0 and 1 + dt * (1 / tau + f) == 0.0  # exact in float64
    r = evaluate(_claims()["ltc.sec15.epsilon"], QUICK)
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.witness["x_next_with_epsilon"] == pytest.approx(-2 / 1e-8)
    assert r.outcome.evidence.witness["x_next_without_epsilon"] == -math.inf


def test_init_range_coverage_is_a_threshold_of_ours():
    # the verdict flips at a required coverage of P(|N(0, 1)| <= 1) = erf(1/sqrt 2) = 0.6827 (mu, A) and erf(1) = 0.8427 (gamma, M = 1)
    for cid, flips in (("ltc.table12.mu.init_range", math.erf(1 / math.sqrt(2))), ("ltc.table12.A.init_range", math.erf(1 / math.sqrt(2))),
                       ("ltc.table12.gamma.init_range", math.erf(1.0))):
        claim = _claims()[cid]
        r = evaluate(claim, QUICK)
        assert claim.threshold and r.verdict == Verdict.REFUTED
        assert r.outcome.evidence.scalars["flips_at"] == pytest.approx(flips, abs=1e-9)


def test_init_ranges_are_one_sigma_ranges():
    import nacverify.catalog  # noqa: F401
    from nacverify.claims import get_claim

    assert math.sqrt(2 / 1) < 2 and math.sqrt(2 / 4) < 2  # gamma at M = 1, gamma_r at N = 4; mu and A: sigma = 1 = b
    r = evaluate(get_claim("ltc.table12.init_one_sigma"), QUICK)
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["gamma_largest_sigma"] == pytest.approx(math.sqrt(2))


def test_reworded_and_rekinded_claims():
    c = _claims()
    assert "ltc.eq9.unfold_L.substep_dt" not in c  # integrated L dt per input step: compared states at different times
    assert c["ltc.table_bptt.depth"].kind == Kind.READING and c["ltc.eq11.own_f.sigmoid"].kind == Kind.READING
    assert c["ltc.eq11.own_f.tanh"].kind == Kind.AS_PRINTED  # tanh < 0 breaks the upper bound whatever W_i is
    assert "inside" in c["ltc.eq12.bounds.sigmoid"].statement and "inside" in c["ltc.eq12.bounds.relu"].statement
    msg = evaluate(c["ltc.sec6.unbounded.sigmoid"], QUICK).outcome.message
    assert "-0.9" not in msg and "one example" in c["ltc.sec6.unbounded.sigmoid"].statement


def test_eq12_sigmoid_bound_from_starts_inside():
    """At the ends of [0, A] (A > 0) the sigmoid field points inward: x' = f A > 0 at x = 0, x' = -A/tau < 0 at x = A."""
    tau, A, f = 0.5, 0.8, 0.3
    assert f * A > 0 and -(1 / tau + f) * A + f * A == pytest.approx(-A / tau)
    r = evaluate(_claims()["ltc.eq12.bounds.sigmoid"], QUICK)
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["draws_started_inside"] == QUICK_DRAWS // 2


QUICK_DRAWS = 200


@pytest.mark.parametrize("cid", ["ltc.eq9a.shapes.transposed", "ltc.eq11.nonnegative_weights", "ltc.sec8.larger_bound.table_dt",
                                 "ltc.sec15.tanh_tau_sys.tau_below_1"])
def test_charitable_ltc_readings_hold(cid):
    import nacverify.catalog  # noqa: F401
    from nacverify.claims import get_claim

    claim = get_claim(cid)
    # issue 43: a transposed shape is a correction, not a reading (the items are slips)
    kind = Kind.CORRECTION if cid == "ltc.eq9a.shapes.transposed" else Kind.READING
    assert claim.kind == kind and evaluate(claim, QUICK).verdict == Verdict.HOLDS


def test_charitable_readings_by_hand():
    # (M x N)^T (M) -> (N); eq. 21/eq. 19 at dt = 1, L = 1 is ||z||/sigma_w + 1 > 1; tau = 0.5, f = -1: tau_sys = 1 = tau/(1 - tau)
    assert (np.ones((3, 5)).T @ np.ones(3)).shape == (5,)
    from nacverify.checks.ltc_trajectory_length import trajectory_bound_ratio

    assert trajectory_bound_ratio(0.1, 1.41, 1.0, 1) == pytest.approx(0.1 / 1.41 + 1)
    assert 0.5 / (1 + 0.5 * -1) == 0.5 / (1 - 0.5) == 1.0
    # w >= 0, sigma in (0, 1): f = sum w sigma lies in [0, W]
    w, sig = np.array([0.5, 2.0]), np.array([0.1, 0.9])
    assert 0 <= w @ sig <= w.sum()
