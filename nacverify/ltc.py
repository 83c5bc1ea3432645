r"""Liquid Time-Constant (LTC) ODEs of seed 002 (002_02b8eaa764ffef08.txt), vectorised over neurons.

**Abstract LTC** (seed 002 eq. 7, 2021 eq. 1), state $x \in \mathbb{R}^N$, input $I(t) \in \mathbb{R}^M$:

$$\frac{dx}{dt} = -\Big[\frac{1}{\tau} + f(x, I)\Big] \odot x + f(x, I) \odot A,
\qquad f(x, I) = \sigma(x \gamma_r + I \gamma + \mu) \ \text{or}\ \tanh(x \gamma_r + I \gamma + \mu)$$

(seed 002 eq. 9a / eq. 22). Shapes follow the seed's parameter table: $\gamma_r \in \mathbb{R}^{N\times N}$,
$\gamma \in \mathbb{R}^{M\times N}$, so the pre-activation is written with row vectors,
$(x \gamma_r)_j = \sum_i x_i \gamma_{r,ij}$: row index = presynaptic unit, column = neuron.
The liquid time constant is $\tau_{sys} = \tau / (1 + \tau f)$ (eq. 7a).

**Fused step** (seed 002 eq. 9, 2021 eq. 3; eq. 23), element-wise:

$$x(t + \Delta t) = \frac{x(t) + \Delta t\, f(x(t), I(t)) \odot A}{1 + \Delta t\,(1/\tau + f(x(t), I(t)))}.$$

**Biophysical LTC** (seed 002 eq. 1 with eq. 2 synapses; eq. 4-5 for one synapse, eq. 6 for the
network): membrane potentials $v \in \mathbb{R}^N$,

$$C_{m,i} \frac{dv_i}{dt} = G_{leak,i}(V_{leak,i} - v_i)
  + \sum_j w_{ij}\,\sigma\big(\gamma_{ij}(v_j + \mu_{ij})\big)(E_{ij} - v_i)
  + \sum_m w^s_{im}\,\sigma\big(\gamma^s_{im}(I_m + \mu^s_{im})\big)(E^s_{im} - v_i).$$

Indices follow eq. 2: $w_{ij}$ is the synapse *from* neuron $j$ *to* neuron $i$ (row = postsynaptic).
The last sum (sensory synapses) is nacverify's choice for feeding the input $I(t)$ into the
biophysical form: eq. 2 with the presynaptic potential $V_j$ replaced by the input $I_m$ (the
seed's eq. 1-6 have no external input term); set every $w^s = 0$ to recover eq. 1-2 exactly.
Dividing by $C_m$ gives eq. 5's varying time constant
$\tau_{sys,i} = C_{m,i} / (G_{leak,i} + \sum_j w_{ij}\sigma_{ij} + \sum_m w^s_{im}\sigma^s_{im})$
(eq. 5a, eq. 10 without gap junctions).

**Inputs** $I(t)$ (seeded, documented):

* ``smooth``: $I_m(t) = c_m + \sum_{k=1}^{K} a_{km} \sin(2\pi \nu_{km} t / T + \varphi_{km})$, with
  $K = 3$, $c \sim N(0, 0.5^2)$, $a \sim U[0.2, 1]/K$, $\nu \sim U[0.5, 3]$ cycles per window,
  $\varphi \sim U[0, 2\pi)$. $C^\infty$.
* ``irregular``: sample-and-hold of irregularly timed events: $J$ event times drawn uniformly
  in $(0.05T, 0.95T)$ (sorted, at least $0.02T$ apart), values $N(0, 1)$ held until the next
  event, $I(t) = v_{\#\{j: t_j \le t\}}$ (right-continuous). The jumps are discontinuities of
  the vector field; solvers must stop at them (`jump_ts`).

Every vector field here is written once against an array namespace ``xp`` (``jax.numpy``,
``numpy`` or the mpmath namespace in ``nacverify.solvers``), so all backends integrate the same
formula. ``ref``: for piecewise-constant inputs, evaluate the discontinuous part at ``ref``
(the midpoint of the current smooth piece) instead of at ``t``; a solver that integrates piece
by piece thereby never sees the other side of a jump, even in a stage placed at the piece's end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from .errors import BadInput
from .compute.host import from_host

__all__ = [
    "ACTIVATIONS",
    "INPUT_KINDS",
    "LTC_FORMS",
    "InputSignal",
    "SmoothInput",
    "HeldInput",
    "AbstractLTC",
    "BiophysicalLTC",
    "LTCProblem",
    "smooth_input",
    "irregular_input",
    "random_abstract_ltc",
    "random_biophysical_ltc",
    "ltc_problem",
    "convert_leaves",
    "sigmoid",
]

ACTIVATIONS = ("sigmoid", "tanh")
INPUT_KINDS = ("smooth", "irregular")
LTC_FORMS = ("abstract", "biophysical")


def sigmoid(z, xp=jnp):
    """The logistic function 1 / (1 + exp(-z)) (seed 002 eq. 2a)."""
    return 1 / (1 + xp.exp(-z))


def convert_leaves(module, fn):
    """A copy of an equinox Module with every array leaf replaced by fn(leaf)
    (e.g. numpy.asarray, or the mpmath namespace's asarray)."""
    return jax.tree_util.tree_map(fn, module)


# ----------------------------------------------------------------------------- inputs


class InputSignal(eqx.Module):
    """An input I(t) with values in R^M."""

    T: float = eqx.field(static=True)

    @property
    def jump_ts(self) -> tuple[float, ...]:
        """Times where I(t) is discontinuous (empty for smooth inputs)."""
        return ()

    def __call__(self, t, ref=None, xp=jnp):  # -> (M,)
        raise NotImplementedError


class SmoothInput(InputSignal):
    r"""$I_m(t) = c_m + \sum_k a_{km} \sin(2\pi \nu_{km} t/T + \varphi_{km})$."""

    offset: Any  # (M,)
    amp: Any  # (K, M)
    freq: Any  # (K, M)
    phase: Any  # (K, M)

    def __call__(self, t, ref=None, xp=jnp):
        return self.offset + xp.sum(self.amp * xp.sin(2 * xp.pi * self.freq * (t / self.T) + self.phase), axis=0)


class HeldInput(InputSignal):
    r"""Sample-and-hold: $I(t) = v_{k(t)}$, $k(t) = \#\{j : t_j \le t\}$; ``values`` has J + 1 rows."""

    times: Any  # (J,)
    values: Any  # (J + 1, M)
    jumps: tuple[float, ...] = eqx.field(static=True)

    @property
    def jump_ts(self) -> tuple[float, ...]:
        return self.jumps

    def __call__(self, t, ref=None, xp=jnp):
        s = t if ref is None else ref
        return self.values[xp.searchsorted(self.times, s, side="right")]


def smooth_input(m: int, seed: int, *, T: float = 1.0, harmonics: int = 3) -> SmoothInput:
    """The seeded smooth input of the module docstring."""
    _check_dims(inputs=m)
    rng = np.random.default_rng([seed, 1])
    offset = rng.normal(0.0, 0.5, size=m)
    amp = rng.uniform(0.2, 1.0, size=(harmonics, m)) / harmonics
    freq = rng.uniform(0.5, 3.0, size=(harmonics, m))
    phase = rng.uniform(0.0, 2 * np.pi, size=(harmonics, m))
    return SmoothInput(float(T), *(jnp.asarray(a) for a in (offset, amp, freq, phase)))


def irregular_input(m: int, seed: int, *, T: float = 1.0, events: int = 5) -> HeldInput:
    """The seeded sample-and-hold input of the module docstring (`events` jumps)."""
    _check_dims(inputs=m)
    if events < 1:
        raise BadInput(f"an irregular input needs >= 1 event, got {events}")
    rng = np.random.default_rng([seed, 2])
    for _ in range(1000):
        times = np.sort(rng.uniform(0.05 * T, 0.95 * T, size=events))
        if events == 1 or np.min(np.diff(times)) >= 0.02 * T:
            break
    else:  # pragma: no cover - only for absurd event counts
        raise BadInput(f"cannot place {events} events at least 0.02 T apart")
    values = rng.normal(0.0, 1.0, size=(events + 1, m))
    return HeldInput(float(T), jnp.asarray(times), jnp.asarray(values), tuple(float(x) for x in times))


# ----------------------------------------------------------------------------- models


class AbstractLTC(eqx.Module):
    """Seed 002 eq. 7 with f = activation(x gamma_r + I gamma + mu) (eq. 9a)."""

    tau: Any  # (N,)
    gamma_r: Any  # (N, N)
    gamma: Any  # (M, N)
    mu: Any  # (N,)
    A: Any  # (N,)
    activation: str = eqx.field(static=True, default="sigmoid")

    def f(self, x, I, xp=jnp):
        z = x @ self.gamma_r + I @ self.gamma + self.mu
        return xp.tanh(z) if self.activation == "tanh" else sigmoid(z, xp)

    def rhs(self, t, x, signal: InputSignal, ref=None, xp=jnp):
        """dx/dt of eq. 7."""
        # methods looked up on the class: an instance lookup (self.f, signal(...)) builds an equinox bound-method
        # Module per call, most of the cost of one call from scipy's or mpmath's integrator loop
        f = type(self).f(self, x, type(signal).__call__(signal, t, ref, xp), xp)
        return -(1 / self.tau + f) * x + f * self.A

    def tau_sys(self, x, I, xp=jnp):
        """The liquid time constant tau / (1 + tau f) (eq. 7a)."""
        return self.tau / (1 + self.tau * self.f(x, I, xp))

    def fused_step(self, x, I, dt, xp=jnp):
        """One fused semi-implicit step (eq. 9) with input I held over the step."""
        f = self.f(x, I, xp)
        return (x + dt * f * self.A) / (1 + dt * (1 / self.tau + f))


class BiophysicalLTC(eqx.Module):
    """Seed 002 eq. 1-2 (eq. 4-6): leak plus chemical synapses, plus sensory synapses
    from the input (nacverify's extension; see the module docstring). Matrices are
    indexed [postsynaptic i, presynaptic j] as in eq. 2."""

    cm: Any  # (N,)
    g_leak: Any  # (N,)
    v_leak: Any  # (N,)
    w: Any  # (N, N)
    gamma: Any  # (N, N)
    mu: Any  # (N, N)
    E: Any  # (N, N)
    w_s: Any  # (N, M)
    gamma_s: Any  # (N, M)
    mu_s: Any  # (N, M)
    E_s: Any  # (N, M)

    def conductances(self, v, I, xp=jnp):
        """(w_ij sigma_ij(v_j), w^s_im sigma^s_im(I_m)): the open synaptic conductances."""
        g = self.w * sigmoid(self.gamma * (v[None, :] + self.mu), xp)
        g_s = self.w_s * sigmoid(self.gamma_s * (I[None, :] + self.mu_s), xp)
        return g, g_s

    def rhs(self, t, v, signal: InputSignal, ref=None, xp=jnp):
        """dv/dt of eq. 1 with eq. 2 synapses."""
        g, g_s = type(self).conductances(self, v, type(signal).__call__(signal, t, ref, xp), xp)  # class lookups: see AbstractLTC.rhs
        syn = xp.sum(g * self.E, axis=1) - xp.sum(g, axis=1) * v + xp.sum(g_s * self.E_s, axis=1) - xp.sum(g_s, axis=1) * v
        return (self.g_leak * (self.v_leak - v) + syn) / self.cm

    def tau_sys(self, v, I, xp=jnp):
        """C_m / (G_leak + sum of open conductances) (eq. 5a, eq. 10 without gap junctions)."""
        g, g_s = self.conductances(v, I, xp)
        return self.cm / (self.g_leak + xp.sum(g, axis=1) + xp.sum(g_s, axis=1))


def _check_dims(**dims: int) -> None:
    for name, value in dims.items():
        if int(value) != value or value < 1:
            raise BadInput(f"--{name} must be a positive integer, got {value}")


def random_abstract_ltc(n: int, m: int, seed: int, *, activation: str = "sigmoid", tau_range: tuple[float, float] = (0.1, 1.0)) -> AbstractLTC:
    """Seeded parameters after seed 002's initialisation guidelines (section 14):
    tau log-uniform in `tau_range` (the seed's [0.01, 1] narrowed to [0.1, 1] by default so
    the arbitrary-precision oracle stays affordable), gamma_r ~ N(0, 2/N), gamma ~ N(0, 2/M)
    (sigma_w^2 = 2 over the fan-in), mu ~ N(0, 1), A ~ N(0, 1)."""
    _check_dims(neurons=n, inputs=m)
    if activation not in ACTIVATIONS:
        raise BadInput(f"unknown activation {activation!r}; choose one of {', '.join(ACTIVATIONS)}")
    lo, hi = tau_range
    if not (0 < lo <= hi and math.isfinite(hi)):
        raise BadInput(f"tau range must satisfy 0 < low <= high, got {tau_range}")
    rng = np.random.default_rng([seed, 3])
    tau = np.exp(rng.uniform(np.log(lo), np.log(hi), size=n))
    gamma_r = rng.normal(0.0, np.sqrt(2.0 / n), size=(n, n))
    gamma = rng.normal(0.0, np.sqrt(2.0 / m), size=(m, n))
    mu = rng.normal(0.0, 1.0, size=n)
    A = rng.normal(0.0, 1.0, size=n)
    return AbstractLTC(*(from_host(a) for a in (tau, gamma_r, gamma, mu, A)), activation=activation)


def random_biophysical_ltc(n: int, m: int, seed: int) -> BiophysicalLTC:
    """Seeded parameters inside seed 002's parameter table (section 12): C_m ~ U[0.5, 2]
    (within [0.1, 10]), tau = C_m/G_leak ~ U[0.5, 2], V_leak ~ U[-1, 0], w, w^s ~ U[0, 1]
    (within [0, 2]), gamma ~ U[0.5, 5], mu ~ U[-2, 2], E ~ U[-1, 1]."""
    _check_dims(neurons=n, inputs=m)
    rng = np.random.default_rng([seed, 4])
    cm = rng.uniform(0.5, 2.0, size=n)
    g_leak = cm / rng.uniform(0.5, 2.0, size=n)
    v_leak = rng.uniform(-1.0, 0.0, size=n)

    def synapses(cols: int):
        return (
            rng.uniform(0.0, 1.0, size=(n, cols)),
            rng.uniform(0.5, 5.0, size=(n, cols)),
            rng.uniform(-2.0, 2.0, size=(n, cols)),
            rng.uniform(-1.0, 1.0, size=(n, cols)),
        )

    arrays = (cm, g_leak, v_leak, *synapses(n), *synapses(m))
    return BiophysicalLTC(*(jnp.asarray(a) for a in arrays))


@dataclass(frozen=True, eq=False)
class LTCProblem:
    """An LTC initial value problem: model, input, x(0) and window [0, T]."""

    form: str  # "abstract" | "biophysical"
    model: AbstractLTC | BiophysicalLTC
    signal: InputSignal
    x0: np.ndarray
    T: float
    params: dict[str, Any]

    @property
    def jump_ts(self) -> tuple[float, ...]:
        return tuple(t for t in self.signal.jump_ts if 0 < t < self.T)

    def rhs(self, t, x, ref=None, xp=jnp):
        return self.model.rhs(t, x, self.signal, ref, xp)

    @property
    def description(self) -> str:
        p = self.params
        what = "eq. 7, f = " + p["activation"] if self.form == "abstract" else "eq. 1-2 (leak + chemical and sensory synapses)"
        return f"{self.form} LTC ({what}), N = {p['neurons']}, M = {p['inputs']}, {p['input']} input, seed {p['seed']}, T = {self.T:g}"


def ltc_problem(
    form: str = "abstract",
    *,
    neurons: int = 4,
    inputs: int = 2,
    input_kind: str = "smooth",
    activation: str = "sigmoid",
    seed: int = 0,
    T: float = 1.0,
    events: int = 5,
) -> LTCProblem:
    """A seeded LTC problem. x(0) = 0 for the abstract form (seed 002 section 14:
    "initialize to zeros"), x(0) = V_leak (rest) for the biophysical form."""
    if form not in LTC_FORMS:
        raise BadInput(f"unknown LTC form {form!r}; choose one of {', '.join(LTC_FORMS)}")
    if input_kind not in INPUT_KINDS:
        raise BadInput(f"unknown input {input_kind!r}; choose one of {', '.join(INPUT_KINDS)}")
    if not (math.isfinite(T) and T > 0):
        raise BadInput(f"window T must be a positive finite number, got {T}")
    _check_dims(neurons=neurons, inputs=inputs)
    signal = smooth_input(inputs, seed, T=T) if input_kind == "smooth" else irregular_input(inputs, seed, T=T, events=events)
    if form == "abstract":
        model = random_abstract_ltc(neurons, inputs, seed, activation=activation)
        x0 = np.zeros(neurons)
    else:
        model = random_biophysical_ltc(neurons, inputs, seed)
        x0 = np.asarray(model.v_leak, dtype=np.float64).copy()
    params = {"neurons": neurons, "inputs": inputs, "input": input_kind, "activation": activation if form == "abstract" else "sigmoid (eq. 2)", "seed": seed}
    return LTCProblem(form, model, signal, x0, float(T), params)
