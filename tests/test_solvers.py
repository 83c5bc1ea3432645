"""Backends diffrax, scipy and mpmath: closed forms, agreement on the four regimes and the LTC problems."""

import mpmath
import numpy as np
import pytest

from nacverify.claims import Verdict
from nacverify.errors import BadInput, EnvironmentProblem
from nacverify.ltc import ltc_problem
from nacverify.regimes import NAMED_REGIMES, custom_regime, named_regime
from nacverify.solvers import discrepancy, get_backend, ltc_as_problem, nac_problem, parse_backends
from nacverify.checks.solver_agreement import AGREE_TOLERANCE, SolveRun, agreement_outcome, solve_with
from nacverify.solvers.base import Solution, pairwise
from nacverify.solvers.mpmath_backend import MpmathBackend, solve_pieces_mp

FLOAT_BACKENDS = ("diffrax", "scipy")


def _closed_form_mp(t, a0, phi, omega):
    """a(t) = a* + (a0 - a*) exp(-omega t) (seed 001 eq. 3), in mpmath."""
    a_star = phi / omega
    return a_star + (a0 - a_star) * mpmath.exp(-omega * t)


def test_mpmath_equals_closed_form_to_1e25_constant_coefficients():
    regime = named_regime("slow", phi0=0.5, omega0=1.7, phi_variation_pct=0.0, omega_variation_pct=0.0, a0=0.3, T=0.5)
    problem = nac_problem(regime, points=11)
    exact, series, calls = solve_pieces_mp(problem, dps=32, degree=20)
    assert series >= 1 and calls >= 20
    with mpmath.mp.workdps(40):
        errs = [abs(exact[0, k] - _closed_form_mp(mpmath.mpf(float(t)), mpmath.mpf(0.3), mpmath.mpf(0.5), mpmath.mpf(1.7))) for k, t in enumerate(problem.ts)]
    assert max(errs) < mpmath.mpf("1e-25"), max(errs)


def test_mpmath_step_regime_piecewise_closed_form_to_1e25():
    """Step regime: constant gates on each side of the jump, so the exact solution is the
    closed form on [0, s T) continued from a(s T) with the post-jump gates."""
    ap, aw, s = 0.2, -0.1, 0.4
    regime = named_regime("step", phi0=0.5, omega0=1.2, phi_variation_pct=100 * ap, omega_variation_pct=100 * aw, shape=s, a0=0.1, T=0.8)
    problem = nac_problem(regime, points=9)
    assert problem.breaks == (s * 0.8,)
    exact, _, _ = solve_pieces_mp(problem, dps=32, degree=20)
    with mpmath.mp.workdps(40):
        mpf = mpmath.mpf
        tj = mpf(s * 0.8)
        phi1, omega1 = mpf(0.5) * (1 + mpf(ap)), mpf(1.2) * (1 + mpf(aw))
        a_jump = _closed_form_mp(tj, mpf(0.1), mpf(0.5), mpf(1.2))
        for k, t in enumerate(problem.ts):
            t = mpf(float(t))
            ref = _closed_form_mp(t, mpf(0.1), mpf(0.5), mpf(1.2)) if t < tj else _closed_form_mp(t - tj, a_jump, phi1, omega1)
            assert abs(exact[0, k] - ref) < mpf("1e-25")


@pytest.mark.parametrize("backend,method", [("diffrax", "Tsit5"), ("diffrax", "Dopri8"), ("scipy", "DOP853"), ("scipy", "Radau"), ("scipy", "LSODA")])
def test_float_backends_equal_closed_form(backend, method):
    regime = named_regime("slow", phi0=0.5, omega0=1.7, phi_variation_pct=0.0, omega_variation_pct=0.0, a0=0.3)
    problem = nac_problem(regime, points=21)
    sol = get_backend(backend).solve(problem, rtol=1e-12, atol=1e-14, method=method)
    exact = 0.5 / 1.7 + (0.3 - 0.5 / 1.7) * np.exp(-1.7 * problem.ts)
    err = np.max(np.abs(sol.ys[0] - exact)) / np.max(np.abs(exact))
    assert err <= AGREE_TOLERANCE, err
    assert sol.error_estimate is not None and sol.error_estimate[0] < 1e-9
    assert sol.num_steps > 0


@pytest.mark.parametrize("name", NAMED_REGIMES)
def test_four_regimes_agree(name):
    problem = nac_problem(named_regime(name))
    run = solve_with(problem, ["diffrax", "scipy", "mpmath"])
    out = agreement_outcome(run)
    assert out.verdict == Verdict.HOLDS, out.message
    assert out.evidence.scalars["max_relative_discrepancy"] <= AGREE_TOLERANCE
    if name == "step":
        assert problem.breaks == (0.5,) and "jumps at t = 0.5 handled" in out.message
    mp = next(s for s in run.solutions if s.backend == "mpmath")
    assert mp.max_error_estimate < 1e-15  # the oracle: dps 20 vs dps 25


def test_sweep_members_agree_as_one_system():
    """A regime with several members is one vector system for every backend."""
    regime = named_regime("oscillatory", phi0=np.array([0.2, 0.5, 0.9]), omega0=np.array([0.5, 1.0, 3.0]), shape=np.array([0.5, 2.0, 3.5]))
    run = solve_with(nac_problem(regime, points=51), ["diffrax", "scipy", "mpmath"], estimate_error=False)
    assert all(s.ys.shape == (3, 51) for s in run.solutions)
    assert agreement_outcome(run).verdict == Verdict.HOLDS


def test_custom_regime_agrees():
    regime = custom_regime("0.5 + 0.05*sin(6*t)", "1 + 0.2*t^2 + E*0.01", T=1.0)
    run = solve_with(nac_problem(regime, points=51), ["diffrax", "scipy", "mpmath"], estimate_error=False)
    assert agreement_outcome(run).verdict == Verdict.HOLDS


@pytest.mark.parametrize("form", ["abstract", "biophysical"])
@pytest.mark.parametrize("kind", ["smooth", "irregular"])
def test_ltc_problems_agree(form, kind):
    # small networks and a short window keep the arbitrary-precision oracle fast
    ltc = ltc_problem(form, neurons=3, inputs=1, input_kind=kind, seed=1, T=0.5, events=3)
    problem = ltc_as_problem(ltc, points=51)
    assert len(problem.breaks) == (3 if kind == "irregular" else 0)
    mp = MpmathBackend(dps=18)
    sols = [get_backend(n).solve(problem, rtol=1e-12, atol=1e-14, estimate_error=False) for n in FLOAT_BACKENDS]
    sols.append(mp.solve(problem, rtol=1e-12, atol=1e-14, estimate_error=False))
    run = SolveRun(problem, sols, pairwise(sols), 1e-12, 1e-14, 0.0)
    out = agreement_outcome(run)
    assert out.verdict == Verdict.HOLDS, out.message


def test_ltc_tanh_and_stiff_methods_agree():
    problem = ltc_as_problem(ltc_problem("abstract", neurons=3, inputs=2, activation="tanh", seed=4, T=0.5), points=26)
    sols = [
        get_backend("scipy").solve(problem, rtol=1e-12, atol=1e-14, method="Radau", estimate_error=False),
        get_backend("scipy").solve(problem, rtol=1e-12, atol=1e-14, method="LSODA", estimate_error=False),
        MpmathBackend(dps=18).solve(problem, rtol=1e-12, atol=1e-14, estimate_error=False),
    ]
    assert agreement_outcome(SolveRun(problem, sols, pairwise(sols), 1e-12, 1e-14, 0.0)).verdict == Verdict.HOLDS


def test_ltc_agreement_ids_and_sources_name_the_activation():
    from nacverify.checks.solver_agreement import ltc_agreement_problem

    sig = ltc_agreement_problem(ltc_problem("abstract", activation="sigmoid", neurons=2, inputs=1), points=5)
    tanh = ltc_agreement_problem(ltc_problem("abstract", activation="tanh", neurons=2, inputs=1), points=5)
    assert (sig.id, tanh.id) == ("ltc.abstract.sigmoid.smooth", "ltc.abstract.tanh.smooth")
    assert "9a" not in sig.source and "sigma" in sig.source  # sigmoid is not eq. 9a's tanh
    assert "eq. 9a" in tanh.source
    assert ltc_agreement_problem(ltc_problem("biophysical", neurons=2, inputs=1), points=5).id == "ltc.biophysical.smooth"


def test_stiff_problem_reaches_small_tau_and_claims_are_lemmas():
    from nacverify.checks.solver_agreement import STIFF_TAU_RANGE, stiff_ltc_problem
    from nacverify.claims import Kind, registry

    problem = stiff_ltc_problem("sigmoid", "smooth", points=5)
    tau = np.asarray(problem.ltc.model.tau)
    assert STIFF_TAU_RANGE[0] <= tau.min() and tau.max() <= STIFF_TAU_RANGE[1] <= 1e-3
    stiff = {k: c for k, c in registry().items() if k.startswith("solvers.agree.ltc.") and ".stiff" in k}
    assert len(stiff) >= 2 and all(c.kind == Kind.LEMMA for c in stiff.values())


def test_stiff_agreement_tolerance_comes_from_the_error_estimates():
    from nacverify.checks.solver_agreement import stiff_agreement_outcome

    ref = _fake("ref", [[0.0, 1.0, 2.0]], None)
    ok = _fake("a", [[0.0, 1.0, 2.0 + 1e-9]], 1e-9)  # d = 5e-10 <= 10 (1e-9 + ref) / 2
    bad = _fake("b", [[0.0, 1.0, 2.0 + 1e-6]], 1e-9)  # d = 5e-7 > 10 x 1e-9 / 2
    assert stiff_agreement_outcome([ok], ref).verdict == Verdict.HOLDS
    out = stiff_agreement_outcome([ok, bad], ref)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness["relative"] == pytest.approx(5e-7, rel=1e-6)
    loose = _fake("c", [[0.0, 1.0, 2.0 + 1e-6]], 1e-3)  # estimate too loose to decide
    assert stiff_agreement_outcome([loose], ref).verdict == Verdict.INCONCLUSIVE


def _fake(name, ys, est):
    ys = np.asarray(ys, dtype=float)
    return Solution(name, "m", np.linspace(0, 1, ys.shape[1]), ys, 1e-10, 1e-12, 1, 0, 1, None if est is None else np.full(ys.shape[0], est), 0.0)


def test_discrepancy_by_hand():
    a = _fake("a", [[1.0, 2.0, 4.0], [0.0, 0.1, 0.2]], 1e-12)
    b = _fake("b", [[1.0, 2.0 + 4e-9, 4.0], [0.0, 0.1, 0.2 + 1e-9]], 1e-12)
    d = discrepancy(a, b)
    # component 0: 4e-9 / 4 = 1e-9; component 1: 1e-9 / 0.2 = 5e-9 (the larger)
    assert d.relative == pytest.approx(5e-9, rel=1e-6) and d.component == 1 and d.t == 1.0
    np.testing.assert_allclose(d.per_component, [1e-9, 5e-9], rtol=1e-6)
    assert d.absolute == pytest.approx(4e-9, rel=1e-6)
    assert d.estimate == pytest.approx(2e-12 / 0.2, rel=1e-9)


def test_agreement_verdicts_on_known_counterexamples():
    problem = nac_problem(named_regime("slow"), points=11)
    good = solve_with(problem, ["scipy", "mpmath"], estimate_error=True)
    assert agreement_outcome(good).verdict == Verdict.HOLDS
    # a loose solve: its own error estimate explains the discrepancy -> inconclusive
    loose = get_backend("scipy").solve(problem, rtol=1e-4, atol=1e-6)
    mp = next(s for s in good.solutions if s.backend == "mpmath")
    run = SolveRun(problem, [loose, mp], pairwise([loose, mp]), 1e-4, 1e-6, 0.0)
    assert pairwise([loose, mp])[0].relative > AGREE_TOLERANCE
    assert agreement_outcome(run).verdict == Verdict.INCONCLUSIVE
    # a different problem (omega0 1.0 vs 1.001) solved accurately: refuted, with a witness
    other = nac_problem(named_regime("slow", omega0=1.001), points=11)
    wrong = get_backend("scipy").solve(other, rtol=1e-12, atol=1e-14)
    run = SolveRun(problem, [wrong, mp], pairwise([wrong, mp]), 1e-12, 1e-14, 0.0)
    out = agreement_outcome(run)
    assert out.verdict == Verdict.REFUTED and out.evidence.witness["pair"] == "scipy-mpmath"


def test_backend_errors():
    with pytest.raises(BadInput):
        get_backend("nope")
    with pytest.raises(BadInput):
        parse_backends("scipy,scipy")
    with pytest.raises(BadInput):
        get_backend("scipy").solve(nac_problem(named_regime("slow")), rtol=1e-10, atol=1e-12, method="RK45")
    with pytest.raises(BadInput):
        get_backend("diffrax").solve(nac_problem(named_regime("slow")), rtol=1e-15, atol=1e-12)
    with pytest.raises(BadInput):
        MpmathBackend(dps=10)
    with pytest.raises(BadInput):
        solve_with(nac_problem(named_regime("slow")), ["scipy", "mpmath"], methods={"diffrax": "Tsit5"})


def test_requested_missing_backend_raises_environment_problem(monkeypatch, tmp_path):
    for var in ("PYTHON_JULIACALL_EXE", "PYTHON_JULIACALL_BINDIR", "PYTHON_JULIAPKG_EXE", "JULIA", "PYTHON_JULIACALL_PROJECT", "JULIAUP_DEPOT_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_JULIAPKG_PROJECT", str(tmp_path / "env"))
    with pytest.raises(EnvironmentProblem, match="no Julia executable found"):
        solve_with(nac_problem(named_regime("slow")), ["scipy", "julia"])


def test_an_ensemble_solved_with_copies_added_gives_the_same_bits_and_the_closed_form():
    """solve_ensemble(members=...) pads the ensemble with copies of member 0 (one compiled solve for two
    sizes): the given members' values are the bits of the unpadded solve, and they are the closed form
    a* + (a0 - a*) e^(-omega t) (seed 001 eq. 3) to the tolerance; an array that is not per member is refused."""
    import jax.numpy as jnp

    from nacverify.errors import NacverifyError
    from nacverify.compute.precision import float64
    from nacverify.regimes import ConstantCoefficients
    from nacverify.solvers import solve_ensemble

    rng = np.random.default_rng(5)
    phi, omega, a0 = rng.uniform(-3, 3, 7), np.exp(rng.uniform(np.log(0.05), np.log(20.0), 7)), rng.uniform(-5, 5, 7)
    ts = np.linspace(0.0, 5.0, 51)
    with float64():
        coefficients = ConstantCoefficients(jnp.asarray(phi), jnp.asarray(omega))
        alone = solve_ensemble(coefficients, a0, ts, rtol=1e-10, atol=1e-12)
        padded = solve_ensemble(coefficients, a0, ts, rtol=1e-10, atol=1e-12, members=20)
        with pytest.raises(NacverifyError, match="one value per member"):
            solve_ensemble(ConstantCoefficients(jnp.asarray(phi[:3]), jnp.asarray(omega)), a0[:3], ts, members=20)
    assert padded.ys.shape == alone.ys.shape == (7, 51)
    np.testing.assert_array_equal(padded.ys, alone.ys)
    assert (padded.num_steps, padded.num_rejected) == (alone.num_steps, alone.num_rejected)
    a_star = phi / omega
    closed = a_star[:, None] + (a0 - a_star)[:, None] * np.exp(-omega[:, None] * ts[None, :])
    np.testing.assert_allclose(alone.ys, closed, rtol=1e-7, atol=1e-8)
