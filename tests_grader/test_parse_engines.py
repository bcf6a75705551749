"""Rules added for the serving engines' call formats (issue 21) and answer objects / nameless calls (issue 20,
kinds 4 and 12): what the conformance tables cannot show on their own (prose, grading, examples, budgets)."""
from __future__ import annotations

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.parse import extract, strip_thinking
from tooluse1.tools import TOOLS, canonical_tool_name

CASES = {c.id: c for c in load_corpus()[0]}


@pytest.mark.parametrize("text,prose", [
    ('{"response": "Sorry, I can\'t book flights."}', "Sorry, I can't book flights."),
    ('{"name": "final_answer", "arguments": {"answer": "Которое из двух чисел?"}}', "Которое из двух чисел?"),
    ('{"action": "Final Answer", "action_input": "Canberra."}', "Canberra."),
    ('Sure.\n{"thought": "easy", "answer": "Canberra."}', "Sure.\nCanberra."),
    ('Thought: no tool needed\nFinal Answer: Canberra.', "Thought: no tool needed\nCanberra."),
    ('<tool_call>{"name": "final_answer", "arguments": {"answer": "Which city?"}}</tool_call>', "Which city?"),
    ('>>>all\nКанберра.', "Канберра."),
    ("<function=final_answer><parameter=answer>Canberra.</parameter></function>", "Canberra."),
    ("TOOL respond | text=Не могу заказать пиццу.", "Не могу заказать пиццу."),
    ('[TOOL_CALLS]final_answer[ARGS]{"answer": "Ottawa"}', "Ottawa"),
])
def test_an_answer_object_stands_for_its_text_in_the_prose(text, prose):
    ex = extract(text)
    assert ex.label == "text" and not ex.calls
    assert ex.prose == prose


def test_an_answer_object_shown_as_an_example_stays_quoted():
    ex = extract('For example, a reply would look like:\n```json\n{"response": "Hi"}\n```')
    assert '"response"' in ex.prose


def test_data_with_answer_keys_beside_other_keys_is_no_answer_object():
    ex = extract('{"answer": "42", "source": "Douglas Adams"}')
    assert ex.prose.startswith("{")


@pytest.mark.parametrize("case_id,output", [
    ("negative-en-014", '{"response": "Sorry, I can\'t book flights."}'),
    ("negative-en-014", '{"name": "final_answer", "arguments": {"answer": "I\'m unable to book flights."}}'),
    ("clarification-en-001", '{"name": "final_answer", "arguments": {"answer": "Which city do you mean?"}}'),
    ("clarification-en-001", "Final Answer: Which city should I check?"),
    ("negative-en-001", '{"response": "The capital of Australia is Canberra."}'),
])
@pytest.mark.parametrize("protocol", ["json", "xml", "plain"])
def test_refusals_questions_and_facts_inside_answer_objects_count(case_id, output, protocol):
    verdict = grade(CASES[case_id], output, protocol)
    assert verdict.passed, verdict.reason


@pytest.mark.parametrize("output", [
    'I can help with that.\n<tool_call>{"name": "", "arguments": {}}</tool_call>',
    '{"name": null, "arguments": {"city": "Paris"}}',
    '{"tool_calls": [{"function": {"name": "", "arguments": "{}"}}]}',
])
def test_a_nameless_call_is_a_broken_attempt_not_an_abstention(output):
    assert extract(output).label == "malformed"
    v = grade(CASES["negative-en-001"], "The capital of Australia is Canberra.\n" + output, "json")
    assert not v.passed and v.malformed


def test_only_the_offered_functions_namespace_is_stripped():
    assert canonical_tool_name("functions.web_search") == "web_search"
    assert canonical_tool_name("default_api.get_weather") == "get_weather"
    assert canonical_tool_name("browser.search") not in TOOLS
    out = '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query": "Paris weather"}<|call|>'
    v = grade(CASES["web_search-en-001"], out, "json")
    assert not v.tool_ok


def test_a_call_section_ends_reasoning_that_is_never_closed_and_only_then():
    section = ('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0<|tool_call_argument_begin|>'
               '{"timezone": "UTC"}<|tool_call_end|><|tool_calls_section_end|>')
    assert [c.name for c in extract("<think>Let me check." + section).calls] == ["get_time"]
    # Closed later: the section was drafted inside the reasoning, and the reply is what follows </think>.
    assert extract("<think>Maybe " + section + " no.</think>It is noon in UTC.").calls == []
    visible, thinking = strip_thinking("<think>draft" + section)
    assert thinking == "draft" and visible.startswith("<|tool_calls_section_begin|>")


def test_harmony_analysis_with_a_recipient_is_a_call_without_one_is_thinking():
    call = '<|channel|>analysis to=functions.get_time <|constrain|>json<|message|>{"timezone": "UTC"}<|call|>'
    assert [c.name for c in extract(call).calls] == ["get_time"]
    assert extract('<|channel|>analysis<|message|>{"name": "get_time", "arguments": {}}').calls == []


@pytest.mark.parametrize("text", [
    "<think><|tool_calls_section_begin|>" * 40_000,
    ">>>f\n{" * 100_000,
    "<function_calls>f(x=" * 50_000,
    "<|python_start|>[f(a=1)" * 50_000,
    '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": [' * 20_000,
    '<｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="false">' * 20_000,
    "<function=f><parameter=a>1" * 30_000,
    '<tool_call>[{"f": {"a": ' * 40_000,
    '<|tool_call>call:f{a:<|"|>' * 40_000,
])
def test_new_anchors_on_hostile_text_never_raise(text):
    ex = extract(text)
    assert ex.label in ("call", "malformed", "text")
