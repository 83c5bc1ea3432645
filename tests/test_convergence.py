"""The convergence study (issue 44): every expected number below comes from a derivation (a Taylor
argument, a closed form, a stability polynomial's root), never from a stored run of this code."""

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.cli.app import app
from nacverify.convergence.methods import method
from nacverify.convergence.order import fit_order
from nacverify.convergence.problems import StudyProblem, study_problem
from nacverify.convergence.reference import reference
from nacverify.convergence.stability import LINEAR_LAMBDA, largest_steps, linear_bound, setting
from nacverify.convergence.study import converge
from nacverify.regimes import custom_regime
from nacverify.report import read_report
from nacverify.solvers.problem import nac_problem

runner = CliRunner()


def _decay(phi: str = "0", omega: str = "1", a0: float = 1.0) -> StudyProblem:
    return StudyProblem("test.decay", "nac", nac_problem(custom_regime(phi, omega, a0=a0), np.array([0.0, 1.0])), True, "a' = -omega a + phi")


def test_euler_error_constant_on_decay_is_the_closed_form():
    # y' = -y, y(0) = 1: y_n = (1 - h)^n; at T = n h = 1, (1 - h)^(1/h) = e^-1 (1 - h/2 + O(h^2)), so the
    # error is -(e^-1 / 2) h + O(h^2): C = e^-1 / 2
    sp = _decay()
    ref = reference(sp)
    assert abs(ref.y[0] - math.exp(-1)) < 1e-15
    r = converge(sp, method("euler"), ref, quick=True)
    fine = r.dts[-1]
    assert abs(r.errors[-1] / fine / (math.exp(-1) / 2) - 1) < 2 * fine + 1e-6
    assert abs(r.fit.order - 1) < 0.1


@pytest.mark.parametrize("pid, mid, theory", [
    ("nac.custom", "euler", 1), ("nac.custom", "rk4", 4), ("nac.custom", "implicit_euler", 1), ("nac.custom", "nac_euler", 1),
    ("nac.custom", "nac_exact", 1), ("nac.fast", "tsit5", 5), ("nac.custom", "kvaerno5", 5), ("nac.custom", "dopri8", 8),
    ("ltc.sigmoid", "fused", 1), ("ltc.sigmoid", "rk4", 4),
    ("authors.cell", "authors.fused", 1), ("authors.cell", "authors.euler", 1), ("authors.cell", "authors.rk4", 4),
])
def test_observed_order_is_the_theoretical_one(pid, mid, theory):
    # theory: the method's definition (nacverify.convergence.methods: Taylor arguments; the fused step's
    # h^2 term differs from the flow's, so order 1; the frozen-coefficient step is exponential Euler)
    sp = study_problem(pid)
    r = converge(sp, method(mid), reference(sp, check=sp.family == "nac"), quick=False)
    assert abs(r.fit.order - theory) <= 0.1, (r.fit, r.errors)
    assert r.fit.residual < 0.1 and r.fit.used.sum() >= 3


def test_exact_mode_is_exact_for_constant_coefficients():
    # a' = -omega a + phi with phi, omega constant: the frozen step is the flow itself (seed 001 eq. 3)
    sp = _decay("0.5", "2", a0=0.3)
    r = converge(sp, method("nac_exact"), reference(sp), quick=True)
    assert np.all(r.errors < 1e-14) and math.isnan(r.fit.order) and "floor" in r.fit.why


def test_dopri8_stability_function_agrees_with_exp_to_order_8():
    # a Runge-Kutta method of order p has R(z) = 1 + sum_j z^j b^T A^(j-1) 1 equal to e^z's series up to
    # z^p: b^T A^(j-1) 1 = 1/j! for j <= p (the order conditions of the tall trees)
    from nacverify.convergence.stability import _tableau

    for mid, p in (("dopri8", 8), ("tsit5", 5), ("rk4", 4)):
        A, b = _tableau(mid)
        coeff = [float(b @ np.linalg.matrix_power(A, j - 1) @ np.ones(len(b))) for j in range(1, p + 1)]
        np.testing.assert_allclose(coeff, [1 / math.factorial(j) for j in range(1, p + 1)], rtol=1e-12, atol=1e-16)


def test_hidden_jumps_drop_the_order_to_one_given_jumps_keep_it():
    given, hidden = study_problem("nac.step.given"), study_problem("nac.step.hidden")
    rg = converge(given, method("rk4"), reference(given), quick=False)
    rh = converge(hidden, method("rk4"), reference(hidden), quick=False)
    assert abs(rg.fit.order - 4) <= 0.1
    assert abs(rh.fit.order - 1) <= 0.3 and rh.expected == 1 and "hidden" in rh.notes


def test_fit_drops_the_floor_and_the_preasymptotic_start():
    dts = 2.0 ** -np.arange(0, 14)
    errors = 3 * dts**2 * (1 + 5 * dts)  # order 2 with a first correction
    errors = np.maximum(errors, 1e-7)  # a floor, reached at dt ~ 2e-4
    fit = fit_order(dts, errors, floor=2e-7)
    assert abs(fit.order - 2) < 0.05 and not fit.used[0] and not fit.used[errors <= 2e-7].any()
    assert fit.dt_min == dts[errors > 2e-7].min()


def test_linear_stability_bounds_match_the_closed_forms():
    sp = setting("linear")  # a' = -50 a + 1
    lam = LINEAR_LAMBDA
    bounded, stable = largest_steps(sp, "euler")
    assert abs(bounded * lam / 2 - 1) < 5e-3 and abs(stable * lam - 1) < 5e-3  # |1 - lam h| <= 1; 1 - lam h >= 0
    # RK4: R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 > 0 on the real axis; |R| = 1 where z (1 + z/2 + z^2/6 + z^3/24) = 0
    roots = np.roots([1 / 24, 1 / 6, 1 / 2, 1])
    edge = -float(roots[np.abs(roots.imag) < 1e-12].real[0])
    assert abs(edge - 2.7853) < 1e-3
    assert abs(linear_bound("rk4", lam)[0] * lam / edge - 1) < 1e-6
    bounded, stable = largest_steps(sp, "rk4")
    assert abs(bounded * lam / edge - 1) < 5e-3 and stable == bounded
    assert largest_steps(sp, "implicit_euler") == (math.inf, math.inf)


def test_authors_cell_is_the_biophysical_ode():
    # one explicit unfold of the authors' update equals v + h f(v) of nacverify's eq. 1-2 field
    from nacverify.audit.ltc.updates import advance
    from nacverify.convergence.authors_cell import cell_of

    sp = study_problem("authors.cell")
    cell, I = cell_of(sp.problem.ltc)
    v0 = np.array([0.1, -0.3, 0.2, -0.5])
    v1, _, _ = advance("euler", cell, v0[None], I[None], np.array([0.01]), 1)
    F = sp.problem.vector_field(np)
    np.testing.assert_allclose(v1[0], v0 + 0.01 * F(0.0, v0), rtol=0, atol=1e-15)


def test_cli_writes_the_group_and_refuses_unknown_names(tmp_path):
    out = tmp_path / "c.h5"
    res = runner.invoke(app, ["convergence", "--quick", "--problem", "nac.slow", "--method", "euler,rk4", "--parts", "orders,stability",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = read_report(out)
    node = data.sections["convergence"]["orders"]["nac.slow"]["euler"]
    assert node["expected_order"] == 1 and abs(node["observed_order"] - 1) < 0.1 and node["dt"].shape == node["error"].shape
    assert set(data.sections["convergence"]["orders"]["nac.slow"]) == {"euler", "rk4"}
    stab = data.sections["convergence"]["stability"]["linear"]["euler"]
    assert abs(stab["largest_bounded_dt"] - 2 / LINEAR_LAMBDA) < 1e-3
    bad = runner.invoke(app, ["convergence", "--problem", "nope", "--out", str(tmp_path / "x.h5")])
    assert bad.exit_code == 2 and "unknown problem" in bad.output


def test_json_document_holds_the_orders(tmp_path):
    import json

    res = runner.invoke(app, ["convergence", "--quick", "--problem", "nac.custom", "--method", "rk4", "--parts", "orders", "--format", "json",
                              "--out", str(tmp_path / "j.h5")])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    node = doc["convergence"]["orders"]["nac.custom"]["rk4"]
    assert doc["format"] == "nacverify.convergence/1" and abs(node["observed_order"] - 4) < 0.1 and len(node["dt"]) == len(node["error"])


def test_fused_step_with_hidden_jumps_converges_at_order_one():
    # the input is evaluated at each step's own start when the jumps are hidden: the fused step still
    # converges (order 1), it does not integrate the input held at one value (a defect of an earlier draft)
    sp = study_problem("ltc.jumps.hidden")
    r = converge(sp, method("fused"), reference(sp, check=False), quick=True)
    assert r.errors[-1] < 1e-2 * r.errors[0] and abs(r.fit.order - 1) < 0.3


def test_interrupt_keeps_the_finished_pairs_and_html_draws_the_group(tmp_path, monkeypatch):
    import nacverify.convergence.study as study
    from nacverify.report.html import render_html

    real, calls = study.converge, []

    def converge_then_interrupt(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(study, "converge", converge_then_interrupt)
    out = tmp_path / "i.h5"
    res = runner.invoke(app, ["convergence", "--quick", "--problem", "nac.slow", "--method", "euler,rk4,nac_euler", "--out", str(out)])
    assert res.exit_code == 3, res.output
    data = read_report(out)
    assert not data.complete and set(data.sections["convergence"]["orders"]["nac.slow"]) == {"euler", "rk4"}
    page = render_html(data, tmp_path / "html")
    assert "Convergence, work-precision and stability" in page.read_text() and any((tmp_path / "html").glob("fig-*convergence*.png"))
