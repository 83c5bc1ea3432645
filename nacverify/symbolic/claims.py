"""Registers every proof obligation as a claim (group "symbolic"), so that
`nacverify list`, the registry and the gate see them."""

from __future__ import annotations

from collections.abc import Iterator

from ..claims import Claim, Kind, Verdict, add_provider

__all__ = ["symbolic_claims"]


def symbolic_claims() -> Iterator[Claim]:
    """One claim per obligation: from the catalog cache when it holds this source's entry
    (`catalog_cache`: the proofs are imported only when a claim is checked), else from the
    proof modules (and the entry is stored, where a cache folder is set)."""
    from .catalog_cache import building, cache_folder, load, source_key, store

    folder = cache_folder()
    if folder is None:
        yield from (claim for _, claim in _from_proofs())
        return
    key = source_key()
    cached = load(folder, key)
    if cached is None:
        with building(folder):  # one process builds, the others started with it wait and read (catalog_cache.building)
            cached = load(folder, key)
            if cached is None:
                pairs = _from_proofs()
                store(folder, key, [_entry(module, claim) for module, claim in pairs])
        if cached is None:
            yield from (claim for _, claim in pairs)
            return
    yield from (_cached_claim(entry) for entry in cached)


def _from_proofs() -> list[tuple[str, Claim]]:
    """(proof module, claim) for every obligation, from the proof modules themselves."""
    from .discover import obligations_by_module

    return [(module, obligation.claim()) for module, obligation in obligations_by_module()]


def _entry(module: str, claim: Claim) -> dict:
    return {"id": claim.id, "module": module, "source": claim.source, "statement": claim.statement, "assumptions": claim.assumptions,
            "expected": claim.expected.value, "expected_reason": claim.expected_reason,
            "kind": claim.kind.value if claim.kind is not None else None, "reading": claim.reading}


def _cached_claim(entry: dict) -> Claim:
    from .catalog_cache import ProofCheck

    return Claim(id=entry["id"], source=entry["source"], statement=entry["statement"], assumptions=entry["assumptions"],
                 expected=Verdict(entry["expected"]), expected_reason=entry["expected_reason"],
                 check=ProofCheck(entry["module"], entry["id"]), group="symbolic",
                 kind=Kind(entry["kind"]) if entry["kind"] else None, reading=entry["reading"])


add_provider(symbolic_claims)
