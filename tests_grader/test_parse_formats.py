"""Extraction 2.0 (tooluse1.parse): the real call formats models use, calls counted across formats, nested
spans counted once, tool descriptions as text, examples in code blocks, and the issue's verdicts graded
through the real corpus."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.parse import extract, strip_thinking

W = {"name": "get_weather", "arguments": {"city": "Paris"}}
WJ = json.dumps(W)
PARIS = [("get_weather", {"city": "Paris"})]
TWO = [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "UTC"})]


def calls_of(text: str) -> list[tuple[str, dict]]:
    return [(c.name, c.arguments) for c in extract(text).calls]


def examples_of(text: str) -> list[tuple[str, dict]]:
    return [(c.name, c.arguments) for c in extract(text).examples]


@pytest.fixture(scope="module")
def corpus():
    cases, _ = load_corpus()
    return {c.id: c for c in cases}


# ----------------------------------------------------------------------------- each real format

FORMATS = {
    # Llama 3.1 custom tool format: the JSON body used to be dropped ("missing city").
    "llama31-function-json": ('<function=get_weather>{"city": "London"}</function>',
                              [("get_weather", {"city": "London"})], "xml"),
    "llama31-function-json-spaced": ('Let me look.\n<function=get_weather>\n  {"city": "London"}\n</function>\n',
                                     [("get_weather", {"city": "London"})], "xml"),
    "llama31-python-tag-json": ('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
                                PARIS, "json"),
    "qwen-xml": ("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"
                 "</tool_call>", PARIS, "xml"),
    "hermes-tool_call": (f"<tool_call>\n{WJ}\n</tool_call>", PARIS, "json"),
    "hermes-python-literal": ("<tool_call>\n{'arguments': {'city': 'Paris'}, 'name': 'get_weather'}\n</tool_call>",
                              PARIS, "json"),
    "openai-tool_calls": (json.dumps({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]}),
        PARIS, "json"),
    "openai-legacy-function_call": (json.dumps({"function_call": {"name": "get_weather",
                                                                  "arguments": '{"city": "Paris"}'}}), PARIS, "json"),
    "openai-responses-function_call": (json.dumps({"type": "function_call", "call_id": "c1", "name": "get_weather",
                                                   "arguments": '{"city": "Paris"}'}), PARIS, "json"),
    "gemini-functionCall": (json.dumps({"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}),
                            PARIS, "json"),
    "gemini-parts": (json.dumps({"role": "model", "parts": [{"text": "Checking."},
                                                            {"functionCall": {"name": "get_weather",
                                                                              "args": {"city": "Paris"}}}]}),
                     PARIS, "json"),
    "gemini-function_call-snake": (json.dumps({"function_call": {"name": "get_weather", "args": {"city": "Paris"}}}),
                                   PARIS, "json"),
    "anthropic-tool_use-block": (json.dumps({"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                                             "input": {"city": "Paris"}}), PARIS, "json"),
    "langchain-action": ('```json\n{"action": "get_weather", "action_input": {"city": "Paris"}}\n```', PARIS, "json"),
    "langchain-action-string-input": ('{"action": "web_search", "action_input": "weather in Paris"}',
                                      [("web_search", {"query": "weather in Paris"})], "json"),
    "cohere-tool_name": ('Action: ```json\n[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]\n```',
                         PARIS, "json"),
    "cohere-start-action": ('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", '
                            '"parameters": {"city": "Paris"}}]<|END_ACTION|>', PARIS, "json"),
    "granite": (f"<|tool_call|>[{WJ}]", PARIS, "json"),
    "phi4-functools": (f"functools[{WJ}]", PARIS, "json"),
    "mistral-list": (f"[TOOL_CALLS][{WJ}]", PARIS, "json"),
    "mistral-list-spaced-with-prose": (f"Let me check that.\n[TOOL_CALLS] [{WJ}]", PARIS, "json"),
    "mistral-v11": ('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', PARIS, "mistral"),
    "mistral-v11-call-id": ('[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}', PARIS, "mistral"),
    "mistral-no-args-token": ('[TOOL_CALLS]get_weather{"city": "Paris"}', PARIS, "mistral"),
    "mistral-two": ('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{"timezone": "UTC"}',
                    TWO, "mistral"),
    "mistral-args-token-only": ('get_weather[ARGS]{"city": "Paris"}', PARIS, "mistral"),
    "harmony": ('<|channel|>analysis<|message|>The user wants the weather.<|end|><|start|>assistant<|channel|>'
                'commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>',
                PARIS, "harmony"),
    "harmony-recipient-first": ('<|start|>assistant to=functions.get_weather<|channel|>commentary json'
                                '<|message|>{"city":"Paris"}<|call|>', PARIS, "harmony"),
    "harmony-tokens-dropped": ('analysisThe user asks for the weather in Paris. Use get_weather.assistantcommentary '
                               'to=functions.get_weather json{"city":"Paris"}', PARIS, "harmony"),
    "harmony-ru": ('analysisПользователь спрашивает погоду в Париже.assistantcommentary to=functions.get_weather '
                   'json{"city":"Париж"}', [("get_weather", {"city": "Париж"})], "harmony"),
    "deepseek-v3": ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n'
                    '{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>', PARIS, "deepseek"),
    "deepseek-v31": ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}'
                     '<｜tool▁call▁end｜><｜tool▁calls▁end｜>', PARIS, "deepseek"),
    "deepseek-v31-two": ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}'
                         '<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"timezone": "UTC"}'
                         '<｜tool▁call▁end｜><｜tool▁calls▁end｜>', TWO, "deepseek"),
    "kimi-k2": ('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>'
                '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>', PARIS, "kimi"),
    "kimi-k2-spaced-two": ('<|tool_calls_section_begin|>\n<|tool_call_begin|> functions.get_weather:0 '
                           '<|tool_call_argument_begin|> {"city": "Paris"} <|tool_call_end|>\n<|tool_call_begin|> '
                           'functions.get_time:1 <|tool_call_argument_begin|> {"timezone": "UTC"} <|tool_call_end|>\n'
                           '<|tool_calls_section_end|>', TWO, "kimi"),
    "glm-4.5": ("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
                PARIS, "glm"),
    "glm-4.7": ("<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>", PARIS, "glm"),
    "glm-typed-by-schema": ("<tool_call>convert_units\n<arg_key>value</arg_key>\n<arg_value>10</arg_value>\n"
                            "<arg_key>from_unit</arg_key>\n<arg_value>km</arg_value>\n<arg_key>to_unit</arg_key>\n"
                            "<arg_value>mi</arg_value>\n</tool_call>",
                            [("convert_units", {"value": 10, "from_unit": "km", "to_unit": "mi"})], "glm"),
    "invoke-anthropic-style": ('<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris'
                               '</parameter>\n</invoke>\n</function_calls>', PARIS, "invoke"),
    "invoke-minimax": ('<minimax:tool_call>\n<invoke name="set_timer">\n<parameter name="duration_seconds">300'
                       '</parameter>\n</invoke>\n</minimax:tool_call>',
                       [("set_timer", {"duration_seconds": 300})], "invoke"),
    "react": ('Thought: I need the current weather.\nAction: get_weather\nAction Input: {"city": "Paris"}',
              PARIS, "react"),
    "react-string-input": ("Action: web_search\nAction Input: Paris weather today",
                           [("web_search", {"query": "Paris weather today"})], "react"),
    "pythonic": ('get_weather(city="Paris")', PARIS, "pythonic"),
    "pythonic-list-llama32": ('[get_weather(city="Paris"), get_time(timezone="UTC")]', TWO, "pythonic"),
    "pythonic-llama4-tokens": ('<|python_start|>[get_weather(city="Paris")]<|python_end|>', PARIS, "pythonic"),
    "pythonic-single-quotes": ("[get_weather(city='Paris')]", PARIS, "pythonic"),
    "pythonic-fenced-with-prose": ('Sure, checking now:\n```python\nget_weather(city="Paris")\n```', PARIS,
                                   "pythonic"),
    "pythonic-multiline": ('get_weather(\n    city="Paris",\n)', PARIS, "pythonic"),
    "pythonic-two-lines": ('get_weather(city="Paris")\nget_time(timezone="UTC")', TWO, "pythonic"),
    "pythonic-positional-known-tool": ('convert_currency(100, "USD", "EUR")',
                                       [("convert_currency", {"amount": 100, "from_currency": "USD",
                                                              "to_currency": "EUR"})], "pythonic"),
    "pythonic-string-typed-by-schema": ('convert_units(value="10", from_unit="km", to_unit="mi")',
                                        [("convert_units", {"value": 10, "from_unit": "km", "to_unit": "mi"})],
                                        "pythonic"),
    "pythonic-gemma-tool_code": ('```tool_code\nprint(get_weather(city="Paris"))\n```', PARIS, "pythonic"),
    "pythonic-ru-prose": ('Сейчас узнаю погоду.\n[get_weather(city="Москва")]', [("get_weather", {"city": "Москва"})],
                          "pythonic"),
    "plain": ("TOOL get_weather | city=Paris", PARIS, "plain"),
    "plain-ru-prose": ("Проверяю погоду:\nTOOL get_weather | city=Москва", [("get_weather", {"city": "Москва"})],
                       "plain"),
    "json-embedded-ru": (f"Сейчас проверю погоду: {WJ}", PARIS, "json"),
}


@pytest.mark.parametrize("text,expected,form", FORMATS.values(), ids=FORMATS.keys())
def test_real_formats_give_the_right_calls(text, expected, form):
    ex = extract(text)
    assert (ex.label, ex.form) == ("call", form), ex
    assert calls_of(text) == expected
    assert not ex.broken and not ex.examples


@pytest.mark.parametrize("text", [FORMATS[k][0] for k in ("harmony", "deepseek-v3", "kimi-k2", "glm-4.5",
                                                          "invoke-anthropic-style", "mistral-v11", "hermes-tool_call",
                                                          "pythonic-llama4-tokens", "phi4-functools", "granite")])
def test_call_markup_is_not_left_in_the_prose(text):
    assert extract(text).prose == ""


def test_prose_around_a_call_is_kept():
    ex = extract("Checking the weather for you.\n<function=get_weather>{\"city\": \"London\"}</function>\nOne moment.")
    assert ex.prose == "Checking the weather for you.\n\nOne moment."


# ----------------------------------------------------------------------------- several calls, several formats

@pytest.mark.parametrize("text,expected", [
    # calculator-en-001 (xml): an xml call followed by the same call as a JSON object.
    ("<tool_call>\n<function=calculator>\n<parameter=expression>\n348*27\n</parameter>\n</function>\n</tool_call>\n"
     '{"name": "calculator", "arguments": {"expression": "348*27"}}',
     [("calculator", {"expression": "348*27"})] * 2),
    (WJ + "\nTOOL get_time | timezone=Europe/Lisbon",
     [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "Europe/Lisbon"})]),
    ('TOOL get_time | timezone=UTC\n```json\n' + WJ + "\n```", [("get_time", {"timezone": "UTC"})] + PARIS),
    ('get_weather(city="Paris")\n' + WJ, PARIS * 2),
    ('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}\n<tool_call>\n{"name": "get_time", "arguments": '
     '{"timezone": "UTC"}}\n</tool_call>', TWO),
    ("Сначала погода:\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>\n"
     "Потом время:\nTOOL get_time | timezone=UTC", TWO),
])
def test_calls_in_two_formats_are_all_counted(text, expected):
    ex = extract(text)
    assert ex.label == "call" and calls_of(text) == expected
    assert "+" in ex.form and ex.form.split("+") == sorted(set(ex.form.split("+")))


def test_two_calls_in_two_formats_fail_a_call_case(corpus):
    case = corpus["calculator-en-001"]
    xml = "<tool_call>\n<function=calculator>\n<parameter=expression>\n348*27\n</parameter>\n</function>\n</tool_call>"
    v = grade(case, xml + '\n{"name": "calculator", "arguments": {"expression": "348*27"}}', "xml")
    assert not v.passed and v.n_calls == 2
    assert grade(case, xml, "xml").passed


# ----------------------------------------------------------------------------- nested spans are one call

@pytest.mark.parametrize("text", [
    f"<tool_call>{WJ}</tool_call>",
    f"<tool_call>\n```json\n{WJ}\n```\n</tool_call>",
    '<function=get_weather>{"city": "Paris"}</function>',
    '<tool_call><function=get_weather>{"city": "Paris"}</function></tool_call>',
    "<tool_call>get_weather\n{\"city\": \"Paris\"}\n</tool_call>",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>',
    '<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>',
    'Action: get_weather\nAction Input: {"city": "Paris"}',
    '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
    f"[TOOL_CALLS][{WJ}]",
    f'{{"tool_calls": [{{"type": "function", "function": {WJ}}}]}}',
    "```python\n[get_weather(city='Paris')]\n```",
])
def test_a_call_seen_by_several_extractors_is_one_call(text):
    assert calls_of(text) == PARIS


# ----------------------------------------------------------------------------- descriptions and listings are text

LISTING = json.dumps([{"name": "calculator", "description": "Evaluate an arithmetic expression."},
                      {"name": "get_weather", "description": "Get the current weather for a city."}], indent=2)


@pytest.mark.parametrize("text", [
    f"Here are the tools I can use:\n```json\n{LISTING}\n```",                              # negative-en-029
    f"Вот мои инструменты:\n```json\n{LISTING}\n```",
    LISTING,
    json.dumps({"name": "calculator", "description": "Evaluate an arithmetic expression exactly."}),
    json.dumps({"name": "get_weather", "description": "Get the weather.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}),
    json.dumps({"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}),
    json.dumps({"name": "get_weather", "parameters": {"city": {"type": "string", "description": "City name"}}}),
    json.dumps({"type": "function", "function": {"name": "get_weather", "description": "Weather.",
                                                 "parameters": {"type": "object", "properties": {}}}}),
    json.dumps({"tools": [{"name": "calculator"}, {"name": "get_weather"}]}),
    json.dumps({"tools": ["calculator", "get_weather", "web_search"]}),
    json.dumps([{"name": "calculator"}, {"name": "get_weather"}, {"name": "web_search"}]),
    'The available tools: {"functions": [{"name": "translate", "parameters": {"type": "object"}}]}',
])
def test_objects_that_describe_or_list_tools_are_text(text):
    ex = extract(text)
    assert (ex.label, ex.calls, ex.examples, ex.problem) == ("text", [], [], None), ex
    assert "calculator" in ex.prose or "get_weather" in ex.prose or "translate" in ex.prose


@pytest.mark.parametrize("text", [
    json.dumps([{"tool": "calculator", "purpose": "arithmetic"}, {"tool": "get_weather", "purpose": "weather"}]),
    json.dumps({"name": "get_weather", "description": "Current weather.", "parameters": "city (required), unit"}),
    json.dumps([{"name": "get_weather", "parameters": ["city", "unit"]}, {"name": "get_time", "args": ["timezone"]}]),
    json.dumps({"name": "translate", "description": "Translate text.", "arguments": {}}),
    "Мои инструменты:\n```json\n" + json.dumps([{"tool": "calculator", "назначение": "вычисления"}],
                                                ensure_ascii=False) + "\n```",
])
def test_other_listing_shapes_are_text(text):
    ex = extract(text)
    assert (ex.label, ex.calls, ex.problem) == ("text", [], None), ex


@pytest.mark.parametrize("text", [
    '{"name": "get_weather", "arguments": {"city": "<city>"}}',
    '{"name": "convert_currency", "arguments": {"amount": "number", "from_currency": "string", '
    '"to_currency": "string"}}',
    "TOOL get_weather | city=<city name>",
    "TOOL translate | text=... | target_language=<код языка>",
    'get_weather(city="<city>")',
    "<tool_call>\n<function=get_weather>\n<parameter=city>\n{city}\n</parameter>\n</function>\n</tool_call>",
    '[TOOL_CALLS]get_weather[ARGS]{"city": "[city name]"}',
])
def test_a_call_template_with_placeholder_values_describes_a_call_and_is_text(text):
    ex = extract(text)
    assert (ex.label, ex.calls, ex.problem) == ("text", [], None), ex


def test_a_placeholder_next_to_a_real_value_is_still_a_call():
    assert calls_of('{"name": "get_weather", "arguments": {"city": "Paris", "unit": "<unit>"}}') == [
        ("get_weather", {"city": "Paris", "unit": "<unit>"})]


def test_tool_listing_passes_negative_en_029(corpus):
    out = f"I have these tools (I won't run any):\n```json\n{LISTING}\n```"
    v = grade(corpus["negative-en-029"], out, "json")
    assert v.passed, v.reason


@pytest.mark.parametrize("cut", [LISTING.index('"description"') + 16, LISTING.index('"get_weather"'), -5])
def test_a_tool_listing_cut_off_by_max_tokens_is_text_not_malformed(corpus, cut):
    # Once a "description" (or schema, or "tools") key shows, the cut-off JSON is a listing, not a call.
    out = f"Here are my tools:\n```json\n{LISTING[:cut]}"
    ex = extract(out)
    assert (ex.label, ex.problem) == ("text", None), ex
    assert grade(corpus["negative-en-029"], out + " calculator, weather", "json").passed
    schema = '{"tools": [{"name": "calculator", "parameters": {"type": "object", "prop'
    assert extract(schema).label == "text"


def test_a_call_cut_off_by_max_tokens_is_still_malformed():
    assert extract('{"name": "get_weather", "arguments": {"city": "Par').label == "malformed"
    # Cut before anything shows which it is, a listing reads like a call cut off: a call attempt.
    assert extract('[{"name": "calculator", "descri').label == "malformed"


@pytest.mark.parametrize("text", [
    '{"name": "Alice", "age": 30}',                                    # data that has a name
    '{"action": "Final Answer", "action_input": "Paris is the capital of France."}',
    "Thought: I know this.\nAction: Final Answer\nAction Input: Paris",
    '[{"tool_name": "directly_answer", "parameters": {}}]',            # Cohere's "no tool"
    "See https://translate.example.com/?lang=en&to=de for details.",
])
def test_pseudo_calls_and_data_are_text(text):
    ex = extract(text)
    assert (ex.label, ex.calls) == ("text", []), ex


# ----------------------------------------------------------------------------- examples in code blocks

EXAMPLE_LEADS = [
    "The tool takes a city name. For example:",
    "Here is an example call:",
    "A call would look like this:",
    "You would call it like this:",
    "You’d call it with the city, e.g.",
    "Usage:",
    "Hypothetically, I'd use the tool like this:",
    "If you asked me, I would use convert_currency:",
    "To call it, you can write:",
    "Например, так:",
    "Пример вызова:",
    "Вызов выглядел бы так:",
    "Его можно вызвать так:",
    "К примеру:",
    "Я бы использовал этот инструмент:",
    "Something like:",
    "In JSON it looks like:",
    "Format:",
    "Формат вызова:",
]
EXAMPLE_BODIES = [
    f"```json\n{WJ}\n```",
    f"```\n{json.dumps(W, indent=2)}\n```",
    '```python\nget_weather(city="Paris")\n```',
    "```\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>\n```",
    "```\nTOOL get_weather | city=Paris\n```",
]


@pytest.mark.parametrize("lead", EXAMPLE_LEADS)
@pytest.mark.parametrize("body", EXAMPLE_BODIES, ids=["json", "json-indented", "pythonic", "xml", "plain"])
def test_a_call_in_a_code_block_presented_as_an_example_is_an_example(lead, body):
    text = f"{lead}\n{body}\nI have not called it."
    ex = extract(text)
    assert (ex.label, ex.calls) == ("text", []), ex
    assert examples_of(text) == PARIS
    assert "Paris" not in ex.prose and ex.prose.startswith(lead.split()[0]) and ex.prose.endswith("called it.")


def test_a_one_line_fenced_example_is_an_example_and_a_one_line_fenced_call_a_call():
    assert examples_of(f"For example: ```json {WJ}```") == PARIS
    assert calls_of(f"Sure: ```json {WJ}```") == PARIS


def test_an_inline_example_in_a_sentence_is_an_example():
    text = f"You would call it with `{WJ}`, but I won't run it now."
    ex = extract(text)
    assert (ex.label, ex.calls, examples_of(text)) == ("text", [], PARIS)


ORDINARY_LEADS = [
    "Sure, let me check the weather:",
    "I'd be happy to help! Let me check:",
    "Checking the current weather in Paris.",
    "I'll call the weather tool for you.",
    "Конечно, проверяю погоду:",
    "Сейчас узнаю:",
    "",
]


@pytest.mark.parametrize("lead", ORDINARY_LEADS)
@pytest.mark.parametrize("body", EXAMPLE_BODIES, ids=["json", "json-indented", "pythonic", "xml", "plain"])
def test_a_fenced_call_after_ordinary_prose_is_a_call(lead, body):
    ex = extract(f"{lead}\n{body}")
    assert (ex.label, [(c.name, c.arguments) for c in ex.calls], ex.examples) == ("call", PARIS, [])


def test_an_example_in_an_earlier_paragraph_does_not_make_a_later_call_an_example():
    text = f"For example, the tool takes a city.\n\nNow, checking Paris:\n```json\n{WJ}\n```"
    assert calls_of(text) == PARIS


def test_an_example_and_a_real_call_in_one_reply():
    text = f"A call looks like this:\n```json\n{WJ}\n```\n\nNow the real one:\n```json\n" \
           '{"name": "get_time", "arguments": {"timezone": "UTC"}}\n```'
    assert calls_of(text) == [("get_time", {"timezone": "UTC"})] and examples_of(text) == PARIS


def test_a_broken_call_in_an_example_is_not_malformed():
    ex = extract('For example:\n```json\n{"name": "get_weather", "arguments": {"city": \n```\nThat is the shape.')
    assert (ex.label, ex.broken) == ("text", [])


@pytest.mark.parametrize("case_id,output", [
    ("negative-en-026", "The get_weather tool returns the current weather for a city. For example:\n```json\n"
                        '{"name": "get_weather", "arguments": {"city": "Berlin", "unit": "celsius"}}\n```'),
    ("negative-en-027", "You pass the text and a target language code. A call would look like this:\n```\n"
                        "TOOL translate | text=Hello | target_language=de\n```\nThe source language is optional."),
    ("negative-en-027", "You would call it like `translate(text=\"Hello\", target_language=\"de\")` — the source "
                        "language is detected automatically."),
    ("negative-en-030", "Hypothetically, I'd use the currency converter like this:\n```python\n"
                        'convert_currency(amount=100, from_currency="USD", to_currency="EUR")\n```\n'
                        "I won't run it, as you asked."),
])
def test_example_calls_pass_the_describe_it_cases(corpus, case_id, output):
    for protocol in ("json", "xml", "plain"):
        v = grade(corpus[case_id], output, protocol)
        assert v.passed, (protocol, v.reason)


# ----------------------------------------------------------------------------- pythonic only when it stands alone

@pytest.mark.parametrize("text", [
    'You can use get_weather(city="Paris") to get the weather.',
    'Use `get_weather(city="Paris")` for that.',
    '`get_weather(city="Paris")`',
    "The signature is get_weather(city, unit='celsius').",
    "get_weather(city: str, unit: str = 'celsius') -> dict",
    "get_weather(city)",
    "The result:\nsqrt(144)\nis 12.",
    'print("hello")',
    "- get_weather(city=\"Paris\")",
    "Функция get_weather(city=\"Москва\") возвращает погоду.",
    "max(3, 5) = 5",
])
def test_pythonic_mentions_are_not_calls(text):
    ex = extract(text)
    assert (ex.label, ex.calls) == ("text", []), ex


@pytest.mark.parametrize("text,expected", [
    ('[get_weather(city="Paris")]', PARIS),
    ('book_flight(destination="Paris")', [("book_flight", {"destination": "Paris"})]),   # unknown tool, keywords
    ('brave_search.call(query="Paris weather")', [("brave_search", {"query": "Paris weather"})]),
    ('functions.get_weather(city="Paris")', [("functions.get_weather", {"city": "Paris"})]),
])
def test_pythonic_names(text, expected):
    assert calls_of(text) == expected


def test_pythonic_call_passes_a_call_case(corpus):
    case = next(c for c in corpus.values() if c.expect.kind == "call" and c.expect.call.name == "get_weather"
                and set(c.expect.call.arguments) == {"city"})
    city = case.expect.call.arguments["city"]
    for out in (f'[get_weather(city="{city}")]', f'<function=get_weather>{{"city": "{city}"}}</function>',
                json.dumps({"action": "get_weather", "action_input": {"city": city}}),
                json.dumps({"functionCall": {"name": "get_weather", "args": {"city": city}}})):
        v = grade(case, out, "json")
        assert v.passed, (out, v.reason)


# ----------------------------------------------------------------------------- malformed attempts in new formats

@pytest.mark.parametrize("text", [
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Par',
    "[TOOL_CALLS] oops",
    '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": <|tool_call_end|>',
    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris\n</tool_call>",
    '<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n',
    "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{city: Paris}<|call|>",
    "Action: get_weather\nAction Input: {\"city\": ",
    "{'name': 'get_weather', 'arguments': {'city': Paris}}",
    "<tool_call>\n</tool_call>",
    '{"name": "get_weather", "city": "Paris", "arguments": "city=Paris"}',
])
def test_broken_attempts_in_new_formats_are_malformed(text):
    ex = extract(text)
    assert (ex.label, ex.calls) == ("malformed", []), ex
    assert ex.problem and ex.broken


@pytest.mark.parametrize("text", [
    "I call tools with a `<tool_call>` block, but I won't call one now.",
    "Вызов оформляется блоком `[TOOL_CALLS]`, но сейчас я ничего не вызываю.",
    'Objects like `{"name": "..."}` describe a call.',
])
def test_call_markup_mentioned_in_inline_code_is_text(text):
    ex = extract(text)
    assert (ex.label, ex.problem) == ("text", None), ex


# ----------------------------------------------------------------------------- thinking forms

@pytest.mark.parametrize("text", [
    f"<think>I should call {WJ}</think>Paris is the capital.",
    f"<thinking>{WJ}</thinking>Paris is the capital.",
    f"<reasoning>{WJ}</reasoning>Paris is the capital.",
    f"<seed:think>{WJ}</seed:think>Paris is the capital.",
    f"[THINK]{WJ}[/THINK]Paris is the capital.",
    f"<|begin_of_thought|>{WJ}<|end_of_thought|><|begin_of_solution|>Paris is the capital.<|end_of_solution|>",
    f"<｜begin▁of▁thinking｜>{WJ}<｜end▁of▁thinking｜>Paris is the capital.",
    f"◁think▷{WJ}◁/think▷Paris is the capital.",
    f"<|START_THINKING|>{WJ}<|END_THINKING|><|START_RESPONSE|>Paris is the capital.<|END_RESPONSE|>",
    f"<|channel|>analysis<|message|>{WJ}<|end|><|start|>assistant<|channel|>final<|message|>Paris is the capital."
    "<|return|>",
    f"analysisMaybe {WJ}? No, answer directly.assistantfinalParis is the capital.",
    f"{WJ} hmm </think>Paris is the capital.",                        # lone end marker (opener in the prompt)
    f"{WJ} hmm ◁/think▷Paris is the capital.",
    f"We need to think. {WJ}assistantfinalParis is the capital.",
])
def test_thinking_forms_are_removed_with_the_calls_inside(text):
    ex = extract(text)
    assert (ex.label, ex.calls, ex.prose) == ("text", [], "Paris is the capital."), ex
    assert "get_weather" in ex.thinking


@pytest.mark.parametrize("opener", ["<think>", "<thinking>", "[THINK]", "◁think▷", "<|START_THINKING|>",
                                    "<|channel|>analysis<|message|>", "analysisThe user"])
def test_a_reply_cut_inside_its_thinking_has_no_answer(opener):
    body, thinking = strip_thinking(f"{opener} I will call {WJ} and then")
    assert body == "" and "get_weather" in thinking
    assert extract(f"{opener} I will call {WJ} and then").label == "text"


@pytest.mark.parametrize("text", ["analysis of the data shows growth.", "Analysis: Paris is the capital."])
def test_the_word_analysis_at_the_start_of_an_answer_is_not_thinking(text):
    assert extract(text).prose == text
