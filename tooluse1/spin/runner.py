"""SPIN runner: planner, repair, executor, simulator, prefix evaluation and the five variants.

One *run* is one scenario under one variant. It goes through these phases (a phase a variant lacks is
skipped); every prompt text is built in spin/prompts.py.

1. Plan. The planner prompt (question, offered tools as agents with descriptions, the plan grammar with one
   example, the rules) gets one plan text, round 0. Reasoning blocks are cut (parse.strip_thinking).
2. BASE executes that text leniently, as the paper's baseline does (plan.lenient_plan): an unknown agent
   runs as the first agent, a missing field gets its default; the run is an Error only when not one step
   can be executed. Its validity is still recorded (Table 1).
3. Repair rounds (all other variants), as the public code runs them (track1_planning_validation.py,
   track1_planning_spin.py, ..._without_critic.py): round t = 0..T-1 validates the current plan text
   (plan.validate_plan_text); valid: a valid plan is executed whole; spin, spin_wo_sim: a valid plan is
   judged (4.) and an accepted one executed; spin_wo_cri: a valid plan's steps are simulated. Otherwise the
   planner is re-prompted with prompts.build_repair_prompt (validator issues, the original plan, and the
   SPIN feedback - status, can_answer_now, stop_index, rationale, the plan truncated at stop_index - or the
   simulated outputs when the plan was valid) and the repair becomes the current plan. After T rounds the
   last repair is executed as the code executes it: without validation or judgement, read leniently like
   BASE's plan (plan.lenient_plan; unknown agent -> the first agent). So spin_wo_cri always executes its
   T-th repair. A run whose executed plan the validator rejects is counted as `no_valid_plan` (its own
   count, beside the outcome); it is an Error only when not one step can be read from it.
4. Prefix evaluation (spin, spin_wo_sim). For k = 1..N: the simulator predicts step k's output (spin) from
   the question, the earlier steps' descriptions (the paper's DAG prefix; not their predictions), and the
   top-k (5) past steps of the same agent that the trajectory store holds as Accomplished, retrieved with
   the query "question + agent + task" (the paper's E.2) and never from the scenario being evaluated;
   then the critic judges the prefix 1..k (spin: with the simulated outputs of steps 1..k; spin_wo_sim:
   from the plan alone), after worked examples from ground-truth runs of train scenarios. Where the loop
   stops is the stop rule's choice (`stop_rule`, critic.STOP_RULES):
     code  (default; the code that produced the paper's tables) stop at the first Accomplished or Not
           accomplished verdict, go on after Partially accomplished; stop_index = the prefix where it
           stopped (N when it never stopped). A critic output that fails to parse reads as Not accomplished,
           so it stops the loop and sends the plan to repair.
     paper (the paper's text, A.3 / C.4) stop at the first verdict that accepts; stop_index = that prefix,
           else N. A failed parse never accepts, so the loop goes on to the next prefix.
   The plan is accepted when the verdict at stop_index accepts (critic.accepts: can_answer_now and
   Accomplished or Partially accomplished); steps 1..stop_index are then executed. The critic's generation
   stops at the end of its JSON object (stop_text on backends that support it; on others the verdict is
   read from the first object of the text) under a cap of 8,192 tokens, the paper's default; a head cut
   before the closing brace is read for its status and can_answer_now (critic.parse_critic_output).
   spin_wo_cri has no critic, as in the paper's ablation: each round, the simulator predicts every step of
   the valid plan (all at once: a prediction does not depend on another) and the predictions go into the
   repair prompt (its "Simulated Execution" section). Nothing stops it early.
5. Execute the accepted prefix, or the whole plan, in dependency order, one dependency level at a time:
   each step asks the model for its tool call (tooluse1.prompts.system_prompt('json', [agent]) + the task
   + the outputs of exactly the steps it depends on - passed, not "None" as in the public code), parsed
   with tooluse1.parse.extract; the first call of the step's agent runs in a fresh World per run. A step
   whose output holds no call of its agent is a failed step (recorded, no tool call). Dependents of a
   failed step still run, told that the dependency failed.
6. Answer: the model writes the final answer from the question and the executed steps' outputs.
7. Score with scoring.score_run, each executed step with scoring.step_statuses, and the raw and executed
   plans with scoring.plan_scores_of.

Variants:
    base         plan once, execute it leniently (no validation, no repair)
    valid        validation + repair, execute the whole valid plan (or the last repair, leniently)
    spin         validation + repair + prefix evaluation with simulator and critic
    spin_wo_sim  as spin, but the critic judges each prefix from the plan alone (no simulator calls)
    spin_wo_cri  validation + repair, the simulated outputs of every valid step fed into T repair rounds,
                 no critic: the T-th repair is executed whole, leniently

Scheduling. Every run is a coroutine that yields the prompts it needs next; `SpinRunner.run` answers them
across all runs. A prompt already answered, or already being generated, for any run is not generated
again (greedy decoding would give the same text; it also keeps variants comparable) - its cost is still
charged to every run that asks it. Each prompt is generated with its role's token cap
(ROLE_MAX_NEW_TOKENS), sent as a backends.base.Request with that cap (and, for the critic, its stop test).
On a backend that declares `capabilities.continuous` (transformers) generation is continuous: as a row
finishes, its run advances and the prompts it asks next join the running batch. On other backends prompts
go in rounds: one `generate_requests` call per round when the backend declares `row_caps`, else one
`generate` call per distinct cap.

Costs per run: model calls (by role), tokens in and out (as the backend reports them), tool calls (calls
sent to the World), executed tasks (plan steps executed, failed ones included), and elapsed seconds =
model time (a completion's share of the batch's wall time, as the backend reports it) + tool latency
(world.TOOL_LATENCY_S per call, accounted, not slept) + trajectory-store retrieval time. Runs are batched
together, so this is what a run costs on its own, not the session's wall clock.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from tooluse1.backends.base import (Backend, Capabilities, Completion, DecodingConfig, Request, RequestBackend,
                                    ContinuousBackend)
from tooluse1.errors import ToolUse1Error
from tooluse1.parse import extract, strip_thinking
from tooluse1.prompts import Prompt, format_call
from tooluse1.spin.critic import (
    STOP_RULES,
    SpinFeedback,
    accepts,
    json_object_end,
    parse_critic_output,
    stops_prefix_loop,
)
from tooluse1.spin.plan import Plan, PlanIssue, PlanStep, StepRun, lenient_plan, parse_plan, validate_plan_text
from tooluse1.spin.prompts import (
    answer_prompt_text,
    build_repair_prompt,
    critic_examples_text,
    critic_prompt_text,
    executor_step_messages,
    planner_prompt_text,
    simulator_prompt_text,
)
from tooluse1.spin.scenarios import Scenario, load_scenarios
from tooluse1.spin.scoring import (ERROR, PLAN_INDEX_NAME, carried_out, error_score, plan_scores_of, score_run,
                                    step_statuses)
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY, StepRecord, StoreError, TrajectoryStore
from tooluse1.spin.variants import VARIANT_SPECS, VARIANTS, VariantSpec
from tooluse1.tools import canonical_tool_name
from tooluse1.world import TOOL_LATENCY_S, World

__all__ = [
    "CRITIC_EXAMPLE_SHAPES",
    "DEFAULT_ROUNDS",
    "DEFAULT_STOP_RULE",
    "DEFAULT_TOP_K",
    "ROLES",
    "ROLE_MAX_NEW_TOKENS",
    "VARIANTS",
    "VARIANT_SPECS",
    "SpinOracleBackend",
    "SpinPrompt",
    "SpinRun",
    "SpinRunner",
    "StepRun",
    "VariantSpec",
    "critic_examples",
    "dependency_levels",
    "make_prompt",
    "oracle_plan_text",
    "parse_role_caps",
    "parse_variants",
    "retrieval_text",
    "role_of",
    "save_plan_texts",
    "trajectory_records",
]

ROLES: tuple[str, ...] = ("plan", "repair", "simulate", "critic", "step", "answer")
DEFAULT_ROUNDS = 3
DEFAULT_TOP_K = 5
DEFAULT_STOP_RULE = "code"
# Most new tokens per role. Plans grow with their steps and a truncated plan fails the count rule
# (COUNTS_MISMATCH), so plans get 1,024 (256 cut real plans and inflated Table 1); a call or a prediction is
# short, and a row that runs on to its cap keeps a decode slot busy, the main cost on a CPU. The critic gets
# the paper's default cap (8,192) and stops at the end of its JSON object: a cap of 96 cut 71 verdicts of the
# default model mid-rationale, and whether a verdict is read decides whether a prefix is accepted.
ROLE_MAX_NEW_TOKENS: dict[str, int] = {
    "plan": 1024, "repair": 1024, "simulate": 64, "critic": 8192, "step": 96, "answer": 128}
# The critic's worked examples: the first train scenario (by id) of each of these shapes.
CRITIC_EXAMPLE_SHAPES: tuple[str, ...] = ("early_answer", "conditional", "chain")
# Simulated outputs go back into later prompts; a runaway prediction must not blow up the context.
SIMULATED_MAX_CHARS = 500
_PROMPT_PROTOCOL = "spin"   # Prompt.protocol of SPIN prompts; backends do not read it




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


def parse_role_caps(spec: str | None) -> dict[str, int]:
    """Token caps per role: ROLE_MAX_NEW_TOKENS, overridden by `spec` - "N" caps every role at N (below
    its default), "plan=512,critic=64" sets those roles. ValueError names a bad entry."""
    caps = dict(ROLE_MAX_NEW_TOKENS)
    if not spec or not spec.strip():
        return caps
    spec = spec.strip()
    if spec.isdigit():
        return {role: min(cap, int(spec)) for role, cap in caps.items()} if int(spec) > 0 else _bad_caps(spec)
    for part in spec.split(","):
        role, sep, value = part.partition("=")
        role = role.strip()
        if not sep or role not in ROLES or not value.strip().isdigit() or int(value) < 1:
            return _bad_caps(part)
        caps[role] = int(value)
    return caps


def _bad_caps(part: str) -> dict[str, int]:
    raise ValueError(f"bad token cap {part!r}: use a positive N, or role=N pairs with roles {', '.join(ROLES)}")


@dataclass(frozen=True)
class SpinPrompt(Prompt):
    """A Prompt of one SPIN run, with its place in the run typed beside it: `role` (ROLES) and `n` (the
    round for plan/repair, the prefix length for simulate/critic, the step index for step, 0 for answer).
    Backends see a plain Prompt; the runner (token caps, charging) and the scripted SPIN models read these
    fields. item_id is the run's ``<scenario>-<variant>``; the scheduler appends a sequence number to make
    each sent prompt's id unique."""

    role: str = "plan"
    n: int = 0

    @property
    def label(self) -> str:
        """``<scenario>-<variant>:<role>:<n>``, how messages name the prompt."""
        return f"{self.item_id}:{self.role}:{self.n}"


def make_prompt(scenario_id: str, variant: str, role: str, n: int, messages: Sequence[dict[str, str]]
                ) -> SpinPrompt:
    """A SPIN prompt of run ``<scenario>-<variant>``, role `role`, number `n` (SpinPrompt).
    Step prompts of one agent share their system prompt (shared_prefix_key = its hash); every other prompt
    has its own key, so the fast decoder encodes it from the best cached encoding it shares a prefix with."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    key = (hashlib.sha256(messages[0]["content"].encode("utf-8")).hexdigest()[:16] if role == "step"
           else f"{scenario_id}-{variant}:{role}:{n}")
    return SpinPrompt(item_id=f"{scenario_id}-{variant}", case_id=scenario_id, protocol=_PROMPT_PROTOCOL,
                      messages=tuple(messages), shared_prefix_key=key, role=role, n=n)


def _critic_done(text: str) -> bool:
    """A verdict is complete once the text outside reasoning blocks holds a whole JSON object (a brace
    written while the model is still thinking does not end it)."""
    return json_object_end(strip_thinking(text)[0]) is not None


def _stop_text(prompt: SpinPrompt) -> Callable[[str], bool] | None:
    """The early stop of a prompt's generation: a critic verdict ends with its JSON object."""
    return _critic_done if prompt.role == "critic" else None


def role_of(prompt: Prompt) -> tuple[str, int]:
    """(role, n) of a prompt made by make_prompt; TypeError for any other prompt (a SPIN model was handed
    a prompt that is not SPIN's)."""
    if not isinstance(prompt, SpinPrompt):
        raise TypeError(f"{prompt.item_id}: not a SPIN prompt (make_prompt makes them)")
    return prompt.role, prompt.n


def retrieval_text(question: str, agent: str, task: str) -> str:
    """The simulator's retrieval query for a step: user question, agent and task on separate lines (the
    paper's E.2); a stored step's summary is the same text plus its output, so both embed alike."""
    return f"User question: {question.strip()}\nAgent: {agent}\nTask: {task}"


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


def _user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def critic_examples(scenarios: Iterable[Scenario], shapes: Sequence[str] = CRITIC_EXAMPLE_SHAPES) -> list[Scenario]:
    """The critic's few-shot scenarios: for each shape in `shapes`, the first `train` scenario of that shape by
    id (test scenarios never: the code drew its few-shots from the scenarios it evaluated)."""
    first: dict[str, Scenario] = {}
    for s in sorted((s for s in scenarios if s.split == "train"), key=lambda s: s.id):
        first.setdefault(s.shape, s)
    return [first[shape] for shape in shapes if shape in first]


def _default_critic_examples() -> list[Scenario]:
    """critic_examples of the built scenarios (data/); none when they cannot be read (a fresh checkout
    before `build`), which the plugin never meets: it checks the scenarios first."""
    try:
        return critic_examples(load_scenarios()[0])
    except (OSError, ValueError):
        return []


# ----------------------------------------------------------------------------- run records

@dataclass
class SpinRun:
    """Everything one (scenario, variant) run did, JSON-ready through as_dict() (and back: from_dict).

    plans: every plan text asked for, in order ({round, kind: plan|repair, text, valid, issues: rule ids,
    feedback: SPIN feedback in the prompt, simulated: simulated outputs in the prompt}); final_round: index
    in plans of the plan the run ended with; lenient_fixes: what BASE's lenient reading changed;
    evaluations: one entry per prefix evaluation or simulation round ({plan_round, simulated, verdicts,
    accepted}); accepted_prefix: the executed prefix length, None when the whole plan ran (or no plan);
    no_valid_plan: a repairing run executed a plan the validator rejects (its last repair, read leniently);
    steps: executed steps; score: scoring.RunScore.as_dict(); plan_scores: scoring.plan_scores_of.
    """

    scenario_id: str
    variant: str
    shape: str
    lang: str
    agents: list[str]
    plans: list[dict[str, Any]] = field(default_factory=list)
    final_round: int = 0
    plan_valid: bool = False
    lenient_fixes: list[str] = field(default_factory=list)
    executed_plan: str | None = None
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    accepted_prefix: int | None = None
    no_valid_plan: bool = False
    steps: list[StepRun] = field(default_factory=list)
    answer: str | None = None
    outcome: str = ERROR
    reason: str = ""
    score: dict[str, Any] = field(default_factory=dict)
    plan_scores: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    error_kind: str | None = None     # "backend" (no answer from the backend) | "internal" (a bug) | None
    model_calls: int = 0
    model_calls_by_role: Counter[str] = field(default_factory=Counter)
    tokens_in: int = 0
    tokens_out: int = 0
    tool_calls: int = 0
    model_s: float = 0.0
    tool_latency_s: float = 0.0
    retrieval_s: float = 0.0

    @property
    def item_id(self) -> str:
        return f"{self.scenario_id}-{self.variant}"

    @property
    def executed_tasks(self) -> int:
        return len(self.steps)

    @property
    def elapsed_s(self) -> float:
        """Model time + tool latency + retrieval time (module docstring)."""
        return self.model_s + self.tool_latency_s + self.retrieval_s

    @property
    def repair_rounds(self) -> int:
        return sum(1 for p in self.plans if p["kind"] == "repair")

    @property
    def critic_parse_failures(self) -> int:
        return sum(1 for e in self.evaluations for v in e["verdicts"] if not v["parse_ok"])

    @property
    def critic_truncated(self) -> int:
        """Verdicts read from the head of an object cut before its closing brace."""
        return sum(1 for e in self.evaluations for v in e["verdicts"] if v.get("truncated"))

    def charge(self, role: str, completion: Completion) -> None:
        """Count one model call of `role` with the completion's tokens and latency."""
        self.model_calls += 1
        self.model_calls_by_role[role] += 1
        self.tokens_in += completion.prompt_tokens or 0
        self.tokens_out += completion.completion_tokens or 0
        self.model_s += completion.latency_s or 0.0

    def as_dict(self) -> dict[str, Any]:
        spec = VARIANT_SPECS[self.variant]
        return {
            "item_id": self.item_id, "scenario_id": self.scenario_id, "variant": self.variant,
            "shape": self.shape, "lang": self.lang, "agents": list(self.agents),
            "repairs": spec.repair, "simulator": spec.simulate, "critic": spec.critic,
            "outcome": self.outcome, "reason": self.reason, "error": self.error, "error_kind": self.error_kind,
            "score": self.score, "plan_scores": self.plan_scores,
            "plans": self.plans, "final_round": self.final_round, "plan_valid": self.plan_valid,
            "lenient_fixes": self.lenient_fixes,
            "repair_rounds": self.repair_rounds, "executed_plan": self.executed_plan,
            "evaluations": self.evaluations, "accepted_prefix": self.accepted_prefix,
            "no_valid_plan": self.no_valid_plan,
            "critic_parse_failures": self.critic_parse_failures, "critic_truncated": self.critic_truncated,
            "steps": [asdict(s) for s in self.steps], "answer": self.answer,
            "counters": {"executed_tasks": self.executed_tasks, "tool_calls": self.tool_calls,
                         "model_calls": self.model_calls, "tokens_in": self.tokens_in,
                         "tokens_out": self.tokens_out, "elapsed_s": round(self.elapsed_s, 4),
                         "model_s": round(self.model_s, 4), "tool_latency_s": round(self.tool_latency_s, 4),
                         "retrieval_s": round(self.retrieval_s, 4),
                         "model_calls_by_role": dict(sorted(self.model_calls_by_role.items()))},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SpinRun:
        """The run an as_dict() record describes (a resumed run)."""
        c = d["counters"]
        return cls(
            scenario_id=d["scenario_id"], variant=d["variant"], shape=d["shape"], lang=d["lang"],
            agents=list(d["agents"]), plans=list(d["plans"]), final_round=d["final_round"],
            plan_valid=d["plan_valid"], lenient_fixes=list(d.get("lenient_fixes", [])),
            executed_plan=d["executed_plan"], evaluations=list(d["evaluations"]),
            accepted_prefix=d["accepted_prefix"], no_valid_plan=bool(d.get("no_valid_plan", False)),
            steps=[StepRun(**s) for s in d["steps"]], answer=d["answer"],
            outcome=d["outcome"], reason=d["reason"], score=dict(d["score"]), plan_scores=dict(d["plan_scores"]),
            error=d["error"], error_kind=d["error_kind"], model_calls=c["model_calls"],
            model_calls_by_role=Counter(c["model_calls_by_role"]), tokens_in=c["tokens_in"],
            tokens_out=c["tokens_out"], tool_calls=c["tool_calls"], model_s=c["model_s"],
            tool_latency_s=c["tool_latency_s"], retrieval_s=c["retrieval_s"])


class _RunFailed(ToolUse1Error):
    """The backend gave no answer for one of the run's prompts: the run is an Error (not a model failure)."""


_T = TypeVar("_T")
# A run coroutine yields the prompts it needs and is sent their completions, in the same order; its
# return value is the phase's result.
_Ask = Generator[list[SpinPrompt], list[Completion], _T]
_Coroutine = _Ask[None]


# ----------------------------------------------------------------------------- scheduling

@dataclass
class _Request:
    """Prompts one run is waiting for: the answers arrive in any order, the run resumes when all are in."""

    co: _Coroutine
    run: SpinRun
    answers: list[Completion | None]
    missing: int


def _filled(answers: list[Completion | None]) -> list[Completion]:
    """The answers of a request that has all of them."""
    done = [a for a in answers if a is not None]
    assert len(done) == len(answers), "a request resumed before all its answers came"
    return done


class _Scheduler:
    """Routes completions to the runs waiting for them. A prompt is identified by its messages and token
    cap: one already answered is answered from memory, one being generated gets another waiter; only
    new ones go out (`take_new`), with a unique item id so completions can be matched back."""

    def __init__(self, runner: SpinRunner, on_finished: Callable[[SpinRun], None] | None) -> None:
        self.runner, self.on_finished = runner, on_finished
        self.waiters: dict[str, list[tuple[_Request, int]]] = {}
        self.key_of: dict[str, str] = {}          # item id sent -> prompt key
        self.new: list[SpinPrompt] = []
        self.seq = 0

    def start(self, co: _Coroutine, run: SpinRun) -> None:
        self._advance(co, run, None)

    def _advance(self, co: _Coroutine, run: SpinRun, sent: list[Completion] | None) -> None:
        while True:
            try:
                prompts = next(co) if sent is None else co.send(sent)   # next: primes the coroutine
            except StopIteration:
                if self.on_finished is not None:
                    self.on_finished(run)
                return
            self.runner.requested_prompts += len(prompts)
            req = _Request(co, run, [None] * len(prompts), len(prompts))
            for i, p in enumerate(prompts):
                key = self.runner.prompt_key(p)
                done = self.runner.memo.get(key)
                if done is not None:
                    req.answers[i] = done
                    req.missing -= 1
                elif key in self.waiters:
                    self.waiters[key].append((req, i))
                else:
                    self.waiters[key] = [(req, i)]
                    self.seq += 1
                    sent_prompt = dataclasses.replace(p, item_id=f"{p.item_id}:{self.seq}")
                    self.key_of[sent_prompt.item_id] = key
                    self.new.append(sent_prompt)
            if req.missing:
                return
            sent = _filled(req.answers)

    def take_new(self) -> list[SpinPrompt]:
        new, self.new = self.new, []
        self.runner.generated_prompts += len(new)
        return new

    def deliver(self, completion: Completion) -> None:
        """Hand a completion to every run waiting for its prompt, resuming those that have all theirs."""
        key = self.key_of.pop(completion.item_id)
        if completion.error is None:   # a failed request is not remembered: a later run retries it
            self.runner.memo[key] = completion
        for req, i in self.waiters.pop(key):
            req.answers[i] = completion
            req.missing -= 1
            if not req.missing:
                self._advance(req.co, req.run, _filled(req.answers))

    @property
    def busy(self) -> bool:
        return bool(self.waiters)


# ----------------------------------------------------------------------------- the runner

class SpinRunner:
    """Runs (scenario, variant) pairs against one backend, sharing and batching model calls across them.

    `store` is the trajectory store the simulator retrieves from (None = no retrieval, as an empty store);
    `rounds` is T, the repair rounds per run (0: the raw plan is executed leniently, unjudged, as BASE's);
    `top_k` the retrieved past steps per simulation;
    `max_new_tokens` the token cap per role (default ROLE_MAX_NEW_TOKENS; parse_role_caps builds one);
    `tool_latency_s` the World's simulated latency per tool (accounted, never slept); `stop_rule` the prefix
    loop's stopping rule (critic.STOP_RULES, module docstring); `critic_examples` the scenarios of the
    critic's worked examples (None: critic_examples() of the built scenarios' train split; () for none).
    Guarantees: `run` returns one SpinRun per input pair, in input order; it never raises for anything a
    model writes (such runs end Not accomplished or Error); BackendError from the backend and StoreError
    from the trajectory store propagate.
    """

    def __init__(self, backend: Backend, store: TrajectoryStore | None = None, *, rounds: int = DEFAULT_ROUNDS,
                 top_k: int = DEFAULT_TOP_K, max_new_tokens: Mapping[str, int] | None = None,
                 tool_latency_s: Mapping[str, float] = TOOL_LATENCY_S, stop_rule: str = DEFAULT_STOP_RULE,
                 critic_examples: Sequence[Scenario] | None = None) -> None:
        if stop_rule not in STOP_RULES:
            raise ValueError(f"unknown stop rule {stop_rule!r}: use one of {', '.join(STOP_RULES)}")
        if rounds < 0:
            raise ValueError(f"rounds must be >= 0, got {rounds}")
        if top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {top_k}")
        self.backend, self.store = backend, store
        self.rounds, self.top_k = rounds, top_k
        self.caps: dict[str, int] = {**ROLE_MAX_NEW_TOKENS, **(max_new_tokens or {})}
        self.tool_latency_s = dict(tool_latency_s)
        self.stop_rule = stop_rule
        examples = list(critic_examples) if critic_examples is not None else _default_critic_examples()
        self.critic_example_ids = [s.id for s in examples]
        self.critic_examples_text = critic_examples_text(examples)
        self.memo: dict[str, Completion] = {}
        self.generate_calls = 0       # backend.generate (or generate_continuous) calls made
        self.generated_prompts = 0    # prompts sent to the backend (after de-duplication)
        self.requested_prompts = 0    # prompts the runs asked for
        self.continuous = False         # whether the last run used the backend's continuous admission

    # --- scheduling ---------------------------------------------------------------------------------

    def cap_for(self, prompt: SpinPrompt) -> int:
        """The most new tokens a prompt is generated with (its role's cap)."""
        return self.caps[prompt.role]

    def request(self, prompt: SpinPrompt) -> Request:
        """What the backend is asked: the prompt under its role's cap, a critic's with its stop test."""
        return Request(prompt, self.cap_for(prompt), _stop_text(prompt))

    def prompt_key(self, prompt: SpinPrompt) -> str:
        return json.dumps([prompt.messages, self.cap_for(prompt)], ensure_ascii=False, sort_keys=True)

    def run(self, items: Sequence[tuple[Scenario, str]],
            on_finished: Callable[[SpinRun], None] | None = None) -> list[SpinRun]:
        """Run every (scenario, variant); `on_finished(run)` is called as each run ends."""
        for _, variant in items:
            if variant not in VARIANT_SPECS:
                raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        records = [SpinRun(s.id, v, s.shape, s.lang, list(s.agents)) for s, v in items]
        sched = _Scheduler(self, on_finished)
        for (scenario, variant), rec in zip(items, records):
            sched.start(self._run(scenario, variant, rec), rec)
        self.continuous = self.backend.capabilities.continuous
        if self.continuous:
            first = sched.take_new()
            if first:
                self.generate_calls += 1

                def on_complete(c: Completion) -> list[Request]:
                    sched.deliver(c)
                    return [self.request(p) for p in sched.take_new()]

                cast(ContinuousBackend, self.backend).generate_continuous([self.request(p) for p in first], on_complete)
        else:
            while True:
                prompts = sched.take_new()
                if not prompts:
                    break
                for c in self._generate_round(prompts):
                    sched.deliver(c)
        if sched.busy:   # pragma: no cover - a backend that dropped completions
            raise RuntimeError("the backend returned no completion for some prompts")
        return records

    def _generate_round(self, prompts: list[SpinPrompt]) -> list[Completion]:
        """One round's completions: a single generate_requests when the backend declares per-row caps, else
        one generate per distinct cap."""
        if self.backend.capabilities.row_caps:
            self.generate_calls += 1
            return cast(RequestBackend, self.backend).generate_requests([self.request(p) for p in prompts])
        out: list[Completion] = []
        by_cap: dict[int, list[Prompt]] = defaultdict(list)
        for p in prompts:
            by_cap[self.cap_for(p)].append(p)
        for cap, group in by_cap.items():
            self.generate_calls += 1
            out += self.backend.generate(group, DecodingConfig(max_new_tokens=cap))
        return out

    def _ask(self, rec: SpinRun, prompts: list[SpinPrompt]) -> _Ask[list[str]]:
        """Yield prompts, charge their completions to `rec`, return the texts; _RunFailed on a backend error."""
        completions = yield prompts
        for p, c in zip(prompts, completions, strict=True):
            rec.charge(p.role, c)
        for p, c in zip(prompts, completions):
            if c.error is not None:
                raise _RunFailed(f"backend error on {p.label}: {c.error}")
        return [c.text for c in completions]

    def _ask1(self, rec: SpinRun, scenario: Scenario, variant: str, role: str, n: int, text: str) -> _Ask[str]:
        return (yield from self._ask(rec, [make_prompt(scenario.id, variant, role, n, _user(text))]))[0]

    # --- one run ------------------------------------------------------------------------------------

    def _run(self, scenario: Scenario, variant: str, rec: SpinRun) -> _Coroutine:
        try:
            plan = yield from (self._plan(scenario, variant, rec) if VARIANT_SPECS[variant].repair
                               else self._plan_lenient(scenario, variant, rec))
            if plan is None:
                rec.score = error_score(scenario, rec.reason).as_dict()
                rec.plan_scores = plan_scores_of(scenario, rec.as_dict())
                return
            executed = plan if rec.accepted_prefix is None else plan.prefix(rec.accepted_prefix)
            rec.executed_plan = executed.render()
            yield from self._execute(scenario, variant, rec, executed)
            text = yield from self._ask1(rec, scenario, variant, "answer", 0,
                                         answer_prompt_text(scenario.question, rec.steps))
            rec.answer = strip_thinking(text)[0]
            score = score_run(scenario, carried_out(rec.steps), rec.answer)
            for step, status in zip(rec.steps, step_statuses(scenario, rec.steps)):
                step.status = status
            rec.outcome, rec.reason, rec.score = score.outcome, score.reason, score.as_dict()
            rec.plan_scores = plan_scores_of(scenario, rec.as_dict())
        except _RunFailed as e:
            rec.outcome, rec.error, rec.error_kind, rec.reason = ERROR, str(e), "backend", f"the run failed: {e}"
            rec.score = error_score(scenario, rec.reason).as_dict()
        except StoreError:
            raise   # the trajectory store is unusable: a setup problem for the user, like a BackendError
        except Exception as e:  # noqa: BLE001 - one broken run must not take the other runs down
            rec.outcome, rec.error, rec.error_kind = ERROR, f"internal error: {type(e).__name__}: {e}", "internal"
            rec.reason = f"the run failed: {rec.error}"
            rec.score = error_score(scenario, rec.reason).as_dict()

    def _ask_plan(self, rec: SpinRun, scenario: Scenario, variant: str, role: str, n: int, prompt: str,
                  feedback: bool = False, simulated: bool = False) -> _Ask[tuple[str, bool, list[PlanIssue]]]:
        """Ask for a plan (or a repair), record it with its validation; (text, valid, issues)."""
        text = strip_thinking((yield from self._ask1(rec, scenario, variant, role, n, prompt)))[0]
        ok, issues = validate_plan_text(text, scenario.agents)
        rec.plans.append({"round": len(rec.plans), "kind": role, "text": text, "valid": ok,
                          "issues": [i.rule for i in issues], "feedback": feedback, "simulated": simulated})
        return text, ok, issues

    def _plan_lenient(self, scenario: Scenario, variant: str, rec: SpinRun) -> _Ask[Plan | None]:
        """BASE: the raw plan read leniently (plan.lenient_plan); None when nothing can be executed."""
        text, ok, _ = yield from self._ask_plan(rec, scenario, variant, "plan", 0, planner_prompt_text(scenario))
        rec.plan_valid = ok
        read = lenient_plan(text, scenario.agents)
        rec.lenient_fixes = list(read.fixes)
        if read.plan is None:
            rec.reason = "nothing to execute: the plan has no task with an agent line"
        return read.plan

    def _plan(self, scenario: Scenario, variant: str, rec: SpinRun) -> _Ask[Plan | None]:
        """Plan, then the code's repair rounds (module docstring, 3.): the plan to execute, or None when not
        one step can be read from the last repair (Error). Sets rec.accepted_prefix, rec.final_round,
        rec.plan_valid and rec.no_valid_plan."""
        spec = VARIANT_SPECS[variant]
        base = planner_prompt_text(scenario)
        text, ok, issues = yield from self._ask_plan(rec, scenario, variant, "plan", 0, base)
        for t in range(1, self.rounds + 1):
            feedback: SpinFeedback | None = None
            simulated: list[tuple[PlanStep, str]] | None = None
            if ok:
                plan = parse_plan(text, scenario.agents)
                if not spec.prefix_eval:
                    return self._chose_valid(rec, plan)
                if spec.critic:
                    accepted, feedback = yield from self._evaluate(scenario, variant, rec, plan)
                    if accepted is not None:
                        rec.accepted_prefix = accepted
                        return self._chose_valid(rec, plan)
                else:   # spin_wo_cri: the planner revises the plan with every step's predicted output
                    outputs = yield from self._simulate_all(scenario, variant, rec, plan)
                    simulated = list(zip(plan.steps, outputs))
            prompt = build_repair_prompt(base, text, issues, feedback, simulated, spin_rules=spec.critic)
            text, ok, issues = yield from self._ask_plan(rec, scenario, variant, "repair", t, prompt,
                                                         feedback=feedback is not None, simulated=bool(simulated))
        # The rounds ran out: the last repair is executed as the code executes it, unvalidated and unjudged.
        rec.final_round, rec.plan_valid, rec.no_valid_plan = len(rec.plans) - 1, ok, not ok
        read = lenient_plan(text, scenario.agents)
        rec.lenient_fixes = list(read.fixes)
        if read.plan is None:
            rec.reason = (f"nothing to execute: the last of {self.rounds} repair(s) has no task with an agent line"
                          + (": " + "; ".join(i.message for i in issues) if issues else ""))
        return read.plan

    @staticmethod
    def _chose_valid(rec: SpinRun, plan: Plan) -> Plan:
        """Record that the run executes the valid plan it asked for last."""
        rec.final_round, rec.plan_valid = len(rec.plans) - 1, True
        return plan

    def _retrieve(self, scenario: Scenario, step: PlanStep, rec: SpinRun) -> list[StepRecord]:
        """The top-k Accomplished past steps of the step's agent, never from this scenario."""
        if self.store is None or self.top_k == 0:
            return []
        started = time.perf_counter()
        hits = self.store.search(retrieval_text(scenario.question, step.agent, step.task), agent=step.agent,
                                 k=self.top_k, exclude_scenario=scenario.id, status=ACCOMPLISHED)
        rec.retrieval_s += time.perf_counter() - started
        return [record for record, _ in hits]

    def _simulate(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan, ks: Sequence[int]
                  ) -> _Ask[list[str]]:
        """The simulated outputs of steps `ks`, asked together (each prediction depends on the plan only)."""
        prompts = [make_prompt(scenario.id, variant, "simulate", k, _user(simulator_prompt_text(
            scenario.question, plan, k, self._retrieve(scenario, plan.steps[k - 1], rec)))) for k in ks]
        outs = yield from self._ask(rec, prompts)
        return [" ".join(strip_thinking(out)[0].split())[:SIMULATED_MAX_CHARS] for out in outs]

    def _simulate_all(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan) -> _Ask[list[str]]:
        """spin_wo_cri: every step's simulated output, recorded as one evaluation without verdicts."""
        simulated = yield from self._simulate(scenario, variant, rec, plan, range(1, len(plan) + 1))
        rec.evaluations.append({"plan_round": len(rec.plans) - 1, "simulated": simulated, "verdicts": [],
                                "accepted": None})
        return simulated

    def _evaluate(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan
                  ) -> _Ask[tuple[int | None, SpinFeedback]]:
        """The prefix loop (module docstring, 4.): (the accepted prefix length or None, the feedback of the
        verdict where the loop stopped, with stop_index = that prefix)."""
        spec = VARIANT_SPECS[variant]
        simulated: list[str] = []
        verdicts: list[dict[str, Any]] = []
        entry: dict[str, Any] = {"plan_round": len(rec.plans) - 1, "simulated": simulated, "verdicts": verdicts,
                                 "accepted": None, "stop_index": None}
        rec.evaluations.append(entry)
        for k in range(1, len(plan) + 1):
            if spec.simulate:   # one step at a time: a loop that stops now makes later predictions unneeded
                simulated += yield from self._simulate(scenario, variant, rec, plan, [k])
            raw = yield from self._ask1(rec, scenario, variant, "critic", k, critic_prompt_text(
                scenario.question, plan, k, simulated if spec.simulate else None, self.critic_examples_text))
            verdict = parse_critic_output(raw)   # reads the first object; text written after it is ignored
            verdicts.append({"k": k, "status": verdict.status, "can_answer_now": verdict.can_answer_now,
                             "rationale": verdict.rationale, "parse_ok": verdict.parse_ok,
                             "truncated": verdict.truncated})
            entry["stop_index"] = k
            if stops_prefix_loop(verdict, self.stop_rule):
                break
        feedback = SpinFeedback.from_verdict(verdict, entry["stop_index"])
        if accepts(verdict):
            entry["accepted"] = entry["stop_index"]
        return entry["accepted"], feedback

    def _execute(self, scenario: Scenario, variant: str, rec: SpinRun, plan: Plan) -> _Ask[None]:
        """Run the plan level by level in a fresh World; every step gets its dependencies' outputs."""
        world = World(latency_s=self.tool_latency_s, sleep=False)
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
                    rec.tool_latency_s += result.latency_s
                    run.call = {"name": call.name, "arguments": call.arguments}
                    run.ok, run.output, run.error = result.ok, result.output, result.error
                rec.steps.append(run)
                done[step.index] = (step, run.output if run.ok else f"(this step failed: {run.error})")
        rec.steps.sort(key=lambda s: s.index)


# ----------------------------------------------------------------------------- trajectories and plans

def trajectory_records(run: SpinRun, question: str, run_id: str) -> list[StepRecord]:
    """StepRecords of every executed step of a run, each with its own status (StepRun.status, set when the
    run was scored; a step scored before statuses existed counts as Not accomplished unless it ran), as
    the code stores every executed step; the simulator retrieves only Accomplished ones. Each summary is
    retrieval_text + the output (or the failure), so the simulator's queries embed like the stored steps.
    run_id + scenario + step index is the store key, so saving the same model/variant again adds nothing
    (the first write wins). A run that failed (error_kind set) gives []."""
    if run.error_kind is not None:
        return []
    records = []
    for s in run.steps:
        output = s.output if s.ok else f"(failed: {s.error})"
        status = s.status or (PARTIALLY if s.ok else NOT_ACCOMPLISHED)
        records.append(StepRecord(scenario_id=run.scenario_id, run_id=run_id, step_index=s.index, agent=s.agent,
                                  task=s.task, question=question, output=output, status=status,
                                  summary=f"{retrieval_text(question, s.agent, s.task)}\nOutput: {output}"))
    return records


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
    """The scenario's reference plan (required, then allowed calls) written as a valid plan, one step per
    call, depends_on as #S<n>."""
    blocks = []
    for i, rc in enumerate(scenario.reference_calls, 1):
        deps = " ".join(f"#S{d}" for d in rc.depends_on) or "None"
        blocks.append("\n".join((
            f"#Task{i}: Call {rc.name} with {json.dumps(rc.arguments, ensure_ascii=False, sort_keys=True)}",
            f"#Agent{i}: {rc.name}", f"#Dependency{i}: {deps}", f"#ExpectedOutput{i}: The result of {rc.name}")))
    return "\n\n".join(blocks)


class SpinOracleBackend:
    """A scripted SPIN model that knows each scenario's answer (selected by `--model oracle`): it plans the
    reference plan, repeats it when asked to repair, simulates each step with its real output, accepts
    exactly the sufficient prefix (the required calls), calls each step's reference call with the canonical
    arguments, and answers with the reference. Every variant then ends Accomplished on every scenario: a
    deterministic end-to-end check of the track. No tokens are reported (prompt/completion_tokens None)."""

    name = "scripted-spin-oracle"
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, scenarios: Iterable[Scenario]) -> None:
        self._scenarios = {s.id: s for s in scenarios}

    def _answer(self, prompt: Prompt) -> str:
        s = self._scenarios[prompt.case_id]
        role, n = role_of(prompt)
        calls = s.reference_calls
        if role in ("plan", "repair"):
            return oracle_plan_text(s)
        if role == "simulate":
            return calls[n - 1].output if n <= len(calls) else ""
        if role == "critic":
            done = n >= s.sufficient_prefix
            return json.dumps({"status": ACCOMPLISHED if done else PARTIALLY, "can_answer_now": done,
                               "rationale": "the sufficient prefix is done" if done else "more steps are needed"})
        if role == "step":
            return format_call(calls[n - 1].call, "json")
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
