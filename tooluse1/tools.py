"""The tools the benchmark offers: the registry `TOOLS` (name -> Tool), tool calls, and typing by schema.

`TOOLS` holds the nine built-in tools (tooluse1.toolbox, in the prompts' order), and only those unless a
caller registers more (`TOOLS.register(tool)`, a tool then offered to every built-in case): nothing swaps
it, a suite's tools live in the suite's own toolbox (tooluse1.suite.Suite.toolbox). A case's offered tools
are its `Case.toolbox` (tooluse1.corpus), set when it is built: prompts, parsing and grading take them as an
argument (`tools=`, TOOLS when left out), so two cases, or two suites, may define one tool name two ways.
What a tool is and how one is declared: tooluse1.toolspec; how values compare: tooluse1.matching; the alias
tables: tooluse1.aliases.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tooluse1.toolbox import BUILTIN_TOOLS
from tooluse1.toolspec import Toolbox

__all__ = ["TOOLS", "TOOL_NAMES", "Call", "canonical_tool_name", "coerce_value", "type_arguments"]

TOOLS = Toolbox(BUILTIN_TOOLS)

# The nine built-in tools' names, in declaration order (`tools: all` in a case).
TOOL_NAMES: tuple[str, ...] = tuple(t.name for t in BUILTIN_TOOLS)


def canonical_tool_name(name: Any, *, tools: Toolbox = TOOLS) -> str:
    """The tool of `tools` a name refers to (exact names, then other names like calc/weather); unknown names
    normalised (Toolbox.canonical_name)."""
    return tools.canonical_name(name)


def coerce_value(tool: str, param: str, raw: str, *, tools: Toolbox = TOOLS) -> Any:
    """Type an untyped string value (XML parameter, plain k=v) by the tool schema.

    Numbers become int/float only for number/integer parameters, `true`/`false` booleans only for boolean
    ones, JSON text a list or mapping only for array/object ones, and a bare `null` null only for a nullable
    one (SPEC §2.2); everything else stays a string, so a zip code or a numeric note text keeps its digits
    as written. The schema is `tools`' declaration of `tool`; a value of a tool or parameter it does not
    declare stays a string.
    """
    t = tools.get(tool)
    p = t.param_index.get(param) if t else None
    if p is None:
        return raw
    if p.nullable and raw.strip() == "null":
        return None
    return p.comparison.coerce(raw)


def type_arguments(tool: str, args: dict[str, Any], *, tools: Toolbox = TOOLS) -> dict[str, Any]:
    """Apply coerce_value (by `tools`' schema of `tool`) to every string argument (used for protocols without
    native types)."""
    return {k: coerce_value(tool, k, v, tools=tools) if isinstance(v, str) else v for k, v in args.items()}


@dataclass(frozen=True)
class Call:
    """One tool call: a tool name and its arguments (as the model gave them, typed by schema)."""

    name: str
    arguments: dict[str, Any]

    def as_dict(self) -> dict:
        return {"name": self.name, "arguments": self.arguments}
