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
from typing import Any, Iterable, Mapping

from tooluse1.answers import AnswerRequirement
from tooluse1.langtags import is_lang_tag, primary_language
from tooluse1.datafiles import first_stale, read_built
from tooluse1.errors import StaleCorpusError
from tooluse1.tools import TOOL_NAMES, TOOLS, Call
from tooluse1.matching import LEFT_OUT, alternatives, first_choice
from tooluse1.toolspec import Tool, Toolbox, function_of
from tooluse1.types import DIFFICULTIES, LANGS, NEGATIVE_KINDS, Difficulty, ExpectationKind, NegativeKind
from tooluse1.yamlload import EntryError, Problems, display_path, line_of, load_yaml_entries

SPEC_VERSION = "4.1.2"


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
# A suite's case ids: any of these characters (what pytest's -k and item ids take), unique within the suite.
_SUITE_ID_RE = re.compile(r"[A-Za-z0-9_.\-]{1,200}")


class CorpusError(EntryError):
    """One or more invalid cases; `problems` holds `path:line: message` strings, all of them."""


@dataclass(frozen=True)
class Expectation:
    """What a correct answer looks like: one call (`call`), no call (`no_call`) or a question back (`clarify`).

    Text expectations carry what the answer must satisfy: facts (`answer_contains_all` items, each a tuple of
    alternatives; `answer_contains_any`), plausible wrong answers the answer must not assert
    (`answer_excludes`), whether a stated decline answers instead of the facts (`decline_answers`), a refusal
    (`refusal`, capability traps) with the terms of the requested action (`action`), the terms of what a
    knowledge question is about (`about`), or, for clarify cases, the required arguments the user left out (`missing`,
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
    # The requested action of a capability trap (`action`) and the subject of a knowledge question (`about`):
    # language -> terms, in a parameter's `ask` syntax (`*` = a stem, `A ... B` = A then B later). What a
    # refusal or a claim must be about, and what an asserted value must be said of (SPEC §3.3).
    action: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    about: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in ("action", "about"):
            object.__setattr__(self, name, {lang: tuple(str(t) for t in terms)
                                            for lang, terms in getattr(self, name).items()})

    @property
    def answer(self) -> AnswerRequirement:
        """The requirement on a text answer (tooluse1.answers), for no-call and clarify expectations, of a
        case offering the registry's tools (`requirement` for any case)."""
        return self.requirement()

    def requirement(self, tools: Toolbox = TOOLS) -> AnswerRequirement:
        """The requirement on a text answer of a case offering `tools` (Case.toolbox), whose parameters the
        `missing` keys name (ValueError for a key none of them has)."""
        return AnswerRequirement(contains_all=self.answer_contains_all, contains_any=self.answer_contains_any,
                                 excludes=self.answer_excludes, refusal=self.refusal, ask_about=self.missing,
                                 decline_answers=self.decline_answers, action=self.action, about=self.about,
                                 tools=tools)

    def right_call(self, tools: Toolbox = TOOLS) -> Call:
        """A call a right answer makes: the expected call, each argument as its comparison kind in `tools`
        (the case's offered tools, Case.toolbox) writes it (a `keywords` argument, web_search's query, which
        may list alternatives `a|b`, as a query a user would type: its first alternatives)."""
        assert self.call is not None
        params = tools[self.call.name].param_index
        out = {}
        for k, v in self.call.arguments.items():
            alts = alternatives(v)
            if alts is not None and alts[0] in LEFT_OUT:
                continue                        # a one-of whose first value says "left out"
            out[k] = params[k].comparison.written(first_choice(v))
        return Call(self.call.name, out)

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
        for key, terms in (("action", self.action), ("about", self.about)):
            if terms:
                out[key] = {lang: list(t) for lang, t in terms.items()}
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
                   reference=exp.get("reference"), decline_answers=bool(exp.get("decline_answers")),
                   action=dict(exp.get("action") or {}), about=dict(exp.get("about") or {}))


def _alternatives(item: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in item) if isinstance(item, (list, tuple)) else (str(item),)


@dataclass(frozen=True)
class Case:
    """One authored case. `tools` is always the explicit tuple of offered tool names; `definitions` the
    tools the case declares itself (OpenAI-format function objects, in its `tools:` list beside the names);
    `toolbox` the tools every stage reads for it (`tools=`: prompts, parsing, grading), set when the case is
    built (tooluse1.corpus.case_toolbox): the toolbox of its corpus (the registry tooluse1.tools.TOOLS for
    the built-in corpus, its suite's for a suite's case, tooluse1.suite), or, for a case declaring tools
    itself, exactly its offered tools with its own declarations in place. Left out, it is the registry, or
    for a case with `definitions` its offered tools from the registry and its own.

    No global state is read after construction: two cases may define one tool name two ways, and cases of
    two suites live side by side. `toolbox` takes no part in equality, and a pickled case keeps the registry
    by reference (the registry itself after unpickling) and any other toolbox by value."""

    id: str
    lang: str                                   # en or ru; in a suite any BCP 47 tag (tooluse1.langtags)
    category: str
    difficulty: Difficulty
    tools: tuple[str, ...]
    messages: tuple[dict, ...]
    expect: Expectation
    kind: NegativeKind | None = None            # negatives only
    source: str = field(default="", compare=False)   # "cases/en/x.yaml:12", for messages
    definitions: tuple[dict, ...] = ()          # the case's own tool declarations, as written
    toolbox: Toolbox = field(default_factory=lambda: TOOLS, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.definitions and self.toolbox is TOOLS:   # built by hand (tests): its own tools over the registry
            object.__setattr__(self, "toolbox", case_toolbox(self.tools, self.definitions))

    def __getstate__(self) -> dict[str, Any]:
        # The registry travels by reference: an unpickled built-in case offers TOOLS itself (what the answer
        # rules key their shared tables on), not a copy of it.
        return {k: (None if k == "toolbox" and v is TOOLS else v) for k, v in self.__dict__.items()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, toolbox=TOOLS if state.get("toolbox") is None else state["toolbox"])

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
        own = {function_of(t).get("name"): t for t in self.definitions}
        d: dict[str, Any] = {"id": self.id, "lang": self.lang, "category": self.category,
                             "difficulty": self.difficulty, "tools": [own.get(n, n) for n in self.tools],
                             "messages": [dict(m) for m in self.messages], "expect": self.expect.as_dict()}
        if self.kind is not None:
            d["kind"] = self.kind
        return d

    @classmethod
    def from_dict(cls, d: dict, source: str = "", tools: Toolbox = TOOLS) -> "Case":
        """Build a Case from a JSONL dict (or an already-validated YAML mapping) of the corpus whose tools are
        `tools` (the registry, or a suite's Suite.toolbox); its toolbox as case_toolbox gives it. No
        validation here; KeyError when it offers a name neither `tools` nor its own declarations have."""
        offered = d.get("tools", "all")
        listed = _all_names(tools) if offered == "all" else tuple(offered)
        definitions = tuple(dict(t) for t in listed if isinstance(t, Mapping))
        names = tuple(t if isinstance(t, str) else str(function_of(t).get("name")) for t in listed)
        return cls(id=d["id"], lang=d["lang"], category=d["category"], difficulty=d["difficulty"], tools=names,
                   messages=tuple(dict(m) for m in d["messages"]), expect=Expectation.from_dict(d["expect"]),
                   kind=d.get("kind"), source=source, definitions=definitions,
                   toolbox=case_toolbox(names, definitions, tools))


def _all_names(tools: Toolbox) -> tuple[str, ...]:
    """What `tools: all` offers in a corpus whose tools are `tools`: the nine built-in names for the registry
    (a stand-in a test adds to it is not offered), else every tool of the suite."""
    return TOOL_NAMES if tools is TOOLS else tuple(tools)


def case_toolbox(names: Iterable[str], definitions: Iterable[Mapping[str, Any]],
                 corpus: Toolbox = TOOLS) -> Toolbox:
    """The toolbox of a case offering `names` in a corpus whose tools are `corpus`: `corpus` itself (the
    same object for every such case) when the case declares no tools of its own, as the built-in corpus's
    cases always read the whole registry; else exactly the offered tools, in their order, each of its own
    `definitions` in place of the corpus's tool of that name (KeyError for a name neither has)."""
    own = own_tools(definitions)
    if own:
        return _offering(names, own, corpus)
    unknown = [n for n in names if n not in corpus]
    if unknown:     # a suite's case read without its suite's toolbox: refused, never graded by the wrong tools
        raise KeyError(f"tools {unknown} are offered but neither declared by the case nor among {list(corpus)}")
    return corpus


def _offering(names: Iterable[str], own: Iterable[Tool], corpus: Toolbox) -> Toolbox:
    """The tools `names` names, in their order (each once): the tool of `own` of that name where there is
    one, else `corpus`'s (KeyError for a name neither has)."""
    mine = {t.name: t for t in own}
    return Toolbox(mine[n] if n in mine else corpus[n] for n in dict.fromkeys(names))


_OWN_TOOLS: dict[str, tuple[Tool, ...]] = {}


def own_tools(definitions: Iterable[Mapping[str, Any]]) -> tuple[Tool, ...]:
    """The tools a case declares itself, built once per distinct declaration (ValueError as Tool.from_dict)."""
    key = json.dumps(list(definitions), ensure_ascii=False, sort_keys=True, default=str)
    found = _OWN_TOOLS.get(key)
    if found is None:
        found = _OWN_TOOLS[key] = tuple(Tool.from_dict(d) for d in json.loads(key))
    return found


def as_case(case: "Case | dict", tools: Toolbox = TOOLS) -> Case:
    """A Case from a Case (as it is, its toolbox included) or a corpus JSONL dict of a corpus whose tools are
    `tools` (the public grading API accepts both; a dict of a suite's case needs the suite's toolbox, or
    declares every tool it offers itself)."""
    return case if isinstance(case, Case) else Case.from_dict(case, tools=tools)


# ----------------------------------------------------------------------------- validation



def check_arguments(tool: str, args: Any, where: str, line: int, probs: Problems,
                    registry: Mapping[str, Tool] = TOOLS) -> None:
    """Report (to `probs`) what is wrong with authored arguments of `tool` (declared in `registry`): a missing
    required argument, an unknown one, a value of the wrong type or not in canonical form (null only for a
    nullable parameter). Shared with the SPIN scenarios, which pass the built-in tools."""
    if not isinstance(args, dict):
        probs.add(where, line, f"arguments of {tool} must be a mapping")
        return
    spec = registry[tool]
    for req in spec.required:
        if req not in args:
            probs.add(where, line, f"{tool}: missing required argument {req!r}")
    for name, value in args.items():
        p = spec.param_index.get(name)
        if p is None:
            probs.add(where, line, f"{tool}: unknown argument {name!r} (known: {', '.join(spec.param_index)})")
            continue
        for one in alternatives(value) or (value,):
            if one in LEFT_OUT and alternatives(value) and not p.required:
                continue                        # a one-of's "" or null: an optional argument left out
            wrong = None if one is None and p.nullable else p.comparison.check_expected(p, one)
            if wrong is not None:
                probs.add(where, line, f"{tool}.{name}: {wrong}")


def _check_messages(msgs: Any, where: str, line: int, probs: Problems, tool_names: tuple[str, ...],
                    toolbox: Toolbox) -> None:
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
            check_arguments(tc["name"], tc.get("arguments", {}), where, line_of(tc, default=ml), probs, toolbox)
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


def _validate_entry(raw: Any, where: str, probs: Problems, tools: Toolbox = TOOLS,
                    unusable: frozenset[str] = frozenset()) -> Case | None:
    """Check one YAML mapping of a corpus whose tools are `tools` (the registry: the built-in corpus, whose
    `tools: all` offers the nine built-in tools; any other toolbox: a suite's, all of whose tools `all`
    offers); on success return the Case with its offered tools listed and its toolbox (Case.from_dict),
    problems going to `probs`. A suite's case may also declare tools of its own in its `tools:` list, leave
    out `difficulty` (medium) and a negative's `kind` (derived from its expectation), take any id of
    `[A-Za-z0-9_.-]` and any BCP 47 `lang`. A case naming a tool of `unusable` (declared, but with problems
    of its own, reported by the caller) is left out without a problem of its own."""
    line = line_of(raw)
    if not isinstance(raw, dict):
        probs.add(where, line, "a case must be a mapping")
        return None
    suite = tools is not TOOLS
    tool_names = _all_names(tools)
    n_before = len(probs.items)
    for key in ("id", "lang", "category", "tools", "messages", "expect") + (() if suite else ("difficulty",)):
        if key not in raw:
            probs.add(where, line, f"missing field {key!r}")
    unknown = set(raw) - {"id", "lang", "category", "difficulty", "kind", "tools", "messages", "expect", "notes"}
    for key in sorted(unknown):
        probs.add(where, line_of(raw, key), f"unknown field {key!r}")
    if len(probs.items) > n_before:
        return None
    if unusable and (raw["tools"] == "all" or not unusable.isdisjoint(_named_tools(raw))):
        return None     # checked once its tool loads: every problem now would only repeat the tool's
    names, own = _offered(raw, where, probs, tool_names, suite)
    known = tool_names + tuple(t.name for t in own if t.name not in tool_names)
    fields = {"difficulty": raw.get("difficulty", "medium"), "kind": raw.get("kind")}
    if suite and raw["category"] == "negative" and fields["kind"] is None:
        fields["kind"] = _derived_kind(raw["expect"])
    _validate_case(raw, where, probs, known, suite, names, fields, _offering(names, own, tools) if own else tools)
    if len(probs.items) > n_before:
        return None
    offered = [next((d for d in raw["tools"] if isinstance(d, Mapping) and function_of(d).get("name") == n), n)
               for n in names] if own else names
    return Case.from_dict({**raw, **fields, "tools": offered}, source=f"{where}:{line}", tools=tools)


def _named_tools(raw: dict) -> set[str]:
    """The tool names a case's mapping mentions: its category, offered, expected, asked about, or called in
    its history."""
    listed, exp = raw.get("tools"), raw.get("expect")
    names = set(n for n in listed if isinstance(n, str)) if isinstance(listed, list) else set()
    names.add(str(raw.get("category")))
    exp = exp if isinstance(exp, dict) else {}
    missing = exp.get("missing")
    names |= {str(k).rpartition(".")[0] for k in missing} if isinstance(missing, list) else set()
    calls = [exp.get("call")]
    calls += [m.get("tool_call") for m in raw.get("messages") or () if isinstance(m, dict)]
    return names | {c["name"] for c in calls if isinstance(c, dict) and isinstance(c.get("name"), str)}


def validate_case(raw: dict, tools: Toolbox | None = None) -> list[str]:
    """The problems of one suite case given as plain data, in a suite whose tools file declares `tools`
    (none by default: an importer's suite, every case declaring its tools itself), as the suite loader will
    find them; empty when it is valid."""
    probs = Problems()
    _validate_entry(raw, "case", probs, Toolbox() if tools is None else tools)
    return [p.partition(": ")[2] for p in probs.items]


def _offered(raw: dict, where: str, probs: Problems, tool_names: tuple[str, ...],
             suite: bool) -> tuple[list[str], list[Tool]]:
    """The names a case offers and the tools it declares itself (a suite's case may list OpenAI-format
    declarations beside names); every problem at its line."""
    listed = list(tool_names) if raw["tools"] == "all" else raw["tools"]
    if suite and listed == [] and isinstance(raw.get("expect"), dict) and raw["expect"].get("no_call"):
        return [], []                   # a suite's no-call case may offer no tool at all
    if not isinstance(listed, list) or not listed:
        probs.add(where, line_of(raw, "tools"), "tools must be 'all' or a non-empty list of tool names")
        return [], []
    names: list[str] = []
    own: list[Tool] = []
    for t in listed:
        if isinstance(t, Mapping) and suite:
            try:
                (tool,) = own_tools([t])
            except ValueError as e:
                for problem in str(e).splitlines():
                    probs.add(where, line_of(function_of(t), default=line_of(raw, "tools")), problem)
                continue
            own.append(tool)
            names.append(tool.name)
        elif t not in tool_names:
            probs.add(where, line_of(raw, "tools"), f"unknown tool {t!r} (known: {', '.join(tool_names)})")
        else:
            names.append(t)
    if len(set(names)) != len(names):
        probs.add(where, line_of(raw, "tools"), "tools offers a name twice")
    return names, own


def _derived_kind(exp: Any) -> str:
    """A negative's kind when its author gave none: a refusal is a capability trap, facts asked for a
    knowledge question, anything else chit-chat."""
    if not isinstance(exp, dict):
        return "chit_chat"
    if exp.get("refusal"):
        return "capability_trap"
    return "knowledge" if exp.get("answer_contains_all") or exp.get("answer_contains_any") else "chit_chat"


def _validate_case(raw: dict, where: str, probs: Problems, tool_names: tuple[str, ...], suite: bool,
                   tools: list[str], fields: dict, toolbox: Toolbox) -> None:
    """The checks of `_validate_entry` that read the tools: those of `toolbox`, what the case offers (the
    registry, or its own toolbox when it declares tools itself)."""
    cid, lang, cat = raw["id"], raw["lang"], raw["category"]
    m = _ID_RE.match(str(cid))
    if suite and not is_lang_tag(lang):     # a suite's cases: any language (tooluse1.langtags)
        probs.add(where, line_of(raw, "lang"), f"lang must be a BCP 47 language tag (en, en-GB, zh-Hans, pt-BR, "
                                               f"es-419, ...), got {lang!r}")
    elif not suite and lang not in LANGS:
        probs.add(where, line_of(raw, "lang"), f"lang must be one of {LANGS}, got {lang!r}")
    if cat not in categories(tool_names):
        probs.add(where, line_of(raw, "category"), f"unknown category {cat!r} "
                                                   f"(known: {', '.join(categories(tool_names))})")
    if suite:       # the author's own ids
        if not isinstance(cid, str) or not _SUITE_ID_RE.fullmatch(cid):
            probs.add(where, line_of(raw, "id"), f"id {cid!r} must be letters, digits, `_`, `-` and dots")
    elif not m or m["category"] != cat or m["lang"] != lang:
        probs.add(where, line_of(raw, "id"), f"id {cid!r} must look like {cat}-{lang}-NNN")
    if fields["difficulty"] not in DIFFICULTIES:
        probs.add(where, line_of(raw, "difficulty"), f"difficulty must be one of {DIFFICULTIES}")
    kind = fields["kind"]
    if cat == "negative" and kind not in NEGATIVE_KINDS:
        probs.add(where, line_of(raw, "kind"), f"negative cases need kind: one of {NEGATIVE_KINDS}")
    if cat != "negative" and kind is not None:
        probs.add(where, line_of(raw, "kind"), "kind is only for negative cases")
    _check_messages(raw["messages"], where, line_of(raw, "messages"), probs, tool_names, toolbox)

    exp = raw["expect"]
    el = line_of(raw, "expect")
    shapes = [k for k in ("call", "no_call", "clarify") if isinstance(exp, dict) and exp.get(k)]
    if len(shapes) != 1:
        probs.add(where, el, "expect must have exactly one of call, no_call: true, clarify: true")
        return
    shape = shapes[0]
    wanted = "call" if cat in call_categories(tool_names) else ("no_call" if cat == "negative" else "clarify")
    if shape != wanted:
        probs.add(where, el, f"category {cat} expects {wanted}, not {shape}")
    if shape == "call":
        call = exp["call"]
        if not isinstance(call, dict) or call.get("name") not in tool_names:
            probs.add(where, el, f"unknown tool {call.get('name') if isinstance(call, dict) else call!r}")
            return
        if call["name"] not in tools:
            probs.add(where, el, f"expected tool {call['name']!r} is not among the offered tools")
        if cat in tool_names and call["name"] != cat:
            probs.add(where, el, f"a {cat} case must expect a call of {cat}")
        if call["name"] in toolbox:
            check_arguments(call["name"], call.get("arguments"), where, line_of(call, default=el), probs, toolbox)
        extra = set(exp) - {"call"}
        if extra:
            probs.add(where, el, f"a call expectation takes no {sorted(extra)}")
    else:
        _check_text_expectation(exp, shape, kind, tools, toolbox, where, el, probs, lang, suite)


_TEXT_FIELDS = {"no_call": {"answer_contains_all", "answer_contains_any", "answer_excludes", "refusal", "reference",
                            "decline_answers", "action", "about"},
                "clarify": {"missing", "reference"}}


def _is_phrase(x: Any) -> bool:
    return isinstance(x, (str, int, float)) and not isinstance(x, bool) and bool(str(x).strip())


# The case kind each term field belongs to, and what its terms name (messages).
_TERM_FIELDS = {"action": ("capability_trap", "the requested action: its verbs and objects"),
                "about": ("knowledge", "what the question asks about")}
# One term: words of letters, digits and inner punctuation, a word may end in `*` (a stem); ` ... ` joins parts.
_TERM_PART = r"[^\s*.]+(?:[.'’-][^\s*.]+)*\*?"
_TERM_RE = re.compile(rf"{_TERM_PART}(?: {_TERM_PART})*(?: \.\.\. {_TERM_PART}(?: {_TERM_PART})*)*")


def term_field_problem(value: Any, key: str, suite: bool = False) -> str | None:
    """What is wrong with an `action:` or `about:` value, or None: it must map every language to a non-empty
    list of terms in the `ask` syntax (the other language's words too: an answer may switch languages). A
    suite's case may give one language's alone: the answer's language, not the case's, decides which terms
    a refusal or a fact is read with, so a `ko` case whose answers are in English needs only `en`."""
    what = _TERM_FIELDS[key][1]
    shape = f"{key} must map each language to a list of terms ({what}), e.g. {{en: [order*, pizza], ru: [заказ*]}}"
    if not isinstance(value, dict) or not all(isinstance(v, list) for v in value.values()) or not value:
        return shape
    unknown = sorted(set(value) - set(LANGS))
    if unknown:     # the refusal and claim rules read English and Russian only (README: Your own suite)
        return f"{key}: unknown language(s) {unknown} (known: {', '.join(LANGS)}: the languages the text rules read)"
    for lang in LANGS:
        terms = value.get(lang)
        if not terms and (lang in value or not suite):
            return f"{key} needs terms in {lang} ({what})"
        bad = [t for t in terms or () if not isinstance(t, str) or not _TERM_RE.fullmatch(t.strip())]
        if bad:
            return (f"{key}.{lang}: {bad[0]!r} is not a term (words separated by single spaces, `*` only at a "
                    f"word's end, `A ... B` for A then B later)")
    return None


def _check_text_expectation(exp: dict, shape: str, kind: str | None, tools: list[str], toolbox: Toolbox,
                            where: str, el: int, probs: Problems, lang: str = "en", suite: bool = False) -> None:
    """The answer requirement of a no-call or clarify case: known fields of the right types, and what each
    kind needs (SPEC §3.3): a fact for knowledge and instruction traps, a refusal or a fact for capability
    traps, the missing required arguments (of an offered tool, `tools` by name, declared in `toolbox`) for
    clarify cases; always a reference."""
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
    reference = exp.get("reference")
    if (not suite or "reference" in exp) and (not isinstance(reference, str) or not reference.strip()):
        probs.add(where, el, f"{shape} cases need a reference answer" + (" (or none at all)" if suite else ""))
    has_facts = bool(exp.get("answer_contains_all") or exp.get("answer_contains_any"))
    if shape == "clarify":
        missing = exp.get("missing")
        if not missing:
            probs.add(where, el, "clarify cases need missing: [tool.param, ...] (the required arguments the user "
                                 "left out)")
        for item in missing if isinstance(missing, list) else []:
            tool, _, param = str(item).rpartition(".")    # a tool name may hold dots, a parameter name not
            if tool not in toolbox or param not in toolbox[tool].required:
                probs.add(where, line_of(exp, "missing", el),
                          f"missing: {item!r} is not a required argument of a tool (write tool.param, e.g. "
                          f"get_weather.city)")
            elif tool not in tools:
                probs.add(where, line_of(exp, "missing", el), f"missing: {item!r} names a tool that is not offered")
            elif is_lang_tag(lang) and not toolbox[tool].param_index[param].ask.get(primary_language(lang)):
                # The user-side terms: those of the case's language (en-GB reads en's). A question is
                # about the parameter only by them, so a language without them cannot be graded.
                terms = primary_language(lang)
                probs.add(where, line_of(exp, "missing", el),
                          f"missing: {item!r} has no clarification terms in {terms} (the words a question asking for "
                          f"it uses; only English ones are derived from the schema): give the parameter "
                          f"ask: {{{terms}: [...]}}")
    elif kind in ("knowledge", "instruction_trap") and not has_facts:
        probs.add(where, el, f"{kind} cases need answer_contains_all or answer_contains_any (the answer asked for)")
    elif kind == "capability_trap" and not (has_facts or exp.get("refusal") is True):
        probs.add(where, el, "capability_trap cases need refusal: true, or the facts of an answer the model can "
                             "give without the missing tool")
    elif exp.get("refusal") and kind != "capability_trap":
        probs.add(where, line_of(exp, "refusal", el), "refusal: true is only for capability_trap cases")
    for key, (owner, what) in _TERM_FIELDS.items():
        if key in exp:
            wrong = (f"{key}: is only for {owner} cases" if kind != owner or shape != "no_call"
                     else term_field_problem(exp[key], key, suite))
            if wrong is not None:
                probs.add(where, line_of(exp, key, el), wrong)
        elif kind == owner and not suite:
            # Required of the built-in corpus; optional in a suite (issue 32: nothing beyond the schema is
            # required there), where a case without it reads every action / subject (the 3.x reading).
            probs.add(where, el, f"{owner} cases need {key}: {{en: [terms], ru: [terms]}} ({what})")



def load_cases(cases_dir: Path = CASES_DIR, tools: Toolbox = TOOLS,
               unusable: frozenset[str] = frozenset()) -> list[Case]:
    """Load and validate every case under cases_dir, a corpus whose tools are `tools` (the registry: the
    built-in corpus; a suite's toolbox, tooluse1.suite), each case built with its toolbox (Case.toolbox);
    raise CorpusError listing all problems. A case naming a tool of `unusable` (a suite's tool that failed
    its own checks) is left out unchecked."""
    return load_yaml_entries(cases_dir, partial(_validate_entry, tools=tools, unusable=unusable), "case",
                             CorpusError)


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
