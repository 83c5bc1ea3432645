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
from nacverify.audit.ltc.updates import update_of


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


def test_lanes_are_a_power_of_two_at_least_the_rows_capped():
    # the smallest power of two >= n: 1, 2, 4, 4, 8, ...; capped at MAX_LANES-like caps
    cases = {(1, 64): 1, (2, 64): 2, (3, 64): 4, (4, 64): 4, (5, 64): 8, (32, 64): 32, (33, 64): 64, (100, 64): 64, (4, 2): 2}
    assert {k: ltc_numerics._pow2_at_most(*k) for k in cases} == cases


def test_each_lane_is_controlled_as_if_solved_alone():
    """One long interval among seven very short ones, eight lanes in one solve: the controller's norm is
    the largest lane RMS (`_lane_rms_max`), so the long lane's steps are not diluted by the easy lanes;
    the batch takes at least the steps the long interval takes alone. An RMS over all lanes would divide
    its error by about sqrt(8) and take fewer, larger steps."""
    c = _cell(3, 2, 7)
    rng = np.random.default_rng(8)
    v0, I = rng.uniform(-1, 1, (8, 3)), rng.uniform(-1, 1, (8, 2))
    elapsed = np.array([1e-3] * 7 + [40.0])
    _, ok, steps = ode_solve(c, v0, I, elapsed, 1e-8, 1e-10)
    _, ok_alone, steps_alone = ode_solve(c, v0[7:], I[7:], elapsed[7:], 1e-8, 1e-10)
    assert ok.all() and ok_alone.all()
    assert steps[7] >= steps_alone[0] > 20


def test_a_reference_that_did_not_finish_gives_every_unfold_count_and_no_check(monkeypatch):
    """Where some row's reference solve did not finish, nothing is re-solved: rel holds every unfold
    count asked for, and the check's arrays are empty (index, error, finished flags as bool)."""
    real = ltc_numerics.ode_solve

    def unfinished(*args, **kwargs):
        ys, ok, steps = real(*args, **kwargs)
        ok = ok.copy()
        ok[0] = False
        return ys, ok, steps

    monkeypatch.setattr(ltc_numerics, "ode_solve", unfinished)
    c = _cell(3, 2, 4)
    rng = np.random.default_rng(5)
    v0, I, elapsed = rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (4, 2)), np.array([0.3, 1.0, 2.5, 0.7])
    cmp = ltc_numerics.compare_with_reference(c, v0, I, elapsed, [1, 6, 3], 6, rtol=1e-8, atol=1e-10, update=update_of("fused"))
    assert sorted(cmp.rel) == [1, 3, 6] and all(r.shape == (4,) for r in cmp.rel.values())
    assert not cmp.finished[0] and cmp.finished[1:].all()
    assert cmp.check_index.shape == (0,) and cmp.check_error.shape == (0,)
    assert cmp.check_finished.shape == (0,) and cmp.check_finished.dtype == bool
