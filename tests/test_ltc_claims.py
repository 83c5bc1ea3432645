"""LTC numerical claims (seed 002) against hand-built counterexamples and known facts."""

import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.checks._ltc_common import N, batched_rhs, draw_networks
from nacverify.checks.ltc_bounds import bounds_claims
from nacverify.checks.ltc_stability import stability_claims
from nacverify.claims import CheckContext, Verdict, evaluate


def ltc_claims():
    return [*bounds_claims(), *stability_claims()]

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
    # the claim's witness obeys the same hand arithmetic: tau_sys = tau/(1 + tau f), the printed upper end tau/(1 - tau),
    # and tau >= 1, where tau/(1 + tau) > 0 > tau/(1 - tau) makes the interval empty (or tau = 1: no upper end at all)
    claim = next(c for c in ltc_claims() if c.id == "ltc.sec15.tanh_tau_sys.numeric")
    out = evaluate(claim, QUICK).outcome
    assert out.verdict == Verdict.REFUTED, out.message
    w = out.evidence.witness
    assert w["tau_sys"] == pytest.approx(w["tau"] / (1 + w["tau"] * w["f"]), rel=1e-12)
    assert w["stated_upper"] == pytest.approx(w["tau"] / (1 - w["tau"]), rel=1e-12)
    assert w["tau"] >= 1 and not (w["tau"] / (1 + w["tau"]) <= w["tau_sys"] <= w["stated_upper"])
    # by hand, for tau < 1 and f in [-1, 1]: 1 + tau f > 0 and tau/(1 + tau f) falls from tau/(1 - tau) to tau/(1 + tau): never outside
    assert out.evidence.scalars["fraction_outside_tau_below_1"] == 0.0 and out.evidence.scalars["min_tau_outside"] >= 1
    # the witness is the most negative denominator 1 + tau f among the points outside, here the most negative of all
    assert out.evidence.scalars["min_denominator"] == pytest.approx(1 + w["tau"] * w["f"], rel=1e-12)


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
