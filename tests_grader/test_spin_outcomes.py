"""Outcomes a careful reader signs (tooluse1.spin.scoring.score_run, tooluse1.spin.facts): an answer that
contradicts the World is Not accomplished whatever ran; an unrequested action lowers the outcome; a web
search is graded by the document it retrieves; per-step statuses. Answers are written the way strong chat
models write them, EN and RU, right and wrong."""
from __future__ import annotations

import pytest

from tooluse1.spin.facts import clock_times, contradicted_quantities, contradicted_sky, quantities
from tooluse1.spin.plan import StepRun
from tooluse1.spin.scenarios import load_scenarios
from tooluse1.spin.scoring import carried_out, score_run, step_statuses
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY
from tooluse1.tools import Call
from tooluse1.world import World

SCENARIOS = {s.id: s for s in load_scenarios()[0]}


def reference_calls(sid: str) -> list[Call]:
    return [rc.call for rc in SCENARIOS[sid].required_calls]


# ----------------------------------------------------------------------------- the World's facts

@pytest.mark.parametrize("sid,answer", [
    ("single-en-001", "The temperature in Tokyo right now is 118.76°F."),
    ("single-en-001", "Right now Tokyo is at 9 °F, clear skies."),
    ("early_answer-en-007", "8880 USD = 8169.60 EUR"),
    ("fan_in-en-004", "The average of the current temperatures in Moscow and Saint Petersburg is 0°C."),
    ("fan_out-en-003", "The Eiffel Tower is 330 feet tall, and in yards that is 110."),
    ("chain-en-002", "Bitcoin is at 97250 USD, which is approximately 97250 euros."),
    ("conditional-ru-004", "В Сочи сейчас 22°C, в Калининграде 2°C."),
    ("chain-ru-001", "В Казани сейчас −8 °C, это 300 K."),
    ("conditional-ru-002", "В Нью-Йорке час 12:00, заметку сохранил."),
    ("conditional-en-001", "Amsterdam is 9°C with rain; the local time is 09:05, and 20 euros is 21.74 USD."),
    ("single-en-005", "It's 10:05 PM in Seoul right now."),
])
def test_an_answer_stating_a_value_the_world_did_not_produce_is_not_accomplished(sid: str, answer: str) -> None:
    s = SCENARIOS[sid]
    assert contradicted_quantities(s, answer), answer
    score = score_run(s, reference_calls(sid), answer)   # every required call ran: still wrong
    assert score.outcome == NOT_ACCOMPLISHED and score.contradictions
    assert "contradicts the World" in score.reason


@pytest.mark.parametrize("sid,answer,wrong", [
    ("chain-ru-001", "25", True),            # -8 °C in kelvin is 265.15
    ("fan_out-ru-001", "194524", True),
    ("chain-ru-001", " 265.15.", False),
    ("single-ru-001", "2", False),           # Kaliningrad 2 °C, asked in degrees
    ("early_answer-ru-007", "1642", False),
    ("chain-ru-001", "Шаг 25 из 30", False),  # a number inside a sentence is not judged
])
def test_an_answer_that_is_only_a_number_asserts_it(sid: str, answer: str, wrong: bool) -> None:
    assert bool(contradicted_quantities(SCENARIOS[sid], answer)) is wrong


@pytest.mark.parametrize("sid,answer,wrong", [
    ("conditional-ru-004", "В Сочи и в Калининграде погода составляет 12°C.", ["12°C in Kaliningrad"]),
    ("conditional-ru-004", "В Калининграде сейчас 12 градусов.", ["12 градусов in Kaliningrad"]),
    ("conditional-ru-004", "В Сочи 12°C, в Калининграде 2°C — выше нуля; 12°C в Сочи — это 53,6°F.", []),
    ("conditional-ru-004", "Sochi is 53.6 °F with rain, Kaliningrad 2 °C and foggy.", []),
    ("conditional-ru-004", "В Сочи на 10 градусов теплее, чем в Калининграде.", []),   # a difference
    ("fan_in-en-001", "Madrid is 10 °C warmer than Berlin (24 vs 14).", []),
    ("fan_in-en-001", "It's 14°C in Madrid right now.", ["14°C in Madrid"]),
    ("fan_in-en-004", "The average of Moscow and Saint Petersburg is -4.5 °C.", []),
])
def test_a_temperature_said_of_a_place_is_that_places(sid: str, answer: str, wrong: list) -> None:
    got = [w for w in contradicted_quantities(SCENARIOS[sid], answer) if " in " in w]
    assert got == wrong


@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_no_reference_answer_contradicts_its_world(sid: str) -> None:
    assert contradicted_quantities(SCENARIOS[sid], SCENARIOS[sid].reference) == []


@pytest.mark.parametrize("sid,answer", [
    ("single-en-001", "It's 48.2 degrees Fahrenheit (9°C) and clear in Tokyo."),
    ("single-en-001", "Tokyo: about 48 °F right now, clear sky — that's 282.15 K if you need kelvin."),
    ("fan_out-en-003", "The Eiffel Tower is 330 m tall — about 1082.68 feet, or roughly 360.89 yards."),
    ("fan_out-en-003", "330 in feet is 1082.68 ft and in yards 360.89 yd."),
    ("early_answer-en-007", "1,480 × 6 = 8,880 — that's below 10,000, so no conversion is needed."),
    ("chain-ru-002", "Билет в Эрмитаж стоит 500 ₽, то есть примерно 4,97 €."),
    ("conditional-en-003", "Yes — Helsinki is at −4 °C with snow. 120 € is $130.43 for the coat."),
    ("single-en-005", "It's 3:05 PM (15:05) on Monday in Seoul."),
    ("conditional-ru-002", "В Нью-Йорке сейчас 1:05 ночи — сохранил заметку «позвонить Ире завтра»."),
    ("chain-en-003", "The Louvre (open 9:00-18:00) charges 22 EUR, about 23.91 USD."),
])
def test_right_values_in_other_units_roundings_and_spellings_are_supported(sid: str, answer: str) -> None:
    assert contradicted_quantities(SCENARIOS[sid], answer) == []


@pytest.mark.parametrize("sid,answer,wrong", [
    ("early_answer-ru-001", "В Сочи сейчас 12°C, солнечно — можно на пляж.", ["солнечно"]),
    ("early_answer-en-005", "The weather in London is sunny, 11°C.", ["sunny"]),
    ("early_answer-en-001", "Paris: 18°C and raining, take an umbrella.", ["raining"]),
    ("early_answer-ru-001", "В Сочи 12°C, дождь, не солнечно.", []),
    ("early_answer-ru-001", "Если там солнечно, я поставлю таймер, но в Сочи сейчас дождь.", []),
    ("early_answer-en-005", "It isn't sunny in London: 11°C with rain.", []),
    ("early_answer-en-001", "It's 18°C and sunny in Paris, no rain today.", []),
    ("early_answer-en-006", "Berlin is sunny and Moscow snowy.", []),   # two places: the sky is not judged
])
def test_an_answer_asserting_the_other_sky_contradicts_the_world(sid: str, answer: str, wrong: list) -> None:
    assert contradicted_sky(SCENARIOS[sid], answer) == wrong
    if wrong:
        assert score_run(SCENARIOS[sid], reference_calls(sid), answer).outcome == NOT_ACCOMPLISHED


def test_clock_times_and_their_halves_of_the_day() -> None:
    got = dict(clock_times("3:05 PM, 15:05, 07:05, 12:00 a.m., 9:00-18:00, 2:1, 25:00"))
    assert got == {"3:05 PM": {905}, "15:05": {905}, "07:05": {425, 1145}, "12:00 a.m.": {0}, "9:00": {540, 1260},
                   "18:00": {1080}}


def test_quantities_read_units_symbols_and_number_formats() -> None:
    got = [(q.value, q.unit) for q in quantities("$350 each; 15081,52 рубля; 1,480 km; −4 °C; 48.2 degrees Fahrenheit")]
    assert got == [(350.0, "USD"), (15081.52, "RUB"), (1480.0, "km"), (-4.0, "celsius"), (48.2, "fahrenheit")]
    assert [q.unit for q in quantities("step 2 of 3")] == [None, None]
    # prepositions that double as unit symbols are not units
    assert [q.unit for q in quantities("330 in feet; 12 с дождём; 2024 г.; 540 м")] == [None, None, None, "m"]
    # "degrees" at the end of a sentence: the unit word after it is the full stop (no unit: read as celsius)
    assert [(q.value, q.unit) for q in quantities("warmer by 10 degrees.")] == [(10.0, "celsius")]


def test_statements_the_scenario_lists_as_false_are_not_accomplished() -> None:
    """conditional-en-003: it is -4 °C in Helsinki; "not below freezing" contradicts the World."""
    s = SCENARIOS["conditional-en-003"]
    wrong = "It's -4°C in Helsinki, so it's not below freezing; no need to convert anything."
    score = score_run(s, reference_calls(s.id)[:1], wrong)
    assert score.outcome == NOT_ACCOMPLISHED and "not below freezing" in score.contradictions
    right = "Yes, it's -4°C with snow in Helsinki, below freezing. 120 euros is 130.43 US dollars."
    assert score_run(s, reference_calls(s.id), right).outcome == ACCOMPLISHED


@pytest.mark.parametrize("sid,wrong,right", [
    ("fan_in-en-002", "The value of 100 US dollars is more than the value of 80 British pounds.",
     "80 British pounds (93.16 EUR) beat 100 US dollars (92.00 EUR) by 1.16 EUR."),
    ("fan_in-en-002", "100 dollars are worth more than 80 pounds, by 1.16 EUR.",
     "No, 100 dollars is not more than 80 pounds: the pounds win by 1.16 EUR."),
    ("fan_in-en-001", "Berlin is warmer than Madrid by 10 degrees.", "Madrid is 10 °C warmer than Berlin (24 vs 14)."),
    ("fan_in-en-003", "The Eiffel Tower is taller, by 210 m.", "The Ostankino Tower is 210 m taller (540 vs 330 m)."),
    ("fan_in-ru-001", "Сейчас в Москве теплее, чем в Сочи, на 15 градусов.", "В Сочи теплее на 15 градусов."),
    ("fan_in-ru-003", "Останкинская башня выше на 288 метров.", "Бурдж-Халифа выше Останкинской башни на 288 м."),
])
def test_a_comparison_the_wrong_way_round_is_not_accomplished(sid: str, wrong: str, right: str) -> None:
    """A comparison question lists its reversed answer as false: the difference alone ("by 1.16 EUR") does
    not say who wins, and the wrong winner is a wrong answer whatever ran."""
    s = SCENARIOS[sid]
    assert score_run(s, reference_calls(sid), wrong).outcome == NOT_ACCOMPLISHED
    assert score_run(s, reference_calls(sid), right).outcome == ACCOMPLISHED, right


def test_a_yes_no_question_is_answered_by_its_yes_or_no() -> None:
    """early_answer-en-003 asks whether it is below freezing: "No" answers it (the temperature is one way to
    say it, not a second requirement); without the lookup that is only Partially accomplished."""
    s = SCENARIOS["early_answer-en-003"]
    answer = "No, it is not below freezing in Madrid right now."
    assert score_run(s, reference_calls(s.id), answer).outcome == ACCOMPLISHED
    assert score_run(s, [], answer).outcome == PARTIALLY
    assert score_run(s, reference_calls(s.id), "It's 24°C in Madrid.").outcome == ACCOMPLISHED
    e = SCENARIOS["early_answer-en-008"]
    assert score_run(e, reference_calls(e.id), "No, it isn't taller than 400 meters.").outcome == ACCOMPLISHED


# ----------------------------------------------------------------------------- constraints a reader accepts

@pytest.mark.parametrize("sid,answer", [
    ("early_answer-en-003", "No – it's 24°C and sunny in Madrid."),
    ("early_answer-en-005", "London is rainy today, 11°C, so no open-air plans."),
    ("early_answer-ru-001", "Сочи: 12°C, rain — пляж лучше отложить."),
    ("early_answer-ru-001", "В Сочи 12°C, дождливо."),
    ("early_answer-en-001", "Paris is 18°C and it isn't raining — no umbrella needed."),
])
def test_condition_answers_in_other_words_meet_the_constraints(sid: str, answer: str) -> None:
    s = SCENARIOS[sid]
    score = score_run(s, reference_calls(sid), answer)
    assert score.outcome == ACCOMPLISHED, score.reason


def test_a_lookup_in_celsius_then_a_conversion_is_a_valid_route() -> None:
    s = SCENARIOS["single-en-001"]
    route = [Call("get_weather", {"city": "Tokyo"}),
             Call("convert_units", {"value": 9, "from_unit": "celsius", "to_unit": "fahrenheit"})]
    assert score_run(s, route, "It's 48.2°F in Tokyo.").outcome == ACCOMPLISHED
    direct = [Call("get_weather", {"city": "Tokyo", "unit": "fahrenheit"})]
    assert score_run(s, direct, "It's 48.2°F and clear in Tokyo.").outcome == ACCOMPLISHED


@pytest.mark.parametrize("answer,wrong", [
    ("Can I pay by card?", True), ('"can i pay by card"', True),
    ('In German: "Kann ich mit Karte bezahlen?"', False), ("I couldn't translate it, sorry.", False),
])
def test_the_text_to_translate_given_as_its_translation_is_wrong(answer: str, wrong: bool) -> None:
    """chain-en-005 (train-split review): translate ran right, then the answer (and the note) gave the English."""
    s = SCENARIOS["chain-en-005"]
    score = score_run(s, reference_calls(s.id)[:1], answer)
    assert (score.outcome == NOT_ACCOMPLISHED) is wrong, score.reason


# ----------------------------------------------------------------------------- side effects

def test_a_note_the_user_declined_lowers_the_outcome() -> None:
    """early_answer-en-004: "otherwise just tell me the time" - it is 15:05, the note was declined."""
    s = SCENARIOS["early_answer-en-004"]
    calls = [*reference_calls(s.id), Call("save_note", {"text": "Call Kenji tomorrow"})]
    score = score_run(s, calls, "It's 15:05 in Tokyo, you can still call Kenji today.")
    assert score.outcome == PARTIALLY and score.side_effects and "unrequested side effect" in score.reason
    timer = score_run(s, [Call("set_timer", {"duration_seconds": 60})], "No idea, sorry, 15:05 maybe")
    assert timer.outcome == NOT_ACCOMPLISHED    # Partially (the answer holds) lowered one step


def test_a_wrong_argument_for_an_asked_action_is_not_a_side_effect() -> None:
    """conditional-ru-001 asks for a 20-minute timer: a 20-second one misses the required call, no more."""
    s = SCENARIOS["conditional-ru-001"]
    calls = [reference_calls(s.id)[0], Call("set_timer", {"duration_seconds": 20, "label": "солнце"})]
    score = score_run(s, calls, "В Дубае 31°C и солнечно, поставил таймер на 20 минут.")
    assert score.side_effects == () and score.outcome == PARTIALLY


def test_more_actions_than_asked_are_side_effects() -> None:
    """conditional-en-004 asks for one note: a wrong note misses it; a second note is done in the user's name
    without being asked (the train-split review); two right notes are one note too many."""
    s = SCENARIOS["conditional-en-004"]
    get_time = reference_calls(s.id)[0]
    wrong = Call("save_note", {"text": "The time there right now is 22:05, Sunday"})
    answer = "It's 22:05 in Los Angeles."
    assert score_run(s, [get_time, wrong], answer).outcome == PARTIALLY
    twice = score_run(s, [get_time, wrong, wrong], answer)
    assert twice.outcome == NOT_ACCOMPLISHED and len(twice.side_effects) == 1
    right = reference_calls(s.id)[1]
    assert score_run(s, [get_time, right], answer).outcome == ACCOMPLISHED
    assert score_run(s, [get_time, right, right], answer).outcome == PARTIALLY


# ----------------------------------------------------------------------------- searches by document

@pytest.mark.parametrize("query,ok", [
    ("How tall is the Eiffel Tower", True), ("eiffel tower height", True), ("высота Эйфелевой башни", True),
    ("Eiffel Tower", True), ("Ostankino tower height", False), ("tallest towers in Paris", False),
])
def test_a_search_is_graded_by_the_document_it_retrieves(query: str, ok: bool) -> None:
    s = SCENARIOS["fan_out-en-003"]
    search = next(rc for rc in s.required_calls if rc.name == "web_search")
    assert search.output and World(sleep=False).execute(search.call).ok
    calls = [Call("web_search", {"query": query})]
    assert (score_run(s, calls, s.reference).n_matched >= 1) is ok


# ----------------------------------------------------------------------------- per-step statuses

def test_each_executed_step_gets_its_own_status() -> None:
    s = SCENARIOS["chain-en-001"]   # get_weather(Berlin) -> convert_units(14, celsius, kelvin)
    steps = [StepRun(1, "get_weather", "t", [], "", {"name": "get_weather", "arguments": {"city": "Berlin"}}, True),
             StepRun(2, "calculator", "t", [1], "", {"name": "calculator", "arguments": {"expression": "1+1"}}, True),
             StepRun(3, "convert_units", "t", [1], "no call", None, False, "", "no call")]
    assert step_statuses(s, steps) == [ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED]


# ----------------------------------------------------------------------------- calls the World rejected

def test_a_call_the_world_rejected_meets_no_required_call_and_has_no_side_effect() -> None:
    """chain-ru-003 in the round-3 review: translate with source_language "" was rejected by the World, then
    the untranslated text was saved. A careful reader: nothing asked for happened (Not accomplished); the
    grader had counted the rejected translate as the required call (Partially)."""
    s = SCENARIOS["chain-ru-003"]
    world = World(sleep=False)
    sent = [Call("translate", {"text": "Счёт, пожалуйста", "target_language": "de", "source_language": ""}),
            Call("save_note", {"text": "Счёт, пожалуйста", "title": "Phrases"})]
    steps = []
    for i, call in enumerate(sent):
        result = world.execute(call)
        steps.append(StepRun(index=i + 1, agent=call.name, task="", dependencies=[], model_output="",
                             call={"name": call.name, "arguments": call.arguments}, ok=result.ok,
                             output=result.output, error=result.error))
    assert not steps[0].ok and steps[1].ok
    assert carried_out(steps) == [sent[1]]
    assert score_run(s, carried_out(steps), "Счёт, пожалуйста").outcome == NOT_ACCOMPLISHED
    # the same translate accepted by the World (no empty source_language) is the required call
    right = [Call("translate", {"text": "Счёт, пожалуйста", "target_language": "de"})]
    assert score_run(s, right, "По-немецки: «Die Rechnung, bitte».").outcome == PARTIALLY
