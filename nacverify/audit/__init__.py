"""Audit any implementation's exported tensors: two audits, one subpackage each, and what they
share.

- `nacverify.audit.gates` (issue 8): NAC gate exports, `nacverify audit gates.npz`. A
  framework-neutral exchange format (`read_export`, `write_export`; reports/AUDIT_FORMAT.md),
  the audit claims bound to one export (`audit_claims`; `audit_file` reads an HDF5 export chunk
  by chunk, optionally as tasks on a Dask executor, issue 14; `generate_export` writes one of
  any size) and the JAX model's export to a file (`export_model`).
- `nacverify.audit.ltc` (issue 12): LTC cells, `nacverify audit-ltc cell.npz`:
  `read_ltc_export`, `ltc_audit_claims`, the ncps.torch exporters
  (reports/LTC_AUDIT_FORMAT.md).
- shared (`nacverify.audit.expect`): a team's accepted verdicts (`read_expect`,
  `apply_expect`), for either audit.

Every public name of both subpackages is re-exported here."""

from .expect import Expectation, apply_expect, read_expect
from .gates import (ATTRS, CLAIM_IDS, DEFAULT_SHARP_THRESHOLD, FORMAT_TAG, OPTIONAL, REQUIRED, ExportLayout, FileAudit, GateExport,
                    applicability, audit_claims, audit_file, export_model, from_arrays, generate_export, logit_tolerance, read_export,
                    read_layout, recompute_logits, write_export)
from .ltc import (LTC_CLAIM_IDS, AbstractLTCExport, LTCExport, export_ncps_cell, export_ncps_ltc, export_random_ncps, ltc_audit_claims,
                  ltc_from_arrays, read_ltc_export, write_ltc_export)

from . import gates as _gates
from . import ltc as _ltc

__all__ = [*_gates.__all__, "read_expect", "apply_expect", "Expectation", *_ltc.__all__]
