"""NAC stability: Theorem 1 (state stability, 001 eq. 4-5 and B.2 eq. 33-41; 000 eq.
4-5 and B.2 eq. 43-51), its Euler version (001 eq. 36 / 000 eq. 46), and the
closed-form error results (001/000 eq. 6-12: Corollaries 1-3).

Single connection:     da/dt = -omega a + phi = -omega (a - A),  A = phi/omega
Multiple connections:  da/dt = -(sum_j f_j) a + sum_j f_j A_j,    f_j > 0
                       A = sum_j f_j A_j / sum_j f_j                (001 eq. 38)
Invariant interval:    [m, M] = [min(0, A_min), max(0, A_max)]      (eq. 4-5)
Euler map:             E(a) = a + dt (-omega a + phi) = (1 - dt omega) a + dt omega A

Case splits are written as substitutions with new signed symbols: "A = p, p >= 0"
and "A = -n, n > 0" cover the real line; e^{-omega t} = 1/(1 + u) with
u = e^{omega t} - 1 >= 0 expresses 0 < e^{-omega t} <= 1 for t >= 0.
"""

from sympy import Abs, Max, Min, Symbol, diff, exp, log, symbols

from nacverify.symbolic import (
    HOLDS, REFUTED, SEED001, AllOf, Identity, Inequality, Obligation, Sign, Solve, Within,
)

t = Symbol("t", nonnegative=True)
dt = Symbol("dt", positive=True)
omega = Symbol("omega", positive=True)
phi, a0, a, A = symbols("phi a0 a A", real=True)
p, u, alpha, beta, k, D_abs = symbols("p u alpha beta k D", nonnegative=True)
n, delta, D = symbols("n delta D", positive=True)
r = Symbol("r", nonnegative=True)
c = Symbol("c", positive=True)
m_, M_ = symbols("m M", real=True)
f1, f2, f3 = symbols("f1 f2 f3", positive=True)
A1, A2, A3 = symbols("A1 A2 A3", real=True)
d1, d2, e1, e2 = symbols("d1 d2 e1 e2", nonnegative=True)

SIGN_CASES = [{A: p}, {A: -n}]  # A >= 0 or A < 0


def euler(a, w=omega, equilibrium=A):
    """One explicit Euler step of da/dt = -omega (a - A) (001 eq. 36 / 000 eq. 46)."""
    return a + dt * (-w * (a - equilibrium))


def closed_form(w=omega, equilibrium=A, start=a0):
    return equilibrium + (start - equilibrium) * exp(-w * t)


# --- single connection -------------------------------------------------------------
m1, M1 = Min(0, A), Max(0, A)
rhs_at_M = -omega * (M1 - A)          # 001 eq. 34 / 000 eq. 44
rhs_at_m = -omega * (m1 - A)          # 001 eq. 35 / 000 eq. 45

# --- multiple connections (checked with three connections) ------------------------
fs, As = (f1, f2, f3), (A1, A2, A3)
omega3 = sum(fs)
A_eff = sum(f * Aj for f, Aj in zip(fs, As)) / omega3   # 001 eq. 38
ORDERED = {A2: A1 + d1, A3: A1 + d1 + d2}                       # A1 <= A2 <= A3 (w.l.o.g.)
M3 = Max(0, A3)
m3 = Min(0, A1)
TOP_CASES = [{A1: p - e1, A2: p - e2, A3: p}, {A1: -n - e1, A2: -n - e2, A3: -n}]   # A3 = A_max, sign of A_max
BOTTOM_CASES = [{A3: -n + e1, A2: -n + e2, A1: -n}, {A3: p + e1, A2: p + e2, A1: p}]  # A1 = A_min, sign of A_min

# --- Euler, two connections, for the necessity question --------------------------
two_omega = f1 + f2
two_A = (f1 * A1 + f2 * A2) / two_omega
two_m, two_M = Min(0, A1, A2), Max(0, A1, A2)


def _overshoot(E, lo, hi):
    """How far the images of the interval ends leave [lo, hi] (<= 0: invariant, E affine)."""
    return Max(E(lo) - hi, lo - E(lo), E(hi) - hi, lo - E(hi))


two_overshoot = _overshoot(lambda x: euler(x, two_omega, two_A), two_m, two_M)

OBLIGATIONS = [
    Obligation(
        "nac.thm1.single.inward_upper",
        kind="as-printed",
        source=f"{SEED001}, Theorem 1 proof, eq. 34 (000: eq. 44)",
        statement="at a = M = max(0, A) the vector field -omega (a - A) is <= 0",
        check=Sign(rhs_at_M, "<=", cases=SIGN_CASES),
        expect=HOLDS,
        reason="A >= 0: M = A and the field vanishes; A < 0: M = 0 and the field is omega A < 0",
    ),
    Obligation(
        "nac.thm1.single.inward_lower",
        kind="as-printed",
        source=f"{SEED001}, Theorem 1 proof, eq. 35 (000: eq. 45)",
        statement="at a = m = min(0, A) the vector field -omega (a - A) is >= 0",
        check=Sign(rhs_at_m, ">=", cases=SIGN_CASES),
        expect=HOLDS,
        reason="mirror image of the upper end",
    ),
    Obligation(
        "nac.thm1.single.between",
        kind="reading", reading="'converges monotonically ... without overshoot' (Remark 1) read as: a(t) stays between a0 and A for all t >= 0",
        source=f"{SEED001}, Theorem 1 eq. 5 and Remark 1 (000: eq. 5)",
        statement="the exact trajectory lies between a0 and A for all t >= 0: (a(t) - a0)(A - a(t)) >= 0, so [m, M] is invariant and there is no overshoot",
        check=Sign((closed_form() - a0) * (A - closed_form()), ">=", cases=[{exp(-omega * t): 1 / (1 + u)}]),
        expect=HOLDS,
        reason="a(t) = e^{-omega t} a0 + (1 - e^{-omega t}) A is a convex combination, and [m, M] contains a0 and A",
    ),
    Obligation(
        "nac.thm1.multi.eq37",
        kind="as-printed",
        source=f"{SEED001}, eq. 37 and eq. 40-41 (000: eq. 47, 50-51)",
        statement="-(sum f_j) a + sum f_j A_j = sum f_j (A_j - a) (three connections)",
        check=Identity(-omega3 * a + sum(f * Aj for f, Aj in zip(fs, As)), sum(f * (Aj - a) for f, Aj in zip(fs, As))),
        expect=HOLDS,
        reason="distributivity; this is the form eq. 40-41 evaluate at the interval ends",
    ),
    Obligation(
        "nac.thm1.multi.convex_equilibrium",
        kind="as-printed",
        source=f"{SEED001}, eq. 38-39 (000: eq. 48-49)",
        statement="A = sum f_j A_j / sum f_j lies in [A_min, A_max] (three connections, f_j > 0)",
        check=Within(A_eff, A1, A3, cases=[ORDERED]),
        expect=HOLDS,
        reason="the weights f_j / sum f_j are positive and sum to one",
        note="A1 <= A2 <= A3 without loss of generality (written A2 = A1 + d1, A3 = A2 + d2)",
    ),
    Obligation(
        "nac.thm1.multi.inward",
        kind="as-printed",
        source=f"{SEED001}, eq. 40-41 (000: eq. 50-51)",
        statement="sum f_j (A_j - M) <= 0 at M = max(0, A_max) and sum f_j (A_j - m) >= 0 at m = min(0, A_min) (three connections)",
        check=AllOf(
            upper=Sign(sum(f * (Aj - M3) for f, Aj in zip(fs, As)), "<=", cases=TOP_CASES),
            lower=Sign(sum(f * (Aj - m3) for f, Aj in zip(fs, As)), ">=", cases=BOTTOM_CASES),
        ),
        expect=HOLDS,
        reason="every A_j <= A_max <= M and >= A_min >= m",
        note="A3 = A_max (upper) and A1 = A_min (lower) without loss of generality",
    ),
    Obligation(
        "nac.thm1.euler.endpoints",
        kind="as-printed",
        source=f"{SEED001}, eq. 36 and the sentence after it (000: eq. 46)",
        statement="one Euler step from a = M stays <= M and one from a = m stays >= m, for every dt > 0",
        check=AllOf(
            upper=Sign(M1 - euler(M1), ">=", cases=SIGN_CASES),
            lower=Sign(euler(m1) - m1, ">=", cases=SIGN_CASES),
        ),
        expect=HOLDS,
        reason="the endpoint inferences of the proof are right; they do not control the step from the other end",
    ),
    Obligation(
        "nac.thm1.euler.all_steps",
        kind="as-printed",
        source=f"{SEED001}, eq. 36 and 'By induction over steps, a_t in [m, M] for all t' (000: eq. 46)",
        statement="for every dt > 0, a_n in [m, M] implies a_{n+1} = a_n + dt(-omega a_n + phi) in [m, M] (single connection)",
        check=Within(euler(a, omega, phi / omega), Min(0, phi / omega), Max(0, phi / omega),
                     where=lambda q: min(0, q["phi"] / q["omega"]) <= q["a"] <= max(0, q["phi"] / q["omega"])),
        expect=REFUTED,
        reason="the Euler map E(a) = (1 - dt omega) a + dt phi overshoots when dt omega > 1: from one end of [m, M] it jumps "
               "past the other (the proof only checks each end against its own bound)",
        note="a in [min(0, phi/omega), max(0, phi/omega)]",
    ),
    Obligation(
        "nac.thm1.euler.step_condition.single",
        kind="correction",
        source=f"{SEED001}, eq. 36 (000: eq. 46)",
        statement="for A = phi/omega != 0 the Euler map keeps [min(0, A), max(0, A)] invariant iff dt omega <= 1",
        check=AllOf(
            # E is affine, so [m, M] is invariant iff both ends are mapped into it. E(A) = A.
            fixed_end=Identity(euler(A), A),
            threshold_pos=Solve(euler(0, omega, n), n, dt, expected=1 / omega),
            increasing_pos=Sign(diff(euler(0, omega, n), dt), ">"),
            threshold_neg=Solve(euler(0, omega, -n), -n, dt, expected=1 / omega),
            decreasing_neg=Sign(diff(euler(0, omega, -n), dt), "<"),
        ),
        expect=HOLDS,
        reason="A > 0: E(0) = dt omega A <= A iff dt <= 1/omega (E(0) increases with dt); A < 0 mirrors it; the other end is fixed",
        note="A = n > 0 or A = -n < 0",
    ),
    Obligation(
        "nac.thm1.euler.step_condition.multi_sufficient",
        kind="correction",
        source=f"{SEED001}, eq. 36-41 (000: eq. 46-51)",
        statement="with omega = sum f_j (any number of connections), dt omega <= 1 keeps [m, M] invariant under the Euler map",
        check=AllOf(
            # a = m + alpha, A = m + beta (both in [m, M]); likewise a = M - alpha, A = M - beta
            lower_form=Identity(euler(m_ + alpha, omega, m_ + beta) - m_, (1 - dt * omega) * alpha + dt * omega * beta),
            upper_form=Identity(M_ - euler(M_ - alpha, omega, M_ - beta), (1 - dt * omega) * alpha + dt * omega * beta),
            # c = dt omega in (0, 1], written c = 1/(1 + r), r >= 0
            sign=Sign((1 - c) * alpha + c * beta, ">=", cases=[{c: 1 / (1 + r)}]),
        ),
        expect=HOLDS,
        reason="E(a) = (1 - c) a + c A with c = dt omega in (0, 1] is a convex combination of a and A, both in [m, M] "
               "(A by the convex-equilibrium obligation)",
    ),
    Obligation(
        "nac.thm1.euler.step_condition.multi_necessary",
        kind="lemma",
        source=f"{SEED001}, eq. 36-41 (000: eq. 46-51)",
        statement="with omega = sum f_j, every configuration with dt omega > 1 loses invariance of [m, M] under the Euler map (two connections)",
        check=Sign(two_overshoot, ">", where=lambda q: q["dt"] * (q["f1"] + q["f2"]) > 1,
                   hints=({f1: 1, f2: 1, A1: -1, A2: 1, dt: 0.9},)),
        expect=REFUTED,
        reason="dt omega <= 1 is only the worst case (A at an end of [m, M], as for one connection); with A inside, "
               "the exact condition is dt omega <= 1 + min((M - A)/(A - m), (A - m)/(M - A)) <= 2",
    ),
    Obligation(
        "nac.thm1.euler.step_condition.multi_exact",
        kind="lemma",
        source=f"{SEED001}, eq. 36-41 (000: eq. 46-51)",
        statement="for m < A < M: E(m) <= M iff dt omega <= 1 + (M - A)/(A - m), and E(M) >= m iff dt omega <= 1 + (A - m)/(M - A)",
        check=AllOf(
            from_m=Solve(euler(A - alpha - n), A + beta + n, dt, expected=(1 + (beta + n) / (alpha + n)) / omega),
            from_M=Solve(euler(A + beta + n), A - alpha - n, dt, expected=(1 + (alpha + n) / (beta + n)) / omega),
            m_increasing=Sign(diff(euler(A - alpha - n), dt), ">"),
            M_decreasing=Sign(diff(euler(A + beta + n), dt), "<"),
        ),
        expect=HOLDS,
        reason="E is affine with fixed point A and slope 1 - dt omega; solving each end's exit condition for dt",
        note="m = A - (alpha + n), M = A + (beta + n), alpha, beta >= 0, n > 0",
    ),
    # --- closed-form error (Section 2.1.2) -----------------------------------------
    Obligation(
        "nac.eq7.error_representation",
        kind="as-printed",
        source=f"{SEED001}, eq. 6-7 (000: same)",
        statement="eps_t = a_t - a* = (a0 - a*) e^{-omega t}",
        check=Identity(closed_form(omega, phi / omega) - phi / omega, (a0 - phi / omega) * exp(-omega * t)),
        expect=HOLDS,
        reason="subtract a* from eq. 3",
    ),
    Obligation(
        "nac.eq8.abs_error",
        kind="as-printed",
        source=f"{SEED001}, eq. 8 (000: same)",
        statement="|eps_t| = |a0 - a*| e^{-omega t}",
        check=Identity(Abs(closed_form(omega, phi / omega) - phi / omega), Abs(a0 - phi / omega) * exp(-omega * t)),
        expect=HOLDS,
        reason="e^{-omega t} > 0",
    ),
    Obligation(
        "nac.cor1.eq9",
        kind="as-printed",
        source=f"{SEED001}, Corollary 1, eq. 9 (000: same)",
        statement="for omega > 0 and t >= 0, |a_t - a*| <= |a0 - a*| e^{-omega t}",
        check=Inequality(Abs(closed_form(omega, phi / omega) - phi / omega), "<=", Abs(a0 - phi / omega) * exp(-omega * t)),
        expect=HOLDS,
        reason="equality by eq. 8",
    ),
    Obligation(
        "nac.cor2.eq10",
        kind="as-printed",
        source=f"{SEED001}, Corollary 2, eq. 10 (000: same)",
        statement="|a0 - a*| <= M0 implies |a_t - a*| <= M0 e^{-omega t}",
        check=Sign((D_abs + k) * exp(-omega * t) - D_abs * exp(-omega * t), ">="),
        expect=HOLDS,
        reason="with D = |a0 - a*| (eq. 8) and M0 = D + k, k >= 0, the difference is k e^{-omega t} >= 0",
        note="D = |a0 - a*|, M0 = D + k",
    ),
    Obligation(
        "nac.cor3.eq12",
        kind="as-printed",
        source=f"{SEED001}, Corollary 3, eq. 11-12 (000: same)",
        statement="|a0 - a*| e^{-omega t} = delta at t* = ln(|a0 - a*|/delta)/omega, and the error is <= delta for every t >= t*",
        check=AllOf(
            threshold=Solve(D * exp(-omega * t), delta, t, expected=log(D / delta) / omega),
            decreasing=Sign(diff(D * exp(-omega * t), t), "<"),
        ),
        expect=HOLDS,
        reason="the error decays strictly, so it stays below delta after first reaching it",
        note="D = |a0 - a*| > 0",
    ),
]
