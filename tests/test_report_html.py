"""`nacverify report html`: an offline page with the verdict table and the figures a
report's contents call for (tests/report_samples.py holds reports of known contents)."""

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
        if tag == "a":
            assert value.startswith("#"), value  # in-page anchors only


def test_page_has_every_verdict_and_the_known_numbers(sample_page):
    _, text = sample_page
    for cid in ("demo.thm3.sharp.osc", "demo.table2.row", "demo.euler", "ltc.eq12.bounds.sigmoid", "demo.symbolic", "ltc.eq12.bounds.tanh", "demo.order"):
        assert f'<a href="#claim-{cid}">{cid}</a>' in text
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
