"""Benchmarks (`nacverify bench`): `timings` measures the JAX NAC model and its baselines (time, memory,
XLA's counts), `peaks` gives the device's peak FLOP/s and memory bandwidth they are compared with."""
