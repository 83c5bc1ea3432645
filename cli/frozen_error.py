"""`nacverify frozen-error`: Theorem 3 and Table 2 of document 000, measured."""

from __future__ import annotations

import enum
import functools
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Optional

import typer
from rich.table import Table

from nacverify.errors import BadInput, Interrupted

from ._cluster import SchedulerOption, cluster
from ._exits import command_line
from ._finish import finish, finish_interrupted
from ._guard import guarded
from ._loading import lazy_names
from ._options import FormatOption, JsonFlag, JunitXmlOption, Level, OutputFormat, QuietOption, VerboseOption, check_junit_xml, output_format, output_level
from ._output import err_console, fitted, screen
from ._results import print_summary, print_witnesses, verdict_table

_load, __getattr__ = lazy_names(globals(), {"cached_run": "nacverify.frozen", "instance_claims": "nacverify.frozen.claims",
                                            "average_claim": "nacverify.frozen.claims"})

#: What --plot can write (matplotlib picks the format from the suffix).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


class RegimeChoice(str, enum.Enum):
    slow = "slow"
    fast = "fast"
    step = "step"
    oscillatory = "oscillatory"
    custom = "custom"
    all = "all"


def _regime_table(runs) -> Table:
    """Metrics as rows, regimes as columns (fits an 80-column terminal)."""
    table = Table(title="frozen-coefficient error (relative error: t > 0, denominator |a_varying|)")
    table.add_column("metric", overflow="fold")
    for run in runs:
        table.add_column(run.regime.name, justify="right", overflow="fold")
    rows = [
        ("phi variation %", lambda r: f"{r.summary.phi_variation_pct[0]:.3f}"),
        ("omega variation %", lambda r: f"{r.summary.omega_variation_pct[0]:.3f}"),
        ("mean rel. error %", lambda r: f"{r.summary.rel_mean_pct[0]:.4g}"),
        ("max rel. error %", lambda r: f"{r.summary.rel_max_pct[0]:.4g}"),
        ("variation bound %", lambda r: f"{r.summary.variation_bound_pct[0]:.4g}"),
    ]
    for bound, label in (("thm3", "Thm 3 tightness"), ("sharp", "sharp tightness"), ("bv", "BV tightness")):
        rows.append((label, lambda r, b=bound: f"{r.summary.tightness[b][0]:.3g} @ t={r.summary.peak_t[b][0]:.3g}" if r.regime.facts.lipschitz or b == "bv" else "n/a"))
    rows += [("max solver error", lambda r: f"{r.summary.max_solver_error[0]:.2g}"), ("diffrax steps", lambda r: str(r.num_steps))]
    for label, fn in rows:
        table.add_row(label, *[fn(run) for run in runs])
    return table


def _readings_table(readings: dict[str, dict[str, str]]) -> Table:
    """Table 2 row x reading of its phi/omega columns -> verdict (nacverify.frozen._readings)."""
    from nacverify.frozen._readings import READING_COLUMNS

    table = Table(title="Table 2 readings (verdict of each row under each reading of the phi/omega columns)")
    table.add_column("row", no_wrap=True)
    for col in READING_COLUMNS:
        table.add_column(col, overflow="fold")
    for row, cells in readings.items():
        table.add_row(row, *[cells[col] for col in READING_COLUMNS])
    return table


SEARCH = "Adversarial search (--search)"


@guarded(report=lambda a: f"frozen-error-{getattr(a.get('regime'), 'value', a.get('regime'))}")
def frozen_error(
    regime: Annotated[RegimeChoice, typer.Option("--regime", "-r", help="Coefficient regime (nacverify.regimes), or all four named ones.")] = RegimeChoice.all,
    T: Annotated[float, typer.Option("--T", "-T", help="Window length T (NAC's pseudo-time lies in (0, 1)).")] = 1.0,
    phi0: Annotated[float, typer.Option(help="phi(0): a sigmoid output in (0, 1) in NAC.")] = 0.5,
    omega0: Annotated[float, typer.Option(help="omega(0) > 0.")] = 1.0,
    a0: Annotated[float, typer.Option(help="Initial logit a(0) (NAC: 0).")] = 0.0,
    phi_variation: Annotated[Optional[float], typer.Option(help="100 max|phi - phi0|/phi0 in percent (default: Table 2 column).")] = None,
    omega_variation: Annotated[Optional[float], typer.Option(help="The same for omega, percent (default: Table 2 column).")] = None,
    rate: Annotated[Optional[float], typer.Option(help="fast: growth rate k of expm1(k t/T) (default: 5).")] = None,
    jump_at: Annotated[Optional[float], typer.Option(help="step: jump position as a fraction of T (default: 0.5).")] = None,
    cycles: Annotated[Optional[float], typer.Option(help="oscillatory: sine cycles in the window, >= 0.25 (default: 2).")] = None,
    phi: Annotated[Optional[str], typer.Option("--phi", help="custom: formula in t, e.g. '0.5 + 0.05*sin(6*t)'.")] = None,
    omega: Annotated[Optional[str], typer.Option("--omega", help="custom: formula in t, must stay > 0 on [0, T].")] = None,
    rtol: Annotated[float, typer.Option(help="Relative tolerance of the diffrax solve (Tsit5, PID).")] = 1e-10,
    atol: Annotated[float, typer.Option(help="Absolute tolerance.")] = 1e-12,
    points: Annotated[int, typer.Option(help="Points of the uniform saving grid on [0, T].")] = 1001,
    backend: Annotated[str, typer.Option("--backend", help="Reference solver of the single runs: diffrax, scipy, mpmath or julia (sweeps use diffrax); a missing one exits 3.")] = "diffrax",
    sweep: Annotated[int, typer.Option(help="Also solve N random draws per named regime (ranges in nacverify.regimes.SWEEP_RANGES).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the sweep's draws (>= 0).")] = 0,
    chunk: Annotated[int, typer.Option("--chunk", help="Sweep draws solved together as one system; part of the sweep's definition (the same seed and chunk give the same numbers anywhere). 0: the device's default, 2000 on a CPU; on an accelerator as many as fit in a quarter of its memory, at most 100,000 (the report states both).")] = 0,
    keep_draws: Annotated[bool, typer.Option("--keep-draws/--no-keep-draws", help="Store every draw's summaries and parameters in the report (compressed); without, only witnesses, statistics and histograms.")] = True,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Sweep worker processes on a local Dask cluster (1: in this process, on --threads).")] = 1,
    threads: Annotated[int, typer.Option("--threads", help="Sweep and search chunks run at once by threads of this process (--jobs 1, no --scheduler); 0: one per usable core; 1: serial. The numbers do not depend on it.")] = 0,
    scheduler: SchedulerOption = None,
    scipy_draws: Annotated[int, typer.Option(help="Draws also solved one by one with scipy solve_ivp for the speed ratio (0: skip).")] = 200,
    search: Annotated[int, typer.Option(help="Also run an adversarial search of N restarts per named regime and bound (restart i starts from sweep draw i of --seed), its chunks of restarts as tasks like a sweep's; its best points are re-solved with diffrax.", rich_help_panel=SEARCH)] = 0,
    search_steps: Annotated[int, typer.Option(help="Adam steps of each restart (--search).", rich_help_panel=SEARCH)] = 40,
    search_chunk: Annotated[int, typer.Option(help="Restarts per task (--search); part of the search's definition, like --chunk.", rich_help_panel=SEARCH)] = 1024,
    search_keep: Annotated[int, typer.Option(help="Best points re-solved with diffrax (--search).", rich_help_panel=SEARCH)] = 4,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/frozen-error-<regime>-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out (and --plot, --junit-xml).")] = False,
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one.")] = True,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="PNG (or .pdf, .svg): trajectories, error and bounds per regime (Figure 5 analog).")] = None,
    junit_xml: JunitXmlOption = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Measure the frozen-coefficient error against Theorem 3's bounds and Table 2 (document 000, B.1.2): the
    measurements per regime and a summary of the verdicts; -v adds every claim's row and witness."""
    a = SimpleNamespace(**locals())  # the options as given, for the helpers below
    a.fmt, a.level = output_format(fmt, as_json), output_level(verbose, quiet)
    a.show = screen(a.fmt)
    _check_options(a)
    plan = _plan(a)
    done = _run(a, plan)
    # the report is written before the tables and the plot are made: a failure there loses nothing
    raise finish(done.report, plan.out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=a.fmt, level=a.level,
                 render=functools.partial(_render, a, plan, done))


def _check_options(a: SimpleNamespace) -> None:
    """Refuse what the options alone rule out, before any work."""
    if a.plot is not None:  # before any work: a plot that cannot be written would lose the run
        if a.plot.is_dir():
            raise BadInput(f"--plot {a.plot} is a directory")
        if a.plot.suffix.lower() not in PLOT_SUFFIXES:
            raise BadInput(f"--plot {a.plot}: the file name must end in {', '.join(PLOT_SUFFIXES)}")
    if a.sweep < 0:
        raise BadInput(f"--sweep must be >= 0, got {a.sweep}")
    if a.sweep and a.regime == RegimeChoice.custom:
        raise BadInput("--sweep draws named regimes; it does not apply to --regime custom")
    if a.scipy_draws < 0:
        raise BadInput(f"--scipy-draws must be >= 0, got {a.scipy_draws}")
    if a.search < 0 or (a.search and min(a.search_steps, a.search_chunk, a.search_keep) < 1):
        raise BadInput(f"--search must be >= 0 and --search-steps, --search-chunk, --search-keep >= 1, got {a.search}, {a.search_steps}, "
                       f"{a.search_chunk}, {a.search_keep}")
    if a.search and a.regime == RegimeChoice.custom:
        raise BadInput("--search starts from the named regimes' draws; it does not apply to --regime custom")


def _plan(a: SimpleNamespace) -> SimpleNamespace:
    """What the run solves and where it writes: the regimes (every assumption validated), the solver
    options, the report's path, the sweep's chunk and threads and its plan; all refused (one line)
    before any work when they cannot be done."""
    from nacverify.frozen import SolveOptions, default_chunk, regime_specs
    from nacverify.report import check_writable, default_report_path
    from nacverify.solvers import require_backend

    from ._sweep import plan_sweeps, usable_cores

    _load()
    opts = SolveOptions(rtol=a.rtol, atol=a.atol, points=a.points, backend=a.backend)
    opts.check_memory()  # exit 3 before any work when the grid cannot fit
    if a.backend != "diffrax":
        if a.sweep:
            raise BadInput("--backend selects the solver of single runs; sweeps use diffrax (drop --sweep or --backend)")
        require_backend(a.backend)  # exit 3 with the reason before any work
    specs = regime_specs(a.regime.value, T=a.T, phi0=a.phi0, omega0=a.omega0, a0=a.a0, phi_variation_pct=a.phi_variation,
                         omega_variation_pct=a.omega_variation, rate=a.rate, jump_at=a.jump_at, cycles=a.cycles, phi=a.phi, omega=a.omega)
    for spec in specs:
        spec.build()  # validates every assumption before any solve
    out_path = check_writable(a.out or default_report_path(f"frozen-error-{a.regime.value}"), overwrite=a.force)
    check_junit_xml(a.junit_xml, force=a.force, out=out_path)
    if a.plot is not None:  # before any work: a plot that cannot be written would lose the run
        check_writable(a.plot, overwrite=a.force, option="--plot", what="plot")
        if a.plot.resolve() in {out_path.resolve(), *([a.junit_xml.resolve()] if a.junit_xml else [])}:
            raise BadInput(f"--plot {a.plot} is also the report or the JUnit XML; choose another --plot")
    if not 1 <= a.jobs <= 64:
        raise BadInput(f"--jobs must be between 1 and 64, got {a.jobs}")
    if not 0 <= a.threads <= 64:
        raise BadInput(f"--threads must be between 0 and 64, got {a.threads}")
    if a.threads > 1 and (a.jobs > 1 or a.scheduler):
        raise BadInput("--threads runs the sweep in this process; with --jobs > 1 or --scheduler the workers run it (drop --threads)")
    threads = 1 if a.jobs > 1 or a.scheduler else (a.threads or usable_cores())
    if a.chunk < 0:
        raise BadInput(f"--chunk must be >= 1 (or 0: the device's default), got {a.chunk}")
    chunk = a.chunk or default_chunk(a.points)
    sweep_specs, sweep_plan = ([], "")
    if a.sweep:  # refuse what cannot be stored before any work
        sweep_specs, sweep_plan = plan_sweeps([s.name for s in specs], a.sweep, a.seed, a.T, a.a0, opts, chunk, a.keep_draws, out_path)
    return SimpleNamespace(opts=opts, specs=specs, out_path=out_path, threads=threads, sweep_specs=sweep_specs, sweep_plan=sweep_plan)


def _run(a: SimpleNamespace, plan: SimpleNamespace) -> SimpleNamespace:
    """Solve every regime and evaluate its claims, print the measurements, then run the sweeps and
    searches; an interrupt anywhere still leaves the report, marked incomplete."""
    from nacverify.claims import CheckContext, evaluate
    from nacverify.frozen._readings import readings_table
    from nacverify.regimes import NAMED_REGIMES
    from nacverify.report import Report

    from ._search import run_searches
    from ._sweep import run_sweeps

    report = Report(command=command_line(), seed=a.seed if a.sweep else None)
    ctx = CheckContext(seed=a.seed)
    done = SimpleNamespace(report=report, runs=[], sweep_rows=[], search_rows=[])
    try:  # Ctrl-C / SIGTERM anywhere below still leaves a report, marked incomplete
        with ExitStack() as stack:  # a sweep's cluster first: an unreachable scheduler fails before any work is done
            executor = stack.enter_context(cluster(a.jobs, a.scheduler)) if a.sweep or a.search else None
            claims = [c for spec in plan.specs for c in instance_claims(spec, plan.opts)]
            if a.regime in (RegimeChoice.all,) or (len(plan.specs) == 1 and plan.specs[0].name in NAMED_REGIMES):
                claims.append(average_claim())
            # each regime's first bound claim solves it (cached_run), so its seconds include the solve
            report.results = [evaluate(c, ctx) for c in claims]
            done.runs += [cached_run(spec, plan.opts) for spec in plan.specs]
            for run in done.runs:
                report.sections[f"frozen_error/{run.regime.name}"] = _run_section(run, plan.opts)
            if a.level >= Level.normal:
                a.show.print(fitted(_regime_table(done.runs), a.show.width))
            readings = readings_table({r.claim.id: r.verdict.value for r in report.results},
                                      tuple(run.regime.name for run in done.runs if run.regime.name in NAMED_REGIMES))
            if readings:
                report.sections["frozen_error/table2_readings"] = {f"{row}.{col}": v for row, cells in readings.items() for col, v in cells.items() if v != "-"}
                if a.level == Level.verbose:
                    a.show.print(fitted(_readings_table(readings), a.show.width))
            where = a.scheduler or (f"local cluster of {a.jobs} workers" if a.jobs > 1 else "serial" if plan.threads <= 1 else f"{plan.threads} threads")
            if a.sweep:
                err_console.print(plan.sweep_plan, markup=False)
                done.sweep_rows = run_sweeps(plan.sweep_specs, report=report, out_path=plan.out_path, executor=executor, where=where,
                                             keep_draws=a.keep_draws, scipy_draws=a.scipy_draws, ctx=ctx, threads=plan.threads)
            if a.search:
                done.search_rows = run_searches([s.name for s in plan.specs], a.search, a.seed, report=report, executor=executor, T=a.T, a0=a.a0,
                                                opts=plan.opts, steps=a.search_steps, chunk=a.search_chunk, keep=a.search_keep, ctx=ctx,
                                                threads=plan.threads, where=where)
    except (Interrupted, KeyboardInterrupt) as exc:  # an interrupted sweep has added its finished chunks' section
        raise finish_interrupted(report, plan.out_path, force=a.force, note=str(exc) or f"interrupted after {len(report.results)} claims",
                                 junit_xml=a.junit_xml, fmt=a.fmt) from None
    return done


def _run_section(run, opts) -> dict:
    """The report's section of one regime's single run: its series, parameters, tolerances and summary."""
    import numpy as np

    return {
        **run.series(),
        "description": run.regime.description,
        "params": {k: np.asarray(v) for k, v in run.regime.params.items()},
        "T": run.regime.T,
        "rtol": opts.rtol,
        "atol": opts.atol,
        "num_steps": run.num_steps,
        "backend": opts.backend,
        "rel_mean_pct": float(run.summary.rel_mean_pct[0]),
        "rel_max_pct": float(run.summary.rel_max_pct[0]),
        "phi_variation_pct": float(run.summary.phi_variation_pct[0]),
        "omega_variation_pct": float(run.summary.omega_variation_pct[0]),
        "L_phi": float(run.regime.facts.L_phi[0]),
        "L_omega": float(run.regime.facts.L_omega[0]),
    }


def _render(a: SimpleNamespace, plan: SimpleNamespace, done: SimpleNamespace) -> None:
    """People's output once the report is written: the sweeps' and searches' tables, -v's claims and
    witnesses, the summary, and the plot (--plot)."""
    from ._search import search_table
    from ._sweep import sweep_table

    show, level, results = a.show, a.level, done.report.results
    if done.sweep_rows and level >= Level.normal:
        show.print(fitted(sweep_table(done.sweep_rows, f"sweeps ({a.sweep} draws per regime, seed {a.seed}, chunk {plan.sweep_specs[0].chunk}, "
                                                       f"rtol {a.rtol:g}, {a.points} saved points; tightness = max over draws of |eps|/bound)"), show.width))
    if done.search_rows and level >= Level.normal:
        show.print(fitted(search_table(done.search_rows, f"searches ({a.search} restarts per regime and bound, seed {a.seed}, chunk {a.search_chunk}, "
                                                         f"{a.search_steps} Adam steps; tightness = max over t of |eps|/bound)"), show.width))
    if level == Level.verbose:
        show.print(verdict_table(results, title="claims"))
        print_witnesses(results, show)
    print_summary(results, show, level)
    if a.plot is not None:
        from nacverify.report.figures import plot_frozen_error

        written = plot_frozen_error(done.runs, a.plot, overwrite=a.force)
        if level >= Level.normal:
            show.print(f"plot: {written}", markup=False)
