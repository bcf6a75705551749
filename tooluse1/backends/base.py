"""The backend protocol: prompts in, completions out, same order.

A backend owns batching, caching and concurrency; callers only see `generate`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from tooluse1.prompts import Prompt


@dataclass(frozen=True)
class DecodingConfig:
    """Greedy decoding settings shared by every backend (part of the resume key)."""

    max_new_tokens: int = 256
    temperature: float = 0.0

    def as_dict(self) -> dict:
        return {"max_new_tokens": self.max_new_tokens, "temperature": self.temperature,
                "do_sample": False}


@dataclass
class Completion:
    """One model answer to one Prompt.

    `error` is set (and `text` empty) when the backend could not get an answer at all (a request that
    failed after its retries); such an item is counted as an error, never as a model failure.
    """

    item_id: str
    text: str
    finish_reason: str = "stop"          # "stop" | "length" | "error"
    latency_s: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    error: str | None = None
    extra: dict = field(default_factory=dict)
    # Calls a server returned as structured `tool_calls` (native protocol over the OpenAI API), each
    # {"name": str, "arguments": dict | str}; graded as calls beside whatever `text` holds.
    tool_calls: list[dict] | None = None
    # The sha256 of the Prompt this answers (set by the harness): a resumed answer counts only for the
    # same prompt, so a changed prompt is generated again instead of reusing a stale answer.
    prompt_sha256: str | None = None


# Called once per finished completion, in completion order (used for resume files and progress bars).
OnComplete = Callable[[Completion], None]


class Backend(Protocol):
    """Anything that turns Prompts into Completions, same length and order as the input."""

    name: str

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]: ...

    def provenance(self) -> dict:
        """What the results file records about this backend and model (ids, revision, dtype, ...)."""
        ...

    def close(self) -> None: ...


class BackendError(RuntimeError):
    """A user-fixable backend problem (unknown model, unreachable server); the message names the fix."""
