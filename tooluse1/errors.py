"""The ground floor of ToolUse.1's errors: one base class, and the errors more than one layer raises.

Every exception class of the package derives from `ToolUse1Error` (tests_grader/test_errors.py walks the
package to keep it so), so a caller can catch everything this library raises on purpose with one clause,
and tell it apart from a bug. Each class keeps the built-in base it had before (ValueError, RuntimeError)
beside this one, so existing `except ValueError` clauses still catch it. This module imports nothing from
the package: any module may import it without an arrow running upward.
"""
from __future__ import annotations

import argparse
from typing import NoReturn

__all__ = ["USAGE_ERROR", "BackendError", "ResumeMismatch", "StaleCorpusError", "ToolUse1Error", "UsageParser"]

# The exit status of bad input (a malformed flag, a file that cannot be used, runs that cannot be compared) at
# every entry point: pytest's ExitCode.USAGE_ERROR, so `pytest --model X ...` and `python -m tooluse1 ...` agree
# (argparse's own 2 is replaced by UsageParser). 0 and 1 keep their meanings: done, and failed items or a gate.
USAGE_ERROR = 4


class UsageParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors exit with USAGE_ERROR (its subcommands' parsers are of this class)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage()
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


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
