"""Does a final answer contradict the World? Quantities stated in an answer, checked against the scenario's facts.

A careful reader marks an answer wrong when it states a value the World did not produce: "118.76 °F" in Tokyo
when get_weather says 48.2 °F, "8169.60 EUR" where no euro amount exists. This module finds such statements
by rule, for every scenario alike:

- A *quantity* is a number with a unit the grader's alias tables know (tools.UNITS: temperatures, lengths,
  masses, ...; tools.CURRENCIES: codes, symbols, words, EN and RU), the unit written after the number
  ("48.2°F", "130.43 US dollars", "15081,52 рубля") or a currency symbol before it ("$350", "€20").
- The scenario's *facts* are the quantities and plain numbers in its question, its reference answer and the
  World outputs of all its calls (required, allowed and tempting: what the World says is true whether or
  not a run asked it).
- A *clock time* ("07:05", "3:05 PM") in an answer is judged like a quantity when the facts hold clock
  times (get_time outputs, opening hours): it must be one of them (a bare "3:05" may mean 15:05).
- The *sky* the World reports for the one place whose weather a scenario looks up (clear, or precipitation:
  rain, snow, thunderstorm) is contradicted by an answer that asserts the other one ("солнечно" where it
  rains), not negated and not inside a condition ("if it's sunny") within the four words before it.
- An answer's quantity is *supported* when its value equals, to the precision it is written with (half a
  unit of its last digit, at least 0.5% for rounding like "about 26 miles"), a plain fact number or a fact
  quantity of the same dimension converted into its unit by the World itself (convert_units,
  convert_currency). It *contradicts* the World when the facts hold a quantity of its dimension and it is
  not supported; a quantity of a dimension the facts never mention is not judged.
- A temperature said of a place whose weather the World reports is that place's temperature: in a clause
  that names one or more such places and holds exactly one temperature ("В Сочи и в Калининграде ... 12°C"
  where Kaliningrad is 2 °C), it must be each named place's. Clauses that compare or aggregate ("warmer
  than", "average", "выше нуля") are not judged this way: their number is a difference or a mean.
- An answer that is nothing but a number ("25", "194524") asserts it as the value asked for: it contradicts
  the World unless some fact holds that value (in whatever unit the fact is written). A plain number inside
  a sentence is not judged (it may count steps, people or anything else).

`contradicted_quantities` returns the contradicting quantities as written (empty: nothing contradicts).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tooluse1.spin.scenarios import Scenario
from tooluse1.aliases import CITIES, CURRENCIES, UNITS
from tooluse1.matching import to_number
from tooluse1.toolbox import UNIT_FACTORS
from tooluse1.tools import Call
from tooluse1.world import World

__all__ = ["Quantity", "clock_times", "contradicted_quantities", "contradicted_sky", "quantities"]

_NUMBER = r"[-−–]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
# a currency symbol before the number, or the number then (optionally) one unit word / symbol
_QUANTITY_RE = re.compile(
    rf"(?P<sym>[$€£₽¥])\s?(?P<n1>{_NUMBER})|(?<![\w.,])(?P<n2>{_NUMBER})(?![\d])\s?(?P<unit>°\s?[CFcf]\b|"
    rf"[A-Za-zА-Яа-яЁё$€£₽]+(?:\s(?:dollars?|pounds?|francs?|koruna|yen|won|lira))?)?")
# An answer that is one number and nothing else (spaces, a full stop, quotes or a bullet around it).
_BARE_NUMBER_RE = re.compile(rf"[\s\"'*.:>-]*{_NUMBER}[\s\"'*.!]*")
_CLOCK_RE = re.compile(r"(?<![\d:.,])(\d{1,2}):(\d{2})(?![\d:])(?:\s?([AaPp])\.?\s?[Mm]\b\.?)?")
_DEGREE_WORDS = frozenset({"degree", "degrees", "градус", "градуса", "градусов"})
# Unit abbreviations that are also everyday words after a number ("330 in feet", "12 с дождём", "2024 г."):
# read as no unit, so they are never judged.
_AMBIGUOUS_UNITS = frozenset({"in", "s", "d", "b", "t", "l", "g", "с", "в", "г", "т", "л"})
_TEMPERATURE = "temperature"


@dataclass(frozen=True)
class Quantity:
    """A number read from text; `unit` is the canonical unit or currency code, None for a plain number;
    `kind` is the unit's dimension ("currency" for money); `tolerance` half a unit of the last written digit."""

    value: float
    unit: str | None
    kind: str | None
    text: str
    tolerance: float


def _unit_of(token: str | None) -> tuple[str | None, str | None]:
    """(canonical unit, dimension) of a unit token, or (None, None)."""
    token = (token or "").strip().rstrip(".")
    if not token or token.lower() in _AMBIGUOUS_UNITS:       # "15 degrees." reads "." after the number
        return None, None
    cur = CURRENCIES.lookup(token) or CURRENCIES.lookup(token.split()[0])
    if cur is not None:
        return cur, "currency"
    for candidate in (token, token.split()[0]):
        unit = UNITS.lookup(candidate.replace(" ", ""))
        if unit is not None:
            return unit, _dimension(unit)
    return None, None


def _dimension(unit: str) -> str | None:
    if unit in ("celsius", "fahrenheit", "kelvin"):
        return _TEMPERATURE
    return next((dim for dim, table in UNIT_FACTORS.items() if unit in table), None)


def _tolerance(number: str) -> float:
    """Half a unit of the last written digit ("1,480" and "8880" -> 0.5, "48.2" -> 0.05, "15081,52" -> 0.005)."""
    digits = number.lstrip("-−–")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", digits):   # thousands separators
        digits = digits.replace(",", "")
    decimals = len(re.split(r"[.,]", digits)[-1]) if re.search(r"[.,]", digits) else 0
    return 0.5 * 10 ** -decimals


def quantities(text: str) -> list[Quantity]:
    """Every number in `text`, with its unit when one follows it (or a currency symbol precedes it)."""
    out: list[Quantity] = []
    for m in _QUANTITY_RE.finditer(text):
        raw = m.group("n1") or m.group("n2")
        value = to_number(raw.replace("−", "-").replace("–", "-"))
        if value is None:
            continue
        token = m.group("sym") or m.group("unit")
        unit, kind = _unit_of(token)
        if unit is None and token and token.lower() in _DEGREE_WORDS:
            rest = text[m.end():].split()
            unit, kind = _unit_of(rest[0]) if rest else (None, None)
            unit, kind = (unit, kind) if kind == _TEMPERATURE else ("celsius", _TEMPERATURE)
        out.append(Quantity(float(value), unit, kind, m.group(0).strip(), _tolerance(raw)))
    return out


@lru_cache(maxsize=4096)
def _converted(value: float, unit: str, kind: str, target: str) -> float | None:
    """`value` in `unit` expressed in `target` by the World (None when it cannot convert)."""
    if unit == target:
        return value
    world = World(sleep=False)
    call = (Call("convert_currency", {"amount": value, "from_currency": unit, "to_currency": target})
            if kind == "currency" else Call("convert_units", {"value": value, "from_unit": unit, "to_unit": target}))
    result = world.execute(call)
    if not result.ok:
        return None
    numbers = [q.value for q in quantities(result.output.split("=")[-1])]
    return numbers[0] if numbers else None


_OUTPUTS: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}


def _call_outputs(scenario: Scenario) -> tuple[tuple[str, str], ...]:
    """(tool, World output) of every call of the scenario, required, allowed and tempting; the tempting ones
    run once per scenario (id + question: ids are unique)."""
    key = (scenario.id, scenario.question)
    if key not in _OUTPUTS:
        world = World(sleep=False)
        _OUTPUTS[key] = tuple([(c.name, c.output) for c in (*scenario.required_calls, *scenario.allowed_calls)]
                              + [(c.name, world.execute(c).output) for c in scenario.tempting_calls])
    return _OUTPUTS[key]


def _scenario_texts(scenario: Scenario) -> list[str]:
    return [scenario.question, scenario.reference, *(output for _, output in _call_outputs(scenario))]


_FACTS: dict[tuple[str, str], tuple[Quantity, ...]] = {}


def _facts(scenario: Scenario) -> tuple[Quantity, ...]:
    """The scenario's fact quantities, computed once per scenario (id + question: ids are unique)."""
    key = (scenario.id, scenario.question)
    if key not in _FACTS:
        _FACTS[key] = tuple(q for text in _scenario_texts(scenario) for q in quantities(text))
    return _FACTS[key]


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= max(tolerance, 0.005 * abs(b)) + 1e-9


def _supported(q: Quantity, facts: Sequence[Quantity]) -> bool:
    for f in facts:
        if f.unit is None:
            if _close(q.value, f.value, q.tolerance):
                return True
        elif f.kind == q.kind and q.unit is not None:
            converted = _converted(f.value, f.unit, f.kind or "", q.unit)
            if converted is not None and _close(q.value, converted, q.tolerance):
                return True
    return False


def clock_times(text: str) -> list[tuple[str, frozenset[int]]]:
    """Every clock time in `text` ("07:05", "3:05 PM", "15:05"), with the minutes of the day it can mean: one
    value with a 24-hour hour or an am/pm mark, both halves of the day for a bare 1-12 hour ("3:05")."""
    out = []
    for m in _CLOCK_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
        if hour > 23 or minute > 59:
            continue
        if half:
            hours = {hour % 12 + (12 if half == "p" else 0)}
        else:
            hours = {hour, hour + 12} if 1 <= hour <= 11 else {hour}
        out.append((m.group(0).strip(), frozenset(h * 60 + minute for h in hours)))
    return out


# Weather the World reports, by what it says about the sky: a clear sky against precipitation is the conflict
# a reader cannot let pass ("sunny" where it rains); clouds, fog and wind go with either and are not judged.
_CLEAR_SKY = ("sunny", "sun", "clear", "солнечн", "солнце", "ясн")
_PRECIPITATION = ("rain", "drizzl", "shower", "snow", "thunder", "storm",
                  "дожд", "ливн", "ливен", "снег", "снеж", "гроз")
_NEGATIONS = frozenset({"not", "no", "isn't", "isnt", "aren't", "without", "never", "не", "нет", "без", "ни"})
_HYPOTHETICAL = frozenset({"if", "whether", "unless", "если", "ли", "когда"})
_WORD_RE = re.compile(r"[\w']+", re.UNICODE)


def _sky(word: str) -> str | None:
    w = word.lower()
    if w.startswith(_PRECIPITATION):
        return "precipitation"
    if w.startswith(_CLEAR_SKY) and not w.startswith(("sunday", "sunset", "sunrise", "clearly")):
        return "clear"
    return None


def _asserted_skies(text: str) -> list[tuple[str, str]]:
    """(word, sky) for each sky word `text` asserts: not negated and not in a condition ("if it's sunny")
    within the four words before it."""
    words = _WORD_RE.findall(text)
    out = []
    for i, w in enumerate(words):
        sky = _sky(w)
        before = {x.lower() for x in words[max(0, i - 4):i]}
        if sky and not before & _NEGATIONS and not before & _HYPOTHETICAL:
            out.append((w, sky))
    return out


def contradicted_sky(scenario: Scenario, answer: str) -> list[str]:
    """The sky words of `answer` that contradict the World's weather: judged only when the scenario's World
    reports the weather of one place, as clear sky or as precipitation."""
    weather = [c.output for c in (*scenario.required_calls, *scenario.allowed_calls) if c.name == "get_weather"]
    if len(weather) != 1:
        return []
    skies = {sky for _, sky in _asserted_skies(weather[0].split(",", 1)[-1])}
    if len(skies) != 1:
        return []
    return [w for w, sky in _asserted_skies(answer) if sky not in skies]


# Where one clause ends: a sentence end, a comma or a dash between words (not a decimal point or comma).
_CLAUSE_SPLIT_RE = re.compile(r"[.;!?\n]+(?:\s|$)|,\s|\s[—–-]\s|\(|\)")
# A clause with one of these compares or aggregates: its temperature belongs to no one place.
_COMPARING_RE = re.compile(
    r"\b(?:than|vs|versus|difference|differ\w*|warmer|colder|cooler|hotter|higher|lower|above|below|more|less|"
    r"average|mean|both|each|чем|разниц\w*|тепл\w*е|холодн\w*е|выше|ниже|больше|меньше|средн\w*|обоих|оба)\b",
    re.IGNORECASE)
_RU_ENDINGS = "аяоеиыйь"


def _place_stem(name: str) -> str:
    """What a mention of the place starts with: the name, or a Russian name without its nominative ending
    ("москв" finds "в Москве", "казан" finds "в Казани")."""
    name = name.casefold()
    if re.search("[а-я]", name) and len(name) > 4 and name[-1] in _RU_ENDINGS:
        return name[:-1]
    return name


_PLACES: dict[tuple[str, str], tuple[tuple[str, Quantity, re.Pattern], ...]] = {}


def _weather_places(scenario: Scenario) -> tuple[tuple[str, Quantity, re.Pattern], ...]:
    """(city, temperature, a pattern finding a mention of the city in casefolded text) of every get_weather
    output "City: 12°C, rain" among the scenario's calls, computed once per scenario."""
    key = (scenario.id, scenario.question)
    if key not in _PLACES:
        places = []
        for tool, output in _call_outputs(scenario):
            city, sep, rest = output.partition(":")
            temps = [q for q in quantities(rest) if q.kind == _TEMPERATURE] if tool == "get_weather" and sep else []
            names = CITIES.names(city.strip())
            if temps and names:
                stems = dict.fromkeys(re.escape(_place_stem(n)) for n in names)
                places.append((city.strip(), temps[0], re.compile(r"(?<!\w)(?:" + "|".join(stems) + ")")))
        _PLACES[key] = tuple(places)
    return _PLACES[key]


def _misplaced_temperatures(scenario: Scenario, answer: str) -> list[str]:
    """Temperatures the answer gives a place the World reports another temperature for (module docstring)."""
    weather = _weather_places(scenario)
    if not weather:
        return []
    wrong = []
    for clause in _CLAUSE_SPLIT_RE.split(answer):
        low = clause.casefold()
        if _COMPARING_RE.search(low):
            continue
        temps = [q for q in quantities(clause) if q.kind == _TEMPERATURE]
        if len(temps) != 1:
            continue
        for city, temp, mention in weather:
            if mention.search(low) and not _supported(temps[0], (temp,)):
                wrong.append(f"{temps[0].text} in {city}")
    return wrong


def contradicted_quantities(scenario: Scenario, answer: str) -> list[str]:
    """The quantities and clock times of `answer` (as written) that contradict the scenario's facts (module
    docstring; a clock time is judged when the facts hold one, and is supported when it can mean one of
    theirs)."""
    facts = _facts(scenario)
    kinds = {f.kind for f in facts if f.kind is not None}
    stated = quantities(answer)
    wrong = [q.text for q in stated if q.kind in kinds and not _supported(q, facts)]
    wrong += _misplaced_temperatures(scenario, answer)
    if _BARE_NUMBER_RE.fullmatch(answer) and len(stated) == 1 and stated[0].unit is None:
        bare = stated[0]
        if not any(_close(bare.value, f.value, bare.tolerance) for f in facts):
            wrong.append(bare.text)
    fact_clocks = frozenset().union(*(minutes for text in _scenario_texts(scenario)
                                      for _, minutes in clock_times(text)))
    if fact_clocks:
        wrong += [written for written, minutes in clock_times(answer) if not minutes & fact_clocks]
    return wrong + contradicted_sky(scenario, answer)

