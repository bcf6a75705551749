"""The nine tools' contract, the alias tables (EN + RU) and typing by schema (tooluse1.tools)."""
from __future__ import annotations

import pytest

from tooluse1.tools import (CITIES, CURRENCIES, LANGUAGES, TIMEZONES, TOOL_NAME_ALIASES, TOOLS, UNITS,
                            canonical_tool_name, coerce_value, norm_text, to_integer, to_number)

ALL_TABLES = (CITIES, LANGUAGES, CURRENCIES, UNITS, TIMEZONES)

# DESIGN.md: parameter names and required lists are part of the contract.
CONTRACT = {
    "calculator": ({"expression"}, {"expression"}),
    "get_weather": ({"city", "unit"}, {"city"}),
    "web_search": ({"query", "num_results"}, {"query"}),
    "translate": ({"text", "target_language", "source_language"}, {"text", "target_language"}),
    "convert_currency": ({"amount", "from_currency", "to_currency"}, {"amount", "from_currency", "to_currency"}),
    "convert_units": ({"value", "from_unit", "to_unit"}, {"value", "from_unit", "to_unit"}),
    "set_timer": ({"duration_seconds", "label"}, {"duration_seconds"}),
    "save_note": ({"text", "title"}, {"text"}),
    "get_time": ({"timezone"}, {"timezone"}),
}


def test_the_nine_tools_match_the_design_contract():
    assert set(TOOLS) == set(CONTRACT)
    for name, (params, required) in CONTRACT.items():
        tool = TOOLS[name]
        assert {p.name for p in tool.params} == params, name
        assert set(tool.required) == required, name
        schema = tool.json_schema()
        assert schema["name"] == name and set(schema["parameters"]["properties"]) == params
        assert set(schema["parameters"]["required"]) == required


def test_schema_types_match_the_design():
    assert TOOLS["convert_currency"].param_index["amount"].type == "number"
    assert TOOLS["convert_units"].param_index["value"].type == "number"
    assert TOOLS["set_timer"].param_index["duration_seconds"].type == "integer"
    assert TOOLS["web_search"].param_index["num_results"].type == "integer"
    assert TOOLS["get_weather"].json_schema()["parameters"]["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"]


# ----------------------------------------------------------------------------- the spec's literal examples

@pytest.mark.parametrize("table,form,canonical", [
    (CITIES, "СПб", "Saint Petersburg"),
    (LANGUAGES, "английский", "en"),
    (CURRENCIES, "$", "USD"),
    (UNITS, "градусов", "celsius"),
    (TIMEZONES, "Moscow", "Europe/Moscow"),
])
def test_spec_alias_examples(table, form, canonical):
    assert table.lookup(form) == canonical
    assert table.canonical(form) == table.canonical(canonical)


def test_tool_name_alias_calc():
    assert canonical_tool_name("calc") == "calculator"


# ----------------------------------------------------------------------------- more forms, RU and EN

@pytest.mark.parametrize("form,canonical", [
    ("в Москве", "Moscow"), ("Москвы", "Moscow"), ("москва", "Moscow"), ("МОСКВА", "Moscow"),
    ("в Питере", "Saint Petersburg"), ("Санкт-Петербурге", "Saint Petersburg"), ("Питера", "Saint Petersburg"),
    ("из Берлина", "Berlin"), ("в Берлине", "Berlin"), ("Нью-Йорке", "New York"), ("в Лондоне", "London"),
    ("St. Petersburg", "Saint Petersburg"), ("saint-petersburg", "Saint Petersburg"), ("NYC", "New York"),
    ("Moscow, Russia", "Moscow"), ("the Berlin", "Berlin"), ("in Paris", "Paris"), ("Peking", "Beijing"),
])
def test_city_forms(form, canonical):
    assert CITIES.lookup(form) == canonical


@pytest.mark.parametrize("form,canonical", [
    ("на немецкий", "de"), ("на английском", "en"), ("на русский", "ru"), ("французский", "fr"),
    ("японского", "ja"), ("по-испански", "es"),
    ("English", "en"), ("German", "de"), ("EN", "en"), ("en-US", "en"), ("Deutsch", "de"), ("Français", "fr"),
    ("into Spanish", "es"), ("Mandarin", "zh"),
])
def test_language_forms(form, canonical):
    assert LANGUAGES.lookup(form) == canonical


@pytest.mark.parametrize("form,canonical", [
    ("рублей", "RUB"), ("в рублях", "RUB"), ("в рубли", "RUB"), ("фунты", "GBP"), ("юани", "CNY"), ("руб.", "RUB"), ("₽", "RUB"), ("долларов", "USD"),
    ("в долларах", "USD"), ("баксов", "USD"), ("евро", "EUR"), ("фунтов стерлингов", "GBP"), ("иен", "JPY"),
    ("dollars", "USD"), ("US dollars", "USD"), ("euros", "EUR"), ("€", "EUR"), ("£", "GBP"), ("yen", "JPY"),
    ("usd", "USD"), ("Swiss francs", "CHF"), ("tenge", "KZT"),
])
def test_currency_forms(form, canonical):
    assert CURRENCIES.lookup(form) == canonical


@pytest.mark.parametrize("form,canonical", [
    ("градусов", "celsius"), ("по Цельсию", "celsius"), ("Celsius", "celsius"), ("°C", "celsius"), ("C", "celsius"),
    ("по Фаренгейту", "fahrenheit"), ("°F", "fahrenheit"), ("Fahrenheit", "fahrenheit"),
    ("км", "km"), ("километров", "km"), ("kilometres", "km"), ("miles", "mi"), ("миль", "mi"),
    ("килограммов", "kg"), ("фунтов", "lb"), ("pounds", "lb"), ("lbs", "lb"), ("feet", "ft"), ("литров", "l"),
])
def test_unit_forms(form, canonical):
    assert UNITS.lookup(form) == canonical


@pytest.mark.parametrize("form,canonical", [
    ("Moscow", "Europe/Moscow"), ("по Москве", "Europe/Moscow"), ("в Москве", "Europe/Moscow"),
    ("europe/moscow", "Europe/Moscow"), ("EUROPE/MOSCOW", "Europe/Moscow"), ("MSK", "Europe/Moscow"),
    ("в Токио", "Asia/Tokyo"), ("Tokyo", "Asia/Tokyo"), ("America/New York", "America/New_York"),
    ("new_york", "America/New_York"), ("Eastern Time", "America/New_York"), ("UTC", "UTC"),
])
def test_timezone_forms(form, canonical):
    assert TIMEZONES.lookup(form) == canonical


@pytest.mark.parametrize("name,tool", [
    ("calc", "calculator"), ("Calculator", "calculator"), ("functions.get_weather", "get_weather"),
    ("tool:calculator", "calculator"), ("get-weather", "get_weather"), ("Get Weather", "get_weather"),
    ("weather", "get_weather"), ("search", "web_search"), ("TRANSLATE", "translate"), ("timer", "set_timer"),
])
def test_tool_name_forms(name, tool):
    assert canonical_tool_name(name) == tool


def test_unknown_tool_names_stay_unknown():
    assert canonical_tool_name("book_flight") not in TOOLS
    assert canonical_tool_name("book_flight") != canonical_tool_name("order_pizza")


# ----------------------------------------------------------------------------- table integrity

@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: t.name)
def test_every_form_maps_to_its_own_canonical(table):
    """A form listed under two canonicals would silently map to the later one; this catches it."""
    for canon in table.canonicals:
        assert table.lookup(canon) == canon, canon
        for form in table.forms(canon):
            assert table.lookup(form) == canon, (form, canon, table.lookup(form))


def test_every_tool_name_alias_resolves():
    for alias, tool in TOOL_NAME_ALIASES.items():
        assert tool in TOOLS and canonical_tool_name(alias) == tool


def test_unknown_values_compare_equal_only_to_themselves():
    assert CITIES.lookup("Atlantis") is None
    assert CITIES.canonical("Atlantis") == CITIES.canonical(" atlantis. ")
    assert CITIES.canonical("Atlantis") != CITIES.canonical("Lemuria")
    assert CITIES.canonical("Atlantis") != "Berlin"


def test_stems_do_not_swallow_longer_words():
    # "Московская область" starts with the stem "москв" but is a region, not the city
    assert CITIES.lookup("Московская область") is None
    assert CITIES.lookup("Berlin") != CITIES.lookup("Paris")


def test_same_word_in_two_tables_means_different_things():
    assert CURRENCIES.lookup("pounds") == "GBP" and UNITS.lookup("pounds") == "lb"


# ----------------------------------------------------------------------------- typing by schema

@pytest.mark.parametrize("tool,param,raw,expected", [
    ("convert_units", "value", "10", 10),
    ("convert_units", "value", "2.5", 2.5),
    ("convert_units", "value", "1e3", 1000.0),
    ("convert_currency", "amount", "1,500", 1500),
    ("set_timer", "duration_seconds", "90", 90),
    ("set_timer", "duration_seconds", "90.0", 90),
    ("convert_units", "value", "ten", "ten"),            # not a number: left for the grader to reject
    ("save_note", "text", "10", "10"),
    ("get_weather", "city", "02139", "02139"),
    ("no_such_tool", "x", "10", "10"),
])
def test_coerce_value(tool, param, raw, expected):
    value = coerce_value(tool, param, raw)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("value,expected", [
    (100, 100.0), ("100", 100.0), (" 100 ", 100.0), ("1,000.5", 1000.5), ("1 000", 1000.0), ("3,5", 3.5),
    ("-2.5e3", -2500.0), ("１００", 100.0),
    (True, None), (False, None), ("abc", None), ("", None), (None, None), ([1], None), ("NaN", None),
    (10 ** 400, None),                                   # an int beyond float range is not comparable
])
def test_to_number(value, expected):
    assert to_number(value) == expected


@pytest.mark.parametrize("value,expected", [
    (90, 90), ("90", 90), (90.0, 90), ("1,200", 1200),
    (90.5, None), (True, None), ("ninety", None), (float("inf"), None), (float("nan"), None), (10 ** 400, None),
])
def test_to_integer(value, expected):
    assert to_integer(value) == expected


@pytest.mark.parametrize("a,b", [
    ("Hello World", "  hello   world "), ("«Привет»", "привет"), ("ЁЖИК", "ежик"), ("ＡＢＣ", "abc"),
    ('"Buy milk."', "buy milk"), ("tab\there", "tab here"),
])
def test_norm_text_equates(a, b):
    assert norm_text(a) == norm_text(b)


@pytest.mark.parametrize("a,b", [("buy milk", "buy silk"), ("a b", "ab"), ("2", "3")])
def test_norm_text_distinguishes(a, b):
    assert norm_text(a) != norm_text(b)
