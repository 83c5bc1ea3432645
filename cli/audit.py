"""`nacverify audit`: audit any NAC implementation's exported gates (reports/AUDIT_FORMAT.md)."""

from __future__ import annotations

import enum
import functools
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput

from ._cluster import SchedulerOption, cluster
from ._exits import command_line
from ._finish import finish, finish_interrupted
from ._guard import guarded, report_stem
from ._loading import lazy_names
from ._options import FormatOption, JsonFlag, JunitXmlOption, Level, OutputFormat, QuietOption, VerboseOption, check_junit_xml, output_format, output_level
from ._output import console, fitted, progress_bar, screen
from ._results import print_summary, print_witnesses, verdict_table
from ._defaults import BACKBONES, HEADS, MODES, QUANTILE_MODES, SHARP_THRESHOLD as DEFAULT_SHARP_THRESHOLD

MODEL = "Model export (--export-model)"
Backbone = enum.Enum("Backbone", {b: b for b in BACKBONES}, type=str)
Head = enum.Enum("Head", {h: h for h in HEADS}, type=str)
Mode = enum.Enum("Mode", {m: m for m in MODES}, type=str)
Quantiles = enum.Enum("Quantiles", {m: m for m in QUANTILE_MODES}, type=str)
LARGE = "Large exports (HDF5 is read chunk by chunk; reports/AUDIT_FORMAT.md)"
PROGRESS_BYTES = 1 << 28  # files larger than this show a progress bar
_load, __getattr__ = lazy_names(globals(), {"audit_file": "nacverify.audit.gates.stream", "reuse_heap_in_this_process": "nacverify.audit.gates.stream"})


def _list_claims() -> None:
    from nacverify.audit import CLAIM_IDS
    from nacverify.audit.gates.claims import CLAIM_SPECS

    table = Table(title=f"{len(CLAIM_IDS)} audit claims")
    for col in ("claim", "source", "statement"):
        table.add_column(col, overflow="fold")
    for cid in CLAIM_IDS:
        source, statement, _ = CLAIM_SPECS[cid]
        table.add_row(escape(cid), escape(source), escape(statement))
    console.print(fitted(table))


def _export_section(export, path: Path, expect: Optional[Path], threshold: float, valid_pairs: int) -> dict:
    import numpy as np

    return {
        "file": str(path),
        "pair_shape": np.asarray(export.pair_shape, dtype=np.int64),
        "pairs": export.pairs,
        "valid_pairs": valid_pairs,
        "keys": export.K,
        "arrays": {name: f"{getattr(export, name).dtype} {list(getattr(export, name).shape)}"
                   for name in ("phi", "omega", "t_pseudo", "logits", "attention", "u", "valid") if export.has(name)},
        "attributes": {k: v for k, v in export.attrs().items()},
        "ignored_entries": ", ".join(export.ignored) or "none",
        "expect_file": str(expect) if expect else "none",
        "sharp_threshold": threshold,
    }


def _write_golden(path: Path, mode: str, force: bool, show=console) -> Path:
    import numpy as np

    from nacverify.audit import write_export
    from nacverify.checks.nac_reference_parity import REFERENCE_FILE, find_reference_dir
    from nacverify.model import golden_gate_entries

    ref = find_reference_dir()
    if ref is None:
        raise BadInput(f"no {REFERENCE_FILE} where NACVERIFY_REFERENCE points; unset it to use the copy shipped with the package")
    with np.load(ref / REFERENCE_FILE) as archive:
        written = write_export(golden_gate_entries(archive, mode), path, overwrite=force)
    show.print(f"export: {written} (the public TF layer's gates, mode {mode}, from {ref / REFERENCE_FILE})", markup=False)
    return written


@guarded(report=lambda a: report_stem("audit", a.get("file") or a.get("export_model") or a.get("export_golden"), a.get("list_only")))
def audit(
    file: Annotated[Optional[Path], typer.Argument(help="Gate export (.npz or HDF5) of any NAC implementation; see reports/AUDIT_FORMAT.md.")] = None,
    expect: Annotated[Optional[Path], typer.Option("--expect", help="JSON/TOML mapping claim id -> accepted verdict (the team's expectations).")] = None,
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one.")] = True,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/audit-<file>-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out (and --export-model file).")] = False,
    sharp_threshold: Annotated[float, typer.Option("--sharp-threshold", help="Weight on one key that counts as sharp attention (audit.sharpness).")] = DEFAULT_SHARP_THRESHOLD,
    list_only: Annotated[bool, typer.Option("--list", help="List the audit claims and exit.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes of a local Dask cluster that audit chunks of pairs as tasks (1: serial, in this process).", rich_help_panel=LARGE)] = 1,
    scheduler: SchedulerOption = None,
    chunk_pairs: Annotated[Optional[int], typer.Option("--chunk-pairs", help="Pairs per chunk (task), rounded down to whole rows (default: about 32 MiB of the stored arrays); results do not depend on it.", rich_help_panel=LARGE)] = None,
    quantiles: Annotated[Quantiles, typer.Option("--quantiles", help="Evidence quantiles: exact (extra passes over exports above 2^20 pairs) or bounded (one pass; within a relative 2^-9).", rich_help_panel=LARGE)] = Quantiles("exact"),
    export_model: Annotated[Optional[Path], typer.Option("--export-model", help="Write the JAX NAC model's gate export to this .npz/.h5 file, then audit it.", rich_help_panel=MODEL)] = None,
    export_golden: Annotated[Optional[Path], typer.Option("--export-golden", help="Write the public TF layer's own gates in --mode, read from its golden file (shipped with the package; NACVERIFY_REFERENCE overrides), to this .npz/.h5 file, then audit it.", rich_help_panel=MODEL)] = None,
    backbone: Annotated[Backbone, typer.Option(help="NCP backbone of the gates (fc: the dense ablation).", rich_help_panel=MODEL)] = Backbone("circuit"),
    head: Annotated[Head, typer.Option(help="Gate heads: one shared output or two (split).", rich_help_panel=MODEL)] = Head("shared"),
    mode: Annotated[Mode, typer.Option(help="How the logits are computed from the gates.", rich_help_panel=MODEL)] = Mode("exact"),
    d_model: Annotated[int, typer.Option(help="Model width.", rich_help_panel=MODEL)] = 16,
    heads: Annotated[int, typer.Option(help="Attention heads.", rich_help_panel=MODEL)] = 2,
    length: Annotated[int, typer.Option(help="Sequence length of the random input.", rich_help_panel=MODEL)] = 32,
    batch: Annotated[int, typer.Option(help="Batch size of the random input.", rich_help_panel=MODEL)] = 2,
    topk: Annotated[int, typer.Option(help="Selected keys per query.", rich_help_panel=MODEL)] = 8,
    delta_t: Annotated[float, typer.Option(help="Euler step size.", rich_help_panel=MODEL)] = 0.5,
    euler_steps: Annotated[int, typer.Option(help="Euler steps.", rich_help_panel=MODEL)] = 5,
    seed: Annotated[int, typer.Option(help="Seed of the parameters (input: seed + 1; >= 0).", rich_help_panel=MODEL)] = 0,
    junit_xml: JunitXmlOption = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
) -> None:
    """Audit exported NAC gates against the theory: omega > 0, Theorem 1's interval, logits recomputed from the
    gates, the Euler step-size margin, input dependence, attainable sharpness, softmax rows. Prints a summary
    (counts, every verdict that differs from the expected one with its witness); -v adds every claim's row."""
    a = SimpleNamespace(**locals())  # the options as given, for the helpers below
    a.fmt, a.level = output_format(fmt, as_json), output_level(verbose, quiet)
    a.show = screen(a.fmt)
    if chunk_pairs is not None and chunk_pairs < 1:
        raise BadInput(f"--chunk-pairs must be >= 1, got {chunk_pairs}")
    _load()
    if list_only:
        _list_claims()
        return
    if sum(x is not None for x in (file, export_model, export_golden)) != 1:
        raise BadInput("give a gate export FILE, --export-model PATH or --export-golden PATH (one of them)")
    if not 1 <= jobs <= 64:
        raise BadInput(f"--jobs must be between 1 and 64, got {jobs}")
    plan = _plan(a)
    audited = _run(a, plan)
    raise finish(plan.report, plan.out_path, force=force, gate=gate, junit_xml=junit_xml, fmt=a.fmt, level=a.level,
                 render=functools.partial(_render, a, plan, audited))


def _plan(a: SimpleNamespace) -> SimpleNamespace:
    """The expectations (--expect), the report and its path (refused before any work when they cannot be
    written), and the file to audit: the one given, or the one --export-model or --export-golden writes now."""
    from nacverify.audit import export_model as write_model_export
    from nacverify.audit import read_expect
    from nacverify.report import Report, check_writable, default_report_path

    table = read_expect(a.expect) if a.expect is not None else None
    out_path = check_writable(a.out or default_report_path(f"audit-{(a.file or a.export_model or a.export_golden).stem}"), overwrite=a.force)
    check_junit_xml(a.junit_xml, force=a.force, out=out_path)
    file = a.file
    if a.export_model is not None:
        file, _ = write_model_export(
            a.export_model, d_model=a.d_model, num_heads=a.heads, length=a.length, batch=a.batch, seed=a.seed, overwrite=a.force,
            backbone=a.backbone.value, head=a.head.value, mode=a.mode.value, topk=a.topk, delta_t=a.delta_t, euler_steps=a.euler_steps)
        if a.level >= Level.normal:
            a.show.print(f"export: {file} ({a.backbone.value} backbone, {a.head.value} head, mode {a.mode.value})", markup=False)
    if a.export_golden is not None:
        file = _write_golden(a.export_golden, a.mode.value, a.force, a.show)
    report = Report(command=command_line(), seed=a.seed if a.export_model is not None else None)
    return SimpleNamespace(expect=table, out_path=out_path, file=file, report=report)


def _run(a: SimpleNamespace, plan: SimpleNamespace):
    """The audit's passes over the export (on a cluster with --jobs or --scheduler), then its claims
    evaluated and its sections added to the report; an interrupt during the passes writes the report,
    marked incomplete."""
    from nacverify.audit import apply_expect
    from nacverify.claims import CheckContext, evaluate

    file, report = plan.file, plan.report
    reuse_heap_in_this_process()  # this process is nacverify's own: glibc keeps the memory the chunks free
    uptime = _uptime()
    with cluster(a.jobs, a.scheduler) as executor, progress_bar(Path(file).stat().st_size > PROGRESS_BYTES if Path(file).is_file() else False) as bar:
        task = bar.add_task("audit", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=f"audit, {stage} (rows)", completed=done, total=total)

        try:
            audited = audit_file(file, sharp_threshold=a.sharp_threshold, executor=executor, chunk_pairs=a.chunk_pairs,
                                 quantiles=a.quantiles.value, progress=progress)
        except KeyboardInterrupt:
            report.sections["audit"] = {"file": str(file), "interrupted": "during the passes over the export: no verdicts"}
            raise finish_interrupted(report, plan.out_path, force=a.force, note="interrupted during the audit's passes", junit_xml=a.junit_xml,
                                     fmt=a.fmt) from None
    claims = audited.claims
    if plan.expect is not None:
        claims = apply_expect(claims, plan.expect, f"--expect {a.expect}")
    report.results = [evaluate(c, CheckContext()) for c in claims]
    report.sections["audit"] = _export_section(audited.layout, file, a.expect, a.sharp_threshold, audited.valid_pairs)
    report.sections["bench/audit"] = {**audited.bench, "jobs": a.jobs, "scheduler": a.scheduler or "", "uptime_start": uptime, "uptime_end": _uptime()}
    return audited


def _render(a: SimpleNamespace, plan: SimpleNamespace, audited) -> None:
    """People's output once the report is written: how the export was read, -v's claims and witnesses, the summary."""
    show, level, export, bench, results = a.show, a.level, audited.layout, audited.bench, plan.report.results
    if level >= Level.normal:
        chunks, size = bench["chunks"], min(bench["chunk_pairs"], export.pairs)  # one chunk of a small export holds all its pairs
        show.print(f"read {'whole (NPZ)' if audited.in_memory else 'chunk by chunk'}: {chunks} chunk{'s' if chunks != 1 else ''} of "
                   f"{'up to ' if chunks > 1 else ''}{size} pairs, {bench['passes']} pass{'es' if bench['passes'] != 1 else ''}, "
                   f"quantiles {bench['quantiles']}; {bench['seconds']:.2f} s, {bench['pairs_per_second']:.3g} pairs/s", markup=False)
        if export.ignored:
            show.print(f"note: entries not in the format were ignored: {', '.join(export.ignored)}", markup=False)
    title = f"audit of {plan.file} ({export.pairs} pairs, K = {export.K}, mode {export.mode or 'not given'})"
    if level == Level.verbose:
        show.print(verdict_table(results, title=title, extra={"worst pair": lambda r: str(r.outcome.evidence.witness.get("index", r.outcome.evidence.witness.get("row", "")))}))
        print_witnesses(results, show)
    print_summary(results, show, level, title=title)


def _uptime() -> str:
    """What `uptime` reports (load averages over 1, 5, 15 minutes), recorded with the timings."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} CPUs)"
