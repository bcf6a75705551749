"""Deployment conformance (tooluse1.deployment): what each answer became between two serving paths.

The outputs are what servers really return for one call: structured `tool_calls` with empty content (a
server's tool parser), the same call left in `content` as the model's markup (no parser, or a parser that
missed it, as streamed SGLang parsers did), a call with garbled arguments, a prose answer instead of the call."""
from __future__ import annotations

import pytest

from tooluse1.backends.base import Completion
from tooluse1.compare import compare, format_comparison
from tooluse1.corpus import load_corpus
from tooluse1.deployment import classify, conformance
from tooluse1.grade import grade_completion
from tooluse1.results import ItemRecord, ResultsFile, build_results

CASE = "get_weather-en-001"     # What's the weather in Tokyo right now? -> get_weather(city=Tokyo)
TOKYO = {"name": "get_weather", "arguments": {"city": "Tokyo"}}
HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>'
XML_CALL = "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>"


@pytest.fixture(scope="module")
def case():
    return {c.id: c for c in load_corpus()[0]}[CASE]


def record(case, text: str, tool_calls: list[dict] | None = None, protocol: str = "native") -> ItemRecord:
    completion = Completion(item_id=f"{CASE}-{protocol}", text=text, tool_calls=tool_calls)
    return ItemRecord(case, protocol, completion, *grade_completion(case, completion, protocol))


# (base output, new output, class); each output is (text, tool_calls)
PAIRS = [
    (("", [TOKYO]), ("", [TOKYO]), "identical"),
    ((HERMES, None), (HERMES, []), "identical"),          # no structured call: None in process, [] from a server
    (("", [TOKYO]), ("I'll check the current weather in Tokyo for you.", []), "lost"),
    (("", [TOKYO]), ('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tok', None), "lost"),  # cut
    (("Let me look that up.", None), ("", [TOKYO]), "gained"),
    (("", [TOKYO]), (HERMES, None), "moved"),             # the server's parser left the call in content
    ((XML_CALL, []), ("", [TOKYO]), "moved"),
    (("", [TOKYO]), ("", [{"name": "get_weather", "arguments": {"city": "Tokyo, Japan"}}]), "changed"),
    (("", [TOKYO]), ("", [{"name": "get_forecast", "arguments": {"city": "Tokyo"}}]), "changed"),
    (("", [TOKYO]), ("", [TOKYO, TOKYO]), "changed"),     # a call duplicated by delta reassembly
    (("", [TOKYO]), ("Checking the weather now.", [TOKYO]), "text_only"),
    ((HERMES, None), (XML_CALL, None), "text_only"),       # one call, two spellings in the text
    (("I can't see live weather data.", None), ("I don't have access to real-time weather.", None), "text_only"),
]


@pytest.mark.parametrize("base,new,expected", PAIRS, ids=[f"{i}-{p[2]}" for i, p in enumerate(PAIRS)])
def test_each_pair_falls_in_its_class(case, base, new, expected):
    assert classify(record(case, *base), record(case, *new)) == expected


def test_counts_examples_and_the_compare_section(case):
    base = [record(case, "", [TOKYO]), record(case, HERMES, None, "json")]
    new = [record(case, HERMES, None), record(case, "Sure, one moment.", None, "json")]
    c = conformance(zip(base, new))
    assert c.counts == {"identical": 0, "lost": 1, "gained": 0, "moved": 1, "changed": 0, "text_only": 0}
    assert not c.conformant and [b.item_id for b, _ in c.examples["moved"]] == [f"{CASE}-native"]
    assert c.as_dict()["examples"]["lost"][0]["new"]["output"] == "Sure, one moment."
    provenance = {"spec_version": "x", "corpus": {"sha256": "0" * 64}, "model": {"backend": "openai", "model_id": "m"},
                  "backend": {}, "decoding": {"max_new_tokens": 8, "temperature": 0.0, "do_sample": False},
                  "batch_size": None, "protocols": ["json", "native"], "libraries": {},
                  "started_at": "2026-01-01T00:00:00+00:00", "finished_at": "2026-01-01T00:00:01+00:00"}
    runs = [ResultsFile.from_document(build_results(provenance, rs), name) for rs, name in ((base, "in-process"),
                                                                                             (new, "served"))]
    cmp = compare(*runs)
    assert cmp.deployment is not None and cmp.deployment.counts == c.counts
    text = format_comparison(cmp)
    assert "deployment conformance (2 paired items; calls as the grader extracts them): CALLS DIFFER" in text
    assert "  lost           1  50.0%  a call in BASE, none in NEW" in text
    assert f"  e.g. moved: {CASE}-native" in text and "tool_calls=" in text
    assert cmp.as_dict()["deployment"]["counts"]["moved"] == 1
    from tooluse1.report import render_report
    page = render_report(runs[1], runs[0], cmp)
    assert "Deployment conformance: calls differ (2 paired items)" in page and 'id="deployment-table"' in page
