"""A suite's languages and its one validation pass (issue 32): any BCP 47 `lang`, the user-side terms picked by
the tag's primary language, the text rules reading the answer's own language, and every problem of a broken
suite reported at once at its `path:line`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tooluse1.corpus import _validate_entry
from tooluse1.grade import grade
from tooluse1.langtags import is_lang_tag, primary_language
from tooluse1.results import schema_errors
from tooluse1.suite import SuiteError, load_suite
from tooluse1.tools import TOOL_NAMES, TOOLS
from tooluse1.yamlload import Problems

ROOT = Path(__file__).resolve().parent.parent

TOOLS_YAML = """\
- name: book_table
  description: Reserve a table at a restaurant.
  parameters:
    type: object
    required: [restaurant, party_size]
    properties:
      restaurant:
        type: string
        description: The restaurant's name, exactly as the user gave it.
        example: Luigi's
      party_size:
        type: integer
        description: How many people the table is for.
        label: number of guests
        example: 2
        ask:
          en: [how many, people, guests]
          ko: [몇 분*, 몇 명*, 인원*]
"""

CASES_YAML = """\
- id: book.en-GB
  lang: en-GB
  category: book_table
  tools: all
  messages: [{role: user, content: "Book a table for two at Luigi's, please."}]
  expect: {call: {name: book_table, arguments: {restaurant: "Luigi's", party_size: 2}}}
- id: book.zh-Hans
  lang: zh-Hans
  category: book_table
  tools: all
  messages: [{role: user, content: "请在Luigi's订一张两人桌。"}]
  expect: {call: {name: book_table, arguments: {restaurant: "Luigi's", party_size: 2}}}
- id: ask.ko
  lang: ko
  category: clarification
  tools: all
  messages: [{role: user, content: "Luigi's에 테이블 예약해 주세요."}]
  expect: {clarify: true, missing: [book_table.party_size], reference: "몇 분이 오시나요?"}
- id: ask.en-GB
  lang: en-GB
  category: clarification
  tools: all
  messages: [{role: user, content: "Book me a table at Luigi's."}]
  expect: {clarify: true, missing: [book_table.party_size]}
- id: trap.ko
  lang: ko
  category: negative
  tools: all
  messages: [{role: user, content: "피자 한 판 주문해 줘."}]
  expect: {no_call: true, refusal: true, action: {en: [order*, pizza]},
           reference: "Sorry, I can't order a pizza: none of my tools can do that."}
- id: hello.pt-BR
  lang: pt-BR
  category: negative
  tools: all
  messages: [{role: user, content: "Olá! Tudo bem?"}]
  expect: {no_call: true, reference: "Olá! Tudo bem, e você?"}
"""


@pytest.fixture(autouse=True)
def _registry_untouched():
    yield
    assert tuple(TOOLS) == TOOL_NAMES          # a suite's tools live in its own toolbox


def _suite(root: Path, tools: str = TOOLS_YAML, cases: dict[str, str] | None = None,
           tools_file: str = "tools.yaml") -> Path:
    (root / "cases").mkdir(parents=True)
    (root / tools_file).write_text(tools, encoding="utf-8")
    for name, text in (cases or {"multi.yaml": CASES_YAML}).items():
        (root / "cases" / name).write_text(text, encoding="utf-8")
    return root


def _problems(root: Path) -> list[str]:
    with pytest.raises(SuiteError) as e:
        load_suite(root)
    assert tuple(TOOLS) == TOOL_NAMES
    return e.value.problems


def _line(path: Path, fragment: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in line)


# ----------------------------------------------------------------------------- tags

@pytest.mark.parametrize("tag", ["en", "ru", "en-GB", "zh-Hans", "zh-Hans-CN", "ko", "pt-BR", "es-419", "de-CH-1901",
                                 "sl-rozaj-biske", "en-US-u-ca-gregory", "en-x-internal", "EN-gb"])
def test_well_formed_tags(tag):
    assert is_lang_tag(tag)


@pytest.mark.parametrize("tag", ["pt_BR", "e", "en-", "en--GB", "123", "x-klingon", "en-GB-", "zh-Hans-CN-x", "ko kr",
                                 "", None, 12])
def test_malformed_tags(tag):
    assert not is_lang_tag(tag)


def test_the_primary_language_picks_the_terms():
    assert [primary_language(t) for t in ("en-GB", "zh-Hans-CN", "RU", "es-419")] == ["en", "zh", "ru", "es"]


def test_a_suite_takes_any_bcp47_tag_and_counts_cases_by_it(tmp_path):
    suite = load_suite(_suite(tmp_path / "s"))
    assert {c.id: c.lang for c in suite.cases} == {
        "ask.en-GB": "en-GB", "ask.ko": "ko", "book.en-GB": "en-GB", "book.zh-Hans": "zh-Hans", "hello.pt-BR": "pt-BR",
        "trap.ko": "ko"}
    assert not suite.skipped       # every reference passes: the Korean question by the parameter's ko terms
    assert suite.manifest["counts"]["lang"] == {"en-GB": 2, "ko": 2, "pt-BR": 1, "zh-Hans": 1}


@pytest.mark.parametrize("tag", ["pt_BR", "english please", 7])
def test_a_malformed_tag_is_one_problem_at_its_line(tmp_path, monkeypatch, tag):
    monkeypatch.chdir(tmp_path)
    root = _suite(tmp_path / "s", cases={"multi.yaml": CASES_YAML.replace("lang: pt-BR", f"lang: {tag}")})
    assert _problems(root) == [f"s/cases/multi.yaml:{_line(root / 'cases/multi.yaml', f'lang: {tag}')}: lang must be "
                               f"a BCP 47 language tag (en, en-GB, zh-Hans, pt-BR, es-419, ...), got {tag!r}"]


def test_the_built_in_corpus_stays_english_and_russian():
    probs = Problems()
    _validate_entry({"id": "chit_chat-ko-001", "lang": "ko", "category": "negative", "difficulty": "easy",
                     "kind": "chit_chat", "tools": "all", "messages": [{"role": "user", "content": "안녕"}],
                     "expect": {"no_call": True, "reference": "안녕하세요!"}}, "cases/x.yaml", probs)
    assert "cases/x.yaml:1: lang must be one of ('en', 'ru'), got 'ko'" in probs.items


# ----------------------------------------------------------------------------- user-side terms

def test_a_clarification_in_a_language_without_its_own_ask_terms_is_refused(tmp_path, monkeypatch):
    """A question is about a parameter only by the terms of the user's language: a `ko` case about a
    parameter with none in ko cannot be graded, and says what to add (en-GB reads en's, derived from the
    schema, so it needs nothing)."""
    monkeypatch.chdir(tmp_path)
    root = _suite(tmp_path / "s", tools=TOOLS_YAML.replace("          ko: [몇 분*, 몇 명*, 인원*]\n", ""))
    line = _line(root / "cases/multi.yaml", "reference: \"몇 분이")
    assert _problems(root) == [f"s/cases/multi.yaml:{line}: missing: 'book_table.party_size' has no clarification "
                               f"terms in ko (the words a question asking for it uses; only English ones are "
                               f"derived from the schema): give the parameter ask: {{ko: [...]}}"]


def test_ask_terms_are_keyed_by_a_language_subtag(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = _suite(tmp_path / "s", tools=TOOLS_YAML.replace("ko: [", "ko-KR: ["))
    (problem,) = _problems(root)
    assert problem.startswith(f"s/tools.yaml:{_line(root / 'tools.yaml', 'party_size:')}: ")
    assert "book_table.party_size: clarification terms under ['ko-KR']: each key is a lower-case language subtag" \
        in problem


def test_a_suites_action_terms_need_not_be_in_both_languages(tmp_path, monkeypatch):
    """The built-in corpus gives every trap's action in en and ru; a suite's may give one (the answer's
    language decides which are read), but only en and ru, the languages the refusal rules read."""
    monkeypatch.chdir(tmp_path)
    load_suite(_suite(tmp_path / "ok"))            # trap.ko: action in en only
    root = _suite(tmp_path / "s", cases={"multi.yaml": CASES_YAML.replace("action: {en: [order*, pizza]}",
                                                                          "action: {ko: [주문*]}")})
    line = _line(root / "cases/multi.yaml", "action: {ko:")
    assert _problems(root) == [f"s/cases/multi.yaml:{line}: action: unknown language(s) ['ko'] (known: en, ru: the "
                               f"languages the text rules read)"]


# ----------------------------------------------------------------------------- the answer's language

def _case(suite, cid):
    return next(c for c in suite.cases if c.id == cid)


def test_refusals_are_read_in_the_answers_language_not_the_cases(tmp_path):
    """trap.ko: the user writes Korean. An English or Russian refusal is judged by those rules; a Korean
    one cannot be read (no Korean rules): it fails, and the reason says so."""
    trap = _case(load_suite(_suite(tmp_path / "s")), "trap.ko")
    assert grade(trap, "Sorry, I can't order a pizza for you: I have no tool for that.", "json").passed
    claimed = grade(trap, "Done! I've ordered a pizza for you.", "json")
    assert not claimed.passed and claimed.reason.startswith("claims the action was done")
    korean = grade(trap, "죄송하지만 저는 피자를 주문할 수 없습니다.", "json")
    assert not korean.passed
    assert korean.reason == ("no refusal or statement of inability (refusals and questions are read in English "
                             "and Russian only; this answer is in neither)")


def test_questions_are_read_in_the_answers_language_by_the_users_terms(tmp_path):
    suite = load_suite(_suite(tmp_path / "s"))
    ko, en_gb = _case(suite, "ask.ko"), _case(suite, "ask.en-GB")
    assert grade(ko, "몇 분이 오시나요?", "json").passed                     # a Korean question, by the ko terms
    assert grade(ko, "How many people will be dining?", "json").passed      # an English one, by the en terms
    off_topic = grade(ko, "어느 레스토랑인가요?", "json")                     # asks, but not about the guests
    assert not off_topic.passed and off_topic.reason == (
        "no question about the missing number of guests (refusals and questions are read in English and Russian "
        "only; this answer is in neither)")
    assert grade(en_gb, "How many guests shall I book for?", "json").passed   # en-GB reads the en terms
    english = grade(en_gb, "Which restaurant?", "json")
    assert not english.passed and english.reason == "no question about the missing number of guests"


def test_calls_and_text_without_rules_are_graded_in_any_language(tmp_path):
    suite = load_suite(_suite(tmp_path / "s"))
    book = _case(suite, "book.zh-Hans")
    assert grade(book, '{"name": "book_table", "arguments": {"restaurant": "Luigi\'s", "party_size": 2}}',
                 "json").passed
    assert not grade(book, '{"name": "book_table", "arguments": {"restaurant": "Luigi\'s", "party_size": 3}}',
                     "json").passed
    hello = _case(suite, "hello.pt-BR")
    assert grade(hello, "Tudo ótimo, obrigado!", "json").passed and not grade(hello, "", "json").passed


def test_results_of_a_multilingual_suite_are_valid_and_broken_down_by_tag(tmp_path):
    """The oracle through pytest on the suite: the results file validates against the schema (whose `lang`
    is any tag), its summary has one group per tag, and the report shows them."""
    root = _suite(tmp_path / "s")
    out = tmp_path / "r.json"
    proc = subprocess.run([sys.executable, "-m", "tooluse1", "run", "--model", "oracle", "--suite", str(root),
                           "--protocol", "json", "--results", str(out), "-p", "no:cacheprovider"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert schema_errors(doc) == []
    assert set(doc["summary"]["by"]["lang"]) == {"en-GB", "ko", "pt-BR", "zh-Hans"}
    assert {r["lang"] for r in doc["records"]} == {"en-GB", "ko", "pt-BR", "zh-Hans"}
    html = tmp_path / "r.html"
    proc = subprocess.run([sys.executable, "-m", "tooluse1", "report", str(out), "-o", str(html)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert all(f">{tag}<" in html.read_text(encoding="utf-8") for tag in ("en-GB", "ko", "pt-BR", "zh-Hans"))


# ----------------------------------------------------------------------------- one validation pass

BAD_TOOLS_JSON = """\
[
  {"type": "function", "function": {"name": "book_table", "description": "Reserve a table.",
    "parameters": {"type": "object", "required": ["restaurant", "party_size"], "properties": {
      "restaurant": {"type": "string", "description": "The restaurant."},
      "party_size": {"type": "integer", "description": "How many people."}}}}},
  {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city.",
    "parameters": {"type": "object", "properties": {
      "city": {"type": "strnig", "description": "The city."}}}}}
]
"""

BAD_CASES_A = """\
- id: a.1
  lang: en_GB
  category: book_table
  tools: [book_table]
  messages: [{role: user, content: "Book a table for two at Luigi's."}]
  expect: {call: {name: book_table, arguments: {restaurant: "Luigi's", party_size: 2}}}
- id: a.2
  lang: en
  category: book_table
  tools: [book_table]
  messages: [{role: user, content: "Book a table for two at Luigi's."}]
  expect: {call: {name: book_table, arguments: {restaurant: "Luigi's", party_size: "two"}}}
"""

BAD_CASES_B = """\
- id: a.1
  lang: en
  category: negative
  tools: [book_table]
  messages: [{role: user, content: "Hi!"}]
  expect: {no_call: true}
- id: b.2
  lang: en
  category: negative
  tools: [book_table, send_email]
  messages: [{role: user, content: "Email Bob."}]
  expect: {no_call: true, refusal: true}
- id: b.3
  lang: en
  category: negative
  tools: [get_weather]
  messages: [{role: user, content: "Is it sunny?"}]
  expect: {no_call: true}
"""


def test_every_problem_of_a_suite_in_one_pass_at_its_line(tmp_path, monkeypatch):
    """A tools file with a bad parameter type and two case files with a malformed tag, an argument of the
    wrong type, a duplicate id and an unknown tool: one SuiteError names all five, each at its file and
    line (the case offering the broken tool is checked once that tool loads)."""
    monkeypatch.chdir(tmp_path)
    root = _suite(tmp_path / "s", tools=BAD_TOOLS_JSON, tools_file="tools.json",
                  cases={"a.yaml": BAD_CASES_A, "b.yaml": BAD_CASES_B})
    a, b = root / "cases/a.yaml", root / "cases/b.yaml"
    city, two = _line(root / "tools.json", '"city"'), _line(a, 'party_size: "two"')
    assert _problems(root) == [
        f"s/tools.json:{city}: get_weather.city: unknown type 'strnig' (known: any, array, boolean, integer, number, "
        f"object, string, or BFCL's dict, float, tuple, list, int, str, bool, double, long)",
        f"s/cases/a.yaml:{_line(a, 'lang: en_GB')}: lang must be a BCP 47 language tag (en, en-GB, zh-Hans, pt-BR, "
        f"es-419, ...), got 'en_GB'",
        f"s/cases/a.yaml:{two}: book_table.party_size: wrong type, expected an integer, got 'two'",
        # the first a.1 is invalid itself: ids are unique whether or not their cases are valid
        f"s/cases/b.yaml:{_line(b, 'id: a.1')}: duplicate id 'a.1' (first defined at s/cases/a.yaml:1)",
        f"s/cases/b.yaml:{_line(b, 'tools: [book_table, send_email]')}: unknown tool 'send_email' (known: book_table)",
    ]
