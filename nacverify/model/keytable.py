r"""Every per-key quantity the NAC layer reads for a selected pair, packed in one table so that
the selected keys are gathered once per query chunk (issue 45).

For a pair $(i, j)$ the layer needs, of key $j$ only: the key parts of the backbone's first affine
map and of the pseudo-time's Dense(1) maps ($f_k(k_j)$, $a_k(k_j)$, $b_k(k_j)$; `gates`), the
sample time $t_j$, the mask $m_j$ and the value $v_j$. They are concatenated along a feature axis,
$\mathrm{table}_j = [f_k \,|\, a_k \,|\, b_k \,|\, t_j \,|\, m_j \,|\, v_j]$ (B, H, T_k, F), and one
gather of the selected rows gives them all; `KeyTable.gather` splits the result back into the
same structure. Gathering copies values, so every number is the one the separate gathers gave.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from .curation import gather_keys

__all__ = ["KeyTable"]


class KeyTable(NamedTuple):
    """A pytree of per-key arrays (B, H, T_k) or (B, H, T_k, F) packed as one (B, H, T_k, F_total)."""

    table: jax.Array
    treedef: Any
    widths: tuple[int | None, ...]  # each leaf's feature width; None: the leaf had no feature axis

    @classmethod
    def pack(cls, tree, lead: tuple[int, ...], dtype) -> "KeyTable":
        """Pack the leaves of `tree` (each broadcastable to `lead` (B, H, T_k) [+ (F,)]) in `dtype`."""
        leaves, treedef = jax.tree_util.tree_flatten(tree)
        cols, widths = [], []
        for leaf in leaves:
            leaf = jnp.asarray(leaf).astype(dtype)
            if leaf.ndim == len(lead):
                cols.append(jnp.broadcast_to(leaf, lead)[..., None])
                widths.append(None)
            else:
                cols.append(jnp.broadcast_to(leaf, lead + leaf.shape[-1:]))
                widths.append(int(leaf.shape[-1]))
        table = jnp.concatenate(cols, axis=-1) if cols else jnp.zeros(lead + (0,), dtype)
        return cls(table, treedef, tuple(widths))

    def gather(self, idx: jax.Array):
        """The tree at the selected keys idx (B, H, T_q, K): leaves (B, H, T_q, K) [+ (F,)]."""
        return self._split(gather_keys(self.table, idx))

    def _split(self, rows: jax.Array):
        leaves, start = [], 0
        for width in self.widths:
            if width is None:
                leaves.append(rows[..., start])
                start += 1
            else:
                leaves.append(rows[..., start : start + width])
                start += width
        return jax.tree_util.tree_unflatten(self.treedef, leaves)
