"""What the commands print (issue 23, item 1): a summary first, details on demand, the width of the
terminal or COLUMNS, and colour that marks "as expected" versus "not as expected".

The claims of the in-process runs are made here (monkeypatched into `check`'s selection), so the
verdict each gives, the expected one, its message and its witness are known without the code under
test; the counts asserted are counted from those definitions.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from rich.console import Console
from typer.testing import CliRunner

from nacverify.claims import Claim, Evidence, Kind, Outcome, Verdict
from nacverify.cli.app import app

runner = CliRunner()

LONG_ID = "demo.a_rather_long_claim_identifier.with.parts.that_reads_like_a_source"
HELD = "HELD-MESSAGE " + "the statement holds with a margin of 0.25 on every draw; " * 4
WRONG = "WRONG-MESSAGE the solver error 1e-3 exceeds the margin 1e-4, so nothing is decided"
EXPECTED_REFUTED = "EXPECTED-REFUTATION mean > max in the printed row"
WITNESS = {"omega": 2.5, "row": "oscillatory"}


def _claims() -> list[Claim]:
    """Three claims: one holds as expected, one is refuted as expected (an accepted finding), and one
    is inconclusive where `holds` is expected (the gate fails on it), with a witness."""
    return [
        Claim("demo.holds", "000_x.txt, eq. 1", "a <= b", "none", Verdict.HOLDS, "proved", group="demo", kind=Kind.LEMMA,
              check=lambda ctx: Outcome(Verdict.HOLDS, HELD, Evidence({}, {"margin": 0.25}, {}))),
        Claim("demo.refuted", "000_x.txt, Table 2", "row", "none", Verdict.REFUTED, "printed wrong", group="demo", kind=Kind.AS_PRINTED,
              check=lambda ctx: Outcome(Verdict.REFUTED, EXPECTED_REFUTED, Evidence({}, {}, {"row": "slow"}))),
        Claim(LONG_ID, "000_x.txt, Theorem 3", "bound", "none", Verdict.HOLDS, "should hold", group="demo", kind=Kind.READING,
              check=lambda ctx: Outcome(Verdict.INCONCLUSIVE, WRONG, Evidence({}, {}, dict(WITNESS)))),
    ]


@pytest.fixture
def demo_check(monkeypatch):
    """`nacverify check` over `_claims()` only, serially in this process."""
    import nacverify.catalog  # noqa: F401  (check imports it: registers the real claims first)
    import nacverify.claims as registry

    monkeypatch.setattr(registry, "select", lambda only=None: _claims())

    def run(tmp_path, *args, columns="80"):
        env = {"COLUMNS": columns} if columns else {}
        return runner.invoke(app, ["check", "-j", "1", "--out", str(tmp_path / f"r{len(list(tmp_path.iterdir()))}.h5"), *args], env=env)

    return run


def _lines(text: str) -> list[str]:
    """The printed lines, less those naming a file (`report: PATH`, `junit-xml: PATH`): a path is one
    token, printed whole at any width so that it can be copied, and a test's tmp paths pass 80 columns."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    return [line for line in lines if not line.startswith(("report: ", "junit-xml: "))]


def test_check_default_is_a_summary_with_the_differing_verdict(demo_check, tmp_path):
    res = demo_check(tmp_path)
    assert res.exit_code == 1, res.output  # one verdict differs: the gate
    out = res.stdout
    # the counts: 3 claims, one of each verdict; 2 as expected, 1 differs
    assert "3 claims: 1 holds, 1 refuted, 1 inconclusive; 2 as expected, 1 differs" in " ".join(out.split())
    # the differing claim: its whole id, verdict, mark, reason and witness
    flat = " ".join(out.split())
    assert LONG_ID in out and "inconclusive" in out and "≠" in out
    assert "WRONG-MESSAGE the solver error 1e-3 exceeds the margin 1e-4" in flat
    assert "omega=2.5" in flat and "row=oscillatory" in flat
    # the claims as expected are counted, not listed with their messages (that is -v)
    assert "HELD-MESSAGE" not in out and "EXPECTED-REFUTATION" not in out
    assert re.search(r"^report: .*\.h5$", out, re.M)
    assert len(_lines(out)) <= 20
    # the gate line on stderr names the claim and the start of its message
    assert "gate: 1 verdict(s) differ from expected" in res.stderr and LONG_ID in res.stderr and "WRONG-MESSAGE" in res.stderr


def test_check_verbose_gives_every_claim_and_quiet_only_the_counts(demo_check, tmp_path):
    verbose = demo_check(tmp_path, "-v")
    assert verbose.exit_code == 1
    flat = " ".join(verbose.stdout.split())
    for text in ("HELD-MESSAGE", "EXPECTED-REFUTATION", "WRONG-MESSAGE", "demo.holds", "demo.refuted", LONG_ID):
        assert text in flat, text
    quiet = demo_check(tmp_path, "-q")
    assert quiet.exit_code == 1
    assert _lines(quiet.stdout) == ["3 claims: 1 holds, 1 refuted, 1 inconclusive; 2 as expected, 1 differs"]
    assert "gate: 1 verdict(s) differ from expected" in quiet.stderr
    both = demo_check(tmp_path, "-q", "-v")
    assert both.exit_code == 2 and len(_lines(both.stderr)) == 1


@pytest.mark.parametrize("flag", ["", "-v"])
def test_nothing_essential_is_cut_at_80_columns(demo_check, tmp_path, flag):
    res = demo_check(tmp_path, *([flag] if flag else []))
    for line in _lines(res.stdout) + _lines(res.stderr):
        assert len(line) <= 80, line
    # the id (too long for a table row beside the verdict, kind and expected verdict) stays whole on one line
    assert 60 < len(LONG_ID) <= 78
    assert any(LONG_ID in line for line in _lines(res.stdout))
    assert "inconclusive ≠" in res.stdout or "≠ inconclusive" in res.stdout
    assert "…" not in res.stdout  # rich's ellipsis: nothing truncated


def test_width_follows_columns_not_a_forced_140(demo_check, tmp_path):
    wide = demo_check(tmp_path, "-v", columns="200")
    narrow = demo_check(tmp_path, "-v", columns="60")
    assert max(len(line) for line in _lines(wide.stdout)) > 80  # the table with its message column
    assert max(len(line) for line in _lines(narrow.stdout)) <= 60


def test_stdout_width_rules(monkeypatch):
    from nacverify.cli import _output

    monkeypatch.setenv("COLUMNS", "80")
    assert _output.stdout_width() is None  # rich then reads COLUMNS
    assert Console(width=_output.stdout_width()).width == 80
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(_output.sys.stdout, "isatty", lambda: False, raising=False)
    assert _output.stdout_width() == _output.WIDE  # a file or pipe without COLUMNS


def _ansi(markup: str) -> str:
    console = Console(force_terminal=True, color_system="standard", width=80)
    with console.capture() as cap:
        console.print(markup)
    return cap.get()


GREEN, RED = "32", "31"  # SGR foreground codes of the standard palette


def _colours(text: str) -> set[str]:
    return {code for seq in re.findall(r"\x1b\[([0-9;]*)m", text) for code in seq.split(";")}


def test_colour_says_as_expected_not_which_verdict():
    from nacverify.cli._results import verdict_text

    expected_refuted = _colours(_ansi(verdict_text(Verdict.REFUTED, True)))
    unexpected_holds = _colours(_ansi(verdict_text(Verdict.HOLDS, False)))
    assert GREEN in expected_refuted and RED not in expected_refuted
    assert RED in unexpected_holds and GREEN not in unexpected_holds
    assert "≠" in _ansi(verdict_text(Verdict.HOLDS, False))


def test_prove_default_is_a_summary_and_verbose_the_table(tmp_path):
    only = ["--only", "nac.thm1.single*"]
    default = runner.invoke(app, ["prove", *only, "--out", str(tmp_path / "a.h5")], env={"COLUMNS": "80"})
    verbose = runner.invoke(app, ["prove", *only, "-v", "--out", str(tmp_path / "b.h5")], env={"COLUMNS": "80"})
    assert default.exit_code == 0 and verbose.exit_code == 0
    from nacverify.symbolic import select_obligations

    ids = [ob.id for ob in select_obligations(["nac.thm1.single*"])]
    assert ids and f"{len(ids)} claims:" in default.stdout
    assert not any(i in default.stdout for i in ids)  # counted, not listed
    assert all(i in verbose.stdout for i in ids)
    assert len(_lines(default.stdout)) < len(_lines(verbose.stdout))


def test_frozen_error_default_lists_no_claim_rows_and_verbose_does(tmp_path):
    default = runner.invoke(app, ["frozen-error", "-r", "slow", "--out", str(tmp_path / "a.h5")], env={"COLUMNS": "80"})
    assert default.exit_code == 0, default.output
    from nacverify.frozen import SolveOptions, regime_specs
    from nacverify.frozen.claims import instance_claims

    ids = [c.id for spec in regime_specs("slow") for c in instance_claims(spec, SolveOptions())]
    assert ids and not any(f" {i} " in f" {line} " for line in _lines(default.stdout) for i in ids)
    verbose = runner.invoke(app, ["frozen-error", "-r", "slow", "-v", "--out", str(tmp_path / "b.h5")], env={"COLUMNS": "80"})
    assert all(i in verbose.stdout for i in ids)
    for line in _lines(default.stdout) + _lines(verbose.stdout):
        assert len(line) <= 80, line


def test_audit_summary_and_its_chunk_line(tmp_path):
    """100,000 pairs (a multiple of 8) in one chunk: "1 chunk of 100000 pairs", not the chunk size
    of a large export; the summary counts the audit's claims."""
    gen = runner.invoke(app, ["audit-gen", str(tmp_path / "g.h5"), "--pairs", "100000"])
    assert gen.exit_code == 0, gen.output
    res = runner.invoke(app, ["audit", str(tmp_path / "g.h5"), "--out", str(tmp_path / "a.h5")], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "1 chunk of 100000 pairs" in res.stdout
    assert "chunk(s)" not in res.stdout
    from nacverify.audit import CLAIM_IDS

    assert f"{len(CLAIM_IDS)} claims:" in res.stdout
    assert not any(cid in res.stdout for cid in CLAIM_IDS)  # every verdict as expected: counted, not listed


def test_audit_gen_states_small_sizes_in_fitting_units(tmp_path):
    res = runner.invoke(app, ["audit-gen", str(tmp_path / "g.h5"), "--pairs", "800"])
    assert res.exit_code == 0, res.output
    assert "0.00 GiB" not in res.stdout
    size = (tmp_path / "g.h5").stat().st_size
    assert (f"{size / 2**20:.2f} MiB" if size >= 2**20 else f"{size} bytes") in res.stdout


def test_audit_gen_refuses_before_any_progress_bar(tmp_path):
    (tmp_path / "g.h5").write_bytes(b"x")
    res = runner.invoke(app, ["audit-gen", str(tmp_path / "g.h5"), "--pairs", str(8 * 1_000_000)])
    assert res.exit_code == 2
    assert "audit-gen" not in res.stderr.replace("nacverify: error", "")  # no bar (its label is the command's name)
    assert len(_lines(res.stderr)) == 1


def _script(*args: str, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    exe = shutil.which("nacverify")
    if exe is None:
        pytest.skip("console script not installed")
    return subprocess.run([exe, *args], capture_output=True, text=True, env={**os.environ, **(env or {})}, cwd=cwd, timeout=900)


@pytest.mark.serial
def test_check_quick_prints_one_screen_at_80_columns(tmp_path):
    """The issue's measure: `check --quick` printed 5054 lines (5306 when this test was written, at 140
    columns with lines up to 420 wide); on a clean run it prints at most 60 lines, none wider than 80."""
    res = _script("check", "--quick", "--out", str(tmp_path / "r.h5"), env={"COLUMNS": "80"})
    assert res.returncode == 0, res.stderr[-2000:]
    lines = _lines(res.stdout)  # the report's path line is left out of the width check (a path is printed whole)
    assert len(lines) + 1 <= 60, len(lines)
    assert max(len(line) for line in lines) <= 80
    assert res.stdout.rstrip("\n").split("\n")[-1] == f"report: {tmp_path / 'r.h5'}"
