"""BASE and SPIN as MCP clients: the paper's §4.4 (Table 4) on ToolUse.1's own MCP servers.

Both agents run one task (tooluse1/mcp/tasks.yaml) against live server processes (an McpPool that holds the
task's two servers plus `time`) and return an McpRunRecord that tooluse1.mcp.metrics scores. Both are
synchronous and talk to any backend (transformers, openai, scripted) through `ModelClient`, which records
every model call's role and token counts.

BASE is MCP-Bench's round loop: each round the model gets the task, the tools (`server.tool`, description,
one line per parameter: `tool_catalogue`) and every earlier round's results, and answers one JSON object
{"reasoning", "should_continue", "planned_tools": [{"tool", "parameters"}]}; the planned calls of a round run
together. The loop ends when the model stops (should_continue false or no calls), writes no readable JSON, or after
`max_rounds` (20, MCP-Bench's cap); then one final-answer call. Rounds = planning rounds + the answer.

SPIN is the track's planner with the trajectory store off (no past outputs: the simulator predicts from the
model's prior alone; recorded as notes.trajectory_store = "off"): the plan grammar of tooluse1/spin/plan.py
with the tools as agents; validation and repair for up to `repair_rounds` rounds; for a valid plan the
prefix loop (simulate step k, the critic judges steps 1..k, the track's `code` stop rule) and, when the
critic does not accept, a repair with its feedback. The accepted prefix (or, after the last round, the last
plan read leniently) runs one dependency level at a time; each step asks the model for its arguments as one
JSON object, given the tool's parameters and the outputs of the steps it depends on. Rounds = executed
levels + the answer.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tooluse1.backends.base import Backend, DecodingConfig
from tooluse1.mcp.client import McpPool, ToolInfo
from tooluse1.mcp.metrics import ExecutedCall, McpRunRecord
from tooluse1.mcp.tasks import McpTask
from tooluse1.parse import strip_thinking
from tooluse1.prompts import Prompt
from tooluse1.spin.critic import SpinFeedback, accepts, parse_critic_output, stops_prefix_loop
from tooluse1.spin.plan import Plan, PlanStep, StepRun, lenient_plan, parse_plan, validate_plan_text
from tooluse1.spin.prompts import (answer_prompt_text, build_repair_prompt, critic_prompt_text,
                                   planner_prompt_for, simulator_prompt_text, step_line)
from tooluse1.spin.runner import dependency_levels

__all__ = ["AGENTS", "BASE_MAX_ROUNDS", "BASE_ROUND_MARKER", "MCP_ROLE_CAPS", "STEP_MARKER", "ModelClient",
           "first_json_object", "parameter_lines", "resolve_tool", "result_line", "run_base", "run_spin",
           "tool_catalogue"]

AGENTS: tuple[str, ...] = ("base", "spin")
BASE_MAX_ROUNDS = 20
SPIN_REPAIR_ROUNDS = 3
SPIN_MAX_STEPS = 8           # "fewer than 8 steps": the longest reference solution has 5 calls
BASE_ROUND_MARKER = "Your JSON for this round:"
STEP_MARKER = "Arguments JSON for #S"
# New-token caps per role. A round's JSON and a plan are longest; a verdict and arguments short.
MCP_ROLE_CAPS: dict[str, int] = {"round": 768, "plan": 1024, "repair": 1024, "simulate": 96, "critic": 256,
                                 "step": 160, "answer": 256}


@dataclass
class ModelClient:
    """One backend, one prompt at a time, every call recorded in `calls` as {role, prompt_tokens,
    completion_tokens, latency_s} (tokens as the backend reports them; None where it does not)."""

    backend: Backend
    task_id: str
    caps: Mapping[str, int] = field(default_factory=lambda: dict(MCP_ROLE_CAPS))
    calls: list[dict[str, Any]] = field(default_factory=list)

    def ask(self, role: str, text: str) -> str:
        """The model's reply to `text` (one user message), reasoning blocks cut; "" when the backend failed."""
        n = len(self.calls)
        prompt = Prompt(item_id=f"{self.task_id}-mcp-{role}-{n}", case_id=self.task_id, protocol="mcp",
                        messages=({"role": "user", "content": text},), shared_prefix_key=f"{self.task_id}:{n}")
        [done] = self.backend.generate([prompt], DecodingConfig(max_new_tokens=self.caps[role]))
        self.calls.append({"role": role, "prompt_tokens": done.prompt_tokens,
                           "completion_tokens": done.completion_tokens, "latency_s": round(done.latency_s, 3),
                           "error": done.error})
        return strip_thinking(done.text)[0]


def _schema_type(schema: Mapping[str, Any]) -> str:
    """A JSON-schema fragment's type in words: ``number``, ``array of number``, ``string or null``."""
    if "anyOf" in schema or "oneOf" in schema:
        return " or ".join(dict.fromkeys(_schema_type(s) for s in schema.get("anyOf", schema.get("oneOf", []))))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"array of {_schema_type(schema['items'])}"
    return str(kind) if kind else "any"


def parameter_lines(input_schema: Mapping[str, Any]) -> list[str]:
    """One line per parameter of a tool's JSON input schema, in schema order:
    ``name (type, required|optional[, default X][, one of A|B]): description`` (the description part only
    where the schema gives one; a default as JSON, so a string default reads quoted). Never a JSON-schema
    fragment: a small model copied those into its arguments (BENCHMARKS.md, issue 33 step 6)."""
    required = set(input_schema.get("required", []))
    lines = []
    for name, spec in (input_schema.get("properties") or {}).items():
        spec = spec if isinstance(spec, Mapping) else {}
        facts = [_schema_type(spec), "required" if name in required else "optional"]
        if "default" in spec:
            facts.append(f"default {json.dumps(spec['default'], ensure_ascii=False)}")
        if spec.get("enum"):
            facts.append("one of " + "|".join(str(v) for v in spec["enum"]))
        description = " ".join(str(spec.get("description", "")).split())
        lines.append(f"{name} ({', '.join(facts)})" + (f": {description}" if description else ""))
    return lines


def tool_catalogue(tools: Sequence[ToolInfo]) -> str:
    """The tools as every MCP prompt lists them (BASE's rounds, SPIN's steps): ``- server.tool: description``,
    then one indented ``parameter_lines`` line per parameter (``(no parameters)`` for none)."""
    lines = []
    for t in tools:
        lines.append(f"- {t.qualified}: {' '.join(t.description.split())}")
        lines += [f"    {p}" for p in parameter_lines(t.input_schema) or ["(no parameters)"]]
    return "\n".join(lines)


def first_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in `text` (after any prose or a ``` fence), or None."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def resolve_tool(name: str, tools: Sequence[ToolInfo]) -> ToolInfo | None:
    """The offered tool `name` means: ``server.tool`` exactly, ``server:tool`` or ``server__tool``, or a bare
    tool name that exactly one offered server has; None otherwise (the call is then a failed call)."""
    name = name.strip()
    for sep in (":", "__", "/"):
        if sep in name and "." not in name:
            name = name.replace(sep, ".", 1)
    exact = [t for t in tools if t.qualified == name]
    if exact:
        return exact[0]
    bare = [t for t in tools if t.name == name]
    return bare[0] if len(bare) == 1 else None


def _execute(pool: McpPool, tools: Sequence[ToolInfo], round_no: int, name: str, args: Any) -> ExecutedCall:
    tool = resolve_tool(name, tools) if isinstance(name, str) else None
    if tool is None:
        return ExecutedCall(round_no, str(name), args if isinstance(args, dict) else {}, False,
                            error=f"unknown tool {name!r}")
    if not isinstance(args, dict):
        return ExecutedCall(round_no, tool.qualified, {}, False, error=f"arguments must be an object; got {args!r:.80}")
    res = pool.call(tool.server, tool.name, args)
    return ExecutedCall(round_no, tool.qualified, args, res.ok, res.output, res.error)


def result_line(c: ExecutedCall) -> str:
    """One call as the prompts show it: ``- server.tool({arguments}) -> output`` (or ``-> FAILED: why``)."""
    outcome = c.output if c.ok else f"FAILED: {c.error}"
    return f"- {c.tool}({json.dumps(c.arguments, ensure_ascii=False)}) -> {outcome}"


# ----------------------------------------------------------------------------- BASE

_BASE_TEMPLATE = """\
You solve the user's task by calling tools on MCP servers, over several rounds. Each round you choose the \
tool calls to run now; the calls of one round run in parallel, so one round holds only calls that do not need \
each other's results. Later rounds see the results of earlier ones.

Available tools, each with its parameters (one per line):
{tools}

Task:
{task}

Results so far:
{results}

This is round {round} of at most {max_rounds}. Reply with one JSON object and nothing else:
{{"reasoning": "<one sentence>", "should_continue": true, "planned_tools": [{{"tool": "<server.tool>", \
"parameters": {{...}}}}]}}
When the results above are enough to answer the task, reply {{"reasoning": "...", "should_continue": false, \
"planned_tools": []}}.
""" + BASE_ROUND_MARKER


def _final_answer_prompt(task: McpTask, calls: Sequence[ExecutedCall]) -> str:
    results = "\n".join(result_line(c) for c in calls) or "(no tool was run)"
    return (f"Task:\n{task.task}\n\nTool results:\n{results}\n\nAnswer the task for the user using the tool "
            "results above: state the numbers and facts as the tools gave them, in plain text, and do not "
            "write any tool call.\n\nAnswer:")


def run_base(task: McpTask, pool: McpPool, backend: Backend, max_rounds: int = BASE_MAX_ROUNDS,
             caps: Mapping[str, int] | None = None, offered_servers: Sequence[str] | None = None) -> McpRunRecord:
    """Run `task` with MCP-Bench's round loop (module doc); never raises for a failed call or a bad reply.
    `offered_servers` (default: the task's servers and time) are the servers whose tools the prompt lists."""
    tools = pool.tools(offered_servers or task.all_servers)
    client = ModelClient(backend, task.id, dict(caps or MCP_ROLE_CAPS))
    calls: list[ExecutedCall] = []
    notes: dict[str, Any] = {"unreadable_rounds": 0, "max_rounds": max_rounds}
    rounds = 0
    for r in range(max_rounds):
        rounds += 1
        history: list[str] = []
        for k in range(r):
            history.append(f"Round {k + 1}:")
            history += [result_line(c) for c in calls if c.round == k] or ["- (no calls)"]
        reply = client.ask("round", _BASE_TEMPLATE.format(
            tools=tool_catalogue(tools), task=task.task, results="\n".join(history) or "(none yet)",
            round=r + 1, max_rounds=max_rounds))
        plan = first_json_object(reply)
        if plan is None:
            notes["unreadable_rounds"] += 1
            break
        planned = plan.get("planned_tools") or []
        if not isinstance(planned, list):
            planned = []
        for entry in planned:
            entry = entry if isinstance(entry, dict) else {}
            calls.append(_execute(pool, tools, r, entry.get("tool", ""),
                                  entry.get("parameters", entry.get("arguments", {}))))
        if not planned or plan.get("should_continue") is False:
            break
    answer = client.ask("answer", _final_answer_prompt(task, calls))
    return McpRunRecord(task.id, "base", calls, answer, rounds + 1, client.calls, notes)


# ----------------------------------------------------------------------------- SPIN

def _step_prompt(task: McpTask, step: PlanStep, tool: ToolInfo | None, done: Mapping[int, tuple[PlanStep, str]]
                 ) -> str:
    lines = [f"Overall request (context only): {task.task}",
             f"Your task now (step {step.index} of a plan): {step.task}",
             f"Tool:\n{tool_catalogue([tool]) if tool else step.agent}"]
    if step.dependencies:
        lines.append("Outputs of the earlier steps this step depends on:")
        lines += [f"{step_line(done[d][0])}: {done[d][1]}" for d in step.dependencies if d in done]
    lines.append(f"Reply with the tool's arguments as one JSON object only.\n{STEP_MARKER}{step.index}:")
    return "\n".join(lines)


def _prefix_loop(client: ModelClient, task: McpTask, plan: Plan) -> tuple[bool, int, SpinFeedback]:
    """Simulate and judge prefixes 1..N (the `code` stop rule); (accepted, stop index, feedback)."""
    simulated: list[str] = []
    verdict = None
    stop = len(plan)
    for k in range(1, len(plan) + 1):
        simulated.append(" ".join(client.ask("simulate", simulator_prompt_text(task.task, plan, k, [])).split())
                         [:500])
        verdict = parse_critic_output(client.ask("critic", critic_prompt_text(task.task, plan, k, simulated)))
        if stops_prefix_loop(verdict, "code"):
            stop = k
            break
    assert verdict is not None
    return accepts(verdict), stop, SpinFeedback.from_verdict(verdict, stop)


def run_spin(task: McpTask, pool: McpPool, backend: Backend, repair_rounds: int = SPIN_REPAIR_ROUNDS,
             caps: Mapping[str, int] | None = None, offered_servers: Sequence[str] | None = None) -> McpRunRecord:
    """Run `task` with the SPIN planner over MCP (module doc); never raises for a failed call or bad reply.
    `offered_servers` as run_base takes them."""
    tools = pool.tools(offered_servers or task.all_servers)
    agents = [t.qualified for t in tools]
    client = ModelClient(backend, task.id, dict(caps or MCP_ROLE_CAPS))
    base_prompt = planner_prompt_for(task.task, [(t.qualified, " ".join(t.description.split())) for t in tools],
                                     SPIN_MAX_STEPS)
    plan_text = client.ask("plan", base_prompt)
    notes: dict[str, Any] = {"trajectory_store": "off", "repair_rounds": 0, "accepted": False, "stop_rule": "code"}
    executed: Plan | None = None
    for _ in range(repair_rounds):
        valid, issues = validate_plan_text(plan_text, agents)
        feedback = None
        if valid:
            plan = parse_plan(plan_text, agents)
            accepted, stop, feedback = _prefix_loop(client, task, plan)
            if accepted:
                executed, notes["accepted"] = plan.prefix(stop), True
                break
        notes["repair_rounds"] += 1
        plan_text = client.ask("repair", build_repair_prompt(base_prompt, plan_text, issues, feedback,
                                                             spin_rules=True))
    if executed is None:
        executed = lenient_plan(plan_text, agents).plan
    notes["executed_steps"] = len(executed) if executed else 0
    calls: list[ExecutedCall] = []
    runs: list[StepRun] = []
    done: dict[int, tuple[PlanStep, str]] = {}
    levels = dependency_levels(executed) if executed else []
    for level_no, level in enumerate(levels):
        for step in level:
            tool = resolve_tool(step.agent, tools)
            reply = client.ask("step", _step_prompt(task, step, tool, done))
            args = first_json_object(reply)
            call = _execute(pool, tools, level_no, step.agent, args if args is not None else reply[:200])
            calls.append(call)
            output = call.output if call.ok else f"failed ({call.error})"
            done[step.index] = (step, output)
            runs.append(StepRun(step.index, step.agent, step.task, list(step.dependencies), reply,
                                {"name": call.tool, "arguments": call.arguments}, call.ok, call.output, call.error))
    answer = client.ask("answer", answer_prompt_text(task.task, runs))
    return McpRunRecord(task.id, "spin", calls, answer, len(levels) + 1, client.calls, notes)

