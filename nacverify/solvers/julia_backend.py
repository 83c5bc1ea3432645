"""The Julia backend: OrdinaryDiffEq (DifferentialEquations.jl) through juliacall.

The right-hand sides are written again in Julia (``julia/src/NACVerify.jl``, shipped as
``nacverify.julia``): the NAC logit ODE under the shape-family regimes and custom formulas
(translated to Julia by SymPy's Julia printer), the abstract LTC (seed 002 eq. 7) and the
biophysical LTC (eq. 1-2), with the same inputs. Methods: Vern9 (default, explicit order 9),
Rodas5P (Rosenbrock, stiff), Tsit5, RadauIIA5. Like the scipy backend it integrates piece by
piece between breaks, each piece with its own smooth field.

Julia itself is never installed by nacverify. `availability()` runs
`nacverify.solvers.julia_detect.find_julia` (no juliacall import) and reports what it
looked for. Only `solve` imports juliacall, after pointing juliapkg at the Julia found
(``PYTHON_JULIAPKG_EXE``), so juliapkg can only resolve Julia *packages* (declared in
``julia/juliapkg.json``: OrdinaryDiffEq, SciMLBase), never download Julia.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from importlib import resources

import numpy as np

from ..errors import BadInput, EnvironmentProblem, NacverifyError
from .base import TIGHTER, Availability, Solution, check_tolerances
from .julia_detect import JuliaSearch, find_julia
from .problem import Problem

__all__ = ["JuliaBackend", "METHODS", "julia_files", "custom_julia_function"]

METHODS = ("Vern9", "Rodas5P", "Tsit5", "RadauIIA5")

_STATE: dict[str, object] = {}


def julia_files():
    """(package folder, juliapkg.json, src/NACVerify.jl) of the shipped Julia package."""
    root = resources.files("nacverify.julia")
    return root, root / "juliapkg.json", root / "src" / "NACVerify.jl"


def _julia_string(text: str) -> str:
    """A Julia string literal for `text` (JSON escapes plus Julia's interpolation sign)."""
    return json.dumps(text).replace("$", "\\$")


def _config_problem() -> str | None:
    """A juliacall configuration that cannot work, said before trying it."""
    exe, project = os.environ.get("PYTHON_JULIACALL_EXE"), os.environ.get("PYTHON_JULIACALL_PROJECT")
    if bool(exe) != bool(project):
        return "juliacall needs PYTHON_JULIACALL_EXE and PYTHON_JULIACALL_PROJECT set together (only one is set); or set PYTHON_JULIAPKG_EXE instead"
    return None


def _register_requirements() -> None:
    """Make juliapkg see julia/juliapkg.json. An editable install exposes it already;
    a regular install puts it one folder too deep for juliapkg's scan, so its packages are
    added to juliapkg's own requirements file instead."""
    import juliapkg  # importing juliapkg downloads nothing

    _, deps_json, _ = julia_files()
    path = os.path.normcase(os.path.normpath(os.path.abspath(str(deps_json))))
    if path in juliapkg.deps.deps_files():
        return
    spec = json.loads(deps_json.read_text())
    for name, info in spec.get("packages", {}).items():
        juliapkg.add(name, info["uuid"], version=info.get("version"))


def _load(search: JuliaSearch):
    """The Julia module NACVerify, loading juliacall on first use."""
    if "module" in _STATE:
        return _STATE["module"]
    if "juliacall" not in sys.modules:
        os.environ.setdefault("PYTHON_JULIAPKG_EXE", search.executable or "")
        try:
            _register_requirements()
        except Exception as exc:  # a broken juliapkg state is the environment's
            raise EnvironmentProblem(f"julia backend: cannot register the Julia requirements with juliapkg: {exc}") from exc
    try:
        import juliacall  # resolves the Julia packages with the Julia found above

        jl = juliacall.Main
        _, _, src = julia_files()
        jl.seval(f"include({_julia_string(str(src))})")
        module = jl.NACVerify
    except Exception as exc:
        raise EnvironmentProblem(f"julia backend: Julia {search.version_text} at {search.executable} could not load NACVerify.jl: {type(exc).__name__}: {exc}") from exc
    _STATE["module"] = module
    _STATE["main"] = jl
    _STATE["version"] = f"Julia {jl.seval('string(VERSION)')}"
    return module


def custom_julia_function(jl, text: str):
    """A Julia function t -> formula for one custom coefficient (SymPy's Julia printer)."""
    from sympy.printing.julia import julia_code

    from ..custom_expr import parse_formula

    code = julia_code(parse_formula(text))
    return jl.seval(f"let e = Base.MathConstants.e; t -> ({code}); end")


def _arr(x) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(x, dtype=np.float64))


def _model(jmod, jl, problem: Problem):
    """(Julia model, Julia input or nothing) for the problem."""
    if problem.kind == "nac":
        regime = problem.regime
        if regime.name == "custom":
            return jmod.custom_nac(custom_julia_function(jl, str(regime.params["phi"][0])), custom_julia_function(jl, str(regime.params["omega"][0]))), None
        p = regime.params
        key = {"fast": "rate", "step": "jump_at", "oscillatory": "cycles"}.get(regime.name)
        shape = p[key] if key else np.zeros_like(p["phi0"])
        return jmod.shape_nac(regime.name, float(regime.T), _arr(p["phi0"]), _arr(p["omega0"]), _arr(p["phi_amp"]), _arr(p["omega_amp"]), _arr(shape)), None
    ltc = problem.ltc
    s = ltc.signal
    if hasattr(s, "times"):
        signal = jmod.held_input(_arr(s.times), _arr(s.values))
    else:
        signal = jmod.smooth_input(_arr(s.offset), _arr(s.amp), _arr(s.freq), _arr(s.phase), float(s.T))
    m = ltc.model
    if ltc.form == "abstract":
        model = jmod.abstract_ltc(_arr(m.tau), _arr(m.gamma_r), _arr(m.gamma), _arr(m.mu), _arr(m.A), m.activation)
    else:
        model = jmod.biophysical_ltc(*(_arr(getattr(m, k)) for k in ("cm", "g_leak", "v_leak", "w", "gamma", "mu", "E", "w_s", "gamma_s", "mu_s", "E_s")))
    return model, signal


class JuliaBackend:
    name = "julia"
    default_method = "Vern9"

    def availability(self) -> Availability:
        details: dict[str, str] = {}
        if importlib.util.find_spec("juliacall") is None:
            return Availability(self.name, False, "", "the Python package juliacall is not installed (pip install juliacall)", METHODS)
        if "module" in _STATE:
            return Availability(self.name, True, str(_STATE.get("version", "")), "Julia loaded in this process", METHODS)
        problem = _config_problem()
        if problem:
            return Availability(self.name, False, "", problem, METHODS)
        search = find_julia()
        details["looked"] = "; ".join(search.looked)
        if not search.found:
            return Availability(self.name, False, "", search.reason(), METHODS, details)
        details["executable"] = search.executable or ""
        return Availability(
            self.name, True, f"Julia {search.version_text}", search.reason() + "; OrdinaryDiffEq is resolved by juliapkg on first solve", METHODS, details
        )

    def solve(self, problem: Problem, *, rtol: float, atol: float, method: str | None = None, estimate_error: bool = True) -> Solution:
        method = method or self.default_method
        if method not in METHODS:
            raise BadInput(f"julia method {method!r} unknown; choose one of {', '.join(METHODS)}")
        check_tolerances(rtol, atol)
        status = self.availability()
        if not status.available:
            raise EnvironmentProblem(f"backend julia is not available: {status.reason}")
        jmod = _load(find_julia()) if "module" not in _STATE else _STATE["module"]
        jl = _STATE["main"]
        model, signal = _model(jmod, jl, problem)
        breaks = _arr(problem.breaks)

        def once(rt: float, at: float):
            try:
                res = jmod.solve_problem(model, signal, _arr(problem.y0), _arr(problem.ts), breaks, method, float(rt), float(at))
            except Exception as exc:
                raise NacverifyError(f"julia {method} failed: {exc}") from exc
            return np.array(res.ys, dtype=np.float64).reshape(problem.dim, problem.ts.shape[0]), int(res.naccept), int(res.nreject), int(res.nf)

        start = time.perf_counter()
        ys, acc, rej, nf = once(rtol, atol)
        seconds = time.perf_counter() - start
        estimate = None
        if estimate_error:
            tight, _, _, _ = once(rtol / TIGHTER, atol / TIGHTER)
            estimate = np.max(np.abs(ys - tight), axis=1)
        return Solution(self.name, method, problem.ts, ys, rtol, atol, acc, rej, nf, estimate, seconds, notes="seconds include Julia compilation on first use")
