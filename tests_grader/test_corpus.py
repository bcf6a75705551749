"""The corpus (tooluse1.corpus): counts from the spec, near-duplicates, reproducible builds, freshness,
and the `path:line: message` errors for broken cases (library and CLI)."""
from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from corpus_contract import N_CALL_CASES, N_CASES, N_CASES_BY_LANG

from tooluse1.corpus import (CALL_CATEGORIES, CASES_DIR, DATA_DIR, JSONL_NAME, MANIFEST_NAME, NEGATIVE_KINDS,
                             ROOT, Case, CorpusError, StaleCorpusError, check_fresh, load_cases, load_corpus)
from tooluse1.build import build
from tooluse1.aliases import norm_text
from tooluse1.tools import TOOL_NAMES, TOOLS


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_corpus()[0]


# ----------------------------------------------------------------------------- counts (SPEC §1 and the issue)

def test_split_counts_follow_the_contract(cases):
    """SPEC §1's split: 114 English and 74 Russian cases (the table in corpus_contract), and in Russian at
    least three cases of every call category, 18 negatives and 5 clarifications."""
    assert Counter(c.lang for c in cases) == N_CASES_BY_LANG
    assert sum(c.expectation == "call" for c in cases) == N_CALL_CASES
    per_cat = Counter(c.category for c in cases if c.lang == "ru")
    for cat in CALL_CATEGORIES:
        assert per_cat[cat] >= 3, cat
    assert per_cat["negative"] >= 18 and per_cat["clarification"] >= 5


def test_negative_kinds_and_offered_tools(cases):
    negatives = [c for c in cases if c.category == "negative"]
    assert {c.kind for c in negatives} == set(NEGATIVE_KINDS)
    assert all(c.kind is None for c in cases if c.category != "negative")
    full = sum(set(c.tools) == set(TOOL_NAMES) for c in cases)
    assert full > len(cases) / 2, f"only {full} of {len(cases)} cases offer all nine tools"


def test_manifest_counts_match_the_cases(cases):
    _, manifest = load_corpus()
    assert manifest["n_cases"] == len(cases)
    assert manifest["counts"]["lang"] == dict(Counter(c.lang for c in cases))
    assert manifest["counts"]["category"] == dict(sorted(Counter(c.category for c in cases).items()))


def test_every_expected_tool_is_offered_and_ids_are_well_formed(cases):
    for c in cases:
        assert re.fullmatch(rf"{c.category}-{c.lang}-\d{{3}}", c.id), c.id
        if c.expect.call is not None:
            assert c.expect.call.name in c.tools and c.expect.call.name in TOOLS
        else:
            assert c.expect.reference


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"\w+", norm_text(text)))


def test_no_near_duplicate_user_utterances(cases):
    last = {c.id: _tokens(c.messages[-1]["content"]) for c in cases}
    worst = (0.0, "", "")
    for a, b in itertools.combinations(cases, 2):
        ta, tb = last[a.id], last[b.id]
        j = len(ta & tb) / len(ta | tb) if ta | tb else 1.0
        worst = max(worst, (j, a.id, b.id))
        assert j < 0.8, (f"near-duplicate utterances (token Jaccard {j:.2f}): {a.id} {a.messages[-1]['content']!r} "
                         f"~ {b.id} {b.messages[-1]['content']!r}")
    print(f"most similar pair: {worst[1]} ~ {worst[2]} (Jaccard {worst[0]:.2f})")


def test_jsonl_round_trip(cases):
    for c in cases:
        again = Case.from_dict(c.as_dict())
        assert again == c


# ----------------------------------------------------------------------------- build reproducibility, freshness

def test_build_is_byte_reproducible_and_equals_the_committed_data(tmp_path):
    m1 = build(CASES_DIR, tmp_path / "one")
    m2 = build(CASES_DIR, tmp_path / "two")
    assert m1 == m2
    for name in (JSONL_NAME, MANIFEST_NAME):
        one, two = (tmp_path / "one" / name).read_bytes(), (tmp_path / "two" / name).read_bytes()
        assert one == two
        assert one == (DATA_DIR / name).read_bytes(), f"data/{name} differs from a fresh build of cases/"


def test_check_fresh_passes_on_the_repository():
    check_fresh()


@pytest.fixture()
def repo_copy(tmp_path) -> Path:
    shutil.copytree(CASES_DIR, tmp_path / "cases")
    shutil.copytree(DATA_DIR, tmp_path / "data")
    return tmp_path


def test_check_fresh_detects_an_edited_case(repo_copy):
    check_fresh(repo_copy / "cases", repo_copy / "data")          # the copy starts fresh
    path = repo_copy / "cases" / "en" / "get_weather.yaml"
    text = path.read_text(encoding="utf-8")
    assert "What's the weather in Tokyo right now?" in text
    path.write_text(text.replace("What's the weather in Tokyo right now?", "Weather in Tokyo now?"), encoding="utf-8")
    with pytest.raises(StaleCorpusError, match="python -m tooluse1 build"):
        check_fresh(repo_copy / "cases", repo_copy / "data")
    build(repo_copy / "cases", repo_copy / "data")
    check_fresh(repo_copy / "cases", repo_copy / "data")


def test_check_fresh_detects_a_missing_or_hand_edited_data_file(repo_copy):
    (repo_copy / "data" / MANIFEST_NAME).unlink()
    with pytest.raises(StaleCorpusError):
        check_fresh(repo_copy / "cases", repo_copy / "data")
    with pytest.raises(StaleCorpusError):
        load_corpus(repo_copy / "data")


def test_load_corpus_verifies_the_digest(repo_copy):
    jsonl = repo_copy / "data" / JSONL_NAME
    jsonl.write_bytes(jsonl.read_bytes().replace(b"Canberra", b"Sydney", 1))
    with pytest.raises(StaleCorpusError, match="digest"):
        load_corpus(repo_copy / "data")


# ----------------------------------------------------------------------------- broken cases: path:line: message

def case_yaml(**over: str) -> str:
    """One call case as YAML text; keyword arguments replace whole lines by key."""
    lines = {
        "id": "- id: calculator-en-001",
        "lang": "  lang: en",
        "category": "  category: calculator",
        "difficulty": "  difficulty: easy",
        "tools": "  tools: all",
        "messages": "  messages:\n    - {role: user, content: \"What is 1 plus 1?\"}",
        "expect": "  expect:\n    call: {name: calculator, arguments: {expression: \"1+1\"}}",
    }
    lines.update(over)
    return "\n".join(lines.values()) + "\n"


GOOD = case_yaml()


def text_case_yaml(category: str, kind: str | None, expect: str) -> str:
    """A no-call or clarify case as YAML text with the given expect block (lines after `expect:`)."""
    head = {"id": f"- id: {category}-en-001", "category": f"  category: {category}"}
    if kind:
        head["difficulty"] = f"  difficulty: easy\n  kind: {kind}"
    return case_yaml(**head, expect="  expect:\n" + expect)

# The terms of a knowledge case's subject and of a capability trap's requested action (required there).
ABOUT = "    about: {en: [capital, Australia*], ru: [столиц*, Австрали*]}\n"
ACTION = "    action: {en: [order*, pizza], ru: [заказ*, пицц*]}\n"
FACT = "    no_call: true\n    answer_contains_any: [Canberra]\n"

BROKEN = {
    "yaml-syntax": (
        case_yaml(messages="  messages:\n    - {role: user, content: \"What is 1 plus 1?\""),
        "cases/a.yaml:8: YAML syntax error: expected ',' or '}', but got '<scalar>'"),
    "unknown-tool-offered": (
        case_yaml(tools="  tools: [calculator, teleport]"),
        "cases/a.yaml:5: unknown tool 'teleport' (known: " + ", ".join(TOOL_NAMES) + ")"),
    "unknown-tool-expected": (
        case_yaml(expect="  expect:\n    call: {name: teleport, arguments: {to: Mars}}"),
        "cases/a.yaml:8: unknown tool 'teleport'"),
    "missing-required-argument": (
        case_yaml(**{"id": "- id: get_weather-en-001", "category": "  category: get_weather",
                     "expect": "  expect:\n    call: {name: get_weather, arguments: {unit: celsius}}"}),
        "cases/a.yaml:9: get_weather: missing required argument 'city'"),
    "wrong-type": (
        case_yaml(**{"id": "- id: set_timer-en-001", "category": "  category: set_timer",
                     "expect": "  expect:\n    call: {name: set_timer, arguments: {duration_seconds: \"five\"}}"}),
        "cases/a.yaml:9: set_timer.duration_seconds: wrong type, expected an integer, got 'five'"),
    "number-given-as-string": (
        case_yaml(**{"id": "- id: convert_units-en-001", "category": "  category: convert_units",
                     "expect": "  expect:\n    call: {name: convert_units, arguments: "
                               "{value: \"5\", from_unit: km, to_unit: mi}}"}),
        "cases/a.yaml:9: convert_units.value: wrong type, expected a number, got '5'"),
    "malformed-history": (
        case_yaml(messages="  messages:\n    - {role: user, content: \"hi\"}\n"
                           "    - {role: tool, name: calculator, content: \"2\"}\n"
                           "    - {role: user, content: \"again\"}"),
        "cases/a.yaml:8: malformed history: tool result 2 does not follow an assistant tool_call"),
    "history-result-of-other-tool": (
        case_yaml(messages="  messages:\n    - {role: user, content: \"hi\"}\n"
                           "    - {role: assistant, tool_call: {name: calculator, arguments: {expression: \"1+1\"}}}\n"
                           "    - {role: tool, name: get_time, content: \"2\"}\n"
                           "    - {role: user, content: \"again\"}"),
        "cases/a.yaml:9: malformed history: tool result named 'get_time' answers a call of 'calculator'"),
    "non-canonical-alias": (
        case_yaml(**{"id": "- id: get_weather-en-001", "category": "  category: get_weather",
                     "expect": "  expect:\n    call: {name: get_weather, arguments: {city: \"СПб\"}}"}),
        "cases/a.yaml:9: get_weather.city: 'СПб' is not a canonical city (did you mean 'Saint Petersburg'?)"),
    "non-canonical-currency": (
        case_yaml(**{"id": "- id: convert_currency-en-001", "category": "  category: convert_currency",
                     "expect": "  expect:\n    call: {name: convert_currency, arguments: "
                               "{amount: 5, from_currency: \"$\", to_currency: EUR}}"}),
        "cases/a.yaml:9: convert_currency.from_currency: '$' is not a canonical currency (did you mean 'USD'?)"),
    "knowledge-without-the-fact": (
        text_case_yaml("negative", "knowledge", "    no_call: true\n" + ABOUT + "    reference: \"Canberra.\""),
        "cases/a.yaml:9: knowledge cases need answer_contains_all or answer_contains_any (the answer asked for)"),
    "capability-trap-without-refusal-or-facts": (
        text_case_yaml("negative", "capability_trap", "    no_call: true\n" + ACTION + "    reference: \"I cannot.\""),
        "cases/a.yaml:9: capability_trap cases need refusal: true, or the facts of an answer the model can give "
        "without the missing tool"),
    "refusal-outside-capability-traps": (
        text_case_yaml("negative", "chit_chat", "    no_call: true\n    refusal: true\n    reference: \"Hi!\""),
        "cases/a.yaml:11: refusal: true is only for capability_trap cases"),
    "clarify-without-missing": (
        text_case_yaml("clarification", None, "    clarify: true\n    reference: \"Which city?\""),
        "cases/a.yaml:8: clarify cases need missing: [tool.param, ...] (the required arguments the user left out)"),
    "clarify-missing-an-optional-argument": (
        text_case_yaml("clarification", None,
                       "    clarify: true\n    missing: [get_weather.unit]\n    reference: \"Which unit?\""),
        "cases/a.yaml:10: missing: 'get_weather.unit' is not a required argument of a tool (write tool.param, e.g. "
        "get_weather.city)"),
    "clarify-with-1x-phrasings": (
        text_case_yaml("clarification", None, "    clarify: true\n    missing: [get_weather.city]\n"
                                             "    answer_contains_any: [city]\n    reference: \"Which city?\""),
        "cases/a.yaml:8: unknown expect fields ['answer_contains_any'] for a clarify case (known: missing, "
        "reference)"),
    "alternatives-that-are-not-strings": (
        text_case_yaml("negative", "knowledge", "    no_call: true\n    answer_contains_all: [[Canberra, {x: 1}]]\n"
                                                + ABOUT + "    reference: \"Canberra.\""),
        "cases/a.yaml:11: answer_contains_all must be a list whose items are strings or lists of alternative "
        "strings"),
    "knowledge-without-about": (
        text_case_yaml("negative", "knowledge", FACT + "    reference: \"Canberra.\""),
        "cases/a.yaml:9: knowledge cases need about: {en: [terms], ru: [terms]} (what the question asks about)"),
    "capability-trap-without-action": (
        text_case_yaml("negative", "capability_trap", "    no_call: true\n    refusal: true\n    reference: \"No.\""),
        "cases/a.yaml:9: capability_trap cases need action: {en: [terms], ru: [terms]} (the requested action: its "
        "verbs and objects)"),
    "action-outside-capability-traps": (
        text_case_yaml("negative", "knowledge", FACT + ABOUT + ACTION + "    reference: \"Canberra.\""),
        "cases/a.yaml:13: action: is only for capability_trap cases"),
    "about-as-a-plain-list": (
        text_case_yaml("negative", "knowledge", FACT + "    about: [capital]\n    reference: \"Canberra.\""),
        "cases/a.yaml:12: about must map each language to a list of terms (what the question asks about), e.g. "
        "{en: [order*, pizza], ru: [заказ*]}"),
    "about-without-russian-terms": (
        text_case_yaml("negative", "knowledge", FACT + "    about: {en: [capital]}\n    reference: \"Canberra.\""),
        "cases/a.yaml:12: about needs terms in ru (what the question asks about)"),
    "action-term-with-an-inner-star": (
        text_case_yaml("negative", "capability_trap",
                       "    no_call: true\n    refusal: true\n    action: {en: [or*der], ru: [заказ*]}\n"
                       "    reference: \"No.\""),
        "cases/a.yaml:12: action.en: 'or*der' is not a term (words separated by single spaces, `*` only at a word's "
        "end, `A ... B` for A then B later)"),
    "unevaluable-expression": (
        case_yaml(expect="  expect:\n    call: {name: calculator, arguments: {expression: \"__import__('os')\"}}"),
        "cases/a.yaml:9: calculator.expression: \"__import__('os')\" is not an evaluable arithmetic expression"),
}


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch) -> Path:
    """Work in tmp_path so problems are reported with the relative path cases/a.yaml."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    return tmp_path


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_case_is_reported_with_path_line_and_message(in_tmp, name):
    text, expected = BROKEN[name]
    (in_tmp / "cases" / "a.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_cases(in_tmp / "cases")
    assert err.value.problems == [expected]


REFERENCE_FAILS = textwrap.dedent("""\
    - id: negative-en-001
      lang: en
      category: negative
      difficulty: easy
      kind: knowledge
      tools: all
      messages:
        - {role: user, content: "What's the capital of Australia?"}
      expect:
        no_call: true
        answer_contains_any: ["Canberra"]
        about: {en: [capital, Australia*], ru: [столиц*, Австрали*]}
        reference: "It is Sydney."
    """)


def test_a_reference_that_fails_its_own_grader_stops_the_build_and_writes_nothing(in_tmp):
    (in_tmp / "cases" / "a.yaml").write_text(REFERENCE_FAILS, encoding="utf-8")
    assert [c.id for c in load_cases(in_tmp / "cases")] == ["negative-en-001"]   # the schema is fine
    with pytest.raises(CorpusError) as err:
        build(in_tmp / "cases", in_tmp / "out")
    assert err.value.problems == ["cases/a.yaml:1: the case's own reference fails its grader (json): "
                                  "answer lacks 'Canberra'"]
    assert not (in_tmp / "out").exists()


def test_the_template_case_itself_is_valid(in_tmp):
    (in_tmp / "cases" / "a.yaml").write_text(GOOD, encoding="utf-8")
    assert [c.id for c in load_cases(in_tmp / "cases")] == ["calculator-en-001"]


def test_duplicate_id_names_both_places(in_tmp):
    (in_tmp / "cases" / "a.yaml").write_text(GOOD, encoding="utf-8")
    (in_tmp / "cases" / "b.yaml").write_text("# the same case again\n" + GOOD, encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_cases(in_tmp / "cases")
    assert err.value.problems == ["cases/b.yaml:2: duplicate id 'calculator-en-001' (first defined at cases/a.yaml:1)"]


def test_every_problem_of_every_file_is_reported_at_once(in_tmp):
    names = ["malformed-history", "non-canonical-alias", "yaml-syntax"]
    for i, name in enumerate(names):
        (in_tmp / "cases" / f"{i}.yaml").write_text(BROKEN[name][0], encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_cases(in_tmp / "cases")
    expected = [BROKEN[n][1].replace("cases/a.yaml", f"cases/{i}.yaml") for i, n in enumerate(names)]
    assert err.value.problems == expected
    assert str(err.value) == "\n".join(expected)


def test_empty_case_folder_is_an_error(in_tmp):
    with pytest.raises(CorpusError, match="no \\*.yaml case files"):
        load_cases(in_tmp / "cases")


# ----------------------------------------------------------------------------- the CLI

def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


@pytest.mark.parametrize("name", ["malformed-history", "yaml-syntax", "non-canonical-alias"])
def test_cli_build_on_broken_cases_exits_1_with_path_line_and_no_traceback(in_tmp, name):
    text, expected = BROKEN[name]
    (in_tmp / "cases" / "a.yaml").write_text(text, encoding="utf-8")
    r = run_cli("build", "--cases", "cases", "--data", "out", cwd=in_tmp)
    assert r.returncode == 1
    assert expected in r.stderr.splitlines()
    assert "Traceback" not in r.stderr + r.stdout
    assert "build failed: 1 problem(s)" in r.stderr
    assert not (in_tmp / "out").exists()


def test_cli_build_into_another_folder_matches_the_committed_data(tmp_path):
    r = run_cli("build", "--cases", str(CASES_DIR), "--data", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"{N_CASES} cases" in r.stdout
    for name in (JSONL_NAME, MANIFEST_NAME):
        assert (tmp_path / "out" / name).read_bytes() == (DATA_DIR / name).read_bytes()


def test_cli_build_with_a_missing_cases_folder(tmp_path):
    r = run_cli("build", "--cases", str(tmp_path / "nope"), "--data", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 1 and "nope" in r.stderr and "Traceback" not in r.stderr
