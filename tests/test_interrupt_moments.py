"""An interrupted run leaves a report marked incomplete, whenever the signals come (issue 38).

The console script runs `frozen-error --sweep` (a command whose interrupted report keeps the
most: finished claims, then the sweep's statistics, witnesses and histograms), and gets SIGINT
at a chosen moment: 0.1 s (Python is importing the command line; later only when the machine is
so loaded that the interpreter's own start-up, before any code of nacverify's runs, takes more
than half of that), 1 s (the command has started and imports JAX), 5 s (the claims or the
sweep's first chunks), and mid-sweep (after its first chunk's estimate is printed); once, or
twice 20 ms apart (the second as SIGTERM, which the command line treats as Ctrl-C). Before issue
38 a signal in the first 1.5 s left no report (a KeyboardInterrupt while importing, or before
the command's own handler was in place), and a second signal lost the sweep's section (it
landed while the first one's partial report was being gathered). Each case: exit 3, one line on
stderr, no traceback, a report marked incomplete that names the interrupt; after mid-sweep
signals, the sweep's statistics are in it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import h5py
import pytest

EXE = shutil.which("nacverify")
pytestmark = pytest.mark.skipif(EXE is None, reason="console script not installed")

SWEEP = ["frozen-error", "--regime", "oscillatory", "--sweep", "2000000", "--no-keep-draws", "--scipy-draws", "0"]


def _launcher() -> list[str]:
    """A command prefix that starts its program with SIGINT at its default, as from a terminal: a
    test run started in the background has SIGINT ignored, which its children inherit and
    nacverify (as POSIX programs do) keeps ignored. coreutils' `env --default-signal` where it
    has it (a millisecond), else a Python that resets it and execs."""
    if subprocess.run(["env", "--default-signal=INT", "true"], capture_output=True).returncode == 0:
        return ["env", "--default-signal=INT"]
    return [sys.executable, "-S", "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"]


def _interpreter_start_up() -> float:
    """Seconds the interpreter takes now to start and exit, before any of nacverify's code (its
    site packages included): the one moment nacverify cannot answer a signal (cli/_signals.py)."""
    start = time.monotonic()
    subprocess.run([*_launcher(), sys.executable, "-c", "pass"], check=True)
    return time.monotonic() - start


def _interrupt(tmp_path, *, at: float | None, signals: int) -> tuple[int, str, str]:
    """Run the sweep, send SIGINT `at` seconds after the start (None: once its first chunk's estimate
    is printed) and, for `signals` = 2, SIGTERM 20 ms later; return (exit code, stderr, report path)."""
    out = tmp_path / "r.h5"
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "COLUMNS": "200"}
    start = time.monotonic()
    proc = subprocess.Popen([*_launcher(), EXE, *SWEEP, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    lines: list[str] = []
    estimated = threading.Event()

    def read() -> None:
        for line in proc.stderr:
            lines.append(line)
            if "estimated" in line:
                estimated.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if at is None:
            assert estimated.wait(240), "".join(lines)
            time.sleep(0.5)  # a few chunks more
        else:
            time.sleep(max(0.0, at - (time.monotonic() - start)))
        assert proc.poll() is None, "".join(lines)
        proc.send_signal(signal.SIGINT)
        if signals == 2:
            time.sleep(0.02)
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    proc.stdout.close()
    return proc.returncode, "".join(lines), str(out)


@pytest.mark.parametrize("signals", [1, 2])
@pytest.mark.parametrize("at", [0.1, 1.0, 5.0, None], ids=["0.1s", "1s", "5s", "mid-sweep"])
def test_an_interrupt_at_any_moment_leaves_an_incomplete_report(tmp_path, at, signals):
    if at is not None and at < 1:  # not before the interpreter can have reached nacverify's first line (twice its start-up now)
        at = max(at, 2 * _interpreter_start_up())
    code, stderr, path = _interrupt(tmp_path, at=at, signals=signals)
    assert code == 3, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("nacverify: error:")]
    assert len(errors) == 1 and "interrupted" in errors[0] and "partial report marked incomplete" in errors[0], stderr
    assert os.path.isfile(path), stderr
    with h5py.File(path, "r") as report:
        assert report.attrs["format"] == "nacverify-report" and not bool(report.attrs["complete"])
        assert "interrupted" in str(report.attrs["note"])
        if at is None:  # mid-sweep: the chunks that finished are kept, whatever the second signal does
            assert "sweep of oscillatory interrupted after" in str(report.attrs["note"]), report.attrs["note"]
            sweep = report["frozen_error/oscillatory/sweep"]
            assert {"stats", "witnesses", "histograms"} <= set(sweep), list(sweep)
            assert int(sweep.attrs["n_done"]) > 0
