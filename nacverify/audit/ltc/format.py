r"""The LTC-cell exchange format of `nacverify audit-ltc` (reports/LTC_AUDIT_FORMAT.md).

One biophysical LTC cell (seed 002 eq. 1-2, in the parameter layout of ``ncps``) and one run
of it: T steps, batch B, N units, M sensory inputs, motor (output) size K <= N.

==========================  ==========  ===================================================
name                        shape       meaning
==========================  ==========  ===================================================
``cm``                      [N]         membrane capacitance C_m (raw, before make_positive)
``gleak``                   [N]         leak conductance G_leak (raw)
``vleak``                   [N]         leak potential V_leak
``w``                       [N, N]      synaptic conductance, [presynaptic j, postsynaptic i] (raw)
``sigma``                   [N, N]      sigmoid slope (seed 002: gamma)
``mu``                      [N, N]      sigmoid midpoint, ncps sign (seed 002: mu_002 = -mu)
``erev``                    [N, N]      reversal potential E
``sensory_w``               [M, N]      sensory conductance (raw), [input m, unit i]
``sensory_sigma``           [M, N]
``sensory_mu``              [M, N]
``sensory_erev``            [M, N]
``sparsity_mask``           [N, N]      optional (default ones): multiplies the conductance
``sensory_sparsity_mask``   [M, N]      optional (default ones)
``input_w``, ``input_b``    [M]         optional input mapping I = x * input_w + input_b
``output_w``, ``output_b``  [K]         optional output mapping y = v[:K] * output_w + output_b
``inputs``                  [T, B, M]   the raw inputs x fed to the cell
``elapsed``                 [], [T], [T,B] elapsed time of each step (> 0; a number: every step)
``states``                  [T+1, B, N] the implementation's state, states[0] the initial one
``outputs``                 [T, B, K]   optional: the implementation's outputs
==========================  ==========  ===================================================

attributes: ``ode_unfolds`` (int >= 1), ``epsilon`` (>= 0), ``implicit_param_constraints``
(0/1: softplus applied to cm, gleak, w, sensory_w at run time), optional ``implementation``
(free text), optional ``solver`` (``fused``, the default, ``euler`` or ``rk4``; the LTC authors'
names ``SemiImplicit``, ``Explicit``, ``RungeKutta`` too: `SOLVER_ALIASES`), optional
``solver_step`` (the step h of one unfold: elapsed = ode_unfolds h when ``elapsed`` is absent,
and must agree with it otherwise), optional ``compute_dtype`` (the dtype the implementation
computed in, apart from the dtype the arrays are stored in; default: the stored one). The
sigmoid is ``1/(1 + exp(-sigma (v_pre - mu)))``. A file with the LTC authors' TF1 names
(``cm_t``, ``W``, ``sensory_W``, ...) is read in their time convention
(nacverify.audit.ltc.authors).
Files: NPZ or HDF5 (as the NAC gate export, nacverify.audit.gates.format), tagged ``format =
"ltc-cell"``. Anything malformed is `BadInput` with a one-line message.

**The abstract form** (seed 002 eq. 7/9; an entry ``form = "abstract"``, `AbstractLTCExport`):
``tau`` [N], ``A`` [N], ``gamma_r`` [N, N] ([from unit j, to unit i]), ``gamma`` [M, N]
([input m, unit i]), ``mu`` [N], attribute ``activation`` ("sigmoid" or "tanh"), and the same
``inputs``, ``elapsed``, ``states``, ``ode_unfolds``, ``implementation``. The cell computes
$f = \mathrm{act}(x \gamma_r + I \gamma + \mu)$ with row vectors (eq. 9a as printed,
$\gamma_r x + \gamma I$ with $\gamma \in \mathbb{R}^{M \times N}$, does not multiply: claim
``ltc.eq9a.shapes``) and the step $x \leftarrow (x + \Delta t f A)/(1 + \Delta t (1/\tau + f))$,
``ode_unfolds`` times. Files without ``form`` (or with ``form = "biophysical"``) are `LTCExport`s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import BadInput
from ..gates.format import _float_array, _number, _scalar, read_entries
from .authors import AUTHORS_CONVENTION, authors_entries, is_authors_run
from .solver_names import SOLVER_ALIASES, SOLVERS, solver_name

__all__ = [
    "LTCExport",
    "AbstractLTCExport",
    "read_ltc_export",
    "ltc_from_arrays",
    "write_ltc_export",
    "LTC_FORMAT_TAG",
    "LTC_FORMAT_VERSION",
    "LTC_PARAMS",
    "LTC_OPTIONAL",
    "LTC_ATTRS",
    "ABSTRACT_PARAMS",
    "ABSTRACT_ATTRS",
    "LTC_FORMS",
    "softplus",
    "SOLVERS",
    "SOLVER_ALIASES",
    "COMPUTE_DTYPES",
    "solver_name",
]

LTC_FORMAT_TAG = "ltc-cell"
LTC_FORMAT_VERSION = 1
_UNIT = ("cm", "gleak", "vleak")
_SYN = ("w", "sigma", "mu", "erev")
_SENS = ("sensory_w", "sensory_sigma", "sensory_mu", "sensory_erev")
LTC_PARAMS = _UNIT + _SYN + _SENS
LTC_RUN = ("inputs", "elapsed", "states")
LTC_OPTIONAL = ("sparsity_mask", "sensory_sparsity_mask", "input_w", "input_b", "output_w", "output_b", "outputs")
LTC_ATTRS = ("ode_unfolds", "epsilon", "implicit_param_constraints", "implementation", "solver", "solver_step", "compute_dtype")
#: machine epsilon of each dtype the arithmetic may be declared in (`compute_dtype`)
COMPUTE_DTYPES = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "float64": 2.0**-52}
ABSTRACT_PARAMS = ("tau", "A", "gamma_r", "gamma", "mu")
ABSTRACT_ATTRS = ("ode_unfolds", "activation", "implementation")
LTC_FORMS = ("biophysical", "abstract")
ABSTRACT_ACTIVATIONS = ("sigmoid", "tanh")  # as nacverify.ltc.ACTIVATIONS (not imported: reading a file needs no JAX)
_META = ("format", "format_version", "form")
_SUFFIXES = {".npz": "npz", ".h5": "hdf5", ".hdf5": "hdf5"}


def softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + e^x) in float64, as torch.nn.Softplus (beta 1; torch switches to x above 20)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 20.0, x, np.log1p(np.exp(np.minimum(x, 20.0))))


class _Run:
    """What both forms share: the run's sizes (from states [T+1, B, N] and inputs [T, B, M]) and
    the export's machine epsilon."""

    params: dict[str, np.ndarray]
    inputs: np.ndarray
    states: np.ndarray

    @property
    def T(self) -> int:
        return int(self.states.shape[0] - 1)

    @property
    def B(self) -> int:
        return int(self.states.shape[1])

    @property
    def N(self) -> int:
        return int(self.states.shape[2])

    @property
    def M(self) -> int:
        return int(self.inputs.shape[2])

    @property
    def stored_eps(self) -> float:
        """Machine epsilon of the stored arrays (the coarsest of states and parameters)."""
        arrays = [self.states, *self.params.values()]
        return max(float(np.finfo(a.dtype).eps) for a in arrays if a.dtype.kind == "f")

    @property
    def dtype_eps(self) -> float:
        """Machine epsilon of the implementation's arithmetic: the declared `compute_dtype`'s, else the stored one."""
        declared = getattr(self, "compute_dtype", "")
        return COMPUTE_DTYPES[declared] if declared else self.stored_eps

    @property
    def dtype_source(self) -> str:
        """Where `dtype_eps` comes from, in words."""
        declared = getattr(self, "compute_dtype", "")
        return f"compute_dtype {declared} (declared)" if declared else f"the stored dtype {self.states.dtype} (no compute_dtype declared)"


@dataclass(frozen=True)
class LTCExport(_Run):
    """A validated LTC-cell export. Arrays keep their exported dtype; `f64` gives float64 copies."""

    params: dict[str, np.ndarray]
    inputs: np.ndarray  # (T, B, M)
    elapsed: np.ndarray  # (T, B)
    states: np.ndarray  # (T+1, B, N)
    outputs: np.ndarray | None
    ode_unfolds: int
    epsilon: float
    implicit_param_constraints: bool
    implementation: str = ""
    source: str = "<arrays>"
    ignored: tuple[str, ...] = field(default_factory=tuple)
    solver: str = "fused"
    compute_dtype: str = ""  # "" = the stored dtype
    convention: str = "ltc-cell"  # or "ltc-authors-tf1" (nacverify.audit.ltc.authors)
    step_by_solver: Mapping[str, float] = field(default_factory=dict)  # the step h each solver has in the file's convention

    form = "biophysical"

    def elapsed_for(self, solver: str) -> np.ndarray:
        """The elapsed times (T, B) `solver` integrates over per input step in this file's convention:
        ode_unfolds x its step where the convention fixes one (the LTC authors': 1 fused, 0.1 Euler and
        RK4), else the file's elapsed times."""
        if solver in self.step_by_solver:
            return np.full(self.elapsed.shape, self.ode_unfolds * float(self.step_by_solver[solver]))
        return self.elapsed

    @property
    def motor(self) -> int:
        for name in ("output_w", "output_b"):
            if name in self.params:
                return int(self.params[name].shape[0])
        return self.N if self.outputs is None else int(self.outputs.shape[2])

    def p(self, name: str) -> np.ndarray:
        """A parameter in float64 (masks and mappings default to ones / identity)."""
        if name in self.params:
            return self.params[name].astype(np.float64)
        shape = {"sparsity_mask": (self.N, self.N), "sensory_sparsity_mask": (self.M, self.N), "input_w": (self.M,),
                 "input_b": (self.M,), "output_w": (self.motor,), "output_b": (self.motor,)}[name]
        return np.zeros(shape) if name.endswith("_b") else np.ones(shape)

    def used(self, name: str) -> np.ndarray:
        """cm, gleak, w, sensory_w as the cell uses them: softplus(raw) under implicit constraints, raw otherwise."""
        raw = self.p(name)
        return softplus(raw) if self.implicit_param_constraints and name in ("cm", "gleak", "w", "sensory_w") else raw

    def mapped_inputs(self) -> np.ndarray:
        """I = x * input_w + input_b in float64, (T, B, M)."""
        return self.inputs.astype(np.float64) * self.p("input_w") + self.p("input_b")

    def attrs(self) -> dict[str, Any]:
        return {"ode_unfolds": self.ode_unfolds, "epsilon": self.epsilon,
                "implicit_param_constraints": int(self.implicit_param_constraints), "implementation": self.implementation,
                "solver": self.solver, "compute_dtype": self.compute_dtype or "none (the stored dtype)", "convention": self.convention}


@dataclass(frozen=True)
class AbstractLTCExport(_Run):
    r"""A validated abstract-form export (seed 002 eq. 7/9): tau, A, gamma_r, gamma, mu in `params`
    (exported dtype; `p` gives float64), f = activation(x gamma_r + I gamma + mu) with row vectors."""

    params: dict[str, np.ndarray]
    activation: str
    inputs: np.ndarray  # (T, B, M)
    elapsed: np.ndarray  # (T, B)
    states: np.ndarray  # (T+1, B, N)
    ode_unfolds: int
    implementation: str = ""
    source: str = "<arrays>"
    ignored: tuple[str, ...] = field(default_factory=tuple)
    form = "abstract"

    def p(self, name: str) -> np.ndarray:
        """A parameter in float64."""
        return self.params[name].astype(np.float64)

    def attrs(self) -> dict[str, Any]:
        return {"form": self.form, "activation": self.activation, "ode_unfolds": self.ode_unfolds, "implementation": self.implementation}


def _shape(source: str, name: str, arr: np.ndarray, shape: tuple[int, ...], meaning: str) -> None:
    if arr.shape != shape:
        raise BadInput(f"{source}: {name} has shape {list(arr.shape)}, expected {list(shape)} ({meaning})")


def _check_tag(source: str, entries: Mapping[str, Any]) -> str:
    """The optional `format` / `format_version` tags, and the form ("biophysical" when absent)."""
    if "format" in entries:
        tag = _scalar("format", entries["format"])
        if tag != LTC_FORMAT_TAG:
            raise BadInput(f"{source}: format is {tag!r}, not an LTC-cell export ({LTC_FORMAT_TAG!r})")
    if "format_version" in entries:
        version = _scalar("format_version", entries["format_version"])
        if not isinstance(version, (int, float)) or int(version) != LTC_FORMAT_VERSION:
            raise BadInput(f"{source}: format_version {version!r} is not supported (this nacverify reads {LTC_FORMAT_VERSION})")
    form = _scalar("form", entries["form"]) if "form" in entries else "biophysical"
    if form not in LTC_FORMS:
        raise BadInput(f"{source}: form {form!r} is not one of {', '.join(LTC_FORMS)}")
    return str(form)


def _float_arrays(source: str, entries: Mapping[str, Any], required: tuple[str, ...], optional: tuple[str, ...],
                  attrs: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The required arrays and attributes (all present, else one line naming the missing ones),
    and the arrays among `required` and the present `optional` ones as finite real floating-point arrays."""
    names = set(entries)
    missing = [n for n in required + attrs if n not in names]
    if missing:
        found = ", ".join(sorted(names)[:8]) or "nothing"
        raise BadInput(f"{source}: required entr{'ies' if len(missing) > 1 else 'y'} {', '.join(missing)} missing (found: {found})")
    try:
        return {n: _float_array(n, entries[n]) for n in required + optional if n in entries}
    except BadInput as exc:
        raise BadInput(f"{source}: {exc}") from None


def _compute_dtype(source: str, entries: Mapping[str, Any], override: str | None) -> str:
    """The declared arithmetic dtype ("" when neither the file nor `override` declares one)."""
    declared = str(_scalar("compute_dtype", entries["compute_dtype"])) if "compute_dtype" in entries else ""
    if override and declared and override != declared:
        raise BadInput(f"{source}: the file declares compute_dtype {declared}, --compute-dtype says {override}")
    value = override or declared
    if value and value not in COMPUTE_DTYPES:
        raise BadInput(f"{source}: compute_dtype {value!r} is not one of {', '.join(COMPUTE_DTYPES)}")
    return value


def _elapsed_from_step(source: str, entries: Mapping[str, Any]) -> dict[str, Any]:
    """`entries` with `elapsed` = ode_unfolds x solver_step when only `solver_step` is given; a
    `solver_step` beside `elapsed` must agree with every elapsed / ode_unfolds (to 1e-6 relative)."""
    if "solver_step" not in entries:
        return dict(entries)
    step = _number("solver_step", entries["solver_step"], float, True)
    unfolds = _number("ode_unfolds", entries.get("ode_unfolds", 1), int, True)
    out = dict(entries)
    if "elapsed" not in entries:
        out["elapsed"] = np.asarray(unfolds * step)
        return out
    el = np.asarray(entries["elapsed"], dtype=np.float64)
    if el.size and not np.allclose(el / unfolds, step, rtol=1e-6, atol=0.0):
        raise BadInput(f"{source}: solver_step {step:g} disagrees with elapsed / ode_unfolds (e.g. {float(el.flat[0]) / unfolds:g}); "
                       "give one of them")
    return out


def _run_arrays(source: str, arrays: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """states [T+1, B, N], inputs [T, B, M] and elapsed (a number or [T] broadcast to [T, B], every value > 0)."""
    states = arrays["states"]
    if states.ndim != 3 or states.shape[0] < 2 or min(states.shape) < 1:
        raise BadInput(f"{source}: states must be [T+1, B, N] with T >= 1, got shape {list(states.shape)}")
    T, B = states.shape[0] - 1, states.shape[1]
    inputs = arrays["inputs"]
    if inputs.ndim != 3 or inputs.shape[:2] != (T, B) or inputs.shape[2] < 1:
        raise BadInput(f"{source}: inputs has shape {list(inputs.shape)}, expected [T, B, M] = [{T}, {B}, M] (states is {list(states.shape)})")
    elapsed = arrays["elapsed"]
    if elapsed.ndim == 0:  # one elapsed time for every step
        elapsed = np.broadcast_to(elapsed, (T, B))
    elif elapsed.shape == (T,):
        elapsed = np.broadcast_to(elapsed[:, None], (T, B))
    elif elapsed.shape != (T, B):
        raise BadInput(f"{source}: elapsed has shape {list(elapsed.shape)}, expected a number, [T] or [T, B] = [{T}, {B}]")
    if not (elapsed > 0).all():
        bad = tuple(int(i) for i in np.argwhere(~(elapsed > 0))[0])
        raise BadInput(f"{source}: elapsed times must be > 0, got {float(elapsed[bad]):g} at step {list(bad)}")
    return states, inputs, np.ascontiguousarray(elapsed)


def _implementation(entries: Mapping[str, Any]) -> str:
    impl = entries.get("implementation", "")
    return str(_scalar("implementation", impl)) if impl is not None else ""


def ltc_from_arrays(entries: Mapping[str, Any], source: str = "<arrays>", *, solver: str | None = None,
                    compute_dtype: str | None = None) -> LTCExport | AbstractLTCExport:
    """Validate a mapping of names to arrays/values (the content of an LTC-cell export): an
    `AbstractLTCExport` when `form` is "abstract", an `LTCExport` (the biophysical form) otherwise.
    A mapping with the LTC authors' TF1 names is converted first (nacverify.audit.ltc.authors).
    `solver` and `compute_dtype` declare what the file does not (a file that declares otherwise is refused)."""
    if _check_tag(source, entries) == "abstract":
        if solver is not None or compute_dtype is not None:
            raise BadInput(f"{source}: an abstract-form export has one solver (eq. 9) and its stored dtype; drop --solver / --compute-dtype")
        return _abstract_from_arrays(entries, source)

    convention, steps = "ltc-cell", {}
    if is_authors_run(entries):
        entries, steps = authors_entries(entries, source, solver=solver)
        convention = AUTHORS_CONVENTION
    declared = solver_name(entries["solver"], source) if "solver" in entries else None
    if solver is not None and declared is not None and solver_name(solver, source) != declared:
        raise BadInput(f"{source}: the file declares solver {declared}, --solver says {solver_name(solver, source)}")
    chosen = declared or (solver_name(solver, source) if solver is not None else "fused")
    dtype = _compute_dtype(source, entries, compute_dtype)
    entries = _elapsed_from_step(source, entries)
    names = set(entries)
    arrays = _float_arrays(source, entries, LTC_PARAMS + LTC_RUN, LTC_OPTIONAL, ("ode_unfolds",))
    states, inputs, elapsed = _run_arrays(source, arrays)
    T, B, N = states.shape[0] - 1, states.shape[1], states.shape[2]
    M = inputs.shape[2]
    for n in _UNIT:
        _shape(source, n, arrays[n], (N,), "one per unit")
    for n in _SYN:
        _shape(source, n, arrays[n], (N, N), "[presynaptic, postsynaptic]")
    for n in _SENS:
        _shape(source, n, arrays[n], (M, N), "[input, unit]")
    if "sparsity_mask" in arrays:
        _shape(source, "sparsity_mask", arrays["sparsity_mask"], (N, N), "[presynaptic, postsynaptic]")
    if "sensory_sparsity_mask" in arrays:
        _shape(source, "sensory_sparsity_mask", arrays["sensory_sparsity_mask"], (M, N), "[input, unit]")
    for n in ("input_w", "input_b"):
        if n in arrays:
            _shape(source, n, arrays[n], (M,), "one per input")
    K = None
    for n in ("output_w", "output_b"):
        if n in arrays:
            if arrays[n].ndim != 1 or not 1 <= arrays[n].shape[0] <= N or (K is not None and arrays[n].shape[0] != K):
                raise BadInput(f"{source}: {n} has shape {list(arrays[n].shape)}, expected [K] with 1 <= K <= N = {N} (the motor units)")
            K = arrays[n].shape[0]
    if "outputs" in arrays:
        out = arrays["outputs"]
        if out.ndim != 3 or out.shape[:2] != (T, B) or not 1 <= out.shape[2] <= N or (K is not None and out.shape[2] != K):
            raise BadInput(f"{source}: outputs has shape {list(out.shape)}, expected [T, B, K] = [{T}, {B}, {K or 'K <= N'}]")
    unfolds = _number("ode_unfolds", entries["ode_unfolds"], int, True)
    epsilon = _number("epsilon", entries.get("epsilon", 0.0), float, False)
    implicit = entries.get("implicit_param_constraints", 0)
    implicit_v = _scalar("implicit_param_constraints", implicit)
    if isinstance(implicit_v, str) or implicit_v not in (0, 1, True, False):
        raise BadInput(f"{source}: implicit_param_constraints must be 0/1 (or a bool), got {implicit_v!r}")
    for n in ("sparsity_mask", "sensory_sparsity_mask"):
        if n in arrays and (arrays[n] < 0).any():
            raise BadInput(f"{source}: {n} must be non-negative (ncps stores |adjacency|)")
    params = {n: arrays[n] for n in LTC_PARAMS + LTC_OPTIONAL if n in arrays and n != "outputs"}
    known = set(LTC_PARAMS) | set(LTC_RUN) | set(LTC_OPTIONAL) | set(LTC_ATTRS) | set(_META)
    return LTCExport(params, inputs, elapsed, states, arrays.get("outputs"), int(unfolds), float(epsilon),
                     bool(implicit_v), _implementation(entries), source, tuple(sorted(names - known)), chosen, dtype, convention, steps)


def _abstract_from_arrays(entries: Mapping[str, Any], source: str) -> AbstractLTCExport:
    """Validate an abstract-form export (module docstring; reports/LTC_AUDIT_FORMAT.md)."""
    arrays = _float_arrays(source, entries, ABSTRACT_PARAMS + LTC_RUN, (), ("ode_unfolds", "activation"))
    states, inputs, elapsed = _run_arrays(source, arrays)
    N, M = states.shape[2], inputs.shape[2]
    for n in ("tau", "A", "mu"):
        _shape(source, n, arrays[n], (N,), "one per unit")
    _shape(source, "gamma_r", arrays["gamma_r"], (N, N), "[from unit j, to unit i]")
    _shape(source, "gamma", arrays["gamma"], (M, N), "[input m, unit i]")
    activation = _scalar("activation", entries["activation"])
    if activation not in ABSTRACT_ACTIVATIONS:
        raise BadInput(f"{source}: activation {activation!r} is not one of {', '.join(ABSTRACT_ACTIVATIONS)}")
    unfolds = _number("ode_unfolds", entries["ode_unfolds"], int, True)
    known = set(ABSTRACT_PARAMS) | set(LTC_RUN) | set(ABSTRACT_ATTRS) | set(_META)
    params = {n: arrays[n] for n in ABSTRACT_PARAMS}
    return AbstractLTCExport(params, str(activation), inputs, elapsed, states, int(unfolds), _implementation(entries), source,
                             tuple(sorted(set(entries) - known)))


def read_ltc_export(path: str | Path, *, solver: str | None = None, compute_dtype: str | None = None) -> LTCExport | AbstractLTCExport:
    """Read and validate an NPZ or HDF5 LTC-cell export (the kind is told by the magic bytes;
    the form by its `form` entry: `AbstractLTCExport` for "abstract", `LTCExport` otherwise;
    `solver` and `compute_dtype` as in `ltc_from_arrays`)."""
    source, entries = read_entries(path, "an LTC-cell export", "reports/LTC_AUDIT_FORMAT.md")
    if entries.get("format") in ("nac-gates", b"nac-gates"):
        raise BadInput(f"{source}: a NAC gate export; audit it with `nacverify audit`")
    return ltc_from_arrays(entries, str(source), solver=solver, compute_dtype=compute_dtype)


def write_ltc_export(entries: Mapping[str, Any], path: str | Path, *, overwrite: bool = False) -> Path:
    """Validate `entries` as an LTC-cell export (either form) and write them to `path` (NPZ or HDF5 by suffix), atomically."""
    from ...atomic import atomic_write

    target = Path(path)
    kind = _SUFFIXES.get(target.suffix.lower())
    if kind is None:
        raise BadInput(f"{target}: choose a .npz, .h5 or .hdf5 file name for the export")
    ltc_from_arrays(entries, str(target))
    data = {k: np.asarray(v) for k, v in entries.items() if v is not None}
    data.update(format=np.asarray(LTC_FORMAT_TAG), format_version=np.asarray(LTC_FORMAT_VERSION))

    def write(tmp: Path) -> None:
        if kind == "npz":
            with open(tmp, "wb") as handle:
                np.savez_compressed(handle, **data)
            return
        import h5py

        with h5py.File(tmp, "w") as handle:
            for name, arr in data.items():
                if name in LTC_ATTRS or name in ABSTRACT_ATTRS or name in _META:
                    handle.attrs[name] = arr.item() if arr.dtype.kind != "U" else str(arr)
                else:
                    handle.create_dataset(name, data=arr, compression="gzip" if arr.size > 4096 else None)

    atomic_write(target, write, overwrite=overwrite, what="export")
    return target
