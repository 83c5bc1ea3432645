"""Tests that kill mutants of nacverify/ltc.py (tools/mutate.py, target ``ltc``) that the rest of
the suite let survive. Values are hand derivations on one-neuron models (seed 002 eq. 1-2, 7, 9)
and the input and seeding contracts of the module docstring."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.errors import BadInput
from nacverify.ltc import (AbstractLTC, BiophysicalLTC, HeldInput, SmoothInput, convert_leaves, irregular_input, ltc_problem,
                           random_abstract_ltc, sigmoid)


def test_one_neuron_abstract_ltc_by_hand():
    # z = 0 * x + I * 1 + 0 = log 3 -> f = sigmoid(log 3) = 3/4; tau = 1/2, A = 2
    m = AbstractLTC(jnp.array([0.5]), jnp.zeros((1, 1)), jnp.ones((1, 1)), jnp.zeros(1), jnp.array([2.0]))
    I = jnp.array([math.log(3.0)])
    x = jnp.array([0.4])
    assert float(m.f(x, I)[0]) == pytest.approx(0.75, rel=1e-15)
    sig = SmoothInput(1.0, jnp.array([math.log(3.0)]), jnp.zeros((1, 1)), jnp.ones((1, 1)), jnp.zeros((1, 1)))
    assert float(m.rhs(0.3, x, sig)[0]) == pytest.approx(-(2 + 0.75) * 0.4 + 0.75 * 2, rel=1e-14)
    assert float(m.tau_sys(x, I)[0]) == pytest.approx(0.5 / (1 + 0.5 * 0.75), rel=1e-15)
    assert float(m.fused_step(x, I, 0.1)[0]) == pytest.approx((0.4 + 0.1 * 0.75 * 2) / (1 + 0.1 * (2 + 0.75)), rel=1e-15)
    t = AbstractLTC(m.tau, m.gamma_r, m.gamma, m.mu, m.A, activation="tanh")
    assert float(t.f(x, I)[0]) == pytest.approx(math.tanh(math.log(3.0)), rel=1e-15)  # = 4/5
    assert float(sigmoid(jnp.float64(0.0))) == 0.5


def test_one_neuron_biophysical_ltc_by_hand_in_numpy():
    # g = w sigma(gamma (v + mu)) = 0.5 sigma(2 (0 + 0)) = 0.25; g_s = 1 * sigma(1 (log 3 + 0)) = 0.75
    m = BiophysicalLTC(*(jnp.array(a) for a in ([2.0], [1.0], [-0.5], [[0.5]], [[2.0]], [[0.0]], [[1.0]], [[1.0]], [[1.0]], [[0.0]], [[-1.0]])))
    mn = convert_leaves(m, np.asarray)
    v, I = np.array([0.0]), np.array([math.log(3.0)])
    g, g_s = mn.conductances(v, I, xp=np)
    # numpy in, numpy out: the xp namespace reaches both sigmoids (mpmath's namespace needs the same)
    assert type(g) is np.ndarray and type(g_s) is np.ndarray
    assert float(g[0, 0]) == 0.25 and float(g_s[0, 0]) == pytest.approx(0.75, rel=1e-15)
    held = HeldInput(1.0, np.array([0.5]), np.array([[math.log(3.0)], [0.0]]), (0.5,))
    rhs = (1.0 * (-0.5 - 0) + 0.25 * (1.0 - 0) + 0.75 * (-1.0 - 0)) / 2.0
    assert float(mn.rhs(0.1, v, held, xp=np)[0]) == pytest.approx(rhs, rel=1e-15)
    assert float(mn.tau_sys(v, I, xp=np)[0]) == pytest.approx(2.0 / (1 + 0.25 + 0.75), rel=1e-15)


def test_held_input_is_right_continuous_and_ref_overrides_t():
    s = HeldInput(1.0, jnp.array([0.3, 0.6]), jnp.array([[1.0], [2.0], [3.0]]), (0.3, 0.6))
    assert [float(s(t)[0]) for t in (0.0, 0.29, 0.3, 0.59, 0.6, 0.9)] == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert float(s(0.9, ref=0.1)[0]) == 1.0
    assert s.jump_ts == (0.3, 0.6)


def test_irregular_input_one_event_and_spacing():
    one = irregular_input(2, 7, events=1)  # one event: no spacing to check
    assert len(one.jump_ts) == 1 and one.values.shape == (2, 2) and 0.05 <= one.jump_ts[0] <= 0.95
    five = irregular_input(1, 3, T=2.0, events=5)
    assert np.min(np.diff(five.jump_ts)) >= 0.02 * 2.0 and 0.1 <= min(five.jump_ts) and max(five.jump_ts) <= 1.9
    with pytest.raises(BadInput, match="needs >= 1 event, got 0"):
        irregular_input(1, 0, events=0)
    # 60 events 0.02 T apart need 59 * 0.02 = 1.18 T > the 0.9 T window: impossible
    with pytest.raises(BadInput, match="cannot place 60 events at least 0.02 T apart"):
        irregular_input(1, 0, events=60)


def test_random_models_are_seeded():
    a, b, c = random_abstract_ltc(3, 2, 5), random_abstract_ltc(3, 2, 5), random_abstract_ltc(3, 2, 6)
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    assert not np.array_equal(np.asarray(a.tau), np.asarray(c.tau))
    # the draws of section 14, in order, from the generator seeded [seed, 3]
    rng = np.random.default_rng([5, 3])
    np.testing.assert_array_equal(np.asarray(a.tau), np.exp(rng.uniform(np.log(0.1), np.log(1.0), size=3)))


def test_irregular_problem_uses_its_window_and_names_its_params():
    p = ltc_problem("abstract", neurons=3, inputs=1, input_kind="irregular", T=4.0, seed=2, events=4)
    assert p.signal.T == 4.0 and len(p.jump_ts) == 4
    assert all(0.05 * 4 <= t <= 0.95 * 4 for t in p.jump_ts) and max(p.jump_ts) > 0.95  # placed in [0.2, 3.8], not [0.05, 0.95]
    assert p.params == {"neurons": 3, "inputs": 1, "input": "irregular", "activation": "sigmoid", "seed": 2}
    assert p.description == "abstract LTC (eq. 7, f = sigmoid), N = 3, M = 1, irregular input, seed 2, T = 4"
    q = ltc_problem("biophysical", neurons=2, inputs=1)
    assert q.params["activation"] == "sigmoid (eq. 2)" and q.params["neurons"] == 2
    np.testing.assert_array_equal(q.x0, np.asarray(q.model.v_leak))


def test_two_neuron_biophysical_rhs_sums_per_neuron():
    # eq. 1-2 written neuron by neuron with Python loops: each neuron sums ITS OWN synapses (axis 1),
    # sensory ones included; two neurons with different sensory conductances tell a per-neuron sum from a total
    rng = np.random.default_rng(11)
    N, M = 2, 2
    cm, gl, vl = rng.uniform(0.5, 2, N), rng.uniform(0.5, 2, N), rng.uniform(-1, 0, N)
    w, ga, mu, E = (rng.uniform(0, 1, (N, N)), rng.uniform(0.5, 5, (N, N)), rng.uniform(-2, 2, (N, N)), rng.uniform(-1, 1, (N, N)))
    ws, gs, mus, Es = (rng.uniform(0, 1, (N, M)), rng.uniform(0.5, 5, (N, M)), rng.uniform(-2, 2, (N, M)), rng.uniform(-1, 1, (N, M)))
    m = BiophysicalLTC(cm, gl, vl, w, ga, mu, E, ws, gs, mus, Es)
    v, I = np.array([0.3, -0.7]), np.array([0.9, -0.2])
    sg = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    want, tau = [], []
    for i in range(N):
        chem = [w[i, j] * sg(ga[i, j] * (v[j] + mu[i, j])) for j in range(N)]
        sens = [ws[i, k] * sg(gs[i, k] * (I[k] + mus[i, k])) for k in range(M)]
        cur = gl[i] * (vl[i] - v[i]) + sum(c * (E[i, j] - v[i]) for j, c in enumerate(chem)) + sum(c * (Es[i, k] - v[i]) for k, c in enumerate(sens))
        want.append(cur / cm[i])
        tau.append(cm[i] / (gl[i] + sum(chem) + sum(sens)))
    held = HeldInput(1.0, np.array([0.5]), np.stack([I, I]), (0.5,))
    np.testing.assert_allclose(m.rhs(0.2, v, held, xp=np), want, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(m.rhs(0.2, jnp.asarray(v), held)), want, rtol=1e-13)
    np.testing.assert_allclose(m.tau_sys(v, I, xp=np), tau, rtol=1e-13)
