"""OpenAIBackend and tooluse1.serve.

Three layers:
- the retry policy and ordering, against a tiny scripted HTTP server in a thread (a unit test of *our* policy:
  429/5xx/drops/hangs are hard to provoke from a real server on demand);
- an unreachable URL (nothing listening);
- a real `transformers serve` process serving the converted SmolLM2-135M checkpoint, started and stopped with
  tooluse1.serve (the one real-server integration; a server is killed mid-run to check error items).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

import pytest

from tooluse1.backends.base import BackendError, Completion, DecodingConfig
from tooluse1.backends.openai_backend import OpenAIBackend, normalize_base_url
from tooluse1.prompts import Prompt
from tooluse1.serve import (ServeError, free_port, parse_responses_only_with_tools, serve_command,
                            start_transformers_serve)

FAST = dict(backoff_base=0.01, backoff_max=0.05)


def prompt(key: str, system: str | None = None) -> Prompt:
    msgs = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": key}]
    return Prompt(item_id=f"{key}-json", case_id=key, protocol="json", messages=tuple(msgs))


# ----------------------------------------------------------------------------- scripted fake server

# What the fake server streams for an action: (deltas, finish_reason); a None delta is a chunk with no choices.
STREAMS = {
    "ok": lambda key: ([{"role": "assistant", "content": ""}, {"content": "ech"}, {"content": f"o:{key}"}, {}],
                       "stop"),
    "toolcall": lambda key: ([
        {"role": "assistant", "reasoning_content": "weather "}, {"reasoning_content": "needed"},
        {"tool_calls": [{"index": 0, "id": "c1", "type": "function",
                         "function": {"name": "get_weather", "arguments": ""}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": "}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "\"Berlin\"}"}}]}, {}], "tool_calls"),
    # two calls whose argument deltas alternate; the second's name repeated in a later delta (some servers do)
    "interleaved": lambda key: ([
        {"role": "assistant", "content": None},
        {"tool_calls": [{"index": 0, "id": "c1", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{\"ci"}}]},
        {"tool_calls": [{"index": 1, "id": "c2", "type": "function",
                         "function": {"name": "get_time", "arguments": "{\"zone\""}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "ty\": \"Ber"}}]},
        {"tool_calls": [{"index": 1, "function": {"name": "get_time", "arguments": ": \"CET\"}"}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "lin\"}"}}]}, {}], "tool_calls"),
    # empty deltas, empty and null content, a chunk without choices: none of them adds anything
    "empty": lambda key: ([{}, {"role": "assistant"}, {"content": ""}, None, {"content": None},
                           {"content": f"echo:{key}"}, {}, {"content": ""}], "length"),
    "cut": lambda key: ([{"role": "assistant"}, {"tool_calls": [{"index": 0, "id": "c1", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{\"city\": \"Ber"}}]}], None),
    "nofinish": lambda key: ([{"role": "assistant"}, {"content": f"echo:{key}"}, {}], None),
}


class FakeServer:
    """An OpenAI-ish HTTP server whose answer to each attempt is scripted per user message.

    ``script[key]`` is a list of actions, one per attempt (the last one repeats): "ok", "ok:<delay s>",
    "429", "429:<retry-after s>", "500", "503", "400", "404", "drop" (close the socket without a response),
    "hang" (sleep past the client's timeout), "toolcall" (a response split into reasoning + tool_calls).
    A request with ``stream: true`` is answered with server-sent chunks (``STREAMS``; "ok" and "toolcall" too,
    in pieces), or by the stream actions "cut" (the connection dropped mid tool call) and "nofinish" (a clean
    end of stream, but no chunk carried a finish_reason). ``answer`` (the request body -> the reply's content)
    replaces the "ok" action's ``echo:<key>`` content, for callers that need the model to say something.
    """

    def __init__(self, script: dict[str, list[str]] | None = None, hang_s: float = 3.0,
                 transformers_serve: bool = False, answer: Callable[[dict], str] | None = None):
        self.script = script or {}
        self.answer = answer
        self.hang_s = hang_s
        self.bodies: list[dict] = []      # every request body, in arrival order
        # list its model as transformers serve 5.x does (a `status` object): the backend detects it by that
        status = {"status": {"value": "loaded"}} if transformers_serve else {}
        self.attempts: list[tuple[str, float, str]] = []   # (key, time, action)
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep pytest output clean
                pass

            def _send(self, code: int, body: dict, headers: dict | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path.rstrip("/") == "/v1/models":
                    self._send(200, {"object": "list", "data": [{"id": "fake-model-v1", "object": "model",
                                                                 "created": 0, "owned_by": "test", **status}]})
                else:
                    self._send(404, {"error": {"message": "no such route"}})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                key = body["messages"][-1]["content"]
                with fake.lock:
                    fake.bodies.append(body)
                    n = sum(1 for k, _, _ in fake.attempts if k == key)
                    actions = fake.script.get(key, ["ok"])
                    action = actions[min(n, len(actions) - 1)]
                    fake.attempts.append((key, time.monotonic(), action))
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    self._act(action, key, body)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    with fake.lock:
                        fake.in_flight -= 1

            def _stream(self, deltas: list[dict], finish: str | None, cut: bool = False) -> None:
                """Chunked SSE, one chunk per delta, like transformers serve: the last delta carries the
                finish_reason and the usage, no [DONE]. ``cut``: the socket is shut mid-body instead."""
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i, delta in enumerate(deltas):
                    last = i == len(deltas) - 1
                    chunk: dict = {"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 0,
                                   "model": "fake-model-v1", "system_fingerprint": "fp-fake",
                                   "choices": [] if delta is None else [
                                       {"index": 0, "delta": delta, "finish_reason": finish if last else None}]}
                    if last and finish:
                        chunk["usage"] = {"prompt_tokens": 7, "completion_tokens": 12, "total_tokens": 19}
                    data = f"data: {json.dumps(chunk)}\n\n".encode()
                    self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                    self.wfile.flush()
                if cut:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(b"0\r\n\r\n")

            def _act(self, action: str, key: str, body: dict) -> None:
                name, _, arg = action.partition(":")
                if body.get("stream") and name in STREAMS:
                    deltas, finish = STREAMS[name](key)
                    self._stream(deltas, finish, cut=name == "cut")
                elif name == "ok":
                    if arg:
                        time.sleep(float(arg))
                    self._send(200, {
                        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "fake-model-v1",
                        "system_fingerprint": f"fp-{body.get('seed', 'none')}",
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": fake.answer(body)
                                                 if fake.answer else f"echo:{key}"}}],
                        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}})
                elif name == "toolcall":
                    self._send(200, {
                        "id": "chatcmpl-2", "object": "chat.completion", "created": 0, "model": "fake-model-v1",
                        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                            "role": "assistant", "content": None, "reasoning_content": "weather needed",
                            "tool_calls": [{"id": "c1", "type": "function", "function": {
                                "name": "get_weather", "arguments": "{\"city\": \"Berlin\"}"}}]}}],
                        "usage": {"prompt_tokens": 7, "completion_tokens": 12, "total_tokens": 19}})
                elif name == "429":
                    self._send(429, {"error": {"message": "slow down"}}, {"Retry-After": arg} if arg else None)
                elif name in ("500", "503", "400", "404"):
                    self._send(int(name), {"error": {"message": f"scripted {name}"}})
                elif name == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                elif name == "hang":
                    time.sleep(fake.hang_s)
                    self.close_connection = True
                else:
                    raise AssertionError(f"unknown action {action}")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def count(self, key: str) -> int:
        with self.lock:
            return sum(1 for k, _, _ in self.attempts if k == key)

    def times(self, key: str) -> list[float]:
        with self.lock:
            return [t for k, t, _ in self.attempts if k == key]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fake():
    with FakeServer() as srv:
        yield srv


def backend_for(srv: FakeServer, **kw) -> OpenAIBackend:
    kw = {"concurrency": 4, "request_timeout": 5, "max_retries": 3, **FAST, **kw}
    return OpenAIBackend(srv.base_url, "fake-model", **kw)


def test_429_then_200_succeeds_after_one_retry(fake):
    fake.script = {"a": ["429", "ok"]}
    with backend_for(fake) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    assert (c.text, c.finish_reason, c.error) == ("echo:a", "stop", None)
    assert c.extra["attempts"] == 2 and fake.count("a") == 2
    assert (c.prompt_tokens, c.completion_tokens) == (7, 3)
    assert c.extra["server_model"] == "fake-model-v1"
    prov = be.provenance()
    assert prov["server_model"] == "fake-model-v1" and prov["model"] == "fake-model"
    assert prov["requests"] == {"requests": 2, "retries": 1, "errors": 0}


def test_retry_after_header_is_honoured(fake):
    fake.script = {"a": ["429:1", "ok"]}
    with backend_for(fake, backoff_base=0.001) as be:     # computed backoff would be ~1 ms
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    t = fake.times("a")
    assert c.text == "echo:a" and len(t) == 2
    assert t[1] - t[0] >= 0.95


def test_500_twice_then_200(fake):
    fake.script = {"a": ["500", "503", "ok"]}
    with backend_for(fake) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    assert c.text == "echo:a" and c.error is None and c.extra["attempts"] == 3 and fake.count("a") == 3


def test_backoff_grows_exponentially(fake):
    fake.script = {"a": ["500", "500", "500", "ok"]}
    with backend_for(fake, backoff_base=0.1, backoff_max=10) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    t = fake.times("a")
    gaps = [b - a for a, b in zip(t, t[1:])]
    assert c.text == "echo:a"
    # delay k is in [0.5, 1] * 0.1 * 2**k: 0.05-0.1, 0.1-0.2, 0.2-0.4 (plus request time)
    assert 0.05 <= gaps[0] < 0.3 and 0.1 <= gaps[1] < 0.5 and 0.2 <= gaps[2] < 0.8


@pytest.mark.parametrize("status", ["400", "404"])
def test_client_error_is_an_error_completion_without_retry(fake, status):
    fake.script = {"a": [status, "ok"], "b": ["ok"]}
    with backend_for(fake) as be:
        a, b = be.generate([prompt("a"), prompt("b")], DecodingConfig(max_new_tokens=8))
    assert (a.text, a.finish_reason) == ("", "error")
    assert f"HTTP {status}" in a.error and "not retried" in a.error and "\n" not in a.error
    assert fake.count("a") == 1
    assert b.text == "echo:b" and b.error is None


def test_dropped_connection_is_retried(fake):
    fake.script = {"a": ["drop", "drop", "ok"]}
    with backend_for(fake) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    assert c.text == "echo:a" and c.extra["attempts"] == 3 and fake.count("a") == 3


def test_hang_times_out_is_retried_then_error_completion():
    with FakeServer({"h": ["hang"], "r": ["hang", "ok"]}, hang_s=2.0) as srv:
        be = backend_for(srv, request_timeout=0.4, max_retries=1)
        t0 = time.monotonic()
        h, r = be.generate([prompt("h"), prompt("r")], DecodingConfig(max_new_tokens=8))
        elapsed = time.monotonic() - t0
        be.close()
    assert (h.text, h.finish_reason) == ("", "error")
    assert "timed out" in h.error and "gave up after 2 attempts" in h.error and srv.count("h") == 2
    assert r.text == "echo:r" and r.extra["attempts"] == 2
    assert elapsed < 1.8     # two 0.4 s timeouts + tiny backoff; the 2 s hangs are not waited for


def test_retries_are_bounded(fake):
    fake.script = {"a": ["503"]}
    with backend_for(fake, max_retries=2) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    assert c.finish_reason == "error" and "HTTP 503" in c.error and "gave up after 3 attempts" in c.error
    assert fake.count("a") == 3


def test_results_in_input_order_with_concurrency_4(fake):
    rng = random.Random(7)
    keys = [f"k{i:02d}" for i in range(16)]
    fake.script = {k: [f"ok:{rng.uniform(0.0, 0.25):.3f}"] for k in keys}
    caller = threading.get_ident()
    seen: list[tuple[str, int]] = []
    with backend_for(fake, concurrency=4) as be:
        out = be.generate([prompt(k) for k in keys], DecodingConfig(max_new_tokens=8),
                          on_complete=lambda c: seen.append((c.item_id, threading.get_ident())))
    assert [c.item_id for c in out] == [f"{k}-json" for k in keys]
    assert [c.text for c in out] == [f"echo:{k}" for k in keys]
    assert sorted(i for i, _ in seen) == sorted(c.item_id for c in out)      # once per item
    assert {t for _, t in seen} == {caller}                                   # in the calling thread
    assert [i for i, _ in seen] != [c.item_id for c in out]                   # completion order != input order
    assert fake.max_in_flight == 4                                            # really concurrent, and bounded
    assert all(c.latency_s > 0 for c in out)


def test_server_split_message_is_folded_back_into_text(fake):
    fake.script = {"a": ["toolcall"]}
    with backend_for(fake) as be:
        [c] = be.generate([prompt("a")], DecodingConfig(max_new_tokens=8))
    assert c.text == ('<think>weather needed</think>\n<tool_call>\n'
                      '{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</tool_call>')
    assert c.finish_reason == "stop" and c.extra["server_finish_reason"] == "tool_calls"
    assert c.extra["reconstructed"] == ["reasoning_content", "tool_calls"]


def test_on_complete_exception_propagates_and_stops_the_run(fake):
    fake.script = {f"k{i}": ["ok:0.05"] for i in range(20)}

    def boom(c: Completion) -> None:
        raise RuntimeError("disk full")

    with backend_for(fake, concurrency=2) as be:
        t0 = time.monotonic()
        with pytest.raises(RuntimeError, match="disk full"):
            be.generate([prompt(f"k{i}") for i in range(20)], DecodingConfig(max_new_tokens=8), on_complete=boom)
        assert time.monotonic() - t0 < 1.0
    time.sleep(0.2)
    assert len(fake.attempts) < 20      # queued items were dropped


def _seeded(keys: list[str], n: int, seed: int = 5) -> list[Prompt]:
    from tooluse1.sampling import sample_item_id, sample_seed
    return [dataclasses.replace(p, item_id=sample_item_id(p.item_id, j), sample=j, seed=sample_seed(seed, p.item_id, j))
            for p in map(prompt, keys) for j in range(n)]


def test_sampled_requests_carry_their_seeds_and_record_the_fingerprints(fake):
    """Each sample is its own request with its own seed (never `n`), top_p at a temperature > 0, no
    generation_config for a server that is not transformers serve; the Completion keeps the seed sent and
    the fingerprint returned. At temperature 0 the N requests are still sent, seeded, without top_p."""
    prompts = _seeded(["a", "b"], 2)
    with backend_for(fake) as be:
        be.check()
        out = be.generate(prompts, DecodingConfig(max_new_tokens=8, temperature=0.7, top_p=0.9, samples=2))
        assert be.transformers_serve is False
    by_seed = {b["seed"]: b for b in fake.bodies}
    assert sorted(by_seed) == sorted(p.seed for p in prompts) and len(fake.bodies) == 4
    for b in fake.bodies:
        assert (b["temperature"], b["top_p"]) == (0.7, 0.9) and "n" not in b and "generation_config" not in b
    assert [(c.seed, c.system_fingerprint) for c in out] == [(p.seed, f"fp-{p.seed}") for p in prompts]
    fake.bodies.clear()
    with backend_for(fake) as be:
        be.generate(_seeded(["a"], 3), DecodingConfig(max_new_tokens=8, samples=3))
        be.generate([prompt("greedy")], DecodingConfig(max_new_tokens=8))
    assert [("seed" in b, "top_p" in b) for b in fake.bodies] == [(True, False)] * 3 + [(False, False)]


def test_transformers_serve_gets_sampling_switched_on_and_one_request_at_a_time():
    """A server listed as transformers serve lists itself (check() detects it): sampled requests carry the
    generation_config that switches sampling on, and go one at a time (it seeds one global generator)."""
    with FakeServer({k: ["ok:0.05"] for k in "abc"}, transformers_serve=True) as srv:
        with backend_for(srv) as be:
            be.check()
            assert be.transformers_serve is True and be.provenance()["transformers_serve"] is True
            be.generate(_seeded(["a", "b", "c"], 2), DecodingConfig(max_new_tokens=8, temperature=0.6, top_p=0.95,
                                                                    samples=2))
            assert srv.max_in_flight == 1 and len(srv.bodies) == 6
            assert all(json.loads(b["generation_config"]) == {"do_sample": True, "temperature": 0.6, "top_p": 0.95,
                                                              "top_k": 0} for b in srv.bodies)
            srv.max_in_flight = 0
            be.generate([prompt(k) for k in "abc"], DecodingConfig(max_new_tokens=8))   # greedy: concurrent
            assert srv.max_in_flight > 1 and "generation_config" not in srv.bodies[-1]


def test_check_passes_and_returns_listed_models(fake):
    with backend_for(fake) as be:
        assert be.check() == ["fake-model-v1"]
        assert be.provenance()["server_models_listed"] == ["fake-model-v1"]


def test_check_names_the_url_on_a_wrong_path(fake):
    be = OpenAIBackend(fake.base_url.removesuffix("/v1") + "/api", "m")
    with pytest.raises(BackendError, match=r"/api \(--base-url\).*HTTP 404"):
        be.check()


def test_base_url_without_path_gets_v1():
    assert normalize_base_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/v1"
    assert normalize_base_url("http://h:1/v1/") == "http://h:1/v1"
    assert normalize_base_url("https://proxy/openai/v1") == "https://proxy/openai/v1"
    with pytest.raises(BackendError, match="--base-url"):
        normalize_base_url("localhost:8000")


# ----------------------------------------------------------------------------- unreachable server

def test_unreachable_server_check_raises_and_generate_returns_errors():
    port = free_port()                      # bound and released: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    be = OpenAIBackend(url, "m", request_timeout=1, max_retries=1, backoff_base=0.01, check_timeout=2)
    with pytest.raises(BackendError) as info:
        be.check()
    msg = str(info.value)
    assert url in msg and "--base-url" in msg and msg.startswith("cannot reach the OpenAI-compatible server")
    assert "Start the server or fix the URL." in msg
    t0 = time.monotonic()
    out = be.generate([prompt("a"), prompt("b")], DecodingConfig(max_new_tokens=8))
    assert time.monotonic() - t0 < 5
    assert [c.finish_reason for c in out] == ["error", "error"] and [c.text for c in out] == ["", ""]
    assert all("connection failed" in c.error and "gave up after 2 attempts" in c.error for c in out)
    assert be.provenance()["server_model"] is None
    be.close()


# ----------------------------------------------------------------------------- serve.py without a model

def test_serve_command_flags():
    cmd = serve_command("/m", "127.0.0.1", 1234, continuous_batching=True, extra_args=("--dtype", "float32"))
    assert cmd[1:4] == ["-m", "tooluse1.serve", "--raw-output"]
    assert cmd[4:] == ["serve", "--host", "127.0.0.1", "--port", "1234", "--continuous-batching",
                       "--dtype", "float32", "/m"]
    assert "--raw-output" not in serve_command("/m", "127.0.0.1", 1, raw_output=False)


def test_serve_rejects_a_non_checkpoint_dir(tmp_path):
    with pytest.raises(ServeError, match="no config.json"):
        start_transformers_serve(tmp_path)


def test_serve_failure_reports_the_log_tail_and_leaves_nothing_running(tmp_path):
    (tmp_path / "config.json").write_text('{"model_type": "no-such-architecture"}')
    with pytest.raises(ServeError) as info:
        start_transformers_serve(tmp_path, timeout_s=150)
    msg = str(info.value)
    assert "transformers serve exited with code 1 before answering" in msg and str(tmp_path) in msg
    assert "Error" in msg.split("\n", 1)[1]            # the log tail says why
    leftovers = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if str(tmp_path).encode() in (proc / "cmdline").read_bytes():
                    leftovers.append(proc.name)
            except OSError:
                pass
    assert leftovers == []


# ----------------------------------------------------------------------------- streamed requests

TOOLS = ({"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
         {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}})


def native_prompt(key: str) -> Prompt:
    return Prompt(item_id=f"{key}-native", case_id=key, protocol="native",
                  messages=({"role": "user", "content": key},), tools=TOOLS)


def test_a_stream_is_reassembled_into_the_same_completion_as_the_whole_response(fake):
    fake.script = {"a": ["ok"], "t": ["toolcall"]}
    prompts = [prompt("a"), prompt("t"), native_prompt("t")]
    with backend_for(fake) as whole, backend_for(fake, stream=True) as streamed:
        expected = whole.generate(prompts, DecodingConfig(max_new_tokens=8))
        got = streamed.generate(prompts, DecodingConfig(max_new_tokens=8))
    for e, g in zip(expected, got):
        assert (g.text, g.tool_calls, g.finish_reason, g.error) == (e.text, e.tool_calls, e.finish_reason, None)
        assert g.extra.get("reconstructed") == e.extra.get("reconstructed")
        assert g.extra["streamed"] is True and 0 <= g.ttft_s <= g.extra["last_attempt_s"] and e.ttft_s is None
        assert g.extra["system_fingerprint"] == "fp-fake"
        assert g.completion_tokens == 12 and g.extra["server_model"] == "fake-model-v1"
    assert got[2].tool_calls == [{"name": "get_weather", "arguments": {"city": "Berlin"}}]
    assert got[1].text.startswith("<think>weather needed</think>")      # reasoning deltas kept apart, folded back
    assert streamed.provenance()["stream"] is True and whole.provenance()["stream"] is False


def test_interleaved_tool_call_indices_are_joined_per_index(fake):
    fake.script = {"i": ["interleaved"]}
    with backend_for(fake, stream=True) as be:
        native, text = be.generate([native_prompt("i"), prompt("i")], DecodingConfig(max_new_tokens=8))
    assert native.error is None and native.text == ""
    assert native.tool_calls == [{"name": "get_weather", "arguments": {"city": "Berlin"}},
                                 {"name": "get_time", "arguments": {"zone": "CET"}}]   # name not doubled
    assert native.extra["server_finish_reason"] == "tool_calls" and native.finish_reason == "stop"
    assert text.text == ('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</tool_call>\n'
                         '<tool_call>\n{"name": "get_time", "arguments": {"zone": "CET"}}\n</tool_call>')


def test_empty_deltas_add_nothing(fake):
    fake.script = {"e": ["empty"]}
    with backend_for(fake, stream=True) as be:
        [c] = be.generate([prompt("e")], DecodingConfig(max_new_tokens=8))
    assert (c.text, c.finish_reason, c.error, c.tool_calls) == ("echo:e", "length", None, None)
    assert "reconstructed" not in c.extra


def test_a_stream_cut_mid_call_is_retried_then_an_error_item(fake):
    fake.script = {"once": ["cut", "ok"], "always": ["cut"]}
    with backend_for(fake, stream=True, max_retries=2) as be:
        once, always = be.generate([native_prompt("once"), native_prompt("always")], DecodingConfig(max_new_tokens=8))
    assert (once.text, once.error, once.extra["attempts"]) == ("echo:once", None, 2)
    assert (always.text, always.tool_calls, always.finish_reason) == ("", None, "error")   # no half call graded
    assert always.error.startswith("connection failed") and "gave up after 3 attempts" in always.error
    assert fake.count("always") == 3


def test_a_stream_without_finish_reason_is_an_error_item_not_a_shorter_answer(fake):
    fake.script = {"n": ["nofinish"], "later": ["nofinish", "ok"]}
    with backend_for(fake, stream=True, max_retries=1) as be:
        n, later = be.generate([prompt("n"), prompt("later")], DecodingConfig(max_new_tokens=8))
    assert (n.text, n.finish_reason) == ("", "error")
    assert n.error == ("bad response: the stream ended without a finish_reason after 3 chunks (6 characters of "
                       "content, 0 tool calls); the answer may be cut short (gave up after 2 attempts)")
    assert (later.text, later.error, later.extra["attempts"]) == ("echo:later", None, 2)


def test_a_stream_still_running_at_its_deadline_is_a_retried_timeout():
    """request_timeout bounds the whole stream: a server that trickles chunks past it does not keep the item."""
    from tooluse1.backends.openai_backend import StreamTimeout, assemble_stream, describe_error, is_retryable

    def trickle():
        yield type("Chunk", (), {"choices": [], "usage": None, "model": "m", "system_fingerprint": None})()
        raise AssertionError("read past the deadline")
    with pytest.raises(StreamTimeout) as info:
        assemble_stream(trickle(), deadline=time.monotonic() - 1)
    assert is_retryable(info.value) and describe_error(info.value, 5) == "request timed out (request_timeout 5 s)"


# ----------------------------------------------------------------------------- a real transformers serve

@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    from tooluse1.models import resolve_model
    return resolve_model("smollm2").path


def test_raw_output_turns_off_transformers_response_parsing(smollm2_dir, monkeypatch, stock_streaming):
    """Stock transformers serve rewrites Qwen-family outputs; the raw-output launcher must not."""
    from types import SimpleNamespace

    from transformers import AutoTokenizer
    from transformers.cli.serving import utils

    tok = AutoTokenizer.from_pretrained(smollm2_dir)
    qwen_like = SimpleNamespace(config=SimpleNamespace(model_type="qwen2"))
    xml = "<tool_call>\n<function=get_weather>\n<parameter=city>\nBerlin\n</parameter>\n</function>\n</tool_call>"
    json_call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</tool_call>'
    ids = {t: tok(t, add_special_tokens=False)["input_ids"] for t in (xml, json_call)}
    # Stock behaviour (what raw_output=False serves): our xml protocol fails the request (HTTP 500), and a
    # JSON call disappears from `content` into `tool_calls`.
    with pytest.raises(ValueError):
        utils.parse_assistant_message(tok, qwen_like, ids[xml], input_ids=[], cleaned_content=xml)
    content, _, calls = utils.parse_assistant_message(tok, qwen_like, ids[json_call], input_ids=[],
                                                      cleaned_content=json_call)
    assert content == "" and calls and calls[0].name == "get_weather"
    from transformers.cli.serving import chat_completion, response
    for module in (utils, chat_completion, response):   # undone after the test
        monkeypatch.setattr(module, "build_response_parser", module.build_response_parser)
        monkeypatch.setattr(module, "parse_assistant_message", module.parse_assistant_message)
    parse_responses_only_with_tools()
    for text, tid in ids.items():   # no tools in the request: the raw text, whatever it holds
        assert chat_completion.parse_assistant_message(tok, qwen_like, tid, input_ids=[], cleaned_content=text) == \
            (text, None, None)
        assert chat_completion.build_response_parser(tok, qwen_like, [], tools=None) is None
    # with tools (the native protocol) the server's own parsing is kept: the call is structured
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    content, _, calls = chat_completion.parse_assistant_message(
        tok, qwen_like, ids[json_call], input_ids=[], cleaned_content=json_call, tools=tools)
    assert content == "" and calls and calls[0].name == "get_weather"
    # where the server does no parsing, content is decoded by the in-process backend's rule: cut at the first
    # stop token, the tool-call markers kept even when they are special tokens (stock: skipped)
    mistral_tok = copy.deepcopy(tok)
    mistral_tok.add_tokens(["[TOOL_CALLS]"], special_tokens=True)
    call = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Berlin"}}]'
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    row = mistral_tok(call, add_special_tokens=False)["input_ids"] + [im_end] + \
        mistral_tok("<|im_start|>user\nmore", add_special_tokens=False)["input_ids"]
    stock = mistral_tok.decode(row, skip_special_tokens=True)
    assert "[TOOL_CALLS]" not in stock and "more" in stock
    no_template = SimpleNamespace(config=SimpleNamespace(model_type="llama"))   # transformers has none for llama
    assert utils.get_response_template(mistral_tok, no_template) is None
    for model, with_tools in ((qwen_like, None), (no_template, tools)):
        assert chat_completion.parse_assistant_message(mistral_tok, model, row, input_ids=[], cleaned_content=stock,
                                                       tools=with_tools) == (call, None, None)
    # streamed without a parser: the stock streamer is replaced by the raw one (RawTextStream, tested below)
    assert utils.DirectStreamer.tooluse1_raw is True


@pytest.fixture
def stock_streaming(monkeypatch):
    """transformers serve's streamer and streaming entry point, restored after the test that patches them."""
    from transformers.cli.serving import utils
    monkeypatch.setattr(utils, "DirectStreamer", utils.DirectStreamer)
    monkeypatch.setattr(utils.GenerateManager, "generate_streaming", utils.GenerateManager.generate_streaming)


def test_raw_text_streamed_token_by_token_joins_to_the_whole_decode(smollm2_dir):
    """The raw-output server's streamed deltas add up to its non-streamed content, on the texts where a
    naive incremental decode goes wrong: multi-byte characters split across tokens (Cyrillic, emoji, CJK),
    a special-token tool-call marker, spaces before punctuation, whitespace at the end, a stop token with
    text after it."""
    from transformers import AutoTokenizer

    from tooluse1.backends.transformers_backend import AnswerDecoder
    from tooluse1.serve import RawTextStream

    tok = AutoTokenizer.from_pretrained(smollm2_dir)
    tok.add_tokens(["[TOOL_CALLS]"], special_tokens=True)
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    decoder = AnswerDecoder(tok, [im_end], tok.pad_token_id)
    texts = ["Погода в Берлине: +5 °C 🌧️, 晴れ.", '[TOOL_CALLS][{"name": "get_weather", "arguments": {}}]',
             "Sure , I can ! Don 't worry .\n\n", "Hello.   \n"]
    for text in texts:
        ids = tok(text, add_special_tokens=False)["input_ids"]
        for row in (ids, ids + [im_end] + tok("after the stop", add_special_tokens=False)["input_ids"]):
            stream = RawTextStream(decoder)
            pieces = [stream.push([i]) for i in row] + [stream.flush()]
            assert "".join(pieces) == decoder.finish(row)[0], text
            assert not any("\ufffd" in p for p in pieces), text
            assert sum(1 for p in pieces if p) > 2, text     # streamed in pieces, not all at the end



@pytest.fixture(scope="session")
def transformers_server(smollm2_dir):
    """A real `transformers serve` process with SmolLM2-135M, shared by the tests of the session."""
    with start_transformers_serve(smollm2_dir, timeout_s=240, threads=1) as server:
        yield server


CHATS = ["Say hello.", "What is 2 plus 2?", "Name a colour.", "Write one word."]


def test_real_server_four_chats_in_order(transformers_server):
    srv = transformers_server
    be = OpenAIBackend(srv.base_url, srv.model, concurrency=4, request_timeout=180, max_retries=1)
    assert srv.model in be.check()
    prompts = [prompt(q, system="You are a helpful assistant. Answer briefly.") for q in CHATS]
    done: list[str] = []
    out = be.generate(prompts, DecodingConfig(max_new_tokens=16), on_complete=lambda c: done.append(c.item_id))
    assert [c.item_id for c in out] == [p.item_id for p in prompts] and sorted(done) == sorted(p.item_id
                                                                                             for p in prompts)
    for c in out:
        assert c.error is None, c.error
        assert c.text.strip() and c.finish_reason in {"stop", "length"}
        assert c.extra["server_model"] == srv.model
        assert 0 < c.completion_tokens <= 16 and c.prompt_tokens > 10
    prov = be.provenance()
    assert prov["server_model"] == srv.model and prov["base_url"] == srv.base_url and prov["concurrency"] == 4
    be.close()


# Four items (CI time): a call case and a no-call case, EN and RU, the text protocols and native (tools sent).
STREAM_ITEMS = [("calculator-ru-001", "xml"), ("negative-en-001", "plain"), ("multi_step-en-001", "json"),
                ("get_weather-en-001", "native")]


@pytest.mark.server
def test_streamed_answers_equal_the_whole_ones_through_transformers_serve(transformers_server):
    """The same four items over a real server, streamed and not: the same text, calls and verdicts (the
    raw-output server decodes both by one rule; the client reassembles the stream)."""
    from tooluse1.corpus import load_corpus
    from tooluse1.grade import grade_completion
    from tooluse1.prompts import render

    srv = transformers_server
    cases = {c.id: c for c in load_corpus()[0]}
    prompts = [render(cases[c], p) for c, p in STREAM_ITEMS]
    runs = {}
    for stream in (False, True):
        with OpenAIBackend(srv.base_url, srv.model, concurrency=1, request_timeout=300, max_retries=0,
                           stream=stream) as be:
            runs[stream] = be.generate(prompts, DecodingConfig(max_new_tokens=48))
    for (case_id, protocol), whole, streamed in zip(STREAM_ITEMS, runs[False], runs[True]):
        assert whole.error is None and streamed.error is None, (whole.error, streamed.error)
        assert (streamed.text, streamed.tool_calls, streamed.finish_reason, streamed.completion_tokens) == \
            (whole.text, whole.tool_calls, whole.finish_reason, whole.completion_tokens), case_id
        assert grade_completion(cases[case_id], streamed, protocol)[1] == \
            grade_completion(cases[case_id], whole, protocol)[1]
        assert 0 < streamed.ttft_s < streamed.extra["last_attempt_s"] and whole.ttft_s is None
    assert any(c.text.strip() for c in runs[True])


@pytest.mark.server
def test_seeded_sampling_through_transformers_serve_is_switched_on_and_reproducible(transformers_server):
    """Two chats x 2 samples at temperature 1.0, twice: transformers serve (detected) samples (the samples of
    a chat differ: generation_config switched sampling on) and gives the same texts for the same seeds."""
    srv = transformers_server
    config = DecodingConfig(max_new_tokens=12, temperature=1.0, samples=2, sample_seed=3)
    prompts = _seeded(CHATS[:2], 2, seed=3)
    runs = []
    for _ in range(2):
        with OpenAIBackend(srv.base_url, srv.model, concurrency=4, request_timeout=300, max_retries=0) as be:
            be.check()
            assert be.transformers_serve is True
            runs.append(be.generate(prompts, config))
    first, second = ([c.text for c in run] for run in runs)
    assert all(c.error is None for run in runs for c in run)
    assert first == second and (first[0] != first[1] or first[2] != first[3])


def _group_alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_real_server_killed_mid_run_then_stopped(smollm2_dir):
    srv = start_transformers_serve(smollm2_dir, timeout_s=240, threads=1)
    try:
        be = OpenAIBackend(srv.base_url, srv.model, concurrency=1, request_timeout=60, max_retries=1,
                           backoff_base=0.05)
        be.check()

        def kill_after_first(c: Completion) -> None:
            if c.error is None:
                srv.kill()

        out = be.generate([prompt(q) for q in CHATS[:3]], DecodingConfig(max_new_tokens=4),
                          on_complete=kill_after_first)
        assert out[0].error is None and out[0].text.strip()
        assert [c.finish_reason for c in out[1:]] == ["error", "error"]
        assert all("connection failed" in c.error for c in out[1:])
        assert not srv.is_running() and not _group_alive(srv.pid)
        with pytest.raises(BackendError) as info:
            be.check()
        assert srv.base_url in str(info.value) and "--base-url" in str(info.value)
    finally:
        srv.stop()
    assert "Uvicorn running" in srv.log_tail(200)


def test_real_server_stop_then_check_fails(transformers_server):
    # Runs last among the real-server tests (file order); stop() is idempotent, so the fixture's own stop is fine.
    srv = transformers_server
    be = OpenAIBackend(srv.base_url, srv.model)
    be.check()
    t0 = time.monotonic()
    srv.stop()
    assert time.monotonic() - t0 < 15
    assert not srv.is_running() and not _group_alive(srv.pid)
    with pytest.raises(BackendError) as info:
        be.check()
    msg = str(info.value)
    assert msg.startswith(f"cannot reach the OpenAI-compatible server at {srv.base_url} (--base-url)")
    assert msg.endswith("Start the server or fix the URL.")
