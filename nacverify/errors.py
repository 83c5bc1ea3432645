"""Typed errors raised by the library; the CLI maps each to an exit code.

`BadInput`  -> exit 2 (bad input or usage).
`EnvironmentProblem` -> exit 3 (a requested backend missing, a report not writable).
Anything else escaping the library is an internal error (exit 3 as well).
"""

from __future__ import annotations


class NacverifyError(Exception):
    """Base class of every error nacverify raises on purpose."""


class BadInput(NacverifyError, ValueError):
    """The user's input violates an assumption or is malformed."""


class EnvironmentProblem(NacverifyError, RuntimeError):
    """The environment cannot do what was asked (missing backend, unwritable path)."""


class ReportError(BadInput):
    """A report file is unreadable, corrupt, or of an unknown schema."""


class Interrupted(NacverifyError):
    """A long run was interrupted (SIGINT/SIGTERM); `partial` holds what was finished."""

    def __init__(self, message: str, partial: object = None):
        super().__init__(message)
        self.partial = partial
