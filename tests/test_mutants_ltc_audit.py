"""Tests that kill mutants of the LTC audit's numerics (tools/mutate.py, target ``ltc_numerics``):
the reference solve against SciPy's own integration of the cell ODE written neuron by neuron,
and the chunk runner's thread contract."""

from __future__ import annotations

import math
import threading

import numpy as np
from scipy.integrate import solve_ivp

from nacverify.audit.ltc import numerics as ltc_numerics
from nacverify.audit.ltc.numerics import CellArrays, ode_solve


def _cell(N: int, M: int, seed: int) -> CellArrays:
    rng = np.random.default_rng(seed)
    return CellArrays(cm=rng.uniform(0.5, 2, N), gleak=rng.uniform(0.2, 1, N), vleak=rng.uniform(-1, 0, N),
                      w=rng.uniform(0, 1, (N, N)), sigma=rng.uniform(1, 5, (N, N)), mu=rng.uniform(-0.5, 0.5, (N, N)),
                      erev=rng.uniform(-1, 1, (N, N)), sw=rng.uniform(0, 1, (M, N)), ssigma=rng.uniform(1, 5, (M, N)),
                      smu=rng.uniform(-0.5, 0.5, (M, N)), serev=rng.uniform(-1, 1, (M, N)), epsilon=1e-8)


def _rhs(c: CellArrays, I: np.ndarray):
    """dv_i/dt = (gleak_i (vleak_i - v_i) + sum_j w_ji s_ji (E_ji - v_i) + sum_m sw_mi s_mi (Es_mi - v_i)) / cm_i
    (matrices [presynaptic, postsynaptic], ncps's LTCCell), with loops."""
    sg = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    N, M = c.cm.size, I.size

    def f(t, v):
        out = np.empty(N)
        for i in range(N):
            cur = c.gleak[i] * (c.vleak[i] - v[i])
            for j in range(N):
                cur += c.w[j, i] * sg(c.sigma[j, i] * (v[j] - c.mu[j, i])) * (c.erev[j, i] - v[i])
            for m in range(M):
                cur += c.sw[m, i] * sg(c.ssigma[m, i] * (I[m] - c.smu[m, i])) * (c.serev[m, i] - v[i])
            out[i] = cur / c.cm[i]
        return out

    return f


def test_reference_solve_matches_scipy_row_by_row():
    # kills: a sum over every axis (lanes and units) instead of each unit's presynaptic sum in the vector field
    c = _cell(3, 2, 4)
    rng = np.random.default_rng(5)
    S = 5
    v0, I, elapsed = rng.uniform(-1, 1, (S, 3)), rng.uniform(-1, 1, (S, 2)), np.array([0.3, 1.0, 2.5, 0.7, 4.0])
    ys, ok, steps = ode_solve(c, v0, I, elapsed, 1e-10, 1e-12)
    assert ok.all() and (steps > 0).all()
    for s in range(S):
        ref = solve_ivp(_rhs(c, I[s]), (0, elapsed[s]), v0[s], method="DOP853", rtol=1e-12, atol=1e-14).y[:, -1]
        np.testing.assert_allclose(ys[s], ref, rtol=1e-7, atol=1e-9)


def test_chunks_run_in_this_thread_when_one_worker(monkeypatch):
    # kills: the worker count ignored (a pool of default size even when this process may use one core)
    monkeypatch.setattr(ltc_numerics, "workers", lambda: 1)
    seen, order = [], []
    calls = [lambda i=i: (seen.append(threading.current_thread()), i)[1] for i in range(3)]
    ltc_numerics._run_chunks(calls, lambda i, r: order.append((i, r)))
    assert order == [(0, 0), (1, 1), (2, 2)]
    assert all(t is threading.main_thread() for t in seen)
    monkeypatch.setattr(ltc_numerics, "workers", lambda: 2)
    seen.clear(), order.clear()
    ltc_numerics._run_chunks(calls, lambda i, r: order.append((i, r)))
    assert order == [(0, 0), (1, 1), (2, 2)] and all(t is not threading.main_thread() for t in seen)
