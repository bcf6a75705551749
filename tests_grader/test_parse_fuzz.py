"""The extractor's contract on any input: `extract` never raises, its label agrees with its calls and
problem, its result serialises; hostile outputs (deep nesting, megabytes, huge numbers, NUL bytes, lone
surrogates) return. Property tests with hypothesis; no timing assertions (times are in
benchmarks/bench_grader_fuzz.py)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.parse import Extraction, extract
from tooluse1.types import LABELS

FUZZ = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Pieces of every call format, the thinking markers and the characters parsers trip on.
FRAGMENTS = [
    "{", "}", "[", "]", "(", ")", '"', "'", ":", ",", "\n", " ", "\\", "|", "=", "`", "```", "```json\n",
    '"name"', '"name": "get_weather"', '"arguments": ', '{"city": "Paris"}', '"parameters"', '"description": "x"',
    '"tool_calls"', '"function"', '"functionCall"', '"action": "get_weather"', '"action_input"', '"tools": ',
    "<tool_call>", "</tool_call>", "<function=", "<function=get_weather>", "</function>", "<parameter=city>",
    "</parameter>", "<invoke name=\"get_weather\">", "</invoke>", '<parameter name="city">', "<arg_key>",
    "</arg_key>", "<arg_value>", "</arg_value>", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "get_weather",
    "get_weather(", 'city="Paris"', "<|python_tag|>", "<|tool_call_begin|>", "functions.get_weather:0",
    "<|tool_call_argument_begin|>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<|channel|>", "analysis",
    "commentary", " to=functions.get_weather", "<|constrain|>json", "<|message|>", "<|call|>", "<|end|>",
    "<|start|>assistant", "assistantfinal", "<think>", "</think>", "[THINK]", "◁think▷", "TOOL ",
    "TOOL get_weather | city=", "TOOL RESULT", "Action: get_weather\n", "Action Input: ", "For example:\n",
    "Например:\n", "functools", "True", "None", "0x", "1" * 30, "9" * 5000, "\x00", "\ud800", "é", "ж", "▁",
]
fragment_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=60).map("".join)
# Any code point, lone surrogates included (hypothesis leaves them out by default).
any_text = st.text(alphabet=st.characters(blacklist_categories=()), max_size=3000)


def check_contract(text: str) -> Extraction:
    ex = extract(text)
    assert isinstance(ex, Extraction) and ex.label in LABELS
    assert (ex.label == "call") == bool(ex.calls)
    assert (ex.label == "malformed") == (ex.problem is not None)
    if ex.label == "malformed":
        assert ex.problem == ex.broken[0]
    if ex.label == "text":
        assert not ex.broken
    assert isinstance(ex.prose, str) and ex.prose == ex.prose.strip()
    json.dumps(ex.as_dict())                     # the results file can hold every extraction
    return ex


@FUZZ
@given(any_text)
def test_arbitrary_text_keeps_the_contract(text):
    check_contract(text)


@FUZZ
@given(fragment_text)
def test_text_built_from_call_fragments_keeps_the_contract(text):
    check_contract(text)


# Calls in every format that, alone on their lines in plain prose, must each be found exactly once.
FORMATTED = [
    '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
    '<function=get_weather>{"city": "Paris"}</function>',
    "TOOL get_weather | city=Paris",
    'get_weather(city="Paris")',
    '[get_weather(city="Paris")]',
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
    '<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>',
    '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>',
    "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
    '<invoke name="get_weather"><parameter name="city">Paris</parameter></invoke>',
    'Action: get_weather\nAction Input: {"city": "Paris"}',
    '{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}',
    '{"action": "get_weather", "action_input": {"city": "Paris"}}',
]
# Prose that cannot itself hold call syntax or a thinking marker: letters (Latin and Cyrillic), digits,
# spaces and a few punctuation marks, on several lines. No "f" or "y": hypothesis seeds text with the
# module's literals and once spelt "assistantfinal" (gpt-oss's end of thinking, which cuts what precedes
# it) and could spell "analysis" at the start.
plain_prose = st.text(alphabet=st.sampled_from(list("abcdeghijklmnopqrstuvwxzABCXZабвгдежзиклмнопрст0123456789"
                                                    " .,!?\n")), max_size=200)


@FUZZ
@given(plain_prose, st.sampled_from(FORMATTED), plain_prose)
def test_a_call_in_any_format_amid_prose_is_found_once(before, call, after):
    ex = check_contract(f"{before}\n{call}\n{after}")
    assert [(c.name, c.arguments) for c in ex.calls] == [("get_weather", {"city": "Paris"})], ex


@FUZZ
@given(plain_prose, st.sampled_from(FORMATTED), st.sampled_from(FORMATTED), plain_prose)
def test_two_calls_in_any_two_formats_are_two_calls(before, first, second, after):
    ex = check_contract(f"{before}\n{first}\n{before}\n{second}\n{after}")
    assert len(ex.calls) == 2, ex


@FUZZ
@given(fragment_text)
def test_extraction_is_deterministic(text):
    assert extract(text).as_dict() == extract(text).as_dict()


# ----------------------------------------------------------------------------- hostile outputs

N = 100_000
HOSTILE = {
    "deep-[": "[" * N,
    "deep-{": "{" * N,
    "deep-<function=": "<function=" * N,
    "deep-(": "(" * N,
    "deep-pythonic-(": "get_weather(" + "(" * N + ")" * (N + 1),
    "deep-closed-[]": "[" * N + "]" * N,
    "deep-closed-json": '{"a":' * N + "1" + "}" * N,
    "deep-json-call-args": '{"name": "get_weather", "arguments": {"city": ' + "[" * N + "]" * N + "}}",
    "deep-<tool_call>": "<tool_call>" * N,
    "deep-[TOOL_CALLS]": "[TOOL_CALLS]" * N,
    "openers-list": ("[" + "1," * 100) * 600,
    "brackets-500": "[" * 500 + "]" * 500,
    "1MB-prose": ("The quick brown fox jumps over the lazy dog; Съешь же ещё этих мягких булок. " * 13_000)[:1_000_000],
    "1MB-json-call": '{"name": "save_note", "arguments": {"text": "' + "a" * 1_000_000 + '"}}',
    "1MB-random-markup": "".join(FRAGMENTS[i % 60] for i in range(120_000))[:1_000_000],
    "5000-digits-json": '{"name": "set_timer", "arguments": {"duration_seconds": 1' + "0" * 5000 + "}}",
    "5000-digits-json-string-args": json.dumps({"name": "set_timer",
                                                "arguments": '{"duration_seconds": 1' + "0" * 5000 + "}"}),
    "5000-digits-python-decimal": "{'name': 'set_timer', 'arguments': {'duration_seconds': 1" + "0" * 5000 + "}}",
    "5000-digits-python-hex": "{'name': 'set_timer', 'arguments': {'duration_seconds': 0x" + "f" * 5000 + "}}",
    "5000-digits-pythonic-hex": "set_timer(duration_seconds=0x" + "f" * 5000 + ")",
    "5000-digits-pythonic-decimal": "set_timer(duration_seconds=1" + "0" * 5000 + ")",
    "nul-bytes": '{"name": "save_note", "arguments": {"text": "a\x00b"}}\x00TOOL x | a=\x00\nget_weather(city="\x00")',
    "nul-only": "\x00" * 10_000,
    "lone-surrogates": '{"name": "save_note", "arguments": {"text": "\ud800\udfff\ud800"}}\n\ud800' * 100,
    "surrogate-pythonic": 'save_note(text="\ud800")',
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_outputs_keep_the_contract(text):
    check_contract(text)


@pytest.mark.parametrize("name", ["5000-digits-json", "5000-digits-json-string-args", "5000-digits-python-decimal",
                                  "5000-digits-python-hex"])
def test_a_call_with_a_number_too_long_to_print_is_malformed(name):
    # A 5,000-digit integer is over Python's 4,300-digit limit: the call cannot be read (or written to the
    # results file), so it is a call attempt that does not parse.
    assert extract(HOSTILE[name]).label == "malformed"


def test_a_surrogate_in_an_argument_is_kept_and_serialises():
    ex = check_contract('{"name": "save_note", "arguments": {"text": "\ud800"}}')
    assert ex.calls[0].arguments == {"text": "\ud800"}


@pytest.fixture(scope="module")
def some_cases():
    cases, _ = load_corpus()
    return [next(c for c in cases if c.expect.kind == kind) for kind in ("call", "no_call", "clarify")]


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_grading_hostile_outputs_never_raises(some_cases, text):
    for case in some_cases:
        for protocol in ("json", "xml", "plain"):
            grade(case, text, protocol)
