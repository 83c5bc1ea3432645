"""Tests that kill mutants of the frozen bounds (tools/mutate.py, target ``bounds``) which the
rest of the suite let survive. Every expected value is a hand derivation from the formulas of
Theorem 3, its sharp form and the bounded-variation form (nacverify/frozen/__init__.py):

    C = |a0| + |phi0| / omega0,  k = L_phi + C L_omega,
    thm3 = k t^2 e^(L_omega t),  sharp = k t^2 / 2,  bv = (V_phi + C V_omega) (1 - e^(-omega_min t)) / omega_min.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from nacverify.frozen._bounds import bound_curves, variation_bound


def _facts(**kw):
    return SimpleNamespace(**{k: np.asarray(v, float) for k, v in kw.items()})


def test_bound_curves_with_omega0_not_one_and_a0_not_zero():
    # kills: C = |a0| + |phi0| * omega0 (every other bound test has omega0 = 1 or a0 = 0)
    # member 0: a0 = -1, phi0 = 3, omega0 = 2 -> C = 1 + 3/2 = 2.5, k = 0.5 + 2.5 * 0.2 = 1
    # member 1: a0 = 2, phi0 = -4, omega0 = 0.5 -> C = 2 + 8 = 10, k = 0.1 + 10 * 0.3 = 3.1
    facts = _facts(phi0=[3.0, -4.0], omega0=[2.0, 0.5], L_phi=[0.5, 0.1], L_omega=[0.2, 0.3],
                   V_phi=[0.3, 0.05], V_omega=[0.4, 0.02], omega_min=[1.5, 0.25])
    t = np.array([0.0, 1.0, 2.0])
    out = bound_curves(t, facts, np.array([-1.0, 2.0]))
    thm3 = [[0.0, math.exp(0.2), 4 * math.exp(0.4)], [0.0, 3.1 * math.exp(0.3), 3.1 * 4 * math.exp(0.6)]]
    sharp = [[0.0, 0.5, 2.0], [0.0, 1.55, 6.2]]
    bv = [[1.3 * (1 - math.exp(-1.5 * s)) / 1.5 for s in t], [0.25 * (1 - math.exp(-0.25 * s)) / 0.25 for s in t]]
    np.testing.assert_allclose(out["thm3"], thm3, rtol=1e-14)
    np.testing.assert_allclose(out["sharp"], sharp, rtol=1e-14)
    np.testing.assert_allclose(out["bv"], bv, rtol=1e-14)


def test_bound_curves_not_lipschitz_is_inf_without_warnings():
    # kills: np.errstate(invalid=...) or (over=...) dropped or set to None. A member that is not
    # Lipschitz (L = inf) has thm3 = sharp = inf at every t, t = 0 included (inf * 0 would be nan and
    # warn), and a huge L_omega t overflows exp; the library neither warns nor returns nan.
    facts = _facts(phi0=[1.0, 1.0], omega0=[1.0, 1.0], L_phi=[np.inf, 1.0], L_omega=[0.0, 1e3],
                   V_phi=[0.1, 0.1], V_omega=[0.1, 0.1], omega_min=[1.0, 1.0])
    t = np.array([0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = bound_curves(t, facts, np.zeros(2))
    assert np.all(np.isinf(out["thm3"][0])) and np.all(np.isinf(out["sharp"][0]))
    # member 1: k = 1 + 1 * 1e3; thm3 at t = 1 overflows to inf, sharp is k / 2 exactly
    assert out["thm3"][1, 0] == 0.0 and np.isinf(out["thm3"][1, 1])
    assert out["sharp"][1].tolist() == [0.0, 1001.0 / 2]


def test_variation_bound_of_exact_fractions_is_float():
    # kills: np.asarray(v_phi, None) (the float conversion dropped): a Fraction stays an object array.
    # (v_phi + v_omega) / (1 - v_phi) = (1/10 + 1/5) / (9/10) = 1/3
    out = variation_bound(Fraction(1, 10), Fraction(1, 5))
    assert out.dtype == np.float64
    assert float(out) == pytest.approx(1 / 3, rel=1e-15)
    assert variation_bound(Fraction(-1, 10), 0.2).dtype == np.float64


def test_variation_bound_at_v_phi_one_is_inf_without_warnings():
    # kills: np.errstate(divide=...) dropped: at v_phi = 1 the bound (v_phi + v_omega) / (1 - v_phi) is inf,
    # returned without a division warning (np.where evaluates both branches)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = variation_bound(np.array([1.0, 0.5]), np.array([0.5, 0.25]))
    assert np.isinf(out[0]) and out[1] == pytest.approx(0.75 / 0.5, rel=1e-15)
