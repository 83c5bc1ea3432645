import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import nacverify  # noqa: E402,F401  (enables float64 before any test builds arrays)
