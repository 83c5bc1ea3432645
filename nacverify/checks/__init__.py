"""Numerical claim checks (diffrax trajectories, seeded random draws, adversarial search)."""
