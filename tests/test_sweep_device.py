"""The sweep's chunk pipeline as it runs next to the solve (issue 24, item 1): each chunk solved with
its own family's coefficients (`KindFamily`) and reduced over t by one compiled pass
(`_kernel.chunk_summary`), only per-draw summaries coming back to the host.

Expectations come from outside the new code: the regime's own coefficients (`ShapeFamily`, the
solve of every earlier sweep), the previous chunk analysis (`_kernel._analyse`, commit 422ae56,
kept as the reference), NumPy reductions written here over the full (N, P) arrays, and the
same sweep cut into chunks in another order.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from nacverify.frozen import BOUNDS, SweepSpec, run_sweep, sweep_chunk
from nacverify.frozen._kernel import KindFamily, chunk_summary, gates_needed, summarise_chunk, summary_of
from nacverify.frozen._solve import ROUNDING, TIGHTER_FACTOR
from nacverify.frozen._stats import SweepStats
from nacverify.frozen._sweep import _chunk_regime, _solve
from nacverify.margins import _ROUND
from nacverify.compute.precision import float64
from nacverify.regimes import named_regime

CHUNK, SEED = 48, 5
NAMES = ["slow", "fast", "step", "oscillatory"]


def _chunk(name: str, index: int = 2):
    spec = SweepSpec(name, 10**6, SEED, CHUNK)
    regime, opts = _chunk_regime(spec, index), spec.options
    return spec, regime, opts, np.linspace(0.0, spec.T, opts.points)


@pytest.mark.parametrize("name", NAMES)
def test_kind_family_solves_give_the_regimes_own_bits(name):
    """The same bits as the regime's own solve, except the oscillatory family, whose sine is
    `nacverify.compute.sine.sine` (1 ulp, not the C library's): there the same steps, and trajectories
    equal to 1e-14 (the 100x tighter solve's own absolute tolerance; measured: 2.3e-15 at most
    on four chunks of 48 and 2,000 draws)."""
    _, regime, opts, t = _chunk(name)
    with float64():
        for factor in (1.0, TIGHTER_FACTOR):
            ours = _solve(regime, t, opts, factor, KindFamily.of(regime))
            ref = _solve(regime, t, opts, factor)
            if name == "oscillatory":
                np.testing.assert_allclose(ours.ys, ref.ys, rtol=0, atol=1e-14)
                assert np.any(ours.ys != ref.ys)  # the sine is not the C library's
            else:
                np.testing.assert_array_equal(ours.ys, ref.ys)
            assert ours.num_steps == ref.num_steps


def test_kind_family_oscillatory_g_is_the_sine_to_one_ulp():
    """g(t) = sin(2 pi f t / T) of the chunk's draws at 1,001 times, against mpmath."""
    from mpmath import mp, mpf

    _, regime, _, t = _chunk("oscillatory")
    family = KindFamily.of(regime)
    with float64():
        g = np.asarray(jax.vmap(family.g)(jnp.asarray(t)))  # (P, N)
    cycles = np.asarray(regime.coefficients.shape)
    with mp.workprec(120):
        for i in range(0, len(t), 50):
            for n in range(0, len(cycles), 7):
                arg = 2 * np.pi * cycles[n] * (t[i] / regime.T)  # the float64 argument, formed as in _shape
                exact = mp.sin(mpf(float(arg)))
                assert abs(mpf(float(g[i, n])) - exact) <= mpf(np.spacing(abs(float(exact)))) + mpf(2) ** -1074


def test_kind_family_refuses_cycles_beyond_the_sines_range():
    from nacverify.errors import NacverifyError
    from nacverify.compute.sine import SINE_LIMIT

    _, regime, _, _ = _chunk("oscillatory")
    c = regime.coefficients
    wide = dataclasses.replace(regime, coefficients=type(c)(c.code, c.T, c.phi0, c.omega0, c.phi_amp, c.omega_amp, c.shape.at[0].set(SINE_LIMIT)))
    with pytest.raises(NacverifyError, match="cycles up to"):
        KindFamily.of(wide)


def _numpy_reductions(regime, t, a_var, a_tight, opts):
    """The per-draw summaries written out with NumPy over the (N, P) arrays, in the order the
    report defines them (reports/SCHEMA.md), with XLA's frozen solution and bounds supplied by
    the reference kernel's inputs: only the reductions are this test's own."""
    f, p = regime.facts, regime.params
    a0 = p["a0"][:, None]
    a_star = (f.phi0 / f.omega0)[:, None]
    tt = t[None, :]
    with np.errstate(all="ignore"):
        a_frz = a_star + (a0 - a_star) * np.exp(-f.omega0[:, None] * tt)
        diff = np.maximum.accumulate(np.abs(a_var - a_tight), axis=1)
        m = 2 * diff + 10 * (opts.rtol / TIGHTER_FACTOR * np.abs(a_tight) + opts.atol / TIGHTER_FACTOR) + _ROUND * np.abs(a_var) + ROUNDING * np.abs(a_frz)
        C = (np.abs(a0[:, 0]) + np.abs(f.phi0) / f.omega0)[:, None]
        k = f.L_phi[:, None] + C * f.L_omega[:, None]
        bounds = {"thm3": np.where(np.isfinite(k), k * tt**2 * np.exp(f.L_omega[:, None] * tt), np.inf),
                  "sharp": np.where(np.isfinite(k), k * tt**2 / 2, np.inf),
                  "bv": (f.V_phi[:, None] + C * f.V_omega[:, None]) * -np.expm1(-f.omega_min[:, None] * tt) / f.omega_min[:, None]}
        eps, m = np.abs(a_var - a_frz)[:, 1:], m[:, 1:]
        out = {}
        for b in BOUNDS:
            bb = bounds[b][:, 1:]
            ratio = np.where(np.isfinite(bb), np.where(bb > 0, eps / bb, np.where(eps > m, np.inf, 0.0)), 0.0)
            i = np.argmax(ratio, axis=1)
            out[f"tightness_{b}"] = ratio[np.arange(len(i)), i]
            out[f"peak_t_{b}"] = t[1:][i]
            out[f"min_slack_{b}"] = np.min(bb - eps - m, axis=1)
            out[f"max_excess_{b}"] = np.max(eps - m - bb, axis=1)
        ok = np.abs(a_var[:, 1:]) >= opts.rel_floor
        rel = np.where(ok, eps / np.abs(a_var[:, 1:]), np.nan)
        out["rel_max_pct"] = 100 * np.nanmax(rel, axis=1)
        out["rel_mean_pct"] = 100 * np.nanmean(rel, axis=1)
        out["rel_margin_pct"] = 100 * np.nanmax(np.where(ok, m / np.abs(a_var[:, 1:]), np.nan), axis=1)
        out["max_abs_error"] = np.max(eps, axis=1)
        out["max_solver_error"] = np.max(m, axis=1)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_streaming_kernel_equals_the_previous_analysis_and_numpy(name):
    _, regime, opts, t = _chunk(name)
    with float64():
        first, tight = _solve(regime, t, opts, 1.0), _solve(regime, t, opts, TIGHTER_FACTOR)
        ref = summarise_chunk(regime, t, first.ys, tight.ys, opts)  # the previous kernel (commit 422ae56)
        for gates in (True, False):
            ours = summary_of({k: np.asarray(v) for k, v in chunk_summary(regime, t, first.ys.T, tight.ys.T, opts, gates=gates).items()})
            np.testing.assert_array_equal(ours.variation_applicable, ref.variation_applicable)
            np.testing.assert_array_equal(ours.variation_bound_pct, ref.variation_bound_pct)
            for b in BOUNDS:
                np.testing.assert_array_equal(ours.peak_t[b], ref.peak_t[b])
                # thm3 and sharp: the same operations, the same bits; bv: XLA fuses expm1's product
                # differently, one or two ulps
                for field in ("tightness", "min_slack", "max_excess"):
                    x, y = getattr(ours, field)[b], getattr(ref, field)[b]
                    if b == "bv":
                        np.testing.assert_allclose(x, y, rtol=4e-16 if field == "tightness" else 0, atol=0 if field == "tightness" else 4 * ROUNDING,
                                                   err_msg=f"{field} {b}")
                    else:
                        np.testing.assert_array_equal(x, y, err_msg=f"{field} {b}")
            for field in ("rel_max_pct", "max_abs_error"):
                np.testing.assert_array_equal(getattr(ours, field), getattr(ref, field), err_msg=field)
            for field in ("rel_margin_pct", "max_solver_error"):
                np.testing.assert_allclose(getattr(ours, field), getattr(ref, field), rtol=1e-15, err_msg=field)
            np.testing.assert_allclose(ours.rel_mean_pct, ref.rel_mean_pct, rtol=1e-13)  # a sum in time order
            if gates:
                np.testing.assert_allclose(ours.phi_variation_pct, ref.phi_variation_pct, rtol=1e-9)
            else:
                assert np.all(np.isnan(ours.phi_variation_pct)) and np.all(np.isnan(ours.omega_variation_pct))
        mine = _numpy_reductions(regime, t, first.ys, tight.ys, opts)
        ours = {k: np.asarray(v) for k, v in chunk_summary(regime, t, first.ys.T, tight.ys.T, opts).items()}
        # NumPy's exp/expm1 against XLA's move the frozen solution by an ulp of |a| <= C, so each
        # absolute error by at most ROUNDING * C; ratios to a small |eps| or |a| move relatively more
        C = float(np.max(np.abs(regime.params["a0"]) + np.abs(regime.facts.phi0) / regime.facts.omega0))
        for key, value in mine.items():
            got = ours[key]
            if key.startswith(("tightness", "rel_", "peak_t")):
                rtol, atol = 1e-6, 1e-9
            else:
                rtol, atol = 0.0, 4 * ROUNDING * C
            with np.errstate(invalid="ignore"):
                close = (got == value) | np.isclose(got, value, rtol=rtol, atol=atol)
            if key.startswith("peak_t"):  # the argmax may move to a neighbouring point only where two ratios tie to rounding
                close |= np.abs(got - value) <= 1.5 * (t[1] - t[0])
            assert np.all(close), key


@pytest.mark.parametrize("name", ["slow", "oscillatory"])
def test_streaming_kernel_peaks_at_ties_and_nans_as_the_previous_analysis(name):
    """The first maximum over t, NaN counting as the largest (as numpy's and XLA's argmax): with
    the trajectories equal to the frozen solution every ratio is 0 (a tie at every point: the peak
    is the first point), and a NaN placed in one draw's trajectory becomes that draw's peak. The
    peak is where the running maximum changed (`_kernel._scan_summary`), which must give the same
    points as the previous kernel's argmax."""
    _, regime, opts, t = _chunk(name)
    a_star = regime.facts.phi0 / regime.facts.omega0
    regime = dataclasses.replace(regime, params={**regime.params, "a0": a_star})  # started at rest: a_frozen = a* exactly
    a_var = np.repeat(a_star[:, None], len(t), axis=1)  # eps = 0 exactly
    a_var[3, 400] = np.nan
    a_var[5, 700:] = np.nan
    with float64():
        ref = summarise_chunk(regime, t, a_var, a_var.copy(), opts)
        ours = summary_of({k: np.asarray(v) for k, v in chunk_summary(regime, t, a_var.T.copy(), a_var.T.copy(), opts).items()})
    for b in BOUNDS:
        np.testing.assert_array_equal(ours.peak_t[b], ref.peak_t[b])
        np.testing.assert_array_equal(ours.tightness[b], ref.tightness[b])
    finite = np.isfinite(ours.tightness["sharp"])
    assert np.all(ours.tightness["sharp"][finite] == 0) and np.all(ours.peak_t["sharp"][finite] == t[1])  # the tie: the first point
    assert ours.peak_t["sharp"][3] == t[400] and ours.peak_t["sharp"][5] == t[700]
    assert np.isnan(ours.tightness["sharp"][3]) and np.isnan(ours.tightness["sharp"][5])


def test_gates_are_skipped_only_where_phi_is_provably_positive():
    _, regime, _, _ = _chunk("oscillatory")
    assert gates_needed(regime) is False
    big = named_regime("oscillatory", phi_variation_pct=60.0)
    assert gates_needed(big) is True


def test_a_chunk_is_the_same_alone_and_within_a_sweep_in_any_order():
    spec = SweepSpec("oscillatory", 3 * CHUNK - 7, SEED, CHUNK)
    alone = [sweep_chunk(spec, k) for k in (2, 0, 1)]
    whole = run_sweep(spec.name, spec.n, spec.seed, chunk=spec.chunk)
    merged = alone[1].stats.merge(alone[2].stats).merge(alone[0].stats)
    assert whole.stats.draws == merged.draws == spec.n
    for b in BOUNDS:
        assert whole.stats.bounds[b].tightness == merged.bounds[b].tightness
        assert whole.stats.bounds[b].min_slack == merged.bounds[b].min_slack
        assert whole.stats.bounds[b].top == merged.bounds[b].top
    for k, h in whole.stats.histograms.items():
        np.testing.assert_array_equal(h.counts, merged.histograms[k].counts)
    # and each chunk's reductions equal one reduction of its summary on the host
    for res in alone:
        again = SweepStats.of(res.summary, res.params, res.start)
        assert again.bounds["sharp"].tightness == res.stats.bounds["sharp"].tightness


def test_storage_time_is_measured_apart():
    seen = []
    sw = run_sweep("slow", 2 * CHUNK, SEED, chunk=CHUNK, on_chunk=seen.append)
    assert len(seen) == 2 and sw.write_seconds >= 0.0
    assert sw.total_seconds == pytest.approx(sw.solve_seconds + sw.verify_seconds + sw.analysis_seconds)


def test_the_report_and_the_bench_state_the_split_and_the_default_chunk():
    from nacverify.cli._sweep import sweep_section
    from nacverify.cli.bench_sweep import SPLIT, _split
    from nacverify.frozen._sweep import DEFAULT_CHUNK

    sw = run_sweep("slow", CHUNK, SEED, chunk=CHUNK, on_chunk=lambda res: None)
    section = sweep_section(sw, keep_draws=False)
    assert section["chunk_default"] == DEFAULT_CHUNK == SweepSpec("slow", 10**6, 0).chunk == 2000
    assert section["write_seconds"] == sw.write_seconds
    split = _split({**section, "n_done": sw.n_done})
    assert split["split_parts"] == list(SPLIT) == ["solve", "verify", "analysis", "write"]
    assert split["split_seconds"] == [section[f"{k}_seconds"] for k in SPLIT]
    assert sum(split["split_fraction"]) == pytest.approx(1.0)
    assert split["end_to_end_with_write_per_second"] == pytest.approx(sw.n_done / sum(split["split_seconds"]))


def test_the_streaming_kernel_reads_the_trajectories_in_place():
    """The kernel reads row j of the (P, N) trajectories inside its loop over t; a scan over
    `a_var[1:]` made a (P - 1, N) copy of both arrays first (15 % of the kernel's time)."""
    import jax.numpy as jnp

    from nacverify.frozen._kernel import _scan_summary

    P, N = 17, 5
    with float64():
        z, t, a = jnp.zeros(N), jnp.linspace(0.0, 1.0, P), jnp.zeros((P, N))
        args = (z, z, z, t, a, a, z, z + 0.5, z + 1.0, z, z, z, z, z + 1.0, 1e-12, 1e-14, 1e-9)
        hlo = _scan_summary.lower(3, 1.0, False, *args).compile().as_text()
    assert f"f64[{P},{N}]" in hlo  # the trajectories themselves
    assert f"f64[{P - 1},{N}]" not in hlo


@pytest.mark.parametrize(
    "device, points, expected",
    [
        (("cpu", 24 << 30), 1001, 2000),  # a CPU keeps the measured default
        (("gpu", 80 << 30), 1001, 100_000),  # 80 GiB / 4 / (8 arrays x 8 B x 1001) = 335,209 -> the cap
        (("gpu", 16 << 30), 1001, 67_000),  # 2^32 / 64,064 = 67,041 -> thousands
        (("gpu", 1 << 30), 1001, 4_000),  # 2^28 / 64,064 = 4,190
        (("gpu", 1 << 20), 1001, 4),  # 2^18 / 64,064 = 4: fewer than a thousand fit
        (("tpu", 80 << 30), 10001, 33_000),  # 80 GiB / 4 / 640,064 = 33,550
    ],
)
def test_the_default_chunk_by_hand(device, points, expected):
    from nacverify.compute.device_memory import DeviceMemory
    from nacverify.frozen import default_chunk

    assert default_chunk(points, DeviceMemory(*device)) == expected


def test_cli_sweep_takes_the_devices_default_chunk_and_states_it(tmp_path, monkeypatch):
    """`--chunk` not given: the device's default. A fake accelerator whose quarter holds 25 draws of
    1001 points (25 x 64,064 B x 4) makes the CLI sweep 50 draws in two chunks of 25 and say so; a
    negative chunk is one line, exit 2."""
    import h5py
    from typer.testing import CliRunner

    from nacverify.cli.app import app
    from nacverify.compute.device_memory import DeviceMemory
    from nacverify.frozen import _chunking

    monkeypatch.setattr(_chunking, "default_device", lambda: DeviceMemory("gpu", 25 * 64_064 * 4))
    runner = CliRunner()
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--sweep", "50", "--scipy-draws", "0", "--threads", "1",
                              "--out", str(tmp_path / "r.h5")])
    assert res.exit_code == 0, res.output
    with h5py.File(tmp_path / "r.h5") as f:
        attrs = f["frozen_error/slow/sweep"].attrs
        assert int(attrs["chunk"]) == 25 and int(attrs["chunk_default"]) == 25 and int(attrs["n_done"]) == 50
    bad = runner.invoke(app, ["frozen-error", "--regime", "slow", "--sweep", "50", "--chunk", "-3", "--out", str(tmp_path / "b.h5")])
    assert bad.exit_code == 2 and "--chunk" in bad.stderr and "Traceback" not in bad.output
