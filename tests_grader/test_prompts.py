"""Prompt rendering (tooluse1.prompts): every case in every protocol, multi-step histories, call formats."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.parse import extract
from tooluse1.prompts import PROTOCOLS, format_call, parse_protocols, render, render_all, system_prompt
from tooluse1.tools import TOOL_NAMES, TOOLS, Call


@pytest.fixture(scope="module")
def cases():
    return load_corpus()[0]


def test_every_case_renders_in_every_protocol_with_alternating_roles(cases):
    prompts = render_all(cases, PROTOCOLS)
    assert len(prompts) == 3 * len(cases)
    for p in prompts:
        roles = [m["role"] for m in p.messages]
        assert roles[0] == "system" and roles[-1] == "user", p.item_id
        body = roles[1:]
        assert body[0] == "user"
        assert all(a != b for a, b in zip(body, body[1:])), (p.item_id, roles)
        assert set(body) <= {"user", "assistant"}
        assert all(isinstance(m["content"], str) and m["content"].strip() for m in p.messages)
        assert p.item_id == f"{p.case_id}-{p.protocol}"


def test_multi_step_prior_calls_are_written_in_the_protocol_format(cases):
    multi = [c for c in cases if any("tool_call" in m for m in c.messages)]
    assert len(multi) >= 10
    for c in multi:
        prior = [Call(m["tool_call"]["name"], dict(m["tool_call"].get("arguments") or {}))
                 for m in c.messages if "tool_call" in m]
        results = [m for m in c.messages if m["role"] == "tool"]
        for protocol in PROTOCOLS:
            msgs = render(c, protocol).messages
            assistant_calls = []
            for m in msgs:
                if m["role"] != "assistant":
                    continue
                ex = extract(m["content"], protocol)
                if ex.label == "call":
                    assert ex.form == protocol, (c.id, protocol, ex.form)
                    assistant_calls += [Call(k.name, k.arguments) for k in ex.calls]
                else:
                    assert ex.label == "text", (c.id, protocol, m["content"])
            assert assistant_calls == prior, (c.id, protocol)
            tool_turns = [m for m in msgs if m["role"] == "user" and m["content"].startswith("TOOL RESULT")]
            assert len(tool_turns) == len(results)
            for turn, res in zip(tool_turns, results):
                assert res["content"] in turn["content"] and res["name"] in turn["content"]
            # A tool result is never read as a call of the model's own.
            assert all(extract(t["content"]).label == "text" for t in tool_turns)


def test_system_prompt_declares_exactly_the_offered_tools(cases):
    for c in cases:
        text = render(c, "json").messages[0]["content"]
        decl_block = text.split("\n\n", 1)[0].splitlines()[1:]      # after "...access to these tools:"
        declared = {json.loads(line)["name"] for line in decl_block}
        assert declared == set(c.tools), c.id
    assert "TOOL <tool name>" in system_prompt("plain", TOOL_NAMES)
    assert "<function=TOOL_NAME>" in system_prompt("xml", TOOL_NAMES)


def test_the_example_in_each_system_prompt_parses_as_a_call():
    for protocol in PROTOCOLS:
        ex = extract(system_prompt(protocol, ["get_weather"]).split("Example:\n", 1)[1].split("\n\n", 1)[0], protocol)
        assert ex.label == "call" and ex.form == protocol and ex.calls[0].name == "get_weather"


def test_format_call_round_trips_through_extract_for_every_expected_call(cases):
    calls = [c.expect.call for c in cases if c.expect.call is not None]
    calls += [Call("save_note", {"text": 'a | b "quoted" \\ back', "title": " padded "}),
              Call("save_note", {"text": "line1\nline2"}), Call("get_time", {})]
    for call in calls:
        for protocol in PROTOCOLS:
            ex = extract(format_call(call, protocol), protocol)
            assert ex.label == "call" and ex.form == protocol and len(ex.calls) == 1, (call, protocol)
            got = ex.calls[0]
            assert got.name == call.name
            if protocol == "xml":   # XML values are trimmed of surrounding whitespace by design
                expected = {k: v.strip() if isinstance(v, str) else v for k, v in call.arguments.items()}
            else:
                expected = call.arguments
            assert got.arguments == expected, (protocol, got.arguments, expected)
            for k, v in expected.items():
                assert type(got.arguments[k]) is type(v), (protocol, k)


def test_rendering_is_deterministic_and_prefix_keys_group_identical_system_prompts(cases):
    a = render_all(cases[:20], PROTOCOLS)
    b = render_all(cases[:20], PROTOCOLS)
    assert a == b
    full = [c for c in cases if set(c.tools) == set(TOOL_NAMES)][:2]
    assert render(full[0], "json").shared_prefix_key == render(full[1], "json").shared_prefix_key
    assert render(full[0], "json").shared_prefix_key != render(full[0], "xml").shared_prefix_key
    partial = next(c for c in cases if set(c.tools) != set(TOOL_NAMES))
    assert render(partial, "json").shared_prefix_key != render(full[0], "json").shared_prefix_key


def test_parse_protocols():
    assert parse_protocols("all") == PROTOCOLS
    assert parse_protocols("xml,json") == ("json", "xml")
    assert parse_protocols(["plain"]) == ("plain",)
    with pytest.raises(ValueError, match="'yaml'"):
        parse_protocols("json,yaml")


def test_render_accepts_a_corpus_dict(cases):
    c = cases[0]
    assert render(c.as_dict(), "plain") == render(c, "plain")


def test_every_tool_schema_is_in_the_full_system_prompt():
    text = system_prompt("json", TOOL_NAMES)
    for name, tool in TOOLS.items():
        assert json.dumps(tool.json_schema(), ensure_ascii=False) in text
