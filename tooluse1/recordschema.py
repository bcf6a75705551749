"""The results file's JSON Schema, generated from the types its parts are declared with (one source).

A record's verdict and extraction are the `Verdict` (grade.py) and `Extraction` (parse.py) dataclasses as
their `as_dict` writes them; a call is `tools.Call`; the record row, the provenance and the summary are the
TypedDicts below; the closed vocabularies are tooluse1.types's, and the protocol enums are the protocol
registry's (tooluse1.protocols). A field added to one of these types is in the schema at once; the file
tooluse1/schema/results.schema.json is this module's output for readers without Python
(`python -m tooluse1.recordschema` writes it; tests_grader/test_results.py keeps it current).

What the schema leaves open, on purpose:
- the summary's metric names: a reader recomputes the summary from the records (results.ResultsFile), so a
  file written before a metric existed, or after, still loads (each rate it holds is still checked);
- a record's `expect`: it is a case's expectation as `corpus.Expectation.as_dict` writes it; the reader
  refuses keys that class does not write and reads it with `Expectation.from_dict` (the class is its one
  definition; results.ItemRecord.from_dict);
- the sections tracks add (any other top-level key holding an object): each track validates its own (SPIN:
  tooluse1/spin/scoring.py `section_errors`);
- what backends and the run config record about themselves (`provenance.model`, `.backend`, `.config`).

Type mapping (`schema_of`): every `int` in a results file is a count, so it maps to a non-negative integer;
`Annotated[T, Keywords(...)]` adds JSON Schema keywords to T's; a dataclass or TypedDict is a closed object
in `$defs`, named after the class (CLASS_KEYWORDS opens or adds to one). In the TypedDicts a dataclass stands
for its stored form (`as_dict`): they declare the file, not a Python value.
"""
from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

from tooluse1.grade import Verdict
from tooluse1.metrics import BREAKDOWNS
from tooluse1.parse import Extraction
from tooluse1.protocols import REGISTRY
from tooluse1.langtags import LANG_TAG_PATTERN
from tooluse1.types import Difficulty, ExpectationKind, NegativeKind

SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "results.schema.json"
RESULTS_FORMAT = "tooluse1-results"
# 3: records' reasoning_tokens and ttft_s, the cost section; 4: provenance.corpus.draws (seeded draws);
# 5: sampled trials (records' samples and pass_rate, the summary's samples, the decoding's sampling keys).
# Files of every earlier format load (tooluse1.results.upgrade_document).
RESULTS_FORMAT_VERSION = 5

# Fields a class keeps in memory but its as_dict does not write (so they are not part of the file).
NOT_STORED: dict[type, frozenset[str]] = {Extraction: frozenset({"thinking"})}


class Keywords:
    """JSON Schema keywords for `Annotated[T, Keywords(...)]`, added to T's schema. `name` is not a keyword:
    it is the key a field is written under (for a name Python reserves, e.g. `from`)."""

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords   # hashed by identity: Annotated types must be hashable inside a Union


Sha256 = Annotated[str, Keywords(pattern="^[0-9a-f]{64}$")]
Probability = Annotated[float, Keywords(minimum=0, maximum=1)]
Interval = Annotated[list[Probability], Keywords(minItems=2, maxItems=2)]
NonNegative = Annotated[float, Keywords(minimum=0)]
ProtocolName = Annotated[str, Keywords(enum=list(REGISTRY))]


# ----------------------------------------------------------------------------- the record

class StoredCall(TypedDict):
    """A call a server returned as structured `tool_calls` (its arguments as the server sent them)."""
    name: str | None
    arguments: Any


class SampleRecord(TypedDict):
    """One sample of a sampled item (results.Sample.as_dict): its index, the seed it was generated with (the
    torch.Generator's in-process, the `seed` sent over the OpenAI API), the server's system_fingerprint
    (null in-process or when none came back), its answer and its grading."""
    sample: int
    seed: int | None
    system_fingerprint: str | None
    output: str
    finish_reason: str
    latency_s: NonNegative
    prompt_tokens: int | None
    completion_tokens: int | None
    reasoning_tokens: int | None
    ttft_s: NonNegative | None
    error: str | None
    tool_calls: list[StoredCall] | None
    extraction: Extraction | None
    verdict: Verdict | None
    passed: bool


class Record(TypedDict):
    """One item (case x protocol) as results.ItemRecord.as_dict writes it (each dataclass in its as_dict form)."""
    item_id: Annotated[str, Keywords(minLength=1)]
    case_id: Annotated[str, Keywords(minLength=1)]
    protocol: ProtocolName
    lang: Annotated[str, Keywords(pattern=LANG_TAG_PATTERN, description=(
        "A BCP 47 language tag: en or ru in the built-in corpus, any tag in a suite (tooluse1.langtags)."))]
    category: Annotated[str, Keywords(pattern="^[A-Za-z_][A-Za-z0-9_.-]*$", description=(
        "A tool's name (the built-in ones, or a suite's own: tooluse1.suite), multi_step, negative or "
        "clarification."))]
    difficulty: Difficulty
    kind: NegativeKind | None
    expectation: ExpectationKind
    expect: Annotated[dict[str, Any] | None, Keywords(description=(
        "The case's expectation (tooluse1.corpus.Expectation.as_dict; read back with Expectation.from_dict); "
        "null only in records upgraded from format 1."))]
    output: str
    finish_reason: str
    latency_s: NonNegative
    prompt_tokens: int | None
    completion_tokens: Annotated[int | None, Keywords(description="Reasoning tokens included (OpenAI's count).")]
    reasoning_tokens: Annotated[int | None, Keywords(description=(
        "Completion tokens spent on reasoning, where the server reports them; null otherwise and before format 3."))]
    ttft_s: Annotated[NonNegative | None, Keywords(description=(
        "Streamed requests: seconds from the answered attempt's request to its first generated delta."))]
    error: str | None
    tool_calls: Annotated[list[StoredCall] | None, Keywords(description=(
        "Calls a server returned as structured tool_calls (native protocol over the OpenAI API); null otherwise."))]
    prompt_sha256: Annotated[Sha256 | None, Keywords(description=(
        "sha256 of the rendered prompt this output answers (tooluse1.prompts.Prompt.sha256); null in records "
        "that did not keep it."))]
    extraction: Extraction | None
    verdict: Verdict | None
    passed: Annotated[bool, Keywords(description="A sampled item: every sample passed.")]
    has_constraints: bool
    pass_rate: NotRequired[Annotated[Probability, Keywords(description=(
        "Sampled runs only (format 5): the share of the item's samples that passed."))]]
    samples: NotRequired[Annotated[list[SampleRecord], Keywords(minItems=1, description=(
        "Sampled runs only (format 5): every sample, in order; the record's own answer fields are sample 0's "
        "(its error: the first sample error)."))]]


# ----------------------------------------------------------------------------- provenance

class SuiteRef(TypedDict):
    """A suite of one's own (tooluse1.suite): its folder's name and path; absent for the built-in corpus.
    `api_names`: the names the native protocol declared to an API for tool names it refuses (encoded name ->
    the tool's own name, tooluse1.toolspec.api_name), mapped back before grading; `skipped`: the ids of the
    cases left out because their own right answer fails their grader."""
    name: str
    path: str
    api_names: NotRequired[dict[str, str]]
    skipped: NotRequired[list[str]]


class Draws(TypedDict):
    """Seeded draws of the public cases (tooluse1.draws): SHA-256 of the seed (never the seed), K draws per
    case, the generator version, the public corpus's digest and how many cases were drawn."""
    seed_sha256: Sha256
    k: Annotated[int, Keywords(minimum=1)]
    generator: str
    public_sha256: Sha256
    n_templates: Annotated[int, Keywords(minimum=0)]


class Corpus(TypedDict):
    sha256: Sha256
    version: NotRequired[str | None]
    n_cases: NotRequired[int | None]
    suite: NotRequired[SuiteRef]
    draws: NotRequired[Draws]


class ModelIdentity(TypedDict):
    """Model identity; further keys depend on the backend (revision, dtype, base_url, ...)."""
    backend: str
    model_id: str


class Decoding(TypedDict):
    """The decoding (backends.base.DecodingConfig.as_dict); the sampling keys only in sampled runs."""
    max_new_tokens: Annotated[int, Keywords(minimum=1)]
    temperature: NonNegative
    do_sample: bool
    top_p: NotRequired[Annotated[float, Keywords(exclusiveMinimum=0, maximum=1)]]
    samples: NotRequired[Annotated[int, Keywords(minimum=1)]]
    sample_seed: NotRequired[int]


class OriginalGrading(TypedDict):
    spec_version: str
    corpus: Corpus
    prompt_sha256: NotRequired[Sha256]


class Regrade(TypedDict):
    """Set by `python -m tooluse1 regrade`: the file re-graded and what it was graded against before."""
    from_: Annotated[str, Keywords(name="from")]
    at: str
    original: OriginalGrading
    corpus_changed: bool
    spec_changed: bool


class Provenance(TypedDict):
    spec_version: str
    corpus: Corpus
    prompt_sha256: NotRequired[Annotated[Sha256, Keywords(description=(
        "sha256 over every rendered prompt of the selected items (optional)."))]]
    model: ModelIdentity
    backend: Annotated[dict[str, Any], Keywords(description=(
        "What the backend reports about itself (chat_template_sha256, ...); {} when none was opened."))]
    decoding: Decoding
    batch_size: Annotated[int | None, Keywords(minimum=1)]
    protocols: list[ProtocolName]
    config: NotRequired[Annotated[dict[str, Any], Keywords(description="The run's options (harness.RunConfig).")]]
    libraries: dict[str, str]
    resumed_items: NotRequired[int]
    generated_items: NotRequired[int]
    started_at: str
    finished_at: str
    command: NotRequired[str]
    regrade: NotRequired[Regrade]
    regraded_from: NotRequired[Annotated[str, Keywords(description="Format 1 regrades only: the file re-graded.")]]


# ----------------------------------------------------------------------------- cost

class Percentiles(TypedDict):
    p50: NonNegative
    p90: NonNegative
    p99: NonNegative
    mean: NonNegative


class RunCost(TypedDict):
    """What the run cost (tooluse1.cost.run_cost; recomputed by readers from the records and provenance)."""
    n_items: int
    items_with_usage: int
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int | None
    latency_s: Annotated[Percentiles | None, Keywords(description="Request backends only.")]
    ttft_s: Annotated[Percentiles | None, Keywords(description="Streamed requests only.")]
    wall_s: Annotated[NonNegative | None, Keywords(description="Null for a resumed run.")]
    items_per_min: NonNegative | None
    completion_tokens_per_s: NonNegative | None
    price_in: Annotated[NonNegative | None, Keywords(description="--price-in: per million prompt tokens.")]
    price_out: Annotated[NonNegative | None, Keywords(description="--price-out: per million completion tokens.")]
    cost: Annotated[NonNegative | None, Keywords(description=(
        "prompt_tokens x price_in + completion_tokens x price_out, per million; null without both prices "
        "or when some record has no usage."))]


# ----------------------------------------------------------------------------- summary

class StoredRate(TypedDict):
    """k successes of n items, the rate k/n (null when n = 0) and its Wilson 95% interval (`ci95`, items as
    if independent). Where the group pools several items of one case (protocols pooled), also
    `ci95_clustered` (clustered by case; the one to report), `design_effect` and `n_cases` (metrics.Rate)."""
    k: int
    n: int
    rate: Probability | None
    ci95: Interval
    ci95_clustered: NotRequired[Interval]
    design_effect: NotRequired[NonNegative]
    n_cases: NotRequired[int]


# A group's metrics: any names (metrics.METRICS when written; recomputed when read), each a rate.
Metrics = Annotated[dict[str, StoredRate], Keywords(description=(
    "The metrics of SPEC.md section 3.4 over one group of items (metrics.METRICS); a reader recomputes them "
    "from the records, so the names are not fixed here."))]


class SampledMean(TypedDict):
    """The mean of a per-item value over n items of n_cases cases with its 95% interval clustered by case
    (sampling.MeanInterval.as_dict; mean null when n = 0)."""
    mean: Probability | None
    ci95_clustered: Interval
    n: int
    n_cases: int


class SampledSummary(TypedDict):
    """Sampled runs only (sampling.summarise_samples over the items all of whose samples have an answer): the
    mean score (mean of the per-item pass rates), pass@k and pass^k for k = 1..N, the flip rate (items
    whose samples disagree) and the share of items every sample of which passed."""
    n_items: int
    n_samples: int
    mean: SampledMean
    pass_at_k: dict[str, SampledMean]
    pass_hat_k: dict[str, SampledMean]
    flip_rate: SampledMean
    all_samples_pass: SampledMean


def _summary_type() -> type:
    """The summary TypedDict: counts, the overall metrics and one group per breakdown of metrics.BREAKDOWNS
    (a sampled run's rates are means over samples), and a sampled run's `samples`."""
    # Built at run time from BREAKDOWNS, for the schema generator; mypy takes only literal TypedDict fields.
    by = TypedDict("SummaryBreakdowns", {dim: dict[str, Metrics] for dim in BREAKDOWNS})  # type: ignore[misc]
    return TypedDict("Summary", {"n_items": int, "n_errors": int, "overall": Metrics,  # type: ignore[operator]
                                 "by": by, "samples": NotRequired[SampledSummary]})


# Keywords a class's object schema gets beyond its fields.
CLASS_KEYWORDS: dict[type, dict[str, Any]] = {
    # the clustered interval's three fields come together (metrics.Rate.as_dict)
    StoredRate: {"dependentRequired": {"ci95_clustered": ["design_effect", "n_cases"],
                                       "design_effect": ["ci95_clustered", "n_cases"],
                                       "n_cases": ["ci95_clustered", "design_effect"]}},
    ModelIdentity: {"additionalProperties": True},   # backends record what they know of their model
}


# ----------------------------------------------------------------------------- the generator

_SIMPLE = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


class _Generator:
    """Maps Python types to JSON Schema, collecting classes in `defs` (module docstring: type mapping)."""

    def __init__(self) -> None:
        self.defs: dict[str, dict] = {}

    def schema_of(self, tp: Any) -> dict:
        if get_origin(tp) is Annotated:
            base, *meta = get_args(tp)
            out = dict(self.schema_of(base))
            for m in meta:
                out.update({k: v for k, v in m.keywords.items() if k != "name"})
            return out
        if tp is Any:
            return {}
        if tp is type(None):
            return {"type": "null"}
        for py, js in _SIMPLE:   # by identity: a generic alias with Annotated metadata is unhashable
            if tp is py:
                return {"type": js, **({"minimum": 0} if tp is int else {})}
        origin = get_origin(tp)
        if origin is Literal:
            return {"enum": list(get_args(tp))}
        if origin in (Union, types.UnionType):
            return self._union([self.schema_of(a) for a in get_args(tp)])
        if origin in (list, tuple):
            return {"type": "array", "items": self.schema_of(get_args(tp)[0])}
        if origin is dict or tp is dict:
            args = get_args(tp)
            value = self.schema_of(args[1]) if args else {}
            return {"type": "object", **({"additionalProperties": value} if value else {})}
        if dataclasses.is_dataclass(tp) or typing.is_typeddict(tp):
            return self._ref(tp)
        raise TypeError(f"no JSON Schema mapping for {tp!r}")

    @staticmethod
    def _union(members: list[dict]) -> dict:
        """`{"type": [...]}` when every member is a plain type (keywords of the others kept, as they apply
        to their own type only); else oneOf."""
        if all("type" in m and isinstance(m["type"], str) for m in members):
            out: dict = {}
            for m in members:
                out.update({k: v for k, v in m.items() if k != "type"})
            return {"type": [m["type"] for m in members], **out}
        if all("enum" in m or m == {"type": "null"} for m in members):
            return {"enum": [v for m in members for v in m.get("enum", [None])]}
        return {"oneOf": members}

    def _ref(self, cls: type) -> dict:
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}   # placeholder: a class that refers to itself
            self.defs[name] = self._object(cls)
        return {"$ref": f"#/$defs/{name}"}

    def _object(self, cls: type) -> dict:
        hints = get_type_hints(cls, include_extras=True, localns=vars(sys.modules[__name__]))
        if dataclasses.is_dataclass(cls):
            skip = NOT_STORED.get(cls, frozenset())
            names = [f.name for f in dataclasses.fields(cls) if f.name not in skip]
            required = list(names)
        else:
            names = list(hints)
            # NotRequired read from the hints: with string annotations, __required_keys__ misses it (3.11)
            required = [n for n in names if get_origin(hints[n]) is not NotRequired]
        props, keys = {}, {}
        for n in names:
            tp = hints[n]
            keys[n] = _stored_name(n, tp)
            props[keys[n]] = self.schema_of(_without_not_required(tp))
        out: dict = {"type": "object"}
        if dataclasses.is_dataclass(cls):   # its docstring is about the Python value; name the class instead
            out["description"] = f"{cls.__module__}.{cls.__qualname__}, as its as_dict writes it."
        elif cls.__doc__:
            out["description"] = " ".join(cls.__doc__.split())
        out.update(required=[keys[n] for n in required], additionalProperties=False, properties=props)
        out.update(CLASS_KEYWORDS.get(cls, {}))
        return out


def _without_not_required(tp: Any) -> Any:
    return get_args(tp)[0] if get_origin(tp) is NotRequired else tp


def _stored_name(name: str, tp: Any) -> str:
    """The key a field is written under: its name, or the `name` of its Annotated metadata (a Python keyword
    such as `from`)."""
    tp = _without_not_required(tp)
    if get_origin(tp) is Annotated:
        for m in get_args(tp)[1:]:
            if "name" in m.keywords:
                return m.keywords["name"]
    return name


def results_schema_document() -> dict:
    """The JSON Schema (draft 2020-12) of a results file, format 5, generated from the types above (older files
    conform once read: tooluse1.results.upgrade_document)."""
    gen = _Generator()
    top = {
        "format": {"const": RESULTS_FORMAT},
        "format_version": {"const": RESULTS_FORMAT_VERSION},
        "provenance": gen.schema_of(Provenance),
        "records": {"type": "array", "items": gen.schema_of(Record)},
        "summary": gen.schema_of(_summary_type()),
        "cost": gen.schema_of(RunCost),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://tooluse1.invalid/schema/results.schema.json",
        "title": f"ToolUse.1 results file, format {RESULTS_FORMAT_VERSION}",
        "description": (
            "One benchmark run: provenance, one record per item (case x protocol), the summary, and the "
            "sections tracks contribute (any further top-level key: an object each track validates itself). "
            "Generated from the record types (tooluse1/recordschema.py); do not edit by hand. Strict about every "
            "record field; open where readers recompute or the owner validates (the summary's metric names, "
            "`expect`, the backend's own provenance, track sections). Files without `format_version` are "
            "format 1 (`tooluse1_results: 1`); tooluse1.results.load_results upgrades them (and format 2) first. "
            "`cost` is optional (readers recompute it)."),
        "type": "object",
        "required": [k for k in top if k != "cost"],
        "additionalProperties": {"type": "object",
                                 "description": "A track's section: named and validated by the track."},
        "properties": top,
        "$defs": dict(sorted(gen.defs.items())),
    }


def schema_text() -> str:
    """The generated schema as written to tooluse1/schema/results.schema.json."""
    return json.dumps(results_schema_document(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":   # python -m tooluse1.recordschema: rewrite the committed schema file
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
