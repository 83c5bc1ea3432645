r"""Seed 002's section 11 summary table (`ltc.table11.<row>`), checked row by row against
the body: each row's formula and the body's numbered display, both transcribed from their
LaTeX into SymPy and compared part by part (sides of an equation, members of a double
inequality), and each row's source label against the body's label by year and equation
number.
"""

from __future__ import annotations

import sympy as sp

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._ltc_common import SEED002

__all__ = ["table11_claims", "TABLE11_ROWS"]


def _table11_parts():
    """Each row of section 11 and the numbered display in the body, both transcribed from their LaTeX
    (lines 372-399 and the body's displays) into SymPy, as tuples of parts (sides of an equation, the three
    members of a double inequality). None: the row prints no formula."""
    S = sp.Symbol
    Fn = sp.Function
    t = S("t", real=True)
    C, G, VL, V, Vj, Vi = S("C_m"), S("G_L"), S("V_L"), S("V"), S("V_j"), S("V_i")
    I1, I2 = S("I1"), S("I2")
    w, g_, mu, E, om, vj, vi = S("w"), S("gamma"), S("mu"), S("E"), S("omega"), S("v_j"), S("v_i")
    tau, dVdt = S("tau"), S("dV/dt")
    sigma_ij = 1 / (1 + sp.exp(-g_ * (Vj + mu)))
    u, A, B, W, sig_u, udot = S("u"), S("A"), S("B"), S("W"), S("sigma(u)"), S("udot")
    x, f_, dxdt, dt, fval = S("x"), S("f"), S("dx/dt"), S("Delta t"), S("f_val")
    x_i, x_next, f8 = S("x_i"), S("x_next"), Fn("f8")
    gam_r, gam, In = S("gamma_r"), S("gamma_I"), S("I")
    Ci, gi, w1, w2, wh1, wh2, Wi, taui, tausys = S("C_i"), S("g_i"), S("w1"), S("w2"), S("wh1"), S("wh2"), S("W_i"), S("tau_i"), S("tau_sys")
    Amin, Amax, xt, Emin, Emax, vt = S("A_min"), S("A_max"), S("x_i(t)"), S("E_min"), S("E_max"), S("v_i(t)")
    xu, eps, F, M = S("|x - u|_max"), S("epsilon"), S("F"), S("M")
    n_, C1, C2, xnorm, Wl, Cc = S("n", positive=True), S("C_1"), S("C_2"), S("x(t)"), S("W_l"), S("C")
    Wout, bout, yhat = S("W_out"), S("b_out"), S("yhat")
    sig = lambda z: 1 / (1 + sp.exp(-z))  # noqa: E731

    body = {
        "1": (C * dVdt, G * (VL - V) + I1 + I2),
        "2": (S("I_s"), w / (1 + sp.exp(-g_ * (Vj + mu))) * (E - Vi)),
        "2a": (S("sigma_i"), 1 / (1 + sp.exp(-g_ * (Vj + mu)))),
        "3": (S("I_hat"), om * (vj - vi)),
        "4": (dVdt, G / C * (VL - V) + w / C * sigma_ij * (E - V)),
        "5": (dVdt, -(1 / tau + w / C * sigma_ij) * V + (VL / tau + w / C * sigma_ij * E)),
        "5a": (S("tau_system"), 1 / (1 / tau + (w / C) * sigma_ij)),
        "6": (udot, -(1 / tau + W * sig_u) * u + A + W * sig_u * B),
        "7": (dxdt, -(1 / tau + f_) * x + f_ * A),
        "7a": (tausys, tau / (1 + tau * f_)),
        "8": (x_next, x_i + dt * f8(x_i, x_next)),
        "9": (x_next, (x + dt * f_ * A) / (1 + dt * (1 / tau + f_))),
        "9a": (f_, sp.tanh(gam_r * x + gam * In + mu)),
        "10": (Ci / (gi + w1 + w2 + wh1 + wh2), taui, Ci / (gi + wh1 + wh2)),
        "11": (taui / (1 + taui * Wi), tausys, taui),
        "12": (sp.Min(0, Amin), xt, sp.Max(0, Amax)),
        "13": (sp.Min(VL, Emin), vt, sp.Max(VL, Emax)),      # min_{t in I} of time-independent quantities: notation only
        "14": (xu, eps),
        "15": (S("xdot"), -(1 / tau + F) * x + A + B * F),
        "16": (tau * (A + B * M) / (1 + tau * M),),           # the second argument of eq. 16's min/max
        "17": (sp.sqrt(n_) * C1, xnorm, sp.sqrt(n_) * C2),
        "18": (tausys, 1 / (1 / tau + Wl * sig(Cc * x + mu))),
        "22": (fval, Fn("activation")(gam_r * x + gam * In + mu)),
        "23": (x_next, (x + dt * fval * A) / (1 + dt * (1 / tau + fval))),
        "24": (yhat, Wout * xnorm + bout),
    }
    row = {
        "1": (C * dVdt, G * (VL - V) + (I1 + I2)),
        "2": (S("I_s"), w / (1 + sp.exp(-g_ * (Vj + mu))) * (E - Vi)),
        "2a": (S("sigma_i"), 1 / (1 + sp.exp(-g_ * (Vj + mu)))),
        "3": (S("I_hat"), om * (vj - vi)),
        "4": (dVdt, G / C * (VL - V) + w / C * sigma_ij * (E - V)),
        "5": (dVdt, -(1 / tau + w / C * sigma_ij) * V + (VL / tau + w / C * sigma_ij * E)),
        "5a": (S("tau_system"), 1 / (1 / tau + (w / C) * sigma_ij)),
        "6": (udot, -(1 / tau + W * sig_u) * u + A + W * sig_u * B),
        "7": (dxdt, -(1 / tau + f_) * x + f_ * A),
        "7a": (tausys, tau / (1 + tau * f_)),
        "8": (x_next, x_i + dt * f8(x_i, x_next)),
        "9": (x_next, (x + dt * f_ * A) / (1 + dt * (1 / tau + f_))),
        "9a": (f_, sp.tanh(gam_r * x + gam * In + mu)),
        "10": (Ci / (gi + (w1 + w2) + (wh1 + wh2)), taui, Ci / (gi + (wh1 + wh2))),
        "11": (taui / (1 + taui * Wi), tausys, taui),
        "12": (sp.Min(0, Amin), xt, sp.Max(0, Amax)),
        "13": (sp.Min(VL, Emin), vt, sp.Max(VL, Emax)),
        "14": (xu, eps),
        "15": (S("xdot"), -(1 / tau + F) * x + A + B * F),
        "16": (tau * (A + B * M) / (1 + tau * M),),
        "17": (sp.sqrt(n_) * C1, xnorm, sp.sqrt(n_) * C2),
        "18": (tausys, 1 / (1 / tau + Wl * sig(Cc * x + mu))),
        "22": (fval, sp.Function("activation")(gam_r * x + gam * In + mu)),
        "23": None,                                           # 'Fused step (= Eq. 9 restated)': compared with eq. 9 at f_val = f
        "24": (yhat, Wout * xnorm + bout),
    }
    row["23"] = tuple(part.subs(fval, f_) for part in body["23"])
    body["23"] = body["9"]
    return row, body


#: (row, row's source label, the body's label for that display, body line, what the row shows, note)
TABLE11_ROWS = (
    ("1", "2018 Eq.1", "2018 Paper (section 2 heading; no equation number)", 27, "formula", "row drops (t) and the sum's limits"),
    ("2", "2018 Eq.2", "2018 Paper (section 2 heading; no equation number)", 48, "formula", ""),
    ("2a", "2018 (inline)", "2018 Paper (section 2 heading; inline)", 63, "formula", ""),
    ("3", "2018 Eq.3", "2018 Paper (section 2 heading; no equation number)", 73, "formula", "row drops (t)"),
    ("4", "2018 Eq.4", "2018 Paper (section 2 heading; no equation number)", 90, "formula", ""),
    ("5", "2018 Eq.5", "2018 Paper (section 2 heading; no equation number)", 100, "formula", ""),
    ("5a", "2018 (inline)", "2018 Paper (section 2 heading; inline)", 104, "formula", ""),
    ("6", "2018 Eq.6", "2018 Paper (section 3 heading; no equation number)", 116, "formula", ""),
    ("7", "2021 Eq.1", "2021 Eq. 1", 141, "formula", ""),
    ("7a", "2021 (inline)", "2021 Paper (section 4 heading; inline)", 158, "formula", ""),
    ("8", "2021 Eq.2", "2021 Eq. 2", 168, "formula", ""),
    ("9", "2021 Eq.3", "2021 Eq. 3", 178, "formula", "row writes f(.) for f(x(t), I(t), t, theta)"),
    ("9a", "2021 (inline)", "2021 Paper (section 4; inline)", 191, "formula", ""),
    ("10", "2018 Eq.40", "2018 Eq. 40", 232, "formula", "row drops the sums' limits (N chemical, P gap)"),
    ("11", "2021 Eq.4", "2021 Eq. 4", 250, "formula", ""),
    ("12", "2021 Eq.5", "2021 Eq. 5", 260, "formula", ""),
    ("13", "2018 Eq.50", "2018 Eq. 50", 272, "formula", "row drops min_{t in I} and max_{t in I}: the arguments do not depend on t, so the same interval"),
    ("14", "2018 Thm.1", "2018 Theorem 1", 284, "formula", ""),
    ("15", "2018 Eq.7", "2018 Eq. 7", 292, "formula", ""),
    ("16", "2018 Eq.10", "2018 Eq. 10-11 (shared by eq. 16 and 17)", 298, "expression only",
     "row gives no formula, only 'State bound via tau(A+BM)/(1+tau M)', the second argument of eq. 16's min and max"),
    ("17", "2018 Eq.11", "2018 Eq. 10-11 (shared by eq. 16 and 17)", 300, "formula", ""),
    ("18", "2018 Eq.16", "2018 Eq. 16", 304, "formula", ""),
    ("19", "2021 Eq.7", "2021 Eq. 7", 314, "name only", "row names the bound ('Neural ODE trajectory length lower bound'); the heading says 'Neural ODE / CT-RNN'"),
    ("20", "2021 Eq.8", "2021 Eq. 8", 318, "name only", "row names the bound ('CT-RNN trajectory length lower bound')"),
    ("21", "2021 Eq.9", "2021 Eq. 9", 322, "name only", "row names the bound ('LTC trajectory length lower bound')"),
    ("22", "Implementation", "Implementation (section 10)", 354, "formula", "row drops the dots of gamma_r . x"),
    ("23", "Implementation", "Implementation (section 10)", 357, "'= Eq. 9 restated'", "eq. 23 with f_val = f is eq. 9 (one step; section 10 applies it L times with f_val frozen)"),
    ("24", "Implementation", "Implementation (section 10)", 360, "formula", "row writes x for x(t + Delta t)"),
)


_TABLE_LINE = {r[0]: 372 + i for i, r in enumerate(TABLE11_ROWS)}


def _label_key(label: str) -> tuple[str, str]:
    """(year, number) of a source label: '2018 Eq.40' -> ('2018', '40'); '2018 Thm.1' -> ('2018', 'thm1')."""
    import re

    year = re.search(r"(2018|2021|Implementation)", label)
    num = re.search(r"Eq\.\s*(\d+)", label)
    thm = re.search(r"(Thm\.|Theorem)\s*(\d+)", label)
    return (year.group(1) if year else "", num.group(1) if num else (f"thm{thm.group(2)}" if thm else ""))


def _table11_check(row_id: str):
    def check(ctx: CheckContext) -> Outcome:
        _, row_label, body_label, body_line, shows, note = next(r for r in TABLE11_ROWS if r[0] == row_id)
        rows, bodies = _table11_parts()
        parts_row, parts_body = rows.get(row_id), bodies.get(row_id)
        ry, rn = _label_key(row_label)
        by, bn = _label_key(body_label)
        label_ok = ry == by and (rn == bn or bn == "" or ("10-11" in body_label and rn in ("10", "11")))
        label_text = f"source '{row_label}' vs body '{body_label}': {'consistent' if label_ok else 'different'}"
        scalars = {"row_label": row_label, "body_label": body_label, "body_line": body_line, "table_line": _TABLE_LINE[row_id], "row_shows": shows}
        if parts_row is None or parts_body is None:
            formula_ok, formula_text = True, "no formula in the row to compare"
        else:
            diffs = [sp.simplify(sp.sympify(a) - sp.sympify(b)) for a, b in zip(parts_row, parts_body)]
            formula_ok = len(parts_row) == len(parts_body) and all(d == 0 for d in diffs)
            formula_text = ("formula matches the body display part by part (" + ", ".join(sp.sstr(p)[:60] for p in parts_row) + ")" if formula_ok
                            else "formula differs: residuals " + ", ".join(sp.sstr(d) for d in diffs))
            scalars["parts"] = len(parts_row)
        msg = f"row {row_id} (line {_TABLE_LINE[row_id]}) vs body line {body_line}: {formula_text}; {label_text}" + (f"; {note}" if note else "")
        if formula_ok and label_ok:
            return Outcome(Verdict.HOLDS, msg, Evidence(scalars=scalars))
        witness = {"row": row_id, "row_label": row_label, "body_label": body_label}
        return Outcome(Verdict.REFUTED, msg, Evidence(scalars=scalars, witness=witness))

    return check


def table11_claims() -> list[Claim]:
    H = Verdict.HOLDS
    claims = []
    for row_id, row_label, body_label, body_line, shows, note in TABLE11_ROWS:
        reading = ("min_{t in I}/max_{t in I} of time-independent quantities read as notation only" if row_id == "13" else
                   "'Fused step (= Eq. 9 restated)' read as: eq. 23 with f_val = f is eq. 9" if row_id == "23" else "")
        claims.append(Claim(
            f"ltc.table11.{row_id}", f"{SEED002}, section 11 summary table, row {row_id} (line {_TABLE_LINE[row_id]}), source '{row_label}'",
            f"row {row_id} of the summary table ({shows}) and its source label agree with the body's display (line {body_line}) and heading",
            "row and body formulas transcribed from their LaTeX into SymPy and compared part by part; labels compared by year and equation number",
            H, "no difference found when the tables were read" + (f" ({note})" if note else ""), _table11_check(row_id), group="tables",
            kind=Kind.READING if reading else Kind.AS_PRINTED, reading=reading))
    return claims


add_provider(table11_claims)
