"""Reading a gate export chunk by chunk: a range of *rows* (one query's K pairs each).

A chunk is a contiguous range of rows over the flattened leading axes ``...`` of the
arrays [..., K] (``u``: [..., K, F]); it is returned as a `GateExport` whose arrays are
[rows, K] (``u``: [rows, K, F]), so the audit's per-pair arithmetic is the same as on the
whole export. Rows, not pairs, because the softmax runs over a row.

`H5Rows` reads its rows from the HDF5 file by path, in whichever process runs it (the
file must be reachable there under the same path); `ArrayRows` carries rows of an
export already in memory (NPZ). Both are small, picklable task arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...errors import BadInput
from .format import OPTIONAL, REQUIRED, ArrayInfo, ExportLayout, GateExport

__all__ = ["ARRAYS", "layout_of", "row_slabs", "H5Rows", "ArrayRows", "rows_of", "chunk_rows", "sliced"]

ARRAYS = REQUIRED + OPTIONAL


def layout_of(export: GateExport | ExportLayout) -> ExportLayout:
    """The layout (names, shapes, dtypes, attributes) of an export, without its arrays."""
    if isinstance(export, ExportLayout):
        return export
    arrays = {n: ArrayInfo(tuple(getattr(export, n).shape), getattr(export, n).dtype) for n in ARRAYS if export.has(n)}
    return ExportLayout(**arrays, **export.attrs(), source=export.source, ignored=export.ignored)


def row_slabs(lead: tuple[int, ...], start: int, stop: int) -> list[tuple[slice, ...]]:
    """Rectangular blocks of the leading axes `lead` that cover the flat rows [start, stop)
    in order (at most 2 len(lead) - 1 of them)."""
    if start >= stop:
        return []
    if not lead:
        return [()]
    inner = int(np.prod(lead[1:], dtype=np.int64)) if len(lead) > 1 else 1
    full = tuple(slice(0, n) for n in lead[1:])
    i0, r0 = divmod(start, inner)
    i1, r1 = divmod(stop, inner)
    if i0 == i1:
        return [(slice(i0, i0 + 1),) + s for s in row_slabs(lead[1:], r0, r1)]
    out = []
    if r0:
        out += [(slice(i0, i0 + 1),) + s for s in row_slabs(lead[1:], r0, inner)]
        i0 += 1
    if i1 > i0:
        out.append((slice(i0, i1),) + full)
    if r1:
        out += [(slice(i1, i1 + 1),) + s for s in row_slabs(lead[1:], 0, r1)]
    return out


def _chunk(layout: ExportLayout, arrays: dict[str, np.ndarray]) -> GateExport:
    return GateExport(**arrays, **layout.attrs(), source=layout.source)


@dataclass(frozen=True)
class H5Rows:
    """Rows [start, stop) of the HDF5 export at `path`, read in the process that runs the task."""

    path: str
    start: int
    stop: int

    def arrays(self, layout: ExportLayout, names: tuple[str, ...] | None = None) -> dict[str, np.ndarray]:
        """The named arrays (default: all the export has) of these rows, as [rows, K(, F)]."""
        import h5py

        lead = layout.pair_shape[:-1]
        slabs = row_slabs(lead, self.start, self.stop)
        out: dict[str, np.ndarray] = {}
        try:
            with h5py.File(self.path, "r") as handle:
                for name in names or layout.arrays:
                    dataset = handle[name]
                    tail = tuple(dataset.shape[len(lead):])
                    parts = [np.asarray(dataset[slab]).reshape((-1,) + tail) for slab in slabs]
                    out[name] = parts[0] if len(parts) == 1 else np.concatenate(parts)
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise BadInput(f"{self.path}: unreadable HDF5 file at rows {self.start}..{self.stop} ({exc})") from None
        if any(arr.shape[0] != self.stop - self.start for arr in out.values()):
            raise BadInput(f"{self.path}: the export changed while it was read")
        return out

    def read(self, layout: ExportLayout) -> GateExport:
        return _chunk(layout, self.arrays(layout))


@dataclass(frozen=True)
class ArrayRows:
    """Rows [start, stop) of an export in memory, carried by the task itself."""

    arrays: dict[str, np.ndarray]
    start: int
    stop: int

    def read(self, layout: ExportLayout) -> GateExport:
        return _chunk(layout, dict(self.arrays))


def rows_of(export: GateExport, start: int, stop: int) -> ArrayRows:
    """Rows [start, stop) of an export in memory, as [rows, K] arrays (views)."""
    K = export.K
    arrays = {}
    for name in ARRAYS:
        if export.has(name):
            arr = getattr(export, name)
            arrays[name] = arr.reshape((-1, K) + arr.shape[export.phi.ndim:])[start:stop]
    return ArrayRows(arrays, start, stop)


def chunk_rows(layout: ExportLayout, chunk_pairs: int | None, target_bytes: int) -> int:
    """Rows per chunk: `chunk_pairs` pairs (rounded down to whole rows, at least one row), or
    by default as many as fill about `target_bytes` of the arrays as stored."""
    K = layout.K
    if chunk_pairs is not None:
        if chunk_pairs < 1:
            raise BadInput(f"chunk size must be at least 1 pair, got {chunk_pairs}")
        return max(1, chunk_pairs // K)
    per_row = sum(getattr(layout, n).dtype.itemsize * (getattr(layout, n).size // max(1, layout.pairs // K)) for n in layout.arrays)
    return max(1, target_bytes // max(1, per_row))


def sliced(export: GateExport, start: int, stop: int) -> GateExport:
    """Rows [start, stop) of a chunk (its arrays are [rows, K]), as views."""
    return replace(export, **{n: getattr(export, n)[start:stop] for n in ARRAYS if export.has(n)})
