"""The digest of nacverify's own source code, for the caches that must change with it.

`source_digest()` is a SHA-256 of the Python version and of every ``*.py`` file of nacverify and
of its proofs (relative path and bytes, in path order). The claim catalog's cache
(`nacverify.symbolic.catalog_cache`) and the traced programs' cache (`nacverify.compute.program_cache`)
are keyed by it, so that an edited file, a new version or a mutated copy (tools/mutate.py) is
never answered from an entry made by other code. The proofs' folder is found without importing
it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

__all__ = ["source_digest"]


def _roots() -> list[Path]:
    roots = {Path(__file__).resolve().parents[1]}  # nacverify's own folder (this file is in nacverify/compute/)
    proofs = sys.modules.get("nacverify.proofs")
    if proofs is not None:
        locations = list(proofs.__path__)
    else:
        spec = importlib.util.find_spec("nacverify.proofs")
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
    roots |= {Path(p).resolve() for p in locations}
    return sorted(roots)


def source_digest() -> str:
    """SHA-256 of the Python version and of every ``*.py`` file of nacverify and its proofs."""
    digest = hashlib.sha256()
    digest.update(sys.version.encode())
    for root in _roots():
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
