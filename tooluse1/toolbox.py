"""The nine built-in tools, each declared once: schema, comparison kinds, other names, clarification terms,
example values and the simulation the World runs (tooluse1.toolspec says what each field means).

Parameter names and required lists are part of the benchmark's contract (DESIGN.md); descriptions are
what the prompts show (changing one changes the prompts' digest). Every simulation answers from a fixed
table or an exact formula, so the same call always gives the same output:

    calculator        tooluse1.evaluator.evaluate; an expression it cannot evaluate is an error
    get_weather       WEATHER: canonical city -> (°C, condition); fahrenheit = C * 9/5 + 32, exactly
    web_search        SEARCH_TOPICS: the most specific topic whose keywords all occur in the query (Russian
                      words by stem, as the grader matches them); no topic -> "No results found ..."
    translate         TRANSLATIONS: (text, target) -> translation; other text -> "[<target>] <text>"
    convert_currency  RATES (units of a currency per 1 USD), Decimal arithmetic, rounded half-up to 2 places
    convert_units     UNIT_FACTORS (exact fractions of a base unit per dimension); temperatures by formula
    set_timer         a confirmation with a per-World id (timer-1, timer-2, ...)
    save_note         a confirmation with a per-World id (note-1, ...); the notes are the World's records
    get_time          local time at REFERENCE_UTC (Monday 2026-01-12 06:05 UTC) in the IANA zone (zoneinfo)

Values are read with the grader's own alias tables (tooluse1.aliases), so "СПб", "Saint Petersburg" and
"spb" give the same weather. The multi-step histories of the core corpus (cases/*/multi_step.yaml) are
authored and the tables here are derived from them: tests_grader/test_world.py checks that executing each
history's call gives the history's tool result.

Numbers in outputs are written without thousands separators, "." as the decimal point, trailing zeros
dropped (except currency amounts, which always carry 2 decimals), so a number taken from an output and
passed to the next call reads back the same.

Simulated latency (`latency_s`) is what a remote service of that kind costs (a web search is a round trip
to an index, a calculator is local). The SPIN track accounts these as the tools' share of a run's elapsed
time (World(latency_s=TOOL_LATENCY_S, sleep=False)) instead of sleeping, so the elapsed-time savings the
paper reports are measurable without waiting for them.
"""
from __future__ import annotations

import datetime as _dt
import re
import zoneinfo
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any

from tooluse1.aliases import CITIES, CURRENCIES, LANGUAGES, TIMEZONES, UNITS, norm_text
from tooluse1.evaluator import evaluate
from tooluse1.toolspec import Param, Tool, ToolFailure

__all__ = ["BUILTIN_TOOLS", "CONDITIONS_RU", "RATES", "REFERENCE_UTC", "SEARCH_TOPICS", "TRANSLATIONS",
           "UNIT_FACTORS", "WEATHER", "WEATHER_UNITS", "SearchTopic", "format_number"]

# ----------------------------------------------------------------------------- numbers in outputs

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


# ----------------------------------------------------------------------------- shared clarification terms

# Written as what people say when asking for that argument; the tool's noun on its own ("timer", "note")
# is deliberately absent, since "Shall I save a note?" does not ask what the note says.
_CITY_EN = ("city", "cities", "town*", "where", "whereabouts", "location*", "place", "area", "region*", "country",
            "countries", "zip", "postcode", "postal code")
_CITY_RU = ("город*", "где", "куда", "мест*", "местоположени*", "населенн* пункт*", "локаци*", "регион*",
            "район*", "стран*", "област*")
_TARGET_EN = ("into what", "into which", "to what", "to which")

# ----------------------------------------------------------------------------- calculator

def _calculator(_records: list[dict[str, Any]], expression: str | float) -> str:
    value = evaluate(expression)
    if value is None:
        raise ToolFailure(f"cannot evaluate {expression!r} (arithmetic only: + - * / ** %, parentheses, sqrt)")
    if value.is_integer():  # exact digits for integral results (2**200), not repr's 17 significant
        return str(int(value)) if value else "0"
    return format_number(value, places=10)


CALCULATOR = Tool("calculator", "Evaluate an arithmetic expression exactly (+ - * / ** %, parentheses, sqrt).", (
    Param("expression", "string", "Arithmetic expression using digits and operators, e.g. '(45+12)*2'.",
          required=True, match="expression", example="2+2", ask={
              "en": ("expression*", "calculat*", "comput*", "equation*", "formula*", "math*", "number*", "numbers",
                     "sum", "what ... work out", "what ... solve"),
              "ru": ("выражени*", "вычисл*", "посчита*", "подсчита*", "рассчита*", "пример*", "формул*",
                     "уравнени*", "числ*", "что ... посчита*", "что ... счита*")}),),
    name_aliases=("calc", "calculate", "math", "compute"), simulate=_calculator, latency_s=0.05)

# ----------------------------------------------------------------------------- get_weather

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

# Temperature unit for get_weather: the enum values, reachable through the unit table's forms.
WEATHER_UNITS = ("celsius", "fahrenheit")


def _get_weather(_records: list[dict[str, Any]], city: str, unit: str = "celsius") -> str:
    canon = CITIES.lookup(city)
    if canon is None or canon not in WEATHER:
        raise ToolFailure(f"no weather data for city {city!r}")
    u = UNITS.lookup(unit)
    if u not in WEATHER_UNITS:
        raise ToolFailure(f"unit must be one of {list(WEATHER_UNITS)}, got {unit!r}")
    temp_c, condition = WEATHER[canon]
    if u == "fahrenheit":
        return f"{canon}: {format_number(Fraction(temp_c) * 9 / 5 + 32)}°F, {condition}"
    return f"{canon}: {temp_c}°C, {condition}"


GET_WEATHER = Tool("get_weather", "Get the current weather for a city.", (
    Param("city", "string", "City name, e.g. 'Berlin'.", required=True, match="alias", aliases=CITIES,
          example="London", ask={"en": _CITY_EN, "ru": _CITY_RU}),
    Param("unit", "string", "Temperature unit.", match="alias", aliases=UNITS, enum=WEATHER_UNITS,
          default="celsius", example="celsius")),
    name_aliases=("weather", "getweather", "get_current_weather"), simulate=_get_weather, latency_s=0.8)

# ----------------------------------------------------------------------------- web_search

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
        "Государственный Эрмитаж: открыт 11:00-18:00, по средам и пятницам до 21:00, выходной — понедельник "
        "(hermitagemuseum.org)",
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


def _word_in(keyword: str, words: set[str]) -> bool:
    """A keyword occurs as a word, or as the prefix of one (Russian inflection: "биткоин" ~ "биткоина")."""
    return keyword in words or any(w.startswith(keyword) and len(w) - len(keyword) <= 3 for w in words)


_WORDS_RE = re.compile(r"\w+(?:\.\w+)*", re.UNICODE)   # "python 3.13" -> python, 3.13


def _search_words(query: str) -> set[str]:
    return set(_WORDS_RE.findall(norm_text(query)))

def _web_search(_records: list[dict[str, Any]], query: str, num_results: int = 5) -> str:
    if not 1 <= num_results <= 10:
        raise ToolFailure(f"num_results must be between 1 and 10, got {num_results}")
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


WEB_SEARCH = Tool("web_search", "Search the web for current or factual information.", (
    Param("query", "string", "The search query.", required=True, match="keywords", label="search query",
          example="latest news", ask={
              "en": ("what ... search*", "what ... look up", "what ... look for", "what ... find",
                     "what ... google", "query", "queries", "topic*", "subject", "keyword*", "search term*"),
              "ru": ("что ... найти", "что ... найду", "что ... искать", "что ... поиск*", "что ... загугл*",
                     "запрос*", "тема", "тему", "теме", "темы", "ключев* слов*", "о чем")}),
    Param("num_results", "integer", "How many results to return (1-10).", match="integer", default=5,
          example=5)),
    name_aliases=("search", "websearch", "google", "search_web"), simulate=_web_search, latency_s=1.5)

# ----------------------------------------------------------------------------- translate

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


def _translate(_records: list[dict[str, Any]], text: str, target_language: str,
               source_language: str | None = None) -> str:
    target = LANGUAGES.lookup(target_language)
    if target is None:
        raise ToolFailure(f"unknown target language {target_language!r} (use an ISO 639-1 code such as 'de')")
    if source_language is not None:
        source = LANGUAGES.lookup(source_language)
        if source is None:
            raise ToolFailure(f"unknown source language {source_language!r}")
        if source == target:
            return text.strip()
    found = TRANSLATIONS.get((norm_text(text), target))
    return found if found is not None else f"[{target}] {text.strip()}"


TRANSLATE = Tool("translate", "Translate text into another language.", (
    Param("text", "string", "The exact text to translate.", required=True, match="text", example="hello", ask={
        "en": ("text*", "phrase*", "sentence*", "word*", "message*", "passage*", "what ... translat*",
               "what ... say", "translat* what"),
        "ru": ("текст*", "фраз*", "предложени*", "слов*", "сообщени*", "что ... перев*")}),
    Param("target_language", "string", "Target language, ISO 639-1 code (e.g. 'de').", required=True,
          match="alias", aliases=LANGUAGES, label="target language", example="en", ask={
              "en": ("language*", "translat* ... into", "translat* it to") + _TARGET_EN,
              "ru": ("язык*", "на какой", "на каком", "во что")}),
    Param("source_language", "string", "Source language, ISO 639-1 code; omit to auto-detect.",
          match="alias", aliases=LANGUAGES, inferable=True, example="en")),
    name_aliases=("translator", "translation", "translate_text"), simulate=_translate, latency_s=0.6)

# ----------------------------------------------------------------------------- convert_currency

# Units of each currency per 1 USD. RUB is fixed by the corpus history "100 USD = 9250 RUB".
RATES: dict[str, Decimal] = {code: Decimal(rate) for code, rate in {
    "USD": "1", "EUR": "0.92", "RUB": "92.5", "GBP": "0.79", "JPY": "150", "CNY": "7.2", "CHF": "0.88",
    "KZT": "500", "TRY": "32", "AED": "3.6725", "INR": "83", "CAD": "1.35", "AUD": "1.5", "BYN": "3.25",
    "GEL": "2.7", "SEK": "10.5", "NOK": "10.6", "PLN": "4", "CZK": "23", "KRW": "1330",
}.items()}


def _money(d: Decimal) -> str:
    return format(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f")


def _convert_currency(_records: list[dict[str, Any]], amount: float, from_currency: str, to_currency: str) -> str:
    src, dst = CURRENCIES.lookup(from_currency), CURRENCIES.lookup(to_currency)
    for given, canon in ((from_currency, src), (to_currency, dst)):
        if canon is None or canon not in RATES:
            raise ToolFailure(f"unknown currency {given!r} (use an ISO 4217 code such as 'EUR')")
    assert src is not None and dst is not None
    try:
        value = Decimal(repr(amount)) / RATES[src] * RATES[dst]
    except InvalidOperation as e:  # pragma: no cover - to_number already refused non-finite values
        raise ToolFailure(f"cannot convert {amount!r}") from e
    return f"{format_number(amount)} {src} = {_money(value)} {dst}"


CONVERT_CURRENCY = Tool("convert_currency", "Convert an amount of money between currencies at the current rate.", (
    Param("amount", "number", "Amount to convert.", required=True, match="number", example=1, ask={
        "en": ("how much", "how many", "what amount", "amount*", "sum", "quantity", "value"),
        "ru": ("сколько", "сумм*", "количеств*")}),
    Param("from_currency", "string", "Source currency, ISO 4217 code (e.g. 'USD').", required=True,
          match="alias", aliases=CURRENCIES, label="source currency", example="USD", ask={
              "en": ("currenc*", "from what", "from which", "what ... from", "which ... from"),
              "ru": ("валют*", "из какой", "из каких", "из чего")}),
    Param("to_currency", "string", "Target currency, ISO 4217 code (e.g. 'EUR').", required=True,
          match="alias", aliases=CURRENCIES, label="target currency", example="EUR", ask={
              "en": ("currenc*", "convert* ... into", "convert* ... to", "exchange* ... for", "exchange* ... into",
                     "change* ... into") + _TARGET_EN,
              "ru": ("валют*", "во что", "в какую", "в какие", "в какой", "перевест* ... в", "конверт* ... в")})),
    name_aliases=("currency", "currency_converter", "exchange", "convert_money", "currency_convert"),
    simulate=_convert_currency, latency_s=0.5)

# ----------------------------------------------------------------------------- convert_units

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


def _quantity(number: str, unit: str) -> str:
    """"14°C", "287.15 K", "45 min": degree symbols attach to the number as in weather outputs."""
    symbol = _UNIT_SYMBOL.get(unit, unit)
    return f"{number}{symbol}" if symbol.startswith("°") else f"{number} {symbol}"


def _convert_units(_records: list[dict[str, Any]], value: float, from_unit: str, to_unit: str) -> str:
    src, dst = UNITS.lookup(from_unit), UNITS.lookup(to_unit)
    for given, canon in ((from_unit, src), (to_unit, dst)):
        if canon is None:
            raise ToolFailure(f"unknown unit {given!r}")
    assert src is not None and dst is not None
    v = Fraction(repr(value))
    if src in _TEMPERATURES or dst in _TEMPERATURES:
        if not (src in _TEMPERATURES and dst in _TEMPERATURES):
            raise ToolFailure(f"cannot convert {src} to {dst}")
        kelvin = {"celsius": v + Fraction("273.15"), "kelvin": v,
                  "fahrenheit": (v - 32) * Fraction(5, 9) + Fraction("273.15")}[src]
        if kelvin < 0:
            raise ToolFailure(f"{format_number(value)} {src} is below absolute zero")
        result = {"kelvin": kelvin, "celsius": kelvin - Fraction("273.15"),
                  "fahrenheit": (kelvin - Fraction("273.15")) * Fraction(9, 5) + 32}[dst]
    else:
        dim_src, dim_dst = _UNIT_DIMENSION.get(src), _UNIT_DIMENSION.get(dst)
        if dim_src is None or dim_src != dim_dst:
            raise ToolFailure(f"cannot convert {src} ({dim_src}) to {dst} ({dim_dst})")
        result = v * UNIT_FACTORS[dim_src][src] / UNIT_FACTORS[dim_src][dst]
    return f"{_quantity(format_number(value), src)} = {_quantity(format_number(result), dst)}"


CONVERT_UNITS = Tool("convert_units", "Convert a value between units of measurement.", (
    Param("value", "number", "The value to convert.", required=True, match="number", example=1, ask={
        "en": ("how much", "how many", "what value", "value*", "amount*", "number", "quantity"),
        "ru": ("сколько", "значени*", "количеств*", "числ*", "величин*")}),
    Param("from_unit", "string", "Unit of the value, e.g. 'km', 'lb', 'fahrenheit'.", required=True,
          match="alias", aliases=UNITS, label="source unit", example="km", ask={
              "en": ("unit*", "from what", "from which", "what ... from", "measure*"),
              "ru": ("единиц*", "из каких", "из какой", "из чего", "в чем", "в каких")}),
    Param("to_unit", "string", "Unit to convert to, e.g. 'mi', 'kg', 'celsius'.", required=True,
          match="alias", aliases=UNITS, label="target unit", example="mi", ask={
              "en": ("unit*", "convert* ... into", "convert* ... to") + _TARGET_EN,
              "ru": ("единиц*", "во что", "в какие", "в какую", "в какой", "перевест* ... в")})),
    name_aliases=("units", "unit_converter", "convert_unit", "convert", "unit_convert"), simulate=_convert_units,
    latency_s=0.05)

# ----------------------------------------------------------------------------- set_timer

def _set_timer(records: list[dict[str, Any]], duration_seconds: int, label: str | None = None) -> str:
    if not 1 <= duration_seconds <= 7 * 86400:
        raise ToolFailure(f"duration_seconds must be between 1 and 604800 (one week), got {duration_seconds}")
    timer_id = f"timer-{len(records) + 1}"
    records.append({"id": timer_id, "duration_seconds": duration_seconds, "label": label})
    h, rest = divmod(duration_seconds, 3600)
    m, s = divmod(rest, 60)
    shown = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
    named = f', label "{label.strip()}"' if label else ""
    return f"Timer {timer_id} started: {duration_seconds} s ({shown}){named}."


SET_TIMER = Tool("set_timer", "Start a countdown timer.", (
    Param("duration_seconds", "integer", "Timer length in seconds.", required=True, match="integer",
          label="duration", example=60, ask={
              "en": ("how long", "duration*", "length", "how much time", "what time", "the time", "amount of time",
                     "period", "interval", "until when", "go off", "ring", "when should", "what ... set ... to",
                     "what ... set ... for", "minute*", "mins", "second*", "secs", "hour*"),
              "ru": ("на сколько", "насколько", "сколько времени", "какое время", "на какое время",
                     "на какой срок", "срок*", "длительн*", "продолжительн*", "минут*", "мин", "секунд*", "сек",
                     "час", "часа", "часов", "часик*", "время", "через сколько", "до скольки", "сработа*",
                     "прозвен*")}),
    Param("label", "string", "Optional name for the timer.", match="text", example="timer")),
    name_aliases=("timer", "settimer", "start_timer", "create_timer"), simulate=_set_timer, latency_s=0.3,
    effect="acts")

# ----------------------------------------------------------------------------- save_note

def _save_note(records: list[dict[str, Any]], text: str, title: str | None = None) -> str:
    note_id = f"note-{len(records) + 1}"
    records.append({"id": note_id, "text": text, "title": title or ""})
    titled = f' with title "{title.strip()}"' if title else ""
    return f'Note {note_id} saved{titled}: "{text.strip()}"'


SAVE_NOTE = Tool("save_note", "Save a note for the user.", (
    Param("text", "string", "The note's text, exactly as the user wants it saved.", required=True, match="text",
          label="note text", example="hello", ask={
              "en": ("text", "content*", "wording", "what ... say", "what ... write", "what ... save",
                     "what ... note down", "what ... to note", "what ... record", "what ... include",
                     "what ... contain", "what ... about", "what ... remember", "what ... jot", "what ... add",
                     "what ... put", "what ... in the note", "what ... in it"),
              "ru": ("текст*", "содержани*", "содержим*", "о чем", "про что", "что ... запис*", "что ... запиш*",
                     "что ... сохран*", "что ... напис*", "что ... напиш*", "что ... заметк*", "что ... внест*",
                     "что ... внес*", "что ... добав*", "что ... помет*", "что ... запомн*")}),
    Param("title", "string", "Optional title of the note.", match="text", example="Note")),
    name_aliases=("note", "notes", "savenote", "add_note", "create_note", "take_note"), simulate=_save_note,
    latency_s=0.3, effect="acts")

# ----------------------------------------------------------------------------- get_time

# The world's "now". A Monday, so that the corpus history "Europe/Vienna: 07:05, Monday" holds.
REFERENCE_UTC = _dt.datetime(2026, 1, 12, 6, 5, tzinfo=_dt.timezone.utc)


def _get_time(_records: list[dict[str, Any]], timezone: str) -> str:
    canon = TIMEZONES.lookup(timezone)
    if canon is None:
        raw = timezone.strip()
        try:  # any other valid IANA zone ("Asia/Kathmandu") is still a time zone
            zoneinfo.ZoneInfo(raw)
            canon = raw if "/" in raw else None
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            canon = None
    if canon is None:
        raise ToolFailure(f"unknown time zone {timezone!r} (use an IANA name such as Europe/Moscow)")
    local = REFERENCE_UTC.astimezone(zoneinfo.ZoneInfo(canon))
    return f"{canon}: {local:%H:%M}, {local:%A}"


GET_TIME = Tool("get_time", "Get the current local time in a time zone.", (
    Param("timezone", "string", "IANA time zone, e.g. 'Europe/Moscow'.", required=True, match="alias",
          aliases=TIMEZONES, label="time zone", example="UTC", ask={
              "en": _CITY_EN + ("time zone*", "timezone*", "zone", "part of the world", "utc", "gmt", "offset"),
              "ru": _CITY_RU + ("часов* пояс*", "пояс*")}),),
    name_aliases=("time", "gettime", "current_time", "get_current_time", "clock"), simulate=_get_time,
    latency_s=0.2)


# The order is the prompts' order of the tools ("tools: all").
BUILTIN_TOOLS: tuple[Tool, ...] = (CALCULATOR, GET_WEATHER, WEB_SEARCH, TRANSLATE, CONVERT_CURRENCY, CONVERT_UNITS,
                                   SET_TIMER, SAVE_NOTE, GET_TIME)
