"""reports/COMMANDS.md, the full command reference, is generated from the Typer app by Typer's own
``utils docs`` (issue 46: the README keeps one line per command and links here). This test generates
it again into a temporary file and compares: a command, option or help text changed without
regenerating the reference fails here, with the command that regenerates it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ROOT / "reports" / "COMMANDS.md"
REGENERATE = "python -m typer nacverify.cli.app utils docs --name nacverify --output reports/COMMANDS.md"


def _generate(target: Path) -> str:
    res = subprocess.run([sys.executable, "-m", "typer", "nacverify.cli.app", "utils", "docs", "--name", "nacverify", "--output", str(target)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    return target.read_text(encoding="utf-8")


def test_the_command_reference_is_the_apps(tmp_path):
    generated = _generate(tmp_path / "COMMANDS.md")
    assert COMMANDS.read_text(encoding="utf-8") == generated, f"reports/COMMANDS.md differs from the app; regenerate it: {REGENERATE}"


def test_the_reference_names_every_command_and_option_of_the_app():
    """Independent of Typer's generator: every command of the app (walked through Click) has a section,
    and every one of its options appears in that section."""
    import typer.main

    from nacverify.cli.app import app

    text = COMMANDS.read_text(encoding="utf-8")
    root = typer.main.get_command(app)

    def walk(command, path):
        subcommands = getattr(command, "commands", {})
        if not subcommands:
            yield path, command
        for name, sub in subcommands.items():
            yield from walk(sub, [*path, name])

    leaves = list(walk(root, ["nacverify"]))
    assert len(leaves) >= 15
    for path, command in leaves:
        heading = f"`{' '.join(path)}`"
        assert f"# {heading}" in text, heading
        section = text[text.index(f"# {heading}"):]
        following = section.find("\n## ", 1)
        section = section if following < 0 else section[:following]
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert f"`{opt}" in section or f", {opt}" in section, (heading, opt)


def test_the_readme_reads_at_a_glance_and_names_every_command():
    """Issue 46: the README is about 250 lines at most, keeps one line per command of the app (the full
    reference is reports/COMMANDS.md), and every file it links exists."""
    import re

    import typer.main

    from nacverify.cli.app import app

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    table = text[text.index("## Commands"):text.index("\n## ", text.index("## Commands") + 1)]
    listed = set(re.findall(r"^\| `nacverify ([a-z-]+)", table, re.M))
    assert listed == set(typer.main.get_command(app).commands), listed
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), target
