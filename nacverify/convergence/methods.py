r"""The fixed-step methods of the study, their theoretical orders and how each is stepped.

With $y' = F(t, y)$, step $h$, $t_n = t_0 + n h$:

* ``euler``: $y_{n+1} = y_n + h F(t_n, y_n)$. Taylor: $y(t_{n+1}) = y_n + h y' + \tfrac{h^2}{2} y'' + O(h^3)$,
  local error $\tfrac{h^2}{2} y''$, global order **1**. On $y' = -\lambda y$, $y_n = (1 - \lambda h)^n y_0$ and
  $y_n - y(T) = -\tfrac{\lambda^2 T}{2} e^{-\lambda T} y_0\, h + O(h^2)$ at $t_n = T$.
* ``rk4``: the classical Runge-Kutta method; its stability function is the degree-4 Taylor polynomial of
  $e^z$ and its tableau meets the order conditions up to order **4**.
* ``implicit_euler``: $y_{n+1} = y_n + h F(t_{n+1}, y_{n+1})$, solved by Newton's method (8 iterations,
  Jacobian by forward differentiation) from the explicit Euler predictor; order **1**.
* ``fused`` (seed 002 eq. 9, abstract LTC only): $x_{n+1} = (x_n + h f_n A)/(1 + h(1/\tau + f_n))$ with
  $f_n = f(x_n, I(t_n))$. Derivation: with $\lambda_n = 1/\tau + f_n$,
  $x_{n+1} = x_n + h(-\lambda_n x_n + f_n A)/(1 + h\lambda_n) = x_n + h F(t_n, x_n) - h^2 \lambda_n F(t_n, x_n) + O(h^3)$,
  while the exact solution is $x_n + h F + \tfrac{h^2}{2} \dot F + O(h^3)$; the $h^2$ terms differ (by
  $h^2(\lambda_n F + \dot F/2)$, non-zero in general), so the local error is $O(h^2)$ and the global
  order is **1**: the step is explicit Euler's $x + hF$ to first order, with implicit Euler's denominator.
* ``nac_euler`` (NAC's Euler mode, seed 001 eq. 2): $a_{n+1} = a_n + h(-\omega(t_n) a_n + \phi(t_n))$, order **1**.
* ``nac_exact`` (NAC's exact mode, seed 001 eq. 3, coefficients frozen at each step's left end):
  $a_{n+1} = a^*_n + (a_n - a^*_n) e^{-\omega(t_n) h}$, $a^*_n = \phi(t_n)/\omega(t_n)$. For constant
  coefficients it is the exact flow (error at round-off, no order); when they vary, freezing them
  over $[t_n, t_{n+1}]$ changes $F$ by $O(h)$ there, a local error $O(h^2)$: order **1** (the exponential
  Euler method).
* ``tsit5``, ``dopri8``, ``kvaerno5``: diffrax's solvers stepped on constant steps by their own
  ``step`` (orders **5**, **8**, **5**; Kvaerno5's stages solved by ``VeryChord`` to 1e-13).
* ``authors.fused``, ``authors.euler``, ``authors.rk4``: the LTC authors' SemiImplicit, Explicit and
  RungeKutta updates as `nacverify.audit.ltc.updates.advance` steps them (unfold $h$ = elapsed /
  unfolds, input held): the fused unfold is implicit Euler with the conductances taken at $v_n$
  (order **1**), the others orders **1** and **4**.

Right-hand-side evaluations per step (`Method.rhs_per_step`): 1 (Euler, fused, NAC modes), 4 (RK4),
6 (Tsit5: 7 stages, first same as last), 13 (Dopri8: 14 stages, FSAL); implicit Euler and Kvaerno5
add their Newton iterations (implicit Euler: 1 + 8 x (1 + D) with D Jacobian columns; Kvaerno5:
stage count 6 plus the chord iterations, not counted).

Every method of one problem is compiled once: the step count $n$ and the piece's ``ref`` are
traced arguments of one ``jax.jit`` program (a ``lax.fori_loop``), so a whole ladder of steps
reuses it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..compute.precision import float64
from ..errors import BadInput
from ..odes import euler_step, frozen_solution
from .problems import StudyProblem

__all__ = ["Method", "METHODS", "method", "methods_for", "Integrator", "integrator", "expected_order", "NEWTON_ITERATIONS"]

NEWTON_ITERATIONS = 8


@dataclass(frozen=True)
class Method:
    id: str
    order: int
    families: tuple[str, ...]
    rhs_per_step: float
    description: str


_ALL = ("nac", "ltc", "biophysical", "authors")
METHODS = {m.id: m for m in (
    Method("euler", 1, _ALL, 1, "explicit Euler"),
    Method("rk4", 4, _ALL, 4, "classical Runge-Kutta"),
    Method("implicit_euler", 1, _ALL, math.nan, "implicit Euler (Newton)"),
    Method("fused", 1, ("ltc",), 1, "fused step, seed 002 eq. 9"),
    Method("nac_euler", 1, ("nac",), 1, "NAC Euler mode, seed 001 eq. 2"),
    Method("nac_exact", 1, ("nac",), 1, "NAC exact mode, frozen per step (eq. 3)"),
    Method("tsit5", 5, _ALL, 6, "diffrax Tsit5, constant steps"),
    Method("dopri8", 8, _ALL, 13, "diffrax Dopri8, constant steps"),
    Method("kvaerno5", 5, _ALL, math.nan, "diffrax Kvaerno5, constant steps"),
    Method("authors.fused", 1, ("authors",), 1, "LTC authors' SemiImplicit unfold"),
    Method("authors.euler", 1, ("authors",), 1, "LTC authors' Explicit unfold"),
    Method("authors.rk4", 4, ("authors",), 4, "LTC authors' RungeKutta unfold"),
)}


def method(mid: str) -> Method:
    if mid not in METHODS:
        raise BadInput(f"unknown method {mid!r}; choose from {', '.join(METHODS)}")
    return METHODS[mid]


def methods_for(problem: StudyProblem, chosen=None) -> list[Method]:
    """The methods (of `chosen`, default all) that apply to `problem`."""
    return [m for m in METHODS.values() if problem.family in m.families and (chosen is None or m.id in chosen)]


def expected_order(m: Method, problem: StudyProblem) -> int:
    """The theoretical order: the method's, or 1 where the problem's jumps are hidden from it
    (`nacverify.convergence.problems`)."""
    return 1 if problem.hidden_jumps else m.order


def rhs_per_step(m: Method, dim: int) -> float:
    if m.id == "implicit_euler":
        return 1 + NEWTON_ITERATIONS * (1 + dim)
    return m.rhs_per_step


# ----------------------------------------------------------------------------- steps


def _rk4(F, t, y, h):
    k1 = F(t, y)
    k2 = F(t + h / 2, y + h / 2 * k1)
    k3 = F(t + h / 2, y + h / 2 * k2)
    k4 = F(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _implicit_euler(F, t, y, h):
    import jax
    import jax.numpy as jnp

    def residual(z):
        return z - y - h * F(t + h, z)

    def newton(_, z):
        J = jax.jacfwd(residual)(z)
        return z - jnp.linalg.solve(J, residual(z))

    return jax.lax.fori_loop(0, NEWTON_ITERATIONS, newton, y + h * F(t, y))


def _nac_coefficients(F, t):
    """phi(t), omega(t) of the affine field F(t, a) = -omega a + phi."""
    import jax.numpy as jnp

    phi = F(t, jnp.zeros(1))
    return phi, phi - F(t, jnp.ones(1))


def _simple_step(mid: str, sp: StudyProblem) -> Callable:
    """(F, t, y, h, ref) -> y_next for the methods stepped here."""
    if mid == "euler":
        return lambda F, t, y, h, ref: y + h * F(t, y)
    if mid == "rk4":
        return lambda F, t, y, h, ref: _rk4(F, t, y, h)
    if mid == "implicit_euler":
        return lambda F, t, y, h, ref: _implicit_euler(F, t, y, h)
    if mid == "nac_euler":
        def nac_euler(F, t, y, h, ref):
            phi, omega = _nac_coefficients(F, t)
            return euler_step(y, phi, omega, h)
        return nac_euler
    if mid == "nac_exact":
        def nac_exact(F, t, y, h, ref):
            phi, omega = _nac_coefficients(F, t)
            return frozen_solution(h, y, phi, omega)
        return nac_exact
    if mid == "fused":
        import jax.numpy as jnp

        model, signal = sp.problem.ltc.model, sp.problem.ltc.signal

        def fused(F, t, y, h, ref):
            I = type(signal).__call__(signal, t, ref, jnp)
            return model.fused_step(y, I, h)
        return fused
    raise ValueError(mid)


def _diffrax_solver(mid: str):
    import diffrax

    if mid == "tsit5":
        return diffrax.Tsit5()
    if mid == "dopri8":
        return diffrax.Dopri8()
    return diffrax.Kvaerno5(root_finder=diffrax.VeryChord(rtol=1e-13, atol=1e-13))


# ----------------------------------------------------------------------------- integrators


@dataclass
class Integrator:
    """`run(dt)`: the method's value at T with steps of at most dt (piece by piece between the jumps
    when the problem gives them), and the number of steps taken."""

    run: Callable[[float], tuple[np.ndarray, int]]


def _stepper(mid: str, sp: StudyProblem, use_ref: bool):
    """(start(y0, t0, h, ref) -> carry, advance(carry, ta, tb, ref) -> carry, value(carry) -> y)."""
    import jax.numpy as jnp

    field = sp.problem.vector_field(jnp)
    if mid in ("tsit5", "dopri8", "kvaerno5"):
        import diffrax

        solver = _diffrax_solver(mid)
        term_of = lambda ref: diffrax.ODETerm(lambda t, y, args: field(t, y, ref if use_ref else None))  # noqa: E731

        def start(y0, t0, h, ref):
            return y0, solver.init(term_of(ref), t0, t0 + h, y0, None)

        def advance(carry, ta, tb, ref):
            y, st = carry
            y1, _, _, st, _ = solver.step(term_of(ref), ta, tb, y, None, st, made_jump=False)
            return y1, st

        return start, advance, lambda carry: carry[0]
    step = _simple_step(mid, sp)

    def advance_simple(y, ta, tb, ref):
        side = ref if use_ref else None  # a hidden jump: every evaluation at its own time
        return step(lambda t, z: field(t, z, side), ta, y, tb - ta, side)

    return (lambda y0, t0, h, ref: y0), advance_simple, lambda y: y


def _compiled(mid: str, sp: StudyProblem, use_ref: bool):
    """One jitted program (y0, t0, t1, n, ref) -> y(t1) after n equal steps."""
    import jax

    start, advance, value = _stepper(mid, sp, use_ref)

    def program(y0, t0, t1, n, ref):
        def body(i, carry):
            return advance(carry, t0 + (t1 - t0) * i / n, t0 + (t1 - t0) * (i + 1) / n, ref)

        return value(jax.lax.fori_loop(0, n, body, start(y0, t0, (t1 - t0) / n, ref)))

    return jax.jit(program)


def compiled_trajectory(mid: str, sp: StudyProblem, steps: int):
    """(y0, dt) -> the (steps + 1, D) iterates of `steps` steps of size dt from t = 0 (jumps, if any,
    not given: the stability settings are smooth), one compiled program for every dt."""
    import jax
    import jax.numpy as jnp

    start, advance, value = _stepper(mid, sp, False)

    @jax.jit
    def program(y0, dt):
        def body(carry, i):
            nxt = advance(carry, i * dt, (i + 1) * dt, 0.0)
            return nxt, value(nxt)

        _, ys = jax.lax.scan(body, start(y0, 0.0, dt, 0.0), jnp.arange(steps, dtype=jnp.float64))
        return jnp.concatenate([y0[None], ys])

    return program


def _authors(mid: str, sp: StudyProblem) -> Integrator:
    from ..audit.ltc.updates import advance
    from .authors_cell import cell_of

    cell, I = cell_of(sp.problem.ltc)
    solver = mid.split(".")[1]
    y0 = np.asarray(sp.problem.y0, dtype=np.float64)[None, :]

    def run(dt: float) -> tuple[np.ndarray, int]:
        n = max(1, int(math.ceil(sp.T / dt - 1e-9)))
        v, _, _ = advance(solver, cell, y0, I[None, :], np.array([sp.T]), n)
        return v[0], n

    return Integrator(run)


def integrator(mid: str, sp: StudyProblem) -> Integrator:
    """The integrator of method `mid` on problem `sp`, compiled once for every step size."""
    if mid.startswith("authors."):
        return _authors(mid, sp)
    import jax.numpy as jnp

    pieces = sp.problem.pieces() if sp.jumps_given else [(0.0, sp.T, 0.5 * sp.T)]
    use_ref = sp.jumps_given and sp.has_jumps
    with float64():
        program = _compiled(mid, sp, use_ref)

    def run(dt: float) -> tuple[np.ndarray, int]:
        with float64():
            y = jnp.asarray(sp.problem.y0, dtype=jnp.float64)
            total = 0
            for a, b, ref in pieces:
                n = max(1, int(math.ceil((b - a) / dt - 1e-9)))
                y = program(y, jnp.float64(a), jnp.float64(b), jnp.int32(n), jnp.float64(ref))
                total += n
            return np.asarray(y, dtype=np.float64), total

    return Integrator(run)
