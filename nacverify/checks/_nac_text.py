r"""What the modules of NAC text statements share: the seed names their sources cite and the
suite model and inputs their model checks draw (`nacverify.model.NAC`, float64 unless stated,
seeded from the check's context; small sizes), and the layer's forward and trace compiled as one
program per configuration and shape (`_run`, `_trace`). No claims here.

The text statements: `nac_text_closed_forms` (closed forms), `nac_thm3_proof` (000's proof of
Theorem 3 on the regime families), `nac_s22_model` (Section 2.2's attention on the model) and
`nac_thm2_proof` (Theorem 2 and its proof, Appendix B.3, on the model).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext
from ..model.nac import AttentionMap, GateTrace
from ..compute.program_cache import cached_jit, register_namedtuple

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"


def _model(ctx: CheckContext, dtype=jnp.float64, d_model: int = 4, heads: int = 2, seed_offset: int = 0, **options):
    from ..model import NAC

    return NAC(d_model, heads, key=jax.random.PRNGKey(ctx.seed + seed_offset), dtype=dtype, **options)


def _inputs(ctx: CheckContext, shape, offset: int = 0, dtype=np.float64):
    return np.random.default_rng(ctx.seed + 500 + offset).standard_normal(shape).astype(dtype)


# One compiled program per model configuration and input shape (eqx.filter_jit: the model's options are static, its
# parameters and the inputs arguments) instead of dispatching the layer's few hundred operations one by one, each
# lowered and looked up in JAX's cache in every process; as for nac.thm2.value_path (charitable_nac), the values are
# the same bits (the checks using these say so in their commit). The traced programs are kept between runs
# (`nacverify.compute.program_cache`); their outputs, `AttentionMap` and `GateTrace`, are registered for that.
register_namedtuple(AttentionMap)
register_namedtuple(GateTrace)


@cached_jit
def _run(model, x, times=None, mask=None):
    """model(x, times, mask), compiled."""
    return model(x, times, mask)


@cached_jit
def _trace(model, x, times=None, mask=None):
    """model.trace(x, times, mask), compiled."""
    return model.trace(x, times, mask)


# A claim that evaluates many configurations on one input compiles them as one program: XLA's CPU
# compiler spends a fixed time on each program besides its operations (measured on a 2-core machine:
# nac.s22.softmax's 18 traces compile in 4.3 s as 18 programs, 2.7 s as one). Each configuration's
# operations are its own, so its values are the same bits as from `_run` / `_trace` alone.
@cached_jit
def _run_all(models, x):
    """[model(x) for model in models], compiled as one program."""
    return [model(x) for model in models]


@cached_jit
def _trace_all(models, x, masks):
    """[model.trace(x, None, mask) for model, mask in zip(models, masks)], compiled as one program."""
    return [model.trace(x, None, mask) for model, mask in zip(models, masks)]
