"""Stage 1: cases/*.yaml -> validated Case objects; data/tooluse1.jsonl + data/manifest.json -> Cases.

The YAML files are the source of truth. `load_cases()` validates every case's schema and reports each
problem as `path:line: what is wrong`; `render_data()` gives the canonical bytes of data/ (sorted by id,
sorted keys, UTF-8, `\\n`), so rebuilding unchanged cases gives byte-identical files and `check_fresh()` can
tell a stale data/. Writing data/ (after grading every case's own reference) is `tooluse1.build`'s job:
this module imports nothing of grading or prompting.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterable

from tooluse1.answers import AnswerRequirement
from tooluse1.datafiles import first_stale, read_built
from tooluse1.errors import StaleCorpusError
from tooluse1.tools import TOOL_NAMES, TOOLS, Call
from tooluse1.types import (DIFFICULTIES, LANGS, NEGATIVE_KINDS, Difficulty, ExpectationKind, Lang,
                            NegativeKind)
from tooluse1.yamlload import EntryError, Problems, display_path, line_of, load_yaml_entries

SPEC_VERSION = "3.0.1"


def call_categories(tool_names: tuple[str, ...]) -> tuple[str, ...]:
    """The categories whose cases expect a call, for a corpus offering `tool_names`: one per tool, then
    `multi_step`."""
    return tool_names + ("multi_step",)


def categories(tool_names: tuple[str, ...]) -> tuple[str, ...]:
    """Every category of a corpus offering `tool_names`: the call categories, `negative`, `clarification`."""
    return call_categories(tool_names) + ("negative", "clarification")


CALL_CATEGORIES = call_categories(TOOL_NAMES)
CATEGORIES = categories(TOOL_NAMES)

# The corpus is package data: it installs with the package (pip install ., the wheel) and a checkout reads the
# same files. ROOT is the folder above the package: the repository in a checkout, site-packages when installed.
PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
CASES_DIR = PACKAGE_DIR / "cases"
DATA_DIR = PACKAGE_DIR / "data"
JSONL_NAME = "tooluse1.jsonl"
MANIFEST_NAME = "manifest.json"
_ID_RE = re.compile(r"^(?P<category>[a-z_]+)-(?P<lang>[a-z]{2})-(?P<num>\d{3})$")


class CorpusError(EntryError):
    """One or more invalid cases; `problems` holds `path:line: message` strings, all of them."""


@dataclass(frozen=True)
class Expectation:
    """What a correct answer looks like: one call (`call`), no call (`no_call`) or a question back (`clarify`).

    Text expectations carry what the answer must satisfy: facts (`answer_contains_all` items, each a tuple of
    alternatives; `answer_contains_any`), plausible wrong answers the answer must not assert
    (`answer_excludes`), whether a stated decline answers instead of the facts (`decline_answers`), a refusal
    (`refusal`, capability traps) or, for clarify cases, the required arguments the user left out (`missing`,
    "tool.param"), which the question must be about. `reference` is a right answer (the oracle's).
    """

    kind: ExpectationKind
    call: Call | None = None
    answer_contains_all: tuple[tuple[str, ...], ...] = ()
    answer_contains_any: tuple[str, ...] = ()
    answer_excludes: tuple[str, ...] = ()
    refusal: bool = False
    missing: tuple[str, ...] = ()
    reference: str | None = None
    decline_answers: bool = False     # a stated decline also answers instead of the facts (repeat-after-me)

    @property
    def answer(self) -> AnswerRequirement:
        """The requirement on a text answer (tooluse1.answers), for no-call and clarify expectations."""
        return AnswerRequirement(contains_all=self.answer_contains_all, contains_any=self.answer_contains_any,
                                 excludes=self.answer_excludes, refusal=self.refusal, ask_about=self.missing,
                                 decline_answers=self.decline_answers)

    def right_call(self) -> Call:
        """A call a right answer makes: the expected call, each argument as its comparison kind writes it (a
        `keywords` argument, web_search's query, which may list alternatives `a|b`, as a query a user would
        type: its first alternatives)."""
        assert self.call is not None
        params = TOOLS[self.call.name].param_index
        return Call(self.call.name, {k: params[k].comparison.written(v) for k, v in self.call.arguments.items()})

    def describe(self) -> str:
        """One line saying what a right answer is (failure messages, reports)."""
        if self.kind == "call":
            assert self.call is not None
            return f"call {self.call.name}({json.dumps(self.call.arguments, ensure_ascii=False)})"
        if self.kind == "clarify":
            return f"no call; a question back about {' or '.join(self.missing) or 'the missing argument'}"
        parts = []
        if self.answer_contains_all:
            parts.append("all of " + ", ".join(" | ".join(alts) for alts in self.answer_contains_all))
        if self.answer_contains_any:
            parts.append("any of " + " | ".join(self.answer_contains_any))
        if self.answer_excludes:
            parts.append("none of " + " | ".join(self.answer_excludes))
        if self.refusal:
            parts.append("a refusal, no claimed action")
        if self.decline_answers:
            parts.append("or a stated decline instead of the facts")
        return "no call; an answer with " + ("; ".join(parts) if parts else "any non-empty text")

    def as_dict(self) -> dict:
        """The JSONL form: only the fields that apply (an alternatives item of one string is written as a string)."""
        if self.kind == "call":
            assert self.call is not None
            return {"call": self.call.as_dict()}
        out: dict[str, Any] = {self.kind: True}
        if self.answer_contains_all:
            out["answer_contains_all"] = [alts[0] if len(alts) == 1 else list(alts)
                                          for alts in self.answer_contains_all]
        for key, value in (("answer_contains_any", self.answer_contains_any),
                           ("answer_excludes", self.answer_excludes), ("missing", self.missing)):
            if value:
                out[key] = list(value)
        if self.refusal:
            out["refusal"] = True
        if self.decline_answers:
            out["decline_answers"] = True
        if self.reference is not None:
            out["reference"] = self.reference
        return out

    @classmethod
    def from_dict(cls, exp: dict) -> "Expectation":
        """From the JSONL form (or a validated YAML mapping). Also reads 1.x files, whose constraints were
        plain string lists."""
        if "call" in exp:
            call = exp["call"]
            return cls("call", call=Call(call["name"], dict(call.get("arguments") or {})))
        return cls("no_call" if exp.get("no_call") else "clarify",
                   answer_contains_all=tuple(_alternatives(item) for item in exp.get("answer_contains_all") or ()),
                   answer_contains_any=tuple(str(x) for x in exp.get("answer_contains_any") or ()),
                   answer_excludes=tuple(str(x) for x in exp.get("answer_excludes") or ()),
                   refusal=bool(exp.get("refusal")), missing=tuple(exp.get("missing") or ()),
                   reference=exp.get("reference"), decline_answers=bool(exp.get("decline_answers")))


def _alternatives(item: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in item) if isinstance(item, (list, tuple)) else (str(item),)


@dataclass(frozen=True)
class Case:
    """One authored case. `tools` is always the explicit tuple of offered tool names."""

    id: str
    lang: Lang
    category: str
    difficulty: Difficulty
    tools: tuple[str, ...]
    messages: tuple[dict, ...]
    expect: Expectation
    kind: NegativeKind | None = None            # negatives only
    source: str = field(default="", compare=False)   # "cases/en/x.yaml:12", for messages

    @property
    def expectation(self) -> ExpectationKind:
        return self.expect.kind

    @property
    def cluster(self) -> str:
        """The public case this case is (its id), or draws from (`calculator-en-001.d2` -> `calculator-en-001`):
        the cluster of clustered intervals and paired tests, since draws of one case are not independent."""
        return self.id.split(".d", 1)[0]

    def as_dict(self) -> dict:
        """The JSONL form (also accepted by `Case.from_dict` and by `grade()`)."""
        d: dict[str, Any] = {"id": self.id, "lang": self.lang, "category": self.category,
                             "difficulty": self.difficulty, "tools": list(self.tools),
                             "messages": [dict(m) for m in self.messages], "expect": self.expect.as_dict()}
        if self.kind is not None:
            d["kind"] = self.kind
        return d

    @classmethod
    def from_dict(cls, d: dict, source: str = "") -> "Case":
        """Build a Case from a JSONL dict (or an already-validated YAML mapping). No validation here."""
        tools = d.get("tools", "all")
        return cls(id=d["id"], lang=d["lang"], category=d["category"], difficulty=d["difficulty"],
                   tools=TOOL_NAMES if tools == "all" else tuple(tools),
                   messages=tuple(dict(m) for m in d["messages"]), expect=Expectation.from_dict(d["expect"]),
                   kind=d.get("kind"), source=source)


def as_case(case: "Case | dict") -> Case:
    """A Case from a Case or a corpus JSONL dict (the public grading API accepts both)."""
    return case if isinstance(case, Case) else Case.from_dict(case)


# ----------------------------------------------------------------------------- validation



def check_arguments(tool: str, args: Any, where: str, line: int, probs: Problems) -> None:
    """Report (to `probs`) what is wrong with authored arguments of `tool`: a missing required argument, an
    unknown one, a value of the wrong type or not in canonical form. Shared with the SPIN scenarios."""
    if not isinstance(args, dict):
        probs.add(where, line, f"arguments of {tool} must be a mapping")
        return
    spec = TOOLS[tool]
    for req in spec.required:
        if req not in args:
            probs.add(where, line, f"{tool}: missing required argument {req!r}")
    for name, value in args.items():
        p = spec.param_index.get(name)
        if p is None:
            probs.add(where, line, f"{tool}: unknown argument {name!r} (known: {', '.join(spec.param_index)})")
            continue
        wrong = p.comparison.check_expected(p, value)
        if wrong is not None:
            probs.add(where, line, f"{tool}.{name}: {wrong}")


def _check_messages(msgs: Any, where: str, line: int, probs: Problems, tool_names: tuple[str, ...]) -> None:
    if not isinstance(msgs, list) or not msgs:
        probs.add(where, line, "messages must be a non-empty list")
        return
    pending_call: str | None = None
    for i, m in enumerate(msgs):
        ml = line_of(m, default=line)
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant", "tool"):
            probs.add(where, ml, f"malformed history: message {i + 1} needs role user, assistant or tool")
            continue
        role = m["role"]
        if role == "assistant" and "tool_call" in m:
            tc = m["tool_call"]
            if not isinstance(tc, dict) or tc.get("name") not in tool_names:
                probs.add(where, ml, f"malformed history: message {i + 1} calls an unknown tool "
                                     f"{tc.get('name') if isinstance(tc, dict) else tc!r}")
                continue
            check_arguments(tc["name"], tc.get("arguments", {}), where, line_of(tc, default=ml), probs)
            pending_call = tc["name"]
        elif role == "tool":
            if pending_call is None:
                probs.add(where, ml, f"malformed history: tool result {i + 1} does not follow an assistant tool_call")
            elif m.get("name") != pending_call:
                probs.add(where, ml, f"malformed history: tool result named {m.get('name')!r} answers a call "
                                     f"of {pending_call!r}")
            if not isinstance(m.get("content"), str) or not m["content"].strip():
                probs.add(where, ml, f"malformed history: tool result {i + 1} needs a content string")
            pending_call = None
        else:
            if not isinstance(m.get("content"), str) or not m["content"].strip():
                probs.add(where, ml, f"malformed history: message {i + 1} ({role}) needs a non-empty content string")
            if pending_call is not None:
                probs.add(where, ml, f"malformed history: the call of {pending_call!r} has no tool result")
                pending_call = None
    last = msgs[-1]
    if isinstance(last, dict) and last.get("role") != "user":
        probs.add(where, line_of(last, default=line), "malformed history: the last message must be the user's")


def _validate_entry(raw: Any, where: str, probs: Problems, tool_names: tuple[str, ...] = TOOL_NAMES) -> Case | None:
    """Check one YAML mapping of a corpus whose tools are `tool_names` (registered in TOOLS; `tools: all`
    offers them all); on success return the Case with its offered tools listed (problems go to `probs`)."""
    line = line_of(raw)
    if not isinstance(raw, dict):
        probs.add(where, line, "a case must be a mapping")
        return None
    n_before = len(probs.items)
    for key in ("id", "lang", "category", "difficulty", "tools", "messages", "expect"):
        if key not in raw:
            probs.add(where, line, f"missing field {key!r}")
    unknown = set(raw) - {"id", "lang", "category", "difficulty", "kind", "tools", "messages", "expect", "notes"}
    for key in sorted(unknown):
        probs.add(where, line_of(raw, key), f"unknown field {key!r}")
    if len(probs.items) > n_before:
        return None
    cid, lang, cat = raw["id"], raw["lang"], raw["category"]
    m = _ID_RE.match(str(cid))
    if lang not in LANGS:
        probs.add(where, line_of(raw, "lang"), f"lang must be one of {LANGS}, got {lang!r}")
    if cat not in categories(tool_names):
        probs.add(where, line_of(raw, "category"), f"unknown category {cat!r} "
                                                   f"(known: {', '.join(categories(tool_names))})")
    if not m or m["category"] != cat or m["lang"] != lang:
        probs.add(where, line_of(raw, "id"), f"id {cid!r} must look like {cat}-{lang}-NNN")
    if raw["difficulty"] not in DIFFICULTIES:
        probs.add(where, line_of(raw, "difficulty"), f"difficulty must be one of {DIFFICULTIES}")
    kind = raw.get("kind")
    if cat == "negative" and kind not in NEGATIVE_KINDS:
        probs.add(where, line_of(raw, "kind"), f"negative cases need kind: one of {NEGATIVE_KINDS}")
    if cat != "negative" and kind is not None:
        probs.add(where, line_of(raw, "kind"), "kind is only for negative cases")
    tools = raw["tools"]
    if tools == "all":
        tools = list(tool_names)
    if not isinstance(tools, list) or not tools:
        probs.add(where, line_of(raw, "tools"), "tools must be 'all' or a non-empty list of tool names")
        tools = []
    for t in tools:
        if t not in tool_names:
            probs.add(where, line_of(raw, "tools"), f"unknown tool {t!r} (known: {', '.join(tool_names)})")
    _check_messages(raw["messages"], where, line_of(raw, "messages"), probs, tool_names)

    exp = raw["expect"]
    el = line_of(raw, "expect")
    shapes = [k for k in ("call", "no_call", "clarify") if isinstance(exp, dict) and exp.get(k)]
    if len(shapes) != 1:
        probs.add(where, el, "expect must have exactly one of call, no_call: true, clarify: true")
        return None
    shape = shapes[0]
    wanted = "call" if cat in call_categories(tool_names) else ("no_call" if cat == "negative" else "clarify")
    if shape != wanted:
        probs.add(where, el, f"category {cat} expects {wanted}, not {shape}")
    if shape == "call":
        call = exp["call"]
        if not isinstance(call, dict) or call.get("name") not in tool_names:
            probs.add(where, el, f"unknown tool {call.get('name') if isinstance(call, dict) else call!r}")
            return None
        if call["name"] not in tools:
            probs.add(where, el, f"expected tool {call['name']!r} is not among the offered tools")
        if cat in tool_names and call["name"] != cat:
            probs.add(where, el, f"a {cat} case must expect a call of {cat}")
        check_arguments(call["name"], call.get("arguments"), where, line_of(call, default=el), probs)
        extra = set(exp) - {"call"}
        if extra:
            probs.add(where, el, f"a call expectation takes no {sorted(extra)}")
    else:
        _check_text_expectation(exp, shape, kind, tools, where, el, probs)
    if len(probs.items) > n_before:
        return None
    return Case.from_dict({**raw, "tools": tools}, source=f"{where}:{line}")


_TEXT_FIELDS = {"no_call": {"answer_contains_all", "answer_contains_any", "answer_excludes", "refusal", "reference",
                            "decline_answers"},
                "clarify": {"missing", "reference"}}


def _is_phrase(x: Any) -> bool:
    return isinstance(x, (str, int, float)) and not isinstance(x, bool) and bool(str(x).strip())


def _check_text_expectation(exp: dict, shape: str, kind: str | None, tools: list[str], where: str, el: int,
                            probs: Problems) -> None:
    """The answer requirement of a no-call or clarify case: known fields of the right types, and what each
    kind needs (SPEC §3.3): a fact for knowledge and instruction traps, a refusal or a fact for capability
    traps, the missing required arguments (of an offered tool) for clarify cases; always a reference."""
    extra = set(exp) - {shape} - _TEXT_FIELDS[shape]
    if extra:
        probs.add(where, el, f"unknown expect fields {sorted(extra)} for a {shape} case "
                             f"(known: {', '.join(sorted(_TEXT_FIELDS[shape]))})")
    for key in ("answer_contains_any", "answer_excludes", "missing"):
        val = exp.get(key, [])
        if not isinstance(val, list) or not all(_is_phrase(x) for x in val):
            probs.add(where, line_of(exp, key, el), f"{key} must be a list of non-empty strings")
    all_items = exp.get("answer_contains_all", [])
    if not isinstance(all_items, list) or not all(
            _is_phrase(x) or (isinstance(x, list) and x and all(_is_phrase(y) for y in x)) for x in all_items):
        probs.add(where, line_of(exp, "answer_contains_all", el),
                  "answer_contains_all must be a list whose items are strings or lists of alternative strings")
    for key in ("refusal", "decline_answers"):
        if key in exp and not isinstance(exp[key], bool):
            probs.add(where, line_of(exp, key, el), f"{key} must be true or false")
    if exp.get("decline_answers") and not (exp.get("answer_contains_all") or exp.get("answer_contains_any")):
        probs.add(where, line_of(exp, "decline_answers", el), "decline_answers needs the facts it is an alternative to")
    if not isinstance(exp.get("reference"), str) or not exp["reference"].strip():
        probs.add(where, el, f"{shape} cases need a reference answer")
    has_facts = bool(exp.get("answer_contains_all") or exp.get("answer_contains_any"))
    if shape == "clarify":
        missing = exp.get("missing")
        if not missing:
            probs.add(where, el, "clarify cases need missing: [tool.param, ...] (the required arguments the user "
                                 "left out)")
        for item in missing if isinstance(missing, list) else []:
            tool, _, param = str(item).partition(".")
            if tool not in TOOLS or param not in TOOLS[tool].required:
                probs.add(where, line_of(exp, "missing", el),
                          f"missing: {item!r} is not a required argument of a tool (write tool.param, e.g. "
                          f"get_weather.city)")
            elif tool not in tools:
                probs.add(where, line_of(exp, "missing", el), f"missing: {item!r} names a tool that is not offered")
    elif kind in ("knowledge", "instruction_trap") and not has_facts:
        probs.add(where, el, f"{kind} cases need answer_contains_all or answer_contains_any (the answer asked for)")
    elif kind == "capability_trap" and not (has_facts or exp.get("refusal") is True):
        probs.add(where, el, "capability_trap cases need refusal: true, or the facts of an answer the model can "
                             "give without the missing tool")
    elif exp.get("refusal") and kind != "capability_trap":
        probs.add(where, line_of(exp, "refusal", el), "refusal: true is only for capability_trap cases")



def load_cases(cases_dir: Path = CASES_DIR, tool_names: tuple[str, ...] = TOOL_NAMES) -> list[Case]:
    """Load and validate every case under cases_dir, a corpus whose tools are `tool_names` (the built-in
    ones by default; a suite's, tooluse1.suite); raise CorpusError listing all problems."""
    return load_yaml_entries(cases_dir, partial(_validate_entry, tool_names=tool_names), "case", CorpusError)


# ----------------------------------------------------------------------------- build / freshness

def render_jsonl(entries: Iterable[Any]) -> bytes:
    """Canonical JSONL bytes of cases (or scenarios): one `.as_dict()` a line, sorted keys, UTF-8, id order."""
    lines = [json.dumps(e.as_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
             for e in sorted(entries, key=lambda e: e.id)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def tally(values: Iterable[str]) -> dict[str, int]:
    """Counts of each value, keys sorted (manifest counts)."""
    return dict(sorted(Counter(values).items()))


def counts(cases: list[Case]) -> dict[str, dict[str, int]]:
    """Counts by category, language, expectation, negative kind and difficulty (sorted keys)."""
    return {
        "category": tally(c.category for c in cases),
        "lang": tally(c.lang for c in cases),
        "expectation": tally(c.expectation for c in cases),
        "negative_kind": tally(c.kind for c in cases if c.kind),
        "difficulty": tally(c.difficulty for c in cases),
        "lang_category": tally(f"{c.lang}/{c.category}" for c in cases),
    }


def render_manifest(cases: list[Case], jsonl: bytes) -> bytes:
    manifest = {"name": "ToolUse.1", "version": SPEC_VERSION, "jsonl": JSONL_NAME,
                "sha256": hashlib.sha256(jsonl).hexdigest(), "n_cases": len(cases), "counts": counts(cases)}
    return (json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")


def render_data(cases: list[Case]) -> dict[str, bytes]:
    """The exact bytes of data/ for these cases: {file name: content} (what `tooluse1.build` writes)."""
    jsonl = render_jsonl(cases)
    return {JSONL_NAME: jsonl, MANIFEST_NAME: render_manifest(cases, jsonl)}


def corpus_provenance(manifest: dict) -> dict:
    """What a results file records of the corpus a run used (`provenance.corpus`): its digest, version and
    size, for a suite of one's own its name and path (tooluse1.suite), so that regrade can ask for it, and for
    seeded draws their record (tooluse1.draws.draws_provenance)."""
    out = {"sha256": manifest["sha256"], "version": manifest.get("version"), "n_cases": manifest.get("n_cases")}
    for key in ("suite", "draws"):   # a suite of one's own; seeded draws (tooluse1.draws)
        if key in manifest:
            out[key] = manifest[key]
    return out


def check_fresh(cases_dir: Path = CASES_DIR, data_dir: Path = DATA_DIR) -> None:
    """Raise StaleCorpusError unless data/ is exactly what `build` would write from cases/."""
    path = first_stale(render_data(load_cases(cases_dir)), data_dir)
    if path is not None:
        raise StaleCorpusError(f"{display_path(path)} is stale or missing against {display_path(cases_dir)}/: "
                               f"run `python -m tooluse1 build` and commit data/")


def load_corpus(data_dir: Path = DATA_DIR) -> tuple[list[Case], dict]:
    """The built corpus (cases in id order) and its manifest, read from data/ (digest verified)."""
    rows, manifest = read_built(data_dir, JSONL_NAME, MANIFEST_NAME, "corpus", "build")
    return [Case.from_dict(row, source=source) for source, row in rows], manifest
