"""The alias tables (English and Russian) and the text normalisation every comparison reads.

A parameter compared by `alias` (tooluse1.matching) reads both values through one of these tables: CITIES,
LANGUAGES, CURRENCIES, UNITS, TIMEZONES (`TABLES` by name, for declarations written as plain data).

Alias rules. Expected values are canonical (cases/README.md); a model's value is read by RULES, the same
rules for every entry of a table, never by listing one more string:

- Every table: NFKC, casefold, ё = е; hyphens, underscores and dots are spaces; leading prepositions go
  ("в Москве", "на немецкий", "into Spanish", "to the"); a part in brackets is read after the rest
  ("US Dollar (USD)", "Chinese (Simplified)").
- Inflection (one mechanism, applied alike to the table's forms and to the model's value): a Russian word
  may drop ONE case ending (`_RU_ENDINGS`) provided 3 letters stay: Москве/Москвы/Москвой = Москва,
  японских иен = японская иена, швейцарских франков = швейцарский франк, по-английски = английский,
  метров в секунду = метр в секунда. In currencies and units an English word may be plural: -s, -es
  after ch/sh/x/z/ss, -ies = -y (dollars, pounds sterling, inches, kilometres). Irregular forms (feet,
  дня, суток, kronor) are listed. An adjective + noun is looked up whole before the noun alone could be,
  and a lone adjective is never dropped: "canadian dollar" is CAD, never USD.
- Ambiguity check: at import, every table raises ValueError when one normalised key (after these rules)
  would belong to two canonical values; lookups are memoised per table.
- city: the value is split at commas and brackets; exactly one part names a city (the first one that is
  not merely a region); every other part that names a region (a country: EN/RU name, ISO alpha-2/alpha-3
  code; a US state, Canadian province, Australian state: name or code) must CONTAIN that city, a part that
  names another known city fails, and any other part (an unknown region: "Moscow Oblast", "Île-de-France")
  is ignored. Region words after a city without a comma are read the same way ("Berlin Germany",
  "Moscow RU", "Paris FR", "Los Angeles CA", "Washington DC"). So "San Francisco, CA", "Lisbon, Portugal",
  "Москва, Россия", "New York, NY, USA" are their cities, while "Paris, Texas", "Moscow, Idaho",
  "Saint Petersburg, FL", "London, Ontario" are other cities (unknown to the table: they match neither
  Paris nor each other's canonical). Leading "г.", "город", "city of" are dropped. A bracketed part that
  carries a result (a digit: "Tokyo (14°C)") or starts with another known city ("Warsaw (Madrid: 24°C)")
  fails: the argument says more than the city.
- language: a BCP-47 / locale tag is its language subtag (de-DE, pt_BR, zh-Hans-CN, en-us, es-419);
  ISO 639-1 codes, ISO 639-2/B, 639-2/T and 639-3 codes, English names, endonyms (Deutsch, français,
  русский, 日本語, 中文), Russian names; a value whose words (4+ letters) name exactly ONE language is that
  language ("Brazilian Portuguese", "Simplified Chinese", "на немецком языке"; "English to German" is
  none).
- currency: ISO 4217 codes, symbols, EN/RU names with inflection; a value whose every word is a form of
  the same currency is that currency ("USD $", "usd dollars").
- unit: parsed into components: base units from the table (no SI-prefix arithmetic: km is its own unit),
  powers (`^2`, `²`, a digit `m2`, `sq`, `square`, `кв.`, `квадратный`, `squared`, `cubic`), ratios (`/`,
  `per`, `an`/`a`, Russian `в`/`за`); fillers `degree(s)`, `deg`, `°`, `градус`, `по` are dropped. The
  component signature is compared with the canonical units' signatures (km/h = km·h⁻¹, mph = mi·h⁻¹,
  knot = nmi·h⁻¹, m2 = m²): km/hr, km per hour, kilometres/hour, км/ч, ft^2, sq ft, square feet, m², кв. м,
  метров в секунду, degrees Celsius, градусов по Фаренгейту all reach their canonical unit; km/h != m/s.
- timezone (canonical values are IANA names; see `TimezoneTable`): a value is read as a GEOGRAPHIC zone
  (an IANA name, case-insensitive, spaces for underscores; a city, with the city rules; a country, meaning
  its main zone: Germany = Europe/Berlin, Spain = Europe/Madrid, while Russia, USA, Canada, Australia,
  Brazil, Mexico, Indonesia name none; the city part of an IANA name: Oslo, Kathmandu), a FIXED offset (UTC,
  GMT, Z, UTC+3, GMT+03:00, +03:00, UTC-5, UTC+5:30, Etc/GMT-3 with its reversed sign, МСК+7 = UTC+10)
  or a REGION name/abbreviation (Eastern [Standard] Time, EST/EDT/ET, PST, CET/CEST, MSK, JST, IST, BST,
  московское время, ...; "time", "standard", "daylight", "zone", "время", "пояс" are fillers).
  Two geographic zones are equal iff they are the same zone after link resolution (Europe/Berlin !=
  Europe/Paris). Links are the tz database's (package `tzdata` first, else the system's zoneinfo), but
  only a name that is not itself the zone of a place (zone.tab) is resolved: Europe/Kiev = Europe/Kyiv,
  Asia/Calcutta = Asia/Kolkata, US/Eastern = America/New_York, Japan = Asia/Tokyo, while Europe/Oslo !=
  Europe/Berlin although tzdata links them (their clocks have agreed since 1970; they are other places).
  Anything else is equal iff both give the same UTC offset at 12:00 UTC on every day of the reference
  years 2026-2027 (fixed, so a verdict never depends on the day it is graded): UTC+3 = MSK = Europe/Moscow,
  UTC+4 != Europe/Moscow, GMT = UTC = Etc/UTC = Z, GMT != Europe/London (summer time),
  CET = Europe/Paris = Europe/Berlin, UTC = Africa/Abidjan.
  Colloquial abbreviations name their region, summer time included: EST/"Eastern Standard Time" = the
  New York region (so EST = America/New_York = America/Toronto, EST != UTC-5); CST = US Central (China
  Standard Time is China); IST = India; AST = Atlantic; BST = British Summer Time.

`AliasTable.lookup(value)` gives the canonical value (None when unknown), `canonical(value)` the canonical
value or the normalised text, `forms(canon)` the listed surface forms, `matches(expected, actual)` the
comparison the grader uses.
"""
from __future__ import annotations

import datetime as _dt
import functools
import importlib.resources
import itertools
import os
import re
import unicodedata
import zoneinfo
from typing import Any, Iterable, NamedTuple

# ----------------------------------------------------------------------------- text helpers

_EDGE_PUNCT = " \t\n\r.,;:!?\"'«»“”„`()[]{}"
_WS = re.compile(r"\s+")


# Unicode hyphens and dashes written between letters or as a minus (U+2010 hyphen, U+2011 no-break hyphen:
# frequent in reasoning models' output, "по‑итальянски", "Wi‑Fi"; figure dash, en and em dash, hyphen bullet,
# minus, small and full-width hyphen-minus) read as "-"; the soft hyphen is invisible and dropped.
_HYPHENS = str.maketrans({**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2043\u2212\ufe63\uff0d", "-"),
                          "\u00ad": None})


def fold(value: str) -> str:
    """NFKC, casefold, ё->е, every hyphen, dash and the minus sign as "-": the case- and form-blind text every
    rule reads (NFKC already makes no-break and thin spaces plain spaces, and superscripts plain digits: m² is
    m2)."""
    return unicodedata.normalize("NFKC", value).casefold().replace("ё", "е").translate(_HYPHENS)


def norm_text(value: Any) -> str:
    """NFKC, casefold, ё->е, collapsed whitespace, edge punctuation and quotes trimmed."""
    return _norm_str(value if isinstance(value, str) else str(value))


@functools.lru_cache(maxsize=16384)
def _norm_str(value: str) -> str:
    # Cached: grading normalises the same expected values and prose over and over (pure function).
    return _WS.sub(" ", fold(value)).strip(_EDGE_PUNCT)


_SEPARATORS = re.compile(r"[-_.]+")


def _key(value: Any) -> str:
    """Lookup key for alias tables: norm_text, hyphens/underscores/dots as spaces, no accents on Latin
    letters (São Paulo = Sao Paulo, Zürich = Zurich, Tōkyō = Tokyo; Cyrillic й stays й)."""
    s = _SEPARATORS.sub(" ", norm_text(value))
    if not s.isascii():
        s = _LATIN_ACCENT.sub(r"\1", unicodedata.normalize("NFD", s))
        s = unicodedata.normalize("NFC", s)
    return _WS.sub(" ", s).strip()


_LATIN_ACCENT = re.compile(r"([a-z])[\u0300-\u036f]+")


# Russian and English prepositions that precede a place/language/unit word ("в Москве", "на английский").
_PREPOSITIONS = ("в", "во", "на", "для", "из", "по", "с", "со", "к", "in", "into", "to", "for", "at", "from",
                 "the", "of")


def _strip_prepositions(key: str, words: Iterable[str] = _PREPOSITIONS) -> str:
    """The key without leading words from `words` (a word alone is kept: "in" may be the inch)."""
    parts = key.split(" ")
    i = 0
    while i < len(parts) - 1 and parts[i] in words:
        i += 1
    return " ".join(parts[i:])


_BRACKETED = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")


def _bracket_readings(text: str) -> list[str]:
    """The text without its bracketed parts, then each bracketed part: "US Dollar (USD)" -> us dollar, usd."""
    if "(" not in text and "[" not in text:
        return [text]
    inside = [a or b for a, b in _BRACKETED.findall(text)]
    return [_BRACKETED.sub(" ", text), *inside]


# ----------------------------------------------------------------------------- inflection

# Russian case endings of nouns and adjectives (singular and plural); a word may drop one of them.
_RU_ENDINGS = tuple(sorted({
    "а", "я", "о", "е", "и", "ы", "у", "ю", "ь", "й",
    "ой", "ей", "ий", "ый", "ая", "яя", "ое", "ее", "ые", "ие", "ую", "юю", "ом", "ем", "ах", "ях", "ов", "ев",
    "ам", "ям", "ью", "ия", "ии", "ию", "их", "ых", "им", "ым", "ою", "ею",
    "ого", "его", "ому", "ему", "ами", "ями", "ыми", "ими", "ьми",
}, key=len, reverse=True))
_RU_MIN_STEM = 3
_CYRILLIC = re.compile("[а-я]")
_LATIN_WORD = re.compile("[a-z]+")


@functools.lru_cache(maxsize=65536)
def _word_stems(word: str, english: bool) -> tuple[str, ...]:
    """The readings of one word: itself first, then itself without one Russian case ending (3+ letters
    left), or, when `english`, the singular of an English plural."""
    out = [word]
    if _CYRILLIC.search(word):
        out += [word[:-len(e)] for e in _RU_ENDINGS if word.endswith(e) and len(word) - len(e) >= _RU_MIN_STEM]
    elif english and len(word) >= 4 and _LATIN_WORD.fullmatch(word):
        if word.endswith("ies") and len(word) >= 5:
            out.append(word[:-3] + "y")
        elif word.endswith(("ches", "shes", "xes", "zes", "sses")):
            out.append(word[:-2])
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
            out.append(word[:-1])
    return tuple(dict.fromkeys(out))


_MAX_INFLECTED_WORDS = 6


def _variants(key: str, english: bool = False) -> list[str]:
    """Every reading of a key by `_word_stems`, word by word; the least-reduced readings first."""
    words = key.split(" ")
    if len(words) > _MAX_INFLECTED_WORDS:
        return [key]
    options = [_word_stems(w, english) for w in words]
    if all(len(o) == 1 for o in options):
        return [key]
    combos = sorted(itertools.product(*options), key=lambda c: sum(len(w) for w in words) - sum(map(len, c)))
    return [" ".join(c) for c in combos]


# ----------------------------------------------------------------------------- alias tables


MAX_ALIAS_LEN = 200   # characters; a longer value names nothing in any table


class AliasTable:
    """Maps many surface forms onto one canonical value, by the module's rules.

    `lookup(x)` is the canonical value x names, or None; `canonical(x)` is that value, or the normalised
    input when x is unknown, so unknown values still compare equal to themselves; `matches(e, a)` is the
    grader's comparison. Construction raises ValueError when the table is ambiguous (one normalised key
    for two canonical values).
    """

    english_plurals = False

    def __init__(self, name: str, entries: dict[str, list[str]]):
        self.name = name
        self.canonicals = tuple(entries)
        self._forms = {canon: tuple(forms) for canon, forms in entries.items()}
        self._map: dict[str, str] = {}
        for canon, forms in entries.items():
            for form in (canon, *forms):
                self._index(self._map, form, canon)
        self._cache: dict[Any, str | None] = {}

    def _index(self, index: dict[str, str], form: str, canon: str) -> None:
        for variant in _variants(_key(form), self.english_plurals):
            if index.setdefault(variant, canon) != canon:
                raise ValueError(f"ambiguous {self.name} table: {form!r} reads as {variant!r}, which is "
                                 f"already a form of {index[variant]!r}, not of {canon!r}")

    def _find(self, key: str, index: dict[str, str] | None = None) -> str | None:
        """The canonical value of a normalised key (or of one of its inflected readings)."""
        index = self._map if index is None else index
        for variant in _variants(key, self.english_plurals):
            found = index.get(variant)
            if found is not None:
                return found
        return None

    def lookup(self, value: Any) -> str | None:
        """The canonical value for a known form, else None."""
        cache_key = value if isinstance(value, str) else (type(value), repr(value))
        # Memoised (grading throughput); bounded so a long run over unique strings cannot grow it forever.
        try:
            return self._cache[cache_key]
        except KeyError:
            pass
        text = value if isinstance(value, str) else str(value)
        if len(text) > MAX_ALIAS_LEN:      # no alias is that long; not cached (a 1 MB value stays out of memory)
            return None
        if len(self._cache) >= 65536:
            self._cache.clear()
        found = self._cache[cache_key] = self._lookup(text)
        return found

    def _lookup(self, value: str) -> str | None:
        for reading in _bracket_readings(fold(value)):
            k = _key(reading)
            found = self._find(k) or self._find(_strip_prepositions(k))
            if found is not None:
                return found
        return None

    def forms(self, canon: str) -> tuple[str, ...]:
        """The non-canonical surface forms listed for a canonical value."""
        return self._forms.get(canon, ())

    def canonical(self, value: Any) -> str:
        """The canonical value, or (unknown values) the normalised text, equal only to itself."""
        found = self.lookup(value)
        if found is not None:
            return found
        text = value if isinstance(value, str) else str(value)
        # An over-long value is itself: it equals no canonical value, and normalising it would cost time.
        return self._unknown_key(text) if len(text) <= MAX_ALIAS_LEN else text

    def _unknown_key(self, value: str) -> str:
        return _key(value)

    def matches(self, expected: Any, actual: Any) -> bool:
        """True when the model's `actual` value names the `expected` one (the grader's alias comparison)."""
        return self.canonical(expected) == self.canonical(actual)

    def __contains__(self, value: Any) -> bool:
        return self.lookup(value) is not None


# ----------------------------------------------------------------------------- regions (for cities, zones)

class _Country(NamedTuple):
    code: str               # ISO 3166-1 alpha-2
    code3: str              # alpha-3
    zone: str | None        # the zone the country means (its main zone); None where it spans several
    names: str              # English and Russian names, "|"-separated


_COUNTRIES = tuple(_Country(*row) for row in (
    ("RU", "RUS", None, "russia|russian federation|rf|россия|российская федерация|рф"),
    ("US", "USA", None, "united states|united states of america|usa|us|u s|u s a|america|the states|"
                        "сша|соединенные штаты|соединенные штаты америки|америка"),
    ("GB", "GBR", "Europe/London", "united kingdom|uk|u k|great britain|britain|england|scotland|wales|"
                                   "northern ireland|великобритания|британия|англия|соединенное королевство|"
                                   "шотландия|уэльс"),
    ("DE", "DEU", "Europe/Berlin", "germany|deutschland|германия|фрг"),
    ("FR", "FRA", "Europe/Paris", "france|франция"),
    ("JP", "JPN", "Asia/Tokyo", "japan|nippon|япония"),
    ("ES", "ESP", "Europe/Madrid", "spain|espana|испания"),
    ("IT", "ITA", "Europe/Rome", "italy|italia|италия"),
    ("NL", "NLD", "Europe/Amsterdam", "netherlands|the netherlands|holland|нидерланды|голландия"),
    ("BE", "BEL", "Europe/Brussels", "belgium|бельгия"),
    ("LU", "LUX", "Europe/Luxembourg", "luxembourg|люксембург"),
    ("CH", "CHE", "Europe/Zurich", "switzerland|schweiz|suisse|швейцария"),
    ("AT", "AUT", "Europe/Vienna", "austria|osterreich|австрия"),
    ("CZ", "CZE", "Europe/Prague", "czech republic|czechia|чехия|чешская республика"),
    ("SK", "SVK", "Europe/Bratislava", "slovakia|словакия"),
    ("PL", "POL", "Europe/Warsaw", "poland|polska|польша"),
    ("HU", "HUN", "Europe/Budapest", "hungary|венгрия"),
    ("RO", "ROU", "Europe/Bucharest", "romania|румыния"),
    ("BG", "BGR", "Europe/Sofia", "bulgaria|болгария"),
    ("RS", "SRB", "Europe/Belgrade", "serbia|сербия"),
    ("HR", "HRV", "Europe/Zagreb", "croatia|хорватия"),
    ("SI", "SVN", "Europe/Ljubljana", "slovenia|словения"),
    ("GR", "GRC", "Europe/Athens", "greece|греция"),
    ("PT", "PRT", "Europe/Lisbon", "portugal|португалия"),
    ("IE", "IRL", "Europe/Dublin", "ireland|ирландия"),
    ("IS", "ISL", "Atlantic/Reykjavik", "iceland|исландия"),
    ("DK", "DNK", "Europe/Copenhagen", "denmark|дания"),
    ("NO", "NOR", "Europe/Oslo", "norway|norge|норвегия"),
    ("SE", "SWE", "Europe/Stockholm", "sweden|sverige|швеция"),
    ("FI", "FIN", "Europe/Helsinki", "finland|suomi|финляндия"),
    ("EE", "EST", "Europe/Tallinn", "estonia|эстония"),
    ("LV", "LVA", "Europe/Riga", "latvia|латвия"),
    ("LT", "LTU", "Europe/Vilnius", "lithuania|литва"),
    ("BY", "BLR", "Europe/Minsk", "belarus|беларусь|белоруссия|рб"),
    ("UA", "UKR", "Europe/Kyiv", "ukraine|украина"),
    ("MD", "MDA", "Europe/Chisinau", "moldova|молдова|молдавия"),
    ("TR", "TUR", "Europe/Istanbul", "turkey|turkiye|турция"),
    ("GE", "GEO", "Asia/Tbilisi", "georgia|грузия"),
    ("AM", "ARM", "Asia/Yerevan", "armenia|армения"),
    ("AZ", "AZE", "Asia/Baku", "azerbaijan|азербайджан"),
    ("KZ", "KAZ", "Asia/Almaty", "kazakhstan|казахстан"),
    ("UZ", "UZB", "Asia/Tashkent", "uzbekistan|узбекистан"),
    ("KG", "KGZ", "Asia/Bishkek", "kyrgyzstan|kirghizia|киргизия|кыргызстан"),
    ("TJ", "TJK", "Asia/Dushanbe", "tajikistan|таджикистан"),
    ("MN", "MNG", "Asia/Ulaanbaatar", "mongolia|монголия"),
    ("CN", "CHN", "Asia/Shanghai", "china|prc|people's republic of china|китай|кнр"),
    ("HK", "HKG", "Asia/Hong_Kong", "hong kong|гонконг"),
    ("TW", "TWN", "Asia/Taipei", "taiwan|тайвань"),
    ("KR", "KOR", "Asia/Seoul", "south korea|korea|republic of korea|южная корея|корея"),
    ("KP", "PRK", "Asia/Pyongyang", "north korea|кндр|северная корея"),
    ("IN", "IND", "Asia/Kolkata", "india|индия"),
    ("PK", "PAK", "Asia/Karachi", "pakistan|пакистан"),
    ("BD", "BGD", "Asia/Dhaka", "bangladesh|бангладеш"),
    ("LK", "LKA", "Asia/Colombo", "sri lanka|шри ланка"),
    ("NP", "NPL", "Asia/Kathmandu", "nepal|непал"),
    ("TH", "THA", "Asia/Bangkok", "thailand|таиланд|тайланд"),
    ("VN", "VNM", "Asia/Ho_Chi_Minh", "vietnam|viet nam|вьетнам"),
    ("MY", "MYS", "Asia/Kuala_Lumpur", "malaysia|малайзия"),
    ("SG", "SGP", "Asia/Singapore", "singapore|сингапур"),
    ("ID", "IDN", None, "indonesia|индонезия"),
    ("PH", "PHL", "Asia/Manila", "philippines|филиппины"),
    ("AE", "ARE", "Asia/Dubai", "united arab emirates|uae|emirates|оаэ|объединенные арабские эмираты|эмираты"),
    ("SA", "SAU", "Asia/Riyadh", "saudi arabia|саудовская аравия"),
    ("QA", "QAT", "Asia/Qatar", "qatar|катар"),
    ("IL", "ISR", "Asia/Jerusalem", "israel|израиль"),
    ("IR", "IRN", "Asia/Tehran", "iran|иран"),
    ("IQ", "IRQ", "Asia/Baghdad", "iraq|ирак"),
    ("EG", "EGY", "Africa/Cairo", "egypt|египет"),
    ("MA", "MAR", "Africa/Casablanca", "morocco|марокко"),
    ("NG", "NGA", "Africa/Lagos", "nigeria|нигерия"),
    ("KE", "KEN", "Africa/Nairobi", "kenya|кения"),
    ("ZA", "ZAF", "Africa/Johannesburg", "south africa|юар|южная африка|южно африканская республика"),
    ("AU", "AUS", None, "australia|австралия"),
    ("NZ", "NZL", "Pacific/Auckland", "new zealand|новая зеландия"),
    ("CA", "CAN", None, "canada|канада"),
    ("MX", "MEX", None, "mexico|мексика"),
    ("BR", "BRA", None, "brazil|brasil|бразилия"),
    ("AR", "ARG", "America/Argentina/Buenos_Aires", "argentina|аргентина"),
    ("CL", "CHL", "America/Santiago", "chile|чили"),
    ("CO", "COL", "America/Bogota", "colombia|колумбия"),
    ("PE", "PER", "America/Lima", "peru|перу"),
    ("CU", "CUB", "America/Havana", "cuba|куба"),
))

# Subdivisions that appear after a city name: "<code> <names>" per entry, tagged "<country>-<code>".
_SUBDIVISIONS = {
    "US": "AL alabama|AK alaska|AZ arizona|AR arkansas|CA california|калифорния|CO colorado|"
          "CT connecticut|DE delaware|FL florida|флорида|GA georgia|джорджия|HI hawaii|гавайи|ID idaho|"
          "IL illinois|иллинойс|IN indiana|IA iowa|KS kansas|KY kentucky|LA louisiana|ME maine|"
          "MD maryland|MA massachusetts|массачусетс|MI michigan|MN minnesota|MS mississippi|MO missouri|"
          "MT montana|NE nebraska|NV nevada|невада|NH new hampshire|NJ new jersey|NM new mexico|"
          "NY new york|new york state|NC north carolina|ND north dakota|OH ohio|OK oklahoma|OR oregon|"
          "PA pennsylvania|RI rhode island|SC south carolina|SD south dakota|TN tennessee|TX texas|техас|"
          "UT utah|VT vermont|VA virginia|WA washington|washington state|WV west virginia|WI wisconsin|"
          "WY wyoming|DC district of columbia|округ колумбия",
    "CA": "ON ontario|онтарио|QC quebec|квебек|BC british columbia|AB alberta|MB manitoba|SK saskatchewan|"
          "NS nova scotia|NB new brunswick|NL newfoundland and labrador|newfoundland|PE prince edward island|"
          "YT yukon|NT northwest territories|NU nunavut",
    "AU": "NSW new south wales|новый южный уэльс|VIC victoria|QLD queensland|WA western australia|"
          "SA south australia|TAS tasmania|ACT australian capital territory|NT northern territory",
}


def _region_key(key: str) -> str:
    return key.replace(" ", "")


def _build_regions() -> dict[str, frozenset[str]]:
    """Region vocabulary: squashed normalised name or code (and its Russian inflected readings) -> tags.

    A tag is a country code ("US") or a subdivision ("US-CA"); a key may carry several ("ca": Canada and
    California; "georgia": the country and the state)."""
    regions: dict[str, set[str]] = {}

    def add(name: str, tag: str) -> None:
        for variant in _variants(_key(name)):
            regions.setdefault(_region_key(variant), set()).add(tag)

    for c in _COUNTRIES:
        for name in (c.code, c.code3, *c.names.split("|")):
            add(name, c.code)
    for country, table in _SUBDIVISIONS.items():
        tag = ""
        for entry in table.split("|"):
            head, _, rest = entry.partition(" ")
            if head.isupper():                      # "CA california": a new subdivision, code first
                tag = f"{country}-{head}"
                add(head, tag)
                entry = rest
            add(entry, tag)
    return {k: frozenset(v) for k, v in regions.items()}


_REGIONS = _build_regions()
_COUNTRY_ZONES = {c.code: c.zone for c in _COUNTRIES}


def _region_tags(key: str) -> frozenset[str] | None:
    """The region tags a normalised key names ("ca" -> {CA, US-CA}; "России" -> {RU}), else None."""
    if not key:
        return None
    for variant in _variants(key):
        tags = _REGIONS.get(_region_key(variant))
        if tags is not None:
            return tags
    return None


# ----------------------------------------------------------------------------- cities

class _City(NamedTuple):
    name: str                # canonical (English)
    country: str             # ISO 3166-1 alpha-2
    subdivision: str | None  # "US-CA" where a region code is commonly written after the name
    zone: str                # IANA time zone
    forms: tuple[str, ...]   # other names: English variants, endonyms, Russian (nominative), abbreviations


def _cities(*rows: tuple) -> tuple[_City, ...]:
    return tuple(_City(name, country, subdivision, zone, tuple(forms.split("|")) if forms else ())
                 for name, country, subdivision, zone, forms in rows)


_CITY_DATA = _cities(
    ("Berlin", "DE", None, "Europe/Berlin", "берлин"),
    ("Paris", "FR", None, "Europe/Paris", "париж"),
    ("London", "GB", None, "Europe/London", "лондон"),
    ("Moscow", "RU", None, "Europe/Moscow", "москва|мск|moskva"),
    ("Saint Petersburg", "RU", None, "Europe/Moscow", "st petersburg|st. petersburg|saint-petersburg|petersburg|"
     "sankt petersburg|sankt-peterburg|spb|спб|питер|санкт-петербург|петербург"),
    ("Tokyo", "JP", None, "Asia/Tokyo", "токио|tokio"),
    ("New York", "US", "US-NY", "America/New_York", "new york city|nyc|ny|нью-йорк"),
    ("Madrid", "ES", None, "Europe/Madrid", "мадрид"),
    ("Rome", "IT", None, "Europe/Rome", "рим|roma"),
    ("Kazan", "RU", None, "Europe/Moscow", "казань"),
    ("Novosibirsk", "RU", None, "Asia/Novosibirsk", "новосибирск|nsk"),
    ("Sochi", "RU", None, "Europe/Moscow", "сочи"),
    ("Yekaterinburg", "RU", None, "Asia/Yekaterinburg", "ekaterinburg|екатеринбург|екб"),
    ("Vladivostok", "RU", None, "Asia/Vladivostok", "владивосток"),
    ("Kaliningrad", "RU", None, "Europe/Kaliningrad", "калининград"),
    ("Beijing", "CN", None, "Asia/Shanghai", "peking|пекин"),
    ("Sydney", "AU", "AU-NSW", "Australia/Sydney", "сидней"),
    ("Los Angeles", "US", "US-CA", "America/Los_Angeles", "la|l.a.|лос-анджелес"),
    ("Chicago", "US", "US-IL", "America/Chicago", "чикаго"),
    ("Dubai", "AE", None, "Asia/Dubai", "дубай|дубаи|дубая"),
    ("Istanbul", "TR", None, "Europe/Istanbul", "стамбул"),
    ("Amsterdam", "NL", None, "Europe/Amsterdam", "амстердам"),
    ("Prague", "CZ", None, "Europe/Prague", "praha|прага"),
    ("Vienna", "AT", None, "Europe/Vienna", "wien|вена"),
    ("Warsaw", "PL", None, "Europe/Warsaw", "warszawa|варшава"),
    ("Helsinki", "FI", None, "Europe/Helsinki", "хельсинки"),
    ("Toronto", "CA", "CA-ON", "America/Toronto", "торонто"),
    ("Singapore", "SG", None, "Asia/Singapore", "сингапур"),
    ("Seoul", "KR", None, "Asia/Seoul", "сеул"),
    ("Mumbai", "IN", None, "Asia/Kolkata", "bombay|мумбаи|бомбей"),
    ("Cairo", "EG", None, "Africa/Cairo", "каир"),
    ("Lisbon", "PT", None, "Europe/Lisbon", "lisboa|лиссабон"),
    ("Barcelona", "ES", None, "Europe/Madrid", "барселона"),
    ("Minsk", "BY", None, "Europe/Minsk", "минск"),
    ("Almaty", "KZ", None, "Asia/Almaty", "алматы|алма-ата|alma-ata"),
    ("Tbilisi", "GE", None, "Asia/Tbilisi", "тбилиси"),
    ("Riga", "LV", None, "Europe/Riga", "рига"),
    ("Oslo", "NO", None, "Europe/Oslo", "осло"),
    ("Stockholm", "SE", None, "Europe/Stockholm", "стокгольм"),
    ("Washington", "US", "US-DC", "America/New_York", "вашингтон"),
    ("San Francisco", "US", "US-CA", "America/Los_Angeles", "sf|сан-франциско"),
    ("Murmansk", "RU", None, "Europe/Moscow", "мурманск"),
    ("Irkutsk", "RU", None, "Asia/Irkutsk", "иркутск"),
)

# Other cities: places a time zone may be named by ("Munich", "Boston"). Not canonical cities: the world's
# weather table and the corpus know only the cities above.
_OTHER_CITY_DATA = _cities(
    ("Boston", "US", "US-MA", "America/New_York", "бостон"),
    ("Philadelphia", "US", "US-PA", "America/New_York", "филадельфия"),
    ("Atlanta", "US", "US-GA", "America/New_York", "атланта"),
    ("Detroit", "US", "US-MI", "America/Detroit", "детройт"),
    ("Dallas", "US", "US-TX", "America/Chicago", "даллас"),
    ("Denver", "US", "US-CO", "America/Denver", "денвер"),
    ("Phoenix", "US", "US-AZ", "America/Phoenix", "феникс"),
    ("Anchorage", "US", "US-AK", "America/Anchorage", "анкоридж"),
    ("Honolulu", "US", "US-HI", "Pacific/Honolulu", "гонолулу"),
    ("Ottawa", "CA", "CA-ON", "America/Toronto", "оттава"),
    ("Calgary", "CA", "CA-AB", "America/Edmonton", "калгари"),
    ("Miami", "US", "US-FL", "America/New_York", "майами"),
    ("Seattle", "US", "US-WA", "America/Los_Angeles", "сиэтл"),
    ("Houston", "US", "US-TX", "America/Chicago", "хьюстон"),
    ("Las Vegas", "US", "US-NV", "America/Los_Angeles", "лас-вегас"),
    ("Vancouver", "CA", "CA-BC", "America/Vancouver", "ванкувер"),
    ("Montreal", "CA", "CA-QC", "America/Toronto", "montréal|монреаль"),
    ("Mexico City", "MX", None, "America/Mexico_City", "ciudad de mexico|cdmx|мехико"),
    ("Sao Paulo", "BR", None, "America/Sao_Paulo", "são paulo|сан-паулу"),
    ("Rio de Janeiro", "BR", None, "America/Sao_Paulo", "rio|рио-де-жанейро"),
    ("Buenos Aires", "AR", None, "America/Argentina/Buenos_Aires", "буэнос-айрес"),
    ("Melbourne", "AU", "AU-VIC", "Australia/Melbourne", "мельбурн"),
    ("Auckland", "NZ", None, "Pacific/Auckland", "окленд"),
    ("Hong Kong", "HK", None, "Asia/Hong_Kong", "гонконг"),
    ("Shanghai", "CN", None, "Asia/Shanghai", "шанхай"),
    ("Bangkok", "TH", None, "Asia/Bangkok", "бангкок"),
    ("Delhi", "IN", None, "Asia/Kolkata", "new delhi|дели|нью-дели"),
    ("Jakarta", "ID", None, "Asia/Jakarta", "джакарта"),
    ("Athens", "GR", None, "Europe/Athens", "athina|афины"),
    ("Budapest", "HU", None, "Europe/Budapest", "будапешт"),
    ("Brussels", "BE", None, "Europe/Brussels", "bruxelles|брюссель"),
    ("Copenhagen", "DK", None, "Europe/Copenhagen", "kobenhavn|копенгаген"),
    ("Dublin", "IE", None, "Europe/Dublin", "дублин"),
    ("Zurich", "CH", None, "Europe/Zurich", "zürich|цюрих"),
    ("Geneva", "CH", None, "Europe/Zurich", "genève|geneve|женева"),
    ("Munich", "DE", None, "Europe/Berlin", "münchen|muenchen|мюнхен"),
    ("Milan", "IT", None, "Europe/Rome", "milano|милан"),
    ("Kyiv", "UA", None, "Europe/Kyiv", "kiev|киев|київ"),
    ("Vilnius", "LT", None, "Europe/Vilnius", "вильнюс"),
    ("Tallinn", "EE", None, "Europe/Tallinn", "таллин|таллинн"),
    ("Yerevan", "AM", None, "Asia/Yerevan", "ереван"),
    ("Baku", "AZ", None, "Asia/Baku", "баку"),
    ("Tashkent", "UZ", None, "Asia/Tashkent", "ташкент"),
    ("Astana", "KZ", None, "Asia/Almaty", "nur-sultan|астана"),
    ("Nizhny Novgorod", "RU", None, "Europe/Moscow", "нижний новгород"),
    ("Samara", "RU", None, "Europe/Samara", "самара"),
    ("Rostov-on-Don", "RU", None, "Europe/Moscow", "rostov|ростов-на-дону|ростов"),
    ("Krasnodar", "RU", None, "Europe/Moscow", "краснодар"),
    ("Omsk", "RU", None, "Asia/Omsk", "омск"),
    ("Krasnoyarsk", "RU", None, "Asia/Krasnoyarsk", "красноярск"),
    ("Perm", "RU", None, "Asia/Yekaterinburg", "пермь"),
    ("Khabarovsk", "RU", None, "Asia/Vladivostok", "хабаровск"),
    ("Jerusalem", "IL", None, "Asia/Jerusalem", "иерусалим"),
    ("Tel Aviv", "IL", None, "Asia/Jerusalem", "tel aviv-yafo|тель-авив"),
    ("Reykjavik", "IS", None, "Atlantic/Reykjavik", "reykjavík|рейкьявик"),
    ("Cape Town", "ZA", None, "Africa/Johannesburg", "кейптаун"),
    ("Nairobi", "KE", None, "Africa/Nairobi", "найроби"),
    ("Lagos", "NG", None, "Africa/Lagos", "лагос"),
)

# Words before a city name that only say "city" ("г. Москва", "город Казань", "the city of London").
_CITY_WORDS = ("г", "гор", "город", "city", "of", *_PREPOSITIONS)
_MAX_PARTS = 6


class CityTable(AliasTable):
    """Cities, read with their region qualifiers (module docstring: city)."""

    def __init__(self, name: str, cities: tuple[_City, ...]):
        super().__init__(name, {c.name: list(c.forms) for c in cities})
        self._where = {c.name: frozenset(filter(None, (c.country, c.subdivision))) for c in cities}
        self._zones = {c.name: c.zone for c in cities}
        self._names = {c.name: (c.name, *c.forms) for c in cities}

    def zone(self, city: str) -> str | None:
        """The IANA time zone of a canonical city."""
        return self._zones.get(city)

    def names(self, city: str) -> tuple[str, ...]:
        """A canonical city's names as written: the canonical one first, then its other forms (English
        variants, endonyms, the Russian nominative, abbreviations); () for a city the table lacks."""
        return self._names.get(city, ())

    def _parts(self, value: str) -> list[str]:
        readings = _bracket_readings(fold(value))
        parts = readings[0].split(",") + readings[1:]
        keys = [_strip_prepositions(_key(p), _CITY_WORDS) for p in parts]
        return [k for k in keys if k]

    def _city_in(self, key: str) -> tuple[str | None, list[frozenset[str]]]:
        """(city, [region tags written after it without a comma]) for one comma-separated part."""
        found = self._find(key)
        if found is not None:
            return found, []
        words = key.split(" ")
        if len(words) > _MAX_INFLECTED_WORDS:
            return None, []
        for n in range(1, min(4, len(words) - 1) + 1):   # "united states of america" has four words
            tags = _region_tags(" ".join(words[-n:]))
            if tags:
                city, qualifiers = self._city_in(" ".join(words[:-n]))
                if city is not None:
                    return city, [*qualifiers, tags]
        return None, []

    def _lookup(self, value: str) -> str | None:
        parts = self._parts(value)
        if not parts or len(parts) > _MAX_PARTS:
            return None
        readings = [(*self._city_in(p), _region_tags(p)) for p in parts]
        # The city is the first part that names one, unless a later part is (also) a region: in
        # "New York, New York" the second part is the state.
        at = next((i for i, (city, _, regions) in enumerate(readings) if city and (i == 0 or not regions)), None)
        if at is None:
            return None
        city, qualifiers, _ = readings[at]
        assert city is not None     # `at` is a part that names a city
        where = self._where[city]
        if any(not (q & where) for q in qualifiers):
            return None
        for i, (other, _, regions) in enumerate(readings):
            if i != at and (not (regions & where) if regions else other not in (None, city)):
                return None
        if any(self._carries_another(r, city) for r in _bracket_readings(fold(value))[1:]):
            return None
        return city

    def _carries_another(self, bracketed: str, city: str) -> bool:
        """Whether a bracketed part carries a result or another place: a digit ("Warsaw (Madrid: 24°C)",
        "Tokyo (14°C)"), or a known city other than `city` at its start ("Warsaw (Madrid …)")."""
        if any(ch.isdigit() for ch in bracketed):
            return True
        words = _key(bracketed).split(" ")
        return any(self._find(" ".join(words[:n])) not in (None, city) for n in range(1, min(3, len(words)) + 1))

    def _unknown_key(self, value: str) -> str:
        # An unknown city keeps its name without region qualifiers ("Boston, MA" = "Boston MA" = "Boston"),
        # unless its name is a known city's (then "Paris, Texas" must stay unlike "Paris").
        parts = self._parts(value)
        if not parts or self._find(parts[0]) is not None:
            return _key(value)
        words = parts[0].split(" ")
        while len(words) > 1 and _region_tags(words[-1]):
            words.pop()
        return " ".join(words)


CITIES = CityTable("city", _CITY_DATA)
_PLACES = CityTable("place", _CITY_DATA + _OTHER_CITY_DATA)   # for time zones

# ----------------------------------------------------------------------------- languages

_LANGUAGE_DATA = {
    # ISO 639-1: English name, endonyms, ISO 639-2/B, 639-2/T, 639-3, misused country codes, Russian
    "en": "english|eng|английский|англ",
    "ru": "russian|rus|русский|рус",
    "de": "german|deutsch|ger|deu|немецкий|нем",
    "fr": "french|français|francais|fre|fra|французский|франц|фр",
    "es": "spanish|español|espanol|castellano|spa|испанский|исп",
    "it": "italian|italiano|ita|итальянский|итал",
    "ja": "japanese|日本語|nihongo|jpn|jp|японский|яп",
    "zh": "chinese|mandarin|中文|汉语|漢語|普通话|zho|chi|cmn|cn|китайский|кит",
    "pt": "portuguese|português|portugues|por|португальский",
    "uk": "ukrainian|українська|ukr|ua|украинский|укр",
    "pl": "polish|polski|pol|польский",
    "tr": "turkish|türkçe|turkce|tur|турецкий",
    "ar": "arabic|العربية|ara|арабский",
    "ko": "korean|한국어|kor|kr|корейский",
    "nl": "dutch|nederlands|flemish|dut|nld|нидерландский|голландский",
    "fi": "finnish|suomi|fin|финский",
    "sv": "swedish|svenska|swe|шведский",
    "cs": "czech|čeština|cestina|cze|ces|cz|чешский",
    "el": "greek|ελληνικά|gre|ell|gr|греческий",
    "he": "hebrew|עברית|heb|iw|иврит",
    "hi": "hindi|हिन्दी|hin|хинди",
    "da": "danish|dansk|dan|dk|датский",
    "no": "norwegian|norsk|bokmål|bokmal|nor|nob|nb|норвежский",
    "hu": "hungarian|magyar|hun|венгерский",
    "ro": "romanian|română|romana|rum|ron|румынский",
    "bg": "bulgarian|български|bul|болгарский",
    "sr": "serbian|српски|srpski|srp|сербский",
    "hr": "croatian|hrvatski|hrv|хорватский",
    "sk": "slovak|slovenčina|slo|slk|словацкий",
    "be": "belarusian|беларуская|bel|белорусский",
    "kk": "kazakh|қазақша|kaz|казахский",
    "uz": "uzbek|oʻzbek|o'zbek|uzb|узбекский",
    "hy": "armenian|հայերեն|arm|hye|армянский",
    "ka": "georgian|ქართული|geo|kat|грузинский",
    "az": "azerbaijani|azeri|azərbaycan|aze|азербайджанский",
    "vi": "vietnamese|tiếng việt|vie|вьетнамский",
    "th": "thai|ไทย|tha|тайский",
    "id": "indonesian|bahasa indonesia|ind|индонезийский",
    "fa": "persian|farsi|فارسی|per|fas|персидский|фарси",
    "la": "latin|lat|латынь|латинский",
    "lt": "lithuanian|lietuvių|lit|литовский",
    "lv": "latvian|latviešu|lav|латышский",
    "et": "estonian|eesti|est|эстонский",
    "ms": "malay|bahasa melayu|may|msa|малайский",
    "bn": "bengali|bangla|বাংলা|ben|бенгальский",
    "sw": "swahili|kiswahili|swa|суахили",
}
_LOCALE_TAG = re.compile(r"([a-z]{2,3})(?:[-_][a-z0-9]{1,8})+")
_MIN_NAME_LETTERS = 4   # words shorter than this may be codes or prepositions ("it", "in"): never scanned


class LanguageTable(AliasTable):
    """Languages, read from codes, locale tags, names and endonyms (module docstring: language)."""

    def _lookup(self, value: str) -> str | None:
        found = super()._lookup(value)
        if found is not None:
            return found
        text = norm_text(value)
        tag = _LOCALE_TAG.fullmatch(text)
        if tag:
            return self._find(tag.group(1))
        named = {self._find(w) for w in _key(text).split(" ") if len(w) >= _MIN_NAME_LETTERS} - {None}
        return named.pop() if len(named) == 1 else None


LANGUAGES = LanguageTable("language", {code: names.split("|") for code, names in _LANGUAGE_DATA.items()})

# ----------------------------------------------------------------------------- currencies


class CurrencyTable(AliasTable):
    """Currencies (module docstring: currency)."""

    english_plurals = True

    def _lookup(self, value: str) -> str | None:
        found = super()._lookup(value)
        if found is not None:
            return found
        # "USD $", "usd dollars": every word names the same currency (one unknown word, such as the
        # adjective of "canadian dollar" written some other way, makes the value unknown).
        words = _key(_BRACKETED.sub(" ", fold(value))).split(" ")
        named = {self._find(w) for w in words}
        return named.pop() if len(words) > 1 and len(named) == 1 and None not in named else None


CURRENCIES = CurrencyTable("currency", {
    "USD": ["$", "us$", "usd$", "$us", "dollar", "us dollar", "u.s. dollar", "united states dollar",
            "american dollar", "buck", "доллар", "доллар сша", "американский доллар", "долл", "бакс"],
    "EUR": ["€", "euro", "евро"],
    "RUB": ["₽", "rub", "rur", "ruble", "rouble", "russian ruble", "russian rouble", "руб", "р", "рубль",
            "российский рубль"],
    "GBP": ["£", "pound", "pound sterling", "sterling", "british pound", "uk pound", "quid", "фунт",
            "фунт стерлингов", "британский фунт"],
    "JPY": ["¥", "jp¥", "yen", "japanese yen", "円", "иена", "йена", "японская иена", "японская йена"],
    "CNY": ["cn¥", "yuan", "renminbi", "rmb", "chinese yuan", "元", "人民币", "юань", "китайский юань"],
    "CHF": ["swiss franc", "franc", "sfr", "франк", "швейцарский франк"],
    "KZT": ["₸", "tenge", "kazakhstani tenge", "тенге", "казахстанский тенге"],
    "TRY": ["₺", "lira", "turkish lira", "tl", "лира", "турецкая лира"],
    "AED": ["dirham", "uae dirham", "emirati dirham", "дирхам", "дирхам оаэ"],
    "INR": ["₹", "rupee", "indian rupee", "rs", "рупия", "индийская рупия"],
    "CAD": ["c$", "ca$", "can$", "canadian dollar", "канадский доллар"],
    "AUD": ["a$", "au$", "australian dollar", "австралийский доллар"],
    "BYN": ["byr", "belarusian ruble", "belarusian rouble", "белорусский рубль"],
    "GEL": ["₾", "lari", "georgian lari", "лари", "грузинский лари"],
    "SEK": ["swedish krona", "swedish kronor", "шведская крона"],
    "NOK": ["norwegian krone", "norwegian kroner", "норвежская крона"],
    "CZK": ["kč", "czech koruna", "czech crown", "чешская крона"],
    "PLN": ["zł", "zloty", "złoty", "zlotych", "polish zloty", "злотый", "польский злотый"],
    "KRW": ["₩", "won", "korean won", "south korean won", "вона", "корейская вона", "южнокорейская вона"],
})

# ----------------------------------------------------------------------------- units

# Canonical units defined by other units: their component signature (module docstring: unit).
_UNIT_DEFINITIONS = {"km/h": "km/h", "mph": "mi/h", "m/s": "m/s", "knot": "nmi/h", "m2": "m^2", "ft2": "ft^2"}
# Base units that only occur inside a canonical unit (a nautical mile alone is not a canonical unit).
_UNIT_COMPONENTS = {"nmi": ["nautical mile", "nautical miles", "морская миля"]}
_UNIT_TOKEN = re.compile(r"[^\W\d_]+|\d+|[/^*·⋅×°.-]")
_RATIO_WORDS = frozenset({"/", "per", "a", "an", "в", "за"})
_FILLER_SYMBOLS = frozenset("°.*·⋅×")
_FILLER_WORDS = frozenset({"degree", "deg", "градус", "по", "of"})   # compared by stem: degrees, градусов
_DEGREE_CYRILLIC = re.compile(r"(?:°|градус[а-я]*)\s*([сфк])(?![а-я])")
_CYRILLIC_SCALES = {"с": "c", "ф": "f", "к": "k"}
_POWER_WORDS = {"sq": 2, "square": 2, "squared": 2, "кв": 2, "квадратн": 2, "cubic": 3, "cu": 3, "cubed": 3,
                "куб": 3, "кубическ": 3}


def _bag(key: str) -> str:
    """A normalised key's words in sorted order (the same words in any order give the same bag)."""
    return " ".join(sorted(key.split(" ")))


class UnitTable(AliasTable):
    """Units: listed forms, then a compositional reading (module docstring: unit)."""

    english_plurals = True

    def __init__(self, name: str, entries: dict[str, list[str]]):
        super().__init__(name, entries)
        atoms = {u: entries[u] for u in entries if u not in _UNIT_DEFINITIONS} | _UNIT_COMPONENTS
        self._atoms: dict[str, str] = {}
        for unit, forms in atoms.items():
            for form in (unit, *forms):
                self._index(self._atoms, form, unit)
        # Multi-word forms by their words in any order: "cup_us" = "us cup", "gallons US" = "US gallon".
        self._word_bags: dict[str, str] = {}
        for unit, forms in entries.items():
            for form in forms:
                for variant in _variants(_key(form), self.english_plurals):
                    if " " in variant:
                        self._word_bags.setdefault(_bag(variant), unit)
        self._by_signature: dict[tuple, str] = {}
        for unit in entries:
            signature = self._signature(_UNIT_DEFINITIONS.get(unit, unit))
            owner = None if signature is None else self._by_signature.setdefault(signature, unit)
            if owner != unit:
                raise ValueError(f"unit {unit!r}: no signature, or the signature of {owner!r}")

    def _lookup(self, value: str) -> str | None:
        found = super()._lookup(value)
        if found is not None:
            return found
        for variant in _variants(_strip_prepositions(_key(value)), self.english_plurals):
            bag = self._word_bags.get(_bag(variant))
            if bag is not None:
                return bag
        signature = self._signature(_strip_prepositions(norm_text(value)))
        return self._by_signature.get(signature) if signature is not None else None

    @staticmethod
    def _filler(token: str) -> bool:
        return token in _FILLER_SYMBOLS or bool(set(_word_stems(token, True)) & _FILLER_WORDS)

    def _power_word(self, token: str) -> int | None:
        return next((_POWER_WORDS[s] for s in _word_stems(token, False) if s in _POWER_WORDS), None)

    def _signature(self, text: str) -> tuple[tuple[str, int], ...] | None:
        """The sorted ((base unit, power), ...) of a unit expression, or None when a word is not a unit."""
        # "°С", "градусов С" typed with a Cyrillic С (or Ф, К): a temperature scale, not the second.
        raw = _UNIT_TOKEN.findall(_DEGREE_CYRILLIC.sub(lambda m: "°" + _CYRILLIC_SCALES[m.group(1)],
                                                       fold(text).replace("**", "^")))
        # A hyphen is a minus only before a digit (s-1); elsewhere it joins words (kilometers-per-hour).
        tokens = [t for n, t in enumerate(raw) if not self._filler(t)
                  and (t != "-" or (n + 1 < len(raw) and raw[n + 1].isdigit()))]
        if not tokens or len(tokens) > 12:
            return None
        powers: dict[str, int] = {}
        sign, i = 1, 0
        while i < len(tokens):
            if tokens[i] in _RATIO_WORDS:
                sign, i = -1, i + 1
                continue
            power = self._power_word(tokens[i])
            if power is not None:                      # "sq ft", "квадратных метров"
                i += 1
            unit, i = self._atom_at(tokens, i)
            if unit is None:
                return None
            power, i = self._power_after(tokens, i, power or 1)
            powers[unit] = powers.get(unit, 0) + sign * power
        return tuple(sorted((u, p) for u, p in powers.items() if p))

    def _atom_at(self, tokens: list[str], i: int) -> tuple[str | None, int]:
        """The longest base unit (1-3 words) at tokens[i:], and the index after it."""
        for n in (3, 2, 1):
            words = tokens[i:i + n]
            if len(words) == n and all(w.isalpha() for w in words):
                unit = self._find(" ".join(words), self._atoms)
                if unit is not None:
                    return unit, i + n
        return None, i

    def _power_after(self, tokens: list[str], i: int, power: int) -> tuple[int, int]:
        """A power written after a unit: ^2, ^-1, a digit (m2, m²), -1, squared, квадратных."""
        j = i + 1 if i < len(tokens) and tokens[i] == "^" else i
        negative = j < len(tokens) and tokens[j] == "-" and j + 1 < len(tokens) and tokens[j + 1].isdigit()
        j += negative
        if j < len(tokens) and tokens[j].isdigit() and len(tokens[j]) == 1:
            return (-1 if negative else 1) * int(tokens[j]), j + 1
        word = self._power_word(tokens[i]) if i < len(tokens) else None
        return (word, i + 1) if word is not None else (power, i)


UNITS = UnitTable("unit", {
    "m": ["meter", "metre", "м", "метр"],
    "km": ["kilometer", "kilometre", "kms", "км", "километр"],
    "cm": ["centimeter", "centimetre", "см", "сантиметр"],
    "mm": ["millimeter", "millimetre", "мм", "миллиметр"],
    "mi": ["mile", "statute mile", "миля"],
    "ft": ["foot", "feet", "фут"],
    "in": ["inch", "дюйм"],
    "yd": ["yard", "ярд"],
    "kg": ["kilogram", "kilogramme", "kilo", "кг", "килограмм", "кило"],
    "g": ["gram", "gramme", "г", "гр", "грамм"],
    "mg": ["milligram", "milligramme", "мг", "миллиграмм"],
    "lb": ["lbs", "pound", "фунт"],
    "oz": ["ounce", "унция"],
    "t": ["tonne", "metric ton", "т", "тонна"],
    "l": ["liter", "litre", "ltr", "л", "литр"],
    "ml": ["milliliter", "millilitre", "cc", "мл", "миллилитр"],
    "gal": ["gallon", "us gallon", "галлон"],
    "cup": ["us cup", "чашка", "чашек", "стакан"],
    "celsius": ["c", "°c", "degc", "centigrade", "metric", "цельсий", "градус", "°"],
    "fahrenheit": ["f", "°f", "degf", "imperial", "фаренгейт"],
    "kelvin": ["k", "°k", "кельвин"],
    "km/h": ["kph", "kmh", "kmph", "кмч"],
    "mph": [],
    "m/s": ["mps"],
    "knot": ["kn", "kt", "kts", "узел", "узла"],
    "m2": ["sqm", "sq m", "м2"],
    "ft2": ["sqft", "sq ft"],
    "ha": ["hectare", "га", "гектар"],
    "acre": ["ac", "акр"],
    "B": ["byte", "байт"],
    "KB": ["kilobyte", "kib", "кб", "килобайт"],
    "MB": ["megabyte", "mib", "мб", "мегабайт"],
    "GB": ["gigabyte", "gib", "гб", "гигабайт"],
    "TB": ["terabyte", "tib", "тб", "терабайт"],
    "s": ["sec", "second", "с", "сек", "секунда"],
    "min": ["minute", "мин", "минута"],
    "h": ["hr", "hrs", "hour", "ч", "час"],
    "day": ["d", "день", "дня", "дню", "днем", "дни", "дней", "дням", "днями", "днях", "сутки", "суток"],
    "week": ["wk", "неделя"],
})

# ----------------------------------------------------------------------------- time zones


def _tz_resource(name: str) -> str | None:
    """A tz database file, from the `tzdata` package first (the same data on every machine), else from
    the system's zoneinfo directories."""
    try:
        return importlib.resources.files("tzdata.zoneinfo").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        pass
    for directory in zoneinfo.TZPATH:
        try:
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                return f.read()
        except OSError:
            continue
    return None


class _TzDb(NamedTuple):
    names: dict[str, str]    # casefolded zone or link name -> its spelling
    links: dict[str, str]    # link name -> target
    located: frozenset[str]  # zone.tab's zones: the zone of a place, never resolved further
    cities: dict[str, str]   # the city part of a zone or link name ("new york", "kiev") -> resolved zone


@functools.cache
def _tzdb() -> _TzDb:
    names: dict[str, str] = {}
    links: dict[str, str] = {}
    compiled = _tz_resource("tzdata.zi")
    if compiled:
        for line in compiled.splitlines():
            if line.startswith("Z "):
                names[line.split()[1].casefold()] = line.split()[1]
            elif line.startswith("L "):
                _, target, link = line.split()[:3]
                links[link] = target
                names[link.casefold()] = link
    else:   # pragma: no cover - no tzdata.zi anywhere: names only, legacy links are not resolved
        names = {n.casefold(): n for n in zoneinfo.available_timezones()}
    table = _tz_resource("zone.tab") or ""
    located = frozenset(line.split("\t")[2] for line in table.splitlines() if line and not line.startswith("#"))
    db = _TzDb(names, links, located, {})
    seen: dict[str, str | None] = {}
    for name in names.values():
        if "/" in name and not name.startswith(("Etc/", "posix/", "right/")):
            city = _key(name.rsplit("/", 1)[1])
            zone = _resolve(db, name)
            seen[city] = zone if seen.get(city, zone) == zone else None   # a city part of two zones: neither
    db.cities.update({c: z for c, z in seen.items() if z})
    return db


def _resolve(db: _TzDb, name: str) -> str:
    """A zone name with legacy links followed; the zone of a place (zone.tab) is never followed, so
    Europe/Oslo stays Oslo although tzdata links it to Europe/Berlin (their clocks agree since 1970)."""
    for _ in range(4):
        if name in db.located or name not in db.links:
            break
        name = db.links[name]
    return name


class _Zone(NamedTuple):
    kind: str          # "geo" (a place's zone), "region" (a colloquial region) or "fixed" (an offset)
    zone: str          # geo: the zone; region: its representative zone; fixed: "UTC" or "Etc/GMT-3" ...
    offset: int = 0    # fixed: minutes east of UTC


def _fixed(minutes: int) -> _Zone:
    """A fixed offset, named as a loadable zone when there is one ("UTC", "Etc/GMT-3"; UTC+5:30 has none)."""
    hours, rest = divmod(abs(minutes), 60)
    name = "UTC" if minutes == 0 else (f"Etc/GMT{'-' if minutes > 0 else '+'}{hours}" if not rest else "")
    return _Zone("fixed", name, minutes)


_UTC_NAMES = frozenset({
    "utc", "gmt", "ut", "z", "zulu", "uct", "universal", "greenwich", "utc time", "gmt time", "utc0", "gmt0",
    "coordinated universal time", "universal time", "universal time coordinated", "greenwich mean time",
    "etc/utc", "etc/uct", "etc/gmt", "etc/gmt0", "etc/universal", "etc/zulu", "etc/greenwich",
    "всемирное время", "всемирное координированное время", "гринвич", "по гринвичу", "время по гринвичу",
})
_OFFSET = re.compile(r"(utc|gmt|ut|msk|мск|)\s*([+±-])\s*(\d{1,2})(?:\s*[:.h]?\s*(\d{2}))?\s*(?:h|ч)?")
_ETC_GMT = re.compile(r"etc/gmt([+-])(\d{1,2})")
_MOSCOW_OFFSET = 180

# Colloquial regions: representative zone -> names and abbreviations (after `_TZ_FILLER` words go:
# "Eastern Standard Time" is "eastern"). Places (cities, countries) are not listed: they are geographic.
_TZ_REGION_DATA = {
    "America/New_York": "eastern|est|edt|et|us eastern|est5edt|восточное",
    "America/Chicago": "central|cst|cdt|ct|us central|cst6cdt|центральное",
    "America/Denver": "mountain|mst|mdt|mt|us mountain|mst7mdt",
    "America/Los_Angeles": "pacific|pst|pdt|pt|us pacific|pst8pdt|тихоокеанское",
    "America/Anchorage": "alaska|alaskan|akst|akdt",
    "Pacific/Honolulu": "hawaii|hawaiian|hawaii aleutian|hst",
    "America/Halifax": "atlantic|ast|adt",
    "America/St_Johns": "newfoundland|nst|ndt",
    "America/Sao_Paulo": "brasilia|brt",
    "America/Argentina/Buenos_Aires": "art",
    "Europe/London": "british|bst|лондонское",
    "Europe/Dublin": "irish",
    "Europe/Lisbon": "western european|wet|west|западноевропейское",
    "Europe/Paris": "central european|central europe|cet|cest|met|mest|mez|romance|центральноевропейское|"
                    "парижское",
    "Europe/Berlin": "w europe|берлинское",
    "Europe/Athens": "eastern european|eet|eest|восточноевропейское",
    "Europe/Helsinki": "fle",
    "Europe/Kaliningrad": "калининградское",
    "Europe/Moscow": "msk|msd|russian|московское|мск",
    "Europe/Samara": "samt|самарское",
    "Asia/Yekaterinburg": "yekt|екатеринбургское|уральское",
    "Asia/Omsk": "omst|омское",
    "Asia/Novosibirsk": "novt|n central asia|новосибирское",
    "Asia/Krasnoyarsk": "krat|красноярское",
    "Asia/Irkutsk": "irkt|иркутское",
    "Asia/Yakutsk": "yakt|якутское",
    "Asia/Vladivostok": "vlat|владивостокское",
    "Asia/Magadan": "magt|магаданское",
    "Asia/Kamchatka": "pett|камчатское",
    "Asia/Kolkata": "ist|indian",
    "Asia/Karachi": "pkt",
    "Asia/Tokyo": "jst|japanese|токийское|японское",
    "Asia/Seoul": "kst|korean|корейское",
    "Asia/Shanghai": "chinese|пекинское|китайское",
    "Asia/Hong_Kong": "hkt",
    "Asia/Singapore": "sgt",
    "Asia/Bangkok": "ict",
    "Asia/Jakarta": "wib",
    "Asia/Dubai": "gst|gulf|arabian",
    "Asia/Riyadh": "arab|arabia",
    "Asia/Tehran": "irst",
    "Australia/Sydney": "aest|aedt|australian eastern|aus eastern",
    "Australia/Adelaide": "acst|acdt|australian central",
    "Australia/Perth": "awst|australian western",
    "Pacific/Auckland": "nzst|nzdt",
    "Africa/Johannesburg": "sast",
    "Africa/Lagos": "wat|west africa",
    "Africa/Nairobi": "eat|east africa",
}
# Words that only say "time zone" ("Eastern Standard Time", "часовой пояс", "по московскому времени").
_TZ_FILLER = frozenset({"time", "zone", "timezone", "tz", "standard", "daylight", "saving", "savings", "summer",
                        "winter", "local", "current", "врем", "времен", "пояс", "часов", "стандартн", "летн",
                        "зимн", "местн", "текущ"})


# The years whose clocks decide offset equality. Fixed, not "this year": a verdict must not change with the
# day the grader runs (results are re-graded years later); the tz rules come from the pinned tzdata.
TZ_REFERENCE_YEARS = (2026, 2027)


def _sample_instants() -> tuple[_dt.datetime, ...]:
    """Noon UTC on every day of the reference years."""
    first = _dt.datetime(TZ_REFERENCE_YEARS[0], 1, 1, 12, tzinfo=_dt.timezone.utc)
    days = (_dt.datetime(TZ_REFERENCE_YEARS[-1] + 1, 1, 1, tzinfo=_dt.timezone.utc) - first).days + 1
    return tuple(first + _dt.timedelta(days=d) for d in range(days))


_SAMPLES = _sample_instants()


@functools.lru_cache(maxsize=2048)
def _zone_offsets(zone: str) -> tuple[int, ...] | None:
    """A zone's UTC offsets (minutes) at the sample instants; None when the zone cannot be loaded."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return tuple(_offset_minutes(t.astimezone(tz)) for t in _SAMPLES)


def _offset_minutes(t: _dt.datetime) -> int:
    offset = t.utcoffset()
    assert offset is not None       # t is aware: astimezone(ZoneInfo) gave it its zone
    return int(offset.total_seconds()) // 60


def _offsets(z: _Zone) -> tuple[int, ...] | None:
    return (z.offset,) * len(_SAMPLES) if z.kind == "fixed" else _zone_offsets(z.zone)


class TimezoneTable(AliasTable):
    """Time zones (module docstring: timezone). Canonical values are IANA names (and "UTC").

    A value is read, first match wins, as: a fixed offset; an IANA name with a "/"; a colloquial region
    name or abbreviation; any other IANA name ("Japan", "GB"); a city (CITIES, with its inflection and
    qualifiers); a one-zone country; the city part of an IANA name ("Oslo", "Kiev").
    """

    def __init__(self, name: str, canonicals: Iterable[str], regions: dict[str, str], cities: CityTable):
        self._cities = cities
        self._regions: dict[str, str] = {}
        for zone, names in regions.items():
            for region in names.split("|"):
                self._index(self._regions, region, zone)
        super().__init__(name, {c: self._forms_of(c, regions) for c in canonicals})
        db = _tzdb()
        for canon in self.canonicals:   # (without tz data on the machine there is nothing to check against)
            if canon != "UTC" and db.located and (db.names.get(canon.casefold()) != canon
                                                  or _resolve(db, canon) != canon):
                raise ValueError(f"timezone table: {canon!r} is not the zone of a place in the tz database")

    def _forms_of(self, zone: str, regions: dict[str, str]) -> list[str]:
        """Listed forms of a canonical zone (selftest variants, docs): its cities and its region names."""
        if zone == "UTC":
            return sorted(_UTC_NAMES - {"utc"})
        cities = [c for c in self._cities.canonicals if self._cities.zone(c) == zone]
        forms = [f for c in cities for f in (c, *self._cities.forms(c))] + regions.get(zone, "").split("|")
        return [f for f in dict.fromkeys(forms) if f]

    # --------------------------------------------------------------------- reading a value

    def parse(self, value: Any) -> _Zone | None:
        """What a value names: a geographic zone, a region or a fixed offset; None when unknown."""
        text = value if isinstance(value, str) else str(value)
        return self._parse(text) if len(text) <= MAX_ALIAS_LEN else None

    # B019: the cache keeps `self` alive, and TIMEZONES, the one instance, lives as long as the process anyway.
    @functools.lru_cache(maxsize=8192)  # noqa: B019
    def _parse(self, text: str) -> _Zone | None:
        folded = _WS.sub(" ", fold(text).replace("–", "-"))
        for reading in _bracket_readings(folded):
            reading = _WS.sub(" ", reading).strip(_EDGE_PUNCT)
            for candidate in dict.fromkeys((reading, _strip_prepositions(reading))):   # "по Гринвичу"
                found = self._parse_reading(candidate)
                if found is not None:
                    return found
        return None

    def _parse_reading(self, s: str) -> _Zone | None:
        if not s:
            return None
        if s in _UTC_NAMES:
            return _fixed(0)
        m = _ETC_GMT.fullmatch(s)
        if m:   # POSIX-style names: Etc/GMT-3 is three hours EAST of Greenwich
            return _fixed((1 if m.group(1) == "-" else -1) * int(m.group(2)) * 60)
        m = _OFFSET.fullmatch(s)
        if m and int(m.group(3)) <= 14 and int(m.group(4) or 0) < 60:
            minutes = (-1 if m.group(2) == "-" else 1) * (int(m.group(3)) * 60 + int(m.group(4) or 0))
            if m.group(2) == "±" and minutes:
                return None
            return _fixed(minutes + (_MOSCOW_OFFSET if m.group(1) in ("msk", "мск") else 0))
        db = _tzdb()
        if "/" in s:   # an IANA name, possibly with a word around it ("Europe/Moscow timezone")
            for word in (s, *(w for w in s.split(" ") if "/" in w)):
                name = db.names.get(word.replace(" ", "_").removeprefix("posix/").removeprefix("right/"))
                if name:
                    return _Zone("geo", _resolve(db, name))
            return None
        key = _key(s)
        words = [w for w in key.split(" ") if not (set(_word_stems(w, False)) & _TZ_FILLER)]
        region_key = _strip_prepositions(" ".join(words))
        region = self._find(region_key, self._regions) if region_key else None
        if region is not None:
            return _Zone("region", region)
        if region_key in _UTC_NAMES:                   # "GMT Standard Time", "UTC time zone"
            return _fixed(0)
        name = db.names.get(region_key.replace(" ", "_"))
        if name:
            return _Zone("geo", _resolve(db, name))
        zone = self._place_zone(s) or (self._place_zone(region_key) if region_key != s else None)
        return _Zone("geo", zone) if zone else None

    def _place_zone(self, s: str) -> str | None:
        city = self._cities.lookup(s)
        if city is not None:
            return self._cities.zone(city)
        key = _strip_prepositions(_key(s))
        tags = _region_tags(key) or ()
        zones = {_COUNTRY_ZONES.get(t) for t in tags if "-" not in t} - {None}
        if len(zones) == 1:
            return zones.pop()
        return _tzdb().cities.get(key)

    # --------------------------------------------------------------------- the table interface

    def _lookup(self, value: str) -> str | None:
        z = self._parse(value)
        return (z.zone or None) if z is not None else None

    def matches(self, expected: Any, actual: Any) -> bool:
        """Same place for two geographic zones; otherwise the same UTC offsets at every sample instant."""
        e, a = self.parse(expected), self.parse(actual)
        if e is None or a is None:
            return e is None and a is None and self.canonical(expected) == self.canonical(actual)
        if e.kind == "geo" and a.kind == "geo":
            return e.zone == a.zone
        oe, oa = _offsets(e), _offsets(a)
        return oe is not None and oe == oa


TIMEZONES = TimezoneTable("timezone", (
    "Europe/Moscow", "Europe/Berlin", "Europe/Paris", "Europe/London", "Europe/Madrid", "Europe/Rome",
    "Europe/Amsterdam", "Europe/Prague", "Europe/Vienna", "Europe/Warsaw", "Europe/Helsinki", "Europe/Istanbul",
    "Europe/Kaliningrad", "Europe/Samara", "Europe/Minsk", "Europe/Riga", "Europe/Oslo", "Europe/Stockholm",
    "Europe/Lisbon", "Asia/Yekaterinburg", "Asia/Novosibirsk", "Asia/Irkutsk", "Asia/Vladivostok", "Asia/Tokyo",
    "Asia/Shanghai", "Asia/Seoul", "Asia/Singapore", "Asia/Dubai", "Asia/Kolkata", "Asia/Almaty", "Asia/Tbilisi",
    "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Toronto",
    "America/Sao_Paulo", "Australia/Sydney", "Africa/Cairo", "UTC",
), _TZ_REGION_DATA, _PLACES)


TABLES: dict[str, AliasTable] = {t.name: t for t in (CITIES, LANGUAGES, CURRENCIES, UNITS, TIMEZONES)}
