"""The pruned Top-K (nacverify.model.topk) returns what jax.lax.top_k returns, bit for bit.

The reference is jax.lax.top_k itself (an independent implementation: a partial sort) and, for the
order it defines, a sort in NumPy written here; inputs with ties, signed zeros, infinities and
NaN, widths that the group count does not divide, and K from 1 to the width."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.compute.precision import float64
from nacverify.model.topk import from_order_key, order_key, top_k


def _inputs(rng, rows: int, n: int, kind: str, dtype=np.float32) -> np.ndarray:
    x = rng.standard_normal((rows, n)).astype(dtype)
    if kind == "ties":
        x = np.round(x * 2) / 2  # few distinct values: many exact ties, +0 and -0 among them
        x[:, ::5] = -0.0
    elif kind == "masked":
        x[:, rng.random(n) < 0.6] = -np.inf
    elif kind == "special":
        x[:, ::7] = np.nan
        x[:, 3::11] = np.inf
        x[:, 5::13] = -np.nan
    return x


def _bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(np.int32 if a.dtype == np.float32 else np.int64)


@pytest.mark.parametrize("n,k", [(1024, 8), (1000, 8), (37, 8), (33, 8), (8, 8), (5, 5), (300, 8), (1024, 32), (1024, 2), (1024, 1), (64, 17)])
@pytest.mark.parametrize("kind", ["gaussian", "ties", "masked", "special"])
def test_equals_lax_top_k(n, k, kind):
    x = _inputs(np.random.default_rng(n * 100 + k), 48, n, kind)
    want_v, want_i = jax.lax.top_k(x, k)
    got_v, got_i = jax.jit(lambda a: top_k(a, k))(x)
    np.testing.assert_array_equal(np.asarray(got_i), np.asarray(want_i))
    np.testing.assert_array_equal(_bits(got_v), _bits(want_v))


def test_order_matches_a_numpy_sort_by_total_order_then_index():
    """The order itself, independently of XLA: sort by (-key, index) where key is the IEEE total order."""
    rng = np.random.default_rng(3)
    x = _inputs(rng, 16, 200, "ties")
    bits = x.view(np.int32).astype(np.int64)
    key = np.where(bits < 0, bits ^ 0x7FFFFFFF, bits)
    want = np.stack([np.lexsort((np.arange(200), -key[r]))[:8] for r in range(16)])
    np.testing.assert_array_equal(np.asarray(top_k(jnp.asarray(x), 8)[1]), want)


def test_keys_are_the_total_order_and_invertible():
    x = np.array([-np.inf, -2.0, -1e-38, -0.0, 0.0, 1e-45, 3.0, np.inf], np.float32)
    key = np.asarray(order_key(jnp.asarray(x)))
    assert np.all(np.diff(key) > 0)
    np.testing.assert_array_equal(_bits(from_order_key(jnp.asarray(key), jnp.float32)), _bits(x))


def test_float64_batched_leading_axes():
    with float64():
        x = _inputs(np.random.default_rng(5), 6, 513, "ties", np.float64).reshape(2, 3, 513)
        want_v, want_i = jax.lax.top_k(x, 8)
        got_v, got_i = top_k(jnp.asarray(x), 8)
        assert got_v.dtype == jnp.float64
        np.testing.assert_array_equal(np.asarray(got_i), np.asarray(want_i))
        np.testing.assert_array_equal(_bits(got_v), _bits(want_v))


def test_refuses_k_outside_the_width():
    with pytest.raises(ValueError):
        top_k(jnp.zeros((2, 4)), 5)
    with pytest.raises(ValueError):
        top_k(jnp.zeros((2, 4)), 0)
