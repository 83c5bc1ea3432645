r"""Seed 002's section 15 'Add a small epsilon (~10^-8) to the denominator to avoid division
by zero': the denominator $1 + \Delta t (1/\tau + f)$ of eq. 9 over table 12's ranges
(`ltc.sec15.epsilon.denominator`; affine in f and $\Delta t$, monotone in $1/\tau$, so its
minimum is at a corner: 0.1 at $\Delta t = 1$, $\tau = 10$, $f = -1$) and eq. 9 at an exact zero of
it, with and without epsilon (`ltc.sec15.epsilon`).
"""

from __future__ import annotations

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._ltc_common import SEED002

__all__ = ["epsilon_claims"]


def _epsilon_denominator_check(ctx: CheckContext) -> Outcome:
    dts, taus, fs = np.array([0.001, 1.0]), np.array([0.001, 10.0]), np.array([-1.0, 0.0, 1.0])
    corners = 1 + dts[:, None, None] * (1 / taus[None, :, None] + fs[None, None, :])
    rng = np.random.default_rng(ctx.seed)
    n = 10_000 if ctx.quick else 1_000_000
    dt = rng.uniform(0.001, 1.0, n)
    tau = np.exp(rng.uniform(np.log(0.001), np.log(10.0), n))
    f = rng.uniform(-1, 1, n)
    d = 1 + dt * (1 / tau + f)
    scalars = {"min_over_corners_f_in_[-1,1]": float(corners.min()), "min_sampled": float(d.min()), "samples": n,
               "min_over_corners_f_nonnegative": float(corners[..., 1:].min())}
    msg = (f"1 + dt (1/tau + f) is affine in f and in dt and decreasing in tau, so its minimum over table 12's ranges (dt in [0.001, 1], tau in "
           f"[0.001, 10]) and f in [-1, 1] is at a corner: {corners.min():.3g} (dt = 1, tau = 10, f = -1); {corners[..., 1:].min():.3g} for f >= 0 "
           f"(sigmoid, ReLU); {n} random samples: min {d.min():.3g}. It vanishes only outside: f < 0, tau > 1 and dt >= tau/(tau (1 + f) ... ) "
           f"(tau = 10, f = -1: dt = 10/9)")
    ok = corners.min() > 0.09 and d.min() >= corners.min() - 1e-12
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({"corners": corners.ravel()}, scalars))


def _epsilon_check(ctx: CheckContext) -> Outcome:
    """Eq. 9 at an exact zero of its denominator, with and without section 15's epsilon."""
    tau, A, x, dt, eps = 2.0, 1.0, 0.0, 2.0, 1e-8
    f = float(np.tanh(-20.0))  # = -1.0 exactly in float64: tanh saturates
    den = 1 + dt * (1 / tau + f)  # 1 + 2 (0.5 - 1) = 0 exactly
    with np.errstate(divide="ignore", invalid="ignore"):
        plain = float(np.float64(x + dt * f * A) / np.float64(den))
    with_eps = float(np.float64(x + dt * f * A) / np.float64(den + eps))
    witness = {"tau": tau, "f": f, "A": A, "x_n": x, "dt": dt, "denominator": den, "x_next_without_epsilon": plain, "x_next_with_epsilon": with_eps}
    msg = (f"f = tanh = -1 (saturated), tau = 2 (table 12), A = 1, x_n = 0, dt = 2 (outside table 12's dt <= 1, the only place the denominator can "
           f"vanish): 1 + dt (1/tau + f) = {den:g}; eq. 9 gives {plain:g} without epsilon and {with_eps:.4g} with epsilon = 1e-8 added: no division by "
           f"zero, as line 497 says (the step is large near the pole, and a denominator of exactly -epsilon would still divide by zero; 002 does not "
           f"say otherwise)")
    ok = den == 0.0 and not np.isfinite(plain) and np.isfinite(with_eps)
    return Outcome(Verdict.HOLDS if ok else Verdict.INCONCLUSIVE, msg, Evidence({}, {"abs_x_next_with_epsilon": abs(with_eps)}, witness))


def epsilon_claims() -> list[Claim]:
    s = SEED002
    return [
        Claim("ltc.sec15.epsilon.denominator", f"{s}, section 15 line 497, 'Add a small epsilon (~10^-8) to the denominator to avoid division by zero'",
              "the denominator 1 + dt (1/tau + f) of eq. 9 is >= 0.1 over table 12's ranges (dt in [0.001, 1], tau in [0.001, 10]) for any f in [-1, 1], "
              ">= 1 for f >= 0", "corners of the box (the denominator is affine in f and dt, monotone in 1/tau) and random samples",
              Verdict.HOLDS, "minimum 1 - 1 + 0.1 = 0.1 at dt = 1, tau = 10, f = -1", _epsilon_denominator_check, group="ltc", kind=Kind.LEMMA),
        Claim("ltc.sec15.epsilon", f"{s}, section 15 line 497, 'Add a small epsilon (~10^-8) to the denominator to avoid division by zero'",
              "with epsilon = 1e-8 added to the denominator, eq. 9 does not divide by zero where 1 + dt (1/tau + f) is exactly 0: the step is finite",
              "tanh saturated at f = -1 (float64), tau = 2 (table 12), A = 1, x_n = 0, dt = 2: the denominator is exactly 0 in float64 (it can vanish "
              "only for dt > 1, outside table 12's dt range, where ltc.sec15.epsilon.denominator gives >= 0.1)",
              Verdict.HOLDS, "without epsilon the step is -2/0 = -inf; with it -2/1e-8 = -2e8, finite (large: epsilon avoids the division by zero, "
              "which is all line 497 says, not the size of the step near the pole)", _epsilon_check, group="ltc", kind=Kind.AS_PRINTED),
    ]


add_provider(epsilon_claims)
