"""The options many commands share, and their checks: how much to print (`Level`, -v, -q), what goes
to stdout (`OutputFormat`, --format, --json), --junit-xml, and the seed."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from nacverify.errors import BadInput


class Level(enum.IntEnum):
    """How much a command prints: -q, the default summary, -v."""

    quiet = 0
    normal = 1
    verbose = 2


VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Details: the full verdict table (one row per claim, with its message) and every witness.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Only the verdict counts and the gate line.")]


def output_level(verbose: bool, quiet: bool) -> Level:
    if verbose and quiet:
        raise BadInput("--verbose and --quiet exclude each other")
    return Level.verbose if verbose else Level.quiet if quiet else Level.normal


def check_seed(seed: int | None, option: str = "--seed") -> None:
    """A seed is a non-negative integer (a negative one would read as `seed: null`, "no random draws")."""
    if seed is not None and seed < 0:
        raise BadInput(f"{option} must be >= 0, got {seed}")


class OutputFormat(str, enum.Enum):
    """What a command writes to stdout: rich tables for people, or one JSON document for tools."""

    table = "table"
    json = "json"


FormatOption = Annotated[OutputFormat, typer.Option("--format", help="table (for people) or json: one JSON document on stdout and nothing else "
                                                    "there (progress and notes go to stderr); schema in reports/JSON_SCHEMA.md.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Same as --format json.")]


def output_format(fmt: "OutputFormat | str", as_json: bool) -> OutputFormat:
    """--format, or json when --json is given."""
    return OutputFormat.json if as_json else OutputFormat(fmt)


JunitXmlOption = Annotated[Optional[Path], typer.Option("--junit-xml", metavar="PATH", help="Also write JUnit XML (one test case per claim, "
                                                        "pytest's --junitxml layout) for CI test reports; an existing file needs --force.")]


def check_junit_xml(junit_xml: Path | None, *, force: bool, out: Path | None = None) -> Path | None:
    """Refuse an unusable --junit-xml before the run (BadInput, exit 2), as `check_writable` does for --out."""
    from nacverify.report.junit import check_junit_writable

    return None if junit_xml is None else check_junit_writable(junit_xml, overwrite=force, report=out)
