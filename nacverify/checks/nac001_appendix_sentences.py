r"""Document 001's appendix, sentence by sentence (issue 43): the derivation steps of B.1, B.2 and B.3,
C.1.1's dependence sentence, D.1-D.3's counts and names, Tables 4 and 5, Algorithm 3.

Claims ``nac001.app.*``. Each check reads the document's own words (the copy shipped in the package,
`nacverify.ledger.units.flat_text`) or its tables (`nacverify.checks._tables`), and decides them by
exact algebra (SymPy) or exact arithmetic:

- B.1, the closed form by an integrating factor. With :math:`\omega \ne 0` and frozen :math:`\phi`,

  .. math::

     \dot a + \omega a = \phi,\quad \mu = e^{\int_0^t \omega\,ds} = e^{\omega t},\quad
     \tfrac{d}{dt}(\mu a) = \mu\phi,\quad \mu a_t - a_0 = \phi\int_0^t e^{\omega s}ds
     = \tfrac{\phi}{\omega}(e^{\omega t}-1),\quad a_t = a_0e^{-\omega t} + \tfrac{\phi}{\omega}(1-e^{-\omega t});

  each step (eq. 24 to 32 and the words between them) is one claim.
- B.2: :math:`-\omega(a - A) = 0` has the one root :math:`A` when :math:`\omega \ne 0`.
- B.3: with :math:`T = 1`, :math:`K_\text{eff} = \min(K, T_k) = 1` (Algorithm 2's rule); with
  :math:`q_\text{proj} = k_\text{proj}` the pair is :math:`[x; x]`; with :math:`\omega \equiv 1` and a backbone
  affine in :math:`u`, :math:`a = \sigma((w_1 + w_2)\cdot x + b)`, a sigmoid unit.
- Algorithm 3 against D.3.4's CWT :math:`\Gamma(a,b) = \int x_w(t)\,a^{-1/2}\psi^*((t-b)/a)\,dt` and against its
  own scale-frequency relation :math:`a = f_c/(f\,T_\text{sampling})` (its ``a_min``/``a_max`` line), with a
  Morlet wavelet :math:`\psi(t) = \pi^{-1/4}e^{i\omega_0 t}e^{-t^2/2}`, :math:`\omega_0 = 6`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.signal import fftconvolve

from ..claims import Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..ledger.units import flat_text, units
from ._tables import SEED001, dataset_table5, hyperparameter_table

__all__ = ["appendix_claims", "event_encode", "morlet_energy"]

H, F = Verdict.HOLDS, Verdict.REFUTED
A, C = Kind.AS_PRINTED, Kind.CORRECTION


# ----------------------------------------------------------------------------- the document's words


@lru_cache(maxsize=None)
def _unit_text(line: int, startswith: str) -> str:
    """The unit of document 001 on seed line `line` whose text starts with `startswith`."""
    for u in units("001"):
        if u.line == line and u.text.startswith(startswith):
            return u.text
    raise LookupError(f"001 has no unit on line {line} starting {startswith!r}")


def _between(start: str, end: str) -> str:
    flat = flat_text("001")
    i = flat.index(start)
    return flat[i:flat.index(end, i)]


# ----------------------------------------------------------------------------- B.1: the steps


t, s, om, phi, a0, A_eq = sp.symbols("t s omega phi a0 A", real=True)
om_pos = sp.Symbol("omega", positive=True)
a = sp.Function("a")


def _zero(expr: sp.Expr, what: str, scalars: dict | None = None) -> Outcome:
    residual = sp.simplify(expr)
    ev = Evidence({}, {"residual": str(residual), **(scalars or {})}, {})
    if residual == 0:
        return Outcome(H, f"{what}: the difference simplifies to 0", ev)
    return Outcome(F, f"{what}: the difference is {residual}, not 0", Evidence({}, ev.scalars, {"residual": str(residual)}))


def _rewrite_eq1() -> Outcome:
    eq1 = sp.Derivative(a(t), t) - (-om * a(t) + phi)  # eq. 1 with the gates frozen: da/dt = -omega a + phi
    eq24 = sp.Derivative(a(t), t) + om * a(t) - phi  # eq. 24: da/dt + omega a = phi
    return _zero(eq1 - eq24, "eq. 1 with frozen phi, omega minus eq. 24")


def _linear_first_order() -> Outcome:
    y, dy, d2y = sp.symbols("y dy d2y")
    lhs = dy + om * y - phi  # eq. 24 with a -> y, a' -> dy
    second = [sp.diff(lhs, y, 2), sp.diff(lhs, dy, 2), sp.diff(lhs, y, dy)]
    order_one = sp.diff(lhs, dy) != 0 and sp.diff(lhs, d2y) == 0
    ok = all(x == 0 for x in second) and order_one
    ev = Evidence({}, {"d2_dy2": str(second[0]), "d2_ddy2": str(second[1]), "coefficient_of_derivative": str(sp.diff(lhs, dy))}, {})
    return Outcome(H if ok else F, "eq. 24 is affine in (a, da/dt) with da/dt's coefficient 1 and no higher derivative" if ok else "eq. 24 is not linear first order", ev)


def _integrating_factor() -> Outcome:
    mu = sp.exp(sp.integrate(om, (s, 0, t)))
    printed = sp.exp(om * t)  # eq. 25
    same = sp.simplify(mu - printed) == 0
    defining = sp.simplify(sp.diff(printed, t) - om * printed) == 0  # mu' = omega mu
    ev = Evidence({}, {"mu": str(mu), "printed": str(printed)}, {})
    return Outcome(H if same and defining else F, f"exp(int_0^t omega ds) = {mu}; d/dt e^(omega t) = omega e^(omega t): {defining}", ev)


def _multiply() -> Outcome:
    mu = sp.exp(om * t)
    eq24 = sp.Derivative(a(t), t) + om * a(t) - phi
    eq26 = sp.exp(om * t) * sp.Derivative(a(t), t) + om * sp.exp(om * t) * a(t) - phi * sp.exp(om * t)
    return _zero(sp.expand(mu * eq24 - eq26), "e^(omega t) times eq. 24 minus eq. 26")


def _product_rule() -> Outcome:
    lhs26 = sp.exp(om * t) * sp.Derivative(a(t), t) + om * sp.exp(om * t) * a(t)
    return _zero(sp.diff(sp.exp(om * t) * a(t), t) - lhs26.doit(), "d/dt(e^(omega t) a_t) minus eq. 26's left-hand side")


def _integrate() -> Outcome:
    closed = a0 * sp.exp(-om_pos * t) + phi / om_pos * (1 - sp.exp(-om_pos * t))  # any solution of eq. 27 with a(0) = a0
    lhs = sp.integrate(sp.diff(sp.exp(om_pos * s) * closed.subs(t, s), s), (s, 0, t))
    printed_lhs = sp.exp(om_pos * t) * closed - sp.exp(0) * a0  # eq. 28's left-hand side
    rhs = sp.integrate(phi * sp.exp(om_pos * s), (s, 0, t))
    printed_rhs = phi * sp.integrate(sp.exp(om_pos * s), (s, 0, t))  # eq. 28's right-hand side
    return _zero((lhs - printed_lhs) + (rhs - printed_rhs), "eq. 27 integrated over [0, t] minus eq. 28 (both sides)")


def _substitute() -> Outcome:
    eq28_rhs = phi * sp.integrate(sp.exp(om_pos * s), (s, 0, t))
    eq30_rhs = phi * (sp.exp(om_pos * t) - 1) / om_pos
    return _zero(eq28_rhs - eq30_rhs, "eq. 28's right-hand side with eq. 29 substituted, minus eq. 30's")


def _rearrange() -> Outcome:
    x = sp.Symbol("x")  # x = e^(omega t) a_t
    solved = sp.solve(sp.Eq(x - a0, phi * (sp.exp(om * t) - 1) / om), x)  # eq. 30
    eq31 = a0 + phi / om * (sp.exp(om * t) - 1)
    return _zero(solved[0] - eq31, "eq. 30 solved for e^(omega t) a_t, minus eq. 31", {"solutions": len(solved)})


def _divide() -> Outcome:
    eq31 = a0 + phi / om * (sp.exp(om * t) - 1)
    eq32 = a0 * sp.exp(-om * t) + phi / om * (1 - sp.exp(-om * t))
    return _zero(sp.expand(eq31 * sp.exp(-om * t) - eq32), "eq. 31 divided by e^(omega t), minus eq. 32")


def _unique_equilibrium() -> Outcome:
    roots = sp.solve(sp.Eq(-om_pos * (sp.Symbol("a") - A_eq), 0), sp.Symbol("a"))
    ok = roots == [A_eq]
    return Outcome(H if ok else F, f"-omega (a - A) = 0 with omega > 0 has the roots {roots}", Evidence({}, {"roots": str(roots), "count": len(roots)}, {}))


def _dependence() -> Outcome:
    a_star = sp.Symbol("a_star", real=True)
    traj = a_star + (a0 - a_star) * sp.exp(-om * t)  # eq. 45
    via_equilibrium = sp.simplify(sp.diff(traj, a_star))  # 1 - e^(-omega t)
    via_exponential = sp.simplify(sp.diff(traj, om))  # with a* held: -(a0 - a*) t e^(-omega t)
    phi_only_via_a_star = sp.simplify(sp.diff(traj.subs(a_star, phi / om), phi) - via_equilibrium.subs(a_star, phi / om) / om) == 0
    omega_total = sp.diff(traj.subs(a_star, phi / om), om)
    chain = via_equilibrium.subs(a_star, phi / om) * (-phi / om**2) + via_exponential.subs(a_star, phi / om)
    omega_two_paths = sp.simplify(omega_total - chain) == 0 and via_exponential != 0 and via_equilibrium != 0
    ok = phi_only_via_a_star and omega_two_paths
    ev = Evidence({}, {"d_traj_d_astar": str(via_equilibrium), "d_traj_d_omega_at_fixed_astar": str(via_exponential)}, {})
    return Outcome(H if ok else F, f"phi enters through a* = phi/omega only (factor {via_equilibrium}); omega through a* and through the exponent "
                   f"({via_exponential}); both paths nonzero: {ok}", ev)


# ----------------------------------------------------------------------------- B.3


def _keff_one() -> Outcome:
    rule = _unit_text(450, "Effective Top-")  # Algorithm 2: K_eff <- min(K, T_k)
    printed_rule = "min( _K, Tk_ )" in rule
    values = [min(k, 1) for k in range(1, 65)]
    ok = printed_rule and set(values) == {1}
    return Outcome(H if ok else F, f"Algorithm 2's rule K_eff <- min(K, T_k) (printed: {printed_rule}) with T_k = 1 gives K_eff = 1 for K = 1..64", Evidence({}, {"rule_found": printed_rule, "keff_values": str(sorted(set(values)))}, {}))


def _q_equals_k() -> Outcome:
    x = np.random.default_rng(0).normal(size=6)
    q_proj = k_proj = np.eye(6)  # 'set q_proj = k_proj = I_n'
    q, k = q_proj @ x, k_proj @ x
    heads = 2
    pairs = [np.concatenate([qh, kh]) for qh, kh in zip(np.split(q, heads), np.split(k, heads))]
    ok = all(np.array_equal(p, np.concatenate([xh, xh])) for p, xh in zip(pairs, np.split(x, heads)))
    return Outcome(H if ok else F, "with q_proj = k_proj = I each head's pair u^(h) = [q^(h); k^(h)] equals [x^(h); x^(h)]", Evidence({}, {"heads": heads}, {}))


def _sigmoid_unit_whole_input() -> Outcome:
    """Each head given the whole input x (u^(h) = [x; x]): a = phi/omega with omega = 1 and an affine backbone is sigma((w1 + w2).x + b)."""
    n = 3
    x = sp.symbols(f"x1:{n + 1}", real=True)
    w1 = sp.symbols(f"w1_1:{n + 1}", real=True)
    w2 = sp.symbols(f"w2_1:{n + 1}", real=True)
    b = sp.Symbol("b", real=True)
    backbone = sum(p * xi for p, xi in zip(w1, x)) + sum(p * xi for p, xi in zip(w2, x)) + b  # affine backbone of u = [x; x]
    sigma = lambda z: 1 / (1 + sp.exp(-z))  # noqa: E731
    logit = sigma(backbone) / 1  # a = phi / omega with omega = 1 (steady mode)
    unit = sigma(sum((p + r) * xi for p, r, xi in zip(w1, w2, x)) + b)
    return _zero(logit - unit, "a = phi/omega with omega = 1 and an affine backbone of [x; x], minus sigma((w1 + w2) . x + b)")


def _sigmoid_unit_as_printed() -> Outcome:
    r"""B.3 as printed: q = k = I_n x (padded to d_model = n + m), split into H heads of width d = d_model / H, head h's pair
    u^(h) = [x^(h); x^(h)]. Head h's logit is then a function of its slice x^(h) only, and g = sum_h c_h a^(h) + b_o is a sum of
    functions of disjoint slices: for f(x) = x_1 x_3 (x_1 and x_3 in different heads) the corner combination
    f(1,0,1) - f(1,0,-1) - f(-1,0,1) + f(-1,0,-1) = 4 is 0 for every such g, so some corner errs by at least 1."""
    n, m, heads = 3, 1, 2
    d_model = n + m
    width = d_model // heads
    rng = np.random.default_rng(7)
    weights = rng.normal(size=(heads, 2 * width))
    bias = rng.normal(size=heads)
    sigma = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731

    def logits(x: np.ndarray) -> np.ndarray:
        q = np.concatenate([x, np.zeros(m)])  # q_proj = I_n, 'adjusted' to d_model by zeros
        return np.array([sigma(weights[h] @ np.concatenate([q[h * width:(h + 1) * width]] * 2) + bias[h]) for h in range(heads)])

    base = np.array([0.3, -0.2, 0.5])
    moved = base.copy()
    moved[2] = -0.9  # change x_3 only (head 2's slice)
    head1_unchanged = bool(np.array_equal(logits(base)[0], logits(moved)[0]))
    corners = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    signs = [1, -1, -1, 1]
    target = sum(sg * x1 * x3 for sg, (x1, x3) in zip(signs, corners))
    c = rng.normal(size=heads)
    network = lambda x1, x3: float(c @ logits(np.array([x1, 0.0, x3])) + 0.1)  # noqa: E731 (any output weights)
    combination = sum(sg * network(x1, x3) for sg, (x1, x3) in zip(signs, corners))
    bound = abs(target - combination) / 4
    scalars = {"n": n, "d_model": d_model, "heads": heads, "head_width": width, "head1_depends_on_x3": not head1_unchanged,
               "corner_combination_f": float(target), "corner_combination_g": round(combination, 12), "sup_error_lower_bound": float(bound)}
    if head1_unchanged and abs(combination) < 1e-12:
        return Outcome(F, f"with d_model = {d_model}, H = {heads} (width {width}) head 1's logit ignores x_3 (its slice is x_1, x_2), so a^(1) is no sigma(w . x + b) "
                       f"of the whole x with w_3 != 0, and g = sum_h c_h a^(h) + b_o is additively separable over the slices: for f = x_1 x_3 the corner "
                       f"combination is {target:g} for f and 0 for every such g, so the sup error is at least {bound:g}",
                       Evidence({}, scalars, {"x": "0.3, -0.2, 0.5 -> x_3 = -0.9", "target": "x_1 x_3 on [-1, 1]^3"}))
    return Outcome(H, "a head's logit depends on the whole input", Evidence({}, scalars, {}))


# ----------------------------------------------------------------------------- D.1-D.3


def _four_subcategories() -> Outcome:
    block = _between("**D.1. Related Works**", "**D.2. Ablations Details**")
    printed = re.search(r"divided into (\w+) subcategories", block).group(1)
    heads = re.findall(r"\*\*([A-Z][\w-]*):\*\*", block)
    ok = {"four": 4}.get(printed) == len(heads)
    return Outcome(H if ok else F, f"'{printed}' subcategories; D.1 heads {len(heads)}: {', '.join(heads)}", Evidence({}, {"printed": printed, "headed": len(heads)}, {}))


def _names_encode_settings() -> Outcome:
    block = _between("**D.2. Ablations Details**", "_Figure 4._")
    pairs = []
    for name, value in re.findall(r"_(NAC-\d+k)_ uses Top- _K_ =(\d+)", block):
        pairs.append((name, int(re.search(r"(\d+)k", name).group(1)), int(value)))
    for name, value in re.findall(r"_(NAC-\d+s)_ uses (\d+)%", block):
        pairs.append((name, int(re.search(r"(\d+)s", name).group(1)) * 10, int(value)))
    modes = re.search(r"All modes use Top- _K_ =(\d+), (\d+)% sparsity", block)
    default = re.search(r"_(NAC-Exact/(\d+)s/(\d+)k)_", block)
    pairs.append((default.group(1) + " (sparsity)", int(default.group(2)) * 10, int(modes.group(2))))
    pairs.append((default.group(1) + " (Top-K)", int(default.group(3)), int(modes.group(1))))
    bad = [p for p in pairs if p[1] != p[2]]
    listing = "; ".join(f"{n}: name {x}, text {y}" for n, x, y in pairs)
    ev = Evidence({"name_value": np.array([p[1] for p in pairs]), "text_value": np.array([p[2] for p in pairs])}, {"pairs": len(pairs)}, {})
    return Outcome(F if bad else H, listing, ev)


def event_encode(sequence: list[int]) -> list[tuple[int, int]]:
    """D.3.1's event format: each run of equal values as (value, run length)."""
    out: list[tuple[int, int]] = []
    for value in sequence:
        if out and out[-1][0] == value:
            out[-1] = (value, out[-1][1] + 1)
        else:
            out.append((value, 1))
    return out


def _run_length_example() -> Outcome:
    sentence = _unit_text(2083, "Third, the binary time series")
    seq = [int(v) for v in re.search(r"sequence \[(.*?)\]", sentence).group(1).replace("_", "").split(",")]
    value, length = (int(v) for v in re.search(r"into \((\d+) _, t_ = (\d+)\)", sentence).groups())
    encoded = event_encode(seq)
    ok = encoded == [(value, length)]
    return Outcome(H if ok else F, f"{seq} encodes to {encoded}; printed ({value}, t={length})", Evidence({}, {"runs": len(encoded)}, {}))


def _eight_bit() -> Outcome:
    sentence = _unit_text(2079, "First, a threshold")
    bits = int(re.search(r"(\d+)-bit", sentence).group(1))
    low, high = (int(v) for v in re.search(r"from (\d+) \(minimum intensity\) to (\d+)", sentence).groups())
    threshold = int(re.search(r"with (\d+) as the threshold", sentence).group(1))
    ok = (low, high) == (0, 2**bits - 1) and low < threshold <= high
    return Outcome(H if ok else F, f"{bits}-bit values run 0..{2**bits - 1}; printed {low}..{high}, threshold {threshold}",
                   Evidence({}, {"bits": bits, "printed_max": high, "threshold": threshold}, {}))


def _saliency_modes(as_printed: bool) -> Outcome:
    first = _unit_text(2175, "We observe that only NAC")
    rest = _unit_text(2268, "and Steady)")
    printed = re.findall(r"\b(Exact|Euler|Steady)\b", first.split("only NAC (")[1] + " " + rest.split(")")[0])
    block = _between("**Modes variants:**", "The sensitivity of NAC")
    defined = sorted(set(re.findall(r"_NAC-(Euler|Steady|Exact)", block)))
    listed = printed if as_printed else ["Exact", "Euler", "Steady"]
    ok = sorted(listed) == defined
    ev = Evidence({}, {"listed": ", ".join(listed), "defined_in_d2": ", ".join(defined)}, {})
    return Outcome(H if ok else F, f"the parenthesis lists {listed}; D.2 defines the modes {defined}", ev)


def _author_name(as_printed: bool) -> Outcome:
    sentence = _between("_PRONOSTIA dataset_", "developed this dataset")
    named = re.search(r"(\w+) et al\.\s*\((\w+) et al\., 2012\)", sentence)
    in_text, cited = named.group(1), named.group(2)
    reference = re.search(r"(\w+), P\., Gouriveau", flat_text("001")).group(1)
    used = in_text if as_printed else cited
    ok = used == cited == reference
    return Outcome(H if ok else F, f"the sentence names '{used} et al.'; the citation beside it and the reference list give '{cited}' / '{reference}'",
                   Evidence({}, {"in_text": in_text, "cited": cited, "reference_list": reference}, {}))


# ----------------------------------------------------------------------------- Tables 4 and 5


def _loss_matches_head() -> Outcome:
    t4 = hyperparameter_table("001")
    rows = []
    for exp, dense in t4["Dense"].items():
        head = "SM" if "(SM)" in dense else "Lin"
        want_loss, want_metric = ("SCE", {"Acc"}) if head == "SM" else ("MSE", {"MAE", "Score", "MSE"})
        rows.append((exp, head, t4["Loss"][exp], t4["Metric"][exp], t4["Loss"][exp] == want_loss and t4["Metric"][exp] in want_metric))
    ok = all(r[4] for r in rows)
    listing = "; ".join(f"{e}: {h} head, loss {lo}, metric {m}" for e, h, lo, m, _ in rows)
    return Outcome(H if ok else F, listing, Evidence({"consistent": np.array([int(r[4]) for r in rows])}, {}, {}))


def _roles() -> Outcome:
    rows = dataset_table5()
    train = {d: [r["train"] for r in rows if r["dataset"] == d] for d in ("PRONOSTIA", "XJTU-SY", "HUST")}
    test = {d: [r["test"] for r in rows if r["dataset"] == d] for d in train}
    ok = (any(train["PRONOSTIA"]) and all(test["PRONOSTIA"]) and not any(train["XJTU-SY"] + train["HUST"]) and all(test["XJTU-SY"] + test["HUST"]))
    listing = "; ".join(f"{d}: train {train[d]}, test {test[d]}" for d in train)
    return Outcome(H if ok else F, listing, Evidence({}, {"xjtu_hust_training_cells": sum(bool(x) for x in train["XJTU-SY"] + train["HUST"])}, {}))


def _xjtu_speed_frequency() -> Outcome:
    rows = [r for r in dataset_table5() if r["dataset"] == "XJTU-SY"]
    rpm = np.array([float(r["speed_rpm"]) for r in rows])
    hz = np.array([float(r["frequency_hz"]) for r in rows])
    ok = bool(np.all(rpm == 60 * hz))
    return Outcome(H if ok else F, "; ".join(f"{h:g} Hz x 60 = {60 * h:g} rpm, printed {r:g}" for h, r in zip(hz, rpm)),
                   Evidence({"speed_rpm": rpm, "frequency_hz": hz}, {}, {}))


# ----------------------------------------------------------------------------- Algorithm 3


OMEGA0 = 6.0  # Morlet's centre angular frequency (per unit of scale)
CENTRE_FREQUENCY = OMEGA0 / (2 * np.pi)  # f_c, cycles per unit of scale


def morlet_energy(signal: np.ndarray, scales: np.ndarray, *, normalised: bool) -> np.ndarray:
    r"""Energy :math:`E(a) = \sum_b |\Gamma(a, b)|^2` of a Morlet CWT over all translations b (sample units),
    with the factor :math:`a^{-1/2}` (``normalised``) or without it."""
    energy = np.empty(len(scales))
    for i, scale in enumerate(scales):
        half = int(np.ceil(5 * scale))
        tau = np.arange(-half, half + 1) / scale
        kernel = np.pi**-0.25 * np.exp(1j * OMEGA0 * tau) * np.exp(-(tau**2) / 2)
        coeff = fftconvolve(signal, np.conj(kernel)[::-1], mode="same")
        if normalised:
            coeff = coeff / np.sqrt(scale)
        energy[i] = float(np.sum(np.abs(coeff) ** 2))
    return energy


SAMPLING_PERIOD = 1e-3  # s
SCALES = np.geomspace(2.0, 60.0, 240)


def _two_tones() -> np.ndarray:
    time = np.arange(4096) * SAMPLING_PERIOD
    return 1.0 * np.sin(2 * np.pi * 200 * time) + 0.4 * np.sin(2 * np.pi * 50 * time)


def _cwt_normalization(as_printed: bool) -> Outcome:
    line = _unit_text(2304, "Wavelets:")
    text = _unit_text(2442, "The CWT is defined as")
    line_has_factor, text_has_factor = "√" in line, "√" in text
    tones = _two_tones()
    with_factor = morlet_energy(tones, SCALES, normalised=True)
    without = morlet_energy(tones, SCALES, normalised=False)
    f_with = CENTRE_FREQUENCY / (SCALES[np.argmax(with_factor)] * SAMPLING_PERIOD)
    f_without = CENTRE_FREQUENCY / (SCALES[np.argmax(without)] * SAMPLING_PERIOD)
    ratio = without / with_factor
    scalars = {"line_has_inv_sqrt_a": line_has_factor, "text_has_inv_sqrt_a": text_has_factor, "dominant_hz_text_cwt": round(float(f_with), 2),
               "dominant_hz_line_as_printed": round(float(f_without), 2), "energy_ratio_min": float(ratio.min()), "energy_ratio_max": float(ratio.max())}
    uses_factor = line_has_factor if as_printed else True
    ok = uses_factor == text_has_factor
    msg = (f"Algorithm 3's Wavelets line {'has' if line_has_factor else 'lacks'} the factor 1/sqrt(a) that D.3.4's CWT has; without it each scale's "
           f"energy is multiplied by a ({ratio.min():.3g}..{ratio.max():.3g}), and for 1.0 sin(2 pi 200 t) + 0.4 sin(2 pi 50 t) (T_s = 1 ms) the "
           f"scale of largest energy is {f_with:.1f} Hz with the factor and {f_without:.1f} Hz without")
    if not as_printed:
        msg = "with the factor 1/sqrt(a) the line is D.3.4's CWT; " + msg
    return Outcome(H if ok else F, msg, Evidence({"energy_text_cwt": with_factor, "energy_line": without}, scalars, {} if ok else {"dominant_hz_line": float(f_without)}))


def _dominant_frequency(as_printed: bool) -> Outcome:
    line = _unit_text(2308, "Dominant frequency:")
    reads_scale = "_a_ scale [arg max" in line
    time = np.arange(4096) * SAMPLING_PERIOD
    tone_hz = 50.0
    energy = morlet_energy(np.sin(2 * np.pi * tone_hz * time), SCALES, normalised=True)
    best_scale = float(SCALES[np.argmax(energy)])
    as_frequency = CENTRE_FREQUENCY / (best_scale * SAMPLING_PERIOD)  # Algorithm 3's a = f_c / (f T_sampling), solved for f
    f_d = best_scale if (as_printed and reads_scale) else as_frequency
    grid_step = float(SCALES[1] / SCALES[0] - 1)
    ok = abs(f_d - tone_hz) / tone_hz < 0.05
    scalars = {"line_takes_a_scale": reads_scale, "tone_hz": tone_hz, "best_scale": best_scale, "f_d": float(f_d), "frequency_of_best_scale_hz": float(as_frequency),
               "scale_grid_step": grid_step}
    return Outcome(H if ok else F, f"for a {tone_hz:g} Hz tone (T_s = 1 ms, Morlet f_c = {CENTRE_FREQUENCY:.4f}) the scale of largest energy is {best_scale:.3f}; "
                   f"f_d = {f_d:.3f} ({'a_scale[arg max E], as printed' if as_printed else 'f_c/(a T_s)'}), the tone {tone_hz:g} Hz", Evidence({}, scalars, {}))


def _cwt_column(signal: np.ndarray, scale: float) -> np.ndarray:
    """|Gamma(a, b)|^2 for every translation b (normalised Morlet CWT at one scale)."""
    half = int(np.ceil(5 * scale))
    tau = np.arange(-half, half + 1) / scale
    kernel = np.pi**-0.25 * np.exp(1j * OMEGA0 * tau) * np.exp(-(tau**2) / 2)
    return np.abs(fftconvolve(signal, np.conj(kernel)[::-1], mode="same") / np.sqrt(scale)) ** 2


def _energy_index(as_printed: bool) -> Outcome:
    line = _unit_text(2306, "Energy:")
    sum_index = re.search(r"_(\w)_ =1", line).group(1)
    arguments = re.search(r"\(\] _\[([^\]]*)\]_ \[\)\]", line).group(1)  # the summand's arguments, '(a, b)'
    index_in_summand = sum_index in re.findall(r"\w", arguments)
    time = np.arange(4096) * SAMPLING_PERIOD
    signal = np.where(time < time[-1] / 2, np.sin(2 * np.pi * 200 * time), np.sin(2 * np.pi * 50 * time))  # 200 Hz, then 50 Hz
    columns = np.array([_cwt_column(signal, a) for a in SCALES])  # scales x translations
    to_hz = lambda k: CENTRE_FREQUENCY / (SCALES[k] * SAMPLING_PERIOD)  # noqa: E731
    if as_printed and not index_in_summand:  # M copies of |Gamma(a, b)|^2 at a translation b the line leaves free
        early, late = 1024, 3072
        dominant = [float(to_hz(np.argmax(columns[:, b]))) for b in (early, late)]
        ok = abs(dominant[0] - dominant[1]) / dominant[1] < 0.05
        msg = (f"the line sums over {sum_index} the term |Gamma(a, b)|^2, which has no {sum_index}: E is M |Gamma(a, b)|^2 at a free translation b; for a window "
               f"that is 200 Hz then 50 Hz its arg max over scales is {dominant[0]:.1f} Hz at b = {early} and {dominant[1]:.1f} Hz at b = {late}, so f_d is not "
               "determined by the window")
    else:
        energy = columns.sum(axis=1)  # E(a) = sum over the window's translations b_m
        dominant = [float(to_hz(np.argmax(energy)))]
        ok = energy.shape == SCALES.shape
        msg = f"summed over the window's translations b_m, E is one value per scale (arg max at {dominant[0]:.1f} Hz), as the Dominant frequency line needs"
    scalars = {"sum_index": sum_index, "summand_arguments": arguments, "index_in_summand": index_in_summand, "dominant_hz": ", ".join(f"{d:.1f}" for d in dominant)}
    return Outcome(H if ok else F, msg, Evidence({}, scalars, {}))


def _std_index(as_printed: bool) -> Outcome:
    std_line = _unit_text(2321, "standard deviation:")
    mean_line = _unit_text(2315, "1 _M_ mean:")
    index = lambda txt: re.search(r"_(\w)_ =1", txt).group(1)  # noqa: E731
    argument = lambda txt: re.search(r"_\[i\]\[w\]_ \[\(\] _\[(\w)\]_", txt).group(1)  # noqa: E731
    sum_index, summand = index(std_line), argument(std_line)
    samples = np.array([1.0, 2.0, 3.0, 4.0])
    mu = samples.mean()
    if as_printed and sum_index != summand:  # the summand is constant in the summation index: M copies of one term
        printed = np.array([np.sqrt(np.sum([(x_m - mu) ** 2 for _ in range(len(samples))]) / len(samples)) for x_m in samples])
    else:
        printed = np.full(len(samples), np.sqrt(np.sum((samples - mu) ** 2) / len(samples)))
    std = float(samples.std())
    ok = bool(np.allclose(printed, std))
    scalars = {"sum_index": sum_index, "summand_index": summand, "mean_line_index": index(mean_line), "mean_line_summand": argument(mean_line), "std": std}
    return Outcome(H if ok else F, f"the line sums over {sum_index} a term in {summand}; for x = 1, 2, 3, 4 it gives {np.round(printed, 4).tolist()} against sigma = {std:.4f}",
                   Evidence({"value_per_m": printed}, scalars, {}))


# ----------------------------------------------------------------------------- registry


def _c(cid: str, where: str, quote: str, statement: str, assumptions: str, expected: Verdict, reason: str, check, group: str = "text", kind: Kind = A) -> Claim:
    return Claim(f"nac001.app.{cid}", f"{SEED001}, {where}, '{quote}'", statement, assumptions, expected, reason, lambda ctx: check(), group=group, kind=kind)


def appendix_claims() -> list[Claim]:
    """The claims of 001's appendix (issue 43's ledger filling, lines 1257 to the end)."""
    b1 = "Appendix B.1"
    fr = "phi and omega_tau frozen, omega_tau != 0 (B.1's assumptions)"
    return [
        _c("b1.rewrite_eq1", b1, "Under approximation assumption, rewrite Eqn. 1 as", "eq. 1 with frozen phi, omega_tau is eq. 24", fr, H, "da/dt = -omega a + phi rearranged", _rewrite_eq1, "symbolic"),
        _c("b1.linear_first_order", b1, "This is now a linear first-order ODE.", "eq. 24 is linear and of first order in a_t", fr, H, "affine in (a, a') with a' coefficient 1", _linear_first_order, "symbolic"),
        _c("b1.integrating_factor", b1 + ", eq. 25", "The integrating factor is", "the integrating factor of eq. 24 is exp(int omega dt) = e^(omega t)", fr, H,
           "int_0^t omega ds = omega t; (e^(omega t))' = omega e^(omega t)", _integrating_factor, "symbolic"),
        _c("b1.multiply", b1 + ", eq. 26", "Multiply both sides by mu(t):", "e^(omega t) times eq. 24 is eq. 26", fr, H, "distributes", _multiply, "symbolic"),
        _c("b1.product_rule", b1 + ", eq. 27", "Recognize the left-hand side as the derivative of e^(omega t) a_t", "eq. 26's left-hand side is d/dt(e^(omega t) a_t)", fr, H,
           "product rule", _product_rule, "symbolic"),
        _c("b1.integrate", b1 + ", eq. 28", "Integrate from 0 to t:", "integrating eq. 27 over [0, t] gives eq. 28", fr + "; omega > 0", H,
           "fundamental theorem of calculus on both sides", _integrate, "symbolic"),
        _c("b1.substitute", b1 + ", eq. 30", "Substitute back:", "eq. 29 substituted into eq. 28 gives eq. 30", fr + "; omega > 0", H, "phi (e^(omega t) - 1)/omega", _substitute, "symbolic"),
        _c("b1.rearrange", b1 + ", eq. 31", "Rearrange:", "eq. 30 solved for e^(omega t) a_t is eq. 31", fr, H, "add a0", _rearrange, "symbolic"),
        _c("b1.divide", b1 + ", eq. 32", "Divide both sides by e^(omega t):", "eq. 31 divided by e^(omega t) is eq. 32", fr, H, "expand", _divide, "symbolic"),
        _c("b2.unique_equilibrium", "Appendix B.2, case 1", "Here A is the unique equilibrium.", "-omega_tau (a - A) = 0 has exactly one root, a = A", "omega_tau > 0", H,
           "linear with a nonzero slope", _unique_equilibrium, "symbolic"),
        _c("b3.keff_one", "Appendix B.3", "since T = 1, K_eff = 1", "Algorithm 2's K_eff = min(K, T_k) is 1 when T_k = 1, whatever K", "K >= 1 (K = 1..64 enumerated)", H,
           "min(K, 1) = 1", _keff_one),
        _c("b3.q_equals_k", "Appendix B.3", "Since q^(h) = k^(h), this is [x^(h); x^(h)]", "with q_proj = k_proj = I each head's pair is [x^(h); x^(h)]",
           "B.3's identity projections; a random x in R^6, 2 heads", H, "equal projections give equal halves", _q_equals_k, "numeric"),
        _c("b3.sigmoid_unit", "Appendix B.3", "Thus, a^(h) ~ sigma(w^(h) x + b^(h)) for chosen weights, emulating a sigmoid hidden unit",
           "with B.3's construction (q_proj = k_proj = I_n, d_model = n + m, H heads of width d_model/H, pair u^(h) = [x^(h); x^(h)]) each head's steady logit "
           "is a sigmoid of an affine function of the whole input x",
           "n = 3, m = 1, H = 2 (B.3 scales H with the target); q = [x; 0]; random backbone weights; target x_1 x_3 on [-1, 1]^3", F,
           "head h sees only its slice x^(h): the layer is additively separable over the slices and errs by >= 1 on x_1 x_3", _sigmoid_unit_as_printed, "numeric"),
        Claim("nac001.app.b3.sigmoid_unit.whole_input", f"{SEED001}, Appendix B.3, 'Thus, a^(h) ~ sigma(w^(h) x + b^(h)) for chosen weights' with "
              "'set d_model = n + m or adjust as needed for dimensionality'",
              "when every head is given the whole input x (u^(h) = [x; x]), the steady logit with omega_tau = 1 and a backbone affine in u is sigma(w . x + b), w = w1 + w2",
              "steady mode; a backbone affine in u; n = 3 symbolic inputs", H, "sigma(w1.x + w2.x + b) = sigma((w1 + w2).x + b)",
              lambda ctx: _sigmoid_unit_whole_input(), group="symbolic", kind=Kind.READING,
              reading="'adjust as needed for dimensionality' lets the projections copy x into every head (d_model = H n), so x^(h) = x"),
        _c("c11.dependence", "Appendix C.1.1, after eq. 45", "which depends on (phi, omega_tau) both through the equilibrium a* and the exponential term",
           "a_t of eq. 45 depends on phi through a* = phi/omega_tau, and on omega_tau both through a* and through the exponent; both paths are nonzero",
           "eq. 45 with a* = phi/omega_tau", H, "chain rule: da/dphi = (1 - e^(-omega t))/omega; da/domega has the a* term and -(a0 - a*) t e^(-omega t)", _dependence, "symbolic"),
        _c("d1.four_subcategories", "Appendix D.1", "The brief description for related works is divided into four subcategories.",
           "D.1 heads four subcategories", "D.1 as printed (bold run-in heads)", H, "DT-RNNs, CT-RNNs, DT-Attentions, CT-Attentions", _four_subcategories, "tables"),
        _c("d2.names_encode_settings", "Appendix D.2", "_NAC-02s_ uses 20% sparsity to compute the logits",
           "each ablation's name encodes the setting D.2 gives it (Nk: Top-K = N; 0Ns: N0% sparsity; Exact/05s/8k: 'All modes use Top-K=8, 50% sparsity')",
           "D.2 as printed", H, "2k/32k, 02s/09s, 05s/8k all agree", _names_encode_settings, "tables"),
        _c("d31.eight_bit", "Appendix D.3.1", "8-bit pixel values ... 128 as the threshold on a scale from 0 (minimum intensity) to 255",
           "8-bit values run from 0 to 2^8 - 1 = 255 and the threshold 128 lies inside", "arithmetic", H, "2^8 - 1 = 255", _eight_bit, "text"),
        _c("d31.run_length_example", "Appendix D.3.1", "the sequence [1, 1, 1, 1] is transformed into (1, t = 4)",
           "encoding [1, 1, 1, 1] by eliminating consecutive repeats gives (value 1, duration 4)", "the event format as the sentence defines it", H, "one run of four 1s",
           _run_length_example, "text"),
        _c("d33.saliency_modes", "Appendix D.3.3, Saliency Maps", "only NAC (Steady, Euler, and Steady) maintains focus",
           "the parenthesis lists the three NAC modes D.2 defines (Euler, Steady, Exact), each once", "001 as printed (the sentence is cut by the figures)", F,
           "Steady twice, Exact missing", lambda: _saliency_modes(True), "text"),
        _c("d33.saliency_modes.intended", "Appendix D.3.3, Saliency Maps", "only NAC (Exact, Euler, and Steady)",
           "'NAC (Exact, Euler, and Steady)' lists D.2's three modes once each", "the repeated word read as 'Exact'", H, "the three modes", lambda: _saliency_modes(False), "text", C),
        _c("d34.author_name", "Appendix D.3.4, PRONOSTIA", "Nectiux et al.(Nectoux et al., 2012) developed this dataset",
           "the author named in the sentence is the first author of the work cited beside it", "001's citation and reference list as printed", F,
           "'Nectiux' against 'Nectoux' (citation and reference list)", lambda: _author_name(True), "tables"),
        _c("d34.author_name.intended", "Appendix D.3.4, PRONOSTIA", "Nectoux et al. (Nectoux et al., 2012)",
           "with the name spelled as cited, it is the cited work's first author", "the name read as the citation's", H, "Nectoux", lambda: _author_name(False), "text", C),
        _c("table4.loss_matches_head", "Table 4, Loss row", "Loss SCE SCE SCE MSE MSE",
           "each column's loss fits its output head: softmax heads with sparse categorical cross-entropy (metric accuracy), linear heads with MSE (a regression metric)",
           "Table 4 as printed", H, "MNIST, PAR, CarRacing SM/SCE/Acc; Udacity and RUL Lin/MSE with MAE and Score", _loss_matches_head, "tables"),
        _c("table5.roles", "Table 5 note and Appendix D.3.4", "the XJTU-SY and HUST datasets are employed to evaluate cross-validation testing",
           "Table 5 gives training bearings for PRONOSTIA only, and test bearings for all three", "Table 5 as printed", H, "XJTU-SY and HUST train cells are all '-'",
           _roles, "tables"),
        _c("table5.xjtu_speed_frequency", "Table 5, XJTU-SY rows", "35 Hz 4 kN 2100 rpm ... 37.5 Hz ... 2250 rpm ... 40 Hz ... 2400 rpm",
           "each XJTU-SY row's speed is 60 times its frequency (shaft rotation)", "Table 5 as printed", H, "35, 37.5, 40 Hz x 60 = 2100, 2250, 2400 rpm",
           _xjtu_speed_frequency, "text"),
        _c("alg3.cwt_normalization", "Algorithm 3, Wavelets line (line 2304)", "Wavelets: Gamma_iw(a, b) = int i_w psi*((t - b)/a) dt",
           "Algorithm 3's wavelet transform is the CWT D.3.4 defines, Gamma(a, b) = int x_w(t) (1/sqrt(a)) psi*((t - b)/a) dt",
           "Morlet (omega0 = 6); witness 1.0 sin(2 pi 200 t) + 0.4 sin(2 pi 50 t), T_s = 1 ms, 240 scales 2..60", F,
           "the line drops 1/sqrt(a): energies scale by a, and the dominant scale moves from 200 Hz to 50 Hz", lambda: _cwt_normalization(True), "numeric"),
        _c("alg3.cwt_normalization.intended", "Algorithm 3, Wavelets line (line 2304)", "Gamma_iw(a, b) = int i_w (1/sqrt(a)) psi*((t - b)/a) dt",
           "with the factor 1/sqrt(a) the line is D.3.4's CWT", "as the as-printed claim", H, "the text's definition", lambda: _cwt_normalization(False), "numeric", C),
        _c("alg3.dominant_frequency", "Algorithm 3, Dominant frequency line (line 2308)", "Dominant frequency: f_d = a_scale[arg max(E)]",
           "f_d, read off the scale array at the energy's maximum, is the dominant frequency",
           "Algorithm 3's own a = f_c/(f T_sampling); Morlet f_c = 6/(2 pi); a 50 Hz tone, T_s = 1 ms; within 5% (the scale grid's step is 1.4%)", F,
           "a_scale[arg max E] is a scale (about 19 samples), not 50 Hz", lambda: _dominant_frequency(True), "numeric"),
        _c("alg3.dominant_frequency.intended", "Algorithm 3, Dominant frequency line (line 2308)", "f_d = f_c / (a_scale[arg max(E)] T_sampling)",
           "the frequency of the scale of largest energy, by the algorithm's own scale-frequency relation, is the dominant frequency", "as the as-printed claim", H,
           "50 Hz within the grid step", lambda: _dominant_frequency(False), "numeric", C),
        _c("alg3.energy_index", "Algorithm 3, Energy line (line 2306)", "Energy: E = sum_{m=1}^{M} |Gamma_iw(a, b)|^2",
           "the Energy line defines one energy per scale of the window (what 'arg max(E)' over a_scale needs)",
           "normalised Morlet CWT; a window of 200 Hz then 50 Hz, T_s = 1 ms; translations b = 1024 and 3072", F,
           "the summand has no m: E is M |Gamma(a, b)|^2 at a free b, and its arg max moves from 200 Hz to 50 Hz with b", lambda: _energy_index(True), "numeric"),
        _c("alg3.energy_index.intended", "Algorithm 3, Energy line (line 2306)", "E(a) = sum_{m=1}^{M} |Gamma_iw(a, b_m)|^2",
           "summed over the window's translations b_m, E is one value per scale", "as the as-printed claim", H, "a vector over the scales",
           lambda: _energy_index(False), "numeric", C),
        _c("alg3.std_index", "Algorithm 3, standard deviation line (line 2321)", "sigma = sqrt(1/M sum_{i=1}^{M} (i_w(m) - mu)^2)",
           "the line is the standard deviation of the window (as the mean line sums i_w(m) over m)", "x = 1, 2, 3, 4", F,
           "summed over i, the term in m is constant: the line gives |i_w(m) - mu|, not sigma", lambda: _std_index(True), "numeric"),
        _c("alg3.std_index.intended", "Algorithm 3, standard deviation line (line 2321)", "sigma = sqrt(1/M sum_{m=1}^{M} (i_w(m) - mu)^2)",
           "with the summation index m the line is the standard deviation", "x = 1, 2, 3, 4", H, "sqrt(5/4)", lambda: _std_index(False), "numeric", C),
    ]


add_provider(appendix_claims)
