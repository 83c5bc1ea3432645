r"""Gates and logits of NAC (seed 001 eq. 2, 3, 14-18; seed 000 eq. 14-17).

Every map applied to a pair $u = [q; k]$ here starts with an affine map of $u$, and an affine
map of a concatenation splits into a query part and a key part:
$A u + c = A_q q + A_k k + c$. Each part is computed once per *token* and the pair value
is a gathered sum, so the pair tensor $U$ of Algorithm 2 never has to be materialised. When
the backbone is affine as a whole (linear activation, the `FC` ablation) the gates' pre-activation
itself is such a sum; otherwise the first pre-activation is, and the remaining cell steps run per pair.

Heads (eq. 15-16): ``shared`` uses one motor output $x$ for both gates (the public
implementation); ``split`` uses two motor outputs:

$$\phi = \sigma(x_\phi), \qquad \omega_\tau = \mathrm{softplus}(x_\omega) + \varepsilon .$$

Pseudo-time: $t_{pseudo} = \sigma(t_a(u)\, t + t_b(u))$ with $t_a, t_b$ affine (Dense(1)).

Logits with $a_0 = 0$: steady $a = \phi/\omega$ (eq. 18); exact $a = \frac{\phi}{\omega}(1 - e^{-\omega t})$
(eq. 3, 17); euler: $n$ steps $a \leftarrow a + \Delta t(-\omega a + \phi)$ (eq. 2).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..errors import BadInput
from .cell import NCPCell, glorot_uniform
from .wiring import Wiring

__all__ = ["Dense", "NCPBackbone", "FCBackbone", "PseudoTime", "gates_from_outputs", "logits", "MODES", "HEADS"]

MODES = ("exact", "euler", "steady")
HEADS = ("shared", "split")


class Dense(eqx.Module):
    """Keras-style Dense layer: y = x W + b (Glorot-uniform W, zero b)."""

    weight: jax.Array
    bias: jax.Array

    def __init__(self, n_in: int, n_out: int, *, key, dtype=jnp.float32):
        self.weight = glorot_uniform(key, n_in, n_out, dtype)
        self.bias = jnp.zeros((n_out,), dtype)

    def __call__(self, x):
        return x @ self.weight + self.bias


def _columns(x: jax.Array) -> tuple[jax.Array, ...]:
    return tuple(x[..., i] for i in range(x.shape[-1]))


def _split_rows(weight: jax.Array, depth: int) -> tuple[jax.Array, jax.Array]:
    return weight[:depth], weight[depth:]


def circuit_steps(backbone_cell: NCPCell) -> int:
    """Unfold depth of the `circuit` backbone: 1 + the longest shortest path (BFS depth) from the
    input group to any active neuron it reaches, so the input has crossed the whole circuit."""
    active = set(backbone_cell.active_index)
    frontier = [i for i in backbone_cell.input_index if i in active]
    seen = set(frontier)
    depth = 0
    while frontier:
        nxt = []
        for i in frontier:
            for j in backbone_cell.successors[i]:
                if j in active and j not in seen:
                    seen.add(j)
                    nxt.append(j)
        if nxt:
            depth += 1
        frontier = nxt
    return 1 + depth


class NCPBackbone(eqx.Module):
    r"""NN_backbone of eq. 14: an NCP cell, input group inter, output group motor, sensory disabled,
    unfolded `steps` times from a zero state on the constant pair input.

    ``steps = 1`` is the public implementation (variant ``reference``): with a zero state the
    input reaches only the inter neurons, so the motor output is its bias and the gates do not
    depend on $u$. Variant ``circuit`` unfolds until the signal has crossed the wiring
    (inter -> command -> motor), so $\phi(u), \omega(u)$ are functions of $u$."""

    cell: NCPCell
    steps: int = eqx.field(static=True)
    depth: int = eqx.field(static=True)
    plan: tuple = eqx.field(static=True)

    def __init__(self, wiring: Wiring, depth: int, steps: int | None, *, key, activation: str = "linear", dtype=jnp.float32):
        """`steps=None` picks the circuit depth (`circuit_steps`)."""
        self.cell = NCPCell(wiring, ["inter"], ["motor"], ["sensory"], key=key, activation=activation, dtype=dtype)
        steps = circuit_steps(self.cell) if steps is None else int(steps)
        if steps < 1:
            raise BadInput(f"backbone steps must be >= 1, got {steps}")
        self.steps = steps
        self.depth = int(depth)
        needed, columns = self.cell.unfold_plan(self.steps)
        self.plan = (tuple(needed), columns)

    @property
    def n_out(self) -> int:
        return len(self.cell.output_index)

    @property
    def input_dependent(self) -> bool:
        """False when no input column can reach a motor neuron within `steps` (reference)."""
        return bool(self.plan[1])

    def _outputs(self, u):
        """Motor outputs for pair inputs u (..., 2D), via the pruned unfold."""
        pre = self.cell.input_projection(u, self.plan[1])
        return self.cell.unfold(pre, self.steps, self.plan)

    def token_parts(self, q: jax.Array, k: jax.Array):
        """Per-token parts (fq, fk) whose pair sums feed `pair_outputs`, and a context computed
        once from the parameters. Affine backbone: tuples of n_out arrays (..., T), one per motor
        output (no feature axis: XLA's CPU backend runs those much faster in the chunk loop);
        otherwise one array (..., T, F) of first-step pre-activations."""
        if not self.input_dependent:
            return (), (), self._outputs(jnp.zeros((2 * self.depth,), self.cell.bias.dtype))
        if self.cell.activation == "linear":
            A, c = self._affine()
            Aq, Ak = _split_rows(A, self.depth)
            return _columns(q @ Aq), _columns(k @ Ak), c
        cols = np.asarray(self.plan[1], dtype=np.int32)
        W = (self.cell.input_kernel * self.cell.input_mask)[:, cols]
        Wq, Wk = _split_rows(W, self.depth)
        w_in, b_in = self.cell.w_in, self.cell.b_in
        fq = (q * w_in[: self.depth] + b_in[: self.depth]) @ Wq
        fk = (k * w_in[self.depth :] + b_in[self.depth :]) @ Wk
        return fq, fk, None

    def _affine(self) -> tuple[jax.Array, jax.Array]:
        """(A, c) with outputs(u) = u A + c, exact for a linear activation (A by forward-mode AD).
        Inside a trace (the parameters are tracers) through `_affine_inlined`: the same equations,
        traced once per backbone structure and inlined; run eagerly, operation by operation."""
        if isinstance(self.cell.bias, jax.core.Tracer):
            return _affine_inlined(self)
        return self._affine_eqs()

    def _affine_eqs(self) -> tuple[jax.Array, jax.Array]:
        zero = jnp.zeros((2 * self.depth,), self.cell.bias.dtype)
        c = self._outputs(zero)
        A = jax.jacfwd(self._outputs)(zero).T  # (2D, n_out)
        return A, c

    def pair_outputs(self, s, ctx, shape: tuple[int, ...]) -> list[jax.Array]:
        """Motor outputs, a list of n_out arrays of the pair shape, from the pair sums s of
        `token_parts` (same structure) and its context."""
        if not self.input_dependent:
            return [jnp.broadcast_to(ctx[i], shape) for i in range(self.n_out)]
        if self.cell.activation == "linear":
            return [s[i] + ctx[i] for i in range(self.n_out)]
        y = self.cell.unfold(s, self.steps, self.plan)
        return [y[..., i] for i in range(self.n_out)]

    def outputs_literal(self, u: jax.Array) -> jax.Array:
        """The same outputs by iterating Algorithm 1 (`NCPCell.step`) on full matrices."""
        x = jnp.zeros(u.shape[:-1] + (self.cell.units,), u.dtype)
        y = None
        for _ in range(self.steps):
            y, x = self.cell.step(x, u)
        return y


class FCBackbone(eqx.Module):
    """The NAC-FC ablation (seed 000 D.2): one fully connected layer replaces the NCP gate."""

    dense: Dense
    depth: int = eqx.field(static=True)

    def __init__(self, depth: int, n_out: int, *, key, dtype=jnp.float32):
        self.dense = Dense(2 * depth, n_out, key=key, dtype=dtype)
        self.depth = int(depth)

    @property
    def n_out(self) -> int:
        return int(self.dense.bias.shape[0])

    input_dependent = True

    def token_parts(self, q, k):
        Wq, Wk = _split_rows(self.dense.weight, self.depth)
        return _columns(q @ Wq), _columns(k @ Wk), self.dense.bias

    def pair_outputs(self, s, ctx, shape):
        return [s[i] + ctx[i] for i in range(self.n_out)]

    def outputs_literal(self, u):
        return self.dense(u)


class PseudoTime(eqx.Module):
    r"""$t_{pseudo} = \sigma(t_a(u)\,t + t_b(u))$ with two Dense(1) layers on the pair u."""

    t_a: Dense
    t_b: Dense
    depth: int = eqx.field(static=True)

    def __init__(self, depth: int, *, key, dtype=jnp.float32):
        ka, kb = jax.random.split(key)
        self.t_a = Dense(2 * depth, 1, key=ka, dtype=dtype)
        self.t_b = Dense(2 * depth, 1, key=kb, dtype=dtype)
        self.depth = int(depth)

    def token_parts(self, q, k):
        """Per-token parts ((a_q, b_q), (a_k, b_k)), each (..., T): the pair's t_a(u) - bias is
        a_q[i] + a_k[j] (likewise t_b). Kept as separate arrays without a feature axis, which
        XLA's CPU backend runs much faster inside the query-chunk loop."""
        d = self.depth
        wa, wb = self.t_a.weight[:, 0], self.t_b.weight[:, 0]
        return (q @ wa[:d], q @ wb[:d]), (k @ wa[d:], k @ wb[d:])

    def from_sums(self, a: jax.Array, b: jax.Array, t_sample) -> jax.Array:
        """t_pseudo from the pair sums a, b of `token_parts` and the sample time t (broadcastable)."""
        return jax.nn.sigmoid((a + self.t_a.bias[0]) * t_sample + (b + self.t_b.bias[0]))

    def literal(self, u: jax.Array, t_sample) -> jax.Array:
        return jax.nn.sigmoid(self.t_a(u)[..., 0] * t_sample + self.t_b(u)[..., 0])


#: `NCPBackbone._affine`'s equations as a jit with inline=True: inside an enclosing trace JAX reuses the traced
#: equations for the same backbone structure and parameter shapes (one Python trace of the pruned unfold and its
#: forward-mode Jacobian per process instead of one per program) and inlines them, so the enclosing program is the same
_affine_inlined = jax.jit(lambda backbone: backbone._affine_eqs(), inline=True)


def gates_from_outputs(y, head: str, tau_epsilon: float) -> tuple[jax.Array, jax.Array]:
    """(phi, omega) from the backbone's motor outputs y (a sequence of n_out arrays, or an
    array with the outputs on its last axis) (eq. 15-16)."""
    if not isinstance(y, (list, tuple)):
        y = [y[..., i] for i in range(y.shape[-1])]
    if head == "shared":
        x_phi = x_omega = y[0]
    elif head == "split":
        x_phi, x_omega = y[0], y[1]
    else:
        raise BadInput(f"unknown head {head!r}; choose from {', '.join(HEADS)}")
    return jax.nn.sigmoid(x_phi), jax.nn.softplus(x_omega) + tau_epsilon


def logits(phi, omega, t_pseudo, mode: str, *, euler_steps: int = 5, delta_t: float = 0.5, public_form: bool = False):
    r"""Attention logits from the gates with a_0 = 0 (module docstring).

    Exact mode evaluates $1 - e^{-\omega t}$ as ``-expm1(-omega t)`` (accurate when
    $\omega t$ is small); ``public_form=True`` evaluates ``1 - exp(-omega t)`` as the public
    layer writes it (variant ``reference``), which cancels for small $\omega t$ but is the
    float32 arithmetic the public layer performs."""
    if mode == "steady":
        return phi / omega
    if mode == "exact":
        if public_form:
            return (phi / omega) * (1 - jnp.exp(-omega * t_pseudo))
        return (phi / omega) * (-jnp.expm1(-omega * t_pseudo))
    if mode == "euler":
        a = jnp.zeros(jnp.broadcast_shapes(jnp.shape(phi), jnp.shape(omega)), jnp.result_type(phi, omega))
        for _ in range(int(euler_steps)):
            a = a + delta_t * (-omega * a + phi)
        return a
    raise BadInput(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
