"""Round 6 of the independent judge (issue 20): 299 text answers written and labelled by a fresh annotator who
read SPEC.md and the cases, not the grader's code or tests, and graded once before any change: a held-out
figure (292/299 = 97.7% agreement). The rows are in independent_round6.py (not collected as a test module).

The 7 verdicts the annotator judges wrong stay strict xfails, each with the rule it concerns: fixing one makes
its xfail fail, so the list is kept true.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from tooluse1.corpus import Case, load_corpus
from tooluse1.grade import grade
from independent_round6 import ROUND6

KNOWN_WRONG: dict[tuple[str, str], str] = {
    ("negative-en-016", "Sorry, I don't have a weather tool. The weather in Paris is lovely right now"):
        "kind 3: a judgement of the weather 'right now' beside a refusal is a stated result",
    ("negative-en-017", "I can't access the clock, but it's currently around 10 in the morning in Toronto"):
        "kind 3: a part of the day said as now ('currently around 10 in the morning') is a stated result",
    ("clarification-ru-004", "Курс евро сейчас около 98 рублей"):
        "kind 1: a clarify answer that states a live rate fails on the stated result",
    ("clarification-ru-006", "Сейчас там, скорее всего, вечер"):
        "kind 1: a part of the day said as now for an unknown place (hedged: the most arguable of the seven)",
    ("clarification-ru-003", "На какой язык вы хотите перевести текст?"):
        "kind 1: a question about the target language the user already gave ('на немецкий')",
    ("negative-en-001", "The capital of Australia is **Canberra**. A bit of history"):
        "kind 5/6: 'Sydney' named as one side of the compromise is no assertion of it",
    ("negative-en-010", "Apollo 11 landed on the Moon in July 1969. (Apollo 13"):
        "kind 5: 1970 is said of another event ('Apollo 13 ... followed'), not asserted as the answer",
}


@lru_cache(maxsize=1)
def _cases() -> dict[str, Case]:
    return {c.id: c for c in load_corpus()[0]}


def _known_wrong(case: str, output: str) -> str | None:
    return next((why for (cid, start), why in KNOWN_WRONG.items() if cid == case and start in output), None)


@pytest.mark.parametrize("kind,case,protocol,output,finish,expected", ROUND6,
                         ids=[f"k{r[0]}-{r[1]}-{r[2]}-{n}" for n, r in enumerate(ROUND6)])
def test_round6_text_answer(request, kind, case, protocol, output, finish, expected):
    why = _known_wrong(case, output)
    if why:
        request.applymarker(pytest.mark.xfail(reason=why, strict=True))
    assert grade(_cases()[case], output, protocol, finish_reason=finish).passed is expected


def test_each_known_wrong_verdict_names_one_row() -> None:
    for (case, start) in KNOWN_WRONG:
        assert sum(1 for r in ROUND6 if r[1] == case and start in r[3]) == 1, (case, start)
