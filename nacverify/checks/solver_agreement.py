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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..errors import BadInput
from ..solvers import Discrepancy, Solution, get_backend, pairwise, require_backend
from ..solvers.mpmath_backend import MpmathBackend
from ..solvers.problem import Problem, ltc_as_problem, nac_problem

__all__ = [
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


def default_problems() -> list[Problem]:
    """The four named regimes (Table 2 defaults) and the four seeded LTC problems."""
    from ..ltc import ltc_problem
    from ..regimes import NAMED_REGIMES, named_regime

    problems = [nac_problem(named_regime(name)) for name in NAMED_REGIMES]
    problems += [ltc_as_problem(ltc_problem(form, input_kind=kind)) for form in ("abstract", "biophysical") for kind in ("smooth", "irregular")]
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


add_provider(_default_claims)
