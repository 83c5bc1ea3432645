r"""Coefficient regimes for the frozen-coefficient study (seed 000, appendix B.1.2).

The paper names four regimes (slow, fast, step, oscillatory) without defining them.
nacverify defines each as a *shape family*: one shape function $g(t)$ on the window
$[0, T]$ with $g(0) = 0$ and $\max_{[0,T]} |g| = 1$, modulating both gates

$$\phi(t) = \phi_0 (1 + A_\phi\, g(t)), \qquad \omega(t) = \omega_0 (1 + A_\omega\, g(t)).$$

Because $\max |g| = 1$ the amplitudes *are* the variations of Table 2:
$100 \max_t |\phi(t) - \phi_0| / |\phi_0| = 100 |A_\phi|$ (the same for omega).

| regime | $g(t)$ | shape parameter | $\max |g'|$ |
| --- | --- | --- | --- |
| slow | $t/T$ (linear ramp) | none | $1/T$ |
| fast | $\mathrm{expm1}(k t/T) / \mathrm{expm1}(k)$ (exponential growth) | rate $k > 0$ | $k e^k / (T\,\mathrm{expm1}(k))$ |
| step | $[t \ge s T]$ (one jump inside the window) | jump position $s \in (0, 1)$ | not Lipschitz |
| oscillatory | $\sin(2\pi f t / T)$ | cycles in the window $f \ge 1/4$ | $2\pi f / T$ |

Defaults are NAC's setting: $a_0 = 0$, $\phi_0 = 0.5$ (a sigmoid output, in (0, 1)),
$\omega_0 = 1$, $T = 1$ (NAC's pseudo-time lies in (0, 1)), amplitudes equal to the
paper's Table 2 variation columns, $k = 5$, $s = 1/2$, $f = 2$.

Sweeps draw parameters uniformly from `SWEEP_RANGES` (documented there), with $a_0$
fixed at the CLI value (0 by default), the step position drawn from the grid
$s \in \{0.10, 0.11, \dots, 0.90\}$ so the solver can be told every possible jump.
A sweep's draws form one sequence per (family, seed), generated in blocks of `DRAW_BLOCK`
members, block $k$ from numpy's `SeedSequence(seed, spawn_key=(k,))` (`sample_draws`): draw
$i$ depends on the seed and $i$ alone, so any slice can be drawn anywhere and the sequence does
not depend on how a sweep cuts it into chunks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import sympy as sp

from .custom_expr import T_SYMBOL, parse_formula, within_budget
from .errors import BadInput

__all__ = [
    "REGIMES",
    "NAMED_REGIMES",
    "TABLE2_VARIATIONS",
    "DEFAULT_SHAPE",
    "SWEEP_RANGES",
    "STEP_GRID",
    "Coefficients",
    "ShapeFamily",
    "KIND_CODE",
    "ConstantCoefficients",
    "FormulaCoefficients",
    "CoefficientFacts",
    "named_regime",
    "custom_regime",
    "sample_regime",
    "DRAW_BLOCK",
    "sample_draws",
    "shape_function",
]

NAMED_REGIMES = ("slow", "fast", "step", "oscillatory")
REGIMES = NAMED_REGIMES + ("custom",)

#: Table 2 of seed 000 (appendix B.1.2): phi and omega variation in percent.
TABLE2_VARIATIONS: dict[str, tuple[float, float]] = {
    "slow": (0.50, 0.26),
    "fast": (2.63, 1.58),
    "step": (3.51, 2.11),
    "oscillatory": (8.28, 2.10),
}
#: Default shape parameter per regime (slow has none).
DEFAULT_SHAPE = {"slow": 0.0, "fast": 5.0, "step": 0.5, "oscillatory": 2.0}
SHAPE_PARAMETER = {"slow": None, "fast": "rate", "step": "jump_at", "oscillatory": "cycles"}

#: Sweep ranges: uniform draws (low, high). `amp` applies to both A_phi and A_omega.
SWEEP_RANGES: dict[str, tuple[float, float]] = {
    "phi0": (0.05, 0.95),
    "omega0": (0.1, 5.0),
    "amp": (-0.2, 0.2),
    "rate": (0.5, 8.0),
    "cycles": (0.25, 4.0),
}
#: Possible step positions s (fractions of T) in sweeps.
STEP_GRID = np.round(np.arange(10, 91) / 100.0, 2)


class Coefficients(eqx.Module):
    """An ensemble of N coefficient pairs phi(t), omega(t), evaluated together."""

    def phi(self, t):  # -> (N,)
        raise NotImplementedError

    def omega(self, t):  # -> (N,)
        raise NotImplementedError


#: The family of each member is data (an integer code), not a static choice, so every
#: named regime runs through one compiled solve.
KIND_CODE = {"slow": 0, "fast": 1, "step": 2, "oscillatory": 3}


_BRANCHES = (
    lambda x, shape, xp: x * xp.ones_like(shape),
    lambda x, shape, xp: xp.expm1(shape * x) / xp.expm1(shape),
    lambda x, shape, xp: xp.where(x >= shape, 1.0, 0.0),
    lambda x, shape, xp: xp.sin(2 * xp.pi * shape * x),
)


def _shape(code, x, shape, xp):
    """g at x = t/T for family `code`, written once for every array namespace (numpy,
    jax.numpy, the mpmath namespace of nacverify.solvers). A plain int code evaluates
    its own branch; an array of codes (traced in a compiled solve) evaluates every
    branch and selects, with the fast branch's rate replaced by 1 where unused so no
    NaN can leak into values or gradients."""
    if isinstance(code, (int, np.integer)):
        return _BRANCHES[int(code)](x, shape, xp)
    rate = xp.where(code == 1, shape, 1.0)
    slow = x * xp.ones_like(shape)
    fast = xp.expm1(rate * x) / xp.expm1(rate)
    step = xp.where(x >= shape, 1.0, 0.0)
    osc = xp.sin(2 * xp.pi * shape * x)
    return xp.where(code == 0, slow, xp.where(code == 1, fast, xp.where(code == 2, step, osc)))


def shape_function(kind: str, T: float, shape: float) -> Callable[[float], float]:
    """g(t) of one member as a plain numpy function (for per-trajectory baselines)."""
    code = KIND_CODE[kind]
    return lambda t: float(_shape(code, np.float64(t) / T, np.float64(shape), np))


class ConstantCoefficients(Coefficients):
    """Gates constant in t (Theorem 1 and Corollaries 1-3 of seed 001): phi, omega (N,)."""

    phi_values: jax.Array
    omega_values: jax.Array

    def phi(self, t):
        return self.phi_values

    def omega(self, t):
        return self.omega_values


class ShapeFamily(Coefficients):
    """phi = phi0 (1 + A_phi g(t)), omega = omega0 (1 + A_omega g(t)) for one named regime."""

    code: jax.Array  # (N,) family of each member, KIND_CODE
    T: float = eqx.field(static=True)
    phi0: jax.Array
    omega0: jax.Array
    phi_amp: jax.Array
    omega_amp: jax.Array
    shape: jax.Array

    def g(self, t):
        return _shape(self.code, t / self.T, self.shape, jnp)

    def phi(self, t):
        return self.phi0 * (1 + self.phi_amp * self.g(t))

    def omega(self, t):
        return self.omega0 * (1 + self.omega_amp * self.g(t))


class FormulaCoefficients(Coefficients):
    """One pair of user formulas in t, lambdified to JAX."""

    phi_fn: Callable = eqx.field(static=True)
    omega_fn: Callable = eqx.field(static=True)

    def phi(self, t):
        return jnp.reshape(jnp.asarray(self.phi_fn(t), dtype=jnp.float64) * jnp.ones(()), (1,))

    def omega(self, t):
        return jnp.reshape(jnp.asarray(self.omega_fn(t), dtype=jnp.float64) * jnp.ones(()), (1,))


@dataclass(frozen=True)
class CoefficientFacts:
    """Per-member constants the bounds need (numpy arrays of shape (N,)).

    `L_phi`, `L_omega` are Lipschitz constants on [0, T] (inf when not Lipschitz);
    `V_phi`, `V_omega` are max_t |phi - phi0| and max_t |omega - omega0|;
    `omega_min` is min_t omega; `jump_ts` are the discontinuities the solver must
    not step over."""

    phi0: np.ndarray
    omega0: np.ndarray
    L_phi: np.ndarray
    L_omega: np.ndarray
    V_phi: np.ndarray
    V_omega: np.ndarray
    omega_min: np.ndarray
    lipschitz: bool
    jump_ts: tuple[float, ...] = ()

    @property
    def phi_variation_pct(self) -> np.ndarray:
        return 100 * self.V_phi / np.abs(self.phi0)

    @property
    def omega_variation_pct(self) -> np.ndarray:
        return 100 * self.V_omega / np.abs(self.omega0)


@dataclass(frozen=True)
class Regime:
    """A regime instance: its coefficients, the facts the bounds need, and the
    parameters that define it (for reports and witnesses)."""

    name: str
    T: float
    coefficients: Coefficients
    facts: CoefficientFacts
    params: dict[str, np.ndarray]
    description: str

    @property
    def size(self) -> int:
        return int(self.facts.phi0.shape[0])


def _g_range(kind: str, shape: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if kind in ("slow", "fast", "step"):
        return np.zeros_like(shape), np.ones_like(shape)
    end = np.sin(2 * np.pi * shape)
    gmax = np.where(shape >= 0.25, 1.0, end)
    gmin = np.where(shape >= 0.75, -1.0, np.minimum(0.0, end))
    return gmin, gmax


def _gprime_max(kind: str, shape: np.ndarray, T: float) -> np.ndarray:
    if kind == "slow":
        return np.full_like(shape, 1.0 / T)
    if kind == "fast":
        return shape * np.exp(shape) / (T * np.expm1(shape))
    if kind == "oscillatory":
        return 2 * np.pi * shape / T
    return np.full_like(shape, np.inf)


def _check_finite(**values: float) -> None:
    for name, value in values.items():
        if not np.all(np.isfinite(np.asarray(value, dtype=float))):
            raise BadInput(f"{name} must be a finite number, got {value}")


def _family(kind: str, T: float, phi0, omega0, phi_amp, omega_amp, shape, a0) -> Regime:
    phi0, omega0, phi_amp, omega_amp, shape = (np.atleast_1d(np.asarray(x, dtype=np.float64)) for x in (phi0, omega0, phi_amp, omega_amp, shape))
    _check_finite(T=T, phi0=phi0, omega0=omega0, phi_amp=phi_amp, omega_amp=omega_amp, shape=shape, a0=a0)
    if not T > 0:
        raise BadInput(f"window T must be > 0, got {T}")
    if np.any(omega0 <= 0):
        raise BadInput(f"assumption omega(t) > 0 violated: omega0 = {omega0.min():g} at t = 0 (Theorem 3, seed 000 eq. 33)")
    if kind == "fast" and np.any(shape <= 0):
        raise BadInput(f"fast regime: rate must be > 0, got {shape.min():g}")
    if kind == "step" and np.any((shape <= 0) | (shape >= 1)):
        raise BadInput(f"step regime: jump position must lie in (0, 1) (fraction of T), got {shape.min():g}")
    if kind == "oscillatory" and np.any(shape < 0.25):
        raise BadInput(f"oscillatory regime: cycles must be >= 0.25 so the window reaches the peak, got {shape.min():g}")
    gmin, gmax = _g_range(kind, shape)
    omega_lo = omega0 * (1 + np.minimum(omega_amp * gmin, omega_amp * gmax))
    if np.any(omega_lo <= 0):
        i = int(np.argmin(omega_lo))
        raise BadInput(
            f"assumption omega(t) > 0 on [0, T] violated: min omega = {omega_lo[i]:g} "
            f"(omega0 = {omega0[i]:g}, omega amplitude = {omega_amp[i]:g}; Theorem 3, seed 000 eq. 33)"
        )
    gp = _gprime_max(kind, shape, T)
    V_phi = np.abs(phi0) * np.maximum(np.abs(phi_amp * gmin), np.abs(phi_amp * gmax))
    V_omega = omega0 * np.maximum(np.abs(omega_amp * gmin), np.abs(omega_amp * gmax))
    with np.errstate(invalid="ignore"):
        L_phi = np.where(phi_amp == 0, 0.0, np.abs(phi0 * phi_amp) * gp)
        L_omega = np.where(omega_amp == 0, 0.0, np.abs(omega0 * omega_amp) * gp)
    jumps: tuple[float, ...] = ()
    if kind == "step":
        jumps = tuple(float(s) * T for s in np.unique(shape))
    facts = CoefficientFacts(phi0, omega0, L_phi, L_omega, V_phi, V_omega, omega_lo, lipschitz=kind != "step", jump_ts=jumps)
    coeffs = ShapeFamily(jnp.full(phi0.shape, KIND_CODE[kind]), float(T), *(jnp.asarray(x) for x in (phi0, omega0, phi_amp, omega_amp, shape)))
    params = {"phi0": phi0, "omega0": omega0, "phi_amp": phi_amp, "omega_amp": omega_amp, "a0": np.full_like(phi0, a0)}
    if SHAPE_PARAMETER[kind]:
        params[SHAPE_PARAMETER[kind]] = shape
    return Regime(kind, float(T), coeffs, facts, params, _DESCRIPTIONS[kind])


_DESCRIPTIONS = {
    "slow": "linear ramp: phi = phi0 (1 + A_phi t/T), omega = omega0 (1 + A_omega t/T)",
    "fast": "exponential growth: g = expm1(k t/T)/expm1(k)",
    "step": "one jump at t = s T: g = [t >= s T]",
    "oscillatory": "sinusoid: g = sin(2 pi f t/T)",
}


def named_regime(
    name: str,
    *,
    T: float = 1.0,
    phi0: float = 0.5,
    omega0: float = 1.0,
    phi_variation_pct: float | None = None,
    omega_variation_pct: float | None = None,
    shape: float | None = None,
    a0: float = 0.0,
) -> Regime:
    """One member of a named family; variations default to the Table 2 columns."""
    if name not in NAMED_REGIMES:
        raise BadInput(f"unknown regime {name!r}; choose one of {', '.join(REGIMES)} or all")
    dphi, domega = TABLE2_VARIATIONS[name]
    phi_pct = dphi if phi_variation_pct is None else phi_variation_pct
    omega_pct = domega if omega_variation_pct is None else omega_variation_pct
    _check_finite(phi_variation_pct=phi_pct, omega_variation_pct=omega_pct)
    return _family(
        name,
        T,
        phi0,
        omega0,
        phi_pct / 100.0,
        omega_pct / 100.0,
        DEFAULT_SHAPE[name] if shape is None else shape,
        a0,
    )


def sample_regime(name: str, n: int, seed: int, *, T: float = 1.0, a0: float = 0.0) -> Regime:
    """`n` members of family `name` drawn from `SWEEP_RANGES` with `seed`."""
    if name not in NAMED_REGIMES:
        raise BadInput(f"sweeps need a named regime, got {name!r}")
    if n < 1:
        raise BadInput(f"--sweep must be >= 1, got {n}")
    rng = np.random.default_rng(seed)
    u = lambda key: rng.uniform(*SWEEP_RANGES[key], size=n)  # noqa: E731
    phi0, omega0, phi_amp, omega_amp = u("phi0"), u("omega0"), u("amp"), u("amp")
    if name == "fast":
        shape = u("rate")
    elif name == "oscillatory":
        shape = u("cycles")
    elif name == "step":
        shape = rng.choice(STEP_GRID, size=n)
    else:
        shape = np.zeros(n)
    return _family(name, T, phi0, omega0, phi_amp, omega_amp, shape, a0)


#: Sweep draws are generated in blocks of this many members (see `sample_draws`).
DRAW_BLOCK = 1024


def _draw_block(name: str, seed: int, block: int) -> tuple[np.ndarray, ...]:
    """Block `block` of the draw sequence of family `name`: (phi0, omega0, phi_amp,
    omega_amp, shape), each of length DRAW_BLOCK, from SeedSequence(seed, spawn_key=(block,))."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))
    u = lambda key: rng.uniform(*SWEEP_RANGES[key], size=DRAW_BLOCK)  # noqa: E731
    phi0, omega0, phi_amp, omega_amp = u("phi0"), u("omega0"), u("amp"), u("amp")
    if name == "fast":
        shape = u("rate")
    elif name == "oscillatory":
        shape = u("cycles")
    elif name == "step":
        shape = rng.choice(STEP_GRID, size=DRAW_BLOCK)
    else:
        shape = np.zeros(DRAW_BLOCK)
    return phi0, omega0, phi_amp, omega_amp, shape


def sample_draws(name: str, seed: int, start: int, stop: int, *, T: float = 1.0, a0: float = 0.0) -> Regime:
    """Draws `start` ... `stop - 1` of the sweep sequence of family `name` with `seed`.

    Draw i is entry i % DRAW_BLOCK of block i // DRAW_BLOCK (`_draw_block`), so a draw's
    parameters depend on (name, seed, i) alone: whatever machine computes a slice, and
    however a sweep is cut into chunks, draw i is the same. Step draws tell the solver
    every jump of `STEP_GRID` (one compiled solve for every slice)."""
    if name not in NAMED_REGIMES:
        raise BadInput(f"sweeps need a named regime, got {name!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BadInput(f"--seed must be an integer >= 0, got {seed}")
    if not 0 <= start < stop:
        raise BadInput(f"draws {start}:{stop} are not a non-empty range of indices >= 0")
    first, last = start // DRAW_BLOCK, (stop - 1) // DRAW_BLOCK
    blocks = [_draw_block(name, int(seed), k) for k in range(first, last + 1)]
    lo = start - first * DRAW_BLOCK
    cols = [np.concatenate([b[j] for b in blocks])[lo : lo + stop - start] for j in range(5)]
    regime = _family(name, T, *cols, a0)
    if name == "step":
        facts = regime.facts
        facts = CoefficientFacts(**{**facts.__dict__, "jump_ts": tuple(float(s) * T for s in STEP_GRID)})
        regime = Regime(regime.name, regime.T, regime.coefficients, facts, regime.params, regime.description)
    return regime


def _grid_max(fn: Callable[[np.ndarray], np.ndarray], T: float, points: int = 100_001) -> tuple[float, float]:
    """max over [0, T] of fn: a dense grid, then a bounded local refinement."""
    from scipy.optimize import minimize_scalar

    grid = np.linspace(0.0, T, points)
    raw = np.broadcast_to(np.asarray(fn(grid)), grid.shape)
    if np.iscomplexobj(raw) and np.any(raw.imag != 0):
        bad = grid[raw.imag != 0][0]
        raise BadInput(f"formula is not real at t = {bad:g}")
    values = raw.real.astype(float) if np.iscomplexobj(raw) else raw.astype(float)
    if not np.all(np.isfinite(values)):
        bad = grid[~np.isfinite(values)][0]
        raise BadInput(f"formula is not finite at t = {bad:g}")
    i = int(np.argmax(values))
    h = T / (points - 1)
    lo, hi = max(0.0, grid[i] - h), min(T, grid[i] + h)
    best_t, best = grid[i], float(values[i])
    if hi > lo:
        res = minimize_scalar(lambda s: -float(fn(np.asarray(s))), bounds=(lo, hi), method="bounded", options={"xatol": 1e-14})
        if res.success and -res.fun > best:
            best_t, best = float(res.x), float(-res.fun)
    return best, best_t


def _formula_facts(exprs: dict[str, sp.Expr], T: float) -> tuple[dict[str, float], dict[str, Callable]]:
    """phi0, V, L, the minimum and its place of each formula on [0, T], and its JAX function."""
    facts: dict[str, float] = {}
    fns = {}
    for name, expr in exprs.items():
        free = expr.free_symbols - {T_SYMBOL}
        if free:
            raise BadInput(f"--{name} may use only t, got {', '.join(map(str, free))}")
        f_np = sp.lambdify(T_SYMBOL, expr, "numpy")
        d_np = sp.lambdify(T_SYMBOL, sp.diff(expr, T_SYMBOL), "numpy")
        with np.errstate(all="ignore"):
            start = complex(f_np(np.float64(0.0)))
            if start.imag != 0:
                raise BadInput(f"--{name} is not real at t = 0")
            value0 = start.real
            if not math.isfinite(value0):
                raise BadInput(f"--{name} is not finite at t = 0")
            try:
                vmax, _ = _grid_max(lambda s: f_np(s) - value0, T)
                vmin_neg, _ = _grid_max(lambda s: value0 - f_np(s), T)
                lip, _ = _grid_max(lambda s: np.abs(d_np(s)), T)
                low, t_low = _grid_max(lambda s: -f_np(s), T)
            except BadInput as exc:  # name the option whose formula it is
                raise BadInput(f"--{name}: {exc}") from None
        facts[f"{name}0"] = value0
        facts[f"V_{name}"] = max(vmax, vmin_neg, 0.0)
        facts[f"L_{name}"] = lip
        facts[f"{name}_min"], facts[f"{name}_argmin"] = -low, t_low
        fns[name] = sp.lambdify(T_SYMBOL, expr, "jax")
    return facts, fns


def custom_regime(phi_text: str, omega_text: str, *, T: float = 1.0, a0: float = 0.0) -> Regime:
    """A regime from two formulas in t. Lipschitz constants are the symbolic
    derivatives' absolute maxima on a dense grid (100,001 points) refined locally."""
    _check_finite(T=T, a0=a0)
    if not T > 0:
        raise BadInput(f"window T must be > 0, got {T}")
    exprs = {}
    for name, text in (("phi", phi_text), ("omega", omega_text)):
        try:
            exprs[name] = parse_formula(text)
        except BadInput as exc:  # name the option whose formula it is
            raise BadInput(f"--{name}: {exc}") from None
    facts, fns = within_budget(lambda: _formula_facts(exprs, T), f"analysing --phi {phi_text!r} and --omega {omega_text!r}")
    if facts["omega_min"] <= 0:
        raise BadInput(
            f"assumption omega(t) > 0 on [0, T] violated: omega({facts['omega_argmin']:.6g}) = {facts['omega_min']:.6g} "
            "(Theorem 3, seed 000 eq. 33)"
        )
    one = lambda x: np.array([x], dtype=np.float64)  # noqa: E731
    cf = CoefficientFacts(
        phi0=one(facts["phi0"]),
        omega0=one(facts["omega0"]),
        L_phi=one(facts["L_phi"]),
        L_omega=one(facts["L_omega"]),
        V_phi=one(facts["V_phi"]),
        V_omega=one(facts["V_omega"]),
        omega_min=one(facts["omega_min"]),
        lipschitz=True,
    )
    coeffs = FormulaCoefficients(fns["phi"], fns["omega"])
    params = {"a0": one(a0), "phi": np.array([phi_text]), "omega": np.array([omega_text])}
    return Regime("custom", float(T), coeffs, cf, params, f"custom: phi(t) = {exprs['phi']}, omega(t) = {exprs['omega']}")
