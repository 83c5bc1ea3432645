"""Work that claims share within a process (nacverify.run.shared_work) and how the plan keeps it in one
task (nacverify.run.task_plan.shared_units, plan_tasks): hand-made claims and costs with plans derived by
hand, and the record of two real claims that share a computation."""

from __future__ import annotations

import pytest

import nacverify.run.runner as runner
import nacverify.run.task_plan as task_plan
from nacverify.run import shared_work
from nacverify.claims import CheckContext, Claim, Kind, Outcome, Verdict, evaluate, restated
from nacverify.run.runner import load_catalog


@pytest.fixture(autouse=True)
def _fresh_record():
    shared_work.forget()
    yield
    shared_work.forget()


def test_a_cached_computation_runs_once_and_names_every_claim_that_used_it():
    store, calls = {}, []

    def compute():
        calls.append(1)
        return 42

    with shared_work.running("x.1"):
        assert shared_work.cached(store, "k", compute, "work") == 42
    with shared_work.running("x.2"):
        assert shared_work.cached(store, "k", compute, "work") == 42
    assert shared_work.cached(store, "k", compute, "work") == 42  # no claim running: used, not recorded
    assert len(calls) == 1
    record = shared_work.record()
    assert list(record) == ["work"] and record["work"]["claims"] == ["x.1", "x.2"]


def test_the_decorator_caches_per_argument_and_names_the_work_by_them():
    calls = []

    @shared_work.shared(lambda n: f"square:{n}", maxsize=2)
    def square(n):
        calls.append(n)
        return n * n

    with shared_work.running("y.1"):
        assert square(3) == 9 and square(3) == 9 and square(4) == 16
    with shared_work.running("y.2"):
        assert square(4) == 16
    assert calls == [3, 4]
    assert {k: v["claims"] for k, v in shared_work.record().items()} == {"square:3": ["y.1"], "square:4": ["y.1", "y.2"]}


def test_evaluate_records_the_claim_that_runs():
    store = {}
    claim = Claim("z.1", "test", "s", "a", Verdict.HOLDS, "r",
                  lambda ctx: Outcome(Verdict.HOLDS, str(shared_work.cached(store, 0, lambda: 1, "z-work"))), group="z", kind=Kind.LEMMA)
    assert evaluate(claim).verdict is Verdict.HOLDS
    assert shared_work.record()["z-work"]["claims"] == ["z.1"]


def test_two_real_claims_that_share_the_bptt_graph_depths_are_recorded_together():
    # ltc.table_bptt.depth and .depth_per_step read one computation of the unrolled graph's depths
    catalog = load_catalog()
    for cid in ("ltc.table_bptt.depth", "ltc.table_bptt.depth_per_step"):
        evaluate(catalog[cid], CheckContext(quick=True))
    assert shared_work.record()["ltc.bptt_depth"]["claims"] == ["ltc.table_bptt.depth", "ltc.table_bptt.depth_per_step"]


def test_a_claim_and_its_restatements_compute_their_check_once_per_run_settings():
    # restated claims (nacverify.claims.restated) carry their original's check: before, each of them ran it again
    calls = []

    def check(ctx):
        calls.append((ctx.seed, ctx.quick))
        return Outcome(Verdict.REFUTED, f"computed {len(calls)}")

    original = Claim("r.orig", "test", "s", "a", Verdict.REFUTED, "r", check, group="r", kind=Kind.AS_PRINTED)
    again = [restated(original, suffix=s, source=f"test, {s}") for s in ("abstract", "s5")]
    results = [evaluate(c, CheckContext(seed=3, quick=True)) for c in (original, *again)]
    assert calls == [(3, True)]
    assert [r.claim.id for r in results] == ["r.orig", "r.orig.abstract", "r.orig.s5"]
    assert {r.outcome.message for r in results} == {"computed 1"} and {r.verdict for r in results} == {Verdict.REFUTED}
    assert shared_work.record()["restated:r.orig"]["claims"] == ["r.orig", "r.orig.abstract", "r.orig.s5"]
    # other run settings: computed again, and then shared again
    assert evaluate(again[1], CheckContext(seed=4, quick=True)).outcome.message == "computed 2"
    assert evaluate(original, CheckContext(seed=4, quick=True)).outcome.message == "computed 2"
    assert calls == [(3, True), (4, True)]
    # a claim that only bears the same id, with a check of its own, shares nothing
    other = Claim("r.orig", "test", "s", "a", Verdict.HOLDS, "r", lambda ctx: Outcome(Verdict.HOLDS, "own"), group="r", kind=Kind.LEMMA)
    assert evaluate(other, CheckContext(seed=4, quick=True)).outcome.message == "own"


def test_a_restated_check_that_fails_is_not_kept():
    calls = []

    def check(ctx):
        calls.append(1)
        raise RuntimeError(f"failure {len(calls)}")

    original = Claim("f.orig", "test", "s", "a", Verdict.HOLDS, "r", check, group="f", kind=Kind.LEMMA)
    results = [evaluate(c, CheckContext(quick=True)) for c in (original, restated(original, suffix="again", source="test"))]
    assert [r.verdict for r in results] == [Verdict.ERROR, Verdict.ERROR]
    assert [r.outcome.message for r in results] == ["check failed: RuntimeError: failure 1", "check failed: RuntimeError: failure 2"]


def test_the_real_restated_claims_share_their_originals_outcome():
    # the Euler-mode claim of Theorem 1 and its three restatements (Section 2.1.1, the abstract, the conclusion)
    catalog = load_catalog()
    ids = ["nac.thm1.euler", "nac.thm1.euler.abstract", "nac.thm1.euler.no_overshoot", "nac.thm1.euler.s5"]
    results = [evaluate(catalog[cid], CheckContext(quick=True)) for cid in ids]
    assert {r.verdict for r in results} == {catalog["nac.thm1.euler"].expected}
    assert len({id(r.outcome.evidence) for r in results}) == 1  # one outcome, not four computations
    assert shared_work.record()["restated:nac.thm1.euler"]["claims"] == ids


def _claim(cid: str) -> Claim:
    return Claim(cid, "test", "s", "a", Verdict.HOLDS, "r", lambda ctx: Outcome(Verdict.HOLDS, cid), group=cid[0], kind=Kind.LEMMA)


@pytest.fixture
def plan_data(monkeypatch):
    """Group a: a.1 .. a.5 of 1, 1, 7, 1, 1 s; group b: b.1 of 1 s (12 s in all). a.1 and a.4 share
    `w1` (1 s), a.2 and a.5 share `w2`."""
    seconds = {"a.1": 1.0, "a.2": 1.0, "a.3": 7.0, "a.4": 1.0, "a.5": 1.0, "b.1": 1.0}
    shared = {"w1": {"seconds": 1.0, "claims": ["a.1", "a.4"]}, "w2": {"seconds": 0.5, "claims": ["a.2", "a.5"]}}
    state = {"warm": seconds, "cold": seconds, "shared": shared}
    monkeypatch.setattr(task_plan, "_claim_seconds", lambda: state)
    return [_claim(c) for c in seconds], state


def _plan(claims, workers):
    return [[c.id for c in members] for _, members in runner.plan_tasks(claims, workers)]


def test_claims_that_share_work_stay_in_one_task(plan_data):
    claims, state = plan_data
    # 4 workers: share 12 / 4 = 3 s. Units, in the order of their first claims: {a.1, a.4} 2 s, {a.2, a.5} 2 s,
    # {a.3} 7 s. Group a (11 s) in at most min(3 units, ceil(11 / 3)) = 3 runs, boundaries 11/3 and 22/3:
    # {a.1, a.4} ends at 2 s; {a.2, a.5} would pass 11/3 by 1/3, less than the 5/3 the run falls short, so it
    # joins, and the run (4 s) ends; {a.3} is the last run. A run's claims in the given order; costliest first.
    assert _plan(claims, 4) == [["a.3"], ["a.1", "a.2", "a.4", "a.5"], ["b.1"]]
    # without the record: 5 units, 4 runs at most, boundaries 2.75, 5.5, 8.25: a.1 + a.2 (2 s; a.3 would pass
    # 2.75 by 6.25), a.3 alone (it passes 5.5 and 8.25: no cut is left but the end), a.4 + a.5
    state["shared"] = {}
    assert _plan(claims, 4) == [["a.3"], ["a.1", "a.2"], ["a.4", "a.5"], ["b.1"]]


def test_a_unit_grows_only_while_that_costs_less_than_computing_twice(plan_data):
    claims, state = plan_data
    members = [c for c in claims if c.group == "a"]
    cost = runner.claim_cost(claims)  # each 1 s claim is 1/12 of the run
    # w1 (1 s) joins a.1 (1 s) and a.4 (apart 1 + 1 s): 2 s; w2 likewise a.2 and a.5. w3 (0.5 s, paid by a.1) would join
    # {a.1, a.4} (2 s) and a.3 (apart 7 + 0.5 s) into 9 s, more than the limit (3 s) and the dearer part (7.5 s)
    shared = [(1 / 12, ["a.1", "a.4"]), (0.5 / 12, ["a.2", "a.5"]), (0.5 / 12, ["a.1", "a.3"])]
    units = task_plan.shared_units(members, cost, 3 / 12, shared)
    assert [[c.id for c in u] for u in units] == [["a.1", "a.4"], ["a.2", "a.5"], ["a.3"]]
    # with a limit of 9 s, w3 joins them too (9 s <= 9 s)
    units = task_plan.shared_units(members, cost, 9 / 12, shared)
    assert [[c.id for c in u] for u in units] == [["a.1", "a.3", "a.4"], ["a.2", "a.5"]]
    # the record's seconds, as fractions of the claims' cold seconds (12 s)
    assert sorted(task_plan._shared_computations(claims)) == [(0.5 / 12, ["a.2", "a.5"]), (1 / 12, ["a.1", "a.4"])]


def test_on_one_worker_a_group_is_one_task_in_order(plan_data):
    claims, _ = plan_data
    assert _plan(claims, 1) == [["a.1", "a.2", "a.3", "a.4", "a.5"], ["b.1"]]


def test_the_ltc_adjoint_claims_share_one_task_when_the_ltc_group_is_cut():
    # measured (tools/claim_seconds.py --sharing): ltc.s5.adjoint_errors computes the adjoint gradients
    # (6.3 s cold) that ltc.table_bptt.accuracy and ltc.sec16.efficient read. On 4 workers the ltc group
    # is cut in two (on 4 workers before issue 43 added claims to other groups, on 6 since); a cut that ignored the
    # sharing put the first claim before the cut and the other two after it, so a second task computed the gradients again
    catalog = load_catalog()
    tasks = runner.plan_tasks(list(catalog.values()), 6, "cold")
    where = {c.id: i for i, (_, members) in enumerate(tasks) for c in members}
    assert sum(1 for name, _ in tasks if name == "ltc") == 2
    assert where["ltc.s5.adjoint_errors"] == where["ltc.table_bptt.accuracy"] == where["ltc.sec16.efficient"]


def test_a_costly_shared_computation_is_computed_twice_rather_than_make_one_long_task(plan_data):
    claims, state = plan_data
    # a.3 (7 s) pays w (6 s), which a.5 also reads. 12 workers: share 1 s. a.5 apart costs 1 + 6 = 7 s,
    # joined with a.3 8 s, more than the dearer part (7 s): a.5 runs apart and computes w again.
    # Units a.1, a.2, a.3, a.4, a.5 of 1, 1, 7, 1, 7 s (17 s): 5 runs at most, boundaries 3.4, 6.8, 10.2, 13.6:
    # a.1 + a.2 (a.3 would pass 3.4 by 5.6), a.3 (passes 6.8), a.4 (a.5 would pass 10.2 by 6.8), a.5
    state["shared"] = {"w": {"seconds": 6.0, "claims": ["a.3", "a.5"]}}
    assert _plan(claims, 12) == [["a.3"], ["a.5"], ["a.1", "a.2"], ["a.4"], ["b.1"]]
    # w costing 7.5 s: a.5 apart costs 8.5 s, joined 8 s: one unit
    state["shared"]["w"]["seconds"] = 7.5
    assert _plan(claims, 12) == [["a.3", "a.5"], ["a.1", "a.2"], ["a.4"], ["b.1"]]
