"""The symbolic engine: proof obligations checked with SymPy.

A proof module (repository folder proofs/, installed as `nacverify.proofs`) declares
`OBLIGATIONS`, a list of `Obligation(id, source, statement, check, expect, reason)`.
Checks are small declarative objects (`Identity`, `SolvesODE`, `DSolve`, `Limit`,
`Solve`, `Sign`, `Inequality`, `Within`, `AllOf`) whose methods are residual
simplification to zero, limits, solving, the sign of an expression under the symbols'
assumptions (with case splits and a monotone-from-start argument for interval
reasoning), and, for statements SymPy cannot settle, a seeded numeric counterexample
search confirmed at 60 digits; without a confirmed counterexample an undecided
statement is `inconclusive`. A `refuted` finding always carries its counterexample.
"""

from .checks import AllOf, Check, DSolve, Identity, Inequality, Limit, Sign, Solve, SolvesODE, Within
from .discover import all_obligations, proof_modules, select_obligations
from .finding import Finding
from .obligation import HOLDS, INCONCLUSIVE, REFUTED, SEED000, SEED001, SEED002, SEED003, SEED004, Obligation, describe_symbol
from .runner import ProofEntry, prove, report_sections
from .search import DEFAULT_SAMPLES, Relation, SearchSpace, evaluate_at, search

__all__ = [
    "AllOf", "Check", "DSolve", "Identity", "Inequality", "Limit", "Sign", "Solve", "SolvesODE", "Within",
    "all_obligations", "proof_modules", "select_obligations", "Finding",
    "HOLDS", "INCONCLUSIVE", "REFUTED", "SEED000", "SEED001", "SEED002", "SEED003", "SEED004", "Obligation", "describe_symbol",
    "ProofEntry", "prove", "report_sections",
    "DEFAULT_SAMPLES", "Relation", "SearchSpace", "evaluate_at", "search",
]
