"""What a command may write over, where it may write, and which paths the environment may name
(issue 38, found by a bad-input campaign):

- `--plot` wrote over an existing file without `--force`, and a plot that could not be written
  (`/proc/x.png`) failed only after the run; so did `report export -o /proc/x.json`;
- `report html --out DIR --force` deleted files of DIR that it had not written;
- a wrong `NACVERIFY_SEEDS` was silently replaced by ../shared/seeds (and the other variables
  that name paths by their defaults, or by no cache at all);
- `list --only 'zzz*'` exited 0 with an empty table, where `check` exits 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import h5py
import pytest
from typer.testing import CliRunner

from nacverify.claims import Verdict, evaluate
from nacverify.cli.app import app
from nacverify.report import Report, write_report

sys.path.insert(0, str(Path(__file__).parent))
from report_samples import _claim  # noqa: E402

runner = CliRunner()


def _one_line(res) -> str:
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("nacverify: error: "), res.stderr
    return lines[0]


# ------------------------------------------------------------------ --plot


def test_plot_over_an_existing_file_needs_force_and_is_refused_before_any_work(tmp_path):
    plot, out = tmp_path / "p.png", tmp_path / "r.h5"
    plot.write_text("x")
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--out", str(out), "--plot", str(plot)])
    assert res.exit_code == 2, res.output
    assert _one_line(res) == f"nacverify: error: plot {plot} exists; choose another --plot or pass --force"
    assert plot.read_text() == "x" and not out.exists()  # refused before the run: no report either
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--out", str(out), "--plot", str(plot), "--force"])
    assert res.exit_code == 0, res.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


@pytest.mark.parametrize("where", ["/proc/x.png", "/proc/nope/x.png"])
def test_a_plot_that_cannot_be_written_is_refused_before_any_work(tmp_path, where):
    out = tmp_path / "r.h5"
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--out", str(out), "--plot", where])
    assert res.exit_code == 2, res.output
    assert _one_line(res).startswith(f"nacverify: error: --plot {where}: folder ") and "is not writable" in res.stderr
    assert not out.exists()


def test_plot_and_report_must_differ(tmp_path):
    out = tmp_path / "r.png"
    res = runner.invoke(app, ["frozen-error", "--regime", "slow", "--out", str(out), "--plot", str(out)])
    assert res.exit_code == 2 and "is also the report" in _one_line(res)


# ------------------------------------------------------------------ report export


def _report(tmp_path: Path) -> Path:
    """A report with one claim: its page is index.html and claims.html."""
    return write_report(Report(command="nacverify test", results=[evaluate(_claim("x.one", Verdict.HOLDS, Verdict.HOLDS))]), tmp_path / "r.h5")


@pytest.mark.parametrize("where", ["/proc/x.json", "/proc/nope/x.json"])
def test_export_to_a_path_that_cannot_be_written_is_refused_before_reading(tmp_path, where):
    """It failed only after the work, with an environment problem (exit 3): the path is the user's input."""
    res = runner.invoke(app, ["report", "export", str(_report(tmp_path)), "--to", "json", "-o", where])
    assert res.exit_code == 2, res.output
    assert _one_line(res).startswith(f"nacverify: error: --out {where}: folder ")


def test_export_never_writes_over_the_report_it_reads(tmp_path):
    path = _report(tmp_path)
    before = path.read_bytes()
    res = runner.invoke(app, ["report", "export", str(path), "--to", "csv", "-o", str(path), "--force"])
    assert res.exit_code == 2 and "is the report being exported" in _one_line(res)
    assert path.read_bytes() == before


# ------------------------------------------------------------------ report html --force


def test_html_force_replaces_only_the_files_the_page_wrote(tmp_path):
    """The campaign's case: `report html --out DIR --force` removed the user's DIR/doc-999.html and
    DIR/fig-999-mine.png. Now --force replaces index.html and the files the last page wrote (as
    recorded in DIR/.nacverify-html.json, unchanged since), and nothing else."""
    path, page = _report(tmp_path), tmp_path / "page"
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(page)]).exit_code == 0
    first = {p.name for p in page.iterdir()}
    mine = {"doc-999.html": "my notes", "fig-999-mine.png": "my figure", "claims-mine.html": "mine too", "notes.txt": "kept"}
    for name, text in mine.items():
        (page / name).write_text(text)
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(page), "--force"])
    assert res.exit_code == 0, res.output
    for name, text in mine.items():
        assert (page / name).read_text() == text, name
    assert {p.name for p in page.iterdir()} == first | set(mine)
    assert not [p for p in page.iterdir() if p.name.startswith(".nacverify-html-")]  # the drawing folder is gone


def test_html_refuses_to_write_over_a_file_it_did_not_write(tmp_path):
    """A file with a name the page writes, which no earlier page wrote there (or which was changed
    since), is the user's: refused, with or without --force, before any file is moved."""
    path, page = _report(tmp_path), tmp_path / "page"
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(page)]).exit_code == 0
    written = sorted(p.name for p in page.iterdir() if p.name != "index.html" and not p.name.startswith("."))
    assert written, "the page writes files besides index.html"
    victim = page / written[0]
    victim.write_text("edited by hand")
    index = (page / "index.html").read_text()
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(page), "--force"])
    assert res.exit_code == 2 and f"{victim} exists and is not a file the last `report html` wrote there" in _one_line(res)
    assert victim.read_text() == "edited by hand" and (page / "index.html").read_text() == index
    other = tmp_path / "other"  # no index.html, no record: a file of the page's name is the user's
    other.mkdir()
    (other / written[0]).write_text("theirs")
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(other)])
    assert res.exit_code == 2 and f"--out {other} holds files of its own and no pages of an earlier `report html`" in _one_line(res)
    assert (other / written[0]).read_text() == "theirs" and not (other / "index.html").exists()
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(other), "--force"])  # --force writes beside, never over, the user's
    assert res.exit_code == 2 and f"{other / written[0]} exists and is not a file the last `report html` wrote there" in _one_line(res)
    assert (other / written[0]).read_text() == "theirs" and not (other / "index.html").exists()


def test_html_refuses_a_folder_of_other_files_without_force(tmp_path):
    """Issue 46: `report html r.h5 --out ~` wrote its pages and figures among the user's files
    without a word. A folder that holds other files and no page of an earlier `report html` is
    refused without --force (exit 2, one line naming the folder and some of its files, nothing
    written); with --force the pages go beside the user's files, which stay as they were, also
    when --force runs again (the second page replaces only the first one's files)."""
    path, home = _report(tmp_path), tmp_path / "home"
    home.mkdir()
    mine = {"notes.txt": b"my notes", "photo.png": b"\x89PNG my photo", ".bashrc": b"export X=1", "index.htm": b"my own page"}
    for name, content in mine.items():
        (home / name).write_bytes(content)
    (home / "projects").mkdir()
    (home / "projects" / "a.py").write_text("print(1)")
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(home)])
    line = _one_line(res)
    assert res.exit_code == 2 and f"--out {home} holds files of its own and no pages of an earlier `report html`" in line
    assert "pass --force" in line and ".bashrc" in line  # names what it found (sorted: dot-files first)
    assert sorted(p.name for p in home.iterdir()) == sorted([*mine, "projects"])  # nothing written, not even a drawing folder
    for _ in range(2):
        res = runner.invoke(app, ["report", "html", str(path), "--out", str(home), "--force"])
        assert res.exit_code == 0, res.output
        for name, content in mine.items():
            assert (home / name).read_bytes() == content, name
        assert (home / "projects" / "a.py").read_text() == "print(1)"
        assert (home / "index.html").exists()
    import json

    written = set(json.loads((home / ".nacverify-html.json").read_text())["files"])
    assert "index.html" in written and not written & set(mine)
    assert {p.name for p in home.iterdir()} == set(mine) | {"projects", ".nacverify-html.json"} | written
    res = runner.invoke(app, ["report", "html", str(path), "--out", str(home)])  # an earlier page is there: its index is named
    assert res.exit_code == 2 and f"{home / 'index.html'} exists; choose another --out or pass --force" in _one_line(res)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(empty)]).exit_code == 0  # an empty folder needs no --force


def test_html_force_removes_the_last_pages_files_that_the_new_one_does_not_write(tmp_path):
    path, page = _report(tmp_path), tmp_path / "page"
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(page)]).exit_code == 0
    import json

    record = json.loads((page / ".nacverify-html.json").read_text())
    stale = page / "fig-099-old.png"  # as if the last page had drawn one more figure
    stale.write_bytes(b"old figure")
    import hashlib

    record["files"][stale.name] = hashlib.sha256(b"old figure").hexdigest()
    (page / ".nacverify-html.json").write_text(json.dumps(record))
    assert runner.invoke(app, ["report", "html", str(path), "--out", str(page), "--force"]).exit_code == 0
    assert not stale.exists()


# ------------------------------------------------------------------ environment variables that name paths


@pytest.mark.parametrize("variable, value, words", [
    ("NACVERIFY_SEEDS", "{tmp}/nowhere", "NACVERIFY_SEEDS={tmp}/nowhere: no such folder"),
    ("NACVERIFY_SEEDS", "{tmp}", "NACVERIFY_SEEDS={tmp}: the folder lacks 5 of the 5 source documents"),
    ("NACVERIFY_REFERENCE", "{tmp}/nowhere", "NACVERIFY_REFERENCE={tmp}/nowhere: no public_tf_nac_golden.npz there"),
    ("NACVERIFY_PROGRAM_CACHE", "/proc/nacverify-cache", "NACVERIFY_PROGRAM_CACHE=/proc/nacverify-cache: not a writable folder"),
    ("NACVERIFY_CATALOG_CACHE", "{tmp}/a-file", "NACVERIFY_CATALOG_CACHE={tmp}/a-file: not a folder"),
    ("NACVERIFY_JAX_CACHE", "/proc/jax", "NACVERIFY_JAX_CACHE=/proc/jax: not a writable folder"),
    ("JAX_COMPILATION_CACHE_DIR", "/proc/jax", "JAX_COMPILATION_CACHE_DIR=/proc/jax: not a writable folder"),
    ("XDG_CACHE_HOME", "relative/cache", "XDG_CACHE_HOME=relative/cache: not an absolute path"),
])
def test_a_wrong_path_in_the_environment_is_an_error_not_a_fallback(tmp_path, monkeypatch, variable, value, words):
    """Issue 38: `NACVERIFY_SEEDS=/wrong nacverify coverage` fell back to ../shared/seeds and said the
    quotes were checked. Every variable that names a path is checked when a command starts: exit 2,
    one line naming it, before any work (no report)."""
    (tmp_path / "a-file").write_text("x")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(variable, value.format(tmp=tmp_path))
    for argv in (["coverage", "--out", str(tmp_path / "c.h5")], ["list", "--only", "nac.thm1.*"]):
        res = runner.invoke(app, argv)
        assert res.exit_code == 2, (argv, res.output)
        assert _one_line(res).startswith(f"nacverify: error: {words.format(tmp=tmp_path)}"), res.stderr
    assert not (tmp_path / "c.h5").exists() and not (tmp_path / "reports").exists()


def test_the_library_does_not_replace_a_wrong_seeds_folder(monkeypatch, tmp_path):
    from nacverify.errors import BadInput
    from nacverify.ledger import find_seeds_dir

    monkeypatch.setenv("NACVERIFY_SEEDS", str(tmp_path / "nowhere"))
    with pytest.raises(BadInput, match="NACVERIFY_SEEDS=.*no source documents there"):
        find_seeds_dir()


def test_right_paths_in_the_environment_are_used(tmp_path, monkeypatch):
    """The checks refuse only what cannot serve: a seeds folder with the documents, a cache folder
    that does not exist yet (created), and 'off'."""
    from nacverify.ledger import find_seeds_dir

    monkeypatch.delenv("NACVERIFY_SEEDS", raising=False)
    seeds = find_seeds_dir()
    if seeds is None:
        pytest.skip("../shared/seeds not found")
    monkeypatch.setenv("NACVERIFY_SEEDS", str(seeds))
    monkeypatch.setenv("NACVERIFY_CATALOG_CACHE", str(tmp_path / "new" / "catalog"))
    monkeypatch.setenv("NACVERIFY_PROGRAM_CACHE", "off")
    res = runner.invoke(app, ["coverage", "--out", str(tmp_path / "c.h5"), "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    assert '"quotes_checked": true' in res.stdout and (tmp_path / "new" / "catalog").is_dir()
    assert find_seeds_dir() == seeds


# ------------------------------------------------------------------ a selection of nothing


@pytest.mark.parametrize("argv", [["list", "--only", "zzz*"], ["list", "--only", "zzz*", "--format", "json"], ["check", "--only", "zzz*", "--list"]])
def test_a_glob_that_selects_nothing_is_a_usage_error(argv):
    res = runner.invoke(app, argv)
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert "no claim matches 'zzz*'" in _one_line(res)


def test_a_wrong_julia_variable_is_not_replaced_by_another_julia(tmp_path, monkeypatch):
    """PYTHON_JULIAPKG_EXE (or JULIA, PYTHON_JULIACALL_EXE) set to something that is not a usable
    Julia: the Julia on PATH is not used instead; the backend is missing, and says why."""
    from nacverify.solvers.julia_detect import find_julia

    bindir = tmp_path / "bin"
    bindir.mkdir()
    julia = bindir / "julia"
    julia.write_text("#!/bin/sh\necho 'julia version 1.11.2'\n")
    julia.chmod(0o755)
    for var in ("PYTHON_JULIACALL_EXE", "PYTHON_JULIACALL_BINDIR", "PYTHON_JULIACALL_PROJECT", "PYTHON_JULIAPKG_EXE", "JULIA", "JULIAUP_DEPOT_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(bindir))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_JULIAPKG_PROJECT", str(tmp_path / "env"))
    assert find_julia().executable == str(julia)  # found on PATH when nothing is set
    monkeypatch.setenv("PYTHON_JULIAPKG_EXE", str(tmp_path / "nowhere" / "julia"))
    search = find_julia()
    assert not search.found
    assert "$PYTHON_JULIAPKG_EXE = " in search.reason() and "not used: a variable above names no usable Julia" in search.reason()


def test_damaged_reports_are_refused_in_one_line(tmp_path, monkeypatch):
    """Issue 38: a verdict edited to 'holdsXX' was shown and counted. Each verdict, expected verdict,
    kind and counted finding is checked against its allowed values on reading."""
    import nacverify.findings
    from nacverify.errors import ReportError
    from nacverify.report import read_report

    findings = ", ".join(nacverify.findings.FINDINGS)  # as they are when the test runs (another finding may be added there)

    def fresh(name):
        return write_report(Report(command="t", results=[evaluate(_claim("x.one", Verdict.HOLDS, Verdict.HOLDS))],
                                   sections={"coverage/000": {"items": 3, "findings_error": 1, "findings_depends_on_reading": 2},
                                             "check/kinds/lemma": {"holds": 1},
                                             "frozen_error/table2_readings": {"slow.as-printed": "holds"}}), tmp_path / name)

    assert read_report(fresh("ok.h5")).claims["x.one"].verdict == "holds"
    cases = [("claims/x.one", "verdict", "holdsXX", "claim 'x.one' has verdict 'holdsXX', not one of holds, refuted"),
             ("claims/x.one", "expected", "", "claim 'x.one' has expected verdict '', not one of"),
             ("claims/x.one", "kind", "gossip", "claim 'x.one' has kind 'gossip', not one of as-printed, reading"),
             ("claims/x.one", "id", "x.two", "claim group 'x.one' holds the id 'x.two'"),
             ("coverage/000", "findings_scandal", 1, f"section coverage/000 counts finding 'scandal', not one of {findings}"),
             ("check/kinds/lemma", "holdz", 1, "section check/kinds/lemma counts verdict 'holdz'"),
             ("frozen_error/table2_readings", "slow.as-printed", "hold", "section frozen_error/table2_readings has verdict 'hold'")]
    for i, (group, attr, value, words) in enumerate(cases):
        path = fresh(f"d{i}.h5")
        with h5py.File(path, "a") as f:
            f[group].attrs[attr] = value
        with pytest.raises(ReportError) as info:
            read_report(path)
        assert str(info.value) == f"{path} is damaged: {words}" or str(info.value).startswith(f"{path} is damaged: {words}"), str(info.value)
        res = runner.invoke(app, ["report", "show", str(path)])
        assert res.exit_code == 2 and "is damaged" in _one_line(res) and res.stdout == ""
    # the findings allowed are nacverify.findings.FINDINGS, read when checking: one added there is accepted
    path = fresh("future.h5")
    with h5py.File(path, "a") as f:
        f["coverage/000"].attrs["findings_next_one"] = 1
    with pytest.raises(ReportError, match="finding 'next-one'"):
        read_report(path)
    monkeypatch.setattr(nacverify.findings, "FINDINGS", (*nacverify.findings.FINDINGS, "next-one"))
    assert read_report(path).sections["coverage"]["000"]["findings_next_one"] == 1


def test_csv_cells_never_start_a_formula(tmp_path):
    """Issue 38: the CSV export wrote cells beginning with '-', which a spreadsheet reads as a
    formula. As OWASP recommends, a cell starting with =, +, -, @, tab or CR gets a leading single
    quote, except a plain number; one starting with a quote gets another, so that dropping one
    leading quote restores every cell."""
    import csv
    import io

    messages = {"m.eq": "=HYPERLINK(\"http://x\")", "m.plus": "+1+cmd|' /C calc'!A0", "m.minus": "-2+3", "m.at": "@SUM(A1)",
                "m.tab": "\tx", "m.cr": "\rx", "m.quote": "'quoted", "m.number": "-0.5", "m.exp": "+1e-9", "m.plain": "fine"}
    path = write_report(Report(command="t", results=[evaluate(_claim(cid, Verdict.HOLDS, Verdict.HOLDS, message=text)) for cid, text in messages.items()]),
                        tmp_path / "r.h5")
    res = runner.invoke(app, ["report", "export", str(path), "--to", "csv"])
    assert res.exit_code == 0, res.output
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(res.stdout))}
    expected = {"m.eq": "'=HYPERLINK(\"http://x\")", "m.plus": "'+1+cmd|' /C calc'!A0", "m.minus": "'-2+3", "m.at": "'@SUM(A1)", "m.tab": "'\tx",
                "m.cr": "'\rx", "m.quote": "''quoted", "m.number": "-0.5", "m.exp": "+1e-9", "m.plain": "fine"}
    assert {cid: rows[cid]["message"] for cid in messages} == expected
    for row in rows.values():
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or cell in ("-0.5", "+1e-9"), cell
    restored = {cid: rows[cid]["message"][1:] if rows[cid]["message"].startswith("'") else rows[cid]["message"] for cid in messages}
    assert restored == messages
