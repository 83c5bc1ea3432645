"""A static, offline HTML report, built from the ledger: ``index.html`` has the gate's banner (a
link to each claim whose verdict differs from the expected one, with its reason), the figures,
the findings per document and every claim not as expected; ``doc-<document>.html`` holds one
document's ledger items (quote, finding, claims); ``claims-<document>.html`` and
``claims.html`` hold each claim's details. No network assets: inline CSS, no scripts, figures as
PNG files next to ``index.html``. The "unexpected only" view is a CSS ``:target`` filter
(``#unexpected-only``): it hides every item, row and claim whose verdicts are all as expected.

What is rendered, when the report holds it (reports/SCHEMA.md, "Rendering"):

- the banner, the findings per document and the document pages (claims in no ledger item
  are listed on the index), per-claim details (statement, message, scalars, witness,
  arrays) collapsed in ``<details>``, with text the page already shows left out (the quote a
  claim's source repeats, a scalar equal to its witness entry or reading);
- frozen vs varying trajectories with |eps|, the bounds and the tightness over t per
  regime (``/frozen_error/<regime>`` sections, or claim arrays with ``t``,
  ``a_varying``, ``a_frozen``, ``abs_error``);
- tightness of each bound: claim scalars ``max_tightness`` / ``max_ratio`` as bars, and
  the distribution over sweep draws (``.../sweep/members/tightness_<bound>``);
- the Euler overshoot region: claims with a ``dt_omega`` array, and other ``euler``
  claims' arrays;
- LTC bounds along trajectories: arrays of claims whose id starts with ``ltc.``;
- benchmark tables (``/bench`` attributes) and log-log scaling plots with fitted
  exponents (a ``/bench`` group with an axis dataset such as ``T``, or any group with a
  ``scaling_axis`` attribute naming its axis dataset);
- the arrays of at most `MAX_CLAIM_FIGURES` other claims as figures (claims not as expected
  first; the rest are summarised in their details) and every other section as a listing.

The figures come first, so a reader meets them before the tables; the page of a ``check
--quick`` report renders in a few seconds (drawing is what costs: about 0.2 s a figure).
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BadInput, EnvironmentProblem
from ._io import ClaimRecord, ReportData
from . import figures

__all__ = ["render_html", "AXIS_NAMES", "SCALING_AXES"]

AXIS_NAMES = ("t", "ts", "time", "dt_omega", "x", "dt", "h", "T", "tau", "steps", "n")
SCALING_AXES = ("T", "seq_len", "length", "tokens", "n", "N", "size", "batch", "d_model")
FROZEN_KEYS = ("t", "a_varying", "a_frozen", "abs_error")
MAX_CLAIM_FIGURES = 4  # per-claim evidence figures (besides the summary figures); unexpected claims first
MAX_BANNER = 25  # claims named in the gate's banner; the "unexpected only" view lists every one
FIG_PATTERN = re.compile(r"^(fig-\d{3}-[A-Za-z0-9_.-]*\.png|doc-[A-Za-z0-9_.-]+\.html|claims(-[A-Za-z0-9_.-]+)?\.html)$")  # what a page writes beside index.html

CSS = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:0 auto;max-width:1280px;padding:16px 24px;color:#1f2328;line-height:1.4}
h1{font-size:1.5em;margin:.2em 0}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.5em 0;font-size:.88em}th,td{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.unexpected td{background:#fff1f0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600;font-size:.9em}
.holds{background:#1a7f37}.refuted{background:#cf222e}.inapplicable{background:#0969da}.inconclusive{background:#bf8700}.error{background:#8250df}
.banner{padding:10px 14px;border-radius:6px;margin:10px 0;font-weight:600}.bad{background:#ffebe9;border:1px solid #cf222e}.good{background:#dafbe1;border:1px solid #1a7f37}
.meta td:first-child{font-weight:600;white-space:nowrap}img{max-width:100%;border:1px solid #eaeef2;margin:6px 0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
.small{color:#59636e;font-size:.85em}blockquote{margin:0;color:#31363b}td blockquote{max-width:60em}
.banner ul{margin:.4em 0 0;padding-left:1.4em;font-weight:400}.banner li{margin:.15em 0}
small{color:#59636e}td i{display:inline-block;padding:0 6px;border-radius:8px;color:#fff;font-style:normal;font-size:.85em}
td details{margin:.2em 0 0;font-size:.92em}td summary{font-weight:400;color:#59636e}.f-error{color:#cf222e}.f-depends-on-reading{color:#9a6700}.f-holds{color:#1a7f37}.f-inconclusive{color:#bf8700}.f-not-checkable{color:#59636e}
.x{color:#cf222e;font-weight:700}.cl p{margin:.25em 0 .25em 1em}.only{display:none}
#unexpected-only:target~.only{display:block}#unexpected-only:target~.ok,#unexpected-only:target~* .ok{display:none}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _fmt(value: Any, limit: int = 0) -> str:
    if limit and isinstance(value, str) and len(value) > limit:
        return value[: limit - 3] + "..."
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, np.ndarray):
        return _array_summary(value)
    return str(value)


def _array_summary(arr: np.ndarray) -> str:
    arr = np.asarray(arr)
    text = f"array {arr.shape} {arr.dtype}"
    if arr.size and arr.dtype.kind in "fiu":
        finite = arr[np.isfinite(arr)] if arr.dtype.kind == "f" else arr
        if finite.size:
            text += f", min {float(np.min(finite)):.6g}, max {float(np.max(finite)):.6g}"
    return text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:60]


@dataclass
class _Page:
    folder: Path
    parts: list[str] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    used: set[str] = field(default_factory=set)  # claim ids whose arrays are already drawn
    chosen: set[str] = field(default_factory=set)  # claim ids whose arrays may get a figure of their own (`MAX_CLAIM_FIGURES`)

    def figure_path(self, name: str) -> Path:
        return self.folder / f"fig-{len(self.figures):03d}-{_slug(name)}.png"

    def add_figure(self, path: Path, alt: str) -> None:
        self.figures.append(path)
        self.parts.append(f'<img src="{_e(path.name)}" alt="{_e(alt)}">')

    def draw(self, name: str, alt: str, make: Callable[[Path], Any]) -> Any:
        """Run `make(path)`, which writes one figure and returns its path (or (path, extra)),
        and show the figure. Data a figure cannot be drawn from (mismatched shapes, values
        matplotlib rejects) leaves a visible note in its place instead of failing the page;
        `EnvironmentProblem` (the folder) still propagates. Returns what `make` returned, or
        None."""
        path = self.figure_path(name)
        try:
            result = make(path)
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError, RuntimeError) as exc:
            if isinstance(exc, EnvironmentProblem):
                raise
            import matplotlib.pyplot as plt

            plt.close("all")
            self.parts.append(f'<p class="small">figure "{_e(alt)}" not drawn: {_e(type(exc).__name__)}: {_e(exc)}</p>')
            return None
        self.add_figure(result[0] if isinstance(result, tuple) else result, alt)
        return result

    def add(self, text: str) -> None:
        self.parts.append(text)


def _table(header: list[str], rows: list[list[str]], classes: list[str] | None = None, raw: bool = False) -> str:
    """An HTML table; cells are escaped unless `raw`."""
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        cells = []
        for cell in row:
            text = cell if raw else _e(cell)
            num = ' class="num"' if re.fullmatch(r"[-+0-9.eE,x%naifNI ]+", str(cell) or "-") else ""
            cells.append(f"<td{num}>{text}</td>")
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _badge(verdict: str) -> str:
    v = verdict if verdict in figures.VERDICT_COLORS else "error"
    return f'<span class="badge {v}">{_e(verdict)}</span>'


# ------------------------------------------------------------------ header, banner, documents


CLAIMS_PAGE = "claims.html"  # the claims' details, beside index.html


def _anchor(cid: str) -> str:
    return f"claim-{_slug(cid)}"


def _href(cid: str, docs: "_Documents") -> str:
    """The link to a claim's details, on its claims page."""
    return f"{docs.page_of(cid)}#{_anchor(cid)}"


def _item_anchor(doc: str, item: str) -> str:
    return f"item-{_slug(item)}"


def _doc_page(doc: str) -> str:
    return f"doc-{_slug(doc)}.html"


def _ok(c: ClaimRecord) -> bool:
    return c.verdict == c.expected


def _row_class(ok: bool) -> str:
    return "ok" if ok else "unexpected"


def _claim_ref(c: ClaimRecord, docs: "_Documents") -> str:
    """A link to the claim's details, its verdict, and what was expected when it differs."""
    mark = "" if _ok(c) else f' <b class="x">&ne; expected {_e(c.expected)}</b>'
    v = c.verdict if c.verdict in figures.VERDICT_COLORS else "error"
    return f'<a href="{_e(_href(c.id, docs))}">{_e(c.id)}</a> <i class="{v}">{_e(c.verdict)}</i>{mark}'


def _header(page: _Page, data: ReportData, docs: "_Documents") -> None:
    a = data.attrs
    page.add(f'<h1 id="top">nacverify report: {_e(data.path.name)}</h1>')
    if not data.complete:
        page.add(f'<div class="banner bad">INCOMPLETE: the run was interrupted; this file holds what finished. {_e(a.get("note", ""))}</div>')
    unexpected = [c for c in data.claims.values() if not _ok(c)]
    counts: dict[str, int] = {}
    for c in data.claims.values():
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no claims"
    if unexpected:
        items = []
        for c in unexpected[:MAX_BANNER]:
            why = f" (expected because: {_clip(c.expected_reason, 160)})" if c.expected_reason else ""
            items.append(f'<li><a href="{_e(_href(c.id, docs))}">{_e(c.id)}</a>: verdict {_e(c.verdict)}, expected {_e(c.expected)}: '
                         f'{_e(_clip(c.message, 300))}<span class="small">{_e(why)}</span></li>')
        more = (f'<li>and {len(unexpected) - MAX_BANNER} more: <a href="#unexpected">every claim not as expected</a></li>'
                if len(unexpected) > MAX_BANNER else "")
        page.add(f'<div class="banner bad">{len(unexpected)} of {len(data.claims)} verdicts differ from the expected ones (the gate fails):'
                 f'<ul>{"".join(items)}{more}</ul></div>')
    elif data.claims:
        page.add(f'<div class="banner good">all {len(data.claims)} verdicts as expected ({_e(summary)})</div>')
    try:
        versions = json.loads(a.get("library_versions", "{}"))
        versions_text = ", ".join(f"{k} {v}" for k, v in versions.items())
    except (TypeError, ValueError):
        versions_text = str(a.get("library_versions", ""))
    rows = [
        ["command", a.get("command", "")],
        ["seed", data.seed_text],
        ["created (UTC)", a.get("created_utc", "")],
        ["verdicts", summary],
        ["device", a.get("device", "")],
        ["platform", a.get("platform", "")],
        ["versions", versions_text],
        ["schema", f"{a.get('format', '')} {a.get('schema_version', '')}"],
    ]
    page.add('<table class="meta">' + "".join(f"<tr><td>{_e(k)}</td><td class=\"mono\">{_e(v)}</td></tr>" for k, v in rows) + "</table>")


@dataclass
class _Documents:
    """The ledger as this report sees it: per document, its title and (item, finding) pairs for
    every item whose claims the report holds; the items of each claim (document, item id)."""

    rows: dict[str, tuple[str, list]] = field(default_factory=dict)
    items_of: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def in_items(self) -> set[str]:
        return set(self.items_of)

    def page_of(self, cid: str) -> str:
        """The page holding the claim's details: that of the first document whose item names it."""
        first = self.items_of.get(cid)
        return f"claims-{first[0][0]}.html" if first else CLAIMS_PAGE


def _documents(data: ReportData) -> _Documents:
    from ..findings import item_finding, report_claims
    from ..ledger import load_ledgers

    out = _Documents()
    if not data.claims:
        return out
    from ..claims import Verdict

    known = {v.value for v in Verdict}  # a record with a verdict this version does not know stays out of the findings (its items too)
    claims, verdicts = report_claims(c for c in data.claims.values() if c.verdict in known)
    for doc, ledger in load_ledgers().items():
        rows = [(it, item_finding(it, verdicts, claims)) for it in ledger.items if all(c in claims for c in it.claims)]
        if not any(it.claims for it, _ in rows):  # a document this report checks nothing of
            continue
        out.rows[doc] = (ledger.title, rows)
        for it, _ in rows:
            for cid in it.claims:
                out.items_of.setdefault(cid, []).append((doc, it.item))
    return out


def _findings_section(page: _Page, data: ReportData, docs: _Documents) -> None:
    """One finding per ledger item (`nacverify.findings`), counted per document; each document
    name leads to its section."""
    from ..findings import FINDINGS

    if not docs.rows:
        return
    page.add('<h2 id="findings">Findings</h2><p>One finding per ledger item (a statement of a document), however many claims '
             "check it: <i>error</i> only when the statement fails under its most charitable reading. Claims are the unit of "
             "evidence and of the gate. Each document has a page: its items with their quote, finding and claims.</p>")
    rows = []
    for doc, (_, items) in docs.rows.items():
        counts = Counter(f.finding for _, f in items)
        title = _e(_clip(docs.rows[doc][0], 90))
        rows.append([f'<a href="{_e(_doc_page(doc))}">{_e(doc)}</a>', title, *[str(counts.get(name, 0)) for name in FINDINGS]])
    page.add(_table(["document", "title", *FINDINGS], rows, raw=True))


def _filter(page: _Page, data: ReportData, everything: str = "top", count: int | None = None) -> None:
    """The "unexpected only" switch: a link to the empty ``#unexpected-only`` element, whose
    ``:target`` state hides (CSS) every later block marked ``ok``. No script."""
    n = sum(not _ok(c) for c in data.claims.values()) if count is None else count
    s = "" if n == 1 else "s"
    page.add('<div id="unexpected-only"></div>')
    page.add(f'<p class="small">View: <a href="#unexpected-only">unexpected only</a> ({n} claim{s} not as expected here) '
             f'&middot; <a href="#{everything}">everything</a></p>')
    page.add(f'<p class="only banner {"bad" if n else "good"}">Showing only what differs from the expected verdicts: '
             f'{n} claim{s}{"" if n else ": nothing to show, every verdict here is as expected"}. '
             f'<a href="#{everything}">Show everything</a>.</p>')


def _document_page(page: _Page, data: ReportData, docs: _Documents, doc: str) -> None:
    """One document's items: item and location, finding, the quote (with the defence tried, or
    why the item cannot be checked, collapsed) and its claims with their verdicts."""
    title, items = docs.rows[doc]
    bad_items = {it.item for it, _ in items if any(not _ok(data.claims[c]) for c in it.claims)}
    counts = Counter(f.finding for _, f in items)
    page.add(f'<h1 id="top">{_e(doc)}: {_e(title)}</h1><p><a href="index.html">the report</a> (banner, figures, every document)</p>')
    page.add("<p>" + _e(", ".join(f"{n} {name}" for name, n in counts.items())) + f" (one finding per item); {len(bad_items)} item{'' if len(bad_items) == 1 else 's'} with a verdict not as expected</p>")
    _filter(page, data, everything="documents", count=sum(not _ok(data.claims[c]) for c in {c for it, _ in items for c in it.claims}))
    page.add('<h2 id="documents">Items</h2>')
    rows, classes = [], []
    for it, f in items:
        defense = f.defense if f.finding != "holds" or not it.claims else ""
        quote = _e(it.quote)
        if defense:
            quote += f'<details><summary>{"why" if f.finding == "not-checkable" else "defence"}</summary>{_e(defense)}</details>'
        refs = "<br>".join(_claim_ref(data.claims[c], docs) for c in it.claims) or "<small>none</small>"
        rows.append([f'<span id="{_e(_item_anchor(doc, it.item))}">{_e(it.item)}</span><br><small>{_e(it.location)}</small>',
                     f'<b class="f-{_e(f.finding)}">{_e(f.finding)}</b>', quote, refs])
        classes.append(_row_class(it.item not in bad_items))
    page.add(_table(["item", "finding", "quote", "claims"], rows, classes, raw=True))


def _unexpected_section(page: _Page, data: ReportData, docs: _Documents) -> None:
    """Every claim not as expected, with its items (links into the document pages) and message."""
    bad = [c for c in data.claims.values() if not _ok(c)]
    page.add('<h2 id="unexpected">Not as expected</h2>')
    if not bad:
        page.add(f"<p>Every verdict is as expected ({len(data.claims)} claims).</p>" if data.claims else "<p>This report holds no claims.</p>")
        return
    rows = []
    for c in bad:
        where = ", ".join(f'<a href="{_e(_doc_page(d))}#{_e(_item_anchor(d, i))}">{_e(d)}:{_e(i)}</a>' for d, i in docs.items_of.get(c.id, [])) or "-"
        rows.append([_claim_ref(c, docs), where, _e(_clip(c.message, 300))])
    page.add(_table(["claim", "ledger items", "message"], rows, ["unexpected"] * len(rows), raw=True))


def _unledgered_section(page: _Page, data: ReportData, docs: _Documents) -> None:
    rest = [c for c in data.claims.values() if c.id not in docs.in_items]
    if not rest:
        return
    page.add(f'<h2 id="claims">Claims{" in no ledger item" if docs.rows else ""} ({len(rest)})</h2>')
    _filter(page, data, everything="claims", count=sum(not _ok(c) for c in rest))
    rows = [[_claim_ref(c, docs), _e(c.kind or "-"), _e(c.group), _e(_clip(c.message, 240))] for c in rest]
    page.add(_table(["claim", "kind", "group", "message"], rows, [_row_class(_ok(c)) for c in rest], raw=True))


def _location(c: ClaimRecord, in_item: bool) -> str:
    """The claim's source; for a claim of a ledger item, only the part before the quoted words
    (the item's section shows the quote)."""
    if not in_item:
        return c.source
    cut = min((i for i in (c.source.find(" '"), c.source.find(' "')) if i > 0), default=-1)
    return c.source if cut < 0 else c.source[:cut].rstrip(" ,:") + " (quoted in its item)"


def _claim_details(page: _Page, claims: list[ClaimRecord], docs: _Documents) -> None:
    """Each claim as a collapsed ``<details>``: the texts, then the evidence's scalars and
    witness (a scalar equal to its witness entry or to a text above is left out) and the
    arrays' names and shapes (their figures, where drawn, are on the index page)."""
    page.add('<h2 id="details">Claim details</h2>')
    for c in claims:
        where = ", ".join(f'<a href="{_e(_doc_page(d))}#{_e(_item_anchor(d, i))}">{_e(d)}:{_e(i)}</a>' for d, i in docs.items_of.get(c.id, []))
        head = f'<summary>{_e(c.id)} {_badge(c.verdict)} <span class="small">expected {_e(c.expected)}</span></summary>'
        lines = [("statement", c.statement), ("message", c.message), ("expected because", c.expected_reason), ("assumptions", c.assumptions),
                 ("source", _location(c, c.id in docs.items_of)), ("reading", c.reading), ("threshold", c.threshold)]
        shown = {str(v) for _, v in lines if v}
        witness = {k: _fmt(v, 120) for k, v in c.witness.items()}
        scalars = {k: _fmt(v, 120) for k, v in c.scalars.items() if witness.get(k) != _fmt(v, 120) and str(v) not in shown}
        if scalars:
            lines.append(("scalars", "; ".join(f"{k} = {v}" for k, v in scalars.items())))
        if witness:
            lines.append(("witness", "; ".join(f"{k} = {v}" for k, v in witness.items())))
        if c.arrays:
            lines.append(("arrays", ", ".join(f"{k} {'x'.join(map(str, v.shape))}" for k, v in c.arrays.items())))
        lines.append(("kind, group, seconds", f"{c.kind or '-'}, {c.group}, {c.seconds:.3g}"))
        body = "".join(f"<p><b>{_e(k)}</b> {_e(v)}</p>" for k, v in lines if v)
        if where:
            body += f"<p><b>ledger items</b> {where}</p>"
        page.add(f'<details class="cl {_row_class(_ok(c))}" id="{_e(_anchor(c.id))}">{head}{body}</details>')


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
             "Below 1 the bound holds with room to spare; 1 means it is attained; beyond 1 it is violated.</p>")
    if rows:
        page.draw("tightness", "tightness of each bound",
                  lambda path: figures.tightness_bars([(c.id, v, c.verdict) for c, _, v in rows], path, label="largest measured / bound"))
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


# ------------------------------------------------------------------ page


def _prepare_folder(out_dir: Path, overwrite: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInput(f"--out {out_dir} exists and is not a folder")
    index = out_dir / "index.html"
    if index.exists() and not overwrite:
        raise BadInput(f"{index} exists; choose another --out or pass --force")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        raise BadInput(f"--out {out_dir}: folder is not writable ({exc.strerror or exc})") from None
    if overwrite:  # figures and pages of an earlier page in the same folder
        for old in out_dir.iterdir():
            if FIG_PATTERN.match(old.name) and old.is_file():
                old.unlink()


_TOC = [("frozen", "frozen vs varying"), ("tightness", "tightness"), ("euler", "Euler overshoot"), ("ltc", "LTC bounds"), ("bench", "benchmarks"),
        ("evidence", "other evidence"), ("findings", "findings per document"), ("unexpected", "not as expected"), ("claims", "claims"),
        ("sections", "all sections")]


def render_html(data: ReportData, out_dir: str | os.PathLike, *, overwrite: bool = False, max_claim_figures: int = MAX_CLAIM_FIGURES) -> Path:
    """Write ``out_dir/index.html``, its figures (``fig-NNN-*.png``), a page per document of the
    ledger that the report checks (``doc-<document>.html``) and the claims' details
    (``claims-<document>.html`` for claims of that document's items, ``claims.html`` for the
    others) for `data`; return the index's path. Refuses an existing index unless `overwrite`
    (`BadInput`). `max_claim_figures` claims get a figure of their own (module docstring)."""
    folder = Path(out_dir)
    _prepare_folder(folder, overwrite)
    docs = _documents(data)
    page = _Page(folder)
    _header(page, data, docs)
    toc_at = len(page.parts)
    _choose_figures(page, data, max_claim_figures)
    for build in (_frozen_section, _tightness_section, _euler_section, _ltc_section, _bench_section, _other_claims_section):
        build(page, data)
    _findings_section(page, data, docs)
    _unexpected_section(page, data, docs)
    _unledgered_section(page, data, docs)
    _other_sections(page, data)
    text = "\n".join(page.parts)
    toc = [(f"#{anchor}", title) for anchor, title in _TOC if f'id="{anchor}"' in text] + [(_doc_page(d), f"document {d}") for d in docs.rows]
    page.parts.insert(toc_at, "<p>" + " &middot; ".join(f'<a href="{_e(a)}">{_e(t)}</a>' for a, t in toc) + "</p>")
    for doc in docs.rows:
        doc_page = _Page(folder)
        _document_page(doc_page, data, docs, doc)
        _write_page(folder / _doc_page(doc), _document(f"{doc}: {docs.rows[doc][0]}", doc_page.parts, data))
    by_page: dict[str, list[ClaimRecord]] = {}
    for c in data.claims.values():
        by_page.setdefault(docs.page_of(c.id), []).append(c)
    for name, claims in by_page.items():
        details = _Page(folder)
        details.add(f'<h1 id="top">{_e(name[:-5])}: claims of {_e(data.path.name)}</h1><p><a href="index.html">the report</a> (banner, figures, documents)</p>')
        _filter(details, data, count=sum(not _ok(c) for c in claims))
        _claim_details(details, claims, docs)
        _write_page(folder / name, _document(f"{name[:-5]}: claims of {data.path.name}", details.parts, data))
    return _write_page(folder / "index.html", _document(f"nacverify report: {data.path.name}", page.parts, data))


def _document(title: str, parts: list[str], data: ReportData) -> str:
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(parts)
            + f"\n<p class=\"small\">Rendered by nacverify report html at {stamp} from {_e(data.path)}.</p>\n</body></html>\n")


def _write_page(target: Path, document: str) -> Path:
    """Write `document` to `target` atomically, readable by all (as the umask allows)."""
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(document)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; a page is for reading
        os.replace(tmp, target)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write {target}: {exc.strerror or exc}") from exc
    return target
