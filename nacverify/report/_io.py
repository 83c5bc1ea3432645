"""Self-describing HDF5 reports (layout documented in reports/SCHEMA.md).

Root attributes carry the schema version, tool and library versions, platform and
device, command line, seed, creation time, and `complete` (False when a run was
interrupted). Each claim is a group ``/claims/<claim id>`` with its verdict, expected
verdict, source, statement, message, scalar evidence as attributes and evidence arrays
as datasets; its witness is the subgroup ``witness`` (attributes). An array shared by
several claims is stored once and linked (HDF5 soft link) from the others.
Other sections (e.g. ``/frozen_error``, ``/bench``) are free-form groups of datasets
and attributes written through `Report.sections`.

Writes are atomic: the file is written under a temporary name in the target folder,
flushed, fsync'ed and then linked into place; an existing report is refused unless
`overwrite=True`.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from ..atomic import atomic_write
from ..claims import Result, Verdict
from ..compute.environment import device_description, library_versions, platform_description
from ..errors import BadInput, ReportError

__all__ = [
    "SCHEMA_VERSION",
    "Report",
    "ClaimRecord",
    "ReportData",
    "write_report",
    "read_report",
    "default_report_path",
    "check_writable",
]

SCHEMA_VERSION = "1.10"  # 1.1: claims carry kind and reading; 1.2: streamed sweep sections; 1.3: claim attribute threshold; 1.4: sweep write_seconds, chunk_default and bench split; 1.5: bench FLOPs, bytes, achieved rates, /bench/device_peak; 1.6: search sections' scheduler, bench rows' query_chunk; 1.7: check_scaling caches; 1.8: /bench/check_plan; 1.9: /bench/report_html; 1.10: /bench/profile (reports/SCHEMA.md)
FORMAT_NAME = "nacverify-report"


@dataclass
class Report:
    """Everything one command writes: claim results plus free-form sections.

    `sections` maps a group path (e.g. ``"frozen_error/oscillatory"``) to a mapping of
    names to arrays (datasets) or scalars/strings (attributes)."""

    command: str
    seed: int | None = None
    results: list[Result] = field(default_factory=list)
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    complete: bool = True
    note: str = ""
    spool: Path | None = None  # a closed `Spool` file: it becomes the report (moved, not copied) when written


@dataclass(frozen=True)
class ClaimRecord:
    """One claim as read back from a report."""

    id: str
    verdict: str
    expected: str
    source: str
    statement: str
    assumptions: str
    expected_reason: str
    message: str
    group: str
    seconds: float
    scalars: dict[str, Any]
    witness: dict[str, Any]
    arrays: dict[str, np.ndarray]
    kind: str = ""  # as-printed | reading | correction | implementation | lemma ("" in reports before 1.1)
    reading: str = ""
    threshold: str = ""  # a threshold of ours the verdict turns on (`Claim.threshold`; "" in reports before 1.3)


@dataclass(frozen=True)
class ReportData:
    """A report as read back: root attributes, claims and sections."""

    path: Path
    attrs: dict[str, Any]
    claims: dict[str, ClaimRecord]
    sections: dict[str, dict[str, Any]]

    @property
    def complete(self) -> bool:
        return bool(self.attrs.get("complete", False))

    @property
    def seed(self) -> int | None:
        """The run's seed; None when the run made no random draws (stored as -1, which keeps
        the attribute an integer in every report, old and new: reports/SCHEMA.md)."""
        value = self.attrs.get("seed", -1)
        try:
            seed = int(value)  # a seed >= 2^63 is stored as a decimal string
        except (TypeError, ValueError):
            return None
        return None if seed == -1 else seed

    @property
    def seed_text(self) -> str:
        """The seed as shown to people: the number, or ``none``."""
        return "none" if self.seed is None else str(self.seed)


def default_report_path(stem: str, folder: str | os.PathLike = "reports") -> Path:
    """``reports/<stem>-<UTC timestamp>.h5``."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return Path(folder) / f"{stem}-{stamp}.h5"


def check_writable(path: str | os.PathLike, *, overwrite: bool = False, option: str = "--out", what: str = "report") -> Path:
    """Fail early (`BadInput`, one line) when `path` cannot take a new file (the `what` that
    `option` names): it exists without `overwrite`, is a directory, or its folder cannot be
    created or written."""
    target = Path(path)
    if target.is_dir():
        raise BadInput(f"{option} {target} is a directory")
    if target.exists() and not overwrite:
        raise BadInput(f"{what} {target} exists; choose another {option} or pass --force")
    folder = target.parent if str(target.parent) else Path(".")
    try:  # the real test: create the folder and a probe file in it
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise BadInput(f"{option} {target}: folder {folder} is not writable ({exc.strerror or exc})") from None
    return target


def _attr(value: Any) -> Any:
    if isinstance(value, Verdict):
        return value.value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        value = int(value)
        return value if -(2**63) <= value < 2**63 else str(value)  # HDF5 has no integer beyond int64
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    if value is None:
        return "none"
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value, default=str)
    return str(value)


def _write_section(group: h5py.Group, content: Mapping[str, Any], links: dict[int, str]) -> None:
    for name, value in content.items():
        if isinstance(value, Mapping):
            _write_section(group.require_group(name), value, links)
        elif isinstance(value, np.ndarray) or (isinstance(value, Sequence) and not isinstance(value, str) and value and not isinstance(value[0], str)):
            _write_array(group, name, np.asarray(value), links, key=id(value))
        else:
            group.attrs[name] = _attr(value)


def _write_array(group: h5py.Group, name: str, array: np.ndarray, links: dict[int, str], key: int) -> None:
    if key in links:
        group[name] = h5py.SoftLink(links[key])
        return
    if array.dtype.kind == "U":  # UTF-8 text (the seeds quote non-ASCII characters, e.g. a no-break space)
        group.create_dataset(name, data=array.astype(object), dtype=h5py.string_dtype("utf-8"))
    elif array.dtype.kind == "S":
        group.create_dataset(name, data=array)
    else:
        group.create_dataset(name, data=array, compression="gzip" if array.size > 4096 else None)
    links[key] = group[name].name


def _write(handle: h5py.File, report: Report) -> None:
    attrs = handle.attrs
    attrs["format"] = FORMAT_NAME
    attrs["schema_version"] = SCHEMA_VERSION
    versions = library_versions()
    attrs["tool"] = "nacverify"
    attrs["tool_version"] = versions.get("nacverify", "unknown")
    attrs["library_versions"] = json.dumps(versions)
    attrs["platform"] = platform_description()
    attrs["device"] = device_description()
    attrs["command"] = report.command
    attrs["seed"] = -1 if report.seed is None else _attr(int(report.seed))
    attrs["created_utc"] = _dt.datetime.now(_dt.timezone.utc).isoformat()
    attrs["complete"] = bool(report.complete)
    attrs["note"] = report.note
    attrs["n_claims"] = len(report.results)
    attrs["n_unexpected"] = sum(not r.as_expected for r in report.results)
    links: dict[int, str] = {}
    claims = handle.require_group("claims")
    for result in report.results:
        claim, outcome = result.claim, result.outcome
        if "/" in claim.id or claim.id in ("", ".", ".."):
            raise ValueError(f"claim id {claim.id!r} cannot name an HDF5 group")
        group = claims.create_group(claim.id)
        for key, value in {
            "id": claim.id,
            "verdict": outcome.verdict,
            "expected": claim.expected,
            "as_expected": result.as_expected,
            "source": claim.source,
            "statement": claim.statement,
            "assumptions": claim.assumptions,
            "expected_reason": claim.expected_reason,
            "message": outcome.message,
            "group": claim.group,
            "seconds": result.seconds,
            "kind": str(claim.kind) if claim.kind else "",
            "reading": claim.reading,
            "threshold": claim.threshold,
        }.items():
            group.attrs[key] = _attr(value)
        scalars = group.create_group("scalars")
        for key, value in outcome.evidence.scalars.items():
            scalars.attrs[key] = _evidence_attr(value)
        witness = group.create_group("witness")
        for key, value in outcome.evidence.witness.items():
            witness.attrs[key] = _evidence_attr(value)
        arrays = group.create_group("arrays")
        for key, value in outcome.evidence.arrays.items():
            _write_array(arrays, key, np.asarray(value), links, key=id(value))
    for path, content in report.sections.items():
        _write_section(handle.require_group(path), content, links)


def write_report(report: Report, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """Write `report` to `path` atomically (`nacverify.atomic`) and return the path.
    With `report.spool` set, that file's datasets are part of the report (the file is moved).

    Raises `BadInput` when the file exists and `overwrite` is False, and
    `EnvironmentProblem` when the folder cannot be written."""

    def write(tmp: Path) -> None:
        moved = report.spool is not None and Path(report.spool).exists()
        if moved:  # the spool's datasets become the report's (nacverify.report._spool)
            os.replace(report.spool, tmp)
        with h5py.File(tmp, "r+" if moved else "w") as handle:
            _write(handle, report)
            handle.flush()

    return atomic_write(path, write, overwrite=overwrite)


def _evidence_attr(value: Any) -> Any:
    """An evidence scalar as an HDF5 attribute; None ("none": no such value) as an empty attribute,
    read back as None (null in JSON), unlike a number standing in for it."""
    return h5py.Empty("f8") if value is None else _attr(value)


def _decode_evidence(value: Any) -> Any:
    return None if isinstance(value, h5py.Empty) else _decode(value)


def _decode(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _read_dataset(item: h5py.Dataset) -> Any:
    """A dataset's values; text (fixed-length ASCII or variable-length UTF-8) as str arrays."""
    if h5py.check_string_dtype(item.dtype) is not None and item.dtype.kind == "O":
        return np.asarray(item.asstr()[()], dtype=str)
    data = item[()]
    return data.astype(str) if getattr(data, "dtype", None) is not None and data.dtype.kind == "S" else data


def _read_group(group: h5py.Group) -> dict[str, Any]:
    out: dict[str, Any] = {k: _decode(v) for k, v in group.attrs.items()}
    for name, item in group.items():
        if isinstance(item, h5py.Dataset):
            out[name] = _read_dataset(item)
        else:
            out[name] = _read_group(item)
    return out


def read_report(path: str | os.PathLike) -> ReportData:
    """Read a report; raise `ReportError` (one line) for a missing, corrupt or
    foreign file or an unknown schema version."""
    source = Path(path)
    if not source.is_file():
        raise ReportError(f"no report file at {source}")
    try:
        with h5py.File(source, "r") as handle:
            attrs = {k: _decode(v) for k, v in handle.attrs.items()}
            if attrs.get("format") != FORMAT_NAME:
                raise ReportError(f"{source} is not a nacverify report (no format={FORMAT_NAME!r} attribute)")
            version = str(attrs.get("schema_version", ""))
            if version.split(".")[0] != SCHEMA_VERSION.split(".")[0]:
                raise ReportError(f"{source} has schema version {version!r}; this nacverify reads {SCHEMA_VERSION}")
            claims: dict[str, ClaimRecord] = {}
            for claim_id, group in handle.get("claims", {}).items():
                a = {k: _decode(v) for k, v in group.attrs.items()}
                claims[claim_id] = ClaimRecord(
                    id=a["id"],
                    verdict=a["verdict"],
                    expected=a["expected"],
                    source=a["source"],
                    statement=a["statement"],
                    assumptions=a["assumptions"],
                    expected_reason=a["expected_reason"],
                    message=a["message"],
                    group=a["group"],
                    seconds=float(a["seconds"]),
                    scalars={k: _decode_evidence(v) for k, v in group["scalars"].attrs.items()},
                    witness={k: _decode_evidence(v) for k, v in group["witness"].attrs.items()},
                    arrays={k: _read_dataset(v) for k, v in group["arrays"].items()},
                    kind=str(a.get("kind", "")),
                    reading=str(a.get("reading", "")),
                    threshold=str(a.get("threshold", "")),
                )
            sections = {name: _read_group(item) for name, item in handle.items() if name != "claims" and isinstance(item, h5py.Group)}
    except ReportError:
        raise
    except (OSError, KeyError, ValueError, AttributeError, TypeError) as exc:  # e.g. a dangling link: item None
        raise ReportError(f"{source} is corrupt or unreadable: {exc}") from exc
    problem = _damage(claims, sections)
    if problem:
        raise ReportError(f"{source} is damaged: {problem}")
    return ReportData(source, attrs, claims, sections)


def _one_of(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _damage(claims: Mapping[str, ClaimRecord], sections: Mapping[str, Any]) -> str | None:
    """The first value of a report that is not one of its allowed values, said in one line; None
    when every one is: each claim's verdict and expected verdict (`Verdict`), kind (`Kind`, or
    empty in reports before schema 1.1) and id (its group's name); the verdicts and kinds of the
    ``check/kinds`` and ``frozen_error/table2_readings`` sections; and the findings counted in
    ``coverage/<document>`` (`nacverify.findings.FINDINGS`, read when checking, so that a finding
    added there is allowed here)."""
    from ..claims import Kind
    from ..findings import FINDINGS

    verdicts = [v.value for v in Verdict]
    kinds = [k.value for k in Kind]
    for key, rec in claims.items():
        if rec.id != key:
            return f"claim group {key!r} holds the id {rec.id!r}"
        for field_name, value in (("verdict", rec.verdict), ("expected verdict", rec.expected)):
            if value not in verdicts:
                return f"claim {key!r} has {field_name} {value!r}, not one of {_one_of(verdicts)}"
        if rec.kind not in ("", *kinds):
            return f"claim {key!r} has kind {rec.kind!r}, not one of {_one_of(kinds)}"
    by_kind = sections.get("check", {}).get("kinds", {}) if isinstance(sections.get("check"), Mapping) else {}
    for kind, counts in (by_kind.items() if isinstance(by_kind, Mapping) else ()):
        if kind not in (*kinds, "none"):
            return f"section check/kinds has kind {kind!r}, not one of {_one_of(kinds)}"
        for verdict in (counts if isinstance(counts, Mapping) else {}):
            if verdict not in verdicts:
                return f"section check/kinds/{kind} counts verdict {verdict!r}, not one of {_one_of(verdicts)}"
    frozen = sections.get("frozen_error", {})
    readings = frozen.get("table2_readings", {}) if isinstance(frozen, Mapping) else {}
    for cell, verdict in (readings.items() if isinstance(readings, Mapping) else ()):
        if verdict not in verdicts:
            return f"section frozen_error/table2_readings has verdict {verdict!r} at {cell!r}, not one of {_one_of(verdicts)}"
    coverage = sections.get("coverage", {})
    for doc, content in (coverage.items() if isinstance(coverage, Mapping) else ()):
        if not isinstance(content, Mapping):
            continue
        for name in content:
            finding = name[len("findings_"):].replace("_", "-") if name.startswith("findings_") else None
            if finding is not None and finding not in FINDINGS:
                return f"section coverage/{doc} counts finding {finding!r}, not one of {_one_of(FINDINGS)}"
    return None
