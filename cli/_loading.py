"""Loading late or meanwhile: a command module's library names (which import JAX) loaded when the
command runs (`lazy_names`), and work started on a background thread while other work goes on
(`Background`, e.g. the claim catalog while a cluster's workers start)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class Background:
    """`fn()` started now on a daemon thread (e.g. loading the claim catalog while a cluster's
    workers start); `result()` waits for it and returns its value or raises its exception. A
    daemon thread, so that an interrupted command does not wait for it at exit."""

    def __init__(self, fn: Callable[[], Any]):
        self._box: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(fn,), name="nacverify-background", daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self._box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001  (handed to the caller by result())
            self._box["error"] = exc

    def result(self) -> Any:
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["value"]


def lazy_names(module_globals: dict[str, Any], names: dict[str, str]) -> tuple[Callable[[], None], Callable[[str], Any]]:
    """(load, __getattr__) for a command module whose library names import JAX: `load()` (called when the
    command runs) puts `names` (name -> module) into the module's globals, once; the module's
    `__getattr__` gives them on first access too, so that tests can patch them where the command uses them."""
    import importlib

    def load() -> None:
        for name, where in names.items():
            if name not in module_globals:
                module_globals[name] = getattr(importlib.import_module(where), name)

    def module_getattr(name: str) -> Any:
        if name in names:
            load()
            return module_globals[name]
        raise AttributeError(f"module {module_globals['__name__']!r} has no attribute {name!r}")

    return load, module_getattr
