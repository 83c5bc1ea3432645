r"""Solver verification as DiffEqDevTools does it (issue 44): the observed order of every
fixed-step method over a ladder of steps, work-precision of the adaptive solvers, and the
largest stable step of each fixed-step method.

* `problems`: the initial value problems of the study (NAC logit ODE per regime, abstract and
  biophysical LTC, inputs with jumps given to the solver or hidden from it, a stiff setting, the
  LTC authors' cell with its input held);
* `methods`: the fixed-step methods and their theoretical orders (explicit and implicit Euler,
  RK4, the fused step of seed 002 eq. 9, NAC's Euler and exact modes, diffrax's Tsit5, Dopri8,
  Kvaerno5 on constant steps, the LTC authors' three solvers);
* `reference`: the reference solution (diffrax Dopri8 at rtol 1e-13, checked against mpmath);
* `order`: the fit of log error against log dt on the asymptotic range;
* `study`: the ladder of one (problem, method) pair and the study over many;
* `work_precision`: error against wall time and right-hand-side evaluations of adaptive solvers;
* `stability`: the largest stable, oscillation-free step by bisection, and the linear bound.

Everything computes in float64 inside `nacverify.compute.precision.float64()`.
"""
