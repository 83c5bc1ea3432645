"""The LTC cell audit (`nacverify audit-ltc cell.npz`, issue 12; reports/LTC_AUDIT_FORMAT.md).

What it checks: one LTC cell and one run of it, exported by any implementation, against seed
002, in its biophysical form (eq. 1-2, 8-9) or its abstract form (eq. 7/9): the fused step
recomputed from the exported state before it, positivity, the state bounds, the time
constants, and the fused solver's error against a diffrax reference (measured, or gated by a
tolerance, since document 002 gives none). The modules: the exchange format (`format`:
`read_ltc_export`, `write_ltc_export`, `ltc_from_arrays`), the five claims (`claims`,
`ltc_audit_claims`; `abstract` for the abstract form; what both forms share in `shared`),
their batched float64 kernels (`numerics`), the ncps.torch exporters (`export`) and the
audit's benchmark (`bench`). Files are read as the gate export's are
(`nacverify.audit.gates.format`).
"""

from .claims import LTC_CLAIM_IDS, ltc_audit_claims
from .export import export_ncps_cell, export_ncps_ltc, export_random_ncps
from .format import AbstractLTCExport, LTCExport, ltc_from_arrays, read_ltc_export, write_ltc_export

__all__ = [
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
