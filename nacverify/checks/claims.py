"""Registers the numerical NAC claims (Theorem 1, Euler, Corollaries 1-3, Euler order)."""

from ..claims import add_provider
from .nac_corollaries import corollary_claims
from .nac_stability import thm1_claims

add_provider(lambda: [*thm1_claims(), *corollary_claims()])
