"""Numerical Theorem 1 / Corollary checks and the `check` gate."""

import dataclasses
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify import claims as registry
from nacverify.checks.nac_corollaries import corollary_claims, euler_order
from nacverify.checks.nac_stability import euler_invariance_threshold, euler_iterates, reference_euler_break, thm1_claims
from nacverify.claims import CheckContext, Verdict, evaluate
from nacverify.cli.app import app

QUICK = CheckContext(seed=0, quick=True)


def _claim(cid):
    return {c.id: c for c in [*thm1_claims(), *corollary_claims()]}[cid]


def test_euler_counterexample_refuted_and_witness_reevaluated():
    result = evaluate(_claim("nac.thm1.euler"), QUICK)
    assert result.verdict == Verdict.REFUTED
    w = result.outcome.evidence.witness
    a1 = w["a0"] + w["dt"] * (-w["omega"] * w["a0"] + w["phi"])  # one Euler step by hand
    assert a1 > w["M"] and a1 == pytest.approx(w["a1"])
    s = result.outcome.evidence.scalars
    assert 1.0 <= s["invariance_breaks_at_dt_omega"] <= 1.0 + s["grid_step"]
    assert 2.0 <= s["divergence_from_dt_omega"] <= 2.0 + 2 * s["grid_step"]
    assert result.outcome.evidence.arrays["dt_omega"].shape == result.outcome.evidence.arrays["fraction_leaving"].shape


def test_invariance_threshold_by_hand():
    # one connection: A is an endpoint of [min(0, A), max(0, A)] -> threshold 1
    assert euler_invariance_threshold(np.array([0.0]), np.array([2.0]), np.array([2.0]))[0] == 1.0
    # [m, M] = [-1, 1], A = 0.5: rho = 1.5 / 0.5 = 3 -> 1 + 1/3
    assert euler_invariance_threshold(np.array([-1.0]), np.array([1.0]), np.array([0.5]))[0] == pytest.approx(4 / 3)
    # at h = 4/3 the image of m = -1 is exactly M = 1; just above it leaves
    h = 4 / 3
    assert 0.5 + (1 - h) * (-1 - 0.5) == pytest.approx(1.0)
    assert 0.5 + (1 - h * 1.001) * (-1 - 0.5) > 1.0
    assert evaluate(_claim("nac.thm1.euler.condition"), QUICK).verdict == Verdict.HOLDS


def test_reference_defaults_break_where_omega_exceeds_two():
    x_star = math.log(math.exp(2 - 1e-6) - 1)  # softplus(x) + 1e-6 = 2
    assert x_star == pytest.approx(1.8545854, abs=1e-6)
    x, excursion, _ = reference_euler_break(x=np.array([x_star - 1e-4, x_star + 1e-4]))
    assert excursion[0] <= 1e-12 and excursion[1] > 0
    result = evaluate(_claim("nac.thm1.euler.reference"), QUICK)
    assert result.verdict == Verdict.REFUTED
    assert result.outcome.evidence.scalars["x_break_exact"] == pytest.approx(x_star)


def test_euler_order_against_literal_iteration():
    phi, omega, a0 = 0.7, 2.0, -1.0
    exact = phi / omega + (a0 - phi / omega) * math.exp(-omega)
    errs = [abs(euler_iterates(a0, phi, omega, 1 / n, n)[-1] - exact) for n in (256, 512, 1024)]
    assert math.log2(errs[0] / errs[1]) == pytest.approx(1.0, abs=0.02)
    assert math.log2(errs[1] / errs[2]) == pytest.approx(1.0, abs=0.02)
    _, _, slopes = euler_order(phi, omega, a0)
    assert slopes[0] == pytest.approx(1.0, abs=0.02)
    # a method of order 2 (Heun) must not pass as order 1: the fit really measures the order
    def heun(n):
        a, dt = a0, 1 / n
        for _ in range(n):
            k1 = -omega * a + phi
            k2 = -omega * (a + dt * k1) + phi
            a = a + dt * (k1 + k2) / 2
        return abs(a - exact)

    assert math.log2(heun(256) / heun(512)) == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize("cid", ["nac.thm1.continuous", "nac.thm1.continuous.edges", "nac.cor1", "nac.cor2", "nac.cor3", "nac.euler.order"])
def test_true_statements_hold(cid):
    result = evaluate(_claim(cid), QUICK)
    assert result.verdict == Verdict.HOLDS, result.outcome.message


def test_cor3_formula_by_hand():
    """nac.cor3's worst draw, recomputed: eq. 12's time (1/omega) ln(|a0 - a*|/delta) by hand, and
    the first grid time where the closed form a* + (a0 - a*) e^{-omega t} is inside the tube,
    which the claim's solver-measured entry must match to one step of its grid."""
    result = evaluate(_claim("nac.cor3"), QUICK)
    assert result.verdict == Verdict.HOLDS
    w, s = result.outcome.evidence.witness, result.outcome.evidence.scalars
    a_star = w["phi"] / w["omega"]
    t_star = math.log(abs(w["a0"] - a_star) / w["delta"]) / w["omega"]
    assert w["t_predicted"] == pytest.approx(t_star, rel=1e-12)
    step = s["grid_step_dimensionless"] / w["omega"]
    t = np.arange(0.0, 9.0 / w["omega"] + step / 2, step)
    a = a_star + (w["a0"] - a_star) * np.exp(-w["omega"] * t)
    hand_entry = t[np.argmax(np.abs(a - a_star) <= w["delta"])]
    assert t_star <= hand_entry < t_star + step + 1e-12  # the first grid point at or after t*
    assert w["t_entry"] == pytest.approx(hand_entry, abs=step)


runner = CliRunner()


def test_check_gate_both_directions(tmp_path, monkeypatch):
    res = runner.invoke(app, ["check", "--only", "nac.euler.order", "--only", "nac.thm1.euler.reference", "--quick", "--out", str(tmp_path / "a.h5")])
    assert res.exit_code == 0, res.output
    import nacverify.catalog  # noqa: F401

    claims = dict(registry._REGISTRY)
    for cid, flipped in (("nac.euler.order", Verdict.REFUTED), ("nac.thm1.euler.reference", Verdict.HOLDS)):
        monkeypatch.setitem(registry._REGISTRY, cid, dataclasses.replace(claims[cid], expected=flipped))
        res = runner.invoke(app, ["check", "--only", cid, "--quick", "--out", str(tmp_path / f"{cid}.h5")])
        assert res.exit_code == 1, res.output
        monkeypatch.setitem(registry._REGISTRY, cid, claims[cid])
    res = runner.invoke(app, ["check", "--only", "nothing.matches", "--out", str(tmp_path / "n.h5")])
    assert res.exit_code == 2


def test_parallel_groups_give_the_serial_verdicts(tmp_path):
    from nacverify.report import read_report

    args = ["check", "--quick", "--only", "nac.euler.order", "--only", "nac.table2.average", "--only", "nac.cor1"]
    serial = runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "s.h5")])
    parallel = runner.invoke(app, [*args, "--jobs", "2", "--out", str(tmp_path / "p.h5")])
    assert serial.exit_code == 0 and parallel.exit_code == 0, parallel.output
    a, b = read_report(tmp_path / "s.h5"), read_report(tmp_path / "p.h5")
    assert list(a.claims) == list(b.claims) and len(a.claims) == 3
    for cid in a.claims:
        assert a.claims[cid].verdict == b.claims[cid].verdict
        assert a.claims[cid].scalars == b.claims[cid].scalars  # same seeds, same numbers
    assert b.sections["check"]["jobs"] == 2


def test_euler_message_states_the_grid_values_as_measured():
    """The message of nac.thm1.euler names the first grid points as measured (1.005 and 2.005 on
    the 0.005-step grid) and gives the exact thresholds 1 and 2 as exact, never 'from dt*omega = 1'
    (the old text rounded the grid point 1.005 to 1 and 2.005 to 2)."""
    result = evaluate(_claim("nac.thm1.euler"), QUICK)
    message, s = result.outcome.message, result.outcome.evidence.scalars
    step = s["grid_step"]
    assert step == pytest.approx((3.0 - 0.005) / 599)  # np.linspace(0.005, 3.0, 600): step 0.005
    # hand-derived: with one connection the first exit is the first grid point above 1, divergence the first above 2
    assert s["first_grid_dt_omega_leaving"] == pytest.approx(1.005) and s["first_grid_dt_omega_diverging"] == pytest.approx(2.005)
    assert "dt*omega = 1.005" in message and "dt*omega = 2.005" in message
    assert "first grid point" in message and "exact thresholds" in message
    assert "leaves [m, M] from dt*omega = 1 " not in message and "diverges from 2" not in message


def test_cor2_edge_grid_against_the_closed_form():
    """eq. 8: |a_t - a*| = |a0 - a*| e^(-omega t), so with a0 = a* + s M the slack M e^(-omega t) - |a_t - a*| is
    (1 - |s|) M e^(-omega t), smallest at t = 5: 0 at the equality case s = +-1, M e^(-5 omega) at s = 0."""
    from nacverify.checks.nac_corollaries import EDGE_M, EDGE_OMEGA, EDGE_PHI, EDGE_SIDES, cor2_edges

    edges = cor2_edges(np.linspace(0.0, 5.0, 501))
    assert edges["omega"].size == len(EDGE_OMEGA) * len(EDGE_PHI) * len(EDGE_M) * len(EDGE_SIDES) == 375
    assert {0.0, 1e3, -1e3} <= set(edges["phi"].tolist()) and edges["omega"].min() == 1e-4 and edges["M"].max() == 1e6
    by_hand = (1 - np.abs(edges["side"])) * edges["M"] * np.exp(-5.0 * edges["omega"])
    assert np.allclose(edges["slack"], by_hand, rtol=1e-7, atol=1e-9 * np.maximum(edges["M"], np.abs(edges["phi"] / edges["omega"])).max())
    assert np.all(edges["excess_over_error"] <= 0)


def test_thm1_edges_leave_the_draws_ranges_and_hand_intervals():
    """The draws of nac.thm1.continuous take f_omega in [0.01, 10], f_phi in [-5, 5]; the edges go beyond. For the
    pair f_omega = (1e3, 1e-4), f_phi = (1e3, -1e3): A = (1, -1e7), so [m, M] = [-1e7, 1]; for phi = 0 it is [0, 0]."""
    from nacverify.checks.nac_corollaries import thm1_edges
    from nacverify.checks.nac_stability import _interval

    f_omega, f_phi, mask = thm1_edges(0, wide_draws=200)
    assert f_omega[mask].min() < 0.01 and f_omega[mask].max() > 10 and np.abs(f_phi).max() > 5
    row = next(i for i in range(len(f_omega)) if f_omega[i, 0] == 1e3 and f_omega[i, 1] == 1e-4 and f_phi[i, 0] == 1e3)
    _, m, M = _interval(mask[row:row + 1], f_omega[row:row + 1], f_phi[row:row + 1])
    assert m[0] == pytest.approx(-1e7) and M[0] == pytest.approx(1.0)
    zero = next(i for i in range(len(f_omega)) if mask[i].sum() == 1 and f_phi[i, 0] == 0.0)
    _, m, M = _interval(mask[zero:zero + 1], f_omega[zero:zero + 1], f_phi[zero:zero + 1])
    assert m[0] == 0.0 and M[0] == 0.0
