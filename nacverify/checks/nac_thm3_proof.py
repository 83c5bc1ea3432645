r"""The proof of Theorem 3 (seed 000, Appendix B.1.2) step by step on the regime families.

Claims ``nac.thm3.lipschitz_increments*``, ``nac.thm3.varying_bound.regimes`` and
``nac.thm3.eq40.*`` on the regime families of `nacverify.regimes` (default members and seeded
sweeps): the Lipschitz increments, $|a_{varying}| \le C + |\varepsilon|$ and eq. 40 with its
printed upper limit $T$ and with $t$ (quadrature on the solver grid, its error estimated by
halving the grid).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..margins import solver_margin
from ..odes import frozen_solution
from ..regimes import named_regime, sample_regime
from ..run.shared_work import cached
from ..solvers import solve_ensemble
from ._nac_text import SEED000

__all__ = ["thm3_proof_claims"]

LIPSCHITZ_REGIMES = ("slow", "fast", "oscillatory")


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


def _solve(regime, t, members=None):
    a0 = regime.params["a0"]
    first = solve_ensemble(regime.coefficients, a0, t, rtol=1e-10, atol=1e-12, members=members).ys
    tight = solve_ensemble(regime.coefficients, a0, t, rtol=1e-12, atol=1e-14, members=members).ys
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
    regimes = list(_regimes(ctx))
    members = max(regime.size for _, _, regime in regimes)  # every ensemble solved at the largest size: one compiled solve
    for name, which, regime in regimes:
        t = np.linspace(0.0, regime.T, 2001)
        a_var, a_frz, margin = _solve(regime, t, members=members)
        runs.append((name, which, regime, t, a_var, a_frz, margin))
    return runs


_THM3_CACHE: dict = {}


def _cached_thm3(ctx: CheckContext):
    return cached(_THM3_CACHE, (ctx.seed, ctx.quick), lambda: _thm3_runs(ctx), "nac.thm3.ensemble_solves")


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


# --------------------------------------------------------------------------- registry
def thm3_proof_claims() -> list[Claim]:
    """The steps of Theorem 3's proof (group 'numeric')."""
    c = []
    add = lambda *a, **k: c.append(Claim(*a, **k))  # noqa: E731
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
        f"{SEED000}, Appendix B.1.2, eq. 40 (line 393), corrected: the printed upper limit T replaced by t",
        "|eps(t)| <= int_0^t e^{-omega0 (t - s)} (L_phi s + L_omega s (C + |eps(s)|)) ds for t in (0, T]",
        "slow, fast, oscillatory families; |eps| from the solver; quadrature by trapezoid", Verdict.HOLDS,
        "eq. 38 (with t), |dphi| <= L_phi s, |domega| <= L_omega s and |a_varying| <= C + |eps|", _eq40_check("t"), group="numeric",
        kind=Kind.CORRECTION)
    return c


add_provider(thm3_proof_claims)
