"""How `check` cuts its claims into tasks (nacverify.run.task_plan.plan_tasks) and the default --jobs: hand-made
costs whose plan is derived by hand, and the same outcomes however the claims are cut."""

from __future__ import annotations

import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import nacverify.catalog  # noqa: F401  (registers every claim provider)
import nacverify.run.runner as runner
import nacverify.run.task_plan as task_plan
from nacverify.claims import CheckContext, Claim, Kind, Outcome, Verdict, select


def _claim(cid: str, group: str) -> Claim:
    return Claim(cid, "test", "s", "a", Verdict.HOLDS, "r", lambda ctx: Outcome(Verdict.HOLDS, cid), group=group, kind=Kind.LEMMA)


@pytest.fixture
def costs(monkeypatch):
    # group a: eight claims of 1 s; group b: two claims of 1 s (total 10 s), warm and cold alike
    table = {**{f"a.{i}": 1.0 for i in range(1, 9)}, "b.1": 1.0, "b.2": 1.0}
    monkeypatch.setattr(task_plan, "_claim_seconds", lambda: {"warm": table, "cold": table})
    return [_claim(c, c[0]) for c in table]


def _plan(claims, workers):
    return [(g, [c.id for c in members]) for g, members in runner.plan_tasks(claims, workers)]


def test_one_task_per_group_on_one_worker(costs):
    assert _plan(costs, 1) == [("a", [f"a.{i}" for i in range(1, 9)]), ("b", ["b.1", "b.2"])]


def test_a_group_above_its_share_is_cut_into_consecutive_runs_of_equal_cost(costs):
    # 2 workers: share 10 / 2 = 5 s; group a (8 s) needs ceil(8 / 5) = 2 runs of 4 s; b (2 s) stays whole
    assert task_plan.TASKS_PER_WORKER == 1
    assert _plan(costs, 2) == [("a", ["a.1", "a.2", "a.3", "a.4"]), ("a", ["a.5", "a.6", "a.7", "a.8"]), ("b", ["b.1", "b.2"])]
    # 5 workers: share 2 s; a in 4 runs of 2 s, b (2 s) whole
    assert _plan(costs, 5) == [("a", ["a.1", "a.2"]), ("a", ["a.3", "a.4"]), ("a", ["a.5", "a.6"]), ("a", ["a.7", "a.8"]), ("b", ["b.1", "b.2"])]
    # 10 workers: share 1 s; every claim its own task, and never more runs than claims
    assert sorted(ids for _, ids in _plan(costs, 10)) == [[c.id] for c in sorted(costs, key=lambda c: c.id)]
    assert len(_plan(costs, 64)) == 10


def test_a_claim_newer_than_the_measurement_costs_its_groups_mean(costs):
    new = _claim("a.9", "a")
    assert runner.claim_cost([*costs, new])["a.9"] == pytest.approx(1 / 11)  # 1 s of 11 s


def test_warm_and_cold_shares_are_averaged(monkeypatch):
    # x costs 1 s warm and 3 s cold, y the reverse: a quarter and three quarters of each run, so half each
    monkeypatch.setattr(task_plan, "_claim_seconds", lambda: {"warm": {"x.1": 1.0, "y.1": 3.0}, "cold": {"x.1": 3.0, "y.1": 1.0}})
    cost = runner.claim_cost([_claim("x.1", "x"), _claim("y.1", "y")])
    assert cost == pytest.approx({"x.1": 0.5, "y.1": 0.5})


def test_the_measured_costs_cover_the_catalog_warm_and_cold():
    table = task_plan._claim_seconds()
    assert set(table) == {"warm", "cold", "shared"}
    ids = {c.id for c in select(["*"])}
    assert ids <= set(table["warm"]) and ids <= set(table["cold"])
    sharers = {cid for entry in table["shared"].values() for cid in entry["claims"]}
    assert sharers <= ids, sorted(sharers - ids)[:3]  # the record names no claim that is gone


class _CountingPool(ThreadPoolExecutor):
    """A pool that records the most tasks it held at once, submitted and not yet finished."""

    def __init__(self, workers):
        super().__init__(max_workers=workers)
        self.held = self.most = 0
        self.lock = threading.Lock()

    def submit(self, fn, *args, **kwargs):
        with self.lock:
            self.held += 1
            self.most = max(self.most, self.held)
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._release)
        return future

    def _release(self, _future):
        with self.lock:
            self.held -= 1


def test_tasks_are_handed_out_one_per_free_worker(monkeypatch):
    # the table claims in four groups of equal cost: 4 tasks on 2 workers; a scheduler given all 4 at
    # once may queue two behind one worker; the run gives each worker one task at a time
    claims = [dataclasses.replace(c, group=f"g{i % 4}") for i, c in enumerate(select(["nac000.table1.*"]))]
    monkeypatch.setattr(task_plan, "_claim_seconds", lambda: {"warm": dict.fromkeys((c.id for c in claims), 1.0)})
    assert len(runner.plan_tasks(claims, 2)) == 4
    evaluate = runner.evaluate
    monkeypatch.setattr(runner, "evaluate", lambda claim, ctx: (time.sleep(0.05), evaluate(claim, ctx))[1])  # no task ends at once
    with _CountingPool(2) as pool:
        results = runner.run_claims(claims, CheckContext(seed=0, quick=True), executor=pool)
    assert pool.most == 2
    assert [r.claim.id for r in results] == [c.id for c in claims]


def test_the_same_outcomes_however_the_claims_are_cut():
    claims = select(["nac000.table1.*"])
    assert len(claims) >= 8
    ctx = CheckContext(seed=0, quick=True)
    serial = runner.run_claims(claims, ctx)
    with ThreadPoolExecutor(max_workers=8) as pool:  # 8 workers: the tables group is cut into runs
        assert len(runner.plan_tasks(claims, 8)) > 1
        cut = runner.run_claims(claims, ctx, executor=pool)
    assert [(r.claim.id, r.verdict, r.outcome.message) for r in serial] == [(r.claim.id, r.verdict, r.outcome.message) for r in cut]


def test_default_jobs_follows_cores_and_memory(monkeypatch):
    import collections

    import psutil

    from nacverify.cli import _cluster

    vm = collections.namedtuple("vm", "available total")
    monkeypatch.setattr(_cluster, "usable_cores", lambda: 16)
    monkeypatch.setattr(psutil, "virtual_memory", lambda: vm(125 * 2**30, 128 * 2**30))
    assert _cluster.default_jobs() == 16  # the 16-core, 128 GiB machine: one per core
    monkeypatch.setattr(psutil, "virtual_memory", lambda: vm(9 * 2**30, 16 * 2**30))
    assert _cluster.default_jobs() == 4  # 9 GiB hold four 2-GiB workers
    monkeypatch.setattr(psutil, "virtual_memory", lambda: vm(2**29, 2**30))
    assert _cluster.default_jobs() == 1


def test_the_scaling_ladder_doubles_up_to_the_cores():
    from nacverify.cli.bench_check import jobs_ladder

    assert jobs_ladder(16) == [1, 2, 4, 8, 16]
    assert jobs_ladder(12) == [1, 2, 4, 8, 12]
    assert jobs_ladder(2) == [1, 2] and jobs_ladder(1) == [1]


def test_the_cache_state_picks_its_own_measurement(monkeypatch):
    # x costs 1 s warm and 3 s cold, y the reverse: cold, x is three quarters of the run and goes first; warm, y
    monkeypatch.setattr(task_plan, "_claim_seconds", lambda: {"warm": {"x.1": 1.0, "y.1": 3.0}, "cold": {"x.1": 3.0, "y.1": 1.0}})
    claims = [_claim("x.1", "x"), _claim("y.1", "y")]
    assert runner.claim_cost(claims, "cold") == pytest.approx({"x.1": 0.75, "y.1": 0.25})
    assert runner.claim_cost(claims, "warm") == pytest.approx({"x.1": 0.25, "y.1": 0.75})
    assert [g for g, _ in runner.plan_tasks(claims, 2, "cold")] == ["x", "y"]
    assert [g for g, _ in runner.plan_tasks(claims, 2, "warm")] == ["y", "x"]
    with pytest.raises(ValueError, match="caches"):
        runner.claim_cost(claims, "lukewarm")


def test_the_command_line_reads_the_cache_state_from_the_compilation_cache_folder(tmp_path, monkeypatch):
    from nacverify.cli import compilation_cache_state

    folder = tmp_path / "jax"
    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(folder))
    assert compilation_cache_state() == "cold"  # no folder yet
    folder.mkdir()
    assert compilation_cache_state() == "cold"  # empty
    (folder / "jit_add-0123").write_bytes(b"x")
    assert compilation_cache_state() == "warm"
    monkeypatch.delenv("JAX_COMPILATION_CACHE_DIR")
    assert compilation_cache_state() == "cold"  # the cache off


def test_a_returned_task_s_claims_stay_with_its_worker_for_an_interrupt():
    # a task that has returned, its result not yet with the caller: the worker still hands its claims to
    # take_finished (they were dropped on return, and an interrupt in that moment lost them); after
    # KEPT_RUNS later runs they are forgotten
    import pickle

    import nacverify

    ctx = CheckContext(quick=True)
    runner.run_group(["ltc.table11.1"], ctx, "run-a", nacverify.__version__)
    assert list(pickle.loads(runner.take_finished("run-a"))) == ["ltc.table11.1"]
    for k in range(runner.KEPT_RUNS):
        runner.run_group(["ltc.table11.1"], ctx, f"later-{k}", nacverify.__version__)
    assert pickle.loads(runner.take_finished("run-a")) == {}


def test_the_makespan_hands_each_task_to_the_first_free_worker():
    # 2 workers, tasks 5, 4, 3, 3, 2 s: A takes 5, B 4; the first 3 goes to B (free at 4) -> 7, the second to
    # A (free at 5) -> 8, the 2 to B (free at 7) -> 9: the last ends at 9 s
    assert task_plan.makespan([5, 4, 3, 3, 2], 2) == 9
    assert task_plan.makespan([4, 4, 4, 1], 3) == 5
    assert task_plan.makespan([4, 4, 4, 1], 1) == 13
    assert task_plan.makespan([], 4) == 0


def test_claim_seconds_only_puts_new_claims_in_the_tables_scale():
    # tools/claim_seconds.py --only: the table measured a.1 + a.2 = 3 s where the new reports measured 6 s (a machine
    # twice as slow), so the new claim's 4 s measured count 2 s in the table; a.1 and a.2 keep the table's values
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("claim_seconds_tool", Path(__file__).resolve().parents[1] / "tools" / "claim_seconds.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    table = {"a.1": 1.0, "a.2": 2.0, "new.1": 0.01}
    assert tool._rescaled(table, {"a.1": 2.5, "a.2": 3.5, "new.1": 4.0}, ["new.1"]) == {"a.1": 1.0, "a.2": 2.0, "new.1": 2.0}
    with pytest.raises(SystemExit, match="new.2 is not in the reports"):
        tool._rescaled(table, {"a.1": 2.5}, ["new.2"])
