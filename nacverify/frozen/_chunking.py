"""The default chunk of a sweep (draws solved as one system), from the device.

A sweep's numbers depend on its chunk (each chunk is one system with one step-size controller),
so the chunk is part of its definition and the report states it with this default. `frozen-error`
verifies on the CPU unless ``NACVERIFY_PLATFORM=default`` (`nacverify backends`), so an
accelerator's default applies only there.
"""

from __future__ import annotations

from ..compute.device_memory import DeviceMemory, default_device

__all__ = ["DEFAULT_CHUNK", "ACCELERATOR_CHUNK_MAX", "SWEEP_ARRAYS_PER_POINT", "CHUNK_MEMORY_FRACTION", "default_chunk"]

#: The default chunk (draws solved as one system). Part of a sweep's definition: another chunk
#: gives other numbers. On a 2-core CPU, 500 to 8,000 cost the same per draw (within the noise of a
#: shared machine), so the default stays 2,000.
DEFAULT_CHUNK = 2000
#: The largest default chunk on an accelerator: issue 24's one H100 solved 140,000 trajectories/s at a
#: chunk of 100,000 against 21,000/s at 2,000 (larger chunks were not measured).
ACCELERATOR_CHUNK_MAX = 100_000
#: float64 arrays per saved point held for each draw while a chunk is solved and analysed (the two
#: solves' trajectories, the frozen solution, the error and the bounds, with room for the solver's copies):
#: the accelerator default keeps a chunk within `CHUNK_MEMORY_FRACTION` of the device's memory.
SWEEP_ARRAYS_PER_POINT = 8
CHUNK_MEMORY_FRACTION = 0.25


def default_chunk(points: int, device: DeviceMemory | None = None) -> int:
    """The chunk `frozen-error --sweep` takes when none is given, on `device` (default: JAX's):
    `DEFAULT_CHUNK` on a CPU; on an accelerator as many draws as fit in `CHUNK_MEMORY_FRACTION`
    of its memory at `SWEEP_ARRAYS_PER_POINT` float64 arrays of `points` saved points per draw,
    in thousands, at most `ACCELERATOR_CHUNK_MAX` (e.g. 80 GiB, 1001 points: 100,000). The
    chunk is part of a sweep's definition, so the report states it and this default."""
    device = device or default_device()
    if device.platform == "cpu":
        return DEFAULT_CHUNK
    fits = int(device.memory_bytes * CHUNK_MEMORY_FRACTION // (8 * SWEEP_ARRAYS_PER_POINT * max(1, int(points))))
    return max(1, min(ACCELERATOR_CHUNK_MAX, fits // 1000 * 1000 or fits))
