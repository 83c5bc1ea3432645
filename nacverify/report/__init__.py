"""Reports: HDF5 reading and writing (`_io`), and their renderers side by side: an offline
HTML page (`html`), a comparison of two reports (`diff`) and the figures both draw from
(`figures`). The layout of a report is documented in reports/SCHEMA.md.

Writing and reading are re-exported here; the renderers, which load matplotlib, are
imported from their modules (``nacverify.report.html``, ``.diff``, ``.figures``).
"""

from ._io import (
    SCHEMA_VERSION,
    ClaimRecord,
    Report,
    ReportData,
    check_writable,
    default_report_path,
    read_report,
    write_report,
)
from ._spool import Spool, check_space, human_size

__all__ = [
    "SCHEMA_VERSION",
    "ClaimRecord",
    "Report",
    "ReportData",
    "check_writable",
    "default_report_path",
    "read_report",
    "write_report",
    "Spool",
    "check_space",
    "human_size",
]

