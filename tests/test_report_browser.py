"""`nacverify report html` in a real browser (issue 37): Debian's headless Chromium loads the pages and the
tests read what it laid out (tests/browser.py: the DevTools protocol over a pipe) and what it painted
(screenshots). They check from the rendered page that the findings come first, that formulas render
as MathML and not as LaTeX source, that no element reaches past the viewport at 1280 and 390 px, and
that a violated bound is drawn red whatever was expected, with "as expected" a separate mark.

Without Chromium they skip, unless NACVERIFY_REQUIRE_BROWSER is set (CI installs Chromium and sets it,
so that they run there)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from nacverify.claims import Verdict
from nacverify.report import write_report

sys.path.insert(0, str(Path(__file__).parent))
from browser import OVERFLOW_PROBE, Browser, require_browser  # noqa: E402
from report_samples import _claim, render_registry, sample_report  # noqa: E402

RED, GREEN = "#cf222e", "#1a7f37"  # refuted / violated; holds / within (nacverify.report.figures)


@pytest.fixture(scope="module")
def browser():
    exe = require_browser()
    with Browser(exe) as b:
        yield b


@pytest.fixture(scope="module")
def registry_pages(tmp_path_factory):
    return render_registry(tmp_path_factory.mktemp("registry-browser") / "page")


def _pixels(png: Path) -> np.ndarray:
    import matplotlib.image as mpimg

    return np.round(mpimg.imread(png)[..., :3] * 255).astype(int).reshape(-1, 3)


def _count(pixels: np.ndarray, hex_colour: str, tol: int = 8) -> int:
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int(np.sum(np.all(np.abs(pixels - rgb) <= tol, axis=1)))


def test_findings_come_first(browser, registry_pages, tmp_path):
    """Document 000's page, as laid out: its findings in order of weight (error, slip,
    depends-on-reading, inconclusive, holds, not-checkable), the first one an error whose box starts in
    the first screen; and on the overview (index.html) the findings precede every figure."""
    from nacverify.findings import FINDINGS

    index, *_ = registry_pages
    probe = """[...document.querySelectorAll('article.finding')].map(a => [a.id, a.querySelector('h3 .fb').textContent,
                                 a.getBoundingClientRect().top + window.scrollY])"""
    browser.open((index.parent / "doc-000-holds.html").as_uri(), 1280, 900)  # issue 46: what holds and what cannot be checked, pages of their own
    second = browser.evaluate(probe)
    browser.open((index.parent / "doc-000-not-checkable.html").as_uri(), 1280, 900)
    second += browser.evaluate(probe)
    browser.open((index.parent / "doc-000.html").as_uri(), 1280, 900)
    found = browser.evaluate(probe)
    ranks = [FINDINGS.index(name) for _, name, _ in found + second]
    assert len(found + second) > 200 and ranks == sorted(ranks) and found[0][1] == "error"
    assert {name for _, name, _ in second} == {"holds", "not-checkable"}
    assert [top for *_, top in found] == sorted(top for *_, top in found)  # the DOM order is the order on screen
    assert found[0][2] < 900  # the first error is on the first screen
    assert found[1][2] < 900  # issue 46: the review collapsed, the second error starts on the first screen too
    shot = browser.screenshot(tmp_path / "doc-000-top-1280.png")
    assert _count(_pixels(shot), RED) > 200  # the error badges are painted red
    browser.open(index.as_uri(), 1280, 900)
    order = browser.evaluate("""(() => { const y = e => e.getBoundingClientRect().top + window.scrollY;
        return [y(document.getElementById('findings')), Math.min(...[...document.images].map(y)), document.images.length,
                [...document.images].every(i => i.complete && i.naturalWidth > 0)]; })()""")
    assert order[2] >= 1 and order[0] < order[1] and order[3]  # the overview first; every figure loaded
    browser.screenshot(tmp_path / "overview-1280.png", full_height=2200)


def test_formulas_render_as_mathml_not_source(browser, registry_pages, tmp_path):
    """Eq. 1 of document 000 (a fraction, underbraces, subscripts) is laid out as MathML: its ``math``
    element has Chromium's math display, and the fraction's numerator sits above its denominator. No
    quote on the page shows LaTeX source (a backslash command) to the reader."""
    index, *_ = registry_pages
    browser.open((index.parent / "doc-000.html").as_uri(), 1280, 900)  # issue 46: errors and readings here, eq. 1 (it holds) on the second page
    first = browser.evaluate("""(() => { const quotes = [...document.querySelectorAll('blockquote.quote')];
        return {maths: document.querySelectorAll('blockquote.quote math').length,
                source: quotes.filter(q => /\\\\[A-Za-z]+/.test(q.innerText)).map(q => q.closest('article').id)}; })()""")
    assert first["maths"] > 10 and first["source"] == [], first
    browser.open((index.parent / "doc-000-holds.html").as_uri(), 1280, 900)
    probe = browser.evaluate("""(() => {
        const quote = document.querySelector('#item-eq1 blockquote.quote');
        const m = quote.querySelector('math'), frac = m.querySelector('mfrac');
        const num = frac.children[0].getBoundingClientRect(), den = frac.children[1].getBoundingClientRect();
        const quotes = [...document.querySelectorAll('blockquote.quote')];
        return {display: getComputedStyle(m).display, numBottom: num.bottom, denTop: den.top, width: m.getBoundingClientRect().width,
                text: quote.innerText, maths: document.querySelectorAll('blockquote.quote math').length,
                source: quotes.filter(q => /\\\\[A-Za-z]+/.test(q.innerText)).map(q => q.closest('article').id)};
    })()""")
    assert probe["display"] in ("inline math", "block math", "math"), probe
    assert probe["numBottom"] <= probe["denTop"] + 1 and probe["width"] > 100, probe
    assert "\\frac" not in probe["text"] and "(1)" in probe["text"]
    assert probe["maths"] + first["maths"] > 100 and probe["source"] == [], probe["source"]
    rect = browser.evaluate("(() => { const r = document.querySelector('#item-eq1 blockquote.quote').getBoundingClientRect();"
                            " return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })()")
    browser.screenshot(tmp_path / "eq1-quote.png", clip=rect)


@pytest.mark.parametrize("width", [1280, 390])
def test_no_element_is_wider_than_the_viewport(browser, registry_pages, width):
    """At a desktop width and a phone's, no element's painted box reaches past the viewport on any kind of
    page (the document page's claims column ran off the right edge at 1280 px), and the page does not
    scroll sideways: long ids wrap, wide formulas scroll inside their own box."""
    index, *_ = registry_pages
    for name in ("index.html", "doc-000.html", "doc-000-holds.html", "doc-001.html", "doc-002.html", "claims-000.html", "claims.html", "standard.html"):
        browser.open((index.parent / name).as_uri(), width, 900)
        result = browser.evaluate(OVERFLOW_PROBE)
        assert result["viewport"] == width
        assert result["count"] == 0 and result["scrollWidth"] <= width, (name, json.dumps(result)[:800])


def _tightness_report(tmp_path, values: dict[str, tuple[float, Verdict, Verdict]]) -> Path:
    """A report whose claims carry only a max_ratio each (no other figure), rendered: the index's path."""
    from nacverify.report import read_report
    from nacverify.report.html import render_html

    claims = [_claim(cid, verdict, expected, scalars={"max_ratio": value}) for cid, (value, verdict, expected) in values.items()]
    report = sample_report(extra_claims=claims, drop=("demo.thm3.sharp.osc", "demo.euler", "ltc.eq12.bounds.sigmoid", "ltc.eq12.bounds.tanh", "demo.order"),
                           sections=False)
    path = write_report(report, tmp_path / "t.h5")
    return render_html(read_report(path), tmp_path / "html")


def _figure_pixels(browser: Browser, index: Path, shot: Path) -> np.ndarray:
    browser.open(index.as_uri(), 1280, 900)
    rect = browser.evaluate("(() => { const i = document.querySelector('img[alt=\"tightness of each bound\"]'); const r = i.getBoundingClientRect();"
                            " return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })()")
    return _pixels(browser.screenshot(shot, clip=rect))


def test_a_violated_bound_is_drawn_red_whatever_was_expected(browser, tmp_path):
    """The case the issue found: a bound exceeded 5.65 times by a claim that holds as expected (it states
    the excess) was drawn green. On screen its bar is now red; bars within their bound are green, and a
    report without a violated bound has no red bar at all. The verdict badges keep their own colour
    (refuted red, expected or not) with "as expected" as a separate mark."""
    violated = _tightness_report(tmp_path / "a", {"demo.larger": (5.65, Verdict.HOLDS, Verdict.HOLDS), "demo.within": (0.5, Verdict.HOLDS, Verdict.HOLDS)})
    pixels = _figure_pixels(browser, violated, tmp_path / "tightness-violated.png")
    assert _count(pixels, RED) > 500 and _count(pixels, GREEN) > 50
    within = _tightness_report(tmp_path / "b", {"demo.a": (0.9, Verdict.HOLDS, Verdict.HOLDS), "demo.b": (0.5, Verdict.HOLDS, Verdict.HOLDS)})
    pixels = _figure_pixels(browser, within, tmp_path / "tightness-within.png")
    assert _count(pixels, RED) == 0 and _count(pixels, GREEN) > 500
    claims_page = violated.parent / "claims.html"
    browser.open(claims_page.as_uri(), 1280, 900)
    badge = browser.evaluate("""(() => { const d = document.getElementById('claim-demo.table2.row');
        const b = d.querySelector('summary .badge'); return [b.textContent, getComputedStyle(b).backgroundColor, b.nextElementSibling.textContent]; })()""")
    assert badge == ["refuted", "rgb(207, 34, 46)", "✓ as expected"]


def test_the_unexpected_only_view_hides_what_is_as_expected(browser, registry_pages, tmp_path):
    """On document 004's page, the "unexpected only" view (a CSS :target, no script) leaves visible only
    the finding whose claim differs from its expected verdict."""
    index, data, flip, _ = registry_pages
    visible = "[...document.querySelectorAll('article.finding')].filter(a => a.offsetParent !== null).map(a => a.id)"
    everything, only = [], []
    for name in ("doc-004.html", "doc-004-holds.html", "doc-004-not-checkable.html"):  # issues 46, 43: a document's findings on three pages
        page = (index.parent / name).as_uri()
        browser.open(page + "#findings", 1280, 900)
        everything += browser.evaluate(visible)
        browser.open(page + "#unexpected-only", 1280, 900)
        only += browser.evaluate(visible)
    from nacverify.ledger import load_ledgers

    holding = [f"item-{it.item}" for it in load_ledgers(["004"])["004"].items if flip in it.claims]
    assert len(everything) == len(load_ledgers(["004"])["004"].items) and only == holding


#: The first finding on the page with a defence and a prosecution: its <details>, whether it is open, the summary's text and
#: box, and the laid-out height and visibility of the defence and the prosecution inside it.
REVIEW_PROBE = r"""
(() => {
  const d = [...document.querySelectorAll('article.finding details.review')].find(x => x.querySelector('p.defence') && x.querySelector('p.prosecution'));
  d.scrollIntoView({block: 'center'});
  const s = d.querySelector('summary').getBoundingClientRect();
  const shown = sel => { const e = d.querySelector(sel); return e ? [e.getBoundingClientRect().height, e.checkVisibility()] : null; };
  return {item: d.closest('article').id, open: d.open, hasOpenAttribute: d.hasAttribute('open'),
          summary: d.querySelector('summary').textContent, x: s.left + s.width / 4, y: s.top + s.height / 2,
          defence: shown('p.defence'), prosecution: shown('p.prosecution'),
          articleHeight: d.closest('article').getBoundingClientRect().height};
})()
"""


def test_the_defence_and_the_review_are_collapsed_and_open_on_a_click(browser, registry_pages, tmp_path):
    """Issue 46: a finding shows its quote, place and what fails; the defence, the prosecution and the review
    record are one click away. In Chromium, on document 000's first finding with both a defence and a
    prosecution (a reading whose label was attacked): the review's <details> is
    closed as laid out (the defence and prosecution paragraphs are not visible, `checkVisibility`; the
    summary, the defence's conclusion in one sentence of the ledger's words, is); a mouse click on the
    summary, sent through the browser's input pipeline (not a script), opens it: both paragraphs are then
    laid out and visible, with the ledger's full texts, and the finding grows. A second click closes it."""
    import html as _html

    from nacverify.ledger import load_ledgers
    from nacverify.report.findings_view import conclusion

    index, *_ = registry_pages
    browser.open((index.parent / "doc-000.html").as_uri(), 1280, 900)
    closed = browser.evaluate(REVIEW_PROBE)
    item = next(it for it in load_ledgers(["000"])["000"].items if f"item-{it.item}" == closed["item"])
    assert item.defense and item.prosecution
    assert not closed["open"] and not closed["hasOpenAttribute"]
    assert closed["defence"][1] is False and closed["prosecution"][1] is False  # not rendered (Chromium keeps a closed details' content unpainted)
    assert closed["summary"].startswith("Defence: " + conclusion(item.defense))
    browser.click(closed["x"], closed["y"])
    opened = browser.evaluate(REVIEW_PROBE)
    assert opened["item"] == closed["item"] and opened["open"]
    assert opened["defence"][0] > 20 and opened["defence"][1] and opened["prosecution"][0] > 20 and opened["prosecution"][1]
    assert opened["articleHeight"] > closed["articleHeight"] + 40
    texts = browser.evaluate("(() => { const d = document.getElementById('" + closed["item"] + "').querySelector('details.review');"
                             " return [d.querySelector('p.defence').textContent, d.querySelector('p.prosecution').textContent]; })()")
    assert " ".join(item.defense.split()) in " ".join(texts[0].split()) and " ".join(item.prosecution.split()) in " ".join(texts[1].split())
    browser.screenshot(tmp_path / "review-open.png")
    browser.click(opened["x"], opened["y"])
    assert not browser.evaluate(REVIEW_PROBE)["open"]
    assert _html.escape(item.defense, quote=True) in (index.parent / "doc-000.html").read_text(encoding="utf-8")  # never removed
