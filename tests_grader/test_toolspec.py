"""A tool is declared once (tooluse1.toolspec): every offered tool is complete, an incomplete or broken
declaration is refused with a clear message, plain data builds the same tool, and each comparison kind
(tooluse1.matching) agrees with itself on every parameter's example."""
from __future__ import annotations

import dataclasses

import pytest

from tooluse1.aliases import CITIES
from tooluse1.answers import ASK_TERMS, AnswerRequirement
from tooluse1.matching import COMPARISONS, comparison
from tooluse1.toolbox import BUILTIN_TOOLS, CONVERT_CURRENCY
from tooluse1.tools import TOOLS, Call
from tooluse1.toolspec import Param, Tool, Toolbox, derived_interrogatives
from tooluse1.types import LANGS
from tooluse1.world import World

PARAMS = [(t, p) for t in TOOLS.values() for p in t.params]


def _id(x):
    return x.name if isinstance(x, (Tool, Param)) else None


# ----------------------------------------------------------------------------- every offered tool is complete

@pytest.mark.parametrize("tool", list(TOOLS.values()), ids=_id)
def test_every_offered_tool_is_complete(tool: Tool) -> None:
    assert tool.problems() == []
    assert tool.simulate is not None, f"{tool.name} has no simulation"
    for p in tool.params:
        assert p.match in COMPARISONS and p.type in p.comparison.types
        assert p.comparison.check_expected(p, p.example) is None, (p.name, p.example)
        if p.required:
            assert all(p.ask.get(lang) for lang in LANGS), f"{tool.name}.{p.name} lacks terms in some of {LANGS}"
            assert ASK_TERMS[f"{tool.name}.{p.name}"] == p.ask_terms
    # The example call runs in the World: the simulation accepts what the declaration calls valid.
    example = {p.name: p.example for p in tool.params}
    result = World(sleep=False).execute(Call(tool.name, example))
    assert result.ok, result.error


def test_a_clarify_case_may_ask_about_every_required_parameter() -> None:
    keys = [f"{t.name}.{r}" for t in TOOLS.values() for r in t.required]
    assert AnswerRequirement(ask_about=keys).ask_about == tuple(keys)


# ----------------------------------------------------------------------------- refusals, with clear messages

def _tool(*params: Param, **fields) -> Tool:
    return Tool("get_forecast", "Forecast for a city.", params, **fields)


def _city(**fields) -> Param:
    base = dict(required=True, match="alias", aliases=CITIES, example="Berlin",
                ask={"en": ("city",), "ru": ("город*",)})
    return Param("city", "string", "City name.", **{**base, **fields})


def test_a_complete_declaration_is_accepted_and_offered_under_its_other_names() -> None:
    box = Toolbox(BUILTIN_TOOLS)
    box.register(_tool(_city(), name_aliases=("forecast", "Weather-Forecast")))
    assert box.canonical_name("functions.weather_forecast") == "get_forecast"
    assert box.canonical_name("forecast") == "get_forecast" and box.canonical_name("calc") == "calculator"
    assert "get_forecast" not in TOOLS   # a Toolbox of its own leaves the offered tools alone


@pytest.mark.parametrize("param,message", [
    # Any language's terms (a suite's `ko`), keyed by its lower-case subtag, not a whole tag.
    (_city(ask={"en": ("city",), "ru": ("город",), "de-DE": ("Stadt",)}),
     "clarification terms under ['de-DE']: each key is a lower-case language subtag"),
    (_city(example=None), "get_forecast.city: needs an example value"),
    (_city(example="Atlantis"), "get_forecast.city: example: 'Atlantis' is not a canonical city"),
    (_city(example="СПб"), "(did you mean 'Saint Petersburg'?)"),
    (_city(default=5), "get_forecast.city: default: wrong type, expected a non-empty string, got 5"),
    (Param("days", "integer", "Days.", match="integer", example="3"), "example: wrong type, expected an integer"),
    (Param("days", "integer", "", match="integer", example=3), "get_forecast.days: needs a description"),
])
def test_an_incomplete_declaration_is_refused_naming_what_it_lacks(param: Param, message: str) -> None:
    tool = _tool(param)
    assert any(message in p for p in tool.problems()), tool.problems()
    with pytest.raises(ValueError, match="tool 'get_forecast' is incomplete") as err:
        Toolbox().register(tool)
    assert message in str(err.value)


@pytest.mark.parametrize("build,message", [
    (lambda: Param("city", "string", "City.", match="fuzzy"),
     "unknown comparison kind 'fuzzy' (known: expression, number, integer, alias, text, keywords, boolean, array, "
     "set, object, any)"),
    (lambda: Param("n", "string", "N.", match="number"), "parameter 'n': a number comparison needs type number"),
    (lambda: Param("city", "string", "City.", match="alias"), "an alias comparison needs an alias table"),
    (lambda: _tool(_city(), _city()), "two parameters named 'city'"),
])
def test_a_declaration_that_cannot_work_is_refused_at_construction(build, message: str) -> None:
    with pytest.raises(ValueError) as err:
        build()
    assert message in str(err.value)


def test_a_taken_name_is_refused() -> None:
    box = Toolbox(BUILTIN_TOOLS)
    with pytest.raises(ValueError, match="already registered"):
        box.register(CONVERT_CURRENCY)
    with pytest.raises(ValueError, match="other name 'calc' already names 'calculator'"):
        box.register(_tool(_city(), name_aliases=("calc",)))
    with pytest.raises(ValueError, match="other name 'get_time' already names 'get_time'"):
        box.register(_tool(_city(), name_aliases=("get time",)))
    with pytest.raises(ValueError, match="tool 'calc': the name is another name of 'calculator'"):
        box.register(Tool("calc", "Calc.", ()))
    with pytest.raises(ValueError, match="get_forecast: other name '' must be a name"):
        box.register(_tool(_city(), name_aliases=("",)))
    assert "get_forecast" not in box


# ----------------------------------------------------------------------------- plain data

def _as_data(tool: Tool) -> dict:
    """`tool` written as plain data: its JSON schema plus the declaration's own fields."""
    data = tool.json_schema()
    for p in tool.params:
        prop = data["parameters"]["properties"][p.name]
        prop.update(match=p.match, example=p.example, ask={k: list(v) for k, v in p.ask.items()}, label=p.label)
        if p.aliases is not None:
            prop["aliases"] = p.aliases.name
        if p.default is not None:
            prop["default"] = p.default
        if p.inferable:
            prop["inferable"] = True
    return {**data, "name_aliases": list(tool.name_aliases), "latency_s": tool.latency_s, "effect": tool.effect}


@pytest.mark.parametrize("tool", BUILTIN_TOOLS, ids=_id)
def test_plain_data_declares_the_same_tool(tool: Tool) -> None:
    """The same tool, except what plain data adds: English terms derived from the schema after the author's,
    the question words of the parameter's kind after the author's Russian ones (4.1.1: "Кому отправить?"), and
    the schema shown as written (here with the defaults the built-in declaration does not show)."""
    rebuilt = Tool.from_dict(_as_data(tool), simulate=tool.simulate)
    for p in tool.params:
        own = p.ask.get("en", ())
        assert rebuilt.param_index[p.name].ask.get("en", ())[:len(own)] == own
        own_ru = p.ask.get("ru", ())
        ru = rebuilt.param_index[p.name].ask.get("ru", ())
        assert ru[:len(own_ru)] == own_ru
        asked = derived_interrogatives(p.name, p.description, p.type)["ru"] if p.required and own_ru else ()
        assert set(ru[len(own_ru):]) <= set(asked)
    as_declared = dataclasses.replace(rebuilt, params=tuple(dataclasses.replace(r, ask=p.ask)
                                                            for r, p in zip(rebuilt.params, tool.params)))
    assert as_declared == tool
    shown = rebuilt.json_schema()
    for prop in shown["parameters"]["properties"].values():
        prop.pop("default", None)
    assert shown == tool.json_schema()
    assert World(tools=Toolbox([rebuilt])).execute(Call(tool.name, {p.name: p.example for p in tool.params})).ok


def test_plain_data_may_bring_its_own_alias_table() -> None:
    data = _as_data(_tool(_city()))
    data["parameters"]["properties"]["city"]["aliases"] = {"Berlin": ["Берлин"], "Paris": ["Париж"]}
    tool = Tool.from_dict(data)
    assert tool.param_index["city"].matches("Berlin", "в Берлине")
    assert not tool.param_index["city"].matches("Berlin", "Paris")


def test_plain_data_problems_come_all_at_once() -> None:
    data = _as_data(_tool(_city(), Param("days", "integer", "Days.", match="integer", example=3)))
    props = data["parameters"]["properties"]
    props["city"]["ask"] = {"en": ["city"]}
    props["days"]["match"] = "fuzzy"
    props["days"]["colour"] = "red"
    data["parameters"]["required"].append("region")
    data["homepage"] = "x"
    with pytest.raises(ValueError) as err:
        Tool.from_dict(data)
    lines = str(err.value).splitlines()
    assert lines[:2] == ["get_forecast: unknown field 'homepage'",
                         "get_forecast: required names an unknown parameter 'region'"]
    assert lines[2].startswith("get_forecast.days: unknown field(s) ['colour'] (known: additionalProperties, "
                               "aliases, anyOf, ask, const, default, description,")
    assert len(lines) == 3
    del props["days"]["colour"], data["homepage"]
    data["parameters"]["required"].remove("region")
    with pytest.raises(ValueError, match=r"get_forecast.days: unknown comparison kind 'fuzzy'"):
        Tool.from_dict(data)
    props["days"]["match"] = "integer"
    props["city"]["example"] = "Atlantis"
    with pytest.raises(ValueError, match="get_forecast.city: example: 'Atlantis' is not a canonical city"):
        Tool.from_dict(data)
    props["city"]["aliases"] = "planets"
    with pytest.raises(ValueError, match=r"unknown alias table 'planets' \(known: city, language, currency, unit"):
        Tool.from_dict(data)


# ----------------------------------------------------------------------------- the World keeps its promise

def test_a_tool_without_a_simulation_is_an_error_result_not_an_exception() -> None:
    box = Toolbox(BUILTIN_TOOLS)
    box.register(_tool(_city()))
    res = World(tools=box, sleep=False).execute(Call("get_forecast", {"city": "Berlin"}))
    assert not res.ok and res.output == "" and res.error == "get_forecast: this tool has no simulation in the World"


def test_a_simulation_that_breaks_is_an_error_result_not_an_exception() -> None:
    def broken(_records, city: str) -> str:
        return {}[city]
    box = Toolbox([_tool(_city(), simulate=broken)])
    res = World(tools=box, sleep=False).execute(Call("get_forecast", {"city": "Berlin"}))
    assert not res.ok and res.error == "get_forecast: the simulation failed (KeyError: 'Berlin')"


# ----------------------------------------------------------------------------- the comparison kinds

def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown comparison kind 'fuzzy' \(known: expression, number"):
        comparison("fuzzy")
    assert comparison("alias") is COMPARISONS["alias"]


@pytest.mark.parametrize("tool,param", PARAMS, ids=lambda x: x.name)
def test_each_kind_agrees_with_itself_on_the_example(tool: Tool, param: Param) -> None:
    kind, value = param.comparison, param.example
    assert param.matches(value, value)
    assert param.matches(value, kind.written(value))
    assert not param.matches(value, kind.other(param, value))
    assert kind.check_expected(param, kind.other(param, value)) is None or param.enum == ()
    variant = kind.variant(param, value)
    assert variant is None or (variant != value and param.matches(value, variant))
    assert kind.accept(value) is not None and kind.accept(None) is None and kind.accept([value]) is None
    assert param.matches(value, kind.coerce(str(value)))


@pytest.mark.parametrize("kind", ["alias", "text", "keywords"])
def test_string_kinds_never_match_an_object_a_list_a_boolean_or_null(kind: str) -> None:
    param = next(p for _, p in PARAMS if p.match == kind)
    for actual in ({"v": param.example}, [param.example], True, None):
        assert not param.matches(param.example, actual)


def test_kinds_type_untyped_strings_as_the_grader_reads_them() -> None:
    number, integer, text = COMPARISONS["number"], COMPARISONS["integer"], COMPARISONS["text"]
    assert number.coerce("5") == 5 and type(number.coerce("5")) is int and number.coerce("5.0") == 5.0
    assert integer.coerce("90.0") == 90 and type(integer.coerce("90.0")) is int
    assert text.coerce("02139") == "02139" and number.coerce("ten") == "ten"
    amount = CONVERT_CURRENCY.param_index["amount"]
    assert amount.matches(250, "$250") and amount.matches(250, "250 €") and not amount.matches(250, "$25")


def test_declared_fields_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CONVERT_CURRENCY.name = "x"  # type: ignore[misc]
