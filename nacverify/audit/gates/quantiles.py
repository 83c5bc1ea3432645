r"""Quantiles of a stream of float64 values, in bounded memory, independent of the chunking.

The audit's evidence holds the quantiles (0, 0.01, ..., 1) of each claim's quantity over
all pairs. By default they are **exact**: equal, bit for bit, to
``np.quantile(values, QUANTILES)`` (linear interpolation, Hyndman & Fan type 7) on the whole
array, however the values arrive. Two ways get there:

- **keep-all** when the export is small (at most `KEEP_ALL` pairs): every value is kept,
  and the needed order statistics are selected with ``np.partition``;
- **radix selection** otherwise. Each value maps to an order-preserving 64-bit key (the
  IEEE bits, with negative numbers' bits inverted). Pass 1 counts the keys' top
  `FIRST_BITS` (20) bits; the needed ranks (two per quantile) fall in a few of those bins.
  Each further pass over the data either *collects* the values of a bin (when few enough to
  hold, `COLLECT_BUDGET` per quantity and pass) or *splits* it by its next 12 to 16 key bits,
  keeping only the sub-bins that hold a needed rank (a trie, `_Trie`). A bin of depth 64
  is a single value, and so is a split bin all of whose keys are equal (each split also
  reports, per split bin, one of its keys and whether any other differed): ties end there,
  not after three more passes. Counts and keys are
  integers, so the merged histograms and the selected values do not depend on the
  chunking or on the order in which chunks finish. A refine pass looks only at the values
  whose first-level bin is still wanted (a 2**20-entry table of flags): the others cost a
  shift and a look-up.

**Bounded** quantiles (``Selection(exact=False)``) stop after pass 1: each order statistic
is the middle of its 20-bit bin (`bin_estimates`), within a relative `BOUND` = 2^-9 of the
exact one, so a quantile is within 2^-9 of the larger magnitude of the two order statistics
it interpolates; small exports stay exact (keep-all).

Typical costs: one pass for keep-all or bounded; for larger exports, pass 1 plus two passes
of the quantities alone (a split, then a collect), more only where a bin of nearly equal
values stays too large to collect. Memory per quantity: 8 MiB of first-level counts,
at most 2^20 counts during a split, and `COLLECT_BUDGET` values when collecting.

NaN: ``np.quantile`` returns NaN for every probability when the values hold a NaN, and so
does this. Order is that of the keys, a total order in which ``-0.0`` sorts just below
``+0.0`` (``np.quantile`` may return either zero where both occur; otherwise the two agree).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "QUANTILES",
    "KEEP_ALL",
    "COLLECT_BUDGET",
    "float_keys",
    "key_floats",
    "order_statistics",
    "interpolate",
    "Level1",
    "Accumulator",
    "Selection",
    "BOUND",
    "bin_estimates",
    "RefineRequest",
    "RefineResult",
    "RefineAccumulator",
]

QUANTILES = np.linspace(0.0, 1.0, 101)
KEEP_ALL = 1 << 20  # exports with at most this many pairs keep every value (one pass)
COLLECT_BUDGET = 1 << 20  # values one quantity may collect in one refine pass
FIRST_BITS = 20  # key bits of pass 1's histogram: sign, exponent, 8 mantissa bits (bins 2**-8 wide, relative)
SPLIT_CELLS = 1 << 20  # (split bins) x (sub-bins) per quantity and pass
_SIGN = np.uint64(1 << 63)


# ---------------------------------------------------------------------------- keys and interpolation
def float_keys(values: np.ndarray) -> np.ndarray:
    """Order-preserving uint64 keys of float64 values without NaN (``-0.0`` sorts just below ``+0.0``)."""
    i = np.ascontiguousarray(values, dtype=np.float64).view(np.int64)
    return i.view(np.uint64) ^ ((i >> 63).view(np.uint64) | _SIGN)


def key_floats(keys: np.ndarray) -> np.ndarray:
    """The float64 values of `float_keys` keys."""
    keys = np.asarray(keys, dtype=np.uint64)
    positive = (keys & _SIGN) != 0
    return np.where(positive, keys ^ _SIGN, ~keys).view(np.float64)


def _indexes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(previous, next) order-statistic ranks and the weights of ``np.quantile``'s linear method."""
    virtual = (n - 1) * QUANTILES
    previous = np.floor(virtual)
    following = previous + 1
    above = virtual >= n - 1
    previous[above] = -1
    following[above] = -1
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    gamma = np.asarray(virtual - previous, dtype=virtual.dtype)
    return np.where(previous < 0, n - 1, previous), np.where(following < 0, n - 1, following), gamma


def order_statistics(n: int) -> np.ndarray:
    """The ranks (0-based, sorted, unique) that the quantiles of n values need."""
    previous, following, _ = _indexes(n)
    return np.unique(np.concatenate([previous, following]))


def interpolate(n: int, stats: dict[int, float]) -> np.ndarray:
    """The quantiles of n values from their order statistics `stats` (rank -> value):
    ``np.quantile``'s linear interpolation, operation for operation."""
    previous, following, gamma = _indexes(n)
    a = np.array([stats[int(r)] for r in previous], dtype=np.float64)
    b = np.array([stats[int(r)] for r in following], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is NaN, as in np.quantile
        diff = b - a
        out = np.add(a, diff * gamma)
        np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5)
    return out


# ---------------------------------------------------------------------------- pass 1, per task
@dataclass
class Level1:
    """One task's pass-1 summary of a quantity: counts of non-NaN values and NaNs, and either
    the values (keep-all) or the sparse counts of the keys' top 16 bits."""

    n: int = 0
    nan: int = 0
    values: np.ndarray | None = None
    bins: np.ndarray | None = None
    counts: np.ndarray | None = None


_HALF = 1 << (FIRST_BITS - 1)
FLUSH = 1 << 19  # split-cell indices buffered before one np.bincount (a bincount per block would cost its whole table)


class Accumulator:
    """Collects one quantity's values over the blocks of a task (`add`), then `result`.

    The first level counts the top `FIRST_BITS` bits of the IEEE pattern read as a signed
    integer, offset to be non-negative: no key needs computing. Negative numbers' bins run
    backwards; `result` reorders them into key order. NaNs are counted apart."""

    def __init__(self, keep: bool):
        self.keep = keep
        self.n = 0
        self.nan = 0
        self.kept: list[np.ndarray] = []
        self.counts = None if keep else np.zeros(1 << FIRST_BITS, np.int64)
        self._lo, self._hi = 1 << FIRST_BITS, 0

    def add(self, values: np.ndarray) -> None:
        values = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
        if not values.size:
            return
        if np.isnan(np.max(values)):  # np.max propagates NaN: one fast pass
            nan = np.isnan(values)
            if nan.any():
                self.nan += int(np.count_nonzero(nan))
                values = values[~nan]
                if not values.size:
                    return
        self.n += int(values.size)
        if self.keep:
            self.kept.append(values.copy())
            return
        top = values.view(np.int64) >> (64 - FIRST_BITS)  # signed: -2**19 .. 2**19 - 1
        lo = int(top.min())
        top -= lo
        counts = np.bincount(top)  # over the block's occupied range only
        at = lo + _HALF
        self.counts[at:at + counts.size] += counts
        self._lo, self._hi = min(self._lo, at), max(self._hi, at + counts.size)

    def result(self) -> Level1:
        if self.keep:
            kept = np.concatenate(self.kept) if self.kept else np.zeros(0)
            return Level1(self.n, self.nan, values=kept)
        signed = np.arange(self._lo, self._hi)
        signed = signed[self.counts[self._lo:self._hi] > 0]
        keys = np.where(signed < _HALF, _HALF - 1 - signed, signed)  # key order: negative numbers' bins run backwards
        order = np.argsort(keys)
        return Level1(self.n, self.nan, bins=keys[order].astype(np.int32), counts=self.counts[signed[order]])


BOUND = 2.0 ** -(FIRST_BITS - 11)  # relative error of a bounded quantile (module docstring)


def bin_estimates(bins: np.ndarray) -> list[float]:
    """The middle of each first-level key bin (`bounded` quantiles): within `BOUND` times the
    magnitude of every value in the bin; 0 for the bins of +-0 and the subnormals next to
    them, +-inf for the bins of the infinities."""
    shift = np.uint64(64 - FIRST_BITS)
    lo = key_floats(np.asarray(bins, np.uint64) << shift)
    hi = key_floats(((np.asarray(bins, np.uint64) + np.uint64(1)) << shift) - np.uint64(1))
    out = []
    for a, b in zip(lo.tolist(), hi.tolist()):
        if a == np.inf or b == -np.inf or np.isnan(a) or np.isnan(b):  # the bins of +-inf (and NaN patterns)
            out.append(np.inf if (a == np.inf or np.isnan(b)) else -np.inf)
        elif a == 0.0 or b == 0.0:  # the bins of +0 and -0
            out.append(0.0)
        else:
            out.append(a + (b - a) / 2)
    return out


# ---------------------------------------------------------------------------- refine passes
class _Trie:
    """The key bins that hold a needed rank, level by level. Level 0 maps the top 16 bits to a
    node (or -1); a deeper level maps (the split row of a node of the level above, the next
    `bits` bits) to a node: only split nodes have children. A level holds at most a few
    hundred nodes, so the trie travels to tasks as its entries; the dense lookup tables
    ((split nodes + 1) x 2**bits, row 0: no parent) are built where it is used."""

    def __init__(self) -> None:
        self.levels: list[tuple[int, np.ndarray | None, np.ndarray, np.ndarray]] = []  # (bits, split rows above, parents, subs)
        self._tables: list | None = None

    def __getstate__(self) -> dict:
        return {"levels": self.levels, "_tables": None}

    @property
    def depth(self) -> int:
        return sum(level[0] for level in self.levels)

    @property
    def nodes(self) -> int:
        return len(self.levels[-1][3]) if self.levels else 0

    def add_level(self, bits: int, parents: list[int], subs: list[int], split_slot: np.ndarray | None) -> None:
        """Nodes of a new level: node j is sub-bin subs[j] of the node parents[j] of the level
        above, whose split row is split_slot[parents[j]] (None for level 0)."""
        self.levels.append((bits, None if split_slot is None else np.asarray(split_slot, np.int64),
                            np.asarray(parents, np.int64), np.asarray(subs, np.int64)))
        self._tables = None

    def _build(self) -> list:
        tables = []
        for bits, split_slot, parents, subs in self.levels:
            index = np.arange(len(subs), dtype=np.int32)
            if split_slot is None:
                table = np.full(1 << bits, -1, np.int32)
                table[subs] = index
                tables.append((bits, table, None))
            else:
                table = np.full((int(split_slot.max(initial=-1)) + 2, 1 << bits), -1, np.int32)
                table[split_slot[parents] + 1, subs] = index
                tables.append((bits, table.reshape(-1), np.concatenate([[0], split_slot + 1]).astype(np.intp)))
        return tables

    def wanted_first_level(self) -> np.ndarray:
        """Flags over the first level's 2**FIRST_BITS bins, True where a node of the deepest
        level lies (a key anywhere else locates to -1). Indexed by the IEEE pattern's top
        FIRST_BITS bits read as a signed integer, as numpy indexes: a negative one from the end."""
        nodes = np.arange(self.nodes)
        for _, _, parents, _ in reversed(self.levels[1:]):
            nodes = np.unique(parents[nodes])
        bins = self.levels[0][3][nodes]
        signed = np.where(bins < _HALF, _HALF - 1 - bins, bins) - _HALF  # key order -> the signed top bits (as in `Accumulator`)
        flags = np.zeros(1 << FIRST_BITS, bool)
        flags[signed] = True
        return flags

    def locate(self, keys: np.ndarray) -> np.ndarray:
        """The deepest-level node of each key, or -1."""
        if self._tables is None:
            self._tables = self._build()
        node = None
        shift = 64
        for bits, table, rows in self._tables:
            shift -= bits
            sub = keys >> np.uint64(shift)
            if shift + bits < 64:
                sub &= np.uint64((1 << bits) - 1)
            sub = sub.view(np.int64)
            node = table[sub] if rows is None else table[(rows[node + 1] << bits) + sub]
        return node


@dataclass
class RefineRequest:
    """What one refine pass asks of every task for one quantity: the trie of bins and, per
    leaf bin, whether to collect its values (`split_slot` -1) or count its 2**`sub_bits`
    sub-bins (`split_slot` >= 0, the bin's row among the split bins)."""

    trie: _Trie
    split_slot: np.ndarray
    sub_bits: int


@dataclass
class RefineResult:
    """One task's answer: the keys of collected bins (with their leaf), split counts
    (flat index split_slot * 2**sub_bits + sub-bin, sparse), and per split bin whether the task
    saw a value of it, one key it saw there, and whether another key differed from that one."""

    leaves: np.ndarray  # sorted
    keys: np.ndarray
    cells: np.ndarray
    counts: np.ndarray
    seen: np.ndarray
    key: np.ndarray
    varied: np.ndarray


class RefineAccumulator:
    """A task's part of a refine pass for one quantity, block by block (`add`), then `result`.
    (A quantity with a NaN never gets here: its quantiles are NaN after pass 1.)

    Only the values whose first-level bin is wanted go further (`_Trie.wanted_first_level`).
    Each of them gets a cell without masking: ``(code + 2) << sub_bits | sub-bin`` with code -2
    outside the bins, -1 in a bin to collect, else the bin's split row; the first two regions
    of the counts are dropped. Only the values to collect are gathered."""

    def __init__(self, request: RefineRequest):
        self.request = request
        self.n_split = int(request.split_slot.max(initial=-1)) + 1
        self.codes = np.concatenate([[-2], request.split_slot]).astype(np.int64)  # leaf + 1 -> code
        self.wanted = request.trie.wanted_first_level()
        self.dense = np.zeros((self.n_split + 2) << request.sub_bits, np.int64) if self.n_split else None
        self.seen = np.zeros(self.n_split, bool)
        self.key = np.zeros(self.n_split, np.uint64)
        self.varied = np.zeros(self.n_split, bool)
        self.leaves: list[np.ndarray] = []
        self.keys: list[np.ndarray] = []
        self._cells: list[np.ndarray] = []
        self._buffered = 0

    def add(self, values: np.ndarray) -> None:
        request = self.request
        values = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
        values = values[self.wanted[values.view(np.int64) >> (64 - FIRST_BITS)]]  # negative bins index from the end
        if not values.size:
            return
        keys = float_keys(values)
        leaf = request.trie.locate(keys)
        code = self.codes[leaf + 1]
        collect = code == -1
        if collect.any():
            self.leaves.append(leaf[collect])
            self.keys.append(keys[collect])
        if self.n_split:
            split = code >= 0
            if split.any():
                self._note_keys(code[split], keys[split])
            bits = request.sub_bits
            cells = ((keys >> np.uint64(64 - request.trie.depth - bits)) & np.uint64((1 << bits) - 1)).view(np.int64)
            cells += (code + 2) << bits
            self._cells.append(cells)
            self._buffered += cells.size
            if self._buffered >= FLUSH:
                self._flush()

    def _note_keys(self, slots: np.ndarray, keys: np.ndarray) -> None:
        """Per split bin: a key seen there (the first block's, any of them) and whether another differs."""
        new = ~self.seen[slots]
        if new.any():
            self.key[slots[new]] = keys[new]
            self.seen[slots[new]] = True
        differ = keys != self.key[slots]
        if differ.any():
            self.varied[slots[differ]] = True

    def _flush(self) -> None:
        if self._cells:
            self.dense += np.bincount(np.concatenate(self._cells), minlength=self.dense.size)
        self._cells, self._buffered = [], 0

    def result(self) -> RefineResult:
        cells = counts = np.zeros(0, np.int64)
        if self.dense is not None:
            self._flush()
            split = self.dense[2 << self.request.sub_bits:]  # the regions of the outside and collected values dropped
            cells = np.flatnonzero(split)
            counts = split[cells]
        leaves = np.concatenate(self.leaves) if self.leaves else np.zeros(0, np.int64)
        keys = np.concatenate(self.keys) if self.keys else np.zeros(0, np.uint64)
        small = leaves.astype(np.int16) if self.request.split_slot.size < (1 << 15) else leaves
        order = np.argsort(small, kind="stable")  # grouped by leaf (a radix sort): the driver takes slices
        return RefineResult(leaves[order], keys[order], cells, counts, self.seen, self.key, self.varied)


@dataclass
class _Bin:
    node: int
    prefix: int  # the key's top `depth` bits
    below: int  # values with smaller keys
    count: int
    ranks: list[int]


@dataclass
class Selection:
    """The driver's side of one quantity: merges the tasks' `Level1` summaries in chunk order
    (`absorb`, then `start`), plans refine passes (`request`, `absorb_refine`,
    `finish_refine`) until every needed order statistic is known, and gives the quantiles."""

    keep: bool
    collect_budget: int = COLLECT_BUDGET
    exact: bool = True
    n: int = 0
    nan: int = 0
    kept: list[np.ndarray] = field(default_factory=list)
    counts: np.ndarray | None = None
    stats: dict[int, float] = field(default_factory=dict)
    trie: _Trie = field(default_factory=_Trie)
    bins: list[_Bin] = field(default_factory=list)
    passes: int = 1
    _pending: RefineRequest | None = None
    _collected: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    _split: np.ndarray | None = None
    _seen: np.ndarray | None = None
    _key: np.ndarray | None = None
    _varied: np.ndarray | None = None

    def absorb(self, part: Level1) -> None:
        self.n += part.n
        self.nan += part.nan
        if self.keep:
            self.kept.append(part.values)
            return
        if self.counts is None:
            self.counts = np.zeros(1 << FIRST_BITS, np.int64)
        self.counts[part.bins.astype(np.intp)] += part.counts

    @property
    def done(self) -> bool:
        return not self.bins

    def start(self) -> None:
        """After pass 1: select directly (keep-all), or find the top-16-bit bins of the ranks."""
        if self.nan or self.n == 0:
            self.kept, self.counts = [], None
            return
        ranks = order_statistics(self.n)
        if self.keep:
            keys = float_keys(np.concatenate(self.kept))
            self.kept = []
            part = key_floats(np.partition(keys, ranks)[ranks])
            self.stats = {int(r): float(v) for r, v in zip(ranks, part)}
            return
        counts, self.counts = self.counts, None
        cum = np.cumsum(counts)
        where = np.searchsorted(cum, ranks, side="right")
        if not self.exact:
            self.stats = {int(r): v for r, v in zip(ranks, bin_estimates(where))}
            return
        subs = sorted(set(int(b) for b in where))
        self.trie.add_level(FIRST_BITS, [], subs, None)
        self.bins = [_Bin(j, b, int(cum[b] - counts[b]), int(counts[b]), [int(r) for r, w in zip(ranks, where) if w == b])
                     for j, b in enumerate(subs)]

    def request(self) -> RefineRequest | None:
        """The next refine pass's request, or None when every order statistic is known."""
        if self.done:
            return None
        split_slot = np.full(self.trie.nodes, -1, np.int64)
        budget = self.collect_budget
        n_split = 0
        for b in self.bins:
            if b.count <= budget:
                budget -= b.count
            else:
                split_slot[b.node] = n_split
                n_split += 1
        sub_bits = 0
        if n_split:
            sub_bits = max(1, min(16, int(np.log2(SPLIT_CELLS // n_split)), 64 - self.trie.depth))
        self._pending = RefineRequest(self.trie, split_slot, sub_bits)
        self._collected = []
        self._split = np.zeros(n_split << sub_bits, np.int64)
        self._seen, self._key, self._varied = np.zeros(n_split, bool), np.zeros(n_split, np.uint64), np.zeros(n_split, bool)
        return self._pending

    def absorb_refine(self, part: RefineResult) -> None:
        if part.keys.size:
            self._collected.append((part.leaves, part.keys))
        if part.cells.size:
            self._split[part.cells] += part.counts
        both = self._seen & part.seen
        self._varied |= part.varied | (both & (self._key != part.key))
        first = part.seen & ~self._seen
        self._key[first] = part.key[first]
        self._seen |= part.seen

    def finish_refine(self) -> None:
        """Resolve collected bins, and replace split bins by their sub-bins that hold a rank."""
        request, self._pending = self._pending, None
        self.passes += 1
        bits = request.sub_bits
        nodes = np.arange(self.trie.nodes + 1)
        pieces = [(keys, np.searchsorted(leaves, nodes)) for leaves, keys in self._collected]  # each task's, grouped by leaf
        children: list[_Bin] = []
        parents, subs = [], []
        for b in self.bins:
            slot = int(request.split_slot[b.node])
            if slot < 0:
                mine = np.concatenate([keys[edges[b.node]:edges[b.node + 1]] for keys, edges in pieces] or [np.zeros(0, np.uint64)])
                if mine.size != b.count:
                    raise RuntimeError(f"a refine pass collected {mine.size} values for a bin of {b.count}: the data changed between passes")
                kth = np.asarray(b.ranks, np.intp) - b.below
                values = key_floats(np.partition(mine, kth)[kth])
                for r, v in zip(b.ranks, values):
                    self.stats[r] = float(v)
                continue
            counts = self._split[slot << bits:(slot + 1) << bits]
            if int(counts.sum()) != b.count:
                raise RuntimeError("a refine pass counted a different number of values: the data changed between passes")
            if not self._varied[slot]:  # every value of the bin is the same one
                value = float(key_floats(self._key[slot:slot + 1])[0])
                for r in b.ranks:
                    self.stats[r] = value
                continue
            cum = b.below + np.cumsum(counts)
            where = np.searchsorted(cum, b.ranks, side="right")
            for sub in sorted(set(int(w) for w in where)):
                children.append(_Bin(len(children), (b.prefix << bits) | sub, int(cum[sub] - counts[sub]), int(counts[sub]),
                                     [r for r, w in zip(b.ranks, where) if w == sub]))
                parents.append(b.node)
                subs.append(sub)
        self._collected, self._split, self._seen, self._key, self._varied, self.bins = [], None, None, None, None, []
        if not children:
            return
        self.trie.add_level(bits, parents, subs, request.split_slot)
        if self.trie.depth >= 64:  # a bin of depth 64 is a single key: every value in it is that one
            for c in children:
                for r in c.ranks:
                    self.stats[r] = float(key_floats(np.array([c.prefix], np.uint64))[0])
        else:
            self.bins = children

    def quantiles(self) -> np.ndarray:
        """The quantiles at QUANTILES (NaN everywhere when a value was NaN; empty with no value)."""
        if self.nan:
            return np.full(QUANTILES.shape, np.nan)
        if self.n == 0:
            return np.zeros(0)
        return interpolate(self.n, self.stats)
