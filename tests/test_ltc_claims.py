"""LTC numerical claims (seed 002) against hand-built counterexamples and known facts."""

import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.checks.ltc_checks import N, batched_rhs, draw_networks, ltc_claims
from nacverify.claims import CheckContext, Verdict, evaluate

QUICK = CheckContext(seed=0, quick=True)


def _one_neuron_network(tau, A, mu):
    p = draw_networks(1, 0)
    p = {k: np.zeros_like(v) for k, v in p.items()}
    p["tau"][:], p["A"][:], p["mu"][:] = tau, A, mu
    return {k: jnp.asarray(v) for k, v in p.items()}


def test_tanh_leaves_eq12_interval_by_hand():
    # gamma = gamma_r = 0, mu = -1: f = tanh(-1) < 0 everywhere; A = 1, x = 0 at the lower end of [0, 1]
    p = _one_neuron_network(1.0, 1.0, -1.0)
    dx = np.asarray(batched_rhs(0.0, jnp.zeros(N), (p, "tanh")))
    assert dx[0] == pytest.approx(np.tanh(-1.0))  # x' = f A < 0: leaves [0, A]
    dx_sig = np.asarray(batched_rhs(0.0, jnp.zeros(N), (p, "sigmoid")))
    assert dx_sig[0] == pytest.approx(1 / (1 + np.e))  # sigmoid: x' = f A > 0, inward


def test_tanh_tau_sys_counterexample_by_hand():
    tau, f = 2.0, -0.6
    tau_sys = tau / (1 + tau * f)  # = -10
    assert tau_sys == pytest.approx(-10.0)
    lo, hi = tau / (1 + tau), tau / (1 - tau)  # section 15's interval [2/3, -2] is empty
    assert not (lo <= tau_sys <= hi)


@pytest.mark.parametrize("claim", ltc_claims(), ids=lambda c: c.id)
def test_ltc_claim_verdicts(claim):
    result = evaluate(claim, QUICK)
    assert result.verdict == claim.expected, result.outcome.message
    if result.verdict == Verdict.REFUTED and claim.id.startswith("ltc.eq12"):
        w = result.outcome.evidence.witness
        lo, hi = min(0.0, w["A"]), max(0.0, w["A"])
        assert not (lo <= w["x"] <= hi)  # the witness state is really outside the interval


def test_stiffness_evidence_keeps_fits_and_tolerances():
    claim = {c.id: c for c in ltc_claims()}["ltc.stiff"]
    ev = evaluate(claim, QUICK).outcome.evidence
    taus, steps = ev.arrays["tau"], ev.arrays["tsit5_steps"]
    assert steps.shape == (len(ev.arrays["rtols"]), len(taus))
    # stability-limited: 100x smaller tau, ~100x more explicit steps, at every tolerance
    assert steps[:, -1].min() / steps[:, 0].max() > 40
    assert ev.arrays["tsit5_fitted"].sum() >= 3
