"""Streaming reductions of a sweep: everything the verdicts need, merged chunk by chunk.

A sweep of 10^8 draws cannot keep its per-draw summaries in memory, and its verdicts do not
need them: `bound_outcome` and `variation_bound_outcome` (`_verdicts`) read only counts,
extrema and the draws attaining them. `SweepStats.of` reduces one chunk's `MemberSummary`;
`SweepStats.merge` combines two reductions. Merging is exact (integer counts, min/max,
argmax) and independent of the order of the chunks: the draw attaining a maximum is the
first by global index among equal values, and NaN counts as the largest value, as
`numpy.argmax` does over the whole array. So a sweep reduced chunk by chunk, in any order,
gives the numbers and witnesses of one reduction over all its draws.

Histograms have fixed bins (`HISTOGRAMS`), so merging them is an exact sum of counts; a
quantile read from a histogram is known to within one bin (`Histogram.quantile` returns
the bin's edges: the exact quantile lies between them). Maxima are exact (the witnesses).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._bounds import BOUNDS
from ._solve import MemberSummary

__all__ = ["TOP", "HISTOGRAMS", "Extreme", "BoundStats", "VariationStats", "Histogram", "SweepStats"]

#: Draws of largest tightness kept per bound (the adversarial search starts from them).
TOP = 8

#: Fixed-bin histograms over the draws: name -> (low, high, bins). Bin width = (high - low) / bins.
HISTOGRAMS: dict[str, tuple[float, float, int]] = {
    **{f"tightness_{b}": (0.0, 2.0, 4000) for b in BOUNDS},  # max_t |eps| / bound, width 5e-4
    "variation_ratio": (0.0, 2.0, 4000),  # rel_max_pct / variation_bound_pct on applicable draws
    "rel_max_pct": (0.0, 100.0, 10000),  # width 0.01 percentage points
}


def _param_values(params: dict[str, np.ndarray], i: int) -> dict[str, float | str]:
    return {k: (float(v[i]) if np.asarray(v).dtype.kind in "fi" else str(v[i])) for k, v in params.items()}


@dataclass(frozen=True)
class Extreme:
    """The draw attaining the largest `value`: its global index, its parameters and
    related numbers (`extra`, e.g. the time of the peak)."""

    value: float
    index: int
    params: dict[str, float | str] = field(default_factory=dict)
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def key(self) -> tuple[bool, float, int]:
        """Larger is better: NaN first (as numpy.argmax), then the value, then the lower index."""
        nan = math.isnan(self.value)
        return (nan, 0.0 if nan else self.value, -self.index)

    @staticmethod
    def best(a: "Extreme | None", b: "Extreme | None") -> "Extreme | None":
        if a is None or b is None:
            return a if b is None else b
        return a if a.key >= b.key else b


def _order(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Positions sorted by `Extreme.key`, best first (NaN, then descending value, then index)."""
    nan = np.isnan(values)
    return np.lexsort((index, -np.where(nan, 0.0, values), ~nan))


def _extreme(values: np.ndarray, params: dict[str, np.ndarray], start: int, extra: dict[str, np.ndarray] | None = None,
             where: np.ndarray | None = None) -> Extreme | None:
    pos = np.arange(values.shape[0]) if where is None else np.flatnonzero(where)
    if pos.size == 0:
        return None
    i = int(pos[np.argmax(values[pos])])
    return Extreme(float(values[i]), start + i, _param_values(params, i), {k: float(v[i]) for k, v in (extra or {}).items()})


def _nanmin(a: float, b: float) -> float:
    return float(np.minimum(a, b))  # NaN propagates, as numpy.min over all draws


def _nanmax(a: float, b: float) -> float:
    return float(np.maximum(a, b))


@dataclass(frozen=True)
class BoundStats:
    """One bound over the draws: holds when every draw's slack (bound - |eps| - margin) is
    >= 0; a draw is refuted when |eps| - margin exceeds the bound."""

    tightness: Extreme  # largest max_t |eps|/bound (extra: peak_t)
    excess: Extreme  # largest max_t (|eps| - margin - bound)
    min_slack: float
    refuted: int  # draws with excess > 0
    undecided: int  # draws neither refuted nor with slack >= 0
    top: tuple[Extreme, ...]  # the TOP largest tightness, best first

    def merge(self, other: "BoundStats") -> "BoundStats":
        pool = sorted(self.top + other.top, key=lambda e: e.key, reverse=True)[:TOP]
        return BoundStats(Extreme.best(self.tightness, other.tightness), Extreme.best(self.excess, other.excess),
                          _nanmin(self.min_slack, other.min_slack), self.refuted + other.refuted, self.undecided + other.undecided, tuple(pool))


@dataclass(frozen=True)
class VariationStats:
    """The variation bound on the relative error over the applicable draws (a0 = 0, phi > 0)."""

    applicable: int
    ratio: Extreme | None  # largest rel_max_pct / variation_bound_pct (extra: rel_max_pct, bound_pct)
    exceeded: int  # applicable draws with rel_max - margin > bound
    min_slack: float  # min over applicable draws of bound - rel_max - margin (inf when none)

    def merge(self, other: "VariationStats") -> "VariationStats":
        return VariationStats(self.applicable + other.applicable, Extreme.best(self.ratio, other.ratio), self.exceeded + other.exceeded,
                              _nanmin(self.min_slack, other.min_slack))


@dataclass(frozen=True)
class Histogram:
    """Counts in fixed bins [low, high) plus the draws below, above and NaN."""

    low: float
    high: float
    counts: np.ndarray  # int64 (bins,)
    below: int
    above: int
    nan: int

    @property
    def width(self) -> float:
        return (self.high - self.low) / self.counts.shape[0]

    @property
    def total(self) -> int:
        return int(self.counts.sum()) + self.below + self.above + self.nan

    @staticmethod
    def of(values: np.ndarray, low: float, high: float, bins: int) -> "Histogram":
        nan = np.isnan(values)
        v = values[~nan]
        below, above = int(np.sum(v < low)), int(np.sum(v >= high))
        inside = v[(v >= low) & (v < high)]
        # bin j holds low + j w <= v < low + (j + 1) w; the floor can land one off at an edge: clip
        idx = np.clip(((inside - low) * (bins / (high - low))).astype(np.int64), 0, bins - 1)
        return Histogram(low, high, np.bincount(idx, minlength=bins).astype(np.int64), below, above, int(nan.sum()))

    def merge(self, other: "Histogram") -> "Histogram":
        return Histogram(self.low, self.high, self.counts + other.counts, self.below + other.below, self.above + other.above, self.nan + other.nan)

    def quantile(self, q: float) -> tuple[float, float]:
        """Edges (lo, hi) of the bin holding the q-quantile of the non-NaN draws (the smallest
        value v with at least a fraction q of the draws <= v): the exact quantile lies in
        [lo, hi], an interval of one bin width (-inf / inf outside [low, high))."""
        n = self.total - self.nan
        if n == 0:
            return (math.nan, math.nan)
        need = max(1, math.ceil(q * n))
        if need <= self.below:
            return (-math.inf, self.low)
        cum = self.below + np.cumsum(self.counts)
        j = int(np.searchsorted(cum, need))
        if j >= self.counts.shape[0]:
            return (self.high, math.inf)
        return (self.low + j * self.width, self.low + (j + 1) * self.width)


@dataclass(frozen=True)
class SweepStats:
    """The reductions of a run or sweep that its verdicts and report need."""

    draws: int
    bounds: dict[str, BoundStats]
    variation: VariationStats
    max_solver_error: float
    histograms: dict[str, Histogram]

    @staticmethod
    def of(summary: MemberSummary, params: dict[str, np.ndarray], start: int = 0) -> "SweepStats":
        """Reduce the draws of one summary; draw i has global index start + i."""
        n = int(summary.rel_max_pct.shape[0])
        index = start + np.arange(n)
        bounds = {}
        for b in BOUNDS:
            tight, excess, slack = summary.tightness[b], summary.max_excess[b], summary.min_slack[b]
            refuted = excess > 0
            top = [Extreme(float(tight[i]), start + int(i), _param_values(params, int(i)), {"peak_t": float(summary.peak_t[b][i])})
                   for i in _order(tight, index)[:TOP]]
            bounds[b] = BoundStats(
                tightness=_extreme(tight, params, start, {"peak_t": summary.peak_t[b]}),
                excess=_extreme(excess, params, start),
                min_slack=float(np.min(slack)),
                refuted=int(refuted.sum()),
                undecided=int((~refuted & ~(slack >= 0)).sum()),
                top=tuple(top),
            )
        app = summary.variation_applicable
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = summary.rel_max_pct / summary.variation_bound_pct
        excess = summary.rel_max_pct - summary.rel_margin_pct - summary.variation_bound_pct
        slack = summary.variation_bound_pct - summary.rel_max_pct - summary.rel_margin_pct
        variation = VariationStats(
            applicable=int(app.sum()),
            ratio=_extreme(ratio, params, start, {"rel_max_pct": summary.rel_max_pct, "bound_pct": summary.variation_bound_pct}, where=app),
            exceeded=int((app & (excess > 0)).sum()),
            min_slack=float(np.min(slack[app])) if app.any() else math.inf,
        )
        hist_values = {**{f"tightness_{b}": summary.tightness[b] for b in BOUNDS}, "variation_ratio": ratio[app], "rel_max_pct": summary.rel_max_pct}
        histograms = {k: Histogram.of(hist_values[k], *HISTOGRAMS[k]) for k in HISTOGRAMS}
        return SweepStats(n, bounds, variation, float(np.max(summary.max_solver_error)), histograms)

    def merge(self, other: "SweepStats") -> "SweepStats":
        return SweepStats(
            self.draws + other.draws,
            {b: self.bounds[b].merge(other.bounds[b]) for b in self.bounds},
            self.variation.merge(other.variation),
            _nanmax(self.max_solver_error, other.max_solver_error),
            {k: self.histograms[k].merge(other.histograms[k]) for k in self.histograms},
        )
