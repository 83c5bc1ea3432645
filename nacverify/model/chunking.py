r"""How many queries the NAC layer attends to at once (its query chunk), from the device.

The pairwise work of one chunk of $c$ queries is $B \cdot H \cdot c \cdot W$ pair elements
($B$ batch, $H$ heads, $W$ keys a query is scored against: $T_k$ for exact Top-K and PW, the
candidate width for block Top-K). The layer maps over $\lceil T_q / c \rceil$ chunks
(`jax.lax.map`), so memory grows with $c$ and the per-chunk overhead with $T_q / c$. Chunks
never change a query's arithmetic: every query is computed from the same keys either way.

The rule (`query_chunk`), $c$ a power of two, at most $T_q$:

* **memory cap** $c_{max}$: the chunk's pair tensors, counted as `LIVE_PAIR_ARRAYS` arrays of
  the element size, take at most `MEMORY_FRACTION` of the device's memory (an accelerator's
  ``bytes_limit`` from ``device.memory_stats()``; a CPU's physical memory);
* **CPU**: $c = \mathrm{clamp}(\mathrm{CPU\_PAIR\_BUDGET} / (B H W),\ \mathrm{MIN\_CHUNK\_QUERIES},\ c_{max})$:
  a chunk's pairs stay cache-sized, but never fewer than 32 queries: below that, the
  per-chunk overhead dominates. Measured on a 2-core AVX-512 Xeon, T = 1024, d_model 64,
  4 heads, float32 (`nacverify.bench.timings.measure`, 10 repeats; seq/s, best chunk bold):

  | row | B | c = 2 | 8 | 16 | 32 | 64 | 128 | 256 |
  | --- | --- | --- | --- | --- | --- | --- | --- | --- |
  | Exact-seq | 1 | | | | 59.7 | **62.7** | 59.9 | 58.5 |
  | PW-seq | 1 | | | | 50.9 | 57.2 | 62.7 | **66.8** |
  | Exact-seq | 16 | | 53.3 | 61.1 | 64.3 | 67.8 | **69.2** | |
  | PW-seq | 16 | | 55.0 | 63.0 | **68.2** | 67.0 | 60.9 | |
  | Exact-seq | 64 | 26.4 | 42.8 | 51.2 | 57.3 | **59.3** | | |
  | PW-seq | 64 | 21.4 | 41.1 | 46.6 | **52.8** | 48.3 | | |

  The budget alone (2^19 pair elements, the rule before) chose c = 128, 8 and 2 for B = 1,
  16 and 64; the floor of 32 gives 128, 32 and 32.
* **accelerators** (GPU, TPU): $c = c_{max}$, the largest chunk the memory fraction allows: a
  GPU wants as much parallel work per launch as fits (issue 24 measured, on one H100 at
  B = 512, Exact-seq 3,700 -> 7,350 seq/s and PW-seq 6,700 -> 26,000 seq/s going from the
  CPU budget's chunk to chunks of 64-1024 queries). A device that reports no memory is
  treated as a CPU.

An explicit ``query_chunk`` option overrides the rule.
"""

from __future__ import annotations

import math

from ..compute.device_memory import DeviceMemory, default_device

__all__ = ["DeviceMemory", "CPU_PAIR_BUDGET", "MIN_CHUNK_QUERIES", "MEMORY_FRACTION", "LIVE_PAIR_ARRAYS", "default_device", "query_chunk"]

#: Pair elements (batch x heads x queries x width) per chunk on a CPU (2 MiB of float32; the rule before, kept for B = 1).
CPU_PAIR_BUDGET = 1 << 19
#: Fewest queries per chunk (unless the memory cap is lower): the per-chunk overhead dominates below.
MIN_CHUNK_QUERIES = 32
#: Largest share of the device's memory one chunk's pair tensors may take.
MEMORY_FRACTION = 0.25
#: Pair-shaped arrays alive at once, counted for the memory cap. XLA's memory analysis of the
#: float32 layer on the CPU grows by about 4 bytes per pair element of a chunk (one array);
#: four leave room for a backend that fuses less.
LIVE_PAIR_ARRAYS = 4


def _pow2_floor(n: float) -> int:
    return 1 << int(math.floor(math.log2(n))) if n >= 1 else 1


def query_chunk(queries: int, pairs_per_query: int, itemsize: int, device: DeviceMemory) -> int:
    """Queries per chunk for `queries` queries, each with `pairs_per_query` pair elements
    (B H W) of `itemsize` bytes, on `device` (module docstring)."""
    per_query = max(1, int(pairs_per_query))
    cap = _pow2_floor(device.memory_bytes * MEMORY_FRACTION / (per_query * itemsize * LIVE_PAIR_ARRAYS))
    if device.platform == "cpu":
        chunk = max(_pow2_floor(CPU_PAIR_BUDGET / per_query), MIN_CHUNK_QUERIES)
        chunk = min(chunk, cap)
    else:
        chunk = cap
    return max(1, min(chunk, int(queries)))
