"""What ran: tool and library versions, platform and device, for report attributes; and the
environment variables that name paths, checked (`path_variable_problems`)."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["library_versions", "platform_description", "device_description", "PATH_VARIABLES", "CACHE_VARIABLES", "path_variable_problems"]

#: the caches' variables: a folder, or off (off, 0, no, false)
CACHE_VARIABLES = ("NACVERIFY_JAX_CACHE", "NACVERIFY_CATALOG_CACHE", "NACVERIFY_PROGRAM_CACHE", "JAX_COMPILATION_CACHE_DIR")
#: every environment variable of nacverify's that names a path (the Julia backend's own are checked
#: where it looks for Julia: `nacverify.solvers.julia_detect`)
PATH_VARIABLES = ("NACVERIFY_SEEDS", "NACVERIFY_REFERENCE", *CACHE_VARIABLES, "XDG_CACHE_HOME")
_OFF = ("off", "0", "no", "false")

_LIBRARIES = ("nacverify", "jax", "jaxlib", "diffrax", "equinox", "sympy", "numpy", "scipy", "h5py", "typer", "rich")


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries nacverify's numbers depend on."""
    out: dict[str, str] = {"python": sys.version.split()[0]}
    for name in _LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def platform_description() -> str:
    return f"{platform.system()} {platform.release()} {platform.machine()}; {platform.processor() or 'cpu'}"


def device_description() -> str:
    """The JAX default backend and its devices, e.g. 'cpu: TFRT_CPU_0'."""
    import jax

    devices = jax.devices()
    kinds = ", ".join(sorted({getattr(d, "device_kind", str(d)) for d in devices}))
    return f"{jax.default_backend()}: {len(devices)} x {kinds}"


def _writable_folder(value: str) -> str | None:
    """Why `value` cannot be a folder that nacverify writes into (created if missing), or None."""
    folder = Path(value).expanduser()
    if folder.exists() and not folder.is_dir():
        return "not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"not a writable folder ({exc.strerror or exc})"
    return None


def path_variable_problems(variables: Mapping[str, str] | None = None) -> list[str]:
    """One line per environment variable in `variables` (default: `os.environ`) that names a path
    which cannot serve: a wrong path is an error, never a silent fallback to a default.

    - ``NACVERIFY_SEEDS``: a folder holding the five source documents (`nacverify.ledger.SEED_FILES`);
    - ``NACVERIFY_REFERENCE``: the golden file, or a folder holding it;
    - the caches (`CACHE_VARIABLES`): ``off``, or a folder that exists or can be created, writable;
    - ``XDG_CACHE_HOME``: an absolute path (the XDG rule) to such a folder, where a cache of
      nacverify's lives under it (its own variable is not set).

    An empty value counts as unset."""
    env = os.environ if variables is None else variables
    problems: list[str] = []
    seeds = env.get("NACVERIFY_SEEDS", "").strip()
    if seeds:
        from ..ledger import SEED_FILES

        folder = Path(seeds).expanduser()
        missing = [name for name in SEED_FILES.values() if not (folder / name).is_file()]
        if not folder.is_dir():
            problems.append(f"NACVERIFY_SEEDS={seeds}: no such folder (it names the folder of the source documents; unset it to use ../shared/seeds)")
        elif missing:
            problems.append(f"NACVERIFY_SEEDS={seeds}: the folder lacks {len(missing)} of the {len(SEED_FILES)} source documents ({missing[0]}, ...)")
    reference = env.get("NACVERIFY_REFERENCE", "").strip()
    if reference:
        from ..checks.nac_reference_parity import REFERENCE_FILE

        named = Path(reference).expanduser()
        folder = named.parent if named.suffix == ".npz" else named
        if not (folder / REFERENCE_FILE).is_file():
            problems.append(f"NACVERIFY_REFERENCE={reference}: no {REFERENCE_FILE} there (unset it to use the copy shipped with nacverify)")
    for name in CACHE_VARIABLES:
        value = env.get(name, "").strip()
        if value and value.lower() not in _OFF:
            why = _writable_folder(value)
            if why:
                problems.append(f"{name}={value}: {why} (set it to a writable folder, or to off)")
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    if xdg and any(not env.get(name, "").strip() for name in CACHE_VARIABLES[:3]):
        why = "not an absolute path (the XDG rule)" if not os.path.isabs(xdg) else _writable_folder(xdg)
        if why:
            problems.append(f"XDG_CACHE_HOME={xdg}: {why}; nacverify keeps its caches in $XDG_CACHE_HOME/nacverify (set NACVERIFY_JAX_CACHE, "
                            "NACVERIFY_CATALOG_CACHE, NACVERIFY_PROGRAM_CACHE to off or to folders, or fix it)")
    return problems
