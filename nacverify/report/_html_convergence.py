"""The HTML page's convergence section (a report's ``/convergence`` group, `nacverify convergence`):
the order table, the convergence plot, a work-precision diagram per problem and the stability table."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._html_parts import _Page, _table
from ._io import ReportData

__all__ = ["convergence_section"]


def _g(x) -> str:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return "every dt tried" if x == float("inf") else ("-" if x != x else f"{x:.4g}")
    return str(x)


def convergence_section(page: _Page, data: ReportData) -> None:
    conv = data.sections.get("convergence")
    if not isinstance(conv, Mapping):
        return
    from . import convergence_figures as cf

    page.add('<h2 id="convergence">Convergence, work-precision and stability</h2>')
    page.add("<p>Observed order: slope of log(error at T) against log(dt) on the asymptotic range (filled points), against a "
             "diffrax Dopri8 reference checked by mpmath (reports/CONVERGENCE.md).</p>")
    orders = conv.get("orders") or {}
    rows = []
    for problem, methods in orders.items():
        for method, node in (methods or {}).items():
            if isinstance(node, Mapping):
                rows.append([problem, method, _g(node.get("observed_order")), _g(node.get("expected_order")),
                             f"{_g(node.get('dt_min'))}..{_g(node.get('dt_max'))}", _g(node.get("residual")), _g(node.get("error_at_default_step"))])
    if rows:
        page.add(_table(["problem", "method", "observed order", "expected", "dt range of the fit", "residual (log10)", "error at dt = T/64"], rows))
        page.draw("convergence", "convergence plot: error against dt per method", lambda path: cf.convergence_figure(orders, path))
    for problem, series in (conv.get("work_precision") or {}).items():
        if isinstance(series, Mapping):
            page.draw(f"work-precision-{problem}", f"work-precision diagram of {problem}",
                      lambda path, s=series, p=problem: cf.work_precision_figure(s, path, title=f"work-precision: {p}", fixed=orders.get(p)))
    stab = conv.get("stability") or {}
    srows = [[setting, method, _g(n.get("largest_bounded_dt")), _g(n.get("largest_stable_dt")), _g(n.get("linear_bound")), _g(n.get("linear_monotone_bound"))]
             for setting, methods in stab.items() if isinstance(methods, Mapping) for method, n in methods.items() if isinstance(n, Mapping)]
    if srows:
        page.add(_table(["setting", "method", "largest bounded dt", "largest oscillation-free dt", "linear bound", "monotone bound"], srows))
    if not conv.get("julia_available", True):
        page.add(f"<p class=\"small\">Julia's solvers: unavailable ({np.str_(conv.get('julia_reason', ''))[:300]})</p>")
