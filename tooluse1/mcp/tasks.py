"""The two-server MCP tasks (tasks.yaml) and their reference solver.

`load_tasks` reads tasks.yaml and checks it (every problem is reported with the task id and the fix).
`solve` runs a task's reference calls against the running servers (an McpPool), substituting the outputs
the earlier calls really returned, and derives what the deterministic scores need: the dependency edges,
the dependency levels (calls of one level can run in parallel), the pairs of calls that may run in
parallel, and the facts the final answer must state, each read from the output that grounds it.
`build_references` writes every task's Reference to references.json (package data, so scoring needs no
server); the tests solve again against live servers and compare.
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from tooluse1.errors import ToolUse1Error
from tooluse1.mcp.servers import SERVERS

if TYPE_CHECKING:
    from tooluse1.mcp.client import McpPool

__all__ = ["REFERENCES_PATH", "TASKS_PATH", "TIME_SERVER", "McpTask", "McpTaskError", "RefCall", "Reference",
           "build_references", "load_references", "load_tasks", "resolve", "solve"]

TASKS_PATH = Path(__file__).with_name("tasks.yaml")
REFERENCES_PATH = Path(__file__).with_name("references.json")
TIME_SERVER = "time"   # joins every task (MCP-Bench's resident server); no task needs it
_PLACEHOLDER = re.compile(r"\{(c\d+)((?:\.[A-Za-z0-9_]+)*)\}")


class McpTaskError(ToolUse1Error, ValueError):
    """tasks.yaml is malformed; the message names the task and what to fix."""


@dataclass(frozen=True)
class McpTask:
    """One task: id, its two servers (plus TIME_SERVER when run), the fuzzy text the agent sees, the
    reference calls in order ({id: {tool: "server.tool", arguments}}), extra edges, fact and answer templates."""

    id: str
    servers: tuple[str, str]
    task: str
    calls: dict[str, dict[str, Any]]
    after: dict[str, tuple[str, ...]]
    facts: tuple[str, ...]
    answer: str

    @property
    def all_servers(self) -> tuple[str, ...]:
        return (*self.servers, TIME_SERVER)

    def edges(self) -> list[tuple[str, str]]:
        """(parent, child) call ids: a child quotes the parent's output, or `after` names the parent."""
        out: list[tuple[str, str]] = []
        for cid, call in self.calls.items():
            parents = set(_placeholders(call["arguments"])) | set(self.after.get(cid, ()))
            out += [(p, cid) for p in sorted(parents, key=list(self.calls).index)]
        return out


def _placeholders(value: Any) -> list[str]:
    if isinstance(value, str):
        return [m.group(1) for m in _PLACEHOLDER.finditer(value)]
    if isinstance(value, Mapping):
        return [p for v in value.values() for p in _placeholders(v)]
    if isinstance(value, list):
        return [p for v in value for p in _placeholders(v)]
    return []


def _lookup(outputs: Mapping[str, Any], cid: str, path: str) -> Any:
    value = outputs[cid]
    for key in filter(None, path.split(".")):
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def resolve(template: Any, outputs: Mapping[str, Any]) -> Any:
    """`template` with every "{cN.path}" replaced from `outputs` (call id -> parsed JSON output); a string
    that is exactly one placeholder becomes the value itself (a number stays a number)."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole:
            return _lookup(outputs, whole.group(1), whole.group(2))
        return _PLACEHOLDER.sub(lambda m: _text(_lookup(outputs, m.group(1), m.group(2))), template)
    if isinstance(template, Mapping):
        return {k: resolve(v, outputs) for k, v in template.items()}
    if isinstance(template, list):
        return [resolve(v, outputs) for v in template]
    return template


def _text(value: Any) -> str:
    """A value as an answer writes it: a float in plain decimals (4.2e-05 reads 0.000042)."""
    if isinstance(value, float):
        return format(Decimal(repr(value)), "f")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _check_task(raw: Any, seen: set[str]) -> McpTask:
    tid = raw.get("id") if isinstance(raw, dict) else None
    where = f"{TASKS_PATH.name}: task {tid!r}"
    if not isinstance(raw, dict) or not isinstance(tid, str):
        raise McpTaskError(f"{TASKS_PATH.name}: every entry needs an `id` string; got {raw!r:.80}")
    if tid in seen:
        raise McpTaskError(f"{where}: duplicate id; give each task its own id")
    servers = tuple(raw.get("servers") or ())
    if len(servers) != 2 or servers[0] == servers[1] or any(s not in SERVERS or s == TIME_SERVER for s in servers):
        names = ", ".join(s for s in SERVERS if s != TIME_SERVER)
        raise McpTaskError(f"{where}: `servers` must name two different servers of {names}")
    calls = raw.get("calls")
    if not isinstance(calls, dict) or not calls:
        raise McpTaskError(f"{where}: `calls` must map call ids c1, c2, ... to {{tool, arguments}}")
    tools = {f"{s}.{t.name}" for s in servers for t in SERVERS[s]}
    for i, (cid, call) in enumerate(calls.items(), 1):
        if cid != f"c{i}":
            raise McpTaskError(f"{where}: call ids must be c1, c2, ... in order; found {cid!r} at position {i}")
        if call.get("tool") not in tools:
            raise McpTaskError(f"{where}: {cid} calls {call.get('tool')!r}; use one of {', '.join(sorted(tools))}")
        later = [p for p in _placeholders(call.get("arguments", {})) if int(p[1:]) >= i]
        if later:
            raise McpTaskError(f"{where}: {cid} quotes {', '.join(later)}, which is not an earlier call")
    after = {k: tuple(v) for k, v in (raw.get("after") or {}).items()}
    for cid, parents in after.items():
        if cid not in calls or any(p not in calls or int(p[1:]) >= int(cid[1:]) for p in parents):
            raise McpTaskError(f"{where}: `after` {cid}: {list(parents)} must name earlier calls of this task")
    for key in ("task", "answer"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise McpTaskError(f"{where}: `{key}` must be a non-empty string")
    facts = tuple(raw.get("facts") or ())
    if not facts:
        raise McpTaskError(f"{where}: `facts` must list what the answer has to state")
    seen.add(tid)
    return McpTask(tid, (servers[0], servers[1]), " ".join(raw["task"].split()), dict(calls), after, facts,
                   " ".join(raw["answer"].split()))


@functools.cache
def load_tasks(path: Path = TASKS_PATH) -> tuple[McpTask, ...]:
    """Every task of tasks.yaml, checked (McpTaskError names the task and the fix)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    seen: set[str] = set()
    return tuple(_check_task(entry, seen) for entry in raw)


@dataclass(frozen=True)
class RefCall:
    """One reference call with the arguments the solver sent and the output the server returned."""

    id: str
    server: str
    tool: str
    arguments: dict[str, Any]
    output: str
    level: int          # 0 = needs no other call; n = one more than its deepest parent


@dataclass(frozen=True)
class Reference:
    """A task's reference solution: calls, edges (parent id, child id), pairs of call ids that run in
    parallel in the shortest schedule (same dependency level, so no path between them), facts (value, id of
    the call whose output grounds it) and the answer."""

    task_id: str
    calls: tuple[RefCall, ...]
    edges: tuple[tuple[str, str], ...]
    parallel_pairs: tuple[tuple[str, str], ...]
    facts: tuple[tuple[Any, str], ...]
    answer: str

    @property
    def levels(self) -> int:
        return 1 + max(c.level for c in self.calls)

    def as_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(asdict(self)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Reference:
        return cls(d["task_id"], tuple(RefCall(**c) for c in d["calls"]), tuple(map(tuple, d["edges"])),
                   tuple(map(tuple, d["parallel_pairs"])), tuple((v, c) for v, c in d["facts"]), d["answer"])


class SolveError(ToolUse1Error, RuntimeError):
    """A reference call failed against the servers: the task or the fixture is wrong."""


def solve(task: McpTask, pool: McpPool) -> Reference:
    """Run the task's reference calls in order against `pool` and derive its Reference (module doc).
    Raises SolveError naming the call when a server does not answer it."""
    outputs: dict[str, Any] = {}
    edges = task.edges()
    level: dict[str, int] = {}
    calls = []
    for cid, call in task.calls.items():
        server, tool = call["tool"].split(".", 1)
        args = resolve(call.get("arguments", {}), outputs)
        result = pool.call(server, tool, args)
        if not result.ok:
            raise SolveError(f"task {task.id}: {cid} {call['tool']}({args}) failed: {result.error}")
        outputs[cid] = json.loads(result.output)
        level[cid] = max((level[p] + 1 for p, c in edges if c == cid), default=0)
        calls.append(RefCall(cid, server, tool, args, result.output, level[cid]))
    ids = list(task.calls)
    pairs = tuple((a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if level[a] == level[b])
    facts = []
    for template in task.facts:
        refs = _placeholders(template)
        value = resolve(template, outputs)
        source = refs[0] if refs else next((c.id for c in calls if template.lower() in c.output.lower()), "")
        if not source:
            raise SolveError(f"task {task.id}: fact {template!r} is in no reference output; quote an output")
        facts.append((value, source))
    return Reference(task.id, tuple(calls), tuple(edges), pairs, tuple(facts), resolve(task.answer, outputs))


def build_references(pool: McpPool, tasks: Sequence[McpTask] | None = None) -> dict[str, Reference]:
    """Solve every task; write references.json (sorted keys, one task per key) and return the references."""
    refs = {t.id: solve(t, pool) for t in (tasks or load_tasks())}
    REFERENCES_PATH.write_text(json.dumps({k: r.as_dict() for k, r in refs.items()}, ensure_ascii=False, indent=1)
                               + "\n", encoding="utf-8")
    return refs


@functools.cache
def load_references() -> dict[str, Reference]:
    """The stored references (references.json), by task id; build them with `python -m tooluse1.mcp build`."""
    if not REFERENCES_PATH.exists():
        raise McpTaskError(f"{REFERENCES_PATH} is missing: run `python -m tooluse1.mcp build`")
    raw = json.loads(REFERENCES_PATH.read_text(encoding="utf-8"))
    return {k: Reference.from_dict(v) for k, v in raw.items()}
