"""Registers the numerical claims of NAC: Theorem 1, Euler, Corollaries 1-3, Euler order (the LTC
claims of seed 002 register themselves from their own modules, `ltc_bounds`, `ltc_stability`, ...)."""

from ..claims import add_provider
from .nac_corollaries import corollary_claims
from .nac_stability import thm1_claims

add_provider(lambda: [*thm1_claims(), *corollary_claims()])
