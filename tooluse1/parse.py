"""Stage 4: raw model text -> Extraction(calls, label, prose). Public API: `extract`.

The chain of extractors (first one that finds a call wins), after thinking is removed:
  1. xml    `<function=NAME>` blocks with `<parameter=K>V</parameter>`, optionally in `<tool_call>`;
            several blocks, zero-parameter calls; values typed by the tool schema.
  2. json   bare, fenced or embedded in prose; `{"name", "arguments"|"parameters"}`, the OpenAI
            `tool_calls` / `{"function": {"name", "arguments": "<json string>"}}` shapes, lists of calls.
  3. plain  a line that starts with `TOOL name | k=v | k="v with | pipe"`. Only at the start of a line:
            a quoted, backticked or `>`-quoted line is prose (the quoted-call trap).
  4. bare   a JSON object of arguments alone whose keys fit exactly one tool's schema.
Labels: "call" (at least one call parsed), "malformed" (something that looks like a call attempt but
cannot be parsed — it never counts as an abstention), "text" (neither).
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tooluse1.tools import TOOLS, Call, canonical_tool_name, type_arguments

__all__ = ["Call", "Extraction", "extract", "strip_thinking"]


@dataclass
class Extraction:
    """What a model output contains: its calls (in order), a label, and the prose around them.

    `prose` is the text with thinking and call payloads removed (what answer constraints are checked on);
    `form` names the extractor that found the calls; `problem` says why a malformed output is malformed.
    """

    calls: list[Call]
    label: str                 # "call" | "malformed" | "text"
    prose: str
    form: str | None = None    # xml | json | plain | bare_args
    problem: str | None = None
    thinking: str = field(default="", repr=False)

    def as_dict(self) -> dict:
        return {"calls": [c.as_dict() for c in self.calls], "label": self.label, "prose": self.prose,
                "form": self.form, "problem": self.problem}


# ----------------------------------------------------------------------------- thinking

_THINK_PAIRS = [
    (r"<think>", r"</think>"), (r"<thinking>", r"</thinking>"), (r"<reasoning>", r"</reasoning>"),
    (r"\[THINK\]", r"\[/THINK\]"), (r"<\|begin_of_thought\|>", r"<\|end_of_thought\|>"),
    (r"<[|｜]begin[▁_ ]of[▁_ ]thinking[|｜]>", r"<[|｜]end[▁_ ]of[▁_ ]thinking[|｜]>"),
]
# An end marker with no opener (the opener was in the prompt, e.g. Qwen3 / DeepSeek-R1 templates).
_END_MARKERS = [r"</think>", r"</thinking>", r"\[/THINK\]", r"<[|｜]end[▁_ ]of[▁_ ]thinking[|｜]>",
                r"[|｜]end[▁_ ]of[▁_ ]thinking[|｜]"]
# Compiled once (grading throughput); _ANY_THINKING finds any opener or end marker, so text without one
# skips the loop below unchanged.
_THINK_BLOCKS = [re.compile(f"{o}(.*?)(?:{c}|$)", re.S) for o, c in _THINK_PAIRS]
_END_RES = [re.compile(e) for e in _END_MARKERS]
_ANY_THINKING = re.compile("|".join([o for o, _ in _THINK_PAIRS] + _END_MARKERS))


def strip_thinking(text: str) -> tuple[str, str]:
    """(text without thinking, the thinking). Closed blocks are cut; an opener never closed cuts to the
    end; a lone end marker cuts everything before it."""
    if not _ANY_THINKING.search(text):
        return text.strip(), ""
    thinking: list[str] = []
    for pattern in _THINK_BLOCKS:
        thinking += [m.group(1) for m in pattern.finditer(text)]
        text = pattern.sub("", text)
    for end_re in _END_RES:
        m = None
        for m in end_re.finditer(text):
            pass
        if m is not None:
            thinking.append(text[:m.start()])
            text = text[m.end():]
    return text.strip(), "\n".join(t.strip() for t in thinking if t.strip())


# ----------------------------------------------------------------------------- xml

_XML_FUNC = re.compile(r"<function=\s*([^>\s]+?)\s*>(.*?)</function>", re.S)
_XML_PARAM = re.compile(r"<parameter=\s*([^>\s]+?)\s*>(.*?)</parameter>", re.S)
_XML_MARKERS = re.compile(r"<tool_call>|</tool_call>|<function=|<parameter=")


def _strip_one_newline(value: str) -> str:
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value.strip()


def _after_last(text: str, closing: str) -> int:
    """The end of the last `closing` in text, or 0 when there is none."""
    k = text.rfind(closing)
    return k + len(closing) if k >= 0 else 0


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """text without the given (sorted, disjoint) spans."""
    out, last = [], 0
    for start, end in spans:
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    return "".join(out)


def _extract_xml(text: str) -> tuple[list[Call], list[tuple[int, int]], str | None]:
    if "<function=" not in text:
        return [], [], None
    calls: list[Call] = []
    spans: list[tuple[int, int]] = []
    # Matching stops at the last closing tag: an opener after it can never match, and trying each one
    # against the rest of the text made many unclosed openers quadratic (same for <parameter= below).
    for m in _XML_FUNC.finditer(text, 0, _after_last(text, "</function>")):
        name = canonical_tool_name(m.group(1))
        body = m.group(2)
        args: dict[str, Any] = {}
        param_spans = []
        for p in _XML_PARAM.finditer(body, 0, _after_last(body, "</parameter>")):
            args[p.group(1)] = _strip_one_newline(p.group(2))
            param_spans.append(p.span())
        leftover = _cut(body, param_spans)
        if "<parameter=" in leftover or "</parameter>" in leftover:
            return [], [], f"unbalanced <parameter> in <function={m.group(1)}>"
        calls.append(Call(m.group(1).strip(), type_arguments(name, args)))
        spans.append(m.span())
    if calls:
        # A second <function= opened but never closed means the output was cut or broken.
        rest = _cut(text, spans)
        if "<function=" in rest:
            return [], [], "a <function=...> block is not closed"
    return calls, spans, None


# ----------------------------------------------------------------------------- json

_JSON_DECODER = json.JSONDecoder()
_OPENER = re.compile(r"[{\[]")
_CALL_KEYS = ("name", "function", "tool_calls", "tool", "tool_name")
_JSONISH_CALL = re.compile(r"\{\s*[\"'](name|function|tool_calls|tool_name|tool|arguments)[\"']\s*:")


# Characters the Python-literal fallback may scan per text, all starts together. Each failed start can
# scan to the end of the text, so without a budget `{'a':` * 20000 took minutes (quadratic); real
# outputs never come near it.
_LITERAL_SCAN_BUDGET = 200_000
# Failed decode attempts per text before the scan gives up. A failed json attempt costs O(length of text)
# (the decoder's error position and recursion), so `[` * 100000 took 30 s; real outputs have a few dozen
# braces. What the scan has found by then still counts; a `{"name": ...` after it makes the output malformed.
_MAX_FAILED_DECODES = 500


def _json_compatible(value: Any) -> bool:
    """Only what JSON can hold (str keys; str/int/float/bool/None/list/dict values): a Python literal
    with sets, bytes, complex or tuple keys is not a call and would break the results file."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_compatible(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_compatible(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _decode_at(text: str, i: int, budget: list[int] | None = None) -> tuple[Any, int] | None:
    try:
        return _JSON_DECODER.raw_decode(text, i)
    except (ValueError, RecursionError):
        # ValueError covers JSONDecodeError and also an integer literal over Python's 4300-digit limit,
        # which raw_decode raises as a plain ValueError (it used to escape extract()).
        pass
    if text[i] != "{":
        return None
    if budget is not None and budget[0] <= 0:
        return None
    span = _balanced_span(text, i)
    if budget is not None:
        budget[0] -= (span or len(text)) - i
    if span is None:
        return None
    try:
        value = ast.literal_eval(text[i:span])
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    return (value, span) if isinstance(value, dict) and _json_compatible(value) else None


def _balanced_span(text: str, i: int) -> int | None:
    """The end of the brace-balanced span that starts at text[i] == "{" (quotes respected), or None."""
    # Python-literal dicts ({'name': 'calc', ...}) are a common near-JSON; find the balanced span.
    depth, j, quote = 0, i, None
    while j < len(text):
        ch = text[j]
        if quote:
            if ch == "\\":
                j += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


def _json_values(text: str) -> list[tuple[Any, int, int]]:
    """Every top-level JSON (or Python-literal) object/array in text, with its span."""
    out: list[tuple[Any, int, int]] = []
    budget = [_LITERAL_SCAN_BUDGET]
    failures = 0
    i = 0
    while True:
        m = _OPENER.search(text, i)   # jump to the next "{" or "[" (same scan as char by char, faster)
        if m is None or failures >= _MAX_FAILED_DECODES:
            return out
        i = m.start()
        found = _decode_at(text, i, budget)
        if found is not None and isinstance(found[0], (dict, list)):
            out.append((found[0], i, found[1]))
            i = found[1]
            continue
        failures += 1
        i += 1


_CALL_OBJECT_KEYS = frozenset({"name", "tool", "tool_name", "function", "arguments", "parameters", "args",
                               "input", "id", "type", "call_id"})


class _BadCall(Exception):
    pass


def _call_from_obj(obj: Any) -> list[Call] | None:
    """Interpret a JSON value as call(s); None if it is not call-shaped; _BadCall if call-shaped but broken."""
    if isinstance(obj, list):
        if not obj:
            return None
        parts = [_call_from_obj(x) for x in obj]
        if any(p is None for p in parts):
            return None
        return [c for p in parts for c in p]  # type: ignore[union-attr]
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("tool_calls"), list):
        return _call_from_obj(obj["tool_calls"]) or None
    if isinstance(obj.get("function"), dict):
        return _call_from_obj(obj["function"])
    name = next((obj[k] for k in ("name", "tool", "tool_name", "function") if isinstance(obj.get(k), str)), None)
    if name is None:
        return None
    args: Any = next((obj[k] for k in ("arguments", "parameters", "args", "input") if k in obj), {})
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except (ValueError, RecursionError) as e:
            # ValueError, not only JSONDecodeError: a 5000-digit number or deep nesting in the string
            # raised out of extract() before.
            why = e.msg if isinstance(e, json.JSONDecodeError) else type(e).__name__
            raise _BadCall(f"arguments of {name!r} are a string that is not JSON ({why})") from None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise _BadCall(f"arguments of {name!r} are not an object")
    if not _CALL_OBJECT_KEYS.issuperset(obj) and canonical_tool_name(name) not in TOOLS:
        return None  # e.g. {"name": "Alice", "age": 30}: data, not a call
    tool = canonical_tool_name(name)
    return [Call(name, type_arguments(tool, args))]


def _extract_json(text: str) -> tuple[list[Call], list[tuple[int, int]], str | None]:
    calls: list[Call] = []
    spans: list[tuple[int, int]] = []
    for value, start, end in _json_values(text):
        try:
            found = _call_from_obj(value)
        except _BadCall as e:
            return [], [], str(e)
        if found:
            calls += found
            spans.append((start, end))
    return calls, spans, None


def _extract_bare_args(text: str) -> tuple[list[Call], list[tuple[int, int]]]:
    for value, start, end in _json_values(text):
        if not isinstance(value, dict) or not value:
            continue
        keys = set(value)
        fits = [t for t in TOOLS.values() if keys <= set(t.param_index) and set(t.required) <= keys]
        if len(fits) == 1:
            return [Call(fits[0].name, type_arguments(fits[0].name, value))], [(start, end)]
    return [], []


# ----------------------------------------------------------------------------- plain

# "TOOL RESULT" lines echo the history's tool results; they are not calls.
_PLAIN_LINE = re.compile(r"^[ \t]*TOOL:?[ \t]+(?!RESULT\b)(.*)$", re.M)
_PLAIN_NAME = re.compile(r"^([A-Za-z_][\w.\-]*)\s*(.*)$", re.S)
_PLAIN_PAIR = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*(\"(?:[^\"\\]|\\.)*\"|[^|]*?)\s*(?:\||$)")


def _extract_plain(text: str) -> tuple[list[Call], list[tuple[int, int]], str | None]:
    if "TOOL" not in text:
        return [], [], None
    calls: list[Call] = []
    spans: list[tuple[int, int]] = []
    for m in _PLAIN_LINE.finditer(text):
        head = _PLAIN_NAME.match(m.group(1).strip())
        if not head:
            return [], [], f"cannot read a tool name in line {m.group(0).strip()!r}"
        name, rest = head.group(1), head.group(2).strip()
        args: dict[str, Any] = {}
        if rest:
            if not rest.startswith("|"):
                return [], [], f"expected '|' after the tool name in {m.group(0).strip()!r}"
            rest = rest[1:]
            pos = 0
            while pos < len(rest):
                pm = _PLAIN_PAIR.match(rest, pos)
                if not pm or pm.end() == pos:
                    return [], [], f"cannot read 'key=value' in {m.group(0).strip()!r}"
                raw = pm.group(2)
                if raw.startswith('"'):
                    if len(raw) < 2 or not raw.endswith('"'):
                        # An opened quote never closed: the old raw[1:-1] cut the value's last letter
                        # ('text="unterminated' -> 'unterminate') and called it a call.
                        return [], [], f"unterminated quoted value in {m.group(0).strip()!r}"
                    try:
                        raw = json.loads(raw)
                    except json.JSONDecodeError:
                        raw = raw[1:-1]
                args[pm.group(1)] = raw
                pos = pm.end()
        calls.append(Call(name, type_arguments(canonical_tool_name(name), args)))
        spans.append(m.span())
    return calls, spans, None


# ----------------------------------------------------------------------------- chain

def _remove_spans(text: str, spans: list[tuple[int, int]]) -> str:
    out, last = [], 0
    for start, end in sorted(spans):
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    rest = _WRAPPERS.sub("", "".join(out))
    return _BLANK_LINES.sub("\n\n", rest).strip()


_WRAPPERS = re.compile(r"</?tool_call>|```[a-zA-Z]*")
_BLANK_LINES = re.compile(r"\n{3,}")
_TOOL_LINE = re.compile(r"^[ \t]*TOOL\b(?!\s+RESULT\b)", re.M)


def _looks_like_call_attempt(text: str) -> str | None:
    if _XML_MARKERS.search(text):
        return "call markup (<tool_call>/<function=/<parameter=) that does not parse"
    if _TOOL_LINE.search(text):
        return "a TOOL line that does not parse"
    m = _JSONISH_CALL.search(text)
    if m:
        return "a JSON call that does not parse"
    return None


def extract(text: str, protocol: str | None = None) -> Extraction:
    """Parse a model output into calls, a label and prose. Never raises on any string input.

    `protocol` is accepted for API stability and recorded by callers; every protocol's format is
    recognised in every protocol, because a model that answers in another well-formed format still
    made (or did not make) a call, and the benchmark measures that decision and its arguments.
    """
    text = text if isinstance(text, str) else ""
    body, thinking = strip_thinking(text)
    problem: str | None = None
    for form, fn in (("xml", _extract_xml), ("json", _extract_json), ("plain", _extract_plain)):
        calls, spans, bad = fn(body)
        if calls:
            return Extraction(calls, "call", _remove_spans(body, spans), form=form, thinking=thinking)
        problem = problem or bad
    # A bare argument object counts only when there is no broken call object around it: in a truncated
    # `{"name": "get_weather", "arguments": {"city": "Berlin"}` the inner object fits get_weather, but the
    # output is a call that does not parse (malformed), not a well-formed bare-arguments call.
    if problem is None and not _JSONISH_CALL.search(body):
        calls, spans = _extract_bare_args(body)
        if calls:
            return Extraction(calls, "call", _remove_spans(body, spans), form="bare_args", thinking=thinking)
    problem = problem or _looks_like_call_attempt(body)
    if problem:
        return Extraction([], "malformed", body, problem=problem, thinking=thinking)
    return Extraction([], "text", body, thinking=thinking)
