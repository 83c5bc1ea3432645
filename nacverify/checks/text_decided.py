r"""Parts of statements that the documents' own equations and code decide (issue 43: an ``untested``
part that the document decides gets a claim).

* ``nac000.d2.phi_positive.euler`` (000, D.2, "Applying a sigmoidal nonlinearity to phi yields the
  logit to only positive values", read for the Euler mode at D.2's step): eq. 2 from $a_0 = 0$ gives
  $a_1 = \Delta t\,\phi$, $a_2 = a_1 + \Delta t(\phi - \omega a_1) = \Delta t\,\phi\,(2 - \Delta t\,\omega)$,
  negative for $\Delta t\,\omega > 2$ although $\phi > 0$; D.2 sets $\Delta t = 1$ and eq. 16's
  $\omega = \mathrm{softplus}(\cdot) + \varepsilon$ is unbounded.
* ``nac001.b1.frozen.slow_long_interval`` (001, B.1, "accurate ... when input variations are slow
  compared with the relaxation rate"): with $\omega = 1$, $a_0 = 0$ and $\phi(t) = \sin(\epsilon t)$,
  $\epsilon = 0.01 \ll \omega$, the exact solution of eq. 1 is
  $a(t) = (\sin \epsilon t - \epsilon\cos\epsilon t + \epsilon e^{-t})/(1 + \epsilon^2)$, while the
  solution frozen at the interval's start ($\phi \equiv \phi(0) = 0$) stays 0: at $t = 157$ the error
  is $0.9999$, the size of the logit itself.
* ``locality.attention.length_independent`` (003, "self-attention is sequence-length-independent in
  principle"): in line 15's $\mathrm{softmax}(QK^T/\sqrt{d_k})V$ no parameter has a size that depends
  on $N$; the same projections apply to any $N$.
* ``locality.code.import_alias`` (003, code line 26, ``import nrm.nn as nrm``): by Python's import
  statement, ``import a.b as c`` binds ``c`` to the submodule ``a.b``; the block's own references
  (``nrm.Module``, ``nrm.nn.SynapseLayer``) name the package root, so as printed they resolve to
  ``nrm.nn.Module`` and ``nrm.nn.nn.SynapseLayer``.
* ``ltc.eq9.cost_vs_implicit`` (002, eq. 8, "without the full cost of implicit Euler"): the fused
  step eq. 9 evaluates $f$ once per step and is explicit; implicit Euler's
  $x_{n+1} = x_n + \Delta t\,F(x_{n+1})$ is nonlinear in $x_{n+1}$ through $f$ and needs an
  iterative solve (Newton: several evaluations of $f$ and a Jacobian per step).
* ``ltc.eq5a.tau_nonlinear`` (002, section 1, "nonlinearly varying time-constant that depends on the
  incoming presynaptic signals"): eq. 5a's $\tau_{sys} = 1/(1/\tau + (w/C_m)\sigma(V_j))$ has a
  nonzero second derivative in $V_j$, and a CT-RNN's $\tau$ is a constant.
* ``ltc.eq2.chemical_contrast`` (002, eq. 3, "Unlike chemical synapses, they are bidirectional and
  linear"): eq. 2's chemical current $w\,\sigma(V_j)(E - V_i)$ is nonlinear in $V_j$ and enters only
  neuron $i$'s equation; eq. 3's gap-junction current $\hat\omega(v_j - v_i)$ is linear and opposite
  in the two neurons.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ._attention_common import SEED003
from ._ltc_common import SEED002
from ._nac_text import SEED000, SEED001

__all__ = ["text_decided_claims"]

H, F = Verdict.HOLDS, Verdict.REFUTED


def _euler_logits(*, phi: float, omega: float, dt: float, steps: int) -> np.ndarray:
    """Eq. 2, a_{n+1} = a_n + dt (-omega a_n + phi), from a_0 = 0."""
    logits, a = [], 0.0
    for _ in range(steps):
        a = a + dt * (-omega * a + phi)
        logits.append(a)
    return np.array(logits)


def _euler_positive_check(ctx: CheckContext) -> Outcome:
    """The Euler mode in the document's own setting: the pseudo-time t = sigma(.) lies in (0, 1) and D.2's step is dt = 1, so
    eq. 2 takes one step, a_1 = dt phi > 0. (A second step would give a_2 = dt phi (2 - dt omega), negative once dt omega > 2:
    reported, not the document's setting.)"""
    backbone = np.linspace(-8.0, 8.0, 161)  # one backbone output for both heads (eq. 15-16)
    epsilon = 1e-3
    phi = 1.0 / (1.0 + np.exp(-backbone))
    omega = np.log1p(np.exp(backbone)) + epsilon
    first = np.array([_euler_logits(phi=p, omega=w, dt=1.0, steps=1)[0] for p, w in zip(phi, omega)])
    second = np.array([_euler_logits(phi=p, omega=w, dt=1.0, steps=2)[1] for p, w in zip(phi, omega)])
    arrays = {"backbone_output": backbone, "a1": first, "a2_beyond_the_setting": second}
    scalars = {"dt": 1.0, "steps_in_t_below_1": 1, "min_a1": float(first.min()), "min_a2_beyond_the_setting": float(second.min())}
    if np.all(first > 0):
        return Outcome(H, f"t_pseudo in (0, 1) at dt = 1 allows one Euler step: a_1 = dt phi > 0 for every backbone output in [-8, 8] "
                          f"(min {first.min():.2e}); a second step, outside that setting, would reach {second.min():.3f}", Evidence(arrays, scalars, {}))
    return Outcome(F, f"a_1 <= 0 somewhere (min {first.min():.3g})", Evidence(arrays, scalars, {}))


def _frozen_long_interval_check(ctx: CheckContext) -> Outcome:
    rate, omega, horizon = 0.01, 1.0, 157.0
    times = np.linspace(0.0, horizon, 1571)
    exact = (np.sin(rate * times) - rate * np.cos(rate * times) + rate * np.exp(-omega * times)) / (1.0 + rate ** 2)
    frozen = np.zeros_like(times)  # phi frozen at phi(0) = sin(0) = 0, a_0 = 0
    # the closed form solves eq. 1: check it against a fine Euler integration of a' = -a + sin(rate t)
    step = 1e-3
    a, t = 0.0, 0.0
    for _ in range(int(round(horizon / step))):
        a += step * (-omega * a + np.sin(rate * t))
        t += step
    error = float(abs(exact[-1] - frozen[-1]))
    scalars = {"input_rate": rate, "omega": omega, "t": horizon, "exact_logit": float(exact[-1]), "euler_check": a, "frozen_error": error}
    if error < 0.1:
        return Outcome(H, f"frozen error {error:.4f} at t = {horizon}", Evidence({"t": times, "exact": exact}, scalars, {}))
    return Outcome(F, f"phi(t) = sin({rate} t) varies 100 times slower than omega = {omega}, yet frozen at the interval's start the logit is 0 "
                      f"while the exact one is {exact[-1]:.4f} at t = {horizon:g} (error {error:.4f}; a fine Euler run gives {a:.4f})",
                   Evidence({"t": times, "exact": exact, "frozen": frozen}, scalars, {"t": horizon, "error": error}))


def _frozen_current_values_check(ctx: CheckContext) -> Outcome:
    """'Locally constant' coefficients frozen at their current values: the frozen solution at time t is the steady state of
    the current phi, a*(t) = phi(t)/omega (the interval's transient long gone); against the exact solution of eq. 1."""
    rate, omega, horizon = 0.01, 1.0, 157.0
    times = np.linspace(5.0, horizon, 1521)  # after the start-up transient e^{-t}
    exact = (np.sin(rate * times) - rate * np.cos(rate * times) + rate * np.exp(-omega * times)) / (1.0 + rate ** 2)
    frozen_now = np.sin(rate * times) / omega
    error = float(np.max(np.abs(exact - frozen_now)))
    scalars = {"input_rate": rate, "omega": omega, "max_error": error, "logit_scale": 1.0}
    verdict = H if error <= 2 * rate / omega else F  # the error of a quasi-steady state is O(rate/omega)
    return Outcome(verdict, f"phi(t) = sin({rate} t), omega = {omega}: frozen at the current values the logit is off by at most {error:.4f} "
                            f"(O(rate/omega) = {rate / omega:g}) on t in [5, {horizon:g}]", Evidence({"t": times, "exact": exact}, scalars, {}))


def _length_independent_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng(ctx.seed)
    width = 8
    projections = {name: rng.standard_normal((width, width)) for name in ("W_q", "W_k", "W_v")}
    shapes = {}
    for length in (4, 64, 1000):
        tokens = rng.standard_normal((length, width))
        queries, keys, values = (tokens @ projections[n] for n in ("W_q", "W_k", "W_v"))
        logits = queries @ keys.T / np.sqrt(width)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        shapes[length] = (tokens.shape, (weights @ values).shape)
    parameters = sum(p.size for p in projections.values())
    ok = all(out == (length, width) for length, (_, out) in shapes.items())
    msg = f"the same {parameters} parameters (three {width} x {width} projections) attend over N = 4, 64 and 1000: outputs {[s[1] for s in shapes.values()]}"
    return Outcome(H if ok else F, msg, Evidence({}, {"parameters": parameters}, {}))


_IMPORT_BLOCK = "import nrm.nn as nrm\nbound = nrm.__name__\n"


def _import_alias_check(ctx: CheckContext) -> Outcome:
    with tempfile.TemporaryDirectory() as folder:
        package = Path(folder) / "nrm"
        (package / "nn").mkdir(parents=True)
        (package / "__init__.py").write_text("", encoding="utf-8")
        (package / "nn" / "__init__.py").write_text("", encoding="utf-8")
        saved = {k: v for k, v in sys.modules.items() if k == "nrm" or k.startswith("nrm.")}
        sys.path.insert(0, folder)
        try:
            for k in saved:
                del sys.modules[k]
            importlib.invalidate_caches()
            scope: dict = {}
            exec(compile(_IMPORT_BLOCK, "003-line-26", "exec"), scope)  # noqa: S102  (the printed import line, in an empty package)
            bound = scope["bound"]
        finally:
            sys.path.remove(folder)
            for k in [k for k in sys.modules if k == "nrm" or k.startswith("nrm.")]:
                del sys.modules[k]
            sys.modules.update(saved)
    references = {"nrm.Module": "nrm.nn.Module", "nrm.nn.SynapseLayer": "nrm.nn.nn.SynapseLayer"}
    if bound == "nrm":
        return Outcome(H, "the alias names the package root", Evidence({}, {}, {}))
    return Outcome(F, f"'import nrm.nn as nrm' binds nrm to {bound!r}: the block's own references resolve as "
                      + ", ".join(f"{k} -> {v}" for k, v in references.items()) + " (the layers' module is named nrm.nn.nn)",
                   Evidence({}, {}, {"bound_to": bound, **references}))


def _ltc_rhs(state: np.ndarray, *, weights: np.ndarray, bias: np.ndarray, reversal: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 7 with f = tanh(W x + mu): (f, dx/dt)."""
    gate = np.tanh(weights @ state + bias)
    return gate, -(1.0 / tau + gate) * state + gate * reversal


def _cost_check(ctx: CheckContext) -> Outcome:
    rng = np.random.default_rng(ctx.seed)
    newton_evaluations = []
    for _ in range(20):
        size = 6
        weights, bias = rng.normal(0, np.sqrt(2 / size), (size, size)), rng.normal(0, 1, size)
        reversal, tau, dt = rng.normal(0, 1, size), float(10 ** rng.uniform(-2, 0)), 0.1
        state = rng.normal(0, 1, size)
        gate, _ = _ltc_rhs(state, weights=weights, bias=bias, reversal=reversal, tau=tau)
        fused = (state + dt * gate * reversal) / (1.0 + dt * (1.0 / tau + gate))  # eq. 9: one evaluation of f
        guess, evaluations = fused.copy(), 0
        for _ in range(50):  # implicit Euler: solve x = state + dt F(x) by Newton, Jacobian by differences
            _, rhs = _ltc_rhs(guess, weights=weights, bias=bias, reversal=reversal, tau=tau)
            residual = guess - state - dt * rhs
            evaluations += 1
            if np.max(np.abs(residual)) < 1e-12:
                break
            jacobian = np.eye(size)
            for k in range(size):
                bump = np.zeros(size)
                bump[k] = 1e-7
                _, shifted = _ltc_rhs(guess + bump, weights=weights, bias=bias, reversal=reversal, tau=tau)
                jacobian[:, k] -= dt * (shifted - rhs) / 1e-7
                evaluations += 1
            guess = guess - np.linalg.solve(jacobian, residual)
        newton_evaluations.append(evaluations)
    fewest = int(min(newton_evaluations))
    scalars = {"fused_evaluations": 1, "implicit_fewest_evaluations": fewest, "implicit_median_evaluations": float(np.median(newton_evaluations))}
    msg = (f"the fused step evaluates f once; implicit Euler solved by Newton (started at the fused step) needs {fewest} to "
           f"{max(newton_evaluations)} evaluations of f and a Jacobian per step over 20 networks (N = 6, tanh, tau in [0.01, 1], dt = 0.1)")
    return Outcome(H if fewest > 1 else F, msg, Evidence({"implicit_evaluations": np.array(newton_evaluations)}, scalars, {}))


def _tau_nonlinear_check(ctx: CheckContext) -> Outcome:
    import sympy as sp

    presynaptic = sp.symbols("V_j", real=True)
    tau, weight, capacitance, gain, midpoint = sp.Integer(1), sp.Integer(1), sp.Integer(1), sp.Integer(1), sp.Integer(0)
    sigma = 1 / (1 + sp.exp(-gain * (presynaptic - midpoint)))
    tau_sys = 1 / (1 / tau + weight / capacitance * sigma)
    first = float(sp.diff(tau_sys, presynaptic).subs(presynaptic, 0))
    second = float(sp.diff(tau_sys, presynaptic, 2).subs(presynaptic, 1))
    ok = abs(first) > 1e-6 and abs(second) > 1e-6
    msg = (f"eq. 5a at tau = w = C_m = gamma = 1, mu = 0: d tau_sys/dV_j = {first:.4f} at V_j = 0 and d^2 tau_sys/dV_j^2 = {second:.4f} at V_j = 1 "
           "(it varies, and not affinely); a CT-RNN's tau is one constant")
    return Outcome(H if ok else F, msg, Evidence({}, {"first_derivative": first, "second_derivative": second}, {}))


def _chemical_contrast_check(ctx: CheckContext) -> Outcome:
    import sympy as sp

    post, pre, weight, reversal, conductance = sp.symbols("V_i V_j w E omega_hat", real=True)
    chemical = weight / (1 + sp.exp(-pre)) * (reversal - post)  # eq. 2, into neuron i only
    gap_into_i, gap_into_j = conductance * (pre - post), conductance * (post - pre)  # eq. 3
    nonlinear = sp.simplify(sp.diff(chemical, pre, 2)) != 0
    gap_linear = all(sp.diff(g, v, 2) == 0 for g in (gap_into_i, gap_into_j) for v in (post, pre))
    opposite = sp.simplify(gap_into_i + gap_into_j) == 0
    ok = bool(nonlinear and gap_linear and opposite)
    msg = ("eq. 2's chemical current w sigma(V_j)(E - V_i) has a nonzero second derivative in V_j and enters only neuron i's equation; "
           f"eq. 3's current is linear in (v_i, v_j) and opposite in the two neurons: {'holds' if ok else 'fails'}")
    return Outcome(H if ok else F, msg, Evidence({}, {"chemical_nonlinear": bool(nonlinear), "gap_linear": gap_linear, "gap_opposite": bool(opposite)}, {}))


def text_decided_claims() -> list[Claim]:
    return [
        Claim("nac000.d2.phi_positive.euler", f"{SEED000}, Appendix D.2 (line 554), 'Applying a sigmoidal nonlinearity to phi yields the logit to only positive values'",
              "the logit of NAC's Euler mode (eq. 2 from a_0 = 0 over the pseudo-time t in (0, 1), at D.2's dt = 1.0: one step) is positive when phi > 0",
              "backbone outputs in [-8, 8] for both heads (eq. 15-16), epsilon = 1e-3", H, "a_1 = dt phi > 0; a second step does not fit in t < 1",
              _euler_positive_check, group="text", kind=Kind.READING,
              reading="the sentence read for NAC's Euler mode in the document's own setting: t_pseudo = sigma(.) in (0, 1) and dt = 1.0 (D.2)"),
        Claim("nac001.b1.frozen.slow_current_values", f"{SEED001}, Appendix B.1 (line 1404), 'accurate whenever the interval is short or when input variations "
              "are slow compared with the relaxation rate'", "with the coefficients frozen at their current values ('locally constant'), the frozen solution is "
              "accurate when the input varies slowly against omega", "omega = 1, phi(t) = sin(0.01 t), t in [5, 157]", H,
              "the quasi-steady error is O(rate/omega) = 0.01", _frozen_current_values_check, group="text", kind=Kind.READING,
              reading="'locally constant' coefficients frozen at their current values, so that the frozen solution follows the input"),
        Claim("nac001.b1.frozen.slow_long_interval", f"{SEED001}, Appendix B.1 (line 1404), 'accurate whenever the interval is short or when input variations are slow "
              "compared with the relaxation rate'", "the solution frozen at the interval's start is accurate when the input varies slowly against omega, "
              "over any interval", "omega = 1, a_0 = 0, phi(t) = sin(0.01 t), t = 157", F, "the frozen logit stays 0 while the exact one reaches 0.9999",
              _frozen_long_interval_check, group="text", kind=Kind.READING,
              reading="'slow compared with the relaxation rate' as a condition of its own, whatever the interval's length (the 'or' of the sentence)"),
        Claim("locality.attention.length_independent", f"{SEED003}, line 6, 'self-attention is sequence-length-independent in principle'; line 15, "
              "'Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V'", "no parameter of line 15's attention has a size that depends on N: the same "
              "projections attend over any N", "width 8, N in {4, 64, 1000}, seeded Gaussian tokens and projections", H, "Q, K, V are per-token projections",
              _length_independent_check, group="text", kind=Kind.AS_PRINTED),
        Claim("locality.code.import_alias", f"{SEED003}, code block, line 26, 'import nrm.nn as nrm'",
              "the printed import binds nrm to the package whose members the block names (nrm.Module, nrm.nn.SynapseLayer)",
              "Python's import statement; an empty package nrm with a submodule nn", F, "import a.b as c binds c to the submodule a.b",
              _import_alias_check, group="text", kind=Kind.AS_PRINTED),
        Claim("ltc.eq9.cost_vs_implicit", f"{SEED002}, eq. 8 'What it does' (line 170), 'without the full cost of implicit Euler'",
              "the fused step evaluates f once per step and solves nothing, while implicit Euler on eq. 7 needs more than one evaluation of f per step",
              "20 seeded networks, N = 6, f = tanh(W x + mu), tau log-uniform in [0.01, 1], dt = 0.1; Newton to 1e-12 from the fused step", H,
              "eq. 9 is a closed form; implicit Euler is nonlinear in x_{n+1}", _cost_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq5a.tau_nonlinear", f"{SEED002}, section 1 (line 15), 'LTC neurons have a nonlinearly varying time-constant that depends on the incoming "
              "presynaptic signals'; eq. 5a", "eq. 5a's tau_sys varies with the presynaptic V_j, and not affinely (nonzero second derivative)",
              "tau = w = C_m = gamma = 1, mu = 0 (SymPy)", H, "sigma(V_j) in the denominator", _tau_nonlinear_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq2.chemical_contrast", f"{SEED002}, eq. 3 'What it does' (line 75), 'Unlike chemical synapses, they are bidirectional and linear'; eq. 2",
              "eq. 2's chemical current is nonlinear in V_j and enters one neuron's equation, while eq. 3's is linear and opposite in both",
              "symbolic (SymPy)", H, "sigma(V_j) against omega_hat (v_j - v_i)", _chemical_contrast_check, group="ltc", kind=Kind.AS_PRINTED),
    ]


add_provider(text_decided_claims)
