"""The protocol objects (tooluse1.protocols): the one place a protocol is declared."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tooluse1.parse import extract
from tooluse1.prompts import render_messages, system_prompt
from tooluse1.protocols import REGISTRY, protocol_named
from tooluse1.recordschema import results_schema_document
from tooluse1.tools import TOOL_NAMES, Call
from tooluse1.types import ALL_PROTOCOLS, PROTOCOLS

ROOT = Path(__file__).resolve().parent.parent


def test_the_registry_is_the_protocol_vocabulary():
    assert tuple(REGISTRY) == ALL_PROTOCOLS
    assert set(PROTOCOLS) <= set(REGISTRY)
    assert all(name == p.name for name, p in REGISTRY.items())
    with pytest.raises(ValueError, match="'yaml'.*json, xml, plain, native"):
        protocol_named("yaml")


def test_each_protocol_writes_what_its_own_parser_executes():
    call = Call("get_weather", {"city": "Paris", "unit": "celsius"})
    for p in REGISTRY.values():
        ex = extract(p.write_call(call), p.name)
        assert ex.calls == [call], p.name
        # text protocols read their own writing as their own form; the API form comes only with tool_calls
        assert ex.form == (p.own_form if not p.tools_in_api else "json"), p.name


def test_the_system_prompt_and_history_follow_the_object_not_the_name():
    call = Call("calculator", {"expression": "2+2"})
    history = [{"role": "user", "content": "2+2?"}, {"role": "assistant", "tool_call": {"name": call.name,
               "arguments": call.arguments}}, {"role": "tool", "name": "calculator", "content": "4"}]
    for p in REGISTRY.values():
        text = system_prompt(p.name, TOOL_NAMES)
        assert (p.format_text is None) == p.tools_in_api, p.name
        assert p.tools_in_api or p.format_text in text, p.name
        turn = render_messages(history, p.name)[1]
        assert turn == p.history_call(call, "call_1")
        assert ("tool_calls" in turn) == p.tools_in_api and (turn["content"] == "") == p.tools_in_api


def test_prompts_module_branches_on_no_protocol_name():
    """prompts.py compares no value with a protocol name: what differs is each protocol object's."""
    tree = ast.parse((ROOT / "tooluse1" / "prompts.py").read_text(encoding="utf-8"))
    names = set(REGISTRY)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            consts = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            assert not consts & names, ast.unparse(node)


def test_the_schema_protocol_enums_are_the_registry():
    schema = results_schema_document()
    defs = schema["$defs"]
    assert defs["Record"]["properties"]["protocol"]["enum"] == list(REGISTRY)
    assert defs["Provenance"]["properties"]["protocols"]["items"]["enum"] == list(REGISTRY)
