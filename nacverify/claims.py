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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import BadInput, Interrupted

__all__ = [
    "Verdict",
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
    current knowledge of the verdict and `expected_reason` says why.
    """

    id: str
    source: str
    statement: str
    assumptions: str
    expected: Verdict
    expected_reason: str
    check: Callable[[CheckContext], Outcome]
    group: str = "misc"


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


_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")


def register(claim: Claim) -> Claim:
    """Add a claim to the registry; ids are unique and use letters, digits and . _ : -
    (they name HDF5 groups, so no '/')."""
    if not _ID.match(claim.id):
        raise ValueError(f"claim id {claim.id!r} must match {_ID.pattern}")
    if claim.id in _REGISTRY and _REGISTRY[claim.id] is not claim:
        raise ValueError(f"claim id registered twice: {claim.id}")
    _REGISTRY[claim.id] = claim
    return claim


def add_provider(provider: Callable[[], Iterable[Claim]]) -> None:
    """Register a function that yields claims; it runs lazily on first registry use,
    so importing nacverify stays cheap."""
    _PROVIDERS.append(provider)


def registry() -> dict[str, Claim]:
    """All registered claims, by id (providers are loaded on first use)."""
    for provider in list(_PROVIDERS):
        if id(provider) not in _LOADED:
            _LOADED.add(id(provider))
            for claim in provider():
                register(claim)
    return dict(sorted(_REGISTRY.items()))


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
    propagate, since they are the user's, not the check's."""
    ctx = ctx or CheckContext()
    start = time.perf_counter()
    try:
        outcome = claim.check(ctx)
    except (BadInput, Interrupted, KeyboardInterrupt):
        raise
    except Exception as exc:  # the check itself failed: that is a verdict, not a crash
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        outcome = Outcome(Verdict.ERROR, f"check failed: {tb}")
    return Result(claim, outcome, time.perf_counter() - start)


def gate_failures(results: Iterable[Result]) -> list[Result]:
    """Results whose verdict differs from the expected verdict (either direction)."""
    return [r for r in results if not r.as_expected]
