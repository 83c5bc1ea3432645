"""Tests that kill mutants of the parity tolerance (tools/mutate.py, target ``parity``): the
enclosure arithmetic of `nacverify.checks.nac_reference_parity` (``_Enc``, ``_rounded`` ... ``_cell_once``,
``parity_bounds``). Each radius is checked two ways, with values chosen by hand:

- its size, written out from the running-error rules of the module's comment (Higham ch. 2-3):
  a correctly rounded operation adds u (|v| + prop), a sum of n terms adds gamma_n = n u / (1 - n u)
  times the sum of |terms|, an elementary function adds E_FN ulps;
- soundness: a float32 evaluation of the same operation lies inside the enclosure.
"""

from __future__ import annotations

import numpy as np
import pytest

from nacverify.checks import nac_reference_parity as mc
from nacverify.checks.nac_reference_parity import E_FN, EPS32, TINY32, U32

U = 2.0**-24


def E(v, r=0.0):
    return mc._Enc(np.asarray(v, np.float64), np.broadcast_to(np.asarray(r, np.float64), np.shape(v)).copy())


def test_constants():
    assert (U32, EPS32, TINY32) == (U, 2.0**-23, 2.0**-149)
    assert E_FN == 4.5
    assert mc._gamma(1) == U / (1 - U) and mc._gamma(40) == 40 * U / (1 - 40 * U)


def test_enc_default_radius_is_zero_and_indexing_keeps_both():
    e = mc._Enc([1.5, -2.0])
    assert e.v.dtype == np.float64 and e.r.tolist() == [0.0, 0.0]
    f = mc._Enc([1.0, 2.0, 3.0], [0.1, 0.2, 0.3])[1:]
    assert f.v.tolist() == [2.0, 3.0] and f.r.tolist() == [0.2, 0.3]


def test_rounded_add_mul_div_radii_by_hand():
    a, b = E(3.0, 2.0**-20), E(-2.0, 2.0**-21)
    r = mc._rounded(np.float64(5.0), 0.5, 2.0)
    assert r.v == 5.0 and r.r == 0.5 + 2 * U * 5.5 + TINY32
    s = mc._add(a, b)
    assert s.v == 1.0 and s.r == pytest.approx(3 * 2.0**-21 + U * (1 + 3 * 2.0**-21) + TINY32, rel=1e-15)
    d = mc._add(a, b, -1.0)
    assert d.v == 5.0 and d.r == pytest.approx(3 * 2.0**-21 + U * (5 + 3 * 2.0**-21) + TINY32, rel=1e-15)
    p = mc._mul(a, b)
    prop = 3 * 2.0**-21 + 2 * 2.0**-20 + 2.0**-41
    assert p.v == -6.0 and p.r == pytest.approx(prop + U * (6 + prop) + TINY32, rel=1e-15)
    q = mc._div(a, b)
    prop = (3 * 2.0**-21 + 2 * 2.0**-20) / (2 * (2 - 2.0**-21))
    assert q.v == -1.5 and q.r == pytest.approx(prop + U * (1.5 + prop) + TINY32, rel=1e-15)
    q2 = mc._div(a, b, k=2.0)
    assert q2.r == pytest.approx(prop + 2 * U * (1.5 + prop) + TINY32, rel=1e-15)
    with pytest.raises(FloatingPointError, match="contains 0"):
        mc._div(a, E(1e-3, 1e-3))
    mc._div(a, E(1e-3, 0.999e-3))  # margin > 0: fine


def test_elementary_functions_by_hand():
    f = mc._fn(np.float64(2.0), 3.0, 0.25)
    assert f.v == 2.0 and f.r == 0.75 + E_FN * EPS32 * 2.75 + E_FN * TINY32
    f2 = mc._fn(np.float64(2.0), 3.0, 0.25, E=1.0)
    assert f2.r == 0.75 + EPS32 * 2.75 + TINY32
    x = E(0.5, 0.125)
    e = mc._exp(x)
    prop = np.exp(0.625) * 0.125
    assert e.v == np.exp(0.5) and e.r == pytest.approx(prop + E_FN * EPS32 * (np.exp(0.5) + prop) + E_FN * TINY32, rel=1e-15)
    s = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    # sigma' is largest at the point of the enclosure nearest 0: |v| - r, or 0 when the enclosure holds 0
    assert mc._sigmoid_slope_max(E(-2.0, 0.5)) == pytest.approx(s(1.5) * (1 - s(1.5)), rel=1e-15)
    assert mc._sigmoid_slope_max(E(0.3, 0.5)) == 0.25
    sg = mc._sigmoid(E(-2.0, 0.5))
    prop = s(1.5) * (1 - s(1.5)) * 0.5
    assert sg.v == pytest.approx(s(-2.0), rel=1e-15)
    assert sg.r == pytest.approx(prop + E_FN * EPS32 * (s(-2.0) + prop) + E_FN * TINY32, rel=1e-14)
    lg = mc._log1p(E(0.5, 0.25))
    prop = 0.25 / 1.25
    assert lg.v == np.log1p(0.5) and lg.r == pytest.approx(prop + E_FN * EPS32 * (np.log1p(0.5) + prop) + E_FN * TINY32, rel=1e-15)
    with pytest.raises(FloatingPointError, match="reaches -1"):
        mc._log1p(E(-0.5, 0.5))


@pytest.mark.parametrize("x", [-30.0, -3.0, -0.5, 0.0, 0.7, 4.0, 25.0])
def test_softplus_value_and_radius(x):
    sp = mc._softplus(E(x, 2.0**-22))
    assert sp.v == pytest.approx(np.log1p(np.exp(x)), rel=1e-15)
    tf = mc._log1p(mc._exp(E(x, 2.0**-22)))
    tail = mc._log1p(mc._exp(E(-abs(x), 2.0**-22)))
    jx = mc._rounded(max(x, 0.0) + tail.v, 2.0**-22 + tail.r)
    assert sp.r == max(tf.r, jx.r)
    # sound and not loose: the float32 softplus of both formulas is within it, and it is under 20 ulps + the input's spread
    x32 = np.float32(x)
    for f32 in (np.log1p(np.exp(x32)), np.maximum(x32, np.float32(0)) + np.log1p(np.exp(-np.abs(x32)))):
        assert abs(float(f32) - sp.v) <= sp.r + abs(float(x32) - x)
    assert sp.r <= 20 * EPS32 * sp.v + 2.0**-22 * (1 + 1e-6) + 20 * TINY32


def test_dot_and_affine_by_hand():
    a, b = E([1.0, -2.0, 3.0], [2.0**-20, 0, 2.0**-21]), E([4.0, 0.5, -1.0], [0, 2.0**-22, 0])
    d = mc._dot(a, b, 3)
    prop = 4 * 2.0**-20 + 2 * 2.0**-22 + 1 * 2.0**-21
    mag = (1 + 2.0**-20) * 4 + 2 * (0.5 + 2.0**-22) + (3 + 2.0**-21) * 1
    assert d.v == 4 - 1 - 3 and d.r == pytest.approx(prop + mc._gamma(3) * mag + 3 * TINY32, rel=1e-15)
    W = np.array([[1.0, -1.0], [2.0, 0.0], [0.5, 4.0]], np.float32)
    bias = np.array([0.25, -3.0])
    f = mc._affine(a, W, bias)
    assert f.v.tolist() == [1 - 4 + 1.5 + 0.25, -1 + 12 - 3]
    prop = np.array([2.0**-20 * 1 + 2.0**-21 * 0.5, 2.0**-20 * 1 + 2.0**-21 * 4])
    mag = np.array([(1 + 2.0**-20) * 1 + 2 * 2 + (3 + 2.0**-21) * 0.5 + 0.25, (1 + 2.0**-20) * 1 + (3 + 2.0**-21) * 4 + 3])
    np.testing.assert_allclose(f.r, prop + mc._gamma(4) * mag + 4 * TINY32, rtol=1e-15)


def test_heads_and_gather_move_values_and_radii_together():
    v = np.arange(2 * 3 * 4, dtype=float).reshape(2, 3, 4)  # (B, T, d) with h = 2 heads of 2
    e = mc._heads(E(v, v / 100), 2)
    assert e.v.shape == (2, 2, 3, 2)
    assert e.v[1, 1, 2].tolist() == v[1, 2, 2:].tolist() and e.v[0, 0, 1].tolist() == v[0, 1, :2].tolist()
    np.testing.assert_array_equal(e.r, e.v / 100)
    idx = np.array([[[[2, 0], [1, 1], [0, 2]]] * 2] * 2)  # (B, H, Tq, K)
    g = mc._gather(e, idx)
    assert g.v.shape == (2, 2, 3, 2, 2)
    assert g.v[1, 0, 0, 0].tolist() == e.v[1, 0, 2].tolist() and g.v[1, 0, 0, 1].tolist() == e.v[1, 0, 0].tolist()
    np.testing.assert_array_equal(g.r, g.v / 100)


def test_cell_once_by_hand():
    # u (1, 2) through the public cell's one step from zero: (u * w_in + b_in) @ (K * mask)[:, out] + bias, masked, * w_out + b_out
    w = {"input_w": np.array([2.0, -1.0]), "input_b": np.array([0.5, 0.0]),
         "input_kernel": np.array([[1.0, 3.0, -2.0], [0.5, 1.0, 4.0]], np.float32), "sensory_sparsity_mask": np.array([[1, 0, 1], [1, 1, 1]]),
         "bias": np.array([0.1, 0.2, 0.3], np.float32), "active_mask": np.array([1.0, 1.0, 0.0]),
         "output_w": np.array([3.0, 0.5]), "output_b": np.array([-1.0, 2.0])}
    out = mc._cell_once(E([[1.0, 2.0]]), w, np.array([0, 2]))
    ut = np.array([2.5, -2.0])
    pre = np.array([ut @ [1.0, 0.5] + np.float32(0.1), ut @ [-2.0, 4.0] + np.float32(0.3)]) * [1.0, 0.0]
    np.testing.assert_allclose(out.v[0], pre * [3.0, 0.5] + [-1.0, 2.0], rtol=1e-15)
    assert np.all(out.r > 0) and np.all(out.r < 1e-5)


def _golden(mode):
    from nacverify.model import golden_arrays

    with np.load(mc.find_reference_dir() / mc.REFERENCE_FILE) as z:
        archive = {k: z[k] for k in z.files}
    weights, config, _ = golden_arrays(archive, mode)
    return weights, dict(config), np.asarray(archive["input"]), np.asarray(archive[f"{mode}/topk_idx"])


def test_parity_bounds_values_follow_the_layer_formulas():
    # the enclosures' centres are the exact (float64) layer: scores q.k over a head, and logits by the
    # closed forms of the mode from the enclosures' own phi, omega, t_pseudo (Euler: the geometric sum,
    # with the config's step count and size, 5 and 0.5 when absent)
    weights, config, x, idx = _golden("euler")
    for steps, dt in ((3, 0.25), (None, None)):
        cfg = {k: v for k, v in config.items() if k not in ("euler_steps", "delta_t")}
        if steps is not None:
            cfg.update(euler_steps=steps, delta_t=dt)
        out = mc.parity_bounds(weights, cfg, x, idx, "euler")
        n, h = (steps, dt) if steps is not None else (5, 0.5)
        phi, om = out["phi"].v, out["omega"].v
        np.testing.assert_allclose(out["logits"].v, phi / om * (1 - (1 - om * h) ** n), rtol=1e-12, atol=1e-15)
    H = int(config["num_heads"])
    q, k = out["q"].v, out["k"].v
    B, T, d = q.shape
    qh, kh = q.reshape(B, T, H, -1), k.reshape(B, T, H, -1)
    np.testing.assert_allclose(out["scores"].v, np.einsum("bqhd,bkhd->bhqk", qh, kh), rtol=1e-13, atol=1e-15)
    weights, config, x, idx = _golden("exact")
    ex = mc.parity_bounds(weights, config, x, idx, "exact")
    phi, om, tp = ex["phi"].v, ex["omega"].v, ex["t_pseudo"].v
    np.testing.assert_allclose(ex["logits"].v, phi / om * -np.expm1(-om * tp), rtol=1e-12, atol=1e-15)
    # the logits' radius carries the exponential's: at least the spread of e^(-omega t) over omega t's enclosure
    wt = mc._mul(ex["omega"], ex["t_pseudo"])
    spread = np.exp(-wt.v + wt.r) - np.exp(-wt.v)
    assert np.all(ex["logits"].r >= (phi / om) * spread * (1 - 1e-9))


def test_pair_inputs_carry_q_and_k_radii_into_t_pseudo():
    """u = [q_i ; k_j] keeps the radii of q and k: t_pseudo's radius is that of sigma(z), z = za * 1 + zb with
    za, zb affine in u (the rules checked by hand above), composed here from out["q"], out["k"] and the pairs.
    Dropping u's radius (an exact u) gives a smaller t_pseudo radius, which this catches."""
    weights, config, x, idx = _golden("steady")
    out = mc.parity_bounds(weights, config, x, idx, "steady")
    H = int(config["num_heads"])
    B, T, d = out["q"].v.shape
    heads = lambda a: np.moveaxis(a.reshape(B, T, H, d // H), 2, 1)  # noqa: E731  (B, H, T, depth)
    qv, qr, kv, kr = heads(out["q"].v), heads(out["q"].r), heads(out["k"].v), heads(out["k"].r)
    b, h, t = np.meshgrid(np.arange(B), np.arange(H), np.arange(T), indexing="ij")
    kgv, kgr = kv[b[..., None], h[..., None], idx], kr[b[..., None], h[..., None], idx]  # (B, H, T, K, depth)
    K = idx.shape[-1]
    qbv, qbr = np.repeat(qv[:, :, :, None, :], K, 3), np.repeat(qr[:, :, :, None, :], K, 3)
    u = mc._Enc(np.concatenate([qbv, kgv], -1), np.concatenate([qbr, kgr], -1))
    assert np.all(u.r > 0)
    w = {k.split("/", 1)[1]: np.asarray(v) for k, v in weights.items() if k.startswith("time_a/")}
    wb = {k.split("/", 1)[1]: np.asarray(v) for k, v in weights.items() if k.startswith("time_b/")}
    za = mc._affine(u, w["kernel"], w["bias"].astype(np.float64))[..., 0]
    zb = mc._affine(u, wb["kernel"], wb["bias"].astype(np.float64))[..., 0]
    tp = mc._sigmoid(mc._add(mc._mul(za, mc._Enc(np.ones_like(za.v))), zb))
    np.testing.assert_allclose(out["t_pseudo"].v, tp.v, rtol=1e-15)
    np.testing.assert_allclose(out["t_pseudo"].r, tp.r, rtol=1e-12)
    exact_u = mc._Enc(u.v)
    za0 = mc._affine(exact_u, w["kernel"], w["bias"].astype(np.float64))[..., 0]
    assert np.all(za0.r < za.r)


def test_softmax_total_is_charged_gamma_of_the_pairs_per_query():
    """The softmax denominator sums the K pairs of one query (the last axis): its radius is the sum of the
    terms' radii plus gamma_K times the sum of |e| + r, K = top-k (8 here), not the T = 24 queries."""
    weights, config, x, idx = _golden("steady")
    out = mc.parity_bounds(weights, config, x, idx, "steady")
    a = out["logits"]
    K = idx.shape[-1]
    assert a.v.shape[-1] == K == 8 and a.v.shape[-2] == 24
    m = mc._Enc(np.max(a.v, -1, keepdims=True), np.max(a.r, -1, keepdims=True))
    ex = mc._exp(mc._add(a, m, -1.0))
    gamma_k = K * U / (1 - K * U)
    total = mc._Enc(ex.v.sum(-1, keepdims=True), ex.r.sum(-1, keepdims=True) + gamma_k * (np.abs(ex.v) + ex.r).sum(-1, keepdims=True))
    att = mc._div(ex, total, k=2.0)
    np.testing.assert_allclose(out["attention"].v, att.v, rtol=1e-15)
    np.testing.assert_allclose(out["attention"].r, att.r, rtol=1e-12)
