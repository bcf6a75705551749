"""The grader (tooluse1.grade.grade): SPEC §3.2-3.3, one rule at a time."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import Case, load_corpus
from tooluse1.grade import grade
from tooluse1.metrics import GradedItem, compute
from tooluse1.prompts import PROTOCOLS, format_call
from tooluse1.tools import TOOL_NAMES, Call


@pytest.fixture(scope="module")
def case():
    cases, _ = load_corpus()
    by_id = {c.id: c for c in cases}
    return by_id.__getitem__


def J(name: str, **arguments) -> str:
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def call_case(name: str, arguments: dict, cid: str | None = None) -> dict:
    """A corpus-shaped dict expecting one call (grade() accepts dicts as well as Cases)."""
    return {"id": cid or f"{name}-en-900", "lang": "en", "category": name, "difficulty": "easy", "tools": "all",
            "messages": [{"role": "user", "content": "synthetic"}],
            "expect": {"call": {"name": name, "arguments": arguments}}}


def no_call_case(any_of=(), all_of=()) -> dict:
    return {"id": "negative-en-900", "lang": "en", "category": "negative", "difficulty": "easy", "kind": "knowledge",
            "tools": "all", "messages": [{"role": "user", "content": "synthetic"}],
            "expect": {"no_call": True, "answer_contains_any": list(any_of), "answer_contains_all": list(all_of),
                       "reference": "synthetic"}}


# ----------------------------------------------------------------------------- exactly one call

def test_the_expected_call_passes_in_every_protocol(case):
    c = case("calculator-en-001")
    for protocol in PROTOCOLS:
        v = grade(c, format_call(Call("calculator", {"expression": "348*27"}), protocol), protocol)
        assert v.passed and v.expectation == "call" and v.label == "call" and v.n_calls == 1
        assert v.tool_ok and v.args_ok and not v.extra_args and not v.malformed and v.reason == "ok"


@pytest.mark.parametrize("second", [J("calculator", expression="1"), J("calculator", expression="348*27"),
                                    J("get_time", timezone="UTC")])
def test_two_calls_fail_even_if_one_is_right(case, second):
    out = "[" + J("calculator", expression="348*27") + ", " + second + "]"
    v = grade(case("calculator-en-001"), out, "json")
    assert not v.passed and v.n_calls == 2
    assert v.tool_ok and v.args_ok            # the first call alone would have been right
    assert "2 calls" in v.reason


def test_two_plain_lines_fail(case):
    out = "TOOL calculator | expression=348*27\nTOOL calculator | expression=348*27"
    assert not grade(case("calculator-en-001"), out, "plain").passed


def test_wrong_tool_and_no_call_fail(case):
    v = grade(case("calculator-en-001"), J("web_search", query="348*27"), "json")
    assert not v.passed and v.tool_ok is False and v.args_ok is False and "wrong tool" in v.reason
    v = grade(case("calculator-en-001"), "348 times 27 is 9396.", "json")
    assert not v.passed and v.n_calls == 0 and v.label == "text" and "no call" in v.reason


def test_tool_name_alias_passes(case):
    assert grade(case("calculator-en-001"), J("calc", expression="348*27"), "json").passed
    assert grade(case("get_weather-en-001"), J("functions.get_weather", city="Tokyo"), "json").passed


def test_malformed_output_fails_a_call_case(case):
    v = grade(case("calculator-en-001"), '{"name": "calculator", "arguments": {"expression": "348*27"', "json")
    assert not v.passed and v.malformed and v.label == "malformed" and v.reason.startswith("malformed")


# ----------------------------------------------------------------------------- expressions and numbers

@pytest.mark.parametrize("expr", ["348*27", "27*348", "27 * 348", "(348)*(27)", "9396", "9396.0", 9396, 9396.0,
                                  9396 * (1 + 1e-7)])
def test_calculator_compares_by_value(case, expr):
    assert grade(case("calculator-en-001"), J("calculator", expression=expr), "json").passed


@pytest.mark.parametrize("expr", ["348*28", 9396 * (1 + 1e-3), "9396 + x", True, None, ["348*27"]])
def test_calculator_wrong_or_not_comparable_fails(case, expr):
    assert not grade(case("calculator-en-001"), J("calculator", expression=expr), "json").passed


@pytest.mark.parametrize("amount,ok", [
    (250, True), (250.0, True), ("250", True), ("250.0", True), (250 * (1 + 1e-7), True),
    (250 * (1 + 1e-3), False), (251, False), (True, False), ("two hundred fifty", False), (None, False),
])
def test_number_argument(case, amount, ok):
    out = J("convert_currency", amount=amount, from_currency="USD", to_currency="EUR")
    assert grade(case("convert_currency-en-001"), out, "json").passed is ok


def test_300_vs_300_point_0_and_100_vs_string_100():
    c = call_case("convert_units", {"value": 300, "from_unit": "km", "to_unit": "mi"})
    for value in (300, 300.0, "300", "300.0"):
        assert grade(c, J("convert_units", value=value, from_unit="km", to_unit="mi"), "json").passed, value
    c = call_case("convert_currency", {"amount": 100, "from_currency": "USD", "to_currency": "RUB"})
    assert grade(c, J("convert_currency", amount="100", from_currency="$", to_currency="рублей"), "json").passed
    assert grade(c, J("convert_currency", amount=100.0, from_currency="usd", to_currency="₽"), "json").passed


@pytest.mark.parametrize("duration,ok", [
    (90, True), (90.0, True), ("90", True), (91, False), (89, False), (90.5, False), (True, False), ("ninety", False),
])
def test_integer_argument(case, duration, ok):
    assert grade(case("set_timer-en-002"), J("set_timer", duration_seconds=duration), "json").passed is ok


def test_ints_and_bools_are_never_confused():
    c = call_case("set_timer", {"duration_seconds": 1})
    assert not grade(c, J("set_timer", duration_seconds=True), "json").passed
    assert grade(c, J("set_timer", duration_seconds=1), "json").passed
    c = call_case("web_search", {"query": "news", "num_results": 20})
    assert not grade(c, J("web_search", query="news", num_results=21), "json").passed
    assert grade(c, J("web_search", query="news", num_results=20), "json").passed
    c = call_case("set_timer", {"duration_seconds": 20})
    assert not grade(c, J("set_timer", duration_seconds=21), "json").passed
    assert not grade(c, "TOOL set_timer | duration_seconds=21", "plain").passed


def test_numeric_strings_from_untyped_protocols(case):
    assert grade(case("set_timer-en-002"), "TOOL set_timer | duration_seconds=90", "plain").passed
    xml = "<function=set_timer>\n<parameter=duration_seconds>\n90\n</parameter>\n</function>"
    assert grade(case("set_timer-en-002"), xml, "xml").passed


# ----------------------------------------------------------------------------- extra and missing arguments

def test_extra_arguments_are_tolerated_and_flagged(case):
    v = grade(case("convert_currency-en-001"),
              J("convert_currency", amount=250, from_currency="USD", to_currency="EUR", date="today"), "json")
    assert v.passed and v.extra_args == ["date"] and "extra" in v.reason
    item = GradedItem.of(case("convert_currency-en-001"), "json", v)
    metrics = compute([item])
    assert metrics["correct_call"].k == 1 and metrics["arguments_exact"].k == 0


def test_missing_optional_argument_with_default():
    c = call_case("get_weather", {"city": "Berlin", "unit": "celsius"})
    assert grade(c, J("get_weather", city="Berlin"), "json").passed             # celsius is the default
    assert grade(c, J("get_weather", city="Berlin", unit="°C"), "json").passed
    assert not grade(c, J("get_weather", city="Berlin", unit="fahrenheit"), "json").passed


def test_missing_stated_optional_argument_fails(case):
    c = case("get_weather-en-003")                                           # Dubai in °F
    v = grade(c, J("get_weather", city="Dubai"), "json")
    assert not v.passed and "missing unit" in v.reason
    assert grade(c, J("get_weather", city="Dubai", unit="°F"), "json").passed
    assert not grade(c, J("get_weather", city="Dubai", unit="celsius"), "json").passed
    c = case("web_search-en-004")                                            # num_results: 3 stated
    assert not grade(c, J("web_search", query="vegan lasagna"), "json").passed
    assert grade(c, J("web_search", query="vegan lasagna", num_results="3"), "json").passed


def test_missing_required_argument_fails(case):
    v = grade(case("convert_currency-en-001"), J("convert_currency", amount=250, from_currency="USD"), "json")
    assert not v.passed and "missing to_currency" in v.reason


def test_inferable_source_language_may_be_omitted(case):
    c = case("translate-en-005")                                             # expects source_language: it
    assert grade(c, J("translate", text="Dove si trova il museo?", target_language="English"), "json").passed
    assert not grade(c, J("translate", text="Dove si trova il museo?", target_language="en",
                          source_language="es"), "json").passed


# ----------------------------------------------------------------------------- aliases in grading

def test_russian_and_english_alias_forms_pass(case):
    assert grade(case("get_weather-ru-001"), J("get_weather", city="в Москве"), "json").passed
    assert grade(case("get_weather-ru-002"), J("get_weather", city="СПб"), "json").passed
    assert grade(case("get_weather-ru-002"), J("get_weather", city="St. Petersburg"), "json").passed
    assert not grade(case("get_weather-ru-002"), J("get_weather", city="Moscow"), "json").passed
    assert grade(case("translate-ru-002"), J("translate", text="Спасибо за помощь", target_language="на немецкий"),
                 "json").passed
    assert grade(case("convert_currency-ru-001"),
                 J("convert_currency", amount=100, from_currency="долларов", to_currency="рублей"), "json").passed


# ----------------------------------------------------------------------------- keywords

@pytest.mark.parametrize("query,ok", [
    ("часы работы Эрмитажа", True),          # Russian stem: Эрмитажа ~ Эрмитаж
    ("Эрмитаж часы работы", True),
    ("ЭРМИТАЖ РАБОТЫ", True),
    ("Эрмитаж", False),                      # a keyword missing
    ("Русский музей работы", False),
])
def test_keyword_query_russian(case, query, ok):
    assert grade(case("web_search-ru-001"), J("web_search", query=query), "json").passed is ok


@pytest.mark.parametrize("query,ok", [
    ("latest James Webb telescope news", True), ("JAMES WEBB", True), ("webb james", True),
    ("James telescope", False), ("Hubble telescope news", False),
])
def test_keyword_query_english(case, query, ok):
    assert grade(case("web_search-en-001"), J("web_search", query=query), "json").passed is ok


# ----------------------------------------------------------------------------- free text

@pytest.mark.parametrize("text,ok", [
    ("Call the dentist on Monday", True), ("call the dentist on monday.", True), ('"Call the dentist on Monday"', True),
    ("  Call   the dentist on Monday ", True), ("Ｃａｌｌ the dentist on Monday", True),
    ("Call the dentist on Tuesday", False), ("Call dentist on Monday", False),
])
def test_text_argument_english(case, text, ok):
    assert grade(case("save_note-en-001"), J("save_note", text=text), "json").passed is ok


@pytest.mark.parametrize("text,ok", [
    ("Позвонить маме в воскресенье", True), ("«позвонить маме в воскресенье»", True),
    ("ПОЗВОНИТЬ МАМЕ В ВОСКРЕСЕНЬЕ", True),
    ("Позвонить папе в воскресенье", False),
])
def test_text_argument_russian(case, text, ok):
    assert grade(case("save_note-ru-002"), J("save_note", text=text), "json").passed is ok


def test_yo_and_ye_are_equal_in_titles(case):
    c = case("save_note-ru-004")                                             # title «Подарок Лёше»
    args = dict(c.expect.call.arguments)
    assert grade(c, J("save_note", **{**args, "title": "Подарок Леше"}), "json").passed


# ----------------------------------------------------------------------------- no-call and clarify

@pytest.mark.parametrize("answer,ok", [
    ("The capital of Australia is Canberra.", True), ("CANBERRA", True), ("Канберра? No: Canberra!", True),
    ("The capital of Australia is Sydney.", False), ("", False),
])
def test_no_call_constraints_on_prose(case, answer, ok):
    v = grade(case("negative-en-001"), answer, "json")
    assert v.passed is ok and v.expectation == "no_call" and v.constraints_ok is ok


def test_a_call_payload_never_satisfies_a_constraint(case):
    c = case("negative-en-001")
    for protocol in PROTOCOLS:
        out = format_call(Call("web_search", {"query": "Canberra capital of Australia"}), protocol)
        v = grade(c, out, protocol)
        assert not v.passed and v.spurious_call and v.constraints_ok is False, protocol


def test_thinking_never_satisfies_a_constraint(case):
    v = grade(case("negative-en-001"), "<think>It is Canberra.</think>I am not sure.", "json")
    assert not v.passed and v.constraints_ok is False


def test_answer_contains_all_needs_every_string():
    c = no_call_case(all_of=["Leonardo", "da Vinci"])
    assert grade(c, "Leonardo da Vinci painted it.", "json").passed
    assert not grade(c, "Leonardo painted it.", "json").passed
    c = no_call_case(any_of=["1024", "1,024"], all_of=["bytes"])
    assert grade(c, "1,024 bytes", "json").passed
    assert not grade(c, "1,024", "json").passed
    assert not grade(c, "a thousand bytes", "json").passed


def test_without_constraints_any_non_empty_text_but_no_call_passes():
    c = {**no_call_case(), "kind": "chit_chat"}
    assert grade(c, "I can't do that.", "json").passed
    for empty in ("", "   \n\t", "<think>Let me think about how my day went"):   # empty, or cut off in thinking
        v = grade(c, empty, "json")
        assert not v.passed and v.constraints_ok is False and v.reason == "empty answer", repr(empty)
    v = grade(c, J("web_search", query="x"), "json")
    assert not v.passed and v.spurious_call


# Kind 6 (spec 3.0): a text answer stopped at the token limit is judged by what it already says.
_RU_PYTHON = ("Если совсем с нуля — я бы начал с Python. У него простой синтаксис, огромное сообщество и "
              "масса бесплатных курсов, а первые результаты появляются быстро. C++ даёт глубже понять, как "
              "работает память и компьютер, но порог входа заметно выше: указатели, ручное управление памятью, "
              "сборка проектов. Хороший путь такой: полгода на Python, чтобы освоить базовые идеи, а потом, если "
              "захочется системного программирования или геймдева, перейти на")


@pytest.mark.parametrize("cid, output, passes", [
    # requirement already met, then cut mid-sentence: pass
    ("negative-en-001", "The capital of Australia is Canberra, which was purpose-built as a compromise between", True),
    ("negative-ru-001", "Столица Австралии — Канберра. Город специально построили как компромисс между "
                        "Сиднеем и", True),
    ("negative-ru-005", _RU_PYTHON, True),
    ("negative-en-012", "Great question! For a complete beginner I'd pick Python: the syntax reads almost like "
                        "English, and you get visible results fast. C++ teaches you more about memory, but", True),
    ("negative-en-014", "I'm sorry, but I can't book flights: none of my tools can make reservations. What I can do "
                        "is help you compare", True),
    ("negative-ru-010", "К сожалению, я не могу забронировать билет: у меня нет такого инструмента. Но я могу "
                        "подсказать, на что обратить", True),
    ("clarification-en-001", "Sure — which city would you like the weather for? Once you tell me, I'll fetch the "
                             "current conditions and", True),
    ("clarification-ru-002", "Конечно! В каком городе узнать погоду? Как только напишете, я сразу", True),
    # cut before the requirement was met: fail on the requirement
    ("negative-en-001", "Great question! Australia's capital is a planned city that was chosen as a compromise between "
                        "the two largest cities,", False),
    ("negative-ru-004", "«Война и мир» — роман-эпопея, который печатался частями в журнале «Русский вестник» с 1865 "
                        "года, а его автор —", False),
    # a wrong value asserted before the cut still fails
    ("negative-en-001", "The capital of Australia is Sydney, the largest city, home to the famous Opera House and",
     False),
    # cut inside a call attempt, or inside thinking (no answer yet): fail
    ("negative-en-001", 'Canberra. Let me double-check.\n<tool_call>\n{"name": "web_search", "arguments": {"query": '
                        '"capital of Aus', False),
    ("negative-en-001", "<think>The user asks for the capital of Australia. It is Canberra, not Sydney; I should "
                        "answer directly without", False),
    ("negative-ru-001", "<think>Пользователь спрашивает столицу Австралии. Это Канберра, ответ", False),
    # a reply that hit the limit because it loops never finished an answer: fail
    ("negative-ru-006", "Привет! Как у тебя дела? Привет! Привет! Привет! Привет! Привет! Привет! Прив", False),
    ("negative-en-011", "I'm doing great, thanks! I'm just happy to help. I'm just happy to help. I'm just happy to "
                        "help. I'm just happy to help. I'm just", False),
    ("negative-en-004", "Hamlet was written by William Shakespeare.\n\nIt is a tragedy.\nIt is a play.\nIt is a "
                        "tragedy.\nIt is a play.\nIt is a tragedy.\nIt is a play.\nIt is", False),
])
@pytest.mark.parametrize("protocol", ["json", "xml", "plain"])
def test_a_text_answer_cut_off_at_the_token_limit_is_judged_by_what_it_says(case, cid, output, passes, protocol):
    v = grade(case(cid), output, protocol, finish_reason="length")
    assert v.cut_off
    assert v.passed == passes, v.reason
    if passes:
        assert v.reason.startswith("ok (cut off at the token limit")


def test_cut_off_is_recorded_on_every_item_and_a_complete_call_still_passes(case):
    c = case("negative-en-001")
    v = grade(c, "The capital of Australia is Canberra.", "json", finish_reason="stop")
    assert v.passed and not v.cut_off
    # a call case is graded on its call: the answer was complete once the call was written
    w = grade(case("calculator-en-001"), J("calculator", expression="348*27"), "json", finish_reason="length")
    assert w.passed and w.cut_off
    # a call cut before it closes is malformed, whatever the case
    x = grade(case("calculator-en-001"), '{"name": "calculator", "arguments": {"expression": "348*', "json",
              finish_reason="length")
    assert not x.passed and x.malformed and x.cut_off


@pytest.mark.parametrize("garbage", [
    '{"name": "web_search", "arguments": {"query": "Canberra"',
    "<tool_call>\n<function=web_search>\n<parameter=query>\nCanberra\n",
    "TOOL web_search query=Canberra",
])
def test_malformed_output_never_counts_as_abstention(case, garbage):
    for cid in ("negative-en-001", "negative-en-024", "clarification-en-001"):
        v = grade(case(cid), garbage, "json")
        assert not v.passed and v.malformed and not v.spurious_call, cid


# ----------------------------------------------------------------------------- spec 2.0: the calling policy, pinned

def test_policy_knowledge_negative_is_answered_without_any_tool_web_search_included(case):
    """Stable knowledge is answered directly; a web search for it is a spurious call (SPEC §2)."""
    c = case("negative-en-001")
    assert grade(c, "Canberra is the capital of Australia.", "json").passed
    assert grade(c, "Столица Австралии — Канберра.", "xml").passed                       # either language
    assert not grade(c, "It is Sydney.", "json").passed                                     # the wrong fact
    v = grade(c, J("web_search", query="capital of Australia"), "json")
    assert not v.passed and v.spurious_call


def test_policy_compute_cases_need_the_tool_even_when_the_model_knows_the_answer(case):
    """Computing, converting and translating go through the offered tool (SPEC §2): calculator-ru-005 is
    2^10, and the right number in prose is not a call."""
    c = case("calculator-ru-005")
    assert grade(c, J("calculator", expression="2**10"), "json").passed
    v = grade(c, "2 в десятой степени — это 1024.", "json")
    assert not v.passed and v.n_calls == 0 and v.reason.startswith("no call")


def test_policy_clarify_needs_a_question_about_the_missing_argument_and_no_pretence(case):
    c = case("clarification-en-005")   # "My cousin just moved abroad for work. What time is it over there?"
    for good in ("Where did your cousin move?", "Which city or country is your cousin in?"):
        assert grade(c, good, "json").passed, good
    for bad in ("The current local time in your cousin's time zone is 14:00.",       # the 1.x false pass
                "I can't know that.", "How can I help you today?"):
        assert not grade(c, bad, "json").passed, bad
    d = case("clarification-en-002")   # "Set a timer, please."
    assert not grade(d, "Done! I've set a timer for 5 minutes.", "json").passed
    assert grade(d, "How long should the timer run?", "plain").passed


def test_policy_describing_a_tool_with_an_example_block_is_not_a_call(case):
    """negative-en-026: a helpful description may show an example call in a code block (SPEC §3.1); the
    same call written as the reply is a spurious call."""
    c = case("negative-en-026")
    call = J("get_weather", city="Paris")
    helpful = ("The get_weather tool looks up the current weather for a city. For example:\n"
               f"```json\n{call}\n```")
    v = grade(c, helpful, "json")
    assert v.passed and v.n_examples == 1 and v.label == "text"
    v = grade(c, call, "json")
    assert not v.passed and v.spurious_call


def test_policy_capability_traps_need_a_refusal_and_no_pretended_action(case):
    c = case("negative-en-013")   # "Please order me a pizza."
    assert grade(c, "Sorry, I can't place food orders.", "json").passed
    assert grade(c, "К сожалению, я не могу заказать пиццу.", "xml").passed
    for bad in ("Done! I've ordered a large pepperoni pizza for you; it will arrive in about 30 minutes.",
                "Here are some good pizza places near you.", ""):
        assert not grade(c, bad, "json").passed, bad


def test_exactly_one_call_counts_every_format(case):
    """Issue 10: an xml call followed by the same call as JSON is two calls, not one."""
    c = case("calculator-en-001")
    xml = format_call(Call("calculator", {"expression": "348*27"}), "xml")
    v = grade(c, xml + "\n" + J("calculator", expression="348*27"), "xml")
    assert not v.passed and v.n_calls == 2
    w = grade(case("get_weather-en-006"), J("get_weather", city="Lisbon") + "\nTOOL get_time | timezone=Europe/Lisbon",
              "json")
    assert not w.passed and w.n_calls == 2


def test_a_broken_call_attempt_beside_a_right_call_fails(case):
    out = J("calculator", expression="348*27") + '\n{"name": "calculator", "arguments": {"expression": "1'
    v = grade(case("calculator-en-001"), out, "json")
    assert not v.passed and "does not parse" in v.reason


def test_clarify_cases_en_and_ru(case):
    assert grade(case("clarification-en-001"), "Which city do you mean?", "json").passed
    assert not grade(case("clarification-en-001"), "It is sunny.", "json").passed
    assert not grade(case("clarification-en-001"), J("get_weather", city="London"), "json").passed
    v = grade(case("clarification-ru-002"), "В каком городе?", "xml")
    assert v.passed and v.expectation == "clarify"


# ----------------------------------------------------------------------------- API

def test_grade_accepts_case_and_dict_alike(case):
    c = case("get_weather-en-001")
    assert isinstance(c, Case)
    for out in (J("get_weather", city="Tokyo"), J("get_weather", city="Kyoto"), "no idea"):
        assert grade(c, out, "json").as_dict() == grade(c.as_dict(), out, "json").as_dict()


def test_grade_never_raises_on_odd_outputs(case):
    for cid in ("calculator-en-001", "negative-en-001", "clarification-en-001"):
        for out in (None, "", "\x00", "{" * 3000,
                    json.dumps({"name": "set_timer", "arguments": {"duration_seconds": 10 ** 400}}),
                    json.dumps({"name": "calculator", "arguments": {"expression": {"nested": [1]}}}),
                    json.dumps({"name": "calculator", "arguments": {"expression": "1", "x": {"y": [None]}}})):
            v = grade(case(cid), out, "json")    # type: ignore[arg-type]
            assert not v.passed
            json.dumps(v.as_dict())


def test_every_corpus_tool_is_known():
    cases, _ = load_corpus()
    for c in cases:
        assert set(c.tools) <= set(TOOL_NAMES)
