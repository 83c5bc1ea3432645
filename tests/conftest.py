import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

# The test suite, like the command line, is nacverify's own program: float64 for the whole
# process, before any test builds arrays. (Importing nacverify alone changes nothing;
# tests/test_import_side_effects.py checks that in a fresh process.)
from nacverify.precision import enable_float64_globally  # noqa: E402

enable_float64_globally()
