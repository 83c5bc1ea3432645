"""The suite's interrupt tests hold when the suite itself starts with SIGINT ignored, as a background job does
(`nohup pytest &`, `cmd &` in a script): tests/conftest.py restores Python's handler, so a simulated Ctrl-C reaches
the test and a command line a test starts gets SIGINT at its default disposition. Before, the interrupt tests failed
in such a run (DID NOT RAISE; a sweep ran to its end through SIGINT)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

PROBE = textwrap.dedent('''
    import _thread, signal, subprocess, sys, time

    def test_a_simulated_ctrl_c_arrives():
        try:
            _thread.interrupt_main()
            time.sleep(2)
        except KeyboardInterrupt:
            return
        raise AssertionError("no KeyboardInterrupt: SIGINT is ignored in the test process")

    def test_a_child_gets_sigint_at_its_default_disposition():
        out = subprocess.run([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"],
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == "False", "the child inherits SIGINT ignored"
''')


def test_a_suite_started_with_sigint_ignored_still_interrupts(tmp_path):
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "conftest.py").write_text((Path(__file__).parent / "conftest.py").read_text())
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nacverify", str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path, timeout=300,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout, result.stdout
