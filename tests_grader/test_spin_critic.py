"""SPIN critic: output parsing (never raises, safe defaults) and prompt building."""
from __future__ import annotations

import pytest

from tooluse1.spin.critic import (
    CRITIC_STATUSES,
    RATIONALE_MAX_CHARS,
    CriticVerdict,
    SpinFeedback,
    build_critic_prompt,
    parse_critic_output,
)
from tooluse1.spin.plan import parse_plan

GOOD = '{"status": "Accomplished", "can_answer_now": true, "rationale": "Step 1 gives the weather."}'
EXPECTED = CriticVerdict("Accomplished", True, "Step 1 gives the weather.", True)


@pytest.mark.parametrize("text", [
    GOOD,
    f"  {GOOD}\n",
    f"```json\n{GOOD}\n```",
    f"```\n{GOOD}\n```",
    f"Here is my verdict:\n{GOOD}\nHope this helps.",
    f"<think>The user wants {{weather}}. Let me check.</think>\n{GOOD}",
    f"I considered {{x}} carefully.</think>\n\n```json\n{GOOD}\n```",
    f"{GOOD}\nNote: see {{appendix}}.",
], ids=["plain", "whitespace", "json_fence", "bare_fence", "prose_around", "think_block", "think_close_only",
        "trailing_braces"])
def test_parses_wrapped_json(text: str) -> None:
    assert parse_critic_output(text) == EXPECTED


def test_nested_braces_in_rationale() -> None:
    text = 'Verdict: {"status": "Partially accomplished", "can_answer_now": false, ' \
           '"rationale": "Calls get_weather({\\"city\\": \\"Berlin\\"}) but never converts {EUR}."} done'
    verdict = parse_critic_output(text)
    assert verdict.parse_ok
    assert verdict.status == "Partially accomplished"
    assert verdict.rationale == 'Calls get_weather({"city": "Berlin"}) but never converts {EUR}.'


@pytest.mark.parametrize("text", [
    "",
    "The plan looks fine to me.",
    '{"status": "Accomplished", "can_answer_now": true, "rationale": "unterminated}',
    "{'status': 'Accomplished'}",
    '["Accomplished", true]',
], ids=["empty", "prose", "broken", "python_dict", "json_array"])
def test_unparseable_output_gives_safe_default(text: str) -> None:
    verdict = parse_critic_output(text)
    assert verdict.parse_ok is False
    assert verdict.status == "Not accomplished"
    assert verdict.can_answer_now is False
    assert "parse" in verdict.rationale.lower()
    assert text[:20] in verdict.rationale


@pytest.mark.parametrize("raw,expected", [
    ("Accomplished", "Accomplished"),
    ("accomplished", "Accomplished"),
    (" Accomplished. ", "Accomplished"),
    ("Partially Accomplished", "Partially accomplished"),
    ("partially_accomplished", "Partially accomplished"),
    ("PARTIALLY-ACCOMPLISHED", "Partially accomplished"),
    ("not accomplished", "Not accomplished"),
    ("Not_Accomplished!", "Not accomplished"),
    ("Done", "Not accomplished"),
    ("Fully accomplished", "Not accomplished"),
    ("", "Not accomplished"),
    (None, "Not accomplished"),
    (1, "Not accomplished"),
])
def test_status_sanitising(raw, expected: str) -> None:
    import json
    verdict = parse_critic_output(json.dumps({"status": raw, "can_answer_now": True, "rationale": "r"}))
    assert verdict.parse_ok is True
    assert verdict.status == expected
    assert verdict.status in CRITIC_STATUSES


@pytest.mark.parametrize("raw,expected", [
    (True, True), (False, False), ("true", True), (" TRUE ", True), ("yes", True), ("Yes", True),
    ("false", False), ("no", False), ("maybe", False), (1, False), (None, False), ([], False),
])
def test_can_answer_now_coercion(raw, expected: bool) -> None:
    import json
    verdict = parse_critic_output(json.dumps({"status": "Accomplished", "can_answer_now": raw, "rationale": "r"}))
    assert verdict.can_answer_now is expected


def test_missing_keys_and_rationale_coercion() -> None:
    verdict = parse_critic_output("{}")
    assert verdict == CriticVerdict("Not accomplished", False, "", True)
    assert parse_critic_output('{"status": "Accomplished", "rationale": 42}').rationale == "42"
    long = parse_critic_output('{"status": "Accomplished", "rationale": "' + "x" * 5000 + '"}')
    assert len(long.rationale) == RATIONALE_MAX_CHARS


def test_spin_feedback_from_verdict() -> None:
    feedback = SpinFeedback.from_verdict(EXPECTED, stop_index=1)
    assert feedback == SpinFeedback("Accomplished", True, 1, "Step 1 gives the weather.")


PLAN_TEXT = """\
#Task1: Get the weather in Berlin
#Agent1: get_weather
#Dependency1: None
#ExpectedOutput1: The current weather in Berlin
#Task2: Save a note with the weather
#Agent2: save_note
#Dependency2: #S1
#ExpectedOutput2: Confirmation that the note was saved
"""
PLAN = parse_plan(PLAN_TEXT, ["get_weather", "save_note"])


def test_critic_prompt_with_outputs() -> None:
    prompt = build_critic_prompt("What is the weather in Berlin?", PLAN, 1, ["Berlin: 14°C, cloudy"])
    assert "What is the weather in Berlin?" in prompt
    assert "#Task1: Get the weather in Berlin" in prompt
    assert "#Task2" not in prompt  # only the prefix is judged
    assert "steps 1..1 of 2" in prompt
    assert "#S1: Berlin: 14°C, cloudy" in prompt
    for key in ('"status"', '"can_answer_now"', '"rationale"', *CRITIC_STATUSES):
        assert key in prompt


def test_critic_prompt_without_simulator() -> None:
    prompt = build_critic_prompt("What is the weather in Berlin?", PLAN, 2, None)
    assert "#Dependency2: #S1" in prompt
    assert "judge from the plan alone" in prompt
    assert "Step outputs" not in prompt


@pytest.mark.parametrize("prefix_len,outputs", [(0, None), (3, None), (2, ["only one"]), (1, ["a", "b"])])
def test_critic_prompt_rejects_bad_arguments(prefix_len: int, outputs) -> None:
    with pytest.raises(ValueError):
        build_critic_prompt("q", PLAN, prefix_len, outputs)
