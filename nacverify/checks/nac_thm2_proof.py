r"""Theorem 2 (Universal Approximation by NAC, seed 001 Section 2.3) and its proof (Appendix B.3) on the suite's model.

Claims ``nac.thm2.*`` and ``nac.b3.*``, checked on `nacverify.model.NAC` (float64; small sizes):
$K_{eff} = 1$ for $T = 1$ (B.3), the proof's $T = 1$ construction (the output ignores the gates),
eq. 20 with the public implementation's linear cells, the backbone's affinity against B.3's
"approximates any continuous function", and the theorem itself (not decided).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..compute.program_cache import cached_jit
from ._nac_text import SEED000, SEED001, _inputs, _model, _run, _trace_all

__all__ = ["QUICK_DIAGONAL", "thm2_proof_claims"]


def _keff1_check(ctx: CheckContext) -> Outcome:
    from ..model import block_layout, block_topk, exact_topk

    q = jnp.asarray(_inputs(ctx, (2, 2, 1, 3), 4))
    k = jnp.asarray(_inputs(ctx, (2, 2, 1, 3), 5))
    rows, ok = [], True
    for K in (1, 2, 8):
        for name, sel, lay in (("exact", exact_topk(q, k, K), None), ("block", None, block_layout(k, K))):
            if sel is None:
                sel = block_topk(q, lay)
                requested = -(-K // lay.block_size)
                clamped = min(requested, lay.centroids.shape[-2])
            else:
                requested = clamped = 0
            shape = tuple(sel.indices.shape)
            good = shape[-1] == 1 and bool(np.all(np.asarray(sel.indices) == 0)) and bool(np.all(np.asarray(sel.valid)))
            ok &= good
            rows.append((name, K, shape[-1], requested, clamped))
    shapes = []
    base = _model(ctx, backbone="reference")  # one set of parameters: the variants share them in the compiled program
    models = [base.with_options(topk=K, curation=curation) for curation in ("exact", "block") for K in (1, 2, 8)]
    x = _inputs(ctx, (2, 1, 4), 6)
    qh = np.asarray(base._heads(base._project(base.q_proj, jnp.asarray(x), False)))  # (B, H, 1, D), the same for every variant
    kh = np.asarray(base._heads(base._project(base.k_proj, jnp.asarray(x), False)))
    expected = np.concatenate([qh[..., None, :], kh[..., None, :]], axis=-1)  # [q; k] of the only pair
    for tr in _trace_all(models, x, [None] * len(models)):  # one compiled program (_nac_text)
        shapes.append(tuple(tr.u.shape))
        ok &= tuple(tr.u.shape) == expected.shape == (2, 2, 1, 1, 4) and bool(np.array_equal(np.asarray(tr.u), expected))
    scalars = {"block_requests_K8": rows[-1][3], "blocks_available_K8": rows[-1][4]}
    msg = (f"T_q = T_k = 1: K_eff = 1 and U = [q; k] of shape (B, H, 1, 1, 2D) = {shapes[0]} for K in 1, 2, 8 with exact and block curation; "
           f"Algorithm 2 as printed asks ceil(K/B_s) = {rows[-1][3]} blocks of N_b = 1 for K = 8 (B_s = 1): the implementation clamps the "
           f"block count to min(ceil(K/B_s), N_b) = {rows[-1][4]}")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({}, scalars, {}))


#: --quick: one variant per backbone and per mode (the diagonal of backbone x mode), instead of all nine
QUICK_DIAGONAL = (("reference", "exact"), ("circuit", "euler"), ("fc", "steady"))


def _variants(ctx: CheckContext) -> tuple[tuple[str, str], ...]:
    """(backbone, mode) pairs a model claim runs: all nine, or `QUICK_DIAGONAL` under --quick."""
    if ctx.quick:
        return QUICK_DIAGONAL
    return tuple((b, m) for b in ("reference", "circuit", "fc") for m in ("exact", "euler", "steady"))


def _t1_models(ctx: CheckContext):
    variants = _variants(ctx)
    for backbone in ("reference", "circuit", "fc"):
        base = _model(ctx, backbone=backbone, topk=8, seed_offset=13)
        for mode in [m for b, m in variants if b == backbone]:
            yield backbone, mode, base.with_options(mode=mode)


def _gate_part(m):
    return (m.backbone, m.time)  # everything phi, omega and t_pseudo come from


@cached_jit
def _gate_dependence(model, x, noise):
    """(max |d output / d gate parameters|, max |output(gate parameters + noise) - output|): one
    compiled function per variant instead of every primitive compiled on its own."""
    params, static = eqx.partition(_gate_part(model), eqx.is_inexact_array)

    def out(p):
        bb, tm = eqx.combine(p, static)
        return eqx.tree_at(_gate_part, model, (bb, tm))(x)

    grads = jax.grad(lambda p: jnp.sum(out(p) ** 2))(params)
    gmax = jnp.max(jnp.stack([jnp.max(jnp.abs(g)) for g in jax.tree_util.tree_leaves(grads)]))
    other = jax.tree_util.tree_map(lambda a, n: a + n, params, noise)
    return gmax, jnp.max(jnp.abs(out(other) - model(x)))


def _thm2_gates_check(ctx: CheckContext) -> Outcome:
    x = jnp.asarray(_inputs(ctx, (3, 1, 4), 8))  # T = 1: one token, one key
    worst_grad, worst_swap, n = 0.0, 0.0, 0
    for backbone, mode, model in _t1_models(ctx):
        params, _ = eqx.partition(_gate_part(model), eqx.is_inexact_array)
        noise = jax.tree_util.tree_map(lambda a: jnp.asarray(np.random.default_rng(ctx.seed + 21).standard_normal(a.shape), a.dtype), params)
        gmax, swap = (float(v) for v in _gate_dependence(model, x, noise))
        worst_grad, worst_swap, n = max(worst_grad, gmax), max(worst_swap, swap), n + 1
    witness = {"T": 1, "max_abs_gradient_wrt_gate_parameters": worst_grad, "max_output_change_under_new_gate_parameters": worst_swap}
    ev = Evidence({}, {"variants": n, **witness}, witness)
    which = ("backbones reference/circuit/fc, each in one of the modes exact/euler/steady (--quick)" if ctx.quick
             else "backbones reference/circuit/fc x modes exact/euler/steady")
    if worst_grad == 0.0 and worst_swap == 0.0:
        return Outcome(Verdict.REFUTED, f"with T = 1 (the proof's setting) the layer output does not depend on phi, omega or t_pseudo: the gradient w.r.t. "
                       f"every backbone and pseudo-time parameter is exactly {worst_grad:g} and replacing them by random values changes the output by "
                       f"exactly {worst_swap:g} ({n} variants: {which}); softmax over one key is 1, so "
                       "g(x) = W_o (dt v(x)) + b_o and the construction through phi (B.3) cannot approximate anything", ev)
    return Outcome(Verdict.HOLDS, f"the T = 1 output depends on the gates (gradient {worst_grad:.3g})", ev)


def _thm2_linear_check(ctx: CheckContext) -> Outcome:
    rows, worst_curv, min_lower = [], 0.0, np.inf
    configs = ((2, 1, 0.1), (4, 2, 0.5)) if ctx.quick else ((2, 1, 0.1), (4, 2, 0.5), (8, 2, 0.2), (16, 4, 0.9))
    for d_model, heads, sparsity in configs:
        for backbone in ("reference",) if ctx.quick else ("reference", "circuit"):
            m = _model(ctx, d_model=d_model, heads=heads, backbone=backbone, sparsity=sparsity, topk=8, seed_offset=17)

            ss = np.linspace(-1.0, 1.0, 21)  # contains -1, 0, 1 (indices 0, 10, 20)
            xx = jnp.zeros((ss.size, 1, d_model), jnp.float64).at[:, 0, 0].set(jnp.asarray(ss))
            gs = np.asarray(_run(m, xx))[:, 0]  # first output along the line x = (s, 0, ..., 0), T = 1
            curv = float(np.max(np.abs(gs[2:] - 2 * gs[1:-1] + gs[:-2])) / max(1e-300, np.max(np.abs(gs))))  # 0 up to rounding iff affine
            e = ss**2 - gs  # f - g with f(x) = x_1^2
            second = e[0] + e[20] - 2 * e[10]  # = 2 for every affine g
            lower = second / 4  # max(|e(-1)|, |e(0)|, |e(1)|) >= (|e(-1)| + |e(1)| + 2|e(0)|)/4 >= second/4
            worst_curv, min_lower = max(worst_curv, curv), min(min_lower, lower)
            rows.append((d_model, heads, sparsity, curv, lower))
    witness = {"f": "x_1^2 on [-1, 1]", "second_difference_of_error": float(4 * min_lower), "sup_error_lower_bound": float(min_lower)}
    ev = Evidence({"curvature": np.array([r[3] for r in rows]), "lower_bound": np.array([r[4] for r in rows])},
                  {"max_curvature": worst_curv, "min_lower_bound": float(min_lower), "configs": len(rows)}, witness)
    if worst_curv < 1e-12 and min_lower > 0.5 - 1e-9:
        return Outcome(Verdict.REFUTED, f"with the public implementation's linear NCP cells the T = 1 output g is affine in x (max relative second difference along a line "
                       f"{worst_curv:.2g}, {len(rows)} configurations of d_model, heads, sparsity and backbone{' (--quick subset)' if ctx.quick else ''}), so for f(x) = x_1^2 on [-1, 1] the error "
                       f"e = f - g has e(-1) + e(1) - 2 e(0) = {4 * min_lower:.6g} and sup |f - g| >= {min_lower:.6g} (the Chebyshev value 1/2, "
                       "attained by g = 1/2): eq. 20 fails for every eps < 1/2 whatever d_model, heads and sparsity", ev)
    return Outcome(Verdict.INCONCLUSIVE, f"g not affine (curvature {worst_curv:.3g})", ev)


@cached_jit
def _logit_phi_curvature(m, u):
    """max |Hessian| at u of logit(phi(u)), the backbone output, compiled as one program per model (eager, its
    operations cost more to dispatch than to run; the same values)."""
    logit_phi = lambda uu: jnp.log(m.gates_of_pairs(uu)[0] / (1 - m.gates_of_pairs(uu)[0]))  # noqa: E731
    return jnp.max(jnp.abs(jax.hessian(logit_phi)(u)))


@cached_jit
def _phi_on_axis(m, s, depth: int):
    """phi of the pair u = (s, 0, ..., 0) (2 depth entries), compiled."""
    return m.gates_of_pairs(jnp.zeros(2 * depth).at[0].set(s))[0]


def _backbone_affine_check(ctx: CheckContext) -> Outcome:
    target = lambda u1: 1 / (1 + np.exp(-(4 - 8 * u1**2)))  # noqa: E731
    bound = (target(0.0) - target(1.0)) / 2
    rows, worst_curv, min_err = [], 0.0, np.inf
    for d_model, heads in ((2, 1), (16, 4)) if ctx.quick else ((2, 1), (4, 2), (8, 2), (16, 4)):  # --quick: the smallest and the largest
        m = _model(ctx, d_model=d_model, heads=heads, backbone="reference", sparsity=0.1, topk=8, seed_offset=23)
        depth = d_model // heads
        u = jnp.asarray(np.random.default_rng(ctx.seed + 31).uniform(-1, 1, 2 * depth))
        curv = float(_logit_phi_curvature(m, u))
        phis = np.array([float(_phi_on_axis(m, jnp.asarray(s), depth)) for s in (-1.0, 0.0, 1.0)])
        err = float(np.max(np.abs(phis - target(np.array([-1.0, 0.0, 1.0])))))
        worst_curv, min_err = max(worst_curv, curv), min(min_err, err)
        rows.append((d_model, curv, err))
    witness = {"target": "sigmoid(4 - 8 u_1^2) on [-1, 1]^(2 depth)", "points_u1": "-1, 0, 1", "lower_bound": float(bound), "model_error": float(min_err)}
    ev = Evidence({"hessian_max": np.array([r[1] for r in rows]), "error_at_3_points": np.array([r[2] for r in rows])},
                  {"max_hessian": worst_curv, "lower_bound_any_ridge": float(bound), "min_model_error": float(min_err)}, witness)
    if worst_curv < 1e-9 and min_err >= bound - 1e-12:
        return Outcome(Verdict.REFUTED, f"the public implementation's backbone (one linear NCP step from a zero state, sparsity 0.1, the least ncps accepts: B.3's s = 0 is "
                       f"rejected by AutoNCP; d_model {'2 and 16 (--quick)' if ctx.quick else '2, 4, 8, 16'}) is affine "
                       f"in u (max |Hessian of the backbone output| {worst_curv:.2g}), so phi = sigma(c.u + b) is monotone along every line; against "
                       f"sigma(4 - 8 u_1^2) (values {target(-1.0):.4f}, {target(0.0):.4f}, {target(1.0):.4f} at u_1 = -1, 0, 1) every such phi errs by "
                       f">= (sigma(4) - sigma(-4))/2 = {bound:.4f}, whatever the units (these models: {min_err:.4f}); more units cannot make the error "
                       "small, unlike B.3's 'approximates any continuous function'", ev)
    return Outcome(Verdict.INCONCLUSIVE, f"backbone not affine (Hessian {worst_curv:.3g})", ev)


# --------------------------------------------------------------------------- registry
def thm2_proof_claims() -> list[Claim]:
    """Theorem 2 and its proof on the model (group 'model')."""
    c = []
    add = lambda *a, **k: c.append(Claim(*a, **k))  # noqa: E731
    add("nac.b3.keff1",
        f"{SEED000}, Appendix B.3, 'For T = 1, compute sparse top-k pairs, but since T = 1, K_eff = 1' (line 482)",
        "with T_q = T_k = 1 and K in {1, 2, 8}, exact and block Top-K select one key and U = [q; k] has shape (B, H, 1, 1, 2D)",
        "suite's curation (nacverify.model.curation) and model", Verdict.HOLDS,
        "K_eff = min(K, T_k) = 1; the block curation clamps the number of blocks to N_b", _keff1_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.thm2.t1_output_ignores_gates",
        f"{SEED001}, Theorem 2 proof (Appendix B.3), T = 1 construction through phi ('Attention Weights and output'); {SEED000}, Appendix B.3",
        "in the proof's setting (one token, T = 1) the layer output depends on the gates phi, omega through which the proof approximates f",
        "suite's model, T = 1, every backbone and mode", Verdict.REFUTED,
        "softmax over one key is 1: the output is W_o (dt v(x)) + b_o whatever phi and omega are", _thm2_gates_check, group="model", kind=Kind.AS_PRINTED)
    add("nac.thm2.eq20.linear_cells",
        f"{SEED001}, Theorem 2, eq. 20 'sup ||f(x) - g(x)|| < eps' (line 605), with ../shared/reference's linear NCP cells",
        "a NAC layer with the public implementation's linear cells, at T = 1, approximates f(x) = x_1^2 on [-1, 1] to every eps > 0",
        "suite's model with activation linear (the public default), T = 1, d_model 2..16", Verdict.REFUTED,
        "g is affine in x, and the best affine sup error for x^2 on [-1, 1] is 1/2", _thm2_linear_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.b3.backbone_affine",
        f"{SEED001}, Appendix B.3, 'set NCP sparsity s = 0 for full connectivity, ensuring the backbone approximates any' (line 1748) and "
        f"'This NCP, with sufficiently large units and low sparsity, approximates any continuous scalar function' (line 1807)",
        "with the public implementation's backbone (one linear NCP step, lowest sparsity), phi = sigma(backbone(u)) approximates sigma(4 - 8 u_1^2) "
        "on [-1, 1]^(2 depth) to every accuracy as units grow",
        "suite's model, reference backbone, activation linear, sparsity 0.1 (ncps rejects s < 0.1, so B.3's s = 0 is not constructible), d_model 2..16; the argument holds for every sparsity", Verdict.REFUTED,
        "the backbone is affine, so phi is a monotone ridge function: error >= (sigma(4) - sigma(-4))/2 = 0.482",
        _backbone_affine_check, group="model", kind=Kind.IMPLEMENTATION)
    return c


add_provider(thm2_proof_claims)
