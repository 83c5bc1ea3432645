import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

# The test suite, like the command line, is nacverify's own program: float64 for the whole
# process, before any test builds arrays. (Importing nacverify alone changes nothing;
# tests/test_import_side_effects.py checks that in a fresh process.)
from nacverify.compute.precision import enable_float64_globally  # noqa: E402

enable_float64_globally()


# ------------------------------------------------------------------ Ctrl-C as from a terminal

import signal  # noqa: E402


def pytest_configure(config):
    """A test run started from a background job (`nohup ... &`, a non-interactive shell's `cmd &`) inherits SIGINT
    ignored. Python then leaves it ignored: `_thread.interrupt_main` does nothing, and every command line a test starts
    inherits SIG_IGN across exec, so the tests that interrupt a run (a simulated or a real Ctrl-C) would see no
    interrupt at all (a 2,000,000-draw sweep ran to its end through SIGINT). Python's own handler is installed instead:
    a handler, unlike SIG_IGN, is reset at exec, so the children start with SIGINT at its default disposition, as from
    a terminal. Runs in the main process and in each xdist worker."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# ------------------------------------------------------------------ a real Dask cluster on loopback

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def dask_scheduler_address(tmp_path_factory):
    """A real Dask scheduler and two real workers (one thread each, each under a nanny) on
    loopback, started once per session as `dask scheduler` / `dask worker` processes, as on a
    remote cluster (the workers do not switch float64 on globally). Yields the address,
    tcp://127.0.0.1:PORT. A worker a test kills is restarted by its nanny; the logs are in the
    fixture's temporary folder."""
    import json
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path_factory.mktemp("dask")
    scheduler_file = folder / "scheduler.json"
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONUNBUFFERED": "1"}

    logs = []

    def start(module: str, *args: str, log: str) -> subprocess.Popen:
        logs.append(open(folder / log, "w"))
        return subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args], cwd=folder, env=env,
                                stdout=logs[-1], stderr=subprocess.STDOUT, start_new_session=True)

    procs = [start("dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                   "--scheduler-file", str(scheduler_file), log="scheduler.log")]
    try:
        deadline = time.monotonic() + 120
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert procs[0].poll() is None and time.monotonic() < deadline, (folder / "scheduler.log").read_text()
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        for i in range(2):
            procs.append(start("dask_worker", address, "--nthreads", "1", "--nworkers", "1", "--name", f"w{i}", "--host", "127.0.0.1",
                               "--memory-limit", "0", "--no-dashboard", "--local-directory", str(folder), log=f"worker{i}.log"))
        from distributed import Client

        with Client(address, set_as_default=False, timeout="60s") as client:
            client.wait_for_workers(2, timeout=180)
        yield address
    finally:
        for proc in reversed(procs):  # workers first, then the scheduler: each closes cleanly on SIGTERM
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for log in logs:
            log.close()


# ------------------------------------------------------------------ the serial pass

#: Tests that start Dask clusters, kill workers or send signals at chosen moments. The README's
#: test command runs them in a second pytest pass of their own (`-m serial`), after the rest has
#: run on two pytest-xdist workers (`-n 2 -m "not serial"`): their waits are for states, not
#: times, but a machine loaded by other tests makes them slow and their margins thin.
SERIAL_MODULES = frozenset({"test_dask_execution.py", "test_faults.py", "test_interrupts.py", "test_interrupt_moments.py", "test_sweep_stream.py", "test_audit_outofcore.py"})
SERIAL_TESTS = frozenset({
    "test_sigint_during_sweep_leaves_incomplete_report",  # test_frozen_cli.py
    "test_parallel_groups_give_the_serial_verdicts",  # test_numeric_claims.py
    "test_console_script_stdout_is_json_only_with_worker_processes",  # test_json_output.py
})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SERIAL_MODULES or getattr(item, "originalname", item.name) in SERIAL_TESTS or "dask_scheduler_address" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.serial)


@pytest.fixture(autouse=True)
def _no_inherited_columns(monkeypatch):
    """pytest-xdist's workers start with COLUMNS=80 in their environment (the serial pass has none), and
    the CLI folds its output to COLUMNS: every test starts without it, as a pipe or a file would, and a
    test that wants a width sets COLUMNS itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
