"""`nacverify report diff OLD NEW`: verdict changes, regressions (exit 1) and metric changes.

The regression rules R1-R4 are stated in nacverify/report/diff.py and reports/SCHEMA.md;
each test builds the two reports by hand (tests/report_samples.py) or edits an HDF5 file
directly, so the expected classification is known without the code under test."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import h5py
import pytest
from typer.testing import CliRunner

from nacverify.claims import Verdict
from nacverify.cli.app import app
from nacverify.report.diff import diff_reports, is_timing
from nacverify.report import read_report, write_report

sys.path.insert(0, str(Path(__file__).parent))
from report_samples import _claim, sample_report  # noqa: E402

runner = CliRunner()
H, R, I, N, E = Verdict.HOLDS, Verdict.REFUTED, Verdict.INAPPLICABLE, Verdict.INCONCLUSIVE, Verdict.ERROR


def _pair(tmp_path, old_report, new_report):
    old = write_report(old_report, tmp_path / "old.h5")
    new = write_report(new_report, tmp_path / "new.h5")
    return old, new


def _diff(tmp_path, old_report, new_report, **kw):
    old, new = _pair(tmp_path, old_report, new_report)
    return diff_reports(read_report(old), read_report(new), **kw)


def test_report_written_read_rendered_and_diffed_against_itself(tmp_path):
    """The issue's round trip on a real run: frozen-error writes, report show/html read it,
    diff against itself finds nothing; an injected verdict change (edited in the HDF5 file)
    is a regression and exits 1."""
    out = tmp_path / "r.h5"
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--points", "101", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["report", "show", str(out)]).exit_code == 0
    html = runner.invoke(app, ["report", "html", str(out), "--out", str(tmp_path / "page")])
    assert html.exit_code == 0 and (tmp_path / "page" / "index.html").exists()
    same = runner.invoke(app, ["report", "diff", str(out), str(out)])
    assert same.exit_code == 0, same.output
    assert "verdicts: no change" in same.output and "no regression" in same.output
    assert " 0 of " in same.output  # no metric changed
    # inject: nac.thm3.sharp.slow held (as expected); make it refuted in a copy
    edited = tmp_path / "edited.h5"
    shutil.copy(out, edited)
    with h5py.File(edited, "a") as f:
        assert f["claims/nac.thm3.sharp.slow"].attrs["verdict"] == "holds"
        f["claims/nac.thm3.sharp.slow"].attrs["verdict"] = "refuted"
    res = runner.invoke(app, ["report", "diff", str(out), str(edited)])
    assert res.exit_code == 1, res.output
    assert "nac.thm3.sharp.slow" in res.output and "regression" in res.output
    assert "R1" in res.output and "R2" in res.output
    back = runner.invoke(app, ["report", "diff", str(edited), str(out)])  # the way back is an improvement
    assert back.exit_code == 0 and "improvement" in back.output


@pytest.mark.parametrize(
    "old, new, kind, rules",
    [
        ((H, H), (R, H), "regression", ("R1", "R2")),   # held as expected, now refuted
        ((H, H), (N, H), "regression", ("R1", "R2")),   # held, now inconclusive
        ((R, R), (H, R), "regression", ("R1",)),         # refuted as expected, now holds (unexpected)
        ((H, R), (N, R), "regression", ("R2",)),         # held (unexpectedly), now inconclusive: still a loss
        ((N, H), (H, H), "improvement", ()),             # now as expected
        ((H, R), (R, R), "regression", ("R2",)),         # now as expected, but what held no longer does: R2 asks for a look
        ((R, H), (E, H), "change", ()),                  # unexpected before and after: not a regression
        ((R, R), (H, H), "change", ()),                  # expected verdict updated along with the verdict
        ((I, I), (I, N), "regression", ("R1",)),         # same verdict, expectation moved away from it
    ],
)
def test_verdict_change_classification(tmp_path, old, new, kind, rules):
    d = _diff(tmp_path, sample_report(overrides={"demo.symbolic": old}), sample_report(overrides={"demo.symbolic": new}))
    assert [(v.claim, v.kind) for v in d.verdicts] == [("demo.symbolic", kind)]
    for rule in rules:
        assert rule in d.verdicts[0].reason
    assert d.regressed == (kind == "regression")


def test_missing_added_and_incomplete(tmp_path):
    d = _diff(tmp_path, sample_report(), sample_report(drop=("demo.table2.row",)))
    assert [(v.claim, v.kind) for v in d.verdicts] == [("demo.table2.row", "regression")] and "R3" in d.verdicts[0].reason
    old, new = tmp_path / "old.h5", tmp_path / "new.h5"
    assert runner.invoke(app, ["report", "diff", str(old), str(new)]).exit_code == 1
    res = runner.invoke(app, ["report", "diff", str(old), str(new), "--allow-missing"])
    assert res.exit_code == 0 and "removed" in res.output
    # the other way round the claim is added: not a regression
    res = runner.invoke(app, ["report", "diff", str(new), str(old)])
    assert res.exit_code == 0 and "added" in res.output
    # NEW interrupted: R4 even with identical verdicts
    inc = write_report(sample_report(complete=False), tmp_path / "inc.h5")
    res = runner.invoke(app, ["report", "diff", str(old), str(inc)])
    assert res.exit_code == 1 and "R4" in res.output and "NEW incomplete" in res.output


def test_metric_changes_beyond_tolerance(tmp_path):
    # rel_max_pct 1.5 -> 1.5 * 1.001: relative change 1e-3 (up to rounding)
    d = _diff(tmp_path, sample_report(), sample_report(scale=1.001), rtol=1e-6)
    assert [m.where for m in d.metrics] == ["frozen_error/demo/rel_max_pct"]
    assert d.metrics[0].rel == pytest.approx(1e-3 / 1.001, rel=1e-9)
    assert not d.verdicts and not d.regressed  # metric changes never fail the diff
    old, new = read_report(tmp_path / "old.h5"), read_report(tmp_path / "new.h5")
    assert diff_reports(old, new, rtol=2e-3).metrics == []
    res = runner.invoke(app, ["report", "diff", str(tmp_path / "old.h5"), str(tmp_path / "new.h5"), "--rtol", "1e-6"])
    assert res.exit_code == 0 and "frozen_error/demo/rel_max_pct" in res.output and "1 of" in res.output


def test_scalar_array_and_witness_changes_and_timings(tmp_path):
    base = [_claim("x.one", H, H, arrays={"t": [0.0, 1.0, 2.0], "y": [1.0, 2.0, 3.0]}, scalars={"m": 2.0, "secs_per_second": 5.0}, witness={"p": 0.5})]
    moved = [_claim("x.one", H, H, arrays={"t": [0.0, 1.0, 2.0], "y": [1.0, 2.0, 3.3]}, scalars={"m": 2.0, "secs_per_second": 9.0}, witness={"p": 0.25})]
    d = _diff(tmp_path, sample_report(extra_claims=base), sample_report(extra_claims=moved))
    where = {m.where: m for m in d.metrics}
    assert set(where) == {"claims/x.one/arrays/y", "claims/x.one/witness/p"}
    assert where["claims/x.one/arrays/y"].rel == pytest.approx(0.3 / 3.3)
    d = diff_reports(read_report(tmp_path / "old.h5"), read_report(tmp_path / "new.h5"), timings=True)
    assert "claims/x.one/scalars/secs_per_second" in {m.where for m in d.metrics}
    assert {m.where for m in d.metrics if m.timing} == {"claims/x.one/scalars/secs_per_second"}


@pytest.mark.parametrize("name, timing", [("compile_seconds", True), ("trajectories_per_second", True), ("speedup", True), ("median_ms", True),
                                          ("peak_memory_mb", True), ("forward_s", True), ("max_tightness", False), ("peak_t_bv", False),
                                          ("members", False), ("rel_max_pct", False), ("time_to_delta", False), ("num_steps", False)])
def test_timing_names(name, timing):
    assert is_timing(f"bench/x/{name}") is timing


def test_bad_inputs_exit_2_with_one_line(tmp_path):
    path = write_report(sample_report(sections=False), tmp_path / "r.h5")
    (tmp_path / "junk.h5").write_bytes(b"junk")
    for args, words in ((["--rtol", "-1"], "--rtol"), (["--rtol", "nan"], "--rtol"), (["--max-rows", "-3"], "--max-rows")):
        res = runner.invoke(app, ["report", "diff", str(path), str(path), *args])
        assert res.exit_code == 2 and words in res.output, res.output
    for other in (tmp_path / "missing.h5", tmp_path / "junk.h5"):
        res = runner.invoke(app, ["report", "diff", str(path), str(other)])
        assert res.exit_code == 2 and len([l for l in res.stderr.splitlines() if l.strip()]) == 1, res.output
