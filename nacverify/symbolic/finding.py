"""What one symbolic check returns: a verdict, a message, the SymPy expressions it
worked on (as strings, for the report) and, when refuted, a concrete counterexample.

A `Finding` is the symbolic twin of `nacverify.claims.Outcome`; `to_outcome` turns it
into one (the counterexample becomes the evidence witness)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..claims import Evidence, Outcome, Verdict

__all__ = ["Finding", "merge_findings"]


@dataclass(frozen=True)
class Finding:
    """Result of a symbolic check.

    `counterexample` maps symbol names to the values of a point inside the stated
    assumptions where the statement fails; `values` holds the quantities evaluated
    there (both sides, the residual). A `refuted` finding always carries a
    non-empty counterexample. `expressions` maps names to SymPy expressions rendered
    as strings; `methods` names the techniques that decided it."""

    verdict: Verdict
    message: str
    counterexample: Mapping[str, Any] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)
    expressions: Mapping[str, str] = field(default_factory=dict)
    methods: tuple[str, ...] = ()
    scalars: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict == Verdict.REFUTED and not self.counterexample:
            raise ValueError("a refuted finding needs a concrete counterexample")

    def to_outcome(self) -> Outcome:
        scalars: dict[str, Any] = {"methods": ", ".join(self.methods)}
        scalars.update(self.scalars)
        witness = {**{k: _plain(v) for k, v in self.counterexample.items()}, **{f"value:{k}": _plain(v) for k, v in self.values.items()}}
        return Outcome(self.verdict, self.message, Evidence(scalars=scalars, witness=witness))


def _plain(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


_ORDER = {Verdict.ERROR: 0, Verdict.REFUTED: 1, Verdict.INCONCLUSIVE: 2, Verdict.INAPPLICABLE: 3, Verdict.HOLDS: 4}


def merge_findings(parts: list[tuple[str, Finding]]) -> Finding:
    """Conjunction of named findings: refuted when any part is refuted (its
    counterexample is kept), inconclusive when a part is, holds when all hold."""
    worst_name, worst = min(parts, key=lambda p: _ORDER[p[1].verdict])
    expressions: dict[str, str] = {}
    methods: list[str] = []
    scalars: dict[str, Any] = {}
    for name, part in parts:
        expressions.update({f"{name}.{k}": v for k, v in part.expressions.items()})
        methods += [m for m in part.methods if m not in methods]
        scalars.update({f"{name}.{k}": v for k, v in part.scalars.items()})
    if worst.verdict == Verdict.HOLDS:
        message = "; ".join(f"{name}: {part.message}" for name, part in parts)
    else:
        message = f"{worst_name}: {worst.message}"
    return Finding(worst.verdict, message, worst.counterexample, worst.values, expressions, tuple(methods), scalars)
