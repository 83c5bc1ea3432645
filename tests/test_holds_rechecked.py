"""Every proof obligation expected to hold is re-checked at points its check did not choose
(issue 26, item 3).

The checks decide "holds" by SymPy simplification and their own seeded search
(`nacverify.symbolic.search`). Here each part of each such obligation (the parts of an
`AllOf`, recursively) is evaluated as printed, numerically, with `mpmath` at 40 digits, at
points drawn by this file's own `numpy.random.default_rng` and its own sampler (not the
search's draws, not its evaluation path):

- `Identity(lhs, rhs)`: |lhs - rhs| <= 1e-20 (1 + |lhs| + |rhs|);
- `Sign(expr, rel)` / `Inequality`: `expr rel 0` (equality allowed within 1e-30 only for a
  non-strict relation), on each of its case substitutions (the cases are the domain the
  statement covers), with `along=(v, v0)` read as v >= v0;
- `Limit(expr, var, point, expected, direction)`: expr at var = point +- 1e-12 (side by
  direction; at +-oo, var = +-1e12) is within 1e-6 (1 + |expected|) of expected at the same
  other values; an infinite expected value asks for |expr| > 1e8 with the right sign;
- `Solve(lhs, rhs, var, expected)`: lhs - rhs at var = expected is ~0;
- `SolvesODE(solution, rhs, t, (t0, a0))` and `DSolve(rhs, t, (t0, a0), expected)`: the
  solution (for DSolve the expected one, not SymPy's dsolve) satisfies d/dt a = rhs(a) (the
  derivative by `sympy.diff`) and a(t0) = a0. An arbitrary input function g (a SymPy
  undefined function) is replaced by a sin(b u) + c exp(-u) + d with drawn coefficients.

Points where a side is not finite (a pole) are skipped; every part is re-checked at >= 3
points (a statement with no free symbols at its one value), or is listed in EXEMPT."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from nacverify.claims import Verdict
from nacverify.symbolic import all_obligations
from nacverify.symbolic.checks import AllOf, DSolve, Identity, Limit, Sign, Solve, SolvesODE

K = 16  # points per part
MIN_POINTS = 3
DPS = 40
SEED = 20261125
EPS = mpmath.mpf("1e-12")
FAR = mpmath.mpf("1e12")
FAR_FALLBACK = (1, mpmath.mpf("1e-6"), mpmath.mpf("1e-9"), mpmath.mpf("4e-11"), mpmath.mpf("2e-11"))  # times FAR

HOLDING = [ob for ob in all_obligations() if ob.expect == Verdict.HOLDS]
BY_ID = {ob.id: ob for ob in HOLDING}

#: "obligation id/part path" -> why it is not re-checked pointwise. Empty: every part is.
EXEMPT: dict[str, str] = {}


# --- this file's own sampler ---------------------------------------------------------------
def _draw(symbol: sp.Symbol, rng: np.random.Generator, interval: tuple[float, float] | None):
    if interval is not None:
        lo, hi = (float(v) for v in interval)
        if math.isinf(lo) and math.isinf(hi):
            return float(rng.uniform(-5, 5))
        if math.isinf(hi):
            lo = max(lo, 0.0) if symbol.is_nonnegative else lo
            return lo + float(rng.uniform(1e-2, 10))
        if math.isinf(lo):
            return hi - float(rng.uniform(1e-2, 10))
        if symbol.is_integer:
            return int(rng.integers(math.ceil(lo), math.floor(hi) + 1))
        return float(rng.uniform(lo, hi))
    if symbol.is_integer:
        if symbol.is_negative:
            return -int(rng.integers(1, 21))
        return int(rng.integers(1, 21))
    if symbol.is_positive:
        return float(rng.uniform(1e-2, 10))
    if symbol.is_negative:
        return -float(rng.uniform(1e-2, 10))
    if symbol.is_nonnegative:
        return float(rng.uniform(0, 10))
    if symbol.is_nonpositive:
        return -float(rng.uniform(0, 10))
    return float(rng.uniform(-5, 5))


def _admissible(point: dict, intervals: dict, where) -> bool:
    for s, v in point.items():
        if s in intervals and not float(intervals[s][0]) <= v <= float(intervals[s][1]):
            return False
        if (s.is_positive and not v > 0) or (s.is_negative and not v < 0) or (s.is_nonzero and v == 0):
            return False
    if where is not None:
        try:
            return bool(where({s.name: float(v) for s, v in point.items()}))
        except (ArithmeticError, ValueError):
            return False
    return True


def _points(symbols, rng, intervals=None, where=None, n=K):
    """Up to n admissible points over `symbols` (sorted by name), each {symbol: value}."""
    intervals = dict(intervals or {})
    order = sorted(symbols, key=lambda s: (s.name, str(s.assumptions0)))
    out = []
    for _ in range(20 * n):
        p = {s: _draw(s, rng, intervals.get(s)) for s in order}
        if _admissible(p, intervals, where):
            out.append(p)
            if len(out) == n:
                break
    return out


# --- numeric evaluation -------------------------------------------------------------------
def _mp(v):
    return v if isinstance(v, (int, mpmath.mpf)) else mpmath.mpf(repr(float(v)))


def _value(expr, point: dict):
    """expr at point with mpmath (40 digits): an mpf, or None where undefined or not finite.
    A value with a non-negligible imaginary part is returned as mpc."""
    expr = sp.sympify(expr)
    order = sorted(point, key=lambda s: (s.name, str(s.assumptions0)))
    try:
        with mpmath.workdps(DPS):
            fn = sp.lambdify(order, expr, modules="mpmath", dummify=True)
            v = fn(*[_mp(point[s]) for s in order])
            v = mpmath.mpmathify(v)
            if isinstance(v, mpmath.mpc):
                if abs(v.imag) <= mpmath.mpf("1e-30") * (1 + abs(v.real)):
                    v = v.real
            if not mpmath.isfinite(v):
                return None
            return v
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, NameError, AttributeError):
        return None


def _free(*exprs) -> set:
    out = set()
    for e in exprs:
        out |= {s for s in sp.sympify(e).free_symbols if isinstance(s, sp.Symbol)}
    return out


class Recheck:
    """Counts the points a part was evaluated at and collects violations."""

    def __init__(self):
        self.points = 0
        self.closed = False  # a statement without free symbols: its one value is the whole check
        self.failures: list[str] = []

    def count(self, closed: bool):
        self.points += 1
        self.closed = closed

    def absorb(self, name: str, other: "Recheck"):
        """Add a sub-statement's result (each must be re-checked on its own)."""
        self.failures += [f"{name}: {f}" for f in other.failures]
        if not other.enough():
            self.failures.append(f"{name}: only {other.points} finite points (need {MIN_POINTS})")
        self.points += other.points

    def enough(self) -> bool:
        return self.points >= MIN_POINTS or (self.closed and self.points >= 1)

    def fail(self, text: str):
        self.failures.append(text)


def _identity(lhs, rhs, intervals, where, rng, r: Recheck):
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    symbols = _free(lhs, rhs)
    points = _points(symbols, rng, intervals, where) if symbols else [{}]
    for p in points:
        _compare(lhs, rhs, p, p, r, closed=not symbols)


def _compare(lhs, rhs, at, shown, r: Recheck, *, closed: bool, prefix: str = ""):
    """lhs = rhs at the point `at` (to 1e-20 relative, at DPS digits), counted; a failure names `shown`."""
    a, b = _value(lhs, at), _value(rhs, at)
    if a is None or b is None:
        return
    r.count(closed=closed)
    with mpmath.workdps(DPS):
        if abs(a - b) > mpmath.mpf("1e-20") * (1 + abs(a) + abs(b)):
            r.fail(f"{prefix}lhs {mpmath.nstr(a, 15)} != rhs {mpmath.nstr(b, 15)} at {_show(shown)}")


_REL = {">=": (1, False), ">": (1, True), "<=": (-1, False), "<": (-1, True)}


def _sign(expr, relation, cases, along, intervals, where, rng, r: Recheck):
    sign, strict = _REL[relation]
    expr = sp.sympify(expr)
    intervals = dict(intervals or {})
    for case in list(cases) or [{}]:
        e = expr.subs(case) if case else expr
        local = dict(intervals)
        if along is not None:
            v, v0 = along
            v = case.get(v, v) if case else v
            if isinstance(v, sp.Symbol) and sp.sympify(v0).is_finite:
                lo = float(v0)
                local[v] = (max(lo, local.get(v, (lo, math.inf))[0]), local.get(v, (lo, math.inf))[1])
        symbols = _free(e)
        points = _points(symbols, rng, local, where, n=max(MIN_POINTS, K // max(1, len(cases)))) if symbols else [{}]
        finite = 0
        for p in points:
            value = _value(e, p)
            if value is None:
                continue
            finite += 1
            r.count(closed=not symbols)
            if isinstance(value, mpmath.mpc):
                r.fail(f"value {value} is not real at {_show(p)} (case {case})")
                continue
            g = sign * value
            ok = g > 0 or (not strict and g >= -mpmath.mpf("1e-30"))
            if not ok:
                r.fail(f"{relation} 0 fails: value {mpmath.nstr(value, 15)} at {_show(p)} (case {case})")
        if not finite:
            r.fail(f"no finite point in case {case}")


def _limit(check: Limit, rng, r: Recheck):
    expr, expected = sp.sympify(check.expr), sp.sympify(check.expected)
    var, point = check.var, sp.sympify(check.point)
    rest = _free(expr, expected, point) - {var}
    if point in (sp.oo, -sp.oo):
        approaches = [FAR if point == sp.oo else -FAR]
    else:
        sides = {"+": [1], "-": [-1]}.get(check.direction, [1, -1])
        approaches = [(point, s) for s in sides]
    for p in (_points(rest, rng, check.intervals, check.where) if rest else [{}]):
        target = None if expected.has(sp.oo, -sp.oo, sp.zoo) else _value(expected, p)
        if target is None and not expected.has(sp.oo, -sp.oo, sp.zoo):
            continue
        values = []
        for a in approaches:
            if isinstance(a, tuple):
                base = _value(a[0], p)
                if base is None:
                    values = []
                    break
                with mpmath.workdps(DPS):
                    at = base + a[1] * EPS
                v = _value_at_mpf(expr, p, var, at)
            else:
                # at +-oo: 1e12 first; where 40 digits cannot resolve it (exp(-1e12) next to 1), nearer
                v = next((w for w in (_value_at_mpf(expr, p, var, a * d) for d in FAR_FALLBACK) if w is not None), None)
            if v is None:
                values = []
                break
            values.append(v)
        if not values:
            continue
        r.count(closed=not rest)
        for v in values:
            if isinstance(v, mpmath.mpc):
                r.fail(f"value {v} not real near {var} = {point} at {_show(p)}")
            elif target is None:
                want = 1 if expected == sp.oo or (expected.has(sp.oo) and not expected.has(-sp.oo)) else -1
                if not want * v > mpmath.mpf("1e8"):
                    r.fail(f"{mpmath.nstr(v, 15)} near {var} = {point} is not near {expected} at {_show(p)}")
            else:
                with mpmath.workdps(DPS):
                    if abs(v - target) > mpmath.mpf("1e-6") * (1 + abs(target)):
                        r.fail(f"{mpmath.nstr(v, 15)} near {var} = {point} vs expected {mpmath.nstr(target, 15)} at {_show(p)}")


def _value_at_mpf(expr, p, var, at):
    """expr with var at an mpmath value (not representable as a float), others at p."""
    order = sorted(p, key=lambda s: (s.name, str(s.assumptions0)))
    try:
        with mpmath.workdps(DPS):
            fn = sp.lambdify([var, *order], expr, modules="mpmath", dummify=True)
            v = mpmath.mpmathify(fn(at, *[_mp(p[s]) for s in order]))
            if isinstance(v, mpmath.mpc) and abs(v.imag) <= mpmath.mpf("1e-30") * (1 + abs(v.real)):
                v = v.real
            return v if mpmath.isfinite(v) else None
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, NameError, AttributeError):
        return None


def _concrete(*exprs):
    """The statements with each undefined function (an arbitrary input g(s)) replaced by a
    concrete one, a sin(b u) + c exp(-u) + d, whose coefficients become symbols drawn per point."""
    exprs = [sp.sympify(e) for e in exprs]
    functions = set()
    for e in exprs:
        functions |= {f.func for f in e.atoms(sp.core.function.AppliedUndef)}
    for f in sorted(functions, key=str):
        a, b, c, d = sp.symbols(f"{f}_a {f}_b {f}_c {f}_d", real=True)
        u = sp.Dummy("u")
        concrete = sp.Lambda(u, a * sp.sin(b * u) + c * sp.exp(-u) + d)
        exprs = [e.replace(f, concrete) for e in exprs]
    return exprs


def _ode(solution, rhs, t, initial, intervals, where, rng, r: Recheck):
    solution = sp.sympify(solution)
    t0, a0 = initial
    ode, start = Recheck(), Recheck()
    _identity(*_concrete(sp.diff(solution, t), rhs(solution)), intervals, where, rng, ode)
    _at_value(solution, a0, t, t0, intervals, where, rng, start)
    r.absorb("ode", ode)
    r.absorb("initial", start)
    r.closed = ode.closed and start.closed


def _at_value(lhs, rhs, var, at, intervals, where, rng, r: Recheck):
    """lhs == rhs with `var` set to the number `at` evaluates to (numerically, not by SymPy's
    substitution): a root put into its equation, an initial time into the solution."""
    lhs, rhs, at = _concrete(lhs, rhs, at)
    symbols = _free(lhs, rhs, at) - {var}
    real = 0
    # a stated root is often real only on part of the symbols' range (log(p/(1 - p)) for 0 < p < 1):
    # draw more and keep the first K where it is real
    for p in (_points(symbols, rng, intervals, where, n=8 * K) if symbols else [{}]):
        x = _value(at, p)
        if x is None or isinstance(x, mpmath.mpc) or real == K:
            continue
        real += 1
        q = {**p, var: x} if var in _free(lhs, rhs) else p
        _compare(lhs, rhs, q, p, r, closed=not symbols, prefix=f"at {var} = {mpmath.nstr(x, 15)}: ")


def recheck(check, rng) -> Recheck:
    """Re-check one (non-AllOf) part at this file's own points."""
    r = Recheck()
    if isinstance(check, Identity):
        lhs, rhs = (side() if callable(side) else side for side in (check.lhs, check.rhs))
        _identity(lhs, rhs, check.intervals, check.where, rng, r)
    elif isinstance(check, Sign):
        _sign(check.expr, check.relation, check.cases, check.along, check.intervals, check.where, rng, r)
    elif isinstance(check, Limit):
        _limit(check, rng, r)
    elif isinstance(check, Solve):
        assert not check.real_for_all, "a real_for_all Solve is not pointwise: add it to EXEMPT"
        _at_value(check.lhs, check.rhs, check.var, check.expected, check.intervals, check.where, rng, r)
    elif isinstance(check, SolvesODE):
        _ode(check.solution, check.rhs, check.t, check.initial, check.intervals, check.where, rng, r)
    elif isinstance(check, DSolve):
        _ode(check.expected, check.rhs, check.t, check.initial, {}, None, rng, r)
    else:
        raise AssertionError(f"no re-check for {type(check).__name__}")
    return r


def parts(check, path=""):
    """(path, check) for every non-AllOf part, recursively."""
    if isinstance(check, AllOf):
        for name, part in check.parts.items():
            yield from parts(part, f"{path}/{name}" if path else name)
    else:
        yield path or "-", check


def _show(p: dict) -> dict:
    return {s.name: v for s, v in p.items()}


@pytest.mark.parametrize("obligation_id", list(BY_ID))
def test_holds_at_points_the_check_did_not_choose(obligation_id):
    ob = BY_ID[obligation_id]
    rng = np.random.default_rng([SEED, sum(map(ord, obligation_id))])
    problems = []
    for path, check in parts(ob.check):
        key = f"{obligation_id}/{path}"
        if key in EXEMPT:
            continue
        r = recheck(check, rng)
        problems += [f"{path}: {f}" for f in r.failures]
        if not r.enough():
            problems.append(f"{path}: only {r.points} finite points (need {MIN_POINTS})")
    assert not problems, "\n".join(problems[:10])


def test_every_holding_obligation_is_covered_and_exempt_is_current():
    assert len(HOLDING) >= 90
    keys = {f"{ob.id}/{path}" for ob in HOLDING for path, _ in parts(ob.check)}
    assert set(EXEMPT) <= keys, set(EXEMPT) - keys


def test_the_recheck_is_not_vacuous():
    rng = np.random.default_rng(SEED)
    x = sp.Symbol("x", positive=True)
    y = sp.Symbol("y", real=True)
    assert recheck(Identity(x, x + sp.Rational(1, 10**6) * x**2), rng).failures
    assert not recheck(Identity((x + 1) ** 2, x**2 + 2 * x + 1), rng).failures
    assert recheck(Sign(x - 5, ">="), rng).failures
    assert recheck(Sign(y**2 - 1, ">"), rng).failures
    assert recheck(Sign(-x, ">"), rng).failures
    assert not recheck(Sign(y**2, ">="), rng).failures
    assert recheck(Identity(sp.Integer(1), sp.Integer(2)), rng).failures
    assert recheck(Limit(sp.exp(-x * y**2), x, sp.oo, 1), rng).failures
    assert recheck(Limit(1 / x, x, sp.oo, sp.oo), rng).failures
    assert recheck(Solve(x**2, 4, x, expected=3), rng).failures
    t = sp.Symbol("t", real=True)
    assert recheck(SolvesODE(sp.exp(-2 * t), lambda a: -a, t, (0, 1)), rng).failures
    assert not recheck(SolvesODE(sp.exp(-x * t), lambda a: -x * a, t, (0, 1)), rng).failures
    assert recheck(DSolve(lambda a: -a, t, (0, 1), sp.exp(-t) + t**2), rng).failures
