"""`nacverify audit-ltc` on the abstract form (seed 002 eq. 7/9): format, the five claims, the CLI.

Every expected number is computed here, independently of the code under test: eq. 9 written
out in numpy, eq. 7's closed form for a constant f, witnesses read off the test's own arrays."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.audit.ltc.claims import LTC_CLAIM_IDS, ltc_audit_claims
from nacverify.audit.ltc.format import AbstractLTCExport, LTCExport, ltc_from_arrays, read_ltc_export, write_ltc_export
from nacverify.claims import CheckContext, evaluate
from nacverify.cli.app import app
from nacverify.errors import BadInput

runner = CliRunner()


def act(z, activation):
    return np.tanh(z) if activation == "tanh" else 1.0 / (1.0 + np.exp(-z))


def run_eq9(p, x0, inputs, elapsed, unfolds, *, leak=True, dtype=np.float64):
    """Seed 002 eq. 9 by hand: x <- (x + dt f A) / (1 + dt (1/tau + f)), `unfolds` times per step;
    without `leak` the denominator lacks 1/tau (leak=False) from step `leak` on when it is an int."""
    c = {k: np.asarray(v, dtype=dtype) for k, v in p.items() if k != "activation"}
    xs = [np.asarray(x0, dtype=dtype)]
    for k in range(inputs.shape[0]):
        x = xs[-1]
        dt = (np.asarray(elapsed[k], dtype=dtype) / dtype(unfolds)).reshape(-1, 1)
        no_leak = leak is False or (leak is not True and k == leak)
        for _ in range(unfolds):
            f = act(x @ c["gamma_r"] + inputs[k].astype(dtype) @ c["gamma"] + c["mu"], p["activation"])
            x = (x + dt * f * c["A"]) / (1 + dt * ((0 if no_leak else 1 / c["tau"]) + f))
        xs.append(x.astype(dtype))
    return np.stack(xs)


def cell(seed=0, n=5, m=3, activation="sigmoid"):
    rng = np.random.default_rng(seed)
    return dict(tau=rng.uniform(0.5, 2.0, n), A=rng.normal(0, 1, n), gamma_r=rng.normal(0, 1, (n, n)), gamma=rng.normal(0, 1, (m, n)),
                mu=rng.normal(0, 1, n), activation=activation)


def entries_for(p, *, T=20, B=2, unfolds=3, seed=1, el_range=(1e-3, 1e-2), dtype=np.float64, leak=True, x0=None):
    rng = np.random.default_rng(seed)
    n, m = p["A"].size, p["gamma"].shape[0]
    inputs = rng.normal(0, 1, (T, B, m)).astype(dtype)
    elapsed = np.exp(rng.uniform(*np.log(el_range), (T, B))).astype(dtype)  # irregular, per batch
    x0 = rng.uniform(-0.5, 0.5, (B, n)) * np.abs(p["A"]) if x0 is None else x0
    states = run_eq9(p, x0, inputs, elapsed, unfolds, leak=leak, dtype=dtype)
    params = {k: np.asarray(v, dtype=dtype) for k, v in p.items() if k != "activation"}
    return dict(form="abstract", activation=p["activation"], **params, inputs=inputs, elapsed=elapsed, states=states, ode_unfolds=unfolds,
                implementation="test_ltc_abstract.run_eq9")


def evaluated(export, ids=LTC_CLAIM_IDS, **kw):
    return {c.id: evaluate(c, CheckContext()) for c in ltc_audit_claims(export, **kw) if c.id in ids}


# ---------------------------------------------------------------------------- claims
def test_constant_f_matches_eq7_closed_form():
    """gamma_r = gamma = 0: f = sigmoid(mu) is constant and eq. 7 is linear,
    x(t) = x* + (x0 - x*) exp(-(1/tau + f) t), x* = f A / (1/tau + f)."""
    tau, A, mu = np.array([0.5, 1.0, 2.0]), np.array([1.5, -0.7, 0.3]), np.array([0.2, -1.0, 2.0])
    T, B, U = 6, 2, 2
    f = 1 / (1 + np.exp(-mu))
    elapsed = np.array([[0.05, 0.1], [0.3, 0.2], [1.0, 0.7], [0.02, 0.5], [0.4, 0.9], [0.15, 0.06]])
    x = np.empty((T + 1, B, 3))
    x[0] = [[0.4, 0.1, -0.2], [-0.3, 0.6, 0.0]]
    for k in range(T):
        y = x[k]
        for _ in range(U):
            dt = elapsed[k][:, None] / U
            y = (y + dt * f * A) / (1 + dt * (1 / tau + f))
        x[k + 1] = y
    entries = dict(form="abstract", activation="sigmoid", tau=tau, A=A, gamma_r=np.zeros((3, 3)), gamma=np.zeros((2, 3)), mu=mu,
                   inputs=np.ones((T, B, 2)), elapsed=elapsed, states=x, ode_unfolds=U)
    r = evaluated(ltc_from_arrays(entries), tol=0.5)
    assert r["audit.ltc.step"].verdict.value == "holds"
    ev = r["audit.ltc.solver_error"].outcome.evidence
    k, b = ev.arrays["checked_step"], ev.arrays["checked_batch"]
    assert sorted(zip(k, b)) == [(i, j) for i in range(T) for j in range(B)]  # 12 <= solver_steps: all of them
    lam, xstar = 1 / tau + f, f * A / (1 / tau + f)
    x0 = x[k, b]
    closed = xstar + (x0 - xstar) * np.exp(-lam * elapsed[k, b][:, None])
    expected = np.max(np.abs(x[k + 1, b] - closed), axis=1) / np.maximum(np.max(np.abs(closed), axis=1), np.max(np.abs(x0), axis=1))
    np.testing.assert_allclose(ev.arrays["relative_error"], expected, rtol=0, atol=1e-9)
    assert expected.max() > 1e-3  # the fused solver's error is measured, not rounding
    assert r["audit.ltc.solver_error"].verdict.value == "holds"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_hand_written_eq9_cell_satisfies_all_five(dtype):
    p = cell()
    entries = entries_for(p, dtype=dtype)
    export = ltc_from_arrays(entries)
    assert isinstance(export, AbstractLTCExport) and (export.T, export.B, export.N, export.M) == (20, 2, 5, 3)
    r = evaluated(export, ids=LTC_CLAIM_IDS if dtype == np.float64 else LTC_CLAIM_IDS[:4])
    assert {k: v.verdict.value for k, v in r.items()} == dict.fromkeys(r, "holds"), {k: v.outcome.message for k, v in r.items()}
    # tau_sys = tau/(1 + tau f) at the exported states, recomputed here
    x, I = entries["states"][:-1].astype(np.float64), entries["inputs"].astype(np.float64)
    c = {k: entries[k].astype(np.float64) for k in ("tau", "A", "gamma_r", "gamma", "mu")}  # as exported (float32: rounded)
    f = act(x @ c["gamma_r"] + I @ c["gamma"] + c["mu"], "sigmoid")
    tau_sys = c["tau"] / (1 + c["tau"] * f)
    s = r["audit.ltc.time_constants"].outcome.evidence.scalars
    assert s["min_tau_sys"] == pytest.approx(tau_sys.min(), rel=1e-12) and s["max_tau_sys"] == pytest.approx(tau_sys.max(), rel=1e-12)
    # the derived tolerance is tight: one value of states[9] moved by 1e-4 (relative) is caught at step 8,
    # whose output it is (step 9 starts from it: its exported result may differ too); no other step is off
    moved = dict(entries, states=entries["states"].copy())
    moved["states"][9, 1, 3] *= dtype(1 + 1e-4)
    step = evaluated(ltc_from_arrays(moved), ids=("audit.ltc.step",))["audit.ltc.step"]
    per_step = step.outcome.evidence.arrays["error_over_tolerance_per_step"]
    assert step.verdict.value == "refuted" and per_step[8] > 1 and set(np.flatnonzero(per_step > 1)) <= {8, 9}


def test_denominator_without_inverse_tau_refutes_step_at_that_step():
    p = cell(seed=2)
    entries = entries_for(p, leak=7)  # step 7 (states[8]) computed with den = 1 + dt f
    r = evaluated(ltc_from_arrays(entries), ids=("audit.ltc.step",))["audit.ltc.step"]
    assert r.verdict.value == "refuted"
    assert r.outcome.evidence.witness["step"] == 7 and r.outcome.evidence.scalars["values_off"] == 2 * 5
    per_step = r.outcome.evidence.arrays["error_over_tolerance_per_step"]
    assert np.flatnonzero(per_step > 1).tolist() == [7]
    # the error at the witness is the leak term's contribution, recomputed here
    w = r.outcome.evidence.witness
    good = run_eq9(p, entries["states"][7], entries["inputs"][7:8], entries["elapsed"][7:8], 3)[1]
    assert w["recomputed_error"] == pytest.approx(abs(good[w["batch"], w["unit"]] - entries["states"][8, w["batch"], w["unit"]]), rel=1e-9)


def test_negative_tau_refutes_positivity_naming_the_unit():
    p = cell(seed=3)
    p["tau"][2] = -0.5
    r = evaluated(ltc_from_arrays(entries_for(p)), ids=("audit.ltc.positivity",))["audit.ltc.positivity"]
    assert r.verdict.value == "refuted"
    assert r.outcome.evidence.witness == {"parameter": "tau", "unit": 2, "value": -0.5}


def test_tanh_cell_with_negative_f_leaves_eq12_and_eq7a_bounds():
    p = cell(seed=4, activation="tanh")
    p["tau"] = np.array([1.5, 2.0, 3.0, 2.5, 4.0])
    p["mu"] = np.full(5, -4.0)
    p["gamma_r"] *= 0.1
    p["gamma"] *= 0.1
    entries = entries_for(p, el_range=(0.05, 0.2), x0=np.zeros((2, 5)))
    r = evaluated(ltc_from_arrays(entries), ids=("audit.ltc.state_bounds", "audit.ltc.time_constants"))
    # eq. 12 from the test's arrays: the first state index with any value outside [min(0, A), max(0, A)]
    x, A = entries["states"], entries["A"]
    excess = np.maximum(x - np.maximum(0, A), np.minimum(0, A) - x)
    first = int(np.argmax((excess > 0).reshape(len(x), -1).any(axis=1)))
    assert first > 0 and excess[first].max() > 1e-6 and (excess[:first] <= 0).all()
    sb = r["audit.ltc.state_bounds"]
    assert sb.verdict.value == "refuted" and sb.outcome.evidence.witness["step"] == first
    b, i = sb.outcome.evidence.witness["batch"], sb.outcome.evidence.witness["unit"]
    assert excess[first, b, i] == excess[first].max()
    # eq. 7a: tau_sys = tau/(1 + tau f) outside [tau/(1 + tau), tau] where f < 0
    f = np.tanh(x[:-1] @ p["gamma_r"] + entries["inputs"] @ p["gamma"] + p["mu"])
    tau_sys = p["tau"] / (1 + p["tau"] * f)
    outside = ~((tau_sys > 0) & (tau_sys <= p["tau"]) & (tau_sys >= p["tau"] / (1 + p["tau"])))
    tc = r["audit.ltc.time_constants"]
    assert tc.verdict.value == "refuted" and outside.all()
    assert tc.outcome.evidence.scalars["values_outside"] == int(outside.sum())
    assert tc.outcome.evidence.scalars["nonpositive_tau_sys"] == int((tau_sys <= 0).sum()) > 0


# ---------------------------------------------------------------------------- files
@pytest.mark.parametrize("suffix", [".npz", ".h5"])
def test_round_trip(tmp_path, suffix):
    entries = entries_for(cell(), T=4)
    path = write_ltc_export(entries, tmp_path / f"abstract{suffix}")
    e = read_ltc_export(path)
    assert isinstance(e, AbstractLTCExport) and e.form == "abstract"
    assert (e.activation, e.ode_unfolds, e.implementation, e.ignored) == ("sigmoid", 3, "test_ltc_abstract.run_eq9", ())
    for name in ("tau", "A", "gamma_r", "gamma", "mu"):
        np.testing.assert_array_equal(e.params[name], entries[name])
    for name in ("inputs", "elapsed", "states"):
        np.testing.assert_array_equal(getattr(e, name), entries[name])
    assert e.attrs() == {"form": "abstract", "activation": "sigmoid", "ode_unfolds": 3, "implementation": "test_ltc_abstract.run_eq9"}


def test_biophysical_form_still_reads_as_before():
    one = dict(cm=[1.0], gleak=[0.2], vleak=[0.0], w=[[0.5]], sigma=[[1.0]], mu=[[0.0]], erev=[[1.0]], sensory_w=[[0.0]],
               sensory_sigma=[[1.0]], sensory_mu=[[0.0]], sensory_erev=[[0.0]], inputs=[[[0.0]]], elapsed=[1.0], states=[[[0.0]], [[0.1]]])
    entries = {k: np.asarray(v) for k, v in one.items()} | {"ode_unfolds": 1}
    for form in ({}, {"form": "biophysical"}):
        e = ltc_from_arrays(entries | form)
        assert isinstance(e, LTCExport) and e.form == "biophysical" and e.ignored == ()


def malformed():
    base = entries_for(cell(), T=3)
    cases = {
        "tau": {k: v for k, v in base.items() if k != "tau"},
        "gamma": base | {"gamma": base["gamma"].T},  # [N, M]: eq. 9a's printed orientation
        "'A'": base | {"A": np.where(np.arange(5) == 1, np.nan, base["A"])},
        "elapsed": base | {"elapsed": np.where(np.arange(3)[:, None] == 2, 0.0, base["elapsed"])},
        "activation": base | {"activation": "relu"},
        "form": base | {"form": "liquid"},
        "ode_unfolds": base | {"ode_unfolds": 0},
        "states": base | {"states": base["states"][:, 0]},
    }
    return list(cases.items())


@pytest.mark.parametrize("needle,entries", malformed(), ids=[k.strip("'") for k, _ in malformed()])
def test_malformed_is_one_line_bad_input(needle, entries):
    with pytest.raises(BadInput) as info:
        ltc_from_arrays(entries, "f.npz")
    assert "\n" not in str(info.value) and needle in str(info.value), str(info.value)


# ---------------------------------------------------------------------------- CLI
def test_cli_healthy_defective_and_bad_files(tmp_path):
    healthy, bad_step, broken = tmp_path / "ok.npz", tmp_path / "leak.h5", tmp_path / "relu.npz"
    write_ltc_export(entries_for(cell()), healthy)
    write_ltc_export(entries_for(cell(), leak=False), bad_step)
    np.savez(broken, **(entries_for(cell(), T=3) | {"activation": np.asarray("relu")}))

    res = runner.invoke(app, ["audit-ltc", str(healthy), "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 0, res.output + res.stderr
    assert "abstract form" in res.output

    res = runner.invoke(app, ["audit-ltc", str(bad_step), "--out", str(tmp_path / "r2.h5")])
    assert res.exit_code == 1, res.output + res.stderr
    # the summary names the differing claim with its witness (the step, batch and unit of the worst value)
    assert "audit.ltc.step: refuted" in res.stdout and "witness: step=" in res.stdout and "audit.ltc.step: refuted, expected holds" in res.stderr

    res = runner.invoke(app, ["audit-ltc", str(broken), "--out", str(tmp_path / "r3.h5")])
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and "activation 'relu'" in lines[0], res.stderr


def test_assert_ltc_cell_takes_an_abstract_export():
    """nacverify.testing on an abstract cell, as a user's suite would call it: the object, the arrays
    or a file; a defective cell fails naming the claim."""
    from nacverify.testing import assert_ltc_cell

    entries = entries_for(cell())
    assert_ltc_cell(ltc_from_arrays(entries))
    assert_ltc_cell(entries)
    bad = entries_for(cell(seed=2), leak=7)
    with pytest.raises(AssertionError, match="audit.ltc.step"):
        assert_ltc_cell(ltc_from_arrays(bad))


def test_largest_elapsed_within_is_the_end_of_the_shortest_first_run_within_tolerance():
    from nacverify.audit.ltc.shared import largest_elapsed_within

    el = np.array([1.0, 3.0, 2.0, 4.0])
    rel = np.array([0.1, 0.5, 0.2, 0.05])  # shortest first: 1 ok, 2 ok, 3 over: the run ends at 2 (4 is within again, not counted)
    assert largest_elapsed_within(el, rel, 0.3) == 2.0
    assert largest_elapsed_within(el, rel, 0.05) is None  # the shortest interval is already over: none (null in JSON), not 0.0
    assert largest_elapsed_within(el, rel, 1.0) == 4.0
