"""Streaming sweeps: per-chunk draws, bounded memory, the same numbers serially, on 1 or 2
local Dask workers and on a loopback scheduler, a worker killed mid-sweep, Ctrl-C, and the
refusal of sweeps that cannot be stored.

Expectations come from outside the code under test: the serial run (for the distributed
ones), one reduction over all draws at once with numpy (for the streaming reductions),
numpy's own quantiles (for the histograms), and each run's own solver margin (across chunk
sizes).
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
from pathlib import Path

import h5py
import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.cli._cluster import cluster
from nacverify.cli.app import app
from nacverify.errors import BadInput, Interrupted
from nacverify.frozen import BOUNDS, SolveOptions, SweepSpec, bound_outcome, run_sweep, sweep_chunk, variation_bound_outcome
from nacverify.frozen._solve import MemberSummary
from nacverify.frozen._stats import Histogram, SweepStats
from nacverify.regimes import DRAW_BLOCK, sample_draws, sample_regime
from nacverify.report import read_report

N, CHUNK, SEED = 192, 64, 11  # 3 chunks of 64
runner = CliRunner()


# ------------------------------------------------------------------ helpers


def _collect(executor=None, *, name="oscillatory", n=N, chunk=CHUNK, seed=SEED, in_flight=None, threads=1):
    chunks = []
    sw = run_sweep(name, n, seed, chunk=chunk, executor=executor, on_chunk=chunks.append, in_flight=in_flight, threads=threads)
    return sw, chunks


def _concat(chunks):
    summary = MemberSummary.concat([c.summary for c in chunks])
    params = {k: np.concatenate([c.params[k] for c in chunks]) for k in chunks[0].params}
    return summary, params


def _verdicts(sw, name="oscillatory"):
    opts = SolveOptions()
    out = {b: bound_outcome(b, sw.stats, name != "step", {}, opts) for b in BOUNDS}
    out["variation"] = variation_bound_outcome(sw.stats, {})
    return {k: (o.verdict, o.message, o.evidence.scalars, o.evidence.witness) for k, o in out.items()}


def _assert_same_bits(a, b):
    """Two collected sweeps: every stored per-draw array, parameter, reduction and verdict equal, bit for bit."""
    (sw_a, ch_a), (sw_b, ch_b) = a, b
    assert [(c.index, c.start, c.count) for c in ch_a] == [(c.index, c.start, c.count) for c in ch_b]
    for ca, cb in zip(ch_a, ch_b):
        for key, value in ca.stored().items():
            assert value.tobytes() == cb.stored()[key].tobytes(), key
        for key, value in ca.params.items():
            assert value.tobytes() == cb.params[key].tobytes(), key
    assert sw_a.stats.bounds == sw_b.stats.bounds
    assert sw_a.stats.variation == sw_b.stats.variation
    assert sw_a.stats.max_solver_error == sw_b.stats.max_solver_error
    for key, h in sw_a.stats.histograms.items():
        assert h.counts.tobytes() == sw_b.stats.histograms[key].counts.tobytes()
    assert _verdicts(sw_a) == _verdicts(sw_b)


@pytest.fixture(scope="module")
def serial():
    return _collect()


@pytest.fixture(scope="module")
def scheduler_address(request):
    """A loopback scheduler with 2 worker processes: the suite's session fixture when there is
    one, else a LocalCluster of this module's own."""
    try:
        yield request.getfixturevalue("dask_scheduler_address")
        return
    except pytest.FixtureLookupError:
        pass
    from distributed import LocalCluster

    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1",
                         env={"OMP_NUM_THREADS": "1", "JAX_PLATFORMS": "cpu"})
    try:
        yield local.scheduler_address
    finally:
        local.close()


# ------------------------------------------------------------------ draws per chunk


def test_draws_depend_on_seed_and_index_alone():
    whole = sample_draws("fast", 3, 0, 3 * DRAW_BLOCK + 5)
    part = sample_draws("fast", 3, DRAW_BLOCK - 7, 2 * DRAW_BLOCK + 9)  # crosses two block edges
    for key, value in whole.params.items():
        np.testing.assert_array_equal(value[DRAW_BLOCK - 7 : 2 * DRAW_BLOCK + 9], part.params[key])
    other = sample_draws("fast", 4, 0, 10)
    assert not np.array_equal(other.params["phi0"], whole.params["phi0"][:10])
    with pytest.raises(BadInput, match="seed"):
        sample_draws("fast", -1, 0, 10)


def test_a_chunk_is_the_same_whatever_the_sweep_size():
    # chunk 1 of a 192-draw sweep and of a 10^9-draw sweep (same seed, same chunk size): the same bits.
    # (The former sweep drew all N members at once, so a chunk changed with N: this failed.)
    small, huge = SweepSpec("slow", N, SEED, CHUNK), SweepSpec("slow", 10**9, SEED, CHUNK)
    a, b = sweep_chunk(small, 1), sweep_chunk(huge, 1)
    assert (a.start, a.count) == (b.start, b.count) == (CHUNK, CHUNK)
    for key, value in a.stored().items():
        assert value.tobytes() == b.stored()[key].tobytes()
    # the last chunk of a sweep of 150 is solved full: its 22 kept draws equal those of the full chunk
    last = sweep_chunk(SweepSpec("slow", 150, SEED, CHUNK), 2)
    full = sweep_chunk(SweepSpec("slow", N, SEED, CHUNK), 2)
    assert last.count == 150 - 2 * CHUNK
    for key, value in last.stored().items():
        assert value.tobytes() == full.stored()[key][: last.count].tobytes()
    np.testing.assert_array_equal(last.params["phi0"], sample_draws("slow", SEED, 128, 150).params["phi0"])


def test_streaming_reductions_equal_one_reduction_over_all_draws(serial):
    sw, chunks = serial
    summary, params = _concat(chunks)
    once = SweepStats.of(summary, params)
    assert sw.stats.bounds == once.bounds and sw.stats.variation == once.variation and sw.stats.draws == N
    # merged in the reverse order: the same reductions
    backwards = chunks[-1].stats
    for c in reversed(chunks[:-1]):
        backwards = backwards.merge(c.stats)
    assert backwards.bounds == once.bounds and backwards.variation == once.variation
    # the verdict functions on the whole summary (the in-memory path) and on the stream agree
    opts = SolveOptions()
    for b in BOUNDS:
        whole = bound_outcome(b, summary, True, params, opts)
        streamed = bound_outcome(b, sw.stats, True, {}, opts)
        assert (whole.verdict, whole.message, whole.evidence.scalars) == (streamed.verdict, streamed.message, streamed.evidence.scalars)
        i = int(np.argmax(summary.tightness[b]))
        assert streamed.evidence.witness["draw"] == i and streamed.evidence.witness["phi0"] == params["phi0"][i]
        assert streamed.evidence.scalars["max_tightness"] == np.max(summary.tightness[b])
    whole = variation_bound_outcome(summary, params)
    assert whole.message == variation_bound_outcome(sw.stats, {}).message


@pytest.mark.parametrize("name", ["oscillatory", "step"])
def test_compiled_chunk_analysis_equals_the_numpy_path(name):
    # nacverify.frozen._kernel (one XLA function) against _solve._measure (numpy, the single runs' path)
    from nacverify.frozen._kernel import summarise_chunk
    from nacverify.frozen._solve import ROUNDING, _measure
    from nacverify.frozen._specs import RegimeSpec
    from nacverify.frozen._sweep import _chunk_regime, _solve

    spec = SweepSpec(name, 10**6, SEED, CHUNK)
    regime, opts = _chunk_regime(spec, 3), spec.options
    t = np.linspace(0.0, 1.0, opts.points)
    first, tight = _solve(regime, t, opts, 1.0), _solve(regime, t, opts, 100.0)
    ours = summarise_chunk(regime, t, first.ys, tight.ys, opts)
    ref = _measure(RegimeSpec(name), regime, opts, t, first, tight, 0.0).summary
    # The two differ only by rounding (XLA's exp/expm1 vs numpy's, operation fusion): at most a few ulps of
    # |a| <= C = |a0| + |phi0|/omega0 in each error, i.e. within the margin's own rounding term ROUNDING * C.
    C = np.abs(regime.params["a0"]) + np.abs(regime.facts.phi0) / regime.facts.omega0
    np.testing.assert_array_equal(ours.variation_applicable, ref.variation_applicable)
    assert np.all(np.abs(ours.max_abs_error - ref.max_abs_error) <= ROUNDING * C)
    for b in BOUNDS:
        for field in ("min_slack", "max_excess"):
            x, y = getattr(ours, field)[b], getattr(ref, field)[b]
            with np.errstate(invalid="ignore"):  # inf - inf where a bound does not apply (step)
                assert np.all((x == y) | (np.abs(x - y) <= 2 * ROUNDING * C)), (field, b)
        np.testing.assert_array_equal(ours.peak_t[b], ref.peak_t[b])
    for field in ("rel_mean_pct", "rel_max_pct", "phi_variation_pct", "omega_variation_pct", "variation_bound_pct"):
        np.testing.assert_allclose(getattr(ours, field), getattr(ref, field), rtol=1e-9, err_msg=field)
    opts_ = SolveOptions()
    for b in BOUNDS:
        assert bound_outcome(b, ours, name != "step", regime.params, opts_).verdict == bound_outcome(b, ref, name != "step", regime.params, opts_).verdict


def test_histogram_quantiles_bracket_numpy_quantiles():
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.beta(2, 5, 5000) * 1.5, [np.nan, -0.1, 2.5]])
    h = Histogram.of(values[:2000], 0.0, 2.0, 400).merge(Histogram.of(values[2000:], 0.0, 2.0, 400))
    assert (h.below, h.above, h.nan, h.total) == (1, 1, 1, values.size)
    finite = values[~np.isnan(values)]
    for q in (0.01, 0.5, 0.9, 0.99, 0.999):
        lo, hi = h.quantile(q)
        exact = np.quantile(finite, q, method="inverted_cdf")
        assert lo <= exact <= hi and math.isclose(hi - lo, h.width)


# ------------------------------------------------------------------ the same numbers everywhere


def test_one_local_worker_gives_the_serial_bits(serial):
    from distributed import LocalCluster

    local = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1",
                         env={"OMP_NUM_THREADS": "1", "JAX_PLATFORMS": "cpu"})
    try:
        with cluster(1, local.scheduler_address) as executor:
            _assert_same_bits(serial, _collect(executor))
    finally:
        local.close()


def test_two_local_workers_give_the_serial_bits(serial):
    with cluster(2) as executor:  # the CLI's own local cluster (--jobs 2)
        got = _collect(executor, in_flight=3)
    _assert_same_bits(serial, got)
    assert got[0].workers == 2


def test_two_threads_give_the_serial_bits(serial):
    got = _collect(threads=2)
    assert got[0].workers == 2 and len(got[0].worker_names) == 1  # one process
    _assert_same_bits(serial, got)


def test_threads_compile_a_new_shape_once():
    # a chunk size no other test compiles: both threads start on it at once, one compiles, the other waits
    sw, chunks = _collect(name="slow", n=4 * 37, chunk=37, threads=2)
    assert sorted(c.compile_seconds > 0 for c in chunks) == [False, False, False, True]
    assert sw.compile_seconds == max(c.compile_seconds for c in chunks)


def test_threads_and_an_executor_are_refused_together():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool, pytest.raises(BadInput, match="threads"):
        run_sweep("slow", N, SEED, chunk=CHUNK, executor=pool, threads=2)
    with pytest.raises(BadInput, match="--threads"):
        run_sweep("slow", N, SEED, chunk=CHUNK, threads=0)


def test_cli_sweep_on_two_threads_writes_the_serial_report(tmp_path):
    reports = {}
    for threads in ("1", "2"):
        out = tmp_path / f"t{threads}.h5"
        res = runner.invoke(app, ["frozen-error", "-r", "slow", "--sweep", str(N), "--chunk", str(CHUNK), "--seed", str(SEED),
                                  "--scipy-draws", "0", "--threads", threads, "--out", str(out)])
        assert res.exit_code == 0, res.output
        reports[threads] = out
    with h5py.File(reports["1"]) as a, h5py.File(reports["2"]) as b:
        g, h = a["frozen_error/slow/sweep"], b["frozen_error/slow/sweep"]
        assert (g.attrs["scheduler"], g.attrs["workers"]) == ("serial", 1)
        assert (h.attrs["scheduler"], h.attrs["workers"]) == ("2 threads", 2)
        for group in ("members", "params", "histograms/tightness_bv"):
            for key, value in g[group].items():
                if isinstance(value, h5py.Dataset):
                    assert value[()].tobytes() == h[group][key][()].tobytes(), (group, key)
    claims = {k: {i: (c.verdict, c.message, c.scalars, c.witness) for i, c in read_report(path).claims.items()} for k, path in reports.items()}
    assert claims["1"] == claims["2"]
    one = tmp_path / "one-chunk.h5"  # one chunk: one thread has work, and the report says so
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--sweep", str(CHUNK), "--chunk", str(CHUNK), "--scipy-draws", "0",
                              "--threads", "2", "--no-keep-draws", "--out", str(one)])
    assert res.exit_code == 0, res.output
    with h5py.File(one) as f:
        assert (f["frozen_error/slow/sweep"].attrs["scheduler"], f["frozen_error/slow/sweep"].attrs["workers"]) == ("serial", 1)


def test_loopback_scheduler_gives_the_serial_bits(serial, scheduler_address):
    with cluster(1, scheduler_address) as executor:
        _assert_same_bits(serial, _collect(executor))


class _KillingExecutor:
    """Submits each chunk through `sweep_faults.die_once` on a Dask client's executor."""

    def __init__(self, inner, marker: Path, index: int):
        self.inner, self.marker, self.index, self._client = inner, str(marker), index, inner._client

    def submit(self, fn, *args):
        from sweep_faults import die_once

        return self.inner.submit(die_once, fn, self.marker, self.index, *args)


def test_worker_killed_mid_sweep_is_rescheduled_with_the_same_result(serial, scheduler_address, tmp_path):
    marker = tmp_path / "killed"
    with cluster(1, scheduler_address) as executor:
        executor._client.upload_file(str(Path(__file__).with_name("sweep_faults.py")))  # workers import the killer from it
        pids_before = set(executor._client.run(os.getpid).values())
        got = _collect(_KillingExecutor(executor, marker, index=1), in_flight=3)
    assert marker.exists() and int(marker.read_text()) in pids_before  # a worker really died during chunk 1
    assert got[0].n_done == N and got[0].complete
    _assert_same_bits(serial, got)


def test_two_chunk_sizes_same_verdicts_numbers_within_the_solver_margin(serial):
    # The same draws (draw i depends on the seed and i alone) batched by 64 and by 96. Each run
    # bounds its own error by its solver margin (max_solver_error: twice the running max of the
    # difference to a 100x tighter solve, plus the tight solve's tolerance and rounding), so the
    # two can differ by at most the sum of their margins.
    other = _collect(chunk=96)
    (sa, pa), (sb, pb) = _concat(serial[1]), _concat(other[1])
    for key in pa:
        np.testing.assert_array_equal(pa[key], pb[key])
    assert np.all(np.abs(sa.max_abs_error - sb.max_abs_error) <= sa.max_solver_error + sb.max_solver_error)
    assert np.all(np.abs(sa.rel_max_pct - sb.rel_max_pct) <= sa.rel_margin_pct + sb.rel_margin_pct)
    assert {k: v[0] for k, v in _verdicts(serial[0]).items()} == {k: v[0] for k, v in _verdicts(other[0]).items()}


# ------------------------------------------------------------------ interrupts and refusals


def test_ctrl_c_returns_the_finished_chunks(scheduler_address):
    def stop_after_first(done, total):
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        run_sweep("slow", N, SEED, chunk=CHUNK, progress=stop_after_first)
    partial = info.value.partial
    assert partial.complete is False and partial.n_done == CHUNK and partial.stats.draws == CHUNK
    with cluster(1, scheduler_address) as executor, pytest.raises(Interrupted) as info:
        run_sweep("slow", N, SEED, chunk=CHUNK, executor=executor, progress=stop_after_first)
    assert info.value.partial.n_done == CHUNK and info.value.partial.complete is False


def test_ctrl_c_on_a_local_cluster_leaves_an_incomplete_report(tmp_path):
    """`--jobs 2` (a local Dask cluster) interrupted as a terminal's Ctrl-C would: SIGINT to the
    whole process group, workers included, once the sweep has stated its estimate."""
    import queue
    import threading
    import time

    out = tmp_path / "r.h5"
    proc = subprocess.Popen([_script(), "frozen-error", "-r", "slow", "--sweep", "400000", "--jobs", "2", "--scipy-draws", "0", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stderr], daemon=True)
    reader.start()
    seen, deadline = [], time.time() + 300
    while time.time() < deadline and not any("estimated" in line for line in seen):
        try:
            seen.append(lines.get(timeout=1))
        except queue.Empty:
            assert proc.poll() is None, "".join(seen)
    time.sleep(2)
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=120)
    reader.join(timeout=30)
    stderr = "".join(seen + list(lines.queue))
    assert proc.returncode == 3, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("nacverify: error")]
    assert len(errors) == 1 and "interrupted" in errors[0] and "incomplete" in errors[0], stderr
    assert "Traceback" not in stderr
    data = read_report(out)
    sweep = data.sections["frozen_error"]["slow"]["sweep"]
    assert data.complete is False and sweep["complete"] == False  # noqa: E712  (numpy bool)
    assert 0 < sweep["n_done"] < 400000 and sweep["n_done"] % 2000 == 0  # whole chunks, in order
    assert sweep["members"]["tightness_sharp"].shape == (sweep["n_done"],) and sweep["stats"]["draws"] == sweep["n_done"]
    assert [p.name for p in tmp_path.iterdir()] == ["r.h5"]  # the spool became the report


def test_old_sample_regime_is_unchanged_for_its_other_users():
    # nacverify.checks.nac_thm3_proof draws with sample_regime(name, n, seed): one generator for all n
    rng = np.random.default_rng(5)
    np.testing.assert_array_equal(sample_regime("slow", 4, 5).params["phi0"], rng.uniform(0.05, 0.95, size=4))


def _script():
    import shutil

    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    return exe


@pytest.mark.parametrize("args, words", [
    (["--sweep", "100000000000"], "needs about"),  # 10^11 draws x 128 B: terabytes
    (["--sweep", str(2**53 + 1), "--no-keep-draws"], "largest sweep"),
    (["--sweep", "10", "--seed", "-1"], "--seed"),
    (["--sweep", "10", "--chunk", "-1"], "--chunk"),  # 0 asks for the device's default chunk
    (["--sweep", "10", "--jobs", "0"], "--jobs"),
    (["--sweep", "10", "--threads", "-1"], "--threads"),
    (["--sweep", "10", "--threads", "2", "--jobs", "2"], "--threads"),
])
def test_sweeps_that_cannot_run_are_refused_in_one_line(args, words, tmp_path):
    proc = subprocess.run([_script(), "frozen-error", "-r", "oscillatory", *args, "--out", str(tmp_path / "r.h5")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0], proc.stderr
    assert not list(tmp_path.iterdir())  # refused before any work: no report, no spool


def test_cli_sweep_on_the_scheduler_writes_the_serial_report(scheduler_address, tmp_path):
    reports = {}
    for label, extra in (("serial", []), ("scheduler", ["--scheduler", scheduler_address]), ("no-draws", ["--no-keep-draws"])):
        out = tmp_path / f"{label}.h5"
        res = runner.invoke(app, ["frozen-error", "-r", "slow", "--sweep", str(N), "--chunk", str(CHUNK), "--seed", str(SEED),
                                  "--scipy-draws", "0", "--out", str(out), *extra])
        assert res.exit_code == 0, res.output
        reports[label] = out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["no-draws.h5", "scheduler.h5", "serial.h5"]  # the spools became the reports
    with h5py.File(reports["serial"]) as a, h5py.File(reports["scheduler"]) as b:
        g, h = a["frozen_error/slow/sweep"], b["frozen_error/slow/sweep"]
        assert g.attrs["chunk"] == CHUNK and g.attrs["n_done"] == N and g.attrs["estimate_seconds"] > 0
        assert g["members/tightness_sharp"].compression == "gzip" and g["members/tightness_sharp"].maxshape == (None,)
        for group in ("members", "params", "histograms/tightness_bv"):
            for key, value in g[group].items():
                if isinstance(value, h5py.Dataset):
                    assert value[()].tobytes() == h[group][key][()].tobytes(), (group, key)
        for key in g["witnesses"]:
            assert dict(g["witnesses"][key].attrs) == dict(h["witnesses"][key].attrs), key
    claims = {label: {k: (c.verdict, c.message, c.scalars, c.witness) for k, c in read_report(path).claims.items()}
              for label, path in reports.items()}
    assert claims["serial"] == claims["scheduler"] == claims["no-draws"]
    with h5py.File(reports["serial"]) as a, h5py.File(reports["no-draws"]) as c:
        g, h = a["frozen_error/slow/sweep"], c["frozen_error/slow/sweep"]
        assert "members" not in h and "params" not in h and h.attrs["stored_bytes"] == 0
        assert h["histograms/tightness_sharp/counts"][()].tobytes() == g["histograms/tightness_sharp/counts"][()].tobytes()
        assert dict(h["witnesses/tightness_sharp"].attrs) == dict(g["witnesses/tightness_sharp"].attrs)


def test_unreachable_scheduler_fails_the_sweep_before_any_solve(tmp_path, monkeypatch):
    """The cluster is joined first: an unreachable scheduler is a one-line exit 3 naming it, and
    no single run is solved before (the old order solved every regime, then failed)."""
    import socket

    import nacverify.cli._cluster as cluster_mod
    import nacverify.cli.frozen_error as frozen_cli

    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT", 2.0)
    solved = []
    monkeypatch.setattr(frozen_cli, "cached_run", lambda *a, **k: solved.append(a) or pytest.fail("solved before joining"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"  # nothing listens there once closed
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--sweep", "64", "--chunk", "64", "--scheduler", address,
                              "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 3, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and address in lines[0] and "Traceback" not in res.output, res.stderr
    assert solved == []


def test_sweep_bench_stops_the_target_run_even_when_sigint_is_ignored(tmp_path):
    """`bench --sweep-bench` stops the 10^8 run once it states its estimate. Started from a
    background job of a non-interactive shell (or CI), the process inherits SIGINT ignored: the
    SIGINT it used to send did nothing and the sweep ran on (for hours at 10^8). SIGTERM stops it,
    leaving an incomplete report (exit 3)."""
    from nacverify.cli.bench_sweep import _command

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # the child inherits it, as from `cmd &`
    try:
        res = _command(["frozen-error", "--regime", "slow", "--sweep", "200000", "--chunk", "64", "--scipy-draws", "0",
                        "--out", str(tmp_path / "t.h5")], tmp_path, "t", stop_on="estimated")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert "estimated" in res["matched_line"] and res["exit_code"] == 3, res
    assert read_report(tmp_path / "t.h5").complete is False


# ------------------------------------------------------------------ many-restart searches (frozen-error --search)


def _search_bits(res):
    return (res.restarts.tolist(), res.values.tobytes(), res.verified_tightness.tobytes(), res.best_start)


def test_search_on_two_workers_gives_the_serial_bits_and_verifies_in_float64():
    """Chunks of restarts as tasks: the kept points, surrogate values and diffrax-verified
    tightnesses are the same bits serially and on the CLI's local cluster (chunks finish in any
    order). The verified tightness stays within the RK4 surrogate's error of the surrogate (the
    search's verification once ran in float32 outside a float64 context: 1.35 against 0.9997)."""
    from nacverify.frozen import run_search

    kw = dict(chunk=32, steps=10, keep=3)
    serial = run_search("oscillatory", "sharp", 96, 5, **kw)
    with cluster(2) as executor:
        remote = run_search("oscillatory", "sharp", 96, 5, executor=executor, **kw)
    assert _search_bits(serial) == _search_bits(remote) and serial.chunks_done == 3
    assert serial.values[0] >= serial.best_start  # the ascent keeps the best point seen, its start included
    # diffrax on 1001 saved points vs the surrogate's 200-step RK4 grid: the same max over t to within 1 %
    np.testing.assert_allclose(serial.verified_tightness, serial.values, rtol=1e-2)
    assert (serial.verified_tightness <= 1).all()  # the sharp bound is a lemma: no point of the search may beat it


def test_search_on_threads_gives_the_serial_bits_and_compiles_once(monkeypatch):
    """`run_search(threads=2)` runs the chunks on two threads of this process (the first alone, so
    the ascent is traced once, not once per thread): the same kept points, surrogate values and
    verified tightnesses as serially, whatever order the chunks finish in; threads < 1 are refused."""
    import functools

    from nacverify.errors import BadInput
    from nacverify.frozen import _adversary, _search, run_search

    traces = []

    def counted(*key):
        inner = _adversary._objective(*key)

        def objective(theta, shape_fixed):
            traces.append(key)  # called only while JAX traces the ascent
            return inner(theta, shape_fixed)

        return objective

    kw = dict(chunk=16, steps=6, keep=3)
    counts = []
    results = []
    for threads in (1, 2):
        monkeypatch.setattr(_search, "_cached_objective", functools.lru_cache(maxsize=4)(counted))
        traces.clear()
        results.append(run_search("fast", "thm3", 80, 2, threads=threads, **kw))
        counts.append(len(traces))
    serial, threaded = results
    assert _search_bits(serial) == _search_bits(threaded) and threaded.chunks_done == 5
    assert counts[0] == counts[1] > 0, counts
    with pytest.raises(BadInput, match="threads"):
        run_search("fast", "thm3", 8, 2, threads=0, **kw)


def test_search_library_call_outside_float64_matches(tmp_path):
    """In a fresh process with JAX's default float32, run_search still verifies in float64."""
    import subprocess
    import sys

    code = ("import jax; assert not jax.config.jax_enable_x64\n"
            "from nacverify.frozen import run_search\n"
            "r = run_search('slow', 'sharp', 16, 1, chunk=16, steps=5, keep=2)\n"
            "print(repr(float(abs(r.verified_tightness - r.values).max())), repr(float(r.verified_tightness.max())))\n")
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    gap, top = map(float, out.stdout.split())
    assert gap < 1e-2 and top <= 1


def test_cli_search_claims_and_section(tmp_path):
    res = runner.invoke(app, ["frozen-error", "--regime", "step", "--search", "40", "--search-chunk", "20", "--search-steps", "5",
                              "--search-keep", "2", "--threads", "2", "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 0, res.output
    data = read_report(tmp_path / "r.h5")
    assert data.claims["nac.thm3.bv.step.search"].verdict == "holds"
    assert not any(cid.endswith(".search") and "bv" not in cid for cid in data.claims)  # the step family: BV only
    with h5py.File(tmp_path / "r.h5") as f:
        g = f["frozen_error/step/search/bv"]
        assert int(g.attrs["restarts"]) == 40 and int(g.attrs["chunk"]) == 20 and g["verified_tightness"].shape == (2,)
        assert g.attrs["scheduler"] == "2 threads"  # --threads 2: the search's chunks ran on two threads
        assert set(g["kept_restarts"][()].tolist()) <= set(range(40)) and (g["verified_tightness"][()] <= 1).all()
    bad = runner.invoke(app, ["frozen-error", "--regime", "custom", "--phi", "0.5", "--omega", "1", "--search", "8", "--out", str(tmp_path / "c.h5")])
    assert bad.exit_code == 2 and "custom" in bad.stderr


@pytest.mark.parametrize("stored_first", [False, True])
def test_an_interrupt_during_a_chunks_storage_keeps_rows_and_count_equal(tmp_path, stored_first):
    """CI saw an interrupted `--jobs 2` report with 62000 draws counted and 60000 stored: the count was
    updated before the chunk's rows were written, and the Ctrl-C landed in between. Now the rows are written
    first and the report keeps exactly the rows its count says (Spool.truncate): with the interrupt before
    the second chunk's rows (the old order counted 200 draws against 100 rows) and after them."""
    from nacverify.errors import Interrupted
    from nacverify.frozen import run_sweep
    from nacverify.report import Spool

    spool = Spool(tmp_path / "r.h5")

    def on_chunk(res):
        if res.index == 1 and not stored_first:
            raise KeyboardInterrupt
        spool.append("g/members", res.stored())
        if res.index == 1:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as exc:
        run_sweep("slow", 300, 0, chunk=100, on_chunk=on_chunk)
    n_done = exc.value.partial.n_done
    assert n_done == 100  # the first chunk only: the second was not delivered whole
    spool.truncate("g", n_done)
    assert {ds.shape[0] for ds in spool._file["g/members"].values()} == {n_done}
    spool.discard()
