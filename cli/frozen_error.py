"""`nacverify frozen-error`: Theorem 3 and Table 2 of document 000, measured."""

from __future__ import annotations

import enum
from contextlib import ExitStack
from pathlib import Path
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
    fmt = output_format(fmt, as_json)
    level = output_level(verbose, quiet)
    show = screen(fmt)
    if plot is not None:  # before any work: a plot that cannot be written would lose the run
        if plot.is_dir():
            raise BadInput(f"--plot {plot} is a directory")
        if plot.suffix.lower() not in PLOT_SUFFIXES:
            raise BadInput(f"--plot {plot}: the file name must end in {', '.join(PLOT_SUFFIXES)}")
    if sweep < 0:
        raise BadInput(f"--sweep must be >= 0, got {sweep}")
    if sweep and regime == RegimeChoice.custom:
        raise BadInput("--sweep draws named regimes; it does not apply to --regime custom")
    if scipy_draws < 0:
        raise BadInput(f"--scipy-draws must be >= 0, got {scipy_draws}")
    if search < 0 or (search and min(search_steps, search_chunk, search_keep) < 1):
        raise BadInput(f"--search must be >= 0 and --search-steps, --search-chunk, --search-keep >= 1, got {search}, {search_steps}, {search_chunk}, {search_keep}")
    if search and regime == RegimeChoice.custom:
        raise BadInput("--search starts from the named regimes' draws; it does not apply to --regime custom")
    import numpy as np

    from nacverify.claims import CheckContext, evaluate
    from nacverify.frozen import SolveOptions, default_chunk, regime_specs
    from nacverify.frozen._readings import readings_table

    _load()
    from nacverify.regimes import NAMED_REGIMES
    from nacverify.report import Report, check_writable, default_report_path
    from nacverify.solvers import require_backend

    from ._search import run_searches, search_table
    from ._sweep import plan_sweeps, run_sweeps, sweep_table, usable_cores

    opts = SolveOptions(rtol=rtol, atol=atol, points=points, backend=backend)
    opts.check_memory()  # exit 3 before any work when the grid cannot fit
    if backend != "diffrax":
        if sweep:
            raise BadInput("--backend selects the solver of single runs; sweeps use diffrax (drop --sweep or --backend)")
        require_backend(backend)  # exit 3 with the reason before any work
    specs = regime_specs(regime.value, T=T, phi0=phi0, omega0=omega0, a0=a0, phi_variation_pct=phi_variation, omega_variation_pct=omega_variation,
                         rate=rate, jump_at=jump_at, cycles=cycles, phi=phi, omega=omega)
    built = [s.build() for s in specs]  # validates every assumption before any solve
    out_path = check_writable(out or default_report_path(f"frozen-error-{regime.value}"), overwrite=force)
    check_junit_xml(junit_xml, force=force, out=out_path)
    if plot is not None:  # before any work: a plot that cannot be written would lose the run
        check_writable(plot, overwrite=force, option="--plot", what="plot")
        if plot.resolve() in {out_path.resolve(), *([junit_xml.resolve()] if junit_xml else [])}:
            raise BadInput(f"--plot {plot} is also the report or the JUnit XML; choose another --plot")
    del built
    if not 1 <= jobs <= 64:
        raise BadInput(f"--jobs must be between 1 and 64, got {jobs}")
    if not 0 <= threads <= 64:
        raise BadInput(f"--threads must be between 0 and 64, got {threads}")
    if threads > 1 and (jobs > 1 or scheduler):
        raise BadInput("--threads runs the sweep in this process; with --jobs > 1 or --scheduler the workers run it (drop --threads)")
    sweep_threads = 1 if jobs > 1 or scheduler else (threads or usable_cores())
    if chunk < 0:
        raise BadInput(f"--chunk must be >= 1 (or 0: the device's default), got {chunk}")
    chunk = chunk or default_chunk(points)
    if sweep:  # refuse what cannot be stored before any work
        sweep_specs, plan = plan_sweeps([s.name for s in specs], sweep, seed, T, a0, opts, chunk, keep_draws, out_path)

    report = Report(command=command_line(), seed=seed if sweep else None)
    ctx = CheckContext(seed=seed)
    runs: list = []
    sweep_rows: list = []
    search_rows: list = []
    try:  # Ctrl-C / SIGTERM anywhere below still leaves a report, marked incomplete
        with ExitStack() as stack:  # a sweep's cluster first: an unreachable scheduler fails before any work is done
            executor = stack.enter_context(cluster(jobs, scheduler)) if sweep or search else None
            claims = [c for spec in specs for c in instance_claims(spec, opts)]
            if regime in (RegimeChoice.all,) or (len(specs) == 1 and specs[0].name in NAMED_REGIMES):
                claims.append(average_claim())
            # each regime's first bound claim solves it (cached_run), so its seconds include the solve
            report.results = [evaluate(c, ctx) for c in claims]
            runs += [cached_run(spec, opts) for spec in specs]
            for run in runs:
                report.sections[f"frozen_error/{run.regime.name}"] = {
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

            if level >= Level.normal:
                show.print(fitted(_regime_table(runs), show.width))
            readings = readings_table({r.claim.id: r.verdict.value for r in report.results}, tuple(run.regime.name for run in runs if run.regime.name in NAMED_REGIMES))
            if readings:
                report.sections["frozen_error/table2_readings"] = {f"{row}.{col}": v for row, cells in readings.items() for col, v in cells.items() if v != "-"}
                if level == Level.verbose:
                    show.print(fitted(_readings_table(readings), show.width))
            where = scheduler or (f"local cluster of {jobs} workers" if jobs > 1 else "serial" if sweep_threads <= 1 else f"{sweep_threads} threads")
            if sweep:
                err_console.print(plan, markup=False)
                sweep_rows = run_sweeps(sweep_specs, report=report, out_path=out_path, executor=executor, where=where, keep_draws=keep_draws,
                                        scipy_draws=scipy_draws, ctx=ctx, threads=sweep_threads)
            if search:
                search_rows = run_searches([s.name for s in specs], search, seed, report=report, executor=executor, T=T, a0=a0, opts=opts,
                                           steps=search_steps, chunk=search_chunk, keep=search_keep, ctx=ctx, threads=sweep_threads, where=where)
    except (Interrupted, KeyboardInterrupt) as exc:  # an interrupted sweep has added its finished chunks' section
        raise finish_interrupted(report, out_path, force=force, note=str(exc) or f"interrupted after {len(report.results)} claims",
                                 junit_xml=junit_xml, fmt=fmt) from None

    def render() -> None:
        if sweep_rows and level >= Level.normal:
            show.print(fitted(sweep_table(sweep_rows, f"sweeps ({sweep} draws per regime, seed {seed}, chunk {sweep_specs[0].chunk}, rtol {rtol:g}, "
                                                         f"{points} saved points; tightness = max over draws of |eps|/bound)"), show.width))

        if search_rows and level >= Level.normal:
            show.print(fitted(search_table(search_rows, f"searches ({search} restarts per regime and bound, seed {seed}, chunk {search_chunk}, "
                                                           f"{search_steps} Adam steps; tightness = max over t of |eps|/bound)"), show.width))
        if level == Level.verbose:
            show.print(verdict_table(report.results, title="claims"))
            print_witnesses(report.results, show)
        print_summary(report.results, show, level)
        if plot is not None:
            from nacverify.report.figures import plot_frozen_error

            written = plot_frozen_error(runs, plot, overwrite=force)
            if level >= Level.normal:
                show.print(f"plot: {written}", markup=False)

    # the report is written before the tables and the plot are made: a failure there loses nothing
    raise finish(report, out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=fmt, level=level, render=render)
