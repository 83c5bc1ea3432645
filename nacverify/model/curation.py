r"""Input curation: which keys each query is paired with (seed 001 Algorithm 2; seed 000 Algorithm 2).

* ``exact``: scores $S = Q K^\top$, $K_{eff} = \min(K, T_k)$, the top-$K_{eff}$ keys per query
  (seed 001, Algorithm 2). Quadratic in time, linear in memory when run over query chunks. The
  selection is `nacverify.model.topk.top_k`: ``jax.lax.top_k``'s values and indices, vectorised.
* ``block``: square-root partitioning (seed 000, Algorithm 2): block size $B_s = \lfloor\sqrt{T_k}\rfloor$,
  $N_b = \lceil T_k/B_s\rceil$ blocks (the last one may be partial; its centroid averages its
  real keys), coarse scores against the block centroids, the top $M = \lceil K/B_s\rceil$ blocks,
  fine scores on their keys, top-$K_{eff}$ with $K_{eff} = \min(K, M B_s)$. Cost
  $O(T_q (N_b + M B_s) D) = O(T^{1.5} D)$.
* ``pairwise`` (PW): every key; no selection.

Selections return key indices (..., Tq, K_eff) and a validity mask: a selected key is
invalid when it is padding or masked out and fewer than K_eff valid candidates existed.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import jax
import jax.numpy as jnp

from ..errors import BadInput
from .topk import top_k

__all__ = ["CURATIONS", "TOPK_METHODS", "Selection", "BlockLayout", "gather_keys", "exact_topk", "block_layout", "block_topk", "recall_at_k"]

CURATIONS = ("exact", "block", "pairwise")
TOPK_METHODS = ("pruned", "lax")
_NEG = -jnp.inf


class Selection(NamedTuple):
    indices: jax.Array  # (..., Tq, K) int32
    valid: jax.Array  # (..., Tq, K) bool


def gather_keys(x: jax.Array, idx: jax.Array) -> jax.Array:
    """x (..., Tk, *F) gathered by idx (..., Tq, K) -> (..., Tq, K, *F); the leading dims
    (those of idx before Tq) broadcast."""
    n_lead = idx.ndim - 2
    lead = jnp.broadcast_shapes(x.shape[:n_lead], idx.shape[:-2])
    x = jnp.broadcast_to(x, lead + x.shape[n_lead:])
    idx = jnp.broadcast_to(idx, lead + idx.shape[-2:])
    fn = lambda a, i: a[i]  # noqa: E731
    for _ in lead:
        fn = jax.vmap(fn)
    return fn(x, idx)


def exact_topk(q: jax.Array, k: jax.Array, topk: int, key_valid: jax.Array | None = None, method: str = "pruned") -> Selection:
    """Top-K keys per query by S = q . k (seed 001 Algorithm 2). q (..., Tq, D), k (..., Tk, D),
    key_valid (..., Tk) bool or None (invalid keys are never preferred to valid ones). ``method``:
    ``pruned`` (`nacverify.model.topk.top_k`, vectorised) or ``lax`` (``jax.lax.top_k``, one
    sort per row; XLA's cost analysis counts it as no FLOPs): the same values and indices."""
    k_eff = min(int(topk), k.shape[-2])
    scores = jnp.einsum("...qd,...kd->...qk", q, k)
    if key_valid is not None:
        scores = jnp.where(key_valid[..., None, :], scores, _NEG)
    values, idx = top_k(scores, k_eff) if method == "pruned" else jax.lax.top_k(scores, k_eff)
    valid = values > _NEG if key_valid is not None else jnp.ones(values.shape, bool)
    return Selection(idx.astype(jnp.int32), valid)


class BlockLayout(NamedTuple):
    """Keys partitioned into blocks (computed once, shared by every query chunk)."""

    blocks: jax.Array  # (..., Nb, Bs, D)
    valid: jax.Array  # (..., Nb, Bs) bool
    centroids: jax.Array  # (..., Nb, D)
    block_valid: jax.Array  # (..., Nb) bool
    block_size: int
    topk: int


def block_layout(k: jax.Array, topk: int, key_valid: jax.Array | None = None) -> BlockLayout:
    """Partition keys k (..., Tk, D) into floor(sqrt(Tk))-sized blocks with their centroids."""
    tk, d = k.shape[-2], k.shape[-1]
    bs = max(1, math.isqrt(tk))
    nb = -(-tk // bs)
    pad = nb * bs - tk
    valid = jnp.ones(k.shape[:-1], bool) if key_valid is None else jnp.broadcast_to(key_valid, k.shape[:-1])
    kp = jnp.pad(k, [(0, 0)] * (k.ndim - 2) + [(0, pad), (0, 0)])
    vp = jnp.pad(valid, [(0, 0)] * (valid.ndim - 1) + [(0, pad)])
    blocks = kp.reshape(k.shape[:-2] + (nb, bs, d))
    bvalid = vp.reshape(valid.shape[:-1] + (nb, bs))
    count = jnp.sum(bvalid, axis=-1)
    centroids = jnp.sum(blocks * bvalid[..., None], axis=-2) / jnp.maximum(count, 1)[..., None].astype(k.dtype)
    return BlockLayout(blocks, bvalid, centroids, count > 0, bs, int(topk))


def block_topk(q: jax.Array, layout: BlockLayout) -> Selection:
    """Square-root block Top-K (seed 000 Algorithm 2) for queries q (..., Tq, D)."""
    bs = layout.block_size
    nb = layout.centroids.shape[-2]
    m = min(-(-layout.topk // bs), nb)
    coarse = jnp.einsum("...qd,...bd->...qb", q, layout.centroids)
    coarse = jnp.where(layout.block_valid[..., None, :], coarse, _NEG)
    _, bidx = jax.lax.top_k(coarse, m)  # (..., Tq, M)
    cand = gather_keys(layout.blocks, bidx)  # (..., Tq, M, Bs, D)
    cvalid = gather_keys(layout.valid, bidx)  # (..., Tq, M, Bs)
    cand = cand.reshape(cand.shape[:-3] + (m * bs, cand.shape[-1]))
    cvalid = cvalid.reshape(cvalid.shape[:-2] + (m * bs,))
    fine = jnp.einsum("...qd,...qcd->...qc", q, cand)
    fine = jnp.where(cvalid, fine, _NEG)
    k_eff = min(layout.topk, m * bs)
    values, pos = jax.lax.top_k(fine, k_eff)
    block_of = jnp.take_along_axis(bidx, pos // bs, axis=-1)
    idx = block_of * bs + pos % bs
    tk_pad = nb * bs
    valid = values > _NEG
    idx = jnp.where(valid, idx, 0) if tk_pad else idx
    return Selection(idx.astype(jnp.int32), valid)


def recall_at_k(approx: jax.Array, exact: jax.Array) -> jax.Array:
    """Fraction of the exact top-K indices (..., Tq, K) that the approximate selection contains."""
    hit = jnp.any(approx[..., :, None] == exact[..., None, :], axis=-2)  # (..., Tq, K_exact)
    return jnp.mean(hit.astype(jnp.float32))


def check_curation(curation: str) -> None:
    if curation not in CURATIONS:
        raise BadInput(f"unknown curation {curation!r}; choose from {', '.join(CURATIONS)}")
