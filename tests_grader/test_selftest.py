"""The selftest (tooluse1.selftest): the real corpus passes, and a broken expectation is reported by name."""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
from corpus_contract import N_CASES

from tooluse1 import selftest
from tooluse1.corpus import ROOT, Case, load_corpus
from tooluse1.grade import grade
from tooluse1.prompts import PROTOCOLS
from tooluse1.selftest import (always_call_output, never_call_output, oracle_output, run_selftest,
                               variant_outputs)
from tooluse1.tools import Call


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_corpus()[0]


@pytest.fixture(scope="module")
def report(cases):
    return run_selftest(cases)


def test_selftest_on_the_real_corpus_has_no_failures(report, cases):
    assert report.ok, "\n".join(report.failures[:20])
    assert report.failures == []
    # every runner x 3 protocols + one variants line per protocol
    n_runners = len(selftest.RUNNERS)
    assert n_runners == 11
    assert len(report.lines) == (n_runners + 1) * len(PROTOCOLS)
    assert all(line.endswith(" ok") for line in report.lines), report.lines
    n_variants = sum(len(variant_outputs(c, p)) for c in cases for p in PROTOCOLS)
    assert report.n_verdicts == n_runners * len(PROTOCOLS) * len(cases) + n_variants


def test_analytic_scores_are_independent_of_the_grader(cases, report):
    n = len(cases)
    n_call = sum(1 for c in cases if c.expect.call is not None)
    n_chit_chat = sum(1 for c in cases if c.kind == "chit_chat")
    assert n_chit_chat == 4   # the only text cases whose sole requirement is a non-empty answer
    n_knowledge = sum(1 for c in cases if c.kind == "knowledge")
    assert n_knowledge == 16
    # call cases whose expected call states an optional argument (unit, num_results, label, title,
    # source_language): counted from the YAML-level arguments, not through selftest's helper
    n_optional = sum(1 for c in cases if c.expect.call is not None
                     and set(c.expect.call.arguments) - {"city", "expression", "query", "text", "target_language",
                                                          "amount", "from_currency", "to_currency", "value",
                                                          "from_unit", "to_unit", "duration_seconds", "timezone"})
    assert n_optional > 0
    expected = {"never-call": (n - n_call) / n, "always-call": n_call / n, "empty": 0.0,
                "pretend": n_chit_chat / n, "double": (n - n_call) / n, "hedge": (n - n_knowledge) / n,
                "truncated": 1.0, "cut-in-thinking": 0.0, "wrong-optional": (n - n_optional) / n,
                "memorised": 1.0}   # the public cases: it knows them all (its draws: tests_grader/test_draws.py)
    for protocol in PROTOCOLS:
        for name, value in expected.items():
            assert f"{protocol:<5} {name:<15} score {value:.3f} (analytic {value:.3f}) ok" in report.lines


def test_adversarial_runners_score_zero_where_they_must(cases):
    """empty: 0 on abstention and clarification; pretend: 0 on capability traps and clarification;
    double: 0 on call cases. Checked here item by item, not through the selftest's own bookkeeping."""
    for c in cases:
        for p in PROTOCOLS:
            empty = grade(c, selftest.empty_output(c, p), p)
            assert not empty.passed, (c.id, p)
            pretend = grade(c, selftest.pretend_output(c, p), p)
            if c.kind == "capability_trap" or c.expectation == "clarify":
                assert not pretend.passed, (c.id, p)
            double = grade(c, selftest.double_output(c, p), p)
            assert double.passed == (c.expectation != "call"), (c.id, p)
            if c.expectation == "call":
                assert double.n_calls == 2, (c.id, p)


def test_a_grader_that_lets_pretence_pass_is_caught(cases, monkeypatch):
    """The selftest must notice when the grader stops catching a pretended action."""
    from tooluse1.answers import requirement     # where check_answer looks the rules up
    monkeypatch.setattr(requirement, "claims_action", lambda text: None)
    monkeypatch.setattr(requirement, "states_inability", lambda text: "I can't")
    rep = run_selftest(cases)
    assert not rep.ok
    assert any(f.startswith("pretend/") for f in rep.failures), rep.failures


def test_runner_outputs_are_what_they_claim(cases):
    for c in cases:
        for p in PROTOCOLS:
            v = grade(c, oracle_output(c, p), p)
            assert v.passed, (c.id, p, v.reason)
            assert grade(c, never_call_output(c, p), p).label == "text"
            a = grade(c, always_call_output(c, p), p)
            assert a.label == "call" and a.passed == (c.expect.call is not None), (c.id, p)


def test_variants_cover_the_promised_forms(cases):
    names = {name for c in cases for p in PROTOCOLS for name, _ in variant_outputs(c, p)}
    assert {"fenced-json", "tool_calls", "string-arguments", "thinking-first", "prose-around", "tool-alias",
            "aliased-value", "extra-optional-arg", "evaluated-number", "thinking", "open-thinking-marker"} <= names


def _with_city(case: Case, city: str) -> Case:
    call = case.expect.call
    assert call is not None
    expect = dataclasses.replace(case.expect, call=Call(call.name, {**call.arguments, "city": city}))
    return dataclasses.replace(case, expect=expect)


def test_a_broken_expectation_is_reported_by_name(cases, monkeypatch):
    original = next(c for c in cases if c.id == "get_weather-en-001")           # Tokyo
    broken = _with_city(original, "Paris")
    corpus = [broken if c.id == original.id else c for c in cases]
    real_oracle = selftest.RUNNERS["oracle"]

    def oracle_keeping_the_original_output(case: Case, protocol: str) -> str:
        return real_oracle(original if case.id == original.id else case, protocol)

    monkeypatch.setitem(selftest.RUNNERS, "oracle", oracle_keeping_the_original_output)
    rep = run_selftest(corpus)
    assert not rep.ok
    named = [f for f in rep.failures if "get_weather-en-001" in f]
    assert len(named) == len(PROTOCOLS), rep.failures
    for protocol, failure in zip(PROTOCOLS, named):
        assert failure.startswith(f"oracle/{protocol}: get_weather-en-001")
        assert "Paris" in failure and "Tokyo" in failure
    # the oracle's score is no longer 1.000 and says so
    assert sum("MISMATCH" in line for line in rep.lines) == len(PROTOCOLS)
    # nothing else is blamed
    others = [f for f in rep.failures if "get_weather-en-001" not in f]
    assert all(f.startswith("oracle/") and "score" in f for f in others), others


def test_the_grading_benchmark_grades_exactly_the_selftest_outputs(report):
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_grading", ROOT / "benchmarks" / "bench_grading.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    items = bench.workload()
    assert len(items) == report.n_verdicts
    assert {p for _, _, p in items} == set(PROTOCOLS)


def test_cli_selftest_passes():
    r = subprocess.run([sys.executable, "-m", "tooluse1", "selftest"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"selftest passed: {N_CASES} cases" in r.stdout


def test_the_3_0_runners_fail_exactly_what_the_new_rules_fail(cases):
    """hedge: fails the knowledge cases only; truncated (finish `length`): passes everything, every item
    counted as truncated; cut-in-thinking: fails everything; wrong-optional: fails exactly the call cases
    whose expected call states an optional argument. Item by item, with the finish reason the backend reports."""
    for c in cases:
        stated = c.expect.call is not None and any(
            not p.required and p.name in c.expect.call.arguments for p in c.toolbox[c.expect.call.name].params)
        for p in PROTOCOLS:
            assert grade(c, selftest.hedge_output(c, p), p).passed == (c.kind != "knowledge"), (c.id, p)
            cut = grade(c, selftest.truncated_output(c, p), p, "length")
            assert cut.passed and cut.cut_off, (c.id, p, cut.reason)
            assert not grade(c, selftest.cut_in_thinking_output(c, p), p, "length").passed, (c.id, p)
            wrong = grade(c, selftest.wrong_optional_output(c, p), p)
            assert wrong.passed == (not stated), (c.id, p, wrong.reason)
            if stated:
                assert wrong.reason.startswith("arguments differ"), (c.id, p, wrong.reason)


def test_the_scripted_backend_reports_the_runners_finish_reason(cases):
    from tooluse1.backends.base import DecodingConfig
    from tooluse1.backends.scripted import ScriptedBackend
    from tooluse1.prompts import render
    by_id = {c.id: c for c in cases}
    prompt = render(by_id["negative-en-001"], "json")
    for runner, finish in (("truncated", "length"), ("cut-in-thinking", "length"), ("oracle", "stop")):
        (out,) = ScriptedBackend(runner, by_id, delay_s=0).generate([prompt], DecodingConfig())
        assert out.finish_reason == finish


def test_wrong_optional_passes_over_an_optional_stated_as_null():
    """A suite's nullable optional stated as null ("no reminder": `reminder_minutes: null`) has no other value
    derived from it: the runner falls back to the right call there, and changes a non-null optional elsewhere."""
    from tooluse1.suite import load_suite
    suite = load_suite(ROOT / "examples" / "openai_tools")
    by_id = {c.id: c for c in suite.cases}
    null_case = by_id["calendar.no-reminder"]
    assert null_case.expect.call is not None and null_case.expect.call.arguments["reminder_minutes"] is None
    for p in PROTOCOLS:
        assert grade(null_case, selftest.wrong_optional_output(null_case, p), p).passed, p
    changed = [c for c in suite.cases if c.expect.call is not None and any(
        v is not None and not c.toolbox[c.expect.call.name].param_index[k].required
        for k, v in c.expect.call.arguments.items())]
    assert changed
    for c in changed:
        assert not grade(c, selftest.wrong_optional_output(c, "json"), "json").passed, c.id
