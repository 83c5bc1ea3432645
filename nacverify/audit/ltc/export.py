"""Exporters of LTC cells to the LTC-cell exchange format (nacverify.audit.ltc.format).

`export_ncps_cell` runs an ``ncps.torch.LTCCell`` step by step on an input sequence and
records its parameters, the elapsed times and its state trajectory; `export_ncps_ltc` does
the same for the sequence module ``ncps.torch.LTC`` (its cell, driven as ``LTC.forward``
drives it). `export_random_ncps` builds a seeded default ncps LTC, optionally trains it a few steps
(`train_toy`), and exports it (the CLI's ``--export-ncps``). torch is imported inside the functions: nacverify does not need it
otherwise. `export_ncps_tf_cell` does the same for the TensorFlow cell ``ncps.tf.LTCCell``
when TensorFlow is installed (it is not a dependency; ncps 1.0.1's TF cells derive from
``tf.keras.layers.AbstractRNNCell``, which Keras 3 dropped: with TensorFlow >= 2.16 they need
``tf_keras`` and ``TF_USE_LEGACY_KERAS=1``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import BadInput, EnvironmentProblem
from .format import LTCExport, ltc_from_arrays, write_ltc_export

__all__ = ["export_ncps_cell", "export_ncps_ltc", "export_random_ncps", "random_ncps_run", "ncps_cell_entries", "train_toy",
           "CONSTRAINTS", "export_ncps_tf_cell", "ncps_tf_cell_entries"]

_NAMES = ("cm", "gleak", "vleak", "w", "sigma", "mu", "erev", "sensory_w", "sensory_sigma", "sensory_mu", "sensory_erev",
          "sparsity_mask", "sensory_sparsity_mask", "input_w", "input_b", "output_w", "output_b")


def _torch():
    try:
        import torch
    except ImportError as exc:  # torch is the optional extra `ltc` (pip install 'nacverify[ltc]')
        raise EnvironmentProblem(f"exporting an ncps torch cell needs torch: pip install 'nacverify[ltc]' ({exc})") from None
    return torch


def _as_sequence(torch, x, elapsed, steps_dtype):
    x = torch.as_tensor(x)
    if x.dim() == 2:
        x = x.unsqueeze(1)  # (T, M) -> (T, 1, M)
    if x.dim() != 3:
        raise BadInput(f"inputs must be [T, B, M] (or [T, M]), got shape {list(x.shape)}")
    T = x.shape[0]
    el = np.ones(T) if elapsed is None else np.asarray(elapsed, dtype=np.float64)
    if el.ndim == 0:
        el = np.full(T, float(el))
    if el.shape not in ((T,), (T, x.shape[1])):
        raise BadInput(f"elapsed must be a number, [T] or [T, B] with T = {T}, got shape {list(el.shape)}")
    return x.to(steps_dtype), el


PREFIX = 8  # steps run both eagerly and through the trace, which is used only when they agree bit for bit


def _traced_step(torch, cell, x0, h0, ts0):
    """``cell``'s forward as a frozen TorchScript trace, or None. Only for ncps's own ``LTCCell``
    (no data-dependent control flow: its unfold loop and mappings depend on configuration only),
    never for a subclass; the trace records the same aten operations in the same order, so it
    computes the same numbers, minus Python's per-operation overhead (about 3x faster for 64 units)."""
    try:
        from ncps.torch import LTCCell
    except ImportError:  # pragma: no cover - the cell came from somewhere else
        return None
    if type(cell) is not LTCCell:
        return None
    import warnings

    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # torch.jit is deprecated in favour of torch.compile, which needs a C++ toolchain
            traced = torch.jit.trace(cell, (x0, h0, ts0), check_trace=False)
            try:
                return torch.jit.freeze(traced.eval())
            except Exception:  # pragma: no cover - freezing is an optimisation only
                return traced
    except Exception:  # pragma: no cover - any tracing problem: run eagerly
        return None


def _time_first(torch, cell, inputs, elapsed, batch_first):
    """(cell, inputs [T, B, M] or [T, M], elapsed as `_as_sequence` takes it) from what the caller
    gave in ncps's layout. `batch_first` None: the module's own flag when `cell` is an ncps ``LTC``
    (its ``rnn_cell`` is run), else the length of one elapsed time per step where it matches one
    axis only (a per-entry [B, T] or [T, B] has the inputs' leading shape either way); a 3-D
    input neither settles is refused (`BadInput`): [B, T, M] read as [T, B, M] runs without error
    and gives another computation."""
    if hasattr(cell, "rnn_cell") and hasattr(cell, "batch_first"):  # an ncps.torch.LTC module
        if getattr(cell, "use_mixed", False):
            raise BadInput("an ncps LTC with mixed_memory=True: its LSTM changes the state between LTC steps; pass module.rnn_cell instead")
        batch_first = bool(cell.batch_first) if batch_first is None else batch_first
        cell = cell.rnn_cell
    x = torch.as_tensor(inputs)
    el = None if elapsed is None else np.asarray(elapsed, dtype=np.float64)
    if el is not None and el.ndim == 3 and el.shape[-1] == 1:  # ncps timespans carry a trailing feature axis of 1
        el = el[..., 0]
    if x.dim() != 3:
        return cell, x, el  # [T, M] (unbatched, as ncps) or a shape `_as_sequence` refuses
    a, b = x.shape[0], x.shape[1]
    if batch_first is None and a == b == 1:
        batch_first = False  # one step of one sequence: both layouts are the same array
    if batch_first is None and el is not None and el.ndim == 1 and (el.shape[0] == a) != (el.shape[0] == b):
        batch_first = el.shape[0] == b  # one elapsed time per step: its length names the time axis
    if batch_first is None:
        raise BadInput(f"inputs of shape {list(x.shape)} are ambiguous: ncps.torch.LTC takes [B, T, M] (batch_first=True, its default), "
                       "this function also takes [T, B, M]; pass batch_first=True or batch_first=False (or the ncps LTC module itself)")
    if batch_first:
        x = x.transpose(0, 1)  # [B, T, M] -> [T, B, M]
        if el is not None and el.ndim == 2:
            el = el.T  # [B, T] -> [T, B]
    return cell, x, el


def ncps_cell_entries(cell, inputs, elapsed=None, h0=None, *, batch_first: bool | None = None) -> dict[str, Any]:
    """Run ``ncps.torch.LTCCell`` `cell` on `inputs` with `elapsed` (a number, one value per
    step, or one per step and batch entry; default 1.0 as ncps) from `h0` (default zeros);
    return the format's entries.

    The axes follow ncps's ``batch_first``: with ``batch_first=True`` (``ncps.torch.LTC``'s
    default) `inputs` is [B, T, M] and a per-entry `elapsed` [B, T] (or ncps's [B, T, 1]); with
    ``batch_first=False`` they are [T, B, M] and [T, B]. `cell` may be the ``ncps.torch.LTC``
    module itself: its ``rnn_cell`` runs and its ``batch_first`` applies. Left at None
    elsewhere, the layout is taken from a 1-D `elapsed` (one time per step) whose length matches
    one of the first two axes only; a 3-D input that nothing settles is refused (`BadInput`), since a [B, T, M] array read as
    [T, B, M] runs without error and computes something else. [T, M] is one unbatched
    sequence in either layout. Each step calls ``cell(x_t, h, elapsed_t)``, the call ``ncps.torch.LTC``
    makes, with elapsed_t a float64 scalar (B = 1 or [T]; the cell divides it by ode_unfolds in
    float64, as for a Python float) or a [B, 1] column of the cell's dtype (then the file records
    those rounded values: what the cell computed with). A cell of ncps's own class runs through
    a TorchScript trace of itself once its first steps match the eager ones bit for bit
    (`_traced_step`); any other cell runs eagerly."""
    torch = _torch()
    cell, inputs, elapsed = _time_first(torch, cell, inputs, elapsed, batch_first)
    params = dict(cell._params)
    dtype = params["cm"].dtype
    x, el = _as_sequence(torch, inputs, elapsed, dtype)
    T, B = x.shape[0], x.shape[1]
    if el.ndim == 2:
        el = torch.as_tensor(el, dtype=dtype).double().numpy()  # the values the cell receives
    ts = torch.as_tensor(el, dtype=torch.float64) if el.ndim == 1 else torch.as_tensor(el, dtype=dtype).reshape(T, B, 1)
    h = torch.zeros((B, cell.state_size), dtype=dtype) if h0 is None else torch.as_tensor(h0, dtype=dtype).reshape(B, -1)
    states, outputs = [h.clone()], []
    with torch.no_grad():
        step = cell
        for t in range(T):
            if t == PREFIX and T > 2 * PREFIX:
                step = _checked_trace(torch, cell, x, ts, states, outputs)
            out, h = step(x[t], h, ts[t])
            states.append(h)
            outputs.append(out)
        states_np, outputs_np = torch.stack(states).detach().numpy(), torch.stack(outputs).detach().numpy()
    entries: dict[str, Any] = {n: params[n].detach().numpy().copy() for n in _NAMES if n in params}
    entries.update(
        inputs=x.detach().numpy(), elapsed=el.astype(np.float64), states=states_np, outputs=outputs_np,
        ode_unfolds=int(cell._ode_unfolds), epsilon=float(cell._epsilon),
        implicit_param_constraints=int(bool(cell._implicit_param_constraints)),
        implementation=f"ncps {_version('ncps')} torch {torch.__version__} LTCCell ({type(cell._wiring).__name__} wiring)",
    )
    return entries


def _checked_trace(torch, cell, x, ts, states, outputs):
    """The traced cell if it reproduces the eager steps run so far bit for bit, else the cell itself."""
    traced = _traced_step(torch, cell, x[0], states[0], ts[0])
    if traced is None:
        return cell
    h = states[0]
    for t in range(len(outputs)):
        out, h = traced(x[t], h, ts[t])
        if not (torch.equal(h, states[t + 1]) and torch.equal(out, outputs[t])):
            return cell
    return traced


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:  # pragma: no cover
        return "?"


def export_ncps_cell(cell, inputs, path: str | os.PathLike, *, elapsed=None, h0=None, overwrite: bool = False,
                     batch_first: bool = False) -> tuple[Path, LTCExport]:
    """Export an ``ncps.torch.LTCCell`` run (see `ncps_cell_entries`) to `path` (.npz / .h5):
    `inputs` [T, B, M] time first, or [B, T, M] with ``batch_first=True``."""
    entries = ncps_cell_entries(cell, inputs, elapsed, h0, batch_first=batch_first)
    written = write_ltc_export(entries, path, overwrite=overwrite)
    return written, ltc_from_arrays(entries, str(written))


def export_ncps_ltc(module, inputs, path: str | os.PathLike, *, elapsed=None, h0=None, overwrite: bool = False) -> tuple[Path, LTCExport]:
    """Export an ``ncps.torch.LTC`` run: `inputs` as the module takes them (batch_first or not,
    or unbatched [L, C]); `elapsed` the module's ``timespans`` (same layout, or a number)."""
    torch = _torch()
    if getattr(module, "use_mixed", False):
        raise BadInput("an ncps LTC with mixed_memory=True: its LSTM changes the state between LTC steps; export module.rnn_cell instead")
    x = torch.as_tensor(inputs)
    if x.dim() == 3 and module.batch_first:
        x = x.transpose(0, 1)  # (B, T, M) -> (T, B, M)
    el = elapsed
    if el is not None and np.ndim(el) >= 2 and module.batch_first and x.dim() == 3:
        el = np.swapaxes(np.asarray(el, dtype=np.float64), 0, 1)
    if el is not None and np.ndim(el) == 3:  # ncps timespans carry a trailing feature axis of 1
        el = np.asarray(el)[..., 0]
    return export_ncps_cell(module.rnn_cell, x, path, elapsed=el, h0=h0, overwrite=overwrite, batch_first=False)


#: How parameter constraints are kept while a toy run trains (`random_ncps_run`):
#: "implicit" = ncps.torch.LTC's default (softplus of every conductance and the capacitance, at run time);
#: "apply" = raw parameters, ``apply_weight_constraints()`` (ReLU clip) after every optimiser step;
#: "none" = raw parameters, never clipped (what a user gets who trains an ``LTCCell``, whose default is
#: ``implicit_param_constraints=False``, without calling ``apply_weight_constraints()``).
CONSTRAINTS = ("implicit", "apply", "none")


def train_toy(cell, *, steps: int = 30, lr: float = 0.2, seed: int = 0, apply_constraints: bool = False) -> None:
    """Train ``cell`` (an ``ncps.torch.LTCCell``) in place for `steps` Adam steps (learning rate `lr`)
    towards an unreachable target: 4 cell steps of elapsed time 1 from a zero state on one fixed
    standard-normal input, loss sum((h - 3)^2). A deliberately hard push, enough to drive raw
    conductances negative within a few dozen steps when nothing clips them. With
    `apply_constraints`, ``cell.apply_weight_constraints()`` runs after every step, as ncps
    documents for ``implicit_param_constraints=False``."""
    if steps < 0 or not (np.isfinite(lr) and lr > 0):
        raise BadInput(f"training needs steps >= 0 and a learning rate > 0, got {steps} and {lr}")
    torch = _torch()
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(1, cell.sensory_size, generator=gen)
    opt = torch.optim.Adam(cell.parameters(), lr=lr)
    for _ in range(steps):
        h = torch.zeros(1, cell.state_size)
        for _ in range(4):
            _, h = cell(x, h, 1.0)
        loss = ((h - 3.0) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if apply_constraints:
            cell.apply_weight_constraints()


def _tf():
    try:
        import tensorflow as tf
    except ImportError as exc:  # TensorFlow is not a dependency of nacverify
        raise EnvironmentProblem(f"exporting an ncps TensorFlow cell needs tensorflow ({exc})") from None
    return tf


def ncps_tf_cell_entries(cell, inputs, elapsed=None, h0=None) -> dict[str, Any]:
    """Run ``ncps.tf.LTCCell`` `cell` on `inputs` [T, B, M] (time first; [T, M] for B = 1) with
    `elapsed` (a number, [T] or [T, B]; default 1.0 as ncps) from `h0` (default zeros); return the
    format's entries. Each step calls ``cell.call((x_t, elapsed_t), [h])``, the call a Keras
    ``RNN`` over ``ncps.tf.LTC``'s (inputs, timespans) pair makes in its irregularly sampled mode,
    with elapsed_t a [B, 1] float32 column; the file records those float32 values. The TF cell
    has no implicit constraints: it uses its parameters as they are (Keras ``NonNeg``
    constraints clip w, sensory_w, cm and gleak after each optimiser step)."""
    tf = _tf()
    x = np.asarray(inputs, dtype=np.float32)
    if x.ndim == 2:
        x = x[:, None, :]
    if x.ndim != 3:
        raise BadInput(f"inputs must be [T, B, M] (or [T, M]), got shape {list(x.shape)}")
    T, B, M = x.shape
    el = np.ones(T) if elapsed is None else np.asarray(elapsed, dtype=np.float64)
    if el.ndim == 0:
        el = np.full(T, float(el))
    if el.shape not in ((T,), (T, B)):
        raise BadInput(f"elapsed must be a number, [T] or [T, B] with T = {T}, got shape {list(el.shape)}")
    el32 = np.broadcast_to(el.reshape(T, -1), (T, B)).astype(np.float32)
    if not cell.built:
        cell.build((None, M))
    h = tf.zeros((B, cell.state_size), tf.float32) if h0 is None else tf.constant(np.asarray(h0, np.float32).reshape(B, -1))
    states, outputs = [h.numpy()], []
    for t in range(T):
        out, (h,) = cell.call((tf.constant(x[t]), tf.constant(el32[t][:, None])), [h])
        states.append(h.numpy())
        outputs.append(out.numpy())
    entries: dict[str, Any] = {n: np.asarray(cell._params[n]).copy() for n in _NAMES if n in cell._params}
    entries.update(
        inputs=x, elapsed=el32.astype(np.float64), states=np.stack(states), outputs=np.stack(outputs),
        ode_unfolds=int(cell._ode_unfolds), epsilon=float(cell._epsilon), implicit_param_constraints=0,
        implementation=f"ncps {_version('ncps')} tensorflow {tf.__version__} LTCCell ({type(cell._wiring).__name__} wiring)",
    )
    return entries


def export_ncps_tf_cell(cell, inputs, path: str | os.PathLike, *, elapsed=None, h0=None, overwrite: bool = False) -> tuple[Path, LTCExport]:
    """Export an ``ncps.tf.LTCCell`` run (see `ncps_tf_cell_entries`) to `path` (.npz / .h5)."""
    entries = ncps_tf_cell_entries(cell, inputs, elapsed, h0)
    written = write_ltc_export(entries, path, overwrite=overwrite)
    return written, ltc_from_arrays(entries, str(written))


def random_ncps_run(*, units: int = 16, inputs: int = 4, steps: int = 100, seed: int = 0, elapsed: float | None = None,
                    irregular: bool = True, wiring: str = "fc", train_steps: int = 0, constraints: str = "implicit"):
    """(cell, inputs [steps, 1, inputs] float32, elapsed [steps]): the run `export_random_ncps` exports.
    A seeded ``ncps.torch.LTC(inputs, wiring)`` with ncps's defaults (6 unfolds, implicit
    constraints); wiring "fc" = ``FullyConnected(units)``, "autoncp" = ``AutoNCP(units, motor,
    seed=seed)`` with motor = max(1, units // 8) output units (AutoNCP needs units >= motor + 3).
    `constraints` other than "implicit" builds the module with ``implicit_param_constraints=False``
    (see `CONSTRAINTS`); `train_steps` > 0 then trains its cell with `train_toy` before the export.
    Elapsed times: `elapsed` for every step if given, else irregular (log-uniform in [0.1, 10])
    when `irregular`, else 1.0 (ncps's default)."""
    if min(units, inputs, steps) < 1:
        raise BadInput("--units, --inputs and --steps must be >= 1")
    if train_steps < 0:
        raise BadInput(f"--train-steps must be >= 0, got {train_steps}")
    if elapsed is not None and not (np.isfinite(elapsed) and elapsed > 0):
        raise BadInput(f"elapsed must be > 0 and finite, got {elapsed}")
    if wiring not in ("fc", "autoncp"):
        raise BadInput(f"unknown wiring {wiring!r}; choose fc or autoncp")
    if constraints not in CONSTRAINTS:
        raise BadInput(f"unknown constraints {constraints!r}; choose {', '.join(CONSTRAINTS)}")
    motor = max(1, units // 8)
    if wiring == "autoncp" and units < motor + 3:
        raise BadInput(f"an AutoNCP wiring needs at least {motor + 3} units, got {units}")
    torch = _torch()
    from ncps.torch import LTC
    from ncps.wirings import AutoNCP, FullyConnected

    torch.manual_seed(seed)
    module = LTC(inputs, FullyConnected(units) if wiring == "fc" else AutoNCP(units, motor, seed=seed),
                 implicit_param_constraints=constraints == "implicit")
    if train_steps:
        train_toy(module.rnn_cell, steps=train_steps, seed=seed, apply_constraints=constraints == "apply")
    rng = np.random.default_rng([seed, 12])
    x = rng.normal(size=(steps, 1, inputs)).astype(np.float32)
    if elapsed is not None:
        el = np.full(steps, float(elapsed))
    elif irregular:
        el = np.exp(rng.uniform(np.log(0.1), np.log(10.0), size=steps))
    else:
        el = np.ones(steps)
    return module.rnn_cell, x, el


def export_random_ncps(path: str | os.PathLike, *, units: int = 16, inputs: int = 4, steps: int = 100, seed: int = 0,
                       elapsed: float | None = None, irregular: bool = True, wiring: str = "fc", train_steps: int = 0,
                       constraints: str = "implicit", overwrite: bool = False) -> tuple[Path, LTCExport]:
    """Export the seeded ncps LTC run of `random_ncps_run` (batch 1, standard-normal inputs)."""
    if Path(path).exists() and not overwrite:
        raise BadInput(f"{path} exists; choose another name or pass --force")
    cell, x, el = random_ncps_run(units=units, inputs=inputs, steps=steps, seed=seed, elapsed=elapsed, irregular=irregular,
                                  wiring=wiring, train_steps=train_steps, constraints=constraints)
    return export_ncps_cell(cell, x, path, elapsed=el, overwrite=overwrite)
