"""The layout shows the design: no import cycle, layers import downwards, one home for
figures, the frozen study as small modules (issue: a layout that shows the design)."""

from __future__ import annotations

import ast
from pathlib import Path

import nacverify
from nacverify._imports import find_cycle, import_graph

PKG = Path(__file__).resolve().parents[1] / "nacverify"


def _reach(graph, start):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for dep in graph.get(node, ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 50
    assert find_cycle(graph) is None


def test_cycle_finder_finds_the_old_solver_cycle():
    """The old solvers/base.py imported every backend, and every backend imported base."""
    graph = {"s.base": {"s.diffrax_backend", "s.problem"}, "s.diffrax_backend": {"s.base"}, "s.problem": set()}
    assert find_cycle(graph) == ["s.base", "s.diffrax_backend", "s.base"]
    graph["s.base"] = {"s.problem"}
    assert find_cycle(graph) is None


def test_solvers_and_model_know_nothing_of_verification():
    graph = import_graph()
    for package in ("nacverify.solvers", "nacverify.model"):
        for module in [m for m in graph if m == package or m.startswith(package + ".")]:
            reached = _reach(graph, module)
            assert "nacverify.claims" not in reached, module
            assert not any(r.startswith(("nacverify.checks", "nacverify.frozen", "nacverify.symbolic", "nacverify.audit")) for r in reached), module


def test_library_never_imports_the_cli():
    graph = import_graph()
    for module, deps in graph.items():
        if module.startswith("nacverify.cli"):
            continue
        assert not any(d.startswith("nacverify.cli") for d in _reach(graph, module)), module


def test_figures_have_one_home():
    users = sorted(p.relative_to(PKG).as_posix() for p in PKG.rglob("*.py") if "matplotlib" in p.read_text(encoding="utf-8"))
    assert all(u.startswith("report/") for u in users), users
    assert not (PKG / "plots.py").exists() and not (PKG / "render").exists() and not (PKG / "report.py").exists()


def test_frozen_study_is_a_package_of_small_modules():
    folder = PKG / "frozen"
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 7
    for m in modules:
        assert len(m.read_text(encoding="utf-8").splitlines()) <= 420, m.name
    assert not (PKG / "frozen.py").exists()
    # the package's __init__ does not import its claims (registration is the catalog's job)
    graph = import_graph()
    assert "nacverify.frozen.claims" not in graph["nacverify.frozen"]


def test_no_module_is_over_650_lines():
    """Issue 25: modules stay small (about 600 lines, 650 at most) in the package, the CLI and the
    proofs; the largest before the split were checks/paper_tables.py (1147 lines) and
    checks/locality_sparse.py (1070)."""
    root = PKG.parent
    files = [p for folder in ("nacverify", "cli", "proofs") for p in (root / folder).rglob("*.py")]
    assert len(files) > 100
    long = {str(p.relative_to(root)): n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > 650}
    assert not long, long


def test_the_root_shows_the_concepts():
    """Issue 39: the root of nacverify/ holds at most 15 modules (its __init__ counted) beside its
    sub-packages, which group the rest by role (run/, compute/, bench/, ...); each sub-package's
    __init__ says what it holds."""
    root = Path(nacverify.__file__).resolve().parent
    modules = sorted(p.name for p in root.glob("*.py"))
    assert len(modules) <= 15, modules
    for old in ("runner", "task_plan", "shared_work", "program_cache", "host", "device_memory", "xla_cost", "precision",
                "source_tree", "environment", "sine", "bench", "bench_peaks"):
        assert not (root / f"{old}.py").exists(), old
    for init in sorted(root.rglob("__init__.py")):
        if init.parent != root:
            assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), init.relative_to(root)


def test_no_drawer_modules_and_no_long_command_functions():
    """Issue 39: no module is a drawer (_common, utils, helpers, misc), and no function of the command line
    is longer than 100 lines, counted from its first decorator (its option declarations included)."""
    root = Path(nacverify.__file__).resolve().parents[1]
    files = [p for folder in ("nacverify", "cli", "proofs") for p in (root / folder).rglob("*.py")]
    assert not [p for p in files if p.stem.lstrip("_") in ("common", "utils", "helpers", "misc")]
    long = {}
    for path in (root / "cli").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - min([node.lineno, *(d.lineno for d in node.decorator_list)]) + 1
                if lines > 100:
                    long[f"{path.name}:{node.name}"] = lines
    assert not long, long
