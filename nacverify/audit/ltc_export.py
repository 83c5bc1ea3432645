"""Exporters of LTC cells to the LTC-cell exchange format (nacverify.audit.ltc_format).

`export_ncps_cell` runs an ``ncps.torch.LTCCell`` step by step on an input sequence and
records its parameters, the elapsed times and its state trajectory; `export_ncps_ltc` does
the same for the sequence module ``ncps.torch.LTC`` (its cell, driven as ``LTC.forward``
drives it). `export_random_ncps` builds a seeded default ncps LTC and exports it (the CLI's
``--export-ncps``). torch is imported inside the functions: nacverify does not need it
otherwise. The TensorFlow cell (``ncps.tf.LTCCell``) has no exporter here: TensorFlow is
not installed on the machines this suite targets.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BadInput, EnvironmentProblem
from .ltc_format import LTCExport, ltc_from_arrays, write_ltc_export

__all__ = ["export_ncps_cell", "export_ncps_ltc", "export_random_ncps", "ncps_cell_entries"]

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


def ncps_cell_entries(cell, inputs, elapsed=None, h0=None) -> dict[str, Any]:
    """Run ``ncps.torch.LTCCell`` `cell` on `inputs` [T, B, M] (time first) with `elapsed`
    (a number, [T] or [T, B]; default 1.0 as ncps) from `h0` (default zeros); return the
    format's entries. Each step calls ``cell(x_t, h, elapsed_t)``, the call ``ncps.torch.LTC``
    makes, with elapsed_t a scalar (B = 1 or [T]) or a [B, 1] column."""
    torch = _torch()
    params = dict(cell._params)
    dtype = params["cm"].dtype
    x, el = _as_sequence(torch, inputs, elapsed, dtype)
    T, B = x.shape[0], x.shape[1]
    h = torch.zeros((B, cell.state_size), dtype=dtype) if h0 is None else torch.as_tensor(h0, dtype=dtype).reshape(B, -1)
    states, outputs = [h.detach().numpy().copy()], []
    with torch.no_grad():
        for t in range(T):
            ts = float(el[t]) if el.ndim == 1 else torch.as_tensor(el[t], dtype=dtype).reshape(B, 1)
            out, h = cell(x[t], h, ts)
            states.append(h.detach().numpy().copy())
            outputs.append(out.detach().numpy().copy())
    entries: dict[str, Any] = {n: params[n].detach().numpy().copy() for n in _NAMES if n in params}
    entries.update(
        inputs=x.detach().numpy(), elapsed=el.astype(np.float64), states=np.stack(states), outputs=np.stack(outputs),
        ode_unfolds=int(cell._ode_unfolds), epsilon=float(cell._epsilon),
        implicit_param_constraints=int(bool(cell._implicit_param_constraints)),
        implementation=f"ncps {_version('ncps')} torch {torch.__version__} LTCCell ({type(cell._wiring).__name__} wiring)",
    )
    return entries


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:  # pragma: no cover
        return "?"


def export_ncps_cell(cell, inputs, path: str | os.PathLike, *, elapsed=None, h0=None, overwrite: bool = False) -> tuple[Path, LTCExport]:
    """Export an ``ncps.torch.LTCCell`` run (see `ncps_cell_entries`) to `path` (.npz / .h5)."""
    entries = ncps_cell_entries(cell, inputs, elapsed, h0)
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
    return export_ncps_cell(module.rnn_cell, x, path, elapsed=el, h0=h0, overwrite=overwrite)


def export_random_ncps(path: str | os.PathLike, *, units: int = 16, inputs: int = 4, steps: int = 100, seed: int = 0,
                       elapsed: float | None = None, irregular: bool = True, overwrite: bool = False) -> tuple[Path, LTCExport]:
    """A seeded default ``ncps.torch.LTC(inputs, units)`` (fully connected, ncps's defaults:
    6 unfolds, implicit constraints) on a standard-normal input of `steps` steps, batch 1.
    Elapsed times: `elapsed` for every step if given, else irregular (log-uniform in
    [0.1, 10]) when `irregular`, else 1.0 (ncps's default)."""
    if min(units, inputs, steps) < 1:
        raise BadInput("--units, --inputs and --steps must be >= 1")
    if elapsed is not None and not (np.isfinite(elapsed) and elapsed > 0):
        raise BadInput(f"elapsed must be > 0 and finite, got {elapsed}")
    if Path(path).exists() and not overwrite:
        raise BadInput(f"{path} exists; choose another name or pass --force")
    torch = _torch()
    from ncps.torch import LTC

    torch.manual_seed(seed)
    module = LTC(inputs, units)
    rng = np.random.default_rng([seed, 12])
    x = rng.normal(size=(steps, 1, inputs)).astype(np.float32)
    if elapsed is not None:
        el = np.full(steps, float(elapsed))
    elif irregular:
        el = np.exp(rng.uniform(np.log(0.1), np.log(10.0), size=steps))
    else:
        el = np.ones(steps)
    return export_ncps_cell(module.rnn_cell, x, path, elapsed=el, overwrite=overwrite)
