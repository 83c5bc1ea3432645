r"""Sentences of seeds 002 (LTC equation reference) and 004 (sparse recurrent attention) that the
ledger's coverage pass (issue 43) found checkable and that no earlier claim tested.

Seed 002, read off its own displays (SymPy, exact):

* `ledger002.eq5a.nonlinear_presynaptic` (lines 17, 102): eq. 5a,
  $\tau_{system}(V_j) = 1/(1/\tau + (w/C_m)\,\sigma(\gamma(V_j + \mu)))$, depends on the presynaptic
  $V_j$ (first derivative $< 0$ for $w, C_m, \gamma > 0$) and not affinely (second derivative $\ne 0$).
* `ledger002.eq3.synchronize` (line 82): two identical eq. 1 neurons joined by an eq. 3 junction,
  $C\dot v_1 = G(V_L - v_1) + \hat\omega(v_2 - v_1)$ and symmetrically, give
  $\frac{d}{dt}(v_1 - v_2) = -\frac{G + 2\hat\omega}{C}(v_1 - v_2)$: the junction's current is linear
  in the voltages and speeds up the decay of the difference by $2\hat\omega/C$.
* `ledger002.eq6.W_sigma_both` (line 118): in eq. 6 the term $s = W\sigma(u)$ enters the decay rate
  $1/\tau + s$ and the drive $A + sB$.
* `ledger002.eq6.W_product.*` (line 125): W is 'the product of the raw weight matrix (shape
  (n+N) x (n+N)) and an (n+N) vector containing 1/C_m_i values'. As a matrix-vector product it is a
  vector, not W's declared (n+N) x (n+N) (``matvec``); as NumPy's broadcast product it scales column j
  by 1/C_m_j, where eq. 4-5 need $w_{ij}/C_{m_i}$ (``broadcast``); scaling row i by 1/C_m_i,
  $W = \mathrm{diag}(1/C_m) W_{raw}$, gives eq. 5's rate terms summed over j (``row_scaling``).
* `ledger002.eq7a.varies` (line 160): $\tau_{sys} = \tau/(1 + \tau f)$ with eq. 9a's
  $f = \tanh(\gamma_r x + \gamma I + \mu)$ has nonzero partial derivatives in $x$ and in $I$.
* `ledger002.eq21.additional_factor` (line 324): eq. 21 divided by eq. 19 is exactly
  $\|z^{(d)}\|/\sigma_w + 1/\min(\delta t, L)$.
* `ledger002.table11.all_tags` / `ledger002.table11.integer_tags` (line 368, 'Summary of All
  Numbered Equations'): every ``\tag{..}`` of the body has a row in section 11's table (as printed:
  10a and 10b have none), or every integer equation number has one (a reading).
* Restated (an accusation is counted where it is made, ``reports/FINDINGS_STANDARD.md`` rule 5):
  ``ltc.eq11.own_f.tanh.what_it_does`` (line 252, eq. 11's gloss) and
  ``ltc.eq13.outside_start.what_it_does`` (line 274, eq. 13's gloss).

Seed 004:

* `ledger004.batch.single_row` (line 57): under line 55's premise (an empty args contributes a
  block with zero rows), a batch in which one instance has a nonempty args stacks to one row.
"""

from __future__ import annotations

import re

import numpy as np
import sympy as sp

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider, restated
from ._attention_common import SEED004
from ._ltc_common import SEED002

__all__ = ["ledger_002_004_claims", "body_tags", "summary_rows"]

# ----------------------------------------------------------------------------- seed 002, eq. 5a


def _nonlinear_presynaptic_check(ctx: CheckContext) -> Outcome:
    tau, w, cm, gamma = sp.symbols("tau w C_m gamma", positive=True)
    mu, vj = sp.symbols("mu V_j", real=True)
    sigma = 1 / (1 + sp.exp(-gamma * (vj + mu)))
    tau_system = 1 / (1 / tau + (w / cm) * sigma)
    first = sp.diff(tau_system, vj)
    # the sign of the first derivative: -(w/C_m) tau_system^2 sigma' with sigma' = gamma sigma (1 - sigma) > 0
    closed = -(w / cm) * tau_system ** 2 * gamma * sigma * (1 - sigma)
    first_matches = sp.simplify(first - closed) == 0
    point = {tau: 1, w: 1, cm: 1, gamma: 1, mu: 0, vj: 1}
    second_at = float(sp.diff(tau_system, vj, 2).subs(point))
    first_at = float(first.subs(point))
    ok = first_matches and first_at < 0 and abs(second_at) > 1e-6
    msg = (f"eq. 5a: d tau_system/dV_j = -(w/C_m) tau_system^2 gamma sigma (1 - sigma) < 0 (SymPy: {first_matches}); at tau = w = C_m = gamma "
           f"= 1, mu = 0, V_j = 1: first derivative {first_at:.4f}, second derivative {second_at:.4f} (nonzero: tau_system is not affine in V_j)")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                   Evidence(scalars={"first_derivative": first_at, "second_derivative": second_at, "closed_form_matches": bool(first_matches)}))


# ----------------------------------------------------------------------------- seed 002, eq. 3


def _synchronize_check(ctx: CheckContext) -> Outcome:
    cm, g, om = sp.symbols("C_m G_Leak omega", positive=True)
    vl, v1, v2 = sp.symbols("V_Leak v_1 v_2", real=True)
    gap_1 = om * (v2 - v1)   # eq. 3 into neuron 1
    gap_2 = om * (v1 - v2)   # eq. 3 into neuron 2 (bidirectional)
    dv1 = (g * (vl - v1) + gap_1) / cm
    dv2 = (g * (vl - v2) + gap_2) / cm
    diff_rate = sp.simplify((dv1 - dv2) / (v1 - v2))
    expected = -(g + 2 * om) / cm
    exact = sp.simplify(diff_rate - expected) == 0
    linear = all(sp.diff(gap_1, a, b) == 0 for a in (v1, v2) for b in (v1, v2))
    speedup = sp.simplify(expected - (-g / cm))
    ok = exact and linear and sp.simplify(speedup + 2 * om / cm) == 0
    msg = (f"two identical eq. 1 neurons joined by eq. 3: d(v_1 - v_2)/dt = {sp.sstr(diff_rate)} (v_1 - v_2) (= -(G + 2 omega)/C: {exact}); "
           f"the junction current is linear in (v_i, v_j) (second derivatives zero: {linear}) and adds {sp.sstr(-speedup)} to the decay "
           "rate of the difference: the voltages converge faster than without the junction")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                   Evidence(scalars={"difference_rate": sp.sstr(diff_rate), "linear": bool(linear)}))


# ----------------------------------------------------------------------------- seed 002, eq. 6


def _w_sigma_both_check(ctx: CheckContext) -> Outcome:
    tau = sp.Symbol("tau", positive=True)
    u, a_vec, b_vec, s = sp.symbols("u A B s", real=True)   # s = (W sigma(u))_i, one component
    rhs = -(1 / tau + s) * u + a_vec + s * b_vec            # eq. 6, line 116
    decay_rate = -sp.diff(rhs, u)
    drive = rhs.subs(u, 0)
    d_rate, d_drive = sp.diff(decay_rate, s), sp.diff(drive, s)
    ok = d_rate == 1 and sp.simplify(d_drive - b_vec) == 0
    msg = (f"eq. 6 per component: decay rate -d(rhs)/du = {sp.sstr(decay_rate)}, drive rhs(u = 0) = {sp.sstr(drive)}; with s = (W sigma(u))_i: "
           f"d(rate)/ds = {sp.sstr(d_rate)}, d(drive)/ds = {sp.sstr(d_drive)}: W sigma(u) enters both, the drive through B")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                   Evidence(scalars={"d_rate_ds": sp.sstr(d_rate), "d_drive_ds": sp.sstr(d_drive)}))


def _w_product_data(ctx: CheckContext):
    rng = np.random.default_rng([ctx.seed, 2125])
    size = 3                                                   # n + N
    raw = rng.uniform(0.0, 2.0, (size, size))                  # w_ij, table 12: [0, 2]
    capacitance = np.array([0.5, 2.0, 8.0])                    # C_m_i, table 12: [0.1, 10], distinct
    sig = rng.uniform(0.05, 0.95, size)                        # sigma(u_j)
    # eq. 5 summed over the presynaptic j of neuron i: synaptic part of the decay rate, sum_j (w_ij / C_m_i) sigma_j
    eq5 = np.array([sum(raw[i, j] / capacitance[i] * sig[j] for j in range(size)) for i in range(size)])
    return raw, capacitance, sig, eq5


def _w_product_check(mode: str):
    def check(ctx: CheckContext) -> Outcome:
        raw, capacitance, sig, eq5 = _w_product_data(ctx)
        inverse = 1.0 / capacitance
        if mode == "matvec":
            product = raw @ inverse
            ok = product.shape == raw.shape
            msg = (f"raw weight matrix {raw.shape} times the vector of 1/C_m_i {inverse.shape}: a matrix-vector product has shape "
                   f"{product.shape}, not W's declared {raw.shape}")
            return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                           Evidence(scalars={"shape": str(product.shape)}, witness={} if ok else {"shape": str(product.shape)}))
        weights = raw * inverse if mode == "broadcast" else np.diag(inverse) @ raw
        rate = weights @ sig
        gap = float(np.max(np.abs(rate - eq5)))
        ok = gap <= 1e-12 * float(np.max(np.abs(eq5)))
        how = "NumPy raw * (1/C_m) (column j scaled by 1/C_m_j)" if mode == "broadcast" else "diag(1/C_m) raw (row i scaled by 1/C_m_i)"
        msg = (f"W = {how}, C_m = {capacitance.tolist()}: (W sigma(u))_i = {np.round(rate, 6).tolist()} against eq. 5's sum_j (w_ij/C_m_i) "
               f"sigma_j = {np.round(eq5, 6).tolist()} (largest gap {gap:.3g})")
        return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"largest_gap": gap}))

    return check


# ----------------------------------------------------------------------------- seed 002, eq. 7a


def _tau_sys_varies_check(ctx: CheckContext) -> Outcome:
    tau = sp.Symbol("tau", positive=True)
    x, inp, gamma_r, gamma, mu = sp.symbols("x I gamma_r gamma mu", real=True)
    f = sp.tanh(gamma_r * x + gamma * inp + mu)             # eq. 9a, one neuron
    tau_sys = tau / (1 + tau * f)                           # eq. 7a
    point = {tau: 1, gamma_r: sp.Rational(1, 2), gamma: 1, mu: 0, x: sp.Rational(1, 5), inp: sp.Rational(3, 10)}
    d_x, d_i = float(sp.diff(tau_sys, x).subs(point)), float(sp.diff(tau_sys, inp).subs(point))
    ok = abs(d_x) > 1e-6 and abs(d_i) > 1e-6
    msg = (f"eq. 7a with eq. 9a's f: at tau = 1, gamma_r = 0.5, gamma = 1, mu = 0, x = 0.2, I = 0.3: d tau_sys/dx = {d_x:.4f}, "
           f"d tau_sys/dI = {d_i:.4f} (both nonzero: tau_sys varies with the hidden state and with the input, through f)")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"d_tau_sys_dx": d_x, "d_tau_sys_dI": d_i}))


# ----------------------------------------------------------------------------- seed 002, eq. 19 / 21


def _additional_factor_check(ctx: CheckContext) -> Outcome:
    sw, sb, k, depth = sp.symbols("sigma_w sigma_b k dL", positive=True)
    z, dt, steps, length = sp.symbols("z_norm delta_t L l_I", positive=True)
    base = sw * sp.sqrt(k) / sp.sqrt(sw ** 2 + sb ** 2 + k * sp.sqrt(sw ** 2 + sb ** 2))
    eq19 = base ** depth * length                                          # line 314, inside O(.)
    eq21 = base ** depth * (z / sw + 1 / sp.Min(dt, steps)) * length       # line 322, inside O(.)
    ratio = sp.simplify(eq21 / eq19)
    factor = z / sw + 1 / sp.Min(dt, steps)
    ok = sp.simplify(ratio - factor) == 0
    msg = (f"eq. 21 / eq. 19 (the expressions inside O(.)) = {sp.sstr(ratio)}: the only difference is the factor "
           f"||z||/sigma_w + 1/min(delta t, L) ({ok}); whether it exceeds 1 is ltc.sec8.larger_bound")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(scalars={"ratio": sp.sstr(ratio)}))


# ----------------------------------------------------------------------------- seed 002, section 11


def body_tags(text: str) -> list[str]:
    """The equation tags of the body, in order (``\\tag{..}``)."""
    return re.findall(r"\\tag\{([^}]+)\}", text)


def summary_rows(text: str) -> list[str]:
    """The row numbers of section 11's table ('| 1 | ...'), between its heading and the next section."""
    start = text.index("## 11. Summary of All Numbered Equations")
    end = text.index("## 12.", start)
    return re.findall(r"^\|\s*([0-9]+[a-z]?)\s*\|", text[start:end], flags=re.M)


def _table11_tags_check(integer_only: bool):
    def check(ctx: CheckContext) -> Outcome:
        from ..ledger.units import document_text

        text = document_text("002")
        tags, rows = body_tags(text), summary_rows(text)
        wanted = [t for t in tags if t.isdigit()] if integer_only else tags
        missing = [t for t in wanted if t not in rows]
        extra = [r for r in rows if r not in tags]
        which = "integer-numbered tags" if integer_only else "tags"
        msg = (f"the body has {len(tags)} tags ({', '.join(tags)}); section 11's table has {len(rows)} rows; {which} without a row: "
               f"{', '.join(missing) if missing else 'none'}; rows without a body tag: {', '.join(extra) if extra else 'none'}")
        ok = not missing and not extra
        witness = {"missing": ", ".join(missing)} if missing else {}
        return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                       Evidence(scalars={"tags": len(tags), "rows": len(rows), "missing": len(missing)}, witness=witness))

    return check


# ----------------------------------------------------------------------------- seed 004, line 57


def _single_row_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng([ctx.seed, 4057])
    m, batch, attended = 6, 5, 2
    weights = rng.standard_normal((m, m))
    sizes = [3 if i == attended else 0 for i in range(batch)]
    states = [rng.standard_normal((1, m)) for _ in range(batch)]
    blocks = [np.zeros((0, m)) if k == 0 else x[:, np.arange(k)] @ weights[np.arange(k)] for x, k in zip(states, sizes)]
    stacked = np.vstack(blocks)
    numpy_rows = np.vstack([x[:, np.arange(k, dtype=int)] @ weights[np.arange(k, dtype=int)] for x, k in zip(states, sizes)]).shape[0]
    ok = stacked.shape[0] == 1
    msg = (f"B = {batch} instances, only instance {attended} with a nonempty args (k = 3): with line 55's zero-row block for an empty args, the "
           f"stack has {stacked.shape[0]} row; with NumPy's own product for an empty args (a row of zeros, sparse.batch.empty_args_shape) it "
           f"would keep {numpy_rows} rows")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg,
                   Evidence(scalars={"batch": batch, "rows": int(stacked.shape[0]), "rows_with_numpy_blocks": int(numpy_rows)}))


# ----------------------------------------------------------------------------- registry


def _claim(cid, source, statement, assumptions, expected, reason, check, kind, reading=""):
    return Claim(cid, source, statement, assumptions, expected, reason, check, group="ledger", kind=kind, reading=reading)


def _restated_claims() -> list[Claim]:
    from .ltc_bounds import bounds_claims
    from .ltc_bounds_2018 import bounds_2018_claims

    by_id = {c.id: c for c in bounds_claims() + bounds_2018_claims()}
    s = SEED002
    return [
        restated(by_id["ltc.eq11.own_f.tanh"], suffix="what_it_does",
                 source=f"{s}, section 6 line 252, 'Shows the system time-constant is bounded between tau_i/(1+tau_i W_i) (maximum input "
                        "activation) and tau_i (zero input activation)', with 002's own f = tanh (eq. 9a)"),
        restated(by_id["ltc.eq13.outside_start"], suffix="what_it_does",
                 source=f"{s}, section 6 line 274, 'The membrane potential is always bounded between the minimum of (leak potential, smallest "
                        "reversal potential) and the maximum of (leak potential, largest reversal potential)'"),
    ]


def ledger_002_004_claims() -> list[Claim]:
    H, R = Verdict.HOLDS, Verdict.REFUTED
    s2, s4 = SEED002, SEED004
    return [
        _claim("ledger002.eq5a.nonlinear_presynaptic",
               f"{s2}, section 1 line 17, 'an ODE whose effective time-constant varies as a function of the presynaptic states', and section 2 "
               "line 102, 'the effective time-constant of the system is no longer tau_i but varies nonlinearly'",
               "eq. 5a's tau_system depends on the presynaptic V_j (d/dV_j < 0) and is not affine in V_j (second derivative nonzero)",
               "w, C_m, gamma, tau > 0 (line 54: w always positive); evaluated at tau = w = C_m = gamma = 1, mu = 0, V_j = 1",
               H, "d tau_system/dV_j = -(w/C_m) tau_system^2 gamma sigma (1 - sigma); second derivative 0.0452 at the point",
               _nonlinear_presynaptic_check, Kind.AS_PRINTED),
        _claim("ledger002.eq3.synchronize",
               f"{s2}, section 2 line 82, 'Gap junctions contribute a linear coupling term to the dynamics. They tend to synchronize connected neurons.'",
               "for two identical eq. 1 neurons joined by an eq. 3 junction (omega > 0), the junction current is linear in the voltages and "
               "the voltage difference decays at rate (G_Leak + 2 omega)/C_m, faster than G_Leak/C_m without it",
               "no synaptic input; identical C_m, G_Leak, V_Leak (the difference's rate is then exact)",
               H, "C d(v1 - v2)/dt = -(G + 2 omega)(v1 - v2)", _synchronize_check, Kind.READING,
               "'tend to synchronize' read as: the junction makes the voltage difference of two identical neurons decay faster"),
        _claim("ledger002.eq6.W_sigma_both",
               f"{s2}, section 3 line 118, 'The nonlinear term W sigma(u(t)) modulates both the decay rate (through the time-constant) and "
               "the input drive (through the reversal potentials B)'",
               "in eq. 6, s = W sigma(u) enters the decay rate 1/tau + s (d/ds = 1) and the drive A + s B (d/ds = B)",
               "eq. 6 per component, s held as a symbol", H, "read off eq. 6", _w_sigma_both_check, Kind.AS_PRINTED),
        _claim("ledger002.eq6.W_product.matvec",
               f"{s2}, section 3 line 125, 'W in R^((n+N) x (n+N)) --- Effective weight matrix. This is the product of the raw weight matrix "
               "(shape (n+N) x (n+N)) and an (n+N) vector containing 1/C_m_i values.'",
               "the product of the (n+N) x (n+N) raw weight matrix and the (n+N) vector of 1/C_m_i values has W's declared shape (n+N) x (n+N)",
               "n + N = 3; 'product' as the matrix-vector product", R, "a matrix times a vector is a vector of n + N entries",
               _w_product_check("matvec"), Kind.AS_PRINTED),
        _claim("ledger002.eq6.W_product.broadcast",
               f"{s2}, section 3 line 125, 'This is the product of the raw weight matrix (shape (n+N) x (n+N)) and an (n+N) vector containing "
               "1/C_m_i values.'",
               "W = raw * (1/C_m) with NumPy broadcasting (the vector along the last axis) gives eq. 6's W sigma(u) the synaptic rate terms of "
               "eq. 5, sum_j (w_ij/C_m_i) sigma_j", "n + N = 3, w in [0, 2], C_m = 0.5, 2, 8 (table 12 ranges), sigma_j in (0.05, 0.95)",
               R, "broadcasting scales column j by 1/C_m_j: w_ij/C_m_j, not w_ij/C_m_i", _w_product_check("broadcast"), Kind.READING,
               "'product' as the element-wise product with the vector broadcast along the last axis (NumPy's raw * c, the document's "
               "Python readers' default)"),
        _claim("ledger002.eq6.W_product.row_scaling",
               f"{s2}, section 3 line 125, 'This is the product of the raw weight matrix (shape (n+N) x (n+N)) and an (n+N) vector containing "
               "1/C_m_i values.'",
               "W = diag(1/C_m) raw (row i scaled by 1/C_m_i) gives eq. 6's W sigma(u) the synaptic rate terms of eq. 5, sum_j (w_ij/C_m_i) sigma_j",
               "n + N = 3, w in [0, 2], C_m = 0.5, 2, 8 (table 12 ranges), sigma_j in (0.05, 0.95)",
               H, "W_ij = w_ij/C_m_i, eq. 4's w_ij/C_m_i", _w_product_check("row_scaling"), Kind.READING,
               "'product ... and an (n+N) vector containing 1/C_m_i values' as the element-wise product with the vector indexed by the row "
               "(the postsynaptic neuron i), as the subscript i of C_m_i says"),
        _claim("ledger002.eq7a.varies",
               f"{s2}, section 4 line 160, 'This is the liquid time-constant: it varies with the input and hidden state through f.'",
               "eq. 7a's tau_sys with eq. 9a's f has nonzero partial derivatives in x and in I",
               "one neuron, tau = 1, gamma_r = 0.5, gamma = 1, mu = 0, x = 0.2, I = 0.3", H,
               "d tau_sys/dz = -tau^2 (1 - tanh^2 z)/(1 + tau tanh z)^2 times gamma_r or gamma", _tau_sys_varies_check, Kind.AS_PRINTED),
        _claim("ledger002.eq21.additional_factor",
               f"{s2}, section 8 line 324, 'The additional factor (||z^(d)||/sigma_w + 1/min(delta t, L)) in Eq. 21'",
               "eq. 21's expression inside O(.) is eq. 19's times ||z^(d)||/sigma_w + 1/min(delta t, L), and nothing else differs",
               "the displays of lines 314 and 322 transcribed into SymPy", H, "the two displays differ by that factor only",
               _additional_factor_check, Kind.AS_PRINTED),
        _claim("ledger002.table11.all_tags",
               f"{s2}, section 11 heading (line 368), 'Summary of All Numbered Equations'",
               "every equation tag of the body (\\tag{..}, lettered ones included, as the table's own rows 2a, 5a, 7a, 9a are) has a row in "
               "the section 11 table, and every row a tag", "the document's text as shipped; tags and rows parsed by regular expression",
               R, "eq. 10a and 10b (lines 239, 242) have no row", _table11_tags_check(integer_only=False), Kind.AS_PRINTED),
        _claim("ledger002.table11.integer_tags",
               f"{s2}, section 11 heading (line 368), 'Summary of All Numbered Equations'",
               "every integer-numbered equation of the body (1 to 24) has a row in the section 11 table, and every row a body tag",
               "the document's text as shipped; tags and rows parsed by regular expression",
               H, "rows 1-24 are all there; only the lettered 10a, 10b (the two sides of eq. 10, which row 10 prints) are missing",
               _table11_tags_check(integer_only=True), Kind.READING,
               "'All Numbered Equations' read as all equation numbers 1-24 (10a and 10b are the two members of eq. 10, which row 10 prints whole)"),
        _claim("ledger004.batch.single_row",
               f"{s4}, section 'batched training' line 57, 'it is possible after one step of attention, only one instance received (strong) "
               "attention, and the matrix of training instances becomes a single row'",
               "under line 55's premise (an empty args contributes a block with zero rows), a batch in which exactly one instance has a nonempty "
               "args stacks to a single row", "NumPy vstack, B = 5, m = 6, one instance with k = 3; the premise itself is sparse.batch.empty_args_shape",
               H, "four (0, m) blocks and one (1, m) block: one row", _single_row_check, Kind.READING,
               "the inference from line 55's premise: an empty args contributes a (0, m) block (whether NumPy gives one is sparse.batch.empty_args_shape)"),
    ] + _restated_claims()


add_provider(ledger_002_004_claims)
