"""The pytest plugin of nacverify (entry point ``pytest11``: ``nacverify``).

``pytest --nacverify-check 'nac.thm1.*'`` collects the registered claims whose ids match the
glob (repeatable) as test items, one per claim, named by the claim id under
``nacverify::<group>``. An item passes when the verdict equals the claim's expected verdict
(an accepted ``refuted`` passes) and fails otherwise with the claim, the verdict, the
expected verdict, the message and the witness. Items carry the marker ``nacverify`` (``-m
nacverify`` runs only them) and record verdict, expected verdict, kind, group and source as
properties, which ``--junitxml`` writes. ``--nacverify-quick`` and ``--nacverify-seed`` are
``nacverify check``'s ``--quick`` and ``--seed``.

The fixture ``nacverify_audit`` gives `nacverify.testing`'s assertions (``gates``,
``ltc_cell``, ``claims``) that also record each claim's verdict as a property of the test.

pytest loads this module for every run, so it imports nothing heavy at module level (no
JAX, no claim registry) and changes no configuration; claims are loaded only when
``--nacverify-check`` is given, and every check runs in scoped float64.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .claims import Claim, Result

__all__ = ["ClaimItem", "ClaimMismatch", "NacverifyAudit"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("nacverify", "nacverify: registered claims as test items")
    group.addoption("--nacverify-check", action="append", default=[], metavar="GLOB", dest="nacverify_check",
                    help="Collect the registered nacverify claims whose ids match GLOB (e.g. 'nac.thm1.*', repeatable) as test "
                         "items: one per claim, passing when the verdict is the expected one.")
    group.addoption("--nacverify-quick", action="store_true", default=False, dest="nacverify_quick",
                    help="Evaluate the collected claims as `nacverify check --quick` does (fewer random draws).")
    group.addoption("--nacverify-seed", type=int, default=0, metavar="S", dest="nacverify_seed",
                    help="Seed of every random draw of the collected claims (default 0).")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "nacverify: a registered nacverify claim collected by --nacverify-check")


class ClaimMismatch(AssertionError):
    """A claim's verdict differs from its expected verdict (the message says how)."""


class ClaimItem(pytest.Item):
    """One registered claim as a test item."""

    def __init__(self, *, claim: "Claim", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.add_marker("nacverify")

    def runtest(self) -> None:
        from .claims import CheckContext, evaluate
        from .testing import describe_result

        ctx = CheckContext(seed=self.config.getoption("nacverify_seed"), quick=self.config.getoption("nacverify_quick"))
        result = evaluate(self.claim, ctx)
        _record(self.user_properties, result)
        if not result.as_expected:
            raise ClaimMismatch(describe_result(result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None):
        if isinstance(excinfo.value, ClaimMismatch):
            return str(excinfo.value)  # the claim, verdict, expected verdict and witness; no traceback into pytest
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"nacverify claim {self.claim.id}"


class _Claims(pytest.Collector):
    """``nacverify`` (the root of the collected claims) or one claim group under it."""

    def __init__(self, *, claims: "list[Claim]", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claims = claims

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        if self.parent is self.session:
            groups: dict[str, list] = {}
            for claim in self.claims:
                groups.setdefault(claim.group, []).append(claim)
            for name, members in groups.items():
                yield _Claims.from_parent(self, name=name, claims=members)
        else:
            for claim in self.claims:
                yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


@pytest.hookimpl(tryfirst=True)  # before -k / -m deselect, so they apply to the claims too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    patterns = config.getoption("nacverify_check")
    if not patterns:
        return
    from .errors import BadInput
    from .testing import select_claims

    try:
        claims = select_claims(patterns)
    except BadInput as exc:
        raise pytest.UsageError(f"--nacverify-check: {exc}") from None
    root = _Claims.from_parent(session, name="nacverify", nodeid="nacverify", claims=claims)
    for group in root.collect():
        found = list(group.collect())  # type: ignore[union-attr]
        # as pytest's own collection would: the terminal counts "collected N items" from these reports
        session.ihook.pytest_collectreport(report=pytest.CollectReport(group.nodeid, "passed", None, found))
        items.extend(found)


def _record(properties: list[tuple[str, object]], result: "Result", prefix: str = "") -> None:
    """Verdict, expected verdict, kind, group and source as (name, value) properties."""
    claim = result.claim
    pairs = {"verdict": result.verdict.value, "expected": claim.expected.value, "kind": str(claim.kind or ""),
             "group": claim.group, "source": claim.source}
    properties.extend((f"{prefix}{k}", v) for k, v in pairs.items())


class NacverifyAudit:
    """`nacverify.testing`'s assertions, recording each claim's verdict as ``<claim id>.verdict``
    (and expected, kind, group, source) in the test's properties, before asserting."""

    def __init__(self, node: pytest.Item) -> None:
        self._node = node

    def _gate(self, results: "list[Result]", what: str) -> "list[Result]":
        __tracebackhide__ = True
        from .testing import gate

        for r in results:
            _record(self._node.user_properties, r, prefix=f"{r.claim.id}.")
        return gate(results, what)

    def gates(self, source, expect=None, **options: Any) -> "list[Result]":
        """`nacverify.testing.assert_gates`."""
        from .testing import gate_results

        __tracebackhide__ = True
        return self._gate(gate_results(source, expect, **options), "audit")

    def ltc_cell(self, source, expect=None, **options: Any) -> "list[Result]":
        """`nacverify.testing.assert_ltc_cell`."""
        from .testing import ltc_cell_results

        __tracebackhide__ = True
        return self._gate(ltc_cell_results(source, expect, **options), "LTC audit")

    def claims(self, patterns, *, seed: int = 0, quick: bool = False) -> "list[Result]":
        """`nacverify.testing.assert_claims`."""
        from .testing import claim_results

        __tracebackhide__ = True
        return self._gate(claim_results(patterns, seed=seed, quick=quick), "registered")


@pytest.fixture
def nacverify_audit(request: pytest.FixtureRequest) -> NacverifyAudit:
    """nacverify's assertions (``gates``, ``ltc_cell``, ``claims``) that record every verdict in
    the test's properties (written by ``--junitxml``)."""
    return NacverifyAudit(request.node)
