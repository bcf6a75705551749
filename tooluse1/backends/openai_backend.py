"""A Backend for any OpenAI-compatible chat-completions server (vLLM, SGLang, `transformers serve`, OpenAI).

Requests go through the official ``openai`` client: ``chat.completions.create(model, messages, temperature,
max_tokens)``. The text protocols (json, xml, plain) send no ``tools`` parameter: their prompts declare the
tools as text (one rendering for every backend). The ``native`` protocol sends the tools as the API's
``tools`` with ``tool_choice: "auto"``, its history as assistant ``tool_calls`` + ``tool`` messages, and the
structured ``tool_calls`` of the answer come back in ``Completion.tool_calls``, graded as calls directly.
The client's own retries are switched off (``max_retries=0``) so that the retry policy is ours, explicit
and tested:

- retried, with exponential backoff and jitter: HTTP 429, HTTP 408, HTTP >= 500, timeouts
  (``APITimeoutError``) and failed or dropped connections (``APIConnectionError``). A ``Retry-After``
  (seconds or HTTP date) or ``retry-after-ms`` header, when present, replaces the computed delay
  (capped at ``max_retry_after`` seconds);
- not retried: every other HTTP status (400, 401, 404, 422, ...) and malformed responses;
- an item whose request still fails becomes ``Completion(text="", finish_reason="error", error=<one line>)``:
  an error, never a model failure, and never an exception out of ``generate``.

Text fidelity: ``content`` is kept verbatim, in every protocol. A server that does not parse tool calls (llama.cpp
without ``--jinja``, vLLM without a tool parser) returns the model's own markup there (``<tool_call>``,
``[TOOL_CALLS]``, Kimi's section tokens, harmony's channels); it reaches the grader as text and is read by
the extractor's formats (SPEC §3.1; for ``native`` beside any structured ``tool_calls``). Markers that are
special tokens arrive only if the server renders special tokens (llama.cpp: ``--special``).

Server-split fields: some servers split the generated text into ``content``, ``reasoning_content``
and parsed ``tool_calls`` (vLLM with a reasoning or tool parser, transformers serve for Qwen/Gemma models).
They are folded back into ``text``: the reasoning in every protocol (``<think>…</think>`` before the content),
the calls for text-protocol prompts only (each as ``<tool_call>\\n{"name": …, "arguments": …}\\n</tool_call>``
after it; ``native`` keeps them structured) and
``extra["reconstructed"]`` lists what was folded, so a reader of the results can tell the text is not
verbatim. :func:`tooluse1.serve.start_transformers_serve` turns that splitting off for its own servers.

Streaming (``stream=True``, ``--stream``): the request asks for server-sent chunks (with
``stream_options.include_usage``) and :func:`assemble_stream` rebuilds the message the way the OpenAI API
streams it: ``content`` and reasoning deltas concatenated apart, tool-call ``arguments`` concatenated per
``index`` (indices may interleave; ``id``, ``type`` and ``name`` come from the first delta of an index that
carries them). The rebuilt message is then read exactly like a non-streamed one. A stream is complete only
once a chunk with a ``finish_reason`` has arrived (``transformers serve`` sends no ``[DONE]``); one that ends
without it, or is cut, raises :class:`IncompleteStream`, retried like a dropped connection and, after the
retries, an error item (never a shorter answer). ``request_timeout`` bounds the whole stream, not only each
read. ``Completion.ttft_s`` is the time from the successful attempt's request to its first generated delta.

Sampled trials (``DecodingConfig.sampled``): every sample is its own request (``n`` is never sent: servers
such as ``transformers serve`` ignore it), carrying ``seed`` = the sample's seed (``Prompt.seed``) and, at a
temperature > 0, ``top_p``; the Completion records the seed sent and the ``system_fingerprint`` returned
(servers do not echo seeds). N samples are requested even at temperature 0 (APIs are not deterministic).
``transformers serve`` needs two more things (``transformers_serve``, detected from its ``GET /models``
listing or given): it ignores temperature and top-p unless the request's ``generation_config`` switches
sampling on, so a sampled request sends ``generation_config`` = ``{"do_sample": true, "temperature", "top_p",
"top_k": 0}`` (top-k off, as the in-process sampler); and it seeds one global torch generator per request, so
seeded sampling there runs one request at a time (concurrent requests would draw from each other's stream).
"""
from __future__ import annotations

import email.utils
import json
import os
import random
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Sequence, cast
from urllib.parse import urlsplit, urlunsplit

import openai
from openai.types.chat import ChatCompletionMessageParam

from tooluse1.backends.base import BackendError, Capabilities, Completion, DecodingConfig, OnComplete
from tooluse1.errors import ToolUse1Error
from tooluse1.prompts import Prompt

_ERROR_MAX_CHARS = 300


def normalize_base_url(base_url: str) -> str:
    """Strip trailing slashes; a URL with no path gets ``/v1`` (``http://host:8000`` -> ``http://host:8000/v1``).

    A URL that already has a path is kept as given, so proxies with other prefixes keep working.
    """
    url = base_url.strip().rstrip("/")
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        raise BackendError(f"--base-url {base_url!r} is not an http(s) URL; expected e.g. http://127.0.0.1:8000/v1")
    if parts.path in ("", "/"):
        url = urlunsplit((parts.scheme, parts.netloc, "/v1", parts.query, parts.fragment))
    return url


def _one_line(text: str, limit: int = _ERROR_MAX_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cause(exc: BaseException) -> str:
    """The innermost useful reason of a connection error ('[Errno 111] Connection refused', ...)."""
    inner = exc.__cause__ or exc.__context__
    while inner is not None and (inner.__cause__ or inner.__context__) is not None and not str(inner):
        inner = inner.__cause__ or inner.__context__
    if inner is not None and str(inner):
        return f"{type(inner).__name__}: {inner}"
    return str(exc) or type(exc).__name__


def is_retryable(exc: BaseException) -> bool:
    """The retry policy: 429, 408, 5xx, timeouts and connection failures (a stream cut or ended before its
    finish_reason is one); nothing else."""
    # APIConnectionError includes APITimeoutError; the SDK raises both for a stream's body as well.
    if isinstance(exc, (openai.APIConnectionError, IncompleteStream)):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in (408, 429) or exc.status_code >= 500
    return False


def retry_after_seconds(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, ``Retry-After`` seconds or HTTP date), or None."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def describe_error(exc: BaseException, request_timeout: float) -> str:
    """One line saying what went wrong with a request (no traceback)."""
    if isinstance(exc, (openai.APITimeoutError, StreamTimeout)):
        return f"request timed out (request_timeout {request_timeout:g} s)"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection failed: {_one_line(_cause(exc), 200)}"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {_one_line(exc.message, 240)}"
    if isinstance(exc, BadResponse):
        return f"bad response: {exc}"
    return f"{type(exc).__name__}: {_one_line(str(exc), 240)}"


class _Cancelled(ToolUse1Error):
    """Raised in a worker when its generate() is being abandoned (on_complete raised, interrupt)."""


class BadResponse(ToolUse1Error):
    """A 200 response that is not a usable chat completion (not retried)."""


class IncompleteStream(BadResponse):
    """A streamed response that ended (or was cut) before a chunk with a ``finish_reason`` arrived: the
    answer may be a prefix of what the model generated, so it is retried and never graded."""


class StreamTimeout(IncompleteStream):
    """A stream still running when ``request_timeout`` (for the whole request) ran out."""


@dataclass
class Reply:
    """One assistant message as the server returned it, streamed or not: ``tool_calls`` are
    ``{"id", "type", "name", "arguments"}`` with ``arguments`` as sent (usually a JSON string)."""

    content: str | None
    reasoning: str | None = None
    tool_calls: list[dict] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Any = None
    model: str | None = None
    first_delta_at: float | None = None    # streamed: time.monotonic() of the first generated delta
    system_fingerprint: str | None = None


def _reasoning_of(obj: Any) -> str | None:
    """The server-split reasoning of a message or delta (``reasoning_content`` or ``reasoning``)."""
    extra = getattr(obj, "model_extra", None) or {}
    return getattr(obj, "reasoning_content", None) or extra.get("reasoning_content") or extra.get("reasoning")


def reply_of_message(resp: Any) -> Reply:
    """The Reply of a non-streamed chat completion; BadResponse when it has no choices."""
    choices = getattr(resp, "choices", None) or []
    if not choices:
        raise BadResponse("the server returned a chat completion without choices")
    msg = choices[0].message
    calls = []
    for tc in getattr(msg, "tool_calls", None) or []:
        fn = getattr(tc, "function", None)
        if fn is not None:
            calls.append({"id": getattr(tc, "id", None), "type": getattr(tc, "type", None),
                          "name": getattr(fn, "name", None), "arguments": getattr(fn, "arguments", None)})
    return Reply(content=getattr(msg, "content", None), reasoning=_reasoning_of(msg), tool_calls=calls,
                 finish_reason=choices[0].finish_reason, usage=getattr(resp, "usage", None),
                 model=getattr(resp, "model", None), system_fingerprint=getattr(resp, "system_fingerprint", None))


def assemble_stream(chunks: Iterable[Any], deadline: float | None = None) -> Reply:
    """The Reply a stream of chat-completion chunks adds up to (choice 0 only, as requested).

    Guarantees: content and reasoning are the concatenations of their deltas in arrival order; each
    tool-call ``index`` gets one call, in index order, whose ``arguments`` concatenate that index's argument
    deltas whatever the interleaving, and whose id/type/name are the first ones given for that index
    (servers that repeat the name in later deltas do not get it doubled; a tool-call delta without an index
    joins the last index seen). Empty deltas, chunks without choices (the usage chunk) and role-only deltas
    add nothing. Raises IncompleteStream when the chunks end before one with a ``finish_reason``,
    StreamTimeout when ``time.monotonic()`` passes ``deadline`` first.
    """
    content: list[str] = []
    reasoning: list[str] = []
    calls: dict[int, dict] = {}
    reply = Reply(content=None)
    chunk_count = 0
    last_index = 0
    for chunk in chunks:
        chunk_count += 1
        if deadline is not None and time.monotonic() > deadline:
            raise StreamTimeout(f"the stream was still running after {chunk_count} chunks")
        reply.model = reply.model or getattr(chunk, "model", None)
        reply.system_fingerprint = reply.system_fingerprint or getattr(chunk, "system_fingerprint", None)
        if getattr(chunk, "usage", None) is not None:
            reply.usage = chunk.usage
        for choice in getattr(chunk, "choices", None) or []:
            if getattr(choice, "index", 0) != 0:
                continue
            delta = getattr(choice, "delta", None)
            if delta is not None:
                generated = False
                if getattr(delta, "content", None):
                    content.append(delta.content)
                    generated = True
                thought = _reasoning_of(delta)
                if thought:
                    reasoning.append(thought)
                    generated = True
                for tc in getattr(delta, "tool_calls", None) or []:
                    index = tc.index if getattr(tc, "index", None) is not None else last_index
                    last_index = index
                    call = calls.setdefault(index, {"id": None, "type": None, "name": None, "arguments": ""})
                    fn = getattr(tc, "function", None)
                    call["id"] = call["id"] or getattr(tc, "id", None)
                    call["type"] = call["type"] or getattr(tc, "type", None)
                    call["name"] = call["name"] or getattr(fn, "name", None)
                    call["arguments"] += getattr(fn, "arguments", None) or ""
                    generated = True
                if generated and reply.first_delta_at is None:
                    reply.first_delta_at = time.monotonic()
            if getattr(choice, "finish_reason", None):
                reply.finish_reason = choice.finish_reason
    if reply.finish_reason is None:
        got = f"{len(''.join(content))} characters of content, {len(calls)} tool calls"
        raise IncompleteStream(f"the stream ended without a finish_reason after {chunk_count} chunks ({got}); "
                               f"the answer may be cut short")
    reply.content = "".join(content) if content else None
    reply.reasoning = "".join(reasoning) if reasoning else None
    reply.tool_calls = [calls[i] for i in sorted(calls)]
    return reply


class OpenAIBackend:
    """Backend over an OpenAI-compatible ``/v1/chat/completions`` endpoint.

    Guarantees of :meth:`generate`: one Completion per Prompt, in input order; up to ``concurrency``
    requests in flight; ``on_complete`` is called in the *calling thread*, once per item, in completion
    order (so it needs no lock); a failed item is an error Completion, not an exception. ``latency_s`` is
    the item's wall time from its first attempt to its final answer, retries and waits included
    (``extra["last_attempt_s"]`` is the successful request alone). ``extra`` also holds ``attempts``,
    ``server_model`` (the ``model`` the server reported) and, when the server's finish reason was not
    stop/length, ``server_finish_reason``.
    """

    name = "openai"
    # One cap per call; the server or script decides when a row ends.
    capabilities: ClassVar[Capabilities] = Capabilities()

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY", concurrency: int = 8,
                 request_timeout: float = 120, max_retries: int = 5, *, backoff_base: float = 1.0,
                 backoff_max: float = 30.0, max_retry_after: float = 60.0, check_timeout: float = 10.0,
                 jitter_seed: int | None = None, stream: bool = False,
                 transformers_serve: bool | None = None) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.base_url = normalize_base_url(base_url)
        self.model = model
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.request_timeout = float(request_timeout)
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.check_timeout = check_timeout
        self.stream = stream
        # Whether the server is `transformers serve` (module doc, sampled trials); None: detected by check().
        self.transformers_serve = transformers_serve
        self._api_key_set = bool(os.environ.get(api_key_env))
        self._client = openai.OpenAI(base_url=self.base_url, api_key=os.environ.get(api_key_env) or "EMPTY",
                                     timeout=self.request_timeout, max_retries=0)
        self._rng = random.Random(jitter_seed)
        self._lock = threading.Lock()
        self._server_models: dict[str, int] = {}
        self._listed_models: list[str] | None = None
        self._stats = {"requests": 0, "retries": 0, "errors": 0}
        self._closed = threading.Event()

    # ------------------------------------------------------------------ checks

    def check(self, timeout: float | None = None, flag: str = "--base-url") -> list[str]:
        """Fail fast before a run: one ``GET /models`` with a short timeout and no retries.

        Returns the model ids the server lists (also recorded in provenance). Raises BackendError naming the
        URL and `flag` (the option that gave it: ``--base-url``, or ``--judge-base-url`` for the MCP track's
        judge) when the server cannot be reached or does not answer like an OpenAI server.
        """
        client = self._client.with_options(timeout=timeout or self.check_timeout, max_retries=0)
        where = f"the OpenAI-compatible server at {self.base_url} ({flag})"
        try:
            page = client.models.list()
            ids = [m.id for m in page.data]
            listing = [m.model_dump() if hasattr(m, "model_dump") else {} for m in page.data]
        except openai.APIConnectionError as e:
            reason = "timed out" if isinstance(e, openai.APITimeoutError) else _one_line(_cause(e), 200)
            raise BackendError(f"cannot reach {where}: {reason}. Start the server or fix the URL.") from None
        except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
            raise BackendError(f"{where} rejected the API key (HTTP {e.status_code}): {_one_line(e.message, 200)}. "
                               f"Put the key in ${self.api_key_env} (--api-key-env).") from None
        except openai.NotFoundError:
            raise BackendError(f"{where} has no GET /models endpoint (HTTP 404): is the URL right? "
                               f"It usually ends in /v1.") from None
        except openai.APIStatusError as e:
            raise BackendError(f"{where} answered GET /models with HTTP {e.status_code}: "
                               f"{_one_line(e.message, 200)}") from None
        except (openai.OpenAIError, ValueError, TypeError, AttributeError) as e:
            raise BackendError(f"{where} did not answer GET /models like an OpenAI-compatible server: "
                               f"{_one_line(str(e), 200)}. Fix the URL.") from None
        with self._lock:
            self._listed_models = ids
            if self.transformers_serve is None:
                self.transformers_serve = looks_like_transformers_serve(listing)
        return ids

    # ------------------------------------------------------------------ generation

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]:
        """One Completion per Prompt, same order; see the class docstring for the guarantees."""
        if self._closed.is_set():
            raise BackendError("OpenAIBackend.generate called after close()")
        results: list[Completion | None] = [None] * len(prompts)
        if not prompts:
            return []
        cancel = threading.Event()
        # transformers serve seeds one global generator per request: seeded samples one at a time there
        workers = 1 if config.do_sample and self.transformers_serve else min(self.concurrency, len(prompts))
        pool = ThreadPoolExecutor(max_workers=workers,
                                  thread_name_prefix="tooluse1-openai")
        futures: dict[Future, int] = {}
        ok = False
        try:
            for i, p in enumerate(prompts):
                futures[pool.submit(self._one, p, config, cancel)] = i
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    c = f.result()  # _one never raises except _Cancelled, which needs cancel set first
                    results[futures[f]] = c
                    if on_complete is not None:
                        on_complete(c)
            ok = True
        finally:
            if not ok:
                # on_complete raised or we were interrupted: stop retrying, drop queued items, don't block on
                # requests in flight (each ends by itself within request_timeout).
                cancel.set()
            pool.shutdown(wait=ok, cancel_futures=not ok)
        return [c for c in results if c is not None]

    def _backoff(self, retry_index: int, exc: BaseException) -> float:
        asked = retry_after_seconds(exc)
        if asked is not None:
            return min(asked, self.max_retry_after)
        cap = min(self.backoff_max, self.backoff_base * (2 ** retry_index))
        with self._lock:
            jitter = self._rng.uniform(0, cap / 2)
        return cap / 2 + jitter

    def _one(self, prompt: Prompt, config: DecodingConfig, cancel: threading.Event) -> Completion:
        started = time.monotonic()
        attempts = 0
        last_exc: BaseException | None = None
        while True:
            if cancel.is_set():
                raise _Cancelled()
            if self._closed.is_set():
                return Completion(item_id=prompt.item_id, text="", finish_reason="error",
                                  latency_s=time.monotonic() - started, extra={"attempts": attempts},
                                  error="backend closed before this request was sent")
            attempts += 1
            t0 = time.monotonic()
            with self._lock:
                self._stats["requests"] += 1
            tool_args: dict[str, Any] = \
                {"tools": [dict(t) for t in prompt.tools], "tool_choice": "auto"} if prompt.tools else {}
            tool_args.update(self.sampling_params(prompt, config))
            try:
                messages = cast(list[ChatCompletionMessageParam], api_messages(prompt.messages))
                if self.stream:
                    with self._client.chat.completions.create(
                            model=self.model, messages=messages, temperature=config.temperature,
                            max_tokens=config.max_new_tokens, stream=True, stream_options={"include_usage": True},
                            **tool_args) as chunks:
                        reply = assemble_stream(chunks, deadline=t0 + self.request_timeout)
                else:
                    reply = reply_of_message(self._client.chat.completions.create(
                        model=self.model, messages=messages, temperature=config.temperature,
                        max_tokens=config.max_new_tokens, **tool_args))
                return self._completion(prompt, reply, started, t0, attempts)
            except Exception as e:  # noqa: BLE001 - every failure must become an error Completion
                last_exc = e
                if not is_retryable(e) or attempts > self.max_retries:
                    break
                delay = self._backoff(attempts - 1, e)
                with self._lock:
                    self._stats["retries"] += 1
                if cancel.wait(delay):
                    raise _Cancelled() from e
                # close() during the wait: the loop head turns this item into an error Completion.
        assert last_exc is not None
        if is_retryable(last_exc):
            why = f"{describe_error(last_exc, self.request_timeout)} (gave up after {attempts} attempts)"
        else:
            why = f"{describe_error(last_exc, self.request_timeout)} (not retried)"
        with self._lock:
            self._stats["errors"] += 1
        return Completion(item_id=prompt.item_id, text="", finish_reason="error",
                          latency_s=time.monotonic() - started, error=_one_line(why),
                          extra={"attempts": attempts})

    def _completion(self, prompt: Prompt, reply: Reply, started: float, t0: float, attempts: int) -> Completion:
        now = time.monotonic()
        structured = bool(prompt.tools)
        text, reconstructed = _message_text(reply, fold_tool_calls=not structured)
        tool_calls = _structured_calls(reply) if structured else None
        raw_finish = reply.finish_reason
        finish = raw_finish if raw_finish in ("stop", "length") else "stop"
        usage = reply.usage
        server_model = reply.model
        with self._lock:
            if server_model:
                self._server_models[server_model] = self._server_models.get(server_model, 0) + 1
        extra: dict[str, Any] = {"attempts": attempts, "server_model": server_model,
                                 "last_attempt_s": round(now - t0, 4)}
        if self.stream:
            extra["streamed"] = True
        if reply.system_fingerprint:
            extra["system_fingerprint"] = reply.system_fingerprint
        if raw_finish not in ("stop", "length"):
            extra["server_finish_reason"] = raw_finish
        if reconstructed:
            extra["reconstructed"] = reconstructed
        return Completion(item_id=prompt.item_id, text=text, finish_reason=finish, latency_s=now - started,
                          prompt_tokens=getattr(usage, "prompt_tokens", None),
                          completion_tokens=getattr(usage, "completion_tokens", None), extra=extra,
                          tool_calls=tool_calls, reasoning_tokens=getattr(
                              getattr(usage, "completion_tokens_details", None), "reasoning_tokens", None),
                          ttft_s=None if reply.first_delta_at is None else round(reply.first_delta_at - t0, 4),
                          seed=prompt.seed, system_fingerprint=reply.system_fingerprint or None)

    def sampling_params(self, prompt: Prompt, config: DecodingConfig) -> dict[str, Any]:
        """The request parameters a sampled run adds (module doc): ``seed`` (the prompt's, when it has one),
        ``top_p`` at a temperature > 0, and for ``transformers serve`` the ``generation_config`` that switches
        its sampling on (sent in the body: ``extra_body``). Empty for a greedy run."""
        if not config.sampled:
            return {}
        out: dict[str, Any] = {}
        if prompt.seed is not None:
            out["seed"] = int(prompt.seed)
        if config.do_sample:
            out["top_p"] = config.top_p
            if self.transformers_serve:
                out["extra_body"] = {"generation_config": json.dumps(
                    {"do_sample": True, "temperature": config.temperature, "top_p": config.top_p, "top_k": 0})}
        return out

    # ------------------------------------------------------------------ provenance

    def provenance(self) -> dict:
        """Backend settings and the model identity the server reported (``server_model``).

        ``server_model`` is the ``model`` field of the responses (None before any success); if responses
        disagreed, ``server_models_seen`` lists every id with its count.
        """
        with self._lock:
            seen = dict(self._server_models)
            listed = list(self._listed_models) if self._listed_models is not None else None
            stats = dict(self._stats)
        prov: dict[str, Any] = {
            "backend": self.name,
            "base_url": self.base_url,
            "model": self.model,
            "server_model": max(seen, key=seen.__getitem__) if seen else None,
            "server_models_listed": listed,
            "concurrency": self.concurrency,
            "request_timeout_s": self.request_timeout,
            "max_retries": self.max_retries,
            "retry_policy": ("retry 408/429/5xx/timeouts/connection errors with exponential backoff "
                             f"(base {self.backoff_base:g} s, max {self.backoff_max:g} s, jitter) or Retry-After "
                             f"(max {self.max_retry_after:g} s); other errors not retried"),
            "api_key_env": self.api_key_env,
            "api_key_set": self._api_key_set,
            "request_params": ["model", "messages", "temperature", "max_tokens",
                               "tools + tool_choice=auto (native protocol only)",
                               *(["stream + stream_options.include_usage"] if self.stream else []),
                               "seed, top_p (sampled runs); generation_config (sampled, transformers serve)"],
            "stream": self.stream,
            "transformers_serve": self.transformers_serve,
            "openai_version": openai.__version__,
            "requests": stats,
        }
        if len(seen) > 1:
            prov["server_models_seen"] = seen
        return prov

    def close(self) -> None:
        """Stop retries of any generate still running and release the HTTP connections. Idempotent."""
        self._closed.set()
        self._client.close()

    def __enter__(self) -> "OpenAIBackend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def looks_like_transformers_serve(listing: Sequence[dict]) -> bool:
    """Whether a ``GET /models`` listing is ``transformers serve``'s: its entries carry a ``status`` object
    whose ``value`` is "loaded" or "unloaded" (transformers 5.x), which no other OpenAI-compatible server
    we know of writes. A server it misses is sampled without ``generation_config`` (and concurrently); the
    identical-samples warning then says so."""
    return any(isinstance(e.get("status"), dict) and e["status"].get("value") in ("loaded", "unloaded")
               for e in listing)


def api_messages(messages: Sequence[dict]) -> list[dict]:
    """Prompt messages as the chat-completions API wants them: tool-call arguments as JSON strings."""
    out = []
    for m in messages:
        m = dict(m)
        if m.get("tool_calls"):
            m["tool_calls"] = [{**tc, "function": {**tc["function"], "arguments": json.dumps(
                tc["function"]["arguments"], ensure_ascii=False)}} for tc in m["tool_calls"]]
        out.append(m)
    return out


def _structured_calls(reply: Reply) -> list[dict]:
    """The reply's `tool_calls` as [{"name", "arguments"}] (arguments parsed from their JSON string when
    they are one; a string that is not JSON is kept, and the grader then calls the call malformed)."""
    calls = []
    for tc in reply.tool_calls:
        args: Any = tc["arguments"]
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except ValueError:
                pass
        calls.append({"name": tc["name"], "arguments": args})
    return calls


def _message_text(reply: Reply, fold_tool_calls: bool = True) -> tuple[str, list[str]]:
    """The assistant's text, with server-split reasoning (and, unless told not to, parsed tool calls) folded
    back in."""
    content = reply.content or ""
    reasoning = reply.reasoning
    tool_calls = _structured_calls(reply) if fold_tool_calls else []
    reconstructed: list[str] = []
    parts: list[str] = []
    if reasoning:
        parts.append(f"<think>{reasoning}</think>")
        reconstructed.append("reasoning_content")
    if content:
        parts.append(content)
    for call in tool_calls:
        payload = json.dumps(call, ensure_ascii=False)
        parts.append(f"<tool_call>\n{payload}\n</tool_call>")
        if "tool_calls" not in reconstructed:
            reconstructed.append("tool_calls")
    sep = "\n" if reconstructed else ""
    return sep.join(parts), reconstructed
