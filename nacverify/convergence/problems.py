r"""The initial value problems of the convergence study, each a `nacverify.solvers.problem.Problem`
on $[0, T]$ with the methods that apply to it.

| id | equation | setting |
| --- | --- | --- |
| ``nac.slow``, ``nac.fast``, ``nac.oscillatory`` | seed 001 eq. 1, $a' = -\omega(t) a + \phi(t)$ | `nacverify.regimes` defaults (Table 2 variations), $T = 1$ |
| ``nac.custom`` | the same with ``--phi`` / ``--omega`` formulas | default $\phi = 0.5 + 0.3\sin 3t$, $\omega = 1 + t^2$ |
| ``nac.step.given``, ``nac.step.hidden`` | step regime, jump at $t = 0.3$ | 0.3 is on no dyadic grid $T/2^k$ |
| ``ltc.sigmoid``, ``ltc.tanh`` | seed 002 eq. 7, $f = \sigma$ or $\tanh$ | 4 neurons, 2 inputs, smooth input, $\tau \in [0.1, 1]$ |
| ``ltc.biophysical`` | seed 002 eq. 1-2 | parameters inside table 12's ranges (`nacverify.ltc.random_biophysical_ltc`) |
| ``ltc.jumps.given``, ``ltc.jumps.hidden`` | eq. 7 (sigmoid) | sample-and-hold input, 5 jumps at irregular times |
| ``ltc.stiff`` | eq. 7 (sigmoid) | $\tau \in [10^{-3}, 10^{-2}]$, $T = 0.1$ |
| ``authors.cell`` | eq. 1-2 with the input held | the LTC authors' cell between two input steps |

**Jumps given or hidden.** A piecewise-constant input makes the vector field discontinuous in $t$.
A method "told the jump times" steps piece by piece: each smooth piece $[a, b]$ gets
$\lceil (b - a)/\Delta t \rceil$ equal steps and its own smooth field (the field evaluated at the
piece's midpoint `ref`, `Problem.pieces`), as a grid that contains the jumps or diffrax's
``jump_ts`` would. A method not told steps $t_n = n \Delta t$ across them and evaluates the input
at each stage's own time. Inside the step $[t_n, t_n + \Delta t]$ that holds a jump, the local
error is $O(\Delta t)$ (the integrand of $\int f$ is wrong on a set of length up to $\Delta t$),
not $O(\Delta t^{p+1})$; a fixed number of jumps contributes $O(\Delta t)$ to the global error, so
every method of order $p \ge 1$ is observed at order 1 (`expected_order`).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from ..errors import BadInput
from ..ltc import LTCProblem, SmoothInput, irregular_input, ltc_problem, random_abstract_ltc, smooth_input
from ..regimes import custom_regime, named_regime
from ..solvers.problem import SEED001, SEED002, Problem, ltc_as_problem, nac_problem

__all__ = ["StudyProblem", "PROBLEMS", "QUICK_PROBLEMS", "DEFAULT_PHI", "DEFAULT_OMEGA", "STEP_JUMP", "study_problem", "study_problems"]

DEFAULT_PHI = "0.5 + 0.3*sin(3*t)"
DEFAULT_OMEGA = "1 + t**2"
STEP_JUMP = 0.3  # the step regime's jump: 0.3 = 3/10 is on no grid T / 2^k
STIFF_TAU = (1e-3, 1e-2)
STIFF_T = 0.1

PROBLEMS = ("nac.slow", "nac.fast", "nac.oscillatory", "nac.custom", "nac.step.given", "nac.step.hidden", "ltc.sigmoid", "ltc.tanh",
            "ltc.biophysical", "ltc.jumps.given", "ltc.jumps.hidden", "ltc.stiff", "authors.cell")
QUICK_PROBLEMS = ("nac.oscillatory", "nac.step.hidden")


@dataclass(frozen=True, eq=False)
class StudyProblem:
    """A problem of the study: the solver problem, whether fixed-step methods are told its jumps
    (`jumps_given`), and what family of methods applies (``nac``, ``ltc`` (abstract eq. 7),
    ``biophysical`` or ``authors``)."""

    id: str
    family: str
    problem: Problem
    jumps_given: bool
    setting: str

    @property
    def T(self) -> float:
        return float(self.problem.ts[-1])

    @property
    def has_jumps(self) -> bool:
        return bool(self.problem.breaks)

    @property
    def hidden_jumps(self) -> bool:
        return self.has_jumps and not self.jumps_given


def _ends(T: float) -> np.ndarray:
    return np.array([0.0, T])


def _nac(pid: str, phi: str, omega: str) -> StudyProblem:
    name = pid.split(".")[1]
    if name == "custom":
        regime = custom_regime(phi, omega)
        setting = f"phi(t) = {phi}, omega(t) = {omega}"
    elif name == "step":
        regime = named_regime("step", shape=STEP_JUMP)
        setting = f"step regime, jump at t = {STEP_JUMP:g} (" + ("given to the solver)" if pid.endswith("given") else "hidden from the solver)")
    else:
        regime = named_regime(name)
        setting = f"{name} regime, Table 2 variations"
    return StudyProblem(pid, "nac", nac_problem(regime, _ends(regime.T)), not pid.endswith("hidden"), setting)


def _held_input_cell(seed: int) -> LTCProblem:
    """The biophysical cell with the input held at one value (the LTC authors' cell between two input steps)."""
    base = ltc_problem("biophysical", neurons=4, inputs=2, seed=seed)
    held = smooth_input(2, seed)
    signal = SmoothInput(1.0, held.offset + jnp.sum(held.amp * jnp.sin(held.phase), axis=0), jnp.zeros_like(held.amp), held.freq, held.phase)
    return LTCProblem("biophysical", base.model, signal, base.x0, 1.0, {**base.params, "input": "held"})


def _ltc(pid: str, seed: int) -> StudyProblem:
    if pid in ("ltc.sigmoid", "ltc.tanh"):
        act = pid.split(".")[1]
        ltc = ltc_problem("abstract", activation=act, seed=seed)
        return StudyProblem(pid, "ltc", ltc_as_problem(ltc, _ends(ltc.T)), True, f"eq. 7, f = {act}, smooth input")
    if pid == "ltc.biophysical":
        ltc = ltc_problem("biophysical", seed=seed)
        return StudyProblem(pid, "biophysical", ltc_as_problem(ltc, _ends(ltc.T)), True, "eq. 1-2, smooth input")
    if pid.startswith("ltc.jumps"):
        ltc = ltc_problem("abstract", input_kind="irregular", seed=seed)
        given = pid.endswith("given")
        return StudyProblem(pid, "ltc", ltc_as_problem(ltc, _ends(ltc.T)), given,
                            f"eq. 7, sample-and-hold input, {len(ltc.jump_ts)} jumps " + ("given to the solver" if given else "hidden from the solver"))
    if pid == "ltc.stiff":
        base = ltc_problem("abstract", seed=seed)
        model = random_abstract_ltc(4, 2, seed, tau_range=STIFF_TAU)
        ltc = LTCProblem("abstract", model, smooth_input(2, seed, T=STIFF_T), np.zeros(4), STIFF_T, {**base.params, "tau": "[1e-3, 1e-2]"})
        return StudyProblem(pid, "ltc", ltc_as_problem(ltc, _ends(STIFF_T)), True, f"eq. 7, tau in [1e-3, 1e-2], T = {STIFF_T:g} (stiff)")
    if pid == "authors.cell":
        ltc = _held_input_cell(seed)
        return StudyProblem(pid, "authors", ltc_as_problem(ltc, _ends(ltc.T)), True, "eq. 1-2 with the input held (the authors' cell between input steps)")
    raise BadInput(f"unknown problem {pid!r}; choose from {', '.join(PROBLEMS)}")


def study_problem(pid: str, *, phi: str = DEFAULT_PHI, omega: str = DEFAULT_OMEGA, seed: int = 0) -> StudyProblem:
    """The problem `pid` (one of `PROBLEMS`)."""
    if pid not in PROBLEMS:
        raise BadInput(f"unknown problem {pid!r}; choose from {', '.join(PROBLEMS)}")
    return _nac(pid, phi, omega) if pid.startswith("nac.") else _ltc(pid, seed)


def study_problems(ids, **kwargs) -> list[StudyProblem]:
    return [study_problem(pid, **kwargs) for pid in ids]


SOURCES = {"nac": f"{SEED001}, eq. 1-3", "ltc": f"{SEED002}, eq. 7-9", "biophysical": f"{SEED002}, eq. 1-2",
           "authors": f"{SEED002}, eq. 1-2 and the authors' LTCCell (reports/LTC_AUDIT_FORMAT.md)"}
