"""`nacverify frozen-error`, `list` and `report show` through CliRunner and the console script."""

import dataclasses
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

import h5py
import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.claims import Verdict
from nacverify.cli.app import app
from nacverify.report import read_report

runner = CliRunner()


def test_oscillatory_run_writes_report_and_plot(tmp_path):
    out, png = tmp_path / "r.h5", tmp_path / "f.png"
    res = runner.invoke(app, ["frozen-error", "--regime", "oscillatory", "--out", str(out), "--plot", str(png), "-v"])  # -v: every claim's row
    assert res.exit_code == 0, res.output
    assert "nac.table2.oscillatory" in res.output and "refuted" in res.output
    data = read_report(out)
    assert data.claims["nac.thm3.sharp.oscillatory"].verdict == "holds"
    assert data.claims["nac.table2.average"].verdict == "refuted"
    sec = data.sections["frozen_error"]["oscillatory"]
    for name in ("t", "phi", "omega", "a_varying", "a_frozen", "abs_error", "rel_error", "bound_thm3", "bound_sharp", "bound_bv"):
        assert sec[name].shape == (1001,)
    np.testing.assert_allclose(sec["abs_error"], np.abs(sec["a_varying"] - sec["a_frozen"]))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shown = runner.invoke(app, ["report", "show", str(out), "--claim", "nac.thm3.bv.oscillatory"])
    assert shown.exit_code == 0 and "max_tightness" in shown.output


def test_existing_out_refused_then_forced(tmp_path):
    out = tmp_path / "r.h5"
    assert runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(out)]).exit_code == 0
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(out)])
    assert res.exit_code == 2 and "exists" in res.output
    assert runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(out), "--force"]).exit_code == 0


def test_gate_fails_when_an_expected_verdict_is_flipped(tmp_path, monkeypatch):
    import nacverify.cli.frozen_error as cmd

    original = cmd.instance_claims

    def flipped(spec, opts):
        claims = original(spec, opts)
        return [dataclasses.replace(c, expected=Verdict.HOLDS) if c.id.startswith("nac.table2.slow") else c for c in claims]

    monkeypatch.setattr(cmd, "instance_claims", flipped)
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(tmp_path / "a.h5")])
    assert res.exit_code == 1
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(tmp_path / "b.h5"), "--no-gate"])
    assert res.exit_code == 0


def test_sweep_same_seed_same_datasets(tmp_path):
    paths = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.h5"
        res = runner.invoke(app, ["frozen-error", "-r", "fast", "--sweep", "64", "--seed", "3", "--scipy-draws", "2", "--out", str(out)])
        assert res.exit_code == 0, res.output
        paths.append(out)
    with h5py.File(paths[0]) as a, h5py.File(paths[1]) as b:
        for group in ("frozen_error/fast/sweep/params", "frozen_error/fast/sweep/members"):
            for key in a[group]:
                np.testing.assert_array_equal(a[group][key][()], b[group][key][()])
        assert a["frozen_error/fast/sweep"].attrs["n_done"] == 64


def test_list_shows_claims():
    res = runner.invoke(app, ["list", "--only", "nac.table2.*"])
    assert res.exit_code == 0 and "nac.table2.average" in res.output and "nac.thm3.bound.slow" not in res.output


def _script():
    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    return exe


@pytest.mark.parametrize(
    "args, words",
    [
        (["--regime", "wavy"], "wavy"),
        (["--omega0", "-1", "-r", "slow"], "omega(t) > 0"),
        (["-T", "0", "-r", "slow"], "T must be > 0"),
        (["--phi0", "nan", "-r", "slow"], "finite"),
        (["--phi0", "inf", "-r", "slow"], "finite"),
        (["-r", "custom", "--phi", "__import__('os')", "--omega", "1"], "not allowed"),
        (["-r", "custom", "--phi", "0.5"], "--omega"),
        (["-r", "slow", "--rate", "3"], "fast regime only"),
        (["-r", "slow", "--out", "/proc/nope/r.h5"], "not writable"),
        (["-r", "slow", "--rtol", "-1"], "rtol"),
        (["--bogus-option"], "bogus"),
    ],
)
def test_console_script_bad_input_one_line_exit_2(args, words, tmp_path):
    proc = subprocess.run([_script(), "frozen-error", *args], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_console_script_runs_main_job(tmp_path):
    proc = subprocess.run([_script(), "frozen-error", "--regime", "oscillatory", "--out", "r.h5"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.h5").exists()


def test_sigint_during_sweep_leaves_incomplete_report(tmp_path):
    out = tmp_path / "r.h5"
    proc = subprocess.Popen([_script(), "frozen-error", "-r", "oscillatory", "--sweep", "2000000", "--scipy-draws", "0", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    # wait until the sweep starts (it states its plan on stderr first), however slow the imports are
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True)
    reader.start()
    seen = []
    deadline = time.time() + 240
    while time.time() < deadline and not any(line.startswith("sweep:") for line in seen):
        try:
            seen.append(lines.get(timeout=1))
        except queue.Empty:
            assert proc.poll() is None, "".join(seen)
    time.sleep(3)  # into the sweep (compiling or solving)
    while time.time() < deadline and proc.poll() is None and not out.exists():
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            continue
    proc.wait(timeout=60)
    reader.join(timeout=60)
    stderr = "".join(seen + list(lines.queue))
    assert proc.returncode == 3, stderr
    assert "incomplete" in stderr
    data = read_report(out)
    assert data.complete is False
    assert data.claims["nac.thm3.sharp.oscillatory"].verdict == "holds"


def test_interrupt_before_the_sweep_still_writes_an_incomplete_report(tmp_path, monkeypatch):
    import nacverify.cli.frozen_error as cmd

    original = cmd.cached_run
    calls = []

    def interrupted(spec, opts):
        calls.append(spec.name)
        if len(calls) == 2:  # the second regime's single run
            raise KeyboardInterrupt
        return original(spec, opts)

    monkeypatch.setattr(cmd, "cached_run", interrupted)
    out = tmp_path / "r.h5"
    res = runner.invoke(app, ["frozen-error", "--regime", "all", "--out", str(out)])
    assert res.exit_code == 3
    data = read_report(out)
    assert data.complete is False and "interrupted" in data.attrs["note"]


def test_claim_ids_must_name_hdf5_groups():
    from nacverify.claims import Claim, register

    with pytest.raises(ValueError, match="must match"):
        register(Claim("bad/id", "s", "st", "a", Verdict.HOLDS, "r", lambda ctx: None))
