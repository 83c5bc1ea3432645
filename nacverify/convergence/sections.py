"""The study's results as the report's ``/convergence`` group (reports/SCHEMA.md, "convergence"):
plain mappings of attributes and arrays, written by `nacverify.report.write_report`."""

from __future__ import annotations

from typing import Any

import numpy as np

from .study import ConvergenceResult

__all__ = ["order_node", "orders_section", "order_rows"]


def order_node(r: ConvergenceResult) -> dict[str, Any]:
    f = r.fit
    return {
        "description": r.description, "expected_order": r.expected, "observed_order": f.order, "dt_min": f.dt_min, "dt_max": f.dt_max,
        "residual": f.residual, "within_0_1": r.within, "why_no_fit": f.why, "notes": r.notes, "rhs_per_step": r.rhs_per_step,
        "error_at_default_step": r.error_at_default, "compile_seconds": r.compile_seconds, "reference_error": r.reference_error,
        "reference_checked_by_mpmath": r.reference_checked, "floor": r.floor,
        "roundoff_floor_per_step_sqrt": 3.0,
        "dt": np.asarray(r.dts, float), "error": np.asarray(r.errors, float), "steps": np.asarray(r.steps, float),
        "seconds": np.asarray(r.seconds, float), "used_in_fit": np.asarray(f.used, np.int8),
    }


def orders_section(results: list[ConvergenceResult]) -> dict[str, dict[str, Any]]:
    """{problem: {method: node}}."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        out.setdefault(r.problem, {})[r.method] = order_node(r)
    return out


def order_rows(results: list[ConvergenceResult]) -> list[list[str]]:
    """Rows of the terminal table: problem, method, observed, expected, dt range, residual, error at
    the default step, RHS evaluations there."""
    rows = []
    for r in results:
        f = r.fit
        obs = f"{f.order:.3f}" if np.isfinite(f.order) else "-"
        span = f"{f.dt_min:.2g}..{f.dt_max:.2g}" if np.isfinite(f.dt_min) else (f.why[:28] if f.why else "-")
        res = f"{f.residual:.3f}" if np.isfinite(f.residual) else "-"
        cost = f"{r.rhs_at_default:.0f}" if np.isfinite(r.rhs_at_default) else "-"
        err = f"{r.error_at_default:.2g}" if np.isfinite(r.error_at_default) else "-"
        rows.append([r.problem, r.method, obs, str(r.expected), span, res, err, cost])
    return rows
