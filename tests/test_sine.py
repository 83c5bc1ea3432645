"""`nacverify.compute.sine.sine`, the vectorisable float64 sine of the oscillatory sweeps, against mpmath.

The constants are re-derived here from pi and the factorials at 200 bits; the accuracy is
measured in ulps of the correctly rounded sine (mpmath at 120 bits), on the sweeps' argument
range [0, 8 pi], on the whole stated range |x| <= 2^20, and next to the multiples of pi/2,
where the reduction loses the most."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from mpmath import mp, mpf

import nacverify.compute.sine as sine_mod
from nacverify.compute.precision import float64
from nacverify.compute.sine import SINE_LIMIT, sine


def _ulp_errors(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with mp.workprec(120):
        out = []
        for xi, yi in zip(x.tolist(), y.tolist()):
            exact = mp.sin(mpf(xi))
            out.append(abs(float((mpf(yi) - exact) / mpf(np.spacing(abs(float(exact)))))))
    return np.array(out)


def _sine(x: np.ndarray) -> np.ndarray:
    with float64():
        return np.asarray(jax.jit(sine)(jnp.asarray(x, dtype=jnp.float64)))


def test_the_constants_are_pi_over_2_and_the_taylor_coefficients():
    with mp.workprec(200):
        assert abs(sum(mpf(v) for v in sine_mod._PIO2) - mp.pi / 2) < mpf(2) ** -140
        for part in sine_mod._PIO2[:3]:  # 27 significant bits: k * part is exact for |k| < 2^26
            mantissa, _ = math.frexp(part)
            assert (mantissa * 2**27).is_integer()
        assert sine_mod._TWO_OVER_PI == float(2 / mp.pi)
        assert sine_mod._SIN == tuple(float(mpf(-1) ** i / mp.factorial(2 * i + 1)) for i in range(1, 10))
        assert sine_mod._COS == tuple(float(mpf(-1) ** i / mp.factorial(2 * i)) for i in range(2, 10))


@pytest.mark.parametrize("low, high, count", [(0.0, 8 * math.pi, 3000), (-8 * math.pi, 0.0, 500), (-SINE_LIMIT, SINE_LIMIT, 1500)])
def test_sine_is_within_one_ulp(low, high, count):
    x = np.random.default_rng(11).uniform(low, high, count)
    assert _ulp_errors(x, _sine(x)).max() <= 1.0


def test_sine_next_to_the_multiples_of_half_pi():
    centres = np.array([k * math.pi / 2 for k in range(1, 65)] + [2**19 * math.pi / 2])
    x = np.concatenate([np.nextafter(centres, np.inf), centres, np.nextafter(centres, -np.inf), centres + 1e-9, centres - 1e-7])
    assert _ulp_errors(x, _sine(x)).max() <= 1.0


def test_sine_at_zero_and_tiny_arguments_and_its_symmetry():
    x = np.array([0.0, 1e-300, 2.0**-1022, 1e-10, 1e-9])
    np.testing.assert_array_equal(_sine(x), x)  # sin x = x (1 - x^2/6 + ...) rounds to x below 2^-26
    np.testing.assert_array_equal(_sine(np.array([5e-324, 1e-310])), 0.0)  # subnormals flushed (module docstring)
    y = np.random.default_rng(3).uniform(0, 30, 200)
    np.testing.assert_array_equal(_sine(-y), -_sine(y))


def test_a_wrong_constant_is_caught(monkeypatch):
    """The accuracy test fails for a reduction with pi/2 rounded to float64 (the tail dropped)."""
    monkeypatch.setattr(sine_mod, "_PIO2", (math.pi / 2, 0.0, 0.0, 0.0))
    x = np.array([k * math.pi / 2 + 1e-9 for k in range(1000, 1064)])
    with float64():
        y = np.asarray(jax.jit(sine_mod.sine)(jnp.asarray(x)))
    assert _ulp_errors(x, y).max() > 1.0
