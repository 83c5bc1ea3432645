"""Audit any NAC implementation's gates (issue 8): a framework-neutral exchange format
(`read_export`, `write_export`; reports/AUDIT_FORMAT.md), the audit claims bound to one
export (`audit_claims`), a team's accepted verdicts (`read_expect`, `apply_expect`) and the
JAX model's export to a file (`export_model`)."""

from .claims import CLAIM_IDS, DEFAULT_SHARP_THRESHOLD, applicability, audit_claims
from .expect import Expectation, apply_expect, read_expect
from .export import export_model, write_export
from .format import ATTRS, FORMAT_TAG, OPTIONAL, REQUIRED, GateExport, from_arrays, read_export
from .logits import logit_tolerance, recompute_logits

__all__ = [
    "GateExport",
    "read_export",
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
]
