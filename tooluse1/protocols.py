"""The calling protocols, one object each: how a prompt asks for a call and how a call is written back.

A protocol says three things, and nothing else in the code switches on its name:
- `format_text`: the system-prompt section that tells the model how to write a call (placeholders only: no
  concrete call a model could copy as its answer); None where the tools travel outside the text;
- `write_call`: the canonical text of one call (what `format_text` asks for; how a call of the history is
  written in an assistant turn; for `native`, the JSON object templates and APIs carry in their own markup);
- `tools_in_api`: the offered tools go through the chat template's `tools=` argument or the API's `tools`
  field (`Prompt.tools`), and a call of the history is a structured `tool_calls` entry, not text;
plus `own_form`, the `Extraction.form` of the calls a deployment of this protocol executes (what the grader
keeps as a call even when it repeats the user's own call syntax, grade.with_repeated_calls_quoted).

The names are the closed vocabulary `tooluse1.types.Protocol`; `PROTOCOLS` (what `--protocol all` runs) is
declared there too. A new protocol is one object in `REGISTRY` and its name in that `Literal`
(tests_grader/test_protocols.py checks the two agree). The results schema's protocol enums are this
registry's keys (tooluse1/recordschema.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from tooluse1.tools import Call
from tooluse1.toolspec import api_name
from tooluse1.types import Protocol

__all__ = ["CallProtocol", "REGISTRY", "protocol_named"]


@dataclass(frozen=True)
class CallProtocol:
    """One calling protocol (module docstring). Immutable; compare by name."""

    name: Protocol
    write_call: Callable[[Call], str]
    format_text: str | None
    tools_in_api: bool
    own_form: str

    def history_call(self, call: Call, call_id: str) -> dict[str, Any]:
        """The assistant turn of a call made earlier in the conversation: the call's text in the protocol's
        own format, or (tools through the template/API) a structured `tool_calls` entry with `call_id`, which
        the `tool` turn answering it names (under the name the tools were declared with: api_name)."""
        if self.tools_in_api:
            return {"role": "assistant", "content": "", "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": api_name(call.name), "arguments": call.arguments}}]}
        return {"role": "assistant", "content": self.write_call(call)}


def _json_call(call: Call) -> str:
    return json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)


def _xml_call(call: Call) -> str:
    lines = ["<tool_call>", f"<function={call.name}>"]
    for k, v in call.arguments.items():
        text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
        lines += [f"<parameter={k}>", text, "</parameter>"]
    return "\n".join(lines + ["</function>", "</tool_call>"])


def _plain_value(value: Any) -> str:
    # A value the line syntax would split or trim is written as a JSON string (the parser reads it back).
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if "|" in text or "\n" in text or text != text.strip() or text.startswith('"'):
        return json.dumps(text, ensure_ascii=False)
    return text


def _plain_call(call: Call) -> str:
    return " | ".join([f"TOOL {call.name}"] + [f"{k}={_plain_value(v)}" for k, v in call.arguments.items()])


REGISTRY: dict[str, CallProtocol] = {p.name: p for p in (
    CallProtocol("json", _json_call, tools_in_api=False, own_form="json", format_text=(
        "To call a tool, reply with one JSON object in this form and nothing else:\n"
        "{\"name\": \"<tool name>\", \"arguments\": {\"<argument name>\": <value>, ...}}")),
    CallProtocol("xml", _xml_call, tools_in_api=False, own_form="xml", format_text=(
        "To call a tool, reply with one block in this form and nothing else (one <parameter> block per "
        "argument):\n<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nVALUE\n</parameter>\n"
        "</function>\n</tool_call>")),
    CallProtocol("plain", _plain_call, tools_in_api=False, own_form="plain", format_text=(
        "To call a tool, reply with one line in this form and nothing else:\n"
        "TOOL <tool name> | <argument name>=<value> | <argument name>=<value>")),
    CallProtocol("native", _json_call, tools_in_api=True, own_form="api", format_text=None),
)}


def protocol_named(name: str) -> CallProtocol:
    """The protocol called `name`; ValueError naming it and the known ones otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown protocol {name!r}: one of {', '.join(REGISTRY)}") from None
