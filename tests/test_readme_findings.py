"""The README's findings table is `nacverify findings`' counts, document by document (issue 21: the
README counts findings per item, from the command, not claims)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from nacverify.cli.app import app

README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_table() -> dict[str, dict[str, int]]:
    text = README.read_text(encoding="utf-8")
    block = text[text.index("<!-- findings-table"):text.index("<!-- /findings-table -->")]
    rows = [line for line in block.splitlines() if re.match(r"\| \d{3} \|", line)]
    names = ("error", "depends-on-reading", "holds", "inconclusive", "not-checkable")
    return {cells[0]: dict(zip(names, map(int, cells[1:]))) for cells in ([c.strip() for c in r.strip("|").split("|")] for r in rows)}


def test_the_readme_findings_table_is_the_commands():
    res = CliRunner().invoke(app, ["findings", "--format", "json"])
    assert res.exit_code == 0, res.stderr
    assert _readme_table() == json.loads(res.stdout)["counts"]


def test_the_error_list_names_each_documents_count():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### What the documents state that is false"):text.index("### Claims, by kind")]
    for doc, counts in _readme_table().items():
        assert f"- **{doc}** ({counts['error']})" in section, doc
