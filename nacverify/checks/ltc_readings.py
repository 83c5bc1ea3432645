r"""The charitable readings of seed 002 (LTC): for each statement that a claim in the LTC claim modules
(`ltc_bounds`, `ltc_stability`, `ltc_init`, `ltc_model_equations`, `ltc_trajectory_length`, ...)
refutes, the kindest plausible reading a careful author would defend, checked on its own.

* ``ltc.table12.init_one_sigma``: table 12's "Typical Range (init)" as the conventional one-sigma
  range of section 14's initial distributions: $\sigma \le b$ for $[-b, b]$.
* ``ltc.eq9a.shapes.transposed`` (a correction: a transposed shape changes the printed one, issue 43): $\gamma I$ with $\gamma \in \mathbb{R}^{M \times N}$ read in the
  row-vector convention ($I^T \gamma = \gamma^T I$), likewise $W_{out}^T x$.
* ``ltc.eq11.nonnegative_weights``: $f_i = \sum_j w_{ij}\sigma_j$ with conductance-like $w_{ij} \ge 0$
  (table 12: synaptic weight in $[0, 2]$, "always $\ge 0$"), $W_i = \sum_j w_{ij}$.
* ``ltc.sec8.larger_bound.table_dt``: eq. 21 against eq. 19 and eq. 20 within table 12's
  $\delta t \in [0.001, 1]$, $L \in [1, 10]$, and $0 < \sigma_b < \sigma_w$ (eq. 20's base positive).
* ``ltc.stiff.stability_limited``: stiffness as Press et al. define it: the explicit step is set by
  stability, not accuracy, so the step count grows with $T/\tau$ and ignores the tolerance.
* ``ltc.sec15.tanh_tau_sys.tau_below_1``: section 15's tanh interval where it is an interval,
  $\tau < 1$ (its upper end $\tau/(1-\tau)$ is negative otherwise).
"""

from __future__ import annotations

import math

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._ltc_common import QUICK_NETWORKS, RANGES_TEXT, SEED002, _trajectory_f
from .ltc_stability import stiff_step_counts
from .ltc_trajectory_length import trajectory_bound_ratio

__all__ = ["ltc_reading_claims", "INIT_SIGMA"]

#: section 14's initial standard deviations and table 12's typical ranges [-b, b]: name -> (sigma as a function of fan-in k, fan-ins, b)
INIT_SIGMA = {
    "gamma": (lambda k: math.sqrt(2.0 / k), np.arange(1, 257), 2.0),     # N(0, sigma_w^2/k), sigma_w^2 = 2, k = M >= 1
    "gamma_r": (lambda k: math.sqrt(2.0 / k), np.arange(4, 257), 2.0),   # k = N in [4, 256]
    "mu": (lambda k: 1.0, np.array([1]), 1.0),                          # N(0, sigma_b^2), sigma_b^2 = 1
    "A": (lambda k: 1.0, np.array([1]), 1.0),                           # N(0, 1)
}


def _one_sigma_check(ctx: CheckContext) -> Outcome:
    rows, ok = [], True
    rng = np.random.default_rng([ctx.seed, 1412])
    for name, (sigma_of, ks, bound) in INIT_SIGMA.items():
        sigmas = np.array([sigma_of(k) for k in ks])
        worst = float(sigmas.max())
        sample_std = float(rng.normal(0, worst, 200_000).std())  # the distribution section 14 gives, sampled at its widest fan-in
        ok &= worst <= bound and abs(sample_std - worst) < 0.01 * worst
        rows.append((name, worst, bound, sample_std))
    msg = ("one-sigma interval of section 14's initialisation against table 12's 'Typical Range (init)': " +
           "; ".join(f"{n}: sigma <= {s:.4g} (sampled {ss:.4g}) vs [-{b:g}, {b:g}]" for n, s, b, ss in rows) +
           ": every range contains mean +- 1 sigma (A and mu exactly: sigma = 1 = b)")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                   Evidence(scalars={f"{n}_largest_sigma": s for n, s, _, _ in rows} | {f"{n}_bound": b for n, _, b, _ in rows}))


def _shapes_transposed_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng([ctx.seed, 922])
    n, m, n_out = 5, 3, 2
    gamma_r, gamma, mu = rng.standard_normal((n, n)), rng.standard_normal((m, n)), rng.standard_normal(n)
    w_out, b_out = rng.standard_normal((n, n_out)), rng.standard_normal(n_out)
    x, inp = rng.standard_normal(n), rng.standard_normal(m)
    column = gamma_r.T @ x + gamma.T @ inp + mu         # gamma^T I: column vectors
    row = x @ gamma_r + inp @ gamma + mu                # I gamma: row vectors
    y = w_out.T @ x + b_out
    ok = column.shape == (n,) and np.allclose(column, row, rtol=0, atol=1e-12) and y.shape == (n_out,)
    msg = (f"N = {n}, M = {m}, N_out = {n_out}: gamma^T I has shape {(gamma.T @ inp).shape}, the pre-activation {column.shape} equals the row-vector "
           f"form x gamma_r + I gamma + mu (max gap {np.abs(column - row).max():.1e}), W_out^T x + b_out has shape {y.shape}")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"N": n, "M": m, "N_out": n_out}))


def _nonnegative_weights_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng([ctx.seed, 1111])
    draws, inputs = (20_000 if ctx.quick else 200_000), 6
    w = rng.uniform(0.0, 2.0, (draws, inputs))                        # table 12, synaptic weight [0, 2], 'always >= 0'
    sigma = 1 / (1 + np.exp(-rng.normal(0, 3, (draws, inputs))))      # sigmoid activations in (0, 1)
    tau = np.exp(rng.uniform(math.log(0.001), math.log(10.0), draws))
    f, W = (w * sigma).sum(axis=1), w.sum(axis=1)
    tau_sys = tau / (1 + tau * f)
    lower, upper = tau / (1 + tau * W), tau
    slack = np.minimum((tau_sys - lower) / tau, (upper - tau_sys) / tau)
    ok = bool(np.all(slack >= -1e-12))
    msg = (f"{draws} draws, {inputs} synapses, w_ij uniform in [0, 2], sigma_j = sigmoid(N(0, 9)), tau log-uniform in [0.001, 10]: "
           f"tau/(1 + tau W_i) <= tau/(1 + tau f_i) <= tau at every draw (min relative slack {slack.min():.2g}; 0 <= f_i <= W_i since sigma in (0, 1))")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"draws": draws, "min_relative_slack": float(slack.min())}))


def _larger_bound_table_dt_check(ctx: CheckContext) -> Outcome:
    dts = np.geomspace(0.001, 1.0, 31)
    worst_19, worst_20 = math.inf, math.inf
    for dt in dts:
        for L in range(1, 11):
            for z in (1e-3, 0.1, 1.0, 10.0):
                for sw in (0.5, 1.0, math.sqrt(2), 3.0):
                    for frac in (0.01, 0.5, 0.99):  # sigma_b = frac sigma_w
                        ltc = trajectory_bound_ratio(z, sw, dt, L)          # eq. 21 / eq. 19
                        ctrnn = (1 - frac) ** L                             # eq. 20 / eq. 19, d = 1
                        worst_19, worst_20 = min(worst_19, ltc), min(worst_20, ltc / ctrnn)
    ok = worst_19 > 1 and worst_20 > 1
    msg = (f"over dt in [0.001, 1] (table 12), L = 1..10, ||z|| in [1e-3, 10], sigma_w in [0.5, 3], sigma_b/sigma_w in [0.01, 0.99], d = 1: "
           f"min eq. 21/eq. 19 = {worst_19:.4g}, min eq. 21/eq. 20 = {worst_20:.4g} (both > 1: 1/min(dt, L) >= 1 and ||z|| > 0)")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"min_ratio_to_eq19": worst_19, "min_ratio_to_eq20": worst_20}))


def _stability_limited_check(ctx: CheckContext) -> Outcome:
    taus = np.array([1e-4, 10 ** -4.5, 1e-5])
    counts = stiff_step_counts(taus, [1e-4, 1e-8], ctx.seed + 13, solver="Tsit5")  # (rtol, tau)
    tol_ratio = counts[1] / counts[0]
    growth = counts[0, -1] / counts[0, 0]
    ok = bool(np.all(np.diff(counts, axis=1) > 0) and np.all(np.abs(tol_ratio - 1) <= 0.1) and growth > 5)
    msg = (f"Tsit5 on eq. 7 (sigmoid, T = 1): accepted steps {counts[0].astype(int).tolist()} at rtol 1e-4 and {counts[1].astype(int).tolist()} at "
           f"rtol 1e-8 for tau = 1e-4, 3.2e-5, 1e-5: the count grows x{growth:.1f} as T/tau grows x10 and tightening the tolerance 10^4-fold "
           f"changes it by x{tol_ratio.min():.3f}..x{tol_ratio.max():.3f}: the step is limited by stability, not accuracy (stiff)")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({"tau": taus, "steps": counts}, {"growth_over_decade": float(growth)}))


def _tanh_below_one_check(ctx: CheckContext) -> Outcome:
    b = QUICK_NETWORKS if ctx.quick else 5000
    p, _, f = _trajectory_f("tanh", b, ctx.seed + 5)
    tau = np.broadcast_to(p["tau"][..., None], f.shape)
    small = tau < 1
    tau_sys = tau[small] / (1 + tau[small] * f[small])
    lo, hi = tau[small] / (1 + tau[small]), tau[small] / (1 - tau[small])
    inside = (tau_sys >= lo * (1 - 1e-12)) & (tau_sys <= hi * (1 + 1e-12))
    msg = (f"{b} networks, f = tanh along trajectories ({RANGES_TEXT}): at the {int(small.sum())} sampled points with tau < 1, tau_sys lies in "
           f"[tau/(1+tau), tau/(1-tau)] at {int(inside.sum())}")
    return Outcome(Verdict.HOLDS if inside.all() and small.any() else Verdict.REFUTED, msg,
                   Evidence(scalars={"points_tau_below_1": int(small.sum()), "inside": int(inside.sum())}))


def ltc_reading_claims() -> list[Claim]:
    s = SEED002
    H = Verdict.HOLDS
    return [
        Claim("ltc.table12.init_one_sigma", f"{s}, table 12 lines 408-411, 'Typical Range' [-2, 2] (init), [-1, 1] (init); section 14 lines 481-483",
              "each (init) typical range [-b, b] of table 12 contains the mean +- 1 standard deviation of section 14's initial distribution "
              "(gamma: N(0, 2/M), M >= 1; gamma_r: N(0, 2/N), N in [4, 256]; mu, A: N(0, 1))",
              "section 14's 'Common' sigma_w^2 = 2, sigma_b^2 = 1; closed-form sigma, checked against a 200 000-draw sample at the widest fan-in", H,
              "sigma = sqrt(2) <= 2 for gamma at M = 1, 1 = 1 for mu and A", _one_sigma_check, group="ltc", kind=Kind.READING,
              reading="'Typical Range' [a, b] (init) read as the conventional one-sigma range of the initial values"),
        Claim("ltc.eq9a.shapes.transposed", f"{s}, after eq. 9a (line 193), 'gamma in R^{{M x N}}'; table 12 line 412, 'W_out | N x N_out'",
              "with the printed shapes read in the row-vector convention (I gamma = gamma^T I, W_out^T x), eq. 9a and eq. 24 are defined and "
              "give vectors of sizes N and N_out", "N = 5, M = 3, N_out = 2, random entries", H, "a transposition convention, nothing more",
              _shapes_transposed_check, group="ltc", kind=Kind.CORRECTION),
        Claim("ltc.eq11.nonnegative_weights", f"{s}, eq. 11 (line 250) with line 248, 'neuron i receives M incoming connections and W_i = sum_j |w_ij|'; "
              "table 12 line 422, 'Synaptic weight w_ij ... [0, 2] ... Always >= 0'",
              "with f_i = sum_j w_ij sigma_j, w_ij >= 0 and sigma_j in (0, 1): tau/(1 + tau W_i) <= tau/(1 + tau f_i) <= tau",
              "6 synapses, w uniform in [0, 2], sigma = sigmoid(N(0, 9)), tau log-uniform in [0.001, 10]", H,
              "0 <= f_i <= W_i, and tau/(1 + tau f) is decreasing in f", _nonnegative_weights_check, group="ltc", kind=Kind.READING,
              reading="f read as the synaptic sum of the 2021 theorem, f_i = sum_j w_ij sigma_j, with conductance-like weights w_ij >= 0 "
                      "(the |.| of line 248 then changes nothing)"),
        Claim("ltc.sec8.larger_bound.table_dt", f"{s}, section 8 (line 324), 'LTCs have a larger trajectory length lower bound than both Neural ODEs and CT-RNNs'",
              "within table 12's dt in [0.001, 1] and L in [1, 10], with 0 < sigma_b < sigma_w, eq. 21's bound exceeds eq. 19's and eq. 20's "
              "(one constant for all three)", "a grid: ||z|| in [1e-3, 10], sigma_w in [0.5, 3], sigma_b/sigma_w in [0.01, 0.99], d = 1", H,
              "1/min(dt, L) >= 1 for dt <= 1, and eq. 20's base (sigma_w - sigma_b)/... is below eq. 19's", _larger_bound_table_dt_check, group="ltc",
              kind=Kind.READING,
              reading="'>= O(g)' as '>= c g' with one c (as ltc.sec8.larger_bound), over 002's own parameter ranges: table 12's dt and L, and "
                      "sigma_b < sigma_w (line 326: sigma_w^2 = 2, sigma_b^2 = 1)"),
        Claim("ltc.stiff.stability_limited", f"{s}, section 15 line 493, 'LTC ODEs are stiff (Press et al. 2007), meaning standard Runge-Kutta solvers "
              "... require an exponential number of steps', corrected: stiff in Press et al.'s sense, the number of explicit steps set by stability "
              "and growing with the stiffness ratio T/tau ('exponential', a technical word, replaced)",
              "explicit Runge-Kutta (Tsit5) on LTC ODEs is stability-limited once tau << T: its step count grows with T/tau and does not fall when "
              "the tolerance is loosened", "eq. 7, sigmoid, smooth input, T = 1, tau in {1e-4, 3.2e-5, 1e-5}, rtol 1e-4 and 1e-8", H,
              "measured: steps ~ T/tau, the same at both tolerances", _stability_limited_check, group="ltc", kind=Kind.CORRECTION),
        Claim("ltc.sec15.tanh_tau_sys.tau_below_1", f"{s}, section 15 line 499, 'When using tanh activation, f in [-1, 1], so tau_sys in "
              "[tau/(1+tau), tau/(1-tau)]'",
              "along trajectories with f = tanh, tau_sys lies in [tau/(1+tau), tau/(1-tau)] wherever tau < 1",
              f"abstract LTC eq. 7, f = tanh; {RANGES_TEXT}; points with tau >= 1 are left out", H,
              "for tau < 1, 1 + tau f > 1 - tau > 0", _tanh_below_one_check, group="ltc", kind=Kind.READING,
              reading="the interval read where it is one, tau < 1 (for tau >= 1 its upper end tau/(1-tau) is infinite or negative; section 14 "
                      "initialises tau in [0.01, 1])"),
    ]


add_provider(ltc_reading_claims)
