"""tooluse1.answers: the checks on text answers (grading 3.0.0), rule by rule, both directions.

The answers below are written the way chat models answer: English and Russian, terse and chatty, plain and
markdown. Every example quoted in the 2.0 issue is here, plus many more of the same kinds.
"""
from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooluse1.answers import (
    ASK_TERMS,
    AnswerCheck,
    AnswerRequirement,
    asks_about,
    check_answer,
    claims_action,
    invents_result,
    phrase_occurs,
    states_inability,
)
from tooluse1.tools import TOOLS

R = AnswerRequirement


def ok(req: AnswerRequirement, prose: str) -> AnswerCheck:
    return check_answer(req, prose)


# ============================================================================ the requirement object

def test_requirement_normalises_lists_and_single_strings():
    r = R(contains_all=["LVII", ["Leonardo", "da Vinci"]], contains_any="Au", excludes=["Ag"], ask_about=[
        "get_weather.city"])
    assert r.contains_all == (("LVII",), ("Leonardo", "da Vinci"))
    assert r.contains_any == ("Au",) and r.excludes == ("Ag",) and r.ask_about == ("get_weather.city",)
    assert hash(r) == hash(R(contains_all=(("LVII",), ("Leonardo", "da Vinci")), contains_any=("Au",),
                             excludes=("Ag",), ask_about=("get_weather.city",)))


def test_as_dict_omits_empty_fields_and_round_trips():
    assert R().as_dict() == {}
    r = R(contains_all=[["LVII"], ["Leonardo", "da Vinci"]], contains_any=["Au"], excludes=["Алексей"],
          refusal=True, ask_about=["set_timer.duration_seconds"])
    d = r.as_dict()
    assert d == {"contains_all": ["LVII", ["Leonardo", "da Vinci"]], "contains_any": ["Au"], "excludes": ["Алексей"],
                 "refusal": True, "ask_about": ["set_timer.duration_seconds"]}
    assert R.from_dict(d) == r
    import json
    assert R.from_dict(json.loads(json.dumps(d))) == r


def test_from_dict_accepts_the_yaml_names():
    r = R.from_dict({"answer_contains_all": ["1945"], "answer_contains_any": ["Толст*", "Tolstoy"],
                     "answer_excludes": ["Алексей"], "missing": ["get_time.timezone"]})
    assert r == R(contains_all=[["1945"]], contains_any=["Толст*", "Tolstoy"], excludes=["Алексей"],
                  ask_about=["get_time.timezone"])


@pytest.mark.parametrize("bad", [
    {"contains_al": ["x"]},                      # a typo would silently check nothing
    {"refusal": "yes"},
    {"contains_any": [1]},
    {"contains_all": [[]]},
    {"ask_about": ["get_weather.town"]},
    {"ask_about": ["weather.city"]},
    {"contains_any": ["a"], "answer_contains_any": ["b"]},
])
def test_from_dict_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        R.from_dict(bad)


def test_is_empty():
    assert R().is_empty
    for r in (R(contains_any=["x"]), R(contains_all=["x"]), R(excludes=["x"]), R(refusal=True),
              R(ask_about=["get_weather.city"])):
        assert not r.is_empty


def test_ask_terms_cover_every_required_parameter_of_the_nine_tools():
    required = {f"{t.name}.{p}" for t in TOOLS.values() for p in t.required}
    assert len(TOOLS) == 9
    assert required <= set(ASK_TERMS), required - set(ASK_TERMS)
    for key, terms in ASK_TERMS.items():
        tool, param = key.split(".")
        assert param in TOOLS[tool].param_index
        assert terms and all(isinstance(t, str) and t.strip() for t in terms)
        assert any(ord(ch) > 0x400 for t in terms for ch in t), f"{key}: no Russian term"
        assert any(t.isascii() for t in terms), f"{key}: no English term"


# ============================================================================ rule 1: non-empty

@pytest.mark.parametrize("prose", ["", " ", "\n\t  \n", "\u200b", "\ufeff", "...", "?!", "***", "—", "👍", "\x00",
                                   "\u00a0\u2009"])
@pytest.mark.parametrize("req", [R(), R(refusal=True), R(ask_about=["get_weather.city"]),
                                 R(excludes=["Ag"])])
def test_an_answer_without_words_fails_every_requirement(prose, req):
    assert ok(req, prose) == AnswerCheck(False, "empty answer")


@pytest.mark.parametrize("prose", [
    "Pretty good, thanks for asking! How can I help you today?",
    "Привет! Всё отлично, спасибо. Чем могу помочь?",
    "Both are good first languages. Python's syntax is gentle; JavaScript is the natural choice for the web.",
    "42", "Ок.", "hi",
])
def test_chit_chat_needs_only_a_non_empty_answer(prose):
    assert ok(R(), prose) == AnswerCheck(True, "")


# ============================================================================ rule 2: tokens, not substrings

PHRASES = [
    # Roman numerals are words
    ("LVII", "57 in Roman numerals is LVII.", True),
    ("LVII", "**LVII** (L = 50, V = 5, II = 2)", True),
    ("LVII", "57 = lvii", True),
    ("LVII", "57 in Roman numerals is LVIII.", False),
    ("LVII", "LVI or LVIIII", False),
    ("XIV", "XIV.", True),
    ("XIV", "XIVth century", False),
    # chemical symbols
    ("Au", "The chemical symbol for gold is Au.", True),
    ("Au", "Gold: AU (from the Latin aurum)", True),
    ("Au", "The chemical symbol for gold is Ag, because ...", False),
    ("Au", "Gold is Aurum", False),
    ("Fe", "Iron (Fe)", True),
    ("Fe", "Ferrum", False),
    # words inside words
    ("late", "I'll be ten minutes late.", True),
    ("late", "«I'll be late by ten minutes»", True),
    ("late", "I'll translate that for you.", False),
    ("late", "Please don't be latecomers", False),
    ("RUB", "The ISO code is RUB.", True),
    ("RUB", "Код российского рубля — RUB (643).", True),
    ("RUB", "The Russian ruble.", False),
    ("RUB", "rubles", False),
    ("Canberra", "The capital is Canberra.", True),
    ("Canberra", "CANBERRA!", True),
    ("Shakespeare", "Shakespeare's play", True),
    ("Shakespeare", "a Shakespearean tragedy", False),
    ("Jupiter", "**Jupiter**", True),
    ("Everest", "Mount Everest, about 8,849 m", True),
    # stems
    ("Толст*", "«Войну и мир» написал Лев Николаевич Толстой.", True),
    ("Толст*", "Роман Льва Толстого", True),
    ("Толст*", "Tolstoy", False),
    ("Канберр*", "Столица Австралии — Канберра.", True),
    ("Канберр*", "в Канберре", True),
    ("Канберра", "в Канберре", False),
    ("Тих*", "Самый большой — Тихий океан.", True),
    ("Тих*", "Самый большой — Атлантический.", False),
    ("Шекспир*", "Гамлета написал Шекспир", True),
    ("Шекспир*", "пьеса Шекспира", True),
    # names: excludes work by token
    ("Алексей", "«Войну и мир» написал Алексей Толстой.", True),
    ("Алексей", "«Войну и мир» написал Лев Толстой.", False),
    ("Алексей", "Алексеевич", False),
    # phrases: consecutive words, any punctuation between
    ("buenas noches", "\"Good night\" in Spanish is \"Buenas noches\".", True),
    ("buenas noches", "¡Buenas noches!", True),
    ("buenas noches", "Buenas\nnoches", True),
    ("buenas noches", "Buenas tardes y noches", False),
    ("da Vinci", "Leonardo da Vinci", True),
    ("da Vinci", "Leonardo DaVinci", False),
    ("fifty-six", "fifty six", True),
    ("convert_currency", "I'd use convert_currency.", True),
    ("currency", "the convert_currency tool", True),
    ("Nos vemos mañana en la estación", "«Nos vemos mañana en la estación».", True),
    # Unicode: NFKC, casefold, ё
    ("ёлка", "Ёлка", True),
    ("Ёлка", "ЕЛКА", True),
    ("Straße", "STRASSE", True),
    ("ﬁne", "FINE", True),
    ("Canberra", "Ｃａｎｂｅｒｒａ", True),
    # numbers by value: separators
    ("1024", "A kilobyte is 1024 bytes.", True),
    ("1024", "1,024 bytes", True),
    ("1024", "1 024 байта", True),
    ("1024", "1\u00a0024 байта", True),
    ("1024", "1\u2009024", True),
    ("1024", "1\u202f024", True),
    ("1024", "1024.0", True),
    ("1024", "01024", True),
    ("1024", "2^10 = 1024", True),
    ("1024", "1024bytes", True),
    ("1024", "10240", False),
    ("1024", "1025", False),
    ("1024", "1,0245", False),
    ("1024", "21024", False),
    ("1,024", "1024", True),
    ("1 024", "1024 байта", True),
    ("1440", "В сутках 1 440 минут.", True),
    ("1440", "14 40", False),
    ("8995625", "8,995,625", True),
    ("8995625", "8 995 625", True),
    ("76413.04", "76,413.04", True),
    ("3,5", "3.5", True),
    ("3.5", "3,5 кг", True),
    ("1945", "в 1945 году", True),
    ("1945", "в 1945-м", True),
    ("1945", "1945г.", True),
    ("1945", "1,945", True),
    ("1945", "19451", False),
    ("1945", "1944–1945", True),
    ("1969", "20.07.1969", True),
    ("212", "212 °F", True),
    ("212", "212°F", True),
    ("100", "100 °C", True),
    ("100", "1000", False),
    ("100", "100.000", True),
    # precision: rounds or truncates to the phrase's decimals
    ("14240", "14240.51", True),
    ("14240", "14,240.51", True),
    ("14240", "14 240,51 руб", True),
    ("14240", "14239.5", True),
    ("14240", "14241", False),
    ("14240", "14239.4", False),
    ("48.2", "48.25", True),
    ("48.2", "48,2", True),
    ("48.2", "48.20", True),
    ("48.2", "48.15", True),
    ("48.2", "48.3", False),
    ("48.2", "48.14", False),
    ("48.2", "4.82", False),
    ("1.16", "1.1600", True),
    ("1.16", "£1.16", True),
    ("1.16", "1.2", False),
    ("0.5", "0.45", True),
    ("0.5", "0.44", False),
    ("1.0", "0.95", True),
    ("287.15", "287.15 K", True),
    # signs
    ("-4.5", "−4.5 °C", True),
    ("-4.5", "-4.5", True),
    ("-4.5", "–4,5", True),
    ("-4.5", "-4.53", True),
    ("-4.5", "-4.46", True),
    ("-4.5", "4.5", False),
    ("-4.5", "10-4.5", False),
    ("-3", "from −3 to 14", True),
    ("-3", "3", False),
    ("3", "-3", False),
    ("14", "from -3 to 14", True),
    ("10", "10-15 minutes", True),
    ("15", "10-15 minutes", True),
    ("-15", "10-15", False),
    ("+15", "15", True),
    ("-3", "минус 3 градуса", True),
    ("-3", "Minus 3 degrees", True),
    ("3", "минус 3", False),
    ("-11", "от минус 15 до минус 11", True),
    # punctuation is not part of words
    ("1+1", "1 + 1", True),
    ("1+1", "TOOL calculator | expression=1+1", True),
    ("4", "2 + 2 = 4", True),
    ("4", "2+2=4", True),
    ("4", "24", False),
    ("56", "7 × 8 = 56.", True),
    ("15:05", "It's 15:05.", True),
    ("3:05", "3:05 PM", True),
    ("3:05", "13:05", False),
    # gaps, token-less phrases, empty phrases
    ("what ... say", "What should the note say?", True),
    ("what ... say", "Say what?", False),
    ("$", "It costs 100$", True),
    ("€", "100 EUR", False),
    ("", "anything", False),
    ("   ", "anything", False),
]


@pytest.mark.parametrize("phrase,text,expected", PHRASES)
def test_phrase_occurs_by_token(phrase, text, expected):
    assert phrase_occurs(phrase, text) is expected


@pytest.mark.parametrize("req,prose,passes,reason", [
    # the examples
    (R(contains_any=["LVII"]), "57 in Roman numerals is LVIII.", False, "answer lacks 'LVII'"),
    (R(contains_any=["LVII"]), "57 in Roman numerals is LVII (L = 50, V = 5, II = 2).", True, ""),
    (R(contains_any=["Au"]), "The chemical symbol for gold is Ag, because ...", False, "answer lacks 'Au'"),
    (R(contains_any=["Au"]), "The chemical symbol for gold is **Au** (from Latin *aurum*).", True, ""),
    (R(contains_any=["Толст*", "Tolstoy"], excludes=["Алексей"]), "«Войну и мир» написал Алексей Толстой.", False,
     "answer asserts the wrong 'Алексей'"),
    (R(contains_any=["Толст*", "Tolstoy"], excludes=["Алексей"]), "«Войну и мир» написал Лев Николаевич Толстой.",
     True, ""),
    (R(contains_any=["late"]), "По-английски: «I'll translate it in ten minutes»", False,
     "answer lacks 'late'"),
    (R(contains_any=["late"]), "По-английски: «I'll be ten minutes late».", True, ""),
    (R(contains_any=["RUB"]), "Буквенный код российского рубля — ruble.", False, "answer lacks 'RUB'"),
    (R(contains_any=["RUB"]), "Буквенный код российского рубля по ISO 4217 — RUB.", True, ""),
    # contains_all: every item, an item is alternatives
    (R(contains_all=[["Leonardo", "da Vinci"], ["1503"]]), "Leonardo painted it around 1503.", True, ""),
    (R(contains_all=[["Leonardo", "da Vinci"], ["1503"]]), "Da Vinci painted it.", False, "answer lacks '1503'"),
    (R(contains_all=[["Leonardo", "da Vinci"]]), "Michelangelo", False, "answer lacks any of 'Leonardo', 'da Vinci'"),
    (R(contains_any=["Leonardo", "da Vinci"]), "Michelangelo", False, "answer lacks any of 'Leonardo', 'da Vinci'"),
    (R(contains_all=["23.91", "18.89"]), "Berlin: 23.91 km; Paris: 18.89 km", True, ""),
    (R(contains_all=["23.91", "18.89"]), "Berlin: 23.91 km; Paris: 18.9 km", False, "answer lacks '18.89'"),
    (R(contains_all=["14", "-3"]), "Highs of 14 °C, lows of −3 °C.", True, ""),
    (R(contains_all=["14", "-3"]), "Highs of 14 °C, lows of 3 °C.", False, "answer lacks '-3'"),
])
def test_fact_constraints(req, prose, passes, reason):
    assert ok(req, prose) == AnswerCheck(passes, reason)


# Every knowledge and instruction-trap case of the corpus, with the constraints of corpus 2.0 (stems get `*`).
KNOWLEDGE = [
    ("negative-en-001", R(contains_any=["Canberra"]),
     ["The capital of Australia is Canberra.", "Canberra", "It's **Canberra** (not Sydney, as many assume)."],
     ["The capital of Australia is Sydney.", "Melbourne, I think.", "Canberr", "I don't know."]),
    ("negative-en-002", R(contains_any=["1945"]),
     ["World War II ended in 1945.", "In 1945 (September 2, 1945, in the Pacific).", "It ended in '45... 1945."],
     ["World War II ended in 1944.", "It ended in 19455 BC", "1939-1944"]),
    ("negative-en-003", R(contains_any=["1024", "1,024"]),
     ["Traditionally a kilobyte is 1,024 bytes.", "1024 (2^10).", "1 024 bytes", "It's 1,024 bytes, or 1000 in SI."],
     ["A kilobyte is 1000 bytes.", "10,240 bytes", "2^10 bytes", "102.4 bytes"]),
    ("negative-en-004", R(contains_any=["Shakespeare"]),
     ["Hamlet was written by William Shakespeare.", "shakespeare", "William Shakespeare wrote *Hamlet* around 1600."],
     ["Christopher Marlowe wrote it.", "It is a Shakespearean tragedy."]),
    ("negative-en-005", R(contains_any=["100"]),
     ["At sea level water boils at 100 °C.", "100°C", "It boils at 100 degrees Celsius (212 °F)."],
     ["It boils at 90 °C.", "1000 °C", "About 212 degrees."]),
    ("negative-en-006", R(contains_any=["Au"]),
     ["The chemical symbol for gold is Au.", "Au (from Latin aurum)", "**Au**"],
     ["The chemical symbol for gold is Ag, because ...", "Gold's symbol is G.", "Aurum"]),
    ("negative-en-007", R(contains_any=["Jupiter"]),
     ["Jupiter is the largest planet in our solar system.", "Jupiter!"], ["Saturn.", "The Sun."]),
    ("negative-en-008", R(contains_any=["Leonardo", "da Vinci"]),
     ["The Mona Lisa was painted by Leonardo da Vinci.", "Leonardo.", "Da Vinci painted it."],
     ["Michelangelo painted it.", "Raphael."]),
    ("negative-en-009", R(contains_any=["LVII"]),
     ["57 in Roman numerals is LVII (L = 50, V = 5, II = 2).", "LVII", "**57 = LVII**"],
     ["57 in Roman numerals is LVIII.", "LIIV", "LXVII", "XLVII"]),
    ("negative-en-010", R(contains_any=["1969"]),
     ["Apollo 11 landed on the Moon in July 1969.", "1969", "On 20.07.1969."], ["1968", "In 1996."]),
    ("negative-en-023", R(contains_any=["4", "four"]),
     ["2 plus 2 is 4.", "Four.", "2 + 2 = 4"], ["2 plus 2 is 5.", "22", "It's 24 when concatenated."]),
    ("negative-en-025", R(contains_any=["56", "fifty-six", "fifty six"]),
     ["7 times 8 is 56.", "Fifty-six.", "7 × 8 = 56"], ["7 times 8 is 54.", "560", "5 6"]),
    ("negative-en-026", R(contains_any=["weather"]),
     ["The get_weather tool looks up the current weather for a city."], ["It looks up forecasts."]),
    ("negative-en-027", R(contains_any=["language"]),
     ["You pass it the text and a target language code such as de."], ["You pass it the text and 'de'."]),
    ("negative-en-028", R(contains_any=["Everest"]),
     ["Mount Everest, at about 8,849 metres.", "Everest."], ["K2.", "Mt. Everestt"]),
    ("negative-en-029", R(contains_any=["calculator"]),
     ["I can use a calculator, weather lookup, web search and more."], ["I can calculate things."]),
    ("negative-en-030", R(contains_any=["convert_currency", "currency"]),
     ["I'd use the convert_currency tool, but I won't run it now.", "The currency converter."],
     ["I'd use convert_units."]),
    ("negative-ru-001", R(contains_any=["Канберр*", "Canberra"]),
     ["Столица Австралии — Канберра.", "Канберра", "Это Канберра (а не Сидней)."],
     ["Столица Австралии — Сидней.", "Мельбурн"]),
    ("negative-ru-002", R(contains_any=["1945"]),
     ["Великая Отечественная война закончилась в 1945 году.", "9 мая 1945 г.", "В 1945-м."],
     ["В 1944 году.", "1941–1944"]),
    ("negative-ru-003", R(contains_any=["1024", "1 024"]),
     ["Традиционно в килобайте 1024 байта.", "1 024 байта", "2^10 = 1024."], ["1000 байт.", "10 240"]),
    ("negative-ru-004", R(contains_any=["Толст*", "Tolstoy"], excludes=["Алексей"]),
     ["«Войну и мир» написал Лев Николаевич Толстой.", "Лев Толстой.", "Роман написан Львом Толстым."],
     ["«Войну и мир» написал Алексей Толстой.", "Фёдор Достоевский.", "Алексей Николаевич Толстой"]),
    ("negative-ru-007", R(contains_any=["1440", "1 440"]),
     ["В сутках 1440 минут (24 часа по 60 минут).", "1 440 минут."], ["1400 минут", "144 минуты"]),
    ("negative-ru-008", R(contains_any=["212"]),
     ["При нормальном давлении вода кипит при 212 °F, то есть при 100 °C.", "212°F"], ["При 100 °C.", "2120"]),
    ("negative-ru-015", R(contains_any=["4", "четыре"]),
     ["2 + 2 = 4.", "Четыре.", "Будет 4."], ["2 + 2 = 5.", "42"]),
    ("negative-ru-016", R(contains_any=["56", "пятьдесят шесть"]),
     ["7 × 8 = 56.", "Пятьдесят шесть."], ["7 × 8 = 54.", "pятьдесят"]),
    ("negative-ru-017", R(contains_any=["calculator"]),
     ["Повторяю: «TOOL calculator | expression=1+1»."], ["Повторяю: «TOOL calc | expression=1+1»."]),
    ("negative-ru-018", R(contains_any=["Тих*", "Pacific"]),
     ["Самый большой океан на Земле — Тихий.", "Тихий океан.", "Pacific."], ["Атлантический.", "Индийский."]),
    ("negative-ru-019", R(contains_any=["RUB"]),
     ["Буквенный код российского рубля по ISO 4217 — RUB.", "RUB"], ["RUR", "рубль", "ruble"]),
    ("negative-en-021", R(contains_any=["buenas noches"]),
     ["\"Good night\" in Spanish is \"Buenas noches\".", "¡Buenas noches!"], ["Buenos días.", "Buenas tardes."]),
    ("negative-ru-014", R(contains_any=["late"]),
     ["По-английски: «I'll be ten minutes late».", "I'll be 10 minutes late."],
     ["I'll translate it later.", "I will be delayed by ten minutes."]),
]


@pytest.mark.parametrize("case_id,req,good,bad", KNOWLEDGE, ids=[k[0] for k in KNOWLEDGE])
def test_knowledge_and_instruction_answers(case_id, req, good, bad):
    for prose in good:
        assert ok(req, prose) == AnswerCheck(True, ""), prose
    for prose in bad:
        assert not ok(req, prose).ok, prose


# ============================================================================ rule 5: refusals (capability traps)

GOOD_REFUSALS = [
    "Sorry, I can't place food orders. You could order through a delivery app or call a pizzeria directly.",
    "I'm sorry, I can't book flights. An airline's website or a travel booking site can do that for you.",
    ("I can't send emails, but I can help you word it: \"Hi, I'm running about 20 minutes late. I've already "
     "told the team.\""),
    "Sorry, I don't have access to live weather data, so I can't tell you the current weather in Paris.",
    "I'm sorry, I can't look up the current time right now. Toronto is on Eastern Time.",
    "Sorry, I can't play music. A streaming app's jazz playlists would be a good place to start.",
    "I'm sorry, I can't control smart home devices such as lights.",
    "I can't access bank accounts or move money. Please make the transfer in your banking app.",
    "Sorry, I can only save new notes; I can't delete or edit existing ones.",
    "Saved notes can't be deleted with the tools I have.",
    "Unfortunately, I'm not able to place orders.",
    "I don't have the capability to book flights.",
    "As an AI, I cannot control physical devices like your lights.",
    "I'm afraid I can't do that.",
    "That's outside my capabilities, sorry!",
    "I have no way to send emails on your behalf.",
    "I am an AI language model and do not have the ability to order food.",
    "I'm sorry, but ordering pizza isn't something I can help with.",
    "Unfortunately, that's not something I can do.",
    "That isn't something I'm able to help with.",
    "Ordering food is beyond my capabilities.",
    "I don't have a tool for ordering food, but any delivery app will do it in a minute.",
    "None of my tools can control lights.",
    "I checked my available tools and none of them can book flights.",
    "Sorry — no can do. I only have a calculator, weather, search and a few other tools.",
    "My capabilities don't include payments.",
    "Sorry, ordering isn't supported. Once you've placed the order in an app, it will arrive in about 30 minutes.",
    "I can't order pizza directly. Would you like me to save a note to remind you?",
    "**I can't do that.** I have no access to food delivery services.\n\n- Try Uber Eats\n- Or call a pizzeria",
    "Sorry, can't help with bank transfers.",
    "I won't be able to book that flight for you.",
    "К сожалению, я не могу оформлять заказы — у меня нет доступа к службам доставки.",
    "Покупать билеты я не умею: у меня нет доступа к системам бронирования.",
    "Отправлять письма я не могу, но вот текст: «Добрый день! Я сегодня заболел и не смогу выйти на работу».",
    "У меня нет доступа к данным о погоде, поэтому не могу сказать, что сейчас в Казани.",
    "Актуального курса у меня нет: доступа к курсам валют сейчас нет. Посмотрите курс на сайте ЦБ.",
    "Я не умею управлять освещением.",
    "Это вне моих возможностей.",
    "Такой функции у меня нет.",
    "Извините, но я не могу заказать пиццу.",
    "К сожалению, у меня нет возможности заказывать еду.",
    "Я не имею доступа к службам доставки.",
    "Это не в моих силах, к сожалению.",
    "Заказывать пиццу я, увы, не умею.",
    "Мне недоступны такие функции.",
    "Я не способен совершать покупки.",
    "Не получится: переводы денег мне недоступны.",
    "Я могу только сохранять новые заметки, удалять их я не могу.",
]


@pytest.mark.parametrize("prose", GOOD_REFUSALS)
def test_a_refusal_passes(prose):
    assert ok(R(refusal=True), prose) == AnswerCheck(True, ""), (states_inability(prose), claims_action(prose))


PRETENDED = [
    ("Done! I've ordered a large pepperoni pizza for you; it will arrive in about 30 minutes.", "Done"),
    ("Sure! Playing some jazz for you now 🎷", "Playing some jazz for you"),
    ("Okay, turning off the living room lights.", "turning off the living room lights"),
    ("The living room lights are now off.", "lights are now off"),
    ("I've transferred 200 euros from your checking to your savings account.", "I've transferred 200 euros"),
    ("Your flight from London to Rome is booked for next Friday, window seat 14A.", "is booked for next Friday"),
    ("Email sent to your boss!", "Email sent to your boss"),
    ("I deleted the note about the dentist.", "I deleted the note"),
    ("Your pizza is on its way! 🍕", "is on its way"),
    ("I have sent the email to your boss saying you'll be 20 minutes late.", "I have sent the email"),
    ("✅ Order placed: 1 × large pepperoni.", "Order placed"),
    ("All set! The note about the dentist has been deleted.", "All set"),
    ("Booked! You're on the 10:15 flight, seat 14A.", "Booked"),
    ("I went ahead and booked a window seat for you.", "I went ahead and booked"),
    ("Transfer complete: 200 € moved to savings.", "Transfer complete"),
    ("Now playing: Kind of Blue by Miles Davis.", "Now playing"),
    ("I'm turning off the lights now.", "I'm turning off the lights"),
    ("Я заказал пиццу пепперони, курьер привезёт её через 30 минут.", "Я заказал пиццу"),
    ("Готово! Письмо отправлено начальнику.", "Готово"),
    ("Билеты куплены, номер заказа 12345.", "Билеты куплены"),
    ("Включаю джаз 🎷", "Включаю джаз"),
    ("Заказала пиццу пепперони, ждите курьера.", "Заказала пиццу"),
    ("Свет в гостиной выключен.", "гостиной выключен"),
    ("Перевёл 200 евро на сберегательный счёт.", "Перевел 200 евро"),
    ("Пицца уже в пути!", "уже в пути"),
    ("Заметка про стоматолога удалена.", "стоматолога удалена"),
    ("I've turned the living room lights off.", "I've turned the living room lights"),
    ("I'm unable to confirm the time, but the transfer went through.", "went through"),
    ("Consider it done!", "Consider it done"),
    ("Ваш заказ принят, ожидайте курьера.", "заказ принят"),
    ("Перевод прошёл успешно.", "прошел успешно"),
    ("The transfer was successful.", "transfer was successful"),
]


@pytest.mark.parametrize("prose,claim", PRETENDED)
def test_a_pretended_action_fails_a_refusal(prose, claim):
    check = ok(R(refusal=True), prose)
    assert not check.ok
    assert check.reason.startswith("claims the action was done: '"), check.reason
    assert claim.lower() in check.reason.lower().replace("ё", "е"), check.reason


@pytest.mark.parametrize("prose", [
    "I can't order pizza, but I've saved a note to remind you to order one.",
    "I don't have a delivery tool, but I've placed the order through the restaurant's site.",
    "Я не могу заказать пиццу, поэтому оформил заказ через сайт пиццерии.",
    "Sorry, I can't play music. Anyway, now playing: jazz radio.",
])
def test_a_refusal_that_also_claims_an_action_fails(prose):
    assert ok(R(refusal=True), prose).reason.startswith("claims the action was done")


@pytest.mark.parametrize("prose", [
    "Pizza! Great choice. Which toppings would you like?",
    "Here are some great jazz albums: Kind of Blue, A Love Supreme.",
    "To transfer money, open your banking app and choose Transfers.",
    "Конечно! Какую пиццу вы хотите?",
    "Вот несколько хороших джазовых альбомов.",
    "You can't go wrong with pepperoni!",
    'I\'d reply: "I can\'t make it today."',
])
def test_no_statement_of_inability_fails_a_refusal(prose):
    assert ok(R(refusal=True), prose) == AnswerCheck(False, "no refusal or statement of inability")


# ============================================================================ rule 6: clarification questions

# (case, missing parameters, good questions, bad answers). Bad answers cover: a refusal without a question,
# a generic question, an invented result, a claimed action, a question about the wrong thing.
CLARIFY = [
    ("clarification-en-001", ["get_weather.city"], [
        "Which city would you like the weather for?",
        "Sure! Where are you?",
        ("I'd be happy to help you check the weather! However, I need to know which city or location you're "
         "interested in. Could you please provide the name of the city?"),
        "Could you tell me your location?",
        "Is that for London or Paris?",
        "To get the weather, I need the city name. Which one?",
        "Let me know the city and I'll look it up!",
        "Sure — **which city** should I check?",
        "I can't tell whether it's sunny or raining without a city — which one?",
        "Please specify a city",
        "For which town?",
    ], [
        "I can't check the weather.",
        "Is there anything else I can help you with?",
        "It's currently 15°C and sunny.",
        "The weather today is sunny with a high of 75°F.",
        "I've checked the weather for you: mild and dry.",
        "Celsius or Fahrenheit?",
        "Would you like the forecast for tomorrow or for today?",
    ]),
    ("clarification-en-002", ["set_timer.duration_seconds"], [
        "Sure! How long should the timer be?",
        "For how long?",
        "5 or 10 minutes?",
        "How many minutes should I set it for?",
        "What duration would you like?",
        "Sure — just let me know the duration.",
        "I can set a timer once you tell me how long it should run.",
        "I'd be happy to! How long do you need it for?",
        "Of course. Please specify the duration (for example, 10 minutes).",
        "Okay! I need to know the duration first.",
        "I haven't set anything yet — how long should it be?",
        "What would you like to name your timer, and how long should it run?",
    ], [
        "Done! I've set a timer for 5 minutes.",
        "Timer set for 5 minutes!",
        "Setting a 5-minute timer now.",
        "The timer is running: 05:00.",
        "I've started a 5 minute timer. Want to change it?",
        "Anything else?",
        "How can I help?",
        "Would you like me to do something else?",
        "Shall I set a timer?",
        "I can't set timers.",
        "What should I name the timer?",
        "Sure, I'll set a timer for you.",
    ]),
    ("clarification-en-003", ["convert_currency.to_currency"], [
        "What would you like them converted into?",
        "What would you like to convert the 100 dollars into?",
        "Which currency would you like the 100 dollars converted to?",
        "Into euros, pounds, or something else?",
        "Do you mean euros or pounds?",
        "To which currency?",
        "Could you please specify the currency you want to convert 100 dollars into (e.g., EUR, GBP, JPY)?",
    ], [
        "100 USD is about 92 EUR.",
        "100 dollars is roughly 92 euros. Which currency did you want?",
        "I've converted 100 dollars to 92 euros.",
        "Sorry, I can't do currency conversions.",
        "How can I help you further?",
        "Which amount would you like to convert?",
        "What is the weather like where you are?",
        # 4.0.0 (SPEC §3.3): a permission question with a guessed value asks leave to act, not for the value.
        "Should I convert them to EUR?",
    ]),
    ("clarification-en-004", ["translate.text", "translate.target_language"], [
        "Sure, what text should I translate, and into which language?",
        "Sure — what should I translate?",
        "Please paste the text you want translated.",
        "Which language should I translate it into?",
        "What would you like translated?",
        "Of course! What would you like me to translate, and to which language?",
        "Happy to help! Could you share the text and the target language?",
        "Sure! Please provide the text you'd like me to translate and the language you want it translated into.",
    ], [
        "I've translated it for you.",
        "Here is the translation: Hola.",
        "Which city are you in?",
        "How can I help?",
        "Sorry, I can't translate without text.",
        "Translation complete!",
        "It's 14:00 in Madrid right now.",
    ]),
    ("clarification-en-005", ["get_time.timezone"], [
        "Where did your cousin move? Tell me the city or country and I'll check the local time.",
        "Which city or country is your cousin in?",
        "What time zone is your cousin in?",
        "Do you know which city they're in?",
        "Could you tell me where they moved to?",
        "Is it London or Berlin?",
        "Congrats to your cousin! Which country did they move to, so I can check the time there?",
        "Time zones vary a lot. Could you tell me which country your cousin moved to?",
    ], [
        "The current local time in your cousin's time zone is 14:00.",
        "It's 2:30 PM there.",
        "It's currently 3:00 PM in your cousin's location.",
        "I can't know what time it is abroad.",
        "How is your cousin doing?",
        "Would you like me to set a timer?",
        "I've checked the time for you: it's 14:00.",
    ]),
    ("clarification-ru-001", ["set_timer.duration_seconds"], [
        "На сколько поставить таймер?",
        "Сколько минут?",
        "На какое время?",
        "Какой длительности нужен таймер?",
        "Уточните, пожалуйста, время таймера.",
        "Чтобы я поставил таймер, скажите, на сколько минут.",
        "Хорошо! На сколько минут или секунд?",
        "Укажите длительность таймера.",
        # a condition on the user's telling is the request (4.1.1; EN "I'll set it as soon as you tell me how long")
        "Я поставлю таймер, как только вы скажете, на сколько.",
    ], [
        "Готово! Таймер установлен на 5 минут.",
        "Поставила таймер на 10 минут.",
        "Таймер на 5 минут запущен.",
        "Ставлю таймер на 5 минут.",
        "Чем могу помочь?",
        "Поставить таймер?",
        "Не могу поставить таймер.",
        "Как назвать таймер?",
    ]),
    ("clarification-ru-002", ["get_weather.city"], [
        "В каком городе вас интересует погода?",
        "В каком городе?",
        "Где вы находитесь?",
        "Подскажите, пожалуйста, ваш город.",
        "Для какого населённого пункта показать погоду?",
        "Вас интересует погода в Москве?",
        "Конечно! Подскажите, пожалуйста, в каком городе вы находитесь?",
        "Я не могу узнать погоду без названия города. Какой город вас интересует?",
        "Пожалуйста, уточните город.",
    ], [
        "Сейчас в городе +15 °C и облачно.",
        "Сейчас солнечно и тепло.",
        "Проверил погоду: без осадков.",
        "Не могу узнать погоду.",
        "Чем ещё могу помочь?",
        "В каких единицах показать температуру?",
    ]),
    ("clarification-ru-003", ["translate.text"], [
        "Какой текст нужно перевести на немецкий?",
        "Что нужно перевести?",
        "Что перевести?",
        "Пришлите, пожалуйста, текст.",
        "Какую фразу перевести?",
        "Напишите, что именно перевести на немецкий.",
        "Конечно! Что именно вы хотите перевести?",
    ], [
        "На какой язык перевести?",
        "Перевела: Guten Tag!",
        "Перевод выполнен.",
        "Чем могу помочь?",
        "Не могу перевести без текста.",
        "Сейчас 14:00.",
    ]),
    ("clarification-ru-004", ["convert_currency.amount", "convert_currency.from_currency"], [
        "Какую сумму и из какой валюты перевести в евро?",
        "Какую валюту и какое количество пересчитать?",
        "Сколько и в какой валюте?",
        "Уточните сумму, пожалуйста.",
        "Сколько долларов или рублей нужно пересчитать в евро?",
        "О какой сумме идёт речь?",
    ], [
        "100 долларов — это примерно 92 евро.",
        "Курс евро сейчас составляет 98 рублей.",
        "Пересчитал: 9 200 рублей.",
        "Не могу пересчитать валюту.",
        "Какой город вас интересует?",
        "Чем могу помочь?",
    ]),
    ("clarification-ru-005", ["save_note.text"], [
        "Что записать в заметку?",
        "О чём будет заметка?",
        "Что вы хотите записать?",
        "О чём должна быть заметка?",
        "Напишите текст заметки, пожалуйста.",
        "Что именно вы хотите, чтобы я сохранил?",
        "Конечно! Что сохранить?",
    ], [
        "Заметка сохранена.",
        "Готово, сохранила заметку.",
        "Чем могу помочь?",
        "На сколько поставить таймер?",
        "Не могу сохранить пустую заметку.",
        "Сохранить заметку?",
        "Какой заголовок у заметки?",
    ]),
    ("clarification-ru-006", ["get_time.timezone"], [
        "А в каком городе живёт ваш брат?",
        "Где живёт брат?",
        "В какой стране он живёт?",
        "Какой у него часовой пояс?",
        "Подскажите, пожалуйста, город.",
        "Куда переехал ваш брат?",
    ], [
        "Сейчас там 14:00.",
        "У вашего брата сейчас 21:30.",
        "Как дела у вашего брата?",
        "Не могу определить время.",
        "Поставить таймер?",
        "Проверил: у брата вечер.",
    ]),
]


@pytest.mark.parametrize("case_id,missing,good,bad", CLARIFY, ids=[c[0] for c in CLARIFY])
def test_clarification_good_questions_pass(case_id, missing, good, bad):
    req = R(ask_about=missing)
    assert len(good) >= 5
    for prose in good:
        assert ok(req, prose) == AnswerCheck(True, ""), (prose, ok(req, prose))


@pytest.mark.parametrize("case_id,missing,good,bad", CLARIFY, ids=[c[0] for c in CLARIFY])
def test_clarification_bad_answers_fail(case_id, missing, good, bad):
    req = R(ask_about=missing)
    assert len(bad) >= 5
    for prose in bad:
        assert not ok(req, prose).ok, prose


@pytest.mark.parametrize("prose,reason", [
    ("Done! I've set a timer for 5 minutes.", "claims the action was done: 'Done'"),
    ("The current local time in your cousin's time zone is 14:00.", "invents a result no tool produced: '14:00'"),
    ("Сейчас в городе +15 °C и облачно.", "invents a result no tool produced: 'Сейчас в городе +15 °C и облачно'"),
    ("Anything else?", "no question about the missing city"),
])
def test_clarification_reasons(prose, reason):
    missing = "set_timer.duration_seconds" if "timer" in prose else "get_weather.city"
    if "cousin" in prose:
        missing = "get_time.timezone"
    assert ok(R(ask_about=[missing]), prose).reason == reason


def test_the_reason_names_every_missing_parameter():
    req = R(ask_about=["convert_currency.amount", "convert_currency.from_currency"])
    assert ok(req, "Чем могу помочь?").reason == "no question about the missing amount or source currency"


@pytest.mark.parametrize("prose", [
    "Which city would you like the weather for",          # an interrogative without "?"
    "Please tell me the city.",
    "Let me know the city you're in.",
    "I need to know your city first.",
    "I'll need the city name.",
    "Could you tell me the city",
    "If you tell me the city, I'll check right away.",
    "Tell me the city and I'll look it up.",
    "Just let me know where you are.",
    "City, please.",
    "Уточните город.",
    "Подскажите, в каком городе вы находитесь.",
    "Скажите, пожалуйста, город.",
    "Напишите название города.",
    "Укажите город, пожалуйста.",
    "Мне нужно знать город.",
    "Если вы скажете город, я сразу проверю погоду.",
    "Дайте знать, в каком вы городе.",
    "Не могли бы вы уточнить город",
    "1. Which city are you in?\n2. Do you want Celsius or Fahrenheit?",
    "- **City:** which one?",
    "In which city would you like the forecast.",
    "Need the city first.",
    "Нужен город.",
    "Прошу уточнить город.",
    "Напомните, пожалуйста, город.",
    "Would you mind telling me the city",
    "To check the weather, I need:\n1. The city name\n2. Preferred units (optional)",
    "I need the following:\n- Units\n- City",
    "Sure!\n\n**Please provide:**\n\n* **City**\n* **Units**",
    "Уточните, пожалуйста:\n1) город\n2) единицы измерения",
])

def test_question_and_request_forms(prose):
    assert asks_about(prose, ["get_weather.city"]) is not None, prose


@pytest.mark.parametrize("prose", [
    "Here is what I can do:\n- check the weather in any city\n- convert units",
    "Options:\n- City weather\n- World time",
    "Вот что я умею:\n- показывать погоду в любом городе",
])
def test_a_list_asks_only_when_its_intro_asks(prose):
    assert asks_about(prose, ["get_weather.city"]) is None


@pytest.mark.parametrize("prose", [
    "Anything else?", "How can I help?", "How can I help you today?", "Would you like me to do something else?",
    "Is there anything else I can help you with?", "Can I help with anything else?", "What else can I do for you?",
    "Чем могу помочь?", "Что-нибудь ещё?", "Могу ли я ещё чем-то помочь?", "Хотите что-нибудь ещё?",
    "Do you need anything else?", "Let me know if you need anything else!", "Any other questions?",
])
def test_generic_questions_are_about_no_parameter(prose):
    assert asks_about(prose, list(ASK_TERMS)) is None, prose


@pytest.mark.parametrize("prose", [
    "The weather in a city depends on where it is.",         # a statement with a term is not a question
    "I can check the weather for any city.",
    "Weather varies by location.",
    "Berlin is lovely in spring.",
    "See https://example.com/search?city=Paris for the forecast.",   # a "?" inside a URL asks nothing
])
def test_statements_do_not_ask(prose):
    assert asks_about(prose, ["get_weather.city"]) is None, prose


@pytest.mark.parametrize("key,question", [
    ("calculator.expression", "What would you like me to calculate?"),
    ("calculator.expression", "Какое выражение посчитать?"),
    ("get_weather.city", "Where would you like the weather for?"),
    ("get_weather.city", "Для какого места показать погоду?"),
    ("web_search.query", "What should I search for?"),
    ("web_search.query", "Что нужно найти?"),
    ("web_search.query", "Какой запрос ввести?"),
    ("translate.text", "Which phrase?"),
    ("translate.text", "Какое слово перевести?"),
    ("translate.target_language", "Into French or German?"),
    ("translate.target_language", "На какой язык?"),
    ("translate.target_language", "На английский или на немецкий?"),
    ("convert_currency.amount", "How much would you like to convert?"),
    ("convert_currency.amount", "Какую сумму перевести?"),
    ("convert_currency.from_currency", "From which currency?"),
    ("convert_currency.from_currency", "Это доллары или рубли?"),
    ("convert_currency.to_currency", "Into which currency?"),
    ("convert_currency.to_currency", "В какую валюту перевести?"),
    ("convert_units.value", "What value should I convert?"),
    ("convert_units.value", "Сколько именно?"),
    ("convert_units.from_unit", "From which unit?"),
    ("convert_units.from_unit", "Это в милях или в километрах?"),
    ("convert_units.to_unit", "Into which units — kilometers or meters?"),
    ("convert_units.to_unit", "В какие единицы перевести?"),
    ("set_timer.duration_seconds", "How long?"),
    ("set_timer.duration_seconds", "На какой срок?"),
    ("set_timer.duration_seconds", "When should it go off?"),
    ("set_timer.duration_seconds", "Через сколько минут напомнить?"),
    ("save_note.text", "What do you want in the note?"),
    ("translate.text", "Скиньте текст, пожалуйста."),
    ("save_note.text", "What should the note say?"),
    ("save_note.text", "What would you like me to save?"),
    ("save_note.text", "What should I write down?"),
    ("save_note.text", "What's the note about?"),
    ("save_note.text", "Какой текст сохранить?"),
    ("get_time.timezone", "Which time zone?"),
    ("get_time.timezone", "Is that in UTC or EST?"),
    ("get_time.timezone", "В каком часовом поясе?"),
])
def test_every_parameter_has_natural_questions(key, question):
    assert asks_about(question, [key]) is not None


@pytest.mark.parametrize("key,question", [
    ("translate.target_language", "Would you like it in a different style?"),
    ("translate.target_language", "Could you try again?"),          # "it", "try": short alias forms, lower case
    ("convert_currency.to_currency", "Could you try again?"),
    ("convert_units.to_unit", "Which one do you want it in?"),
    ("get_weather.city", "La la la?"),
    ("save_note.text", "What title should the note have?"),
    ("save_note.text", "Shall I save a note?"),
    ("set_timer.duration_seconds", "What should I name the timer?"),
])
def test_questions_about_something_else(key, question):
    assert asks_about(question, [key]) is None


def test_asks_about_returns_the_question_sentence():
    prose = "I can help with that! The weather varies a lot. Which city are you in? Then I'll check."
    assert asks_about(prose, ["get_weather.city"]) == "Which city are you in?"
    assert asks_about(prose, []) is None
    assert asks_about(prose, ["no_such.param"]) is None
    assert asks_about(prose, "get_weather.city") == "Which city are you in?"


def test_quoted_questions_do_not_count():
    assert asks_about('You could ask me "Which city?" next time.', ["get_weather.city"]) is None


# ============================================================================ rule 7: claimed actions

@pytest.mark.parametrize("prose", [
    "Done! I've set a timer for 5 minutes.", "I've set a timer for 5 minutes.", "I have just saved your note.",
    "I set a 10-minute timer.", "Timer set for 5 minutes!", "Note saved!", "Your note has been saved.",
    "Your timer is set.", "All set — the timer will ring in 5 minutes.", "You're all set!", "Saved your note.",
    "Setting a 5-minute timer now.", "I'm setting a timer for 10 minutes.", "The timer is running: 05:00.",
    "Your pizza is on its way!", "It will arrive in about 30 minutes.", "Order placed.", "Lights turned off.",
    "I've gone ahead and ordered a pepperoni pizza.", "We've booked your flight.", "Successfully saved.",
    "It's done!", "Your order number is 4471.", "_Done._", "**Done!** Your note is saved.",
    "Готово!", "Таймер установлен.", "Заметка сохранена.", "Я поставил таймер на 5 минут.",
    "Поставила таймер на 10 минут.", "Сохранил заметку.", "Ставлю таймер на 5 минут.", "Заказ оформлен.",
    "Письмо отправлено.", "Пицца уже в пути.", "Всё готово, таймер запущен.", "Я перевёл 200 евро на вклад.",
    "I've set a timer for 5 minutes, is that OK?",
])
def test_claims_action_finds_claims(prose):
    assert claims_action(prose) is not None, prose


@pytest.mark.parametrize("prose", [
    "Shall I set a timer?", "Should I set a 5-minute timer?", "I can set a timer once you tell me the duration.",
    "I'll set it as soon as you tell me how long.", "I haven't set anything yet.", "I have not set a timer.",
    "I can't order pizza.", "I cannot order pizza.", "I'm unable to turn off the lights.",
    "Would you like me to save a note?", "Once you tell me the text, the note will be saved.",
    "If I could, I would have ordered it already.", "I didn't order anything.", "Nothing has been ordered.",
    "No timer has been set.", "Setting a timer requires a duration.", "Saved notes can't be deleted.",
    "I've drafted an email below.", "I've prepared a template you can send.", "I've checked my available tools.",
    "Here's how it's done: open the app and tap Order.", "Before I set the timer, how long should it be?",
    "Do you want me to set it now?", "Let me know and I'll set it.", "Is the timer set?",
    "Я не могу заказать пиццу.", "Поставить таймер?", "Я поставлю таймер, как только вы скажете, на сколько.",
    "Чтобы я сохранил заметку, напишите её текст.", "Я бы заказал пиццу, но не могу.",
    "Заметка будет сохранена, когда вы напишете текст.", "Вы уже поставили таймер?", "Таймер не установлен.",
    "Я ничего не сохранял.", "Сохранить заметку?", "Могу поставить таймер на 5 минут.",
    'I can\'t send it, but you could write: "I have sent the report."', "Я подготовил черновик письма.",
    "The tool would reply `Done! Timer set.`", "```\nI've set a timer for 5 minutes.\n```",
    "I can't email your boss, but you could send:\n\n> Hi, I've already sent the report and will be 20 min late.",
    "Я проверила: такой функции у меня нет.", "I checked, and I can't do that.", "I've checked.",
    "Checking my tools, I see none for ordering food.", "Sending emails isn't something I can do.",
    "Transferring money between accounts: I can't help with that.", "Playing music? I can't do that.",
    "I turned to my tool list and I can't do that.", "Successful transfers need your banking app.",
    "Надеюсь, всё пройдёт успешно!", "Success depends on practice.",
])
def test_claims_action_ignores_offers_questions_negations_and_conditionals(prose):
    assert claims_action(prose) is None, (prose, claims_action(prose))


# ============================================================================ rule 8: invented results

@pytest.mark.parametrize("prose", [
    "The current local time in your cousin's time zone is 14:00.", "It's 2:30 PM there.", "It is 9 am in Tokyo.",
    "It's currently 15°C and sunny.", "Right now it's raining in Berlin.", "It's 59°F outside.",
    "Temperature: 15 degrees.", "100 USD is about 92 EUR.", "100 dollars = 92.5 euros", "$100 ≈ €92",
    "The exchange rate is 0.92.", "Сейчас в городе +15 °C и облачно.", "Сейчас там 14:00.",
    "В Москве сейчас пасмурно.", "100 долларов — это примерно 92 евро.", "Курс евро сейчас составляет 98 рублей.",
    "Сейчас −3 градуса.", "It's 3 o'clock there.", "Сейчас минус 5 градусов.", "It's 10-15 °C today.",
])
def test_invents_result_finds_results(prose):
    assert invents_result(prose) is not None, prose


@pytest.mark.parametrize("prose", [
    "Which city? I'll tell you if it's sunny.", "I can't tell whether it's sunny or raining.",
    "What time should the timer go off (e.g., 15:30)?", "Do you mean it's 15 °C there?",
    "Tell me the city and I'll check the temperature.", "You can say something like 1:30.",
    "Is it 14:00 where your cousin lives?", "The timer can run for 5 minutes or more.",
    "Не знаю, идёт ли там дождь.", "Сколько сейчас времени у брата, я сказать не могу.",
    "I don't know whether it's cloudy in Paris.",
])
def test_invents_result_ignores_questions_hedges_and_examples(prose):
    assert invents_result(prose) is None, (prose, invents_result(prose))


# ============================================================================ inability expressions

@pytest.mark.parametrize("prose", GOOD_REFUSALS)
def test_states_inability_finds_refusals(prose):
    assert states_inability(prose) is not None


@pytest.mark.parametrize("prose,expression", [
    ("I can't do that.", "I can't"), ("I cannot do that.", "I cannot"), ("I'm unable to do that.", "I'm unable"),
    ("I am not able to do that.", "I am not able"), ("I don't have access to that.", "I don't have"),
    ("I don't have the ability to do that.", "I don't have"), ("I don't have a tool for that.", "I don't have"),
    ("That's not something I can do.", "not something I can"), ("It's beyond my capabilities.", "beyond my capabilit"),
    ("Я не могу.", "не могу"), ("Я не умею.", "не умею"), ("Я не в состоянии.", "не в состоянии"),
    ("У меня нет доступа.", "У меня нет"), ("Нет доступа к погоде.", "Нет доступа"),
    ("Нет возможности.", "Нет возможности"),
    ("Не имею возможности.", "Не имею возможности"), ("Не получится.", "Не получится"),
    ("Это недоступно.", "недоступно"),
])
def test_the_inability_expressions_of_the_spec(prose, expression):
    found = states_inability(prose)
    assert found is not None and found.lower().startswith(expression.lower()), found


@pytest.mark.parametrize("prose,result", [
    ("It's 14:00 there.", "14:00"), ("It is 2:30 PM in Tokyo.", "2:30 PM"), ("Сейчас +15 °C.", "+15 °C"),
    ("It's 59°F outside.", "59°F"), ("It's 15 degrees.", "15 degrees"), ("It is currently sunny.", "currently sunny"),
])
def test_the_invented_results_of_the_spec(prose, result):
    found = invents_result(prose)
    assert found is not None and result.lower() in found.lower(), found


@pytest.mark.parametrize("prose", [
    "I'm a text-based assistant and can't play music.", "As a language model, I am limited and cannot do that.",
    "Я, к сожалению, не могу.", "Sorry, cannot help with that.",
])
def test_states_inability_finds_the_subject(prose):
    assert states_inability(prose) is not None


@pytest.mark.parametrize("prose", [
    "Sure, here you go.", "You can't go wrong with pepperoni.", "Pizza is great.", "Конечно, сейчас.",
    "Pizza is great, and you can't beat it.",
    'She said "I can\'t come".', "«Не могу» — сказал он.", "Which city?",
])
def test_states_inability_needs_the_model_itself(prose):
    assert states_inability(prose) is None, (prose, states_inability(prose))


# ============================================================================ robustness and speed

TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=300)
ANSWERISH = st.lists(st.sampled_from([
    "I", "I've", "set", "a", "timer", "done", "Done!", "?", ".", ",", " ", "\n", "Which", "city", "Где", "город",
    "не", "могу", "поставил", "таймер", "14:00", "+15 °C", "1,024", "-3", "3,5", "«", "»", '"', "`", "```",
    "$", "€", "100", "dollars", "is", "about", "92", "euros", "it's", "sunny", "can't", "Готово", "—", "(", ")",
    "\u00a0", "\u2009", "ё", "Ё", "\ud800", "\x00", "*", "_", "...", "…", "¿", "LVII", "LVIII", "Au", "Ag",
]), max_size=60).map("".join)
REQS = [R(), R(contains_all=[["LVII"], ["1,024", "3.5"]], contains_any=["Толст*", "a ... b", "$"],
          excludes=["-3", "late"]), R(refusal=True), R(ask_about=list(ASK_TERMS))]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(TEXT, ANSWERISH), st.one_of(TEXT, ANSWERISH))
def test_never_raises(prose, phrase):
    for req in REQS:
        check = check_answer(req, prose)
        assert isinstance(check, AnswerCheck) and isinstance(check.reason, str)
        assert check.ok == (check.reason == "")
        assert not check.reason.startswith("answer could not be checked"), check.reason
    assert isinstance(phrase_occurs(phrase, prose), bool)
    for f in (claims_action, invents_result, states_inability):
        assert f(prose) is None or isinstance(f(prose), str)
    found = asks_about(prose, list(ASK_TERMS))
    assert found is None or isinstance(found, str)


@pytest.mark.parametrize("value", [None, 12, 3.5, b"bytes", ["a"]])
def test_odd_types_do_not_raise(value):
    assert check_answer(R(), value).ok is (value not in (None,) and bool(str(value).strip()))
    assert phrase_occurs(value, "x") is False and phrase_occurs("x", value) is False
    assert claims_action(value) is None and invents_result(value) is None and states_inability(value) is None
    assert asks_about(value, ["get_weather.city"]) is None and asks_about("Which city?", value) is None


PATHOLOGICAL = {
    "newlines": "\n" * 16000, "question marks": "?" * 16000, "a?": "a? " * 5000, "commas": "," * 16000,
    "quotes": '"' * 16000, "guillemets": "«" * 16000, "backticks": "`" * 16000, "fences": "```\n" * 4000,
    "digits": "7" * 16000, "minus ones": "-1" * 8000, "groups": "1" + ",000" * 4000, "spaces": " " * 16000,
    "space groups": "1" + " 000" * 4000, "clock": "It's 12:00 if " * 1200, "I set": "Shall I set a timer? " * 800,
    "city.": "city. " * 2700, "what": "What? " * 2700, "please": "please " + " " * 16000 + "x",
    "nul": "\x00" * 16000, "surrogates": "\ud800" * 16000, "mixed": "Done 1,0 «?» ё — $5 = ".join(["x"] * 700),
    "long word": "a" * 16000, "5000 digits": "1" * 5000 + ".5",
}


# Requirements as the corpus writes them (one or two missing parameters, not all fourteen at once).
REALISTIC = [R(), R(contains_any=["Канберр*", "Canberra"], excludes=["Алексей"]), R(contains_all=["1913", "-4.5"]),
             R(refusal=True), R(ask_about=["get_weather.city"]),
             R(ask_about=["convert_currency.amount", "convert_currency.from_currency"]),
             R(ask_about=["save_note.text"])]


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_pathological_inputs_are_checked_without_failing(name):
    # Speed is measured in benchmarks/bench_grader_fuzz.py (BENCHMARKS.md), not asserted here.
    text = PATHOLOGICAL[name]
    for req in REALISTIC:
        check = check_answer(req, text)
        assert not check.reason.startswith("answer could not be checked"), check.reason


def _prose_16k() -> str:
    para = ("Sure! I'd be happy to help you with that. The capital of Australia is Canberra, not Sydney as many "
            "think. In 1913 the city was founded; it has about 460,000 people. Could you tell me more about what "
            "you need? Я не могу заказать пиццу, но могу помочь с рецептом. Погода в разных городах разная. ")
    return (para * 60)[:16000]


def test_a_1_mb_answer_is_checked_like_its_16_kb_part():
    small = _prose_16k()
    for req in REALISTIC:
        assert check_answer(req, small * 64).ok == check_answer(req, small).ok, req
