"""The README's findings table is `nacverify findings`' counts, document by document (issue 21: the
README counts findings per item, from the command, not claims)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from nacverify.cli.app import app

README = Path(__file__).resolve().parents[1] / "README.md"
FINDINGS = Path(__file__).resolve().parents[1] / "reports" / "FINDINGS.md"  # the findings in full (issue 46: the README reads at a glance)


def _readme_table() -> dict[str, dict[str, int]]:
    text = README.read_text(encoding="utf-8")
    block = text[text.index("<!-- findings-table"):text.index("<!-- /findings-table -->")]
    lines = block.splitlines()
    names = [c.strip() for c in next(line for line in lines if line.startswith("| document")).strip("|").split("|")][1:]
    rows = [line for line in lines if re.match(r"\| \d{3} \|", line)]
    return {cells[0]: dict(zip(names, map(int, cells[1:]))) for cells in ([c.strip() for c in r.strip("|").split("|")] for r in rows)}


def test_the_readme_findings_table_is_the_commands():
    res = CliRunner().invoke(app, ["findings", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    assert _readme_table() == json.loads(res.stdout)["counts"]


def test_the_error_list_names_each_documents_count():
    """reports/FINDINGS.md's list of errors and slips gives each document's counts, as the README's table."""
    text = FINDINGS.read_text(encoding="utf-8")
    section = text[text.index("## What the documents state that is false"):text.index("## Claims, by kind")]
    for doc, counts in _readme_table().items():
        plural = lambda n, word: f"{n} {word}" + ("" if n == 1 else "s")  # noqa: E731
        assert f"- **{doc}** ({plural(counts['error'], 'error')}, {plural(counts['slip'], 'slip')})" in section, doc
