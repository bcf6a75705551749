"""grade_completion: the one path from a backend Completion to (Extraction, Verdict)."""
from __future__ import annotations

import pytest

from tooluse1.backends.base import Completion
from tooluse1.corpus import load_corpus
from tooluse1.grade import grade, grade_completion
from tooluse1.prompts import format_call


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for c in load_corpus()[0]}


def test_a_backend_error_has_nothing_to_grade(cases):
    c = cases["calculator-en-001"]
    assert grade_completion(c, Completion("i", "", "error", error="HTTP 503"), "json") == (None, None)


def test_structured_tool_calls_finish_reason_and_protocol_reach_the_verdict(cases):
    c = cases["get_weather-en-001"]
    ex, v = grade_completion(c, Completion("i", "Let me check.", tool_calls=[
        {"name": "get_weather", "arguments": c.expect.call.arguments}]), "native")
    assert ex.form == "api" and v.passed
    # the same answer as text, cut at the token limit: a call case still passes, and the cut is recorded
    ex, v = grade_completion(c, Completion("i", format_call(c.expect.call, "xml"), "length"), "xml")
    assert ex.form == "xml" and v.passed and v.cut_off


def test_grade_is_grade_completion_of_the_text(cases):
    """The public `grade(case, output, protocol)` gives the verdict grade_completion gives for that text."""
    for case_id in ("calculator-en-001", "negative-en-024", "clarification-en-001"):
        c = cases[case_id]
        for protocol in ("json", "xml", "plain", "native"):
            for output, finish in ((format_call(c.expect.right_call(), protocol) if c.expect.call else "", "stop"),
                                   (c.expect.reference or "I don't know.", "length")):
                _, v = grade_completion(c, Completion("i", output, finish), protocol)
                assert grade(c, output, protocol, finish) == v, (case_id, protocol)
