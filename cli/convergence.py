"""`nacverify convergence`: observed orders, work-precision and stability of every solver the documents
and their code use (issue 44; reports/CONVERGENCE.md)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from nacverify.errors import BadInput

from ._exits import command_line
from ._finish import finish, finish_interrupted
from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, QuietOption, VerboseOption, output_format, output_level, Level
from ._output import progress_bar, screen


def _choice(text: Optional[str], allowed, what: str) -> list[str] | None:
    if text is None:
        return None
    chosen = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in chosen if t not in allowed]
    if bad or not chosen:
        raise BadInput(f"unknown {what} {', '.join(bad) or repr(text)}; choose from {', '.join(allowed)}")
    return chosen


def _orders_table(rows) -> Table:
    table = Table(title="observed order: slope of log error vs log dt on the asymptotic range (error at T against the reference)")
    for name in ("problem", "method", "order", "expected", "dt range", "residual", "error dt=T/64", "rhs dt=T/64"):
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


def _stability_table(results) -> Table:
    table = Table(title="largest step: bounded / also free of spurious oscillation (linear bound where it applies)")
    for name in ("setting", "method", "bounded dt", "stable dt", "linear bound", "monotone bound"):
        table.add_column(name, overflow="fold")
    g = lambda x: "every dt tried" if x == float("inf") else ("-" if x != x else f"{x:.4g}")  # noqa: E731
    for r in results:
        table.add_row(r.setting, r.method, g(r.largest_bounded_dt), g(r.largest_stable_dt), g(r.linear_bound), g(r.linear_monotone_bound))
    return table


def _wp_table(series) -> Table:
    table = Table(title="work-precision (adaptive solvers): error at T / rhs evaluations / accepted steps, per tolerance")
    table.add_column("problem")
    table.add_column("solver")
    table.add_column("tol: error, rhs, steps", overflow="fold")
    for s in series:
        cells = "; ".join(f"{t:.0e}: {e:.1e}, {r:.0f}, {a:.0f}" for t, e, r, a in zip(s.tol, s.error, s.rhs, s.accepted))
        table.add_row(s.problem, f"{s.backend} {s.method}", cells)
    return table


@guarded(report=lambda a: "convergence")
def convergence(
    quick: Annotated[bool, typer.Option("--quick", help="A small ladder on a few problems (at most 30 s).")] = False,
    problem: Annotated[Optional[str], typer.Option("--problem", help="Comma-separated problems (default: all; see reports/CONVERGENCE.md).")] = None,
    method: Annotated[Optional[str], typer.Option("--method", help="Comma-separated fixed-step methods (default: all that apply).")] = None,
    phi: Annotated[str, typer.Option("--phi", help="phi(t) of the nac.custom problem.")] = "0.5 + 0.3*sin(3*t)",
    omega: Annotated[str, typer.Option("--omega", help="omega(t) of the nac.custom problem (> 0 on [0, 1]).")] = "1 + t**2",
    parts: Annotated[str, typer.Option("--parts", help="Which parts to run: orders, work-precision, stability (comma-separated).")] = "orders,work-precision,stability",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/convergence-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Observed order of every fixed-step method on every problem, work-precision of the adaptive solvers and the
    largest stable step of each fixed-step method (DiffEqDevTools' test_convergence and WorkPrecisionSet)."""
    from nacverify.convergence import problems as P
    from nacverify.convergence.methods import METHODS
    from nacverify.report import Report, check_writable, default_report_path

    fmt = output_format(fmt, as_json)
    level = output_level(verbose, quiet)
    show = screen(fmt)
    chosen_parts = _choice(parts, ("orders", "work-precision", "stability"), "part")
    pids = _choice(problem, P.PROBLEMS, "problem") or list(P.QUICK_PROBLEMS if quick else P.PROBLEMS)
    mids = _choice(method, tuple(METHODS), "method")
    problems = P.study_problems(pids, phi=phi, omega=omega)  # checks --phi/--omega before any work
    out_path = check_writable(out or default_report_path("convergence"), overwrite=force)
    report = Report(command=command_line())
    state = {"orders": [], "wp": [], "stability": [], "start": time.perf_counter()}
    try:
        _run(problems, mids, quick, chosen_parts, state, level)
    except KeyboardInterrupt:
        report.sections["convergence"] = _section(state, quick, complete=False)
        raise finish_interrupted(report, out_path, force=force, note="interrupted: the pairs that finished are in /convergence", fmt=fmt) from None
    report.sections["convergence"] = _section(state, quick, complete=True)
    if fmt == OutputFormat.json:  # the study's own document: the report's /convergence group with every array's values
        from ._finish import write_report_file
        from ._output import print_json

        path = write_report_file(report, out_path, force=force)
        print_json({"format": "nacverify.convergence/1", "file": str(path), "complete": True, "convergence": report.sections["convergence"]})
        raise typer.Exit(0)

    def render() -> None:
        from nacverify.convergence.sections import order_rows

        if state["orders"]:
            show.print(_orders_table(order_rows(state["orders"])))
        if state["stability"] and level >= Level.normal:
            show.print(_stability_table(state["stability"]))
        if state["wp"] and level >= Level.verbose:
            show.print(_wp_table(state["wp"]))
        show.print(f"convergence study: {time.perf_counter() - state['start']:.1f} s", markup=False)

    raise finish(report, out_path, force=force, gate=False, fmt=fmt, level=level, render=render)


#: the LTC problems whose diffrax reference is checked against mpmath (the others' Taylor solves cost 8-15 s each)
MP_CHECKED = ("ltc.sigmoid", "ltc.jumps.given", "ltc.jumps.hidden", "authors.cell")
#: the problems work-precision runs on (a smooth LTC and the stiff one; quick: a NAC regime)
WP_PROBLEMS, WP_QUICK = ("ltc.sigmoid", "ltc.stiff"), ("nac.oscillatory",)


def _run(problems, mids, quick: bool, parts: list[str], state: dict, level) -> None:
    from nacverify.convergence.problems import study_problem
    from nacverify.convergence.reference import reference
    from nacverify.convergence.stability import stability_study
    from nacverify.convergence.study import converge
    from nacverify.convergence.methods import methods_for
    from nacverify.convergence.work_precision import QUICK_TOLERANCES, TOLERANCES, work_precision

    pairs = sum(len(methods_for(sp, mids)) for sp in problems) if "orders" in parts else 0
    with progress_bar(level >= Level.normal) as progress:
        task = progress.add_task("convergence", total=pairs + (6 * len(WP_QUICK if quick else WP_PROBLEMS) if "work-precision" in parts else 0)
                                 + (24 if "stability" in parts else 0))
        refs: dict = {}
        if "orders" in parts:
            for sp in problems:
                same = sp.id.rsplit(".", 1)[0] if sp.id.endswith((".given", ".hidden")) else sp.id  # one problem, two ways of stepping it
                if same not in refs:
                    refs[same] = reference(sp, check=sp.id in MP_CHECKED and not quick)
                refs[sp.id] = ref = refs[same]
                for m in methods_for(sp, mids):
                    state["orders"].append(converge(sp, m, ref, quick=quick))
                    progress.advance(task, 1)
        state["seconds_orders"] = time.perf_counter() - state["start"]
        if "work-precision" in parts:
            for pid in (WP_QUICK if quick else WP_PROBLEMS):
                sp = study_problem(pid)
                ref = refs.get(pid) or reference(sp, check=pid in MP_CHECKED and not quick)
                for s in work_precision(sp, ref, tolerances=QUICK_TOLERANCES if quick else TOLERANCES):
                    state["wp"].append(s)
                    progress.advance(task, 1)
        state["seconds_work_precision"] = time.perf_counter() - state["start"] - state["seconds_orders"]
        if "stability" in parts:
            for r in stability_study(("linear",) if quick else ("linear", "stiff", "oscillatory"), mids):
                state["stability"].append(r)
                progress.advance(task, 1)


def _section(state: dict, quick: bool, *, complete: bool) -> dict:
    from nacverify.convergence.sections import orders_section
    from nacverify.convergence.work_precision import julia_status, series_node

    julia, why = julia_status()
    wp: dict = {}
    for s in state["wp"]:
        wp.setdefault(s.problem, {})[f"{s.backend}.{s.method}"] = series_node(s)
    stab: dict = {}
    for r in state["stability"]:
        stab.setdefault(r.setting, {})[r.method] = {"largest_bounded_dt": r.largest_bounded_dt, "largest_stable_dt": r.largest_stable_dt,
                                                    "linear_bound": r.linear_bound, "linear_monotone_bound": r.linear_monotone_bound}
    seconds = time.perf_counter() - state["start"]
    parts = {f"seconds_{k}": state[f"seconds_{k}"] for k in ("orders", "work_precision") if f"seconds_{k}" in state}
    if "seconds_work_precision" in parts:
        parts["seconds_stability"] = seconds - state["seconds_orders"] - state["seconds_work_precision"]
    budget = 30.0 if quick else 300.0
    return {"quick": quick, "complete": complete, "seconds": seconds, **parts, "budget_seconds": budget, "within_budget": seconds <= budget,
            "cpu_count": os.cpu_count() or 0, "load_average_1min": os.getloadavg()[0], "julia_available": julia,
            "julia_reason": why, "orders": orders_section(state["orders"]), "work_precision": wp, "stability": stab}
