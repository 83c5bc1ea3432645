"""Importing this module registers every claim provider with the registry."""

from . import frozen_claims  # noqa: F401
