r"""Statements of the NAC running text (seeds 000 and 001) checked numerically, on the
closed forms, on the regime families of Theorem 3 (000) and on the suite's JAX model.

Closed forms (each refutation keeps its witness, evaluated here in plain floats):

* ``nac.cor3.remark.rate_as_printed``: the decay rate of $|\varepsilon_t| = D e^{-\omega t}$ is
  $-\frac{d}{dt}\ln|\varepsilon_t| = \omega$, proportional to $\omega$, not inversely proportional.
* ``nac.s22.time_vector.horizon``: $t = \sigma(\cdot) \in (0, 1)$, so $t \in [0, T]$ fails for $T < 1$.
* ``nac.s22.tsample_limit``: with the time vector $t = \sigma(t_a t_{sample} + t_b)$, $a_t$ of eq. 17
  tends to $(\phi/\omega)(1 - e^{-\omega})$ (not $\phi/\omega$) as $t_{sample} \to \infty$.
* ``nac.eq47.interp.transient_dominates``: for $a_0 = 0$, $|T|/|S| = s/(e^s - 1) < 1$, $s = \omega t$.

Theorem 3 (000, B.1.2) on the regime families of `nacverify.regimes` (default members and
seeded sweeps): the Lipschitz increments, $|a_{varying}| \le C + |\varepsilon|$ and eq. 40 with
its printed upper limit $T$ and with $t$ (quadrature on the solver grid, its error estimated
by halving the grid).

Model (`nacverify.model.NAC`, float64 unless stated; small sizes): the softmax weights, the
Riemann sum's linearity in $\delta t$, the pseudo-time, $K_{eff} = 1$ for $T = 1$, gradients
against central finite differences, and Theorem 2's $T = 1$ construction.
"""

from __future__ import annotations

import math

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..margins import solver_margin
from ..odes import frozen_solution
from ..regimes import named_regime, sample_regime
from ..solvers import solve_ensemble

__all__ = ["text_claims"]

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"
LIPSCHITZ_REGIMES = ("slow", "fast", "oscillatory")


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# --------------------------------------------------------------------------- closed forms
def _rate_check(ctx: CheckContext) -> Outcome:
    import sympy as sp

    t_, w_, D_ = sp.symbols("t omega D", positive=True)
    rate = sp.simplify(-sp.diff(sp.log(D_ * sp.exp(-w_ * t_)), t_))  # decay rate of |eps_t| (eq. 8)
    omegas = np.array([0.5, 1.0, 2.0, 4.0])
    D, t0, h = 1.0, 0.7, 1e-5
    # numeric decay rate by central differences of ln|eps_t| = ln D - omega t, independent of SymPy
    measured = np.array([-(math.log(D * math.exp(-w * (t0 + h))) - math.log(D * math.exp(-w * (t0 - h)))) / (2 * h) for w in omegas])
    products = measured * omegas  # constant iff inversely proportional
    scalars = {"sympy_rate": str(rate), "max_rate_error": float(np.max(np.abs(measured - omegas)))}
    witness = {"omega_1": 1.0, "rate_1": float(measured[1]), "omega_2": 2.0, "rate_2": float(measured[2]),
               "rate_times_omega_1": float(products[1]), "rate_times_omega_2": float(products[2])}
    ev = Evidence({"omega": omegas, "rate": measured, "rate_times_omega": products}, scalars, witness)
    if str(rate) == "omega" and np.ptp(products) > 1e-3:
        return Outcome(Verdict.REFUTED, f"the decay rate -d/dt ln|eps_t| is omega itself (SymPy: {rate}; measured {measured[1]:.6g} at omega = 1, "
                       f"{measured[2]:.6g} at omega = 2): rate * omega = {products[1]:.6g} vs {products[2]:.6g}, not constant, so the rate is "
                       "proportional, not inversely proportional, to omega; the required time t* is inversely proportional "
                       "(nac.cor3.remark.time_inverse_omega)", ev)
    return Outcome(Verdict.HOLDS, f"rate {rate}; rate * omega spread {np.ptp(products):.3g}", ev)


def _horizon_check(ctx: CheckContext) -> Outcome:
    z = np.linspace(-40.0, 40.0, 8001)
    t = _sigmoid(z)
    T, z_w = 0.5, 3.0
    t_w = float(_sigmoid(z_w))
    scalars = {"min_t": float(t.min()), "max_t": float(t.max()), "bound_independent_of_T": 1.0, "flips_at": 1.0}  # holds for every T >= sup sigma = 1
    witness = {"T": T, "t_a_t_sample_plus_t_b": z_w, "t": t_w}
    ev = Evidence({"z": z[::100], "t": t[::100]}, scalars, witness)
    if t_w > T:
        return Outcome(Verdict.REFUTED, f"t = sigma(z) lies in (0, 1) whatever T is (grid z in [-40, 40]: {t.min():.3g}..{t.max():.17g}); for a window "
                       f"T < 1, t in [0, T] fails: T = {T}, z = t_a t_sample + t_b = {z_w} gives t = {t_w:.6g} > T; it holds exactly when T >= 1", ev)
    return Outcome(Verdict.HOLDS, "t <= T at the witness", ev)


def _tsample_limit_check(ctx: CheckContext) -> Outcome:
    phi, omega, t_a, t_b = 0.5, 1.0, 1.0, 0.0
    ts = np.array([1.0, 10.0, 100.0, 1000.0])
    t_vec = _sigmoid(t_a * ts + t_b)
    a_t = phi / omega * (1 - np.exp(-omega * t_vec))  # eq. 17 at the time vector
    limit = phi / omega * (1 - math.exp(-omega))
    steady = phi / omega
    gap = steady - a_t[-1]
    witness = {"phi": phi, "omega": omega, "t_a": t_a, "t_b": t_b, "t_sample": float(ts[-1]), "a_t": float(a_t[-1]),
               "steady_state": steady, "limit": limit}
    scalars = {"gap_to_steady": float(gap), "gap_closed_form": float(steady * math.exp(-omega)), "distance_to_limit": float(abs(a_t[-1] - limit))}
    ev = Evidence({"t_sample": ts, "time_vector": t_vec, "a_t": a_t}, scalars, witness)
    if gap > 1e-3 and abs(a_t[-1] - limit) < 1e-12:
        return Outcome(Verdict.REFUTED, f"with the paper's time vector t = sigma(t_a t_sample + t_b) -> 1 (t_a > 0), a_t -> (phi/omega)(1 - e^(-omega)) = "
                       f"{limit:.6g}, not the steady state phi/omega = {steady:.6g} (phi = {phi}, omega = {omega}, t_sample = {ts[-1]:.0f}: "
                       f"a_t = {a_t[-1]:.6g}); the gap (phi/omega) e^(-omega) = {steady * math.exp(-omega):.6g} stays positive "
                       "(for t_a < 0 the limit is 0); eq. 18 needs t itself -> oo (nac.eq18.limit)", ev)
    return Outcome(Verdict.HOLDS, f"a_t reaches phi/omega within {gap:.3g}", ev)


def _transient_check(ctx: CheckContext) -> Outcome:
    s = np.concatenate([np.logspace(-8, 0, 400), np.linspace(1.0, 50.0, 4000)[1:]])
    ratio = s / np.expm1(s)  # |transient| / |steady part| of eq. 47 for a0 = 0
    needed = np.expm1(s) / s  # |a0 - a*| / |a*| above which the transient dominates
    k = int(np.argmax(ratio))
    scalars = {"max_ratio_a0_zero": float(ratio.max()), "ratio_at_s_1": float(1 / math.expm1(1.0)), "min_offset_ratio_needed": float(needed.min())}
    # witness at s = omega t = 1 (an intermediate time); the grid maximum (-> 1 as s -> 0, never reached) is in the scalars
    witness = {"a0": 0.0, "phi": 0.5, "omega": 1.0, "t": 1.0, "transient_over_steady": float(1 / math.expm1(1.0)),
               "one_minus_max_ratio_on_grid": float(1 - ratio[k])}
    ev = Evidence({"s": s[::20], "ratio_a0_zero": ratio[::20], "offset_ratio_needed": needed[::20]}, scalars, witness)
    if ratio.max() < 1:
        return Outcome(Verdict.REFUTED, f"for NAC's a0 = 0 (eq. 17) |transient| / |steady part| = s/(e^s - 1) < 1 at every s = omega t > 0 "
                       f"(max {ratio.max():.9f} on the grid s = 1e-8..50, at s -> 0; {1 / math.expm1(1.0):.4f} at s = 1): the transient never dominates; "
                       "it does only where |a0 - a*|/|a*| > (e^s - 1)/s > 1", ev)
    return Outcome(Verdict.HOLDS, f"the transient dominates somewhere (max ratio {ratio.max():.3g})", ev)


# --------------------------------------------------------------------------- Theorem 3 (000)
def _regimes(ctx: CheckContext, names=LIPSCHITZ_REGIMES):
    n = 10 if ctx.quick else 50
    out = []
    for i, name in enumerate(names):
        out.append((name, "default", named_regime(name)))
        out.append((name, "sweep", sample_regime(name, n, ctx.seed + 100 + i)))
    return out


def _gates(regime, t):
    tj = jnp.asarray(t)
    phi = np.asarray(jax.vmap(regime.coefficients.phi)(tj)).T
    omega = np.asarray(jax.vmap(regime.coefficients.omega)(tj)).T
    shape = (regime.size, t.size)
    return np.broadcast_to(phi, shape), np.broadcast_to(omega, shape)


def _lipschitz_check(ctx: CheckContext) -> Outcome:
    worst, rows = -np.inf, []
    for name, which, regime in _regimes(ctx):
        t = np.linspace(0.0, regime.T, 4001)
        phi, omega = _gates(regime, t)
        f = regime.facts
        tol = 1e-12 * (1 + np.abs(f.phi0) + f.omega0)[:, None]
        ex_phi = np.abs(phi - f.phi0[:, None]) - f.L_phi[:, None] * t[None, :] - tol
        ex_om = np.abs(f.omega0[:, None] - omega) - f.L_omega[:, None] * t[None, :] - tol
        excess = max(float(ex_phi.max()), float(ex_om.max()))
        with np.errstate(divide="ignore", invalid="ignore"):
            tight = np.nanmax(np.where(t[None, 1:] > 0, np.abs(phi - f.phi0[:, None])[:, 1:] / (f.L_phi[:, None] * t[None, 1:]), np.nan))
        rows.append((name, which, regime.size, excess, float(tight)))
        worst = max(worst, excess)
    scalars = {"max_excess": worst, "members": int(sum(r[2] for r in rows))}
    scalars.update({f"tightness_phi_{r[0]}_{r[1]}": r[4] for r in rows})
    ev = Evidence({"max_excess_per_run": np.array([r[3] for r in rows])}, scalars)
    if worst > 0:
        return Outcome(Verdict.REFUTED, f"an increment exceeds L t by {worst:.3g}", ev)
    return Outcome(Verdict.HOLDS, f"|phi(t) - phi0| <= L_phi t and |omega0 - omega(t)| <= L_omega t on a 4001-point grid of [0, T] for the "
                   f"slow, fast and oscillatory families ({scalars['members']} members, default + sweep); max excess {worst:.3g} (<= 0); "
                   f"L_phi, L_omega = max |phi'|, max |omega'| of each member (nacverify.regimes)", ev)


def _lipschitz_step_check(ctx: CheckContext) -> Outcome:
    regime = named_regime("step")
    f = regime.facts
    jump = float(f.V_phi[0])
    return Outcome(Verdict.INAPPLICABLE, f"the step family jumps by |phi0 A_phi| = {jump:.4g} at t = {f.jump_ts[0]:.3g}: no finite L_phi "
                   f"(L_phi = {f.L_phi[0]}), so Theorem 3's hypothesis and the step |dphi(t)| <= L_phi t do not apply",
                   Evidence({}, {"jump_phi": jump, "L_phi": float(f.L_phi[0])}, {"jump_t": float(f.jump_ts[0])}))


def _solve(regime, t):
    a0 = regime.params["a0"]
    first = solve_ensemble(regime.coefficients, a0, t, rtol=1e-10, atol=1e-12).ys
    tight = solve_ensemble(regime.coefficients, a0, t, rtol=1e-12, atol=1e-14).ys
    margin = solver_margin(first, tight, 1e-12, 1e-14)
    a_frz = np.asarray(frozen_solution(t[None, :], a0[:, None], regime.facts.phi0[:, None], regime.facts.omega0[:, None]))
    return np.asarray(first), a_frz, margin


def _cumint(y, t):
    """Cumulative trapezoid of y (N, P) over t (P,), starting at 0."""
    inc = 0.5 * (y[:, 1:] + y[:, :-1]) * np.diff(t)[None, :]
    return np.concatenate([np.zeros((y.shape[0], 1)), np.cumsum(inc, axis=1)], axis=1)


def _eq40_rhs(t, eps_abs, facts, a0):
    """eq. 40's right-hand side with upper limit t and with T, by trapezoid on t."""
    C = np.abs(a0) + np.abs(facts.phi0) / facts.omega0
    w0 = facts.omega0[:, None]
    h = facts.L_phi[:, None] * t[None, :] + facts.L_omega[:, None] * t[None, :] * (C[:, None] + eps_abs)
    inner = _cumint(np.exp(w0 * t[None, :]) * h, t)
    return np.exp(-w0 * t[None, :]) * inner, np.exp(-w0 * t[None, :]) * inner[:, -1:]


def _thm3_runs(ctx: CheckContext):
    runs = []
    for name, which, regime in _regimes(ctx):
        t = np.linspace(0.0, regime.T, 2001)
        a_var, a_frz, margin = _solve(regime, t)
        runs.append((name, which, regime, t, a_var, a_frz, margin))
    return runs


_THM3_CACHE: dict = {}


def _cached_thm3(ctx: CheckContext):
    key = (ctx.seed, ctx.quick)
    if key not in _THM3_CACHE:
        _THM3_CACHE[key] = _thm3_runs(ctx)
    return _THM3_CACHE[key]


def _varying_bound_check(ctx: CheckContext) -> Outcome:
    worst, members, tight = -np.inf, 0, 0.0
    for name, which, regime, t, a_var, a_frz, margin in _cached_thm3(ctx):
        a0 = regime.params["a0"]
        C = (np.abs(a0) + np.abs(regime.facts.phi0) / regime.facts.omega0)[:, None]
        eps = np.abs(a_var - a_frz)
        excess = np.abs(a_var) - (C + eps) - margin
        worst = max(worst, float(excess.max()))
        tight = max(tight, float(np.max(np.abs(a_var) / (C + eps))))
        members += regime.size
    ev = Evidence({}, {"max_excess": worst, "max_ratio": tight, "members": members})
    if worst > 0:
        return Outcome(Verdict.REFUTED, f"|a_varying| exceeds C + |eps| by {worst:.3g} beyond solver error", ev)
    return Outcome(Verdict.HOLDS, f"|a_varying(s)| <= C + |eps(s)| on the solver grid (2001 points of [0, T]) for slow, fast and oscillatory "
                   f"({members} members, default + sweep); max |a_varying|/(C + |eps|) = {tight:.4g}", ev)


def _eq40_check(which_limit: str):
    def check(ctx: CheckContext) -> Outcome:
        worst_slack, worst_rel, members, quad = np.inf, np.inf, 0, 0.0
        for name, which, regime, t, a_var, a_frz, margin in _cached_thm3(ctx):
            a0 = regime.params["a0"]
            eps = np.abs(a_var - a_frz)
            rhs_t, rhs_T = _eq40_rhs(t, eps, regime.facts, a0)
            coarse_t, coarse_T = _eq40_rhs(t[::2], eps[:, ::2], regime.facts, a0)
            rhs = rhs_t if which_limit == "t" else rhs_T
            coarse = coarse_t if which_limit == "t" else coarse_T
            q_err = np.abs(rhs[:, ::2] - coarse)  # trapezoid error estimate (halved grid), on the coarse points
            slack = rhs[:, ::2] - eps[:, ::2] - margin[:, ::2] - 2 * q_err
            slack = slack[:, 1:]  # t > 0 (at t = 0 both sides vanish)
            worst_slack = min(worst_slack, float(slack.min()))
            with np.errstate(divide="ignore", invalid="ignore"):
                worst_rel = min(worst_rel, float(np.nanmin(rhs[:, 1:] / np.maximum(eps[:, 1:], 1e-300))))
            quad = max(quad, float(q_err.max()))
            members += regime.size
        label = "with the printed upper limit T" if which_limit == "T" else "with upper limit t"
        ev = Evidence({}, {"min_slack": worst_slack, "min_rhs_over_eps": worst_rel, "max_quadrature_error": quad, "members": members})
        if worst_slack < 0:
            return Outcome(Verdict.REFUTED if worst_slack < -10 * quad else Verdict.INCONCLUSIVE,
                           f"eq. 40 {label}: |eps(t)| exceeds the right-hand side by {-worst_slack:.3g} (quadrature error {quad:.2g})", ev)
        return Outcome(Verdict.HOLDS, f"eq. 40 {label}: |eps(t)| <= right-hand side on 1000 grid times in (0, T] for slow, fast and oscillatory "
                       f"({members} members); min slack {worst_slack:.3g} after subtracting solver and 2x quadrature error (<= {quad:.2g}); "
                       f"min RHS/|eps| = {worst_rel:.4g}", ev)

    return check


# --------------------------------------------------------------------------- model
def _model(ctx: CheckContext, dtype=jnp.float64, d_model: int = 4, heads: int = 2, seed_offset: int = 0, **options):
    from ..model import NAC

    return NAC(d_model, heads, key=jax.random.PRNGKey(ctx.seed + seed_offset), dtype=dtype, **options)


def _inputs(ctx: CheckContext, shape, offset: int = 0, dtype=np.float64):
    return np.random.default_rng(ctx.seed + 500 + offset).standard_normal(shape).astype(dtype)


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
        for backbone in backbones:
            base = _model(ctx, dtype=dtype, backbone=backbone, topk=3)
            for mode in ("exact", "euler", "steady"):
                for curation in curations:
                    m = base.with_options(mode=mode, curation=curation)
                    for msk in (None, mask):
                        tr = m.trace(x.astype(dtype), mask=msk)
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
    for backbone in ("reference", "circuit", "fc"):
        base = _model(ctx, backbone=backbone, topk=3, return_attention=True)
        for mode in ("exact", "euler", "steady"):
            outs = {}
            for dt in (0.5, 1.0):
                m = base.with_options(mode=mode, dt=dt)
                y, att = m(x)
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
    tr = m.trace(x)
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
        tp = np.asarray(m.trace(x, times=times).t_pseudo, np.float64)
        rows[name] = (float(tp.min()), float(tp.max()), int(np.sum((tp == 0) | (tp == 1))), tp.size)
    ok = all(lo >= 0 and hi <= 1 for lo, hi, _, _ in rows.values())
    scalars = {f"{k}_{f}": v[i] for k, v in rows.items() for i, f in enumerate(("min", "max", "saturated", "count"))}
    msg = "; ".join(f"{k}: t_pseudo in [{v[0]:.3g}, {v[1]:.17g}], {v[2]} of {v[3]} exactly 0 or 1 (float saturation)" for k, v in rows.items())
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"timestamps uniform in [0, 1000], inputs x10: {msg}; mathematically t_pseudo is in "
                   "(0, 1) (nac.s22.time_vector.unit_interval)", Evidence({}, scalars))


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
    for curation in ("exact", "block"):
        for K in (1, 2, 8):
            m = _model(ctx, backbone="reference", topk=K, curation=curation)
            x = _inputs(ctx, (2, 1, 4), 6)
            tr = m.trace(x)
            qh = np.asarray(m._heads(m._project(m.q_proj, jnp.asarray(x), False)))  # (B, H, 1, D)
            kh = np.asarray(m._heads(m._project(m.k_proj, jnp.asarray(x), False)))
            expected = np.concatenate([qh[..., None, :], kh[..., None, :]], axis=-1)  # [q; k] of the only pair
            shapes.append(tuple(tr.u.shape))
            ok &= tuple(tr.u.shape) == expected.shape == (2, 2, 1, 1, 4) and bool(np.array_equal(np.asarray(tr.u), expected))
    scalars = {"block_requests_K8": rows[-1][3], "blocks_available_K8": rows[-1][4]}
    msg = (f"T_q = T_k = 1: K_eff = 1 and U = [q; k] of shape (B, H, 1, 1, 2D) = {shapes[0]} for K in 1, 2, 8 with exact and block curation; "
           f"Algorithm 2 as printed asks ceil(K/B_s) = {rows[-1][3]} blocks of N_b = 1 for K = 8 (B_s = 1): the implementation clamps the "
           f"block count to min(ceil(K/B_s), N_b) = {rows[-1][4]}")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({}, scalars, {}))


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


@eqx.filter_jit
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
            gs = np.asarray(m(xx))[:, 0]  # first output along the line x = (s, 0, ..., 0), T = 1
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


def _thm2_statement_check(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.INCONCLUSIVE, "not decided: the suite refutes the proof's T = 1 construction (phi never reaches the output: "
                   "nac.thm2.single_key_head_output, nac.thm2.t1_output_ignores_gates) and, with the public implementation's linear cells, the "
                   "T = 1 layer is affine (nac.thm2.eq20.linear_cells: sup error >= 1/2 for x^2 on [-1, 1]); the printed theorem allows any T and "
                   "does not fix the cell activation, and whether a NAC layer with nonlinear cells (through v_proj, or with T > 1 through phi) "
                   "approximates every continuous f is neither proved by the printed proof nor refuted here",
                   Evidence({}, {"construction_refuted_by": "nac.thm2.t1_output_ignores_gates", "linear_cells_refuted_by": "nac.thm2.eq20.linear_cells"}))


def _backbone_affine_check(ctx: CheckContext) -> Outcome:
    target = lambda u1: 1 / (1 + np.exp(-(4 - 8 * u1**2)))  # noqa: E731
    bound = (target(0.0) - target(1.0)) / 2
    rows, worst_curv, min_err = [], 0.0, np.inf
    for d_model, heads in ((2, 1), (16, 4)) if ctx.quick else ((2, 1), (4, 2), (8, 2), (16, 4)):  # --quick: the smallest and the largest
        m = _model(ctx, d_model=d_model, heads=heads, backbone="reference", sparsity=0.1, topk=8, seed_offset=23)
        depth = d_model // heads
        u = jnp.asarray(np.random.default_rng(ctx.seed + 31).uniform(-1, 1, 2 * depth))
        logit_phi = lambda uu, m=m: jnp.log(m.gates_of_pairs(uu)[0] / (1 - m.gates_of_pairs(uu)[0]))  # noqa: E731  the backbone output
        curv = float(jnp.max(jnp.abs(jax.hessian(logit_phi)(u))))
        line = lambda s, depth=depth: jnp.zeros(2 * depth).at[0].set(s)  # noqa: E731
        phis = np.array([float(m.gates_of_pairs(line(s))[0]) for s in (-1.0, 0.0, 1.0)])
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
def text_claims() -> list[Claim]:
    c = []
    add = lambda *a, **k: c.append(Claim(*a, **k))  # noqa: E731
    add("nac.cor3.remark.rate_as_printed",
        f"{SEED001}, Remark after Corollary 3, 'The convergence rate is inversely proportional to omega_tau' (line 373; {SEED000}, line 98)",
        "the convergence rate of |eps_t| = |a0 - a*| e^{-omega t} (eq. 8), -d/dt ln|eps_t|, is inversely proportional to omega",
        "constant gates, omega > 0, a0 != a*", Verdict.REFUTED,
        "the rate is omega (Corollary 1's own 'exponential with rate omega'); only the required time is inversely proportional",
        _rate_check, group="numeric", kind=Kind.AS_PRINTED)
    add("nac.s22.time_vector.horizon",
        f"{SEED000}, Section 2.2, 'Construction of Time Vector', 't = sigma(t_a t_sample + t_b) in [0, T]' (line 154)",
        "t = sigma(t_a t_sample + t_b) lies in [0, T] for every window T > 0",
        "t_a, t_b, t_sample real; T > 0 the integration window", Verdict.REFUTED,
        "sigma < 1 whatever T is: the bound is 1, so [0, T] holds only for T >= 1; the paper never fixes T < 1 (charitable reading: "
        "nac.s22.time_vector.horizon.unit_window)", _horizon_check, group="numeric", kind=Kind.READING,
        reading="T read as the integration window [0, T] of Section 2 (line 26), any T > 0",
        threshold="'for every window T > 0' is our quantifier (the paper never fixes T); flips_at = the smallest T for which it holds")
    add("nac.s22.tsample_limit",
        f"{SEED000}, Section 2.2, 'As t_sample -> oo, the trajectory converges to the steady state' (line 160) with t = sigma(t_a t_sample + t_b) (line 154)",
        "a_t of eq. 17 evaluated at the time vector t = sigma(t_a t_sample + t_b) tends to phi/omega as t_sample -> oo",
        "phi in (0, 1), omega > 0, t_a != 0", Verdict.REFUTED,
        "t -> 1 (t_a > 0) or 0 (t_a < 0), so a_t -> (phi/omega)(1 - e^{-omega}) or 0; 001 rewrites the sentence as 't -> oo'",
        _tsample_limit_check, group="numeric", kind=Kind.AS_PRINTED)
    add("nac.eq47.interp.transient_dominates",
        f"{SEED001}, Appendix C.1.1, interpretation after eq. 47, 'a transient term proportional to t e^{{-omega t}}, which dominates at intermediate times' (line 1872)",
        "for NAC's a0 = 0 there are times t > 0 where |(a0 - a*) t e^{-omega t}| > |(phi/omega^2)(1 - e^{-omega t})|",
        "a0 = 0 (eq. 17), omega > 0, phi != 0", Verdict.REFUTED,
        "the ratio is s/(e^s - 1) < 1 for s = omega t > 0 (nac.eq47.transient_below_steady.a0_zero); C.1.1 keeps a0 general "
        "(eq. 45), where the transient does dominate (nac.eq47.interp.transient_dominates.general_a0)",
        _transient_check, group="numeric", kind=Kind.READING,
        reading="'dominates' read as: the modulus of the transient term of eq. 47 exceeds that of the steady term, at NAC's a0 = 0")
    add("nac.thm3.lipschitz_increments",
        f"{SEED000}, Appendix B.1.2, proof of Theorem 3 after eq. 36, 'By Lipschitz, |dphi(t)| <= L_phi t and |domega(t)| <= L_omega t' (line 379)",
        "|phi(t) - phi0| <= L_phi t and |omega0 - omega(t)| <= L_omega t on [0, T] for the Lipschitz regime families",
        "slow, fast, oscillatory families (nacverify.regimes), default members and seeded sweeps; L = max |phi'|, max |omega'|",
        Verdict.HOLDS, "mean value theorem", _lipschitz_check, group="numeric", kind=Kind.AS_PRINTED)
    add("nac.thm3.lipschitz_increments.step",
        f"{SEED000}, Appendix B.1.2, proof of Theorem 3 after eq. 36 (line 379), step regime",
        "|phi(t) - phi0| <= L_phi t for the step family", "step family: one jump inside the window",
        Verdict.INAPPLICABLE, "a jump has no finite Lipschitz constant", _lipschitz_step_check, group="numeric", kind=Kind.AS_PRINTED)
    add("nac.thm3.varying_bound.regimes",
        f"{SEED000}, Appendix B.1.2, proof of Theorem 3 after eq. 39, 'Hence |a_varying(s)| <= C + |eps(s)|' (line 391)",
        "|a_varying(s)| <= C + |eps(s)|, C = |a0| + |phi0|/omega0, on the solver grid",
        "slow, fast, oscillatory families, default members and seeded sweeps, a0 = 0", Verdict.HOLDS,
        "triangle inequality with |a_frozen| <= C (nac.thm3.varying_bound.triangle)", _varying_bound_check, group="numeric", kind=Kind.AS_PRINTED)
    add("nac.thm3.eq40.as_printed",
        f"{SEED000}, Appendix B.1.2, eq. 40 (upper limit T as printed) (line 393)",
        "|eps(t)| <= int_0^T e^{-omega0 (t - s)} (L_phi s + L_omega s (C + |eps(s)|)) ds for t in (0, T]",
        "slow, fast, oscillatory families; |eps| from the solver; quadrature by trapezoid", Verdict.HOLDS,
        "follows from the version with t: the range s in (t, T] adds a nonnegative integrand", _eq40_check("T"), group="numeric", kind=Kind.AS_PRINTED)
    add("nac.thm3.eq40.upper_limit_t",
        f"{SEED000}, Appendix B.1.2, eq. 40, read with upper limit t (line 393)",
        "|eps(t)| <= int_0^t e^{-omega0 (t - s)} (L_phi s + L_omega s (C + |eps(s)|)) ds for t in (0, T]",
        "slow, fast, oscillatory families; |eps| from the solver; quadrature by trapezoid", Verdict.HOLDS,
        "eq. 38 (with t), |dphi| <= L_phi s, |domega| <= L_omega s and |a_varying| <= C + |eps|", _eq40_check("t"), group="numeric",
        kind=Kind.READING, reading="upper limit of eq. 40's integral read as t instead of the printed T")
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
    add("nac.b3.keff1",
        f"{SEED000}, Appendix B.3, 'For T = 1, compute sparse top-k pairs, but since T = 1, K_eff = 1' (line 482)",
        "with T_q = T_k = 1 and K in {1, 2, 8}, exact and block Top-K select one key and U = [q; k] has shape (B, H, 1, 1, 2D)",
        "suite's curation (nacverify.model.curation) and model", Verdict.HOLDS,
        "K_eff = min(K, T_k) = 1; the block curation clamps the number of blocks to N_b", _keff1_check, group="model", kind=Kind.IMPLEMENTATION)
    add("nac.model.differentiable",
        f"{SEED000}, Appendix C.3, 'NAC produces differentiable computational graphs and can be trained using gradient-based optimization' (line 529; "
        f"{SEED001}, Appendix C.2, line 1882)",
        "jax.grad of a scalar loss w.r.t. all parameters and inputs is finite and matches central finite differences (rel. 1e-6)",
        "suite's model, float64, modes exact/euler/steady, backbones reference/circuit/fc, away from Top-K ties", Verdict.HOLDS,
        "smooth almost everywhere; the Top-K selection is piecewise constant", _differentiable_check, group="model", kind=Kind.IMPLEMENTATION)
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
    add("nac.thm2",
        f"{SEED001}, Section 2.3, Theorem 2 (Universal Approximation by NAC), eq. 20 (line 596-605)",
        "for every continuous f on a compact K and eps > 0 some NAC layer g has sup ||f - g|| < eps",
        "as printed: sufficiently large units, sparsity, heads; any T; cell activation not fixed", Verdict.INCONCLUSIVE,
        "the suite refutes only the proof's construction and the linear-cell implementation; the theorem itself is not decided",
        _thm2_statement_check, group="model", kind=Kind.AS_PRINTED)
    add("nac.b3.backbone_affine",
        f"{SEED001}, Appendix B.3, 'set NCP sparsity s = 0 for full connectivity, ensuring the backbone approximates any' (line 1748) and "
        f"'This NCP, with sufficiently large units and low sparsity, approximates any continuous scalar function' (line 1807)",
        "with the public implementation's backbone (one linear NCP step, lowest sparsity), phi = sigma(backbone(u)) approximates sigma(4 - 8 u_1^2) "
        "on [-1, 1]^(2 depth) to every accuracy as units grow",
        "suite's model, reference backbone, activation linear, sparsity 0.1 (ncps rejects s < 0.1, so B.3's s = 0 is not constructible), d_model 2..16; the argument holds for every sparsity", Verdict.REFUTED,
        "the backbone is affine, so phi is a monotone ridge function: error >= (sigma(4) - sigma(-4))/2 = 0.482",
        _backbone_affine_check, group="model", kind=Kind.IMPLEMENTATION)
    return c


add_provider(text_claims)
