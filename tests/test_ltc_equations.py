"""Seed 002's statements about its equations (proofs/ltc_equations.py and the claim modules
nacverify/checks/ltc_model_equations.py, ltc_bounds_2018.py, ltc_trajectory_length.py and
ltc_table11.py): verdicts, and each counterexample recomputed here by hand (plain floats,
fractions, numpy, a hand-written RK4), never with the code under test."""

import math
from fractions import Fraction

import numpy as np
import pytest

import nacverify.catalog  # noqa: F401
from nacverify.checks import ltc_bounds_2018 as lb18
from nacverify.checks import ltc_model_equations as lme
from nacverify.checks import ltc_table11 as lt11
from nacverify.checks import ltc_trajectory_length as ltl
from nacverify.claims import CheckContext, Verdict, evaluate, registry
from nacverify.symbolic import all_obligations

PROOFS = [ob for ob in all_obligations() if ob.source.startswith("002") and ob.id in {
    "ltc.eq1.cm_slower", "ltc.eq1.rc_decay", "ltc.eq2.zero_at_reversal", "ltc.eq2.half_activation", "ltc.eq2a.range",
    "ltc.eq3.bidirectional", "ltc.eq3.linear_term.rate", "ltc.eq4.from_eq1", "ltc.eq5a.monotone", "ltc.eq6.decay",
    "ltc.eq6.drive.shared_reversal", "ltc.eq7.pulls_to_zero.sigmoid", "ltc.eq10.gap_lower", "ltc.eq10.attainment",
    "ltc.eq13.invariant", "ltc.eq15.growth_bound", "ltc.eq16.corrected", "ltc.sec8.larger_bound.small_dt"}]
CLAIMS = {c.id: c for c in [*lme.model_equation_claims(), *lb18.bounds_2018_claims(), *ltl.trajectory_length_claims(), *lt11.table11_claims()]}


def run(claim_id, quick=True):
    return evaluate(registry()[claim_id], CheckContext(quick=quick))


def test_all_obligations_are_collected_and_hold():
    # every obligation of the new module holds (none refuted: tests/test_symbolic_proofs.py keeps a fixed recheck set)
    assert len(PROOFS) == 18
    for ob in PROOFS:
        f = ob.run()
        assert ob.expect == Verdict.HOLDS
        assert f.verdict == Verdict.HOLDS, (ob.id, f.message)


def test_claims_registered_with_kind_and_source():
    claims = registry()
    for cid, c in CLAIMS.items():
        assert claims[cid] is not None and c.kind is not None and c.source.startswith("002_02b8eaa764ffef08.txt"), cid
        assert (c.kind.value == "reading") == bool(c.reading), cid


# --- hand-derived facts behind the obligations ------------------------------------
def test_half_activation_at_minus_mu():
    from sympy import Float, Symbol, parse_expr

    from nacverify.proofs import ltc_equations as proof

    finding = next(ob for ob in PROOFS if ob.id == "ltc.eq2.half_activation").run()
    assert finding.verdict == Verdict.HOLDS, finding.message
    solutions = finding.expressions["solutions"].strip("[]").split(",")
    assert len(solutions) == 1                                             # unique, as the claim says
    half_point = parse_expr(solutions[0], local_dict={"mu": Symbol("mu")})
    for gamma, mu in ((0.5, 1.3), (5.0, -2.0), (-1.0, 0.4)):
        assert 1 / (1 + math.exp(-gamma * (-mu + mu))) == 0.5
        assert abs(1 / (1 + math.exp(-gamma * (mu + mu))) - 0.5) > 1e-3      # +mu is not the half point
        # SymPy's solution of eq. 2a = 1/2 is the hand value -mu; eq. 2a as the claim writes it is 1/2 there and not at +mu
        assert float(half_point.subs(Symbol("mu"), mu)) == -mu
        at = {proof.gamma: Float(gamma), proof.mu: Float(mu)}
        assert float(proof.sigmoid(-proof.mu).subs(at)) == 0.5
        assert float(proof.sigmoid(proof.mu).subs(at)) == pytest.approx(1 / (1 + math.exp(-gamma * (mu + mu))), rel=1e-12)


def test_rc_decay_by_finite_differences():
    from sympy import Symbol, parse_expr

    C, G, VL, V0 = 2.0, 0.5, -0.7, 0.3
    V = lambda t: VL + (V0 - VL) * math.exp(-G * t / C)  # noqa: E731
    h, t = 1e-6, 1.3
    assert abs((V(t + h) - V(t - h)) / (2 * h) - G / C * (VL - V(t))) < 1e-8
    assert abs(V(60 * C / G) - VL) < 1e-12
    # dsolve's solution of the claim's ODE (eq. 1 with I_in = 0, V(0) = V_0) is the hand solution, at several times
    finding = next(ob for ob in PROOFS if ob.id == "ltc.eq1.rc_decay").run()
    assert finding.verdict == Verdict.HOLDS, finding.message
    values = {"C_m": C, "G_L": G, "V_L": VL, "V_0": V0}
    solution = parse_expr(finding.expressions["dsolve.dsolve"], local_dict={name: Symbol(name) for name in [*values, "t"]})
    for time in (0.0, 0.4, t, 9.0):
        assert float(solution.subs({Symbol(name): value for name, value in {**values, "t": time}.items()})) == pytest.approx(V(time), rel=1e-12)
    assert finding.expressions["limit.limit"] == "V_L"


# --- refuted claims: verdicts and witnesses recomputed ------------------------------
def test_gap_tau_sys_not_linear():
    r = run("ltc.eq3.linear_term.tau_sys")
    assert r.verdict == Verdict.REFUTED
    taus = [1 / (1 + 0.5 + k) for k in (0, 1, 2)]                 # C = G = w = 1, sigma = 1/2
    assert taus[1] - taus[0] != pytest.approx(taus[2] - taus[1])
    assert r.outcome.evidence.witness["tau_sys_omega2"] == pytest.approx(2 / 7)


def test_eq6_drive_needs_one_reversal_per_neuron():
    r = run("ltc.eq6.drive")
    w = r.outcome.evidence.witness
    assert r.verdict == Verdict.REFUTED
    # sigma = (1, 0): W11 E11 = W11 B1 -> B1 = E11; sigma = (0, 1): B1 = E12
    assert (w["B1_needed_at_sigma_1_0"], w["B1_needed_at_sigma_0_1"]) == (w["E11"], w["E12"]) == (-1.0, 1.0)


def test_eq6_A_factor_G_leak():
    r = run("ltc.eq6.A")
    c = r.outcome.evidence.witness
    assert r.verdict == Verdict.REFUTED
    assert c["V_L"] / c["C_m"] != c["G_L"] * c["V_L"] / c["C_m"]


def test_tanh_decay_rate_sign_flip():
    r = run("ltc.eq7.pulls_to_zero.tanh")
    w = r.outcome.evidence.witness
    assert r.verdict == Verdict.REFUTED
    assert math.tanh(w["z"]) == pytest.approx(-0.9) and 1 / 10 - 0.9 == pytest.approx(w["rate"]) == pytest.approx(-0.8)
    # no flip for tau <= 1: 1/tau + f > 1 - 1 = 0 for f > -1
    assert all(1 / tau + math.tanh(z) > 0 for tau in (0.001, 0.5, 1.0) for z in (-8.0, -3.0, 0.0))


@pytest.mark.parametrize("cid, bad, good", [("ltc.eq9a.shapes", ((3, 4), (3,)), ((4, 3), (3,))), ("ltc.eq24.shapes", ((4, 2), (4,)), ((2, 4), (4,)))])
def test_printed_shapes_do_not_multiply(cid, bad, good):
    assert run(cid).verdict == Verdict.REFUTED
    with pytest.raises(ValueError):
        np.ones(bad[0]) @ np.ones(bad[1])
    assert (np.ones(good[0]) @ np.ones(good[1])).shape == (good[0][0],)


def test_eq13_start_outside():
    r = run("ltc.eq13.outside_start")
    w = r.outcome.evidence.witness
    assert r.verdict == Verdict.REFUTED and w["v0"] > max(w["V_Leak"], w["E1"], w["E2"])
    assert -1 <= w["V_Leak"] <= 0 and all(-1 <= w[k] <= 1 for k in ("E1", "E2"))


def rk4(f, y, t1, n):
    h, ys = t1 / n, [np.array(y, float)]
    for _ in range(n):
        y = ys[-1]
        k1 = f(y); k2 = f(y + h / 2 * k1); k3 = f(y + h / 2 * k2); k4 = f(y + h * k3)  # noqa: E702
        ys.append(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    return np.array(ys)


def test_eq13_gap_junction_leaves_interval():
    r = run("ltc.eq13.gap_junction")
    assert r.verdict == Verdict.REFUTED
    assert registry()["ltc.eq13.gap_junction"].kind == "lemma"  # eq. 13 names chemical synapses only (line 270): outside its scope

    def f(v):
        s21, s12 = 1 / (1 + math.exp(-v[1])), 1 / (1 + math.exp(-v[0]))
        return np.array([(-1 - v[0]) + s21 * (-0.5 - v[0]) + (v[1] - v[0]), -v[1] + s12 * (1 - v[1]) + (v[0] - v[1])])

    assert f(np.array([-0.5, 1.0]))[0] == pytest.approx(1.0)      # -1/2 + 0 + 3/2
    ys = rk4(f, [-0.5, 1.0], 2.0, 2000)
    assert ys[:, 0].max() > -0.5 + 0.1                             # neuron 1 leaves [-1, -1/2]
    assert r.outcome.evidence.witness["excess"] == pytest.approx(ys[:, 0].max() + 0.5, abs=1e-3)


def test_eq16_counterexamples_by_hand():
    assert run("ltc.eq16.t0_negative").verdict == Verdict.REFUTED
    assert run("ltc.eq16.F_zero").verdict == Verdict.REFUTED
    x0, A, B, tau, M = -1, 1, 0, 1, 1
    assert min(abs(x0), Fraction(tau * (A + B * M), 1 + tau * M)) == Fraction(1, 2) > x0
    assert 1 - math.exp(-2) == pytest.approx(0.8647, abs=1e-4) and 1 - math.exp(-2) > max(0, 0.5)


def test_eq16_smooth_F_with_sup_M_leaves_the_interval_by_rk4():
    """F(x) = 1/(1 + e^-(x - 5)), sup F = 1 = M: x' = -(1 + F) x + 1 from x(0) = 0 (A = 1, B = 0, tau = 1); RK4 here, by hand."""
    F = lambda x: 1 / (1 + math.exp(-(x - 5)))  # noqa: E731
    ys = rk4(lambda y: np.array([-(1 + F(y[0])) * y[0] + 1.0]), [0.0], 2.0, 4000)
    assert ys[-1, 0] > 0.85 > max(0.0, 1 * (1 + 0 * 1) / (1 + 1 * 1))
    r = run("ltc.eq16.F_zero")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.witness["sup_F"] == 1.0
    assert r.outcome.evidence.witness["x_at_t"] == pytest.approx(ys[-1, 0], abs=1e-6)


def test_eq16_condition_against_time_varying_F():
    """Where the condition holds, RK4 with a time-varying F in [0, M] stays in eq. 16's interval; where it fails,
    F = 0 or t = 0 leaves it."""
    rng = np.random.default_rng(7)
    seen = {True: 0, False: 0}
    for _ in range(40):
        x0, A, B = rng.uniform(-1, 1, 3)
        tau, M = 1.0, rng.choice([0.5, 1.0, 2.0])
        K = tau * (A + B * M) / (1 + tau * M)
        lo, hi = min(abs(x0), K), max(abs(x0), K)
        cond = lb18.eq16_condition(x0, A, B, tau, M)
        seen[cond] += 1
        F = lambda t: M * (0.5 + 0.5 * math.sin(3 * t))  # noqa: E731
        ys = rk4(lambda y: np.array([-(1 / tau + F(y[1])) * y[0] + A + B * F(y[1]), 1.0]), [x0, 0.0], 20.0, 4000)[:, 0]
        ys0 = tau * A + (x0 - tau * A) * np.exp(-np.linspace(0, 30, 300) / tau)   # F == 0
        inside = lambda v: np.all((v >= lo - 1e-9) & (v <= hi + 1e-9))  # noqa: E731
        if cond:
            assert inside(ys) and inside(ys0)
        else:
            assert not (inside(ys0) and lo <= x0 <= hi)
    assert seen[True] > 3 and seen[False] > 3


def test_trajectory_bound_ratio_witness():
    assert ltl.trajectory_bound_ratio(0.1, 1.41, 2.0, 2) == pytest.approx(0.1 / 1.41 + 0.5) == pytest.approx(0.57092, abs=1e-5)
    assert ltl.trajectory_bound_ratio(0.0, 1.41, 0.5, 2) == 2.0                # dt <= 1: ratio >= 1
    r = run("ltc.sec8.larger_bound")
    assert r.verdict == Verdict.REFUTED and r.outcome.evidence.witness["ltc_over_neural_ode"] < 1


# --- table 11 ----------------------------------------------------------------------
def test_table11_rows_hold_and_detect_a_difference(monkeypatch):
    ids = [f"ltc.table11.{row[0]}" for row in lt11.TABLE11_ROWS]
    assert len(ids) == 28
    for cid in ids:
        assert run(cid).verdict == Verdict.HOLDS, cid
    assert lt11._label_key("2018 Eq.40") == ("2018", "40") and lt11._label_key("2018 Theorem 1") == ("2018", "thm1")

    original = lt11._table11_parts

    def altered():
        rows, bodies = original()
        rows["11"] = (rows["11"][0], rows["11"][1], 2 * rows["11"][2])      # tau_sys <= 2 tau_i: not the body's eq. 11
        return rows, bodies

    monkeypatch.setattr(lt11, "_table11_parts", altered)
    assert CLAIMS["ltc.table11.11"].check(CheckContext()).verdict == Verdict.REFUTED


# --- simulations (quick mode) ------------------------------------------------------
def test_eq13_simulation_quick():
    r = run("ltc.eq13.simulation")
    assert r.verdict == Verdict.HOLDS, r.outcome.message
    assert r.outcome.evidence.scalars["max_abs_v"] <= 1.0               # V_Leak in [-1, 0], E in [-1, 1]


def test_bio_draws_cover_table_ranges():
    p = lb18.draw_bio(200, 0)
    tau = p["C"] / p["G"]
    assert p["C"].min() >= 0.1 and p["C"].max() <= 10 and tau.min() >= 0.001 and tau.max() <= 10
    assert p["VL"].min() >= -1 and p["VL"].max() <= 0 and np.abs(p["E"]).max() <= 1 and p["w"].min() >= 0 and p["w"].max() <= 2
    assert np.all((p["v0"] >= p["lo"]) & (p["v0"] <= p["hi"]))


def test_eq15_quick():
    r = run("ltc.eq15.global_existence")
    assert r.verdict == Verdict.HOLDS and r.outcome.evidence.scalars["max_ratio_abs_x_to_gronwall_bound"] < 1
