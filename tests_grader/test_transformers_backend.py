"""TransformersBackend against the real SmolLM2-135M checkpoint (converted once into the default cache).

Kept fast on 2 CPU cores: a handful of short chats, at most 16 new tokens. One torch thread: these
machines are shared (and pytest-xdist runs workers side by side), and an oversubscribed OpenMP pool
is several times slower than a single thread.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from tooluse1.backends.base import BackendError, Completion, DecodingConfig
from tooluse1.backends.transformers_backend import (
    AnswerDecoder, TransformersBackend, check_loading_info, choose_pad_token, collect_stop_ids, control_token_ids,
    longest_first, render_chat, truncate_at_stop)
from tooluse1.models import ResolvedModel, resolve_model
from tooluse1.parse import extract
from tooluse1.prompts import Prompt

# Deliberately not sorted by length, so that restoring input order is actually exercised.
QUESTIONS = [
    "Hi!",
    "Please list three colours of the rainbow, one per line, and nothing else at all.",
    "What is 2 plus 2?",
    "Name a large city in Europe and say in one short sentence why people like to visit it.",
    "What is the capital of France?",
]
CAPITAL = 4   # index of the question every test run answers briefly ("...is Paris.") and then ends its turn


def _prompt(i: int, text: str, system: str | None = None) -> Prompt:
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]
    return Prompt(item_id=f"item-{i}-json", case_id=f"item-{i}", protocol="json", messages=tuple(messages))


PROMPTS = [_prompt(i, q) for i, q in enumerate(QUESTIONS)]


@pytest.fixture(scope="session")
def small_model() -> ResolvedModel:
    return resolve_model("smollm2")


@pytest.fixture(scope="session")
def backend(small_model) -> TransformersBackend:
    return TransformersBackend(small_model, dtype="float32", batch_size=4, threads=1)


@pytest.fixture(scope="session")
def batched(backend) -> list[Completion]:
    """The five prompts at batch 4 (a batch of four, then one), 16 new tokens."""
    return backend.generate(PROMPTS, DecodingConfig(max_new_tokens=16))


@pytest.fixture(scope="session")
def reference(small_model) -> list[Completion]:
    ref = TransformersBackend(small_model, batch_size=8, threads=1, reference_batch1=True)
    assert ref.batch_size == 1 and ref.provenance()["reference_batch1"] is True
    return ref.generate(PROMPTS, DecodingConfig(max_new_tokens=16))


def _token_len(backend: TransformersBackend, prompt: Prompt) -> int:
    return len(backend.tokenizer.apply_chat_template(list(prompt.messages), add_generation_prompt=True,
                                                     tokenize=True, return_dict=True)["input_ids"])


# --- ordering, batching, determinism ------------------------------------------------------------------------

def test_batched_outputs_come_back_in_input_order(backend, batched, reference):
    assert [c.item_id for c in batched] == [p.item_id for p in PROMPTS]
    lengths = [_token_len(backend, p) for p in PROMPTS]
    assert longest_first(lengths) != list(range(len(PROMPTS)))        # the batch order really differs
    assert [c.prompt_tokens for c in batched] == lengths               # each row kept its own prompt
    assert len({c.text for c in batched}) == len(PROMPTS)
    # Same texts as one-at-a-time decoding. Batched greedy can in principle flip a near-tie (module doc);
    # for these five short fp32 prompts it does not, so a mismatch here means rows were mixed up.
    assert [c.text for c in batched] == [c.text for c in reference]
    assert [c.extra["batch_rows"] for c in batched].count(4) == 4


def test_on_complete_is_called_once_per_item_as_batches_finish(backend):
    seen: list[Completion] = []
    out = backend.generate(PROMPTS, DecodingConfig(max_new_tokens=2), on_complete=seen.append)
    assert sorted(c.item_id for c in seen) == sorted(p.item_id for p in PROMPTS)
    assert {id(c) for c in seen} == {id(c) for c in out}
    # Completion order is batch order (longest prompts first), not input order.
    lengths = [c.prompt_tokens for c in seen]
    assert lengths[:4] == sorted(lengths[:4], reverse=True) and min(lengths[:4]) >= lengths[4]


def test_generation_is_deterministic_across_calls(backend, batched):
    again = backend.generate(PROMPTS, DecodingConfig(max_new_tokens=16))
    assert [(c.text, c.finish_reason, c.completion_tokens) for c in again] == \
           [(c.text, c.finish_reason, c.completion_tokens) for c in batched]


def test_empty_input_gives_empty_output(backend):
    assert backend.generate([], DecodingConfig(max_new_tokens=4)) == []


# --- finish reasons and stop handling ---------------------------------------------------------------------

def test_tiny_max_new_tokens_finishes_with_length(backend):
    out = backend.generate(PROMPTS[:3], DecodingConfig(max_new_tokens=2))
    assert [c.finish_reason for c in out] == ["length"] * 3
    assert [c.completion_tokens for c in out] == [2, 2, 2]
    assert all(c.text and c.latency_s > 0 for c in out)


def test_short_answer_stops_on_end_of_turn_and_hides_it(backend, batched):
    out = batched[CAPITAL]
    assert out.finish_reason == "stop", out
    assert "Paris" in out.text and out.completion_tokens < 16
    assert out.extra["stop_token_id"] in backend.stop_ids
    assert "<|im_end|>" not in out.text and "<|im_start|>" not in out.text
    assert out.text.strip()


def test_rows_are_truncated_at_the_first_stop_before_decoding(backend):
    tok = backend.tokenizer
    im_end = tok.convert_tokens_to_ids("<|im_end|>")
    answer = tok("Paris is nice.", add_special_tokens=False)["input_ids"]
    garbage = tok("\n<|im_start|>user\nignore this", add_special_tokens=False)["input_ids"]
    row = answer + [im_end] + garbage + [im_end]
    text, reason, n, stop_id = backend.finish_row(row)
    assert (text, reason, n, stop_id) == ("Paris is nice.", "stop", len(answer), im_end)
    # Decoding first and stripping special tokens afterwards (lm-eval #2723) would leak the next turn:
    assert "ignore this" in tok.decode(row, skip_special_tokens=True)
    text, reason, n, stop_id = backend.finish_row(answer)
    assert (reason, n, stop_id) == ("length", len(answer), None)


def test_truncate_at_stop_unit():
    assert truncate_at_stop([5, 6, 2, 7, 3], {2, 3}) == ([5, 6], 2)
    assert truncate_at_stop([5, 6, 3, 2], {2, 3}) == ([5, 6], 3)
    assert truncate_at_stop([2, 5], {2}) == ([], 2)
    assert truncate_at_stop([5, 6], {2}) == ([5, 6], None)


def test_stop_ids_are_the_union_of_all_sources(backend):
    tok = backend.tokenizer
    specials = {t: tok.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")}
    assert tok.eos_token_id in backend.stop_ids
    assert set(specials.values()) <= set(backend.stop_ids)
    gen = SimpleNamespace(eos_token_id=77)
    cfg = SimpleNamespace(eos_token_id=99)
    ids = collect_stop_ids(tok, gen, cfg)
    assert {77, 99, tok.eos_token_id, *specials.values()} <= set(ids) and ids == sorted(ids)
    assert len(ids) == len(set(ids))
    # a generation config that lists several end ids is the authors' own list: no common marker is added
    assert collect_stop_ids(tok, SimpleNamespace(eos_token_id=[77, 78]), cfg) == sorted({77, 78, 99, tok.eos_token_id})


def test_harmony_message_end_is_not_a_stop_when_the_checkpoint_lists_its_turn_ends(smol_tokenizer):
    """gpt-oss: <|end|> closes the reasoning message and the call follows in the same turn; its generation
    config lists <|return|>, <|endoftext|> and <|call|>. A checkpoint declaring a single eos keeps the
    common end-of-turn markers (Phi-3 ends turns in <|end|>)."""
    tok = copy.deepcopy(smol_tokenizer)
    tok.add_special_tokens({"eos_token": "<|return|>", "pad_token": "<|endoftext|>"})
    tok.add_tokens(["<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>"],
                   special_tokens=True)
    ret, end, call, eot = tok.convert_tokens_to_ids(["<|return|>", "<|end|>", "<|call|>", "<|endoftext|>"])
    stops = collect_stop_ids(tok, SimpleNamespace(eos_token_id=[ret, eot, call]), SimpleNamespace(eos_token_id=ret))
    assert end not in stops and {ret, eot, call} <= set(stops)
    answer = ("<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary "
              'to=functions.get_weather <|constrain|>json<|message|>{"city": "London"}')
    text, reason, _, stop_id = AnswerDecoder(tok, stops, eot).finish(
        tok(answer, add_special_tokens=False)["input_ids"] + [call])
    assert (text, reason, stop_id) == (answer, "stop", call)
    assert [c.name for c in extract(text, "native").calls] == ["get_weather"]
    phi3_like = collect_stop_ids(tok, SimpleNamespace(eos_token_id=eot), SimpleNamespace(eos_token_id=eot))
    assert end in phi3_like


# --- pad fallback ------------------------------------------------------------------------------------------

def test_pad_fallback_order_never_overwrites_a_real_pad(backend):
    tok = copy.deepcopy(backend.tokenizer)
    tok.pad_token = "<|im_start|>"                       # a real pad token is kept as is
    assert choose_pad_token(tok).source == "pad" and choose_pad_token(tok).token == "<|im_start|>"
    assert tok.pad_token == "<|im_start|>"

    tok.pad_token = None                                 # no pad: unk
    assert tok.unk_token is not None
    choice = choose_pad_token(tok)
    assert (choice.source, choice.token, choice.token_id) == ("unk", tok.unk_token, tok.unk_token_id)
    assert tok.pad_token is None                         # the tokenizer itself is not modified

    tok.unk_token = None                                 # no pad, no unk: eos
    choice = choose_pad_token(tok)
    assert (choice.source, choice.token, choice.token_id) == ("eos", tok.eos_token, tok.eos_token_id)

    tok.eos_token = None
    with pytest.raises(BackendError, match="no pad, unk or eos"):
        choose_pad_token(tok)


def test_backend_keeps_the_checkpoints_pad_token(backend, small_model):
    from transformers import AutoTokenizer

    fresh = AutoTokenizer.from_pretrained(small_model.path)
    assert fresh.pad_token is not None
    assert backend.tokenizer.pad_token == fresh.pad_token
    assert backend.pad.source == "pad" and backend.pad.token_id == fresh.pad_token_id


# --- chat template ------------------------------------------------------------------------------------------

def test_enable_thinking_is_passed_only_to_templates_that_use_it(backend):
    tok = copy.deepcopy(backend.tokenizer)
    messages = [{"role": "user", "content": "hi"}]
    tok.chat_template = ("{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
                         "{% if enable_thinking is defined and not enable_thinking %}<no-think>{% endif %}")
    assert render_chat(tok, messages).endswith("<no-think>")
    plain = render_chat(backend.tokenizer, messages)
    assert plain.endswith("<|im_start|>assistant\n") and "hi" in plain


def test_greedy_config_ignores_checkpoint_sampling_defaults(backend):
    gc = backend.model.generation_config
    assert gc.repetition_penalty in (None, 1.0) and gc.temperature in (None, 1.0) and not gc.do_sample
    # sampling is asked for explicitly and seeded per prompt (issue 35); a sampled config on prompts that carry
    # no seed is refused rather than drawn from the global generator
    with pytest.raises(BackendError, match="sampling needs a seed per prompt"):
        backend.generate(PROMPTS[:1], DecodingConfig(max_new_tokens=2, temperature=0.7))


def test_provenance_records_identity_and_settings(backend, small_model):
    prov = backend.provenance()
    json.dumps(prov)                                     # must be JSON-serialisable as is
    assert prov["model_id"] == small_model.model_id and prov["revision"] == small_model.revision
    assert prov["chat_template_sha256"] == hashlib.sha256(backend.tokenizer.chat_template.encode()).hexdigest()
    assert prov["batch_size"] == 4 and prov["dtype"] == "float32" and prov["device"] == "cpu"
    assert prov["stop_token_ids"] == backend.stop_ids and "<|im_end|>" in prov["stop_tokens"]
    # decoding strips exactly SmolLM2's bos (<|im_start|>), eos/pad (<|im_end|>) and unk (<|endoftext|>)
    assert prov["stripped_tokens"] == ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    assert prov["stripped_token_ids"] == [0, 1, 2]
    assert prov["pad_token"] == backend.tokenizer.pad_token and prov["pad_token_source"] == "pad"
    assert 100_000_000 < prov["num_parameters"] < 200_000_000
    for key in ("torch_version", "transformers_version", "eos_token", "eos_token_id", "path"):
        assert prov[key]


def test_context_overflow_is_an_error_completion_not_a_crash(backend, monkeypatch):
    monkeypatch.setattr(backend, "max_positions", 40)
    long_prompt = _prompt(9, "word " * 60)
    seen = []
    out = backend.generate([long_prompt, PROMPTS[0]], DecodingConfig(max_new_tokens=2), on_complete=seen.append)
    assert out[0].finish_reason == "error" and "exceeds the model's context of 40" in out[0].error
    assert out[1].finish_reason == "length" and len(seen) == 2


# --- load check ---------------------------------------------------------------------------------------------

def test_checkpoint_loaded_as_the_wrong_architecture_is_refused(small_model, tmp_path):
    """The Llama-architecture SmolLM2 weights declared as Qwen2 (which has q/k/v biases): missing keys."""
    bad = tmp_path / "smol-as-qwen2"
    bad.mkdir()
    for f in small_model.path.iterdir():
        if f.is_file() and f.name != "config.json":
            os.symlink(f, bad / f.name)               # reuse the 540 MB of weights without copying
    config = json.loads((small_model.path / "config.json").read_text())
    config.update(architectures=["Qwen2ForCausalLM"], model_type="qwen2")
    (bad / "config.json").write_text(json.dumps(config))

    with pytest.raises(BackendError) as err:
        TransformersBackend(ResolvedModel(bad, "bad", "x", "test"), threads=1)
    msg = str(err.value)
    assert "Qwen2ForCausalLM" in msg and "missing key(s)" in msg
    assert "model.layers.0.self_attn.q_proj.bias" in msg and "k_proj.bias" in msg
    assert "in all)" in msg                           # 30 layers x 3 biases: the list is capped


def test_check_loading_info_tolerates_only_a_tied_lm_head():
    tied = SimpleNamespace(tie_word_embeddings=True, architectures=["X"])
    untied = SimpleNamespace(tie_word_embeddings=False, architectures=["X"])
    empty = {"unexpected_keys": set(), "mismatched_keys": set()}
    check_loading_info({"missing_keys": {"lm_head.weight"}, **empty}, tied, "p")
    with pytest.raises(BackendError, match="lm_head.weight"):
        check_loading_info({"missing_keys": {"lm_head.weight"}, **empty}, untied, "p")
    with pytest.raises(BackendError, match=r"1 unexpected key\(s\): extra.weight"):
        check_loading_info({"missing_keys": set(), "unexpected_keys": {"extra.weight"},
                            "mismatched_keys": set()}, tied, "p")
    with pytest.raises(BackendError, match=r"mismatched key\(s\): a.weight \(checkpoint \(2, 3\), model \(3, 2\)\)"):
        check_loading_info({"missing_keys": set(), "unexpected_keys": set(),
                            "mismatched_keys": {("a.weight", (2, 3), (3, 2))}}, tied, "p")


def test_bad_settings_are_clear_errors(small_model):
    with pytest.raises(BackendError, match="--dtype float8"):
        TransformersBackend(small_model, dtype="float8")
    with pytest.raises(BackendError, match="--batch-size 0"):
        TransformersBackend(small_model, batch_size=0)


# --- decoding keeps the tool-call grammar ------------------------------------------------------------------
# Many chat formats write their tool-call markers as special tokens. Decoding with every special token
# skipped turned `[TOOL_CALLS]get_weather[ARGS]{...}` into `get_weather{...}`, which is no call.

@pytest.fixture(scope="module")
def smol_tokenizer(small_model):
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(small_model.path)


@dataclass(frozen=True)
class Family:
    """A tokenizer family mimicked on SmolLM2's vocabulary: its control tokens (bos/eos/pad, None = keep
    SmolLM2's), the grammar tokens added as special tokens, one answer, and what ends that answer."""

    name: str
    controls: dict
    grammar: tuple[str, ...]
    answer: str
    stop: str                        # the token generated right after the answer
    extra_stops: tuple[str, ...] = ()
    parsed: bool = True              # whether today's extractor reads the answer as get_weather(London)


FAMILIES = [
    Family("mistral", {"bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>"}, ("[TOOL_CALLS]", "[ARGS]"),
           '[TOOL_CALLS]get_weather[ARGS]{"city": "London"}', "</s>"),
    Family("mistral-v3", {"bos_token": "<s>", "eos_token": "</s>"}, ("[TOOL_CALLS]",),
           '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "London"}}]', "</s>"),
    Family("kimi-k2", {"eos_token": "<|im_end|>", "pad_token": "[PAD]"},
           ("<|tool_calls_section_begin|>", "<|tool_call_begin|>", "<|tool_call_argument_begin|>",
            "<|tool_call_end|>", "<|tool_calls_section_end|>"),
           '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>'
           '{"city": "London"}<|tool_call_end|><|tool_calls_section_end|>', "<|im_end|>"),
    # gpt-oss: the analysis message ends in <|end|> inside the turn; a call ends the turn with <|call|>.
    Family("harmony", {"bos_token": "<|startoftext|>", "eos_token": "<|return|>", "pad_token": "<|endoftext|>"},
           ("<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>"),
           "<|channel|>analysis<|message|>The user wants the weather in London.<|end|><|start|>assistant"
           '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "London"}',
           "<|call|>", extra_stops=("<|call|>",)),
    Family("llama4", {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot|>", "pad_token": "<|finetune_right_pad|>"},
           ("<|python_start|>", "<|python_end|>", "<|eom|>"),
           'Let me check.\n<|python_start|>[get_weather(city="London")]<|python_end|>', "<|eom|>",
           extra_stops=("<|eom|>",)),
    Family("llama4-inline", {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot|>"},
           ("<|python_start|>", "<|python_end|>"),
           'Let me check. <|python_start|>[get_weather(city="London")]<|python_end|>', "<|eot|>", parsed=False),
    Family("llama3.1", {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}, ("<|python_tag|>", "<|eom_id|>"),
           '<|python_tag|>{"name": "get_weather", "parameters": {"city": "London"}}', "<|eom_id|>",
           extra_stops=("<|eom_id|>",)),
    Family("deepseek-v3.1", {"bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>"},
           ("<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>",
            "<｜tool▁calls▁end｜>"),
           '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "London"}'
           "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "<｜end▁of▁sentence｜>"),
    Family("deepseek-dsml", {"bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>"},
           ("｜DSML｜",),
           '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" '
           'string="true">London</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
           "<｜end▁of▁sentence｜>", parsed=False),
    Family("qwen-special", {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>"}, ("<tool_call>", "</tool_call>"),
           '<tool_call>\n{"name": "get_weather", "arguments": {"city": "London"}}\n</tool_call>', "<|im_end|>"),
]


def _family_tokenizer(base, family: Family):
    tok = copy.deepcopy(base)
    tok.add_special_tokens(family.controls)
    tok.add_tokens(list(family.grammar), special_tokens=True)
    return tok


def _ids(tok, text: str) -> list[int]:
    return tok(text, add_special_tokens=False)["input_ids"]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_decoding_keeps_each_familys_call_markers_and_strips_control_tokens(smol_tokenizer, family):
    tok = _family_tokenizer(smol_tokenizer, family)
    assert tok.pad_token_id != tok.eos_token_id
    assert all(tok.added_tokens_decoder[tok.convert_tokens_to_ids(t)].special for t in family.grammar)
    stops = [tok.eos_token_id, *tok.convert_tokens_to_ids(list(family.extra_stops))]
    decoder = AnswerDecoder(tok, stops, tok.pad_token_id)
    answer = _ids(tok, family.answer)
    # a stray bos and pad before the answer; after its stop, a leaked next turn that repeats the markers
    row = [tok.bos_token_id, tok.pad_token_id] + answer + [tok.convert_tokens_to_ids(family.stop)] + \
        _ids(tok, "\nuser\n" + family.answer) + [tok.eos_token_id]
    text, reason, n_tokens, stop_id = decoder.finish(row)
    assert text == family.answer, family.name
    assert (reason, n_tokens, stop_id) == ("stop", len(answer) + 2, tok.convert_tokens_to_ids(family.stop))
    assert set(decoder.stripped) == {tok.bos_token_id, tok.eos_token_id, tok.pad_token_id, tok.unk_token_id,
                                     *stops}
    # the old decode lost every marker (what the grader used to see)
    skipped = tok.decode(answer, skip_special_tokens=True)
    assert not any(marker in skipped for marker in family.grammar)
    if family.parsed:
        ex = extract(text, "native")
        assert [(c.name, c.arguments) for c in ex.calls] == [("get_weather", {"city": "London"})], ex


def test_thinking_special_tokens_survive_so_the_reasoning_is_not_graded_as_the_answer(smol_tokenizer):
    tok = copy.deepcopy(smol_tokenizer)
    tok.add_tokens(["<think>", "</think>"], special_tokens=True)
    answer = "<think>Пользователь просто здоровается.</think>Здравствуйте! Чем могу помочь?"
    text = AnswerDecoder(tok, [tok.eos_token_id], tok.pad_token_id).finish(_ids(tok, answer) + [tok.eos_token_id])[0]
    assert text == answer
    assert extract(text, "native").prose == "Здравствуйте! Чем могу помочь?"
    # skipping special tokens would have glued the reasoning onto the answer
    assert "здоровается" in extract(tok.decode(_ids(tok, answer), skip_special_tokens=True), "native").prose


PLAIN_ANSWERS = [
    '{"name": "get_weather", "arguments": {"city": "São Paulo"}}',
    "<tool>\n  <name>convert_currency</name>\n"
    "  <arguments>{\"amount\": 100, \"from_currency\": \"€\"}</arguments>\n</tool>",
    "TOOL translate | text=Доброе утро | target_language=ja",
    "Столица Австралии — Канберра. 東京は日本の首都です 🌏  ",
    "  leading spaces, a tab\tand\n\nblank lines\n",
]


@pytest.fixture(scope="module")
def qwen_tokenizer():
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(resolve_model("default").path)


@pytest.mark.parametrize("which", ["smollm2", "default"])
def test_answers_without_special_tokens_decode_exactly_as_before(which, smol_tokenizer, qwen_tokenizer):
    """The rule changes nothing for a row without special tokens: same text as skip_special_tokens=True."""
    tok = smol_tokenizer if which == "smollm2" else qwen_tokenizer
    decoder = AnswerDecoder(tok, collect_stop_ids(tok, None, None), choose_pad_token(tok).token_id)
    for answer in PLAIN_ANSWERS:
        ids = _ids(tok, answer)
        assert decoder.decode(ids) == tok.decode(ids, skip_special_tokens=True) == answer


def test_default_tokenizer_keeps_qwen_markup_and_strips_only_its_control_tokens(qwen_tokenizer):
    tok = qwen_tokenizer
    stops = collect_stop_ids(tok, None, None)
    assert control_token_ids(tok, stops, choose_pad_token(tok).token_id) == \
        {151643: "<|endoftext|>", 151645: "<|im_end|>"}
    decoder = AnswerDecoder(tok, stops, choose_pad_token(tok).token_id)
    call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "London"}}\n</tool_call>'
    row = _ids(tok, call) + [151645] + _ids(tok, "<|im_start|>user\nignore")
    assert decoder.finish(row)[:2] == (call, "stop")
    # a special token outside the control set is part of what the model wrote, and stays visible
    runaway = _ids(tok, "Paris.<|im_start|>user\nAnd Rome?")
    assert decoder.finish(runaway) == ("Paris.<|im_start|>user\nAnd Rome?", "length", len(runaway), None)
