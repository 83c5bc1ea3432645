"""Assertions for a team's own test suite, in the spirit of `numpy.testing` and chex.

`assert_gates` runs the gate-export audit (`nacverify.audit`, reports/AUDIT_FORMAT.md) on a
file or directly on the arrays a model produced, `assert_ltc_cell` does the same for an LTC
cell (reports/LTC_AUDIT_FORMAT.md), and `assert_claims` evaluates registered claims selected
by glob. Each compares every verdict with the expected one, strictly in both directions like
the command line's gate, and raises `AssertionError` naming each claim that differs, its
verdict, the expected verdict, the check's message and the witness. On success it returns
the results, so a test can look at the evidence.

``expect`` maps claim ids to accepted verdicts (``"refuted"``, a `Verdict`, or
``{"verdict": ..., "reason": ...}``) or names a JSON/TOML file as ``nacverify audit --expect``
reads it; listed claims replace their default expectation, the others keep it (the audit's
defaults: ``holds``, or ``inapplicable`` where the export lacks what a claim needs). An id
that is not a claim of the audit is `nacverify.errors.BadInput`.

Every function computes in float64 inside `nacverify.compute.precision.float64` (scoped): the
caller's JAX configuration is the same before and after. The pytest plugin
(`nacverify.pytest_plugin`) builds on the same formatting.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from .audit import AbstractLTCExport, Expectation, GateExport, LTCExport
    from .claims import Claim, Result, Verdict

__all__ = [
    "assert_gates",
    "assert_ltc_cell",
    "assert_claims",
    "gate_results",
    "ltc_cell_results",
    "claim_results",
    "select_claims",
    "gate",
    "describe_result",
    "format_witness",
]

#: What `expect` may be: a claim id -> verdict mapping, or the path of an expect file.
ExpectLike = Union[Mapping[str, Any], str, os.PathLike, None]


def format_witness(witness: Mapping[str, Any]) -> str:
    """``name=value, ...`` (floats to 6 significant digits), or ``none`` when there is none."""
    if not witness:
        return "none"
    return ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in witness.items())


def describe_result(result: "Result") -> str:
    """One claim's gate failure in three lines: claim, verdict and expected verdict (with why it
    is expected), the check's message, the witness."""
    claim, outcome = result.claim, result.outcome
    lines = [f"{claim.id}: verdict {outcome.verdict.value}, expected {claim.expected.value} ({claim.expected_reason})"]
    lines.append(f"  message: {outcome.message}")
    lines.append(f"  witness: {format_witness(outcome.evidence.witness)}")
    return "\n".join(lines)


def _expectations(expect: ExpectLike) -> "dict[str, Expectation] | None":
    """`expect` as the table `nacverify.audit.apply_expect` takes."""
    from .audit import Expectation, read_expect
    from .claims import Verdict
    from .errors import BadInput

    if expect is None:
        return None
    if isinstance(expect, (str, os.PathLike)):
        return read_expect(expect)
    if not isinstance(expect, Mapping):
        raise BadInput(f"expect must map claim ids to verdicts or name a JSON/TOML file, got {type(expect).__name__}")
    table: dict[str, Expectation] = {}
    for cid, value in expect.items():
        reason = ""
        if isinstance(value, Expectation):
            table[cid] = value
            continue
        if isinstance(value, Mapping):
            reason = str(value.get("reason", reason))
            value = value.get("verdict")
        try:
            verdict = Verdict(value.strip().lower() if isinstance(value, str) else value)
        except ValueError:
            names = ", ".join(v.value for v in Verdict)
            raise BadInput(f"expect[{cid!r}]: unknown verdict {value!r} (use {names})") from None
        table[cid] = Expectation(verdict, reason)
    return table


def gate(results: Sequence["Result"], what: str = "nacverify") -> list["Result"]:
    """`results` when every verdict is the expected one; `AssertionError` naming each that is not."""
    __tracebackhide__ = True  # pytest shows the caller's line, not this frame (as numpy.testing does)
    failures = [r for r in results if not r.as_expected]
    if failures:
        head = f"nacverify: {len(failures)} of {len(results)} {what} claim(s) differ from the expected verdict:"
        raise AssertionError("\n".join([head, *(describe_result(r) for r in failures)]))
    return list(results)


def _run(claims: Iterable["Claim"], seed: int = 0, quick: bool = False) -> list["Result"]:
    from .claims import CheckContext, evaluate

    ctx = CheckContext(seed=seed, quick=quick)
    return [evaluate(c, ctx) for c in claims]


def _gate_export(source: Any) -> "GateExport":
    from .audit import GateExport, from_arrays, read_export

    if isinstance(source, GateExport):
        return source
    if isinstance(source, (str, os.PathLike)):
        return read_export(source)
    if isinstance(source, Mapping):
        return from_arrays({k: _host(v) for k, v in source.items()})
    from .errors import BadInput

    raise BadInput(f"assert_gates takes a file path, a mapping of arrays or a GateExport, got {type(source).__name__}")


def _host(value: Any) -> Any:
    """A NumPy view of a JAX/torch/NumPy array (numbers and strings unchanged)."""
    import numpy as np

    if hasattr(value, "detach") and hasattr(value, "numpy"):  # torch.Tensor
        return value.detach().cpu().numpy()
    return value if isinstance(value, (str, bytes, int, float, bool)) else np.asarray(value)


def gate_results(source: Union[str, os.PathLike, Mapping[str, Any], "GateExport"], expect: ExpectLike = None, *,
                 sharp_threshold: float | None = None) -> list["Result"]:
    """The seven audit results of `assert_gates`, without the assertion."""
    from .audit import DEFAULT_SHARP_THRESHOLD, apply_expect, audit_claims
    from .compute.precision import float64

    with float64():
        export = _gate_export(source)
        claims = audit_claims(export, sharp_threshold=DEFAULT_SHARP_THRESHOLD if sharp_threshold is None else sharp_threshold)
        table = _expectations(expect)
        if table is not None:
            claims = apply_expect(claims, table, "nacverify.testing expect")
        return _run(claims)


def assert_gates(source: Union[str, os.PathLike, Mapping[str, Any], "GateExport"], expect: ExpectLike = None, *,
                 sharp_threshold: float | None = None) -> list["Result"]:
    """Audit a NAC implementation's gates and fail when a verdict differs from the expected one.

    `source` is a gate-export file (.npz / HDF5), a mapping of the format's names to arrays
    (NumPy, JAX or torch; e.g. what `nacverify.model.export_gates` returns) or a `GateExport`.
    `expect` overrides the audit's default expectations (module docstring); `sharp_threshold`
    is that of ``nacverify audit``. Returns the seven results when every verdict is as
    expected; raises `AssertionError` otherwise."""
    __tracebackhide__ = True
    return gate(gate_results(source, expect, sharp_threshold=sharp_threshold), "audit")


def _ltc_export(source: Any) -> "LTCExport | AbstractLTCExport":
    from .audit import AbstractLTCExport, LTCExport, ltc_from_arrays, read_ltc_export

    if isinstance(source, (LTCExport, AbstractLTCExport)):
        return source
    if isinstance(source, (str, os.PathLike)):
        return read_ltc_export(source)
    if isinstance(source, Mapping):
        return ltc_from_arrays({k: _host(v) for k, v in source.items()})
    from .errors import BadInput

    raise BadInput(f"assert_ltc_cell takes a file path, a mapping of arrays, an LTCExport or an AbstractLTCExport, got {type(source).__name__}")


def ltc_cell_results(source: Union[str, os.PathLike, Mapping[str, Any], "LTCExport"], expect: ExpectLike = None, *,
                     tol: float | None = None, solver_steps: int | None = None) -> list["Result"]:
    """The five LTC audit results of `assert_ltc_cell`, without the assertion."""
    from .audit import apply_expect
    from .audit.ltc.claims import DEFAULT_SOLVER_STEPS, DEFAULT_SOLVER_TOL, ltc_audit_claims
    from .compute.precision import float64

    with float64():
        export = _ltc_export(source)
        claims = ltc_audit_claims(export, tol=DEFAULT_SOLVER_TOL if tol is None else tol,
                                  solver_steps=DEFAULT_SOLVER_STEPS if solver_steps is None else solver_steps)
        table = _expectations(expect)
        if table is not None:
            claims = apply_expect(claims, table, "nacverify.testing expect")
        return _run(claims)


def assert_ltc_cell(source: Union[str, os.PathLike, Mapping[str, Any], "LTCExport"], expect: ExpectLike = None, *,
                    tol: float | None = None, solver_steps: int | None = None) -> list["Result"]:
    """Audit an LTC cell (seed 002) and fail when a verdict differs from the expected one (holds).

    `source` is an LTC-cell export file, a mapping of the format's names to arrays (e.g.
    `nacverify.audit.ltc.export.ncps_cell_entries(rnn, inputs)` for an ``ncps.torch.LTC``
    module, or ``ncps_cell_entries(cell, inputs, batch_first=True)`` for its cell; no file
    needed) or an `LTCExport`. `tol` and `solver_steps` are those of ``nacverify audit-ltc``. Returns the five results; raises `AssertionError` otherwise."""
    __tracebackhide__ = True
    return gate(ltc_cell_results(source, expect, tol=tol, solver_steps=solver_steps), "LTC audit")


def select_claims(patterns: Union[str, Iterable[str]]) -> list["Claim"]:
    """Registered claims whose id matches any glob in `patterns`; `BadInput` when none does."""
    import nacverify.catalog  # noqa: F401  (registers every claim provider)

    from .claims import select
    from .errors import BadInput
    from .compute.precision import float64

    pats = [patterns] if isinstance(patterns, str) else list(patterns)
    with float64():
        claims = select(pats)
    if not claims:
        raise BadInput(f"no registered claim matches {' '.join(pats)!r} (see `nacverify list`)")
    return claims


def claim_results(patterns: Union[str, Iterable[str]], *, seed: int = 0, quick: bool = False) -> list["Result"]:
    """The results of `assert_claims`, without the assertion."""
    from .compute.precision import float64

    with float64():
        return _run(select_claims(patterns), seed=seed, quick=quick)


def assert_claims(patterns: Union[str, Iterable[str]], *, seed: int = 0, quick: bool = False) -> list["Result"]:
    """Evaluate the registered claims whose ids match the glob(s) (e.g. ``"nac.thm1.*"``) with
    the given seed (``quick``: as ``nacverify check --quick``) and fail when a verdict differs
    from the claim's expected one. Returns the results; raises `AssertionError` otherwise."""
    __tracebackhide__ = True
    return gate(claim_results(patterns, seed=seed, quick=quick), "registered")
