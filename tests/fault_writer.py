"""Helper process for tests/test_faults.py: writes self-checking reports to one path.

    python tests/fault_writer.py PATH TAG START COUNT SIZE [--create]

Writes versions START, START+1, ... (COUNT of them; 0: until killed) to PATH with
`nacverify.report.write_report(..., overwrite=True)`; with --create, writes once without
overwrite (exit 4 when the file already exists). Each version holds a payload of SIZE
float64 drawn from the seed `version` and its SHA-256, so a reader can tell a whole
file from a mixed or torn one (`payload_version`). Prints "ready" once imported and
"wrote <version>" after each write (flushed).
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np


def payload(version: int, size: int) -> np.ndarray:
    return np.random.default_rng(version).random(size)


def payload_version(path, size: int) -> tuple[int, str]:
    """Read PATH back; raise AssertionError unless it is one whole version. Returns
    (version, writer tag)."""
    from nacverify.report import read_report

    data = read_report(path)
    sec = data.sections["payload"]
    version, data_array = int(sec["version"]), sec["data"]
    assert data.complete and data.attrs["command"] == f"fault-writer {sec['writer']} version {version}", data.attrs["command"]
    assert hashlib.sha256(data_array.tobytes()).hexdigest() == sec["sha256"], "payload does not match its checksum"
    assert np.array_equal(data_array, payload(version, size)), "payload is not the one of its version"
    return version, sec["writer"]


def main(argv: list[str]) -> int:
    path, tag, start, count, size = argv[0], argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    create = "--create" in argv[5:]
    from nacverify.errors import BadInput
    from nacverify.report import Report, write_report

    print("ready", flush=True)
    version = start
    while count == 0 or version < start + count:
        data = payload(version, size)
        report = Report(
            command=f"fault-writer {tag} version {version}",
            sections={"payload": {"data": data, "version": version, "writer": tag, "sha256": hashlib.sha256(data.tobytes()).hexdigest()}},
        )
        try:
            write_report(report, path, overwrite=not create)
        except BadInput:
            print("exists", flush=True)
            return 4
        print(f"wrote {version}", flush=True)
        version += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
