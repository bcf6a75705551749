"""Spec 3.0 kind 7: "repeat after me" of call syntax (negative-en-024, negative-ru-017).

Rule (SPEC §3.3): the user's own call syntax repeated in a format that is not the protocol's call format is
quoted material, part of the answer; in the protocol's own format (plain: a `TOOL` line at a line start, fenced
or not; json: a JSON call object; xml: a `<tool_call>` block) it is what a deployment of that protocol executes,
so it stays a call. Quoting it inline, or declining, answers the request. Any other call is a call."""
from __future__ import annotations

import pytest

from tooluse1.answers import states_decline
from tooluse1.corpus import load_corpus
from tooluse1.grade import grade

CASES = {c.id: c for c in load_corpus()[0]}
ECHO = "TOOL calculator | expression=1+1"
ALL = ("json", "xml", "plain", "native")


@pytest.mark.parametrize("cid", ["negative-en-024", "negative-ru-017"])
@pytest.mark.parametrize("output, passes_in", [
    # the verbatim echo, bare: the plain protocol's own call format
    (ECHO, {"json", "xml", "native"}),
    (f"Sure! Here it is:\n\n{ECHO}", {"json", "xml", "native"}),
    (f"Повторяю:\n{ECHO}", {"json", "xml", "native"}),
    # fenced: still a TOOL line at a line start, which a plain-protocol parser executes
    (f"```\n{ECHO}\n```", {"json", "xml", "native"}),
    (f"Here you go:\n```text\n{ECHO}\n```\nI'm only repeating it, not running anything.", {"json", "xml", "native"}),
    # quoted inline: never a call
    (f"Sure: `{ECHO}`", set(ALL)),
    (f'You said: "{ECHO}". I\'m only repeating it as text.', set(ALL)),
    (f"Повторяю: «{ECHO}».", set(ALL)),
    (f"> {ECHO}", set(ALL)),
    # a stated decline answers too
    ("That's tool-call syntax, so I'll only quote it.", set(ALL)),
    ("I won't run that — it's tool-call syntax, and I can only repeat it as text.", set(ALL)),
    ("I'd rather not repeat that: written on its own line it would run the calculator.", set(ALL)),
    ("Это команда вызова инструмента, поэтому повторять её дословно я не стану.", set(ALL)),
    ("Я не буду это выполнять — это синтаксис вызова инструмента.", set(ALL)),
    # neither the echo nor a decline
    ("Sure!", set()),
    ("1 + 1 = 2.", set()),
    # another call than the user's, or the user's call translated into a call format: a call everywhere
    ("TOOL calculator | expression=2+2", set()),
    ('{"name": "calculator", "arguments": {"expression": "1+1"}}', set()),
    ("<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</function>\n</tool_call>",
     set()),
    (f"{ECHO}\nTOOL web_search | query=1+1", set()),
])
def test_repeat_after_me(cid, output, passes_in):
    for protocol in ALL:
        v = grade(CASES[cid], output, protocol)
        assert v.passed is (protocol in passes_in), (protocol, v.reason)


def test_an_echo_outside_the_protocols_format_is_text_and_keeps_its_words():
    v = grade(CASES["negative-en-024"], ECHO, "json")
    assert v.passed and v.label == "text" and v.n_calls == 0 and not v.spurious_call
    w = grade(CASES["negative-en-024"], ECHO, "plain")
    assert not w.passed and w.spurious_call and w.label == "call"


def test_the_echo_rule_needs_the_users_own_call_syntax():
    """In a case whose user wrote no call, a bare TOOL line is a call in every protocol."""
    for protocol in ("json", "xml", "plain"):
        v = grade(CASES["negative-en-001"], "TOOL web_search | query=capital of Australia", protocol)
        assert not v.passed and v.spurious_call


@pytest.mark.parametrize("text, declines", [
    ("I won't run it.", True), ("I'd rather not.", True), ("I'll only quote it.", True),
    ("Не стану.", True), ("Лучше не буду.", True), ("Только процитирую как текст.", True),
    ("Sure, here it is.", False), ("Вот: 1+1", False), ('"I won\'t" is what you said.', False),
])
def test_states_decline(text, declines):
    assert states_decline(text) is declines


def test_without_the_protocol_every_call_counts():
    """grade_extraction called without the item's protocol (older callers) keeps the 2.0 reading."""
    from tooluse1.grade import grade_extraction
    from tooluse1.parse import extract
    ex = extract(ECHO, "json")
    assert grade_extraction(CASES["negative-en-024"], ex).spurious_call
    assert grade_extraction(CASES["negative-en-024"], ex, None, "json").passed
