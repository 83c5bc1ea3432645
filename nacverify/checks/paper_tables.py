r"""Arithmetic, ranking and consistency checks on the printed tables of the two NAC versions.

Seed 000 (the version with the frozen-coefficient analysis) and seed 001 (the December 2025
preprint) print a results table (Table 1), a run-time/memory table (000 Table 5, 001 Table 2),
a hyperparameter table (Table 4) and, in 001, a data-set table (Table 5). Their sentences rank
the rows ("NAC-PW achieved first place", "ranked third"), compare groups ("an intermediate
position between CT-RNNs and CT-Attentions") and describe the data sets ("the eleven possible
activities"). Every check here is exact arithmetic on the printed numbers, shipped as CSV in
`nacverify/data/paper*.csv` (transcribed from the seeds; tests re-parse the seeds when they
are present). Claim ids say which version they follow: ``nac000.*`` or ``nac001.*``.

Conventions.

- *Rank* of a row in a column: standard competition rank ($1 + $ the number of rows with a
  strictly better printed mean; ties share a place) and dense rank ($1 + $ the number of
  distinct better means). A sentence's "ranked p-th" holds when either rank equals p, so a
  sentence is refuted only when it fails under both ways of counting ties.
- *NAC rows*: rows whose name starts with ``NAC-``; *baselines*: all other rows. *NCP-gated*
  NAC rows leave out the ``FC`` ablations, which replace the NCP gating by dense layers (D.2).
- Groups for run time and memory follow each version's Appendix D.1: 000 lists DeepState and S4
  among the CT-RNNs, 001 does not list them (and does not print them).
- Where a sentence is ambiguous (what "matches", "between" or "ranked among" means) there is
  one claim per plausible reading, of kind ``reading``, each naming its interpretation.
"""

from __future__ import annotations

import csv
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..claims import Claim, Evidence, Kind, Outcome, Verdict, add_provider

__all__ = [
    "COLUMNS",
    "HIGHER_IS_BETTER",
    "ResultsTable",
    "RuntimeTable",
    "results_table",
    "runtime_table",
    "hyperparameter_table",
    "dataset_table5",
    "dataset_facts",
    "dataset_settings",
    "dataset_splits",
    "rank_column",
    "throughput_interval",
    "paper_table_claims",
]

SEED000 = "000_8dd0046228b94766.txt"
SEED001 = "001_9075dda04a2ad935.txt"
SEEDS = {"000": SEED000, "001": SEED001}

#: Table 1's seven columns, in printed order.
COLUMNS = ("emnist", "par", "carracing", "udacity", "pronostia", "xjtu", "hust")
LABEL = {"emnist": "E-MNIST", "par": "PAR", "carracing": "CarRacing", "udacity": "Udacity", "pronostia": "PRONOSTIA", "xjtu": "XJTU-SY", "hust": "HUST"}
#: The arrows of Table 1: (up) higher is better, (down) lower is better.
HIGHER_IS_BETTER = {"emnist": True, "par": True, "carracing": True, "udacity": False, "pronostia": False, "xjtu": False, "hust": False}
#: Table 1's three column groups (the printed super-headers).
CATEGORIES = {"irregular time-series": ("emnist", "par"), "lane-keeping of AVs": ("carracing", "udacity"), "Industry 4.0": ("pronostia", "xjtu", "hust")}

#: Appendix D.1 of each version: the CT-RNN and CT-Attention baselines.
CT_RNNS = {
    "000": ("CT-RNN", "PhasedLSTM", "GRU-ODE", "mmRNN", "LTC", "CfC", "DeepState", "S4"),
    "001": ("CT-RNN", "PhasedLSTM", "GRU-ODE", "mmRNN", "LTC", "CfC"),
}
CT_ATTENTIONS = ("mTAN", "CTA", "ODEFormer", "ContiFormer")
DEFAULT_NAC = "NAC-Exact/05s/8k"  # "We recommend a Top-K of 8 with 50% sparsity as a robust default" (000 Section 3.5)


# ----------------------------------------------------------------------------- data


def _csv_rows(name: str) -> list[dict[str, str]]:
    text = resources.files("nacverify.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if line.strip() and not line.startswith("#")))


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


@dataclass(frozen=True)
class ResultsTable:
    """Table 1 of one version: printed mean and std per (model, column), bold cells (001)."""

    version: str
    models: tuple[str, ...]
    mean: dict[str, np.ndarray]
    std: dict[str, np.ndarray]
    bold: dict[str, frozenset[str]]

    def index(self, model: str) -> int:
        return self.models.index(model)

    def value(self, model: str, column: str) -> float:
        return float(self.mean[column][self.index(model)])

    def sd(self, model: str, column: str) -> float:
        return float(self.std[column][self.index(model)])

    @property
    def nac(self) -> np.ndarray:
        return np.array([m.startswith("NAC-") for m in self.models])


@functools.cache
def results_table(version: str) -> ResultsTable:
    """Table 1 of seed 000 or 001 as printed (nacverify/data/paper00N_table1.csv)."""
    rows = _csv_rows(f"paper{version}_table1.csv")
    models = tuple(r["model"] for r in rows)
    mean = {c: np.array([float(r[c]) for r in rows]) for c in COLUMNS}
    std = {c: np.array([float(r[f"{c}_std"]) for r in rows]) for c in COLUMNS}
    bold = {r["model"]: frozenset(x for x in r.get("bold", "").split(";") if x) for r in rows}
    return ResultsTable(version, models, mean, std, bold)


@dataclass(frozen=True)
class RuntimeTable:
    """The run-time and memory table of one version (000 Table 5, 001 Table 2), as printed."""

    version: str
    models: tuple[str, ...]
    runtime: np.ndarray
    runtime_std: np.ndarray
    throughput: np.ndarray
    memory: np.ndarray
    runtime_text: tuple[str, ...]
    throughput_text: tuple[str, ...]
    memory_text: tuple[str, ...]

    def index(self, model: str) -> int:
        return self.models.index(model)

    def row(self, model: str) -> dict[str, float]:
        i = self.index(model)
        return {"runtime_s": float(self.runtime[i]), "runtime_std_s": float(self.runtime_std[i]), "throughput": float(self.throughput[i]), "memory_mb": float(self.memory[i])}


@functools.cache
def runtime_table(version: str) -> RuntimeTable:
    """000 Table 5 or 001 Table 2 (nacverify/data/paper000_table5_runtime.csv, paper001_table2_runtime.csv)."""
    rows = _csv_rows("paper000_table5_runtime.csv" if version == "000" else "paper001_table2_runtime.csv")
    f = lambda key: np.array([float(r[key]) for r in rows])  # noqa: E731
    return RuntimeTable(
        version,
        tuple(r["model"] for r in rows),
        f("runtime_s"),
        f("runtime_std_s"),
        f("throughput_seq_per_s"),
        f("peak_memory_mb"),
        tuple(r["runtime_s"] for r in rows),
        tuple(r["throughput_seq_per_s"] for r in rows),
        tuple(r["peak_memory_mb"] for r in rows),
    )


@functools.cache
def hyperparameter_table(version: str) -> dict[str, dict[str, str]]:
    """Table 4 (hyperparameters): param -> experiment (mnist, par, carracing, udacity, rul) -> printed cell."""
    return {r["param"]: {k: v for k, v in r.items() if k != "param"} for r in _csv_rows(f"paper{version}_table4_hparams.csv")}


@functools.cache
def dataset_table5() -> list[dict[str, str]]:
    """001 Table 5 (data distributions of PRONOSTIA, XJTU-SY, HUST), one dict per printed row."""
    return _csv_rows("paper001_table5_datasets.csv")


@functools.cache
def dataset_facts(version: str) -> dict[str, tuple[str, tuple[str, ...], int]]:
    """Counted facts of Appendix D.3: fact -> (printed count, listed items, seed line)."""
    return {r["fact"]: (r["printed_count"], tuple(x for x in r["items"].split(";") if x), int(r["seed_line"])) for r in _csv_rows("paper_dataset_facts.csv") if r["version"] == version}


@functools.cache
def dataset_settings(version: str) -> list[dict[str, str]]:
    """Operating settings stated in the text of Appendix D.3.4 (speed, frequency, load)."""
    return [r for r in _csv_rows("paper_dataset_settings.csv") if r["version"] == version]


@functools.cache
def dataset_splits(version: str) -> list[dict[str, str]]:
    """Train/test splits stated in Appendix D.3."""
    return [r for r in _csv_rows("paper_dataset_splits.csv") if r["version"] == version]


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _count(printed: str) -> int:
    return int(printed) if printed.isdigit() else NUMBER_WORDS[printed.lower()]


def _bearings(cell: str) -> int:
    """Number of bearings in a printed range '4~7' (4, 5, 6, 7); 0 for an empty cell."""
    if not cell:
        return 0
    lo, hi = (int(x) for x in cell.split("~"))
    return hi - lo + 1


# ----------------------------------------------------------------------------- arithmetic


def rank_column(values: Sequence[float], higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """(competition rank, dense rank) of each value; ties share a place. Exact comparisons
    (the values are parsed from the same printed decimals, so equal prints are equal floats)."""
    v = np.asarray(values, float) * (-1.0 if higher_is_better else 1.0)  # smaller is better from here on
    competition = 1 + (v[None, :] < v[:, None]).sum(axis=1)
    dense = 1 + np.searchsorted(np.unique(v), v)
    return competition, dense


def _better(a: float, b: float, column: str) -> bool:
    return a > b if HIGHER_IS_BETTER[column] else a < b


def _best(values: np.ndarray, column: str) -> int:
    return int(np.argmax(values) if HIGHER_IS_BETTER[column] else np.argmin(values))


def throughput_interval(runtime_text: str, throughput_text: str, slack_units: float = 0.5) -> tuple[float, float]:
    """The throughputs 1/r compatible with the printed run time (r anywhere in its last printed
    digit's rounding interval), widened by `slack_units` units of the throughput's last printed
    digit (0.5: correct rounding; 1.0: also admits a slip of one in the last digit)."""
    r = float(runtime_text)
    half_r = 0.5 * 10.0 ** -_decimals(runtime_text)
    unit_t = 10.0 ** -_decimals(throughput_text)
    return 1.0 / (r + half_r) - slack_units * unit_t, 1.0 / (r - half_r) + slack_units * unit_t


def _s(names: Sequence[str]) -> np.ndarray:
    return np.array(list(names), dtype=str)


# ----------------------------------------------------------------------------- Table 1 checks


Placement = tuple[int | None, tuple[str, ...], float]  # (stated place or None, models, value the sentence prints)


def _placements_outcome(version: str, column: str, placements: Sequence[Placement], among: str = "all") -> Outcome:
    """Check a sentence's places and values against Table 1's column (among all rows, or the NAC rows)."""
    t = results_table(version)
    keep = np.ones(len(t.models), bool) if among == "all" else t.nac
    models = [m for m, k in zip(t.models, keep) if k]
    values = t.mean[column][keep]
    comp, dense = rank_column(values, HIGHER_IS_BETTER[column])
    order = np.lexsort((np.arange(len(models)), comp))
    failures: list[str] = []
    witness: dict[str, float | int | str] = {}
    parts = []
    for place, names, stated in placements:
        for name in names:
            i = models.index(name)
            printed = float(values[i])
            text = f"{name} {printed:g} (rank {comp[i]}, dense {dense[i]})"
            parts.append(text)
            bad_value = abs(printed - stated) > 1e-9 * max(1.0, abs(stated))
            bad_place = place is not None and place not in (int(comp[i]), int(dense[i]))
            if (bad_value or bad_place) and not witness:
                ahead = [f"{models[j]} {values[j]:g}" for j in order if comp[j] < comp[i]]
                witness = {"model": name, "column": LABEL[column], "stated_value": stated, "table_value": printed,
                           "stated_place": place if place is not None else "-", "competition_rank": int(comp[i]), "dense_rank": int(dense[i]),
                           "rows_ahead": "; ".join(ahead[:12])}
            if bad_value:
                failures.append(f"the sentence prints {name} at {stated:g}, Table 1 prints {printed:g}")
            if bad_place:
                failures.append(f"{name} is stated {place}{_th(place)} but ranks {comp[i]}{_th(int(comp[i]))} (dense {dense[i]}{_th(int(dense[i]))})")
    arrow = "higher" if HIGHER_IS_BETTER[column] else "lower"
    top = order[: min(12, len(order))]
    arrays = {"models_by_rank": _s([models[j] for j in top]), "values_by_rank": values[top], "competition_rank": comp[top], "dense_rank": dense[top]}
    scope = "all rows" if among == "all" else "NAC rows"
    scalars = {"rows_ranked": len(models), "failures": len(failures)}
    if failures:
        return Outcome(Verdict.REFUTED, f"{LABEL[column]} ({arrow} is better, {scope} of {version} Table 1): " + "; ".join(failures), Evidence(arrays, scalars, witness))
    return Outcome(Verdict.HOLDS, f"{LABEL[column]} ({arrow} is better, {scope} of {version} Table 1): " + ", ".join(parts) + " as stated", Evidence(arrays, scalars, {}))


def _th(n: int | None) -> str:
    if n is None:
        return ""
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _nac_vs_baselines(version: str, tolerance: str) -> Outcome:
    """Per column: best NAC mean against best baseline mean. tolerance 'none': at least as good;
    'std': or behind by no more than the larger of the two rows' printed std."""
    t = results_table(version)
    nac = t.nac
    best_nac, best_base, gaps, allow, ok = [], [], [], [], []
    names_nac, names_base = [], []
    for c in COLUMNS:
        v = t.mean[c]
        i = np.flatnonzero(nac)[_best(v[nac], c)]
        j = np.flatnonzero(~nac)[_best(v[~nac], c)]
        gap = (v[i] - v[j]) if HIGHER_IS_BETTER[c] else (v[j] - v[i])  # > 0: NAC better
        slack = max(t.std[c][i], t.std[c][j]) if tolerance == "std" else 0.0
        best_nac.append(v[i]); best_base.append(v[j]); gaps.append(gap); allow.append(slack)
        names_nac.append(t.models[i]); names_base.append(t.models[j])
        ok.append(bool(gap >= -slack - 1e-12))
    ok_arr = np.array(ok)
    arrays = {"columns": _s([LABEL[c] for c in COLUMNS]), "best_nac": np.array(best_nac), "best_baseline": np.array(best_base),
              "nac_advantage": np.array(gaps), "allowed_shortfall": np.array(allow), "column_ok": ok_arr.astype(int),
              "best_nac_model": _s(names_nac), "best_baseline_model": _s(names_base)}
    nac_best = int(np.sum(np.array(gaps) >= 0))
    scalars = {"columns_ok": int(ok_arr.sum()), "columns_nac_at_least_as_good": nac_best, "columns": len(COLUMNS)}
    if tolerance == "std":  # the shortfall, in units of the larger printed std, above which the column passes
        scalars["flips_at"] = float(max([-g / a for g, a in zip(gaps, allow) if g < 0] or [0.0]))
    detail = "; ".join(f"{LABEL[c]}: best baseline {names_base[k]} {best_base[k]:g} vs best NAC {names_nac[k]} {best_nac[k]:g}"
                       + (f" (shortfall {abs(gaps[k]):.4g} {'<=' if ok[k] else '>'} std {allow[k]:g})" if tolerance == "std" else "")
                       for k, c in enumerate(COLUMNS) if gaps[k] < 0)
    if ok_arr.all():
        return Outcome(Verdict.HOLDS, f"{version} Table 1: NAC at least as good in {nac_best}/7 columns; " + (detail or "no baseline ahead") + "; every column passes", Evidence(arrays, scalars, {}))
    k = int(np.flatnonzero(~ok_arr)[0])
    witness = {"column": LABEL[COLUMNS[k]], "best_baseline": names_base[k], "best_baseline_value": best_base[k], "best_nac": names_nac[k],
               "best_nac_value": best_nac[k], "allowed_shortfall": allow[k]}
    return Outcome(Verdict.REFUTED, f"{version} Table 1: NAC at least as good in {nac_best}/7 columns, {int(ok_arr.sum())}/7 pass; failing: {detail}", Evidence(arrays, scalars, witness))


def _sota_per_category(version: str) -> Outcome:
    t = results_table(version)
    nac = t.nac
    per_col = {}
    for c in COLUMNS:
        v = t.mean[c]
        i = np.flatnonzero(nac)[_best(v[nac], c)]
        j = np.flatnonzero(~nac)[_best(v[~nac], c)]
        per_col[c] = not _better(v[j], v[i], c)
    per_cat = {cat: [c for c in cols if per_col[c]] for cat, cols in CATEGORIES.items()}
    arrays = {"columns": _s([LABEL[c] for c in COLUMNS]), "nac_best": np.array([per_col[c] for c in COLUMNS], int)}
    scalars = {f"columns_nac_best_{k}": len(v) for k, v in zip(("irregular", "lane_keeping", "industry"), per_cat.values())}
    text = "; ".join(f"{cat}: {', '.join(LABEL[c] for c in v) or 'none'}" for cat, v in per_cat.items())
    if all(per_cat.values()):
        return Outcome(Verdict.HOLDS, f"{version} Table 1: a NAC variant has the best printed mean in {sum(per_col.values())}/7 columns, at least one per task category ({text})", Evidence(arrays, scalars, {}))
    missing = [cat for cat, v in per_cat.items() if not v]
    return Outcome(Verdict.REFUTED, f"{version} Table 1: no NAC best in {', '.join(missing)} ({text})", Evidence(arrays, scalars, {"category": missing[0]}))


def _about_80(version: str, reading: str) -> Outcome:
    t = results_table(version)
    v = t.mean["carracing"]
    arrays = {"models": _s(t.models), "carracing": v}
    scalars = {"rows": len(v), "column_mean": float(v.mean()), "min": float(v.min()), "max": float(v.max())}
    if reading == "column_mean":
        ok = abs(v.mean() - 80.0) <= 0.5
        msg = f"mean of the {len(v)} CarRacing means = {v.mean():.4f} ({'within' if ok else 'outside'} 80 +- 0.5); range {v.min():g}..{v.max():g}"
        return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(arrays, scalars, {} if ok else {"column_mean": float(v.mean())}))
    out = np.abs(v - 80.0) > 1.5
    scalars["flips_at"] = float(np.max(np.abs(v - 80.0)))  # the half-width around 80 below which 'every row' fails
    outliers = [f"{t.models[i]} {v[i]:g}" for i in np.flatnonzero(out)]
    scalars["rows_outside"] = int(out.sum())
    if not out.any():
        return Outcome(Verdict.HOLDS, f"all {len(v)} CarRacing means within 80 +- 1.5 ({v.min():g}..{v.max():g})", Evidence(arrays, scalars, {}))
    i = int(np.argmax(np.abs(v - 80.0)))
    return Outcome(Verdict.REFUTED, f"{int(out.sum())} of {len(v)} CarRacing means lie outside 80 +- 1.5: {', '.join(outliers)}", Evidence(arrays, scalars, {"model": t.models[i], "carracing": float(v[i])}))


def _ordered_family(version: str, models: Sequence[str], levels: Sequence[str], reading: str) -> Outcome:
    """Does the metric improve along an ordered family of ablations (sparsity or Top-K)?
    reading 'monotone': in every column each step is at least as good and the last strictly better
    than the first; 'endpoints': the last is strictly better than the first in a majority of columns
    (a quantifier of ours; the evidence scalar ``flips_at`` is the share of columns it wins)."""
    t = results_table(version)
    table = np.array([[t.value(m, c) for c in COLUMNS] for m in models])
    monotone, endpoint = [], []
    for k, c in enumerate(COLUMNS):
        col = table[:, k]
        steps_ok = all(not _better(col[s], col[s + 1], c) for s in range(len(col) - 1))
        monotone.append(steps_ok and _better(col[-1], col[0], c))
        endpoint.append(_better(col[-1], col[0], c))
    arrays = {"models": _s(models), "levels": _s(levels), "columns": _s([LABEL[c] for c in COLUMNS]), "values": table,
              "monotone_improving": np.array(monotone, int), "last_beats_first": np.array(endpoint, int)}
    scalars = {"columns_monotone": int(sum(monotone)), "columns_last_beats_first": int(sum(endpoint))}
    per_col = "; ".join(f"{LABEL[c]} " + " -> ".join(f"{x:g}" for x in table[:, k]) for k, c in enumerate(COLUMNS))
    if reading == "monotone":
        if all(monotone):
            return Outcome(Verdict.HOLDS, f"the metric improves monotonically over {' -> '.join(levels)} in all 7 columns: {per_col}", Evidence(arrays, scalars, {}))
        k = monotone.index(False)
        witness = {"column": LABEL[COLUMNS[k]], "values": " -> ".join(f"{m} {table[i, k]:g}" for i, m in enumerate(models))}
        return Outcome(Verdict.REFUTED, f"monotone improvement over {' -> '.join(levels)} in {sum(monotone)}/7 columns ({per_col})", Evidence(arrays, scalars, witness))
    n = sum(endpoint)
    scalars["flips_at"] = n / len(COLUMNS)  # the share of columns won: 'a majority' (>= 4/7) is our quantifier
    if n >= 4:
        return Outcome(Verdict.HOLDS, f"{models[-1]} beats {models[0]} in {n}/7 columns ({per_col})", Evidence(arrays, scalars, {}))
    k = endpoint.index(False)
    return Outcome(Verdict.REFUTED, f"{models[-1]} beats {models[0]} in only {n}/7 columns ({per_col})",
                   Evidence(arrays, scalars, {"column": LABEL[COLUMNS[k]], "first": f"{models[0]} {table[0, k]:g}", "last": f"{models[-1]} {table[-1, k]:g}"}))


def _bold_outcome() -> Outcome:
    """001 Table 1: do the bold cells mark exactly the top three printed means (ties included) of each column?"""
    t = results_table("001")
    mismatches, rows = [], []
    for c in COLUMNS:
        comp, _ = rank_column(t.mean[c], HIGHER_IS_BETTER[c])
        top = {m for m, r in zip(t.models, comp) if r <= 3}
        bold = {m for m in t.models if c in t.bold[m]}
        rows.append((c, top, bold))
        if top != bold:
            mismatches.append(f"{LABEL[c]}: bold {sorted(bold)} but top 3 {sorted(top)} (unbolded top: "
                              + ", ".join(f"{m} {t.value(m, c):g}" for m in sorted(top - bold)) + "; bold outside the top 3: "
                              + (", ".join(f"{m} {t.value(m, c):g}" for m in sorted(bold - top)) or "none") + ")")
    arrays = {"columns": _s([LABEL[c] for c in COLUMNS]), "bold_equals_top3": np.array([top == bold for _, top, bold in rows], int),
              "bold_count": np.array([len(b) for _, _, b in rows]), "top3_count": np.array([len(tp) for _, tp, _ in rows])}
    if not mismatches:
        return Outcome(Verdict.HOLDS, "in every column the bold cells are exactly the top three printed means", Evidence(arrays, {}, {}))
    c, top, bold = next(r for r in rows if r[1] != r[2])
    witness = {"column": LABEL[c], "unbolded_top3": "; ".join(f"{m} {t.value(m, c):g}" for m in sorted(top - bold)),
               "bold_not_top3": "; ".join(f"{m} {t.value(m, c):g}" for m in sorted(bold - top))}
    return Outcome(Verdict.REFUTED, f"{len(mismatches)} column(s) bold other cells than the top three: " + "; ".join(mismatches), Evidence(arrays, {"columns_mismatched": len(mismatches)}, witness))


def _table1_vs000(observed: int = 30) -> Outcome:
    """An observation, not an accusation: holds when 000 and 001 differ in exactly the `observed` cells recorded."""
    old, new = results_table("000"), results_table("001")
    shared = [m for m in new.models if m in old.models]
    diffs = []
    for m in shared:
        for c in COLUMNS:
            for what, a, b in (("mean", old.value(m, c), new.value(m, c)), ("std", old.sd(m, c), new.sd(m, c))):
                if a != b:
                    diffs.append((m, c, what, a, b))
    only000 = [m for m in old.models if m not in new.models]
    arrays = {"model": _s([d[0] for d in diffs]), "column": _s([LABEL[d[1]] for d in diffs]), "field": _s([d[2] for d in diffs]),
              "value_000": np.array([d[3] for d in diffs]), "value_001": np.array([d[4] for d in diffs]), "rows_only_in_000": _s(only000)}
    scalars = {"shared_rows": len(shared), "cells_compared": 2 * len(COLUMNS) * len(shared), "cells_differing": len(diffs),
               "rows_differing": len({d[0] for d in diffs}), "rows_only_in_000": len(only000)}
    listing = "; ".join(f"{m} {LABEL[c]} {w} {a:g}->{b:g}" for m, c, w, a, b in diffs)
    msg = f"{len(diffs)} of {scalars['cells_compared']} shared cells differ (000 -> 001) in {scalars['rows_differing']} of {len(shared)} shared rows: {listing or 'none'}"
    return Outcome(Verdict.HOLDS if len(diffs) == observed else Verdict.REFUTED, msg + ("" if len(diffs) == observed else f" (recorded: {observed})"),
                   Evidence(arrays, scalars, {}))


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


# ----------------------------------------------------------------------------- data-set descriptions


def _head_width(cell: str) -> int:
    m = re.search(r"(\d+)\((?:SM|Lin)\)$", cell)
    if not m:
        raise ValueError(f"no output width in Dense cell {cell!r}")
    return int(m.group(1))


def _list_count(version: str, fact: str, experiment: str | None) -> Outcome:
    """A printed count against the listed items (and against Table 4's output head)."""
    printed, items, line = dataset_facts(version)[fact]
    n_printed = _count(printed)
    scalars: dict[str, float | int | str] = {"printed_count": n_printed, "listed_items": len(items), "seed_line": line}
    checks = [len(items) == n_printed]
    text = f"'{printed}' = {n_printed}; the sentence lists {len(items)} ({'; '.join(items)})"
    if experiment is not None:
        dense = hyperparameter_table(version)["Dense"][experiment]
        width = _head_width(dense)
        scalars["table4_output_width"] = width
        checks.append(width == n_printed)
        text += f"; Table 4's {experiment} Dense head '{dense}' has {width} outputs"
    ev = Evidence({"items": _s([i.encode("ascii", "replace").decode() for i in items])}, scalars, {})
    if all(checks):
        return Outcome(Verdict.HOLDS, text + ": all equal", ev)
    return Outcome(Verdict.REFUTED, text + ": counts differ", Evidence(ev.arrays, scalars, {"printed_count": n_printed, "listed": len(items)}))


def _hust(version: str) -> Outcome:
    facts = dataset_facts(version)
    parts, ok = [], True
    for fact in ("hust.bearing_types", "hust.loads", "hust.faults"):
        printed, items, _ = facts[fact]
        ok &= len(items) == _count(printed)
        parts.append(f"{fact.split('.')[1]}: '{printed}' = {_count(printed)}, listed {len(items)}")
    scalars: dict[str, float | int | str] = {"bearing_types": len(facts["hust.bearing_types"][1]), "loads": len(facts["hust.loads"][1]), "faults": len(facts["hust.faults"][1])}
    if version == "001":
        rows = [r for r in dataset_table5() if r["dataset"] == "HUST"]
        table_loads = [f"{r['radial_load']} {r['load_unit']}" for r in rows]
        same = table_loads == list(facts["hust.loads"][1])
        ok &= same
        parts.append(f"Table 5 HUST loads {', '.join(table_loads)} {'match' if same else 'differ from'} the text")
        scalars["table5_conditions"] = len(rows)
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, "; ".join(parts), Evidence({}, scalars, {}))


def _rpm_hz(version: str) -> Outcome:
    rows = [r for r in dataset_settings(version) if r["dataset"] == "XJTU-SY"]
    rpm = np.array([float(r["speed_rpm"]) for r in rows])
    hz = np.array([float(r["frequency_hz"]) for r in rows])
    ok = np.isclose(rpm / 60.0, hz, rtol=0, atol=1e-9)
    arrays = {"speed_rpm": rpm, "frequency_hz": hz, "rpm_over_60": rpm / 60.0, "consistent": ok.astype(int)}
    listing = "; ".join(f"{r:g} rpm / 60 = {r / 60:g} Hz vs printed {h:g} Hz" for r, h in zip(rpm, hz))
    if ok.all():
        return Outcome(Verdict.HOLDS, listing, Evidence(arrays, {}, {}))
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"{listing} ({hz[k]:g} Hz is {60 * hz[k]:g} rpm)", Evidence(arrays, {"settings_inconsistent": int((~ok).sum())},
                   {"speed_rpm": float(rpm[k]), "frequency_hz": float(hz[k]), "rpm_over_60": float(rpm[k] / 60)}))


def _text_vs_table5(dataset: str) -> Outcome:
    text_rows = [r for r in dataset_settings("001") if r["dataset"] == dataset]
    table_rows = [r for r in dataset_table5() if r["dataset"] == dataset]
    diffs = []
    for a, b in zip(text_rows, table_rows):
        for key in ("speed_rpm", "frequency_hz", "radial_load", "load_unit"):
            x, y = a[key], b[key]
            same = (float(x) == float(y)) if key != "load_unit" else x == y
            if not same:
                diffs.append(f"condition {a['setting']} {key}: text {x}, Table 5 {y}")
    arrays = {"text_speed_rpm": np.array([float(r["speed_rpm"]) for r in text_rows]), "table5_speed_rpm": np.array([float(r["speed_rpm"]) for r in table_rows]),
              "text_load": np.array([float(r["radial_load"]) for r in text_rows]), "table5_load": np.array([float(r["radial_load"]) for r in table_rows])}
    if not diffs:
        return Outcome(Verdict.HOLDS, f"{dataset}: text and Table 5 agree on speed, frequency and load for all {len(text_rows)} conditions", Evidence(arrays, {}, {}))
    return Outcome(Verdict.REFUTED, f"{dataset}: {len(diffs)} cells differ: " + "; ".join(diffs), Evidence(arrays, {"cells_differing": len(diffs)}, {"first": diffs[0]}))


def _experiments_count(dataset: str, fact: str) -> Outcome:
    printed = _count(dataset_facts("001")[fact][0])
    rows = [r for r in dataset_table5() if r["dataset"] == dataset]
    per = [(_bearings(r["train"]), _bearings(r["test"])) for r in rows]
    total = sum(a + b for a, b in per)
    detail = " + ".join(f"({a} + {b})" for a, b in per)
    scalars = {"printed": printed, "table5_bearings": total}
    arrays = {"train_bearings": np.array([a for a, _ in per]), "test_bearings": np.array([b for _, b in per])}
    if total == printed:
        return Outcome(Verdict.HOLDS, f"{dataset}: Table 5 lists {detail} = {total} bearings, text {printed}", Evidence(arrays, scalars, {}))
    return Outcome(Verdict.REFUTED, f"{dataset}: Table 5 lists train + test {detail} = {total} bearings, the text says {printed} run-to-failure experiments",
                   Evidence(arrays, scalars, {"printed": printed, "table5_bearings": total}))


def _pronostia_frequency() -> Outcome:
    rows = dataset_table5()
    out = []
    for r in rows:
        if r["frequency_hz"] and r["speed_rpm"]:
            out.append((r["dataset"], r["condition"], float(r["speed_rpm"]), float(r["frequency_hz"])))
    ok = [abs(rpm / 60 - hz) < 1e-9 for _, _, rpm, hz in out]
    arrays = {"dataset": _s([o[0] for o in out]), "speed_rpm": np.array([o[2] for o in out]), "frequency_hz": np.array([o[3] for o in out]), "rpm_over_60": np.array([o[2] / 60 for o in out])}
    listing = "; ".join(f"{d} {c}: {rpm:g}/60 = {rpm / 60:g} Hz vs {hz:g} Hz" for d, c, rpm, hz in out)
    if all(ok):
        return Outcome(Verdict.HOLDS, listing, Evidence(arrays, {}, {}))
    k = ok.index(False)
    return Outcome(Verdict.REFUTED, f"{sum(not o for o in ok)} of {len(ok)} rows of Table 5 print a Frequency other than speed/60: {listing}",
                   Evidence(arrays, {}, {"dataset": out[k][0], "speed_rpm": out[k][2], "frequency_hz": out[k][3]}))


def _mnist_784() -> Outcome:
    printed = _count(dataset_facts("001")["mnist.length"][0])
    return Outcome(Verdict.HOLDS if 28 * 28 == printed else Verdict.REFUTED, f"28 * 28 = {28 * 28}, printed {printed}", Evidence({}, {"printed": printed, "product": 28 * 28}, {}))


def _udacity_metric(version: str = "001") -> Outcome:
    t4 = hyperparameter_table(version)
    metric, loss = t4["Metric"]["udacity"], t4["Loss"]["udacity"]
    text_metric = "MSE"  # Section 3.2: 'achieving the lowest MSE of 0.0170'
    scalars = {"table4_metric": metric, "table4_loss": loss, "section32_metric": text_metric}
    if metric == text_metric:
        return Outcome(Verdict.HOLDS, f"Table 4 and Section 3.2 both name {metric}", Evidence({}, scalars, {}))
    return Outcome(Verdict.REFUTED, f"Table 4 lists Udacity's metric as {metric} (loss {loss}); Section 3.2 calls the Table 1 Udacity numbers '{text_metric}'",
                   Evidence({}, scalars, {"table4_metric": metric, "section32_metric": text_metric}))


def _cv_splits(version: str = "001") -> Outcome:
    rows = dataset_splits(version)
    frac = np.array([float(r["test"]) / (float(r["train"]) + float(r["test"])) for r in rows])
    names = [r["dataset"] for r in rows]
    if version == "001":  # 000 prints no dataset table
        t5 = [r for r in dataset_table5() if r["dataset"] == "PRONOSTIA"]
        train = sum(_bearings(r["train"]) for r in t5)
        test = sum(_bearings(r["test"]) for r in t5)
        names.append("PRONOSTIA (Table 5 bearings)")
        frac = np.append(frac, test / (train + test))
    ok = np.isclose(frac, 0.2)
    arrays = {"datasets": _s(names), "test_fraction": frac, "five_fold": ok.astype(int)}
    listing = "; ".join(f"{n} test share {f:.3f}" for n, f in zip(names, frac))
    if ok.all():
        return Outcome(Verdict.HOLDS, f"every stated split holds out 1/5: {listing}", Evidence(arrays, {}, {}))
    bad = [n for n, o in zip(names, ok) if not o]
    k = int(np.flatnonzero(~ok)[0])
    return Outcome(Verdict.REFUTED, f"5-fold cross-validation holds out 1/5 per fold; the stated splits differ for {', '.join(bad)} ({listing}). "
                   "(If the folds were drawn inside the stated training share, no contradiction arises; D.3 does not say so)",
                   Evidence(arrays, {"splits_not_one_fifth": len(bad)}, {"dataset": names[k], "test_fraction": float(frac[k])}))


# ----------------------------------------------------------------------------- claims


def _claim(cid: str, version: str, where: str, quote: str, statement: str, assumptions: str, expected: Verdict, reason: str,
           check: Callable[[], Outcome], kind: Kind = Kind.AS_PRINTED, reading: str = "", threshold: str = "") -> Claim:
    return Claim(cid, f"{SEEDS[version]}, {where}, '{quote}'", statement, assumptions, expected, reason, lambda ctx: check(), group="tables", kind=kind, reading=reading,
                 threshold=threshold)


T1 = "printed means of Table 1 (5-fold CV means as printed); ranks among all rows unless said; ties share a place (competition or dense rank)"
T5 = "printed values of the run-time/memory table (sequence 1024, 64 features, 4 heads, batch 1, T4 GPU)"
R = Kind.READING
H, F, I = Verdict.HOLDS, Verdict.REFUTED, Verdict.INCONCLUSIVE


#: the endpoint readings' 'a majority of the seven columns' is ours, not the document's
MAJORITY_OF_COLUMNS = ("'a majority (>= 4) of the seven columns' is our quantifier: the sentence says 'higher overall accuracy' / 'improves accuracy' and "
                       "names no columns; flips_at = the share of columns in which the last variant beats the first")


def _table1_claims(v: str) -> list[Claim]:
    p = f"nac{v}.table1"
    out = [
        _claim(f"{p}.nac_matches_or_beats", v, "Abstract", "We observed that NAC matches or outperforms competing baselines in accuracy",
               "in each of Table 1's seven columns the best NAC mean is at least as good as the best baseline mean", T1,
               F, "CarRacing: mTAN 80.86 > NAC-PW 80.72" + ("; PRONOSTIA: ContiFormer 27.82 < NAC-PW 37.50" if v == "001" else ""),
               lambda: _nac_vs_baselines(v, "none"), R, "'matches or outperforms' = at least as good in every column (ties count as matching)"),
        _claim(f"{p}.nac_matches_or_beats.within_std", v, "Abstract", "We observed that NAC matches or outperforms competing baselines in accuracy",
               "in each column the best NAC mean is at least as good as the best baseline, or behind by no more than the larger of the two rows' printed std", T1,
               H if v == "000" else F, "000: only CarRacing trails (0.14 < std 0.41)" if v == "000" else "PRONOSTIA: 37.50 vs 27.82, shortfall 9.68 > std 7.09",
               lambda: _nac_vs_baselines(v, "std"), R, "'matches' = within one printed standard deviation (the larger of the two rows')",
               threshold="one printed std is our tolerance for 'matches'; flips_at = the largest shortfall in units of that std"),
        _claim(f"{p}.sota.per_category", v, "Section 5 (Conclusion)",
               "we demonstrated that NAC achieves state-of-the-art performance across diverse tasks" if v == "000" else "Empirical evaluations demonstrate that NAC achieves state-of-the-art performance across diverse tasks",
               "in each of Table 1's three task categories a NAC variant has the best printed mean in at least one column", T1, H,
               "NAC is best in E-MNIST and PAR, Udacity, and XJTU-SY and HUST (000 also PRONOSTIA)", lambda: _sota_per_category(v), R,
               "'state of the art across diverse tasks' = best printed mean in at least one column of each task category (the every-column reading is nac_matches_or_beats)"),
        _claim(f"{p}.carracing.about_80.every_row", v, "Section 3.2", "All models achieved approximately 80% accuracy on average" if v == "000" else "All models achieved around 80% accuracy on average",
               "every row's CarRacing mean lies within 80 +- 1.5", T1, F, "LTC 76.37" + (" and NAC-05sFC 75.99" if v == "000" else "") + " lie below 78.5",
               lambda: _about_80(v, "every_row"), R, "'approximately 80%' for every model = within 1.5 points of 80",
               threshold="+-1.5 points is our width of 'approximately'; flips_at = the largest |mean - 80|"),
        _claim(f"{p}.carracing.about_80.column_mean", v, "Section 3.2", "All models achieved approximately 80% accuracy on average" if v == "000" else "All models achieved around 80% accuracy on average",
               "the mean of the CarRacing column over all rows lies within 80 +- 0.5", T1, H, "column mean 80.13 (000) / 80.24 (001)",
               lambda: _about_80(v, "column_mean"), R, "'on average' = the average over all models is about 80% (within 0.5)"),
        _claim(f"{p}.carracing.rank", v, "Section 3.2", "NAC-PW performed the best, reaching the highest accuracy of 80.72%",
               "Table 1 CarRacing: 1st NAC-PW 80.72, 2nd NAC-Steady 80.62, 3rd LSTM and GRU 80.60", T1, F,
               "mTAN 80.86 is first; NAC-Steady is 3rd, NAC-Euler 80.61 4th, LSTM/GRU 5th",
               lambda: _placements_outcome(v, "carracing", [(1, ("NAC-PW",), 80.72), (2, ("NAC-Steady",), 80.62), (3, ("LSTM", "GRU"), 80.60)])),
        _claim(f"{p}.carracing.best_is_nac_pw.among_nac", v, "Section 3.2", "NAC-PW performed the best, reaching the highest accuracy of 80.72%",
               "NAC-PW's 80.72 is the highest CarRacing mean among the NAC rows", T1, H, "the NAC rows' maximum is NAC-PW 80.72",
               lambda: _placements_outcome(v, "carracing", [(1, ("NAC-PW",), 80.72)], among="nac"), R, "'performed the best' ranks the NAC variants only"),
        _claim(f"{p}.emnist.rank", v, "Section 3.1, Event-based MNIST", "GRU-ODE and ContiFormer ranked third with 96.04%",
               "Table 1 E-MNIST: 1st NAC-PW 96.64, 2nd NAC-Exact/05s/8k 96.12, 3rd GRU-ODE and ContiFormer 96.04", T1, H, "printed values agree",
               lambda: _placements_outcome(v, "emnist", [(1, ("NAC-PW",), 96.64), (2, ("NAC-Exact/05s/8k",), 96.12), (3, ("GRU-ODE", "ContiFormer"), 96.04)])),
        _claim(f"{p}.udacity.rank", v, "Section 3.2", "NAC-32k performed the best, achieving the lowest MSE of 0.0170",
               "Table 1 Udacity: 1st NAC-32k 0.0170, 2nd NAC-Exact/05s/8k 0.0173, 3rd ContiFormer 0.0174", T1, H, "printed values agree",
               lambda: _placements_outcome(v, "udacity", [(1, ("NAC-32k",), 0.0170), (2, ("NAC-Exact/05s/8k",), 0.0173), (3, ("ContiFormer",), 0.0174)])),
        _claim(f"{p}.hust.rank", v, "Section 3.3", "NAC-Exact/05s/8k achieved first place with a score of 27.82, NAC-PW ranked second with 30.14",
               "Table 1 HUST: 1st NAC-Exact/05s/8k 27.82, 2nd NAC-PW 30.14, 3rd " + ("NAC-phi_linear 35.89" if v == "000" else "NAC-FC 35.35"), T1, H, "printed values agree",
               lambda: _placements_outcome(v, "hust", [(1, ("NAC-Exact/05s/8k",), 27.82), (2, ("NAC-PW",), 30.14), ((3, ("NAC-phi_linear",), 35.89) if v == "000" else (3, ("NAC-FC",), 35.35))])),
        _claim(f"{p}.sparsity.monotone", v, "Section 3.5" if v == "000" else "Section 3.4, Interpreting the Results",
               "increasing sparsity improves system robustness and leads to higher overall accuracy" if v == "000" else "increasing the sparsity of the NAC layer improves the robustness of the system and leads to higher overall accuracy",
               "over NAC-02s (20%), NAC-Exact/05s/8k (50%), NAC-09s (90%) the metric improves monotonically in every column", T1, F,
               "50% beats 20% everywhere but 90% is worse than 50% in all seven columns",
               lambda: _ordered_family(v, ["NAC-02s", DEFAULT_NAC, "NAC-09s"], ["20%", "50%", "90%"], "monotone"), R, "'increasing sparsity improves accuracy' = monotone in sparsity, column by column"),
        _claim(f"{p}.sparsity.endpoints", v, "Section 3.5" if v == "000" else "Section 3.4, Interpreting the Results",
               "increasing sparsity improves system robustness and leads to higher overall accuracy" if v == "000" else "increasing the sparsity of the NAC layer improves the robustness of the system and leads to higher overall accuracy",
               "NAC-09s (90%) beats NAC-02s (20%) in a majority (>= 4) of the seven columns", T1, F,
               "90% beats 20% in 2/7 (000) and 1/7 (001) columns (flips_at 2/7, 1/7)", lambda: _ordered_family(v, ["NAC-02s", "NAC-09s"], ["20%", "90%"], "endpoints"), R,
               "'higher overall accuracy' = the sparsest variant beats the least sparse in most columns", threshold=MAJORITY_OF_COLUMNS),
        _claim(f"{p}.topk.monotone", v, "Section 3.5" if v == "000" else "Section 3.4, Interpreting the Results",
               "increasing the number of Top-KK interactions improves accuracy" if v == "000" else "increasing the Top- _K_ interactions enhances accuracy too",
               "over NAC-2k, NAC-Exact/05s/8k (K = 8), NAC-32k, NAC-PW (all keys) the metric improves monotonically in every column", T1, F,
               "K = 32 is worse than K = 8 in six columns (E-MNIST 95.15 < 96.12)",
               lambda: _ordered_family(v, ["NAC-2k", DEFAULT_NAC, "NAC-32k", "NAC-PW"], ["K=2", "K=8", "K=32", "PW"], "monotone"), R, "'increasing Top-K improves accuracy' = monotone in K, column by column"),
        _claim(f"{p}.topk.endpoints", v, "Section 3.5" if v == "000" else "Section 3.4, Interpreting the Results",
               "increasing the number of Top-KK interactions improves accuracy" if v == "000" else "increasing the Top- _K_ interactions enhances accuracy too",
               "NAC-PW (all keys) beats NAC-2k in a majority (>= 4) of the seven columns", T1, H, "NAC-PW beats NAC-2k in 7/7 columns (flips_at 1)",
               lambda: _ordered_family(v, ["NAC-2k", "NAC-PW"], ["K=2", "PW"], "endpoints"), R, "'improves' = more keys (PW) beat the fewest (K = 2) in most columns",
               threshold=MAJORITY_OF_COLUMNS),
    ]
    return out


def _claims000() -> list[Claim]:
    v = "000"
    out = _table1_claims(v)
    out += [
        _claim("nac000.table1.par.rank", v, "Section 3.1, PAR", "NAC-Exact/05s/8k ranked second with 90.11% accuracy, while NAC-Steady ranked third with 89.79% mean accuracy",
               "Table 1 PAR: 1st NAC-PW 90.18, 2nd NAC-Exact/05s/8k 90.11, 3rd NAC-Steady 89.79", T1, H, "printed values agree (NAC-09s 89.76 is 4th)",
               lambda: _placements_outcome(v, "par", [(1, ("NAC-PW",), 90.18), (2, ("NAC-Exact/05s/8k",), 90.11), (3, ("NAC-Steady",), 89.79)])),
        _claim("nac000.table1.carracing.best_is_nac_pw", v, "Section 3.2", "Notably, the NAC-PW performed the best, reaching the highest accuracy of 80.72%",
               "NAC-PW's 80.72 is the highest CarRacing mean of Table 1", T1, F, "mTAN prints 80.86",
               lambda: _placements_outcome(v, "carracing", [(1, ("NAC-PW",), 80.72)])),
        _claim("nac000.table1.pronostia.best_is_nac_exact", v, "Section 3.3", "For the PRONOSTIA dataset, NAC-Exact/05s/8k performed the best, with the lowest score of 37.75",
               "NAC-Exact/05s/8k's 37.75 is the lowest PRONOSTIA score of Table 1", T1, F, "NAC-PW prints 37.50",
               lambda: _placements_outcome(v, "pronostia", [(1, ("NAC-Exact/05s/8k",), 37.75)])),
        _claim("nac000.table1.pronostia.pw_contiformer_values", v, "Section 3.3", "NAC-PW and Contiformer achieved nearly identical scores, with average values of 37.75 and 37.82",
               "Table 1 prints NAC-PW 37.75 and ContiFormer 37.82 for PRONOSTIA", T1, F, "Table 1 prints NAC-PW 37.50 (37.75 is NAC-Exact/05s/8k's)",
               lambda: _placements_outcome(v, "pronostia", [(None, ("NAC-PW",), 37.75), (None, ("ContiFormer",), 37.82)])),
        _claim("nac000.table1.xjtu.rank", v, "Section 3.3", "CTA ranked second with 25.86, followed by NAC-ϕlinear\\phi_{\\text{linear}} with 29.53",
               "Table 1 XJTU-SY: 1st NAC-Exact/05s/8k 22.87, 2nd CTA 25.86, 3rd NAC-phi_linear 29.53", T1, F,
               "seven rows (CT-RNN 26.01 ... NAC-Euler 28.46) lie between CTA and NAC-phi_linear, which ranks 10th",
               lambda: _placements_outcome(v, "xjtu", [(1, ("NAC-Exact/05s/8k",), 22.87), (2, ("CTA",), 25.86), (3, ("NAC-phi_linear",), 29.53)])),
        _claim("nac000.table1.sparsity.monotone_fc", v, "Section 3.5", "increasing sparsity improves system robustness and leads to higher overall accuracy",
               "over NAC-02sFC (20%), NAC-05sFC (50%), NAC-09sFC (90%) the metric improves monotonically in every column", T1, F,
               "the FC ablations are not monotone either (E-MNIST 95.06, 95.13, 95.24 is; CarRacing 80.17, 75.99, 80.51 is not)",
               lambda: _ordered_family(v, ["NAC-02sFC", "NAC-05sFC", "NAC-09sFC"], ["20%", "50%", "90%"], "monotone"), R,
               "the sparsity statement applied to the fully connected ablations (D.2), monotone column by column (the standard of sparsity.monotone)"),
        _claim("nac000.table1.sparsity.endpoints_fc", v, "Section 3.5", "increasing sparsity improves system robustness and leads to higher overall accuracy",
               "NAC-09sFC (90%) beats NAC-02sFC (20%) in a majority (>= 4) of the seven columns", T1, H,
               "90% beats 20% in 4/7 columns (E-MNIST, PAR, CarRacing, HUST; Udacity ties, PRONOSTIA and XJTU-SY worse; flips_at 4/7)",
               lambda: _ordered_family(v, ["NAC-02sFC", "NAC-09sFC"], ["20%", "90%"], "endpoints"), R,
               "the sparsity statement applied to the fully connected ablations (D.2), endpoints in most columns (the standard of sparsity.endpoints)",
               threshold=MAJORITY_OF_COLUMNS),
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
        _claim("nac000.d3.par.eleven_activities", v, "Appendix D.3.2", "The eleven possible activities are", "the sentence lists eleven activities and Table 4's PAR head has 11 outputs",
               "Appendix D.3.2 sentence and Table 4 Dense row", H, "11 listed, 'eleven', '32–11(SM)'", lambda: _list_count(v, "par.activities", "par")),
        _claim("nac000.d3.carracing.five_actions", v, "Appendix D.3.3", "across five discrete actions (no-act, move left, forward, move right, stop)",
               "five actions are listed and Table 4's CarRacing head has 5 outputs", "Appendix D.3.3 sentence and Table 4 Dense row", H, "5 listed, '64–5(SM)'",
               lambda: _list_count(v, "carracing.actions", "carracing")),
        _claim("nac000.d3.hust.bearings_loads", v, "Appendix D.3.4, HUST", "five bearing types (6204, 6205, 6206, 6207, and 6208) under three different load conditions",
               "five bearing types and three loads are listed", "Appendix D.3.4 sentence", H, "5 and 3 listed", lambda: _hust(v)),
        _claim("nac000.d3.hust.six_faults", v, "Appendix D.3.4, HUST", "Six fault categories were introduced", "six fault categories are listed (3 single + 3 compound)",
               "Appendix D.3.4 sentence", H, "3 + 3 = 6 listed", lambda: _list_count(v, "hust.faults", None)),
        _claim("nac000.d3.xjtu.rpm_hz", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load",
               "each setting's frequency equals its speed / 60 (shaft rotation frequency)", "Appendix D.3.4 sentence; rpm and Hz as printed", F,
               "1200 rpm is 20 Hz; 35 Hz is 2100 rpm (2250/37.5 and 2400/40 agree)", lambda: _rpm_hz(v)),
    ]
    return out


def _claims001() -> list[Claim]:
    v = "001"
    out = _table1_claims(v)
    out += [
        _claim("nac001.table1.par.rank", v, "Section 3.1, PAR", "NAC-Exact/05s/8k and GRU-ODE ranked second with 89.01% accuracy, while NAC-02s ranked third with 88.84% mean accuracy",
               "Table 1 PAR: 1st NAC-PW 89.15, 2nd NAC-Exact/05s/8k and GRU-ODE 89.01, 3rd NAC-02s 88.84", T1, F,
               "PhasedLSTM 88.93 is third; NAC-02s ties NAC-2k at rank 5 (dense 4)",
               lambda: _placements_outcome(v, "par", [(1, ("NAC-PW",), 89.15), (2, ("NAC-Exact/05s/8k", "GRU-ODE"), 89.01), (3, ("NAC-02s",), 88.84)])),
        _claim("nac001.table1.pronostia.rank", v, "Section 3.3", "On the PRONOSTIA dataset, ContiFormer performed the best with",
               "ContiFormer's 27.82 (the sentence continues after Figure 3: 'the lowest score of 27.82') is the lowest PRONOSTIA score", T1, H,
               "printed values agree (NAC-PW 37.50 next); the cell 27.82 +- 7.09 equals NAC-Exact's HUST cell, and 000 prints ContiFormer 37.82 (see vs000)",
               lambda: _placements_outcome(v, "pronostia", [(1, ("ContiFormer",), 27.82)])),
        _claim("nac001.table1.pronostia.nearly_identical", v, "Section 3.3", "NAC-Exact/05s/8k and NAC-PW achieved nearly identical scores, obtaining 37.75 and 37.50",
               "Table 1 prints NAC-Exact/05s/8k 37.75 and NAC-PW 37.50 for PRONOSTIA, and they differ by less than either printed std", T1, H,
               "0.25 apart, stds 4.72 and 2.56", lambda: _nearly_identical()),
        _claim("nac001.table1.xjtu.rank", v, "Section 3.3", "NAC-FC ranked second with a score of 24.89, followed by NAC-PW in third place",
               "Table 1 XJTU-SY: 1st NAC-Exact/05s/8k 19.87, 2nd NAC-FC 24.89, 3rd NAC-PW 28.01", T1, F,
               "CTA 25.86 is third; NAC-PW ranks 9th behind CT-RNN, Attention, GRU, NAC-Steady, mmRNN",
               lambda: _placements_outcome(v, "xjtu", [(1, ("NAC-Exact/05s/8k",), 19.87), (2, ("NAC-FC",), 24.89), (3, ("NAC-PW",), 28.01)])),
        _claim("nac001.table1.bold", v, "Section 3, Table 1", "**Note:** (↑) higher is better; (↓) lower is better.",
               "in every column the bold cells are exactly the top three printed means (ties included)", T1, F,
               "CarRacing bolds NAC-PW, NAC-Steady, NAC-Euler but not the column maximum mTAN 80.86", _bold_outcome, R,
               "bold marks the top three entries of each column (the convention the other six columns follow)"),
        _claim("nac001.table1.vs000", v, "Section 3, Table 1, NAC-PW row", "NAC-PW **96.64** _[±]_ [0.12] **89.15** _[±]_ **[1.01]**",
               "an observation, not a statement of either document: 001's Table 1 differs from 000's in exactly 30 of the 336 shared cells (listed in the message)", "rows printed in both versions", H,
               "30 of 336 shared cells differ: PAR of all nine NAC rows, NAC-FC's whole row, XJTU-SY NAC-Exact 22.87 -> 19.87, PRONOSTIA ContiFormer 37.82 -> 27.82, NAC-02s E-MNIST 95.51 -> 95.31",
               _table1_vs000, Kind.LEMMA),
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
        _claim("nac001.d31.784", v, "Appendix D.3.1", "each 28 _×_ 28 image is reshaped into a one-dimensional time series of length 784",
               "28 * 28 = 784", "arithmetic", H, "784", _mnist_784),
        _claim("nac001.d32.par.eleven_activities", v, "Appendix D.3.2", "The eleven possible activities are",
               "the sentence lists eleven activities and Table 4's PAR head has 11 outputs", "Appendix D.3.2 sentence and Table 4 Dense row", H,
               "11 listed, '32–11(SM)'", lambda: _list_count(v, "par.activities", "par")),
        _claim("nac001.d33.carracing.five_actions", v, "Appendix D.3.3", "with corresponding action labels across five discrete actions",
               "five actions are listed and Table 4's CarRacing head has 5 outputs", "Appendix D.3.3 sentence and Table 4 Dense row", H, "5 listed, '64–5(SM)'",
               lambda: _list_count(v, "carracing.actions", "carracing")),
        _claim("nac001.d34.pronostia.sixteen", v, "Appendix D.3.4, PRONOSTIA", "The dataset comprises 16 complete run-to-failure experiments",
               "Table 5's PRONOSTIA train and test bearings add up to 16", "Appendix D.3.4 and Table 5 as printed", F,
               "Table 5: (4 + 3) + 7 + 3 = 17 (the public set has 17 bearings)", lambda: _experiments_count("PRONOSTIA", "pronostia.experiments")),
        _claim("nac001.d34.pronostia.text_vs_table5", v, "Appendix D.3.4, PRONOSTIA", "1800 rpm with 4 kN radial load, 1650 rpm with a 4.2 kN load, and 1500 rpm with a 5 kN load",
               "the text's PRONOSTIA speeds, loads and 100 Hz equal Table 5's", "Appendix D.3.4 and Table 5 as printed", H, "all three conditions agree",
               lambda: _text_vs_table5("PRONOSTIA")),
        _claim("nac001.d34.pronostia.frequency_is_rotation", v, "Appendix D.3.4, Table 5", "all at a frequency of 100 Hz",
               "every Table 5 row with a speed prints Frequency = speed / 60, as the XJTU-SY rows do", "Table 5 as printed", F,
               "PRONOSTIA's 100 Hz is not 1800/60 = 30 Hz (nor 27.5, 25 Hz)", _pronostia_frequency, R,
               "Table 5's Frequency column is the shaft rotation frequency, as for XJTU-SY (35 Hz = 2100 rpm)"),
        _claim("nac001.d34.xjtu.rpm_hz", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load",
               "each setting's frequency equals its speed / 60", "Appendix D.3.4 sentence; rpm and Hz as printed", F, "1200 rpm is 20 Hz; 35 Hz is 2100 rpm", lambda: _rpm_hz(v)),
        _claim("nac001.d34.xjtu.text_vs_table5", v, "Appendix D.3.4, XJTU-SY", "1200 rpm (35 Hz) with a 12 kN radial load, 2250 rpm (37.5 Hz) with an 11 kN radial load",
               "the text's XJTU-SY speeds, frequencies and loads equal Table 5's", "Appendix D.3.4 and Table 5 as printed", F,
               "speed 1200 vs 2100 rpm; loads 12/11/10 kN vs 4/4.2/5 kN", lambda: _text_vs_table5("XJTU-SY")),
        _claim("nac001.d34.xjtu.fifteen", v, "Appendix D.3.4, XJTU-SY", "The dataset comprises 15 complete runto-failure experiments",
               "Table 5's XJTU-SY test bearings add up to 15", "Appendix D.3.4 and Table 5 as printed", H, "5 + 5 + 5", lambda: _experiments_count("XJTU-SY", "xjtu.experiments")),
        _claim("nac001.d34.hust", v, "Appendix D.3.4, HUST", "five bearing types (6204, 6205, 6206, 6207, and 6208) under three different load conditions: 0 W, 200 W, and 400 W",
               "five bearing types, three loads and six fault categories are listed, and Table 5's HUST loads equal the text's", "Appendix D.3.4 and Table 5 as printed", H,
               "5, 3, 6; Table 5 0/200/400 W", lambda: _hust(v)),
        _claim("nac001.table4.udacity_metric", v, "Appendix D.3.4, Table 4, Metric row", "Metric Acc Acc Acc MAE Score",
               "Table 4 and Section 3.2 name the same metric for the Udacity column", "Table 4 and Section 3.2 as printed", F,
               "Table 4 says MAE, Section 3.2 'the lowest MSE of 0.0170'", _udacity_metric),
        _claim("nac001.s3.cv.splits", v, "Section 3", "All results are obtained using 5-fold cross-validation",
               "each train/test split stated in Appendix D.3 (and Table 5's PRONOSTIA bearings) holds out 1/5 of the data", "Appendix D.3 and Table 5 as printed", F,
               "PAR 90:10, CarRacing 90:10, PRONOSTIA 4 train / 13 test bearings; Udacity 80:20 agrees", _cv_splits, R,
               "the stated train/test splits are the cross-validation folds (each fold holds out 1/5)"),
    ]
    return out


def _nearly_identical() -> Outcome:
    t = results_table("001")
    a, b = t.value(DEFAULT_NAC, "pronostia"), t.value("NAC-PW", "pronostia")
    sa, sb = t.sd(DEFAULT_NAC, "pronostia"), t.sd("NAC-PW", "pronostia")
    values_ok = a == 37.75 and b == 37.50
    close = abs(a - b) < min(sa, sb)
    scalars = {"nac_exact": a, "nac_pw": b, "difference": abs(a - b), "std_exact": sa, "std_pw": sb}
    msg = f"Table 1 PRONOSTIA: {DEFAULT_NAC} {a:g} +- {sa:g}, NAC-PW {b:g} +- {sb:g}; difference {abs(a - b):.2f} {'<' if close else '>='} the smaller std {min(sa, sb):g}"
    return Outcome(Verdict.HOLDS if values_ok and close else Verdict.REFUTED, msg, Evidence({}, scalars, {} if values_ok and close else scalars))


def paper_table_claims() -> list[Claim]:
    """All claims of this module (group 'tables')."""
    return _claims000() + _claims001()


add_provider(paper_table_claims)
