"""Find an existing Julia executable *without* importing juliacall.

Importing juliacall when no Julia is configured makes juliapkg download and install one.
nacverify never lets that happen: it first looks for a Julia that is already installed,
in this order, and verifies each candidate by running ``julia --version``:

1. ``PYTHON_JULIACALL_EXE`` and ``PYTHON_JULIACALL_BINDIR``/julia (juliacall's own options);
2. ``PYTHON_JULIAPKG_EXE`` (juliapkg's configured executable);
3. ``JULIA`` (an executable path; nacverify's convenience variable);
4. ``julia`` on ``PATH``;
5. juliaup: the launcher ``~/.juliaup/bin/julia`` and the versions recorded in
   ``$JULIAUP_DEPOT_PATH/juliaup/juliaup.json`` (default depot ``~/.julia``);
6. a Julia that juliapkg installed earlier into its environment prefix
   (``<julia_env>/pyjuliapkg/install/bin/julia``).

The result lists every place looked at, so "not found" says exactly what was searched. A
variable of 1-3 that the user set and that names no usable Julia is an error, not a hint: no
Julia found later is used then (the backend is missing, with that reason), never a silent
fallback to another Julia.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["MIN_JULIA", "JuliaSearch", "find_julia", "julia_version"]

MIN_JULIA = (1, 10)  # julia/Project.toml [compat] julia = "1.10"
_VERSION = re.compile(r"^julia version (\d+)\.(\d+)\.(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class JuliaSearch:
    """Outcome of the search: the executable and version found (or None), and what was looked at."""

    executable: str | None
    version: tuple[int, int, int] | None
    source: str  # which rule found it
    looked: tuple[str, ...] = field(default_factory=tuple)
    rejected: tuple[str, ...] = field(default_factory=tuple)

    @property
    def found(self) -> bool:
        return self.executable is not None

    @property
    def version_text(self) -> str:
        return ".".join(map(str, self.version)) if self.version else ""

    def reason(self) -> str:
        if self.found:
            return f"Julia {self.version_text} at {self.executable} (from {self.source})"
        parts = ["no Julia executable found; looked for " + "; ".join(self.looked)]
        if self.rejected:
            parts.append("rejected: " + "; ".join(self.rejected))
        parts.append(
            f"install Julia >= {MIN_JULIA[0]}.{MIN_JULIA[1]} (https://julialang.org/install, juliaup) or point "
            "PYTHON_JULIAPKG_EXE at an existing julia; nacverify never downloads Julia itself"
        )
        return ". ".join(parts)


def julia_version(executable: str, timeout: float = 30.0) -> tuple[int, int, int] | None:
    """The version printed by ``executable --version``, or None if it is not a Julia."""
    try:
        out = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    match = _VERSION.match((out.stdout or "").strip())
    if out.returncode != 0 or not match:
        return None
    return tuple(int(x) for x in match.groups())  # type: ignore[return-value]


def _exe_name() -> str:
    return "julia.exe" if os.name == "nt" else "julia"


def _juliaup_candidates(home: Path) -> list[tuple[str, str]]:
    out = [(str(home / ".juliaup" / "bin" / _exe_name()), "the juliaup launcher ~/.juliaup/bin/julia")]
    depot = Path(os.environ.get("JULIAUP_DEPOT_PATH") or home / ".julia")
    meta = depot / "juliaup" / "juliaup.json"
    try:
        data = json.loads(meta.read_text())
    except (OSError, ValueError):
        return out
    for name, info in sorted((data.get("InstalledVersions") or {}).items(), reverse=True):
        path = info.get("BinaryPath") or (str(Path(info["Path"]) / "bin" / _exe_name()) if info.get("Path") else None)
        if path:
            out.append((str((meta.parent / path).resolve()), f"juliaup version {name} ({meta})"))
    return out


def _juliapkg_prefix() -> Path:
    """juliapkg's environment prefix, computed as juliapkg does (without importing it)."""
    project = os.environ.get("PYTHON_JULIAPKG_PROJECT")
    if project:
        return Path(project) / "pyjuliapkg" / "install"
    if sys.prefix != sys.base_prefix:
        base = Path(sys.prefix) / "julia_env"
    elif os.environ.get("CONDA_PREFIX"):
        base = Path(os.environ["CONDA_PREFIX"]) / "julia_env"
    else:
        depot = os.environ.get("JULIA_DEPOT_PATH", "").split(os.pathsep)[0] or str(Path.home() / ".julia")
        base = Path(depot) / "environments" / "pyjuliapkg"
    return base / "pyjuliapkg" / "install"


def find_julia(min_version: tuple[int, int] = MIN_JULIA) -> JuliaSearch:
    """Search the places of the module docstring; first verified Julia >= min_version wins."""
    looked: list[str] = []
    rejected: list[str] = []
    home = Path(os.environ.get("HOME") or Path.home())

    candidates: list[tuple[str | None, str]] = []
    for var in ("PYTHON_JULIACALL_EXE", "PYTHON_JULIAPKG_EXE", "JULIA"):
        value = os.environ.get(var)
        looked.append(f"${var} ({'set' if value else 'unset'})")
        if value:
            candidates.append((shutil.which(value) or value, f"${var}"))
        if var == "PYTHON_JULIACALL_EXE":
            bindir = os.environ.get("PYTHON_JULIACALL_BINDIR")
            looked.append(f"$PYTHON_JULIACALL_BINDIR ({'set' if bindir else 'unset'})")
            if bindir:
                candidates.append((str(Path(bindir) / _exe_name()), "$PYTHON_JULIACALL_BINDIR"))
    on_path = shutil.which("julia")
    looked.append("julia on PATH" + ("" if on_path else " (none)"))
    if on_path:
        candidates.append((on_path, "PATH"))
    ju = _juliaup_candidates(home)
    looked.append("juliaup (launcher ~/.juliaup/bin/julia, $JULIAUP_DEPOT_PATH or ~/.julia/juliaup/juliaup.json)")
    candidates += [(path, what) for path, what in ju]
    prefix_exe = _juliapkg_prefix() / "bin" / _exe_name()
    looked.append(f"juliapkg's install prefix ({prefix_exe})")
    candidates.append((str(prefix_exe), "juliapkg's install prefix"))

    seen: set[str] = set()
    wrong_variable = False  # a variable the user set names no usable Julia: no fallback to another one
    for path, what in candidates:
        if not path or path in seen:
            continue
        seen.add(path)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            if what.startswith("$"):
                rejected.append(f"{what} = {path} is not an executable file")
                wrong_variable = True
            continue
        version = julia_version(path)
        if version is None:
            rejected.append(f"{path} ({what}) does not answer `--version` as Julia")
            wrong_variable |= what.startswith("$")
            continue
        if version[:2] < tuple(min_version):
            rejected.append(f"{path} ({what}) is Julia {'.'.join(map(str, version))}, older than {min_version[0]}.{min_version[1]}")
            wrong_variable |= what.startswith("$")
            continue
        if wrong_variable:  # the set variable is an error, not a hint: the Julia found elsewhere is not used
            rejected.append(f"{path} ({what}) not used: a variable above names no usable Julia (fix or unset it)")
            continue
        return JuliaSearch(path, version, what, tuple(looked), tuple(rejected))
    return JuliaSearch(None, None, "", tuple(looked), tuple(rejected))
