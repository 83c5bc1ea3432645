"""`nacverify audit` through CliRunner: exit codes 0/1/2, reports, --expect, one-line errors on
bad files, and the JAX model's own export (circuit backbone) round-tripped through a file."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.audit import write_export
from nacverify.cli.app import app
from nacverify.report import read_report

from test_audit import SHAPE, make

runner = CliRunner()


def audit(*args):
    return runner.invoke(app, ["audit", *map(str, args)])


def one_error_line(res):
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("nacverify: error: ") and "Traceback" not in res.output
    return lines[0]


@pytest.fixture
def clean(tmp_path):
    return write_export(make("exact", np.float32), tmp_path / "clean.npz")


def test_clean_export_exits_0_and_writes_report(tmp_path, clean):
    out = tmp_path / "r.h5"
    res = audit(clean, "--out", out)
    assert res.exit_code == 0, res.output
    data = read_report(out)
    assert {c.verdict for c in data.claims.values()} == {"holds", "inapplicable"}
    assert data.claims["audit.euler_margin"].verdict == data.claims["audit.euler_margin"].expected == "inapplicable"
    sec = data.sections["audit"]
    assert list(sec["pair_shape"]) == list(SHAPE) and sec["keys"] == SHAPE[-1] and sec["attributes"]["mode"] == "exact"
    assert "float32" in sec["arrays"]["phi"]


def test_defect_fails_gate_unless_no_gate_or_accepted(tmp_path):
    e = make("exact")
    e["attention"] = e["attention"] * 1.02
    path = write_export(e, tmp_path / "bad.h5")
    res = audit(path, "--out", tmp_path / "a.h5")
    assert res.exit_code == 1 and "audit.attention_rows: refuted, expected holds: " in res.stderr
    flat = " ".join(res.stdout.split())  # the summary: the differing claim, then its reason and witness
    assert "≠ audit.attention_rows: refuted ≠ (expected holds)" in flat and "witness: " in flat.split("audit.attention_rows", 1)[1]
    assert audit(path, "--out", tmp_path / "b.h5", "--no-gate").exit_code == 0
    accept = tmp_path / "accept.json"
    accept.write_text(json.dumps({"audit.attention_rows": {"verdict": "refuted", "reason": "known"}}))
    res = audit(path, "--out", tmp_path / "c.h5", "--expect", accept)
    assert res.exit_code == 0, res.output
    assert read_report(tmp_path / "c.h5").claims["audit.attention_rows"].expected_reason.endswith("known")


def test_expect_is_strict_in_both_directions(tmp_path, clean):
    accept = tmp_path / "e.toml"
    accept.write_text('"audit.attention_rows" = "refuted"\n')  # the defect was fixed: holds now
    res = audit(clean, "--out", tmp_path / "r.h5", "--expect", accept)
    assert res.exit_code == 1 and "audit.attention_rows: holds, expected refuted: " in res.stderr


@pytest.mark.parametrize("content, message", [('{"audit.typo": "holds"}', "unknown claim id"), ("not json = [", "neither JSON nor TOML")])
def test_bad_expect_file_exits_2(tmp_path, clean, content, message):
    f = tmp_path / "e.txt"
    f.write_text(content)
    res = audit(clean, "--out", tmp_path / "r.h5", "--expect", f)
    assert res.exit_code == 2 and message in one_error_line(res)
    assert not (tmp_path / "r.h5").exists()


def test_bad_files_exit_2_with_one_line(tmp_path):
    e = make("exact")
    good = write_export(e, tmp_path / "ok.npz")
    np.savez(tmp_path / "no_omega.npz", phi=e["phi"])
    np.savez(tmp_path / "shape.npz", phi=e["phi"], omega=e["omega"][..., :3])
    np.savez(tmp_path / "nan.npz", phi=np.where(e["phi"] > 0.5, np.nan, e["phi"]), omega=e["omega"])
    (tmp_path / "x.csv").write_text("phi,omega\n")
    for name, message in (("no_omega.npz", "required array(s) omega missing"), ("shape.npz", "must match"), ("nan.npz", "non-finite"),
                          ("x.csv", "neither an NPZ nor an HDF5"), ("nope.npz", "no file")):
        res = audit(tmp_path / name, "--out", tmp_path / f"{name}.h5")
        assert res.exit_code == 2, (name, res.output)
        assert message in one_error_line(res), name
    report = tmp_path / "report.h5"
    assert audit(good, "--out", report).exit_code == 0
    res = audit(report, "--out", tmp_path / "again.h5")  # a nacverify report is not a gate export
    assert res.exit_code == 2 and "nacverify report" in one_error_line(res)


def test_usage_errors_exit_2(tmp_path, clean):
    assert "one of them" in one_error_line(res := audit("--out", tmp_path / "r.h5")) and res.exit_code == 2
    res = audit(clean, "--export-model", tmp_path / "m.npz", "--out", tmp_path / "r.h5")
    assert res.exit_code == 2
    res = audit(clean, "--out", tmp_path / "r.h5", "--sharp-threshold", "1.5")
    assert res.exit_code == 2 and "(0, 1)" in one_error_line(res)
    res = audit("--list")
    assert res.exit_code == 0 and "audit.euler_margin" in res.output


def test_jax_model_export_circuit_backbone_round_trip_passes(tmp_path):
    """The JAX model (circuit backbone, shared head, exact mode) writes its gates with --export-model and
    the audit passes with one accepted verdict: the shared sigmoid/softplus gate keeps A = phi/omega in
    (0, 1), so attention cannot become sharp (nac.gates.shared.max_softmax_weight)."""
    accept = tmp_path / "team.toml"
    accept.write_text('[audit.sharpness]\nverdict = "refuted"\nreason = "shared gate: top weight < e/(e + K - 1)"\n')
    model_file, out = tmp_path / "gates.npz", tmp_path / "r.h5"
    res = audit("--export-model", model_file, "--backbone", "circuit", "--d-model", 8, "--heads", 2, "--length", 8, "--batch", 1,
                "--out", out, "--expect", accept)
    assert res.exit_code == 0, res.output + res.stderr
    data = read_report(out)
    assert data.claims["audit.sharpness"].verdict == "refuted"
    assert data.claims["audit.sharpness"].scalars["ceiling"] < np.e / (np.e + 7)
    for cid in ("audit.omega_positive", "audit.thm1_interval", "audit.logits_consistent", "audit.gate_variation", "audit.attention_rows"):
        assert data.claims[cid].verdict == "holds", cid
    # the file itself: shape (batch, heads, queries, K) and the shared-gate identity omega = -log(1 - phi) + 1e-6
    from nacverify.audit import read_export

    g = read_export(model_file)
    assert g.pair_shape == (1, 2, 8, 8) and g.u.shape == (1, 2, 8, 8, 8)
    assert (g.mode, g.delta_t, g.euler_steps, g.topk) == ("exact", 0.5, 5, 8)
    phi = g.phi.astype(np.float64)
    np.testing.assert_allclose(g.omega, -np.log1p(-phi) + 1e-6, rtol=1e-5)
    res = audit("--export-model", model_file, "--d-model", 8, "--length", 8, "--out", tmp_path / "r2.h5")
    assert res.exit_code == 2 and "exists" in one_error_line(res)  # an export is never silently overwritten
