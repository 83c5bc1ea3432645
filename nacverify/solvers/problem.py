r"""Problems every backend can solve: the NAC logit ODE under a regime, or an LTC ODE.

A `Problem` is an initial value problem $y' = F(t, y)$, $y(t_0) = y_0$, saved on a grid
$t_0 < \dots < t_{P-1}$, whose vector field may jump at known times (`breaks`: the step
regime's jump, an irregular input's events). Between breaks $F$ is smooth.

* NAC (seed 001 eq. 1; seed 000 eq. 33): $a' = -\omega(t) a + \phi(t)$ for each of the
  regime's N members (the components of $y$), coefficients from `nacverify.regimes`.
* LTC (seed 002 eq. 7, or eq. 1-2): `nacverify.ltc`.

`vector_field(xp)` returns $F(t, y, \mathrm{ref})$ written against the array namespace ``xp``
(numpy, jax.numpy, or mpmath's), with its parameters converted once; ``ref`` (the midpoint
of the current smooth piece) selects the side of every jump, so a backend that integrates
piece by piece (`pieces()`) evaluates each piece's own smooth field up to its end points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from ..custom_expr import T_SYMBOL, parse_formula
from ..errors import BadInput
from ..ltc import LTCProblem, convert_leaves
from ..regimes import KIND_CODE, SHAPE_PARAMETER, Regime, _shape

__all__ = ["Problem", "nac_problem", "ltc_as_problem", "SEED000", "SEED001", "SEED002"]

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"
SEED002 = "002_02b8eaa764ffef08.txt"


@dataclass(frozen=True, eq=False)
class Problem:
    """One initial value problem on a time grid (see the module docstring)."""

    id: str  # e.g. "nac.step", "ltc.abstract"
    kind: str  # "nac" | "ltc"
    description: str
    source: str
    ts: np.ndarray  # (P,)
    y0: np.ndarray  # (D,)
    breaks: tuple[float, ...] = ()
    regime: Regime | None = None
    ltc: LTCProblem | None = None
    _fields: dict = field(default_factory=dict, repr=False)

    @property
    def dim(self) -> int:
        return int(self.y0.shape[0])

    @property
    def smooth(self) -> bool:
        return not self.breaks

    def pieces(self) -> list[tuple[float, float, float]]:
        """(start, end, ref) of every smooth piece between t0, the breaks and t1."""
        t0, t1 = float(self.ts[0]), float(self.ts[-1])
        edges = [t0, *sorted(b for b in set(self.breaks) if t0 < b < t1), t1]
        return [(a, b, 0.5 * (a + b)) for a, b in zip(edges[:-1], edges[1:])]

    def vector_field(self, xp) -> Callable:
        """F(t, y, ref=None) in the namespace `xp` (cached per namespace)."""
        key = getattr(xp, "__name__", type(xp).__name__)
        if key not in self._fields:
            self._fields[key] = _nac_field(self.regime, xp) if self.kind == "nac" else _ltc_field(self.ltc, xp)
        return self._fields[key]


# ----------------------------------------------------------------------------- NAC


def _custom_functions(regime: Regime, module: str):
    phi = sp.lambdify(T_SYMBOL, parse_formula(str(regime.params["phi"][0])), module)
    omega = sp.lambdify(T_SYMBOL, parse_formula(str(regime.params["omega"][0])), module)
    return phi, omega


def _nac_field(regime: Regime, xp) -> Callable:
    if regime.name == "custom":
        module = "mpmath" if type(xp).__name__ == "_MpNamespace" else ("jax" if getattr(xp, "__name__", "") == "jax.numpy" else "numpy")
        phi_fn, omega_fn = _custom_functions(regime, module)
        return lambda t, y, ref=None: -omega_fn(t) * y + phi_fn(t)
    p = regime.params
    phi0, omega0, ap, aw = (xp.asarray(p[k]) for k in ("phi0", "omega0", "phi_amp", "omega_amp"))
    key = SHAPE_PARAMETER[regime.name]
    shape = xp.asarray(p[key]) if key else xp.asarray(np.zeros_like(p["phi0"]))
    kind, T = regime.name, regime.T

    def F(t, y, ref=None):
        s = ref if (kind == "step" and ref is not None) else t
        g = _shape(KIND_CODE[kind], s / T, shape, xp)
        return -omega0 * (1 + aw * g) * y + phi0 * (1 + ap * g)

    return F


def nac_problem(regime: Regime, ts: np.ndarray | None = None, points: int = 201) -> Problem:
    """The NAC logit ODE (seed 001 eq. 1) for every member of `regime`, from a(0) = a0."""
    ts = np.linspace(0.0, regime.T, points) if ts is None else np.asarray(ts, dtype=np.float64)
    _check_grid(ts)
    return Problem(
        id=f"nac.{regime.name}",
        kind="nac",
        description=f"NAC logit ODE a' = -omega(t) a + phi(t), {regime.description}, {regime.size} member(s)",
        source=f"{SEED001}, eq. 1; {SEED000}, eq. 33 and appendix B.1.2 (regimes)",
        ts=ts,
        y0=np.asarray(regime.params["a0"], dtype=np.float64),
        breaks=tuple(b for b in regime.facts.jump_ts if ts[0] < b < ts[-1]),
        regime=regime,
    )


# ----------------------------------------------------------------------------- LTC


def _ltc_field(ltc: LTCProblem, xp) -> Callable:
    convert = xp.asarray if type(xp).__name__ == "_MpNamespace" else (lambda a: xp.asarray(a, dtype=np.float64))
    model = convert_leaves(ltc.model, convert)
    signal = convert_leaves(ltc.signal, convert)
    rhs = type(model).rhs  # looked up on the class: `model.rhs` builds an equinox bound-method Module per call (most of a call's cost)
    return lambda t, y, ref=None: rhs(model, t, y, signal, ref, xp)


def ltc_as_problem(ltc: LTCProblem, ts: np.ndarray | None = None, points: int = 201) -> Problem:
    """An LTC problem (seed 002 eq. 7 or eq. 1-2) as a solver `Problem`."""
    ts = np.linspace(0.0, ltc.T, points) if ts is None else np.asarray(ts, dtype=np.float64)
    _check_grid(ts)
    source = f"{SEED002}, eq. 7 (2021 eq. 1), f as eq. 9a" if ltc.form == "abstract" else f"{SEED002}, eq. 1-2 and eq. 4-6 (2018)"
    return Problem(
        id=f"ltc.{ltc.form}.{ltc.params['input']}",
        kind="ltc",
        description=ltc.description,
        source=source,
        ts=ts,
        y0=np.asarray(ltc.x0, dtype=np.float64),
        breaks=tuple(b for b in ltc.jump_ts if ts[0] < b < ts[-1]),
        ltc=ltc,
    )


def _check_grid(ts: np.ndarray) -> None:
    if ts.ndim != 1 or ts.shape[0] < 2:
        raise BadInput("the time grid needs at least two points")
    if not np.all(np.isfinite(ts)) or not np.all(np.diff(ts) > 0):
        raise BadInput("the time grid must be finite and strictly increasing")
