r"""The repurposed NCP cell (seed 001, Algorithm 1; seed 000, Algorithm 1).

One step, with fixed masks $M_{rec} = |A_{rec}|$, $M_{in}$ = ones in the columns of the
input group, and an activation mask that zeroes the disabled groups:

$$\tilde u_t = u_t \odot w_{in} + b_{in},\qquad
x_t = \alpha\big(x_{t-1}(W_{rec}\odot M_{rec}) + \tilde u_t (W_{in}\odot M_{in}) + b\big)\odot m_{act},$$
$$y_t = x_t[I_{out}] \odot w_{out} + b_{out}.$$

`step` is this algebra literally, on full matrices. The fast paths never compute what is
known in advance: a product with the zero initial state, neurons that cannot influence
the output within the remaining steps (backward reachability along the active
recurrent synapses), and input columns the input mask zeroes. Which neurons are needed
at which step is decided once, from the masks, when the cell is built.
"""

from __future__ import annotations

from collections.abc import Sequence

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..errors import BadInput
from ..compute.host import from_host, host_zeros
from .wiring import Wiring

__all__ = ["NCPCell", "glorot_uniform", "orthogonal", "ACTIVATIONS"]

ACTIVATIONS = {
    "linear": lambda x: x,
    "tanh": jnp.tanh,
    "sigmoid": jax.nn.sigmoid,
    "relu": jax.nn.relu,
}


def key_rng(key: jax.Array) -> np.random.Generator:
    """A NumPy generator seeded by a JAX PRNG key. Initialisers draw with NumPy so that
    building a model runs no eagerly compiled JAX op per parameter shape (seconds on a busy
    CPU); the draws are still a deterministic function of the key."""
    data = jax.random.key_data(key) if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else key
    return np.random.default_rng(np.asarray(data, dtype=np.uint32).ravel().tolist())


def glorot_uniform(key, fan_in: int, fan_out: int, dtype) -> jax.Array:
    """Keras' default kernel initializer: U(-l, l), l = sqrt(6 / (fan_in + fan_out))."""
    limit = np.sqrt(6.0 / max(fan_in + fan_out, 1))
    return from_host(key_rng(key).uniform(-limit, limit, size=(fan_in, fan_out)), dtype)


def orthogonal(key, n: int, dtype) -> jax.Array:
    """Keras' orthogonal initializer for a square matrix (QR of a Gaussian, sign-fixed)."""
    a = key_rng(key).standard_normal((n, n))
    q, r = np.linalg.qr(a)
    return from_host(q * np.sign(np.diagonal(r))[None, :], dtype)


def _ix(index: Sequence[int]) -> np.ndarray:
    """A static integer index array (JAX refuses Python lists as indices)."""
    return np.asarray(index, dtype=np.int32)


def _reach_back(rec: np.ndarray, active: np.ndarray, targets: Sequence[int], steps: int) -> list[tuple[int, ...]]:
    """needed[l] for l = 1..steps: active neurons whose state at step l can reach `targets` at the last step."""
    needed: list[tuple[int, ...]] = [tuple(t for t in targets if active[t])]
    for _ in range(steps - 1):
        nxt = needed[0]
        if nxt:
            feeds = np.nonzero(np.any(rec[:, list(nxt)] != 0, axis=1) & active)[0]
        else:
            feeds = np.zeros(0, dtype=int)
        needed.insert(0, tuple(int(i) for i in feeds))
    return needed


class NCPCell(eqx.Module):
    """NCP cell with input/recurrent masks, neuron groups and disabled groups (Algorithm 1).

    Parameters follow the public implementation: input kernel Glorot uniform, recurrent
    kernel orthogonal, bias zeros, input affine (w_in = 1, b_in = 0) per input feature,
    output affine (w_out = 1, b_out = 0) per output neuron."""

    input_kernel: jax.Array  # (n_in, units)
    recurrent_kernel: jax.Array  # (units, units)
    bias: jax.Array  # (units,)
    w_in: jax.Array  # (n_in,)
    b_in: jax.Array  # (n_in,)
    w_out: jax.Array  # (n_out,)
    b_out: jax.Array  # (n_out,)
    input_mask: jax.Array  # (n_in, units) int8, static structure
    recurrent_mask: jax.Array  # (units, units) int8
    active_mask: jax.Array  # (units,) int8
    input_index: tuple[int, ...] = eqx.field(static=True)
    output_index: tuple[int, ...] = eqx.field(static=True)
    active_index: tuple[int, ...] = eqx.field(static=True)
    activation: str = eqx.field(static=True)
    pointwise: bool = eqx.field(static=True)  # no active recurrent synapse: no state carried over time
    successors: tuple[tuple[int, ...], ...] = eqx.field(static=True)  # nonzero columns of M_rec per row

    def __init__(
        self,
        wiring: Wiring,
        input_groups: Sequence[str],
        output_groups: Sequence[str],
        disabled_groups: Sequence[str],
        *,
        key: jax.Array,
        activation: str = "linear",
        dtype=jnp.float32,
    ):
        if activation not in ACTIVATIONS:
            raise BadInput(f"unknown activation {activation!r}; choose from {', '.join(ACTIVATIONS)}")
        units, n_in = wiring.units, wiring.input_dim
        self.input_index = wiring.indices(input_groups)
        self.output_index = wiring.indices(output_groups)
        disabled = set(wiring.indices(disabled_groups))
        active = np.array([i not in disabled for i in range(units)])
        self.active_index = tuple(int(i) for i in np.nonzero(active)[0])
        in_mask = np.zeros((n_in, units), np.int8)
        in_mask[:, list(self.input_index)] = 1
        rec_mask = np.abs(wiring.adjacency).astype(np.int8)
        self.input_mask = from_host(in_mask)
        self.recurrent_mask = from_host(rec_mask)
        self.active_mask = from_host(active.astype(np.int8))
        self.activation = activation
        self.pointwise = not bool(np.any(rec_mask[np.ix_(active, active)]))
        self.successors = tuple(tuple(int(j) for j in np.nonzero(rec_mask[i])[0]) for i in range(units))
        k_in, k_rec = jax.random.split(key)
        self.input_kernel = glorot_uniform(k_in, n_in, units, dtype)
        self.recurrent_kernel = orthogonal(k_rec, units, dtype)
        self.bias = host_zeros((units,), dtype)
        self.w_in = from_host(np.ones((n_in,), dtype))
        self.b_in = host_zeros((n_in,), dtype)
        self.w_out = from_host(np.ones((len(self.output_index),), dtype))
        self.b_out = host_zeros((len(self.output_index),), dtype)

    # ------------------------------------------------------------------ literal algebra
    @property
    def units(self) -> int:
        return int(self.bias.shape[0])

    def _act(self, x):
        return ACTIVATIONS[self.activation](x)

    def step(self, x_prev: jax.Array, u: jax.Array) -> tuple[jax.Array, jax.Array]:
        """One step of Algorithm 1 on full matrices: (y_t, x_t) from x_{t-1} (..., units), u_t (..., n_in)."""
        u_t = u * self.w_in + self.b_in
        r = x_prev @ (self.recurrent_kernel * self.recurrent_mask)
        s = u_t @ (self.input_kernel * self.input_mask)
        x = self._act(r + s + self.bias) * self.active_mask
        y = x[..., _ix(self.output_index)] * self.w_out + self.b_out
        return y, x

    # ------------------------------------------------------------------ fast paths
    def sequence(self, u: jax.Array) -> jax.Array:
        """Run the cell over a sequence from a zero state: u (B, T, n_in) -> y (B, T, n_out).

        Without active recurrent synapses (the q/k/v sensory gates) every step is
        independent, so all steps run at once and only the output neurons are computed."""
        if self.pointwise:
            cols = _ix(self.output_index)
            active = self.active_mask[cols]
            w = (self.input_kernel * self.input_mask)[:, cols]
            x = self._act((u * self.w_in + self.b_in) @ w + self.bias[cols]) * active
            return x * self.w_out + self.b_out
        x0 = jnp.zeros(u.shape[:-2] + (self.units,), u.dtype)

        def body(x, u_t):
            y, x = self.step(x, u_t)
            return x, y

        _, ys = jax.lax.scan(body, x0, jnp.moveaxis(u, -2, 0))
        return jnp.moveaxis(ys, 0, -2)

    def unfold_plan(self, steps: int) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """Static plan of `unfold`: needed neurons per step and the input columns that matter."""
        rec = np.zeros((self.units, self.units), np.int8)
        for i, succ in enumerate(self.successors):
            rec[i, list(succ)] = 1
        active = np.zeros(self.units, bool)
        active[list(self.active_index)] = True
        needed = _reach_back(rec, active, self.output_index, steps)
        inputs = set(self.input_index)
        columns = tuple(sorted({i for step in needed for i in step if i in inputs}))
        return needed, columns

    def input_projection(self, u: jax.Array, columns: Sequence[int]) -> jax.Array:
        """Pre-activation input term  (u ⊙ w_in + b_in)(W_in ⊙ M_in)[:, columns]."""
        return (u * self.w_in + self.b_in) @ (self.input_kernel * self.input_mask)[:, _ix(columns)]

    def unfold(self, pre: jax.Array, steps: int, plan=None) -> jax.Array:
        """`steps` cell steps from a zero state with a constant input; returns the outputs.

        `pre` (..., len(columns)) is `input_projection(u, columns)` for the plan's columns.
        Equal to iterating `step` `steps` times from x = 0 (tested), computing only the
        neurons that can still reach an output."""
        needed, columns = plan if plan is not None else self.unfold_plan(steps)
        pos = {c: i for i, c in enumerate(columns)}
        zero = jnp.zeros(pre.shape[:-1] + (1,), pre.dtype)
        pre_z = jnp.concatenate([pre, zero], axis=-1)
        x = None
        prev: tuple[int, ...] = ()
        for cur in needed:
            idx = np.asarray([pos.get(i, len(columns)) for i in cur], dtype=np.int32)
            z = pre_z[..., idx] + self.bias[np.asarray(cur, dtype=np.int32)] if cur else pre[..., :0]
            if x is not None and prev and cur:
                w = (self.recurrent_kernel * self.recurrent_mask)[np.ix_(np.asarray(prev), np.asarray(cur))]
                z = z + x @ w
            x = self._act(z)
            prev = cur
        last = {n: i for i, n in enumerate(prev)}
        if x is None:
            x = pre[..., :0]
        outs = []
        for n in self.output_index:
            outs.append(x[..., last[n]] if n in last else jnp.zeros(pre.shape[:-1], pre.dtype))
        y = jnp.stack(outs, axis=-1) if outs else jnp.zeros(pre.shape[:-1] + (0,), pre.dtype)
        return y * self.w_out + self.b_out
