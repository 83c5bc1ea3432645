"""The backend registry: name -> backend instance.

The registry imports every backend and each backend imports only `base` (the protocol),
so there is no import cycle: base <- backends <- _registry <- the package's ``__init__``.
"""

from __future__ import annotations

from ..errors import BadInput, EnvironmentProblem
from .base import Availability, Backend
from .diffrax_backend import DiffraxBackend
from .julia_backend import JuliaBackend
from .mpmath_backend import MpmathBackend
from .scipy_backend import ScipyBackend

__all__ = ["BACKEND_NAMES", "get_backend", "require_backend", "backend_status", "parse_backends"]

#: Every backend, in the order `nacverify backends` lists them.
_BACKENDS: dict[str, Backend] = {
    "diffrax": DiffraxBackend(),
    "scipy": ScipyBackend(),
    "mpmath": MpmathBackend(),
    "julia": JuliaBackend(),
}
BACKEND_NAMES = tuple(_BACKENDS)


def get_backend(name: str) -> Backend:
    """The backend called `name` (BadInput for an unknown name)."""
    if name not in _BACKENDS:
        raise BadInput(f"unknown backend {name!r}; choose from {', '.join(BACKEND_NAMES)}")
    return _BACKENDS[name]


def require_backend(name: str) -> Backend:
    """The backend, or EnvironmentProblem (exit 3) with the reason it cannot run here."""
    backend = get_backend(name)
    status = backend.availability()
    if not status.available:
        raise EnvironmentProblem(f"backend {name} is not available: {status.reason}")
    return backend


def backend_status() -> list[Availability]:
    return [get_backend(n).availability() for n in BACKEND_NAMES]


def parse_backends(text: str) -> list[str]:
    """'diffrax,scipy' -> ['diffrax', 'scipy'] (validated, order kept, no repeats)."""
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise BadInput("--backend needs at least one name")
    for n in names:
        get_backend(n)
    if len(set(names)) != len(names):
        raise BadInput(f"--backend lists a backend twice: {text}")
    return names
