r"""NCP wirings and the neuron groups of the repurposed NCP cell (seed 001, Algorithm 1).

The wiring itself comes from ``ncps.wirings`` (ncps 1.0.1; its wiring classes are plain
NumPy and import neither torch nor TensorFlow). Groups are derived from the *built*
wiring exactly as the public implementation does (shared/reference/REFERENCE_IMPLEMENTATION.md):

* ``sensory``: neurons that receive any sensory synapse (in an NCP: ncps's inter layer);
* ``motor``: the first ``output_dim`` neurons;
* of the rest, ``inter``: no incoming synapse from the rest; ``command``: at least one.

Unit formulas of the public implementation (d = d_model):

$$\text{projection units} = \lceil (d - 0.5)/0.6 \rceil \;(\text{sensory group} = d \text{ neurons}),\qquad
\text{backbone units} = d + \lfloor d/0.6 \rfloor .$$
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import BadInput

__all__ = ["GROUPS", "Wiring", "auto_ncp", "from_ncps", "projection_units", "backbone_units"]

GROUPS = ("sensory", "inter", "command", "motor")
DEFAULT_WIRING_SEED = 22222  # ncps.wirings.AutoNCP's default seed


def projection_units(d_model: int) -> int:
    """Units of the q/k/v projection wiring: its sensory group is exactly d_model wide."""
    return int(math.ceil((d_model - 0.5) / 0.6))


def backbone_units(d_model: int) -> int:
    """Units of the backbone wiring of the public implementation."""
    return int(d_model + math.floor(d_model / 0.6))


@dataclass(frozen=True)
class Wiring:
    """A built wiring: synapse polarities and neuron groups (all NumPy, static).

    ``adjacency[i, j]`` is the polarity (-1, 0, +1) of the synapse from neuron i to j,
    ``sensory_adjacency[f, j]`` the one from input feature f to neuron j."""

    adjacency: np.ndarray  # (units, units) int
    sensory_adjacency: np.ndarray  # (input_dim, units) int
    output_dim: int
    groups: dict[str, tuple[int, ...]]

    @property
    def units(self) -> int:
        return int(self.adjacency.shape[0])

    @property
    def input_dim(self) -> int:
        return int(self.sensory_adjacency.shape[0])

    def indices(self, names: Iterable[str]) -> tuple[int, ...]:
        """Sorted union of the named groups."""
        out: set[int] = set()
        for name in names:
            if name not in self.groups:
                raise BadInput(f"unknown neuron group {name!r}; choose from {', '.join(GROUPS)}")
            out.update(self.groups[name])
        return tuple(sorted(out))


def derive_groups(adjacency: np.ndarray, sensory_adjacency: np.ndarray, output_dim: int) -> dict[str, tuple[int, ...]]:
    """Groups by the public implementation's rules (module docstring)."""
    units = adjacency.shape[0]
    sensory = {j for j in range(units) if np.any(sensory_adjacency[:, j] != 0)}
    motor = set(range(output_dim))
    rest = [j for j in range(units) if j not in sensory and j not in motor]
    rest_arr = np.asarray(rest, dtype=int)
    inter, command = [], []
    for j in rest:
        incoming = adjacency[rest_arr, j] != 0 if rest else np.zeros(0, bool)
        (command if np.any(incoming) else inter).append(j)
    return {
        "sensory": tuple(sorted(sensory)),
        "inter": tuple(inter),
        "command": tuple(command),
        "motor": tuple(sorted(motor)),
    }


def from_ncps(wiring) -> Wiring:
    """Convert a *built* ``ncps.wirings`` wiring (any subclass) into a `Wiring`."""
    if getattr(wiring, "sensory_adjacency_matrix", None) is None:
        raise BadInput("the ncps wiring is not built (call wiring.build(input_dim) first)")
    adjacency = np.asarray(wiring.adjacency_matrix, dtype=np.int64)
    sensory = np.asarray(wiring.sensory_adjacency_matrix, dtype=np.int64)
    output_dim = int(wiring.output_dim or 0)
    return Wiring(adjacency, sensory, output_dim, derive_groups(adjacency, sensory, output_dim))


def auto_ncp(units: int, output_size: int, sparsity: float, input_dim: int, seed: int = DEFAULT_WIRING_SEED) -> Wiring:
    """``ncps.wirings.AutoNCP(units, output_size, sparsity, seed)`` built for ``input_dim`` features."""
    from ncps.wirings import AutoNCP

    try:
        w = AutoNCP(units, output_size, sparsity_level=sparsity, seed=seed)
        w.build(input_dim)
    except ValueError as exc:  # ncps rejects e.g. sparsity < 0.1 or too few units
        raise BadInput(f"ncps AutoNCP({units}, {output_size}, sparsity={sparsity}): {exc}") from None
    return from_ncps(w)
