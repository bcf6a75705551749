"""The results file (one JSON document); the resume file (append-only JSONL) is tooluse1/resume.py's.

Results file (format 4, described by the JSON Schema tooluse1.recordschema generates from the record types,
written out as tooluse1/schema/results.schema.json): `format` and `format_version`, provenance, one record per
item (raw output, expectation, extraction, verdict, finish reason, latency, tokens), the summary, what the
run cost (`cost`, tooluse1/cost.py), and any section a track contributes (SPIN's `spin`, which the track
validates). A reader recomputes the summary and the cost from the records, so a metric added later never makes
an older file unreadable. Format 3 added the records' `reasoning_tokens` and `ttft_s` and the `cost` section
(a format-2 record reads them as null); format 4 `provenance.corpus.draws`, the seeded draws a run used
(absent: the public cases); format 5 the samples of a sampled run (`--samples`, `--temperature`: a record's
`samples` and `pass_rate`, the summary's `samples` section, the decoding's `top_p`, `samples` and
`sample_seed`; a greedy run writes none of them). It holds raw outputs so a run can be
re-graded without the model (`python -m tooluse1 regrade`). Files written before format 2 (no
`format_version`, a `tooluse1_results: 1` marker, records without `expect`) are format 1; `load_results`
reads both, and every reader (reporter, regrade, compare, report) gets records through
`ItemRecord.from_dict`.

No results or resume file ever holds a secret: `scrub_secrets` masks URL passwords and the values of
secret-looking environment variables in everything the writers write.
"""
from __future__ import annotations

import dataclasses
import json
import os
import platform
import re
import shlex
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping, cast

from tooluse1.backends.base import Completion
from tooluse1.corpus import Case, Expectation
from tooluse1.cost import run_cost
from tooluse1.errors import ToolUse1Error
from tooluse1.grade import Verdict
from tooluse1.metrics import GradedItem, summarise
from tooluse1.parse import Extraction
from tooluse1.prompts import ALL_PROTOCOLS, PROTOCOLS, digest_of_prompt_hashes, item_id as make_item_id
from tooluse1.recordschema import (NOT_STORED, RESULTS_FORMAT, RESULTS_FORMAT_VERSION,
                                   results_schema_document)
from tooluse1.sampling import SampledItem, sample_item_id, summarise_samples
from tooluse1.tools import Call
from tooluse1.types import EXPECTATIONS, ExpectationKind



def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def library_versions() -> dict[str, str]:
    """Versions of the packages results depend on (absent ones omitted)."""
    out = {"python": platform.python_version()}
    for pkg in ("tooluse1", "torch", "transformers", "tokenizers", "openai", "gguf", "pytest", "pyyaml"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    return out


PROJECT_ROOT = Path(__file__).resolve().parent.parent


def portable_path(value: str | Path, root: Path = PROJECT_ROOT) -> str:
    """`value` relative to the project root when it lies inside it (a path a reader can use from their own
    clone), else unchanged. Never touches the file system beyond resolving the path."""
    text = str(value)
    if not text or not os.path.isabs(text):
        return text
    try:
        return Path(text).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return text


# Flags whose value a results file never holds: a private draw seed is recorded only as its SHA-256.
PRIVATE_FLAGS = frozenset({"--draw-seed"})


def invocation(argv: list[str] | None = None, root: Path = PROJECT_ROOT) -> str:
    """The command line that started this process, written so it can be run again from the project's root on
    another machine: `python -m tooluse1 ...` or `pytest ...` for the entry points, and every absolute path
    inside the project made relative to it (a path outside stays as the user gave it); the value of a
    PRIVATE_FLAGS flag written `***`."""
    argv = list(sys.argv if argv is None else argv)
    head, rest = (argv[0] if argv else ""), argv[1:]
    name = Path(head).name
    if head.endswith(("tooluse1/__main__.py", "tooluse1/cli.py")) or name == "tooluse1":
        prefix = ["python", "-m", "tooluse1"]
    elif name in ("pytest", "py.test") or head.endswith("pytest/__main__.py"):
        prefix = ["pytest"]
    else:
        prefix = [portable_path(head, root)] if head else []
    args = []
    for i, a in enumerate(rest):
        flag, eq, value = a.partition("=")
        if flag in PRIVATE_FLAGS or (i and rest[i - 1] in PRIVATE_FLAGS):
            args.append(f"{flag}=***" if eq else (a if flag in PRIVATE_FLAGS else "***"))
            continue
        args.append(f"{flag}={portable_path(value, root)}" if eq and flag.startswith("-") else portable_path(a, root))
    return shlex.join(prefix + args)


# ----------------------------------------------------------------------------- secrets

_SECRET_ENV = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH", re.I)
_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)(?P<pw>[^@\s/]+)(?=@)")
_QUERY_SECRET = re.compile(r"(?P<head>[?&](?:password|passwd|pwd|api[_-]?key|key|token|secret|access_token)=)"
                           r"(?P<pw>[^&\s#]+)", re.I)


def _looks_secret(value: str) -> bool:
    # Short values, plain words and file paths in a secret-named variable (KEYRING_BACKEND=default,
    # HF_TOKEN_PATH=/root/...) are not secrets, and replacing them everywhere would mangle outputs.
    return len(value) >= 8 and not value.startswith(("/", "~")) and not re.fullmatch(r"[a-z_.-]+", value)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """Values of environment variables whose names look secret (API keys, tokens, passwords), longest
    first (see _looks_secret for the values left out)."""
    env = os.environ if environ is None else environ
    return sorted({v for k, v in env.items() if _SECRET_ENV.search(k) and _looks_secret(v)}, key=len, reverse=True)


def scrub_secrets(obj: Any, secrets: Iterable[str] | None = None) -> Any:
    """`obj` (a JSON-like structure, or a string) with every URL password, secret query parameter and
    secret environment value replaced by `***`. Returns a new structure; the input is not changed.

    Guarantees what the results file, the report and the logs rely on: no value of a secret-looking
    environment variable (see `secret_values`) and no password of a `scheme://user:password@host` URL
    survives, wherever it occurs (provenance, a command line, an error message)."""
    values = list(secret_values() if secrets is None else secrets)

    def clean(text: str) -> str:
        for v in values:
            if v in text:
                text = text.replace(v, "***")
        text = _URL_PASSWORD.sub(lambda m: m["head"] + "***", text)
        return _QUERY_SECRET.sub(lambda m: m["head"] + "***", text)

    def walk(o: Any) -> Any:
        if isinstance(o, str):
            return clean(o)
        if isinstance(o, dict):
            return {clean(k) if isinstance(k, str) else k: walk(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [walk(v) for v in o]
        return o

    return walk(obj)


# ----------------------------------------------------------------------------- records

class RecordError(ToolUse1Error, ValueError):
    """A results-file record that cannot be read back (missing or inconsistent fields)."""


def _known_fields(cls: type, d: Mapping[str, Any]) -> dict[str, Any]:
    # Verdict and Extraction gain fields over time; a newer file's unknown fields are dropped here so that
    # older readers can still read it, and an older file's missing fields take the dataclass defaults.
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in d.items() if k in names}


# The keys Expectation.as_dict writes: its kind as a key (`call: {...}`, `no_call: true`, `clarify: true`) and
# its other fields by name (the class is the one definition of a stored expectation; the schema leaves it open).
_EXPECT_KEYS = frozenset(EXPECTATIONS) | {f.name for f in dataclasses.fields(Expectation)} - {"kind"}


def _expectation_from(kind: str, stored: Mapping[str, Any] | None) -> Expectation:
    if stored is None:   # format 1: only the kind was kept
        return Expectation(cast(ExpectationKind, kind))
    unknown = sorted(set(stored) - _EXPECT_KEYS)
    if unknown:
        raise ValueError(f"expect has unknown field(s) {unknown}")
    return Expectation.from_dict(dict(stored))


def _graded_parts(ex_d: Mapping[str, Any] | None, v_d: Mapping[str, Any] | None
                  ) -> tuple[Extraction | None, Verdict | None]:
    """The stored extraction and verdict read back (unknown fields dropped, missing ones defaulted)."""
    extraction = None
    if ex_d is not None:
        fields = _known_fields(Extraction, ex_d)
        for key in ("calls", "examples"):
            fields[key] = [Call(c["name"], dict(c.get("arguments") or {})) for c in ex_d.get(key) or ()]
        extraction = Extraction(**fields)
    verdict = Verdict(**_known_fields(Verdict, v_d)) if v_d is not None else None
    return extraction, verdict


@dataclass
class Sample:
    """One sample of an item of a sampled run: its index, its answer (with the seed it was generated with
    and the server's `system_fingerprint`, in the Completion) and its grading."""

    index: int
    completion: Completion
    extraction: Extraction | None
    verdict: Verdict | None

    @property
    def is_error(self) -> bool:
        return self.completion.error is not None

    @property
    def passed(self) -> bool:
        """Graded and passed (a backend error never passes)."""
        return bool(self.verdict and self.verdict.passed and not self.is_error)

    def as_dict(self) -> dict:
        c = self.completion
        return {"sample": self.index, "seed": c.seed, "system_fingerprint": c.system_fingerprint,
                "output": c.text, "finish_reason": c.finish_reason, "latency_s": round(c.latency_s, 4),
                "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens,
                "reasoning_tokens": c.reasoning_tokens, "ttft_s": c.ttft_s, "error": c.error,
                "tool_calls": c.tool_calls,
                "extraction": self.extraction.as_dict() if self.extraction else None,
                "verdict": self.verdict.as_dict() if self.verdict else None, "passed": self.passed}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], item_id: str, prompt_sha256: str | None) -> "Sample":
        """A stored sample read back (KeyError/TypeError/ValueError on a malformed one: the record's reader
        names the item)."""
        completion = Completion(item_id=sample_item_id(item_id, int(d["sample"])), text=d["output"],
                                finish_reason=d["finish_reason"], latency_s=float(d.get("latency_s") or 0.0),
                                prompt_tokens=d.get("prompt_tokens"), completion_tokens=d.get("completion_tokens"),
                                error=d.get("error"), tool_calls=d.get("tool_calls"), prompt_sha256=prompt_sha256,
                                reasoning_tokens=d.get("reasoning_tokens"), ttft_s=d.get("ttft_s"),
                                seed=d.get("seed"), system_fingerprint=d.get("system_fingerprint"))
        sample = cls(int(d["sample"]), completion, *_graded_parts(d.get("extraction"), d.get("verdict")))
        if sample.verdict is None and not sample.is_error:
            raise ValueError(f"sample {sample.index}: no verdict and no backend error")
        if "passed" in d and bool(d["passed"]) != sample.passed:
            raise ValueError(f"sample {sample.index}: 'passed' is {d['passed']} but the verdict says {sample.passed}")
        return sample


@dataclass
class ItemRecord:
    """One graded item as stored in the results file (`as_dict`) and read back (`from_dict`).

    In a sampled run `samples` holds every sample, in order (`of_samples`); the record's own answer fields
    (completion, extraction, verdict) are then sample 0's, shown where one answer is shown, except `error`,
    which is the first sample error (an item any of whose samples has no answer is an error item). A
    sampled item passes when every sample passes (what its pytest item reports); its `pass_rate` is the
    share that passed, and the run's scores are means over samples (`graded_items`)."""

    case: Case
    protocol: str
    completion: Completion
    extraction: Extraction | None
    verdict: Verdict | None
    # Set only by from_dict on a format-1 record, which kept whether the case had answer constraints but
    # not the expectation itself (expect_known False); otherwise derived from case.expect.
    has_constraints: bool | None = None
    expect_known: bool = True
    samples: list[Sample] | None = None

    @classmethod
    def of_samples(cls, case: Case, protocol: str, samples: list[Sample]) -> "ItemRecord":
        """The record of a sampled item from its graded samples (at least one, in order)."""
        if not samples:
            raise ValueError("a sampled item needs at least one sample")
        first = samples[0]
        error = next((s.completion.error for s in samples if s.is_error), None)
        completion = dataclasses.replace(first.completion, item_id=make_item_id(case.id, protocol), error=error)
        return cls(case, protocol, completion, first.extraction, first.verdict, samples=list(samples))

    @property
    def pass_rate(self) -> float | None:
        """Share of the samples that passed (None for an unsampled record)."""
        return sum(s.passed for s in self.samples) / len(self.samples) if self.samples else None

    def __post_init__(self) -> None:
        if self.has_constraints is None:   # spec 2.0: every text answer has a requirement (non-empty at least)
            self.has_constraints = self.case.expect.kind != "call"

    @property
    def item_id(self) -> str:
        return self.completion.item_id

    @property
    def is_error(self) -> bool:
        if self.samples:
            return any(s.is_error for s in self.samples)
        return self.completion.error is not None

    @property
    def passed(self) -> bool:
        """Graded and passed (a backend error never passes); a sampled item: every sample passed."""
        if self.samples:
            return all(s.passed for s in self.samples)
        return bool(self.verdict and self.verdict.passed and not self.is_error)

    @property
    def label(self) -> str:
        """call | malformed | text, or `error` when the backend gave no answer."""
        return self.verdict.label if self.verdict is not None and not self.is_error else "error"

    def answers(self) -> list["ItemRecord"]:
        """Every answer of this record as an unsampled record: the record itself, or one per sample in order
        (its completion, extraction and verdict, its item id `<item id>#<sample>`; case and protocol the
        record's). What shows or compares answers one by one (report, deployment conformance) iterates."""
        if not self.samples:
            return [self]
        return [dataclasses.replace(self, completion=s.completion, extraction=s.extraction, verdict=s.verdict,
                                    samples=None) for s in self.samples]

    def graded_item(self) -> GradedItem:
        """What metrics need of this record (an unsampled one; see graded_items)."""
        return dataclasses.replace(GradedItem.of(self.case, self.protocol, self.verdict, self.is_error),
                                   has_constraints=bool(self.has_constraints))

    def graded_items(self) -> list[GradedItem]:
        """What metrics count of this record: the record itself, or one item per sample (so a run's rates are
        means over samples: its score the mean of the per-item pass rates, clustered by case)."""
        if not self.samples:
            return [self.graded_item()]
        return [dataclasses.replace(GradedItem.of(self.case, self.protocol, s.verdict, s.is_error),
                                    has_constraints=bool(self.has_constraints)) for s in self.samples]

    def as_dict(self) -> dict:
        c = self.case
        return {
            "item_id": self.item_id, "case_id": c.id, "protocol": self.protocol, "lang": c.lang,
            "category": c.category, "difficulty": c.difficulty, "kind": c.kind, "expectation": c.expectation,
            "expect": c.expect.as_dict() if self.expect_known else None,
            "output": self.completion.text, "finish_reason": self.completion.finish_reason,
            "latency_s": round(self.completion.latency_s, 4), "prompt_tokens": self.completion.prompt_tokens,
            "completion_tokens": self.completion.completion_tokens,
            "reasoning_tokens": self.completion.reasoning_tokens, "ttft_s": self.completion.ttft_s,
            "error": self.completion.error,
            "tool_calls": self.completion.tool_calls, "prompt_sha256": self.completion.prompt_sha256,
            "extraction": self.extraction.as_dict() if self.extraction else None,
            "verdict": self.verdict.as_dict() if self.verdict else None,
            "passed": self.passed, "has_constraints": bool(self.has_constraints),
            **({"pass_rate": self.pass_rate, "samples": [s.as_dict() for s in self.samples]}
               if self.samples else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ItemRecord":
        """Read a record back (any readable format; a sampled one with its samples). Guarantees: the item's
        identity, attributes, raw output, extraction and verdict as stored (and each sample's); `passed`
        recomputed and checked against the stored flag (and each sample's).
        Raises RecordError naming the item and the field when the record is incomplete or inconsistent."""
        where = f"record {d.get('item_id', '?')!r}" if isinstance(d, Mapping) else "record"
        try:
            expect_stored = d.get("expect")
            case = Case(id=d["case_id"], lang=d["lang"], category=d["category"], difficulty=d["difficulty"],
                        tools=(), messages=(),
                        expect=_expectation_from(d["expectation"], expect_stored), kind=d.get("kind"),
                        source=f"results record {d['item_id']}")
            completion = Completion(item_id=d["item_id"], text=d["output"], finish_reason=d["finish_reason"],
                                    latency_s=float(d.get("latency_s") or 0.0), prompt_tokens=d.get("prompt_tokens"),
                                    completion_tokens=d.get("completion_tokens"), error=d.get("error"),
                                    tool_calls=d.get("tool_calls"), prompt_sha256=d.get("prompt_sha256"),
                                    reasoning_tokens=d.get("reasoning_tokens"), ttft_s=d.get("ttft_s"))
            extraction, verdict = _graded_parts(d.get("extraction"), d.get("verdict"))
            stored_samples = d.get("samples")
            samples = [Sample.from_dict(s, d["item_id"], d.get("prompt_sha256")) for s in stored_samples] \
                if stored_samples else None
            record = cls(case, d["protocol"], completion, extraction, verdict,
                         has_constraints=None if expect_stored is not None else bool(d["has_constraints"]),
                         expect_known=expect_stored is not None, samples=samples)
        except KeyError as e:
            raise RecordError(f"{where}: missing field {e.args[0]!r}") from None
        except (TypeError, AttributeError, ValueError) as e:
            raise RecordError(f"{where}: malformed ({e})") from None
        if record.verdict is None and not record.is_error:
            raise RecordError(f"{where}: no verdict and no backend error")
        if "passed" in d and bool(d["passed"]) != record.passed:
            raise RecordError(f"{where}: 'passed' is {d['passed']} but the verdict says {record.passed}")
        return record


def summarise_records(records: Iterable[ItemRecord]) -> dict:
    """The summary of a results document: `metrics.summarise` over every record's `graded_items` (in a sampled
    run one per sample, so each rate is a mean over samples, clustered by case), with `n_items` and
    `n_errors` counting records; a sampled run adds `samples` (`sampling.summarise_samples` over the items
    whose samples all have an answer: mean score, pass@k, pass^k, flip rate)."""
    records = list(records)
    summary = summarise(g for r in records for g in r.graded_items())
    if any(r.samples for r in records):
        summary["n_items"] = len(records)
        summary["n_errors"] = sum(1 for r in records if r.is_error)
        complete = [r for r in records if r.samples and not r.is_error]
        counts = {len(r.samples or ()) for r in complete}
        if len(counts) > 1:    # a file merged from runs of different N: pass@k is defined for the common N only
            n = min(counts)
            complete = [dataclasses.replace(r, samples=(r.samples or [])[:n]) for r in complete]
        summary["samples"] = summarise_samples([SampledItem(r.case.cluster, r.item_id,
                                                            tuple(s.passed for s in r.samples or ()))
                                                for r in complete])
    return summary


def _protocol_rank(protocol: str) -> int:
    return ALL_PROTOCOLS.index(protocol) if protocol in ALL_PROTOCOLS else len(ALL_PROTOCOLS)


def build_results(provenance: dict, records: Iterable[ItemRecord], sections: Mapping[str, dict] | None = None) -> dict:
    """The whole results document (format 3): records sorted by case id then protocol, the summary over
    them, the run's cost, then the tracks' `sections` (e.g. `spin`). Secrets are scrubbed (see
    `scrub_secrets`). When every record knows its prompt's sha256, `provenance.prompt_sha256` is their digest
    (prompts.prompt_digest)."""
    records = sorted(records, key=lambda r: (r.case.id, _protocol_rank(r.protocol)))
    shas = [(r.item_id, r.completion.prompt_sha256) for r in records]
    if shas and all(sha for _, sha in shas):
        # Every prompt of the run in one digest: equal digests mean the same prompts (compare checks it).
        provenance = {**provenance, "prompt_sha256": digest_of_prompt_hashes(shas)}  # type: ignore[arg-type]
    stored = [r.as_dict() for r in records]
    doc = {"format": RESULTS_FORMAT, "format_version": RESULTS_FORMAT_VERSION, "provenance": provenance,
           "records": stored, "summary": summarise_records(records),
           "cost": run_cost(stored, provenance)}
    doc.update(sections or {})
    return scrub_secrets(doc)


CORE_KEYS = ("format", "format_version", "provenance", "records", "summary", "cost")


def track_sections(document: Mapping[str, Any]) -> dict[str, Any]:
    """The sections tracks contributed to a results document (everything but the core keys)."""
    return {k: v for k, v in document.items() if k not in CORE_KEYS}


def dumps_json(document: Any, indent: int | None = 1) -> bytes:
    """UTF-8 JSON of `document`. Lone surrogates (possible in a server's JSON answer) are written as JSON
    `\\uXXXX` escapes, which read back to the same string; a plain UTF-8 encode would fail on them and lose
    the run."""
    return json.dumps(document, ensure_ascii=False, indent=indent).encode("utf-8", errors="backslashreplace")


def write_json_atomic(path: Path, document: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(dumps_json(document) + b"\n")
    tmp.replace(path)


# ----------------------------------------------------------------------------- reading results files

class ResultsFileError(ToolUse1Error, ValueError):
    """A results file that cannot be used; the message names the file and what is wrong."""


@lru_cache(maxsize=1)
def results_schema() -> dict:
    """The JSON Schema of the current results format, generated from the record types (tooluse1.recordschema;
    tooluse1/schema/results.schema.json is the same document written out)."""
    return results_schema_document()


def schema_errors(document: Any, limit: int = 5, schema: Mapping[str, Any] | None = None) -> list[str]:
    """Where `document` breaks the results schema (or `schema`, e.g. a track's section schema), as
    `path: message` lines (at most `limit`); empty when it conforms."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(results_schema() if schema is None else schema)
    out = []
    for err in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".")
        out.append(f"{path or '(top level)'}: {err.message[:300]}")
        if len(out) >= limit:
            break
    return out


def upgrade_document(document: dict) -> tuple[dict, int]:
    """(the document in the current format, the format version it was written in). A format-1 document
    (no `format_version`; `tooluse1_results: 1`) gets the format fields and `expect: null` in its records
    (format 1 did not store the expectation). In every record, a verdict or extraction field the file does
    not hold (written before the field existed) gets its dataclass default. The input is not changed. Raises
    ResultsFileError for a document that is neither format."""
    if not isinstance(document, dict):
        raise ResultsFileError("not a ToolUse.1 results file (the JSON document is not an object)")
    version = document.get("format_version")
    if version is None and document.get("tooluse1_results") == 1:
        doc = {k: v for k, v in document.items() if k != "tooluse1_results"}
        doc = {"format": RESULTS_FORMAT, "format_version": RESULTS_FORMAT_VERSION, **doc}
        version = 1
    elif version is None:
        raise ResultsFileError("not a ToolUse.1 results file (no format_version and no tooluse1_results marker)")
    elif version not in READABLE_VERSIONS:
        raise ResultsFileError(f"results format_version {version!r} is not supported by this tooluse1 "
                               f"(it reads {', '.join(map(str, READABLE_VERSIONS))})")
    else:
        doc = {**document, "format_version": RESULTS_FORMAT_VERSION}
    if isinstance(doc.get("records"), list):
        doc["records"] = [_upgrade_record(r, version) if isinstance(r, dict) else r for r in doc["records"]]
    return doc, version


READABLE_VERSIONS = (1, 2, 3, 4, RESULTS_FORMAT_VERSION)
# What format-1 records lack besides verdict and extraction fields: no structured calls, no prompt hash, and
# the expectation itself was not stored.
_FORMAT_1_RECORD = {"expect": None, "tool_calls": None, "prompt_sha256": None}
# What format-1 and -2 records lack: the usage and timing fields format 3 added.
_FORMAT_2_RECORD = {"reasoning_tokens": None, "ttft_s": None}


def _stored_defaults(cls: type) -> dict[str, Any]:
    """The stored fields of a dataclass that have a default, with a fresh copy of it: what a record written
    before the field existed reads as (format 1 had no examples, nothing broken, and was never cut off: 1.x
    graded cut-off answers like any other). So a field added to Verdict or Extraction breaks no older file."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in NOT_STORED.get(cls, ()):
            continue
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
    return out


def _upgrade_record(r: dict, version: int) -> dict:
    out = {**_FORMAT_1_RECORD, **r} if version == 1 else dict(r)
    if version < 3:
        out = {**_FORMAT_2_RECORD, **out}
    for part, cls in (("extraction", Extraction), ("verdict", Verdict)):
        if isinstance(out.get(part), dict):
            out[part] = {**_stored_defaults(cls), **out[part]}
    return out


@dataclass
class ResultsFile:
    """A results document read back and checked: schema-valid, records as ItemRecords."""

    source: str                 # the path (or a description) for messages
    document: dict              # in the current format (see upgrade_document)
    records: list[ItemRecord]
    format_version: int         # as written

    @property
    def provenance(self) -> dict:
        return self.document["provenance"]

    @property
    def summary(self) -> dict:
        """The summary of the records, recomputed by this version when the file was read (see from_document)."""
        return self.document["summary"]

    @property
    def prompt_sha256(self) -> str | None:
        return self.provenance.get("prompt_sha256")

    def summary_of(self, protocols: Collection[str]) -> dict:
        """The summary (`metrics.summarise`) of the records in `protocols` only; n = 0 everywhere when none."""
        return summarise_records(r for r in self.records if r.protocol in protocols)

    def headline(self) -> tuple[str, dict]:
        """(label, summary) of the run's headline pool: the text protocols it ran (SPEC §3.4: json+xml+plain,
        the comparable score), with native reported apart; a run of native alone is its own headline."""
        text: list[str] = [p for p in PROTOCOLS if any(r.protocol == p for r in self.records)]
        pool = text or sorted({r.protocol for r in self.records}, key=_protocol_rank)
        return "+".join(pool), self.summary_of(pool)

    @classmethod
    def from_document(cls, document: Any, source: str = "results", validate: bool = True) -> "ResultsFile":
        """Check `document` (format 1 or 2) against the schema and read its records; the summary is recomputed
        from the records (the stored one is only checked to be rates). Raises ResultsFileError whose message
        starts with `source`. Track sections are the tracks' to check. `validate=False` skips the schema check, for a
        document this process has just built (the writer is checked against the schema by the tests; a
        finished run must not fail on it)."""
        try:
            doc, version = upgrade_document(document)
        except ResultsFileError as e:
            raise ResultsFileError(f"{source}: {e}") from None
        problems = schema_errors(doc) if validate else []
        if problems:
            raise ResultsFileError(f"{source}: not a valid ToolUse.1 results file:\n  " + "\n  ".join(problems))
        try:
            records = [ItemRecord.from_dict(r) for r in doc["records"]]
        except RecordError as e:
            raise ResultsFileError(f"{source}: {e}") from None
        ids = [r.item_id for r in records]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise ResultsFileError(f"{source}: record {dup!r} appears more than once")
        # The summary is a function of the records: recomputed with this version's metrics, so a file written
        # before a metric existed has it too, and every reader sees one set of metrics whatever the file's age.
        doc = {**doc, "summary": summarise_records(records),
               "cost": run_cost(doc["records"], doc["provenance"])}
        return cls(source, doc, records, version)


def load_results(path: str | Path) -> ResultsFile:
    """Read and check a results file. Raises ResultsFileError naming the file for a missing or unreadable
    file, invalid JSON, or a document that is not a valid ToolUse.1 results file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ResultsFileError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise ResultsFileError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise ResultsFileError(f"{path}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    return ResultsFile.from_document(document, str(path))
