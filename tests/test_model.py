"""The JAX NAC model: the cell algebra by hand, the reference variant against an independent
NumPy re-implementation of shared/reference/REFERENCE_IMPLEMENTATION.md, shapes and dtypes of
every variant, jit, grad, chunking, curation and the gate export."""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from ncps.wirings import AutoNCP, Wiring

import nacverify  # noqa: F401  (float64)
from nacverify.errors import BadInput
from nacverify.model import NAC, NCPCell, auto_ncp, backbone_units, block_layout, block_topk, exact_topk, export_gates, from_ncps, projection_units
from nacverify.model.gates import NCPBackbone, gates_from_outputs

D, H, T, B = 8, 2, 12, 2


@pytest.fixture(scope="module")
def x():
    return jax.random.normal(jax.random.PRNGKey(3), (B, T, D), jnp.float64)


# ----------------------------------------------------------------------------- hand-worked cell


def _hand_wiring():
    """4 neurons, 2 input features: sensory synapses 0->2, 1->3; synapses 2->1, 3->1, 1->0;
    motor = {0}. By the reference rules: sensory {2, 3}, inter {1}, command {}, motor {0}."""
    w = Wiring(4)
    w.set_output_dim(1)
    w.build(2)
    w.add_sensory_synapse(0, 2, 1)
    w.add_sensory_synapse(1, 3, -1)
    w.add_synapse(2, 1, 1)
    w.add_synapse(3, 1, -1)
    w.add_synapse(1, 0, 1)
    return from_ncps(w)


def _hand_cell():
    wiring = _hand_wiring()
    cell = NCPCell(wiring, ["inter"], ["motor"], ["sensory"], key=jax.random.PRNGKey(0), dtype=jnp.float64)
    W_in = jnp.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8]])
    R = jnp.full((4, 4), 9.0).at[1, 0].set(0.5).at[2, 1].set(0.25).at[3, 1].set(-0.75)
    cell = eqx.tree_at(lambda c: (c.input_kernel, c.recurrent_kernel, c.bias, c.w_in, c.b_in, c.w_out, c.b_out), cell,
                       (W_in, R, jnp.array([0.01, 0.02, 0.03, 0.04]), jnp.array([2.0, 0.5]), jnp.array([0.1, -0.1]), jnp.array([3.0]), jnp.array([0.5])))
    return cell


def test_groups_follow_the_reference_rules():
    assert _hand_wiring().groups == {"sensory": (2, 3), "inter": (1,), "command": (), "motor": (0,)}


def test_cell_step_by_hand():
    # u~ = [1*2 + 0.1, 2*0.5 - 0.1] = [2.1, 0.9]; input mask keeps column 1 only:
    # s_1 = 2.1*0.2 + 0.9*0.6 = 0.96. Recurrent mask |A|: r_0 = x_1*0.5 = 0.5, r_1 = x_2*0.25 - x_3*0.75 = -0.5.
    # x = (r + s + b) * [1, 1, 0, 0] = [0.51, 0.48, 0, 0]; y = 0.51*3 + 0.5 = 2.03.
    cell = _hand_cell()
    y, xs = cell.step(jnp.ones(4), jnp.array([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(xs), [0.51, 0.48, 0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(np.asarray(y), [2.03], atol=1e-14)


def test_reference_backbone_gates_are_the_motor_bias():
    # One step from x = 0: the input reaches neuron 1 only, the motor gets its bias 0.01:
    # y = 0.01*3 + 0.5 = 0.53, phi = sigmoid(0.53), omega = softplus(0.53) + 1e-6, for every u.
    cell = _hand_cell()
    for u in ([1.0, 2.0], [-5.0, 7.0]):
        y, _ = cell.step(jnp.zeros(4), jnp.array(u))
        np.testing.assert_allclose(np.asarray(y), [0.53], atol=1e-14)
    pre = cell.input_projection(jnp.array([1.0, 2.0]), cell.unfold_plan(1)[1])
    np.testing.assert_allclose(np.asarray(cell.unfold(pre, 1)), [0.53], atol=1e-14)
    assert cell.unfold_plan(1)[1] == ()  # no input column can reach the motor in one step
    # sigmoid(0.53) = 1/(1 + e^-0.53) = 0.62948311197; softplus(0.53) = ln(1 + e^0.53) = 0.99285625355 (mpmath, 30 digits)
    phi, omega = gates_from_outputs(jnp.array([0.53]), "shared", 1e-6)
    assert abs(float(phi) - 0.62948311197) < 1e-10 and abs(float(omega) - (0.99285625355 + 1e-6)) < 1e-10


def test_circuit_unfold_by_hand():
    # Two steps from 0 with u = [1, 2]: x1 = [0.01, 0.96 + 0.02, 0, 0]; x2_0 = 0.98*0.5 + 0.01 = 0.50;
    # y = 0.50*3 + 0.5 = 2.0 (depends on u through neuron 1).
    cell = _hand_cell()
    plan = cell.unfold_plan(2)
    pre = cell.input_projection(jnp.array([1.0, 2.0]), plan[1])
    np.testing.assert_allclose(np.asarray(cell.unfold(pre, 2, plan)), [2.0], atol=1e-14)
    x = jnp.zeros(4)
    for _ in range(2):
        y, x = cell.step(x, jnp.array([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(y), [2.0], atol=1e-14)


# ----------------------------------------------------------------------------- reference layer vs NumPy


def _np_groups(w):
    """The reference rules, re-derived here from a built ncps wiring."""
    adj, sens = np.asarray(w.adjacency_matrix), np.asarray(w.sensory_adjacency_matrix)
    sensory = [j for j in range(w.units) if np.any(sens[:, j] != 0)]
    motor = list(range(w.output_dim))
    rest = [j for j in range(w.units) if j not in sensory and j not in motor]
    inter = [j for j in rest if not np.any(adj[rest, j] != 0)]
    command = [j for j in rest if j not in inter]
    return {"sensory": sensory, "inter": inter, "command": command, "motor": motor}, np.abs(adj)


def _np_cell_params(cell):
    return {k: np.asarray(getattr(cell, k)) for k in ("input_kernel", "recurrent_kernel", "bias", "w_in", "b_in", "w_out", "b_out")}


def _np_reference_layer(model, x, K, mode="exact", delta_t=0.5, steps=5, dt=1.0, eps=1e-6, backbone_steps=1, gates_out=None):
    """REFERENCE_IMPLEMENTATION.md in NumPy (loops, full matrices), from the model's parameters.
    `backbone_steps` unfolds the backbone cell that many times from a zero state on the constant
    pair input (1: the public layer); `gates_out` (a list) collects every pair's (phi, omega)."""
    d, h = D, H
    depth = d // h
    pw = AutoNCP(int(math.ceil((d - 0.5) / 0.6)), 0, sparsity_level=0.5, seed=22222)
    pw.build(d)
    g, rec_mask = _np_groups(pw)
    active = np.ones(pw.units)
    active[g["inter"] + g["command"] + g["motor"]] = 0
    in_mask = np.zeros((d, pw.units))
    in_mask[:, g["sensory"]] = 1

    def project(cell):
        p = _np_cell_params(cell)
        out = np.zeros((x.shape[0], x.shape[1], len(g["sensory"])))
        state = np.zeros((x.shape[0], pw.units))
        for t in range(x.shape[1]):
            ut = x[:, t] * p["w_in"] + p["b_in"]
            state = (state @ (p["recurrent_kernel"] * rec_mask) + ut @ (p["input_kernel"] * in_mask) + p["bias"]) * active
            out[:, t] = state[:, g["sensory"]] * p["w_out"] + p["b_out"]
        return out

    q, k, v = (project(c) for c in (model.q_proj, model.k_proj, model.v_proj))
    bw = AutoNCP(d + int(math.floor(d / 0.6)), 1, sparsity_level=0.5, seed=22222)
    bw.build(2 * depth)
    bg, brec = _np_groups(bw)
    b_active = np.ones(bw.units)
    b_active[bg["sensory"]] = 0
    b_in_mask = np.zeros((2 * depth, bw.units))
    b_in_mask[:, bg["inter"]] = 1
    bp = _np_cell_params(model.backbone.cell)
    ta_w, ta_b = np.asarray(model.time.t_a.weight), np.asarray(model.time.t_a.bias)
    tb_w, tb_b = np.asarray(model.time.t_b.weight), np.asarray(model.time.t_b.bias)
    out = np.zeros((x.shape[0], x.shape[1], d))
    for b in range(x.shape[0]):
        for hh in range(h):
            sl = slice(hh * depth, (hh + 1) * depth)
            qh, kh, vh = q[b, :, sl], k[b, :, sl], v[b, :, sl]
            for i in range(x.shape[1]):
                scores = kh @ qh[i]
                sel = np.argsort(-scores, kind="stable")[:K]
                u = np.concatenate([np.repeat(qh[i][None], K, 0), kh[sel]], axis=1)
                state = np.zeros((K, bw.units))
                for _ in range(backbone_steps):
                    state = (state @ (bp["recurrent_kernel"] * brec) + (u * bp["w_in"] + bp["b_in"]) @ (bp["input_kernel"] * b_in_mask) + bp["bias"]) * b_active
                y = state[:, bg["motor"]] * bp["w_out"] + bp["b_out"]
                phi = 1 / (1 + np.exp(-y[:, 0]))
                omega = np.log1p(np.exp(y[:, 0])) + eps
                if gates_out is not None:
                    gates_out.append((phi, omega))
                tp = 1 / (1 + np.exp(-((u @ ta_w + ta_b)[:, 0] * 1.0 + (u @ tb_w + tb_b)[:, 0])))
                if mode == "steady":
                    a = phi / omega
                elif mode == "exact":
                    a = phi / omega * (1 - np.exp(-omega * tp))
                else:
                    a = np.zeros(K)
                    for _ in range(steps):
                        a = a + delta_t * (-omega * a + phi)
                alpha = np.exp(a - a.max())
                alpha /= alpha.sum()
                out[b, i, sl] = (alpha[:, None] * vh[sel]).sum(0) * dt
    return out @ np.asarray(model.out_proj.weight) + np.asarray(model.out_proj.bias)


@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_reference_variant_matches_numpy_reimplementation(x, mode):
    model = NAC(D, H, key=jax.random.PRNGKey(1), dtype=jnp.float64, backbone="reference", topk=3, mode=mode, return_sequences=True)
    # non-trivial backbone bias and output affine, so the constant gates are not the default ones
    model = eqx.tree_at(lambda m: (m.backbone.cell.bias, m.backbone.cell.w_out, m.backbone.cell.b_out), model,
                        (jnp.linspace(-0.4, 0.9, model.backbone.cell.units), jnp.array([1.7]), jnp.array([-0.2])))
    ref = _np_reference_layer(model, np.asarray(x), 3, mode)
    np.testing.assert_allclose(np.asarray(model(x)), ref, rtol=1e-11, atol=1e-12)
    last = model.with_options(return_sequences=False)(x)
    np.testing.assert_allclose(np.asarray(last), ref[:, -1], rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_reference_variant_with_pair_dependent_gates_matches_numpy(x, mode):
    """The reference variant's own gates are one constant per head, so its softmax is uniform in
    euler and steady mode whatever the logit formula (4 Euler steps instead of 5, or phi*omega
    instead of phi/omega, pass the test above). Here the reference layer gets a backbone unfolded
    until the pair input reaches the motor neuron (the circuit depth): phi and omega then vary per
    pair, and the logits of eq. 2 (5 Euler steps of dt = 0.5), eq. 17 (public form 1 - e^{-omega t})
    and eq. 18 (phi/omega), re-implemented in NumPy, decide the attention."""
    model = NAC(D, H, key=jax.random.PRNGKey(1), dtype=jnp.float64, backbone="reference", topk=3, mode=mode, return_sequences=True)
    deep = NAC(D, H, key=jax.random.PRNGKey(1), dtype=jnp.float64, backbone="circuit", topk=3, mode=mode).backbone
    assert deep.input_dependent and deep.steps > 1
    np.testing.assert_array_equal(np.asarray(deep.cell.recurrent_kernel), np.asarray(model.backbone.cell.recurrent_kernel))
    deep = eqx.tree_at(lambda b: (b.cell.w_out, b.cell.b_out), deep, (jnp.array([1.7]), jnp.array([-0.2])))
    model = eqx.tree_at(lambda m: m.backbone, model, deep)
    gates = []
    ref = _np_reference_layer(model, np.asarray(x), 3, mode, backbone_steps=deep.steps, gates_out=gates)
    phis = np.concatenate([g[0] for g in gates])
    omegas = np.concatenate([g[1] for g in gates])
    assert np.ptp(phis) > 0.05 and np.ptp(omegas) > 0.05  # the gates really vary per pair
    np.testing.assert_allclose(np.asarray(model(x)), ref, rtol=1e-11, atol=1e-12)
    tr = model.trace(x)
    weights = np.asarray(tr.attention)
    assert np.max(np.abs(weights - 1 / 3)) > 0.01  # not the uniform softmax of constant gates


def test_unit_formulas_and_sensory_width():
    assert projection_units(64) == 106 and backbone_units(64) == 170
    for d in (8, 16, 64):
        w = auto_ncp(projection_units(d), 0, 0.5, d)
        assert len(w.groups["sensory"]) == d


# ----------------------------------------------------------------------------- shapes, dtypes, jit, grad


@pytest.mark.parametrize("backbone", ["reference", "circuit", "fc"])
@pytest.mark.parametrize("head", ["shared", "split"])
def test_shapes_and_dtypes_every_variant(x, backbone, head):
    for curation in ("exact", "block", "pairwise"):
        m = NAC(D, H, key=jax.random.PRNGKey(0), dtype=jnp.float64, backbone=backbone, head=head, curation=curation, topk=4)
        y = m(x)
        assert y.shape == (B, D) and y.dtype == jnp.float64
        ys, att = m.with_options(return_sequences=True, return_attention=True)(x)
        assert ys.shape == (B, T, D)
        kk = T if curation == "pairwise" else 4
        assert att.weights.shape == (B, H, T, kk)
        assert (att.indices is None) == (curation == "pairwise")
        np.testing.assert_allclose(np.asarray(att.weights.sum(-1)), 1.0, atol=1e-12)
        np.testing.assert_allclose(np.asarray(ys[:, -1]), np.asarray(y), atol=1e-12)


@pytest.mark.parametrize("mode", ["exact", "euler", "steady"])
def test_modes_float32(mode):
    """A float32 model computes the float64 model's function to float32 rounding: the same
    parameters cast to float64 give outputs within N u max|y| (u = 2^-24), N = 128 roundings.
    The longest path counts about 100: the projection cell (d + 3 = 11), the score (depth = 4),
    the circuit backbone (3 unfolds of at most 13 terms, 39), gates (softplus and sigmoid, 2 x 4.5
    ulps), logits (5 Euler steps x 3 = 15, or 4 for exact/steady), softmax (exp, K = 8 terms, a
    division: 11), the weighted sum (8) and the output projection (d + 1 = 9); every partial sum
    here is of the order of max|y| (no cancellation: the top-k indices agree, checked)."""
    x32 = jax.random.normal(jax.random.PRNGKey(0), (1, 10, D), jnp.float32)
    m = NAC(D, H, key=jax.random.PRNGKey(0), mode=mode, return_sequences=True)
    y = m(x32)
    assert y.shape == (1, 10, D) and y.dtype == jnp.float32
    to64 = lambda a: a.astype(jnp.float64) if eqx.is_array(a) and jnp.issubdtype(a.dtype, jnp.floating) else a  # noqa: E731
    m64 = jax.tree_util.tree_map(to64, m)
    x64 = x32.astype(jnp.float64)
    y64 = np.asarray(m64(x64))
    assert y64.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(m.trace(x32).indices), np.asarray(m64.trace(x64).indices))
    tol = 128 * 2.0**-24 * np.max(np.abs(y64))
    assert np.max(np.abs(np.asarray(y, np.float64) - y64)) <= tol
    np.testing.assert_allclose(np.asarray(m.with_options(return_sequences=False)(x32), np.float64), y64[:, -1], rtol=0, atol=tol)


def test_jit_and_grad(x):
    m = NAC(D, H, key=jax.random.PRNGKey(0), dtype=jnp.float64, return_sequences=True)
    y = m(x)
    yj = eqx.filter_jit(lambda mm, xx: mm(xx))(m, x)
    np.testing.assert_allclose(np.asarray(yj), np.asarray(y), atol=1e-12)
    grads = eqx.filter_jit(eqx.filter_grad(lambda mm: jnp.sum(mm(x) ** 2)))(m)
    leaves = [g for g in jax.tree_util.tree_leaves(grads) if g is not None]
    assert all(bool(jnp.all(jnp.isfinite(g))) for g in leaves)
    assert float(jnp.abs(grads.backbone.cell.input_kernel).max()) > 0  # the circuit's gates learn from u
    gx = jax.jit(jax.grad(lambda xx: jnp.sum(m(xx))))(x)
    assert gx.shape == x.shape and bool(jnp.all(jnp.isfinite(gx)))


def test_reference_backbone_input_kernel_gets_no_gradient(x):
    m = NAC(D, H, key=jax.random.PRNGKey(0), dtype=jnp.float64, backbone="reference", return_sequences=True)
    grads = eqx.filter_jit(eqx.filter_grad(lambda mm: jnp.sum(mm(x) ** 2)))(m)
    assert float(jnp.abs(grads.backbone.cell.input_kernel).max()) == 0.0


@pytest.mark.parametrize("curation", ["exact", "block", "pairwise"])
def test_chunked_equals_unchunked(curation):
    xx = jax.random.normal(jax.random.PRNGKey(5), (2, 17, D), jnp.float64)
    mask = jnp.ones((2, 17)).at[0, 3].set(0).at[1, 10:].set(0)
    m = NAC(D, H, key=jax.random.PRNGKey(2), dtype=jnp.float64, curation=curation, topk=5, return_sequences=True, return_attention=True)
    full = m.with_options(query_chunk=17)
    for chunk in (5,):  # 17 = 3 x 5 + 2: padded last chunk
        c = m.with_options(query_chunk=chunk)
        for kwargs in ({}, {"mask": mask}):
            y1, a1 = full(xx, **kwargs)
            y2, a2 = c(xx, **kwargs)
            np.testing.assert_allclose(np.asarray(y2), np.asarray(y1), atol=1e-13)
            np.testing.assert_allclose(np.asarray(a2.weights), np.asarray(a1.weights), atol=1e-13)


def test_key_mask_semantics():
    xx = jax.random.normal(jax.random.PRNGKey(6), (1, 9, D), jnp.float64)
    mask = jnp.ones((1, 9)).at[0, 2].set(0).at[0, 5].set(0)
    m = NAC(D, H, key=jax.random.PRNGKey(2), dtype=jnp.float64, topk=4, return_sequences=True)
    tr = m.trace(xx, mask=mask)
    assert not bool(jnp.any((tr.indices == 2) | (tr.indices == 5)))  # circuit: never selected
    ref = NAC(D, H, key=jax.random.PRNGKey(2), dtype=jnp.float64, topk=4, backbone="reference", return_sequences=True)
    tr_r, tr_r0 = ref.trace(xx, mask=mask), ref.trace(xx)
    masked = (tr_r.indices == 2) | (tr_r.indices == 5)
    np.testing.assert_array_equal(np.asarray(tr_r.indices), np.asarray(tr_r0.indices))  # selection ignores the mask
    np.testing.assert_allclose(np.asarray(jnp.where(masked, tr_r.logits, 0)), 0.0)  # logits multiplied by the mask
    np.testing.assert_allclose(np.asarray(jnp.where(masked, 0, tr_r.logits - tr_r0.logits)), 0.0)


def test_timestamps_enter_the_pseudo_time(x):
    m = NAC(D, H, key=jax.random.PRNGKey(0), dtype=jnp.float64, return_sequences=True)
    np.testing.assert_allclose(np.asarray(m(x, times=jnp.ones((B, T)))), np.asarray(m(x)), atol=1e-13)
    times = jnp.broadcast_to(jnp.linspace(0.0, 3.0, T), (B, T))
    tr, tr1 = m.trace(x, times=times), m.trace(x)
    # t_pseudo = sigmoid(a t + b) with the pair's key time t: recover a, b from t = 1 and t = 0
    tr0 = m.trace(x, times=jnp.zeros((B, T)))
    b_ = jnp.log(tr0.t_pseudo / (1 - tr0.t_pseudo))
    a_ = jnp.log(tr1.t_pseudo / (1 - tr1.t_pseudo)) - b_
    t_key = jnp.take(jnp.linspace(0.0, 3.0, T), tr.indices)
    np.testing.assert_allclose(np.asarray(tr.t_pseudo), np.asarray(jax.nn.sigmoid(a_ * t_key + b_)), atol=1e-12)


def test_bad_options_raise_badinput():
    with pytest.raises(BadInput):
        NAC(8, 3, key=jax.random.PRNGKey(0))
    with pytest.raises(BadInput):
        NAC(8, 2, key=jax.random.PRNGKey(0), mode="rk4")
    with pytest.raises(BadInput):
        NAC(8, 2, key=jax.random.PRNGKey(0), sparsity=0.0)  # ncps AutoNCP rejects < 0.1
    with pytest.raises(BadInput):
        NAC(8, 2, key=jax.random.PRNGKey(0))(jnp.ones((1, 4, 5)))


# ----------------------------------------------------------------------------- curation


def test_exact_topk_is_the_k_largest_scores():
    q = jax.random.normal(jax.random.PRNGKey(0), (3, 5, 4), jnp.float64)
    k = jax.random.normal(jax.random.PRNGKey(1), (3, 20, 4), jnp.float64)
    sel = exact_topk(q, k, 6)
    s = np.einsum("bqd,bkd->bqk", np.asarray(q), np.asarray(k))
    want = np.sort(np.argsort(-s, axis=-1)[..., :6], axis=-1)
    np.testing.assert_array_equal(np.sort(np.asarray(sel.indices), axis=-1), want)


def test_block_topk_follows_algorithm_2():
    # T = 30: Bs = floor(sqrt(30)) = 5, Nb = 6; K = 3 -> M = ceil(3/5) = 1 block per query.
    q = jax.random.normal(jax.random.PRNGKey(2), (1, 7, 4), jnp.float64)
    k = jax.random.normal(jax.random.PRNGKey(3), (1, 30, 4), jnp.float64)
    sel = block_topk(q, block_layout(k, 3))
    qn, kn = np.asarray(q)[0], np.asarray(k)[0]
    cent = kn.reshape(6, 5, 4).mean(1)
    for i in range(7):
        blk = int(np.argmax(cent @ qn[i]))
        cand = np.arange(blk * 5, blk * 5 + 5)
        want = cand[np.argsort(-(kn[cand] @ qn[i]))[:3]]
        assert sorted(np.asarray(sel.indices)[0, i].tolist()) == sorted(want.tolist())
    # enough blocks to cover every key: block Top-K equals exact Top-K (partial last block of 32 keys)
    k2 = jax.random.normal(jax.random.PRNGKey(4), (1, 32, 4), jnp.float64)
    full = block_topk(q, block_layout(k2, 32))
    assert bool(jnp.all(full.valid))
    ex = exact_topk(q, k2, 32)
    np.testing.assert_array_equal(np.sort(np.asarray(full.indices), -1), np.sort(np.asarray(ex.indices), -1))


# ----------------------------------------------------------------------------- export


def test_export_gates_has_the_audit_names(tmp_path, x):
    m = NAC(D, H, key=jax.random.PRNGKey(0), dtype=jnp.float64, mode="euler", topk=4)
    d = export_gates(m, x)
    assert set(d) == {"phi", "omega", "t_pseudo", "logits", "attention", "u", "valid", "mode", "delta_t", "euler_steps", "dt", "topk"}
    for name in ("phi", "omega", "t_pseudo", "logits", "attention", "valid"):
        assert d[name].shape == (B, H, T, 4)
    assert d["valid"].dtype == bool and d["valid"].all()
    assert d["u"].shape == (B, H, T, 4, 2 * (D // H))
    assert str(d["mode"]) == "euler" and float(d["delta_t"]) == 0.5 and int(d["euler_steps"]) == 5 and int(d["topk"]) == 4
    # the exported logits follow from the exported gates (eq. 2, five Euler steps)
    a = np.zeros_like(d["phi"])
    for _ in range(5):
        a = a + 0.5 * (-d["omega"] * a + d["phi"])
    np.testing.assert_allclose(d["logits"], a, atol=1e-14)
    masked = export_gates(m.with_options(mode="exact"), x, mask=jnp.ones((B, T)).at[:, 2:].set(0))
    assert (masked["valid"].sum(-1) == 2).all()  # 2 unmasked keys < topk 4: two invalid pairs per row
    assert (masked["attention"][~masked["valid"]] == 0).all()
    np.testing.assert_allclose(masked["attention"].sum(-1), 1.0, atol=1e-12)
    np.savez(tmp_path / "gates.npz", **d)
    back = np.load(tmp_path / "gates.npz")
    np.testing.assert_array_equal(back["phi"], d["phi"])
    assert str(back["mode"]) == "euler"


def test_backbone_steps_reach_the_motor():
    w = auto_ncp(backbone_units(D), 1, 0.5, D // H * 2)
    bb = NCPBackbone(w, D // H, None, key=jax.random.PRNGKey(0), dtype=jnp.float64)
    assert bb.steps >= 2 and bb.input_dependent
    ref = NCPBackbone(w, D // H, 1, key=jax.random.PRNGKey(0), dtype=jnp.float64)
    assert not ref.input_dependent


def test_sequence_with_active_recurrence_iterates_the_step():
    cell = _hand_cell()  # synapse 1 -> 0 joins two active neurons: state is carried over time
    assert not cell.pointwise
    u = jnp.array([[[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]]])
    ys = cell.sequence(u)
    # by hand: x1 = [0.01, 0.98, 0, 0]; step 2: u~ = [1.1, -0.6], s_1 = 1.1*0.2 - 0.6*0.6 = -0.14,
    # x2 = [0.98*0.5 + 0.01, -0.14 + 0.02] = [0.50, -0.12]; step 3: u~ = [6.1, -0.1], s_1 = 1.22 - 0.06 = 1.16,
    # x3 = [-0.12*0.5 + 0.01, 1.16 + 0.02] = [-0.05, 1.18]; y = 3 x_0 + 0.5
    np.testing.assert_allclose(np.asarray(ys)[0, :, 0], [0.53, 2.0, 0.35], atol=1e-14)


def test_affine_backbone_inlined_in_a_trace_is_the_same_program():
    """Inside a trace the linear backbone's (A, c) come from one cached trace, inlined (gates._affine_inlined):
    the enclosing jaxpr and the model's lowered forward are those of the equations traced in place; eagerly, the
    same values as the equations run op by op."""
    m = NAC(16, 4, key=jax.random.PRNGKey(0), dtype=jnp.float32)
    bb = m.backbone
    assert str(jax.make_jaxpr(lambda b: b._affine())(bb)) == str(jax.make_jaxpr(lambda b: b._affine_eqs())(bb))
    p, s = eqx.partition(m, eqx.is_array)
    x = jax.ShapeDtypeStruct((1, 32, 16), jnp.float32)

    def program(affine):
        original = NCPBackbone._affine
        NCPBackbone._affine = affine
        try:
            return jax.jit(lambda p_, x_: eqx.combine(p_, s)(x_)).lower(p, x).as_text(debug_info=False)
        finally:
            NCPBackbone._affine = original

    assert program(NCPBackbone._affine) == program(NCPBackbone._affine_eqs)
    for got, want in zip(bb._affine(), bb._affine_eqs()):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
