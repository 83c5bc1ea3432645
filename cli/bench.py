"""`nacverify bench`: timings and memory of the JAX NAC model and baselines, into HDF5."""

from __future__ import annotations

import enum
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Optional

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from nacverify.errors import BadInput
from ._defaults import BENCH_MIN_REPEATS as MIN_REPEATS

from ._exits import command_line
from ._finish import finish_interrupted, write_report_file
from ._guard import guarded
from ._output import console, fitted, progress_bar


LTC_PANEL = "LTC audit benchmark (--ltc-audit)"
SWEEP_PANEL = "Sweep benchmark (--sweep-bench)"
CHECK_PANEL = "check scaling (--check-scaling)"
HTML_PANEL = "report html benchmark (--report-html)"


class Suite(str, enum.Enum):
    paper = "paper"
    scaling = "scaling"
    ablations = "ablations"
    all = "all"


def _report_stem(a: dict) -> str:
    """The default report name of the bench these arguments choose (`guarded`'s interrupted report)."""
    if a.get("plan_workers") is not None:
        return "bench-check-plan"
    if a.get("report_html") is not None:
        return "bench-report-html"
    for flag, stem in (("check_scaling", "bench-check-scaling"), ("sweep_bench", "bench-sweep"), ("ltc_audit", "bench-ltc-audit")):
        if a.get(flag):
            return stem
    return f"bench-{getattr(a.get('suite'), 'value', a.get('suite'))}"


def _pct(fraction) -> str:
    return "-" if fraction is None else f"{100 * fraction:.2f}"


#: What the bytes' fraction measures (printed under the rates table): not a roofline position on a cached workload.
BYTES_NOTE = ("GB/s: XLA's bytes accessed by one call (every operand and result of every operation, cache hits included; counted on the "
              "CPU lowering) / median. % mem B/s: that rate over the device's memory bandwidth (CPU: a measured 512 MiB copy, "
              "i.e. DRAM; GPU: the data sheet's HBM figure). Work whose data stay in cache is not bounded by that bandwidth: above "
              "100 % the bytes cannot all have come from memory, at least 1 - 1/fraction of them were served by caches (168 % means at "
              "least 40 %). It is not a position on a memory-bound roofline. GFLOP/s, % peak FLOP/s: XLA's FLOPs of one call / median, over the device's peak "
              "(report: /bench/device_peak).")


def _row_table(records, title: str, peak: dict) -> RenderableType:
    """Two tables per suite, each fitted to the terminal (`fitted`): the timings, then the rates."""
    from nacverify.bench.timings import achieved

    timings = Table(title=title, caption="parity: rows that compute the public layer's output (proven by nac.model.reference_parity); "
                    "quote speed ratios against the public layer only for those.")
    for col in ("configuration", "T", "batch", "compile s", "median ms", "p10 ms", "p90 ms", "seq/s", "peak MB", "parity"):
        timings.add_column(col, justify="right" if col not in ("configuration", "parity") else "left", no_wrap=True)
    rates = Table(title=f"{title}: achieved rates", caption=BYTES_NOTE)
    for col in ("configuration", "GFLOP/s", "% peak FLOP/s", "GB/s", "% mem B/s"):
        rates.add_column(col, justify="right" if col != "configuration" else "left", no_wrap=True)
    for r in records:
        a = achieved(r, peak)
        timings.add_row(r.config.label, str(r.config.T), str(r.config.batch), f"{r.compile_s:.2f}", f"{r.median_s * 1e3:.3f}", f"{r.p10_s * 1e3:.3f}",
                        f"{r.p90_s * 1e3:.3f}", f"{r.throughput:,.1f}", f"{r.peak_mb:.2f}", r.config.parity)
        rates.add_row(r.config.label, f"{a['achieved_flops_per_second'] / 1e9:,.2f}", _pct(a["peak_fraction_flops_per_second"]),
                      f"{a['achieved_bytes_per_second'] / 1e9:,.2f}", _pct(a["peak_fraction_bytes_per_second"]))
    return Group(_captioned(timings), _captioned(rates))


def _captioned(table: Table) -> RenderableType:
    """`fitted(table)`, its caption as a wrapped paragraph under it (rich would fit a caption to the table's width)."""
    caption, table.caption = table.caption, None
    return Group(fitted(table), Text(str(caption), style="dim")) if caption else fitted(table)


@guarded(report=lambda a: _report_stem(a))
def bench(
    suite: Annotated[Suite, typer.Option("--suite", "-s", help="paper: the runtime table's rows and baselines; scaling: T sweep of exact/block Top-K and PW; ablations: backbone variants and heads; all.")] = Suite.paper,
    repeats: Annotated[int, typer.Option("--repeats", "-n", help=f"Timed forward passes per configuration after one warm-up (>= {MIN_REPEATS}).")] = MIN_REPEATS,
    T: Annotated[int, typer.Option("--T", help="Sequence length of the paper and ablation suites.")] = 1024,
    max_T: Annotated[int, typer.Option("--max-T", help="Largest T of the scaling suite (powers of two from --min-T).")] = 16384,
    min_T: Annotated[int, typer.Option("--min-T", help="Smallest T of the scaling suite.")] = 256,
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Glob on configuration names, e.g. 'NAC-Exact*' (repeatable).")] = None,
    batch: Annotated[Optional[str], typer.Option("--batch", help="Comma-separated batch sizes, e.g. 1,16,128: every row is timed at each (rows named <name>@b<batch>); default: batch 1, today's names.")] = None,
    profile: Annotated[bool, typer.Option("--profile", help="Also split each NAC row's call into its stages (projections, selection, gather, backbone, closed form, softmax, value sum, output): the model's program truncated after each stage, timed (report: /bench/profile/<row>).")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the parameters and inputs.")] = 0,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/bench-<suite>-<UTC>.h5).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")] = False,
    ltc_audit: Annotated[bool, typer.Option("--ltc-audit", help="Instead of NAC: time `nacverify audit-ltc` (export, each claim, total) on a seeded ncps LTC with irregular elapsed times, and the fused solver's error at elapsed 0.1, 1, 10, 100 (report: /bench/ltc_audit).", rich_help_panel=LTC_PANEL)] = False,
    ltc_units: Annotated[int, typer.Option("--ltc-units", help="Units of the LTC (--ltc-audit).", rich_help_panel=LTC_PANEL)] = 64,
    ltc_steps: Annotated[int, typer.Option("--ltc-steps", help="Steps of the exported run (--ltc-audit).", rich_help_panel=LTC_PANEL)] = 10_000,
    ltc_wiring: Annotated[str, typer.Option("--ltc-wiring", help="ncps wiring: fc (FullyConnected) or autoncp (AutoNCP, units // 8 motor units) (--ltc-audit).", rich_help_panel=LTC_PANEL)] = "fc",
    ltc_cli: Annotated[bool, typer.Option("--ltc-cli/--no-ltc-cli", help="Also time `nacverify audit-ltc FILE` end to end in a fresh process (--ltc-audit).", rich_help_panel=LTC_PANEL)] = True,
    sweep_bench: Annotated[bool, typer.Option("--sweep-bench", help="Instead of NAC: the streaming sweep of `frozen-error --regime oscillatory` (peak RSS, serial throughput, the 10^8 sweep's stated estimate, 1 -> 2 worker scaling; report: /bench/sweep).", rich_help_panel=SWEEP_PANEL)] = False,
    sweep_draws: Annotated[int, typer.Option("--sweep-draws", help="Draws of the serial sample run (peak RSS, throughput) (--sweep-bench).", rich_help_panel=SWEEP_PANEL)] = 10_000_000,
    scaling_draws: Annotated[int, typer.Option("--scaling-draws", help="Draws of each 1- and 2-worker run (--sweep-bench).", rich_help_panel=SWEEP_PANEL)] = 200_000,
    scaling_repeats: Annotated[int, typer.Option("--scaling-repeats", help="Alternating 1- and 2-worker runs; the best of each counts (--sweep-bench).", rich_help_panel=SWEEP_PANEL)] = 2,
    check_scaling: Annotated[bool, typer.Option("--check-scaling", help="Instead of NAC: `check --quick` in a fresh process with 1, 2, 4, ... workers up to the usable cores, after a warm-up run; wall times, speedups and whether the verdicts agree (report: /bench/check_scaling).", rich_help_panel=CHECK_PANEL)] = False,
    scaling_jobs: Annotated[Optional[str], typer.Option("--scaling-jobs", help="Comma-separated worker counts for --check-scaling (default: 1, 2, 4, ... up to the usable cores).", rich_help_panel=CHECK_PANEL)] = None,
    cold_caches: Annotated[bool, typer.Option("--cold-caches", help="--check-scaling or --plan-workers without the warm-up: each run with empty caches of its own (compilation, traced programs, catalog), as a first run after installing.", rich_help_panel=CHECK_PANEL)] = False,
    report_html: Annotated[Optional[Path], typer.Option("--report-html", metavar="F", help="Instead of NAC: time `nacverify report html F` (F: a check report, e.g. of `check --quick`) in a fresh process, once with an empty catalog cache, then --html-repeats times with it filled; the load average before and after, the pages' sizes (report: /bench/report_html).", rich_help_panel=HTML_PANEL)] = None,
    html_repeats: Annotated[int, typer.Option("--html-repeats", help="Runs with the catalog cache filled (--report-html); the median counts.", rich_help_panel=HTML_PANEL)] = 3,
    plan_workers: Annotated[Optional[int], typer.Option("--plan-workers", help="Instead of NAC: estimate `check --quick` on N workers here: each task of its N-worker plan alone in a fresh process on one core, the usable cores' worth at a time; the plan's makespan plus the start-up (report: /bench/check_plan).", rich_help_panel=CHECK_PANEL)] = None,
) -> None:
    """Time NAC (compile time, median and p10/p90 of forward passes, throughput, peak memory) against baselines;
    with --ltc-audit, time the LTC audit instead."""
    a = SimpleNamespace(**locals())  # the options as given, for the helpers below
    if cold_caches and not (check_scaling or plan_workers):
        raise BadInput("--cold-caches applies to --check-scaling and --plan-workers only")
    if profile and (check_scaling or sweep_bench or ltc_audit or plan_workers is not None or report_html):
        raise BadInput("--profile splits the NAC rows' calls; it does not apply to --check-scaling, --sweep-bench, --ltc-audit, --plan-workers "
                       "or --report-html")
    if batch is not None and (check_scaling or sweep_bench or ltc_audit or plan_workers or report_html):
        mode = ("--check-scaling" if check_scaling else "--sweep-bench" if sweep_bench else "--ltc-audit" if ltc_audit
                else "--report-html" if report_html else "--plan-workers")
        raise BadInput(f"--batch times the NAC suite's rows; it does not apply to {mode}")
    other = _other_bench(a)
    if other is not None:
        raise other
    _check_nac_options(a)
    plan = _plan(a)
    records, recalls = _measure(a, plan)
    _finish_nac(a, plan, records, recalls)


def _other_bench(a: SimpleNamespace) -> typer.Exit | None:
    """The benches run instead of NAC's (--report-html, --plan-workers, --check-scaling, --sweep-bench, --ltc-audit),
    their options checked: the chosen one's exit, or None when NAC is timed."""
    if a.report_html is not None:
        if a.check_scaling or a.sweep_bench or a.ltc_audit or a.plan_workers is not None:
            raise BadInput("--report-html is a bench of its own: give it without --check-scaling, --sweep-bench, --ltc-audit or --plan-workers")
        if a.html_repeats < 1:
            raise BadInput(f"--html-repeats must be >= 1, got {a.html_repeats}")
        from .bench_report import report_html_bench

        return report_html_bench(report=a.report_html, repeats=a.html_repeats, out=a.out, force=a.force)
    if a.plan_workers is not None:
        if a.check_scaling:
            raise BadInput("--plan-workers and --check-scaling are two benches: give one")
        if not 1 <= a.plan_workers <= 64:
            raise BadInput(f"--plan-workers must be between 1 and 64, got {a.plan_workers}")
        from .bench_plan import plan_bench

        return plan_bench(workers=a.plan_workers, out=a.out, force=a.force, cold=a.cold_caches)
    if a.check_scaling:
        from .bench_check import check_scaling_bench

        try:
            ladder = [int(j) for j in a.scaling_jobs.split(",")] if a.scaling_jobs else None
        except ValueError:
            raise BadInput(f"--scaling-jobs must be comma-separated integers, got {a.scaling_jobs!r}") from None
        if ladder is not None and not all(1 <= j <= 64 for j in ladder):
            raise BadInput(f"--scaling-jobs must be between 1 and 64, got {a.scaling_jobs!r}")
        return check_scaling_bench(jobs=ladder, out=a.out, force=a.force, cold=a.cold_caches)
    if a.sweep_bench:
        from .bench_sweep import sweep_bench as bench_the_sweep

        if a.sweep_draws < 1 or a.scaling_draws < 1 or a.scaling_repeats < 1:
            raise BadInput("--sweep-draws, --scaling-draws and --scaling-repeats must be >= 1")
        return bench_the_sweep(draws=a.sweep_draws, scaling_draws=a.scaling_draws, repeats=a.scaling_repeats, seed=a.seed, out=a.out, force=a.force)
    if a.ltc_audit:
        from .bench_ltc import ltc_audit_bench

        if not 0 <= a.seed < 2**31:
            raise BadInput(f"--seed must be in [0, 2^31), got {a.seed}")
        if a.ltc_units < 1 or a.ltc_steps < 1:
            raise BadInput("--ltc-units and --ltc-steps must be >= 1")
        if a.ltc_wiring not in ("fc", "autoncp"):
            raise BadInput(f"--ltc-wiring must be fc or autoncp, got {a.ltc_wiring!r}")
        return ltc_audit_bench(units=a.ltc_units, steps=a.ltc_steps, wiring=a.ltc_wiring, seed=a.seed, cli_run=a.ltc_cli, out=a.out, force=a.force)
    return None


def _check_nac_options(a: SimpleNamespace) -> None:
    """Refuse the NAC suites' options that cannot be timed, before any work."""
    if a.repeats < MIN_REPEATS:
        raise BadInput(f"--repeats must be >= {MIN_REPEATS}, got {a.repeats}")
    for name, value in (("T", a.T), ("max-T", a.max_T), ("min-T", a.min_T)):
        if value < 8:
            raise BadInput(f"--{name} must be >= 8, got {value}")
    if not 0 <= a.seed < 2**31:
        raise BadInput(f"--seed must be in [0, 2^31), got {a.seed}")
    if a.min_T > a.max_T:
        raise BadInput(f"--min-T ({a.min_T}) must not exceed --max-T ({a.max_T})")


def _plan(a: SimpleNamespace) -> SimpleNamespace:
    """The configurations to time and the recall measurements, the report (its path refused before any
    work when it cannot be written), and the device with its peaks (printed)."""
    from nacverify.bench.peaks import device_peak
    from nacverify.bench.timings import MEMORY_METHOD, RECALL_INPUTS, parse_batches, suite_configs
    from nacverify.compute.environment import device_description
    from nacverify.report import Report, check_writable, default_report_path

    batches = parse_batches(a.batch) if a.batch is not None else None
    configs = suite_configs(a.suite.value, T=a.T, max_T=a.max_T, min_T=a.min_T, only=a.only, batches=batches)
    out_path = check_writable(a.out or default_report_path(f"bench-{a.suite.value}"), overwrite=a.force)
    report = Report(command=command_line(), seed=a.seed)
    console.print(f"device: {device_description()}; peak memory: {MEMORY_METHOD}", markup=False)
    peak = device_peak()
    console.print(f"machine: {peak['machine']}; peak FLOP/s: {_rate(peak['peak_flops_per_second'], 'FLOP/s')} ({peak['peak_flops_source']}); "
                  f"peak bytes/s: {_rate(peak['peak_bytes_per_second'], 'B/s')} ({peak['peak_bytes_source']})", markup=False)
    scaling_Ts = sorted({c.T for c in configs if c.suite == "scaling" and c.group == "block"})
    recall_jobs = [(kind, t) for kind in RECALL_INPUTS for t in scaling_Ts]
    return SimpleNamespace(configs=configs, out_path=out_path, report=report, peak=peak, scaling_Ts=scaling_Ts, recall_jobs=recall_jobs)


def _measure(a: SimpleNamespace, plan: SimpleNamespace) -> tuple[list, dict[tuple[str, int], float]]:
    """Time every configuration and measure every recall, with a progress bar; an interrupt writes what
    was measured, in a report marked incomplete."""
    from nacverify.bench.timings import block_recall, measure, records_section, scaling_fits

    records: list = []
    recalls: dict[tuple[str, int], float] = {}
    try:
        with progress_bar() as bar:
            task = bar.add_task("bench", total=len(plan.configs) + len(plan.recall_jobs))
            for config in plan.configs:
                bar.update(task, description=f"{config.suite}: {config.name}")
                records.append(measure(config, a.repeats, a.seed, profile=a.profile))
                bar.advance(task)
            for kind, t in plan.recall_jobs:
                bar.update(task, description=f"recall@8 {kind} T={t}")
                recalls[(kind, t)] = block_recall(t, kind=kind, seed=a.seed)
                bar.advance(task)
    except KeyboardInterrupt:
        plan.report.sections = records_section(records, scaling_fits(records), recalls, plan.peak)
        raise finish_interrupted(plan.report, plan.out_path, force=a.force,
                                 note=f"interrupted after {len(records)} of {len(plan.configs)} configurations") from None
    return records, recalls


def _finish_nac(a: SimpleNamespace, plan: SimpleNamespace, records: list, recalls: dict[tuple[str, int], float]) -> None:
    """The timings' tables (per suite, the scaling fits, the recalls, the targets), then the report written and named."""
    from nacverify.bench.timings import RECALL_INPUTS, records_section, scaling_fits, targets

    report, peak = plan.report, plan.peak
    fits = scaling_fits(records)
    report.sections = records_section(records, fits, recalls, peak)
    for name in ("paper", "ablations", "scaling"):
        rows = [r for r in records if r.config.suite == name]
        if rows:
            console.print(_row_table(rows, f"{name} suite ({a.repeats} timed passes each, float32)", peak))
    split = [r for r in records if r.profile is not None]
    if split:
        console.print(_profile_table(split, a.repeats))
    if fits:
        table = Table(title="scaling in T (all queries): fitted exponents, value ~ T^p")
        for col in ("curation", "T range", "time p", "time p (upper half)", "memory p"):
            table.add_column(col, justify="right", no_wrap=True)
        for f in fits:
            table.add_row(f.label, f"{int(f.Ts[0])}..{int(f.Ts[-1])}", f"{f.time_exponent:.3f}", f"{f.time_exponent_upper:.3f}", f"{f.memory_exponent:.3f}")
        console.print(fitted(table))
    if recalls:
        table = Table(title="recall@8 of block Top-K against exact Top-K (model q/k)")
        table.add_column("input", no_wrap=True)
        for t in plan.scaling_Ts:
            table.add_column(f"T={t}", justify="right", no_wrap=True)
        for kind in RECALL_INPUTS:
            table.add_row(kind, *[f"{recalls[(kind, t)]:.3f}" for t in plan.scaling_Ts])
        console.print(fitted(table))
    met = targets(records, fits)
    if met:
        table = Table(title=f"targets (measured on {peak['machine']}; timings are noisy when the machine is shared)")
        for col in ("target", "measured", "limit", "met"):
            table.add_column(col, justify="right" if col != "target" else "left", no_wrap=True)
        for name, value, limit, ok in met:
            table.add_row(name, f"{value:.3f}", f"{limit:g}", "[green]yes[/]" if ok else "[red]no[/]")
        console.print(fitted(table))
        report.sections["bench/targets"] = {
            _key(name): {"measured": value, "limit": limit, "met": ok, "target": name} for name, value, limit, ok in met
        }
    path = write_report_file(report, plan.out_path, force=a.force)
    console.print(f"report: {path}", markup=False, soft_wrap=True)


def _profile_table(records, repeats: int) -> RenderableType:
    """The NAC rows' stage split (ms; `nacverify.bench.profile`), the share of the call under each."""
    stages = records[0].profile.stages
    table = Table(title=f"stage split of one call (ms, best of {repeats}; share of the call below)",
                  caption="each stage: the model's program truncated after it minus truncated before it (XLA fuses across "
                          "stages, so this is what adding the stage costs; noise can make a small stage negative). report: /bench/profile/<row>")
    table.add_column("configuration", no_wrap=True)
    for name in (*stages, "total"):
        table.add_column(name.replace("_", " "), justify="right", no_wrap=True)
    for r in records:
        p = r.profile
        table.add_row(r.config.label, *[f"{v * 1e3:,.1f}" for v in p.stage_s], f"{p.total_s * 1e3:,.1f}")
        table.add_row("", *[f"{100 * v / p.total_s:.0f}%" for v in p.stage_s], "", style="dim")
    return _captioned(table)


def _rate(value, unit: str) -> str:
    return "unknown" if value is None else f"{value / 1e9:,.1f} G{unit}"


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name).strip("_")
