"""Registers every proof obligation as a claim (group "symbolic"), so that
`nacverify list`, the registry and the gate see them."""

from __future__ import annotations

from collections.abc import Iterator

from ..claims import Claim, add_provider

__all__ = ["symbolic_claims"]


def symbolic_claims() -> Iterator[Claim]:
    from .discover import all_obligations

    for obligation in all_obligations():
        yield obligation.claim()


add_provider(symbolic_claims)
