"""`nacverify solve nac|ltc` through CliRunner: tables, claims, HDF5 report, exit codes."""

import numpy as np
from typer.testing import CliRunner

from nacverify.cli.app import app
from nacverify.report import read_report

runner = CliRunner()


def test_solve_nac_step_writes_report(tmp_path):
    out = tmp_path / "r.h5"
    res = runner.invoke(app, ["solve", "nac", "--regime", "step", "--points", "41", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "diffrax-scipy" in res.output and "scipy-mpmath" in res.output and "solvers.agree.nac.step" in res.output
    data = read_report(out)
    claim = data.claims["solvers.agree.nac.step"]
    assert claim.verdict == "holds" and claim.expected == "holds"
    assert claim.scalars["max_relative_discrepancy"] <= 1e-9 and claim.scalars["tolerance"] == 1e-9
    sec = data.sections["solve"]["nac.step"]
    assert sec["t"].shape == (41,) and np.allclose(sec["breaks"], [0.5])
    for name in ("diffrax", "scipy", "mpmath"):
        assert sec[name]["ys"].shape == (1, 41)
    np.testing.assert_allclose(sec["diffrax"]["ys"], sec["mpmath"]["ys"], rtol=0, atol=1e-9)
    rel = sec["pairs"]["diffrax-mpmath"]["relative"]
    assert rel == claim.scalars["relative_diffrax_mpmath"]


def test_solve_ltc_methods_and_no_estimate(tmp_path):
    out = tmp_path / "l.h5"
    args = ["solve", "ltc", "--form", "abstract", "--input", "irregular", "--neurons", "2", "--inputs", "1", "--events", "2", "--T", "0.5",
            "--points", "21", "--backend", "scipy,mpmath", "--method", "scipy=Radau", "--mp-dps", "18", "--no-estimate", "--out", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data = read_report(out)
    sec = data.sections["solve"]["ltc.abstract.sigmoid.irregular"]
    assert sec["scipy"]["method"] == "Radau" and sec["mpmath"]["method"].startswith("taylor(dps=18")
    assert np.all(np.isnan(sec["scipy"]["error_estimate"]))
    assert data.claims["solvers.agree.ltc.abstract.sigmoid.irregular"].verdict == "holds"


def test_solve_ltc_claim_id_and_source_carry_the_activation(tmp_path):
    # the tanh run used to report under solvers.agree.ltc.abstract.smooth, the sigmoid run's id, citing eq. 9a (tanh) for both
    out = tmp_path / "t.h5"
    args = ["solve", "ltc", "--form", "abstract", "--input", "smooth", "--activation", "tanh", "--neurons", "2", "--inputs", "1", "--T", "0.3",
            "--points", "11", "--backend", "diffrax,scipy", "--no-estimate", "--out", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data = read_report(out)
    claim = data.claims["solvers.agree.ltc.abstract.tanh.smooth"]
    assert "solvers.agree.ltc.abstract.smooth" not in data.claims
    assert "eq. 9a" in claim.source and "tanh" in claim.source


def test_solve_usage_errors_exit_2(tmp_path):
    cases = [
        ["solve", "nac", "--backend", "scipy"],  # one backend: nothing to compare
        ["solve", "nac", "--backend", "scipy,nope"],
        ["solve", "nac", "--backend", "scipy,mpmath", "--method", "scipy"],
        ["solve", "nac", "--backend", "scipy,mpmath", "--method", "scipy=RK45", "--regime", "slow"],
        ["solve", "nac", "--regime", "slow", "--rate", "3"],
        ["solve", "nac", "--regime", "custom", "--phi", "0.5"],
        ["solve", "nac", "--rtol", "nan"],
        ["solve", "ltc", "--neurons", "0"],
        ["solve", "ltc", "--mp-dps", "8"],
    ]
    for args in cases:
        res = runner.invoke(app, [*args, "--out", str(tmp_path / "x.h5")])
        assert res.exit_code == 2, (args, res.output)
        assert "Traceback" not in res.output


def test_frozen_error_backend_scipy_matches_diffrax(tmp_path):
    runs = {}
    for backend in ("diffrax", "scipy"):
        out = tmp_path / f"{backend}.h5"
        res = runner.invoke(app, ["frozen-error", "--regime", "step", "--points", "201", "--backend", backend, "--out", str(out)])
        assert res.exit_code == 0, res.output
        runs[backend] = read_report(out)
    d, s = (runs[b].sections["frozen_error"]["step"] for b in ("diffrax", "scipy"))
    assert s["backend"] == "scipy" and d["backend"] == "diffrax"
    np.testing.assert_allclose(s["a_varying"], d["a_varying"], rtol=0, atol=1e-9)
    assert {k: c.verdict for k, c in runs["scipy"].claims.items()} == {k: c.verdict for k, c in runs["diffrax"].claims.items()}


def test_frozen_error_backend_errors(tmp_path, monkeypatch):
    for var in ("PYTHON_JULIACALL_EXE", "PYTHON_JULIACALL_BINDIR", "PYTHON_JULIACALL_PROJECT", "PYTHON_JULIAPKG_EXE", "JULIA", "JULIAUP_DEPOT_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_JULIAPKG_PROJECT", str(tmp_path / "env"))
    out = str(tmp_path / "f.h5")
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--backend", "julia", "--out", out])
    assert res.exit_code == 3 and "backend julia is not available" in res.output
    assert runner.invoke(app, ["frozen-error", "--regime", "slow", "--backend", "nope", "--out", out]).exit_code == 2
    assert runner.invoke(app, ["frozen-error", "--regime", "slow", "--backend", "scipy", "--sweep", "10", "--out", out]).exit_code == 2
