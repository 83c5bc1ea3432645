r"""Section 4 of both NAC versions: the unit formulas and the architectural size.

Claims ``nac.s4.units``: units_sensory = ceil((d_model - 0.5)/0.6) and units_backbone =
d_model + floor(d_model/0.6) against AutoNCP's projection wiring (ncps), the public
implementation and the suite model; ``nac.s4.larger``: "a larger overall architectural size",
read as more trainable parameters than a standard MHA layer of the same d_model and heads.
"""

from __future__ import annotations

import math

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._costs import SEED000, SEED001, _model, _param_count

__all__ = ["units_claims"]


# ---------------------------------------------------------------------------- units, size
def _units_check(ctx: CheckContext) -> Outcome:
    from ..model.wiring import auto_ncp, backbone_units, projection_units
    from ..errors import BadInput

    # d_model >= 2: at d_model = 1 no AutoNCP can be built for any number of units (ncps needs units >= 3, and then
    # makes at least 2 inter neurons), and the documents use d_model 16..100 (Table 4)
    ds = list(range(2, 17)) + ([32, 64, 100] if ctx.quick else [24, 32, 48, 64, 100, 128])
    rows, fails = [], []
    for d in ds:
        us, ub = math.ceil((d - 0.5) / 0.6), d + math.floor(d / 0.6)
        same_formula = us == projection_units(d) and ub == backbone_units(d)
        try:
            w = auto_ncp(us, 0, 0.5, d)
            n_sens = len(w.groups["sensory"])
        except BadInput:
            n_sens = -1
        rows.append((d, us, ub, n_sens, int(same_formula)))
        if n_sens != d or not same_formula:
            fails.append((d, us, n_sens))
    arr = np.array(rows)
    arrays = {"d_model": arr[:, 0], "units_sensory": arr[:, 1], "units_backbone": arr[:, 2], "sensory_group_size": arr[:, 3],
              "model_formula_equal": arr[:, 4].astype(bool)}
    scalars = {"d_values": len(ds), "failures": len(fails)}
    base = (f"units_sensory = ceil((d - 0.5)/0.6), units_backbone = d + floor(d/0.6) (equal to the reference description and to "
            f"nacverify.model.wiring for every d); AutoNCP(units_sensory, 0, sparsity 0.5) (ncps 1.0.1) for d_model in {ds}: ")
    if fails:
        d, us, ns_ = fails[0]
        return Outcome(Verdict.REFUTED, base + f"the sensory group has d_model neurons except at d_model = {[f[0] for f in fails]}: d = {d} gives "
                       f"{us} unit(s) and {'ncps rejects the wiring' if ns_ < 0 else f'{ns_} sensory neurons'}",
                       Evidence(arrays, scalars, {"d_model": d, "units_sensory": us, "sensory_neurons": ns_}))
    return Outcome(Verdict.HOLDS, base + "the sensory group has exactly d_model neurons", Evidence(arrays, scalars))


def _larger_check(ctx: CheckContext) -> Outcome:
    import jax

    from ..model import NAC
    from ..model.baselines import MHA

    ds = (16, 32, 64) if ctx.quick else (16, 32, 64, 100)
    rows = []
    for d in ds:
        nac = _param_count(_model(d, 4, backbone="reference"))
        mha = _param_count(MHA(d, 4, key=jax.random.PRNGKey(0)))
        rows.append((d, nac, mha, 4 * d * d + 4 * d))
    del NAC
    arr = np.array(rows)
    ok = bool(np.all(arr[:, 1] > arr[:, 2])) and bool(np.all(arr[:, 2] == arr[:, 3]))
    arrays = {"d_model": arr[:, 0], "nac_params": arr[:, 1], "mha_params": arr[:, 2]}
    scalars = {"min_ratio": float(np.min(arr[:, 1] / arr[:, 2])), "max_ratio": float(np.max(arr[:, 1] / arr[:, 2]))}
    msg = (f"trainable parameters, NAC layer (reference backbone: three NCP projection cells, backbone cell, t_a/t_b, output Dense) vs MHA "
           f"(4 d^2 + 4 d), 4 heads, d_model {list(ds)}: NAC {arr[:, 1].tolist()} vs MHA {arr[:, 2].tolist()} "
           f"(ratio {scalars['min_ratio']:.2f}..{scalars['max_ratio']:.2f}); units_backbone ~ 2.67 d and units_sensory ~ 1.67 d")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(arrays, scalars))


# ---------------------------------------------------------------------------- registry
def units_claims() -> list[Claim]:
    """Section 4's unit formulas and size (group 'complexity')."""
    g = "complexity"
    A, I = Kind.AS_PRINTED, Kind.IMPLEMENTATION
    H, F = Verdict.HOLDS, Verdict.REFUTED
    return [
        Claim("nac.s4.units", f"{SEED000}, Section 4, 'units_sensory = ceil((d_model - 0.5)/0.6) and units_backbone = d_model + floor(d_model/0.6)'; {SEED001}, Section 4",
              "with units_sensory = ceil((d_model - 0.5)/0.6), AutoNCP (ncps 1.0.1, sparsity 0.5) builds a projection wiring whose sensory group has exactly d_model neurons; both formulas equal the public implementation's and the suite model's",
              "d_model in 2..16 and {24, 32, 48, 64, 100, 128} ({32, 64, 100} under --quick; ncps wiring builds are slow); d_model = 1 is left out: "
              "ncps's AutoNCP needs units >= 3 and then makes at least 2 inter neurons, so no wiring of any size has a 1-neuron sensory group, "
              "and the documents use d_model 16..100", H,
              "every d_model tested gives exactly d_model sensory neurons, and both formulas equal the public implementation's",
              _units_check, group=g, kind=I),
        Claim("nac.s4.larger", f"{SEED000}, Section 4, 'This results in a larger overall architectural size'; {SEED001}, Section 4",
              "a proxy for 'larger overall architectural size': the suite's NAC layer (reference backbone) has more trainable parameters than a standard MHA layer (4 d^2 + 4 d) of the same d_model and heads",
              "d_model in {16, 32, 64, 100}, 4 heads", H, "measured", _larger_check, group=g, kind=A),
    ]


add_provider(units_claims)
