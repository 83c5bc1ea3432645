"""The rough edges a new user hit (issue 13, item 5): constant coefficients, Python warnings on the
terminal, the gate line, and "seed -1".

Commands run as the console script in fresh processes with ``PYTHONWARNINGS=always``, so that any
warning raised anywhere (also in worker processes) would reach stderr, as it would a user's terminal.
"""

from __future__ import annotations

import re
import json
import os
import shutil
import subprocess

import h5py
import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.claims import Evidence, Outcome, Verdict, evaluate
from nacverify.cli.app import app
from nacverify.custom_expr import is_constant_in_t, parse_formula
from nacverify.frozen import RegimeSpec, SolveOptions
from nacverify.frozen._exact import exact_outcome
from nacverify.frozen.claims import instance_claims
from nacverify.report import Report, read_report, write_report

runner = CliRunner()
BOUND_CLAIMS = ("nac.thm3.bound.custom", "nac.thm3.sharp.custom", "nac.thm3.bv.custom", "nac.table2.bound.custom")


def _nacverify(*args: str, cwd) -> subprocess.CompletedProcess:
    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    env = dict(os.environ, PYTHONWARNINGS="always", JAX_PLATFORMS="cpu")
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


@pytest.fixture(scope="module")
def constant_run(tmp_path_factory):
    """`nacverify frozen-error --regime custom --phi 0.5 --omega 1.3`, the first sanity check anyone runs."""
    tmp = tmp_path_factory.mktemp("constant")
    proc = _nacverify("frozen-error", "--regime", "custom", "--phi", "0.5", "--omega", "1.3", "--out", "r.h5", cwd=tmp)
    return proc, tmp / "r.h5"


# ---------------------------------------------------------------------------- constant coefficients
def test_constant_coefficients_hold_with_the_exact_margin(constant_run):
    """It used to exit 1 with four `inconclusive` verdicts (a bound of 0 against solver noise) and a
    divide-by-zero RuntimeWarning. phi and omega are constant, so a_frozen is the exact solution."""
    proc, path = constant_run
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr, proc.stderr
    data = read_report(path)
    for cid in BOUND_CLAIMS:
        rec = data.claims[cid]
        assert (rec.verdict, rec.expected) == ("holds", "holds"), (cid, rec.message)
        assert "frozen solution is exact" in rec.message and "exact margin 0" in rec.message
        assert rec.scalars["constant_coefficients"] and rec.scalars["exact_error"] == 0.0 and rec.scalars["exact_margin"] == 0.0
        assert 0 < rec.scalars["measured_max_error"] < 1e-8  # what the solver measured: noise, not 0
    # the measured error really is at solver noise: |a_varying - a_frozen| against 0.5/1.3 (1 - e^{-1.3 t}) by hand
    sec = data.sections["frozen_error"]["custom"]
    closed = 0.5 / 1.3 * -np.expm1(-1.3 * sec["t"])
    assert np.max(np.abs(sec["a_varying"] - closed)) < 1e-9 and np.max(np.abs(sec["a_frozen"] - closed)) < 1e-14


@pytest.mark.parametrize("text, constant", [
    ("0.5", True), ("1.3", True), ("sin(t)^2 + cos(t)^2", True), ("log(exp(t)) - t + 2", True), ("0*t + 1", True),
    ("0.5 + 0.05*sin(6*t)", False), ("1 + 0.1*t^2", False), ("1 + 1e-20*t", False), ("exp(-1/(t + 1))", False),
])
def test_constant_is_decided_symbolically(text, constant):
    assert is_constant_in_t(parse_formula(text)) is constant


def test_only_a_provably_zero_error_turns_noise_into_holds():
    """'sin(t)^2 + cos(t)^2' is proved constant; '0.5 + 1e-13 t' is not constant, its bound (about 1e-13) is
    below the solver's noise: that stays inconclusive, as before."""
    assert RegimeSpec("custom", phi_formula="0.5*(sin(t)^2 + cos(t)^2)", omega_formula="1.3").constant_coefficients
    assert RegimeSpec("slow", phi_variation_pct=0.0, omega_variation_pct=0.0).constant_coefficients
    assert not RegimeSpec("slow").constant_coefficients and not RegimeSpec("slow", phi_variation_pct=0.0).constant_coefficients
    near = RegimeSpec("custom", phi_formula="0.5 + 1e-13*t", omega_formula="1.3")
    assert not near.constant_coefficients
    opts = SolveOptions(points=101)
    (bv,) = [evaluate(c) for c in instance_claims(near, opts) if c.id == "nac.thm3.bv.custom"]
    assert bv.verdict == Verdict.INCONCLUSIVE and "exact" not in bv.outcome.message
    zero = RegimeSpec("slow", phi_variation_pct=0.0, omega_variation_pct=0.0)
    out = {c.id: evaluate(c) for c in instance_claims(zero, opts) if c.id.startswith("nac.thm3.")}
    assert all(out[f"nac.thm3.{b}.slow"].verdict == Verdict.HOLDS for b in ("bound", "sharp", "bv"))
    assert out["nac.thm3.sharp.slow"].outcome.evidence.scalars["exact_margin"] == 0.0


def test_a_measurement_contradicting_the_proof_is_never_holds():
    refuted = Outcome(Verdict.REFUTED, "|eps| exceeds the bound", Evidence(scalars={"min_slack": -1.0}, witness={"a0": 0.0}))
    out = exact_outcome(refuted, "the bound", 0.25)
    assert out.verdict == Verdict.INCONCLUSIVE and "the solve is off" in out.message
    assert out.evidence.scalars["measured_min_slack"] == -1.0 and out.evidence.witness == {"a0": 0.0}
    assert exact_outcome(Outcome(Verdict.INAPPLICABLE, "not Lipschitz"), "the bound", 0.0).verdict == Verdict.INAPPLICABLE


# ---------------------------------------------------------------------------- warnings and the gate line
def test_no_warning_and_a_complete_gate_line(tmp_path, constant_run):
    """No Python warning reaches stderr (with every warning switched on), and the gate line is one whole
    line ending in a newline."""
    from nacverify.audit import write_export
    from test_audit import make

    bad = make("exact")
    bad["attention"] = bad["attention"] * 1.1
    write_export(bad, tmp_path / "bad.npz")
    proc = _nacverify("audit", "bad.npz", "--out", "a.h5", cwd=tmp_path)
    assert proc.returncode == 1
    # the gate line names the claim and gives its reason (the start of its message), each on a whole line
    assert re.search(r"gate: 1 verdict\(s\) differ from expected:\n  audit\.attention_rows: refuted, expected holds: \d+ of \d+ rows do not sum to 1[^\n]*\n\Z", proc.stderr), repr(proc.stderr)
    _, report = constant_run
    runs = [proc,
            _nacverify("report", "show", str(report), cwd=tmp_path),
            _nacverify("report", "html", str(report), "--out", "html", cwd=tmp_path),
            _nacverify("prove", "--only", "nac.eq3.*", "--out", "p.h5", cwd=tmp_path)]
    for run in runs:
        assert "Warning" not in run.stderr, (run.args, run.stderr)
    assert [r.returncode for r in runs[1:]] == [0, 0, 0], [r.stderr for r in runs]


def test_gate_line_under_the_no_gate_note_also_ends_the_line(tmp_path):
    from nacverify.audit import write_export
    from test_audit import make

    bad = make("exact")
    bad["attention"] = bad["attention"] * 1.1
    write_export(bad, tmp_path / "bad.npz")
    res = runner.invoke(app, ["audit", str(tmp_path / "bad.npz"), "--out", str(tmp_path / "a.h5"), "--no-gate"])
    assert res.exit_code == 0
    assert re.search(r"note: 1 verdict\(s\) differ from expected \(--no-gate\):\n  audit\.attention_rows: refuted, expected holds: [^\n]+\n\Z", res.stderr), repr(res.stderr)


# ---------------------------------------------------------------------------- seed
def test_a_run_without_seed_shows_none(tmp_path):
    """Reports of runs without random draws printed 'seed -1'. The attribute stays the integer -1 (every
    report, old or new, reads alike: reports/SCHEMA.md); readers show `none`."""
    path = write_report(Report(command="nacverify audit x.npz"), tmp_path / "none.h5")
    seeded = write_report(Report(command="nacverify check --seed 3", seed=3), tmp_path / "three.h5")
    with h5py.File(path) as fh:
        assert int(fh.attrs["seed"]) == -1 and fh.attrs["seed"].dtype.kind == "i"
    assert read_report(path).seed is None and read_report(seeded).seed == 3
    shown = runner.invoke(app, ["report", "show", str(path)])
    assert shown.exit_code == 0 and "seed: none" in shown.output and "seed: -1" not in shown.output
    assert "seed: 3" in runner.invoke(app, ["report", "show", str(seeded)]).output
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(tmp_path / "page")]).exit_code == 0
    page = (tmp_path / "page" / "index.html").read_text()
    assert "<td>seed</td><td class=\"mono\">none</td>" in page and "<td class=\"mono\">-1</td>" not in page
    diff = runner.invoke(app, ["report", "diff", str(path), str(seeded), "--allow-missing"])
    assert "seed differs: none -> 3" in diff.output
    for fmt in (["report", "show", str(path), "--format", "json"], ["report", "export", str(path), "--to", "json", "--out", str(tmp_path / "r.json")]):
        res = runner.invoke(app, fmt)
        assert res.exit_code == 0, res.output
        doc = json.loads(res.stdout if fmt[1] == "show" else (tmp_path / "r.json").read_text())
        assert doc["attributes"]["seed"] is None  # JSON says null, not -1
    doc = json.loads(runner.invoke(app, ["report", "show", str(seeded), "--format", "json"]).stdout)
    assert doc["attributes"]["seed"] == 3
