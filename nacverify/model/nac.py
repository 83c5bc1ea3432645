r"""The Neuronal Attention Circuit layer (seed 001 section 2.2, Algorithms 1-2, eq. 13-19).

Per head $h$ with $q, k, v$ from the sensory gates (eq. 13):

1. curate pairs $u = [q_i; k_j]$ for the selected keys $j \in J_i$ (exact / block Top-K, or all: PW);
2. gates $\phi(u), \omega_\tau(u)$ from the backbone (eq. 14-16), pseudo-time
   $t_{pseudo} = \sigma(t_a(u) t + t_b(u))$;
3. logits $a_{ij}$ in mode exact (eq. 17), euler (eq. 2) or steady (eq. 18); key mask;
4. $\alpha_{ij} = \mathrm{softmax}_j(a_{ij})$ and the Riemann sum $\sum_j \alpha_{ij} v_j\,\delta t$ (eq. 19);
5. heads concatenated, Dense(d_model) output projection, optional ``output_activation``, last step
   unless ``return_sequences``. (No dropout: the public default is 0.)

Efficiency: only the queries that are returned are computed (the last one unless
``return_sequences``); the per-pair affine maps are split into per-token parts (see
`gates`); the query axis is processed in chunks (``query_chunk``; by default sized from the device,
`chunking`) so that the pairwise work per chunk, and hence memory, stays bounded as T grows.
Exact Top-K is `topk.top_k` (``jax.lax.top_k``'s indices, by vectorised group pruning instead of
a per-row sort; issue 45, reports/NAC_PERFORMANCE.md). `STAGES` names the
stages of a call; ``_run(..., stop=stage)`` is the program truncated after one
(`nacverify.bench.profile`).

Backbone variants: ``reference`` (the public implementation: one cell step from a zero
state per pair), ``circuit`` (default; the signal crosses inter -> command -> motor),
``fc`` (NAC-FC ablation: Dense projections and a Dense gate). Key mask: ``reference``
multiplies the logits by the gathered mask as the public implementation does; the other
variants never select a masked key and give it zero weight.

Parity with the public layer (issue 12; ``nac.model.reference_parity`` against
shared/reference/public_tf_nac_golden.npz, weights loaded by `from_keras_weights`): in float32
the ``reference`` variant computes every tensor of the public layer within the float32 rounding
the claim derives (phi bit for bit; q, k and v bit for bit op by op on some CPUs, while on others
XLA's dot adds its terms in another order than TensorFlow's: up to a few thousand ulps on
near-zero entries, within the derived bound). Where the variant used to
differ from the public layer's arithmetic:

1. exact-mode logits: ``-expm1(-omega t)`` instead of the layer's ``1 - exp(-omega t)``; up to
   626 ulps apart where omega t is small (the layer's form cancels). ``reference`` now uses the
   layer's form (`gates.logits`, ``public_form``); the other variants keep ``expm1``.
2. pseudo-time: ``((a + b_a) t + b) + b_b`` instead of the layer's ``(a + b_a) t + (b + b_b)``
   (the Dense(1) biases added inside each Dense); now the layer's association, for every variant
   (identical in exact arithmetic).

Left as they are, within the derived tolerance (figures measured on an AVX-512 AMD EPYC; they
depend on the CPU, and every run of the claim reports its own): the pair Dense(1) sums of the
pseudo-time are split into a query part and a key part (`gates`), so their 16 terms are added in
another order than the layer's matmul (t_pseudo up to 30 ulps apart where the sum cancels);
softplus is ``jax.nn.softplus`` (``max(x, 0) + log1p(exp(-|x|))``) where TensorFlow evaluates
``log1p(exp(x))`` (omega 1 ulp apart); XLA's and Eigen's exp, softmax and matmul summation orders
differ (attention up to 4 ulps; outputs up to 22784 ulps where a sum cancels), and under
``jax.jit`` XLA reorders the projections' sums (v up to 2370 ulps, on near-zero entries whose
derived tolerance is far larger).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp

from ..errors import BadInput
from .cell import ACTIVATIONS, NCPCell
from .chunking import default_device, query_chunk
from .curation import TOPK_METHODS, BlockLayout, Selection, block_layout, block_topk, check_curation, exact_topk, gather_keys
from .gates import HEADS, MODES, Dense, FCBackbone, NCPBackbone, PseudoTime, gates_from_outputs, logits
from .wiring import DEFAULT_WIRING_SEED, auto_ncp, backbone_units, projection_units

__all__ = ["NACConfig", "NAC", "AttentionMap", "GateTrace", "BACKBONES", "STAGES"]

BACKBONES = ("reference", "circuit", "fc")


@dataclass(frozen=True)
class NACConfig:
    """Hyper-parameters; defaults are the public implementation's (shared/reference)."""

    d_model: int
    num_heads: int
    topk: int = 8
    topk_method: str = "pruned"  # exact Top-K by `topk.top_k` ("pruned") or jax.lax.top_k ("lax"): the same indices
    curation: str = "exact"
    mode: str = "exact"
    euler_steps: int = 5
    delta_t: float = 0.5
    dt: float = 1.0
    sparsity: float = 0.5
    tau_epsilon: float = 1e-6
    backbone: str = "circuit"
    head: str = "shared"
    activation: str = "linear"  # of the NCP cells (the public implementation: linear)
    output_activation: str | None = None  # after the output projection (the layer's `activation`)
    return_sequences: bool = False
    return_attention: bool = False
    query_chunk: int | None = None
    circuit_steps: int | None = None
    wiring_seed: int = DEFAULT_WIRING_SEED

    def __post_init__(self):
        if self.d_model < 1 or self.num_heads < 1 or self.d_model % self.num_heads:
            raise BadInput(f"d_model ({self.d_model}) must be a positive multiple of num_heads ({self.num_heads})")
        check_curation(self.curation)
        if self.topk_method not in TOPK_METHODS:
            raise BadInput(f"unknown topk_method {self.topk_method!r}; choose from {', '.join(TOPK_METHODS)}")
        if self.mode not in MODES:
            raise BadInput(f"unknown mode {self.mode!r}; choose from {', '.join(MODES)}")
        if self.backbone not in BACKBONES:
            raise BadInput(f"unknown backbone {self.backbone!r}; choose from {', '.join(BACKBONES)}")
        if self.head not in HEADS:
            raise BadInput(f"unknown head {self.head!r}; choose from {', '.join(HEADS)}")
        if self.curation != "pairwise" and self.topk < 1:
            raise BadInput(f"topk must be >= 1, got {self.topk}")
        if self.euler_steps < 0 or not (self.delta_t > 0) or not (self.dt > 0) or not (self.tau_epsilon > 0):
            raise BadInput("euler_steps >= 0, delta_t > 0, dt > 0 and tau_epsilon > 0 are required")
        if self.activation not in ACTIVATIONS or (self.output_activation is not None and self.output_activation not in ACTIVATIONS):
            raise BadInput(f"unknown activation; choose from {', '.join(ACTIVATIONS)}")
        if self.query_chunk is not None and self.query_chunk < 1:
            raise BadInput(f"query_chunk must be >= 1, got {self.query_chunk}")

    @property
    def depth(self) -> int:
        return self.d_model // self.num_heads

    @property
    def n_motor(self) -> int:
        return 1 if self.head == "shared" else 2


class AttentionMap(NamedTuple):
    weights: jax.Array  # (B, H, Tq, K) or (B, H, Tq, Tk) for PW
    indices: jax.Array | None  # (B, H, Tq, K) key indices; None for PW


class GateTrace(NamedTuple):
    """Every intermediate of the attention, per (batch, head, query, selected key)."""

    phi: jax.Array
    omega: jax.Array
    t_pseudo: jax.Array
    logits: jax.Array
    attention: jax.Array
    u: jax.Array  # (B, H, Tq, K, 2 depth)
    indices: jax.Array  # (B, H, Tq, K)
    valid: jax.Array  # (B, H, Tq, K) bool
    output: jax.Array  # (B, Tq, d_model)


#: The stages of a call, in order; a program truncated after one of them (``stop``) returns `_stage_probe`
#: of what that stage computed (`nacverify.bench.profile` times the truncated programs).
STAGES = ("projections", "selection", "gather", "backbone", "closed_form", "softmax", "value_sum", "output")


def _stage_probe(like: jax.Array, *trees) -> jax.Array:
    """A truncated program's output: the arrays in `trees` (leading axes B, H, c) summed per (B, H, c)
    and broadcast to `like` (B, H, c, D), so that XLA computes every one of them and little else."""
    total = jnp.zeros(like.shape[:3], like.dtype)
    for leaf in jax.tree_util.tree_leaves(trees):
        if isinstance(leaf, jax.Array):
            leaf = leaf.astype(like.dtype)
            total = total + (jnp.sum(leaf.reshape(leaf.shape[:3] + (-1,)), axis=-1) if leaf.ndim > 3 else leaf)
    return jnp.broadcast_to(total[..., None], like.shape)


def _masked_softmax(a: jax.Array, valid: jax.Array) -> jax.Array:
    a = jnp.where(valid, a, -jnp.inf)
    m = jnp.max(a, axis=-1, keepdims=True)
    m = jax.lax.stop_gradient(jnp.where(jnp.isfinite(m), m, 0.0))
    e = jnp.where(valid, jnp.exp(jnp.where(valid, a, m) - m), 0.0)
    return e / jnp.maximum(jnp.sum(e, axis=-1, keepdims=True), jnp.finfo(e.dtype).tiny)


class NAC(eqx.Module):
    """Multi-head Neuronal Attention Circuit. ``NAC(d_model, num_heads, key=key, **options)``;
    call ``model(x, times=None, mask=None)`` with x (B, T, d_model)."""

    q_proj: NCPCell | Dense
    k_proj: NCPCell | Dense
    v_proj: NCPCell | Dense
    backbone: NCPBackbone | FCBackbone
    time: PseudoTime
    out_proj: Dense
    config: NACConfig = eqx.field(static=True)

    def __init__(self, d_model: int, num_heads: int, *, key: jax.Array, dtype=jnp.float32, **options):
        cfg = options.pop("config", None) or NACConfig(d_model, num_heads, **options)
        self.config = cfg
        kq, kk, kv, kb, kt, ko = jax.random.split(key, 6)
        d, depth = cfg.d_model, cfg.depth
        if cfg.backbone == "fc":
            self.q_proj, self.k_proj, self.v_proj = (Dense(d, d, key=k_, dtype=dtype) for k_ in (kq, kk, kv))
            self.backbone = FCBackbone(depth, cfg.n_motor, key=kb, dtype=dtype)
        else:
            proj_wiring = auto_ncp(projection_units(d), 0, cfg.sparsity, d, cfg.wiring_seed)
            if len(proj_wiring.groups["sensory"]) != d:
                raise BadInput(f"projection wiring has {len(proj_wiring.groups['sensory'])} sensory neurons, expected d_model={d}")
            self.q_proj, self.k_proj, self.v_proj = (
                NCPCell(proj_wiring, ["sensory"], ["sensory"], ["inter", "command", "motor"], key=k_, activation=cfg.activation, dtype=dtype)
                for k_ in (kq, kk, kv)
            )
            bb_wiring = auto_ncp(backbone_units(d), cfg.n_motor, cfg.sparsity, 2 * depth, cfg.wiring_seed)
            steps = 1 if cfg.backbone == "reference" else cfg.circuit_steps
            self.backbone = NCPBackbone(bb_wiring, depth, steps, key=kb, activation=cfg.activation, dtype=dtype)
        self.time = PseudoTime(depth, key=kt, dtype=dtype)
        self.out_proj = Dense(d, d, key=ko, dtype=dtype)

    @classmethod
    def from_config(cls, config: NACConfig, *, key: jax.Array, dtype=jnp.float32) -> "NAC":
        return cls(config.d_model, config.num_heads, key=key, dtype=dtype, config=config)

    @classmethod
    def from_parts(cls, config: NACConfig, *, q_proj, k_proj, v_proj, backbone, time: PseudoTime, out_proj: Dense) -> "NAC":
        """A model from given sublayers (e.g. loaded weights: `nacverify.model.from_keras_weights`)."""
        new = object.__new__(cls)
        parts = dict(q_proj=q_proj, k_proj=k_proj, v_proj=v_proj, backbone=backbone, time=time, out_proj=out_proj, config=config)
        for name, value in parts.items():
            object.__setattr__(new, name, value)
        return new

    def with_options(self, **changes) -> "NAC":
        """The same parameters under inference options that do not change them
        (mode, euler_steps, delta_t, dt, curation, topk, topk_method, return_*, query_chunk)."""
        allowed = {"topk_method", "mode", "euler_steps", "delta_t", "dt", "curation", "topk", "return_sequences", "return_attention", "query_chunk", "tau_epsilon", "output_activation"}
        bad = set(changes) - allowed
        if bad:
            raise BadInput(f"options {sorted(bad)} change the parameters; build a new model instead")
        new = object.__new__(type(self))
        for f in fields(self):
            object.__setattr__(new, f.name, getattr(self, f.name))
        object.__setattr__(new, "config", replace(self.config, **changes))
        return new

    # ------------------------------------------------------------------ pieces
    def _project(self, proj, x, last_only: bool):
        if isinstance(proj, Dense):
            return proj(x[:, -1:] if last_only else x)
        if last_only:
            return proj.sequence(x[:, -1:]) if proj.pointwise else proj.sequence(x)[:, -1:]
        return proj.sequence(x)

    def _heads(self, x):
        b, t, _ = x.shape
        return x.reshape(b, t, self.config.num_heads, self.config.depth).transpose(0, 2, 1, 3)

    def _chunk(self, tq: int, tk: int, batch: int) -> int:
        """Queries per chunk: the ``query_chunk`` option, else the device's rule (`chunking`)."""
        cfg = self.config
        if cfg.query_chunk is not None:
            return min(cfg.query_chunk, tq)
        if cfg.curation == "block":
            bs = max(1, math.isqrt(tk))
            width = max(-(-tk // bs), -(-cfg.topk // bs) * bs * cfg.depth)
        else:
            width = tk
        itemsize = jnp.dtype(self.out_proj.weight.dtype).itemsize
        return query_chunk(tq, batch * cfg.num_heads * width, itemsize, default_device())

    def chunk_for(self, batch: int, T: int) -> int:
        """The query chunk a call on input (batch, T, d_model) uses (all queries with
        ``return_sequences``, else the last one)."""
        return self._chunk(T if self.config.return_sequences else 1, T, batch)

    def _select(self, qh, kh, layout, key_valid) -> Selection:
        cfg = self.config
        if cfg.curation == "block":
            return block_topk(qh, layout)
        return exact_topk(qh, kh, cfg.topk, key_valid, method=cfg.topk_method)

    def _attend(self, qc, kh, vh, fq, fk, ctx, tq_parts, tk_parts, key_valid, key_mask, key_times, layout, trace: bool, stop=None):
        """Attention for one query chunk qc (B, H, c, D); everything per key is precomputed. ``stop``: a stage
        name of `STAGES` to return `_stage_probe` after (profiling)."""
        cfg = self.config
        pairwise = cfg.curation == "pairwise"
        need_t = cfg.mode == "exact" or trace
        if pairwise:
            shape = qc.shape[:-1] + (kh.shape[-2],)
            valid = jnp.ones(shape, bool) if key_valid is None else jnp.broadcast_to(key_valid[..., None, :], shape)
            t_sample = key_times[..., None, :] if key_times is not None else 1.0
            mask_sel = key_mask[..., None, :] if key_mask is not None else None
            keys = jax.tree_util.tree_map(lambda a: a[..., None, :] if a.ndim == 3 else a[..., None, :, :], {"fk": fk, "tk": tk_parts})
            v_rows = None
        else:
            sel = self._select(qc, kh, layout, key_valid)
            idx, valid = sel.indices, sel.valid
            if stop == "selection":
                return {"out": _stage_probe(qc, idx, valid)}
            shape = idx.shape
            pick = lambda a: gather_keys(a[..., None], idx)[..., 0] if a.ndim == 3 else gather_keys(a, idx)  # noqa: E731
            keys = jax.tree_util.tree_map(pick, {"fk": fk, "tk": tk_parts})
            t_sample = pick(key_times) if key_times is not None else 1.0
            mask_sel = pick(key_mask) if key_mask is not None else None
            v_rows = gather_keys(vh, idx)
        if stop == "gather":
            return {"out": _stage_probe(qc, keys, v_rows)}
        pair = lambda a, b: (a[..., :, None] if a.ndim == 3 else a[..., :, None, :]) + b  # noqa: E731
        s = jax.tree_util.tree_map(pair, fq, keys["fk"])
        ts = jax.tree_util.tree_map(pair, tq_parts, keys["tk"]) if need_t else None
        y = self.backbone.pair_outputs(s, ctx, shape)
        phi, omega = gates_from_outputs(y, cfg.head, cfg.tau_epsilon)
        t_pseudo = self.time.from_sums(*ts, t_sample) if need_t else jnp.ones_like(phi)
        if stop == "backbone":
            return {"out": _stage_probe(qc, phi, omega, t_pseudo)}
        reference = cfg.backbone == "reference"
        a = logits(phi, omega, t_pseudo, cfg.mode, euler_steps=cfg.euler_steps, delta_t=cfg.delta_t, public_form=reference)
        if reference and mask_sel is not None:
            a = a * mask_sel.astype(a.dtype)
        if stop == "closed_form":
            return {"out": _stage_probe(qc, a, valid)}
        alpha = _masked_softmax(a, valid)
        if stop == "softmax":
            return {"out": _stage_probe(qc, alpha)}
        if pairwise:
            out = jnp.einsum("...qk,...kd->...qd", alpha, vh) * cfg.dt
        else:
            out = jnp.einsum("...qk,...qkd->...qd", alpha, v_rows) * cfg.dt
        result = {"out": out}
        if cfg.return_attention or trace:
            result["alpha"] = alpha
            if not pairwise:
                result["idx"] = idx
        if trace:
            result.update(phi=phi, omega=omega, t_pseudo=t_pseudo, logits=a, valid=valid)
            if pairwise:
                result["idx"] = jnp.broadcast_to(jnp.arange(kh.shape[-2], dtype=jnp.int32), a.shape)
        return result

    def _run(self, x, times, mask, all_queries: bool, trace: bool, stop: str | None = None):
        cfg = self.config
        x = jnp.asarray(x)
        if x.ndim != 3 or x.shape[-1] != cfg.d_model:
            raise BadInput(f"input must have shape (batch, T, {cfg.d_model}), got {x.shape}")
        dtype = self.out_proj.weight.dtype
        x = x.astype(dtype)
        b, t, _ = x.shape
        last_only = not all_queries
        qh = self._heads(self._project(self.q_proj, x, last_only))
        kh = self._heads(self._project(self.k_proj, x, False))
        vh = self._heads(self._project(self.v_proj, x, False))
        key_mask = None if mask is None else jnp.broadcast_to(jnp.asarray(mask), (b, t))[:, None, :]
        key_valid = None
        if key_mask is not None and cfg.backbone != "reference":
            key_valid = key_mask.astype(bool)
        key_times = None if times is None else jnp.broadcast_to(jnp.asarray(times, dtype), (b, t))[:, None, :]
        fq, fk, ctx = self.backbone.token_parts(qh, kh)
        tq_parts, tk_parts = self.time.token_parts(qh, kh)
        layout: BlockLayout | None = block_layout(kh, cfg.topk, key_valid) if cfg.curation == "block" else None
        tq = qh.shape[2]
        c = tq if trace else self._chunk(tq, t, b)

        if stop == "projections":
            probe = _stage_probe(qh, qh, kh, vh, fq, fk, tq_parts, tk_parts, )
            return probe.transpose(0, 2, 1, 3).reshape(b, qh.shape[2], cfg.d_model), {}, qh, kh

        def attend(args):
            qc, fqc, tqc = args
            return self._attend(qc, kh, vh, fqc, fk, ctx, tqc, tk_parts, key_valid, key_mask, key_times, layout, trace, stop)

        if c >= tq:
            res = attend((qh, fq, tq_parts))
        else:
            n = -(-tq // c)
            pad = n * c - tq

            def chunks(a):
                a = jnp.pad(a, [(0, 0), (0, 0), (0, pad)] + [(0, 0)] * (a.ndim - 3))
                return jnp.moveaxis(a.reshape(a.shape[:2] + (n, c) + a.shape[3:]), 2, 0)

            res = jax.lax.map(attend, jax.tree_util.tree_map(chunks, (qh, fq, tq_parts)))
            res = {k_: jnp.moveaxis(v_, 0, 2).reshape(v_.shape[1:3] + (n * c,) + v_.shape[4:])[:, :, :tq] for k_, v_ in res.items()}
        out = res["out"].transpose(0, 2, 1, 3).reshape(b, tq, cfg.d_model)
        if stop is not None and stop != "output":
            return out, res, qh, kh
        out = self.out_proj(out)
        if cfg.output_activation is not None:
            out = ACTIVATIONS[cfg.output_activation](out)
        return out, res, qh, kh

    # ------------------------------------------------------------------ public
    def __call__(self, x: jax.Array, times: jax.Array | None = None, mask: jax.Array | None = None):
        """x (B, T, d_model) -> (B, d_model), or (B, T, d_model) with return_sequences; with
        return_attention also an `AttentionMap`. ``times`` (B, T): sample timestamps; a pair's
        t in the pseudo-time is its key's timestamp (t = 1 without timestamps). ``mask`` (B, T):
        1 for keys that may be attended (see the module docstring for the reference rule)."""
        cfg = self.config
        out, res, _, _ = self._run(x, times, mask, cfg.return_sequences, trace=False)
        if not cfg.return_sequences:
            out = out[:, -1]
        if cfg.return_attention:
            return out, AttentionMap(res["alpha"], res.get("idx"))
        return out

    def project(self, x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        """The q, k, v projections (each (B, T, d_model), heads not yet split) of x (B, T, d_model)."""
        x = jnp.asarray(x).astype(self.out_proj.weight.dtype)
        return tuple(self._project(p, x, False) for p in (self.q_proj, self.k_proj, self.v_proj))

    def trace(self, x: jax.Array, times: jax.Array | None = None, mask: jax.Array | None = None, all_queries: bool = True) -> GateTrace:
        """All gate tensors for every query (or the last one), unchunked: for checks and export."""
        out, res, qh, kh = self._run(x, times, mask, all_queries, trace=True)
        idx = res["idx"]
        u = jnp.concatenate(
            [jnp.broadcast_to(qh[..., :, None, :], idx.shape + (qh.shape[-1],)), gather_keys(kh, idx)], axis=-1
        )
        return GateTrace(res["phi"], res["omega"], res["t_pseudo"], res["logits"], res["alpha"], u, idx, res["valid"], out)

    def gates_of_pairs(self, u: jax.Array) -> tuple[jax.Array, jax.Array]:
        """(phi, omega) of pair inputs u (..., 2 depth) through the fast path of the model."""
        depth = self.config.depth
        fq, fk, ctx = self.backbone.token_parts(u[..., :depth], u[..., depth:])
        s = jax.tree_util.tree_map(lambda a, b: a + b, fq, fk)
        y = self.backbone.pair_outputs(s, ctx, u.shape[:-1])
        return gates_from_outputs(y, self.config.head, self.config.tau_epsilon)

    def gates_literal(self, u: jax.Array) -> tuple[jax.Array, jax.Array]:
        """(phi, omega) by iterating Algorithm 1 on full matrices (no pruning, no splitting)."""
        y = self.backbone.outputs_literal(u)
        return gates_from_outputs(y, self.config.head, self.config.tau_epsilon)
