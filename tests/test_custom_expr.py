import pytest
import sympy as sp

from nacverify.custom_expr import T_SYMBOL, is_constant_in_t, parse_formula
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


# ------------------------------------------------------------------ issue 38: a formula's cost is bounded before SymPy computes

#: Formulas whose exact value SymPy would compute for longer than a lifetime (or that hold numbers of
#: thousands of digits, which cannot even be printed): the campaign's two, and more of their family.
COSTLY = {
    "9^9^9^9": "raises to a power beyond",  # 9^(9^387420489): the campaign's hang
    "0.5+t^(10^10^10)": "raises to a power beyond",  # the campaign's second
    "t^(10^9)": "raises to a power beyond",  # exact (1/6)^(10^9) in the constant-in-t probe
    "2^-100000000": "raises to a power beyond",
    "(1/7)^(10^6/3)": "raises to a power beyond",
    "9.0^9^9": "raises to a power beyond",
    "((t^100)^100)^100": "raises to a power beyond",  # SymPy folds it into t^(10^6)
    "E^(10^9*log(10))": "raises to a power beyond",
    "exp(10^9*log(10))": "exp() of a number beyond",  # SymPy rewrites exp(n log 10) as the integer 10^n
    "sigmoid(-10^5)": "sigmoid() of a number beyond",
    "softplus(10^9*log(2))": "softplus() of a number beyond",
    "10^300*10^300*10^300*10^300": "holds a number of magnitude beyond",
    "10^-1001": "holds a number of magnitude beyond",
    "1e999": "holds a number of magnitude beyond",
}


def test_costly_formulas_are_refused_at_once_in_one_line():
    """Issue 38: `--phi '9^9^9^9'` ran forever with growing memory (SymPy evaluates a power of numbers
    exactly). Each formula of the family is refused before anything is computed: a fresh process
    (the old code would hang in C, where no timeout reaches) must finish them all in 60 s."""
    import json
    import subprocess
    import sys

    program = (
        "import json, sys, time\n"
        "from nacverify.custom_expr import parse_formula\n"
        "from nacverify.errors import BadInput\n"
        "out = {}\n"
        "for text in json.loads(sys.argv[1]):\n"
        "    start = time.perf_counter()\n"
        "    try:\n"
        "        parse_formula(text); out[text] = ['accepted', time.perf_counter() - start]\n"
        "    except BadInput as exc:\n"
        "        out[text] = [str(exc), time.perf_counter() - start]\n"
        "print(json.dumps(out))\n"
    )
    proc = subprocess.run([sys.executable, "-c", program, json.dumps(list(COSTLY))], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answers = json.loads(proc.stdout)
    for text, fragment in COSTLY.items():
        message, seconds = answers[text]
        assert fragment in message and "\n" not in message, (text, message)
        assert seconds < 1.0, (text, seconds)


@pytest.mark.parametrize("text, value", [("10^400/10^399", 10.0), ("2^1000/2^999", 2.0), ("t^1000", 1.0), ("exp(700)/exp(699)", 2.718281828459045),
                                         ("1e-300*1e300", 1.0), ("(t+1)^100/2^100", 1.0)])
def test_large_but_bounded_numbers_still_work(text, value):
    """The bounds refuse only what cannot be computed: exact intermediates up to 10^±1000 and
    integer powers up to 10,000 stay exact."""
    assert float(parse_formula(text).subs(T_SYMBOL, 1)) == pytest.approx(value)


def test_nesting_and_depth_are_bounded():
    from nacverify.custom_expr import MAX_DEPTH, MAX_NESTING

    assert parse_formula("sin(" * MAX_NESTING + "t" + ")" * MAX_NESTING) is not None
    with pytest.raises(BadInput, match=f"nests functions and powers deeper than {MAX_NESTING} levels"):
        parse_formula("sin(" * (MAX_NESTING + 1) + "t" + ")" * (MAX_NESTING + 1))
    with pytest.raises(BadInput, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_formula("-" * (MAX_DEPTH + 1) + "t")


def test_the_analysis_of_a_formula_is_bounded_in_time(monkeypatch):
    """What the structural bounds leave (SymPy's simplification) runs under `FORMULA_SECONDS`: a
    simplification that would take 30 s is refused after the budget, in one line."""
    assert is_constant_in_t(parse_formula("tan(t)^2 - 1/cos(t)^2"))  # proved by simplify, within the budget
    import time

    import sympy

    import nacverify.custom_expr as ce

    monkeypatch.setattr(ce, "FORMULA_SECONDS", 0.5)
    monkeypatch.setattr(sympy, "simplify", lambda expr, **kw: time.sleep(30) or expr)
    start = time.perf_counter()
    with pytest.raises(BadInput, match=r"takes longer than 0.5 s: formula too costly"):
        ce.is_constant_in_t(parse_formula("tan(t)^2 - 1/cos(t)^2"))  # d/dt is 0 numerically: only simplify can prove it
    assert time.perf_counter() - start < 5


def test_a_costly_formula_exits_2_in_one_line_from_the_command_line(tmp_path):
    import shutil
    import subprocess

    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    for phi in ("9^9^9^9", "0.5+t^(10^10^10)"):
        proc = subprocess.run([exe, "frozen-error", "--regime", "custom", "--phi", phi, "--omega", "1", "--out", str(tmp_path / "r.h5")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert proc.stderr.strip() == f"nacverify: error: --phi: formula {phi!r} raises to a power beyond ±10,000: too costly to compute with"
        assert not (tmp_path / "r.h5").exists()


@pytest.mark.parametrize("phi", ["0.5+0.01/(t-0.3333333)", "0.5+0.01*sin(1e9*t)"])
def test_a_formula_the_solver_cannot_integrate_is_the_users_input(tmp_path, phi):
    """Issue 38: a pole between the grid's points, or a frequency no step size follows, exited 3
    ("diffrax did not reach t1"), which the README keeps for the environment. It is exit 2, one
    line naming the formulas, and no report."""
    from typer.testing import CliRunner

    from nacverify.cli.app import app

    res = CliRunner().invoke(app, ["frozen-error", "--regime", "custom", "--phi", phi, "--omega", "1", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"nacverify: error: --phi {phi!r} and --omega '1' cannot be integrated on [0, 1]"), res.stderr
    assert not (tmp_path / "r.h5").exists()


def test_a_formula_that_is_not_real_is_refused():
    from nacverify.regimes import custom_regime

    with pytest.raises(BadInput, match="--phi is not real at t = 0"):
        custom_regime("log(-1) + t", "1")
