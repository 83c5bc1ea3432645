"""`nacverify audit-ltc` (issue 12 B): the LTC-cell format, the ncps.torch exporters and the five claims.

Expected numbers are derived by hand (single-neuron steps, the leak-only closed form) or read
off the torch parameters directly, never from the code under test."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from ncps.torch import LTC, LTCCell  # noqa: E402
from ncps.wirings import AutoNCP, FullyConnected  # noqa: E402

from nacverify.audit import ltc_audit_claims, ltc_from_arrays, read_ltc_export, write_ltc_export  # noqa: E402
from nacverify.audit.ltc.export import export_ncps_cell, export_ncps_ltc, ncps_cell_entries  # noqa: E402
from nacverify.claims import CheckContext, evaluate  # noqa: E402
from nacverify.errors import BadInput  # noqa: E402


def verdicts(export, ids=("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds", "audit.ltc.time_constants"), **kw):
    out = {}
    for c in ltc_audit_claims(export, **kw):
        if c.id in ids:
            out[c.id] = evaluate(c, CheckContext())
    return out


def one_neuron(v_next=None, *, w=0.5, sw=0.25, cm=0.5, gleak=0.2, unfolds=1, elapsed=0.5, v0=0.1, x=0.3):
    """N = M = 1, sigma = 0 (every sigmoid is exactly 1/2): one fused step by hand."""
    entries = dict(cm=[cm], gleak=[gleak], vleak=[-0.2], w=[[w]], sigma=[[0.0]], mu=[[0.0]], erev=[[1.0]],
                   sensory_w=[[sw]], sensory_sigma=[[0.0]], sensory_mu=[[0.0]], sensory_erev=[[-1.0]],
                   inputs=[[[x]]], elapsed=[elapsed], ode_unfolds=unfolds, epsilon=0.0, implicit_param_constraints=0)
    entries = {k: np.asarray(v, dtype=np.float64) if not isinstance(v, int) else v for k, v in entries.items()}
    cm_t = cm / (elapsed / unfolds)
    v = v0
    for _ in range(unfolds):  # seed 002 eq. 9, biophysical: (cm_t v + g vleak + w/2 E + sw/2 Es) / (cm_t + g + w/2 + sw/2)
        v = (cm_t * v + gleak * -0.2 + w / 2 * 1.0 + sw / 2 * -1.0) / (cm_t + gleak + w / 2 + sw / 2)
    entries["states"] = np.array([[[v0]], [[v if v_next is None else v_next]]])
    return entries, v


def test_single_neuron_step_by_hand():
    entries, v = one_neuron()
    # cm_t = 1; numerator 0.1 - 0.04 + 0.25 - 0.125 = 0.185; denominator 1 + 0.2 + 0.25 + 0.125 = 1.575
    assert v == pytest.approx(0.185 / 1.575, rel=1e-15)
    r = verdicts(ltc_from_arrays(entries))
    assert {k: x.verdict.value for k, x in r.items()} == dict.fromkeys(r, "holds")
    # eq. 10: tau_sys = 0.5 / (0.2 + 0.25 + 0.125) in [0.5/0.95, 0.5/0.2]
    tau = r["audit.ltc.time_constants"].outcome.evidence.scalars["min_tau_sys"]
    assert tau == pytest.approx(0.5 / 0.575, rel=1e-14)
    bad, _ = one_neuron(v_next=0.185 / 1.575 * (1 + 1e-6))
    assert verdicts(ltc_from_arrays(bad))["audit.ltc.step"].verdict.value == "refuted"


def test_state_bounds_and_positivity_by_hand():
    # E in {1 (synapse), -1 (sensory)}, vleak = -0.2: eq. 13 gives [-1, 1]; a state of 1.5 leaves it
    entries, _ = one_neuron(v_next=1.5)
    r = verdicts(ltc_from_arrays(entries))
    sb = r["audit.ltc.state_bounds"]
    assert sb.verdict.value == "refuted" and sb.outcome.evidence.witness["step"] == 1
    assert (sb.outcome.evidence.witness["lower"], sb.outcome.evidence.witness["upper"]) == (-1.0, 1.0)
    neg, _ = one_neuron(w=-0.3)
    r = verdicts(ltc_from_arrays(neg))
    assert r["audit.ltc.positivity"].verdict.value == "refuted"
    assert r["audit.ltc.positivity"].outcome.evidence.witness["value_used"] == -0.3
    assert r["audit.ltc.step"].verdict.value == "holds"  # the step itself is still the fused update
    # tau_sys = 0.5/(0.2 - 0.15 + 0.125) = 2.857 > tau_max = 0.5/0.2 = 2.5, but w < 0 is outside eq. 10's premises:
    # that is positivity's finding, not a second refutation (issue 21, item 6)
    tc = r["audit.ltc.time_constants"]
    assert tc.verdict.value == "inapplicable" and "positivity" in tc.outcome.message and "no decay" not in tc.outcome.message
    assert tc.outcome.evidence.scalars["units_outside_premises"] == 1


def test_solver_error_against_the_leak_closed_form():
    """w = sw = 0: C v' = g (vleak - v), v(t) = vleak + (v0 - vleak) exp(-g t / C)."""
    cm, g, h, L = 0.5, 2.0, 1.0, 2
    entries, v_fused = one_neuron(w=0.0, sw=0.0, cm=cm, gleak=g, unfolds=L, elapsed=h)
    exact = -0.2 + 0.3 * math.exp(-g * h / cm)
    r = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.solver_error",), tol=1e-2)["audit.ltc.solver_error"]
    rel = abs(v_fused - exact) / max(abs(exact), 0.1)
    assert r.outcome.evidence.arrays["relative_error"][0] == pytest.approx(rel, rel=1e-6)
    assert r.verdict.value == ("refuted" if rel > 1e-2 else "holds")
    assert r.verdict.value == "refuted"  # by hand: fused 1/(1 + 2)^2 decay factor vs e^-4: rel error 1.07
    assert r.outcome.evidence.arrays["max_relative_error_by_unfolds"][-1] < 1e-2  # 96 unfolds are enough


def test_zero_cm_is_eq10s_degenerate_interval_not_no_decay():
    """cm = 0 (what apply_weight_constraints' ReLU leaves): by hand, cm_t = 0 and the fused step is
    (0.2 (-0.2) + 0.25 - 0.125) / (0.2 + 0.25 + 0.125) = 0.085 / 0.575; tau_sys = 0/0.575 = 0 and eq. 10's
    interval is [0/0.95, 0/0.2] = [0, 0]."""
    entries, v = one_neuron(cm=0.0)
    assert v == pytest.approx(0.085 / 0.575, rel=1e-15)
    r = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.time_constants", "audit.ltc.solver_error"))
    assert r["audit.ltc.step"].verdict.value == "holds"
    assert r["audit.ltc.positivity"].verdict.value == "refuted"  # cm > 0 fails: reported once, there
    tc = r["audit.ltc.time_constants"]
    assert tc.verdict.value == "holds", tc.outcome.message
    assert tc.outcome.evidence.scalars["min_tau_sys"] == 0.0 and "no decay" not in tc.outcome.message
    se = r["audit.ltc.solver_error"]
    assert se.verdict.value == "inapplicable" and "algebraic" in se.outcome.message


def test_negative_cm_solver_error_is_inapplicable_though_the_ode_has_a_solution():
    """cm = -0.5, w = sw = 0: C v' = g (vleak - v) has the forward solution vleak + (v0 - vleak) e^{+0.4 t}
    (it grows: g/C = -0.4); the fused denominator cm/dt + g = -1 + 0.2 is negative. Inapplicable, and the
    message must not claim that no forward solution exists."""
    entries, _ = one_neuron(w=0.0, sw=0.0, cm=-0.5)
    r = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.solver_error", "audit.ltc.time_constants"))
    se = r["audit.ltc.solver_error"]
    assert se.verdict.value == "inapplicable"
    assert "still has a forward solution" in se.outcome.message and "no forward solution" not in se.outcome.message
    assert r["audit.ltc.time_constants"].verdict.value == "inapplicable"


def test_solver_error_without_tol_is_a_measurement():
    """Seed 002 gives the fused solver no tolerance: without --tol the error is measured. Leak only
    (w = sw = 0, cm 0.5, g 2, elapsed 1): u unfolds multiply v - vleak by (1 + 4/u)^-u, the ODE by e^-4."""
    cm, g, h, L = 0.5, 2.0, 1.0, 2
    entries, v_fused = one_neuron(w=0.0, sw=0.0, cm=cm, gleak=g, unfolds=L, elapsed=h)
    exact = -0.2 + 0.3 * math.exp(-4.0)
    r = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.solver_error",))["audit.ltc.solver_error"]
    assert r.verdict.value == "holds" and r.outcome.message.startswith("measured, not judged")
    scale = max(abs(exact), 0.1)  # max(|v_ode|, |v0|) = |-0.2 + 0.3 e^-4|
    rel = abs(v_fused - exact) / scale
    ev = r.outcome.evidence
    assert ev.arrays["relative_error"][0] == pytest.approx(rel, rel=1e-6)
    # where the verdict would flip: --tol below rel (minus the reference's error, <= 1e-6 here) refutes
    assert ev.scalars["refuted_below_tolerance"] == pytest.approx(rel, rel=1e-5)
    grid = (1, 2, 3, 6, 12, 24, 48, 96)
    by_hand = {u: 0.3 * abs((1 + 4 / u) ** -u - math.exp(-4.0)) / scale for u in grid}
    for tol, need in zip(ev.arrays["example_tolerances"], ev.arrays["unfolds_needed_for_example_tolerance"]):
        enough = [u for u in grid if by_hand[u] <= tol]
        assert need == (enough[0] if enough else -1), (tol, by_hand)
    gated = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.solver_error",), tol=1e-2)["audit.ltc.solver_error"]
    assert gated.verdict.value == "refuted"  # the user's tolerance gates


def test_step_tolerance_carries_rounding_through_the_unfolds():
    """A cell trained without constraints (cm < 0 on some units), run by ncps in float32: ncps's own
    eager calls reproduce the export bit for bit, so `audit.ltc.step` must hold. Where cm_t + G + sum g
    comes near 0, |cm_t / den| amplifies each unfold's float32 rounding in the next; a tolerance that only
    adds up the unfolds' roundings refuted this run (4 values, up to 3.9 x that tolerance)."""
    from nacverify.audit.ltc.export import ncps_cell_entries, random_ncps_run

    cell, x, el = random_ncps_run(units=16, inputs=4, steps=100, seed=0, wiring="fc", train_steps=200, constraints="none")
    assert float(cell._params["cm"].detach().min()) < 0
    entries = ncps_cell_entries(cell, x, el)
    h, states = torch.zeros(1, 16), [np.zeros((1, 16), np.float32)]
    with torch.no_grad():
        for k in range(x.shape[0]):
            _, h = cell(torch.as_tensor(x[k]), h, float(el[k]))
            states.append(h.numpy().copy())
    assert np.array_equal(np.stack(states), entries["states"])  # ncps's own computation, bit for bit
    r = verdicts(ltc_from_arrays(entries), ids=("audit.ltc.step",))["audit.ltc.step"]
    assert r.verdict.value == "holds", r.outcome.message


def _cell(wiring, implicit, seed=0, n_in=3):
    torch.manual_seed(seed)
    return LTCCell(wiring, in_features=n_in, implicit_param_constraints=implicit)


@pytest.mark.parametrize("wiring", [lambda: FullyConnected(6), lambda: AutoNCP(8, 2)], ids=["fc", "autoncp"])
@pytest.mark.parametrize("implicit", [False, True])
def test_random_ncps_cells_pass(tmp_path, wiring, implicit):
    cell = _cell(wiring(), implicit)
    x = np.random.default_rng(1).normal(size=(12, 2, 3)).astype(np.float32)
    el = np.random.default_rng(2).uniform(0.2, 3.0, size=(12, 2))
    path, export = export_ncps_cell(cell, x, tmp_path / "cell.npz", elapsed=el)
    again = read_ltc_export(path)
    assert np.array_equal(again.states, export.states) and again.implicit_param_constraints == implicit
    r = verdicts(again)
    assert {k: v.verdict.value for k, v in r.items()} == dict.fromkeys(r, "holds"), {k: v.outcome.message for k, v in r.items()}


def _train(cell, steps=30, constrain=False):
    opt = torch.optim.Adam(cell.parameters(), lr=0.2)
    x = torch.randn(1, 3)
    for _ in range(steps):
        h = torch.zeros(1, cell.state_size)
        for _ in range(4):
            _, h = cell(x, h, 1.0)
        loss = ((h - 3.0) ** 2).sum()  # an unreachable target: pushes conductances hard
        opt.zero_grad()
        loss.backward()
        opt.step()
        if constrain:
            cell.apply_weight_constraints()


def test_trained_cell_without_constraints_is_caught(tmp_path):
    cell = _cell(FullyConnected(6), implicit=False)
    _train(cell)
    with torch.no_grad():
        w = cell._params["w"].numpy() * cell._params["sparsity_mask"].numpy()
        sw = cell._params["sensory_w"].numpy()
        lows = {"w": w.min(), "sensory_w": sw.min(), "gleak": cell._params["gleak"].numpy().min(), "cm": cell._params["cm"].numpy().min()}
    assert min(lows.values()) < 0, "the toy training should drive a conductance negative"
    _, export = export_ncps_cell(cell, np.random.default_rng(3).normal(size=(10, 1, 3)).astype(np.float32), tmp_path / "t.h5")
    r = verdicts(export)
    assert r["audit.ltc.step"].verdict.value == "holds"
    pos = r["audit.ltc.positivity"]
    assert pos.verdict.value == "refuted"
    first = next(k for k in ("w", "sensory_w", "gleak", "cm") if lows[k] < 0 or (k == "cm" and lows[k] <= 0))
    assert pos.outcome.evidence.witness["parameter"] == first
    assert pos.outcome.evidence.witness["value_used"] == pytest.approx(float(lows[first]), rel=1e-6)
    cell.apply_weight_constraints()  # ReLU clip: conductances >= 0 afterwards
    _, export = export_ncps_cell(cell, np.random.default_rng(3).normal(size=(10, 1, 3)).astype(np.float32), tmp_path / "c.npz")
    assert verdicts(export)["audit.ltc.positivity"].verdict.value == ("holds" if lows["cm"] > 0 or cell._params["cm"].min() > 0 else "refuted")


def test_trained_with_constraints_holds(tmp_path):
    cell = _cell(AutoNCP(8, 2), implicit=False)
    _train(cell, constrain=True)
    assert float(cell._params["w"].detach().min()) >= 0
    _, export = export_ncps_cell(cell, np.random.default_rng(4).normal(size=(10, 1, 3)).astype(np.float32), tmp_path / "c.npz")
    r = verdicts(export, ids=("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds"))
    assert r["audit.ltc.step"].verdict.value == "holds" and r["audit.ltc.state_bounds"].verdict.value == "holds"
    assert r["audit.ltc.positivity"].verdict.value == ("holds" if float(cell._params["cm"].detach().min()) > 0 else "refuted")


class WrongDenominator(LTCCell):
    """Drops the sensory conductances from the denominator."""

    def _ode_solver(self, inputs, state, elapsed_time):
        p = self._params
        v = state
        sw = p["sensory_w"] * self._sigmoid(inputs, p["sensory_mu"], p["sensory_sigma"]) * p["sensory_sparsity_mask"]
        num_s = torch.sum(sw * p["sensory_erev"], dim=1)
        cm_t = p["cm"] / (elapsed_time / self._ode_unfolds)
        for _ in range(self._ode_unfolds):
            wa = p["w"] * self._sigmoid(v, p["mu"], p["sigma"]) * p["sparsity_mask"]
            v = (cm_t * v + p["gleak"] * p["vleak"] + torch.sum(wa * p["erev"], dim=1) + num_s) / (cm_t + p["gleak"] + torch.sum(wa, dim=1) + self._epsilon)
        return v


class DroppedLeak(LTCCell):
    """Forgets the leak current: no g_leak V_leak above, no g_leak below."""

    def _ode_solver(self, inputs, state, elapsed_time):
        p = self._params
        v = state
        sw = p["sensory_w"] * self._sigmoid(inputs, p["sensory_mu"], p["sensory_sigma"]) * p["sensory_sparsity_mask"]
        num_s, den_s = torch.sum(sw * p["sensory_erev"], dim=1), torch.sum(sw, dim=1)
        cm_t = p["cm"] / (elapsed_time / self._ode_unfolds)
        for _ in range(self._ode_unfolds):
            wa = p["w"] * self._sigmoid(v, p["mu"], p["sigma"]) * p["sparsity_mask"]
            v = (cm_t * v + torch.sum(wa * p["erev"], dim=1) + num_s) / (cm_t + torch.sum(wa, dim=1) + den_s + self._epsilon)
        return v


@pytest.mark.parametrize("defect", [WrongDenominator, DroppedLeak])
def test_defective_steps_are_refuted(tmp_path, defect):
    torch.manual_seed(0)
    cell = defect(FullyConnected(5), in_features=3)
    _, export = export_ncps_cell(cell, np.random.default_rng(5).normal(size=(8, 1, 3)).astype(np.float32), tmp_path / "d.npz")
    r = verdicts(export)
    assert r["audit.ltc.step"].verdict.value == "refuted"
    assert r["audit.ltc.positivity"].verdict.value == "holds"  # the parameters are fine: only the step is wrong


def test_negative_conductance_defect(tmp_path):
    cell = _cell(FullyConnected(5), implicit=False)
    with torch.no_grad():
        cell._params["w"][2, 4] = -0.75
    _, export = export_ncps_cell(cell, np.random.default_rng(6).normal(size=(8, 1, 3)).astype(np.float32), tmp_path / "n.npz")
    r = verdicts(export)
    assert r["audit.ltc.positivity"].verdict.value == "refuted"
    assert r["audit.ltc.positivity"].outcome.evidence.witness["index"] == "[2, 4]"
    assert r["audit.ltc.step"].verdict.value == "holds"


def test_ltc_module_export_matches_its_forward(tmp_path):
    torch.manual_seed(0)
    rnn = LTC(3, 6, batch_first=True)
    x = torch.randn(2, 7, 3)
    with torch.no_grad():
        _, hn = rnn(x)
    _, export = export_ncps_ltc(rnn, x, tmp_path / "m.npz")
    assert export.implicit_param_constraints is True
    np.testing.assert_array_equal(export.states[-1], hn.numpy())  # same calls, same float32 numbers
    assert verdicts(export, ids=("audit.ltc.step",))["audit.ltc.step"].verdict.value == "holds"


def test_bad_files_are_one_line_bad_input(tmp_path):
    entries, _ = one_neuron()
    for change, needle in [({"states": np.zeros((2, 1, 2))}, "cm has shape"), ({"elapsed": np.array([0.0])}, "elapsed"),
                           ({"ode_unfolds": 0}, "ode_unfolds"), ({"w": np.array([[np.nan]])}, "non-finite")]:
        with pytest.raises(BadInput, match=needle) as info:
            ltc_from_arrays({**entries, **change})
        assert "\n" not in str(info.value)
    p = tmp_path / "x.npz"
    write_ltc_export(entries, p)
    with pytest.raises(BadInput, match="exists"):
        write_ltc_export(entries, p)
    (tmp_path / "junk.npz").write_bytes(b"hello")
    with pytest.raises(BadInput, match="neither"):
        read_ltc_export(tmp_path / "junk.npz")
