"""Reports survive faults: atomic writes, concurrent writers, SIGINT/SIGTERM, SIGKILL.

The writer processes are tests/fault_writer.py; every version they write carries its
own checksum and a payload that can be recomputed from its version number, so a torn
or mixed file is told apart from a whole one independently of the report reader."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import h5py
import numpy as np
import pytest

import nacverify.report._io as report_mod
from nacverify.errors import BadInput, EnvironmentProblem
from nacverify.report import Report, read_report, write_report

sys.path.insert(0, str(Path(__file__).parent))
from fault_writer import payload_version  # noqa: E402

WRITER = str(Path(__file__).with_name("fault_writer.py"))
SIZE = 400_000  # 3.2 MB of float64 per version: a write takes a noticeable time


def _writer(path, tag, start, count, *extra):
    return subprocess.Popen([sys.executable, WRITER, str(path), tag, str(start), str(count), str(SIZE), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_ready(proc):
    line = proc.stdout.readline()
    assert line.strip() == "ready", line + proc.stderr.read()


def _temp_files(folder: Path, name: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".tmp")]


# ------------------------------------------------------------------ atomic writes


def test_write_goes_through_a_synced_temporary_file_in_the_same_folder(tmp_path, monkeypatch):
    """At the moment of the rename the temporary file sits next to the target, has been
    fsync'ed and is already a complete, readable report; the folder is fsync'ed after."""
    target = tmp_path / "r.h5"
    write_report(Report(command="old"), target)
    synced, seen = [], {}
    real_fsync, real_replace = os.fsync, os.replace

    def spy_fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    def spy_replace(src, dst):
        src = Path(src)
        seen.update(src=src, dst=Path(dst), synced_before=list(synced), command=read_report(src).attrs["command"],
                    target_then=read_report(dst).attrs["command"])
        return real_replace(src, dst)

    monkeypatch.setattr(report_mod.os, "fsync", spy_fsync)
    monkeypatch.setattr(report_mod.os, "replace", spy_replace)
    write_report(Report(command="new"), target, overwrite=True)
    assert seen["src"].parent == tmp_path and seen["dst"] == target and seen["src"].name.startswith(".r.h5.")
    assert str(seen["src"]) in seen["synced_before"]
    assert seen["command"] == "new" and seen["target_then"] == "old"  # the old file stays whole until the rename
    assert synced[-1] == str(tmp_path)  # the folder entry is made durable too
    assert read_report(target).attrs["command"] == "new"
    assert _temp_files(tmp_path, "r.h5") == []


def test_failed_write_leaves_the_previous_report_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "r.h5"
    write_report(Report(command="old", sections={"s": {"x": np.arange(10.0)}}), target)
    before = target.read_bytes()

    def broken(handle, report):
        handle.create_dataset("partial", data=np.zeros(1000))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_mod, "_write", broken)
    with pytest.raises(EnvironmentProblem, match="No space left"):
        write_report(Report(command="new"), target, overwrite=True)
    assert target.read_bytes() == before
    assert _temp_files(tmp_path, "r.h5") == []


# ------------------------------------------------------------------ concurrent writers


def test_two_concurrent_writers_never_produce_a_mixed_file(tmp_path):
    """Two processes overwrite one path 12 times each while this process keeps reading it:
    every read is one whole version of one writer."""
    target = tmp_path / "r.h5"
    writers = [_writer(target, "A", 0, 12), _writer(target, "B", 1000, 12)]
    seen: set[tuple[int, str]] = set()
    while any(w.poll() is None for w in writers):
        if target.exists():
            try:
                seen.add(payload_version(target, SIZE))
            except FileNotFoundError:
                pass
        time.sleep(0.01)
    for w in writers:
        out, err = w.communicate()
        assert w.returncode == 0, err
        assert out.count("wrote") == 12
    final = payload_version(target, SIZE)
    assert final in {(11, "A"), (1011, "B")}
    assert {tag for _, tag in seen} <= {"A", "B"} and len(seen) >= 2
    assert all((v < 1000) == (tag == "A") for v, tag in seen)
    assert _temp_files(tmp_path, "r.h5") == []


def test_two_writers_creating_one_new_path_one_wins_whole(tmp_path):
    """Without --force (overwrite=False) two runs racing for one new path: exactly one
    writes it, the other is refused, and the file is the winner's."""
    for round_ in range(2):
        target = tmp_path / f"r{round_}.h5"
        writers = [_writer(target, "A", 0, 1, "--create"), _writer(target, "B", 1000, 1, "--create")]
        results = [(w.wait(timeout=120), w.stdout.read()) for w in writers]
        codes = sorted(code for code, _ in results)
        assert codes == [0, 4], results
        winner = "A" if results[0][0] == 0 else "B"
        assert payload_version(target, SIZE)[1] == winner


def test_reader_in_a_thread_sees_only_whole_versions(tmp_path):
    """In-process overwrites (h5py serialises threads) and a reading thread."""
    target = tmp_path / "r.h5"
    stop, errors, reads = threading.Event(), [], [0]
    write_report(Report(command="v0", sections={"s": {"x": np.full(50_000, 0.0)}}), target)

    def reader():
        while not stop.is_set():
            try:
                data = read_report(target)
                x = data.sections["s"]["x"]
                assert data.attrs["command"] == f"v{int(x[0])}" and np.all(x == x[0])
                reads[0] += 1
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for k in range(1, 30):
            write_report(Report(command=f"v{k}", sections={"s": {"x": np.full(50_000, float(k))}}), target, overwrite=True)
    finally:
        stop.set()
        thread.join()
    assert not errors, errors[:3]
    assert reads[0] > 0


# ------------------------------------------------------------------ SIGKILL at random points


def test_sigkill_at_random_points_leaves_the_previous_report_intact(tmp_path):
    """24 writer processes, each killed with SIGKILL at a random moment of its write loop:
    after every kill the report is a whole version, the latest one completed or the one
    before; never torn. Kills that hit a write in progress leave a temporary file (the
    evidence that the kill landed mid-write); at least a few must do so."""
    target = tmp_path / "r.h5"
    write_report(Report(command="fault-writer base version 0",
                        sections={"payload": _base_payload()}), target)
    rng = random.Random(20240607)
    last, mid_write, kills = 0, 0, 24
    for i in range(kills):
        start = 1000 * (i + 1)
        proc = _writer(target, f"k{i}", start, 0)
        _wait_ready(proc)
        time.sleep(rng.uniform(0.0, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        completed = [int(line.split()[1]) for line in proc.stdout.read().splitlines() if line.startswith("wrote")]
        version, _ = payload_version(target, SIZE)
        # a version is renamed into place before its "wrote" line is printed, so the file
        # holds the last reported version or the next one; with none reported, the
        # previous writer's file or this writer's first
        allowed = {completed[-1], completed[-1] + 1} if completed else {last, start}
        assert version in allowed, (version, allowed)
        last = version
        leftovers = _temp_files(tmp_path, "r.h5")
        mid_write += bool(leftovers)
        for p in leftovers:
            p.unlink()
        proc.stdout.close()
        proc.stderr.close()
    assert mid_write >= 3, f"only {mid_write} of {kills} kills landed inside a write"


def _base_payload():
    import hashlib

    from fault_writer import payload

    data = payload(0, SIZE)
    return {"data": data, "version": 0, "writer": "base", "sha256": hashlib.sha256(data.tobytes()).hexdigest()}


# ------------------------------------------------------------------ SIGINT / SIGTERM during a long run


def _script():
    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    return exe


def test_sigint_and_sigterm_during_a_long_sweep_leave_incomplete_reports(tmp_path):
    """Two long sweeps run side by side; once each has printed its regime table (the sweep
    starts right after), one gets SIGINT and the other SIGTERM. Both must exit 3 and leave
    a report marked incomplete holding the finished claims."""
    runs = {}
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "JAX_PLATFORMS": "cpu"}
    for sig in (signal.SIGINT, signal.SIGTERM):
        out = tmp_path / f"{sig.name}.h5"
        proc = subprocess.Popen([_script(), "frozen-error", "-r", "oscillatory", "--sweep", "2000000", "--scipy-draws", "0", "--out", str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
        runs[sig] = (proc, out, [])

    def pump(proc, lines):
        for line in proc.stdout:
            lines.append(line)

    threads = [threading.Thread(target=pump, args=(p, lines), daemon=True) for p, _, lines in runs.values()]
    for t in threads:
        t.start()
    deadline = time.time() + 240
    pending = dict(runs)
    while pending and time.time() < deadline:
        for sig, (proc, out, lines) in list(pending.items()):
            assert proc.poll() is None, f"{sig.name} run ended early: {proc.stderr.read()}"
            if any("frozen-coefficient error" in line for line in lines):
                time.sleep(3.0)  # into the sweep (sampling, compile or solving: all inside it)
                proc.send_signal(sig)
                del pending[sig]
        time.sleep(0.2)
    assert not pending, "the sweeps never started"
    for sig, (proc, out, _) in runs.items():
        proc.wait(timeout=120)
        stderr = proc.stderr.read()
        assert proc.returncode == 3, (sig.name, stderr)
        assert "interrupted" in stderr and "incomplete" in stderr, stderr
        assert "Traceback" not in stderr
        data = read_report(out)
        assert data.complete is False, sig.name
        assert "interrupted" in data.attrs["note"]
        assert data.claims["nac.thm3.sharp.oscillatory"].verdict == "holds"
        with h5py.File(out) as f:
            assert f.attrs["complete"] == False  # noqa: E712  (numpy bool)


_FINALIZER_SCRIPT = r"""
import os, signal, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited as by a background job of a shell or CI
from nacverify.cli._guard import guarded

class SlowFinalizer:
    def __del__(self):
        time.sleep(0.5)

@guarded
def long_run():
    started = time.time()
    os.system(f"(sleep 0.2; kill -TERM {os.getpid()}) &")  # lands inside the finalizer below
    while time.time() - started < 4:
        obj = SlowFinalizer()
        del obj
        time.sleep(0.3)
    return "finished"

try:
    print(long_run())
except BaseException as exc:
    print("exit", getattr(exc, "exit_code", type(exc).__name__))
"""


def test_sigterm_inside_a_finalizer_still_stops_a_run_when_sigint_is_ignored():
    """A SIGTERM whose KeyboardInterrupt is raised inside a finalizer (where Python only prints it)
    is raised again on the main thread by the CLI's unraisable hook. It used to be raised again as
    SIGINT, which does nothing where SIGINT is ignored (a background job, CI): `bench --sweep-bench`'s
    SIGTERM was lost and the sweep ran to its end (CI, stop 28). Now it ends with exit 3."""
    res = subprocess.run([sys.executable, "-c", _FINALIZER_SCRIPT], capture_output=True, text=True, timeout=120)
    assert res.stdout.strip().splitlines()[-1] == "exit 3", (res.stdout, res.stderr)
    assert "interrupted" in res.stderr
