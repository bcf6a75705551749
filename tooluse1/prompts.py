"""Stage 2: Case -> Prompt, one rendering for every backend.

Text protocols (json, xml, plain): the system prompt declares the offered tools (JSON schemas), the
protocol's call format (placeholders only: no concrete call a model could copy as its answer) and the
calling policy (SPEC §2). The `native` protocol declares no tools in text: they travel as JSON schemas
(`Prompt.tools`) through the chat template's `tools=` argument or the API's `tools` field, and its system
prompt holds only the policy.

Multi-step history is rendered the way chat models are trained to see it: a prior call is an assistant
turn (in the protocol's own text format; structured `tool_calls` in `native`) and its result is a `tool`
turn, which each backend hands to the chat template's own tool-result turn (a backend whose template has
none falls back to a neutral user turn, and says so in its provenance). No prompt contains a marker a
model could echo: the 1.x prompt told models that results arrive in a message starting with a fixed
marker, and 70% of the default model's answers began with it.

What differs between protocols (the call format text, how a call is written, whether the tools go through
the template/API) is each protocol's `CallProtocol` (tooluse1/protocols.py); this module branches on none.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from tooluse1.protocols import protocol_named
from tooluse1.tools import TOOLS, Call
from tooluse1.toolspec import Toolbox, api_name
from tooluse1.types import ALL_PROTOCOLS, PROTOCOLS

__all__ = ["ALL_PROTOCOLS", "PROTOCOLS", "PROTOCOL_HELP", "Prompt", "format_call", "item_id", "parse_protocols",
           "prompt_digest", "render", "render_all", "system_prompt"]


@dataclass(frozen=True)
class Prompt:
    """A rendered chat for one item (case x protocol).

    `messages` are OpenAI-style dicts: roles system / user / assistant / tool. An assistant turn that calls a
    tool has `content` (text protocols: the call written in the protocol's format) or, in `native`,
    `tool_calls` ([{"id", "type": "function", "function": {"name", "arguments": dict}}]); a `tool` turn has
    `tool_call_id`, `name` and `content`. `tools` holds the offered tools' JSON schemas for `native` (empty
    otherwise). `shared_prefix_key` groups items whose system prompt and tools are identical, for backends
    that reuse a prefix cache. `sha256` identifies the rendered prompt (resume and provenance use it).
    """

    item_id: str          # "<case-id>-<protocol>"
    case_id: str
    protocol: str         # a Protocol for benchmark items; a track's own prompts name theirs (SPIN: "spin")
    messages: tuple[dict, ...]
    shared_prefix_key: str = ""
    tools: tuple[dict, ...] = ()
    sha256: str = field(default="", compare=False)
    # A sample of a sampled run (harness): its seed (sampling.sample_seed of the run's seed, the item and
    # the sample) and its index; None for a greedy run's prompt. item_id is then `<item id>#<sample>`.
    seed: int | None = None
    sample: int | None = None

    def __post_init__(self) -> None:
        if not self.sha256:
            canonical = json.dumps({"messages": list(self.messages), "tools": list(self.tools)},
                                   ensure_ascii=False, sort_keys=True)
            object.__setattr__(self, "sha256", hashlib.sha256(canonical.encode("utf-8")).hexdigest())


def item_id(case_id: str, protocol: str) -> str:
    return f"{case_id}-{protocol}"


# What --protocol takes, from the registry (tooluse1.protocols.REGISTRY) and the headline set (PROTOCOLS).
PROTOCOL_HELP = (f"one or more of {','.join(ALL_PROTOCOLS)} (comma-separated); all (the default) = "
                 f"{','.join(PROTOCOLS)}; all,{','.join(p for p in ALL_PROTOCOLS if p not in PROTOCOLS)} adds the rest")


def parse_protocols(spec: str | Sequence[str]) -> tuple[str, ...]:
    """'json,xml' / 'all' / 'all,native' / ['xml'] -> validated tuple in canonical order; ValueError names the
    bad one. `all` is the SPEC's three text protocols; `native` is opt-in."""
    names = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
    if not names:
        return PROTOCOLS
    chosen: set[str] = set()
    for n in names:
        if n == "all":
            chosen.update(PROTOCOLS)
        elif n in ALL_PROTOCOLS:
            chosen.add(n)
        else:
            raise ValueError(f"unknown protocol {n!r}: use one or more of {', '.join(ALL_PROTOCOLS)} "
                             f"(comma-separated), all (= {','.join(PROTOCOLS)}) or all,native")
    return tuple(p for p in ALL_PROTOCOLS if p in chosen)


def prompt_digest(prompts: Sequence[Prompt]) -> str:
    """One sha256 over every rendered prompt (by item id): equal digests mean identical prompts."""
    return digest_of_prompt_hashes((p.item_id, p.sha256) for p in prompts)


def digest_of_prompt_hashes(pairs: Iterable[tuple[str, str]]) -> str:
    """`prompt_digest` from (item id, prompt sha256) pairs, e.g. read back from a results file's records."""
    h = hashlib.sha256()
    for item, sha in sorted(pairs):
        h.update(f"{item}\t{sha}\n".encode("utf-8"))
    return h.hexdigest()


# ----------------------------------------------------------------------------- call formats

def format_call(call: Call, protocol: str) -> str:
    """The canonical text of one call in a protocol (what the system prompt asks the model to write; for
    `native`, the JSON object that templates and APIs carry inside their own tool-call markup). ValueError
    for an unknown protocol."""
    return protocol_named(protocol).write_call(call)


# The calling policy (SPEC §2), the same words in every protocol. Kept one rule a line, exactly as the model
# reads it (wrapping the source would change the prompt and every prompt_sha256), hence the E501 exemption.
RULES = """Rules:
1. Use a tool whenever one of your tools can do what the user asks: calculating, converting units or currencies, translating, looking up current information (weather, local time, the web) and taking actions (timers, notes). Then reply with the call only: exactly one call and no other text.
2. If a tool is needed but the user has not given a required argument, do not call it and do not guess: ask the user a short question for the missing information.
3. Answer in plain text, without any tool call, when no tool is needed (greetings, opinions, and well-known facts such as capitals, authors, historical dates, definitions or scientific facts: you know these, do not search for them), when the user asks you not to use tools, or when none of your tools can do what the user asks: then say that you cannot, except for a translation when you have no translate tool, which you write yourself. Never pretend to have done something you cannot do."""  # noqa: E501 - verbatim prompt text, a rule a line


def system_prompt(protocol: str, tool_names: Sequence[str], *, tools: Toolbox = TOOLS) -> str:
    """The system prompt for a protocol and a set of offered tools (deterministic text): the tools' schemas
    (`tools`' declarations of `tool_names`), the protocol's call format and the policy; where the protocol
    passes the tools through the template/API (`native`), the policy only (the tools travel as
    `Prompt.tools`)."""
    p = protocol_named(protocol)
    if p.tools_in_api:
        return f"You are a helpful assistant with access to tools.\n\n{RULES}"
    decl = "\n".join(json.dumps(tools[t].json_schema(), ensure_ascii=False) for t in tool_names)
    return (f"You are a helpful assistant with access to these tools:\n{decl}\n\n"
            f"{p.format_text}\n\n{RULES}")


def tool_schemas(tool_names: Sequence[str], *, tools: Toolbox = TOOLS) -> tuple[dict, ...]:
    """The offered tools (`tools`' declarations of `tool_names`) in the OpenAI `tools` shape ({"type":
    "function", "function": schema}), which chat templates' `tools=` argument accepts too. A name the API
    refuses (a dot, over 64 characters) is declared by its reversible encoding (tooluse1.toolspec.api_name),
    which grading maps back to the tool."""
    return tuple({"type": "function", "function": {**tools[t].json_schema(), "name": api_name(t)}}
                 for t in tool_names)


def render_messages(case_messages: Sequence[dict], protocol: str) -> list[dict]:
    """Protocol-neutral history -> chat turns: user / assistant text, assistant call (`CallProtocol.history_call`:
    protocol text, or structured `tool_calls` where tools go through the template/API), `tool` result turns
    answering the call before them (`tool_call_id` call_1, call_2, ... in order)."""
    p = protocol_named(protocol)
    out: list[dict] = []
    n_calls = 0
    for m in case_messages:
        if m["role"] == "assistant" and "tool_call" in m:
            n_calls += 1
            tc = m["tool_call"]
            out.append(p.history_call(Call(tc["name"], dict(tc.get("arguments") or {})), f"call_{n_calls}"))
        elif m["role"] == "tool":
            out.append({"role": "tool", "tool_call_id": f"call_{n_calls}", "name": m.get("name", "tool"),
                        "content": m["content"]})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


def render(case: Any, protocol: str) -> Prompt:
    """The Prompt for one case in one protocol (accepts a Case or a corpus dict), declaring the case's offered
    tools (Case.toolbox: its own, where it declares tools itself)."""
    from tooluse1.corpus import as_case
    c = as_case(case)
    sys_text = system_prompt(protocol, c.tools, tools=c.toolbox)
    tools = tool_schemas(c.tools, tools=c.toolbox) if protocol_named(protocol).tools_in_api else ()
    messages = ({"role": "system", "content": sys_text}, *render_messages(c.messages, protocol))
    key_source = sys_text + json.dumps(list(tools), sort_keys=True)
    key = hashlib.sha256(key_source.encode("utf-8")).hexdigest()[:16]
    return Prompt(item_id=item_id(c.id, protocol), case_id=c.id, protocol=protocol,
                  messages=tuple(messages), shared_prefix_key=key, tools=tools)


def render_all(cases: Sequence[Any], protocols: Sequence[str]) -> list[Prompt]:
    """Prompts for every case x protocol, ordered by case then protocol."""
    return [render(c, p) for c in cases for p in protocols]
