"""The ledger's side of `nacverify report html` (`nacverify.report.html`): the index's header
and the gate's banner (a link to each claim whose verdict differs from the expected one, with
its reason), the report as the ledger sees it (`_Documents`), the claims not as expected or in no
ledger item, the "unexpected only" switch (a CSS ``:target`` filter) and each claim's details,
collapsed in ``<details>``, with the place in the source that decides it. The findings (the
overview and each document's page) are `_html_findings`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ._html_parts import _Page, _clip, _e, _fmt, _ok, _slug, _table
from ._io import ClaimRecord, ReportData

_WITH_FORMULAS = ("statement", "reading")  # texts whose formulas render as MathML
MAX_BANNER = 25  # claims named in the gate's banner; the "unexpected only" view lists every one

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


def _row_class(ok: bool) -> str:
    return "ok" if ok else "unexpected"


def _claim_ref(c: ClaimRecord, docs: "_Documents") -> str:
    """A link to the claim's details, its verdict (coloured by the verdict), and a separate mark: as
    expected, or what was expected instead."""
    from ._html_findings import verdict_mark

    return f'<a class="id" href="{_e(_href(c.id, docs))}">{_e(c.id)}</a> {verdict_mark(c.verdict, c.expected)}'


def _header(page: _Page, data: ReportData, docs: "_Documents") -> None:
    """The title and the gate's banner."""
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


def _meta(page: _Page, data: ReportData) -> None:
    """The run: command, seed, time, verdict counts, device, platform, versions, schema."""
    a = data.attrs
    counts: dict[str, int] = {}
    for c in data.claims.values():
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no claims"
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
    finding_of: dict[tuple[str, str], str] = field(default_factory=dict)  # (document, item) -> its finding's name
    claim_page: dict[str, str] = field(default_factory=dict)  # claim id -> its claims page, once the pages are cut (`cut_claim_pages`)
    defined_in: dict[str, object] = field(default_factory=dict)  # claim id -> provenance.Definition (claims this version registers)

    @property
    def in_items(self) -> set[str]:
        return set(self.items_of)

    def item_href(self, doc: str, item: str) -> str:
        """The link to an item's finding, on the page of its document that holds its label (`finding_page`)."""
        from ._html_findings import finding_page

        return f"{finding_page(doc, self.finding_of.get((doc, item), 'error'))}#{_item_anchor(doc, item)}"

    def page_of(self, cid: str) -> str:
        """The page holding the claim's details: that of the first document whose item names it (or
        its continuation, `cut_claim_pages`)."""
        if cid in self.claim_page:
            return self.claim_page[cid]
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
        for it, found in rows:
            out.finding_of[(doc, it.item)] = found.finding
            for cid in it.claims:
                out.items_of.setdefault(cid, []).append((doc, it.item))
    out.defined_in = _definitions(data.claims)
    return out


def _definitions(claim_ids) -> dict[str, object]:
    """Where this version decides each of the report's claims (`nacverify.provenance`); a claim it
    does not register (a report from another version) has none."""
    from ..provenance import registered_definitions

    known = registered_definitions(claim_ids)
    return {cid: known[cid] for cid in claim_ids if cid in known}


def _source_link(where) -> str:
    """``module:function`` with its file and line in the source tree: a stated place that means the
    same wherever the page is copied (a link into this machine's install would not travel)."""
    return f'<code class="mono">{_e(str(where))}</code> <span class="small">{_e(where.file)}:{where.line}</span>'


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


def _unexpected_section(page: _Page, data: ReportData, docs: _Documents) -> None:
    """Every claim not as expected, with its items (links into the document pages) and message."""
    bad = [c for c in data.claims.values() if not _ok(c)]
    page.add('<h2 id="unexpected">Not as expected</h2>')
    if not bad:
        page.add(f"<p>Every verdict is as expected ({len(data.claims)} claims).</p>" if data.claims else "<p>This report holds no claims.</p>")
        return
    rows = []
    for c in bad:
        where = ", ".join(f'<a href="{_e(docs.item_href(d, i))}">{_e(d)}:{_e(i)}</a>' for d, i in docs.items_of.get(c.id, [])) or "-"
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
    """Each claim as a collapsed ``<details>``: the texts (formulas as MathML), then the evidence's
    scalars and witness (a scalar equal to its witness entry or to a text above is left out) and the
    arrays' names and shapes (their figures, where drawn, are on the index page)."""
    page.add('<h2 id="details">Claim details</h2>')
    for c in claims:
        page.add(claim_details(c, docs))


def claim_details(c: ClaimRecord, docs: _Documents) -> str:
    """One claim's ``<details>`` (`_claim_details`)."""
    from . import formulas
    from ._html_findings import verdict_mark

    where = ", ".join(f'<a href="{_e(docs.item_href(d, i))}">{_e(d)}:{_e(i)}</a>' for d, i in docs.items_of.get(c.id, []))
    head = f'<summary><span class="id">{_e(c.id)}</span> {verdict_mark(c.verdict, c.expected)}</summary>'
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
    body = "".join(f"<p><b>{_e(k)}</b> {formulas.html(str(v), own=True, emphasis=False) if k in _WITH_FORMULAS else _e(v)}</p>"
                   for k, v in lines if v)
    if where:
        body += f"<p><b>ledger items</b> {where}</p>"
    if c.id in docs.defined_in:
        body += f"<p><b>defined in</b> {_source_link(docs.defined_in[c.id])}</p>"
    return f'<details class="cl {_row_class(_ok(c))}" id="{_e(_anchor(c.id))}">{head}{body}</details>'


#: The most bytes of claim details on one claims page; a document's claims past it continue on
#: ``claims-<document>-2.html``, ``-3`` ... (a page of a full `check` report stays under 400 kB).
CLAIMS_PAGE_BYTES = 300_000


def cut_claim_pages(claims: list[ClaimRecord], docs: _Documents) -> dict[str, list[tuple[ClaimRecord, str]]]:
    """Each claims page with its claims and their rendered details, in the report's order: the claims of
    one document's page (`_Documents.page_of`) cut into pages of at most `CLAIMS_PAGE_BYTES` (a claim
    never split); records each claim's page in `docs.claim_page`, which every link to it then follows."""
    out: dict[str, list[tuple[ClaimRecord, str]]] = {}
    sizes: dict[str, int] = {}
    parts: dict[str, int] = {}
    for c in claims:
        base = docs.page_of(c.id)
        html = claim_details(c, docs)
        size = len(html.encode("utf-8"))
        name = base if parts.get(base, 1) == 1 else f"{base[:-5]}-{parts[base]}.html"
        if sizes.get(name, 0) and sizes[name] + size > CLAIMS_PAGE_BYTES:
            parts[base] = parts.get(base, 1) + 1
            name = f"{base[:-5]}-{parts[base]}.html"
        sizes[name] = sizes.get(name, 0) + size
        out.setdefault(name, []).append((c, html))
    for name, rows in out.items():
        for c, _ in rows:
            docs.claim_page[c.id] = name
    return out

