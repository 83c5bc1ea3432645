"""`nacverify bench`: protocol, scaling fits, HDF5 sections and the command (no timed asserts)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import nacverify  # noqa: F401
from nacverify.bench import timings
from nacverify.cli.app import app
from nacverify.errors import BadInput
from nacverify.report import read_report

runner = CliRunner()


def test_fit_exponent_recovers_known_powers():
    Ts = np.array([256, 512, 1024, 2048])
    assert abs(timings.fit_exponent(Ts, 3e-6 * Ts**1.5) - 1.5) < 1e-12
    assert abs(timings.fit_exponent(Ts, 7.0 * Ts**2.0) - 2.0) < 1e-12
    assert np.isnan(timings.fit_exponent([256], [1.0]))


def test_suites_contain_the_paper_rows_and_baselines():
    names = [c.name for c in timings.paper_suite()]
    for row in ("NAC-Exact/05s/8k", "NAC-Euler", "NAC-Steady", "NAC-2k", "NAC-32k", "NAC-PW", "NAC-FC", "NAC-02s", "NAC-09s"):
        assert row in names
    assert {c.kind for c in timings.paper_suite()} >= {"nac", "sdpa", "mha", "ltc", "locality", "sparse_topk"}
    assert [c.T for c in timings.scaling_suite(16384) if c.group == "block"] == [256, 512, 1024, 2048, 4096, 8192, 16384]
    with pytest.raises(BadInput):
        timings.suite_configs("paper", only=["nothing-matches"])


class _FakeClock:
    """perf_counter for timings.measure: the compile takes 2.5 s, then the timed calls take the
    given intervals (each call starts 100 s after the previous one started)."""

    def __init__(self, intervals):
        self.ticks = [0.0, 2.5]
        for i, d in enumerate(intervals):
            self.ticks += [100.0 * (i + 1), 100.0 * (i + 1) + d]
        self.calls = 0

    def perf_counter(self):
        self.calls += 1
        return self.ticks[self.calls - 1]


@pytest.mark.parametrize("kind", ["nac", "sdpa", "mha", "ltc", "locality", "sparse_topk"])
def test_measure_protocol(kind, monkeypatch):
    """With a fake clock of known ticks: ten timed calls of 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 ms give
    median 3.5 ms, p10 1 ms and p90 6.3 ms (numpy's linear rule: sorted 1 1 2 3 3 4 5 5 6 9,
    positions 0.9 and 8.1), throughput batch / median; memory from XLA's analysis: the output
    is the model's output (float32, its shape from jax.eval_shape), the arguments hold at least
    the input and at most the input and every parameter."""
    import types

    import equinox as eqx
    import jax
    import jax.numpy as jnp

    intervals = [3e-3, 1e-3, 4e-3, 1e-3, 5e-3, 9e-3, 2e-3, 6e-3, 5e-3, 3e-3]
    clock = _FakeClock(intervals)
    monkeypatch.setattr(timings, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    cfg = timings.BenchConfig(f"tiny-{kind}", kind, 16, d_model=8, heads=2)
    rec = timings.measure(cfg, repeats=10)
    assert clock.calls == 2 + 2 * 10
    assert rec.compile_s == 2.5
    np.testing.assert_allclose(rec.times_s, intervals, rtol=0, atol=1e-12)
    assert rec.median_s == pytest.approx(3.5e-3, abs=1e-12)
    assert rec.p10_s == pytest.approx(1e-3, abs=1e-12) and rec.p90_s == pytest.approx(6.3e-3, abs=1e-12)
    assert rec.throughput == pytest.approx(cfg.batch / 3.5e-3)
    # one call's work from XLA's cost analysis on the CPU lowering, achieved rates over the fake median
    from nacverify.compute.xla_cost import cpu_cost_analysis

    params, static = eqx.partition(timings.build(cfg, 0), eqx.is_array)
    xs = jax.ShapeDtypeStruct((cfg.batch, cfg.T, cfg.d_model), jnp.float32)
    cost = cpu_cost_analysis(lambda p, x_: eqx.combine(p, static)(x_), params, xs)
    assert rec.flops == cost["flops"] > 0 and rec.bytes_accessed == cost["bytes accessed"] > 0
    assert rec.flops_per_second == pytest.approx(cost["flops"] / 3.5e-3, rel=1e-9) and rec.flops_per_second == rec.flops / rec.median_s
    assert rec.bytes_per_second == pytest.approx(cost["bytes accessed"] / 3.5e-3, rel=1e-9)
    model = timings.build(cfg, 0)
    x = jax.ShapeDtypeStruct((cfg.batch, cfg.T, cfg.d_model), jnp.float32)
    out = jax.eval_shape(lambda m, xx: m(xx), model, x)
    out_bytes = sum(int(np.prod(o.shape)) * o.dtype.itemsize for o in jax.tree_util.tree_leaves(out))
    param_bytes = sum(int(leaf.nbytes) for leaf in jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_array)))
    in_bytes = cfg.batch * 16 * 8 * 4
    m = rec.memory
    assert m["output_bytes"] == out_bytes
    assert in_bytes <= m["argument_bytes"] <= in_bytes + param_bytes
    assert rec.peak_bytes >= in_bytes + out_bytes


def test_measure_rejects_few_repeats():
    with pytest.raises(BadInput):
        timings.measure(timings.BenchConfig("x", "nac", 8, d_model=8, heads=2), repeats=3)


def test_memory_analysis_sees_a_larger_problem():
    small = timings.measure(timings.BenchConfig("s", "mha", 32, d_model=8, heads=2), repeats=10)
    large = timings.measure(timings.BenchConfig("l", "mha", 256, d_model=8, heads=2), repeats=10)
    assert large.peak_bytes > 4 * small.peak_bytes  # attention scores grow as T^2


def test_block_recall_is_a_fraction():
    r = timings.block_recall(64, d_model=8, heads=2, queries=16)
    assert 0.0 <= r <= 1.0
    # with T = 16 and topk 8: Bs = 4, M = 2 blocks, 8 candidates = exactly the top-8 only if the
    # two best blocks hold them; recall of a full cover (topk >= T) is 1
    assert timings.block_recall(16, topk=16, d_model=8, heads=2) == 1.0


def test_bench_command_writes_hdf5(tmp_path):
    out = tmp_path / "b.h5"
    res = runner.invoke(app, ["bench", "--suite", "scaling", "--min-T", "16", "--max-T", "32", "--only", "block-*", "--only", "exact-T16", "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = read_report(out)
    sec = data.sections["bench"]
    assert "block-T16" in sec["scaling"] and "block-T32" in sec["scaling"] and "exact-T16" in sec["scaling"]
    row = sec["scaling"]["block-T32"]
    assert row["repeats"] == 10 and row["times_s"].shape == (10,) and row["peak_memory_mb"] > 0
    assert "memory analysis" in row["memory_method"]
    assert sec["scaling"]["fits"]["block"]["T"].tolist() == [16.0, 32.0]
    assert sec["scaling"]["recall"]["gaussian"]["recall_at_k"].shape == (2,)
    assert "device" in sec["environment"] and "jax" in sec["environment"]["library_versions"]
    assert "time p" in res.output and "recall@8" in res.output
    again = runner.invoke(app, ["bench", "--suite", "scaling", "--min-T", "16", "--max-T", "16", "--only", "exact-*", "--out", str(out)])
    assert again.exit_code == 2  # exists without --force


@pytest.mark.parametrize("args", [["--repeats", "3"], ["--T", "4"], ["--min-T", "64", "--max-T", "32"], ["--suite", "nope"], ["--only", "zzz"]])
def test_bench_bad_input_exits_2(tmp_path, args):
    res = runner.invoke(app, ["bench", *args, "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2


# Fields of NACConfig that decide what a layer computes; the others are sizes, the ODE mode
# (the parity claim covers exact, euler and steady) or how results are returned.
STRUCTURAL = ("curation", "backbone", "head", "activation", "output_activation", "circuit_steps")
NOT_STRUCTURAL = ("d_model", "num_heads", "topk", "mode", "euler_steps", "delta_t", "dt", "sparsity", "tau_epsilon",
                  "return_sequences", "return_attention", "query_chunk", "wiring_seed", "topk_method")


def test_parity_column_marks_exactly_the_rows_built_as_the_loaded_public_layer():
    """A row is marked proven iff its model has the structure of the layer that `from_keras_weights`
    builds from a Keras NAC's weights (the model nac.model.reference_parity proves equal to the public
    layer): compared field by field with the loader's own configuration, not with the `parity` rule."""
    import dataclasses

    import jax

    from nacverify.model import NAC, from_keras_weights
    from nacverify.model.nac import NACConfig
    from test_reference_parity import _keras_names

    assert set(STRUCTURAL) | set(NOT_STRUCTURAL) == {f.name for f in dataclasses.fields(NACConfig)}
    w, cfg = _keras_names(NAC(16, 2, key=jax.random.PRNGKey(0), backbone="reference"))
    loaded = {mode: from_keras_weights(w, cfg, mode=mode).config for mode in ("exact", "euler", "steady")}
    rows = [c for c in timings.suite_configs("all", max_T=512) if c.kind == "nac"]
    proven = []
    for row in rows:
        mine = NACConfig(16, 2, **row.opts())
        same = all(getattr(mine, f) == getattr(loaded[mine.mode], f) for f in STRUCTURAL)
        assert (row.parity != "-") == same, (row.name, row.parity)
        if same:
            proven.append(row.name)
    assert "NAC-reference" in proven and "reference-shared-seq" in proven and "NAC-Exact/05s/8k" not in proven
    assert all(c.parity == "-" for c in timings.suite_configs("paper") if c.kind != "nac")


# ----------------------------------------------------------------------------- --batch, achieved rates, peaks


@pytest.mark.parametrize(("text", "batches"), [("1", (1,)), ("1,16,128", (1, 16, 128)), (" 4 , 2 ", (4, 2))])
def test_parse_batches(text, batches):
    assert timings.parse_batches(text) == batches


@pytest.mark.parametrize("text", ["", "0", "-1", "1,,2", "a", "1.5", "2,2", "16;32"])
def test_parse_batches_refuses(text):
    with pytest.raises(BadInput):
        timings.parse_batches(text)


@pytest.mark.parametrize("value", ["0", "x", "1,1", "1,-4"])
def test_bench_bad_batch_exits_2_in_one_line(tmp_path, value):
    res = runner.invoke(app, ["bench", "--batch", value, "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--batch" in lines[0], res.output
    assert not (tmp_path / "x.h5").exists()


@pytest.mark.parametrize("mode", ["--check-scaling", "--sweep-bench", "--ltc-audit"])
def test_bench_batch_is_refused_where_it_would_do_nothing(tmp_path, mode):
    res = runner.invoke(app, ["bench", mode, "--batch", "1,16", "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--batch" in lines[0] and mode in lines[0], res.output
    assert not (tmp_path / "x.h5").exists()


def test_batched_configs_keep_their_names_and_gain_a_label():
    plain = timings.suite_configs("paper", only=["NAC-PW"])
    assert [(c.label, c.batch) for c in plain] == [("NAC-PW", 1)]
    rows = timings.suite_configs("paper", only=["NAC-PW", "MHA"], batches=(1, 16))
    assert [(c.name, c.label, c.batch) for c in rows] == [
        ("NAC-PW", "NAC-PW@b1", 1), ("NAC-PW", "NAC-PW@b16", 16), ("MHA", "MHA@b1", 1), ("MHA", "MHA@b16", 16)]


def _record(name, batch, times, flops, nbytes, *, tagged=True, suite="paper", T=1024):
    cfg = timings.BenchConfig(name, "mha", T, batch=batch, suite=suite, batch_in_name=tagged, group="block" if suite == "scaling" else "")
    return timings.BenchRecord(cfg, 1.0, np.asarray(times, float), 2**20, {}, {"flops": flops, "bytes_accessed": nbytes})


def test_achieved_rates_and_peak_fractions_by_hand():
    """median of 2, 4, 6 ms = 4 ms; 8e6 FLOP / 4 ms = 2e9 FLOP/s, a fraction 0.2 of a 1e10 peak;
    3e6 bytes / 4 ms = 7.5e8 B/s; an unknown bandwidth peak gives None; throughput 16 / 4 ms."""
    r = _record("MHA", 16, [2e-3, 6e-3, 4e-3], 8e6, 3e6)
    a = timings.achieved(r, {"peak_flops_per_second": 1e10, "peak_bytes_per_second": None})
    assert a["flops"] == 8e6 and a["bytes_accessed"] == 3e6
    assert a["achieved_flops_per_second"] == pytest.approx(2e9, rel=1e-12)
    assert a["achieved_bytes_per_second"] == pytest.approx(7.5e8, rel=1e-12)
    assert a["peak_fraction_flops_per_second"] == pytest.approx(0.2, rel=1e-12)
    assert a["peak_fraction_bytes_per_second"] is None
    assert r.throughput == pytest.approx(4000.0)
    assert timings.achieved(r)["peak_fraction_flops_per_second"] is None


def test_records_at_two_batches_have_distinct_rows_and_fits():
    recs = [_record("MHA", b, [1e-3 * b] * 10, 1e6 * b, 1e5 * b) for b in (1, 16)]
    recs += [_record(f"block-T{t}", b, [1e-6 * t * b] * 10, 1.0, 1.0, suite="scaling", T=t) for b in (1, 16) for t in (16, 32)]
    fits = timings.scaling_fits(recs)
    assert [(f.label, f.batch) for f in fits] == [("block@b1", 1), ("block@b16", 16)]
    assert all(f.time_exponent == pytest.approx(1.0) for f in fits)
    peak = {"machine": "cpu: 2 cores, X", "peak_flops_per_second": 1e12, "peak_bytes_per_second": 1e10}
    sec = timings.records_section(recs, fits, {}, peak)
    assert sec["bench/paper/MHA@b1"]["batch"] == 1 and sec["bench/paper/MHA@b16"]["batch"] == 16
    assert sec["bench/paper/MHA@b16"]["achieved_flops_per_second"] == pytest.approx(1.6e7 / 16e-3)
    assert sec["bench/paper/MHA@b16"]["peak_fraction_flops_per_second"] == pytest.approx(1e9 / 1e12)
    assert {"bench/scaling/block-T16@b1", "bench/scaling/block-T16@b16", "bench/scaling/fits/block@b1", "bench/scaling/fits/block@b16"} <= set(sec)
    assert sec["bench/device_peak"]["machine"] == "cpu: 2 cores, X"
    # without --batch: today's names
    untagged = [_record("MHA", 1, [1e-3] * 10, 1.0, 1.0, tagged=False)]
    assert "bench/paper/MHA" in timings.records_section(untagged, [], {})


def test_targets_use_the_batch_1_rows():
    recs = [_record("NAC-Exact/05s/8k", 1, [2e-3] * 10, 1.0, 1.0), _record("NAC-Exact/05s/8k", 16, [9e-3] * 10, 1.0, 1.0)]
    (row,) = timings.targets(recs, [])
    assert row[1] == pytest.approx(2.0) and row[3]


def test_bench_batch_command_writes_rows_per_batch_and_names_the_machine(tmp_path, monkeypatch):
    from nacverify.bench import peaks

    monkeypatch.setattr(peaks, "COPY_BYTES", 2**20)
    out = tmp_path / "b.h5"
    res = runner.invoke(app, ["bench", "--suite", "scaling", "--min-T", "16", "--max-T", "32", "--only", "block-*", "--batch", "1,2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    sec = read_report(out).sections["bench"]
    rows = sec["scaling"]
    assert {"block-T16@b1", "block-T16@b2", "block-T32@b1", "block-T32@b2"} <= set(rows)
    assert rows["block-T32@b2"]["batch"] == 2 and rows["block-T32@b1"]["batch"] == 1
    for name in ("block-T32@b1", "block-T32@b2"):
        r = rows[name]
        assert r["flops"] > 0 and r["achieved_flops_per_second"] == pytest.approx(r["flops"] / r["median_s"], rel=1e-9)
        assert r["achieved_bytes_per_second"] == pytest.approx(r["bytes_accessed"] / r["median_s"], rel=1e-9)
        assert r["throughput_seq_per_s"] == pytest.approx(r["batch"] / r["median_s"], rel=1e-9)
    assert rows["block-T32@b2"]["flops"] > rows["block-T32@b1"]["flops"]
    assert {"block@b1", "block@b2"} <= set(rows["fits"])
    peak = sec["device_peak"]
    machine = peak["machine"]
    assert machine.startswith(f"{peak['platform']}: ")
    flat = " ".join(res.output.split())
    assert f"machine: {machine}" in flat
    assert f"targets (measured on {machine};" in flat  # block@b1's exponent is a target
    if peak["platform"] == "cpu":
        assert peak["peak_flops_per_second"] > 0 and "cores x clock" in peak["peak_flops_source"]
        r = rows["block-T32@b1"]
        assert r["peak_fraction_flops_per_second"] == pytest.approx(r["achieved_flops_per_second"] / peak["peak_flops_per_second"], rel=1e-9)
    # report html shows the new columns in the bench table
    html = runner.invoke(app, ["report", "html", str(out), "--out", str(tmp_path / "html")])
    assert html.exit_code == 0, html.output
    page = (tmp_path / "html" / "index.html").read_text()
    for col in ("flops", "bytes_accessed", "achieved_flops_per_second", "achieved_bytes_per_second", "peak_fraction_flops_per_second", "block-T32@b2", "peak_flops_source"):
        assert col in page, col


@pytest.mark.parametrize("cold", [False, True])
def test_check_scaling_runs_warm_after_a_warm_up_or_cold_with_empty_caches_each(tmp_path, monkeypatch, cold):
    import json
    import math
    import subprocess
    from pathlib import Path
    from types import SimpleNamespace

    import h5py

    from nacverify.cli import bench_check

    calls = []

    def fake_run(cmd, capture_output, text, env):
        calls.append(env)
        doc = {"claims": [{"id": "a", "verdict": "holds", "seconds": 1.0}]}
        return SimpleNamespace(returncode=0, stdout=json.dumps(doc), stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(tmp_path / "users-own"))
    out = tmp_path / "scaling.h5"
    assert bench_check.check_scaling_bench(jobs=[1, 2], out=out, force=False, cold=cold).exit_code == 0
    with h5py.File(out) as f:
        attrs = dict(f["bench/check_scaling"].attrs)
    if not cold:  # the warm-up, then one run per worker count, all with the user's caches
        assert len(calls) == 3 and all(env["JAX_COMPILATION_CACHE_DIR"] == str(tmp_path / "users-own") for env in calls)
        assert attrs["caches"] == "warm" and not math.isnan(attrs["warmup_wall_s"])
        return
    assert len(calls) == 2 and attrs["caches"] == "cold" and math.isnan(attrs["warmup_wall_s"])
    folders = [[env[v] for v in bench_check.CACHE_VARIABLES] for env in calls]
    assert all("JAX_COMPILATION_CACHE_DIR" not in env for env in calls)
    assert len({f for run in folders for f in run}) == 6  # three caches per run, none shared
    cli_init = (Path(__file__).resolve().parents[1] / "cli" / "__init__.py").read_text()
    assert all(f'"{v}"' in cli_init for v in bench_check.CACHE_VARIABLES)  # the command line's own cache variables


def test_cold_caches_is_refused_without_check_scaling(tmp_path):
    res = runner.invoke(app, ["bench", "--cold-caches", "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "--cold-caches" in lines[0], res.output
    assert not (tmp_path / "x.h5").exists()


def test_plan_workers_runs_each_task_alone_and_reports_the_plans_makespan(tmp_path):
    # two cheap claims of two groups, planned for 2 workers: two tasks, each in a fresh `check --jobs 1`
    # with empty caches; on 2 workers each task has a worker of its own, so the makespan is the larger
    import h5py

    from nacverify.cli import bench_plan

    out = tmp_path / "plan.h5"
    only = ["ltc.table11.1", "nac000.table4.heads_divide"]
    assert bench_plan.plan_bench(workers=2, out=out, force=False, cold=True, only=only).exit_code == 0
    with h5py.File(out) as f:
        attrs = dict(f["bench/check_plan"].attrs)
        tasks = [dict(f["bench/check_plan"][k].attrs) for k in f["bench/check_plan"]]
    assert attrs["workers"] == 2 and attrs["tasks"] == 2 and attrs["caches"] == "cold"
    assert sorted(t["group"] for t in tasks) == ["tables", "text"] and all(t["claims"] == 1 for t in tasks)
    assert attrs["makespan_claim_s"] == pytest.approx(max(t["claim_seconds_sum"] for t in tasks))
    assert attrs["claim_seconds_sum"] == pytest.approx(sum(t["claim_seconds_sum"] for t in tasks))
    startups = sorted(t["wall_s"] - t["claim_seconds_sum"] for t in tasks)
    assert attrs["startup_s"] == pytest.approx(sum(startups) / 2) and attrs["estimate_s"] == pytest.approx(attrs["makespan_claim_s"] + attrs["startup_s"])


def test_plan_workers_refuses_a_worker_count_out_of_range_and_check_scaling_beside_it(tmp_path):
    for args in (["--plan-workers", "0"], ["--plan-workers", "2", "--check-scaling"]):
        res = runner.invoke(app, ["bench", *args, "--out", str(tmp_path / "x.h5")])
        assert res.exit_code == 2, res.output
        assert len([line for line in res.output.splitlines() if line.strip()]) == 1
    assert not (tmp_path / "x.h5").exists()


def test_report_html_bench_times_fresh_processes_and_records_the_pages(tmp_path, monkeypatch):
    """`bench --report-html F` (issue 46: report html's time is recorded by a benchmark, not asserted):
    one run with an empty catalog cache of its own, then --html-repeats runs with it filled, each a
    fresh `report html` process; /bench/report_html holds the times, the load average and the size of
    each page, which are the pages `report html` writes for F (rendered here apart). The user's own
    catalog cache is not touched."""
    import sys
    from pathlib import Path

    import h5py

    from nacverify.report import write_report
    from nacverify.report.html import render_html

    sys.path.insert(0, str(Path(__file__).parent))
    from report_samples import sample_report

    report = write_report(sample_report(sections=False), tmp_path / "r.h5")
    page = render_html(read_report(report), tmp_path / "apart").parent
    expected = {p.name: p.stat().st_size for p in page.iterdir() if p.suffix in (".html", ".css")}
    monkeypatch.setenv("NACVERIFY_CATALOG_CACHE", str(tmp_path / "users-own"))
    out = tmp_path / "bench.h5"
    res = runner.invoke(app, ["bench", "--report-html", str(report), "--html-repeats", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    with h5py.File(out) as f:
        section = f["bench/report_html"]
        attrs = dict(section.attrs)
        pages = dict(section["pages"].attrs)
        walls, cpus, loads = section["wall_s"][()], section["cpu_s"][()], section["load_average_before"][()]
    assert attrs["claims"] == len(read_report(report).claims) and attrs["report"] == str(report)
    assert len(walls) == 1 and len(cpus) == 1 and attrs["cold_wall_s"] > 0 and attrs["median_wall_s"] == walls[0] > 0
    assert 0 < cpus[0] and len(loads) == 3 and attrs["target_s"] == 5.0
    assert set(pages) == set(expected) and "index.html" in pages and "nacverify.css" in pages
    assert pages["nacverify.css"] == expected["nacverify.css"] and attrs["largest_page_bytes"] == max(pages.values())
    assert not (tmp_path / "users-own" / "claim-definitions.json").exists()  # the runs used a catalog cache of their own
    for args in (["--html-repeats", "0"], ["--check-scaling"]):
        bad = runner.invoke(app, ["bench", "--report-html", str(report), *args, "--out", str(tmp_path / "x.h5")])
        assert bad.exit_code == 2 and not (tmp_path / "x.h5").exists(), bad.output


def test_bench_profile_records_the_stage_split_of_nac_rows(tmp_path):
    out = tmp_path / "p.h5"
    res = runner.invoke(app, ["bench", "--only", "NAC-Exact-seq", "--only", "MHA", "--T", "32", "--profile", "--out", str(out)])
    assert res.exit_code == 0, res.output
    sec = read_report(out).sections["bench"]
    prof = sec["profile"]
    assert set(prof) == {"NAC-Exact-seq"}  # baselines have no stages
    p = prof["NAC-Exact-seq"]
    from nacverify.model.nac import STAGES

    assert p["stages"].split(",") == list(STAGES) and p["cumulative_ms"].shape == (len(STAGES),)
    assert p["total_ms"] == pytest.approx(p["cumulative_ms"][-1])
    assert np.sum(p["stage_ms"]) == pytest.approx(p["total_ms"]) and np.sum(p["stage_fraction"]) == pytest.approx(1.0)
    assert p["repeats"] == 10 and "truncated" in p["method"]
    flat = " ".join(res.output.split())
    assert "stage split of one call" in flat and "closed form" in flat


def test_bench_profile_is_refused_for_the_other_benches(tmp_path):
    res = runner.invoke(app, ["bench", "--sweep-bench", "--profile", "--out", str(tmp_path / "x.h5")])
    assert res.exit_code == 2 and "--profile" in res.output


def test_truncated_programs_are_the_model_s_own_stages():
    """The profile times the model's program: truncated after value_sum, then the output projection, is the call;
    truncated after output, it is the call."""
    import jax

    from nacverify.model import NAC

    model = NAC(16, 2, key=jax.random.PRNGKey(0), return_sequences=True, query_chunk=5)
    x = jax.random.normal(jax.random.PRNGKey(1), (2, 23, 16))
    full = np.asarray(model(x))
    np.testing.assert_allclose(np.asarray(model._run(x, None, None, True, False, stop="output")[0]), full, rtol=1e-6, atol=1e-6)
    heads = model._run(x, None, None, True, False, stop="value_sum")[0]
    np.testing.assert_allclose(np.asarray(model.out_proj(heads)), full, rtol=1e-5, atol=1e-6)
