"""SPIN critic: output parsing (never raises, safe defaults) and the stopping rule."""
from __future__ import annotations

import json

import pytest

from tooluse1.spin.critic import (
    CRITIC_STATUSES,
    RATIONALE_MAX_CHARS,
    CriticVerdict,
    SpinFeedback,
    accepts,
    parse_critic_output,
)

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


def test_reasoning_is_cut_with_the_core_thinking_stripper() -> None:
    """parse.strip_thinking knows <thinking> and other markers: a draft verdict inside them is ignored."""
    draft = '{"status": "Accomplished", "can_answer_now": true, "rationale": "draft"}'
    final = '{"status": "Not accomplished", "can_answer_now": false, "rationale": "final"}'
    for opener, closer in (("<thinking>", "</thinking>"), ("<reasoning>", "</reasoning>"), ("[THINK]", "[/THINK]")):
        verdict = parse_critic_output(f"{opener}{draft}{closer}\n{final}")
        assert (verdict.status, verdict.rationale) == ("Not accomplished", "final"), opener


@pytest.mark.parametrize("status,can_answer_now,accepted", [
    ("Accomplished", True, True),
    ("Partially accomplished", True, True),
    ("Accomplished", False, False),          # the paper's rule needs can_answer_now
    ("Partially accomplished", False, False),
    ("Not accomplished", True, False),
    ("Not accomplished", False, False),
])
def test_stopping_rule(status: str, can_answer_now: bool, accepted: bool) -> None:
    verdict = parse_critic_output(json.dumps({"status": status, "can_answer_now": can_answer_now, "rationale": "r"}))
    assert accepts(verdict) is accepted
    assert not accepts(parse_critic_output("not json at all"))
