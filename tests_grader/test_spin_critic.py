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
    json_object_end,
    parse_critic_output,
    stops_prefix_loop,
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
    '{"stat',
    '{"status": "Accompl',
    "{'status': 'Accomplished'}",
    '["Accomplished", true]',
], ids=["empty", "prose", "cut_in_key", "cut_in_status", "python_dict", "json_array"])
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
    verdict = parse_critic_output(json.dumps({"status": raw, "can_answer_now": True, "rationale": "r"}))
    assert verdict.parse_ok is True
    assert verdict.status == expected
    assert verdict.status in CRITIC_STATUSES


@pytest.mark.parametrize("raw,expected", [
    (True, True), (False, False), ("true", True), (" TRUE ", True), ("yes", True), ("Yes", True),
    ("false", False), ("no", False), ("maybe", False), (1, False), (None, False), ([], False),
])
def test_can_answer_now_coercion(raw, expected: bool) -> None:
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


@pytest.mark.parametrize("text,status,can", [
    # the 96-token cap of the first sitting cut verdicts like these mid-rationale
    ('{"status": "Partially accomplished", "can_answer_now": true, "rationale": "The weather is known but the',
     "Partially accomplished", True),
    ('```json\n{\n  "status": "Accomplished",\n  "can_answer_now": false,\n  "rationale": "unterminated}',
     "Accomplished", False),
    ('{"status": "Not accomplished", "can_answer_now": "yes", "rationale": "Шаг 1 не', "Not accomplished", True),
    ('{"status": "partially_accomplished", "can_', "Partially accomplished", False),   # cut before the flag
], ids=["partial_true", "fenced_accomplished_false", "ru_string_flag", "cut_before_flag"])
def test_truncated_head_is_read(text: str, status: str, can: bool) -> None:
    """An object cut before its closing brace keeps what its head states; the flag missing reads False."""
    verdict = parse_critic_output(text)
    assert verdict.parse_ok and verdict.truncated
    assert (verdict.status, verdict.can_answer_now) == (status, can)


def test_complete_object_is_not_marked_truncated() -> None:
    verdict = parse_critic_output('{"status": "Accomplished", "can_answer_now": true, "rationale": "ok"} and more {')
    assert verdict.parse_ok and not verdict.truncated and verdict.can_answer_now


@pytest.mark.parametrize("text,end", [
    ('{"status": "Accomplished"}', 26),
    ('Verdict: {"a": "}", "b": {"c": "{"}} trailing {', 36),
    ('{"rationale": "a \\"quoted\\" } brace"}', -1),   # -1: closes only at the final brace
    ('{"status": "Accomplished", "rationale": "still writing', None),
    ("no object at all", None),
])
def test_json_object_end(text: str, end: int | None) -> None:
    got = json_object_end(text)
    assert got == (len(text) if end == -1 else end)
    if got is not None:
        json.loads(text[text.index("{"):got])   # the span is exactly one object


@pytest.mark.parametrize("status,code_stops,paper_stops", [
    ({"status": "Accomplished", "can_answer_now": True}, True, True),
    ({"status": "Accomplished", "can_answer_now": False}, True, False),
    ({"status": "Partially accomplished", "can_answer_now": True}, False, True),
    ({"status": "Partially accomplished", "can_answer_now": False}, False, False),
    ({"status": "Not accomplished", "can_answer_now": True}, True, False),
])
def test_stop_rules(status: dict, code_stops: bool, paper_stops: bool) -> None:
    verdict = parse_critic_output(json.dumps({**status, "rationale": "r"}))
    assert stops_prefix_loop(verdict, "code") is code_stops
    assert stops_prefix_loop(verdict, "paper") is paper_stops
    unreadable = parse_critic_output("fine by me")
    assert stops_prefix_loop(unreadable, "code") and not stops_prefix_loop(unreadable, "paper")
    with pytest.raises(ValueError):
        stops_prefix_loop(verdict, "text")
