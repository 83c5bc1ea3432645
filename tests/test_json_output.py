"""`--format json` on list, check, report show and coverage, and `report export --to json|csv`
(issue 13, item 2): every document validates against its shipped JSON Schema (jsonschema),
stdout holds the JSON and nothing else, and the values agree with the HDF5 file read with h5py."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import h5py
import jsonschema
import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.claims import Claim, Evidence, Kind, Outcome, Verdict, evaluate, select
from nacverify.cli.app import app
from nacverify.report import Report, write_report
from nacverify.report.json_export import CSV_COLUMNS, SCHEMAS, load_schema

runner = CliRunner()
SMALL = ["--only", "nac.thm1.euler.all_steps", "--only", "nac.thm1.euler.endpoints"]


def strict_loads(text: str):
    """json.loads that rejects NaN/Infinity literals (which are not JSON)."""
    def bad(name):
        raise ValueError(f"non-JSON constant {name}")
    return json.loads(text, parse_constant=bad)


def valid(document, name):
    jsonschema.Draft202012Validator(load_schema(name)).validate(document)
    assert document["schema"] == name
    return document


def test_schema_files_are_valid_json_schemas():
    for name in SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(load_schema(name))


def test_list_json():
    import nacverify.catalog  # noqa: F401

    res = runner.invoke(app, ["list", "--only", "ltc.eq9.*", "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = valid(strict_loads(res.stdout), "nacverify.list/2")
    expected = select(["ltc.eq9.*"])
    assert [c["id"] for c in doc["claims"]] == [c.id for c in expected] and doc["count"] == len(expected) > 0
    assert sum(doc["kinds"].values()) == len(expected)
    assert {c["id"]: c["expected"] for c in doc["claims"]} == {c.id: c.expected.value for c in expected}
    res = runner.invoke(app, ["list", "--format", "yaml"])
    assert res.exit_code == 2 and "yaml" in res.stderr
    alias = runner.invoke(app, ["list", "--only", "ltc.eq9.*", "--json"])  # --json: the same document as --format json
    assert alias.exit_code == 0 and strict_loads(alias.stdout) == doc


def test_json_flag_on_coverage_and_report_show(tmp_path):
    shown = str(write_report(Report(command="x", seed=1), tmp_path / "r.h5"))
    for args, extra in ((["coverage", "--source", "004"], ["--out", str(tmp_path / "c.h5"), "--force"]), (["report", "show", shown], [])):
        by_flag, by_format = runner.invoke(app, [*args, "--json", *extra]), runner.invoke(app, [*args, "--format", "json", *extra])
        assert by_flag.exit_code == by_format.exit_code and by_flag.stdout and strict_loads(by_flag.stdout) == strict_loads(by_format.stdout)


def test_check_json_equals_report_show_json(tmp_path):
    out = tmp_path / "r.h5"
    res = runner.invoke(app, ["check", "--quick", "-j", "1", *SMALL, "--out", str(out), "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = valid(strict_loads(res.stdout), "nacverify.report/1")  # the whole of stdout is one document
    assert doc["junit_xml"] is None and doc["file"] == str(out)
    with h5py.File(out) as h:
        verdicts = {cid: g.attrs["verdict"] for cid, g in h["claims"].items()}
        assert doc["attributes"]["n_claims"] == h.attrs["n_claims"] == 2
    assert {c["id"]: c["verdict"] for c in doc["claims"]} == verdicts == {"nac.thm1.euler.all_steps": "refuted", "nac.thm1.euler.endpoints": "holds"}
    assert doc["counts"] == {"holds": 1, "refuted": 1, "inapplicable": 0, "inconclusive": 0, "error": 0} and doc["unexpected"] == []
    shown = runner.invoke(app, ["report", "show", str(out), "--format", "json"])
    assert shown.exit_code == 0
    again = valid(strict_loads(shown.stdout), "nacverify.report/1")
    assert {**again, "junit_xml": None} == doc
    one = valid(strict_loads(runner.invoke(app, ["report", "show", str(out), "--claim", "nac.thm1.euler.all_steps", "--format", "json"]).stdout), "nacverify.report/1")
    assert [c["id"] for c in one["claims"]] == ["nac.thm1.euler.all_steps"] and one["claims"][0]["witness"]["dt"] == 3.0
    assert runner.invoke(app, ["report", "show", str(out), "--claim", "no.such", "--format", "json"]).exit_code == 2
    listed = valid(strict_loads(runner.invoke(app, ["check", *SMALL, "--list", "--format", "json"]).stdout), "nacverify.list/2")
    assert [c["id"] for c in listed["claims"]] == sorted(verdicts)


@pytest.mark.slow
def test_console_script_stdout_is_json_only_with_worker_processes(tmp_path):
    """A real process with two claim groups in two workers: stdout is one JSON document, the
    progress bar is on stderr."""
    script = shutil.which("nacverify") or str(Path(sys.executable).with_name("nacverify"))
    proc = subprocess.run([script, "check", "--quick", "-j", "2", "--only", "nac.thm1.euler.endpoints", "--only", "nac.thm1.euler",
                           "--out", "r.h5", "--junit-xml", "r.xml", "--format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=540, env={**os.environ, "COLUMNS": "120"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = valid(strict_loads(proc.stdout), "nacverify.report/1")
    assert {c["group"] for c in doc["claims"]} == {"symbolic", "numeric"} and doc["junit_xml"] == "r.xml"
    assert "nac.thm1.euler" in proc.stderr and (tmp_path / "r.xml").exists()


def _sample_report(tmp_path) -> Path:
    t = np.linspace(0.0, 1.0, 5)
    err = np.array([np.nan, 0.1, 0.2, np.inf, -np.inf])
    claims = [
        Claim("demo.a", "000_x.txt, eq. 1", "a ≤ b", "none", Verdict.HOLDS, "why", group="demo", kind=Kind.LEMMA,
              check=lambda ctx: Outcome(Verdict.HOLDS, "fine, \"quoted\", with a comma", Evidence({"t": t, "rel_error": err}, {"x": 1.5, "peak": math.inf, "n": 3}, {}))),
        Claim("demo.b", "000_x.txt, Table 2", "row", "none", Verdict.REFUTED, "printed wrong", group="demo", kind=Kind.AS_PRINTED,
              check=lambda ctx: Outcome(Verdict.REFUTED, "mean > max", Evidence({}, {"ratio": float("nan")}, {"row": "oscillatory", "dt": 0.25}))),
    ]
    report = Report(command="nacverify test", seed=3, results=[evaluate(c) for c in claims], sections={"extra": {"grid": t, "label": "x", "k": 2}})
    return write_report(report, tmp_path / "s.h5")


def test_export_json_holds_everything_and_strict_numbers(tmp_path):
    path = _sample_report(tmp_path)
    res = runner.invoke(app, ["report", "export", str(path), "--to", "json"])
    assert res.exit_code == 0, res.output
    doc = valid(strict_loads(res.stdout), "nacverify.report/1")
    a = next(c for c in doc["claims"] if c["id"] == "demo.a")
    with h5py.File(path) as h:
        np.testing.assert_array_equal(a["arrays"]["t"]["data"], h["claims/demo.a/arrays/t"][()])
        assert a["arrays"]["t"]["shape"] == [5] and a["arrays"]["t"]["dtype"] == "float64"
        assert doc["sections"]["extra"]["grid"]["data"] == h["extra/grid"][()].tolist()
        assert doc["sections"]["extra"]["label"] == h["extra"].attrs["label"] == "x"
    assert a["arrays"]["rel_error"]["data"] == ["NaN", 0.1, 0.2, "Infinity", "-Infinity"]
    assert a["scalars"] == {"x": 1.5, "peak": "Infinity", "n": 3} and a["statement"] == "a ≤ b"
    b = next(c for c in doc["claims"] if c["id"] == "demo.b")
    assert b["scalars"] == {"ratio": "NaN"} and b["witness"] == {"row": "oscillatory", "dt": 0.25} and b["as_expected"] is True
    assert doc["attributes"]["seed"] == 3 and doc["complete"] is True
    out = tmp_path / "s.json"
    assert runner.invoke(app, ["report", "export", str(path), "--to", "json", "-o", str(out)]).exit_code == 0
    assert strict_loads(out.read_text(encoding="utf-8")) == doc
    again = runner.invoke(app, ["report", "export", str(path), "--to", "json", "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.stderr
    assert runner.invoke(app, ["report", "export", str(path), "--to", "json", "-o", str(out), "--force"]).exit_code == 0
    assert runner.invoke(app, ["report", "export", str(path), "--to", "xml"]).exit_code == 2


def test_export_csv_is_the_claims_table(tmp_path):
    path = _sample_report(tmp_path)
    out = tmp_path / "s.csv"
    res = runner.invoke(app, ["report", "export", str(path), "--to", "csv", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    with h5py.File(path) as h:
        for row in rows:
            g = h["claims"][row["id"]]
            assert (row["verdict"], row["expected"], row["message"], row["kind"]) == (g.attrs["verdict"], g.attrs["expected"], g.attrs["message"], g.attrs["kind"])
            assert float(row["seconds"]) == g.attrs["seconds"]
    by_id = {r["id"]: r for r in rows}
    assert by_id["demo.a"]["message"] == 'fine, "quoted", with a comma' and by_id["demo.a"]["as_expected"] == "true"
    assert strict_loads(by_id["demo.b"]["witness"]) == {"row": "oscillatory", "dt": 0.25}
    assert strict_loads(by_id["demo.a"]["scalars"]) == {"x": 1.5, "peak": "Infinity", "n": 3}
    stdout = runner.invoke(app, ["report", "export", str(path), "--to", "csv"]).stdout
    assert stdout == out.read_text(encoding="utf-8")


def _ledger_expectation():
    """Per document (items, checked, not checkable, missing) and the ledger's problems, read off the
    YAML files, the seed texts and the claim registry here, independently of nacverify.ledger."""
    import re

    import yaml

    import nacverify.catalog  # noqa: F401
    from nacverify.claims import registry

    folder = Path(__file__).resolve().parents[1] / "nacverify" / "ledger"
    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    norm = lambda text: re.sub(r"\s+", " ", text).strip()  # noqa: E731
    raw = {}
    for f in sorted(folder.glob("*.yaml")):
        raw[f.stem] = yaml.safe_load(f.read_text(encoding="utf-8"))
    keys = {f"{d}:{it['item']}": it for d, led in raw.items() for it in led["items"]}
    counts, problems, named = {}, [], set()
    for d, led in raw.items():
        items = led["items"]
        checked = [it for it in items if it.get("claims")]
        not_checkable = [it for it in items if not it.get("claims") and it.get("not_checkable")]
        counts[d] = (len(items), len(checked), len(not_checkable), len(items) - len(checked) - len(not_checkable))
        seed = seeds / led["document"]
        text = seed.read_text(encoding="utf-8") if seed.is_file() else None
        for it in items:
            where = f"{d}:{it['item']}"
            if sum(bool(it.get(k)) for k in ("claims", "not_checkable", "missing")) != 1:
                problems.append(f"{where}: not exactly one status")
            named.update((it.get("claims") or []) + (it.get("cites") or []))
            if it.get("charitable") is not None and (it["charitable"] not in (it.get("claims") or ()) or not it.get("defense")):
                problems.append(f"{where}: charitable")
            if it.get("twin") is not None and keys.get(it["twin"], {}).get("twin") != where:
                problems.append(f"{where}: twin")
            if text is not None:
                quote = norm(it["quote"])
                lines = text.splitlines()
                window = norm(" ".join(lines[max(0, it["line"] - 1): it["line"] + 2]))
                if quote not in norm(text) or " ".join(quote.split(" ")[:3]) not in window:
                    problems.append(f"{where}: quote")
    known = set(registry())
    problems += [f"unregistered {c}" for c in named - known] + [f"unnamed {c}" for c in known - named]
    return counts, problems


def test_coverage_json_validates(tmp_path):
    counts, problems = _ledger_expectation()
    res = runner.invoke(app, ["coverage", "--format", "json", "--out", str(tmp_path / "c.h5")])
    doc = valid(strict_loads(res.stdout), "nacverify.coverage/4")
    expected_exit = 1 if problems or any(c[3] for c in counts.values()) else 0
    assert res.exit_code == expected_exit, (problems, doc["problems"])
    assert bool(doc["problems"]) == bool(problems), (problems, doc["problems"])
    for name, d in doc["documents"].items():
        assert (d["items"], d["checked"], d["not_checkable"], d["missing"]) == counts[name], name
    with h5py.File(tmp_path / "c.h5") as h:
        for name, d in doc["documents"].items():
            assert (d["items"], d["checked"], d["missing"]) == tuple(int(h[f"coverage/{name}"].attrs[k]) for k in ("items", "checked", "missing"))
            assert d["items"] == d["checked"] + d["not_checkable"] + d["missing"]
    assert runner.invoke(app, ["coverage", "--format", "yaml", "--out", str(tmp_path / "d.h5")]).exit_code == 2
