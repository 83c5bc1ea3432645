r"""Seed 002's initialisation against its parameter table: table 12's 'Typical Range' [a, b]
(init) of the input weights, recurrent weights, biases and A (`ltc.table12.*.init_range`)
against section 14's initialisation N(0, sigma_w^2/k), N(0, sigma_b^2), N(0, 1).

$P(|Z| > b) = \mathrm{erfc}(b / \sqrt{2\sigma^2})$ for $Z \sim N(0, \sigma^2)$, maximised over the
fan-in k, and checked by Monte Carlo; a range is 'typical' when at least 95% of the initial
values fall in it (the 95% is ours: 002 gives no fraction).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import erfc

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._ltc_common import SEED002

__all__ = ["init_claims", "outside_probability"]


def outside_probability(sigma2: float, bound: float) -> float:
    """P(|Z| > bound) for Z ~ N(0, sigma2)."""
    return float(erfc(bound / math.sqrt(2 * sigma2)))


def _range_check(name: str, bound: float, sigma2_of_k, ks, what: str):
    def check(ctx: CheckContext) -> Outcome:
        probs = np.array([outside_probability(sigma2_of_k(k), bound) for k in ks])
        rng = np.random.default_rng(ctx.seed)
        draws = 100_000 if ctx.quick else 1_000_000
        k_worst = ks[int(np.argmax(probs))]
        mc = float(np.mean(np.abs(rng.normal(0, math.sqrt(sigma2_of_k(k_worst)), draws)) > bound))
        scalars = {"max_outside_probability": float(probs.max()), "worst_fan_in": float(k_worst), "monte_carlo_outside": mc, "monte_carlo_draws": draws,
                   "threshold": 0.05, "flips_at": float(1 - probs.max())}  # the required coverage at and below which the verdict is holds
        ev = Evidence({"fan_in": np.asarray(ks, dtype=float), "outside_probability": probs}, scalars)
        msg = (f"{what}: P(outside [-{bound:g}, {bound:g}]) = " + ", ".join(f"{p:.3%} (k = {k})" for k, p in list(zip(ks, probs))[:4])
               + f"; worst {probs.max():.3%} at k = {k_worst} (Monte Carlo {mc:.3%}, {draws} draws)")
        if probs.max() > 0.05:
            return Outcome(Verdict.REFUTED, msg + f": more than 5% of initial values lie outside the 'typical range' (the 95% is ours; a required "
                           f"coverage of {1 - probs.max():.1%} or less would hold)",
                           Evidence(ev.arrays, scalars, {"fan_in": float(k_worst), "outside_probability": float(probs.max())}))
        return Outcome(Verdict.HOLDS, msg + ": at least 95% inside", ev)

    return check


_TYPICAL = "'Typical Range' [a, b] (init) read as: at least 95% of section 14's initial values fall in [a, b]"


_COVERAGE = "the 95% coverage: 002 gives no fraction for a 'typical range' (flips_at: the largest required coverage that holds)"


def init_claims() -> list[Claim]:
    s = SEED002
    return [
        Claim("ltc.table12.gamma.init_range", f"{s}, table 12 line 408, 'Input weights ... [-2, 2] (init) ... Init: N(0, sigma_w^2/k)'; section 14 line 481, 'Common: sigma_w^2 = 2'",
              "N(0, 2/k) with fan-in k = M (input dimension, any M >= 1) puts at least 95% of input weights in [-2, 2]",
              "sigma_w^2 = 2, k = M in 1..256", Verdict.REFUTED, "P(|N(0, 2)| > 2) = 15.7% at M = 1 (4.6% at M = 2)",
              _range_check("gamma", 2.0, lambda k: 2.0 / k, np.arange(1, 257), "gamma ~ N(0, 2/M)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.gamma_r.init_range", f"{s}, table 12 line 409, 'Recurrent weights ... [-2, 2] (init) ... Init: N(0, sigma_w^2/k)'",
              "N(0, 2/N) with fan-in N in [4, 256] (table 12) puts at least 95% of recurrent weights in [-2, 2]", "sigma_w^2 = 2, N = 4..256",
              Verdict.HOLDS, "P(|N(0, 1/2)| > 2) = 0.47% at N = 4, less for larger N",
              _range_check("gamma_r", 2.0, lambda k: 2.0 / k, np.arange(4, 257), "gamma_r ~ N(0, 2/N)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.mu.init_range", f"{s}, table 12 line 410, 'Biases ... [-1, 1] (init) ... Init: N(0, sigma_b^2)'; section 14 line 482, 'Common: sigma_b^2 = 1'",
              "N(0, 1) puts at least 95% of biases in [-1, 1]", "sigma_b^2 = 1", Verdict.REFUTED, "P(|N(0, 1)| > 1) = 31.7%",
              _range_check("mu", 1.0, lambda k: 1.0, np.array([1]), "mu ~ N(0, 1)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.A.init_range", f"{s}, table 12 line 411, 'Bias vector (A) ... [-1, 1] (init)'; section 14 line 483, 'A: Initialize from N(0, 1) or zeros'",
              "N(0, 1) puts at least 95% of A's entries in [-1, 1]", "the N(0, 1) option of section 14", Verdict.REFUTED, "P(|N(0, 1)| > 1) = 31.7%",
              _range_check("A", 1.0, lambda k: 1.0, np.array([1]), "A ~ N(0, 1)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
    ]


add_provider(init_claims)
