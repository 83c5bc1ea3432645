"""Figures of a report's evidence (matplotlib, Agg backend), written as PNG files.

Each function takes plain arrays (as read back by `nacverify.report.read_report`) and
writes one PNG; `nacverify.report.html` decides which figures a report calls for. `plot_frozen_error`
draws the paper's Figure 5 analog straight from frozen-error runs (``--plot``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ..errors import EnvironmentProblem

__all__ = [
    "plot_frozen_error",
    "draw_frozen_column",
    "fit_exponent",
    "frozen_figure",
    "tightness_bars",
    "tightness_histograms",
    "euler_figure",
    "series_figure",
    "scaling_figure",
    "histogram_figure",
]

VERDICT_COLORS = {"holds": "#1a7f37", "refuted": "#cf222e", "inapplicable": "#0969da", "inconclusive": "#bf8700", "error": "#8250df"}
BOUND_LABELS = {"thm3": "Thm 3 (eq. 34)", "sharp": "sharp t^2/2", "bv": "bounded variation"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: str | os.PathLike, *, dpi: int = 96, what: str = "figure", make_folder: bool = False, overwrite: bool | None = None) -> Path:
    """Write `fig` to `path` (the format from its suffix). With `overwrite` given, the write is
    atomic and an existing file is replaced only when `overwrite` is True (`nacverify.atomic`):
    a file the user named. Without, the file is written in place (a page's own figures)."""
    plt = _plt()
    target = Path(path)
    try:
        if overwrite is not None:
            from ..atomic import atomic_write

            fmt = target.suffix.lstrip(".").lower() or None
            return atomic_write(target, lambda tmp: fig.savefig(tmp, dpi=dpi, format=fmt), overwrite=overwrite, what=what)
        if make_folder:
            target.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(target, dpi=dpi)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {what} {target}: {exc.strerror or exc}") from exc
    finally:
        plt.close(fig)
    return target


def _fixed(plt, nrows: int, ncols: int, figsize: tuple[float, float], *, left: float = 0.8, right: float = 0.2, top: float = 0.45,
           bottom: float = 0.55, wspace: float = 0.32, hspace: float = 0.5):
    """`plt.subplots` with margins fixed in inches instead of constrained layout, which measures
    every tick label twice and made drawing about a third slower (the HTML page's budget)."""
    width, height = figsize
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize, squeeze=False)
    fig.subplots_adjust(left=left / width, right=1 - right / width, top=1 - top / height, bottom=bottom / height, wspace=wspace, hspace=hspace)
    return fig, axes


def fit_exponent(x: np.ndarray, y: np.ndarray) -> float | None:
    """Least-squares slope k of log y = k log x + c over the entries with x > 0, y > 0
    (both finite); None with fewer than two distinct x."""
    x, y = np.asarray(x, float).ravel(), np.asarray(y, float).ravel()
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if np.unique(x[keep]).size < 2:
        return None
    slope, _ = np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)
    return float(slope)


def frozen_figure(columns: Sequence[tuple[str, Mapping[str, np.ndarray]]], path: str | os.PathLike) -> Path:
    """The Figure 5 analog, one column per (title, series): trajectories, |eps| with the
    bounds (log), and the tightness |eps|/bound over t for each finite bound (1 = the bound
    is attained)."""
    plt = _plt()
    n = len(columns)
    fig, axes = _fixed(plt, 3, n, (4.0 * n, 8.4), left=0.7, hspace=0.42)
    for col, (title, s) in enumerate(columns):
        draw_frozen_column(axes[0, col], axes[1, col], s, title)
        ax = axes[2, col]
        t = np.asarray(s["t"])
        mask = t > 0
        drawn = False
        for bound, label in BOUND_LABELS.items():
            key = f"bound_{bound}"
            if key not in s:
                continue
            curve = np.asarray(s[key])[mask]
            if not np.all(np.isfinite(curve)):
                continue
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(curve > 0, np.asarray(s["abs_error"])[mask] / curve, np.nan)
            ax.plot(t[mask], ratio, label=label, lw=1.2)
            drawn = True
        ax.axhline(1.0, color="#cf222e", lw=0.8, ls="--", label="bound attained")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("t")
        ax.set_ylabel("|eps| / bound (tightness)")
        if not drawn:
            ax.text(0.5, 0.5, "no bound applies", transform=ax.transAxes, ha="center")
        ax.legend(fontsize=7)
    return _save(fig, path)


#: The colour of a bound on the tightness chart: red when the measured value exceeds it (violated), green within it.
BOUND_COLORS = {"violated": VERDICT_COLORS["refuted"], "within": VERDICT_COLORS["holds"]}


def tightness_bars(rows: Sequence[tuple], path: str | os.PathLike, *, label: str = "max |eps| / bound") -> Path:
    """Horizontal bars of each claim's largest measured value over its bound. The colour says what the
    bar shows: red beyond 1 (the bound is violated), green within it, whatever the claim expected
    (a claim may state that a bound is exceeded). Each label names the claim, its verdict and,
    separately, whether that verdict is the expected one (rows: (id, value, verdict[, expected]))."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9.0, 0.28 * len(rows) + 1.5), constrained_layout=True)
    y = np.arange(len(rows))
    values = [r[1] for r in rows]
    ax.barh(y, values, color=[BOUND_COLORS["violated" if v > 1.0 else "within"] for v in values])

    def name(row) -> str:
        expected = row[3] if len(row) > 3 else None
        mark = "" if expected is None else (", as expected" if row[2] == expected else f", expected {expected}")
        return f"{row[0]} ({row[2]}{mark})"

    ax.set_yticks(y, [name(r) for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1.0, color="k", lw=0.8, ls="--")
    for yi, v in zip(y, values):
        ax.text(v, yi, f" {v:.3g}" + (" violated" if v > 1.0 else ""), va="center", fontsize=7)
    ax.set_xlabel(f"{label}   (red: beyond the bound, violated; green: within it)")
    ax.set_xlim(0, max(1.1, 1.25 * max(values, default=1.0)))
    return _save(fig, path)


def tightness_histograms(sweeps: Mapping[str, Mapping[str, np.ndarray]], path: str | os.PathLike) -> Path:
    """One panel per sweep: histograms over the random draws of max_t |eps|/bound, per bound."""
    plt = _plt()
    n = len(sweeps)
    fig, axes = plt.subplots(1, n, figsize=(3.6 * n, 3.0), squeeze=False, constrained_layout=True)
    for ax, (name, bounds) in zip(axes[0], sweeps.items()):
        for bound, values in bounds.items():
            v = np.asarray(values, float)
            v = v[np.isfinite(v)]
            if v.size:
                ax.hist(v, bins=30, range=(0, max(1.0, float(v.max()))), histtype="step", lw=1.3, label=BOUND_LABELS.get(bound, bound))
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
        ax.set_title(f"{name}: {max((np.asarray(v).size for v in bounds.values()), default=0)} draws", fontsize=9)
        ax.set_xlabel("max_t |eps| / bound")
        ax.legend(fontsize=7)
    axes[0, 0].set_ylabel("draws")
    return _save(fig, path)


def euler_figure(grid: np.ndarray, curves: Mapping[str, np.ndarray], path: str | os.PathLike, *, breaks_at: float | None = None, title: str = "") -> Path:
    """Curves over dt*omega with the region where Euler leaves the invariant interval
    shaded (any curve whose name says leaving/overshoot/excursion is > 0), the line
    dt*omega = 1 (the invariance condition) and the measured break point."""
    plt = _plt()
    fig, axes = _fixed(plt, 1, 1, (8.0, 3.6), left=0.75, top=0.35)
    ax = axes[0, 0]
    grid = np.asarray(grid, float)
    leaving = None
    for name, curve in curves.items():
        c = np.asarray(curve, float)
        ax.plot(grid, c, lw=1.5, label=name)
        if any(w in name for w in ("leav", "overshoot", "excursion")):
            leaving = c > 0 if leaving is None else (leaving | (c > 0))
    if leaving is not None and leaving.any():
        ax.fill_between(grid, 0, 1, where=leaving, transform=ax.get_xaxis_transform(), color="#cf222e", alpha=0.12, label="Euler leaves [m, M]")
    ax.axvline(1.0, color="k", lw=0.8, ls="--", label="dt*omega = 1")
    if breaks_at is not None and math.isfinite(breaks_at):
        ax.axvline(breaks_at, color="#cf222e", lw=0.8, ls=":", label=f"first exit at {breaks_at:.3g}")
    ax.set_xlabel("dt * omega")
    ax.set_ylabel("fraction of draws")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return _save(fig, path)


def _bound_like(name: str) -> bool:
    return any(w in name.lower() for w in ("bound", "lower", "upper", "min", "max", "limit", "tau"))


def series_figure(axis_name: str, axis: np.ndarray, curves: Mapping[str, np.ndarray], path: str | os.PathLike, *, title: str = "") -> Path:
    """Generic evidence plot: every curve over the axis array; bound-like names dashed;
    a 2-D curve (axis, k) draws its first 12 columns; log scale when the curves are
    positive and span more than three decades."""
    plt = _plt()
    fig, axes = _fixed(plt, 1, 1, (8.0, 3.6), left=0.75, top=0.35)
    ax = axes[0, 0]
    x = np.asarray(axis, float)
    positive, nonnegative, lo, hi = True, True, math.inf, 0.0
    for name, curve in curves.items():
        c = np.asarray(curve, float)
        cols = c.reshape(c.shape[0], -1)[:, :12]
        style = "--" if _bound_like(name) else "-"
        colour = None
        for j in range(cols.shape[1]):  # the columns of one 2-D curve share its colour
            (line,) = ax.plot(x, cols[:, j], style, lw=1.2 if cols.shape[1] == 1 else 0.8, color=colour, label=name if j == 0 else None)
            colour = line.get_color()
        finite = cols[np.isfinite(cols)]
        if finite.size:
            positive &= bool(np.all(finite > 0))
            nonnegative &= bool(np.all(finite >= 0))
            if np.any(finite > 0):
                lo = min(lo, float(finite[finite > 0].min()))
            hi = max(hi, float(finite.max()))
    if hi > 0 and lo < math.inf and hi / lo > 1e2:
        if positive:
            ax.set_yscale("log")
        elif nonnegative:
            ax.set_yscale("symlog", linthresh=lo)  # zeros and a wide positive range
    finite_x = x[np.isfinite(x)]
    if finite_x.size and np.all(finite_x > 0) and finite_x.max() / finite_x.min() > (10 if axis_name in ("dt", "h", "tau") else 100):
        ax.set_xscale("log")  # step-size ladders, tau ranges
    ax.set_xlabel(axis_name)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    return _save(fig, path)


def scaling_figure(panels: Sequence[tuple[str, str, np.ndarray, Mapping[str, np.ndarray]]], path: str | os.PathLike) -> tuple[Path, list[dict[str, float | None]]]:
    """Log-log panels side by side, one per (title, axis name, x, curves), each curve's fitted
    exponent k (y ~ x^k) in its legend. Returns the path and the exponents per panel."""
    plt = _plt()
    n = len(panels)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.4 * cols, 3.4 * rows), squeeze=False, constrained_layout=True)
    fitted: list[dict[str, float | None]] = []
    for i, (title, axis_name, x, curves) in enumerate(panels):
        ax = axes[i // cols, i % cols]
        x = np.asarray(x, float)
        exponents: dict[str, float | None] = {}
        for name, curve in curves.items():
            y = np.asarray(curve, float)
            k = fit_exponent(x, y)
            exponents[name] = k
            keep = (x > 0) & (y > 0) & np.isfinite(y)
            ax.loglog(x[keep], y[keep], "o-", lw=1.2, ms=4, label=f"{name} ~ {axis_name}^{k:.2f}" if k is not None else name)
        fitted.append(exponents)
        ax.set_xlabel(axis_name)
        ax.set_title(title, fontsize=9)
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=7)
    for j in range(n, rows * cols):
        axes[j // cols, j % cols].axis("off")
    return _save(fig, path), fitted


def histogram_figure(arrays: Mapping[str, np.ndarray], path: str | os.PathLike, *, title: str = "") -> Path:
    """One histogram per 1-D array (values over random draws, e.g. violation ratios), side by
    side; the count of non-finite values is noted in the panel title."""
    plt = _plt()
    n = len(arrays)
    fig, axes = _fixed(plt, 1, n, (min(max(3.6 * n, 7.0), 13.0), 2.9), left=0.65, top=0.6, wspace=0.35)
    for ax, (name, values) in zip(axes[0], arrays.items()):
        v = np.asarray(values, float).ravel()
        finite = v[np.isfinite(v)]
        if finite.size:
            lo, hi = float(finite.min()), float(finite.max())
            ax.hist(finite, bins=30, range=(lo, hi) if hi > lo else (lo - 0.5, lo + 0.5), color="#0969da", alpha=0.8)
        extra = f", {v.size - finite.size} non-finite" if finite.size < v.size else ""
        ax.set_title(f"{name} ({v.size} values{extra})", fontsize=8)
        ax.set_ylabel("count")
    fig.suptitle(title if len(title) <= 110 else title[:107] + "...", fontsize=9)
    return _save(fig, path)


def plot_frozen_error(runs: Sequence, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """One column per regime run: a_varying and a_frozen over t (top), |eps| with the
    three bounds on a log scale (bottom). Written atomically; an existing file is replaced only
    with `overwrite` (`BadInput` otherwise)."""
    plt = _plt()
    n = len(runs)
    fig, axes = plt.subplots(2, n, figsize=(4.2 * n, 6.4), squeeze=False, constrained_layout=True)
    for col, run in enumerate(runs):
        title = f"{run.regime.name}: phi {run.summary.phi_variation_pct[0]:.2f}%, omega {run.summary.omega_variation_pct[0]:.2f}%"
        draw_frozen_column(axes[0, col], axes[1, col], run.series(), title)
    return _save(fig, path, dpi=110, what="plot", overwrite=overwrite)


def draw_frozen_column(top, bottom, s, title: str) -> None:
    """Draw one regime into two axes: a_varying and a_frozen over t (`top`), |eps| with
    the finite bounds and the solver error estimate on a log scale (`bottom`). `s` maps
    the names of a ``/frozen_error/<regime>`` report section to arrays."""
    t = s["t"]
    top.plot(t, s["a_varying"], label="a varying (diffrax)", lw=1.6)
    top.plot(t, s["a_frozen"], "--", label="a frozen (eq. 39)", lw=1.4)
    top.set_title(title)
    top.set_xlabel("t")
    top.set_ylabel("logit a(t)")
    top.legend(fontsize=8)
    mask = t > 0
    bottom.semilogy(t[mask], np.maximum(s["abs_error"][mask], 1e-300), label="|eps|", color="k", lw=1.6)
    for key, label, style in (("bound_thm3", "Thm 3 (eq. 34)", "-"), ("bound_sharp", "sharp t^2/2", "--"), ("bound_bv", "bounded variation", ":")):
        if key not in s:
            continue
        curve = s[key][mask]
        if np.all(np.isfinite(curve)):
            bottom.semilogy(t[mask], curve, style, label=label, lw=1.2)
    if "solver_error" in s:
        bottom.semilogy(t[mask], np.maximum(s["solver_error"][mask], 1e-300), color="0.6", lw=0.8, label="solver error estimate")
    bottom.set_xlabel("t")
    bottom.set_ylabel("|a varying - a frozen|")
    bottom.legend(fontsize=7)
