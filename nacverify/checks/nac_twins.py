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

import re

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider, restated
from ._costs import _sds, fit_slope, jaxpr_stats

__all__ = ["twin_claims", "count_claims", "rnn_dot_flops", "attention_dot_flops", "stated_and_listed", "table4_heads"]

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

# ----------------------------------------------------------------------------- counts in words against their lists
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11}
#: (document, key, the sentence as printed, the headings that follow it where the list is a run of headed paragraphs)
COUNTED = [
    ('000', 'modes', 'we define three computation modes: (i) Exact, using the closed-form ODE solution; (ii) Euler, approximating the solution via explicit Euler integration; and (iii) Steady, using only the steady-state solution, analogous to standard attention scores.',
     None),
    ('000', 'computational-modes', 'we introduce three computational modes: (i) Euler, based on explicit Euler integration; (ii) Exact, providing closed-form solutions; and (iii) Steady, approximating equilibrium states.',
     None),
    ('000', 'irregular', 'We evaluate the proposed architecture on two irregular time-series datasets: (i) Event-based MNIST; and (ii) Person Activity Recognition (PAR).',
     None),
    ('000', 'simulators', 'we used two widely adopted simulation environments: (i) OpenAI CarRacing (brockman2016openai); and (ii) the Udacity Self-Driving Car Simulator (udacity).',
     None),
    ('000', 'bearing-datasets', 'We utilized three benchmark datasets: (i) PRONOSTIA (nectoux2012pronostia), (ii) XJTU-SY (wang2018xjtu), and (iii) HUST (thuan2023hust).',
     None),
    ('000', 'interp-levels', 'at two levels: (i) Saliency maps, which use Grad-CAM (selvaraju2017grad) to visualize which features are attended to by the convolutional layers of the model during inference. Additional information on saliency maps is provided in the Appendix D.3.3; (ii) Cell-level neuron state',
     None),
    ('000', 'autoncp-inputs', 'requiring three inputs: the number of units (sensory + interneuron + motor), motor neurons, and sparsity',
     None),
    ('000', 'phi-variants', 'we tested two variants: (i) NAC-ϕlinear\\phi_{\\text{linear}} with no activation, and (ii) NAC-ϕtanh\\phi_{\\text{tanh}} with a tanh activation.',
     None),
    ('000', 'd2-subcategories', 'The brief descriptions of variants and ablation are divided into five subcategories:',
     ('Top-K Ablations', 'NAC-Sparsity Ablations', 'NAC with isolated NCPs Ablations', 'NAC with unconstrained ϕ', 'Modes Ablations')),
    ('001', 'abstract-modes', 'NAC supports three attention logit computation modes: (i) explicit Euler integration, (ii) exact closed-form solution, and (iii) steady-state approximation.',
     None),
    ('001', 'modes', 'we define three computation modes: (i) Exact, using the closed-form ODE solution; (ii) Euler, approximating the solution via _explicit Euler_ integration; and (iii) Steady, using only the steady-state solution, analogous to standard attention scores.',
     None),
    ('001', 'computational-modes', 'we introduce three computational modes: (i) Euler, based on _explicit Euler_ integration; (ii) Exact, providing closed-form solutions; and (iii) Steady, approximating equilibrium states.',
     None),
    ('001', 'irregular', 'We evaluate the proposed architecture on two irregular timeseries datasets: (i) Event-based MNIST; and (ii) Person Activity Recognition (PAR).',
     None),
    ('001', 'simulators', 'two widely adopted simulation environments: (i) OpenAI CarRacing (Brockman et al., 2016); and (ii) the Udacity SelfDriving Car Simulator (uda).',
     None),
    ('001', 'bearing-datasets', 'We utilized three benchmark datasets: (i) PRONOSTIA (Nectoux et al., 2012), (ii) XJTU-SY (Wang et al., 2018), and (iii) HUST (Thuan & Hong, 2023).',
     None),
    ('001', 'd2-subcategories', 'The brief descriptions of variants and ablation are also divided into four subcategories:',
     ('Top-K Ablations', 'Sparsity Ablations', 'Modes variants')),
]
#: the sentences whose count differs from their list (the repository's knowledge; the gate compares the parse with it)
MISCOUNTED = {"001.d2-subcategories": "three headed paragraphs follow (Top-K Ablations, Sparsity Ablations, Modes variants), not four"}
#: Table 4's NAC row as printed (d_model-d, heads h per experiment: MNIST, PAR, CarRacing, Udacity, RUL)
TABLE4_NAC = {"000": "NAC 64-d, 8h 32-d, 4h 64-d, 16h 100-d, 20h 16-d, 8h", "001": "NAC 64-d, 8h 32-d, 4h 64-d, 16h 100-d, 16h 16-d, 8h"}
TABLE4_COLUMNS = ("MNIST", "PAR", "CarRacing", "Udacity", "RUL")


def stated_and_listed(sentence: str, headings: tuple[str, ...] | None = None) -> tuple[int, int, list[str]]:
    """(the number stated in words, the number of entries listed, the entries). Entries: the headings when given, else the
    enumerators (i), (ii), ... after the number word, else the top-level comma list after the colon ('and' dropped)."""
    words = re.findall(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", sentence.lower())
    stated = NUMBER_WORDS[words[0]]
    if headings is not None:
        return stated, len(headings), list(headings)
    marks = re.findall(r"\((i{1,3}|iv|v|vi{0,3}|ix|x)\)", sentence)
    if marks:
        return stated, len(dict.fromkeys(marks)), marks
    tail, depth, part, parts = sentence.split(":", 1)[1], 0, "", []
    for ch in tail:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += ch
    parts = [re.sub(r"^\s*and\s+", "", x).strip() for x in [*parts, part] if x.strip()]
    return stated, len(parts), parts


def _count_check(sentence: str, headings) -> Outcome:
    stated, listed, entries = stated_and_listed(sentence, headings)
    what = "headed paragraphs follow" if headings is not None else "entries are listed"
    msg = f"the sentence says {stated}; {listed} {what}: {entries}"
    scalars = {"stated": stated, "listed": listed}
    if stated == listed:
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    return Outcome(Verdict.REFUTED, msg, Evidence({}, scalars, {"stated": stated, "listed": listed}))


def table4_heads(row: str) -> list[tuple[int, int]]:
    """(d_model, heads) per column of a printed Table 4 NAC row."""
    return [(int(d), int(h)) for d, h in re.findall(r"(\d+)-d, (\d+)h", row)]


def _heads_check(doc: str) -> Outcome:
    pairs = table4_heads(TABLE4_NAC[doc])
    per_head = [d / h for d, h in pairs]
    bad = [(col, d, h) for col, (d, h) in zip(TABLE4_COLUMNS, pairs) if d % h]
    arrays = {"d_model": np.array([d for d, _ in pairs]), "heads": np.array([h for _, h in pairs]), "d_model_over_heads": np.array(per_head)}
    msg = "; ".join(f"{col} {d}/{h} = {d / h:g}" for col, (d, h) in zip(TABLE4_COLUMNS, pairs))
    if bad:
        col, d, h = bad[0]
        return Outcome(Verdict.REFUTED, f"{msg}: {col}'s {d} model dimensions do not split into {h} heads of dimension d_model/H",
                       Evidence(arrays, {"columns_not_divisible": len(bad)}, {"column": col, "d_model": d, "heads": h, "d_model_over_heads": d / h}))
    return Outcome(Verdict.HOLDS, f"{msg}: every head has an integer dimension d_model/H", Evidence(arrays, {"columns_not_divisible": 0}))


def count_claims() -> list[Claim]:
    out = []
    for doc, key, sentence, headings in COUNTED:
        stated, listed, _ = stated_and_listed(sentence, headings)
        seed = SEED000 if doc == "000" else SEED001
        out.append(Claim(
            id=f"nac{doc}.count.{key}", source=f"{seed}, '{sentence[:90]}{'...' if len(sentence) > 90 else ''}'",
            statement=f"the number in words ({stated}) equals the number of {'headed paragraphs that follow' if headings else 'entries the sentence lists'}",
            assumptions="the sentence as printed; entries are its enumerators (i), (ii), ..., its comma-separated list, or the headings that follow it",
            expected=Verdict.REFUTED if f"{doc}.{key}" in MISCOUNTED else Verdict.HOLDS,
            expected_reason=MISCOUNTED.get(f"{doc}.{key}", "as many entries as the number says"),
            check=lambda ctx, sentence=sentence, headings=headings: _count_check(sentence, headings), group="text", kind=Kind.AS_PRINTED))
    for doc in ("000", "001"):
        seed = SEED000 if doc == "000" else SEED001
        ok = doc == "000"  # 001 prints Udacity's NAC as 100-d, 16h (000: 20h)
        out.append(Claim(
            id=f"nac{doc}.table4.heads_divide", source=f"{seed}, Table 4, NAC row '{TABLE4_NAC[doc]}'; Section 2.2 / Appendix B.3, heads of dimension d = d_model/H",
            statement="every experiment's NAC d_model splits into its number of heads: d_model/H is an integer (the architecture's head dimension)",
            assumptions="the printed (d_model, heads) of each Table 4 column; Section 2.2 projects into H subspaces of dimension d_model/H",
            expected=Verdict.HOLDS if ok else Verdict.REFUTED,
            expected_reason="64/8, 32/4, 64/16, 100/20, 16/8 are integers" if ok else "Udacity: 100-d with 16 heads, 100/16 = 6.25",
            check=lambda ctx, doc=doc: _heads_check(doc), group="text", kind=Kind.AS_PRINTED))
    return out


# ----------------------------------------------------------------------------- 000's Appendix D.4 comparisons (001: Section 3.4)
#: 000's D.4 paragraph states the comparisons 001 states in Section 3.4 (nac_runtime_table: nac001.table2.*), over 000's own Table 5
D4 = f"{SEED000}, Appendix D.4 (Run Time and Memory Experiments) and Table 5"
ALL_ROWS = "'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"


def _table000():
    from ._tables import runtime_table

    return runtime_table("000")


def _nac_models(t, ncp_only: bool) -> list[str]:
    return [m for m in t.models if m.startswith("NAC-") and not (ncp_only and "FC" in m)]


def _share(names, ok, what: str, witness_key: str, values) -> Outcome:
    ok = np.asarray(ok, bool)
    arrays = {"nac_models": np.array(names, dtype=object).astype(str), witness_key: np.asarray(values, float), "ok": ok.astype(int)}
    scalars = {"rows": len(names), "rows_failing": int((~ok).sum()), "flips_at": float(ok.mean())}
    if ok.all():
        return Outcome(Verdict.HOLDS, f"{what}: all {len(names)} rows ({', '.join(names)})", Evidence(arrays, scalars))
    bad = [f"{n} {v:g}" for n, v, o in zip(names, values, ok) if not o]
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"{what}: {len(bad)} of {len(names)} rows fail ({'; '.join(bad)})",
                   Evidence(arrays, scalars, {"model": names[k], witness_key: float(values[k])}))


def _d4_runtime(ncp_only: bool) -> Outcome:
    t = _table000()
    lo, hi = t.row("CfC")["runtime_s"], min(t.row("GRU-ODE")["runtime_s"], t.row("LTC")["runtime_s"])
    names = _nac_models(t, ncp_only)
    rt = [t.row(n)["runtime_s"] for n in names]
    return _share(names, [lo < r < hi for r in rt], f"run time between CfC {lo:g} s and GRU-ODE/LTC {hi:g} s", "runtime_s", rt)


def _d4_memory_mtan(default_only: bool) -> Outcome:
    from ._tables import DEFAULT_NAC

    t = _table000()
    limit = t.row("mTAN")["memory_mb"]
    names = [DEFAULT_NAC] if default_only else _nac_models(t, False)
    mem = [t.row(n)["memory_mb"] for n in names]
    return _share(names, [m < limit for m in mem], f"peak memory below mTAN's {limit:g} MB", "memory_mb", mem)


def _d4_nac2k_least(among_ncp_nac: bool) -> Outcome:
    from ._tables import CT_ATTENTIONS

    t = _table000()
    pool = _nac_models(t, True) if among_ncp_nac else list(CT_ATTENTIONS) + _nac_models(t, False)
    target = t.row("NAC-2k")["memory_mb"]
    others = [n for n in pool if n != "NAC-2k"]
    mem = [t.row(n)["memory_mb"] for n in others]
    return _share(others, [m > target for m in mem], f"NAC-2k's {target:g} MB below every other row", "memory_mb", mem)


def _d4_sparsity_direction() -> Outcome:
    t = _table000()
    m90, m20 = t.row("NAC-09s")["memory_mb"], t.row("NAC-02s")["memory_mb"]
    scalars = {"memory_90pct_mb": m90, "memory_20pct_mb": m20, "change_90_to_20_mb": m20 - m90}
    msg = f"Table 5: NAC-09s (90%) {m90:g} MB, NAC-02s (20%) {m20:g} MB; from 90% to 20% memory changes by {m20 - m90:+.2f} MB"
    if m20 < m90:
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    return Outcome(Verdict.REFUTED, msg + ": it rises; 'from 151.54 MB to 150.85 MB' runs 20% -> 90%", Evidence({}, scalars, {"NAC-09s_memory_mb": m90, "NAC-02s_memory_mb": m20}))


def _d4_topk_memory() -> Outcome:
    from ._tables import DEFAULT_NAC

    t = _table000()
    names = ["NAC-2k", DEFAULT_NAC, "NAC-32k", "NAC-PW"]
    mem = np.array([t.row(n)["memory_mb"] for n in names])
    printed = round(mem[3]) == 5042 and mem[0] == 44.75
    increasing = bool(np.all(np.diff(mem) > 0))
    msg = f"K = 2, 8, 32, PW: {', '.join(f'{m:g}' for m in mem)} MB (PW/2k = {mem[3] / mem[0]:.1f}x); the sentence's 5042 and 44.75 MB {'match' if printed else 'differ from'} Table 5"
    return Outcome(Verdict.HOLDS if printed and increasing else Verdict.REFUTED, msg, Evidence({"memory_mb": mem}, {"pw_over_2k": float(mem[3] / mem[0])}))


def d4_claims() -> list[Claim]:
    H, F, A, R = Verdict.HOLDS, Verdict.REFUTED, Kind.AS_PRINTED, Kind.READING
    every, ncp = "'NAC' = every NAC row of Table 5, ablations included", "'NAC' = the NCP-gated NAC rows (the FC ablations replace the NCP gating)"
    rows = [
        ("runtime_between", "NAC occupies an intermediate position in runtime relative to several CT-RNN models, including GRU-ODE, CfC, and LTC",
         "every NAC row's run time lies between CfC's and the faster of GRU-ODE and LTC", F, "the four FC ablations (0.05-0.06 s) are faster than CfC (6.10 s)",
         lambda: _d4_runtime(False), R, every, ALL_ROWS),
        ("runtime_between.ncp", "NAC occupies an intermediate position in runtime relative to several CT-RNN models, including GRU-ODE, CfC, and LTC",
         "every NCP-gated NAC row's run time lies between CfC's and the faster of GRU-ODE and LTC", H, "7.22-8.56 s in (6.10, 12.25) s",
         lambda: _d4_runtime(True), R, ncp, ""),
        ("memory_below_mtan", "NAC uses significantly less memory than mTAN does", "every NAC row's peak memory is below mTAN's 790.16 MB", F,
         "NAC-PW 5042.09 MB", lambda: _d4_memory_mtan(False), R, every, ALL_ROWS),
        ("memory_below_mtan.default", "NAC uses significantly less memory than mTAN does", "NAC-Exact/05s/8k's peak memory is below mTAN's", H,
         "151.50 MB vs 790.16 MB", lambda: _d4_memory_mtan(True), R, "'NAC' = the default NAC-Exact/05s/8k", ""),
        ("nac2k_least_memory", "with NAC-2k being the least memory-consuming among the CT-Attention models",
         "NAC-2k's 44.75 MB is the least peak memory among the CT-Attention rows and the NAC rows (NAC is a CT-Attention)", F,
         "CTA 1.43 MB and the FC ablations (24-25 MB) use less", lambda: _d4_nac2k_least(False), A, "", ""),
        ("nac2k_least_memory.among_ncp_nac", "with NAC-2k being the least memory-consuming among the CT-Attention models",
         "NAC-2k uses the least memory among the NCP-gated NAC rows", H, "44.75 MB, next 150.85 MB", lambda: _d4_nac2k_least(True), R,
         "'among the CT-Attention models' = among the NCP-gated NAC variants", ""),
        ("sparsity_memory.direction", "Reducing the NAC sparsity from 90% to 20% has a minimal effect on memory, decreasing usage slightly from 151.54 MB to 150.85 MB",
         "going from NAC-09s (90%) to NAC-02s (20%) decreases peak memory, from 151.54 MB to 150.85 MB", F,
         "Table 5: NAC-09s 150.85 MB, NAC-02s 151.54 MB, so memory rises by 0.69 MB", _d4_sparsity_direction, A, "", ""),
        ("topk_memory", "decreasing the Top-K selection from PW to k=2k=2 drastically reduces the memory consumption from 5042 MB to 44.75 MB",
         "Table 5 prints NAC-PW ~5042 MB and NAC-2k 44.75 MB, and memory grows with K over 2, 8, 32, PW", H, "44.75, 151.50, 549.86, 5042.09 MB",
         _d4_topk_memory, A, "", ""),
    ]
    return [Claim(id=f"nac000.d4.{key}", source=f"{D4}, '{quote}'", statement=statement, assumptions="Table 5 as printed (run time in s, peak memory in MB)",
                  expected=expected, expected_reason=why, check=lambda ctx, run=run: run(), group="tables", kind=kind, reading=reading, threshold=threshold)
            for key, quote, statement, expected, why, run, kind, reading, threshold in rows]


# ----------------------------------------------------------------------------- algorithms: declared inputs and outputs against the body
#: Algorithms 1-2 transcribed line by line: the Require symbols, the Ensure symbols, each body line as (assigned, read), the
#: returned symbols. Shapes and sizes of declared tensors (T_k, T_q, D) count as given with the tensor.
_ALG1 = dict(require=("W", "A_in", "A_rec", "N_s", "N_i", "N_c", "N_m", "alpha", "G_input", "G_output", "D_disabled"), ensure=("y_t", "x_t"),
             body=((("M_rec",), ("A_rec",)), (("M_in",), ("A_in",)), (("W_in", "W_rec", "b", "w_in", "b_in", "w_out", "b_out"), ()),
                   (("I_in",), ("G_input",)), (("I_out",), ("G_output",)), (("mask_act",), ("D_disabled",)),
                   (("u~_t",), ("u_t", "w_in", "b_in")), (("r_t",), ("x_t-1", "W_rec", "M_rec")), (("s_t",), ("u~_t", "W_in", "M_in")),
                   (("x_t",), ("alpha", "r_t", "s_t", "b", "mask_act")), (("y_t",), ("x_t", "I_out", "w_out", "b_out"))),
             returns=("y_t", "x_t"))
ALGORITHMS = {
    ("000", "alg1"): _ALG1,
    ("001", "alg1"): _ALG1,
    ("000", "alg2"): dict(require=("Q", "K_keys", "K_topk"), ensure=("U",),
                          body=((("B_s",), ("K_keys",)), (("K_blocks", "N_b"), ("K_keys", "B_s")), (("K_bar",), ("K_blocks",)),
                                (("S_coarse",), ("Q", "K_bar")), (("I_blocks",), ("S_coarse", "K_topk", "B_s")), (("K_cand",), ("K_blocks", "I_blocks")),
                                (("S_fine",), ("Q", "K_cand")), (("K_eff",), ("K_topk", "K_cand")), (("I_topk",), ("S_fine", "K_eff")),
                                (("K_selected",), ("K_cand", "I_topk")), (("U",), ("Q", "K_selected"))),
                          returns=("U",)),
    ("001", "alg2"): dict(require=("K_keys", "K_topk"), ensure=("U",),
                          body=((("S",), ("Q", "K_keys")), (("K_eff",), ("K_topk", "K_keys")), (("I_topk",), ("S", "K_eff")),
                                (("K_selected",), ("K_keys", "I_topk")), (("Q_tiled",), ("Q", "K_eff")), (("U",), ("Q_tiled", "K_selected"))),
                          returns=("U",)),
}
#: an RNN cell's step arguments: the input at t and the previous state (Algorithm 1 reads them without declaring them)
CELL_STEP_ARGUMENTS = ("u_t", "x_t-1")


def undeclared_reads(algorithm: dict) -> list[str]:
    """Symbols a body line reads that are neither Require inputs nor assigned by an earlier line, in order of first use."""
    known, out = set(algorithm["require"]), []
    for assigned, read in algorithm["body"]:
        out += [r for r in read if r not in known and r not in out]
        known |= set(assigned)
    return out


def _alg_inputs_check(doc: str, alg: str, step_arguments: tuple[str, ...] = ()) -> Outcome:
    missing = undeclared_reads(ALGORITHMS[(doc, alg)])
    left = [m for m in missing if m not in step_arguments]
    scalars = {"undeclared": len(missing), "undeclared_beyond_step_arguments": len(left)}
    msg = f"read but neither required nor computed before: {missing or 'none'}" + (f"; beyond the cell's step arguments {list(step_arguments)}: {left or 'none'}" if step_arguments else "")
    if not left:
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    return Outcome(Verdict.REFUTED, msg, Evidence({}, scalars, {"undeclared": ", ".join(left)}))


def _alg_outputs_check(doc: str, alg: str) -> Outcome:
    a = ALGORITHMS[(doc, alg)]
    ok = set(a["returns"]) == set(a["ensure"])
    msg = f"Ensure {list(a['ensure'])}, return {list(a['returns'])}"
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({}, {"same": ok}))


#: The seed line of each algorithm's Require line (the words its inputs claim tests).
REQUIRE_LINES = {("000", "alg1"): 103, ("000", "alg2"): 117, ("001", "alg1"): 425, ("001", "alg2"): 445}


def algorithm_claims() -> list[Claim]:
    out = []
    names = {"alg1": "Algorithm 1 (Repurposed NCPCell)", "alg2": "Algorithm 2 (Sparse Top-K Pairwise Concatenation)"}
    expected_inputs = {("000", "alg1"): Verdict.REFUTED, ("001", "alg1"): Verdict.REFUTED, ("000", "alg2"): Verdict.HOLDS, ("001", "alg2"): Verdict.REFUTED}
    why = {("000", "alg1"): "the body reads u_t and x_{t-1}, which Require does not list", ("001", "alg1"): "the body reads u_t and x_{t-1}, which Require does not list",
           ("000", "alg2"): "Require lists Q, K and Top-K; every other symbol is computed before use",
           ("001", "alg2"): "Require lists Keys K and Top-K only; the first line S <- Q . K^T reads Q"}
    for (doc, alg) in ALGORITHMS:
        seed = SEED000 if doc == "000" else SEED001
        src = (f"{seed}, Section 2.2, {names[alg]}: Require/Ensure lines (Require at line {REQUIRE_LINES[(doc, alg)]}) against the body "
               "(transcribed in nacverify.checks.nac_twins.ALGORITHMS)")
        out.append(Claim(id=f"nac{doc}.{alg}.inputs", source=src,
                         statement="every quantity the body reads is a Require input or computed by an earlier line",
                         assumptions="the printed lines; the sizes of a declared tensor (T_k, T_q, D) come with it",
                         expected=expected_inputs[(doc, alg)], expected_reason=why[(doc, alg)],
                         check=lambda ctx, doc=doc, alg=alg: _alg_inputs_check(doc, alg), group="text", kind=Kind.AS_PRINTED))
        out.append(Claim(id=f"nac{doc}.{alg}.outputs", source=src, statement="the returned quantities are the Ensure outputs",
                         assumptions="the printed lines", expected=Verdict.HOLDS, expected_reason="return names the Ensure outputs",
                         check=lambda ctx, doc=doc, alg=alg: _alg_outputs_check(doc, alg), group="text", kind=Kind.AS_PRINTED))
        if alg == "alg1":
            out.append(Claim(id=f"nac{doc}.alg1.inputs.cell_step", source=src,
                             statement="Require lists the cell's construction; besides it the body reads only the step's arguments u_t and x_{t-1}",
                             assumptions="the printed lines", expected=Verdict.HOLDS, expected_reason="u_t and x_{t-1} are the only undeclared reads",
                             check=lambda ctx, doc=doc: _alg_inputs_check(doc, "alg1", CELL_STEP_ARGUMENTS), group="text", kind=Kind.READING,
                             reading="Algorithm 1 as a recurrent cell: Require configures it, and each step is called with its input u_t and previous "
                                     "state x_{t-1}, as an RNN cell's call signature"))
    return out


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


def _rnn_restated() -> list[Claim]:
    """The time-step sentence says the RNN's cost again, in its own words (O(k) per step): it is tested by a claim of its own
    (the same count: 4 k^2 dot FLOPs per step). Table 3's RNN row prints C.2's O(nk) again; its caption cites nac.c3.rnn.nk
    (one defect, one item: issue 43)."""
    nk = next(c for c in twin_claims() if c.id == "nac.c3.rnn.nk")
    return [
        restated(nk, suffix="timestep", source=f"{SEED000}, Appendix C.2; {SEED001}, Appendix C.3: 'For single-time-step prediction, RNNs, "
                 "LSTMs, [and NAC (000)] require O(k)'",
                 statement="one RNN step with hidden dimension k costs O(k): its operation count over k stays bounded as k grows (n = 32 "
                           "steps counted and divided by n)"),
    ]


add_provider(twin_claims)
add_provider(_rnn_restated)
add_provider(count_claims)
add_provider(d4_claims)
add_provider(algorithm_claims)
