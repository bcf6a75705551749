"""In-process backend: a local checkpoint run with transformers' ``generate``, greedy (or seeded sampling for
sampled trials, ``TransformersBackend.generate``), batched.

The request handling follows lm-evaluation-harness, whose pitfalls are documented (ANCHORS.md):
every request is rendered and tokenised first, sorted longest-first, cut into batches that are left-padded
only to their own longest row, generated, and put back in input order. Each generated row is cut at its
first stop token *on token ids*, before decoding (lm-eval #2723). Decoding keeps every special token except
the tokenizer's bos/eos/pad/unk and the stop tokens (``AnswerDecoder``): the tool-call markers of many chat
formats are special tokens, and the grader must see them.

Batched greedy decoding is not bit-identical to batch-1 decoding: padding changes the shapes of the matrix
products, and float rounding can flip a near-tie between two tokens (lm-eval #335/#879, transformers
#22861). The batch size is therefore recorded in ``provenance()``, and ``reference_batch1=True`` gives the
batch-1 reference run.

With ``fast=True`` (the default of benchmark runs, ``RunConfig.fast``) generation goes through
``fast_decode.FastGreedyDecoder`` instead: each shared prompt prefix (protocol x offered tools, computed on
token ids) is encoded once and its KV cache reused, and the decode batch is refilled as rows finish.
``fast=False`` (``--no-fast``) keeps the plain path above as the reference; ``reference_batch1=True``
implies it.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Collection, Iterable, Iterator, Sequence, cast

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig

from tooluse1.backends.base import (BackendError, Capabilities, Completion, DecodingConfig, OnComplete, FollowUps,
                                    Request)
from tooluse1.backends.fast_decode import FastGreedyDecoder, FastStats, FinishedRow, RowSampler, unsupported_reason
from tooluse1.models import ResolvedModel
from tooluse1.prompts import Prompt

_DTYPES: dict[str, Any] = {"float32": torch.float32, "bfloat16": torch.bfloat16,
                           "float16": torch.float16, "auto": "auto"}
# Rows generated together when the user names no batch size. The plain path pads every row of a static batch
# to its longest answer, so it stays small; the fast path refills finished rows and amortises each weight
# read over more of them (default model, one CPU thread, 48 items: 219 s at 8 slots, 188 s at 32; its KV
# buffer is 1.2 GB at 32 slots, see BENCHMARKS.md).
DEFAULT_BATCH_SIZE = 8
DEFAULT_FAST_SLOTS = 32
# End-of-turn markers of the common chat formats (ChatML, Llama 3, Gemma, Phi-3). A model can end its
# turn with one of these even when its config names a different eos, so they stop generation too
# whenever the tokenizer has them as special tokens and the generation config does not list its own
# turn ends (collect_stop_ids).
END_OF_TURN_TOKENS: tuple[str, ...] = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|eom_id|>",
                                       "<|end_of_text|>", "<end_of_turn>", "<|end|>")
# Loading-report keys that are expected to be absent from a checkpoint with tied input/output embeddings.
_TIED_HEAD_KEYS = frozenset({"lm_head.weight"})


@dataclass(frozen=True)
class PadChoice:
    """The padding token the backend uses and where it came from ("pad", "unk" or "eos")."""

    token: str
    token_id: int
    source: str


def choose_pad_token(tokenizer: Any) -> PadChoice:
    """The tokenizer's own pad token if it has one, else unk, else eos (lm-eval's fallback order).

    Never modifies the tokenizer: the chosen id is only used to fill the left padding, which the attention
    mask hides, so borrowing unk/eos cannot change any output. Raises BackendError if none exists.
    """
    for source in ("pad", "unk", "eos"):
        token = getattr(tokenizer, f"{source}_token", None)
        token_id = getattr(tokenizer, f"{source}_token_id", None)
        if token is not None and token_id is not None:
            return PadChoice(str(token), int(token_id), source)
    raise BackendError("tokenizer has no pad, unk or eos token to pad batches with; "
                       "use a checkpoint whose tokenizer defines one of them")


def _as_id_list(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, int):
        return [value]
    return [int(v) for v in value]


def special_tokens(tokenizer: Any) -> dict[str, int]:
    """Every token the tokenizer treats as special, mapped to its id."""
    out: dict[str, int] = {}
    for token_id, added in getattr(tokenizer, "added_tokens_decoder", {}).items():
        if getattr(added, "special", False):
            out[str(added)] = int(token_id)
    for token in getattr(tokenizer, "all_special_tokens", []):
        token_id = tokenizer.convert_tokens_to_ids(token)
        if isinstance(token_id, int) and token_id >= 0:
            out.setdefault(str(token), token_id)
    return out


def collect_stop_ids(tokenizer: Any, generation_config: Any, model_config: Any) -> list[int]:
    """The sorted union of every id that ends a turn for this model.

    Sources: ``tokenizer.eos_token_id``, ``generation_config.eos_token_id`` and ``model_config.eos_token_id``
    (each an int, a list or None) plus, unless the generation config lists several end ids, the end-of-turn
    tokens of ``END_OF_TURN_TOKENS`` that the tokenizer has as special tokens. Checkpoints often disagree
    among these (Qwen's config names <|endoftext|> while its chat turns end in <|im_end|>); stopping on only
    one of them runs a row on into a fake next turn. A generation config that lists several end ids is its
    authors' own list of turn ends and is not supplemented: one of the common markers can end a *message*
    inside a turn there (gpt-oss lists <|return|> and <|call|>; its <|end|> closes the reasoning message
    before the call, and stopping on it would cut every call off).
    """
    declared = _as_id_list(getattr(generation_config, "eos_token_id", None))
    ids: set[int] = set(_as_id_list(getattr(tokenizer, "eos_token_id", None))) | set(declared)
    text_config = model_config.get_text_config() if hasattr(model_config, "get_text_config") else model_config
    ids |= set(_as_id_list(getattr(text_config, "eos_token_id", None)))
    if len(declared) < 2:
        specials = special_tokens(tokenizer)
        ids |= {specials[t] for t in END_OF_TURN_TOKENS if t in specials}
    if not ids:
        raise BackendError("the checkpoint defines no end-of-sequence token; cannot tell where an answer ends")
    return sorted(ids)


def truncate_at_stop(token_ids: Sequence[int], stop_ids: Collection[int]) -> tuple[list[int], int | None]:
    """The ids before the first stop id, and that stop id (None if the row never stopped).

    Done on ids, before decoding: removing special tokens first would delete the stop token and glue
    whatever the model produced after it onto the answer.
    """
    for i, token_id in enumerate(token_ids):
        if token_id in stop_ids:
            return list(token_ids[:i]), int(token_id)
    return list(token_ids), None


# The tokenizer's own control tokens: they carry no answer content wherever a model emits them.
_CONTROL_ROLES = ("bos", "eos", "pad", "unk")


def control_token_ids(tokenizer: Any, stop_ids: Iterable[int], pad_id: int | None) -> dict[int, str]:
    """The ids that ``AnswerDecoder`` removes from an answer, mapped to their token strings (sorted by id).

    Exactly: every stop id, the padding id the backend fills with, and the tokenizer's bos, eos, pad and unk
    tokens. Nothing else: every other special or added token is a piece of the template's grammar that a
    grader may need (Mistral ``[TOOL_CALLS]``, Kimi's tool-call section tokens, harmony's ``<|channel|>``
    and ``<|message|>``, Llama 4's ``<|python_start|>``, DeepSeek's tool-call tokens, ``<think>``), and
    ``extract`` reads them as text. This is what serving engines do for tool requests (vLLM turns
    ``skip_special_tokens`` off whenever a tool parser needs the markers); removing all special tokens
    instead would leave ``get_weather{"city": "London"}``, which is no call.
    """
    ids = {int(i) for i in stop_ids}
    if pad_id is not None:
        ids.add(int(pad_id))
    for role in _CONTROL_ROLES:
        token_id = getattr(tokenizer, f"{role}_token_id", None)
        if isinstance(token_id, int) and token_id >= 0:
            ids.add(token_id)
    return {i: str(tokenizer.convert_ids_to_tokens(i)) for i in sorted(ids)}


class AnswerDecoder:
    """Generated token ids -> the answer text that is graded, by one rule (``control_token_ids``).

    ``finish(ids)`` cuts the row at its first stop id (on ids, see ``truncate_at_stop``), drops the control
    ids left before it (bos, pad, unk), and decodes the rest *with* its special tokens. A row without any
    special token decodes exactly as with ``skip_special_tokens=True``.
    """

    def __init__(self, tokenizer: Any, stop_ids: Iterable[int], pad_id: int | None) -> None:
        self.tokenizer = tokenizer
        self.stop_ids = frozenset(int(i) for i in stop_ids)
        self.stripped = control_token_ids(tokenizer, self.stop_ids, pad_id)

    def finish(self, generated: Sequence[int]) -> tuple[str, str, int, int | None]:
        """(text, finish_reason, completion_tokens, stop_id) for one row of generated ids: finish_reason is
        "stop" when a stop id was generated, else "length"; completion_tokens counts the ids before the stop."""
        kept, stop_id = truncate_at_stop(generated, self.stop_ids)
        return self.decode(kept), ("stop" if stop_id is not None else "length"), len(kept), stop_id

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids`` without the stripped control ids, every other special token kept verbatim."""
        return self.tokenizer.decode([i for i in ids if i not in self.stripped], skip_special_tokens=False)

    def provenance(self) -> dict:
        """What decoding removes, for the results file."""
        return {"stripped_token_ids": list(self.stripped), "stripped_tokens": list(self.stripped.values()),
                "special_tokens": "kept, except the stripped control tokens (stop, bos, eos, pad, unk)"}


def render_chat(tokenizer: Any, messages: Iterable[dict], tools: Sequence[dict] = (),
                tool_turns: bool = True) -> str:
    """The chat as the model's own template renders it, ending with the assistant turn's opening.

    ``tools`` (the native protocol's JSON schemas) go through the template's ``tools=`` argument; a template
    that never reads ``tools`` is refused (BackendError), never silently given a toolless prompt. ``tool``
    turns go to the template's own tool-result turn; with ``tool_turns=False`` (a template without one, see
    ``template_has_tool_turn``) each becomes a neutral user turn. ``enable_thinking=False`` is passed only
    to templates that read it (Qwen3-style): answers must be graded without a hidden reasoning block, and
    other templates would get an unknown variable.
    """
    template = _template_text(tokenizer.chat_template)
    kwargs: dict[str, Any] = {}
    if "enable_thinking" in template:
        kwargs["enable_thinking"] = False
    if tools:
        if "tools" not in template:
            raise BackendError("--protocol native: this model's chat template has no tool support (it never "
                               "reads `tools`), so tools cannot be passed the way the model was trained to "
                               "see them; run a text protocol instead (--protocol json,xml,plain)")
        kwargs["tools"] = [dict(t) for t in tools]
    chat = [dict(m) for m in messages] if tool_turns else tool_turns_as_user_turns(messages)
    return tokenizer.apply_chat_template(chat, add_generation_prompt=True, tokenize=False, **kwargs)


def tool_turns_as_user_turns(messages: Iterable[dict]) -> list[dict]:
    """``tool`` turns rewritten as neutral user turns ("Result of NAME: CONTENT"), for templates without a
    tool-result turn; consecutive turns of one role are then merged (strict templates require alternation)."""
    out: list[dict] = []
    for m in messages:
        if m["role"] == "tool":
            m = {"role": "user", "content": f"Result of {m.get('name', 'the tool')}: {m['content']}"}
        if out and out[-1]["role"] == m["role"] == "user":
            out[-1] = {"role": "user", "content": out[-1]["content"] + "\n\n" + m["content"]}
        else:
            out.append(dict(m))
    return out


_PROBE_RESULT = "tooluse1-probe-result-7Q2"


def _all_done(results: list[Completion | None]) -> list[Completion]:
    """The Completions of a generate call in which every request got one."""
    done = [r for r in results if r is not None]
    assert len(done) == len(results)
    return done


def template_has_tool_turn(tokenizer: Any) -> bool:
    """Whether the chat template renders a ``tool`` turn (answering an assistant call) with its content."""
    probe: list[dict[str, Any]] = [
        {"role": "user", "content": "Probe question."},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "calculator",
                                                              "arguments": {"expression": "1+1"}}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "calculator", "content": _PROBE_RESULT},
        {"role": "user", "content": "Probe follow-up."}]
    try:
        text = render_chat(tokenizer, probe)
    except Exception:   # jinja2 TemplateError or a template's raise_exception(): no tool turn
        return False
    return _PROBE_RESULT in text


def _template_text(template: Any) -> str:
    if template is None:
        return ""
    if isinstance(template, str):
        return template
    return json.dumps(template, sort_keys=True)   # named templates: {name: template}


def longest_first(lengths: Sequence[int]) -> list[int]:
    """Input indices ordered by length, longest first, ties by input position (a stable, repeatable order).

    Longest first puts the batch most likely to run out of memory at the start, and neighbours of similar
    length waste little on padding.
    """
    return sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))


def check_loading_info(info: dict, model_config: Any, path: str) -> None:
    """Refuse a checkpoint whose weights do not match the architecture its config names.

    transformers fills missing weights with random values and drops unexpected ones, with only a log
    warning; a benchmark run on such a model measures noise. The one tolerated case is a missing lm_head
    in a model with tied input/output embeddings, where the head *is* the embedding matrix.
    """
    text_config = model_config.get_text_config() if hasattr(model_config, "get_text_config") else model_config
    tied = bool(getattr(text_config, "tie_word_embeddings", False)
                or getattr(model_config, "tie_word_embeddings", False))
    missing = sorted((k for k in info.get("missing_keys", ()) if not (tied and k in _TIED_HEAD_KEYS)),
                     key=_natural_key)
    unexpected = sorted(info.get("unexpected_keys", ()), key=_natural_key)
    mismatched = sorted((f"{k[0]} (checkpoint {tuple(k[1])}, model {tuple(k[2])})" if isinstance(k, tuple)
                         else str(k) for k in info.get("mismatched_keys", ())), key=_natural_key)
    problems = []
    for label, keys in (("missing", missing), ("unexpected", unexpected), ("mismatched", mismatched)):
        if keys:
            shown = ", ".join(keys[:10]) + (f", ... ({len(keys)} in all)" if len(keys) > 10 else "")
            problems.append(f"{len(keys)} {label} key(s): {shown}")
    if problems:
        arch = ", ".join(getattr(model_config, "architectures", None) or [type(model_config).__name__])
        raise BackendError(f"--model {path}: the checkpoint's weights do not fit its architecture ({arch}); "
                           f"refusing to run a partly random model. " + "; ".join(problems))


def _natural_key(key: str) -> list:
    """Sort key putting layers.2 before layers.10, so the first keys shown are the first layers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


@contextlib.contextmanager
def _no_progress_bars() -> Iterator[None]:
    """Silence transformers' per-load progress bars, restoring the caller's setting afterwards."""
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


class TransformersBackend:
    """Greedy generation with a local checkpoint through ``model.generate`` (implements ``Backend``).

    ``batch_size`` rows are generated together (default: ``DEFAULT_FAST_SLOTS`` on the fast path,
    ``DEFAULT_BATCH_SIZE`` on the plain path); ``reference_batch1=True`` forces batch size 1 for a
    reference run (batched greedy output can differ from batch 1 in rare near-ties, see module doc).
    ``threads`` sets ``torch.set_num_threads`` (process-wide) when given.

    ``fast=True`` (what benchmark runs use via ``RunConfig.fast``, off with ``--no-fast``; the constructor's
    default stays the plain path): shared-prefix KV reuse and a refilled decode batch of ``batch_size`` rows
    (suffixes are prefilled ``prefill_rows`` at a time, default ``batch_size``). It is used only when the
    model supports it (full attention, sdpa/eager, see ``fast_decode.unsupported_reason``); otherwise the
    plain path runs and ``provenance()["fast_fallback"]`` says why. ``last_fast_stats`` holds the counters
    of the latest fast run.
    """

    name = "transformers"
    # Per-request caps in one call; continuous admission (fast path: rows join the running batch; plain path:
    # rounds); stop tests applied on the fast path.
    capabilities: ClassVar[Capabilities] = Capabilities(row_caps=True, continuous=True, stop_text=True)

    def __init__(self, resolved: ResolvedModel, dtype: str = "float32", device: str = "cpu",
                 batch_size: int | None = None, threads: int | None = None, reference_batch1: bool = False,
                 fast: bool = False, prefill_rows: int | None = None) -> None:
        if dtype not in _DTYPES:
            raise BackendError(f"--dtype {dtype}: expected one of {', '.join(_DTYPES)}")
        if batch_size is not None and batch_size < 1:
            raise BackendError(f"--batch-size {batch_size}: must be at least 1")
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise BackendError(f"--device {device}: torch sees no CUDA device on this machine")
        if threads is not None:
            torch.set_num_threads(threads)
        self.resolved = resolved
        self.dtype_name = dtype
        self.device = torch.device(device)
        self.reference_batch1 = reference_batch1
        self.threads = threads
        path = str(resolved.path)

        try:
            with _no_progress_bars():
                self.tokenizer = AutoTokenizer.from_pretrained(path)
                # ignore_mismatched_sizes makes transformers report shape mismatches instead of raising,
                # so the refusal below can name them with the other bad keys.
                loaded = AutoModelForCausalLM.from_pretrained(
                    path, dtype=_DTYPES[dtype], output_loading_info=True, ignore_mismatched_sizes=True)
                # With output_loading_info, (model, loading info): from_pretrained's annotation names the model
                # only. The model is Any: an auto class's model is whatever architecture the checkpoint names
                # (transformers types it as a private stand-in that mypy cannot call `to` or `generate` on).
                self.model: Any
                self.model, info = cast("tuple[Any, dict[str, Any]]", loaded)
        except (OSError, ValueError, RuntimeError, KeyError) as exc:
            raise BackendError(f"--model {path}: transformers could not load it: {exc}") from exc
        check_loading_info(info, self.model.config, path)
        self.model.to(self.device)
        self.model.eval()

        if not self.tokenizer.chat_template:
            raise BackendError(f"--model {path}: the tokenizer has no chat template, so chats cannot be "
                               f"rendered; use an instruction-tuned checkpoint")
        self.chat_template_sha256 = hashlib.sha256(
            _template_text(self.tokenizer.chat_template).encode("utf-8")).hexdigest()
        # How tool results in multi-step histories reach the model: the template's own tool turn, or (for a
        # template without one) a neutral user turn.
        self.tool_turn = "template" if template_has_tool_turn(self.tokenizer) else "user_turn"
        self.pad = choose_pad_token(self.tokenizer)
        self.stop_ids = collect_stop_ids(self.tokenizer, self.model.generation_config, self.model.config)
        self.decoder = AnswerDecoder(self.tokenizer, self.stop_ids, self.pad.token_id)
        # The checkpoint's generation_config.json may carry sampling defaults (Qwen ships temperature 0.7,
        # top_p 0.8, repetition_penalty 1.05). generate() fills every unset field from it, so greedy
        # decoding would silently get a repetition penalty; it is replaced by a neutral one and kept for
        # the record.
        self.checkpoint_generation_config = self.model.generation_config.to_diff_dict()
        self.model.generation_config = GenerationConfig(
            bos_token_id=self.model.generation_config.bos_token_id,
            eos_token_id=list(self.stop_ids), pad_token_id=self.pad.token_id)
        text_config = self.model.config.get_text_config()
        self.max_positions: int | None = getattr(text_config, "max_position_embeddings", None)

        self.fast_requested = bool(fast)
        self.fast_fallback: str | None = None
        if fast and reference_batch1:
            self.fast_fallback = "reference_batch1 runs the plain batch-1 path"
        elif fast:
            self.fast_fallback = unsupported_reason(self.model)
        self.fast = self.fast_requested and self.fast_fallback is None
        self.batch_size = 1 if reference_batch1 else \
            batch_size or (DEFAULT_FAST_SLOTS if self.fast else DEFAULT_BATCH_SIZE)
        if prefill_rows is not None and prefill_rows < 1:
            raise BackendError(f"prefill_rows {prefill_rows}: must be at least 1")
        self.prefill_rows = prefill_rows or self.batch_size
        self.last_fast_stats: FastStats | None = None

    # --- Backend protocol -----------------------------------------------------------------------------

    def generate(self, prompts: Sequence[Prompt], config: DecodingConfig,
                 on_complete: OnComplete | None = None) -> list[Completion]:
        """One Completion per prompt, in input order, each with at most ``config.max_new_tokens`` new tokens
        (``generate_requests``' guarantees). Greedy at temperature 0; at a temperature > 0 each prompt is
        sampled with its own seed (``Prompt.seed``, required then; BackendError without): on the fast path
        one ``torch.Generator`` per row (``fast_decode.RowSampler``, verified drafts off), so a row's text is
        a function of its prompt, its seed and the batch size, not of its neighbours (up to float rounding);
        on the plain path (``--no-fast``) one batch-1 ``generate(do_sample=True)`` per row after
        ``torch.manual_seed(seed)``, reproducible but not the fast path's tokens. Copies of one prompt (the
        samples of an item) share its prefill on the fast path. Each Completion records its seed."""
        requests = [Request(p, config.max_new_tokens) for p in prompts]
        if not config.do_sample:
            return self.generate_requests(requests, on_complete)
        unseeded = [p.item_id for p in prompts if p.seed is None]
        if unseeded:
            raise BackendError(f"sampling needs a seed per prompt; {unseeded[0]} has none")
        return self.generate_requests(requests, on_complete, sampling=config)

    def generate_requests(self, requests: Sequence[Request], on_complete: OnComplete | None = None,
                          sampling: DecodingConfig | None = None) -> list[Completion]:
        """One Completion per request, in input order; ``on_complete`` is called as each item (fast path) or
        batch (plain path) finishes.

        Guarantees: greedy decoding with at most ``request.max_new_tokens`` new tokens (the fast path decodes
        every cap in one run; the plain path runs one batched generate per distinct cap; ``stop_text`` is not
        applied here, see ``generate_continuous``); ``text`` holds the tokens before the first stop id, decoded
        with every special token but bos/eos/pad/unk (``AnswerDecoder``); ``finish_reason`` is "stop" when a
        stop id was generated, else "length"; ``completion_tokens`` counts the kept tokens (the stop excluded).
        ``latency_s`` is the item's share of the wall time of the work it was part of. A prompt that cannot fit
        the context window with its cap gets an "error" Completion. ``sampling`` (a config with temperature
        > 0, every prompt seeded): sampled instead of greedy, as ``generate`` says.
        """
        prompts = [r.prompt for r in requests]
        caps = [int(r.max_new_tokens) for r in requests]
        encoded = [self._encode(p) for p in prompts]
        results: list[Completion | None] = [None] * len(prompts)

        runnable: list[int] = []
        for i, ids in enumerate(encoded):
            error = self._overflow(prompts[i], ids, caps[i])
            if error is not None:
                results[i] = error
                if on_complete is not None:
                    on_complete(error)
            else:
                runnable.append(i)

        if self.fast:
            self._generate_fast(prompts, encoded, runnable, caps, results, on_complete, sampling)
            return _all_done(results)
        if sampling is not None:
            self._generate_plain_sampled(prompts, encoded, runnable, caps, results, on_complete, sampling)
            return _all_done(results)

        for cap in sorted({caps[i] for i in runnable}):
            same = [i for i in runnable if caps[i] == cap]
            order = [same[j] for j in longest_first([len(encoded[i]) for i in same])]
            gen_config = GenerationConfig(
                do_sample=False, num_beams=1, max_new_tokens=cap,
                eos_token_id=list(self.stop_ids), pad_token_id=self.pad.token_id)
            for start in range(0, len(order), self.batch_size):
                batch = order[start:start + self.batch_size]
                for i, completion in zip(batch, self._generate_batch([encoded[i] for i in batch],
                                                                     [prompts[i] for i in batch], gen_config)):
                    results[i] = completion
                    if on_complete is not None:
                        on_complete(completion)
        return _all_done(results)

    def generate_continuous(self, requests: Sequence[Request], on_complete: FollowUps) -> None:
        """Continuous admission: generate each request and call ``on_complete`` with its Completion as soon as
        it is done; the requests it returns are generated too, in the same running batch on the fast path
        (rows admitted as others finish), in further rounds on the plain path. Returns when nothing is left.
        Each completion has ``generate_requests``' guarantees; its text does not depend on what it was batched
        with (up to float rounding). A request's ``stop_text`` test of the row's text so far ends the row on
        the fast path (finish_reason "stop") as soon as it is true, its text is what was generated until
        then; the plain path ignores it (the cap bounds the row)."""
        if not self.fast:
            todo = list(requests)
            while todo:
                done, todo = self.generate_requests(todo), []
                for c in done:
                    todo += on_complete(c)
            return
        prompts: list[Prompt] = []
        encoded: list[list[int]] = []
        caps: list[int] = []
        tests: list[Callable[[str], bool] | None] = []     # each row's stop_text test, aligned with prompts
        queue: list[tuple[list[int], str, int]] = []

        def add(new: Sequence[Request]) -> None:
            todo = list(new)
            while todo:
                request = todo.pop(0)
                prompt, cap = request.prompt, request.max_new_tokens
                ids = self._encode(prompt)
                error = self._overflow(prompt, ids, cap)
                if error is not None:
                    todo += on_complete(error)
                    continue
                prompts.append(prompt)
                encoded.append(ids)
                caps.append(cap)
                tests.append(request.stop_text)
                queue.append((ids, prompt.shared_prefix_key, cap))

        def more() -> list[tuple[list[int], str, int]]:
            out = list(queue)
            queue.clear()
            return out

        def stop_when(index: int, generated: Sequence[int]) -> bool:
            test = tests[index]
            # one sequence of ids decodes to one string (decode's annotation also allows a batch's list)
            if test is None:
                return False
            return test(cast(str, self.tokenizer.decode(list(generated), skip_special_tokens=True)))

        def on_finish(row: FinishedRow) -> None:
            completion = self._fast_completion(prompts[row.index], encoded[row.index], row)
            if completion.finish_reason == "length" and len(row.generated) < caps[row.index]:
                completion.finish_reason = "stop"   # ended by its stop_text test, before the cap
            add(on_complete(completion))

        add(requests)
        first = more()
        decoder = FastGreedyDecoder(self.model, self.stop_ids, self.pad.token_id, slots=self.batch_size,
                                    prefill_rows=self.prefill_rows)
        self.last_fast_stats = decoder.run([r for r, _, _ in first], [k for _, k, _ in first],
                                           [c for _, _, c in first], on_finish, more=more,
                                           stop_when=stop_when)

    def _overflow(self, prompt: Prompt, ids: list[int], cap: int) -> Completion | None:
        """An "error" Completion when the prompt plus its cap exceeds the model's context, else None."""
        if self.max_positions is None or len(ids) + cap <= self.max_positions:
            return None
        return Completion(item_id=prompt.item_id, text="", finish_reason="error", prompt_tokens=len(ids),
                          error=f"prompt of {len(ids)} tokens + max_new_tokens {cap} exceeds the model's "
                                f"context of {self.max_positions} tokens")

    def provenance(self) -> dict:
        """Identity and settings of model and backend, for the results file."""
        tok = self.tokenizer
        return {
            "backend": self.name,
            "model_id": self.resolved.model_id,
            "revision": self.resolved.revision,
            "source": self.resolved.source,
            "path": str(self.resolved.path),
            "dtype": self.dtype_name,
            "loaded_dtype": str(self.model.dtype).removeprefix("torch."),
            "device": str(self.device),
            "batch_size": self.batch_size,
            "reference_batch1": self.reference_batch1,
            "threads": torch.get_num_threads(),
            "fast": self.fast,
            "fast_requested": self.fast_requested,
            "fast_fallback": self.fast_fallback,
            "prefill_rows": self.prefill_rows if self.fast else None,
            "padding": ("shared token prefix encoded once per prefix group; suffixes padded between prefix "
                        "and suffix; decode rows refilled as they finish; results in input order"
                        if self.fast else "left, per batch; requests sorted longest-first, results in input order"),
            "chat_template_sha256": self.chat_template_sha256,
            "tool_result_turn": self.tool_turn,
            "eos_token": tok.eos_token,
            "eos_token_id": tok.eos_token_id,
            "pad_token": self.pad.token,
            "pad_token_id": self.pad.token_id,
            "pad_token_source": self.pad.source,
            "stop_token_ids": list(self.stop_ids),
            "stop_tokens": tok.convert_ids_to_tokens(list(self.stop_ids)),
            **self.decoder.provenance(),
            "checkpoint_generation_config": self.checkpoint_generation_config,
            "num_parameters": self.model.num_parameters(),
            "torch_version": torch.__version__,
            "transformers_version": transformers.__version__,
        }

    def close(self) -> None:
        """Drop the model so its memory can be reclaimed; the backend is unusable afterwards."""
        self.model = None
        gc.collect()

    # --- internals --------------------------------------------------------------------------------------

    def _encode(self, prompt: Prompt) -> list[int]:
        text = render_chat(self.tokenizer, prompt.messages, prompt.tools, tool_turns=self.tool_turn == "template")
        # The template already wrote any BOS it wants; letting the tokenizer add special tokens would
        # double it for Llama-style templates.
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def finish_row(self, generated: Sequence[int]) -> tuple[str, str, int, int | None]:
        """(text, finish_reason, completion_tokens, stop_id) for one row of generated ids (``AnswerDecoder``)."""
        return self.decoder.finish(generated)

    def _fast_completion(self, prompt: Prompt, ids: list[int], row: FinishedRow) -> Completion:
        text, reason, n_tokens, stop_id = self.finish_row(row.generated)
        return Completion(item_id=prompt.item_id, text=text, finish_reason=reason, latency_s=row.cost_s,
                          prompt_tokens=len(ids), completion_tokens=n_tokens, seed=prompt.seed,
                          extra={"stop_token_id": stop_id, "batch_rows": self.batch_size,
                                 "shared_prefix_tokens": row.shared_len, "suffix_tokens": row.own_len})

    def _generate_fast(self, prompts: Sequence[Prompt], encoded: list[list[int]], runnable: list[int],
                       caps: list[int], results: list[Completion | None], on_complete: OnComplete | None,
                       sampling: DecodingConfig | None = None) -> None:
        """The fast path (module doc of ``fast_decode``): fills ``results[i]`` for every runnable i, calling
        ``on_complete`` as each item finishes. ``latency_s`` is the item's share of the wall time (its
        group's prefix prefill split over the group, its chunk's prefill split over the chunk, each decode
        step split over the rows in it), so the latencies of a run add up to its generation time. With
        ``sampling``, decoder row k draws with a generator seeded by ``prompts[runnable[k]].seed``."""
        sampler = None
        if sampling is not None:
            seeds = [prompts[i].seed for i in runnable]
            sampler = RowSampler(sampling.temperature, sampling.top_p, lambda k: int(cast(int, seeds[k])))
        decoder = FastGreedyDecoder(self.model, self.stop_ids, self.pad.token_id, slots=self.batch_size,
                                    prefill_rows=self.prefill_rows, sampler=sampler)

        def on_finish(row: FinishedRow) -> None:
            i = runnable[row.index]
            completion = self._fast_completion(prompts[i], encoded[i], row)
            results[i] = completion
            if on_complete is not None:
                on_complete(completion)

        self.last_fast_stats = decoder.run([encoded[i] for i in runnable],
                                           [prompts[i].shared_prefix_key for i in runnable],
                                           [caps[i] for i in runnable], on_finish)

    def _generate_plain_sampled(self, prompts: Sequence[Prompt], encoded: list[list[int]], runnable: list[int],
                                caps: list[int], results: list[Completion | None], on_complete: OnComplete | None,
                                sampling: DecodingConfig) -> None:
        """The plain path's sampling: each runnable prompt alone (batch 1, so no neighbour can change it),
        ``torch.manual_seed(prompt.seed)`` then ``generate(do_sample=True, temperature, top_p)``."""
        for i in runnable:
            gen_config = GenerationConfig(
                do_sample=True, temperature=sampling.temperature, top_p=sampling.top_p, top_k=0, num_beams=1,
                max_new_tokens=caps[i], eos_token_id=list(self.stop_ids), pad_token_id=self.pad.token_id)
            torch.manual_seed(int(cast(int, prompts[i].seed)))
            [completion] = self._generate_batch([encoded[i]], [prompts[i]], gen_config)
            completion.seed = prompts[i].seed
            results[i] = completion
            if on_complete is not None:
                on_complete(completion)

    def _generate_batch(self, rows: list[list[int]], prompts: list[Prompt],
                        gen_config: GenerationConfig) -> list[Completion]:
        width = max(len(r) for r in rows)
        # Left padding, only to this batch's longest row: the next token of every row then sits in the
        # last column, and short batches do not pay for long prompts elsewhere in the run.
        input_ids = torch.tensor([[self.pad.token_id] * (width - len(r)) + r for r in rows],
                                 dtype=torch.long, device=self.device)
        attention_mask = torch.tensor([[0] * (width - len(r)) + [1] * len(r) for r in rows],
                                      dtype=torch.long, device=self.device)
        started = time.perf_counter()
        with torch.inference_mode():
            output = self.model.generate(input_ids=input_ids, attention_mask=attention_mask,
                                         generation_config=gen_config)
        per_row = (time.perf_counter() - started) / len(rows)
        completions = []
        for row, prompt, generated in zip(rows, prompts, output[:, width:].tolist()):
            text, reason, n_tokens, stop_id = self.finish_row(generated)
            completions.append(Completion(
                item_id=prompt.item_id, text=text, finish_reason=reason, latency_s=per_row,
                prompt_tokens=len(row), completion_tokens=n_tokens,
                extra={"stop_token_id": stop_id, "batch_rows": len(rows)}))
        return completions
