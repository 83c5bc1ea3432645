"""The pieces every page of `nacverify report html` is made of (`nacverify.report.html`):
escaping and number formatting, the page under construction (`_Page`: its HTML parts and its
figures, a figure that cannot be drawn leaving a note in its place), tables and verdict badges,
the stylesheet (one file beside the pages), the HTML document around a page's parts, and the page's
atomic write."""

from __future__ import annotations

import datetime as _dt
import html
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import EnvironmentProblem
from ._io import ClaimRecord, ReportData
from . import figures

CSS = """
*{box-sizing:border-box}
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:0 auto;max-width:1280px;padding:16px 24px;color:#1f2328;line-height:1.45;overflow-wrap:break-word}
td,code,.mono,.id,.loc{overflow-wrap:anywhere}th{overflow-wrap:normal}
h1{font-size:1.5em;margin:.2em 0}h2{border-bottom:1px solid #d0d7de;padding-bottom:.2em;margin-top:1.6em}h3{margin-bottom:.3em;font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0;font-size:.88em;max-width:100%}th,td{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.unexpected td{background:#fff1f0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;color:#fff;font-weight:600;font-size:.85em;white-space:nowrap}
.holds{background:#1a7f37}.refuted{background:#cf222e}.inapplicable{background:#0969da}.inconclusive{background:#bf8700}.error{background:#8250df}
.as-expected{color:#1a7f37;font-size:.85em;white-space:nowrap}.x{color:#cf222e;font-weight:700;white-space:nowrap}
.banner{padding:10px 14px;border-radius:6px;margin:10px 0;font-weight:600}.bad{background:#ffebe9;border:1px solid #cf222e}.good{background:#dafbe1;border:1px solid #1a7f37}
.meta td:first-child{font-weight:600;white-space:nowrap}img{max-width:100%;height:auto;border:1px solid #eaeef2;margin:6px 0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
.small,small{color:#59636e;font-size:.85em}blockquote{margin:0;color:#31363b}
.banner ul{margin:.4em 0 0;padding-left:1.4em;font-weight:400}.banner li{margin:.15em 0}
.fb{display:inline-block;padding:0 7px;border-radius:4px;font-weight:700;font-size:.85em;color:#fff;white-space:nowrap}
.fb.f-error{background:#cf222e}.fb.f-slip{background:#8250df}.fb.f-depends-on-reading{background:#9a6700}.fb.f-inconclusive{background:#6e7781}
.fb.f-holds{background:#1a7f37}.fb.f-not-checkable{background:#d0d7de;color:#1f2328}
.counts a,.counts .none{margin-right:.9em;text-decoration:none;white-space:nowrap}.counts .none{opacity:.55}
article.finding{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:10px 0}
article.finding h3{margin:0 0 .4em}.loc{color:#59636e;font-weight:400;font-size:.9em}
blockquote.quote{border-left:4px solid #d0d7de;padding:4px 10px;margin:.4em 0;background:#f6f8fa}
article.finding ul{margin:.2em 0 .4em;padding-left:1.3em}article.finding p{margin:.35em 0}.fails li,.witness li{margin:.15em 0}.why{color:#31363b}
.claims li{margin:.1em 0}.code{color:#59636e}a.id,.id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
ul.errors{padding-left:1.2em}ul.errors li{margin:.25em 0}
.math{display:inline-block;max-width:100%;overflow-x:auto;overflow-y:hidden;vertical-align:middle}.math math{font-size:1.08em}
.math.display{display:block;text-align:center}
code.tex{border:1px dashed #bf8700;padding:0 3px}code.tex::before{content:"TeX: ";color:#9a6700;font-size:.85em}
td details{margin:.2em 0 0;font-size:.92em}td summary{font-weight:400;color:#59636e}.cl p{margin:.25em 0 .25em 1em}.only{display:none}
#unexpected-only:target~.only{display:block}#unexpected-only:target~.ok,#unexpected-only:target~* .ok{display:none}
@media (max-width:700px){body{padding:10px 10px}table:not(.stack){display:block;overflow-x:auto}table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;border:0}
table.stack tr:first-child{display:none}table.stack tr{border-top:1px solid #d0d7de;padding:4px 0}
table.stack td{display:inline-block;padding:1px 6px 1px 0}table.stack td.num::before{content:attr(data-label) " "}}
"""


STYLESHEET = "nacverify.css"  # CSS, written once beside the pages (`_write_page(folder / STYLESHEET, CSS)`), linked from each


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


def _ok(c: ClaimRecord) -> bool:
    return c.verdict == c.expected


def _document(title: str, parts: list[str], data: ReportData) -> str:
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<title>{_e(title)}</title><link rel="stylesheet" href="{STYLESHEET}"></head><body>\n'
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
