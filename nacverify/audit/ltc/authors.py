r"""Runs of the LTC authors' own TF1 cell read as LTC-cell exports (reports/LTC_AUDIT_FORMAT.md,
"The LTC authors' TF1 cell").

The paper's authors published ``LTCCell`` in ``experiments_with_ltcs/ltc_model.py`` of
raminmh/liquid_time_constant_networks: TensorFlow 1 variables ``sensory_mu``, ``sensory_sigma``,
``sensory_W``, ``sensory_erev`` [M, N], ``mu``, ``sigma``, ``W``, ``erev`` [N, N] (presynaptic
row, postsynaptic column, as ncps), ``vleak``, ``gleak``, ``cm_t`` [N], and the Affine input
mapping ``input_w``, ``input_b`` [M]. A file holding those names (recognised by ``cm_t``) is
converted here to the format's names and time convention.

**Their time convention.** Their cell takes no elapsed time. Its fused step (``_ode_step``) is

$$v \leftarrow \frac{c\,v + G V + \sum g E}{c + G + \sum g},\qquad c = \texttt{cm\_t},$$

and the implicit Euler step of eq. 1, $C_m (v' - v)/\Delta t = G(V - v') + \sum g (E - v')$, solved
for $v'$ is exactly this with $c = C_m/\Delta t$: so ``cm_t`` is $C_m/\Delta t$ and only the ratio is
fixed. Their Euler step (``_ode_step_explicit``) is $v \leftarrow v + 0.1\,f'$ with
$f' = (G(V - v) + \sum g (E - v))/\texttt{cm\_t}$, i.e. $v + h\,\dot v$ with
$\dot v = I(v)/C_m$ and $h/C_m = 0.1/\texttt{cm\_t}$; their RK4 step (``_ode_step_runge_kutta``) uses
the same $f'$ with ``h = 0.1``. Measuring time in the unit in which the fused step's $\Delta t$
is 1 gives $C_m = \texttt{cm\_t}$, and then one unfold is $\Delta t = 1$ (fused) and $h = 0.1$
(Euler, RK4): per input step, with 6 unfolds, the fused solver integrates the ODE over 6 such
units of time and the other two over 0.6. The conversion therefore sets ``cm = cm_t``,
``solver_step`` = 1 (fused) or 0.1 (euler, rk4), ``elapsed`` = ode_unfolds x solver_step; any
other unit of time scales $C_m$ and the elapsed times together and changes no number of the audit.

**Defaults of their class** where the file says nothing: 6 unfolds (``_ode_solver_unfolds``), the
SemiImplicit (fused) solver, no epsilon, no run-time constraints (their
``get_param_constraint_op`` clips after each training step), no output mapping (the cell's
output is its state). The states: ``states`` [T, B, N] as ``tf.nn.dynamic_rnn`` returns them
(the state after each step) from ``initial_state`` [B, N] (default zeros, dynamic_rnn's zero
state), or [T+1, B, N] with the initial state first; a file holding one run per solver names
them ``states_semi``, ``states_explicit``, ``states_rk4`` (as nacverify's copy of such a run,
nacverify/data/reference/ltc_authors_tf1_run.npz), and the declared solver picks its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...errors import BadInput
from .solver_names import solver_name

__all__ = ["AUTHORS_CONVENTION", "AUTHORS_RUN_FILE", "shipped_authors_run", "AUTHORS_NAMES", "AUTHORS_STEPS", "AUTHORS_UNFOLDS", "STATES_BY_SOLVER", "is_authors_run",
           "authors_entries"]

AUTHORS_CONVENTION = "ltc-authors-tf1"
#: the authors' variable names that differ from the format's
AUTHORS_NAMES = {"cm_t": "cm", "W": "w", "sensory_W": "sensory_w"}
#: the step h of one unfold in their time convention (module docstring): C_m = cm_t
AUTHORS_STEPS = {"fused": 1.0, "euler": 0.1, "rk4": 0.1}
AUTHORS_UNFOLDS = 6  # LTCCell._ode_solver_unfolds
#: per-solver state arrays of a file that holds one run per solver
STATES_BY_SOLVER = {"fused": "states_semi", "euler": "states_explicit", "rk4": "states_rk4"}
_NOT_THEIRS = ("cm", "w", "sensory_w", "elapsed", "epsilon", "implicit_param_constraints", "sparsity_mask", "sensory_sparsity_mask",
               "output_w", "output_b")


def is_authors_run(entries: Mapping[str, Any]) -> bool:
    """True for a file in the authors' names (it holds ``cm_t``, their capacitance-over-step)."""
    return "cm_t" in entries


def authors_entries(entries: Mapping[str, Any], source: str = "<arrays>", *, solver: str | None = None) -> tuple[dict[str, Any], dict[str, float]]:
    """The format's entries for a run of the authors' cell (module docstring), and the step each
    solver has in their convention (for comparing a run with the other solvers). `solver` (any
    spelling of nacverify.audit.ltc.format.SOLVER_ALIASES) declares the solver when the file does not."""
    clash = [n for n in _NOT_THEIRS if n in entries]
    if clash:
        why = ("their cell takes no elapsed time: cm_t = C_m/dt already holds the step" if "elapsed" in clash
               else "the authors' cell has none of these; their names are cm_t, W, sensory_W")
        raise BadInput(f"{source}: a run in the LTC authors' names (cm_t) also holds {', '.join(clash)} ({why}); "
                       "export either their names or the format's")
    declared = solver_name(entries["solver"], source) if "solver" in entries else None
    given = solver_name(solver, source) if solver is not None else None
    if declared and given and declared != given:
        raise BadInput(f"{source}: the file declares solver {declared}, --solver says {given}")
    chosen = declared or given or "fused"
    out: dict[str, Any] = {AUTHORS_NAMES.get(k, k): v for k, v in entries.items() if k not in STATES_BY_SOLVER.values()}
    out["solver"] = chosen
    out.setdefault("ode_unfolds", AUTHORS_UNFOLDS)
    steps = dict(AUTHORS_STEPS)
    if "solver_step" in entries:
        if chosen == "fused":
            raise BadInput(f"{source}: solver_step is the Euler/RK4 step h of the authors' code; their fused step's dt is 1 by "
                           "construction (cm_t = C_m/dt; reports/LTC_AUDIT_FORMAT.md)")
        h = float(np.asarray(entries["solver_step"]).reshape(()))
        steps.update(euler=h, rk4=h)
    out["solver_step"] = steps[chosen]
    out["states"] = _states(entries, source, chosen)
    out.pop("initial_state", None)
    out.setdefault("implementation", f"LTC authors' ltc_model.py LTCCell (TF1), solver {chosen}")
    return out, steps


def _states(entries: Mapping[str, Any], source: str, solver: str) -> np.ndarray:
    """[T+1, B, N] states: `states` or the solver's own array, with the initial state first."""
    name = "states" if "states" in entries else STATES_BY_SOLVER[solver]
    if name not in entries:
        have = [n for n in STATES_BY_SOLVER.values() if n in entries]
        raise BadInput(f"{source}: no states for solver {solver} ({STATES_BY_SOLVER[solver]} or states missing"
                       + (f"; the file holds {', '.join(have)}: pass the matching --solver" if have else "") + ")")
    states = np.asarray(entries[name])
    inputs = np.asarray(entries.get("inputs", np.zeros((0, 0, 0))))
    if states.ndim != 3 or inputs.ndim != 3:
        raise BadInput(f"{source}: {name} must be [T, B, N] (or [T+1, B, N]) and inputs [T, B, M], got {list(states.shape)} and {list(inputs.shape)}")
    if states.shape[0] == inputs.shape[0] + 1:
        if "initial_state" in entries:
            raise BadInput(f"{source}: {name} already starts with the initial state ([T+1, B, N]); drop initial_state")
        return states
    if states.shape[0] != inputs.shape[0]:
        raise BadInput(f"{source}: {name} has {states.shape[0]} steps, inputs {inputs.shape[0]}: expected T or T+1")
    if "initial_state" in entries:
        h0 = np.asarray(entries["initial_state"], dtype=states.dtype)
        if h0.shape != states.shape[1:]:
            raise BadInput(f"{source}: initial_state has shape {list(h0.shape)}, expected [B, N] = {list(states.shape[1:])}")
    else:
        h0 = np.zeros(states.shape[1:], dtype=states.dtype)  # tf.nn.dynamic_rnn's zero_state
    return np.concatenate([h0[None], states])


AUTHORS_RUN_FILE = "ltc_authors_tf1_run.npz"


def shipped_authors_run() -> "Path":
    """The package's copy of shared/reference's run of the authors' cell (package data of
    ``nacverify.data``, byte for byte; LTC_AUTHORS_RUN.md beside it says how it was made)."""
    from importlib import resources
    from pathlib import Path

    return Path(str(resources.files("nacverify.data").joinpath("reference", AUTHORS_RUN_FILE)))
