r"""Statements about the model equations of seed 002 that fail as printed, each with its
counterexample: eq. 3's gap-junction term (`ltc.eq3.linear_term.tau_sys`), eq. 6's drive and
A (`ltc.eq6.drive`, `ltc.eq6.A`), eq. 7's decay term with tanh (`ltc.eq7.pulls_to_zero.tanh`)
and the printed shapes of eq. 9a and eq. 24 (`ltc.eq9a.shapes`, `ltc.eq24.shapes`). The
statements that hold symbolically are obligations in ``proofs/ltc_equations.py``.

* ``ltc.eq3.linear_term.tau_sys``: with a gap junction $\tau_{sys}(\omega) = C/(G + w\sigma + \omega)$,
  $\partial^2_\omega \tau_{sys} = 2C/(G + w\sigma + \omega)^3 \ne 0$: the term gap junctions add is linear
  in the rate $1/\tau_{sys}$, not in $\tau_{sys}$.
* ``ltc.eq6.drive``: summing eq. 5 over synapses gives the drive $\sum_j W_{ij}\sigma_j E_{ij}$; eq. 6's
  $(W\sigma)_i B_i$ matches it for every $\sigma$ only if $E_{ij} = B_i$ for all $j$.
* ``ltc.eq6.A``: line 126's $A_i = V_{L,i}/C_{m,i}$ against eq. 5's $V_{L,i}/\tau_i = G_i V_{L,i}/C_{m,i}$.
* ``ltc.eq7.pulls_to_zero.tanh``: the rate $1/\tau + \tanh(z)$ is negative for $\tanh z < -1/\tau$,
  possible exactly when $\tau > 1$ (table 12 allows $\tau$ up to 10).
* ``ltc.eq9a.shapes`` / ``ltc.eq24.shapes``: the printed shapes $\gamma \in \mathbb{R}^{M\times N}$ and
  $W_{out} \in \mathbb{R}^{N \times N_{out}}$ do not multiply $I \in \mathbb{R}^M$ and $x \in \mathbb{R}^N$.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..symbolic.checks import Identity
from ._ltc_common import SEED002

__all__ = ["model_equation_claims"]


def _gap_tau_sys_check(ctx: CheckContext) -> Outcome:
    C, G, w, sigma, omega = sp.symbols("C_m G_L w sigma omega", positive=True)
    tau_sys = C / (G + w * sigma + omega)
    curvature = sp.diff(tau_sys, omega, 2)
    point = {C: 1.0, G: 1.0, w: 1.0, sigma: 0.5, omega: 1.0}
    finding = Identity(curvature, 0, hints=[point]).run(ctx.seed)
    # tau_sys at omega = 0, 1, 2 (C = G = w = 1, sigma = 1/2): a linear term would make the steps equal
    vals = [Fraction(1) / (Fraction(1) + Fraction(1, 2) + k) for k in (0, 1, 2)]
    steps = (vals[1] - vals[0], vals[2] - vals[1])
    out = finding.to_outcome()
    witness = dict(out.evidence.witness)
    witness.update({"tau_sys_omega0": float(vals[0]), "tau_sys_omega1": float(vals[1]), "tau_sys_omega2": float(vals[2])})
    msg = (f"d^2 tau_sys / d omega^2 = {sp.simplify(curvature)} != 0; at C = G = w = 1, sigma = 1/2: tau_sys = {vals[0]}, {vals[1]}, {vals[2]} for "
           f"omega = 0, 1, 2 (steps {steps[0]}, {steps[1]}, not equal): the gap term omega/C_m is added to 1/tau_sys (ltc.eq3.linear_term.rate), "
           f"not linearly to tau_sys")
    return Outcome(finding.verdict, msg, Evidence(scalars=dict(out.evidence.scalars), witness=witness))


def _eq6_drive_check(ctx: CheckContext) -> Outcome:
    """Two neurons (n + N = 2), neuron 1 with synapses from both: for eq. 6's drive to equal the summed
    synaptic drive for every sigma, B_1 must equal E_11 (sigma = (1, 0)) and E_12 (sigma = (0, 1))."""
    W11, W12 = sp.symbols("W11 W12", positive=True)
    E11, E12, B1 = sp.symbols("E11 E12 B1", real=True)
    s1, s2 = sp.symbols("s1 s2", positive=True)
    summed = W11 * s1 * E11 + W12 * s2 * E12          # eq. 5 summed over j, synaptic part of the drive
    printed = (W11 * s1 + W12 * s2) * B1              # eq. 6: (W sigma(u))_1 B_1
    only_first = sp.solve(sp.Eq(summed.subs({s1: 1, s2: 0}), printed.subs({s1: 1, s2: 0})), B1)
    only_second = sp.solve(sp.Eq(summed.subs({s1: 0, s2: 1}), printed.subs({s1: 0, s2: 1})), B1)
    values = {W11: 1, W12: 1, E11: -1, E12: 1}
    b_first, b_second = only_first[0].subs(values), only_second[0].subs(values)
    n = 3
    witness = {"W11": 1.0, "W12": 1.0, "E11": -1.0, "E12": 1.0, "B1_needed_at_sigma_1_0": float(b_first), "B1_needed_at_sigma_0_1": float(b_second),
               "entries_of_E_for_n_plus_N_3": n * n, "entries_of_B_for_n_plus_N_3": n}
    if b_first != b_second:
        msg = (f"summed drive sum_j W_1j sigma_j E_1j needs B_1 = {only_first[0]} at sigma = (1, 0) and B_1 = {only_second[0]} at sigma = (0, 1): "
               f"with E_11 = -1, E_12 = 1 no B_1 works ({b_first} != {b_second}); eq. 6 holds only with one reversal potential per postsynaptic "
               f"neuron (E_ij = B_i, ltc.eq6.drive.shared_reversal). An (n+N)-vector B cannot 'contain all E_ij' ((n+N)^2 values: 9 for n+N = 3). "
               f"eq. 6's sigma(u) also drops eq. 2a's per-synapse gamma_ij, mu_ij")
        return Outcome(Verdict.REFUTED, msg, Evidence(witness=witness))
    return Outcome(Verdict.HOLDS, "a single B_1 serves both gate patterns", Evidence(witness=witness))


def _eq6_A_check(ctx: CheckContext) -> Outcome:
    C, G = sp.symbols("C_m G_L", positive=True)
    VL = sp.Symbol("V_L", real=True)
    printed, eq5 = VL / C, G * VL / C                  # line 126 vs eq. 5's V_L/tau with tau = C/G
    finding = Identity(printed, eq5, hints=[{C: 1.0, G: 2.0, VL: -1.0}]).run(ctx.seed)
    agree = sp.solve(sp.Eq(printed, eq5), G)
    out = finding.to_outcome()
    msg = (f"A_i = V_L/C_m (line 126) vs eq. 5's constant drive V_L/tau_i = G_L V_L/C_m: {finding.message}; they agree only for G_L = "
           f"{agree} (or V_L = 0); corrected A_i = V_L_i/tau_i (ltc.eq6.drive.shared_reversal)")
    return Outcome(finding.verdict, msg, out.evidence)


TAU_TABLE = (0.001, 10.0)


def _pulls_to_zero_tanh_check(ctx: CheckContext) -> Outcome:
    taus = np.exp(np.linspace(np.log(TAU_TABLE[0]), np.log(TAU_TABLE[1]), 401))
    inf_rate = 1 / taus - 1                            # inf over f in (-1, 1) of 1/tau + f (approached as f -> -1)
    flips = taus[inf_rate < 0]
    tau_w, f_w = Fraction(10), Fraction(-9, 10)
    rate_w = 1 / tau_w + f_w
    z_w = math.atanh(float(f_w))
    # the decay term alone moves x = 1 at speed -(rate) x = +0.8: away from zero
    witness = {"tau": float(tau_w), "f": float(f_w), "z": z_w, "rate": float(rate_w), "decay_term_at_x_1": float(-rate_w)}
    scalars = {"tau_min_table": TAU_TABLE[0], "tau_max_table": TAU_TABLE[1], "sign_flip_threshold": "f < -1/tau (needs tau > 1)",
               "fraction_of_log_tau_grid_with_possible_flip": float(len(flips) / len(taus)), "rate_at_witness": float(rate_w)}
    msg = (f"1/tau + tanh(z) < 0 when tanh(z) < -1/tau, possible exactly for tau > 1 ({100 * len(flips) / len(taus):.0f}% of table 12's log-tau range "
           f"[0.001, 10]); at tau = 10, f = -0.9 (z = {z_w:.4f}) the rate is {float(rate_w)} and the 'decay' term -(1/tau + f) x = +0.8 x pushes x away "
           f"from zero. With f = sigmoid the rate is always > 0 (ltc.eq7.pulls_to_zero.sigmoid)")
    verdict = Verdict.REFUTED if rate_w < 0 and len(flips) else Verdict.HOLDS
    return Outcome(verdict, msg, Evidence({"tau": taus, "inf_rate_over_f": inf_rate}, scalars, witness if verdict == Verdict.REFUTED else {}))


def _try_product(a: np.ndarray, b: np.ndarray) -> str:
    try:
        return f"ok {np.matmul(a, b).shape}"
    except ValueError as exc:
        return f"fails: {exc}".split("(size")[0].strip()


def _shapes_check(which: str):
    def check(ctx: CheckContext) -> Outcome:
        N, M, N_out = 4, 3, 2
        x, I = np.ones(N), np.ones(M)
        if which == "gamma":
            products = {"gamma_r @ x (N x N)(N)": _try_product(np.ones((N, N)), x),
                        "gamma @ I (M x N)(M), as printed": _try_product(np.ones((M, N)), I),
                        "gamma.T @ I (N x M)(M)": _try_product(np.ones((M, N)).T, I),
                        "I @ gamma (row vector)": _try_product(I, np.ones((M, N)))}
            failing = "gamma @ I (M x N)(M), as printed"
            fix = "gamma in R^{N x M} (or gamma^T I, or the row-vector form I gamma)"
        else:
            products = {"W_out @ x (N x N_out)(N), as printed": _try_product(np.ones((N, N_out)), x),
                        "W_out.T @ x (N_out x N)(N)": _try_product(np.ones((N, N_out)).T, x),
                        "x @ W_out (row vector)": _try_product(x, np.ones((N, N_out)))}
            failing = "W_out @ x (N x N_out)(N), as printed"
            fix = "W_out in R^{N_out x N} (or the row-vector form x W_out)"
        witness = {"N": N, "M": M, "N_out": N_out, **{k: v for k, v in products.items()}}
        refuted = products[failing].startswith("fails")
        msg = (f"with the printed shapes (N = {N}, M = {M}, N_out = {N_out}): " + "; ".join(f"{k}: {v}" for k, v in products.items()) +
               f". The product as written needs {fix}")
        return Outcome(Verdict.REFUTED if refuted else Verdict.HOLDS, msg, Evidence(witness=witness if refuted else {}))

    return check


def model_equation_claims() -> list[Claim]:
    R = Verdict.REFUTED
    return [
        Claim("ltc.eq3.linear_term.tau_sys", f"{SEED002}, section 2, eq. 3 interpretation (line 82), 'gap junctions add a linear term to both the system "
              "time-constant tau_sys and the equilibrium state vector A'",
              "adding a gap junction (eq. 3) to eq. 4 changes tau_sys = C_m/(G_L + w sigma + omega) by a term linear in omega (d^2 tau_sys/d omega^2 = 0)",
              "C_m, G_L, w, sigma, omega > 0", R, "the added term omega/C_m is linear in the rate 1/tau_sys; tau_sys itself is 1/(rate), convex in omega",
              _gap_tau_sys_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq6.drive", f"{SEED002}, eq. 6 (line 116), 'A + W sigma(u(t)) B', and line 127, 'B ... Contains all E_ij values'",
              "eq. 6's drive (W sigma(u))_i B_i equals the summed synaptic drive sum_j W_ij sigma(u_j) E_ij of eq. 5 for every sigma, for some B",
              "two presynaptic neurons into neuron 1, W_1j > 0, E_1j real (table 12: E in [-1, 1])", R,
              "one B_i per neuron can match only when every E_ij = B_i; the sum over j with distinct E_ij does not factor", _eq6_drive_check,
              group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq6.A", f"{SEED002}, eq. 6 parameter list (line 126), 'A ... Contains all V_Leak_i/C_m_i values'",
              "eq. 6's A_i = V_Leak_i/C_m_i equals eq. 5's constant drive V_Leak_i/tau_i = G_Leak_i V_Leak_i/C_m_i",
              "C_m, G_Leak > 0, V_Leak real", R, "they differ by the factor G_Leak: equal only for G_Leak = 1 or V_Leak = 0", _eq6_A_check,
              group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq7.pulls_to_zero.tanh", f"{SEED002}, section 4, eq. 7 'What it does' (line 143), 'a state-dependent decay term -[1/tau + f(.)]x(t) "
              "that pulls the state toward zero'; f = tanh (line 150, eq. 9a)",
              "with f = tanh(.), the rate 1/tau + f is > 0 over table 12's tau in [0.001, 10], so the decay term pulls x toward zero",
              "tau in [0.001, 10] (table 12), f = tanh(z) in (-1, 1)", R, "tanh(z) < -1/tau is possible whenever tau > 1: tau = 10, f = -0.9 gives rate -0.8",
              _pulls_to_zero_tanh_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq9a.shapes", f"{SEED002}, after eq. 9a (line 193), 'gamma in R^{{M x N}} are input weights'; eq. 9a / eq. 22 'gamma I'",
              "with the printed shapes gamma in R^{M x N} and I in R^M, the product gamma I of eq. 9a / eq. 22 is defined",
              "N = 4, M = 3, N_out = 2 (N != M != N_out)", R, "an (M x N) matrix times an M-vector is undefined unless M = N",
              _shapes_check("gamma"), group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq24.shapes", f"{SEED002}, table 12 (line 412), 'W_out | N x N_out', with eq. 24 (line 360), 'W_out . x(t + Delta t)'",
              "with the printed shape W_out in R^{N x N_out} and x in R^N, the product W_out x of eq. 24 is defined",
              "N = 4, M = 3, N_out = 2", R, "an (N x N_out) matrix times an N-vector is undefined unless N = N_out", _shapes_check("W_out"),
              group="ltc", kind=Kind.AS_PRINTED),
    ]


add_provider(model_equation_claims)
