r"""Corollaries 1-3 of seed 001 along diffrax trajectories, and the order of Euler (eq. 2).

With constant gates, $\varepsilon_t = a_t - a^*$ obeys $|\varepsilon_t| = |a_0 - a^*| e^{-\omega t}$
(001 eq. 8), so Corollary 1 (eq. 9) is an equality: the solver trajectory must match
the right-hand side to within the solver's own error. Corollary 2 (eq. 10) bounds
every start with $|a_0 - a^*| \le M$ by $M e^{-\omega t}$. Corollary 3 (eq. 11-12): the
first time with $|a_t - a^*| \le \delta$ is $t_\delta = \omega^{-1} \ln(|a_0 - a^*|/\delta)$.
Explicit Euler converges to the closed form (eq. 3) with global order 1.

Random draws cover bounded ranges; the edge grids (`EDGE_OMEGA`, `EDGE_PHI`, `EDGE_M`) re-check
points they never choose: gate values three orders of magnitude outside them, phi = 0 (a* = 0),
the equality case |a0 - a*| = M and a0 = a* of Corollary 2, and for Theorem 1
(``nac.thm1.continuous.edges``) both endpoints of [m, M], degenerate intervals, equal
per-connection equilibria and eight connections of mixed signs, plus log-uniform draws over the
wide ranges.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..regimes import ConstantCoefficients
from ..margins import solver_margin
from ..solvers import solve_ensemble
from .adversary import maximise
from .nac_stability import SEED001

SEED000 = "000_8dd0046228b94766.txt"

__all__ = ["corollary_claims", "euler_order", "cor2_edges", "thm1_edges"]

#: gate values and radii outside the random draws' ranges (omega in [0.05, 20], phi in [-3, 3], M in [0.01, 10])
EDGE_OMEGA = (1e-4, 1e-2, 1.0, 1e2, 1e3)
EDGE_PHI = (-1e3, -3.0, 0.0, 3.0, 1e3)
EDGE_M = (1e-9, 1.0, 1e6)
EDGE_SIDES = (-1.0, -0.5, 0.0, 0.5, 1.0)  # a0 = a* + side M: both ends are the equality case of eq. 10



def _draws(n: int, seed: int):
    rng = np.random.default_rng(seed)
    omega = np.exp(rng.uniform(np.log(0.05), np.log(20.0), n))
    phi = rng.uniform(-3, 3, n)
    a0 = rng.uniform(-5, 5, n)
    return phi, omega, a0


def _solve_pair(phi, omega, a0, ts, members=None):
    coeffs = ConstantCoefficients(jnp.asarray(phi), jnp.asarray(omega))
    first = solve_ensemble(coeffs, a0, ts, rtol=1e-10, atol=1e-12, members=members).ys
    tight = solve_ensemble(coeffs, a0, ts, rtol=1e-12, atol=1e-14, members=members).ys
    return first, solver_margin(first, tight, 1e-12, 1e-14)


def _cor1_check(ctx: CheckContext) -> Outcome:
    phi, omega, a0 = _draws(1000 if ctx.quick else 10_000, ctx.seed)
    ts = np.linspace(0.0, 5.0, 501)
    a, err = _solve_pair(phi, omega, a0, ts)
    a_star = phi / omega
    lhs = np.abs(a - a_star[:, None])
    rhs = np.abs(a0 - a_star)[:, None] * np.exp(-omega[:, None] * ts[None, :])
    excess = lhs - rhs
    worst = int(np.argmax(np.max(excess - err, axis=1)))
    scalars = {"draws": phi.size, "max_lhs_minus_rhs": float(excess.max()), "max_solver_error": float(err.max()),
               "max_abs_gap": float(np.abs(excess).max())}
    witness = {"phi": float(phi[worst]), "omega": float(omega[worst]), "a0": float(a0[worst])}
    if np.any(excess > err):
        return Outcome(Verdict.REFUTED, f"|a_t - a*| exceeds |a0 - a*| e^(-omega t) by {excess.max():.3g} beyond solver error", Evidence({}, scalars, witness))
    return Outcome(Verdict.HOLDS, f"equality (eq. 8) to within solver error: max gap {scalars['max_abs_gap']:.2g} <= {err.max():.2g}; {phi.size} draws",
                   Evidence({}, scalars, witness))


def _cor2_check(ctx: CheckContext) -> Outcome:
    n = 1000 if ctx.quick else 10_000
    rng = np.random.default_rng(ctx.seed + 11)
    phi, omega, _ = _draws(n, ctx.seed + 10)
    bound_M = np.exp(rng.uniform(np.log(0.01), np.log(10.0), n))
    a_star = phi / omega
    a0 = a_star + bound_M * rng.uniform(-1, 1, n)
    ts = np.linspace(0.0, 5.0, 501)
    a, err = _solve_pair(phi, omega, a0, ts)
    slack = bound_M[:, None] * np.exp(-omega[:, None] * ts) - np.abs(a - a_star[:, None])
    bound = bound_M[:, None] * np.exp(-omega[:, None] * ts)
    resolved = bound > 1e3 * err  # where the bound is far above the solver's error the ratio means something
    ratio = np.max(np.where(resolved, np.abs(a - a_star[:, None]) / bound, 0.0), axis=1)

    # adversary on the closed form: maximise |a_t - a*| / (M e^{-omega t}) over a0 in [a* - M, a* + M]
    # (skipped under --quick)
    starts = np.argsort(ratio)[-16:]
    k = int(starts[-1])
    adv_ratio, a0_adv, slack_adv, err_adv = float(ratio[k]), float(a0[k]), slack[k], err[k : k + 1]
    if not ctx.quick:
        theta0 = np.arctanh(np.clip((a0 - a_star)[starts] / bound_M[starts], -0.999, 0.999))[:, None]
        tsj = jnp.asarray(ts)

        def objective(theta, phi_, om_, m_):
            d0 = m_ * jnp.tanh(theta[0])
            return jnp.max(jnp.abs(d0 * jnp.exp(-om_ * tsj)) / (m_ * jnp.exp(-om_ * tsj)))

        res = maximise(objective, theta0, args=(phi[starts], omega[starts], bound_M[starts]), steps=40)
        k = int(starts[res.best])
        adv_ratio = float(res.value[res.best])
        a0_adv = a_star[k] + bound_M[k] * np.tanh(res.theta[res.best, 0])
        a_adv, err_adv = _solve_pair(phi[k : k + 1], omega[k : k + 1], np.array([a0_adv]), ts)
        slack_adv = bound_M[k] * np.exp(-omega[k] * ts) - np.abs(a_adv[0] - a_star[k])
    edges = cor2_edges(ts, members=n)  # solved as an ensemble of the draws' size: one compiled solve for both
    scalars = {"draws": n, "min_slack": float(slack.min()), "max_ratio": float(ratio.max()), "max_solver_error": float(err.max()),
               "adversary_ratio": adv_ratio, "adversary_min_slack": float(slack_adv.min()), "adversary": not ctx.quick,
               "edge_points": int(edges["omega"].size), "edge_max_excess_over_error": float(edges["excess_over_error"].max())}
    witness = {"phi": float(phi[k]), "omega": float(omega[k]), "M": float(bound_M[k]), "a0": float(a0_adv)}
    if edges["excess_over_error"].max() > 0:
        e = int(np.argmax(edges["excess_over_error"]))
        witness = {"phi": float(edges["phi"][e]), "omega": float(edges["omega"][e]), "M": float(edges["M"][e]),
                   "a0": float(edges["phi"][e] / edges["omega"][e] + edges["side"][e] * edges["M"][e])}
        return Outcome(Verdict.REFUTED, "an edge-grid trajectory exceeds M e^(-omega t) beyond solver error", Evidence({}, scalars, witness))
    if np.any(slack < -err) or np.any(slack_adv < -err_adv[0]):
        return Outcome(Verdict.REFUTED, "a trajectory exceeds M e^(-omega t) beyond solver error", Evidence({}, scalars, witness))
    how = "adversary reaches the bound's equality case |a0 - a*| = M" if not ctx.quick else "--quick: no adversarial search"
    return Outcome(Verdict.HOLDS, f"max |a_t - a*| / (M e^(-omega t)) = {max(ratio.max(), adv_ratio):.6g} ({how}); {n} draws and "
                   f"{edges['omega'].size} edge points (omega {EDGE_OMEGA}, phi {EDGE_PHI}, M {EDGE_M}, a0 = a* + s M for s in {EDGE_SIDES})",
                   Evidence({}, scalars, witness))


def cor2_edges(ts: np.ndarray, members: int | None = None) -> dict[str, np.ndarray]:
    """Corollary 2 on the edge grid: EDGE_OMEGA x EDGE_PHI x EDGE_M x EDGE_SIDES, each member solved twice (its
    solver error); slack = M e^(-omega t) - |a_t - a*| per member (min over t) and the member's parameters.
    `members`: the ensemble size to solve as (`solve_ensemble`; the grid's own size when None or smaller)."""
    grid = np.array(np.meshgrid(EDGE_OMEGA, EDGE_PHI, EDGE_M, EDGE_SIDES, indexing="ij")).reshape(4, -1)
    omega, phi, bound_M, side = grid
    a_star = phi / omega
    a, err = _solve_pair(phi, omega, a_star + side * bound_M, ts, members=members)
    slack = bound_M[:, None] * np.exp(-omega[:, None] * ts) - np.abs(a - a_star[:, None])
    return {"omega": omega, "phi": phi, "M": bound_M, "side": side, "slack": slack.min(axis=1), "excess_over_error": np.max(-slack - err, axis=1)}


def _cor3_check(ctx: CheckContext) -> Outcome:
    n = 500 if ctx.quick else 2_000
    rng = np.random.default_rng(ctx.seed + 20)
    phi, omega, a0 = _draws(n, ctx.seed + 21)
    a_star = phi / omega
    dist = np.abs(a0 - a_star)
    keep = dist > 1e-3
    phi, omega, a0, a_star, dist = phi[keep], omega[keep], a0[keep], a_star[keep], dist[keep]
    delta = dist * np.exp(-rng.uniform(0.5, 8.0, dist.size))  # between 0.6 and 3000 time constants... of accuracy
    t_pred = np.log(dist / delta) / omega  # eq. 12
    # dimensionless time s = omega t puts every member on one grid: solve da/ds = -(a - a*)
    s_grid = np.linspace(0.0, 9.0, 9_001)
    h = s_grid[1] - s_grid[0]
    coeffs = ConstantCoefficients(jnp.asarray(a_star), jnp.ones_like(jnp.asarray(a_star)))
    a = solve_ensemble(coeffs, a0, s_grid, rtol=1e-10, atol=1e-12).ys
    inside = np.abs(a - a_star[:, None]) <= delta[:, None]
    first = np.argmax(inside, axis=1)
    t_entry = s_grid[first] / omega
    # the entry lies in (s_{k-1}, s_k]; the solver's error shifts the crossing by about err / |a'| = err / delta
    err = 1e-9 * np.maximum(dist, 1.0)
    tol = (h + err / delta) / omega
    gap = t_entry - t_pred
    ok = (gap >= -tol) & (gap <= tol)
    worst = int(np.argmax(np.abs(gap) / tol))
    scalars = {"draws": int(dist.size), "max_gap_over_tolerance": float(np.max(np.abs(gap) / tol)), "grid_step_dimensionless": float(h)}
    witness = {"phi": float(phi[worst]), "omega": float(omega[worst]), "a0": float(a0[worst]), "delta": float(delta[worst]),
               "t_predicted": float(t_pred[worst]), "t_entry": float(t_entry[worst])}
    if ok.all():
        return Outcome(Verdict.HOLDS, f"first entry into the delta-tube equals eq. 12 to grid resolution (max |gap|/tol = {scalars['max_gap_over_tolerance']:.3g}); "
                       f"{dist.size} draws", Evidence({"t_predicted": t_pred, "t_entry": t_entry}, scalars, witness))
    return Outcome(Verdict.REFUTED, f"{int((~ok).sum())} draws enter the delta-tube away from eq. 12's time", Evidence({"t_predicted": t_pred, "t_entry": t_entry}, scalars, witness))


def euler_order(phi, omega, a0, T: float = 1.0, levels=range(4, 13)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global error at T of explicit Euler with n = 2^k steps against eq. 3, and the
    least-squares slope of log(error) over log(dt) on the finest 5 levels (the order)."""
    phi, omega, a0 = (np.atleast_1d(np.asarray(x, float)) for x in (phi, omega, a0))
    a_star = phi / omega
    exact = a_star + (a0 - a_star) * np.exp(-omega * T)
    dts, errors = [], []
    for k in levels:
        n = 2**k
        dt = T / n
        factor = 1 - dt * omega
        a_n = a_star + (a0 - a_star) * factor**n  # n Euler steps in closed form: a_{j+1} - a* = (1 - dt w)(a_j - a*)
        errors.append(np.abs(a_n - exact))
        dts.append(dt)
    dts, errors = np.array(dts), np.array(errors).T
    x = np.log(dts[-5:])
    slopes = np.array([np.polyfit(x, np.log(e[-5:]), 1)[0] for e in errors])
    return dts, errors, slopes


def _euler_order_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng(ctx.seed + 30)
    n = 64
    phi, omega, a0 = rng.uniform(-3, 3, n), np.exp(rng.uniform(np.log(0.1), np.log(10.0), n)), rng.uniform(-5, 5, n)
    dts, errors, slopes = euler_order(phi, omega, a0)
    # cross-check the closed-form iterate against literal iteration on one member
    from .nac_stability import euler_iterates

    literal = euler_iterates(a0[0], phi[0], omega[0], dts[-1], int(round(1 / dts[-1])))[-1]
    a_star = phi[0] / omega[0]
    closed = a_star + (a0[0] - a_star) * (1 - dts[-1] * omega[0]) ** int(round(1 / dts[-1]))
    scalars = {"min_order": float(slopes.min()), "max_order": float(slopes.max()), "mean_order": float(slopes.mean()),
               "literal_vs_closed_iterate": float(abs(literal - closed)), "draws": n}
    ev = Evidence({"dt": dts, "errors": errors, "orders": slopes}, scalars)
    if np.all(np.abs(slopes - 1) <= 0.05):
        return Outcome(Verdict.HOLDS, f"fitted order {slopes.min():.4f}..{slopes.max():.4f} (dt = 2^-8..2^-12, {n} draws)", ev)
    return Outcome(Verdict.REFUTED, f"fitted order {slopes.min():.3f}..{slopes.max():.3f} not within 0.05 of 1", ev)


def thm1_edges(seed: int, wide_draws: int = 2000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Theorem 1 configurations outside nac.thm1.continuous's draws: (f_omega, f_phi, a0), each (N, MAX_CONNECTIONS)
    masked by f_omega > 0, a0 (N,) at m, M or A. One connection on EDGE_OMEGA x EDGE_PHI; pairs with equal, opposite
    or zero A_j; eight connections of mixed signs and spread rates; then log-uniform f_omega in [1e-4, 1e3] and f_phi =
    +-10^u, u in [-4, 3], with 1..8 connections."""
    from .nac_stability import MAX_CONNECTIONS

    rows = [([w], [p]) for w in EDGE_OMEGA for p in EDGE_PHI]
    rows += [([1e-4, 1e3], [-3.0, 3.0]), ([1.0, 1.0], [3.0, 3.0]), ([1e-4, 1e-4], [0.0, 0.0]), ([1e3, 1e-4], [1e3, -1e3]),
             ([1e-2, 1e2], [1e-2, 1e2]), ([1e-4] * 7 + [1e3], [(-1.0) ** j * 1e3 for j in range(8)]),
             ([10.0 ** (j - 4) for j in range(8)], [(-1.0) ** j * 3.0 for j in range(8)])]
    rng = np.random.default_rng(seed + 40)
    for _ in range(wide_draws):
        c = int(rng.integers(1, MAX_CONNECTIONS + 1))
        rows.append((np.exp(rng.uniform(np.log(1e-4), np.log(1e3), c)).tolist(),
                     (rng.choice([-1.0, 1.0], c) * 10.0 ** rng.uniform(-4, 3, c)).tolist()))
    f_omega = np.zeros((len(rows), MAX_CONNECTIONS))
    f_phi = np.zeros_like(f_omega)
    for i, (w, p) in enumerate(rows):
        f_omega[i, : len(w)], f_phi[i, : len(p)] = w, p
    return f_omega, f_phi, f_omega > 0


def _thm1_edges_check(ctx: CheckContext) -> Outcome:
    from .nac_stability import CONTINUOUS_DRAWS, _interval, _trajectory_violation

    f_omega, f_phi, mask = thm1_edges(ctx.seed, 500 if ctx.quick else 2000)
    _, m, M = _interval(mask, f_omega, f_phi)
    phi, omega = f_phi.sum(1), f_omega.sum(1)
    members = [(phi, omega, a0, m, M) for a0 in (m, M, phi / omega)]  # both endpoints and the equilibrium A
    phi, omega, a0, m, M = (np.concatenate(parts) for parts in zip(*members))
    # solved as an ensemble of nac.thm1.continuous's size (copies of a member added): one compiled solve for both claims
    draws = CONTINUOUS_DRAWS[1] if ctx.quick else CONTINUOUS_DRAWS[0]
    excess, err = _trajectory_violation(phi, omega, a0, m, M, np.linspace(0.0, 10.0, 401), 1e-10, 1e-12, members=max(draws, phi.size))
    over = excess - err
    worst = int(np.argmax(over))
    scalars = {"members": int(phi.size), "configurations": int(f_omega.shape[0]), "max_excursion": float(excess.max()),
               "max_solver_error": float(err.max()), "max_excursion_over_error": float(over.max())}
    witness = {"phi": float(phi[worst]), "omega": float(omega[worst]), "a0": float(a0[worst]), "m": float(m[worst]), "M": float(M[worst])}
    msg = (f"{f_omega.shape[0]} configurations x a0 in {{m, M, A}}: max excursion beyond [m, M] {excess.max():.2g} "
           f"({'<=' if over.max() <= 0 else '>'} the solver error there)")
    return Outcome(Verdict.REFUTED if over.max() > 0 else Verdict.HOLDS, msg, Evidence({"excursion": excess, "solver_error": err}, scalars, witness))


def corollary_claims() -> list[Claim]:
    return [
        Claim("nac.cor1", f"{SEED001}, Corollary 1, eq. 6-9", "|a_t - a*| <= |a0 - a*| exp(-omega t) for omega > 0 (equality, eq. 8)",
              "constant gates, omega > 0", Verdict.HOLDS, "eq. 7 is the exact error; the bound is attained", _cor1_check, group="numeric", kind=Kind.AS_PRINTED),
        Claim("nac.cor2", f"{SEED001}, Corollary 2, eq. 10", "|a0 - a*| <= M implies |a_t - a*| <= M exp(-omega t), t in [0, 5]: at random draws "
              "(omega in [0.05, 20], phi in [-3, 3], M in [0.01, 10]), at an edge grid the draws never choose (omega 1e-4..1e3, phi -1e3..1e3 and "
              "0, M 1e-9..1e6, |a0 - a*| = M exactly and a0 = a*) and, in full runs, at an adversary's best start",
              "constant gates, omega > 0, M > 0", Verdict.HOLDS, "follows from eq. 8", _cor2_check, group="numeric", kind=Kind.AS_PRINTED),
        Claim("nac.thm1.continuous.edges", f"{SEED001}, Theorem 1, eq. 4-5 (proof B.2); {SEED000}, Theorem 1",
              "trajectories of da/dt = -omega a + phi from a0 in [m, M] stay in [m, M] at points nac.thm1.continuous's draws never choose: "
              "f_omega,j in 1e-4..1e3 and f_phi,j in -1e3..1e3 (the draws: [0.01, 10] and [-5, 5]), phi = 0 (degenerate [0, 0]), equal "
              "A_j, eight connections of mixed signs, a0 at m, at M and at A, plus 2000 log-uniform draws over those wide ranges",
              "f_omega,j > 0, any-sign f_phi,j, a0 in [m, M], gates constant in t, t in [0, 10]", Verdict.HOLDS,
              "inward-pointing derivative at both ends (B.2); true", _thm1_edges_check, group="numeric", kind=Kind.AS_PRINTED),
        Claim("nac.cor3", f"{SEED001}, Corollary 3, eq. 11-12", "the first time with |a_t - a*| <= delta is (1/omega) ln(|a0 - a*|/delta)",
              "constant gates, omega > 0, |a0 - a*| > delta > 0", Verdict.HOLDS, "|a_t - a*| decreases strictly (eq. 8)", _cor3_check, group="numeric", kind=Kind.AS_PRINTED),
        Claim("nac.euler.order", f"{SEED001}, eq. 2 against eq. 3", "explicit Euler converges to the closed form with order 1",
              "constant gates, omega > 0, dt -> 0", Verdict.HOLDS, "Euler is a first-order method", _euler_order_check, group="numeric", kind=Kind.LEMMA),
    ]


add_provider(corollary_claims)
