"""Scripted MCP agents: a backend that answers BASE's and SPIN's prompts from a task's reference solution,
either perfectly (the oracle) or with one known defect, so that every deterministic column can be shown to
fail (tests_grader/test_mcp.py checks each against the score it must get).

Behaviours (BEHAVIOURS):
  oracle              the reference calls, one dependency level per round, and the reference answer
  wrong_arguments     as the oracle, but the last reference call (it feeds no other) gets a wrong argument
  serial              one call per round (SPIN: a plan where each step depends on the one before)
  ungrounded          as the oracle, but the answer adds a number no tool returned
  skipped_dependency  every call in the first round (SPIN: a plan without dependencies), arguments guessed
                      right, so only the order is wrong
  hallucinated_tool   as the oracle, plus one call of a tool no server offers in the first round (SPIN: a
                      last plan step with that agent; the validator rejects every round's plan, and the last
                      one is read leniently, the unknown agent running as the first listed tool)

The task is recognised by its text inside the prompt, the prompt's kind by the marker its template ends
with. Token counts are whitespace-separated words, a stand-in for a tokenizer.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from tooluse1.backends.base import Capabilities, Completion, DecodingConfig, OnComplete
from tooluse1.mcp.tasks import McpTask, RefCall, Reference, load_references, load_tasks
from tooluse1.prompts import Prompt
from tooluse1.spin.prompts import PLAN_MARKER

__all__ = ["BEHAVIOURS", "UNGROUNDED_CLAIM", "ScriptedMcpBackend", "wrong_value"]

BEHAVIOURS: tuple[str, ...] = ("oracle", "wrong_arguments", "serial", "ungrounded", "skipped_dependency",
                               "hallucinated_tool")
UNGROUNDED_CLAIM = " All told, that comes to 987654.321."
HALLUCINATED_TOOL = "solve_everything"
_ROUND_RE = re.compile(r"This is round (\d+) of")
_CRITIC_RE = re.compile(r"the first (\d+) of the (\d+) steps")


def wrong_value(value: Any) -> Any:
    """A wrong version of an argument value: a number + 1, a string with "zz" appended, a list with its
    first element made wrong."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, list) and value:
        return [wrong_value(value[0]), *value[1:]]
    return f"{value}zz"


class ScriptedMcpBackend:
    """Answers MCP runs' prompts per `behaviour` (module doc)."""

    name = "scripted-mcp"
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, behaviour: str = "oracle", tasks: Sequence[McpTask] | None = None,
                 references: dict[str, Reference] | None = None) -> None:
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown scripted behaviour {behaviour!r}: use one of {', '.join(BEHAVIOURS)}")
        self.behaviour = behaviour
        self.tasks = tuple(tasks or load_tasks())
        self.references = references or load_references()

    def provenance(self) -> dict[str, Any]:
        return {"backend": self.name, "behaviour": self.behaviour}

    def close(self) -> None:
        return None

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]:
        out = []
        for p in prompts:
            text = "\n".join(m.get("content", "") for m in p.messages)
            reply = self._reply(text)
            done = Completion(p.item_id, reply, prompt_tokens=len(text.split()), completion_tokens=len(reply.split()))
            if on_complete:
                on_complete(done)
            out.append(done)
        return out

    # ------------------------------------------------------------------ what the agent would do

    def _task(self, text: str) -> McpTask:
        for t in self.tasks:
            if t.task in text:
                return t
        raise ValueError("scripted MCP backend: the prompt holds no known task text")

    def _calls(self, ref: Reference) -> list[tuple[RefCall, dict[str, Any]]]:
        """The reference calls with the arguments this behaviour sends."""
        out = [(c, dict(c.arguments)) for c in ref.calls]
        if self.behaviour == "wrong_arguments":
            last, args = out[-1]
            key = next(iter(args))
            out[-1] = (last, {**args, key: wrong_value(args[key])})
        return out

    def _rounds(self, ref: Reference) -> list[list[dict[str, Any]]]:
        calls = [{"tool": f"{c.server}.{c.tool}", "parameters": a} for c, a in self._calls(ref)]
        if self.behaviour == "serial":
            rounds = [[c] for c in calls]
        elif self.behaviour == "skipped_dependency":
            rounds = [calls]
        else:
            rounds = [[] for _ in range(ref.levels)]
            for c, (rc, _) in zip(calls, self._calls(ref)):
                rounds[rc.level].append(c)
        if self.behaviour == "hallucinated_tool":
            rounds[0].append({"tool": f"{ref.calls[0].server}.{HALLUCINATED_TOOL}", "parameters": {}})
        return rounds

    def _plan(self, ref: Reference) -> str:
        ids = [c.id for c in ref.calls]
        blocks = []
        for n, c in enumerate(ref.calls, 1):
            if self.behaviour == "serial":
                deps = [n - 1] if n > 1 else []
            elif self.behaviour == "skipped_dependency":
                deps = []
            else:
                deps = sorted(ids.index(p) + 1 for p, ch in ref.edges if ch == c.id)
            blocks.append(f"#Task{n}: Call {c.tool} for this part of the request\n#Agent{n}: {c.server}.{c.tool}\n"
                          f"#Dependency{n}: {' '.join(f'#S{d}' for d in deps) or 'None'}\n"
                          f"#ExpectedOutput{n}: The result of {c.tool}")
        if self.behaviour == "hallucinated_tool":
            n = len(ref.calls) + 1
            blocks.append(f"#Task{n}: Check everything at once\n#Agent{n}: {ref.calls[0].server}.{HALLUCINATED_TOOL}\n"
                          f"#Dependency{n}: None\n#ExpectedOutput{n}: Everything")
        return "\n".join(blocks)

    def _reply(self, text: str) -> str:
        task = self._task(text)
        ref = self.references[task.id]
        stripped = text.rstrip()
        if stripped.endswith("Your JSON for this round:"):
            r = int(_ROUND_RE.findall(text)[-1]) - 1
            rounds = self._rounds(ref)
            planned = rounds[r] if r < len(rounds) else []
            return json.dumps({"reasoning": "next calls", "should_continue": bool(planned),
                               "planned_tools": planned})
        if stripped.endswith(PLAN_MARKER):
            return self._plan(ref)
        if "You are the SIMULATOR" in text:
            return "A plausible output of the tool."
        if stripped.endswith("Your JSON verdict:"):
            k, n = map(int, _CRITIC_RE.findall(text)[-1])
            whole = k == n
            return json.dumps({"status": "Accomplished" if whole else "Partially accomplished",
                               "can_answer_now": whole, "rationale": "judged against the reference"})
        step = re.search(r"Arguments JSON for #S(\d+):\s*$", stripped)
        if step:
            calls = self._calls(ref)
            k = int(step.group(1))
            return json.dumps(calls[k - 1][1] if k <= len(calls) else {})
        if stripped.endswith("Answer:"):
            return ref.answer + (UNGROUNDED_CLAIM if self.behaviour == "ungrounded" else "")
        raise ValueError(f"scripted MCP backend: unknown prompt kind for task {task.id}: {stripped[-80:]!r}")
