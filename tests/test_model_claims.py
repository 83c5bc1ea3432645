"""Model claims (group ``model``): verdicts as expected, evidence consistent with the gates,
and the helper bounds against independent evaluations."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nacverify  # noqa: F401
from nacverify.claims import CheckContext, Verdict, evaluate, registry
from nacverify.checks import nac_model_gates as mc

IDS = ["nac.model.omega_positive", "nac.model.exact_is_ode", "nac.model.thm1", "nac.model.euler_margin", "nac.model.gate_sensitivity", "nac.model.sharpness"]


@pytest.fixture(scope="module")
def results():
    import nacverify.catalog  # noqa: F401

    reg = registry()
    ctx = CheckContext(seed=0, quick=True)
    return {cid: evaluate(reg[cid], ctx) for cid in IDS}


def test_registered_in_group_model():
    import nacverify.catalog  # noqa: F401

    reg = registry()
    for cid in IDS:
        assert reg[cid].group == "model" and "001_9075dda04a2ad935.txt" in reg[cid].source


@pytest.mark.parametrize("cid", IDS)
def test_verdict_as_expected(results, cid):
    r = results[cid]
    assert r.verdict == r.claim.expected, r.outcome.message


def test_gate_sensitivity_evidence(results):
    s = results["nac.model.gate_sensitivity"].outcome.evidence.scalars
    assert s["jac_phi_max_reference-shared"] == 0.0 and s["jac_omega_max_reference-shared"] == 0.0
    assert s["jac_phi_max_circuit-shared"] > 1e-3 and s["jac_phi_max_fc-shared"] > 1e-3
    assert results["nac.model.gate_sensitivity"].outcome.evidence.witness["variant"].startswith("reference")


def test_euler_margin_evidence(results):
    s = results["nac.model.euler_margin"].outcome.evidence.scalars
    # reference gates are constant: omega = softplus(0) + 1e-6 = ln 2 + 1e-6 (zero bias, unit w_out)
    assert abs(s["h_max_reference-shared"] - 0.5 * (math.log(2) + 1e-6)) < 1e-12
    assert s["h_max_circuit-shared"] < 1 < s["h_max_fc-shared"]


def test_exact_is_ode_margin(results):
    s = results["nac.model.exact_is_ode"].outcome.evidence.scalars
    assert s["max_abs_gap_exact"] + s["max_solver_margin"] <= 1e-9


def test_euler_sum_range_against_a_grid():
    for lo, hi in ((0.1, 1.5), (0.5, 6.0), (2.5, 3.0)):
        s_lo, s_hi = mc._euler_sum_range(lo, hi)
        w = np.linspace(lo, hi, 200001)
        a = np.zeros_like(w)
        for _ in range(mc.EULER_STEPS):  # euler logit with phi = 1 is S(omega)
            a = a + mc.DELTA_T * (-w * a + 1.0)
        assert s_lo <= a.min() + 1e-12 and a.max() <= s_hi + 1e-12
        assert a.min() - s_lo < 1e-6 and s_hi - a.max() < 1e-6


def test_interval_violation_detects_a_logit_outside():
    A = np.array([0.5, -0.5, 0.5])
    a = np.array([0.25, -0.25, 0.75])  # the last one overshoots A
    viol = mc._interval_violation(a, A)
    assert viol[0] < 0 and viol[1] < 0 and viol[2] > 0.2


def test_exact_mode_attention_never_exceeds_the_architectural_bound():
    gates = mc.variant_gates(0, True)
    for v in gates:
        assert v.attention_max["exact"] <= math.e / (math.e + v.topk - 1)
        assert np.all(v.logits["exact"] < v.phi * v.t_pseudo + 1e-15) and np.all(v.logits["exact"] > 0)
