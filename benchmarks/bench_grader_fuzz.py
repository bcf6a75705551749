"""Grader robustness and speed: grade many random and hostile model outputs and time each one.

Generates --n outputs of at most 16 KB (seeded, so the same outputs every run) and grades each through
the public `tooluse1.grade.grade(case, output, protocol)` against a case of the real corpus
(`tooluse1.corpus.load_corpus()`) in a random protocol (json, xml, plain, native). The mix: realistic calls
in every format real models use (with prose, thinking, examples, Russian and English text, two calls in two
formats, broken and truncated calls), realistic text answers, random Unicode (lone surrogates and NUL
included), soups of call-format fragments, deep nesting, runs of one opener and huge numbers, and text
answers of seven kinds (clarifying questions, refusals, knowledge, chit-chat, repeats and quotes with
drafts and example calls, invented results and pretended look-ups, answers written as JSON or agent
objects; EN and RU, 100 characters to 16 KB) graded against cases of their kind, so every answer check
runs. Then grades 1 MB outputs: the extraction kinds against a call case, and each text kind (plus hostile
texts: one word, negations, colons, quotes) against a case of its kind.

Reports exceptions (the contract: none), the latency per output (CPU time of the grading thread, robust on a
shared machine; wall-clock alongside) as p50/p99/max per kind and overall, and the time of each 1 MB output
(the best of --mb-rounds rounds over all of them, each round cold for the answer checks' caches). The 20
slowest outputs are graded again (best of 3): a single slow run that does not repeat is the machine, not the
grader, and the max target is checked on the re-timed figure (both are printed). The workload is generated
first; one output of each kind is graded against each kind of case before timing (the warm-up: what the grader
loads on first use, lemminflect's and num2words' tables, say, is loaded then, and its time is printed apart); then
the workload and what the warm-up loaded are frozen out of the garbage collector (gc.freeze), so full collections
that walk the benchmark's own 100,000 strings, or tables loaded once per process, do not land in a grade() call.
Targets: 0 exceptions; for outputs up to 16 KB p99 < 2 ms and max < 20 ms; each 1 MB output < 100 ms (SPEC §3.1).
Runs in one process pinned to one core, like benchmarks/bench_grading.py. `--noisy-neighbour` keeps another core
copying 32 MB arrays meanwhile (a neighbour's cache and memory traffic): harsher than the targets' condition.

    .venv/bin/python benchmarks/bench_grader_fuzz.py [--n 100000] [--seed 20261201] [--passes 1] [--mb-rounds 1]
        [--no-time-gate] [--noisy-neighbour]

Exit status 1 on any exception, or (unless --no-time-gate) when a time target is missed.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tooluse1.corpus import Case, load_corpus  # noqa: E402
from tooluse1.grade import grade  # noqa: E402
from tooluse1.lang import load as load_language_data  # noqa: E402
from tooluse1.prompts import format_call  # noqa: E402
from tooluse1.tools import Call  # noqa: E402
from tooluse1.types import ALL_PROTOCOLS as PROTOCOLS  # noqa: E402

MAX_CHARS = 16_384
MB = 1_000_000
TARGET_P99_MS, TARGET_MAX_MS, TARGET_MB_MS = 2.0, 20.0, 100.0

PROSE_EN = ["Sure, let me check that for you.", "One moment, please.", "Here is what I found.",
            "I'll look that up.", "The capital of Australia is Canberra.", "That's a great question!",
            "I can't browse the web, but I can help with calculations.", "Let me know if you need anything else."]
PROSE_RU = ["Конечно, сейчас проверю.", "Одну минуту.", "Вот что я нашёл.", "Столица Австралии — Канберра.",
            "Я не могу выходить в интернет, но могу посчитать.", "Уточните, пожалуйста, город?",
            "Сейчас узнаю погоду.", "Если нужно что-то ещё, скажите."]
THINKING = [("<think>", "</think>"), ("<thinking>", "</thinking>"), ("[THINK]", "[/THINK]"), ("◁think▷", "◁/think▷"),
            ("<|START_THINKING|>", "<|END_THINKING|>"), ("<seed:think>", "</seed:think>"),
            ("<|channel|>analysis<|message|>", "<|end|><|start|>assistant<|channel|>final<|message|>"),
            ("analysis", "assistantfinal"), ("", "</think>")]
EXAMPLE_LEADS = ["For example:", "A call would look like this:", "Usage:", "You would call it like this:",
                 "Например:", "Пример вызова:", "Hypothetically, I'd use:", "Вызов выглядел бы так:"]
FRAGMENTS = ["{", "}", "[", "]", "(", ")", '"', "'", ":", ",", "\n", " ", "\\", "|", "=", "`", "```", '"name"',
             '"arguments": ', '"get_weather"', "<tool_call>", "</tool_call>", "<function=", "<function=get_weather>",
             "</function>", "<parameter=city>", "</parameter>", "[TOOL_CALLS]", "[ARGS]", "get_weather(", "TOOL ",
             "<|tool_call_begin|>", "<｜tool▁sep｜>", " to=functions.x", "<|message|>", "<think>", "</think>",
             "<arg_key>", "<invoke name=\"x\">", "Action: x\nAction Input: ", "1" * 40, "\x00", "\ud800", "ж"]
OPENERS = ["<function=", '{"name":', "[TOOL_CALLS]", "TOOL ", "get_weather(", "```", "[", "{", "(", "<think>",
           "</think>", "<tool_call>", '{"a":', "{'name':", "<|tool_call_begin|>x<|tool_call_argument_begin|>",
           "to=functions.x ", "[ARGS]", "Action: x\nAction Input: ", "`", "<invoke name=\"x\">", "\n"]


# ----------------------------------------------------------------------------- realistic outputs

def _json(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _render(call: Call, style: str) -> str:
    """One call in one of the formats real models write."""
    name, args = call.name, call.arguments
    a = _json(args)
    kw = ", ".join(f"{k}={_json(v)}" for k, v in args.items())
    return {
        "json": lambda: format_call(call, "json"),
        "xml": lambda: format_call(call, "xml"),
        "plain": lambda: format_call(call, "plain"),
        "fenced-json": lambda: "```json\n" + json.dumps({"name": name, "arguments": args}, indent=2,
                                                        ensure_ascii=False) + "\n```",
        "hermes": lambda: f"<tool_call>\n{_json({'name': name, 'arguments': args})}\n</tool_call>",
        "openai": lambda: _json({"tool_calls": [{"id": "call_1", "type": "function",
                                                 "function": {"name": name, "arguments": a}}]}),
        "function_call": lambda: _json({"function_call": {"name": name, "arguments": a}}),
        "gemini": lambda: _json({"functionCall": {"name": name, "args": args}}),
        "langchain": lambda: _json({"action": name, "action_input": args}),
        "llama31": lambda: f"<function={name}>{a}</function>",
        "pythonic": lambda: f"[{name}({kw})]",
        "mistral": lambda: f"[TOOL_CALLS]{name}[ARGS]{a}",
        "mistral-list": lambda: f"[TOOL_CALLS][{_json({'name': name, 'arguments': args})}]",
        "harmony": lambda: f"<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>{a}<|call|>",
        "deepseek": lambda: f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{a}<｜tool▁call▁end｜>"
                            "<｜tool▁calls▁end｜>",
        "kimi": lambda: f"<|tool_calls_section_begin|><|tool_call_begin|>functions.{name}:0"
                        f"<|tool_call_argument_begin|>{a}<|tool_call_end|><|tool_calls_section_end|>",
        "glm": lambda: f"<tool_call>{name}\n" + "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n"
                                                         for k, v in args.items()) + "</tool_call>",
        "invoke": lambda: f'<invoke name="{name}">' + "".join(f'<parameter name="{k}">{v}</parameter>'
                                                              for k, v in args.items()) + "</invoke>",
        "react": lambda: f"Thought: I need a tool.\nAction: {name}\nAction Input: {a}",
    }[style]()


STYLES = ["json", "xml", "plain", "fenced-json", "hermes", "openai", "function_call", "gemini", "langchain",
          "llama31", "pythonic", "mistral", "mistral-list", "harmony", "deepseek", "kimi", "glm", "invoke", "react"]


def _prose(rng: random.Random, k: int) -> str:
    pool = PROSE_RU if rng.random() < 0.5 else PROSE_EN
    return " ".join(rng.choice(pool) for _ in range(k))


def _with_thinking(rng: random.Random, text: str) -> str:
    if rng.random() < 0.3:
        opener, closer = rng.choice(THINKING)
        return f"{opener}{_prose(rng, rng.randint(1, 30))}{closer}{text}"
    return text


def realistic_call(rng: random.Random, case: Case) -> str:
    call = case.expect.call if case.expect.call is not None else Call("get_weather", {"city": "Paris"})
    body = _render(call, rng.choice(STYLES))
    if rng.random() < 0.15:
        body += "\n" + _render(call, rng.choice(STYLES))                  # the same call in a second format
    if rng.random() < 0.5:
        body = f"{_prose(rng, rng.randint(1, 3))}\n{body}\n{_prose(rng, rng.randint(0, 2))}"
    return _with_thinking(rng, body)


def example_answer(rng: random.Random, case: Case) -> str:
    call = case.expect.call if case.expect.call is not None else Call("convert_currency", {
        "amount": 100, "from_currency": "USD", "to_currency": "EUR"})
    return (f"{_prose(rng, 2)}\n\n{rng.choice(EXAMPLE_LEADS)}\n```\n{_render(call, rng.choice(STYLES))}\n```\n"
            f"{_prose(rng, 1)}")


def text_answer(rng: random.Random, case: Case) -> str:
    return _with_thinking(rng, case.expect.reference or _prose(rng, rng.randint(1, 6)))


def broken_call(rng: random.Random, case: Case) -> str:
    """A realistic call cut at a random point (max_tokens) or with a few characters changed."""
    text = realistic_call(rng, case)
    if rng.random() < 0.5:
        return text[:rng.randint(0, len(text))]
    chars = list(text)
    for _ in range(rng.randint(1, 5)):
        k = rng.randrange(len(chars) + 1)
        if rng.random() < 0.5 and k < len(chars):
            del chars[k]
        else:
            chars.insert(k, rng.choice('{}[]()"\':,<>=|`\n '))
    return "".join(chars)


# ----------------------------------------------------------------------------- text answers of every kind

# Sentences of the kinds models write in no-call and clarify cases, EN and RU; an answer is drawn from its
# kind's pool (with some chatter) until it reaches a size between 100 characters and 16 KB.
TEXT_POOLS: dict[str, list[str]] = {
    "clarify": ["Sure! Which city would you like the weather for?", "How long should the timer be?",
                "Okay, setting a timer. How long should it be?", "Which currency should I convert it into?",
                "Is that 100 US dollars?", "Уточните, пожалуйста, город.", "На сколько минут поставить таймер?",
                "Хорошо, ставлю таймер. На сколько минут?", "Какую сумму и из какой валюты перевести?",
                "What should I set it to?", "Сколько это в евро?", "Could you tell me the text to translate?"],
    "refusal": ["None of my available tools can book flights.", "That's beyond what I can do.",
                "The tools I have don't cover that.", "Мне это не под силу.", "У меня нет инструмента для этого.",
                "Это вне моих возможностей.", "You can't go wrong with Rome in spring.", "Don't worry, I can help.",
                "An airline's website or app will do it in a minute.", "Попробуйте приложение РЖД."],
    "knowledge": ["The capital of Australia is Canberra, not Sydney.", "World War II ended in 1945.",
                  "Столица Австралии — Канберра.", "«Войну и мир» написал Л. Н. Толстой.",
                  "It ended in 1939, 1941, 1944 or 1945, depending on how you count.",
                  "The boiling point of water at sea level is 100 °C.", "Вода кипит при 100 °C."],
    "chit-chat": ["Hi! I'm doing well, thanks for asking.", "Привет! Всё хорошо, спасибо.", "How can I help today?",
                  "That's a lovely question!", "Чем могу помочь?", "Have a great day! 😊"],
    "repeat-quote": ["Here's what a call looks like:\n```json\n{\"name\": \"translate\", \"arguments\": "
                     "{\"text\": \"Hi\", \"target_language\": \"de\"}}\n```", "`TOOL calculator | expression=1+1`",
                     "You could send this: Hi, I'm running late. I've already started on the report.",
                     "Вот черновик:\n\nДобрый день! Я заболел.\n\nЕсли нужно, поправлю.", "> Quoted: I can't come.",
                     "«Не могу» — сказал он.", '"I\'ve booked it," she wrote.'],
    "invented": ["I can't access live weather, but it's currently 18°C and sunny in Paris.",
                 "У меня нет доступа к погоде, но сейчас в Казани +5 °C.", "Сегодня курс евро — 98,5 рубля.",
                 "I found a 9:40 BA flight for you.", "Paris in spring is typically around 15 °C.",
                 "100 dollars is about 92 euros.", "It's 14:00 there right now."],
    # Answers written as JSON or agent objects (SPEC §3.1: their text payload is the answer), and a call
    # object with an empty name beside them (a broken attempt).
    "answer-object": ['{"response": "Sorry, I can\'t book flights."}',
                      '{"role": "assistant", "content": "Which city?"}',
                      '{"thought": "No tool fits.", "answer": "Столица Австралии — Канберра."}',
                      '{"tool": null, "answer": "I can\'t access live weather."}',
                      '{"name": "final_answer", "arguments": {"answer": "На сколько минут поставить таймер?"}}',
                      '{"action": "Final Answer", "action_input": "Мне это не под силу."}',
                      "Final Answer: The capital of Australia is Canberra.",
                      "Action: Final Answer\nAction Input: How long should the timer be?",
                      "<function=final_answer><parameter=answer>Это вне моих возможностей.</parameter></function>",
                      '<tool_call>{"name": "", "arguments": {}}</tool_call>'],
}
TEXT_CASES = {"clarify": lambda c: c.expect.kind == "clarify",
              "refusal": lambda c: c.kind == "capability_trap",
              "knowledge": lambda c: c.kind == "knowledge",
              "chit-chat": lambda c: c.kind == "chit_chat",
              "repeat-quote": lambda c: c.kind == "instruction_trap",
              "invented": lambda c: c.kind == "capability_trap" or c.expect.kind == "clarify",
              "answer-object": lambda c: c.expect.kind != "call"}
TEXT_SIZES, TEXT_SIZE_WEIGHTS = [100, 400, 1_500, 4_000, MAX_CHARS], [0.3, 0.3, 0.2, 0.12, 0.08]


def text_of(kind: str, rng: random.Random, size: int) -> str:
    """An answer of `kind` of about `size` characters: sentences of its pool mixed with chatter."""
    parts: list[str] = []
    n = 0
    while n < size:
        part = rng.choice(TEXT_POOLS[kind]) if rng.random() < 0.6 else _prose(rng, 1)
        parts.append(part)
        n += len(part) + 1
    return " ".join(parts)[:size] if size >= MAX_CHARS else " ".join(parts)


def _text_kind(kind: str) -> Callable[[random.Random, Case], str]:
    def make(rng: random.Random, case: Case) -> str:
        return _with_thinking(rng, text_of(kind, rng, rng.choices(TEXT_SIZES, TEXT_SIZE_WEIGHTS)[0]))
    return make


# ----------------------------------------------------------------------------- random and hostile outputs

def random_unicode(rng: random.Random, case: Case) -> str:
    n = rng.choice([16, 200, 2000, MAX_CHARS])
    if rng.random() < 0.5:          # any code point, surrogates and NUL included
        return "".join(map(chr, rng.choices(range(0x110000), k=n)))
    alphabet = "abcxyz ABC\n\t0123456789.,;:!?\"'`{}[]()<>|=\\/жщыё€—\x00\ud800"
    return "".join(rng.choices(alphabet, k=n))


def fragment_soup(rng: random.Random, case: Case) -> str:
    return "".join(rng.choices(FRAGMENTS, k=rng.choice([10, 100, 1000, 3000])))


def deep_nesting(rng: random.Random, case: Case) -> str:
    depth = rng.choice([100, 1000, 5000, 8000])
    opener, closer = rng.choice([("[", "]"), ("{", "}"), ("(", ")"), ('{"a":', "}"), ("<function=x>", "</function>"),
                                 ("[{", "}]"), ('{"name": "x", "arguments": ', "}")])
    closed = rng.random() < 0.5
    return opener * depth + ("1" + closer * depth if closed else "")


def many_openers(rng: random.Random, case: Case) -> str:
    unit = rng.choice(OPENERS)
    return unit * (MAX_CHARS // len(unit))


def huge_number(rng: random.Random, case: Case) -> str:
    digits = "".join(rng.choices("0123456789", k=rng.choice([1000, 4300, 5000, 15000])))
    return rng.choice([
        '{"name": "set_timer", "arguments": {"duration_seconds": 1%s}}',
        "{'name': 'set_timer', 'arguments': {'duration_seconds': 0x1%s}}",
        '{"name": "set_timer", "arguments": "{\\"duration_seconds\\": 1%s}"}',
        "set_timer(duration_seconds=1%s)",
        "TOOL set_timer | duration_seconds=1%s",
        '{"name": "calculator", "arguments": {"expression": "1%s*2"}}',
    ]) % digits


KINDS: dict[str, tuple[float, Callable[[random.Random, Case], str]]] = {
    "realistic-call": (0.30, realistic_call),
    "text-answer": (0.15, text_answer),
    "example": (0.05, example_answer),
    "broken-call": (0.15, broken_call),
    "random-unicode": (0.10, random_unicode),
    "fragment-soup": (0.10, fragment_soup),
    "deep-nesting": (0.05, deep_nesting),
    "many-openers": (0.05, many_openers),
    "huge-number": (0.05, huge_number),
    **{f"text-{k}": (0.03, _text_kind(k)) for k in TEXT_POOLS},
}


def workload(cases: list[Case], n: int, seed: int) -> list[tuple[str, Case, str, str]]:
    """(kind, case, protocol, output) for n outputs of at most MAX_CHARS, the same for the same seed."""
    rng = random.Random(seed)
    names = list(KINDS)
    weights = [KINDS[k][0] for k in names]
    items: list[tuple[str, Case, str, str]] = []
    by_kind = {k: [c for c in cases if pred(c)] for k, pred in TEXT_CASES.items()}
    for _ in range(n):
        kind = rng.choices(names, weights)[0]
        case = rng.choice(by_kind.get(kind.removeprefix("text-")) or cases)
        items.append((kind, case, rng.choice(PROTOCOLS), KINDS[kind][1](rng, case)[:MAX_CHARS]))
    return items


def megabyte_outputs(cases: list[Case]) -> dict[str, tuple[str, Case]]:
    """name -> (1 MB output, the case it is graded against): the extraction kinds against a call case, each
    text-answer kind against a case of its own kind (the answer checks run only there)."""
    rng = random.Random(1)
    def case_of(kind: str) -> Case:
        return next(c for c in cases if TEXT_CASES[kind](c))
    text = {f"text {k}, 1 MB": (text_of(k, rng, MB), case_of(k)) for k in TEXT_POOLS}
    hostile = {"text clarify, 1 MB of one word": ("hello " * (MB // 6), case_of("clarify")),
               "text refusal, 1 MB of negations": ("not can't no " * (MB // 13), case_of("refusal")),
               "text refusal, 1 MB of colons": ("a: b, c; " * (MB // 9), case_of("refusal")),
               "text clarify, 1 MB of quotes": ('"a" ' * (MB // 4), case_of("clarify"))}
    return {k: (v[:MB], cases[0]) for k, v in _extraction_megabytes(rng).items()} | text | hostile


def _extraction_megabytes(rng: random.Random) -> dict[str, str]:
    call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    return {k: v[:MB] for k, v in {
        "prose EN+RU": (" ".join(PROSE_EN + PROSE_RU) + "\n") * (MB // 600 + 1),
        "json call, 1 MB argument": '{"name": "save_note", "arguments": {"text": "' + "a" * (MB - 60) + '"}}',
        "random unicode": "".join(map(chr, rng.choices(range(0x110000), k=MB))),
        "fragment soup": "".join(rng.choices(FRAGMENTS, k=MB // 5)),
        "nesting [ 1M deep": "[" * MB,
        "nesting {\"a\": deep": '{"a":' * (MB // 5),
        "<function= openers": "<function=" * (MB // 10),
        "{\"name\": openers": '{"name":' * (MB // 8),
        "pythonic lines": 'get_weather(city="Paris",\n' * (MB // 25),
        "TOOL lines": "TOOL get_weather | city=Paris\n" * (MB // 30),
        "calls in prose": (PROSE_EN[0] + "\n" + call + "\n") * (MB // 90),
        "thinking, unclosed": "<think>" + "hmm " * (MB // 4),
    }.items()}


# ----------------------------------------------------------------------------- measurement

def _commit() -> str:
    """The checked-out commit (with "+dirty" when the tree has changes), so figures name what they measured."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def _warm_up(items: list[tuple[str, Case, str, str]]) -> float:
    """Load the language libraries' data (tooluse1.lang.load: which output would first reach each depends on the
    rules) and grade the first output of each (output kind, case kind) once, untimed: the grader's first-use
    loading happens here, not in the first timed calls. Returns the seconds it took."""
    t0 = time.perf_counter()
    load_language_data()
    seen: set[tuple[str, str]] = set()
    for kind, case, protocol, output in items:
        if (kind, case.expect.kind) not in seen:
            seen.add((kind, case.expect.kind))
            try:
                grade(case, output, protocol)
            except Exception:  # noqa: BLE001 - counted when the timed pass grades it again
                pass
    return time.perf_counter() - t0


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def _over_target(ms: list[float]) -> int:
    """How many latencies exceed the p99 target: what a p99 bar leaves to cut is this count down to 1%."""
    return sum(1 for x in ms if x > TARGET_P99_MS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="outputs of at most 16 KB to grade (default 100000)")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--no-time-gate", action="store_true", help="exit 1 only on exceptions, not on missed times")
    ap.add_argument("--passes", type=int, default=1,
                    help="grade the whole mix this many times and also report each output's best time (default 1)")
    ap.add_argument("--mb-rounds", type=int, default=1,
                    help="grade the 1 MB outputs this many rounds and report each one's best (default 1)")
    ap.add_argument("--noisy-neighbour", action="store_true",
                    help="copy 32 MB arrays on another core throughout (a neighbour's cache and memory traffic: a "
                         "harsher condition than the targets', which assume the machine to itself)")
    args = ap.parse_args(argv)
    neighbour = _start_noisy_neighbour() if args.noisy_neighbour else None
    try:
        return _run(args)
    finally:
        if neighbour is not None:
            neighbour.kill()
            neighbour.wait()


# A process that keeps the caches and the memory bus busy from the other core: two 32 MB arrays copied in a loop.
_NEIGHBOUR = ("import os, numpy as np\n"
              "os.sched_setaffinity(0, {1})\n"
              "a = np.ones(32 << 20, dtype=np.uint8)\n"
              "b = np.empty_like(a)\n"
              "while True:\n"
              "    np.copyto(b, a)\n")


def _start_noisy_neighbour() -> subprocess.Popen:
    if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("--noisy-neighbour needs a second core (os.sched_setaffinity)")
    neighbour = subprocess.Popen([sys.executable, "-c", _NEIGHBOUR])
    time.sleep(1.0)                  # its arrays allocated and the loop running before the first grade
    return neighbour


def _run(args: argparse.Namespace) -> int:
    """The benchmark (see the module docstring) with the parsed flags; its exit status."""
    pinned = "not pinned"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
        pinned = f"pinned to core(s) {sorted(os.sched_getaffinity(0))}"
    cases, _ = load_corpus()
    t0 = time.perf_counter()
    items = workload(cases, args.n, args.seed)
    gen_s = time.perf_counter() - t0
    warm_s = _warm_up(items)
    gc.collect()
    gc.freeze()

    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    first_errors: list[str] = []
    slowest: list[tuple[float, str, int, Case, str, str]] = []
    best_cpu: list[float] = []      # per output, in workload order: its best CPU time over the passes
    sizes = 0
    for kind, case, protocol, output in items:
        sizes += len(output)
        c0, w0 = time.thread_time(), time.perf_counter()
        try:
            grade(case, output, protocol)
        except Exception as e:  # noqa: BLE001 - the contract under test is "never raises"
            errors[kind] += 1
            if len(first_errors) < 5:
                first_errors.append(f"{kind} {case.id} {protocol}: {type(e).__name__}: {e!s:.200} "
                                    f"output={output[:120]!r}")
        c1, w1 = time.thread_time(), time.perf_counter()
        cpu[kind].append((c1 - c0) * 1e3)
        wall[kind].append((w1 - w0) * 1e3)
        best_cpu.append((c1 - c0) * 1e3)
        slowest.append(((c1 - c0) * 1e3, kind, len(output), case, protocol, output))

    # Further passes over the whole mix: each output's best CPU time is its cost with the machine's interference
    # (another tenant on the core, a cache flushed) taken out. The caches of the answer checks hold a few texts,
    # so every output is graded cold again. The targets stay on the first pass; the best times say how much of
    # a miss is the machine.
    for _ in range(args.passes - 1):
        for i, (_, case, protocol, output) in enumerate(items):
            c0 = time.thread_time()
            try:
                grade(case, output, protocol)
            except Exception:  # noqa: BLE001 - counted in the first pass
                pass
            best_cpu[i] = min(best_cpu[i], (time.thread_time() - c0) * 1e3)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"command: .venv/bin/python benchmarks/bench_grader_fuzz.py --n {args.n} --seed {args.seed} "
          f"--passes {args.passes} --mb-rounds {args.mb_rounds}{' --noisy-neighbour' * args.noisy_neighbour}")
    print(f"python {platform.python_version()} ({os.path.realpath(sys.executable)}) on {platform.machine()}, {pinned}, "
          f"load average {load:.1f}, "
          f"commit {_commit()}")
    print(f"{len(items):,} outputs (<= {MAX_CHARS:,} chars, mean {sizes / max(len(items), 1):,.0f}) over "
          f"{len(cases)} cases x {len(PROTOCOLS)} protocols; generated in {gen_s:.1f} s; warm-up (first-use loading, "
          f"untimed) {warm_s:.2f} s")
    print("latency per grade() call in ms: CPU time of the grading thread (wall-clock p99 in the last column)")
    print(f"{'kind':<16} {'n':>7} {'exceptions':>10} {'p50':>7} {'p99':>7} {'max':>7} {'wall p99':>9} "
          f"{'over p99 target':>15}")
    all_cpu: list[float] = []
    all_wall: list[float] = []
    for kind in KINDS:
        c, w = sorted(cpu[kind]), sorted(wall[kind])
        all_cpu += c
        all_wall += w
        if c:
            print(f"{kind:<16} {len(c):>7,} {errors[kind]:>10} {_pct(c, .5):>7.3f} {_pct(c, .99):>7.3f} "
                  f"{c[-1]:>7.2f} {_pct(w, .99):>9.3f} {_over_target(c):>15,}")
    all_cpu.sort()
    all_wall.sort()
    n_err = sum(errors.values())
    p99, worst = _pct(all_cpu, .99), all_cpu[-1] if all_cpu else 0.0
    print(f"{'all':<16} {len(all_cpu):>7,} {n_err:>10} {_pct(all_cpu, .5):>7.3f} {p99:>7.3f} {worst:>7.2f} "
          f"{_pct(all_wall, .99):>9.3f} {_over_target(all_cpu):>15,}   "
          f"(wall max {all_wall[-1] if all_wall else 0:.2f}; p99 < {TARGET_P99_MS:g} ms needs fewer than 1% over it)")
    if args.passes > 1:
        best_by_kind: dict[str, list[float]] = defaultdict(list)
        for (kind, _, _, _), ms in zip(items, best_cpu):
            best_by_kind[kind].append(ms)
        ranked = sorted(best_cpu)
        print(f"best of {args.passes} passes per output: p99 {_pct(ranked, .99):.3f} ms, {_over_target(ranked):,} over "
              f"{TARGET_P99_MS:g} ms (" + ", ".join(f"{k} {_over_target(v)}" for k, v in best_by_kind.items()
                                                 if _over_target(v)) + "); the targets below use the first pass")
    slowest.sort(key=lambda r: r[0])
    retimed = []
    for ms, kind, size, case, protocol, output in slowest[-20:]:
        best = ms
        for _ in range(3):
            c0 = time.thread_time()
            grade(case, output, protocol)
            best = min(best, (time.thread_time() - c0) * 1e3)
        retimed.append((best, ms, kind, size))
    retimed.sort(reverse=True)
    worst_retimed = retimed[0][0] if retimed else 0.0
    print("slowest 5, re-timed best of 3 (single run): " + ", ".join(
        f"{k} {n:,} chars {best:.2f} ms ({ms:.2f})" for best, ms, k, n in retimed[:5]))
    for line in first_errors:
        print("EXCEPTION", line)

    # Each round grades every 1 MB output once, in order: the answer checks' caches (a few entries) hold none
    # of an output by the time the next round grades it again, so the best round is a cold run.
    megabytes = megabyte_outputs(cases)
    mb_best: dict[str, tuple[float, float, str]] = {}
    for _ in range(args.mb_rounds):
        for kind, (output, case) in megabytes.items():
            c0, w0 = time.thread_time(), time.perf_counter()
            try:
                label: str = grade(case, output, "json").label
            except Exception as e:  # noqa: BLE001
                label, n_err = f"EXCEPTION {type(e).__name__}", n_err + 1
            ms, wall_ms = (time.thread_time() - c0) * 1e3, (time.perf_counter() - w0) * 1e3
            if kind not in mb_best or ms < mb_best[kind][0]:
                mb_best[kind] = (ms, wall_ms, label)
    rounds = "one run" if args.mb_rounds == 1 else f"best of {args.mb_rounds} rounds"
    print(f"\n{'1 MB output (' + rounds + ')':<34} {'chars':>9} {'CPU ms':>8} {'wall ms':>8}  label")
    for kind, (ms, wall_ms, label) in mb_best.items():
        print(f"{kind:<34} {len(megabytes[kind][0]):>9,} {ms:>8.1f} {wall_ms:>8.1f}  {label}")
    mb_worst = max(ms for ms, _, _ in mb_best.values())

    checks = [("exceptions == 0", n_err == 0, str(n_err)),
              (f"p99 < {TARGET_P99_MS:g} ms", p99 < TARGET_P99_MS, f"{p99:.3f} ms"),
              (f"max < {TARGET_MAX_MS:g} ms", worst_retimed < TARGET_MAX_MS,
               f"{worst_retimed:.2f} ms re-timed ({worst:.2f} ms single run)"),
              (f"1 MB < {TARGET_MB_MS:g} ms", mb_worst < TARGET_MB_MS, f"{mb_worst:.1f} ms (slowest kind)")]
    print("\ntargets: " + "; ".join(f"{name}: {value} {'met' if ok else 'MISSED'}" for name, ok, value in checks))
    if n_err:
        return 1
    return 0 if args.no_time_gate or all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
