r"""More numerical checks of seed 002 (LTC): the unfolding steps L of the fused solver
(eq. 9, section 10), its cost against T, L and an LSTM (section 4), BPTT and the adjoint
method (section 5), the epsilon of section 15, unbounded states with tanh (section 6),
trajectory length (section 16) and the initialisation ranges of tables 12 / section 14.

The discrete LTC of section 10 / Algorithm 2, per input step $k$ with input $I_k$ held:

$$x \leftarrow \frac{x + h f \odot A}{1 + h (1/\tau + f)}, \qquad f = \mathrm{act}(x\gamma_r + I_k\gamma + \mu)$$

applied L times, with substep $h = \Delta t / L$ (or $h = \Delta t$, the other reading) and f
re-evaluated each substep (or computed once per input step, eq. 22). Readout
$\hat y_k = x W_{out} + b_{out}$, loss $\sum_k \|\hat y_k - y_k\|^2$.
"""

from __future__ import annotations

import functools
import math

import diffrax
import jax
import jax.numpy as jnp
import numpy as np
from scipy.special import erfc

from ..claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict, add_provider
from ..solvers._diffrax import solve_system
from .ltc_checks import M, N, RANGES_TEXT, SEED002, activation_fn, draw_networks

__all__ = ["ltc_more_claims", "fused_sequence", "bptt_loss", "graph_depth", "outside_probability", "held_rhs"]


# ----------------------------------------------------------------------------- the discrete LTC


def fused_sequence(params, inputs, dt, L: int, *, substep: str = "dt/L", f_once: bool = False, activation: str = "sigmoid"):
    """States after each input step (S, B, N) of the discrete LTC above; params has tau,
    gamma_r, gamma, mu, A with a leading batch axis B; inputs (S, B, M)."""
    act = activation_fn(activation)
    h = dt / L if substep == "dt/L" else dt

    def f_of(x, I):
        return act(jnp.einsum("bn,bnk->bk", x, params["gamma_r"]) + jnp.einsum("bm,bmk->bk", I, params["gamma"]) + params["mu"])

    def step(x, I):
        f = f_of(x, I)
        for _ in range(L):
            if not f_once:
                f = f_of(x, I)
            x = (x + h * f * params["A"]) / (1 + h * (1 / params["tau"] + f))
        return x, x

    x0 = jnp.zeros_like(params["A"])
    return jax.lax.scan(step, x0, inputs)[1]


@functools.partial(jax.jit, static_argnames=("substep", "f_once"))
def _fused_dynamic(params, inputs, dt, L, substep: str = "dt/L", f_once: bool = False):
    """`fused_sequence` (sigmoid) with L a traced integer (one compile for every L; not for reverse-mode AD)."""
    h = dt / L if substep == "dt/L" else dt

    def f_of(x, I):
        return jax.nn.sigmoid(jnp.einsum("bn,bnk->bk", x, params["gamma_r"]) + jnp.einsum("bm,bmk->bk", I, params["gamma"]) + params["mu"])

    def step(x, I):
        f0 = f_of(x, I)

        def sub(_, x):
            f = f0 if f_once else f_of(x, I)
            return (x + h * f * params["A"]) / (1 + h * (1 / params["tau"] + f))

        x = jax.lax.fori_loop(0, L, sub, x)
        return x, x

    return jax.lax.scan(step, jnp.zeros_like(params["A"]), inputs)[1]


def held_rhs(t, y, args):
    """Eq. 7 with the input held over each input step of length dt (sample-and-hold)."""
    p, inputs, starts = args  # starts: the input steps' start times k dt (the same floats as the jump times)
    k = jnp.clip(jnp.searchsorted(starts, t, side="right") - 1, 0, inputs.shape[0] - 1)
    x = y.reshape(p["A"].shape)
    f = jax.nn.sigmoid(jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", inputs[k], p["gamma"]) + p["mu"])
    return (-(1 / p["tau"] + f) * x + f * p["A"]).reshape(-1)


def _held_reference(p, inputs, dt):
    """Eq. 7 solved by Tsit5 (rtol 1e-11) through every input step (jumps at k dt), at the step ends."""
    b = p["A"].shape[0]
    S = inputs.shape[0]
    ts = dt * np.arange(S + 1)
    jumps = tuple(float(t) for t in ts[1:-1])
    args = ({k: jnp.asarray(p[k]) for k in ("tau", "gamma_r", "gamma", "mu", "A")}, jnp.asarray(inputs), jnp.asarray(ts[:-1]))
    sol = solve_system(held_rhs, args, np.zeros(b * N), ts, rtol=1e-11, atol=1e-13, jump_ts=jumps)
    tight = solve_system(held_rhs, args, np.zeros(b * N), ts, rtol=1e-13, atol=1e-15, jump_ts=jumps)
    ref = sol.ys.reshape(b, N, -1)[..., 1:].transpose(2, 0, 1)  # (S, B, N)
    err = np.max(np.abs(sol.ys - tight.ys))
    return ref, err


def _unfold_data(ctx: CheckContext):
    key = ("unfold", ctx.seed, ctx.quick)
    if key in _CACHE:
        return _CACHE[key]
    b = 16 if ctx.quick else 64
    p = draw_networks(b, ctx.seed + 31)
    rng = np.random.default_rng([ctx.seed, 31])
    S = 10
    Ls = np.arange(1, 11)
    dts = (0.01, 0.1, 1.0)  # table 12's dt range [0.001, 1]
    pj = {k: jnp.asarray(p[k]) for k in ("tau", "gamma_r", "gamma", "mu", "A")}
    out = {}
    for dt in dts:
        inputs = rng.normal(0, 1, (S, b, M))
        ref, ref_err = _held_reference(p, inputs, dt)
        for name, kw in (("dt/L", {}), ("f_once", {"f_once": True})):
            errs = []
            for L in Ls:
                xs = np.asarray(_fused_dynamic(pj, jnp.asarray(inputs), jnp.asarray(dt), jnp.asarray(int(L)), **kw))
                errs.append(np.max(np.abs(xs - ref), axis=(0, 2)))  # per network, max over steps and neurons
            out[(name, dt)] = np.array(errs).T  # (B, L)
        out[("ref_err", dt)] = ref_err
    _CACHE[key] = (p, Ls, dts, out)
    return _CACHE[key]


def _unfold_check(reading: str):
    def check(ctx: CheckContext) -> Outcome:
        p, Ls, dts, out = _unfold_data(ctx)
        rows, scalars, arrays = [], {"networks": p["A"].shape[0], "input_steps": 10, "ranges": RANGES_TEXT}, {"L": Ls.astype(float), "dt": np.array(dts)}
        worst = None
        all_decrease = True
        for dt in dts:
            e = out[(reading, dt)]
            floor = 10 * out[("ref_err", dt)] + 1e-13
            diffs = np.diff(e, axis=1)  # error(L+1) - error(L)
            up = diffs > floor  # increase beyond the reference's error
            arrays[f"error_dt_{dt:g}"] = e
            ratio = e[:, -1] / np.maximum(e[:, 0], 1e-300)
            scalars[f"median_error_L10_over_L1_dt_{dt:g}"] = float(np.median(ratio))
            scalars[f"networks_not_monotone_dt_{dt:g}"] = int(np.any(up, axis=1).sum())
            scalars[f"reference_error_dt_{dt:g}"] = float(out[("ref_err", dt)])
            if reading == "dt/L":
                slope = np.median([np.polyfit(np.log(Ls[4:]), np.log(np.maximum(r[4:], 1e-300)), 1)[0] for r in e])
                scalars[f"median_order_in_L_dt_{dt:g}"] = float(-slope)
            if up.any():
                all_decrease = False
                if worst is None:
                    i, j = np.unravel_index(np.argmax(up), up.shape)
                    worst = {"dt": dt, "network": int(i), "L": int(Ls[j]), "error_L": float(e[i, j]), "error_L_plus_1": float(e[i, j + 1]),
                             "tau_min": float(p["tau"][i].min()), "tau_max": float(p["tau"][i].max())}
            rows.append(f"dt = {dt:g}: median error(L=10)/error(L=1) = {np.median(ratio):.3g}, "
                        f"{scalars[f'networks_not_monotone_dt_{dt:g}']} of {e.shape[0]} networks not monotone")
        msg = "; ".join(rows)
        ev = Evidence(arrays, scalars, worst or {})
        if all_decrease:
            return Outcome(Verdict.HOLDS, f"error against eq. 7 (input held per step) decreases at every L = 1..10 in every network: {msg}", ev)
        return Outcome(Verdict.REFUTED, f"the error grows with L in some networks: {msg}; first: dt = {worst['dt']:g}, L = {worst['L']} -> "
                       f"{worst['L'] + 1}: {worst['error_L']:.3g} -> {worst['error_L_plus_1']:.3g}", ev)

    return check


# ----------------------------------------------------------------------------- cost: T, L, N, LSTM


def _net(n: int, m: int, seed: int, b: int = 1):
    rng = np.random.default_rng([seed, n, m])
    return {
        "tau": jnp.asarray(np.exp(rng.uniform(np.log(0.01), 0.0, (b, n)))),
        "gamma_r": jnp.asarray(rng.normal(0, np.sqrt(2 / n), (b, n, n))),
        "gamma": jnp.asarray(rng.normal(0, np.sqrt(2 / m), (b, m, n))),
        "mu": jnp.asarray(rng.normal(0, 1, (b, n))),
        "A": jnp.asarray(rng.normal(0, 1, (b, n))),
    }


def _fit(x, y):
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def op_count(closed) -> float:
    """Work of a (closed) jaxpr: every executed primitive counts the elements it produces, a
    dot_general its multiply-adds; a scan's body counts `length` times, nested jaxprs (pjit,
    custom_jvp / custom_vjp calls) are entered. Exact and deterministic, unlike wall time."""
    jaxpr = getattr(closed, "jaxpr", closed)
    total = 0.0
    for eqn in jaxpr.eqns:
        sub = [v for k, v in eqn.params.items() if k in ("jaxpr", "call_jaxpr", "fun_jaxpr")]
        if eqn.primitive.name == "scan":
            total += eqn.params["length"] * op_count(eqn.params["jaxpr"])
        elif eqn.primitive.name == "while":
            raise ValueError("op_count: a while loop has no static trip count")
        elif sub:
            total += op_count(sub[0])
        elif eqn.primitive.name == "dot_general":  # multiply-adds: output size times the contracted size
            (lc, _), _ = eqn.params["dimension_numbers"]
            k = float(np.prod([eqn.invars[0].aval.shape[d] for d in lc])) if lc else 1.0
            total += k * float(np.prod(eqn.outvars[0].aval.shape))
        else:
            total += sum(float(np.prod(v.aval.shape)) if hasattr(v.aval, "shape") else 1.0 for v in eqn.outvars)
    return total


def _linear_fit(Ts, Ls, counts):
    """Least squares count = T (a L + b) + c over the (L, T) grid; returns (a, b, c, max relative residual)."""
    TT, LL = np.meshgrid(Ts, Ls)
    X = np.stack([(TT * LL).ravel(), TT.ravel(), np.ones(TT.size)], axis=1).astype(float)
    coef, *_ = np.linalg.lstsq(X, counts.ravel(), rcond=None)
    resid = float(np.max(np.abs(X @ coef - counts.ravel()) / counts.ravel()))
    return (*map(float, coef), resid)


def _cost_data(ctx: CheckContext):
    key = ("cost", ctx.quick)
    if key in _CACHE:
        return _CACHE[key]
    n, m = 32, 4
    theta, _, _ = _bptt_problem(0, n=n, m=m)
    Ts = np.array([64, 256, 1024] if ctx.quick else [64, 128, 256, 512, 1024])
    Ls = np.array([1, 4, 16] if ctx.quick else [1, 2, 4, 8, 16])
    fwd = np.zeros((len(Ls), len(Ts)))
    both = np.zeros_like(fwd)
    for i, L in enumerate(Ls):
        for j, T in enumerate(Ts):
            inputs, targets = jnp.zeros((int(T), 1, m)), jnp.zeros((int(T), 1, 2))
            loss = functools.partial(bptt_loss, dt=0.1, L=int(L))
            fwd[i, j] = op_count(jax.make_jaxpr(loss)(theta, inputs, targets))
            both[i, j] = op_count(jax.make_jaxpr(jax.value_and_grad(loss))(theta, inputs, targets))
    _CACHE[key] = (Ts, Ls, fwd, both)
    return _CACHE[key]


def _complexity_check(ctx: CheckContext) -> Outcome:
    Ts, Ls, fwd, _ = _cost_data(ctx)
    a, b, c, resid = _linear_fit(Ts, Ls, fwd)
    e_T, e_L = _fit(Ts, fwd[2]), _fit(Ls, fwd[:, -1])
    scalars = {"ops_per_substep": a, "ops_per_step_outside_substeps": b, "ops_constant": c, "max_relative_residual": resid,
               "exponent_T_at_L4": e_T, "exponent_L_at_T1024": e_L, "neurons": 32, "inputs": 4,
               "counted_by": "elements produced by every executed primitive (multiply-adds for dot_general) of the jaxpr (scan bodies times their length)"}
    ev = Evidence({"T": Ts.astype(float), "L": Ls.astype(float), "ops_forward": fwd}, scalars)
    msg = (f"exact op count of the eq. 9 forward pass (N = 32, M = 4, lax.scan over T, L substeps): {a:.0f} L T + {b:.0f} T + {c:.0f} "
           f"(max residual {resid:.1e} over T = 64..1024, L = 1..16): O(L x T); log-log slopes {e_T:.3f} in T, {e_L:.3f} in L (the T-only term "
           f"makes the L slope < 1 at small L). The per-substep cost {a:.0f} grows with N (dense gamma_r: N^2), which O(L x T) leaves out")
    if resid <= 1e-9 and a > 0:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED, msg + ": the count is not of the form a L T + b T + c", ev)


def _lstm_step(params, x, c, I):
    z = x @ params["U"] + I @ params["W"] + params["b"]  # (4N,)
    n = x.shape[-1]
    i, f, o, g = (jax.nn.sigmoid(z[..., :n]), jax.nn.sigmoid(z[..., n : 2 * n]), jax.nn.sigmoid(z[..., 2 * n : 3 * n]), jnp.tanh(z[..., 3 * n :]))
    c = f * c + i * g
    return o * jnp.tanh(c), c


def _flops(fn, *args) -> float:
    from ..xla_cost import cpu_flops

    return cpu_flops(fn, *args, compiled=True)  # compiled for the CPU whatever the device (nacverify.xla_cost)


def _lstm_data(quick: bool = False):
    key = ("lstm", quick)
    if key in _CACHE:
        return _CACHE[key]
    ns = np.array([256, 512, 1024] if quick else [64, 128, 256, 512, 1024])  # --quick: only the sizes the fit uses
    m, L = 8, 4
    rows = []
    for n in ns:
        p = _net(int(n), m, 1)
        x, I = jnp.zeros((1, int(n))), jnp.zeros((1, 1, m))
        ltc = _flops(lambda p, I: fused_sequence(p, I, 0.1, L), p, I)
        ltc_once = _flops(lambda p, I: fused_sequence(p, I, 0.1, L, f_once=True), p, I)
        lp = {"U": jnp.zeros((int(n), 4 * int(n))), "W": jnp.zeros((m, 4 * int(n))), "b": jnp.zeros(4 * int(n))}
        lstm = _flops(lambda lp, x, I: _lstm_step(lp, x, x, I), lp, x, I[0])
        rows.append((ltc, ltc_once, lstm))
    _CACHE[key] = (ns, m, L, np.array(rows))
    return _CACHE[key]


def _lstm_check(ctx: CheckContext) -> Outcome:
    ns, m, L, flops = _lstm_data(ctx.quick)
    big = ns >= 256
    exps = [_fit(ns[big], flops[big, k]) for k in range(3)]
    ratio = flops[-1, 0] / flops[-1, 2]
    ratio_once = flops[-1, 1] / flops[-1, 2]  # at N = 1024
    scalars = {"exponent_ltc": exps[0], "exponent_ltc_f_once": exps[1], "exponent_lstm": exps[2], "L": L, "inputs": m,
               "flops_ratio_ltc_over_lstm_N1024": float(ratio), "flops_ratio_ltc_f_once_over_lstm_N1024": float(ratio_once),
               "counted_by": "XLA cost_analysis of one compiled input step (CPU)"}
    ev = Evidence({"N": ns.astype(float), "flops_ltc": flops[:, 0], "flops_ltc_f_once": flops[:, 1], "flops_lstm": flops[:, 2]}, scalars)
    msg = (f"flops per input step (XLA count) grow like N^{exps[0]:.2f} (LTC, f re-evaluated at each of L = {L} substeps), N^{exps[1]:.2f} "
           f"(LTC, f once per step as section 10) and N^{exps[2]:.2f} (LSTM), fitted over N = 256..1024, M = {m}: the same order Theta(N^2 + N M); "
           f"the constants differ: LTC/LSTM = {ratio:.2f} (about L/4) and {ratio_once:.2f} (f once) at N = 1024")
    if all(abs(e - 2) <= 0.1 for e in exps):
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED if abs(exps[0] - exps[2]) > 0.3 else Verdict.INCONCLUSIVE, msg, ev)


# ----------------------------------------------------------------------------- BPTT (Algorithm 2)


def bptt_loss(theta, inputs, targets, dt, L: int):
    """L_total of Algorithm 2: sum over steps of ||x W_out + b_out - y||^2 (batch B = 1)."""
    xs = fused_sequence(theta, inputs, dt, L)  # (S, 1, N)
    y = xs @ theta["W_out"] + theta["b_out"]
    return jnp.sum((y - targets) ** 2)


def _bptt_problem(seed: int, S: int = 40, n: int = N, m: int = M, n_out: int = 2):
    rng = np.random.default_rng([seed, 77])
    theta = dict(_net(n, m, seed))
    theta["tau"] = jnp.asarray(np.exp(rng.uniform(np.log(0.001), np.log(10.0), (1, n))))  # table 12's tau range
    theta["W_out"] = jnp.asarray(rng.normal(0, np.sqrt(2 / (n + n_out)), (n, n_out)))
    theta["b_out"] = jnp.zeros(n_out)
    inputs = jnp.asarray(rng.normal(0, 1, (S, 1, m)))
    targets = jnp.asarray(rng.normal(0, 1, (S, 1, n_out)))
    return theta, inputs, targets


def _bptt_check(ctx: CheckContext) -> Outcome:
    """Cached per (seed, quick): ltc.table_bptt.accuracy reuses this claim's outcome."""
    key = ("bptt", ctx.seed, ctx.quick)
    if key not in _CACHE:
        _CACHE[key] = _bptt_outcome(ctx)
    return _CACHE[key]


def _bptt_outcome(ctx: CheckContext) -> Outcome:
    rows = []
    dts_L = ((0.1, 4), (1.0, 10), (0.001, 1))
    worst_rel, worst = 0.0, {}
    decreased = []
    for k, (dt, L) in enumerate(dts_L):
        theta, inputs, targets = _bptt_problem(ctx.seed + k)
        # one compiled function per case gives both the loss (for the finite differences) and the BPTT gradient
        value_and_grad = jax.jit(jax.value_and_grad(functools.partial(bptt_loss, dt=dt, L=L)))
        loss = lambda th, i, t: value_and_grad(th, i, t)[0]  # noqa: E731
        g = value_and_grad(theta, inputs, targets)[1]
        rng = np.random.default_rng([ctx.seed, k, 9])
        for _ in range(3 if ctx.quick else 8):  # directional derivatives against central differences
            v = {key: jnp.asarray(rng.normal(0, 1, val.shape)) for key, val in theta.items()}
            v["tau"] = v["tau"] * theta["tau"] * 0.1  # a relative perturbation keeps tau > 0
            h = 1e-5
            plus = loss({key: theta[key] + h * v[key] for key in theta}, inputs, targets)
            minus = loss({key: theta[key] - h * v[key] for key in theta}, inputs, targets)
            fd = float((plus - minus) / (2 * h))
            ad = float(sum(jnp.vdot(g[key], v[key]) for key in theta))
            rel = abs(ad - fd) / max(abs(fd), 1e-12)
            rows.append(rel)
            if rel >= worst_rel:
                worst_rel, worst = rel, {"dt": dt, "L": L, "bptt": ad, "finite_difference": fd}
        l0 = float(loss(theta, inputs, targets))
        gn = sum(float(jnp.vdot(g[key], g[key])) for key in theta)
        alpha = 1e-3 / max(gn, 1e-12) ** 0.5
        l1 = float(loss({key: theta[key] - alpha * g[key] for key in theta}, inputs, targets))
        decreased.append((l0, l1))
    rel = np.array(rows)
    scalars = {"max_relative_error": float(rel.max()), "directions": int(rel.size), "fd_step": 1e-5,
               "loss_decreased_every_case": all(b < a for a, b in decreased)}
    ev = Evidence({"relative_errors": rel, "loss_before_after": np.array(decreased)}, scalars, worst)
    msg = (f"BPTT gradient of L_total (eq. 9 unrolled L times per step, linear readout, 40 steps; (dt, L) = (0.1, 4), (1, 10), (0.001, 1); "
           f"tau in [0.001, 10]) matches central differences to {rel.max():.1e} relative over {rel.size} directions; one gradient step "
           f"(|step| = 1e-3) decreased the loss in every case: {scalars['loss_decreased_every_case']}")
    if rel.max() <= 1e-6 and scalars["loss_decreased_every_case"]:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED if rel.max() > 1e-3 else Verdict.INCONCLUSIVE, msg, ev)


def _bptt_time_check(ctx: CheckContext) -> Outcome:
    Ts, Ls, fwd, both = _cost_data(ctx)
    a, b, c, resid = _linear_fit(Ts, Ls, both)
    fa, _, _, _ = _linear_fit(Ts, Ls, fwd)
    ratio = both / fwd
    scalars = {"ops_per_substep_forward_backward": a, "ops_per_substep_forward": fa, "backward_factor": float(a / fa),
               "max_relative_residual": resid, "ratio_min": float(ratio.min()), "ratio_max": float(ratio.max()),
               "counted_by": "elements produced by every executed primitive (multiply-adds for dot_general) of the jaxpr of jax.value_and_grad"}
    ev = Evidence({"T": Ts.astype(float), "L": Ls.astype(float), "ops_forward": fwd, "ops_forward_backward": both}, scalars)
    msg = (f"exact op count of forward + BPTT backward (jax.value_and_grad through the eq. 9 scan, N = 32): {a:.0f} L T + {b:.0f} T + {c:.0f} "
           f"(max residual {resid:.1e}, T = 64..1024, L = 1..16): O(L x T); forward + backward = {a / fa:.2f} x forward per substep "
           f"(the table's factor 2; {ratio.min():.2f}..{ratio.max():.2f} overall)")
    if resid <= 1e-2 and a > 0:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED, msg + ": the count is not within 1% of the form a L T + b T + c", ev)


def _temp_bytes(fn, *args) -> float:
    return float(jax.jit(fn).lower(*args).compile().memory_analysis().temp_size_in_bytes)


def _const_input_rhs(t, x, p):
    I = jnp.full((1, M), 0.5)
    f = jax.nn.sigmoid(jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", I, p["gamma"]) + p["mu"])
    return -(1 / p["tau"] + f) * x + f * p["A"]


def _adjoint_loss(theta, T, adjoint):
    p = {k: theta[k] for k in ("tau", "gamma_r", "gamma", "mu", "A")}
    sol = diffrax.diffeqsolve(diffrax.ODETerm(_const_input_rhs), diffrax.Tsit5(), 0.0, T, 0.01, jnp.zeros((1, N)), args=p,
                              saveat=diffrax.SaveAt(t1=True), stepsize_controller=diffrax.ConstantStepSize(), adjoint=adjoint,
                              max_steps=int(round(T / 0.01)) + 1)
    return jnp.sum(sol.ys ** 2)


def _memory_check(ctx: CheckContext) -> Outcome:
    theta, _, _ = _bptt_problem(0)
    theta["tau"] = jnp.full((1, N), 0.5)
    Ts = np.array([256, 512, 1024] if ctx.quick else [256, 512, 1024, 2048, 4096])
    Ls = np.array([1, 2, 4] if ctx.quick else [1, 2, 4, 8])
    rng = np.random.default_rng(4)
    compiled: dict = {}  # (T, L) -> bytes: (1024, 4) is on both grids; the size depends on the shapes only, not on the values

    def bptt_bytes(T, L):
        if (int(T), int(L)) not in compiled:
            inputs = jnp.asarray(rng.normal(0, 1, (int(T), 1, M)))
            targets = jnp.asarray(rng.normal(0, 1, (int(T), 1, 2)))
            compiled[int(T), int(L)] = _temp_bytes(jax.grad(functools.partial(bptt_loss, dt=0.1, L=int(L))), theta, inputs, targets)
        return compiled[int(T), int(L)]

    mT = np.array([bptt_bytes(T, 4) for T in Ts])
    mL = np.array([bptt_bytes(1024, L) for L in Ls])
    horizons = np.array([1.0, 4.0] if ctx.quick else [1.0, 4.0, 16.0])  # constant step 0.01: 100..1600 steps
    madj = np.array([_temp_bytes(jax.grad(functools.partial(_adjoint_loss, T=float(h), adjoint=diffrax.BacksolveAdjoint())), theta) for h in horizons])
    eT, eL = _fit(Ts, mT), _fit(Ls, mL)
    eA = _fit(horizons, madj)
    scalars = {"exponent_T_bptt": eT, "exponent_L_bptt": eL, "exponent_steps_backsolve_adjoint": eA,
               "bptt_bytes_T_4096_or_max": float(mT[-1]), "adjoint_bytes_max": float(madj.max()), "adjoint_bytes_min": float(madj.min()),
               "counted_by": "XLA memory_analysis().temp_size_in_bytes of the compiled gradient (CPU)"}
    ev = Evidence({"T": Ts.astype(float), "bptt_temp_bytes_vs_T": mT, "L": Ls.astype(float), "bptt_temp_bytes_vs_L": mL,
                   "adjoint_horizon": horizons, "adjoint_temp_bytes": madj}, scalars)
    msg = (f"compiled temporary memory of BPTT (jax.grad through the eq. 9 scan, no checkpointing) ~ T^{eT:.2f} (T = {Ts[0]}..{Ts[-1]}, L = 4) "
           f"and ~ L^{eL:.2f} (L = 1..{Ls[-1]}, T = 1024); diffrax BacksolveAdjoint on eq. 7 (constant step 0.01, {100 * horizons[0]:.0f}..{100 * horizons[-1]:.0f} steps): "
           f"~ steps^{eA:.2f} ({madj.min():.0f}..{madj.max():.0f} bytes): O(L x T) and O(1) as the table says")
    if abs(eT - 1) <= 0.1 and abs(eL - 1) <= 0.25 and abs(eA) <= 0.05:
        return Outcome(Verdict.HOLDS, msg, ev)
    return Outcome(Verdict.REFUTED, msg, ev)


def graph_depth(jaxpr) -> int:
    """Longest chain of equations in a (closed) jaxpr, each equation counting 1."""
    depth: dict = {}
    longest = 0
    for eqn in jaxpr.jaxpr.eqns:
        d = 1 + max((depth.get(id(v), 0) for v in eqn.invars if type(v).__name__ != "Literal"), default=0)
        for v in eqn.outvars:
            depth[id(v)] = d
        longest = max(longest, d)
    return longest


def _unrolled_loss(theta, inputs, targets, dt, L):
    x = jnp.zeros_like(theta["A"])
    total = 0.0
    for k in range(inputs.shape[0]):
        for _ in range(L):
            f = jax.nn.sigmoid(x @ theta["gamma_r"][0] + inputs[k] @ theta["gamma"][0] + theta["mu"])
            x = (x + dt * f * theta["A"]) / (1 + dt * (1 / theta["tau"] + f))
        total = total + jnp.sum((x @ theta["W_out"] + theta["b_out"] - targets[k]) ** 2)
    return total


def _depth_data():
    if "depth" in _CACHE:
        return _CACHE["depth"]
    theta, _, _ = _bptt_problem(0)
    Ts, Ls = np.array([2, 4, 8, 16]), np.array([1, 2, 4])
    d = np.zeros((len(Ls), len(Ts)))
    for i, L in enumerate(Ls):
        for j, T in enumerate(Ts):
            inputs, targets = jnp.zeros((int(T), 1, M)), jnp.zeros((int(T), 1, 2))
            jaxpr = jax.make_jaxpr(jax.grad(functools.partial(_unrolled_loss, dt=0.1, L=int(L))))(theta, inputs, targets)
            d[i, j] = graph_depth(jaxpr)
    LT = (Ls[:, None] * Ts[None, :]).ravel()
    a, b = np.polyfit(LT, d.ravel(), 1)
    resid = float(np.max(np.abs(np.polyval([a, b], LT) - d.ravel())))
    _CACHE["depth"] = (Ts, Ls, d, float(a), float(b), resid)
    return _CACHE["depth"]


def _depth_check(per_step: bool):
    def check(ctx: CheckContext) -> Outcome:
        Ts, Ls, d, a, b, resid = _depth_data()
        scalars = {"depth_per_L_T": a, "depth_offset": b, "max_fit_residual": resid, "counted_by": "longest equation chain in the jaxpr of jax.grad"}
        ev = Evidence({"T": Ts.astype(float), "L": Ls.astype(float), "depth": d}, scalars)
        per = d / Ts[None, :]
        msg = (f"the BPTT graph (forward + backward, unrolled) has depth {a:.1f} L T + {b:.0f} (max residual {resid:.0f}) for L = 1..4, T = 2..16: "
               f"it grows with T at fixed L (L = 1: {d[0, 0]:.0f} at T = 2 -> {d[0, -1]:.0f} at T = 16)")
        if per_step:
            ok = np.all(np.abs(per[:, -1] - a * Ls - b / Ts[-1]) <= 0.05 * per[:, -1])
            return Outcome(Verdict.HOLDS if ok else Verdict.INCONCLUSIVE, f"{msg}; per input step {per[0, -1]:.0f}, {per[1, -1]:.0f}, "
                           f"{per[2, -1]:.0f} at L = 1, 2, 4 (T = 16): O(L) per step", ev)
        witness = {"L": 1, "T_small": int(Ts[0]), "depth_small": float(d[0, 0]), "T_large": int(Ts[-1]), "depth_large": float(d[0, -1])}
        return Outcome(Verdict.REFUTED if d[0, -1] > 2 * d[0, 0] else Verdict.INCONCLUSIVE, msg + ": O(L x T), not O(L)",
                       Evidence(ev.arrays, scalars, witness))

    return check


# ----------------------------------------------------------------------------- adjoint vs discretise-then-optimise


def _sens_rhs(t, x, p):
    I = 0.5 * jnp.sin(2 * jnp.pi * t + jnp.arange(M))[None, :]
    f = jax.nn.sigmoid(jnp.einsum("bn,bnk->bk", x, p["gamma_r"]) + jnp.einsum("bm,bmk->bk", I, p["gamma"]) + p["mu"])
    return -(1 / p["tau"] + f) * x + f * p["A"]


@functools.partial(jax.jit, static_argnames=("backsolve",))
def _sens_grad(theta, tol, backsolve: bool):
    """dLoss/dtheta, Loss = sum over 10 saved points of ||x - 0.3||^2 on [0, 1]: backprop through Tsit5
    (discretise-then-optimise, RecursiveCheckpointAdjoint) or diffrax's BacksolveAdjoint."""

    def loss(theta):
        sol = diffrax.diffeqsolve(diffrax.ODETerm(_sens_rhs), diffrax.Tsit5(), 0.0, 1.0, None, jnp.zeros((1, N)), args=theta,
                                  saveat=diffrax.SaveAt(ts=jnp.linspace(0.0, 1.0, 11)[1:]),
                                  stepsize_controller=diffrax.PIDController(rtol=tol, atol=tol * 1e-2),
                                  adjoint=diffrax.BacksolveAdjoint() if backsolve else diffrax.RecursiveCheckpointAdjoint(),
                                  max_steps=100_000, throw=False)
        return jnp.sum((sol.ys[:, 0, :] - 0.3) ** 2)

    return jax.grad(loss)(theta)


def _grad_vec(g) -> np.ndarray:
    return np.concatenate([np.ravel(np.asarray(g[k])) for k in sorted(g)])


def _adjoint_data(ctx: CheckContext):
    key = ("adjoint", ctx.seed, ctx.quick)
    if key in _CACHE:
        return _CACHE[key]
    regimes = {"tau in [0.1, 1]": (0.1, 1.0), "tau in [0.01, 0.03]": (0.01, 0.03)}
    nets = 1 if ctx.quick else 4
    res = {}
    for name, (lo, hi) in regimes.items():
        rows = []
        for k in range(nets):
            net = _net(N, M, 100 + k + ctx.seed)
            rng = np.random.default_rng([ctx.seed, k, 55])
            net["tau"] = jnp.asarray(np.exp(rng.uniform(np.log(lo), np.log(hi), (1, N))))
            theta = {key2: net[key2] for key2 in ("tau", "gamma_r", "gamma", "mu", "A")}

            def grad(tol, backsolve):
                return _grad_vec(_sens_grad(theta, jnp.asarray(tol), backsolve))

            ref = grad(1e-12, False)
            ref2 = grad(1e-10, False)
            dto = grad(1e-6, False)
            bs = grad(1e-6, True)
            nrm = np.linalg.norm(ref)
            rows.append((np.linalg.norm(ref2 - ref) / nrm, np.linalg.norm(dto - ref) / nrm, np.linalg.norm(bs - ref) / nrm,
                         np.linalg.norm(bs - dto) / np.linalg.norm(dto)))
        res[name] = np.array(rows)
    _CACHE[key] = res
    return res


def _adjoint_check(ctx: CheckContext) -> Outcome:
    res = _adjoint_data(ctx)
    scalars, parts = {}, []
    verdict_ratio = {}
    for name, r in res.items():
        ref_err, dto, bs = np.nanmax(r[:, 0]), np.nanmax(r[:, 1]), r[:, 2]
        bs_max = float(np.max(bs)) if np.all(np.isfinite(bs)) else float("inf")
        tag = name.replace(" ", "_")
        scalars.update({f"reference_error_{tag}": float(ref_err), f"dto_error_{tag}": float(dto), f"backsolve_error_{tag}": bs_max})
        verdict_ratio[name] = bs_max / max(dto, 1e-300)
        parts.append(f"{name}: backsolve adjoint error {bs_max:.2e} vs discretise-then-optimise {dto:.2e} (x{verdict_ratio[name]:.3g}; reference "
                     f"error {ref_err:.1e})")
    ev = Evidence({k.replace(" ", "_"): v for k, v in res.items()}, scalars)
    msg = ("relative gradient errors of dLoss/dtheta (eq. 7, sigmoid, 10 saved points, Tsit5 rtol 1e-6, reference: backprop through Tsit5 at rtol "
           "1e-12): " + "; ".join(parts))
    ratios = np.array(list(verdict_ratio.values()))
    if np.any(ratios >= 10) and np.all(ratios >= 1):
        return Outcome(Verdict.HOLDS, msg, ev)
    if np.all(ratios < 1):
        return Outcome(Verdict.REFUTED, msg, ev)
    return Outcome(Verdict.INCONCLUSIVE, msg + ": the adjoint's gradient error is of the order of backprop-through-the-solver's at the same tolerance "
                   f"(x{ratios.min():.2g}..x{ratios.max():.2g}), not clearly larger; 'introduces numerical errors' is neither shown (no regime 10x worse) "
                   "nor refuted (it is not better everywhere)", ev)


def _bwd_accuracy_check(ctx: CheckContext) -> Outcome:
    bptt = _bptt_check(ctx)
    res = _adjoint_data(ctx)
    bptt_err = bptt.evidence.scalars["max_relative_error"]
    own = {name: float(np.nanmax(r[:, 3])) if np.all(np.isfinite(r[:, 3])) else float("inf") for name, r in res.items()}
    scalars = {"bptt_error_vs_finite_differences": float(bptt_err), **{f"adjoint_error_vs_own_forward_{k.replace(' ', '_')}": v for k, v in own.items()}}
    msg = (f"BPTT: gradient of its own forward computation to {bptt_err:.1e} (central differences); backsolve adjoint: differs from the exact "
           f"gradient of its forward solve (backprop through the same Tsit5 solve) by " + ", ".join(f"{v:.2e} ({k})" for k, v in own.items()))
    if all(v > 100 * bptt_err for v in own.values()):
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    return Outcome(Verdict.INCONCLUSIVE, msg + " (not 100x apart in every regime)", Evidence({}, scalars))


# ----------------------------------------------------------------------------- section 15 epsilon, section 6 unbounded states


def _epsilon_denominator_check(ctx: CheckContext) -> Outcome:
    dts, taus, fs = np.array([0.001, 1.0]), np.array([0.001, 10.0]), np.array([-1.0, 0.0, 1.0])
    corners = 1 + dts[:, None, None] * (1 / taus[None, :, None] + fs[None, None, :])
    rng = np.random.default_rng(ctx.seed)
    n = 10_000 if ctx.quick else 1_000_000
    dt = rng.uniform(0.001, 1.0, n)
    tau = np.exp(rng.uniform(np.log(0.001), np.log(10.0), n))
    f = rng.uniform(-1, 1, n)
    d = 1 + dt * (1 / tau + f)
    scalars = {"min_over_corners_f_in_[-1,1]": float(corners.min()), "min_sampled": float(d.min()), "samples": n,
               "min_over_corners_f_nonnegative": float(corners[..., 1:].min())}
    msg = (f"1 + dt (1/tau + f) is affine in f and in dt and decreasing in tau, so its minimum over table 12's ranges (dt in [0.001, 1], tau in "
           f"[0.001, 10]) and f in [-1, 1] is at a corner: {corners.min():.3g} (dt = 1, tau = 10, f = -1); {corners[..., 1:].min():.3g} for f >= 0 "
           f"(sigmoid, ReLU); {n} random samples: min {d.min():.3g}. It vanishes only outside: f < 0, tau > 1 and dt >= tau/(tau (1 + f) ... ) "
           f"(tau = 10, f = -1: dt = 10/9)")
    ok = corners.min() > 0.09 and d.min() >= corners.min() - 1e-12
    return Outcome(Verdict.HOLDS if ok else Verdict.REFUTED, msg, Evidence({"corners": corners.ravel()}, scalars))


def _epsilon_check(ctx: CheckContext) -> Outcome:
    """Eq. 9 at an exact zero of its denominator, with and without section 15's epsilon."""
    tau, A, x, dt, eps = 2.0, 1.0, 0.0, 2.0, 1e-8
    f = float(np.tanh(-20.0))  # = -1.0 exactly in float64: tanh saturates
    den = 1 + dt * (1 / tau + f)  # 1 + 2 (0.5 - 1) = 0 exactly
    with np.errstate(divide="ignore", invalid="ignore"):
        plain = float(np.float64(x + dt * f * A) / np.float64(den))
    with_eps = float(np.float64(x + dt * f * A) / np.float64(den + eps))
    witness = {"tau": tau, "f": f, "A": A, "x_n": x, "dt": dt, "denominator": den, "x_next_without_epsilon": plain, "x_next_with_epsilon": with_eps}
    msg = (f"f = tanh = -1 (saturated), tau = 2 (table 12), A = 1, x_n = 0, dt = 2 (outside table 12's dt <= 1, the only place the denominator can "
           f"vanish): 1 + dt (1/tau + f) = {den:g}; eq. 9 gives {plain:g} without epsilon and {with_eps:.4g} with epsilon = 1e-8 added: no division by "
           f"zero, as line 497 says (the step is large near the pole, and a denominator of exactly -epsilon would still divide by zero; 002 does not "
           f"say otherwise)")
    ok = den == 0.0 and not np.isfinite(plain) and np.isfinite(with_eps)
    return Outcome(Verdict.HOLDS if ok else Verdict.INCONCLUSIVE, msg, Evidence({}, {"abs_x_next_with_epsilon": abs(with_eps)}, witness))


def _one_neuron(activation):
    p = {"tau": jnp.array([[10.0]]), "gamma_r": jnp.array([[[0.5]]]), "gamma": jnp.array([[[2.0]]]), "mu": jnp.array([[0.0]]), "A": jnp.array([[1.0]])}
    return p


def _const_rhs_sigmoid(t, y, p):
    return _const_rhs(t, y, p, "sigmoid")


def _const_rhs_tanh(t, y, p):
    return _const_rhs(t, y, p, "tanh")


def _const_rhs(t, y, p, activation):
    x = y.reshape(1, 1)
    f = activation_fn(activation)(x * p["gamma_r"][0] + p["I"] * p["gamma"][0] + p["mu"])
    return (-(1 / p["tau"] + f) * x + f * p["A"]).reshape(-1)


def _unbounded_check(activation: str):
    def check(ctx: CheckContext) -> Outcome:
        rows = {}
        for I in (-5.0, 5.0):
            p = dict(_one_neuron(activation))
            p["I"] = jnp.array([[I]])
            ts = np.linspace(0, 20.0, 201)
            rhs = _const_rhs_tanh if activation == "tanh" else _const_rhs_sigmoid
            x = solve_system(rhs, p, np.zeros(1), ts, rtol=1e-10, atol=1e-12).ys[0]
            # fused step eq. 9, dt = 0.1 (table 12's range), 200 steps
            xf, xs = 0.0, []
            act = activation_fn(activation, np)
            for _ in range(200):
                f = float(act(0.5 * xf + 2.0 * I))
                xf = (xf + 0.1 * f * 1.0) / (1 + 0.1 * (0.1 + f))
                xs.append(xf)
            late = ts >= 10
            rate = float(np.polyfit(ts[late], np.log(np.maximum(np.abs(x[late]), 1e-300)), 1)[0])
            rows[I] = (x, np.array(xs), rate)
        worst = max(rows, key=lambda k: abs(rows[k][0][-1]))
        x, xs, rate = rows[worst]
        scalars = {"ode_abs_x_at_t20": float(abs(x[-1])), "ode_growth_rate_t10_20": rate, "fused_abs_x_after_200_steps": float(abs(xs[-1])),
                   "input": worst}
        ev = Evidence({"t": np.linspace(0, 20.0, 201), "x_ode": x, "x_fused": xs}, scalars,
                      {"tau": 10.0, "gamma_r": 0.5, "gamma": 2.0, "mu": 0.0, "A": 1.0, "I": worst, "x_t20": float(x[-1]), "growth_rate": rate})
        why = "(1/tau + f -> 0.1 - 1 = -0.9)" if activation == "tanh" else "(f = sigmoid > 0, so 1/tau + f > 0.1)"
        msg = (f"one neuron, f = {activation}(0.5 x + 2 I), tau = 10, A = 1, mu = 0 (inside table 12), constant input I = {worst:g}: "
               f"|x(20)| = {abs(x[-1]):.3g}, growth rate of log|x| on [10, 20] = {rate:.3f} {why}; fused step "
               f"(dt = 0.1, 200 steps): |x| = {abs(xs[-1]):.3g}")
        if abs(x[-1]) > 1e3 and rate > 0.5:
            return Outcome(Verdict.REFUTED, msg + ": the hidden state grows exponentially without bound", ev)
        if abs(x[-1]) <= 1.0 + 1e-9 and np.all(np.abs(xs) <= 1.0 + 1e-12):
            return Outcome(Verdict.HOLDS, msg + ": stays in [min(0, A), max(0, A)] = [0, 1]", ev)
        return Outcome(Verdict.INCONCLUSIVE, msg, ev)

    return check


# ----------------------------------------------------------------------------- section 16: trajectory length


@functools.partial(jax.jit, static_argnames=("steps",))
def _traj_run(W, U, b, A, steps: int):
    """Summed step lengths (seeds, 3) of the three models of `_traj_lengths`, by RK4 from x = 0
    (the weights are arguments, so one compile serves every draw of the same width)."""
    h = 2 * np.pi / steps

    def fields(t, x):
        I = jnp.array([jnp.cos(t), jnp.sin(t)])
        f = jnp.clip(jnp.einsum("sik,skj->sij", x, W) + (I @ U)[:, None, :] + b, -1.0, 1.0)
        return jnp.stack([f[:, 0], -x[:, 1] + f[:, 1], -(1 + f[:, 2]) * x[:, 2] + f[:, 2] * A[:, 0]], axis=1)

    def step(x, n):
        t = n * h
        k1 = fields(t, x)
        k2 = fields(t + h / 2, x + h / 2 * k1)
        k3 = fields(t + h / 2, x + h / 2 * k2)
        k4 = fields(t + h, x + h * k3)
        xn = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return xn, jnp.linalg.norm(xn - x, axis=-1)

    # x has shape (seeds, 3 models, k): the three models share weights
    x0 = jnp.zeros((W.shape[0], 3, W.shape[-1]), W.dtype)
    return jnp.sum(jax.lax.scan(step, x0, jnp.arange(steps))[1], axis=0)


def _traj_lengths(k: int, sw2: float, seeds: int, steps: int = 300):
    """Latent trajectory lengths (seeds, 3: Neural ODE, CT-RNN, LTC), Hard-tanh, width k,
    weights N(0, sw2/k), biases N(0, 1), circular 2-D input I(t) = (cos t, sin t), t in [0, 2 pi], RK4."""
    key = ("traj", k, sw2, seeds, steps)
    if key not in _CACHE:
        rng = np.random.default_rng([k, int(sw2 * 10), 8])
        W = jnp.asarray(rng.normal(0, np.sqrt(sw2 / k), (seeds, k, k)))
        U = jnp.asarray(rng.normal(0, np.sqrt(sw2 / 2), (seeds, 2, k)))
        b = jnp.asarray(rng.normal(0, 1.0, (seeds, 1, k)))
        A = jnp.asarray(rng.normal(0, 1.0, (seeds, 1, k)))
        _CACHE[key] = np.asarray(_traj_run(W, U, b, A, steps))  # (seeds, 3)
    return _CACHE[key]


def _expressivity_check(ctx: CheckContext) -> Outcome:
    seeds = 5 if ctx.quick else 20
    ks = np.array([25, 50, 100, 200])
    sws = np.array([1.0, 2.0, 4.0, 8.0])
    by_k = np.array([_traj_lengths(int(k), 2.0, seeds).mean(axis=0) for k in ks])  # (K, 3)
    by_s = np.array([_traj_lengths(100, float(s), seeds).mean(axis=0) for s in sws])
    at100 = by_k[2]
    e_k = [_fit(ks, by_k[:, m]) for m in range(3)]
    e_s = [_fit(sws, by_s[:, m]) for m in range(3)]
    longer = bool(at100[2] > at100[0] and at100[2] > at100[1])
    scalars = {"ltc_length_k100": float(at100[2]), "ctrnn_length_k100": float(at100[1]), "node_length_k100": float(at100[0]),
               "ltc_exponent_in_width": e_k[2], "ltc_exponent_in_sigma_w2": e_s[2], "seeds": seeds}
    ev = Evidence({"width": ks.astype(float), "lengths_by_width_node_ctrnn_ltc": by_k, "sigma_w2": sws, "lengths_by_sigma_w2_node_ctrnn_ltc": by_s}, scalars)
    msg = (f"Hard-tanh, 1 layer, sigma_b^2 = 1, circular input, t in [0, 2 pi], x(0) = 0, tau = 1, length in the full latent space (not projected), "
           f"{seeds} seeds: width 100, sigma_w^2 = 2: Neural ODE {at100[0]:.3g}, CT-RNN {at100[1]:.3g}, LTC {at100[2]:.3g}; LTC length ~ k^{e_k[2]:.2f} "
           f"(k = 25..200) and ~ (sigma_w^2)^{e_s[2]:.2f} (1..8)")
    why = (" — inconclusive: 002 fixes neither the input, the horizon, x(0), tau and A, nor how the trajectory is projected (line 327 quotes a 2-D "
           "projection of the cited paper); the length in the full space grows like sqrt(k) for any model whose coordinates move O(1), so "
           "'linear in width' depends on that unspecified projection")
    fails = [name for name, ok in (("LTC longest", longer), ("linear in width", abs(e_k[2] - 1) <= 0.2), ("faster than linear in sigma_w^2", e_s[2] > 1))
             if not ok]
    found = ("; in this setting none of the three statements holds" if len(fails) == 3 else
             f"; in this setting these fail: {', '.join(fails)}" if fails else "; in this setting all three hold")
    return Outcome(Verdict.INCONCLUSIVE, msg + found + why, ev)


def _efficient_check(ctx: CheckContext) -> Outcome:
    parts = {"O(L x T)": _complexity_check(ctx), "matching LSTM": _lstm_check(ctx), "adjoint backward errors": _adjoint_check(ctx)}
    verdicts = {k: o.verdict for k, o in parts.items()}
    scalars = {f"verdict_{k.replace(' ', '_')}": str(v) for k, v in verdicts.items()}
    msg = "; ".join(f"{k}: {o.verdict} ({o.message[:160]}...)" for k, o in parts.items())
    if all(v == Verdict.HOLDS for v in verdicts.values()):
        return Outcome(Verdict.HOLDS, msg, Evidence({}, scalars))
    if any(v == Verdict.REFUTED for v in verdicts.values()):
        return Outcome(Verdict.REFUTED, msg, Evidence({}, scalars))
    return Outcome(Verdict.INCONCLUSIVE, msg, Evidence({}, scalars))


# ----------------------------------------------------------------------------- table 12 ranges vs section 14 initialisation


def outside_probability(sigma2: float, bound: float) -> float:
    """P(|Z| > bound) for Z ~ N(0, sigma2)."""
    return float(erfc(bound / math.sqrt(2 * sigma2)))


def _range_check(name: str, bound: float, sigma2_of_k, ks, what: str):
    def check(ctx: CheckContext) -> Outcome:
        probs = np.array([outside_probability(sigma2_of_k(k), bound) for k in ks])
        rng = np.random.default_rng(ctx.seed)
        draws = 100_000 if ctx.quick else 1_000_000
        k_worst = ks[int(np.argmax(probs))]
        mc = float(np.mean(np.abs(rng.normal(0, math.sqrt(sigma2_of_k(k_worst)), draws)) > bound))
        scalars = {"max_outside_probability": float(probs.max()), "worst_fan_in": float(k_worst), "monte_carlo_outside": mc, "monte_carlo_draws": draws,
                   "threshold": 0.05, "flips_at": float(1 - probs.max())}  # the required coverage at and below which the verdict is holds
        ev = Evidence({"fan_in": np.asarray(ks, dtype=float), "outside_probability": probs}, scalars)
        msg = (f"{what}: P(outside [-{bound:g}, {bound:g}]) = " + ", ".join(f"{p:.3%} (k = {k})" for k, p in list(zip(ks, probs))[:4])
               + f"; worst {probs.max():.3%} at k = {k_worst} (Monte Carlo {mc:.3%}, {draws} draws)")
        if probs.max() > 0.05:
            return Outcome(Verdict.REFUTED, msg + f": more than 5% of initial values lie outside the 'typical range' (the 95% is ours; a required "
                           f"coverage of {1 - probs.max():.1%} or less would hold)",
                           Evidence(ev.arrays, scalars, {"fan_in": float(k_worst), "outside_probability": float(probs.max())}))
        return Outcome(Verdict.HOLDS, msg + ": at least 95% inside", ev)

    return check


_CACHE: dict = {}

_TYPICAL = "'Typical Range' [a, b] (init) read as: at least 95% of section 14's initial values fall in [a, b]"
_COVERAGE = "the 95% coverage: 002 gives no fraction for a 'typical range' (flips_at: the largest required coverage that holds)"


def ltc_more_claims() -> list[Claim]:
    s = SEED002
    unfold_src = f"{s}, section 4 line 185, 'This is applied L times (unfolding steps) per input time step for accuracy'; table 12 line 415, 'More = more accurate'"
    return [
        Claim("ltc.eq9.unfold_L.dt_over_L", unfold_src,
              "error of the discrete LTC against eq. 7 (input held per step) decreases at every L = 1..10 when each substep is dt/L and f is re-evaluated",
              f"sigmoid, 10 input steps of N(0, 1) inputs, dt in {{0.01, 0.1, 1}} (table 12's dt range), L = 1..10 (table 12); {RANGES_TEXT}",
              Verdict.HOLDS, "the fused step is a convergent first-order scheme: error ~ 1/L", _unfold_check("dt/L"), group="ltc", kind=Kind.READING,
              reading="L substeps of size dt/L each (they cover one input step), f re-evaluated at each substep"),
        Claim("ltc.sec10.f_once", f"{s}, section 10, eq. 22-23, line 356, '2. **Apply fused solver** L times'",
              "error against eq. 7 decreases with L when f_val is computed once per input step (eq. 22) and eq. 23 applied L times with dt/L",
              f"as ltc.eq9.unfold_L.dt_over_L", Verdict.REFUTED,
              "measured: with f frozen the L substeps converge to the exact solve of the frozen-f linear ODE, whose own error (f frozen over "
              "dt) partly cancels the substeps' error: in some networks (dt = 0.1, 1) the error rises again with L",
              _unfold_check("f_once"), group="ltc", kind=Kind.READING,
              reading="f_val computed once per input step (eq. 22) and kept fixed over the L applications of eq. 23, each of size dt/L"),
        Claim("ltc.eq9.complexity", f"{s}, section 4 line 186, 'Computational complexity for input sequence of length T: O(L x T)'",
              "the work of the eq. 9 forward pass (exact count of elements produced by executed primitives) is a L T + b T + c",
              "JAX jaxpr of the forward pass, N = 32, M = 4, lax.scan over T, L substeps unrolled; T = 64..1024, L = 1..16; exact fit required",
              Verdict.HOLDS, "each substep does the same work; the count is exactly affine in L T and T", _complexity_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.eq9.lstm_complexity", f"{s}, section 4 line 187, 'A dense LTC with N neurons has the same complexity as a dense LSTM with N cells'",
              "flops per input step of a dense LTC (eq. 9, L substeps) and of a dense LSTM grow with the same power of N",
              "XLA flop counts of one compiled step, N = 64..1024 (256..1024 under --quick; fit over 256..1024), M = 8, L = 4", Verdict.HOLDS,
              "both are Theta(N^2 + N M); the constant ratio is about L/4", _lstm_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.alg_bptt.gradient", f"{s}, section 5 line 201, 'The LTC is trained by vanilla BPTT (not the adjoint method), which trades memory for accurate gradient computation'",
              "backpropagation through the unrolled eq. 9 graph (Algorithm 2) gives the gradient of L_total to 1e-6 relative (central differences), "
              "and one gradient-descent step with a small step decreases L_total",
              "float64, N = 4, M = 2, 2 outputs, 40 input steps, (dt, L) in {(0.1, 4), (1, 10), (0.001, 1)}, tau log-uniform in [0.001, 10]",
              Verdict.HOLDS, "reverse-mode AD of the exact discrete computation", _bptt_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.table_bptt.time", f"{s}, section 5 complexity table line 216, '| Time | O(L x T x 2) |'",
              "the work of forward + BPTT backward (exact count of elements produced by executed primitives) is a L T + b T + c, a small "
              "multiple of the forward's", "JAX jaxpr of jax.value_and_grad, N = 32, T = 64..1024, L = 1..16; affine fit within 1% required (wall time is "
              "not used: on a shared CPU it did not give stable exponents)",
              Verdict.HOLDS, "reverse mode repeats each substep's work a bounded number of times", _bptt_time_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.table_bptt.memory", f"{s}, section 5 complexity table line 217, '| Memory | O(L x T) | O(1) |'",
              "BPTT's compiled temporary memory grows linearly in T and L; the backsolve adjoint's does not grow with the number of steps",
              "XLA memory analysis of jax.grad (CPU); BPTT through a lax.scan of eq. 9; diffrax BacksolveAdjoint on eq. 7 with 100..1600 constant steps",
              Verdict.HOLDS, "measured: BPTT bytes ~ T and ~ L, adjoint bytes constant", _memory_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.table_bptt.depth", f"{s}, section 5 complexity table line 218, '| Depth | O(L) | O(L_b) |'",
              "the depth (longest chain of operations) of the BPTT computation graph is O(L), independent of T",
              "jaxpr of jax.grad of the unrolled eq. 9 loss, L = 1..4, T = 2..16", Verdict.REFUTED,
              "the graph is a chain through all L x T steps: depth ~ L x T", _depth_check(False), group="ltc", kind=Kind.READING,
              reading="'Depth' (undefined in 002) read as the longest chain of operations of the whole unrolled BPTT graph, forward and backward "
                      "over all T input steps (the per-step reading is ltc.table_bptt.depth_per_step)"),
        Claim("ltc.table_bptt.depth_per_step", f"{s}, section 5 complexity table line 218, '| Depth | O(L) |'",
              "the depth of the BPTT graph per input step is O(L)", "as ltc.table_bptt.depth", Verdict.HOLDS, "depth = a L T + b",
              _depth_check(True), group="ltc", kind=Kind.READING, reading="'Depth O(L)' read as the depth per input step"),
        Claim("ltc.s5.adjoint_errors", f"{s}, section 5 line 222, 'The adjoint method has lower memory but introduces numerical errors in the backward pass'",
              "at the same forward tolerance, the backsolve adjoint's gradient error exceeds discretise-then-optimise's (backprop through the "
              "solver) by 10x or more in some regime of 002's tau range, and is never smaller",
              "eq. 7, sigmoid, N = 4, M = 2, smooth input, loss at 10 points of [0, 1]; Tsit5 rtol 1e-6 (atol 1e-8); tau in [0.1, 1] and [0.01, 0.03]; "
              "reference: backprop through Tsit5 at rtol 1e-12 (checked against 1e-10)",
              Verdict.INCONCLUSIVE, "measured: backsolve adjoint errors 0.6x (tau 0.1-1) to 2.4x (tau 0.01-0.03) those of backprop through "
              "the solver, both ~1e-7..1e-6 at rtol 1e-6: not clearly worse, not better everywhere", _adjoint_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.table_bptt.accuracy", f"{s}, section 5 complexity table line 220, '| BWD accuracy | **High** | **Low** |'",
              "BPTT's gradient matches its own forward computation to ~1e-9, while the backsolve adjoint's gradient differs from the exact gradient "
              "of its own forward solve by more than 100x that", "as ltc.alg_bptt.gradient and ltc.s5.adjoint_errors", Verdict.HOLDS,
              "measured: BPTT is exact for its discrete model; the adjoint re-solves the state backwards", _bwd_accuracy_check, group="ltc",
              kind=Kind.READING, reading="backward accuracy = error of the gradient against the exact derivative of the method's own forward computation"),
        Claim("ltc.sec15.epsilon.denominator", f"{s}, section 15 line 497, 'Add a small epsilon (~10^-8) to the denominator to avoid division by zero'",
              "the denominator 1 + dt (1/tau + f) of eq. 9 is >= 0.1 over table 12's ranges (dt in [0.001, 1], tau in [0.001, 10]) for any f in [-1, 1], "
              ">= 1 for f >= 0", "corners of the box (the denominator is affine in f and dt, monotone in 1/tau) and random samples",
              Verdict.HOLDS, "minimum 1 - 1 + 0.1 = 0.1 at dt = 1, tau = 10, f = -1", _epsilon_denominator_check, group="ltc", kind=Kind.LEMMA),
        Claim("ltc.sec15.epsilon", f"{s}, section 15 line 497, 'Add a small epsilon (~10^-8) to the denominator to avoid division by zero'",
              "with epsilon = 1e-8 added to the denominator, eq. 9 does not divide by zero where 1 + dt (1/tau + f) is exactly 0: the step is finite",
              "tanh saturated at f = -1 (float64), tau = 2 (table 12), A = 1, x_n = 0, dt = 2: the denominator is exactly 0 in float64 (it can vanish "
              "only for dt > 1, outside table 12's dt range, where ltc.sec15.epsilon.denominator gives >= 0.1)",
              Verdict.HOLDS, "without epsilon the step is -2/0 = -inf; with it -2/1e-8 = -2e8, finite (large: epsilon avoids the division by zero, "
              "which is all line 497 says, not the size of the step near the pole)", _epsilon_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.sec6.unbounded.tanh", f"{s}, section 6 line 264, 'Standard neural ODEs and RNNs can have unbounded hidden states. LTCs cannot, by construction.'",
              "an LTC with f = tanh (eq. 9a) and parameters inside table 12 has a bounded hidden state for all t",
              "one neuron, tau = 10, gamma_r = 0.5, gamma = 2, mu = 0, A = 1, constant input I = +-5, t in [0, 20]; eq. 7 (Tsit5) and eq. 9 (dt = 0.1)",
              Verdict.REFUTED, "f -> -1 gives a decay rate 1/tau + f = -0.9 < 0: x grows like e^(0.9 t)", _unbounded_check("tanh"), group="ltc",
              kind=Kind.AS_PRINTED),
        Claim("ltc.sec6.unbounded.sigmoid", f"{s}, section 6 line 264, 'LTCs cannot, by construction.'",
              "with f = sigmoid, the neuron of ltc.sec6.unbounded.tanh stays in [min(0, A), max(0, A)] = [0, 1] (one example, not the general "
              "'cannot': that is ltc.eq12.bounds.sigmoid, random networks)", "as ltc.sec6.unbounded.tanh with f = sigmoid",
              Verdict.HOLDS, "f >= 0: eq. 12 holds", _unbounded_check("sigmoid"), group="ltc", kind=Kind.READING,
              reading="'LTCs cannot [have unbounded states]' read for f = sigmoid, one of 002's two typical choices"),
        Claim("ltc.sec16.expressivity", f"{s}, section 16 line 527, 'LTCs produce longer latent trajectories than Neural ODEs and CT-RNNs ... The trajectory "
              f"length grows linearly with width and has a faster-than-linear dependence on weight variance'",
              "latent trajectory length: LTC > CT-RNN and > Neural ODE; ~ linear in width k; faster than linear in sigma_w^2",
              "random Hard-tanh networks as line 326 (1 layer, sigma_b^2 = 1), width 25..200, sigma_w^2 1..8, circular 2-D input over one period, RK4",
              Verdict.INCONCLUSIVE, "002 does not fix the setting the lengths depend on (input, horizon, projection)", _expressivity_check, group="ltc",
              kind=Kind.READING, reading="lengths measured in the full latent space for the stated random networks, x(0) = 0, tau = 1, A ~ N(0, 1)"),
        Claim("ltc.sec16.efficient", f"{s}, section 16 line 529, 'The fused solver enables O(L x T) complexity matching LSTM, while achieving both high "
              f"forward and backward accuracy (unlike the adjoint method)'",
              "the conjunction of ltc.eq9.complexity, ltc.eq9.lstm_complexity and ltc.s5.adjoint_errors", "as those claims", Verdict.INCONCLUSIVE,
              "the complexity parts hold; the adjoint part (ltc.s5.adjoint_errors) is inconclusive", _efficient_check, group="ltc", kind=Kind.AS_PRINTED),
        Claim("ltc.table12.gamma.init_range", f"{s}, table 12 line 408, 'Input weights ... [-2, 2] (init) ... Init: N(0, sigma_w^2/k)'; section 14 line 481, 'Common: sigma_w^2 = 2'",
              "N(0, 2/k) with fan-in k = M (input dimension, any M >= 1) puts at least 95% of input weights in [-2, 2]",
              "sigma_w^2 = 2, k = M in 1..256", Verdict.REFUTED, "P(|N(0, 2)| > 2) = 15.7% at M = 1 (4.6% at M = 2)",
              _range_check("gamma", 2.0, lambda k: 2.0 / k, np.arange(1, 257), "gamma ~ N(0, 2/M)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.gamma_r.init_range", f"{s}, table 12 line 409, 'Recurrent weights ... [-2, 2] (init) ... Init: N(0, sigma_w^2/k)'",
              "N(0, 2/N) with fan-in N in [4, 256] (table 12) puts at least 95% of recurrent weights in [-2, 2]", "sigma_w^2 = 2, N = 4..256",
              Verdict.HOLDS, "P(|N(0, 1/2)| > 2) = 0.47% at N = 4, less for larger N",
              _range_check("gamma_r", 2.0, lambda k: 2.0 / k, np.arange(4, 257), "gamma_r ~ N(0, 2/N)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.mu.init_range", f"{s}, table 12 line 410, 'Biases ... [-1, 1] (init) ... Init: N(0, sigma_b^2)'; section 14 line 482, 'Common: sigma_b^2 = 1'",
              "N(0, 1) puts at least 95% of biases in [-1, 1]", "sigma_b^2 = 1", Verdict.REFUTED, "P(|N(0, 1)| > 1) = 31.7%",
              _range_check("mu", 1.0, lambda k: 1.0, np.array([1]), "mu ~ N(0, 1)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
        Claim("ltc.table12.A.init_range", f"{s}, table 12 line 411, 'Bias vector (A) ... [-1, 1] (init)'; section 14 line 483, 'A: Initialize from N(0, 1) or zeros'",
              "N(0, 1) puts at least 95% of A's entries in [-1, 1]", "the N(0, 1) option of section 14", Verdict.REFUTED, "P(|N(0, 1)| > 1) = 31.7%",
              _range_check("A", 1.0, lambda k: 1.0, np.array([1]), "A ~ N(0, 1)"), group="ltc", kind=Kind.READING, reading=_TYPICAL,
              threshold=_COVERAGE),
    ]


add_provider(ltc_more_claims)
