"""The deterministic World: agreement with the corpus histories, tables, normalisation, failures, latency."""
from __future__ import annotations

import itertools
import re
import time
import zoneinfo
from fractions import Fraction

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.aliases import CITIES, CURRENCIES, TIMEZONES, UNITS, norm_text
from tooluse1.toolbox import CONDITIONS_RU, RATES, TRANSLATIONS, UNIT_FACTORS, WEATHER, format_number
from tooluse1.tools import TOOLS, Call
from tooluse1.world import ToolResult, World, numbers_in


def run(name: str, **arguments) -> ToolResult:
    return World(sleep=False).execute(Call(name, arguments))


def ok(name: str, **arguments) -> str:
    res = run(name, **arguments)
    assert res.ok, res.error
    assert res.error is None
    return res.output


def fails(name: str, **arguments) -> str:
    res = run(name, **arguments)
    assert not res.ok and res.output == "" and res.error, res
    return res.error


# ----------------------------------------------------------------------------- corpus histories

_WEATHER_RE = re.compile(r"(-?\d+(?:\.\d+)?)°([CF]),\s*(.+?)\s*$")
_TIME_RE = re.compile(r"(\d{1,2}):(\d{2}),\s*(\w+)")
_WEEKDAYS_RU = {"понедельник": "monday", "вторник": "tuesday", "среда": "wednesday", "четверг": "thursday",
                "пятница": "friday", "суббота": "saturday", "воскресенье": "sunday"}


def _same_numbers(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= 1e-6 * max(1.0, abs(x)) for x, y in zip(a, b))


def agrees(tool: str, authored: str, world: str) -> tuple[bool, str]:
    """Does the World's output say what the corpus's fixed tool result says? (tool-specific reading)"""
    if tool == "get_weather":
        a, w = _WEATHER_RE.search(authored), _WEATHER_RE.search(world)
        if not a or not w:
            return False, f"unreadable weather {authored!r} / {world!r}"
        same_temp = float(a[1]) == float(w[1]) and a[2] == w[2]
        cond = norm_text(a[3])
        same_cond = cond in (norm_text(w[3]), norm_text(CONDITIONS_RU.get(w[3], "")))
        return same_temp and same_cond, f"temperature/condition {a.groups()} vs {w.groups()}"
    if tool == "get_time":
        a, w = _TIME_RE.search(authored), _TIME_RE.search(world)
        if not a or not w:
            return False, f"unreadable time {authored!r} / {world!r}"
        day_a = _WEEKDAYS_RU.get(a[3].casefold(), a[3].casefold())
        return (int(a[1]), a[2], day_a) == (int(w[1]), w[2], w[3].casefold()), f"{a.groups()} vs {w.groups()}"
    if tool == "translate":
        return norm_text(authored) == norm_text(world), f"{authored!r} vs {world!r}"
    # calculator, convert_currency, convert_units and the rest: the same numbers in the same order
    # ("100 USD = 9250 RUB" agrees with "100 USD = 9250.00 RUB").
    return _same_numbers(numbers_in(authored), numbers_in(world)), f"numbers {authored!r} vs {world!r}"


def corpus_tool_results() -> list[tuple[str, Call, str]]:
    cases, _ = load_corpus()
    out = []
    for case in cases:
        msgs = case.messages
        for i, m in enumerate(msgs):
            if m["role"] == "tool":
                tc = msgs[i - 1]["tool_call"]
                out.append((case.id, Call(tc["name"], dict(tc.get("arguments") or {})), m["content"]))
    return out


def test_corpus_has_the_histories_this_test_relies_on() -> None:
    results = corpus_tool_results()
    tools = {call.name for _, call, _ in results}
    assert len(results) >= 10
    assert {"get_weather", "calculator", "convert_currency", "convert_units", "get_time", "translate"} <= tools


@pytest.mark.parametrize("case_id,call,authored", corpus_tool_results(), ids=lambda x: x if isinstance(x, str) else "")
def test_world_agrees_with_every_corpus_tool_result(case_id: str, call: Call, authored: str) -> None:
    res = World(sleep=False).execute(call)
    assert res.ok, f"{case_id}: {res.error}"
    same, why = agrees(call.name, authored, res.output)
    assert same, f"{case_id}: World disagrees with the corpus history: {why}"


@pytest.mark.parametrize("tool,authored,world", [
    ("get_weather", "Madrid: 25°C, sunny", "Madrid: 24°C, sunny"),
    ("get_weather", "Madrid: 24°C, rain", "Madrid: 24°C, sunny"),
    ("get_weather", "Москва: -3°C, дождь", "Moscow: -3°C, snow"),
    ("get_weather", "Madrid: 24°F, sunny", "Madrid: 24°C, sunny"),
    ("calculator", "22321", "22320"),
    ("convert_currency", "100 USD = 9251 RUB", "100 USD = 9250.00 RUB"),
    ("get_time", "Europe/Vienna: 07:05, Tuesday", "Europe/Vienna: 07:05, Monday"),
    ("translate", "Bonne chance", "Bonne chance pour ton examen"),
])
def test_the_agreement_check_can_fail(tool: str, authored: str, world: str) -> None:
    assert not agrees(tool, authored, world)[0]


def test_agreement_accepts_russian_conditions_and_two_decimals() -> None:
    assert agrees("get_weather", "Москва: -3°C, снег", "Moscow: -3°C, snow")[0]
    assert agrees("convert_currency", "100 USD = 9250 RUB", "100 USD = 9250.00 RUB")[0]


# ----------------------------------------------------------------------------- tables are complete

def test_every_canonical_city_has_weather_and_every_condition_a_russian_name() -> None:
    assert set(CITIES.canonicals) == set(WEATHER)
    assert {cond for _, cond in WEATHER.values()} <= set(CONDITIONS_RU)


def test_every_currency_has_a_rate_and_every_unit_a_conversion() -> None:
    assert set(CURRENCIES.canonicals) == set(RATES)
    dimensioned = {u for table in UNIT_FACTORS.values() for u in table}
    assert set(UNITS.canonicals) == dimensioned | {"celsius", "fahrenheit", "kelvin"}


@pytest.mark.parametrize("zone", TIMEZONES.canonicals)
def test_every_canonical_time_zone_resolves(zone: str) -> None:
    zoneinfo.ZoneInfo(zone)
    assert ok("get_time", timezone=zone).startswith(f"{zone}: ")


# ----------------------------------------------------------------------------- weather

@pytest.mark.parametrize("form", ["Saint Petersburg", "СПб", "Питер", "в Санкт-Петербурге", "st. petersburg", "SPB"])
def test_city_aliases_give_the_same_weather(form: str) -> None:
    assert ok("get_weather", city=form) == "Saint Petersburg: -6°C, cloudy"


@pytest.mark.parametrize("city", CITIES.canonicals)
def test_fahrenheit_is_the_exact_conversion(city: str) -> None:
    c = _WEATHER_RE.search(ok("get_weather", city=city))
    f = _WEATHER_RE.search(ok("get_weather", city=city, unit="fahrenheit"))
    assert c and f and c[2] == "C" and f[2] == "F" and c[3] == f[3]
    assert Fraction(f[1]) == Fraction(c[1]) * 9 / 5 + 32


def test_weather_unit_aliases_and_bad_units() -> None:
    assert ok("get_weather", city="Berlin", unit="°F") == "Berlin: 57.2°F, cloudy"
    assert ok("get_weather", city="Berlin", unit="по цельсию") == "Berlin: 14°C, cloudy"
    assert "unit" in fails("get_weather", city="Berlin", unit="kelvin")
    assert "Atlantis" in fails("get_weather", city="Atlantis")


# ----------------------------------------------------------------------------- time

def test_local_time_at_the_reference_instant() -> None:
    assert ok("get_time", timezone="Europe/Vienna") == "Europe/Vienna: 07:05, Monday"
    assert ok("get_time", timezone="Asia/Tokyo") == "Asia/Tokyo: 15:05, Monday"
    assert ok("get_time", timezone="America/Los_Angeles") == "America/Los_Angeles: 22:05, Sunday"
    assert ok("get_time", timezone="Asia/Kolkata") == "Asia/Kolkata: 11:35, Monday"
    assert ok("get_time", timezone="мск") == "Europe/Moscow: 09:05, Monday"


def test_time_zones_outside_the_alias_table_and_unknown_ones() -> None:
    assert ok("get_time", timezone="Asia/Kathmandu") == "Asia/Kathmandu: 11:50, Monday"
    assert "time zone" in fails("get_time", timezone="Mars/Olympus_Mons")
    assert "time zone" in fails("get_time", timezone="../../etc/passwd")


# ----------------------------------------------------------------------------- calculator

@pytest.mark.parametrize("expression,expected", [
    ("22320/12", "1860"), ("57/5", "11.4"), ("0.1+0.2", "0.3"), ("1/3", "0.3333333333"),
    ("2**64", "18446744073709551616"),
    ("(-3-6)/2", "-4.5"), ("15% * 80", "12"), ("sqrt(729)", "27"), ("1 500 + 2", "1502"), ("-0.0", "0"),
])
def test_calculator_values(expression: str, expected: str) -> None:
    assert ok("calculator", expression=expression) == expected


@pytest.mark.parametrize("expression", ["1/0", "__import__('os')", "9**9**9**9", "two plus two", "(" * 500])
def test_calculator_refuses_what_it_cannot_evaluate(expression: str) -> None:
    assert "cannot evaluate" in fails("calculator", expression=expression)


# ----------------------------------------------------------------------------- currency

def test_currency_conversion_is_exact_with_two_decimals() -> None:
    assert ok("convert_currency", amount=100, from_currency="USD", to_currency="RUB") == "100 USD = 9250.00 RUB"
    assert ok("convert_currency", amount=250, from_currency="EUR", to_currency="USD") == "250 EUR = 271.74 USD"
    assert ok("convert_currency", amount=1500, from_currency="RUB", to_currency="USD") == "1500 RUB = 16.22 USD"
    # aliases and string amounts (XML protocols carry no types)
    assert ok("convert_currency", amount="100", from_currency="баксов", to_currency="₽") == "100 USD = 9250.00 RUB"


@pytest.mark.parametrize("src,dst", list(itertools.permutations(["USD", "EUR", "RUB", "JPY", "KZT"], 2)))
def test_currency_cross_rates_follow_the_usd_table(src: str, dst: str) -> None:
    out = ok("convert_currency", amount=1000, from_currency=src, to_currency=dst)
    value = numbers_in(out)[-1]
    exact = 1000 / float(RATES[src]) * float(RATES[dst])
    assert abs(value - exact) <= 0.005 + 1e-9
    assert re.search(r"\.\d\d " + dst + "$", out)


def test_currency_failures() -> None:
    assert "currency" in fails("convert_currency", amount=5, from_currency="XYZ", to_currency="USD")
    assert "number" in fails("convert_currency", amount="lots", from_currency="USD", to_currency="EUR")
    assert "missing required argument 'to_currency'" in fails("convert_currency", amount=5, from_currency="USD")


# ----------------------------------------------------------------------------- units

@pytest.mark.parametrize("value,src,dst,expected", [
    (0.75, "h", "min", "0.75 h = 45 min"), (10, "km", "mi", "10 km = 6.213712 mi"),
    (98.6, "fahrenheit", "celsius", "98.6°F = 37°C"), (0, "celsius", "kelvin", "0°C = 273.15 K"),
    (-40, "celsius", "fahrenheit", "-40°C = -40°F"), (1, "GB", "MB", "1 GB = 1024 MB"),
    (3, "cup", "ml", "3 cup = 709.76471 ml"), (40, "knot", "km/h", "40 knot = 74.08 km/h"),
    (1, "acre", "m2", "1 acre = 4046.856422 m2"), (45, "минут", "секунд", "45 min = 2700 s"),
])
def test_unit_conversions(value: float, src: str, dst: str, expected: str) -> None:
    assert ok("convert_units", value=value, from_unit=src, to_unit=dst) == expected


@pytest.mark.parametrize("dim", sorted(UNIT_FACTORS))
def test_unit_round_trips_within_each_dimension(dim: str) -> None:
    for a, b in itertools.permutations(UNIT_FACTORS[dim], 2):
        there = numbers_in(ok("convert_units", value=7, from_unit=a, to_unit=b))[-1]
        exact = Fraction(7) * UNIT_FACTORS[dim][a] / UNIT_FACTORS[dim][b]
        assert abs(Fraction(repr(there)) - exact) <= Fraction(1, 2 * 10**6), (a, b)


def test_unit_failures() -> None:
    assert "cannot convert" in fails("convert_units", value=1, from_unit="km", to_unit="kg")
    assert "cannot convert" in fails("convert_units", value=1, from_unit="celsius", to_unit="m")
    assert "absolute zero" in fails("convert_units", value=-300, from_unit="celsius", to_unit="kelvin")
    assert "unknown unit" in fails("convert_units", value=1, from_unit="parsec", to_unit="km")


# ----------------------------------------------------------------------------- search

def test_search_finds_topics_in_both_languages_and_inflections() -> None:
    assert "97250 USD" in ok("web_search", query="курс биткоина")
    assert "97250 USD" in ok("web_search", query="Bitcoin price today")
    assert "330 m" in ok("web_search", query="высота Эйфелевой башни")
    assert "Han Kang" in ok("web_search", query="Nobel Prize in literature 2024 winner")


def test_search_num_results_and_unknown_queries() -> None:
    full = ok("web_search", query="louvre")
    assert full.count("\n") == 2
    assert ok("web_search", query="louvre", num_results=1) == full.splitlines()[0]
    assert ok("web_search", query="louvre", num_results="2") == "\n".join(full.splitlines()[:2])
    assert ok("web_search", query="quantum llama farming") == "No results found for 'quantum llama farming'."
    assert "between 1 and 10" in fails("web_search", query="louvre", num_results=0)


def test_every_corpus_search_query_finds_a_topic() -> None:
    cases, _ = load_corpus()
    queries = [c.expect.right_call().arguments["query"] for c in cases
               if c.expect.call is not None and c.expect.call.name == "web_search"]
    assert queries
    for q in queries:
        assert not ok("web_search", query=q).startswith("No results"), q


# ----------------------------------------------------------------------------- translation

def test_every_corpus_translation_is_in_the_table() -> None:
    cases, _ = load_corpus()
    calls = [c.expect.call for c in cases if c.expect.call is not None and c.expect.call.name == "translate"]
    assert len(calls) >= 10
    for call in calls:
        out = ok("translate", **call.arguments)
        assert not out.startswith("["), call
        assert out == TRANSLATIONS[(norm_text(call.arguments["text"]), call.arguments["target_language"])]


def test_translation_normalises_and_stubs() -> None:
    assert ok("translate", text="«Доброе утро, коллеги»", target_language="английский") == "Good morning, colleagues"
    assert ok("translate", text="Hello there", target_language="de") == "[de] Hello there"
    assert ok("translate", text="Hello there", target_language="en", source_language="english") == "Hello there"
    assert "target language" in fails("translate", text="Hi", target_language="klingon")


# ----------------------------------------------------------------------------- timers and notes

def test_timer_and_note_ids_count_per_world() -> None:
    w = World(sleep=False)
    assert w.execute(Call("set_timer", {"duration_seconds": 2700, "label": "study"})).output == \
        'Timer timer-1 started: 2700 s (45:00), label "study".'
    assert w.execute(Call("timer", {"duration_seconds": "5400"})).output == "Timer timer-2 started: 5400 s (1:30:00)."
    assert w.execute(Call("save_note", {"text": "buy milk", "title": "Shop"})).output == \
        'Note note-1 saved with title "Shop": "buy milk"'
    assert [n["text"] for n in w.records["save_note"]] == ["buy milk"] and len(w.records["set_timer"]) == 2
    assert World(sleep=False).execute(Call("save_note", {"text": "x"})).output == 'Note note-1 saved: "x"'


def test_timer_bounds() -> None:
    assert "between 1 and 604800" in fails("set_timer", duration_seconds=0)
    assert "between 1 and 604800" in fails("set_timer", duration_seconds=10**7)
    assert "integer" in fails("set_timer", duration_seconds=1.5)
    assert "integer" in fails("set_timer", duration_seconds=True)


# ----------------------------------------------------------------------------- failures never raise

@pytest.mark.parametrize("call", [
    Call("launch_rockets", {}), Call("", {}), Call(None, {}),  # type: ignore[arg-type]
    Call("get_weather", {}), Call("get_weather", {"city": None}), Call("get_weather", {"city": ""}),
    Call("get_weather", {"city": ["Berlin"]}), Call("get_weather", "Berlin"),  # type: ignore[arg-type]
    Call("calculator", {"expression": {"a": 1}}),
    Call("convert_units", {"value": float("nan"), "from_unit": "m", "to_unit": "km"}),
    Call("convert_units", {"value": "1e999", "from_unit": "m", "to_unit": "km"}),
    Call("save_note", {"text": 42}), Call("get_time", {"timezone": "\x00"}),
    Call("calculator", {"expression": 10**400}), Call("set_timer", {"duration_seconds": 10**400}),
    Call("convert_currency", {"amount": 10**400, "from_currency": "USD", "to_currency": "EUR"}),
])
def test_bad_calls_are_results_not_exceptions(call: Call) -> None:
    res = World(sleep=False).execute(call)
    assert isinstance(res, ToolResult) and not res.ok and res.error and res.output == ""


def test_tool_name_aliases_and_undeclared_arguments() -> None:
    result = World().execute(Call("weather", {"city": "Питер", "country": "RU"}))
    assert result.output == "Saint Petersburg: -6°C, cloudy"
    assert World().execute(Call("functions.calculator", {"expression": "2+2"})).output == "4"


# ----------------------------------------------------------------------------- latency and determinism

def test_every_tool_has_a_simulated_latency() -> None:
    from tooluse1.world import TOOL_LATENCY_S
    assert set(TOOL_LATENCY_S) == set(TOOLS) and all(v > 0 for v in TOOL_LATENCY_S.values())
    # A remote lookup costs more than local arithmetic, the contrast the SPIN time savings rest on.
    assert TOOL_LATENCY_S["web_search"] > TOOL_LATENCY_S["get_weather"] > TOOL_LATENCY_S["calculator"]
    world = World(latency_s=TOOL_LATENCY_S, sleep=False)
    t0 = time.perf_counter()
    assert world.execute(Call("web_search", {"query": "marathon distance"})).latency_s == TOOL_LATENCY_S["web_search"]
    assert time.perf_counter() - t0 < 0.5   # accounted, not slept


def test_latency_per_tool_is_slept_and_reported() -> None:
    w = World(latency_s={"get_weather": 0.05})
    t0 = time.perf_counter()
    res = w.execute(Call("get_weather", {"city": "Berlin"}))
    assert time.perf_counter() - t0 >= 0.05 and res.latency_s == 0.05
    t0 = time.perf_counter()
    assert w.execute(Call("calculator", {"expression": "1+1"})).latency_s == 0.0
    assert time.perf_counter() - t0 < 0.05
    quiet = World(latency_s=0.2, sleep=False)
    t0 = time.perf_counter()
    assert quiet.execute(Call("get_time", {"timezone": "UTC"})).latency_s == 0.2
    assert time.perf_counter() - t0 < 0.1


@pytest.mark.parametrize("bad", [-1, float("nan"), "1", {"get_wether": 1.0}, {"get_weather": -0.5}, True])
def test_bad_latency_settings_are_refused(bad) -> None:
    with pytest.raises(ValueError):
        World(latency_s=bad)


def test_outputs_are_deterministic_across_worlds() -> None:
    calls = [Call(name, args) for name, args in [
        ("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"}),
        ("web_search", {"query": "marathon distance"}),
        ("translate", {"text": "Where is the train station?", "target_language": "de"}),
        ("calculator", {"expression": "40*85*1.19"}),
        ("convert_currency", {"amount": 12000, "from_currency": "JPY", "to_currency": "GBP"}),
        ("convert_units", {"value": 26.2, "from_unit": "mi", "to_unit": "km"}), ("set_timer", {"duration_seconds": 90}),
        ("save_note", {"text": "x"})]]
    calls += [Call(t.name, {p.name: p.example for p in t.params}) for t in TOOLS.values()]   # every tool, too
    first = [World(sleep=False).execute(c) for c in calls]
    assert first == [World(sleep=False).execute(c) for c in calls]


def test_format_number() -> None:
    assert format_number(2.5) == "2.5" and format_number(3.0) == "3" and format_number(-0.0000001) == "0"
    assert format_number(Fraction(1, 3)) == "0.333333" and format_number(1e20) == "100000000000000000000"
