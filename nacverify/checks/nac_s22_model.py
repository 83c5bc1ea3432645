r"""Section 2.2's attention (seeds 000 and 001) and "differentiable computational graphs" (000 C.3, 001 C.2) on the suite's model.

Claims ``nac.s22.softmax``, ``nac.s22.riemann``, ``nac.s22.tpseudo.per_pair``,
``nac.s22.tpseudo_range.model`` and ``nac.model.differentiable``, checked on
`nacverify.model.NAC` (float64 unless stated; small sizes): the softmax weights, the Riemann
sum's linearity in $\delta t$, the pseudo-time per pair and its range, and gradients against
central finite differences.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._nac_text import SEED000, SEED001, _inputs, _model, _run_all, _trace, _trace_all

__all__ = ["s22_model_claims"]


def _softmax_check(ctx: CheckContext) -> Outcome:
    rows, worst_sum, min_w, masked_weight_ref, masked_weight_other = [], 0.0, np.inf, 0.0, 0.0
    backbones = ("reference", "circuit", "fc")
    B, T, d = 2, 8, 4
    x = _inputs(ctx, (B, T, d))
    mask = np.ones((B, T))
    mask[:, :3] = 0.0  # three padded keys at the start
    widths = []
    dtypes = ((jnp.float32, 1e-6),) if ctx.quick else ((jnp.float32, 1e-6), (jnp.float64, 1e-12))
    curations = ("exact",) if ctx.quick else ("exact", "block")
    for dtype, tol in dtypes:
        configs = [(backbone, base.with_options(mode=mode, curation=curation), msk) for backbone in backbones
                   for base in (_model(ctx, dtype=dtype, backbone=backbone, topk=3),)
                   for mode in ("exact", "euler", "steady") for curation in curations for msk in (None, mask)]
        traces = _trace_all([m for _, m, _ in configs], x.astype(dtype), [msk for _, _, msk in configs])
        for (backbone, _, msk), tr in zip(configs, traces):
            alpha = np.asarray(tr.attention, np.float64)
            sums = alpha.sum(-1)
            err = float(np.max(np.abs(sums - 1)))
            worst_sum = max(worst_sum, err / tol)
            min_w = min(min_w, float(alpha.min()))
            widths.append(alpha.shape[-1])
            if msk is not None:
                idx = np.asarray(tr.indices)
                on_masked = np.where(np.take_along_axis(np.broadcast_to(mask[:, None, None, :], idx.shape[:-1] + (T,)), idx, -1) == 0, alpha, 0).sum(-1).max()
                if backbone == "reference":
                    masked_weight_ref = max(masked_weight_ref, float(on_masked))
                else:
                    masked_weight_other = max(masked_weight_other, float(on_masked))
            rows.append(err)
    scalars = {"max_sum_error_over_tolerance": worst_sum, "min_weight": min_w, "selected_keys_per_query": int(max(widths)),
               "keys_per_sequence": T, "max_weight_on_masked_keys_reference": masked_weight_ref, "max_weight_on_masked_keys_other": masked_weight_other}
    ev = Evidence({"sum_errors": np.array(rows)}, scalars)
    ok = worst_sum <= 1 and min_w >= 0 and max(widths) == 3 and masked_weight_other == 0
    msg = (f"weights >= 0 (min {min_w:.3g}) and summing to 1 per query and head (max |sum - 1| within tolerance: float32 1e-6, float64 1e-12; "
           f"worst {worst_sum:.2g} x tolerance) for modes exact/euler/steady, backbones reference/circuit/fc, "
           f"{'exact curation, float32 only (--quick)' if ctx.quick else 'exact and block curation'}, with and without "
           f"a key mask; the softmax runs over the K_eff = 3 selected keys of T = {T}, not over 'all keys' (unselected keys carry no weight: they are "
           f"absent); masked keys get weight 0 in circuit/fc, but under the reference rule (logit x mask, as the public code) masked keys "
           f"keep logit 0 and carry up to {100 * masked_weight_ref:.3g}% of a query's weight")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, ev)


def _riemann_check(ctx: CheckContext) -> Outcome:
    x = _inputs(ctx, (2, 8, 4), 1)
    worst, rows = 0.0, []
    configs = [base.with_options(mode=mode, dt=dt) for backbone in ("reference", "circuit", "fc")
               for base in (_model(ctx, backbone=backbone, topk=3, return_attention=True),)
               for mode in ("exact", "euler", "steady") for dt in (0.5, 1.0)]
    results = iter(zip(configs, _run_all(configs, x)))
    for _ in range(len(configs) // 2):  # backbone, then mode: dt 0.5 and 1.0 in turn
        outs = {}
        for dt in (0.5, 1.0):
            m, (y, att) = next(results)
            outs[dt] = (np.asarray(y) - np.asarray(m.out_proj.bias), np.asarray(att.weights))
        lin = float(np.max(np.abs(outs[1.0][0] - 2 * outs[0.5][0])) / max(1e-300, np.max(np.abs(outs[1.0][0]))))
        same_alpha = float(np.max(np.abs(outs[1.0][1] - outs[0.5][1])))
        worst = max(worst, lin, same_alpha)
        rows.append(lin)
    ev = Evidence({"relative_nonlinearity": np.array(rows)}, {"max_relative_deviation": worst})
    if worst <= 1e-12:
        return Outcome(Verdict.HOLDS, f"the head output is dt * sum_k alpha_k v_k: output(dt = 1) - bias = 2 (output(dt = 0.5) - bias) to {worst:.2g} "
                       "(relative, float64) and the weights do not change with dt, for every mode and backbone; dt only rescales the weighted sum "
                       "(the weights sum to 1 over the K selected keys, nac.s22.softmax), it adds no resolution of the attention trajectory", ev)
    return Outcome(Verdict.REFUTED, f"output not linear in dt: relative deviation {worst:.3g}", ev)


def _tpseudo_pair_check(ctx: CheckContext) -> Outcome:
    m = _model(ctx, backbone="reference", topk=4)
    x = _inputs(ctx, (2, 8, 4), 2)
    tr = _trace(m, x)
    tp = np.asarray(tr.t_pseudo)  # (B, H, Tq, K), no timestamps: t = 1
    spread = float(np.max(tp.max(-1) - tp.min(-1)))
    u = jnp.asarray(np.asarray(tr.u)[0, 0, 0, 0])
    jac = np.asarray(jax.jacobian(lambda v: m.time.literal(v, 1.0))(u))
    literal = np.asarray(m.time.literal(tr.u, 1.0))
    ev = Evidence({"jacobian": jac}, {"max_spread_over_keys": spread, "jacobian_norm": float(np.linalg.norm(jac)),
                                        "fast_vs_literal": float(np.max(np.abs(literal - tp)))})
    if spread > 0 and np.linalg.norm(jac) > 0 and np.max(np.abs(literal - tp)) < 1e-12:
        return Outcome(Verdict.HOLDS, f"t_pseudo = sigmoid(t_a(u) t + t_b(u)) with t_a, t_b Dense(1) layers of the pair u (as the public code): for fixed t = 1 "
                       f"it varies across the keys of one query by up to {spread:.3g}, |d t_pseudo/du| = {np.linalg.norm(jac):.3g}; the paper's "
                       "'learnable affine parameters' t_a, t_b are per-pair functions in the implementation", ev)
    return Outcome(Verdict.REFUTED, f"t_pseudo does not vary with the pair (spread {spread:.3g})", ev)


def _tpseudo_range_check(ctx: CheckContext) -> Outcome:
    rows = {}
    for name, dtype in (("float32", jnp.float32), ("float64", jnp.float64)):
        m = _model(ctx, dtype=dtype, backbone="reference", topk=4, seed_offset=3)
        x = (_inputs(ctx, (2, 8, 4), 3) * 10).astype(np.float32 if name == "float32" else np.float64)
        times = np.random.default_rng(ctx.seed + 7).uniform(0, 1000, (2, 8))
        tp = np.asarray(_trace(m, x, times).t_pseudo, np.float64)
        rows[name] = (float(tp.min()), float(tp.max()), int(np.sum((tp == 0) | (tp == 1))), tp.size)
    ok = all(lo >= 0 and hi <= 1 for lo, hi, _, _ in rows.values())
    scalars = {f"{k}_{f}": v[i] for k, v in rows.items() for i, f in enumerate(("min", "max", "saturated", "count"))}
    msg = "; ".join(f"{k}: t_pseudo in [{v[0]:.3g}, {v[1]:.17g}], {v[2]} of {v[3]} exactly 0 or 1 (float saturation)" for k, v in rows.items())
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"timestamps uniform in [0, 1000], inputs x10: {msg}; mathematically t_pseudo is in "
                   "(0, 1) (nac.s22.time_vector.unit_interval)", Evidence({}, scalars))


def _directional_fd(fn, theta, v, h):
    return (fn(theta + h * v) - fn(theta - h * v)) / (2 * h)


def _differentiable_check(ctx: CheckContext) -> Outcome:
    from jax.flatten_util import ravel_pytree

    rng = np.random.default_rng(ctx.seed + 9)
    x = jnp.asarray(_inputs(ctx, (2, 6, 4), 7))
    worst, checked, skipped, finite = 0.0, 0, 0, True
    variants = [(b, m) for b in ("reference", "circuit", "fc") for m in ("exact", "euler", "steady")]
    if ctx.quick:  # --quick: the exact mode of the public backbone and of the circuit backbone (each variant compiles its value and gradient once)
        variants = [("reference", "exact"), ("circuit", "exact")]
    for backbone in ("reference", "circuit", "fc"):
        base = _model(ctx, backbone=backbone, topk=3, return_attention=True, seed_offset=11)
        for mode in [m for b, m in variants if b == backbone]:
            model = base.with_options(mode=mode)
            params, static = eqx.partition(model, eqx.is_inexact_array)
            flat, unravel = ravel_pytree(params)

            def loss_and_indices(theta, xx, static=static, unravel=unravel):
                y, att = eqx.combine(unravel(theta), static)(xx)
                return jnp.sum(jnp.sin(y) + 0.5 * y**2), att.indices

            # one compiled function per variant: the loss (for the finite differences), the Top-K indices and jax.grad
            value_and_grad = jax.jit(jax.value_and_grad(loss_and_indices, argnums=(0, 1), has_aux=True))
            indices = lambda theta, xx: np.asarray(value_and_grad(theta, xx)[0][1])  # noqa: E731
            loss = lambda theta, xx: value_and_grad(theta, xx)[0][0]  # noqa: E731
            (_, idx0), (g_theta, g_x) = value_and_grad(flat, x)
            finite &= bool(jnp.all(jnp.isfinite(g_theta)) and jnp.all(jnp.isfinite(g_x)))
            idx0 = np.asarray(idx0)
            for _ in range(1 if ctx.quick else 3):
                v = jnp.asarray(rng.standard_normal(flat.shape))
                v = v / jnp.linalg.norm(v)
                w = jnp.asarray(rng.standard_normal(x.shape))
                w = w / jnp.linalg.norm(w)
                h = 1e-5
                if not (np.array_equal(indices(flat + h * v, x), idx0) and np.array_equal(indices(flat - h * v, x), idx0)
                        and np.array_equal(indices(flat, x + h * w), idx0) and np.array_equal(indices(flat, x - h * w), idx0)):
                    skipped += 1  # a Top-K tie is crossed: the selection is piecewise constant
                    continue
                fd_t = float(_directional_fd(lambda th: loss(th, x), flat, v, h))
                fd_x = float(_directional_fd(lambda xx: loss(flat, xx), x, w, h))
                an_t, an_x = float(jnp.vdot(g_theta, v)), float(jnp.vdot(g_x, w))
                for an, fd in ((an_t, fd_t), (an_x, fd_x)):
                    worst = max(worst, abs(an - fd) / max(abs(fd), 1e-8))
                checked += 1
    scalars = {"max_relative_error": worst, "directions_checked": checked, "directions_skipped_at_topk_ties": skipped, "all_finite": finite}
    ev = Evidence({}, scalars)
    if finite and checked and worst <= 1e-6:
        return Outcome(Verdict.HOLDS, f"jax.grad of a scalar loss w.r.t. all parameters and the inputs is finite and matches central finite differences "
                       f"(h = 1e-5, random unit directions) to {worst:.2g} relative (tolerance 1e-6, float64) for "
                       f"{len(variants)} variants (backbone x mode{': --quick subset' if ctx.quick else ''}) ({checked} direction pairs, {skipped} skipped where the Top-K selection changed); the selection "
                       "itself is piecewise constant: no gradient flows through which keys are chosen", ev)
    return Outcome(Verdict.REFUTED if finite and checked else Verdict.INCONCLUSIVE, f"gradient vs finite differences: {worst:.3g} relative; finite: {finite}", ev)


# --------------------------------------------------------------------------- registry
def s22_model_claims() -> list[Claim]:
    """Section 2.2's attention and differentiability on the model (group 'model')."""
    c = []
    add = lambda *a, **k: c.append(Claim(*a, **k))  # noqa: E731
    add("nac.s22.softmax",
        f"{SEED001}, Section 2.2 after eq. 17, 'Normalizing across all keys via softmax yields attention weights ... defining a valid probability "
        f"distribution' (line 638; {SEED000}, line 159)",
        "the model's attention weights are >= 0 and sum to 1 per query and head; they are defined on the K_eff selected keys only",
        "suite's model: modes exact/euler/steady, backbones reference/circuit/fc, exact/block curation, with and without key mask, float32 and float64",
        Verdict.HOLDS, "softmax over the selected keys", _softmax_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.s22.riemann",
        f"{SEED001}, Section 2.2, 'Attention output', 'summed and multiplied by a fixed pseudo-time step delta_t' (line 666)",
        "the head output is delta_t * sum_k alpha_k v_k: exactly linear in delta_t, weights independent of delta_t",
        "suite's model (float64), all modes and backbones", Verdict.HOLDS,
        "the Riemann sum multiplies by delta_t after the softmax", _riemann_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.s22.tpseudo.per_pair",
        f"{SEED001}, Section 2.2, 'Time Vector', 't_pseudo = sigma(t_a t + t_b), where t_a and t_b are learnable affine' (line 545); ../shared/reference",
        "in the implementation t_a, t_b are Dense(1) layers of the pair u, so t_pseudo varies across pairs for a fixed t",
        "suite's model, reference backbone, no timestamps (t = 1)", Verdict.HOLDS,
        "the public code computes t_a(u), t_b(u) per pair", _tpseudo_pair_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.s22.tpseudo_range.model",
        f"{SEED001}, Section 2.2, 'The resulting t_pseudo lies in [0, 1]' (line 559)",
        "the model's t_pseudo lies in [0, 1] in float32 and float64 for timestamps in [0, 1000]",
        "suite's model, reference backbone, inputs x10", Verdict.HOLDS,
        "sigmoid output; 0 and 1 only by float saturation", _tpseudo_range_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.model.differentiable",
        f"{SEED000}, Appendix C.3, 'NAC produces differentiable computational graphs and can be trained using gradient-based optimization' (line 529; "
        f"{SEED001}, Appendix C.2, line 1882)",
        "jax.grad of a scalar loss w.r.t. all parameters and inputs is finite and matches central finite differences (rel. 1e-6)",
        "suite's model, float64, modes exact/euler/steady, backbones reference/circuit/fc, away from Top-K ties", Verdict.HOLDS,
        "smooth almost everywhere; the Top-K selection is piecewise constant", _differentiable_check, group="model", kind=Kind.IMPLEMENTATION)
    return c


add_provider(s22_model_claims)
