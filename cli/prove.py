"""`nacverify prove`: check the SymPy proof obligations of proofs/ (nacverify.proofs)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput

from ._exits import command_line
from ._finish import finish, finish_interrupted
from ._guard import guarded
from ._loading import lazy_names
from ._options import FormatOption, JsonFlag, JunitXmlOption, Level, OutputFormat, QuietOption, VerboseOption, check_junit_xml, output_format, output_level
from ._output import console, progress_bar, screen
from ._results import print_summary, verdict_table, verdict_text
from ._defaults import PROOF_SAMPLES as DEFAULT_SAMPLES

_load, __getattr__ = lazy_names(globals(), {"select_obligations": "nacverify.symbolic"})


def _listing(obligations) -> Table:
    table = Table(title=f"{len(obligations)} proof obligations")
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("source", overflow="fold")
    table.add_column("expected", no_wrap=True)
    table.add_column("statement", overflow="fold")
    for ob in obligations:
        table.add_row(escape(ob.id), escape(ob.source), ob.expect.value, escape(ob.statement))
    return table


def _fmt(value) -> str:
    return f"{value:.10g}" if isinstance(value, float) else str(value)


def _details(entries, show=console) -> None:
    """Message and counterexample of every refuted obligation, and of any verdict other than expected."""
    from nacverify.claims import Verdict

    console = show
    for e in entries:
        if e.result.verdict != Verdict.REFUTED and e.result.as_expected:
            continue
        console.print(f"\n[bold]{escape(e.obligation.id)}[/] ({verdict_text(e.result.verdict, e.result.as_expected)}, expected {e.obligation.expect.value})")
        console.print(f"  statement: {e.obligation.statement}", markup=False)
        console.print(f"  finding:   {e.result.outcome.message}", markup=False)
        if e.finding is not None and e.finding.counterexample:
            point = ", ".join(f"{k} = {_fmt(v)}" for k, v in e.finding.counterexample.items())
            console.print(f"  counterexample: {point}", markup=False)
            if e.finding.values:
                console.print("  evaluated there: " + ", ".join(f"{k} = {_fmt(v)}" for k, v in e.finding.values.items()), markup=False)
        console.print(f"  expected because: {e.obligation.reason}", markup=False)


@guarded(report=lambda a: None if a.get("list_only") else "prove")
def prove(
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Glob on obligation ids, e.g. 'nac.thm1.*' (repeatable).")] = None,
    list_only: Annotated[bool, typer.Option("--list", help="List the selected obligations without checking them.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/prove-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one.")] = True,
    seed: Annotated[int, typer.Option(help="Seed of the numeric counterexample search (>= 0).")] = 0,
    samples: Annotated[int, typer.Option(help="Points drawn by the counterexample search per undecided statement.")] = DEFAULT_SAMPLES,
    junit_xml: JunitXmlOption = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Check the symbolic proof obligations (SymPy): closed forms, gradients, limits, invariant intervals, discretisation steps.
    Prints a summary (counts, every verdict that differs from the expected one); -v adds the table and each refutation's
    counterexample."""
    fmt = output_format(fmt, as_json)
    level = output_level(verbose, quiet)
    show = screen(fmt)
    if samples < 1:
        raise BadInput(f"--samples must be >= 1, got {samples}")
    from nacverify.claims import Verdict
    from nacverify.report import Report, check_writable, default_report_path
    from nacverify.symbolic import ProofEntry, prove as run_proofs, report_sections

    _load()

    obligations = select_obligations(only)
    if list_only:
        console.print(_listing(obligations))
        raise typer.Exit(0)
    out_path = check_writable(out or default_report_path("prove"), overwrite=force)
    check_junit_xml(junit_xml, force=force, out=out_path)

    report = Report(command=command_line(), seed=seed)
    entries: list[ProofEntry] = []
    start = time.perf_counter()
    try:
        with progress_bar() as bar:
            task = bar.add_task("proving", total=len(obligations))
            for ob in obligations:
                bar.update(task, description=ob.id)
                entries += run_proofs([ob], seed=seed, samples=samples)
                bar.advance(task)
    except KeyboardInterrupt:
        report.results = [e.result for e in entries]
        report.sections = report_sections(entries, seed, samples)
        raise finish_interrupted(report, out_path, force=force, note=f"interrupted after {len(entries)} of {len(obligations)} obligations",
                                 junit_xml=junit_xml, fmt=fmt) from None

    wall = time.perf_counter() - start
    report.results = [e.result for e in entries]
    report.sections = report_sections(entries, seed, samples, wall_seconds=wall)
    counts = Counter(e.result.verdict.value for e in entries)
    total = sum(e.result.seconds for e in entries)
    summary = ", ".join(f"{counts[v.value]} {v.value}" for v in Verdict if counts[v.value])
    by_kind: dict[str, Counter] = {}
    for e in entries:
        by_kind.setdefault(str(e.obligation.kind or "-"), Counter())[e.result.verdict.value] += 1

    def render() -> None:
        if level == Level.verbose:
            show.print(verdict_table(report.results, title="proof obligations", extra={"s": lambda r: f"{r.seconds:.2f}"}))
            _details(entries, show)
            show.print(f"\n{len(entries)} obligations: {summary}; {total:.1f} s checking, {wall:.1f} s wall (seed {seed}, {samples} samples)", markup=False)
        title = f"{len(entries)} proof obligations ({total:.1f} s checking, {wall:.1f} s wall, seed {seed}, {samples} samples)"
        kinds = ["by kind: " + "; ".join(f"{k} " + ", ".join(f"{n[v.value]} {v.value}" for v in Verdict if n[v.value]) for k, n in by_kind.items())]
        print_summary(report.results, show, level, title=title, lines=kinds)
        if level == Level.normal:  # the statement, finding and counterexample of each differing obligation
            _details([e for e in entries if not e.result.as_expected], show)

    raise finish(report, out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=fmt, level=level, render=render)
