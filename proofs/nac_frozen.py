"""NAC frozen-coefficient error: Theorem 3 of seed 000 (B.1.2, eq. 33-42), step by step.

    da/dt = -omega(t) a + phi(t)                                     (33)
    |eps(t)| <= (L_phi + C L_omega) t^2 e^{L_omega t},  C = |a0| + |phi0|/omega0   (34)
    eps' = -omega0 eps + dphi(t) + domega(t) a_varying(t),
           dphi = phi - phi0, domega = omega0 - omega                 (36)
    eps(t) = int_0^T e^{-omega0 (t - s)} (dphi + domega a_varying) ds  (38, as printed)
    |eps(t)| <= int_0^T e^{-omega0(t-s)} (L_phi s + L_omega s (C + |eps(s)|)) ds  (40)
    |eps(t)| <= (L_phi + C L_omega) t^2 + L_omega int_0^T |eps(s)| ds              (41)

The printed integrals run to T where t is meant; except for the obligation that checks
eq. 38 as printed, the steps are read with upper limit t.

The sharper bound comes from the other way of writing the error equation,
eps' = -omega(t) eps + (phi - phi0) - (omega - omega0) a_frozen, whose forcing involves
the known |a_frozen| <= C instead of the unknown a_varying:
    |eps(t)| <= (L_phi + C L_omega) t^2 / 2.
"""

import itertools

from sympy import Abs, Function, Integral, Symbol, exp, integrate, symbols

from nacverify.symbolic import (
    HOLDS, REFUTED, SEED000, AllOf, Identity, Inequality, Limit, Obligation, Sign, SolvesODE,
)

t = Symbol("t", nonnegative=True)
s = Symbol("s", nonnegative=True)
h = Symbol("h", nonnegative=True)
T = Symbol("T", positive=True)
omega0 = Symbol("omega0", positive=True)
omega_t = Symbol("omega_t", positive=True)           # omega(t) > 0
phi0, phi_t, a_v, a_f = symbols("phi0 phi_t a_v a_f", real=True)
L_phi, L_omega, C, K, u, I = symbols("L_phi L_omega C K u I", nonnegative=True)
L = Symbol("L", positive=True)
x = Symbol("x", nonnegative=True)
g = Function("g")

# error dynamics at one instant: a_v' = -omega(t) a_v + phi(t), a_f' = -omega0 a_f + phi0
eps_dot = (-omega_t * a_v + phi_t) - (-omega0 * a_f + phi0)
eq36 = -omega0 * (a_v - a_f) + (phi_t - phi0) + (omega0 - omega_t) * a_v
frozen_form = -omega_t * (a_v - a_f) + (phi_t - phi0) - (omega_t - omega0) * a_f

# eq. 38 read with t, as the variation-of-constants formula for eps' = -omega0 eps + g
eps_formula = Integral(exp(-omega0 * (t - s)) * g(s), (s, 0, t))

# a concrete instance: phi(s) = phi0 + L_phi s, omega constant, so g(s) = L_phi s
eps_linear_true = integrate(exp(-omega0 * (t - s)) * L_phi * s, (s, 0, t))
eps_linear_printed = integrate(exp(-omega0 * (t - s)) * L_phi * s, (s, 0, T))

# eq. 39 with A0 = phi0/omega0: a_frozen(s) = a0 e + A0 (1 - e), e = e^{-omega0 s} = 1/(1 + u)
a0_, A0 = symbols("a0 A0", real=True)
C39 = Abs(a0_) + Abs(A0)
a_frozen_s = a0_ * exp(-omega0 * s) + A0 * (1 - exp(-omega0 * s))
_p, _q = symbols("p q", nonnegative=True)
SIGN_CASES_39 = [
    {a0_: sa * _p, A0: sb * _q, exp(-omega0 * s): 1 / (1 + u)} for sa, sb in itertools.product((1, -1), repeat=2)
]

# triangle-inequality cases for |dphi - domega a_f| <= L_phi s + L_omega s C:
#   |dphi| = D1 <= L_phi s, |domega| = D2 <= L_omega s, |a_f| = D3 <= C
D1, D2, D3, k1, k2, k3 = symbols("D1 D2 D3 k1 k2 k3", nonnegative=True)
bound_forcing = (D1 + k1) + (D2 + k2) * (D3 + k3)        # L_phi s = D1 + k1, L_omega s = D2 + k2, C = D3 + k3
SIGNED = [(sa * D1, sb * D2, sc * D3) for sa, sb, sc in itertools.product((1, -1), repeat=3)]
forcing = lambda dphi, domega, af: dphi - domega * af  # noqa: E731

# Gronwall comparison: u' = 2 K t + L u, u(0) = 0 is the extreme case u = K t^2 + L int_0^t u
u_star = 2 * K / L**2 * (exp(L * t) - 1 - L * t)
gronwall_gap = x**2 * exp(x) - 2 * (exp(x) - 1 - x)

OBLIGATIONS = [
    Obligation(
        "nac.thm3.eq36.error_dynamics",
        kind="as-printed",
        source=f"{SEED000}, Theorem 3 proof, eq. 35-36",
        follows="000",
        statement="eps' = -omega0 eps + dphi(t) + domega(t) a_varying(t), dphi = phi - phi0, domega = omega0 - omega",
        check=Identity(eps_dot, eq36),
        expect=HOLDS,
        reason="subtract eq. 35 from eq. 33 and add and subtract omega0 a_varying",
    ),
    Obligation(
        "nac.thm3.error_dynamics.frozen_form",
        kind="lemma",
        source=f"{SEED000}, Theorem 3 (equivalent form of eq. 36)",
        statement="eps' = -omega(t) eps + (phi - phi0) - (omega - omega0) a_frozen",
        check=Identity(eps_dot, frozen_form),
        expect=HOLDS,
        reason="add and subtract omega(t) a_frozen instead: the forcing then involves only the known frozen solution",
    ),
    Obligation(
        "nac.thm3.eq38.variation_of_constants",
        kind="correction",
        source=f"{SEED000}, Theorem 3 proof, eq. 37-38, corrected: the printed upper limit T replaced by t (a symbol changed, so a correction)",
        statement="eps(t) = int_0^t e^{-omega0 (t - s)} g(s) ds solves eps' = -omega0 eps + g, eps(0) = 0",
        check=SolvesODE(eps_formula, lambda e: -omega0 * e + g(t), t, initial=(0, 0)),
        expect=HOLDS,
        reason="integrating factor e^{omega0 t}, integrated from 0 to t",
    ),
    Obligation(
        "nac.thm3.eq38.as_printed",
        kind="as-printed",
        source=f"{SEED000}, Theorem 3 proof, eq. 38",
        follows="000",
        statement="eps(t) = int_0^T e^{-omega0 (t - s)} g(s) ds for t in [0, T] (as printed), for phi = phi0 + L_phi s, omega constant",
        check=Identity(eps_linear_printed, eps_linear_true, where=lambda q: q["t"] <= q["T"] and q["L_phi"] > 0),
        expect=REFUTED,
        reason="integrating to T instead of t is a typo (eq. 38 does not even vanish at t = 0); read with t, eq. 38 holds",
    ),
    Obligation(
        "nac.thm3.eq39.frozen_bounded",
        kind="as-printed",
        source=f"{SEED000}, Theorem 3 proof, eq. 39 and the sentence after it",
        statement="|a_frozen(s)| <= C = |a0| + |phi0|/omega0 for all s >= 0",
        check=AllOf(
            below=Sign(C39 - a_frozen_s, ">=", cases=SIGN_CASES_39),
            above=Sign(C39 + a_frozen_s, ">=", cases=SIGN_CASES_39),
        ),
        expect=HOLDS,
        reason="a_frozen is a convex combination of a0 and phi0/omega0 (weight e^{-omega0 s} in (0, 1])",
        note="A0 = phi0/omega0; four sign cases of (a0, A0); e^{-omega0 s} = 1/(1 + u), u >= 0",
    ),
    Obligation(
        "nac.thm3.step40_41.kernel",
        kind="as-printed",
        source=f"{SEED000}, Theorem 3 proof, 'Since e^{{-omega0 (t - s)}} <= 1'",
        statement="e^{-omega0 (t - s)} <= 1 for 0 <= s <= t",
        check=Sign(1 - exp(-omega0 * h), ">=", along=(h, 0)),
        expect=HOLDS,
        reason="h = t - s >= 0; 1 - e^{-omega0 h} vanishes at h = 0 and increases",
        note="h = t - s >= 0",
    ),
    Obligation(
        "nac.thm3.step40_41.first_term",
        kind="correction",
        source=f"{SEED000}, Theorem 3 proof, eq. 40 -> 41 (first term), corrected: the printed upper limit T replaced by t",
        statement="int_0^t (L_phi + C L_omega) s ds = (L_phi + C L_omega) t^2/2 <= (L_phi + C L_omega) t^2",
        check=AllOf(
            integral=Identity(integrate((L_phi + C * L_omega) * s, (s, 0, t)), (L_phi + C * L_omega) * t**2 / 2),
            loose=Inequality((L_phi + C * L_omega) * t**2 / 2, "<=", (L_phi + C * L_omega) * t**2),
        ),
        expect=HOLDS,
        reason="true but loose by a factor 2 (int_0^t s ds = t^2/2)",
    ),
    Obligation(
        "nac.thm3.step40_41.second_term",
        kind="as-printed",
        source=f"{SEED000}, Theorem 3 proof, eq. 40 -> 41 (second term), 'Since e^{{-omega0 (t - s)}} <= 1'",
        statement="L_omega int_0^t s |eps(s)| ds <= L_omega int_0^t |eps(s)| ds, the step that drops the factor s (the same with the printed upper "
                  "limit T), tested on an error growing like |eps(s)| = K s^2 (the shape of the true error)",
        check=Inequality(L_omega * integrate(s * K * s**2, (s, 0, t)), "<=", L_omega * integrate(K * s**2, (s, 0, t)),
                         where=lambda q: q["L_omega"] > 0 and q["K"] > 0),
        expect=REFUTED,
        reason="the step drops the factor s (the kernel bound e^{-omega0(t-s)} <= 1 does not remove it); for the profile K s^2 it "
               "compares K t^4/4 with K t^3/3, so it fails exactly for t > 4/3 (NAC's pseudo-time lies in (0, 1), where it is "
               "harmless); eq. 41 itself stays true by the sharper bound",
        note="error profile K s^2, K > 0",
    ),
    Obligation(
        "nac.thm3.gronwall_41_42",
        kind="correction",
        source=f"{SEED000}, Theorem 3 proof, eq. 41 -> 42 (Gronwall), corrected: the upper limit of eq. 41's integral T replaced by t (Gronwall form u(t) <= K t^2 + L int_0^t u)",
        statement="u(t) <= K t^2 + L int_0^t u implies u(t) <= K t^2 e^{L t}: the extreme case u = (2K/L^2)(e^{Lt} - 1 - Lt) stays below K t^2 e^{Lt}",
        check=AllOf(
            extreme_case=SolvesODE(u_star, lambda v: 2 * K * t + L * v, t, initial=(0, 0)),
            gap=Identity(K * t**2 * exp(L * t) - u_star, K / L**2 * gronwall_gap.subs(x, L * t)),
            gap_sign=Sign(gronwall_gap, ">=", along=(x, 0)),
        ),
        expect=HOLDS,
        reason="Gronwall's inequality with the nondecreasing forcing K t^2; x^2 e^x - 2(e^x - 1 - x) >= 0 (zero with its first derivative at 0, second derivative (x^2 + 4x) e^x >= 0)",
    ),
    Obligation(
        "nac.thm3.sharp",
        kind="lemma",
        source=f"{SEED000}, Theorem 3, eq. 33-36 (sharper form)",
        statement="|eps(t)| <= (L_phi + C L_omega) t^2 / 2, and the constant 1/2 is attained in the limit omega -> 0",
        check=AllOf(
            # eps(t) = int_0^t e^{-int_s^t omega} (dphi(s) - domega(s) a_frozen(s)) ds with int_s^t omega = I >= 0
            kernel=Sign(1 - exp(-I), ">=", along=(I, 0)),
            triangle=AllOf(**{
                f"case{i}_{side}": Sign(bound_forcing - sign * forcing(*signed), ">=")
                for i, signed in enumerate(SIGNED) for side, sign in (("upper", 1), ("lower", -1))
            }),
            integral=Identity(integrate((L_phi + C * L_omega) * s, (s, 0, t)), (L_phi + C * L_omega) * t**2 / 2),
            attained=Limit(eps_linear_true / (L_phi * t**2 / 2), omega0, 0, 1),
        ),
        expect=HOLDS,
        reason="variation of constants on the frozen form: kernel <= 1 (omega > 0), forcing <= (L_phi + C L_omega) s by the triangle "
               "inequality and |a_frozen| <= C; phi = phi0 + L_phi s with omega -> 0 attains t^2/2",
        note="|dphi| <= L_phi s, |domega| <= L_omega s, |a_frozen| <= C written as L_phi s = D1 + k1, L_omega s = D2 + k2, C = D3 + k3",
    ),
    Obligation(
        "nac.thm3.eq34",
        kind="lemma",
        source=f"{SEED000}, Theorem 3, eq. 34",
        statement="(L_phi + C L_omega) t^2 / 2 <= (L_phi + C L_omega) t^2 e^{L_omega t}, so eq. 34 follows from the sharper bound",
        check=Inequality((L_phi + C * L_omega) * t**2 / 2, "<=", (L_phi + C * L_omega) * t**2 * exp(L_omega * t),
                         cases=[{exp(L_omega * t): 1 + u}]),
        expect=HOLDS,
        reason="e^{L_omega t} >= 1 > 1/2; the theorem is true although steps of its printed proof are not",
        note="e^{L_omega t} = 1 + u, u >= 0",
    ),
]
