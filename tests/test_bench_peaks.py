"""The device peaks of `nacverify bench` (nacverify.bench.peaks): the CPU formula on fake
/proc/cpuinfo text, the GPU data-sheet table, the measured copy bandwidth on a fake clock and the
machine line (no timed asserts)."""

from __future__ import annotations

import types

import pytest

from nacverify.bench import peaks

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Test CPU @ 2.60GHz
cpu MHz\t\t: 2600.000
flags\t\t: fpu sse sse2 avx avx2 fma avx512f avx512dq

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Test CPU @ 2.60GHz
cpu MHz\t\t: 2400.000
flags\t\t: fpu sse sse2 avx avx2 fma avx512f avx512dq
"""


def test_parse_cpuinfo():
    info = peaks.parse_cpuinfo(CPUINFO)
    assert info["processors"] == 2
    assert info["model"] == "Intel(R) Xeon(R) Test CPU @ 2.60GHz"
    assert {"avx512f", "avx2", "fma"} <= info["flags"]
    assert info["mhz"] == 2600.0  # the largest over processors


def test_cpu_peak_by_hand_avx512_from_cpu_mhz():
    """2 cores x 2.6 GHz x 64 FLOP/cycle (2 FMA units x 16 float32 lanes x 2) = 332.8 GFLOP/s."""
    p = peaks.cpu_peak(cpuinfo=CPUINFO, max_freq_khz=None, cores=2)
    assert p["flops_per_cycle_per_core"] == 64 and p["clock_hz"] == 2.6e9
    assert p["peak_flops_per_second"] == pytest.approx(2 * 2.6e9 * 64, rel=1e-15)
    assert p["peak_flops_per_second"] == pytest.approx(332.8e9, rel=1e-12)
    assert "cpu MHz" in p["clock_source"] and "AVX-512" in p["peak_flops_source"]
    assert p["cpu_model"].startswith("Intel(R) Xeon(R) Test CPU")


def test_cpu_peak_prefers_cpuinfo_max_freq_and_reads_avx2():
    """cpuinfo_max_freq is in kHz: 3,500,000 kHz = 3.5 GHz; AVX2 + FMA: 32 FLOP/cycle;
    4 cores x 3.5 GHz x 32 = 448 GFLOP/s."""
    text = CPUINFO.replace(" avx512f avx512dq", "")
    p = peaks.cpu_peak(cpuinfo=text, max_freq_khz="3500000\n", cores=4)
    assert p["clock_hz"] == 3.5e9 and "cpuinfo_max_freq" in p["clock_source"]
    assert p["flops_per_cycle_per_core"] == 32
    assert p["peak_flops_per_second"] == pytest.approx(448e9, rel=1e-12)


@pytest.mark.parametrize(("flags", "per_cycle"), [("avx512f avx2 fma", 64), ("avx2 fma", 32), ("avx avx2", 16), ("avx", 16), ("sse sse2", 8), ("neon", None), ("", None)])
def test_flops_per_cycle_from_flags(flags, per_cycle):
    assert peaks.flops_per_cycle(set(flags.split()))[0] == per_cycle


def test_cpu_peak_unknown_without_vector_flags_or_clock():
    no_flags = peaks.cpu_peak(cpuinfo="processor\t: 0\ncpu MHz\t: 1000\n", max_freq_khz=None, cores=1)
    assert no_flags["peak_flops_per_second"] is None and no_flags["peak_flops_source"].startswith("unknown")
    no_clock = peaks.cpu_peak(cpuinfo="processor\t: 0\nflags\t: avx2 fma\n", max_freq_khz="garbage", cores=1)
    assert no_clock["peak_flops_per_second"] is None and "clock" in no_clock["peak_flops_source"]


@pytest.mark.parametrize(("kind", "flops", "bw"), [
    ("NVIDIA H100 80GB HBM3", 67e12, 3.35e12),
    ("NVIDIA H100 PCIe", 51e12, 2.0e12),
    ("NVIDIA H200", 67e12, 4.8e12),
    ("NVIDIA A100-SXM4-80GB", 19.5e12, 2.039e12),
    ("nvidia h200 ", 67e12, 4.8e12),  # case and surrounding spaces ignored
])
def test_gpu_table(kind, flops, bw):
    p = peaks.gpu_peak(kind)
    assert p["peak_flops_per_second"] == flops and p["peak_bytes_per_second"] == bw
    assert "NVIDIA" in p["peak_flops_source"] and "data sheet" in p["peak_bytes_source"]


def test_unknown_gpu_has_null_peaks_and_says_so():
    p = peaks.gpu_peak("NVIDIA GeForce RTX 4090")
    assert p["peak_flops_per_second"] is None and p["peak_bytes_per_second"] is None
    assert "not in nacverify.bench.peaks.GPU_PEAKS" in p["peak_flops_source"]


def test_copy_bandwidth_best_of_three_on_a_fake_clock(monkeypatch):
    """Copies of 1 MiB taking 4, 2 and 3 ms: the best is 2 ms, 2 x 1 MiB (read + written) / 2 ms."""
    ticks = iter([0.0, 4e-3, 10.0, 10.002, 20.0, 20.003])
    monkeypatch.setattr(peaks, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))
    p = peaks.copy_bandwidth(nbytes=2**20)
    assert p["peak_bytes_per_second"] == pytest.approx(2 * 2**20 / 2e-3, rel=1e-9)
    assert p["peak_bytes_source"].startswith("measured: best of 3")


def test_device_peak_on_a_fake_gpu(monkeypatch):
    import jax

    fake = types.SimpleNamespace(platform="gpu", device_kind="NVIDIA H100 PCIe")
    monkeypatch.setattr(jax, "devices", lambda *args: [fake])
    p = peaks.device_peak()
    assert p["machine"] == "gpu: NVIDIA H100 PCIe"
    assert p["peak_flops_per_second"] == 51e12 and p["peak_bytes_per_second"] == 2.0e12


def test_device_peak_on_this_cpu_names_cores_and_model(monkeypatch):
    import jax

    if jax.devices()[0].platform != "cpu":
        pytest.skip("bench runs on an accelerator here")
    monkeypatch.setattr(peaks, "COPY_BYTES", 2**16)
    p = peaks.device_peak()
    assert p["machine"].startswith(f"cpu: {peaks.usable_cores()} cores, ")
    assert p["peak_bytes_per_second"] is None or p["peak_bytes_per_second"] > 0
    unmeasured = peaks.device_peak(measure_bandwidth=False)
    assert unmeasured["peak_bytes_per_second"] is None and "not measured" in unmeasured["peak_bytes_source"]
    assert peaks.machine_description(platform="cpu", device_kind="cpu", cpu={"cores": 2, "cpu_model": "X"}) == "cpu: 2 cores, X"
