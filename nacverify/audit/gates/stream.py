"""The passes of an audit over an export: chunks of rows, serially or as tasks on an executor.

`audit_file` audits a gate export file. An HDF5 export is read chunk by chunk (h5py
hyperslabs of whole rows, `nacverify.audit.gates.source`), so memory is bounded by the chunk
size, not the file; an NPZ export is loaded whole (NumPy cannot read a zip member in
parts) and cut into the same chunks. Pass 1 computes every claim's summary and the first
level of the exact quantiles; further passes, when the export is larger than `KEEP_ALL`
pairs, refine the quantiles (`nacverify.audit.gates.quantiles`) and compute only the quantities.

With an executor (a `concurrent.futures.Executor`, e.g. ``distributed.Client.get_executor()``
as the CLI's ``--jobs`` / ``--scheduler`` give) each chunk is a task, `pass1_task` or
`refine_task`: module-level functions that read their own rows of the HDF5 file **by
path**, so the file must be reachable from every worker under the same path (a shared
file system on a cluster). At most `WINDOW` tasks are in flight; results are merged in
chunk order, and every merge is exact (`nacverify.audit.gates.reduce`), so verdicts, witnesses
and quantiles are bit for bit those of the serial run, whatever the chunk size or the
number of workers.

The library never starts a cluster (the CLI does, cli/_cluster.py); each task computes in
float64 through `nacverify.compute.precision.float64` (the exact mode's closed form uses JAX).
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import BadInput
from ...compute.precision import float64
from .blocks import EVIDENCE_QUANTITIES, QUANTITIES, Block, map_block
from ...claims import Claim, Outcome
from .claims import CLAIM_IDS, DEFAULT_SHARP_THRESHOLD, _check_threshold, _claims, _outcome, applicability, claims_from_summaries
from .format import ExportLayout, GateExport, no_valid_error, nonfinite_error, read_layout, valid_dtype_error
from .quantiles import BOUND, COLLECT_BUDGET, KEEP_ALL, Accumulator, Level1, RefineAccumulator, RefineRequest, RefineResult, Selection
from .reduce import Min, merge
from .source import ARRAYS, ArrayRows, H5Rows, chunk_rows, layout_of, rows_of, sliced

__all__ = ["audit_file", "audit_claims", "FileAudit", "summarize", "summarize_export", "pass1_task", "refine_task", "Plan", "reuse_heap_in_this_process",
           "DEFAULT_CHUNK_BYTES", "BLOCK_PAIRS", "WINDOW", "QUANTILE_MODES"]

DEFAULT_CHUNK_BYTES = 32 << 20  # of stored arrays per chunk (task)
BLOCK_PAIRS = 1 << 16  # pairs per block inside a task: NumPy's per-call cost amortised; ~20 MiB of float64 temporaries
WINDOW = 16  # tasks in flight on an executor
QUANTILE_MODES = ("exact", "bounded")
Progress = Callable[[str, int, int], None]  # (stage, rows done, rows in all)


@dataclass(frozen=True)
class Plan:
    """What every task needs besides its rows; small and picklable."""

    layout: ExportLayout
    claims: tuple[str, ...]
    quantities: tuple[str, ...]
    keep: bool
    u_ref: np.ndarray | None
    block_rows: int


@dataclass
class TaskStats:
    rows: int
    read_s: float
    compute_s: float
    cpu_s: float  # CPU time of the task's process while it ran (read and compute)
    pid: int
    peak_rss: int  # bytes, this process's peak so far


@dataclass
class Pass1Result:
    summaries: dict[str, Any]
    quantities: dict[str, Level1 | None]
    problems: dict[str, Any]
    stats: TaskStats


def _peak_rss() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024  # Linux: KiB


def _problems(chunk: GateExport, layout: ExportLayout, row0: int) -> dict[str, Any]:
    """Values the format refuses, in this chunk: NaN/inf per float array (count and first
    global flat index), `valid` entries other than 0/1, and the number of valid pairs."""
    out: dict[str, Any] = {}
    for name in ARRAYS:
        if name == "valid" or not chunk.has(name):
            continue
        arr = getattr(chunk, name)
        bad = ~np.isfinite(arr)
        count = int(np.count_nonzero(bad))
        if count:
            per_row = arr.size // max(1, arr.shape[0])
            out[name] = {"count": count, "first": Min(float(row0 * per_row + int(np.argmax(bad.reshape(-1)))))}
    if chunk.valid is not None:
        valid = np.asarray(chunk.valid)
        out["valid_true"] = int(np.count_nonzero(valid))
        if valid.dtype.kind != "b":
            out["valid_values"] = int(np.count_nonzero((valid != 0) & (valid != 1)))
    return out


def _raise_problems(layout: ExportLayout, problems: dict[str, Any] | None) -> None:
    """The in-memory reader's one-line refusal, for the first problem found (format order)."""
    problems = problems or {}
    for name in ARRAYS:
        if name != "valid" and name in problems:
            info = getattr(layout, name)
            first = tuple(int(i) for i in np.unravel_index(int(problems[name]["first"].value), info.shape))
            raise nonfinite_error(name, problems[name]["count"], first)
    if layout.valid is not None:
        if problems.get("valid_values"):
            raise valid_dtype_error(layout.source, layout.valid.dtype)
        if not problems.get("valid_true"):
            raise no_valid_error(layout.source)


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
_LARGE_TRIM, _LARGE_MMAP = 1 << 30, 1 << 25  # keep freed memory; map only blocks above 32 MiB (glibc's largest)


def _mallopt(trim: int, mmap: int) -> object | None:
    """Set glibc's trim and mmap thresholds; the libc handle, or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_TRIM_THRESHOLD, trim)
        libc.mallopt(_M_MMAP_THRESHOLD, mmap)
        return libc
    except (OSError, AttributeError):
        return None


def reuse_heap_in_this_process() -> None:
    """For programs that are nacverify (the CLI): let glibc keep and reuse the memory an audit
    frees. A block's temporaries are ~40 arrays of 1 MiB, allocated and freed a few hundred
    times per chunk; with glibc's default (dynamic) thresholds part of them is unmapped or
    trimmed each time and faulted in again (measured: 100,000 page faults and twice the CPU
    time per 2·10^6 pairs). Library code never calls this (it changes the whole process)."""
    _mallopt(_LARGE_TRIM, _LARGE_MMAP)


@contextmanager
def _heap_reuse() -> Iterator[None]:
    """While a task runs on a Dask worker, let glibc reuse freed memory (as
    `reuse_heap_in_this_process`). Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536
    (memory back to the system early), which also fixes the mmap threshold at 128 KiB, so every
    temporary would be mapped and unmapped (measured: pass 1 three times slower, mostly system
    time). Only where that variable is set, the task raises both thresholds and afterwards puts
    the worker's values back and trims the heap, so the worker keeps its setting."""
    trim = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    libc = _mallopt(_LARGE_TRIM, _LARGE_MMAP) if trim is not None else None
    try:
        yield
    finally:
        if libc is not None:
            _mallopt(int(trim), int(os.environ.get("MALLOC_MMAP_THRESHOLD_", 128 * 1024)))
            libc.malloc_trim(0)


def _after_warm_up() -> None:
    """Wait for a local worker's background catalog load (thread "nacverify-catalog", started
    by the CLI's worker preload), if one is still running: while it imports, it holds the GIL
    for most of each switch interval, and each of a block's few hundred NumPy calls waits for
    it (measured: chunks 10 to 20 times slower). An audit needs no claim catalog."""
    for thread in threading.enumerate():
        if thread.name == "nacverify-catalog" and thread is not threading.current_thread():
            thread.join()


def pass1_task(rows: H5Rows | ArrayRows, plan: Plan) -> Pass1Result:
    """Pass 1 over one chunk: every claim's summary, the quantities' first level, the values'
    problems. Runs wherever the executor puts it; reads its own rows."""
    _after_warm_up()
    with _heap_reuse():
        return _pass1(rows, plan)


def _pass1(rows: H5Rows | ArrayRows, plan: Plan) -> Pass1Result:
    start, cpu = time.perf_counter(), time.process_time()
    chunk = rows.read(plan.layout)
    read_s = time.perf_counter() - start
    accumulators = {q: Accumulator(plan.keep) for q in plan.quantities}
    failed: set[str] = set()
    summaries: dict[str, Any] | None = None
    with float64(), np.errstate(all="ignore"):
        problems = _problems(chunk, plan.layout, rows.start)
        n = chunk.phi.shape[0]
        for r0 in range(0, n, plan.block_rows):
            block = Block(sliced(chunk, r0, min(n, r0 + plan.block_rows)), rows.start + r0, plan.u_ref)
            summaries = merge(summaries, map_block(block, plan.claims))
            for q in plan.quantities:
                if q in failed:
                    continue
                try:
                    accumulators[q].add(QUANTITIES[q](block))
                except Exception:  # the claims that use it fail in their own summary
                    failed.add(q)
    quantities = {q: None if q in failed else acc.result() for q, acc in accumulators.items()}
    stats = TaskStats(n, read_s, time.perf_counter() - start - read_s, time.process_time() - cpu, os.getpid(), _peak_rss())
    return Pass1Result(summaries or {}, quantities, problems, stats)


def refine_task(rows: H5Rows | ArrayRows, plan: Plan, requests: dict[str, RefineRequest]) -> tuple[dict[str, RefineResult], TaskStats]:
    """A refine pass over one chunk: only the requested quantities, in the requested bins."""
    with _heap_reuse():
        return _refine(rows, plan, requests)


def _refine(rows: H5Rows | ArrayRows, plan: Plan, requests: dict[str, RefineRequest]) -> tuple[dict[str, RefineResult], TaskStats]:
    start, cpu = time.perf_counter(), time.process_time()
    chunk = rows.read(plan.layout)
    read_s = time.perf_counter() - start
    accumulators = {q: RefineAccumulator(request) for q, request in requests.items()}
    with float64(), np.errstate(all="ignore"):
        n = chunk.phi.shape[0]
        for r0 in range(0, n, plan.block_rows):
            block = Block(sliced(chunk, r0, min(n, r0 + plan.block_rows)), rows.start + r0, plan.u_ref)
            for q, acc in accumulators.items():
                acc.add(QUANTITIES[q](block))
    out = {q: acc.result() for q, acc in accumulators.items()}
    return out, TaskStats(n, read_s, time.perf_counter() - start - read_s, time.process_time() - cpu, os.getpid(), _peak_rss())


def _ordered(executor: Executor | None, fn: Callable, argsets: Iterable[tuple], window: int = WINDOW) -> Iterator[Any]:
    """fn(*args) for each argset, in order: here, or as tasks on `executor` (at most `window`
    in flight). Unfinished tasks are cancelled when the caller stops (error, Ctrl-C)."""
    if executor is None:
        for args in argsets:
            yield fn(*args)
        return
    pending: deque = deque()
    try:
        for args in argsets:
            pending.append(executor.submit(fn, *args))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


@dataclass
class PassStats:
    name: str
    seconds: float = 0.0
    read_s: float = 0.0
    compute_s: float = 0.0
    cpu_s: float = 0.0
    chunks: int = 0
    rows: int = 0

    def add(self, stats: TaskStats, peaks: dict[int, int]) -> None:
        self.read_s += stats.read_s
        self.compute_s += stats.compute_s
        self.cpu_s += stats.cpu_s
        self.chunks += 1
        self.rows += stats.rows
        peaks[stats.pid] = max(peaks.get(stats.pid, 0), stats.peak_rss)


@dataclass
class Summary:
    """The merged summaries of every claim, the quantities' quantiles, and the run's numbers."""

    summaries: dict[str, Any]
    quantiles: dict[str, np.ndarray]
    passes: list[PassStats]
    peaks: dict[int, int]
    selection_passes: dict[str, int] = field(default_factory=dict)


def summarize(layout: ExportLayout, parts: Sequence[H5Rows | ArrayRows], plan: Plan, *, executor: Executor | None = None,
              collect_budget: int = COLLECT_BUDGET, exact: bool = True, progress: Progress | None = None) -> Summary:
    """Run pass 1 and the refine passes over `parts` (chunks in order) and merge in order.
    With `exact` False, no refine pass runs: quantiles are the first level's bounded estimates."""
    total = sum(p.stop - p.start for p in parts)
    selections = {q: Selection(plan.keep, collect_budget=collect_budget, exact=exact) for q in plan.quantities}
    failed: set[str] = set()
    summaries: dict[str, Any] | None = None
    problems: dict[str, Any] | None = None
    peaks: dict[int, int] = {}
    stats = PassStats("pass 1")
    start = time.perf_counter()
    for result in _ordered(executor, pass1_task, ((p, plan) for p in parts)):
        summaries = merge(summaries, result.summaries)
        problems = merge(problems, result.problems)
        for q, level1 in result.quantities.items():
            if level1 is None:
                failed.add(q)
            elif q not in failed:
                selections[q].absorb(level1)
        stats.add(result.stats, peaks)
        if progress is not None:
            progress(stats.name, stats.rows, total)
    stats.seconds = time.perf_counter() - start
    passes = [stats]
    _raise_problems(layout, problems)
    live = {q: s for q, s in selections.items() if q not in failed}
    for selection in live.values():
        selection.start()
    while True:
        requests = {q: r for q, s in live.items() if (r := s.request()) is not None}
        if not requests:
            break
        stats = PassStats(f"pass {len(passes) + 1} (quantiles)")
        start = time.perf_counter()
        for answers, task_stats in _ordered(executor, refine_task, ((p, plan, requests) for p in parts)):
            for q, answer in answers.items():
                live[q].absorb_refine(answer)
            stats.add(task_stats, peaks)
            if progress is not None:
                progress(stats.name, stats.rows, total)
        for q in requests:
            live[q].finish_refine()
        stats.seconds = time.perf_counter() - start
        passes.append(stats)
    quantiles = {q: s.quantiles() for q, s in live.items()}
    return Summary(summaries or {}, quantiles, passes, peaks, {q: s.passes for q, s in live.items()})


def _plan(layout: ExportLayout, claims: Sequence[str], keep: bool, u_ref: np.ndarray | None) -> Plan:
    quantities = tuple(dict.fromkeys(q for cid in claims for q in EVIDENCE_QUANTITIES[cid].values()))
    return Plan(layout, tuple(claims), quantities, keep, u_ref, max(1, BLOCK_PAIRS // layout.K))


def _u_ref(export: GateExport) -> np.ndarray | None:
    if export.u is None:
        return None
    flat = int(np.flatnonzero(export.valid_mask.reshape(-1))[0])
    return export.u.reshape(-1, export.u.shape[-1])[flat].astype(np.float64)


def summarize_export(export: GateExport, claims: Sequence[str], *, keep_all: int = KEEP_ALL) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(summaries, quantiles) of an export in memory: one chunk, here."""
    layout = layout_of(export)
    plan = _plan(layout, claims, layout.pairs <= keep_all, _u_ref(export))
    rows = layout.pairs // layout.K
    summary = summarize(layout, [rows_of(export, 0, rows)], plan)
    return summary.summaries, summary.quantiles


@dataclass
class FileAudit:
    """An audited file: its layout, the seven claims (checks return the finished outcomes),
    and the run's numbers (`bench`: seconds, read and compute time per pass, peak memory)."""

    layout: ExportLayout
    claims: list
    bench: dict[str, Any]
    in_memory: bool
    valid_pairs: int


def _first_valid_u(path: str, layout: ExportLayout, rows: int, step: int) -> np.ndarray:
    """u at the first valid pair of an HDF5 export (audit.gate_variation's reference input)."""
    first = None
    if layout.valid is None:
        first = 0
    else:
        for start in range(0, rows, step):
            valid = H5Rows(path, start, min(rows, start + step)).arrays(layout, ("valid",))["valid"]
            hits = np.flatnonzero(valid.reshape(-1) != 0)
            if hits.size:
                first = start * layout.K + int(hits[0])
                break
    if first is None:
        raise no_valid_error(layout.source)
    row = first // layout.K
    u = H5Rows(path, row, row + 1).arrays(layout, ("u",))["u"]
    return u.reshape(-1, u.shape[-1])[first - row * layout.K].astype(np.float64)


def audit_file(path: str | os.PathLike, *, sharp_threshold: float = DEFAULT_SHARP_THRESHOLD, executor: Executor | None = None,
               chunk_pairs: int | None = None, quantiles: str = "exact", keep_all: int = KEEP_ALL,
               collect_budget: int = COLLECT_BUDGET, progress: Progress | None = None) -> FileAudit:
    """Audit a gate export file (module docstring): the seven claims with their outcomes.

    `chunk_pairs` sets the pairs per chunk (task), rounded down to whole rows; by default a
    chunk holds about `DEFAULT_CHUNK_BYTES` of the stored arrays. `quantiles` is "exact"
    (default) or "bounded" (exports above `keep_all` pairs: one pass, each quantile within
    a relative 2**-9 of the exact one; nacverify.audit.gates.quantiles). `keep_all` and
    `collect_budget` tune the exact quantiles; neither changes a result, only time and
    memory, and neither does the chunk size nor the executor."""
    if quantiles not in QUANTILE_MODES:
        raise BadInput(f"quantiles must be one of {', '.join(QUANTILE_MODES)}, got {quantiles!r}")
    wall = time.perf_counter()
    load = os.getloadavg()
    found = read_layout(path)
    in_memory = isinstance(found, GateExport)
    layout = layout_of(found)
    rows = layout.pairs // layout.K
    step = chunk_rows(layout, chunk_pairs, DEFAULT_CHUNK_BYTES)
    bounds = [(s, min(rows, s + step)) for s in range(0, rows, step)]
    if in_memory:
        parts = [rows_of(found, s, e) for s, e in bounds]
        u_ref = _u_ref(found)
    else:
        where = str(Path(path).resolve())
        parts = [H5Rows(where, s, e) for s, e in bounds]
        u_ref = None if layout.u is None else _first_valid_u(where, layout, rows, step)
    reasons = applicability(layout, rows_with_two_keys=True)  # sharpness's rows are counted in pass 1
    mapped = [cid for cid in CLAIM_IDS if reasons[cid] is None]
    plan = _plan(layout, mapped, layout.pairs <= keep_all, u_ref)
    summary = summarize(layout, parts, plan, executor=executor, collect_budget=collect_budget, exact=quantiles == "exact",
                        progress=progress)
    claims = claims_from_summaries(layout, summary.summaries, summary.quantiles, sharp_threshold=sharp_threshold)
    seconds = time.perf_counter() - wall
    bench = {
        "pairs": layout.pairs,
        "rows": rows,
        "chunk_rows": step,
        "chunk_pairs": step * layout.K,
        "chunks": len(parts),
        "block_pairs": plan.block_rows * layout.K,
        "read_whole": in_memory,
        "quantiles": "exact (keep-all)" if plan.keep else ("exact (radix selection)" if quantiles == "exact" else
                                                          f"bounded (relative error <= {BOUND:g})"),
        "passes": len(summary.passes),
        "quantile_passes": {q: n for q, n in summary.selection_passes.items()},  # passes each quantity's selection needed
        "seconds": seconds,
        "pairs_per_second": layout.pairs / seconds if seconds > 0 else float("inf"),
        "file_bytes": Path(path).stat().st_size,
        "loadavg_start": np.asarray(load),
        "loadavg_end": np.asarray(os.getloadavg()),
        "driver_peak_rss_bytes": _peak_rss(),
        "task_processes": len(summary.peaks),
        "task_peak_rss_bytes": np.asarray(sorted(summary.peaks.values()), dtype=np.int64),
        "executor": "none (serial, this process)" if executor is None else type(executor).__name__,
    }
    for i, p in enumerate(summary.passes, 1):
        bench[f"pass{i}"] = {"name": p.name, "seconds": p.seconds, "read_s": p.read_s, "compute_s": p.compute_s, "cpu_s": p.cpu_s,
                             "chunks": p.chunks, "rows": p.rows}
    counted = summary.summaries.get("audit.omega_positive")
    valid_pairs = counted["valid"] if isinstance(counted, dict) else -1
    return FileAudit(layout, claims, bench, in_memory, valid_pairs)


def audit_claims(export: GateExport, *, sharp_threshold: float = DEFAULT_SHARP_THRESHOLD) -> list[Claim]:
    """The seven audit claims bound to one export in memory, with their default expected
    verdicts. The export is summarised once, when the first claim is checked (serially,
    in this process; `nacverify.audit.audit_file` reads a file chunk by chunk and can use
    an executor)."""
    _check_threshold(sharp_threshold)
    reasons = applicability(export)
    memo: dict[str, Any] = {}

    def outcome(cid: str) -> Outcome:
        if "done" not in memo:
            memo["done"] = summarize_export(export, [c for c in CLAIM_IDS if reasons[c] is None])
        summaries, quantiles = memo["done"]
        return _outcome(export, summaries, quantiles, cid, sharp_threshold)

    return _claims(export, reasons, outcome, sharp_threshold)
