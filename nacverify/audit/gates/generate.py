r"""Generated gate exports of any size, written block by block, with an optional planted defect.

For benchmarks and tests of the out-of-core audit (`nacverify audit-gen`). The export is
HDF5, mode ``euler`` (delta_t 0.5, 5 steps, K = 8 keys per row), arrays ``phi``,
``omega``, ``logits``, ``attention`` in float32 (16 bytes per pair: 5·10^8 pairs are
8 GB), chunked and uncompressed so it can be read at disk speed. Block b of
`BLOCK_ROWS` rows is drawn from ``numpy.random.default_rng([seed, b])``, so the file is a
function of (pairs, seed, defect) alone and memory does not grow with its size.

The gates are those of a healthy split-head NAC: phi = sigmoid(1.5 x1), omega =
softplus(x2) + 0.05 with x2 clipped to [-4, 1.2], so delta_t omega <= 0.73 < 1 and
A = phi/omega spans far more than log 7; the logits are the Euler iterates computed in
float64 from the float32 gates and rounded once, the attention their softmax. Every
audit claim holds on it (`expected_verdicts`). A planted defect changes one pair (one row
for ``attention``), drawn from the seed, in a way whose verdicts follow from the closed
forms alone:

============  =================================================  ======================================
defect        change at the drawn pair                           refuted claims
============  =================================================  ======================================
omega         omega = -0.3 (logits, attention left as they were)  audit.omega_positive
euler         omega = 3 (delta_t omega = 1.5), row recomputed:    audit.euler_margin, audit.thm1_interval
              a_5 = A (1 - (-0.5)^5) = 1.03125 A lies above A
logits        logit x 0.99, attention row recomputed             audit.logits_consistent
attention     the pair's attention row x 1.05 (sums to 1.05)     audit.attention_rows
============  =================================================  ======================================
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...atomic import atomic_write
from ...claims import Verdict
from ...errors import BadInput
from .claims import CLAIM_IDS
from .format import FORMAT_TAG, FORMAT_VERSION

__all__ = ["DEFECTS", "BLOCK_ROWS", "GeneratedExport", "generate_export", "expected_verdicts", "defect_pair"]

K = 8
DELTA_T = 0.5
STEPS = 5
BLOCK_ROWS = 1 << 16  # rows per generated block (part of the file's definition)
BYTES_PER_PAIR = 16
DEFECTS: dict[str, tuple[str, ...]] = {
    "none": (),
    "omega": ("audit.omega_positive",),
    "euler": ("audit.euler_margin", "audit.thm1_interval"),
    "logits": ("audit.logits_consistent",),
    "attention": ("audit.attention_rows",),
}


@dataclass(frozen=True)
class GeneratedExport:
    path: Path
    pairs: int
    seed: int
    defect: str
    defect_index: tuple[int, int] | None  # (row, key) of the planted pair
    expected: dict[str, Verdict]


def expected_verdicts(defect: str) -> dict[str, Verdict]:
    """Every claim's verdict on a generated export with `defect` (module docstring)."""
    return {cid: Verdict.REFUTED if cid in DEFECTS[defect] else Verdict.HOLDS for cid in CLAIM_IDS}


def defect_pair(pairs: int, seed: int) -> tuple[int, int]:
    """The (row, key) a defect is planted at, drawn from the seed."""
    flat = int(np.random.default_rng([seed, 1 << 40]).integers(0, pairs))
    return divmod(flat, K)


def _euler_logits(phi: np.ndarray, omega: np.ndarray) -> np.ndarray:
    a = np.zeros_like(phi)
    for _ in range(STEPS):
        a = a + DELTA_T * (-omega * a + phi)
    return a


def _softmax(a: np.ndarray) -> np.ndarray:
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _block(seed: int, b: int, n: int, defect: str, at: tuple[int, int] | None) -> dict[str, np.ndarray]:
    """Block b (n rows) of the export, float32, with the defect if its pair is in this block."""
    rng = np.random.default_rng([seed, b])
    x1 = rng.standard_normal((n, K), dtype=np.float32).astype(np.float64)
    x2 = np.clip(rng.standard_normal((n, K), dtype=np.float32).astype(np.float64) * 1.5 - 1.0, -4.0, 1.2)
    phi = (1.0 / (1.0 + np.exp(-1.5 * x1))).astype(np.float32)
    omega = (np.log1p(np.exp(x2)) + 0.05).astype(np.float32)
    row = None if at is None or not b * BLOCK_ROWS <= at[0] < b * BLOCK_ROWS + n else at[0] - b * BLOCK_ROWS
    if row is not None and defect == "euler":
        omega[row, at[1]] = 3.0
    logits = _euler_logits(phi.astype(np.float64), omega.astype(np.float64)).astype(np.float32)
    if row is not None and defect == "logits":
        logits[row, at[1]] = np.float32(logits[row, at[1]] * 0.99)
    attention = _softmax(logits.astype(np.float64)).astype(np.float32)
    if row is not None and defect == "omega":
        omega[row, at[1]] = -0.3
    if row is not None and defect == "attention":
        attention[row] = (attention[row].astype(np.float64) * 1.05).astype(np.float32)
    return {"phi": phi, "omega": omega, "logits": logits, "attention": attention}


def generate_export(path: str | os.PathLike, pairs: int, *, seed: int = 0, defect: str = "none", overwrite: bool = False,
                    progress: Callable[[int, int], None] | None = None) -> GeneratedExport:
    """Write a generated export of `pairs` pairs (a multiple of 8) to the HDF5 file `path`,
    block by block (module docstring), atomically. `progress(rows done, rows)` is called
    after every block."""
    import h5py

    target = Path(path)
    if target.suffix.lower() not in (".h5", ".hdf5"):
        raise BadInput(f"{target}: a generated export is HDF5; name it .h5 or .hdf5")
    if defect not in DEFECTS:
        raise BadInput(f"unknown defect {defect!r} (use {', '.join(DEFECTS)})")
    if pairs < K or pairs % K:
        raise BadInput(f"--pairs must be a positive multiple of {K} (K = {K} keys per row), got {pairs}")
    if not 0 <= seed < 2**63:
        raise BadInput(f"--seed must be in [0, 2^63), got {seed}")
    if target.exists() and not overwrite:
        raise BadInput(f"export {target} exists; choose another name or pass --force")
    folder = target.parent if str(target.parent) else Path(".")
    try:  # a folder that cannot take the file is said as such, before its free space is compared
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise BadInput(f"{target}: folder {folder} is not writable ({exc.strerror or exc})") from None
    need = pairs * BYTES_PER_PAIR + (1 << 20)
    free = shutil.disk_usage(folder if folder.exists() else Path(".")).free
    if need > free:
        raise BadInput(f"{pairs} pairs need {need / 2**30:.1f} GiB; {folder} has {free / 2**30:.1f} GiB free")
    rows = pairs // K
    at = defect_pair(pairs, seed) if defect != "none" else None
    expected = expected_verdicts(defect)

    def write(tmp: Path) -> None:
        with h5py.File(tmp, "w") as handle:
            chunk = (min(rows, BLOCK_ROWS), K)
            sets = {n: handle.create_dataset(n, shape=(rows, K), dtype=np.float32, chunks=chunk) for n in ("phi", "omega", "logits", "attention")}
            handle.attrs.update(format=FORMAT_TAG, format_version=FORMAT_VERSION, mode="euler", delta_t=DELTA_T, euler_steps=STEPS,
                                dt=1.0, topk=K)
            info = handle.create_group("generated")  # groups are not read by the audit
            info.attrs.update(tool="nacverify audit-gen", seed=seed, pairs=pairs, defect=defect, block_rows=BLOCK_ROWS,
                              defect_index=json.dumps(list(at) if at else None),
                              expected=json.dumps({k: v.value for k, v in expected.items()}))
            for b, r0 in enumerate(range(0, rows, BLOCK_ROWS)):
                n = min(BLOCK_ROWS, rows - r0)
                with np.errstate(over="ignore"):
                    arrays = _block(seed, b, n, defect, at)
                for name, arr in arrays.items():
                    sets[name][r0:r0 + n] = arr
                if progress is not None:
                    progress(r0 + n, rows)

    atomic_write(target, write, overwrite=overwrite, what="export")
    return GeneratedExport(target, pairs, seed, defect, at, expected)
