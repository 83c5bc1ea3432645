"""The import graph of the nacverify package, read from the source with `ast` (nothing is
imported). tests/test_layout.py uses it to show that no import cycle exists and that the
layers only import downwards; by hand:
``python -c "from nacverify._imports import *; print(find_cycle(import_graph()))"``."""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["import_graph", "find_cycle", "module_name"]

ROOT = Path(__file__).resolve().parent
#: The source folders installed under the nacverify namespace (pyproject's package-dir).
EXTRA = {"nacverify.cli": ROOT.parent / "cli", "nacverify.proofs": ROOT.parent / "proofs"}


def _files() -> dict[str, Path]:
    out = {}
    for base, folder in {"nacverify": ROOT, **EXTRA}.items():
        if not folder.is_dir():
            continue
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([base, *parts])] = path
    return out


def module_name(path: Path) -> str:
    for name, p in _files().items():
        if p == path:
            return name
    raise KeyError(path)


def import_graph() -> dict[str, set[str]]:
    """module -> the nacverify modules it imports anywhere in its body (function-level
    imports included: a lazy import is still a dependency)."""
    files = _files()
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = []
                for alias in node.names:
                    sub = f"{mod}.{alias.name}"
                    targets.append(sub if sub in files else mod)
            else:
                continue
            for t in targets:
                while t and t not in files:  # `import a.b.c` of a module: keep the longest known prefix
                    t = t.rpartition(".")[0]
                if t and t != name:
                    deps.add(t)
        graph[name] = deps
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (a list of modules, first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None

