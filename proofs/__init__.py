"""SymPy proof obligations, one module per source section (see nacverify.symbolic)."""
