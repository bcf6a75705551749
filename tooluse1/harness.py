"""A benchmark run without pytest: config -> backend -> completions (resumable) -> graded records.

The pytest plugin and `python -m tooluse1 run` are thin layers over `BenchmarkRun`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

from tooluse1.backends.base import Backend, Completion, DecodingConfig
from tooluse1.backends.registry import BackendEntry, Target, backend_names, choose, resolve
from tooluse1.corpus import SPEC_VERSION, Case, corpus_provenance
from tooluse1.grade import grade_completion
from tooluse1.prompts import PROTOCOLS, Prompt, item_id, render
from tooluse1.results import (ItemRecord, Sample, invocation, library_versions, now_iso, portable_path,
                              scrub_secrets)
from tooluse1.resume import AppendLog, LogFormat
from tooluse1.sampling import sample_item_id, sample_seed

BACKENDS = backend_names()
RESUME_FORMAT = 2   # 2: each line carries its prompt's sha256 (and structured tool calls); the key no
                    # longer holds the corpus digest (prompts are checked per item)


def _completion_line(c: Completion) -> dict:
    return {"item_id": c.item_id, "text": c.text, "finish_reason": c.finish_reason, "latency_s": c.latency_s,
            "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens,
            "tool_calls": c.tool_calls, "prompt_sha256": c.prompt_sha256,
            "reasoning_tokens": c.reasoning_tokens, "ttft_s": c.ttft_s,
            **({"seed": c.seed, "system_fingerprint": c.system_fingerprint} if c.seed is not None else {})}


def _completion_of(d: dict) -> Completion:
    return Completion(item_id=d["item_id"], text=d["text"], finish_reason=d["finish_reason"],
                      latency_s=d.get("latency_s", 0.0), prompt_tokens=d.get("prompt_tokens"),
                      completion_tokens=d.get("completion_tokens"), tool_calls=d.get("tool_calls"),
                      prompt_sha256=d.get("prompt_sha256"), reasoning_tokens=d.get("reasoning_tokens"),
                      ttft_s=d.get("ttft_s"), seed=d.get("seed"), system_fingerprint=d.get("system_fingerprint"))


# The core track's resume log (`--resume`): one line per finished completion, keyed by item id.
COMPLETION_LOG: LogFormat[Completion] = LogFormat(
    flag="--resume", header_field="tooluse1_resume", version=RESUME_FORMAT, check_version=True,
    what="a ToolUse.1 resume file", fix="use a new --resume path, or the same model, decoding config and corpus",
    encode=_completion_line, decode=_completion_of, key=lambda c: c.item_id)


@dataclass
class RunConfig:
    """Everything a user chooses for a run (the CLI flags of the plugin). The defaults here are the only
    ones: the pytest options and the CLI read them from this class."""

    model: str
    backend: str = "auto"                 # a backends.registry name; auto: registry.choose picks one
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    protocols: tuple[str, ...] = PROTOCOLS
    batch_size: int | None = None         # transformers: None = the backend's default (32 fast, 8 --no-fast)
    max_new_tokens: int = DecodingConfig.max_new_tokens
    dtype: str = "float32"
    device: str = "cpu"
    threads: int | None = None            # transformers: torch CPU threads (None: torch's default, one per core)
    concurrency: int = 8
    request_timeout: float = 120.0
    max_retries: int = 5                  # openai: retries of 429/5xx/timeouts/dropped connections per request
    stream: bool = False                  # openai: streamed requests, deltas reassembled (a deployment check)
    price_in: float | None = None         # per million prompt tokens: the results' cost section prices the run
    price_out: float | None = None        # per million completion tokens
    fast: bool = True                     # transformers: shared-prefix cache + slot refill (off = reference path)
    samples: int = 1                      # sampled trials: answers per item (DecodingConfig; 1 with T 0 = greedy)
    temperature: float = 0.0
    top_p: float = 1.0
    sample_seed: int = 0                  # sample j of item i is seeded sampling.sample_seed(this, i, j)
    resume: Path | None = None
    results: Path | None = None
    min_score: float | None = None
    progress: bool = True

    def backend_entry(self) -> BackendEntry:
        """The registry entry this config runs on (`auto` resolved); BackendError for an unknown name."""
        return choose(self.backend, self.model, asdict(self))

    def resolved_backend(self) -> str:
        """The name of the backend this config runs on (`auto` resolved)."""
        return self.backend_entry().name

    @property
    def decoding(self) -> DecodingConfig:
        return DecodingConfig(max_new_tokens=self.max_new_tokens, temperature=self.temperature, top_p=self.top_p,
                              samples=self.samples, sample_seed=self.sample_seed)


def backend_target(config: RunConfig, cases: dict[str, Case]) -> tuple[BackendEntry, Target]:
    """The config's backend entry and what it opens on (a checkpoint is resolved here, once)."""
    entry = config.backend_entry()
    return entry, resolve(entry, config.model, asdict(config), cases)


def open_backend(config: RunConfig, cases: dict[str, Case]) -> Backend:
    """Construct (and for servers, check) the backend a config names; BackendError says what to fix."""
    entry, target = backend_target(config, cases)
    return entry.open(target)


@dataclass
class BenchmarkRun:
    """One run: generates completions for requested items (once each, resumable) and grades them."""

    config: RunConfig
    cases: dict[str, Case]
    manifest: dict
    started_at: str = field(default_factory=now_iso)
    _backend: Backend | None = None
    _target: tuple[BackendEntry, Target] | None = None
    _resume: AppendLog[Completion] | None = None
    _completions: dict[str, Completion] = field(default_factory=dict)
    _identity: dict | None = None
    _closed_provenance: dict | None = None
    resumed_items: int = 0        # completions taken from the resume file
    generated_items: int = 0      # completions generated by this process

    def target(self) -> tuple[BackendEntry, Target]:
        """The backend entry and its target, resolved once per run (identity and backend share them)."""
        if self._target is None:
            self._target = backend_target(self.config, self.cases)
        return self._target

    def identity(self) -> dict:
        """The model's identity for resume keys and provenance, known before any weights are loaded; a
        password in a URL never reaches it."""
        if self._identity is None:
            entry, target = self.target()
            self._identity = scrub_secrets(entry.identity(target))
        return self._identity

    def run_key(self) -> dict:
        """What a resume file must share with this run: the model and the decoding. Prompts are checked per
        item (each resumed answer carries its prompt's sha256), so a new corpus or prompt regenerates
        exactly the items whose prompts changed, and a different selection (-k) still resumes. The number of
        samples is left out: sample j's seed does not depend on it, so a run of more samples resumes one of
        fewer and generates only the samples it adds."""
        decoding = {k: v for k, v in self.config.decoding.as_dict().items() if k != "samples"}
        return {"model": self.identity(), "decoding": decoding}

    def open_resume(self) -> None:
        if self.config.resume is not None and self._resume is None:
            self._resume = AppendLog(self.config.resume, self.run_key(), COMPLETION_LOG)
            self._completions.update(self._resume.done)
            self.resumed_items = len(self._resume.done)

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            entry, target = self.target()
            self._backend = entry.open(target)
        return self._backend

    def prompts_for(self, items: Sequence[tuple[str, str]]) -> list[Prompt]:
        """The prompts to answer for these items: one per item, or in a sampled run (DecodingConfig.sampled)
        one per sample, sample j of item i with item id `sampling.sample_item_id(i, j)`, its index and its
        seed `sampling.sample_seed(sample_seed, i, j)` (the samples of an item are adjacent, in order)."""
        decoding = self.config.decoding
        prompts = [render(self.cases[case_id], protocol) for case_id, protocol in items]
        if not decoding.sampled:
            return prompts
        return [replace(p, item_id=sample_item_id(p.item_id, j), sample=j,
                        seed=sample_seed(decoding.sample_seed, p.item_id, j))
                for p in prompts for j in range(decoding.samples)]

    def generate(self, items: Sequence[tuple[str, str]],
                 progress: Callable[[int], object] | None = None) -> int:
        """Make sure every (case_id, protocol) item has a completion; only missing ones are generated.
        Returns how many were generated now (samples, in a sampled run). Each finished one goes to the resume
        file immediately."""
        self.open_resume()
        todo = [p for p in self.prompts_for(items) if not self._answered(p)]
        if not todo:
            return 0
        sha_of = {p.item_id: p.sha256 for p in todo}
        seed_of = {p.item_id: p.seed for p in todo}

        def on_complete(c: Completion) -> None:
            c.prompt_sha256 = sha_of.get(c.item_id)
            c.seed = seed_of.get(c.item_id)     # the sample's seed, whatever the backend did with it
            self._completions[c.item_id] = c
            if self._resume is not None and c.error is None:   # a failed item is retried on resume
                self._resume.append(c)
            if progress:
                progress(1)

        self.generated_items += len(todo)
        results = self.backend.generate(todo, self.config.decoding, on_complete)
        for c in results:   # backends call on_complete, but the returned list is authoritative
            c.prompt_sha256 = sha_of.get(c.item_id)
            c.seed = seed_of.get(c.item_id)
            self._completions[c.item_id] = c
        return len(todo)

    def _answered(self, prompt: Prompt) -> bool:
        c = self._completions.get(prompt.item_id)
        return c is not None and c.prompt_sha256 == prompt.sha256

    def has_completion(self, case_id: str, protocol: str) -> bool:
        """Whether the item has an answer to its current prompt (generated now or taken from the resume file)."""
        return not self.missing([(case_id, protocol)])

    def missing(self, items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        """The items that have no answer to their current prompt yet (what `generate` would generate);
        the resume file is opened first."""
        self.open_resume()
        items = list(items)
        n = self.config.decoding.samples if self.config.decoding.sampled else 1
        prompts = self.prompts_for(items)
        return [it for k, it in enumerate(items) if not all(self._answered(p) for p in prompts[k * n:(k + 1) * n])]

    def record(self, case_id: str, protocol: str) -> ItemRecord:
        """The graded record of an item whose completion exists (generate() first); in a sampled run, with
        every sample graded (`ItemRecord.of_samples`)."""
        iid = item_id(case_id, protocol)
        case = self.cases[case_id]
        decoding = self.config.decoding
        if not decoding.sampled:
            c = self._completions[iid]
            return ItemRecord(case, protocol, c, *grade_completion(case, c, protocol))
        completions = [self._completions[sample_item_id(iid, j)] for j in range(decoding.samples)]
        return ItemRecord.of_samples(case, protocol, [Sample(j, c, *grade_completion(case, c, protocol))
                                                      for j, c in enumerate(completions)])

    def provenance(self, finished_at: str | None = None) -> dict:
        backend_info = self._backend_provenance()
        cfg = asdict(self.config)
        for k in ("resume", "results"):
            cfg[k] = portable_path(cfg[k]) if cfg[k] else None
        return {
            "spec_version": SPEC_VERSION,
            "corpus": corpus_provenance(self.manifest),
            "model": self.identity(), "backend": backend_info,
            "decoding": self.config.decoding.as_dict(),
            # the effective value: with no --batch-size the transformers backend picks its own default
            "batch_size": backend_info.get("batch_size", self.config.batch_size),
            "protocols": list(self.config.protocols), "config": cfg, "libraries": library_versions(),
            "resumed_items": self.resumed_items, "generated_items": self.generated_items,
            "started_at": self.started_at, "finished_at": finished_at or now_iso(),
            "command": invocation(),
        }

    def _backend_provenance(self) -> dict:
        if self._closed_provenance is not None:
            return self._closed_provenance
        if self._backend is None:
            return {}
        try:
            return self._backend.provenance()
        except Exception as e:  # provenance must never lose a finished run's results
            return {"provenance_error": repr(e)}

    def close(self) -> None:
        """Release the backend; its provenance is kept for the results file written afterwards."""
        if self._backend is not None:
            self._closed_provenance = self._backend_provenance()
            self._backend.close()
            self._backend = None

