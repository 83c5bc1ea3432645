"""The findings side of `nacverify report html` (`nacverify.report.html`): the overview at the top of
``index.html`` (each document's counts, every count a link into its page, and each document's
errors and slips with their place and words) and the page of each document, findings first in order
of weight: error, slip, depends-on-reading, inconclusive, then holds and not-checkable. Each finding
shows, at a glance, its quote and place and what fails for which values (the witness, the start of
each message); the defence, the prosecution and the review record recorded in the ledger are one
click away (``<details>``, its summary the defence's conclusion in one sentence); and the claims it
tests and cites link to their evidence on the claims pages, which hold the messages and witnesses in
full and name the function that decides each claim (``module:function`` and ``file:line``).
The views come from `nacverify.report.findings_view`; formulas are MathML
(`nacverify.report.formulas`). ``standard.html`` beside the pages is the labelling standard."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..findings import FINDINGS
from . import formulas
from ._html_parts import _Page, _e, _ok, _slug
from ._io import ReportData
from .findings_view import MEANING, ClaimLine, FindingView, clip, finding_views, ordered, witness_text

STANDARD_PAGE = "standard.html"  # the labelling standard, beside index.html
OVERVIEW_QUOTE_CHARS = 160  # the start of each error's words in the overview; its page has all of them


#: The findings on a document's further pages (``doc-<document>-holds.html``, ``doc-<document>-not-checkable.html``): what
#: holds and what cannot be checked. The first page (``doc-<document>.html``) keeps what says the document is wrong or unsure,
#: and each page stays small.
SECOND_PAGE = ("holds", "not-checkable")


def _doc_page(doc: str) -> str:
    return f"doc-{_slug(doc)}.html"


def finding_page(doc: str, name: str) -> str:
    """The page of `doc` that lists the findings labelled `name`: the first page, or one page per label of `SECOND_PAGE`
    (``doc-<document>-holds.html``, ``doc-<document>-not-checkable.html``: with every sentence of a document an item, each
    of those labels fills a page of its own)."""
    return f"doc-{_slug(doc)}-{name}.html" if name in SECOND_PAGE else _doc_page(doc)


def document_pages(doc: str) -> list[tuple[str, tuple[str, ...]]]:
    """A document's pages, each with the labels it lists, in order of weight."""
    return [(_doc_page(doc), tuple(n for n in FINDINGS if n not in SECOND_PAGE))] + [(finding_page(doc, n), (n,)) for n in SECOND_PAGE]


def _item_anchor(item: str) -> str:
    return f"item-{_slug(item)}"


def _claim_href(cid: str, docs) -> str:
    return f"{docs.page_of(cid)}#claim-{_slug(cid)}"


def finding_badge(name: str) -> str:
    return f'<span class="fb f-{_e(name)}">{_e(name)}</span>'


def verdict_mark(verdict: str, expected: str) -> str:
    """A claim's verdict as a badge coloured by the verdict itself (refuted is red, whatever was
    expected), and beside it a separate mark: as expected, or what was expected instead."""
    from . import figures

    v = verdict if verdict in figures.VERDICT_COLORS else "error"
    mark = '<span class="as-expected">✓ as expected</span>' if verdict == expected else f'<b class="x">≠ expected {_e(expected)}</b>'
    return f'<span class="badge {v}">{_e(verdict)}</span> {mark}'


def views_of(data: ReportData, docs, doc: str) -> list[FindingView]:
    """The document's findings with the report's verdicts, messages and witnesses."""
    title, items = docs.rows[doc]
    return finding_views(items, data.claims, records=data.claims, definitions=docs.defined_in, titles={doc: title})


def _claim_item(c: ClaimLine, docs) -> str:
    """A claim beside its finding: a link to its details (on its claims page, which also states the function
    that decides it), its verdict and whether it is the expected one."""
    kind = f' <span class="small">{_e(c.kind)}</span>' if c.kind else ""
    return f'<li><a class="id" href="{_e(_claim_href(c.id, docs))}">{_e(c.id)}</a> {verdict_mark(c.verdict, c.expected)}{kind}</li>'


WHY_CHARS = 240  # the start of a check's message under "What fails"; the claim's details hold all of it
WITNESS_CHARS = 300  # the start of a witness; the claim's details hold all of it


def _review(v: FindingView) -> str:
    """The defence, the prosecution and the review record, collapsed in one ``<details>`` whose summary is
    the defence's conclusion in one sentence (or the prosecution's answer, where no defence is recorded)."""
    f = v.finding
    if not (f.defense or f.prosecution):
        return ""
    label = "Why it cannot be checked" if v.name == "not-checkable" else "Defence"
    if f.defense:
        summary = f"<b>{label}:</b> {_e(v.defence_conclusion)}"
    else:
        summary = f"<b>Review:</b> {_e(v.review_conclusion)}"
    body = []
    if f.defense:
        body.append(f'<p class="defence"><b>{label}, in full:</b> {_e(f.defense)}</p>')
    if f.prosecution:
        body.append(f'<p class="prosecution"><b>Prosecution (independent review) and the review record:</b> {_e(f.prosecution)}</p>')
    return f'<details class="review"><summary>{summary} <span class="small">(one click: the {"defence, " if f.defense else ""}' \
           f'{"prosecution and review record" if f.prosecution else "whole text"})</span></summary>{"".join(body)}</details>'


def _card(v: FindingView, docs, data: ReportData) -> str:
    """One finding at a glance: heading (label, item, place), quote, what fails with the witness; then the
    defence, prosecution and review record collapsed (`_review`), the untested part, and the claims tested
    and cited, each a link to its details on the claims page (messages and witnesses in full, the function
    that decides it)."""
    f = v.finding
    ok = all(_ok(data.claims[c.id]) for c in v.tests if c.id in data.claims)
    parts = [f'<article class="finding {"ok" if ok else "unexpected"}" id="{_e(_item_anchor(f.item))}">',
             f'<h3>{finding_badge(v.name)} <a class="id" href="#{_e(_item_anchor(f.item))}">{_e(v.key)}</a> '
             f'<span class="loc">{_e(v.where)}</span></h3>',
             f'<blockquote class="quote">{formulas.html(f.quote)}</blockquote>']
    if f.slip:
        parts.append(f'<p><b>Meant:</b> {_e(f.slip)}</p>')
    fails = v.fails()
    if fails:
        head = "What fails, and the reading that holds" if v.name == "depends-on-reading" else "What fails"
        parts.append(f'<div class="fails"><b>{head}:</b><ul>' + "".join(
            f"<li>{_e(x.head)}: {formulas.html(x.said, own=True, emphasis=False)}" + (f'<br><span class="why">{_e(clip(x.why, WHY_CHARS))}</span>' if x.why else "")
            + "</li>" for x in fails)
            + "</ul></div>")
    witnesses = [c for c in v.failing if c.witness]
    if witnesses:
        parts.append('<div class="witness"><b>Witness:</b><ul>' + "".join(
            f'<li><a class="id" href="{_e(_claim_href(c.id, docs))}">{_e(c.id)}</a>: {_e(clip(witness_text(c.witness), WITNESS_CHARS))}</li>' for c in witnesses)
            + "</ul></div>")
    parts.append(_review(v))
    if f.untested and v.name != "inconclusive":
        parts.append(f'<p><b>Not tested:</b> {_e(f.untested)}</p>')
    if v.tests:
        parts.append('<div class="claims"><b>Claims it tests:</b><ul>' + "".join(_claim_item(c, docs) for c in v.tests) + "</ul></div>")
    if v.cites:
        parts.append('<div class="claims"><b>Claims it cites (evidence; they do not decide it):</b><ul>'
                     + "".join(_claim_item(c, docs) for c in v.cites) + "</ul></div>")
    parts.append("</article>")
    return "".join(parts)


def document_page(page: _Page, data: ReportData, docs, doc: str, filter_switch, listed: tuple[str, ...] = FINDINGS) -> None:
    """One document's findings of the `listed` labels, heaviest first (module docstring); the counts of
    every label, each a link to the page that lists it (`finding_page`)."""
    title, items = docs.rows[doc]
    views = ordered(views_of(data, docs, doc))
    counts = Counter(v.name for v in views)
    claims_page = f"claims-{doc}.html"
    others = [f'<a href="{_e(name)}">{"its findings of " + ", ".join(labels)}</a>' for name, labels in document_pages(doc) if labels != listed]
    page.add(f'<nav class="small"><a href="index.html">overview: every document</a> &middot; {" &middot; ".join(others + [""])}<a href="{_e(claims_page)}">'
             f'this document\'s claims</a> &middot; <a href="{STANDARD_PAGE}">the findings standard</a></nav>')
    page.add(f'<h1 id="top">{_e(doc)}: {_e(title)}</h1>')
    here = "" if set(listed) == set(FINDINGS) else f' <span class="small">(this page: {", ".join(listed)})</span>'
    page.add('<p class="counts">' + " ".join(
        (f'<a href="{"" if name in listed else _e(finding_page(doc, name))}#f-{name}">{finding_badge(name)} {counts[name]}</a>' if counts[name]
         else f'<span class="none">{finding_badge(name)} 0</span>')
        for name in FINDINGS) + here + "</p>")
    page.add(f'<p class="small">One finding per statement of the document (a ledger item), from the verdicts of {_e(data.path.name)}; '
             "heaviest first. Each gives the document's words and their place and what fails for which values; one click opens the "
             "defence, the prosecution and the review record its label survived; its claims link to their evidence and the function "
             f'that decides each. The labels follow <a href="{STANDARD_PAGE}">the findings standard</a>.</p>')
    shown = [v for v in views if v.name in listed]
    unexpected = {c.id for v in shown for c in v.tests if c.id in data.claims and not _ok(data.claims[c.id])}
    filter_switch(page, data, everything="findings", count=len(unexpected))
    page.add('<div id="findings">')
    for name in listed:
        group = [v for v in shown if v.name == name]
        if not group:
            continue
        page.add(f'<section id="f-{name}"><h2>{finding_badge(name)} {len(group)} <span class="small">{_e(MEANING[name])}</span></h2>')
        for v in group:
            page.add(_card(v, docs, data))
        page.add("</section>")
    page.add("</div>")


def overview_section(page: _Page, data: ReportData, docs) -> None:
    """Each document's counts (every count a link to that part of its page) and its errors and
    slips, each with its place and the start of its words, linked to its finding."""
    if not docs.rows:
        return
    page.add('<h2 id="findings">Findings</h2>')
    page.add("<p>One finding per statement of a document (a ledger item), however many claims check it; <i>error</i> only when the "
             "statement fails under its most charitable reading that keeps its words and scope. Claims are the unit of evidence and of "
             f'the gate. Each document has a page, findings first. The labels follow <a href="{STANDARD_PAGE}">the findings standard</a>.</p>')
    head = "".join(f"<th>{finding_badge(name)}</th>" for name in FINDINGS)
    rows = []
    all_views = {doc: ordered(views_of(data, docs, doc)) for doc in docs.rows}
    for doc, views in all_views.items():
        counts = Counter(v.name for v in views)
        cells = "".join(f'<td class="num" data-label="{_e(name)}">' + (f'<a href="{_e(finding_page(doc, name))}#f-{name}">{counts[name]}</a>' if counts[name] else "0")
                        + "</td>" for name in FINDINGS)
        rows.append(f'<tr><td data-label="document"><a class="id" href="{_e(_doc_page(doc))}">{_e(doc)}</a></td>'
                    f'<td data-label="title">{_e(docs.rows[doc][0])}</td>{cells}</tr>')
    page.add(f'<table class="counts stack"><tr><th>document</th><th>title</th>{head}</tr>{"".join(rows)}</table>')
    for doc, views in all_views.items():
        accusing = [v for v in views if v.name in ("error", "slip")]
        if not accusing:
            continue
        counts = Counter(v.name for v in accusing)
        page.add(f'<h3><a href="{_e(_doc_page(doc))}">{_e(doc)}</a>: {counts["error"]} error{"" if counts["error"] == 1 else "s"}, '
                 f'{counts["slip"]} slip{"" if counts["slip"] == 1 else "s"}</h3><ul class="errors">')
        for v in accusing:
            href = f"{finding_page(doc, v.name)}#{_item_anchor(v.finding.item)}"
            page.add(f'<li>{finding_badge(v.name)} <a class="id" href="{_e(href)}">{_e(v.finding.item)}</a> <span class="loc">{_e(v.where)}</span>: '
                     f'{formulas.html(v.finding.quote, limit=OVERVIEW_QUOTE_CHARS)}</li>')
        page.add("</ul>")


def standard_page(folder: Path) -> tuple[str, str] | None:
    """The labelling standard (``reports/FINDINGS_STANDARD.md``, shipped as package data) as an HTML
    body, with its title; None when the package lacks it."""
    from importlib import resources

    try:
        text = resources.files("nacverify.data").joinpath("FINDINGS_STANDARD.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), "The findings standard")
    return title, '<nav class="small"><a href="index.html">overview: every document</a></nav>\n' + body
