"""`--junit-xml` (issue 13, item 1; issue 23, item 4): JUnit XML read back with junitparser, its
counts against the HDF5 report, hand-built results (a gate failure, an error, an accepted
refuted), pytest's own --junitxml layout, validation against pytest's junit-10.xsd with
xmlschema, and the CLI's early refusal and interrupted runs.

tests/data/junit-10.xsd is the Jenkins xUnit plugin's JUnit schema that pytest documents for its
xunit2 family (pytest keeps a copy in testing/example_scripts/). It was written for this suite
from that schema's published structure rather than copied byte for byte: the same elements,
attributes, required attributes, Surefire time pattern and content models (its header says
which). `test_the_schema_accepts_pytests_own_xunit2_output` checks it against pytest's real
output, and `test_the_schema_rejects_testcase_properties` that it rejects what it must."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from junitparser import Error, Failure, JUnitXml
from typer.testing import CliRunner

from nacverify import claims as claim_registry
from nacverify.claims import Claim, Evidence, Kind, Outcome, Result, Verdict
from nacverify.errors import BadInput, Interrupted
from nacverify.report import read_report
from nacverify.report.junit import check_junit_writable, junit_xml, read_system_out, write_junit_xml
from nacverify.cli.app import app

runner = CliRunner()


def _result(cid, verdict, expected, seconds, *, group="demo", kind=Kind.LEMMA, reading="", message="msg", scalars=None, witness=None, reason="why"):
    outcome = Outcome(verdict, message, Evidence({}, scalars or {}, witness or {}))
    claim = Claim(cid, "000_x.txt, eq. 1", "a statement", "assumptions", expected, reason, lambda ctx: outcome, group=group, kind=kind, reading=reading)
    return Result(claim, outcome, seconds)


HAND = [
    _result("demo.holds", Verdict.HOLDS, Verdict.HOLDS, 0.25, scalars={"min_slack": 0.0025, "members": 3}),
    _result("demo.accepted", Verdict.REFUTED, Verdict.REFUTED, 1.5, kind=Kind.AS_PRINTED, reason="the paper's Table 2 is wrong", witness={"dt": 1.005}),
    _result("demo.gate", Verdict.REFUTED, Verdict.HOLDS, 0.125, witness={"dt": 1.01, "phi": 0.5},
            message="Euler leaves [m, M]: bell \x07 and escape \x1b[31m in a message"),
    _result("demo.crash", Verdict.ERROR, Verdict.HOLDS, 0.0625, message="check failed: ZeroDivisionError: division by zero"),
    _result("demo.read", Verdict.HOLDS, Verdict.HOLDS, 0.5, group="misc", kind=Kind.READING, reading="max-deviation",
            scalars={"max_tightness": 0.8}),
]


XSD = Path(__file__).parent / "data" / "junit-10.xsd"


@pytest.fixture(scope="module")
def junit10():
    xmlschema = pytest.importorskip("xmlschema", reason="xmlschema is a test extra (pip install -e '.[test]')")
    return xmlschema.XMLSchema(str(XSD))


def _props(case) -> dict[str, str]:
    """A testcase's claim properties: the ``name: value`` lines of its <system-out>."""
    return read_system_out(case.system_out)


def _valid(path) -> None:
    """`path` passes junit-10.xsd (skipped, with the reason, without xmlschema)."""
    xmlschema = pytest.importorskip("xmlschema", reason="xmlschema is a test extra (pip install -e '.[test]')")
    errors = list(xmlschema.XMLSchema(str(XSD)).iter_errors(str(path)))
    assert errors == [], [e.reason for e in errors[:3]]


def _suite(path):
    suites = list(JUnitXml.fromfile(str(path)))
    assert len(suites) == 1
    return suites[0]


def test_hand_built_results_read_back_with_junitparser(tmp_path):
    path = write_junit_xml(HAND, tmp_path / "j.xml", suite_name="nacverify check", seconds=9.0)
    suite = _suite(path)
    # 5 claims: one gate failure (refuted, expected holds), one error; the accepted refuted passes
    assert (suite.name, suite.tests, suite.failures, suite.errors, suite.skipped) == ("nacverify check", 5, 1, 1, 0)
    assert suite.time == 9.0
    assert {p.name: p.value for p in suite.properties()} == {"complete": "true"}
    cases = {c.name: c for c in suite}
    assert list(cases) == ["demo.holds", "demo.accepted", "demo.gate", "demo.crash", "demo.read"]
    assert {n: c.time for n, c in cases.items()} == {"demo.holds": 0.25, "demo.accepted": 1.5, "demo.gate": 0.125, "demo.crash": 0.062, "demo.read": 0.5}
    assert cases["demo.holds"].classname == "demo" and cases["demo.read"].classname == "000_x.txt"  # group misc: the source document
    assert cases["demo.holds"].is_passed and cases["demo.accepted"].is_passed and cases["demo.read"].is_passed
    failure, = cases["demo.gate"].result
    assert isinstance(failure, Failure)
    assert failure.message == "verdict refuted, expected holds; witness: dt=1.01, phi=0.5"
    assert "Euler leaves [m, M]" in failure.text
    error, = cases["demo.crash"].result
    assert isinstance(error, Error) and error.message == "verdict error, expected holds; witness: none"
    assert "ZeroDivisionError" in error.text
    assert _props(cases["demo.accepted"]) == {"kind": "as-printed", "source": "000_x.txt, eq. 1", "verdict": "refuted", "expected": "refuted",
                                               "expected_reason": "the paper's Table 2 is wrong"}
    assert _props(cases["demo.holds"]) == {"kind": "lemma", "source": "000_x.txt, eq. 1", "verdict": "holds", "expected": "holds", "margin": "min_slack=0.0025"}
    read = _props(cases["demo.read"])
    assert read["reading"] == "max-deviation" and read["margin"] == "max_tightness=0.8" and read["kind"] == "reading"
    assert "expected_reason" not in _props(cases["demo.gate"])  # only an accepted refuted carries its reason


def test_control_characters_do_not_break_the_xml():
    text = junit_xml(HAND, suite_name="s")
    root = ET.fromstring(text)  # would raise on a raw \x07 or \x1b
    assert "#x07" in text and "#x1B" in text
    assert root.tag == "testsuites"


TINY_SUITE = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("setup fails")

def test_ok(record_testsuite_property):
    record_testsuite_property("kind", "lemma")
    print("some output")

def test_bad():
    assert 1 == 2

def test_error(broken):
    pass

def test_skip():
    pytest.skip("not here")
"""


def _pytest_xunit2(tmp_path) -> Path:
    """pytest's own --junitxml in its default family (xunit2) for a pass, a failure, an error, a
    skip, a suite property and captured output."""
    (tmp_path / "test_tiny.py").write_text(TINY_SUITE)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit2", "-o", "junit_logging=system-out",
                    "--junitxml", "py.xml", "test_tiny.py"], cwd=tmp_path, capture_output=True, timeout=120)
    return tmp_path / "py.xml"


def test_layout_matches_pytests_own_junitxml(tmp_path, junit10):
    """The same elements and attributes as the XML pytest itself writes (xunit2), so any dashboard
    that reads pytest's output reads ours; pytest's output passes the schema, so the schema file
    is not stricter than the tool it documents."""
    py_xml = _pytest_xunit2(tmp_path)
    theirs = ET.parse(py_xml).getroot()
    assert junit10.is_valid(str(py_xml)), list(junit10.iter_errors(str(py_xml)))[:3]
    ours = ET.fromstring(junit_xml(HAND, suite_name="s"))
    assert ours.tag == theirs.tag == "testsuites" and set(ours.attrib) == set(theirs.attrib)
    suite_o, suite_t = ours.find("testsuite"), theirs.find("testsuite")
    assert set(suite_o.attrib) == set(suite_t.attrib) == {"name", "errors", "failures", "skipped", "tests", "time", "timestamp", "hostname"}
    case_t = suite_t.findall("testcase")
    assert all(set(c.attrib) == set(case_t[0].attrib) == {"classname", "name", "time"} for c in suite_o.findall("testcase"))
    assert set(suite_o.find("properties/property").attrib) == set(suite_t.find("properties/property").attrib) == {"name", "value"}
    assert all(c.find("properties") is None for c in case_t)  # xunit2 writes no testcase properties, nor do we
    assert all(c.find("properties") is None for c in suite_o.findall("testcase"))
    fail_t = next(c for c in case_t if c.find("failure") is not None).find("failure")
    fail_o = next(c for c in suite_o.findall("testcase") if c.find("failure") is not None).find("failure")
    assert set(fail_o.attrib) == set(fail_t.attrib) == {"message"} and fail_o.text
    assert next(c for c in case_t if c.get("name") == "test_ok").find("system-out").text.strip().endswith("some output")


def test_xml_validates_against_pytests_junit_10_xsd(junit10):
    """Every outcome (pass, accepted refuted, failure, error, a reading claim) in one file: no
    schema error. Testcase-level <properties>, which the schema rejects, were one error per claim."""
    text = junit_xml(HAND, suite_name="nacverify check", complete=False, note="interrupted after 5 of 9 claims")
    errors = list(junit10.iter_errors(text))
    assert errors == [], [e.reason for e in errors[:3]]
    root = ET.fromstring(text)
    for case in root.iter("testcase"):
        assert [child.tag for child in case][-1] == "system-out"
        assert read_system_out(case.find("system-out").text)["verdict"] in {"holds", "refuted", "error"}


def test_the_schema_rejects_testcase_properties(junit10):
    """The schema file is strict where the issue found CI servers strict: a property inside a
    testcase (what this module wrote before) and a testcase without a name are errors."""
    old = ('<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c" name="n" time="0.1">'
           '<properties><property name="kind" value="lemma"/></properties></testcase></testsuite></testsuites>')
    reasons = [e.reason for e in junit10.iter_errors(old)]
    assert len(reasons) == 1 and "properties" in reasons[0]
    assert not junit10.is_valid('<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase time="1"/></testsuite></testsuites>')
    assert not junit10.is_valid('<testsuites><testsuite name="s" tests="1" failures="0" errors="0" time="-1"/></testsuites>')
    assert junit10.is_valid('<testsuites><testsuite name="s" tests="0" failures="0" errors="0" time="1234.5"/></testsuites>')


def test_multi_line_values_stay_one_property_each():
    reason = "the paper's Table 2 is wrong:\nrow 3 uses dt = 1.005\r\nand row 4 too"
    result = _result("demo.lines", Verdict.REFUTED, Verdict.REFUTED, 0.1, reason=reason)
    (case,) = ET.fromstring(junit_xml([result])).iter("testcase")
    props = read_system_out(case.find("system-out").text)
    assert props["expected_reason"] == "the paper's Table 2 is wrong: row 3 uses dt = 1.005 and row 4 too"
    assert list(props) == ["kind", "source", "verdict", "expected", "expected_reason"]


def test_existing_file_refused_without_overwrite(tmp_path):
    path = write_junit_xml(HAND[:1], tmp_path / "j.xml")
    with pytest.raises(BadInput, match="exists"):
        write_junit_xml(HAND, path)
    write_junit_xml(HAND, path, overwrite=True)
    assert _suite(path).tests == 5


def test_unusable_paths_refused_before_a_run(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(BadInput, match="--junit-xml .* not writable"):
        check_junit_writable(tmp_path / "file" / "sub" / "j.xml")
    with pytest.raises(BadInput, match="directory"):
        check_junit_writable(tmp_path)
    with pytest.raises(BadInput, match="also the report"):
        check_junit_writable(tmp_path / "r.h5", report=tmp_path / "." / "r.h5")
    assert check_junit_writable(tmp_path / "new" / "j.xml") == tmp_path / "new" / "j.xml"


def assert_matches_report(xml_path, h5_path) -> dict:
    """One case per claim, named and timed as in the report; failures + errors = the gate's count."""
    data = read_report(h5_path)
    _valid(xml_path)
    suite = _suite(xml_path)
    cases = {c.name: c for c in suite}
    assert suite.tests == len(cases) == len(data.claims) == data.attrs["n_claims"]
    assert set(cases) == set(data.claims)
    unexpected = {cid for cid, rec in data.claims.items() if rec.verdict != rec.expected}
    errors = {cid for cid in unexpected if data.claims[cid].verdict == "error"}
    assert (suite.failures, suite.errors) == (len(unexpected - errors), len(errors))
    assert suite.failures + suite.errors == data.attrs["n_unexpected"]
    for cid, case in cases.items():
        rec = data.claims[cid]
        assert case.classname == rec.group and case.time == pytest.approx(rec.seconds, abs=6e-4)
        assert case.is_passed == (cid not in unexpected)
        props = _props(case)
        assert (props["verdict"], props["expected"], props["source"], props["kind"]) == (rec.verdict, rec.expected, rec.source, rec.kind)
        if rec.verdict == rec.expected == "refuted":
            assert props["expected_reason"] == rec.expected_reason
    return cases


SMALL = ["--only", "nac.thm1.euler.all_steps", "--only", "nac.thm1.euler.endpoints"]  # one refuted as expected, one holds (symbolic, fast)


def test_check_quick_junit_counts_equal_the_report(tmp_path):
    res = runner.invoke(app, ["check", "--quick", "-j", "1", *SMALL, "--out", str(tmp_path / "r.h5"), "--junit-xml", str(tmp_path / "c.xml")])
    assert res.exit_code == 0, res.output
    assert f"junit-xml: {tmp_path / 'c.xml'}" in res.stdout
    cases = assert_matches_report(tmp_path / "c.xml", tmp_path / "r.h5")
    assert set(cases) == {"nac.thm1.euler.all_steps", "nac.thm1.euler.endpoints"} and all(c.is_passed for c in cases.values())
    assert _props(cases["nac.thm1.euler.all_steps"])["verdict"] == "refuted"  # accepted: a pass, with its reason
    assert _suite(tmp_path / "c.xml").name == "nacverify check"
    res = runner.invoke(app, ["check", "--quick", "-j", "1", *SMALL, "--out", str(tmp_path / "r2.h5"), "--junit-xml", str(tmp_path / "c.xml")])
    assert res.exit_code == 2 and "--junit-xml" in res.stderr and "--force" in res.stderr
    assert not (tmp_path / "r2.h5").exists()  # refused before the run


def test_check_gate_failure_is_a_failure_case(tmp_path, monkeypatch):
    original = claim_registry.select

    def flipped(patterns=None, group=None):  # the repository "expects" endpoints to be refuted: it holds, so the gate fails
        return [dataclasses.replace(c, expected=Verdict.REFUTED) if c.id == "nac.thm1.euler.endpoints" else c for c in original(patterns, group)]

    monkeypatch.setattr(claim_registry, "select", flipped)
    res = runner.invoke(app, ["check", "--quick", "-j", "1", *SMALL, "--out", str(tmp_path / "r.h5"), "--junit-xml", str(tmp_path / "c.xml")])
    assert res.exit_code == 1, res.output
    cases = assert_matches_report(tmp_path / "c.xml", tmp_path / "r.h5")
    failure, = cases["nac.thm1.euler.endpoints"].result
    assert isinstance(failure, Failure) and failure.message.startswith("verdict holds, expected refuted; witness:")


def test_interrupted_check_writes_the_xml_of_what_finished(tmp_path, monkeypatch):
    import nacverify.cli.check as check_cmd

    def first_then_interrupt(claims, ctx, **kwargs):
        done = [claim_registry.evaluate(claims[0], ctx)]
        raise Interrupted(f"interrupted after 1 of {len(claims)} claims", done)

    monkeypatch.setattr(check_cmd, "run_claims", first_then_interrupt)
    res = runner.invoke(app, ["check", "--quick", "-j", "1", *SMALL, "--out", str(tmp_path / "r.h5"), "--junit-xml", str(tmp_path / "c.xml")])
    assert res.exit_code == 3 and "incomplete" in res.stderr and "c.xml" in res.stderr
    cases = assert_matches_report(tmp_path / "c.xml", tmp_path / "r.h5")
    assert len(cases) == 1
    props = {p.name: p.value for p in _suite(tmp_path / "c.xml").properties()}
    assert props == {"complete": "false", "note": "interrupted after 1 of 2 claims"}


def test_prove_junit(tmp_path):
    res = runner.invoke(app, ["prove", "--only", "nac.thm1.euler.all_steps", "--out", str(tmp_path / "p.h5"), "--junit-xml", str(tmp_path / "p.xml")])
    assert res.exit_code == 0, res.output
    cases = assert_matches_report(tmp_path / "p.xml", tmp_path / "p.h5")
    assert list(cases) == ["nac.thm1.euler.all_steps"] and _suite(tmp_path / "p.xml").name == "nacverify prove"


def test_audit_junit_failure_then_accepted(tmp_path):
    from nacverify.audit import write_export
    from test_audit import make

    e = make("exact")
    e["attention"] = e["attention"] * 1.02  # rows sum to 1.02: audit.attention_rows is refuted
    path = write_export(e, tmp_path / "bad.npz")
    res = runner.invoke(app, ["audit", str(path), "--out", str(tmp_path / "a.h5"), "--junit-xml", str(tmp_path / "a.xml")])
    assert res.exit_code == 1
    cases = assert_matches_report(tmp_path / "a.xml", tmp_path / "a.h5")
    failure, = cases["audit.attention_rows"].result
    assert isinstance(failure, Failure) and failure.message.startswith("verdict refuted, expected holds; witness: ")
    assert _suite(tmp_path / "a.xml").failures == 1
    accept = tmp_path / "accept.json"
    accept.write_text('{"audit.attention_rows": {"verdict": "refuted", "reason": "known, fixed in v2"}}')
    res = runner.invoke(app, ["audit", str(path), "--expect", str(accept), "--out", str(tmp_path / "b.h5"), "--junit-xml", str(tmp_path / "b.xml")])
    assert res.exit_code == 0, res.output
    cases = assert_matches_report(tmp_path / "b.xml", tmp_path / "b.h5")
    assert cases["audit.attention_rows"].is_passed
    assert _props(cases["audit.attention_rows"])["expected_reason"].endswith("known, fixed in v2")


def test_audit_ltc_junit(tmp_path):
    pytest.importorskip("torch")
    from nacverify.audit import write_ltc_export
    from test_ltc_audit import one_neuron

    entries, v = one_neuron(v_next=None)
    bad, _ = one_neuron(v_next=v * (1 + 1e-6))  # a step off by 1e-6 relative: audit.ltc.step is refuted
    path = write_ltc_export(bad, tmp_path / "ltc.npz")
    res = runner.invoke(app, ["audit-ltc", str(path), "--out", str(tmp_path / "l.h5"), "--junit-xml", str(tmp_path / "l.xml")])
    assert res.exit_code == 1
    cases = assert_matches_report(tmp_path / "l.xml", tmp_path / "l.h5")
    assert not cases["audit.ltc.step"].is_passed


def test_frozen_error_junit(tmp_path):
    res = runner.invoke(app, ["frozen-error", "-r", "slow", "--points", "201", "--out", str(tmp_path / "f.h5"), "--junit-xml", str(tmp_path / "f.xml")])
    assert res.exit_code == 0, res.output
    cases = assert_matches_report(tmp_path / "f.xml", tmp_path / "f.h5")
    assert "nac.thm3.sharp.slow" in cases and all(c.classname == "frozen-error" for c in cases.values())
    assert np.isfinite([c.time for c in cases.values()]).all()
    first = next(iter(cases.values()))  # the regime's first bound claim solves it: its time includes the solve (it read 0.000)
    assert first.name.startswith("nac.thm3.") and first.time >= 0.001


def test_margin_property_is_the_measured_gap_then_the_solver_error():
    """nac.cor1's evidence: its margin is the measured gap, judged against the solver's error (the
    property used to show only max_solver_error, the tolerance, as if it were the margin)."""
    from nacverify.report.junit import _margin

    scalars = {"draws": 1000, "max_abs_gap": 3.267608406076761e-11, "max_lhs_minus_rhs": 1.15e-11, "max_solver_error": 1.5534488300855807e-10}
    assert _margin(scalars) == "max_abs_gap=3.26761e-11; max_solver_error=1.55345e-10"
    assert _margin({"max_solver_error": 2e-9}) == "max_solver_error=2e-09"
    assert _margin({"min_slack": 0.0025, "label": "x"}) == "min_slack=0.0025" and _margin({"draws": 3}) is None
