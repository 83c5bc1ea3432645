"""Every option's help text reaches the user intact: typer renders help with rich markup, so
a literal "[default: ...]" or "[env ...]" in a help string used to vanish from `--help`."""

from __future__ import annotations

import typer
from rich.text import Text

from nacverify.cli.app import app


def _commands(cmd, path: str = "nacverify"):
    yield path, cmd
    if hasattr(cmd, "commands"):  # a group (typer may vendor its own click: no isinstance)
        for name, sub in cmd.commands.items():
            yield from _commands(sub, f"{path} {name}")


def test_help_strings_survive_rich_markup():
    root = typer.main.get_command(app)
    lost = []
    for path, cmd in _commands(root):
        texts = [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]
        for text in texts:
            if Text.from_markup(text).plain != text:
                lost.append(f"{path}: {text!r}")
    assert len(list(_commands(root))) > 12  # every command and sub-command was visited
    assert not lost, "help text that rich markup would swallow:\n" + "\n".join(lost)


def test_check_help_shows_the_default_report_path():
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["check", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "reports/check-<UTC>.h5" in result.output
