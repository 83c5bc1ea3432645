"""Figures of a report's ``/convergence`` group (matplotlib, Agg): the convergence plot (error
against dt per method, one panel per problem, the fitted range marked) and the work-precision diagram
(error against wall time and against right-hand-side evaluations per solver)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .figures import _fixed, _plt, _save

__all__ = ["convergence_figure", "work_precision_figure"]


def convergence_figure(orders: Mapping[str, Mapping[str, Any]], path: str | os.PathLike, *, columns: int = 3) -> Path:
    """log-log error against dt, one panel per problem, each method a line; the points of the fit filled."""
    plt = _plt()
    names = [p for p, node in orders.items() if isinstance(node, Mapping)]
    rows = max(1, -(-len(names) // columns))
    fig, axes = _fixed(plt, rows, columns, (4.2 * columns, 3.3 * rows), bottom=0.6, left=0.7)
    for ax, name in zip(axes.flat, names):
        for method, node in orders[name].items():
            if not isinstance(node, Mapping) or "dt" not in node:
                continue
            dt, err = np.asarray(node["dt"], float), np.asarray(node["error"], float)
            used = np.asarray(node.get("used_in_fit", np.zeros(dt.shape)), bool)
            ok = np.isfinite(err) & (err > 0)
            order = node.get("observed_order")
            label = f"{method} ({order:.2f})" if isinstance(order, float) and np.isfinite(order) else method
            line, = ax.loglog(dt[ok], err[ok], marker="o", markersize=2.5, fillstyle="none", linewidth=0.9, label=label)
            ax.loglog(dt[ok & used], err[ok & used], "o", markersize=3.5, color=line.get_color())
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("dt", fontsize=8)
        ax.set_ylabel("error at T", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=5.5, loc="lower right")
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)
    return _save(fig, path)


def work_precision_figure(series: Mapping[str, Mapping[str, Any]], path: str | os.PathLike, *, title: str = "",
                          fixed: Mapping[str, Mapping[str, Any]] | None = None) -> Path:
    """Two panels: error against wall time, error against rhs evaluations; one line per solver over its
    tolerances, and the fixed-step methods of `fixed` (convergence nodes) at each dt (rhs panel)."""
    plt = _plt()
    fig, axes = _fixed(plt, 1, 2, (10.0, 3.8), bottom=0.6, left=0.75)
    for name, node in series.items():
        if not isinstance(node, Mapping) or "error" not in node:
            continue
        err = np.asarray(node["error"], float)
        for ax, key in zip(axes[0], ("seconds", "rhs")):
            x = np.asarray(node[key], float)
            ok = np.isfinite(x) & np.isfinite(err) & (x > 0) & (err > 0)
            if ok.any():
                ax.loglog(x[ok], err[ok], marker="o", markersize=3, linewidth=1.0, label=name)
    for method, node in (fixed or {}).items():
        if not isinstance(node, Mapping) or "dt" not in node:
            continue
        err, steps = np.asarray(node["error"], float), np.asarray(node["steps"], float)
        rhs = steps * float(node.get("rhs_per_step", np.nan))
        ok = np.isfinite(rhs) & np.isfinite(err) & (err > 0) & (err < 1)
        if ok.any():
            axes[0][1].loglog(rhs[ok], err[ok], linestyle="--", marker=".", markersize=3, linewidth=0.8, label=f"{method} (fixed dt)")
    for ax, xlabel in zip(axes[0], ("wall time per solve (s)", "right-hand-side evaluations")):
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel("error at T", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=6)
    if title:
        fig.suptitle(title, fontsize=9)
    return _save(fig, path)
