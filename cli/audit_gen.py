"""`nacverify audit-gen`: write a generated gate export of any size (for benchmarks of `nacverify audit`)."""

from __future__ import annotations

import enum
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from nacverify.errors import Interrupted

from ._guard import guarded
from ._output import console, fitted, progress_bar
from ._defaults import DEFECTS

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
    from nacverify.audit.gates.generate import BLOCK_ROWS, generate_export

    start = time.perf_counter()
    try:
        with ExitStack() as stack:  # the bar starts with the first block: a refusal (name, size, space) shows none
            bar: dict = {}

            def progress(done: int, total: int) -> None:
                if not bar:
                    bar["bar"] = stack.enter_context(progress_bar(pairs > 10 * BLOCK_ROWS * 8))
                    bar["task"] = bar["bar"].add_task("audit-gen", total=total)
                bar["bar"].update(bar["task"], completed=done)

            made = generate_export(out, pairs, seed=seed, defect=defect.value, overwrite=force, progress=progress)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; nothing written to {out}") from None
    seconds = time.perf_counter() - start
    size = made.path.stat().st_size
    shown = f"{size / 2**30:.2f} GiB" if size >= 2**30 else f"{size / 2**20:.2f} MiB" if size >= 2**20 else f"{size} bytes"
    at = f"row {made.defect_index[0]}, key {made.defect_index[1]} (pair index [{made.defect_index[0]}, {made.defect_index[1]}])" if made.defect_index else "-"
    console.print(f"export: {made.path} ({made.pairs} pairs, {shown}, seed {seed}) in {seconds:.1f} s "
                  f"({made.pairs / seconds:.3g} pairs/s); defect {made.defect} at {at}", markup=False)
    table = Table(title="verdicts `nacverify audit` must give (the generator's closed forms)")
    table.add_column("claim")
    table.add_column("verdict")
    for cid, verdict in made.expected.items():
        table.add_row(cid, verdict.value)
    console.print(fitted(table))
