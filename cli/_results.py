"""A command's results for people: verdicts coloured by whether they are expected, the table of every
claim, the counts and the summary, witnesses, and the gate line on stderr with the exit it chooses."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ._exits import EXIT_GATE, EXIT_OK
from ._options import Level
from ._output import console, err_console, wrap_width

if TYPE_CHECKING:  # nacverify.claims imports JAX: not at import time (`--help` stays fast)
    from nacverify.claims import Result, Verdict

#: Colour says whether a verdict is what the repository expects, not which verdict it is: an
#: expected `refuted` is as green as an expected `holds`.
AS_EXPECTED_STYLE = "green"


NOT_EXPECTED_STYLE = "bold red"


MISMATCH = "≠"


def _value(verdict: Any) -> str:
    return str(getattr(verdict, "value", verdict))


def verdict_text(verdict: "Verdict | str", as_expected: bool | None = None) -> str:
    """A verdict in rich markup, coloured by whether it is the expected one (green) or not (red,
    with the mismatch mark); uncoloured when that is unknown."""
    text = escape(_value(verdict))
    if as_expected is None:
        return text
    if as_expected:
        return f"[{AS_EXPECTED_STYLE}]{text}[/]"
    return f"[{NOT_EXPECTED_STYLE}]{text} {MISMATCH}[/]"


def kind_totals(claims) -> dict[str, int]:
    """kind -> number of claims, in `Kind` order."""
    from nacverify.claims import Kind

    out: dict[str, int] = {}
    for k in [*Kind, None]:
        n = sum(1 for c in claims if (c.kind and Kind(c.kind)) == k)
        if n:
            out[str(k) if k else "none"] = n
    return out


def kind_summary(results: "list[Result]") -> Table:
    """Verdict counts per kind: only as-printed and reading refutations say the document is wrong."""
    from nacverify.claims import Verdict, counts_by_kind

    verdicts = [v.value for v in Verdict]
    table = Table(title="verdicts by kind (refuted as-printed/reading: the document is wrong; the other kinds are the suite's own statements)")
    table.add_column("kind", no_wrap=True)
    for v in verdicts:
        table.add_column(v, justify="right")
    table.add_column("total", justify="right")
    for kind, counts in counts_by_kind(results).items():
        table.add_row(kind, *[str(counts.get(v, 0)) for v in verdicts], str(sum(counts.values())))
    return table


BORDERS = 3  # a rich table column's padding and rule, per column


def verdict_table(results: "Iterable[Result]", title: str | None = None, extra: dict[str, Callable[["Result"], str]] | None = None,
                  width: int | None = None) -> RenderableType:
    """One row per claim: id, kind, verdict (coloured by as-expected, with the mismatch mark), expected,
    extra columns, message. Where that table would not fit `width` (default: stdout's) with the ids,
    verdicts and marks whole, each claim is two lines instead: the verdict and id, then its message,
    indented and wrapped."""
    results = list(results)
    extra = extra or {}
    width = width or console.width
    cells = [[_value(r.claim.id), str(r.claim.kind or "-"), _value(r.verdict) + ("" if r.as_expected else f" {MISMATCH}"),
              _value(r.claim.expected), *[fn(r) for fn in extra.values()]] for r in results]
    heads = ["claim", "kind", "verdict", "expected", *extra]
    fixed = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(heads)]
    if sum(fixed) + 24 + BORDERS * (len(heads) + 1) + 1 <= width:  # room for a message column of 24 or more
        table = Table(title=title, show_lines=False, expand=False)
        table.add_column("claim", style="bold", no_wrap=True)
        table.add_column("kind", no_wrap=True)
        table.add_column("verdict", no_wrap=True)
        table.add_column("expected", no_wrap=True)
        for name in extra:
            table.add_column(name, justify="right", no_wrap=True)
        table.add_column("message", overflow="fold")
        for result, row in zip(results, cells):
            table.add_row(escape(row[0]), row[1], verdict_text(result.verdict, result.as_expected), *[escape(c) for c in row[3:]],
                          escape(result.outcome.message))
        return table
    lines: list[RenderableType] = [Text(title, style="italic")] if title else []
    for result, row in zip(results, cells):
        mark = " " if result.as_expected else MISMATCH
        head = Text()
        head.append(f"{mark} {_value(result.verdict):<12}", style=AS_EXPECTED_STYLE if result.as_expected else NOT_EXPECTED_STYLE)
        head.append(f" {row[0]}", style="bold")
        more = [row[1], f"expected {row[3]}", *(f"{name} {value}" for name, value in zip(extra, row[4:]) if value)]
        head.append(f" ({', '.join(more)})")
        lines.append(head)
        lines.append(Padding(Text(" ".join(result.outcome.message.split()), style="dim"), (0, 0, 0, 4), expand=False))
    return Group(*lines)


GATE_LINES = 10  # differing claims named one per line under the gate line; the rest are counted


REASON_CHARS = 160  # the start of each differing claim's message, its short reason


def _short(message: str, chars: int) -> str:
    msg = " ".join(message.split())
    return msg if len(msg) <= chars else msg[: chars - 3].rstrip() + "..."


def gate_reason(result: "Result") -> str:
    """One line naming a differing claim, its verdict against the expected one, and the start of its message."""
    return f"  {result.claim.id}: {_value(result.verdict)}, expected {_value(result.claim.expected)}: {_short(result.outcome.message, REASON_CHARS)}"


def _wrapped(line: str, width: int | None, indent: str = "    ") -> str:
    """`line` folded at `width` (continuations indented); unchanged without a width."""
    if not width or len(line) <= width:
        return line
    import textwrap

    return "\n".join(textwrap.wrap(line, width=width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False))


def gate_exit(results: "list[Result]", gate: bool) -> int:
    """Exit code per ARCHITECTURE: 1 when gating and any verdict differs from expected. The gate line
    names each differing claim (up to `GATE_LINES`) with its short reason, so a CI log says why; on a
    terminal or with COLUMNS each is folded at that width."""
    unexpected = [r for r in results if not r.as_expected]
    if unexpected:
        head = (f"gate: {len(unexpected)} verdict(s) differ from expected" if gate
                else f"note: {len(unexpected)} verdict(s) differ from expected (--no-gate)")
        lines = [head + ":"] + [gate_reason(r) for r in unexpected[:GATE_LINES]]
        if len(unexpected) > GATE_LINES:
            lines.append(f"  and {len(unexpected) - GATE_LINES} more (see the report)")
        width = wrap_width()
        err_console.print("\n".join(_wrapped(line, width) for line in lines), markup=False, soft_wrap=True)
        if gate:
            return EXIT_GATE
    return EXIT_OK


def witness_text(result: "Result") -> str:
    """A claim's witness (the counterexample's parameters) as `k=v, ...`."""
    return ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in result.outcome.evidence.witness.items())


def print_witnesses(results: "Iterable[Result]", show: Console | None = None) -> None:
    """One line per refuted claim with its witness (the counterexample's parameters)."""
    for r in results:
        if _value(r.verdict) == "refuted" and r.outcome.evidence.witness:
            (show or console).print(f"witness {r.claim.id}: {witness_text(r)}", markup=False)


def verdict_counts(results: "Iterable[Result]") -> str:
    """`418 claims: 300 holds, 80 refuted, ...; 417 as expected, 1 differs`."""
    from nacverify.claims import Verdict

    results = list(results)
    counts = {v.value: 0 for v in Verdict}
    for r in results:
        counts[_value(r.verdict)] += 1
    differ = sum(1 for r in results if not r.as_expected)
    parts = ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none"
    return f"{len(results)} claims: {parts}; {len(results) - differ} as expected, {differ} differ{'s' if differ == 1 else ''}"


SUMMARY_REASON_CHARS = 400  # a differing claim's message in the summary; -v shows all of it


def print_summary(results: "list[Result]", show: Console, level: Level, *, title: str = "", lines: Iterable[str] = ()) -> None:
    """The default output of a command that gives verdicts: a title, the counts, `lines` (e.g. the
    findings per document), then every verdict that differs from its expected one with its reason
    and witness. -q: the counts only."""
    if level == Level.quiet:
        show.print(verdict_counts(results), markup=False)
        return
    if title:
        show.print(title, markup=False)
    show.print(verdict_counts(results), markup=False)
    for line in lines:
        show.print(line, markup=False)
    unexpected = [r for r in results if not r.as_expected]
    if unexpected:
        show.print(f"[{NOT_EXPECTED_STYLE}]differ from expected ({len(unexpected)}):[/]")
        for r in unexpected:
            show.print(f"[{NOT_EXPECTED_STYLE}]{MISMATCH}[/] [bold]{escape(_value(r.claim.id))}[/]: {verdict_text(r.verdict, False)} "
                       f"(expected {escape(_value(r.claim.expected))})")
            show.print(Padding(Text("reason: " + _short(r.outcome.message, SUMMARY_REASON_CHARS)), (0, 0, 0, 4), expand=False))
            if r.outcome.evidence.witness:
                show.print(Padding(Text("witness: " + witness_text(r)), (0, 0, 0, 4), expand=False))
    elif level == Level.normal:
        show.print(f"[{AS_EXPECTED_STYLE}]every verdict as expected[/]; -v lists each claim")
