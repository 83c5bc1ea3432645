"""`nacverify audit-gen`: write a generated gate export of any size (for benchmarks of `nacverify audit`)."""

from __future__ import annotations

import enum
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from nacverify.audit.generate import BLOCK_ROWS, DEFECTS, generate_export
from nacverify.errors import Interrupted

from ._common import console, guarded, progress_bar

Defect = enum.Enum("Defect", {d: d for d in DEFECTS}, type=str)


@guarded
def audit_gen(
    out: Annotated[Path, typer.Argument(help="HDF5 file to write (.h5 / .hdf5); about 16 bytes per pair.")],
    pairs: Annotated[int, typer.Option("--pairs", "-n", help="Pairs in the export, a multiple of 8 (K = 8 keys per row), e.g. 500000000 (8 GB).")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Seed: the file is a function of (pairs, seed, defect).")] = 0,
    defect: Annotated[Defect, typer.Option(help="Plant a defect at one pair drawn from the seed: omega (omega < 0), euler (delta_t omega = 1.5), logits (one logit x 0.99), attention (one row x 1.05); none: every claim holds.")] = Defect("none"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a generated NAC gate export (HDF5, mode euler, float32, chunked, block by block in bounded memory) whose
    audit verdicts are known in advance; audit it with `nacverify audit OUT`."""
    start = time.perf_counter()
    try:
        with progress_bar(pairs > 10 * BLOCK_ROWS * 8) as bar:
            task = bar.add_task("audit-gen", total=pairs // 8 if pairs > 0 else None)
            made = generate_export(out, pairs, seed=seed, defect=defect.value, overwrite=force,
                                   progress=lambda done, total: bar.update(task, completed=done))
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; nothing written to {out}") from None
    seconds = time.perf_counter() - start
    size = made.path.stat().st_size
    at = f"row {made.defect_index[0]}, key {made.defect_index[1]} (pair index [{made.defect_index[0]}, {made.defect_index[1]}])" if made.defect_index else "-"
    console.print(f"export: {made.path} ({made.pairs} pairs, {size / 2**30:.2f} GiB, seed {seed}) in {seconds:.1f} s "
                  f"({made.pairs / seconds:.3g} pairs/s); defect {made.defect} at {at}", markup=False)
    table = Table(title="verdicts `nacverify audit` must give (the generator's closed forms)")
    table.add_column("claim")
    table.add_column("verdict")
    for cid, verdict in made.expected.items():
        table.add_row(cid, verdict.value)
    console.print(table)
