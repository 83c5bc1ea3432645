"""Claim -> code and code -> ledger (`nacverify.provenance`, `list --format json`'s
`defined_in` and `ledger`).

The expected definitions below were read off the source by hand; the last test confirms the
resolution independently, by replacing the function `defined_in` names with one that raises and
showing that the claim's check then reaches it."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import nacverify.catalog  # noqa: F401  (registers every claim)
from nacverify.claims import CheckContext, Kind, get_claim, registry
from nacverify.ledger import load_ledgers
from nacverify.provenance import citing_items, defined_in

ROOT = Path(importlib.import_module("nacverify").__file__).resolve().parent.parent


def _resolve(module: str, qualname: str) -> object:
    target: object = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def test_every_claim_is_defined_where_defined_in_says() -> None:
    problems = []
    for claim_id, claim in registry().items():
        where = defined_in(claim)
        path = ROOT / where.file
        if not path.is_file():
            problems.append(f"{claim_id}: no file {where.file}")
            continue
        target = _resolve(where.module, where.qualname)
        lines = path.read_text(encoding="utf-8").splitlines()
        if where.qualname == "OBLIGATIONS":
            if not any(ob.id == claim_id for ob in target):
                problems.append(f"{claim_id}: not among {where.module}.OBLIGATIONS")
            if f'"{claim_id}"' not in lines[where.line - 1] and f"'{claim_id}'" not in lines[where.line - 1]:
                problems.append(f"{claim_id}: line {where.line} of {where.file} does not hold the id: {lines[where.line - 1]!r}")
            continue
        if getattr(target, "__module__", None) != where.module or "<" in where.qualname:
            problems.append(f"{claim_id}: {where} is not a module-level definition of {where.module}")
        if Path(inspect.getsourcefile(target)).resolve() != path.resolve():
            problems.append(f"{claim_id}: {where} is not in {where.file}")
        header = lines[where.line - 1].lstrip()
        if not header.startswith(("def ", "class ", "@")) or (where.qualname.split(".")[-1] not in header and not header.startswith("@")):
            problems.append(f"{claim_id}: line {where.line} of {where.file} does not define {where.qualname}: {header!r}")
    assert not problems, "\n".join(problems[:20])


def test_every_claim_is_cited_by_a_ledger_item_or_says_why_not() -> None:
    cited = citing_items(load_ledgers())
    uncited = [cid for cid, claim in registry().items() if not cited.get(cid) and claim.kind not in (Kind.LEMMA, Kind.IMPLEMENTATION)]
    assert not uncited, uncited[:20]


@pytest.mark.parametrize(
    ("claim_id", "module", "qualname"),
    [
        # lambda ctx: agreement_outcome(run_for(ctx)): the outer call decides, not the closure computing the run
        ("solvers.agree.nac.step", "nacverify.checks.solver_agreement", "agreement_outcome"),
        # lambda ctx, outcome=outcome: outcome(name): the default argument is the deciding function
        ("nac.table2.step.reading.rate", "nacverify.frozen._readings", "rate_reading_outcome"),
        # lambda ctx: table2_average_outcome(), imported from the private module that defines it
        ("nac.table2.average", "nacverify.frozen._table2", "table2_average_outcome"),
        # a nested def check(ctx, bound=bound) inside the factory
        ("nac.table2.bound.step.sweep", "nacverify.frozen.claims", "sweep_claims"),
        # a proof obligation
        ("ltc.eq9.state_bound_tanh", "nacverify.proofs.ltc", "OBLIGATIONS"),
    ],
)
def test_defined_in_by_hand(claim_id: str, module: str, qualname: str) -> None:
    where = defined_in(get_claim(claim_id))
    assert (where.module, where.qualname) == (module, qualname)


def test_a_lambda_handed_to_a_factory_is_followed_to_the_function_it_calls() -> None:
    """Table claims are made by a factory whose check is ``lambda ctx: check()``, `check` being
    the caller's ``lambda: _sota_per_category(v)``: both lambdas are followed."""
    where = defined_in(get_claim("nac001.table1.sota.per_category"))
    assert where.qualname == "_sota_per_category"


class _Reached(Exception):
    pass


@pytest.mark.parametrize("claim_id", ["nac.table2.average", "nac001.table1.sota.per_category", "nac000.d3.carracing.five_actions",
                                      "nac.table2.step.reading.rate"])
def test_the_check_reaches_the_function_defined_in_names(claim_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    claim = get_claim(claim_id)
    where = defined_in(claim)
    original = _resolve(where.module, where.qualname)

    def reached(*args, **kwargs):
        raise _Reached(where.qualname)

    patched = 0
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("nacverify"):
            for name, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, name, reached)
                    patched += 1
    if claim_id == "nac.table2.step.reading.rate":
        # a default argument holds the function itself: it is reached through the claim's own defaults
        monkeypatch.setattr(claim.check, "__defaults__", (reached,))
    assert patched >= 1
    with pytest.raises(_Reached):
        claim.check(CheckContext(seed=0, quick=True))


def test_list_json_gives_defined_in_and_ledger() -> None:
    from nacverify.cli.app import app

    res = CliRunner().invoke(app, ["list", "--only", "nac.table2.average", "--format", "json"])
    assert res.exit_code == 0, res.output
    (entry,) = json.loads(res.stdout)["claims"]
    assert entry["defined_in"]["function"] == "table2_average_outcome"
    assert entry["defined_in"]["file"].endswith("nacverify/frozen/_table2.py")
    assert entry["ledger"] == ["000:table2.average"]
    text = CliRunner().invoke(app, ["list", "--only", "nac.table2.average"]).stdout
    assert "nacverify.frozen._table2:table2_average_outcome" in text and "000:table2.average" in text


def _module_map() -> dict[str, set[str]]:
    """The map at the end of nacverify/checks/__init__.py's docstring: id prefix -> modules."""
    import nacverify.checks

    doc = nacverify.checks.__doc__
    rows = doc[doc.index("every id below it):") :].splitlines()[1:]
    table = {}
    for row in rows:
        if row.strip():
            prefix, modules = row.split(None, 1)
            table[prefix] = {m.strip() for m in modules.split(",")}
    return table


def _short_module(claim_id: str) -> str:
    from nacverify.claims import registered_by

    module = registered_by(claim_id)
    if module == "nacverify.symbolic.claims":
        module = defined_in(get_claim(claim_id)).module
    return module.removeprefix("nacverify.checks.").removeprefix("nacverify.")


def _map_problems(table: dict[str, set[str]]) -> list[str]:
    wrong, used = [], {prefix: set() for prefix in table}
    for claim_id in registry():
        covering = [p for p in table if claim_id == p or claim_id.startswith(p + ".")]
        if not covering:
            wrong.append(f"{claim_id}: no row")
            continue
        prefix = max(covering, key=len)
        module = _short_module(claim_id)
        used[prefix].add(module)
        if module not in table[prefix]:
            wrong.append(f"{claim_id}: in {module}, the row {prefix} says {sorted(table[prefix])}")
    return wrong + [f"row {p}: {sorted(table[p] - used[p])} register no claim under it" for p in table if table[p] - used[p]]


def test_the_checks_docstring_maps_every_claim_id_to_its_module() -> None:
    """A reader guesses the module from the id; the map in nacverify/checks/__init__.py must hold for
    every registered claim (the longest prefix that covers the id), and name no module in vain."""
    table = _module_map()
    assert len(table) > 50
    wrong = _map_problems(table)
    assert not wrong, "\n".join(wrong[:20])
    for module in {m for ms in table.values() for m in ms}:
        importlib.import_module("nacverify." + (module if module.split(".")[0] in ("proofs", "frozen", "convergence") else "checks." + module))


def test_the_map_check_catches_a_wrong_row_and_a_missing_one() -> None:
    table = _module_map()
    moved = {**table, "ltc.table11": {"ltc_bounds"}}
    assert any(w.startswith("ltc.table11.8: in ltc_table11") for w in _map_problems(moved))
    missing = {p: m for p, m in table.items() if p != "ltc.table11"}
    assert "ltc.table11.8: no row" in _map_problems(missing)


def test_the_places_of_the_claims_are_cached_by_the_source_digest(tmp_path, monkeypatch):
    """Issue 46: `report html` took the claims' places from the whole catalog each time (about 40 % of
    its time). `registered_definitions` stores them in the catalog cache under the source digest: the
    map is `defined_in` of each registered claim (computed here directly), a stored entry is read back
    as stored, and one stored under another digest, or lacking a wanted claim, is computed again."""
    import json

    import nacverify.catalog  # noqa: F401
    from nacverify.claims import registry
    from nacverify.compute.source_tree import source_digest
    from nacverify.provenance import DEFINITIONS_FILE, Definition, defined_in, registered_definitions

    monkeypatch.setenv("NACVERIFY_CATALOG_CACHE", str(tmp_path))
    first = registered_definitions()
    assert first == {cid: defined_in(claim) for cid, claim in registry().items()}
    path = tmp_path / DEFINITIONS_FILE
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["key"] == source_digest()
    stored["definitions"]["nac.thm1.continuous"] = ["a.module", "marked", "a/file.py", 7]
    path.write_text(json.dumps(stored), encoding="utf-8")
    assert registered_definitions()["nac.thm1.continuous"] == Definition("a.module", "marked", "a/file.py", 7)  # read, not recomputed
    assert registered_definitions(["no.such.claim"]) == first  # a wanted claim missing: computed again (and stored)
    stored["key"] = "another digest"
    path.write_text(json.dumps(stored), encoding="utf-8")
    assert registered_definitions() == first
