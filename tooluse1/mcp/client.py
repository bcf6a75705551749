"""A synchronous pool of MCP stdio sessions, owned by one asyncio event loop in a background thread.

The SPIN and BASE runners are synchronous; the MCP SDK is async. `McpPool` starts one thread running one
event loop, and on it one *owner* task per server: the owner opens the stdio transport and the session, lists
the tools, and holds both open until the pool closes (an async context must be left by the task that entered
it). Runner threads call `McpPool.call`, which submits the request to the loop and waits for it.

A server that crashes, hangs (no reply within `call_timeout_s`) or answers with an MCP error never raises out
of `call`: the call comes back as a failed `CallResult` naming the cause. A crashed or hung server is marked
down (a hung one is stopped); its next call restarts it, once per task (`begin_task` resets the budget), and
after that its calls fail at once with "server ... is down".
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client

from tooluse1.mcp.servers import SERVERS

__all__ = ["CallResult", "McpPool", "ToolInfo"]

START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class ToolInfo:
    """A tool as its server lists it: name, description, JSON input schema and the effect its MCP hints
    declare ("looks_up" when readOnlyHint is true or no hint is given, "acts" otherwise)."""

    server: str
    name: str
    description: str
    input_schema: dict[str, Any]
    effect: str

    @property
    def qualified(self) -> str:
        """``server.tool``: how plans and prompts name a tool (two servers may share a tool name)."""
        return f"{self.server}.{self.name}"


@dataclass
class CallResult:
    """One tool call's outcome. ok: the server answered without isError; output: its text content (the
    error text when the server reported one); error: why the call failed (server error, crash, timeout,
    unknown server), None when ok."""

    server: str
    tool: str
    arguments: dict[str, Any]
    ok: bool
    output: str
    error: str | None = None
    latency_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"server": self.server, "tool": self.tool, "arguments": self.arguments, "ok": self.ok,
                "output": self.output, "error": self.error, "latency_s": round(self.latency_s, 4)}


@dataclass
class _Owner:
    task: asyncio.Task[None] | None = None
    session: ClientSession | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    up: bool = False
    restarts_left: int = 1
    starts: int = 0


class McpPool:
    """Sessions to `servers` (names of tooluse1.mcp.servers.SERVERS), each its own process.

    Use as a context manager or call `close`. `env` is merged into each server's environment (the tests set
    TOOLUSE1_MCP_FAULT through it, per server via `server_env`)."""

    def __init__(self, servers: Sequence[str], *, call_timeout_s: float = 10.0,
                 server_env: Mapping[str, Mapping[str, str]] | None = None) -> None:
        unknown = [s for s in servers if s not in SERVERS]
        if unknown:
            raise ValueError(f"unknown MCP server(s) {', '.join(unknown)}: use {', '.join(SERVERS)}")
        self.servers = tuple(dict.fromkeys(servers))
        self.call_timeout_s = call_timeout_s
        self._server_env = {k: dict(v) for k, v in (server_env or {}).items()}
        self._tools: dict[str, tuple[ToolInfo, ...]] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tooluse1-mcp", daemon=True)
        self._thread.start()
        self._owners: dict[str, _Owner] = {}
        self._closed = False
        try:
            self._submit(self._start_all(), START_TIMEOUT_S)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ public, synchronous

    def tools(self, servers: Sequence[str] | None = None) -> list[ToolInfo]:
        """The tools the given servers (default: all) listed at start, in server then listing order."""
        return [t for s in (servers or self.servers) for t in self._tools.get(s, ())]

    def begin_task(self) -> None:
        """Start a new task: every server may again be restarted once after a crash or hang."""
        for owner in self._owners.values():
            owner.restarts_left = 1

    def call(self, server: str, tool: str, arguments: Mapping[str, Any]) -> CallResult:
        """Call `tool` on `server` and wait for it; never raises for a server-side failure (module doc)."""
        args = dict(arguments)
        if server not in self._owners:
            return CallResult(server, tool, args, False, "", f"unknown server {server!r}")
        started = time.perf_counter()
        try:
            result = self._submit(self._call(server, tool, args), self.call_timeout_s + 15.0)
        except Exception as exc:   # the loop itself failed to answer: still a failed call, not a lost run
            result = CallResult(server, tool, args, False, "", f"client error: {exc!r}")
        result.latency_s = time.perf_counter() - started
        return result

    def starts(self, server: str) -> int:
        """How many times `server`'s process was started (1 + restarts)."""
        return self._owners[server].starts

    def close(self) -> None:
        """Stop every server process and the loop thread (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._submit(self._stop_all(), 30.0)
        except Exception:   # closing must not mask the caller's error; processes die with their pipes
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10.0)

    def __enter__(self) -> McpPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ loop side

    def _submit(self, coro: Any, timeout: float) -> Any:
        fut: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return fut.result(timeout=timeout)

    async def _start_all(self) -> None:
        for name in self.servers:
            self._owners[name] = _Owner()
        await asyncio.gather(*(self._start(name) for name in self.servers))

    async def _start(self, name: str) -> None:
        owner = self._owners[name]
        owner.stop = asyncio.Event()
        ready: asyncio.Future[None] = self._loop.create_future()
        owner.task = asyncio.create_task(self._own(name, owner, ready))
        owner.starts += 1
        await ready

    async def _own(self, name: str, owner: _Owner, ready: asyncio.Future[None]) -> None:
        env = {**os.environ, **self._server_env.get(name, {})}
        params = StdioServerParameters(command=sys.executable, args=["-m", "tooluse1.mcp.serve", name], env=env)
        try:
            with open(os.devnull, "w") as errlog:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        listed = await session.list_tools()
                        self._tools[name] = tuple(_tool_info(name, t) for t in listed.tools)
                        owner.session, owner.up = session, True
                        if not ready.done():
                            ready.set_result(None)
                        await owner.stop.wait()
        except BaseException as exc:   # a dead transport ends the owner; calls see `up` False
            if not ready.done():
                ready.set_exception(RuntimeError(f"MCP server {name} did not start: {exc!r}"))
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            owner.up, owner.session = False, None

    async def _down(self, owner: _Owner) -> None:
        owner.up = False
        owner.stop.set()
        if owner.task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(owner.task), 10.0)
            except BaseException:   # a transport that will not close cleanly is abandoned
                pass

    async def _call(self, server: str, tool: str, args: dict[str, Any]) -> CallResult:
        owner = self._owners[server]
        if not owner.up or owner.session is None:
            if owner.restarts_left <= 0:
                return CallResult(server, tool, args, False, "", f"server {server} is down (restarted once already)")
            owner.restarts_left -= 1
            await self._down(owner)
            try:
                await self._start(server)
            except Exception as exc:
                return CallResult(server, tool, args, False, "", f"server {server} could not restart: {exc}")
        session = owner.session
        assert session is not None
        try:
            res = await asyncio.wait_for(session.call_tool(tool, args), self.call_timeout_s)
        except asyncio.TimeoutError:
            await self._down(owner)
            return CallResult(server, tool, args, False, "", f"timeout: no reply in {self.call_timeout_s:g} s")
        except Exception as exc:
            crashed = owner.task is None or owner.task.done() or "closed" in repr(exc).lower()
            if crashed:
                await self._down(owner)
            return CallResult(server, tool, args, False, "", f"{'crash' if crashed else 'MCP error'}: {exc!r}")
        text = "\n".join(getattr(c, "text", "") for c in res.content)
        if res.is_error:
            return CallResult(server, tool, args, False, text, f"tool error: {text}")
        return CallResult(server, tool, args, True, _compact(text))

    async def _stop_all(self) -> None:
        await asyncio.gather(*(self._down(o) for o in self._owners.values()))


def _compact(text: str) -> str:
    """A JSON reply re-serialised on one line (servers indent theirs); other text as it came."""
    try:
        return json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        return text.strip()


def _tool_info(server: str, tool: Any) -> ToolInfo:
    hints = tool.annotations
    read_only = True if hints is None or hints.read_only_hint is None else bool(hints.read_only_hint)
    return ToolInfo(server, tool.name, tool.description or "", dict(tool.input_schema),
                    "looks_up" if read_only else "acts")
