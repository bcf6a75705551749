"""The one place a backend is chosen by name: every backend's entry, its options and how to open it.

A backend is one module under tooluse1/backends/ (a class implementing base.Backend, its capabilities
declared on the class) plus one entry in `REGISTRY`. The entry says which run options (RunConfig fields,
the same-named pytest flags) it reads, whether `--model` names a local checkpoint (then it is resolved
once, by `resolve`, and the resolved model serves both the identity and the backend), when `--backend
auto` picks it, and what identifies the model before any weights load (the resume key and provenance).
Backend modules are imported only when their backend is opened: torch and openai stay unloaded otherwise.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tooluse1.backends.base import Backend
from tooluse1.errors import BackendError
from tooluse1.models import ResolvedModel, resolve_model

__all__ = ["AUTO", "REGISTRY", "BackendEntry", "Target", "backend_names", "choose", "resolve"]

AUTO = "auto"


@dataclass(frozen=True)
class Target:
    """What a backend is opened on: the `--model` value, its resolved checkpoint (checkpoint backends
    only; resolved once per run), the entry's declared options by name, and the corpus's cases by id (the
    scripted backend answers from them)."""

    model: str
    resolved: ResolvedModel | None
    options: Mapping[str, Any]
    cases: Mapping[str, Any]


@dataclass(frozen=True)
class BackendEntry:
    """One backend.

    options:    the run options it reads (RunConfig fields; nothing else reaches it)
    checkpoint: `--model` is a local checkpoint, resolved once with models.resolve_model
    in_process: the model lives in this process (each pytest-xdist worker would load its own copy)
    claims:     claims(model, options): whether `--backend auto` picks it; entries are asked in
                `auto_rank` order, lowest (the most specific claim) first
    identity:   identity(target): the model's identity for resume keys and provenance (the caller scrubs
                secrets from it)
    open:       open(target): the backend, checked and ready; BackendError says what to fix
    """

    name: str
    options: tuple[str, ...]
    checkpoint: bool
    in_process: bool
    claims: Callable[[str, Mapping[str, Any]], bool]
    auto_rank: int
    identity: Callable[[Target], dict[str, Any]]
    open: Callable[[Target], Backend]


# --- scripted: the selftest runners (oracle, never-call, ...), no model -----------------------------------

def _scripted_claims(model: str, options: Mapping[str, Any]) -> bool:
    from tooluse1.backends.scripted import runner_names
    return model in runner_names()


def _scripted_open(target: Target) -> Backend:
    from tooluse1.backends.scripted import ScriptedBackend
    return ScriptedBackend(target.model, target.cases)


# --- openai: an OpenAI-compatible server ------------------------------------------------------------------

def _openai_identity(target: Target) -> dict[str, Any]:
    base_url = target.options["base_url"]
    if not base_url:
        raise BackendError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    # the caller scrubs a password in the URL before it reaches the resume key or the results file
    # streamed answers are a different deployment path: a resume file of one is not reused by the other
    # (only a streamed run records the key, so resume files of earlier non-streamed runs keep their key)
    return {"backend": "openai", "model_id": target.model, "base_url": base_url.rstrip("/"),
            **({"stream": True} if target.options["stream"] else {})}


def _openai_open(target: Target) -> Backend:
    from tooluse1.backends.openai_backend import OpenAIBackend
    o = target.options
    backend = OpenAIBackend(base_url=o["base_url"] or "", model=target.model, api_key_env=o["api_key_env"],
                            concurrency=o["concurrency"], request_timeout=o["request_timeout"],
                            max_retries=o["max_retries"], stream=o["stream"])
    backend.check()
    return backend


# --- transformers: a local checkpoint in this process -----------------------------------------------------

def _transformers_identity(target: Target) -> dict[str, Any]:
    r, o = _resolved(target), target.options
    return {"backend": "transformers", "model_id": r.model_id, "revision": r.revision, "dtype": o["dtype"],
            "batch_size": o["batch_size"], "fast": o["fast"]}


def _transformers_open(target: Target) -> Backend:
    from tooluse1.backends.transformers_backend import TransformersBackend
    o = target.options
    return TransformersBackend(_resolved(target), dtype=o["dtype"], device=o["device"], batch_size=o["batch_size"],
                               threads=o["threads"], fast=o["fast"])


def _resolved(target: Target) -> ResolvedModel:
    if target.resolved is None:   # resolve() fills it for every entry with checkpoint=True
        raise ValueError(f"--model {target.model}: a checkpoint backend needs the resolved model")
    return target.resolved


# In the order `--backend` lists them. auto: a scripted runner's name, else --base-url, else a checkpoint.
REGISTRY: dict[str, BackendEntry] = {e.name: e for e in (
    BackendEntry("transformers", options=("dtype", "device", "batch_size", "threads", "fast"), checkpoint=True,
                 in_process=True, claims=lambda model, o: True, auto_rank=2, identity=_transformers_identity,
                 open=_transformers_open),
    BackendEntry("openai", options=("base_url", "api_key_env", "concurrency", "request_timeout", "max_retries",
                                     "stream"),
                 checkpoint=False, in_process=False, claims=lambda model, o: bool(o["base_url"]), auto_rank=1,
                 identity=_openai_identity, open=_openai_open),
    BackendEntry("scripted", options=(), checkpoint=False, in_process=False, claims=_scripted_claims, auto_rank=0,
                 identity=lambda t: {"backend": "scripted", "model_id": f"scripted:{t.model}", "revision": "n/a"},
                 open=_scripted_open),
)}


def backend_names() -> tuple[str, ...]:
    """The values `--backend` accepts: auto, then every registered backend."""
    return (AUTO, *REGISTRY)


def choose(backend: str, model: str, options: Mapping[str, Any]) -> BackendEntry:
    """The entry `--backend` names; for `auto`, the first entry that claims the model (scripted for a
    runner name, openai with --base-url, else transformers). BackendError for an unknown name."""
    if backend == AUTO:
        ranked = sorted(REGISTRY.values(), key=lambda e: e.auto_rank)
        return next(e for e in ranked if e.claims(model, {k: options[k] for k in e.options}))
    if backend not in REGISTRY:
        raise BackendError(f"--backend {backend}: unknown backend; use one of {', '.join(backend_names())}")
    return REGISTRY[backend]


def resolve(entry: BackendEntry, model: str, options: Mapping[str, Any], cases: Mapping[str, Any]) -> Target:
    """The Target of a run: the entry's options picked from `options`, and the checkpoint resolved (once:
    keep the Target) when the entry takes one."""
    return Target(model=model, resolved=resolve_model(model) if entry.checkpoint else None,
                  options={k: options[k] for k in entry.options}, cases=cases)
