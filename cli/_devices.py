"""Which device each part of a command computes on, decided before JAX starts.

- **Verification** (`check`, `prove`, `frozen-error`, `audit`, `audit-ltc`, `solve`, ...) computes
  on the CPU: its float64 numbers and its verdicts must be the same on every machine, and XLA's
  answers differ by device (another summation order, another cost analysis). A local Dask
  cluster's workers compute on the CPU too, so several worker processes never contend for one
  accelerator's memory (each would otherwise let XLA preallocate 75 % of it, and the second
  runs out).
- **bench** (the NAC model's timings and memory) uses JAX's default device: the accelerator
  when there is one, one process at a time.
- Every process allocates accelerator memory as it needs it (`XLA_PYTHON_CLIENT_PREALLOCATE`
  false unless the user set it), so a bench or a user's own JAX beside it still fits.

``NACVERIFY_PLATFORM=default`` lets verification run on JAX's default device as well (for
example to try float64 solves on a GPU); its verdicts are then the device's.
"""

from __future__ import annotations

import os
import sys

PLATFORM_ENV = "NACVERIFY_PLATFORM"
#: Commands that run on JAX's default device; every other command verifies, on the CPU.
DEVICE_COMMANDS = frozenset({"bench", "backends"})


def verification_on_cpu() -> bool:
    """Whether verification is kept on the CPU (``NACVERIFY_PLATFORM`` unset or ``cpu``)."""
    return os.environ.get(PLATFORM_ENV, "cpu").strip().lower() in ("", "cpu")


def worker_env() -> dict[str, str]:
    """Environment of a local Dask cluster's worker processes (set before they import JAX)."""
    env = {"XLA_PYTHON_CLIENT_PREALLOCATE": os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "false")}
    if verification_on_cpu():
        env["JAX_PLATFORMS"] = "cpu"
    return env


def prepare_process(argv: list[str]) -> None:
    """Set this process's JAX platform and allocation before JAX initialises a backend, from the
    command named in `argv` (the first argument that is not an option)."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    command = next((a for a in argv if not a.startswith("-")), "")
    if command in DEVICE_COMMANDS or not verification_on_cpu():
        return
    os.environ["JAX_PLATFORMS"] = "cpu"
    jax = sys.modules.get("jax")
    if jax is not None and not _backends_started():
        jax.config.update("jax_platforms", "cpu")


def _backends_started() -> bool:
    try:
        from jax._src import xla_bridge

        return bool(getattr(xla_bridge, "_backends", {}))
    except Exception:  # noqa: BLE001  (a JAX without that attribute: assume started, change nothing)
        return True


def device_table() -> list[tuple[str, str]]:
    """(part, where it runs) rows for `nacverify backends`: the devices JAX sees and which parts use them."""
    import jax

    devices = jax.devices()
    default = f"{devices[0].platform} ({', '.join(f'{d.device_kind} [{d.id}]' for d in devices)})"
    verify = "cpu" if verification_on_cpu() else default
    return [
        ("devices JAX sees", default + ("" if devices[0].platform == "cpu" else "; cpu also")),
        ("verification: check, prove, frozen-error, audit, audit-ltc, solve", f"{verify} ({PLATFORM_ENV}={os.environ.get(PLATFORM_ENV, 'cpu')})"),
        ("local Dask workers (--jobs N)", f"{'cpu' if verification_on_cpu() else default}, preallocation off"),
        ("bench (the NAC model's timings)", default),
        ("NAC layer's query chunk (bench, model runs)", _query_chunk_rule()),
        ("frozen-error --sweep default --chunk", _sweep_chunk_default()),
    ]


def _query_chunk_rule() -> str:
    from nacverify.device_memory import default_device
    from nacverify.model.chunking import CPU_PAIR_BUDGET, MEMORY_FRACTION, MIN_CHUNK_QUERIES

    device = default_device()
    quarter = f"{MEMORY_FRACTION:.0%} of {device.memory_bytes / 2**30:.1f} GiB"
    if device.platform == "cpu":
        return f"cpu: {CPU_PAIR_BUDGET:,} pair elements per chunk, at least {MIN_CHUNK_QUERIES} queries, within {quarter}"
    return f"{device.platform}: the largest chunk within {quarter}"


def _sweep_chunk_default() -> str:
    from nacverify.device_memory import DeviceMemory, default_device
    from nacverify.frozen import SolveOptions, default_chunk

    points = SolveOptions().points
    device = default_device() if not verification_on_cpu() else DeviceMemory("cpu", 0)
    return f"{default_chunk(points, device):,} draws ({device.platform}, {points} saved points)"
