import pytest
import sympy as sp

from nacverify.custom_expr import T_SYMBOL, parse_formula
from nacverify.errors import BadInput


@pytest.mark.parametrize(
    "text, at_one",
    [("1+0.2*t^2", 1.2), ("0.5 + 0.05*sin(2*pi*t)", 0.5), ("exp(-t)", 0.36787944117144233), ("sigmoid(0*t)", 0.5), ("abs(-t)", 1.0), ("2**3", 8.0)],
)
def test_accepted_formulas(text, at_one):
    assert float(parse_formula(text).subs(T_SYMBOL, 1)) == pytest.approx(at_one)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "t.real",
        "(lambda x: x)(t)",
        "[t for t in range(3)]",
        "x + 1",
        "open('f')",
        "sin(t, 2)",
        "sin(x=t)",
        "t[0]",
        "'abc'",
        "",
        "1/0",
        "t +",
        "True",
        "exec('1')",
    ],
)
def test_rejected_formulas(text):
    with pytest.raises(BadInput):
        parse_formula(text)


def test_no_eval_of_attribute_chain():
    with pytest.raises(BadInput, match="not allowed"):
        parse_formula("sin.__globals__")


def test_symbolic_derivative_is_exact():
    expr = parse_formula("t^3 - 2*t")
    assert sp.simplify(sp.diff(expr, T_SYMBOL) - (3 * T_SYMBOL**2 - 2)) == 0


def test_a_formula_that_is_not_finite_names_its_option():
    """Issue 23: `--phi 'log(t-2)'` said 'formula is not finite at t = 0' without naming the option (the grid
    check ran before the t = 0 check); a formula finite at 0 but not on the window names its option too."""
    from typer.testing import CliRunner

    from nacverify.cli.app import app

    res = CliRunner().invoke(app, ["frozen-error", "--regime", "custom", "--phi", "log(t-2)", "--omega", "1"])
    assert res.exit_code == 2 and "--phi is not finite at t = 0" in res.stderr, res.stderr
    res = CliRunner().invoke(app, ["frozen-error", "--regime", "custom", "--phi", "0.5", "--omega", "1/(t-0.5)"])
    assert res.exit_code == 2 and "--omega: formula is not finite at t = 0.5" in res.stderr, res.stderr
