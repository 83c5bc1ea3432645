"""The README's "Use nacverify in your own tests" examples, run as written (issue 23, item 5).

Each ```python block of that section is executed in a fresh namespace, as a user's test module
would be, and every ``test_*`` function it defines is called: a snippet that names an undefined
model, expects a verdict its model does not give, or feeds ncps's batch-first arrays to a
time-first reader fails here, not in a user's suite."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Use nacverify in your own tests"


def section_text() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:] if end < 0 else text[start:end]


def snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", section_text(), flags=re.S)


def _test_functions(source: str) -> list[str]:
    return re.findall(r"^def (test_\w+)\(\):", source, flags=re.M)


def test_the_section_has_the_three_examples_and_each_defines_tests():
    found = snippets()
    assert len(found) == 3, found
    calls = [re.findall(r"\b(assert_\w+)\(", s) for s in found]
    assert [c[0] for c in calls] == ["assert_gates", "assert_ltc_cell", "assert_claims"]
    assert all(_test_functions(s) for s in found)


@pytest.mark.parametrize("index", [0, 1, 2], ids=["assert_gates", "assert_ltc_cell", "assert_claims"])
def test_readme_snippet_runs_as_written(index):
    source = snippets()[index]
    if re.search(r"^import torch|^from ncps", source, flags=re.M):
        pytest.importorskip("torch", reason="torch is the optional extra 'ltc' (the test extra installs it)")
    namespace: dict = {"__name__": f"readme_example_{index}"}
    exec(compile(source, f"README.md[{SECTION[3:]}, snippet {index + 1}]", "exec"), namespace)
    names = _test_functions(source)
    for name in names:
        namespace[name]()


def test_the_section_says_expectations_are_strict_both_ways():
    """The behaviour the README now states, checked on the gate itself: the README's expectation
    on a model whose sharpness holds fails, naming the claim and both verdicts."""
    from nacverify.testing import assert_gates
    from test_audit import make

    text = " ".join(section_text().split())
    assert "strict both ways" in text and 'expect={"audit.sharpness": "refuted"}` fails for a model whose sharpness holds' in text
    sharp = make("euler")  # closed-form gates for which every audit claim holds (tests/test_audit.py)
    with pytest.raises(AssertionError, match=r"audit.sharpness: verdict holds, expected refuted"):
        assert_gates(sharp, expect={"audit.sharpness": "refuted"})
