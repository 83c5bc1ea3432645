"""JUnit XML for CI dashboards, in the layout pytest's own ``--junitxml`` writes.

One ``<testcase>`` per claim: ``classname`` is the claim's group (its source document where
the group is the catch-all ``misc``), ``name`` its id, ``time`` its `Result.seconds`. The
outcome follows the gate (`nacverify.claims.gate_failures`), so the XML and the exit code
always agree:

- a verdict equal to the expected one passes, also an accepted ``refuted`` (its reason is the
  property ``expected_reason``);
- a gate failure with the verdict ``error`` (the check itself failed) is an ``<error>``;
- any other gate failure is a ``<failure>`` whose message gives the verdict, the expected
  verdict and the witness.

The file validates against pytest's ``junit-10.xsd`` (the Jenkins xUnit schema pytest documents
for its xunit2 family), which has no ``<properties>`` inside a ``<testcase>``: a claim's
``kind``, ``source``, ``verdict``, ``expected``, ``margin`` (the first margin-like evidence
scalar, as ``name=value``), ``reading`` and ``expected_reason`` (where set) are the lines
``name: value`` of the testcase's ``<system-out>``, which CI servers show next to the test
(`testcase_properties`; `read_system_out` reads them back). The suite's ``<properties>``, which
the schema allows, carry ``complete`` and ``note``, so an interrupted run's partial XML says it
is partial. Built with `xml.etree.ElementTree`; nothing here prints.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import platform
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..atomic import atomic_write
from ..claims import Result, Verdict
from ..errors import BadInput
from ._io import check_writable

__all__ = ["MARGIN_HINTS", "junit_element", "junit_xml", "write_junit_xml", "check_junit_writable", "testcase_outcome",
           "testcase_properties", "read_system_out"]

#: Substrings of evidence scalar names that state a verdict's margin, in order of preference
#: (the claims name their margins differently: ``min_margin``, ``min_slack``, ``max_tightness``,
#: ``max_abs_gap``...); the solver's own error, when the evidence has it, follows as the scale
#: the margin is judged against (a gap of 3e-11 means little without the solver's 1.6e-10).
MARGIN_HINTS = ("margin", "slack", "tightness", "gap", "over_tolerance", "ratio", "excess")
SOLVER_ERROR_HINT = "solver_error"

# Characters XML 1.0 cannot hold at all (not even escaped): shown as #xNN instead, as pytest does.
_ILLEGAL = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: object) -> str:
    return _ILLEGAL.sub(lambda m: f"#x{ord(m.group()):02X}", str(value))


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}" if math.isfinite(value) else str(value)
    return str(value)


def _first(scalars: Mapping[str, object], hints: tuple[str, ...]) -> str | None:
    for hint in hints:
        for name, value in scalars.items():
            if hint in name and not isinstance(value, (str, bool)):
                return f"{name}={_number(value)}"
    return None


def _margin(scalars: Mapping[str, object]) -> str | None:
    """The evidence's margin and, after it, the solver's own error: "max_abs_gap=3.27e-11;
    max_solver_error=1.55e-10" (either alone when the other is absent)."""
    parts = [p for p in (_first(scalars, MARGIN_HINTS), _first(scalars, (SOLVER_ERROR_HINT,))) if p]
    return "; ".join(parts) or None


def _witness(witness: Mapping[str, object]) -> str:
    return ", ".join(f"{k}={_number(v)}" for k, v in witness.items()) or "none"


def _classname(result: Result) -> str:
    claim = result.claim
    if claim.group and claim.group != "misc":
        return claim.group
    return claim.source.split(",")[0].strip() or "nacverify"


def testcase_outcome(result: Result) -> str:
    """``passed``, ``failure`` or ``error``: what the claim's testcase reports."""
    if result.as_expected:
        return "passed"
    return "error" if result.verdict == Verdict.ERROR else "failure"


def testcase_properties(result: Result) -> dict[str, str]:
    """What the claim's testcase states besides its outcome, in order: ``kind``, ``source``,
    ``verdict``, ``expected``, then ``margin`` and ``reading`` where the claim has them, and
    ``expected_reason`` for an accepted refutation (its reason is why the test passes)."""
    claim, outcome = result.claim, result.outcome
    props = {"kind": str(claim.kind) if claim.kind else "", "source": claim.source, "verdict": outcome.verdict.value,
             "expected": claim.expected.value, "margin": _margin(outcome.evidence.scalars), "reading": claim.reading or None}
    if result.as_expected and outcome.verdict == Verdict.REFUTED:
        props["expected_reason"] = claim.expected_reason
    return {name: value for name, value in props.items() if value is not None}


def _one_line(value: object) -> str:
    return " ".join(str(value).splitlines())


def read_system_out(text: str | None) -> dict[str, str]:
    """The ``name: value`` lines of a testcase's ``<system-out>`` as a dict (the inverse of how
    `testcase_properties` are written; a value never spans lines)."""
    pairs = (line.split(": ", 1) for line in (text or "").splitlines() if ": " in line)
    return {name: value for name, value in pairs}


def _testcase(result: Result) -> ET.Element:
    claim, outcome = result.claim, result.outcome
    case = ET.Element("testcase", classname=_text(_classname(result)), name=_text(claim.id), time=f"{result.seconds:.3f}")
    kind = testcase_outcome(result)
    if kind != "passed":
        message = f"verdict {outcome.verdict.value}, expected {claim.expected.value}; witness: {_witness(outcome.evidence.witness)}"
        node = ET.SubElement(case, kind, message=_text(message))
        node.text = _text(f"{claim.id}: {outcome.message}\nstatement: {claim.statement}\nexpected {claim.expected.value} because: {claim.expected_reason}")
    out = ET.SubElement(case, "system-out")
    out.text = _text("\n".join(f"{name}: {_one_line(value)}" for name, value in testcase_properties(result).items()))
    return case


def junit_element(results: Iterable[Result], *, suite_name: str = "nacverify", seconds: float | None = None, complete: bool = True, note: str = "",
                  timestamp: _dt.datetime | None = None, hostname: str | None = None) -> ET.Element:
    """The ``<testsuites>`` tree of `results`. `seconds` is the suite's wall time (default: the
    sum of the claims' times); `timestamp` its start (default: now, local time with offset)."""
    results = list(results)
    outcomes = [testcase_outcome(r) for r in results]
    when = (timestamp or _dt.datetime.now(_dt.timezone.utc)).astimezone()
    total = sum(r.seconds for r in results) if seconds is None else seconds
    suite = ET.Element("testsuite", name=_text(suite_name), errors=str(outcomes.count("error")), failures=str(outcomes.count("failure")),
                       skipped="0", tests=str(len(results)), time=f"{total:.3f}", timestamp=when.isoformat(),
                       hostname=_text(platform.node() if hostname is None else hostname))
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="complete", value=str(bool(complete)).lower())
    if note:
        ET.SubElement(properties, "property", name="note", value=_text(note))
    suite.extend(_testcase(r) for r in results)
    root = ET.Element("testsuites", name="nacverify")
    root.append(suite)
    return root


def junit_xml(results: Iterable[Result], **kwargs) -> str:
    """The XML document (with its declaration) of `results`; keyword arguments as `junit_element`."""
    return '<?xml version="1.0" encoding="utf-8"?>' + ET.tostring(junit_element(results, **kwargs), encoding="unicode")


def check_junit_writable(path: str | os.PathLike, *, overwrite: bool = False, report: str | os.PathLike | None = None) -> Path:
    """Fail early (`BadInput`) when `path` cannot take the XML: a directory, an existing file
    without `overwrite`, a folder that cannot be written, or the `report` file itself (a run
    must not end by failing to write its last file, nor write the XML over its report)."""
    target = Path(path)
    if target.is_dir():
        raise BadInput(f"--junit-xml {target} is a directory")
    if target.exists() and not overwrite:
        raise BadInput(f"--junit-xml {target} exists; choose another path or pass --force")
    if report is not None and os.path.abspath(target) == os.path.abspath(report):
        raise BadInput(f"--junit-xml {target} is also the report (--out); give it another name")
    try:
        check_writable(target, overwrite=True)  # creates the folder and probes it
    except BadInput as exc:
        raise BadInput(str(exc).replace("--out", "--junit-xml", 1)) from None
    return target


def write_junit_xml(results: Iterable[Result], path: str | os.PathLike, *, overwrite: bool = False, **kwargs) -> Path:
    """Write `junit_xml(results, **kwargs)` to `path` atomically (`nacverify.atomic`); returns the path."""
    text = junit_xml(results, **kwargs)
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite=overwrite, what="JUnit XML")
