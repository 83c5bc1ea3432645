"""Export the gate tensors of a `NAC` model as a dict of NumPy arrays (the exchange format
of `nacverify audit`, issue 8): arrays ``phi``, ``omega`` (required), ``t_pseudo``, ``logits``,
``attention``, ``u`` with shape [batch, heads, queries, K] (``u`` has a trailing 2*depth axis),
``valid`` (bool, same shape: False for a masked key or the padding of a partial block, which
get weight 0 outside the softmax), and attributes ``mode``, ``delta_t``, ``euler_steps``, ``dt``,
``topk`` as 0-d arrays (reports/AUDIT_FORMAT.md).
"""

from __future__ import annotations

import numpy as np

from .nac import NAC

__all__ = ["export_gates", "ARRAY_KEYS", "ATTR_KEYS"]

ARRAY_KEYS = ("phi", "omega", "t_pseudo", "logits", "attention", "u", "valid")
ATTR_KEYS = ("mode", "delta_t", "euler_steps", "dt", "topk")


def export_gates(model: NAC, x, times=None, mask=None, *, all_queries: bool = True) -> dict[str, np.ndarray]:
    """Run `model` on x (B, T, d_model) and return its gate tensors and attributes."""
    tr = model.trace(x, times, mask, all_queries=all_queries)
    cfg = model.config
    out = {name: np.asarray(getattr(tr, name)) for name in ARRAY_KEYS}
    k_eff = int(tr.phi.shape[-1])
    out.update(
        mode=np.asarray(cfg.mode),
        delta_t=np.asarray(float(cfg.delta_t)),
        euler_steps=np.asarray(int(cfg.euler_steps)),
        dt=np.asarray(float(cfg.dt)),
        topk=np.asarray(k_eff),
    )
    return out
