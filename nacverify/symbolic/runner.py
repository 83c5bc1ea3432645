"""Run obligations and shape their results for the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..claims import CheckContext, Result, evaluate
from .finding import Finding
from .obligation import Obligation
from .search import DEFAULT_SAMPLES

__all__ = ["ProofEntry", "prove", "report_sections"]


@dataclass(frozen=True)
class ProofEntry:
    obligation: Obligation
    result: Result
    finding: Finding | None  # None when the check itself failed (verdict `error`)


def prove(obligations: Sequence[Obligation], seed: int = 0, samples: int = DEFAULT_SAMPLES,
          progress: Callable[[Obligation], None] | None = None) -> list[ProofEntry]:
    """Check each obligation (timed; an exception becomes the `error` verdict)."""
    ctx = CheckContext(seed=seed, options={"samples": samples})
    entries = []
    for ob in obligations:
        result = evaluate(ob.claim(), ctx)
        try:
            finding = ob.run(seed, samples)
        except Exception:  # the check failed; `result` already says so
            finding = None
        entries.append(ProofEntry(ob, result, finding))
        if progress is not None:
            progress(ob)
    return entries


def report_sections(entries: Sequence[ProofEntry], seed: int, samples: int, wall_seconds: float | None = None) -> dict[str, dict]:
    """One group per obligation under /symbolic: statement, verdict, expected,
    symbols and assumptions, SymPy expressions (strings), counterexample. The
    /symbolic group itself records the seed, sample count, verdict counts and the
    run's wall time."""
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.result.verdict.value] = counts.get(e.result.verdict.value, 0) + 1
    sections: dict[str, dict] = {"symbolic": {"seed": seed, "samples": samples, "n_obligations": len(entries),
                                              "check_seconds": float(sum(e.result.seconds for e in entries)),
                                              "verdict_counts": counts}}
    if wall_seconds is not None:
        sections["symbolic"]["wall_seconds"] = float(wall_seconds)
    for e in entries:
        ob, f = e.obligation, e.finding
        group: dict = {
            "statement": ob.statement,
            "source": ob.source,
            "follows": ob.follows or "n/a",
            "verdict": e.result.verdict.value,
            "expected": ob.expect.value,
            "expected_reason": ob.reason,
            "message": e.result.outcome.message,
            "seconds": e.result.seconds,
            "symbols": dict(ob.symbols()),
        }
        if f is not None:
            group["methods"] = ", ".join(f.methods)
            group["expressions"] = dict(f.expressions)
            if f.counterexample:
                group["counterexample"] = {k: _attr(v) for k, v in f.counterexample.items()}
                group["counterexample_values"] = {k: _attr(v) for k, v in f.values.items()}
        sections[f"symbolic/{ob.id}"] = group
    return sections


def _attr(value):
    if isinstance(value, (int, float, str, bool)):
        return value
    return str(value)
