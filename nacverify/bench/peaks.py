r"""The device's peak float32 FLOP/s and memory bandwidth, and the line naming the machine (`nacverify bench`).

`nacverify bench` divides each configuration's achieved rates (XLA's FLOP and byte counts of one call
over its median wall time) by these peaks. Where each figure comes from:

* **CPU, FLOP/s**: ``cores x clock x FLOP per cycle per core``, where

  - cores: the logical CPUs this process may run on (``os.sched_getaffinity``; hyperthreads count
    as cores, so on a machine with SMT the peak is an upper bound);
  - clock: ``/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq`` (kHz, the rated maximum)
    where readable, else the largest ``cpu MHz`` of ``/proc/cpuinfo`` (the clock when read;
    a VM's nominal clock); which one was used is recorded (``clock_source``);
  - FLOP per cycle per core, from the vector flags of ``/proc/cpuinfo``: AVX-512 (``avx512f``):
    2 FMA units x 16 float32 lanes x 2 FLOP per FMA = 64; AVX2 with FMA (``avx2`` and ``fma``):
    2 x 8 x 2 = 32; AVX (``avx``): one 8-lane add and one 8-lane multiply per cycle = 16; SSE2
    (``sse2``): 4-lane add and multiply = 8. Two FMA units is the upper case: some AVX-512 parts
    have one, so the peak is an upper bound and the fraction of it a lower bound.

* **CPU, memory bandwidth**: not a published figure, so measured (`copy_bandwidth`): the best of 3
  ``numpy.copyto`` of a 512 MiB buffer into another (both touched first), counting each byte
  read and written (2 x 512 MiB per copy). Without the measurement it is null, with the reason.

* **GPU**: `GPU_PEAKS`, keyed by JAX's ``device_kind``: the dense float32 FLOP/s (no tensor cores)
  and memory bandwidth of NVIDIA's data sheets (H100: "NVIDIA H100 Tensor Core GPU" data sheet;
  H200: "NVIDIA H200 Tensor Core GPU" data sheet; A100: "NVIDIA A100 Tensor Core GPU" data sheet).
  A device kind not in the table gives null peaks and says so. JAX's default float32 matmul
  precision on NVIDIA GPUs uses TF32 tensor cores, so a fraction above 1 of the non-tensor peak
  is possible.

The byte count a rate is formed from (XLA's ``bytes accessed``) charges every operation of the
unfused program with its operands and results, whether they come from memory or from cache, so
for a working set that fits in cache the "fraction of the memory bandwidth" can exceed 1: it says
how much data the program moves, not that DRAM delivered it.

No figure comes from the network.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "CPUINFO",
    "MAX_FREQ",
    "GPU_PEAKS",
    "COPY_BYTES",
    "parse_cpuinfo",
    "flops_per_cycle",
    "cpu_peak",
    "gpu_peak",
    "copy_bandwidth",
    "usable_cores",
    "machine_description",
    "device_peak",
]

CPUINFO = Path("/proc/cpuinfo")
MAX_FREQ = Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
COPY_BYTES = 512 * 2**20
COPY_REPEATS = 3

_H100_SHEET = "NVIDIA H100 Tensor Core GPU data sheet"
_H200_SHEET = "NVIDIA H200 Tensor Core GPU data sheet"
_A100_SHEET = "NVIDIA A100 Tensor Core GPU data sheet"

# device_kind (as jax.devices()[0].device_kind spells it) -> (FP32 FLOP/s, bytes/s, source)
GPU_PEAKS: dict[str, tuple[float, float, str]] = {
    "NVIDIA H100 80GB HBM3": (67e12, 3.35e12, f"{_H100_SHEET}, H100 SXM: FP32 67 TFLOPS, GPU memory bandwidth 3.35 TB/s"),
    "NVIDIA H100 SXM5 80GB": (67e12, 3.35e12, f"{_H100_SHEET}, H100 SXM: FP32 67 TFLOPS, GPU memory bandwidth 3.35 TB/s"),
    "NVIDIA H100 PCIe": (51e12, 2.0e12, f"{_H100_SHEET}, H100 PCIe: FP32 51 TFLOPS, GPU memory bandwidth 2 TB/s"),
    "NVIDIA H200": (67e12, 4.8e12, f"{_H200_SHEET}, H200 SXM: FP32 67 TFLOPS, GPU memory bandwidth 4.8 TB/s"),
    "NVIDIA A100-SXM4-80GB": (19.5e12, 2.039e12, f"{_A100_SHEET}, A100 80GB SXM: FP32 19.5 TFLOPS, GPU memory bandwidth 2,039 GB/s"),
}

# (flags that must all be present, float32 FLOP per cycle per core, why)
_VECTOR_ISAS: tuple[tuple[tuple[str, ...], int, str], ...] = (
    (("avx512f",), 64, "AVX-512: 2 FMA units x 16 float32 lanes x 2 FLOP per FMA"),
    (("avx2", "fma"), 32, "AVX2: 2 FMA units x 8 float32 lanes x 2 FLOP per FMA"),
    (("avx",), 16, "AVX: one 8-lane float32 add and one 8-lane multiply per cycle"),
    (("sse2",), 8, "SSE2: one 4-lane float32 add and one 4-lane multiply per cycle"),
)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def parse_cpuinfo(text: str) -> dict[str, Any]:
    """``processors`` (count of ``processor`` entries), ``model`` (first ``model name``), ``flags``
    (of the first processor, a set), ``mhz`` (largest ``cpu MHz``, or None)."""
    processors, model, flags, mhz = 0, "", None, []
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "processor":
            processors += 1
        elif key == "model name" and not model:
            model = value
        elif key in ("flags", "Features") and flags is None:
            flags = set(value.split())
        elif key == "cpu MHz":
            try:
                mhz.append(float(value))
            except ValueError:
                pass
    return {"processors": processors, "model": model, "flags": flags or set(), "mhz": max(mhz) if mhz else None}


def flops_per_cycle(flags: set[str]) -> tuple[int | None, str]:
    """float32 FLOP per cycle per core of the widest vector unit the flags name, and why (module docstring)."""
    for needed, count, why in _VECTOR_ISAS:
        if all(f in flags for f in needed):
            return count, why
    return None, "no x86 vector flags (avx512f, avx2 + fma, avx, sse2) in /proc/cpuinfo"


def usable_cores() -> int:
    """Logical CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cpu_peak(*, cpuinfo: str, max_freq_khz: str | None, cores: int) -> dict[str, Any]:
    """Peak float32 FLOP/s = cores x clock x FLOP per cycle per core, from the text of /proc/cpuinfo and
    of cpuinfo_max_freq (None where unreadable); every factor and its source in the result."""
    info = parse_cpuinfo(cpuinfo)
    per_cycle, why = flops_per_cycle(info["flags"])
    clock_hz, clock_source = None, "no clock: cpuinfo_max_freq unreadable and no 'cpu MHz' in /proc/cpuinfo"
    try:
        if max_freq_khz is not None and float(max_freq_khz) > 0:
            clock_hz, clock_source = float(max_freq_khz) * 1e3, f"{MAX_FREQ} (rated maximum, kHz)"
    except ValueError:
        pass
    if clock_hz is None and info["mhz"]:
        clock_hz, clock_source = info["mhz"] * 1e6, "/proc/cpuinfo 'cpu MHz' (largest over processors; cpuinfo_max_freq unreadable)"
    peak = None if clock_hz is None or per_cycle is None else float(cores * clock_hz * per_cycle)
    source = (f"cores x clock x FLOP/cycle/core = {cores} x {clock_hz / 1e9:.4g} GHz x {per_cycle} ({why})"
              if peak is not None else f"unknown: {why if per_cycle is None else clock_source}")
    return {
        "cpu_model": info["model"] or "unknown",
        "cores": int(cores),
        "cores_source": "logical CPUs this process may run on (os.sched_getaffinity; hyperthreads counted)",
        "clock_hz": clock_hz,
        "clock_source": clock_source,
        "flops_per_cycle_per_core": per_cycle,
        "vector_unit": why,
        "peak_flops_per_second": peak,
        "peak_flops_source": source,
    }


def gpu_peak(device_kind: str) -> dict[str, Any]:
    """The data-sheet peaks of `device_kind` (`GPU_PEAKS`, matched ignoring case and surrounding
    spaces), or null peaks saying that the kind is not in the table."""
    table = {k.strip().lower(): v for k, v in GPU_PEAKS.items()}
    hit = table.get(device_kind.strip().lower())
    if hit is None:
        why = f"unknown: device kind {device_kind!r} is not in nacverify.bench.peaks.GPU_PEAKS"
        return {"peak_flops_per_second": None, "peak_flops_source": why, "peak_bytes_per_second": None, "peak_bytes_source": why}
    flops, bw, source = hit
    return {"peak_flops_per_second": flops, "peak_flops_source": f"{source} (dense FP32, no tensor cores)",
            "peak_bytes_per_second": bw, "peak_bytes_source": source}


def copy_bandwidth(*, nbytes: int | None = None, repeats: int = COPY_REPEATS) -> dict[str, Any]:
    """Host memory bandwidth: the best of `repeats` ``numpy.copyto`` of `nbytes` (default `COPY_BYTES`)
    into another buffer (both touched first), 2 x `nbytes` (read and written) over the copy's wall time."""
    nbytes = COPY_BYTES if nbytes is None else int(nbytes)
    src = np.ones(nbytes, np.uint8)
    dst = np.zeros(nbytes, np.uint8)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - t0)
    rate = 2.0 * nbytes / best if best > 0 else None
    return {
        "peak_bytes_per_second": rate,
        "peak_bytes_source": f"measured: best of {repeats} numpy.copyto of {nbytes / 2**20:g} MiB, bytes read + written over the copy time",
    }


def machine_description(*, platform: str, device_kind: str, cpu: dict[str, Any] | None = None) -> str:
    """The machine a bench ran on: ``cpu: 2 cores, <CPU model>`` or ``gpu: <device kind>``."""
    if platform == "cpu" and cpu is not None:
        return f"cpu: {cpu['cores']} cores, {cpu['cpu_model']}"
    return f"{platform}: {device_kind}"


def device_peak(*, measure_bandwidth: bool = True) -> dict[str, Any]:
    """The peaks of the device JAX runs `bench` on (``jax.devices()[0]``), their sources and the
    machine line; on a CPU the memory bandwidth is measured (`copy_bandwidth`) unless
    `measure_bandwidth` is False, in which case it is null."""
    import jax

    device = jax.devices()[0]
    platform, kind = str(device.platform), str(getattr(device, "device_kind", device))
    out: dict[str, Any] = {"platform": platform, "device_kind": kind}
    if platform == "cpu":
        cpu = cpu_peak(cpuinfo=_read(CPUINFO) or "", max_freq_khz=_read(MAX_FREQ), cores=usable_cores())
        out.update(cpu)
        if measure_bandwidth:
            out.update(copy_bandwidth())
        else:
            out.update({"peak_bytes_per_second": None, "peak_bytes_source": "unknown: no published figure for a CPU and not measured"})
        out["machine"] = machine_description(platform=platform, device_kind=kind, cpu=cpu)
    else:
        out.update(gpu_peak(kind))
        out["machine"] = machine_description(platform=platform, device_kind=kind)
    return out
