"""A team's accepted verdicts for `nacverify audit --expect FILE`.

The file is JSON or TOML (told by its suffix, ``.json`` or ``.toml``; otherwise by trying JSON
then TOML) and maps claim ids to verdicts, optionally with a reason::

    # audit-expect.toml
    "audit.sharpness" = { verdict = "refuted", reason = "shared sigmoid/softplus gate (nac.gates.shared.max_softmax_weight)" }
    "audit.euler_margin" = "inapplicable"

    {"audit.sharpness": "refuted", "audit.gate_variation": {"verdict": "inconclusive", "reason": "one input"}}

Unquoted dotted TOML keys (``audit.sharpness = "refuted"``) work too: nested tables are
flattened with dots. Listed claims replace their default expected verdict; the others keep
theirs. The gate stays strict in both directions: a verdict that differs from the accepted
one fails it, including a defect that went away (``refuted`` accepted, ``holds`` found), so
the file has to be updated when the model improves. An unknown claim id or verdict is
`BadInput`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..claims import Claim, Verdict
from ..errors import BadInput

__all__ = ["Expectation", "read_expect", "apply_expect"]


@dataclass(frozen=True)
class Expectation:
    verdict: Verdict
    reason: str


def _parse(path: Path, text: str) -> Any:
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadInput(f"--expect {path}: invalid JSON ({exc})") from None
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise BadInput(f"--expect {path}: invalid TOML ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise BadInput(f"--expect {path}: neither JSON nor TOML") from None


def _entry(path: Path, claim_id: str, value: Any) -> Expectation:
    reason = ""
    if isinstance(value, Mapping):
        extra = set(value) - {"verdict", "reason"}
        if extra:
            raise BadInput(f"--expect {path}: {claim_id}: unknown field(s) {', '.join(sorted(extra))} (use verdict, reason)")
        reason = value.get("reason", "")
        value = value.get("verdict")
        if not isinstance(reason, str):
            raise BadInput(f"--expect {path}: {claim_id}: reason must be a string")
    names = ", ".join(v.value for v in Verdict)
    if not isinstance(value, str):
        raise BadInput(f"--expect {path}: {claim_id}: a verdict string is required ({names})")
    try:
        verdict = Verdict(value.strip().lower())
    except ValueError:
        raise BadInput(f"--expect {path}: {claim_id}: unknown verdict {value!r} (use {names})") from None
    return Expectation(verdict, reason)


def _flatten(path: Path, data: Mapping[str, Any], prefix: str = "") -> dict[str, Expectation]:
    out: dict[str, Expectation] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and "verdict" not in value and "reason" not in value:
            out.update(_flatten(path, value, name + "."))
        else:
            out[name] = _entry(path, name, value)
    return out


def read_expect(path: str | Path) -> dict[str, Expectation]:
    """Claim id -> accepted verdict (and reason) from a JSON or TOML file."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"--expect {source}: unreadable ({getattr(exc, 'strerror', None) or exc})") from None
    data = _parse(source, text)
    if not isinstance(data, Mapping):
        raise BadInput(f"--expect {source}: the top level must map claim ids to verdicts")
    table = _flatten(source, data)
    if not table:
        raise BadInput(f"--expect {source}: no claim listed")
    return table


def apply_expect(claims: Iterable[Claim], table: Mapping[str, Expectation], source: str = "--expect") -> list[Claim]:
    """Claims with the accepted verdicts of `table`; an id in `table` that is not among the
    claims is `BadInput`."""
    claims = list(claims)
    known = {c.id for c in claims}
    unknown = sorted(set(table) - known)
    if unknown:
        raise BadInput(f"{source}: unknown claim id(s) {', '.join(unknown)} (audit claims: {', '.join(sorted(known))})")
    out = []
    for claim in claims:
        if claim.id in table:
            e = table[claim.id]
            why = f"accepted in {source}" + (f": {e.reason}" if e.reason else "")
            claim = replace(claim, expected=e.verdict, expected_reason=why)
        out.append(claim)
    return out
