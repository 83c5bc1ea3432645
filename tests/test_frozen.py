"""The frozen-coefficient study against values obtained independently of it."""

import math

import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.claims import Verdict
from nacverify.errors import BadInput, Interrupted
from nacverify.frozen import (
    RegimeSpec,
    SolveOptions,
    bound_outcome,
    paper_table2,
    run_frozen_error,
    run_sweep,
    table2_average_outcome,
    table2_row_outcome,
    variation_bound,
    variation_bound_outcome,
)


def test_constant_coefficients_equal_closed_form():
    run = run_frozen_error(RegimeSpec("slow", phi0=0.3, omega0=2.0, a0=0.7, phi_variation_pct=0.0, omega_variation_pct=0.0))
    t = np.linspace(0, 1, 1001)
    exact = 0.15 + (0.7 - 0.15) * np.exp(-2.0 * t)  # a* = 0.3/2
    np.testing.assert_allclose(run.a_varying[0], exact, rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.a_frozen[0], exact, rtol=0, atol=1e-14)


def test_linear_phi_ramp_matches_its_closed_form():
    # phi = p0 (1 + s t), omega = w constant, a0 = 0:
    # a(t) = p0/w (1 - e^{-wt}) + p0 s (t/w - (1 - e^{-wt})/w^2)
    p0, s, w = 0.5, 0.4, 1.5
    run = run_frozen_error(RegimeSpec("slow", phi0=p0, omega0=w, phi_variation_pct=100 * s, omega_variation_pct=0.0))
    t = run.t
    eps_exact = p0 * s * (t / w - (1 - np.exp(-w * t)) / w**2)
    np.testing.assert_allclose(run.a_varying[0] - run.a_frozen[0], eps_exact, atol=1e-10)


def test_bound_values_by_hand_oscillatory_default():
    run = run_frozen_error(RegimeSpec("oscillatory"))
    # phi = 0.5 (1 + 0.0828 sin(4 pi t)), omega = 1 + 0.021 sin(4 pi t), a0 = 0
    L_phi = 0.5 * 0.0828 * 4 * math.pi  # max |phi'| at t = 0
    L_omega = 0.021 * 4 * math.pi
    C = 0.5  # |a0| + phi0/omega0
    i = 500  # t = 0.5
    assert run.t[i] == pytest.approx(0.5)
    assert run.bounds["thm3"][0, i] == pytest.approx((L_phi + C * L_omega) * 0.25 * math.exp(L_omega * 0.5), rel=1e-12)
    assert run.bounds["sharp"][0, i] == pytest.approx((L_phi + C * L_omega) * 0.125, rel=1e-12)
    V_phi, V_omega, omega_min = 0.5 * 0.0828, 0.021, 1 - 0.021
    assert run.bounds["bv"][0, i] == pytest.approx((V_phi + C * V_omega) * (1 - math.exp(-omega_min * 0.5)) / omega_min, rel=1e-12)


def test_bound_values_by_hand_with_a_nonzero_start():
    """C = |a0| + phi0/omega0 with a0 = -0.7 (the oscillatory defaults otherwise): C = 0.7 + 0.5 = 1.2."""
    run = run_frozen_error(RegimeSpec("oscillatory", a0=-0.7))
    L_phi, L_omega = 0.5 * 0.0828 * 4 * math.pi, 0.021 * 4 * math.pi
    C = 1.2
    i = 500  # t = 0.5
    assert run.bounds["thm3"][0, i] == pytest.approx((L_phi + C * L_omega) * 0.25 * math.exp(L_omega * 0.5), rel=1e-12)
    assert run.bounds["sharp"][0, i] == pytest.approx((L_phi + C * L_omega) * 0.125, rel=1e-12)
    V_phi, V_omega, omega_min = 0.5 * 0.0828, 0.021, 1 - 0.021
    assert run.bounds["bv"][0, i] == pytest.approx((V_phi + C * V_omega) * (1 - math.exp(-omega_min * 0.5)) / omega_min, rel=1e-12)


def _decay_closed_form(a0, w, s, t):
    """phi = 0, omega = w (1 + s t), a(0) = a0: a(t) = a0 e^{-w (t + s t^2/2)}; frozen: a0 e^{-w t}."""
    return a0 * np.exp(-w * (t + s * t**2 / 2)), a0 * np.exp(-w * t)


def test_bounds_with_a0_against_the_closed_form_of_a_pure_decay():
    """phi = 0 and omega = w (1 + s t) (slow ramp), a0 = -2: the whole error comes from a0, so the
    bounds are |a0| times the omega terms (C = |a0| + 0/w):
    sharp = |a0| w s t^2/2, thm3 = |a0| w s t^2 e^{w s t}, bv = |a0| w s (1 - e^{-w t})/w.
    |eps| = 2 e^{-w t}(1 - e^{-w s t^2/2}) <= 2 w s t^2/2: all three hold, the sharp one with
    tightness -> 1 as t -> 0. Without |a0| in C every bound would be 0 and refuted."""
    a0, w, s = -2.0, 1.5, 0.4
    run = run_frozen_error(RegimeSpec("slow", phi0=0.0, omega0=w, a0=a0, phi_variation_pct=0.0, omega_variation_pct=100 * s))
    t = run.t
    a_var, a_frz = _decay_closed_form(a0, w, s, t)
    np.testing.assert_allclose(run.a_varying[0], a_var, atol=1e-9)
    np.testing.assert_allclose(run.a_frozen[0], a_frz, atol=1e-14)
    hand = {
        "sharp": 2 * w * s * t**2 / 2,
        "thm3": 2 * w * s * t**2 * np.exp(w * s * t),
        "bv": 2 * w * s * (1 - np.exp(-w * t)) / w,
    }
    eps = np.abs(a_var - a_frz)
    for bound, values in hand.items():
        np.testing.assert_allclose(run.bounds[bound][0], values, rtol=1e-12, atol=0)
        out = bound_outcome(bound, run.summary, True, run.regime.params, run.options)
        assert out.verdict == Verdict.HOLDS, (bound, out.message)
        assert run.summary.tightness[bound][0] == pytest.approx(np.max(eps[1:] / values[1:]), rel=1e-3)


def test_sweep_bounds_with_a0_by_hand():
    """The sweep's compiled kernel (nacverify/frozen/_kernel.py) with a0 = -1.5: its tightness
    equals the single runs' |eps| over the slow family's bounds derived here from the draws
    (L_phi = |phi0 A_phi|/T, L_omega = |omega0 A_omega|/T, C = 1.5 + phi0/omega0)."""
    from nacverify.frozen import member_spec

    sw, params, summary = _sweep_draws("slow", 4, 5, 4, a0=-1.5)
    for i in range(4):
        p0, w0, ap, aw = (params[k][i] for k in ("phi0", "omega0", "phi_amp", "omega_amp"))
        C = 1.5 + abs(p0) / w0
        L_phi, L_omega = abs(p0 * ap), abs(w0 * aw)
        single = run_frozen_error(member_spec(sw, i))
        t, eps = single.t[1:], single.abs_error[0, 1:]
        sharp = (L_phi + C * L_omega) * t**2 / 2
        thm3 = (L_phi + C * L_omega) * t**2 * np.exp(L_omega * t)
        assert summary.tightness["sharp"][i] == pytest.approx(np.max(eps / sharp), rel=1e-6)
        assert summary.tightness["thm3"][i] == pytest.approx(np.max(eps / thm3), rel=1e-6)


def test_adversary_objective_with_a0_by_hand():
    """The search's surrogate (fixed-step RK4 on 200 steps) at one point with a0 = 3: max over its
    grid of |eps| / sharp bound, the bound derived here with C = 3 + phi0/omega0 and |eps| from the
    diffrax run of the same point."""
    from nacverify.frozen._adversary import _objective, point_spec

    theta = np.array([0.3, -0.4, 1.2, -0.9])  # slow: phi0, omega0, phi_amp, omega_amp through the sigmoid map
    spec = point_spec("slow", theta, 0.0, T=1.0, a0=3.0)
    run = run_frozen_error(spec)
    p0, w0, ap, aw = spec.phi0, spec.omega0, spec.phi_variation_pct / 100, spec.omega_variation_pct / 100
    k = (abs(p0 * ap) + (3.0 + p0 / w0) * abs(w0 * aw))
    t, eps = run.t[5::5], run.abs_error[0, 5::5]  # the surrogate's grid t = j/200
    hand = np.max(eps / (k * t**2 / 2))
    got = float(_objective("slow", "sharp", 1.0, 3.0, 200)(jnp.asarray(theta), 0.0))
    assert got == pytest.approx(hand, rel=1e-5)


@pytest.mark.parametrize("name", ["slow", "fast", "step", "oscillatory"])
def test_default_regimes_reproduce_table2_variation_columns(name):
    run = run_frozen_error(RegimeSpec(name))
    row = paper_table2()[name]
    phi, omega = run.phi[0], run.omega[0]
    assert 100 * np.max(np.abs(phi - phi[0])) / phi[0] == pytest.approx(row.phi_variation_pct, abs=0.01)
    assert 100 * np.max(np.abs(omega - omega[0])) / omega[0] == pytest.approx(row.omega_variation_pct, abs=0.01)


@pytest.mark.parametrize("name", ["slow", "fast", "step", "oscillatory"])
def test_bounds_hold_on_defaults_and_step_is_inapplicable(name):
    run = run_frozen_error(RegimeSpec(name))
    facts = run.regime.facts
    for bound in ("thm3", "sharp", "bv"):
        verdict = bound_outcome(bound, run.summary, facts.lipschitz, run.regime.params, run.options).verdict
        if name == "step" and bound != "bv":
            assert verdict == Verdict.INAPPLICABLE
        else:
            assert verdict == Verdict.HOLDS
    # the measured error really stays under the bounds (independent of the verdict logic)
    eps = np.abs(run.a_varying[0] - run.a_frozen[0])
    assert np.all(eps <= run.bounds["bv"][0] + 1e-12)


def test_a_false_bound_is_refuted_with_witness():
    # Halving the sharp constant gives a false bound: (L_phi + C L_omega) t^2 / 4 fails for the
    # linear ramp near t = 0, where eps ~ L_phi t^2 / 2. The verdict logic must say refuted.
    run = run_frozen_error(RegimeSpec("slow", phi_variation_pct=40.0, omega_variation_pct=0.0))
    run.summary.max_excess["sharp"] = np.max(np.abs(run.a_varying - run.a_frozen)[:, 1:] - run.solver_error[:, 1:] - run.bounds["sharp"][:, 1:] / 2, axis=1)
    out = bound_outcome("sharp", run.summary, True, run.regime.params, run.options)
    assert out.verdict == Verdict.REFUTED
    assert out.evidence.witness["phi_amp"] == pytest.approx(0.4)


def test_variation_bound_by_hand_and_table2_audit():
    assert variation_bound(0.005, 0.0026) == pytest.approx(0.0076 / 0.995)
    slow = table2_row_outcome(run_frozen_error(RegimeSpec("slow")))
    assert slow.verdict == Verdict.REFUTED and slow.evidence.scalars["variation_bound_pct"] == pytest.approx(0.7638190954773869)
    # Under the max-deviation reading the oscillatory row's errors are within its bound (11.3%):
    # not refuted by the reading; its mean 7.81 > max 6.90 is refuted reading-independently.
    from nacverify.frozen._readings import mean_le_max_outcome

    osc = table2_row_outcome(run_frozen_error(RegimeSpec("oscillatory")))
    assert osc.verdict == Verdict.HOLDS  # not excluded: whether the suite's regime reproduces the row is evidence only
    assert mean_le_max_outcome("oscillatory").verdict == Verdict.REFUTED
    avg = table2_average_outcome()
    assert avg.verdict == Verdict.REFUTED
    assert avg.evidence.scalars["max_pct_column_mean"] == pytest.approx((3.05 + 6.50 + 7.20 + 6.90) / 4)


def test_variation_bound_inapplicable_when_a0_nonzero():
    run = run_frozen_error(RegimeSpec("slow", a0=0.3))
    assert variation_bound_outcome(run.summary, run.regime.params).verdict == Verdict.INAPPLICABLE


def _sweep_draws(name, n, seed, chunk, a0=0.0):
    """A sweep and its per-draw parameters and summaries, collected from its chunks."""
    from nacverify.frozen._solve import MemberSummary

    chunks = []
    sw = run_sweep(name, n, seed=seed, chunk=chunk, a0=a0, on_chunk=chunks.append)
    params = {k: np.concatenate([c.params[k] for c in chunks]) for k in chunks[0].params}
    return sw, params, MemberSummary.concat([c.summary for c in chunks])


def test_sweep_same_seed_identical_and_bounds_hold():
    a, pa, sa = _sweep_draws("oscillatory", 300, 7, 128)
    b, pb, sb = _sweep_draws("oscillatory", 300, 7, 128)
    assert a.n_done == 300 and sa.rel_max_pct.shape == (300,)
    for key in pa:
        np.testing.assert_array_equal(pa[key], pb[key])
    np.testing.assert_array_equal(sa.rel_max_pct, sb.rel_max_pct)
    np.testing.assert_array_equal(sa.tightness["sharp"], sb.tightness["sharp"])
    assert np.all(sa.tightness["sharp"] <= 1.0)
    _, pc, _ = _sweep_draws("oscillatory", 300, 8, 128)
    assert not np.array_equal(pa["phi0"], pc["phi0"])


def test_sweep_matches_single_runs():
    from nacverify.frozen import member_spec

    sw, params, summary = _sweep_draws("fast", 5, 3, 4)
    for i in range(5):
        spec = member_spec(sw, i)  # recomputed from the seed and the draw's index
        assert spec.phi0 == params["phi0"][i] and spec.shape == params["rate"][i]
        single = run_frozen_error(spec)
        assert summary.rel_max_pct[i] == pytest.approx(single.summary.rel_max_pct[0], rel=1e-8)


def test_step_sweep_against_scipy_piecewise():
    from nacverify.frozen import scipy_baseline
    from nacverify.regimes import sample_draws

    regime = sample_draws("step", 1, 0, 3)  # the sweep's draws; the solver is told every possible jump
    t = np.linspace(0, 1, 201)
    opts = SolveOptions(points=201)
    _, ref = scipy_baseline(regime, t, opts, 3)
    from nacverify.solvers import solve_ensemble

    ours = solve_ensemble(regime.coefficients, regime.params["a0"], t, jump_ts=regime.facts.jump_ts).ys
    np.testing.assert_allclose(ours, ref, atol=1e-9)


def test_interrupt_returns_partial_sweep():
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        run_sweep("slow", 50, seed=0, chunk=20, progress=progress)
    partial = info.value.partial
    assert partial.complete is False and partial.n_done == 20


@pytest.mark.parametrize(
    "spec, words",
    [
        (RegimeSpec("slow", omega0=-1.0), "omega(t) > 0"),
        (RegimeSpec("oscillatory", omega_variation_pct=-150.0), "omega(t) > 0"),
        (RegimeSpec("slow", T=0.0), "T must be > 0"),
        (RegimeSpec("slow", phi0=float("nan")), "finite"),
        (RegimeSpec("fast", shape=float("inf")), "finite"),
        (RegimeSpec("step", shape=1.5), "jump position"),
        (RegimeSpec("wavy"), "unknown regime"),
        (RegimeSpec("custom", phi_formula="0.5", omega_formula="cos(4*t)"), "omega(t) > 0"),
    ],
)
def test_bad_regimes_are_bad_input(spec, words):
    with pytest.raises(BadInput, match=None) as info:
        spec.build()
    assert words in str(info.value)


def test_custom_regime_lipschitz_and_solution():
    run = run_frozen_error(RegimeSpec("custom", phi_formula="0.5 + 0.1*sin(3*t)", omega_formula="1 + 0.2*t^2"))
    f = run.regime.facts
    assert f.L_phi[0] == pytest.approx(0.3, rel=1e-9)  # max |0.3 cos(3t)| at t = 0
    assert f.L_omega[0] == pytest.approx(0.4, rel=1e-9)  # max |0.4 t| at t = 1
    assert f.V_omega[0] == pytest.approx(0.2, rel=1e-9)
    for bound in ("thm3", "sharp", "bv"):
        assert bound_outcome(bound, run.summary, True, run.regime.params, run.options).verdict == Verdict.HOLDS


# sha256 of shared/reference/paper_table2_frozen_error.csv as the project received it
TABLE2_SHA256 = "dcc51232c5ec92f3cec0115fce61adf7d7dd288e48419e27c03c26359518dd10"


def test_shipped_table_equals_shared_reference():
    """The shipped copy is pinned by its hash (so the test runs, and fails rather than skips,
    where shared/ is absent) and equals shared/reference's file wherever that is present."""
    import hashlib
    from importlib import resources
    from pathlib import Path

    shipped = resources.files("nacverify.data").joinpath("paper_table2_frozen_error.csv").read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == TABLE2_SHA256
    shared = Path(__file__).resolve().parents[2] / "shared" / "reference" / "paper_table2_frozen_error.csv"
    if shared.exists():
        assert shipped == shared.read_bytes()


def test_a_single_run_computes_in_float64_without_the_global_switch():
    """A fixed defect (issue 26 review): run_frozen_error was not wrapped in float64(), and outside the CLI
    the frozen solution came back in float32. nacverify.compute.precision: importing nacverify changes nothing in JAX, and the frozen-coefficient
    runs compute inside float64() whatever the caller's setting. Run in a fresh process without
    enable_float64_globally: the frozen closed form a0 e^{-omega0 t} must come back in float64
    (its float32 rounding, ~1e-8 at a0 = 2, would exceed the bounds' margins near t = 0)."""
    import subprocess
    import sys

    code = (
        "import numpy as np; from nacverify.frozen import RegimeSpec, run_frozen_error; "
        "r = run_frozen_error(RegimeSpec('slow', phi0=0.0, omega0=1.5, a0=2.0, phi_variation_pct=0.0, omega_variation_pct=40.0)); "
        "print(r.a_frozen.dtype, float(np.max(np.abs(r.a_frozen[0] - 2.0 * np.exp(-1.5 * r.t)))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**__import__("os").environ, "JAX_PLATFORMS": "cpu"})
    assert out.returncode == 0, out.stderr
    dtype, err = out.stdout.split()
    assert dtype == "float64" and float(err) < 1e-14, out.stdout
