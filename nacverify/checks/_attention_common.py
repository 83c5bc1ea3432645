r"""What the claim modules of seeds 003 (locality-weighted attention: `locality_latency`,
`locality_attention`, `locality_spiking`, `locality_readings`) and 004 (sparse recurrent
attention: `sparse_attention`) share: nothing here is a claim.

Seed 003 defines the local event density and the biased logits

$$\rho(t, \delta) = |\{e : |t_e - t| < \delta\}| / (2\delta), \qquad
  z_{ij} = q_i k_j / \sqrt{d_k} + \log(\rho_{ij} + \varepsilon), \quad \rho_{ij} = \rho((t_i + t_j)/2, \delta),$$

with $\varepsilon$ a fixed small constant (1e-6 here, as in `nacverify.model.baselines.LocalityAttention`).
Event streams are seeded Poisson processes (rate $\lambda$, so $\lambda\delta$ is the mean
number of events per half window); a "burst" stream adds a dense Poisson burst to a sparse
background. Counts use the strict inequality of the printed definition (two binary searches
in the sorted timestamps).

Complexity claims are decided from measured exponents: the time (minimum over repeats) is
fitted as $\log t = a + p \log N$ over a stated range, the sweep is repeated, and $p$ is
reported with its spread (min and max over the sweeps). An exponent only says how the cost
grows over the measured range; it cannot separate $N$ from $N \log N$ there, nor speak for
sizes outside it. Claims of both seeds are of group ``numeric`` (`_claim`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from ..claims import Claim

__all__ = ["poisson_stream", "burst_stream", "midpoint_counts", "log_density_bias", "sliding_window_counts", "fit_exponent"]


SEED003 = "003_15f93b400484390c.txt"


SEED004 = "004_ca116cd7d91e9398.txt"


EPS = 1e-6  # the 'small constant' of LocalAttn (the suite's model uses the same)


def poisson_stream(n: int, rate: float, rng: np.random.Generator) -> np.ndarray:
    """n event times of a Poisson process of the given rate, sorted, starting near 0."""
    return np.cumsum(rng.exponential(1.0 / rate, n))


def burst_stream(n_burst: int, burst_rate: float, n_background: int, background_rate: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A sparse background with a dense burst in its middle; returns (sorted times, is_burst)."""
    background = poisson_stream(n_background, background_rate, rng)
    start = 0.5 * background[-1]
    burst = start + poisson_stream(n_burst, burst_rate, rng)
    times = np.concatenate([background, burst])
    flag = np.concatenate([np.zeros(n_background, bool), np.ones(n_burst, bool)])
    order = np.argsort(times, kind="stable")
    return times[order], flag[order]


def midpoint_counts(times: np.ndarray, delta: float) -> np.ndarray:
    """n_ij = |{e : |t_e - (t_i + t_j)/2| < delta}| (strict, as printed), shape (N, N)."""
    srt = np.sort(times)
    mid = 0.5 * (times[:, None] + times[None, :])
    return np.searchsorted(srt, mid + delta, side="left") - np.searchsorted(srt, mid - delta, side="right")


def log_density_bias(times: np.ndarray, delta: float, eps: float = EPS) -> np.ndarray:
    """log(rho_ij + eps) with rho_ij the printed density at the pair's midpoint."""
    return np.log(midpoint_counts(times, delta) / (2 * delta) + eps)


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def sliding_window_counts(times: np.ndarray, delta: float) -> tuple[np.ndarray, int]:
    """|{e : |t_e - t_i| < delta}| for every event of a sorted stream by a two-pointer sweep;
    returns the counts and the number of pointer moves."""
    n = len(times)
    lo = hi = 0
    moves = 0
    counts = np.empty(n, dtype=np.int64)
    for i in range(n):
        while hi < n and times[hi] - times[i] < delta:
            hi += 1
            moves += 1
        while times[i] - times[lo] >= delta:
            lo += 1
            moves += 1
        counts[i] = hi - lo
    return counts, moves


def fit_exponent(sizes: np.ndarray, values: np.ndarray) -> float:
    """Slope of log(values) against log(sizes) (least squares)."""
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def _min_time(fn: Callable[[], object], repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _exponent_sweeps(sizes: list[int], make: Callable[[int], Callable[[], object]], sweeps: int, repeats: int) -> tuple[np.ndarray, np.ndarray]:
    """Times (sweeps, len(sizes)), each the minimum over `repeats` calls after one warm-up
    call, and the fitted exponent of each sweep."""
    runners = {n: make(n) for n in sizes}
    for run in runners.values():  # warm-up (compilation, caches)
        run()
    times = np.array([[_min_time(runners[n], repeats) for n in sizes] for _ in range(sweeps)])
    exponents = np.array([fit_exponent(np.array(sizes, float), row) for row in times])
    return times, exponents


def _pooled_exponent(sizes: list[int], times: np.ndarray) -> float:
    """Exponent of the per-size minimum over all sweeps (the least load-disturbed times)."""
    return fit_exponent(np.array(sizes, float), times.min(axis=0))


def _exponent_text(exps: np.ndarray, sizes: list[int], name: str = "N", pooled: float | None = None) -> str:
    text = f"exponent {np.median(exps):.2f} (median of sweeps; sweeps {exps.min():.2f}..{exps.max():.2f}"
    if pooled is not None:
        text += f"; pooled minimum {pooled:.2f}"
    return text + f") over {name} = {sizes[0]}..{sizes[-1]}"


def _claim(cid, source, statement, assumptions, expected, reason, check, kind, reading="", threshold=""):
    return Claim(cid, source, statement, assumptions, expected, reason, check, group="numeric", kind=kind, reading=reading, threshold=threshold)
