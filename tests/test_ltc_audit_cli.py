"""`nacverify audit-ltc` end to end on real ncps.torch LTCs: export, audit, report, exit code.

The verdicts are checked against the exported file itself (its raw parameters and states, read
back with numpy), not against the audit's own arithmetic: a cell trained without constraints
has a negative raw conductance in the file, so positivity must be refuted at the file's minimum
and the solver comparison is inapplicable (cm <= 0); a default ncps LTC (softplus constraints)
has every conductance positive, and eq. 13's interval must contain every exported state."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("torch")
pytest.importorskip("ncps")

from nacverify.cli.app import app  # noqa: E402
from nacverify.report import read_report  # noqa: E402

runner = CliRunner()


def audit_ltc(*args):
    return runner.invoke(app, ["audit-ltc", *map(str, args)])


def softplus(x):
    return np.logaddexp(0.0, x)


def test_default_ncps_ltc_end_to_end(tmp_path):
    export, out = tmp_path / "ncps.npz", tmp_path / "r.h5"
    res = audit_ltc("--export-ncps", export, "--units", 8, "--inputs", 3, "--steps", 40, "--elapsed", 10, "--out", out)
    report = read_report(out)
    verdicts = {cid: c.verdict for cid, c in report.claims.items()}
    assert set(verdicts) == {"audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds", "audit.ltc.time_constants",
                             "audit.ltc.solver_error"}
    assert res.exit_code == (0 if set(verdicts.values()) == {"holds"} else 1), res.output
    with np.load(export) as f:  # implicit constraints: the conductances as used are softplus(raw) > 0
        assert int(f["implicit_param_constraints"]) == 1
        for name in ("w", "sensory_w", "gleak", "cm"):
            assert np.all(softplus(f[name].astype(np.float64)) > 0)
        v, erev, vleak = f["states"].astype(np.float64), f["erev"], f["vleak"]
        lo = np.minimum(np.minimum(erev.min(), f["sensory_erev"].min()), vleak.min())
        hi = np.maximum(np.maximum(erev.max(), f["sensory_erev"].max()), vleak.max())
        inside = bool(np.all((v >= lo - 1e-5) & (v <= hi + 1e-5)))
    assert verdicts["audit.ltc.positivity"] == "holds" and verdicts["audit.ltc.step"] == "holds"
    assert inside and verdicts["audit.ltc.state_bounds"] == "holds"


@pytest.mark.parametrize("wiring,units", [("fc", 6), ("autoncp", 8)])
def test_trained_without_constraints_end_to_end(tmp_path, wiring, units):
    export, out = tmp_path / f"{wiring}.npz", tmp_path / "r.h5"
    res = audit_ltc("--export-ncps", export, "--wiring", wiring, "--units", units, "--inputs", 3, "--steps", 20,
                    "--train-steps", 30, "--constraints", "none", "--out", out)
    assert res.exit_code == 1, res.output  # the gate: verdicts differ from 'holds'
    assert "constraints none, trained 30 steps" in res.output
    claims = read_report(out).claims
    with np.load(export) as f:
        assert int(f["implicit_param_constraints"]) == 0
        raw = {"w": f["w"] * f["sparsity_mask"], "sensory_w": f["sensory_w"] * f["sensory_sparsity_mask"],
               "gleak": f["gleak"], "cm": f["cm"]}
        cm_min = float(f["cm"].min())
    lowest = min(float(a.min()) for a in raw.values())
    assert lowest < 0, "30 unclipped steps towards an unreachable target drive a conductance negative"
    pos = claims["audit.ltc.positivity"]
    assert pos.verdict == "refuted"
    assert float(pos.witness["value_used"]) == pytest.approx(float(raw[str(pos.witness["parameter"])].min()), rel=1e-6)
    assert claims["audit.ltc.step"].verdict == "holds"  # ncps still computes its own fused update
    if cm_min <= 0:
        assert claims["audit.ltc.solver_error"].verdict == "inapplicable"


@pytest.mark.parametrize("wiring", ["fc", "autoncp"])
def test_default_ncps_ltc_audits_clean_and_tol_gates(tmp_path, wiring):
    """Issue 21 item 6: seed 002 gives no solver tolerance, so a default ncps LTC (irregular elapsed
    0.1 ... 10, 6 unfolds) audits clean; its error is measured. With --tol below the measured error the
    user's tolerance gates."""
    export, out = tmp_path / "d.npz", tmp_path / "r.h5"
    res = audit_ltc("--export-ncps", export, "--wiring", wiring, "--out", out)
    assert res.exit_code == 0, res.output + res.stderr
    claims = read_report(out).claims
    assert {c.verdict for c in claims.values()} == {"holds"}
    assert claims["audit.ltc.solver_error"].message.startswith("measured, not judged")
    res = audit_ltc(export, "--tol", "1e-3", "--out", tmp_path / "g.h5")
    assert res.exit_code == 1 and read_report(tmp_path / "g.h5").claims["audit.ltc.solver_error"].verdict == "refuted"


def test_none_trained_cell_is_refuted_on_positivity_and_bounds_only(tmp_path):
    """16 units, 200 unclipped steps: cm < 0 on some units (read off the file). Positivity and eq. 13 are
    refuted; eq. 10 and the solver comparison are outside their premises (inapplicable), and the step
    (ncps's own fused update) holds."""
    export, out = tmp_path / "n.npz", tmp_path / "r.h5"
    res = audit_ltc("--export-ncps", export, "--train-steps", 200, "--constraints", "none", "--out", out)
    assert res.exit_code == 1
    with np.load(export) as f:
        assert float(f["cm"].min()) < 0
    verdicts = {cid: c.verdict for cid, c in read_report(out).claims.items()}
    assert verdicts == {"audit.ltc.step": "holds", "audit.ltc.positivity": "refuted", "audit.ltc.state_bounds": "refuted",
                        "audit.ltc.time_constants": "inapplicable", "audit.ltc.solver_error": "inapplicable"}


def test_unknown_constraints_and_wiring_are_one_line_errors(tmp_path):
    for args, needle in [(("--constraints", "soft"), "unknown constraints"), (("--wiring", "ring"), "unknown wiring"),
                         (("--train-steps", -1), "--train-steps")]:
        res = audit_ltc("--export-ncps", tmp_path / "x.npz", *args, "--out", tmp_path / "r.h5")
        assert res.exit_code == 2
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="needs sched_setaffinity (Linux)")
def test_ltc_threads_follow_the_cores_this_process_may_use():
    """A Dask worker bound to one core must not run the audit's chunks on two threads."""
    import os

    from nacverify.audit.ltc.numerics import workers

    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(before)})
        assert workers() == 1
    finally:
        os.sched_setaffinity(0, before)
    assert workers() == min(2, len(before))
