r"""The audit claims' per-pair arithmetic on one block of rows, reduced to exact summaries.

A `Block` is a few thousand rows of an export ([rows, K] arrays, so they stay in cache)
with the float64 intermediates the claims share (gates, A = phi/omega, logits, the
recomputation of the mode, softmax), computed once. Each claim has a *map* (`MAPS`):
block -> counts, extremes and worst pairs (`nacverify.audit.gates.reduce`), merged in chunk order
into what the whole array gives; and each claim's evidence quantiles come from a
*quantity* (`QUANTITIES`): block -> the claim's values on that block's pairs, fed to the
exact streaming quantiles (`nacverify.audit.gates.quantiles`). The verdicts and messages are
made from the merged summaries by nacverify.audit.gates.claims.

Pair indices are global flat indices into phi ([..., K] flattened); row indices into its
leading axes. Everything here is NumPy elementwise or per-row (over the K keys of one row),
so a pair's numbers do not depend on the block it is in.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from .format import GateExport
from .logits import ULPS, logit_tolerance, mode_logits_available, recompute_logits
from .reduce import Best, Failed, Max, best, maximum, minimum

__all__ = ["Block", "MAPS", "QUANTITIES", "EVIDENCE_QUANTITIES", "EPS64", "map_block"]

EPS64 = float(np.finfo(np.float64).eps)


ROW_COLUMNS = 16  # rows of at most this many keys are reduced column by column (fast for small K)


def row_reduce(ufunc: np.ufunc, x: np.ndarray) -> np.ndarray:
    """``ufunc.reduce`` over the last axis, in the same order for every row: key by key when
    K is small (NumPy's reduction over a short last axis is slow), else NumPy's own."""
    if x.shape[-1] > ROW_COLUMNS:
        return ufunc.reduce(x, axis=-1)
    out = x[..., 0].copy()
    for k in range(1, x.shape[-1]):
        ufunc(out, x[..., k], out=out)
    return out


def keep(mask: np.ndarray | None, x: np.ndarray, fill: float) -> np.ndarray:
    """``np.where(mask, x, fill)``; `x` itself when `mask` is None (every entry kept)."""
    return x if mask is None else np.where(mask, x, fill)


def finite_or(x: np.ndarray, fill: float) -> np.ndarray:
    """x where finite, else `fill`."""
    finite = np.isfinite(x)
    return x if finite.all() else np.where(finite, x, fill)


def softmax_rows(a: np.ndarray, valid: np.ndarray | None) -> np.ndarray:
    """Softmax over each row's valid keys (0 on invalid keys; `valid` None: all keys)."""
    x = keep(valid, a, -np.inf)
    top = row_reduce(np.maximum, x)[..., None]
    e = keep(valid, np.exp(x - np.where(np.isfinite(top), top, 0.0)), 0.0)
    return e / row_reduce(np.add, e)[..., None]


class Block:
    """Rows [row0, row0 + rows) of an export with the intermediates the claims share.

    `vmask` / `okmask` are the valid pairs / the valid pairs with omega > 0, or None when
    that is every pair of the block (the usual case: then no masking pass is made).
    `u_ref` is u at the export's first valid pair (audit.gate_variation measures input
    distances from it)."""

    def __init__(self, export: GateExport, row0: int, u_ref: np.ndarray | None = None):
        self.e = export
        self.row0 = row0
        self.offset = row0 * export.K
        self.size = int(export.phi.size)
        self.u_ref = u_ref

    @cached_property
    def vmask(self) -> np.ndarray | None:
        if self.e.valid is None:
            return None
        valid = np.asarray(self.e.valid) != 0
        return None if valid.all() else valid

    @cached_property
    def okmask(self) -> np.ndarray | None:
        positive = self.e.omega > 0
        ok = positive if self.vmask is None else self.vmask & positive
        return None if np.count_nonzero(ok) == self.size else ok

    @property
    def valid(self) -> np.ndarray:
        return np.ones(self.e.phi.shape, bool) if self.vmask is None else self.vmask

    @property
    def ok(self) -> np.ndarray:
        return np.ones(self.e.phi.shape, bool) if self.okmask is None else self.okmask

    @cached_property
    def n_valid(self) -> int:
        return self.size if self.vmask is None else int(np.count_nonzero(self.vmask))

    @cached_property
    def n_ok(self) -> int:
        return self.size if self.okmask is None else int(np.count_nonzero(self.okmask))

    @cached_property
    def phi(self) -> np.ndarray:
        return self.e.phi.astype(np.float64)

    @cached_property
    def omega(self) -> np.ndarray:
        return self.e.omega.astype(np.float64)

    @cached_property
    def A(self) -> np.ndarray:
        return self.phi / self.omega

    @cached_property
    def m(self) -> np.ndarray:
        return np.minimum(0.0, self.A)

    @cached_property
    def M(self) -> np.ndarray:
        return np.maximum(0.0, self.A)

    @cached_property
    def recomputed(self) -> tuple[np.ndarray, np.ndarray]:
        """(logits, scale) recomputed from the gates in the export's mode (nacverify.audit.gates.logits)."""
        a, scale = recompute_logits(self.e)
        return np.asarray(a, dtype=np.float64), np.asarray(scale, dtype=np.float64)

    @cached_property
    def logits(self) -> np.ndarray | None:
        """The logits the claims judge: the exported ones, else the mode's recomputation."""
        if self.e.logits is not None:
            return self.e.logits.astype(np.float64)
        if mode_logits_available(self.e) is None:
            return self.recomputed[0]
        return None

    @cached_property
    def softmax(self) -> np.ndarray:
        return softmax_rows(self.logits, self.vmask)

    @cached_property
    def counts(self) -> np.ndarray:
        """Valid keys per row."""
        if self.vmask is None:
            return np.full(self.e.phi.shape[:-1], self.e.K, np.int64)
        return row_reduce(np.add, self.vmask.astype(np.int64))

    def flat(self) -> np.ndarray:
        """Global flat pair indices (as float64: exact below 2**53)."""
        return self.offset + np.arange(self.size, dtype=np.float64).reshape(self.e.phi.shape)

    # ------------------------------------------------------------------ per-claim intermediates
    @cached_property
    def thm1(self) -> dict[str, np.ndarray]:
        a, A = self.logits, self.A
        excess = np.maximum(a - self.M, self.m - a)
        scale = np.maximum(np.abs(A), np.abs(a))
        if self.e.mode == "euler" and mode_logits_available(self.e) is None:
            scale = np.maximum(scale, self.recomputed[1])
        tol = logit_tolerance(self.e, scale)
        return {"excess": excess, "tol": tol, "ratio": keep(self.okmask, excess / tol, -np.inf)}

    @cached_property
    def consistent(self) -> dict[str, np.ndarray]:
        rec, scale = self.recomputed
        a = self.e.logits.astype(np.float64)
        scale = np.maximum(scale, np.abs(a))
        tol = logit_tolerance(self.e, scale)
        diff = np.abs(a - rec)
        return {"rec": rec, "a": a, "scale": scale, "tol": tol, "diff": diff, "ratio": keep(self.okmask, diff / tol, -np.inf)}

    @cached_property
    def euler(self) -> dict[str, np.ndarray]:
        h = self.e.delta_t * self.omega
        # euler_invariance_threshold(m, M, A) = 1 + rho: with one connection per logit, m = min(0, A) and
        # M = max(0, A), so A - m or M - A is exactly 0 and rho = 0; phi = 0 (A = 0): the iterates stay at 0
        threshold = np.where(self.A == 0, np.inf, 1.0)
        return {"h": h, "threshold": threshold}

    @cached_property
    def attention(self) -> dict[str, Any]:
        att = self.e.attention.astype(np.float64)
        sums = row_reduce(np.add, keep(self.vmask, att, 0.0))
        row_valid = None if self.vmask is None else row_reduce(np.logical_or, self.vmask)
        if row_valid is not None and row_valid.all():
            row_valid = None
        return {"att": att, "sums": sums, "row_valid": row_valid, "sum_err": keep(row_valid, np.abs(sums - 1.0), -np.inf)}


# ---------------------------------------------------------------------------- maps
def _count(mask: np.ndarray | None, condition: np.ndarray) -> int:
    return int(np.count_nonzero(condition if mask is None else mask & condition))


def _omega_positive(b: Block) -> dict[str, Any]:
    # argmax of -omega (masked: -inf) is NumPy's argmin of omega; omega is finite (validated)
    return {"valid": b.n_valid, "bad": b.n_valid - b.n_ok,
            "lowest": best(-keep(b.vmask, b.omega, np.inf), b.offset, omega=b.omega, phi=b.phi)}


def _thm1_interval(b: Block) -> dict[str, Any]:
    t = b.thm1
    at = {"phi": b.phi, "omega": b.omega, "A": b.A, "logit": b.logits, "m": b.m, "M": b.M, "excess": t["excess"]}
    if b.e.t_pseudo is not None:
        at["t_pseudo"] = b.e.t_pseudo
    return {"valid": b.n_valid, "ok": b.n_ok, "outside": _count(b.okmask, t["excess"] > t["tol"]),
            "worst": best(t["ratio"], b.offset, **at)}


def _logits_consistent(b: Block) -> dict[str, Any]:
    c = b.consistent
    eps = b.e.eps("phi", "omega", "t_pseudo", "logits")
    at = {"phi": b.e.phi, "omega": b.e.omega, "logit_exported": c["a"], "logit_recomputed": c["rec"], "tolerance": c["tol"], "diff": c["diff"]}
    if b.e.t_pseudo is not None:
        at["t_pseudo"] = b.e.t_pseudo
    return {"valid": b.n_valid, "ok": b.n_ok, "off": _count(b.okmask, c["diff"] > c["tol"]),
            "worst": best(c["ratio"], b.offset, **at),
            "ulps": maximum(keep(b.okmask, c["diff"] / (eps * np.maximum(c["scale"], 1e-300)), 0.0))}


def _euler_margin(b: Block) -> dict[str, Any]:
    h, threshold, ok = b.euler["h"], b.euler["threshold"], b.okmask
    return {"valid": b.n_valid, "ok": b.n_ok,
            "worst": best(keep(ok, h - threshold, -np.inf), b.offset, phi=b.phi, omega=b.omega, dt_omega=h, threshold=threshold),
            "leaving": _count(ok, h - threshold * (1 + 4 * EPS64) > 0), "diverging": _count(ok, h > 2),
            "safe_dt": minimum(keep(ok, threshold / b.omega, np.inf)), "max_h": maximum(keep(ok, h, -np.inf)),
            "min_margin": minimum(keep(ok, threshold - h, np.inf))}


def _gate_variation(b: Block) -> dict[str, Any]:
    vmask = b.vmask
    out: dict[str, Any] = {"valid": b.n_valid}
    for name, gate in (("phi", b.phi), ("omega", b.omega)):
        out[f"{name}_max"] = maximum(keep(vmask, gate, -np.inf))
        out[f"{name}_min"] = minimum(keep(vmask, gate, np.inf))
    flats = None if vmask is None else np.flatnonzero(vmask)
    first = 0 if flats is None else (int(flats[0]) if flats.size else 0)
    out["first"] = Best(0.0 if flats is None or flats.size else -np.inf, b.offset + first,
                        {"phi": float(b.phi.flat[first]), "omega": float(b.omega.flat[first])})
    if b.e.u is not None:
        dist = row_reduce(np.maximum, np.abs(b.e.u.astype(np.float64) - b.u_ref))
        out["far"] = best(keep(vmask, dist, -np.inf), b.offset, phi=b.phi, omega=b.omega)
    else:  # the last valid pair
        last = b.size - 1 if flats is None else (int(flats[-1]) if flats.size else 0)
        out["far"] = Best(float(b.offset + last) if flats is None or flats.size else -np.inf, b.offset + last,
                          {"phi": float(b.phi.flat[last]), "omega": float(b.omega.flat[last])})
    return out


def _sharpness(b: Block) -> dict[str, Any]:
    ok, A = b.okmask, b.A
    rows = b.counts >= 2
    masked = keep(ok, A, np.inf)
    lo = int(np.argmin(masked))  # A is never NaN where omega > 0: argmin of A is argmax of -A
    out: dict[str, Any] = {"valid": b.n_valid, "ok": b.n_ok, "rows": int(np.count_nonzero(rows)),
                           "keys": minimum(np.where(rows, b.counts, np.inf)),
                           "hi": best(keep(ok, A, -np.inf), b.offset, A=A),
                           "lo": Best(-float(masked.flat[lo]), b.offset + lo, {"A": float(A.flat[lo])}),
                           "phi_min": minimum(keep(ok, b.phi, np.inf)), "phi_max": maximum(keep(ok, b.phi, -np.inf)),
                           "omega_min": minimum(keep(ok, b.omega, np.inf)), "omega_max": maximum(keep(ok, b.omega, -np.inf))}
    weights = b.attention["att"] if b.e.attention is not None else (None if b.logits is None else b.softmax)
    if weights is not None:
        sharp_rows = None if (b.vmask is None and rows.all()) else b.valid & rows[..., None]
        out["observed"] = maximum(keep(sharp_rows, weights, -np.inf))
    return out


def _attention_rows(b: Block) -> dict[str, Any]:
    t, vmask, e = b.attention, b.vmask, b.e
    att = t["att"]
    eps = e.eps("attention", "logits") if e.logits is not None else e.eps("attention", "phi", "omega")
    sum_tol = (ULPS + e.K) * eps
    rows = t["sums"].size if t["row_valid"] is None else int(np.count_nonzero(t["row_valid"]))
    out: dict[str, Any] = {"rows": rows, "rows_off": int(np.count_nonzero(t["sum_err"] > sum_tol)),
                           "row": best(t["sum_err"], b.row0, row_sum=t["sums"]),
                           "stray": Max(0.0) if vmask is None else maximum(np.where(vmask, 0.0, np.abs(att))),
                           "min_weight": minimum(keep(vmask, att, np.inf))}
    a = b.logits
    if a is not None:
        expected = b.softmax
        mag = row_reduce(np.maximum, keep(vmask, np.abs(a), 0.0))[..., None]
        tol = ULPS * eps * (1.0 + mag)
        finite = np.isfinite(expected) if vmask is None else vmask & np.isfinite(expected)
        diff = np.abs(att - expected)
        if not finite.all():
            diff = np.where(finite, diff, -np.inf)
        ratio = finite_or(diff / tol, -np.inf)
        out["softmax"] = best(ratio, b.offset, diff=diff, weight=att, softmax=expected, logit=a)
        out["weights_off"] = int(np.count_nonzero(ratio > 1))
    return out


MAPS: dict[str, Callable[[Block], dict[str, Any]]] = {
    "audit.omega_positive": _omega_positive,
    "audit.thm1_interval": _thm1_interval,
    "audit.logits_consistent": _logits_consistent,
    "audit.euler_margin": _euler_margin,
    "audit.gate_variation": _gate_variation,
    "audit.sharpness": _sharpness,
    "audit.attention_rows": _attention_rows,
}


# ---------------------------------------------------------------------------- quantities
def _thm1_rel(b: Block) -> np.ndarray:
    absA = np.abs(b.A)
    sel = absA > 0 if b.okmask is None else b.okmask & (absA > 0)
    if sel.all():
        return (b.thm1["excess"] / absA).reshape(-1)
    return b.thm1["excess"][sel] / absA[sel]


def _on(mask: np.ndarray | None, x: np.ndarray) -> np.ndarray:
    return x.reshape(-1) if mask is None else x[mask]


QUANTITIES: dict[str, Callable[[Block], np.ndarray]] = {
    "omega_valid": lambda b: _on(b.vmask, b.omega),
    "phi_valid": lambda b: _on(b.vmask, b.phi),
    "thm1_rel": _thm1_rel,
    "logits_ratio": lambda b: _on(b.okmask, b.consistent["ratio"]),
    "euler_h": lambda b: _on(b.okmask, b.euler["h"]),
    "A_ok": lambda b: _on(b.okmask, b.A),
    "row_sum_err": lambda b: _on(b.attention["row_valid"], b.attention["sum_err"]),
}

#: claim -> (evidence array name -> quantity)
EVIDENCE_QUANTITIES: dict[str, dict[str, str]] = {
    "audit.omega_positive": {"omega_quantiles": "omega_valid"},
    "audit.thm1_interval": {"excess_over_A_quantiles": "thm1_rel"},
    "audit.logits_consistent": {"diff_over_tolerance_quantiles": "logits_ratio"},
    "audit.euler_margin": {"dt_omega_quantiles": "euler_h"},
    "audit.gate_variation": {"phi_quantiles": "phi_valid", "omega_quantiles": "omega_valid"},
    "audit.sharpness": {"A_quantiles": "A_ok"},
    "audit.attention_rows": {"row_sum_error_quantiles": "row_sum_err"},
}


def map_block(block: Block, claims: tuple[str, ...]) -> dict[str, Any]:
    """Each claim's summary of the block; a claim whose arithmetic raises gets `Failed`."""
    out: dict[str, Any] = {}
    with np.errstate(all="ignore"):
        for cid in claims:
            try:
                out[cid] = MAPS[cid](block)
            except Exception as exc:  # that claim's verdict becomes `error`, the others go on
                out[cid] = Failed(f"{type(exc).__name__}: {exc}")
    return out
