"""A static, offline HTML report, built from the ledger: ``index.html`` opens with the gate's banner
(a link to each claim whose verdict differs from the expected one, with its reason) and the
findings' overview (each document's counts, every count a link, and each document's errors and
slips), then the run, the figures and the claims not as expected; ``doc-<document>.html`` holds one
document's errors, slips, readings and inconclusive findings, heaviest first, and
``doc-<document>-holds.html`` and ``doc-<document>-not-checkable.html`` what holds and what cannot be checked (each finding at a glance: quote,
place, what fails and the witness; the defence, prosecution and review record one click away; the
claims tested and cited: `_html_findings`); ``claims-<document>.html`` (continued on ``-2.html`` ...
past `CLAIMS_PAGE_BYTES`) and ``claims.html`` hold each claim's details; ``standard.html`` is the
labelling standard. A folder that holds other files and no page of an earlier `report html` is
refused unless `overwrite` (``--force``), which writes beside them and removes none. No network
assets and no scripts: one stylesheet beside the pages (``nacverify.css``), formulas as MathML (`formulas`), figures as PNG files next to
``index.html``; every link is relative, so the folder can be copied anywhere. The "unexpected only"
view is a CSS ``:target`` filter (``#unexpected-only``): it hides every item, row and claim whose
verdicts are all as expected. The layout fits a 1280 px screen and a 390 px phone: ids wrap, a wide
formula or table scrolls inside its own box.

What is rendered, when the report holds it (reports/SCHEMA.md, "Rendering"):

- the banner, the findings (overview and document pages; claims in no ledger item are listed on
  the index), per-claim details (statement, message, scalars, witness, arrays, the place in the
  source that decides it) collapsed in ``<details>``, with text the page already shows left out
  (the quote a claim's source repeats, a scalar equal to its witness entry or reading);
- frozen vs varying trajectories with |eps|, the bounds and the tightness over t per
  regime (``/frozen_error/<regime>`` sections, or claim arrays with ``t``,
  ``a_varying``, ``a_frozen``, ``abs_error``);
- tightness of each bound: claim scalars ``max_tightness`` / ``max_ratio`` as bars, red beyond 1
  (violated) and green within, whatever the claim expected, and the distribution over sweep draws
  (``.../sweep/members/tightness_<bound>``);
- the Euler overshoot region: claims with a ``dt_omega`` array, and other ``euler``
  claims' arrays;
- LTC bounds along trajectories: arrays of claims whose id starts with ``ltc.``;
- benchmark tables (``/bench`` attributes) and log-log scaling plots with fitted
  exponents (a ``/bench`` group with an axis dataset such as ``T``, or any group with a
  ``scaling_axis`` attribute naming its axis dataset);
- the arrays of at most `MAX_CLAIM_FIGURES` other claims as figures (claims not as expected
  first; the rest are summarised in their details) and every other section as a listing.

The pages of a ``check --quick`` report render in a few seconds (drawing is what costs: about 0.2 s
a figure). Where each claim is decided comes from a map cached beside the claim catalog
(`nacverify.provenance.registered_definitions`), so the catalog is loaded only once per version;
``nacverify bench --report-html F`` records the time.

The pages are built from `_html_parts` (escaping, tables, the page, the document and its write),
`_html_documents` (header, banner, the ledger's view of the report, claim details),
`_html_findings` (the overview and the document pages) and `_html_evidence` (the figures and the
sections they illustrate); this module lays them out.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..errors import BadInput, EnvironmentProblem
from ._html_documents import _doc_page, _documents, cut_claim_pages, _filter, _header, _meta, _unexpected_section, _unledgered_section
from ._html_evidence import (AXIS_NAMES, MAX_CLAIM_FIGURES, SCALING_AXES, _bench_section, _choose_figures, _euler_section,
                             _frozen_section, _ltc_section, _other_claims_section, _other_sections, _tightness_section)
from ._html_findings import STANDARD_PAGE, document_page, document_pages, overview_section, standard_page
from ._html_parts import CSS, STYLESHEET, _document, _e, _ok, _Page, _write_page
from ._io import ClaimRecord, ReportData

__all__ = ["render_html", "AXIS_NAMES", "SCALING_AXES"]

FIG_PATTERN = re.compile(r"^(fig-\d{3}-[A-Za-z0-9_.-]*\.png|doc-[A-Za-z0-9_.-]+\.html|claims(-[A-Za-z0-9_.-]+)?\.html|standard\.html|nacverify\.css)$")  # what a page writes beside index.html


# ------------------------------------------------------------------ page


MANIFEST = ".nacverify-html.json"  # in the page's folder: the files the last page wrote there, with their SHA-256


def _prepare_folder(out_dir: Path, overwrite: bool) -> None:
    """Refuse, before any drawing, a folder that cannot take the page: not a folder, an
    index.html or any other file without `overwrite` (`_refuse_a_folder_of_others`), or not
    writable."""
    if out_dir.exists() and not out_dir.is_dir():
        raise BadInput(f"--out {out_dir} exists and is not a folder")
    index = out_dir / "index.html"
    if index.exists() and not overwrite:
        raise BadInput(f"{index} exists; choose another --out or pass --force")
    if not overwrite and out_dir.is_dir():
        _refuse_a_folder_of_others(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        raise BadInput(f"--out {out_dir}: folder is not writable ({exc.strerror or exc})") from None


def _refuse_a_folder_of_others(out_dir: Path) -> None:
    """Without --force, a folder that holds anything but the drawing folders of an interrupted page
    is refused (`BadInput`): its files are someone's (``--out ~``), or an earlier page's whose
    index.html is gone. With --force the page is written beside them and removes none of them
    (`_install`)."""
    try:
        held = sorted(p.name for p in out_dir.iterdir() if not p.name.startswith(".nacverify-html-"))
    except OSError as exc:
        raise BadInput(f"--out {out_dir}: folder cannot be read ({exc.strerror or exc})") from None
    if not held:
        return
    shown = ", ".join(held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
    whose = "the files of an earlier `report html` without its index.html" if MANIFEST in held else "files of its own and no pages of an earlier `report html`"
    raise BadInput(f"--out {out_dir} holds {whose} ({shown}); choose a new or empty folder, or pass --force to write the pages beside "
                   "them (no file there is removed)")


def _digest(path: Path) -> str | None:
    """SHA-256 of a file's bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def _written_before(folder: Path) -> dict[str, str]:
    """The files the last page wrote in `folder` (name -> SHA-256), from its `MANIFEST`; {} when
    there is none or it cannot be read (then no file there counts as the page's own)."""
    try:
        record = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = record["files"]
        if isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) and (k == "index.html" or FIG_PATTERN.match(k))
                                           for k, v in files.items()):
            return dict(files)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return {}


def _ours(folder: Path, name: str, before: dict[str, str]) -> bool:
    """Whether `folder/name` is a file an earlier page wrote and nobody changed since."""
    return name in before and _digest(folder / name) == before[name]


def _install(staging: Path, folder: Path, overwrite: bool) -> None:
    """Move the page drawn in `staging` into `folder`. A file of the new page may replace an
    existing one only with `overwrite`, and then only index.html (what --force is documented
    to replace) or a file the last page wrote there, unchanged since (its `MANIFEST`); anything
    else is the user's, and the page is refused (`BadInput`) before any file is moved. With
    `overwrite`, the last page's files that the new one does not write are removed, again only
    those unchanged since; every other file in the folder is left as it is."""
    before = _written_before(folder)
    names = sorted(p.name for p in staging.iterdir())
    for name in names:
        target = folder / name
        if not (target.exists() or target.is_symlink()):
            continue
        if not overwrite:
            raise BadInput(f"{target} exists; choose another --out or pass --force")
        if target.is_dir() or (name != "index.html" and not _ours(folder, name, before)):
            raise BadInput(f"{target} exists and is not a file the last `report html` wrote there (no record in {MANIFEST}, or changed since); "
                           "remove it or choose another --out")
    stale = [name for name in before if name not in names and name != "index.html" and _ours(folder, name, before)] if overwrite else []
    written = {name: _digest(staging / name) or "" for name in names}
    for name in names:
        os.replace(staging / name, folder / name)
    for name in stale:
        (folder / name).unlink(missing_ok=True)
    _write_page(folder / MANIFEST, json.dumps({"tool": "nacverify report html", "files": written}, indent=1, sort_keys=True) + "\n")


_TOC = [("findings", "findings"), ("run", "the run"), ("frozen", "frozen vs varying"), ("tightness", "tightness"), ("euler", "Euler overshoot"), ("ltc", "LTC bounds"), ("convergence", "convergence"), ("bench", "benchmarks"),
        ("evidence", "other evidence"), ("unexpected", "not as expected"), ("claims", "claims"),
        ("sections", "all sections")]


def render_html(data: ReportData, out_dir: str | os.PathLike, *, overwrite: bool = False, max_claim_figures: int = MAX_CLAIM_FIGURES) -> Path:
    """Write ``out_dir/index.html``, its figures (``fig-NNN-*.png``), a page per document of the
    ledger that the report checks (``doc-<document>.html``) and the claims' details
    (``claims-<document>.html`` for claims of that document's items, ``claims.html`` for the
    others) for `data`; return the index's path. Refuses an existing index unless `overwrite`
    (`BadInput`); with it, replaces only index.html and the files an earlier page wrote there
    (`_install`), and removes no other file. `max_claim_figures` claims get a figure of their own
    (module docstring)."""
    folder = Path(out_dir)
    _prepare_folder(folder, overwrite)
    try:  # drawn apart, then moved in: a refusal or an interrupt leaves the folder as it was
        staging = Path(tempfile.mkdtemp(prefix=".nacverify-html-", dir=folder))
    except OSError as exc:
        raise EnvironmentProblem(f"cannot write the page in {folder}: {exc.strerror or exc}") from exc
    try:
        _render(data, staging, max_claim_figures)
        _install(staging, folder, overwrite)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder / "index.html"


def _render(data: ReportData, folder: Path, max_claim_figures: int) -> Path:
    """Write every file of the page into `folder` (empty); return the index's path."""
    docs = _documents(data)
    _write_page(folder / STYLESHEET, CSS)
    claim_pages = cut_claim_pages(list(data.claims.values()), docs)  # before any link to a claim is written
    page = _Page(folder)
    _header(page, data, docs)
    toc_at = len(page.parts)
    overview_section(page, data, docs)
    page.add('<h2 id="run">The run</h2>')
    _meta(page, data)
    _choose_figures(page, data, max_claim_figures)
    from ._html_convergence import convergence_section

    for build in (_frozen_section, _tightness_section, _euler_section, _ltc_section, convergence_section, _bench_section, _other_claims_section):
        build(page, data)
    _unexpected_section(page, data, docs)
    _unledgered_section(page, data, docs)
    _other_sections(page, data)
    text = "\n".join(page.parts)
    toc = [(f"#{anchor}", title) for anchor, title in _TOC if f'id="{anchor}"' in text] + [(_doc_page(d), f"document {d}") for d in docs.rows]
    page.parts.insert(toc_at, "<p>" + " &middot; ".join(f'<a href="{_e(a)}">{_e(t)}</a>' for a, t in toc) + "</p>")
    for doc in docs.rows:
        for name, listed in document_pages(doc):
            doc_page = _Page(folder)
            document_page(doc_page, data, docs, doc, _filter, listed)
            _write_page(folder / name, _document(f"{doc}: {docs.rows[doc][0]} ({', '.join(listed)})", doc_page.parts, data))
    standard = standard_page(folder) if docs.rows else None
    if standard is not None:
        _write_page(folder / STANDARD_PAGE, _document(standard[0], [standard[1]], data))
    for name, rows in claim_pages.items():
        details = _Page(folder)
        base = name if not re.search(r"-\d+\.html$", name) else re.sub(r"-\d+\.html$", ".html", name)
        doc = base[len("claims-"):-len(".html")] if base.startswith("claims-") else ""
        back = f' &middot; <a href="{_e(_doc_page(doc))}">document {_e(doc)}: its findings</a>' if doc in docs.rows else ""
        siblings = [n for n in claim_pages if n == base or re.fullmatch(re.escape(base[:-5]) + r"-\d+\.html", n)]
        parts = (" &middot; pages: " + " ".join(f"<b>{i}</b>" if n == name else f'<a href="{_e(n)}">{i}</a>' for i, n in enumerate(siblings, 1))
                 if len(siblings) > 1 else "")
        details.add(f'<nav class="small"><a href="index.html">overview: every document</a>{back}{parts}</nav>'
                    f'<h1 id="top">{_e(name[:-5])}: claims of {_e(data.path.name)}</h1>')
        _filter(details, data, count=sum(not _ok(c) for c, _ in rows))
        details.add('<h2 id="details">Claim details</h2>')
        for _, html in rows:
            details.add(html)
        _write_page(folder / name, _document(f"{name[:-5]}: claims of {data.path.name}", details.parts, data))
    return _write_page(folder / "index.html", _document(f"nacverify report: {data.path.name}", page.parts, data))
