"""Where a claim is decided, and which ledger items cite it.

A claim's `check` is a function, a closure made by a factory, a lambda that calls the function
doing the work, a `functools.partial`, or the bound `outcome` of a proof obligation
(`nacverify.symbolic.obligation.Obligation`, or a cached claim's `ProofCheck`). `defined_in` follows each of these to the
module-level object a reader opens:

- a plain function: itself;
- a partial: the function it wraps;
- a closure or a nested function (``factory.<locals>.check``): the module-level factory;
- a lambda: the function its outermost call calls, read from its bytecode: the first function
  it loads, whether a global, a closure cell or a default argument (a lambda handed in is
  followed in turn; the claims module's own helpers, such as `with_reading`, only relabel an
  outcome and are skipped); calling none, the function it is written in;
- a proof obligation: the proof module's ``OBLIGATIONS`` list, at the obligation's line.

`registered_definitions` gives the place of every registered claim; where the catalog cache is on
(``$NACVERIFY_CATALOG_CACHE``, which the command line sets) it is stored there, keyed by the source
digest, so that a reader of reports (`nacverify report html`) finds the places without loading the
catalog, which imports every claim provider (SymPy, JAX, diffrax: seconds).

`citing_items` inverts the ledger: the ``DOC:ITEM`` keys of every ledger item whose
``claims`` name the claim.
"""

from __future__ import annotations

import dis
import functools
import importlib
import inspect
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType

from .claims import Claim

__all__ = ["Definition", "defined_in", "registered_definitions", "citing_items"]

DEFINITIONS_FILE = "claim-definitions.json"  # in the catalog cache's folder: {"key": source digest, "definitions": {id: [module, qualname, file, line]}}

#: Helpers that wrap or relabel an outcome; a lambda calling them is decided by what it calls next.
_RELABELLING_MODULES = frozenset({"nacverify.claims"})


@dataclass(frozen=True)
class Definition:
    """The module-level object that decides a claim: ``module:qualname``, its file relative to
    the installed package's parent folder, and the line it starts on."""

    module: str
    qualname: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.module}:{self.qualname}"

    def as_dict(self) -> dict[str, object]:
        return {"module": self.module, "function": self.qualname, "file": self.file, "line": self.line}


def _package_root() -> Path:
    return Path(importlib.import_module("nacverify").__file__).resolve().parent.parent


def _relative(path: str | None) -> str:
    if not path:
        return ""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(_package_root()).as_posix()
    except ValueError:
        return resolved.as_posix()


def _outermost(function: FunctionType) -> Callable | None:
    """The module-level function a nested function is written in (``f.<locals>.g`` -> ``f``)."""
    head = function.__qualname__.split(".<locals>.")[0]
    if head == function.__qualname__:
        return function
    module = importlib.import_module(function.__module__)
    target: object = module
    for part in head.split("."):
        target = getattr(target, part, None)
        if target is None:
            return None
    return target if callable(target) else None


def _value_of(function: FunctionType, instruction: dis.Instruction) -> object:
    """What a load instruction of a lambda's body loads: a global, a closure cell or a default."""
    code = function.__code__
    if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
        return function.__globals__.get(instruction.argval)
    if instruction.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") and instruction.argval in code.co_freevars:
        cell = (function.__closure__ or ())[code.co_freevars.index(instruction.argval)]
        return cell.cell_contents
    if instruction.opname == "LOAD_FAST":
        names = code.co_varnames[: code.co_argcount]
        defaults = function.__defaults__ or ()
        offset = len(names) - len(defaults)
        if instruction.argval in names[offset:]:
            return defaults[names.index(instruction.argval) - offset]
        return (function.__kwdefaults__ or {}).get(instruction.argval)
    return None


def _called_function(function: FunctionType) -> Callable | None:
    """The function a lambda's outermost call calls: the first function its body loads that is
    not a relabelling helper (a global, a closure cell or a default argument)."""
    for instruction in dis.get_instructions(function):
        value = _value_of(function, instruction)
        while isinstance(value, functools.partial):
            value = value.func
        if inspect.ismethod(value):
            value = value.__func__
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        if (getattr(value, "__module__", "") or "") in _RELABELLING_MODULES:
            continue
        return value
    return None


def _of_object(target: Callable) -> Definition:
    target = inspect.unwrap(target)
    file = inspect.getsourcefile(target)
    try:
        line = inspect.getsourcelines(target)[1]
    except (OSError, TypeError):
        line = 0
    return Definition(module=target.__module__, qualname=target.__qualname__, file=_relative(file), line=line)


def _of_obligation(obligation: object) -> Definition:
    from .symbolic.discover import proof_modules

    literal = re.compile(r"""(["'])""" + re.escape(obligation.id) + r"""\1""")
    for name in proof_modules():
        module = importlib.import_module(name)
        if obligation not in getattr(module, "OBLIGATIONS", ()):
            continue
        file = inspect.getsourcefile(module)
        lines = Path(file).read_text(encoding="utf-8").splitlines() if file else []
        line = next((number for number, text in enumerate(lines, 1) if literal.search(text)), 0)
        return Definition(module=name, qualname="OBLIGATIONS", file=_relative(file), line=line)
    raise LookupError(f"obligation {obligation.id} is in no proof module's OBLIGATIONS")


def defined_in(claim: Claim) -> Definition:
    """The module-level object that decides `claim` (see the module docstring)."""
    from .symbolic.catalog_cache import ProofCheck
    from .symbolic.obligation import Obligation

    check: object = claim.check
    while isinstance(check, functools.partial):
        check = check.func
    if inspect.ismethod(check) and isinstance(check.__self__, Obligation):
        return _of_obligation(check.__self__)
    if isinstance(check, ProofCheck):  # a claim built from the catalog cache
        return _of_obligation(check.obligation())
    if inspect.ismethod(check):
        check = check.__func__
    if not inspect.isfunction(check):
        return _of_object(type(check))
    while check.__name__ == "<lambda>":
        called = _called_function(check)
        if called is None:
            break
        if inspect.isclass(called) or called.__name__ != "<lambda>":
            if isinstance(called, FunctionType) and "<locals>" in called.__qualname__:
                called = _outermost(called) or called
            return _of_object(called)
        check = called
    outer = _outermost(check)
    if outer is None:
        raise LookupError(f"claim {claim.id}: cannot find the module-level function of {check.__qualname__}")
    return _of_object(outer)


def registered_definitions(wanted: Iterable[str] = ()) -> dict[str, Definition]:
    """Claim id -> `Definition`, for every claim this version registers (module docstring). The
    stored map is used only under the source digest it was stored with
    (`nacverify.compute.source_tree.source_digest`: every source file of nacverify and its proofs,
    and the Python version); a missing, unreadable or malformed one, or one that lacks a claim of
    `wanted` (a claim registered only where, say, Julia is installed, or one of a report from another
    version), is computed again and stored (a folder that cannot be written leaves the cache as it
    was)."""
    from .compute.source_tree import source_digest

    folder = os.environ.get("NACVERIFY_CATALOG_CACHE", "").strip()
    key = source_digest() if folder else ""
    if folder:
        stored = _load_definitions(Path(folder) / DEFINITIONS_FILE, key)
        if stored is not None and all(cid in stored for cid in wanted):
            return stored
    import nacverify.catalog  # noqa: F401  (registers every claim provider)

    from .claims import registry

    found = {cid: defined_in(claim) for cid, claim in registry().items()}
    if folder:
        _store_definitions(Path(folder), key, found)
    return found


def _load_definitions(path: Path, key: str) -> dict[str, Definition] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        return {cid: Definition(str(m), str(q), str(f), int(n)) for cid, (m, q, f, n) in data["definitions"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _store_definitions(folder: Path, key: str, found: Mapping[str, Definition]) -> None:
    """Keep the map in the catalog cache (best effort: a folder that cannot be written leaves the cache unfilled)."""
    from .atomic import atomic_write
    from .errors import BadInput, EnvironmentProblem

    payload = {"key": key, "definitions": {cid: [d.module, d.qualname, d.file, d.line] for cid, d in found.items()}}
    try:
        atomic_write(folder / DEFINITIONS_FILE, lambda tmp: tmp.write_text(json.dumps(payload), encoding="utf-8"), overwrite=True,
                     what="catalog cache")
    except (OSError, BadInput, EnvironmentProblem):
        pass


def citing_items(ledgers: Mapping[str, object]) -> dict[str, list[str]]:
    """Claim id -> the ``DOC:ITEM`` keys of the ledger items that test it (``claims``) or cite it as evidence
    (``cites``), in ledger order."""
    cited: dict[str, list[str]] = {}
    for ledger in ledgers.values():
        for item in ledger.items:
            for claim_id in item.claims + item.cites:
                cited.setdefault(claim_id, []).append(item.key)
    return cited
