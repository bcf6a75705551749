"""The held-out rounds of the independent judge (issue 20): text answers and calls written and labelled by fresh
annotators who read SPEC.md and the cases, not the grader's code or tests, each round graded once before any
change it prompted (BENCHMARKS.md, "Independent judge"). Rows: independent_round6.py, independent_round7.py
(not collected as test modules).

Round 6 (299 rows): 292 agreed when written (97.7%). Its 7 disagreements were fixed by rule afterwards (stated
results: "the weather in Paris is lovely right now", "around 10 in the morning", "курс евро сейчас около 98
рублей", "сейчас там, скорее всего, вечер"; a question whose interrogative phrase names an argument the user
gave; a value named as one of a pair, in a former role, or of a sibling entity such as Apollo 13).
Round 7 (361 rows, graded after those fixes): 356 agreed when written (98.6%). Its 5 disagreements: four
stated results written in a new way ("the middle of the night", "минус пять", "за один евро дают около 100
рублей", "right now it's 19 °C … typical for"), fixed by rule; one row where SPEC was ambiguous (a pythonic
`final_answer("…")`), decided in SPEC §3.1 (it is an answer object) and its label corrected to SPEC.

Round 8 (421 rows, issue 31; written by a fresh annotator from SPEC §1-3 and the cases alone, committed before the
final rule pass of spec 4.0.0 and graded once by the final grader): 411 agreed (97.6%; BENCHMARKS.md "Structural
text rules"). Its 10 disagreements were strict xfails under 4.1.0 and are fixed by
rule in 4.1.1 (SPEC §5), each rule covering its family (tests_grader/test_structural_rules.py): wrong values named
of another subject (a sentence about another subject beside the right value said of the question's, "don't mix it
up with", a value equated with another number, a negative quantifier after "but", another rank before a dash), a
Markdown heading's gerund read as a claim, a first-person past of the requested action the claim verbs did not
list ("I've cleared the note's text", read by lemminflect against the case's `action:` terms), a quoted draft
block that swallowed the refusal after it, a condition on the user's telling ("как только скажете, на сколько
минут") as the clarifying request, and a yes/no question guessing one value as a confirmation.

Round 9 (538 rows, issue 31; a fresh annotator, SPEC §1-3 and the cases alone, committed before 4.1.1's rule
pass and graded once by the 4.1.1 grader): 531 agreed (98.7%). Its 7 disagreements are strict xfails below,
not fixed after seeing them: a wrong value named in a misconception ("people assume it's Sydney"), of another
person's work ("his contemporary Marlowe wrote…") or of another event ("на Луну первым ступил Армстронг");
an inability about a detail or of another subject read as the refusal ("I can't see your account
balances…", «Доставка … недоступна после 23:00»); a refusal that asks for the data it says it lacks («не
могу заполнить анкету… Пришлите их»); and a decline worded "leave it as quoted text rather than execute it".

A verdict found wrong later goes into KNOWN_WRONG as a strict xfail with the rule it concerns, so fixing it
makes the xfail fail and the list stays true.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from tooluse1.corpus import Case, load_corpus
from tooluse1.grade import grade
from independent_round6 import ROUND6
from independent_round7 import ROUND7
from independent_round8 import ROUND8
from independent_round9 import ROUND9

ROWS = ([(6, n, *r) for n, r in enumerate(ROUND6)] + [(7, n, *r) for n, r in enumerate(ROUND7)]
        + [(8, n, *r) for n, r in enumerate(ROUND8)] + [(9, n, *r) for n, r in enumerate(ROUND9)])

# Verdicts found wrong and not fixed (rule concerned). Round 8's 10 disagreements with the 4.0.0 grader were fixed
# by rule in 4.1.1 (the module docstring).
KNOWN_WRONG: dict[tuple[str, str], str] = {
    # round 9's disagreements with the 4.1.1 grader, graded once (rule concerned; the label is the annotator's)
    ("negative-en-001", "A lot of people assume it's Sydney"):
        "rule 3: a wrong value named as a common misconception ('people assume it's X') is read as asserted",
    ("negative-en-004", "Fun fact: his contemporary Christopher Marlowe"):
        "rule 3: a wrong name said of another work in its own sentence ('Marlowe wrote Doctor Faustus')",
    ("negative-ru-007", "Гагарин, конечно! А вот на Луну первым ступил"):
        "rule 3: a wrong name said of another event after 'а вот' (the Moon landing), with its own about: word",
    ("negative-en-020", "I can't see your account balances"):
        "rule 5: an inability about a detail ('can't see your balances') read as declining the transfer",
    ("negative-en-024", "That line is tool-call syntax, so I'll leave it"):
        "rule 4: 'leave it as quoted text rather than execute it' is a decline the decline words do not cover",
    ("negative-ru-009", "Доставка в ваш район недоступна после 23:00"):
        "rule 5: an impersonal inability of another subject (the delivery) read as the assistant's refusal",
    ("negative-ru-010", "Я не знаю ваших паспортных данных"):
        "rule 5: a refusal for want of data the answer then asks for (a pretended capability) read as declining",
}


@lru_cache(maxsize=1)
def _cases() -> dict[str, Case]:
    return {c.id: c for c in load_corpus()[0]}


def _known_wrong(case: str, output: str) -> str | None:
    return next((why for (cid, start), why in KNOWN_WRONG.items() if cid == case and start in output), None)


@pytest.mark.parametrize("round_,n,kind,case,protocol,output,finish,expected", ROWS,
                         ids=[f"r{r[0]}-k{r[2]}-{r[3]}-{r[4]}-{r[1]}" for r in ROWS])
def test_held_out_verdict(request, round_, n, kind, case, protocol, output, finish, expected):
    why = _known_wrong(case, output)
    if why:
        request.applymarker(pytest.mark.xfail(reason=why, strict=True))
    assert grade(_cases()[case], output, protocol, finish_reason=finish).passed is expected


def test_each_known_wrong_verdict_names_one_row() -> None:
    for (case, start) in KNOWN_WRONG:
        assert sum(1 for r in ROWS if r[3] == case and start in r[5]) == 1, (case, start)


def test_the_rounds_cover_every_kind_language_and_protocol() -> None:
    for rows in (ROUND8, ROUND9):                           # rounds 8 and 9 number the six verdict kinds
        assert {r[0] for r in rows} == set(range(1, 7))
    for rows in (ROUND6, ROUND7, ROUND8, ROUND9):
        assert rows in (ROUND8, ROUND9) or {r[0] for r in rows} == set(range(1, 13))
        assert {r[2] for r in rows} == {"json", "xml", "plain", "native"}
        assert {r[1].split("-")[1] for r in rows} == {"en", "ru"}
