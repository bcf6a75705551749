"""A benchmark run without pytest: config -> backend -> completions (resumable) -> graded records.

The pytest plugin and `python -m tooluse1 run` are thin layers over `BenchmarkRun`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from tooluse1.backends.base import Backend, BackendError, Completion, DecodingConfig
from tooluse1.backends.scripted import ScriptedBackend
from tooluse1.corpus import SPEC_VERSION, Case
from tooluse1.grade import grade_extraction
from tooluse1.parse import extract_completion
from tooluse1.prompts import PROTOCOLS, Prompt, item_id, render
from tooluse1.results import (ItemRecord, ResumeFile, invocation, library_versions, now_iso, portable_path,
                              scrub_secrets)
from tooluse1.selftest import RUNNERS

BACKENDS = ("auto", "transformers", "openai", "scripted")


@dataclass
class RunConfig:
    """Everything a user chooses for a run (the CLI flags of the plugin). The defaults here are the only
    ones: the pytest options and the CLI read them from this class."""

    model: str
    backend: str = "auto"                 # auto: scripted for runner names, openai with --base-url, else transformers
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
    fast: bool = True                     # transformers: shared-prefix cache + slot refill (off = reference path)
    resume: Path | None = None
    results: Path | None = None
    min_score: float | None = None
    progress: bool = True

    def resolved_backend(self) -> str:
        if self.backend != "auto":
            return self.backend
        if self.model in RUNNERS:
            return "scripted"
        return "openai" if self.base_url else "transformers"

    @property
    def decoding(self) -> DecodingConfig:
        return DecodingConfig(max_new_tokens=self.max_new_tokens)


def model_identity(config: RunConfig) -> dict:
    """The model's identity for resume keys and provenance, known before any weights are loaded."""
    kind = config.resolved_backend()
    if kind == "scripted":
        return {"backend": kind, "model_id": f"scripted:{config.model}", "revision": "n/a"}
    if kind == "openai":
        if not config.base_url:
            raise BackendError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
        # a password in the URL must not reach the resume key or the results file
        return {"backend": kind, "model_id": config.model, "base_url": scrub_secrets(config.base_url.rstrip("/"))}
    from tooluse1.models import resolve_model
    r = resolve_model(config.model)
    return {"backend": kind, "model_id": r.model_id, "revision": r.revision, "dtype": config.dtype,
            "batch_size": config.batch_size, "fast": config.fast}


def open_backend(config: RunConfig, cases: dict[str, Case]) -> Backend:
    """Construct (and for servers, check) the backend a config names; BackendError says what to fix."""
    kind = config.resolved_backend()
    if kind == "scripted":
        return ScriptedBackend(config.model, cases)
    if kind == "openai":
        from tooluse1.backends.openai_backend import OpenAIBackend
        backend = OpenAIBackend(base_url=config.base_url or "", model=config.model, api_key_env=config.api_key_env,
                                concurrency=config.concurrency, request_timeout=config.request_timeout,
                                max_retries=config.max_retries)
        backend.check()
        return backend
    if kind == "transformers":
        from tooluse1.backends.transformers_backend import TransformersBackend
        from tooluse1.models import resolve_model
        return TransformersBackend(resolve_model(config.model), dtype=config.dtype, device=config.device,
                                   batch_size=config.batch_size, threads=config.threads, fast=config.fast)
    raise BackendError(f"--backend {config.backend}: unknown backend; use one of {', '.join(BACKENDS)}")


@dataclass
class BenchmarkRun:
    """One run: generates completions for requested items (once each, resumable) and grades them."""

    config: RunConfig
    cases: dict[str, Case]
    manifest: dict
    started_at: str = field(default_factory=now_iso)
    _backend: Backend | None = None
    _resume: ResumeFile | None = None
    _completions: dict[str, Completion] = field(default_factory=dict)
    _identity: dict | None = None
    _closed_provenance: dict | None = None
    resumed_items: int = 0        # completions taken from the resume file
    generated_items: int = 0      # completions generated by this process

    def identity(self) -> dict:
        if self._identity is None:
            self._identity = model_identity(self.config)
        return self._identity

    def run_key(self) -> dict:
        """What a resume file must share with this run: the model and the decoding. Prompts are checked per
        item (each resumed answer carries its prompt's sha256), so a new corpus or prompt regenerates
        exactly the items whose prompts changed, and a different selection (-k) still resumes."""
        return {"model": self.identity(), "decoding": self.config.decoding.as_dict()}

    def open_resume(self) -> None:
        if self.config.resume is not None and self._resume is None:
            self._resume = ResumeFile(self.config.resume, self.run_key())
            self._completions.update(self._resume.done)
            self.resumed_items = len(self._resume.done)

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = open_backend(self.config, self.cases)
        return self._backend

    def prompts_for(self, items: Sequence[tuple[str, str]]) -> list[Prompt]:
        return [render(self.cases[case_id], protocol) for case_id, protocol in items]

    def generate(self, items: Sequence[tuple[str, str]],
                 progress: Callable[[int], None] | None = None) -> int:
        """Make sure every (case_id, protocol) item has a completion; only missing ones are generated.
        Returns how many were generated now. Each finished one goes to the resume file immediately."""
        self.open_resume()
        todo = [p for p in self.prompts_for(items) if not self._answered(p)]
        if not todo:
            return 0
        sha_of = {p.item_id: p.sha256 for p in todo}

        def on_complete(c: Completion) -> None:
            c.prompt_sha256 = sha_of.get(c.item_id)
            self._completions[c.item_id] = c
            if self._resume is not None:
                self._resume.append(c)
            if progress:
                progress(1)

        self.generated_items += len(todo)
        results = self.backend.generate(todo, self.config.decoding, on_complete)
        for c in results:   # backends call on_complete, but the returned list is authoritative
            c.prompt_sha256 = sha_of.get(c.item_id)
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
        return [it for it, p in zip(items, self.prompts_for(items)) if not self._answered(p)]

    def record(self, case_id: str, protocol: str) -> ItemRecord:
        """The graded record of an item whose completion exists (generate() first)."""
        c = self._completions[item_id(case_id, protocol)]
        case = self.cases[case_id]
        if c.error is not None:
            return ItemRecord(case, protocol, c, None, None)
        ex = extract_completion(c, protocol)
        return ItemRecord(case, protocol, c, ex, grade_extraction(case, ex, c.finish_reason, protocol))

    def provenance(self, finished_at: str | None = None) -> dict:
        backend_info = self._backend_provenance()
        cfg = asdict(self.config)
        for k in ("resume", "results"):
            cfg[k] = portable_path(cfg[k]) if cfg[k] else None
        return {
            "spec_version": SPEC_VERSION,
            "corpus": {"sha256": self.manifest["sha256"], "version": self.manifest.get("version"),
                       "n_cases": self.manifest.get("n_cases"),
                       # a suite of one's own names itself, so that regrade can ask for it (tooluse1.suite)
                       **({"suite": self.manifest["suite"]} if "suite" in self.manifest else {})},
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

