"""NAC statements made in the running text (seeds 000 and 001), checked with SymPy: the remark
after Corollary 3, the time vector of Section 2.2, eq. 33 (001) / eq. 43 (000), the
steady-state derivatives announced in Appendix C.1, the two terms of eq. 47, the
triangle-inequality step of Theorem 3 (000) and the asymmetric score (000 eq. 58, 001 eq. 48).

    t*(omega, delta) = ln(D/delta) / omega,  D = |a0 - a*| > delta > 0          (eq. 12)
    t = sigma(t_a t_sample + t_b)                                              (Section 2.2)
    da/dt = -omega a + phi = -omega (a - A),  A = phi/omega                    (001 eq. 33)
    d a_t/d omega = -(phi/omega^2)(1 - e^{-omega t}) - (a0 - a*) t e^{-omega t}  (001 eq. 47)
    score penalty: e^{-d/13} - 1 (d < 0),  e^{d/10} - 1 (d >= 0),  d = yhat - y  (000 eq. 58)

Only statements that hold are here; the printed statements these facts refute (the remark's
'rate', the limit t_sample -> oo, 'the transient dominates', the time vector in [0, T]) are
numeric claims in nacverify.checks.nac_text_closed_forms, each with a counterexample evaluated there.
"""

from sympy import Symbol, diff, exp, log, oo, sqrt, symbols

from nacverify.symbolic import (
    HOLDS, REFUTED, SEED000, SEED001, AllOf, Identity, Limit, Obligation, Sign, Solve, Within,
)

omega = Symbol("omega", positive=True)
omega_nz = Symbol("omega", real=True, nonzero=True)
delta = Symbol("delta", positive=True)
D = Symbol("D", positive=True)
g = Symbol("g", positive=True)            # ln(D/delta) > 0, i.e. D > delta
ell = Symbol("ell", real=True)            # ln(1/delta), the accuracy level on a log scale
t = Symbol("t", nonnegative=True)
s = Symbol("s", positive=True)            # s = omega t > 0
x = Symbol("x", positive=True)            # error size |yhat - y| > 0
z = Symbol("z", real=True)
t_a = Symbol("t_a", positive=True)
t_a_neg = Symbol("t_a", negative=True)
t_b = Symbol("t_b", real=True)
t_sample = Symbol("t_sample", positive=True)
phi = Symbol("phi", real=True)
phi_pos = Symbol("phi", positive=True)    # phi = sigma(.) > 0 (eq. 15)
a, a0 = symbols("a a0", real=True)
p, q, k = symbols("p q k", nonnegative=True)


def sigmoid(v):
    return 1 / (1 + exp(-v))


t_star = log(D / delta) / omega                                      # eq. 12
a_t = lambda tt, w=omega, f=phi: f / w * (1 - exp(-w * tt))          # noqa: E731  eq. 17 (a0 = 0)
a_star = phi / omega
eq46 = (1 - exp(-omega * t)) / omega
eq47 = -phi / omega**2 * (1 - exp(-omega * t)) - (a0 - a_star) * t * exp(-omega * t)
transient = -(a0 - a_star) * t * exp(-omega * t)                     # the t e^{-omega t} term of eq. 47
steady_part = -phi / omega**2 * (1 - exp(-omega * t))

# |a_varying| <= C + |eps| with a_varying = a_frozen + eps, |a_frozen| <= C: a_frozen = +-p, eps = +-q, C = p + k
TRIANGLE_CASES = [{a: sa * p, z: sb * q} for sa in (1, -1) for sb in (1, -1)]

d_k = Symbol("d_k", positive=True)
late, actual = Symbol("late", nonnegative=True), Symbol("actual_rul", positive=True)  # late = predicted - actual RUL >= 0

OBLIGATIONS = [
    Obligation(
        "nac.score.phm2012_attribution",
        kind="as-printed",
        source=f"{SEED000}, Appendix D.3.4 (line 605), 'Score is a metric specifically designed for RUL estimation in the IEEE PHM "
               "(nectoux2012pronostia)', with eq. 58; {SEED001}, Appendix D.3.4 (line 2458), same words, with eq. 48; the IEEE PHM 2012 "
               "challenge (Nectoux et al. 2012) scores each bearing by A = exp(-ln(0.5) Er/5) for Er <= 0 and exp(ln(0.5) Er/20) for Er > 0, "
               "Er = 100 (ActRUL - predicted)/ActRUL, and averages A (higher is better)",
        statement="the score the documents print (eq. 58 / 48: a sum of e^(-d/13) - 1 over early and e^(d/10) - 1 over late predictions, d = "
                  "predicted - actual RUL) is the IEEE PHM 2012 challenge's: for a late prediction its per-bearing term equals the challenge's A",
        check=Identity(exp(late / 10) - 1, exp(log(2) * (-100 * late / actual) / 5), hints=({late: 10.0, actual: 100.0},)),
        expect=REFUTED,
        reason="at a perfect prediction the printed term is 0 (lower is better) and the challenge's A is 1 (higher is better); the printed "
               "formula is the PHM 2008 (C-MAPSS turbofan) score, not the PHM 2012 (PRONOSTIA) one",
        note="late = predicted - actual RUL >= 0, so Er = -100 late/actual <= 0 and A = exp(ln(2) Er/5)",
    ),
    Obligation(
        "nac.s1.scaling_by_key_dimension",
        kind="as-printed",
        source=f"{SEED000}, Section 1 (line 14), 'scaling by the key dimension to keep the gradients stable'; {SEED001}, Section 1 (line 68), "
               "same words; each document's own attention (000 Appendix A.2, eq. 21; 001 eq. 21) scales by sqrt(d_k)",
        statement="scaling the query-key similarity by the key dimension, q.k/d_k, is the scaling the documents' own attention uses, q.k/sqrt(d_k)",
        check=Identity(1 / d_k, 1 / sqrt(d_k), hints=({d_k: 4.0},)),
        expect=REFUTED,
        reason="1/d_k = 1/sqrt(d_k) only at d_k = 1: the scaled dot product divides by the square root of the key dimension (Vaswani et al. 2017 "
               "and the documents' own eq. 21)",
        note="d_k > 0",
    ),
    Obligation(
        "nac.cor3.remark.time_inverse_omega",
        kind="correction",
        source=f"{SEED001}, Section 2.1.2, Remark after Corollary 3, 'The convergence rate is inversely proportional to omega_tau' "
               f"(line 373; {SEED000}, line 98, same words), corrected: the required time t* of eq. 12, not the rate, is inversely "
               "proportional to omega ('rate', a technical word, replaced)",
        statement="omega * t*(omega, delta) does not depend on omega, t* = ln(|a0 - a*|/delta)/omega",
        check=Identity(diff(omega * t_star, omega), 0),
        expect=HOLDS,
        reason="omega t* = ln(D/delta); the printed word 'rate' is refuted separately (nac.cor3.remark.rate_as_printed): the rate is omega itself",
        note="D = |a0 - a*| > 0",
        over=(omega, D, delta),
    ),
    Obligation(
        "nac.cor3.remark.log_accuracy",
        kind="as-printed",
        source=f"{SEED001}, Remark after Corollary 3, 'the required time scales only logarithmically in the accuracy level 1/delta' "
               f"(line 373; {SEED000}, line 98)",
        statement="t* is affine in ln(1/delta) with slope 1/omega: with delta = e^{-ell}, d t*/d ell = 1/omega and d^2 t*/d ell^2 = 0",
        check=AllOf(
            slope=Identity(diff(t_star.subs(delta, exp(-ell)), ell), 1 / omega),
            affine=Identity(diff(t_star.subs(delta, exp(-ell)), ell, 2), 0),
        ),
        expect=HOLDS,
        reason="t* = (ln D + ln(1/delta))/omega",
        note="ell = ln(1/delta) real",
    ),
    Obligation(
        "nac.cor3.remark.faster_with_omega",
        kind="as-printed",
        source=f"{SEED000}, Remark after Corollary 3, 'a larger omega_tau accelerates contraction toward equilibrium, yielding faster "
               f"attainment of any prescribed tolerance' (line 98)",
        statement="for D = |a0 - a*| > delta > 0, d t*/d omega < 0: a larger omega reaches every tolerance delta sooner",
        check=Sign(diff(t_star, omega).subs(D, delta * exp(g)), "<"),
        expect=HOLDS,
        reason="d t*/d omega = -ln(D/delta)/omega^2 < 0 when D > delta",
        note="D = delta e^g with g > 0 (that is, D > delta)",
    ),
    Obligation(
        "nac.s22.time_vector.unit_interval",
        kind="as-printed",
        source=f"{SEED001}, Section 2.2, 'Time Vector': 'The resulting t_pseudo lies in [0, 1]' (line 559); {SEED000}, Section 2.2, "
               f"'t_sample is set to 1, resulting in t = sigma(t_a + t_b) in [0, 1]' (line 154)",
        statement="0 < sigma(t_a t_sample + t_b) < 1 for every real argument z = t_a t_sample + t_b, so the time vector lies in [0, 1] "
                  "(in fact in the open interval: 0 and 1 are never attained)",
        check=AllOf(
            bounds=Within(sigmoid(z), 0, 1, strict=(True, True)),
            sup=Limit(sigmoid(z), z, oo, 1),
            inf=Limit(sigmoid(z), z, -oo, 0),
        ),
        expect=HOLDS,
        reason="e^{-z} > 0, so 1 + e^{-z} > 1; the bound 1 does not depend on any horizon T (nac.s22.time_vector.horizon)",
    ),
    Obligation(
        "nac.s22.tsample_limit.value",
        kind="lemma",
        source=f"{SEED000}, Section 2.2, 'As t_sample -> oo, the trajectory converges to the steady state' (line 160) with the time "
               f"vector t = sigma(t_a t_sample + t_b) (line 154) and eq. 17",
        statement="with t = sigma(t_a t_sample + t_b), t_a > 0, the logit of eq. 17 tends to (phi/omega)(1 - e^{-omega}) as t_sample -> oo "
                  "(to 0 for t_a < 0), and the gap to phi/omega is (phi/omega) e^{-omega} > 0 for phi > 0",
        check=AllOf(
            limit_pos=Limit(a_t(sigmoid(t_a * t_sample + t_b)), t_sample, oo, phi / omega * (1 - exp(-omega))),
            limit_neg=Limit(a_t(sigmoid(t_a_neg * t_sample + t_b)), t_sample, oo, 0),
            gap=Sign(phi_pos / omega - a_t(1, omega, phi_pos), ">"),
        ),
        expect=HOLDS,
        reason="sigma(t_a t_sample + t_b) -> 1 (t_a > 0) or 0 (t_a < 0): the bounded time vector never lets e^{-omega t} vanish; "
               "the printed sentence is refuted in nac.s22.tsample_limit",
    ),
    Obligation(
        "nac.eq33.equilibrium_form",
        kind="as-printed",
        source=f"{SEED001}, Appendix B.2, Case 1, eq. 33, 'da/dt = -omega_tau a + phi = -omega_tau (a - A)', 'Here A is the unique "
               f"equilibrium' ({SEED000}: eq. 43)",
        statement="-omega a + phi = -omega (a - A) with A = phi/omega, and A is the only root of the right-hand side (omega != 0)",
        check=AllOf(
            factor=Identity(-omega_nz * a + phi, -omega_nz * (a - phi / omega_nz)),
            unique_root=Solve(-omega_nz * a + phi, 0, a, expected=phi / omega_nz),
        ),
        expect=HOLDS,
        reason="the right-hand side is affine in a with nonzero slope -omega",
    ),
    Obligation(
        "nac.c1.steady_derivatives",
        kind="lemma",
        source=f"{SEED001}, Appendix C.1 intro, 'we compute closed-form derivatives of both the steady state and the full trajectory a_t' "
               f"(line 1844; the steady-state ones are never printed); eq. 46-47",
        statement="d a*/d phi = 1/omega and d a*/d omega = -phi/omega^2 (a* = phi/omega), and they are the t -> oo limits of eq. 46 and eq. 47",
        check=AllOf(
            d_phi=Identity(diff(a_star, phi), 1 / omega),
            d_omega=Identity(diff(a_star, omega), -phi / omega**2),
            eq46_limit=Limit(eq46, t, oo, 1 / omega),
            eq47_limit=Limit(eq47, t, oo, -phi / omega**2),
        ),
        expect=HOLDS,
        reason="differentiate phi/omega; e^{-omega t} and t e^{-omega t} vanish as t -> oo for omega > 0",
    ),
    Obligation(
        "nac.eq47.transient_below_steady.a0_zero",
        kind="lemma",
        source=f"{SEED001}, Appendix C.1.1, interpretation after eq. 47, 'a transient term proportional to t e^{{-omega t}}, which "
               f"dominates at intermediate times' (line 1872), with NAC's a0 = 0 (eq. 17)",
        statement="transient / steady part of eq. 47 equals ((a0 - a*)/a*) s e^{-s}/(1 - e^{-s}), s = omega t; for a0 = 0 it is "
                  "-s/(e^s - 1), of modulus < 1 for every s > 0, so the transient never dominates",
        check=AllOf(
            ratio=Identity((transient / steady_part).subs(t, s / omega), ((a0 - a_star) / a_star) * s * exp(-s) / (1 - exp(-s))),
            a0_zero=Identity((transient / steady_part).subs({a0: 0, t: s / omega}), -s * exp(-s) / (1 - exp(-s))),
            below_one=Sign(exp(s) - 1 - s, ">", along=(s, 0)),
        ),
        expect=HOLDS,
        reason="s e^{-s} < 1 - e^{-s} is e^s > 1 + s; it dominates only where |a0 - a*|/|a*| > (e^s - 1)/s (> 1), which a0 = 0 never gives",
        note="s = omega t > 0; phi != 0 for the ratio (a* != 0)",
    ),
    Obligation(
        "nac.thm3.varying_bound.triangle",
        kind="as-printed",
        source=f"{SEED000}, Appendix B.1.2, proof of Theorem 3 after eq. 39, 'Hence |a_varying(s)| <= C + |eps(s)|' (line 391)",
        statement="a_varying = a_frozen + eps and |a_frozen| <= C imply |a_varying| <= C + |eps| (a = a_frozen, z = eps)",
        check=AllOf(
            above=Sign((p + k) + q - (a + z), ">=", cases=TRIANGLE_CASES),
            below=Sign((p + k) + q + (a + z), ">=", cases=TRIANGLE_CASES),
        ),
        expect=HOLDS,
        reason="triangle inequality with nac.thm3.eq39.frozen_bounded (|a_frozen| <= C)",
        note="|a_frozen| = p, |eps| = q, C = p + k with k >= 0; four sign cases of (a_frozen, eps)",
    ),
    Obligation(
        "nac.score.asymmetric",
        kind="as-printed",
        source=f"{SEED000}, Appendix D.3.4, Evaluation Metric, eq. 58, 'The scoring function is asymmetric, penalizing overestimations more "
               f"heavily than early predictions' (line 605); {SEED001}, eq. 48 (line 2460, same sentence)",
        statement="for every error size x > 0 the over-estimate penalty e^{x/10} - 1 exceeds the early penalty e^{x/13} - 1; both vanish at x = 0",
        check=AllOf(
            factor=Identity((exp(x / 10) - 1) - (exp(x / 13) - 1), exp(x / 13) * (exp(3 * x / 130) - 1)),
            factor_positive=Sign(exp(3 * x / 130) - 1, ">", along=(x, 0)),
            zero_at_0=Identity((exp(x / 10) - 1).subs(x, 0) - (exp(x / 13) - 1).subs(x, 0), 0),
            early_positive=Sign(exp(x / 13) - 1, ">", along=(x, 0)),
        ),
        expect=HOLDS,
        reason="e^{x/10} - e^{x/13} = e^{x/13}(e^{3x/130} - 1) > 0 for x > 0; both penalties are >= 0, so a lower score is better as Table 1's arrow says",
    ),
]

