r"""Claims checked on the JAX NAC model's own gates (group ``model``): ``nac.model.*`` but the reference parity.

Every claim runs the model (float64, seeded parameters and standard-normal inputs, small
sizes: d_model 8, 2 heads, T 16, batch 4, topk 4) for each variant: backbones
``reference`` / ``circuit`` / ``fc`` with heads ``shared`` / ``split`` (``--quick``: the
shared head only). One jitted evaluation per variant produces the gates of every pair,
the logits and attention of the three modes (the model's forward with each mode), the
Jacobians of the gates with respect to the pair input u = [q; k] through the literal cell
iteration (Algorithm 1, full matrices), and is shared by all claims.

* ``nac.model.omega_positive`` (eq. 16): omega > 0 on every pair, also for inputs scaled by 1e3.
* ``nac.model.exact_is_ode`` (eq. 1, 2, 3, 17): exact-mode logits equal the diffrax solution of
  $da/dt = -\omega a + \phi$, $a(0) = 0$ at the pair's pseudo-time (tolerance 1e-9, margin from a
  second solve 100x tighter); euler-mode logits equal explicit Euler iterates computed here in NumPy.
* ``nac.model.thm1`` (Theorem 1, eq. 5): logits of the exact and steady modes, and of the euler
  mode where $\Delta t\,\omega \le 1$, lie in $[\min(0, A), \max(0, A)]$, $A = \phi/\omega$.
* ``nac.model.euler_margin``: $h = \Delta t \max\omega$ per variant at the public defaults
  ($\Delta t = 0.5$, 5 steps); the Euler map of one connection keeps Theorem 1's interval
  invariant iff $h \le 1$ (nacverify.checks.nac_stability) and its iterates grow without bound for $h > 2$.
* ``nac.model.gate_sensitivity``: $\partial\phi/\partial u$ and $\partial\omega/\partial u$ are not identically zero.
* ``nac.model.sharpness``: the largest attention weight is at most the bound the observed gate
  ranges imply, $1/(1 + (K-1)e^{L-U})$ for logits in $[L, U]$; in exact mode
  $0 < a < \phi\,t_{pseudo} < 1$, so no parameters make a weight exceed $e/(e + K - 1)$.

The model's parity with the public TF layer, ``nac.model.reference_parity``, is
`nacverify.checks.nac_reference_parity`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import diffrax
import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..errors import NacverifyError
from ..margins import TIGHTER, solver_margin
from ..model import NAC
from ..model.nac import GateTrace
from ..compute.program_cache import cached_jit, register_namedtuple
from ..run.shared_work import shared
from ..solvers._diffrax import checks_without_callbacks, in_checks_without_callbacks

__all__ = ["gate_claims", "variant_gates", "SIZES"]

SEED001 = "001_9075dda04a2ad935.txt"
SIZES = {"d_model": 8, "heads": 2, "T": 16, "batch": 4, "topk": 4}
DELTA_T, EULER_STEPS = 0.5, 5  # the public implementation's defaults (shared/reference)
VARIANTS = tuple((b, h) for b in ("reference", "circuit", "fc") for h in ("shared", "split"))
QUICK_VARIANTS = tuple((b, "shared") for b in ("reference", "circuit", "fc"))
ODE_TOL = 1e-9
RTOL, ATOL = 1e-11, 1e-13
_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True)
class VariantGates:
    """Gates, logits and Jacobian norms of one variant; arrays flattened over valid pairs."""

    name: str
    phi: np.ndarray
    omega: np.ndarray
    t_pseudo: np.ndarray
    logits: dict  # mode -> (N,)
    attention_max: dict  # mode -> float
    topk: int
    jac_phi: np.ndarray  # (N,) Frobenius norm of d phi / d u per pair
    jac_omega: np.ndarray
    fast_vs_literal: float  # max |gate(fast path) - gate(Algorithm 1 iteration)|
    omega_min_scaled: float  # min omega over pairs with u scaled by 1e3


def _evaluate(model: NAC, x: jax.Array):
    out = {}
    for mode in ("exact", "euler", "steady"):
        tr = model.with_options(mode=mode, delta_t=DELTA_T, euler_steps=EULER_STEPS).trace(x)
        out[mode] = (tr.logits, tr.attention)
        if mode == "exact":
            base = tr
    u = base.u.reshape(-1, base.u.shape[-1])

    def gates(v):
        phi, omega = model.gates_literal(v)
        return jnp.stack([phi, omega])

    jac = jax.vmap(jax.jacfwd(gates))(u)  # (N, 2, 2D)
    fast = jnp.stack(model.gates_of_pairs(u))
    literal = jax.vmap(gates)(u).T
    scaled = model.gates_of_pairs(1e3 * u)[1]
    return base, out, jnp.linalg.norm(jac, axis=-1), jnp.max(jnp.abs(fast - literal)), jnp.min(scaled)


register_namedtuple(GateTrace)  # `_evaluate` returns one


@cached_jit
def _evaluate_all(models, x):
    """[_evaluate(model, x) for model in models], compiled as one program (XLA's fixed time per program,
    `_nac_text._trace_all`) and kept between runs (nacverify.compute.program_cache); each variant's values are
    the same bits as alone."""
    return [_evaluate(model, x) for model in models]


@shared("nac.model.variant_gates", maxsize=4)
def variant_gates(seed: int, quick: bool) -> tuple[VariantGates, ...]:
    """The shared evaluation of every variant (cached per process)."""
    s = SIZES
    x = jax.random.normal(jax.random.PRNGKey(seed + 7), (s["batch"], s["T"], s["d_model"]), jnp.float64)
    results = []
    variants = QUICK_VARIANTS if quick else VARIANTS
    models = [NAC(s["d_model"], s["heads"], key=jax.random.PRNGKey(seed), dtype=jnp.float64, backbone=backbone, head=head, topk=s["topk"])
              for backbone, head in variants]
    for (backbone, head), (base, modes, jac, gap, omin) in zip(variants, _evaluate_all(models, x)):
        valid = np.asarray(base.valid).ravel()
        flat = lambda a: np.asarray(a).ravel()[valid]  # noqa: E731
        jac = np.asarray(jac).reshape(-1, 2)
        results.append(
            VariantGates(
                f"{backbone}-{head}",
                flat(base.phi),
                flat(base.omega),
                flat(base.t_pseudo),
                {m: flat(modes[m][0]) for m in modes},
                {m: float(np.max(np.asarray(modes[m][1]))) for m in modes},
                int(base.phi.shape[-1]),
                jac[:, 0][valid],
                jac[:, 1][valid],
                float(gap),
                float(omin),
            )
        )
    return tuple(results)


def _all(ctx: CheckContext) -> tuple[VariantGates, ...]:
    out = variant_gates(int(ctx.seed), bool(ctx.quick))
    for v in out:
        if not v.fast_vs_literal <= 1e-10:
            raise RuntimeError(f"{v.name}: the model's fast gate path differs from Algorithm 1 by {v.fast_vs_literal:.3g}")
    return out


# ----------------------------------------------------------------------------- checks


def _omega_positive(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    scalars = {f"omega_min_{v.name}": float(v.omega.min()) for v in vs}
    scalars.update({f"omega_min_scaled_{v.name}": v.omega_min_scaled for v in vs})
    worst = min(vs, key=lambda v: min(v.omega.min(), v.omega_min_scaled))
    low = min(worst.omega.min(), worst.omega_min_scaled)
    ev = Evidence({f"omega_{v.name}": v.omega for v in vs}, scalars, {"variant": worst.name, "omega": float(low)})
    if low > 0:
        return Outcome(Verdict.HOLDS, f"min omega {low:.3g} > 0 over {sum(v.omega.size for v in vs)} pairs and 1e3-scaled inputs ({worst.name}); softplus + eps >= eps", ev)
    return Outcome(Verdict.REFUTED, f"omega = {low:.3g} <= 0 in variant {worst.name}", ev)


def _solve_scaled(phi, omega, tau, rtol, atol):
    r"""a(tau) of da/dt = -omega a + phi, a(0) = 0, for every pair at once: with s = t / tau,
    da/ds = tau (-omega a + phi) on s in [0, 1] (one shared grid, max-norm error control)."""

    def rhs(s, a, args):
        p, w, t = args
        return t * (-w * a + p)

    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(rhs),
        diffrax.Tsit5(),
        t0=0.0,
        t1=1.0,
        dt0=None,
        y0=jnp.zeros_like(phi),
        args=(phi, omega, tau),
        saveat=diffrax.SaveAt(t1=True),
        stepsize_controller=diffrax.PIDController(rtol=rtol, atol=atol, norm=lambda y: jnp.max(jnp.abs(y))),
        max_steps=100_000,
        throw=False,  # checked by `_solve_pairs`: no host callback, so JAX's persistent cache keeps the compiled solve
    )
    return sol.ys[-1], sol.result == diffrax.RESULTS.successful


_solve_jit = cached_jit(_solve_scaled, context=in_checks_without_callbacks)  # kept between runs (nacverify.compute.program_cache)


def _solve_pairs(phi, omega, tau, rtol: float, atol: float) -> np.ndarray:
    """`_solve_scaled` compiled (`checks_without_callbacks`); raises when diffrax does not reach s = 1."""
    with checks_without_callbacks():
        a, ok = _solve_jit(phi, omega, tau, jnp.float64(rtol), jnp.float64(atol))
    if not bool(ok):
        raise NacverifyError("diffrax did not reach t_pseudo (max_steps 100000)")
    return np.asarray(a)


def _euler_numpy(phi: np.ndarray, omega: np.ndarray) -> np.ndarray:
    a = np.zeros_like(phi)
    for _ in range(EULER_STEPS):
        a = a + DELTA_T * (-omega * a + phi)
    return a


def _exact_is_ode(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    phi = np.concatenate([v.phi for v in vs])
    omega = np.concatenate([v.omega for v in vs])
    tau = np.concatenate([v.t_pseudo for v in vs])
    model_exact = np.concatenate([v.logits["exact"] for v in vs])
    model_euler = np.concatenate([v.logits["euler"] for v in vs])
    first = _solve_pairs(phi, omega, tau, rtol=RTOL, atol=ATOL)
    tight = _solve_pairs(phi, omega, tau, rtol=RTOL / TIGHTER, atol=ATOL / TIGHTER)
    margin = solver_margin(first[:, None], tight[:, None], RTOL / TIGHTER, ATOL / TIGHTER)[:, 0]
    gap = np.abs(model_exact - tight)
    euler_ref = _euler_numpy(phi, omega)
    euler_gap = np.abs(model_euler - euler_ref)
    euler_tol = 64 * _EPS * (1 + np.abs(euler_ref))
    i = int(np.argmax(gap + margin))
    scalars = {
        "pairs": int(phi.size),
        "max_abs_gap_exact": float(gap.max()),
        "max_solver_margin": float(margin.max()),
        "tolerance": ODE_TOL,
        "max_abs_gap_euler": float(euler_gap.max()),
        "rtol": RTOL,
        "atol": ATOL,
    }
    witness = {"pair": i, "phi": float(phi[i]), "omega": float(omega[i]), "t_pseudo": float(tau[i]), "model": float(model_exact[i]), "diffrax": float(tight[i])}
    ev = Evidence({"model_exact": model_exact, "diffrax": tight, "solver_margin": margin, "model_euler": model_euler, "euler_numpy": euler_ref}, scalars, witness)
    if np.any(gap - margin > ODE_TOL) or np.any(euler_gap > euler_tol):
        return Outcome(Verdict.REFUTED, f"max |model - diffrax| {gap.max():.3g} (margin {margin.max():.2g}); max |euler - iterates| {euler_gap.max():.3g}", ev)
    if np.all(gap + margin <= ODE_TOL):
        return Outcome(Verdict.HOLDS, f"{phi.size} pairs: max |exact - diffrax| {gap.max():.2g} + margin {margin.max():.2g} <= {ODE_TOL:g}; euler = iterates to {euler_gap.max():.2g}", ev)
    return Outcome(Verdict.INCONCLUSIVE, f"solver margin {margin.max():.2g} too large for tolerance {ODE_TOL:g}", ev)


def _interval_violation(a: np.ndarray, A: np.ndarray) -> np.ndarray:
    lo, hi = np.minimum(0, A), np.maximum(0, A)
    return np.maximum(lo - a, a - hi) - 8 * _EPS * (1 + np.abs(A))


def _thm1(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    scalars: dict = {}
    worst = (-np.inf, None, None, -1)
    for v in vs:
        A = v.phi / v.omega
        h = DELTA_T * v.omega
        for mode in ("exact", "steady", "euler"):
            viol = _interval_violation(v.logits[mode], A)
            if mode == "euler":
                outside_big_h = int(np.sum((viol > 0) & (h > 1)))
                scalars[f"euler_outside_with_h_gt_1_{v.name}"] = outside_big_h
                viol = np.where(h <= 1, viol, -np.inf)
            m = float(viol.max()) if viol.size else -np.inf
            scalars[f"max_violation_{mode}_{v.name}"] = m
            if m > worst[0]:
                worst = (m, v, mode, int(np.argmax(viol)))
    m, v, mode, i = worst
    witness = {"variant": v.name, "mode": mode, "pair": i, "phi": float(v.phi[i]), "omega": float(v.omega[i]), "logit": float(v.logits[mode][i])}
    ev = Evidence({}, scalars, witness)
    if m > 0:
        return Outcome(Verdict.REFUTED, f"{v.name} {mode}: logit {v.logits[mode][i]:.6g} outside [min(0,A), max(0,A)], A = {v.phi[i] / v.omega[i]:.6g}", ev)
    return Outcome(Verdict.HOLDS, "every exact/steady logit, and every euler logit with dt*omega <= 1, lies in [min(0, A), max(0, A)] (slack >= 8 eps)", ev)


def _euler_margin(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    hs = {v.name: DELTA_T * float(v.omega.max()) for v in vs}
    scalars = {f"h_max_{k}": val for k, val in hs.items()}
    for v in vs:
        A = v.phi / v.omega
        scalars[f"euler_outside_interval_{v.name}"] = int(np.sum(_interval_violation(v.logits["euler"], A) > 0))
        scalars[f"pairs_h_gt_2_{v.name}"] = int(np.sum(DELTA_T * v.omega > 2))
    worst = max(vs, key=lambda v: v.omega.max())
    i = int(np.argmax(worst.omega))
    h = DELTA_T * float(worst.omega[i])
    witness = {"variant": worst.name, "pair": i, "omega": float(worst.omega[i]), "h": h, "euler_logit": float(worst.logits["euler"][i]), "A": float(worst.phi[i] / worst.omega[i])}
    ev = Evidence({f"omega_{v.name}": v.omega for v in vs}, scalars, witness)
    summary = ", ".join(f"{k} {val:.3f}" for k, val in hs.items())
    if h > 1 + 1e-12:
        return Outcome(Verdict.REFUTED, f"delta_t*max omega: {summary}; {worst.name} exceeds 1 (Euler map not invariant" + ("; > 2: iterates diverge)" if h > 2 else ")"), ev)
    return Outcome(Verdict.HOLDS, f"delta_t*max omega <= 1 in every variant: {summary}", ev)


def _gate_sensitivity(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    scalars = {}
    for v in vs:
        scalars[f"jac_phi_max_{v.name}"] = float(v.jac_phi.max())
        scalars[f"jac_omega_max_{v.name}"] = float(v.jac_omega.max())
        scalars[f"jac_phi_rms_{v.name}"] = float(np.sqrt(np.mean(v.jac_phi**2)))
        scalars[f"phi_std_{v.name}"] = float(v.phi.std())
    dead = [v for v in vs if max(v.jac_phi.max(), v.jac_omega.max()) <= 1e-12]
    arrays = {f"jac_phi_{v.name}": v.jac_phi for v in vs} | {f"jac_omega_{v.name}": v.jac_omega for v in vs}
    summary = ", ".join(f"{v.name} {max(v.jac_phi.max(), v.jac_omega.max()):.3g}" for v in vs)
    if dead:
        w = dead[0]
        ev = Evidence(arrays, scalars, {"variant": w.name, "max_jacobian_norm": float(max(w.jac_phi.max(), w.jac_omega.max()))})
        return Outcome(Verdict.REFUTED, f"gates independent of u in {', '.join(v.name for v in dead)} (max |d gate/du|: {summary})", ev)
    return Outcome(Verdict.HOLDS, f"max |d gate/du| per variant: {summary}", Evidence(arrays, scalars))


def _euler_sum_range(w_lo: float, w_hi: float) -> tuple[float, float]:
    """Range over omega in [w_lo, w_hi] of S(omega) = dt sum_{j<n} (1 - dt omega)^j (euler logit = phi S)."""
    one = np.polynomial.Polynomial([1.0, -DELTA_T])
    S = sum((one**j for j in range(EULER_STEPS)), np.polynomial.Polynomial([0.0])) * DELTA_T
    pts = [w_lo, w_hi] + [float(r.real) for r in S.deriv().roots() if abs(r.imag) < 1e-12 and w_lo < r.real < w_hi]
    vals = S(np.asarray(pts))
    return float(vals.min()), float(vals.max())


def _logit_range(v: VariantGates, mode: str) -> tuple[float, float]:
    p_lo, p_hi = float(v.phi.min()), float(v.phi.max())
    w_lo, w_hi = float(v.omega.min()), float(v.omega.max())
    t_lo, t_hi = float(v.t_pseudo.min()), float(v.t_pseudo.max())
    if mode == "steady":
        return p_lo / w_hi, p_hi / w_lo
    if mode == "exact":
        g = lambda w, t: -math.expm1(-w * t) / w  # noqa: E731  decreasing in w, increasing in t
        return p_lo * g(w_hi, t_lo), p_hi * g(w_lo, t_hi)
    s_lo, s_hi = _euler_sum_range(w_lo, w_hi)
    corners = [p * s for p in (p_lo, p_hi) for s in (s_lo, s_hi)]
    return min(corners), max(corners)


def _sharpness(ctx: CheckContext) -> Outcome:
    vs = _all(ctx)
    scalars = {}
    worst = (-np.inf, "", "")
    for v in vs:
        for mode in ("exact", "euler", "steady"):
            L, U = _logit_range(v, mode)
            bound = 1.0 / (1.0 + (v.topk - 1) * math.exp(L - U))
            obs = v.attention_max[mode]
            scalars[f"max_attention_{mode}_{v.name}"] = obs
            scalars[f"bound_{mode}_{v.name}"] = bound
            if obs - bound > worst[0]:
                worst = (obs - bound, v.name, mode)
    k = SIZES["topk"]
    scalars["architectural_bound_exact_K"] = math.e / (math.e + k - 1)
    scalars["architectural_bound_exact_K8"] = math.e / (math.e + 7)
    excess, name, mode = worst
    ev = Evidence({}, scalars, {"variant": name, "mode": mode, "excess": float(excess)})
    largest = max(scalars[f"max_attention_{m}_{v.name}"] for v in vs for m in ("exact", "euler", "steady"))
    note = f"exact mode: 0 < a < phi*t_pseudo < 1, so no weight exceeds e/(e+K-1) = {math.e / (math.e + 7):.3f} at K = 8"
    if excess > 1e-12:
        return Outcome(Verdict.REFUTED, f"{name} {mode}: max attention exceeds the gate-range bound by {excess:.3g}", ev)
    return Outcome(Verdict.HOLDS, f"largest attention {largest:.3f} within the gate-range bounds in every variant and mode; {note}", ev)


# ----------------------------------------------------------------------------- registration


def gate_claims() -> list[Claim]:
    """The suite's JAX model's gates: every claim here is of kind `implementation`; none is a
    statement of the documents."""
    src = f"{SEED001}, section 2.2"
    sizes = "d_model 8, 2 heads, T 16, batch 4, topk 4; float64; seeded standard-normal inputs; variants reference/circuit/fc x shared/split"
    return [
        Claim(
            "nac.model.omega_positive",
            f"{src}, eq. 16",
            "omega_tau = softplus(NN_backbone(u)) + eps > 0 for every pair, in every variant",
            sizes,
            Verdict.HOLDS,
            "softplus >= 0 and eps = 1e-6 > 0; in float64 softplus of a very negative input rounds to 0, leaving omega = eps",
            _omega_positive,
            "model",
            Kind.IMPLEMENTATION,
        ),
        Claim(
            "nac.model.exact_is_ode",
            f"{src}, eq. 1-3 and 17",
            "exact-mode logits equal the solution of da/dt = -omega a + phi, a(0) = 0, at the pair's pseudo-time; euler-mode logits equal explicit Euler iterates",
            sizes + f"; diffrax Tsit5 rtol {RTOL:g}, tolerance {ODE_TOL:g}; Euler dt = {DELTA_T}, {EULER_STEPS} steps",
            Verdict.HOLDS,
            "eq. 17 is the closed form of eq. 1 with frozen gates and a0 = 0; euler mode iterates eq. 2",
            _exact_is_ode,
            "model",
            Kind.IMPLEMENTATION,
        ),
        Claim(
            "nac.model.thm1",
            f"{SEED001}, Theorem 1, eq. 5",
            "model logits lie in [min(0, A), max(0, A)], A = phi/omega (exact, steady, and euler where dt*omega <= 1)",
            sizes + "; one connection per logit (M = 1)",
            Verdict.HOLDS,
            "exact: a = A(1 - e^{-omega t}) with 1 - e^{-omega t} in [0, 1); steady: a = A; Euler with dt*omega <= 1 is a convex combination of a and A",
            _thm1,
            "model",
            Kind.IMPLEMENTATION,
        ),
        Claim(
            "nac.model.euler_margin",
            f"{SEED001}, eq. 2 and Theorem 1; public defaults delta_t = 0.5, 5 steps (shared/reference)",
            "delta_t * max omega <= 1 over a batch, so Euler mode keeps Theorem 1's interval invariant, in every variant",
            sizes,
            Verdict.REFUTED,
            "the FC ablation's gate (one Glorot-initialised dense layer) reaches omega of 3-6 on standard-normal inputs, delta_t*omega > 1 (> 2: divergent iterates); "
            "the NCP variants stay below 1 (reference: omega = softplus(0) = 0.693 for every pair)",
            _euler_margin,
            "model",
            Kind.IMPLEMENTATION,
        ),
        Claim(
            "nac.model.gate_sensitivity",
            f"{src}, eq. 14-16",
            "phi(u) and omega(u) depend on the pair input u = [q; k]: the Jacobian is not identically zero, for every backbone variant",
            sizes + "; Jacobians through the literal Algorithm 1 iteration",
            Verdict.REFUTED,
            "the public implementation (variant reference) runs one cell step from a zero state: the input reaches only the inter neurons, "
            "the motor output is its bias, so phi and omega are constants (Jacobian exactly 0); circuit and fc depend on u",
            _gate_sensitivity,
            "model",
            Kind.IMPLEMENTATION,
        ),
        Claim(
            "nac.model.sharpness",
            f"{src}, eq. 17-18",
            "the largest attention weight is at most 1/(1 + (K-1) e^{L-U}) for the logit range [L, U] that the observed gate ranges imply",
            sizes,
            Verdict.HOLDS,
            "softmax over K logits in [L, U] is largest for one logit at U and the others at L; logits are monotone in phi, omega, t on the gate box",
            _sharpness,
            "model",
            Kind.IMPLEMENTATION,
        ),
    ]


add_provider(gate_claims)
