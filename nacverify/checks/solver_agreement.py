r"""Claim `solvers.agree.<problem>`: independent solvers give the same solution.

For a `Problem` solved by backends $a, b, \dots$ at the default tolerances
(rtol $10^{-12}$, atol $10^{-14}$; mpmath at 20 digits), every pair's relative discrepancy
$d_{ab}$ (`nacverify.solvers.base`) must be at most $10^{-9}$. Problems with jumps (the step
regime, irregular inputs) are integrated with the jumps handled: diffrax stops at each jump
(`jump_ts`), the other backends integrate piece by piece.

Verdicts: **holds** when every pair has $d_{ab} \le 10^{-9}$; **inconclusive** when a pair
exceeds $10^{-9}$ but the two solvers' own error estimates could explain it,
$d_{ab} \le 10\,(\hat e_a + \hat e_b)/\mathrm{scale}$ (tighten the tolerances); **refuted** when
a pair differs by more than its tolerance and more than ten times its error estimates (a
witness names the pair, component and time). The factor 10 (`ESTIMATE_SAFETY`) is there
because a two-tolerance estimate measures an error's order of magnitude, not a bound: at
loose tolerances DOP853's estimate was measured 10% below its actual error.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..errors import BadInput
from ..solvers import Discrepancy, Solution, get_backend, pairwise, require_backend
from ..solvers.mpmath_backend import MpmathBackend
from ..solvers.problem import SEED002, Problem, ltc_as_problem, nac_problem

__all__ = [
    "ltc_agreement_problem",
    "stiff_ltc_problem",
    "stiff_agreement_outcome",
    "STIFF_TAU_RANGES",
    "AGREE_TOLERANCE",
    "DEFAULT_RTOL",
    "DEFAULT_ATOL",
    "DEFAULT_BACKENDS",
    "SolveRun",
    "solve_with",
    "agreement_outcome",
    "agreement_claim",
    "default_problems",
]

AGREE_TOLERANCE = 1e-9
DEFAULT_RTOL = 1e-12
DEFAULT_ATOL = 1e-14
DEFAULT_BACKENDS = ("diffrax", "scipy", "mpmath")
ESTIMATE_SAFETY = 10.0


@dataclass(frozen=True, eq=False)
class SolveRun:
    problem: Problem
    solutions: list[Solution]
    discrepancies: list[Discrepancy]
    rtol: float
    atol: float
    seconds: float


def solve_with(
    problem: Problem,
    backends: Sequence[str],
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    methods: dict[str, str] | None = None,
    mp_dps: int | None = None,
    estimate_error: bool = True,
    progress: Callable[[str], None] | None = None,
) -> SolveRun:
    """Solve `problem` with every backend in `backends` (checked for availability first:
    a missing one raises EnvironmentProblem before anything is solved)."""
    resolved = [require_backend(name) for name in backends]
    methods = dict(methods or {})
    for name in methods:
        if name not in backends:
            raise BadInput(f"--method {name}=... names a backend that is not in --backend")
    start = time.perf_counter()
    solutions = []
    for backend in resolved:
        if isinstance(backend, MpmathBackend) and mp_dps is not None:
            backend = backend.configured(dps=mp_dps)
        solutions.append(backend.solve(problem, rtol=rtol, atol=atol, method=methods.get(backend.name), estimate_error=estimate_error))
        if progress is not None:
            progress(backend.name)
    return SolveRun(problem, solutions, pairwise(solutions), rtol, atol, time.perf_counter() - start)


def agreement_outcome(run: SolveRun, tolerance: float = AGREE_TOLERANCE) -> Outcome:
    """The verdict of the module docstring, with the pairwise numbers as evidence."""
    if len(run.solutions) < 2:
        raise BadInput("agreement needs at least two backends")
    pairs = run.discrepancies
    worst = max(pairs, key=lambda d: d.relative)
    scalars: dict[str, float | int | str] = {
        "tolerance": tolerance,
        "rtol": run.rtol,
        "atol": run.atol,
        "max_relative_discrepancy": worst.relative,
        "worst_pair": f"{worst.a}-{worst.b}",
    }
    for d in pairs:
        scalars[f"relative_{d.a}_{d.b}"] = d.relative
        scalars[f"absolute_{d.a}_{d.b}"] = d.absolute
    for s in run.solutions:
        scalars[f"error_estimate_{s.backend}"] = s.max_error_estimate
        scalars[f"seconds_{s.backend}"] = s.seconds
        scalars[f"steps_{s.backend}"] = s.num_steps
    arrays = {"t": run.problem.ts, **{f"y_{s.backend}": s.ys for s in run.solutions}}
    arrays.update({f"relative_{d.a}_{d.b}": d.per_component for d in pairs})
    witness = {"pair": f"{worst.a}-{worst.b}", "component": worst.component, "t": worst.t, "relative": worst.relative, "explained_by_estimates": worst.estimate}
    jumps = f"; jumps at t = {', '.join(f'{b:.6g}' for b in run.problem.breaks)} handled" if run.problem.breaks else ""
    names = ", ".join(s.backend for s in run.solutions)
    if worst.relative <= tolerance:
        return Outcome(
            Verdict.HOLDS,
            f"{names}: max pairwise relative discrepancy {worst.relative:.2e} ({worst.a}-{worst.b}) <= {tolerance:g}{jumps}",
            Evidence(arrays=arrays, scalars=scalars, witness=witness),
        )
    beyond = [d for d in pairs if d.relative > tolerance and d.relative > ESTIMATE_SAFETY * d.estimate]
    if not beyond:
        return Outcome(
            Verdict.INCONCLUSIVE,
            f"{worst.a}-{worst.b} differ by {worst.relative:.2e} > {tolerance:g}, which {ESTIMATE_SAFETY:g}x the solvers' own error "
            f"estimates ({worst.estimate:.2e}) could explain; tighten --rtol/--atol",
            Evidence(arrays=arrays, scalars=scalars, witness=witness),
        )
    bad = max(beyond, key=lambda d: d.relative)
    witness = {"pair": f"{bad.a}-{bad.b}", "component": bad.component, "t": bad.t, "relative": bad.relative, "explained_by_estimates": bad.estimate}
    return Outcome(
        Verdict.REFUTED,
        f"{bad.a}-{bad.b} differ by {bad.relative:.2e} (component {bad.component}, t = {bad.t:.6g}), more than {tolerance:g} "
        f"and than {ESTIMATE_SAFETY:g}x their error estimates ({bad.estimate:.2e})",
        Evidence(arrays=arrays, scalars=scalars, witness=witness),
    )


def agreement_claim(problem: Problem, run_for: Callable[[CheckContext], SolveRun], backends: Sequence[str]) -> Claim:
    jump = " (jumps of the vector field handled)" if problem.breaks else ""
    return Claim(
        id=f"solvers.agree.{problem.id}",
        source=problem.source,
        statement=f"{', '.join(backends)} solve {problem.description} to a pairwise relative discrepancy <= {AGREE_TOLERANCE:g}{jump}",
        assumptions=f"rtol {DEFAULT_RTOL:g}, atol {DEFAULT_ATOL:g} (defaults), mpmath at 20 digits (skipped for LTC problems under --quick); "
        "vector field smooth between known jumps",
        expected=Verdict.HOLDS,
        expected_reason="independent implementations of the same vector field, each far more accurate than 1e-9 at these tolerances",
        check=lambda ctx: agreement_outcome(run_for(ctx)),
        group="solvers",
        kind=Kind.LEMMA,  # the suite's own cross-check of its solvers; no document states it
    )


_F_SOURCE = {
    "sigmoid": "f = sigma(gamma_r x + gamma I + mu) (line 150, 'f = sigma(gamma_r x + gamma I + mu)')",
    "tanh": "f = tanh(gamma_r x + gamma I + mu) as eq. 9a (line 191)",
}


def ltc_agreement_problem(ltc, points: int = 201, ts=None, *, suffix: str = "") -> Problem:
    """`ltc_as_problem` with an id that carries the abstract form's activation
    (``ltc.abstract.<activation>.<input>``) and a source that names the f actually used."""
    problem = ltc_as_problem(ltc, ts=ts, points=points)
    if ltc.form != "abstract":
        return problem
    act = ltc.params["activation"]
    return dataclasses.replace(problem, id=f"ltc.abstract.{act}.{ltc.params['input']}{suffix}",
                               source=f"{SEED002}, eq. 7 (2021 eq. 1), '-[1/tau + f] x + f A', with {_F_SOURCE[act]}")


def default_problems() -> list[Problem]:
    """The four named regimes (Table 2 defaults) and the four seeded LTC problems."""
    from ..ltc import ltc_problem
    from ..regimes import NAMED_REGIMES, named_regime

    problems = [nac_problem(named_regime(name)) for name in NAMED_REGIMES]
    problems += [ltc_agreement_problem(ltc_problem(form, input_kind=kind)) for form in ("abstract", "biophysical") for kind in ("smooth", "irregular")]
    return problems


_RUNS: dict[tuple, SolveRun] = {}


def _default_claims():
    for problem in default_problems():

        def run_for(ctx: CheckContext, problem=problem) -> SolveRun:
            key = (problem.id, ctx.quick)
            if key not in _RUNS:
                available = [n for n in DEFAULT_BACKENDS if get_backend(n).availability().available]
                if ctx.quick and problem.kind == "ltc":  # --quick: the mpmath oracle only for the cheap NAC problems
                    available = [n for n in available if n != "mpmath"]
                _RUNS[key] = solve_with(problem, available, estimate_error=not ctx.quick)
            return _RUNS[key]

        yield agreement_claim(problem, run_for, DEFAULT_BACKENDS)
    yield from _stiff_claims()


# ----------------------------------------------------------------------------- stiff LTC cross-checks

#: tau range of the stiff cross-checks (log-uniform per neuron): from 002's smallest tau (table 12: 0.001) a decade down.
STIFF_TAU_RANGE = (1e-4, 1e-3)
STIFF_RTOL, STIFF_ATOL = 1e-7, 1e-12
REFERENCE_RTOL, REFERENCE_ATOL = 1e-10, 1e-14
STIFF_SAFETY = 10.0
STIFF_LOOSEST = 1e-4
STIFF_CASES = (("sigmoid", "irregular"), ("tanh", "smooth"))


def stiff_ltc_problem(activation: str, input_kind: str, tau_range: tuple[float, float] = STIFF_TAU_RANGE, *, seed: int = 0, neurons: int = 4,
                      inputs: int = 2, T: float = 0.25, points: int = 26, name: str = "stiff") -> Problem:
    """A seeded abstract LTC (`nacverify.ltc`) with every tau log-uniform in `tau_range`,
    as a solver problem with id ``ltc.abstract.<activation>.<input>.<name>``."""
    from ..ltc import LTCProblem, irregular_input, random_abstract_ltc, smooth_input

    model = random_abstract_ltc(neurons, inputs, seed, activation=activation, tau_range=tau_range)
    signal = smooth_input(inputs, seed, T=T) if input_kind == "smooth" else irregular_input(inputs, seed, T=T, events=5)
    params = {"neurons": neurons, "inputs": inputs, "input": input_kind, "activation": activation, "seed": seed,
              "tau_range": f"[{tau_range[0]:g}, {tau_range[1]:g}]"}
    ltc = LTCProblem("abstract", model, signal, np.zeros(neurons), float(T), params)
    problem = ltc_agreement_problem(ltc, points=points, suffix=f".{name}")
    return dataclasses.replace(problem, description=f"{problem.description}, tau log-uniform in [{tau_range[0]:g}, {tau_range[1]:g}] "
                                                    f"(T/tau up to {T / tau_range[0]:.0e})")


def stiff_agreement_outcome(solutions: Sequence[Solution], reference: Solution) -> Outcome:
    r"""Each implicit solution against the reference: relative discrepancy $d$ (as in
    `nacverify.solvers.base`, per component scaled by its sup norm) within the tolerance the
    error estimates give, $\mathrm{tol} = 10\,(\hat e + \hat e_{ref})/\mathrm{scale}$ (`STIFF_SAFETY`),
    floored at $10^{-12}$; $\hat e$ is the solver's two-tolerance estimate and, for the
    reference (solved once, 1000x tighter), $\hat e_{ref} = \mathrm{rtol}_{ref} \max|y| + \mathrm{atol}_{ref}$.
    holds: every $d \le \mathrm{tol}$ and every tol $\le$ `STIFF_LOOSEST` ($10^{-4}$, 1000 rtol:
    components of size ~1e-5 make atol-level errors large relative to their scale);
    refuted: some $d > \mathrm{tol}$; inconclusive: the estimates are too loose to decide."""
    from ..solvers import discrepancy

    if reference.error_estimate is None:
        reference = dataclasses.replace(reference, error_estimate=reference.rtol * np.max(np.abs(reference.ys), axis=1) + reference.atol)
    pairs = [discrepancy(s, reference) for s in solutions]
    tols = [max(STIFF_SAFETY * d.estimate, 1e-12) for d in pairs]
    scalars: dict = {"safety": STIFF_SAFETY, "rtol": solutions[0].rtol, "atol": solutions[0].atol, "reference_rtol": reference.rtol,
                     "reference_method": f"{reference.backend} {reference.method}"}
    for s, d, tol in zip(solutions, pairs, tols):
        tag = f"{s.backend}_{s.method}"
        scalars[f"relative_{tag}"] = d.relative
        scalars[f"tolerance_{tag}"] = tol
        scalars[f"error_estimate_{tag}"] = s.max_error_estimate
        scalars[f"steps_{tag}"] = s.num_steps
    scalars["error_estimate_reference"] = reference.max_error_estimate
    arrays = {"t": reference.ts, "y_reference": reference.ys, **{f"y_{s.backend}_{s.method}": s.ys for s in solutions}}
    parts = ", ".join(f"{s.backend} {s.method} {d.relative:.2e} (tol {tol:.1e}, {s.num_steps} steps)" for s, d, tol in zip(solutions, pairs, tols))
    bad = [(s, d, tol) for s, d, tol in zip(solutions, pairs, tols) if d.relative > tol]
    if bad:
        s, d, tol = max(bad, key=lambda x: x[1].relative / x[2])
        witness = {"solver": f"{s.backend} {s.method}", "component": d.component, "t": d.t, "relative": d.relative, "tolerance": tol}
        return Outcome(Verdict.REFUTED, f"against {reference.backend} {reference.method} at rtol {reference.rtol:g}: {parts}; "
                       f"{s.backend} {s.method} differs beyond {STIFF_SAFETY:g}x the error estimates", Evidence(arrays, scalars, witness))
    if max(tols) > STIFF_LOOSEST:
        return Outcome(Verdict.INCONCLUSIVE, f"error estimates too loose to decide (largest tolerance {max(tols):.1e} > {STIFF_LOOSEST:g}): {parts}",
                       Evidence(arrays, scalars))
    return Outcome(Verdict.HOLDS, f"against {reference.backend} {reference.method} at rtol {reference.rtol:g}: {parts}", Evidence(arrays, scalars))


def _stiff_claims():
    for activation, input_kind in STIFF_CASES:
        problem = stiff_ltc_problem(activation, input_kind)

        def check(ctx: CheckContext, activation=activation, input_kind=input_kind) -> Outcome:
            # --quick: a shorter window (T/tau up to 1e3 instead of 2.5e3), same tolerances and verdict rule
            prob = stiff_ltc_problem(activation, input_kind, T=0.1 if ctx.quick else 0.25, points=11 if ctx.quick else 26)
            diffrax_b, scipy_b = require_backend("diffrax"), require_backend("scipy")
            sols = [diffrax_b.solve(prob, rtol=STIFF_RTOL, atol=STIFF_ATOL, method="Kvaerno5"),
                    scipy_b.solve(prob, rtol=STIFF_RTOL, atol=STIFF_ATOL, method="LSODA")]
            reference = scipy_b.solve(prob, rtol=REFERENCE_RTOL, atol=REFERENCE_ATOL, method="Radau", estimate_error=False)
            return stiff_agreement_outcome(sols, reference)

        yield Claim(
            id=f"solvers.agree.{problem.id}",
            source=problem.source + "; table 12 line 407, tau 'Typical Range' '[0.001, 10.0]'",
            statement=f"implicit solvers diffrax Kvaerno5 and scipy LSODA (BDF when stiff) at rtol {STIFF_RTOL:g} agree with an independent "
                      f"reference, scipy Radau at rtol {REFERENCE_RTOL:g}, on {problem.description}, to within {STIFF_SAFETY:g}x the sum of "
                      "their error estimates (relative to each component's sup norm; measured tolerances ~1e-6)",
            assumptions=f"atol {STIFF_ATOL:g} (reference {REFERENCE_ATOL:g}); a solver's error estimate from a second solve at 100x tighter "
                        "tolerances, the reference's as rtol_ref max|y| + atol_ref; T = 0.25 (0.1 under --quick); jumps of an irregular input "
                        "handled piece by piece; verdict inconclusive when the resulting tolerance exceeds 1e-4",
            expected=Verdict.HOLDS,
            expected_reason="three independent implicit integrators of the same vector field; measured discrepancies ~1e-7 against "
                            "tolerances ~1e-5 from the estimates",
            check=check,
            group="solvers",
            kind=Kind.LEMMA,
        )


add_provider(_default_claims)
