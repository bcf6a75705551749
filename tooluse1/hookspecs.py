"""The hooks through which a track (the SPIN planning track, tooluse1/spin/plugin.py) joins the core
ToolUse.1 pytest plugin, registered by tooluse1.plugin's `pytest_addhooks`. A track implements them as
plain module-level hook functions; it never reads the core plugin's state.

Per-item records travel like the core's: a track appends `(key, record_dict)` to `item.user_properties`,
with a key starting with `tooluse1` and a dict holding `item_id`; the core's collector gathers them on the
controller (also from xdist workers) and hands them to `pytest_tooluse1_sections`.
"""
from __future__ import annotations

from typing import Any, Mapping

import pluggy
import pytest

hookspec = pluggy.HookspecMarker("pytest")


@hookspec
def pytest_tooluse1_configure(config: pytest.Config, run: Any) -> None:
    """The session's BenchmarkRun (`run`: config, corpus, backend) exists. Called in every process
    (controller and xdist workers) from the core's pytest_configure, only when --model is given."""


@hookspec
def pytest_tooluse1_sections(config: pytest.Config,
                             records: Mapping[str, Mapping[str, dict]]) -> "dict[str, dict] | None":
    """Return the track's sections of the results document, `{name: section}` (e.g. `{"spin": ...}`), or
    None. `records` maps each user-property key to `{item_id: record}` as collected on the controller.
    Called once, on the controller, when the results document is built at the end of the session."""


@hookspec
def pytest_tooluse1_terminal_summary(config: pytest.Config, terminalreporter: Any, document: dict) -> None:
    """Write the track's part of the end-of-session summary; `document` is the results document (with the
    track's section). Called on the controller after the core's summary."""
