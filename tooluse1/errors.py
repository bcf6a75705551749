"""The ground floor of ToolUse.1's errors: one base class, and the errors more than one layer raises.

Every exception class of the package derives from `ToolUse1Error` (tests_grader/test_errors.py walks the
package to keep it so), so a caller can catch everything this library raises on purpose with one clause,
and tell it apart from a bug. Each class keeps the built-in base it had before (ValueError, RuntimeError)
beside this one, so existing `except ValueError` clauses still catch it. This module imports nothing from
the package: any module may import it without an arrow running upward.
"""
from __future__ import annotations

__all__ = ["BackendError", "ResumeMismatch", "StaleCorpusError", "ToolUse1Error"]


class ToolUse1Error(Exception):
    """Base class of every exception ToolUse.1 defines."""


class BackendError(ToolUse1Error, RuntimeError):
    """A user-fixable backend problem (unknown model, unreachable server); the message names the fix."""


class ResumeMismatch(ToolUse1Error):
    """A resume log (`--resume`, `--spin-resume`) belongs to another run key (model, settings, data) or is
    not a resume log at all; the message names the flag, the file and what differs."""


class StaleCorpusError(ToolUse1Error):
    """A built dataset in data/ (the corpus, the SPIN scenarios) does not match its source; the message says
    which command fixes it."""
