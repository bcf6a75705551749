"""What a tool is: `Param`, `Tool` (declared once, in code or as plain data) and `Toolbox`, the registry.

A tool's declaration holds everything the benchmark needs of it, so adding a tool is writing one `Tool`:

- the schema: name, description, parameters (JSON-schema type, description, required, enum, default);
- per parameter, the comparison kind (`match`, tooluse1.matching) and, for `alias`, its table
  (tooluse1.aliases), and whether the tool infers it when omitted (`inferable`);
- per parameter, `ask`: the words a clarifying question about it uses, per language (EN and RU: `*` = a
  stem, `A ... B` = A then B later in the sentence; tooluse1.answers rule 6), and `label`, how a failure
  reason names it ("source currency");
- per parameter, an `example` value (what the selftest's scripted runners call with);
- the tool's other names (`name_aliases`: calc, weather, ...);
- `simulate`, its implementation in the deterministic World (tooluse1.world), and its simulated latency.

Construction refuses what cannot work at all (an unknown comparison kind, a type the kind cannot compare,
an alias comparison without a table, two parameters of one name): ValueError naming the parameter.
`Tool.problems()` lists what an offered tool still lacks (clarification terms for a required parameter in
every language, a valid example for every parameter, ...); `Toolbox.register` refuses a tool with any.
`Tool.from_dict` builds a tool from plain data (JSON schema `parameters` plus the fields above), with
every problem in one ValueError.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from tooluse1.errors import ToolUse1Error
from tooluse1.aliases import TABLES, AliasTable, norm_text
from tooluse1.matching import Comparison, comparison
from tooluse1.types import LANGS

__all__ = ["Param", "Simulation", "Tool", "ToolFailure", "Toolbox"]

# Called as simulate(records, **arguments) -> output text. `records` is this tool's list in this World (a
# fresh World starts it empty; a timer appends what it started, which numbers the next id); `arguments` are
# the declared ones the model gave, typed by their comparison kind (Comparison.accept). A refusal of the
# arguments (unknown city, a timer of -5 s) raises ToolFailure with a message for the model.
Simulation = Callable[..., str]


class ToolFailure(ToolUse1Error):
    """A simulated tool refuses its arguments; the World turns it into ToolResult(ok=False, error=message)."""


@dataclass(frozen=True)
class Param:
    """One tool parameter: its schema, how a model's value is compared, and what the benchmark says of it."""

    name: str
    type: str                      # string | number | integer
    description: str
    required: bool = False
    match: str = "text"            # a comparison kind: expression | number | integer | alias | text | keywords
    aliases: AliasTable | None = None
    enum: tuple[str, ...] = ()
    default: Any = None
    # The tool infers it when omitted (translate detects the source language), so leaving it out cannot
    # change the result and is not an argument error even when the user stated it.
    inferable: bool = False
    ask: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)   # language -> terms
    label: str = ""                # how a failure reason names it; the name with spaces when empty
    example: Any = None            # a valid value (the scripted runners call with it)
    comparison: Comparison = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        kind = comparison(self.match)
        if self.type not in kind.types:
            raise ValueError(f"parameter {self.name!r}: a {self.match} comparison needs type "
                             f"{' or '.join(kind.types)}, not {self.type!r}")
        if kind.needs_table and self.aliases is None:
            raise ValueError(f"parameter {self.name!r}: an alias comparison needs an alias table "
                             f"(known: {', '.join(TABLES)})")
        object.__setattr__(self, "comparison", kind)
        object.__setattr__(self, "enum", tuple(self.enum))
        object.__setattr__(self, "ask", {lang: tuple(terms) for lang, terms in self.ask.items()})

    @property
    def what(self) -> str:
        """How a failure reason names the parameter ("source currency")."""
        return self.label or self.name.replace("_", " ")

    @property
    def ask_terms(self) -> tuple[str, ...]:
        """Every language's clarification terms, in LANGS order (tooluse1.answers.ASK_TERMS)."""
        return tuple(t for lang in LANGS for t in self.ask.get(lang, ()))

    def matches(self, expected: Any, actual: Any) -> bool:
        """True when a model's value `actual` means the `expected` one (tooluse1.matching)."""
        return self.comparison.matches(self, expected, actual)

    def problems(self) -> list[str]:
        """What this parameter lacks to be offered (empty when complete)."""
        out = []
        if not self.description.strip():
            out.append("needs a description")
        unknown = sorted(set(self.ask) - set(LANGS))
        if unknown:
            out.append(f"clarification terms in unknown language(s) {unknown} (known: {', '.join(LANGS)})")
        for lang in LANGS:
            terms = self.ask.get(lang, ())
            if self.required and not terms:
                out.append(f"a required parameter needs clarification terms in {lang} (the words a question "
                           f"asking for it uses)")
            if any(not isinstance(t, str) or not t.strip() for t in terms):
                out.append(f"clarification terms in {lang} must be non-empty strings")
        if self.example is None:
            out.append("needs an example value")
        for what, value in (("example", self.example), ("default", self.default),
                            *((f"enum value {v!r}", v) for v in self.enum)):
            wrong = self.comparison.check_expected(self, value) if value is not None else None
            if wrong is not None:
                out.append(f"{what}: {wrong}")
        return out


_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Tool:
    """A tool's name, description, parameters (ordered), other names and simulation (module docstring)."""

    name: str
    description: str
    params: tuple[Param, ...]
    name_aliases: tuple[str, ...] = ()
    simulate: Simulation | None = field(default=None, compare=False)
    latency_s: float = 0.0        # what one call costs in a simulated World (World(latency_s=TOOL_LATENCY_S))
    param_index: dict[str, Param] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "name_aliases", tuple(self.name_aliases))
        index: dict[str, Param] = {}
        for p in self.params:
            if index.setdefault(p.name, p) is not p:
                raise ValueError(f"tool {self.name!r}: two parameters named {p.name!r}")
        object.__setattr__(self, "param_index", index)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.required)

    def json_schema(self) -> dict:
        """OpenAI-style function schema (used to declare the tool in system prompts)."""
        props: dict[str, dict] = {}
        for p in self.params:
            prop: dict[str, Any] = {"type": p.type, "description": p.description}
            if p.enum:
                prop["enum"] = list(p.enum)
            props[p.name] = prop
        return {"name": self.name, "description": self.description,
                "parameters": {"type": "object", "properties": props, "required": list(self.required)}}

    def problems(self) -> list[str]:
        """What this tool lacks to be offered, each as `tool[.param]: message` (empty when complete). A
        simulation is not required: a tool without one gives an error result in the World."""
        out = []
        if not isinstance(self.name, str) or not _NAME_RE.fullmatch(self.name):
            out.append(f"{self.name!r}: a tool name is lower-case letters, digits and underscores")
        if not self.description.strip():
            out.append(f"{self.name}: needs a description")
        if isinstance(self.latency_s, bool) or not isinstance(self.latency_s, (int, float)) \
                or not math.isfinite(self.latency_s) or self.latency_s < 0:
            out.append(f"{self.name}: latency_s must be a non-negative number of seconds")
        out += [f"{self.name}: other name {a!r} must be a name (letters, digits, spaces, _ or -)"
                for a in self.name_aliases if not isinstance(a, str) or not _NAME_RE.fullmatch(_name_key(a))]
        out += [f"{self.name}.{p.name}: {problem}" for p in self.params for problem in p.problems()]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], simulate: Simulation | None = None) -> "Tool":
        """A tool from plain data: `name`, `description`, `parameters` (a JSON-schema object: `properties`,
        each with `type`, `description`, `match` and optionally `aliases` (a table name from
        tooluse1.aliases.TABLES, or {canonical: [forms]}), `enum`, `default`, `inferable`, `ask`
        ({en: [...], ru: [...]}), `label`, `example`; and `required`), optionally `name_aliases` and
        `latency_s`. ValueError listing every problem (structure and completeness) when it is not a
        complete tool."""
        name = str(data.get("name", "?"))
        probs = [f"{name}: unknown field {k!r}" for k in sorted(set(data) - _TOOL_FIELDS)]
        schema = data.get("parameters", {})
        props = schema.get("properties", {}) if isinstance(schema, Mapping) else None
        required = schema.get("required", []) if isinstance(schema, Mapping) else []
        if not isinstance(props, Mapping) or not isinstance(required, list):
            raise ValueError(f"{name}: parameters must be a JSON-schema object with properties and required")
        probs += [f"{name}: required names an unknown parameter {r!r}" for r in required if r not in props]
        params = []
        for pname, spec in props.items():
            try:
                params.append(_param_from_dict(str(pname), spec, pname in required))
            except (ValueError, TypeError) as e:
                probs.append(f"{name}.{pname}: {e}")
        if probs:
            raise ValueError("\n".join(probs))
        try:
            tool = cls(name, str(data.get("description", "")), tuple(params), tuple(data.get("name_aliases", ())),
                       simulate, data.get("latency_s", 0.0))
        except (ValueError, TypeError) as e:
            raise ValueError(f"{name}: {e}") from None
        if tool.problems():
            raise ValueError("\n".join(tool.problems()))
        return tool


_TOOL_FIELDS = {"name", "description", "parameters", "name_aliases", "latency_s"}
_PARAM_FIELDS = {"type", "description", "match", "aliases", "enum", "default", "inferable", "ask", "label",
                 "example"}


def _param_from_dict(name: str, spec: Any, required: bool) -> Param:
    """One parameter from its JSON-schema property (plus the fields of Param); ValueError on a problem."""
    if not isinstance(spec, Mapping):
        raise ValueError("a parameter must be a mapping")
    unknown = sorted(set(spec) - _PARAM_FIELDS)
    if unknown:
        raise ValueError(f"unknown field(s) {unknown} (known: {', '.join(sorted(_PARAM_FIELDS))})")
    if "match" not in spec:
        raise ValueError("needs match: the comparison kind of its values")
    table = spec.get("aliases")
    if isinstance(table, str):
        if table not in TABLES:
            raise ValueError(f"unknown alias table {table!r} (known: {', '.join(TABLES)})")
        table = TABLES[table]
    elif isinstance(table, Mapping):
        table = AliasTable(name, {str(k): [str(f) for f in v] for k, v in table.items()})
    elif table is not None:
        raise ValueError("aliases must name a table or map canonical values to their forms")
    ask = spec.get("ask", {})
    if not isinstance(ask, Mapping) or not all(isinstance(v, list) for v in ask.values()):
        raise ValueError("ask must map a language to a list of terms")
    return Param(name, str(spec.get("type")), str(spec.get("description", "")), required, spec["match"], table,
                 tuple(spec.get("enum", ())), spec.get("default"), bool(spec.get("inferable", False)), ask,
                 str(spec.get("label", "")), spec.get("example"))


_OWN_NAMESPACE = re.compile(r"^(?:(?:functions?|tools?|default_api)[.:/])+")
_NAME_CACHE = 4096


def _name_key(name: str) -> str:
    return re.sub(r"[\s-]+", "_", norm_text(name))


class Toolbox(MutableMapping[str, Tool]):
    """The registry of tools: name -> Tool, in declaration order, plus the tools' other names.

    `register` adds a complete tool (ValueError listing `Tool.problems()` otherwise); item assignment adds
    any tool whose name and other names are free (what a test's stand-in needs). `canonical_name` reads a
    model's spelling of a tool name.
    """

    def __init__(self, tools: Iterable[Tool] = ()):
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._names: dict[str, str] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        """Add `tool`; ValueError when it is incomplete or a name of it is taken."""
        problems = tool.problems()
        if problems:
            raise ValueError(f"tool {tool.name!r} is incomplete:\n  " + "\n  ".join(problems))
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self[tool.name] = tool

    def __setitem__(self, name: str, tool: Tool) -> None:
        if name != tool.name:
            raise ValueError(f"tool {tool.name!r} registered under another name {name!r}")
        if self._aliases.get(name, name) != name:   # an exact name wins: it would take the other tool's name
            raise ValueError(f"tool {name!r}: the name is another name of {self._aliases[name]!r}")
        others = {k: v for k, v in self._tools.items() if k != name}
        for alias in map(_name_key, tool.name_aliases):
            if alias in others or self._aliases.get(alias, name) != name:
                raise ValueError(f"tool {name!r}: other name {alias!r} already names "
                                 f"{alias if alias in others else self._aliases[alias]!r}")
        self._tools[name] = tool
        self._reindex()

    def __delitem__(self, name: str) -> None:
        del self._tools[name]
        self._reindex()

    def _reindex(self) -> None:
        self._aliases = {_name_key(a): t.name for t in self._tools.values() for a in t.name_aliases}
        self._names.clear()

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def canonical_name(self, name: Any) -> str:
        """The tool a name refers to (exact names, then other names like calc/weather, after dropping the
        namespace of the offered functions); an unknown name normalised (lower case, `_` for spaces)."""
        if isinstance(name, str) and name in self._tools:   # the common case, and the answer the slow path gives
            return name
        text = name if isinstance(name, str) else str(name)
        found = self._names.get(text)
        if found is None:
            if len(self._names) >= _NAME_CACHE:
                self._names.clear()
            found = self._names[text] = self._resolve(text)
        return found

    def _resolve(self, name: str) -> str:
        # Only the namespace that holds the offered functions is stripped ("functions.get_weather",
        # "tool:calculator", Gemini's "default_api.get_weather"): another namespace is another tool
        # ("browser.search" is gpt-oss's built-in browser, not the offered web_search).
        key = _OWN_NAMESPACE.sub("", _name_key(name))
        if key in self._tools:
            return key
        for cand in (key, key.replace("_", "")):
            if cand in self._aliases:
                return self._aliases[cand]
        return key
