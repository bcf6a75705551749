"""SPIN plan scenarios: scenarios/*.yaml -> validated Scenario objects -> data/scenarios.jsonl + manifest.

A scenario is one user request for the planning track, authored by hand and kept apart from the core
corpus (cases/): its `tools` are the admissible agents of a plan. Its calls, with canonical argument
values (as in the corpus) and, per call, the 1-based numbers of the earlier calls whose World output it
uses (`depends_on`, the plan's `#S<n>`), come in three lists:

    required_calls  what the answer needs: an Accomplished run executes every one of them
    allowed_calls   fine to execute, never needed (a calculator for "24-14", which the final answer may do
                    itself, as the planner prompt's "bare minimum" asks); numbered after the required ones,
                    and may depend on them
    tempting_calls  superfluous steps the question invites (a separate unit conversion when the tool takes
                    a unit, a conditional follow-up whose condition the World makes false); executing them
                    costs tasks and tool calls, and an executed side effect among them (a note or a timer
                    the user did not ask for) also lowers the outcome (spin/scoring.py)

required + allowed is the *reference plan*: the shape is checked on it, the plan-level score compares a
planner's plan with it, the scripted oracle plans it. Later calls carry the values the World really
produced: get_weather(Berlin) gives 14°C, so the next call is convert_units(14, celsius, kelvin).

A call may grade a string argument by the facts it must carry instead of by its exact value:
``facts: {text: ["8995625"]}`` on a save_note accepts any note text holding that number (a note in
another wording or language is still the right note); the other arguments are compared as usual.

Shapes:
    single        one required call answers the request
    chain         every reference call after the first uses the output of the call before it
    fan_in        independent lookups whose outputs at least one later call (usually an allowed calculator)
                  combines; every lookup feeds it
    fan_out       one lookup whose output at least two later calls use
    early_answer  the question makes more calls conditional on a lookup's outcome and the World makes the
                  condition false: the lookup(s) answer it (stopping early is right), the conditional
                  calls are `tempting_calls`; `sufficient_prefix` == len(required_calls)
    conditional   the mirror of an early_answer: the World makes the condition true, so the conditional
                  calls are required (stopping after the lookup is wrong)
sufficient_prefix is the number of required calls (written in YAML only for early_answer, as a check).

Each scenario has a `split`: the simulator's trajectory store is filled from `train` scenarios only and
runs are evaluated on `test`; validation refuses a test scenario whose reference call (tool + canonical
arguments, hence output) is a call of a train scenario, since retrieval would hand the simulator its answer.

Answer constraints are plain fields (answer_contains_all / answer_contains_any / answer_excludes), all
checked by one function, `text_meets`; written as whole words and numbers as they appear, so they hold
under substring and under token matching alike.

Validation reports every problem as `path:line: message` (the corpus's YAML reader and argument checker
are reused): unknown field or tool, offered-tool mismatch, missing or unknown argument, non-canonical value,
bad dependency, a call that fails in the World, a dependency whose output the call does not use, a shape
the calls do not have, sufficient_prefix out of range, a fact the call's own value lacks, a reference that
fails its own answer constraints, a number in a constraint that no World output (nor the question)
contains, a tempting call that is also a reference call, a train/test leak, duplicate id.

`build_scenarios()` writes canonical files (sorted by id, sorted keys, UTF-8, `\\n`; each call with its
World output), so a rebuild is byte-identical and `check_scenarios_fresh()` detects a stale data/ -
including one made stale by a change of the World's tables.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tooluse1.corpus import (
    DATA_DIR,
    LANGS,
    PACKAGE_DIR,
    CorpusError,
    check_arguments,
    render_jsonl,
    tally,
)
from tooluse1.answers import AnswerRequirement, check_answer
from tooluse1.datafiles import first_stale, read_built, write_data
from tooluse1.errors import StaleCorpusError
from tooluse1.evaluator import same_value
from tooluse1.aliases import norm_text
from tooluse1.matching import to_number
from tooluse1.toolbox import REFERENCE_UTC
from tooluse1.tools import TOOL_NAMES, TOOLS, Call
from tooluse1.world import World, numbers_in
from tooluse1.yamlload import Problems, display_path, line_of, load_yaml_entries

__all__ = [
    "SCENARIOS_DIR",
    "SCENARIO_VERSION",
    "SHAPES",
    "SPLITS",
    "RequiredCall",
    "Scenario",
    "ScenarioError",
    "build_scenarios",
    "call_signature",
    "check_scenarios_fresh",
    "load_scenario_files",
    "load_scenarios",
    "text_meets",
    "uses_output",
]

# 2.1.0: comparison questions list the reversed answer as false, a yes/no question is answered by its yes/no
# (with the scoring rules of the same review: bare numbers, actions beyond those asked, untranslated text)
SCENARIO_VERSION = "2.1.0"
SHAPES = ("single", "chain", "fan_in", "fan_out", "early_answer", "conditional")
SPLITS = ("train", "test")
SCENARIOS_DIR = PACKAGE_DIR / "scenarios"
JSONL_NAME = "scenarios.jsonl"
MANIFEST_NAME = "scenarios_manifest.json"
_ID_RE = re.compile(r"^(?P<shape>[a-z_]+)-(?P<lang>[a-z]{2})-(?P<num>\d{3})$")
_FIELDS = {"id", "lang", "shape", "split", "question", "tools", "required_calls", "allowed_calls",
           "sufficient_prefix", "tempting_calls", "answer_contains_any", "answer_contains_all", "answer_excludes",
           "reference", "notes"}
_REQUIRED_FIELDS = ("id", "lang", "shape", "split", "question", "tools", "required_calls", "reference")


class ScenarioError(CorpusError):
    """One or more invalid scenarios; `problems` holds `path:line: message` strings, all of them."""


# ----------------------------------------------------------------------------- answer constraints

def text_meets(contains_all: Sequence[str], contains_any: Sequence[str], excludes: Sequence[str],
               prose: str) -> tuple[bool, str]:
    """(ok, reason): every phrase of contains_all occurs in prose, one of contains_any does (when any are
    listed), none of excludes does. The one place SPIN checks text against constraints (final answers,
    note facts); matching is the core grader's (tooluse1.answers: whole words, `*` stems, numbers by value)."""
    check = check_answer(AnswerRequirement(contains_all=tuple((p,) for p in contains_all),
                                           contains_any=tuple(contains_any), excludes=tuple(excludes)), prose)
    return check.ok, check.reason


# ----------------------------------------------------------------------------- data

def call_signature(name: str, arguments: Mapping[str, Any]) -> str:
    """A call's identity across scenarios: tool and canonical arguments (equal signatures, equal outputs)."""
    return f"{name}({json.dumps(dict(arguments), ensure_ascii=False, sort_keys=True)})"


@dataclass(frozen=True)
class RequiredCall:
    """One call of a reference plan: tool, canonical arguments, the earlier calls (1-based, in the
    reference plan) it uses, the World's output for it (filled in by validation; empty only for hand-made
    objects), and `facts`: string arguments graded by the phrases they must contain instead of by value."""

    name: str
    arguments: dict[str, Any]
    depends_on: tuple[int, ...] = ()
    output: str = ""
    facts: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def call(self) -> Call:
        return Call(self.name, dict(self.arguments))

    @property
    def signature(self) -> str:
        return call_signature(self.name, self.arguments)

    def as_dict(self) -> dict:
        d: dict[str, Any] = {"name": self.name, "arguments": dict(self.arguments),
                             "depends_on": list(self.depends_on), "output": self.output}
        if self.facts:
            d["facts"] = {k: list(v) for k, v in sorted(self.facts.items())}
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RequiredCall:
        return cls(d["name"], dict(d["arguments"]), tuple(d.get("depends_on") or ()), d.get("output", ""),
                   {k: tuple(v) for k, v in (d.get("facts") or {}).items()})


@dataclass(frozen=True)
class Scenario:
    """One planning scenario (see the module docstring for the fields' meaning)."""

    id: str
    lang: str
    shape: str
    question: str
    tools: tuple[str, ...]
    required_calls: tuple[RequiredCall, ...]
    sufficient_prefix: int
    reference: str
    split: str = "test"
    allowed_calls: tuple[RequiredCall, ...] = ()
    answer_contains_any: tuple[str, ...] = ()
    answer_contains_all: tuple[str, ...] = ()
    answer_excludes: tuple[str, ...] = ()
    tempting_calls: tuple[Call, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def agents(self) -> tuple[str, ...]:
        """The admissible plan agents (the offered tool names)."""
        return self.tools

    @property
    def reference_calls(self) -> tuple[RequiredCall, ...]:
        """The reference plan: required calls, then allowed calls (depends_on indexes this tuple)."""
        return self.required_calls + self.allowed_calls

    def answer_ok(self, prose: str) -> tuple[bool, str]:
        """Whether a final answer meets the scenario's answer constraints (text_meets)."""
        return text_meets(self.answer_contains_all, self.answer_contains_any, self.answer_excludes, prose)

    def as_dict(self) -> dict:
        """The JSONL form (read back by `from_dict`)."""
        return {"id": self.id, "lang": self.lang, "shape": self.shape, "split": self.split,
                "question": self.question, "tools": list(self.tools),
                "required_calls": [c.as_dict() for c in self.required_calls],
                "allowed_calls": [c.as_dict() for c in self.allowed_calls],
                "sufficient_prefix": self.sufficient_prefix,
                "tempting_calls": [c.as_dict() for c in self.tempting_calls],
                "answer_contains_any": list(self.answer_contains_any),
                "answer_contains_all": list(self.answer_contains_all),
                "answer_excludes": list(self.answer_excludes), "reference": self.reference}

    @classmethod
    def from_dict(cls, d: dict, source: str = "") -> Scenario:
        """Build from a JSONL dict. No validation here (load_scenario_files validates YAML)."""
        return cls(id=d["id"], lang=d["lang"], shape=d["shape"], split=d.get("split", "test"),
                   question=d["question"], tools=tuple(d["tools"]),
                   required_calls=tuple(RequiredCall.from_dict(c) for c in d["required_calls"]),
                   allowed_calls=tuple(RequiredCall.from_dict(c) for c in d.get("allowed_calls") or ()),
                   sufficient_prefix=int(d["sufficient_prefix"]), reference=d["reference"],
                   answer_contains_any=tuple(d.get("answer_contains_any") or ()),
                   answer_contains_all=tuple(d.get("answer_contains_all") or ()),
                   answer_excludes=tuple(d.get("answer_excludes") or ()),
                   tempting_calls=tuple(Call(c["name"], dict(c["arguments"])) for c in d.get("tempting_calls") or ()),
                   source=source)


# ----------------------------------------------------------------------------- data flow

def _argument_numbers(call: Call) -> list[float]:
    """The numbers a call's arguments carry: number/integer values, and numbers written in strings
    (expression literals "24-14" -> 24, 14; a note text "-11°C" -> -11)."""
    out: list[float] = []
    for value in call.arguments.values():
        if isinstance(value, str):
            out.extend(numbers_in(value))
        else:
            num = to_number(value)
            if num is not None:
                out.append(num)
    return out


def uses_output(output: str, call: Call) -> bool:
    """True when some argument value of `call` comes from `output`: a shared number (signs ignored, since
    "12-(-3)" writes -3 as 3), a string argument found in the output (a city a search names), or the
    output found in a string argument (a translation saved as a note)."""
    out_numbers = [abs(n) for n in numbers_in(output)]
    if any(same_value(abs(a), b) for a in _argument_numbers(call) for b in out_numbers):
        return True
    text = norm_text(output)
    for value in call.arguments.values():
        if isinstance(value, str):
            v = norm_text(value)
            if (len(v) >= 3 and v in text) or (text and text in v):
                return True
    return False


# ----------------------------------------------------------------------------- validation

def _string_list(raw: dict, key: str, where: str, probs: Problems) -> tuple[str, ...] | None:
    val = raw.get(key, [])
    if not isinstance(val, list) or not all(isinstance(x, (str, int, float)) and not isinstance(x, bool)
                                            and str(x).strip() for x in val):
        probs.add(where, line_of(raw, key), f"{key} must be a list of non-empty strings")
        return None
    return tuple(str(x) for x in val)


@dataclass
class _Authored:
    """One call as written: the call, its dependencies, its facts and its line."""

    call: Call
    deps: tuple[int, ...]
    facts: dict[str, tuple[str, ...]]
    line: int


def _read_facts(rc: dict, name: str, label: str, where: str, cl: int, probs: Problems) -> dict[str, tuple[str, ...]]:
    raw = rc.get("facts", {})
    fl = line_of(rc, "facts", cl)
    if not isinstance(raw, dict):
        probs.add(where, fl, f"{label}: facts must map a string argument to a list of phrases")
        return {}
    out: dict[str, tuple[str, ...]] = {}
    args = rc.get("arguments")
    if not isinstance(args, dict):
        args = {}
    for arg, phrases in raw.items():
        param = TOOLS[name].param_index.get(arg)
        if param is None or not param.comparison.free_text:
            probs.add(where, fl, f"{label}: facts can grade only a free-text argument of {name}, not {arg!r}")
            continue
        if not isinstance(phrases, list) or not phrases or not all(isinstance(p, str) and p.strip() for p in phrases):
            probs.add(where, fl, f"{label}: facts[{arg!r}] must be a non-empty list of phrases")
            continue
        ok, why = text_meets(phrases, (), (), str(args.get(arg, "")))
        if not ok:
            probs.add(where, fl, f"{label}: its own {arg} {why}")
        out[arg] = tuple(phrases)
    return out


def _read_calls(raw_calls: Any, what: str, offered: list[str], where: str, line: int, probs: Problems,
                first: int = 1, allow_deps: bool = True, allow_empty: bool = False) -> list[_Authored] | None:
    """Check a list of {name, arguments[, depends_on, facts]} numbered from `first`; None on any problem."""
    if raw_calls is None and allow_empty:
        return []
    if not isinstance(raw_calls, list) or (not raw_calls and not allow_empty):
        probs.add(where, line, f"{what}s must be a non-empty list of {{name, arguments}} mappings")
        return None
    n_before = len(probs.items)
    out: list[_Authored] = []
    for i, rc in enumerate(raw_calls, first):
        cl = line_of(rc, default=line)
        label = f"{what} {i}"
        if not isinstance(rc, dict) or "name" not in rc:
            probs.add(where, cl, f"{label} must be a mapping with name and arguments")
            continue
        unknown = set(rc) - ({"name", "arguments", "depends_on", "facts"} if allow_deps else {"name", "arguments"})
        for key in sorted(unknown):
            probs.add(where, line_of(rc, key, cl), f"{label}: unknown field {key!r}")
        name = rc["name"]
        if name not in TOOLS:
            probs.add(where, cl, f"{label}: unknown tool {name!r} (known: {', '.join(TOOL_NAMES)})")
            continue
        if name not in offered:
            probs.add(where, cl, f"{label}: tool {name!r} is not among the offered tools")
        args = rc.get("arguments")
        check_arguments(name, args, where, line_of(rc, "arguments", cl), probs, TOOLS)
        deps_raw = rc.get("depends_on", [])
        deps: tuple[int, ...] = ()
        if not isinstance(deps_raw, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in deps_raw):
            probs.add(where, line_of(rc, "depends_on", cl), f"{label}: depends_on must be a list of step numbers")
        else:
            deps = tuple(deps_raw)
            bad = [d for d in deps if not 1 <= d < i]
            if bad:
                probs.add(where, line_of(rc, "depends_on", cl),
                          f"{label}: depends_on {bad} must name earlier calls only (1..{i - 1})")
            if len(set(deps)) != len(deps):
                probs.add(where, line_of(rc, "depends_on", cl), f"{label}: depends_on repeats a step")
        facts = _read_facts(rc, name, label, where, cl, probs) if allow_deps else {}
        out.append(_Authored(Call(name, dict(args) if isinstance(args, dict) else {}), deps, facts, cl))
    return out if len(probs.items) == n_before else None


def _check_shape(shape: str, n_required: int, deps: list[tuple[int, ...]], where: str, line: int,
                 probs: Problems) -> None:
    """The reference plan's dependency graph must have the declared shape (see the module docstring)."""
    n = len(deps)
    users = Counter(d for ds in deps for d in ds)
    if shape == "single" and n_required != 1:
        probs.add(where, line, f"a single scenario has exactly 1 required call, not {n_required}")
    elif shape == "chain":
        if n < 2:
            probs.add(where, line, f"a chain needs at least 2 reference calls, not {n}")
        for i in range(2, n + 1):
            if i - 1 not in deps[i - 1]:
                probs.add(where, line, f"chain: call {i} must depend on call {i - 1}")
    elif shape == "fan_in":
        lookups = [i for i in range(1, n + 1) if not deps[i - 1]]
        if not any(sum(1 for d in ds if d in lookups) >= 2 for ds in deps):
            probs.add(where, line, "fan_in: a later call must combine at least two independent lookups "
                                   "(calls without dependencies)")
        unused = [i for i in lookups if i not in users]
        if unused:
            probs.add(where, line, f"fan_in: lookup(s) {unused} feed no later call; every lookup of a fan-in "
                                   f"feeds the combination")
    elif shape == "fan_out":
        if n < 3 or not users or max(users.values()) < 2:
            probs.add(where, line, "fan_out: at least two later calls must depend on the same call")
    elif shape == "conditional" and n_required < 2:
        probs.add(where, line, f"conditional: the lookup and the calls its outcome makes necessary are required "
                               f"(at least 2), not {n_required}")


def _validate_entry(raw: Any, where: str, probs: Problems) -> Scenario | None:
    """Check one YAML mapping; on success return the Scenario (problems go to `probs`)."""
    line = line_of(raw)
    if not isinstance(raw, dict):
        probs.add(where, line, "a scenario must be a mapping")
        return None
    n_before = len(probs.items)
    for key in _REQUIRED_FIELDS:
        if key not in raw:
            probs.add(where, line, f"missing field {key!r}")
    for key in sorted(set(raw) - _FIELDS, key=str):
        probs.add(where, line_of(raw, key), f"unknown field {key!r}")
    if len(probs.items) > n_before:
        return None
    sid, lang, shape, split = raw["id"], raw["lang"], raw["shape"], raw["split"]
    if lang not in LANGS:
        probs.add(where, line_of(raw, "lang"), f"lang must be one of {LANGS}, got {lang!r}")
    if shape not in SHAPES:
        probs.add(where, line_of(raw, "shape"), f"shape must be one of {SHAPES}, got {shape!r}")
    if split not in SPLITS:
        probs.add(where, line_of(raw, "split"), f"split must be one of {SPLITS}, got {split!r}")
    m = _ID_RE.match(str(sid))
    if not m or m["shape"] != shape or m["lang"] != lang:
        probs.add(where, line_of(raw, "id"), f"id {sid!r} must look like {shape}-{lang}-NNN")
    question = raw["question"]
    if not isinstance(question, str) or not question.strip():
        probs.add(where, line_of(raw, "question"), "question must be a non-empty string")
    tools = raw["tools"]
    tools = list(TOOL_NAMES) if tools == "all" else tools
    if not isinstance(tools, list) or not tools or not all(isinstance(t, str) for t in tools):
        probs.add(where, line_of(raw, "tools"), "tools must be 'all' or a non-empty list of tool names")
        tools = []
    for t in tools:
        if t not in TOOLS:
            probs.add(where, line_of(raw, "tools"), f"unknown tool {t!r} (known: {', '.join(TOOL_NAMES)})")
    if len(set(tools)) != len(tools):
        probs.add(where, line_of(raw, "tools"), "tools lists a tool twice")
    any_of = _string_list(raw, "answer_contains_any", where, probs)
    all_of = _string_list(raw, "answer_contains_all", where, probs)
    excludes = _string_list(raw, "answer_excludes", where, probs)
    if any_of is not None and all_of is not None and not any_of and not all_of:
        probs.add(where, line, "a scenario needs answer_contains_any or answer_contains_all")
    reference = raw["reference"]
    if not isinstance(reference, str) or not reference.strip():
        probs.add(where, line_of(raw, "reference"), "reference must be a non-empty string")
    required = _read_calls(raw["required_calls"], "required call", tools, where, line_of(raw, "required_calls"),
                           probs)
    allowed = _read_calls(raw.get("allowed_calls"), "allowed call", tools, where, line_of(raw, "allowed_calls"),
                          probs, first=len(required or ()) + 1, allow_empty=True)
    tempting = _read_calls(raw.get("tempting_calls"), "tempting call", tools, where, line_of(raw, "tempting_calls"),
                           probs, allow_deps=False, allow_empty=True)
    if shape == "early_answer":
        for key in ("sufficient_prefix", "tempting_calls"):
            if key not in raw:
                probs.add(where, line, f"an early_answer scenario needs {key}")
    elif "sufficient_prefix" in raw:
        probs.add(where, line_of(raw, "sufficient_prefix"), "sufficient_prefix is only for early_answer scenarios")
    if len(probs.items) > n_before or required is None or allowed is None or tempting is None:
        return None

    # Execute the reference plan in a fresh World, in order; later calls must use their dependencies.
    reference_plan = required + allowed
    world = World(sleep=False)
    outputs: list[str] = []
    for i, a in enumerate(reference_plan, 1):
        res = world.execute(a.call)
        if not res.ok:
            probs.add(where, a.line, f"call {i} ({a.call.name}) fails in the World: {res.error}")
            outputs.append("")
            continue
        outputs.append(res.output)
        for d in a.deps:
            if outputs[d - 1] and not uses_output(outputs[d - 1], a.call):
                probs.add(where, a.line, f"call {i} ({a.call.name}) depends on #S{d} but none of its argument "
                                         f"values comes from that call's output {outputs[d - 1]!r}")
    _check_shape(str(shape), len(required), [a.deps for a in reference_plan], where, line_of(raw, "required_calls"),
                 probs)
    if shape == "early_answer" and "sufficient_prefix" in raw:
        k = raw["sufficient_prefix"]
        kl = line_of(raw, "sufficient_prefix")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(required):
            probs.add(where, kl, f"sufficient_prefix {k!r} out of range; valid 1..{len(required)} (the required calls)")
        elif k != len(required):
            probs.add(where, kl, f"sufficient_prefix is {k} but required_calls lists {len(required)}; list exactly "
                                 f"the sufficient calls and move the rest to tempting_calls")
    signatures = {call_signature(a.call.name, a.call.arguments) for a in reference_plan}
    for a in tempting:
        res = world.execute(a.call)
        if not res.ok:
            probs.add(where, a.line, f"tempting call ({a.call.name}) fails in the World: {res.error}")
        if call_signature(a.call.name, a.call.arguments) in signatures:
            probs.add(where, a.line, f"tempting call ({a.call.name}) is also a reference call")
    if len(probs.items) > n_before:
        return None

    def calls(authored: list[_Authored], offset: int) -> tuple[RequiredCall, ...]:
        return tuple(RequiredCall(a.call.name, a.call.arguments, a.deps, outputs[offset + i], a.facts)
                     for i, a in enumerate(authored))

    scenario = Scenario(
        id=str(sid), lang=lang, shape=shape, split=split, question=question.strip(), tools=tuple(tools),
        required_calls=calls(required, 0), allowed_calls=calls(allowed, len(required)),
        sufficient_prefix=len(required), reference=reference.strip(), answer_contains_any=any_of or (),
        answer_contains_all=all_of or (), answer_excludes=excludes or (),
        tempting_calls=tuple(a.call for a in tempting), source=f"{where}:{line}")
    _check_answer(scenario, outputs, where, raw, probs)
    return scenario if len(probs.items) == n_before else None


def _check_answer(s: Scenario, outputs: list[str], where: str, raw: dict, probs: Problems) -> None:
    """The reference passes its own constraints, and every number in a constraint is a World number."""
    ok, why = s.answer_ok(s.reference)
    if not ok:
        probs.add(where, line_of(raw, "reference"), f"the scenario's own reference fails its constraints: {why}")
    known = [n for text in [*outputs, s.question] for n in numbers_in(text)]
    # A time "15:05" may be written on the 12-hour clock ("3:05 PM").
    known += [float(int(h) % 12 or 12) for text in outputs for h in _CLOCK_RE.findall(text)]
    for key, items in (("answer_contains_all", s.answer_contains_all), ("answer_contains_any", s.answer_contains_any)):
        for item in items:
            for written in _DECIMAL_RE.findall(item.replace(",", ".")):   # "4,97" is 4.97 in Russian
                num = float(written)
                if not any(_rounds_to(k, written) for k in known):
                    probs.add(where, line_of(raw, key), f"{key} item {item!r} has the number {num:g}, which neither "
                                                      f"the question nor any reference call's World output gives")


_CLOCK_RE = re.compile(r"\b(\d{1,2}):\d{2}\b")
_DECIMAL_RE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def _rounds_to(value: float, written: str) -> bool:
    """`written` is `value` as a reference may write it: exact, or rounded or cut to its decimals
    ("26.2" for 26.218757, "10.55" for 10.54875, "14240" for 14240.51)."""
    places = len(written.split(".")[1]) if "." in written else 0
    exp = Decimal(1).scaleb(-places)
    v = Decimal(repr(value))
    target = Decimal(written)
    return any(v.quantize(exp, rounding=r) == target for r in (ROUND_HALF_UP, ROUND_DOWN))


def _check_split(scenarios: Iterable[Scenario]) -> list[str]:
    """Problems of test scenarios whose reference calls a train scenario also makes (a retrieval leak)."""
    train: dict[str, str] = {}
    for s in scenarios:
        if s.split == "train":
            for c in (*s.reference_calls, *(RequiredCall(t.name, t.arguments) for t in s.tempting_calls)):
                train.setdefault(c.signature, s.id)
    return [f"{s.source}: test scenario {s.id}: reference call {c.signature} is also a call of train scenario "
            f"{train[c.signature]} (its stored output would leak into the simulator)"
            for s in scenarios if s.split == "test" for c in s.reference_calls if c.signature in train]


def load_scenario_files(scenarios_dir: Path = SCENARIOS_DIR) -> list[Scenario]:
    """Load and validate every scenario under scenarios_dir; raise ScenarioError listing all problems
    (each entry's, then train/test leaks across entries)."""
    scenarios = load_yaml_entries(scenarios_dir, _validate_entry, "scenario", ScenarioError)
    leaks = _check_split(scenarios)
    if leaks:
        raise ScenarioError(leaks)
    return scenarios


# ----------------------------------------------------------------------------- build / freshness

def counts(scenarios: list[Scenario]) -> dict[str, dict[str, int]]:
    """Counts by shape, language, split and language/shape (sorted keys)."""
    return {"shape": tally(s.shape for s in scenarios), "lang": tally(s.lang for s in scenarios),
            "split": tally(s.split for s in scenarios),
            "lang_shape": tally(f"{s.lang}/{s.shape}" for s in scenarios)}


def render_manifest(scenarios: list[Scenario], jsonl: bytes) -> bytes:
    manifest = {"name": "ToolUse.1 SPIN scenarios", "version": SCENARIO_VERSION, "jsonl": JSONL_NAME,
                "sha256": hashlib.sha256(jsonl).hexdigest(), "n_scenarios": len(scenarios),
                "counts": counts(scenarios), "world_reference_utc": REFERENCE_UTC.isoformat()}
    return (json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")


def _expected_files(scenarios_dir: Path) -> tuple[list[Scenario], dict[str, bytes]]:
    scenarios = load_scenario_files(scenarios_dir)
    jsonl = render_jsonl(scenarios)
    return scenarios, {JSONL_NAME: jsonl, MANIFEST_NAME: render_manifest(scenarios, jsonl)}


def build_scenarios(scenarios_dir: Path = SCENARIOS_DIR, data_dir: Path = DATA_DIR) -> dict:
    """Validate scenarios/ and (re)write data/scenarios.jsonl + manifest; returns the manifest.
    Raises ScenarioError on any bad scenario (nothing is written then)."""
    return write_data(_expected_files(scenarios_dir)[1], data_dir)


def check_scenarios_fresh(scenarios_dir: Path = SCENARIOS_DIR, data_dir: Path = DATA_DIR) -> None:
    """Raise StaleCorpusError unless data/ holds exactly what `build_scenarios` would write."""
    path = first_stale(_expected_files(scenarios_dir)[1], data_dir)
    if path is not None:
        raise StaleCorpusError(f"{display_path(path)} is stale or missing against "
                               f"{display_path(scenarios_dir)}/ and the World's tables: "
                               f"run `python -m tooluse1 build-scenarios` and commit data/")


def load_scenarios(data_dir: Path = DATA_DIR) -> tuple[list[Scenario], dict]:
    """The built scenarios (in id order) and their manifest, read from data/ (digest verified)."""
    rows, manifest = read_built(data_dir, JSONL_NAME, MANIFEST_NAME, "scenarios", "build-scenarios")
    return [Scenario.from_dict(row, source=source) for source, row in rows], manifest
