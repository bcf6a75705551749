"""What a tool is: `Param`, `Tool` (declared once, in code or as plain data) and `Toolbox`, the registry.

A tool's declaration holds everything the benchmark needs of it, so adding a tool is writing one `Tool`:

- the schema: name, description, parameters (JSON-schema type, description, required, enum, default);
- per parameter, the comparison kind (`match`, tooluse1.matching) and, for `alias`, its table
  (tooluse1.aliases), and whether the tool infers it when omitted (`inferable`);
- per parameter, `ask`: the words a clarifying question about it uses, per language (EN and RU; a suite's
  tool may add other languages' (`ko`, `zh`), keyed by the language subtag: `*` = a
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

import dataclasses
import hashlib
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from tooluse1.errors import ToolUse1Error
from tooluse1.aliases import TABLES, AliasTable, norm_text
from tooluse1.matching import DEFAULT_MATCH, Comparison, comparison
from tooluse1.langtags import is_lang_tag, primary_language
from tooluse1.types import LANGS

__all__ = ["EFFECTS", "Param", "Simulation", "TYPE_SPELLINGS", "Tool", "ToolFailure", "Toolbox", "api_name",
           "derived_ask_terms", "derived_interrogatives", "example_value", "function_of"]

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
    type: str                      # a JSON-schema type: string | number | integer | boolean | array | object | any
    description: str
    required: bool = False
    match: str = "text"            # a comparison kind (tooluse1.matching.COMPARISONS)
    aliases: AliasTable | None = None
    enum: tuple[Any, ...] = ()
    default: Any = None
    # The tool infers it when omitted (translate detects the source language), so leaving it out cannot
    # change the result and is not an argument error even when the user stated it.
    inferable: bool = False
    ask: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)   # language -> terms
    label: str = ""                # how a failure reason names it; the name with spaces when empty
    example: Any = None            # a valid value (the scripted runners call with it)
    items: "Param | None" = field(default=None, compare=False, hash=False)   # an array's item schema
    properties: tuple["Param", ...] = field(default=(), compare=False, hash=False)   # an object's properties
    nullable: bool = False         # null is a value of it (`type: [T, "null"]`, `anyOf` with `{type: null}`)
    unique: bool = False           # an array with `uniqueItems: true`: compared as a set
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
        object.__setattr__(self, "properties", tuple(self.properties))
        object.__setattr__(self, "ask", {lang: tuple(terms) for lang, terms in self.ask.items()})

    @property
    def what(self) -> str:
        """How a failure reason names the parameter ("source currency")."""
        return self.label or self.name.replace("_", " ")

    @property
    def ask_terms(self) -> tuple[str, ...]:
        """Every language's clarification terms (tooluse1.answers.ASK_TERMS): LANGS' in their order, then a
        suite's other languages' (ko, zh, ...) in the order of their codes."""
        return tuple(t for lang in (*LANGS, *sorted(set(self.ask) - set(LANGS))) for t in self.ask.get(lang, ()))

    def matches(self, expected: Any, actual: Any) -> bool:
        """True when a model's value `actual` means the `expected` one (tooluse1.matching); a nullable
        parameter's expected null matches null only."""
        if expected is None and self.nullable:
            return actual is None
        return self.comparison.matches(self, expected, actual)

    def problems(self) -> list[str]:
        """What this parameter lacks to be offered (empty when complete). Clarification terms are needed only
        where a clarification case asks for the parameter, in the case's language (tooluse1.corpus checks
        that; Tool.from_dict derives English ones from the schema)."""
        out = []
        if not self.description.strip():
            out.append("needs a description")
        # Keyed by a language subtag: a case's tag picks them by its primary language (tooluse1.langtags).
        unknown = sorted(str(k) for k in self.ask if not is_lang_tag(k) or primary_language(k) != k)
        if unknown:
            out.append(f"clarification terms under {unknown}: each key is a lower-case language subtag (en, ru, "
                       f"ko, zh, ...)")
        for lang in sorted(set(self.ask) - set(unknown), key=str):
            terms = self.ask.get(lang, ())
            if any(not isinstance(t, str) or not t.strip() for t in terms):
                out.append(f"clarification terms in {lang} must be non-empty strings")
        if self.example is None:
            out.append("needs an example value")
        for what, value in (("example", self.example), ("default", self.default),
                            *((f"enum value {v!r}", v) for v in self.enum)):
            wrong = self.comparison.check_expected(self, value) if value is not None else None
            lenient = (what.startswith("enum") and self.type != "string") or (
                self.comparison.name in _LENIENT_KINDS and what == "default"
                and self.comparison.accept(value) is not None)
            if wrong is not None and not lenient:
                out.append(f"{what}: {wrong}")
        return out


# Kinds whose default may be written as a string ("1" for an integer, "true" for a boolean). Enum lists are
# checked only on strings (26 integer parameters of BFCL's live tools carry string enums, booleans
# "dontcare", arrays their items' values): values are compared by type; the authored case values stay typed.
_LENIENT_KINDS = frozenset({"number", "integer", "boolean"})


# A tool name as written: letters of either case, digits, `_`, `-` and dots (`Movies_1_FindMovies`,
# `api_token_api.APITokenApi.get_api_tokens`); the native protocol encodes what an API refuses (api_name).
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,99}")
_ALIAS_RE = re.compile(r"[a-z_][a-z0-9_.\-]*")
EFFECTS = ("looks_up", "acts")


@dataclass(frozen=True)
class Tool:
    """A tool's name, description, parameters (ordered), other names and simulation (module docstring)."""

    name: str
    description: str
    params: tuple[Param, ...]
    name_aliases: tuple[str, ...] = ()
    simulate: Simulation | None = field(default=None, compare=False)
    latency_s: float = 0.0        # what one call costs in a simulated World (World(latency_s=TOOL_LATENCY_S))
    # Whether a call changes something in the user's name (`acts`: a note saved, a timer set) or only reads
    # (`looks_up`); SPIN's scoring counts unrequested actions by it, importers read MCP's hints into it.
    effect: str = "looks_up"
    # The function schema exactly as the user declared it (what prompts show), when declared as data.
    schema: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)
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
        """OpenAI-style function schema (used to declare the tool in system prompts): a tool declared as data
        as its author wrote it (less the grader's own fields), a built-in one from its parameters."""
        if self.schema is not None:
            return dict(self.schema)
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
            out.append(f"{self.name!r}: a tool name is letters, digits, `_`, `-` and dots, starting with a letter "
                       f"or `_` (at most 100 characters)")
        if self.effect not in EFFECTS:
            out.append(f"{self.name}: effect must be one of {', '.join(EFFECTS)}, not {self.effect!r}")
        if not self.description.strip():
            out.append(f"{self.name}: needs a description")
        if isinstance(self.latency_s, bool) or not isinstance(self.latency_s, (int, float)) \
                or not math.isfinite(self.latency_s) or self.latency_s < 0:
            out.append(f"{self.name}: latency_s must be a non-negative number of seconds")
        out += [f"{self.name}: other name {a!r} must be a name (letters, digits, spaces, _ or -)"
                for a in self.name_aliases if not isinstance(a, str) or not _ALIAS_RE.fullmatch(_name_key(a))]
        out += [f"{self.name}.{p.name}: {problem}" for p in self.params for problem in p.problems()]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], simulate: Simulation | None = None) -> "Tool":
        """A tool from plain data, as OpenAI's API takes it (`{"type": "function", "function": {...}}` or the
        function object itself: `name`, `description`, `parameters`, a JSON-schema object, BFCL's spelling
        `dict`/`float`/`tuple`/`any` included), plus optionally the grader's own fields: on the tool
        `name_aliases`, `latency_s`, `effect` (acts | looks_up); on a property `match` (the comparison kind;
        by its type when left out), `aliases` (a table name from tooluse1.aliases.TABLES, or {canonical:
        [forms]}), `inferable`, `ask` ({en: [...], ru: [...]}: added to the English terms derived from the
        name and description), `label`, `example` (derived from the schema when left out). ValueError
        listing every problem (structure and completeness) when it is not a complete tool."""
        data = function_of(data)
        name = data.get("name", "?")
        name = name if isinstance(name, str) else str(name)
        probs = [f"{name}: unknown field {k!r}" for k in sorted(set(data) - _TOOL_FIELDS)]
        schema = data.get("parameters", {"type": "object", "properties": {}})
        props = schema.get("properties", {}) if isinstance(schema, Mapping) else None
        required = schema.get("required", []) if isinstance(schema, Mapping) else []
        if not isinstance(props, Mapping) or not isinstance(required, list):
            raise ValueError(f"{name}: parameters must be a JSON-schema object with properties and required")
        probs += [f"{name}: required names an unknown parameter {r!r}" for r in required if r not in props]
        params = []
        for pname, spec in props.items():
            try:
                params.append(_param_from_dict(str(pname), spec, pname in required, top=True))
            except (ValueError, TypeError) as e:
                probs.append(f"{name}.{pname}: {e}")
        if probs:
            raise ValueError("\n".join(probs))
        try:
            tool = cls(name, str(data.get("description", "")), tuple(params), tuple(data.get("name_aliases", ())),
                       simulate, data.get("latency_s", 0.0), data.get("effect", "looks_up"),
                       _shown_schema(data))
        except (ValueError, TypeError) as e:
            raise ValueError(f"{name}: {e}") from None
        if tool.problems():
            raise ValueError("\n".join(tool.problems()))
        return tool


def function_of(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The function object of a tool declaration: OpenAI's `{"type": "function", "function": {...}}` unwrapped
    (grader fields written beside `function` kept); an MCP tool (`inputSchema`, `annotations`) read as one,
    its effect from the hints (`destructiveHint: true` or `readOnlyHint: false` acts; looks up otherwise,
    unless `effect` is given); anything else as is."""
    inner = data.get("function")
    if data.get("type") == "function" and isinstance(inner, Mapping):
        return {**inner, **{k: v for k, v in data.items() if k not in ("type", "function")}}
    if "inputSchema" in data and "parameters" not in data:
        hints: Mapping[str, Any] = data["annotations"] if isinstance(data.get("annotations"), Mapping) else {}
        acts = hints.get("destructiveHint") is True or hints.get("readOnlyHint") is False
        out = {k: v for k, v in data.items() if k not in ("inputSchema", "annotations", "title")}
        return {"parameters": data["inputSchema"], "effect": "acts" if acts else "looks_up", **out}
    return data


# The grader's own fields, which a prompt does not show: on the tool and on a property (at any depth).
_GRADER_TOOL_FIELDS = {"name_aliases", "latency_s", "effect"}
_GRADER_PARAM_FIELDS = {"match", "aliases", "inferable", "ask", "label", "example"}
_TOOL_FIELDS = {"name", "description", "parameters", "strict"} | _GRADER_TOOL_FIELDS
# JSON-schema keywords a property may carry (shown to the model; those the grader reads are read).
_SCHEMA_FIELDS = {"type", "description", "enum", "default", "items", "properties", "required", "uniqueItems",
                  "anyOf", "oneOf", "nullable", "title", "format", "pattern", "minimum", "maximum",
                  "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems",
                  "additionalProperties", "examples", "const", "multipleOf", "prefixItems"}
_PARAM_FIELDS = _SCHEMA_FIELDS | _GRADER_PARAM_FIELDS
# BFCL's and Python's spellings of the JSON-schema types.
TYPE_SPELLINGS = {"dict": "object", "float": "number", "tuple": "array", "list": "array", "int": "integer",
                  "str": "string", "bool": "boolean", "double": "number", "long": "integer"}
_TYPES = {"string", "number", "integer", "boolean", "array", "object", "any", "null"}


def _shown_schema(data: Mapping[str, Any]) -> dict:
    """The function schema a prompt shows: the declaration less the grader's fields (recursively)."""
    def strip(spec: Any) -> Any:
        if not isinstance(spec, Mapping):
            return spec
        out = {k: v for k, v in spec.items() if k not in _GRADER_PARAM_FIELDS}
        if isinstance(out.get("properties"), Mapping):
            out["properties"] = {k: strip(v) for k, v in out["properties"].items()}
        if isinstance(out.get("items"), Mapping):
            out["items"] = strip(out["items"])
        return out
    shown = {k: v for k, v in data.items() if k not in _GRADER_TOOL_FIELDS}
    shown["parameters"] = strip(shown.get("parameters", {"type": "object", "properties": {}}))
    return shown


def _json_type(spec: Mapping[str, Any]) -> tuple[str, bool, Mapping[str, Any]]:
    """(type, nullable, the schema that holds the type's details) of a property: BFCL's spellings read as
    JSON-schema types; `[T, "null"]` and `anyOf`/`oneOf` with `{type: null}` nullable T; a union of several
    other types, or no type at all, `any` (an object with properties, an array with items)."""
    declared = spec.get("type")
    nullable = spec.get("nullable") is True
    for key in ("anyOf", "oneOf"):
        options = spec.get(key)
        if declared is None and isinstance(options, list) and options:
            real = [o for o in options if isinstance(o, Mapping) and o.get("type") != "null"]
            nullable = nullable or len(real) < len(options)
            if len(real) == 1:
                inner, inner_nullable, detail = _json_type(real[0])
                return inner, nullable or inner_nullable, {**spec, **detail}
            return "any", nullable, spec
    if isinstance(declared, list):
        named = [TYPE_SPELLINGS.get(t, t) for t in declared if t != "null"]
        nullable = nullable or len(named) < len(declared)
        declared = named[0] if len(named) == 1 else "any"
    if declared is None:
        declared = "object" if "properties" in spec else "array" if "items" in spec else "any"
    if not isinstance(declared, str):
        raise ValueError(f"type must be a JSON-schema type name, not {declared!r}")
    declared = TYPE_SPELLINGS.get(declared, declared)
    if declared not in _TYPES:
        raise ValueError(f"unknown type {declared!r} (known: {', '.join(sorted(_TYPES - {'null'}))}, or BFCL's "
                         f"{', '.join(TYPE_SPELLINGS)})")
    return ("any", True, spec) if declared == "null" else (declared, nullable, spec)


def _param_from_dict(name: str, spec: Any, required: bool, top: bool = False) -> Param:
    """One parameter from its JSON-schema property (plus the fields of Param); ValueError on a problem.
    `top`: a parameter of the tool itself (a required one's English ask terms are derived), not an item or
    property schema inside one."""
    if not isinstance(spec, Mapping):
        raise ValueError("a parameter must be a mapping")
    unknown = sorted(k for k in set(spec) - _PARAM_FIELDS if not str(k).startswith("x-"))
    if unknown:
        raise ValueError(f"unknown field(s) {unknown} (known: {', '.join(sorted(_PARAM_FIELDS))})")
    type_, nullable, detail = _json_type(spec)
    match = spec.get("match") or ("set" if type_ == "array" and detail.get("uniqueItems") is True
                                  else DEFAULT_MATCH[type_])
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
    description = str(spec.get("description") or detail.get("description") or "")
    if top and required:
        asked = derived_interrogatives(name, description, type_)
        ask = {**ask, "en": _merged(ask.get("en", []), derived_ask_terms(name, description) + asked["en"])}
        if ask.get("ru"):       # Russian terms stay the author's to give (the loader asks for them); added to
            ask["ru"] = _merged(ask["ru"], asked["ru"])     # them, the question words of the same kind
    items = detail.get("items")
    item = _param_from_dict(f"{name}[]", items, True) if isinstance(items, Mapping) and items else None
    inner = detail.get("properties")
    inner_required: list = detail["required"] if isinstance(detail.get("required"), list) else []
    nested = tuple(_param_from_dict(str(k), v, k in inner_required) for k, v in inner.items()) \
        if type_ == "object" and isinstance(inner, Mapping) else ()
    enum: list | tuple = detail["enum"] if isinstance(detail.get("enum"), list) else ()
    param = Param(name, type_, description or name.replace("_", " "), required, match, table, tuple(enum),
                  detail.get("default"), bool(spec.get("inferable", False)), ask, str(spec.get("label", "")),
                  spec.get("example"), item, nested, nullable, detail.get("uniqueItems") is True)
    if param.default is not None and param.comparison.check_expected(param, param.default) is not None \
            and not (match in _LENIENT_KINDS and param.comparison.accept(param.default) is not None):
        # A default the type does not allow ("None" for an integer) is shown to the model as written, but
        # the grader cannot read it as the value an omitted argument takes.
        param = dataclasses.replace(param, default=None)
    if param.example is None:
        param = dataclasses.replace(param, example=example_value(param))
    return param


def _merged(own: list, derived: tuple[str, ...]) -> list:
    """The user's terms, then the derived ones they do not already hold."""
    return [*own, *(t for t in derived if t not in own)]


def example_value(param: Param) -> Any:
    """A valid value of `param` derived from its schema: its first enum value, its default, the first
    canonical value of its alias table, or the plainest value of its type (an object: its required
    properties' examples)."""
    candidates: list[Any] = [*param.enum[:1], param.default]
    if param.aliases is not None:
        candidates.append(next(iter(param.aliases.canonicals), None))
    by_type: dict[str, Any] = {"string": "example", "number": 1.5, "integer": 1, "boolean": True, "any": "example",
                               "array": [param.items.example] if param.items is not None else [],
                               "object": {p.name: p.example for p in param.properties if p.required}}
    candidates.append("2+2" if param.match == "expression" else by_type[param.type])
    for value in candidates:
        if value is not None and param.comparison.check_expected(param, value) is None:
            return value
    return None


# Words a parameter's description shares with every other: no question is recognised by them.
_STOP_WORDS = frozenset("""a an the of to in on for from by with at as is are be been was were it its this that these
those or and not no if then than which what who whom whose when where how why e g eg ie i.e e.g etc default
defaults optional required parameter parameters value values field fields given specified specify specifies
format string number integer boolean list array object type id should must may can will would use used using
user users you your provide provided e.g. such like also only one two all any each other more most less
name""".split())
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def derived_ask_terms(name: str, description: str) -> tuple[str, ...]:
    """English clarification terms for a parameter (the words a question asking for it would use): its name
    split at camelCase and `_`/`-`/`.` (`departureDate` -> departure, date), then the content words of its
    description (letters only, 3+ long, minus a stop list), each written as a stem (`date*`) so plurals and
    -ing forms count. Russian terms cannot be derived from English names and descriptions: a Russian
    clarification case needs the author's own `ask: {ru: [...]}`."""
    words = [w.lower() for part in re.split(r"[_\-.\s]+", name) for w in _CAMEL.split(part) if w]
    words += [w.lower() for w in re.findall(r"[A-Za-z]{3,}", description)]
    terms: list[str] = []
    for w in words:
        if len(w) >= 3 and w.isalpha() and w not in _STOP_WORDS and f"{w}*" not in terms:
            terms.append(f"{w}*")
    return tuple(terms)


# The question word that asks for a parameter of a kind, read from the words of its name and description (stems)
# and its type: "Who should I send it to?" asks for a recipient, "Кому отправить?" too, "How many?" for a number.
# A bare-interrogative question names no other term of the parameter, so without these it was about nothing.
_INTERROGATIVE_KINDS: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    (("recipient", "contact", "person", "attendee", "assignee", "guest", "invitee", "addressee", "friend", "sender",
      "payee", "beneficiary", "who", "whom", "to", "cc", "bcc"),
     ("who", "whom", "whose"), ("кому", "кого", "кто", "с кем", "чей", "чья", "чье", "чьи")),
    (("city", "location", "place", "address", "destination", "origin", "where", "country", "venue", "region",
      "airport", "station", "town"),
     ("where",), ("где", "куда", "откуда")),
    (("date", "time", "when", "day", "datetime", "deadline", "schedule", "departure", "arrival"),
     ("when", "what time", "what day", "which day", "what date"), ("когда", "во сколько", "какого числа",
                                                                  "в какой день")),
    (("duration", "seconds", "minutes", "hours", "length", "long"), ("how long",), ("как долго", "на сколько")),
    (("amount", "count", "quantity", "size", "many", "much", "total"), ("how many", "how much"),
     ("сколько",)),
)


def derived_interrogatives(name: str, description: str, type_: str = "") -> dict[str, tuple[str, ...]]:
    """{"en": ..., "ru": ...}: the question words that ask for a parameter (who / кому, where / куда, when /
    когда, how long, how many / сколько), by the words of its name and description (`_INTERROGATIVE_KINDS`,
    word starts) and, for how many / сколько, also an integer or number type. A bare question ("Who should I
    send it to?", "Кому отправить?") asks for it."""
    own = {w.lower() for part in re.split(r"[_\-.\s]+", name) for w in _CAMEL.split(part) if w}
    words = own | {w.lower() for w in re.findall(r"[A-Za-z]+", description)}
    en: list[str] = []
    ru: list[str] = []
    for n, (stems, en_words, ru_words) in enumerate(_INTERROGATIVE_KINDS):
        numeric = n == len(_INTERROGATIVE_KINDS) - 1 and type_ in ("integer", "number")
        # A short word ("to", "day") counts only as the parameter's own name ("to", not "the address to send to").
        if numeric or any(w in own if len(st) <= 3 else w.startswith(st) for st in stems for w in words
                          if len(st) > 3 or w == st):
            en += [w for w in en_words if w not in en]
            ru += [w for w in ru_words if w not in ru]
    return {"en": tuple(en), "ru": tuple(ru)}


_OWN_NAMESPACE = re.compile(r"^(?:(?:functions?|tools?|default_api)[.:/])+", re.I)
_NAME_CACHE = 4096


def _name_key(name: str) -> str:
    return re.sub(r"[\s-]+", "_", norm_text(name))


def _folded(name: str) -> str:
    """A name with case and naming convention folded away: convertCurrency, Save-Note, save note, SAVE_NOTE
    all fold to the same key."""
    return re.sub(r"[\s_\-]+", "", norm_text(name))


_API_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_API_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def api_name(name: str) -> str:
    """The name a tool is declared under where an API refuses it (OpenAI: `^[A-Za-z0-9_-]{1,64}$`): each
    other character written `_xHH_` (a dot `_x2E_`), cut to 64 characters with a digest of the whole when
    longer; a name the API accepts unchanged. Reversed by lookup among the offered tools
    (Toolbox.canonical_name), so it is exact even where two encodings could collide."""
    if _API_NAME.fullmatch(name):
        return name
    encoded = _API_UNSAFE.sub(lambda m: "".join(f"_x{b:02X}_" for b in m.group().encode("utf-8")), name)
    if len(encoded) > 64:
        encoded = encoded[:55] + "_" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return encoded


class Toolbox(MutableMapping[str, Tool]):
    """A set of tools: name -> Tool, in declaration order, plus the tools' other names.

    The registry (tooluse1.tools.TOOLS, the built-in tools) is one, a suite's (tooluse1.suite.Suite.toolbox)
    another; each case carries the one it offers (tooluse1.corpus.Case.toolbox: its corpus's, or a toolbox
    of its own when it declares tools itself), which every stage that reads tools (prompts, parsing,
    grading) takes as an argument. `register` adds a complete tool (ValueError listing
    `Tool.problems()` otherwise); item assignment adds any tool whose name and other names are free (what a
    test's stand-in needs). `canonical_name` reads a model's spelling of a tool name.
    """

    def __init__(self, tools: Iterable[Tool] = ()):
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._api_names: dict[str, str] = {}     # api_name(name) -> name, for the names it changes
        self._folds: dict[str, str] = {}         # _folded(name) -> name, for the folds only one name has
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
        self._api_names = {api_name(n): n for n in self._tools if api_name(n) != n}
        folded: dict[str, list[str]] = {}
        for n in self._tools:
            folded.setdefault(_folded(n), []).append(n)
        self._folds = {k: v[0] for k, v in folded.items() if len(v) == 1}
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
        """The tool a name refers to, by one rule for every tool: the exact name (after dropping the namespace
        of the offered functions), its API encoding (api_name), the name with case and naming convention
        folded (`convertCurrency`, `Save-Note`, `GET_WEATHER`) when exactly one registered tool folds to it,
        then an other name (calc, weather); an unknown name normalised (lower case, `_` for spaces)."""
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
        written = _OWN_NAMESPACE.sub("", name.strip())
        for cand in (written, self._api_names.get(written), self._folds.get(_folded(written))):
            if cand in self._tools:
                return cand
        key = _name_key(written)
        for cand in (key, key.replace("_", "")):
            if cand in self._aliases:
                return self._aliases[cand]
        # Unknown, or a fold two tools share (GET_TIME beside get_time and getTime): no tool's name.
        return written if key in self._tools else key
