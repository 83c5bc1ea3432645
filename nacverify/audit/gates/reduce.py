"""Exact chunk-order reductions: the summaries an audit keeps of each chunk of pairs.

An audit claim reduces its arrays to counts, extremes and worst pairs. Each of these is
computed per chunk and merged in chunk order with `merge`, and the merge reproduces what
NumPy gives on the whole array bit for bit, whatever the chunking:

- a count (`int`) adds;
- `Max` / `Min` is ``np.max`` / ``np.min`` (a NaN anywhere wins, as NumPy propagates it);
- `Best` is ``np.argmax`` on a metric that is ``-inf`` where masked: the first NaN if there
  is one, else the first maximum; it carries the values of other arrays at that pair;
- `Failed` records a claim whose computation raised (the first failure wins).

Nothing is summed in floating point across pairs, so no result depends on the order in
which chunks finish, only on the chunk order in which they are merged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Max", "Min", "Best", "Failed", "best", "maximum", "minimum", "merge"]


@dataclass(frozen=True)
class Max:
    value: float


@dataclass(frozen=True)
class Min:
    value: float


@dataclass(frozen=True)
class Best:
    """``np.argmax`` of a metric over the pairs merged so far: its `value`, global flat
    `index`, and the values `at` that pair of the arrays it was given."""

    value: float
    index: int
    at: dict[str, float]


@dataclass(frozen=True)
class Failed:
    """A claim whose per-chunk computation raised: its message becomes the `error` verdict."""

    message: str


def maximum(values: np.ndarray) -> Max:
    return Max(float(np.maximum.reduce(values, axis=None)))


def minimum(values: np.ndarray) -> Min:
    return Min(float(np.minimum.reduce(values, axis=None)))


def best(metric: np.ndarray, offset: int, **at: np.ndarray) -> Best:
    """The argmax of `metric` (masked entries already ``-inf``) with `offset` added to its
    flat index, and the values of the `at` arrays (same shape as `metric`) there."""
    i = int(np.argmax(metric))
    return Best(float(metric.flat[i]), offset + i, {k: float(np.asarray(v).flat[i]) for k, v in at.items()})


def _later_wins_max(a: float, b: float) -> bool:
    """Whether b replaces a under NumPy's max/argmax: a NaN stays, a later NaN or a larger value wins."""
    return a == a and (b != b or b > a)


def merge(a: Any, b: Any) -> Any:
    """Merge the summary `b` of a later chunk into `a` of the earlier ones (module docstring)."""
    if a is None:
        return b
    if b is None:
        return a
    kind = type(a)
    if kind is int:
        return a + b
    if kind is dict:
        return {k: merge(a.get(k), b.get(k)) for k in dict.fromkeys([*a, *b])}
    if kind is Failed:
        return a
    if type(b) is Failed:
        return b
    if kind is Best or kind is Max:
        return b if _later_wins_max(a.value, b.value) else a
    if kind is Min:
        return b if a.value == a.value and (b.value != b.value or b.value < a.value) else a
    raise TypeError(f"cannot merge {kind.__name__}")
