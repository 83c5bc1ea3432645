"""The symbolic engine on statements whose truth is known by hand, and the mutation
tests of the issue: a deliberately wrong formula must be refuted, and its counterexample
must fail when re-evaluated by independent numerics (finite differences, plain floats)."""

import math

import mpmath
import pytest
import sympy as sp

from nacverify.claims import Verdict
from nacverify.symbolic import Finding, Identity, Inequality, Limit, Sign, Solve, Within
from nacverify.symbolic.search import SearchSpace, search

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", positive=True)
u = sp.Symbol("u", nonnegative=True)


def test_identity_holds_by_simplification():
    f = Identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1).run()
    assert f.verdict == Verdict.HOLDS
    assert not f.counterexample


def test_identity_refuted_with_a_point_that_fails_by_hand():
    f = Identity((x + 1) ** 2, x**2 + 1).run()
    assert f.verdict == Verdict.REFUTED
    v = f.counterexample["x"]
    assert (v + 1) ** 2 != pytest.approx(v**2 + 1)  # residual 2x: nonzero at the reported point


def test_refuted_finding_needs_a_counterexample():
    with pytest.raises(ValueError):
        Finding(Verdict.REFUTED, "no witness")


def test_sign_proves_and_refutes():
    assert Sign(x**2 + y, ">").run().verdict == Verdict.HOLDS
    f = Sign(y - 3, ">=").run()
    assert f.verdict == Verdict.REFUTED and f.counterexample["y"] < 3


def test_case_split_proves_a_max():
    A, p, n = sp.Symbol("A", real=True), sp.Symbol("p", nonnegative=True), sp.Symbol("n", positive=True)
    assert Sign(sp.Max(0, A) - A, ">=").run().verdict != Verdict.REFUTED
    assert Sign(sp.Max(0, A) - A, ">=", cases=[{A: p}, {A: -n}]).run().verdict == Verdict.HOLDS


def test_undecided_inequality_is_inconclusive_then_proved_along_a_variable():
    # log(1 + e^x) - sigmoid(x) > 0 is true; SymPy alone cannot decide it, the search finds nothing
    g = sp.log(1 + sp.exp(x)) - 1 / (1 + sp.exp(-x))
    plain = Sign(g, ">").run(samples=50)
    assert plain.verdict == Verdict.INCONCLUSIVE
    assert Sign(g, ">", along=(x, -sp.oo)).run().verdict == Verdict.HOLDS


def test_within_is_interval_reasoning():
    assert Within(1 / (1 + y), 0, 1, strict=(True, True)).run().verdict == Verdict.HOLDS
    f = Within(1 / (1 + y), 0, sp.Rational(1, 2)).run()
    assert f.verdict == Verdict.REFUTED and 1 / (1 + f.counterexample["y"]) > 0.5


def test_limit_and_its_numeric_cross_check():
    assert Limit(sp.sin(x) / x, x, 0, 1).run().verdict == Verdict.HOLDS
    d, delta = sp.symbols("d delta", positive=True)
    # SymPy evaluates this one-sided limit at the jump as the value on the other side; the check must not trust it
    f = Limit(sp.Heaviside(delta - d, 0) / (2 * delta), delta, d, expected=1 / (2 * d), direction="-").run()
    assert f.verdict == Verdict.INCONCLUSIVE


def test_solve_real_for_all():
    q = sp.Symbol("q", real=True)
    z = sp.Symbol("z")
    f = Solve(1 / (1 + sp.exp(-z)), q, z, real_for_all=True).run()
    assert f.verdict == Verdict.REFUTED
    assert not 0 < f.counterexample["q"] < 1  # outside the sigmoid's range: no real preimage


def test_search_is_reproducible_from_its_seed():
    g = sp.sin(3 * x) - sp.Rational(9, 10)
    space = SearchSpace((x,))
    first = search(g, ">= 0", space, seed=7, samples=100)
    again = search(g, ">= 0", space, seed=7, samples=100)
    assert first.point is not None and first.point == again.point and first.samples == again.samples
    assert math.sin(3 * first.point[x]) < 0.9


# --- mutation tests ------------------------------------------------------------------
t = sp.Symbol("t", nonnegative=True)
omega = sp.Symbol("omega", positive=True)
phi, a0 = sp.symbols("phi a0", real=True)
a_star = phi / omega
trajectory = a_star + (a0 - a_star) * sp.exp(-omega * t)
eq47 = -phi / omega**2 * (1 - sp.exp(-omega * t)) - (a0 - a_star) * t * sp.exp(-omega * t)
eq47_flipped = -phi / omega**2 * (1 - sp.exp(-omega * t)) + (a0 - a_star) * t * sp.exp(-omega * t)


def _d_trajectory_d_omega(a0v, omegav, phiv, tv):
    """Central finite difference of eq. 45 in omega (mpmath, 40 digits), independent of SymPy."""
    with mpmath.workdps(40):
        f = lambda w: phiv / w + (a0v - phiv / w) * mpmath.exp(-w * tv)  # noqa: E731
        return float(mpmath.diff(f, mpmath.mpf(omegav)))


def test_mutation_eq47_sign_flip_is_refuted_and_the_point_recomputes():
    assert Identity(sp.diff(trajectory, omega), eq47).run().verdict == Verdict.HOLDS
    f = Identity(sp.diff(trajectory, omega), eq47_flipped).run()
    assert f.verdict == Verdict.REFUTED
    cx = {k: float(v) for k, v in f.counterexample.items()}
    point = {"a0": 0.0, "phi": 0.0, "t": 0.0, **cx}
    fd = _d_trajectory_d_omega(point["a0"], point["omega"], point["phi"], point["t"])
    subs = {a0: point["a0"], omega: point["omega"], phi: point["phi"], t: point["t"]}
    assert abs(fd - float(eq47.subs(subs))) < 1e-9              # the paper's formula agrees with the finite difference
    assert abs(fd - float(eq47_flipped.subs(subs))) > 1e-6      # the mutant does not


tau, dt = sp.symbols("tau dt", positive=True)
f_ = sp.Symbol("f", nonnegative=True)
A, x_n, x_next = sp.symbols("A x_n x_next", real=True)
implicit = x_n + dt * (-(1 / tau + f_) * x_next + f_ * A)        # eq. 8 with x_{n+1} in the linear term
eq9 = (x_n + dt * f_ * A) / (1 + dt * (1 / tau + f_))


@pytest.mark.parametrize("denominator", [1 + dt * f_, 1 + dt * (1 / tau - f_), 1 + 1 / tau + f_])
def test_mutation_eq9_wrong_denominator_is_refuted_and_the_point_recomputes(denominator):
    assert Solve(x_next, implicit, x_next, expected=eq9).run().verdict == Verdict.HOLDS
    wrong = (x_n + dt * f_ * A) / denominator
    f = Solve(x_next, implicit, x_next, expected=wrong).run()
    assert f.verdict == Verdict.REFUTED
    c = {"A": 0.0, "x_n": 0.0, "f": 0.0, **{k: float(v) for k, v in f.counterexample.items()}}

    def fused_residual(xn1):  # x_{n+1} - (x_n + dt(-(1/tau + f) x_{n+1} + f A)), plain floats
        return xn1 - (c["x_n"] + c["dt"] * (-(1 / c["tau"] + c["f"]) * xn1 + c["f"] * c["A"]))

    right = (c["x_n"] + c["dt"] * c["f"] * c["A"]) / (1 + c["dt"] * (1 / c["tau"] + c["f"]))
    mutant = float(wrong.subs({A: c["A"], x_n: c["x_n"], f_: c["f"], tau: c["tau"], dt: c["dt"]}))
    assert abs(fused_residual(right)) < 1e-12
    assert abs(fused_residual(mutant)) > 1e-9


def test_inequality_is_a_sign_of_the_difference():
    assert Inequality(y, "<=", y + u).run().verdict == Verdict.HOLDS
    f = Inequality(y + 1, "<", y).run()
    assert f.verdict == Verdict.REFUTED
    assert set(f.counterexample) == {"y"}  # y cancels in rhs - lhs, but the statement is about y
    assert Sign(sp.Integer(-1), ">").run().counterexample == {"closed_statement": "-1 > 0"}
