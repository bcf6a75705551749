"""SPIN runner, scoring and pytest track (tooluse1.spin.runner / scoring / plugin / resume, test_plan.py).

Exact behaviour is pinned with a scripted model (a fake Backend answering by the prompt's role and
content); the whole track runs end to end with the scripted SPIN oracle in a subprocess (Accomplished on
every scenario x variant) and with the small real model (smollm2 through the transformers backend).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tooluse1.backends.base import Capabilities, Completion, DecodingConfig, Request
from tooluse1.prompts import Prompt, format_call
from tooluse1.spin.embed import HashingEmbedder
from tooluse1.spin.plan import parse_plan, validate_plan_text
from tooluse1.spin.prompts import executor_step_messages
from tooluse1.spin.runner import (
    ROLE_MAX_NEW_TOKENS,
    VARIANTS,
    SpinOracleBackend,
    SpinRun,
    SpinRunner,
    dependency_levels,
    make_prompt,
    oracle_plan_text,
    parse_role_caps,
    parse_variants,
    retrieval_text,
    role_of,
    save_plan_texts,
)
from tooluse1.spin.scenarios import RequiredCall, Scenario, load_scenarios
from tooluse1.spin.scoring import incidence_for_dir, match_calls, score_run
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY, SQLiteStore, StepRecord
from tooluse1.tools import Call
from tooluse1.world import TOOL_LATENCY_S

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = {s.id: s for s in load_scenarios()[0]}
TEST_SCENARIOS = {sid: s for sid, s in SCENARIOS.items() if s.split == "test"}

# early_answer-en-001: the weather in Paris answers it; the time and the conversion are tempting extras.
EARLY = SCENARIOS["early_answer-en-001"]
OVER_PLAN = """\
#Task1: Get the current weather in Paris
#Agent1: get_weather
#Dependency1: None
#ExpectedOutput1: The weather in Paris
#Task2: Get the local time in Paris
#Agent2: get_time
#Dependency2: None
#ExpectedOutput2: The time in Paris
#Task3: Convert 20 EUR to USD
#Agent3: convert_currency
#Dependency3: None
#ExpectedOutput3: The amount in USD
#Task4: Get the weather in Paris in fahrenheit
#Agent4: get_weather
#Dependency4: #S1
#ExpectedOutput4: The weather in fahrenheit"""
OVER_CALLS = {1: Call("get_weather", {"city": "Paris"}), 2: Call("get_time", {"timezone": "Europe/Paris"}),
              3: Call("convert_currency", {"amount": 20, "from_currency": "EUR", "to_currency": "USD"}),
              4: Call("get_weather", {"city": "Paris", "unit": "fahrenheit"})}

# chain-en-001: get_weather(Berlin) -> convert_units(14, celsius, kelvin).
CHAIN = SCENARIOS["chain-en-001"]
CHAIN_CALLS = {1: Call("get_weather", {"city": "Berlin"}),
               2: Call("convert_units", {"value": 14, "from_unit": "celsius", "to_unit": "kelvin"})}
CHAIN_VALID = """\
#Task1: Get the current weather in Berlin
#Agent1: get_weather
#Dependency1: None
#ExpectedOutput1: The temperature in Berlin in celsius
#Task2: Convert that temperature to kelvin
#Agent2: convert_units
#Dependency2: #S1
#ExpectedOutput2: The temperature in kelvin"""
CHAIN_FORWARD = CHAIN_VALID.replace("#Dependency1: None", "#Dependency1: #S2")
CHAIN_BAD_AGENT = CHAIN_VALID.replace("#Agent1: get_weather", "#Agent1: weather_api")

ACCEPT = json.dumps({"status": "Accomplished", "can_answer_now": True, "rationale": "enough"})
PARTIAL_NOW = json.dumps({"status": "Partially accomplished", "can_answer_now": True, "rationale": "on topic"})
REJECT = json.dumps({"status": "Not accomplished", "can_answer_now": False, "rationale": "not enough"})


class ScriptedModel:
    """A fake Backend: `answer(role, n, prompt_text, prompt)` gives each completion; every prompt is kept."""

    name = "scripted-test"
    capabilities = Capabilities()

    def __init__(self, answer: Callable[[str, int, str, Prompt], str], fail_role: str | None = None) -> None:
        self.answer, self.fail_role = answer, fail_role
        self.prompts: list[Prompt] = []
        self.caps: dict[str, set[int]] = {}     # role -> token caps it was generated with
        self.batches: list[list[str]] = []       # the roles of each generate call
        self.calls = 0

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig, on_complete: Any = None) -> list[Completion]:
        self.calls += 1
        self.batches.append([role_of(p)[0] for p in prompts])
        out = []
        for p in prompts:
            self.prompts.append(p)
            role, n = role_of(p)
            self.caps.setdefault(role, set()).add(config.max_new_tokens)
            text = "\n".join(m["content"] for m in p.messages)
            if role == self.fail_role:
                out.append(Completion(p.item_id, "", "error", error="connection reset"))
            else:
                out.append(Completion(p.item_id, self.answer(role, n, text, p), prompt_tokens=10, completion_tokens=3,
                                      latency_s=0.5))
        return out

    def provenance(self) -> dict:
        return {"backend": self.name}

    def close(self) -> None:
        pass

    def texts(self, role: str, variant: str | None = None) -> list[str]:
        return ["\n".join(m["content"] for m in p.messages) for p in self.prompts
                if role_of(p)[0] == role and (variant is None or p.item_id.split(":")[0].endswith("-" + variant))]


def early_model(critic: Callable[[int], str] = lambda k: ACCEPT if k == 1 else REJECT,
                plan: str = OVER_PLAN, repair: Callable[[int, str], str] | None = None) -> ScriptedModel:
    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role == "plan":
            return plan
        if role == "repair":
            return repair(n, text) if repair else plan
        if role == "simulate":
            return "Paris: 18°C, sunny"
        if role == "critic":
            return critic(n)
        if role == "step":
            return format_call(OVER_CALLS[n], "json")
        return EARLY.reference
    return ScriptedModel(answer)


def run(model: ScriptedModel, items: list[tuple[Scenario, str]], **kw: Any) -> dict[str, SpinRun]:
    return {r.variant: r for r in SpinRunner(model, **kw).run(items)}


# ----------------------------------------------------------------------------- variants

def test_over_plan_spin_executes_the_sufficient_prefix_base_executes_all():
    model = early_model()
    runs = run(model, [(EARLY, v) for v in VARIANTS])
    assert {v: r.executed_tasks for v, r in runs.items()} == {
        "base": 4, "valid": 4, "spin": 1, "spin_wo_sim": 1, "spin_wo_cri": 4}
    assert all(r.outcome == ACCOMPLISHED for r in runs.values())
    assert runs["spin"].accepted_prefix == 1 and runs["base"].accepted_prefix is None
    assert runs["base"].score["n_extra"] == 3 and runs["spin"].score["n_extra"] == 0
    assert runs["spin"].tool_calls == 1 and runs["base"].tool_calls == 4
    # Costs: spin = plan + simulate 1 + critic 1 + step + answer; the ablations drop their part.
    assert dict(runs["spin"].model_calls_by_role) == {"plan": 1, "simulate": 1, "critic": 1, "step": 1, "answer": 1}
    assert dict(runs["spin_wo_sim"].model_calls_by_role) == {"plan": 1, "critic": 1, "step": 1, "answer": 1}
    # spin_wo_cri repairs T = 3 times, each time with the simulated outputs of the plan it repairs (the code).
    assert dict(runs["spin_wo_cri"].model_calls_by_role) == {"plan": 1, "simulate": 12, "repair": 3, "step": 4,
                                                             "answer": 1}
    assert dict(runs["base"].model_calls_by_role) == {"plan": 1, "step": 4, "answer": 1}
    assert runs["spin"].tokens_in == 50 and runs["spin"].tokens_out == 15
    # Elapsed time = model time + the World's simulated latency of the tools called (accounted, not slept).
    assert runs["spin"].model_s == pytest.approx(2.5) and runs["spin"].tool_latency_s == TOOL_LATENCY_S["get_weather"]
    assert runs["spin"].elapsed_s == pytest.approx(2.5 + TOOL_LATENCY_S["get_weather"])
    assert runs["base"].tool_latency_s == pytest.approx(sum(TOOL_LATENCY_S[c.name] for c in OVER_CALLS.values()))
    # The critic of spin sees simulated outputs; the one of spin_wo_sim judges from the plan alone.
    assert "#S1 (get_weather: Get the current weather in Paris): Paris: 18°C, sunny" in model.texts("critic", "spin")[0]
    assert "judge from the plan alone" in model.texts("critic", "spin_wo_sim")[0]
    # spin_wo_cri showed the predictions to the planner, which kept its plan: nothing stopped it early.
    assert "=== Simulated Execution (No Critic) ===" in model.texts("repair", "spin_wo_cri")[0]


def test_prompts_are_batched_across_runs_and_shared_between_variants():
    model = early_model()
    runner = SpinRunner(model)
    runner.run([(EARLY, "base"), (EARLY, "valid"), (CHAIN, "base")])
    first = model.prompts[:2]   # one generate call holds both scenarios' planner prompts, asked once
    assert [role_of(p)[0] for p in first] == ["plan", "plan"] and {p.case_id for p in first} == {EARLY.id, CHAIN.id}
    assert runner.requested_prompts > runner.generated_prompts   # base and valid share every prompt


def test_forward_reference_repaired_in_round_two():
    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role == "plan":
            return CHAIN_FORWARD
        if role == "repair":
            return {1: CHAIN_BAD_AGENT, 2: CHAIN_VALID}.get(n, CHAIN_VALID)
        if role == "critic":   # Partially at step 1 (the loop goes on), Accomplished at step 2
            return PARTIAL_NOW if n == 1 else ACCEPT
        if role == "simulate":
            return "Berlin: 14°C" if n == 1 else "287.15 K"
        if role == "step":
            return format_call(CHAIN_CALLS[n], "json")
        return CHAIN.reference
    model = ScriptedModel(answer)
    runs = run(model, [(CHAIN, v) for v in ("base", "valid", "spin")])
    base = runs["base"]   # executes the raw plan leniently: the forward reference is dropped
    assert base.outcome == ACCOMPLISHED and base.executed_tasks == 2 and not base.plan_valid
    assert base.lenient_fixes == ["Dependency1 '#S2': only None kept (earlier steps only)"]
    for v in ("valid", "spin"):
        r = runs[v]
        assert r.outcome == ACCOMPLISHED, r.reason
        assert [p["valid"] for p in r.plans] == [False, False, True] and r.repair_rounds == 2
        assert "DEPENDENCY_FORWARD_REFERENCE" in r.plans[0]["issues"]
        assert r.plans[1]["issues"] == ["AGENT_UNKNOWN"] and r.final_round == 2
    assert runs["spin"].accepted_prefix == 2
    repairs = model.texts("repair", "valid")
    assert "[DEPENDENCY_FORWARD_REFERENCE]" in repairs[0] and CHAIN_FORWARD in repairs[0]
    assert "[AGENT_UNKNOWN]" in repairs[1] and CHAIN_BAD_AGENT in repairs[1]   # round 2 repairs round 1's plan
    assert "SPIN Evaluation Feedback" not in repairs[0]


def test_dependency_outputs_reach_the_executor_step_prompt():
    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role in ("plan", "repair"):
            return CHAIN_VALID
        if role == "step":
            return format_call(CHAIN_CALLS[n], "json")
        return CHAIN.reference
    model = ScriptedModel(answer)
    r = run(model, [(CHAIN, "valid")])["valid"]
    step1, step2 = model.texts("step")
    assert "This task depends on no earlier step." in step1
    assert "#S1 (get_weather: Get the current weather in Berlin): Berlin: 14°C, cloudy" in step2
    assert "None" not in step2.split("Outputs of the earlier steps")[1]
    assert [s.output for s in r.steps] == ["Berlin: 14°C, cloudy", "14°C = 287.15 K"]
    # The answer prompt holds the executed calls and their outputs.
    assert "287.15 K" in model.texts("answer")[0]


def test_executor_prompt_passes_exactly_the_declared_dependencies():
    plan = parse_plan(OVER_PLAN, EARLY.agents)
    outputs = {i: (plan.steps[i - 1], f"OUT{i}") for i in (1, 2, 3)}
    system, user = executor_step_messages(EARLY.question, plan.steps[3], outputs)
    assert '"name": "get_weather"' in system["content"] and '"name": "get_time"' not in system["content"]
    assert "OUT1" in user["content"] and "OUT2" not in user["content"] and "OUT3" not in user["content"]
    assert [[s.index for s in level] for level in dependency_levels(plan)] == [[1, 2, 3], [4]]


def test_plan_still_invalid_after_T_rounds_runs_the_last_repair_leniently():
    """As the public code: after T rounds the last repair is executed unvalidated, read like BASE's plan
    (unknown agent -> the first agent); the run counts as no_valid_plan, whatever its outcome."""
    model = early_model(plan=CHAIN_BAD_AGENT)
    runs = run(model, [(EARLY, v) for v in ("valid", "spin", "spin_wo_sim", "spin_wo_cri")])
    for r in runs.values():
        assert r.repair_rounds == 3 and len(r.plans) == 4 and not r.plan_valid and r.no_valid_plan
        assert r.final_round == 3 and r.executed_tasks == 2 and r.outcome != "Error"
        assert r.lenient_fixes[0] == "Agent1 unknown 'weather_api': runs as 'get_weather' (the first agent)"
        assert r.evaluations == []   # an invalid plan is never judged
    assert runs["valid"].as_dict()["no_valid_plan"] is True
    zero = run(early_model(), [(EARLY, "spin")], rounds=0)["spin"]   # T = 0: the raw plan, unjudged, as BASE
    assert zero.evaluations == [] and zero.executed_tasks == 4 and zero.model_calls_by_role["critic"] == 0
    nothing = run(early_model(plan="I cannot plan this."), [(EARLY, "valid")], rounds=1)["valid"]
    assert nothing.repair_rounds == 1 and nothing.outcome == "Error" and nothing.no_valid_plan
    assert "nothing to execute" in nothing.reason and nothing.model_calls == 2   # plan + 1 repair


def test_critic_parse_failure_stops_the_code_loop_and_defers_under_the_paper_rule():
    """A verdict that cannot be read is Not accomplished: the code's loop stops there and sends the plan to
    repair; the paper's rule goes on to the next prefix. Neither accepts it."""
    model = early_model(critic=lambda k: "I think it is fine")
    r = run(model, [(EARLY, "spin")])["spin"]
    # Each of rounds 0-2 is judged at step 1 only (the failed parse stops the loop), then repaired; the
    # planner repeats its plan, so the third repair is executed whole.
    assert [len(e["verdicts"]) for e in r.evaluations] == [1, 1, 1]
    assert r.accepted_prefix is None and r.executed_tasks == 4 and r.repair_rounds == 3
    assert r.critic_parse_failures == 3 and r.outcome == ACCOMPLISHED and not r.no_valid_plan
    repair = model.texts("repair")[0]
    assert "SPIN Evaluation Feedback" in repair and "Failed to parse critic JSON" in repair
    assert "- stop_index: 1 " in repair and "Truncated plan" in repair
    truncated = repair.split("Truncated plan (use this as the current plan context for repair):\n")[1]
    assert truncated.startswith("#Task1: Get the current weather in Paris")
    assert "#Task2" not in truncated.split("===")[0]
    paper = run(early_model(critic=lambda k: "I think it is fine"), [(EARLY, "spin")], stop_rule="paper")["spin"]
    assert [len(e["verdicts"]) for e in paper.evaluations] == [4, 4, 4] and paper.critic_parse_failures == 12


def test_feedback_revision_is_evaluated_again():
    short = OVER_PLAN.split("#Task2")[0].strip()
    model = early_model(critic=lambda k: REJECT, repair=lambda n, text: short)
    # The 4-step plan is rejected at step 1; each revision (1 step) is judged again and rejected; the
    # third revision is executed unjudged.
    r = run(model, [(EARLY, "spin")])["spin"]
    assert [len(parse_plan(p["text"], EARLY.agents)) for p in r.plans] == [4, 1, 1, 1]
    assert len(r.evaluations) == 3 and r.executed_tasks == 1 and r.outcome == ACCOMPLISHED
    assert r.final_round == 3 and r.accepted_prefix is None


def test_feedback_revision_that_breaks_the_plan_is_executed_leniently():
    model = early_model(critic=lambda k: REJECT, repair=lambda n, text: CHAIN_BAD_AGENT)
    r = run(model, [(EARLY, "spin")], rounds=2)["spin"]
    assert [p["valid"] for p in r.plans] == [True, False, False]
    assert r.final_round == 2 and r.no_valid_plan and r.executed_tasks == 2   # the last repair, leniently


def test_backend_error_makes_the_run_an_error():
    model = early_model()
    model.fail_role = "step"
    r = run(model, [(EARLY, "base")])["base"]
    assert r.outcome == "Error" and r.error_kind == "backend" and "connection reset" in r.error


def test_step_without_a_call_of_its_agent_is_a_failed_step():
    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role in ("plan", "repair"):
            return CHAIN_VALID
        if role == "step":
            return "I would call a tool here." if n == 1 else format_call(CHAIN_CALLS[1], "json")
        return "no idea"
    model = ScriptedModel(answer)
    r = run(model, [(CHAIN, "valid")])["valid"]
    s1, s2 = r.steps
    assert s1.call is None and not s1.ok and "no call of get_weather" in s1.error
    assert s2.call is None and "got: get_weather" in s2.error   # wrong tool for step 2: not executed
    assert "(this step failed" in model.texts("step")[1]
    assert r.tool_calls == 0 and r.executed_tasks == 2 and r.outcome == NOT_ACCOMPLISHED


# ----------------------------------------------------------------------------- faithfulness to the paper

def test_base_executes_an_invalid_raw_plan_leniently():
    """The paper's BASE runs raw plans without validation: an unknown agent runs as the first agent.
    Only a plan with nothing executable is an Error."""
    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role == "plan":
            return CHAIN_BAD_AGENT
        if role == "step":
            return format_call(CHAIN_CALLS[n], "json")
        return CHAIN.reference
    base = run(ScriptedModel(answer), [(CHAIN, "base")])["base"]
    assert not base.plan_valid and base.plans[0]["issues"] == ["AGENT_UNKNOWN"]
    assert base.outcome == ACCOMPLISHED and base.executed_tasks == 2
    assert base.lenient_fixes == ["Agent1 unknown 'weather_api': runs as 'get_weather' (the first agent)"]
    nothing = run(early_model(plan="I cannot plan this."), [(EARLY, "base")])["base"]
    assert nothing.outcome == "Error" and nothing.executed_tasks == 0 and "nothing to execute" in nothing.reason
    assert nothing.model_calls == 1


def test_spin_wo_cri_feeds_the_simulation_into_repairs():
    """Without a critic the simulated outputs go into the repair prompt; a planner that shortens its plan
    on seeing them executes less than `valid`, which never sees them."""
    short = OVER_PLAN.split("#Task2")[0].strip()
    model = early_model(repair=lambda n, text: short if "Simulated Execution" in text else OVER_PLAN)
    runs = run(model, [(EARLY, "valid"), (EARLY, "spin_wo_cri")])
    assert runs["valid"].executed_tasks == 4 and runs["spin_wo_cri"].executed_tasks == 1
    repair = model.texts("repair", "spin_wo_cri")[0]
    assert repair.count("Paris: 18°C, sunny") == 4 and "#S3 (convert_currency: Convert 20 EUR to USD)" in repair
    cri = runs["spin_wo_cri"]
    # Round 0 simulated (4 steps), each revision simulated again (1 step) and revised; T = 3 revisions.
    assert [len(e["simulated"]) for e in cri.evaluations] == [4, 1, 1] and cri.repair_rounds == 3
    # A prediction depends on the plan only (the paper's DAG prefix), so a round's steps are asked together.
    assert ["simulate"] * 4 in model.batches
    assert all(e["verdicts"] == [] for e in cri.evaluations) and cri.accepted_prefix is None


def test_code_stop_rule_against_the_paper_text():
    """Code (default): stop at Accomplished or Not accomplished, go on after Partially, test acceptance
    (can_answer_now AND Accomplished/Partially) where it stopped. Paper text: stop at the first accepting
    verdict."""
    not_yet = json.dumps({"status": "Accomplished", "can_answer_now": False, "rationale": "looks right"})
    r = run(early_model(critic=lambda k: not_yet), [(EARLY, "spin")], rounds=1)["spin"]
    # Accomplished stops the loop at step 1, but without can_answer_now nothing is accepted: repaired once.
    assert [v["k"] for v in r.evaluations[0]["verdicts"]] == [1] and r.evaluations[0]["stop_index"] == 1
    assert r.accepted_prefix is None and r.repair_rounds == 1 and r.executed_tasks == 4
    r = run(early_model(critic=lambda k: not_yet), [(EARLY, "spin")], rounds=1, stop_rule="paper")["spin"]
    assert [v["k"] for v in r.evaluations[0]["verdicts"]] == [1, 2, 3, 4] and r.accepted_prefix is None
    # Partially + can_answer_now at step 2, then Not accomplished at step 3: the paper's text accepts step 2;
    # the code goes on, stops at step 3 and rejects the plan.
    critic = {2: PARTIAL_NOW, 3: REJECT}
    code = run(early_model(critic=lambda k: critic.get(k, PARTIAL_NOW if k > 3 else json.dumps(
        {"status": "Partially accomplished", "can_answer_now": False, "rationale": "more"}))), [(EARLY, "spin")],
        rounds=1)["spin"]
    assert [v["k"] for v in code.evaluations[0]["verdicts"]] == [1, 2, 3] and code.accepted_prefix is None
    paper = run(early_model(critic=lambda k: critic.get(k, REJECT)), [(EARLY, "spin")], stop_rule="paper")["spin"]
    assert paper.accepted_prefix == 2 and paper.executed_tasks == 2
    # All Partially with can_answer_now: the code's loop runs to the last step and accepts the whole plan.
    whole = run(early_model(critic=lambda k: PARTIAL_NOW), [(EARLY, "spin")])["spin"]
    assert whole.accepted_prefix == 4 and whole.executed_tasks == 4 and whole.repair_rounds == 0
    with pytest.raises(ValueError, match="unknown stop rule"):
        SpinRunner(early_model(), stop_rule="first")


class RecordingStore(SQLiteStore):
    """A real SQLite store that also keeps the queries it was asked."""

    def __init__(self) -> None:
        super().__init__(":memory:", HashingEmbedder())
        self.queries: list[tuple[str, str]] = []

    def search(self, query: str, **kw: Any):
        self.queries.append((query, kw["agent"]))
        return super().search(query, **kw)


def test_retrieval_query_is_question_agent_and_task():
    store = RecordingStore()
    run(early_model(), [(EARLY, "spin")], store=store)
    plan = parse_plan(OVER_PLAN, EARLY.agents)
    assert store.queries[0] == (retrieval_text(EARLY.question, "get_weather", plan.steps[0].task), "get_weather")
    assert store.queries[0][0] == f"User question: {EARLY.question}\nAgent: get_weather\nTask: {plan.steps[0].task}"


def test_plans_get_at_least_1024_new_tokens():
    """256 tokens cut real plans short and inflated COUNTS_MISMATCH; every other role keeps a short cap."""
    model = early_model()
    run(model, [(EARLY, "spin"), (EARLY, "spin_wo_cri")])
    assert model.caps["plan"] == model.caps["repair"] == {ROLE_MAX_NEW_TOKENS["plan"]}
    assert min(model.caps["plan"]) >= 1024
    assert model.caps["critic"] == {ROLE_MAX_NEW_TOKENS["critic"]} and max(model.caps["step"]) < 1024
    assert parse_role_caps("96")["plan"] == 96 and parse_role_caps("critic=64")["critic"] == 64
    for bad in ("0", "plan=", "judge=5", "plan=-1"):
        with pytest.raises(ValueError):
            parse_role_caps(bad)


class RowCapModel(ScriptedModel):
    """A scripted backend that takes one token cap per prompt, like the transformers backend."""

    capabilities = Capabilities(row_caps=True)

    def generate_requests(self, requests: Sequence[Request], on_complete: Any = None) -> list[Completion]:
        caps = [r.max_new_tokens for r in requests]
        self.row_caps = getattr(self, "row_caps", []) + [caps]
        return super().generate([r.prompt for r in requests], DecodingConfig(max_new_tokens=max(caps)), on_complete)


def test_one_generate_per_round_with_per_row_caps():
    """Planner, simulator, critic, step and answer prompts of different runs are in flight together; a
    backend that takes per-row caps gets one generate per round, not one per cap."""
    model = RowCapModel(early_model().answer)
    runner = SpinRunner(model)
    runner.run([(EARLY, v) for v in VARIANTS] + [(CHAIN, "spin")])
    assert runner.generate_calls == model.calls == len(model.row_caps)
    mixed = [caps for caps in model.row_caps if len(set(caps)) > 1]
    assert mixed, "no round mixed roles with different caps"
    grouped = SpinRunner(early_model())
    grouped.run([(EARLY, v) for v in VARIANTS] + [(CHAIN, "spin")])
    assert grouped.generate_calls > runner.generate_calls


def test_a_prompt_in_flight_is_generated_once():
    model = early_model()
    runner = SpinRunner(model)
    runs = runner.run([(EARLY, "valid"), (EARLY, "spin_wo_sim"), (EARLY, "spin")])
    plans = [p for p in model.prompts if role_of(p)[0] == "plan"]
    assert len(plans) == 1 and all(r.model_calls_by_role["plan"] == 1 for r in runs)
    assert runner.requested_prompts > runner.generated_prompts == len(model.prompts)


# ----------------------------------------------------------------------------- simulator retrieval

def _record(scenario_id: str, output: str, status: str = ACCOMPLISHED, agent: str = "get_weather") -> StepRecord:
    return StepRecord(scenario_id=scenario_id, run_id="r1", step_index=1, agent=agent,
                      task="Get the current weather in Paris", question="q", output=output, status=status)


def test_retrieval_excludes_the_evaluated_scenario_and_unaccomplished_steps():
    store = SQLiteStore(":memory:", HashingEmbedder())
    store.add([_record(EARLY.id, "OWN-SCENARIO-OUTPUT"), _record("single-en-001", "OTHER-SCENARIO-OUTPUT"),
               _record("single-en-005", "FAILED-RUN-OUTPUT", status=NOT_ACCOMPLISHED),
               _record("chain-en-002", "OTHER-AGENT-OUTPUT", agent="get_time")])
    model = early_model()
    r = run(model, [(EARLY, "spin")], store=store)["spin"]
    sim = model.texts("simulate")[0]
    assert "OTHER-SCENARIO-OUTPUT" in sim
    for leaked in ("OWN-SCENARIO-OUTPUT", "FAILED-RUN-OUTPUT", "OTHER-AGENT-OUTPUT"):
        assert leaked not in sim
    assert r.outcome == ACCOMPLISHED


@pytest.mark.parametrize("empty", ["store", "none"])
def test_simulator_works_with_an_empty_store(empty: str):
    store = SQLiteStore(":memory:", HashingEmbedder()) if empty == "store" else None
    model = early_model()
    r = run(model, [(EARLY, "spin"), (EARLY, "spin_wo_cri")], store=store)
    assert "No past outputs of get_weather are available" in model.texts("simulate")[0]
    assert r["spin"].outcome == r["spin_wo_cri"].outcome == ACCOMPLISHED
    assert r["spin_wo_cri"].evaluations[0]["simulated"] == ["Paris: 18°C, sunny"] * 4


# ----------------------------------------------------------------------------- scoring

def test_matching_is_order_insensitive_and_not_greedy():
    r1 = RequiredCall("get_weather", {"city": "Berlin"})
    r2 = RequiredCall("get_weather", {"city": "Berlin", "unit": "celsius"})
    e1 = Call("get_weather", {"city": "Berlin", "unit": "celsius"})
    e2 = Call("get_weather", {"city": "Berlin", "unit": "fahrenheit"})
    assert match_calls([r1, r2], [e1, e2]) == [1, 0]     # greedy first-fit would leave r2 unmatched
    assert match_calls([r2, r1], [e2, e1]) == [1, 0]
    assert match_calls([r1, r1], [e1]) == [0, None]       # a multiset: one call matches one requirement


def test_score_outcomes():
    right = [Call(rc.name, rc.arguments) for rc in CHAIN.required_calls]
    assert score_run(CHAIN, list(reversed(right)), CHAIN.reference).outcome == ACCOMPLISHED
    extra = score_run(CHAIN, right + [Call("calculator", {"expression": "1+1"})], CHAIN.reference)
    assert extra.outcome == ACCOMPLISHED and extra.n_extra == 1
    assert score_run(CHAIN, right, "no idea").outcome == PARTIALLY
    assert score_run(CHAIN, right[:1], CHAIN.reference).outcome == PARTIALLY
    assert score_run(CHAIN, [], CHAIN.reference).outcome == PARTIALLY
    nothing = score_run(CHAIN, [Call("get_weather", {"city": "Paris"})], "no idea")
    assert nothing.outcome == NOT_ACCOMPLISHED and nothing.n_matched == 0 and len(nothing.missing) == 2


def test_parse_variants():
    assert parse_variants("all") == VARIANTS and parse_variants("spin, base") == ("base", "spin")
    with pytest.raises(ValueError, match="unknown variant 'spinn'"):
        parse_variants("spinn")


def test_oracle_plans_are_valid_and_the_oracle_accomplishes_everything():
    for s in SCENARIOS.values():
        assert validate_plan_text(oracle_plan_text(s), s.agents) == (True, [])
    runs = SpinRunner(SpinOracleBackend(SCENARIOS.values())).run(
        [(s, v) for s in SCENARIOS.values() for v in VARIANTS])
    assert {r.outcome for r in runs} == {ACCOMPLISHED}, [r.reason for r in runs if r.outcome != ACCOMPLISHED][:3]


def test_saved_plans_give_the_incidence_table(tmp_path: Path):
    model = early_model(plan=CHAIN_BAD_AGENT, repair=lambda n, text: OVER_PLAN)
    runs = SpinRunner(model).run([(EARLY, "base"), (EARLY, "valid")])
    assert save_plan_texts(tmp_path, runs) == 3
    tables = incidence_for_dir(tmp_path)
    assert tables["raw"].n == 2 and tables["raw"].counts["AGENT_UNKNOWN"] == 2
    assert tables["repaired"].n == 1 and tables["repaired"].n_valid == 1
    assert tables["all"].n == 3
    out = subprocess.run([sys.executable, "-m", "tooluse1", "plan-incidence", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "AGENT_UNKNOWN" in out.stdout and "raw (n=2)" in out.stdout and "repaired (n=1)" in out.stdout
    (tmp_path / "index.json").unlink()
    with pytest.raises(ValueError, match="no allowed agents known"):
        incidence_for_dir(tmp_path)
    assert incidence_for_dir(tmp_path, agents=list(EARLY.agents))["all"].n == 3


# ----------------------------------------------------------------------------- pytest track, end to end

def run_plan(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "pytest", "test_plan.py", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


def test_without_model_plan_items_skip():
    out = run_plan()
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert f"{len(TEST_SCENARIOS) * len(VARIANTS)} skipped" in out.stdout
    assert "plan items are skipped without --model" in out.stdout


def test_oracle_track_end_to_end(tmp_path: Path):
    """Fill the store from the train split, then evaluate the test split with it; every run Accomplished."""
    results, plans, store = tmp_path / "r.json", tmp_path / "plans", tmp_path / "traj.db"
    train = [s for s in SCENARIOS.values() if s.split == "train"]
    out = run_plan("--model", "oracle", "--spin-split", "train", "--variant", "valid",
                   "--results", str(tmp_path / "t.json"), "--save-trajectories", f"sqlite:///{store}")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    saved = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["spin"]["provenance"]["saved_steps"]
    assert saved == sum(len(s.reference_calls) for s in train)   # the oracle executes the reference plans
    out = run_plan("--model", "oracle", "--results", str(results), "--save-plans", str(plans),
                   "--trajectory-store", f"sqlite:///{store}", "--save-trajectories", f"sqlite:///{store}")
    n = len(TEST_SCENARIOS) * len(VARIANTS)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert f"{n} passed" in out.stdout and "ToolUse.1 SPIN summary" in out.stdout
    assert "beside the paper" in out.stdout and "sign test" in out.stdout
    section = json.loads(results.read_text(encoding="utf-8"))["spin"]
    assert section["n_runs"] == n and len(section["records"]) == n
    assert list(section["variants"]) == list(VARIANTS)
    for v in section["variants"].values():
        assert v["outcomes"][ACCOMPLISHED]["k"] == len(TEST_SCENARIOS)
        assert v["plans"]["incidence_raw"]["n_valid"] == len(TEST_SCENARIOS)
        assert v["plan_scores"]["raw"]["required_recall"] == 1.0 and v["plan_scores"]["raw"]["edge_recall"] == 1.0
    assert section["paired"]["spin_vs_base"]["ties"] == len(TEST_SCENARIOS)
    prov = section["provenance"]
    assert prov["trajectory_store_records"] == saved and len(prov["trajectory_store_sha256"]) == 64
    assert prov["saved_steps"] == 0   # test runs never go into the store
    assert prov["split"] == "test" and prov["max_new_tokens_by_role"]["plan"] >= 1024
    # One plan per run, plus spin_wo_cri's T = 3 repairs with the simulated outputs (the oracle repeats its plan).
    assert len(list(plans.glob("*.txt"))) == n + 3 * len(TEST_SCENARIOS)
    out = run_plan("--model", "oracle", "--results", str(tmp_path / "r2.json"), "-m", "spin and chain")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    n_chain = sum(1 for s in TEST_SCENARIOS.values() if s.shape == "chain")
    assert f"{n_chain} passed" in out.stdout   # -m selects exactly the spin variant's chain items


def test_filling_with_every_variant_stores_each_step_once(tmp_path: Path):
    """Train runs of all five variants execute the same steps (the oracle plans alike everywhere): the store
    gets each step once, not once per variant, so retrieval's top-k are distinct steps."""
    store = tmp_path / "traj.db"
    out = run_plan("--model", "oracle", "--spin-split", "train", "--results", str(tmp_path / "t.json"),
                   "--save-trajectories", f"sqlite:///{store}")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    section = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["spin"]
    train = [s for s in SCENARIOS.values() if s.split == "train"]
    assert section["n_runs"] == len(train) * len(VARIANTS)
    assert section["provenance"]["saved_steps"] == sum(len(s.reference_calls) for s in train)


def test_resume_computes_only_the_missing_runs(tmp_path: Path):
    log, results = tmp_path / "runs.jsonl", tmp_path / "r.json"
    out = run_plan("--model", "oracle", "--variant", "base,spin", "--spin-resume", str(log), "-m", "single",
                   "--results", str(tmp_path / "first.json"))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    n_single = sum(1 for s in TEST_SCENARIOS.values() if s.shape == "single")
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 2 * n_single
    # kill -9 in the middle of writing the last run: its line is torn
    log.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40], encoding="utf-8")
    out = run_plan("--model", "oracle", "--variant", "base,spin", "--spin-resume", str(log), "--results", str(results))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    section = json.loads(results.read_text(encoding="utf-8"))["spin"]
    assert section["n_runs"] == 2 * len(TEST_SCENARIOS)
    assert section["provenance"]["resumed_runs"] == 2 * n_single - 1    # the torn run is computed again
    out = run_plan("--model", "oracle", "--variant", "base", "--spin-resume", str(log), "--spin-rounds", "1",
                   "--results", str(tmp_path / "x.json"))
    assert out.returncode == 4 and "written by another run (differs in: rounds)" in out.stdout + out.stderr


def test_regrade_rescores_a_saved_spin_section(tmp_path: Path):
    results = tmp_path / "r.json"
    out = run_plan("--model", "oracle", "--variant", "base,spin", "-m", "chain", "--results", str(results))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    doc = json.loads(results.read_text(encoding="utf-8"))
    rec = next(r for r in doc["spin"]["records"] if r["variant"] == "base")
    rec["answer"] = "I do not know."                       # what an older grader might have passed
    rec["outcome"] = ACCOMPLISHED
    results.write_text(json.dumps(doc), encoding="utf-8")
    regraded = tmp_path / "g.json"
    cp = subprocess.run([sys.executable, "-m", "tooluse1", "regrade", str(results), "--out", str(regraded)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cp.returncode == 0, cp.stdout[-3000:] + cp.stderr[-2000:]
    section = json.loads(regraded.read_text(encoding="utf-8"))["spin"]
    again = next(r for r in section["records"] if r["item_id"] == rec["item_id"])
    assert again["outcome"] == PARTIALLY and "answer" in again["reason"]
    assert section["provenance"]["regraded"] is True
    assert section["variants"]["base"]["outcomes"][ACCOMPLISHED]["k"] == section["variants"]["base"]["n"] - 1
    assert "SPIN:" in cp.stdout


def test_plan_command_wraps_the_track(tmp_path: Path):
    results = tmp_path / "r.json"
    out = subprocess.run([sys.executable, "-m", "tooluse1", "plan", "--model", "oracle", "--variant", "base,spin",
                          "--results", str(results), "-m", "single", "-p", "no:cacheprovider"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    n_single = sum(1 for s in TEST_SCENARIOS.values() if s.shape == "single")
    assert f"{2 * n_single} passed" in out.stdout
    assert list(json.loads(results.read_text(encoding="utf-8"))["spin"]["variants"]) == ["base", "spin"]


def test_small_real_model_runs_every_variant(tmp_path: Path):
    """smollm2 (SmolLM2-135M-Instruct) through the transformers backend (continuous admission on the fast
    path) on three scenarios: every run must finish with a well-formed record; the outcomes are whatever
    the tiny model does."""
    results = tmp_path / "r.json"
    ids = ("single-en-001", "chain-en-001", "early_answer-en-003")
    # One repair round and short caps keep this under a few minutes on 2 cores; the rounds are pinned above.
    out = run_plan("--model", "smollm2", "--threads", "1", "--spin-max-new-tokens", "96", "--spin-rounds", "1",
                   "--results", str(results), "--save-plans", str(tmp_path / "plans"), "-k", " or ".join(ids),
                   timeout=900)
    assert out.returncode in (0, 1), out.stdout[-3000:] + out.stderr[-3000:]   # 1: some runs not Accomplished
    assert "ToolUse.1 SPIN summary" in out.stdout
    doc = json.loads(results.read_text(encoding="utf-8"))
    assert doc["provenance"]["model"]["backend"] == "transformers"
    section = doc["spin"]
    assert section["n_runs"] == len(ids) * len(VARIANTS)
    assert section["provenance"]["backend"]["backend"] == "transformers"
    assert section["provenance"]["batching"]["continuous_admission"] is True
    for rec in section["records"]:
        assert rec["scenario_id"] in ids and rec["outcome"] in ("Accomplished", "Partially accomplished",
                                                                 "Not accomplished", "Error")
        assert rec["error_kind"] is None, rec["error"]   # no backend or internal failure
        c = rec["counters"]
        assert c["model_calls"] >= 1 and c["tokens_in"] > 0 and c["tokens_out"] > 0 and c["elapsed_s"] > 0
        assert rec["plans"] and all(isinstance(p["text"], str) for p in rec["plans"])
        if rec["executed_plan"] is not None:
            assert c["executed_tasks"] >= 1 and rec["answer"] is not None
            assert c["model_calls_by_role"]["step"] == c["executed_tasks"]
        else:
            assert rec["outcome"] == "Error" and c["executed_tasks"] == 0
    for v in section["variants"].values():
        assert v["n"] == len(ids) and sum(o["k"] for o in v["outcomes"].values()) == len(ids)
        assert v["costs"]["model_calls"]["all_runs"]["total"] > 0
    assert "spin_vs_base" in section["paired"]
    assert len(list((tmp_path / "plans").glob("*.txt"))) >= len(ids) * len(VARIANTS)


class _OraclePlansRealRest:
    """Plans (and repairs) from the SPIN oracle, every other prompt from a real backend, in input order."""

    name = "oracle-plans+real"
    capabilities = Capabilities()

    def __init__(self, real: Any) -> None:
        self.real, self.oracle = real, SpinOracleBackend(SCENARIOS.values())

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig, on_complete: Any = None) -> list[Completion]:
        planned = [i for i, p in enumerate(prompts) if role_of(p)[0] in ("plan", "repair")]
        rest = [i for i in range(len(prompts)) if i not in planned]
        out: dict[int, Completion] = {}
        out.update(zip(planned, self.oracle.generate([prompts[i] for i in planned], config)))
        if rest:
            out.update(zip(rest, self.real.generate([prompts[i] for i in rest], config)))
        return [out[i] for i in range(len(prompts))]


def test_small_real_model_drives_executor_simulator_critic_and_answer():
    """smollm2 writes every step call, simulation, verdict and answer of a (scripted, valid) plan: its raw
    outputs go through extract, the World and the scoring without a failed run."""
    from tooluse1.backends.transformers_backend import TransformersBackend
    from tooluse1.models import resolve_model
    backend = _OraclePlansRealRest(TransformersBackend(resolve_model("smollm2"), batch_size=8))
    scenario = SCENARIOS["single-en-005"]   # one reference call: the oracle's plan has one step
    runs = SpinRunner(backend, max_new_tokens=parse_role_caps("48")).run(
        [(scenario, v) for v in ("base", "spin", "spin_wo_cri")])
    for r in runs:
        assert r.error_kind is None, r.error
        assert r.plan_valid and r.executed_tasks == 1 and r.answer is not None
        assert r.model_calls_by_role["step"] == 1 and r.tokens_in > 0 and r.tokens_out > 0 and r.elapsed_s > 0
        assert r.steps[0].model_output and r.tool_calls == (1 if r.steps[0].call else 0)
        assert r.outcome in (ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED)
    spin = runs[1]
    assert spin.evaluations[0]["simulated"] and spin.evaluations[0]["verdicts"]
    assert spin.model_calls_by_role["simulate"] >= 1 and spin.model_calls_by_role["critic"] >= 1


def test_spin_runs_through_the_openai_backend_against_transformers_serve(tmp_path: Path):
    """A user's served model: a real `transformers serve` (SmolLM2-135M) behind the openai backend runs a
    small SPIN sitting (two scenarios x base and spin, one repair round); every run ends with a well-formed
    record, no backend failure, and the critic's verdicts are read from the served text."""
    from tooluse1.models import resolve_model
    from tooluse1.serve import start_transformers_serve
    results = tmp_path / "r.json"
    ids = ("single-en-001", "early_answer-en-003")
    with start_transformers_serve(resolve_model("smollm2").path, timeout_s=240, threads=1) as server:
        out = run_plan("--backend", "openai", "--base-url", server.base_url, "--model", server.model,
                       "--variant", "base,spin", "--spin-rounds", "1", "--spin-max-new-tokens", "64",
                       "--concurrency", "4", "--results", str(results), "-k", " or ".join(ids), timeout=900)
    assert out.returncode in (0, 1), out.stdout[-3000:] + out.stderr[-3000:]
    section = json.loads(results.read_text(encoding="utf-8"))["spin"]
    assert section["provenance"]["backend"]["backend"] == "openai"
    assert section["provenance"]["batching"]["continuous_admission"] is False
    assert section["n_runs"] == len(ids) * 2
    for rec in section["records"]:
        assert rec["error_kind"] is None, rec["error"]
        assert rec["counters"]["tokens_in"] > 0 and rec["counters"]["model_calls"] >= 2
        if rec["variant"] == "spin" and rec["evaluations"]:
            verdicts = [v for e in rec["evaluations"] for v in e["verdicts"]]
            assert verdicts and all(v["status"] in ("Accomplished", "Partially accomplished", "Not accomplished")
                                    for v in verdicts)


def test_stop_text_ends_a_streamed_row_where_its_test_first_holds():
    """The fast path's stop_text (how the critic stops at the end of its JSON object): a row whose test holds
    ends there with finish_reason "stop" and the text so far, a prefix of its uncut greedy text; a row
    without a test decodes as before. The test here holds once half of the uncut text is written, whatever
    the model writes."""
    from tooluse1.backends.transformers_backend import TransformersBackend
    from tooluse1.models import resolve_model
    backend = TransformersBackend(resolve_model("smollm2"), dtype="float32", batch_size=4, threads=1, fast=True)
    asks = ["Count from one to twenty in words, separated by commas.", "Name three colours."]
    prompts = [Prompt(item_id=f"stop-{i}-plain", case_id=f"stop-{i}", protocol="plain",
                      messages=({"role": "user", "content": q},)) for i, q in enumerate(asks)]

    def collect(stop_text: Any) -> dict[str, Completion]:
        out: dict[str, Completion] = {}

        def done(c: Completion) -> list:
            out[c.item_id] = c
            return []
        backend.generate_continuous(
            [Request(p, 48, stop_text if p.item_id == "stop-0-plain" else None) for p in prompts], done)
        return out
    full = collect(None)
    b = full["stop-0-plain"]
    assert b.completion_tokens >= 8, b.text   # long enough to be cut in the middle
    half = len(b.text) // 2
    cut = collect(lambda text: len(text) >= half)
    a = cut["stop-0-plain"]
    assert b.text.startswith(a.text) and len(a.text) >= half and a.completion_tokens < b.completion_tokens
    assert a.finish_reason == "stop"
    assert cut["stop-1-plain"].text == full["stop-1-plain"].text


def test_every_executed_step_is_stored_with_its_own_status():
    """As the code stores every executed step with its status (not only an Accomplished run's): a run that
    is Partially accomplished gives a record per step, the matched call Accomplished, the superfluous one
    Partially accomplished, the failed one Not accomplished; the simulator retrieves the Accomplished ones."""
    from tooluse1.spin.runner import trajectory_records

    def answer(role: str, n: int, text: str, prompt: Prompt) -> str:
        if role in ("plan", "repair"):
            return CHAIN_VALID + "\n#Task3: Add one\n#Agent3: calculator\n#Dependency3: None\n#ExpectedOutput3: a sum"
        if role == "step":
            return {1: format_call(CHAIN_CALLS[1], "json"), 2: "no call here",
                    3: format_call(Call("calculator", {"expression": "1+1"}), "json")}[n]
        return "It is 14°C in Berlin."
    r = run(ScriptedModel(answer), [(CHAIN, "valid")])["valid"]
    assert r.outcome == PARTIALLY and [s.status for s in r.steps] == [ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY]
    records = trajectory_records(r, CHAIN.question, "m:valid")
    assert [(x.step_index, x.status) for x in records] == [(1, ACCOMPLISHED), (2, NOT_ACCOMPLISHED), (3, PARTIALLY)]
    assert records[1].output.startswith("(failed:") and "Output: Berlin: 14°C" in records[0].summary


@pytest.mark.parametrize("text,done", [
    ('{"status": "Accomplished", "can_answer_now": true, "rationale": "ok"}', True),
    ('```json\n{"status": "Partially accomplished", "can_answer_now": true, "rationale": "a {brace}"}', True),
    ('{"status": "Accomplished", "can_answer_now": true, "rationale": "still wri', False),
    ('<think>I will answer {"status": "Accomplished"} once I am sure', False),   # a brace while thinking
    ('<think>maybe {"a": 1}</think>\n{"status": "Not accomplished", "can_answer_now": false, "rationale": "x"}', True),
    ('Вердикт: {"status": "Not accomplished", "can_answer_now": false, "rationale": "Шаг 2 не выполнен"}', True),
])
def test_the_critic_stops_at_the_end_of_its_json_object(text: str, done: bool):
    from tooluse1.spin.runner import _stop_text
    critic = make_prompt("s", "spin", "critic", 1, [{"role": "user", "content": "q"}])
    step = make_prompt("s", "spin", "step", 1, [{"role": "system", "content": "sys"}, {"role": "user", "content": "q"}])
    test = _stop_text(critic)
    assert test is not None and test(text) is done
    assert _stop_text(step) is None   # only verdicts stop early


def test_a_prompt_carries_its_role_typed_not_in_its_id():
    """The runner reads a prompt's role from the typed SpinPrompt, never by parsing its id; a prompt that is
    not SPIN's is refused rather than misread."""
    p = make_prompt("single-en-001", "spin", "critic", 2, [{"role": "user", "content": "q"}])
    assert role_of(p) == ("critic", 2) and p.item_id == "single-en-001-spin" and "critic" not in p.item_id
    assert p.label == "single-en-001-spin:critic:2"
    with pytest.raises(TypeError):
        role_of(Prompt(item_id="x-spin:critic:2", case_id="x", protocol="plain", messages=()))


class _UndeclaredContinuous(ScriptedModel):
    """Has a generate_continuous method but does not declare it: the runner must not call it (capabilities,
    not probing)."""

    def generate_continuous(self, requests: Any, on_complete: Any) -> None:   # pragma: no cover - must stay unused
        raise AssertionError("generate_continuous called although capabilities.continuous is False")


class _DeclaredContinuous(ScriptedModel):
    """Declares continuous admission and implements it by answering each request through generate."""

    capabilities = Capabilities(row_caps=True, continuous=True, stop_text=True)

    def __init__(self, answer: Callable[[str, int, str, Prompt], str]) -> None:
        super().__init__(answer)
        self.requests: list[Request] = []

    def generate_requests(self, requests: Sequence[Request], on_complete: Any = None) -> list[Completion]:
        return [self.generate([r.prompt], DecodingConfig(max_new_tokens=r.max_new_tokens))[0] for r in requests]

    def generate_continuous(self, requests: Sequence[Request], on_complete: Any) -> None:
        todo = list(requests)
        while todo:
            r = todo.pop(0)
            self.requests.append(r)
            todo += on_complete(self.generate_requests([r])[0])


def test_the_runner_uses_what_a_backend_declares():
    undeclared = _UndeclaredContinuous(early_model().answer)
    runner = SpinRunner(undeclared)
    [in_rounds] = runner.run([(EARLY, "spin")])
    assert runner.continuous is False and undeclared.calls > 0
    declared = _DeclaredContinuous(early_model().answer)
    continuous = SpinRunner(declared)
    [run] = continuous.run([(EARLY, "spin")])
    assert continuous.continuous is True and continuous.generate_calls == 1
    assert (run.outcome, run.executed_plan, run.answer) == (
        in_rounds.outcome, in_rounds.executed_plan, in_rounds.answer)
    # each request carries its role's cap, and only a critic's carries the stop test
    by_role = {role_of(r.prompt)[0]: r for r in declared.requests}
    assert {role: r.max_new_tokens for role, r in by_role.items()} == {
        role: ROLE_MAX_NEW_TOKENS[role] for role in by_role}
    assert by_role["critic"].stop_text is not None and by_role["plan"].stop_text is None

