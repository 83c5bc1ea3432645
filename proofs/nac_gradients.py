"""NAC gradients: trajectory sensitivities of the closed form (001 Appendix C.1, eq.
45-47; 000 Appendix C.1.1, eq. 55-57).

    a_t = a* + (a0 - a*) e^{-omega t},  a* = phi/omega                         (45)
    d a_t / d phi   = (1 - e^{-omega t}) / omega                               (46)
    d a_t / d omega = -(phi/omega^2)(1 - e^{-omega t}) - (a0 - a*) t e^{-omega t}  (47)

001's extracted text of eq. 46 reads "1 - e^{-omega t} / omega"; it is a rendering of
the fraction 000 eq. 56 typesets as (1 - e^{-omega t}) / omega, which is what is checked.
"""

from sympy import Symbol, diff, exp, oo, symbols

from nacverify.symbolic import HOLDS, SEED001, AllOf, Identity, Limit, Obligation, Sign, Solve

t = Symbol("t", nonnegative=True)
t_pos = Symbol("t", positive=True)
x = Symbol("x", nonnegative=True)
omega = Symbol("omega", positive=True)
phi, a0 = symbols("phi a0", real=True)

a_star = phi / omega


def trajectory(t=t):
    """eq. 45."""
    return a_star + (a0 - a_star) * exp(-omega * t)


eq46 = (1 - exp(-omega * t)) / omega
eq47 = -phi / omega**2 * (1 - exp(-omega * t)) - (a0 - a_star) * t * exp(-omega * t)

OBLIGATIONS = [
    Obligation(
        "nac.grad.eq46",
        kind="as-printed",
        source=f"{SEED001}, eq. 46 (000: eq. 56)",
        follows="000 typesetting (same formula)",
        statement="d a_t / d phi = (1 - e^{-omega t}) / omega",
        check=Identity(diff(trajectory(), phi), eq46),
        expect=HOLDS,
        reason="differentiate eq. 45: a* depends on phi as 1/omega, the transient as -e^{-omega t}/omega",
    ),
    Obligation(
        "nac.grad.eq47",
        kind="as-printed",
        source=f"{SEED001}, eq. 47 (000: eq. 57)",
        statement="d a_t / d omega = -(phi/omega^2)(1 - e^{-omega t}) - (a0 - a*) t e^{-omega t}",
        check=Identity(diff(trajectory(), omega), eq47),
        expect=HOLDS,
        reason="product rule: -phi/omega^2 from a*, (a0 - a*)(-t) e^{-omega t} from the exponential",
    ),
    Obligation(
        "nac.grad.eq47.steady_limit",
        kind="as-printed",
        source=f"{SEED001}, interpretation after eq. 47 (000: after eq. 57)",
        statement="as t -> oo, d a_t / d omega -> -phi/omega^2 (the steady-state part persists)",
        check=Limit(eq47, t, oo, -phi / omega**2),
        expect=HOLDS,
        reason="the transient t e^{-omega t} vanishes for omega > 0",
    ),
    Obligation(
        "nac.grad.eq47.transient_peak",
        kind="reading", reading="'peaking before vanishing' read as: the transient factor t e^{-omega t} has its maximum at t = 1/omega",
        source=f"{SEED001}, interpretation after eq. 47 (000: after eq. 57)",
        statement="the transient factor t e^{-omega t} peaks at t = 1/omega ('peaking before vanishing')",
        check=AllOf(
            critical_point=Solve(diff(t * exp(-omega * t), t), 0, t, expected=1 / omega),
            maximum=Sign(diff(t * exp(-omega * t), t, 2).subs(t, 1 / omega), "<"),
        ),
        expect=HOLDS,
        reason="d/dt (t e^{-omega t}) = (1 - omega t) e^{-omega t} vanishes once, where the second derivative is negative",
    ),
    Obligation(
        "nac.grad.eq46.large_omega",
        kind="as-printed",
        source=f"{SEED001}, interpretation after eq. 46 (000: after eq. 56)",
        statement="for t > 0, omega * d a_t / d phi -> 1 as omega -> oo (the phi-gradient shrinks like 1/omega)",
        check=Limit(omega * eq46.subs(t, t_pos), omega, oo, 1),
        expect=HOLDS,
        reason="e^{-omega t} -> 0",
    ),
    Obligation(
        "nac.grad.eq46.bounded_by_t",
        kind="lemma",
        source=f"{SEED001}, interpretation after eq. 46 (000: after eq. 56)",
        statement="0 <= d a_t / d phi <= t for every omega > 0: at finite t a small omega does not blow up the phi-gradient (only the steady mode's 1/omega does)",
        check=AllOf(
            nonnegative=Sign(eq46, ">=", cases=[{exp(-omega * t): 1 / (1 + x)}]),
            gap=Identity(t - eq46, (omega * t - 1 + exp(-omega * t)) / omega),
            gap_sign=Sign(x - 1 + exp(-x), ">=", along=(x, 0)),
        ),
        expect=HOLDS,
        reason="t - (1 - e^{-x})/omega = (x - 1 + e^{-x})/omega with x = omega t >= 0, and x - 1 + e^{-x} >= 0 (zero at 0, nondecreasing)",
    ),
]
