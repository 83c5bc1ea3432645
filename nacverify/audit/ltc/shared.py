"""What the LTC audit's two forms share (nacverify.audit.ltc.claims: biophysical, eq. 1-2;
nacverify.audit.ltc.abstract: abstract, eq. 7/9): the five claim ids, the choice of steps
to solve, the step claim's verdict from recomputed errors and tolerances, and binding the
checks into claims. Both forms' exports have T, B, N, M, states, elapsed, ode_unfolds and
dtype_eps (nacverify.audit.ltc.format)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...claims import CheckContext, Claim, Evidence, Kind, Outcome, Verdict

__all__ = ["SEED002", "LTC_CLAIM_IDS", "where", "select_steps", "step_outcome", "largest_elapsed_within", "solver_error_outcome",
           "solver_error_measurement", "unfolds_needed", "EXAMPLE_TOLERANCES", "bind_claims", "GROSS_FACTOR", "solver_words"]

SEED002 = "002_02b8eaa764ffef08.txt"
LTC_CLAIM_IDS = ("audit.ltc.step", "audit.ltc.positivity", "audit.ltc.state_bounds", "audit.ltc.time_constants", "audit.ltc.solver_error")


_SOLVER_WORDS = {"fused": "the fused solver", "euler": "the explicit Euler solver", "rk4": "the RK4 solver"}


def solver_words(e: Any) -> str:
    """The export's declared solver in words ("the fused solver" for the abstract form, whose only rule is eq. 9)."""
    return _SOLVER_WORDS[getattr(e, "solver", "fused")]


def where(flat: int, shape) -> dict:
    """{step, batch, unit} of a flat index into an array of `shape` (T, B, N) (or a prefix)."""
    idx = [int(i) for i in np.unravel_index(int(flat), shape)]
    return dict(zip(("step", "batch", "unit")[: len(idx)], idx))


def select_steps(e: Any, limit: int) -> np.ndarray:
    """Flat (step, batch) indices to solve: all if few, else the longest intervals and an even spread."""
    total = e.T * e.B
    if total <= limit:
        return np.arange(total)
    el = e.elapsed.reshape(-1)
    longest = np.argsort(-el, kind="stable")[: limit // 2]
    spread = np.linspace(0, total - 1, limit - longest.size).round().astype(int)
    return np.unique(np.concatenate([longest, spread]))


def largest_elapsed_within(el: np.ndarray, rel: np.ndarray, tol: float) -> float | None:
    """The longest elapsed time up to which every checked step (shortest first) is within `tol`; None if none is."""
    order = np.argsort(el, kind="stable")
    prefix_ok = np.cumsum(~(rel[order] <= tol)) == 0
    return float(el[order][prefix_ok].max()) if prefix_ok.any() else None


#: Tolerances whose unfold counts a measurement reports (seed 002 names none; they are examples, not verdicts)
EXAMPLE_TOLERANCES = (1e-1, 1e-2, 1e-3, 1e-4)


def unfolds_needed(grid: np.ndarray, max_error_by_unfolds: np.ndarray, tolerances=EXAMPLE_TOLERANCES) -> np.ndarray:
    """Per tolerance, the smallest unfold count of `grid` whose largest error is within it (-1: none)."""
    out = []
    for t in tolerances:
        ok = [int(u) for u, err in zip(grid, max_error_by_unfolds) if err <= t]
        out.append(ok[0] if ok else -1)
    return np.asarray(out, dtype=np.int64)


def solver_error_measurement(e: Any, *, rows: np.ndarray, rel: np.ndarray, est: np.ndarray, el: np.ndarray, reference: str,
                             sample: str, ref_note: str, ev: Evidence, needed: np.ndarray | None = None) -> Outcome:
    """`audit.ltc.solver_error` without a tolerance: seed 002 states none for its fused solver, so the
    error is reported as a measurement (verdict holds: measured, not judged), with where a verdict
    would flip: `--tol` below max(rel - est) refutes, at or above max(rel + est) holds. `needed`:
    the unfolds each of EXAMPLE_TOLERANCES needs (-1: more than the grid's largest)."""
    k = int(np.argmax(rel))
    step, batch = divmod(int(rows[k]), e.B)
    refutes_below, holds_from = float(np.max(rel - est)), float(np.max(rel + est))
    ev.scalars.update({"tolerance": None, "refuted_below_tolerance": refutes_below, "holds_from_tolerance": holds_from})
    unf = ""
    if needed is not None:
        ev.arrays.update({"example_tolerances": np.asarray(EXAMPLE_TOLERANCES), "unfolds_needed_for_example_tolerance": needed})
        unf = "; unfolds a tolerance needs: " + ", ".join(f"{t:g} -> {n if n > 0 else 'more than the largest tried'}"
                                                           for t, n in zip(EXAMPLE_TOLERANCES, needed))
    return Outcome(Verdict.HOLDS, f"measured, not judged (seed 002 gives {solver_words(e)} no tolerance; --tol gates): with {e.ode_unfolds} "
                   f"unfolds, the relative error per step of {solver_words(e)} against {reference} is at most {rel[k]:.3g} (at elapsed {el[k]:.4g}, step {step}, "
                   f"batch {batch}), median {np.median(rel):.3g}; --tol below {refutes_below:.3g} would refute, --tol >= {holds_from:.3g} "
                   f"would hold{unf}{sample}{ref_note}", ev)


def solver_error_outcome(e: Any, *, tol: float | None, rows: np.ndarray, rel: np.ndarray, est: np.ndarray, el: np.ndarray, reference: str,
                         sample: str, advice: str, ref_note: str, ev: Evidence, needed: np.ndarray | None = None) -> Outcome:
    """`audit.ltc.solver_error` from the fused solver's relative error `rel` at the checked steps
    `rows` (flat step x batch indices, elapsed times `el`) against
    `reference` (the adaptive float64 solution), whose own error is at most `est` per step:
    inconclusive when the reference cannot resolve `tol`; refuted where rel - est > tol; holds where
    rel + est <= tol everywhere; inconclusive in between. `advice` (e.g. the unfolds that would do)
    follows a refutation; `sample` says which steps were checked, `ref_note` how good the reference is.
    Without `tol` (None): a measurement (`solver_error_measurement`), never a refutation."""
    if tol is None:
        return solver_error_measurement(e, rows=rows, rel=rel, est=est, el=el, reference=reference, sample=sample, ref_note=ref_note,
                                        ev=ev, needed=needed)
    bound = float(np.max(est))
    over = rel - est > tol
    k = int(np.argmax(rel))
    step, batch = divmod(int(rows[k]), e.B)
    if bound > 0.1 * tol:
        return Outcome(Verdict.INCONCLUSIVE, f"the reference solve is not accurate enough to judge a tolerance of {tol:g}{ref_note}", ev)
    if over.any():
        largest_ok = largest_elapsed_within(el, rel, tol)
        return Outcome(Verdict.REFUTED, f"{solver_words(e)} ({e.ode_unfolds} unfolds) misses {reference} by more than {tol:g} (relative, per "
                       f"step) at {int(over.sum())} of {rel.size} steps: worst {rel[k]:.3g} at elapsed {el[k]:.4g} (step {step}, batch {batch}); "
                       + (f"elapsed <= {largest_ok:.4g} stays within" if largest_ok is not None else "even the shortest checked interval does not")
                       + advice + sample + ref_note, ev)
    if not (rel + est <= tol).all():
        return Outcome(Verdict.INCONCLUSIVE, f"worst relative error {rel.max():.3g} is within the reference's own error {bound:.2g} "
                       f"of the tolerance {tol:g}{sample}{ref_note}", ev)
    return Outcome(Verdict.HOLDS, f"{solver_words(e)} ({e.ode_unfolds} unfolds) stays within {tol:g} of {reference} at every checked step: "
                   f"worst {rel[k]:.3g} at elapsed {el[k]:.4g}, median {np.median(rel):.3g}{sample}{ref_note}", ev)


#: a step refuted by more than this many tolerances points at a mismatch of the run's description, not at rounding
GROSS_FACTOR = 1e4


def _first_off(ratio: np.ndarray) -> tuple[int, int, int]:
    """(step, batch, unit) of the first differing state: the earliest step with a value over its
    tolerance, and there the worst one."""
    steps_off = np.flatnonzero((ratio > 1).any(axis=(1, 2)))
    k = int(steps_off[0])
    b, i = np.unravel_index(int(np.argmax(ratio[k])), ratio.shape[1:])
    return k, int(b), int(i)


def step_outcome(e: Any, sw: Any, rule: str, constants: dict, *, gross_hint: str = "", notes: str = "") -> Outcome:
    """`audit.ltc.step` from a sweep `sw` (step_err, step_tol (T, B, N); out_err, out_tol or None):
    refuted where |recomputed - exported| exceeds the tolerance; the message starts with the first
    differing state (step k means states[k + 1], the state after input step k). `rule` states the
    tolerance and `constants` its constants (both go into the evidence); `gross_hint` is said when
    a value is off by more than GROSS_FACTOR tolerances (what to check), `notes` instead of it after a
    state refutation (e.g. another solver that fits the states better)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(sw.step_tol > 0, sw.step_err / sw.step_tol, np.where(sw.step_err > 0, np.inf, 0.0))
    ratio = np.where(np.isnan(ratio), np.inf, ratio)
    flat = int(np.argmax(ratio))
    off = ratio > 1
    exported = e.states[1:].astype(np.float64)
    w = {**where(flat, ratio.shape), "exported": float(exported.flat[flat]),
         "recomputed_error": float(sw.step_err.flat[flat]), "tolerance": float(sw.step_tol.flat[flat]),
         "elapsed": float(e.elapsed.flat[flat // e.N])}
    worst_ratio = float(ratio.flat[flat])
    scalars = {"steps": e.T, "batch": e.B, "units": e.N, "inputs": e.M, "ode_unfolds": e.ode_unfolds, "dtype_eps": e.dtype_eps,
               "max_abs_error": float(np.max(sw.step_err)), "max_error_over_tolerance": worst_ratio,
               "tolerance_over_max_error": float(1.0 / worst_ratio) if worst_ratio > 0 else None,
               "values_off": int(off.sum()), **constants}
    problems = []
    if off.any():
        k, b, i = _first_off(ratio)
        first = {"first_off_step": k, "first_off_batch": b, "first_off_unit": i}
        scalars.update(first)
        w = {"step": k, "batch": b, "unit": i, "exported": float(exported[k, b, i]), "recomputed_error": float(sw.step_err[k, b, i]),
             "tolerance": float(sw.step_tol[k, b, i]), "elapsed": float(e.elapsed[k, b]), "worst_step": where(flat, ratio.shape)["step"],
             "worst_error_over_tolerance": worst_ratio}
        worst = where(flat, ratio.shape)
        problems.append(f"first differing state: step {k}, batch {b}, unit {i} (the state after input step {k}): exported "
                        f"{float(exported[k, b, i]):.9g}, recomputed error {float(sw.step_err[k, b, i]):.3g} = "
                        f"{float(ratio[k, b, i]):.3g} x tolerance; {int(off.sum())} of {ratio.size} state values differ, worst "
                        f"{w['worst_error_over_tolerance']:.3g} x tolerance at step {worst['step']}, batch {worst['batch']}, unit {worst['unit']}")
        if notes:
            problems.append(notes)
        elif worst_ratio > GROSS_FACTOR and gross_hint:
            problems.append(f"more than {GROSS_FACTOR:g} x tolerance is no rounding: {gross_hint}")
    if sw.out_err is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            oratio = np.where(sw.out_tol > 0, sw.out_err / sw.out_tol, np.where(sw.out_err > 0, np.inf, 0.0))
        scalars["max_output_error"] = float(np.max(sw.out_err))
        scalars["outputs_off"] = int((oratio > 1).sum())
        if (oratio > 1).any():
            of = int(np.argmax(oratio))
            w["output_index"] = str([int(i) for i in np.unravel_index(of, oratio.shape)])
            problems.append(f"{int((oratio > 1).sum())} outputs differ from v[:K] * output_w + output_b (worst {float(sw.out_err.flat[of]):.3g} "
                            f"at [step, batch, output] {w['output_index']})")
    ev = Evidence({"error_over_tolerance_per_step": np.max(ratio, axis=(1, 2)), "abs_error_per_step": np.max(sw.step_err, axis=(1, 2))}, scalars, w)
    if problems:
        return Outcome(Verdict.REFUTED, "; ".join(problems) + f" [{rule}]", ev)
    return Outcome(Verdict.HOLDS, f"all {e.T} steps x {e.B} x {e.N} units equal the update to rounding: worst "
                   f"{scalars['max_error_over_tolerance']:.3g} of the tolerance (max |error| {scalars['max_abs_error']:.3g}) [{rule}]", ev)


def bind_claims(export: Any, specs: dict[str, tuple[str, str, str]], tol: float | None, *, sweep: Callable[[Any], Any],
                step: Callable[[Any, Any], Outcome], positivity: Callable[[Any], Outcome], state_bounds: Callable[[Any], Outcome],
                time_constants: Callable[[Any, Any], Outcome], solver_error: Callable[[Any], Outcome]) -> list[Claim]:
    """The five claims (LTC_CLAIM_IDS, in order) bound to `export`, from their (source, statement,
    assumptions) and checks: kind implementation, group audit-ltc, expected holds (either form).
    `step` and `time_constants` share one `sweep(export)`, run when the first of them is evaluated."""
    cache: dict[str, Any] = {}

    def swept() -> Any:
        if "p" not in cache:
            cache["p"] = sweep(export)
        return cache["p"]

    checks: dict[str, Callable[[], Outcome]] = {
        "audit.ltc.step": lambda: step(export, swept()),
        "audit.ltc.positivity": lambda: positivity(export),
        "audit.ltc.state_bounds": lambda: state_bounds(export),
        "audit.ltc.time_constants": lambda: time_constants(export, swept()),
        "audit.ltc.solver_error": lambda: solver_error(export),
    }
    claims = []
    for cid in LTC_CLAIM_IDS:
        source, statement, assumptions = specs[cid]
        if cid == "audit.ltc.solver_error":
            statement += f" ({tol:g})" if tol is not None else " (no tolerance given: the error is measured, not judged; seed 002 states none)"

        def check(ctx: CheckContext, fn=checks[cid]) -> Outcome:
            return fn()

        claims.append(Claim(cid, source, statement, assumptions, Verdict.HOLDS, "a healthy LTC cell satisfies it", check,
                            group="audit-ltc", kind=Kind.IMPLEMENTATION))
    return claims
