"""Every prompt of the SPIN track: planner, repair, simulator, critic, executor step and final answer.

Layout, and why:

- The planner prompt puts the question last, right before the output marker ``Plan:``: small models copy
  the nearest concrete text, and with the format example last they wrote the example's plan (measured
  with Qwen2.5-Coder-0.5B and SmolLM2). It asks for "fewer than 5 steps" as the paper's baseline prompt
  does; without it the default model ran on to 8-23 looping steps on 4 of 6 questions (3 of 6 with it). It
  does not ask for "the bare minimum of tasks": in the public code only SPIN's repair rules say that, so
  BASE and the first plan of every variant are asked the same thing.
- A repair prompt is the planner prompt with that marker removed once (the paper's E.5: "the original
  planning prompt with the output marker removed to avoid duplication"), then the SPIN feedback (spin,
  spin_wo_sim) or the simulated step outputs (spin_wo_cri), the validator issues, the original plan, the
  repair rules, and the marker once at the end.
- Simulator and critic prompts start with the data and end with the instructions: ``User question``,
  then the plan's steps, one line each (with their simulated outputs in critic prompts), then the role's
  instructions. The prompts of one plan therefore share long token prefixes (all simulator prompts up to
  the step before their target, critic k and critic k+1 everything through step k's output, simulator k
  and critic k through step k's description), which the fast decoder encodes once (backends/fast_decode.py,
  prefix reuse from its cache of recent encodings).

Every builder is a pure function of its arguments, so equal inputs give byte-identical prompts (the
runner de-duplicates prompts across variants by their text).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tooluse1.prompts import system_prompt
from tooluse1.spin.critic import SpinFeedback
from tooluse1.spin.plan import Plan, PlanIssue, PlanStep, StepRun, truncate_plan_text
from tooluse1.tools import TOOLS

if TYPE_CHECKING:   # only for annotations
    from tooluse1.spin.scenarios import Scenario
    from tooluse1.spin.store import StepRecord

__all__ = [
    "PLAN_MARKER",
    "answer_prompt_text",
    "build_repair_prompt",
    "critic_examples_text",
    "critic_prompt_text",
    "executor_step_messages",
    "planner_prompt_for",
    "planner_prompt_text",
    "simulator_prompt_text",
    "step_line",
]

PLAN_MARKER = "Plan:"

_PLAN_EXAMPLE = """\
#Task1: Search for the population of Lyon
#Agent1: web_search
#Dependency1: None
#ExpectedOutput1: The population of Lyon
#Task2: Compute 10% of the population found in step 1
#Agent2: calculator
#Dependency2: #S1
#ExpectedOutput2: 10% of the population of Lyon"""

_PLANNER_TEMPLATE = """\
You are the PLANNER of a tool-using assistant. You write a plan of tool calls that answers a user's question.

Plan format: one block of four lines per step, steps numbered 1, 2, 3, ... in order:
#Task<N>: <what this step does, one line>
#Agent<N>: <one agent name from the list of agents>
#Dependency<N>: None, or the earlier steps whose outputs this step needs, written as #S1 #S2
#ExpectedOutput<N>: <what this step returns, one line>

Rules:
- Produce a plan with fewer than {max_steps} steps.
- Use only the listed agents, spelled exactly.
- A step may depend only on earlier steps.
- Output only the plan lines: no commentary, no markdown.

Example of the format only, for a different question ("How many people is 10% of the population of Lyon?") \
with other agents (web_search, calculator):
{example}

Now write the plan for the question below.

Agents you may use (each agent is one tool; use the exact name):
{agents}

User question:
{question}

""" + PLAN_MARKER


def planner_prompt_text(scenario: Scenario) -> str:
    """The base planning prompt of a scenario; it ends with PLAN_MARKER."""
    return planner_prompt_for(scenario.question, [(name, TOOLS[name].description) for name in scenario.agents])


def planner_prompt_for(question: str, agents: Sequence[tuple[str, str]], max_steps: int = 5) -> str:
    """The base planning prompt for any question and agents ((name, description) pairs, e.g. the tools an
    MCP server lists): fewer than `max_steps` steps; it ends with PLAN_MARKER."""
    listed = "\n".join(f"- {name}: {description}" for name, description in agents)
    return _PLANNER_TEMPLATE.format(question=question.strip(), agents=listed, example=_PLAN_EXAMPLE,
                                    max_steps=max_steps)


# ----------------------------------------------------------------------------- repair

_FORMAT_RULES = """\
- Use exactly the lines #TaskN, #AgentN, #DependencyN and #ExpectedOutputN for every step N = 1, 2, 3, ...
- #AgentN must be one of the listed agents, spelled exactly; #DependencyN is None or earlier steps written as #S1 #S2.
- Do NOT output any explanation, comments, or markdown."""
_MINIMAL_CHANGES = ("- Make the minimal changes necessary; if there is no problem, you MUST output the Original Plan "
                    "as-is.")
# valid and spin_wo_cri (track1_planning_validation.py / _without_critic.py): no feedback fields to explain.
_PLAIN_REPAIR_RULES = "\n".join(["Repair rules:", "- Avoid redundant or unnecessary tasks.", _MINIMAL_CHANGES,
                                 _FORMAT_RULES])
# spin and spin_wo_sim (track1_planning_spin.py): how to read the feedback, then the bare minimum of tasks.
_SPIN_REPAIR_RULES = "\n".join([
    "Repair rules:",
    "- Read the SPIN feedback this way: status says how complete and correct the current answer is; "
    "can_answer_now=true means the plan can stop there and stay minimal; stop_index is the earliest step "
    "after which the plan already supports answering.",
    "- Use the SPIN feedback and the issues above to decide how to fix the plan.",
    "- Construct the plan using the bare minimum number of tasks required to answer the user question. "
    "Avoid redundant or unnecessary tasks.",
    _MINIMAL_CHANGES, _FORMAT_RULES])


def _feedback_section(plan_text: str, feedback: SpinFeedback) -> str:
    lines = ["=== SPIN Evaluation Feedback ===", "SPIN-style evaluation of the current plan:",
             f"- Status: {feedback.status}",
             f"- can_answer_now: {'true' if feedback.can_answer_now else 'false'}"]
    if feedback.stop_index is not None:
        lines.append(f"- stop_index: {feedback.stop_index} (earliest step index after which SPIN believes "
                     f"the plan can already answer)")
    lines.append(f"- Critic rationale: {feedback.rationale}")
    if feedback.stop_index is not None:
        lines += ["Truncated plan (use this as the current plan context for repair):",
                  truncate_plan_text(plan_text, feedback.stop_index) or "(empty)"]
    return "\n".join(lines)


def _simulation_section(simulated: Sequence[tuple[PlanStep, str]]) -> str:
    return "\n".join(["=== Simulated Execution (No Critic) ===",
                      "Simulated execution results (predicted outputs for each planned step):",
                      *(f"{step_line(s)}: {out}" for s, out in simulated)])


def build_repair_prompt(base_prompt: str, plan_text: str, issues: Sequence[PlanIssue],
                        feedback: SpinFeedback | None = None,
                        simulated: Sequence[tuple[PlanStep, str]] | None = None, *,
                        spin_rules: bool = False) -> str:
    """Prompt asking the planner to repair `plan_text`.

    Holds, in order: `base_prompt` without its last PLAN_MARKER (removed once, as the paper's E.5 does);
    the SPIN feedback when given (status, can_answer_now, stop_index - the prefix where the loop stopped -,
    critic rationale, and the plan truncated at stop_index); the simulated step outputs when given
    (spin_wo_cri); the validator issues as ``[RULE_ID] message`` (or a line saying there are none); the
    original plan verbatim; the repair rules - SPIN's when `spin_rules` (how to read the feedback, bare
    minimum of tasks), else the plain ones (avoid redundant tasks) - with minimal changes, the original
    plan verbatim if nothing is wrong, plan lines only; PLAN_MARKER once, at the end.
    """
    base = base_prompt.rstrip()
    if base.endswith(PLAN_MARKER):
        base = base[:-len(PLAN_MARKER)].rstrip()
    sections = [base]
    if feedback is not None:
        sections.append(_feedback_section(plan_text, feedback))
    if simulated:
        sections.append(_simulation_section(simulated))
    if issues:
        found = "\n".join(["Issues detected by the validator:", *(f"- [{i.rule}] {i.message}" for i in issues)])
    else:
        found = ("No structural issues were detected by the validator. However, you should still consider the "
                 "feedback above and improve the plan minimally if needed.")
    sections += ["=== Detected Issues ===\n" + found, "=== Original Plan ===\n" + plan_text.strip(),
                 _SPIN_REPAIR_RULES if spin_rules else _PLAIN_REPAIR_RULES, PLAN_MARKER]
    return "\n\n".join(sections)


# ----------------------------------------------------------------------------- simulator and critic

def step_line(step: PlanStep) -> str:
    """One step as simulator, critic, repair and executor prompts show it: ``#S2 (convert_units: task)``."""
    return f"#S{step.index} ({step.agent}: {step.task})"


def _context(question: str, lines: Sequence[str]) -> str:
    """The shared head of simulator and critic prompts: the question, then one line per plan step."""
    return f"User question:\n{question.strip()}\n\nPlan steps:\n" + "\n".join(lines)


def simulator_prompt_text(question: str, plan: Plan, k: int, examples: Sequence[StepRecord]) -> str:
    """Prompt asking for the predicted output of step k: the question, the earlier steps (descriptions, as
    the paper's simulator gets its DAG prefix; no predictions, so the steps of a plan can be simulated
    independently), the target step, the retrieved past steps of the same agent (real outputs from other
    scenarios), then the instructions. Raises ValueError when k is outside 1..len(plan)."""
    if not 1 <= k <= len(plan):
        raise ValueError(f"step {k} is not in 1..{len(plan)}")
    step = plan.steps[k - 1]
    lines = [step_line(s) for s in plan.steps[:k - 1]] + [f"{step_line(step)}: (to predict)"]
    parts = [_context(question, lines)]
    if examples:
        parts.append(f"Real outputs of {step.agent} for similar tasks in other requests:\n" + "\n".join(
            f"- task: {e.task} -> output: {' '.join(e.output.split())}" for e in examples))
    else:
        parts.append(f"No past outputs of {step.agent} are available; predict from the task alone.")
    deps = " ".join(f"#S{d}" for d in step.dependencies) or "none"
    parts.append(f"You are the SIMULATOR of a tool-using planner. Predict what the tool {step.agent} returns for "
                 f"#S{k} (expected: {step.expected_output}; uses: {deps}), as the tool itself would write it. "
                 f"Reply with the predicted output only (one or two lines), no explanation.")
    return "\n\n".join(parts)


_CRITIC_INSTRUCTIONS = """\
You are the CRITIC of a tool-using planner. Above (after the examples, if any) are a user question \
and the first {k} of the {n} steps of a plan, {how}. Judge whether these steps accomplish what the question asks.
Answer with one JSON object and nothing else (no markdown):
{{"status": "Accomplished" | "Partially accomplished" | "Not accomplished", "can_answer_now": true | false, \
"rationale": "one short sentence"}}
- "Accomplished": these steps are enough to answer the question fully and correctly.
- "Partially accomplished": on topic, but something the question needs is still missing.
- "Not accomplished": the steps are wrong, off topic, or do not move towards the answer.
- can_answer_now: true only if the final answer could be given right after these steps.
Your JSON verdict:"""


_EXAMPLE_RATIONALE = "These steps returned everything the question asks for."
_CASE_RULE = "-" * 20


def critic_examples_text(examples: Sequence[Scenario]) -> str:
    """The critic's worked examples: for each scenario, its question and its reference calls as executed
    plan steps with their real outputs, judged Accomplished / can_answer_now true (as the code labels its
    ground-truth few-shots). Pass `train` scenarios only (critic_examples picks them); "" for none."""
    blocks = []
    for i, s in enumerate(examples, 1):
        lines = [f"#S{j} ({rc.name}: call {rc.name} with "
                 f"{json.dumps(rc.arguments, ensure_ascii=False, sort_keys=True)}): {' '.join(rc.output.split())}"
                 for j, rc in enumerate(s.reference_calls, 1)]
        verdict = json.dumps({"status": "Accomplished", "can_answer_now": True, "rationale": _EXAMPLE_RATIONALE},
                             ensure_ascii=False)
        blocks.append(f"Example {i}\n{_context(s.question, lines)}\nVerdict: {verdict}")
    if not blocks:
        return ""
    return "Judged examples (other requests, steps with their real outputs):\n\n" + "\n\n".join(blocks)


def critic_prompt_text(question: str, plan: Plan, prefix_len: int, step_outputs: Sequence[str] | None,
                       examples_text: str = "") -> str:
    """Prompt asking the critic to judge steps 1..prefix_len of `plan` for `question`, after the worked
    examples `examples_text` (critic_examples_text) when given, a line of dashes between them and the case.

    With step_outputs (one output, real or simulated, per prefix step) the critic judges the outcome; with
    None it judges from the plan alone (spin_wo_sim). Raises ValueError when prefix_len is outside
    1..len(plan) or step_outputs does not have exactly prefix_len entries.
    """
    prefix = plan.prefix(prefix_len)
    if step_outputs is not None and len(step_outputs) != prefix_len:
        raise ValueError(f"need {prefix_len} step outputs for a {prefix_len}-step prefix; got {len(step_outputs)}")
    if step_outputs is None:
        lines = [f"{step_line(s)}: (not run)" for s in prefix.steps]
        how = "not run yet (judge from the plan alone whether running them would answer the question)"
    else:
        lines = [f"{step_line(s)}: {' '.join(out.split())}" for s, out in zip(prefix.steps, step_outputs)]
        how = "with their outputs"
    head = f"{examples_text}\n\n{_CASE_RULE}\n" if examples_text else ""
    return (f"{head}{_context(question, lines)}\n\n"
            + _CRITIC_INSTRUCTIONS.format(k=prefix_len, n=len(plan), how=how))


# ----------------------------------------------------------------------------- executor and answer

def executor_step_messages(question: str, step: PlanStep, dependency_outputs: dict[int, tuple[PlanStep, str]]
                           ) -> list[dict[str, str]]:
    """Chat messages asking for one step's tool call: the JSON-protocol system prompt offering only the
    step's agent, then the task, its expected output and the outputs of exactly `step.dependencies`
    (`dependency_outputs` maps each to (step, output text)); the user's question is given as context."""
    lines = [f"Overall request (context only): {question.strip()}",
             f"Your task now (step {step.index} of a plan): {step.task}",
             f"Expected output: {step.expected_output}"]
    if step.dependencies:
        lines.append("Outputs of the earlier steps this task depends on:")
        for d in step.dependencies:
            dep_step, output = dependency_outputs[d]
            lines.append(f"{step_line(dep_step)}: {output}")
    else:
        lines.append("This task depends on no earlier step.")
    lines.append(f"Call the tool {step.agent} now with the right arguments. Reply with the JSON call only.")
    return [{"role": "system", "content": system_prompt("json", [step.agent])},
            {"role": "user", "content": "\n".join(lines)}]


def answer_prompt_text(question: str, steps: Sequence[StepRun]) -> str:
    """Prompt asking for the final answer from the question and the executed steps' outputs."""
    results = []
    for s in steps:
        call = f"{s.call['name']}({json.dumps(s.call['arguments'], ensure_ascii=False)})" if s.call else s.agent
        results.append(f"#S{s.index} {call}: " + (s.output if s.ok else f"failed ({s.error})"))
    return "\n\n".join([
        f"User question:\n{question.strip()}",
        "Tool results:\n" + ("\n".join(results) or "(no tool was run)"),
        "Answer the user's question using the tool results above. Give the final answer in plain text, in the "
        "language of the question, with the numbers and facts as the tools gave them. Do not write any tool call.",
        "Answer:"])
