"""Seeded numeric search for counterexamples.

When SymPy cannot settle a statement, points are drawn inside the stated assumptions
(each symbol's SymPy assumptions, optional per-symbol intervals and an optional
`where` predicate), the statement is evaluated at 50 significant digits with mpmath,
and a violating point is simplified (its coordinates replaced by small round numbers
where the violation survives) and then *confirmed* by evaluating the SymPy expression
at the exact rational point with `evalf(60)`. Only a confirmed point is reported as a
counterexample; without one the verdict stays `inconclusive`.

Draws are rounded to three significant digits, so counterexamples are short decimals
that a reader (and a test) can re-evaluate by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

__all__ = ["SearchSpace", "Relation", "search", "sample_point", "evaluate_at", "DEFAULT_SAMPLES"]

DEFAULT_SAMPLES = 400
_NICE_POSITIVE = (1, 2, 0.5, 3, 10, 0.1, 5, 4, 0.25, 100)
_DPS = 50


@dataclass(frozen=True)
class SearchSpace:
    """Where counterexamples are looked for.

    `symbols`: the free symbols (their SymPy assumptions restrict the draws);
    `intervals`: per-symbol closed sampling intervals overriding the assumptions'
    default range (either end may be infinite); `where`: an extra predicate on a
    point given as {name: float}."""

    symbols: tuple[sp.Symbol, ...]
    intervals: Mapping[sp.Symbol, tuple[float, float]] = field(default_factory=dict)
    where: Callable[[dict[str, float]], bool] | None = None

    def describe(self) -> str:
        parts = []
        for s in self.symbols:
            if s in self.intervals:
                lo, hi = self.intervals[s]
                parts.append(f"{s} in [{lo}, {hi}]")
        if self.where is not None:
            parts.append("plus a side condition")
        return ", ".join(parts)


def _round3(x: float) -> float:
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.3g}")


def _draw_positive(rng: np.random.Generator) -> float:
    if rng.random() < 0.35:
        return float(rng.choice(_NICE_POSITIVE))
    return _round3(10 ** rng.uniform(-2, 2))


def _draw(symbol: sp.Symbol, rng: np.random.Generator, interval: tuple[float, float] | None) -> float:
    if interval is not None:
        lo, hi = interval
        if math.isinf(lo) or math.isinf(hi):
            base = _draw_positive(rng)
            if math.isinf(hi) and not math.isinf(lo):
                return _round3(lo + base)
            if math.isinf(lo) and not math.isinf(hi):
                return _round3(hi - base)
            return base if rng.random() < 0.5 else -base
        nice = [v for v in (0, 1, -1, 0.5, -0.5, 2, -2) if lo <= v <= hi]
        if nice and rng.random() < 0.25:
            return float(rng.choice(nice))
        value = _round3(rng.uniform(lo, hi))
        return min(max(value, lo), hi)
    if symbol.is_integer:
        if symbol.is_positive:
            return int(rng.integers(1, 13))
        if symbol.is_nonnegative:
            return int(rng.integers(0, 13))
        return int(rng.integers(-12, 13))
    if symbol.is_positive:
        return _draw_positive(rng)
    if symbol.is_nonnegative:
        return 0.0 if rng.random() < 0.1 else _draw_positive(rng)
    if symbol.is_negative:
        return -_draw_positive(rng)
    if symbol.is_nonpositive:
        return 0.0 if rng.random() < 0.1 else -_draw_positive(rng)
    sign = 1 if rng.random() < 0.5 else -1
    if symbol.is_nonzero:
        return sign * _draw_positive(rng)
    u = rng.random()
    if u < 0.2:
        return float(rng.choice((0, 1, -1, 2, -2, 0.5, -0.5, 3)))
    if u < 0.6:
        return _round3(rng.uniform(-10, 10))
    return sign * _draw_positive(rng)


def sample_point(space: SearchSpace, rng: np.random.Generator, tries: int = 50) -> dict[sp.Symbol, float] | None:
    """One draw inside the assumptions and the side condition (None after `tries`)."""
    for _ in range(tries):
        point = {s: _draw(s, rng, space.intervals.get(s)) for s in space.symbols}
        if _admissible(space, point):
            return point
    return None


def _admissible(space: SearchSpace, point: Mapping[sp.Symbol, float]) -> bool:
    for s, v in point.items():
        if s in space.intervals:
            lo, hi = space.intervals[s]
            if not lo <= v <= hi:
                return False
        if s.is_positive and not v > 0 or s.is_nonnegative and not v >= 0:
            return False
        if s.is_negative and not v < 0 or s.is_nonpositive and not v <= 0:
            return False
        if s.is_nonzero and v == 0:
            return False
    if space.where is not None:
        try:
            return bool(space.where({str(s): float(v) for s, v in point.items()}))
        except (ArithmeticError, ValueError):
            return False
    return True


def _exact(value: float | int) -> sp.Expr:
    return sp.Integer(value) if isinstance(value, int) else sp.Rational(repr(float(value)))


def evaluate_at(expr: sp.Expr, point: Mapping[sp.Symbol, float], digits: int = 60) -> complex | float | None:
    """`expr` at the exact rational point, evaluated to `digits` significant digits
    (None when undefined there)."""
    try:
        value = sp.sympify(expr).subs({s: _exact(v) for s, v in point.items()}).evalf(digits)
    except (ZeroDivisionError, TypeError, ValueError):
        return None
    if value.has(sp.zoo, sp.nan) or not value.is_number:
        return None
    if value in (sp.oo, -sp.oo):
        return float(value)
    re, im = value.as_real_imag()
    re, im = float(re), float(im)
    if abs(im) > 1e-40 * max(1.0, abs(re)):
        return complex(re, im)
    return re


class Relation:
    """How a scalar expression `g` can fail at a point: the statement is `g == 0`,
    `g >= 0`, `g > 0` or `g is real` (and finite)."""

    EQ = "== 0"
    GE = ">= 0"
    GT = "> 0"
    REAL = "real"


def _numeric(fn: Callable, point: Mapping[sp.Symbol, float], order: Sequence[sp.Symbol]):
    try:
        with mpmath.workdps(_DPS):
            value = fn(*[mpmath.mpf(repr(float(point[s]))) if not isinstance(point[s], int) else point[s] for s in order])
            value = complex(value) if isinstance(value, mpmath.mpc) else float(value)
    except (ZeroDivisionError, ValueError, TypeError, OverflowError):
        return None
    if isinstance(value, complex):
        if abs(value.imag) <= 1e-30 * max(1.0, abs(value.real)):
            value = value.real
        elif not (math.isfinite(value.real) and math.isfinite(value.imag)):
            return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _numeric_violation(relation: str, value, scale: float = 1.0) -> bool:
    """Coarse numeric screen (50 digits): equality needs a residual well above the
    working precision (relative to `scale`), inequalities a clear sign."""
    if value is None:
        return False
    if relation == Relation.REAL:
        return isinstance(value, complex) or (isinstance(value, float) and math.isinf(value))
    tol = 1e-30 * (1.0 + scale)
    if relation == Relation.EQ:
        return abs(value) > tol
    if isinstance(value, complex):
        return False
    if relation == Relation.GE:
        return value < -tol
    return value <= tol


def _confirmed(relation: str, expr: sp.Expr, point: Mapping[sp.Symbol, float], scale: sp.Expr | None) -> complex | float | None:
    value = evaluate_at(expr, point)
    if value is None:
        return None
    size = 1.0
    if scale is not None:
        s = evaluate_at(scale, point)
        size = abs(s) if isinstance(s, (int, float, complex)) and math.isfinite(abs(s)) else 1.0
    tol = 1e-45 * (1.0 + size)
    if relation == Relation.EQ:
        return value if abs(value) > tol else None
    if relation == Relation.REAL:
        return value if _numeric_violation(relation, value) else None
    if isinstance(value, complex):
        return None
    if relation == Relation.GE:
        return value if value < -tol else None
    if value < -tol:
        return value
    exact = sp.simplify(sp.sympify(expr).subs({s: _exact(v) for s, v in point.items()}))
    return 0.0 if exact == 0 else None


def _simplify_point(relation: str, fn, scale_fn, point: dict, space: SearchSpace) -> dict:
    """Replace coordinates by small round numbers while the violation survives."""
    order = space.symbols
    candidates = (1, 2, 0, -1, 0.5, 3, -2, 10, 0.1)
    # keep a strict violation strict: do not slide an inequality counterexample onto the boundary
    strict_only = relation in (Relation.GE, Relation.GT) and _numeric_violation(Relation.GE, _numeric(fn, point, order), _size(scale_fn, point, order))
    check_relation = Relation.GE if strict_only else relation
    for _ in range(2):  # a second pass catches coordinates that only round after others did
        for s in order:
            if point[s] in candidates:
                continue
            for c in candidates:
                trial = dict(point)
                trial[s] = int(c) if s.is_integer else float(c)
                if _admissible(space, trial) and _numeric_violation(check_relation, _numeric(fn, trial, order), _size(scale_fn, trial, order)):
                    point = trial
                    break
    return point


@dataclass(frozen=True)
class SearchResult:
    point: dict[sp.Symbol, float] | None
    value: complex | float | None
    samples: int
    seed: int


def _size(scale_fn, point, order) -> float:
    if scale_fn is None:
        return 1.0
    value = _numeric(scale_fn, point, order)
    if value is None:
        return 1.0
    size = abs(value)
    return size if math.isfinite(size) else 1.0


def search(expr: sp.Expr, relation: str, space: SearchSpace, seed: int = 0, samples: int = DEFAULT_SAMPLES,
           hints: Sequence[Mapping[sp.Symbol, float]] = (), scale: sp.Expr | None = None) -> SearchResult:
    """Look for a point where `expr` violates `relation`; `hints` are tried first.
    `scale` (e.g. |lhs| + |rhs|) makes the equality and sign tolerances relative.
    Deterministic for a given seed."""
    order = tuple(space.symbols)
    fn = sp.lambdify(order, expr, modules="mpmath")
    scale_fn = sp.lambdify(order, scale, modules="mpmath") if scale is not None else None
    rng = np.random.default_rng(seed)

    def points() -> Iterator[dict]:
        for h in hints:
            p = {s: h[s] for s in order}
            if _admissible(space, p):
                yield p
        for _ in range(samples):
            p = sample_point(space, rng)
            if p is not None:
                yield p

    tried = 0
    for p in points():
        tried += 1
        if _numeric_violation(relation, _numeric(fn, p, order), _size(scale_fn, p, order)):
            q = _simplify_point(relation, fn, scale_fn, p, space)
            for candidate in (q, p):
                value = _confirmed(relation, expr, candidate, scale)
                if value is not None:
                    return SearchResult(candidate, value, tried, seed)
    return SearchResult(None, None, tried, seed)
