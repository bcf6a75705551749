"""The tools' schema types (their names and parameters: test_contract), the alias tables (EN + RU,
tooluse1.aliases) and typing by schema (tooluse1.tools)."""
from __future__ import annotations

import pytest

from tooluse1 import aliases
from tooluse1.aliases import CITIES, CURRENCIES, LANGUAGES, TIMEZONES, UNITS, AliasTable, CurrencyTable, norm_text
from tooluse1.matching import keywords_match, to_integer, to_number, word_matches
from tooluse1.tools import TOOLS, canonical_tool_name, coerce_value

ALL_TABLES = (CITIES, LANGUAGES, CURRENCIES, UNITS, TIMEZONES)


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
    ("рублей", "RUB"), ("в рублях", "RUB"), ("в рубли", "RUB"), ("фунты", "GBP"), ("юани", "CNY"), ("руб.", "RUB"),
    ("₽", "RUB"), ("долларов", "USD"),
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
    for tool in TOOLS.values():
        for alias in tool.name_aliases:
            assert canonical_tool_name(alias) == tool.name
            assert canonical_tool_name("functions." + alias.upper()) == tool.name


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


# ============================================================================= 2.0 rules (aliases.py docstring)
# Each table: realistic model values that must read as the canonical value (EN and RU), and near misses
# that must not. `matches` is the grader's comparison; `lookup` is what the world and the corpus use.

def _both_ways(table, expected, value, ok):
    assert table.matches(expected, value) is ok, (expected, value)
    assert table.matches(value, expected) is ok, (value, expected)


# ----------------------------------------------------------------------------- cities

@pytest.mark.parametrize("value,canonical", [
    # a trailing ", region/state/country" part, EN and RU names, ISO codes, US states
    ("San Francisco, CA", "San Francisco"), ("San Francisco, California", "San Francisco"),
    ("San Francisco, CA, USA", "San Francisco"), ("Lisbon, Portugal", "Lisbon"), ("Lisbon, PT", "Lisbon"),
    ("Moscow, RU", "Moscow"), ("Moscow, Russia", "Moscow"), ("Moscow, Russian Federation", "Moscow"),
    ("Москва, Россия", "Moscow"), ("Москва, РФ", "Moscow"), ("г. Москва, Россия", "Moscow"), ("город Москва", "Moscow"),
    ("Россия, Москва", "Moscow"), ("New York, NY", "New York"), ("New York, NY, USA", "New York"),
    ("New York, New York", "New York"), ("New York City, US", "New York"), ("Los Angeles, CA", "Los Angeles"),
    ("Chicago, IL", "Chicago"), ("Chicago, Illinois", "Chicago"), ("Washington, D.C.", "Washington"),
    ("Washington DC", "Washington"), ("Toronto, ON", "Toronto"), ("Toronto, Ontario, Canada", "Toronto"),
    ("Toronto, CA", "Toronto"), ("Sydney, NSW", "Sydney"), ("Sydney NSW Australia", "Sydney"),
    ("London, UK", "London"), ("London, England", "London"), ("London, United Kingdom", "London"),
    ("London GB", "London"), ("Лондон, Великобритания", "London"), ("Tokyo, Japan", "Tokyo"),
    ("Токио, Япония", "Tokyo"),
    ("Berlin, Germany", "Berlin"), ("Berlin, DE", "Berlin"), ("Берлин, Германия", "Berlin"), ("Paris, France", "Paris"),
    ("Vienna, Austria", "Vienna"), ("Wien, Österreich", "Vienna"), ("Seoul, South Korea", "Seoul"),
    ("Dubai, UAE", "Dubai"), ("Дубай, ОАЭ", "Dubai"), ("Saint Petersburg, Russia", "Saint Petersburg"),
    ("Санкт-Петербург, Россия", "Saint Petersburg"), ("Yekaterinburg, Russia", "Yekaterinburg"),
    ("Novosibirsk, Russia", "Novosibirsk"), ("Amsterdam, Netherlands", "Amsterdam"), ("Warsaw, Poland", "Warsaw"),
    ("Варшава, Польша", "Warsaw"), ("Amsterdam, the Netherlands", "Amsterdam"),
    # without a comma, and in brackets
    ("Berlin Germany", "Berlin"), ("Moscow RU", "Moscow"), ("Moscow Russia", "Moscow"), ("Paris FR", "Paris"),
    ("Los Angeles CA", "Los Angeles"), ("San Francisco CA", "San Francisco"), ("Tokyo JP", "Tokyo"),
    ("Москва Россия", "Moscow"), ("Paris (France)", "Paris"), ("Moscow (Russia)", "Moscow"),
    ("London (UK)", "London"), ("Seoul KR", "Seoul"), ("Singapore, Singapore", "Singapore"),
    # unknown regions in a comma part are ignored
    ("Moscow, Moscow Oblast", "Moscow"), ("Paris, Île-de-France", "Paris"), ("Kazan, Tatarstan", "Kazan"),
    ("Sochi, Krasnodar Krai, Russia", "Sochi"),
    # Russian inflection and prepositions
    ("в Москве", "Moscow"), ("Москвой", "Moscow"), ("из Сиднея", "Sydney"), ("в Дубае", "Dubai"), ("из Дубая", "Dubai"),
    ("в Екатеринбурге", "Yekaterinburg"), ("в Новосибирске", "Novosibirsk"), ("во Владивостоке", "Vladivostok"),
    ("в Вене", "Vienna"), ("в Праге", "Prague"), ("в Риге", "Riga"), ("в Казани", "Kazan"), ("в Лиссабоне", "Lisbon"),
    ("в Сан-Франциско", "San Francisco"), ("в Лос-Анджелесе", "Los Angeles"), ("в Амстердаме", "Amsterdam"),
    ("в Сеуле", "Seoul"), ("в Стокгольме", "Stockholm"), ("в Варшаве", "Warsaw"), ("в Мурманске", "Murmansk"),
])
def test_city_rules(value, canonical):
    assert CITIES.lookup(value) == canonical
    _both_ways(CITIES, canonical, value, True)


@pytest.mark.parametrize("expected,value", [
    # a qualifier that does not contain the city makes it another city (decision: "Paris, Texas" is not Paris)
    ("Paris", "Paris, Texas"), ("Paris", "Paris, TX"), ("Paris", "Paris TX"), ("Moscow", "Moscow, Idaho"),
    ("Moscow", "Moscow, ID"), ("Moscow", "Moscow, USA"), ("Saint Petersburg", "Saint Petersburg, FL"),
    ("Saint Petersburg", "St. Petersburg, Florida"), ("London", "London, Ontario"), ("London", "London, ON"),
    ("London", "London, Canada"), ("Berlin", "Berlin, NH"), ("Vienna", "Vienna, VA"), ("Sydney", "Sydney, Nova Scotia"),
    ("Los Angeles", "Los Angeles, Chile"), ("Moscow", "Москва, США"),
    # another city in a comma part, another city, a region only
    ("Moscow", "Moscow, Paris"), ("Moscow", "Saint Petersburg"), ("Moscow", "Russia"), ("Moscow", "Московская область"),
    ("Moscow", "Moscow Oblast"), ("New York", "New York State"), ("Washington", "Washington State"),
    ("Vienna", "Venice"), ("Rome", "Romania"), ("Paris", "Parish"),
])
def test_city_near_misses(expected, value):
    _both_ways(CITIES, expected, value, False)


def test_unknown_cities_compare_by_name_without_their_region():
    assert CITIES.lookup("Boston, MA") is None
    assert CITIES.canonical("Boston, MA") == CITIES.canonical("Boston") == CITIES.canonical("boston ma")
    assert CITIES.canonical("Springfield") != CITIES.canonical("Shelbyville")
    assert CITIES.canonical("Paris, Texas") != CITIES.canonical("Paris")


# ----------------------------------------------------------------------------- languages

@pytest.mark.parametrize("value,canonical", [
    ("de-DE", "de"), ("de_DE", "de"), ("DE-AT", "de"), ("de-CH", "de"), ("en-us", "en"), ("en-GB", "en"),
    ("en_US", "en"),
    ("pt_BR", "pt"), ("pt-PT", "pt"), ("zh-Hans-CN", "zh"), ("zh-CN", "zh"), ("zh-TW", "zh"), ("zh-Hant", "zh"),
    ("es-419", "es"), ("es-MX", "es"), ("fr-CA", "fr"), ("ru-RU", "ru"), ("uk-UA", "uk"), ("ja-JP", "ja"),
    ("it-IT", "it"),
    ("nb-NO", "no"), ("sr-Latn-RS", "sr"),
    ("deu", "de"), ("ger", "de"), ("fra", "fr"), ("fre", "fr"), ("spa", "es"), ("ita", "it"), ("jpn", "ja"),
    ("zho", "zh"), ("chi", "zh"), ("cmn", "zh"), ("por", "pt"), ("ukr", "uk"), ("rus", "ru"), ("eng", "en"),
    ("Deutsch", "de"), ("français", "fr"), ("Francais", "fr"), ("español", "es"), ("italiano", "it"),
    ("português", "pt"), ("русский", "ru"), ("українська", "uk"), ("日本語", "ja"), ("中文", "zh"), ("汉语", "zh"),
    ("한국어", "ko"), ("polski", "pl"), ("Türkçe", "tr"), ("Nederlands", "nl"), ("svenska", "sv"), ("suomi", "fi"),
    ("German", "de"), ("ENGLISH", "en"), ("Japanese", "ja"), ("Ukrainian", "uk"), ("Mandarin", "zh"),
    ("Brazilian Portuguese", "pt"), ("Simplified Chinese", "zh"), ("Chinese (Simplified)", "zh"),
    ("Traditional Chinese", "zh"), ("Mandarin Chinese", "zh"), ("British English", "en"), ("American English", "en"),
    ("English (US)", "en"), ("German language", "de"), ("the German language", "de"), ("into French", "fr"),
    ("to Spanish", "es"), ("in Italian", "it"),
    ("немецкий", "de"), ("на немецкий", "de"), ("на немецком", "de"), ("на немецком языке", "de"),
    ("немецкий язык", "de"), ("по-немецки", "de"), ("английскому", "en"), ("на английский язык", "en"),
    ("по-английски", "en"), ("японский", "ja"), ("на японский", "ja"), ("на японском языке", "ja"), ("китайский", "zh"),
    ("на китайский", "zh"), ("украинского", "uk"), ("на украинский", "uk"), ("на итальянский", "it"),
    ("с итальянского", "it"), ("с португальского", "pt"), ("французского языка", "fr"), ("испанский язык", "es"),
])
def test_language_rules(value, canonical):
    assert LANGUAGES.lookup(value) == canonical
    _both_ways(LANGUAGES, canonical, value, True)


@pytest.mark.parametrize("expected,value", [
    ("de", "en-DE"), ("de", "nl"), ("de", "Dutch"), ("de", "Danish"), ("en", "English to German"),
    ("de", "English to German"), ("zh", "ja-JP"), ("zh", "Japanese"), ("uk", "en-GB"), ("uk", "ru-UA"),
    ("ru", "белорусский"), ("ru", "uk"), ("pt", "es-PT"), ("sv", "Swiss German"), ("fr", "it"), ("it", "translate it"),
    ("es", "Portuguese"), ("ko", "Japanese"), ("en", "Klingon"),
])
def test_language_near_misses(expected, value):
    _both_ways(LANGUAGES, expected, value, False)


# ----------------------------------------------------------------------------- currencies

@pytest.mark.parametrize("value,canonical", [
    ("pounds sterling", "GBP"), ("Pound Sterling", "GBP"), ("British pounds", "GBP"), ("британских фунтов", "GBP"),
    ("фунтах стерлингов", "GBP"), ("фунтами", "GBP"), ("японских иен", "JPY"), ("японской иене", "JPY"),
    ("японские йены", "JPY"), ("Japanese Yen", "JPY"), ("JPY (¥)", "JPY"), ("швейцарских франков", "CHF"),
    ("швейцарский франк", "CHF"), ("Swiss francs", "CHF"), ("US dollars", "USD"), ("U.S. dollars", "USD"),
    ("US Dollar (USD)", "USD"), ("USD $", "USD"), ("$ USD", "USD"), ("usd dollars", "USD"), ("American dollars", "USD"),
    ("долларов США", "USD"), ("доллары США", "USD"), ("американских долларов", "USD"), ("в долларах", "USD"),
    ("долларам", "USD"), ("bucks", "USD"), ("canadian dollars", "CAD"), ("Canadian Dollar", "CAD"),
    ("канадских долларов", "CAD"), ("australian dollars", "AUD"), ("австралийских долларах", "AUD"),
    ("euros", "EUR"), ("Euro (EUR)", "EUR"), ("в евро", "EUR"), ("рублях", "RUB"), ("российских рублей", "RUB"),
    ("Russian rubles", "RUB"), ("roubles", "RUB"), ("руб.", "RUB"), ("₽", "RUB"), ("рублём", "RUB"),
    ("белорусских рублей", "BYN"), ("Belarusian rubles", "BYN"), ("китайских юаней", "CNY"), ("юанях", "CNY"),
    ("Chinese yuan", "CNY"), ("renminbi", "CNY"), ("казахстанских тенге", "KZT"), ("турецких лир", "TRY"),
    ("турецкую лиру", "TRY"), ("Turkish liras", "TRY"), ("чешских крон", "CZK"), ("Czech korunas", "CZK"),
    ("шведских кронах", "SEK"), ("Swedish kronor", "SEK"), ("норвежских крон", "NOK"), ("польских злотых", "PLN"),
    ("zlotys", "PLN"), ("индийских рупий", "INR"), ("Indian rupees", "INR"), ("дирхамов ОАЭ", "AED"),
    ("UAE dirhams", "AED"), ("южнокорейских вон", "KRW"), ("Korean won", "KRW"), ("грузинских лари", "GEL"),
])
def test_currency_rules(value, canonical):
    assert CURRENCIES.lookup(value) == canonical
    _both_ways(CURRENCIES, canonical, value, True)


@pytest.mark.parametrize("expected,value", [
    ("CAD", "USD"), ("USD", "CAD"), ("USD", "canadian dollars"), ("USD", "канадских долларов"), ("USD", "AUD"),
    ("USD", "australian dollar"), ("RUB", "белорусских рублей"), ("RUB", "BYN"), ("SEK", "NOK"),
    ("SEK", "норвежских крон"), ("CZK", "шведских крон"), ("JPY", "CNY"), ("JPY", "юаней"), ("GBP", "lb"),
    ("USD", "cad dollars"), ("EUR", "GBP"), ("TRY", "GEL"), ("TRY", "лари"), ("INR", "PKR"),
])
def test_currency_near_misses(expected, value):
    _both_ways(CURRENCIES, expected, value, False)


def test_adjective_and_noun_are_looked_up_before_the_noun():
    assert CURRENCIES.lookup("canadian dollar") == "CAD" and CURRENCIES.lookup("dollar") == "USD"
    assert CURRENCIES.lookup("New Zealand dollars") is None     # an unknown adjective never falls back to USD


# ----------------------------------------------------------------------------- units

@pytest.mark.parametrize("value,canonical", [
    ("km/hr", "km/h"), ("km per hour", "km/h"), ("kilometres/hour", "km/h"), ("kilometers per hour", "km/h"),
    ("kilometers-per-hour", "km/h"), ("km/hour", "km/h"), ("Km/H", "km/h"), ("km h^-1", "km/h"), ("km·h⁻¹", "km/h"),
    ("kmph", "km/h"), ("км/ч", "km/h"), ("км/час", "km/h"), ("километров в час", "km/h"), ("километры в час", "km/h"),
    ("в км/ч", "km/h"),
    ("miles per hour", "mph"), ("mi/h", "mph"), ("mi/hr", "mph"), ("miles/hour", "mph"), ("miles an hour", "mph"),
    ("миль в час", "mph"), ("мили в час", "mph"),
    ("m/s", "m/s"), ("m/sec", "m/s"), ("meters per second", "m/s"), ("metres/second", "m/s"), ("m s-1", "m/s"),
    ("м/с", "m/s"), ("м/сек", "m/s"), ("метров в секунду", "m/s"), ("метры в секунду", "m/s"),
    ("knots", "knot"), ("kts", "knot"), ("узлов", "knot"), ("узлах", "knot"), ("nautical miles per hour", "knot"),
    ("ft^2", "ft2"), ("ft²", "ft2"), ("ft**2", "ft2"), ("sq ft", "ft2"), ("sq. ft.", "ft2"), ("square feet", "ft2"),
    ("square foot", "ft2"), ("feet squared", "ft2"), ("квадратных футов", "ft2"), ("кв. футов", "ft2"),
    ("m²", "m2"), ("m^2", "m2"), ("sq m", "m2"), ("square metres", "m2"), ("square meters", "m2"),
    ("metres squared", "m2"), ("м²", "m2"), ("м2", "m2"), ("кв. м", "m2"), ("кв.м", "m2"), ("квадратных метров", "m2"),
    ("квадратный метр", "m2"), ("метров квадратных", "m2"),
    ("°С", "celsius"), ("градусов С", "celsius"), ("°Ф", "fahrenheit"),        # Cyrillic С, Ф
    ("degrees Celsius", "celsius"), ("degree Celsius", "celsius"), ("deg C", "celsius"), ("°C", "celsius"),
    ("℃", "celsius"), ("° C", "celsius"), ("градусов Цельсия", "celsius"), ("по Цельсию", "celsius"),
    ("градусах по Цельсию", "celsius"), ("degrees Fahrenheit", "fahrenheit"), ("°F", "fahrenheit"), ("℉", "fahrenheit"),
    ("градусов по Фаренгейту", "fahrenheit"), ("градусах Фаренгейта", "fahrenheit"), ("Kelvin", "kelvin"),
    ("kelvins", "kelvin"), ("кельвинах", "kelvin"),
    ("kilometres", "km"), ("kilometers", "km"), ("километрах", "km"), ("в километры", "km"), ("miles", "mi"),
    ("милях", "mi"), ("милями", "mi"), ("feet", "ft"), ("футах", "ft"), ("inches", "in"), ("дюймах", "in"),
    ("yards", "yd"), ("pounds", "lb"), ("lbs", "lb"), ("фунтах", "lb"), ("kilograms", "kg"), ("килограммах", "kg"),
    ("kilos", "kg"), ("grams", "g"), ("граммах", "g"), ("ounces", "oz"), ("унциях", "oz"), ("tonnes", "t"),
    ("metric tons", "t"), ("тоннах", "t"), ("litres", "l"), ("литрах", "l"), ("millilitres", "ml"),
    ("миллилитрах", "ml"), ("US gallons", "gal"), ("галлонах", "gal"), ("cups", "cup"), ("стаканах", "cup"),
    ("hectares", "ha"), ("гектарах", "ha"), ("acres", "acre"), ("акрах", "acre"), ("bytes", "B"), ("gigabytes", "GB"),
    ("гигабайтах", "GB"), ("seconds", "s"), ("секундах", "s"), ("minutes", "min"), ("минутах", "min"),
    ("hours", "h"), ("часах", "h"), ("days", "day"), ("днях", "day"), ("weeks", "week"), ("неделях", "week"),
])
def test_unit_rules(value, canonical):
    assert UNITS.lookup(value) == canonical
    _both_ways(UNITS, canonical, value, True)


@pytest.mark.parametrize("expected,value", [
    ("km/h", "m/s"), ("km/h", "mph"), ("km/h", "km"), ("km/h", "km h"), ("km/h", "h/km"), ("km/h", "km/s"),
    ("m/s", "m/min"), ("mph", "mi"), ("mph", "knots"), ("knot", "km/h"), ("ft2", "ft"), ("ft2", "m2"),
    ("m2", "m"), ("m2", "km²"), ("m2", "m³"), ("m2", "cubic meters"), ("m", "mi"), ("m", "min"), ("mi", "min"),
    ("km", "kilograms"), ("lb", "kg"), ("oz", "fl oz"), ("celsius", "fahrenheit"), ("celsius", "kelvin"),
    ("fahrenheit", "°C"), ("celsius", "с"), ("s", "°С"), ("m/s", "км/с"), ("l", "ml"), ("gal", "l"), ("s", "ms"),
    ("h", "min"), ("GB", "MB"), ("B", "bit"),
])
def test_unit_near_misses(expected, value):
    _both_ways(UNITS, expected, value, False)


# ----------------------------------------------------------------------------- time zones

@pytest.mark.parametrize("expected,value", [
    # the same geographic zone after link resolution, any spelling
    ("Europe/Kyiv", "Europe/Kiev"), ("Asia/Kolkata", "Asia/Calcutta"), ("America/New_York", "US/Eastern"),
    ("America/Los_Angeles", "US/Pacific"), ("America/Chicago", "US/Central"), ("Asia/Tokyo", "Japan"),
    ("Europe/London", "GB"), ("Asia/Ho_Chi_Minh", "Asia/Saigon"), ("Europe/Istanbul", "Asia/Istanbul"),
    ("America/New_York", "america/new_york"), ("America/New_York", "AMERICA/NEW YORK"),
    ("America/New_York", "new_york"),
    ("Europe/Moscow", "EUROPE/MOSCOW"), ("Europe/Moscow", "europe/moscow"),
    # a city or a one-zone country (EN/RU, inflected, qualified)
    ("Europe/Moscow", "Moscow"), ("Europe/Moscow", "Москва"), ("Europe/Moscow", "по Москве"),
    ("Europe/Moscow", "в Москве"),
    ("Europe/Moscow", "Saint Petersburg"), ("Europe/Moscow", "Moscow time"), ("Europe/Moscow", "Moscow Standard Time"),
    ("Europe/Moscow", "время в Москве"), ("Europe/Moscow", "часовой пояс Москвы"), ("Asia/Tokyo", "Tokyo"),
    ("Asia/Tokyo", "в Токио"), ("Asia/Tokyo", "Tokyo, Japan"), ("Asia/Tokyo", "Japan Standard Time"),
    ("Asia/Tokyo", "time in Tokyo"), ("America/Los_Angeles", "San Francisco"),
    ("America/Los_Angeles", "Los Angeles, CA"),
    ("America/New_York", "New York"), ("America/New_York", "Нью-Йорк"), ("America/New_York", "Washington, DC"),
    ("America/New_York", "Boston"), ("Europe/Berlin", "Germany"), ("Europe/Berlin", "Berlin"),
    ("Europe/Berlin", "Munich"),
    ("Europe/London", "UK"), ("Europe/London", "London"), ("Europe/Oslo", "Oslo"), ("Europe/Kyiv", "Kiev"),
    ("Asia/Kolkata", "India"), ("Asia/Kolkata", "Mumbai"), ("Asia/Kolkata", "India Standard Time"),
    ("Asia/Vladivostok", "Владивосток"), ("Asia/Vladivostok", "во Владивостоке"), ("Asia/Dubai", "Dubai"),
    ("Asia/Singapore", "Singapore"), ("Asia/Kathmandu", "Kathmandu"), ("America/Sao_Paulo", "São Paulo"),
    ("America/Sao_Paulo", "Sao Paulo, Brazil"), ("Europe/Moscow", "Europe/Moscow timezone"),
    ("Asia/Tokyo", "Asia/Tokyo JST"), ("Asia/Tokyo", "Tōkyō"),
    # fixed offsets against zones without summer time, and against each other
    ("Europe/Moscow", "UTC+3"), ("Europe/Moscow", "UTC+03:00"), ("Europe/Moscow", "GMT+3"),
    ("Europe/Moscow", "GMT+03:00"),
    ("Europe/Moscow", "+03:00"), ("Europe/Moscow", "+0300"), ("Europe/Moscow", "UTC +3"),
    ("Europe/Moscow", "Etc/GMT-3"), ("Europe/Moscow", "МСК"), ("Europe/Moscow", "MSK"), ("Europe/Moscow", "МСК+0"),
    ("Asia/Vladivostok", "МСК+7"), ("Asia/Vladivostok", "UTC+10"), ("Asia/Yekaterinburg", "UTC+5"),
    ("Asia/Yekaterinburg", "MSK+2"), ("Asia/Kolkata", "UTC+5:30"), ("Asia/Kolkata", "UTC+05:30"),
    ("Asia/Kolkata", "IST"),
    ("Asia/Tokyo", "UTC+9"), ("Asia/Tokyo", "JST"), ("Asia/Singapore", "SGT"), ("Asia/Singapore", "UTC+8"),
    ("Asia/Dubai", "GST"), ("Asia/Dubai", "Gulf Standard Time"), ("Asia/Dubai", "UTC+4"), ("Asia/Seoul", "KST"),
    ("UTC", "GMT"), ("UTC", "Etc/UTC"), ("UTC", "Etc/GMT"), ("UTC", "Z"), ("UTC", "Zulu"), ("UTC", "UTC+0"),
    ("UTC", "UTC+00:00"), ("UTC", "GMT+0"), ("UTC", "+00:00"), ("UTC", "UTC±0"), ("UTC", "utc"),
    ("UTC", "Coordinated Universal Time"), ("UTC", "Greenwich Mean Time"), ("UTC", "по Гринвичу"),
    ("UTC", "всемирное время"), ("GMT", "UTC"),
    # colloquial regions and abbreviations: the same offsets on every sample day (summer time included)
    ("America/New_York", "EST"), ("America/New_York", "EDT"), ("America/New_York", "ET"),
    ("America/New_York", "Eastern Time"), ("America/New_York", "Eastern Standard Time"),
    ("America/New_York", "Eastern Daylight Time"), ("America/New_York", "Eastern Time (US & Canada)"),
    ("America/Toronto", "EST"), ("America/Chicago", "CST"), ("America/Chicago", "Central Time"),
    ("America/Denver", "MST"), ("America/Denver", "Mountain Time"), ("America/Los_Angeles", "PST"),
    ("America/Los_Angeles", "PDT"), ("America/Los_Angeles", "Pacific Time"),
    ("America/Los_Angeles", "Pacific Standard Time"),
    ("Europe/Berlin", "CET"), ("Europe/Berlin", "CEST"), ("Europe/Paris", "CET"),
    ("Europe/Berlin", "Central European Time"),
    ("Europe/Paris", "Central European Summer Time"), ("Europe/Berlin", "W. Europe Standard Time"),
    ("Europe/London", "BST"), ("Europe/London", "British Summer Time"), ("Europe/Helsinki", "EET"),
    ("Europe/Helsinki", "Eastern European Time"), ("Europe/Lisbon", "WET"), ("Europe/Moscow", "Russian Standard Time"),
    ("Europe/Moscow", "московское время"), ("Europe/Moscow", "по московскому времени"), ("Australia/Sydney", "AEST"),
    ("Europe/Paris", "Europe/Paris"), ("CET", "CEST"), ("EST", "Eastern Time"), ("MSK", "UTC+3"),
])
def test_timezone_rules(expected, value):
    _both_ways(TIMEZONES, expected, value, True)


@pytest.mark.parametrize("expected,value", [
    ("Europe/Moscow", "UTC+4"), ("Europe/Moscow", "UTC+2"), ("Europe/Moscow", "Etc/GMT+3"),  # reversed Etc sign
    ("Europe/Moscow", "UTC"), ("Europe/Moscow", "Europe/Minsk"), ("Europe/Moscow", "Europe/Istanbul"),
    ("Europe/Moscow", "Samara"), ("Europe/Moscow", "Russia"), ("Europe/Moscow", "Europe/Kaliningrad"),
    ("Europe/Berlin", "Europe/Paris"), ("Europe/Paris", "Europe/Berlin"), ("Europe/Berlin", "Paris"),
    ("Europe/Berlin", "UTC+1"), ("Europe/Berlin", "EET"), ("Europe/Oslo", "Europe/Berlin"),
    ("Europe/London", "GMT"), ("Europe/London", "UTC"), ("Europe/London", "Etc/UTC"), ("Europe/London", "Z"),
    ("Europe/London", "UTC+0"), ("Europe/London", "Europe/Dublin"), ("Europe/London", "Europe/Lisbon"),
    ("UTC", "Europe/London"), ("UTC", "BST"), ("UTC", "UTC+1"), ("UTC", "CET"),
    ("America/New_York", "UTC-5"), ("America/New_York", "UTC-4"), ("America/New_York", "CST"),
    ("America/New_York", "America/Toronto"), ("America/New_York", "America/Chicago"), ("America/New_York", "PST"),
    ("America/New_York", "USA"), ("America/Los_Angeles", "UTC-8"), ("America/Los_Angeles", "America/Vancouver"),
    ("America/Chicago", "China Standard Time"), ("Asia/Shanghai", "CST"), ("Asia/Tokyo", "Asia/Seoul"),
    ("Asia/Tokyo", "UTC+8"), ("Asia/Kolkata", "UTC+5"), ("Asia/Kolkata", "Asia/Kathmandu"),
    ("Asia/Vladivostok", "МСК+6"), ("Asia/Vladivostok", "UTC+7"), ("Asia/Dubai", "UTC+3"),
    ("Europe/Moscow", "Atlantis"), ("UTC", "UTC±3"), ("CET", "EET"), ("EST", "UTC-5"),
    ("America/Sao_Paulo", "Santiago"), ("Europe/Moscow", "Europe/Moscow/Extra"),
])
def test_timezone_near_misses(expected, value):
    _both_ways(TIMEZONES, expected, value, False)


@pytest.mark.parametrize("value,zone", [
    ("Europe/Kiev", "Europe/Kyiv"), ("Asia/Calcutta", "Asia/Kolkata"), ("US/Eastern", "America/New_York"),
    ("EST", "America/New_York"), ("Eastern Standard Time", "America/New_York"), ("MSK", "Europe/Moscow"),
    ("UTC+3", "Etc/GMT-3"), ("UTC-5", "Etc/GMT+5"), ("GMT", "UTC"), ("Z", "UTC"), ("Etc/GMT-3", "Etc/GMT-3"),
    ("в Москве", "Europe/Moscow"), ("Asia/Kathmandu", "Asia/Kathmandu"), ("UTC+5:30", None), ("Atlantis", None),
])
def test_timezone_lookup_gives_a_loadable_zone(value, zone):
    """world.get_time loads what lookup returns (a fixed offset of whole hours is an Etc/GMT zone)."""
    import zoneinfo
    assert TIMEZONES.lookup(value) == zone
    if zone:
        zoneinfo.ZoneInfo(zone)


def test_timezone_samples_cover_the_fixed_reference_years_not_the_clock():
    assert aliases.TZ_REFERENCE_YEARS == (2026, 2027)
    assert {t.year for t in aliases._SAMPLES} == {2026, 2027}
    assert len(aliases._SAMPLES) == 730 and len({t.date() for t in aliases._SAMPLES}) == 730


def test_timezone_data_names_zones_of_places():
    """Every zone the tables name (countries, cities, regions) is a place's zone in the tz database."""
    db = aliases._tzdb()
    zones = {c.zone for c in aliases._COUNTRIES if c.zone}
    zones |= {c.zone for c in aliases._CITY_DATA + aliases._OTHER_CITY_DATA} | set(aliases._TZ_REGION_DATA)
    for zone in zones:
        assert zone in db.located and aliases._zone_offsets(zone) is not None, zone


# ----------------------------------------------------------------------------- ambiguity check

@pytest.mark.parametrize("entries", [
    {"A": ["x"], "B": ["x"]},                                  # the same form twice
    {"A": ["Foo"], "B": ["foo"]},                              # the same after case folding
    {"A": ["foo-bar"], "B": ["foo bar"]},                      # the same after separators
    {"A": ["москва"], "B": ["москве"]},                        # the same after Russian inflection
    {"A": ["B"], "B": []},                                     # a form that is another canonical value
])
def test_an_ambiguous_table_is_refused_at_construction(entries):
    with pytest.raises(ValueError, match="ambiguous"):
        AliasTable("test", entries)


def test_plural_rule_is_part_of_the_ambiguity_check():
    with pytest.raises(ValueError, match="ambiguous"):
        CurrencyTable("test", {"A": ["dollars"], "B": ["dollar"]})


# ----------------------------------------------------------------------------- robustness and speed

@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda t: t.name)
@pytest.mark.parametrize("value", ["", " ", "\x00", "\ud800", "Москва\ud800", "((((", ",,,,", "/" * 150, "^^", "-" * 90,
                                   "sq " * 60, "в " * 90, "us " * 60, "+" * 199, "x" * 201, "us " * 300000, 12, 3.5,
                                   None, True, ["Moscow"], {"city": "Moscow"}])
def test_tables_never_raise_and_stay_fast(table, value):
    import time
    t0 = time.process_time()
    table.lookup(value)
    table.canonical(value)
    table.matches(table.canonicals[0], value)
    table.matches(value, value)
    assert time.process_time() - t0 < 0.05


def test_lookups_are_memoised():
    CITIES.lookup("San Francisco, CA")
    assert "San Francisco, CA" in CITIES._cache


# ----------------------------------------------------------------------------- web_search keywords

@pytest.mark.parametrize("expected,query,ok", [
    # alternatives per keyword
    ("курс|цена|price биткоина|bitcoin", "bitcoin price today", True),
    ("курс|цена|price биткоина|bitcoin", "курс биткоина", True),
    ("курс|цена|price биткоина|bitcoin", "цена биткоина сегодня", True),
    ("курс|цена|price биткоина|bitcoin", "биткоин", False),
    ("james|jwst webb|jwst", "JWST latest images", True),
    ('boeing ceo|"chief executive"', "who is the chief executive of Boeing", True),
    ("boeing ceo|chief+executive", "Boeing chief executive officer", True),
    ('boeing ceo|"chief executive"', "Boeing executive", False),         # a phrase needs all its words
    ("boeing ceo|chief+executive", "Boeing CEO's salary", True),
    ("Starship|старшип запуск|launch", "Starship launch date", True),
    ("Starship|старшип запуск|launch", "Starship", False),
    ("python 3.13", "Python 3.13 release notes", True), ("python 3.13", "python 3.12", False),
    ("nobel literature 2024", "Nobel Prize in Literature 2024", True),
    ("nobel literature 2024", "nobel literature 2025", False),
    # inflection (word_matches)
    ("Эрмитаж работы", "часы работы Эрмитажа", True), ("Фарго сезон", "новый сезон Фарго", True),
    ("Фарго сезон", "сезоны Фарго", True), ("курс биткоина", "курс биткоинов", True),
    ("курс биткоина", "курсы биткоин", True),
    ("lagos population", "Lagos populations 2024", True), ("vegan lasagna", "vegan lasagne recipe", True),
    ("mechanical keyboard", "best mechanical keyboards", True), ("louvre", "Louvre opening hours", True),
    ("Starship запуск", "запуски Starship", True), ("цена", "цены на нефть", True), ("boeing ceo", "Boeing CEOs", True),
    # near misses
    ("python", "pythagoras theorem", False), ("louvre", "louvres", True), ("james webb", "james web", False),
    ("Эрмитаж работы", "Эрмитаж", False), ("mechanical keyboard", "mechanic keys", False), ("", "anything", True),
    ("|", "anything", True), ("курс|цена", "", False),
])
def test_keywords_match(expected, query, ok):
    assert keywords_match(expected, query) is ok


@pytest.mark.parametrize("expected,actual,ok", [
    ("эрмитаж", "эрмитажа", True), ("эрмитаж", "эрмитажем", True), ("биткоина", "биткоин", True),
    ("запуск", "запуски", True), ("launch", "launches", True), ("launch", "launching", True), ("nobel", "nobels", True),
    ("population", "populations", True), ("ceo", "ceos", True), ("курс", "курса", True), ("цена", "цены", True),
    ("цена", "цене", True), ("webb", "webbs", True),
    ("python", "pythagoras", False), ("2024", "2025", False), ("3", "13", False), ("webb", "web", False),
    ("art", "article", False), ("ab", "abc", False), ("цена", "ценность", False), ("курс", "курсант", False),
])
def test_word_matches(expected, actual, ok):
    assert word_matches(expected, actual) is ok


def test_keywords_on_a_huge_query_stay_linear():
    import time
    t0 = time.process_time()
    assert keywords_match("курс|цена|price биткоина", "слово " * 200000 + "курс биткоина")
    assert not keywords_match("курс|цена|price биткоина", "слово " * 200000)
    assert time.process_time() - t0 < 1.0
