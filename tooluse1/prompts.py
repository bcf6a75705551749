"""Stage 2: Case -> Prompt, one rendering for every backend.

Each protocol gets a system prompt that declares the offered tools (JSON schema), the exact call format
and the rules for calling, abstaining and asking back. Multi-step history is rendered as ordinary chat
turns: a prior call is written by the assistant in the protocol's own format, and a tool result comes back
as a user turn starting with `TOOL RESULT` (so every chat template, with or without a `tool` role, gets the
same text).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Sequence

from tooluse1.tools import TOOLS, Call

PROTOCOLS: tuple[str, ...] = ("json", "xml", "plain")


@dataclass(frozen=True)
class Prompt:
    """A rendered chat for one item (case x protocol).

    `messages` are OpenAI-style {"role", "content"} dicts with roles system/user/assistant only, ready for
    a chat template or a chat-completions request. `shared_prefix_key` groups items whose system prompt is
    identical (protocol x offered tools), for backends that reuse a prefix cache.
    """

    item_id: str          # "<case-id>-<protocol>"
    case_id: str
    protocol: str         # json | xml | plain
    messages: tuple[dict, ...]
    shared_prefix_key: str = ""


def item_id(case_id: str, protocol: str) -> str:
    return f"{case_id}-{protocol}"


def parse_protocols(spec: str | Sequence[str]) -> tuple[str, ...]:
    """'json,xml' / 'all' / ['xml'] -> validated tuple in canonical order; ValueError names the bad one."""
    names = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
    if not names or names == ["all"]:
        return PROTOCOLS
    for n in names:
        if n not in PROTOCOLS:
            raise ValueError(f"unknown protocol {n!r}: use one or more of {', '.join(PROTOCOLS)} (comma-separated) or all")
    return tuple(p for p in PROTOCOLS if p in names)


# ----------------------------------------------------------------------------- call formats

def _plain_value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if "|" in text or "\n" in text or text != text.strip() or text.startswith('"'):
        return json.dumps(text, ensure_ascii=False)
    return text


def format_call(call: Call, protocol: str) -> str:
    """The canonical text of one call in a protocol (what the system prompt asks the model to write)."""
    if protocol == "json":
        return json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)
    if protocol == "xml":
        lines = ["<tool_call>", f"<function={call.name}>"]
        for k, v in call.arguments.items():
            text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
            lines += [f"<parameter={k}>", text, "</parameter>"]
        return "\n".join(lines + ["</function>", "</tool_call>"])
    if protocol == "plain":
        return " | ".join([f"TOOL {call.name}"] + [f"{k}={_plain_value(v)}" for k, v in call.arguments.items()])
    raise ValueError(f"unknown protocol {protocol!r}")


_EXAMPLE = Call("get_weather", {"city": "Berlin", "unit": "celsius"})

_FORMAT_TEXT = {
    "json": ("To call a tool, reply with exactly one JSON object and nothing else:\n"
             "{\"name\": <tool name>, \"arguments\": {<argument name>: <value>, ...}}\n"
             "Example:\n" + format_call(_EXAMPLE, "json")),
    "xml": ("To call a tool, reply with exactly one block in this format and nothing else:\n"
            "<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nVALUE\n</parameter>\n</function>\n"
            "</tool_call>\n(one <parameter> block per argument)\nExample:\n" + format_call(_EXAMPLE, "xml")),
    "plain": ("To call a tool, reply with exactly one line in this format and nothing else:\n"
              "TOOL <tool name> | <argument>=<value> | <argument>=<value>\n"
              "Example:\n" + format_call(_EXAMPLE, "plain")),
}

_RULES = """Rules:
1. Call a tool only when one of the tools above is needed to answer and you know every required argument. Then reply with the call only: one call, no other text.
2. If a tool is needed but a required argument is missing or unclear, do not call it: ask the user a short question for the missing information.
3. If no tool above fits the request, if you can answer from your own knowledge, or if the user asks you not to use tools, answer in plain text and do not write any tool call. Never pretend to do something no tool above can do; say you cannot.
4. Tool results come back in a message that starts with "TOOL RESULT". Use them to answer, or make the next call if the user asks for more."""


def system_prompt(protocol: str, tool_names: Sequence[str]) -> str:
    """The system prompt for a protocol and a set of offered tools (deterministic text)."""
    decl = "\n".join(json.dumps(TOOLS[t].json_schema(), ensure_ascii=False) for t in tool_names)
    return (f"You are a helpful assistant with access to these tools:\n{decl}\n\n"
            f"{_FORMAT_TEXT[protocol]}\n\n{_RULES}")


def _tool_result_text(name: str, content: str) -> str:
    return f"TOOL RESULT ({name}): {content}"


def render_messages(case_messages: Sequence[dict], protocol: str) -> list[dict]:
    """Protocol-neutral history -> chat turns (roles user/assistant), consecutive same-role turns merged."""
    out: list[dict] = []
    for m in case_messages:
        if m["role"] == "assistant" and "tool_call" in m:
            tc = m["tool_call"]
            role, text = "assistant", format_call(Call(tc["name"], dict(tc.get("arguments") or {})), protocol)
        elif m["role"] == "tool":
            role, text = "user", _tool_result_text(m.get("name", "tool"), m["content"])
        else:
            role, text = m["role"], m["content"]
        if out and out[-1]["role"] == role:
            out[-1] = {"role": role, "content": out[-1]["content"] + "\n\n" + text}
        else:
            out.append({"role": role, "content": text})
    return out


def render(case: Any, protocol: str) -> Prompt:
    """The Prompt for one case in one protocol (accepts a Case or a corpus dict)."""
    from tooluse1.corpus import as_case
    c = as_case(case)
    sys_text = system_prompt(protocol, c.tools)
    messages = ({"role": "system", "content": sys_text}, *render_messages(c.messages, protocol))
    key = hashlib.sha256(sys_text.encode("utf-8")).hexdigest()[:16]
    return Prompt(item_id=item_id(c.id, protocol), case_id=c.id, protocol=protocol,
                  messages=tuple(messages), shared_prefix_key=key)


def render_all(cases: Sequence[Any], protocols: Sequence[str]) -> list[Prompt]:
    """Prompts for every case x protocol, ordered by case then protocol."""
    return [render(c, p) for c in cases for p in protocols]
