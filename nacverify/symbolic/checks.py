"""The checking methods: each is a small declarative object whose `run` returns a
`Finding`.

- `Identity(lhs, rhs)`: the residual lhs - rhs simplifies to zero (holds), or a
  point where it does not vanish is found and confirmed (refuted);
- `SolvesODE(solution, rhs, t, initial)`: d/dt solution = rhs(solution) and the
  initial condition, both as identities;
- `DSolve(rhs, t, initial, expected)`: SymPy's `dsolve` solution equals `expected`;
- `Limit(expr, var, point, expected)`: SymPy's `limit` equals `expected`;
- `Solve(lhs, rhs, var, expected)`: SymPy's `solve` returns exactly `expected`
  (`real_for_all=True` instead asks for a real solution at every parameter value);
- `Sign(expr, ">=")`, `Inequality(lhs, "<=", rhs)`: a sign under the assumptions
  (`nacverify.symbolic.sign`), with optional case splits; a statement SymPy cannot
  settle goes to the seeded counterexample search (`nacverify.symbolic.search`),
  else `inconclusive`;
- `AllOf(name=check, ...)`: a conjunction.

Every `refuted` finding carries a counterexample confirmed at 60 digits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..claims import Verdict
from .finding import Finding, merge_findings
from .search import DEFAULT_SAMPLES, Relation, SearchSpace, evaluate_at, search
from .sign import prove_nonnegative

__all__ = ["Check", "Identity", "SolvesODE", "DSolve", "Limit", "Solve", "Sign", "Inequality", "AllOf", "Within"]

Intervals = Mapping[sp.Symbol, tuple[float, float]]
Where = Callable[[dict[str, float]], bool] | None


def _s(expr: Any) -> str:
    return sp.sstr(expr)


def _short(expr: Any, limit: int = 90) -> str:
    """An expression for a one-line message: itself when short, else 'the expression'."""
    text = _s(expr)
    return text if len(text) <= limit else "the expression"


def _free(*exprs: Any) -> set[sp.Symbol]:
    out: set[sp.Symbol] = set()
    for e in exprs:
        if isinstance(e, sp.Basic):
            out |= {s for s in e.free_symbols if isinstance(s, sp.Symbol)}
    return out


def _ordered(symbols: set[sp.Symbol]) -> tuple[sp.Symbol, ...]:
    return tuple(sorted(symbols, key=lambda s: s.name))


def _point_dict(point: Mapping[sp.Symbol, float], closed: Any = None) -> dict[str, Any]:
    """A point as {name: value}; a statement without free symbols is its own
    counterexample, recorded as {"closed_statement": ...}."""
    out = {s.name: v for s, v in sorted(point.items(), key=lambda kv: kv[0].name)}
    if not out and closed is not None:
        out = {"closed_statement": closed}
    return out


def _num(value: Any) -> Any:
    if isinstance(value, complex):
        return str(value)
    return value


class Check:
    """Base class: `run(seed, samples)` returns a Finding; `symbols()` the symbols the
    statement quantifies over; `intervals` and `where` restrict the counterexample
    search to the stated domain."""

    intervals: Intervals
    where: Where

    def symbols(self) -> set[sp.Symbol]:
        raise NotImplementedError

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        raise NotImplementedError

    def domain(self) -> dict[str, tuple[float, float]]:
        return {s.name: v for s, v in getattr(self, "intervals", {}).items()}

    def _space(self, symbols: set[sp.Symbol]) -> SearchSpace:
        return SearchSpace(_ordered(symbols), dict(getattr(self, "intervals", {}) or {}), getattr(self, "where", None))


_SIMPLIFIERS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("expand", sp.expand),
    ("cancel", sp.cancel),
    ("simplify", sp.simplify),
    ("exp/log expansion", lambda e: sp.simplify(sp.expand_log(sp.powsimp(sp.expand(e), force=False), force=False))),
)


def _residual_zero(residual: sp.Expr) -> str | None:
    """Name of the first simplification that takes `residual` to 0, else None."""
    if residual == 0:
        return "identical"
    for name, fn in _SIMPLIFIERS:
        try:
            if fn(residual) == 0:
                return name
        except (NotImplementedError, TypeError, sp.PolynomialError):
            continue
    return None


@dataclass(frozen=True)
class Identity(Check):
    """lhs == rhs for every value the assumptions allow.

    A side may be a zero-argument callable returning the expression, for a side that
    is itself computed (e.g. an operation count taken from an explicit matrix
    product); it is evaluated when the check runs, and its symbols are not listed."""

    lhs: Any
    rhs: Any
    intervals: Intervals = field(default_factory=dict)
    where: Where = None
    hints: Sequence[Mapping[sp.Symbol, float]] = ()

    def symbols(self) -> set[sp.Symbol]:
        return _free(*[side for side in (self.lhs, self.rhs) if not callable(side)])

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        lhs, rhs = (sp.sympify(side() if callable(side) else side) for side in (self.lhs, self.rhs))
        residual = lhs - rhs
        exprs = {"lhs": _s(lhs), "rhs": _s(rhs)}
        how = _residual_zero(residual)
        if how is not None:
            return Finding(Verdict.HOLDS, f"residual lhs - rhs simplifies to 0 ({how})", expressions=exprs, methods=("residual simplification",))
        simplified = sp.simplify(residual)
        exprs["residual"] = _s(simplified)
        found = search(simplified, Relation.EQ, self._space(self.symbols()), seed, samples, self.hints, scale=sp.Abs(lhs) + sp.Abs(rhs))
        stats = {"search_seed": seed, "search_samples": found.samples}
        if found.point is None:
            return Finding(Verdict.INCONCLUSIVE, f"residual {_short(simplified)} did not simplify to 0 and no nonzero value was found in {found.samples} seeded samples (seed {seed})",
                           expressions=exprs, methods=("residual simplification", "numeric search"), scalars=stats)
        values = {"lhs": _num(evaluate_at(lhs, found.point)), "rhs": _num(evaluate_at(rhs, found.point)), "residual": _num(found.value)}
        return Finding(Verdict.REFUTED, f"residual {_short(simplified)} is nonzero: at {_point_dict(found.point)} lhs = {values['lhs']:.10g}, rhs = {values['rhs']:.10g}"
                       if not isinstance(values["lhs"], str) and not isinstance(values["rhs"], str) else f"residual {_short(simplified)} is nonzero at {_point_dict(found.point)}",
                       _point_dict(found.point, f"{_s(lhs)} == {_s(rhs)}"), values, exprs, ("residual simplification", "numeric search"), stats)


@dataclass(frozen=True)
class SolvesODE(Check):
    """`solution(t)` satisfies d/dt solution = rhs(solution) and solution(t0) = value."""

    solution: Any
    rhs: Callable[[sp.Expr], sp.Expr]
    t: sp.Symbol
    initial: tuple[Any, Any]
    intervals: Intervals = field(default_factory=dict)
    where: Where = None

    def _parts(self) -> AllOf:
        t0, value = self.initial
        return AllOf(
            ode=Identity(sp.diff(self.solution, self.t), self.rhs(self.solution), self.intervals, self.where),
            initial=Identity(sp.sympify(self.solution).subs(self.t, t0), value, self.intervals, self.where),
        )

    def symbols(self) -> set[sp.Symbol]:
        return self._parts().symbols()

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        return self._parts().run(seed, samples)


@dataclass(frozen=True)
class DSolve(Check):
    """SymPy's dsolve of da/dt = rhs(a), a(t0) = value gives `expected`."""

    rhs: Callable[[sp.Expr], sp.Expr]
    t: sp.Symbol
    initial: tuple[Any, Any]
    expected: Any

    def symbols(self) -> set[sp.Symbol]:
        a = sp.Function("a")
        return _free(self.rhs(a(self.t)), self.expected, *self.initial) | {self.t}

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        a = sp.Function("a")
        t0, value = self.initial
        ode = sp.Eq(a(self.t).diff(self.t), self.rhs(a(self.t)))
        solution = sp.dsolve(ode, a(self.t), ics={a(t0): value})
        if isinstance(solution, list):
            return Finding(Verdict.INCONCLUSIVE, f"dsolve returned {len(solution)} solutions", expressions={"ode": _s(ode)}, methods=("dsolve",))
        inner = Identity(solution.rhs, self.expected).run(seed, samples)
        exprs = {"ode": _s(ode), "dsolve": _s(solution.rhs), "expected": _s(self.expected)}
        message = f"dsolve gives a(t) = {_s(solution.rhs)}; " + inner.message
        return Finding(inner.verdict, message, inner.counterexample, inner.values, exprs, ("dsolve", *inner.methods), inner.scalars)


@dataclass(frozen=True)
class Limit(Check):
    """lim_{var -> point} expr == expected (`direction` '+', '-' or '+-')."""

    expr: Any
    var: sp.Symbol
    point: Any
    expected: Any
    direction: str = "+"
    intervals: Intervals = field(default_factory=dict)
    where: Where = None

    def symbols(self) -> set[sp.Symbol]:
        return _free(self.expr, self.expected) | {self.var}

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        expr, expected = sp.sympify(self.expr), sp.sympify(self.expected)
        value = sp.limit(expr, self.var, self.point, self.direction) if self.point not in (sp.oo, -sp.oo) else sp.limit(expr, self.var, self.point)
        exprs = {"expr": _s(expr), "limit": _s(value), "expected": _s(expected)}
        where = f"{self.var} -> {self.point}"
        if value.has(sp.Limit):
            return Finding(Verdict.INCONCLUSIVE, f"SymPy could not evaluate the limit as {where}", expressions=exprs, methods=("limit",))
        disagreement = self._numeric_disagreement(expr, value, seed)
        if disagreement:
            return Finding(Verdict.INCONCLUSIVE, f"SymPy's limit as {where} is {_s(value)}, but {disagreement}", expressions=exprs, methods=("limit", "numeric cross-check"))
        if value == expected or (not value.has(sp.oo, -sp.oo, sp.zoo) and not expected.has(sp.oo, -sp.oo, sp.zoo) and _residual_zero(value - expected)):
            return Finding(Verdict.HOLDS, f"limit as {where} is {_s(value)}", expressions=exprs, methods=("limit",))
        if value.is_infinite or expected.is_infinite:
            rest = _free(expr) - {self.var}
            point = SearchSpace(_ordered(rest), dict(self.intervals), self.where)
            from .search import sample_point
            import numpy as np

            p = sample_point(point, np.random.default_rng(seed)) if rest else {}
            if p is None:
                return Finding(Verdict.INCONCLUSIVE, f"limit as {where} is {_s(value)}, expected {_s(expected)}; no admissible parameter point drawn", expressions=exprs, methods=("limit",))
            cx = _point_dict(p) or {self.var.name: str(self.point)}
            return Finding(Verdict.REFUTED, f"limit as {where} is {_s(value)}, not {_s(expected)}", cx,
                           {"limit": str(value.subs(p)) if p else str(value), "expected": str(expected.subs(p)) if p else str(expected)}, exprs, ("limit",))
        inner = Identity(value, expected, self.intervals, self.where).run(seed, samples)
        if inner.verdict == Verdict.REFUTED:
            return Finding(Verdict.REFUTED, f"limit as {where} is {_s(value)}, not {_s(expected)}: {inner.message}", inner.counterexample,
                           {"limit": inner.values.get("lhs"), "expected": inner.values.get("rhs")}, exprs, ("limit", *inner.methods), inner.scalars)
        return Finding(inner.verdict, f"limit as {where} is {_s(value)}; " + inner.message, inner.counterexample, inner.values, exprs, ("limit", *inner.methods), inner.scalars)


    def _numeric_disagreement(self, expr: sp.Expr, value: sp.Expr, seed: int) -> str | None:
        """Cross-check SymPy's finite limit numerically (60 digits) at two approach
        distances for three parameter points; report a persistent gap (a jump SymPy
        missed, say) instead of trusting the symbolic answer."""
        if value.has(sp.oo, -sp.oo, sp.zoo):
            return None
        import numpy as np

        from .search import sample_point

        rest = _free(expr, value) - {self.var}
        space = SearchSpace(_ordered(rest), dict(self.intervals), self.where)
        rng = np.random.default_rng(seed)
        infinite = self.point in (sp.oo, -sp.oo)
        sides = [1] if infinite else ([1] if self.direction == "+" else [-1] if self.direction == "-" else [1, -1])
        for _ in range(3):
            params = sample_point(space, rng) if rest else {}
            if params is None:
                continue
            target = evaluate_at(value, params)
            if not isinstance(target, float):
                continue
            for side in sides:
                errors = []
                for distance in ((1e3, 1e6) if infinite else (1e-8, 1e-16)):
                    at = (distance if self.point == sp.oo else -distance) if infinite else sp.sympify(self.point) + side * sp.Rational(repr(distance))
                    here = evaluate_at(expr.subs(self.var, at), params)
                    if not isinstance(here, float):
                        errors = []
                        break
                    errors.append(abs(here - target))
                if len(errors) == 2:
                    tol = 1e-3 * (1 + abs(target))
                    if errors[1] > tol and errors[1] > 0.5 * errors[0]:
                        return f"at {_point_dict(params)} the expression stays {errors[1]:.3g} away from it near {self.var} = {self.point}"
        return None


@dataclass(frozen=True)
class Solve(Check):
    """Solving lhs == rhs for `var`.

    With `expected`: SymPy's solutions are exactly [expected] (`unique`) or include it.
    With `real_for_all=True`: at every admissible parameter value some solution is
    real (refuted by a parameter point where every solution is non-real)."""

    lhs: Any
    rhs: Any
    var: sp.Symbol
    expected: Any = None
    unique: bool = True
    real_for_all: bool = False
    intervals: Intervals = field(default_factory=dict)
    where: Where = None

    def symbols(self) -> set[sp.Symbol]:
        return _free(self.lhs, self.rhs, self.expected) - {self.var}

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        lhs, rhs = sp.sympify(self.lhs), sp.sympify(self.rhs)
        solutions = sp.solve(sp.Eq(lhs, rhs), self.var)
        exprs = {"equation": _s(sp.Eq(lhs, rhs)), "solutions": _s(solutions)}
        if self.real_for_all:
            return self._real_for_all(solutions, exprs, seed, samples)
        expected = sp.sympify(self.expected)
        exprs["expected"] = _s(expected)
        matches = [s for s in solutions if _residual_zero(s - expected)]
        if matches and (not self.unique or len(solutions) == 1):
            return Finding(Verdict.HOLDS, f"solve gives {self.var} = {_s(solutions if len(solutions) > 1 else solutions[0])}" + (" (unique)" if self.unique else ""),
                           expressions=exprs, methods=("solve",))
        if matches:
            return Finding(Verdict.INCONCLUSIVE, f"{_s(expected)} is one of {len(solutions)} solutions {_s(solutions)}, not the unique one", expressions=exprs, methods=("solve",))
        # does `expected` satisfy the equation at all?  refute with a point where it does not
        inner = Identity(lhs.subs(self.var, expected), rhs, self.intervals, self.where).run(seed, samples)
        if inner.verdict == Verdict.REFUTED:
            return Finding(Verdict.REFUTED, f"solve gives {_s(solutions)}; the stated {self.var} = {_s(expected)} does not satisfy the equation: {inner.message}",
                           inner.counterexample, inner.values, exprs, ("solve", *inner.methods), inner.scalars)
        return Finding(Verdict.INCONCLUSIVE, f"solve gives {_s(solutions)}; could not match the stated {_s(expected)}: {inner.message}", expressions=exprs, methods=("solve", *inner.methods))

    def _real_for_all(self, solutions: list, exprs: dict, seed: int, samples: int) -> Finding:
        if not solutions:
            return Finding(Verdict.INCONCLUSIVE, "solve returned no solution", expressions=exprs, methods=("solve",))
        params = self.symbols()
        space = self._space(params)
        # a point is a counterexample when every solution is non-real there: search on the first,
        # then confirm the others
        for index, first in enumerate(solutions[:1]):
            found = search(first, Relation.REAL, space, seed, samples)
            if found.point is not None:
                others = [evaluate_at(s, found.point) for s in solutions]
                if all(isinstance(v, complex) for v in others if v is not None) and any(v is not None for v in others):
                    values = {f"solution_{i}": str(v) for i, v in enumerate(others)}
                    return Finding(Verdict.REFUTED, f"at {_point_dict(found.point)} every solution of {exprs['equation']} for {self.var} is non-real: {values}",
                                   _point_dict(found.point), values, exprs, ("solve", "numeric search"), {"search_seed": seed, "search_samples": found.samples})
        return Finding(Verdict.INCONCLUSIVE, f"solve gives {_s(solutions)}; no parameter point with only non-real solutions found in {samples} samples",
                       expressions=exprs, methods=("solve", "numeric search"))


_RELATIONS = {">=": (1, False), ">": (1, True), "<=": (-1, False), "<": (-1, True)}


@dataclass(frozen=True)
class Sign(Check):
    """`expr relation 0` (relation one of >=, >, <=, <) for every admissible value.

    `cases`: substitutions that together cover the domain (e.g. [{A: p}, {A: -n}] with
    p >= 0, n > 0); each substituted expression must be proved. `along=(v, v0)`: allow
    the monotone-from-start argument on v in [v0, oo)."""

    expr: Any
    relation: str = ">="
    cases: Sequence[Mapping[sp.Symbol, Any]] = ()
    along: tuple[sp.Symbol, Any] | None = None
    intervals: Intervals = field(default_factory=dict)
    where: Where = None
    hints: Sequence[Mapping[sp.Symbol, float]] = ()
    about: Sequence[Any] = ()  # the original sides, when `expr` is their difference

    def symbols(self) -> set[sp.Symbol]:
        return _free(self.expr, *self.about)

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        sign, strict = _RELATIONS[self.relation]
        g = sign * sp.sympify(self.expr)
        exprs = {"expr": _s(self.expr), "relation": f"{self.relation} 0"}
        cases = list(self.cases) or [{}]
        proofs = []
        for case in cases:
            e = g.subs(case) if case else g
            along = None
            if self.along is not None:
                v, v0 = self.along
                along = (case.get(v, v) if case else v, sp.sympify(v0))
            proofs.append(prove_nonnegative(e, strict, along))
        methods = ["sign under assumptions"] + (["case split"] if self.cases else []) + (["monotone from start"] if self.along else [])
        if all(p is True for p in proofs):
            detail = f" ({len(cases)} case{'s' if len(cases) > 1 else ''})" if self.cases else ""
            return Finding(Verdict.HOLDS, f"{_short(self.expr)} {self.relation} 0 proved{detail}", expressions=exprs, methods=tuple(methods))
        relation = Relation.GT if strict else Relation.GE
        found = search(g, relation, self._space(self.symbols()), seed, samples, self.hints)
        stats = {"search_seed": seed, "search_samples": found.samples}
        methods.append("numeric search")
        if found.point is not None:
            value = sign * found.value
            return Finding(Verdict.REFUTED, f"{_short(self.expr)} {self.relation} 0 fails at {_point_dict(found.point)}: value {value:.10g}",
                           _point_dict(found.point, f"{_s(self.expr)} {self.relation} 0"), {"value": value}, exprs, tuple(methods), stats)
        undecided = sum(p is not True for p in proofs)
        return Finding(Verdict.INCONCLUSIVE, f"SymPy could not decide the sign ({undecided} of {len(cases)} cases open) and no counterexample was found in {found.samples} seeded samples (seed {seed})",
                       expressions=exprs, methods=tuple(methods), scalars=stats)


_OPS = {"<=": ">=", "<": ">", ">=": ">=", ">": ">"}


def Inequality(lhs: Any, op: str, rhs: Any, **kwargs: Any) -> Sign:
    """lhs op rhs, checked as the sign of the difference (rhs - lhs for <=, <)."""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    expr = rhs - lhs if op in ("<=", "<") else lhs - rhs
    return Sign(expr, _OPS[op], about=(lhs, rhs), **kwargs)


class AllOf(Check):
    """Conjunction of named checks: holds when all hold; refuted (with the first
    counterexample) when one is refuted."""

    def __init__(self, **parts: Check):
        if not parts:
            raise ValueError("AllOf needs at least one check")
        self.parts = parts
        self.intervals = {}
        for part in parts.values():
            self.intervals.update(getattr(part, "intervals", {}) or {})
        self.where = None

    def symbols(self) -> set[sp.Symbol]:
        out: set[sp.Symbol] = set()
        for part in self.parts.values():
            out |= part.symbols()
        return out

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        return merge_findings([(name, part.run(seed, samples)) for name, part in self.parts.items()])


def Within(expr: Any, lower: Any, upper: Any, strict: tuple[bool, bool] = (False, False), **kwargs: Any) -> AllOf:
    """Interval reasoning: lower <= expr <= upper (strict ends as asked)."""
    return AllOf(
        lower=Sign(sp.sympify(expr) - lower, ">" if strict[0] else ">=", **kwargs),
        upper=Sign(sp.sympify(upper) - expr, ">" if strict[1] else ">=", **kwargs),
    )
