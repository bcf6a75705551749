"""`python -m tooluse1 import FORMAT SOURCE -o DIR` (issue 32, item 4) on small fixtures written for these tests
in each source's format (tests_grader/fixtures/imports/): counts, names as written, and grading of the
imported cases by the sources' own answers."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tooluse1.grade import grade
from tooluse1.importers import ImportError_, import_items
from tooluse1.suite import load_suite
from tooluse1.tools import TOOL_NAMES, TOOLS

FIX = Path(__file__).parent / "fixtures" / "imports"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _registry_untouched():
    yield
    assert tuple(TOOLS) == TOOL_NAMES          # an imported suite's tools live in its cases' toolboxes


def _imported(tmp_path: Path, fmt: str, source: str):
    report = import_items(fmt, FIX / source, tmp_path / "suite")
    return report, {c.id: c for c in load_suite(tmp_path / "suite").cases}


def test_bfcl_simple_becomes_call_cases_with_one_of(tmp_path: Path) -> None:
    report, cases = _imported(tmp_path, "bfcl", "bfcl/BFCL_v3_simple.json")
    assert report.written == {"call": 3} and not report.left_out
    area, convert, food = cases["simple_0"], cases["simple_1"], cases["simple_2"]
    assert convert.category == "units.convert" and food.tools == ("Restaurants_2_FindRestaurants",)
    call = '{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}'
    assert grade(area, call, "json").passed                                    # unit: ["units", ""] may be left out
    assert grade(area, call.replace("5}", '5, "unit": "units"}'), "json").passed
    assert not grade(area, call.replace("5}", '5, "unit": "cm"}'), "json").passed
    for unit, ok in (("kilograms", True), ("kg", True), ("grams", False)):
        reply = (f'{{"name": "units.convert", "arguments": {{"value": "3.5", "from_unit": "{unit}", '
                 f'"to_unit": "lbs", "round": true}}}}')
        assert grade(convert, reply, "json").passed == ok, unit
    assert grade(convert, "TOOL units.convert | value=3.5 | from_unit=kg | to_unit=pounds | round=true", "plain").passed
    assert grade(food, '{"name": "Restaurants_2_FindRestaurants", "arguments": {"category": "italian", '
                       '"location": "Berkeley"}}', "json").passed


def test_bfcl_irrelevance_is_no_call_with_any_answer(tmp_path: Path) -> None:
    report, cases = _imported(tmp_path, "bfcl", "bfcl/BFCL_v3_irrelevance.json")
    (case,) = cases.values()
    assert report.written == {"no_call": 1} and case.kind == "chit_chat"
    assert "You are a concise assistant." in case.messages[0]["content"]      # the source's system text kept
    assert grade(case, "Jane Austen wrote it.", "json").passed
    assert not grade(case, '{"name": "calculate_triangle_area", "arguments": {"base": 1, "height": 2}}', "json").passed


def test_bfcl_parallel_is_refused_with_one_line(tmp_path: Path) -> None:
    with pytest.raises(ImportError_) as err:
        import_items("bfcl", FIX / "bfcl/BFCL_v3_parallel.json", tmp_path / "suite")
    assert len(str(err.value).splitlines()) == 1 and "exactly one call per case" in str(err.value)
    assert not (tmp_path / "suite").exists()


def test_when2call_items_and_their_candidates(tmp_path: Path) -> None:
    """Each label becomes its case kind, and of each item's four candidate answers exactly the labelled one
    passes (the dotted tool name stays as written)."""
    report, cases = _imported(tmp_path, "when2call", "when2call.jsonl")
    assert report.written == {"call": 1, "clarify": 1, "no_call": 1}
    assert cases["w2c-call-1"].tools == ("Movies_1_FindMovies", "api_token_api.APITokenApi.get_api_tokens")
    assert cases["w2c-info-1"].expect.missing == ("Movies_1_FindMovies.location",)
    assert cases["w2c-none-1"].expect.refusal
    for line in (FIX / "when2call.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        for candidate, text in ast.literal_eval(item["answers"]).items():
            verdict = grade(cases[item["uuid"]], text, "json")
            assert verdict.passed == (candidate == item["correct_answer"]), (item["uuid"], candidate, verdict.reason)


def test_openai_logs_by_label(tmp_path: Path) -> None:
    report, cases = _imported(tmp_path, "openai", "openai_logs.jsonl")
    assert report.written == {"call": 1, "clarify": 1, "no_call": 2}
    assert report.left_out == [f"{FIX / 'openai_logs.jsonl'}:5: log.two: a call item needs exactly one expected "
                               f"tool call, not 2"]
    email = cases["log.email"]
    assert grade(email, '{"name": "send_email", "arguments": {"to": "bob@example.com", "subject": "lunch", '
                        '"cc": ["ann@example.com"]}}', "json").passed
    assert grade(cases["log.ask"], "Which address should I send it to?", "json").passed
    # Derived terms are the words of the name and description and, since 4.1.1, the question words of the
    # parameter's kind: "Who should I send it to?" asks for a recipient ("to"), "When…?" does not.
    assert grade(cases["log.ask"], "Who should I send it to?", "json").passed
    assert not grade(cases["log.ask"], "When should I send it?", "json").passed
    assert grade(cases["log.refuse"], "Sorry, I can't make phone calls.", "json").passed
    assert not grade(cases["log.refuse"], "Calling your mom now!", "json").passed
    assert grade(cases["log.chat"], "Anytime!", "json").passed


def test_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "w"
    cmd = [sys.executable, "-m", "tooluse1", "import", "when2call", str(FIX / "when2call.jsonl"), "-o", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and "3 cases (1 call, 1 clarify, 1 no_call); 0 left out" in proc.stdout
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 4 and again.stderr == f"ERROR: {out}: not empty; import into a new folder (-o DIR)\n"
    # The imported suite runs: the oracle (a question or refusal of its own where a case has no reference)
    # passes every item, the native protocol's encoded dotted names included.
    run = subprocess.run([sys.executable, "-m", "tooluse1", "run", "--model", "oracle", "--suite", str(out),
                          "--protocol", "all,native", "--results", str(tmp_path / "r.json")],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and "12 passed" in run.stdout, run.stdout[-2000:] + run.stderr[-2000:]
    assert "PytestUnknownMarkWarning" not in run.stdout          # each case's category is a registered marker
