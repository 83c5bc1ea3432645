"""How a command-line process and a local cluster's worker end: their exit handlers run, JAX's
own `clean_up` (which clears every compiled executable and backend one by one) does not, and
modules are not torn down. Each test fails on the previous behaviour, where `sys.exit` and the
worker's normal exit ran JAX's handler (0.5-0.7 s after a check's claims, per process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SPY = (
    "import atexit, jax, jax._src.api as api\n"
    "api.clear_caches = lambda: print('JAX-CLEANED', flush=True)\n"  # what jax's clean_up always calls
    "atexit.register(lambda: print('OWN-HANDLER', flush=True))\n"
)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240)


def test_the_spy_sees_jaxs_clean_up_at_a_normal_exit():
    """The control: without nacverify's exit, JAX's handler runs (so the tests below can fail)."""
    out = _run(SPY + "import sys; sys.exit(0)\n")
    assert out.returncode == 0 and "JAX-CLEANED" in out.stdout and "OWN-HANDLER" in out.stdout


@pytest.mark.parametrize("argv, code", [(["backends"], 0), (["check", "--only", "no.such.claim*"], 2)])
def test_a_command_runs_the_exit_handlers_but_not_jaxs_clean_up(argv, code):
    out = _run(SPY + f"import sys; sys.argv = ['nacverify', *{argv!r}]\nfrom nacverify.cli.app import main\nmain()\n")
    assert out.returncode == code, out.stderr
    assert "OWN-HANDLER" in out.stdout  # every other exit handler still runs
    assert "JAX-CLEANED" not in out.stdout


def test_a_worker_drops_jaxs_clean_up_when_it_closes():
    """The preload Dask loads by path (cli/_worker_setup.py), imported here as its module."""
    code = SPY + "import nacverify.cli._worker_setup as ws\nws.dask_teardown(None)\n"
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert "OWN-HANDLER" in out.stdout and "JAX-CLEANED" not in out.stdout
