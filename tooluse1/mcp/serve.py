"""Run one of ToolUse.1's MCP servers over stdio: ``python -m tooluse1.mcp.serve NAME``.

NAME is a key of tooluse1.mcp.servers.SERVERS. The process speaks MCP on stdin/stdout and logs warnings
only, on stderr. For the robustness tests, TOOLUSE1_MCP_FAULT=<tool>:<crash|hang> makes that tool kill the
process (exit code 3, no reply) or never reply; it is read at start-up and never set by the benchmark itself.
"""
from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from tooluse1.mcp.servers import SERVERS, ToolDef

FAULT_ENV = "TOOLUSE1_MCP_FAULT"


def _exposed(fn: Callable[..., dict[str, Any]], fault: str) -> Callable[..., dict[str, Any]]:
    """`fn` as the server runs it: a ValueError becomes a ToolError, so the model reads its message (the SDK
    hides the text of any other exception); `fault` "crash" or "hang" replaces the tool's work."""
    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if fault == "crash":
            os._exit(3)
        if fault == "hang":
            time.sleep(3600)
        try:
            return fn(*args, **kwargs)
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
    return wrapped


def tool_annotations(tool: ToolDef) -> ToolAnnotations:
    """The tool's declared effect as MCP hints: looks_up = read-only, acts = destructive."""
    looks_up = tool.effect == "looks_up"
    return ToolAnnotations(read_only_hint=looks_up, destructive_hint=not looks_up)


def build_server(name: str, fault: str = "") -> MCPServer:
    """The MCP server NAME with its tools registered; `fault` as TOOLUSE1_MCP_FAULT reads."""
    if name not in SERVERS:
        raise SystemExit(f"unknown MCP server {name!r}: use one of {', '.join(SERVERS)}")
    fault_tool, _, fault_kind = fault.partition(":")
    app = MCPServer(f"tooluse1-{name}", log_level="WARNING")
    for tool in SERVERS[name]:
        fn = _exposed(tool.fn, fault_kind if tool.name == fault_tool else "")
        app.add_tool(fn, name=tool.name, description=(tool.fn.__doc__ or "").strip(),
                     annotations=tool_annotations(tool), structured_output=False)
    return app


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit(f"usage: python -m tooluse1.mcp.serve NAME (one of {', '.join(SERVERS)})")
    build_server(args[0], os.environ.get(FAULT_ENV, "")).run()


if __name__ == "__main__":
    main()
