"""`nacverify check` on Dask gives the serial results, bitwise.

A few cheap claims from four groups (symbolic, tables, numeric, frozen-error) run serially
(`--jobs 1`, the reference), on a local cluster (`--jobs 2`), on a real scheduler with two
real workers on loopback (`--scheduler`, `NACVERIFY_SCHEDULER`; the `dask_scheduler_address`
fixture of conftest.py), and there with a worker killed mid-run: verdicts, messages, scalars,
witnesses and arrays are identical. An unreachable scheduler is a one-line exit 3 naming it;
Ctrl-C leaves a report marked incomplete, the claims finished inside running groups, and no
worker process behind."""

from __future__ import annotations

import _thread
import importlib.metadata
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import psutil
import pytest
from typer.testing import CliRunner

import nacverify
import nacverify.catalog  # noqa: F401  (registers every claim: get_claim below needs them)
import nacverify.cli._cluster as cluster_mod
from nacverify import claims as registry
from nacverify.claims import CheckContext, evaluate, get_claim
from nacverify.cli.app import app
from nacverify.errors import EnvironmentProblem, Interrupted
from nacverify.report import read_report
import nacverify.run.runner as runner_module
from nacverify.run.runner import run_claims

runner = CliRunner()

# one or more claims of each of four groups; a few seconds in all, serially
SELECTION = ["locality.grad.formula", "ltc.table11.1", "ltc.table11.10", "nac.euler.order", "nac.thm1.euler",
             "nac.thm1.euler.reference", "nac.table2.average"]
ONLY = [arg for cid in SELECTION for arg in ("--only", cid)]


def _check(tmp_path, name, *args, env=None):
    out = tmp_path / f"{name}.h5"
    res = runner.invoke(app, ["check", "--quick", *ONLY, *args, "--out", str(out)], env=env)
    assert res.exit_code == 0, res.output
    return read_report(out)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    return _check(tmp_path_factory.mktemp("serial"), "serial", "--jobs", "1")


def _assert_same(a, b):
    """Every claim of `a` and `b`: same verdict, message and evidence, arrays bit for bit."""
    assert sorted(a.claims) == sorted(b.claims) == sorted(SELECTION)
    assert list(a.claims) == list(b.claims)
    for cid, ra in a.claims.items():
        rb = b.claims[cid]
        assert (ra.verdict, ra.expected, ra.message) == (rb.verdict, rb.expected, rb.message), cid
        assert ra.scalars == rb.scalars and ra.witness == rb.witness, cid
        assert sorted(ra.arrays) == sorted(rb.arrays), cid
        for name, x in ra.arrays.items():
            y = rb.arrays[name]
            assert (x.dtype, x.shape) == (y.dtype, y.shape) and x.tobytes() == y.tobytes(), f"{cid}/{name}"
    assert any(r.arrays for r in a.claims.values())  # the comparison covers arrays, not only scalars


def test_local_cluster_gives_the_serial_results(serial, tmp_path):
    local = _check(tmp_path, "local", "--jobs", "2")
    _assert_same(serial, local)
    assert local.sections["check"]["jobs"] == 2 and local.sections["check"]["scheduler"] == ""
    assert serial.sections["check"]["jobs"] == 1


def test_remote_scheduler_from_the_environment_gives_the_serial_results(serial, dask_scheduler_address, tmp_path):
    remote = _check(tmp_path, "remote", env={"NACVERIFY_SCHEDULER": dask_scheduler_address})
    _assert_same(serial, remote)
    assert remote.sections["check"]["scheduler"] == dask_scheduler_address


def test_a_worker_killed_mid_run_changes_nothing(serial, dask_scheduler_address, tmp_path):
    """SIGKILL the worker that is running a group's task: its nanny starts a new worker, the
    scheduler runs the task again, and the results are the serial ones."""
    from distributed import Client

    outcome: dict = {}
    thread = threading.Thread(target=lambda: outcome.update(report=_check(tmp_path, "killed", "--scheduler", dask_scheduler_address)))
    with Client(dask_scheduler_address, set_as_default=False) as client:
        pids = client.run(os.getpid)
        thread.start()
        victim, keys, deadline = None, [], time.monotonic() + 300
        while victim is None and thread.is_alive() and time.monotonic() < deadline:
            for worker, running in client.processing().items():
                keys = [k for k in running if str(k).startswith("run_group")]
                if keys:
                    victim = worker
                    break
            else:
                time.sleep(0.02)
        assert victim is not None, "no group task was ever seen running"
        os.kill(pids[victim], signal.SIGKILL)
        thread.join(timeout=600)
        assert not thread.is_alive()
        client.wait_for_workers(2, timeout=180)
        assert pids[victim] not in client.run(os.getpid).values()  # the killed process is gone, replaced
        story = client.story(*keys)  # the scheduler's transitions of the killed task: sent to a worker twice
        assert sum(1 for entry in story if entry[2] == "processing") >= 2, story
    _assert_same(serial, outcome["report"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_one_line_exit_3_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT", 2.0)
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    for args, env in ((["--scheduler", address], None), ([], {"NACVERIFY_SCHEDULER": address})):
        res = runner.invoke(app, ["check", "--only", "ltc.table11.1", *args, "--out", str(tmp_path / "r.h5")], env=env)
        assert res.exit_code == 3, res.output
        lines = [line for line in res.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and address in lines[0] and "Traceback" not in res.output, res.stderr
        assert not (tmp_path / "r.h5").exists()
    res = runner.invoke(app, ["check", "--only", "ltc.table11.1", "--scheduler", "no-port-here", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 2 and "tcp://HOST:PORT" in res.stderr


# ------------------------------------------------------------------ the library's side


def _executor(address):
    from distributed import Client

    client = Client(address, set_as_default=False)
    return client, client.get_executor(pure=False)


@pytest.mark.parametrize("tasks", ["one", "two"])
def test_interrupt_returns_the_claims_finished_inside_a_running_group(dask_scheduler_address, monkeypatch, tasks):
    """A fast claim and a slow one: Ctrl-C (simulated) once the fast one is done returns it, collected
    from the worker, with the serial outcome. In one task, while the slow one still runs; in two, its
    task has returned and its result may still be on the way here: the worker keeps the claims its
    tasks finished (`runner.KEPT_RUNS`; they were dropped on return, and this case lost the claim)."""
    # the slow one computes for about 1 s even with every cache warm (its solve is 1596 members x 401 saved points)
    fast, slow = get_claim("nac.euler.order"), get_claim("nac.thm1.continuous.edges")
    assert fast.group == slow.group
    plan = [(fast.group, [fast, slow])] if tasks == "one" else [(slow.group, [slow]), (fast.group, [fast])]
    monkeypatch.setattr(runner_module, "plan_tasks", lambda claims, workers, caches=None: plan)
    ctx = CheckContext(quick=True)

    def progress(claim, finished):
        if finished and claim.id == fast.id:
            _thread.interrupt_main()  # what Ctrl-C does to the main thread

    client, executor = _executor(dask_scheduler_address)
    try:
        with pytest.raises(Interrupted) as info:
            run_claims([fast, slow], ctx, executor=executor, progress=progress)
    finally:
        client.close()
    assert "interrupted after 1 of 2 claims" in str(info.value)
    (got,) = info.value.partial
    want = evaluate(fast, ctx)
    assert got.claim is fast and got.verdict == want.verdict and got.outcome.message == want.outcome.message
    assert got.outcome.evidence.scalars == want.outcome.evidence.scalars
    for name, x in want.outcome.evidence.arrays.items():
        assert np.asarray(got.outcome.evidence.arrays[name]).tobytes() == np.asarray(x).tobytes()


def test_workers_refuse_another_nacverify_version(dask_scheduler_address, monkeypatch):
    installed = importlib.metadata.version("nacverify")
    monkeypatch.setattr(nacverify, "__version__", "0.0.0-other")
    client, executor = _executor(dask_scheduler_address)
    try:
        with pytest.raises(EnvironmentProblem, match=f"nacverify {installed}, this run 0.0.0-other"):
            run_claims([get_claim("ltc.table11.1")], CheckContext(quick=True), executor=executor)
    finally:
        client.close()


def test_a_claim_the_workers_do_not_know_is_an_environment_problem(dask_scheduler_address, monkeypatch):
    import dataclasses

    ghost = dataclasses.replace(get_claim("ltc.table11.1"), id="ltc.table11.1.only_here")
    monkeypatch.setitem(registry._REGISTRY, ghost.id, ghost)
    client, executor = _executor(dask_scheduler_address)
    try:
        with pytest.raises(EnvironmentProblem, match="does not know claim 'ltc.table11.1.only_here'"):
            run_claims([ghost], CheckContext(quick=True), executor=executor)
    finally:
        client.close()


# ------------------------------------------------------------------ Ctrl-C on the command line


def _spawned_workers(parent: psutil.Process) -> list[psutil.Process]:
    """The children of `parent` that run multiprocessing's spawn entry point (a local cluster's
    workers). A child that exits, or has exited and waits to be reaped (a zombie, whose command
    line cannot be read), while this looks is no worker: left out, not an error."""
    found = []
    for child in parent.children():
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                found.append(child)
        except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
            pass
    return found


def _scheduler_port(workers: list[psutil.Process]) -> int:
    """The port every worker of a local cluster is connected to: its scheduler's (ValueError while
    they are not all connected, or one of them has gone)."""
    try:
        ports = [{c.raddr.port for c in w.net_connections(kind="tcp") if c.raddr and c.status == psutil.CONN_ESTABLISHED} for w in workers]
    except psutil.Error as exc:
        raise ValueError(f"a worker went away: {exc}") from None
    (port,) = set.intersection(*ports)
    return port


def test_listing_the_workers_tolerates_children_that_exit_or_turn_zombie():
    """Issue 38: the README's test command failed once with psutil.ZombieProcess while the Ctrl-C
    test below listed the workers' command lines (a child had exited, not yet reaped). Here a child
    is a zombie for certain (it has exited and is not waited for): it is left out, as is one that
    is gone."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 30
        while psutil.Process(child.pid).status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
            time.sleep(0.02)
        assert psutil.Process(child.pid).status() == psutil.STATUS_ZOMBIE
        with pytest.raises(psutil.ZombieProcess):  # what the listing met: reading a zombie's command line raises
            psutil.Process(child.pid).cmdline()
        assert child.pid not in {p.pid for p in _spawned_workers(psutil.Process())}
        gone = psutil.Process(child.pid)
    finally:
        child.wait()
    with pytest.raises(ValueError):  # gone: "not connected yet", which the caller waits out
        _scheduler_port([gone])


def test_ctrl_c_on_a_local_cluster_keeps_the_finished_claims_and_leaves_no_workers(tmp_path):
    """Ctrl-C from a terminal reaches the whole process group while a slow claim runs: the
    command line exits 3 with one line and no traceback, its report is marked incomplete and
    holds the claims already finished (a whole group, and the fast claim of the running group,
    collected from its worker), and its workers (which ignore the signal) are gone with it."""
    from distributed import Client

    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    out = tmp_path / "r.h5"
    # tables; ltc: a fast claim, then a slow one (a group runs its claims in id order). The slow
    # one takes about 3.5 s with every cache warm: it compiles five BPTT gradients to read their
    # memory (nac.cor1 and then ltc.s5.adjoint_errors, used before, take 0.2 and 0.5 s with the
    # traced-program cache warm, and the signal came after they had finished)
    only = ["--only", "ltc.table11.1", "--only", "ltc.eq24.shapes", "--only", "ltc.table_bptt.memory"]
    proc = subprocess.Popen([exe, "check", "--quick", *only, "--jobs", "2", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, start_new_session=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    try:
        parent, workers = psutil.Process(proc.pid), []
        deadline = time.monotonic() + 300
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            workers = _spawned_workers(parent)
            time.sleep(0.1)
        assert len(workers) == 2, proc.communicate()
        while time.monotonic() < deadline:  # until both workers are connected to the scheduler
            try:
                port = _scheduler_port(workers)
                break
            except ValueError:
                time.sleep(0.2)
        with Client(f"tcp://127.0.0.1:{port}", set_as_default=False) as client:
            seen = 0
            while proc.poll() is None and time.monotonic() < deadline:  # both groups running, then only the slow one
                running = sum(1 for keys in client.processing().values() for k in keys if str(k).startswith("run_group"))
                if seen == 2 and running == 1:
                    break
                seen = max(seen, running)
                time.sleep(0.02)
        time.sleep(1.0)  # ltc.eq24.shapes takes milliseconds, ltc.table_bptt.memory seconds
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 3, stderr
    assert "Traceback" not in stderr + stdout and "Warning" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("nacverify: error")]
    assert len(errors) == 1 and "interrupted after 2 of 3 claims" in errors[0] and "incomplete" in errors[0], stderr
    data = read_report(out)
    assert data.complete is False and "interrupted" in data.attrs["note"]
    assert sorted(data.claims) == ["ltc.eq24.shapes", "ltc.table11.1"]
    assert data.claims["ltc.eq24.shapes"].verdict == data.claims["ltc.eq24.shapes"].expected
    gone, alive = psutil.wait_procs(workers, timeout=30)
    assert not alive, alive


def _affinities() -> dict:
    """In a worker: after a JAX computation (XLA's thread pool exists then), the cores each of
    this process's threads may run on, as the kernel reports them."""
    import jax.numpy as jnp

    float(jnp.sum(jnp.arange(100_000.0) ** 2))
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            out[int(tid)] = tuple(sorted(os.sched_getaffinity(int(tid))))
        except OSError:
            pass
    return out


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs 2 cores this process may use")
def test_local_workers_each_run_on_a_core_of_their_own():
    """`--jobs 2` on a machine with 2 cores: every thread of each worker (XLA's pool included)
    is bound to one core, a different one per worker, so "one thread per worker" holds for JAX
    (unpinned, each worker's XLA pool runs on both cores); NACVERIFY_PIN_CORES=0 turns it off."""
    cores = sorted(os.sched_getaffinity(0))
    with cluster_mod.cluster(2) as ex:
        client = ex._client
        seen = {w: client.submit(_affinities, workers=[w], pure=False).result() for w in client.scheduler_info()["workers"]}
    assert len(seen) == 2
    per_worker = [set(tids.values()) for tids in seen.values()]
    assert all(len(s) == 1 and len(next(iter(s))) == 1 for s in per_worker), per_worker
    assert sorted(next(iter(s))[0] for s in per_worker) == cores[:2]


def test_pinning_is_off_when_asked_or_when_cores_are_too_few(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert cluster_mod._pin_workers(2) and not cluster_mod._pin_workers(3) and not cluster_mod._pin_workers(1)
    monkeypatch.setenv("NACVERIFY_PIN_CORES", "0")
    assert not cluster_mod._pin_workers(2)


def _worker_settings() -> dict:
    import dask

    return {key: dask.config.get(key) for key in ("distributed.worker.profile.enabled", "distributed.admin.tick.interval")}


def test_the_local_cluster_runs_without_dasks_background_work():
    """The local cluster's workers start with the profiler off and a 1 s tick (their environment),
    and its scheduler, in this process, has a stopped active memory manager and keeps work stealing
    (Dask's defaults: profiler on, 20 ms tick, the manager running); after the cluster, this process's
    settings are Dask's again."""
    import dask

    with cluster_mod.cluster(2) as ex:
        client = ex._client
        settings = client.run(_worker_settings)
        extensions = client.run_on_scheduler(lambda dask_scheduler: sorted(dask_scheduler.extensions))
        amm_running = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.extensions["amm"].running)
    assert len(settings) == 2
    assert all(s == {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s"} for s in settings.values()), settings
    assert "stealing" in extensions and not amm_running, extensions
    assert dask.config.get("distributed.admin.tick.interval") == "20ms"
    assert cluster_mod._dask_environment({"distributed.scheduler.work-stealing": False}) == {"DASK_DISTRIBUTED__SCHEDULER__WORK_STEALING": "False"}
