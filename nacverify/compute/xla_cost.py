"""XLA's operation counts of a program, counted where they are defined: on the CPU backend.

A FLOP count is a property of the program, not of the device that would run it, but XLA's
answer is not: on a GPU (a PJRT plugin) the cost analysis of a lowered program is not
implemented and that of a compiled one may be absent or counted after GPU-specific fusion. So
every count is taken from the program lowered (and, where asked, compiled) for the CPU, which
every JAX installation has: the same numbers on a laptop, a CI runner and a GPU machine.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["cpu_cost_analysis", "cpu_flops"]


def _on_cpu(args: tuple) -> tuple:
    import jax
    from jax.sharding import SingleDeviceSharding

    sharding = SingleDeviceSharding(jax.devices("cpu")[0])
    return jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=sharding), args)


def cpu_cost_analysis(fn: Callable[..., Any], *args: Any, compiled: bool = False) -> dict[str, float]:
    """XLA's cost analysis of ``jax.jit(fn)`` at `args` (arrays or ``ShapeDtypeStruct``s), lowered for
    the CPU; with `compiled`, of the CPU-compiled program (after XLA's CPU optimisations). Where the
    command line keeps traced programs (`nacverify.compute.program_cache`) and `fn` can be named (a
    module-level function, or a `functools.partial` of one), the lowered program is read back
    instead of traced again: the same StableHLO, called from a one-call wrapper, whose counts are
    those of the program (tests/test_program_cache.py compares them)."""
    import jax

    from . import program_cache

    with jax.default_device(jax.devices("cpu")[0]):
        specs = _on_cpu(args)
        stored = None if compiled else program_cache.cpu_program(fn, specs)
        lowered = jax.jit(stored.call).lower(*program_cache.inputs(specs)) if stored is not None else jax.jit(fn).lower(*specs)
        cost = lowered.compile().cost_analysis() if compiled else lowered.cost_analysis()
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else None
    if not cost:
        raise RuntimeError("XLA's CPU backend gave no cost analysis for this program")
    return dict(cost)


def cpu_flops(fn: Callable[..., Any], *args: Any, compiled: bool = False) -> float:
    """The ``flops`` entry of `cpu_cost_analysis`."""
    return float(cpu_cost_analysis(fn, *args, compiled=compiled)["flops"])
