"""`python -m tooluse1 import FORMAT SOURCE -o DIR`: other benchmarks' items (and your own chat logs) as a suite.

Each importer reads the user's own copy of the source and writes a suite folder (tooluse1.suite): an empty
`tools.json` (every case declares its tools inline, as the source gives them per item, so one name may be
defined differently by two items) and `cases/<format>.yaml`. Tool names, types and values stay as written.

    bfcl       a BFCL question file (JSON lines: `id`, `question`, `function`) and its possible-answer file
               (`possible_answer/<same name>` beside it, or `--answers FILE`). Categories simple, multiple,
               irrelevance and the live single-call ones (live_simple, live_multiple, live_irrelevance).
               A list of acceptable values becomes `one_of`, `""` among them an argument that may be left
               out; an irrelevance item is "no call, any non-empty answer" (BFCL credits any non-call
               there). The parallel categories expect several calls in one answer and are refused (SPEC
               keeps exactly one call).
    when2call  NVIDIA When2Call's test file (`when2call_test_llm_judge.jsonl`): tool_call, request_for_info
               and cannot_answer become call, clarify and refusal cases; the missing argument of a
               request_for_info item is its `held_out_param` (the required parameter whose detail
               `orig_question` had and `question` lost).
    openai     chat logs, JSON lines of `{"messages": [...], "tools": [...], "expected": {assistant message},
               "label": call|clarify|refusal|answer}`: the expected message's tool call is the call; without
               a label, a reply without calls is "no call, any answer".

An item that cannot become a case (a type the schema reader does not know, an expected value its own
schema refuses) is left out and listed in the report with its reason; nothing is renamed.
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import yaml

from tooluse1.corpus import validate_case
from tooluse1.matching import LEFT_OUT, ONE_OF
from tooluse1.errors import ToolUse1Error
from tooluse1.toolspec import Tool, function_of

__all__ = ["FORMATS", "ImportError_", "ImportReport", "import_items"]


class ImportError_(ToolUse1Error):
    """The source cannot be imported; the message names the file, line and what to do."""


@dataclass
class ImportReport:
    """What an import wrote: the cases by expectation kind, and each item left out with its reason."""

    written: dict[str, int] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)

    def line(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.written.items()))
        return f"{sum(self.written.values())} cases ({kinds or 'none'}); {len(self.left_out)} left out"


def _rows(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) of a JSON-lines file (a JSON array is read too); ImportError_ at a bad line."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        for i, obj in enumerate(json.loads(text), 1):
            yield i, obj
        return
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise ImportError_(f"{path}:{i}: not a JSON line ({e.msg})") from None
            if not isinstance(obj, dict):
                raise ImportError_(f"{path}:{i}: each line must be a JSON object")
            yield i, obj


def _loose(value: Any) -> Any:
    """A field some sources write as a string holding JSON or a Python literal (When2Call's `answers`,
    `tools`), read back; anything else as is."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value


def _messages(turns: list) -> list[dict]:
    """A source's chat turns as case messages: a system message's text goes before the first user message
    (the benchmark's own system prompt comes first); assistant calls become `tool_call` turns."""
    out: list[dict] = []
    system = []
    for m in turns:
        role, content = m.get("role"), m.get("content")
        if role == "system":
            system.append(str(content))
        elif role == "assistant" and m.get("tool_calls"):
            fn = m["tool_calls"][0].get("function", {})
            out.append({"role": "assistant", "tool_call": {"name": fn.get("name"),
                                                          "arguments": _loose(fn.get("arguments")) or {}}})
        elif role == "tool":
            out.append({"role": "tool", "name": m.get("name", "tool"), "content": str(content)})
        elif role in ("user", "assistant"):
            out.append({"role": role, "content": str(content)})
    if system:
        first = next((m for m in out if m["role"] == "user"), None)
        if first is not None:
            first["content"] = "\n\n".join(system + [first["content"]])
    return out


def _typed(tool: Tool, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Expected values written as their parameter's type ("5" for an integer is 5), where the source wrote
    them as strings; a one-of's alternatives each."""
    def one(name: str, value: Any) -> Any:
        param = tool.param_index.get(name)
        if param is None or value is None or value == "":
            return value
        typed = param.comparison.accept(value)
        return typed if typed is not None and param.comparison.check_expected(param, typed) is None else value
    out = {}
    for k, v in arguments.items():
        alts = v.get(ONE_OF) if isinstance(v, dict) and set(v) == {ONE_OF} else None
        out[k] = {ONE_OF: [one(k, a) for a in alts]} if isinstance(alts, list) else one(k, v)
    return out


class _Writer:
    """Collects cases, each validated as the suite loader will (ids unique), and writes the suite."""

    def __init__(self) -> None:
        self.cases: list[dict] = []
        self.report = ImportReport()
        self.ids: set[str] = set()

    def add(self, where: str, make: Callable[..., dict], *args: Any) -> None:
        """Add the case `make(*args)` builds, unless building or validating it fails (then listed)."""
        try:
            case = make(*args)
        except ValueError as e:          # a declaration the schema reader refuses
            self.report.left_out.append(f"{where}: {str(e).splitlines()[0]}")
            return
        cid = str(case["id"])
        while cid in self.ids:
            cid += "_"
        case["id"] = cid
        problems = validate_case(case)
        if problems:
            self.report.left_out.append(f"{where}: {case['id']}: {problems[0]}")
            return
        self.ids.add(cid)
        self.cases.append(case)
        kind = next(k for k in ("call", "clarify", "no_call") if k in case["expect"])
        self.report.written[kind] = self.report.written.get(kind, 0) + 1

    def skip(self, where: str, why: str) -> None:
        self.report.left_out.append(f"{where}: {why}")

    def write(self, out: Path, name: str) -> None:
        (out / "cases").mkdir(parents=True, exist_ok=True)
        (out / "tools.json").write_text("[]\n", encoding="utf-8")
        text = yaml.safe_dump(self.cases, allow_unicode=True, sort_keys=False, width=120)
        (out / "cases" / f"{name}.yaml").write_text(f"# Imported by `python -m tooluse1 import {name}`.\n{text}",
                                                    encoding="utf-8")


def _call_case(cid: str, messages: list, tools: list[dict], call: Mapping[str, Any]) -> dict:
    own = {function_of(t).get("name"): t for t in tools}
    tool = Tool.from_dict(own[call["name"]]) if call["name"] in own else None
    args = _typed(tool, call.get("arguments") or {}) if tool is not None else dict(call.get("arguments") or {})
    return {"id": cid, "lang": "en", "category": call["name"], "tools": tools, "messages": messages,
            "expect": {"call": {"name": call["name"], "arguments": args}}}


def _clarify(cid: str, messages: list, tools: list[dict], missing: list[str], lang: str = "en") -> dict:
    return {"id": cid, "lang": lang, "category": "clarification", "tools": tools, "messages": messages,
            "expect": {"clarify": True, "missing": missing}}


def _negative(cid: str, messages: list, tools: list[dict], refusal: bool = False) -> dict:
    expect: dict[str, Any] = {"no_call": True}
    if refusal:
        expect["refusal"] = True
    return {"id": cid, "lang": "en", "category": "negative", "tools": tools, "messages": messages,
            "expect": expect}


# ----------------------------------------------------------------------------- BFCL

_BFCL_SINGLE = ("live_simple", "live_multiple", "live_irrelevance", "simple", "multiple", "irrelevance")
_BFCL_PARALLEL = ("live_parallel_multiple", "live_parallel", "parallel_multiple", "parallel")


def _bfcl_category(item_id: str) -> str:
    return next((c for c in (*_BFCL_PARALLEL, *_BFCL_SINGLE) if item_id.startswith(c + "_")), "")


def _bfcl_values(params: Mapping[str, Any]) -> dict[str, Any]:
    """BFCL's possible answer (each argument a list of acceptable values, a dict argument's keys the same,
    recursively) as expected arguments: one value as itself, several as a one-of; an argument whose only
    values are "" or null is left out of the expectation (any value, or none, passes)."""
    def value(v: Any) -> Any:       # a dict's keys hold their own lists of values, in a list's items too
        return _bfcl_values(v) if isinstance(v, dict) else [value(x) for x in v] if isinstance(v, list) else v
    out: dict[str, Any] = {}
    for name, alts in params.items():
        alts = [value(a) for a in (alts if isinstance(alts, list) else [alts])]
        if all(a in LEFT_OUT for a in alts):
            continue
        out[name] = alts[0] if len(alts) == 1 else {ONE_OF: alts}
    return out


def _import_bfcl(source: Path, answers: Path | None, w: _Writer) -> None:
    rows = list(_rows(source))
    first = str(rows[0][1].get("id", "")) if rows else ""
    if _bfcl_category(first) in _BFCL_PARALLEL:
        raise ImportError_(f"{source}: BFCL's parallel categories expect several calls in one answer; "
                           f"ToolUse.1 grades exactly one call per case (SPEC §3.2): import simple, multiple, "
                           f"irrelevance or a live single-call category")
    answer_path = answers or source.parent / "possible_answer" / source.name
    truth: dict[str, Any] = {}
    if answer_path.is_file():
        truth = {str(a.get("id")): a.get("ground_truth") for _, a in _rows(answer_path)}
    for n, item in rows:
        where = f"{source}:{n}"
        iid = str(item.get("id", n))
        category = _bfcl_category(iid)
        if category not in _BFCL_SINGLE:
            w.skip(where, f"{iid}: not a single-call BFCL category")
            continue
        turns = item.get("question") or []
        messages = _messages(turns[0] if turns and isinstance(turns[0], list) else turns)
        tools = [dict(f) for f in item.get("function") or []]
        if category.endswith("irrelevance"):
            w.add(where, _negative, iid, messages, tools)
            continue
        ground = truth.get(iid)
        if not ground:
            w.skip(where, f"{iid}: no possible answer (expected {answer_path})")
            continue
        ((name, params),) = ground[0].items()
        w.add(where, _call_case, iid, messages, tools, {"name": name, "arguments": _bfcl_values(params)})


# ----------------------------------------------------------------------------- When2Call

def _import_when2call(source: Path, answers: Path | None, w: _Writer) -> None:
    for n, item in _rows(source):
        where = f"{source}:{n}"
        iid = str(item.get("uuid") or item.get("source_id") or n)
        tools = [t if isinstance(t, dict) else _loose(t) for t in _loose(item.get("tools")) or []]
        messages = [{"role": "user", "content": str(item.get("question", ""))}]
        label = item.get("correct_answer")
        candidates = _loose(item.get("answers")) or {}
        if label == "tool_call":
            call = _loose(candidates.get("tool_call"))
            if not isinstance(call, dict) or "name" not in call:
                w.skip(where, f"{iid}: the tool_call answer is not a call object")
                continue
            w.add(where, _call_case, iid, messages, tools, call)
        elif label == "request_for_info":
            target = _loose(item.get("target_tool"))
            name = target.get("name") if isinstance(target, dict) else None
            param = item.get("held_out_param")
            if not name or not param:
                w.skip(where, f"{iid}: a request_for_info item needs target_tool and held_out_param")
                continue
            w.add(where, _clarify, iid, messages, tools, [f"{name}.{param}"])
        elif label == "cannot_answer":
            w.add(where, _negative, iid, messages, tools, True)
        else:
            w.skip(where, f"{iid}: unknown correct_answer {label!r}")


# ----------------------------------------------------------------------------- OpenAI chat logs

def _import_openai(source: Path, answers: Path | None, w: _Writer) -> None:
    for n, item in _rows(source):
        where = f"{source}:{n}"
        iid = str(item.get("id") or f"log.{n}")
        tools = [dict(t) for t in item.get("tools") or []]
        messages = _messages(item.get("messages") or [])
        expected = item.get("expected") or {}
        label = item.get("label")
        calls = expected.get("tool_calls") or []
        if label == "call" or (label is None and calls):
            if len(calls) != 1:
                w.skip(where, f"{iid}: a call item needs exactly one expected tool call, not {len(calls)}")
                continue
            fn = calls[0].get("function", {})
            w.add(where, _call_case, iid, messages, tools,
                  {"name": fn.get("name"), "arguments": _loose(fn.get("arguments")) or {}})
        elif label == "clarify":
            missing = item.get("missing")
            if not isinstance(missing, list) or not missing:
                w.skip(where, f"{iid}: a clarify item needs missing: [tool.param, ...]")
                continue
            w.add(where, _clarify, iid, messages, tools, missing, str(item.get("lang", "en")))
        elif label in ("refusal", "answer", None):
            w.add(where, _negative, iid, messages, tools, label == "refusal")
        else:
            w.skip(where, f"{iid}: unknown label {label!r} (call, clarify, refusal or answer)")


FORMATS: dict[str, Callable[[Path, Path | None, _Writer], None]] = {
    "bfcl": _import_bfcl, "when2call": _import_when2call, "openai": _import_openai}


def import_items(fmt: str, source: Path, out: Path, answers: Path | None = None) -> ImportReport:
    """Import `source` in format `fmt` into the suite folder `out`; ImportError_ with one message when the
    format is unknown, the source unreadable or of a kind SPEC cannot grade."""
    if fmt not in FORMATS:
        raise ImportError_(f"unknown import format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not source.is_file():
        raise ImportError_(f"{source}: no such file")
    if out.exists() and any(out.iterdir()):
        raise ImportError_(f"{out}: not empty; import into a new folder (-o DIR)")
    w = _Writer()
    FORMATS[fmt](source, answers, w)
    if not w.cases:
        raise ImportError_(f"{source}: no item could be imported:\n  " + "\n  ".join(w.report.left_out[:20]))
    w.write(out, fmt)
    return w.report
