"""`nacverify solve nac|ltc`: one problem, several independent ODE backends, their agreement."""

from __future__ import annotations

import enum
import math
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from nacverify.errors import BadInput

from ._exits import command_line
from ._finish import finish
from ._guard import guarded
from ._options import FormatOption, JsonFlag, OutputFormat, output_format
from ._output import fitted, progress_bar, screen
from ._results import verdict_table
from ._defaults import MP_DPS as DEFAULT_DPS, SOLVE_ATOL as DEFAULT_ATOL, SOLVE_RTOL as DEFAULT_RTOL

solve_app = typer.Typer(
    help="Solve the NAC or an LTC ODE with several backends (diffrax, scipy, mpmath, julia) and check that they agree (claim solvers.agree.*).",
    no_args_is_help=True,
)


class NacRegime(str, enum.Enum):
    slow = "slow"
    fast = "fast"
    step = "step"
    oscillatory = "oscillatory"
    custom = "custom"
    all = "all"


class LtcForm(str, enum.Enum):
    abstract = "abstract"
    biophysical = "biophysical"
    all = "all"


class InputKind(str, enum.Enum):
    smooth = "smooth"
    irregular = "irregular"
    all = "all"


class Activation(str, enum.Enum):
    sigmoid = "sigmoid"
    tanh = "tanh"


BackendOpt = Annotated[str, typer.Option("--backend", "-b", help="Comma-separated backends: diffrax, scipy, mpmath, julia. A missing one exits 3.")]
RtolOpt = Annotated[float, typer.Option(help="Relative tolerance of every float64 backend (mpmath ignores it).")]
AtolOpt = Annotated[float, typer.Option(help="Absolute tolerance.")]
PointsOpt = Annotated[int, typer.Option(help="Points of the uniform saving grid on [0, T].")]
MethodOpt = Annotated[Optional[list[str]], typer.Option("--method", help="BACKEND=METHOD, e.g. scipy=Radau, julia=Rodas5P, diffrax=Kvaerno5 (repeatable).")]
DpsOpt = Annotated[int, typer.Option("--mp-dps", help="Digits of the mpmath Taylor oracle.")]
EstimateOpt = Annotated[bool, typer.Option("--estimate/--no-estimate", help="Estimate each backend's error with a second, tighter solve.")]
OutOpt = Annotated[Optional[Path], typer.Option("--out", "-o", help="HDF5 report (default: reports/solve-<nac|ltc>-<UTC>.h5).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite an existing --out.")]
GateOpt = Annotated[bool, typer.Option("--gate/--no-gate", help="Exit 1 when a verdict differs from the expected one.")]
SeedOpt = Annotated[int, typer.Option(help="Seed of the parameters and the input (nacverify.ltc; >= 0).")]


def _methods(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, method = item.partition("=")
        if not sep or not name.strip() or not method.strip():
            raise BadInput(f"--method expects BACKEND=METHOD, got {item!r}")
        out[name.strip()] = method.strip()
    return out


def _finite(**values: float | None) -> None:
    for name, value in values.items():
        if value is not None and not math.isfinite(value):
            raise BadInput(f"--{name.replace('_', '-')} must be finite, got {value}")


def _run(problems: list, backends: str, rtol: float, atol: float, methods: list[str] | None, mp_dps: int, estimate: bool,
         out: Path | None, force: bool, gate: bool, stem: str, fmt: OutputFormat = OutputFormat.table) -> None:
    from nacverify.checks.solver_agreement import AGREE_TOLERANCE, agreement_claim, solve_with
    from nacverify.claims import CheckContext, evaluate
    from nacverify.report import Report, check_writable, default_report_path
    from nacverify.solvers import parse_backends, require_backend

    show = screen(fmt)
    names = parse_backends(backends)
    if len(names) < 2:
        raise BadInput("--backend needs at least two backends to compare")
    method_map = _methods(methods)
    for name in names:  # a missing backend exits 3 before any work
        require_backend(name)
    if mp_dps < 16:
        raise BadInput(f"--mp-dps must be >= 16, got {mp_dps}")
    out_path = check_writable(out or default_report_path(stem), overwrite=force)
    report = Report(command=command_line())
    runs: list = []
    with progress_bar() as bar:
        task = bar.add_task("solving", total=len(problems) * len(names))
        for problem in problems:
            bar.update(task, description=f"{problem.id}")
            run = solve_with(problem, names, rtol=rtol, atol=atol, methods=method_map, mp_dps=mp_dps, estimate_error=estimate,
                             progress=lambda name: bar.advance(task))
            runs.append(run)
    for run in runs:
        claim = agreement_claim(run.problem, lambda ctx, run=run: run, names)
        report.results.append(evaluate(claim, CheckContext()))
        report.sections[f"solve/{run.problem.id}"] = _section(run)

    def render() -> None:
        for run in runs:
            show.print(fitted(_backend_table(run), show.width))
            show.print(fitted(_pair_table(run), show.width))
        show.print(verdict_table(report.results, title=f"agreement (tolerance {AGREE_TOLERANCE:g})"))

    raise finish(report, out_path, force=force, gate=gate, fmt=fmt, render=render)


def _backend_table(run) -> Table:
    p = run.problem
    table = Table(title=escape(f"{p.id}: {p.description}"))
    for col in ("backend", "method", "seconds", "steps", "rejected", "rhs evals", "error estimate"):
        table.add_column(col, justify="left" if col in ("backend", "method") else "right", no_wrap=True)
    for s in run.solutions:
        num = lambda v: "-" if v < 0 else str(v)  # noqa: E731
        est = "-" if s.error_estimate is None else f"{s.max_error_estimate:.2e}"
        table.add_row(s.backend, escape(s.method), f"{s.seconds:.3f}", num(s.num_steps), num(s.num_rejected), num(s.num_rhs), est)
    return table


def _pair_table(run) -> Table:
    table = Table(title="pairwise max discrepancy")
    for col in ("pair", "relative", "absolute", "component", "at t", "explained by estimates"):
        table.add_column(col, justify="left" if col == "pair" else "right", no_wrap=True)
    for d in run.discrepancies:
        table.add_row(f"{d.a}-{d.b}", f"{d.relative:.3e}", f"{d.absolute:.3e}", str(d.component), f"{d.t:.6g}", f"{d.estimate:.2e}")
    return table


def _section(run) -> dict:
    import numpy as np

    p = run.problem
    section: dict = {
        "description": p.description,
        "source": p.source,
        "t": p.ts,
        "y0": p.y0,
        "breaks": np.asarray(p.breaks, dtype=np.float64),
        "rtol": run.rtol,
        "atol": run.atol,
        "seconds": run.seconds,
    }
    for s in run.solutions:
        section[s.backend] = {
            "method": s.method,
            "ys": s.ys,
            "seconds": s.seconds,
            "num_steps": s.num_steps,
            "num_rejected": s.num_rejected,
            "num_rhs": s.num_rhs,
            "error_estimate": s.error_estimate if s.error_estimate is not None else np.full(p.dim, np.nan),
            "notes": s.notes,
        }
    section["pairs"] = {
        f"{d.a}-{d.b}": {"relative": d.relative, "absolute": d.absolute, "component": d.component, "t": d.t, "estimate": d.estimate, "per_component": d.per_component}
        for d in run.discrepancies
    }
    if p.regime is not None:
        section["params"] = {k: np.asarray(v) for k, v in p.regime.params.items()}
    if p.ltc is not None:
        section["params"] = {k: v for k, v in p.ltc.params.items()}
    return section


@solve_app.command("nac")
@guarded(report=lambda a: f"solve-nac-{getattr(a.get('regime'), 'value', a.get('regime'))}")
def solve_nac(
    regime: Annotated[NacRegime, typer.Option("--regime", "-r", help="Coefficient regime (nacverify.regimes), or all four named ones.")] = NacRegime.all,
    T: Annotated[float, typer.Option("--T", "-T", help="Window length T.")] = 1.0,
    phi0: Annotated[float, typer.Option(help="phi(0).")] = 0.5,
    omega0: Annotated[float, typer.Option(help="omega(0) > 0.")] = 1.0,
    a0: Annotated[float, typer.Option(help="Initial logit a(0).")] = 0.0,
    phi_variation: Annotated[Optional[float], typer.Option(help="100 max|phi - phi0|/phi0, percent (default: Table 2 column).")] = None,
    omega_variation: Annotated[Optional[float], typer.Option(help="The same for omega, percent (default: Table 2 column).")] = None,
    rate: Annotated[Optional[float], typer.Option(help="fast: growth rate k (default: 5).")] = None,
    jump_at: Annotated[Optional[float], typer.Option(help="step: jump position as a fraction of T (default: 0.5).")] = None,
    cycles: Annotated[Optional[float], typer.Option(help="oscillatory: sine cycles in the window (default: 2).")] = None,
    phi: Annotated[Optional[str], typer.Option("--phi", help="custom: formula in t.")] = None,
    omega: Annotated[Optional[str], typer.Option("--omega", help="custom: formula in t, > 0 on [0, T].")] = None,
    points: PointsOpt = 201,
    backend: BackendOpt = "diffrax,scipy,mpmath",
    rtol: RtolOpt = DEFAULT_RTOL,
    atol: AtolOpt = DEFAULT_ATOL,
    method: MethodOpt = None,
    mp_dps: DpsOpt = DEFAULT_DPS,
    estimate: EstimateOpt = True,
    out: OutOpt = None,
    force: ForceOpt = False,
    gate: GateOpt = True,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """Solve the NAC logit ODE a' = -omega(t) a + phi(t) (document 001 eq. 1) with each backend and compare."""
    from nacverify.frozen import regime_specs
    from nacverify.solvers.problem import nac_problem

    if points < 2:
        raise BadInput(f"--points must be >= 2, got {points}")
    specs = regime_specs(regime.value, T=T, phi0=phi0, omega0=omega0, a0=a0, phi_variation_pct=phi_variation, omega_variation_pct=omega_variation,
                         rate=rate, jump_at=jump_at, cycles=cycles, phi=phi, omega=omega)
    problems = [nac_problem(spec.build(), points=points) for spec in specs]
    _run(problems, backend, rtol, atol, method, mp_dps, estimate, out, force, gate, f"solve-nac-{regime.value}", output_format(fmt, as_json))


@solve_app.command("ltc")
@guarded(report=lambda a: f"solve-ltc-{getattr(a.get('form'), 'value', a.get('form'))}")
def solve_ltc(
    form: Annotated[LtcForm, typer.Option("--form", help="abstract (document 002 eq. 7), biophysical (eq. 1-2), or all.")] = LtcForm.all,
    input_kind: Annotated[InputKind, typer.Option("--input", help="I(t): smooth (sum of sines), irregular (sample-and-hold at random event times), or all.")] = InputKind.all,
    activation: Annotated[Activation, typer.Option(help="f of the abstract form (eq. 9a): sigmoid or tanh.")] = Activation.sigmoid,
    neurons: Annotated[int, typer.Option(help="Neurons N.")] = 4,
    inputs: Annotated[int, typer.Option(help="Input dimension M.")] = 2,
    events: Annotated[int, typer.Option(help="irregular: number of input jumps in the window.")] = 5,
    seed: SeedOpt = 0,
    T: Annotated[float, typer.Option("--T", "-T", help="Window length T.")] = 1.0,
    points: PointsOpt = 201,
    backend: BackendOpt = "diffrax,scipy,mpmath",
    rtol: RtolOpt = DEFAULT_RTOL,
    atol: AtolOpt = DEFAULT_ATOL,
    method: MethodOpt = None,
    mp_dps: DpsOpt = DEFAULT_DPS,
    estimate: EstimateOpt = True,
    out: OutOpt = None,
    force: ForceOpt = False,
    gate: GateOpt = True,
    fmt: FormatOption = OutputFormat.table,
    as_json: JsonFlag = False,
) -> None:
    """Solve a seeded LTC problem (document 002) with each backend and compare."""
    from nacverify.checks.solver_agreement import ltc_agreement_problem
    from nacverify.ltc import ltc_problem

    _finite(T=T)
    if points < 2:
        raise BadInput(f"--points must be >= 2, got {points}")
    forms = ["abstract", "biophysical"] if form == LtcForm.all else [form.value]
    kinds = ["smooth", "irregular"] if input_kind == InputKind.all else [input_kind.value]
    problems = [
        ltc_agreement_problem(ltc_problem(f, neurons=neurons, inputs=inputs, input_kind=k, activation=activation.value, seed=seed, T=T, events=events), points=points)
        for f in forms
        for k in kinds
    ]
    _run(problems, backend, rtol, atol, method, mp_dps, estimate, out, force, gate, f"solve-ltc-{form.value}", output_format(fmt, as_json))
