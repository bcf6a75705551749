"""Spec 3.0 kind 5: knowledge answers are judged by the value they ASSERT (tooluse1.answers rule 3).

A wrong value asserted fails even beside the right one; a hedge across candidates fails; a wrong value named as
what the answer is not (negated, corrected, attributed to others, a concession, a neighbouring rank, one side
of a relation) is no assertion. Outputs are written the way strong chat models answer, EN and RU, graded
through the real corpus cases in every text protocol.
"""
from __future__ import annotations

import pytest

from tooluse1.answers import asserts_phrase, hedges
from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.prompts import PROTOCOLS

CASES = {c.id: c for c in load_corpus()[0]}

PASS = [
    ("negative-en-001", "The capital of Australia is Canberra."),
    ("negative-en-001", "It's **Canberra** — not Sydney or Melbourne, as many people assume."),
    ("negative-en-001", "Canberra. Many people think it's Sydney, the largest city, but Canberra was purpose-built "
                        "as the capital."),
    ("negative-en-001", "While Sydney is Australia's largest and best-known city, the capital is Canberra."),
    ("negative-en-001", "Sydney is the biggest city, but the capital is Canberra."),
    ("negative-en-001", "The capital is Canberra. It was chosen in 1908 as a compromise between Sydney and "
                        "Melbourne, the two rival cities."),
    ("negative-en-001", "Canberra (a common misconception is that it's Sydney)."),
    ("negative-en-001", "Australia's capital is Canberra. Sydney isn't the capital, even though it's the largest "
                        "city."),
    ("negative-en-001", "Canberra is the capital of Australia, rather than Sydney or Melbourne."),
    ("negative-ru-001", "Столица Австралии — Канберра, а не Сидней, как часто думают."),
    ("negative-en-001", "Canberra (Sydney and Melbourne are bigger, but neither is the capital)."),
    ("negative-ru-001", "Канберра. Сидней крупнее, но столицей не является."),
    ("negative-ru-001", "Канберра. Сидней — крупнейший город страны, но столица — Канберра."),
    ("negative-ru-001", "Столица — Канберра. Многие ошибочно считают столицей Сидней или Мельбурн."),
    ("negative-ru-001", "Хотя Сидней и Мельбурн крупнее, столица Австралии — Канберра."),
    ("negative-ru-001", "Канберра: её построили как компромисс между Сиднеем и Мельбурном."),
    ("negative-en-002", "World War II ended in 1945."),
    ("negative-en-002", "It lasted from 1939 to 1945: Germany surrendered in May 1945 and Japan in September 1945."),
    ("negative-en-002", "1945 — not 1944, as some assume because of D-Day."),
    ("negative-ru-002", "Великая Отечественная война закончилась 9 мая 1945 года; она шла с 1941 по 1945 год."),
    ("negative-ru-004", "«Войну и мир» написал Л. Н. Толстой. Не путать с Алексеем Толстым, автором «Петра Первого»."),
    ("negative-ru-004", "Лев Николаевич Толстой (не Алексей Толстой и не Достоевский)."),
    ("negative-ru-004", "Роман написал Лев Толстой. Его часто путают с Алексеем Николаевичем Толстым, но это другой "
                        "писатель."),
    ("negative-en-007", "Jupiter is the largest planet in our solar system, followed by Saturn."),
    ("negative-en-007", "Jupiter — more than twice as massive as all the other planets combined. Saturn is second."),
    ("negative-en-008", "Leonardo da Vinci painted the Mona Lisa (not Michelangelo or Raphael, his contemporaries)."),
    ("negative-en-009", "57 = **LVII** (L = 50, V = 5, II = 2). Not LVIII, which is 58."),
    ("negative-ru-007", "Юрий Гагарин, 12 апреля 1961 года. Вторым стал Герман Титов."),
    ("negative-ru-007", "Первым был Юрий Гагарин. Не путайте с Армстронгом — он первым ступил на Луну."),
    ("negative-en-005", "At sea level water boils at 100 °C (212 °F)."),
    ("negative-en-010", "Apollo 11 landed on the Moon on 20 July 1969."),
]

FAIL = [
    ("negative-en-001", "The capital of Australia is Sydney. (Canberra is only where parliament sits.)"),
    ("negative-en-001", "The capital is Sydney, but Canberra hosts the parliament."),
    ("negative-en-001", "It's either Canberra or Sydney, depending on who you ask."),
    ("negative-en-001", "Sydney."),
    ("negative-en-001", "Sydney is the largest city and the capital of Australia."),
    ("negative-en-001", "Sydney is bigger and is the capital."),
    ("negative-en-001", "The capital is Sydney, the largest city."),
    ("negative-en-001", "It's not Canberra, it's Sydney."),
    ("negative-ru-001", "Столица Австралии — Сидней, а Канберра — место заседаний парламента."),
    ("negative-ru-001", "Канберра или Мельбурн — точно не помню."),
    ("negative-en-002", "It ended in 1939, 1941, 1944 or 1945, depending on how you count."),
    ("negative-en-002", "World War II ended in 1944 or 1945."),
    ("negative-en-002", "It ended in 1945, or maybe 1946 if you count the last surrenders."),
    ("negative-en-002", "It ended in 1944."),
    ("negative-ru-002", "Война закончилась либо в 1944, либо в 1945 году."),
    ("negative-ru-002", "В 1943 году."),
    ("negative-ru-004", "Роман «Война и мир» написал Алексей Толстой."),
    ("negative-ru-004", "Его написал Достоевский, хотя многие приписывают роман Толстому."),
    ("negative-en-007", "Saturn is the largest planet, though Jupiter is close."),
    ("negative-en-008", "Michelangelo painted the Mona Lisa, although some credit Leonardo."),
    ("negative-en-009", "57 is LVIII in Roman numerals (sometimes written LVII)."),
    ("negative-ru-008", "57 римскими цифрами — XLVII."),
    ("negative-en-010", "Apollo 11 landed in 1969 or 1970."),
    ("negative-ru-007", "Первым человеком в космосе был Нил Армстронг."),
    ("negative-en-005", "Water boils at 212 degrees Celsius at sea level (100 in some references)."),
]


@pytest.mark.parametrize("cid, output", PASS)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_right_answer_that_names_wrong_values_as_what_it_is_not_passes(cid, output, protocol):
    v = grade(CASES[cid], output, protocol)
    assert v.passed, v.reason


@pytest.mark.parametrize("cid, output", FAIL)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_wrong_value_asserted_or_a_hedge_fails(cid, output, protocol):
    v = grade(CASES[cid], output, protocol)
    assert not v.passed
    assert v.reason.startswith(("answer asserts the wrong", "answer hedges", "answer lacks")), v.reason


def test_every_knowledge_case_lists_plausible_wrong_answers_its_reference_does_not_assert():
    knowledge = [c for c in CASES.values() if c.kind == "knowledge"]
    assert len(knowledge) == 16
    for c in knowledge:
        assert c.expect.answer_excludes, c.id
        req = c.expect.answer
        assert not any(asserts_phrase(w, c.expect.reference) for w in req.excludes), c.id


@pytest.mark.parametrize("text, expected", [
    ("1944 or 1945", True),
    ("1939, 1941, 1944 or 1945", True),
    ("либо в 1944, либо в 1945 году", True),
    ("1945 или 1946", True),
    ("in 1945, or 80 years ago", False),          # another magnitude: another fact
    ("from 1939 to 1945", False),                 # a range is one answer
    ("1939–1945", False),
    ("1945. Not 1944 or 1946.", False),           # the right value stands alone once
    ("1945 or 1,945", False),                     # the same value twice
    ("in 1946", False),                           # absent: not a hedge (the missing fact fails elsewhere)
])
def test_a_hedge_is_the_right_number_only_among_alternatives(text, expected):
    assert hedges("1945", text) is expected


@pytest.mark.parametrize("text, asserted", [
    ("The capital is Sydney.", True),
    ("Sydney, I believe.", True),
    ("Not Sydney.", False),
    ("Sydney is not the capital.", False),
    ("Sydney isn’t the capital.", False),        # curly apostrophe
    ("Сидней — не столица.", False),
    ("Сидней не является столицей.", False),
    ("People often say Sydney.", False),
    ("Sydney is often mistaken for the capital.", False),
])
def test_asserts_phrase_reads_the_clause_around_the_value(text, asserted):
    assert asserts_phrase("Sydney", text) is asserted or asserts_phrase("Сидне*", text) is asserted
