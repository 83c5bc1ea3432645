"""Parse a user's coefficient formula in `t` safely.

The text is parsed by Python's `ast` and the SymPy expression is built node by node
from a whitelist (numbers, the symbol `t`, `pi`, `E`, arithmetic, `**` or `^`, and the
elementary functions below). Nothing is evaluated with `eval`: attribute access,
subscripts, keywords, lambdas, comprehensions and unknown names are rejected.

A formula's cost is bounded before SymPy computes anything with it. SymPy evaluates exact
numbers exactly: ``9^9^9^9`` is the integer 9^(9^387420489), and ``exp(10^9*log(10))`` becomes
10^(10^9), each of which would take longer than a lifetime and all the memory there is. So,
while the expression is built (`_build`), before each operation:

- a number x (a literal or an exact intermediate) must have |log10 |x|| <= `MAX_DIGITS`
  (float64 itself ends at about 10^±308);
- a power b^e whose exponent e is a number needs |e| <= `MAX_EXPONENT`, and when b is a
  number too, |e| |log10 |b|| <= `MAX_DIGITS` (the digits of the result);
- exp (also inside sigmoid and softplus) of a number x needs |x| <= `MAX_DIGITS` ln 10, since
  SymPy rewrites exp(n log y) as the exact power y^n;
- calls and powers nest at most `MAX_NESTING` deep, and the whole tree at most `MAX_DEPTH`.

What is left (SymPy's simplification, the grid evaluations) is bounded in time: `within_budget`
runs it on a helper thread and refuses a formula whose analysis takes longer than
`FORMULA_SECONDS`. Every refusal is `BadInput` (one line; exit 2 on the command line).
"""

from __future__ import annotations

import ast
import math
import threading
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import sympy as sp

from .errors import BadInput

__all__ = ["T_SYMBOL", "parse_formula", "ALLOWED_FUNCTIONS", "is_constant_in_t", "within_budget", "MAX_DIGITS", "MAX_EXPONENT",
           "MAX_NESTING", "MAX_DEPTH", "FORMULA_SECONDS"]

#: |log10| of the largest and smallest number a formula may hold, literal or exact intermediate
MAX_DIGITS = 1000
#: the largest |exponent| of a power whose exponent is a number
MAX_EXPONENT = 10_000
#: function calls and powers inside one another
MAX_NESTING = 16
#: depth of the whole syntax tree (operators, calls, powers)
MAX_DEPTH = 64
#: seconds that the analysis of one formula may take (`within_budget`)
FORMULA_SECONDS = 10.0
_LOG10_OF_2 = math.log10(2.0)

T_SYMBOL = sp.Symbol("t", real=True)

ALLOWED_FUNCTIONS = {
    "sin": sp.sin,
    "cos": sp.cos,
    "tan": sp.tan,
    "exp": sp.exp,
    "log": sp.log,
    "sqrt": sp.sqrt,
    "tanh": sp.tanh,
    "sinh": sp.sinh,
    "cosh": sp.cosh,
    "atan": sp.atan,
    "abs": sp.Abs,
    "sigmoid": lambda x: 1 / (1 + sp.exp(-x)),
    "softplus": lambda x: sp.log(1 + sp.exp(x)),
}
_CONSTANTS = {"t": T_SYMBOL, "pi": sp.pi, "E": sp.E}
_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}
_MAX_LENGTH = 500
#: functions that exponentiate their argument: exp(x) of a number x is refused beyond |x| = MAX_DIGITS ln 10
_EXPONENTIAL = frozenset({"exp", "sigmoid", "softplus"})


def _log10_abs(value: sp.Expr) -> float:
    """log10 |value| of a number, without computing anything large: exact rationals by their bit
    lengths (to within one digit), floats by their binary exponent, other numbers (pi, sqrt(2),
    exp(3)) at 15 digits (their parts are bounded already); inf for a number that is not finite."""
    if value.is_zero:
        return -math.inf
    if value.is_Rational:
        return (abs(int(value.p)).bit_length() - int(value.q).bit_length()) * _LOG10_OF_2
    if value.is_Float:
        _, mantissa, exponent, bits = value._mpf_
        return math.inf if not mantissa and exponent else (exponent + bits) * _LOG10_OF_2
    if value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return math.inf
    approx = sp.Abs(value).evalf(15)
    return _log10_abs(approx) if approx.is_Float or approx.is_Rational else math.inf


def _bounded(value: sp.Expr, text: str) -> sp.Expr:
    """`value`, once every number in it is within 10^±MAX_DIGITS and every numeric power's
    exponent within MAX_EXPONENT (`BadInput` otherwise)."""
    size = _log10_abs(value) if value.is_Number else 0.0
    if size > MAX_DIGITS or -math.inf < size < -MAX_DIGITS:
        raise BadInput(f"formula {_short(text)!r} holds a number of magnitude beyond 10^±{MAX_DIGITS} (float64 ends near 10^±308)")
    if value.is_Pow and value.exp.is_Number and _log10_abs(value.exp) > math.log10(MAX_EXPONENT):
        raise BadInput(f"formula {_short(text)!r} raises to a power beyond ±{MAX_EXPONENT:,}: too costly to compute with")
    return value


def _power(base: sp.Expr, exponent: sp.Expr, text: str) -> sp.Expr:
    """base^exponent, refused before SymPy computes it when its exponent or its digits are too many."""
    if exponent.is_number:
        size = _log10_abs(exponent)
        if size > math.log10(MAX_EXPONENT):
            raise BadInput(f"formula {_short(text)!r} raises to a power beyond ±{MAX_EXPONENT:,}: too costly to compute with")
        if base.is_number and size > -math.inf:
            digits = 10.0**size * abs(_log10_abs(base)) if not base.is_zero else 0.0
            if not digits <= MAX_DIGITS:
                raise BadInput(f"formula {_short(text)!r} holds a power with about 10^{math.log10(digits) if digits > 0 else 0:.0f} digits, "
                               f"beyond 10^±{MAX_DIGITS}: too large to compute with")
    return _bounded(base**exponent, text)


def _call(name: str, argument: sp.Expr, text: str) -> sp.Expr:
    if name in _EXPONENTIAL and argument.is_number and _log10_abs(argument) > math.log10(MAX_DIGITS * math.log(10.0)):
        raise BadInput(f"formula {_short(text)!r}: {name}() of a number beyond ±{MAX_DIGITS * math.log(10.0):.0f} is beyond 10^±{MAX_DIGITS}: "
                       "too large to compute with")
    return _bounded(ALLOWED_FUNCTIONS[name](argument), text)


def _short(text: str, limit: int = 60) -> str:
    """The formula as a message quotes it: at most `limit` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_shape(tree: ast.AST, text: str) -> None:
    """Refuse a syntax tree deeper than MAX_DEPTH, or with calls and powers nested deeper than
    MAX_NESTING (an explicit walk: no recursion on the user's depth)."""
    stack = [(tree, 0, 0)]
    while stack:
        node, depth, nesting = stack.pop()
        if depth > MAX_DEPTH:
            raise BadInput(f"formula {_short(text)!r} is nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, ast.Call) or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)):
            nesting += 1
            if nesting > MAX_NESTING:
                raise BadInput(f"formula {_short(text)!r} nests functions and powers deeper than {MAX_NESTING} levels")
        stack.extend((child, depth + 1, nesting) for child in ast.iter_child_nodes(node))


def _build(node: ast.AST, text: str) -> sp.Expr:
    if isinstance(node, ast.Expression):
        return _build(node.body, text)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return _bounded(sp.Integer(node.value) if isinstance(node.value, int) else sp.Float(node.value), text)
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise BadInput(f"unknown name {node.id!r} in {text!r}: only t, pi, E and {', '.join(sorted(ALLOWED_FUNCTIONS))}(...) are allowed")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _build(node.left, text), _build(node.right, text)
        if isinstance(node.op, ast.Pow):
            return _power(left, right, text)
        return _bounded(_BINARY[type(node.op)](left, right), text)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _build(node.operand, text)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in ALLOWED_FUNCTIONS:
            name = _source(node.func)
            what = f"function {name!r}" if isinstance(node.func, ast.Name) else f"calling {name!r}"
            raise BadInput(f"{what} is not allowed in {text!r}; allowed: t, pi, E, numbers, + - * / ^ and {', '.join(sorted(ALLOWED_FUNCTIONS))}(...)")
        if node.keywords or len(node.args) != 1:
            raise BadInput(f"{node.func.id}() takes exactly one positional argument in {text!r}")
        return _call(node.func.id, _build(node.args[0], text), text)
    raise BadInput(f"{_CONSTRUCTS.get(type(node), 'this construct')} {_source(node)!r} is not allowed in {text!r}; allowed: t, pi, E, numbers, "
                   f"+ - * / ^ and {', '.join(sorted(ALLOWED_FUNCTIONS))}(...)")


#: how a rejected piece of a formula is named in the message
_CONSTRUCTS = {ast.Attribute: "attribute access", ast.Subscript: "indexing", ast.Lambda: "a lambda", ast.Compare: "a comparison",
               ast.BoolOp: "a boolean operator", ast.IfExp: "a conditional", ast.Constant: "the constant", ast.Tuple: "a tuple",
               ast.List: "a list", ast.Dict: "a dict", ast.Set: "a set", ast.ListComp: "a comprehension", ast.GeneratorExp: "a generator",
               ast.JoinedStr: "an f-string", ast.BinOp: "the operator in", ast.UnaryOp: "the operator in", ast.NamedExpr: "an assignment"}


def _source(node: ast.AST, limit: int = 40) -> str:
    """The text of `node`, shortened: what the user wrote, not the parser's internals."""
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001  (a message only)
        text = type(node).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_formula(text: str) -> sp.Expr:
    """The SymPy expression for `text`, a formula in `t`; `BadInput` if rejected."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("empty formula")
    if len(text) > _MAX_LENGTH:
        raise BadInput(f"formula longer than {_MAX_LENGTH} characters")
    try:  # users write t^2; Python's ^ binds looser than +, so rewrite it before parsing
        tree = ast.parse(text.strip().replace("^", "**"), mode="eval")
    except SyntaxError as exc:
        raise BadInput(f"cannot parse formula {text!r}: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise BadInput(f"formula {_short(text)!r} is nested deeper than {MAX_DEPTH} levels") from None
    _check_shape(tree, text)
    try:
        expr = sp.sympify(_build(tree, text))
    except BadInput:
        raise
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
        raise BadInput(f"cannot build formula {text!r}: {exc}") from None
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise BadInput(f"formula {text!r} is not finite")
    return expr


def is_constant_in_t(expr: sp.Expr, probes: int = 7) -> bool:
    """Whether SymPy proves that `expr` does not depend on t: t does not occur, or d/dt
    simplifies to 0 (e.g. ``sin(t)^2 + cos(t)^2``). False when it does not or SymPy cannot
    tell: a caller may rely on True as a proof. The derivative is first evaluated in float64 at
    a few points of [0, 1] (never exactly: (1/6)^(10^4) has thousands of digits); a clearly
    non-zero value ends the search before any simplification, which `within_budget` bounds."""
    if T_SYMBOL not in expr.free_symbols:
        return True
    derivative = sp.diff(expr, T_SYMBOL)
    if derivative == 0 or derivative.is_zero is True:
        return True
    slope = sp.lambdify(T_SYMBOL, derivative, "numpy")
    with np.errstate(all="ignore"):
        for k in range(probes):
            try:
                value = complex(slope(np.float64(k / (probes - 1))))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError, ArithmeticError):
                continue
            if np.isfinite(value) and abs(value) > 1e-12:
                return False
    return within_budget(lambda: sp.simplify(derivative) == 0, f"simplifying d/dt of {expr}")


_T = TypeVar("_T")


def within_budget(compute: Callable[[], _T], what: str, seconds: float | None = None) -> _T:
    """`compute()`, refused (`BadInput`) when it takes longer than `seconds` (default
    `FORMULA_SECONDS`). It runs on a daemon thread, which is left to finish on its own after a
    refusal (Python cannot stop a thread); the caller gets its answer, or its exception, at once."""
    limit = FORMULA_SECONDS if seconds is None else seconds
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = compute()
        except BaseException as exc:  # noqa: BLE001  (handed to the caller)
            box["error"] = exc

    worker = threading.Thread(target=run, name="nacverify-formula", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        raise BadInput(f"{_short(what, 80)} takes longer than {limit:g} s: formula too costly")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
