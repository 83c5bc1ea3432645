"""Synthetic reports with known contents for tests/test_report_html.py and test_report_diff.py.

The numbers are chosen so the right answers are known by construction: the frozen
error is 0.01 t^2 against a sharp bound 0.0125 t^2 (tightness exactly 0.8); the bench
scaling group has forward_ms = 3e-3 T^2 and memory_mb = 1e-2 T (exponents 2 and 1)."""

from __future__ import annotations

import numpy as np

from nacverify.claims import Claim, Evidence, Outcome, Verdict, evaluate
from nacverify.report import Report

T_GRID = np.linspace(0.0, 1.0, 101)
SCALING_T = np.array([256.0, 512.0, 1024.0, 2048.0, 4096.0])


def frozen_series() -> dict[str, np.ndarray]:
    t = T_GRID
    a_frozen = 1.0 - np.exp(-t)
    return {
        "t": t,
        "a_frozen": a_frozen,
        "a_varying": a_frozen + 0.01 * t**2,
        "abs_error": 0.01 * t**2,
        "bound_sharp": 0.0125 * t**2,
        "bound_thm3": 0.02 * t**2,
        "bound_bv": 0.05 * t,
        "solver_error": np.full_like(t, 1e-12),
    }


def _claim(cid, verdict, expected, message="msg", arrays=None, scalars=None, witness=None, statement="a statement"):
    outcome = Outcome(verdict, message, Evidence(arrays or {}, scalars or {}, witness or {}))
    return Claim(cid, "seed.txt, eq. 1", statement, "assumptions", expected, "why expected", lambda ctx, o=outcome: o, group="demo")


def sample_claims(overrides: dict[str, tuple[Verdict, Verdict]] | None = None, drop: tuple[str, ...] = ()) -> list[Claim]:
    """The sample's claims; `overrides` maps a claim id to (verdict, expected)."""
    s = frozen_series()
    grid = np.linspace(0.01, 3.0, 300)
    ltc_t = np.linspace(0.0, 2.0, 50)
    x = np.stack([np.tanh(ltc_t * k) for k in (0.5, 1.0, 2.0)], axis=1)
    specs = [
        ("demo.thm3.sharp.osc", Verdict.HOLDS, Verdict.HOLDS, "|eps|/bound <= 0.8",
         {k: s[k] for k in ("t", "a_varying", "a_frozen", "abs_error", "bound_sharp", "solver_error")},
         {"max_tightness": 0.8, "peak_t": 1.0, "min_slack": 0.0025, "members": 1}, {"phi0": 0.5}),
        ("demo.table2.row", Verdict.REFUTED, Verdict.REFUTED, "printed 7.8% > measured 1.9%", None,
         {"paper_mean_pct": 7.81, "measured_mean_pct": 1.87}, {}),
        ("demo.euler", Verdict.REFUTED, Verdict.REFUTED, "Euler leaves [m, M] from dt*omega = 1.01",
         {"dt_omega": grid, "fraction_leaving": np.where(grid > 1.0, 0.5, 0.0), "fraction_diverging": np.where(grid > 2.0, 1.0, 0.0)},
         {"invariance_breaks_at_dt_omega": 1.01, "divergence_from_dt_omega": 2.01}, {"dt": 1.01}),
        ("ltc.eq12.bounds.sigmoid", Verdict.HOLDS, Verdict.HOLDS, "states within bounds",
         {"t": ltc_t, "x": x, "lower": np.full_like(ltc_t, -1.0), "upper": np.full_like(ltc_t, 1.0)}, {"min_slack": 0.0}, {}),
        ("demo.symbolic", Verdict.HOLDS, Verdict.HOLDS, "identity simplifies to 0", None, {"terms": 3}, {}),
        ("ltc.eq12.bounds.tanh", Verdict.REFUTED, Verdict.REFUTED, "excursion beyond the bound in 40 of 50 networks",
         {"violation_ratio": np.linspace(-0.5, 1.5, 50)}, {"max_violation_ratio": 1.5}, {}),
        ("demo.order", Verdict.HOLDS, Verdict.HOLDS, "order 1",
         {"dt": 2.0 ** -np.arange(4, 9), "errors": np.outer([1.0, 2.0, 3.0], 2.0 ** -np.arange(4, 9))}, {"min_order": 1.0}, {}),
    ]
    claims = []
    for cid, verdict, expected, message, arrays, scalars, witness in specs:
        if cid in drop:
            continue
        verdict, expected = (overrides or {}).get(cid, (verdict, expected))
        claims.append(_claim(cid, verdict, expected, message, arrays, scalars, witness))
    return claims


def sample_report(*, overrides=None, drop=(), complete=True, scale=1.0, extra_claims=(), sections=True) -> Report:
    """A report holding every kind of content `report html` renders. `scale` multiplies
    the frozen section's rel_max_pct (a metric change for diff tests)."""
    results = [evaluate(c) for c in [*sample_claims(overrides, drop), *extra_claims]]
    report = Report(command="nacverify sample", seed=7, results=results, complete=complete, note="" if complete else "interrupted after 3 of 10 draws")
    if sections:
        report.sections = {
            "frozen_error/demo": {**frozen_series(), "description": "demo regime", "phi_variation_pct": 2.0, "omega_variation_pct": 1.0,
                                  "rel_mean_pct": 0.5, "rel_max_pct": 1.5 * scale, "num_steps": 40},
            "bench/scaling/exact": {"T": SCALING_T, "forward_ms": 3e-3 * SCALING_T**2, "memory_mb": 1e-2 * SCALING_T, "exponent_forward_ms": 2.0},
            "bench/paper/exact": {"median_ms": 4.25, "d_model": 64, "compile_seconds": 1.5},
            "misc/info": {"label": "hello"},
        }
    return report


def registry_report(flip: tuple[str, ...] = ()):
    """A report of every registered claim with its own texts (source, statement, assumptions,
    reason), verdict = expected except for the ids in `flip`, messages of a check's length, and
    arrays on every other claim: the shape and size of ``check --quick``'s report, without the
    minutes its checks take."""
    from pathlib import Path

    import nacverify.catalog  # noqa: F401  (registers every claim)
    from nacverify.claims import select
    from nacverify.report._io import ClaimRecord, ReportData

    records = {}
    t = np.linspace(0.0, 1.0, 400)
    for i, c in enumerate(select(None)):
        expected = c.expected.value
        verdict = ("refuted" if expected == "holds" else "holds") if c.id in flip else expected
        arrays = {"t": t, "y": np.sin(6 * t) * (i + 1), "bound": np.full_like(t, i + 2.0)} if i % 2 == 0 else {}
        scalars = {"max_tightness": 0.5 + i % 7 / 10, "members": 3} if i % 15 == 0 else {"min_slack": 0.01 * (i % 5 + 1)}
        message = f"{c.statement} [measured on 400 points; reason: {c.expected_reason}]"[:320]
        records[c.id] = ClaimRecord(c.id, verdict, expected, c.source, c.statement, c.assumptions, c.expected_reason, message, c.group,
                                    0.01 * i, scalars, {"dt": 0.125, "omega": float(i)}, arrays, str(c.kind or ""), c.reading or "", c.threshold or "")
    attrs = {"complete": True, "command": "nacverify check --quick", "seed": 0, "n_claims": len(records)}
    return ReportData(Path("check-quick.h5"), attrs, records, {})


def render_registry(out):
    """`registry_report` with one flipped claim of document 004, rendered into `out`: (index, data,
    the flipped claim, seconds)."""
    import time

    from nacverify.ledger import load_ledgers
    from nacverify.report.html import render_html

    flip = next(c for it in load_ledgers(["004"])["004"].items for c in it.claims)
    data = registry_report(flip=(flip,))
    start = time.perf_counter()
    index = render_html(data, out)
    return index, data, flip, time.perf_counter() - start
