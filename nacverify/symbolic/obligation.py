"""A proof obligation: one checkable statement from a seed, stated in SymPy.

Proof modules (`nacverify.proofs.*`, the repository's proofs/ folder) declare a list
`OBLIGATIONS` of these. Each has an id that reads like its source, the source (seed
file and equation), a one-line statement, the check (`nacverify.symbolic.checks`), the
expected verdict with its reason, whose statement it is (`kind`: as-printed, reading,
correction, implementation or lemma; a reading names its interpretation in `reading`) and,
where seeds 000 and 001 disagree, which one the check follows. The symbols and their assumptions are read off the check.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from ..claims import CheckContext, Claim, Kind, Outcome, Verdict
from .checks import Check
from .finding import Finding
from .search import DEFAULT_SAMPLES

__all__ = ["Obligation", "describe_symbol", "SEED000", "SEED001", "SEED002", "SEED003", "SEED004", "HOLDS", "REFUTED", "INCONCLUSIVE"]

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"
SEED002 = "002_02b8eaa764ffef08.txt"
SEED003 = "003_15f93b400484390c.txt"
SEED004 = "004_ca116cd7d91e9398.txt"

HOLDS = Verdict.HOLDS
REFUTED = Verdict.REFUTED
INCONCLUSIVE = Verdict.INCONCLUSIVE


def describe_symbol(symbol: sp.Symbol) -> str:
    """The strongest of a symbol's assumptions in words: 'integer > 0', '> 0', ..."""
    facts = []
    if symbol.is_integer:
        facts.append("integer")
    if symbol.is_positive:
        facts.append("> 0")
    elif symbol.is_nonnegative:
        facts.append(">= 0")
    elif symbol.is_negative:
        facts.append("< 0")
    elif symbol.is_nonpositive:
        facts.append("<= 0")
    elif symbol.is_nonzero and symbol.is_real:
        facts.append("real, != 0")
    elif symbol.is_real:
        facts.append("real")
    if not facts:
        facts.append("complex")
    return " ".join(facts)


@dataclass(frozen=True, eq=False)
class Obligation:
    id: str
    source: str
    statement: str
    check: Check
    expect: Verdict
    reason: str
    follows: str = ""
    note: str = ""
    over: tuple[sp.Symbol, ...] = ()  # quantified symbols the check does not show (e.g. sizes checked on a grid)
    kind: Kind | str | None = None  # whose statement (nacverify.claims.Kind)
    reading: str = ""  # the interpretation a `reading` obligation is checked under

    def symbols(self) -> dict[str, str]:
        """Symbol name -> its assumptions, plus search intervals where stated. Two symbols of one
        name (``t_a`` positive in one part, negative in another) are both described, in sorted
        order, so the text does not depend on set iteration (Python's hash seed)."""
        domain = self.check.domain()
        texts: dict[str, set[str]] = {}
        for s in self.check.symbols() | set(self.over):
            text = describe_symbol(s)
            if s.name in domain:
                lo, hi = domain[s.name]
                text += f", in [{lo}, {hi}]"
            texts.setdefault(s.name, set()).add(text)
        return {name: " | ".join(sorted(texts[name])) for name in sorted(texts)}

    def assumptions(self) -> str:
        text = "; ".join(f"{k}: {v}" for k, v in self.symbols().items())
        if self.note:
            text += f"; {self.note}"
        return text

    def run(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> Finding:
        """The check's finding (cached per seed and sample count)."""
        return _run(self, seed, samples)

    def outcome(self, ctx: CheckContext) -> Outcome:
        samples = int(ctx.options.get("samples", DEFAULT_SAMPLES)) if ctx.options else DEFAULT_SAMPLES
        finding = self.run(ctx.seed, samples)
        outcome = finding.to_outcome()
        return outcome

    def claim(self) -> Claim:
        source = self.source + (f" (follows {self.follows})" if self.follows else "")
        return Claim(
            id=self.id,
            source=source,
            statement=self.statement,
            assumptions=self.assumptions(),
            expected=self.expect,
            expected_reason=self.reason,
            check=self.outcome,
            group="symbolic",
            kind=Kind(self.kind) if self.kind else None,
            reading=self.reading,
        )


@functools.lru_cache(maxsize=4096)
def _run(obligation: Obligation, seed: int, samples: int) -> Finding:
    return obligation.check.run(seed, samples)
