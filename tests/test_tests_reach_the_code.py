"""Every test reaches the code it tests (issue 26, item 4): a static scan with `ast` of every
test function in tests/. A test reaches nacverify when its body (nested functions included)
references a name bound from nacverify, or runs nacverify as a program (a string naming it in a
call: ``[sys.executable, "-m", "nacverify", ...]``, code for ``python -c``), or uses a helper
or fixture of the same file (or of conftest.py) that does. Names bound from nacverify are the
file's imports from it and the module-level names computed from them (``CLAIMS = {c.id: c for c
in text_claims()}``), transitively. A test that does none of these computes its expectation and
checks it against itself, which cannot fail for a defect of the code; the few that are fine are
listed in ALLOWED with the reason."""

from __future__ import annotations

import ast
from pathlib import Path

import nacverify

TESTS = Path(__file__).resolve().parent
PACKAGE = nacverify.__name__

#: test (file::function) -> why it need not call nacverify. None is fine yet: a hand computation checked
#: against itself cannot fail for a defect of the code (issue 26); compare it with the claim's evidence
#: instead (test_the_allow_list_is_current fails on a stale entry).
ALLOWED: dict[str, str] = {
    "test_conventions.py::test_readme_says_which_commands_write_no_report_and_documents_nacverify_seeds":
        "checks the README's text (a documentation fact), not code",
    "test_junit_xml.py::test_the_schema_rejects_testcase_properties":
        "checks the test's own junit-10.xsd (that it rejects what pytest's schema rejects), which the other JUnit tests then rely on",
    "test_readme_findings.py::test_the_error_list_names_each_documents_count":
        "checks reports/FINDINGS.md's error list against the README's findings table, which the file's other test ties to `nacverify findings`",
    "test_dask_execution.py::test_listing_the_workers_tolerates_children_that_exit_or_turn_zombie":
        "checks the test file's own listing of a cluster's workers (issue 38: the Ctrl-C test raised psutil.ZombieProcess), which that test relies on",
    "test_task_plan.py::test_claim_seconds_only_puts_new_claims_in_the_tables_scale":
        "checks tools/claim_seconds.py (a maintainer's script outside the package) that writes the costs nacverify.run.task_plan plans by",
}


def _imported_names(tree: ast.Module, sources: frozenset[str] = frozenset({PACKAGE})) -> set[str]:
    """Names a module binds from nacverify (or from `sources`), anywhere in the file
    (function-level imports too)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in sources:
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in sources:
                    names.add(a.asname or a.name.split(".")[0])
    return names


def _helper_modules() -> set[str]:
    """Sibling modules of tests/ (not tests themselves) that import nacverify: fault_writer.py and
    the like, which tests import or run as programs."""
    out = set()
    for path in TESTS.glob("*.py"):
        if not path.name.startswith(("test_", "conftest")) and _imported_names(ast.parse(path.read_text(encoding="utf-8"))):
            out.add(path.stem)
    return out


def _strings(node: ast.AST):
    """String constants under `node`, leaving out assert messages."""
    skip = {id(sub.msg) for sub in ast.walk(node) if isinstance(sub, ast.Assert) and sub.msg is not None}
    stack = [node]
    while stack:
        sub = stack.pop()
        if id(sub) in skip:
            continue
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value
        stack.extend(ast.iter_child_nodes(sub))


def _mentions(node: ast.AST, names: set[str]) -> bool:
    """Whether `node` reads one of `names`, or holds a string naming nacverify or a helper module
    of tests/ that imports it (a program to run, a path into the package)."""
    if any(isinstance(sub, ast.Name) and sub.id in names for sub in ast.walk(node)):
        return True
    helpers = {f"{m}.py" for m in _HELPERS}
    return any(PACKAGE in text or any(h in text for h in helpers) for text in _strings(node))


_HELPERS = _helper_modules()


def _bound_names(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out[f"{node.name}.{sub.name}"] = sub
                    out.setdefault(sub.name, sub)
    return out


def _reaching(tree: ast.Module, extra: set[str] = frozenset()) -> tuple[set[str], dict[str, ast.FunctionDef]]:
    """(names that reach nacverify, the file's functions): imports, module-level names computed
    from them, and functions whose body (or whose fixtures) reach, to a fixed point."""
    names = _imported_names(tree, frozenset({PACKAGE, *_HELPERS})) | set(extra)
    functions = _functions(tree)
    changed = True
    while changed:
        changed = False
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                new = {n for t in targets for n in _bound_names(t)} - names
                if new and _mentions(node.value, names):
                    names |= new
                    changed = True
        for name, fn in functions.items():
            short = name.rsplit(".", 1)[-1]
            if short in names:
                continue
            params = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]}
            if _mentions(fn, names) or params & names:
                names.add(short)
                changed = True
    return names, functions


def _conftest_fixtures() -> set[str]:
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    names, functions = _reaching(tree)
    return {n for n in functions if n in names}


def unreached_tests() -> list[str]:
    """file::test for every test function that does not reach nacverify."""
    shared = _conftest_fixtures()
    out = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names, functions = _reaching(tree, shared)
        for name, fn in functions.items():
            short = name.rsplit(".", 1)[-1]
            if not short.startswith("test") or (name != short and name.split(".")[0][:4] != "Test"):
                continue
            if short not in names:
                out.append(f"{path.name}::{name}")
    return sorted(set(out))


def test_every_test_reaches_nacverify():
    unreached = [t for t in unreached_tests() if t not in ALLOWED]
    assert not unreached, "tests that never reach nacverify (call it, or list them in ALLOWED with a reason):\n" + "\n".join(unreached)


def test_the_allow_list_is_current():
    """Every allowed exception still exists and is still an exception (a stale entry hides nothing)."""
    unreached = set(unreached_tests())
    assert not [t for t in ALLOWED if t not in unreached]
    assert all(reason.strip() for reason in ALLOWED.values())


def test_the_scan_sees_a_self_checking_test(tmp_path):
    """The scan itself: a hand computation checked against itself is reported; the same with a call
    into nacverify, through a module-level name, a helper, a fixture or a subprocess, is not."""
    source = '''
import math
import subprocess, sys
import pytest
from nacverify.claims import evaluate
from nacverify import catalog as cat
TABLE = {c: 1 for c in cat.__all__}

def helper():
    return evaluate

@pytest.fixture
def fx():
    return helper()

def test_alone():
    assert math.exp(0) == 1

def test_direct():
    assert evaluate

def test_module_name():
    assert TABLE

def test_helper():
    assert helper()

def test_fixture(fx):
    assert fx

def test_program():
    subprocess.run([sys.executable, "-m", "nacverify", "--help"])
'''
    tree = ast.parse(source)
    names, functions = _reaching(tree)
    tests = {n for n in functions if n.startswith("test")}
    assert {t for t in tests if t not in names} == {"test_alone"}
