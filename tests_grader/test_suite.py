"""Suites of your own (tooluse1/suite.py): the example suite in examples/ end to end (the oracle and a degenerate
runner through pytest and the CLI, regrade / compare / report on its results, SmolLM2 on a few items), and one
clear message for each way a suite can be wrong."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooluse1.answers import AnswerRequirement, asks_about, check_answer
from tooluse1.corpus import NEGATIVE_KINDS, SPEC_VERSION
from tooluse1.grade import grade
from tooluse1.prompts import render
from tooluse1.suite import SuiteError, load_suite
from tooluse1.tools import TOOL_NAMES, TOOLS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "concierge"
EXAMPLE_ARG = "examples/concierge"          # as a user in the project directory types it


@pytest.fixture(autouse=True)
def _registry_untouched():
    """Loading a suite, or failing to, leaves the registry as it was: the built-in tools, in their order."""
    before = dict(TOOLS)
    yield
    assert tuple(TOOLS) == TOOL_NAMES and all(TOOLS[n] is t for n, t in before.items())


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "HF_HUB_OFFLINE": "1"})


def bench(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


# ----------------------------------------------------------------------------- the example suite

def test_example_suite_has_its_own_tools_and_every_expectation_kind_in_both_languages():
    suite = load_suite(EXAMPLE)
    assert suite.name == "concierge" and suite.tool_names == ("get_stock_price", "book_table")
    assert not set(suite.tool_names) & set(TOOL_NAMES)
    assert not set(suite.tool_names) & set(TOOLS)                                # the registry is left alone
    assert all(suite.toolbox[t] is tool for t, tool in zip(suite.tool_names, suite.tools))
    # Each case carries the suite's toolbox (none declares tools of its own): every stage reads it there.
    assert all(c.toolbox is suite.toolbox for c in suite.cases)
    assert all(t.simulate is None for t in suite.tools)                              # none is needed
    for lang in ("en", "ru"):
        cases = [c for c in suite.cases if c.lang == lang]
        assert {c.category for c in cases} == {"get_stock_price", "book_table", "multi_step", "negative",
                                               "clarification"}
        assert {c.kind for c in cases if c.kind} == set(NEGATIVE_KINDS)
    # `tools: all` offers the suite's tools, not the built-in ones
    assert {c.tools for c in suite.cases} == {("get_stock_price", "book_table"), ("get_stock_price",)}
    assert suite.manifest["suite"] == {"name": "concierge", "path": EXAMPLE_ARG}
    assert suite.manifest["n_cases"] == len(suite.cases) == 20


def test_suite_digest_covers_tools_and_cases(tmp_path):
    digest = load_suite(EXAMPLE).sha256
    assert load_suite(EXAMPLE).sha256 == digest                       # deterministic
    for name, old, new in (("tools.yaml", "Reserve a table at a restaurant.", "Reserve a restaurant table."),
                           ("cases/en/cases.yaml", "Hi there! How is your day going?", "Hello! How are you?")):
        changed = _copy(tmp_path / name.replace("/", "_"))
        _edit(changed / name, old, new)
        assert load_suite(changed).sha256 != digest, name


def test_a_suite_tool_is_asked_about_like_a_builtin_one(tmp_path):
    """Clarification matchers are built for the tools a case offers: the same question counts or not by each
    suite's own terms, two suites defining one tool two ways side by side."""
    suite = load_suite(EXAMPLE)
    tools = suite.toolbox
    params = tools["book_table"].param_index
    assert params["party_size"].ask_terms and not params["time"].ask_terms
    question = "Sure! How many people is the table for?"
    assert asks_about(question, ["book_table.party_size"], tools=tools) is not None
    assert asks_about(question, ["book_table.party_size"]) is None         # the registry has no book_table
    req = AnswerRequirement(ask_about=("book_table.party_size",), tools=tools)
    assert check_answer(req, question, tools=tools).ok
    failed = check_answer(req, "Sure, which restaurant?", tools=tools)
    assert not failed.ok and failed.reason == "no question about the missing number of guests"

    other = _copy(tmp_path / "other")
    _edit(other / "tools.yaml", "en: [how many, people, guests, party, persons, number of]", "en: [diners]")
    _edit(other / "cases/en/cases.yaml", "How many people is the table for?", "How many diners?")
    theirs = load_suite(other).toolbox
    # The author's terms add to those derived from the parameter's name and description ("people").
    assert asks_about("How many diners?", ["book_table.party_size"], tools=theirs) is not None
    assert asks_about("Will diners join you?", ["book_table.party_size"], tools=theirs) is not None
    assert asks_about("Will diners join you?", ["book_table.party_size"], tools=tools) is None  # not the first's
    assert asks_about(question, ["book_table.party_size"], tools=theirs) is not None
    assert asks_about("Which restaurant would you like?", ["book_table.party_size"], tools=theirs) is None


def test_two_suites_load_side_by_side_each_graded_by_its_own_tools(tmp_path):
    """One tool name defined two ways by two suites loaded in one process: each suite's cases are prompted,
    parsed and graded with their suite's definition, whichever was loaded last, and the registry holds
    the built-in tools throughout."""
    first = load_suite(EXAMPLE)
    other = _copy(tmp_path / "other")
    # book_table's `restaurant` parameter is called `venue` in the other suite, everywhere it is used.
    for name in ("tools.yaml", "cases/en/cases.yaml", "cases/ru/cases.yaml"):
        path = other / name
        text = path.read_text(encoding="utf-8")
        for was, now in (("required: [restaurant,", "required: [venue,"), ("      restaurant:", "      venue:"),
                         ("{restaurant:", "{venue:")):
            text = text.replace(was, now)
        path.write_text(text, encoding="utf-8")
    second = load_suite(other)
    assert tuple(TOOLS) == TOOL_NAMES
    assert "restaurant" in first.toolbox["book_table"].param_index
    assert "venue" in second.toolbox["book_table"].param_index
    mine = {c.id: c for c in first.cases}
    theirs = {c.id: c for c in second.cases}
    call_ids = [i for i, c in mine.items() if c.expect.call is not None and c.expect.call.name == "book_table"]
    assert call_ids
    for cid in call_ids:
        a, b = mine[cid], theirs[cid]
        assert a.toolbox is first.toolbox and b.toolbox is second.toolbox
        args = dict(a.expect.call.arguments)
        as_first = json.dumps({"name": "book_table", "arguments": args}, ensure_ascii=False)
        args["venue"] = args.pop("restaurant")
        as_second = json.dumps({"name": "book_table", "arguments": args}, ensure_ascii=False)
        for _ in range(2):       # interleaved: no state of one suite's grading leaks into the other's
            assert grade(a, as_first, "json").passed and not grade(a, as_second, "json").passed, cid
            assert grade(b, as_second, "json").passed and not grade(b, as_first, "json").passed, cid
        assert '"restaurant"' in render(a, "json").messages[0]["content"]
        assert '"venue"' in render(b, "json").messages[0]["content"]
        assert '"restaurant"' not in render(b, "json").messages[0]["content"]


def test_oracle_and_never_call_run_the_example_suite_end_to_end(tmp_path):
    """`run --suite` (a pytest session): the oracle passes every item, never-call exactly the text items;
    the results carry the suite's name and digest, and regrade, compare and report work on them."""
    oracle, never = tmp_path / "oracle.json", tmp_path / "never.json"
    proc = cli("run", "--model", "oracle", "--suite", EXAMPLE_ARG, "--results", str(oracle), "-p", "no:cacheprovider")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(oracle.read_text(encoding="utf-8"))
    suite = load_suite(EXAMPLE)
    assert doc["provenance"]["corpus"] == {"sha256": suite.sha256, "version": SPEC_VERSION, "n_cases": 20,
                                           "suite": {"name": "concierge", "path": EXAMPLE_ARG}}
    assert len(doc["records"]) == 60 and doc["summary"]["overall"]["score"]["rate"] == 1.0
    assert {r["category"] for r in doc["records"]} >= {"get_stock_price", "book_table"}

    proc = bench("--model", "never-call", "--suite", EXAMPLE_ARG, "--results", str(never))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]     # the call items fail
    score = json.loads(never.read_text(encoding="utf-8"))["summary"]["overall"]["score"]
    assert (score["k"], score["n"]) == (36, 60)                                # 12 text cases x 3 protocols

    compared = cli("compare", str(oracle), str(never))
    assert compared.returncode == 1 and "24 pass->fail" in compared.stdout, compared.stdout + compared.stderr
    report = cli("report", str(never), str(oracle), "-o", str(tmp_path / "r.html"))
    assert report.returncode == 0 and "book_table" in (tmp_path / "r.html").read_text(encoding="utf-8")

    regraded = tmp_path / "regraded.json"
    proc = cli("regrade", str(never), "--suite", EXAMPLE_ARG, "--out", str(regraded))
    assert proc.returncode == 0, proc.stderr
    new = json.loads(regraded.read_text(encoding="utf-8"))
    assert new["provenance"]["corpus"]["suite"]["name"] == "concierge"
    assert [r["passed"] for r in new["records"]] == [r["passed"] for r in json.loads(never.read_text())["records"]]


def test_regrade_finds_the_suite_again_or_says_what_to_pass(tmp_path):
    results = tmp_path / "oracle.json"
    assert bench("--model", "oracle", "--suite", EXAMPLE_ARG, "--results", str(results)).returncode == 0
    proc = cli("regrade", str(results))
    assert proc.returncode == 4
    assert f"is a run of suite 'concierge' ({EXAMPLE_ARG}): pass --suite {EXAMPLE_ARG}" in proc.stderr
    proc = cli("regrade", "results/reference/default.json", "--suite", EXAMPLE_ARG)
    assert proc.returncode == 4 and "a run of the built-in corpus, not of a suite: drop --suite" in proc.stderr

    changed = _copy(tmp_path / "changed")
    _edit(changed / "cases/en/cases.yaml", "Hi there! How is your day going?", "Hello! How are you?")
    proc = cli("regrade", str(results), "--suite", str(changed))
    assert proc.returncode == 4
    assert "its tools or cases changed" in proc.stderr and "--allow-corpus-change" in proc.stderr
    proc = cli("regrade", str(results), "--suite", str(changed), "--allow-corpus-change")
    assert proc.returncode == 0, proc.stderr


def test_small_model_runs_the_example_suite(tmp_path):
    """SmolLM2 through the transformers backend on a few items of the suite (a call, a clarification in
    Russian): whatever it answers, every item is generated, extracted and graded."""
    results = tmp_path / "r.json"
    proc = bench("--model", "smollm2", "--suite", EXAMPLE_ARG, "-k", "get_stock_price-en-001 or clarification-ru-002",
                 "--max-new-tokens", "32", "--batch-size", "4", "--threads", "1", "--results", str(results),
                 timeout=900)
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]
    doc = json.loads(results.read_text(encoding="utf-8"))
    assert doc["provenance"]["corpus"]["suite"]["name"] == "concierge"
    records = doc["records"]
    assert sorted(r["item_id"] for r in records) == sorted(
        f"{c}-{p}" for c in ("get_stock_price-en-001", "clarification-ru-002") for p in ("json", "xml", "plain"))
    for r in records:
        assert r["error"] is None and r["extraction"]["label"] in ("call", "malformed", "text")
        assert r["passed"] == r["verdict"]["passed"]


# ----------------------------------------------------------------------------- bad suites

def _copy(target: Path) -> Path:
    shutil.copytree(EXAMPLE, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _line(path: Path, fragment: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in line)


def _problems(suite: Path) -> list[str]:
    with pytest.raises(SuiteError) as e:
        load_suite(suite)
    assert tuple(TOOLS) == TOOL_NAMES                   # a suite that does not load leaves no tool behind
    return e.value.problems


def test_unknown_comparison_kind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    _edit(suite / "tools.yaml", "match: integer", "match: fuzzy")
    assert _problems(suite) == [
        f"s/tools.yaml:{_line(suite / 'tools.yaml', 'party_size:')}: book_table.party_size: unknown comparison kind "
        f"'fuzzy' (known: expression, number, integer, alias, text, keywords, boolean, array, set, object, any)"]


def test_russian_clarification_needs_the_authors_russian_terms(tmp_path, monkeypatch):
    """English terms are derived from the schema; Russian ones cannot be, so a Russian clarification case
    about a parameter without them is refused at its `missing:` line (an English one is not)."""
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    _edit(suite / "tools.yaml", "          ru: [сколько, человек, гост*, персон*]\n", "")
    line = _line(suite / "cases/ru/cases.yaml", "missing: [book_table.party_size]")
    assert _problems(suite) == [f"s/cases/ru/cases.yaml:{line}: missing: 'book_table.party_size' has no "
                                f"clarification terms in ru (the words a question asking for it uses; only English "
                                f"ones are derived from the schema): give the parameter ask: {{ru: [...]}}"]


def test_case_offering_a_tool_the_suite_lacks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    cases = suite / "cases/en/cases.yaml"
    _edit(cases, "  tools: [get_stock_price]\n  messages:\n    - {role: user, content: \"How much is one Nvidia",
          "  tools: [get_stock_price, calculator]\n  messages:\n    - {role: user, content: \"How much is one Nvidia")
    line = _line(cases, "tools: [get_stock_price, calculator]")
    assert _problems(suite) == [f"s/cases/en/cases.yaml:{line}: unknown tool 'calculator' "
                                f"(known: get_stock_price, book_table)"]


@pytest.mark.parametrize("name", ["tools.yaml", "cases/ru/cases.yaml"])
def test_broken_yaml_names_file_and_line(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    path = suite / name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if "description:" in line or "difficulty:" in line)
    lines[n] = lines[n].replace(":", ": [unclosed", 1)
    path.write_text("".join(lines), encoding="utf-8")
    (problem,) = _problems(suite)
    assert problem.startswith(f"s/{name}:") and "YAML syntax error" in problem
    assert int(problem.split(":")[1]) in (n + 1, n + 2)       # the line, or the next where the flow breaks


def test_while_a_suite_is_active_only_its_tools_resolve(tmp_path, monkeypatch):
    """A suite's tools are the only ones its cases offer: a built-in tool's name or other name is free for
    them, a built-in name resolves to nothing there, and the registry keeps the built-in tools."""
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    _edit(suite / "tools.yaml", "name_aliases: [reserve_table, book_restaurant]", "name_aliases: [calc]")
    tools = load_suite(suite).toolbox
    assert list(tools) == ["get_stock_price", "book_table"]
    assert tools.canonical_name("calc") == "book_table"
    assert tools.canonical_name("get_weather") not in tools
    assert tools.canonical_name("BookTable") == "book_table"
    assert list(TOOLS) == list(TOOL_NAMES) and TOOLS.canonical_name("calc") == "calculator"


def test_not_a_suite_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    assert _problems(tmp_path / "empty") == ["empty: not a suite folder (it needs tools.yaml or tools.json, and "
                                             "cases/; missing: empty/tools.yaml, empty/cases)"]


def test_pytest_stops_on_a_bad_suite_with_the_problem(tmp_path):
    suite = _copy(tmp_path / "s")
    _edit(suite / "tools.yaml", "match: integer", "match: fuzzy")
    proc = bench("--model", "oracle", "--suite", str(suite))
    assert proc.returncode == 4
    assert f"invalid suite {suite}:" in proc.stderr and "unknown comparison kind 'fuzzy'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_two_tools_of_one_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    suite = _copy(tmp_path / "s")
    _edit(suite / "tools.yaml", "- name: book_table", "- name: get_stock_price")
    line = _line(suite / "tools.yaml", "Reserve a table") - 1
    problems = _problems(suite)
    assert problems[0] == (f"s/tools.yaml:{line}: a tool named 'get_stock_price' is already registered; "
                           f"give each tool of the suite a name of its own")
    # In the same pass: the cases of the tool no longer declared (the first get_stock_price is registered).
    assert len(problems) > 1 and all(p.startswith("s/cases/") and "book_table" in p for p in problems[1:])


def test_suite_needs_a_model():
    proc = bench("--suite", EXAMPLE_ARG)
    assert proc.returncode == 4 and "--suite needs --model" in proc.stderr
