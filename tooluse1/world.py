"""A deterministic world behind the nine tools: `World().execute(call) -> ToolResult`.

The SPIN track executes plan steps here, and the scenarios' required calls are checked against it. Every
answer comes from a fixed table or an exact formula, so the same call always gives the same output:

    get_weather       WEATHER: canonical city -> (°C, condition); fahrenheit = C * 9/5 + 32, exactly
    get_time          local time at REFERENCE_UTC (Monday 2026-01-12 06:05 UTC) in the IANA zone (zoneinfo)
    web_search        SEARCH_TOPICS: the most specific topic whose keywords all occur in the query (Russian
                      words by stem, as the grader matches them); no topic -> "No results found ..."
    translate         TRANSLATIONS: (text, target) -> translation; other text -> "[<target>] <text>"
    calculator        tooluse1.evaluator.evaluate; an expression it cannot evaluate is an error
    convert_currency  RATES (units of a currency per 1 USD), Decimal arithmetic, rounded half-up to 2 places
    convert_units     UNIT_FACTORS (exact fractions of a base unit per dimension); temperatures by formula
    set_timer         a confirmation with a per-World id (timer-1, timer-2, ...)
    save_note         a confirmation with a per-World id (note-1, ...); the notes are kept in `World.notes`

Arguments are normalised with the grader's own alias tables (tools.CITIES, TIMEZONES, CURRENCIES, UNITS,
LANGUAGES) and tool names through `canonical_tool_name`, so "СПб", "Saint Petersburg" and "spb" give the
same weather, and `weather(city="Питер")` is get_weather. Numeric arguments may be numbers or numeric
strings (XML protocols carry no types). Arguments a tool does not declare are ignored, as the grader
tolerates them. Every failure (unknown tool, missing required argument, a value of the wrong type, an
unknown city, currency, unit or time zone, an unevaluable expression) is a ToolResult with ok=False and
an error message; `execute` never raises.

The multi-step histories of the core corpus (cases/*/multi_step.yaml) are authored and the tables here
are derived from them: tests_grader/test_world.py checks that executing each history's call gives the
history's tool result (same temperature and condition, value, converted amount, time).

Numbers in outputs are written without thousands separators, "." as the decimal point, trailing zeros
dropped (except currency amounts, which always carry 2 decimals), so a number taken from an output and
passed to the next call reads back the same.
"""
from __future__ import annotations

import datetime as _dt
import math
import re
import time
import zoneinfo
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any, Mapping

from tooluse1.errors import ToolUse1Error
from tooluse1.evaluator import evaluate
from tooluse1.tools import (
    CITIES,
    CURRENCIES,
    LANGUAGES,
    TIMEZONES,
    TOOLS,
    UNITS,
    WEATHER_UNITS,
    Call,
    canonical_tool_name,
    norm_text,
    to_integer,
    to_number,
)

__all__ = [
    "CONDITIONS_RU",
    "RATES",
    "REFERENCE_UTC",
    "SEARCH_TOPICS",
    "TOOL_LATENCY_S",
    "TRANSLATIONS",
    "UNIT_FACTORS",
    "WEATHER",
    "SearchTopic",
    "ToolResult",
    "World",
    "format_number",
    "numbers_in",
]

# ----------------------------------------------------------------------------- tables

# Simulated latency of one call, per tool, in seconds: what a remote service of that kind costs (a web
# search is a round trip to an index, a calculator is local). The SPIN track accounts these as the tools'
# share of a run's elapsed time (World(latency_s=TOOL_LATENCY_S, sleep=False)) instead of sleeping, so the
# elapsed-time savings the paper reports are measurable without waiting for them.
TOOL_LATENCY_S: dict[str, float] = {
    "web_search": 1.5, "get_weather": 0.8, "convert_currency": 0.5, "translate": 0.6, "get_time": 0.2,
    "save_note": 0.3, "set_timer": 0.3, "convert_units": 0.05, "calculator": 0.05,
}

# The world's "now". A Monday, so that the corpus history "Europe/Vienna: 07:05, Monday" holds.
REFERENCE_UTC = _dt.datetime(2026, 1, 12, 6, 5, tzinfo=_dt.timezone.utc)

# Canonical city -> (temperature °C, condition). Madrid and Moscow are fixed by the corpus histories.
WEATHER: dict[str, tuple[int, str]] = {
    "Berlin": (14, "cloudy"),
    "Paris": (18, "sunny"),
    "London": (11, "rain"),
    "Moscow": (-3, "snow"),
    "Saint Petersburg": (-6, "cloudy"),
    "Tokyo": (9, "clear"),
    "New York": (5, "windy"),
    "Madrid": (24, "sunny"),
    "Rome": (21, "partly cloudy"),
    "Kazan": (-8, "snow"),
    "Novosibirsk": (-15, "clear"),
    "Sochi": (12, "rain"),
    "Yekaterinburg": (-11, "snow"),
    "Vladivostok": (-9, "windy"),
    "Kaliningrad": (2, "fog"),
    "Beijing": (1, "clear"),
    "Sydney": (27, "sunny"),
    "Los Angeles": (22, "sunny"),
    "Chicago": (-2, "overcast"),
    "Dubai": (31, "sunny"),
    "Istanbul": (13, "light rain"),
    "Amsterdam": (9, "rain"),
    "Prague": (6, "overcast"),
    "Vienna": (4, "cloudy"),
    "Warsaw": (3, "fog"),
    "Helsinki": (-4, "snow"),
    "Toronto": (-1, "cloudy"),
    "Singapore": (30, "thunderstorm"),
    "Seoul": (0, "clear"),
    "Mumbai": (32, "sunny"),
    "Cairo": (23, "sunny"),
    "Lisbon": (17, "partly cloudy"),
    "Barcelona": (19, "sunny"),
    "Minsk": (-5, "overcast"),
    "Almaty": (-7, "clear"),
    "Tbilisi": (8, "partly cloudy"),
    "Riga": (-2, "snow"),
    "Oslo": (-6, "clear"),
    "Stockholm": (-3, "cloudy"),
    "Washington": (7, "rain"),
    "San Francisco": (15, "fog"),
    "Murmansk": (-18, "snow"),
    "Irkutsk": (-21, "clear"),
}

# Conditions in Russian (for comparing with Russian-language tool results and writing RU answers).
CONDITIONS_RU: dict[str, str] = {
    "sunny": "солнечно", "clear": "ясно", "partly cloudy": "переменная облачность", "cloudy": "облачно",
    "overcast": "пасмурно", "rain": "дождь", "light rain": "небольшой дождь", "snow": "снег",
    "fog": "туман", "windy": "ветрено", "thunderstorm": "гроза",
}

# Units of each currency per 1 USD. RUB is fixed by the corpus history "100 USD = 9250 RUB".
RATES: dict[str, Decimal] = {code: Decimal(rate) for code, rate in {
    "USD": "1", "EUR": "0.92", "RUB": "92.5", "GBP": "0.79", "JPY": "150", "CNY": "7.2", "CHF": "0.88",
    "KZT": "500", "TRY": "32", "AED": "3.6725", "INR": "83", "CAD": "1.35", "AUD": "1.5", "BYN": "3.25",
    "GEL": "2.7", "SEK": "10.5", "NOK": "10.6", "PLN": "4", "CZK": "23", "KRW": "1330",
}.items()}

# Dimension -> unit -> size in the dimension's base unit (exact). Data sizes are binary (1 KB = 1024 B).
UNIT_FACTORS: dict[str, dict[str, Fraction]] = {dim: {u: Fraction(f) for u, f in table.items()} for dim, table in {
    "length": {"m": "1", "km": "1000", "cm": "0.01", "mm": "0.001", "mi": "1609.344", "ft": "0.3048",
               "in": "0.0254", "yd": "0.9144"},
    "mass": {"kg": "1", "g": "0.001", "mg": "0.000001", "lb": "0.45359237", "oz": "0.028349523125",
             "t": "1000"},
    "volume": {"l": "1", "ml": "0.001", "gal": "3.785411784", "cup": "0.2365882365"},
    "speed": {"m/s": "1", "km/h": "5/18", "mph": "0.44704", "knot": "463/900"},
    "area": {"m2": "1", "ft2": "0.09290304", "ha": "10000", "acre": "4046.8564224"},
    "data": {"B": "1", "KB": "1024", "MB": "1048576", "GB": "1073741824", "TB": "1099511627776"},
    "time": {"s": "1", "min": "60", "h": "3600", "day": "86400", "week": "604800"},
}.items()}
_TEMPERATURES = ("celsius", "fahrenheit", "kelvin")
_UNIT_DIMENSION = {u: dim for dim, table in UNIT_FACTORS.items() for u in table}
_UNIT_SYMBOL = {"celsius": "°C", "fahrenheit": "°F", "kelvin": "K"}


@dataclass(frozen=True)
class SearchTopic:
    """A search topic: it matches a query that contains every keyword (any one of the keyword sets)."""

    keywords: tuple[tuple[str, ...], ...]
    results: tuple[str, ...]


SEARCH_TOPICS: tuple[SearchTopic, ...] = (
    SearchTopic((("james", "webb"), ("webb",), ("jwst",), ("джеймс", "уэбб")), (
        "James Webb Space Telescope — NASA: the largest space telescope, launched on 25 December 2021 (nasa.gov)",
        "Webb's latest images: galaxies, nebulae and exoplanet atmospheres (webbtelescope.org)",
        "How the James Webb telescope works, explained (space.com)",
    )),
    SearchTopic((("nobel", "literature"), ("нобелевск", "литератур")), (
        "The Nobel Prize in Literature 2024 was awarded to Han Kang (nobelprize.org)",
        "Han Kang: 'for her intense poetic prose that confronts historical traumas' (nobelprize.org)",
        "All Nobel Prizes in Literature, 1901 to today (nobelprize.org)",
    )),
    SearchTopic((("mechanical", "keyboard"), ("механическ", "клавиатур")), (
        "The best mechanical keyboards, tested: tactile, linear and clicky switches compared (rtings.com)",
        "Mechanical keyboard buying guide: switches, layouts and keycaps (theverge.com)",
        "Budget mechanical keyboards under $100 (tomshardware.com)",
    )),
    SearchTopic((("vegan", "lasagna"), ("веганск", "лазань")), (
        "Easy vegan lasagna with cashew ricotta — 1 h 15 min (minimalistbaker.com)",
        "Vegan lasagna with lentil bolognese and spinach (bbcgoodfood.com)",
        "The best vegan lasagna recipe, make-ahead friendly (loveandlemons.com)",
    )),
    SearchTopic((("lagos", "population"), ("лагос",)), (
        "Lagos: population of the metropolitan area about 16.5 million (2024 estimate) (worldpopulationreview.com)",
        "Lagos, Nigeria — the largest city in Africa by population (britannica.com)",
    )),
    SearchTopic((("louvre",), ("лувр",)), (
        "Louvre Museum: open 9:00-18:00, closed on Tuesdays; a full-price ticket costs 22 EUR (louvre.fr)",
        "Book Louvre tickets online: timed entry, free for visitors under 18 (louvre.fr)",
        "Louvre highlights: the Mona Lisa, the Venus de Milo, the Winged Victory (timeout.com)",
    )),
    SearchTopic((("python", "3.13"), ("python",)), (
        "What's New In Python 3.13 — free-threaded build, new interactive REPL, JIT (docs.python.org)",
        "Python 3.13.0 was released on 7 October 2024 (python.org)",
        "Python release schedule and supported versions (devguide.python.org)",
    )),
    SearchTopic((("boeing", "ceo"), ("boeing",), ("боинг",)), (
        "Boeing names Kelly Ortberg President and Chief Executive Officer (boeing.com)",
        "Kelly Ortberg took over as Boeing CEO in August 2024 (reuters.com)",
    )),
    SearchTopic((("эрмитаж",), ("hermitage",)), (
        "Государственный Эрмитаж: открыт 11:00-18:00, по средам и пятницам до 21:00, выходной — понедельник (hermitagemuseum.org)",
        "Билет в Главный штаб и Зимний дворец стоит 500 RUB (hermitagemuseum.org)",
        "Как купить билет в Эрмитаж онлайн (spb.ru)",
    )),
    SearchTopic((("starship",),), (
        "SpaceX Starship: next integrated flight test scheduled from Starbase, Texas (spacex.com)",
        "Starship launch: live coverage and flight test updates (space.com)",
    )),
    SearchTopic((("биткоин",), ("bitcoin",), ("btc",)), (
        "Bitcoin (BTC): 1 BTC = 97250 USD (coinmarketcap.com)",
        "BTC/USD price chart and market cap (coingecko.com)",
    )),
    SearchTopic((("фарго",), ("fargo",)), (
        "«Фарго» (Fargo), сезон 5: премьера 21 ноября 2023 года, 10 эпизодов (kinopoisk.ru)",
        "Fargo season 5 — cast, episodes and reviews (fxnetworks.com)",
    )),
    SearchTopic((("eiffel",), ("эйфелев",)), (
        "The Eiffel Tower is 330 m tall including its antennas (toureiffel.paris)",
        "Eiffel Tower tickets and opening hours: 9:30-23:00 (toureiffel.paris)",
    )),
    SearchTopic((("останкинск",), ("ostankino",)), (
        "Останкинская телебашня: высота 540 м, самое высокое сооружение в Европе (tvtower.ru)",
        "Экскурсии на смотровую площадку Останкинской башни (tvtower.ru)",
    )),
    SearchTopic((("everest",), ("эверест",)), (
        "Mount Everest is 8849 m above sea level (2020 survey by China and Nepal) (britannica.com)",
        "Everest climbing season: permits, routes and base camps (nationalgeographic.com)",
    )),
    SearchTopic((("burj", "khalifa"), ("бурдж",)), (
        "Burj Khalifa, Dubai: the world's tallest building at 828 m (burjkhalifa.ae)",
        "At the Top, Burj Khalifa: observation decks on levels 124, 125 and 148 (burjkhalifa.ae)",
    )),
    SearchTopic((("marathon",), ("марафон",)), (
        "The official marathon distance is 42.195 km (worldathletics.org)",
        "Marathon training plans for beginners (runnersworld.com)",
    )),
    SearchTopic((("baikal",), ("байкал",)), (
        "Lake Baikal: the deepest lake in the world, 1642 m at its deepest point (baikal.ru)",
        "Байкал: максимальная глубина 1642 м, длина озера 636 км (baikal.ru)",
    )),
    SearchTopic((("ps5",), ("playstation",)), (
        "PlayStation 5 Digital Edition: 449.99 USD at the PlayStation Store (playstation.com)",
        "PS5 deals this week (ign.com)",
    )),
)

# (normalised text, target language) -> translation. The corpus phrases plus the scenarios' phrases.
_TRANSLATIONS_RAW: tuple[tuple[str, str, str], ...] = (
    ("Good luck with your exam", "fr", "Bonne chance pour ton examen"),
    ("Good luck with your exam", "de", "Viel Glück bei deiner Prüfung"),
    ("Доброе утро, коллеги", "en", "Good morning, colleagues"),
    ("Доброе утро, коллеги", "de", "Guten Morgen, Kollegen"),
    ("Where is the train station?", "de", "Wo ist der Bahnhof?"),
    ("thank you very much", "ja", "どうもありがとうございます"),
    ("I would like a coffee, please", "fr", "Je voudrais un café, s'il vous plaît"),
    ("The meeting has been moved to Thursday", "es", "La reunión se ha trasladado al jueves"),
    ("Dove si trova il museo?", "en", "Where is the museum?"),
    ("Happy birthday, I love you", "uk", "З днем народження, я тебе кохаю"),
    ("Please send the invoice by Friday", "zh", "请在周五之前发送发票"),
    ("Obrigado pela sua ajuda", "en", "Thank you for your help"),
    ("Где находится ближайшая аптека?", "en", "Where is the nearest pharmacy?"),
    ("Спасибо за помощь", "de", "Danke für die Hilfe"),
    ("I will call you back in an hour.", "ru", "Я перезвоню вам через час."),
    ("Извините за задержку с ответом", "ja", "返信が遅れて申し訳ありません"),
    ("Я не говорю по-итальянски", "it", "Non parlo italiano"),
    ("See you tomorrow at the station", "es", "Nos vemos mañana en la estación"),
    ("The hotel breakfast starts at seven", "it", "La colazione in hotel inizia alle sette"),
    ("Can I pay by card?", "fr", "Puis-je payer par carte ?"),
    ("Can I pay by card?", "de", "Kann ich mit Karte bezahlen?"),
    ("Where can I buy an umbrella?", "fr", "Où puis-je acheter un parapluie ?"),
    ("Счёт, пожалуйста", "de", "Die Rechnung, bitte"),
    ("Счёт, пожалуйста", "it", "Il conto, per favore"),
    ("Мы опоздаем на десять минут", "en", "We will be ten minutes late"),
    ("Где здесь ближайшее метро?", "fr", "Où est la station de métro la plus proche ?"),
)
TRANSLATIONS: dict[tuple[str, str], str] = {(norm_text(src), lang): dst for src, lang, dst in _TRANSLATIONS_RAW}


# ----------------------------------------------------------------------------- results and helpers

@dataclass(frozen=True)
class ToolResult:
    """The outcome of one call. ok=False carries an error message and an empty output."""

    ok: bool
    output: str
    error: str | None
    latency_s: float

    def as_dict(self) -> dict:
        return asdict(self)


class _Bad(ToolUse1Error):
    """A user-caused failure inside a tool implementation; turned into ToolResult(ok=False)."""


_NUM_RE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    """Every decimal number written in `text` ("-3°C" -> -3.0, "9250.00 RUB" -> 9250.0), in order."""
    return [float(m) for m in _NUM_RE.findall(text)]


def format_number(x: float | Fraction | Decimal, places: int = 6) -> str:
    """`x` rounded half-up to `places` decimals, trailing zeros and a trailing point dropped, no '-0'."""
    with localcontext() as ctx:
        ctx.prec = 1000  # evaluate() caps values at 1e300; quantizing them needs ~310 + places digits
        if isinstance(x, Fraction):
            d = Decimal(x.numerator) / Decimal(x.denominator)
        else:
            d = Decimal(repr(x)) if isinstance(x, float) else Decimal(x)
        s = format(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _quantity(number: str, unit: str) -> str:
    """"14°C", "287.15 K", "45 min": degree symbols attach to the number as in weather outputs."""
    symbol = _UNIT_SYMBOL.get(unit, unit)
    return f"{number}{symbol}" if symbol.startswith("°") else f"{number} {symbol}"


def _money(d: Decimal) -> str:
    return format(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f")


def _word_in(keyword: str, words: set[str]) -> bool:
    """A keyword occurs as a word, or as the prefix of one (Russian inflection: "биткоин" ~ "биткоина")."""
    return keyword in words or any(w.startswith(keyword) and len(w) - len(keyword) <= 3 for w in words)


_WORDS_RE = re.compile(r"\w+(?:\.\w+)*", re.UNICODE)   # "python 3.13" -> python, 3.13


def _search_words(query: str) -> set[str]:
    return set(_WORDS_RE.findall(norm_text(query)))


# ----------------------------------------------------------------------------- the world

@dataclass
class World:
    """Deterministic implementations of the nine tools.

    `latency_s` is either one delay for every tool or a mapping tool name -> delay (tools not named get 0);
    `execute` sleeps that long (unless sleep=False) and reports it in ToolResult.latency_s, so simulated
    latency is reproducible. Timer and note ids count up per World: a fresh World gives the same ids for
    the same sequence of calls.
    """

    latency_s: Mapping[str, float] | float = 0.0
    sleep: bool = True
    notes: list[dict[str, str]] = field(default_factory=list)
    timers: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.latency_s, Mapping):
            unknown = sorted(set(self.latency_s) - set(TOOLS))
            if unknown:
                raise ValueError(f"latency_s names unknown tools {unknown}; known: {', '.join(TOOLS)}")
            values = list(self.latency_s.values())
        else:
            values = [self.latency_s]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"latency_s must be a non-negative number of seconds, got {v!r}")

    def latency_for(self, tool: str) -> float:
        """The simulated latency of one call of `tool` (canonical name), in seconds."""
        if isinstance(self.latency_s, Mapping):
            return float(self.latency_s.get(tool, 0.0))
        return float(self.latency_s)

    def execute(self, call: Call) -> ToolResult:
        """Run one call. Never raises: every failure is ToolResult(ok=False, output="", error=...)."""
        name = canonical_tool_name(call.name) if isinstance(call.name, str) else ""
        if name not in TOOLS:
            return ToolResult(False, "", f"unknown tool {call.name!r}; known: {', '.join(TOOLS)}", 0.0)
        latency = self.latency_for(name)
        if latency and self.sleep:
            time.sleep(latency)
        try:
            args = self._check_arguments(name, call.arguments)
            output = getattr(self, f"_{name}")(**args)
        except _Bad as e:
            return ToolResult(False, "", f"{name}: {e}", latency)
        except (ArithmeticError, ValueError, TypeError) as e:
            # e.g. a 400-digit integer argument: tools.to_number / evaluator.evaluate overflow on it
            return ToolResult(False, "", f"{name}: cannot use these arguments ({type(e).__name__}: {e})", latency)
        return ToolResult(True, output, None, latency)

    # --------------------------------------------------------------------- argument checking

    @staticmethod
    def _check_arguments(name: str, arguments: Any) -> dict[str, Any]:
        """Typed arguments the tool declares; undeclared ones are dropped. Raises _Bad on a bad value."""
        if not isinstance(arguments, Mapping):
            raise _Bad(f"arguments must be an object, got {type(arguments).__name__}")
        spec = TOOLS[name]
        for req in spec.required:
            if req not in arguments or arguments[req] is None:
                raise _Bad(f"missing required argument {req!r}")
        out: dict[str, Any] = {}
        for pname, value in arguments.items():
            p = spec.param_index.get(pname)
            if p is None or value is None:
                continue
            if p.match == "expression":
                if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                    raise _Bad(f"{pname} must be a string, got {value!r}")
                out[pname] = value
            elif p.type == "number":
                num = to_number(value)
                if num is None or not math.isfinite(num):
                    raise _Bad(f"{pname} must be a number, got {value!r}")
                out[pname] = num
            elif p.type == "integer":
                num = to_integer(value)
                if num is None:
                    raise _Bad(f"{pname} must be an integer, got {value!r}")
                out[pname] = num
            else:
                if not isinstance(value, str) or not value.strip():
                    raise _Bad(f"{pname} must be a non-empty string, got {value!r}")
                out[pname] = value
        return out

    # --------------------------------------------------------------------- the tools

    def _calculator(self, expression: str | float) -> str:
        value = evaluate(expression)
        if value is None:
            raise _Bad(f"cannot evaluate {expression!r} (arithmetic only: + - * / ** %, parentheses, sqrt)")
        if value.is_integer():  # exact digits for integral results (2**200), not repr's 17 significant
            return str(int(value)) if value else "0"
        return format_number(value, places=10)

    def _get_weather(self, city: str, unit: str = "celsius") -> str:
        canon = CITIES.lookup(city)
        if canon is None or canon not in WEATHER:
            raise _Bad(f"no weather data for city {city!r}")
        u = UNITS.lookup(unit)
        if u not in WEATHER_UNITS:
            raise _Bad(f"unit must be one of {list(WEATHER_UNITS)}, got {unit!r}")
        temp_c, condition = WEATHER[canon]
        if u == "fahrenheit":
            return f"{canon}: {format_number(Fraction(temp_c) * 9 / 5 + 32)}°F, {condition}"
        return f"{canon}: {temp_c}°C, {condition}"

    def _get_time(self, timezone: str) -> str:
        canon = TIMEZONES.lookup(timezone)
        if canon is None:
            raw = timezone.strip()
            try:  # any other valid IANA zone ("Asia/Kathmandu") is still a time zone
                zoneinfo.ZoneInfo(raw)
                canon = raw if "/" in raw else None
            except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
                canon = None
        if canon is None:
            raise _Bad(f"unknown time zone {timezone!r} (use an IANA name such as Europe/Moscow)")
        local = REFERENCE_UTC.astimezone(zoneinfo.ZoneInfo(canon))
        return f"{canon}: {local:%H:%M}, {local:%A}"

    def _web_search(self, query: str, num_results: int = 5) -> str:
        if not 1 <= num_results <= 10:
            raise _Bad(f"num_results must be between 1 and 10, got {num_results}")
        words = _search_words(query)
        best: SearchTopic | None = None
        best_size = 0
        for topic in SEARCH_TOPICS:
            for kws in topic.keywords:
                if len(kws) > best_size and all(_word_in(k, words) for k in kws):
                    best, best_size = topic, len(kws)
        if best is None:
            return f"No results found for {query.strip()!r}."
        return "\n".join(f"{i}. {r}" for i, r in enumerate(best.results[:num_results], 1))

    def _translate(self, text: str, target_language: str, source_language: str | None = None) -> str:
        target = LANGUAGES.lookup(target_language)
        if target is None:
            raise _Bad(f"unknown target language {target_language!r} (use an ISO 639-1 code such as 'de')")
        if source_language is not None:
            source = LANGUAGES.lookup(source_language)
            if source is None:
                raise _Bad(f"unknown source language {source_language!r}")
            if source == target:
                return text.strip()
        found = TRANSLATIONS.get((norm_text(text), target))
        return found if found is not None else f"[{target}] {text.strip()}"

    def _convert_currency(self, amount: float, from_currency: str, to_currency: str) -> str:
        src, dst = CURRENCIES.lookup(from_currency), CURRENCIES.lookup(to_currency)
        for given, canon in ((from_currency, src), (to_currency, dst)):
            if canon is None or canon not in RATES:
                raise _Bad(f"unknown currency {given!r} (use an ISO 4217 code such as 'EUR')")
        assert src is not None and dst is not None
        try:
            value = Decimal(repr(amount)) / RATES[src] * RATES[dst]
        except InvalidOperation as e:  # pragma: no cover - to_number already refused non-finite values
            raise _Bad(f"cannot convert {amount!r}") from e
        return f"{format_number(amount)} {src} = {_money(value)} {dst}"

    def _convert_units(self, value: float, from_unit: str, to_unit: str) -> str:
        src, dst = UNITS.lookup(from_unit), UNITS.lookup(to_unit)
        for given, canon in ((from_unit, src), (to_unit, dst)):
            if canon is None:
                raise _Bad(f"unknown unit {given!r}")
        assert src is not None and dst is not None
        v = Fraction(repr(value))
        if src in _TEMPERATURES or dst in _TEMPERATURES:
            if not (src in _TEMPERATURES and dst in _TEMPERATURES):
                raise _Bad(f"cannot convert {src} to {dst}")
            kelvin = {"celsius": v + Fraction("273.15"), "kelvin": v,
                      "fahrenheit": (v - 32) * Fraction(5, 9) + Fraction("273.15")}[src]
            if kelvin < 0:
                raise _Bad(f"{format_number(value)} {src} is below absolute zero")
            result = {"kelvin": kelvin, "celsius": kelvin - Fraction("273.15"),
                      "fahrenheit": (kelvin - Fraction("273.15")) * Fraction(9, 5) + 32}[dst]
        else:
            dim_src, dim_dst = _UNIT_DIMENSION.get(src), _UNIT_DIMENSION.get(dst)
            if dim_src is None or dim_src != dim_dst:
                raise _Bad(f"cannot convert {src} ({dim_src}) to {dst} ({dim_dst})")
            result = v * UNIT_FACTORS[dim_src][src] / UNIT_FACTORS[dim_src][dst]
        return f"{_quantity(format_number(value), src)} = {_quantity(format_number(result), dst)}"

    def _set_timer(self, duration_seconds: int, label: str | None = None) -> str:
        if not 1 <= duration_seconds <= 7 * 86400:
            raise _Bad(f"duration_seconds must be between 1 and 604800 (one week), got {duration_seconds}")
        timer_id = f"timer-{len(self.timers) + 1}"
        self.timers.append({"id": timer_id, "duration_seconds": duration_seconds, "label": label})
        h, rest = divmod(duration_seconds, 3600)
        m, s = divmod(rest, 60)
        shown = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
        named = f', label "{label.strip()}"' if label else ""
        return f"Timer {timer_id} started: {duration_seconds} s ({shown}){named}."

    def _save_note(self, text: str, title: str | None = None) -> str:
        note_id = f"note-{len(self.notes) + 1}"
        self.notes.append({"id": note_id, "text": text, "title": title or ""})
        titled = f' with title "{title.strip()}"' if title else ""
        return f'Note {note_id} saved{titled}: "{text.strip()}"'
