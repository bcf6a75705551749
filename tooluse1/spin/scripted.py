"""Scripted SPIN roles with controlled behaviour, for the study of when SPIN pays (benchmarks/spin_study.py).

`ScriptedSpinBackend` is a Backend that answers every prompt of the SPIN runner from the scenario and a
seeded `Behaviour`; nothing else in the pipeline is replaced: plans go through the real validator and
repair loop, prefixes through the real critic parser and stopping rule, steps through the real executor
and World, runs through the real scoring. No model is loaded and no trajectory store is needed (the
scripted simulator reads none). Every role reads only what its prompt shows (plus the scenario, which a
model would know from the question), so it acts on what the pipeline really sent:

    plan      the *intended plan* (the scenario's reference plan - required, then allowed calls, with their
              dependencies - plus each tempting call with probability `tempting_rate`, appended without a
              dependency), which with probability `defect_rate` carries one structural defect of the paper's
              Table 1 (family drawn from `defect_weights`, uniform by default; `inject_defect`)
    repair    a prompt that lists validator issues gets the intended plan with probability `repair_rate`,
              else the same defective draft again; a prompt without issues (SPIN feedback on a valid plan)
              gets the intended plan (the repair rules: "output the Original Plan as-is")
    simulate  the World's real output of the step's call (a perfect simulator)
    critic    judges prefix 1..k from the calls its prompt lists: the right verdict (Accomplished /
              can_answer_now true when scoring the prefix's calls with the reference answer gives
              Accomplished, else Partially accomplished / false) with probability `critic_accuracy`, else
              the other one
    step      the call written in the step's task, provided the outputs of the reference calls it depends on
              are in the prompt (a value taken from an earlier output cannot be known otherwise); else no call
    answer    the scenario's reference answer when the tool results hold every required call's output, else
              a reply saying the tools did not give enough

Randomness: each draw comes from sha256(seed, the draw's name, scenario, prompt text), so a run does not
depend on scheduling, identical prompts get identical answers (as greedy decoding would; the runner also
de-duplicates them), and behaviours that differ only in one rate share every other draw (a critic of
accuracy 0.9 errs on a subset of the prompts a critic of 0.8 errs on: common random numbers).

Depends on the runner's current interfaces (see the study's notes in BENCHMARKS.md): each prompt's role
(runner.SpinPrompt, read with runner.role_of), the task line ``Your task now (step i of a plan): ...`` of
executor prompts, the step lines ``#S<i> (<agent>: <task>)`` of simulator/critic prompts, the "Issues detected
by the validator" heading of repair prompts and the "Tool results" section of answer prompts
(spin/prompts.py).
"""
from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tooluse1.prompts import Prompt, format_call
from tooluse1.spin.plan import RULES, Plan, PlanStep
from tooluse1.spin.runner import SpinOracleBackend, role_of
from tooluse1.spin.scenarios import Scenario, call_signature
from tooluse1.spin.scoring import score_run
from tooluse1.spin.store import ACCOMPLISHED, PARTIALLY
from tooluse1.tools import Call
from tooluse1.world import World

__all__ = ["Behaviour", "ScriptedSpinBackend", "critic_verdict", "draft_plan", "inject_defect", "intended_plan",
           "prefix_sufficient", "step_calls"]

_NO_ANSWER = "The tools did not give me everything needed to answer this."
_NO_CALL = "I cannot make this call: the output of the step it depends on was not given to me."
_ISSUES_HEADING = "Issues detected by the validator:"
_TASK_LINE_RE = re.compile(r"^Your task now \(step \d+ of a plan\): (.*)$", re.M)
_STEP_LINE_RE = re.compile(r"^#S(\d+) \((\w+): ", re.M)
_CALL_RE = re.compile(r"Call (\w+) with ")


def _check_rate(value: float, what: str) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{what} must be in [0, 1]; got {value}")


@dataclass(frozen=True)
class Behaviour:
    """What the scripted roles do (module docstring). Rates are probabilities in [0, 1]; `defect_weights`
    maps Table 1 families (plan.RULES) to relative weights (None: uniform over all seven)."""

    seed: int = 0
    defect_rate: float = 0.0
    repair_rate: float = 1.0
    critic_accuracy: float = 1.0
    tempting_rate: float = 0.5
    defect_weights: Mapping[str, float] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        for name in ("defect_rate", "repair_rate", "critic_accuracy", "tempting_rate"):
            _check_rate(getattr(self, name), name)
        weights = self.defect_weights or {}
        bad = sorted(set(weights) - set(RULES))
        if bad or any(w < 0 for w in weights.values()) or (weights and not sum(weights.values())):
            raise ValueError(f"defect_weights: families must be among {', '.join(RULES)} with weights >= 0, "
                             f"not all 0; got {dict(weights)}")

    def draw(self, *parts: object) -> random.Random:
        """A generator seeded by the seed and `parts` only (module docstring: randomness)."""
        digest = hashlib.sha256(json.dumps([self.seed, *map(str, parts)]).encode("utf-8")).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def family(self, rng: random.Random) -> str:
        """A defect family drawn from defect_weights (uniform over RULES without them)."""
        weights = self.defect_weights or dict.fromkeys(RULES, 1.0)
        families = [f for f in RULES if weights.get(f, 0) > 0]
        return rng.choices(families, [weights[f] for f in families])[0]


# ----------------------------------------------------------------------------- plans

def _task(call: Call) -> str:
    return f"Call {call.name} with {json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)}"


def intended_plan(scenario: Scenario, behaviour: Behaviour) -> Plan:
    """The plan the scripted planner means to write: the reference plan, then each tempting call with
    probability tempting_rate (drawn once per seed and scenario), every step's task naming its call."""
    rng = behaviour.draw("tempting", scenario.id)
    tempting = [c for c in scenario.tempting_calls if rng.random() < behaviour.tempting_rate]
    steps = [PlanStep(i, _task(rc.call), rc.name, rc.depends_on, f"The result of {rc.name}")
             for i, rc in enumerate(scenario.reference_calls, 1)]
    steps += [PlanStep(len(steps) + i, _task(c), c.name, (), f"The result of {c.name}")
              for i, c in enumerate(tempting, 1)]
    return Plan(tuple(steps))


_Line = list[Any]   # [label, number, value]


def _lines(plan: Plan) -> list[_Line]:
    return [[label, s.index, value] for s in plan.steps
            for label, value in (("Task", s.task), ("Agent", s.agent), ("Dependency", s.dependency_text),
                                 ("ExpectedOutput", s.expected_output))]


def _moved_before(plan: Plan, rng: random.Random) -> list[_Line] | None:
    """Steps out of order: a step moved in front of one of its dependencies (then it refers forward);
    None when no step has a dependency."""
    dependent = [s for s in plan.steps if s.dependencies]
    if not dependent:
        return None
    moved = rng.choice(dependent)
    target = rng.choice(moved.dependencies)
    order = [s.index for s in plan.steps if s.index != moved.index]
    order.insert(target - 1, moved.index)
    new = {old: i for i, old in enumerate(order, 1)}
    steps = [PlanStep(new[s.index], s.task, s.agent, (), s.expected_output) for s in plan.steps]
    lines = _lines(Plan(tuple(sorted(steps, key=lambda s: s.index))))
    deps = {new[s.index]: " ".join(f"#S{new[d]}" for d in s.dependencies) or "None" for s in plan.steps}
    for line in lines:
        if line[0] == "Dependency":
            line[2] = deps[line[1]]
    return lines


def _with_dependency(lines: list[_Line], step: int, value: str) -> list[_Line]:
    for line in lines:
        if line[0] == "Dependency" and line[1] == step:
            line[2] = value
    return lines


def inject_defect(plan: Plan, family: str, rng: random.Random) -> str:
    """The plan's text with one defect of `family` (a plan.RULES family), written as models write it:

    LINES_MISSING                 no ExpectedOutput lines at all (the validator also reports the counts)
    NUMBERS_NOT_SEQ               the last step numbered one too high (a skipped number)
    COUNTS_MISMATCH               the plan cut off after the first line of one more step
    DEPENDENCY_FORMAT_INVALID     one step's dependency as a list ``[#S1, #S2]``, or ``none``
    DEPENDENCY_OUT_OF_RANGE       one step depending on ``#S0`` instead of its dependencies
    DEPENDENCY_FORWARD_REFERENCE  a step moved in front of one of its dependencies (or, in a plan without
                                  dependencies, a step depending on itself)
    AGENT_UNKNOWN                 one step's agent in CamelCase

    The real validator reports `family` for the text (tests_grader/test_spin_study.py checks it)."""
    n = len(plan)
    lines = _lines(plan)
    step = rng.choice(plan.steps)
    if family == "LINES_MISSING":
        lines = [line for line in lines if line[0] != "ExpectedOutput"]
    elif family == "NUMBERS_NOT_SEQ":
        lines = [[label, num + 1 if num == n else num, value] for label, num, value in lines]
    elif family == "COUNTS_MISMATCH":
        lines.append(["Task", n + 1, f"Check the results of steps 1 to {n}"])
    elif family == "DEPENDENCY_FORMAT_INVALID":
        value = "[" + ", ".join(f"#S{d}" for d in step.dependencies) + "]" if step.dependencies else "none"
        lines = _with_dependency(lines, step.index, value)
    elif family == "DEPENDENCY_OUT_OF_RANGE":
        lines = _with_dependency(lines, step.index, "#S0")
    elif family == "DEPENDENCY_FORWARD_REFERENCE":
        lines = _moved_before(plan, rng) or _with_dependency(lines, step.index, f"#S{step.index}")
    elif family == "AGENT_UNKNOWN":
        camel = "".join(part.capitalize() for part in step.agent.split("_"))
        lines = [[label, num, camel if (label, num) == ("Agent", step.index) else value]
                 for label, num, value in lines]
    else:
        raise ValueError(f"unknown defect family {family!r}; use one of {', '.join(RULES)}")
    return "\n".join(f"#{label}{num}: {value}" for label, num, value in lines)


def draft_plan(scenario: Scenario, behaviour: Behaviour) -> tuple[str, str | None]:
    """The scripted planner's first plan text and the defect family it carries (None: the intended plan)."""
    plan = intended_plan(scenario, behaviour)
    rng = behaviour.draw("defect", scenario.id)
    if rng.random() >= behaviour.defect_rate:
        return plan.render(), None
    family = behaviour.family(rng)
    return inject_defect(plan, family, rng), family


# ----------------------------------------------------------------------------- reading prompts

def _call_after(text: str, start: int) -> Call | None:
    """The call written as ``Call <name> with {json}`` at or after `start` (on the same line), else None."""
    m = _CALL_RE.search(text, start)
    if m is None or "\n" in text[start:m.start()]:
        return None
    try:
        args, _ = json.JSONDecoder().raw_decode(text, m.end())
    except ValueError:
        return None
    return Call(m.group(1), args) if isinstance(args, dict) else None


def step_calls(prompt_text: str) -> list[Call]:
    """The calls of the plan steps a simulator or critic prompt lists (``#S<i> (<agent>: Call ...)``), in
    order; a step whose task names no call is skipped."""
    calls = (_call_after(prompt_text, m.end()) for m in _STEP_LINE_RE.finditer(prompt_text))
    return [c for c in calls if c is not None]


def prefix_sufficient(scenario: Scenario, calls: Sequence[Call]) -> bool:
    """What the scoring says about a prefix: executing its calls and giving the reference answer is
    Accomplished (scoring.score_run)."""
    return score_run(scenario, calls, scenario.reference).outcome == ACCOMPLISHED


def critic_verdict(sufficient: bool, right: bool) -> dict[str, Any]:
    """The critic's JSON object. The two verdicts are Accomplished / can_answer_now true and Partially
    accomplished / false, so acceptance is the same under the paper's text's stopping rule and under its
    code's loop (which continues on Partially)."""
    accept = sufficient == right
    return {"status": ACCOMPLISHED if accept else PARTIALLY, "can_answer_now": accept,
            "rationale": "these steps answer the question" if accept else "a step the question needs is missing"}


# ----------------------------------------------------------------------------- the backend

class ScriptedSpinBackend(SpinOracleBackend):
    """The scripted roles of the module docstring behind the Backend protocol (the oracle's generate,
    with these answers). Reports no tokens."""

    name = "scripted-spin"

    def __init__(self, scenarios: Sequence[Scenario], behaviour: Behaviour) -> None:
        super().__init__(scenarios)
        self.behaviour = behaviour
        self._roles: dict[str, Callable[[Scenario, str], str]] = {
            "plan": self._plan, "repair": self._repair, "simulate": self._simulate, "critic": self._critic,
            "step": self._step, "answer": self._final}

    def _answer(self, prompt: Prompt) -> str:
        """The text the scripted role of `prompt` writes."""
        role, _ = role_of(prompt)
        return self._roles[role](self._scenarios[prompt.case_id], prompt.messages[-1]["content"])

    def _plan(self, scenario: Scenario, text: str) -> str:
        return draft_plan(scenario, self.behaviour)[0]

    def _repair(self, scenario: Scenario, text: str) -> str:
        if _ISSUES_HEADING in text and self.behaviour.draw("repair", scenario.id, text).random() \
                >= self.behaviour.repair_rate:
            return draft_plan(scenario, self.behaviour)[0]
        return intended_plan(scenario, self.behaviour).render()

    def _simulate(self, scenario: Scenario, text: str) -> str:
        calls = step_calls(text)
        return World(sleep=False).execute(calls[-1]).output if calls else ""

    def _critic(self, scenario: Scenario, text: str) -> str:
        right = self.behaviour.draw("critic", scenario.id, text).random() < self.behaviour.critic_accuracy
        return json.dumps(critic_verdict(prefix_sufficient(scenario, step_calls(text)), right))

    def _step(self, scenario: Scenario, text: str) -> str:
        m = _TASK_LINE_RE.search(text)
        call = _call_after(text, m.start(1)) if m else None
        if m is None or call is None:
            return _NO_CALL
        ref = {rc.signature: rc for rc in scenario.reference_calls}.get(call_signature(call.name, call.arguments))
        needed = [scenario.reference_calls[d - 1].output for d in (ref.depends_on if ref else ())]
        given = text[m.end():]   # the dependency outputs follow the task line (prompts.executor_step_messages)
        return format_call(call, "json") if all(out in given for out in needed) else _NO_CALL

    def _final(self, scenario: Scenario, text: str) -> str:
        results = text.split("Tool results:", 1)[-1]
        return scenario.reference if all(rc.output in results for rc in scenario.required_calls) else _NO_ANSWER

    def provenance(self) -> dict[str, Any]:
        b = self.behaviour
        return {"backend": "scripted", "model_id": "scripted:spin-study", "revision": "n/a",
                "behaviour": {"seed": b.seed, "defect_rate": b.defect_rate, "repair_rate": b.repair_rate,
                              "critic_accuracy": b.critic_accuracy, "tempting_rate": b.tempting_rate,
                              "defect_weights": dict(b.defect_weights) if b.defect_weights else None}}
