r"""Exact Top-K along the last axis by group pruning: the same values and indices as
``jax.lax.top_k``, computed with vectorised maxima and comparisons instead of a sort.

Why: on a CPU, ``jax.lax.top_k`` is one library call per row (a partial sort on one thread,
about 3 us per row of 1024 scores); the all-queries NAC layer selects among $B H T_q$ rows,
and the selection took most of its time (issue 45). Here every step is an elementwise
operation, a reduction or a small gather over all rows at once, which XLA vectorises and
spreads over the cores.

**Order.** ``jax.lax.top_k`` orders by XLA's total order on floats (``-NaN < -inf < ... < -0 <
+0 < ... < +inf < +NaN``), ties (equal bits) by the lower index first. The same order is an
integer order on the keys $\kappa(s)$: the float's bits read as an integer (int32, int64 for float64), with the magnitude bits
flipped for negative numbers (`order_key`; $\kappa$ is strictly increasing in the total order,
and invertible, `from_order_key`). So ranking by $(\kappa(s_j)$ descending, $j$ ascending$)$ is
ranking as ``top_k`` does.

**Pruning.** Split $n$ entries (in ascending index order) into $G$ contiguous groups and let
$m_g = \max_{j \in g} \kappa(s_j)$. Rank the groups by $(m_g$ descending, $g$ ascending$)$.
*Every one of the top $K$ entries lies in one of the top $K$ groups.* Proof: let $x$ (at index
$i$, in group $a$) be among the top $K$ and suppose $a$ is not among the top $K$ groups. Then
$K$ groups $b$ rank above $a$: $m_b > m_a$, or $m_b = m_a$ and $b < a$. Let $y_b$ be the
first entry of $b$ attaining $m_b$. If $m_b > m_a$ then $\kappa(y_b) > m_a \ge \kappa(x)$; if
$m_b = m_a > \kappa(x)$, likewise; if $m_b = m_a = \kappa(x)$ then $y_b$ equals $x$ and has a
lower index (group $b$ lies before group $a$). Either way each $y_b$ ranks above $x$, and the
$y_b$ are $K$ distinct entries: $x$ is not among the top $K$, a contradiction.

So the top $K$ groups' entries, concatenated in ascending group order (which keeps ascending
index order), contain the answer; they are pruned again the same way until at most
$\max(2K, 32)$ candidates are left, which are ranked directly:
$r_i = \#\{j : \kappa_j > \kappa_i \text{ or } (\kappa_j = \kappa_i \text{ and } j < i)\}$, and the
entry of rank $p$ is output $p$. For $n = 1024$, $K = 8$: groups of 32 -> 256 candidates ->
groups of 8 -> 64 -> groups of 2 -> 16 ranked. Padding (when $G$ does not divide $n$) takes
the smallest key and the highest indices, so it is never chosen while $n \ge K$ real entries
exist. `tests/test_topk.py` checks the indices and the values' bits against ``jax.lax.top_k``
(ties, signed zeros, infinities, NaN).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["top_k", "order_key", "from_order_key", "GROUPS"]

#: Groups per pruning step (at least 2K): a step ranks them by G^2 comparisons per row.
GROUPS = 32


_INT_OF = {np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}


def order_key(x: jax.Array) -> jax.Array:
    """Integer keys (int32 for float32, int64 for float64) in XLA's total order of the values x
    (strictly increasing, invertible: `from_order_key`)."""
    itype = _INT_OF[np.dtype(x.dtype)]
    bits = jax.lax.bitcast_convert_type(x, itype)
    return jnp.where(bits < 0, bits ^ np.array(np.iinfo(itype).max, itype), bits)


def from_order_key(key: jax.Array, dtype) -> jax.Array:
    """The values (of float `dtype`) of `order_key`'s keys."""
    flipped = jnp.where(key < 0, key ^ np.array(np.iinfo(key.dtype).max, key.dtype), key)
    return jax.lax.bitcast_convert_type(flipped, dtype)


def _ranks(key: jax.Array) -> jax.Array:
    """r_i = #{j : key_j > key_i or (key_j = key_i and j < i)} over the last axis (0 = first)."""
    w = key.shape[-1]
    lower = np.arange(w)[None, :] < np.arange(w)[:, None]  # [i, j]: j < i
    ahead = (key[..., None, :] > key[..., :, None]) | ((key[..., None, :] == key[..., :, None]) & lower)
    return jnp.sum(ahead, axis=-1, dtype=jnp.int32)


def _chosen_ascending(chosen: jax.Array, k: int) -> jax.Array:
    """The positions (..., k) of the True entries of `chosen` (..., w), exactly k per row, ascending."""
    w = chosen.shape[-1]
    lower = np.arange(w)[None, :] < np.arange(w)[:, None]
    before = jnp.sum(chosen[..., None, :] & lower, axis=-1, dtype=jnp.int32)  # chosen entries before i
    slot = chosen[..., :, None] & (before[..., :, None] == np.arange(k, dtype=np.int32))  # (..., w, k)
    return jnp.sum(jnp.where(slot, np.arange(w, dtype=np.int32)[:, None], 0), axis=-2)


def _prune(key: jax.Array, index: jax.Array | None, k: int, groups: int):
    """One pruning step (module docstring): the entries of the top k of `groups` contiguous groups,
    in ascending order, with their original indices (None: the position is the index)."""
    lead, n = key.shape[:-1], key.shape[-1]
    size = -(-n // groups)
    pad = groups * size - n
    if pad:
        key = jnp.pad(key, [(0, 0)] * len(lead) + [(0, pad)], constant_values=np.iinfo(key.dtype).min)
        if index is not None:
            index = jnp.pad(index, [(0, 0)] * len(lead) + [(0, pad)], constant_values=np.iinfo(np.int32).max)
    grouped = key.reshape(lead + (groups, size))
    best = _chosen_ascending(_ranks(jnp.max(grouped, axis=-1)) < k, k)  # (..., k) group numbers, ascending
    key = jnp.take_along_axis(grouped, best[..., None], axis=-2).reshape(lead + (k * size,))
    if index is None:
        index = (best[..., None] * size + np.arange(size, dtype=np.int32)).reshape(lead + (k * size,))
    else:
        index = jnp.take_along_axis(index.reshape(lead + (groups, size)), best[..., None], axis=-2).reshape(lead + (k * size,))
    return key, index


def top_k(x: jax.Array, k: int, *, groups: int = GROUPS) -> tuple[jax.Array, jax.Array]:
    """(values, indices) of the k largest entries along the last axis of `x`, ordered as
    ``jax.lax.top_k(x, k)`` orders them (module docstring); 1 <= k <= x.shape[-1]. float32 and
    float64 take the pruned path; other dtypes ``jax.lax.top_k`` itself."""
    n = x.shape[-1]
    if not 1 <= k <= n:
        raise ValueError(f"top_k needs 1 <= k <= {n}, got {k}")
    if np.dtype(x.dtype) not in _INT_OF:
        return jax.lax.top_k(x, k)
    key, index = order_key(x), None
    groups = max(int(groups), 2 * k)
    while key.shape[-1] > groups:
        key, index = _prune(key, index, k, groups)
    if index is None:
        index = jnp.broadcast_to(np.arange(key.shape[-1], dtype=np.int32), key.shape)
    rank = _ranks(key)[..., :, None] == np.arange(k, dtype=np.int32)  # (..., w, k)
    values = from_order_key(jnp.max(jnp.where(rank, key[..., :, None], np.iinfo(key.dtype).min), axis=-2), x.dtype)
    return values, jnp.sum(jnp.where(rank, index[..., :, None], 0), axis=-2)
