"""The backend protocol: prompts in, completions out, same order.

A backend owns batching, caching and concurrency; callers only see `generate`. What a backend can do
beyond that it declares in `capabilities` (never found by probing for methods): per-request token caps
(`RequestBackend.generate_requests`) and continuous admission (`ContinuousBackend.generate_continuous`),
both fed typed `Request`s. ("Streaming" means something else: the openai backend's `--stream` requests.)
Backends are picked by name in tooluse1/backends/registry.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar, Protocol, Sequence

from tooluse1.errors import BackendError
from tooluse1.prompts import Prompt

__all__ = ["Backend", "BackendError", "Capabilities", "Completion", "DecodingConfig", "OnComplete", "Request",
           "RequestBackend", "ContinuousBackend"]


@dataclass(frozen=True)
class DecodingConfig:
    """Decoding settings shared by every backend (part of the resume key). Greedy by default, the
    reference; `samples` > 1 or a `temperature` > 0 makes a sampled run (`sampled`): each item is asked
    `samples` times, sample j with the seed `sampling.sample_seed(sample_seed, item id, j)`, carried by its
    Prompt (`Prompt.seed`). `top_p` applies only when temperature > 0 (at 0 the choice is the argmax)."""

    max_new_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    samples: int = 1
    sample_seed: int = 0

    @property
    def sampled(self) -> bool:
        """Several samples per item, or sampling switched on: records keep every sample."""
        return self.samples > 1 or self.temperature > 0

    @property
    def do_sample(self) -> bool:
        """Tokens are drawn from the distribution (temperature > 0), not taken greedily."""
        return self.temperature > 0

    def as_dict(self) -> dict:
        """What results and resume files record. A greedy config writes exactly the keys it always wrote, so
        greedy resume files and results stay comparable with those of earlier versions."""
        out: dict = {"max_new_tokens": self.max_new_tokens, "temperature": self.temperature,
                     "do_sample": self.do_sample}
        if self.sampled:
            out.update(top_p=self.top_p, samples=self.samples, sample_seed=self.sample_seed)
        return out


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
    completion_tokens: int | None = None     # reasoning tokens included, as the OpenAI API counts them
    error: str | None = None
    extra: dict = field(default_factory=dict)
    # Calls a server returned as structured `tool_calls` (native protocol over the OpenAI API), each
    # {"name": str, "arguments": dict | str}; graded as calls beside whatever `text` holds.
    tool_calls: list[dict] | None = None
    # The sha256 of the Prompt this answers (set by the harness): a resumed answer counts only for the
    # same prompt, so a changed prompt is generated again instead of reusing a stale answer.
    prompt_sha256: str | None = None
    # Where a server reports them: the completion tokens spent on reasoning; for a streamed request, the
    # seconds from the answered attempt's request to its first generated delta.
    reasoning_tokens: int | None = None
    ttft_s: float | None = None
    # Sampled runs: the seed this sample was generated with (in-process: its torch.Generator's; openai: the
    # `seed` sent) and the `system_fingerprint` a server returned (servers do not echo seeds).
    seed: int | None = None
    system_fingerprint: str | None = None


# Called once per finished completion, in completion order (used for resume files and progress bars).
OnComplete = Callable[[Completion], None]


@dataclass(frozen=True)
class Request:
    """One prompt to generate (greedily unless the backend was told to sample) with its own token cap (the
    SPIN track gives each role its own). `stop_text`, when set, is a test of the row's text so far: a backend
    that declares `Capabilities.stop_text` ends the row as soon as it holds; others let the cap bound it."""

    prompt: Prompt
    max_new_tokens: int
    stop_text: Callable[[str], bool] | None = None


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do beyond `generate`, declared by its class; callers branch on these flags only.

    row_caps:   it is a `RequestBackend`: one `generate_requests` call honours every request's own cap.
    continuous: it is a `ContinuousBackend`: `generate_continuous` admits follow-up requests while others run.
    stop_text: `generate_continuous` honours `Request.stop_text` (ends a row when its test holds).
    """

    row_caps: bool = False
    continuous: bool = False
    stop_text: bool = False


class Backend(Protocol):
    """Anything that turns Prompts into Completions, same length and order as the input."""

    name: str
    capabilities: ClassVar[Capabilities]

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]: ...

    def provenance(self) -> dict:
        """What the results file records about this backend and model (ids, revision, dtype, ...)."""
        ...

    def close(self) -> None: ...


class RequestBackend(Backend, Protocol):
    """A backend with `capabilities.row_caps`: requests of different token caps in one call."""

    def generate_requests(self, requests: Sequence[Request], on_complete: OnComplete | None = None
                          ) -> list[Completion]:
        """One greedy Completion per request, in input order, each under its request's cap."""
        ...


# Called with each finished Completion of a continuous run; returns the requests that follow from it (maybe none).
FollowUps = Callable[[Completion], Sequence[Request]]


class ContinuousBackend(RequestBackend, Protocol):
    """A backend with `capabilities.continuous`: continuous admission."""

    def generate_continuous(self, requests: Sequence[Request], on_complete: FollowUps) -> None:
        """Generate every request, call `on_complete` as each finishes, and generate what it returns too;
        return when nothing is left."""
        ...
