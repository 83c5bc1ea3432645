"""`check` loads the claim catalog while its cluster starts (cli._loading.Background), instead of
one after the other; bad input still answers in one line."""

from __future__ import annotations

import contextlib
import threading

import pytest
from typer.testing import CliRunner

import nacverify.cli.check as check_mod
from nacverify.cli._loading import Background
from nacverify.cli.app import app
from nacverify.errors import BadInput

runner = CliRunner()


def test_background_gives_the_value_or_raises_the_error_of_its_function():
    started = threading.Event()
    release = threading.Event()

    def work():
        started.set()
        release.wait(10)
        return threading.current_thread().name

    job = Background(work)
    assert started.wait(10)  # running before anyone asks for the result
    release.set()
    assert job.result() != threading.main_thread().name

    def fail():
        raise BadInput("no claim matches 'x'")

    with pytest.raises(BadInput, match="no claim matches"):
        Background(fail).result()


def test_the_catalog_is_selected_while_the_cluster_starts(tmp_path, monkeypatch):
    """The old order (select in the main thread, then start the cluster) fails both asserts."""
    events: list[tuple[str, str]] = []
    selected = threading.Event()
    real_select = check_mod._select

    def select(only):
        events.append(("select starts", threading.current_thread().name))
        claims = real_select(only)
        selected.set()
        return claims

    @contextlib.contextmanager
    def cluster(jobs, scheduler=None, **_kwargs):
        events.append(("cluster starts", threading.current_thread().name))
        assert selected.wait(60)
        yield None  # serial: the claims then run in this process

    monkeypatch.setattr(check_mod, "_select", select)
    monkeypatch.setattr(check_mod, "cluster", cluster)
    res = runner.invoke(app, ["check", "--only", "ltc.table11.1", "--out", str(tmp_path / "r.h5"), "-q"])
    assert res.exit_code == 0, res.output
    (select_thread,) = [thread for what, thread in events if what == "select starts"]
    (cluster_thread,) = [thread for what, thread in events if what == "cluster starts"]
    assert select_thread != cluster_thread == threading.main_thread().name


def test_a_selection_of_nothing_is_still_one_line_exit_2(tmp_path):
    res = runner.invoke(app, ["check", "--only", "no.such.claim*", "--jobs", "1", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 2
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no claim matches" in lines[0] and "Traceback" not in res.output
    assert not (tmp_path / "r.h5").exists()
