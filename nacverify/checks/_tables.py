r"""The printed tables of the two NAC versions, as data, and what the table claims share.

Seed 000 (the version with the frozen-coefficient analysis) and seed 001 (the December 2025
preprint) print a results table (Table 1), a run-time/memory table (000 Table 5, 001 Table 2),
a hyperparameter table (Table 4) and, in 001, a data-set table (Table 5); Appendix D.3 states
counted facts, operating settings and train/test splits of the data sets. They are shipped as
CSV in `nacverify/data/paper*.csv` (transcribed from the seeds; tests re-parse the seeds when
they are present) and loaded here, once each: `results_table`, `runtime_table`,
`hyperparameter_table`, `dataset_table5`, `dataset_facts`, `dataset_settings`, `dataset_splits`.

Also here: the column layout of Table 1 (`COLUMNS`, their arrows `HIGHER_IS_BETTER`, the task
categories), the baseline groups of each version's Appendix D.1 (`CT_RNNS`, `CT_ATTENTIONS`:
000 lists DeepState and S4 among the CT-RNNs, 001 does not list them and does not print them),
the recommended default NAC row, and the claim constructor of group ``tables``.

The claims on these tables live in `nac_table1` (Table 1), `nac_runtime_table` (000 Table 5 /
001 Table 2) and `nac_datasets` (Appendix D.3, 001 Table 5, Table 4's metric, the folds).
Claim ids say which version they follow: ``nac000.*`` or ``nac001.*``.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..claims import Claim, Kind, Outcome, Verdict

__all__ = [
    "SEED000",
    "SEED001",
    "SEEDS",
    "COLUMNS",
    "LABEL",
    "HIGHER_IS_BETTER",
    "CATEGORIES",
    "CT_RNNS",
    "CT_ATTENTIONS",
    "DEFAULT_NAC",
    "ResultsTable",
    "RuntimeTable",
    "results_table",
    "runtime_table",
    "hyperparameter_table",
    "dataset_table5",
    "dataset_facts",
    "dataset_settings",
    "dataset_splits",
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


# ----------------------------------------------------------------------------- what the table claims share


def _s(names: Sequence[str]) -> np.ndarray:
    return np.array(list(names), dtype=str)


def _claim(cid: str, version: str, where: str, quote: str, statement: str, assumptions: str, expected: Verdict, reason: str,
           check: Callable[[], Outcome], kind: Kind = Kind.AS_PRINTED, reading: str = "", threshold: str = "") -> Claim:
    return Claim(cid, f"{SEEDS[version]}, {where}, '{quote}'", statement, assumptions, expected, reason, lambda ctx: check(), group="tables", kind=kind, reading=reading,
                 threshold=threshold)


R = Kind.READING
H, F, I = Verdict.HOLDS, Verdict.REFUTED, Verdict.INCONCLUSIVE
