r"""Where the time of one NAC call goes: the stage split (`nacverify bench --profile`, issue 45).

The stages of a call are `nacverify.model.nac.STAGES`: ``projections`` (q, k, v through the
sensory gates, the per-token parts of the backbone and pseudo-time maps, the packed key table),
``selection`` (scores $QK^\top$ and Top-K), ``gather`` (the selected keys' quantities),
``backbone`` (pair sums, the backbone's motor outputs, $\phi$, $\omega_\tau$, $t_{pseudo}$),
``closed_form`` (the logits, eq. 17/2/18), ``softmax``, ``value_sum`` ($\sum_j \alpha_{ij} v_j\,\delta t$)
and ``output`` (the Dense output projection).

Method: the model's own program, truncated after each stage (``NAC._run(..., stop=stage)``: the
truncated program returns the stage's outputs summed per query, so XLA computes all of them and
little more), is compiled and timed like a bench row (one warm-up, then `repeats` calls, each
ending in ``block_until_ready``). A stage's time is the best time of the program truncated after
it minus the best time of the one truncated before it; the best (minimum) rather than the median,
since the differences of two noisy medians on a shared machine can be negative. The last
cumulative time is the whole call's. The split is a measurement of compiled programs: XLA fuses
across stage boundaries, so a stage's time is what adding it costs, not an isolated kernel's time,
and a truncated program can fuse differently from the whole call (e.g. the sum that probes the
softmax may recompute its exponentials, which the value sum's dot does not): a stage that costs
more than the whole call's share, followed by a negative one, is such an artifact; read the two
together. On a shared machine, compare splits measured in the same run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..model import NAC
from ..model.nac import STAGES

__all__ = ["StageSplit", "stage_split", "METHOD"]

METHOD = ("the model's program truncated after each stage (NAC._run stop=stage), compiled and timed; "
          "stage time = best of repeats truncated after it - best truncated before it")


@dataclass(frozen=True)
class StageSplit:
    """Cumulative best times (s) of the programs truncated after each stage, and the stage times."""

    stages: tuple[str, ...]
    cumulative_s: np.ndarray
    repeats: int

    @property
    def stage_s(self) -> np.ndarray:
        return np.diff(np.concatenate([[0.0], self.cumulative_s]))

    @property
    def total_s(self) -> float:
        return float(self.cumulative_s[-1])

    def section(self) -> dict:
        """Attributes of the report group ``/bench/profile/<row>`` (reports/SCHEMA.md)."""
        return {
            "stages": ",".join(self.stages),
            "stage_ms": self.stage_s * 1e3,
            "cumulative_ms": self.cumulative_s * 1e3,
            "stage_fraction": self.stage_s / self.total_s,
            "total_ms": self.total_s * 1e3,
            "repeats": self.repeats,
            "method": METHOD,
        }


def _best_time(fn, args, repeats: int) -> float:
    jax.block_until_ready(fn(*args))  # warm-up
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        best = min(best, time.perf_counter() - start)
    return float(best)


def stage_split(model: NAC, x: jax.Array, repeats: int = 5) -> StageSplit:
    """The stage split of ``model(x)`` (module docstring): all queries with ``return_sequences``, else the last."""
    params, static = eqx.partition(model, eqx.is_array)
    all_queries = model.config.return_sequences
    x = jnp.asarray(x, model.out_proj.weight.dtype)
    cumulative = []
    for stop in STAGES:
        def truncated(p, x_, stop=stop):
            return eqx.combine(p, static)._run(x_, None, None, all_queries, trace=False, stop=stop)[0]

        compiled = jax.jit(truncated).lower(params, x).compile()
        cumulative.append(_best_time(compiled, (params, x), repeats))
    return StageSplit(STAGES, np.asarray(cumulative), int(repeats))
