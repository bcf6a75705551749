"""SPIN runner: planner, repair, executor, simulator, prefix evaluation and the five variants.

One *run* is one scenario under one variant. It goes through these phases (a phase a variant lacks is
skipped):

1. Plan. The planner prompt (question, offered tools as agents with descriptions, the plan grammar with one
   example, the rules) gets one plan text, round 0.
2. Repair (all variants but base). While the plan fails plan.validate_plan_text, the planner is re-prompted
   with plan.build_repair_prompt (validator issues, the original plan, and the SPIN feedback when there is
   some), at most `rounds` times (T, default 3). The plan of the last round is validated too; a run that
   never gets a valid plan is an Error. The base variant does not repair: an invalid raw plan is an Error.
3. Prefix evaluation (spin, spin_wo_sim, spin_wo_cri). For k = 1..N: the simulator predicts step k's
   output (spin, spin_wo_cri) from the question, the step's agent and task, the earlier steps with their
   simulated outputs, and the top-k (5) similar *Accomplished* past steps of the same agent from the
   trajectory store, never from the scenario being evaluated (exclude_scenario); an empty store is fine.
   Then the critic judges the prefix 1..k (spin: with the simulated outputs; spin_wo_sim: from the plan
   alone). The first prefix the critic accepts (see `accepts`) is the one executed. When no prefix is
   accepted and repair rounds are left, the planner is re-prompted with the SPIN feedback (the full plan's
   verdict, stop_index none) and the revised plan is validated, repaired and evaluated again; a revision
   identical to the plan just evaluated ends the loop (greedy decoding would repeat the verdicts). When the
   rounds run out without an accepted prefix, the last valid plan is executed whole; if a feedback revision
   made the plan invalid on the last round, the last valid (evaluated) plan is the one executed.
4. Execute the accepted prefix, or the whole plan, in dependency order, one dependency level at a time:
   each step asks the model for its tool call (tooluse1.prompts.system_prompt('json', [agent]) + the task
   + the outputs of exactly the steps it depends on - passed, not "None" as in the public code), parsed
   with tooluse1.parse.extract; the first call of the step's agent runs in a fresh World per run. A step
   whose output holds no call of its agent is a failed step (recorded, no tool call). Dependents of a
   failed step still run, told that the dependency failed.
5. Answer: the model writes the final answer from the question and the executed steps' outputs.
6. Score with scoring.score_run.

Variants:
    base         plan once, execute the whole plan (no validation beyond parsing, no repair)
    valid        validation + repair, execute the whole plan
    spin         validation + repair + prefix evaluation with simulator and critic
    spin_wo_sim  as spin, but the critic judges each prefix from the plan alone (no simulator calls)
    spin_wo_cri  validation + repair, then the simulator predicts every step's output (N simulator calls,
                 each conditioned on the earlier simulated outputs and the retrieved past steps) but no
                 critic is asked, so nothing stops early and no SPIN feedback exists: the whole plan is
                 executed. It measures what simulation costs without the critic's early stop.

Batching: `SpinRunner.run` drives every (scenario, variant) run as a coroutine that yields the prompts it
needs next; all runs' pending prompts go to one `backend.generate` call per step of the schedule (all
planner prompts together, then all first repairs together with the base runs' first executor level, ...).
A prompt already answered in this runner is not generated again (greedy decoding would give the same text;
it also keeps variants comparable, since batched greedy output can depend on batch composition). Its cost
(one model call, its tokens and latency) is still charged to every run that asks it.

Costs per run: model calls (by role), tokens in and out (as the backend reports them), tool calls (calls
sent to the World), executed tasks (plan steps executed, failed ones included), and elapsed seconds = the
run's share of model time (a completion's latency_s, which batching backends report as batch wall time
divided by its rows) + World latency + trajectory-store retrieval time. Runs are batched together, so
this accounting is what a run would cost on its own, not the wall clock of the session.
"""
from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tooluse1.backends.base import Backend, Completion, DecodingConfig
from tooluse1.parse import extract, strip_thinking
from tooluse1.prompts import Prompt, format_call, system_prompt
from tooluse1.spin.critic import CriticVerdict, SpinFeedback, build_critic_prompt, parse_critic_output
from tooluse1.spin.plan import Plan, PlanIssue, PlanStep, build_repair_prompt, parse_plan, validate_plan_text
from tooluse1.spin.scenarios import Scenario
from tooluse1.spin.scoring import ERROR, PLAN_INDEX_NAME, error_score, score_run
from tooluse1.spin.store import ACCOMPLISHED, PARTIALLY, StepRecord, StoreError, TrajectoryStore
from tooluse1.tools import TOOLS, Call, canonical_tool_name
from tooluse1.world import World

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_TOP_K",
    "ROLES",
    "ROLE_MAX_NEW_TOKENS",
    "VARIANTS",
    "VARIANT_SPECS",
    "SpinOracleBackend",
    "SpinRun",
    "SpinRunner",
    "StepRun",
    "VariantSpec",
    "accepts",
    "answer_prompt_text",
    "dependency_levels",
    "make_prompt",
    "executor_step_messages",
    "oracle_plan_text",
    "parse_variants",
    "planner_prompt_text",
    "role_of",
    "save_plan_texts",
    "simulator_prompt_text",
    "trajectory_records",
]

VARIANTS: tuple[str, ...] = ("base", "valid", "spin", "spin_wo_sim", "spin_wo_cri")
ROLES: tuple[str, ...] = ("plan", "repair", "simulate", "critic", "step", "answer")
DEFAULT_ROUNDS = 3
DEFAULT_TOP_K = 5
# Most new tokens per role, applied under the run's max_new_tokens (None = that limit). Only plans grow
# with the number of steps; a call, a verdict or a prediction is short, and a row that runs on to the
# limit keeps its whole batch busy, which is most of the cost on a CPU.
ROLE_MAX_NEW_TOKENS: dict[str, int | None] = {
    "plan": None, "repair": None, "simulate": 64, "critic": 96, "step": 96, "answer": 128}
# Simulated outputs go back into later prompts; a runaway prediction must not blow up the context.
SIMULATED_MAX_CHARS = 500
_PROMPT_PROTOCOL = "spin"   # Prompt.protocol of SPIN prompts; backends do not read it


@dataclass(frozen=True)
class VariantSpec:
    """What a variant does: repair invalid plans, simulate step outputs, ask the critic per prefix."""

    repair: bool
    simulate: bool
    critic: bool

    @property
    def prefix_eval(self) -> bool:
        """Whether the variant runs the prefix loop (simulation and/or critic) at all."""
        return self.simulate or self.critic


VARIANT_SPECS: dict[str, VariantSpec] = {
    "base": VariantSpec(repair=False, simulate=False, critic=False),
    "valid": VariantSpec(repair=True, simulate=False, critic=False),
    "spin": VariantSpec(repair=True, simulate=True, critic=True),
    "spin_wo_sim": VariantSpec(repair=True, simulate=False, critic=True),
    "spin_wo_cri": VariantSpec(repair=True, simulate=True, critic=False),
}


def parse_variants(spec: str | Sequence[str]) -> tuple[str, ...]:
    """'base,spin' / 'all' / ['spin'] -> validated tuple in VARIANTS order; ValueError names a bad one."""
    names = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
    if not names or names == ["all"]:
        return VARIANTS
    for n in names:
        if n not in VARIANTS:
            raise ValueError(f"unknown variant {n!r}: use one or more of {', '.join(VARIANTS)} "
                             "(comma-separated) or all")
    return tuple(v for v in VARIANTS if v in names)


def accepts(verdict: CriticVerdict) -> bool:
    """The critic accepts a prefix when it judges it Accomplished, or Partially accomplished with
    can_answer_now. A verdict that failed to parse is Not accomplished, so it never stops a plan early."""
    return verdict.status == ACCOMPLISHED or (verdict.status == PARTIALLY and verdict.can_answer_now)


# ----------------------------------------------------------------------------- prompts

_PLAN_EXAMPLE = """\
#Task1: Search for the population of Lyon
#Agent1: web_search
#Dependency1: None
#ExpectedOutput1: The population of Lyon
#Task2: Compute 10% of the population found in step 1
#Agent2: calculator
#Dependency2: #S1
#ExpectedOutput2: 10% of the population of Lyon"""

# The question comes last, right before the plan: small models copy the nearest concrete text, and
# with the example last they wrote the example's plan (measured with Qwen2.5-Coder-0.5B and SmolLM2).
_PLANNER_TEMPLATE = """\
You are the PLANNER of a tool-using assistant. You write a plan of tool calls that answers a user's question.

Plan format: one block of four lines per step, steps numbered 1, 2, 3, ... in order:
#Task<N>: <what this step does, one line>
#Agent<N>: <one agent name from the list of agents>
#Dependency<N>: None, or the earlier steps whose outputs this step needs, written as #S1 #S2
#ExpectedOutput<N>: <what this step returns, one line>

Rules:
- Use the bare minimum of tasks needed to answer the question.
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

Plan:"""


def planner_prompt_text(scenario: Scenario) -> str:
    """The base planning prompt of a scenario (also the first section of every repair prompt)."""
    agents = "\n".join(f"- {name}: {TOOLS[name].description}" for name in scenario.agents)
    return _PLANNER_TEMPLATE.format(question=scenario.question.strip(), agents=agents, example=_PLAN_EXAMPLE)


def _step_header(step: PlanStep) -> str:
    return f"#S{step.index} ({step.agent}: {step.task})"


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
            lines.append(f"{_step_header(dep_step)}: {output}")
    else:
        lines.append("This task depends on no earlier step.")
    lines.append(f"Call the tool {step.agent} now with the right arguments. Reply with the JSON call only.")
    return [{"role": "system", "content": system_prompt("json", [step.agent])},
            {"role": "user", "content": "\n".join(lines)}]


def simulator_prompt_text(question: str, plan: Plan, k: int, simulated: Sequence[str],
                          examples: Sequence[StepRecord]) -> str:
    """Prompt asking for the predicted output of step k: the question, the earlier steps with their
    simulated outputs (`simulated` has k-1 entries), the target step, and the retrieved past steps of the
    same agent (real outputs from other scenarios)."""
    if len(simulated) != k - 1:
        raise ValueError(f"need {k - 1} simulated outputs before step {k}; got {len(simulated)}")
    step = plan.steps[k - 1]
    parts = ["You are the SIMULATOR of a tool-using planner. Predict what the tool of the target step will "
             "return, as the tool itself would write it.",
             f"User question:\n{question.strip()}"]
    if simulated:
        parts.append("Earlier steps and their simulated outputs:\n" + "\n".join(
            f"{_step_header(s)}: {out}" for s, out in zip(plan.steps, simulated)))
    deps = ", ".join(f"#S{d}" for d in step.dependencies) or "none"
    parts.append(f"Target step #S{k}: agent {step.agent}; task: {step.task}; expected output: "
                 f"{step.expected_output}; depends on: {deps}")
    if examples:
        parts.append(f"Real outputs of {step.agent} for similar tasks in other requests:\n" + "\n".join(
            f"- task: {e.task} -> output: {' '.join(e.output.split())}" for e in examples))
    else:
        parts.append(f"No past outputs of {step.agent} are available; predict from the task alone.")
    parts.append("Reply with the predicted output only (one or two lines), no explanation.")
    return "\n\n".join(parts)


def answer_prompt_text(question: str, steps: Sequence[StepRun]) -> str:
    """Prompt asking for the final answer from the question and the executed steps' outputs."""
    results = []
    for s in steps:
        call = f"{s.call['name']}({json.dumps(s.call['arguments'], ensure_ascii=False)})" if s.call else s.agent
        results.append(f"#S{s.index} {call}: " + (s.output if s.ok else f"failed ({s.error})"))
    return "\n\n".join([
        "Answer the user's question using the results of the tool calls below. Give the final answer in "
        "plain text, in the language of the question, with the numbers and facts as the tools gave them. "
        "Do not write any tool call.",
        f"Question:\n{question.strip()}",
        "Tool results:\n" + ("\n".join(results) or "(no tool was run)"),
        "Answer:"])


def _user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def make_prompt(scenario_id: str, variant: str, role: str, n: int, messages: Sequence[dict[str, str]]) -> Prompt:
    """A SPIN Prompt. item_id is ``<scenario>-<variant>:<role>:<n>`` (n: the round for plan/repair, the
    prefix length for simulate/critic, the step index for step, 0 for answer); read it back with role_of."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    key = hashlib.sha256(messages[0]["content"].encode("utf-8")).hexdigest()[:16] if role == "step" else ""
    return Prompt(item_id=f"{scenario_id}-{variant}:{role}:{n}", case_id=scenario_id, protocol=_PROMPT_PROTOCOL,
                  messages=tuple(messages), shared_prefix_key=key)


def role_of(prompt: Prompt) -> tuple[str, int]:
    """(role, n) of a prompt made by make_prompt."""
    _, role, n = prompt.item_id.rsplit(":", 2)
    return role, int(n)


def dependency_levels(plan: Plan) -> list[list[PlanStep]]:
    """Steps grouped by dependency depth (0 = no dependency; else 1 + the deepest dependency), each level
    in plan order. Every step's dependencies lie in earlier levels, so a level can run as one batch."""
    depth: dict[int, int] = {}
    levels: list[list[PlanStep]] = []
    for step in plan.steps:   # plan order is topological (PlanStep invariant)
        d = 1 + max((depth[x] for x in step.dependencies), default=-1)
        depth[step.index] = d
        while len(levels) <= d:
            levels.append([])
        levels[d].append(step)
    return levels


# ----------------------------------------------------------------------------- run records

@dataclass
class StepRun:
    """One executed plan step. call is the call sent to the World (None: the model gave no call of the
    step's agent - a failed step); ok/output/error are the World's result, or the failure."""

    index: int
    agent: str
    task: str
    dependencies: list[int]
    model_output: str
    call: dict[str, Any] | None = None
    ok: bool = False
    output: str = ""
    error: str | None = None


@dataclass
class SpinRun:
    """Everything one (scenario, variant) run did, JSON-ready through as_dict().

    plans: every plan text asked for, in order ({round, kind: plan|repair, text, valid, issues: rule ids,
    feedback: whether SPIN feedback was in the prompt}); final_round: index in plans of the plan the run
    ended with (the executed one; the last one when none was valid); evaluations: one entry per prefix
    evaluation ({plan_round, simulated, verdicts, accepted}); accepted_prefix: the executed prefix length,
    None when the whole plan ran (or no plan); steps: executed steps; score: scoring.RunScore.as_dict().
    """

    scenario_id: str
    variant: str
    shape: str
    lang: str
    agents: list[str]
    plans: list[dict[str, Any]] = field(default_factory=list)
    final_round: int = 0
    plan_valid: bool = False
    executed_plan: str | None = None
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    accepted_prefix: int | None = None
    steps: list[StepRun] = field(default_factory=list)
    answer: str | None = None
    outcome: str = ERROR
    reason: str = ""
    score: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    error_kind: str | None = None     # "backend" (no answer from the backend) | "internal" (a bug) | None
    model_calls: int = 0
    model_calls_by_role: Counter[str] = field(default_factory=Counter)
    tokens_in: int = 0
    tokens_out: int = 0
    tool_calls: int = 0
    elapsed_s: float = 0.0

    @property
    def item_id(self) -> str:
        return f"{self.scenario_id}-{self.variant}"

    @property
    def executed_tasks(self) -> int:
        return len(self.steps)

    @property
    def repair_rounds(self) -> int:
        return sum(1 for p in self.plans if p["kind"] == "repair")

    @property
    def critic_parse_failures(self) -> int:
        return sum(1 for e in self.evaluations for v in e["verdicts"] if not v["parse_ok"])

    def charge(self, role: str, completion: Completion) -> None:
        """Count one model call of `role` with the completion's tokens and latency."""
        self.model_calls += 1
        self.model_calls_by_role[role] += 1
        self.tokens_in += completion.prompt_tokens or 0
        self.tokens_out += completion.completion_tokens or 0
        self.elapsed_s += completion.latency_s or 0.0

    def as_dict(self) -> dict[str, Any]:
        spec = VARIANT_SPECS[self.variant]
        return {
            "item_id": self.item_id, "scenario_id": self.scenario_id, "variant": self.variant,
            "shape": self.shape, "lang": self.lang, "agents": list(self.agents),
            "repairs": spec.repair, "simulator": spec.simulate, "critic": spec.critic,
            "outcome": self.outcome, "reason": self.reason, "error": self.error, "error_kind": self.error_kind,
            "score": self.score,
            "plans": self.plans, "final_round": self.final_round, "plan_valid": self.plan_valid,
            "repair_rounds": self.repair_rounds, "executed_plan": self.executed_plan,
            "evaluations": self.evaluations, "accepted_prefix": self.accepted_prefix,
            "critic_parse_failures": self.critic_parse_failures,
            "steps": [asdict(s) for s in self.steps], "answer": self.answer,
            "counters": {"executed_tasks": self.executed_tasks, "tool_calls": self.tool_calls,
                         "model_calls": self.model_calls, "tokens_in": self.tokens_in,
                         "tokens_out": self.tokens_out, "elapsed_s": round(self.elapsed_s, 4),
                         "model_calls_by_role": dict(sorted(self.model_calls_by_role.items()))},
        }


class _RunFailed(Exception):
    """The backend gave no answer for one of the run's prompts: the run is an Error (not a model failure)."""


_T = TypeVar("_T")
# A run coroutine yields the prompts it needs and is sent their completions, in the same order; its
# return value is the phase's result.
_Ask = Generator[list[Prompt], list[Completion], _T]
_Coroutine = _Ask[None]


# ----------------------------------------------------------------------------- the runner

class SpinRunner:
    """Runs (scenario, variant) pairs against one backend, batching model calls across all of them.

    `store` is the trajectory store the simulator retrieves from (None = no retrieval, as an empty store);
    `rounds` is T, the most repair prompts per run; `top_k` the retrieved past steps per simulation;
    `role_max_new_tokens` caps each role's new tokens under `decoding.max_new_tokens` (ROLE_MAX_NEW_TOKENS).
    Guarantees: `run` returns one SpinRun per input pair, in input order; it never raises for anything a
    model writes (such runs end Not accomplished or Error); BackendError from the backend and StoreError
    from the trajectory store propagate.
    """

    def __init__(self, backend: Backend, decoding: DecodingConfig, store: TrajectoryStore | None = None, *,
                 rounds: int = DEFAULT_ROUNDS, top_k: int = DEFAULT_TOP_K,
                 role_max_new_tokens: dict[str, int | None] | None = None) -> None:
        if rounds < 0:
            raise ValueError(f"rounds must be >= 0, got {rounds}")
        if top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {top_k}")
        self.backend, self.decoding, self.store = backend, decoding, store
        self.rounds, self.top_k = rounds, top_k
        caps = {**ROLE_MAX_NEW_TOKENS, **(role_max_new_tokens or {})}
        self.role_decoding: dict[str, DecodingConfig] = {
            role: DecodingConfig(max_new_tokens=min(decoding.max_new_tokens, caps.get(role) or decoding.max_new_tokens),
                                 temperature=decoding.temperature) for role in ROLES}
        self._memo: dict[str, Completion] = {}
        self.generate_calls = 0       # backend.generate calls made
        self.generated_prompts = 0    # prompts sent to the backend (after de-duplication)
        self.requested_prompts = 0    # prompts the runs asked for

    # --- scheduling ---------------------------------------------------------------------------------

    def decoding_for(self, prompt: Prompt) -> DecodingConfig:
        """The decoding config a prompt is generated with (its role's token cap)."""
        return self.role_decoding[role_of(prompt)[0]]

    def _key(self, prompt: Prompt) -> str:
        return json.dumps([prompt.messages, self.decoding_for(prompt).as_dict()], ensure_ascii=False, sort_keys=True)

    def run(self, items: Sequence[tuple[Scenario, str]],
            on_finished: Callable[[SpinRun], None] | None = None) -> list[SpinRun]:
        """Run every (scenario, variant); `on_finished(run)` is called as each run ends."""
        records = [SpinRun(s.id, v, s.shape, s.lang, list(s.agents)) for s, v in items]
        waiting: list[tuple[_Coroutine, SpinRun, list[Prompt]]] = []

        def advance(co: _Coroutine, rec: SpinRun, sent: list[Completion] | None) -> None:
            try:
                prompts = co.send(sent)  # type: ignore[arg-type]  # None primes the coroutine
            except StopIteration:
                if on_finished is not None:
                    on_finished(rec)
                return
            waiting.append((co, rec, prompts))

        for (scenario, variant), rec in zip(items, records):
            if variant not in VARIANT_SPECS:
                raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
            advance(self._run(scenario, variant, rec), rec, None)
        while waiting:
            batch, waiting = waiting, []
            fresh: dict[str, Prompt] = {}
            for _, _, prompts in batch:
                self.requested_prompts += len(prompts)
                for p in prompts:
                    k = self._key(p)
                    if k not in self._memo:
                        fresh.setdefault(k, p)
            answered: dict[str, Completion] = {}
            by_decoding: dict[DecodingConfig, dict[str, Prompt]] = {}
            for k, p in fresh.items():
                by_decoding.setdefault(self.decoding_for(p), {})[k] = p
            for decoding, group in by_decoding.items():   # one generate call per token cap
                self.generate_calls += 1
                self.generated_prompts += len(group)
                for k, c in zip(group, self.backend.generate(list(group.values()), decoding), strict=True):
                    answered[k] = c
                    if c.error is None:   # a failed request is not remembered: a later run retries it
                        self._memo[k] = c
            for co, rec, prompts in batch:
                keys = [self._key(p) for p in prompts]
                advance(co, rec, [answered[k] if k in answered else self._memo[k] for k in keys])
        return records

    def _ask(self, rec: SpinRun, prompts: list[Prompt]) -> _Ask[list[str]]:
        """Yield prompts, charge their completions to `rec`, return the texts; _RunFailed on a backend error."""
        completions = yield prompts
        for p, c in zip(prompts, completions, strict=True):
            rec.charge(role_of(p)[0], c)
        for p, c in zip(prompts, completions):
            if c.error is not None:
                raise _RunFailed(f"backend error on {p.item_id}: {c.error}")
        return [c.text for c in completions]

    # --- one run ------------------------------------------------------------------------------------

    def _run(self, scenario: Scenario, variant: str, rec: SpinRun) -> _Coroutine:
        try:
            plan = yield from self._plan(scenario, variant, rec)
            if plan is None:
                rec.score = error_score(scenario, rec.reason).as_dict()
                return
            rec.plan_valid = True
            executed = plan if rec.accepted_prefix is None else plan.prefix(rec.accepted_prefix)
            rec.executed_plan = executed.render()
            yield from self._execute(scenario, variant, rec, executed)
            text = (yield from self._ask(rec, [make_prompt(
                scenario.id, variant, "answer", 0, _user(answer_prompt_text(scenario.question, rec.steps)))]))[0]
            rec.answer = strip_thinking(text)[0]
            calls = [Call(s.call["name"], s.call["arguments"]) for s in rec.steps if s.call is not None]
            score = score_run(scenario, calls, rec.answer)
            rec.outcome, rec.reason, rec.score = score.outcome, score.reason, score.as_dict()
        except _RunFailed as e:
            rec.outcome, rec.error, rec.error_kind, rec.reason = ERROR, str(e), "backend", f"the run failed: {e}"
            rec.score = error_score(scenario, rec.reason).as_dict()
        except StoreError:
            raise   # the trajectory store is unusable: a setup problem for the user, like a BackendError
        except Exception as e:  # noqa: BLE001 - one broken run must not take the other runs down
            rec.outcome, rec.error, rec.error_kind = ERROR, f"internal error: {type(e).__name__}: {e}", "internal"
            rec.reason = f"the run failed: {rec.error}"
            rec.score = error_score(scenario, rec.reason).as_dict()

    def _record_plan(self, rec: SpinRun, scenario: Scenario, kind: str, text: str,
                     feedback: bool) -> tuple[bool, list[PlanIssue]]:
        ok, issues = validate_plan_text(text, scenario.agents)
        rec.plans.append({"round": len(rec.plans), "kind": kind, "text": text, "valid": ok,
                          "issues": [i.rule for i in issues], "feedback": feedback})
        return ok, issues

    def _plan(self, scenario: Scenario, variant: str, rec: SpinRun) -> _Ask[Plan | None]:
        """Plan, repair and (for the SPIN variants) evaluate prefixes; the plan to execute, or None (Error).
        Sets rec.accepted_prefix and rec.final_round."""
        spec = VARIANT_SPECS[variant]
        agents = scenario.agents
        base = planner_prompt_text(scenario)
        text = (yield from self._ask(rec, [make_prompt(scenario.id, variant, "plan", 0, _user(base))]))[0]
        ok, issues = self._record_plan(rec, scenario, "plan", text, feedback=False)
        if not spec.repair:
            if not ok:
                rec.reason = "no valid plan (base does not repair): " + "; ".join(i.message for i in issues)
                return None
            return parse_plan(text, agents)
        feedback: SpinFeedback | None = None
        evaluated: tuple[Plan, int] | None = None   # the last plan the prefix loop judged, and its round
        rounds = 0
        while True:
            if ok:
                plan = parse_plan(text, agents)
                rec.final_round = len(rec.plans) - 1
                if not spec.prefix_eval:
                    return plan
                if evaluated is not None and plan == evaluated[0]:
                    return plan   # the revision changed nothing: the verdicts would repeat
                accepted, feedback = yield from self._evaluate(scenario, variant, rec, plan)
                evaluated = (plan, rec.final_round)
                if accepted is not None or not spec.critic or rounds == self.rounds:
                    rec.accepted_prefix = accepted
                    return plan
            elif rounds == self.rounds:
                if evaluated is not None:   # a feedback revision broke a valid plan: keep the valid one
                    rec.final_round = evaluated[1]
                    return evaluated[0]
                rec.reason = (f"no valid plan after {self.rounds} repair round(s): "
                              + "; ".join(i.message for i in issues))
                rec.final_round = len(rec.plans) - 1
                return None
            rounds += 1
            prompt = build_repair_prompt(base, text, issues, feedback)
            text = (yield from self._ask(rec, [make_prompt(scenario.id, variant, "repair", rounds, _user(prompt))]))[0]
            ok, issues = self._record_plan(rec, scenario, "repair", text, feedback=feedback is not None)

    def _retrieve(self, scenario: Scenario, step: PlanStep, rec: SpinRun) -> list[StepRecord]:
        """The top-k Accomplished past steps of the step's agent, never from this scenario."""
        if self.store is None or self.top_k == 0:
            return []
        started = time.perf_counter()
        hits = self.store.search(f"{step.agent}: {step.task}", agent=step.agent, k=self.top_k,
                                 exclude_scenario=scenario.id, status=ACCOMPLISHED)
        rec.elapsed_s += time.perf_counter() - started
        return [record for record, _ in hits]

    def _evaluate(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan
                  ) -> _Ask[tuple[int | None, SpinFeedback | None]]:
        """The prefix loop: (accepted prefix length or None, the feedback of the verdict acted on or None)."""
        spec = VARIANT_SPECS[variant]
        simulated: list[str] = []
        verdicts: list[dict[str, Any]] = []
        entry: dict[str, Any] = {"plan_round": len(rec.plans) - 1, "simulated": simulated, "verdicts": verdicts,
                                 "accepted": None}
        rec.evaluations.append(entry)
        last: CriticVerdict | None = None
        for k in range(1, len(plan) + 1):
            if spec.simulate:
                examples = self._retrieve(scenario, plan.steps[k - 1], rec)
                text = simulator_prompt_text(scenario.question, plan, k, simulated, examples)
                out = (yield from self._ask(rec, [make_prompt(scenario.id, variant, "simulate", k, _user(text))]))[0]
                simulated.append(" ".join(strip_thinking(out)[0].split())[:SIMULATED_MAX_CHARS])
            if spec.critic:
                text = build_critic_prompt(scenario.question, plan, k, simulated if spec.simulate else None)
                raw = (yield from self._ask(rec, [make_prompt(scenario.id, variant, "critic", k, _user(text))]))[0]
                last = parse_critic_output(raw)
                verdicts.append({"k": k, "status": last.status, "can_answer_now": last.can_answer_now,
                                 "rationale": last.rationale, "parse_ok": last.parse_ok})
                if accepts(last):
                    entry["accepted"] = k
                    return k, SpinFeedback.from_verdict(last, k)
        return None, (SpinFeedback.from_verdict(last, None) if last is not None else None)

    def _execute(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan) -> _Ask[None]:
        """Run the plan level by level in a fresh World; every step gets its dependencies' outputs."""
        world = World(sleep=False)
        done: dict[int, tuple[PlanStep, str]] = {}
        for level in dependency_levels(plan):
            prompts = [make_prompt(scenario.id, variant, "step", s.index,
                                   executor_step_messages(scenario.question, s, done)) for s in level]
            texts = yield from self._ask(rec, prompts)
            for step, text in zip(level, texts):
                run = StepRun(step.index, step.agent, step.task, list(step.dependencies), text)
                ex = extract(text, "json")
                call = next((c for c in ex.calls if canonical_tool_name(c.name) == step.agent), None)
                if call is None:
                    got = ", ".join(c.name for c in ex.calls) or ex.label
                    run.error = f"no call of {step.agent} in the model output (got: {got})"
                else:
                    result = world.execute(call)
                    rec.tool_calls += 1
                    rec.elapsed_s += result.latency_s
                    run.call = {"name": call.name, "arguments": call.arguments}
                    run.ok, run.output, run.error = result.ok, result.output, result.error
                rec.steps.append(run)
                done[step.index] = (step, run.output if run.ok else f"(this step failed: {run.error})")
        rec.steps.sort(key=lambda s: s.index)


# ----------------------------------------------------------------------------- trajectories and plans

def trajectory_records(run: SpinRun, question: str, run_id: str) -> list[StepRecord]:
    """StepRecords of an Accomplished run's successfully executed steps (for the simulator's retrieval
    later); [] for any other run. run_id + scenario + step index is the store key, so saving the same
    model/variant again adds nothing (the first write wins)."""
    if run.outcome != ACCOMPLISHED:
        return []
    return [StepRecord(scenario_id=run.scenario_id, run_id=run_id, step_index=s.index, agent=s.agent, task=s.task,
                       question=question, output=s.output, status=ACCOMPLISHED)
            for s in run.steps if s.ok]


def save_plan_texts(directory: Path, runs: Iterable[SpinRun]) -> int:
    """Write every plan text of the runs as ``<scenario>-<variant>-round<r>.txt`` plus index.json (the
    agents of each file and whether it is a run's raw plan and/or the plan a repairing run ended with),
    which `python -m tooluse1 plan-incidence DIR` reads. Returns the number of files written."""
    directory.mkdir(parents=True, exist_ok=True)
    index_path = directory / PLAN_INDEX_NAME
    index: dict[str, Any] = {"files": {}}
    if index_path.is_file():   # several sessions may write into one folder
        index = json.loads(index_path.read_text(encoding="utf-8"))
    n = 0
    for run in runs:
        for p in run.plans:
            name = f"{run.item_id}-round{p['round']}.txt"
            (directory / name).write_text(p["text"], encoding="utf-8")
            sets = []
            if p["round"] == 0:
                sets.append("raw")
            if VARIANT_SPECS[run.variant].repair and p["round"] == run.final_round:
                sets.append("repaired")
            index["files"][name] = {"scenario_id": run.scenario_id, "variant": run.variant, "round": p["round"],
                                    "kind": p["kind"], "valid": p["valid"], "agents": run.agents, "sets": sets}
            n += 1
    index_path.write_text(json.dumps(index, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return n


# ----------------------------------------------------------------------------- scripted oracle

def oracle_plan_text(scenario: Scenario) -> str:
    """The scenario's required calls written as a valid plan (one step per call, depends_on as #S<n>)."""
    blocks = []
    for i, rc in enumerate(scenario.required_calls, 1):
        deps = " ".join(f"#S{d}" for d in rc.depends_on) or "None"
        blocks.append("\n".join((
            f"#Task{i}: Call {rc.name} with {json.dumps(rc.arguments, ensure_ascii=False, sort_keys=True)}",
            f"#Agent{i}: {rc.name}", f"#Dependency{i}: {deps}", f"#ExpectedOutput{i}: The result of {rc.name}")))
    return "\n\n".join(blocks)


class SpinOracleBackend:
    """A scripted SPIN model that knows each scenario's answer (selected by `--model oracle`): it plans the
    required calls, repeats that plan when asked to repair, simulates each step with its real output,
    accepts exactly the sufficient prefix, calls each step's required call with the canonical arguments,
    and answers with the reference. Every variant then ends Accomplished on every scenario: a deterministic
    end-to-end check of the track. No tokens are reported (prompt/completion_tokens None)."""

    name = "scripted-spin-oracle"

    def __init__(self, scenarios: Iterable[Scenario]) -> None:
        self._scenarios = {s.id: s for s in scenarios}

    def _answer(self, prompt: Prompt) -> str:
        s = self._scenarios[prompt.case_id]
        role, n = role_of(prompt)
        if role in ("plan", "repair"):
            return oracle_plan_text(s)
        if role == "simulate":
            return s.required_calls[n - 1].output if n <= len(s.required_calls) else ""
        if role == "critic":
            done = n >= s.sufficient_prefix
            return json.dumps({"status": ACCOMPLISHED if done else PARTIALLY, "can_answer_now": done,
                               "rationale": "the sufficient prefix is done" if done else "more steps are needed"})
        if role == "step":
            return format_call(s.required_calls[n - 1].call, "json")
        return s.reference

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig, on_complete: Any = None) -> list[Completion]:
        out = []
        for p in prompts:
            c = Completion(p.item_id, self._answer(p))
            if on_complete is not None:
                on_complete(c)
            out.append(c)
        return out

    def provenance(self) -> dict[str, Any]:
        return {"backend": "scripted", "model_id": "scripted:spin-oracle", "revision": "n/a"}

    def close(self) -> None:
        pass
