"""`nacverify audit-ltc` on the LTC authors' own TF1 cell (issue 36): their names, their time
convention (cm_t = C_m/dt, no elapsed time), their three solvers, the declared precision, and a
step tolerance near the real rounding.

Every expected number is computed here, independently of the audit: the authors' three update
rules written out in numpy float64 from their ltc_model.py (read, not copied: `_ode_step`,
`_ode_step_explicit`, `_ode_step_runge_kutta`), eq. 13's and eq. 10's intervals from the raw
arrays, and the ODE by RK4 with 2000 steps per unfold."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.audit import ltc_audit_claims, ltc_from_arrays, read_ltc_export
from nacverify.audit.ltc.authors import shipped_authors_run
from nacverify.claims import CheckContext, evaluate
from nacverify.cli.app import app
from nacverify.errors import BadInput

SHARED = Path(__file__).resolve().parents[2] / "shared" / "reference" / "ltc_authors_tf1_run.npz"
SHA256 = "1bdf0ce7b8775f4f98f42991d502db6735a4ff5b87e679def8e4f38de7387c56"  # of shared/reference's file as received
STATES = {"fused": "states_semi", "euler": "states_explicit", "rk4": "states_rk4"}
H = {"fused": 1.0, "euler": 0.1, "rk4": 0.1}  # one unfold in the time unit where C_m = cm_t (authors.py)


def raw():
    return {k: v for k, v in np.load(shipped_authors_run()).items()}


def f64():
    return {k: v.astype(np.float64) for k, v in raw().items()}


def sig(x):
    return 1.0 / (1.0 + np.exp(-x))


def sensory(z, I):
    g = z["sensory_W"] * sig(z["sensory_sigma"] * (I[:, :, None] - z["sensory_mu"]))
    return (g * z["sensory_erev"]).sum(1), g.sum(1)


def synaptic(z, v):
    g = z["W"] * sig(z["sigma"] * (v[:, :, None] - z["mu"]))
    return (g * z["erev"]).sum(1), g.sum(1)


def f_prime(z, v, I):  # their _f_prime: (gleak (vleak - v) + sum_in) / cm_t
    ns, ds = sensory(z, I)
    n, d = synaptic(z, v)
    return (z["gleak"] * (z["vleak"] - v) + ns + n - v * (ds + d)) / z["cm_t"]


def semi(z, v, I, unfolds=6):
    ns, ds = sensory(z, I)
    for _ in range(unfolds):
        n, d = synaptic(z, v)
        v = (z["cm_t"] * v + z["gleak"] * z["vleak"] + n + ns) / (z["cm_t"] + z["gleak"] + d + ds)
    return v


def euler(z, v, I, unfolds=6, h=0.1):
    for _ in range(unfolds):
        v = v + h * f_prime(z, v, I)
    return v


def rk4(z, v, I, unfolds=6, h=0.1):
    for _ in range(unfolds):
        k1 = h * f_prime(z, v, I)
        k2 = h * f_prime(z, v + k1 / 2, I)
        k3 = h * f_prime(z, v + k2 / 2, I)
        k4 = h * f_prime(z, v + k3, I)
        v = v + (k1 + 2 * k2 + 2 * k3 + k4) / 6
    return v


RULES = {"fused": semi, "euler": euler, "rk4": rk4}


def run(z, solver):
    """(states [T+1, B, N] from zero, mapped inputs [T, B, M]) of the fixture's run of `solver`."""
    states = np.concatenate([np.zeros((1,) + z[STATES[solver]].shape[1:]), z[STATES[solver]]])
    return states, z["inputs"] * z["input_w"] + z["input_b"]


def results(export, **kw):
    return {c.id: evaluate(c, CheckContext()) for c in ltc_audit_claims(export, **kw)}


def test_the_fixture_ships_with_the_package_byte_for_byte():
    path = shipped_authors_run()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256
    assert (path.parent / "LTC_AUTHORS_RUN.md").is_file()
    if SHARED.is_file():  # the project's shared/ beside the checkout (CI has it): the same bytes
        assert SHARED.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("solver", ["fused", "euler", "rk4"])
def test_each_solver_reproduces_step_by_step_and_every_verdict_by_hand(solver):
    z = f64()
    states, I = run(z, solver)
    T, B, N = states.shape[0] - 1, states.shape[1], states.shape[2]
    # step: the authors' own rule, from each exported state, reproduces the next one to float32 rounding ...
    mine = np.stack([RULES[solver](z, states[k], I[k]) for k in range(T)])
    err = np.abs(mine - states[1:])
    assert err.max() < 2e-7
    for other in RULES:  # ... and the other two rules do not (their steps differ by 0.05 to 0.12)
        if other != solver:
            assert np.abs(np.stack([RULES[other](z, states[k], I[k]) for k in range(T)]) - states[1:]).max() > 0.04
    export = read_ltc_export(shipped_authors_run(), solver={"fused": "SemiImplicit", "euler": "Explicit", "rk4": "RungeKutta"}[solver])
    assert (export.solver, export.convention, export.ode_unfolds) == (solver, "ltc-authors-tf1", 6)
    assert np.allclose(export.elapsed, 6 * H[solver])  # the horizon per input step
    r = results(export)
    assert {k: v.verdict.value for k, v in r.items()} == dict.fromkeys(r, "holds"), {k: v.outcome.message for k, v in r.items()}
    step = r["audit.ltc.step"].outcome.evidence.scalars
    assert step["max_abs_error"] == pytest.approx(err.max(), rel=1e-6)
    assert 1.0 <= step["tolerance_over_max_error"] <= 10.0  # the tolerance sits within 10x of the observed rounding
    # positivity by hand: the authors' clipping op keeps W, sensory_W >= 1e-5, gleak >= 1e-5, cm_t >= 1e-6
    pos = r["audit.ltc.positivity"].outcome.evidence.scalars
    assert pos["min_cm"] == pytest.approx(z["cm_t"].min()) and pos["min_w"] == pytest.approx(z["W"].min()) and z["W"].min() >= 1e-5 * 0.999
    # eq. 13 by hand: per unit [min(vleak, E of incoming synapses), max(...)]
    lo = np.minimum(z["vleak"], np.minimum(z["erev"].min(0), z["sensory_erev"].min(0)))
    hi = np.maximum(z["vleak"], np.maximum(z["erev"].max(0), z["sensory_erev"].max(0)))
    lo, hi = np.minimum(lo, 0.0), np.maximum(hi, 0.0)  # widened to the initial state 0
    slack = np.minimum(states - lo, hi - states).min()
    assert slack > 0 and r["audit.ltc.state_bounds"].outcome.evidence.scalars["min_slack"] == pytest.approx(slack, abs=1e-9)
    # eq. 10 by hand: tau_sys = cm_t / (gleak + sum g + sum g^s) at each exported state (C_m = cm_t in this time unit)
    tau = np.stack([z["cm_t"] / (z["gleak"] + synaptic(z, states[k])[1] + sensory(z, I[k])[1]) for k in range(T)])
    tmin = z["cm_t"] / (z["gleak"] + z["W"].sum(0) + z["sensory_W"].sum(0))
    assert np.all((tau >= tmin) & (tau <= z["cm_t"] / z["gleak"]))
    assert r["audit.ltc.time_constants"].outcome.evidence.scalars["min_tau_sys"] == pytest.approx(tau.min(), rel=1e-12)
    # solver_error: the declared rule against the ODE over the horizon it integrates (6 h), by RK4 with 2000 steps per unfold
    se = r["audit.ltc.solver_error"].outcome
    assert se.evidence.scalars["horizon_per_input_step_min"] == pytest.approx(6 * H[solver])
    assert se.evidence.scalars["horizon_per_input_step_max"] == pytest.approx(6 * H[solver])
    assert f"horizon of {6 * H[solver]:g} per input step" in se.message
    ev = se.evidence.arrays
    for row in (0, 37, 79):
        k, b = int(ev["checked_step"][row]), int(ev["checked_batch"][row])
        v0, Ik = states[k, b][None], I[k, b][None]
        exact = rk4(z, v0, Ik, unfolds=12000, h=6 * H[solver] / 12000)
        rel = np.abs(RULES[solver](z, v0, Ik) - exact).max() / max(np.abs(exact).max(), np.abs(v0).max())
        assert ev["relative_error"][row] == pytest.approx(rel, rel=1e-3, abs=1e-9)


def test_a_run_declared_with_the_wrong_solver_is_refuted_and_told_which_fits():
    z = raw()
    z["states"] = z.pop("states_rk4")
    del z["states_semi"], z["states_explicit"]  # one run, no solver declared: fused, the authors' default
    r = results(ltc_from_arrays(z), tol=None)
    step = r["audit.ltc.step"]
    assert step.verdict.value == "refuted"
    assert step.outcome.message.startswith("first differing state: step 0,")
    assert "the states match the RK4 solver better than the declared fused: they hold as rk4" in step.outcome.message
    assert "declare solver = rk4" in step.outcome.message
    assert step.outcome.evidence.scalars["error_over_tolerance_as_rk4"] <= 1.0
    # the solver-error claim measures what is declared: the fused rule over its horizon of 6 (dt 1), and says so
    assert "the fused solver integrates the ODE over a horizon of 6 per input step (6 unfolds of 1)" in r["audit.ltc.solver_error"].outcome.message


@pytest.mark.parametrize("with_initial", [False, True])
def test_a_consistent_1e5_change_of_a_float32_run_is_caught_at_the_first_state(with_initial):
    """+1e-5 on every state: from the zero start the first step is off by 1e-5; with the initial state
    shifted too, each step is off by |(1 - J) 1e-5|, J = cm_t/den + ... = 0.1 to 0.3 here."""
    z = raw()
    if with_initial:
        z["states_semi"] = np.concatenate([np.zeros((1, 4, 8), np.float32), z["states_semi"]]) + np.float32(1e-5)
    else:
        z["states_semi"] = z["states_semi"] + np.float32(1e-5)
    step = results(ltc_from_arrays(z))["audit.ltc.step"]
    assert step.verdict.value == "refuted"
    assert step.outcome.message.startswith("first differing state: step 0, batch")
    assert step.outcome.evidence.witness["step"] == 0


def test_precision_declared_apart_from_the_stored_dtype():
    z = {k: v.astype(np.float64) for k, v in raw().items()}  # a float32 run stored as float64
    step = results(ltc_from_arrays(z))["audit.ltc.step"]
    assert step.verdict.value == "refuted" and step.outcome.evidence.scalars["max_error_over_tolerance"] > 1e4
    assert "declare compute_dtype = float32" in step.outcome.message and "ode_unfolds (6)" in step.outcome.message
    held = results(ltc_from_arrays(z, compute_dtype="float32"))["audit.ltc.step"]
    assert held.verdict.value == "holds" and held.outcome.evidence.scalars["dtype_eps"] == 2.0**-23
    z["compute_dtype"] = np.asarray("float32")  # the same as an entry of the file
    assert results(ltc_from_arrays(z))["audit.ltc.step"].verdict.value == "holds"
    with pytest.raises(BadInput, match="compute_dtype float32, --compute-dtype says float16"):
        ltc_from_arrays(z, compute_dtype="float16")


def test_ncps_torch_tolerance_within_10x_of_the_observed_rounding():
    pytest.importorskip("torch")
    from nacverify.audit.ltc.export import ncps_cell_entries, random_ncps_run

    for wiring, train, constraints in (("fc", 0, "implicit"), ("autoncp", 50, "apply")):
        cell, x, el = random_ncps_run(units=16, inputs=4, steps=60, seed=1, wiring=wiring, train_steps=train, constraints=constraints)
        step = results(ltc_from_arrays(ncps_cell_entries(cell, x, el)))["audit.ltc.step"]
        assert step.verdict.value == "holds", step.outcome.message  # ncps's own run, bit for bit
        assert 1.0 <= step.outcome.evidence.scalars["tolerance_over_max_error"] <= 10.0


def test_the_authors_names_refuse_what_their_cell_has_not():
    z = raw()
    with pytest.raises(BadInput, match="takes no elapsed time"):
        ltc_from_arrays({**z, "elapsed": np.float64(1.0)})
    with pytest.raises(BadInput, match="states_semi or states missing"):
        ltc_from_arrays({k: v for k, v in z.items() if k != "states_semi"})
    with pytest.raises(BadInput, match="declares solver rk4, --solver says euler"):
        ltc_from_arrays({**z, "solver": np.asarray("RungeKutta")}, solver="explicit")
    with pytest.raises(BadInput, match="not one of fused"):
        ltc_from_arrays(z, solver="midpoint")


def test_scalar_elapsed_and_solver_step_are_one_time_per_step():
    """A one-neuron fused step (sigma = 0: every sigmoid 1/2) with elapsed as a number, as [T] and as solver_step."""
    base = dict(cm=[0.5], gleak=[0.2], vleak=[-0.2], w=[[0.5]], sigma=[[0.0]], mu=[[0.0]], erev=[[1.0]], sensory_w=[[0.25]],
                sensory_sigma=[[0.0]], sensory_mu=[[0.0]], sensory_erev=[[-1.0]], inputs=[[[0.3]], [[0.3]]])
    base = {k: np.asarray(v, dtype=np.float64) for k, v in base.items()}
    v1 = (1.0 * 0.1 - 0.04 + 0.25 - 0.125) / (1.0 + 0.2 + 0.25 + 0.125)  # cm_t = 0.5 / 0.5 = 1
    v2 = (1.0 * v1 - 0.04 + 0.25 - 0.125) / (1.0 + 0.2 + 0.25 + 0.125)
    states = np.array([[[0.1]], [[v1]], [[v2]]])
    for timing in ({"elapsed": np.float64(0.5)}, {"elapsed": np.array([0.5, 0.5])}, {"solver_step": np.float64(0.5)}):
        e = ltc_from_arrays({**base, **timing, "states": states, "ode_unfolds": 1})
        assert e.elapsed.shape == (2, 1) and np.all(e.elapsed == 0.5)
        assert results(e, tol=None)["audit.ltc.step"].verdict.value == "holds"
    with pytest.raises(BadInput, match="solver_step 0.25 disagrees"):
        ltc_from_arrays({**base, "elapsed": np.float64(0.5), "solver_step": np.float64(0.25), "states": states, "ode_unfolds": 1})


def test_cli_audits_the_shipped_run_and_none_is_null_in_json(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["audit-ltc", "--ltc-authors-run", "--solver", "euler", "--out", str(tmp_path / "r.h5"), "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    claims = {c["id"]: c for c in doc["claims"]}
    assert {c["verdict"] for c in claims.values()} == {"holds"}
    se = claims["audit.ltc.solver_error"]["scalars"]
    assert se["solver"] == "euler" and se["horizon_per_input_step_max"] == pytest.approx(0.6)
    assert se["tolerance"] is None  # no --tol: none, null in JSON
    res = runner.invoke(app, ["audit-ltc", "--ltc-authors-run", "--solver", "euler", "--tol", "1e-9", "--out", str(tmp_path / "s.h5"),
                              "--format", "json"])
    se = {c["id"]: c for c in json.loads(res.stdout)["claims"]}["audit.ltc.solver_error"]["scalars"]
    assert se["largest_elapsed_within_tolerance"] is None and se["unfolds_needed"] is None  # none within 1e-9: null, not 0.0
    res = runner.invoke(app, ["audit-ltc", "--ltc-authors-run", "--solver", "heun", "--out", str(tmp_path / "t.h5")])
    assert res.exit_code == 2 and "not one of fused" in res.output
