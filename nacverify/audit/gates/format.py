r"""The gate-export exchange format of `nacverify audit` (documented in reports/AUDIT_FORMAT.md).

A *gate export* holds, for every query and each of its K selected keys (a *pair*), the gate
values a NAC implementation computed (seed 001 eq. 15-17):

=============  ==========================  ======================================================
name           shape                       meaning
=============  ==========================  ======================================================
``phi``        [..., K]  (required)        content gate, eq. 15
``omega``      [..., K]  (required)        time-constant gate omega_tau, eq. 16
``t_pseudo``   [..., K]                    pseudo-time t of the exact mode, eq. 17
``logits``     [..., K]                    attention logits a (a_0 = 0)
``attention``  [..., K]                    softmax weights over the K keys
``u``          [..., K, F]                 the pair inputs u = [q; k]
``valid``      [..., K]  (bool)            pairs that are real (False: padding / masked key)
=============  ==========================  ======================================================

and the attributes ``mode`` (exact / euler / steady), ``delta_t``, ``euler_steps``, ``dt``,
``topk`` and ``compute_eps`` (the machine epsilon of the model's arithmetic when it is coarser
than the exported dtype, e.g. 2**-7 for bfloat16 exported as float32). The leading axes ``...`` are free (e.g. batch, heads, queries); the last axis is
the K selected keys of one query, over which the softmax runs.

Files: NPZ (``numpy.savez``; attributes as 0-d arrays) or HDF5 (arrays as root datasets,
attributes as root attributes or 0-d datasets). An optional ``format`` entry, when present,
must read ``nac-gates``. Anything else (missing or mis-shaped arrays, NaN/inf, non-float
gates, a file of another kind) is `BadInput` with a one-line message.
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import BadInput

__all__ = [
    "GateExport",
    "ExportLayout",
    "ArrayInfo",
    "read_export",
    "read_layout",
    "from_arrays",
    "FORMAT_TAG",
    "FORMAT_VERSION",
    "REQUIRED",
    "OPTIONAL",
    "ATTRS",
    "MODES",
]

FORMAT_TAG = "nac-gates"
FORMAT_VERSION = 1
REQUIRED = ("phi", "omega")
OPTIONAL = ("t_pseudo", "logits", "attention", "u", "valid")
ATTRS = ("mode", "delta_t", "euler_steps", "dt", "topk", "compute_eps")
MODES = ("exact", "euler", "steady")
_META = ("format", "format_version")

_NPZ_MAGIC = b"PK\x03\x04"
_NPY_MAGIC = b"\x93NUMPY"
_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"


@dataclass(frozen=True)
class ArrayInfo:
    """Shape and dtype of an array that stays in its file (an HDF5 dataset read chunk by chunk)."""

    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


class _Fields:
    """Accessors shared by an export in memory (`GateExport`) and one left in its file (`ExportLayout`)."""

    @property
    def pair_shape(self) -> tuple[int, ...]:
        return tuple(self.phi.shape)

    @property
    def K(self) -> int:
        return int(self.phi.shape[-1])

    @property
    def pairs(self) -> int:
        return int(self.phi.size)

    def has(self, name: str) -> bool:
        return getattr(self, name) is not None

    def eps(self, *names: str) -> float:
        """Machine epsilon of the coarsest float dtype among the named arrays present, or the
        ``compute_eps`` attribute when the model computed in a coarser arithmetic (bfloat16)."""
        arrays = [getattr(self, n) for n in names if getattr(self, n) is not None]
        return max([float(np.finfo(a.dtype).eps) for a in arrays] + [self.compute_eps or 0.0])

    def attrs(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ATTRS if getattr(self, k) is not None}


@dataclass(frozen=True)
class GateExport(_Fields):
    """A validated gate export. Arrays keep their exported dtype; `pair_shape` is phi's shape
    [..., K]. `valid` is all-True when the file has none. `ignored` lists entries the
    format does not know (they are reported, not used)."""

    phi: np.ndarray
    omega: np.ndarray
    t_pseudo: np.ndarray | None = None
    logits: np.ndarray | None = None
    attention: np.ndarray | None = None
    u: np.ndarray | None = None
    valid: np.ndarray | None = None
    mode: str | None = None
    delta_t: float | None = None
    euler_steps: int | None = None
    dt: float | None = None
    topk: int | None = None
    compute_eps: float | None = None
    source: str = "<arrays>"
    ignored: tuple[str, ...] = field(default_factory=tuple)

    @property
    def valid_mask(self) -> np.ndarray:
        return np.ones(self.pair_shape, bool) if self.valid is None else self.valid


@dataclass(frozen=True)
class ExportLayout(_Fields):
    """An HDF5 gate export whose layout (names, shapes, dtypes, attributes) is validated but
    whose arrays stay in the file, to be read chunk by chunk (nacverify.audit.gates.source). The
    values (finite, `valid` 0/1 and not all False) are checked while the chunks are read."""

    phi: ArrayInfo
    omega: ArrayInfo
    t_pseudo: ArrayInfo | None = None
    logits: ArrayInfo | None = None
    attention: ArrayInfo | None = None
    u: ArrayInfo | None = None
    valid: ArrayInfo | None = None
    mode: str | None = None
    delta_t: float | None = None
    euler_steps: int | None = None
    dt: float | None = None
    topk: int | None = None
    compute_eps: float | None = None
    source: str = "<file>"
    ignored: tuple[str, ...] = field(default_factory=tuple)

    @property
    def arrays(self) -> tuple[str, ...]:
        """The names of the arrays the file holds, in the format's order."""
        return tuple(n for n in REQUIRED + OPTIONAL if getattr(self, n) is not None)


# ---------------------------------------------------------------------------- validation
def _scalar(name: str, value: Any) -> Any:
    arr = np.asarray(value)
    if arr.dtype.kind in "SU" or isinstance(value, (str, bytes)):
        text = arr.item() if arr.ndim == 0 else value
        return text.decode() if isinstance(text, bytes) else str(text)
    if arr.size != 1:
        raise BadInput(f"attribute {name!r} must be a single value, got shape {arr.shape}")
    return arr.reshape(()).item()


def _number(name: str, value: Any, kind: type, positive: bool) -> Any:
    if value is None:
        return None
    v = _scalar(name, value)
    if isinstance(v, str) or isinstance(v, complex) or isinstance(v, bool):
        raise BadInput(f"attribute {name!r} must be a number, got {v!r}")
    if kind is int:
        if float(v) != int(v):
            raise BadInput(f"attribute {name!r} must be an integer, got {v!r}")
        v = int(v)
    else:
        v = float(v)
    if not np.isfinite(v) or (positive and not v > 0) or (not positive and v < 0):
        raise BadInput(f"attribute {name!r} must be {'> 0' if positive else '>= 0'} and finite, got {v!r}")
    return v


def _float_array(name: str, value: Any) -> np.ndarray:
    """The array `value` if it is real floating point and finite; an `ArrayInfo` is checked
    for its dtype only (its values are checked chunk by chunk, `nonfinite`)."""
    arr = value if isinstance(value, ArrayInfo) else np.asarray(value)
    if arr.dtype == object:
        raise BadInput(f"array {name!r} holds Python objects; export plain numeric arrays")
    if arr.dtype.kind != "f":
        raise BadInput(f"array {name!r} must be a real floating-point array, got dtype {arr.dtype}")
    if isinstance(arr, ArrayInfo):
        return arr
    bad = ~np.isfinite(arr)
    if bad.any():
        raise nonfinite_error(name, int(bad.sum()), tuple(int(i) for i in np.argwhere(bad)[0]))
    return arr


def nonfinite_error(name: str, count: int, first: tuple[int, ...]) -> BadInput:
    """The one-line refusal of an array with NaN/inf (`first`: the index of the first one)."""
    return BadInput(f"array {name!r} has {count} non-finite value(s) (NaN/inf), first at index {list(first)}")


def valid_dtype_error(source: str, dtype: Any) -> BadInput:
    return BadInput(f"{source}: valid must be boolean (or 0/1), got dtype {dtype}")


def no_valid_error(source: str) -> BadInput:
    return BadInput(f"{source}: valid marks no pair as valid")


def from_arrays(entries: Mapping[str, Any], source: str = "<arrays>") -> GateExport:
    """Validate a mapping of names to arrays/values (the content of an export file)."""
    return GateExport(**_validate(entries, source))


def layout_from_entries(entries: Mapping[str, Any], source: str) -> ExportLayout:
    """Validate a mapping whose arrays are `ArrayInfo`s (shapes, dtypes and attributes only)."""
    return ExportLayout(**_validate(entries, source))


def _validate(entries: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The fields of a `GateExport` (or, with `ArrayInfo`s for arrays, an `ExportLayout`)."""
    names = set(entries)
    if "format" in entries:
        tag = _scalar("format", entries["format"])
        if tag != FORMAT_TAG:
            raise BadInput(f"{source}: format is {tag!r}, not a NAC gate export ({FORMAT_TAG!r})")
    if "format_version" in entries:
        version = _scalar("format_version", entries["format_version"])
        if not isinstance(version, (int, float)) or int(version) != FORMAT_VERSION:
            raise BadInput(f"{source}: format_version {version!r} is not supported (this nacverify reads {FORMAT_VERSION})")
    missing = [n for n in REQUIRED if n not in names]
    if missing:
        found = ", ".join(sorted(names)[:8]) or "nothing"
        raise BadInput(f"{source}: required array(s) {', '.join(missing)} missing (found: {found})")
    phi = _float_array("phi", entries["phi"])
    omega = _float_array("omega", entries["omega"])
    if phi.ndim < 1 or phi.size == 0:
        raise BadInput(f"{source}: phi must have at least one axis (the K selected keys) and one value, got shape {phi.shape}")
    if omega.shape != phi.shape:
        raise BadInput(f"{source}: omega has shape {omega.shape}, phi has {phi.shape}; they must match ([..., K])")
    out: dict[str, Any] = {"phi": phi, "omega": omega}
    for name in ("t_pseudo", "logits", "attention"):
        if name in entries:
            arr = _float_array(name, entries[name])
            if arr.shape != phi.shape:
                raise BadInput(f"{source}: {name} has shape {arr.shape}, expected phi's shape {phi.shape}")
            out[name] = arr
    if "u" in entries:
        u = _float_array("u", entries["u"])
        if u.shape[:-1] != phi.shape or u.ndim != phi.ndim + 1 or u.shape[-1] < 1:
            raise BadInput(f"{source}: u has shape {u.shape}, expected phi's shape plus a feature axis {phi.shape + ('F',)}")
        out["u"] = u
    if "valid" in entries:
        lazy = isinstance(entries["valid"], ArrayInfo)
        valid = entries["valid"] if lazy else np.asarray(entries["valid"])
        if valid.dtype.kind not in "biu" or (not lazy and valid.dtype.kind != "b" and not np.isin(valid, (0, 1)).all()):
            raise valid_dtype_error(source, valid.dtype)
        if valid.shape != phi.shape:
            raise BadInput(f"{source}: valid has shape {valid.shape}, expected phi's shape {phi.shape}")
        if not lazy:
            valid = valid.astype(bool)
            if not valid.any():
                raise no_valid_error(source)
        out["valid"] = valid
    mode = None
    if "mode" in entries:
        mode = _scalar("mode", entries["mode"])
        if not isinstance(mode, str) or mode not in MODES:
            raise BadInput(f"{source}: mode {mode!r} is not one of {', '.join(MODES)}")
    out["mode"] = mode
    out["delta_t"] = _number("delta_t", entries.get("delta_t"), float, True)
    out["euler_steps"] = _number("euler_steps", entries.get("euler_steps"), int, False)
    out["dt"] = _number("dt", entries.get("dt"), float, True)
    out["topk"] = _number("topk", entries.get("topk"), int, True)
    out["compute_eps"] = _number("compute_eps", entries.get("compute_eps"), float, True)
    if out["compute_eps"] is not None and out["compute_eps"] >= 0.5:
        raise BadInput(f"{source}: compute_eps must be a machine epsilon below 0.5, got {out['compute_eps']}")
    if mode == "euler" and (out["delta_t"] is None or out["euler_steps"] is None):
        raise BadInput(f"{source}: mode 'euler' needs the attributes delta_t and euler_steps")
    known = set(REQUIRED) | set(OPTIONAL) | set(ATTRS) | set(_META)
    return {**out, "source": source, "ignored": tuple(sorted(names - known))}


# ---------------------------------------------------------------------------- files
def _read_npz(path: Path) -> dict[str, Any]:
    try:
        with zipfile.ZipFile(path) as zf:
            members = zf.namelist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise BadInput(f"{path}: unreadable zip/NPZ file ({exc})") from None
    if not members or not all(m.endswith(".npy") for m in members):
        sample = ", ".join(members[:3]) or "empty"
        hint = " (a PyTorch checkpoint? save tensors with numpy.savez)" if any(m.endswith(".pkl") for m in members) else ""
        raise BadInput(f"{path}: a zip archive that is not an NPZ of arrays (members: {sample}){hint}")
    entries: dict[str, Any] = {}
    try:
        with np.load(path, allow_pickle=False) as npz:
            for name in npz.files:
                entries[name] = npz[name]
    except ValueError as exc:
        raise BadInput(f"{path}: an array holds Python objects or is malformed ({exc})") from None
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise BadInput(f"{path}: unreadable NPZ file ({exc})") from None
    return entries


def _read_hdf5(path: Path, lazy: bool = False) -> dict[str, Any]:
    """Root attributes and datasets of an HDF5 file; with `lazy`, datasets with at least one
    axis are `ArrayInfo`s (left in the file) and only 0-d datasets are read."""
    import h5py

    try:
        with h5py.File(path, "r") as handle:
            attrs = dict(handle.attrs)
            if attrs.get("format") in ("nacverify-report", b"nacverify-report"):
                raise BadInput(f"{path}: a nacverify report, not a gate export (see reports/AUDIT_FORMAT.md)")
            if "keras_version" in attrs or "model_config" in attrs:
                raise BadInput(f"{path}: a Keras model file, not a gate export (see reports/AUDIT_FORMAT.md)")
            entries: dict[str, Any] = {}
            for name, value in attrs.items():
                entries[name] = value
            for name, item in handle.items():
                if isinstance(item, h5py.Dataset):
                    if lazy and item.ndim > 0 and name not in ATTRS + _META:  # attributes stored as datasets are read
                        entries[name] = ArrayInfo(tuple(int(n) for n in item.shape), item.dtype)
                        continue
                    data = item[()]
                    entries[name] = data.decode() if isinstance(data, bytes) else data
    except BadInput:
        raise
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise BadInput(f"{path}: unreadable HDF5 file ({exc})") from None
    return entries


def read_entries(path: str | Path, what: str, doc: str, *, lazy_hdf5: bool = False) -> tuple[Path, dict[str, Any]]:
    """The named arrays of an NPZ or HDF5 file (the kind is told by its magic bytes), or a
    one-line BadInput naming `what` the file should be and the `doc` that describes it.
    With `lazy_hdf5`, an HDF5 file's arrays are `ArrayInfo`s (NPZ is always read whole)."""
    source = Path(path)
    if not source.exists():
        raise BadInput(f"no file at {source}")
    if source.is_dir():
        raise BadInput(f"{source} is a directory, not {what}")
    try:
        with open(source, "rb") as fh:
            head = fh.read(8)
    except OSError as exc:
        raise BadInput(f"{source}: unreadable ({exc.strerror or exc})") from None
    if head.startswith(_NPZ_MAGIC):
        return source, _read_npz(source)
    if head.startswith(_HDF5_MAGIC):
        return source, _read_hdf5(source, lazy_hdf5)
    if head.startswith(_NPY_MAGIC):
        raise BadInput(f"{source}: a single .npy array; export named arrays with numpy.savez (NPZ) or HDF5")
    raise BadInput(f"{source}: neither an NPZ nor an HDF5 file (see {doc})")


def read_export(path: str | Path) -> GateExport:
    """Read and validate an NPZ or HDF5 gate export (the kind is told by the file's magic bytes)."""
    source, entries = read_entries(path, "a gate export", "reports/AUDIT_FORMAT.md")
    return from_arrays(entries, str(source))


def read_layout(path: str | Path) -> GateExport | ExportLayout:
    """An HDF5 export's validated layout, its arrays left in the file (read chunk by chunk by
    `nacverify.audit.audit_file`); an NPZ export is read whole (`read_export`)."""
    source, entries = read_entries(path, "a gate export", "reports/AUDIT_FORMAT.md", lazy_hdf5=True)
    if any(isinstance(v, ArrayInfo) for v in entries.values()):
        return layout_from_entries(entries, str(source))
    return from_arrays(entries, str(source))
