"""Writing gate exports (NPZ or HDF5), and the JAX model's export to a file.

`write_export` writes any mapping of the format's names (nacverify.audit.gates.format) to NPZ
(suffix ``.npz``) or HDF5 (``.h5`` / ``.hdf5``), tagged ``format = "nac-gates"``, atomically
(temporary file in the target folder, then a link/rename). `export_model` builds the JAX
`NAC` of nacverify.model, runs it on a seeded standard-normal input and writes what
`nacverify.model.export_gates` returns.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ...atomic import atomic_write
from ...errors import BadInput
from .format import ATTRS, FORMAT_TAG, FORMAT_VERSION, GateExport, from_arrays

__all__ = ["write_export", "export_model", "SUFFIXES"]

SUFFIXES = {".npz": "npz", ".h5": "hdf5", ".hdf5": "hdf5"}


def _kind(path: Path) -> str:
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise BadInput(f"{path}: choose a .npz, .h5 or .hdf5 file name for the export")
    return kind


def _write_npz(handle, entries: Mapping[str, Any]) -> None:
    np.savez_compressed(handle, **{k: np.asarray(v) for k, v in entries.items()})


def _write_hdf5(path: Path, entries: Mapping[str, Any]) -> None:
    import h5py

    with h5py.File(path, "w") as handle:
        for name, value in entries.items():
            arr = np.asarray(value)
            if name in ATTRS or name in ("format", "format_version"):
                handle.attrs[name] = arr.item() if arr.dtype.kind != "U" else str(arr)
            else:
                handle.create_dataset(name, data=arr, compression="gzip" if arr.size > 4096 else None)


def write_export(entries: Mapping[str, Any], path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """Validate `entries` as a gate export and write them to `path` (NPZ or HDF5 by suffix)."""
    target = Path(path)
    kind = _kind(target)
    from_arrays(entries, str(target))  # refuse to write what `read_export` would refuse to read
    data = {k: v for k, v in entries.items() if v is not None}
    data.update(format=np.asarray(FORMAT_TAG), format_version=np.asarray(FORMAT_VERSION))

    def write(tmp: Path) -> None:
        if kind == "npz":
            with open(tmp, "wb") as handle:
                _write_npz(handle, data)
        else:
            _write_hdf5(tmp, data)

    atomic_write(target, write, overwrite=overwrite, what="export")
    return target


def export_model(
    path: str | os.PathLike,
    *,
    d_model: int = 16,
    num_heads: int = 2,
    length: int = 32,
    batch: int = 2,
    seed: int = 0,
    overwrite: bool = False,
    **options: Any,
) -> tuple[Path, GateExport]:
    """Build ``nacverify.model.NAC(d_model, num_heads, **options)`` from `seed`, run it on a
    standard-normal input (batch, length, d_model) drawn from ``seed + 1`` and write its gate
    export to `path`. Returns the path and the validated export."""
    import jax

    from ...model import NAC, export_gates

    if min(d_model, num_heads, length, batch) < 1:
        raise BadInput("d_model, heads, length and batch must be >= 1")
    for name, value in options.items():
        if isinstance(value, float) and not np.isfinite(value):
            raise BadInput(f"{name} must be finite, got {value}")
    _kind(Path(path))
    if Path(path).exists() and not overwrite:  # before the model is built
        raise BadInput(f"{path} exists; choose another name or pass --force")
    model = NAC(d_model, num_heads, key=jax.random.PRNGKey(seed), **options)
    x = jax.random.normal(jax.random.PRNGKey(seed + 1), (batch, length, d_model))
    entries = export_gates(model, x)
    written = write_export(entries, path, overwrite=overwrite)
    return written, from_arrays(entries, str(written))
