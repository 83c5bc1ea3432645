"""JSON and CSV views of claims and reports, for tools and people without HDF5 readers.

The documents are plain JSON (no NaN or Infinity literals: a non-finite number is the string
``"NaN"``, ``"Infinity"`` or ``"-Infinity"``) and say which schema they follow in their
``schema`` field; the JSON Schema files ship in ``nacverify/data/schema/`` and are described
in reports/JSON_SCHEMA.md:

- ``nacverify.list/2`` (`claims_document`): registered claims, for ``list`` and ``check --list``;
- ``nacverify.report/1`` (`report_document`): a report read back, for ``check``, ``report show``
  and ``report export --to json`` (the export adds every array's values and the sections);
- ``nacverify.coverage/4``: the ``coverage`` command's counts (built by the command).

Nothing here prints; the CLI writes the text.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

import numpy as np

from ..claims import Claim, Kind, Verdict
from ._io import ClaimRecord, ReportData

__all__ = ["SCHEMAS", "jsonable", "dumps", "claims_document", "report_document", "backends_document", "claims_csv", "load_schema", "CSV_COLUMNS"]

#: schema name -> file in nacverify/data/schema/
SCHEMAS = {"nacverify.list/2": "list.schema.json", "nacverify.report/1": "report.schema.json", "nacverify.coverage/4": "coverage.schema.json",
           "nacverify.findings/2": "findings.schema.json", "nacverify.backends/1": "backends.schema.json"}

CSV_COLUMNS = ("id", "group", "kind", "reading", "verdict", "expected", "as_expected", "seconds", "source", "statement", "assumptions",
               "expected_reason", "message", "scalars", "witness")


def _float(value: float) -> float | str:
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def jsonable(value: Any) -> Any:
    """`value` as JSON-ready Python: numpy scalars and arrays to numbers and lists, enums to
    their values, non-finite floats to strings, bytes to text."""
    if isinstance(value, (Verdict, Kind)):
        return value.value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _float(float(value))
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, str):
        return value
    return str(value)


def dumps(document: Any, *, ensure_ascii: bool = False) -> str:
    """Strict JSON text (``allow_nan=False``), indented; non-ASCII characters kept unless
    `ensure_ascii` (then written as \\u escapes, for a stream that cannot encode them)."""
    return json.dumps(jsonable(document), indent=1, ensure_ascii=ensure_ascii, allow_nan=False)


def _counts(verdicts: Iterable[str]) -> dict[str, int]:
    out = {v.value: 0 for v in Verdict}
    for v in verdicts:
        out[v] = out.get(v, 0) + 1
    return out


def claims_document(claims: Iterable[Claim]) -> dict[str, Any]:
    """``nacverify.list/2``: each claim's id, group, kind, reading, source, statement,
    assumptions and expected verdict with its reason, where it is decided (`defined_in`:
    module, function, file and line; `nacverify.provenance`) and the ledger items citing it
    (``DOC:ITEM``); and claims per kind."""
    from ..ledger import load_ledgers
    from ..provenance import citing_items, defined_in

    claims = list(claims)
    kinds: dict[str, int] = {}
    for c in claims:
        k = str(c.kind) if c.kind else "none"
        kinds[k] = kinds.get(k, 0) + 1
    order = [k.value for k in Kind] + ["none"]
    cited = citing_items(load_ledgers())
    return {
        "schema": "nacverify.list/2",
        "count": len(claims),
        "kinds": {k: kinds[k] for k in order if k in kinds},
        "claims": [{"id": c.id, "group": c.group, "kind": str(c.kind) if c.kind else "", "reading": c.reading, "source": c.source,
                    "statement": c.statement, "assumptions": c.assumptions, "expected": c.expected.value, "expected_reason": c.expected_reason,
                    "defined_in": defined_in(c).as_dict(), "ledger": cited.get(c.id, [])}
                   for c in claims],
    }


def _array(value: Any, with_data: bool) -> dict[str, Any]:
    arr = np.asarray(value)
    out: dict[str, Any] = {"shape": list(arr.shape), "dtype": str(arr.dtype)}
    if with_data:
        out["data"] = arr.tolist()
    return out


def _claim(rec: ClaimRecord, with_data: bool) -> dict[str, Any]:
    return {
        "id": rec.id, "group": rec.group, "kind": rec.kind, "reading": rec.reading, "verdict": rec.verdict, "expected": rec.expected,
        "as_expected": rec.verdict == rec.expected, "seconds": rec.seconds, "source": rec.source, "statement": rec.statement,
        "assumptions": rec.assumptions, "expected_reason": rec.expected_reason, "message": rec.message,
        "scalars": rec.scalars, "witness": rec.witness, "arrays": {k: _array(v, with_data) for k, v in rec.arrays.items()},
    }


def _sections(tree: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (_sections(v) if isinstance(v, Mapping) else _array(v, True) if isinstance(v, np.ndarray) else v) for k, v in tree.items()}


def report_document(data: ReportData, *, claim: str | None = None, arrays: bool = False, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``nacverify.report/1``: the report's root attributes, per-verdict and per-kind counts
    and its claims (only `claim` when given). Arrays are described by shape and dtype; with
    `arrays` they also carry their values and the free-form sections are included. `extra`
    adds top-level fields (e.g. the JUnit XML path of the run that wrote the report)."""
    records = [rec for rec in data.claims.values() if claim is None or rec.id == claim]
    kinds: dict[str, dict[str, int]] = {}
    for rec in records:
        per_kind = kinds.setdefault(rec.kind or "none", {v.value: 0 for v in Verdict})
        per_kind[rec.verdict] = per_kind.get(rec.verdict, 0) + 1
    doc: dict[str, Any] = {
        "schema": "nacverify.report/1",
        "file": str(data.path),
        "complete": data.complete,
        "attributes": {**data.attrs, "seed": data.seed},  # null when the run made no random draws (HDF5 stores -1)
        "counts": _counts(rec.verdict for rec in records),
        "kinds": kinds,
        "unexpected": [rec.id for rec in records if rec.verdict != rec.expected],
        "claims": [_claim(rec, arrays) for rec in records],
    }
    if arrays:
        doc["sections"] = _sections(data.sections)
    doc.update(extra or {})
    return jsonable(doc)


def backends_document(statuses: Iterable[Any], devices: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``nacverify.backends/1``: each ODE backend (`nacverify.solvers.backend_status`'s `Availability`:
    name, available, version, methods, reason, details) and where each part of nacverify computes."""
    return jsonable({
        "schema": "nacverify.backends/1",
        "backends": [{"name": s.name, "available": bool(s.available), "version": s.version or "", "methods": list(s.methods),
                      "reason": s.reason, "details": {str(k): str(v) for k, v in s.details.items()}} for s in statuses],
        "devices": [{"part": part, "runs_on": where} for part, where in devices],
    })


#: Where a spreadsheet starts a formula (OWASP, "CSV Injection"): a cell that begins with one of these
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A plain decimal number, which a spreadsheet reads as a number, never as a formula ("-0.5", "+3", "1e-9")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def csv_cell(text: str) -> str:
    """`text` as a CSV cell that no spreadsheet runs as a formula, as OWASP recommends: a cell that
    begins with =, +, -, @, a tab or a carriage return gets a leading single quote (``-x`` is
    written ``'-x``), except a plain decimal number (``-0.5``), which stays a number. A cell that
    begins with a single quote gets one more, so that a reader restores every cell by removing
    one leading quote where there is one (reports/JSON_SCHEMA.md, `report export`)."""
    if text.startswith("'") or (text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text)):
        return "'" + text
    return text


def claims_csv(data: ReportData) -> str:
    """The claims table of a report as CSV (`CSV_COLUMNS`; scalars and witness as JSON objects;
    each cell through `csv_cell`, so that a spreadsheet reads none as a formula)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)  # every cell quoted, as OWASP recommends (a CR or tab inside stays in its cell)
    writer.writerow(CSV_COLUMNS)
    for rec in data.claims.values():
        row = _claim(rec, False)
        row["scalars"] = json.dumps(jsonable(rec.scalars), ensure_ascii=False, allow_nan=False)
        row["witness"] = json.dumps(jsonable(rec.witness), ensure_ascii=False, allow_nan=False)
        row["as_expected"] = str(row["as_expected"]).lower()
        row["seconds"] = repr(rec.seconds)
        writer.writerow([csv_cell(str(row[c])) for c in CSV_COLUMNS])
    return buffer.getvalue()


def _schema_file(name: str) -> str:
    """`name`'s file: a full name (``nacverify.report/1``), a short one (``report``: its newest version)
    or the file's own name (``report.schema.json``)."""
    if name in SCHEMAS:
        return SCHEMAS[name]
    if name in SCHEMAS.values():
        return name
    versions = sorted((int(full.rpartition("/")[2]), full) for full in SCHEMAS if full.partition("/")[0] in (name, f"nacverify.{name}"))
    if versions:
        return SCHEMAS[versions[-1][1]]
    short = sorted({full.partition("/")[0].removeprefix("nacverify.") for full in SCHEMAS})
    raise KeyError(f"no JSON schema {name!r}; known: {', '.join(short)} (or the full names {', '.join(sorted(SCHEMAS))})")


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of `name`: a key of `SCHEMAS` (``nacverify.report/1``) or its short name
    (``report``, the newest version), from the installed package data."""
    return json.loads(resources.files("nacverify.data").joinpath("schema", _schema_file(name)).read_text(encoding="utf-8"))
