"""Tests that kill mutants of the symbolic obligation builders (tools/mutate.py, target ``symbolic``):
nacverify/symbolic/obligation.py and checks.py. Expected values are written by hand: an ODE whose
solution is known in closed form, symbols with stated assumptions, a small obligation's claim."""

from __future__ import annotations

import sympy as sp

from nacverify.claims import CheckContext, Kind, Verdict
from nacverify.symbolic.checks import DSolve, Identity, Limit, Sign, Solve, SolvesODE
from nacverify.symbolic.obligation import Obligation, describe_symbol

t = sp.Symbol("t", nonnegative=True)
k = sp.Symbol("k", positive=True)
a0 = sp.Symbol("a0", real=True)


def test_dsolve_of_a_pure_decay():
    # a' = -k a, a(0) = a0  ->  a(t) = a0 e^(-k t)
    good = DSolve(lambda a: -k * a, t, (0, a0), a0 * sp.exp(-k * t)).run()
    assert good.verdict == Verdict.HOLDS
    assert good.message.startswith("dsolve gives a(t) = a0*exp(-k*t); residual lhs - rhs simplifies to 0")
    assert good.expressions == {"ode": "Eq(Derivative(a(t), t), -k*a(t))", "dsolve": "a0*exp(-k*t)", "expected": "a0*exp(-k*t)"}
    assert good.methods[0] == "dsolve" and "residual simplification" in good.methods
    bad = DSolve(lambda a: -k * a, t, (0, a0), a0 * sp.exp(-2 * k * t)).run()
    assert bad.verdict == Verdict.REFUTED
    # the witness: a point where a0 e^(-k t) != a0 e^(-2 k t), i.e. a0 != 0 and k t > 0
    cx = bad.counterexample
    assert cx["a0"] != 0 and cx["k"] * cx["t"] > 0
    assert DSolve(lambda a: -k * a, t, (0, a0), a0).symbols() == {k, t, a0}


def test_symbols_and_domains_of_checks():
    x = sp.Symbol("x", positive=True)
    lim = Limit(sp.sin(x * k) / x, x, 0, k)
    assert lim.symbols() == {x, k}
    assert lim.run().verdict == Verdict.HOLDS
    s = Sign(a0**2 + k, ">", intervals={k: (0.5, 2.0), a0: (-1.0, 1.0)})
    assert s.domain() == {"k": (0.5, 2.0), "a0": (-1.0, 1.0)}
    assert Identity(a0, a0).domain() == {}
    ode = SolvesODE(a0 * sp.exp(-k * t), lambda a: -k * a, t, (0, a0), {k: (1.0, 3.0)})
    assert ode.symbols() == {a0, k, t} and ode.run().verdict == Verdict.HOLDS


def test_describe_symbol():
    cases = {
        sp.Symbol("n", integer=True, positive=True): "integer > 0",
        sp.Symbol("p", positive=True): "> 0",
        sp.Symbol("q", nonnegative=True): ">= 0",
        sp.Symbol("r", negative=True): "< 0",
        sp.Symbol("s", nonpositive=True): "<= 0",
        sp.Symbol("u", real=True, nonzero=True): "real, != 0",
        sp.Symbol("v", real=True): "real",
        sp.Symbol("w"): "complex",
        sp.Symbol("m", integer=True): "integer real",  # an integer is real: both facts
    }
    for sym, words in cases.items():
        assert describe_symbol(sym) == words, sym


def test_obligation_symbols_assumptions_and_claim():
    n = sp.Symbol("n", integer=True, positive=True)
    ob = Obligation("test.decay", "002_x.txt eq. 1", "a0 e^(-k t) solves a' = -k a",
                    SolvesODE(a0 * sp.exp(-k * t), lambda a: -k * a, t, (0, a0), {k: (1.0, 3.0)}),
                    Verdict.HOLDS, "a closed form", follows="000", note="t in the window", over=(n,), kind="lemma")
    assert ob.symbols() == {"a0": "real", "k": "> 0, in [1.0, 3.0]", "n": "integer > 0", "t": ">= 0"}
    assert ob.assumptions() == "a0: real; k: > 0, in [1.0, 3.0]; n: integer > 0; t: >= 0; t in the window"
    claim = ob.claim()
    assert claim.id == "test.decay" and claim.source == "002_x.txt eq. 1 (follows 000)"
    assert claim.statement == "a0 e^(-k t) solves a' = -k a" and claim.expected == Verdict.HOLDS
    assert claim.expected_reason == "a closed form" and claim.group == "symbolic" and claim.kind == Kind.LEMMA
    assert claim.assumptions == ob.assumptions()
    out = ob.outcome(CheckContext(seed=3, options={"samples": 50}))
    assert out.verdict == Verdict.HOLDS
    plain = Obligation("test.plain", "src", "s", Identity(a0, a0), Verdict.HOLDS, "r")
    assert plain.claim().source == "src" and plain.claim().kind is None and plain.assumptions() == "a0: real"
    assert plain.run(seed=1, samples=10).verdict == Verdict.HOLDS


x = sp.Symbol("x", positive=True)
c = sp.Symbol("c", positive=True)


def test_identity_findings_carry_their_evidence():
    held = Identity((a0 + 1) ** 2, a0**2 + 2 * a0 + 1).run()
    assert held.verdict == Verdict.HOLDS and held.methods == ("residual simplification",)
    assert held.message == "residual lhs - rhs simplifies to 0 (expand)"
    bad = Identity(k * (t + 1), k * t + 2 * k).run(seed=4, samples=200)
    assert bad.verdict == Verdict.REFUTED and bad.methods == ("residual simplification", "numeric search")
    # re-evaluated here: the residual k (t + 1) - (k t + 2 k) = -k at the witness
    kk, tt = bad.counterexample["k"], bad.counterexample["t"]
    assert float(bad.values["lhs"]) == float(kk * (tt + 1)) or abs(float(bad.values["lhs"]) - kk * (tt + 1)) < 1e-9 * (1 + kk * (tt + 1))
    assert abs(float(bad.values["residual"]) + kk) < 1e-9 * (1 + kk)
    assert bad.scalars["search_seed"] == 4


def test_solve_findings_carry_their_evidence():
    one = Solve(k * x, c, x, c / k).run()
    assert one.verdict == Verdict.HOLDS and one.methods == ("solve",)
    assert one.expressions == {"equation": "Eq(k*x, c)", "solutions": "[c/k]", "expected": "c/k"}
    y = sp.Symbol("y", real=True)
    many = Solve(y**2, c, y, sp.sqrt(c)).run()  # +-sqrt(c): the stated one is not the unique solution
    assert many.verdict == Verdict.INCONCLUSIVE and many.methods == ("solve",)
    assert set(many.expressions) == {"equation", "solutions", "expected"}
    # y^2 = -c has no real solution for c > 0: refuted, with the same witness for the same seed
    z = sp.Symbol("z")  # no assumption: solve returns the non-real pair +-I sqrt(c)
    r1 = Solve(z**2, -c, z, real_for_all=True).run(seed=2, samples=50)
    r2 = Solve(z**2, -c, z, real_for_all=True).run(seed=2, samples=50)
    assert r1.verdict == Verdict.REFUTED and r1.counterexample == r2.counterexample and r1.counterexample["c"] > 0
    assert r1.methods == ("solve", "numeric search") and r1.scalars["search_seed"] == 2
    assert set(r1.expressions) == {"equation", "solutions"}
    roots = sorted(complex(v).imag for v in r1.values.values())  # +-i sqrt(c) at the witness
    cc = r1.counterexample["c"]
    assert len(roots) == 2 and abs(roots[0] + cc**0.5) < 1e-9 * (1 + cc) and abs(roots[1] - cc**0.5) < 1e-9 * (1 + cc)


def test_limit_findings_carry_their_evidence():
    held = Limit(sp.sin(k * x) / x, x, 0, k).run()
    assert held.verdict == Verdict.HOLDS and held.methods == ("limit",) and held.message == "limit as x -> 0 is k"
    # at minus infinity: atan -> -pi/2 (and +pi/2 at +infinity, which a check at the wrong end would see)
    y = sp.Symbol("y", real=True)
    assert Limit(sp.atan(y), y, -sp.oo, -sp.pi / 2).run().verdict == Verdict.HOLDS
    assert Limit(k / x, x, sp.oo, 0).run().verdict == Verdict.HOLDS
    # an infinite limit where a finite one is stated, no other parameter: the witness is the point itself
    inf = Limit(1 / x, x, 0, 5).run()
    assert inf.verdict == Verdict.REFUTED and inf.counterexample == {"x": "0"} and inf.methods == ("limit",)
    assert inf.values == {"limit": "oo", "expected": "5"}
    # a finite limit different from the stated one: refuted through the identity k == 2 k at a point
    wrong = Limit(sp.sin(k * x) / x, x, 0, 2 * k).run(seed=1)
    assert wrong.verdict == Verdict.REFUTED and wrong.methods[0] == "limit"
    kk = wrong.counterexample["k"]
    assert abs(float(wrong.values["limit"]) - kk) < 1e-9 * kk and abs(float(wrong.values["expected"]) - 2 * kk) < 1e-9 * kk


def test_search_stays_inside_the_stated_intervals():
    # k - 1 >= 0 is false for 0 < k < 1 but true on the stated interval [1, 5]: SymPy cannot prove it from
    # k > 0 alone, and a search that kept to [1, 5] finds no counterexample (inconclusive, not refuted)
    out = Sign(k - 1, ">=", intervals={k: (1.0, 5.0)}).run(seed=0, samples=100)
    assert out.verdict == Verdict.INCONCLUSIVE and out.scalars["search_seed"] == 0
    assert Sign(k - 1, ">=").run(seed=0, samples=100).verdict == Verdict.REFUTED


def test_limit_symbols_and_its_inconclusive_branches():
    # the quantified symbols are the expression's and the expected value's, the variable included
    assert Limit(a0 * x, x, 0, 0).symbols() == {a0, x}
    # an infinite limit, but no admissible parameter point to show it at
    none = Limit(k / x, x, 0, 5, where=lambda p: False).run()
    assert none.verdict == Verdict.INCONCLUSIVE and none.methods == ("limit",)
    assert none.message == "limit as x -> 0 is oo, expected 5; no admissible parameter point drawn"
    # a difference of 1e-40 that no simplification removes and no sample shows: inconclusive through the identity
    tiny = Limit(sp.sin(k * x) / x, x, 0, k + sp.Rational(1, 10**40)).run()
    assert tiny.verdict == Verdict.INCONCLUSIVE and tiny.methods == ("limit", "residual simplification", "numeric search")
    assert tiny.message.startswith("limit as x -> 0 is k; residual -1/1")
    # SymPy cannot take the limit of an unknown function's quotient
    f = sp.Function("f")
    open_ = Limit(f(x) / x, x, 0, 1).run()
    assert open_.verdict == Verdict.INCONCLUSIVE and open_.methods == ("limit",)
    assert open_.message == "SymPy could not evaluate the limit as x -> 0"


def test_dsolve_that_returns_a_list_is_inconclusive_and_says_how_it_was_tried():
    # a' = a^3, a(0) = 0: the general solution a = +-1/sqrt(C - 2 t) has no constant giving a(0) = 0 (the
    # solution is a = 0), and SymPy's dsolve returns a list (empty) instead of one equation: nothing is
    # decided, and the finding names dsolve as the method tried
    plain = sp.Symbol("t")
    out = DSolve(lambda a: a**3, plain, (0, 0), 0).run()
    assert out.verdict == Verdict.INCONCLUSIVE
    assert out.message.startswith("dsolve returned") and out.message.endswith("solutions")
    assert out.methods == ("dsolve",)


def test_limit_cross_check_reports_a_persistent_gap_near_the_point():
    # lim_{x -> 0+} e^(10 x) is 1; handed a wrong 'SymPy value' 2, the 60-digit cross-check finds the gap
    # |e^(10 d) - 2| ~ 1 at d = 1e-8 and at d = 1e-16 alike (a persistent gap), and reports it. Evaluated
    # far from the point (d ~ 1: |e^10 - 2| ~ 22000) the gap would look like convergence and go unreported.
    x = sp.Symbol("x", real=True)
    check = Limit(sp.exp(10 * x), x, 0, 1)
    assert check._numeric_disagreement(sp.exp(10 * x), sp.Integer(2), seed=0)
    assert check._numeric_disagreement(sp.exp(10 * x), sp.Integer(1), seed=0) is None
