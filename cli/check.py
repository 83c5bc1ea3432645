"""`nacverify check`: every registered claim, one table, one report, the gate."""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput, Interrupted

from . import compilation_cache_state
from ._cluster import SchedulerOption, cluster, default_jobs
from ._exits import command_line
from ._finish import finish, finish_interrupted
from ._guard import guarded
from ._loading import Background, lazy_names
from ._options import FormatOption, JsonFlag, JunitXmlOption, Level, OutputFormat, QuietOption, VerboseOption, check_junit_xml, output_format, output_level
from ._output import console, fitted, print_json, progress_bar, screen
from ._results import kind_summary, print_summary, print_witnesses, verdict_table

_load, __getattr__ = lazy_names(globals(), {"run_claims": "nacverify.run.runner"})

GROUP_ORDER = ("symbolic", "frozen-error", "numeric", "ltc", "solvers", "model")


def _select(only: Optional[list[str]]) -> list:
    """The claims `--only` selects, in check's order; BadInput when none does."""
    import nacverify.catalog  # noqa: F401  (registers every claim provider)
    from nacverify import claims as claim_registry

    _load()
    claims = _ordered(claim_registry.select(only))
    if not claims:
        raise BadInput(f"no claim matches {' '.join(only or [])!r} (see `nacverify check --list`)")
    return claims


def _list(claims: list, fmt: OutputFormat) -> None:
    """`check --list`: the selected claims, as a table or as JSON."""
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import claims_document

        print_json(claims_document(claims))
        return
    table = Table(title=f"{len(claims)} claims")
    for col in ("claim", "group", "kind", "source", "expected"):
        table.add_column(col, overflow="fold")
    for c in claims:
        table.add_row(escape(c.id), c.group, str(c.kind or "-"), escape(c.source), c.expected.value)
    console.print(fitted(table))


def _ordered(claims):
    rank = {g: i for i, g in enumerate(GROUP_ORDER)}
    return sorted(claims, key=lambda c: (rank.get(c.group, len(rank)), c.id))


@guarded(report=lambda a: None if a.get("list_only") else "check")
def check(
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Glob on claim ids, e.g. 'nac.thm1.*' (repeatable).")] = None,
    list_only: Annotated[bool, typer.Option("--list", help="List the selected claims and exit.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Fewer random draws and shorter searches (for CI).")] = False,
    seed: Annotated[int, typer.Option(help="Seed of every random draw (>= 0).")] = 0,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/check-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one.")] = True,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes of a local Dask cluster (one thread each); claim groups run in parallel, "
                                                "and groups larger than their share are cut into tasks (1: serial, in this process). Default: one per usable core, "
                                                "as many as the available memory holds (2 GiB each).", show_default=False)] = None,
    scheduler: SchedulerOption = None,
    junit_xml: JunitXmlOption = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Run every registered claim (symbolic, frozen-error, numeric, LTC, model), write one report, and print a
    summary: the counts, the findings per document, every verdict that differs from its expected one (with its
    reason and witness) and the report's path. -v adds the table of every claim, -q prints the counts only."""
    fmt = output_format(fmt, as_json)
    level = output_level(verbose, quiet)
    from nacverify.report import Report, check_writable, default_report_path
    from nacverify.claims import CheckContext

    if jobs is None:
        jobs = default_jobs()
    if not 1 <= jobs <= 64:
        raise BadInput(f"--jobs must be between 1 and 64, got {jobs}")
    if list_only:
        _list(_select(only), fmt)
        return
    out_path = check_writable(out or default_report_path("check"), overwrite=force)
    check_junit_xml(junit_xml, force=force, out=out_path)
    # The claim catalog loads here while the cluster's workers start (and load theirs):
    # about 1.5 s of every run that waited for one, then the other.
    selection = Background(functools.partial(_select, only))
    report = Report(command=command_line(), seed=seed)
    ctx = CheckContext(seed=seed, quick=quick)
    caches = compilation_cache_state()  # before the run fills it
    start = time.perf_counter()
    with cluster(jobs, scheduler, warm_catalog=True) as executor:  # None: serial, in this process
        claims = selection.result()
        try:
            with progress_bar() as bar:
                sizes: dict[str, int] = defaultdict(int)
                for c in claims:
                    sizes[c.group] += 1
                tasks = {g: bar.add_task(f"{g:<13}", total=n) for g, n in sizes.items()}

                def progress(claim, finished):
                    if finished:
                        bar.advance(tasks[claim.group])
                    else:
                        bar.update(tasks[claim.group], description=f"{claim.group:<13} {claim.id}")

                report.results = run_claims(claims, ctx, executor=executor, progress=progress, caches=caches)
        except Interrupted as exc:  # the partial report is written before the cluster closes
            report.results = list(exc.partial or [])
            raise finish_interrupted(report, out_path, force=force, note=str(exc), junit_xml=junit_xml, fmt=fmt) from None
    elapsed = time.perf_counter() - start
    report.sections["check"] = {"quick": quick, "seconds": elapsed, "claims": len(claims), "jobs": jobs, "scheduler": scheduler or ""}
    _sections(report)
    show = screen(fmt)  # --format json: nothing is printed, stdout holds the JSON only
    title = f"{len(claims)} claims ({'quick' if quick else 'full'}, seed {seed}, {elapsed:.1f} s)"

    def render() -> None:
        if level == Level.verbose:
            _details(report, show, title)
        print_summary(report.results, show, level, title=title, lines=findings_lines(report.results) if level >= Level.normal else ())

    raise finish(report, out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=fmt, level=level, render=render)


def _sections(report) -> None:
    """The report's Table 2 readings and verdicts-by-kind sections."""
    from nacverify.claims import counts_by_kind
    from nacverify.frozen._readings import readings_table
    from nacverify.regimes import NAMED_REGIMES

    verdicts = {r.claim.id: r.verdict.value for r in report.results}
    rows = tuple(row for row in NAMED_REGIMES if f"nac.table2.{row}" in verdicts or f"nac.table2.{row}.mean_le_max" in verdicts)
    if rows:  # the reading -> verdict table of Table 2 (document 000), as in `nacverify frozen-error`
        readings = readings_table(verdicts, rows)
        report.sections["check/table2_readings"] = {f"{row}.{col}": v for row, cells in readings.items() for col, v in cells.items() if v != "-"}
    for kind, kc in counts_by_kind(report.results).items():
        report.sections[f"check/kinds/{kind}"] = dict(kc)


def _details(report, show, title: str) -> None:
    """-v: the table of every claim, the counts by kind, Table 2's readings and every witness."""
    from nacverify.frozen._readings import readings_table
    from nacverify.regimes import NAMED_REGIMES

    from .frozen_error import _readings_table as readings_rich_table

    show.print(verdict_table(report.results, title=title, extra={"s": lambda r: f"{r.seconds:.2f}"}))
    show.print(fitted(kind_summary(report.results), show.width))
    verdicts = {r.claim.id: r.verdict.value for r in report.results}
    rows = tuple(row for row in NAMED_REGIMES if f"nac.table2.{row}" in verdicts or f"nac.table2.{row}.mean_le_max" in verdicts)
    if rows:
        show.print(readings_rich_table(readings_table(verdicts, rows)))
    print_witnesses(report.results, show)


def findings_lines(results) -> list[str]:
    """One line per document: its findings (one per ledger item) from these verdicts, `nacverify findings`'s counts."""
    from nacverify.findings import finding_counts, findings
    from nacverify.ledger import load_ledgers

    verdicts = {r.claim.id: r.verdict for r in results}
    claims = {r.claim.id: r.claim for r in results}
    found = findings(load_ledgers(), verdicts, claims)
    checked = {f.document for f in found if f.claims}  # documents this run checks at least one item of
    counts = finding_counts(f for f in found if f.document in checked)
    lines = []
    for doc, c in counts.items():
        listed = ", ".join(f"{n} {name}" for name, n in c.items() if n)
        if listed:
            lines.append(f"document {doc}: {listed}")
    return ["findings (one per statement of a document; `nacverify findings` lists them):", *["  " + line for line in lines]] if lines else []
