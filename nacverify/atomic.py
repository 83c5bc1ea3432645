"""Atomic file writes: a temporary file in the target folder, fsync, then link or rename.

Readers never see a half-written file: the target either keeps its previous content or
has the complete new one (also when the writer is killed, even with SIGKILL). Without
`overwrite`, an existing target is refused, also one created by a concurrent writer
between the check and the final link.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import BadInput, EnvironmentProblem

__all__ = ["atomic_write"]


def atomic_write(path: str | os.PathLike, write: Callable[[Path], None], *, overwrite: bool = False, what: str = "report") -> Path:
    """Call `write(tmp)` to fill a temporary file, then move it to `path` atomically.

    Raises `BadInput` when `path` exists (without `overwrite`) or is a directory, and
    `EnvironmentProblem` when the folder cannot be written."""
    target = Path(path)
    if target.is_dir():
        raise BadInput(f"{what} {target} is a directory")
    if target.exists() and not overwrite:
        raise BadInput(f"{what} {target} exists; choose another --out or pass --force")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {what} in {folder}: {exc.strerror or exc}") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; the result is an ordinary file
        write(tmp)
        with open(tmp, "rb+") as raw:
            os.fsync(raw.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # atomic, and refuses a file created meanwhile
            except FileExistsError:
                raise BadInput(f"{what} {target} exists; choose another --out or pass --force") from None
            except OSError:  # file systems without hard links
                os.replace(tmp, target)
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {what} {target}: {exc.strerror or exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return target
