r"""The run-time and memory table of both NAC versions: 000 Table 5 (Appendix D.4), 001 Table 2 (Section 3.4).

Claims ``nac000.table5.*`` and ``nac001.table2.*``: throughput against 1/run-time (batch 1, to
printed precision), peak memories printed twice for different configurations (000), NAC's
"intermediate position" between the CT-RNN and CT-Attention groups (Abstract, Sections 1, 3.4,
4, 5; groups of each version's Appendix D.1, `nacverify.checks._tables.CT_RNNS`), "less runtime /
memory than" the groups (001 Section 5), and 001 Section 3.4's sentences on the rows (run time
between CfC and GRU-ODE/LTC, memory below mTAN, NAC-2k the least memory, sparsity and Top-K
against memory, "Steady mode is the fastest"), and the cells in which 001's Table 2 differs from
000's Table 5. Every check is exact arithmetic on the printed values
(`nacverify.checks._tables.runtime_table`).

*NAC rows* are the rows whose name starts with ``NAC-``; *NCP-gated* NAC rows leave out the
``FC`` ablations, which replace the NCP gating by dense layers (D.2). Where a sentence is
ambiguous (what "between" or "less than CT-RNNs" means) there is one claim per plausible
reading, of kind ``reading``, each naming its interpretation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..claims import Claim, Evidence, Kind, Outcome, Verdict, add_provider, restated
from ._tables import CT_ATTENTIONS, CT_RNNS, DEFAULT_NAC, SEEDS, F, H, I, R, RuntimeTable, _claim, _s, runtime_table

__all__ = ["throughput_interval", "runtime_table_claims"]


# ----------------------------------------------------------------------------- arithmetic


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def throughput_interval(runtime_text: str, throughput_text: str, slack_units: float = 0.5) -> tuple[float, float]:
    """The throughputs 1/r compatible with the printed run time (r anywhere in its last printed
    digit's rounding interval), widened by `slack_units` units of the throughput's last printed
    digit (0.5: correct rounding; 1.0: also admits a slip of one in the last digit)."""
    r = float(runtime_text)
    half_r = 0.5 * 10.0 ** -_decimals(runtime_text)
    unit_t = 10.0 ** -_decimals(throughput_text)
    return 1.0 / (r + half_r) - slack_units * unit_t, 1.0 / (r - half_r) + slack_units * unit_t


# ----------------------------------------------------------------------------- run-time table checks


def _throughput_outcome(version: str) -> Outcome:
    """Throughput against 1/run-time. A row passes when the printed throughput lies within one
    unit of its last printed digit of the interval 1/r allows (r within its own rounding); rows
    outside the strict rounding interval but inside that slack are reported as rounding slips."""
    t = runtime_table(version)
    lo, hi, strict, ok = [], [], [], []
    for rt, tp, value in zip(t.runtime_text, t.throughput_text, t.throughput):
        a, b = throughput_interval(rt, tp, 1.0)
        c, d = throughput_interval(rt, tp, 0.5)
        lo.append(c); hi.append(d); strict.append(c <= value <= d); ok.append(a <= value <= b)
    ok_arr, strict_arr = np.array(ok), np.array(strict)
    inverse = 1.0 / t.runtime
    rel = t.throughput / inverse - 1.0
    arrays = {"models": _s(t.models), "runtime_s": t.runtime, "throughput_printed": t.throughput, "inverse_runtime": inverse,
              "rounding_interval_low": np.array(lo), "rounding_interval_high": np.array(hi), "consistent": ok_arr.astype(int), "correctly_rounded": strict_arr.astype(int)}
    scalars = {"rows": len(t.models), "rows_inconsistent": int((~ok_arr).sum()), "rounding_slips": int((ok_arr & ~strict_arr).sum()),
               "max_abs_relative_deviation": float(np.max(np.abs(rel)))}
    name = "Table 5" if version == "000" else "Table 2"
    slips = [i for i in range(len(ok)) if ok[i] and not strict[i]]
    slip_text = ("; rounding slips of one in the last digit: " + ", ".join(f"{t.models[i]} 1/{t.runtime_text[i]} = {inverse[i]:.5f} printed {t.throughput_text[i]}" for i in slips)) if slips else ""
    if ok_arr.all():
        return Outcome(Verdict.HOLDS, f"{version} {name}: throughput = 1/run-time in all {len(ok)} rows to printed precision{slip_text}", Evidence(arrays, scalars, {}))
    bad = np.flatnonzero(~ok_arr)
    listing = "; ".join(f"{t.models[i]}: 1/{t.runtime_text[i]} = {inverse[i]:.2f}, printed {t.throughput_text[i]}" for i in bad)
    i = int(bad[0])
    return Outcome(Verdict.REFUTED, f"{version} {name}: {len(bad)} of {len(ok)} rows print a throughput other than 1/run-time: {listing}{slip_text}",
                   Evidence(arrays, scalars, {"model": t.models[i], "runtime_s": float(t.runtime[i]), "throughput_printed": float(t.throughput[i]), "inverse_runtime": float(inverse[i])}))


def _duplicate_memory(version: str) -> Outcome:
    t = runtime_table(version)
    pairs = [(t.models[i], t.models[j], t.memory_text[i]) for i in range(len(t.models)) for j in range(i + 1, len(t.models)) if t.memory[i] == t.memory[j]]
    arrays = {"model_a": _s([p[0] for p in pairs]), "model_b": _s([p[1] for p in pairs]), "memory_mb": np.array([float(p[2]) for p in pairs])}
    if not pairs:
        return Outcome(Verdict.HOLDS, "no two configurations print the same peak memory", Evidence(arrays, {"duplicate_pairs": 0}, {}))
    listing = "; ".join(f"{a} = {b} = {m} MB" for a, b, m in pairs)
    extra = ""
    if {"NAC-phi_linear", "NAC-09s"} <= set(t.models):
        a, b = t.row("NAC-phi_linear"), t.row("NAC-09s")
        extra = f"; NAC-phi_linear also prints run time {a['runtime_s']:g} s next to NAC-09s's {b['runtime_s']:g} s, while the default {DEFAULT_NAC} (same gating, sigmoid phi) prints {t.row(DEFAULT_NAC)['memory_mb']:g} MB"
    return Outcome(Verdict.INCONCLUSIVE, f"{len(pairs)} pairs of different configurations print identical peak memory to 0.01 MB: {listing}{extra}. "
                   "A flag, not a proof: equal architectures can measure alike; deciding needs the authors' runs",
                   Evidence(arrays, {"duplicate_pairs": len(pairs)}, {"model_a": pairs[0][0], "model_b": pairs[0][1], "memory_mb": float(pairs[0][2])}))


def _nac_rows(t: RuntimeTable, which: str) -> list[str]:
    rows = [m for m in t.models if m.startswith("NAC-")]
    if which == "ncp":
        return [m for m in rows if "FC" not in m]
    if which == "default":
        return [DEFAULT_NAC]
    return rows


def _group(t: RuntimeTable, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    idx = [t.index(n) for n in names]
    return t.runtime[idx], t.memory[idx]


def _between_outcome(version: str, rows: str, rule: str) -> Outcome:
    """NAC's position between the CT-RNN and the CT-Attention groups (D.1 of the version).

    rule 'ranges': NAC run time within [min, max] of the CT-RNN run times and NAC memory within
    [min, max] of the CT-Attention memories. rule 'medians': NAC run time and NAC memory each lie
    between the CT-RNN group median and the CT-Attention group median."""
    t = runtime_table(version)
    rnn_rt, rnn_mem = _group(t, CT_RNNS[version])
    att_rt, att_mem = _group(t, CT_ATTENTIONS)
    if rule == "ranges":
        rt_lo, rt_hi, mem_lo, mem_hi = rnn_rt.min(), rnn_rt.max(), att_mem.min(), att_mem.max()
        how = f"run time in the CT-RNN range [{rt_lo:g}, {rt_hi:g}] s and memory in the CT-Attention range [{mem_lo:g}, {mem_hi:g}] MB"
    else:
        a, b = np.median(rnn_rt), np.median(att_rt)
        c, d = np.median(rnn_mem), np.median(att_mem)
        rt_lo, rt_hi, mem_lo, mem_hi = min(a, b), max(a, b), min(c, d), max(c, d)
        how = (f"run time between the group medians (CT-RNN {a:.4g} s, CT-Attention {b:.4g} s) and memory between them "
               f"(CT-RNN {c:.4g} MB, CT-Attention {d:.4g} MB)")
    names = _nac_rows(t, rows)
    rt = np.array([t.row(n)["runtime_s"] for n in names])
    mem = np.array([t.row(n)["memory_mb"] for n in names])
    rt_ok = (rt >= rt_lo) & (rt <= rt_hi)
    mem_ok = (mem >= mem_lo) & (mem <= mem_hi)
    arrays = {"nac_models": _s(names), "runtime_s": rt, "memory_mb": mem, "runtime_inside": rt_ok.astype(int), "memory_inside": mem_ok.astype(int),
              "ct_rnn_models": _s(CT_RNNS[version]), "ct_rnn_runtime_s": rnn_rt, "ct_rnn_memory_mb": rnn_mem,
              "ct_attention_models": _s(CT_ATTENTIONS), "ct_attention_runtime_s": att_rt, "ct_attention_memory_mb": att_mem}
    scalars = {"runtime_low": float(rt_lo), "runtime_high": float(rt_hi), "memory_low": float(mem_lo), "memory_high": float(mem_hi),
               "rows": len(names), "rows_runtime_outside": int((~rt_ok).sum()), "rows_memory_outside": int((~mem_ok).sum()),
               "flips_at": float(np.mean(rt_ok & mem_ok))}  # share of NAC rows inside: 'every row' is a coverage of 1
    groups = f"(groups of {version} D.1: CT-RNNs {', '.join(CT_RNNS[version])}; CT-Attentions {', '.join(CT_ATTENTIONS)})"
    if version == "000" and rule == "ranges":
        classic = [n for n in CT_RNNS["000"] if n not in ("DeepState", "S4")]
        c_rt, _ = _group(t, classic)
        scalars["runtime_low_without_deepstate_s4"] = float(c_rt.min())
        groups += f"; without DeepState and S4 the CT-RNN range starts at {c_rt.min():g} s"
    bad = [f"{n} ({'run time ' + format(rt[k], 'g') + ' s' if not rt_ok[k] else ''}{', ' if not rt_ok[k] and not mem_ok[k] else ''}{'memory ' + format(mem[k], 'g') + ' MB' if not mem_ok[k] else ''})"
           for k, n in enumerate(names) if not (rt_ok[k] and mem_ok[k])]
    if not bad:
        return Outcome(Verdict.HOLDS, f"all {len(names)} NAC row(s) ({', '.join(names)}) have {how} {groups}", Evidence(arrays, scalars, {}))
    k = next(k for k in range(len(names)) if not (rt_ok[k] and mem_ok[k]))
    return Outcome(Verdict.REFUTED, f"{len(bad)} of {len(names)} NAC rows fail {how}: {'; '.join(bad)} {groups}",
                   Evidence(arrays, scalars, {"model": names[k], "runtime_s": float(rt[k]), "memory_mb": float(mem[k])}))


def _less_than_groups_default() -> Outcome:
    """001 Section 5, 'requiring less runtime than CT-RNNs and less memory than CT-Attention models', for the
    default NAC against the document's own lists (D.1): how many CT-RNNs it outruns and how many CT-Attention
    models it undercuts in memory. The generic plural is read as the group as a whole (at least half of its
    members); only 'some member' (at least one) would keep it, and that narrows the plural."""
    t = runtime_table("001")
    rnn_rt, _ = _group(t, CT_RNNS["001"])
    _, att_mem = _group(t, CT_ATTENTIONS)
    row = t.row(DEFAULT_NAC)
    faster = int(np.sum(row["runtime_s"] < rnn_rt))
    lighter = int(np.sum(row["memory_mb"] < att_mem))
    ok = 2 * faster >= len(rnn_rt) and 2 * lighter >= len(att_mem)
    scalars = {"ct_rnns_slower_than_default": faster, "ct_rnns": len(rnn_rt), "ct_attentions_heavier_than_default": lighter,
               "ct_attentions": len(att_mem), "runtime_s": float(row["runtime_s"]), "memory_mb": float(row["memory_mb"]),
               "ct_rnn_median_runtime_s": float(np.median(rnn_rt)), "ct_attention_median_memory_mb": float(np.median(att_mem))}
    msg = (f"{DEFAULT_NAC} ({row['runtime_s']:g} s, {row['memory_mb']:g} MB) runs faster than {faster} of the {len(rnn_rt)} CT-RNNs "
           f"(median {np.median(rnn_rt):.4g} s) and uses less memory than {lighter} of the {len(att_mem)} CT-Attention models "
           f"(median {np.median(att_mem):.4g} MB); only 'less than some of them' would hold")
    if ok:
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars, {}))
    return Outcome(Verdict.REFUTED, msg, Evidence({}, scalars, {"model": DEFAULT_NAC, "ct_attentions_heavier": lighter, "ct_attentions": len(att_mem)}))


def _less_than_groups(rule: str) -> Outcome:
    """001 Section 5: 'requiring less runtime than CT-RNNs and less memory than CT-Attention models'."""
    t = runtime_table("001")
    rnn_rt, _ = _group(t, CT_RNNS["001"])
    _, att_mem = _group(t, CT_ATTENTIONS)
    rt_limit = rnn_rt.min() if rule == "every" else float(np.median(rnn_rt))
    mem_limit = att_mem.min() if rule == "every" else float(np.median(att_mem))
    names = _nac_rows(t, "all")
    rt = np.array([t.row(n)["runtime_s"] for n in names])
    mem = np.array([t.row(n)["memory_mb"] for n in names])
    ok = (rt < rt_limit) & (mem < mem_limit)
    what = "every member" if rule == "every" else "the group median"
    arrays = {"nac_models": _s(names), "runtime_s": rt, "memory_mb": mem, "ok": ok.astype(int)}
    scalars = {"runtime_limit_s": float(rt_limit), "memory_limit_mb": float(mem_limit), "rows_ok": int(ok.sum()), "rows": len(names),
               "flips_at": float(np.mean(ok))}  # share of NAC rows that pass: 'every row' is a coverage of 1
    passing = [n for n, o in zip(names, ok) if o]
    msg = (f"run time below {what} of the CT-RNNs ({rt_limit:.4g} s) and memory below {what} of the CT-Attentions ({mem_limit:.4g} MB): "
           f"{int(ok.sum())}/{len(names)} NAC rows pass ({', '.join(passing) or 'none'}); {DEFAULT_NAC}: {t.row(DEFAULT_NAC)['runtime_s']:g} s, {t.row(DEFAULT_NAC)['memory_mb']:g} MB")
    if ok.all():
        return Outcome(Verdict.HOLDS, msg, Evidence(arrays, scalars, {}))
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, msg, Evidence(arrays, scalars, {"model": names[k], "runtime_s": float(rt[k]), "memory_mb": float(mem[k])}))


def _runtime_between_cfc_and_slow(rows: str) -> Outcome:
    """001 Section 3.4: NAC's run time lies between CfC's and GRU-ODE's / LTC's."""
    t = runtime_table("001")
    lo = t.row("CfC")["runtime_s"]
    hi = min(t.row("GRU-ODE")["runtime_s"], t.row("LTC")["runtime_s"])
    names = _nac_rows(t, rows)
    rt = np.array([t.row(n)["runtime_s"] for n in names])
    ok = (rt > lo) & (rt < hi)
    arrays = {"nac_models": _s(names), "runtime_s": rt, "inside": ok.astype(int)}
    scalars = {"cfc_runtime_s": lo, "gru_ode_ltc_min_runtime_s": hi, "rows": len(names), "rows_outside": int((~ok).sum()), "flips_at": float(np.mean(ok))}
    if ok.all():
        return Outcome(Verdict.HOLDS, f"CfC {lo:g} s < every NAC row ({rt.min():g}..{rt.max():g} s, {len(names)} rows) < GRU-ODE {t.row('GRU-ODE')['runtime_s']:g} s, LTC {t.row('LTC')['runtime_s']:g} s", Evidence(arrays, scalars, {}))
    bad = "; ".join(f"{n} {r:g} s" for n, r, o in zip(names, rt, ok) if not o)
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"NAC rows outside (CfC {lo:g} s, GRU-ODE/LTC {hi:g} s): {bad}", Evidence(arrays, scalars, {"model": names[k], "runtime_s": float(rt[k])}))


def _memory_below_mtan(rows: str) -> Outcome:
    t = runtime_table("001")
    limit = t.row("mTAN")["memory_mb"]
    names = _nac_rows(t, rows)
    mem = np.array([t.row(n)["memory_mb"] for n in names])
    ok = mem < limit
    ratio = limit / mem
    arrays = {"nac_models": _s(names), "memory_mb": mem, "mtan_over_nac": ratio}
    scalars = {"mtan_memory_mb": limit, "rows": len(names), "rows_not_below": int((~ok).sum()), "min_ratio": float(ratio.min()), "flips_at": float(np.mean(ok))}
    if ok.all():
        return Outcome(Verdict.HOLDS, f"{', '.join(names)}: memory {mem.max():g} MB or less, mTAN {limit:g} MB ({ratio.min():.2f}x or more)", Evidence(arrays, scalars, {}))
    k = int(np.argmin(ratio))
    return Outcome(Verdict.REFUTED, f"{names[k]} uses {mem[k]:g} MB, {1 / ratio[k]:.2f}x mTAN's {limit:g} MB ({int((~ok).sum())} of {len(names)} NAC rows not below mTAN)",
                   Evidence(arrays, scalars, {"model": names[k], "memory_mb": float(mem[k]), "mtan_memory_mb": limit}))


def _nac2k_least(among: str) -> Outcome:
    t = runtime_table("001")
    nac = _nac_rows(t, "ncp" if among == "ncp" else "all")
    pool = list(CT_ATTENTIONS) + nac if among == "ct_attention" else nac
    mem = np.array([t.row(n)["memory_mb"] for n in pool])
    target = t.row("NAC-2k")["memory_mb"]
    below = [(n, m) for n, m in zip(pool, mem) if m < target]
    arrays = {"models": _s(pool), "memory_mb": mem}
    scope = {"ct_attention": "the CT-Attention rows and the NAC rows", "nac": "all NAC rows", "ncp": "the NCP-gated NAC rows (FC ablation left out)"}[among]
    scalars = {"nac2k_memory_mb": target, "rows": len(pool), "rows_below": len(below)}
    if not below:
        return Outcome(Verdict.HOLDS, f"NAC-2k {target:g} MB is the least among {scope} ({len(pool)} rows; next {np.sort(mem)[1]:g} MB)", Evidence(arrays, scalars, {}))
    n, m = min(below, key=lambda x: x[1])
    return Outcome(Verdict.REFUTED, f"among {scope}, " + ", ".join(f"{a} {b:g} MB" for a, b in below) + f" use less than NAC-2k's {target:g} MB",
                   Evidence(arrays, scalars, {"model": n, "memory_mb": float(m), "nac2k_memory_mb": target}))


def _sparsity_memory(aspect: str) -> Outcome:
    t = runtime_table("001")
    m90, m20 = t.row("NAC-09s")["memory_mb"], t.row("NAC-02s")["memory_mb"]
    change = m20 - m90  # going from 90% to 20% sparsity
    rel = change / m90
    scalars = {"memory_90pct_mb": m90, "memory_20pct_mb": m20, "change_90_to_20_mb": change, "relative_change": rel}
    if aspect == "direction":
        # the sentence: reducing sparsity 90% -> 20% decreases memory, from 151.54 MB to 150.85 MB
        if change < 0:
            return Outcome(Verdict.HOLDS, f"90% -> 20% sparsity: {m90:g} -> {m20:g} MB, a decrease", Evidence({}, scalars, {}))
        return Outcome(Verdict.REFUTED, f"Table 2 prints NAC-09s (90%) {m90:g} MB and NAC-02s (20%) {m20:g} MB: reducing sparsity 90% -> 20% INCREASES memory by {change:.2f} MB; "
                       "the sentence's 'from 151.54 MB to 150.85 MB' runs the other way (20% -> 90%)",
                       Evidence({}, scalars, {"NAC-09s_memory_mb": m90, "NAC-02s_memory_mb": m20}))
    ok = abs(rel) < 0.01
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, f"|{m20:g} - {m90:g}| / {m90:g} = {abs(rel):.3%} ({'<' if ok else '>='} 1%)", Evidence({}, scalars, {}))


def _topk_memory() -> Outcome:
    t = runtime_table("001")
    names = ["NAC-2k", DEFAULT_NAC, "NAC-32k", "NAC-PW"]
    mem = np.array([t.row(n)["memory_mb"] for n in names])
    printed_pw, printed_2k = 5042.0, 44.75  # the sentence's 'from 5042 MB to 44.75 MB'
    values_ok = round(mem[3]) == printed_pw and mem[0] == printed_2k
    increasing = bool(np.all(np.diff(mem) > 0))
    arrays = {"models": _s(names), "top_k": _s(["2", "8", "32", "all (PW)"]), "memory_mb": mem}
    scalars = {"pw_over_2k": float(mem[3] / mem[0]), "memory_increasing_in_k": increasing}
    msg = f"memory over K = 2, 8, 32, PW: {', '.join(f'{m:g}' for m in mem)} MB ({'increasing' if increasing else 'not increasing'}); PW/2k = {mem[3] / mem[0]:.1f}x; sentence's 5042 and 44.75 MB {'match' if values_ok else 'do not match'} Table 2"
    if values_ok and increasing:
        return Outcome(Verdict.HOLDS, msg, Evidence(arrays, scalars, {}))
    return Outcome(Verdict.REFUTED, msg, Evidence(arrays, scalars, {"NAC-PW_memory_mb": float(mem[3]), "NAC-2k_memory_mb": float(mem[0])}))


def _steady_fastest(reading: str) -> Outcome:
    t = runtime_table("001")
    modes = ["NAC-Steady", "NAC-Euler", DEFAULT_NAC]
    pool = modes if reading != "among_nac" else _nac_rows(t, "all")
    rt = np.array([t.row(n)["runtime_s"] for n in pool])
    sd = np.array([t.row(n)["runtime_std_s"] for n in pool])
    s = pool.index("NAC-Steady")
    others = [k for k in range(len(pool)) if k != s]
    arrays = {"models": _s(pool), "runtime_s": rt, "runtime_std_s": sd}
    gaps = rt[others] - rt[s]
    scalars = {"steady_runtime_s": float(rt[s]), "min_gap_s": float(gaps.min()), "steady_std_s": float(sd[s])}
    listing = ", ".join(f"{n} {r:g}+-{d:g} s" for n, r, d in zip(pool, rt, sd))
    if reading == "beyond_std":
        need = np.maximum(sd[others], sd[s])
        if np.all(gaps > need):
            return Outcome(Verdict.HOLDS, f"NAC-Steady faster than the other modes by more than one std ({listing})", Evidence(arrays, scalars, {}))
        if np.any(gaps < -need):
            return Outcome(Verdict.REFUTED, f"a mode is faster than NAC-Steady by more than one std ({listing})", Evidence(arrays, scalars, {}))
        return Outcome(Verdict.INCONCLUSIVE, f"the gaps {', '.join(f'{g:.4f}' for g in gaps)} s are below the printed std ({listing}): the table cannot separate the modes",
                       Evidence(arrays, scalars, {"min_gap_s": float(gaps.min()), "std_s": float(sd[s])}))
    if np.all(gaps > 0):
        return Outcome(Verdict.HOLDS, f"NAC-Steady has the lowest mean run time ({listing}); gaps {', '.join(f'{g:.4f}' for g in gaps)} s, below one std", Evidence(arrays, scalars, {}))
    faster = [(pool[k], rt[k]) for k in others if rt[k] <= rt[s]]
    return Outcome(Verdict.REFUTED, f"faster than NAC-Steady ({rt[s]:g} s): " + ", ".join(f"{n} {r:g} s" for n, r in faster),
                   Evidence(arrays, scalars, {"model": faster[0][0], "runtime_s": float(faster[0][1]), "steady_runtime_s": float(rt[s])}))


def _table2_vs000(observed: int = 4) -> Outcome:
    """An observation, not an accusation: holds when 000's Table 5 and 001's Table 2 differ in exactly the `observed` cells recorded."""
    old, new = runtime_table("000"), runtime_table("001")
    shared = [m for m in new.models if m in old.models]
    fields = ("runtime_s", "runtime_std_s", "throughput", "memory_mb")
    diffs = [(m, f, old.row(m)[f], new.row(m)[f]) for m in shared for f in fields if old.row(m)[f] != new.row(m)[f]]
    same_rows = [m for m in shared if all(old.row(m)[f] == new.row(m)[f] for f in fields)]
    arrays = {"model": _s([d[0] for d in diffs]), "field": _s([d[1] for d in diffs]), "value_000": np.array([d[2] for d in diffs]),
              "value_001": np.array([d[3] for d in diffs]), "identical_rows": _s(same_rows), "rows_only_in_000": _s([m for m in old.models if m not in new.models])}
    scalars = {"shared_rows": len(shared), "identical_rows": len(same_rows), "cells_differing": len(diffs)}
    note = f"; identical rows include NAC-PW {new.row('NAC-PW')['runtime_s']:g} s / {new.row('NAC-PW')['memory_mb']:g} MB although 000 curates keys by block (square-root) Top-K and 001 scores the full QK^T"
    listing = "; ".join(f"{m} {f} {a:g}->{b:g}" for m, f, a, b in diffs) or "none"
    msg = f"{len(same_rows)} of {len(shared)} shared rows identical; {len(diffs)} cells differ (000 -> 001): {listing}{note}"
    return Outcome(Verdict.HOLDS if len(diffs) == observed else Verdict.REFUTED, msg + ("" if len(diffs) == observed else f" (recorded: {observed})"),
                   Evidence(arrays, scalars, {}))


# ----------------------------------------------------------------------------- claims


T5 = "printed values of the run-time/memory table (sequence 1024, 64 features, 4 heads, batch 1, T4 GPU)"


def _claims000() -> list[Claim]:
    v = "000"
    return [
        _claim("nac000.table5.throughput", v, "Appendix D.4, Table 5", "Model Run-Time (s) Throughput (seq/s) Peak Memory (MB)",
               "every row's throughput equals 1/run-time (batch 1) to printed precision (a slip of one in the last digit is reported, not counted)", T5, F,
               "NAC-FC (1/0.0588 = 17.01 vs 20.48) and the three sparse FC rows (09sFC/05sFC look swapped) fail; NAC-09s 0.139 for 1/7.222 = 0.13847 is a rounding slip", lambda: _throughput_outcome(v)),
        _claim("nac000.table5.duplicate_memory", v, "Appendix D.4, Table 5, NAC-phi rows", "NAC-ϕlinear\\phi_{\\text{linear}} 7.223±0.1647.223^{\\scriptsize\\pm 0.164} 0.138 150.85",
               "Table 5's rows are separate measurements: identical peak memory across different configurations is flagged", T5, I,
               "NAC-phi_linear = NAC-09s (150.85), NAC-phi_tanh = NAC-02s (151.54), ODEFormer = ContiFormer (67.71), NAC-09sFC = NAC-02sFC (24.34): a flag, not a proof",
               lambda: _duplicate_memory(v)),
        _claim("nac000.table5.intermediate.ranges", v, "Section 4 (Discussions)", "NAC occupies an intermediate position between CT-RNN and CT-Attention baselines in terms of runtime and memory consumption",
               "every NAC row's run time lies within the CT-RNN run-time range and its memory within the CT-Attention memory range (groups of D.1)", T5, F,
               "NAC-PW 5042.09 MB exceeds every CT-Attention (max 790.16 MB)", lambda: _between_outcome(v, "all", "ranges"), R,
               "'between CT-RNNs in speed and CT-Attentions in memory' (Section 1) = inside each group's range, for every NAC row", threshold="'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"),
        _claim("nac000.table5.intermediate.ranges.default", v, "Section 4 (Discussions)", "NAC occupies an intermediate position between CT-RNN and CT-Attention baselines in terms of runtime and memory consumption",
               f"{DEFAULT_NAC}'s run time lies within the CT-RNN run-time range and its memory within the CT-Attention memory range (groups of D.1)", T5, H,
               "7.41 s in [0.0182, 14.643] s; 151.50 MB in [1.43, 790.16] MB", lambda: _between_outcome(v, "default", "ranges"), R,
               "'NAC' = the recommended default NAC-Exact/05s/8k; 'between' = inside each group's range"),
        _claim("nac000.table5.intermediate.medians", v, "Section 5 (Conclusion)", "NAC occupies an intermediate position between CT-RNNs and CT-Attentions in terms of runtime and memory consumption",
               "every NAC row's run time and memory each lie between the CT-RNN group median and the CT-Attention group median (groups of D.1)", T5, F,
               "NCP NAC rows (7.2-8.6 s) are slower than the CT-RNN median 6.60 s; most use more memory than the CT-Attention median 67.71 MB",
               lambda: _between_outcome(v, "all", "medians"), R, "'intermediate between the groups' = between the two group medians, for run time and for memory"),
    ]


def _claims001() -> list[Claim]:
    v = "001"
    return [
        _claim("nac001.table2.throughput", v, "Section 3.4, Table 2", "RNN 1 _._ 8392 _[±]_ [0] _[.]_ [1933] 0.544 0.29",
               "every row's throughput equals 1/run-time (batch 1) to printed precision (a slip of one in the last digit is reported, not counted)", T5, H,
               "all 24 rows agree (NAC-FC 1/0.0195 = 51.28); NAC-09s prints 0.139 for 1/7.222 = 0.13847, a last-digit rounding slip", lambda: _throughput_outcome(v)),
        _claim("nac001.table2.vs000", v, "Section 3.4, Table 2, NAC-PW row", "NAC-PW 8 _._ 5649 _[±]_ [0] _[.]_ [0203] 0.117 5042.09",
               "an observation, not a statement of either document: 001's Table 2 differs from 000's Table 5 in exactly 4 cells (NAC-FC's row)", "rows printed in both versions", H,
               "NAC-FC differs in all four cells; the other 23 shared rows, NAC-PW included, are identical; neither version says the two share their numbers",
               _table2_vs000, Kind.LEMMA),
        _claim("nac001.table2.intermediate.ranges", v, "Abstract", "occupies an intermediate position in runtime and memory efficiency compared with several CT baselines",
               "every NAC row's run time lies within the CT-RNN run-time range and its memory within the CT-Attention memory range (groups of D.1)", T5, F,
               "NAC-FC 0.0195 s is below every CT-RNN; NAC-PW 5042.09 MB above every CT-Attention", lambda: _between_outcome(v, "all", "ranges"), R,
               "'between CT-RNNs in terms of speed and CT-Attentions in terms of memory' (Section 1) = inside each group's range, every NAC row", threshold="'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"),
        _claim("nac001.table2.intermediate.ranges.ncp", v, "Abstract", "occupies an intermediate position in runtime and memory efficiency compared with several CT baselines",
               "every NCP-gated NAC row (NAC-FC left out) lies within the CT-RNN run-time range and the CT-Attention memory range", T5, F,
               "NAC-PW 5042.09 MB > 790.16 MB", lambda: _between_outcome(v, "ncp", "ranges"), R,
               "inside each group's range, NCP-gated NAC rows only (NAC-FC replaces the NCP gating)", threshold="'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"),
        _claim("nac001.table2.intermediate.ranges.default", v, "Abstract", "occupies an intermediate position in runtime and memory efficiency compared with several CT baselines",
               f"{DEFAULT_NAC} lies within the CT-RNN run-time range and the CT-Attention memory range", T5, H,
               "7.41 s in [4.98, 14.64] s; 151.50 MB in [1.43, 790.16] MB", lambda: _between_outcome(v, "default", "ranges"), R,
               "'NAC' = the default NAC-Exact/05s/8k; inside each group's range"),
        _claim("nac001.table2.intermediate.medians", v, "Section 5 (Conclusion)", "NAC occupies an intermediate position between CT-RNNs and CT-Attention",
               "every NAC row's run time and memory each lie between the CT-RNN group median and the CT-Attention group median (groups of D.1)", T5, F,
               "only NAC-2k passes on both; NAC-PW, NAC-Exact (7.41 s > CT-RNN median 7.35 s) and the 150 MB rows fail",
               lambda: _between_outcome(v, "all", "medians"), R, "'intermediate between the groups' = between the two group medians"),
        _claim("nac001.table2.less_than_groups.every_member", v, "Section 5 (Conclusion)", "requiring less runtime than CT-RNNs and less memory than CT-Attention models",
               "every NAC row runs faster than every CT-RNN and uses less memory than every CT-Attention", T5, F,
               "CTA's 1.43 MB undercuts every NAC row; only NAC-FC is faster than every CT-RNN", lambda: _less_than_groups("every"), R,
               "'less than CT-RNNs / CT-Attention models' = less than each member"),
        _claim("nac001.table2.less_than_groups.default", v, "Section 5 (Conclusion)", "requiring less runtime than CT-RNNs and less memory than CT-Attention models",
               f"{DEFAULT_NAC} runs faster than at least half of the document's CT-RNNs and uses less memory than at least half of its CT-Attention models (D.1's lists)",
               T5, F, "151.50 MB undercuts only mTAN (790.16 MB): CTA 1.43, ODEFormer 67.71 and ContiFormer 67.71 MB use less; 7.41 s beats 3 of the 6 CT-RNNs",
               _less_than_groups_default, R,
               "'NAC' = the recommended default NAC-Exact/05s/8k; 'less than CT-RNNs / CT-Attention models' = less than the group as a whole (at least half of "
               "its members, each group as the document's Appendix D.1 lists it); 'less than some of them' would narrow the plural"),
        _claim("nac001.table2.less_than_groups.median", v, "Section 5 (Conclusion)", "requiring less runtime than CT-RNNs and less memory than CT-Attention models",
               "every NAC row runs faster than the CT-RNN median and uses less memory than the CT-Attention median", T5, F,
               "only NAC-2k and NAC-FC pass (flips_at 2/9); NAC-Exact 151.50 MB > 67.71 MB", lambda: _less_than_groups("median"), R,
               "'less than CT-RNNs / CT-Attention models' = less than the group's median",
               threshold="the group median is our construction (the sentence names no statistic of the groups), and 'every NAC row' our quantifier "
                         "(it says 'NAC'); flips_at = the share of NAC rows that pass"),
        _claim("nac001.table2.runtime_between_cfc_and_gruode_ltc", v, "Section 3.4", "NAC occupies an intermediate position in runtime relative to several CT-RNN models, including GRU-ODE, CfC, and LTC",
               "every NAC row's run time lies between CfC's (6.0988 s) and the faster of GRU-ODE and LTC (12.2498 s)", T5, F,
               "NAC-FC 0.0195 s (the fully connected ablation) is faster than CfC; the other 8 NAC rows pass", lambda: _runtime_between_cfc_and_slow("all"), R,
               "'NAC' = every NAC row of Table 2, ablations included", threshold="'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"),
        _claim("nac001.table2.runtime_between_cfc_and_gruode_ltc.ncp", v, "Section 3.4", "NAC occupies an intermediate position in runtime relative to several CT-RNN models, including GRU-ODE, CfC, and LTC",
               "every NCP-gated NAC row's run time lies between CfC's and the faster of GRU-ODE and LTC", T5, H, "7.222-8.5649 s in (6.0988, 12.2498) s",
               lambda: _runtime_between_cfc_and_slow("ncp"), R, "'NAC' = the NCP-gated NAC rows (NAC-FC replaces the NCP gating)"),
        _claim("nac001.table2.memory_below_mtan", v, "Section 3.4", "In terms of memory consumption, NAC uses significantly less memory than mTAN",
               "every NAC row's peak memory is below mTAN's 790.16 MB", T5, F, "NAC-PW 5042.09 MB (the all-keys ablation) is 6.4x mTAN's; the other 8 NAC rows are below",
               lambda: _memory_below_mtan("all"), R, "'NAC' = every NAC row of Table 2, ablations included", threshold="'every NAC row' (ablations included) is our quantifier: the sentence says 'NAC'; flips_at = the share of NAC rows that pass"),
        _claim("nac001.table2.memory_below_mtan.default", v, "Section 3.4", "In terms of memory consumption, NAC uses significantly less memory than mTAN",
               f"{DEFAULT_NAC}'s peak memory is below mTAN's", T5, H, "151.50 MB vs 790.16 MB (5.2x less)", lambda: _memory_below_mtan("default"), R,
               "'NAC' = the default NAC-Exact/05s/8k"),
        _claim("nac001.table2.nac2k_least_memory", v, "Section 3.4", "with NAC-2k being the least memory-consuming among the CTAttention models",
               "NAC-2k's 44.75 MB is the least peak memory among the CT-Attention rows and the NAC rows (NAC is a CT-Attention)", T5, F,
               "CTA 1.43 MB and NAC-FC 29.92 MB use less", lambda: _nac2k_least("ct_attention")),
        _claim("nac001.table2.nac2k_least_memory.among_nac", v, "Section 3.4", "with NAC-2k being the least memory-consuming among the CTAttention models",
               "NAC-2k uses the least memory among all NAC rows", T5, F, "NAC-FC 29.92 MB < 44.75 MB", lambda: _nac2k_least("nac"), R,
               "'among the CT-Attention models' = among the NAC variants"),
        _claim("nac001.table2.nac2k_least_memory.among_ncp_nac", v, "Section 3.4", "with NAC-2k being the least memory-consuming among the CTAttention models",
               "NAC-2k uses the least memory among the NCP-gated NAC rows", T5, H, "44.75 MB, next NAC-09s 150.85 MB", lambda: _nac2k_least("ncp"), R,
               "'among the CT-Attention models' = among the NCP-gated NAC variants (NAC-FC left out)"),
        _claim("nac001.table2.sparsity_memory.direction", v, "Section 3.4", "Reducing NAC sparsity from 90% to 20% has minimal effect on memory, decreasing usage slightly",
               "going from NAC-09s (90%) to NAC-02s (20%) decreases peak memory, from 151.54 MB to 150.85 MB", T5, F,
               "Table 2: NAC-09s 150.85 MB, NAC-02s 151.54 MB, so memory rises by 0.69 MB", lambda: _sparsity_memory("direction")),
        _claim("nac001.table2.sparsity_memory.minimal", v, "Section 3.4", "Reducing NAC sparsity from 90% to 20% has minimal effect on memory",
               "NAC-09s and NAC-02s peak memories differ by less than 1%", T5, H, "0.69 MB of 150.85 MB = 0.46%", lambda: _sparsity_memory("minimal"), R,
               "'minimal effect' = under 1% change"),
        _claim("nac001.table2.topk_memory", v, "Section 3.4", "decreasing the Top- _K_ selection from _PW_ to _k_ = 2 drastically reduces memory consumption from 5042 MB to 44.75 MB",
               "Table 2 prints NAC-PW ~5042 MB and NAC-2k 44.75 MB, and memory grows with K over 2, 8, 32, PW", T5, H,
               "44.75, 151.50, 549.86, 5042.09 MB; PW/2k = 112.7x", _topk_memory),
        _claim("nac001.table2.steady_fastest", v, "Section 3.4, Interpreting the Results", "Steady mode is the fastest",
               "NAC-Steady has the lowest mean run time of the three modes (Steady, Euler, Exact)", T5, H,
               "7.2942 < 7.3367 < 7.4101 s (gaps below one std)", lambda: _steady_fastest("modes")),
        _claim("nac001.table2.steady_fastest.beyond_std", v, "Section 3.4, Interpreting the Results", "Steady mode is the fastest",
               "NAC-Steady is faster than Euler and Exact by more than the printed std", T5, I,
               "gaps 0.04 and 0.12 s are below the stds (0.15-0.17 s): the table cannot separate the modes", lambda: _steady_fastest("beyond_std"), R,
               "'fastest' = faster by more than the run-to-run spread the table prints"),
    ]


def _restated(claims: list[Claim]) -> list[Claim]:
    """The summaries that say "intermediate position between the groups" again in their own words (an
    accusation is counted where it is made: each sentence is tested by a claim of its own)."""
    by_id = {c.id: c for c in claims}
    medians000, medians001 = by_id["nac000.table5.intermediate.medians"], by_id["nac001.table2.intermediate.medians"]
    return [
        restated(medians000, suffix="abstract", source=f"{SEEDS['000']}, Abstract, 'occupies an intermediate position in runtime and memory "
                 "consumption compared with several CT state-of-the-art baselines'"),
        restated(medians000, suffix="s4", source=f"{SEEDS['000']}, Section 4 (Discussions), 'NAC occupies an intermediate position between CT-RNN "
                 "and CT-Attention baselines in terms of runtime and memory consumption'"),
        restated(medians001, suffix="abstract", source=f"{SEEDS['001']}, Abstract, 'occupies an intermediate position in runtime and memory "
                 "efficiency compared with several CT baselines'"),
        restated(medians000, suffix="s1", source=f"{SEEDS['000']}, Section 1 (Introduction), last paragraph, 'runtime and peak memory benchmarks "
                 "place it between CT-RNNs in terms of speed and CT-Attentions in terms of memory requirements'"),
        restated(medians001, suffix="intro", source=f"{SEEDS['001']}, Section 1, last paragraph, 'runtime and peak memory benchmarks place it "
                 "between CT-RNNs in terms of speed and CT-Attentions in terms of memory requirements'"),
    ]


def runtime_table_claims() -> list[Claim]:
    """The run-time/memory table claims of both versions (group 'tables')."""
    claims = _claims000() + _claims001()
    return claims + _restated(claims)


add_provider(runtime_table_claims)
