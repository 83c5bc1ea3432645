"""Figures (matplotlib, Agg backend): the paper's Figure 5 analog for the frozen study."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .errors import EnvironmentProblem

__all__ = ["plot_frozen_error", "draw_frozen_column"]


def plot_frozen_error(runs: Sequence, path: str | os.PathLike) -> Path:
    """One column per regime run: a_varying and a_frozen over t (top), |eps| with the
    three bounds on a log scale (bottom)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(runs)
    fig, axes = plt.subplots(2, n, figsize=(4.2 * n, 6.4), squeeze=False, constrained_layout=True)
    for col, run in enumerate(runs):
        title = f"{run.regime.name}: phi {run.summary.phi_variation_pct[0]:.2f}%, omega {run.summary.omega_variation_pct[0]:.2f}%"
        draw_frozen_column(axes[0, col], axes[1, col], run.series(), title)
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(target, dpi=110)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write plot {target}: {exc.strerror or exc}") from exc
    finally:
        plt.close(fig)
    return target


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
