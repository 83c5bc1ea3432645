"""A JAX/Equinox Neuronal Attention Circuit (seed 001 section 2.2; shared/reference).

``NAC(d_model, num_heads, key=key, **options)`` builds the layer; see `NACConfig` for the
options (curation exact / block / pairwise, modes exact / euler / steady, backbone variants
reference / circuit / fc, heads shared / split). `export_gates` writes the gate tensors
in the exchange format of `nacverify audit`; `from_keras_weights` loads a trained Keras NAC
layer's weights into the ``reference`` variant (proven equal in float32 by
``nac.model.reference_parity``).
"""

from .cell import NCPCell
from .curation import block_layout, block_topk, exact_topk, recall_at_k
from .export import export_gates
from .gates import logits
from .keras_weights import from_keras_weights, golden_arrays, golden_gate_entries
from .nac import NAC, AttentionMap, GateTrace, NACConfig
from .wiring import Wiring, auto_ncp, backbone_units, from_ncps, projection_units

__all__ = [
    "NAC",
    "NACConfig",
    "AttentionMap",
    "GateTrace",
    "NCPCell",
    "Wiring",
    "auto_ncp",
    "from_ncps",
    "backbone_units",
    "projection_units",
    "exact_topk",
    "block_layout",
    "block_topk",
    "recall_at_k",
    "logits",
    "export_gates",
    "from_keras_weights",
    "golden_arrays",
    "golden_gate_entries",
]
