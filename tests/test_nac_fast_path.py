"""The all-queries NAC path (pruned Top-K, one gather of the key table per chunk, per-token parts
added per pair, query chunks) equals the layer written out pair by pair (issue 45).

The reference here is independent of that path: q, k, v from `NAC.project`; scores and Top-K by a
NumPy sort on (score descending, index ascending); each selected pair's u = [q_i; k_j]
concatenated; the gates by iterating Algorithm 1 on full matrices (`NAC.gates_literal`), the
pseudo-time by the Dense layers on u (`PseudoTime.literal`), the closed form, softmax, value sum
and output projection in NumPy; float64, small shapes, every query."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.compute.precision import float64
from nacverify.model import NAC


def _logits(phi, omega, t, cfg) -> np.ndarray:
    if cfg.mode == "steady":
        return phi / omega
    if cfg.mode == "exact":
        return phi / omega * (1.0 - np.exp(-omega * t))
    a = np.zeros_like(phi)
    for _ in range(cfg.euler_steps):
        a = a + cfg.delta_t * (-omega * a + phi)
    return a


def layer_by_pairs(model: NAC, x: np.ndarray, times: np.ndarray | None, mask: np.ndarray | None) -> np.ndarray:
    """(B, T, d_model) outputs of every query, pair by pair (module docstring)."""
    cfg = model.config
    b, t, d = x.shape
    H, D = cfg.num_heads, cfg.depth
    q, k, v = (np.asarray(a).reshape(b, t, H, D) for a in model.project(jnp.asarray(x)))
    reference = cfg.backbone == "reference"
    k_eff = t if cfg.curation == "pairwise" else min(cfg.topk, t)
    sel = np.zeros((b, H, t, k_eff), int)
    for bi in range(b):
        for h in range(H):
            for i in range(t):
                scores = k[bi, :, h] @ q[bi, i, h]
                if mask is not None and not reference:
                    scores = np.where(mask[bi] > 0, scores, -np.inf)
                order = np.lexsort((np.arange(t), -scores))  # score descending, then the lower index
                sel[bi, h, i] = np.arange(t) if cfg.curation == "pairwise" else order[:k_eff]
    qi = np.broadcast_to(q.transpose(0, 2, 1, 3)[:, :, :, None, :], (b, H, t, k_eff, D))
    kj = np.take_along_axis(k.transpose(0, 2, 1, 3)[:, :, None, :, :], sel[..., None], axis=3)
    u = np.concatenate([qi, kj], axis=-1)
    phi, omega = (np.asarray(a) for a in model.gates_literal(jnp.asarray(u)))
    t_sample = 1.0 if times is None else times[:, None, None, :][np.arange(b)[:, None, None, None], 0, 0, sel]
    t_pseudo = np.asarray(model.time.literal(jnp.asarray(u), t_sample))
    a = _logits(phi, omega, t_pseudo, cfg)
    valid = np.ones(a.shape, bool)
    if mask is not None:
        m_sel = mask[np.arange(b)[:, None, None, None], sel]
        if reference:
            a = a * m_sel
        else:
            valid = m_sel > 0
    a = np.where(valid, a, -np.inf)
    top = np.max(a, axis=-1, keepdims=True)
    e = np.where(valid, np.exp(a - np.where(np.isfinite(top), top, 0.0)), 0.0)
    alpha = e / np.maximum(e.sum(-1, keepdims=True), np.finfo(float).tiny)
    vj = np.take_along_axis(v.transpose(0, 2, 1, 3)[:, :, None, :, :], sel[..., None], axis=3)
    heads = np.einsum("bhqk,bhqkd->bhqd", alpha, vj) * cfg.dt
    out = heads.transpose(0, 2, 1, 3).reshape(b, t, d)
    return out @ np.asarray(model.out_proj.weight) + np.asarray(model.out_proj.bias)


CASES = [
    dict(backbone="circuit"),
    dict(backbone="circuit", mode="euler", head="split"),
    dict(backbone="circuit", activation="tanh", mode="steady"),
    dict(backbone="fc", topk=2),
    dict(backbone="reference"),
    dict(backbone="circuit", curation="pairwise"),
    dict(backbone="circuit", topk=40),  # K > T: every key
]


@pytest.mark.parametrize("options", CASES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("inputs", ["plain", "times+mask"])
def test_fast_path_equals_the_layer_pair_by_pair(options, inputs):
    rng = np.random.default_rng(7)
    with float64():
        model = NAC(16, 2, key=jax.random.PRNGKey(3), dtype=jnp.float64, return_sequences=True, query_chunk=3, **options)
        x = rng.standard_normal((2, 37, 16))
        x[:, 5] = x[:, 9]  # two equal tokens: tied scores
        times = mask = None
        if inputs == "times+mask":
            times = rng.uniform(0.1, 3.0, (2, 37))
            mask = (rng.random((2, 37)) > 0.3).astype(np.float64)
        got = np.asarray(model(jnp.asarray(x), times=None if times is None else jnp.asarray(times), mask=None if mask is None else jnp.asarray(mask)))
        want = layer_by_pairs(model, x, times, mask)
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-12)


def test_topk_methods_select_the_same_keys():
    """``topk_method="lax"`` (jax.lax.top_k, what the cost claims count) and the default pruned Top-K pick the same keys."""
    model = NAC(16, 2, key=jax.random.PRNGKey(0), return_sequences=True, return_attention=True)
    x = jax.random.normal(jax.random.PRNGKey(1), (2, 150, 16))
    out_p, att_p = model(x)
    out_l, att_l = model.with_options(topk_method="lax")(x)
    np.testing.assert_array_equal(np.asarray(att_p.indices), np.asarray(att_l.indices))
    np.testing.assert_allclose(np.asarray(out_p), np.asarray(out_l), rtol=1e-6, atol=1e-6)


def test_unknown_topk_method_is_bad_input():
    from nacverify.errors import BadInput

    with pytest.raises(BadInput):
        NAC(16, 2, key=jax.random.PRNGKey(0), topk_method="heap")
