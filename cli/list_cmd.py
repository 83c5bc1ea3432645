"""`nacverify list`: every registered claim."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput

from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, output_format
from ._output import console, fitted, print_json
from ._results import kind_totals


#: Up to this many selected claims, the table is followed by where each is decided and who cites it.
DETAIL_LIMIT = 20


def _print_provenance(claims) -> None:
    from nacverify.ledger import load_ledgers
    from nacverify.provenance import citing_items, defined_in

    cited = citing_items(load_ledgers())
    for claim in claims:
        where = defined_in(claim)
        console.print(f"{claim.id}", markup=False)
        console.print(f"  defined in: {where} ({where.file}:{where.line})", markup=False)  # wrapped between words, never inside one
        console.print(f"  ledger: {', '.join(cited.get(claim.id, [])) or '-'}", markup=False)


@guarded
def list_claims(
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Glob on claim ids, e.g. 'nac.thm3.*' (repeatable).")] = None,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """List all registered claims: id, kind (whose statement: as-printed, reading, correction, implementation, lemma),
    source, statement, expected verdict. With at most 20 claims selected (e.g. --only ID), also where each is decided
    (module:function, file:line) and the ledger items that cite it; --format json always gives both."""
    fmt = output_format(fmt, as_json)
    import nacverify.catalog  # noqa: F401  (registers every claim provider)
    from nacverify import claims as claim_registry

    claims = claim_registry.select(only)
    if not claims:  # as `check --only`: a selection of nothing is a mistyped glob, not an empty answer
        raise BadInput(f"no claim matches {' '.join(only or [])!r} (see `nacverify list`)")
    if fmt == OutputFormat.json:
        from nacverify.report.json_export import claims_document

        print_json(claims_document(claims))
        return
    table = Table(title=f"{len(claims)} claims")
    table.add_column("claim", style="bold", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("source", overflow="fold")
    table.add_column("statement", overflow="fold")
    table.add_column("expected", no_wrap=True)
    for claim in claims:
        statement = claim.statement + (f" [reading: {claim.reading}]" if claim.reading else "")
        table.add_row(escape(claim.id), str(claim.kind or "-"), escape(claim.source), escape(statement), claim.expected.value)
    console.print(fitted(table))
    console.print("kinds: " + ", ".join(f"{k} {n}" for k, n in kind_totals(claims).items()), markup=False)
    if len(claims) <= DETAIL_LIMIT:
        _print_provenance(claims)
