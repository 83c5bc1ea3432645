"""A spool: the part of a report that grows while a long run works (a sweep's per-draw
summaries), written as it comes so memory does not grow with the run.

The spool is an HDF5 file next to the report, hidden like the atomic writer's temporary
files (``.<report name>.<random>.spool.tmp``). Datasets are one-dimensional, resizable,
chunked and compressed (gzip with byte shuffling); `append` adds rows at the end. When the
report is written (`write_report` with `Report.spool` set) the spool file *becomes* the
report: it is renamed to the writer's temporary file, the claims and sections are added,
and the result is linked into place atomically. Nothing is copied, so a report of 10^8
draws needs no second copy of them. A run killed before writing leaves the spool behind
(safe to delete, like the writer's own temporary files).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

import h5py
import numpy as np

from ..errors import BadInput, EnvironmentProblem

__all__ = ["Spool", "check_space", "human_size", "SPACE_RESERVE"]

#: Free space a run leaves on the report's file system (bytes), besides what it says it needs.
SPACE_RESERVE = 10**9


def check_space(target: str | os.PathLike, need: int, what: str, hint: str = "") -> int:
    """Refuse (`BadInput`, one line: `what` needs ..., `hint`) when `need` bytes plus
    `SPACE_RESERVE` do not fit on the file system of `target`'s folder; return the free bytes."""
    folder = Path(target).parent if str(Path(target).parent) else Path(".")
    free = shutil.disk_usage(folder).free
    if need + SPACE_RESERVE > free:
        raise BadInput(f"{what} needs about {human_size(need)}, but {folder} has {human_size(free)} free "
                       f"(keeping {human_size(SPACE_RESERVE)} spare)" + (f"; {hint}" if hint else ""))
    return free


def human_size(n: float) -> str:
    """Bytes in decimal units: 12.8 GB."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if abs(n) < 1000 or unit == "PB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} PB"


class Spool:
    """Resizable, compressed HDF5 datasets next to the report at `target`, appended to as a
    run proceeds (see the module docstring)."""

    def __init__(self, target: str | os.PathLike, *, rows_per_chunk: int = 8192):
        target = Path(target)
        folder = target.parent if str(target.parent) else Path(".")
        try:
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".spool.tmp", dir=folder)
            os.close(fd)
            self.path = Path(name)
            self._file: h5py.File | None = h5py.File(self.path, "w")
        except OSError as exc:
            raise EnvironmentProblem(f"cannot write in {folder}: {exc.strerror or exc}") from exc
        self.rows_per_chunk = max(1, int(rows_per_chunk))

    def append(self, group: str, arrays: Mapping[str, np.ndarray]) -> None:
        """Add the rows of each 1-D array at the end of dataset ``group/<name>``."""
        if self._file is None:
            raise ValueError("spool is closed")
        g = self._file.require_group(group)
        for name, values in arrays.items():
            values = np.asarray(values)
            ds = g.get(name)
            if ds is None:
                ds = g.create_dataset(name, shape=(0,), maxshape=(None,), dtype=values.dtype, chunks=(self.rows_per_chunk,),
                                      compression="gzip", compression_opts=4, shuffle=True)
            n = ds.shape[0]
            ds.resize((n + values.shape[0],))
            ds[n:] = values

    def truncate(self, group: str, rows: int) -> None:
        """Keep the first `rows` rows of every dataset of `group` (an interrupt can land between a chunk's
        appends and its count: the report keeps exactly the rows its count says)."""
        if self._file is None or group not in self._file:
            return
        datasets: list[h5py.Dataset] = []
        self._file[group].visititems(lambda _, item: datasets.append(item) if isinstance(item, h5py.Dataset) else None)
        for ds in datasets:  # every dataset below `group` (members/<name>, params/<name>)
            if ds.shape[0] > rows:
                ds.resize((rows,))

    def stored_bytes(self, group: str) -> int:
        """Bytes the datasets of `group` take on disk (compressed)."""
        if self._file is None or group not in self._file:
            return 0
        sizes: list[int] = []
        self._file[group].visititems(lambda _, item: sizes.append(item.id.get_storage_size()) if isinstance(item, h5py.Dataset) else None)
        return sum(sizes)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> Path:
        """Close the file (before `write_report` takes it); return its path."""
        if self._file is not None:
            self._file.close()
            self._file = None
        return self.path

    def discard(self) -> None:
        """Close and delete (a run that writes no report)."""
        self.close()
        self.path.unlink(missing_ok=True)
