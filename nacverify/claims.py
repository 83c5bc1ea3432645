"""Claims, verdicts, evidence and the claim registry.

A *claim* is one checkable statement from a source document (shared/seeds). Its
`check` returns an `Outcome` (verdict, message, evidence). The registry maps claim ids
to claims; `evaluate` runs a check, times it and turns an exception into the `error`
verdict. The gate compares each verdict with the claim's expected verdict, in both
directions (like pytest's strict xfail).
"""

from __future__ import annotations

import enum
import re
import fnmatch
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .errors import BadInput, Interrupted
from .compute.precision import float64
from .run.shared_work import cached, running

__all__ = [
    "Verdict",
    "Kind",
    "Evidence",
    "Outcome",
    "Claim",
    "Result",
    "CheckContext",
    "register",
    "add_provider",
    "registry",
    "get_claim",
    "select",
    "evaluate",
    "gate_failures",
    "check_kind",
    "with_reading",
    "counts_by_kind",
    "restated",
    "DOCUMENT_KINDS",
]


class Verdict(str, enum.Enum):
    """The five verdicts of ARCHITECTURE.md."""

    HOLDS = "holds"
    REFUTED = "refuted"
    INAPPLICABLE = "inapplicable"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"

    def __str__(self) -> str:  # so f-strings print "holds", not "Verdict.HOLDS"
        return self.value


class Kind(str, enum.Enum):
    """Whose statement a claim is, so that a verdict counts against the right party.

    - ``as-printed``: the document's statement under its own assumptions;
    - ``reading``: the document's statement under an explicit interpretation, which the
      claim names in `Claim.reading` (other readings are other claims);
    - ``correction``: the suite's corrected statement where the printed one fails;
    - ``implementation``: a property of a public implementation (or of the suite's own
      model of it), not of the document's equations;
    - ``lemma``: a fact the suite derives and relies on; the document does not state it.

    Only an ``as-printed`` or ``reading`` claim that is refuted says the document is wrong.
    """

    AS_PRINTED = "as-printed"
    READING = "reading"
    CORRECTION = "correction"
    IMPLEMENTATION = "implementation"
    LEMMA = "lemma"

    def __str__(self) -> str:
        return self.value


#: The kinds whose verdicts are verdicts about the document itself.
DOCUMENT_KINDS = (Kind.AS_PRINTED, Kind.READING)


Scalar = float | int | str | bool


@dataclass(frozen=True)
class Evidence:
    """Data behind a verdict: arrays (grids, trajectories, bounds), scalars
    (tightness, slack, margins) and a witness (parameters of the worst case)."""

    arrays: Mapping[str, np.ndarray] = field(default_factory=dict)
    scalars: Mapping[str, Scalar] = field(default_factory=dict)
    witness: Mapping[str, Scalar] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What a check returns."""

    verdict: Verdict
    message: str
    evidence: Evidence = field(default_factory=Evidence)


@dataclass(frozen=True)
class CheckContext:
    """Run-wide settings passed to every check."""

    seed: int = 0
    quick: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Claim:
    """One checkable statement.

    `source` names the seed file and the equation / theorem / table, e.g.
    ``"000_8dd0046228b94766.txt, Theorem 3, eq. 34"``. `expected` is the repository's
    current knowledge of the verdict and `expected_reason` says why. `kind` says whose
    statement it is (`Kind`); a ``reading`` claim names its interpretation in `reading`,
    which `evaluate` also puts into the message and the evidence. The ledger
    (`nacverify.ledger`) links each claim to the document's own words.

    `threshold` names a number, quantifier or strictness that is ours, not the document's, on
    which the verdict turns (a tolerance, a coverage fraction, "every row", strict rather than
    non-strict); such a claim reports where its verdict flips (the evidence scalar ``flips_at``),
    and its refutation never makes its ledger item an ``error`` finding (`nacverify.findings`).

    `outside` names evidence from outside the document that the claim rests on (the public code,
    another work, the other version's tables that this document does not print). Such a claim is
    context: a ledger item cites it and never tests it (`nacverify.findings.standard_problems`).
    """

    id: str
    source: str
    statement: str
    assumptions: str
    expected: Verdict
    expected_reason: str
    check: Callable[[CheckContext], Outcome]
    group: str = "misc"
    kind: Kind | None = None
    reading: str = ""
    threshold: str = ""
    outside: str = ""


def restated(claim: Claim, *, suffix: str, source: str, statement: str = "", reading: str | None = None) -> Claim:
    """`claim`'s check, as another sentence of a document states the same proposition in its own words.

    An accusation is counted where it is made (``reports/FINDINGS_STANDARD.md``, rule 5): each refuted
    claim is tested by one ledger item per document. A summary that says the same thing again (the
    abstract, the conclusion) is tested by a claim of its own, ``<claim.id>.<suffix>``, whose `source`
    quotes that sentence; the check, the expected verdict and any threshold stay `claim`'s.

    The check is the same function of the same run settings, so its outcome is computed once per
    process for `claim` and all its restatements (`evaluate`; shared work ``restated:<claim.id>``)."""
    _RESTATED_CHECKS.setdefault(id(claim.check), (claim.check, claim.id))
    return replace(claim, id=f"{claim.id}.{suffix}", source=source, statement=statement or claim.statement,
                   reading=claim.reading if reading is None else reading)


#: id(check) -> (check, the id of the first claim restated with it): the checks of restated claims (`restated`);
#: the check itself is kept, so that its id names it as long as the entry lives
_RESTATED_CHECKS: dict[int, tuple[Callable[["CheckContext"], "Outcome"], str]] = {}
#: the outcomes of restated checks under one set of run settings: (settings, id(check)) -> outcome
_OUTCOMES: dict[tuple, "Outcome"] = {}


def _check_once(claim: Claim, ctx: CheckContext) -> Outcome:
    """``claim.check(ctx)``; a restated check (the same function object for a claim and its restatements, a
    function of `ctx` alone) is computed once per process and run settings, and the outcomes of other
    settings are dropped. A check that fails is not kept (each claim then fails on its own)."""
    entry = _RESTATED_CHECKS.get(id(claim.check))
    if entry is None or entry[0] is not claim.check:
        return claim.check(ctx)
    settings = (ctx.seed, ctx.quick, repr(sorted(ctx.options.items())))
    for key in [k for k in _OUTCOMES if k[0] != settings]:
        del _OUTCOMES[key]
    return cached(_OUTCOMES, (settings, id(claim.check)), lambda: claim.check(ctx), f"restated:{entry[1]}")


@dataclass(frozen=True)
class Result:
    """A claim together with the outcome of its check."""

    claim: Claim
    outcome: Outcome
    seconds: float

    @property
    def verdict(self) -> Verdict:
        return self.outcome.verdict

    @property
    def as_expected(self) -> bool:
        return self.outcome.verdict == self.claim.expected


_REGISTRY: dict[str, Claim] = {}
_PROVIDERS: list[Callable[[], Iterable[Claim]]] = []
_LOADED: set[int] = set()
_REGISTERED_BY: dict[str, str] = {}  # claim id -> the module of the provider that registered it


_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")


def register(claim: Claim) -> Claim:
    """Add a claim to the registry; ids are unique and use letters, digits and . _ : -
    (they name HDF5 groups, so no '/')."""
    if not _ID.match(claim.id):
        raise ValueError(f"claim id {claim.id!r} must match {_ID.pattern}")
    check_kind(claim)
    if claim.id in _REGISTRY and _REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim id registered twice: {claim.id}")
    _REGISTRY[claim.id] = claim
    return claim


def check_kind(claim: Claim) -> None:
    """A claim must say whose statement it is; a ``reading`` names its interpretation, and
    only a reading does."""
    if claim.kind is None:
        raise ValueError(f"claim {claim.id} has no kind (one of {', '.join(k.value for k in Kind)})")
    kind = Kind(claim.kind)
    if (kind == Kind.READING) != bool(claim.reading.strip()):
        raise ValueError(f"claim {claim.id}: a 'reading' claim names its interpretation in `reading`, and only a reading does")


def add_provider(provider: Callable[[], Iterable[Claim]]) -> None:
    """Register a function that yields claims; it runs lazily on first registry use,
    so importing nacverify stays cheap."""
    _PROVIDERS.append(provider)


def registry() -> dict[str, Claim]:
    """All registered claims, by id (providers are loaded on first use)."""
    for provider in list(_PROVIDERS):
        if id(provider) not in _LOADED:
            _LOADED.add(id(provider))
            with float64():  # a provider may build its problems (arrays) up front: in float64, like the checks
                for claim in provider():
                    register(claim)
                    _REGISTERED_BY[claim.id] = provider.__module__
    return dict(sorted(_REGISTRY.items()))


def registered_by(claim_id: str) -> str:
    """The module whose provider registered the claim (``nacverify.symbolic.claims`` for every
    proof obligation; `nacverify.provenance.defined_in` names the proof module)."""
    registry()
    return _REGISTERED_BY.get(claim_id, "")


def get_claim(claim_id: str) -> Claim:
    claims = registry()
    if claim_id not in claims:
        raise BadInput(f"unknown claim id {claim_id!r} (see `nacverify list`)")
    return claims[claim_id]


def select(patterns: Iterable[str] | None = None, group: str | None = None) -> list[Claim]:
    """Claims whose id matches any of the glob `patterns` (all when None)."""
    claims = list(registry().values())
    if group is not None:
        claims = [c for c in claims if c.group == group]
    if patterns:
        pats = list(patterns)
        claims = [c for c in claims if any(fnmatch.fnmatchcase(c.id, p) for p in pats)]
    return claims


def evaluate(claim: Claim, ctx: CheckContext | None = None) -> Result:
    """Run one claim's check. An exception inside the check becomes the `error`
    verdict with the exception as message; `BadInput` and `KeyboardInterrupt`
    propagate, since they are the user's, not the check's. The check runs in float64
    (`nacverify.compute.precision.float64`) whatever the caller's JAX setting."""
    ctx = ctx or CheckContext()
    start = time.perf_counter()
    try:
        with float64(), running(claim.id):
            outcome = _check_once(claim, ctx)
    except (BadInput, Interrupted, KeyboardInterrupt):
        raise
    except Exception as exc:  # the check itself failed: that is a verdict, not a crash
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        outcome = Outcome(Verdict.ERROR, f"check failed: {tb}")
    if claim.reading:
        outcome = with_reading(outcome, claim.reading)
    return Result(claim, outcome, time.perf_counter() - start)


def with_reading(outcome: Outcome, reading: str) -> Outcome:
    """The outcome with its reading named in the message and in the evidence."""
    message = outcome.message if f"reading: {reading}" in outcome.message else f"{outcome.message} [reading: {reading}]"
    scalars = dict(outcome.evidence.scalars)
    scalars["reading"] = reading
    return Outcome(outcome.verdict, message, Evidence(outcome.evidence.arrays, scalars, outcome.evidence.witness))


def counts_by_kind(results: Iterable[Result]) -> dict[str, dict[str, int]]:
    """kind -> verdict -> count (kinds and verdicts in their declared order, zeros left out)."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        k = Kind(r.claim.kind).value if r.claim.kind else "none"
        out.setdefault(k, {})
        out[k][r.verdict.value] = out[k].get(r.verdict.value, 0) + 1
    order = [k.value for k in Kind] + ["none"]
    return {k: dict(sorted(out[k].items(), key=lambda kv: [v.value for v in Verdict].index(kv[0]))) for k in order if k in out}


def gate_failures(results: Iterable[Result]) -> list[Result]:
    """Results whose verdict differs from the expected verdict (either direction)."""
    return [r for r in results if not r.as_expected]
