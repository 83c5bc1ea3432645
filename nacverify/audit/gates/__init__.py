"""The NAC gate-export audit (`nacverify audit gates.npz`, issue 8; reports/AUDIT_FORMAT.md).

What it checks: the gate tensors any NAC implementation exports (``phi``, ``omega`` and,
optionally, ``t_pseudo``, ``logits``, ``attention``, ``u``, ``valid``; seed 001 eq. 15-18),
as seven claims (`CLAIM_IDS`): omega > 0 at every pair; every logit inside Theorem 1's
interval [min(0, A), max(0, A)], A = phi/omega; the exported logits equal to their float64
recomputation from the gates and the mode (exact / euler / steady), within a few hundred ulps
of the export dtype; the Euler steps inside their no-overshoot margin (delta_t * omega); the
gates varying with their input; the sharpness of the attention the gates allow; attention
rows summing to 1 and equal to the softmax of the logits.

The modules: the exchange format (`format`: `read_export`, `from_arrays`), the claims' verdicts
and messages (`claims`), the per-pair arithmetic of a chunk (`blocks`, `logits`) and its exact,
chunk-order merges (`reduce`, `quantiles`), the out-of-core reading of an HDF5 export
(`source`, `stream`: `audit_file`, optionally as tasks on a Dask executor, issue 14), the
writers (`export`: `write_export`, `export_model`) and a generated export of any size with a
planted defect whose verdicts are known (`generate`).
"""

from .claims import CLAIM_IDS, DEFAULT_SHARP_THRESHOLD, applicability
from .export import export_model, write_export
from .format import ATTRS, FORMAT_TAG, OPTIONAL, REQUIRED, ExportLayout, GateExport, from_arrays, read_export, read_layout
from .generate import generate_export
from .stream import FileAudit, audit_claims, audit_file
from .logits import logit_tolerance, recompute_logits

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
    "recompute_logits",
    "logit_tolerance",
    "CLAIM_IDS",
    "DEFAULT_SHARP_THRESHOLD",
    "FORMAT_TAG",
    "REQUIRED",
    "OPTIONAL",
    "ATTRS",
]
