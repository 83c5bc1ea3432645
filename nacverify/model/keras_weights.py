r"""Load a trained Keras NAC layer's weights into the `reference` variant of `NAC`.

The public TensorFlow/Keras layer (``neuronal_attention_circuit.py``;
shared/reference/REFERENCE_IMPLEMENTATION.md) holds seven sublayers. `from_keras_weights`
takes its weights as NumPy arrays named ``"<sublayer>/<name>"`` and returns the `NAC`
(``backbone="reference"``, ``head="shared"``, linear cells) that computes what the layer
computes, in the weights' dtype (float32 for a Keras model).

Expected names (shapes for ``d_model = d``, ``num_heads = h``, ``depth = d/h``):

* ``q_proj``, ``k_proj``, ``v_proj`` (sensory NCP cells, ``n = ceil((d - 0.5)/0.6)`` units) and
  ``out`` (the phi/omega backbone, ``d + floor(d/0.6)`` units, ``2 depth`` inputs, 1 output),
  each with ``input_kernel`` (inputs, n), ``recurrent_kernel`` (n, n), ``bias`` (n),
  ``input_w``, ``input_b`` (inputs), ``output_w``, ``output_b`` (outputs),
  ``sparsity_mask`` (n, n), ``sensory_sparsity_mask`` (inputs, n), ``active_mask`` (n);
* ``time_a``, ``time_b`` (pseudo-time Dense(1)): ``kernel`` (2 depth, 1), ``bias`` (1);
* ``out_proj`` (output Dense(d)): ``kernel`` (d, d), ``bias`` (d).

The cell masks are the layer's own (non-trainable) arrays: ``sparsity_mask`` = |wiring
adjacency| (recurrent), ``sensory_sparsity_mask`` = ones in the input group's columns (the
input mask actually applied), ``active_mask`` = zeros on the disabled groups. The output
neurons are the input group for the projections and the first ``len(output_w)`` neurons (the
motor group) for ``out``. Optional ``groups`` (``"<sublayer>/<group>_indices"``; the golden file
also calls the backbone ``out_ncp`` there): their ``input`` and ``output`` groups are checked
against the masks.

``config`` holds the layer's arguments: ``d_model``, ``num_heads`` (required), ``topk``,
``euler_steps``, ``delta_t``, ``dt``, ``sparsity``, ``tau_epsilon`` (defaults otherwise).
With Keras at hand the arrays come from the layer itself, e.g. (adapt the attribute
names to your copy of the layer)::

    weights = {f"{sub}/{w.name.split('/')[-1].split(':')[0]}": w.numpy()
               for sub in ("q_proj", "k_proj", "v_proj", "out", "time_a", "time_b", "out_proj")
               for w in getattr(layer, sub).weights}        # cells: also their mask attributes

`golden_arrays` splits an archive laid out as ``<mode>/weights/...``, ``<mode>/config/...``,
``<mode>/cells/...`` (shared/reference/public_tf_nac_golden.npz) into these three mappings.
"""

from __future__ import annotations

from collections.abc import Mapping

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from ..errors import BadInput
from .cell import NCPCell
from .gates import Dense, NCPBackbone, PseudoTime
from .nac import NAC, NACConfig
from .wiring import Wiring

__all__ = ["from_keras_weights", "golden_arrays", "golden_gate_entries", "CELL_SUBLAYERS", "DENSE_SUBLAYERS", "CELL_NAMES"]

CELL_SUBLAYERS = ("q_proj", "k_proj", "v_proj", "out")
DENSE_SUBLAYERS = ("time_a", "time_b", "out_proj")
CELL_NAMES = (
    "input_kernel",
    "recurrent_kernel",
    "bias",
    "input_w",
    "input_b",
    "output_w",
    "output_b",
    "sparsity_mask",
    "sensory_sparsity_mask",
    "active_mask",
)
_CONFIG_KEYS = ("d_model", "num_heads", "topk", "euler_steps", "delta_t", "dt", "sparsity", "tau_epsilon")
_GROUP_ALIASES = {"out": ("out", "out_ncp")}


def golden_arrays(archive: Mapping[str, np.ndarray], mode: str) -> tuple[dict, dict, dict]:
    """(weights, config, groups) of one mode from a flat mapping ``<mode>/weights/<sublayer>/<name>``,
    ``<mode>/config/<name>``, ``<mode>/cells/<sublayer>/<group>_indices`` (e.g. an opened NPZ)."""
    out: tuple[dict, dict, dict] = ({}, {}, {})
    for key in archive.keys():
        parts = key.split("/", 2)
        if len(parts) == 3 and parts[0] == mode:
            slot = ("weights", "config", "cells").index(parts[1]) if parts[1] in ("weights", "config", "cells") else None
            if slot is not None:
                out[slot][parts[2]] = np.asarray(archive[key])
    if not out[0]:
        raise BadInput(f"no weights for mode {mode!r} (expected names '{mode}/weights/<sublayer>/<name>')")
    return out


def golden_gate_entries(archive: Mapping[str, np.ndarray], mode: str) -> dict[str, np.ndarray]:
    """The gate export (reports/AUDIT_FORMAT.md) of what the public layer itself computed in `mode`,
    from a golden archive (``<mode>/phi``, ``omega``, ``t_pseudo``, ``logits``, ``attention`` and
    the layer's arguments under ``<mode>/config``): the public TF layer's gates, audited as any
    implementation's. Unset arguments take the public defaults (delta_t 0.5, 5 Euler steps, dt 1)."""
    names = ("phi", "omega", "t_pseudo", "logits", "attention")
    missing = [n for n in names if f"{mode}/{n}" not in archive]
    if missing:
        raise BadInput(f"the golden archive has no {', '.join(f'{mode}/{n}' for n in missing)}")
    config = golden_arrays(archive, mode)[1]
    entries = {n: np.asarray(archive[f"{mode}/{n}"]) for n in names}
    entries.update(mode=np.asarray(mode), delta_t=np.asarray(float(config.get("delta_t", 0.5))),
                   euler_steps=np.asarray(int(config.get("euler_steps", 5))), dt=np.asarray(float(config.get("dt", 1.0))),
                   topk=np.asarray(int(config.get("topk", entries["phi"].shape[-1]))))
    return entries


def _get(weights: Mapping[str, np.ndarray], sub: str, name: str, shape: tuple[int, ...]) -> np.ndarray:
    key = f"{sub}/{name}"
    if key not in weights:
        raise BadInput(f"missing weight {key!r}")
    a = np.asarray(weights[key])
    if a.shape != shape:
        raise BadInput(f"weight {key!r} has shape {a.shape}, expected {shape}")
    return a


def _is_01(a: np.ndarray) -> bool:
    return bool(np.all((a == 0) | (a == 1)))


def _cell(weights, groups, sub: str, n_in: int, n_out: int, backbone: bool, depth: int, dtype):
    """An `NCPCell` (projection) or `NCPBackbone` (``out``) holding the sublayer's arrays."""
    kin = np.asarray(weights.get(f"{sub}/input_kernel", np.zeros((0, 0))))
    if kin.ndim != 2 or kin.shape[0] != n_in:
        raise BadInput(f"weight '{sub}/input_kernel' must have shape ({n_in}, units), got {kin.shape}")
    units = kin.shape[1]
    a = {name: _get(weights, sub, name, shape) for name, shape in (
        ("input_kernel", (n_in, units)),
        ("recurrent_kernel", (units, units)),
        ("bias", (units,)),
        ("input_w", (n_in,)),
        ("input_b", (n_in,)),
        ("output_w", (n_out,)),
        ("output_b", (n_out,)),
        ("sparsity_mask", (units, units)),
        ("sensory_sparsity_mask", (n_in, units)),
        ("active_mask", (units,)),
    )}
    rec, inm, act = a["sparsity_mask"], a["sensory_sparsity_mask"], a["active_mask"]
    if not (_is_01(rec) and _is_01(inm) and _is_01(act)):
        raise BadInput(f"{sub}: masks must hold only 0 and 1")
    cols = np.nonzero(inm.any(axis=0))[0]
    if not np.all(inm[:, cols] == 1):
        raise BadInput(f"{sub}: sensory_sparsity_mask must be ones on whole columns (the input group), as the public layer builds it")
    inactive = tuple(int(i) for i in np.nonzero(act == 0)[0])
    inputs = tuple(int(i) for i in cols)
    outputs = tuple(range(n_out)) if backbone else inputs
    if len(outputs) != n_out:
        raise BadInput(f"{sub}: {len(outputs)} output neurons (the input group) but output_w has {n_out}")
    rest = tuple(i for i in range(units) if i not in set(inputs) | set(outputs) | set(inactive))
    if backbone:  # input inter, output motor, disabled sensory (REFERENCE_IMPLEMENTATION.md)
        named = {"inter": inputs, "motor": outputs, "sensory": inactive, "command": rest}
        roles = (["inter"], ["motor"], ["sensory"])
    else:  # input = output = sensory; inter, command, motor disabled
        named = {"sensory": inputs, "inter": inactive, "command": rest, "motor": ()}
        roles = (["sensory"], ["sensory"], ["inter", "command", "motor"])
    disabled_io = (set(inputs) | set(outputs)) & set(inactive)
    if disabled_io or (backbone and set(inputs) & set(outputs)):
        raise BadInput(f"{sub}: input/output neurons {sorted(disabled_io or set(inputs) & set(outputs))} are disabled or overlap")
    if groups:
        for alias in _GROUP_ALIASES.get(sub, (sub,)):
            for gname, want in (("input", inputs), ("output", outputs)):
                got = groups.get(f"{alias}/{gname}_indices")
                if got is not None and tuple(int(i) for i in np.asarray(got)) != tuple(want):
                    raise BadInput(f"{sub}: {gname} group {tuple(np.asarray(got).tolist())} disagrees with the masks {want}")
    wiring = Wiring(rec.astype(np.int64), inm.astype(np.int64), n_out if backbone else 0, named)
    key = jax.random.PRNGKey(0)  # placeholder draws, all replaced below
    if backbone:
        module = NCPBackbone(wiring, depth, 1, key=key, activation="linear", dtype=dtype)
        cell = module.cell
    else:
        module = cell = NCPCell(wiring, *roles, key=key, activation="linear", dtype=dtype)
    if not (np.array_equal(np.asarray(cell.input_mask), inm) and np.array_equal(np.asarray(cell.recurrent_mask), rec)
            and np.array_equal(np.asarray(cell.active_mask), act)):
        raise BadInput(f"{sub}: the masks do not describe a cell of the public layer")
    arrays = tuple(jnp.asarray(a[n], dtype) for n in ("input_kernel", "recurrent_kernel", "bias", "input_w", "input_b", "output_w", "output_b"))
    fields = lambda c: (c.input_kernel, c.recurrent_kernel, c.bias, c.w_in, c.b_in, c.w_out, c.b_out)  # noqa: E731
    if backbone:
        return eqx.tree_at(lambda m: fields(m.cell), module, arrays)
    return eqx.tree_at(fields, module, arrays)


def _dense(weights, sub: str, n_in: int, n_out: int, dtype) -> Dense:
    d = Dense(n_in, n_out, key=jax.random.PRNGKey(0), dtype=dtype)
    w = _get(weights, sub, "kernel", (n_in, n_out))
    b = _get(weights, sub, "bias", (n_out,))
    return eqx.tree_at(lambda m: (m.weight, m.bias), d, (jnp.asarray(w, dtype), jnp.asarray(b, dtype)))


def from_keras_weights(
    weights: Mapping[str, np.ndarray],
    config: Mapping,
    *,
    mode: str = "exact",
    groups: Mapping[str, np.ndarray] | None = None,
    dtype=None,
    **options,
) -> NAC:
    """The `reference`-variant `NAC` holding a Keras NAC layer's weights (module docstring).

    ``weights``: arrays named ``"<sublayer>/<name>"``; ``config``: the layer's arguments;
    ``mode``: exact / euler / steady; ``groups``: optional neuron groups to cross-check;
    ``dtype``: the parameters' dtype (default: that of ``q_proj/input_kernel``, float32 for
    Keras); ``options``: inference options of `NACConfig` (``return_sequences``,
    ``return_attention``, ``output_activation``, ``query_chunk``). Raises `BadInput` on a
    missing or misshapen weight, or masks that the public layer could not have built."""
    cfg = {k: np.asarray(v).item() for k, v in config.items() if k in _CONFIG_KEYS}
    for k in ("d_model", "num_heads"):
        if k not in cfg:
            raise BadInput(f"config needs {k!r}")
    unknown = set(options) - {"return_sequences", "return_attention", "output_activation", "query_chunk"}
    if unknown:
        raise BadInput(f"options {sorted(unknown)} are not inference options of the reference layer")
    ints = {"d_model", "num_heads", "topk", "euler_steps"}
    kw = {k: (int(v) if k in ints else float(v)) for k, v in cfg.items()}
    config_obj = NACConfig(mode=mode, backbone="reference", head="shared", activation="linear", **kw, **options)
    d, depth = config_obj.d_model, config_obj.depth
    if dtype is None:
        dtype = np.asarray(weights.get("q_proj/input_kernel", np.zeros((), np.float32))).dtype
    q, k, v = (_cell(weights, groups, s, d, d, False, depth, dtype) for s in ("q_proj", "k_proj", "v_proj"))
    backbone = _cell(weights, groups, "out", 2 * depth, 1, True, depth, dtype)
    time = PseudoTime(depth, key=jax.random.PRNGKey(0), dtype=dtype)
    time = eqx.tree_at(lambda m: (m.t_a, m.t_b), time, (_dense(weights, "time_a", 2 * depth, 1, dtype), _dense(weights, "time_b", 2 * depth, 1, dtype)))
    out = _dense(weights, "out_proj", d, d, dtype)
    return NAC.from_parts(config_obj, q_proj=q, k_proj=k, v_proj=v, backbone=backbone, time=time, out_proj=out)
