r"""Traced programs kept between runs: `cached_jit`, a `equinox.filter_jit` whose lowered
program (`jax.export`, StableHLO) is stored on disk and read back by later processes.

Why. JAX's persistent compilation cache keeps XLA's executables, but every new process still
traces each jitted function in Python and lowers it to StableHLO before it can look the
executable up. For a diffrax solve that is about 0.4 s (trace 0.3 s, lowering 0.1 s), paid by
each of `check`'s worker processes for each solve shape: on a 2-core machine, tracing and
lowering were 31 s of the 59 s of a warm serial `check --quick`. A program read back from
this cache is deserialised in about 1 ms; XLA's executable for it still comes from the
persistent compilation cache.

What is cached, and under which key. `cached_jit(fun)(*args)` splits `args` as `filter_jit`
does: arrays (JAX or NumPy) are the program's inputs (an array object that occurs twice is one
input, `inputs`), everything else (Python numbers, functions, solver objects, the tree's
structure) is baked into the program. The key is a
SHA-256 of

- every source file of nacverify and its proofs, and the Python version
  (`nacverify.compute.source_tree.source_digest`);
- the versions of JAX, jaxlib, equinox, diffrax and NumPy;
- the default backend's platform and device kind, and the memory the NAC layer sizes its
  query chunks by (`nacverify.compute.device_memory`);
- the JAX settings that change a trace: ``jax_enable_x64``, ``jax_default_matmul_precision``,
  ``jax_numpy_rank_promotion``, ``jax_numpy_dtype_promotion``, ``jax_default_prng_impl``,
  ``jax_threefry_partitionable``, ``jax_enable_checks``, ``jax_debug_nans``,
  ``jax_debug_infs``;
- `fun` itself, pickled (a function by its module and qualified name, a `functools.partial` with
  its arguments), and the caller's `context()` (a mode the trace reads, e.g.
  `solvers._diffrax.checks_without_callbacks`);
- a pickle of `args` with each array replaced by its shape, dtype and weak type, and which of
  the arrays are the same object. Pickle
  names functions and classes by module and qualified name, and refuses a lambda or a local
  function: such a call is not cached (it runs as `filter_jit` would).

A call the cache cannot take (no cache folder, an argument that does not pickle, keyword
arguments, a call inside another trace such as `jax.grad` or `jax.vmap` (an exported program
carries no derivative), a program `jax.export` cannot serialise, e.g. one with a host callback) runs as
`equinox.filter_jit(fun)` would, and a folder that cannot be written only costs the saving.
An unreadable or malformed entry, or one whose inputs differ from the call's, counts as
missing and is written anew. The stored program is the one `jit` would have compiled, so
results do not change (tests/test_program_cache.py compares them bit for bit).

The folder is ``$NACVERIFY_PROGRAM_CACHE``; the command line sets it beside JAX's cache, and
the library alone never caches (the functions behave as `filter_jit` there). Programs are kept
in one subfolder per source tree, library versions and device; the four most recently used
are kept and older ones removed, so that the folder does not grow with every edit. Only
functions whose trace depends on nothing but their arguments and the items above may use it:
no module-level state that a run changes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import pickle
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import numpy as np

__all__ = ["CACHE_ENV", "cached_jit", "cache_folder", "cpu_program", "environment_key", "inputs", "register_namedtuple"]

CACHE_ENV = "NACVERIFY_PROGRAM_CACHE"
SUFFIX = ".jaxexport"
_FORMAT = "nacverify.compute.program_cache/1"
_SETTINGS = ("jax_enable_x64", "jax_default_matmul_precision", "jax_numpy_rank_promotion", "jax_numpy_dtype_promotion",
             "jax_default_prng_impl", "jax_threefry_partitionable", "jax_enable_checks", "jax_debug_nans", "jax_debug_infs")
_PACKAGES = ("jax", "jaxlib", "equinox", "diffrax", "numpy")

_LOCK = threading.RLock()  # reentrant: a function traced for export may call another cached one
_LOADED: dict[str, Any] = {}  # key -> jax.export.Exported, this process
_REFUSED: set[str] = set()  # keys jax.export could not serialise, this process
_NAMEDTUPLES: set[str] = set()  # NamedTuples registered with jax.export, this process
_GENERATIONS_SEEN: set[str] = set()  # generation subfolders this process has used


def cache_folder() -> Path | None:
    """The folder named by ``$NACVERIFY_PROGRAM_CACHE``, or None (no cache)."""
    folder = os.environ.get(CACHE_ENV, "").strip()
    return Path(folder) if folder and folder.lower() not in ("off", "0", "no", "false") else None


@functools.cache
def _static_environment() -> bytes:
    from .device_memory import default_device
    from .source_tree import source_digest

    versions = []
    for name in _PACKAGES:
        try:
            versions.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name}=?")
    device = jax.devices()[0]
    memory = default_device()  # the NAC layer's query chunks follow it (nacverify.model.chunking)
    return "\n".join([_FORMAT, source_digest(), sys.version, *versions, device.platform, str(getattr(device, "device_kind", "")),
                      f"{memory.platform} {memory.memory_bytes}"]).encode()


def environment_key() -> bytes:
    """What every key holds besides the function and its arguments: the source and library
    versions, the default device, and the JAX settings that change a trace (read now: the
    float64 setting is scoped)."""
    settings = "\n".join(f"{name}={getattr(jax.config, name, None)!r}" for name in _SETTINGS)
    return _static_environment() + b"\n" + settings.encode()


def _is_input(leaf: Any) -> bool:
    """An input of the program: an array, or the shape and dtype of one (for lowering only)."""
    return eqx.is_array(leaf) or isinstance(leaf, jax.ShapeDtypeStruct)


def _describe(array: Any) -> tuple:
    """An array's place in the pickled call: its shape, dtype (as JAX will see it) and weak
    type, not its values."""
    dtype = jax.dtypes.canonicalize_dtype(np.dtype(array.dtype))
    return ("array", tuple(int(n) for n in np.shape(array)), str(dtype), bool(getattr(array, "weak_type", False)))


def _spec(array: Any) -> jax.ShapeDtypeStruct:
    _, shape, dtype, weak_type = _describe(array)
    return jax.ShapeDtypeStruct(shape, np.dtype(dtype), weak_type=weak_type)


def _all_inputs(args: tuple) -> list:
    """The arrays of `args`, in the order of their tree, each occurrence."""
    return jax.tree.leaves(eqx.filter(args, _is_input))


def _aliases(leaves: list) -> tuple[int, ...]:
    """For each array of `leaves`, the position of its first occurrence among the distinct ones
    (the same object twice is one input)."""
    first: dict[int, int] = {}
    return tuple(first.setdefault(id(leaf), len(first)) for leaf in leaves)


def inputs(args: tuple) -> list:
    """The exported program's inputs: the arrays of `args` in the order of their tree, an array
    that occurs more than once (the same object) only at its first place.

    Why only once. Variants of one model (``NAC.with_options``) hold the same parameter arrays;
    passed once, they are one input of the program, and XLA computes what the variants share
    once (common-subexpression elimination) instead of once per variant. Measured on a 2-core
    machine: nac.s22.softmax's 18 variants of 3 models compiled in 5.8 s as 18 models' inputs,
    2.2 s with the 3 models' parameters shared, to the same bits."""
    return list({id(leaf): leaf for leaf in _all_inputs(args)}.values())  # a dict keeps each key's first place


def _key(fun: Any, context: Any, args: tuple) -> str | None:
    """The cache key of calling `fun(*args)`, or None when the call cannot be named (`fun` or an
    argument that does not pickle: a lambda, a local function). `fun` is the function or what names
    it (`cached_jit` passes its module and qualified name: the module's attribute is the wrapper)."""
    described = jax.tree.map(lambda leaf: _describe(leaf) if _is_input(leaf) else leaf, args)
    try:
        call = pickle.dumps((fun, context, described, _aliases(_all_inputs(args))), protocol=4)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None
    return hashlib.sha256(environment_key() + b"\n" + call).hexdigest()


def _read(path: Path, specs: list[jax.ShapeDtypeStruct]) -> Any | None:
    """The stored program at `path`, or None when missing, unreadable or not for these inputs."""
    try:
        exported = jax.export.deserialize(bytearray(path.read_bytes()))
    except Exception:  # noqa: BLE001  (missing, truncated or from another format: counts as missing)
        return None
    if len(exported.in_avals) != len(specs) or any(
            tuple(a.shape) != s.shape or a.dtype != s.dtype for a, s in zip(exported.in_avals, specs)):
        return None
    return exported


def _write(path: Path, blob: bytes) -> None:
    """Store `blob` at `path` atomically (a reader sees the old file or the whole new one); a
    folder that cannot be written is no error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)  # type: ignore[possibly-undefined]
        except (OSError, NameError):
            pass


def _export(fun: Callable, args: tuple, specs: list[jax.ShapeDtypeStruct], platforms: tuple[str, ...] | None = None) -> Any:
    dynamic, static = eqx.partition(args, _is_input)
    treedef = jax.tree.structure(dynamic)
    aliases = _aliases(jax.tree.leaves(dynamic))

    def program(*distinct):
        leaves = [distinct[position] for position in aliases]
        return fun(*eqx.combine(jax.tree.unflatten(treedef, leaves), static))

    program.__name__ = getattr(fun, "__name__", "program")
    return jax.export.export(jax.jit(program), platforms=platforms)(*specs)


KEEP_GENERATIONS = 4  # source trees / library versions whose programs are kept side by side


def _generation_folder(folder: Path) -> Path:
    """The subfolder of this source tree, library versions and device (a hash of
    `_static_environment`). The first time a process writes into a new one, all but the
    `KEEP_GENERATIONS` most recently used subfolders are removed, so that the cache does not grow
    with every edit or upgrade."""
    generation = folder / hashlib.sha256(_static_environment()).hexdigest()[:16]
    if generation.name not in _GENERATIONS_SEEN:
        _GENERATIONS_SEEN.add(generation.name)
        try:
            generation.mkdir(parents=True, exist_ok=True)
            os.utime(generation)  # most recently used
            others = sorted((p for p in folder.iterdir() if p.is_dir() and p != generation), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in others[KEEP_GENERATIONS - 1:]:
                shutil.rmtree(old, ignore_errors=True)
            for stray in folder.glob("*" + SUFFIX):  # the first layout kept every program at the top
                stray.unlink(missing_ok=True)
        except OSError:
            pass
    return generation


def _program(fun: Callable, key: str, args: tuple, folder: Path, platforms: tuple[str, ...] | None = None) -> Any | None:
    """The exported program for this call: from this process, from disk, or exported now and
    stored. None when `jax.export` cannot serialise it."""
    with _LOCK:
        if key in _REFUSED:
            return None
        if key in _LOADED:
            return _LOADED[key]
        specs = [_spec(leaf) for leaf in inputs(args)]
        path = _generation_folder(folder) / (key + SUFFIX)
        exported = _read(path, specs)
        if exported is None:
            try:
                exported = _export(fun, args, specs, platforms)
                blob = exported.serialize()
            except Exception:  # noqa: BLE001  (a host callback, an output tree export cannot name: run as filter_jit)
                _REFUSED.add(key)
                return None
            _write(path, bytes(blob))
        _LOADED[key] = exported
        return exported


def cpu_program(fun: Callable, args: tuple) -> Any | None:
    """The program of ``fun(*args)`` lowered for the CPU (`args`: arrays or `jax.ShapeDtypeStruct`s,
    the rest static), from the cache or exported now and stored; None when there is no cache or
    it cannot take the call. ``jax.jit(program.call).lower(*inputs(args))`` is then the lowered
    program without tracing `fun` (`nacverify.compute.xla_cost` counts its operations)."""
    folder = cache_folder()
    if folder is None:
        return None
    key = _key(fun, ("lowered for", "cpu"), args)
    return None if key is None else _program(fun, key, args, folder, platforms=("cpu",))


def register_namedtuple(cls: type) -> None:
    """Let `jax.export` store a program whose output holds the NamedTuple `cls` (under its
    module and qualified name); once per process, later calls do nothing."""
    name = f"{cls.__module__}.{cls.__qualname__}"
    with _LOCK:
        if name in _NAMEDTUPLES:
            return
        jax.export.register_namedtuple_serialization(cls, serialized_name=name)
        _NAMEDTUPLES.add(name)


def cached_jit(fun: Callable | None = None, *, context: Callable[[], Any] | None = None) -> Callable:
    """`equinox.filter_jit(fun)`, whose traced program is kept between processes (module
    docstring). `context()`, when given, names a mode `fun`'s trace reads besides its
    arguments; it becomes part of the key. Usable as ``@cached_jit`` or
    ``@cached_jit(context=...)``."""
    if fun is None:
        return functools.partial(cached_jit, context=context)
    jitted = eqx.filter_jit(fun)

    @functools.wraps(fun)
    def call(*args, **kwargs):
        folder = cache_folder()
        if folder is None or kwargs or any(isinstance(leaf, jax.core.Tracer) for leaf in inputs(args)):
            return jitted(*args, **kwargs)  # inside another trace (jit, grad, vmap): nested as filter_jit nests
        key = _key((fun.__module__, fun.__qualname__), context() if context else None, args)
        exported = None if key is None else _program(fun, key, args, folder)
        if exported is None:
            return jitted(*args)
        return exported.call(*inputs(args))

    call.filter_jit = jitted  # the uncached function, e.g. for tests
    return call
