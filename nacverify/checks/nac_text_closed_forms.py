r"""Statements of the NAC running text (seeds 000 and 001) checked on their closed forms.

Each refutation keeps its witness, evaluated here in plain floats:

* ``nac.cor3.remark.rate_as_printed``: the decay rate of $|\varepsilon_t| = D e^{-\omega t}$ is
  $-\frac{d}{dt}\ln|\varepsilon_t| = \omega$, proportional to $\omega$, not inversely proportional.
* ``nac.s22.time_vector.horizon``: $t = \sigma(\cdot) \in (0, 1)$, so $t \in [0, T]$ fails for $T < 1$.
* ``nac.s22.tsample_limit``: with the time vector $t = \sigma(t_a t_{sample} + t_b)$, $a_t$ of eq. 17
  tends to $(\phi/\omega)(1 - e^{-\omega})$ (not $\phi/\omega$) as $t_{sample} \to \infty$.
* ``nac.eq47.interp.transient_dominates``: for $a_0 = 0$, $|T|/|S| = s/(e^s - 1) < 1$, $s = \omega t$.
"""

from __future__ import annotations

import math

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._nac_text import SEED000, SEED001

__all__ = ["closed_form_claims"]


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


# --------------------------------------------------------------------------- registry
def closed_form_claims() -> list[Claim]:
    """Text statements decided on closed forms (group 'numeric')."""
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
    return c


add_provider(closed_form_claims)
