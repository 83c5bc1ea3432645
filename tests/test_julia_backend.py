"""The Julia backend: detection (for real, with stand-in executables), the error path, the
shipped Julia package, and, where a Julia exists, solves that must agree with scipy."""

import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nacverify.claims import Verdict
from nacverify.cli.app import app
from nacverify.errors import EnvironmentProblem
from nacverify.solvers import get_backend, require_backend
from nacverify.solvers.julia_backend import julia_files
from nacverify.solvers.julia_detect import MIN_JULIA, find_julia

ROOT = Path(__file__).resolve().parents[1]
JULIA_VARS = ("PYTHON_JULIACALL_EXE", "PYTHON_JULIACALL_BINDIR", "PYTHON_JULIACALL_PROJECT", "PYTHON_JULIAPKG_EXE", "JULIA", "JULIAUP_DEPOT_PATH")


@pytest.fixture
def no_julia(monkeypatch, tmp_path):
    """An environment where no Julia can be found: empty PATH and HOME, no variables."""
    for var in JULIA_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_JULIAPKG_PROJECT", str(tmp_path / "env"))
    (tmp_path / "bin").mkdir()
    return tmp_path


def _fake_julia(path: Path, answer: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho '{answer}'\n")
    path.chmod(0o755)
    return path


def test_nothing_found_says_where_it_looked(no_julia):
    search = find_julia()
    assert not search.found
    reason = search.reason()
    for place in ("$PYTHON_JULIACALL_EXE", "$PYTHON_JULIAPKG_EXE", "$JULIA", "julia on PATH", "juliaup", "juliapkg's install prefix"):
        assert place in reason
    assert "never downloads Julia" in reason
    status = get_backend("julia").availability()
    assert not status.available and status.reason == reason


def test_julia_on_path_is_found_and_version_parsed(no_julia):
    exe = _fake_julia(no_julia / "bin" / "julia", "julia version 1.11.2")
    search = find_julia()
    assert search.found and search.executable == str(exe) and search.version == (1, 11, 2) and search.source == "PATH"
    status = get_backend("julia").availability()
    assert status.available and status.version == "Julia 1.11.2"


def test_old_and_fake_julias_are_rejected(no_julia, monkeypatch):
    _fake_julia(no_julia / "bin" / "julia", "julia version 1.6.7")
    fake = _fake_julia(no_julia / "other" / "notjulia", "Python 3.11")
    monkeypatch.setenv("PYTHON_JULIAPKG_EXE", str(fake))
    monkeypatch.setenv("JULIA", str(no_julia / "missing" / "julia"))
    search = find_julia()
    assert not search.found
    text = " ".join(search.rejected)
    assert "older than" in text and f"{MIN_JULIA[0]}.{MIN_JULIA[1]}" in text
    assert "does not answer `--version` as Julia" in text
    assert "$JULIA" in text and "not an executable file" in text


def test_environment_variables_take_precedence(no_julia, monkeypatch):
    _fake_julia(no_julia / "bin" / "julia", "julia version 1.10.0")
    chosen = _fake_julia(no_julia / "opt" / "julia-1.12" / "bin" / "julia", "julia version 1.12.1")
    monkeypatch.setenv("PYTHON_JULIAPKG_EXE", str(chosen))
    search = find_julia()
    assert search.executable == str(chosen) and search.source == "$PYTHON_JULIAPKG_EXE"


def test_juliaup_installation_is_found(no_julia, monkeypatch):
    depot = no_julia / "home" / ".julia"
    exe = _fake_julia(depot / "juliaup" / "julia-1.10.5+0.x64.linux.gnu" / "bin" / "julia", "julia version 1.10.5")
    meta = {"InstalledVersions": {"1.10.5+0.x64.linux.gnu": {"Path": "julia-1.10.5+0.x64.linux.gnu"}}}
    (depot / "juliaup" / "juliaup.json").write_text(json.dumps(meta))
    search = find_julia()
    assert search.found and Path(search.executable) == exe.resolve() and "juliaup" in search.source


def test_half_configured_juliacall_is_unavailable_with_reason(no_julia, monkeypatch):
    _fake_julia(no_julia / "bin" / "julia", "julia version 1.11.2")
    monkeypatch.setenv("PYTHON_JULIACALL_EXE", str(no_julia / "bin" / "julia"))
    status = get_backend("julia").availability()
    assert not status.available and "PYTHON_JULIACALL_PROJECT" in status.reason


def test_missing_julia_raises_and_exits_3(no_julia, tmp_path):
    with pytest.raises(EnvironmentProblem, match="backend julia is not available: no Julia executable found"):
        require_backend("julia")
    res = CliRunner().invoke(app, ["solve", "nac", "--regime", "slow", "--backend", "scipy,julia", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 3, res.output
    assert "backend julia is not available" in res.output and "looked for" in res.output
    assert not (tmp_path / "r.h5").exists()


def test_detection_never_imports_juliacall(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in JULIA_VARS}
    env.update(PATH=str(tmp_path), HOME=str(tmp_path), PYTHON_JULIAPKG_PROJECT=str(tmp_path / "env"), JAX_PLATFORMS="cpu")
    code = textwrap.dedent(
        """
        import sys
        from nacverify.solvers import backend_status
        from nacverify.cli.app import app
        from typer.testing import CliRunner
        statuses = {s.name: s.available for s in backend_status()}
        res = CliRunner().invoke(app, ["backends"])
        print(statuses["julia"], res.exit_code, "juliacall" in sys.modules, "juliapkg" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, check=True)
    assert out.stdout.split() == ["False", "0", "False", "False"], out.stdout + out.stderr
    assert not (tmp_path / "env").exists()  # juliapkg created nothing


def test_backends_command_lists_all(no_julia):
    res = CliRunner().invoke(app, ["backends", "--verbose"])
    assert res.exit_code == 0, res.output
    for name in ("diffrax", "scipy", "mpmath", "julia"):
        assert name in res.output
    assert "julia looked:" in res.output


def test_julia_package_is_consistent():
    root, deps_json, src = (Path(str(p)) for p in julia_files())
    project = tomllib.loads((root / "Project.toml").read_text())
    deps = json.loads(deps_json.read_text())
    assert project["name"] == "NACVerify" and re.fullmatch(r"[0-9a-f-]{36}", project["uuid"])
    assert project["compat"]["julia"] == deps["julia"] == f"{MIN_JULIA[0]}.{MIN_JULIA[1]}"
    for name, info in deps["packages"].items():  # juliapkg gets what Project.toml declares, same bounds
        assert project["deps"][name] == info["uuid"]
        assert project["compat"][name] == info["version"]
    assert set(project["deps"]) - set(deps["packages"]) == {"LinearAlgebra"}  # a stdlib needs no juliapkg entry
    assert set(project["compat"]) >= set(project["deps"]) | {"julia"}  # every dependency has compat bounds
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert {"Project.toml", "juliapkg.json", "src/*.jl"} <= set(pyproject["tool"]["setuptools"]["package-data"]["nacverify.julia"])
    text = src.read_text()
    python_side = (ROOT / "nacverify" / "solvers" / "julia_backend.py").read_text()
    for fn in set(re.findall(r"jmod\.(\w+)\(", python_side)):  # every function Python calls is defined in Julia
        assert re.search(rf"^(function {fn}\(|{fn}\()", text, re.M), fn
    for alg in get_backend("julia").availability().methods:
        assert f'"{alg}" =>' in text


def test_custom_formula_translation_to_julia():
    from sympy.printing.julia import julia_code

    from nacverify.custom_expr import parse_formula

    assert julia_code(parse_formula("0.5 + 0.05*sin(6*t)")) == "0.05 * sin(6 * t) + 0.5"
    assert julia_code(parse_formula("E*t")) == "e * t"  # bound to Base.MathConstants.e by custom_julia_function


# ----------------------------------------------------------------------------- real Julia

_SEARCH = find_julia()
needs_julia = pytest.mark.skipif(not _SEARCH.found or get_backend("julia").availability().available is False,
                                 reason=f"julia backend unavailable: {get_backend('julia').availability().reason}")


@pytest.mark.julia
@needs_julia
@pytest.mark.parametrize("name", ["slow", "fast", "step", "oscillatory"])
def test_julia_agrees_on_the_four_regimes(name):
    from nacverify.regimes import named_regime
    from nacverify.solvers import nac_problem
    from nacverify.checks.solver_agreement import agreement_outcome, solve_with

    run = solve_with(nac_problem(named_regime(name), points=51), ["julia", "scipy"])
    out = agreement_outcome(run)
    assert out.verdict == Verdict.HOLDS, out.message


@pytest.mark.julia
@needs_julia
@pytest.mark.parametrize("form", ["abstract", "biophysical"])
@pytest.mark.parametrize("kind", ["smooth", "irregular"])
def test_julia_agrees_on_ltc(form, kind):
    from nacverify.ltc import ltc_problem
    from nacverify.solvers import ltc_as_problem
    from nacverify.checks.solver_agreement import agreement_outcome, solve_with

    problem = ltc_as_problem(ltc_problem(form, neurons=3, inputs=2, input_kind=kind, seed=2), points=51)
    for method in ("Vern9", "Rodas5P"):
        run = solve_with(problem, ["julia", "scipy"], methods={"julia": method})
        assert agreement_outcome(run).verdict == Verdict.HOLDS, method


@pytest.mark.julia
@needs_julia
def test_julia_custom_formula_agrees():
    from nacverify.regimes import custom_regime
    from nacverify.solvers import nac_problem
    from nacverify.checks.solver_agreement import agreement_outcome, solve_with

    run = solve_with(nac_problem(custom_regime("0.5 + 0.05*sin(6*t)", "1 + E*0.01*t"), points=21), ["julia", "scipy"])
    assert agreement_outcome(run).verdict == Verdict.HOLDS
