"""The memory of the device JAX computes on, for sizing chunks of work (the NAC layer's query
chunks, `nacverify.model.chunking`; a sweep's default chunk, `nacverify.frozen.default_chunk`).

An accelerator reports its usable memory as ``bytes_limit`` in ``device.memory_stats()``; a CPU
has the machine's physical memory. An accelerator that reports none is treated as a CPU.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

__all__ = ["DeviceMemory", "default_device"]


class DeviceMemory(NamedTuple):
    """What chunk sizing needs of a device: its platform ("cpu", "gpu", "tpu", ...) and its memory in bytes."""

    platform: str
    memory_bytes: int


@functools.cache
def default_device() -> DeviceMemory:
    """JAX's default device: an accelerator's ``bytes_limit``, else the machine's physical memory
    (also for an accelerator that reports none; it is then treated as a CPU)."""
    import jax
    import psutil

    device = jax.devices()[0]
    platform = device.platform
    if platform != "cpu":
        try:
            limit = int((device.memory_stats() or {}).get("bytes_limit", 0))
        except Exception:  # a backend without memory statistics
            limit = 0
        if limit > 0:
            return DeviceMemory(platform, limit)
        platform = "cpu"
    return DeviceMemory(platform, int(psutil.virtual_memory().total))
