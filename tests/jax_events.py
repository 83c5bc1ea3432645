"""What JAX did while a function ran, from its own event timings (`jax.monitoring`): for tests that
a program is compiled once, or read back from a cache without a trace."""

from __future__ import annotations

from typing import Any, Callable

import jax
from jax import monitoring

TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"


def traced_names(fn: Callable[..., Any], *args: Any) -> tuple[Any, list[str]]:
    """(fn(*args), blocked until ready; the names of the functions JAX traced meanwhile)."""
    names: list[str] = []

    def listener(event, _duration, **kwargs):
        if event == TRACE_EVENT:
            names.append(str(kwargs.get("fun_name")))

    monitoring.register_event_duration_secs_listener(listener)
    try:
        out = jax.block_until_ready(fn(*args))
    finally:
        monitoring.unregister_event_duration_listener(listener)
    return out, names
