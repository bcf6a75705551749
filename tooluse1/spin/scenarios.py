"""SPIN plan scenarios: scenarios/*.yaml -> validated Scenario objects -> data/scenarios.jsonl + manifest.

A scenario is one user request for the planning track, authored by hand and kept apart from the core
corpus (cases/): its `tools` are the admissible agents of a plan, and `required_calls` is the ordered list
of calls a minimal plan makes, with canonical argument values (as in the corpus) and, per call, the
1-based numbers of the earlier calls whose World output it uses (`depends_on`, the plan's `#S<n>`).
Later calls carry the values the World really produced: get_weather(Berlin) gives 14°C, so the next call
is convert_units(14, celsius, kelvin).

Shapes:
    single        one call answers the request
    chain         every call after the first uses the output of the call before it
    fan_in        independent lookups, then one call that uses at least two of them
    fan_out       one lookup whose output at least two later calls use
    early_answer  the question invites more steps (`tempting_calls`, usually conditional on an outcome the
                  World rules out), but the first `sufficient_prefix` calls already answer it; for this
                  shape `required_calls` is exactly that prefix, so sufficient_prefix == len(required_calls)
For the other shapes sufficient_prefix is the whole list (derived, not written in YAML).

Validation reports every problem as `path:line: message` (the corpus's YAML reader and argument checker
are reused): unknown field or tool, offered-tool mismatch, missing or unknown argument, non-canonical value,
bad dependency, a required call that fails in the World, a dependency whose output the call does not use,
a shape the calls do not have, sufficient_prefix out of range, a reference that fails its own answer
constraints, a number in a constraint that no World output (nor the question) contains, duplicate id.

`build_scenarios()` writes canonical files (sorted by id, sorted keys, UTF-8, `\\n`; each required call
with its World output), so a rebuild is byte-identical and `check_scenarios_fresh()` detects a stale
data/ - including one made stale by a change of the World's tables.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from tooluse1.corpus import (
    DATA_DIR,
    LANGS,
    ROOT,
    CorpusError,
    StaleCorpusError,
    check_arguments,
    render_jsonl,
    tally,
)
from tooluse1.yamlload import Problems, display_path, line_of, load_yaml_entries
from tooluse1.answers import AnswerRequirement, check_answer
from tooluse1.evaluator import same_value
from tooluse1.tools import TOOL_NAMES, TOOLS, Call, norm_text, to_number
from tooluse1.world import REFERENCE_UTC, World, numbers_in

__all__ = [
    "SCENARIOS_DIR",
    "SCENARIO_VERSION",
    "SHAPES",
    "RequiredCall",
    "Scenario",
    "ScenarioError",
    "build_scenarios",
    "check_scenarios_fresh",
    "load_scenario_files",
    "load_scenarios",
    "uses_output",
]

SCENARIO_VERSION = "1.0.0"
SHAPES = ("single", "chain", "fan_in", "fan_out", "early_answer")
SCENARIOS_DIR = ROOT / "scenarios"
JSONL_NAME = "scenarios.jsonl"
MANIFEST_NAME = "scenarios_manifest.json"
_ID_RE = re.compile(r"^(?P<shape>[a-z_]+)-(?P<lang>[a-z]{2})-(?P<num>\d{3})$")
_FIELDS = {"id", "lang", "shape", "question", "tools", "required_calls", "sufficient_prefix", "tempting_calls",
           "answer_contains_any", "answer_contains_all", "reference", "notes"}
_REQUIRED_FIELDS = ("id", "lang", "shape", "question", "tools", "required_calls", "reference")


class ScenarioError(CorpusError):
    """One or more invalid scenarios; `problems` holds `path:line: message` strings, all of them."""


@dataclass(frozen=True)
class RequiredCall:
    """One call of a minimal plan: tool, canonical arguments, the earlier calls (1-based) it uses, and
    the World's output for it (filled in by validation; empty only for hand-made objects)."""

    name: str
    arguments: dict[str, Any]
    depends_on: tuple[int, ...] = ()
    output: str = ""

    @property
    def call(self) -> Call:
        return Call(self.name, dict(self.arguments))

    def as_dict(self) -> dict:
        return {"name": self.name, "arguments": dict(self.arguments), "depends_on": list(self.depends_on),
                "output": self.output}


@dataclass(frozen=True)
class Scenario:
    """One planning scenario; `answer` is the requirement on its final answer (tooluse1.answers)."""

    id: str
    lang: str
    shape: str
    question: str
    tools: tuple[str, ...]
    required_calls: tuple[RequiredCall, ...]
    sufficient_prefix: int
    reference: str
    answer_contains_any: tuple[str, ...] = ()
    answer_contains_all: tuple[str, ...] = ()
    tempting_calls: tuple[Call, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def agents(self) -> tuple[str, ...]:
        """The admissible plan agents (the offered tool names)."""
        return self.tools

    @property
    def answer(self) -> AnswerRequirement:
        """What the final answer must contain (tooluse1.answers: tokens, numbers by value)."""
        return AnswerRequirement(contains_all=tuple((item,) for item in self.answer_contains_all),
                                 contains_any=self.answer_contains_any)

    def as_dict(self) -> dict:
        """The JSONL form (read back by `from_dict`)."""
        return {"id": self.id, "lang": self.lang, "shape": self.shape, "question": self.question,
                "tools": list(self.tools), "required_calls": [c.as_dict() for c in self.required_calls],
                "sufficient_prefix": self.sufficient_prefix,
                "tempting_calls": [c.as_dict() for c in self.tempting_calls],
                "answer_contains_any": list(self.answer_contains_any),
                "answer_contains_all": list(self.answer_contains_all), "reference": self.reference}

    @classmethod
    def from_dict(cls, d: dict, source: str = "") -> "Scenario":
        """Build from a JSONL dict. No validation here (load_scenario_files validates YAML)."""
        return cls(id=d["id"], lang=d["lang"], shape=d["shape"], question=d["question"],
                   tools=tuple(d["tools"]),
                   required_calls=tuple(RequiredCall(c["name"], dict(c["arguments"]),
                                                     tuple(c.get("depends_on") or ()), c.get("output", ""))
                                        for c in d["required_calls"]),
                   sufficient_prefix=int(d["sufficient_prefix"]), reference=d["reference"],
                   answer_contains_any=tuple(d.get("answer_contains_any") or ()),
                   answer_contains_all=tuple(d.get("answer_contains_all") or ()),
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


def _read_calls(raw_calls: Any, what: str, offered: list[str], where: str, line: int, probs: Problems,
                allow_deps: bool) -> list[tuple[Call, tuple[int, ...], int]] | None:
    """Check a list of {name, arguments[, depends_on]}; returns (call, deps, line) triples or None."""
    if not isinstance(raw_calls, list) or not raw_calls:
        probs.add(where, line, f"{what} must be a non-empty list of {{name, arguments}} mappings")
        return None
    n_before = len(probs.items)
    out: list[tuple[Call, tuple[int, ...], int]] = []
    for i, rc in enumerate(raw_calls, 1):
        cl = line_of(rc, default=line)
        label = f"{what} {i}"
        if not isinstance(rc, dict) or "name" not in rc:
            probs.add(where, cl, f"{label} must be a mapping with name and arguments")
            continue
        unknown = set(rc) - ({"name", "arguments", "depends_on"} if allow_deps else {"name", "arguments"})
        for key in sorted(unknown):
            probs.add(where, line_of(rc, key, cl), f"{label}: unknown field {key!r}")
        name = rc["name"]
        if name not in TOOLS:
            probs.add(where, cl, f"{label}: unknown tool {name!r} (known: {', '.join(TOOL_NAMES)})")
            continue
        if name not in offered:
            probs.add(where, cl, f"{label}: tool {name!r} is not among the offered tools")
        args = rc.get("arguments")
        check_arguments(name, args, where, line_of(rc, "arguments", cl), probs)
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
        out.append((Call(name, dict(args) if isinstance(args, dict) else {}), deps, cl))
    return out if len(probs.items) == n_before else None


def _check_shape(shape: str, deps: list[tuple[int, ...]], where: str, line: int, probs: Problems) -> None:
    """The dependency graph must have the declared shape (see the module docstring)."""
    n = len(deps)
    users = Counter(d for ds in deps for d in ds)
    if shape == "single" and n != 1:
        probs.add(where, line, f"a single scenario has exactly 1 required call, not {n}")
    elif shape == "chain":
        if n < 2:
            probs.add(where, line, f"a chain needs at least 2 required calls, not {n}")
        for i in range(2, n + 1):
            if i - 1 not in deps[i - 1]:
                probs.add(where, line, f"chain: required call {i} must depend on call {i - 1}")
    elif shape == "fan_in":
        if n < 3 or len(deps[-1]) < 2 or sum(1 for d in deps[-1] if not deps[d - 1]) < 2:
            probs.add(where, line, "fan_in: the last required call must depend on at least two independent "
                                   "lookups (calls without dependencies)")
    elif shape == "fan_out":
        if n < 3 or not users or max(users.values()) < 2:
            probs.add(where, line, "fan_out: at least two later required calls must depend on the same call")
    if shape == "fan_in":
        unused = [i for i in range(1, n) if i not in users]
        if unused:
            probs.add(where, line, f"fan_in: required call(s) {unused} feed no later call; every lookup of a "
                                   f"fan-in feeds the final calculation")


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
    sid, lang, shape = raw["id"], raw["lang"], raw["shape"]
    if lang not in LANGS:
        probs.add(where, line_of(raw, "lang"), f"lang must be one of {LANGS}, got {lang!r}")
    if shape not in SHAPES:
        probs.add(where, line_of(raw, "shape"), f"shape must be one of {SHAPES}, got {shape!r}")
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
    if any_of is not None and all_of is not None and not any_of and not all_of:
        probs.add(where, line, "a scenario needs answer_contains_any or answer_contains_all")
    reference = raw["reference"]
    if not isinstance(reference, str) or not reference.strip():
        probs.add(where, line_of(raw, "reference"), "reference must be a non-empty string")
    required = _read_calls(raw["required_calls"], "required call", tools, where, line_of(raw, "required_calls"),
                           probs, allow_deps=True)
    tempting = None
    if shape == "early_answer":
        for key in ("sufficient_prefix", "tempting_calls"):
            if key not in raw:
                probs.add(where, line, f"an early_answer scenario needs {key}")
        if "tempting_calls" in raw:
            tempting = _read_calls(raw["tempting_calls"], "tempting call", tools, where,
                                   line_of(raw, "tempting_calls"), probs, allow_deps=False)
    else:
        for key in ("sufficient_prefix", "tempting_calls"):
            if key in raw:
                probs.add(where, line_of(raw, key), f"{key} is only for early_answer scenarios")
    if len(probs.items) > n_before or required is None:
        return None

    # Execute the required calls in a fresh World, in order; later calls must use their dependencies.
    world = World(sleep=False)
    outputs: list[str] = []
    for i, (call, deps, cl) in enumerate(required, 1):
        res = world.execute(call)
        if not res.ok:
            probs.add(where, cl, f"required call {i} ({call.name}) fails in the World: {res.error}")
            outputs.append("")
            continue
        outputs.append(res.output)
        for d in deps:
            if outputs[d - 1] and not uses_output(outputs[d - 1], call):
                probs.add(where, cl, f"required call {i} ({call.name}) depends on #S{d} but none of its argument "
                                     f"values comes from that call's output {outputs[d - 1]!r}")
    _check_shape(str(shape), [deps for _, deps, _ in required], where, line_of(raw, "required_calls"), probs)
    n_calls = len(required)
    prefix = n_calls
    if shape == "early_answer" and "sufficient_prefix" in raw:
        k = raw["sufficient_prefix"]
        kl = line_of(raw, "sufficient_prefix")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n_calls:
            probs.add(where, kl, f"sufficient_prefix {k!r} out of range; valid 1..{n_calls} (the required calls)")
        elif k != n_calls:
            probs.add(where, kl, f"sufficient_prefix is {k} but required_calls lists {n_calls}; list exactly the "
                                 f"sufficient calls and move the rest to tempting_calls")
        else:
            prefix = k
    for call, _, cl in tempting or ():
        res = world.execute(call)
        if not res.ok:
            probs.add(where, cl, f"tempting call ({call.name}) fails in the World: {res.error}")
    if len(probs.items) > n_before:
        return None

    scenario = Scenario(
        id=str(sid), lang=lang, shape=shape, question=question.strip(), tools=tuple(tools),
        required_calls=tuple(RequiredCall(c.name, c.arguments, deps, out)
                             for (c, deps, _), out in zip(required, outputs)),
        sufficient_prefix=prefix, reference=reference.strip(), answer_contains_any=any_of or (),
        answer_contains_all=all_of or (), tempting_calls=tuple(c for c, _, _ in tempting or ()),
        source=f"{where}:{line}")
    _check_answer(scenario, outputs, where, raw, probs)
    return scenario if len(probs.items) == n_before else None


def _check_answer(s: Scenario, outputs: list[str], where: str, raw: dict, probs: Problems) -> None:
    """The reference passes its own constraints, and every number in a constraint is a World number."""
    check = check_answer(s.answer, s.reference)
    if not check.ok:
        probs.add(where, line_of(raw, "reference"), f"the scenario's own reference fails its constraints: {check.reason}")
    known = [n for text in [*outputs, s.question] for n in numbers_in(text)]
    # A time "15:05" may be written on the 12-hour clock ("3:05 PM").
    known += [float(int(h) % 12 or 12) for text in outputs for h in _CLOCK_RE.findall(text)]
    for key, items in (("answer_contains_all", s.answer_contains_all), ("answer_contains_any", s.answer_contains_any)):
        for item in items:
            for written in _DECIMAL_RE.findall(item.replace(",", ".")):   # "4,97" is 4.97 in Russian
                num = float(written)
                if not any(_rounds_to(k, written) for k in known):
                    probs.add(where, line_of(raw, key), f"{key} item {item!r} has the number {num:g}, which neither "
                                                      f"the question nor any required call's World output gives")


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


def load_scenario_files(scenarios_dir: Path = SCENARIOS_DIR) -> list[Scenario]:
    """Load and validate every scenario under scenarios_dir; raise ScenarioError listing all problems."""
    return load_yaml_entries(scenarios_dir, _validate_entry, "scenario", ScenarioError)


# ----------------------------------------------------------------------------- build / freshness

def counts(scenarios: list[Scenario]) -> dict[str, dict[str, int]]:
    """Counts by shape, language and language/shape (sorted keys)."""
    return {"shape": tally(s.shape for s in scenarios), "lang": tally(s.lang for s in scenarios),
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
    _, files = _expected_files(scenarios_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        target = data_dir / name
        if not target.exists() or target.read_bytes() != content:
            tmp = target.with_suffix(target.suffix + ".tmp")
            tmp.write_bytes(content)
            tmp.replace(target)
    return json.loads(files[MANIFEST_NAME])


def check_scenarios_fresh(scenarios_dir: Path = SCENARIOS_DIR, data_dir: Path = DATA_DIR) -> None:
    """Raise StaleCorpusError unless data/ holds exactly what `build_scenarios` would write."""
    _, files = _expected_files(scenarios_dir)
    for name, content in files.items():
        path = data_dir / name
        if not path.exists() or path.read_bytes() != content:
            raise StaleCorpusError(f"{display_path(path)} is stale or missing against "
                                   f"{display_path(scenarios_dir)}/ and the World's tables: "
                                   f"run `python -m tooluse1 build-scenarios` and commit data/")


def load_scenarios(data_dir: Path = DATA_DIR) -> tuple[list[Scenario], dict]:
    """The built scenarios (in id order) and their manifest, read from data/ (digest verified)."""
    jsonl_path, manifest_path = data_dir / JSONL_NAME, data_dir / MANIFEST_NAME
    if not jsonl_path.exists() or not manifest_path.exists():
        raise StaleCorpusError(f"{display_path(data_dir)}/ has no built scenarios: "
                               f"run `python -m tooluse1 build-scenarios`")
    raw = jsonl_path.read_bytes()
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if hashlib.sha256(raw).hexdigest() != manifest.get("sha256"):
        raise StaleCorpusError(f"{display_path(jsonl_path)} does not match the digest in {MANIFEST_NAME}: "
                               f"run `python -m tooluse1 build-scenarios`")
    scenarios = [Scenario.from_dict(json.loads(line), source=f"{JSONL_NAME}:{i}")
                 for i, line in enumerate(raw.decode("utf-8").splitlines(), 1) if line.strip()]
    return scenarios, manifest
