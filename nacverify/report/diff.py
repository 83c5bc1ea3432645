"""Compare two reports: verdict changes, regressions, and metric changes beyond a tolerance.

A claim is matched by its id. With OLD and NEW its record in each report, a
**regression** is (reports/SCHEMA.md, "Comparing reports"):

- R1: OLD as expected (``verdict == expected``) and NEW not as expected
  (NEW's verdict differs from NEW's expected verdict);
- R2: OLD verdict ``holds`` and NEW verdict anything else (even when NEW is as expected:
  what held and no longer holds asks for a look before the baseline is updated);
- R3: the claim is in OLD and missing from NEW (unless ``allow_missing``): a check that
  no longer runs no longer shows anything;
- R4 (the report as a whole): NEW is marked incomplete (an interrupted run).

Every other verdict or expected-verdict change is listed but is not a regression:
``improvement`` (OLD not as expected, NEW as expected), ``change`` (anything else),
``added`` (only in NEW).

Metrics are the numbers both reports hold at the same place: each claim's ``scalars``
and ``witness`` values, the attributes and datasets of every section. A number changed
when ``not math.isclose(old, new, rel_tol=rtol)`` (two NaNs, or two equal infinities,
are equal); a dataset changed when its shape differs or
``max|new - old| > rtol * max(max|old|, max|new|)`` (NaN where both are NaN is equal);
a string changed when it differs. Metric changes never make a regression. Names that
measure the machine rather than the mathematics (`TIMING_PATTERN`: seconds, rates,
speedups, memory) are left out unless ``timings=True``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import BadInput
from ._io import ReportData

__all__ = ["VerdictChange", "MetricChange", "ReportDiff", "diff_reports", "TIMING_PATTERN", "is_timing"]

TIMING_PATTERN = re.compile(
    r"(seconds|per_second|per_sec|speedup|throughput|latency|elapsed|wall|memory|bytes|rss|(^|_)(ms|us|ns|mb|gb|mib|gib)($|_)|_s$)",
    re.IGNORECASE,
)


def is_timing(path: str) -> bool:
    """True when the last component of `path` names a machine measurement."""
    return bool(TIMING_PATTERN.search(path.rsplit("/", 1)[-1]))


@dataclass(frozen=True)
class VerdictChange:
    """One claim whose verdict or expected verdict differs (None: absent from that report)."""

    claim: str
    old_verdict: str | None
    new_verdict: str | None
    old_expected: str | None
    new_expected: str | None
    kind: str  # regression | improvement | change | added | removed
    reason: str


@dataclass(frozen=True)
class MetricChange:
    """One number, string or dataset at `where` that differs beyond the tolerance.
    `rel` is the relative difference (NaN for strings and shape changes)."""

    where: str
    old: Any
    new: Any
    rel: float
    timing: bool


@dataclass(frozen=True)
class ReportDiff:
    old: ReportData
    new: ReportData
    rtol: float
    verdicts: list[VerdictChange]
    metrics: list[MetricChange]
    compared_metrics: int
    notes: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> list[VerdictChange]:
        return [v for v in self.verdicts if v.kind == "regression"]

    @property
    def new_incomplete(self) -> bool:
        return not self.new.complete

    @property
    def regressed(self) -> bool:
        """Whether CI should fail: any of R1-R4."""
        return bool(self.regressions) or self.new_incomplete


def _classify(claim: str, old, new, allow_missing: bool) -> VerdictChange | None:
    if old is None:
        return VerdictChange(claim, None, new.verdict, None, new.expected, "added", "only in NEW")
    if new is None:
        kind = "removed" if allow_missing else "regression"
        return VerdictChange(claim, old.verdict, None, old.expected, None, kind, "R3: missing from NEW" if kind == "regression" else "missing from NEW")
    if (old.verdict, old.expected) == (new.verdict, new.expected):
        return None
    old_ok, new_ok = old.verdict == old.expected, new.verdict == new.expected
    reasons = []
    if old_ok and not new_ok:
        reasons.append(f"R1: was as expected ({old.verdict}), now {new.verdict} where {new.expected} is expected")
    if old.verdict == "holds" and new.verdict != "holds":
        reasons.append(f"R2: held, now {new.verdict}")
    if reasons:
        return VerdictChange(claim, old.verdict, new.verdict, old.expected, new.expected, "regression", "; ".join(reasons))
    if not old_ok and new_ok:
        return VerdictChange(claim, old.verdict, new.verdict, old.expected, new.expected, "improvement", "now as expected")
    parts = []
    if old.verdict != new.verdict:
        parts.append(f"verdict {old.verdict} -> {new.verdict}")
    if old.expected != new.expected:
        parts.append(f"expected {old.expected} -> {new.expected}")
    return VerdictChange(claim, old.verdict, new.verdict, old.expected, new.expected, "change", ", ".join(parts))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _numbers_differ(a: float, b: float, rtol: float) -> tuple[bool, float]:
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return (math.isnan(a) != math.isnan(b)), float("nan")
    if math.isinf(a) or math.isinf(b):
        return a != b, float("nan") if a != b else 0.0
    scale = max(abs(a), abs(b))
    rel = abs(a - b) / scale if scale > 0 else 0.0
    return not math.isclose(a, b, rel_tol=rtol, abs_tol=0.0), rel


def _arrays_differ(a: np.ndarray, b: np.ndarray, rtol: float) -> tuple[bool, float]:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return True, float("nan")
    if a.dtype.kind not in "fciub" or b.dtype.kind not in "fciub":
        return (not np.array_equal(a, b)), float("nan")
    a, b = a.astype(np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64), b.astype(np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64)
    if a.size == 0:
        return False, 0.0
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if np.any(nan_a != nan_b):
        return True, float("nan")
    keep = ~nan_a
    a, b = a[keep], b[keep]
    inf = np.isinf(a) | np.isinf(b)
    if np.any(a[inf] != b[inf]):
        return True, float("nan")
    a, b = a[~inf], b[~inf]
    if a.size == 0:
        return False, 0.0
    scale = max(float(np.max(np.abs(a))), float(np.max(np.abs(b))))
    delta = float(np.max(np.abs(a - b)))
    rel = delta / scale if scale > 0 else 0.0
    return delta > rtol * scale, rel


def _compare(where: str, old: Any, new: Any, rtol: float) -> tuple[bool, float] | None:
    """(differs, rel) for comparable values, None when they are of different kinds."""
    if isinstance(old, np.ndarray) or isinstance(new, np.ndarray):
        if isinstance(old, np.ndarray) and isinstance(new, np.ndarray):
            return _arrays_differ(old, new, rtol)
        return True, float("nan")
    if _is_number(old) and _is_number(new):
        return _numbers_differ(old, new, rtol)
    return (old != new), float("nan")


def _leaves(tree: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, Any]]:
    for name, value in tree.items():
        path = f"{prefix}/{name}"
        if isinstance(value, Mapping):
            yield from _leaves(value, path)
        else:
            yield path, value


def _metric_pairs(old: ReportData, new: ReportData) -> Iterator[tuple[str, Any, Any]]:
    for cid in sorted(set(old.claims) & set(new.claims)):
        o, n = old.claims[cid], new.claims[cid]
        for part in ("scalars", "witness", "arrays"):
            od, nd = getattr(o, part), getattr(n, part)
            for key in sorted(set(od) & set(nd)):
                yield f"claims/{cid}/{part}/{key}", od[key], nd[key]
    old_leaves = dict(_leaves(old.sections, ""))
    new_leaves = dict(_leaves(new.sections, ""))
    for path in sorted(set(old_leaves) & set(new_leaves)):
        yield path.lstrip("/"), old_leaves[path], new_leaves[path]


def diff_reports(old: ReportData, new: ReportData, *, rtol: float = 1e-6, allow_missing: bool = False, timings: bool = False) -> ReportDiff:
    """Compare `new` against the baseline `old` (see the module docstring for the rules)."""
    if not (isinstance(rtol, (int, float)) and math.isfinite(rtol) and rtol >= 0):
        raise BadInput(f"--rtol must be a finite number >= 0, got {rtol}")
    verdicts = []
    for cid in sorted(set(old.claims) | set(new.claims)):
        change = _classify(cid, old.claims.get(cid), new.claims.get(cid), allow_missing)
        if change is not None:
            verdicts.append(change)
    metrics, compared = [], 0
    for where, o, n in _metric_pairs(old, new):
        timing = is_timing(where)
        if timing and not timings:
            continue
        result = _compare(where, o, n, rtol)
        compared += 1
        if result is not None and result[0]:
            metrics.append(MetricChange(where, o, n, result[1], timing))
    notes = []
    if not new.complete:
        notes.append(f"R4: NEW is marked incomplete ({new.attrs.get('note') or 'interrupted run'})")
    if not old.complete:
        notes.append(f"OLD is marked incomplete ({old.attrs.get('note') or 'interrupted run'})")
    if old.seed != new.seed:
        notes.append(f"seed differs: {old.seed_text} -> {new.seed_text}")
    for key in ("command", "tool_version", "device"):
        if old.attrs.get(key) != new.attrs.get(key):
            notes.append(f"{key} differs: {old.attrs.get(key)!r} -> {new.attrs.get(key)!r}")
    return ReportDiff(old, new, float(rtol), verdicts, metrics, compared, notes)
