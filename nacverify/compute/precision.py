"""Float64 for verification numerics, without touching the caller's JAX configuration.

Importing nacverify changes nothing in JAX. Every library entry point that computes a
verdict (`nacverify.claims.evaluate`, the diffrax solves, the frozen-coefficient runs and
sweeps) runs inside `float64()`, JAX's scoped ``jax_enable_x64`` context, so a caller's
float32 model stays float32 before and after. The command line enables float64 for its
own process once (`enable_float64_globally`), which is what its worker processes inherit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["float64", "uses_float64", "enable_float64_globally", "float64_enabled"]

F = TypeVar("F", bound=Callable)


def float64_enabled() -> bool:
    """Whether JAX creates float64 arrays here and now."""
    import jax  # here, not at the top: reading a report (`nacverify.claims`' verdicts) need not import JAX

    return bool(jax.config.read("jax_enable_x64"))


@contextmanager
def float64() -> Iterator[None]:
    """Run the body with ``jax_enable_x64`` on; the previous setting returns on exit."""
    if float64_enabled():
        yield
        return
    import jax

    with jax.enable_x64(True):
        yield


def uses_float64(fn: F) -> F:
    """Decorator: `fn` computes in float64 whatever the caller's JAX setting."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with float64():
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def enable_float64_globally() -> None:
    """For programs that are nacverify (the CLI, its workers, the test suite): switch the
    whole process to float64. Library code never calls this."""
    import jax

    jax.config.update("jax_enable_x64", True)
