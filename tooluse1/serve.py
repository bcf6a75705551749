"""Start and stop a local `transformers serve` process: a real OpenAI-compatible server for tests and benchmarks.

    with start_transformers_serve(resolve_model("smollm2").path) as server:
        backend = OpenAIBackend(server.base_url, server.model)
        ...

What this module guarantees:

- The server runs from the current interpreter's environment (``sys.executable``), offline
  (``HF_HUB_OFFLINE=1``), bound to ``host`` (127.0.0.1 by default), in its own process group, with stdout and
  stderr in a log file. ``start_transformers_serve`` returns only once ``GET /v1/models`` answers; the model
  is passed as transformers' ``FORCE_MODEL`` argument, so it is loaded *before* the server listens and the
  first request does not pay for loading. The server then answers only for that model: requests must send
  ``model=handle.model`` (the directory path, exactly as given); any other name gets HTTP 400.
- A start that fails (the process exits, or nothing answers within ``timeout_s``) kills the process group and
  raises :class:`ServeError` with the last lines of the log.
- ``stop()`` sends SIGTERM to the whole group and SIGKILL after a grace period; ``kill()`` sends SIGKILL at once.
  Servers still running when the interpreter exits are killed by an ``atexit`` hook, and on Linux the server
  also gets SIGKILL when the thread that started it dies (``PR_SET_PDEATHSIG``), so a crashed test session
  does not leave a server behind. Start servers from a long-lived thread (the main thread, a pytest fixture).

Raw output (``raw_output=True``, the default). transformers 5.x ``serve`` post-processes the generated text of
some model families with a "response template": for ``model_type`` qwen2/qwen3/qwen3_5/gemma4 it moves
``<tool_call>...</tool_call>`` spans out of ``message.content`` into ``message.tool_calls`` and ``<think>``
spans into ``reasoning_content`` even when the request passed no ``tools``; and a ``<tool_call>`` block
whose body is not JSON (our xml protocol) makes the request fail with HTTP 500. A benchmark that grades the
model's own text must not have the server rewrite it, so by default the server is launched through this
module (``python -m tooluse1.serve``), which turns that parsing off before handing over to transformers'
own CLI: ``content`` is then the plain decode of the generated tokens by the in-process backend's rule (cut at
the first stop token; special tokens kept except bos/eos/pad/unk), the same text the in-process transformers
backend grades, streamed (``--stream``) or not: a streamed answer's deltas add up to the same ``content``
(``RawTextStream``; not under ``--continuous-batching``, whose streamer is left stock). Requests that carry ``tools``
(the native protocol) keep the server's tool-call parsing: there the structured ``tool_calls`` are what a
deployment gets, and what is graded. Pass ``raw_output=False`` for the stock behaviour.

Concurrency. Without ``continuous_batching`` transformers serve runs every ``model.generate`` call on one
inference thread, one request at a time: concurrent requests queue. ``continuous_batching=True`` passes
``--continuous-batching`` (paged attention, requests batched as they arrive); tune it with
``extra_args=("--cb-max-batch-tokens", "...")`` etc.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Mapping, Sequence

from tooluse1.errors import BackendError

_LOG_TAIL_LINES = 40
_live: "set[ServerHandle]" = set()
_live_lock = threading.Lock()


class ServeError(BackendError):
    """The local server could not be started (the message carries the command and the log tail)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (bind to port 0 and read it back).

    Another process may take it before the server binds; :func:`start_transformers_serve` retries with a
    new port when that happens and the port was picked automatically.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _log_tail(path: Path, lines: int = _LOG_TAIL_LINES) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError as e:
        return f"(log {path} unreadable: {e})"
    # tqdm progress bars use carriage returns; keep only the last state of each line.
    out = [ln.rsplit("\r", 1)[-1] for ln in text.splitlines()]
    return "\n".join(out[-lines:])


def _models_answer(base_url: str, timeout: float = 2.0) -> bool:
    """True when GET <base_url>/models returns HTTP 200."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=timeout) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _pdeathsig_preexec() -> None:
    """In the child, before exec: ask Linux to SIGKILL us when the parent (thread) dies."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except Exception:  # not Linux, or no libc: the atexit hook still covers normal exits
        pass


class ServerHandle:
    """A running `transformers serve` process.

    ``base_url`` ends in ``/v1`` (pass it to OpenAIBackend / the openai client as is); ``model`` is the string
    to send as ``model``; ``log_path`` holds the server's stdout and stderr (kept after stop for inspection);
    ``startup_s`` is the time from spawn until ``/v1/models`` answered.
    """

    def __init__(self, process: subprocess.Popen, base_url: str, model: str, log_path: Path, command: list[str],
                 continuous_batching: bool, raw_output: bool, startup_s: float = 0.0) -> None:
        self.process = process
        self.pid: int = process.pid
        self.base_url = base_url
        self.model = model
        self.log_path = log_path
        self.command = command
        self.continuous_batching = continuous_batching
        self.raw_output = raw_output
        self.startup_s = startup_s

    def __repr__(self) -> str:
        state = "running" if self.is_running() else f"exited({self.process.returncode})"
        return f"ServerHandle(pid={self.pid}, base_url={self.base_url!r}, {state})"

    def is_running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = _LOG_TAIL_LINES) -> str:
        return _log_tail(self.log_path, lines)

    def _signal_group(self, sig: int) -> None:
        # The server is a session leader (start_new_session), so its pid is its process-group id.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    def stop(self, grace_s: float = 10.0) -> None:
        """SIGTERM to the process group, SIGKILL after ``grace_s``; returns when the server has exited.

        uvicorn finishes in-flight requests on SIGTERM, which can take long on CPU; the grace period bounds it.
        Idempotent.
        """
        if self.is_running():
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """SIGKILL the whole process group at once (a crash, as seen by clients); waits for it. Idempotent."""
        self._signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        with _live_lock:
            _live.discard(self)

    close = stop

    def __enter__(self) -> "ServerHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


@atexit.register
def _kill_leftovers() -> None:
    with _live_lock:
        handles = list(_live)
    for h in handles:
        h.kill()


def serve_command(model: str, host: str, port: int, continuous_batching: bool = False,
                  raw_output: bool = True, extra_args: Sequence[str] = ()) -> list[str]:
    """The argv that starts the server (the current interpreter; see the module doc for ``raw_output``)."""
    launcher = ([sys.executable, "-m", "tooluse1.serve", "--raw-output"] if raw_output
                else [sys.executable, "-m", "transformers.cli.transformers"])
    args = ["serve", "--host", host, "--port", str(port)]
    if continuous_batching:
        args.append("--continuous-batching")
    return [*launcher, *args, *extra_args, model]


def start_transformers_serve(model_dir: Path | str, port: int | None = None, host: str = "127.0.0.1",
                             extra_args: Sequence[str] = (), timeout_s: float = 180,
                             continuous_batching: bool = False, raw_output: bool = True,
                             log_path: Path | str | None = None, env: Mapping[str, str] | None = None,
                             threads: int | None = None) -> ServerHandle:
    """Start `transformers serve` for one local checkpoint directory and wait until it answers.

    Returns a :class:`ServerHandle` (also a context manager that stops the server). ``port=None`` picks a
    free port (and retries on a port race); ``extra_args`` go to ``transformers serve`` verbatim; ``env``
    adds/overrides environment variables of the server; ``threads`` sets its torch/OpenMP thread count
    (``OMP_NUM_THREADS``/``MKL_NUM_THREADS``; None inherits). On a CPU shared with other busy processes
    ``threads=1`` was ~3x faster than 2 threads here (OpenMP threads spin-wait for each other). Raises
    :class:`ServeError` (a BackendError) with the log tail when the server exits or does not answer
    ``/v1/models`` within ``timeout_s``; nothing is left running then.
    """
    model_dir = Path(model_dir)
    if not (model_dir / "config.json").is_file():
        raise ServeError(f"cannot serve {model_dir}: not a checkpoint directory (no config.json)")
    model = str(model_dir)
    if threads is not None:
        env = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads), **(env or {})}
    attempts = 3 if port is None else 1
    last: ServeError | None = None
    for _ in range(attempts):
        try:
            return _start_once(model, port or free_port(host), host, extra_args, timeout_s, continuous_batching,
                               raw_output, log_path, env)
        except _PortTaken as e:
            last = ServeError(str(e))
    assert last is not None
    raise last


class _PortTaken(ServeError):
    pass


def _child_env(env: Mapping[str, str] | None) -> dict[str, str]:
    child = dict(os.environ)
    child.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
                  "HF_HUB_DISABLE_UPDATE_CHECK": "1", "PYTHONUNBUFFERED": "1"})
    # `python -m tooluse1.serve` must import this package even when it is not installed into the venv.
    repo_root = str(Path(__file__).resolve().parent.parent)
    child["PYTHONPATH"] = os.pathsep.join(p for p in (repo_root, child.get("PYTHONPATH", "")) if p)
    child.update(env or {})
    return child


def _start_once(model: str, port: int, host: str, extra_args: Sequence[str], timeout_s: float,
                continuous_batching: bool, raw_output: bool, log_path: Path | str | None,
                env: Mapping[str, str] | None) -> ServerHandle:
    cmd = serve_command(model, host, port, continuous_batching, raw_output, extra_args)
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix=f"tooluse1-serve-{port}-", suffix=".log")
        os.close(fd)
        log = Path(name)
    else:
        log = Path(log_path)
        log.parent.mkdir(parents=True, exist_ok=True)
    url_host = f"[{host}]" if ":" in host else host
    base_url = f"http://{url_host}:{port}/v1"
    started = time.monotonic()
    with open(log, "ab") as out:
        out.write(f"$ {' '.join(cmd)}\n".encode())
        out.flush()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                env=_child_env(env), start_new_session=True, preexec_fn=_pdeathsig_preexec)
    handle = ServerHandle(proc, base_url, model, log, cmd, continuous_batching, raw_output)
    with _live_lock:
        _live.add(handle)
    try:
        deadline = started + timeout_s
        while True:
            if not handle.is_running():
                tail = handle.log_tail()
                kind = _PortTaken if "address already in use" in tail.lower() else ServeError
                raise kind(f"transformers serve exited with code {proc.returncode} before answering "
                           f"{base_url}/models (command: {' '.join(cmd)}; log {log}):\n{tail}")
            if _models_answer(base_url):
                break
            if time.monotonic() > deadline:
                raise ServeError(f"transformers serve did not answer {base_url}/models within {timeout_s:.0f} s "
                                 f"(command: {' '.join(cmd)}; log {log}):\n{handle.log_tail()}")
            time.sleep(0.25)
    except BaseException:
        handle.kill()
        raise
    handle.startup_s = time.monotonic() - started
    return handle


# ----------------------------------------------------------------------------- launcher

def parse_responses_only_with_tools() -> None:
    """Make transformers serve return the plain decode of generated tokens as ``content`` for every request
    that carries no ``tools``, and keep its tool-call parsing for requests that do (the native protocol).

    transformers calls ``build_response_parser`` (streaming) and ``parse_assistant_message`` (non-streaming)
    with the request's ``tools``; both are wrapped, in ``transformers.cli.serving.utils`` and in the modules
    that imported them by name, so that without tools no template is used — which the server documents as
    "no parsing performed; raw text is streamed through".

    Wherever the server does no parsing (no ``tools``, or a model without a response template), the
    non-streaming ``content`` is decoded by the in-process backend's rule (``AnswerDecoder``: cut at the
    first stop token, special tokens kept except bos/eos/pad/unk), not with every special token skipped as
    stock transformers does: the tool-call markers of many chat formats are special tokens. A streamed
    request without a parser is decoded by the same rule (``RawTextStream``), so its deltas join to the
    non-streamed ``content``.
    """
    from transformers.cli.serving import chat_completion, response, utils

    _stream_raw_text(utils)

    build, parse, template_of = utils.build_response_parser, utils.parse_assistant_message, \
        utils.get_response_template

    def build_with_tools_only(processor, model, input_ids, tools=None):
        return build(processor, model, input_ids, tools=tools) if tools else None

    def parse_with_tools_only(processor, model, generated_ids, input_ids, cleaned_content="", tools=None):
        if not tools or template_of(processor, model) is None:
            return raw_content(processor, model, generated_ids), None, None
        return parse(processor, model, generated_ids, input_ids, cleaned_content=cleaned_content, tools=tools)

    # Typed Any: a tuple of modules joins to ModuleType, which declares neither name patched here.
    patched: tuple[Any, ...] = (utils, chat_completion, response)
    for module in patched:
        module.build_response_parser = build_with_tools_only
        module.parse_assistant_message = parse_with_tools_only


def raw_decoder(processor, model) -> Any:
    """The in-process transformers backend's ``AnswerDecoder`` for this model: its stop ids
    (``collect_stop_ids``) and pad choice."""
    from tooluse1.backends.transformers_backend import AnswerDecoder, choose_pad_token, collect_stop_ids

    tokenizer = getattr(processor, "tokenizer", processor)
    stop_ids = collect_stop_ids(tokenizer, getattr(model, "generation_config", None), getattr(model, "config", None))
    return AnswerDecoder(tokenizer, stop_ids, choose_pad_token(tokenizer).token_id)


def raw_content(processor, model, generated_ids) -> str:
    """The generated ids as the in-process transformers backend decodes them (``raw_decoder``)."""
    ids = generated_ids.tolist() if hasattr(generated_ids, "tolist") else list(generated_ids)
    return raw_decoder(processor, model).finish(ids)[0]


class RawTextStream:
    """One streamed row decoded by ``AnswerDecoder``'s rule: ``push`` takes the new token ids and returns the
    text that became final, ``flush`` the rest once the row ended.

    Guarantee: the pushed and flushed pieces join to ``decoder.finish(all ids)[0]``, the non-streamed
    ``content``, whenever the decode of the ids so far is a prefix of the decode of all of them once its
    trailing whitespace and any incomplete character (U+FFFD) are held back (a later token may complete a
    multi-byte character, and tokenizers that clean up spaces remove one before punctuation). Decoding
    again from the start makes a row quadratic in its length, which is small next to generating it.
    """

    def __init__(self, decoder: Any) -> None:
        self.decoder = decoder
        self.ids: list[int] = []
        self.sent = ""

    def push(self, ids: Sequence[int]) -> str:
        self.ids.extend(ids)
        text = self.decoder.finish(self.ids)[0]
        settled = text.rstrip().rstrip("\ufffd")
        if len(settled) <= len(self.sent) or not settled.startswith(self.sent):
            return ""
        piece, self.sent = settled[len(self.sent):], settled
        return piece

    def flush(self) -> str:
        """The rest of the row; a row whose final decode does not extend what was sent (a tokenizer outside
        the guarantee) logs a warning in the server log, since text already sent cannot be taken back."""
        text = self.decoder.finish(self.ids)[0]
        if not text.startswith(self.sent):
            print(f"tooluse1.serve: streamed text {self.sent!r} is not a prefix of the row's text {text!r}",
                  file=sys.stderr)
            return ""
        piece, self.sent = text[len(self.sent):], text
        return piece


_raw_stream_for = threading.local()   # the RawTextStream a streamer being built now takes (see _stream_raw_text)


def _stream_raw_text(utils: Any) -> None:
    """Make transformers' ``DirectStreamer`` (the streamer of the default, non-CB generation path) send
    ``RawTextStream`` pieces for requests without a response parser. The decoder needs the model, which the
    streamer is not given: ``GenerateManager.generate_streaming`` (which builds it, in the calling thread)
    passes it through a thread-local."""
    if getattr(utils.DirectStreamer, "tooluse1_raw", False):
        return
    stock_streamer, stock_generate = utils.DirectStreamer, utils.GenerateManager.generate_streaming

    class RawDirectStreamer(stock_streamer):    # type: ignore[misc,valid-type]
        tooluse1_raw = True

        def __init__(self, tokenizer, loop, queue, response_parser=None) -> None:
            super().__init__(tokenizer, loop, queue, response_parser=response_parser)
            self.raw = getattr(_raw_stream_for, "stream", None) if response_parser is None else None

        def put(self, value) -> None:
            if self.raw is None:
                return super().put(value)
            if self._cancelled.is_set():
                raise utils._GenerationCancelled()
            # the prompt's ids come first (as in the stock streamer; its attribute, untyped here)
            if self._first:  # type: ignore[has-type]
                self._first = False
                return
            ids = value.reshape(-1).tolist()
            self.total_tokens += len(ids)
            piece = self.raw.push(ids)
            if piece:
                self._enqueue(piece)

        def end(self) -> None:
            if self.raw is not None:
                piece = self.raw.flush()
                if piece:
                    self._enqueue(piece)
            super().end()

    def generate_streaming(self, model, processor, inputs, gen_config, request_id, response_parser=None):
        _raw_stream_for.stream = RawTextStream(raw_decoder(processor, model)) if response_parser is None else None
        try:
            return stock_generate(self, model, processor, inputs, gen_config, request_id,
                                  response_parser=response_parser)
        finally:
            _raw_stream_for.stream = None

    utils.DirectStreamer = RawDirectStreamer
    utils.GenerateManager.generate_streaming = generate_streaming


def _main(argv: Sequence[str]) -> None:
    """``python -m tooluse1.serve [--raw-output] <transformers CLI args>``: the stock CLI, optionally raw."""
    argv = list(argv)
    if argv[:1] == ["--raw-output"]:
        argv = argv[1:]
        parse_responses_only_with_tools()
    os.environ.setdefault("HF_HUB_DISABLE_UPDATE_CHECK", "1")
    from transformers.cli.transformers import main

    sys.argv = ["transformers", *argv]
    main()


if __name__ == "__main__":
    _main(sys.argv[1:])
