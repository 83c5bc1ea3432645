"""How `check` cuts its claims into tasks (nacverify.runner.plan_tasks) and the default --jobs: hand-made
costs whose plan is derived by hand, and the same outcomes however the claims are cut."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import nacverify.catalog  # noqa: F401  (registers every claim provider)
import nacverify.runner as runner
from nacverify.claims import CheckContext, Claim, Kind, Outcome, Verdict, select


def _claim(cid: str, group: str) -> Claim:
    return Claim(cid, "test", "s", "a", Verdict.HOLDS, "r", lambda ctx: Outcome(Verdict.HOLDS, cid), group=group, kind=Kind.LEMMA)


@pytest.fixture
def costs(monkeypatch):
    # group a: four claims of 1 s; group b: one claim of 1 s (total 5 s)
    table = {"a.1": 1.0, "a.2": 1.0, "a.3": 1.0, "a.4": 1.0, "b.1": 1.0}
    monkeypatch.setattr(runner, "_claim_seconds", lambda: table)
    return [_claim(c, c[0]) for c in table]


def _plan(claims, workers):
    return [(g, [c.id for c in members]) for g, members in runner.plan_tasks(claims, workers)]


def test_one_task_per_group_while_the_workers_do_not_outnumber_it(costs):
    assert _plan(costs, 1) == [("a", ["a.1", "a.2", "a.3", "a.4"]), ("b", ["b.1"])]


def test_a_group_above_its_share_is_cut_into_consecutive_runs_of_equal_cost(costs):
    # 2 workers: share 2.5 s; group a (4 s) needs ceil(4 / 2.5) = 2 runs of 2 s; b (1 s) stays whole
    assert _plan(costs, 2) == [("a", ["a.1", "a.2"]), ("a", ["a.3", "a.4"]), ("b", ["b.1"])]
    # 5 workers: share 1 s; every claim its own task
    assert sorted(ids for _, ids in _plan(costs, 5)) == [["a.1"], ["a.2"], ["a.3"], ["a.4"], ["b.1"]]
    # never more runs than claims
    assert len(_plan(costs, 64)) == 5


def test_a_claim_newer_than_the_measurement_costs_its_groups_mean(costs):
    new = _claim("a.5", "a")
    assert runner.claim_cost([*costs, new])["a.5"] == pytest.approx(1.0)


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
