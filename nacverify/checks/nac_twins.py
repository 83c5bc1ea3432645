r"""Statements that 000 and 001 (two versions of the NAC paper) make twice, checked the same way in both.

Appendix C.2 of 000 and C.3 of 001 print the same sentence: "For sequence prediction over length
$n$ with hidden dimension $k$, RNNs scale linearly, $O(nk)$, while Attention [and NAC] scale
quadratically, $O(n^2 k)$." The RNN figure is not the standard one: an Elman RNN
$h_t = \tanh(x_t W + h_{t-1} U + b)$ with $W, U \in \mathbb{R}^{k \times k}$ does $2 k^2$
multiply-adds twice per step, $4 n k^2$ dot FLOPs over $n$ steps (Vaswani et al. 2017, Table 1:
recurrent $O(n d^2)$, self-attention $O(n^2 d)$). Counted exactly from the traced programs:

* ``nac.c3.rnn.nk`` (as printed): $O(nk)$ in both $n$ and $k$; the count $4 n k^2$ divided by
  $n k$ is $4k$, unbounded in $k$: refuted, with no tolerance (the witness is the exact count).
* ``nac.c3.rnn.linear_in_n`` (the charitable reading: "scale linearly" is about the length $n$
  at a fixed hidden size $k$): the count is exactly $4 k^2 \cdot n$, linear in $n$.
* ``nac.c3.attention.n2k`` (reading: the attention operation $\mathrm{softmax}(Q K^\top) V$
  with its $O(n k^2)$ projections left out, the per-layer accounting of Vaswani et al.): exactly
  $4 n^2 k$ dot FLOPs.
"""

from __future__ import annotations

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from .nac_complexity import _sds, fit_slope, jaxpr_stats

__all__ = ["twin_claims", "rnn_dot_flops", "attention_dot_flops"]

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"
SENTENCE = "'For sequence prediction over length n with hidden dimension k, RNNs scale linearly, O(nk), while Attention [and NAC] scale quadratically, O(n^2 k)'"
SOURCE = f"{SEED000}, Appendix C.2; {SEED001}, Appendix C.3: {SENTENCE}"
LENGTHS = (8, 16, 32, 64)
WIDTHS = (8, 16, 32, 64)


def rnn_dot_flops(n: int, k: int) -> float:
    """Dot FLOPs of an Elman RNN forward over n steps, input and hidden size k (traced, unrolled)."""
    import jax.numpy as jnp

    def forward(xs, w_in, w_rec, bias):
        h = jnp.zeros((k,), xs.dtype)
        for t in range(n):
            h = jnp.tanh(xs[t] @ w_in + h @ w_rec + bias)
        return h

    return float(jaxpr_stats(forward, _sds(n, k), _sds(k, k), _sds(k, k), _sds(k))["dot_flops"])


def attention_dot_flops(n: int, k: int) -> float:
    """Dot FLOPs of softmax(Q K^T / sqrt(k)) V for n queries and keys of width k (projections left out)."""
    import jax
    import jax.numpy as jnp

    def attend(q, key, v):
        return jax.nn.softmax(q @ key.T / jnp.sqrt(float(k)), axis=-1) @ v

    return float(jaxpr_stats(attend, _sds(n, k), _sds(n, k), _sds(n, k))["dot_flops"])


def _grid(count) -> tuple[np.ndarray, np.ndarray]:
    """Counts at fixed k = 32 over LENGTHS and at fixed n = 32 over WIDTHS."""
    return np.array([count(n, 32) for n in LENGTHS]), np.array([count(32, k) for k in WIDTHS])


def _rnn_evidence() -> tuple[dict, dict]:
    by_n, by_k = _grid(rnn_dot_flops)
    arrays = {"n": np.array(LENGTHS), "k": np.array(WIDTHS), "rnn_dot_flops_vs_n": by_n, "rnn_dot_flops_vs_k": by_k,
              "flops_per_nk_vs_k": by_k / (32.0 * np.array(WIDTHS))}
    scalars = {"slope_n": fit_slope(np.array(LENGTHS), by_n), "slope_k": fit_slope(np.array(WIDTHS), by_k)}
    return arrays, scalars


def _rnn_nk_check(ctx: CheckContext) -> Outcome:
    arrays, scalars = _rnn_evidence()
    per_nk = arrays["flops_per_nk_vs_k"]
    msg = (f"Elman RNN, n = 32 steps: dot FLOPs {arrays['rnn_dot_flops_vs_k'].astype(int).tolist()} for k = {list(WIDTHS)}, i.e. 4 n k^2 "
           f"(slope {scalars['slope_k']:.4f} in k); per n k: {per_nk.tolist()} = 4 k, unbounded, so the cost is O(n k^2), not O(nk)")
    if np.all(np.diff(per_nk) > 0):
        return Outcome(Verdict.REFUTED, msg, Evidence(arrays, scalars, {"n": 32, "k": int(WIDTHS[-1]), "dot_flops": float(arrays["rnn_dot_flops_vs_k"][-1]),
                                                                         "dot_flops_per_nk": float(per_nk[-1])}))
    return Outcome(Verdict.HOLDS, msg, Evidence(arrays, scalars))


def _rnn_linear_in_n_check(ctx: CheckContext) -> Outcome:
    arrays, scalars = _rnn_evidence()
    per_step = arrays["rnn_dot_flops_vs_n"] / np.array(LENGTHS)
    linear = bool(np.all(per_step == per_step[0]))
    msg = (f"Elman RNN, k = 32: dot FLOPs {arrays['rnn_dot_flops_vs_n'].astype(int).tolist()} for n = {list(LENGTHS)}, exactly "
           f"{per_step[0]:.0f} = 4 k^2 per step: linear in n at fixed k")
    return Outcome(Verdict.HOLDS if linear else Verdict.REFUTED, msg, Evidence(arrays, {**scalars, "dot_flops_per_step": float(per_step[0])}))


def _attention_check(ctx: CheckContext) -> Outcome:
    by_n, by_k = _grid(attention_dot_flops)
    ns, ks = np.array(LENGTHS, float), np.array(WIDTHS, float)
    exact_n, exact_k = bool(np.all(by_n == 4 * ns**2 * 32)), bool(np.all(by_k == 4 * 32**2 * ks))
    arrays = {"n": np.array(LENGTHS), "k": np.array(WIDTHS), "attention_dot_flops_vs_n": by_n, "attention_dot_flops_vs_k": by_k}
    scalars = {"slope_n": fit_slope(ns, by_n), "slope_k": fit_slope(ks, by_k)}
    msg = (f"softmax(Q K^T) V: dot FLOPs {by_n.astype(int).tolist()} for n = {list(LENGTHS)} (k = 32) and {by_k.astype(int).tolist()} for "
           f"k = {list(WIDTHS)} (n = 32): exactly 4 n^2 k ({exact_n and exact_k}), quadratic in n and linear in k")
    return Outcome(Verdict.HOLDS if exact_n and exact_k else Verdict.REFUTED, msg, Evidence(arrays, scalars))


def twin_claims() -> list[Claim]:
    return [
        Claim(id="nac.c3.rnn.nk", source=SOURCE,
              statement="an RNN over n steps with hidden dimension k costs O(nk): its operation count over n k stays bounded as k grows",
              assumptions="Elman RNN h_t = tanh(x_t W + h_{t-1} U + b), input and hidden size k, dot FLOPs counted from the traced program; "
                          "n = 32, k in {8, 16, 32, 64}",
              expected=Verdict.REFUTED,
              expected_reason="the recurrent product h U alone is 2 k^2 per step: the count is 4 n k^2 exactly, 4k per n k (the standard "
                              "figure, O(n k^2), of Vaswani et al. 2017, Table 1)",
              check=_rnn_nk_check, group="complexity", kind=Kind.AS_PRINTED),
        Claim(id="nac.c3.rnn.linear_in_n", source=SOURCE,
              statement="an RNN's cost grows linearly in the sequence length n at a fixed hidden dimension k",
              assumptions="Elman RNN as nac.c3.rnn.nk; k = 32, n in {8, 16, 32, 64}",
              expected=Verdict.HOLDS, expected_reason="4 k^2 dot FLOPs per step, the same at every step",
              check=_rnn_linear_in_n_check, group="complexity", kind=Kind.READING,
              reading="'scale linearly, O(nk)' read as the growth in the sequence length n at fixed k, the contrast the sentence draws "
                      "with Attention's quadratic growth in n"),
        Claim(id="nac.c3.attention.n2k", source=SOURCE,
              statement="the attention operation softmax(Q K^T / sqrt(k)) V over n queries and keys of width k costs O(n^2 k): exactly 4 n^2 k dot FLOPs",
              assumptions="one head of width k, n in {8, 16, 32, 64} at k = 32 and k in {8, 16, 32, 64} at n = 32",
              expected=Verdict.HOLDS, expected_reason="Q K^T and the weighted sum are each 2 n^2 k",
              check=_attention_check, group="complexity", kind=Kind.READING,
              reading="the attention operation itself, its O(n k^2) query/key/value projections left out (the per-layer accounting of "
                      "Vaswani et al. 2017, Table 1, which the document's Attention row matches)"),
    ]


add_provider(twin_claims)
