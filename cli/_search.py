"""`frozen-error --search`: many-restart adversarial searches (nacverify.frozen._search) on the
executor `cli._cluster.cluster` chose, their claims and report sections, and their table."""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np
from rich.table import Table

from nacverify.claims import CheckContext, evaluate
from nacverify.frozen import BOUNDS, SearchResult, SolveOptions, run_search
from nacverify.frozen.claims import search_claim
from nacverify.report import Report

from ._output import progress_bar


def run_searches(names: list[str], n: int, seed: int, *, report: Report, executor: Executor | None, T: float, a0: float, opts: SolveOptions,
                 steps: int, chunk: int, keep: int, ctx: CheckContext, threads: int = 1, where: str = "serial") -> list[SearchResult]:
    """One search per named regime and applicable bound (the step family: BV only), its chunks on
    `executor` or, with none, on `threads` threads here (`where` names it in the report); each adds
    its claim to `report.results` and its section `frozen_error/<regime>/search/<bound>`."""
    rows: list[SearchResult] = []
    with progress_bar() as bar:
        for name in names:
            for bound in BOUNDS:
                if name == "step" and bound != "bv":
                    continue
                task = bar.add_task(f"search {name} {bound}", total=n)
                res = run_search(name, bound, n, seed, T=T, a0=a0, chunk=chunk, steps=steps, keep=keep, options=opts, executor=executor,
                                 progress=lambda done, total, task=task: bar.update(task, completed=done), threads=threads if executor is None else 1)
                report.results.append(evaluate(search_claim(res, opts), ctx))
                report.sections[f"frozen_error/{name}/search/{bound}"] = {
                    "restarts": n, "seed": seed, "chunk": chunk, "scheduler": where, "adam_steps": steps, "kept": keep, "T": T, "a0": a0,
                    "seconds": res.seconds, "best_start_surrogate": res.best_start, "kept_restarts": res.restarts.astype(np.int64),
                    "surrogate_tightness": res.values, "verified_tightness": res.verified_tightness,
                    **{f"kept_{k}": np.array([getattr(s, k) if getattr(s, k) is not None else np.nan for s in res.specs], float)
                       for k in ("phi0", "omega0", "phi_variation_pct", "omega_variation_pct", "shape")},
                }
                rows.append(res)
    return rows


def search_table(rows: list[SearchResult], title: str) -> Table:
    table = Table(title=title)
    for col in ("regime", "bound", "restarts", "best start", "best found", "verified (diffrax)", "restarts/s"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in rows:
        vt = r.verified_tightness
        table.add_row(r.name, r.bound, f"{r.n:,}", f"{r.best_start:.5g}", f"{r.values[0]:.5g}", f"{vt.max():.5g}", f"{r.n / r.seconds:,.0f}")
    return table
