r"""Claims about orders, stability, stiffness and solver cost that take their evidence from the
convergence study (`nacverify convergence`).

* ``nac.exact.frozen_step_order`` (a lemma): NAC's exact mode, stepped with the gates frozen at each
  step's start, is the exponential Euler method: order 1 when the gates vary (the frozen field differs
  from the true one by $O(\Delta t)$ over each step), exact when they are constant.
* ``nac.sec2.runge_kutta_accuracy`` (seed 001, "Runge-Kutta may offer higher accuracy"): at the same
  number of right-hand-side evaluations, RK4's error is below explicit Euler's on the NAC logit ODE.
* ``ltc.sec15.fused_efficiency`` (seed 002 section 15, "the stability of implicit Euler with the
  efficiency of explicit Euler"): on the stiff setting the fused step, one $f$ evaluation per step as
  explicit Euler, stays bounded at every step tried as implicit Euler does, while explicit Euler is
  bounded only below a step of the order of $2/\lambda_{max}$.
* ``ltc.table12.smaller_step_more_accurate`` (seed 002 table 12, "Smaller = more accurate but
  slower"): the fused step's error at $T$ falls monotonically as $\Delta t$ goes from 1 to $2^{-10}$
  (table 12's range [0.001, 1]) while its steps, and so its cost, grow as $1/\Delta t$.
"""

from __future__ import annotations

import math

import numpy as np

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..solvers.problem import SEED000, SEED001, SEED002

__all__ = ["convergence_claims"]


def _frozen_order(ctx: CheckContext) -> Outcome:
    from .methods import method
    from .problems import study_problem
    from .reference import reference
    from .study import converge

    sp = study_problem("nac.custom")
    r = converge(sp, method("nac_exact"), reference(sp), quick=True)
    scalars = {"observed_order": r.fit.order, "dt_min": r.fit.dt_min, "dt_max": r.fit.dt_max, "residual": r.fit.residual}
    arrays = {"dt": r.dts, "error": r.errors}
    ok = math.isfinite(r.fit.order) and abs(r.fit.order - 1) <= 0.1
    msg = f"exact mode frozen per step on phi = {sp.setting}: observed order {r.fit.order:.3f} over dt {r.fit.dt_min:.2g}..{r.fit.dt_max:.2g}"
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence(arrays, scalars))


def _rk_accuracy(ctx: CheckContext) -> Outcome:
    from .methods import integrator
    from .problems import study_problem
    from .reference import reference

    worst = 0.0
    arrays, rows = {}, []
    for pid in ("nac.step.given", "nac.oscillatory"):
        sp = study_problem(pid)
        ref = reference(sp, check=False)
        euler, rk4 = integrator("euler", sp).run, integrator("rk4", sp).run
        ks = 2 ** np.arange(2, 9)  # RK4 steps; Euler gets 4x as many: the same evaluations
        e_rk = np.array([np.max(np.abs(rk4(sp.T / k)[0] - ref.y)) for k in ks])
        e_eu = np.array([np.max(np.abs(euler(sp.T / (4 * k))[0] - ref.y)) for k in ks])
        ratio = np.max(e_rk / np.maximum(e_eu, 1e-300))
        worst = max(worst, float(ratio))
        arrays[f"{pid}.rk4_error"], arrays[f"{pid}.euler_error"] = e_rk, e_eu
        rows.append(f"{pid}: largest RK4/Euler error ratio {ratio:.2g}")
    arrays["rhs_evaluations"] = 4.0 * ks
    verdict = Verdict.HOLDS if worst < 1 else Verdict.REFUTED
    return Outcome(verdict, f"at equal right-hand-side evaluations (16..1024) RK4's error / Euler's: at most {worst:.2g}; " + "; ".join(rows),
                   Evidence(arrays, {"largest_ratio": worst}))


def _fused_efficiency(ctx: CheckContext) -> Outcome:
    from .stability import DT_MAX, largest_steps, setting

    sp = setting("stiff")
    steps = {mid: largest_steps(sp, mid, oscillation=False)[0] for mid in ("fused", "implicit_euler", "euler")}
    tau_min = float(np.min(np.asarray(sp.problem.ltc.model.tau)))
    scalars = {f"largest_bounded_dt_{k}": v for k, v in steps.items()} | {"tau_min": tau_min, "dt_max_tried": DT_MAX}
    ok = math.isinf(steps["fused"]) and math.isinf(steps["implicit_euler"]) and steps["euler"] < 10 * tau_min
    msg = (f"stiff setting (tau_min = {tau_min:.3g}): largest bounded step fused {steps['fused']:g}, implicit Euler {steps['implicit_euler']:g}, "
           f"explicit Euler {steps['euler']:.3g}; fused and explicit Euler evaluate f once per step")
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({}, scalars))


def _smaller_more_accurate(ctx: CheckContext) -> Outcome:
    from .methods import integrator
    from .problems import study_problem
    from .reference import reference

    sp = study_problem("ltc.sigmoid")
    ref = reference(sp, check=False)
    run = integrator("fused", sp).run
    dts = 2.0 ** -np.arange(0, 11)  # 1 .. 2^-10 ~ 0.001: table 12's range
    out = [run(dt) for dt in dts]
    errors = np.array([np.max(np.abs(y - ref.y)) for y, _ in out])
    steps = np.array([n for _, n in out], float)
    monotone = bool(np.all(np.diff(errors) < 0))
    cost = bool(np.allclose(steps * dts, sp.T))
    msg = f"fused step on eq. 7, dt = 1..2^-10: error {errors[0]:.2g} -> {errors[-1]:.2g}, " + ("decreasing at every halving" if monotone else
          f"not monotone (first rise at dt = {dts[1 + int(np.argmax(np.diff(errors) >= 0))]:g})") + f"; steps = T/dt: {cost}"
    return Outcome(Verdict.HOLDS if monotone and cost else Verdict.REFUTED, msg, Evidence({"dt": dts, "error": errors, "steps": steps}, {"monotone": monotone}))


def convergence_claims() -> list[Claim]:
    return [
        Claim("nac.exact.frozen_step_order", f"{SEED000}, appendix B.1.1 line 315, 'treating them as locally constant over the small "
              "integration interval'",
              "NAC's exact (closed-form) update applied step by step with phi and omega frozen at each step's start converges to the "
              "solution with varying gates with order 1 in the step",
              "NAC logit ODE (seed 001 eq. 1) with phi(t) = 0.5 + 0.3 sin 3t, omega(t) = 1 + t^2 on [0, 1]; steps T/2^k, k = 3..11; reference "
              "mpmath at 20 digits", Verdict.HOLDS,
              "the frozen step is the exponential Euler method: the frozen field differs from the true one by O(dt) over a step, a local "
              "error O(dt^2), so order 1 (nacverify.convergence.methods)", _frozen_order, group="convergence", kind=Kind.LEMMA),
        Claim("nac.sec2.runge_kutta_accuracy", f"{SEED001}, section 2 lines 193-195, 'Although methods such as Runge-Kutta may offer higher "
              "accuracy'",
              "on the NAC logit ODE, RK4 reaches a smaller error than explicit Euler at the same number of right-hand-side evaluations",
              "NAC logit ODE in the step (jump given) and oscillatory regimes (Table 2 variations); RK4 with T/k steps against Euler with T/(4k), "
              "k = 4..256", Verdict.HOLDS,
              "RK4 is of order 4 and Euler of order 1 (measured: nacverify convergence): at equal cost RK4's error C4 (4 dt)^4 is far below "
              "Euler's C1 dt once dt is small", _rk_accuracy, group="convergence", kind=Kind.READING,
              reading="'higher accuracy' read as: a smaller error at the same cost in right-hand-side evaluations (RK4 pays 4 per step)"),
        Claim("ltc.sec15.fused_efficiency", f"{SEED002}, section 15 line 493, 'It combines the stability of implicit Euler with the "
              "efficiency of explicit Euler'",
              "on a stiff LTC the fused step, which evaluates f once per step as explicit Euler does, stays bounded at every step size, as "
              "implicit Euler does, while explicit Euler is bounded only below a step of the order of the smallest tau",
              "abstract LTC eq. 7 (sigmoid), tau in [1e-3, 1e-2], smooth input; 2000 steps of each size; bounded: |x| <= 10 max(1, |x0|); "
              "largest bounded step by bisection on dt in [1e-6, 10]", Verdict.HOLDS,
              "the fused step divides by 1 + dt (1/tau + f) > 1 and its numerator is a convex-like combination of x and A: bounded at any dt; "
              "explicit Euler's factor 1 - dt (1/tau + f) leaves [-1, 1] once dt > 2/(1/tau + f)", _fused_efficiency, group="convergence",
              kind=Kind.READING, reading="'stability of implicit Euler' read as bounded iterates at every step size on a stiff LTC (as implicit "
              "Euler's), 'efficiency of explicit Euler' as one evaluation of f per step"),
        Claim("ltc.table12.smaller_step_more_accurate", f"{SEED002}, table 12 line 414, 'Smaller = more accurate but slower'",
              "the fused step's error at T decreases at every halving of dt over table 12's range [0.001, 1], while its number of steps "
              "grows as T/dt", "abstract LTC eq. 7 (sigmoid), 4 neurons, smooth input, T = 1; dt = 1, 1/2, ..., 2^-10", Verdict.HOLDS,
              "the fused step is of order 1 (nacverify convergence) and stable at every dt: its error shrinks with dt from the first step on",
              _smaller_more_accurate, group="convergence", kind=Kind.READING,
              reading="'more accurate' read as a smaller error at T against a tight reference, 'slower' as more steps (T/dt)"),
    ]


add_provider(convergence_claims)
