"""Spec 3.0 kinds 9 and 10: surface forms compared by rule, and stated optional arguments that contradict the
user. Outputs written the way strong models write calls (Qwen3-Coder xml with quoted values, OpenAI reasoning
models' U+2011 hyphens, GPT-style `$` amounts, snake_case unit names), through the real cases."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.evaluator import evaluate
from tooluse1.grade import grade
from tooluse1.prompts import PROTOCOLS, format_call
from tooluse1.aliases import UNITS, norm_text
from tooluse1.matching import keywords_match, to_number
from tooluse1.tools import Call

CASES = {c.id: c for c in load_corpus()[0]}


def _with(cid: str, **changes) -> Call:
    call = CASES[cid].expect.right_call()
    return Call(call.name, {**call.arguments, **changes})


# ----------------------------------------------------------------------------- hyphens and dashes (kind 9)

@pytest.mark.parametrize("a, b", [
    ("по\u2011итальянски", "по-итальянски"),       # U+2011 no-break hyphen
    ("Wi\u2011Fi на даче", "Wi-Fi на даче"),
    ("Wi\u2010Fi", "Wi-Fi"),                         # U+2010 hyphen
    ("e\u2011mail", "e-mail"),
    ("co\u00adoperate", "cooperate"),               # soft hyphen: invisible
    ("Buy milk \u2014 urgent", "Buy milk - urgent"),
    ("state\uff0dof\uff0dthe\uff0dart", "state-of-the-art"),
])
def test_unicode_hyphens_and_dashes_compare_equal_to_the_ascii_hyphen(a, b):
    assert norm_text(a) == norm_text(b)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("cid, changes", [
    ("translate-ru-005", {"text": "Я не говорю по\u2011итальянски"}),
    ("save_note-ru-003", {"title": "Wi\u2011Fi на даче"}),
])
def test_a_no_break_hyphen_in_a_text_argument_passes(cid, changes, protocol):
    v = grade(CASES[cid], format_call(_with(cid, **changes), protocol), protocol)
    assert v.passed, v.reason


def test_a_different_word_is_still_a_different_text():
    assert norm_text("по\u2011испански") != norm_text("по-итальянски")


# ----------------------------------------------------------------------------- keywords (kind 9)

@pytest.mark.parametrize("expected, query, ok", [
    ("python 3.13", "Python3.13 release notes", True),
    ("python 3.13", "what's new in python3.13", True),
    ("python 3.13", "Python 3.13", True),
    ("python 3.13", "python3.12 changes", False),
    ("python 3.13", "python 13", False),
    ("iphone 16", "iPhone16 price", True),
    ("iphone 16", "iPhone 15 price", False),
    ("wi-fi пароль", "пароль от wi\u2011fi", True),
    ("covid|covid-19 vaccine", "COVID19 vaccine news", True),
])
def test_keywords_split_at_letter_digit_boundaries(expected, query, ok):
    assert keywords_match(expected, query) is ok


# ----------------------------------------------------------------------------- quoted numbers (kind 9)

@pytest.mark.parametrize("raw, value", [('"250"', 250.0), ("'250'", 250.0), ("«250»", 250.0), ("“1,500.5”", 1500.5),
                                        ('"3,5"', 3.5)])
def test_a_quoted_number_reads_as_the_number(raw, value):
    assert to_number(raw) == value


@pytest.mark.parametrize("raw", ['"250', '"25"0', '""', '"abc"'])
def test_a_broken_or_non_numeric_quote_is_no_number(raw):
    assert to_number(raw) is None


def test_a_quoted_number_in_xml_passes_like_a_quoted_string():
    cid = "convert_currency-en-001"
    call = CASES[cid].expect.right_call()
    lines = ["<tool_call>", f"<function={call.name}>"]
    for k, v in call.arguments.items():
        lines += [f"<parameter={k}>", json.dumps(v), "</parameter>"]       # every value quoted: "250", "USD"
    out = "\n".join(lines + ["</function>", "</tool_call>"])
    assert '"250"' in out or '"' in out
    v = grade(CASES[cid], out, "xml")
    assert v.passed, v.reason


@pytest.mark.parametrize("protocol", ["xml", "plain"])
def test_a_quoted_integer_duration_passes(protocol):
    cid = "set_timer-en-001"
    secs = CASES[cid].expect.call.arguments["duration_seconds"]
    if protocol == "xml":
        out = (f'<tool_call>\n<function=set_timer>\n<parameter=duration_seconds>\n"{secs}"\n</parameter>\n'
               "</function>\n</tool_call>")
    else:
        out = f'TOOL set_timer | duration_seconds="{secs}"'
    assert grade(CASES[cid], out, protocol).passed


# ----------------------------------------------------------------------------- units by their words (kind 9)

@pytest.mark.parametrize("form, unit", [
    ("cup_us", "cup"), ("us_cup", "cup"), ("US cups", "cup"), ("cups US", "cup"), ("cup (US)", "cup"),
    ("gallon_us", "gal"), ("US gallons", "gal"), ("mile_statute", "mi"),
])
def test_unit_forms_match_by_their_words_in_any_order(form, unit):
    assert UNITS.lookup(form) == unit


@pytest.mark.parametrize("form", ["imperial_gallon", "gallon_imperial", "cup_metric", "metric cup"])
def test_another_system_is_another_unit(form):
    assert UNITS.lookup(form) not in ("gal", "cup")


# ----------------------------------------------------------------------------- currency signs in expressions

@pytest.mark.parametrize("text, value", [
    ("$237.60 / 6", 39.6), ("237.60$ / 6", 39.6), ("$237.60/$6", 39.6), ("€12 * 3", 36.0), ("1500 ₽ / 4", 375.0),
    ("£1,200 * 0.2", 240.0), ("($40 + $25) * 2", 130.0), ("$2+2$", 4.0),      # LaTeX math stays LaTeX
])
def test_a_currency_sign_on_an_amount_is_dropped(text, value):
    assert evaluate(text) == pytest.approx(value)


def test_a_currency_sign_alone_is_still_not_an_expression():
    assert evaluate("$") is None and evaluate("$ / €") is None


# ----------------------------------------------------------------------------- wrong optional arguments (kind 10)

@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("cid, source, ok", [
    ("translate-en-001", "fr", False),             # an English sentence is not French
    ("translate-en-001", "en", True),
    ("translate-en-001", "English", True),
    ("translate-en-001", "en-US", True),
    ("translate-en-001", None, True),              # left out: the tool detects it
    ("translate-en-001", "", True),                # blank: states nothing
    ("translate-ru-001", "ru", True),
    ("translate-ru-001", "русский", True),
    ("translate-ru-001", "uk", False),
    ("translate-ru-004", "en", False),
    ("multi_step-en-003", "fr", False),            # "my original English sentence", the previous target was fr
    ("multi_step-en-003", "en", True),
    ("multi_step-ru-004", "en", False),            # "исходную русскую фразу", the previous target was en
    ("multi_step-ru-004", "ru", True),
])
def test_a_stated_source_language_must_be_the_texts(cid, source, ok, protocol):
    call = CASES[cid].expect.right_call()
    args = {k: v for k, v in call.arguments.items() if k != "source_language"}
    if source is not None:
        args["source_language"] = source
    v = grade(CASES[cid], format_call(Call(call.name, args), protocol), protocol)
    assert v.passed is ok, v.reason


def test_every_translate_call_case_states_the_source_language_of_its_text():
    for c in CASES.values():
        if c.expect.call is not None and c.expect.call.name == "translate":
            assert "source_language" in c.expect.call.arguments, c.id


@pytest.mark.parametrize("cid, changes", [
    ("get_weather-en-003", {"unit": "celsius"}),            # asked for °F
    ("web_search-en-004", {"num_results": 10}),             # asked for the top 3
    ("set_timer-en-004", {"label": "spaghetti"}),           # called "pasta"
    ("save_note-en-003", {"title": "Passwords"}),           # titled "Wifi"
])
def test_other_stated_optional_arguments_that_contradict_the_user_fail(cid, changes):
    for protocol in PROTOCOLS:
        v = grade(CASES[cid], format_call(_with(cid, **changes), protocol), protocol)
        assert not v.passed and v.reason.startswith("arguments differ"), v.reason


def test_an_optional_argument_the_user_left_open_is_a_tolerated_extra():
    v = grade(CASES["get_weather-en-001"], format_call(_with("get_weather-en-001", unit="fahrenheit"), "json"), "json")
    assert v.passed and v.extra_args == ["unit"]
