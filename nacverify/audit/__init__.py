"""Audit any NAC implementation's gates (issue 8): a framework-neutral exchange format
(`read_export`, `write_export`; reports/AUDIT_FORMAT.md), the audit claims bound to one
export (`audit_claims`; `audit_file` reads an HDF5 export chunk by chunk, optionally as
tasks on a Dask executor, issue 14; `generate_export` writes one of any size), a team's
accepted verdicts (`read_expect`, `apply_expect`) and the JAX model's export to a file
(`export_model`); and LTC cells (issue 12): `read_ltc_export`,
`ltc_audit_claims`, the ncps.torch exporters (reports/LTC_AUDIT_FORMAT.md)."""

from .claims import CLAIM_IDS, DEFAULT_SHARP_THRESHOLD, applicability
from .expect import Expectation, apply_expect, read_expect
from .export import export_model, write_export
from .format import ATTRS, FORMAT_TAG, OPTIONAL, REQUIRED, ExportLayout, GateExport, from_arrays, read_export, read_layout
from .generate import generate_export
from .stream import FileAudit, audit_claims, audit_file
from .logits import logit_tolerance, recompute_logits
from .ltc_claims import LTC_CLAIM_IDS, ltc_audit_claims
from .ltc_export import export_ncps_cell, export_ncps_ltc, export_random_ncps
from .ltc_format import AbstractLTCExport, LTCExport, ltc_from_arrays, read_ltc_export, write_ltc_export

__all__ = [
    "GateExport",
    "ExportLayout",
    "read_export",
    "read_layout",
    "audit_file",
    "FileAudit",
    "generate_export",
    "from_arrays",
    "write_export",
    "export_model",
    "audit_claims",
    "applicability",
    "read_expect",
    "apply_expect",
    "Expectation",
    "recompute_logits",
    "logit_tolerance",
    "CLAIM_IDS",
    "DEFAULT_SHARP_THRESHOLD",
    "FORMAT_TAG",
    "REQUIRED",
    "OPTIONAL",
    "ATTRS",
    "LTCExport",
    "AbstractLTCExport",
    "read_ltc_export",
    "write_ltc_export",
    "ltc_from_arrays",
    "ltc_audit_claims",
    "LTC_CLAIM_IDS",
    "export_ncps_cell",
    "export_ncps_ltc",
    "export_random_ncps",
]
