"""Find the proof modules (`nacverify.proofs.*`) with pkgutil, so an installed wheel
works outside the repository, and collect their obligations."""

from __future__ import annotations

import fnmatch
import importlib
import pkgutil
from collections.abc import Iterable

from ..errors import BadInput
from .obligation import Obligation

__all__ = ["proof_modules", "all_obligations", "obligations_by_module", "select_obligations"]


def proof_modules() -> list[str]:
    """Names of the proof modules, in file-name order."""
    import nacverify.proofs as package

    return sorted(f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_"))


def all_obligations() -> list[Obligation]:
    """Every obligation of every proof module, in module then declaration order.
    Raises ValueError on a duplicate id or a module without `OBLIGATIONS`."""
    return [ob for _, ob in obligations_by_module()]


def obligations_by_module() -> list[tuple[str, Obligation]]:
    """(proof module, obligation) for every obligation, as `all_obligations` orders them."""
    out: list[tuple[str, Obligation]] = []
    seen: dict[str, str] = {}
    for name in proof_modules():
        module = importlib.import_module(name)
        obligations = getattr(module, "OBLIGATIONS", None)
        if obligations is None:
            raise ValueError(f"proof module {name} declares no OBLIGATIONS")
        for ob in obligations:
            if ob.id in seen:
                raise ValueError(f"obligation id {ob.id} declared in {seen[ob.id]} and {name}")
            seen[ob.id] = name
            out.append((name, ob))
    return out


def select_obligations(patterns: Iterable[str] | None = None) -> list[Obligation]:
    """Obligations whose id matches any glob in `patterns` (all when empty);
    `BadInput` when patterns are given and nothing matches."""
    obligations = all_obligations()
    pats = [p for p in (patterns or []) if p]
    if not pats:
        return obligations
    chosen = [ob for ob in obligations if any(fnmatch.fnmatchcase(ob.id, p) for p in pats)]
    if not chosen:
        raise BadInput(f"no proof obligation matches {', '.join(repr(p) for p in pats)} (see `nacverify prove --list`)")
    return chosen
