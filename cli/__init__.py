"""The `nacverify` command line (Typer). Thin: parse, call the library, render, exit.

The command line is a program of its own, so it switches its whole process to float64
(`nacverify.compute.precision.enable_float64_globally`) when a command starts (`cli._guard.guarded`);
the library never does. Importing the command line does not import JAX: `--help` and argument
errors answer at once (tests/test_conventions.py).

It also keeps XLA's compiled functions between runs in JAX's persistent compilation cache:
about 40 % of `check --quick` is compiling small functions (measured on a 2-core machine:
99.6 s without the cache, 62.2 s with a warm one). The folder is ``$NACVERIFY_JAX_CACHE``, else
``$XDG_CACHE_HOME/nacverify/jax`` (``~/.cache/nacverify/jax``); ``NACVERIFY_JAX_CACHE=off``
turns it off, and a ``JAX_COMPILATION_CACHE_DIR`` of the user's own is left as it is. Set
through the environment before JAX is imported, so the local Dask workers, which inherit it,
use the same cache. A cached executable is the one XLA compiled: results do not change.
"""

import os

#: The values the lines below fill in (the caches' default folders): only a path the user named is
#: checked (`cli._guard.check_path_variables`); the defaults under ~/.cache stay silent when they
#: cannot be written.
FILLED_IN: dict[str, str] = {}


def _fill_in(name: str, value: str) -> None:
    os.environ[name] = value
    FILLED_IN[name] = value


def _cache_base() -> str:
    """``$XDG_CACHE_HOME/nacverify``, else ``~/.cache/nacverify``: the command line's caches."""
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "nacverify")


def _persistent_compilation_cache() -> None:
    if "JAX_COMPILATION_CACHE_DIR" in os.environ:
        return
    folder = os.environ.get("NACVERIFY_JAX_CACHE", "").strip()
    if folder.lower() in ("off", "0", "no", "false"):
        return
    if not folder:
        folder = os.path.join(_cache_base(), "jax")
    _fill_in("JAX_COMPILATION_CACHE_DIR", folder)
    # JAX caches only compilations over 1 s and entries over a size by default: ours are small
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "-1")
    # JAX by default also points XLA's GPU autotuning cache into this folder, and that path enters
    # every compilation's cache key, on the CPU too: a cache moved or restored elsewhere (another
    # checkout, a CI workspace, a container) then never hits. Verification compiles for the CPU.
    os.environ.setdefault("JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES", "none")


def compilation_cache_state() -> str:
    """"warm" when JAX's persistent compilation cache folder holds an entry, else "cold" (missing,
    empty, or the cache off): which measured claim costs order the tasks (`nacverify.run.task_plan.plan_tasks`)."""
    folder = os.environ.get("JAX_COMPILATION_CACHE_DIR", "").strip()
    try:
        with os.scandir(folder) as entries:
            return "warm" if any(True for _ in entries) else "cold"
    except OSError:  # no folder (first run, or the cache off)
        return "cold"


def _cache_folder(variable: str, name: str) -> None:
    """``$variable`` names the folder of one of nacverify's own caches, else ``.../nacverify/name``;
    ``off`` (or 0, no, false) turns it off (the variable is then empty, which the library reads as
    no cache)."""
    folder = os.environ.get(variable, "").strip()
    if folder.lower() in ("off", "0", "no", "false"):
        _fill_in(variable, "")
    elif not folder:
        _fill_in(variable, os.path.join(_cache_base(), name))


# The symbolic claims' texts are cached beside it (`nacverify.symbolic.catalog_cache`), so that
# loading the claim catalog does not run every proof module (each process that loads it); and the
# traced programs of the largest jitted functions (`nacverify.compute.program_cache`), so that a process does
# not trace and lower again what an earlier run traced: the persistent compilation cache above
# starts only after lowering.
_persistent_compilation_cache()
_cache_folder("NACVERIFY_CATALOG_CACHE", "catalog")
_cache_folder("NACVERIFY_PROGRAM_CACHE", "programs")
