"""The one door through which a track (a benchmark beside the core one, such as SPIN) joins the CLI and
`regrade`: the core knows tracks only through this module.

A track is a module that defines ``TRACK: Track``; `TRACK_MODULES` lists them (registering a track is one
line there). Its commands are added to `python -m tooluse1`, and a results file's section named after it
is re-scored by it on `regrade` and shown by it in the HTML report. Track modules are imported by name,
so no core module imports a track.
"""
from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

__all__ = ["TRACK_MODULES", "Track", "default_results_path", "passthrough_parser", "pytest_session", "tracks"]

TRACK_MODULES: tuple[str, ...] = ("tooluse1.spin.cli",)

# The object `add_subparsers` returns (argparse keeps its class private).
Subcommands = Any


@dataclass(frozen=True)
class Track:
    """One track. `name` is its results-file section; `add_commands(sub)` adds its subcommands, each
    setting ``fn`` (called with the parsed args, and with the unknown arguments too when it also sets
    ``passthrough=True``); `regrade_section(section)` re-scores a saved section with the current code and
    data (KeyError, whose first argument is the message, when the section names something that no
    longer exists); `format_summary(section)` is its text summary; `report_section(document)` its part of
    the HTML report of a results document holding its section ("" when it has nothing to show)."""

    name: str
    add_commands: Callable[[Subcommands], None]
    regrade_section: Callable[[dict], dict]
    format_summary: Callable[[dict], str]
    report_section: Callable[[Mapping[str, Any]], str]


@cache
def tracks() -> dict[str, Track]:
    """Every registered track by name, in TRACK_MODULES order (each module imported once)."""
    found = [importlib.import_module(m).TRACK for m in TRACK_MODULES]
    return {t.name: t for t in found}


def default_results_path(model: str, track: str | None = None) -> str:
    """``results/tooluse1-[<track>-]<model slug>.json``: where a run writes its results file when no
    --results is given (the slug keeps the model's last 60 filename-safe characters)."""
    slug = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in model.strip("/"))[-60:]
    return f"results/tooluse1-{track + '-' if track else ''}{slug}.json"


def passthrough_parser(sub: Subcommands, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand whose unknown arguments go on to pytest (`run`, `plan`)."""
    parser = sub.add_parser(name, **kwargs)
    parser.set_defaults(passthrough=True)
    return parser


def pytest_session(test_module: str, checkout_file: str, options: list[str], passthrough: list[str]) -> int:
    """Run a track's pytest session over `test_module` (`run`: tooluse1.test_tooluse1, `plan`:
    tooluse1.spin.plan_items) wherever the command is started; its exit status is pytest's.

    In a checkout (the repository's pytest.ini beside the package) the session is the one `pytest` started at
    the repository's root would run: that root as rootdir, its pytest.ini, and `checkout_file`, the root file
    that re-exports the module's test (`test_tooluse1.py`, `test_plan.py`), so node ids read as in the README. Installed
    (site-packages), the module's own file is run with the working directory as rootdir and the package's
    session.ini, so no configuration file of the folders around site-packages applies.

    The assertion-rewrite warning is filtered because the CLI has imported tooluse1 before pytest starts
    (the plugin modules are then loaded as they are; nothing of ours relies on rewritten asserts)."""
    import importlib.util
    from pathlib import Path

    import pytest
    from tooluse1.corpus import PACKAGE_DIR, ROOT
    spec = importlib.util.find_spec(test_module)
    assert spec is not None and spec.origin is not None, test_module
    if (ROOT / "pytest.ini").is_file() and (ROOT / checkout_file).is_file():
        where = [str(ROOT / checkout_file), "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini")]
    else:
        where = [spec.origin, "--rootdir", str(Path.cwd()), "-c", str(PACKAGE_DIR / "session.ini")]
    argv = [*where, "-W", "ignore::pytest.PytestAssertRewriteWarning", *options, "-q", "-rN"]
    return int(pytest.main(argv + passthrough))
