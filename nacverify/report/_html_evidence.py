"""The evidence side of `nacverify report html` (`nacverify.report.html`): the figures and
tables drawn from a report's arrays and sections: frozen vs varying trajectories with the
bounds and their tightness, the tightness of each bound (bars, and histograms over sweep
draws), the Euler overshoot region, LTC bounds along trajectories, the arrays of at most
`MAX_CLAIM_FIGURES` other claims (those not as expected first), benchmark tables with log-log
scaling plots and fitted exponents, and a listing of every other section."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ._html_parts import _Page, _array_summary, _badge, _clip, _e, _fmt, _ok, _table
from ._io import ClaimRecord, ReportData
from . import figures

AXIS_NAMES = ("t", "ts", "time", "dt_omega", "x", "dt", "h", "T", "tau", "steps", "n")
SCALING_AXES = ("T", "seq_len", "length", "tokens", "n", "N", "size", "batch", "d_model")
FROZEN_KEYS = ("t", "a_varying", "a_frozen", "abs_error")
MAX_CLAIM_FIGURES = 4  # per-claim evidence figures (besides the summary figures); unexpected claims first


# ------------------------------------------------------------------ frozen-coefficient study


def _is_frozen_series(d: Mapping[str, Any]) -> bool:
    arrays = [d.get(k) for k in FROZEN_KEYS]
    return all(isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype.kind in "fiu" and a.shape == arrays[0].shape for a in arrays) and arrays[0].size >= 2


def _series(d: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The trajectory arrays of a frozen-error series that share the length of its `t`."""
    n = d["t"].shape
    return {k: v for k, v in d.items() if isinstance(v, np.ndarray) and v.shape == n and v.dtype.kind in "fiu"}


def _frozen_columns(data: ReportData, page: _Page) -> list[tuple[str, dict]]:
    columns: list[tuple[str, dict]] = []
    for regime, sec in (data.sections.get("frozen_error") or {}).items():
        if isinstance(sec, Mapping) and _is_frozen_series(sec):
            title = regime
            phi, omega = sec.get("phi_variation_pct"), sec.get("omega_variation_pct")
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (phi, omega)):
                title += f": phi {float(phi):.2f}%, omega {float(omega):.2f}%"
            columns.append((title, _series(sec)))
    # claims with the same arrays (e.g. a `check` report without sections)
    groups: list[tuple[list[str], dict]] = []
    for c in data.claims.values():
        if not _is_frozen_series(c.arrays):
            continue
        page.used.add(c.id)
        if any(np.array_equal(c.arrays["a_varying"], s["a_varying"]) and np.array_equal(c.arrays["t"], s["t"]) for _, s in columns):
            continue
        for ids, series in groups:
            if np.array_equal(series["a_varying"], c.arrays["a_varying"]) and np.array_equal(series["t"], c.arrays["t"]):
                ids.append(c.id)
                series.update(_series(c.arrays))
                break
        else:
            groups.append(([c.id], _series(c.arrays)))
    for ids, series in groups:
        tails = {i.rsplit(".", 1)[-1] for i in ids}
        columns.append((tails.pop() if len(tails) == 1 else ids[0], series))
    return columns


def _frozen_section(page: _Page, data: ReportData) -> None:
    columns = _frozen_columns(data, page)
    fe = {k: v for k, v in (data.sections.get("frozen_error") or {}).items() if isinstance(v, Mapping)}
    if not columns and not fe:
        return
    page.add("<h2 id=\"frozen\">Frozen vs varying coefficients (Figure 5 analog)</h2>")
    page.add("<p>Top: the logit with time-varying coefficients (diffrax) and with coefficients frozen at t = 0 (closed form). "
             "Middle: the error |eps| with the bounds of Theorem 3 and the solver's own error estimate (log scale). "
             "Bottom: tightness |eps| / bound over t; 1 means the bound is attained.</p>")
    for start in range(0, len(columns), 4):
        chunk = columns[start:start + 4]
        page.draw("frozen", "frozen vs varying trajectories, error and bounds: " + ", ".join(t for t, _ in chunk),
                  lambda path, chunk=chunk: figures.frozen_figure(chunk, path))
    metrics = [("description", "description"), ("phi variation %", "phi_variation_pct"), ("omega variation %", "omega_variation_pct"),
               ("mean rel. error %", "rel_mean_pct"), ("max rel. error %", "rel_max_pct"), ("L_phi", "L_phi"), ("L_omega", "L_omega"),
               ("T", "T"), ("rtol", "rtol"), ("atol", "atol"), ("diffrax steps", "num_steps")]
    regimes = [r for r, sec in fe.items() if any(k in sec for _, k in metrics)]
    if regimes:
        rows = [[label] + [_fmt(fe[r].get(key, "-")) for r in regimes] for label, key in metrics if any(key in fe[r] for r in regimes)]
        page.add(_table(["metric", *regimes], rows))
    sweeps = {r: sec["sweep"] for r, sec in fe.items() if isinstance(sec.get("sweep"), Mapping)}
    if sweeps:
        page.add("<h3>Sweeps over random draws</h3>")
        cols = [("draws done", "n_done"), ("requested", "n_requested"), ("seed", "seed"), ("complete", "complete"),
                ("trajectories/s", "trajectories_per_second"), ("end-to-end/s", "end_to_end_per_second"), ("compile s", "compile_seconds"),
                ("max steps", "num_steps_max")]
        rows = []
        for r, sw in sweeps.items():
            base = sw.get("scipy_baseline") if isinstance(sw.get("scipy_baseline"), Mapping) else {}
            rows.append([r] + [_fmt(sw.get(k, "-")) for _, k in cols] + [_fmt(base.get("trajectories_per_second", "-")), _fmt(base.get("speedup", "-"))])
        page.add(_table(["regime", *[c for c, _ in cols], "scipy traj/s", "speedup"], rows))
        worst_cols = []
        for r, sw in sweeps.items():
            for key, sub in sw.items():
                if key.startswith("worst_") and isinstance(sub, Mapping) and _is_frozen_series(sub):
                    worst_cols.append((f"{r}, worst draw for {key[6:]}", _series(sub)))
        if worst_cols:
            page.add("<details><summary>Worst draws of the sweeps (largest tightness per bound)</summary>")
            for start in range(0, len(worst_cols), 3):
                chunk = worst_cols[start:start + 3]
                page.draw("worst", "worst sweep draws: " + ", ".join(t for t, _ in chunk), lambda path, chunk=chunk: figures.frozen_figure(chunk, path))
            page.add("</details>")


# ------------------------------------------------------------------ tightness


def _tightness_section(page: _Page, data: ReportData) -> None:
    rows = []
    for c in data.claims.values():
        for key in ("max_tightness", "max_ratio"):
            value = c.scalars.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                rows.append((c, key, float(value)))
                break
    hist: dict[str, dict[str, np.ndarray]] = {}
    for regime, sec in (data.sections.get("frozen_error") or {}).items():
        members = sec.get("sweep", {}).get("members") if isinstance(sec, Mapping) and isinstance(sec.get("sweep"), Mapping) else None
        if isinstance(members, Mapping):
            bounds = {k[len("tightness_"):]: v for k, v in members.items() if k.startswith("tightness_") and isinstance(v, np.ndarray) and np.any(np.isfinite(v) & (v > 0))}
            order = list(figures.BOUND_LABELS)
            bounds = dict(sorted(bounds.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
            if bounds:
                hist[regime] = bounds
    if not rows and not hist:
        return
    page.add("<h2 id=\"tightness\">Tightness of each bound</h2>")
    page.add("<p>The largest measured value over its bound (max_tightness: |eps|/bound; max_ratio: relative error / variation bound). "
             "Below 1 the bound holds with room to spare; 1 means it is attained; beyond 1 it is violated. The colour says that: red "
             "beyond 1, green within, whatever the claim expected (a claim may state that a bound is exceeded); each label names the "
             "claim's verdict and whether it is the expected one.</p>")
    if rows:
        page.draw("tightness", "tightness of each bound",
                  lambda path: figures.tightness_bars([(c.id, v, c.verdict, c.expected) for c, _, v in rows], path, label="largest measured / bound"))
        table = []
        for c, key, v in rows:
            table.append([c.id, c.verdict, key, f"{v:.4g}", _fmt(c.scalars.get("peak_t", "-")), _fmt(c.scalars.get("min_slack", c.scalars.get("min_slack_pct", "-"))),
                          _fmt(c.scalars.get("members", "-"))])
        page.add(f"<details><summary>the values ({len(table)} claims)</summary>")
        page.add(_table(["claim", "verdict", "measure", "value", "peak t", "min slack", "members"], table))
        page.add("</details>")
    if hist:
        page.add("<h3>Distribution over the sweep draws</h3>")
        page.draw("tightness-sweeps", "tightness histograms over sweep draws", lambda path: figures.tightness_histograms(hist, path))


# ------------------------------------------------------------------ generic claim arrays


def _axis_of(arrays: Mapping[str, np.ndarray]) -> tuple[str, np.ndarray] | None:
    for name in AXIS_NAMES:
        arr = arrays.get(name)
        if isinstance(arr, np.ndarray) and arr.ndim == 1 and arr.size >= 2 and arr.dtype.kind in "fiu":
            return name, arr
    return None


def _curves(arrays: Mapping[str, np.ndarray], axis_name: str, n: int) -> dict[str, np.ndarray]:
    """Arrays that run along the axis (length n): 1-D of length n, or 2-D with n rows, or with
    n columns (transposed, e.g. errors of 32 networks over a dt ladder of n steps)."""
    out = {}
    for k, v in arrays.items():
        if k == axis_name or not isinstance(v, np.ndarray) or v.dtype.kind not in "fiub" or not v.size:
            continue
        if v.ndim >= 1 and v.shape[0] == n:
            out[k] = v
        elif v.ndim == 2 and v.shape[1] == n:
            out[k] = v.T
    return out


def _draws(arrays: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """1-D numeric arrays of at least 10 values (values over random draws), at most 6."""
    picked = {k: v for k, v in arrays.items() if isinstance(v, np.ndarray) and v.ndim == 1 and v.size >= 10 and v.dtype.kind in "fiu"}
    return dict(list(picked.items())[:6])


def _claim_series(page: _Page, c: ClaimRecord) -> bool:
    """Curves over the claim's axis array, or else histograms of its per-draw arrays; False
    (nothing drawn) for a claim outside the figure budget (`_Page.chosen`)."""
    if c.id not in page.chosen:
        return False
    title = _clip(f"{c.id} ({c.verdict}): {c.statement}", 100)
    axis = _axis_of(c.arrays)
    curves = _curves(c.arrays, axis[0], axis[1].shape[0]) if axis is not None else {}
    if curves:
        page.draw(c.id, f"evidence arrays of {c.id}", lambda path: figures.series_figure(axis[0], axis[1], curves, path, title=title))
    else:
        draws = _draws(c.arrays)
        if not draws:
            return False
        page.draw(c.id, f"distribution of the evidence arrays of {c.id}", lambda path: figures.histogram_figure(draws, path, title=title))
    page.used.add(c.id)
    return True


def _euler_section(page: _Page, data: ReportData) -> None:
    grid_claims = [c for c in data.claims.values() if isinstance(c.arrays.get("dt_omega"), np.ndarray)]
    other = [c for c in data.claims.values() if "euler" in c.id and c.arrays and c not in grid_claims and c.id not in page.used and c.id in page.chosen]
    if not grid_claims and not other:
        return
    page.add("<h2 id=\"euler\">Explicit Euler: the overshoot region (dt * omega)</h2>")
    page.add("<p>Shaded: step sizes at which Euler iterates leave Theorem 1's interval [m, M]. "
             "The Euler map keeps [m, M] invariant exactly when dt * omega &le; 1.</p>")
    for c in grid_claims:
        grid = np.asarray(c.arrays["dt_omega"], float)
        curves = {k: v for k, v in _curves(c.arrays, "dt_omega", grid.shape[0]).items() if v.ndim == 1}
        breaks = next((float(v) for k, v in c.scalars.items() if "break" in k and isinstance(v, (int, float)) and not isinstance(v, bool)), None)
        title = _clip(f"{c.id} ({c.verdict}): {c.message}", 100)
        page.draw(c.id, f"Euler overshoot region of {c.id}",
                  lambda path, grid=grid, curves=curves, breaks=breaks, title=title: figures.euler_figure(grid, curves, path, breaks_at=breaks, title=title))
        page.used.add(c.id)
    for c in other:
        _claim_series(page, c)


def _ltc_section(page: _Page, data: ReportData) -> None:
    ltc = [c for c in data.claims.values() if c.id.startswith("ltc.") and c.arrays and c.id not in page.used and c.id in page.chosen]
    if not ltc:
        return
    page.add("<h2 id=\"ltc\">LTC: bounds along trajectories</h2>")
    page.add("<p>Each LTC claim's evidence: curves over its axis (time, step size, tau), or the distribution over the sampled "
             "networks of what its check measured along their trajectories (e.g. the excursion beyond a bound: &le; 0 is inside).</p>")
    for c in ltc:
        if not _claim_series(page, c):
            page.add(f"<p>{_e(c.id)}: arrays " + _e(", ".join(f"{k} {v.shape}" for k, v in c.arrays.items())) + "</p>")


def _other_claims_section(page: _Page, data: ReportData) -> None:
    rest = [c for c in data.claims.values() if c.arrays and c.id not in page.used and c.id in page.chosen]
    skipped = sum(1 for c in data.claims.values() if c.arrays and c.id not in page.used and c.id not in page.chosen)
    if not rest and not skipped:
        return
    page.add("<h2 id=\"evidence\">Other evidence arrays</h2>")
    for c in rest:  # few (the budget): shown, not collapsed
        page.add(f"<h3>{_e(c.id)} {_badge(c.verdict)}</h3>")
        if not _claim_series(page, c):
            page.add("<p>" + _e(", ".join(f"{k}: {_array_summary(v)}" for k, v in c.arrays.items())) + "</p>")
    if skipped:
        page.add(f'<p class="small">{skipped} more claims hold arrays; they are summarised in their details (at most {MAX_CLAIM_FIGURES} '
                 "claims get a figure of their own, those not as expected first: render_html(max_claim_figures=...) draws more).</p>")


def _plottable(c: ClaimRecord) -> bool:
    """Whether `_claim_series` has something to draw: curves over an axis, or per-draw values."""
    axis = _axis_of(c.arrays)
    return bool(axis is not None and _curves(c.arrays, axis[0], axis[1].shape[0])) or bool(_draws(c.arrays))


def _choose_figures(page: _Page, data: ReportData, budget: int) -> None:
    """The claims whose arrays get a figure of their own: those not as expected first, then in
    report order, `budget` in all (the summary figures: frozen, tightness, Euler grids, scaling,
    are not counted)."""
    candidates = [c for c in data.claims.values() if c.arrays and not _is_frozen_series(c.arrays)
                  and not isinstance(c.arrays.get("dt_omega"), np.ndarray) and _plottable(c)]
    ordered = [c for c in candidates if not _ok(c)] + [c for c in candidates if _ok(c)]
    page.chosen = {c.id for c in ordered[:max(budget, 0)]}


# ------------------------------------------------------------------ benchmarks and scaling


def _walk(tree: Mapping[str, Any], prefix: str):
    yield prefix, tree
    for name, value in tree.items():
        if isinstance(value, Mapping):
            yield from _walk(value, f"{prefix}/{name}")


def _scalars(node: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in node.items() if not isinstance(v, (Mapping, np.ndarray))}


def _scaling_axis(node: Mapping[str, Any], in_bench: bool) -> tuple[str, np.ndarray] | None:
    names = [node["scaling_axis"]] if isinstance(node.get("scaling_axis"), str) else (list(SCALING_AXES) if in_bench else [])
    for name in names:
        arr = node.get(name)
        if isinstance(arr, np.ndarray) and arr.ndim == 1 and arr.size >= 2 and arr.dtype.kind in "fiu":
            return name, arr
    return None


def _bench_section(page: _Page, data: ReportData) -> None:
    tables: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    scaling: list[tuple[str, str, np.ndarray, dict[str, np.ndarray], dict[str, Any]]] = []
    rows_at: set[str] = set()
    for top, tree in data.sections.items():
        if not isinstance(tree, Mapping):
            continue
        for path, node in _walk(tree, top):
            in_bench = path.split("/")[0] == "bench"
            axis = _scaling_axis(node, in_bench)
            if axis is not None:
                curves = {k: v for k, v in _curves(node, axis[0], axis[1].shape[0]).items() if v.ndim == 1 and v.dtype.kind in "fiu"}
                if curves:
                    scaling.append((path, axis[0], axis[1], curves, node))
            if in_bench and not any(path.startswith(row + "/") for row in rows_at):
                scalars = _scalars(node)
                if scalars:  # a row; the groups nested in it stay in the section listing
                    parent = path.rsplit("/", 1)[0] if "/" in path else path
                    tables.setdefault(parent, []).append((path, scalars))
                    rows_at.add(path)
    if not tables and not scaling:
        return
    page.add("<h2 id=\"bench\">Benchmarks</h2>")
    for parent, rows in tables.items():
        keys: list[str] = []
        for _, scalars in rows:
            keys += [k for k in scalars if k not in keys]
        common = {}
        if len(rows) > 1:  # a value shared by every row is said once, under the table
            common = {k: rows[0][1][k] for k in keys if all(k in r and _fmt(r[k]) == _fmt(rows[0][1][k]) for _, r in rows)}
            keys = [k for k in keys if k not in common]
        page.add(f"<h3>{_e(parent)}</h3>")
        page.add('<div style="overflow-x:auto">' + _table(["group", *keys], [[path.rsplit("/", 1)[-1] if path != parent else path, *[_fmt(s.get(k, ""), 48) for k in keys]] for path, s in rows]) + "</div>")
        if common:
            page.add('<p class="small">every row: ' + _e("; ".join(f"{k} = {_fmt(v)}" for k, v in common.items())) + "</p>")
    if scaling:
        page.add("<h3>Scaling (log-log, fitted exponents)</h3>")
        by_parent: dict[str, list] = {}
        for entry in scaling:
            by_parent.setdefault(entry[0].rsplit("/", 1)[0], []).append(entry)
        fit_rows = []
        for parent, entries in by_parent.items():
            panels = [(path, axis_name, x, curves) for path, axis_name, x, curves, _ in entries]
            drawn = page.draw(parent, f"scaling of {parent}", lambda path, panels=panels: figures.scaling_figure(panels, path))
            fitted = drawn[1] if drawn else [{name: figures.fit_exponent(x, y) for name, y in curves.items()} for _, _, x, curves in panels]
            for (path, axis_name, _, _, node), exps in zip(entries, fitted):
                stored = ", ".join(f"{key}={float(v):.4g}" for key, v in node.items()
                                   if "exponent" in key and isinstance(v, (int, float)) and not isinstance(v, bool)) or "-"
                for name, k in exps.items():
                    fit_rows.append([path, name, axis_name, "-" if k is None else f"{k:.3f}", stored])
        page.add(_table(["group", "quantity", "axis", "fitted exponent k (y ~ axis^k)", "exponents stored in the group"], fit_rows))


# ------------------------------------------------------------------ everything else


def _listing(tree: Mapping[str, Any], prefix: str, limit: int = 400) -> list[list[str]]:
    rows = []
    for name, value in tree.items():
        path = f"{prefix}/{name}"
        if isinstance(value, Mapping):
            rows += _listing(value, path, limit - len(rows))
        else:
            rows.append([path, _fmt(value)])
        if len(rows) >= limit:
            break
    return rows


def _other_sections(page: _Page, data: ReportData) -> None:
    if not data.sections:
        return
    page.add("<h2 id=\"sections\">All sections</h2><p class=\"small\">Every attribute and dataset the report holds outside /claims.</p>")
    for name, tree in data.sections.items():
        if isinstance(tree, Mapping):
            page.add(f"<details><summary>/{_e(name)}</summary>")
            page.add(_table(["path", "value"], _listing(tree, f"/{name}")))
            page.add("</details>")
