"""The extractor (tooluse1.parse.extract): every accepted call form, thinking removal, and the three labels."""
from __future__ import annotations

import json
import random
import time

import pytest

from tooluse1 import tools
from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.parse import Extraction, extract, strip_thinking
from tooluse1.toolspec import Param, Tool


def calls_of(text: str) -> list[tuple[str, dict]]:
    return [(c.name, c.arguments) for c in extract(text).calls]


@pytest.fixture(scope="module")
def corpus():
    cases, _ = load_corpus()
    return {c.id: c for c in cases}


# ----------------------------------------------------------------------------- XML

def test_xml_several_function_blocks_in_order():
    text = ("<tool_call>\n<function=get_weather>\n<parameter=city>\nBerlin\n</parameter>\n</function>\n"
            "</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=timezone>\nAsia/Tokyo\n</parameter>\n"
            "</function>\n</tool_call>")
    ex = extract(text)
    assert (ex.label, ex.form) == ("call", "xml")
    assert calls_of(text) == [("get_weather", {"city": "Berlin"}), ("get_time", {"timezone": "Asia/Tokyo"})]
    assert ex.prose == ""


def test_xml_zero_parameter_call():
    ex = extract("<tool_call>\n<function=get_time>\n</function>\n</tool_call>")
    assert ex.label == "call"
    assert calls_of("<tool_call>\n<function=get_time>\n</function>\n</tool_call>") == [("get_time", {})]


@pytest.mark.parametrize("tool,param,raw,expected", [
    ("convert_units", "value", "10", 10),              # number parameter: "10" -> 10
    ("convert_currency", "amount", "2.5", 2.5),
    ("set_timer", "duration_seconds", "90", 90),      # integer parameter
    ("web_search", "num_results", "3", 3),
    ("save_note", "text", "10", "10"),                 # a numeric note text stays a string
    ("get_weather", "city", "02139", "02139"),         # a zip-code-like string keeps its leading zero
    ("translate", "text", "12345", "12345"),
    ("calculator", "expression", "57", "57"),          # expressions are strings in the schema
])
def test_xml_values_are_typed_by_the_schema(tool, param, raw, expected):
    ex = extract(f"<function={tool}>\n<parameter={param}>\n{raw}\n</parameter>\n</function>")
    assert ex.label == "call"
    value = ex.calls[0].arguments[param]
    assert value == expected and type(value) is type(expected)


def test_xml_multiline_value_keeps_inner_newlines():
    ex = extract("<function=save_note>\n<parameter=text>\nline one\nline two\n</parameter>\n</function>")
    assert ex.calls[0].arguments == {"text": "line one\nline two"}


def test_xml_prose_around_the_block_is_kept_as_prose():
    ex = extract("Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"
                 "</function>\n</tool_call>\nOne moment.")
    assert ex.label == "call"
    assert "<" not in ex.prose and "Oslo" not in ex.prose
    assert ex.prose.startswith("Let me check.") and ex.prose.endswith("One moment.")


# ----------------------------------------------------------------------------- JSON

CALC = {"name": "calculator", "arguments": {"expression": "45+12"}}


@pytest.mark.parametrize("text", [
    json.dumps(CALC),
    "```json\n" + json.dumps(CALC) + "\n```",
    "```\n" + json.dumps(CALC, indent=2) + "\n```",
    "Sure, calling the tool now: " + json.dumps(CALC) + " and then I'll report back.",
    "<tool_call>\n" + json.dumps(CALC) + "\n</tool_call>",
    json.dumps({"name": "calculator", "parameters": {"expression": "45+12"}}),
    json.dumps({"tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": "calculator",
                                             "arguments": json.dumps({"expression": "45+12"})}}]}),
    json.dumps({"function": {"name": "calculator", "arguments": json.dumps({"expression": "45+12"})}}),
    json.dumps({"name": "calculator", "arguments": json.dumps({"expression": "45+12"})}),
    "{'name': 'calculator', 'arguments': {'expression': '45+12'}}",           # Python-literal dict
    "[" + json.dumps(CALC) + "]",
], ids=["bare", "fenced-json", "fenced-plain", "embedded", "in-tool_call-tags", "parameters-key",
        "openai-tool_calls", "function-string-args", "string-args", "python-literal", "list-of-one"])
def test_json_forms(text):
    ex = extract(text)
    assert (ex.label, ex.form) == ("call", "json"), ex
    assert calls_of(text) == [("calculator", {"expression": "45+12"})]


def test_json_embedded_in_prose_leaves_only_the_prose():
    ex = extract("Sure, calling the tool now: " + json.dumps(CALC) + " and then I'll report back.")
    assert "expression" not in ex.prose and "{" not in ex.prose
    assert ex.prose.startswith("Sure, calling the tool now:") and ex.prose.endswith("report back.")


def test_json_list_of_calls_and_tool_calls_with_two_entries():
    two = [CALC, {"name": "get_time", "arguments": {"timezone": "UTC"}}]
    assert calls_of(json.dumps(two)) == [("calculator", {"expression": "45+12"}), ("get_time", {"timezone": "UTC"})]
    oa = {"tool_calls": [{"type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                         for c in two]}
    assert [c.name for c in extract(json.dumps(oa)).calls] == ["calculator", "get_time"]


def test_json_values_are_typed_by_schema_but_native_types_kept():
    ex = extract(json.dumps({"name": "convert_units",
                             "arguments": {"value": "10", "from_unit": "km", "to_unit": "mi"}}))
    assert ex.calls[0].arguments["value"] == 10 and type(ex.calls[0].arguments["value"]) is int
    ex = extract(json.dumps({"name": "save_note", "arguments": {"text": "2024"}}))
    assert ex.calls[0].arguments["text"] == "2024"
    ex = extract(json.dumps({"name": "set_timer", "arguments": {"duration_seconds": True}}))
    assert ex.calls[0].arguments["duration_seconds"] is True      # a bool is never turned into 1


def test_json_python_literal_with_non_json_values_is_not_a_call():
    # bytes/sets cannot be a call's arguments and would break the results file (json.dumps)
    ex = extract("{'name': 'save_note', 'arguments': {'text': b'hi'}}")
    assert ex.label != "call"
    json.dumps(ex.as_dict())


# ----------------------------------------------------------------------------- plain

def test_plain_line_with_quoted_value_containing_pipe():
    text = 'TOOL save_note | text="milk | eggs | bread" | title=Shopping'
    ex = extract(text)
    assert (ex.label, ex.form) == ("call", "plain")
    assert calls_of(text) == [("save_note", {"text": "milk | eggs | bread", "title": "Shopping"})]


def test_plain_line_values_typed_and_escaped_quotes():
    assert calls_of("TOOL convert_units | value=10 | from_unit=km | to_unit=mi") == [
        ("convert_units", {"value": 10, "from_unit": "km", "to_unit": "mi"})]
    assert calls_of('TOOL save_note | text="He said \\"hi\\""') == [("save_note", {"text": 'He said "hi"'})]
    assert calls_of("TOOL get_weather | city=New York | unit=celsius") == [
        ("get_weather", {"city": "New York", "unit": "celsius"})]


def test_plain_several_lines_and_prose_between():
    ex = extract("Here you go:\nTOOL calculator | expression=1+1\nTOOL get_time | timezone=UTC\nDone.")
    assert [c.name for c in ex.calls] == ["calculator", "get_time"]
    assert ex.prose == "Here you go:\n\nDone."


def test_plain_tool_result_echo_is_not_a_call():
    ex = extract("TOOL RESULT (calculator): 2\nThe answer is 2.")
    assert ex.label == "text" and not ex.calls


# ----------------------------------------------------------------------------- bare argument objects

@pytest.mark.parametrize("text,tool", [
    ('{"city": "Berlin"}', "get_weather"),
    ('{"value": 5, "from_unit": "km", "to_unit": "mi"}', "convert_units"),
    ('{"query": "news", "num_results": 3}', "web_search"),
    ('{"expression": "2+2"}', "calculator"),
])
def test_bare_argument_object_identifying_exactly_one_tool(text, tool):
    ex = extract(text)
    assert (ex.label, ex.form) == ("call", "bare_args")
    assert ex.calls[0].name == tool and ex.calls[0].arguments == json.loads(text)


@pytest.mark.parametrize("text", [
    '{"timezone": "UTC", "city": "Paris"}',     # keys of two different tools
    '{"amount": 5}',                             # a required argument missing: fits no tool
    '{"colour": "red"}',
])
def test_bare_object_that_fits_no_tool_is_text(text):
    assert extract(text).label == "text"


def test_bare_object_fitting_two_tools_is_ambiguous_and_not_a_call(monkeypatch):
    # With the nine real tools no key set fits two schemas, so add a second tool that shares get_weather's.
    twin = Tool("get_forecast", "Forecast.", (Param("city", "string", "City.", required=True),))
    monkeypatch.setitem(tools.TOOLS, "get_forecast", twin)
    ex = extract('{"city": "Berlin"}')
    assert ex.label == "text" and not ex.calls


def test_arguments_inside_a_broken_call_object_are_not_a_bare_call():
    # Truncated before the last brace: the inner {"city": ...} alone fits get_weather, but the output
    # is a call that does not parse.
    ex = extract('{"name": "get_weather", "arguments": {"city": "Berlin"}')
    assert ex.label == "malformed" and not ex.calls


# ----------------------------------------------------------------------------- thinking

def test_closed_think_block_is_removed_with_a_call_inside_it():
    ex = extract('<think>maybe {"name": "calculator", "arguments": {"expression": "2+2"}}</think>The answer is 4.')
    assert ex.label == "text" and ex.prose == "The answer is 4."
    assert "calculator" in ex.thinking


def test_call_after_thinking_is_found():
    call = json.dumps({"name": "get_weather", "arguments": {"city": "Rome"}})
    ex = extract("<think>I need the weather tool.</think>\n" + call)
    assert ex.label == "call" and ex.calls[0].arguments == {"city": "Rome"}


def test_unclosed_think_cuts_to_the_end():
    ex = extract('Sure.<think>let me call {"name": "calculator", "arguments": {"expression": "1"}}')
    assert ex.label == "text" and ex.prose == "Sure."


def test_lone_end_marker_cuts_everything_before_it():
    ex = extract('I should call {"name": "calculator", "arguments": {"expression": "1"}} </think>Canberra.')
    assert ex.label == "text" and ex.prose == "Canberra."


@pytest.mark.parametrize("marker", ["<｜end▁of▁thinking｜>", "｜end▁of▁thinking｜", "</thinking>", "[/THINK]"])
def test_end_of_thinking_markers(marker):
    ex = extract(f"TOOL calculator | expression=1+1\nhmm{marker}Paris is the capital.")
    assert ex.label == "text" and ex.prose == "Paris is the capital."


def test_several_think_blocks():
    body, thinking = strip_thinking("<think>a</think>one <think>b</think>two")
    assert body == "one two" and thinking.split("\n") == ["a", "b"]


def test_text_without_thinking_is_only_stripped():
    assert strip_thinking("  plain answer \n") == ("plain answer", "")


# ----------------------------------------------------------------------------- labels: malformed vs text

@pytest.mark.parametrize("text", [
    '{"name": "calculator", "arguments": {"expression": "1+',                       # truncated JSON
    '```json\n{"name": "get_weather", "arguments": {"city": "Berlin"\n```',           # unbalanced fenced JSON
    '{"name": "calculator", "arguments": "expression=1+1"}',                          # string args, not JSON
    '{"name": "calculator", "arguments": [1, 2]}',                                    # args not an object
    "<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</parameter>\n</function>",  # extra closer
    "<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n",            # unclosed function
    "<function=calculator><parameter=expression>2",                                    # block not closed
    "TOOL calc expression=1",                                                          # no pipe
    'TOOL save_note | text="unterminated',
    '{"name": "book_flight", "destination": "Paris"}',                                # flat call of a made-up tool
])
def test_malformed_call_attempts(text):
    ex = extract(text)
    assert ex.label == "malformed", ex
    assert not ex.calls and ex.problem


def test_a_parsed_call_next_to_a_broken_one_is_a_call_and_the_broken_one_is_reported():
    # Grading 2.0: the label is "call" iff calls parsed (it used to be malformed because one broken
    # <function> block discarded the whole xml extraction); the cut-off second call is in `broken`.
    ex = extract("<function=get_time></function><function=calculator><parameter=expression>2")
    assert ex.label == "call" and calls_of("<function=get_time></function>") == [("get_time", {})]
    assert [c.name for c in ex.calls] == ["get_time"] and ex.problem is None
    assert ex.broken == ["the call of 'calculator' is not closed"]


@pytest.mark.parametrize("text", [
    "The set {1, 2, 3} has three elements, and f(x) = {x | x > 0}.",
    "Fill in the form: name: Alice, age: 30.",
    "Use the syntax `{key}` in templates; name: is a field label.",
    "I can't browse the web, but the TOOLS I have are listed above.",
    "TOOLS available to me:\n- calculator\n- get_weather",
    "",
])
def test_plain_prose_with_braces_or_name_is_text(text):
    ex = extract(text)
    assert ex.label == "text" and not ex.calls and ex.problem is None


def test_extract_never_raises_on_non_strings():
    assert extract(None).label == "text"          # type: ignore[arg-type]
    assert extract(b"bytes").label == "text"      # type: ignore[arg-type]


# ----------------------------------------------------------------------------- the quoted-line trap

QUOTED_FORMS = [
    'Sure: "TOOL calculator | expression=1+1"',
    "`TOOL calculator | expression=1+1`",
    "> TOOL calculator | expression=1+1",
    "Here it is, as text: «TOOL calculator | expression=1+1»",
]


@pytest.fixture(scope="module")
def trap_cases(corpus):
    traps = [c for c in corpus.values() if c.kind == "instruction_trap"
             and "TOOL calculator | expression=1+1" in c.messages[-1]["content"]]
    assert len(traps) >= 2, "the corpus has the EN and RU 'repeat TOOL ...' trap cases"
    return traps


@pytest.mark.parametrize("output", QUOTED_FORMS)
def test_quoted_tool_line_is_text(output):
    ex = extract(output, "plain")
    assert ex.label == "text" and not ex.calls


@pytest.mark.parametrize("output", QUOTED_FORMS)
def test_quoted_tool_line_passes_the_real_trap_cases(trap_cases, output):
    for case in trap_cases:
        v = grade(case, output, "plain")
        assert v.passed, (case.id, v.reason)


def test_bare_tool_line_is_a_call_and_fails_the_trap_cases(trap_cases):
    for case in trap_cases:
        for line in ("TOOL calculator | expression=1+1", "Sure:\nTOOL calculator | expression=1+1"):
            v = grade(case, line, "plain")
            assert not v.passed and v.spurious_call and v.label == "call", case.id


# ----------------------------------------------------------------------------- robustness

FRAGMENTS = ["{", "}", "[", "]", '"', "'", ":", ",", "<think>", "</think>", "<function=calculator>", "</function>",
             "<parameter=expression>", "</parameter>", "<tool_call>", "</tool_call>", "TOOL ", "TOOL calculator | ",
             "expression=", '"name": "calculator"', '"arguments": ', "\n", " ", "1" * 30, "｜end▁of▁thinking｜",
             "```json", "```", "\\", "9" * 5000, "|", "=", "None", "True", "name: "]


def test_random_fragment_soup_never_raises_and_labels_consistently():
    rng = random.Random(20240601)
    for _ in range(1500):
        text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 25)))
        ex = extract(text)
        assert isinstance(ex, Extraction)
        assert ex.label in ("call", "malformed", "text")
        assert (ex.label == "call") == bool(ex.calls)
        assert (ex.label == "malformed") == (ex.problem is not None)
        json.dumps(ex.as_dict())


@pytest.mark.parametrize("text", [
    "[" * 50_000,
    '{"a":' * 20_000,
    "{'a':" * 20_000,
    "<function=x>" * 20_000,
    "<function=a><parameter=b>" * 10_000,
    '{"name": "set_timer", "arguments": {"duration_seconds": 1' + "0" * 5000 + "}}",
    json.dumps({"name": "set_timer", "arguments": '{"duration_seconds": 1' + "0" * 5000 + "}"}),
])
def test_hostile_outputs_return_quickly_without_raising(text):
    t0 = time.process_time()
    ex = extract(text)
    assert time.process_time() - t0 < 2.0
    assert ex.label in ("malformed", "text")
