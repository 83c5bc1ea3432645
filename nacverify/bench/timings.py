r"""Timings and memory of the JAX NAC model and its baselines (`nacverify bench`).

Protocol per configuration (one jitted forward pass on a seeded input, float32):

* **compile time**: ``jax.jit(f).lower(params, x).compile()`` wall time;
* one warm-up call, then ``repeats`` (>= 10) timed calls, each ending in
  ``jax.block_until_ready``; median, p10 and p90 of the wall times; throughput = batch / median
  (sequences/s); ``--batch B1,B2,...`` times every row at each batch size (`batched`);
* **work of one call**: ``flops`` and ``bytes_accessed`` from XLA's cost analysis
  (`nacverify.compute.xla_cost.cpu_cost_analysis`). The FLOP count is the program's, counted on its CPU
  lowering (before backend-specific fusion), so it is the same number on every backend; the bytes
  are those the unfused program's operations read and write, from memory or cache (so their rate
  can exceed the memory bandwidth when the data fit in cache). Achieved rates = count / median
  seconds, and their fractions of the device's peak (`nacverify.bench.peaks`: where each peak
  figure comes from; null where the peak is unknown);
* **peak memory**: XLA's buffer assignment of the compiled executable,
  ``compiled.memory_analysis()``: temp + argument + output bytes, i.e. the largest set of
  buffers the executable can hold live at once (generated code excluded). This is the same
  number on every backend and does not depend on other processes. On a GPU the backend's
  own ``device.memory_stats()`` are recorded as well: ``peak_bytes_in_use`` is a process-lifetime
  high-water mark, so when it rises during a configuration its excess over the bytes in use
  before that configuration is recorded as ``device_peak_bytes_this_config``;
* the device description and library versions go into the report.

Suites: ``paper`` (seed 000 D.4 / seed 001 Table 2 protocol: T = 1024, d_model 64, 4 heads,
batch 1, topk 8, sparsity 0.5; modes, Top-K and sparsity ablations, PW, FC, baselines),
``ablations`` (backbone variants and heads), ``scaling`` (T = 256 ... 16384 for exact Top-K,
block Top-K and PW over all queries, fitted exponents of time and memory in T, recall@K of
block against exact Top-K).

NAC rows without ``-seq`` use the layer's default ``return_sequences=False``: only the last
query is attended (the model never computes what it does not return). ``-seq`` rows attend
every query, as the baselines do.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..compute.environment import device_description, library_versions
from ..compute.xla_cost import cpu_cost_analysis
from ..errors import BadInput
from ..model import NAC
from ..model.baselines import MHA, SDPA, LocalityAttention, LTCLayer, SparseTopkRNN
from ..model.curation import block_layout, block_topk, exact_topk, recall_at_k

__all__ = [
    "BenchConfig",
    "BenchRecord",
    "ScalingFit",
    "SUITES",
    "paper_suite",
    "ablation_suite",
    "scaling_suite",
    "measure",
    "fit_exponent",
    "scaling_fits",
    "block_recall",
    "records_section",
    "parse_batches",
    "batched",
    "achieved",
    "MEMORY_METHOD",
    "TARGETS",
]

SUITES = ("paper", "scaling", "ablations", "all")
SCALING_T = (256, 512, 1024, 2048, 4096, 8192, 16384)
MIN_REPEATS = 10
MEMORY_METHOD = "XLA compiled memory analysis: temp + argument + output bytes of the jitted forward pass"
COST_METHOD = "XLA cost analysis of one call lowered for the CPU (nacverify.compute.xla_cost): the program's FLOPs and bytes accessed"
TARGETS = {
    "paper_exact_median_ms": 5.0,
    "pw_1024_peak_mb": 50.0,
    "block_time_exponent": 1.6,
}


PARITY_CLAIM = "nac.model.reference_parity"  # the claim proving the reference rows equal to the public layer


@dataclass(frozen=True)
class BenchConfig:
    """One timed configuration: a model kind, its options and the input size."""

    name: str
    kind: str  # "nac" or a baseline name
    T: int
    d_model: int = 64
    heads: int = 4
    batch: int = 1
    options: tuple[tuple[str, Any], ...] = ()
    suite: str = "paper"
    group: str = ""  # e.g. the curation of a scaling row
    batch_in_name: bool = False  # rows of a --batch run: the report and tables name them <name>@b<batch>

    @property
    def label(self) -> str:
        """The row's name in tables and reports: `name`, or ``<name>@b<batch>`` in a ``--batch`` run."""
        return f"{self.name}@b{self.batch}" if self.batch_in_name else self.name

    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def parity(self) -> str:
        """Whether this row computes the public layer's output: ``"proven (nac.model.reference_parity)"``
        for the `reference` backbone with the public layer's exact Top-K curation and shared head,
        ``"-"`` otherwise. Quote a speed ratio against the public layer only between proven rows."""
        o = self.opts()
        if self.kind == "nac" and o.get("backbone") == "reference" and o.get("curation", "exact") == "exact" and o.get("head", "shared") == "shared":
            return f"proven ({PARITY_CLAIM})"
        return "-"


@dataclass
class BenchRecord:
    config: BenchConfig
    compile_s: float
    times_s: np.ndarray
    peak_bytes: int
    memory: dict[str, int] = field(default_factory=dict)
    cost: dict[str, float] = field(default_factory=dict)  # flops, bytes_accessed of one call (XLA, CPU lowering)
    query_chunk: int | None = None  # a NAC row's queries per chunk on this device (nacverify.model.chunking); None otherwise
    profile: Any = None  # a NAC row's stage split (nacverify.bench.profile.StageSplit) with --profile; None otherwise

    @property
    def flops(self) -> float:
        return float(self.cost.get("flops", math.nan))

    @property
    def bytes_accessed(self) -> float:
        return float(self.cost.get("bytes_accessed", math.nan))

    @property
    def flops_per_second(self) -> float:
        """Achieved FLOP/s: the program's FLOPs of one call / median seconds."""
        return self.flops / self.median_s

    @property
    def bytes_per_second(self) -> float:
        """Achieved bytes/s: XLA's bytes accessed by one call / median seconds."""
        return self.bytes_accessed / self.median_s

    @property
    def median_s(self) -> float:
        return float(np.median(self.times_s))

    @property
    def p10_s(self) -> float:
        return float(np.percentile(self.times_s, 10))

    @property
    def p90_s(self) -> float:
        return float(np.percentile(self.times_s, 90))

    @property
    def throughput(self) -> float:
        return self.config.batch / self.median_s

    @property
    def peak_mb(self) -> float:
        return self.peak_bytes / 2**20


# ----------------------------------------------------------------------------- suites


def _nac(name, T, suite="paper", group="", **options) -> BenchConfig:
    return BenchConfig(name, "nac", T, options=tuple(sorted(options.items())), suite=suite, group=group)


def paper_suite(T: int = 1024) -> list[BenchConfig]:
    """The runtime table's rows (seed 000 Table 5 / seed 001 Table 2) plus the baselines."""
    rows = [
        _nac("NAC-Exact/05s/8k", T, mode="exact"),
        _nac("NAC-Euler", T, mode="euler"),
        _nac("NAC-Steady", T, mode="steady"),
        _nac("NAC-2k", T, topk=2),
        _nac("NAC-32k", T, topk=32),
        _nac("NAC-PW", T, curation="pairwise"),
        _nac("NAC-FC", T, backbone="fc"),
        _nac("NAC-02s", T, sparsity=0.2),
        _nac("NAC-09s", T, sparsity=0.9),
        _nac("NAC-reference", T, backbone="reference"),
        _nac("NAC-Exact-seq", T, return_sequences=True),
        _nac("NAC-Block-seq", T, curation="block", return_sequences=True),
        _nac("NAC-PW-seq", T, curation="pairwise", return_sequences=True),
    ]
    rows += [
        BenchConfig("Attention (SDPA)", "sdpa", T),
        BenchConfig("MHA", "mha", T),
        BenchConfig("LTC (fused solver)", "ltc", T),
        BenchConfig("Locality attention", "locality", T),
        BenchConfig("Sparse top-k RNN", "sparse_topk", T),
    ]
    return rows


def ablation_suite(T: int = 1024) -> list[BenchConfig]:
    """Backbone variants x heads (all queries, exact mode), and a nonlinear circuit."""
    rows = []
    for backbone in ("reference", "circuit", "fc"):
        for head in ("shared", "split"):
            rows.append(_nac(f"{backbone}-{head}-seq", T, "ablations", backbone=backbone, head=head, return_sequences=True))
    rows.append(_nac("circuit-tanh-seq", T, "ablations", activation="tanh", return_sequences=True))
    return rows


def scaling_suite(max_T: int = 16384, min_T: int = 256) -> list[BenchConfig]:
    """Exact Top-K, block Top-K and PW over all queries for T = min_T, 2 min_T, ..., max_T."""
    Ts = []
    t = min_T
    while t <= max_T:
        Ts.append(t)
        t *= 2
    rows = []
    for curation in ("exact", "block", "pairwise"):
        for t in Ts:
            rows.append(_nac(f"{curation}-T{t}", t, "scaling", curation, curation=curation, return_sequences=True))
    return rows


def parse_batches(text: str) -> tuple[int, ...]:
    """The batch sizes of ``--batch``: comma-separated positive integers, none repeated."""
    parts = [p.strip() for p in text.split(",")]
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise BadInput(f"--batch must be comma-separated positive integers, e.g. 1,16,128; got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise BadInput(f"--batch must be comma-separated positive integers, e.g. 1,16,128; got {text!r}")
    if len(set(values)) != len(values):
        raise BadInput(f"--batch repeats a batch size: {text!r}")
    return values


def batched(configs: Iterable[BenchConfig], batches: Iterable[int]) -> list[BenchConfig]:
    """Every configuration at each batch size (configuration-major), named ``<name>@b<batch>``."""
    return [replace(c, batch=int(b), batch_in_name=True) for c in configs for b in batches]


def suite_configs(suite: str, *, T: int = 1024, max_T: int = 16384, min_T: int = 256, only: Iterable[str] | None = None,
                  batches: Iterable[int] | None = None) -> list[BenchConfig]:
    """The configurations of a suite, optionally filtered by glob patterns on their names; with
    `batches`, each at every batch size (`batched`)."""
    if suite not in SUITES:
        raise BadInput(f"unknown suite {suite!r}; choose from {', '.join(SUITES)}")
    out: list[BenchConfig] = []
    if suite in ("paper", "all"):
        out += paper_suite(T)
    if suite in ("ablations", "all"):
        out += ablation_suite(T)
    if suite in ("scaling", "all"):
        out += scaling_suite(max_T, min_T)
    pats = list(only or [])
    if pats:
        out = [c for c in out if any(fnmatch.fnmatchcase(c.name, p) for p in pats)]
        if not out:
            raise BadInput(f"--only {' '.join(pats)} matches no configuration of suite {suite!r}")
    return batched(out, batches) if batches is not None else out


# ----------------------------------------------------------------------------- building and timing


def build(config: BenchConfig, seed: int = 0, dtype=jnp.float32) -> eqx.Module:
    key = jax.random.PRNGKey(seed)
    d, h = config.d_model, config.heads
    if config.kind == "nac":
        return NAC(d, h, key=key, dtype=dtype, **config.opts())
    if config.kind == "sdpa":
        return SDPA(d, key=key, dtype=dtype)
    if config.kind == "mha":
        return MHA(d, h, key=key, dtype=dtype)
    if config.kind == "ltc":
        return LTCLayer(d, d, key=key, seed=seed, dtype=dtype)
    if config.kind == "locality":
        return LocalityAttention(d, 1, key=key, dtype=dtype)
    if config.kind == "sparse_topk":
        return SparseTopkRNN(d, d, 8, key=key, dtype=dtype)
    raise BadInput(f"unknown bench model kind {config.kind!r}")


def _device_peak() -> dict[str, int]:
    """The default device's bytes in use and lifetime peak ({} where the backend has no statistics)."""
    try:
        stats = jax.devices()[0].memory_stats() or {}
    except Exception:  # CPU backends may not implement memory statistics
        stats = {}
    out = {k: int(v) for k, v in stats.items() if k in ("peak_bytes_in_use", "bytes_in_use")}
    return out if len(out) == 2 else {}


def measure(config: BenchConfig, repeats: int = MIN_REPEATS, seed: int = 0, profile: bool = False) -> BenchRecord:
    """Compile, warm up and time one configuration (module docstring); with `profile`, a NAC row's
    stage split as well (`nacverify.bench.profile`, best of `repeats`)."""
    if repeats < MIN_REPEATS:
        raise BadInput(f"--repeats must be >= {MIN_REPEATS}, got {repeats}")
    before = _device_peak()
    model = build(config, seed)
    params, static = eqx.partition(model, eqx.is_array)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (config.batch, config.T, config.d_model), jnp.float32)
    fn = jax.jit(lambda p, x_: eqx.combine(p, static)(x_))
    start = time.perf_counter()
    compiled = fn.lower(params, x).compile()
    compile_s = time.perf_counter() - start
    jax.block_until_ready(compiled(params, x))  # warm-up
    times = np.empty(repeats)
    for i in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(compiled(params, x))
        times[i] = time.perf_counter() - t0
    analysis = compiled.memory_analysis()
    memory = {
        "temp_bytes": int(analysis.temp_size_in_bytes),
        "argument_bytes": int(analysis.argument_size_in_bytes),
        "output_bytes": int(analysis.output_size_in_bytes),
        "alias_bytes": int(analysis.alias_size_in_bytes),
        "generated_code_bytes": int(analysis.generated_code_size_in_bytes),
    }
    after = _device_peak()
    memory.update({f"device_{k}": v for k, v in after.items()})
    if after and before and after["peak_bytes_in_use"] > before["peak_bytes_in_use"]:
        # the backend's lifetime high-water mark rose during this configuration: its excess over
        # what was in use before is this configuration's peak (not observable when it did not rise)
        memory["device_peak_bytes_this_config"] = after["peak_bytes_in_use"] - before["bytes_in_use"]
    peak = memory["temp_bytes"] + memory["argument_bytes"] + memory["output_bytes"] - memory["alias_bytes"]
    chunk = model.chunk_for(config.batch, config.T) if isinstance(model, NAC) else None
    split = None
    if profile and isinstance(model, NAC):
        from .profile import stage_split

        split = stage_split(model, x, repeats)
    return BenchRecord(config, compile_s, times, peak, memory, call_cost(static, params, x), chunk, split)


def call_cost(static: Any, params: Any, x: jax.Array) -> dict[str, float]:
    """``flops`` and ``bytes_accessed`` of one forward call, from XLA's cost analysis of the program
    lowered for the CPU (`nacverify.compute.xla_cost`): the program's FLOP count, the same on every backend."""
    cost = cpu_cost_analysis(lambda p, x_: eqx.combine(p, static)(x_), params, x)
    return {"flops": float(cost.get("flops", math.nan)), "bytes_accessed": float(cost.get("bytes accessed", math.nan))}


# ----------------------------------------------------------------------------- scaling analysis


def fit_exponent(Ts: Iterable[float], values: Iterable[float]) -> float:
    """Least-squares slope of log(value) against log(T): value ~ T^slope."""
    Ts = np.asarray(list(Ts), float)
    values = np.asarray(list(values), float)
    if Ts.size < 2 or np.any(values <= 0):
        return float("nan")
    return float(np.polyfit(np.log(Ts), np.log(values), 1)[0])


@dataclass(frozen=True)
class ScalingFit:
    curation: str
    Ts: np.ndarray
    median_s: np.ndarray
    peak_mb: np.ndarray
    time_exponent: float
    memory_exponent: float
    time_exponent_upper: float  # over the largest half of the T values (closer to asymptotic)
    batch: int = 1
    batch_in_name: bool = False

    @property
    def label(self) -> str:
        """`curation`, or ``<curation>@b<batch>`` in a ``--batch`` run."""
        return f"{self.curation}@b{self.batch}" if self.batch_in_name else self.curation


def scaling_fits(records: list[BenchRecord]) -> list[ScalingFit]:
    """One fit per curation of the scaling suite and batch size."""
    fits = []
    scaling = [r for r in records if r.config.suite == "scaling"]
    for curation in ("exact", "block", "pairwise"):
        for batch in sorted({r.config.batch for r in scaling if r.config.group == curation}):
            rows = sorted((r for r in scaling if r.config.group == curation and r.config.batch == batch), key=lambda r: r.config.T)
            Ts = np.array([r.config.T for r in rows], float)
            med = np.array([r.median_s for r in rows])
            mem = np.array([r.peak_mb for r in rows])
            half = max(2, len(rows) // 2 + (len(rows) % 2))
            fits.append(ScalingFit(curation, Ts, med, mem, fit_exponent(Ts, med), fit_exponent(Ts, mem), fit_exponent(Ts[-half:], med[-half:]),
                                   batch, any(r.config.batch_in_name for r in rows)))
    return fits


RECALL_INPUTS = ("gaussian", "smooth")
RECALL_INPUT_TEXT = {
    "gaussian": "i.i.d. N(0, 1) tokens (no locality: the worst case for block centroids)",
    "smooth": "Gaussian random walk normalised to unit variance (neighbouring tokens alike)",
}


def recall_input(kind: str, T: int, d_model: int, seed: int) -> jax.Array:
    """Inputs of the recall measurement: ``gaussian`` i.i.d. N(0, 1) tokens (no locality: the
    worst case for block centroids); ``smooth``: a Gaussian random walk normalised to unit
    variance (neighbouring tokens alike, so block centroids are informative)."""
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (1, T, d_model), jnp.float32)
    if kind == "gaussian":
        return x
    if kind == "smooth":
        w = jnp.cumsum(x, axis=1)
        return (w - w.mean(axis=1, keepdims=True)) / (w.std(axis=1, keepdims=True) + 1e-6)
    raise BadInput(f"unknown recall input {kind!r}")


def block_recall(T: int, *, kind: str = "gaussian", topk: int = 8, d_model: int = 64, heads: int = 4, seed: int = 0, queries: int = 512) -> float:
    """recall@K of block Top-K against exact Top-K on the model's own q, k (circuit, seeded
    input of `kind`), over `queries` evenly spaced queries of every head."""
    model = NAC(d_model, heads, key=jax.random.PRNGKey(seed), dtype=jnp.float32)
    x = recall_input(kind, T, d_model, seed)

    @jax.jit
    def run(x):
        qh = model._heads(model._project(model.q_proj, x, False))
        kh = model._heads(model._project(model.k_proj, x, False))
        pick = jnp.asarray(np.linspace(0, T - 1, min(queries, T)).astype(np.int32))
        q = qh[:, :, pick]
        exact = exact_topk(q, kh, topk).indices
        approx = block_topk(q, block_layout(kh, topk)).indices
        return recall_at_k(approx, exact)

    return float(run(x))


# ----------------------------------------------------------------------------- report sections


def _safe(name: str) -> str:
    return name.replace("/", "_").replace(" ", "_").replace("(", "").replace(")", "")


def _fraction(value: float, peak: Any) -> float | None:
    return value / float(peak) if isinstance(peak, (int, float)) and peak > 0 and math.isfinite(value) else None


def achieved(r: BenchRecord, peak: dict[str, Any] | None = None) -> dict[str, Any]:
    """One call's FLOPs and bytes accessed (XLA, CPU lowering), the achieved rates (count / median
    seconds) and their fractions of `peak`'s ``peak_flops_per_second`` / ``peak_bytes_per_second``
    (None where a peak is unknown)."""
    peak = peak or {}
    return {
        "flops": r.flops,
        "bytes_accessed": r.bytes_accessed,
        "achieved_flops_per_second": r.flops_per_second,
        "achieved_bytes_per_second": r.bytes_per_second,
        "peak_fraction_flops_per_second": _fraction(r.flops_per_second, peak.get("peak_flops_per_second")),
        "peak_fraction_bytes_per_second": _fraction(r.bytes_per_second, peak.get("peak_bytes_per_second")),
    }


def record_section(r: BenchRecord, peak: dict[str, Any] | None = None) -> dict[str, Any]:
    c = r.config
    return {
        "name": c.name,
        "kind": c.kind,
        "T": c.T,
        "d_model": c.d_model,
        "heads": c.heads,
        "batch": c.batch,
        "options": {k: v for k, v in c.options} or "defaults",
        "parity": c.parity,
        "compile_s": r.compile_s,
        "times_s": np.asarray(r.times_s),
        "repeats": int(r.times_s.size),
        "median_s": r.median_s,
        "p10_s": r.p10_s,
        "p90_s": r.p90_s,
        "throughput_seq_per_s": r.throughput,
        "peak_memory_mb": r.peak_mb,
        "memory_method": MEMORY_METHOD,
        "memory": dict(r.memory),
        "cost_method": COST_METHOD,
        **({"query_chunk": int(r.query_chunk)} if r.query_chunk is not None else {}),
        **achieved(r, peak),
    }


def environment_section() -> dict[str, Any]:
    versions = library_versions()
    try:
        versions["ncps"] = importlib.metadata.version("ncps")
    except importlib.metadata.PackageNotFoundError:
        versions["ncps"] = "not installed"
    return {"device": device_description(), "library_versions": versions, "backend": jax.default_backend(), "dtype": "float32", "memory_method": MEMORY_METHOD}


def records_section(records: list[BenchRecord], fits: list[ScalingFit], recalls: dict[tuple[str, int], float],
                    peak: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """`Report.sections` entries: bench/environment, bench/device_peak (with `peak`: the device's peaks
    and their sources, `nacverify.bench.peaks.device_peak`), bench/<suite>/<row> (rows named by
    `BenchConfig.label`), bench/profile/<row> (a NAC row's stage split, with ``--profile``),
    bench/scaling/fits/<curation>[@b<batch>], bench/scaling/recall."""
    sections: dict[str, dict[str, Any]] = {"bench/environment": environment_section()}
    if peak is not None:
        sections["bench/device_peak"] = dict(peak)
    for r in records:
        sections[f"bench/{r.config.suite}/{_safe(r.config.label)}"] = record_section(r, peak)
        if r.profile is not None:
            sections[f"bench/profile/{_safe(r.config.label)}"] = {"suite": r.config.suite, "batch": r.config.batch, **r.profile.section()}
    for f in fits:
        sections[f"bench/scaling/fits/{f.label}"] = {
            "T": f.Ts,
            "median_s": f.median_s,
            "peak_memory_mb": f.peak_mb,
            "time_exponent": f.time_exponent,
            "time_exponent_upper_half": f.time_exponent_upper,
            "memory_exponent": f.memory_exponent,
            "batch": f.batch,
        }
    for kind in RECALL_INPUTS:
        Ts = sorted(t for k, t in recalls if k == kind)
        if Ts:
            sections[f"bench/scaling/recall/{kind}"] = {
                "T": np.asarray(Ts, float),
                "recall_at_k": np.asarray([recalls[(kind, t)] for t in Ts]),
                "k": 8,
                "method": "block Top-K (seed 000 Algorithm 2) against exact Top-K on the circuit model's q/k, 512 evenly spaced queries x 4 heads",
                "input": RECALL_INPUT_TEXT[kind],
            }
    return sections


def targets(records: list[BenchRecord], fits: list[ScalingFit]) -> list[tuple[str, float, float, bool]]:
    """(target, measured, limit, met) for the issue's CPU targets that the run measured (at batch 1)."""
    out = []
    by_name = {r.config.name: r for r in records if r.config.batch == 1}
    r = by_name.get("NAC-Exact/05s/8k")
    if r is not None and r.config.T == 1024:
        out.append(("paper config, exact mode, median forward (ms)", r.median_s * 1e3, TARGETS["paper_exact_median_ms"], r.median_s * 1e3 <= TARGETS["paper_exact_median_ms"]))
    for name in ("NAC-PW", "NAC-PW-seq"):
        r = by_name.get(name)
        if r is not None and r.config.T == 1024:
            out.append((f"{name} at T=1024, peak memory (MB)", r.peak_mb, TARGETS["pw_1024_peak_mb"], r.peak_mb <= TARGETS["pw_1024_peak_mb"]))
    for f in fits:
        if f.curation == "block" and f.batch == 1:
            out.append((f"block Top-K time exponent, T={int(f.Ts[0])}..{int(f.Ts[-1])}", f.time_exponent, TARGETS["block_time_exponent"], f.time_exponent <= TARGETS["block_time_exponent"]))
    return out


Progress = Callable[[BenchConfig], None]
