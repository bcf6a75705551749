"""SPIN prompts (tooluse1/spin/prompts.py): repair, critic and simulator prompts and how they share prefixes."""
from __future__ import annotations

import os

import pytest

from tooluse1.spin.critic import CRITIC_STATUSES, SpinFeedback
from tooluse1.spin.plan import parse_plan, validate_plan_text
from tooluse1.spin.prompts import (
    PLAN_MARKER,
    build_repair_prompt,
    critic_examples_text,
    critic_prompt_text,
    planner_prompt_text,
    simulator_prompt_text,
)
from tooluse1.spin.scenarios import load_scenarios
from tooluse1.spin.store import ACCOMPLISHED, StepRecord

SCENARIO = {s.id: s for s in load_scenarios()[0]}["chain-en-001"]
AGENTS = SCENARIO.agents
PLAN_TEXT = """\
#Task1: Get the weather in Berlin
#Agent1: get_weather
#Dependency1: None
#ExpectedOutput1: The current weather in Berlin
#Task2: Convert the temperature to kelvin
#Agent2: convert_units
#Dependency2: #S1
#ExpectedOutput2: The temperature in kelvin"""
PLAN = parse_plan(PLAN_TEXT, AGENTS)
BAD = PLAN_TEXT.replace("#Agent2: convert_units", "#Agent2: Unit Agent")


def test_planner_prompt_ends_with_the_marker_after_the_question() -> None:
    base = planner_prompt_text(SCENARIO)
    assert base.endswith("User question:\n" + SCENARIO.question + "\n\n" + PLAN_MARKER)


def test_repair_prompt_drops_the_base_marker_once_and_ends_with_it() -> None:
    """The paper's E.5: the base prompt with its output marker removed, then the repair sections, then
    the marker once. A leftover "Plan:" after the question would ask for a plan before the feedback."""
    base = planner_prompt_text(SCENARIO)
    prompt = build_repair_prompt(base, BAD, validate_plan_text(BAD, AGENTS)[1])
    assert prompt.startswith(base[:-len(PLAN_MARKER)].rstrip() + "\n\n=== Detected Issues ===")
    assert prompt.count(PLAN_MARKER) == 1 and prompt.endswith("\n\n" + PLAN_MARKER)
    assert "[AGENT_UNKNOWN] Agent2 unknown 'Unit Agent'" in prompt
    assert "=== Original Plan ===\n" + BAD in prompt
    for phrase in ("Avoid redundant or unnecessary tasks", "minimal changes",
                   "you MUST output the Original Plan as-is", "Do NOT output any explanation"):
        assert phrase in prompt
    assert "SPIN Evaluation Feedback" not in prompt and "Simulated Execution" not in prompt
    # As in the code, only SPIN's repair rules explain the feedback and ask for the bare minimum of tasks;
    # no first planner prompt asks for it (BASE and every variant get the same one).
    assert "bare minimum" not in prompt and "bare minimum" not in base
    spin = build_repair_prompt(base, BAD, validate_plan_text(BAD, AGENTS)[1], spin_rules=True)
    for phrase in ("bare minimum number of tasks", "stop_index is the earliest step", "can_answer_now=true",
                   "minimal changes", "Do NOT output any explanation"):
        assert phrase in spin


def test_repair_prompt_with_accepted_prefix_feedback() -> None:
    feedback = SpinFeedback("Accomplished", True, 1, "The weather suffices.")
    prompt = build_repair_prompt(planner_prompt_text(SCENARIO), PLAN_TEXT, [], feedback)
    for part in ("- Status: Accomplished", "- can_answer_now: true", "- stop_index: 1",
                 "- Critic rationale: The weather suffices.", "No structural issues were detected"):
        assert part in prompt
    truncated = prompt.split("current plan context for repair):\n", 1)[1].split("\n\n", 1)[0]
    assert truncated == PLAN.prefix(1).render()
    assert prompt.index("=== SPIN Evaluation Feedback ===") < prompt.index("=== Detected Issues ===")


def test_repair_prompt_without_stop_index_omits_it() -> None:
    prompt = build_repair_prompt("BASE\n\nPlan:", PLAN_TEXT, [], SpinFeedback("Not accomplished", False, None, "No."))
    assert "stop_index" not in prompt and "Truncated plan" not in prompt and "can_answer_now: false" in prompt
    assert prompt.startswith("BASE\n\n=== SPIN Evaluation Feedback ===")


def test_repair_prompt_with_simulated_outputs() -> None:
    """spin_wo_cri's repair prompt carries the simulator's predictions, as the paper's ablation does."""
    prompt = build_repair_prompt("BASE\n\nPlan:", PLAN_TEXT, [],
                                 simulated=list(zip(PLAN.steps, ["Berlin: 14°C, cloudy", "14°C = 287.15 K"])))
    assert "=== Simulated Execution (No Critic) ===" in prompt
    assert "#S1 (get_weather: Get the weather in Berlin): Berlin: 14°C, cloudy" in prompt
    assert "#S2 (convert_units: Convert the temperature to kelvin): 14°C = 287.15 K" in prompt


def test_critic_prompt_with_outputs_and_from_the_plan_alone() -> None:
    with_outputs = critic_prompt_text(SCENARIO.question, PLAN, 1, ["Berlin: 14°C, cloudy"])
    assert with_outputs.startswith("User question:\n" + SCENARIO.question)
    assert "#S1 (get_weather: Get the weather in Berlin): Berlin: 14°C, cloudy" in with_outputs
    assert "#S2" not in with_outputs and "the first 1 of the 2 steps" in with_outputs
    for key in ('"status"', '"can_answer_now"', '"rationale"', *CRITIC_STATUSES):
        assert key in with_outputs
    alone = critic_prompt_text(SCENARIO.question, PLAN, 2, None)
    assert "#S2 (convert_units: Convert the temperature to kelvin): (not run)" in alone
    assert "judge from the plan alone" in alone


@pytest.mark.parametrize("prefix_len,outputs", [(0, None), (3, None), (2, ["only one"]), (1, ["a", "b"])])
def test_critic_prompt_rejects_bad_arguments(prefix_len: int, outputs) -> None:
    with pytest.raises(ValueError):
        critic_prompt_text("q", PLAN, prefix_len, outputs)


def test_simulator_prompt_holds_the_target_and_the_retrieved_steps() -> None:
    example = StepRecord("single-en-001", "r", 1, "convert_units", "Convert 9 C to F", "q", "9°C = 48.2°F",
                         ACCOMPLISHED)
    prompt = simulator_prompt_text(SCENARIO.question, PLAN, 2, [example])
    # The earlier step is described, not predicted (the paper's DAG prefix): predictions are independent.
    assert "#S1 (get_weather: Get the weather in Berlin)\n#S2 (convert_units: Convert the temperature to kelvin): " \
           "(to predict)" in prompt
    assert "- task: Convert 9 C to F -> output: 9°C = 48.2°F" in prompt
    assert "uses: #S1" in prompt
    with pytest.raises(ValueError):
        simulator_prompt_text(SCENARIO.question, PLAN, 3, [])


def test_critic_examples_come_from_train_runs_and_head_every_critic_prompt() -> None:
    """The critic's few-shots (the code's ground-truth trajectories) are train scenarios' reference runs,
    labelled Accomplished / can_answer_now true, and open every critic prompt identically."""
    from tooluse1.spin.runner import critic_examples
    from tooluse1.spin.scenarios import load_scenarios
    scenarios = load_scenarios()[0]
    examples = critic_examples(scenarios)
    assert [s.shape for s in examples] == ["early_answer", "conditional", "chain"]
    assert all(s.split == "train" for s in examples)
    text = critic_examples_text(examples)
    for s in examples:
        assert s.question in text and all(" ".join(rc.output.split()) in text for rc in s.reference_calls)
    assert text.count('"status": "Accomplished", "can_answer_now": true') == len(examples)
    a = critic_prompt_text(SCENARIO.question, PLAN, 1, ["Berlin: 14°C, cloudy"], text)
    b = critic_prompt_text("Другой вопрос", PLAN, 2, None, text)
    assert os.path.commonprefix([a, b]).startswith(text) and a.index(text) == 0
    assert a.index(text) < a.index("User question:\n" + SCENARIO.question) < a.index("You are the CRITIC")
    assert critic_examples_text([]) == ""


def test_prompts_of_one_plan_share_long_prefixes() -> None:
    """Data first, instructions last: critic 1 and critic 2 share everything through step 1's output,
    the simulator prompts and the critics everything through the first step's description (what the
    fast decoder's prefix reuse needs)."""
    out1 = "Berlin: 14°C, cloudy"
    critic1 = critic_prompt_text(SCENARIO.question, PLAN, 1, [out1])
    critic2 = critic_prompt_text(SCENARIO.question, PLAN, 2, [out1, "14°C = 287.15 K"])
    sim1 = simulator_prompt_text(SCENARIO.question, PLAN, 1, [])
    sim2 = simulator_prompt_text(SCENARIO.question, PLAN, 2, [])
    assert os.path.commonprefix([critic1, critic2]).endswith(f"): {out1}\n")
    head = "User question:\n" + SCENARIO.question + "\n\nPlan steps:\n#S1 (get_weather: Get the weather in Berlin)"
    for a, b in ((sim1, critic1), (sim2, critic2), (sim1, sim2)):
        assert os.path.commonprefix([a, b]).startswith(head)
