"""What one frozen-coefficient run is asked to do: the solver options and the regime
instance (`RegimeSpec`, hashable, as the CLI options describe it).

`RegimeSpec.build` turns a spec into a `nacverify.regimes.Regime` (named families, or a
custom pair of formulas parsed by `nacverify.custom_expr`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..errors import BadInput
from ..regimes import NAMED_REGIMES, Regime, custom_regime, named_regime

__all__ = ["SolveOptions", "RegimeSpec", "regime_specs"]


@dataclass(frozen=True)
class SolveOptions:
    rtol: float = 1e-10
    atol: float = 1e-12
    points: int = 1001
    rel_floor: float = 1e-9
    backend: str = "diffrax"  # reference solver of single runs (nacverify.solvers); sweeps always use diffrax

    def __post_init__(self) -> None:
        from ..solvers import get_backend

        get_backend(self.backend)  # BadInput for an unknown name
        for name in ("rtol", "atol", "rel_floor"):
            value = getattr(self, name)
            if not (np.isfinite(value) and value > 0):
                raise BadInput(f"--{name.replace('_', '-')} must be a positive finite number, got {value}")
        if self.rtol < 1e-13:
            raise BadInput(f"--rtol {self.rtol:g} is below what float64 can deliver (use >= 1e-13)")
        if self.points < 3:
            raise BadInput(f"--points must be >= 3, got {self.points}")

    #: float64 arrays of length `points` that one regime's run holds at once: the grid, phi, omega,
    #: both solves and their difference, the frozen solution, both errors, the bound and its work arrays
    ARRAYS_PER_POINT = 16

    def check_memory(self) -> None:
        """Refuse, before any work, a grid whose arrays cannot fit in the memory available now
        (`EnvironmentProblem`, exit 3): an impossible allocation must not start a run that dies later
        (or, where the kernel overcommits, is killed outright)."""
        import psutil

        from ..errors import EnvironmentProblem

        needed = self.points * 8 * self.ARRAYS_PER_POINT
        available = psutil.virtual_memory().available
        if needed > available:
            raise EnvironmentProblem(f"out of memory: --points {self.points} needs about {needed / 2**30:.3g} GiB of arrays per regime, "
                                     f"{available / 2**30:.3g} GiB are available")


@dataclass(frozen=True)
class RegimeSpec:
    """A hashable description of one regime instance (what the CLI options say)."""

    name: str
    T: float = 1.0
    phi0: float = 0.5
    omega0: float = 1.0
    phi_variation_pct: float | None = None
    omega_variation_pct: float | None = None
    shape: float | None = None
    a0: float = 0.0
    phi_formula: str | None = None
    omega_formula: str | None = None

    def build(self) -> Regime:
        if self.name == "custom":
            if not self.phi_formula or not self.omega_formula:
                raise BadInput("--regime custom needs both --phi EXPR and --omega EXPR")
            return custom_regime(self.phi_formula, self.omega_formula, T=self.T, a0=self.a0)
        return named_regime(
            self.name,
            T=self.T,
            phi0=self.phi0,
            omega0=self.omega0,
            phi_variation_pct=self.phi_variation_pct,
            omega_variation_pct=self.omega_variation_pct,
            shape=self.shape,
            a0=self.a0,
        )

    @property
    def is_default(self) -> bool:
        return self == RegimeSpec(self.name)

    @property
    def constant_coefficients(self) -> bool:
        """Whether phi and omega are provably constant in t, so that the frozen solution is the
        exact one and eps = 0 identically: a named family with both variations given as exactly 0
        (phi = phi0 (1 + 0 g(t)) = phi0), or custom formulas that SymPy proves free of t
        (`nacverify.custom_expr.is_constant_in_t`). False when that is not proved."""
        if self.name == "custom":
            return bool(self.phi_formula and self.omega_formula) and _formula_constant(self.phi_formula) and _formula_constant(self.omega_formula)
        return self.phi_variation_pct == 0 and self.omega_variation_pct == 0


@functools.lru_cache(maxsize=64)
def _formula_constant(text: str) -> bool:
    from ..custom_expr import is_constant_in_t, parse_formula

    return is_constant_in_t(parse_formula(text))


def regime_specs(
    choice: str,
    *,
    T: float = 1.0,
    phi0: float = 0.5,
    omega0: float = 1.0,
    a0: float = 0.0,
    phi_variation_pct: float | None = None,
    omega_variation_pct: float | None = None,
    rate: float | None = None,
    jump_at: float | None = None,
    cycles: float | None = None,
    phi: str | None = None,
    omega: str | None = None,
) -> list[RegimeSpec]:
    """The RegimeSpecs a command's regime options describe (`choice`: a regime name,
    "custom" or "all"), after checking that the options fit together; `BadInput` with
    the option's name otherwise."""
    numbers = {"T": T, "phi0": phi0, "omega0": omega0, "a0": a0, "phi-variation": phi_variation_pct,
               "omega-variation": omega_variation_pct, "rate": rate, "jump-at": jump_at, "cycles": cycles}
    for name, value in numbers.items():
        if value is not None and not np.isfinite(value):
            raise BadInput(f"--{name} must be finite, got {value}")
    names = list(NAMED_REGIMES) if choice == "all" else [choice]
    shape_opts = {"fast": ("rate", rate), "step": ("jump-at", jump_at), "oscillatory": ("cycles", cycles)}
    for regime, (opt, value) in shape_opts.items():
        if value is not None and regime not in names:
            raise BadInput(f"--{opt} applies to the {regime} regime only")
    if choice == "custom":
        if phi is None or omega is None:
            raise BadInput("--regime custom needs both --phi EXPR and --omega EXPR")
        return [RegimeSpec("custom", T=T, a0=a0, phi_formula=phi, omega_formula=omega)]
    if phi is not None or omega is not None:
        raise BadInput("--phi/--omega formulas need --regime custom")
    return [
        RegimeSpec(name, T=T, phi0=phi0, omega0=omega0, phi_variation_pct=phi_variation_pct, omega_variation_pct=omega_variation_pct,
                   shape=shape_opts.get(name, (None, None))[1], a0=a0)
        for name in names
    ]
