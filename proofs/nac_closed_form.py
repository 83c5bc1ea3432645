"""NAC closed form (seed 001 eq. 1-3, 17, 18, 24-32; seed 000 same numbers).

    da/dt = -omega a + phi                                   (1)
    a_{n+1} = a_n + dt (-omega a_n + phi)                    (2)
    a(t) = a* + (a0 - a*) exp(-omega t),  a* = phi / omega   (3)
    a(t) = (phi / omega) (1 - exp(-omega t))   for a0 = 0    (17)
    a(t) -> phi / omega  as t -> oo                          (18)
    a(t) = a0 exp(-omega t) + (phi/omega)(1 - exp(-omega t)) (32)

Where the appendix derivations differ: 001 eq. 28 integrates from 0 to t, 000 eq. 28-29
integrate from 0 to T while keeping t on the right-hand side.
"""

from sympy import Abs, Integral, Symbol, exp, oo, symbols

from nacverify.symbolic import (
    HOLDS, REFUTED, SEED000, SEED001, AllOf, DSolve, Identity, Limit, Obligation, SolvesODE,
)

t = Symbol("t", nonnegative=True)
s = Symbol("s", nonnegative=True)
T = Symbol("T", positive=True)
dt = Symbol("dt", positive=True)
omega = Symbol("omega", positive=True)            # omega_tau > 0 (the NAC head, eq. 16)
omega_nz = Symbol("omega", real=True, nonzero=True)  # eq. 3 only needs omega != 0
omega_neg = Symbol("omega", negative=True)
omega_r = Symbol("omega", real=True)
phi, a0, a_n = symbols("phi a0 a_n", real=True)
d = Symbol("d", real=True, nonzero=True)          # offset a0 - a*, nonzero


def closed_form(w, t=t, a0=a0):
    """eq. 3: a(t) = a* + (a0 - a*) e^{-omega t}, a* = phi/omega."""
    a_star = phi / w
    return a_star + (a0 - a_star) * exp(-w * t)


def rhs(w):
    """eq. 1 right-hand side as a function of the state."""
    return lambda a: -w * a + phi


eq17 = phi / omega * (1 - exp(-omega * t))
eq32 = a0 * exp(-omega_nz * t) + phi / omega_nz * (1 - exp(-omega_nz * t))
euler_step = a_n + dt * (-omega * a_n + phi)       # eq. 2
exact_step = closed_form(omega, t=dt, a0=a_n)       # eq. 3 over one step of length dt

OBLIGATIONS = [
    Obligation(
        "nac.eq3.solves_eq1",
        kind="as-printed",
        source=f"{SEED001}, eq. 1 and eq. 3 (000: same numbers)",
        statement="a(t) = a* + (a0 - a*) e^{-omega t} satisfies da/dt = -omega a + phi and a(0) = a0",
        check=SolvesODE(closed_form(omega_nz), rhs(omega_nz), t, initial=(0, a0)),
        expect=HOLDS,
        reason="the integrating-factor derivation of B.1 is correct for every omega != 0 (frozen coefficients)",
    ),
    Obligation(
        "nac.eq3.dsolve",
        kind="as-printed",
        source=f"{SEED001}, eq. 24-32 (000: eq. 24-32)",
        statement="SymPy's dsolve of da/dt + omega a = phi, a(0) = a0 returns eq. 3",
        check=DSolve(rhs(omega_nz), t, (0, a0), expected=closed_form(omega_nz)),
        expect=HOLDS,
        reason="an independent solver reproduces the closed form",
    ),
    Obligation(
        "nac.eq17.a0_zero",
        kind="as-printed",
        source=f"{SEED001}, eq. 17 (000: eq. 17)",
        statement="eq. 3 with a0 = 0 is a(t) = (phi/omega)(1 - e^{-omega t})",
        check=Identity(closed_form(omega, a0=0), eq17),
        expect=HOLDS,
        reason="substitution a0 = 0 in eq. 3",
    ),
    Obligation(
        "nac.eq32.same_as_eq3",
        kind="as-printed",
        source=f"{SEED001}, eq. 32 and eq. 3 (000: same numbers)",
        statement="a0 e^{-omega t} + (phi/omega)(1 - e^{-omega t}) equals a* + (a0 - a*) e^{-omega t}",
        check=Identity(eq32, closed_form(omega_nz)),
        expect=HOLDS,
        reason="algebraic rearrangement",
    ),
    Obligation(
        "nac.eq29.integral_to_t",
        kind="as-printed",
        source=f"{SEED001}, eq. 28-29",
        follows="001",
        statement="int_0^t e^{omega s} ds = (e^{omega t} - 1)/omega",
        check=Identity(Integral(exp(omega * s), (s, 0, t)).doit(), (exp(omega * t) - 1) / omega),
        expect=HOLDS,
        reason="001 integrates from 0 to t, which is what the derivation needs",
    ),
    Obligation(
        "nac.eq29.integral_to_T_as_printed",
        kind="as-printed",
        source=f"{SEED000}, eq. 28-29",
        follows="000",
        statement="int_0^T e^{omega s} ds = (e^{omega t} - 1)/omega for t in [0, T] (000 as printed)",
        check=Identity(Integral(exp(omega * s), (s, 0, T)).doit(), (exp(omega * t) - 1) / omega,
                       where=lambda p: p["t"] <= p["T"]),
        expect=REFUTED,
        reason="000 writes the upper limit T but keeps t on the right; false whenever t != T "
               "(a typo: 001 eq. 28 integrates to t, and the closed form itself is right)",
    ),
    Obligation(
        "nac.eq28.integral_to_T_as_printed",
        kind="as-printed",
        source=f"{SEED000}, eq. 28, 'e^(omega t) a_t - e^0 a_0 = phi int_0^T e^(omega s) ds' (after 'Integrate from 0 to T')",
        follows="000",
        statement="e^{omega t} a_t - a_0 = phi int_0^T e^{omega s} ds along the solution a_t of eq. 1 (constant gates), for t in [0, T] (000 as printed)",
        check=Identity(exp(omega * t) * (a0 * exp(-omega * t) + phi / omega * (1 - exp(-omega * t))) - a0,
                       phi * Integral(exp(omega * s), (s, 0, T)).doit(), where=lambda p: p["t"] <= p["T"] and p["phi"] != 0),
        expect=REFUTED,
        reason="the left side is phi (e^{omega t} - 1)/omega, the right side phi (e^{omega T} - 1)/omega: false whenever t != T (the same "
               "upper-limit typo as eq. 29; 001 integrates to t)",
    ),
    Obligation(
        "nac.eq2.euler_step",
        kind="as-printed",
        source=f"{SEED001}, eq. 2 (000: eq. 2)",
        statement="a_{n+1} = a_n + dt(-omega a_n + phi) is a_n + dt f(a_n) for f the right-hand side of eq. 1",
        check=Identity(euler_step, a_n + dt * rhs(omega)(a_n)),
        expect=HOLDS,
        reason="definition of the explicit Euler step",
    ),
    Obligation(
        "nac.eq2.local_error",
        kind="lemma",
        source=f"{SEED001}, eq. 2 against eq. 3",
        statement="one Euler step differs from the exact flow by omega(omega a_n - phi) dt^2/2 + O(dt^3) (first order)",
        check=Limit((exact_step - euler_step) / dt**2, dt, 0, omega * (omega * a_n - phi) / 2),
        expect=HOLDS,
        reason="Taylor expansion of e^{-omega dt}: the Euler step is consistent of order one",
    ),
    Obligation(
        "nac.eq18.limit",
        kind="as-printed",
        source=f"{SEED001}, eq. 18 and Corollary 1 remark (000: eq. 18)",
        statement="for omega > 0, a(t) -> phi/omega as t -> oo",
        check=Limit(closed_form(omega), t, oo, phi / omega),
        expect=HOLDS,
        reason="e^{-omega t} -> 0 for omega > 0",
    ),
    Obligation(
        "nac.cor1.remark.omega_negative",
        kind="as-printed",
        source=f"{SEED001}, remark after Corollary 1 (000: same)",
        statement="for omega < 0 and a0 != a*, |a(t) - a*| -> oo (exponential growth away from a*)",
        check=Limit(Abs(closed_form(omega_neg, a0=phi / omega_neg + d) - phi / omega_neg), t, oo, oo),
        expect=HOLDS,
        reason="|a(t) - a*| = |a0 - a*| e^{|omega| t}",
        note="a0 = a* + d with d != 0",
    ),
    Obligation(
        "nac.cor1.remark.omega_zero",
        kind="as-printed",
        source=f"{SEED001}, remark after Corollary 1 (000: same)",
        statement="for omega = 0 the solution is a0 + phi t (linear in t), the omega -> 0 limit of eq. 3",
        check=AllOf(
            limit=Limit(closed_form(omega_r), omega_r, 0, a0 + phi * t, direction="+-"),
            ode=SolvesODE(a0 + phi * t, lambda a: phi, t, initial=(0, a0)),
        ),
        expect=HOLDS,
        reason="eq. 3 has a removable singularity at omega = 0; a' = phi integrates to a0 + phi t",
    ),
]
