r"""Baselines timed next to NAC by `nacverify bench` (Equinox, jit-able, seeded).

* `SDPA`: scaled dot-product attention, one head with Dense q/k/v/output projections,
  $\mathrm{softmax}(QK^\top/\sqrt{d})V$.
* `MHA`: the same with H heads of width d/H.
* `LTCLayer`: an LTC RNN (seed 002 eq. 7, $f = \tanh(x\gamma_r + I\gamma + \mu)$, eq. 9a) advanced
  by the fused solver (seed 002 eq. 9) `unfolds` times per input step, from `nacverify.ltc`,
  then a Dense readout.
* `LocalityAttention` (seed 003): $\mathrm{softmax}(QK^\top/\sqrt{d_k} + \log(\rho_{ij} + \varepsilon))V$,
  with $\rho_{ij} = \rho((t_i + t_j)/2, \delta)$ and $\rho(t, \delta) = |\{e : |t_e - t| < \delta\}| / (2\delta)$,
  counted with two binary searches in the sorted timestamps.
* `SparseTopkRNN` (seed 004): a recurrent state $X \in \mathbb{R}^m$ updated only through its
  top-k coordinates, $X \leftarrow \tanh(X + X[\mathrm{args}] M[\mathrm{args}] + x_t W)$ with
  $\mathrm{args} = \mathrm{topk}(X - B, k)$; cost $O(k m)$ per step for the recurrent part.

Every layer maps x (B, T, d) to (B, d) (last step) or (B, T, d) with ``return_sequences``.
"""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp

from .cell import key_rng
from .gates import Dense

__all__ = ["SDPA", "MHA", "LTCLayer", "LocalityAttention", "SparseTopkRNN", "BASELINES"]


def _last(y, return_sequences: bool):
    return y if return_sequences else y[:, -1]


class MHA(eqx.Module):
    """Multi-head scaled dot-product self-attention (softmax(Q K^T / sqrt(d_h)) V per head)."""

    q: Dense
    k: Dense
    v: Dense
    o: Dense
    heads: int = eqx.field(static=True)
    return_sequences: bool = eqx.field(static=True)

    def __init__(self, d_model: int, heads: int, *, key, dtype=jnp.float32, return_sequences: bool = True):
        kq, kk, kv, ko = jax.random.split(key, 4)
        self.q, self.k, self.v, self.o = (Dense(d_model, d_model, key=k_, dtype=dtype) for k_ in (kq, kk, kv, ko))
        self.heads = int(heads)
        self.return_sequences = return_sequences

    def _split(self, x):
        b, t, d = x.shape
        return x.reshape(b, t, self.heads, d // self.heads).transpose(0, 2, 1, 3)

    def logits_bias(self, x, times):  # hook for LocalityAttention
        return 0.0

    def __call__(self, x, times=None):
        b, t, d = x.shape
        xq = x if self.return_sequences else x[:, -1:]
        q, k, v = self._split(self.q(xq)), self._split(self.k(x)), self._split(self.v(x))
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d // self.heads)
        s = s + self.logits_bias(x, times)
        y = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)
        y = self.o(y.transpose(0, 2, 1, 3).reshape(b, -1, d))
        return _last(y, self.return_sequences)


class SDPA(MHA):
    """Scaled dot-product attention: MHA with a single head."""

    def __init__(self, d_model: int, *, key, dtype=jnp.float32, return_sequences: bool = True):
        super().__init__(d_model, 1, key=key, dtype=dtype, return_sequences=return_sequences)


class LocalityAttention(MHA):
    """Seed 003's locality-weighted attention (module docstring); timestamps default to 0, 1, ..., T-1."""

    log_delta: jax.Array
    epsilon: float = eqx.field(static=True)

    def __init__(self, d_model: int, heads: int = 1, *, key, delta: float = 8.0, epsilon: float = 1e-6, dtype=jnp.float32, return_sequences: bool = True):
        super().__init__(d_model, heads, key=key, dtype=dtype, return_sequences=return_sequences)
        self.log_delta = jnp.asarray(math.log(delta), dtype)
        self.epsilon = float(epsilon)

    def logits_bias(self, x, times):
        b, t, _ = x.shape
        times = jnp.broadcast_to(jnp.arange(t, dtype=x.dtype) if times is None else jnp.asarray(times, x.dtype), (b, t))
        tq = times if self.return_sequences else times[:, -1:]
        delta = jnp.exp(self.log_delta)
        mid = 0.5 * (tq[:, :, None] + times[:, None, :])  # (B, Tq, Tk)
        srt = jnp.sort(times, axis=-1)
        count = jax.vmap(lambda s, m: jnp.searchsorted(s, m + delta, side="left") - jnp.searchsorted(s, m - delta, side="right"))(srt, mid)
        rho = count.astype(x.dtype) / (2 * delta)
        return jnp.log(rho + self.epsilon)[:, None]


class LTCLayer(eqx.Module):
    """LTC RNN with the fused solver (seed 002 eq. 9), `unfolds` sub-steps of dt = 1/unfolds per input."""

    cell: object
    readout: Dense
    unfolds: int = eqx.field(static=True)
    return_sequences: bool = eqx.field(static=True)

    def __init__(self, d_model: int, units: int, *, key, seed: int = 0, unfolds: int = 6, dtype=jnp.float32, return_sequences: bool = True):
        from ..ltc import convert_leaves, random_abstract_ltc

        cell = random_abstract_ltc(units, d_model, seed, activation="tanh")
        self.cell = convert_leaves(cell, lambda a: jnp.asarray(a, dtype))
        self.readout = Dense(units, d_model, key=key, dtype=dtype)
        self.unfolds = int(unfolds)
        self.return_sequences = return_sequences

    def __call__(self, x, times=None):
        b, t, _ = x.shape
        dt = 1.0 / self.unfolds
        x0 = jnp.zeros((b, self.cell.A.shape[0]), x.dtype)

        def step(state, inp):
            for _ in range(self.unfolds):
                state = self.cell.fused_step(state, inp, dt)
            return state, state

        last, states = jax.lax.scan(step, x0, jnp.moveaxis(x, 1, 0))
        if self.return_sequences:
            return self.readout(jnp.moveaxis(states, 0, 1))
        return self.readout(last)


class SparseTopkRNN(eqx.Module):
    """Seed 004's sparse recurrent update through the top-k coordinates of the state."""

    M: jax.Array  # (m, m)
    W: jax.Array  # (d, m)
    B: jax.Array  # (m,) inhibition levels
    readout: Dense
    k: int = eqx.field(static=True)
    return_sequences: bool = eqx.field(static=True)

    def __init__(self, d_model: int, units: int, k: int, *, key, dtype=jnp.float32, return_sequences: bool = True):
        km, kw, ko = jax.random.split(key, 3)
        self.M = jnp.asarray(key_rng(km).standard_normal((units, units)) / math.sqrt(k), dtype)
        self.W = jnp.asarray(key_rng(kw).standard_normal((d_model, units)) / math.sqrt(d_model), dtype)
        self.B = jnp.zeros((units,), dtype)
        self.readout = Dense(units, d_model, key=ko, dtype=dtype)
        self.k = int(k)
        self.return_sequences = return_sequences

    def __call__(self, x, times=None):
        b, t, _ = x.shape
        drive = x @ self.W  # (B, T, m): the input coordinates, all steps at once
        x0 = jnp.zeros((b, self.M.shape[0]), x.dtype)

        def step(state, d_t):
            _, args = jax.lax.top_k(state - self.B, self.k)  # (B, k)
            sel = jnp.take_along_axis(state, args, axis=-1)  # X[args]
            upd = jnp.einsum("bk,bkm->bm", sel, self.M[args])  # X[args] @ M[args]
            new = jnp.tanh(state + upd + d_t)
            return new, new

        last, states = jax.lax.scan(step, x0, jnp.moveaxis(drive, 1, 0))
        if self.return_sequences:
            return self.readout(jnp.moveaxis(states, 0, 1))
        return self.readout(last)


BASELINES = ("sdpa", "mha", "ltc", "locality", "sparse_topk")
