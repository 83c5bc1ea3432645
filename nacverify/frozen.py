r"""The frozen-coefficient error study (seed 000, appendix B.1.2, Theorem 3, Table 2).

Logit ODE with time-varying gates (seed 000 eq. 33; seed 001 eq. 1):
$a' = -\omega(t) a + \phi(t)$, $\omega > 0$. The frozen solution (seed 000 eq. 39)
freezes the gates at $t = 0$: $a_f(t) = a^* + (a_0 - a^*) e^{-\omega_0 t}$,
$a^* = \phi_0/\omega_0$. The error is $\varepsilon = a_{\mathrm{varying}} - a_f$.

Bounds, with $C = |a_0| + |\phi_0|/\omega_0$ and Lipschitz constants $L_\phi, L_\omega$:

* **Theorem 3** (seed 000 eq. 34): $|\varepsilon(t)| \le (L_\phi + C L_\omega)\, t^2 e^{L_\omega t}$.
* **Sharp form**: $|\varepsilon(t)| \le (L_\phi + C L_\omega)\, t^2 / 2$.
  Derivation. Subtracting $a_f' = -\omega_0 a_f + \phi_0$ from eq. 33 and writing
  $a_{\mathrm{varying}} = a_f + \varepsilon$:
  $$\varepsilon' = -\omega(t)\varepsilon + (\phi(t) - \phi_0) - (\omega(t) - \omega_0)\, a_f(t), \quad \varepsilon(0) = 0.$$
  Variation of constants gives
  $\varepsilon(t) = \int_0^t e^{-\int_s^t \omega}\,[(\phi(s) - \phi_0) - (\omega(s) - \omega_0) a_f(s)]\,ds$.
  Since $\omega > 0$ the exponential is at most 1; $a_f(s)$ is a convex combination of
  $a_0$ and $a^*$, so $|a_f| \le \max(|a_0|, |a^*|) \le C$; and Lipschitz continuity gives
  $|\phi(s) - \phi_0| \le L_\phi s$, $|\omega(s) - \omega_0| \le L_\omega s$. Hence
  $|\varepsilon(t)| \le \int_0^t (L_\phi + C L_\omega) s\, ds = (L_\phi + C L_\omega) t^2/2$.
  (The paper's proof bounds $a_{\mathrm{varying}}$ instead of $a_f$, which brings in
  Gronwall's factor; it also integrates to $T$ where $t$ is meant, eq. 38-41.)
* **Bounded-variation form** (no continuity needed, so it covers the step regime):
  with $V_\phi = \max_{[0,T]} |\phi - \phi_0|$, $V_\omega = \max_{[0,T]} |\omega - \omega_0|$ and
  $\omega_{\min} = \min_{[0,T]} \omega$, the same representation with
  $e^{-\int_s^t \omega} \le e^{-\omega_{\min}(t - s)}$ gives
  $|\varepsilon(t)| \le (V_\phi + C V_\omega)(1 - e^{-\omega_{\min} t}) / \omega_{\min}$.

**Relative error** (the definition nacverify uses for Table 2): at the grid points
$t_i > 0$ of the uniform saving grid (t = 0 excluded, where both solutions equal $a_0$),
$r(t_i) = |a_{\mathrm{varying}}(t_i) - a_f(t_i)| / |a_{\mathrm{varying}}(t_i)|$, skipping points
where $|a_{\mathrm{varying}}| <$ `rel_floor` (1e-9). "mean" and "max" are the mean and maximum
of $r$ over those points, in percent.

**Variation bound on the relative error** (for Table 2's audit). Assume $a_0 = 0$,
$\phi_0 > 0$, $\omega > 0$, and let $v_\phi = V_\phi/\phi_0 < 1$, $v_\omega = V_\omega/\omega_0 < 1$, so
$\phi \in [\phi_0(1 - v_\phi), \phi_0(1 + v_\phi)]$ and $\omega \in [\omega_0(1 - v_\omega), \omega_0(1 + v_\omega)]$.
Then $a \ge 0$ and, by comparison with the constant-coefficient equations,
$\frac{\phi_{\min}}{\omega_{\max}}(1 - e^{-\omega_{\max} t}) \le a_{\mathrm{varying}}(t) \le \frac{\phi_{\max}}{\omega_{\min}}(1 - e^{-\omega_{\min} t})$.
With $h(w) = (1 - e^{-w t})/w$ decreasing and $w\,h(w)$ increasing in $w$,
$h(\omega_{\min})/h(\omega_0) \le \omega_0/\omega_{\min}$ and $h(\omega_{\max})/h(\omega_0) \ge \omega_0/\omega_{\max}$, so
$$\frac{1 - v_\phi}{1 + v_\omega} \le \frac{a_{\mathrm{varying}}}{a_f} \le \frac{1 + v_\phi}{1 - v_\omega},
\qquad r(t) = \Big|1 - \frac{a_f}{a_{\mathrm{varying}}}\Big| \le \frac{v_\phi + v_\omega}{1 - v_\phi}.$$
The relative error can never exceed this, whatever the shape of the variation.
"""

from __future__ import annotations

import csv
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

import jax
import jax.numpy as jnp
import numpy as np

from .claims import Evidence, Outcome, Verdict
from .errors import BadInput, Interrupted
from .margins import solver_margin
from .odes import frozen_solution
from .regimes import NAMED_REGIMES, STEP_GRID, Regime, custom_regime, named_regime, sample_regime
from .solvers import solve_ensemble

__all__ = [
    "SolveOptions",
    "RegimeSpec",
    "regime_specs",
    "FrozenErrorRun",
    "SweepRun",
    "BOUNDS",
    "paper_table2",
    "run_frozen_error",
    "run_sweep",
    "bound_curves",
    "variation_bound",
    "bound_outcome",
    "table2_row_outcome",
    "table2_average_outcome",
    "variation_bound_outcome",
    "scipy_baseline",
]

#: Bound names and the claim they belong to.
BOUNDS = {"thm3": "nac.thm3.bound", "sharp": "nac.thm3.sharp", "bv": "nac.thm3.bv"}
TIGHTER_FACTOR = 100.0  # second solve at tolerances / 100 estimates the first one's error
ROUNDING = 16 * np.finfo(np.float64).eps


@dataclass(frozen=True)
class SolveOptions:
    rtol: float = 1e-10
    atol: float = 1e-12
    points: int = 1001
    rel_floor: float = 1e-9
    backend: str = "diffrax"  # reference solver of single runs (nacverify.solvers); sweeps always use diffrax

    def __post_init__(self) -> None:
        from .solvers import get_backend

        get_backend(self.backend)  # BadInput for an unknown name
        for name in ("rtol", "atol", "rel_floor"):
            value = getattr(self, name)
            if not (np.isfinite(value) and value > 0):
                raise BadInput(f"--{name.replace('_', '-')} must be a positive finite number, got {value}")
        if self.rtol < 1e-13:
            raise BadInput(f"--rtol {self.rtol:g} is below what float64 can deliver (use >= 1e-13)")
        if self.points < 3:
            raise BadInput(f"--points must be >= 3, got {self.points}")


@dataclass(frozen=True)
class RegimeSpec:
    """A hashable description of one regime instance (what the CLI options say)."""

    name: str
    T: float = 1.0
    phi0: float = 0.5
    omega0: float = 1.0
    phi_variation_pct: float | None = None
    omega_variation_pct: float | None = None
    shape: float | None = None
    a0: float = 0.0
    phi_formula: str | None = None
    omega_formula: str | None = None

    def build(self) -> Regime:
        if self.name == "custom":
            if not self.phi_formula or not self.omega_formula:
                raise BadInput("--regime custom needs both --phi EXPR and --omega EXPR")
            return custom_regime(self.phi_formula, self.omega_formula, T=self.T, a0=self.a0)
        return named_regime(
            self.name,
            T=self.T,
            phi0=self.phi0,
            omega0=self.omega0,
            phi_variation_pct=self.phi_variation_pct,
            omega_variation_pct=self.omega_variation_pct,
            shape=self.shape,
            a0=self.a0,
        )

    @property
    def is_default(self) -> bool:
        return self == RegimeSpec(self.name)


def regime_specs(
    choice: str,
    *,
    T: float = 1.0,
    phi0: float = 0.5,
    omega0: float = 1.0,
    a0: float = 0.0,
    phi_variation_pct: float | None = None,
    omega_variation_pct: float | None = None,
    rate: float | None = None,
    jump_at: float | None = None,
    cycles: float | None = None,
    phi: str | None = None,
    omega: str | None = None,
) -> list[RegimeSpec]:
    """The RegimeSpecs a command's regime options describe (`choice`: a regime name,
    "custom" or "all"), after checking that the options fit together; `BadInput` with
    the option's name otherwise."""
    numbers = {"T": T, "phi0": phi0, "omega0": omega0, "a0": a0, "phi-variation": phi_variation_pct,
               "omega-variation": omega_variation_pct, "rate": rate, "jump-at": jump_at, "cycles": cycles}
    for name, value in numbers.items():
        if value is not None and not np.isfinite(value):
            raise BadInput(f"--{name} must be finite, got {value}")
    names = list(NAMED_REGIMES) if choice == "all" else [choice]
    shape_opts = {"fast": ("rate", rate), "step": ("jump-at", jump_at), "oscillatory": ("cycles", cycles)}
    for regime, (opt, value) in shape_opts.items():
        if value is not None and regime not in names:
            raise BadInput(f"--{opt} applies to the {regime} regime only")
    if choice == "custom":
        if phi is None or omega is None:
            raise BadInput("--regime custom needs both --phi EXPR and --omega EXPR")
        return [RegimeSpec("custom", T=T, a0=a0, phi_formula=phi, omega_formula=omega)]
    if phi is not None or omega is not None:
        raise BadInput("--phi/--omega formulas need --regime custom")
    return [
        RegimeSpec(name, T=T, phi0=phi0, omega0=omega0, phi_variation_pct=phi_variation_pct, omega_variation_pct=omega_variation_pct,
                   shape=shape_opts.get(name, (None, None))[1], a0=a0)
        for name in names
    ]


# ----------------------------------------------------------------------------- bounds


def bound_curves(t: np.ndarray, facts, a0: np.ndarray) -> dict[str, np.ndarray]:
    """The three bounds on |eps(t)| for each member: arrays (N, P) (inf when not
    Lipschitz for thm3 and sharp)."""
    t = np.asarray(t)[None, :]
    C = (np.abs(a0) + np.abs(facts.phi0) / facts.omega0)[:, None]
    Lp, Lw = facts.L_phi[:, None], facts.L_omega[:, None]
    Vp, Vw, wmin = facts.V_phi[:, None], facts.V_omega[:, None], facts.omega_min[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        k = Lp + C * Lw
        thm3 = np.where(np.isfinite(k), k * t**2 * np.exp(Lw * t), np.inf)
        sharp = np.where(np.isfinite(k), k * t**2 / 2, np.inf)
    bv = (Vp + C * Vw) * -np.expm1(-wmin * t) / wmin
    return {"thm3": thm3, "sharp": sharp, "bv": bv}


def variation_bound(v_phi: np.ndarray | float, v_omega: np.ndarray | float) -> np.ndarray:
    """Largest possible relative error (fraction) given the variations (fractions),
    for a0 = 0 and positive gates: (v_phi + v_omega) / (1 - v_phi)."""
    v_phi, v_omega = np.abs(np.asarray(v_phi, float)), np.abs(np.asarray(v_omega, float))
    with np.errstate(divide="ignore"):
        return np.where(v_phi < 1, (v_phi + v_omega) / (1 - v_phi), np.inf)


# ----------------------------------------------------------------------------- runs


@dataclass
class MemberSummary:
    """Per-member reductions over t (arrays of shape (N,)) for every bound."""

    tightness: dict[str, np.ndarray]  # max_t |eps| / bound
    peak_t: dict[str, np.ndarray]  # argmax time of the ratio
    min_slack: dict[str, np.ndarray]  # min_t (bound - |eps| - margin)
    max_excess: dict[str, np.ndarray]  # max_t (|eps| - margin - bound)
    rel_mean_pct: np.ndarray
    rel_max_pct: np.ndarray
    rel_margin_pct: np.ndarray
    max_abs_error: np.ndarray
    max_solver_error: np.ndarray
    phi_variation_pct: np.ndarray
    omega_variation_pct: np.ndarray
    variation_bound_pct: np.ndarray
    variation_applicable: np.ndarray

    @staticmethod
    def concat(parts: list["MemberSummary"]) -> "MemberSummary":
        def cat(values):
            if isinstance(values[0], dict):
                return {k: np.concatenate([v[k] for v in values]) for k in values[0]}
            return np.concatenate(values)

        return MemberSummary(**{f: cat([getattr(p, f) for p in parts]) for f in MemberSummary.__dataclass_fields__})

    def take(self, n: int) -> "MemberSummary":
        def cut(v):
            return {k: a[:n] for k, a in v.items()} if isinstance(v, dict) else v[:n]

        return MemberSummary(**{f: cut(getattr(self, f)) for f in MemberSummary.__dataclass_fields__})


@dataclass(eq=False)
class FrozenErrorRun:
    """One regime instance solved and measured (N = 1 for a single run)."""

    spec: RegimeSpec
    regime: Regime
    options: SolveOptions
    t: np.ndarray
    phi: np.ndarray  # (N, P)
    omega: np.ndarray
    a_varying: np.ndarray
    a_frozen: np.ndarray
    solver_error: np.ndarray  # running max of |a(rtol) - a(rtol/100)|, plus rounding
    bounds: dict[str, np.ndarray]
    summary: MemberSummary
    num_steps: int
    seconds: float

    @functools.cached_property
    def abs_error(self) -> np.ndarray:
        return np.abs(self.a_varying - self.a_frozen)

    @functools.cached_property
    def rel_error(self) -> np.ndarray:
        """Relative error as defined in the module docstring (NaN where excluded)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = self.abs_error / np.abs(self.a_varying)
        rel[:, 0] = np.nan
        rel[np.abs(self.a_varying) < self.options.rel_floor] = np.nan
        return rel

    @functools.cache
    def series(self, member: int = 0) -> dict[str, np.ndarray]:
        """One member's curves over t as 1-D arrays (the same objects on every call,
        so a report stores each once)."""
        out = {
            "t": self.t,
            "phi": self.phi[member],
            "omega": self.omega[member],
            "a_varying": self.a_varying[member],
            "a_frozen": self.a_frozen[member],
            "abs_error": self.abs_error[member],
            "rel_error": self.rel_error[member],
            "solver_error": self.solver_error[member],
        }
        out.update({f"bound_{k}": v[member] for k, v in self.bounds.items()})
        return out


def _evaluate_gates(regime: Regime, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    coeffs = regime.coefficients
    tj = jnp.asarray(t)
    phi = jax.vmap(coeffs.phi)(tj)  # (P, N)
    omega = jax.vmap(coeffs.omega)(tj)
    shape = (regime.size, t.shape[0])
    return np.broadcast_to(np.asarray(phi).T, shape).copy(), np.broadcast_to(np.asarray(omega).T, shape).copy()


def _summarise(regime: Regime, t, phi, omega, a_var, a_frz, margin, bounds, opts: SolveOptions) -> MemberSummary:
    eps = np.abs(a_var - a_frz)[:, 1:]
    m = margin[:, 1:]
    tt = t[1:]
    tightness, peak_t, min_slack, max_excess = {}, {}, {}, {}
    for name, b in bounds.items():
        b = b[:, 1:]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(b > 0, eps / b, np.where(eps > m, np.inf, 0.0))
        ratio = np.where(np.isfinite(b), ratio, 0.0)
        idx = np.argmax(ratio, axis=1)
        tightness[name] = ratio[np.arange(len(idx)), idx]
        peak_t[name] = tt[idx]
        with np.errstate(invalid="ignore"):
            min_slack[name] = np.min(b - eps - m, axis=1)
            max_excess[name] = np.max(eps - m - b, axis=1)
    denom = np.abs(a_var[:, 1:])
    ok = denom >= opts.rel_floor
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(ok, eps / denom, np.nan)
        rel_m = np.where(ok, m / denom, np.nan)
    count = ok.sum(axis=1)
    rel_mean = np.where(count > 0, np.nansum(rel, axis=1) / np.maximum(count, 1), np.nan)
    rel_max = np.where(count > 0, np.nanmax(np.where(ok, rel, -np.inf), axis=1), np.nan)
    rel_marg = np.where(count > 0, np.nanmax(np.where(ok, rel_m, -np.inf), axis=1), np.nan)
    f = regime.facts
    v_phi = f.V_phi / np.abs(f.phi0)
    v_omega = f.V_omega / f.omega0
    a0 = a_var[:, 0]
    applicable = (a0 == 0) & (f.phi0 > 0) & (np.min(phi, axis=1) > 0) & (v_phi < 1) & (v_omega < 1)
    measured_vphi = 100 * np.max(np.abs(phi - phi[:, :1]), axis=1) / np.abs(phi[:, 0])
    measured_vomega = 100 * np.max(np.abs(omega - omega[:, :1]), axis=1) / omega[:, 0]
    return MemberSummary(
        tightness=tightness,
        peak_t=peak_t,
        min_slack=min_slack,
        max_excess=max_excess,
        rel_mean_pct=100 * rel_mean,
        rel_max_pct=100 * rel_max,
        rel_margin_pct=100 * rel_marg,
        max_abs_error=np.max(eps, axis=1),
        max_solver_error=np.max(m, axis=1),
        phi_variation_pct=measured_vphi,
        omega_variation_pct=measured_vomega,
        variation_bound_pct=100 * variation_bound(v_phi, v_omega),
        variation_applicable=applicable,
    )


def _solve_pair_backend(regime: Regime, t: np.ndarray, opts: SolveOptions):
    """`_solve_pair` with another backend of nacverify.solvers (EnvironmentProblem if missing)."""
    from .solvers import EnsembleSolution, nac_problem, require_backend

    backend = require_backend(opts.backend)
    problem = nac_problem(regime, t)
    pair = []
    for factor in (1.0, TIGHTER_FACTOR):
        sol = backend.solve(problem, rtol=opts.rtol / factor, atol=opts.atol / factor, estimate_error=False)
        pair.append(EnsembleSolution(t, sol.ys, sol.num_steps, max(sol.num_rejected, 0)))
    return tuple(pair)


def _solve_pair(regime: Regime, t: np.ndarray, opts: SolveOptions):
    if opts.backend != "diffrax":
        return _solve_pair_backend(regime, t, opts)
    a0 = regime.params["a0"]
    jumps = regime.facts.jump_ts
    first = solve_ensemble(regime.coefficients, a0, t, rtol=opts.rtol, atol=opts.atol, jump_ts=jumps)
    tight = solve_ensemble(
        regime.coefficients, a0, t, rtol=opts.rtol / TIGHTER_FACTOR, atol=opts.atol / TIGHTER_FACTOR, jump_ts=jumps
    )
    return first, tight


def _measure(spec: RegimeSpec, regime: Regime, opts: SolveOptions, t: np.ndarray, first, tight, seconds: float) -> FrozenErrorRun:
    a0 = regime.params["a0"]
    a_var = first.ys
    a_frz = np.asarray(frozen_solution(t[None, :], a0[:, None], regime.facts.phi0[:, None], regime.facts.omega0[:, None]))
    margin = solver_margin(first.ys, tight.ys, opts.rtol / TIGHTER_FACTOR, opts.atol / TIGHTER_FACTOR) + ROUNDING * np.abs(a_frz)
    margin[:, 0] = 0.0  # a(0) = a0 exactly in both
    phi, omega = _evaluate_gates(regime, t)
    bounds = bound_curves(t, regime.facts, a0)
    summary = _summarise(regime, t, phi, omega, a_var, a_frz, margin, bounds, opts)
    return FrozenErrorRun(spec, regime, opts, t, phi, omega, a_var, a_frz, margin, bounds, summary, first.num_steps, seconds)


def run_frozen_error(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> FrozenErrorRun:
    """Solve one regime instance at `opts` and at 100x tighter tolerances, and measure."""
    regime = spec.build()
    t = np.linspace(0.0, regime.T, opts.points)
    start = time.perf_counter()
    first, tight = _solve_pair(regime, t, opts)
    return _measure(spec, regime, opts, t, first, tight, time.perf_counter() - start)


_RUN_CACHE: dict[tuple, FrozenErrorRun] = {}


def cached_run(spec: RegimeSpec, opts: SolveOptions = SolveOptions()) -> FrozenErrorRun:
    key = (spec, opts)
    if key not in _RUN_CACHE:
        _RUN_CACHE[key] = run_frozen_error(spec, opts)
    return _RUN_CACHE[key]


# ----------------------------------------------------------------------------- sweeps


@dataclass
class SweepRun:
    """N random members of a named family, reduced per member (no trajectories kept),
    plus the worst member re-run singly for its trajectory."""

    regime_name: str
    T: float
    n_requested: int
    seed: int
    options: SolveOptions
    params: dict[str, np.ndarray]
    summary: MemberSummary
    complete: bool
    solve_seconds: float  # primary solves only, compile excluded
    verify_seconds: float  # the 100x tighter solves
    compile_seconds: float
    total_seconds: float  # the whole sweep after compiling: both solves and the analysis
    chunk: int
    num_steps_max: int
    worst: dict[str, int] = field(default_factory=dict)  # bound -> member index of max tightness

    @property
    def n_done(self) -> int:
        return int(self.summary.rel_max_pct.shape[0]) if self.summary is not None else 0

    @property
    def trajectories_per_second(self) -> float:
        """Primary diffrax solves only (1001 saved points each), compile excluded."""
        return self.n_done / self.solve_seconds if self.solve_seconds > 0 else float("nan")

    @property
    def end_to_end_per_second(self) -> float:
        """Everything after the compile: both solves and the per-draw analysis."""
        return self.n_done / self.total_seconds if self.total_seconds > 0 else float("nan")


def _slice_regime(regime: Regime, lo: int, hi: int, pad_to: int) -> Regime:
    """Members lo:hi of a sampled regime, padded (by repeating the last) to `pad_to`."""
    idx = np.arange(lo, hi)
    if len(idx) < pad_to:
        idx = np.concatenate([idx, np.full(pad_to - len(idx), hi - 1)])
    p = regime.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    sub = named_regime(
        regime.name,
        T=regime.T,
        phi0=p["phi0"][idx],
        omega0=p["omega0"][idx],
        phi_variation_pct=100 * p["phi_amp"][idx],
        omega_variation_pct=100 * p["omega_amp"][idx],
        shape=p[shape_key][idx] if shape_key else np.zeros(len(idx)),
        a0=float(p["a0"][0]),
    )
    if regime.name == "step":  # one fixed set of possible jumps: no recompiles between chunks
        facts = sub.facts
        sub = Regime(sub.name, sub.T, sub.coefficients, type(facts)(**{**facts.__dict__, "jump_ts": tuple(STEP_GRID * regime.T)}), sub.params, sub.description)
    return sub


def run_sweep(
    name: str,
    n: int,
    seed: int,
    *,
    T: float = 1.0,
    a0: float = 0.0,
    opts: SolveOptions = SolveOptions(),
    chunk: int = 2000,
    progress: Callable[[int, int], None] | None = None,
) -> SweepRun:
    """Draw `n` members of family `name` with `seed` and solve them in chunks of
    `chunk` members (one compiled solve, reused). `progress(done, total)` is called
    after each chunk. On KeyboardInterrupt raises `Interrupted` whose `partial` is the
    SweepRun of the finished chunks (complete=False)."""
    regime = sample_regime(name, n, seed, T=T, a0=a0)
    t = np.linspace(0.0, T, opts.points)
    chunk = max(1, min(chunk, n))
    parts: list[MemberSummary] = []
    solve_s = verify_s = compile_s = 0.0
    loop_start = time.perf_counter()
    steps = 0
    spec = RegimeSpec(name, T=T, a0=a0)

    def result(complete: bool) -> SweepRun:
        summary = MemberSummary.concat(parts) if parts else None
        worst = {} if summary is None else {b: int(np.argmax(summary.tightness[b])) for b in BOUNDS}
        done = summary.rel_max_pct.shape[0] if summary is not None else 0
        params = {k: v[:done] for k, v in regime.params.items()}
        return SweepRun(name, T, n, seed, opts, params, summary, complete, solve_s, verify_s, compile_s, time.perf_counter() - loop_start, chunk, steps, worst)

    try:
        warm = _slice_regime(regime, 0, min(chunk, n), chunk)
        start = time.perf_counter()
        _solve_pair(warm, t, opts)  # compile both tolerances once (same shapes for every chunk)
        compile_s = time.perf_counter() - start
        loop_start = time.perf_counter()
        for lo in range(0, n, chunk):
            hi = min(lo + chunk, n)
            sub = _slice_regime(regime, lo, hi, chunk)
            a0s = sub.params["a0"]
            t0 = time.perf_counter()
            first = solve_ensemble(sub.coefficients, a0s, t, rtol=opts.rtol, atol=opts.atol, jump_ts=sub.facts.jump_ts)
            t1 = time.perf_counter()
            tight = solve_ensemble(
                sub.coefficients, a0s, t, rtol=opts.rtol / TIGHTER_FACTOR, atol=opts.atol / TIGHTER_FACTOR, jump_ts=sub.facts.jump_ts
            )
            t2 = time.perf_counter()
            solve_s += t1 - t0
            verify_s += t2 - t1
            steps = max(steps, first.num_steps)
            run = _measure(spec, sub, opts, t, first, tight, t2 - t0)
            parts.append(run.summary.take(hi - lo))
            if progress is not None:
                progress(hi, n)
    except KeyboardInterrupt as exc:
        raise Interrupted(f"sweep of {name} interrupted after {sum(p.rel_max_pct.shape[0] for p in parts)} of {n} draws", result(False)) from exc
    return result(True)


def member_spec(sweep: SweepRun, index: int) -> RegimeSpec:
    """The RegimeSpec of one sweep member (to re-run the witness singly)."""
    p = sweep.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    return RegimeSpec(
        sweep.regime_name,
        T=sweep.T,
        phi0=float(p["phi0"][index]),
        omega0=float(p["omega0"][index]),
        phi_variation_pct=float(100 * p["phi_amp"][index]),
        omega_variation_pct=float(100 * p["omega_amp"][index]),
        shape=float(p[shape_key][index]) if shape_key else None,
        a0=float(p["a0"][index]),
    )


# ----------------------------------------------------------------------------- verdicts


def _member_verdicts(summary: MemberSummary, bound: str) -> tuple[np.ndarray, np.ndarray]:
    refuted = summary.max_excess[bound] > 0
    holds = summary.min_slack[bound] >= 0
    return refuted, holds


def bound_outcome(bound: str, summary: MemberSummary, lipschitz: bool, params: dict[str, np.ndarray], options: SolveOptions) -> Outcome:
    """Verdict of one bound over every member of a run or sweep.

    holds: for every member and every t > 0, |eps| + margin <= bound (margin = the
    solver's own error estimate). refuted: some member has |eps| - margin > bound
    (witness kept). inconclusive otherwise. inapplicable: thm3/sharp on a
    non-Lipschitz regime."""
    n = summary.rel_max_pct.shape[0]
    if bound in ("thm3", "sharp") and not lipschitz:
        return Outcome(
            Verdict.INAPPLICABLE,
            "coefficients are not Lipschitz (a jump inside the window): Theorem 3's assumption fails",
        )
    refuted, holds = _member_verdicts(summary, bound)
    worst = int(np.argmax(summary.tightness[bound]))
    witness = {k: (float(v[worst]) if np.asarray(v).dtype.kind in "fi" else str(v[worst])) for k, v in params.items()}
    scalars = {
        "members": n,
        "max_tightness": float(summary.tightness[bound][worst]),
        "peak_t": float(summary.peak_t[bound][worst]),
        "min_slack": float(np.min(summary.min_slack[bound])),
        "max_solver_error": float(np.max(summary.max_solver_error)),
        "members_refuted": int(refuted.sum()),
        "members_inconclusive": int((~refuted & ~holds).sum()),
        "rtol": options.rtol,
        "atol": options.atol,
    }
    tight = f"|eps|/bound <= {scalars['max_tightness']:.4g} (t={scalars['peak_t']:.3g})"
    if refuted.any():
        i = int(np.argmax(summary.max_excess[bound]))
        witness = {k: (float(v[i]) if np.asarray(v).dtype.kind in "fi" else str(v[i])) for k, v in params.items()}
        witness["excess"] = float(summary.max_excess[bound][i])
        return Outcome(Verdict.REFUTED, f"|eps| exceeds the bound by {witness['excess']:.3g} beyond the solver margin; {tight}", Evidence(scalars=scalars, witness=witness))
    if holds.all():
        return Outcome(Verdict.HOLDS, f"{tight}; slack {scalars['min_slack']:.2g} beyond solver err {scalars['max_solver_error']:.1g}" + (f"; {n} draws" if n > 1 else ""), Evidence(scalars=scalars, witness=witness))
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{scalars['members_inconclusive']} member(s) within the solver margin of the bound; {tight}",
        Evidence(scalars=scalars, witness=witness),
    )


def variation_bound_outcome(summary: MemberSummary, params: dict[str, np.ndarray]) -> Outcome:
    """The derived bound r(t) <= (v_phi + v_omega)/(1 - v_phi) on every applicable member."""
    app = summary.variation_applicable
    if not app.any():
        return Outcome(Verdict.INAPPLICABLE, "needs a0 = 0 and phi > 0 (NAC's setting) and variations < 100%")
    ratio = np.where(app, summary.rel_max_pct / summary.variation_bound_pct, -np.inf)
    excess = np.where(app, summary.rel_max_pct - summary.rel_margin_pct - summary.variation_bound_pct, -np.inf)
    slack = np.where(app, summary.variation_bound_pct - summary.rel_max_pct - summary.rel_margin_pct, np.inf)
    worst = int(np.argmax(ratio))
    witness = {k: (float(v[worst]) if np.asarray(v).dtype.kind in "fi" else str(v[worst])) for k, v in params.items()}
    scalars = {
        "members": int(app.sum()),
        "max_ratio": float(ratio[worst]),
        "rel_max_pct_at_worst": float(summary.rel_max_pct[worst]),
        "bound_pct_at_worst": float(summary.variation_bound_pct[worst]),
        "min_slack_pct": float(np.min(slack)),
    }
    if (excess > 0).any():
        return Outcome(Verdict.REFUTED, f"relative error exceeds the variation bound (ratio {scalars['max_ratio']:.4g})", Evidence(scalars=scalars, witness=witness))
    if (slack >= 0).all():
        return Outcome(
            Verdict.HOLDS,
            f"rel. error / variation bound <= {scalars['max_ratio']:.4g}" + (f"; {scalars['members']} draws" if scalars["members"] > 1 else ""),
            Evidence(scalars=scalars, witness=witness),
        )
    return Outcome(Verdict.INCONCLUSIVE, "relative error within the solver margin of the variation bound", Evidence(scalars=scalars, witness=witness))


@dataclass(frozen=True)
class Table2Row:
    regime: str
    mean_pct: float
    max_pct: float
    phi_variation_pct: float
    omega_variation_pct: float


def paper_table2() -> dict[str, Table2Row]:
    """Seed 000 Table 2 as printed (shipped in nacverify/data)."""
    text = resources.files("nacverify.data").joinpath("paper_table2_frozen_error.csv").read_text()
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return {
        r["regime"]: Table2Row(r["regime"], float(r["mean_pct"]), float(r["max_pct"]), float(r["phi_variation_pct"]), float(r["omega_variation_pct"]))
        for r in rows
    }


REPRODUCE_RTOL = 0.10  # a row is reproduced when measured mean and max are within 10% of the paper's


def table2_row_outcome(run: FrozenErrorRun) -> Outcome:
    """Compare one Table 2 row with the measurement and with what the variations allow.

    refuted: the row is internally impossible (mean > max), or its errors exceed the
    variation bound evaluated at its own variations (NAC's setting a0 = 0, gates > 0).
    holds: measured mean and max within 10% of the paper's. inconclusive: the row is
    possible but our regime family does not reproduce it (the paper does not define its
    regimes, so a mismatch alone refutes nothing)."""
    paper = paper_table2()[run.regime.name]
    s = run.summary
    bound_pct = float(100 * variation_bound(paper.phi_variation_pct / 100, paper.omega_variation_pct / 100))
    scalars = {
        "paper_mean_pct": paper.mean_pct,
        "paper_max_pct": paper.max_pct,
        "paper_phi_variation_pct": paper.phi_variation_pct,
        "paper_omega_variation_pct": paper.omega_variation_pct,
        "measured_mean_pct": float(s.rel_mean_pct[0]),
        "measured_max_pct": float(s.rel_max_pct[0]),
        "measured_phi_variation_pct": float(s.phi_variation_pct[0]),
        "measured_omega_variation_pct": float(s.omega_variation_pct[0]),
        "variation_bound_pct": bound_pct,
    }
    ev = Evidence(scalars=scalars)
    measured = f"measured {scalars['measured_mean_pct']:.3g}% / {scalars['measured_max_pct']:.3g}% (mean / max)"
    problems = []
    if paper.mean_pct > paper.max_pct:
        problems.append(f"mean {paper.mean_pct}% > max {paper.max_pct}%")
    if max(paper.mean_pct, paper.max_pct) > bound_pct:
        problems.append(
            f"variations {paper.phi_variation_pct}% / {paper.omega_variation_pct}% allow at most {bound_pct:.3g}%, "
            f"paper prints {max(paper.mean_pct, paper.max_pct)}%"
        )
    if problems:
        return Outcome(Verdict.REFUTED, "; ".join(problems) + f"; {measured}", ev)
    close = all(abs(m - p) <= REPRODUCE_RTOL * p for m, p in ((scalars["measured_mean_pct"], paper.mean_pct), (scalars["measured_max_pct"], paper.max_pct)))
    if close:
        return Outcome(Verdict.HOLDS, f"reproduced: {measured} vs paper {paper.mean_pct}% / {paper.max_pct}%", ev)
    return Outcome(Verdict.INCONCLUSIVE, f"possible but not reproduced by this regime family: {measured} vs paper {paper.mean_pct}% / {paper.max_pct}%", ev)


AVERAGE_TOL = 0.01  # printed values carry 2 decimals: rounding of inputs and output


def table2_average_outcome() -> Outcome:
    """The 'Average' row equals the column means of the four regime rows (to rounding)."""
    table = paper_table2()
    rows = [table[r] for r in NAMED_REGIMES]
    avg = table["average"]
    scalars: dict[str, float] = {}
    bad = []
    for col in ("mean_pct", "max_pct", "phi_variation_pct", "omega_variation_pct"):
        mean = float(np.mean([getattr(r, col) for r in rows]))
        printed = getattr(avg, col)
        scalars[f"{col}_column_mean"] = mean
        scalars[f"{col}_printed"] = printed
        if abs(mean - printed) > AVERAGE_TOL:
            bad.append(f"{col}: printed {printed} vs column mean {mean:.4g}")
    if bad:
        return Outcome(Verdict.REFUTED, "; ".join(bad), Evidence(scalars=scalars))
    return Outcome(Verdict.HOLDS, "every column of the Average row is the mean of the four rows", Evidence(scalars=scalars))


# ----------------------------------------------------------------------------- scipy baseline


def scipy_baseline(sweep_regime: Regime, t: np.ndarray, opts: SolveOptions, n: int, method: str = "DOP853") -> tuple[float, np.ndarray]:
    """Solve the first `n` members one by one with scipy.integrate.solve_ivp (the
    baseline the sweep's speed is compared with). Returns (trajectories per second,
    the solutions (n, P))."""
    from scipy.integrate import solve_ivp

    from .regimes import shape_function

    p = sweep_regime.params
    shape_key = next((k for k in ("rate", "jump_at", "cycles") if k in p), None)
    out = np.empty((n, t.shape[0]))
    start = time.perf_counter()
    for i in range(n):
        phi0, omega0, ap, aw = p["phi0"][i], p["omega0"][i], p["phi_amp"][i], p["omega_amp"][i]
        shape = p[shape_key][i] if shape_key else 0.0
        g = shape_function(sweep_regime.name, sweep_regime.T, shape)

        def rhs(s, a, phi0=phi0, omega0=omega0, ap=ap, aw=aw, g=g):
            gs = g(s)
            return -omega0 * (1 + aw * gs) * a + phi0 * (1 + ap * gs)

        y0 = [p["a0"][i]]
        if sweep_regime.name == "step":  # integrate the two smooth pieces separately
            tj = shape * sweep_regime.T
            left, right = t[t < tj], t[t >= tj]
            s1 = solve_ivp(rhs, (t[0], tj), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=np.append(left, tj))
            s2 = solve_ivp(rhs, (tj, t[-1]), s1.y[:, -1], method=method, rtol=opts.rtol, atol=opts.atol, t_eval=right)
            out[i] = np.concatenate([s1.y[0, :-1], s2.y[0]])
        else:
            out[i] = solve_ivp(rhs, (t[0], t[-1]), y0, method=method, rtol=opts.rtol, atol=opts.atol, t_eval=t).y[0]
    return n / (time.perf_counter() - start), out
