"""Prompt rendering (tooluse1.prompts): every case in every protocol, multi-step histories, call formats."""
from __future__ import annotations

import json

import pytest

from tooluse1.corpus import load_corpus
from tooluse1.parse import extract
from tooluse1.prompts import (ALL_PROTOCOLS, PROTOCOLS, RULES, Prompt, digest_of_prompt_hashes, format_call,
                              parse_protocols, prompt_digest, render, render_all, system_prompt)
from tooluse1.tools import TOOL_NAMES, TOOLS, Call


@pytest.fixture(scope="module")
def cases():
    return load_corpus()[0]


def test_every_case_renders_in_every_protocol_with_alternating_roles(cases):
    prompts = render_all(cases, ALL_PROTOCOLS)
    assert len(prompts) == 4 * len(cases)
    for p in prompts:
        roles = [m["role"] for m in p.messages]
        assert roles[0] == "system" and roles[-1] == "user", p.item_id
        body = roles[1:]
        assert body[0] == "user"
        assert all(a != b for a, b in zip(body, body[1:])), (p.item_id, roles)
        assert set(body) <= {"user", "assistant", "tool"}
        for m, nxt in zip(p.messages, p.messages[1:]):   # a tool turn answers the assistant call before it
            if nxt["role"] == "tool":
                assert m["role"] == "assistant", p.item_id
        for m in p.messages:
            calls = m.get("tool_calls")
            assert (isinstance(m["content"], str) and m["content"].strip()) or calls, (p.item_id, m)
            assert not calls or p.protocol == "native", p.item_id
        assert bool(p.tools) == (p.protocol == "native"), p.item_id
        assert p.item_id == f"{p.case_id}-{p.protocol}"


def test_multi_step_history_is_calls_and_tool_turns_as_chat_models_see_them(cases):
    """A prior call is an assistant turn in the protocol's own format (structured tool_calls in native); its
    result is a `tool` turn answering that call (the chat template's tool-result turn), never a user turn
    with a marker a model could copy."""
    multi = [c for c in cases if any("tool_call" in m for m in c.messages)]
    assert len(multi) >= 10
    for c in multi:
        prior = [Call(m["tool_call"]["name"], dict(m["tool_call"].get("arguments") or {}))
                 for m in c.messages if "tool_call" in m]
        results = [m for m in c.messages if m["role"] == "tool"]
        for protocol in ALL_PROTOCOLS:
            msgs = render(c, protocol).messages
            assistant_calls = []
            for m in msgs:
                if m["role"] != "assistant":
                    continue
                if protocol == "native":
                    assistant_calls += [Call(tc["function"]["name"], tc["function"]["arguments"])
                                        for tc in m.get("tool_calls") or ()]
                    continue
                ex = extract(m["content"], protocol)
                if ex.label == "call":
                    assert ex.form == protocol, (c.id, protocol, ex.form)
                    assistant_calls += [Call(k.name, k.arguments) for k in ex.calls]
                else:
                    assert ex.label == "text", (c.id, protocol, m["content"])
            assert assistant_calls == prior, (c.id, protocol)
            tool_turns = [m for m in msgs if m["role"] == "tool"]
            assert [(t["name"], t["content"]) for t in tool_turns] == [(r["name"], r["content"]) for r in results]
            ids = [tc["id"] for m in msgs for tc in m.get("tool_calls") or ()]
            assert [t["tool_call_id"] for t in tool_turns] == (ids or [f"call_{i + 1}" for i in range(len(prior))])
            assert not any("TOOL RESULT" in str(m.get("content")) for m in msgs), (c.id, protocol)


def test_no_prompt_holds_a_marker_or_a_concrete_call_a_model_could_copy(cases):
    """Issue 11: the 1.x prompt quoted the marker its tool results started with, and a concrete example call;
    small models echoed both as answers. The 2.0 system prompts show call formats with placeholders only."""
    for protocol in ALL_PROTOCOLS:
        for c in cases:
            text = render(c, protocol).messages[0]["content"]
            assert "TOOL RESULT" not in text and "Example" not in text, (c.id, protocol)
            rules = text.split("\n\n", 1)[1] if protocol != "native" else text
            # echoing the format text is never a call of one of the tools (malformed or an unknown name at most)
            assert not [k for k in extract(rules, protocol).calls if k.name in TOOLS], (protocol, rules)
    assert "<function=TOOL_NAME>" in system_prompt("xml", ["get_weather"])
    assert "TOOL <tool name>" in system_prompt("plain", ["get_weather"])


def test_the_policy_rules_are_one_text_in_every_protocol():
    for protocol in ALL_PROTOCOLS:
        assert system_prompt(protocol, TOOL_NAMES).endswith(RULES)
    for phrase in ("Use a tool whenever", "ask the user a short question", "well-known facts",
                   "Never pretend"):
        assert phrase in RULES


def test_rule_3_states_the_translation_policy_of_spec_2():
    """SPEC §2: a translation asked for without a translate tool is written by the model, so the prompt must
    not end rule 3 with a bare "say that you cannot" (3.0; the 2.0 prompt did, and models that followed it
    failed negative-en-021 / ru-014)."""
    rule3 = RULES.split("\n3. ", 1)[1]
    assert "say that you cannot, except for a translation when you have no translate tool" in rule3
    assert "which you write yourself" in rule3
    assert not rule3.rstrip().endswith("say that you cannot.")
    assert "Never pretend to have done something you cannot do." in rule3
    native = system_prompt("native", TOOL_NAMES)
    assert not any(json.dumps(t.json_schema(), ensure_ascii=False) in native for t in TOOLS.values())


def test_native_prompts_carry_the_tools_as_schemas(cases):
    c = next(c for c in cases if set(c.tools) != set(TOOL_NAMES))
    p = render(c, "native")
    assert [t["function"]["name"] for t in p.tools] == list(c.tools)
    assert all(t["type"] == "function" and t["function"] == TOOLS[t["function"]["name"]].json_schema()
               for t in p.tools)
    assert render(c, "json").tools == ()


def test_prompt_sha_and_digest_change_exactly_with_the_prompt(cases):
    a, b = render(cases[0], "json"), render(cases[1], "json")
    assert a.sha256 == render(cases[0], "json").sha256 and a.sha256 != b.sha256
    assert render(cases[0], "xml").sha256 != a.sha256
    d = prompt_digest([a, b])
    assert d == prompt_digest([b, a])                      # order-free
    assert d == digest_of_prompt_hashes([(a.item_id, a.sha256), (b.item_id, b.sha256)])
    changed = Prompt(a.item_id, a.case_id, a.protocol, a.messages[:-1] + ({"role": "user", "content": "other"},))
    assert prompt_digest([changed, b]) != d


def test_system_prompt_declares_exactly_the_offered_tools(cases):
    for c in cases:
        text = render(c, "json").messages[0]["content"]
        decl_block = text.split("\n\n", 1)[0].splitlines()[1:]      # after "...access to these tools:"
        declared = {json.loads(line)["name"] for line in decl_block}
        assert declared == set(c.tools), c.id
    assert "TOOL <tool name>" in system_prompt("plain", TOOL_NAMES)
    assert "<function=TOOL_NAME>" in system_prompt("xml", TOOL_NAMES)


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
    assert parse_protocols("all") == PROTOCOLS == ("json", "xml", "plain")   # the SPEC's three: native is opt-in
    assert parse_protocols("all,native") == ALL_PROTOCOLS == ("json", "xml", "plain", "native")
    assert parse_protocols("native") == ("native",)
    assert parse_protocols("xml,json") == ("json", "xml")
    assert parse_protocols(["plain"]) == ("plain",)
    with pytest.raises(ValueError, match="'yaml'"):
        parse_protocols("json,yaml")


def test_render_accepts_a_corpus_dict(cases):
    c = cases[0]
    assert render(c.as_dict(), "plain") == render(c, "plain")


def test_every_tool_schema_is_in_the_full_system_prompt():
    text = system_prompt("json", TOOL_NAMES)
    for tool in TOOLS.values():
        assert json.dumps(tool.json_schema(), ensure_ascii=False) in text
