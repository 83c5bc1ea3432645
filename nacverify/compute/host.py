"""Host data (NumPy arrays) onto JAX's device without compiling anything.

Outside a trace, ``jnp.asarray(numpy_array)`` runs a compiled identity (``lax.stage``), and
``jnp.zeros(shape)`` a compiled broadcast: one small XLA program per shape and dtype, compiled
again in every process whose caches are cold (measured: 169 ``stage`` programs in a cold
``check --quick``, most of them in building the NAC model and the LTC draws, about 0.01 s of
compiling and 0.005 s of lowering each). `from_host` converts on the host with NumPy and hands
the buffer to ``jax.device_put``, which compiles nothing. The array is the same: the same values,
the same dtype after JAX's canonicalisation (float64 -> float32 where x64 is off, as
``jnp.asarray``), not weakly typed, uncommitted to a device.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["from_host", "host_zeros"]


def from_host(value: Any, dtype: Any = None) -> jax.Array:
    """``jnp.asarray(value, dtype)`` for a NumPy array (or nested sequence of numbers), without a
    compiled program. A JAX array or tracer goes through ``jnp.asarray`` unchanged."""
    if isinstance(value, (jax.Array, jax.core.Tracer)):
        return jnp.asarray(value, dtype)
    host = np.asarray(value, dtype=dtype)
    return jax.device_put(host.astype(jax.dtypes.canonicalize_dtype(host.dtype), copy=False))


def host_zeros(shape: Any, dtype: Any = None) -> jax.Array:
    """``jnp.zeros(shape, dtype)`` without a compiled program (JAX's default float where `dtype` is None)."""
    return from_host(np.zeros(shape, dtype=jax.dtypes.canonicalize_dtype(np.float64) if dtype is None else dtype))
