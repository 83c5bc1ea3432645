"""`nacverify.compute.host`: host data onto the device as jnp.asarray / jnp.zeros would, with no compiled program."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.compute.host import from_host, host_zeros
from nacverify.compute.precision import float64
from tests.jax_events import traced_names


@pytest.mark.parametrize("x64", [True, False])
def test_the_same_array_as_jnp_asarray(x64):
    rng = np.random.default_rng(0)
    cases = [(rng.normal(size=(3, 5)), None), (rng.normal(size=(3, 5)), jnp.float32), (rng.integers(0, 9, (4,)).astype(np.int8), None),
             ([[1.5, 2.0]], None), (np.arange(6, dtype=np.int64), None)]
    with jax.enable_x64(x64):
        for value, dtype in cases:
            ours, theirs = from_host(value, dtype), jnp.asarray(value, dtype)
            assert (ours.dtype, ours.shape, ours.weak_type) == (theirs.dtype, theirs.shape, theirs.weak_type)
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
        assert host_zeros((2, 3)).dtype == jnp.zeros((2, 3)).dtype
        assert host_zeros((2,), jnp.float32).dtype == jnp.float32


def test_nothing_is_compiled_and_jax_values_pass_through():
    # a shape no earlier test used: jnp.asarray compiles lax.stage for it, from_host traces nothing
    value = np.random.default_rng(1).normal(size=(7, 13, 3))
    with float64():
        _, names = traced_names(from_host, value)
        assert names == []
        _, names = traced_names(host_zeros, (11, 17, 2))
        assert names == []
        _, names = traced_names(jnp.asarray, np.zeros((5, 19, 3)))
        assert names  # what from_host avoids (jnp.asarray of a NumPy array is a traced identity)
        x = jnp.arange(3.0)
        assert from_host(x) is x  # a JAX array is passed on as jnp.asarray passes it
        assert jax.jit(lambda v: from_host(v) * 2)(x).tolist() == [0.0, 2.0, 4.0]
