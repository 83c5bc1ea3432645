r"""Seed 002's cost statements: 'Computational complexity for input sequence of length T:
O(L x T)' (section 4, `ltc.eq9.complexity`), 'A dense LTC with N neurons has the same
complexity as a dense LSTM with N cells' (`ltc.eq9.lstm_complexity`) and section 16's
'The fused solver enables O(L x T) complexity matching LSTM, while achieving both high
forward and backward accuracy (unlike the adjoint method)' (`ltc.sec16.efficient`, the
conjunction of those two with `ltc.s5.adjoint_errors`).

The forward pass's work is counted exactly on its jaxpr (`_ltc_common.op_count`) and fitted
by $a L T + b T + c$; per-step flops of the LTC (f re-evaluated or frozen) and of an LSTM cell
are XLA's count of one compiled step (CPU), fitted as $N^p$ over N = 256..1024.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..compute.host import host_zeros
from ..run.shared_work import cached
from ._ltc_common import _CACHE, SEED002, _cost_data, _fit, _linear_fit, _net, fused_sequence
from .ltc_bptt import _adjoint_check

__all__ = ["cost_claims"]


def _complexity_check(ctx: CheckContext) -> Outcome:
    Ts, Ls, fwd, _ = _cost_data(ctx)
    a, b, c, resid = _linear_fit(Ts, Ls, fwd)
    e_T, e_L = _fit(Ts, fwd[2]), _fit(Ls, fwd[:, -1])
    scalars = {"ops_per_substep": a, "ops_per_step_outside_substeps": b, "ops_constant": c, "max_relative_residual": resid,
               "exponent_T_at_L4": e_T, "exponent_L_at_T1024": e_L, "neurons": 32, "inputs": 4,
               "counted_by": "elements produced by every executed primitive (multiply-adds for dot_general) of the jaxpr (scan bodies times their length)"}
    ev = Evidence({"T": Ts.astype(float), "L": Ls.astype(float), "ops_forward": fwd}, scalars)
    msg = (f"exact op count of the eq. 9 forward pass (N = 32, M = 4, lax.scan over T, L substeps): {a:.0f} L T + {b:.0f} T + {c:.0f} "
           f"(max residual {resid:.1e} over T = 64..1024, L = 1..16): O(L x T); log-log slopes {e_T:.3f} in T, {e_L:.3f} in L (the T-only term "
           f"makes the L slope < 1 at small L). The per-substep cost {a:.0f} grows with N (dense gamma_r: N^2), which O(L x T) leaves out")
    if resid <= 1e-9 and a > 0:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED, msg + ": the count is not of the form a L T + b T + c", ev)


def _lstm_step(params, x, c, I):
    z = x @ params["U"] + I @ params["W"] + params["b"]  # (4N,)
    n = x.shape[-1]
    i, f, o, g = (jax.nn.sigmoid(z[..., :n]), jax.nn.sigmoid(z[..., n : 2 * n]), jax.nn.sigmoid(z[..., 2 * n : 3 * n]), jnp.tanh(z[..., 3 * n :]))
    c = f * c + i * g
    return o * jnp.tanh(c), c


def _flops(fn, *args) -> float:
    from ..compute.xla_cost import cpu_flops

    return cpu_flops(fn, *args, compiled=True)  # compiled for the CPU whatever the device (nacverify.compute.xla_cost)


def _lstm_data(quick: bool = False):
    return cached(_CACHE, ("lstm", quick), lambda: _lstm_data_computed(quick), "ltc.lstm_flops")


def _lstm_data_computed(quick: bool = False):
    ns = np.array([256, 512, 1024] if quick else [64, 128, 256, 512, 1024])  # --quick: only the sizes the fit uses
    m, L = 8, 4
    rows = []
    for n in ns:
        p = _net(int(n), m, 1)
        x, I = host_zeros((1, int(n))), host_zeros((1, 1, m))
        ltc = _flops(lambda p, I: fused_sequence(p, I, 0.1, L), p, I)
        ltc_once = _flops(lambda p, I: fused_sequence(p, I, 0.1, L, f_once=True), p, I)
        lp = {"U": host_zeros((int(n), 4 * int(n))), "W": host_zeros((m, 4 * int(n))), "b": host_zeros(4 * int(n))}
        lstm = _flops(lambda lp, x, I: _lstm_step(lp, x, x, I), lp, x, I[0])
        rows.append((ltc, ltc_once, lstm))
    return (ns, m, L, np.array(rows))


def _lstm_check(ctx: CheckContext) -> Outcome:
    ns, m, L, flops = _lstm_data(ctx.quick)
    big = ns >= 256
    exps = [_fit(ns[big], flops[big, k]) for k in range(3)]
    ratio = flops[-1, 0] / flops[-1, 2]
    ratio_once = flops[-1, 1] / flops[-1, 2]  # at N = 1024
    scalars = {"exponent_ltc": exps[0], "exponent_ltc_f_once": exps[1], "exponent_lstm": exps[2], "L": L, "inputs": m,
               "flops_ratio_ltc_over_lstm_N1024": float(ratio), "flops_ratio_ltc_f_once_over_lstm_N1024": float(ratio_once),
               "counted_by": "XLA cost_analysis of one compiled input step (CPU)"}
    ev = Evidence({"N": ns.astype(float), "flops_ltc": flops[:, 0], "flops_ltc_f_once": flops[:, 1], "flops_lstm": flops[:, 2]}, scalars)
    msg = (f"flops per input step (XLA count) grow like N^{exps[0]:.2f} (LTC, f re-evaluated at each of L = {L} substeps), N^{exps[1]:.2f} "
           f"(LTC, f once per step as section 10) and N^{exps[2]:.2f} (LSTM), fitted over N = 256..1024, M = {m}: the same order Theta(N^2 + N M); "
           f"the constants differ: LTC/LSTM = {ratio:.2f} (about L/4) and {ratio_once:.2f} (f once) at N = 1024")
    if all(abs(e - 2) <= 0.1 for e in exps):
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED if abs(exps[0] - exps[2]) > 0.3 else Verdict.INCONCLUSIVE, msg, ev)


def _efficient_check(ctx: CheckContext) -> Outcome:
    parts = {"O(L x T)": _complexity_check(ctx), "matching LSTM": _lstm_check(ctx), "adjoint backward errors": _adjoint_check(ctx)}
    verdicts = {k: o.verdict for k, o in parts.items()}
    scalars = {f"verdict_{k.replace(' ', '_')}": str(v) for k, v in verdicts.items()}
    msg = "; ".join(f"{k}: {o.verdict} ({o.message[:160]}...)" for k, o in parts.items())
    if all(v == Verdict.HOLDS for v in verdicts.values()):
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    if any(v == Verdict.REFUTED for v in verdicts.values()):
        return Outcome(Verdict.REFUTED, msg, Evidence({}, scalars))
    return Outcome(Verdict.INCONCLUSIVE, msg, Evidence({}, scalars))


def cost_claims() -> list[Claim]:
    s = SEED002
    return [
        Claim("ltc.eq9.complexity", f"{s}, section 4 line 186, 'Computational complexity for input sequence of length T: O(L x T)'",
              "the work of the eq. 9 forward pass (exact count of elements produced by executed primitives) is a L T + b T + c",
              "JAX jaxpr of the forward pass, N = 32, M = 4, lax.scan over T, L substeps unrolled; T = 64..1024, L = 1..16; exact fit required",
              Verdict.HOLDS, "each substep does the same work; the count is exactly affine in L T and T", _complexity_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq9.lstm_complexity", f"{s}, section 4 line 187, 'A dense LTC with N neurons has the same complexity as a dense LSTM with N cells'",
              "flops per input step of a dense LTC (eq. 9, L substeps) and of a dense LSTM grow with the same power of N",
              "XLA flop counts of one compiled step, N = 64..1024 (256..1024 under --quick; fit over 256..1024), M = 8, L = 4", Verdict.HOLDS,
              "both are Theta(N^2 + N M); the constant ratio is about L/4", _lstm_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.sec16.efficient", f"{s}, section 16 line 529, 'The fused solver enables O(L x T) complexity matching LSTM, while achieving both high "
              f"forward and backward accuracy (unlike the adjoint method)'",
              "the conjunction of ltc.eq9.complexity, ltc.eq9.lstm_complexity and ltc.s5.adjoint_errors", "as those claims", Verdict.HOLDS,
              "the complexity parts hold, and the backsolve adjoint's gradient error exceeds backprop-through-the-solver's in every regime "
              "(ltc.s5.adjoint_errors)", _efficient_check, group="ltc", kind=Kind.AS_PRINTED),
    ]


add_provider(cost_claims)
