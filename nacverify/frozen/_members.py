"""One draw of a sweep, re-run singly: its `RegimeSpec` recomputed from the sweep's seed and the
draw's index (draw i is ``sample_draws(name, seed, i, i + 1)``, a function of the seed and i
alone), or from the parameters a witness holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BadInput
from ..regimes import sample_draws
from ._specs import RegimeSpec

if TYPE_CHECKING:
    from ._sweep import SweepRun

__all__ = ["member_spec", "witness_spec", "member_spec_from"]


def member_spec(sweep: SweepRun, index: int) -> RegimeSpec:
    """The RegimeSpec of draw `index` of a sweep, recomputed from its seed (to re-run it singly)."""
    spec = sweep.spec
    if not 0 <= index < spec.n:
        raise BadInput(f"draw {index} is outside the sweep's {spec.n} draws")
    p = sample_draws(spec.name, spec.seed, index, index + 1, T=spec.T, a0=spec.a0).params
    return member_spec_from(spec.name, spec.T, {k: float(v[0]) for k, v in p.items()})


def witness_spec(sweep: SweepRun, bound: str) -> RegimeSpec:
    """The RegimeSpec of the draw of largest tightness for `bound` (to re-run it singly)."""
    return member_spec_from(sweep.spec.name, sweep.spec.T, sweep.worst[bound].params)


def member_spec_from(name: str, T: float, p: dict[str, float | str]) -> RegimeSpec:
    """The RegimeSpec of one draw from its parameters (as a witness holds them)."""
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    return RegimeSpec(
        name,
        T=T,
        phi0=float(p["phi0"]),
        omega0=float(p["omega0"]),
        phi_variation_pct=float(100 * p["phi_amp"]),
        omega_variation_pct=float(100 * p["omega_amp"]),
        shape=float(p[shape_key]) if shape_key else None,
        a0=float(p["a0"]),
    )
