"""`nacverify findings`, and the findings that `coverage`, `report show` and `report html` count: one
finding per ledger item, from hand-chosen verdicts whose finding follows from the rules by hand."""

from __future__ import annotations

import json

import jsonschema
from typer.testing import CliRunner

import nacverify.catalog  # noqa: F401  (registers every claim provider)
from nacverify.claims import Evidence, Outcome, Result, Verdict, registry
from nacverify.cli.app import app
from nacverify.ledger import load_ledgers
from nacverify.report import Report, write_report
from nacverify.report.json_export import load_schema

runner = CliRunner()

# 004's "Top-K by rank" item is checked by one claim about the document (a reading of the pseudo-code);
# 004's batch item by sparse.batch.* claims. Both are single-item fixtures whose finding the rules
# decide by hand: one refuted document claim and no holding charitable reading -> error when the
# charitable claim itself is refuted without a threshold; holds when it holds.
ITEM = ("004", "s5.long-term-memory")  # issue 43: the readings the pseudo-code (alg.args-topk) only cites


def _item():
    return next(it for it in load_ledgers([ITEM[0]])[ITEM[0]].items if it.item == ITEM[1])


def _report(tmp_path, verdict: Verdict):
    claims = registry()
    results = [Result(claims[cid], Outcome(verdict, "hand-chosen verdict", Evidence()), 0.0) for cid in _item().claims]
    path = tmp_path / f"r-{verdict.value}.h5"
    write_report(Report(command="nacverify test", results=results), path)
    return path


def test_findings_json_has_exactly_the_documented_fields_and_validates():
    res = runner.invoke(app, ["findings", "--json"])
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, load_schema("nacverify.findings/2"))
    assert doc["basis"] == "expected" and doc["report"] is None
    assert res.exit_code == (1 if doc["problems"] else 0)
    items = sum(len(led.items) for led in load_ledgers().values())
    assert len(doc["findings"]) == items  # one finding per ledger item, none counted twice
    assert {tuple(sorted(f)) for f in doc["findings"]} == {("accusing", "claims", "defense", "document", "finding", "item", "line", "location",
                                                            "prosecution", "quote", "slip", "untested")}
    # each refuted claim about a document has its owning item, and that item tests it
    tested = {(f["document"], f["item"]): {c["id"] for c in f["claims"] if c["role"] == "tests"} for f in doc["findings"]}
    assert doc["owners"] and all(cid in tested[(d, item)] for cid, per_doc in doc["owners"].items() for d, item in per_doc.items())
    # 000's eq. 29 (the upper limit T for t) is a slip, and its twin in 001 prints t and holds
    found = {(f["document"], f["item"]): f for f in doc["findings"]}
    assert found[("000", "eq29")]["finding"] == "slip" and "t" in found[("000", "eq29")]["slip"] and found[("001", "eq29")]["finding"] == "holds"
    for doc_id, counts in doc["counts"].items():
        assert sum(counts.values()) == len(load_ledgers([doc_id])[doc_id].items)


def test_a_report_whose_claims_hold_gives_holds_and_a_refuted_charitable_reading_gives_error(tmp_path):
    item = _item()
    held = runner.invoke(app, ["findings", "--source", "004", "--report", str(_report(tmp_path, Verdict.HOLDS)), "--json"])
    found = {f["item"]: f for f in json.loads(held.stdout)["findings"]}
    assert held.exit_code == 0 and found[ITEM[1]]["finding"] == "holds"
    # the report holds this item's claims only: every other checked item is left out, 004's items without claims stay
    assert [k for k, f in found.items() if any(c["role"] == "tests" for c in f["claims"])] == [ITEM[1]]
    assert {f["finding"] for k, f in found.items() if k != ITEM[1]} == {"not-checkable"}
    refuted = runner.invoke(app, ["findings", "--source", "004", "--report", str(_report(tmp_path, Verdict.REFUTED)), "--json"])
    doc = json.loads(refuted.stdout)
    f = next(f for f in doc["findings"] if f["item"] == ITEM[1])
    if item.charitable is None:  # no charitable reading registered: the command says so and exits 1
        assert refuted.exit_code == 1 and any(p.startswith(f"004:{ITEM[1]}") for p in doc["problems"])
        assert f["finding"] == "inconclusive"
    else:
        claims = registry()
        threshold = claims[item.charitable].threshold
        assert f["finding"] == ("depends-on-reading" if threshold else "error") and refuted.exit_code == 0
    assert [c["verdict"] for c in f["claims"]] == ["refuted"] * len(item.claims)


def test_report_show_and_html_count_findings_per_item(tmp_path):
    path = _report(tmp_path, Verdict.HOLDS)
    shown = runner.invoke(app, ["report", "show", str(path)])
    unchecked = sum(1 for it in load_ledgers(["004"])["004"].items if not it.claims)
    line = f"findings 004 (one per ledger item): 0 error, 0 slip, 0 depends-on-reading, 0 inconclusive, 1 holds, {unchecked} not-checkable"
    assert shown.exit_code == 0 and line in " ".join(shown.stdout.split()), shown.stdout[-800:]  # however the width folds it
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(tmp_path / "html")])
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert res.exit_code == 0 and '<h2 id="findings">Findings</h2>' in page
