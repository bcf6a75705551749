"""A deterministic world behind the offered tools: `World().execute(call) -> ToolResult`.

The SPIN track executes plan steps here, and the scenarios' required calls are checked against it. Each
tool's answer comes from its own simulation (`Tool.simulate`; the nine built-in ones and their tables are
in tooluse1.toolbox), so the same call always gives the same output.

Tool names are read through `World.tools` (Toolbox.canonical_name), so `weather(city="Питер")` is
get_weather. Arguments are typed by their parameter's comparison kind (tooluse1.matching: numbers may be
numbers or numeric strings, as XML protocols carry no types); arguments a tool does not declare are
ignored, as the grader tolerates them. Every failure (unknown tool, a tool without a simulation, missing
required argument, a value of the wrong type, an unknown city, currency, unit or time zone, an unevaluable
expression, a simulation that fails) is a ToolResult with ok=False and an error message; `execute` never
raises.
"""
from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from tooluse1.tools import TOOLS, Call
from tooluse1.toolspec import Tool, Toolbox, ToolFailure

__all__ = ["TOOL_LATENCY_S", "ToolResult", "World", "numbers_in"]

# Each tool's simulated latency (its declaration's latency_s): World(latency_s=TOOL_LATENCY_S, sleep=False)
# accounts a run's tool time without sleeping it.
TOOL_LATENCY_S: dict[str, float] = {name: tool.latency_s for name, tool in TOOLS.items()}


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one call. ok=False carries an error message and an empty output."""

    ok: bool
    output: str
    error: str | None
    latency_s: float

    def as_dict(self) -> dict:
        return asdict(self)


_NUM_RE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """Every decimal number written in `text` ("-3°C" -> -3.0, "9250.00 RUB" -> 9250.0), in order."""
    return [float(m) for m in _NUM_RE.findall(text)]


@dataclass
class World:
    """Runs calls against the tools' simulations (`tools`: the registry's, the built-in tools, unless given:
    the simulations are the built-in tools', and SPIN's scenarios are written for them).

    `latency_s` is either one delay for every tool or a mapping tool name -> delay (tools not named get 0);
    `execute` sleeps that long (unless sleep=False) and reports it in ToolResult.latency_s, so simulated
    latency is reproducible. `records` holds each tool's records in this World (the timers started, the
    notes saved): ids count up per World, so a fresh World gives the same ids for the same sequence of calls.
    """

    latency_s: Mapping[str, float] | float = 0.0
    sleep: bool = True
    tools: Toolbox = field(default_factory=lambda: TOOLS)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.latency_s, Mapping):
            unknown = sorted(set(self.latency_s) - set(self.tools))
            if unknown:
                raise ValueError(f"latency_s names unknown tools {unknown}; known: {', '.join(self.tools)}")
            values = list(self.latency_s.values())
        else:
            values = [self.latency_s]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"latency_s must be a non-negative number of seconds, got {v!r}")

    def latency_for(self, tool: str) -> float:
        """The simulated latency of one call of `tool` (canonical name), in seconds."""
        if isinstance(self.latency_s, Mapping):
            return float(self.latency_s.get(tool, 0.0))
        return float(self.latency_s)

    def execute(self, call: Call) -> ToolResult:
        """Run one call. Never raises: every failure is ToolResult(ok=False, output="", error=...)."""
        name = self.tools.canonical_name(call.name) if isinstance(call.name, str) else ""
        tool = self.tools.get(name)
        if tool is None:
            return ToolResult(False, "", f"unknown tool {call.name!r}; known: {', '.join(self.tools)}", 0.0)
        latency = self.latency_for(name)
        if latency and self.sleep:
            time.sleep(latency)
        if tool.simulate is None:
            return ToolResult(False, "", f"{name}: this tool has no simulation in the World", latency)
        try:
            output = tool.simulate(self.records.setdefault(name, []), **_typed_arguments(tool, call.arguments))
        except ToolFailure as e:
            return ToolResult(False, "", f"{name}: {e}", latency)
        except (ArithmeticError, ValueError, TypeError) as e:
            # e.g. a 400-digit integer argument: to_number / evaluator.evaluate overflow on it
            return ToolResult(False, "", f"{name}: cannot use these arguments ({type(e).__name__}: {e})", latency)
        except Exception as e:   # a simulation's own defect: still a result, as promised, naming it
            return ToolResult(False, "", f"{name}: the simulation failed ({type(e).__name__}: {e})", latency)
        return ToolResult(True, output, None, latency)


def _typed_arguments(tool: Tool, arguments: Any) -> dict[str, Any]:
    """The arguments `tool` declares, typed by their comparison kind; undeclared ones are dropped. Raises
    ToolFailure on a missing required argument or an unusable value."""
    if not isinstance(arguments, Mapping):
        raise ToolFailure(f"arguments must be an object, got {type(arguments).__name__}")
    for req in tool.required:
        if req not in arguments or arguments[req] is None:
            raise ToolFailure(f"missing required argument {req!r}")
    out: dict[str, Any] = {}
    for pname, value in arguments.items():
        p = tool.param_index.get(pname)
        if p is None or value is None:
            continue
        typed = p.comparison.accept(value)
        if typed is None:
            raise ToolFailure(f"{pname} must be {p.comparison.expects}, got {value!r}")
        out[pname] = typed
    return out
