"""Ctrl-C handling of the console script in the windows where it used to go wrong.

Each test runs a small Python program in a subprocess that drives `nacverify.cli.app.main`
the way the console script does (argv None) and provokes the situation directly, so the
outcome does not depend on timing:
- a KeyboardInterrupt raised inside a finalizer is swallowed by Python ("Exception ignored");
- the interrupted path ends with os._exit while multiprocessing queues are alive, whose named
  semaphores the resource tracker then reported as leaked;
- a Ctrl-C during interpreter teardown, after the work was done, ended the process with -2;
- a Ctrl-C during the interpreter's finalization, where Python no longer runs signal handlers
  and resets SIGINT to its default action, killed the process with -2 and no message (seen in
  CI: the claims were done and reported, then the process died of the signal).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(program: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(program)], capture_output=True, text=True, timeout=300)


def test_a_ctrl_c_swallowed_by_a_finalizer_still_interrupts_the_command():
    # `nacverify list` is guarded; a finalizer raising KeyboardInterrupt while it runs stands in for
    # a Ctrl-C that lands in a garbage-collection callback (seen in JAX's _xla_gc_callback).
    proc = _run(
        """
        import sys, time
        import nacverify.cli.list_cmd as lc
        real = lc.list_claims.__wrapped__ if hasattr(lc.list_claims, "__wrapped__") else None
        class Bomb:
            def __del__(self):
                raise KeyboardInterrupt
        import nacverify.cli._output as common
        orig = common.console.print
        def printing(*a, **k):
            Bomb()  # collected at once: its KeyboardInterrupt is "ignored" by Python
            for _ in range(200):
                time.sleep(0.001)  # the re-raised signal is handled here
            return orig(*a, **k)
        common.console.print = printing
        sys.argv = ["nacverify", "list", "--only", "nac.thm1.*"]
        from nacverify.cli.app import main
        main()
        """
    )
    assert proc.returncode == 3, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert "Exception ignored" not in proc.stderr, proc.stderr
    assert "nacverify: error: interrupted" in proc.stderr


def test_the_interrupted_exit_leaves_no_leaked_semaphores():
    # A spawn-context queue kept alive, as a local Dask cluster's nannies keep theirs, then the
    # interrupted ending: the resource tracker must find nothing to clean up.
    proc = _run(
        """
        import multiprocessing as mp
        from nacverify.cli import app
        keep = [mp.get_context("spawn").Queue() for _ in range(2)]
        app._end_now(3)
        """
    )
    assert proc.returncode == 3, proc.stderr
    assert "leaked semaphore" not in proc.stderr and "Warning" not in proc.stderr, proc.stderr


def test_a_ctrl_c_during_teardown_keeps_the_runs_exit_code():
    proc = _run(
        """
        import signal, sys, time
        sys.argv = ["nacverify", "list", "--only", "nac.thm1.*"]
        from nacverify.cli.app import main
        try:
            main()
        finally:  # sys.exit's SystemExit is on its way out: a Ctrl-C arrives now
            signal.raise_signal(signal.SIGINT)
            time.sleep(0.5)
        """
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr and "KeyboardInterrupt" not in proc.stderr, proc.stderr


def test_a_ctrl_c_during_the_interpreters_finalization_keeps_the_runs_exit_code():
    # A module global's finalizer runs while the interpreter tears modules down, after Python
    # stopped handling signals: the SIGINT it sends stands in for a Ctrl-C arriving then.
    proc = _run(
        """
        import os, signal, sys, time
        class LateInterrupt:
            def __del__(self, kill=os.kill, pid=os.getpid(), sig=signal.SIGINT, sleep=time.sleep):
                kill(pid, sig)
                sleep(0.2)
        late = LateInterrupt()
        sys.argv = ["nacverify", "list", "--only", "nac.thm1.*"]
        from nacverify.cli.app import main
        main()
        """
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr


def test_semaphores_left_by_killed_local_workers_are_reclaimed_without_a_warning():
    # After a Ctrl-C, busy local workers are killed and the process ends without waiting for
    # Dask's event-loop thread: semaphores registered then are unlinked by the resource tracker.
    # Here one is registered and never released (os._exit), as a killed worker's would be.
    program = """
        import os, multiprocessing as mp
        from nacverify.cli import _cluster
        _cluster._start_resource_tracker_quietly()
        lock = mp.get_context("spawn").Lock()
        name = lock._semlock.name
        print(name, flush=True)
        os._exit(0)
        """
    proc = _run(program)
    assert proc.returncode == 0 and proc.stdout.strip().startswith("/mp-"), proc.stderr
    assert "leaked" not in proc.stderr and "Warning" not in proc.stderr, proc.stderr
    # the tracker still did its job: the name is gone (a second sem_unlink finds nothing)
    import _multiprocessing
    import time

    time.sleep(0.5)  # the tracker works after its last writer has gone
    try:
        _multiprocessing.sem_unlink(proc.stdout.strip())
        still_there = True
    except FileNotFoundError:
        still_there = False
    assert not still_there
    # without the quiet start, the same program is reported (the message this test keeps away)
    loud = _run(program.replace("_cluster._start_resource_tracker_quietly()", "pass"))
    assert "leaked semaphore" in loud.stderr, loud.stderr


def test_a_process_started_by_multiprocessing_keeps_its_own_signals(tmp_path):
    """A local Dask worker is spawned by multiprocessing from the console script: it is handed the
    script's argv and runs the script as __mp_main__, which imports the command line. The console
    script's signal handling (cli/_signals.py: hold a signal during start-up, ignore later ones)
    must stay in the script's own process: in a worker it held SIGTERM for ever, so that the
    worker could not be stopped (issue 38, found while checking the workers' signal masks)."""
    script = tmp_path / "nacverify"  # named as the console script is
    script.write_text(textwrap.dedent(
        """
        import multiprocessing as mp, signal
        from nacverify.cli.app import main  # as the console script does; a spawned child runs this file again

        def child():
            from nacverify.cli import _signals
            print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, _signals.STATE["holding"], flush=True)

        if __name__ == "__main__":
            from nacverify.cli import _signals
            print(signal.getsignal(signal.SIGTERM) is _signals._handler, _signals.STATE["holding"], flush=True)
            process = mp.get_context("spawn").Process(target=child)
            process.start()
            process.join()
        """
    ))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["True", "True", "True", "False"], proc.stdout  # the script holds; its child has the defaults
