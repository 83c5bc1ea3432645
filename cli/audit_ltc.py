"""`nacverify audit-ltc`: audit an LTC cell's export against document 002 (reports/LTC_AUDIT_FORMAT.md)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from nacverify.errors import BadInput

from ._exits import command_line
from ._finish import finish
from ._guard import guarded, report_stem
from ._options import FormatOption, JsonFlag, JunitXmlOption, Level, OutputFormat, QuietOption, VerboseOption, check_junit_xml, output_format, output_level
from ._output import progress_bar, screen
from ._results import print_summary, print_witnesses, verdict_table
from ._defaults import LTC_SOLVER_STEPS as DEFAULT_SOLVER_STEPS, LTC_SOLVER_TOL as DEFAULT_SOLVER_TOL

NCPS = "ncps export (--export-ncps)"
RUN = "how the run computed (declared when the file does not say)"


@guarded(report=lambda a: report_stem("audit-ltc", a.get("file") or a.get("export_ncps")))
def audit_ltc(
    file: Annotated[Optional[Path], typer.Argument(help="LTC-cell export (.npz or HDF5); see reports/LTC_AUDIT_FORMAT.md.")] = None,
    tol: Annotated[Optional[float], typer.Option("--tol", help="Relative per-step tolerance of the fused solver against an adaptive float64 solve. Document 002 gives none: without it the error is measured (with the unfolds a tolerance needs), not judged.")] = DEFAULT_SOLVER_TOL,
    solver_steps: Annotated[int, typer.Option("--solver-steps", help="Steps solved by diffrax (the longest intervals, then an even spread).")] = DEFAULT_SOLVER_STEPS,
    solver: Annotated[Optional[str], typer.Option("--solver", help="The update rule the run applied per input step: fused (default; the LTC authors' SemiImplicit), euler (Explicit) or rk4 (RungeKutta). Picks states_semi / states_explicit / states_rk4 in a file of the authors' cell that holds all three.", rich_help_panel=RUN)] = None,
    compute_dtype: Annotated[Optional[str], typer.Option("--compute-dtype", help="The dtype the run computed in (float16, bfloat16, float32, float64), when the file stores another (default: the stored dtype). The step tolerance follows it.", rich_help_panel=RUN)] = None,
    ltc_authors_run: Annotated[bool, typer.Option("--ltc-authors-run", help="Audit the run of the LTC authors' own TF1 cell shipped with nacverify (nacverify/data/reference/ltc_authors_tf1_run.npz; pick its solver with --solver).", rich_help_panel=RUN)] = False,
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one (holds).")] = True,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/audit-ltc-<file>-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out (and --export-ncps file).")] = False,
    export_ncps: Annotated[Optional[Path], typer.Option("--export-ncps", help="Write a seeded default ncps.torch LTC's export to this .npz/.h5 file, then audit it.", rich_help_panel=NCPS)] = None,
    units: Annotated[int, typer.Option(help="Units.", rich_help_panel=NCPS)] = 16,
    wiring: Annotated[str, typer.Option(help="Wiring: fc (FullyConnected) or autoncp (AutoNCP, units // 8 motor neurons).", rich_help_panel=NCPS)] = "fc",
    inputs: Annotated[int, typer.Option(help="Input features.", rich_help_panel=NCPS)] = 4,
    steps: Annotated[int, typer.Option(help="Sequence length.", rich_help_panel=NCPS)] = 100,
    elapsed: Annotated[Optional[float], typer.Option(help="Elapsed time of every step (default: irregular, log-uniform in [0.1, 10]).", rich_help_panel=NCPS)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the parameters and the input.", rich_help_panel=NCPS)] = 0,
    train_steps: Annotated[int, typer.Option(help="Adam steps of a toy training before the export (nacverify.audit.ltc.export.train_toy).", rich_help_panel=NCPS)] = 0,
    constraints: Annotated[str, typer.Option(help="Parameter constraints: implicit (ncps LTC's default softplus), apply (raw parameters, apply_weight_constraints() after every training step) or none (raw parameters, never clipped).", rich_help_panel=NCPS)] = "implicit",
    junit_xml: JunitXmlOption = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Audit an LTC cell: its steps against document 002's fused solver (eq. 8-9), positive conductances, eq. 13's state
    bounds, eq. 10's time constants, and the fused solver's error against an adaptive float64 solve. Prints a summary;
    -v adds every claim's row."""
    fmt = output_format(fmt, as_json)
    level = output_level(verbose, quiet)
    show = screen(fmt)
    if (file is not None) + (export_ncps is not None) + ltc_authors_run != 1:
        raise BadInput("give an LTC-cell export FILE, --export-ncps PATH or --ltc-authors-run (one of them)")
    if tol is not None and not (math.isfinite(tol) and tol > 0):  # before an --export-ncps is built
        raise BadInput(f"--tol must be > 0 and finite, got {tol}")
    if solver_steps < 1:
        raise BadInput(f"--solver-steps must be >= 1, got {solver_steps}")
    from nacverify.audit.ltc.authors import shipped_authors_run
    from nacverify.audit.ltc.claims import ltc_audit_claims
    from nacverify.audit.ltc.export import export_random_ncps
    from nacverify.audit.ltc.format import read_ltc_export
    from nacverify.claims import CheckContext, evaluate
    from nacverify.report import Report, check_writable, default_report_path

    if ltc_authors_run:
        file = shipped_authors_run()
    out_path = check_writable(out or default_report_path(f"audit-ltc-{(file or export_ncps).stem}"), overwrite=force)
    check_junit_xml(junit_xml, force=force, out=out_path)
    if export_ncps is not None:
        file, _ = export_random_ncps(export_ncps, units=units, inputs=inputs, steps=steps, seed=seed, elapsed=elapsed, wiring=wiring,
                                     train_steps=train_steps, constraints=constraints, overwrite=force)
        trained = f", trained {train_steps} steps" if train_steps else ""
        show.print(f"export: {file} (ncps.torch LTC, {wiring} wiring, {units} units, {inputs} inputs, {steps} steps, seed {seed}, "
                      f"constraints {constraints}{trained})", markup=False)
    export = read_ltc_export(file, solver=solver, compute_dtype=compute_dtype)
    report = Report(command=command_line(), seed=seed if export_ncps is not None else None)
    with progress_bar(export.T * export.B * export.N * export.N > 2_000_000) as progress:
        task = progress.add_task("audit-ltc", total=export.T + 2)
        claims = ltc_audit_claims(export, tol=tol, solver_steps=solver_steps, progress=lambda n: progress.advance(task, n), warm_up=True)
        results = []
        for claim in claims:
            results.append(evaluate(claim, CheckContext()))
            if claim.id == "audit.ltc.positivity":
                progress.advance(task, 1)
        progress.advance(task, 1)
    report.results = results
    report.sections["audit_ltc"] = {
        "file": str(file), "steps": export.T, "batch": export.B, "units": export.N, "inputs": export.M,
        "attributes": {k: v for k, v in export.attrs().items()}, "tolerance": "none (measured)" if tol is None else tol, "solver_steps": solver_steps,
        "ignored_entries": ", ".join(export.ignored) or "none",
    }
    how = (f"{export.solver} solver, {export.ode_unfolds} unfolds, "
           f"arithmetic {export.compute_dtype or str(export.states.dtype)}" + (f", {export.convention} convention" if export.convention != "ltc-cell" else "")
           if export.form == "biophysical" else f"{export.ode_unfolds} unfolds")
    title = f"LTC audit of {file} ({export.form} form, {export.T} steps, batch {export.B}, {export.N} units, {how})"

    def render() -> None:
        if export.ignored and level >= Level.normal:
            show.print(f"note: entries not in the format were ignored: {', '.join(export.ignored)}", markup=False)
        if level == Level.verbose:
            show.print(verdict_table(report.results, title=title))
            print_witnesses(report.results, show)
        print_summary(report.results, show, level, title=title)

    raise finish(report, out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=fmt, level=level, render=render)
