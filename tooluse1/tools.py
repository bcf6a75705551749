"""The nine tools: schemas, per-parameter normalisers and alias tables (English and Russian).

Parameter names and required lists are part of the benchmark's contract (DESIGN.md). Every parameter
declares how a model's value is compared with the expected one (`match`):

    expression  arithmetic, compared by value (tooluse1.evaluator)
    number      float, rel_tol 1e-6; numeric strings accepted ("100" == 100)
    integer     int; numeric strings accepted; floats only when integral; booleans never
    alias       normalised through an alias table (city, language, currency, unit, timezone), then equal
    text        NFKC + casefold, whitespace collapsed, edge punctuation and quotes trimmed, then equal
    keywords    every expected keyword occurs in the model's value (Russian words by stem)
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

# ----------------------------------------------------------------------------- text helpers

_EDGE_PUNCT = " \t\n\r.,;:!?\"'«»“”„`()[]{}"
_WS = re.compile(r"\s+")


def norm_text(value: Any) -> str:
    """NFKC, casefold, ё->е, collapsed whitespace, edge punctuation and quotes trimmed."""
    return _norm_str(value if isinstance(value, str) else str(value))


@functools.lru_cache(maxsize=16384)
def _norm_str(value: str) -> str:
    # Cached: grading normalises the same expected values and prose over and over (pure function).
    s = unicodedata.normalize("NFKC", value).casefold().replace("ё", "е")
    s = s.replace("\u00a0", " ")
    return _WS.sub(" ", s).strip(_EDGE_PUNCT)


_SEPARATORS = re.compile(r"[-_.]+")


def _key(value: Any) -> str:
    """Lookup key for alias tables: norm_text plus hyphens/underscores/dots as spaces."""
    s = norm_text(value)
    s = _SEPARATORS.sub(" ", s)
    return _WS.sub(" ", s).strip()


# Russian prepositions that precede place/language words ("в Москве", "на английский").
_RU_PREPOSITIONS = ("в ", "во ", "на ", "для ", "из ", "по ", "с ", "со ", "к ")
_EN_PREPOSITIONS = ("in ", "into ", "to ", "for ", "at ", "from ", "the ")


def _strip_prepositions(key: str) -> str:
    changed = True
    while changed:
        changed = False
        for p in _RU_PREPOSITIONS + _EN_PREPOSITIONS:
            if key.startswith(p) and len(key) > len(p):
                key, changed = key[len(p):], True
    return key


class AliasTable:
    """Maps many surface forms onto one canonical value.

    Lookups go through `_key` (case, Unicode form, hyphens, ё) and leading prepositions ("в Москве");
    `canonical(x)` returns the canonical value, or the normalised input when x is unknown, so unknown
    values still compare equal to themselves.
    """

    def __init__(self, name: str, entries: dict[str, list[str]], stems: dict[str, list[str]] | None = None):
        self.name = name
        self.canonicals = tuple(entries)
        self._forms = {canon: tuple(forms) for canon, forms in entries.items()}
        self._map: dict[str, str] = {}
        for canon, forms in entries.items():
            for form in [canon, *forms]:
                self._map[_key(form)] = canon
        # Russian inflection: a stem that prefixes a (single-word) form, e.g. "москв" -> Москва/Москве.
        self._stems = [(_key(stem), canon) for canon, ss in (stems or {}).items() for stem in ss]
        self._cache: dict[str, str | None] = {}

    def lookup(self, value: Any) -> str | None:
        """The canonical value for a known form, else None."""
        if not isinstance(value, str):
            return self._lookup(value)
        # Memoised (grading throughput); bounded so a long run over unique strings cannot grow it forever.
        try:
            return self._cache[value]
        except KeyError:
            pass
        if len(self._cache) >= 65536:
            self._cache.clear()
        found = self._cache[value] = self._lookup(value)
        return found

    def _lookup(self, value: Any) -> str | None:
        k = _key(value)
        for cand in (k, _strip_prepositions(k)):
            if cand in self._map:
                return self._map[cand]
        k = _strip_prepositions(k)
        for stem, canon in self._stems:
            if k.startswith(stem) and len(k) - len(stem) <= 3:
                return canon
        return None

    def forms(self, canon: str) -> tuple[str, ...]:
        """The non-canonical surface forms listed for a canonical value."""
        return self._forms.get(canon, ())

    def canonical(self, value: Any) -> str:
        found = self.lookup(value)
        return found if found is not None else _key(value)

    def __contains__(self, value: Any) -> bool:
        return self.lookup(value) is not None


# ----------------------------------------------------------------------------- alias tables

CITIES = AliasTable("city", {
    "Berlin": ["берлин", "berlin germany", "berlin, germany", "berlin de"],
    "Paris": ["париж", "paris france", "paris, france", "paris fr"],
    "London": ["лондон", "london uk", "london, uk", "london, england", "london gb"],
    "Moscow": ["москва", "москве", "москвы", "мск", "moskva", "moscow russia", "moscow, russia", "moscow ru"],
    "Saint Petersburg": ["st petersburg", "st. petersburg", "saint-petersburg", "petersburg",
                         "sankt petersburg", "spb", "спб", "питер", "питере", "санкт-петербург",
                         "санкт петербург", "петербург", "санкт-петербурге", "петербурге", "st petersburg russia",
                         "saint petersburg, russia"],
    "Tokyo": ["токио", "tokyo japan", "tokyo, japan", "tokio"],
    "New York": ["new york city", "nyc", "ny", "нью-йорк", "нью йорк", "нью-йорке", "new york, ny",
                 "new york, usa", "new york ny"],
    "Madrid": ["мадрид", "мадриде", "madrid, spain"],
    "Rome": ["рим", "риме", "roma", "rome, italy"],
    "Kazan": ["казань", "казани", "kazan, russia"],
    "Novosibirsk": ["новосибирск", "новосибирске", "nsk"],
    "Sochi": ["сочи", "sochi, russia"],
    "Yekaterinburg": ["ekaterinburg", "екатеринбург", "екатеринбурге", "екб", "yekaterinburg, russia"],
    "Vladivostok": ["владивосток", "владивостоке"],
    "Kaliningrad": ["калининград", "калининграде"],
    "Beijing": ["peking", "пекин", "пекине", "beijing, china"],
    "Sydney": ["сидней", "сиднее", "sydney, australia"],
    "Los Angeles": ["la", "l.a.", "лос-анджелес", "лос анджелес", "лос-анджелесе", "los angeles, ca"],
    "Chicago": ["чикаго", "chicago, il"],
    "Dubai": ["дубай", "дубае", "dubai, uae"],
    "Istanbul": ["стамбул", "стамбуле", "istanbul, turkey"],
    "Amsterdam": ["амстердам", "амстердаме"],
    "Prague": ["praha", "прага", "праге", "праги"],
    "Vienna": ["wien", "вена", "вене", "вены"],
    "Warsaw": ["warszawa", "варшава", "варшаве"],
    "Helsinki": ["хельсинки"],
    "Toronto": ["торонто"],
    "Singapore": ["сингапур", "сингапуре"],
    "Seoul": ["сеул", "сеуле"],
    "Mumbai": ["bombay", "мумбаи"],
    "Cairo": ["каир", "каире"],
    "Lisbon": ["lisboa", "лиссабон", "лиссабоне"],
    "Barcelona": ["барселона", "барселоне"],
    "Minsk": ["минск", "минске"],
    "Almaty": ["алматы", "алма-ата", "alma-ata"],
    "Tbilisi": ["тбилиси"],
    "Riga": ["рига", "риге"],
    "Oslo": ["осло"],
    "Stockholm": ["стокгольм", "стокгольме"],
    "Washington": ["washington dc", "washington, d.c.", "washington d.c.", "вашингтон", "вашингтоне"],
    "San Francisco": ["sf", "сан-франциско", "сан франциско"],
    "Murmansk": ["мурманск", "мурманске"],
    "Irkutsk": ["иркутск", "иркутске"],
}, stems={
    "Moscow": ["москв"], "Saint Petersburg": ["петербург", "санкт-петербург", "питер"],
    "Kazan": ["казан"], "Novosibirsk": ["новосибирск"], "Yekaterinburg": ["екатеринбург"],
    "Vladivostok": ["владивосток"], "Kaliningrad": ["калининград"], "Berlin": ["берлин"],
    "Paris": ["париж"], "London": ["лондон"], "Madrid": ["мадрид"], "Amsterdam": ["амстердам"],
    "Istanbul": ["стамбул"], "Warsaw": ["варшав"], "Prague": ["праг"], "Riga": ["риг"],
    "Stockholm": ["стокгольм"], "Murmansk": ["мурманск"], "Irkutsk": ["иркутск"], "Minsk": ["минск"],
    "Beijing": ["пекин"], "Sydney": ["сидне"], "Dubai": ["дуба"], "Cairo": ["каир"],
    "Lisbon": ["лиссабон"], "Barcelona": ["барселон"], "Seoul": ["сеул"],
})

LANGUAGES = AliasTable("language", {
    "en": ["english", "eng", "en-us", "en-gb", "английский", "английском", "английского", "англ"],
    "ru": ["russian", "rus", "русский", "русском", "русского", "ru-ru"],
    "de": ["german", "deutsch", "ger", "deu", "немецкий", "немецком", "немецкого", "нем"],
    "fr": ["french", "français", "francais", "fra", "французский", "французском", "французского", "фр"],
    "es": ["spanish", "español", "espanol", "spa", "испанский", "испанском", "испанского", "исп"],
    "it": ["italian", "italiano", "ita", "итальянский", "итальянском", "итальянского"],
    "ja": ["japanese", "jp", "jpn", "японский", "японском", "японского"],
    "zh": ["chinese", "mandarin", "zh-cn", "zh-hans", "китайский", "китайском", "китайского"],
    "pt": ["portuguese", "português", "por", "португальский", "португальском"],
    "uk": ["ukrainian", "ukr", "ua", "украинский", "украинском", "украинского"],
    "pl": ["polish", "pol", "польский", "польском"],
    "tr": ["turkish", "tur", "турецкий", "турецком"],
    "ar": ["arabic", "ara", "арабский", "арабском"],
    "ko": ["korean", "kor", "корейский", "корейском"],
    "nl": ["dutch", "nld", "нидерландский", "голландский"],
    "fi": ["finnish", "fin", "финский", "финском"],
    "sv": ["swedish", "swe", "шведский", "шведском"],
    "cs": ["czech", "ces", "чешский", "чешском"],
    "el": ["greek", "греческий", "греческом"],
    "he": ["hebrew", "иврит", "иврите"],
    "hi": ["hindi", "хинди"],
}, stems={
    "en": ["английск", "англ"], "ru": ["русск"], "de": ["немецк"], "fr": ["французск"], "es": ["испанск"],
    "it": ["итальянск"], "ja": ["японск"], "zh": ["китайск"], "pt": ["португальск"], "uk": ["украинск"],
    "pl": ["польск"], "tr": ["турецк"], "ar": ["арабск"], "ko": ["корейск"], "fi": ["финск"],
    "sv": ["шведск"], "cs": ["чешск"], "el": ["греческ"],
})

CURRENCIES = AliasTable("currency", {
    "USD": ["$", "us$", "dollar", "dollars", "us dollar", "us dollars", "usd$", "bucks", "доллар", "доллары",
            "долларов", "доллара", "долларах", "бакс", "баксов", "баксы", "баксах", "usd dollars"],
    "EUR": ["€", "euro", "euros", "евро"],
    "RUB": ["₽", "rub", "rur", "ruble", "rubles", "rouble", "roubles", "руб", "руб.", "рубль", "рубля", "рублей",
            "рублях", "рубли", "russian ruble", "russian rubles"],
    "GBP": ["£", "pound", "pounds", "pound sterling", "sterling", "british pound", "british pounds", "фунт",
            "фунтов", "фунта", "фунтах", "фунты", "фунты стерлингов", "фунтов стерлингов", "фунтах стерлингов"],
    "JPY": ["¥", "yen", "japanese yen", "иена", "иен", "йена", "йен", "иены"],
    "CNY": ["yuan", "renminbi", "rmb", "юань", "юаней", "юаня", "юани", "chinese yuan"],
    "CHF": ["swiss franc", "swiss francs", "franc", "francs", "франк", "франков", "швейцарский франк",
            "швейцарских франков"],
    "KZT": ["₸", "tenge", "тенге"],
    "TRY": ["₺", "lira", "turkish lira", "лира", "лир", "турецких лир", "турецкая лира"],
    "AED": ["dirham", "dirhams", "дирхам", "дирхамов"],
    "INR": ["₹", "rupee", "rupees", "indian rupee", "рупия", "рупий"],
    "CAD": ["c$", "canadian dollar", "canadian dollars", "канадский доллар", "канадских долларов"],
    "AUD": ["a$", "australian dollar", "australian dollars", "австралийский доллар", "австралийских долларов"],
    "BYN": ["belarusian ruble", "белорусский рубль", "белорусских рублей"],
    "GEL": ["lari", "лари"],
    "SEK": ["swedish krona", "swedish kronor", "шведская крона", "шведских крон"],
    "NOK": ["norwegian krone", "norwegian kroner", "норвежская крона", "норвежских крон"],
    "PLN": ["zloty", "zł", "злотый", "злотых"],
    "CZK": ["czech koruna", "чешская крона", "чешских крон"],
    "KRW": ["₩", "won", "korean won", "вона", "вон"],
})

# Units: canonical symbol -> forms. Temperature units double as get_weather's `unit` enum values.
UNITS = AliasTable("unit", {
    "m": ["meter", "meters", "metre", "metres", "м", "метр", "метра", "метров", "метры"],
    "km": ["kilometer", "kilometers", "kilometre", "kilometres", "kms", "км", "километр", "километра",
           "километров", "километры", "километрах"],
    "cm": ["centimeter", "centimeters", "centimetre", "centimetres", "см", "сантиметр", "сантиметра",
           "сантиметров"],
    "mm": ["millimeter", "millimeters", "millimetre", "millimetres", "мм", "миллиметр", "миллиметров"],
    "mi": ["mile", "miles", "миля", "мили", "миль", "милях"],
    "ft": ["foot", "feet", "фут", "фута", "футов"],
    "in": ["inch", "inches", "дюйм", "дюйма", "дюймов"],
    "yd": ["yard", "yards", "ярд", "ярда", "ярдов"],
    "kg": ["kilogram", "kilograms", "kilo", "kilos", "кг", "килограмм", "килограмма", "килограммов", "кило"],
    "g": ["gram", "grams", "gramme", "grammes", "г", "гр", "грамм", "грамма", "граммов"],
    "mg": ["milligram", "milligrams", "мг", "миллиграмм", "миллиграммов"],
    "lb": ["lbs", "pound", "pounds", "фунт", "фунта", "фунтов", "фунты"],
    "oz": ["ounce", "ounces", "унция", "унции", "унций"],
    "t": ["tonne", "tonnes", "metric ton", "metric tons", "т", "тонна", "тонны", "тонн"],
    "l": ["liter", "liters", "litre", "litres", "л", "литр", "литра", "литров"],
    "ml": ["milliliter", "milliliters", "millilitre", "millilitres", "мл", "миллилитр", "миллилитров"],
    "gal": ["gallon", "gallons", "us gallon", "us gallons", "галлон", "галлона", "галлонов"],
    "cup": ["cups", "чашка", "чашки", "чашек", "стакан", "стакана", "стаканов"],
    "celsius": ["c", "°c", "degc", "deg c", "degrees celsius", "degree celsius", "centigrade", "metric",
                "по цельсию", "цельсий", "цельсия", "градусов цельсия", "градусы цельсия", "градусов",
                "градусах", "°"],
    "fahrenheit": ["f", "°f", "degf", "deg f", "degrees fahrenheit", "degree fahrenheit", "imperial",
                   "фаренгейт", "фаренгейта", "фаренгейтах", "по фаренгейту", "градусов фаренгейта",
                   "градусах фаренгейта", "градусов по фаренгейту", "градусы по фаренгейту"],
    "kelvin": ["k", "kelvins", "degrees kelvin", "кельвин", "кельвина", "кельвинов"],
    "km/h": ["kph", "kmh", "km per hour", "kilometers per hour", "kilometres per hour", "км/ч",
             "километров в час"],
    "mph": ["mi/h", "miles per hour", "миль в час"],
    "m/s": ["mps", "meters per second", "metres per second", "м/с", "метров в секунду"],
    "knot": ["knots", "kn", "kt", "узел", "узла", "узлов"],
    "m2": ["m²", "sq m", "square meter", "square meters", "square metre", "square metres", "м2", "м²",
           "кв м", "кв. м", "квадратный метр", "квадратных метров", "квадратного метра"],
    "ft2": ["ft²", "sq ft", "square foot", "square feet", "кв фут", "квадратных футов", "квадратные футы", "квадратных футах"],
    "ha": ["hectare", "hectares", "га", "гектар", "гектара", "гектаров"],
    "acre": ["acres", "акр", "акра", "акров"],
    "B": ["byte", "bytes", "байт", "байта", "байтов"],
    "KB": ["kilobyte", "kilobytes", "kb", "кб", "килобайт", "килобайта"],
    "MB": ["megabyte", "megabytes", "mb", "мб", "мегабайт", "мегабайта"],
    "GB": ["gigabyte", "gigabytes", "gb", "гб", "гигабайт", "гигабайта"],
    "TB": ["terabyte", "terabytes", "tb", "тб", "терабайт", "терабайта"],
    "s": ["sec", "secs", "second", "seconds", "с", "сек", "секунда", "секунды", "секунд"],
    "min": ["mins", "minute", "minutes", "мин", "минута", "минуты", "минут"],
    "h": ["hr", "hrs", "hour", "hours", "ч", "час", "часа", "часов"],
    "day": ["days", "d", "день", "дня", "дней", "сутки", "суток"],
    "week": ["weeks", "wk", "неделя", "недели", "недель"],
})

# Temperature unit for get_weather: the enum values, reachable through the same forms.
WEATHER_UNITS = ("celsius", "fahrenheit")

TIMEZONES = AliasTable("timezone", {
    "Europe/Moscow": ["moscow", "msk", "moscow time", "москва", "мск", "московское время", "по москве",
                      "europe/moskow"],
    "Europe/Berlin": ["berlin", "cet", "берлин", "germany"],
    "Europe/Paris": ["paris", "париж", "france"],
    "Europe/London": ["london", "uk", "gmt", "bst", "лондон", "great britain"],
    "Europe/Madrid": ["madrid", "мадрид", "spain"],
    "Europe/Rome": ["rome", "рим", "italy"],
    "Europe/Amsterdam": ["amsterdam", "амстердам"],
    "Europe/Prague": ["prague", "прага"],
    "Europe/Vienna": ["vienna", "вена"],
    "Europe/Warsaw": ["warsaw", "варшава"],
    "Europe/Helsinki": ["helsinki", "хельсинки"],
    "Europe/Istanbul": ["istanbul", "стамбул", "turkey"],
    "Europe/Kaliningrad": ["kaliningrad", "калининград"],
    "Europe/Samara": ["samara", "самара"],
    "Europe/Minsk": ["minsk", "минск"],
    "Europe/Riga": ["riga", "рига"],
    "Europe/Oslo": ["oslo", "осло"],
    "Europe/Stockholm": ["stockholm", "стокгольм"],
    "Europe/Lisbon": ["lisbon", "лиссабон"],
    "Asia/Yekaterinburg": ["yekaterinburg", "ekaterinburg", "екатеринбург", "yekt"],
    "Asia/Novosibirsk": ["novosibirsk", "новосибирск"],
    "Asia/Irkutsk": ["irkutsk", "иркутск"],
    "Asia/Vladivostok": ["vladivostok", "владивосток"],
    "Asia/Tokyo": ["tokyo", "jst", "токио", "japan"],
    "Asia/Shanghai": ["shanghai", "beijing", "china", "пекин", "шанхай", "cst china"],
    "Asia/Seoul": ["seoul", "сеул", "korea", "south korea"],
    "Asia/Singapore": ["singapore", "сингапур"],
    "Asia/Dubai": ["dubai", "дубай", "дубае", "дубая", "uae"],
    "Asia/Kolkata": ["kolkata", "calcutta", "mumbai", "delhi", "new delhi", "ist", "india", "мумбаи", "дели"],
    "Asia/Almaty": ["almaty", "алматы"],
    "Asia/Tbilisi": ["tbilisi", "тбилиси"],
    "America/New_York": ["new york", "nyc", "est", "edt", "eastern time", "us/eastern", "нью-йорк", "нью-йорка", "нью-йорке",
                         "washington", "вашингтон"],
    "America/Chicago": ["chicago", "cst", "central time", "us/central", "чикаго"],
    "America/Denver": ["denver", "mst", "mountain time", "us/mountain", "денвер"],
    "America/Los_Angeles": ["los angeles", "la", "pst", "pdt", "pacific time", "us/pacific", "san francisco",
                            "лос-анджелес", "сан-франциско"],
    "America/Toronto": ["toronto", "торонто"],
    "America/Sao_Paulo": ["sao paulo", "são paulo", "сан-паулу"],
    "Australia/Sydney": ["sydney", "aest", "сидней"],
    "Africa/Cairo": ["cairo", "каир", "egypt"],
    "UTC": ["utc", "gmt+0", "etc/utc", "coordinated universal time", "zulu", "z", "всемирное время"],
}, stems={
    "Europe/Moscow": ["москв"], "Asia/Vladivostok": ["владивосток"], "Asia/Yekaterinburg": ["екатеринбург"],
    "Asia/Novosibirsk": ["новосибирск"], "Europe/Kaliningrad": ["калининград"], "Asia/Tokyo": ["токио"],
    "Europe/London": ["лондон"], "Europe/Berlin": ["берлин"], "Europe/Paris": ["париж"],
    "Asia/Irkutsk": ["иркутск"], "Europe/Samara": ["самар"],
})

TOOL_NAME_ALIASES: dict[str, str] = {
    "calc": "calculator", "calculate": "calculator", "math": "calculator", "compute": "calculator",
    "weather": "get_weather", "getweather": "get_weather", "get_current_weather": "get_weather",
    "search": "web_search", "websearch": "web_search", "google": "web_search", "search_web": "web_search",
    "translator": "translate", "translation": "translate", "translate_text": "translate",
    "currency": "convert_currency", "currency_converter": "convert_currency", "exchange": "convert_currency",
    "convert_money": "convert_currency", "currency_convert": "convert_currency",
    "units": "convert_units", "unit_converter": "convert_units", "convert_unit": "convert_units",
    "convert": "convert_units", "unit_convert": "convert_units",
    "timer": "set_timer", "settimer": "set_timer", "start_timer": "set_timer", "create_timer": "set_timer",
    "note": "save_note", "notes": "save_note", "savenote": "save_note", "add_note": "save_note",
    "create_note": "save_note", "take_note": "save_note",
    "time": "get_time", "gettime": "get_time", "current_time": "get_time", "get_current_time": "get_time",
    "clock": "get_time",
}


# ----------------------------------------------------------------------------- schemas


@dataclass(frozen=True)
class Param:
    """One tool parameter: JSON-schema type, description, how it is compared, optional enum/default."""

    name: str
    type: str                      # string | number | integer
    description: str
    required: bool = False
    match: str = "text"            # expression | number | integer | alias | text | keywords
    aliases: AliasTable | None = None
    enum: tuple[str, ...] = ()
    default: Any = None
    # The tool infers it when omitted (translate detects the source language), so leaving it out cannot
    # change the result and is not an argument error even when the user stated it.
    inferable: bool = False


@dataclass(frozen=True)
class Tool:
    """A tool's name, description and parameters (ordered)."""

    name: str
    description: str
    params: tuple[Param, ...]
    param_index: dict[str, Param] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "param_index", {p.name: p for p in self.params})

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.required)

    def json_schema(self) -> dict:
        """OpenAI-style function schema (used to declare the tool in system prompts)."""
        props: dict[str, dict] = {}
        for p in self.params:
            prop: dict[str, Any] = {"type": p.type, "description": p.description}
            if p.enum:
                prop["enum"] = list(p.enum)
            props[p.name] = prop
        return {"name": self.name, "description": self.description,
                "parameters": {"type": "object", "properties": props, "required": list(self.required)}}


TOOLS: dict[str, Tool] = {t.name: t for t in (
    Tool("calculator", "Evaluate an arithmetic expression exactly (+ - * / ** %, parentheses, sqrt).", (
        Param("expression", "string", "Arithmetic expression using digits and operators, e.g. '(45+12)*2'.",
              required=True, match="expression"),)),
    Tool("get_weather", "Get the current weather for a city.", (
        Param("city", "string", "City name, e.g. 'Berlin'.", required=True, match="alias", aliases=CITIES),
        Param("unit", "string", "Temperature unit.", match="alias", aliases=UNITS, enum=WEATHER_UNITS,
              default="celsius"))),
    Tool("web_search", "Search the web for current or factual information.", (
        Param("query", "string", "The search query.", required=True, match="keywords"),
        Param("num_results", "integer", "How many results to return (1-10).", match="integer", default=5))),
    Tool("translate", "Translate text into another language.", (
        Param("text", "string", "The exact text to translate.", required=True, match="text"),
        Param("target_language", "string", "Target language, ISO 639-1 code (e.g. 'de').", required=True,
              match="alias", aliases=LANGUAGES),
        Param("source_language", "string", "Source language, ISO 639-1 code; omit to auto-detect.",
              match="alias", aliases=LANGUAGES, inferable=True))),
    Tool("convert_currency", "Convert an amount of money between currencies at the current rate.", (
        Param("amount", "number", "Amount to convert.", required=True, match="number"),
        Param("from_currency", "string", "Source currency, ISO 4217 code (e.g. 'USD').", required=True,
              match="alias", aliases=CURRENCIES),
        Param("to_currency", "string", "Target currency, ISO 4217 code (e.g. 'EUR').", required=True,
              match="alias", aliases=CURRENCIES))),
    Tool("convert_units", "Convert a value between units of measurement.", (
        Param("value", "number", "The value to convert.", required=True, match="number"),
        Param("from_unit", "string", "Unit of the value, e.g. 'km', 'lb', 'fahrenheit'.", required=True,
              match="alias", aliases=UNITS),
        Param("to_unit", "string", "Unit to convert to, e.g. 'mi', 'kg', 'celsius'.", required=True,
              match="alias", aliases=UNITS))),
    Tool("set_timer", "Start a countdown timer.", (
        Param("duration_seconds", "integer", "Timer length in seconds.", required=True, match="integer"),
        Param("label", "string", "Optional name for the timer.", match="text"))),
    Tool("save_note", "Save a note for the user.", (
        Param("text", "string", "The note's text, exactly as the user wants it saved.", required=True,
              match="text"),
        Param("title", "string", "Optional title of the note.", match="text"))),
    Tool("get_time", "Get the current local time in a time zone.", (
        Param("timezone", "string", "IANA time zone, e.g. 'Europe/Moscow'.", required=True, match="alias",
              aliases=TIMEZONES),)),
)}

TOOL_NAMES: tuple[str, ...] = tuple(TOOLS)


def canonical_tool_name(name: Any) -> str:
    """The tool a name refers to (exact names, then aliases like calc/weather); unknown names normalised."""
    if isinstance(name, str):
        if name in TOOLS:   # the common case, and the answer the slow path gives for it
            return name
        return _canonical_tool_name(name)
    return _canonical_tool_name(str(name))


@functools.lru_cache(maxsize=4096)
def _canonical_tool_name(name: str) -> str:
    key = re.sub(r"[\s-]+", "_", norm_text(name))
    key = re.split(r"[.:/]", key)[-1]  # "functions.get_weather", "tool:calculator"
    if key in TOOLS:
        return key
    squashed = key.replace("_", "")
    for cand in (key, squashed):
        if cand in TOOL_NAME_ALIASES:
            return TOOL_NAME_ALIASES[cand]
    return key


# ----------------------------------------------------------------------------- typing by schema

_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def to_number(value: Any) -> float | None:
    """A float from an int/float or a numeric string ("1,000.5", "1 000", "3,5"), else None. Never bools."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:   # an int beyond float range (JSON allows any length): not comparable
            return None
    if not isinstance(value, str):
        return None
    s = unicodedata.normalize("NFKC", value).strip().replace("\u00a0", "").replace(" ", "").replace("_", "")
    if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", s):
        s = s.replace(",", "")
    elif re.fullmatch(r"[+-]?\d+,\d+", s):
        s = s.replace(",", ".")
    if _NUMBER_RE.match(s):
        try:
            return float(s)
        except (ValueError, OverflowError):
            return None
    return None


def to_integer(value: Any) -> int | None:
    """An int from an int, an integral float or a numeric string; None otherwise (booleans never)."""
    num = to_number(value)
    if num is None or num != num or num in (float("inf"), float("-inf")) or not num.is_integer():
        return None
    return int(num)


def coerce_value(tool: str, param: str, raw: str) -> Any:
    """Type an untyped string value (XML parameter, plain k=v) by the tool schema.

    Numbers become int/float only for number/integer parameters; everything else stays a string, so a
    zip code or a numeric note text keeps its digits as written.
    """
    t = TOOLS.get(tool)
    p = t.param_index.get(param) if t else None
    if p is None or p.type == "string":
        return raw
    num = to_number(raw)
    if num is None:
        return raw
    if p.type == "integer" and num.is_integer():
        return int(num)
    return int(num) if num.is_integer() and "." not in raw and "e" not in raw.lower() else num


def type_arguments(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Apply coerce_value to every string argument (used for protocols without native types)."""
    return {k: coerce_value(tool, k, v) if isinstance(v, str) else v for k, v in args.items()}


def is_known_param(tool: str, param: str) -> bool:
    t = TOOLS.get(tool)
    return t is not None and param in t.param_index



@dataclass(frozen=True)
class Call:
    """One tool call: a tool name and its arguments (as the model gave them, typed by schema)."""

    name: str
    arguments: dict[str, Any]

    def as_dict(self) -> dict:
        return {"name": self.name, "arguments": self.arguments}
