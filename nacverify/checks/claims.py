"""Registers the numerical claims: NAC (Theorem 1, Euler, Corollaries 1-3, Euler order) and LTC (seed 002)."""

from ..claims import add_provider
from .ltc_checks import ltc_claims
from .nac_corollaries import corollary_claims
from .nac_stability import thm1_claims

add_provider(lambda: [*thm1_claims(), *corollary_claims(), *ltc_claims()])
