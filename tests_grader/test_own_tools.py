"""Tools as users have them (issue 32, item 2): OpenAI-format definitions read verbatim, names kept as
written, every JSON-schema type compared by rule, and every right answer read back in every protocol."""
from __future__ import annotations

import json
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tooluse1.corpus import Case
from tooluse1.grade import compare_arguments, grade
from tooluse1.parse import extract
from tooluse1.prompts import format_call, render
from tooluse1.suite import SuiteError, load_suite
from tooluse1.tools import TOOL_NAMES, TOOLS, Call
from tooluse1.toolspec import Tool, Toolbox, api_name, derived_ask_terms

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "openai_tools"
FLIGHTS = "Flights.searchFlights"


@pytest.fixture(autouse=True)
def _registry_untouched():
    yield
    assert tuple(TOOLS) == TOOL_NAMES          # a suite's tools live in its own toolbox


def _readme_block(lang: str) -> str:
    """The first ```lang block of README's "Your own suite" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Your own suite\n"):]
    section = section[:section.index("\n## ", 1)]
    match = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert match, f"no {lang} block in README's Your own suite"
    return match.group(1)


# ----------------------------------------------------------------------------- the README example

def test_readme_example_is_the_example_suite_and_loads() -> None:
    """README's tool list is exactly examples/openai_tools/tools.json, and that suite loads as it is: names
    as written, types read, its own right answers passing in every protocol (load_suite grades them)."""
    readme_tools = json.loads(_readme_block("json"))
    assert readme_tools == json.loads((EXAMPLE / "tools.json").read_text(encoding="utf-8"))
    assert all(t["type"] == "function" and set(t) == {"type", "function"} for t in readme_tools)
    suite = load_suite(EXAMPLE)
    assert suite.tool_names == ("create_calendar_event", FLIGHTS)
    case_text = _readme_block("yaml")
    assert case_text in (EXAMPLE / "cases/en/cases.yaml").read_text(encoding="utf-8")
    assert suite.manifest["suite"]["api_names"] == {"Flights_x2E_searchFlights": FLIGHTS}
    flights = suite.toolbox[FLIGHTS]
    assert [(p.name, p.type, p.match) for p in flights.params] == [
        ("origin", "string", "text"), ("destination", "string", "text"), ("date", "string", "text"),
        ("cabin", "string", "text"), ("passengers", "object", "object")]
    # The prompt shows the schema as the user wrote it.
    assert flights.json_schema() == readme_tools[1]["function"]


# ----------------------------------------------------------------------------- the declaration forms

_FUNCTION = {"name": "Movies_1_FindMovies", "description": "Find movies playing in a city.",
             "parameters": {"type": "dict", "properties": {
                 "location": {"type": "string", "description": "City, e.g. Berkeley, CA."},
                 "rating": {"type": "float", "description": "Minimum rating.", "default": "dontcare"},
                 "genres": {"type": "tuple", "items": {"type": "string"}, "description": "Genres."},
                 "extra": {"type": "any", "description": "Anything else."}},
                 "required": ["location"]}}


def _suite(tmp_path: Path, tools_text: str, file: str = "tools.json", cases: str | None = None) -> Path:
    root = tmp_path / "s"
    (root / "cases").mkdir(parents=True)
    (root / file).write_text(tools_text, encoding="utf-8")
    (root / "cases" / "c.yaml").write_text(cases or (
        "- id: Movies.1\n  lang: en\n  category: Movies_1_FindMovies\n  difficulty: easy\n  tools: all\n"
        "  messages: [{role: user, content: 'Movies in Berkeley with rating 4 or more?'}]\n"
        "  expect: {call: {name: Movies_1_FindMovies, arguments: {location: 'Berkeley, CA', rating: 4.0}}}\n"),
        encoding="utf-8")
    return root


@pytest.mark.parametrize("form,tools_text,file", [
    ("wrapped, JSON", json.dumps([{"type": "function", "function": _FUNCTION}]), "tools.json"),
    ("bare function, JSON", json.dumps([_FUNCTION]), "tools.json"),
    ("request body", json.dumps({"model": "gpt-4o", "messages": [], "tools": [{"type": "function",
                                                                              "function": _FUNCTION}]}),
     "tools.json"),
    ("wrapped, YAML", "- type: function\n  function: " + json.dumps(_FUNCTION) + "\n", "tools.yaml"),
])
def test_every_declaration_form_reads_the_same_tool(tmp_path: Path, form: str, tools_text: str, file: str) -> None:
    suite = load_suite(_suite(tmp_path, tools_text, file))
    (tool,) = suite.tools
    assert tool.name == "Movies_1_FindMovies"
    assert [(p.name, p.type) for p in tool.params] == [("location", "string"), ("rating", "number"),
                                                       ("genres", "array"), ("extra", "any")]
    assert tool.param_index["rating"].default is None      # "dontcare" is no number: shown, not graded with
    assert tool.json_schema()["parameters"]["properties"]["rating"]["default"] == "dontcare"


def test_every_problem_of_a_declaration_is_at_its_line(tmp_path: Path) -> None:
    tools = ('[{"type": "function", "function": {"name": "a.b", "description": "A.",\n'
             ' "parameters": {"type": "object", "properties": {\n'
             '   "x": {"type": "strin", "description": "X."},\n'
             '   "y": {"type": "integer", "descripton": "Y."}}}}},\n'
             ' {"name": "9lives", "description": "B."}]\n')
    with pytest.raises(SuiteError) as err:
        load_suite(_suite(tmp_path, tools))
    problems = err.value.problems
    assert [int(p.split(":")[1]) for p in problems] == [3, 4, 5]
    assert "a.b.x: unknown type 'strin'" in problems[0] and "a.b.y: unknown field(s) ['descripton']" in problems[1]
    assert "'9lives': a tool name is letters, digits" in problems[2]


# ----------------------------------------------------------------------------- names

def test_names_resolve_by_one_rule() -> None:
    def tool(name: str) -> Tool:
        return Tool.from_dict({"name": name, "description": "D.", "parameters": {"type": "object", "properties": {}}})
    box = Toolbox([tool("convert_currency"), tool(FLIGHTS), tool("Save-Note"), tool("save_note2"),
                   tool("get_time"), tool("getTime")])
    assert box.canonical_name("convertCurrency") == "convert_currency"
    assert box.canonical_name("Convert-Currency") == "convert_currency"
    assert box.canonical_name("convert currency") == "convert_currency"
    assert box.canonical_name("functions.Flights.searchFlights") == FLIGHTS
    assert box.canonical_name("flights.searchflights") == FLIGHTS
    assert box.canonical_name("Flights_x2E_searchFlights") == FLIGHTS          # the native API encoding
    assert box.canonical_name("save_note") == "Save-Note"
    assert box.canonical_name("SaveNote2") == "save_note2"
    # get_time and getTime fold alike: the fold names neither, only the exact names do.
    assert box.canonical_name("GET_TIME") not in box
    assert box.canonical_name("getTime") == "getTime" and box.canonical_name("get_time") == "get_time"
    assert box.canonical_name("Flights_searchFlights") not in box             # a dot is part of the name


@pytest.mark.parametrize("name,encoded", [
    ("get_weather", "get_weather"), ("Movies_1_FindMovies", "Movies_1_FindMovies"),
    (FLIGHTS, "Flights_x2E_searchFlights"), ("api.v2:list", "api_x2E_v2_x3A_list"),
    ("погода", "_xD0__xBF__xD0__xBE__xD0__xB3__xD0__xBE__xD0__xB4__xD0__xB0_"[:55]),
])
def test_api_names_are_what_an_api_accepts(name: str, encoded: str) -> None:
    got = api_name(name)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", got)
    assert got.startswith(encoded) and (got == name) == (name == encoded)


def test_native_declares_encoded_names_and_grading_maps_them_back() -> None:
    suite = load_suite(EXAMPLE)
    case = next(c for c in suite.cases if c.id == "flights.business")
    prompt = render(case, "native")
    assert [t["function"]["name"] for t in prompt.tools] == ["create_calendar_event", "Flights_x2E_searchFlights"]
    args = case.expect.right_call(case.toolbox).arguments
    reply = json.dumps({"name": "Flights_x2E_searchFlights", "arguments": args})
    assert grade(case, reply, "native").passed
    assert not grade(case, json.dumps({"name": "Flights_searchFlights", "arguments": args}), "native").passed
    # The text protocols show and read the name as written.
    assert FLIGHTS in render(case, "xml").messages[0]["content"]
    assert grade(case, format_call(Call(FLIGHTS, args), "plain"), "plain").passed


def test_derived_ask_terms() -> None:
    assert derived_ask_terms("departureDate", "The date of departure, YYYY-MM-DD.") == (
        "departure*", "date*", "yyyy*")
    assert derived_ask_terms("party_size", "How many people the table is for.") == (
        "party*", "size*", "many*", "people*", "table*")


# ----------------------------------------------------------------------------- every type, by rule

_TYPES_TOOL = {"type": "function", "function": {"name": "t", "description": "Every type.", "parameters": {
    "type": "object", "required": ["s"], "properties": {
        "s": {"type": "string", "description": "S."},
        "e": {"type": "string", "enum": ["Economy", "Business"], "description": "E."},
        "i": {"type": "integer", "description": "I."},
        "ie": {"type": "integer", "enum": ["1", "2"], "description": "An integer enum written as strings."},
        "n": {"type": "number", "description": "N."},
        "b": {"type": "boolean", "description": "B.", "default": False},
        "a": {"type": "array", "items": {"type": "integer"}, "description": "Ordered."},
        "u": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "description": "A set."},
        "o": {"type": "object", "description": "O.", "properties": {
            "k": {"type": "string"}, "d": {"type": "integer", "default": 0},
            "inner": {"type": "object", "properties": {"on": {"type": "boolean"}}}}},
        "z": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "Nullable."},
        "free": {"description": "No type at all."}}}}}


@pytest.fixture
def types_tool() -> Toolbox:
    """A toolbox of the one tool "t" (passed to compare_arguments as a case's toolbox is)."""
    return Toolbox([Tool.from_dict(_TYPES_TOOL)])


# (parameter, expected, what a model wrote, passes)
VALUES: list[tuple[str, Any, Any, bool]] = [
    ("s", "Paris", "paris", True), ("s", "Paris", " Paris. ", True), ("s", "Paris", ["Paris"], False),
    ("e", "Business", "business", True), ("e", "Business", "BUSINESS", True), ("e", "Business", "Economy", False),
    ("i", 3, "3", True), ("i", 3, 3.0, True), ("i", 3, True, False), ("i", 3, 4, False),
    ("ie", 1, "1", True), ("ie", 1, 2, False),
    ("n", 2.5, "2.5", True), ("n", 2.5, 2.50000001, True), ("n", 2.5, 2.6, False),
    ("b", True, True, True), ("b", True, "true", True), ("b", True, "True", True), ("b", False, "false", True),
    ("b", True, 1, False), ("b", True, "yes", False), ("b", True, False, False),
    ("a", [1, 2, 3], [1, 2, 3], True), ("a", [1, 2, 3], ["1", "2", "3"], True), ("a", [1, 2, 3], "[1, 2, 3]", True),
    ("a", [1, 2, 3], [3, 2, 1], False), ("a", [1, 2, 3], [1, 2], False), ("a", [1, 2, 3], "1, 2, 3", False),
    ("u", ["x", "y"], ["Y", "x"], True), ("u", ["x", "y"], ["x", "x"], False), ("u", ["x", "y"], ["x"], False),
    ("o", {"k": "v", "d": 0}, {"k": "V"}, True), ("o", {"k": "v"}, {"k": "v", "extra": 1}, True),
    ("o", {"k": "v"}, '{"k": "v"}', True), ("o", {"k": "v"}, {"k": "w"}, False), ("o", {"k": "v"}, {}, False),
    ("o", {"inner": {"on": True}}, {"inner": {"on": "true"}}, True),
    ("o", {"inner": {"on": True}}, {"inner": {"on": False}}, False),
    ("z", None, None, True), ("z", None, 0, False), ("z", 5, "5", True), ("z", 5, None, False),
    ("free", {"x": [1, "a"]}, {"x": [1.0, "A"]}, True), ("free", {"x": [1, "a"]}, {"x": ["a", 1]}, False),
]


@pytest.mark.parametrize("param,expected,actual,passes", VALUES)
def test_every_json_schema_type_is_compared_by_rule(types_tool, param, expected, actual, passes) -> None:
    ok, mismatches, _ = compare_arguments("t", {"s": "x", param: expected}, {"s": "x", param: actual},
                                          tools=types_tool)
    assert ok == passes, mismatches


def test_left_out_passes_only_as_the_default(types_tool) -> None:
    assert compare_arguments("t", {"s": "x", "b": False}, {"s": "x"}, tools=types_tool)[0]     # b defaults to false
    assert not compare_arguments("t", {"s": "x", "b": True}, {"s": "x"}, tools=types_tool)[0]
    assert not compare_arguments("t", {"s": "x", "z": None}, {"s": "x"}, tools=types_tool)[0]  # null must be said


_DEFAULTS_TOOL = {"type": "function", "function": {
    "name": "d", "description": "Declared defaults (the two found by BFCL's checker side by side).",
    "parameters": {"type": "object", "required": ["place"], "properties": {
        "place": {"type": "string", "default": "dontcare", "description": "Required, with a default."},
        "params": {"type": "object", "default": {}, "description": "Optional, default empty."}}}}}


def test_a_default_stands_only_for_itself_and_only_for_an_optional_parameter() -> None:
    """A required parameter must be given though its schema declares a default; an optional object whose
    default is {} left out says {} and nothing else (the object comparison alone lets {} match any object)."""
    box = Toolbox([Tool.from_dict(_DEFAULTS_TOOL)])
    ok, mismatches, _ = compare_arguments("d", {"place": "dontcare"}, {}, tools=box)
    assert not ok and mismatches == ["missing place (expected 'dontcare')"]
    assert compare_arguments("d", {"place": "x", "params": {}}, {"place": "x"}, tools=box)[0]
    ok, mismatches, _ = compare_arguments("d", {"place": "x", "params": {"q": "1"}}, {"place": "x"}, tools=box)
    assert not ok and "missing params" in mismatches[0]
    assert compare_arguments("d", {"place": "x", "params": {"q": "1"}}, {"place": "x", "params": {"q": 1}},
                             tools=box)[0]


# ----------------------------------------------------------------------------- round trips

def _example_cases() -> list[Case]:
    return [c for c in load_suite(EXAMPLE).cases if c.expect.kind == "call"]


@pytest.mark.parametrize("protocol", ["json", "xml", "plain", "native"])
def test_every_right_answer_round_trips(protocol: str) -> None:
    for case in _example_cases():
        call = case.expect.right_call(case.toolbox)
        verdict = grade(case, format_call(call, protocol), protocol)
        assert verdict.passed, (case.id, protocol, verdict.reason)


# What strong models write, per protocol: arrays, objects, booleans and null as text (case id, protocol, reply,
# passes).
FLIGHTS_REPLIES = [
    ("xml", "<tool_call>\n<function=Flights.searchFlights>\n<parameter=origin>\nJFK\n</parameter>\n"
            "<parameter=destination>\nLHR\n</parameter>\n<parameter=date>\n2025-04-02\n</parameter>\n"
            "<parameter=cabin>\nbusiness\n</parameter>\n<parameter=passengers>\n{\"adults\": 2, \"children\": 1}\n"
            "</parameter>\n</function>\n</tool_call>", True),
    ("plain", 'TOOL Flights.searchFlights | origin=JFK | destination=LHR | date=2025-04-02 | cabin=Business | '
              'passengers={"adults": 2, "children": 1}', True),
    ("json", '{"name": "Flights.searchFlights", "arguments": {"origin": "JFK", "destination": "LHR", '
             '"date": "2025-04-02", "cabin": "business", "passengers": "{\\"adults\\": 2, \\"children\\": 1}"}}', True),
    ("json", '{"name": "flights.searchFlights", "arguments": {"origin": "JFK", "destination": "LHR", '
             '"date": "2025-04-02", "cabin": "business", "passengers": {"adults": 2, "children": 1}}}', True),
    ("json", '{"name": "Flights.searchFlights", "arguments": {"origin": "JFK", "destination": "LHR", '
             '"date": "2025-04-02", "cabin": "business", "passengers": {"adults": 2}}}', False),
    ("xml", "<tool_call>\n<function=Flights.searchFlights>\n<parameter=origin>\nJFK\n</parameter>\n"
            "<parameter=destination>\nLHR\n</parameter>\n<parameter=date>\n2025-04-02\n</parameter>\n"
            "<parameter=cabin>\nbusiness\n</parameter>\n<parameter=passengers>\nadults=2, children=1\n"
            "</parameter>\n</function>\n</tool_call>", False),
]


CALENDAR_REPLIES = [
    ("plain", 'TOOL create_calendar_event | title=Offsite | start=2025-03-20 | all_day=true | reminder_minutes=30',
     True),
    ("plain", 'TOOL create_calendar_event | title=Offsite | start=2025-03-20 | all_day=false | reminder_minutes=30',
     False),
    ("xml", "<tool_call>\n<function=create_calendar_event>\n<parameter=title>\nOffsite\n</parameter>\n"
            "<parameter=start>\n2025-03-20\n</parameter>\n<parameter=all_day>\nTrue\n</parameter>\n"
            "<parameter=reminder_minutes>\n30\n</parameter>\n</function>\n</tool_call>", True),
    ("json", '{"name": "createCalendarEvent", "arguments": {"title": "Offsite", "start": "2025-03-20", '
             '"all_day": "true", "reminder_minutes": "30"}}', True),
]


NULL_REPLIES = [
    ("plain", "TOOL create_calendar_event | title=Standup | start=2025-03-15T09:00 | reminder_minutes=null", True),
    ("xml", "<tool_call>\n<function=create_calendar_event>\n<parameter=title>\nStandup\n</parameter>\n"
            "<parameter=start>\n2025-03-15T09:00\n</parameter>\n<parameter=reminder_minutes>\nnull\n</parameter>\n"
            "</function>\n</tool_call>", True),
    ("json", '{"name": "create_calendar_event", "arguments": {"title": "Standup", "start": "2025-03-15T09:00"}}',
     False),
    ("json", '{"name": "create_calendar_event", "arguments": {"title": "Standup", "start": "2025-03-15T09:00", '
             '"reminder_minutes": 0}}', False),
]
MODEL_REPLIES = [(case_id, *reply) for case_id, replies in (("flights.business", FLIGHTS_REPLIES),
                                                            ("calendar.all-day", CALENDAR_REPLIES),
                                                            ("calendar.no-reminder", NULL_REPLIES))
                 for reply in replies]


@pytest.mark.parametrize("case_id,protocol,reply,passes", MODEL_REPLIES)
def test_models_replies(case_id: str, protocol: str, reply: str, passes: bool) -> None:
    case = next(c for c in load_suite(EXAMPLE).cases if c.id == case_id)
    verdict = grade(case, reply, protocol)
    assert verdict.passed == passes, verdict.reason


def test_attendees_in_any_order_pass_as_a_set() -> None:
    case = next(c for c in load_suite(EXAMPLE).cases if c.id == "calendar.invite")
    reply = ('{"name": "create_calendar_event", "arguments": {"title": "Design review", "start": "2025-03-14T15:00",'
             ' "attendees": ["raj@example.com", "ana@example.com"]}}')
    assert grade(case, reply, "json").passed
    assert not grade(case, reply.replace('"raj@example.com", ', ""), "json").passed


def test_a_copy_of_the_example_with_json_renamed_to_yaml_loads(tmp_path: Path) -> None:
    root = tmp_path / "y"
    shutil.copytree(EXAMPLE, root)
    (root / "tools.json").rename(root / "tools.yaml")
    assert load_suite(root).tool_names == ("create_calendar_event", FLIGHTS)


# ----------------------------------------------------------------------------- effect (item 5)

def test_effect_is_declared_once_and_read_by_spin_scoring() -> None:
    from tooluse1.spin.scoring import SIDE_EFFECT_TOOLS, acts
    assert SIDE_EFFECT_TOOLS == {"save_note", "set_timer"}          # from the built-in declarations
    assert acts("save_note") and not acts("web_search") and not acts("no_such_tool")
    book = Tool.from_dict({"name": "book_room", "description": "Book a room.", "effect": "acts",
                           "parameters": {"type": "object", "properties": {}}})
    TOOLS.register(book)
    try:
        assert acts("book_room")
    finally:
        del TOOLS["book_room"]
    with pytest.raises(ValueError, match="effect must be one of looks_up, acts, not 'writes'"):
        Tool.from_dict({"name": "x", "description": "X.", "effect": "writes"})


@pytest.mark.parametrize("annotations,effect", [
    ({}, "looks_up"), ({"readOnlyHint": True}, "looks_up"), ({"readOnlyHint": False}, "acts"),
    ({"destructiveHint": True}, "acts"), ({"readOnlyHint": True, "destructiveHint": False}, "looks_up"),
])
def test_an_mcp_tool_declares_its_effect_by_its_hints(annotations: dict, effect: str) -> None:
    tool = Tool.from_dict({"name": "files.delete", "description": "Delete a file.", "annotations": annotations,
                           "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                                           "required": ["path"]}})
    assert tool.effect == effect and tool.required == ("path",)


# ----------------------------------------------------------------------------- per-case tools, optional fields

_INLINE_CASES = """
- id: weather.v1
  lang: en
  category: get_weather
  tools:
    - {type: function, function: {name: get_weather, description: Weather now.,
       parameters: {type: object, properties: {city: {type: string, description: City.}}, required: [city]}}}
  messages: [{role: user, content: "Weather in Oslo?"}]
  expect: {call: {name: get_weather, arguments: {city: Oslo}}}
- id: weather.v2
  lang: en
  category: get_weather
  tools:
    - {name: get_weather, description: Weather at a place.,
       parameters: {type: dict, properties: {location: {type: string, description: Place.},
                                             days: {type: integer, description: Days ahead., default: 0}},
                    required: [location]}}
    - Movies_1_FindMovies
  messages: [{role: user, content: "Weather in Oslo tomorrow?"}]
  expect: {call: {name: get_weather, arguments: {location: Oslo, days: 1}}}
- id: weather.ask
  lang: en
  category: clarification
  tools:
    - {name: get_weather, description: Weather at a place.,
       parameters: {type: object, properties: {location: {type: string, description: Place.}},
                    required: [location]}}
  messages: [{role: user, content: "What's the weather like?"}]
  expect: {clarify: true, missing: [get_weather.location]}
- id: smalltalk
  lang: en
  category: negative
  tools: all
  messages: [{role: user, content: "Thanks, that's all!"}]
  expect: {no_call: true}
- id: broken
  lang: en
  category: Movies_1_FindMovies
  tools: all
  messages: [{role: user, content: "Movies in Berkeley?"}]
  expect: {call: {name: Movies_1_FindMovies, arguments: {location: "Berkeley, CA", extra: [1, 2]}}}
"""


def test_cases_may_define_one_name_two_ways_and_optional_fields_have_defaults(tmp_path: Path) -> None:
    root = _suite(tmp_path, json.dumps([_FUNCTION]), cases=_INLINE_CASES)
    suite = load_suite(root)
    by_id = {c.id: c for c in suite.cases}
    assert set(by_id) == {"weather.v1", "weather.v2", "weather.ask", "smalltalk", "broken"} and not suite.skipped
    v1, v2 = by_id["weather.v1"], by_id["weather.v2"]
    assert v2.tools == ("get_weather", "Movies_1_FindMovies") and v1.difficulty == "medium"
    assert by_id["smalltalk"].kind == "chit_chat"
    # Each case is prompted and graded with its own get_weather.
    assert '"city"' in render(v1, "json").messages[0]["content"]
    assert '"location"' in render(v2, "json").messages[0]["content"] and "Movies_1_FindMovies" in \
        render(v2, "json").messages[0]["content"]
    assert grade(v1, '{"name": "get_weather", "arguments": {"city": "oslo"}}', "json").passed
    assert not grade(v2, '{"name": "get_weather", "arguments": {"city": "Oslo", "days": 1}}', "json").passed
    assert grade(v2, "TOOL get_weather | location=Oslo | days=1", "plain").passed
    assert grade(by_id["weather.ask"], "Sure, which location do you want the weather for?", "json").passed
    assert "get_weather" not in suite.toolbox and "get_weather" in TOOLS   # the suite's own, the registry kept
    # A round trip of the digest's form keeps the definitions (the suite's toolbox gives the tools it names).
    again = Case.from_dict(v2.as_dict(), tools=suite.toolbox)
    assert again == v2 and dict(again.toolbox) == dict(v2.toolbox)
    assert again.toolbox["Movies_1_FindMovies"] is suite.toolbox["Movies_1_FindMovies"]
    assert by_id["smalltalk"].toolbox is suite.toolbox              # no tools of its own: the suite's


def test_a_case_whose_right_answer_fails_is_skipped_listed_and_counted(tmp_path: Path) -> None:
    bad = _INLINE_CASES.replace("arguments: {location: \"Berkeley, CA\", extra: [1, 2]}",
                                "arguments: {location: \"Berkeley, CA\", rating: 1.0e+400}")
    suite = load_suite(_suite(tmp_path, json.dumps([_FUNCTION]), cases=bad))
    assert len(suite.cases) == 4 and suite.manifest["n_cases"] == 4
    assert suite.manifest["suite"]["skipped"] == ["broken"]
    (problem,) = suite.skipped
    assert f"s/cases/c.yaml:{_INLINE_CASES[:_INLINE_CASES.index('- id: broken')].count(chr(10)) + 1}: " in problem
    assert "the case's own expected call fails its grader" in problem


# ----------------------------------------------------------------------------- each case's own toolset

def _booking_case(case_id: str, param: str, expect: dict) -> Case:
    """A case that declares its own `book` tool, whose one required parameter is `param`."""
    book = {"type": "function", "function": {"name": "book", "description": "Book a stay.", "parameters": {
        "type": "object", "properties": {param: {"type": "string", "description": f"The {param}."}},
        "required": [param]}}}
    return Case.from_dict({"id": case_id, "lang": "en", "category": "book", "difficulty": "easy", "tools": [book],
                           "messages": [{"role": "user", "content": "Book me something in Oslo."}],
                           "expect": expect})


# Two cases define `book` two ways (a city; a hotel). Each output passes under exactly one definition: a
# positional call maps to the definition's parameter, named arguments must be its parameter, a question must
# ask for it. Graded with the other case's tools, every verdict below would flip (or the look-up raise).
_BY_CITY = _booking_case("by_city", "city", {"call": {"name": "book", "arguments": {"city": "Oslo"}}})
_BY_HOTEL = _booking_case("by_hotel", "hotel", {"call": {"name": "book", "arguments": {"hotel": "Oslo"}}})
_ASK_CITY = _booking_case("ask_city", "city", {"clarify": True, "missing": ["book.city"]})
_ASK_HOTEL = _booking_case("ask_hotel", "hotel", {"clarify": True, "missing": ["book.hotel"]})
_CONFLICTING: list[tuple[Case, str, str, bool]] = [
    (_BY_CITY, 'book("Oslo")', "json", True), (_BY_CITY, "TOOL book | city=Oslo", "plain", True),
    (_BY_CITY, "TOOL book | hotel=Oslo", "plain", False),
    (_BY_HOTEL, 'book("Oslo")', "json", True), (_BY_HOTEL, "TOOL book | hotel=Oslo", "plain", True),
    (_BY_HOTEL, "TOOL book | city=Oslo", "plain", False),
    (_ASK_CITY, "Which city would you like to stay in?", "json", True),
    (_ASK_CITY, "Which hotel would you like?", "json", False),
    (_ASK_HOTEL, "Which hotel would you like?", "json", True),
    (_ASK_HOTEL, "Which city would you like to stay in?", "json", False),
]


def test_each_case_is_read_with_its_own_toolbox() -> None:
    """The toolbox travels with the case (Case.toolbox), not with a global state: the registry is not
    touched, the same text reads as each definition's call, and each prompt declares its own parameter."""
    city, hotel = _BY_CITY.toolbox, _BY_HOTEL.toolbox
    assert list(city) == list(hotel) == ["book"] and city["book"] is not hotel["book"]
    assert "book" not in TOOLS and _BY_CITY.toolbox is city                   # resolved once, kept
    assert extract('book("Oslo")', tools=city).calls == [Call("book", {"city": "Oslo"})]
    assert extract('book("Oslo")', tools=hotel).calls == [Call("book", {"hotel": "Oslo"})]
    assert extract('book("Oslo")').calls == []                  # the registry has no `book`: code, not a call
    assert '"city"' in render(_BY_CITY, "json").messages[0]["content"]
    assert '"hotel"' in render(_BY_HOTEL, "json").messages[0]["content"]
    assert not hasattr(Toolbox, "scoped")                        # one way: the toolbox is an argument


def test_a_case_gets_its_toolbox_when_built_and_keeps_it_through_copies(tmp_path: Path) -> None:
    """Case.toolbox is a field set at construction, not read from global state later: a built-in case's is
    the registry itself (after pickling too), a suite case's is its suite's or its own, and pickling,
    copying and dataclasses.replace keep it, so a copy grades as the original does."""
    import copy
    import dataclasses
    import pickle
    from tooluse1.corpus import load_corpus
    builtin = load_corpus()[0][0]
    assert builtin.toolbox is TOOLS and pickle.loads(pickle.dumps(builtin)).toolbox is TOOLS
    suite = load_suite(_suite(tmp_path, json.dumps([_FUNCTION]), cases=_INLINE_CASES))
    by_id = {c.id: c for c in suite.cases}
    shared, own = by_id["smalltalk"], by_id["weather.v2"]
    assert shared.toolbox is suite.toolbox and list(own.toolbox) == ["get_weather", "Movies_1_FindMovies"]
    assert own.toolbox["Movies_1_FindMovies"] is suite.toolbox["Movies_1_FindMovies"]   # from the suite's
    reply = "TOOL get_weather | location=Oslo | days=1"
    for twin in (pickle.loads(pickle.dumps(own)), copy.copy(own), copy.deepcopy(own),
                 dataclasses.replace(own, id="weather.v2.copy")):
        assert twin.toolbox is not TOOLS and list(twin.toolbox) == list(own.toolbox)
        assert grade(twin, reply, "plain").passed and not grade(twin, reply.replace("location", "city"), "plain").passed
    # Built by hand (a test's case), a case with definitions of its own reads them over the registry.
    assert list(_BY_CITY.toolbox) == ["book"] and "book" not in TOOLS
    # A dict of a suite's case reads as a case of that suite only with the suite's toolbox.
    with pytest.raises(KeyError):
        Case.from_dict(shared.as_dict())
    assert Case.from_dict(shared.as_dict(), tools=suite.toolbox).toolbox is suite.toolbox


def test_conflicting_definitions_grade_interleaved_and_concurrently() -> None:
    """Cases defining one tool name two ways, graded interleaved in one thread and at once from two
    threads: each verdict is its own definition's (a toolbox shared between cases or threads would flip some)."""
    for _ in range(3):
        for case, output, protocol, passes in _CONFLICTING:
            assert grade(case, output, protocol).passed is passes, (case.id, output)

    def grade_all(items: list[tuple[Case, str, str, bool]]) -> list[tuple[str, str]]:
        return [(case.id, output) for _ in range(40) for case, output, protocol, passes in items
                if grade(case, output, protocol).passed is not passes]

    city = [item for item in _CONFLICTING if item[0] in (_BY_CITY, _ASK_CITY)]
    hotel = [item for item in _CONFLICTING if item[0] in (_BY_HOTEL, _ASK_HOTEL)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        wrong = [w for f in [pool.submit(grade_all, city), pool.submit(grade_all, hotel)] for w in f.result()]
    assert wrong == []
