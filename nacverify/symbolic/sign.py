"""Sign of an expression under the assumptions of its symbols.

`prove_nonnegative(expr)` answers True (proved: expr >= 0, or > 0 when `strict`, for
every value the symbols' assumptions allow), False (SymPy knows the opposite holds
everywhere) or None (undecided). Strategies, in order:

1. SymPy's assumption system on several normal forms (as given, cancel, factor,
   together, expand, simplify);
2. a quotient whose denominator has a known sign: decide the numerator;
3. a sum whose terms are each provably nonnegative;
4. *monotone from a start point* (interval reasoning along one variable v with
   domain [v0, oo)): if lim_{v -> v0+} f >= 0 and f' >= 0 for v > v0, then f >= 0 on
   the domain; applied recursively to f', f'', ... up to `depth` levels.

Case splits (A >= 0 versus A < 0, written as substitutions with new symbols) are the
caller's business: see `nacverify.symbolic.checks.Sign`.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["prove_nonnegative"]


def _attr(expr: sp.Expr, strict: bool) -> bool | None:
    return expr.is_positive if strict else expr.is_nonnegative


_SIMPLIFY_MAX_OPS = 40  # `simplify` on larger (e.g. tanh, Min/Max) expressions can take seconds


def _forms(expr: sp.Expr):
    yield expr
    transforms = [sp.cancel, sp.factor, sp.together, sp.expand]
    if sp.count_ops(expr) <= _SIMPLIFY_MAX_OPS and not expr.has(sp.Min, sp.Max):
        transforms.append(sp.simplify)
    for transform in transforms:
        try:
            yield transform(expr)
        except (sp.PolynomialError, NotImplementedError, TypeError):
            continue


def prove_nonnegative(expr: sp.Expr, strict: bool = False, along: tuple[sp.Symbol, sp.Expr] | None = None, depth: int = 3) -> bool | None:
    """Decide expr >= 0 (expr > 0 when `strict`) under the symbols' assumptions.

    `along=(v, v0)` enables the monotone-from-start argument on the domain v >= v0
    (v > v0 when v is declared positive and v0 = 0, or v0 = -oo)."""
    expr = sp.sympify(expr)
    for form in _forms(expr):
        answer = _attr(form, strict)
        if answer is not None:
            return answer
    num, den = sp.fraction(sp.factor(sp.together(expr)))
    if den != 1:
        if den.is_positive:
            answer = prove_nonnegative(num, strict, along, depth)
            if answer is not None:
                return answer
        elif den.is_negative:
            answer = prove_nonnegative(-num, strict, along, depth)
            if answer is not None:
                return answer
    expanded = sp.expand(expr)
    if isinstance(expanded, sp.Add):
        signs = [_attr(term, False) for term in expanded.args]
        if all(signs):
            if not strict or any(_attr(term, True) for term in expanded.args):
                return True
    if along is not None and depth > 0:
        return _monotone_from_start(expr, strict, along, depth)
    return None


def _monotone_from_start(expr: sp.Expr, strict: bool, along: tuple[sp.Symbol, sp.Expr], depth: int) -> bool | None:
    v, v0 = along
    if not isinstance(v, sp.Symbol) or v not in expr.free_symbols:
        return None
    # sound only when v's domain is [v0, oo): v0 = -oo, or v0 = 0 with v declared nonnegative
    if not (v0 == -sp.oo or (v0 == 0 and v.is_nonnegative)):
        return None
    try:
        start = sp.limit(expr, v, v0, "+") if v0 not in (sp.oo, -sp.oo) else sp.limit(expr, v, v0)
    except (NotImplementedError, ValueError):
        return None
    if start.has(sp.Limit) or start.has(sp.nan):
        return None
    start_attained = v0 not in (sp.oo, -sp.oo) and not (v.is_positive and v0 == 0)
    slope = sp.diff(expr, v)
    if prove_nonnegative(start, strict=False) is not True:
        return None
    if not strict:
        return True if prove_nonnegative(slope, False, along, depth - 1) is True else None
    if prove_nonnegative(start, strict=True) is True and prove_nonnegative(slope, False, along, depth - 1) is True:
        return True
    if not start_attained and prove_nonnegative(slope, True, along, depth - 1) is True:
        return True
    return None
