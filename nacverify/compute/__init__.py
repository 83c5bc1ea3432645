"""Where and how JAX computes: float64 scoped to our own work (`precision`), host arrays, device memory,
XLA's cost analysis, traced programs kept between runs and the source digest they are keyed by, a
vectorised sine, and the machine and its environment as reports record them."""
