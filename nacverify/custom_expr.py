"""Parse a user's coefficient formula in `t` safely.

The text is parsed by Python's `ast` and the SymPy expression is built node by node
from a whitelist (numbers, the symbol `t`, `pi`, `E`, arithmetic, `**` or `^`, and the
elementary functions below). Nothing is evaluated with `eval`: attribute access,
subscripts, keywords, lambdas, comprehensions and unknown names are rejected.
"""

from __future__ import annotations

import ast

import sympy as sp

from .errors import BadInput

__all__ = ["T_SYMBOL", "parse_formula", "ALLOWED_FUNCTIONS", "is_constant_in_t"]

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


def _build(node: ast.AST, text: str) -> sp.Expr:
    if isinstance(node, ast.Expression):
        return _build(node.body, text)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return sp.nsimplify(node.value) if isinstance(node.value, int) else sp.Float(node.value)
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise BadInput(f"unknown name {node.id!r} in {text!r}: only t, pi, E and {', '.join(sorted(ALLOWED_FUNCTIONS))}(...) are allowed")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_build(node.left, text), _build(node.right, text))
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
        return ALLOWED_FUNCTIONS[node.func.id](_build(node.args[0], text))
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
    try:
        expr = sp.sympify(_build(tree, text))
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise BadInput(f"cannot build formula {text!r}: {exc}") from None
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise BadInput(f"formula {text!r} is not finite")
    return expr


def is_constant_in_t(expr: sp.Expr, probes: int = 7) -> bool:
    """Whether SymPy proves that `expr` does not depend on t: t does not occur, or d/dt
    simplifies to 0 (e.g. ``sin(t)^2 + cos(t)^2``). False when it does not or SymPy cannot
    tell: a caller may rely on True as a proof. The derivative is first evaluated at a few
    points of [0, 1]; a clearly non-zero value ends the search before any simplification."""
    if T_SYMBOL not in expr.free_symbols:
        return True
    derivative = sp.diff(expr, T_SYMBOL)
    if derivative == 0 or derivative.is_zero is True:
        return True
    for k in range(probes):
        value = derivative.subs(T_SYMBOL, sp.Rational(k, probes - 1)).evalf(30)
        if value.is_number and value.is_finite and abs(complex(value)) > 1e-12:
            return False
    return sp.simplify(derivative) == 0
