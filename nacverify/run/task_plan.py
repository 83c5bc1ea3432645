r"""How `check` cuts its claims into tasks for its workers (`plan_tasks`).

A group (symbolic, frozen-error, numeric, ltc, solvers, model, ...) shares cached solves and
compiled functions between its claims, so groups are the unit of work: one task per group,
costliest first, as long as the workers do not outnumber what the groups can keep busy. A group
whose measured cost exceeds its share, total / (`TASKS_PER_WORKER` x workers), is cut into
consecutive runs of its claims (neighbours in id order share the most), each its own task; what
two tasks of one group both compute is computed twice, the price of the parallelism.

A claim's cost is measured twice, with warm caches and with cold ones, where the groups weigh
very differently (compiling is most of a cold run: the model group is 15 % of a warm
`check --quick` and 31 % of a cold one); the plan uses the measurement of the caches' state
when the caller knows it, else the mean of the two shares (`claim_cost`).

Some work is shared by claims that are not neighbours: the LTC adjoint gradients
(`ltc.s5.adjoint_errors`, `ltc.table_bptt.accuracy`, `ltc.sec16.efficient`), the model
variants' gates, a frozen-error run. `nacverify.run.shared_work` records which claims use which
such computation and what it costs (``claim_seconds.json``'s ``shared``). A claim measured
after the claim that paid for a computation costs that computation again in a task without it:

$$\mathrm{cost}(S) = \sum_{c \in S} \mathrm{cost}(c) + \sum_{w\,:\ S \text{ uses } w,\ \mathrm{payer}(w) \notin S} \mathrm{seconds}(w)$$

for the claims $S$ of one task, the payer of $w$ being its first user in the group's order.
`shared_units` joins the users of a computation into one unit (never cut apart) when the
joined unit costs no more than the dearest of its parts or the share: on many workers a costly
shared computation may be computed twice in parallel rather than make one long task.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from ..claims import Claim

__all__ = ["plan_tasks", "claim_cost", "shared_units", "makespan", "TASKS_PER_WORKER", "CACHE_STATES"]


#: A group costing more than total / (TASKS_PER_WORKER x workers) is cut into runs of about that cost.
#: 1, measured on 2 cores: 2 cuts the ltc group in two, which shortens a cold ``check --quick`` (80 s
#: -> 77 s) but lengthens a warm one (27 s -> 30 s: work the group's claims share is done twice).
TASKS_PER_WORKER = 1


def _claim_seconds() -> dict[str, dict[str, float]]:
    """Seconds of each claim in a ``check --quick --jobs 2`` run on a 2-core machine, measured twice
    (nacverify/data/claim_seconds.json, written by tools/claim_seconds.py from the reports' per-claim
    seconds): ``warm``, with the compilation and traced-program caches full, and ``cold``, with both
    empty. Only ratios within one measurement matter (`claim_cost`)."""
    from importlib import resources

    return json.loads(resources.files("nacverify.data").joinpath("claim_seconds.json").read_text(encoding="utf-8"))


#: The cache states `claim_seconds.json` measured: compilation and traced-program caches full, and empty.
CACHE_STATES = ("warm", "cold")


def claim_cost(claims: Sequence[Claim], caches: str | None = None) -> dict[str, float]:
    """Each claim's expected share of the run: its seconds as a fraction of all `claims`' seconds,
    measured with the caches in state `caches` ("warm" or "cold"), or averaged over both (None:
    the state is unknown). A claim newer than a measurement counts its group's mean there (1 s for a
    new group); each claim counts at least 0.01 s."""
    if caches is not None and caches not in CACHE_STATES:
        raise ValueError(f"caches must be one of {CACHE_STATES} or None, got {caches!r}")
    shares: dict[str, float] = {c.id: 0.0 for c in claims}
    measurements = {k: v for k, v in _claim_seconds().items() if k in CACHE_STATES and (caches is None or k == caches)}
    for measured in measurements.values():
        by_group: dict[str, list[float]] = {}
        for c in claims:
            if c.id in measured:
                by_group.setdefault(c.group, []).append(measured[c.id])
        mean = {g: sum(v) / len(v) for g, v in by_group.items()}
        seconds = {c.id: max(0.01, measured.get(c.id, mean.get(c.group, 1.0))) for c in claims}
        total = sum(seconds.values()) or 1.0
        for cid, value in seconds.items():
            shares[cid] += value / total / max(1, len(measurements))
    return shares


def plan_tasks(claims: Sequence[Claim], workers: int, caches: str | None = None) -> list[tuple[str, list[Claim]]]:
    """The tasks of a run on `workers` workers, costliest first (`claim_cost` with the caches in
    state `caches`): (group, claims) pairs. One task per group, except that a group costing more
    than its share, total / (`TASKS_PER_WORKER` x workers), is cut into at most ceil(cost / share)
    runs of about equal cost (`_cut`) of whole units (`shared_units`); a task runs its claims in
    their given order (neighbours share compiled programs). One worker: one task per group.

    Why the cache state. The groups' costs differ in kind: SymPy's proofs cost the same with every
    cache full, the diffrax solves and the NAC model mostly compile. Ordered by the average of both
    measurements, a cold `check --quick` on 2 workers took up its solver group last, and one worker
    ended 2.6 s after the other (a makespan 2.5 % above half the claims' seconds); ordered by the
    cold seconds, the same claims' plan is 0.4 % above it."""
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(claim.group, []).append(claim)
    cost = claim_cost(claims, caches)
    share = sum(cost.values()) / max(1, TASKS_PER_WORKER * workers)
    shared = _shared_computations(claims)
    tasks: list[tuple[str, list[Claim], float]] = []
    for name, members in groups.items():
        work = _GroupWork(members, cost, shared)
        if workers <= 1:
            tasks.append((name, list(members), work.cost(range(len(members)))))
            continue
        units = work.units(share)
        for run in _cut(units, [work.cost(unit) for unit in units], share):
            run.sort()
            tasks.append((name, [members[i] for i in run], work.cost(run)))
    tasks.sort(key=lambda t: (-t[2], t[0]))
    return [(name, members) for name, members, _ in tasks]


def shared_units(members: Sequence[Claim], cost: dict[str, float], limit: float,
                 shared: Sequence[tuple[float, Sequence[str]]] = ()) -> list[list[Claim]]:
    """`members` (one group's claims, in order) joined into units (module docstring): computations
    are taken costliest first, and the units of a computation's users are joined when the joined
    unit costs at most the dearest of them or `limit`. `shared`: (cost, claim ids) per computation
    (`_shared_computations`); `cost`: `claim_cost`'s. Units in the order of their first claims,
    each with its claims in the given order."""
    return [[members[i] for i in unit] for unit in _GroupWork(members, cost, shared).units(limit)]


def _shared_computations(claims: Sequence[Claim]) -> list[tuple[float, list[str]]]:
    """`claim_seconds.json`'s record of shared work (`nacverify.run.shared_work`), as (cost, claim ids)
    pairs: a computation's seconds as a fraction of `claims`' cold seconds (`claim_cost`'s unit,
    the record being of a cold run)."""
    table = _claim_seconds()
    cold = table.get("cold", {})
    total = sum(max(0.01, cold.get(c.id, 1.0)) for c in claims) or 1.0
    return [(float(entry.get("seconds", 0.0)) / total, list(entry.get("claims", ()))) for entry in table.get("shared", {}).values()]


class _GroupWork:
    """One group's claims (by index, in order), their costs and the shared computations among them."""

    def __init__(self, members: Sequence[Claim], cost: dict[str, float], shared: Sequence[tuple[float, Sequence[str]]]):
        index = {c.id: i for i, c in enumerate(members)}
        self.own = [cost[c.id] for c in members]
        self.shared: list[tuple[float, frozenset[int], int]] = []  # (cost, users, payer: the first user)
        for seconds, ids in sorted(shared, key=lambda entry: -entry[0]):
            users = frozenset(index[cid] for cid in ids if cid in index)
            if len(users) >= 2:
                self.shared.append((seconds, users, min(users)))

    def cost(self, claims) -> float:
        """The claims' cost in one process (module docstring): their own, and each computation they
        use whose payer is not among them."""
        chosen = set(claims)
        extra = sum(seconds for seconds, users, payer in self.shared if payer not in chosen and users & chosen)
        return sum(self.own[i] for i in chosen) + extra

    def units(self, limit: float) -> list[list[int]]:
        """`shared_units`, as lists of indices."""
        unit_of = {i: frozenset([i]) for i in range(len(self.own))}
        for _, users, _ in self.shared:
            parts = {unit_of[i] for i in users}
            if len(parts) < 2:
                continue
            joined = frozenset().union(*parts)
            if self.cost(joined) <= max([limit, *(self.cost(p) for p in parts)]) + 1e-12:
                for i in joined:
                    unit_of[i] = joined
        units = sorted({unit for unit in unit_of.values()}, key=min)
        return [sorted(unit) for unit in units]


def _cut(units: list[list[int]], sizes: list[float], share: float) -> list[list[int]]:
    """`units` (in order, of `sizes`) cut into at most parts = min(units, ceil(total / share))
    consecutive runs, at the boundaries total x j / parts (j = 1 .. parts - 1): a run ends at the
    unit that reaches the next boundary, or before a unit that would pass it by more than the run
    falls short of it (so a costly unit starts a run of its own instead of swelling its
    neighbours')."""
    total = sum(sizes)
    parts = min(len(units), max(1, math.ceil(total / share - 1e-9))) if share > 0 else 1
    runs: list[list[int]] = []
    run: list[int] = []
    spent, cut = 0.0, 1
    for unit, size in zip(units, sizes):
        boundary = total * cut / parts
        if run and cut < parts and spent + size - boundary > boundary - spent:
            runs.append(run)
            run, cut = [], cut + 1
        run.extend(unit)
        spent += size
        if cut < parts and spent >= total * cut / parts - 1e-12:  # the cut-th of parts equal shares is reached
            runs.append(run)
            run = []
            while cut < parts and spent >= total * cut / parts - 1e-12:
                cut += 1
    if run:
        runs.append(run)
    return runs


def makespan(costs: Sequence[float], workers: int) -> float:
    """When the last of tasks costing `costs` ends, handed out as `nacverify.run.runner` hands them out:
    in the given order (a plan's: costliest first), each to the first worker that is free, all
    `workers` free at the start."""
    free = [0.0] * max(1, workers)
    for cost in costs:
        earliest = min(range(len(free)), key=free.__getitem__)
        free[earliest] += cost
    return max(free)
