"""`nacverify report html`: an offline page with the gate's banner, the figures a report's
contents call for, a page per ledger document (quote, finding, claims of each item) and the
claims' details (tests/report_samples.py holds reports of known contents; `registry_report`
one of every registered claim, the size of a ``check --quick`` report)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from nacverify.claims import Verdict
from nacverify.cli.app import app
from nacverify.report.figures import fit_exponent
from nacverify.report import read_report, write_report

sys.path.insert(0, str(Path(__file__).parent))
from report_samples import _claim, sample_report  # noqa: E402

runner = CliRunner()


class _Refs(HTMLParser):
    """Every tag name and every URL-valued attribute of a page."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.urls: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "data", "srcset", "action", "poster") and value is not None:
                self.urls.append((tag, name, value))


def _render(tmp_path, report, name="r"):
    path = write_report(report, tmp_path / f"{name}.h5")
    out = tmp_path / f"{name}-html"
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(out)])
    assert res.exit_code == 0, res.output
    page = out / "index.html"
    return page, page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    return _render(tmp, sample_report())


def test_page_is_offline_and_its_images_are_local_pngs(sample_page):
    page, text = sample_page
    refs = _Refs()
    refs.feed(text)
    assert "script" not in refs.tags and "link" not in refs.tags and "iframe" not in refs.tags
    assert not re.search(r"(https?:)?//", " ".join(v for _, _, v in refs.urls))
    assert "url(" not in text and "@import" not in text
    images = [v for tag, name, v in refs.urls if tag == "img"]
    assert len(images) >= 5
    for src in images:
        file = page.parent / src
        assert file.parent == page.parent and file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", src
    for tag, name, value in refs.urls:
        if tag == "a":  # in-page anchors, or the report's own pages beside index.html
            target = value.split("#")[0]
            assert value.startswith("#") or (re.fullmatch(r"[\w.-]+\.html", target) and (page.parent / target).is_file()), value


def test_page_has_every_verdict_and_the_known_numbers(sample_page):
    page, text = sample_page
    pages = {p.name: p.read_text(encoding="utf-8") for p in page.parent.glob("*.html")}
    every = "\n".join(pages.values())
    for cid in ("demo.thm3.sharp.osc", "demo.table2.row", "demo.euler", "ltc.eq12.bounds.sigmoid", "demo.symbolic", "ltc.eq12.bounds.tanh", "demo.order"):
        (link,) = set(re.findall(rf'<a href="([\w.-]+\.html)#claim-{re.escape(cid)}">{re.escape(cid)}</a>', every))
        assert f'id="claim-{cid}"' in pages[link]  # the link leads to the claim's details
    assert "all 7 verdicts as expected" in text
    # per-draw values without an axis: a histogram; a (3, 5) error table over 5 step sizes: curves over dt
    assert 'alt="distribution of the evidence arrays of ltc.eq12.bounds.tanh"' in text
    assert 'alt="evidence arrays of demo.order"' in text
    # fitted exponents of forward_ms = 3e-3 T^2 and memory_mb = 1e-2 T, and the stored one
    rows = re.findall(r"<tr><td>bench/scaling/exact</td><td>(\w+)</td><td>T</td><td[^>]*>([-0-9.]+)</td>", text)
    assert dict(rows) == {"forward_ms": "2.000", "memory_mb": "1.000"}
    assert "exponent_forward_ms=2" in text  # an attribute of the group, shown next to the fit
    # the tightness table: 0.01 t^2 over 0.0125 t^2
    assert re.search(r"<td>demo.thm3.sharp.osc</td><td>holds</td><td>max_tightness</td><td[^>]*>0.8</td>", text)
    for heading in ("Frozen vs varying coefficients", "Tightness of each bound", "Explicit Euler: the overshoot region", "LTC: bounds along trajectories", "Benchmarks"):
        assert heading in text, heading
    assert "median_ms" in text and "4.25" in text


def test_fit_exponent_against_known_powers():
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    assert fit_exponent(x, 5 * x**1.5) == pytest.approx(1.5, abs=1e-12)
    assert fit_exponent(x, np.full(5, 3.0)) == pytest.approx(0.0, abs=1e-12)
    assert fit_exponent(np.array([2.0, 2.0]), np.array([1.0, 4.0])) is None  # one distinct x
    assert fit_exponent(np.array([0.0, 1.0, 2.0]), np.array([1.0, -1.0, 4.0])) is None  # only one usable point


def test_absent_content_is_skipped_and_incomplete_is_flagged(tmp_path):
    report = sample_report(drop=("demo.euler", "ltc.eq12.bounds.sigmoid", "demo.thm3.sharp.osc", "ltc.eq12.bounds.tanh", "demo.order"), complete=False, sections=False)
    _, text = _render(tmp_path, report)
    assert "INCOMPLETE" in text and "interrupted after 3 of 10 draws" in text
    for heading in ("Frozen vs varying", "Tightness of each bound", "Explicit Euler", "LTC: bounds", "Benchmarks", "All sections"):
        assert heading not in text, heading
    assert "<img" not in text


def test_frozen_figure_from_claim_arrays_alone(tmp_path):
    """A `check`-style report without /frozen_error sections still gets the Figure 5 analog."""
    _, text = _render(tmp_path, sample_report(sections=False))
    assert "Frozen vs varying coefficients" in text and 'alt="frozen vs varying trajectories' in text


def test_unexpected_verdict_banner_and_escaping(tmp_path):
    hostile = _claim("demo.<b>x&y", Verdict.INCONCLUSIVE, Verdict.HOLDS, message="<script>alert(1)</script> & more")
    _, text = _render(tmp_path, sample_report(extra_claims=[hostile]))
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in text
    assert "1 of 8 verdicts differ from the expected ones" in text
    assert '<tr class="unexpected">' in text


def test_existing_page_refused_then_forced(tmp_path):
    path = write_report(sample_report(sections=False), tmp_path / "r.h5")
    out = tmp_path / "page"
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(out)]).exit_code == 0
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(out)])
    assert res.exit_code == 2 and "exists" in res.output
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(out), "--force"]).exit_code == 0
    (tmp_path / "file").write_text("x")
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(tmp_path / "file")])
    assert res.exit_code == 2 and "not a folder" in res.output
    res = runner.invoke(app, ["report", "html", str(tmp_path / "missing.h5"), "--out", str(out)])
    assert res.exit_code == 2 and "no report file" in res.output


# ------------------------------------------------------------------ headless Chromium


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        exe = shutil.which(name)
        if exe:
            return exe
    return None


def test_page_in_headless_chromium(sample_page, tmp_path):
    """Screenshot the page with Debian's chromium: it renders, the verdict badges and the
    matplotlib figures are visible (their colours are on screen)."""
    exe = _chromium()
    if exe is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium); the page is checked without a browser above")
    page, _ = sample_page
    shot = tmp_path / "shot.png"
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars",
           "--window-size=1280,2000", f"--screenshot={shot}", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    import matplotlib.image as mpimg

    img = mpimg.imread(shot)[..., :3]
    assert img.shape[:2] == (2000, 1280)
    pixels = np.round(img * 255).astype(int).reshape(-1, 3)

    def count(hex_colour, tol=6):
        rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
        return int(np.sum(np.all(np.abs(pixels - rgb) <= tol, axis=1)))

    assert count("#1a7f37") > 200  # green "holds" badges (and the all-as-expected banner border)
    assert count("#cf222e") > 100  # red "refuted" badges
    assert count("#1f77b4") > 200  # matplotlib's first line colour: the figures were loaded and drawn


def test_odd_evidence_renders_a_page(tmp_path):
    """Inconsistent shapes and types a future check might write do not fail the page: what
    can be drawn is drawn, the rest is listed."""
    odd = [
        _claim("odd.frozen", Verdict.HOLDS, Verdict.HOLDS, arrays={"t": np.linspace(0, 1, 10), "a_varying": np.ones(5), "a_frozen": np.ones(10), "abs_error": np.ones(10)}),
        _claim("odd.euler", Verdict.HOLDS, Verdict.HOLDS, arrays={"dt_omega": np.linspace(0.1, 3, 7), "fraction_leaving": np.ones((2, 7)), "x": np.array([np.nan] * 7)}),
        _claim("odd.ltc", Verdict.HOLDS, Verdict.HOLDS, arrays={"t": np.array([0.0, np.inf, 1.0]), "y": np.array([1.0, 2.0, 3.0]), "labels": np.array(["a", "b", "c"])},
               scalars={"max_tightness": float("nan")}),
        _claim("odd.draws", Verdict.HOLDS, Verdict.HOLDS, arrays={"violation_ratio": np.full(20, np.nan)}),
    ]
    report = sample_report(extra_claims=odd)
    report.sections["frozen_error/weird"] = {"t": np.linspace(0, 1, 4), "a_varying": np.ones(4), "a_frozen": np.ones(4), "abs_error": np.zeros(4),
                                             "bound_sharp": np.ones(3), "phi_variation_pct": "n/a"}
    report.sections["bench/scaling/flat"] = {"T": np.array([256.0, 256.0]), "median_s": np.array([1.0, -1.0])}
    page, text = _render(tmp_path, report)
    assert "odd.ltc" in text and "frozen_error/weird" in text
    for src in re.findall(r'<img src="([^"]+)"', text):
        assert (page.parent / src).read_bytes()[:4] == b"\x89PNG"


def test_a_figure_that_cannot_be_drawn_leaves_a_note(tmp_path):
    from nacverify.errors import EnvironmentProblem
    from nacverify.report.html import _Page

    page = _Page(tmp_path)

    def broken(path):
        raise ValueError("x and y must have same first dimension")

    assert page.draw("bad", "a figure", broken) is None
    assert page.parts == ['<p class="small">figure "a figure" not drawn: ValueError: x and y must have same first dimension</p>']

    def unwritable(path):
        raise EnvironmentProblem("cannot write figure")

    with pytest.raises(EnvironmentProblem):
        page.draw("env", "b figure", unwritable)


# ------------------------------------------------------------------ by document, at the size of a check report


def registry_report(flip: tuple[str, ...] = ()):
    """A report of every registered claim with its own texts (source, statement, assumptions,
    reason), verdict = expected except for the ids in `flip`, messages of a check's length, and
    arrays on every other claim: the shape and size of ``check --quick``'s report, without the
    minutes its checks take."""
    import nacverify.catalog  # noqa: F401  (registers every claim)
    from nacverify.claims import select
    from nacverify.report._io import ClaimRecord, ReportData

    records = {}
    t = np.linspace(0.0, 1.0, 400)
    for i, c in enumerate(select(None)):
        expected = c.expected.value
        verdict = ("refuted" if expected == "holds" else "holds") if c.id in flip else expected
        arrays = {"t": t, "y": np.sin(6 * t) * (i + 1), "bound": np.full_like(t, i + 2.0)} if i % 2 == 0 else {}
        scalars = {"max_tightness": 0.5 + i % 7 / 10, "members": 3} if i % 15 == 0 else {"min_slack": 0.01 * (i % 5 + 1)}
        message = f"{c.statement} [measured on 400 points; reason: {c.expected_reason}]"[:320]
        records[c.id] = ClaimRecord(c.id, verdict, expected, c.source, c.statement, c.assumptions, c.expected_reason, message, c.group,
                                    0.01 * i, scalars, {"dt": 0.125, "omega": float(i)}, arrays, str(c.kind or ""), c.reading or "", c.threshold or "")
    attrs = {"complete": True, "command": "nacverify check --quick", "seed": 0, "n_claims": len(records)}
    return ReportData(Path("check-quick.h5"), attrs, records, {})


@pytest.fixture(scope="module")
def registry_pages(tmp_path_factory):
    """The registry report with one flipped claim of document 004, rendered; and the render time."""
    import time

    from nacverify.ledger import load_ledgers
    from nacverify.report.html import render_html

    flip = next(c for it in load_ledgers(["004"])["004"].items for c in it.claims)
    data = registry_report(flip=(flip,))
    out = tmp_path_factory.mktemp("registry") / "page"
    start = time.perf_counter()
    index = render_html(data, out)
    return index, data, flip, time.perf_counter() - start


def test_check_sized_report_renders_small_pages_quickly(registry_pages):
    """Issue 23: the check report's page was 1.06 MB (1.35 MB by the time of the fix) and took 25 s,
    drawing a figure for every claim with arrays. Every page is now at most 400 kB, the figures
    are the summary figures plus `MAX_CLAIM_FIGURES` claims, and rendering stays within seconds
    (5 s measured on an idle 2-core machine with the CLI; 15 s here leaves room for a busy CI)."""
    from nacverify.report.html import MAX_CLAIM_FIGURES

    index, data, _, seconds = registry_pages
    sizes = {p.name: p.stat().st_size for p in index.parent.glob("*.html")}
    assert max(sizes.values()) <= 400_000, sizes
    assert sizes["index.html"] <= 100_000
    pngs = list(index.parent.glob("fig-*.png"))
    assert len(pngs) <= 2 + MAX_CLAIM_FIGURES  # the tightness bars and at most MAX_CLAIM_FIGURES claims (no frozen series here)
    assert seconds <= 15.0, seconds
    details = "\n".join(p.read_text(encoding="utf-8") for p in index.parent.glob("claims*.html"))
    assert all(f'id="claim-{cid}"' in details for cid in data.claims)  # every claim's details, once
    assert sum(details.count(f'id="claim-{cid}"') for cid in data.claims) == len(data.claims)


def test_a_page_per_document_with_each_items_quote_finding_and_claims(registry_pages):
    """Against the ledger itself: every item of document 004 appears on its page with its quote,
    its finding (computed here from the report's verdicts) and a link to each of its claims'
    details, which exist where the link points."""
    import html as _html

    from nacverify.findings import item_finding, report_claims
    from nacverify.ledger import load_ledgers

    index, data, flip, _ = registry_pages
    ledger = load_ledgers(["004"])["004"]
    page = (index.parent / "doc-004.html").read_text(encoding="utf-8")
    claims, verdicts = report_claims(data.claims.values())
    rows = re.findall(r'<tr class="(ok|unexpected)"><td><span id="item-([^"]+)">', page)
    assert len(rows) == len(ledger.items)
    for it in ledger.items:
        assert _html.escape(it.quote, quote=True) in page, it.item
        finding = item_finding(it, verdicts, claims).finding
        row = page[page.index(f'<span id="item-{it.item}">'):]
        row = row[: row.index("</tr>")]
        assert f'<b class="f-{finding}">{finding}</b>' in row
        for cid in it.claims:
            target, anchor = re.search(rf'<a href="([\w.-]+\.html)#(claim-{re.escape(cid)})">', row).groups()
            assert f'id="{anchor}"' in (index.parent / target).read_text(encoding="utf-8")
        assert ('class="unexpected"' in page[page.rindex("<tr", 0, page.index(f'<span id="item-{it.item}">')):][:30]) == (flip in it.claims)
    text = index.read_text(encoding="utf-8")
    assert '<a href="doc-004.html">004</a>' in text and '<h2 id="findings">Findings</h2>' in text


def test_banner_links_each_failing_claim_and_gives_its_reason(registry_pages):
    index, data, flip, _ = registry_pages
    text = index.read_text(encoding="utf-8")
    banner = text[text.index('<div class="banner bad">'):]
    banner = banner[: banner.index("</div>")]
    c = data.claims[flip]
    assert f"1 of {len(data.claims)} verdicts differ from the expected ones" in banner
    link = re.search(rf'<a href="(claims-[\w.-]+\.html)#claim-{re.escape(flip)}">{re.escape(flip)}</a>: verdict {c.verdict}, expected {c.expected}: ', banner)
    assert link, banner[:600]
    import html as _html

    assert _html.escape(c.message[:100], quote=True) in banner  # the check's own words say why
    assert f'id="claim-{flip}"' in (index.parent / link.group(1)).read_text(encoding="utf-8")


def test_figures_come_before_the_tables(registry_pages):
    index, *_ = registry_pages
    text = index.read_text(encoding="utf-8")
    first_img, first_table = text.index("<img"), text.index('<h2 id="findings">')
    assert first_img < first_table
    assert text.count("<tr") < 80  # the index holds counts, the unexpected claims and the figures; items live on their pages


def _screenshot(exe: str, url: str, shot: Path, profile: Path, height: int = 2000) -> np.ndarray:
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
           f"--window-size=1280,{height}", f"--screenshot={shot}", url]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    import matplotlib.image as mpimg

    return np.round(mpimg.imread(shot)[..., :3] * 255).astype(int).reshape(-1, 3)


def _count(pixels: np.ndarray, hex_colour: str, tol: int = 6) -> int:
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int(np.sum(np.all(np.abs(pixels - rgb) <= tol, axis=1)))


def test_by_document_pages_in_headless_chromium(registry_pages, tmp_path):
    """In a real browser: the index's first 4000 px show figures (the check report's had 56,000 px of
    table first), and the "unexpected only" view of a document page hides the rows whose verdicts
    are as expected (the green "holds" marks go) while the differing claim stays (its red mark)."""
    exe = _chromium()
    if exe is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium); the pages are checked without a browser above")
    index, *_ = registry_pages
    top = _screenshot(exe, index.as_uri(), tmp_path / "top.png", tmp_path / "p1", height=4000)
    assert _count(top, "#1f77b4") > 200  # matplotlib's first line colour (a claim's curves), in the first 4000 px
    doc = index.parent / "doc-004.html"
    everything = _screenshot(exe, doc.as_uri() + "#documents", tmp_path / "all.png", tmp_path / "p2")
    only = _screenshot(exe, doc.as_uri() + "#unexpected-only", tmp_path / "only.png", tmp_path / "p3")
    assert _count(everything, "#1a7f37") > 500  # "holds" marks of the items as expected
    assert _count(only, "#1a7f37") < _count(everything, "#1a7f37") / 10
    assert _count(only, "#cf222e") > 50  # the flipped claim's mark and the "not as expected" text


def test_a_claims_details_link_the_code_that_decides_it_and_its_ledger_items(registry_pages):
    """Issue 25: each claim's details name where it is decided (read off the source by hand:
    nac.table2.average is `table2_average_outcome` of nacverify/frozen/_table2.py) as a link to that
    file, and link each ledger item citing it (000:table2.average)."""
    import html as _html
    from urllib.parse import urlparse
    from urllib.request import url2pathname

    index, _, _, _ = registry_pages
    pages = {p.name: p.read_text(encoding="utf-8") for p in index.parent.glob("claims*.html")}
    name, page = next((n, t) for n, t in pages.items() if 'id="claim-nac.table2.average"' in t)
    block = page[page.index('id="claim-nac.table2.average"'):]
    block = block[: block.index("</details>")]
    assert '<a href="doc-000.html#item-table2.average">000:table2.average</a>' in block
    link = re.search(r'<b>defined in</b> <a class="mono" href="([^"]+)">([^<]+)</a> <span class="small">([^<]+)</span>', block)
    assert link, block
    href, label, where = (_html.unescape(g) for g in link.groups())
    assert label == "nacverify.frozen._table2:table2_average_outcome"
    path = Path(url2pathname(urlparse(href).path))
    assert path.is_file() and path.name == "_table2.py"
    file, line = where.rsplit(":", 1)
    assert file.endswith("nacverify/frozen/_table2.py")
    assert path.read_text(encoding="utf-8").splitlines()[int(line) - 1].startswith("def table2_average_outcome(")
    assert all("<b>defined in</b>" in t for t in pages.values() if "<details" in t)
