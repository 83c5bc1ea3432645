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

Verification also compiles with XLA's classic CPU emitters (``--xla_cpu_use_fusion_emitters=false``
added to ``XLA_FLAGS``, `classic_cpu_emitters`): a verification run compiles a hundred programs
and a few hundred small operations, each run once or a few times, and on the CPU that compiling
is most of a first run. The classic emitters compile the same programs in about 35 % less time
(measured on a 2-core machine: the XLA compile time of seven claims 15.8 s -> 10.0 s; a cold
``check --quick`` 121 s -> 92 s) and run them as fast (a warm ``check --quick`` 27.8 s either
way). Their elementwise functions (exp, tanh, expm1, log1p, sigmoid, softplus) give XLA's default
bits (tests/test_devices.py), but they fuse and emit loops their own way, so a few float64 results
differ in the last bits (8 of 4060 numbers of a ``check --quick`` report besides timing exponents:
the Kvaerno5 solves' to 1.1e-10 relative, and ``ltc.alg_bptt.gradient``'s finite-difference
errors to 7e-7 of themselves; no verdict). `bench` keeps XLA's defaults: its
timings describe the code a user's own program gets. ``NACVERIFY_XLA_EMITTERS=default`` keeps
them for verification too; an ``XLA_FLAGS`` that names the flag already is left as it is, and a
jaxlib that no longer knows the flag is not given it (XLA would stop at an unknown flag).
"""

from __future__ import annotations

import os
import sys

PLATFORM_ENV = "NACVERIFY_PLATFORM"
EMITTERS_ENV = "NACVERIFY_XLA_EMITTERS"
CLASSIC_EMITTERS_FLAG = "--xla_cpu_use_fusion_emitters=false"
_FLAG_NAME = "xla_cpu_use_fusion_emitters"
#: Commands that run on JAX's default device; every other command verifies, on the CPU.
DEVICE_COMMANDS = frozenset({"bench", "backends"})


def verification_on_cpu() -> bool:
    """Whether verification is kept on the CPU (``NACVERIFY_PLATFORM`` unset or ``cpu``)."""
    return os.environ.get(PLATFORM_ENV, "cpu").strip().lower() in ("", "cpu")


def worker_env() -> dict[str, str]:
    """Environment of a local Dask cluster's worker processes (set before they import JAX)."""
    env = {"XLA_PYTHON_CLIENT_PREALLOCATE": os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "false")}
    if os.environ.get("XLA_FLAGS"):
        env["XLA_FLAGS"] = os.environ["XLA_FLAGS"]
    if verification_on_cpu():
        env["JAX_PLATFORMS"] = "cpu"
    return env


def prepare_process(argv: list[str]) -> None:
    """Set this process's JAX platform and allocation before JAX initialises a backend, from the
    command named in `argv` (the first argument that is not an option)."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    command = next((a for a in argv if not a.startswith("-")), "")
    if command in DEVICE_COMMANDS:
        return
    classic_cpu_emitters()
    if not verification_on_cpu():
        return
    os.environ["JAX_PLATFORMS"] = "cpu"
    jax = sys.modules.get("jax")
    if jax is not None and not _backends_started():
        jax.config.update("jax_platforms", "cpu")


def classic_cpu_emitters() -> bool:
    """Add `CLASSIC_EMITTERS_FLAG` to ``XLA_FLAGS`` (module docstring) unless `_emitters_withheld` gives
    a reason not to. Returns whether the flag is now in force. Only before JAX starts a backend: XLA
    reads its flags once."""
    flags = os.environ.get("XLA_FLAGS", "")
    if _FLAG_NAME in flags:
        return CLASSIC_EMITTERS_FLAG in flags.split()
    if _emitters_withheld() or ("jax" in sys.modules and _backends_started()):
        return False
    os.environ["XLA_FLAGS"] = f"{flags} {CLASSIC_EMITTERS_FLAG}".strip()
    return True


def _emitters_withheld() -> str | None:
    """Why verification keeps XLA's default emitters here, or None when it takes the classic ones."""
    if os.environ.get(EMITTERS_ENV, "").strip().lower() == "default":
        return f"{EMITTERS_ENV}=default"
    if _FLAG_NAME in os.environ.get("XLA_FLAGS", ""):
        return f"XLA_FLAGS names {_FLAG_NAME}"
    if not _jaxlib_knows(_FLAG_NAME):
        return f"this jaxlib has no {_FLAG_NAME}"
    return None


def _jaxlib_knows(flag: str) -> bool:
    """Whether the installed jaxlib's XLA defines the flag `flag`: its name is in the library that
    parses ``XLA_FLAGS`` (found without importing JAX)."""
    import importlib.util
    import mmap

    spec = importlib.util.find_spec("jaxlib")
    if spec is None or not spec.submodule_search_locations:
        return False
    folder = list(spec.submodule_search_locations)[0]
    needle = flag.encode() + b"\0"
    for name in sorted(os.listdir(folder)):
        if not name.startswith("libjax") or (".so" not in name and not name.endswith((".dylib", ".dll"))):
            continue
        try:
            with open(os.path.join(folder, name), "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if data.find(needle) >= 0:
                    return True
        except (OSError, ValueError):
            continue
    return False


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
        ("verification's XLA CPU emitters", _emitters()),
        ("bench (the NAC model's timings)", default),
        ("NAC layer's query chunk (bench, model runs)", _query_chunk_rule()),
        ("frozen-error --sweep default --chunk", _sweep_chunk_default()),
    ]


def _emitters() -> str:
    withheld = _emitters_withheld()
    if withheld:
        return f"XLA's defaults ({withheld})"
    return f"classic, compiled faster ({CLASSIC_EMITTERS_FLAG}; bench keeps XLA's defaults)"


def _query_chunk_rule() -> str:
    from nacverify.compute.device_memory import default_device
    from nacverify.model.chunking import CPU_PAIR_BUDGET, MEMORY_FRACTION, MIN_CHUNK_QUERIES

    device = default_device()
    quarter = f"{MEMORY_FRACTION:.0%} of {device.memory_bytes / 2**30:.1f} GiB"
    if device.platform == "cpu":
        return f"cpu: {CPU_PAIR_BUDGET:,} pair elements per chunk, at least {MIN_CHUNK_QUERIES} queries, within {quarter}"
    return f"{device.platform}: the largest chunk within {quarter}"


def _sweep_chunk_default() -> str:
    from nacverify.compute.device_memory import DeviceMemory, default_device
    from nacverify.frozen import SolveOptions, default_chunk

    points = SolveOptions().points
    device = default_device() if not verification_on_cpu() else DeviceMemory("cpu", 0)
    return f"{default_chunk(points, device):,} draws ({device.platform}, {points} saved points)"
