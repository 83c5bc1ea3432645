"""`nacverify prove` through CliRunner: listing, selection, the table, counterexample
details, the HDF5 groups, exit codes (0 as expected, 1 gate, 2 usage)."""

import h5py
import sympy as sp
from typer.testing import CliRunner

from nacverify.cli import prove as prove_cmd
from nacverify.cli.app import app
from nacverify.report import read_report
from nacverify.symbolic import HOLDS, Identity, Obligation, all_obligations

runner = CliRunner()


def test_list_shows_every_obligation_without_running():
    res = runner.invoke(app, ["prove", "--list"])
    assert res.exit_code == 0, res.output
    assert f"{len(all_obligations())} proof obligations" in res.output
    assert "nac.thm1.euler.all_steps" in res.output and "[m, M]" in res.output  # markup escaped


def test_selection_table_details_and_report(tmp_path):
    out = tmp_path / "p.h5"
    res = runner.invoke(app, ["prove", "--only", "nac.thm1.*", "--only", "ltc.eq9.*", "--out", str(out), "-v"])  # -v: the table and details
    assert res.exit_code == 0, res.output
    for column in ("claim", "kind", "verdict", "expected", "message"):
        assert column in res.output
    assert "counterexample: a = 0, dt = 3, omega = 1, phi = -1" in res.output   # nac.thm1.euler.all_steps
    assert "ltc.eq9.fused_solve" in res.output and "nac.cor1.eq9" not in res.output
    data = read_report(out)
    assert data.claims["nac.thm1.euler.all_steps"].verdict == "refuted"
    assert data.claims["nac.thm1.euler.all_steps"].witness["dt"] == 3.0
    with h5py.File(out) as h:
        group = h["symbolic/nac.thm1.euler.all_steps"]
        assert group.attrs["verdict"] == "refuted" and "a_n in [m, M]" in group.attrs["statement"]
        assert group["counterexample"].attrs["dt"] == 3.0
        assert "Min(0, phi/omega)" in group["expressions"].attrs["lower.expr"]
        assert group["symbols"].attrs["omega"] == "> 0"
        held = h["symbolic/ltc.eq9.fused_solve"]
        assert held.attrs["verdict"] == "holds" and "counterexample" not in held
        assert held["expressions"].attrs["solutions"] == "[tau*(A*dt*f + x_n)/(dt*f*tau + dt + tau)]"


def test_usage_errors_exit_2(tmp_path):
    res = runner.invoke(app, ["prove", "--only", "no.such.*", "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2 and "no proof obligation matches" in res.output
    out = tmp_path / "exists.h5"
    out.write_bytes(b"")
    res = runner.invoke(app, ["prove", "--only", "nac.eq17.*", "--out", str(out)])
    assert res.exit_code == 2 and "--force" in res.output
    res = runner.invoke(app, ["prove", "--only", "nac.eq17.*", "--out", str(out), "--force"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["prove", "--samples", "0"])
    assert res.exit_code == 2


def test_gate_fails_on_an_unexpected_verdict(tmp_path, monkeypatch):
    x = sp.Symbol("x", real=True)
    wrong = Obligation("test.wrong", source="001_9075dda04a2ad935.txt, test", statement="x + 1 = x + 2",
                       check=Identity(x + 1, x + 2), expect=HOLDS, reason="deliberately wrong expectation")
    monkeypatch.setattr(prove_cmd, "select_obligations", lambda patterns: [wrong])
    res = runner.invoke(app, ["prove", "--out", str(tmp_path / "g.h5")])
    assert res.exit_code == 1
    assert "counterexample: x =" in res.output and "differ from expected" in res.output
    res = runner.invoke(app, ["prove", "--no-gate", "--out", str(tmp_path / "n.h5")])
    assert res.exit_code == 0


def test_full_run_matches_every_expectation(tmp_path):
    out = tmp_path / "all.h5"
    res = runner.invoke(app, ["prove", "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = read_report(out)
    assert len(data.claims) == len(all_obligations())
    assert all(c.verdict == c.expected for c in data.claims.values())
    assert all(c.witness for c in data.claims.values() if c.verdict == "refuted")
    summary = data.sections["symbolic"]
    assert summary["n_obligations"] == len(all_obligations()) and summary["wall_seconds"] >= summary["check_seconds"] > 0
    assert sum(summary["verdict_counts"].values()) == len(all_obligations())
