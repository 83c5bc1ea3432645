"""Every command at 80 columns (issue 37): no line wider than the terminal, nothing cut to rich's "…", and
every id, verdict and word the output must carry printed whole on one line. A table that does not fit
stacks each row's fields (cli/_output.py `fitted`, as `check` does with its verdict table); help is
click's, which wraps between words (a line may end after a hyphen of a compound). `check` itself is
covered by tests/test_cli_output.py; here each other command runs on small inputs, in this process.

What must appear is known without the code under test: the registry's claim ids and verdicts, the
ledger's documents and items, the report's own claim ids, each option's own help string."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

from nacverify.claims import Verdict
from nacverify.cli.app import app

sys.path.insert(0, str(Path(__file__).parent))
from report_samples import _claim, sample_report  # noqa: E402

runner = CliRunner()
WIDTH = 80
LONG_ID = "demo.a_rather_long_claim_identifier.with.parts.that_reads_like_a_source"


def _run(*args: str, code: int = 0) -> str:
    res = runner.invoke(app, list(args), env={"COLUMNS": str(WIDTH)})
    assert res.exit_code == code, (args, res.stdout[-2000:], res.stderr[-2000:])
    return res.stdout


def _fits(out: str, tokens, what: str) -> None:
    """Each line within WIDTH (a `report: PATH` line names a file, printed whole to be copied), no "…",
    and each token whole on one line."""
    lines = [line for line in out.splitlines() if not line.startswith(("report: ", "page: ", "export: "))]
    assert lines, what
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, (what, too_wide[:3])
    assert "…" not in out, (what, [line for line in lines if "…" in line][:3])
    missing = [t for t in tokens if not any(t in line for line in lines)]
    assert not missing, (what, missing[:10])


def test_list_prove_backends_coverage(tmp_path):
    import nacverify.catalog  # noqa: F401
    from nacverify.claims import registry
    from nacverify.ledger import SEED_FILES, NOT_CHECKABLE

    claims = registry()
    _fits(_run("list"), [*claims, *{c.expected.value for c in claims.values()}], "list")
    _fits(_run("list", "--only", "nac.thm1.*"), [cid for cid in claims if cid.startswith("nac.thm1.")], "list --only")
    _fits(_run("prove", "--list"), [cid for cid in claims if claims[cid].group == "symbolic"][:50], "prove --list")
    _fits(_run("backends"), ["diffrax", "scipy", "mpmath", "julia"], "backends")
    out = _run("coverage", "--out", str(tmp_path / "cov.h5"))
    _fits(out, [*SEED_FILES.values(), *[r for r in NOT_CHECKABLE if r in out.replace("\n", " ")]], "coverage")
    assert "documen\n" not in out and "document" in out


def test_findings():
    from nacverify.findings import expected_verdicts, findings
    import nacverify.catalog  # noqa: F401
    from nacverify.claims import registry
    from nacverify.ledger import load_ledgers

    found = findings(load_ledgers(), expected_verdicts(registry()), registry())
    keys = [f"{f.finding} {f.document}:{f.item}" for f in found if f.finding in ("error", "slip", "depends-on-reading")]
    _fits(_run("findings"), ["depends-on-reading", "not-checkable", *keys], "findings")
    verbose = _run("findings", "--source", "004", "-v")
    _fits(verbose, [f"{f.finding} {f.document}:{f.item}" for f in found if f.document == "004"]
          + [cid for f in found if f.document == "004" for cid, _, _ in f.claims], "findings -v")


def _reports(tmp_path):
    from nacverify.report import write_report

    long = [_claim(LONG_ID, Verdict.INCONCLUSIVE, Verdict.HOLDS, message="a message " * 20)]
    old = write_report(sample_report(extra_claims=long), tmp_path / "old.h5")
    changed = {"demo.table2.row": (Verdict.HOLDS, Verdict.REFUTED), "demo.symbolic": (Verdict.INCONCLUSIVE, Verdict.HOLDS)}
    long_new = [_claim(LONG_ID, Verdict.REFUTED, Verdict.HOLDS, message="another message " * 20)]
    new = write_report(sample_report(overrides=changed, extra_claims=long_new, scale=3.0), tmp_path / "new.h5")
    return old, new


def test_report_show_and_diff(tmp_path):
    old, new = _reports(tmp_path)
    ids = ["demo.thm3.sharp.osc", "demo.table2.row", "demo.euler", "demo.symbolic", LONG_ID]
    _fits(_run("report", "show", str(old)), [*ids, "inconclusive", "refuted", "holds"], "report show")
    _fits(_run("report", "show", str(old), "--claim", LONG_ID), [LONG_ID, "inconclusive"], "report show --claim")
    _fits(_run("report", "diff", str(old), str(new), code=1), ["demo.table2.row", "demo.symbolic", LONG_ID, "inconclusive", "refuted"], "report diff")


def test_frozen_error_with_a_sweep(tmp_path):
    out = _run("frozen-error", "--regime", "oscillatory", "--sweep", "200", "--scipy-draws", "0", "--out", str(tmp_path / "fe.h5"))
    _fits(out, ["oscillatory", "traj/s", "end-to-end/s", "compile s", "Thm3", "sharp", "err/var", "Thm 3 tightness", "max solver error"], "frozen-error")


def test_solve_and_audit(tmp_path):
    _fits(_run("solve", "nac", "--out", str(tmp_path / "s.h5")), ["nac.slow", "diffrax", "scipy", "mpmath", "Tsit5", "DOP853", "diffrax-scipy",
                                                                 "explained by estimates"], "solve nac")
    _run("audit-gen", str(tmp_path / "g.h5"), "--pairs", "2000")
    _fits(_run("audit", str(tmp_path / "g.h5"), "-j", "1", "--out", str(tmp_path / "a.h5")), ["holds"], "audit")
    out = _run("audit-ltc", "--ltc-authors-run", "-v", "--out", str(tmp_path / "l.h5"))
    _fits(out, ["holds", "ltc_authors_tf1_run.npz", *re.findall(r"\b(audit\.ltc\.[\w.]+)", out)], "audit-ltc -v")
    assert len(re.findall(r"\baudit\.ltc\.\w+", out)) >= 5


def test_bench_at_80_and_its_headers_whole_when_piped(tmp_path, monkeypatch):
    """A tiny paper suite: at 80 columns each row stacks; piped (140 columns, no COLUMNS) the headers that
    were cut ("ba…", "median…") are whole. The rates table says what its bytes' fraction measures."""
    out = _run("bench", "--suite", "paper", "--only", "NAC-Exact/05s/8k", "--T", "64", "-n", "10", "--out", str(tmp_path / "b.h5"))
    _fits(out, ["NAC-Exact/05s/8k", "median ms", "compile s", "% mem B/s", "cache hits included", "served by caches"], "bench")
    piped = runner.invoke(app, ["bench", "--suite", "paper", "--only", "NAC-Exact/05s/8k", "--T", "64", "-n", "10", "--out", str(tmp_path / "c.h5")],
                          env={"COLUMNS": ""})
    assert piped.exit_code == 0
    assert "…" not in piped.stdout and all(h in piped.stdout for h in ("batch", "median ms", "p10 ms", "% mem B/s", "GB/s"))


def _commands(cmd, path=()):
    yield path, cmd
    for name, sub in getattr(cmd, "commands", {}).items():
        yield from _commands(sub, (*path, name))


def test_every_commands_help():
    """`-h` of every command and group: each option's help string, word by word, is in the output whole
    (six of frozen-error's were cut to "…" by rich's panels at 80 columns)."""
    root = typer.main.get_command(app)
    seen = 0
    for path, cmd in _commands(root):
        out = _run(*path, "-h")
        joined = re.sub(r"-\n\s+", "-", out)  # a compound broken after its hyphen is whole
        words = set(joined.split())
        for param in cmd.params:
            for word in (getattr(param, "help", None) or "").split():
                assert word in words, (" ".join(path), param.name, word)
        _fits(out, [], " ".join(path) or "nacverify")
        seen += 1
    assert seen > 15
