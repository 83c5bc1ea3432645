"""The LTC ODEs of seed 002 (nacverify.ltc) against hand-computed values and closed forms."""

import math

import jax.numpy as jnp
import numpy as np
import pytest
from scipy.optimize import brentq

from nacverify.errors import BadInput
from nacverify.ltc import (
    AbstractLTC,
    BiophysicalLTC,
    HeldInput,
    SmoothInput,
    convert_leaves,
    irregular_input,
    ltc_problem,
    random_abstract_ltc,
    random_biophysical_ltc,
    smooth_input,
)


def _sig(z):
    return 1.0 / (1.0 + math.exp(-z))


def _one_neuron(tau, gr, g, mu, A, activation="sigmoid"):
    a = lambda v: jnp.asarray([[v]]) if isinstance(v, float) and v is not None else v  # noqa: E731
    return AbstractLTC(jnp.asarray([tau]), a(gr), a(g), jnp.asarray([mu]), jnp.asarray([A]), activation=activation)


def _const(value, T=1.0):
    """A constant input I(t) = value (one event-free held input)."""
    return HeldInput(T, jnp.asarray([]), jnp.asarray([[value]]), ())


def test_eq7_one_neuron_by_hand():
    m = _one_neuron(0.5, 0.2, 1.0, -0.1, 1.5)
    x, I = 0.3, 0.7
    f = _sig(0.2 * x + 1.0 * I - 0.1)
    expected = -(1 / 0.5 + f) * x + f * 1.5
    got = float(m.rhs(0.0, jnp.asarray([x]), _const(I))[0])
    assert got == pytest.approx(expected, rel=1e-15)
    tanh_m = _one_neuron(0.5, 0.2, 1.0, -0.1, 1.5, "tanh")
    ft = math.tanh(0.2 * x + I - 0.1)
    assert float(tanh_m.rhs(0.0, jnp.asarray([x]), _const(I))[0]) == pytest.approx(-(2 + ft) * x + ft * 1.5, rel=1e-15)
    assert float(m.tau_sys(jnp.asarray([x]), jnp.asarray([I]))[0]) == pytest.approx(0.5 / (1 + 0.5 * f), rel=1e-15)  # eq. 7a


def test_eq7_vectorised_matches_explicit_sums():
    m = random_abstract_ltc(5, 3, seed=7)
    x = np.random.default_rng(1).normal(size=5)
    I = np.random.default_rng(2).normal(size=3)
    p = {k: np.asarray(getattr(m, k)) for k in ("tau", "gamma_r", "gamma", "mu", "A")}
    expected = np.empty(5)
    for j in range(5):  # neuron j: pre-activation sum_i x_i gamma_r[i, j] + sum_m I_m gamma[m, j] + mu_j
        z = sum(x[i] * p["gamma_r"][i, j] for i in range(5)) + sum(I[k] * p["gamma"][k, j] for k in range(3)) + p["mu"][j]
        f = _sig(z)
        expected[j] = -(1 / p["tau"][j] + f) * x[j] + f * p["A"][j]
    sig = HeldInput(1.0, jnp.asarray([]), jnp.asarray(I[None, :]), ())
    np.testing.assert_allclose(np.asarray(m.rhs(0.0, jnp.asarray(x), sig)), expected, rtol=1e-13)
    np_model = convert_leaves(m, np.asarray)  # the numpy path computes the same numbers
    np.testing.assert_allclose(np_model.rhs(0.0, x, convert_leaves(sig, np.asarray), xp=np), expected, rtol=1e-13)


def test_eq9_fused_step_solves_eq8():
    """x1 = x0 + dt (-(1/tau + f(x0)) x1 + f(x0) A): eq. 8 with only the linear x at t + dt."""
    m = random_abstract_ltc(4, 2, seed=3)
    x0 = jnp.asarray([0.2, -0.4, 0.9, 0.0])
    I = jnp.asarray([0.3, -1.1])
    dt = 0.37
    x1 = np.asarray(m.fused_step(x0, I, dt))
    f = np.asarray(m.f(x0, I))
    residual = x1 - np.asarray(x0) - dt * (-(1 / np.asarray(m.tau) + f) * x1 + f * np.asarray(m.A))
    assert np.max(np.abs(residual)) < 1e-15


def test_eq9_is_backward_euler_without_recurrence_and_first_order():
    """With gamma_r = 0 eq. 7 is linear: x' = -(1/tau + f) x + f A, f constant for constant I.
    The fused step is then backward Euler (checked against a root solve) and converges to
    the exact solution x* + (x0 - x*) exp(-(1/tau + f) t) with order 1."""
    tau, g, mu, A, I, x0, T = 0.8, 1.3, -0.2, 2.0, 0.6, -0.5, 1.0
    m = _one_neuron(tau, 0.0, g, mu, A)
    f = _sig(g * I + mu)
    lam, xs = 1 / tau + f, f * A / (1 / tau + f)
    dt = 0.05
    be = brentq(lambda y: y - x0 - dt * (-lam * y + f * A), -10, 10, xtol=1e-15)
    assert float(m.fused_step(jnp.asarray([x0]), jnp.asarray([I]), dt)[0]) == pytest.approx(be, abs=1e-14)
    exact = xs + (x0 - xs) * math.exp(-lam * T)
    errors = []
    for n in (50, 100, 200, 400):
        x = jnp.asarray([x0])
        for _ in range(n):
            x = m.fused_step(x, jnp.asarray([I]), T / n)
        errors.append(abs(float(x[0]) - exact))
    orders = np.log2(np.asarray(errors[:-1]) / np.asarray(errors[1:]))
    np.testing.assert_allclose(orders, 1.0, atol=0.03)


def test_biophysical_one_synapse_is_eq4_and_eq5():
    """N = 2, one synapse 1 -> 0, no sensory synapse: neuron 0 follows eq. 4 (and its eq. 5 form)."""
    cm, gl, vl = 1.3, 0.9, -0.4
    w, gam, mu, E = 0.7, 2.5, 0.3, 0.8
    zeros = jnp.zeros((2, 1))
    m = BiophysicalLTC(
        jnp.asarray([cm, 1.0]), jnp.asarray([gl, 1.0]), jnp.asarray([vl, 0.0]),
        jnp.asarray([[0.0, w], [0.0, 0.0]]), jnp.asarray([[1.0, gam], [1.0, 1.0]]), jnp.asarray([[0.0, mu], [0.0, 0.0]]),
        jnp.asarray([[0.0, E], [0.0, 0.0]]), zeros, zeros + 1, zeros, zeros,
    )
    v = jnp.asarray([0.1, -0.6])
    s = 1 / (1 + math.exp(-gam * (-0.6 + mu)))
    eq4 = gl / cm * (vl - 0.1) + w / cm * s * (E - 0.1)
    tau = cm / gl
    eq5 = -(1 / tau + w / cm * s) * 0.1 + (vl / tau + w / cm * s * E)
    got = np.asarray(m.rhs(0.0, v, _const(0.0)))
    assert got[0] == pytest.approx(eq4, rel=1e-14) and got[0] == pytest.approx(eq5, rel=1e-14)
    assert got[1] == pytest.approx(1.0 * (0.0 - -0.6) / 1.0, rel=1e-14)  # leak only
    assert float(m.tau_sys(v, jnp.asarray([0.0]))[0]) == pytest.approx(1 / (1 / tau + w / cm * s), rel=1e-14)  # eq. 5a


def test_biophysical_sensory_synapse_by_hand():
    m = random_biophysical_ltc(3, 2, seed=5)
    p = {k: np.asarray(getattr(m, k)) for k in ("cm", "g_leak", "v_leak", "w", "gamma", "mu", "E", "w_s", "gamma_s", "mu_s", "E_s")}
    v = np.array([-0.2, 0.4, 0.05])
    I = np.array([0.7, -1.2])
    expected = []
    for i in range(3):
        total = p["g_leak"][i] * (p["v_leak"][i] - v[i])
        for j in range(3):
            total += p["w"][i, j] * _sig(p["gamma"][i, j] * (v[j] + p["mu"][i, j])) * (p["E"][i, j] - v[i])
        for k in range(2):
            total += p["w_s"][i, k] * _sig(p["gamma_s"][i, k] * (I[k] + p["mu_s"][i, k])) * (p["E_s"][i, k] - v[i])
        expected.append(total / p["cm"][i])
    sig = HeldInput(1.0, jnp.asarray([]), jnp.asarray(I[None, :]), ())
    np.testing.assert_allclose(np.asarray(m.rhs(0.0, jnp.asarray(v), sig)), expected, rtol=1e-13)


def test_parameters_inside_seed002_ranges():
    m = random_biophysical_ltc(6, 3, seed=11)
    tau = np.asarray(m.cm) / np.asarray(m.g_leak)
    assert np.all((0.5 <= tau) & (tau <= 2.0)) and np.all((0.5 <= np.asarray(m.cm)) & (np.asarray(m.cm) <= 2.0))
    assert np.all(np.asarray(m.w) >= 0) and np.all(np.asarray(m.w) <= 1.0)
    assert np.all((np.asarray(m.gamma) >= 0.5) & (np.asarray(m.gamma) <= 5.0))
    assert np.all((np.asarray(m.E) >= -1) & (np.asarray(m.E) <= 1)) and np.all((np.asarray(m.v_leak) >= -1) & (np.asarray(m.v_leak) <= 0))
    a = random_abstract_ltc(6, 3, seed=11)
    assert np.all((np.asarray(a.tau) >= 0.1) & (np.asarray(a.tau) <= 1.0))


def test_smooth_input_formula_and_seeding():
    s = smooth_input(2, seed=4, T=2.0)
    t = 0.77
    off, amp, freq, phase = (np.asarray(x) for x in (s.offset, s.amp, s.freq, s.phase))
    expected = [off[m] + sum(amp[k, m] * math.sin(2 * math.pi * freq[k, m] * t / 2.0 + phase[k, m]) for k in range(3)) for m in range(2)]
    np.testing.assert_allclose(np.asarray(s(t)), expected, rtol=1e-14)
    assert s.jump_ts == ()
    again = smooth_input(2, seed=4, T=2.0)
    assert np.array_equal(np.asarray(again.amp), amp)
    assert not np.array_equal(np.asarray(smooth_input(2, seed=5).amp), amp)


def test_irregular_input_is_right_continuous_hold():
    h = irregular_input(2, seed=9, T=1.0, events=4)
    times, values = np.asarray(h.times), np.asarray(h.values)
    assert h.jump_ts == tuple(times) and np.all(np.diff(times) >= 0.02) and 0.05 <= times[0] and times[-1] <= 0.95
    np.testing.assert_array_equal(np.asarray(h(0.0)), values[0])
    np.testing.assert_array_equal(np.asarray(h(times[1])), values[2])  # at an event: the new value
    np.testing.assert_array_equal(np.asarray(h(np.nextafter(times[1], 0))), values[1])  # just before: the old one
    np.testing.assert_array_equal(np.asarray(h(1.0)), values[-1])
    mid = 0.5 * (times[0] + times[1])
    np.testing.assert_array_equal(np.asarray(h(times[1], ref=mid)), values[1])  # ref selects the piece


def test_problem_defaults_and_bad_input():
    p = ltc_problem("abstract", input_kind="irregular", seed=2)
    assert np.all(p.x0 == 0) and len(p.jump_ts) == 5
    b = ltc_problem("biophysical", seed=2)
    np.testing.assert_array_equal(b.x0, np.asarray(b.model.v_leak))
    for kwargs in ({"form": "nope"}, {"input_kind": "nope"}, {"neurons": 0}, {"inputs": 0}, {"T": -1.0}, {"activation": "relu"}):
        with pytest.raises(BadInput):
            ltc_problem(**{"form": "abstract", **kwargs})
    assert isinstance(ltc_problem("abstract").signal, SmoothInput)
