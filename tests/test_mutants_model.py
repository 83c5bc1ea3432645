"""Tests that kill mutants of the model's gates and logits (tools/mutate.py, target ``gates``).
Expected values are closed forms of the module docstring (nacverify/model/gates.py), not the
code's own path:

    steady a = phi / omega;  exact a = (phi / omega) (1 - e^(-omega t));
    euler: a_n = (phi / omega) (1 - (1 - omega dt)^n) from a_0 = 0 (a geometric sum);
    phi = sigmoid(x_phi), omega = softplus(x_omega) + eps.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.errors import BadInput
from nacverify.model.gates import FCBackbone, PseudoTime, gates_from_outputs, logits
from nacverify.compute.precision import float64

PHI = np.array([0.2, 0.7, 0.9])
OMEGA = np.array([0.3, 1.5, 3.0])
T = np.array([0.25, 0.5, 2.0])


def _euler_closed(phi, omega, n, dt):
    return phi / omega * (1 - (1 - omega * dt) ** n)


def test_logits_closed_forms():
    with float64():
        steady = np.asarray(logits(PHI, OMEGA, T, "steady"))
        exact = np.asarray(logits(PHI, OMEGA, T, "exact"))
        public = np.asarray(logits(PHI, OMEGA, T, "exact", public_form=True))
        euler = np.asarray(logits(PHI, OMEGA, T, "euler"))
        euler3 = np.asarray(logits(PHI, OMEGA, T, "euler", euler_steps=3, delta_t=0.1))
    np.testing.assert_allclose(steady, PHI / OMEGA, rtol=1e-15)
    ex = [p / w * (1 - math.exp(-w * t)) for p, w, t in zip(PHI, OMEGA, T)]
    np.testing.assert_allclose(exact, ex, rtol=1e-14)
    np.testing.assert_allclose(public, ex, rtol=1e-12)
    np.testing.assert_allclose(euler, _euler_closed(PHI, OMEGA, 5, 0.5), rtol=1e-13)
    np.testing.assert_allclose(euler3, _euler_closed(PHI, OMEGA, 3, 0.1), rtol=1e-13)


def test_logits_euler_broadcasts_and_keeps_dtype():
    # a per-row phi against a per-column omega: the zero start takes the broadcast shape
    with float64():
        out = logits(PHI[:, None], OMEGA[None, :], 1.0, "euler")
    assert out.shape == (3, 3) and out.dtype == np.float64
    np.testing.assert_allclose(np.asarray(out), _euler_closed(PHI[:, None], OMEGA[None, :], 5, 0.5), rtol=1e-13)
    out32 = logits(np.float32(PHI), np.float32(OMEGA), np.float32(T), "euler")
    assert out32.dtype == np.float32


def test_logits_bad_mode():
    with pytest.raises(BadInput, match="unknown mode 'nope'; choose from exact, euler, steady"):
        logits(PHI, OMEGA, T, "nope")


def test_gates_from_outputs_closed_forms():
    x0, x1 = np.array([-2.0, 0.0, 3.0]), np.array([1.0, -4.0, 0.5])
    sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    softplus = lambda x: np.log1p(np.exp(x))  # noqa: E731
    with float64():
        phi_s, om_s = gates_from_outputs(np.stack([x0, x1], -1), "shared", 1e-3)
        phi_p, om_p = gates_from_outputs([x0, x1], "split", 0.25)
    np.testing.assert_allclose(np.asarray(phi_s), sig(x0), rtol=1e-15)
    np.testing.assert_allclose(np.asarray(om_s), softplus(x0) + 1e-3, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(phi_p), sig(x0), rtol=1e-15)
    np.testing.assert_allclose(np.asarray(om_p), softplus(x1) + 0.25, rtol=1e-14)
    with pytest.raises(BadInput, match="unknown head 'both'; choose from shared, split"):
        gates_from_outputs([x0, x1], "both", 0.0)


def test_fc_backbone_and_pseudo_time_by_hand():
    # the pair value u = [q; k] through one Dense layer equals the per-token parts summed (q W_q + k W_k + b)
    with float64():
        fc = FCBackbone(2, 2, key=jax.random.PRNGKey(3), dtype=np.float64)
        pt = PseudoTime(2, key=jax.random.PRNGKey(4), dtype=np.float64)
        q, k = np.array([[0.5, -1.0]]), np.array([[2.0, 0.25]])
        u = np.concatenate([q, k], -1)
        fq, fk, ctx = fc.token_parts(q, k)
        pair = fc.pair_outputs([fq[i] + fk[i] for i in range(2)], ctx, (1,))
        W, b = np.asarray(fc.dense.weight), np.asarray(fc.dense.bias)
        assert fc.n_out == 2
        np.testing.assert_allclose(np.stack([np.asarray(p) for p in pair], -1), u @ W + b, rtol=1e-14)
        np.testing.assert_allclose(np.asarray(fc.outputs_literal(u)), u @ W + b, rtol=1e-14)
        (aq, bq), (ak, bk) = pt.token_parts(q, k)
        ta = u @ np.asarray(pt.t_a.weight)[:, 0] + float(pt.t_a.bias[0])
        tb = u @ np.asarray(pt.t_b.weight)[:, 0] + float(pt.t_b.bias[0])
        want = 1 / (1 + np.exp(-(ta * 0.7 + tb)))
        np.testing.assert_allclose(np.asarray(pt.from_sums(aq + ak, bq + bk, 0.7)), want, rtol=1e-14)
        np.testing.assert_allclose(np.asarray(pt.literal(u, 0.7)), want, rtol=1e-14)


def _ncp_backbone(activation: str, steps=None):
    from nacverify.model.gates import NCPBackbone
    from nacverify.model.wiring import auto_ncp, backbone_units

    w = auto_ncp(backbone_units(16), 2, 0.5, 2 * 4)
    return NCPBackbone(w, 4, steps, key=jax.random.PRNGKey(7), activation=activation, dtype=np.float64)


@pytest.mark.parametrize("activation", ["linear", "tanh"])
def test_ncp_backbone_pair_outputs_equal_the_literal_algorithm(activation):
    # kills: the query/key split of the first pre-activation at the wrong row (_split_rows(W, None)), and the
    # literal unfold's zero state shaped from the wrong axes of a batched input. The pair value of tokens
    # (q_i, k_j) is Algorithm 1 iterated on u = [q_i; k_j]: per-token parts summed must give it.
    with float64():
        bb = _ncp_backbone(activation)
        assert bb.input_dependent and bb.n_out == 2
        rng = np.random.default_rng(2)
        q, k = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))  # (B, T, depth)
        fq, fk, ctx = bb.token_parts(q, k)
        if activation == "linear":
            s = [a[:, :, None] + b[:, None, :] for a, b in zip(fq, fk)]
        else:
            s = fq[:, :, None, :] + fk[:, None, :, :]
        pair = np.stack([np.asarray(p) for p in bb.pair_outputs(s, ctx, (2, 3, 5))], -1)  # (B, Tq, Tk, n_out)
        u = np.concatenate([np.broadcast_to(q[:, :, None, :], (2, 3, 5, 4)), np.broadcast_to(k[:, None, :, :], (2, 3, 5, 4))], -1)
        literal = np.asarray(bb.outputs_literal(jnp.asarray(u)))  # a 4-D input: (B, Tq, Tk, 2 depth)
        assert literal.shape == (2, 3, 5, 2)
        for b in range(2):  # one pair at a time, as a 1-D input
            for i in range(3):
                np.testing.assert_allclose(np.asarray(bb.outputs_literal(jnp.asarray(u[b, i, 2]))), literal[b, i, 2], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(pair, literal, rtol=1e-10, atol=1e-12)


def test_logits_euler_zero_steps_is_the_zero_start():
    # a_0 = 0 of the broadcast shape and of the promoted dtype (phi's float64 with omega's float32);
    # kills a zero start shaped by omega alone or typed by omega alone (one step hides both)
    with float64():
        out = logits(PHI, np.float32(0.5), 1.0, "euler", euler_steps=0)
    assert out.shape == (3,) and out.dtype == np.float64 and not np.any(np.asarray(out))


def test_euler_logits_with_zero_steps_are_a_0_in_the_gates_common_type():
    """n = 0 Euler steps leave a = a_0 = 0 (the geometric sum is empty), in the type phi and omega
    promote to: float32 phi with float64 omega gives float64 zeros, as any step would."""
    from nacverify.compute.precision import float64

    with float64():
        phi = jnp.asarray([0.25, 0.5], jnp.float32)
        omega = jnp.asarray([1.0, 2.0], jnp.float64)
        a = logits(phi, omega, None, "euler", euler_steps=0)
        assert a.dtype == jnp.float64 and a.shape == (2,) and not np.any(np.asarray(a))
        one = logits(phi, omega, None, "euler", euler_steps=1, delta_t=0.5)
        assert one.dtype == jnp.float64
        np.testing.assert_allclose(np.asarray(one), 0.5 * np.asarray(phi, np.float64), rtol=0)  # a_1 = dt phi
