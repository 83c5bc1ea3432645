"""The symbolic claims' texts, cached, so that loading the claim catalog does not run the proofs.

Each proof module (`nacverify.proofs.*`) states its obligations in SymPy at import, integrals
included: about 1.3 s of a catalog load, paid by every process that loads the catalog (the
command line, and each local Dask worker before its first claim). A claim needs the proof only
when it is checked. So, where ``$NACVERIFY_CATALOG_CACHE`` names a folder (the command line sets
it, next to JAX's compilation cache; the library alone never caches), the first load stores each
symbolic claim's texts (id, source, statement, assumptions, expected verdict and reason, kind,
reading) and its proof module, and later loads build the claims from them, each with a
`ProofCheck` that imports its proof module when the claim is checked.

The entry is used only under the key it was stored with: a SHA-256 of every source file of
nacverify and of its proofs, and of the Python and SymPy versions. A change to any of them is a
new key, and the catalog is built from the proofs again (and stored anew). An unreadable or
malformed entry counts as missing. A claim's verdict never comes from the cache: the check runs
the proof module's obligation itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CACHE_ENV", "ProofCheck", "building", "cache_folder", "source_key", "load", "store"]

CACHE_ENV = "NACVERIFY_CATALOG_CACHE"
FILE = "symbolic-claims.json"
LOCK_FILE = ".symbolic-claims.lock"
#: Seconds a process waits for another one's build (about 1.3 s alone, a few seconds on a busy
#: machine) before building the entry itself.
LOCK_TIMEOUT = 10.0
FIELDS = ("id", "module", "source", "statement", "assumptions", "expected", "expected_reason", "kind", "reading")


@dataclass(frozen=True)
class ProofCheck:
    """The check of a cached symbolic claim: obligation `obligation_id` of proof module `module`,
    imported when the claim is checked."""

    module: str
    obligation_id: str

    def obligation(self) -> Any:
        found = [ob for ob in importlib.import_module(self.module).OBLIGATIONS if ob.id == self.obligation_id]
        if len(found) != 1:
            raise LookupError(f"obligation {self.obligation_id} is not in {self.module}'s OBLIGATIONS")
        return found[0]

    def __call__(self, ctx: Any) -> Any:
        return self.obligation().outcome(ctx)


def cache_folder() -> Path | None:
    """The folder named by ``$NACVERIFY_CATALOG_CACHE``, or None (no cache)."""
    folder = os.environ.get(CACHE_ENV, "").strip()
    return Path(folder) if folder else None


def source_key() -> str:
    """SHA-256 of the SymPy version and of nacverify's source (`nacverify.compute.source_tree.source_digest`:
    the Python version and every ``*.py`` file of nacverify and of its proofs)."""
    from ..compute.source_tree import source_digest

    digest = hashlib.sha256()
    digest.update(importlib.metadata.version("sympy").encode())
    digest.update(source_digest().encode())
    return digest.hexdigest()


def load(folder: Path, key: str) -> list[dict[str, Any]] | None:
    """The entries stored under `key` in `folder`, or None (none, another key, or unreadable)."""
    try:
        data = json.loads((folder / FILE).read_text(encoding="utf-8"))
        entries = data["claims"] if data.get("key") == key else None
        if entries is None or not all(isinstance(e, dict) and set(e) == set(FIELDS) for e in entries):
            return None
        return entries
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(folder: Path, key: str, entries: list[dict[str, Any]]) -> None:
    """Store `entries` under `key`, atomically (a temporary file renamed over the entry); a
    folder that cannot be written leaves the cache as it was, silently."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{FILE}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"key": key, "claims": entries}, out)
            os.replace(tmp, folder / FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass


@contextmanager
def building(folder: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the folder's build lock (an exclusive ``flock`` on `LOCK_FILE`) while the entry is built.

    Why. On an empty cache the command line and its Dask workers load the catalog at the same time,
    and each ran every proof module (about 1.3 s of CPU each, on the cores the others need to start).
    With the lock the first process builds and stores the entry and the others wait, without
    using a core, then read it (`load` again after this returns). The lock goes with its process if
    that one dies. No lock (each process builds for itself, as before) where ``fcntl`` is missing
    (Windows), the folder cannot be written, or after `timeout` seconds of waiting."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / LOCK_FILE, "a+b")  # noqa: SIM115  (closed below, which releases the lock)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    break  # built without the lock: the same entry, stored atomically
                time.sleep(0.05)
        yield
    finally:
        handle.close()
