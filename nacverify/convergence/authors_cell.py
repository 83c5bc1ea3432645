r"""The biophysical LTC (`nacverify.ltc.BiophysicalLTC`) as the LTC authors' cell arrays
(`nacverify.audit.ltc.numerics.CellArrays`), so that their three solvers step the same ODE.

nacverify writes a synapse $j \to i$ as $w_{ij}\,\sigma(\gamma_{ij}(v_j + \mu_{ij}))(E_{ij} - v_i)$ with
matrices [postsynaptic, presynaptic]; the authors' cell as $W_{ji}\,\sigma(\sigma_{ji}(v_j - \mu_{ji}))(E_{ji} - v_i)$
with matrices [presynaptic, postsynaptic]. Hence $W = w^\top$, $\sigma = \gamma^\top$, $\mu_{cell} = -\mu^\top$,
$E_{cell} = E^\top$, and the same for the sensory synapses with the input $I_m$ as presynaptic value;
$C_m$, $G_{leak}$, $V_{leak}$ carry over, and epsilon is 0.
"""

from __future__ import annotations

import numpy as np

from ..audit.ltc.numerics import CellArrays
from ..ltc import LTCProblem

__all__ = ["cell_of"]


def cell_of(ltc: LTCProblem) -> tuple[CellArrays, np.ndarray]:
    """(the cell's arrays, the held input I (M,)) of a biophysical problem whose input is constant."""
    m = ltc.model
    a = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
    cell = CellArrays(cm=a(m.cm), gleak=a(m.g_leak), vleak=a(m.v_leak), w=a(m.w).T.copy(), sigma=a(m.gamma).T.copy(), mu=-a(m.mu).T,
                      erev=a(m.E).T.copy(), sw=a(m.w_s).T.copy(), ssigma=a(m.gamma_s).T.copy(), smu=-a(m.mu_s).T, serev=a(m.E_s).T.copy(),
                      epsilon=0.0)
    I = np.asarray(ltc.signal(0.0, xp=np), dtype=np.float64)
    return cell, I
