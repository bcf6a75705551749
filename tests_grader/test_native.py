"""The `native` protocol (issue 11): tools the way models are deployed.

- the OpenAI backend sends `tools` + `tool_choice: "auto"` and structured history for native prompts only,
  and grades structured `tool_calls` directly (a capturing HTTP server: what was sent is the point);
- the transformers backend passes the tools through the chat template's `tools=` and renders tool results
  in the template's own tool turn (the real default model); a template without tool support is refused with
  one clear message (the real SmolLM2, through pytest as a user runs it);
- a real `transformers serve` process with the default model: native requests carry the tools and the
  server's tool-call parsing, text-protocol requests get the raw text.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tooluse1.backends.base import Completion, DecodingConfig
from tooluse1.backends.openai_backend import OpenAIBackend
from tooluse1.corpus import load_corpus
from tooluse1.grade import grade_extraction
from tooluse1.parse import extract_completion
from tooluse1.prompts import render

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for c in load_corpus()[0]}


STRUCTURED_CALL = {"role": "assistant", "content": "Let me check.", "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"}}]}


class CapturingServer:
    """Answers every chat completion with ``message`` (default: one structured get_weather call) and keeps
    the request bodies."""

    def __init__(self, message: dict | None = None) -> None:
        self.bodies: list[dict] = []
        server = self
        message = message or STRUCTURED_CALL

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                data = json.dumps({
                    "id": "x", "object": "chat.completion", "created": 0, "model": "m",
                    "choices": [{"index": 0, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                                 "message": message}],
                    "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_openai_backend_native_sends_tools_and_grades_structured_calls(cases):
    srv = CapturingServer()
    try:
        backend = OpenAIBackend(srv.base_url, "m", concurrency=1, request_timeout=10, max_retries=0)
        multi = cases["multi_step-en-001"]
        prompts = [render(cases["get_weather-en-001"], "native"), render(multi, "native"),
                   render(cases["get_weather-en-001"], "json")]
        native, history, text = backend.generate(prompts, DecodingConfig(max_new_tokens=32))
        backend.close()
    finally:
        srv.close()
    sent_native, sent_history, sent_text = srv.bodies
    assert sent_native["tool_choice"] == "auto"
    assert [t["function"]["name"] for t in sent_native["tools"]] == list(cases["get_weather-en-001"].tools)
    assert "tools" not in sent_text and "tool_choice" not in sent_text          # text protocols: tools as text
    # structured history: the prior call with JSON-string arguments, its result as a tool message
    calls = [m for m in sent_history["messages"] if m.get("tool_calls")]
    assert calls and all(isinstance(tc["function"]["arguments"], str) for m in calls for tc in m["tool_calls"])
    tool_msgs = [m for m in sent_history["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == [tc["id"] for m in calls for tc in m["tool_calls"]]
    # native: the structured call is kept apart from the text and graded directly
    assert native.text == "Let me check." and native.tool_calls == [{"name": "get_weather",
                                                                      "arguments": {"city": "Tokyo"}}]
    ex = extract_completion(native, "native")
    assert ex.label == "call" and ex.form == "api" and ex.calls[0].arguments == {"city": "Tokyo"}
    assert grade_extraction(cases["get_weather-en-001"], ex).passed
    # a text protocol folds the server-split call back into the text (1.x behaviour, unchanged)
    assert text.tool_calls is None and "<tool_call>" in text.text


def test_structured_calls_count_with_text_calls_and_broken_ones_are_malformed(cases):
    c = cases["get_weather-en-001"]
    both = Completion("i", '{"name": "get_weather", "arguments": {"city": "Tokyo"}}',
                      tool_calls=[{"name": "get_weather", "arguments": {"city": "Tokyo"}}])
    ex = extract_completion(both, "native")
    assert len(ex.calls) == 2 and ex.form == "api+json" and not grade_extraction(c, ex).passed
    broken = Completion("i", "", tool_calls=[{"name": "get_weather", "arguments": "{city: Tokyo"}])
    ex = extract_completion(broken, "native")
    assert ex.label == "malformed" and "not JSON" in ex.problem


# A server that does not parse tool calls (llama.cpp without --jinja, a vLLM without a tool parser) returns
# the model's markup in `content`; the grader must read it there, as text.
MARKUP_IN_CONTENT = {
    "hermes": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>',
    "mistral": '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Tokyo"}}]',
    "kimi-k2": '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>'
               '{"city": "Tokyo"}<|tool_call_end|><|tool_calls_section_end|>',
    "harmony": '<|channel|>analysis<|message|>Weather lookup needed.<|end|><|start|>assistant<|channel|>commentary '
               'to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>',
    "llama3.1": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}',
    "deepseek-v3.1": '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Tokyo"}'
                     '<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
}


@pytest.mark.parametrize("reasoning", [None, "Пользователь спрашивает о погоде в Токио."], ids=["plain", "reasoning"])
@pytest.mark.parametrize("family", sorted(MARKUP_IN_CONTENT))
def test_openai_backend_grades_tool_markup_returned_in_content(cases, family, reasoning):
    content = MARKUP_IN_CONTENT[family]
    message = {"role": "assistant", "content": content,
               **({"reasoning_content": reasoning} if reasoning else {})}
    srv = CapturingServer(message)
    try:
        backend = OpenAIBackend(srv.base_url, "m", concurrency=1, request_timeout=10, max_retries=0)
        [out] = backend.generate([render(cases["get_weather-en-001"], "native")], DecodingConfig(max_new_tokens=32))
        backend.close()
    finally:
        srv.close()
    assert srv.bodies[0]["tools"]                                         # a native request
    assert out.tool_calls == []                                           # the server parsed nothing
    # the content reaches the grader verbatim; server-split reasoning is folded back as thinking
    assert out.text == (f"<think>{reasoning}</think>\n{content}" if reasoning else content)
    ex = extract_completion(out, "native")
    assert [(c.name, c.arguments) for c in ex.calls] == [("get_weather", {"city": "Tokyo"})], ex
    assert "Токио" not in ex.prose and grade_extraction(cases["get_weather-en-001"], ex).passed


def bench(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


def test_a_template_without_tool_support_is_refused_with_one_message(tmp_path):
    out = bench("--model", "smollm2", "--protocol", "native", "-k", "calculator-en-001", "--threads", "1")
    assert out.returncode == 4, out.stdout[-2000:] + out.stderr[-2000:]
    text = out.stdout + out.stderr
    assert "--protocol native: this model's chat template has no tool support" in text
    assert "Traceback" not in text


def test_default_model_native_through_the_chat_template(tmp_path, cases):
    """Tools reach the real default model through its template's `tools=`, history through its tool turn."""
    from tooluse1.backends.transformers_backend import TransformersBackend
    from tooluse1.models import resolve_model
    backend = TransformersBackend(resolve_model("default"), threads=1, fast=True)
    try:
        assert backend.tool_turn == "template"
        multi = render(cases["multi_step-en-001"], "native")
        text = backend.tokenizer.decode(backend._encode(multi))
        assert "<tools>" in text and '"name": "get_weather"' in text               # Qwen's own tools block
        assert "<tool_response>" in text and "<tool_call>" in text                # its own call/result turns
        ids = ["get_weather-en-001", "negative-en-001", "multi_step-en-001", "calculator-ru-005"]
        outs = backend.generate([render(cases[i], "native") for i in ids], DecodingConfig(max_new_tokens=48))
    finally:
        backend.close()
    for i, out in zip(ids, outs):
        assert out.error is None and out.finish_reason in ("stop", "length"), i
        v = grade_extraction(cases[i], extract_completion(out, "native"), out.finish_reason)
        assert v.expectation == cases[i].expectation
    # what this model does with native tools, pinned (greedy, deterministic): it answers the knowledge
    # question in text and calls the calculator for 2^10
    assert "Canberra" in outs[1].text
    assert extract_completion(outs[3], "native").calls[0].name == "calculator"


def test_default_model_native_through_transformers_serve(cases):
    """A real server: native requests carry `tools` and get the server's tool-call parsing; the same server
    answers a text-protocol request with the raw text."""
    from tooluse1.models import resolve_model
    from tooluse1.serve import start_transformers_serve
    ids = ["get_weather-en-001", "negative-en-001", "calculator-ru-005"]
    with start_transformers_serve(resolve_model("default").path, timeout_s=300, threads=1) as server:
        backend = OpenAIBackend(server.base_url, server.model, concurrency=1, request_timeout=300, max_retries=0)
        try:
            # the last two: text protocols, one with a multi-step history (tool messages without structured calls)
            prompts = [render(cases[i], "native") for i in ids] + [render(cases["calculator-ru-005"], "json"),
                                                                   render(cases["multi_step-en-001"], "xml")]
            outs = backend.generate(prompts, DecodingConfig(max_new_tokens=48))
        finally:
            backend.close()
    for i, out in zip(ids, outs):
        assert out.error is None, (i, out.error)
        assert out.tool_calls is not None            # native: structured calls read (an empty list when none)
        v = grade_extraction(cases[i], extract_completion(out, "native"), out.finish_reason)
        assert v.expectation == cases[i].expectation
    assert "Canberra" in outs[1].text
    assert outs[3].tool_calls is None and '"calculator"' in outs[3].text    # text protocol: the raw text
    assert outs[4].error is None and outs[4].tool_calls is None
