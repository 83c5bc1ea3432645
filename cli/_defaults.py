"""Option choices and defaults that `--help` shows, written out here so that building the command
line imports no JAX (the library modules that define them do). tests/test_conventions.py checks
each against the library's own value."""

from __future__ import annotations

# nacverify.audit.gates.claims.DEFAULT_SHARP_THRESHOLD
SHARP_THRESHOLD = 0.5
# nacverify.model.nac.BACKBONES, nacverify.model.gates.HEADS and MODES
BACKBONES = ("reference", "circuit", "fc")
HEADS = ("shared", "split")
MODES = ("exact", "euler", "steady")
# nacverify.audit.gates.stream.QUANTILE_MODES
QUANTILE_MODES = ("exact", "bounded")
# nacverify.audit.ltc.claims.DEFAULT_SOLVER_TOL and DEFAULT_SOLVER_STEPS
LTC_SOLVER_TOL: float | None = None
LTC_SOLVER_STEPS = 256
# the keys of nacverify.audit.gates.generate.DEFECTS
DEFECTS = ("none", "omega", "euler", "logits", "attention")
# nacverify.symbolic.DEFAULT_SAMPLES
PROOF_SAMPLES = 400
# nacverify.checks.solver_agreement.DEFAULT_RTOL, DEFAULT_ATOL; nacverify.solvers.mpmath_backend.DEFAULT_DPS
SOLVE_RTOL = 1e-12
SOLVE_ATOL = 1e-14
MP_DPS = 20
# nacverify.bench.timings.MIN_REPEATS
BENCH_MIN_REPEATS = 10

#: (module, name, value here) for the test that keeps them equal
LIBRARY_VALUES = (
    ("nacverify.audit.gates.claims", "DEFAULT_SHARP_THRESHOLD", SHARP_THRESHOLD),
    ("nacverify.model.nac", "BACKBONES", BACKBONES),
    ("nacverify.model.gates", "HEADS", HEADS),
    ("nacverify.model.gates", "MODES", MODES),
    ("nacverify.audit.gates.stream", "QUANTILE_MODES", QUANTILE_MODES),
    ("nacverify.audit.ltc.claims", "DEFAULT_SOLVER_TOL", LTC_SOLVER_TOL),
    ("nacverify.audit.ltc.claims", "DEFAULT_SOLVER_STEPS", LTC_SOLVER_STEPS),
    ("nacverify.symbolic", "DEFAULT_SAMPLES", PROOF_SAMPLES),
    ("nacverify.checks.solver_agreement", "DEFAULT_RTOL", SOLVE_RTOL),
    ("nacverify.checks.solver_agreement", "DEFAULT_ATOL", SOLVE_ATOL),
    ("nacverify.solvers.mpmath_backend", "DEFAULT_DPS", MP_DPS),
    ("nacverify.bench.timings", "MIN_REPEATS", BENCH_MIN_REPEATS),
)
