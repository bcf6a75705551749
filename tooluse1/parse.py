"""Stage 4: raw model text -> Extraction(calls, examples, label, prose). Public API: `extract`, `strip_thinking`.

How an output is read (grading 3.0):
1. Thinking is removed first (`strip_thinking`): <think>, <thinking>, <reasoning>, <seed:think>, [THINK],
   <|begin_of_thought|>, DeepSeek <｜begin▁of▁thinking｜>, Kimi ◁think▷, Cohere <|START_THINKING|> and the
   gpt-oss harmony analysis channel (with its special tokens, or as text when they were dropped:
   "analysis…assistantfinal…"). An opener never closed cuts to the end (a reply cut off inside its
   thinking has no answer), unless a format's tool-call section token ends it (Kimi K2 writes
   <think>…<|tool_calls_section_begin|>… without </think>; also DeepSeek <｜tool▁calls▁begin｜> and DSML
   <｜DSML｜function_calls>); a lone end marker cuts everything before it. A harmony header with a recipient
   (`<|channel|>analysis to=functions.X …`) is a call, not analysis.
2. EVERY extractor runs over the rest and reports findings: a text span with the calls it holds, or a
   problem (a call attempt that does not parse), or neither (a JSON value that is data, or that describes
   or lists tools: text, kept in the prose).
3. One claiming rule for all of them: findings are taken in text order, the longest first at the same
   start; a finding that starts inside a span already claimed belongs to that span and is dropped. So
   the JSON body of `<function=f>{...}</function>`, the JSON inside `<tool_call>…</tool_call>` or after
   `[TOOL_CALLS]name[ARGS]` is one call, not two; a call written twice in two formats is two calls.
   Wrapper markup right around a claimed span (<tool_call>…</tool_call>, [TOOL_CALLS], <|python_tag|>,
   functools, <|call|>, section tokens) belongs to it.
4. Examples (decision): a call inside a code block (a ``` / ~~~ fence, or a one-line `…` / ```…``` span)
   that the text right before it (its paragraph, up to 300 characters) presents as an example is an
   example, not a call: its calls go to `examples`, and a broken call there is not a call attempt. The
   markers (`_EXAMPLE_MARKER`) are words that present what follows as an illustration rather than an
   action: "for example", "e.g.", "example", "sample", "such as", "would look like", "something like",
   "like this", "usage", "syntax", "format:", "hypothetically", a second person or a conditional with a
   verb of calling ("you would/can call", "I'd use"); in Russian "например", "к примеру", "пример…",
   "выгляд…", "синтаксис", "формат вызова", "можно вызвать", "бы" (the conditional). Ordinary prose
   before a fenced call ("Sure, let me check the weather:", "I'd be happy to help! Let me check:")
   leaves it a call; so does any call outside a code block, whatever the prose says.
5. Label: "call" iff there are calls; else "malformed" iff something is a call attempt that does not
   parse (a broken call object or call markup, a `TOOL` line that does not parse, call markup left over
   outside every parsed call); else "text". A broken attempt next to parsed calls leaves the label
   "call" and is listed in `broken`.

Formats, recognised in every protocol (the benchmark measures the decision and the arguments; the format
used is visible in `form`):
  xml        `<function=NAME><parameter=K>V</parameter></function>`, optionally in <tool_call> or
             <seed:tool_call>; a JSON object as the body (Llama 3.1 / Functionary v3.1
             `<function=NAME>{"k": "v"}</function>`); a `</parameter>` left out before the next
             `<parameter=` or `</function>` is tolerated (Qwen3-Coder) when every key is a name
  invoke     `<invoke name="NAME"><parameter name="K">V</parameter></invoke>` (Anthropic-style, MiniMax
             <minimax:tool_call>, Step-3 steptml:, DeepSeek-V3.2 DSML `<｜DSML｜invoke>` in
             `<｜DSML｜function_calls>`); `string="false"` on a parameter means its value is JSON
  minicpm    `<function name="NAME"><param name="K">V</param></function>` (MiniCPM4)
  glm        `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>` (GLM-4.5+; a JSON
             body also accepted)
  json       objects anywhere (bare, fenced, in prose, in <tool_call> / <|tool_call|> / functools[...] /
             [TOOL_CALLS] / <|python_tag|>): {"name"|"tool"|"tool_name"|"function"|"function_name",
             "arguments"|"parameters"|"args"|"input"|...}, LangChain {"action", "action_input"}, wrappers
             (OpenAI `tool_calls` and `function` with string arguments, legacy `function_call`, Gemini
             `functionCall` / `parts`, ...), lists of calls; Python-literal dicts (single quotes, True/None);
             OpenAI `multi_tool_use.parallel` expands to its `tool_uses`; inside a tool-call wrapper
             (<tool_call>, <|tools_prefix|>, [TOOL_CALLS], functools, ...) also name-as-key objects
             `[{"get_weather": {"city": "Paris"}}]` (Apertus); a call object whose name is empty or null
             beside an argument key is a broken attempt
  bare_args  an argument object alone as the whole reply whose keys fit exactly one tool
  mistral    `[TOOL_CALLS]NAME[CALL_ID]id[ARGS]{...}`, `[TOOL_CALLS]NAME{...}`, `NAME[ARGS]{...}`
  harmony    gpt-oss `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>`
             (also with the tokens dropped: `commentary to=functions.NAME json{...}`)
  deepseek   `<｜tool▁call▁begin｜>[function<｜tool▁sep｜>]NAME[<｜tool▁sep｜>]```json {...}```…`
  kimi       `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{...}`
  functionary  Functionary v3.2 `>>>NAME\n{...}` (several in a row); `>>>all\n` introduces plain text
  gemma      Gemma 4 `<|tool_call>call:NAME{k:<|"|>text<|"|>,n:3}<tool_call|>`, FunctionGemma
             `<start_function_call>call:NAME{k:<escape>text<escape>}<end_function_call>`
  react      `Action: NAME` + `Action Input: {...}` (or a plain string for a one-argument tool)
  pythonic   `get_weather(city="Paris")`, `[get_weather(city="Paris"), get_time(timezone="UTC")]` (Llama
             3.2/4): only when it stands alone on its line(s), optionally fenced or after <|python_tag|>,
             never inside a sentence or backticks; anywhere inside the special wrappers that mark calls
             (Llama 4 <|python_start|>…<|python_end|>, Olmo 3 <function_calls>…</function_calls> one call a
             line, MiniCPM/LFM2 <|tool_call_start|>…<|tool_call_end|>); literal values only (parsed with
             `ast`, size-limited; JSON true/false/null read as True/False/None);
             positional arguments map to a known tool's parameters in schema order; an unknown name
             counts only with keyword arguments (`sqrt(144)` on a line is arithmetic, not a call)
  plain      a line that starts with `TOOL name | k=v | k="v with | pipe"`; a quoted, backticked or
             `>`-quoted line is prose (the quoted-call trap); `TOOL RESULT` lines are never calls
Values without native types (xml, invoke, glm, plain, react strings, pythonic strings) and JSON strings
are typed by the tool schema (tools.type_arguments) of the offered tools (`tools=`, the case's
Case.toolbox). Names keep the model's spelling, less the namespaces a format imposes (harmony/Kimi
`functions.`, Kimi `:0`, Llama `.call`); another namespace is another tool (`browser.search` is gpt-oss's
browser, not web_search: Toolbox.canonical_name).
A broken call object's region ends at the next call delimiter (<|tool_call_end|>, </tool_call>, <|call|>,
[TOOL_CALLS], …), so a well-delimited call after it is still read.
What describes or lists tools is text, not a call and not malformed: {"name", "description"} without an
argument object, a `parameters`/`arguments` value that is a JSON schema or a list of parameter names,
{"tools": [...]}, a list of name-only objects, {"tool": "calculator", "purpose": …} (flat keys that are not
the tool's parameters), a listing cut off by max tokens once a description/schema key shows; and a call
template whose argument values are all placeholders (`{"city": "<city>"}`, `city=[city name]`, `"string"`).
Answer objects are text, and their text payload stands for them in the prose (so what they say is judged
as the answer; `_ANSWER_KEYS`): an object whose keys are all answer keys (response, answer, final_answer,
reply, message, content, output, result) or metadata (role, type, thought(s), reasoning, confidence,
status, an empty call key such as `"tool": null`), with a string answer; a pseudo-tool that means "no
tool" (final_answer, answer, respond, reply, none, LangChain "Final Answer", Cohere directly_answer) in any
call format, whose payload is its string arguments; the ReAct label `Final Answer:` (dropped, the text
after it stays) and Functionary's `>>>all`.

Contract: `extract` never raises on any input and runs in time linear in the text. Every extractor starts
only at cheap anchors, parses with bounded windows, and draws on per-text budgets proportional to the
text's length (`_Scan`); on hostile text past a budget it stops looking (the text is then malformed if it
holds call markup), it never rescans from every opener.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import html
import json
import re
import sys
from bisect import bisect_right
from itertools import accumulate, islice
from operator import itemgetter
from dataclasses import dataclass, field
from textwrap import dedent as textwrap_dedent
from typing import Any, Iterator

from tooluse1.codepoints import occurs, occurs_any, occurs_any_char
from tooluse1.tools import TOOLS, Call, type_arguments
from tooluse1.toolspec import Toolbox
from tooluse1.types import Label

__all__ = ["Call", "Extraction", "extract", "extract_completion", "strip_thinking"]


@dataclass
class Extraction:
    """What a model output contains.

    calls     the real calls, in text order
    examples  calls shown as examples inside a code block (see the module docstring), in text order
    label     "call" iff calls; else "malformed" iff a call attempt does not parse; else "text"
    prose     the text without thinking, call/example payloads and wrapper markup (what answers are
              checked on)
    form      the formats of the calls (of the examples when there are no calls), sorted and joined by
              "+", e.g. "json" or "json+xml"; None when there are neither
    problem   why a malformed output is malformed (None unless the label is "malformed")
    broken    every call attempt that did not parse, also when other calls did (e.g. a second call cut off)
    """

    calls: list[Call]
    label: Label
    prose: str
    form: str | None = None
    problem: str | None = None
    thinking: str = field(default="", repr=False)
    examples: list[Call] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"calls": [c.as_dict() for c in self.calls], "examples": [c.as_dict() for c in self.examples],
                "label": self.label, "prose": self.prose, "form": self.form, "problem": self.problem,
                "broken": list(self.broken)}


# ----------------------------------------------------------------------------- thinking

# (opener, closer) regexes. The closer is searched only after its own opener.
_THINKING: list[tuple[str, str]] = [
    (r"(?i:<think>)", r"(?i:</think>)"),
    (r"(?i:<thinking>)", r"(?i:</thinking>)"),
    (r"(?i:<reasoning>)", r"(?i:</reasoning>)"),
    (r"(?i:<seed:think>)", r"(?i:</seed:think>)"),
    (r"\[THINK\]", r"\[/THINK\]"),
    (r"<\|begin_of_thought\|>", r"<\|end_of_thought\|>"),
    (r"<[|｜]begin[▁_ ]of[▁_ ]thinking[|｜]>", r"<?[|｜]end[▁_ ]of[▁_ ]thinking[|｜]>?"),
    (r"◁think▷", r"◁/think▷"),
    (r"<\|START_THINKING\|>", r"<\|END_THINKING\|>"),
    # gpt-oss harmony: the analysis channel ends with <|end|> or where the next message starts. A header
    # with a recipient ("analysis to=functions.X") is a call addressed from that channel, not thinking.
    (r"(?:<\|start\|>\s*(?:assistant\s*)?)?<\|channel\|>\s*analysis(?!\s*to=)\s*(?:<\|message\|>)?",
     r"<\|end\|>|(?=<\|start\|>|<\|channel\|>)"),
    # The same with the special tokens dropped from the text: "analysisWe need…assistantfinalParis."
    # At the start only when glued to the next word or line ("analysis of…" is an answer), and the
    # final/commentary header ends it ("assistant" of "assistantcommentary" goes with the thinking).
    (r"\A\s*analysis(?=[A-Z\n])|assistantanalysis",
     r"assistantfinal|assistant(?=commentary)|(?=assistantanalysis)"),
]
# End markers that, without their opener (it was in the prompt), cut everything before them.
_LONE_ENDS = [r"(?i:</think>)", r"(?i:</thinking>)", r"(?i:</reasoning>)", r"(?i:</seed:think>)", r"\[/THINK\]",
              r"<\|end_of_thought\|>", r"<?[|｜]end[▁_ ]of[▁_ ]thinking[|｜]>?", r"◁/think▷",
              r"<\|END_THINKING\|>", r"assistantfinal"]
_THINK_AT = re.compile("|".join([f"(?P<o{i}>{o})" for i, (o, _) in enumerate(_THINKING)]
                                + [f"(?P<e{i}>{e})" for i, e in enumerate(_LONE_ENDS)]))
_THINK_CLOSE = [re.compile(c) for _, c in _THINKING]
# Special tokens that open a tool-call section: the formats whose reasoning is ended by the call section
# itself (Kimi K2 writes <think>…<|tool_calls_section_begin|>… without </think>). They end a thinking
# block that is never closed; a block closed later keeps them (a call drafted in the reasoning).
_SECTION_OPEN = re.compile(r"<\|tool_calls_section_begin\|>|<｜tool▁calls▁begin｜>|<[|｜]DSML[|｜]function_calls>")
# Where a marker can start. Named groups (above), or a branch that starts with (?i:…), make the regex
# engine try every position (0.3 s per MB); this alternation's branches all start with a literal, which
# keeps its first-character scan, and _THINK_AT then reads the hit. Texts with none of the hints skip it. Each
# branch comes with what every match of it holds (groups of strings, as `_holds_any` reads them; a tag of the first
# ends in "k>" or "g>", the k also as the Kelvin sign, which (?i) matches): a text is scanned with the branches it
# may hold (`_think_anchor`), which find the positions the whole anchor finds (16 KB of random ASCII, with its "<",
# "[", "|" and "a", took 0.15 ms with all of them).
_THINK_ANCHOR_BRANCHES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    (r"</?(?i:think|thinking|reasoning|seed:think)>", (("k>",), ("K>",), ("\u212a>",), ("g>",), ("G>",))),
    (r"<\|(?:begin_of_thought|end_of_thought|START_THINKING|END_THINKING)\|>",
     (("<|", "thought|>"), ("<|", "THINKING|>"))),
    (r"<\|(?:start\|>\s*(?:assistant\s*)?<\|)?channel\|>\s*analysis", (("<|", "channel|>", "analysis"),)),
    (r"<[|｜](?:begin|end)[▁_ ]of[▁_ ]thinking", (("<", "thinking"),)),
    (r"\[/?THINK\]", (("THINK]",),)),
    (r"◁/?think▷", (("◁",),)),
    (r"\|end[▁_ ]of[▁_ ]thinking|｜end[▁_ ]of[▁_ ]thinking", (("end", "thinking"),)),
    (r"assistant(?:final|analysis)", (("assistant",),)),
)
_THINK_ANCHOR = re.compile("|".join(rx for rx, _ in _THINK_ANCHOR_BRANCHES))
_THINK_HINTS = ("<", "[THINK]", "[/THINK]", "◁", "end_of_thinking", "end▁of▁thinking", "end of thinking",
                "assistant", "analysis")


def _holds_any(groups: tuple[tuple[str, ...], ...], text: str, seen: dict[str, bool]) -> bool:
    """Whether `text` holds every string of one of the groups (by codepoints.occurs); `seen` keeps what was
    looked for (the groups of a family often share a string)."""
    for group in groups:
        for needle in group:
            found = seen.get(needle)
            if found is None:
                found = seen[needle] = occurs(needle, text)
            if not found:
                break
        else:
            return True
    return False


def _alternation_held(branches: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...], text: str,
                      seen: dict[str, bool]) -> re.Pattern | None:
    """The alternation of the branches (patterns with what each match of them holds) that `text` may hold, in
    their order, or None when it holds none: a branch that cannot match in the text changes nothing a scan of the
    whole alternation finds."""
    held = tuple(rx for rx, groups in branches if _holds_any(groups, text, seen))
    return _alternation(held) if held else None


@functools.cache
def _alternation(patterns: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(patterns))


@functools.lru_cache(maxsize=4)        # the same text is asked again for each marker after the first
def _think_anchor(text: str) -> re.Pattern | None:
    return _alternation_held(_THINK_ANCHOR_BRANCHES, text, {})


def _thinking_marker(text: str, pos: int) -> re.Match | None:
    """The next thinking opener or lone end marker at or after pos (a match of _THINK_AT)."""
    if pos == 0:
        if not occurs_any(_THINK_HINTS, text):
            return None
        m = _THINK_AT.match(text, 0)      # also "\A\s*analysis…", which can only match here
        if m is not None:
            return m
    anchor = _think_anchor(text)
    while anchor is not None and (a := anchor.search(text, pos)) is not None:
        m = _THINK_AT.match(text, a.start())
        if m is not None:
            return m
        pos = a.start() + 1
    return None


# How far past its start any alternative of _THINK_AT or _THINK_ANCHOR that can match where a lone end marker
# starts reads (the longest marker is 22 characters). The unbounded ones read further only after "<|start"
# or "<|channel" (harmony), or at the start of the text (\A), which a lone end marker past the start is not.
_MARKER_REACH = 64


def _copies(text: str, pos: int, g: str) -> int:
    """How many copies of the non-empty g follow one another from text[pos] (str.startswith on blocks that
    double, then halve: C-level comparisons, no Python step per copy)."""
    n, block = 0, g
    while text.startswith(block, pos + n * len(g)):
        n += len(block) // len(g)
        block += block
    while len(block) > len(g):
        block = block[:len(block) // 2]
        if text.startswith(block, pos + n * len(g)):
            n += len(block) // len(g)
    return n


def _after_marker_run(text: str, start: int, g: str) -> int:
    """Where the run of the lone end marker g read at text[start] ends: the first position after it at which
    _thinking_marker does not read g again (what looping on `_THINK_AT.match(text, pos).group() == g` gives).

    Why exact: a copy of g whose _MARKER_REACH window lies inside the run sees the same characters as the
    copy at `start` (the run is periodic), so both regexes read it as they read that one: as g. Those copies
    are skipped at once; the last few, whose window reaches past the run, are read one by one."""
    period = len(g)
    if not period:
        return start
    whole = (_copies(text, start, g) * period - _MARKER_REACH) // period    # copies 1..whole read as g
    pos = start + max(1, whole + 1) * period
    while (text.startswith(g, pos) and _THINK_ANCHOR.match(text, pos) is not None
           and (again := _THINK_AT.match(text, pos)) is not None and again.group() == g):
        pos = again.end()
    return pos


def strip_thinking(text: str) -> tuple[str, str]:
    """(text without thinking, the thinking), both stripped. Closed blocks are cut; an opener never
    closed cuts to the end; a lone end marker cuts everything before it. Linear in len(text)."""
    m = _thinking_marker(text, 0)
    if m is None:
        return text.strip(), ""
    visible: list[str] = []
    thinking: list[str] = []
    unclosed: set[int] = set()
    sections = 16
    pos = 0
    while m is not None:
        kind = m.lastgroup or ""
        if kind.startswith("e"):
            thinking += visible + [text[pos:m.start()]]
            visible, pos = [], m.end()
            # The same marker again right here ("</think></think>…") would cut an empty text: skip the run
            # (it is what _thinking_marker would return next; 16 KB of them 2.2 -> ~0.1 ms).
            pos = _after_marker_run(text, m.start(), m.group())
        else:
            visible.append(text[pos:m.start()])
            k = int(kind[1:])
            close = None if k in unclosed else _THINK_CLOSE[k].search(text, m.end())
            if close is None:
                unclosed.add(k)          # no later opener of this kind is closed either (linear time)
                sections -= 1            # real replies have one; hostile text stops here (cut to the end)
                section = _SECTION_OPEN.search(text, m.end()) if sections >= 0 else None
                thinking.append(text[m.end():section.start() if section else len(text)])
                if section is None:
                    pos = len(text)
                    break
                pos = section.start()
            else:
                thinking.append(text[m.end():close.start()])
                pos = close.end()
        m = _thinking_marker(text, pos)
    visible.append(text[pos:])
    return "".join(visible).strip(), "\n".join(t.strip() for t in thinking if t.strip())


# ----------------------------------------------------------------------------- scanning, findings, budgets

class _LineRegex:
    """A pattern matched only at line starts. `(?m)^…` makes the regex engine try every position (8x
    slower on 16 KB than a literal first character), so this searches for "\n" + pattern and matches the
    pattern itself at the start of the text."""

    def __init__(self, pattern: str):
        self.first = re.compile(pattern)
        self.rest = re.compile("\n" + pattern)

    def finditer(self, text: str) -> Iterator[tuple[int, re.Match]]:
        """(start of the line, match) for every match, in text order."""
        m = self.first.match(text)
        if m is not None:
            yield 0, m
        for m in self.rest.finditer(text):
            yield m.start() + 1, m


@dataclass(slots=True)
class _Finding:
    """A span of the text an extractor read: its calls, or the problem of a call attempt that does not
    parse, or neither (data or a tool description: text that still claims its span)."""

    start: int
    end: int
    form: str
    calls: list[Call]
    problem: str | None = None
    answer: str | None = None    # an answer object: its text payload, which stands for the span in the prose


@dataclass(frozen=True, slots=True)
class _Answer:
    """A "no tool" pseudo-call (final_answer, respond, …) written in a call format: an answer object."""

    text: str


def _found(start: int, end: int, form: str, got: Call | str | _Answer | None) -> _Finding:
    """The finding of one call, of the call attempt whose problem `got` is, of an answer object, or (None)
    of a call template: text that claims its span."""
    if isinstance(got, Call):
        return _Finding(start=start, end=end, form=form, calls=[got])
    if isinstance(got, _Answer):
        return _Finding(start=start, end=end, form=form, calls=[], answer=got.text)
    return _Finding(start=start, end=end, form=form, calls=[], problem=got)


_JSON = json.JSONDecoder()
_WINDOW = 256                  # first decode window; grows 4x while the value runs past it
_MAX_INT_BITS = (sys.get_int_max_str_digits() or 10 ** 9) * 3.32   # json.dumps can still print it
_MAX_ARG_DEPTH = 16            # nesting inside arguments (no tool has nested parameters)
_MAX_WRAP_DEPTH = 6            # wrappers around a call object ({"candidates": [{"content": {"parts": ...
_MAX_LIST = 256                # a longer list is data, not calls
_MAX_NAME = 100
_MAX_CALL_CHARS = 16_384       # a pythonic call's text
_MAX_LITERAL = 65_536          # a Python-literal call object (or a broken one's bracket scan)
_TOKEN_COST = 128              # budget characters a bracket-scan token costs (a Python-level step) ...
_FREE_TOKENS = 256             # ... beyond this many per scan (a real broken call has a few dozen)
_MAX_CALL_LINES = 64
_NAME = r"[A-Za-z_][\w.\-]{0,%d}" % _MAX_NAME
# A value literal the scanners skip: strings do not span lines (JSON and Python both), so an apostrophe
# in prose costs at most its line. A string is written as runs of plain characters between escapes
# ("unrolled"): the same strings as `"(?:[^"\\\n]|\\.)*+"` (a backslash always starts an escape, so both
# read the same units, possessively), with one engine step per run instead of one per character.
_BRACKET_TOKEN = re.compile(r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|\'[^\'\\\n]*+(?:\\.[^\'\\\n]*+)*+\'|[(\[{]|[)\]}]')
_BRACKET_DEPTH = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1, '"': 0, "'": 0}   # by a token's first character
_OPENING_BRACKETS = ("(", "[", "{")
_CLOSING_BRACKETS = ("}", "]", ")")


def _closer_in(text: str, i: int, limit: int) -> bool:
    """Whether a closing bracket occurs in text[i:limit]. A str.find per kind (a memchr; a class scan costs
    ~7 ns per character), each only up to the nearest closer found so far: a kind the text lacks is never looked
    for past the first "}" (at every call attempt of 1 MB of JSON objects)."""
    end = limit
    for c in _CLOSING_BRACKETS:
        k = text.find(c, i, end)
        if k >= 0:
            end = k
    return end < limit


class _Scan:
    """The text under extraction and the work budgets every extractor draws on.

    Budgets are proportional to len(text), so extraction is linear: `chars` bounds the characters that
    failed decodes and bracket scans may cover (a failed decode at every opener of `[[[[…` would be
    quadratic); `decodes` bounds decode attempts; `steps` bounds the Python-level visits of anchors that
    may find nothing (lines read for pythonic calls, [ARGS] / [TOOL_CALLS] anchors, call markup left
    over), `findings` the findings of all extractors. Real outputs use a small fraction of each.
    """

    def __init__(self, text: str, tools: Toolbox):
        self.text = text
        self.tools = tools           # the offered tools: what names a call's tool and types its arguments
        self.n = n = len(text)
        self.chars = 4 * n + 8192
        self.decodes = n // 256 + 64
        self.steps = n // 64 + 256
        self.findings = n // 256 + 64
        self._delimiters: list[int] | None = None
        # value_at's last value came from ast.literal_eval (not the JSON decoder): the same text can read
        # differently in the two ("\\/" is "/" in JSON, "\\/" in Python), so readings are memoised per reader.
        self.literal = False
        # _extract_json's readings of decoded values, keyed on (the value's exact text, from a literal,
        # wrapped): a reading depends on nothing else (see _cached_reading).
        self.readings: dict[tuple[str, bool, bool], _Reading] = {}

    def decode_json(self, i: int) -> tuple[Any, int] | None:
        """The JSON value at text[i] as (value, end), or None. Decodes a window that grows 4x while the
        value runs past it: the decoder's error costs O(error position) (it counts lines from the start
        of its input), so decoding the whole text at every opener would be quadratic."""
        if self.decodes <= 0 or self.chars <= 0:
            return None
        self.decodes -= 1
        text, n, size = self.text, self.n, _WINDOW
        while True:
            stop = min(n, i + size)
            try:
                value, end = _JSON.raw_decode(text[i:stop])
                return value, i + end
            except json.JSONDecodeError as e:
                cut = stop < n and (e.pos >= stop - i - 8 or e.msg.startswith("Unterminated string"))
                if cut and self.chars > 0:
                    self.chars -= stop - i
                    size *= 4
                    continue
                self.chars -= e.pos + 1
                return None
            except (ValueError, RecursionError, MemoryError):
                # ValueError: an integer over Python's digit limit; RecursionError: nesting ~1000 deep.
                self.chars -= stop - i
                return None

    def balanced_end(self, i: int) -> int | None:
        """The end of the bracket-balanced span opening at text[i] (quotes respected), or None when it
        does not close within the budget."""
        # The scan stops at the next call delimiter (the region of a broken attempt ends there anyway),
        # and each token visited past _FREE_TOKENS costs _TOKEN_COST characters of budget: text dense with
        # brackets costs a Python step every few characters.
        limit = min(i + min(max(self.chars, 0) // 2, _MAX_LITERAL), self.delimiter_after(i), self.n)
        tokens = 0
        text = self.text
        if text[i:i + 1] in _OPENING_BRACKETS:
            # The same walk as the loop below, in C (findall, map, accumulate: no Python step per token; 16 KB
            # of `{"name":` openers took 2 ms), over pieces of the span that end at a newline. Exact: no token
            # holds a newline (strings stop at one), so the pieces' tokens are the span's; the first token is
            # the bracket at i, so the depth is 1 after it and first comes back to 0 at the closer the loop
            # would return at; `tokens` counts the same tokens (up to that closer, or all of them).
            depth, pos, size = 0, i, 512
            if not _closer_in(text, i, limit):
                # No closer at all (16 KB of `{"name":` openers): the depth never comes back to 0, so the walk
                # below would only count the tokens; one findall counts the same ones (2.5x faster).
                tokens, pos = len(_BRACKET_TOKEN.findall(text, i, limit)), limit
            while pos < limit:
                stop = text.find("\n", min(pos + size, limit), limit)
                stop = limit if stop < 0 else stop
                found = _BRACKET_TOKEN.findall(text, pos, stop)
                depths = list(accumulate(map(_BRACKET_DEPTH.__getitem__, map(itemgetter(0), found)), initial=depth))
                try:
                    k = depths.index(0, 1)          # depths[k]: the depth after found[k - 1]
                except ValueError:
                    tokens += len(found)
                    depth, pos, size = depths[-1], stop, size * 4
                    continue
                tokens += k
                end = next(islice(_BRACKET_TOKEN.finditer(text, pos, stop), k - 1, None)).end()
                self.chars -= end - i + _TOKEN_COST * max(0, tokens - _FREE_TOKENS)
                return end
        else:
            depth = 0
            for tokens, m in enumerate(_BRACKET_TOKEN.finditer(text, i, limit), 1):
                c = self.text[m.start()]
                if c in "([{":
                    depth += 1
                elif c in ")]}":
                    depth -= 1
                    if depth == 0:
                        self.chars -= m.end() - i + _TOKEN_COST * max(0, tokens - _FREE_TOKENS)
                        return m.end()
        self.chars -= limit - i + _TOKEN_COST * max(0, tokens - _FREE_TOKENS)
        return None

    def value_at(self, i: int, attempt: bool) -> tuple[Any, int] | int:
        """The JSON value at text[i] as (value, end). When none decodes: i + 1, or, when `attempt` (the
        text there is a call attempt), the Python literal of its bracket-balanced span (single quotes,
        True/None, trailing commas), else the end of the region the attempt covers (that span, or the
        rest of the text when it never closes)."""
        got = self.decode_json(i)
        self.literal = False
        if got is not None or not attempt:
            return got if got is not None else i + 1
        end = self.balanced_end(i)
        stop = self.delimiter_after(i)
        if end is None or end > stop:
            return stop                  # a broken attempt ends where its call's delimiter does
        try:
            value = ast.literal_eval(self.text[i:end])
            self.literal = True
            return value, end
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, OverflowError):
            return end

    def delimiter_after(self, i: int) -> int:
        """Where the first call delimiter after text[i] starts (the end of the text when none): a broken
        call object's region ends there, so it does not swallow a later, well-delimited call."""
        if self._delimiters is None:
            self._delimiters = [m.start() for m in _DELIMITER.finditer(self.text)]
        k = bisect_right(self._delimiters, i)
        return self._delimiters[k] if k < len(self._delimiters) else self.n

    def whole_reply(self, start: int, end: int) -> bool:
        """Whether text[start:end] is all of the text but whitespace, fences and call wrappers."""
        return (_ONLY_WRAPPERS.fullmatch(self.text, 0, start) is not None
                and _ONLY_WRAPPERS.fullmatch(self.text, end, self.n) is not None)


# Tokens and tags that end or start one call (Kimi, DeepSeek, Hermes, harmony, Llama, Mistral, xml, ...).
_DELIMITER = re.compile(r"<\|(?:tool_call_end|tool_call_begin|tool_calls_section_end|call|python_end|start"
                        r"|action_end|END_ACTION|tools_suffix)\|>|</?(?:[\w\-]{1,30}[:_])?tool_calls?>"
                        r"|<[|｜]tool[▁_ ]call[▁_ ](?:begin|end)[|｜]>|\[TOOL_CALLS\]|</function>")
_ONLY_WRAPPERS = re.compile(r"(?:\s|```[\w+\-]*|~~~[\w+\-]*|</?tool_call>|<\|tool_call\|>|<\|python_tag\|>)*")


# ----------------------------------------------------------------------------- reading call objects

_NAME_KEYS = ("name", "tool_name", "tool", "function", "function_name", "action", "recipient_name")
_ARGS_KEYS = ("arguments", "parameters", "args", "input", "action_input", "tool_input", "kwargs", "params")
_STRING_INPUT_KEYS = frozenset({"input", "action_input", "tool_input"})   # LangChain allows a bare string
_WRAPPER_KEYS = ("tool_calls", "toolCalls", "tool_call", "toolCall", "function_call", "functionCall",
                 "function", "tool_use", "tool_uses", "calls", "parts", "content", "candidates", "message", "choices",
                 "delta")
_LISTING_KEYS = ("tools", "functions", "available_tools", "tool_definitions")
_CALL_KEYS = frozenset(_NAME_KEYS + _ARGS_KEYS + ("id", "type", "call_id", "tool_call_id", "index"))
_DESCRIPTION_KEYS = frozenset({"description", "type", "id", "title", "summary", "required", "returns",
                               "example", "examples", "usage", "enum"})
# Pseudo-tools that mean "no tool": LangChain's final answer, Cohere's directly_answer.
_NOT_CALLS = frozenset({"final answer", "final_answer", "finalanswer", "directly_answer", "directly answer",
                        "answer", "none", "respond", "reply"})
_FUNCTION_LIKE = re.compile(r"[a-z][a-z0-9]*(?:[_.\-][a-z0-9]+)+")   # book_flight, functions.x


class _Reading:
    """Calls and problems found in a decoded value."""

    __slots__ = ("calls", "problems", "answers")

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.problems: list[str] = []
        self.answers: list[str] = []      # text payloads of answer objects

    def add(self, got: Call | str | _Answer | None) -> None:
        if isinstance(got, Call):
            self.calls.append(got)
        elif isinstance(got, _Answer):
            self.answers.append(got.text)
        elif got:
            self.problems.append(got)


def _is_schema(value: Any) -> bool:
    """A JSON schema (or a bare properties map) where arguments should be: a tool description."""
    if not isinstance(value, dict) or not value:
        return False
    if isinstance(value.get("properties"), dict) or value.get("type") == "object":
        return True
    return all(isinstance(v, dict) and ("type" in v or "description" in v) for v in value.values())


def _call_name(obj: dict) -> str | None:
    """The tool name a call object gives (LangChain's "action" only beside "action_input")."""
    for k in _NAME_KEYS:
        v = obj.get(k)
        if isinstance(v, str) and v.strip() and (k != "action" or "action_input" in obj):
            # OpenAI's parallel tool_uses address "functions.NAME", the namespace the format imposes.
            return v.strip().removeprefix("functions.") if k == "recipient_name" else v.strip()
    return None


def _args_key(obj: dict) -> str | None:
    return next((k for k in _ARGS_KEYS if k in obj), None)


def _names_a_tool(value: Any) -> bool:
    """A dict that names a tool without giving arguments: {"name": …} alone or with a description or
    schema; also inside OpenAI's {"type": "function", "function": {…}}."""
    if not isinstance(value, dict):
        return False
    if _call_name(value) is None:
        return _names_a_tool(value.get("function"))
    key = _args_key(value)
    return ((key is None or _is_schema(value[key]))
            and all(k in _CALL_KEYS or k in _DESCRIPTION_KEYS for k in value))


def _json_safe(value: Any, depth: int = 0) -> bool:
    """Only what a results file can hold: str keys; str/int/float/bool/None/list/dict values; ints that
    print within Python's digit limit; bounded nesting. (A Python literal may hold sets, bytes, tuples or
    a 4,000-digit hex number, which json.dumps or str() would raise on later.)"""
    if value is None or isinstance(value, (str, bool, float)):
        return True
    if isinstance(value, int):
        return value.bit_length() <= _MAX_INT_BITS
    if depth >= _MAX_ARG_DEPTH:
        return False
    if isinstance(value, list):
        return all(_json_safe(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_safe(v, depth + 1) for k, v in value.items())
    return False


# Values that stand for an argument instead of being one: <city>, {city}, [city name], ..., a JSON-schema
# type. Inside the brackets only a name (a letter first, then letters, digits, spaces, - or _): "[1, 2]" or
# "{1: 2}" are values (wrong ones, maybe), not placeholders.
_PLACEHOLDER = re.compile(r"<[^\W\d][\w \-]{0,59}>|\{\{?\s*[^\W\d][\w \-]{0,59}\s*\}?\}|\[[^\W\d][\w \-]{0,59}\]"
                          r"|\.\.\.|…"
                          r"|(?i:string|str|number|integer|int|float|boolean|bool|array|object)")


def _is_template(args: dict) -> bool:
    """Arguments that are all placeholders: a call described (`{"city": "<city>"}`), not made."""
    return bool(args) and all(isinstance(v, str) and _PLACEHOLDER.fullmatch(v.strip()) for v in args.values())


def _single_required(tools: Toolbox, tool: str) -> str | None:
    t = tools.get(tool)
    return t.required[0] if t is not None and len(t.required) == 1 else None


def _make_call(tools: Toolbox, name: str, args: Any, string_ok: bool = False) -> Call | str | _Answer | None:
    """A Call of `name` with `args` (an object, a JSON string of one, None or ""), the problem, or None
    when the arguments are placeholders (a template); a "no tool" pseudo-call is an _Answer. With
    `string_ok`, a plain string is the value of the tool's only required parameter. The tool is the one of
    `tools` the name refers to, and types the arguments. Every format builds its calls here."""
    tool = tools.canonical_name(name)
    if tool not in tools and name.casefold() in _NOT_CALLS:
        return _Answer(_pseudo_tool_payload({"arguments": args}))
    if isinstance(args, str):
        s = args.strip()
        if not s:
            args = {}
        elif s[0] in "{[":
            try:
                args = json.loads(s)
            except (ValueError, RecursionError) as e:   # ValueError: also a number over the digit limit
                why = e.msg if isinstance(e, json.JSONDecodeError) else type(e).__name__
                return f"arguments of {name!r} are a string that is not JSON ({why})"
        elif string_ok and _single_required(tools, tool):
            args = {_single_required(tools, tool): s}
        else:
            return f"arguments of {name!r} are a string that is not JSON"
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return f"arguments of {name!r} are not an object"
    if not _json_safe(args):
        return f"arguments of {name!r} hold values JSON cannot (sets, bytes, huge numbers or deep nesting)"
    if _is_template(args):
        return None
    return Call(name=name, arguments=type_arguments(tool, args, tools=tools))


def _call_object(tools: Toolbox, name: str, obj: dict) -> Call | str | _Answer | None:
    """Read a dict that names a tool: a Call, the problem of a broken call, or None (data or a
    description of the tool)."""
    key = _args_key(obj)
    args = obj.get(key) if key else None
    # A description: a schema where the arguments go, parameter names listed, or a "description" and no
    # argument object.
    if (_is_schema(args) or (isinstance(args, list) and all(isinstance(a, str) for a in args))
            or ("description" in obj and not (isinstance(args, dict) and args))):
        return None
    tool = tools.canonical_name(name)
    known = tool in tools
    if key is None:
        # Arguments written flat beside the name: {"name": "get_weather", "city": "Paris"}.
        args = {k: v for k, v in obj.items() if k not in _CALL_KEYS}
        if not (known or _FUNCTION_LIKE.fullmatch(name)):
            return None                  # {"name": "Alice", "age": 30}: data
        if known and not all(k in tools[tool].param_index for k in args):
            return None                  # {"tool": "calculator", "purpose": "maths"}: a listing entry
        if args and not known:
            return f"{name!r} is called with its arguments written beside the name"
    elif not known and not all(k in _CALL_KEYS for k in obj):
        return None                      # an object that has a name and, say, "input" among other data
    return _make_call(tools, name, args, string_ok=key in _STRING_INPUT_KEYS)


# Answer objects (SPEC §3.1): an object whose keys are all answer keys or the metadata below, at least one
# answer key holding a string (`{"response": "…"}`, `{"role": "assistant", "content": "…"}`,
# `{"thought": "…", "answer": "…"}`, `{"tool": null, "answer": "…"}`); and a pseudo-tool of _NOT_CALLS
# (`{"name": "final_answer", "arguments": {"answer": "…"}}`, `{"action": "Final Answer", "action_input": "…"}`).
# They are answers, not calls: their text payload (the answer keys' strings; the pseudo-tool's string
# arguments) stands for the object in the prose, so what they say is judged like any answer.
_ANSWER_KEYS = ("response", "answer", "final_answer", "finalAnswer", "reply", "message", "content", "output",
                "result")
_ANSWER_META = frozenset({"role", "type", "thought", "thoughts", "reasoning", "confidence", "status"})
_PARALLEL = re.compile(r"(?:functions\.)?multi_tool_use\.parallel")


def _answer_payload(obj: dict) -> str | None:
    """The text of an answer object (see _ANSWER_KEYS), or None when obj is not one. A call key is
    allowed only empty (`"tool": null`, `"tool_calls": []`): the model saying it calls nothing."""
    texts = [obj[k] for k in _ANSWER_KEYS if isinstance(obj.get(k), str)]
    if not texts:
        return None
    for k, v in obj.items():
        empty_call_key = (k in _CALL_KEYS or k in _WRAPPER_KEYS) and not v
        if not (k in _ANSWER_KEYS or k in _ANSWER_META or empty_call_key):
            return None
    return "\n".join(t.strip() for t in texts)


def _pseudo_tool_payload(obj: dict) -> str:
    """The text a "no tool" pseudo-call carries: its string arguments (or the string input itself)."""
    key = _args_key(obj)
    args = obj.get(key) if key else None
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.lstrip().startswith("{") else args
        except (ValueError, RecursionError):
            pass
    if isinstance(args, dict):
        return "\n".join(v.strip() for v in args.values() if isinstance(v, str))
    return args.strip() if isinstance(args, str) else ""


def _nameless_call(obj: dict) -> bool:
    """A call object whose name is empty or null beside an argument key: a broken call attempt."""
    return (_args_key(obj) is not None and any(k in obj and (obj[k] is None or obj[k] == "") for k in _NAME_KEYS)
            and not any(isinstance(obj.get(k), str) and obj[k].strip() for k in _NAME_KEYS))


def _read(tools: Toolbox, value: Any, out: _Reading, depth: int = 0, wrapped: bool = False) -> None:
    """Collect the calls, broken calls and answer objects in a decoded JSON value: a call object, a list
    of them, or wrappers around them (tool_calls, function_call, functionCall, parts, candidates, ...).
    `wrapped`: the value stands in a tool-call wrapper, where `{"NAME": {args}}` is a call (Apertus,
    name-as-key lists)."""
    if depth > _MAX_WRAP_DEPTH:
        return
    if isinstance(value, list):
        # A list of tools named without arguments is a listing ("which tools do you have?").
        if len(value) > _MAX_LIST or (len(value) > 1 and all(_names_a_tool(v) for v in value)):
            return
        for v in value:
            _read(tools, v, out, depth + 1, wrapped)
        return
    if not isinstance(value, dict) or any(isinstance(value.get(k), (list, dict)) for k in _LISTING_KEYS):
        return
    name = _call_name(value)
    if name is not None:
        _read_named(tools, name, value, out, depth)
        return
    answer = _answer_payload(value)
    if answer is not None:
        out.answers.append(answer)
    elif _nameless_call(value) or (wrapped and _args_key(value) is not None):
        out.problems.append("a call object without a tool name")
    elif wrapped and len(value) == 1 and isinstance(next(iter(value.values())), dict) \
            and next(iter(value)) not in _WRAPPER_KEYS and next(iter(value)) not in _CALL_KEYS:
        out.add(_make_call(tools, *next(iter(value.items()))))
    else:
        for k in _WRAPPER_KEYS:
            v = value.get(k)
            if isinstance(v, (dict, list)):
                _read(tools, v, out, depth + 1, wrapped)


def _read_named(tools: Toolbox, name: str, obj: dict, out: _Reading, depth: int) -> None:
    """A dict that names a tool: a call, OpenAI's multi_tool_use.parallel (its tool_uses are the calls),
    or a "no tool" pseudo-call (an answer)."""
    if name.endswith("parallel") and _PARALLEL.fullmatch(name):
        key = _args_key(obj)
        args = obj.get(key) if key else None
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except (ValueError, RecursionError):
                pass
        if isinstance(args, dict) and isinstance(args.get("tool_uses"), list):
            _read(tools, args["tool_uses"], out, depth + 1)
        else:
            out.problems.append("multi_tool_use.parallel without a list of tool_uses")
    elif name.casefold() in _NOT_CALLS:
        out.answers.append(_pseudo_tool_payload(obj))      # whatever keys it has besides
    else:
        out.add(_call_object(tools, name, obj))


def _bare_args_call(tools: Toolbox, value: Any) -> Call | None:
    """An argument object whose keys fit exactly one tool of `tools`' schema (all its required parameters,
    no unknown key)."""
    if not isinstance(value, dict) or not value or not _json_safe(value):
        return None
    keys = set(value)
    fits = [t for t in tools.values() if keys <= set(t.param_index) and set(t.required) <= keys]
    return Call(name=fits[0].name, arguments=type_arguments(fits[0].name, value, tools=tools)) if len(fits) == 1 \
        else None


# ----------------------------------------------------------------------------- json

# Where a decode is tried: an object that starts like one (a quoted key, or empty); a "[" right before it
# (whitespace between) is tried first, as a list of objects. Only "{" is searched for: a pattern that also
# starts at "[" loses the regex engine's literal scan and costs 8x more.
_JSON_START = re.compile(r"\{(?=\s*[\"'}])")
# A _JSON_START match needs one of these after its "{": a text with none of them (16 KB of "{" or "[{") skips the
# scan, whose first character stops it at every "{".
_JSON_START_NEEDS = ('"', "'", "}")
# An opener that starts a call object (first key a call key): when it does not decode, it is a broken
# call attempt.
_CALL_OBJECT_OPENER = (r"\{\s*[\"'](?:name|function|function_call|functionCall|tool_calls|tool_call|tool_name|"
                       r"tool|action|arguments)[\"']\s*:")
_CALLISH = re.compile(r"[\[\s]*" + _CALL_OBJECT_OPENER)
# Keys that only tool descriptions and listings have (see _is_schema / _LISTING_KEYS).
_DESCRIBES = re.compile(r"[\"'](?:description|properties|tools|functions|available_tools)[\"']\s*:"
                        r"|[\"']type[\"']\s*:\s*[\"']object[\"']")


def _list_opener(text: str, i: int, floor: int) -> int | None:
    """The "[" that opens a list whose first element is the object at text[i], if any (not before floor)."""
    k = i
    while k > floor and i - k < 64 and text[k - 1] in " \t\r\n":
        k -= 1
    return k - 1 if k > floor and text[k - 1] == "[" else None


def _cached_reading(scan: _Scan, value: Any, start: int, end: int, wrapped: bool) -> _Reading:
    """The reading of `value`, the value decoded from scan.text[start:end], exactly as `_read(value, reading,
    wrapped=wrapped)` fills a new _Reading; shared with earlier values of the same text (treat it as read-only).

    Why this is exact: _read depends only on the value, `wrapped` and the offered tools (scan.tools, fixed
    during one extract), and the value is a function of its text and of the reader that produced it (JSON decoder or
    ast.literal_eval, scan.literal): the same text decodes to an equal value. Why: an output that repeats one
    call object thousands of times (1 MB of calls in prose) would read each one again (~25 µs apiece)."""
    key = (scan.text[start:end], scan.literal, wrapped)
    reading = scan.readings.get(key)
    if reading is None:
        reading = _Reading()
        _read(scan.tools, value, reading, wrapped=wrapped)
        scan.readings[key] = reading
    return reading


def _extract_json(scan: _Scan) -> Iterator[_Finding]:
    text = scan.text
    if not any(c in text for c in _JSON_START_NEEDS):
        return
    i = 0
    while scan.decodes > 0 and scan.chars > 0:
        m = _JSON_START.search(text, i)
        if m is None:
            return
        opener = _list_opener(text, m.start(), i)
        got: tuple[Any, int] | int = m.start() + 1
        for start in ((opener, m.start()) if opener is not None else (m.start(),)):
            attempt = _CALLISH.match(text, start) is not None
            got = scan.value_at(start, attempt)
            if not isinstance(got, int):
                break
            if attempt:
                # A listing cut off (max tokens) already shows what it is: text, not a call attempt.
                listing = _DESCRIBES.search(text, start, got) is not None
                yield _found(start, got, "json", None if listing else "a JSON call object that does not parse")
                break
        if isinstance(got, int):
            i = got
            continue
        value, end = got
        reading = _cached_reading(scan, value, start, end, False)
        if not (reading.calls or reading.problems or reading.answers) \
                and _wrapper_before(text, max(0, start - 80), start) is not None:
            # only a wrapper makes {"NAME": {args}} a call (a wrapped read of an empty reading is the wrapped
            # reading alone: the first read added nothing)
            reading = _cached_reading(scan, value, start, end, True)
        if reading.calls or reading.problems:
            yield _Finding(start=start, end=end, form="json", calls=list(reading.calls),
                           problem="; ".join(reading.problems) or None)
        elif reading.answers:
            yield _Finding(start=start, end=end, form="json", calls=[], answer="\n".join(reading.answers))
        else:
            bare = _bare_args_call(scan.tools, value) if scan.whole_reply(start, end) else None
            yield _found(start, end, "bare_args", bare) if bare else _found(start, end, "json", None)
        i = end


# ----------------------------------------------------------------------------- tag formats

@dataclass(frozen=True)
class _TagForm:
    """A call written as an opening tag naming the tool, argument pairs, and a closing tag."""

    form: str
    opener: re.Pattern      # group "name"
    closer: re.Pattern
    pair: re.Pattern        # groups "key", "value"; optionally "json" (DSML string="false": a JSON value)
    pair_open: str          # literal that opens a pair (counted against the pairs parsed)
    pair_close: str         # literal that closes a pair (bounds the lazy pair search)
    hint: str               # a literal every such call contains
    lenient: re.Pattern | None = None   # pairs that may omit their closer (used when closers are missing)
    headless: re.Pattern | None = None  # a call at the very start whose opening tag was in the prompt


_TAG_FORMS = (
    _TagForm("xml", re.compile(r"<function=\s{0,20}(?P<name>[^<>\s]{1,%d})\s{0,20}>" % _MAX_NAME),
             re.compile(r"</function>"),
             re.compile(r"<parameter=\s{0,20}(?P<key>[^<>\s]{1,%d})\s{0,20}>(?P<value>.*?)</parameter>" % _MAX_NAME,
                        re.S),
             "<parameter=", "</parameter>", "<function=",
             # Qwen3-Coder sometimes omits </parameter> before the next <parameter=…> or </function>
             # (vLLM and SGLang accept it). Then every key must be a name: `<parameter=amount=1500>` with
             # no closer (a small model's garbled attempt) stays a broken call.
             re.compile(r"<parameter=\s{0,20}(?P<key>[^<>\s=\"']{1,%d})\s{0,20}>(?P<value>.*?)"
                        r"(?:</parameter>|(?=<parameter=)|\Z)" % _MAX_NAME, re.S)),
    # Anthropic-style, MiniMax (<minimax:tool_call>), Step-3 (steptml:), DeepSeek-V3.2 DSML (<｜DSML｜invoke>,
    # its parameters typed by string="true|false": "false" means the value is JSON).
    _TagForm("invoke", re.compile(r"<(?:[\w\-]{1,30}:|[|｜]DSML[|｜])?invoke\s+name\s*=\s*"
                                  r"[\"'](?P<name>[^\"'<>]{1,%d})[\"']\s*>" % _MAX_NAME),
             re.compile(r"</(?:[\w\-]{1,30}:|[|｜]DSML[|｜])?invoke>"),
             re.compile(r"<(?:[\w\-]{1,30}:|[|｜]DSML[|｜])?parameter\s+name\s*=\s*[\"'](?P<key>[^\"'<>]{1,%d})[\"']"
                        r"(?:\s+string\s*=\s*[\"'](?:true|(?P<json>false))[\"'])?\s*>"
                        r"(?P<value>.*?)</(?:[\w\-]{1,30}:|[|｜]DSML[|｜])?parameter>" % _MAX_NAME, re.S),
             "parameter name", "parameter>", "invoke"),
    # MiniCPM4: <function name="NAME"><param name="K">V</param></function>
    _TagForm("minicpm", re.compile(r"<function\s+name\s*=\s*[\"'](?P<name>[^\"'<>]{1,%d})[\"']\s*>" % _MAX_NAME),
             re.compile(r"</function>"),
             re.compile(r"<param\s+name\s*=\s*[\"'](?P<key>[^\"'<>]{1,%d})[\"']\s*>(?P<value>.*?)</param>" % _MAX_NAME,
                        re.S),
             "<param ", "</param>", "<function "),
    _TagForm("glm", re.compile(r"<tool_call>[ \t]*(?P<name>%s)[ \t]*(?=\s*(?:<arg_key>|</tool_call>|\{))" % _NAME),
             re.compile(r"</tool_call>"),
             re.compile(r"<arg_key>\s*(?P<key>[^<>]{1,%d}?)\s*</arg_key>\s*<arg_value>(?P<value>.*?)</arg_value>"
                        % _MAX_NAME, re.S),
             "<arg_key>", "</arg_value>", "tool_call>",
             # vLLM's glm4_tool_only template ends with <tool_call>: the reply starts with NAME<arg_key>….
             headless=re.compile(r"\s*(?P<name>%s)[ \t]*(?=\s*<arg_key>)" % _NAME)),
)


def _clean_value(value: str) -> str:
    """A tag value without the newline the formats put after the opening and before the closing tag."""
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value.strip()


def _tag_value(pair: re.Match) -> Any:
    """A pair's value: text, or the JSON value where the format says so (DSML string="false"; a value that
    is not JSON stays text)."""
    value = _clean_value(pair.group("value"))
    if "json" in pair.re.groupindex and pair.group("json"):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def _tag_call(scan: _Scan, spec: _TagForm, m: re.Match, close: re.Match) -> _Finding:
    text, name = scan.text, m.group("name").strip()
    start, end = m.start(), close.end()
    bs, be = m.end(), close.start()
    n_pairs = text.count(spec.pair_open, bs, be)
    args: Any = {}
    if n_pairs:
        closes = text.count(spec.pair_close, bs, be)
        if closes < n_pairs and spec.lenient is not None:
            pairs = list(spec.lenient.finditer(text, bs, be))
        else:
            bound = text.rfind(spec.pair_close, bs, be)
            pairs = list(spec.pair.finditer(text, bs, bound + len(spec.pair_close))) if bound >= 0 else []
        if len(pairs) != n_pairs or closes > n_pairs or (closes < n_pairs and spec.lenient is None):
            return _found(start, end, spec.form, f"unbalanced argument tags in the call of {name!r}")
        args = {p.group("key").strip(): _tag_value(p) for p in pairs}
    else:
        body = text[bs:be]
        j = bs + len(body) - len(body.lstrip())
        if j < be and text[j] == "{":        # Llama 3.1 <function=NAME>{json}</function>
            got = scan.value_at(j, True)
            if isinstance(got, int) or got[1] > be:
                return _found(start, end, spec.form, f"the JSON arguments of {name!r} do not parse")
            args = got[0]
    return _found(start, end, spec.form, _make_call(scan.tools, name, args))


def _extract_tags(scan: _Scan, spec: _TagForm) -> Iterator[_Finding]:
    """Each opener with the first closer after it. An opener whose closer comes only after the next
    opener (or never) is not closed: a broken attempt up to that next opener. Linear: one pass over the
    openers and one over the closers."""
    openers = list(spec.opener.finditer(scan.text))
    head = spec.headless.match(scan.text) if spec.headless is not None else None
    if head is not None and (not openers or openers[0].start() > 0):
        openers.insert(0, head)
    if not openers:
        return
    closers = list(spec.closer.finditer(scan.text))
    ci = 0
    for k, m in enumerate(openers):
        nxt = openers[k + 1].start() if k + 1 < len(openers) else scan.n
        while ci < len(closers) and closers[ci].start() < m.end():
            ci += 1
        if ci == len(closers):
            # No closer left: this and every later opener are unclosed; one attempt to the end (one
            # finding per opener made `<function=x>` * 100,000 slow).
            yield _found(m.start(), scan.n, spec.form, f"the call of {m.group('name')!r} is not closed")
            return
        if closers[ci].start() >= nxt:
            yield _found(m.start(), nxt, spec.form, f"the call of {m.group('name')!r} is not closed")
        else:
            yield _tag_call(scan, spec, m, closers[ci])


# ----------------------------------------------------------------------------- header + JSON formats

# gpt-oss: the recipient "to=functions.NAME", found by its literal; the header before it (read backwards
# within 64 characters) and the channel/constrain/message tokens after it belong to the call.
# "to=" alone also occurs in prose and URLs (?lang=en&to=de): a call needs the functions. namespace, or a
# harmony token or JSON arguments right after the name (the lookahead keeps plain "to=" out of Python).
_HARMONY = re.compile(r"to=(?=functions\.|[\w.\-]{1,201}\s*(?:<\||json|\{))(?P<ns>functions\.)?"
                      r"(?P<name>[A-Za-z_][\w\-]{0,%d}(?:\.[A-Za-z_][\w\-]{0,%d})?)"
                      r"(?:\s*(?:<\|channel\|>\s*(?:commentary|analysis)|<\|constrain\|>\s*json|json"
                      r"|<\|message\|>))*\s*"
                      % (_MAX_NAME, _MAX_NAME))
_HARMONY_HEAD = re.compile(r"(?:<\|start\|>\s*)?(?:assistant\s*)?(?:<\|channel\|>\s*)?"
                           r"(?:(?:commentary|analysis)\s*)?\Z")
_KIMI = re.compile(r"<\|tool_call_begin\|>\s*(?:functions\.)?(?P<name>[A-Za-z_][\w\-]{0,%d}(?:\.[\w\-]{1,%d})?)"
                   r"(?::\d{1,6})?\s*<\|tool_call_argument_begin\|>\s*" % (_MAX_NAME, _MAX_NAME))
_DS_SEP = r"<[|｜]tool[▁_ ]sep[|｜]>"
_DEEPSEEK = re.compile(r"<[|｜]tool[▁_ ]call[▁_ ]begin[|｜]>\s*(?:function\s*%s\s*(?P<name>%s)|(?P<name2>%s)\s*%s)"
                       r"\s*(?:```(?:json)?\s*)?" % (_DS_SEP, _NAME, _NAME, _DS_SEP))
_MISTRAL = re.compile(r"\[TOOL_CALLS\]\s*(?:(?P<name>[A-Za-z_][\w\-]{0,%d}(?:\.[\w\-]{1,%d})?)\s*"
                      r"(?:\[CALL_ID\]\s*[\w\-]{1,64}\s*)?(?:\[ARGS\]\s*)?)?" % (_MAX_NAME, _MAX_NAME))
# `NAME[ARGS]` without [TOOL_CALLS] is matched backwards from [ARGS] on the reversed text (a forward
# search would try every word start with a 100-character name pattern).
_MISTRAL_BACK = re.compile(r"\s*(?:[\w\-]{1,64}\s*\]DI_LLAC\[\s*)?(?P<eman>[\w.\-]{1,%d})" % (_MAX_NAME + 1))
_ARGS_TOKEN = re.compile(r"\[ARGS\]\s*")
# ReAct's final answer label (also **bold**): an answer object whose payload is the text after it.
_FINAL_ANSWER = _LineRegex(r"[ \t]*(?:\*\*)?Final[ \t]+Answer[ \t]*(?:\*\*)?[ \t]*:[ \t]*(?:\*\*)?[ \t]*")
# Functionary v3.2: ">>>NAME\n{json}" per call (several in a row), ">>>all\n" before plain text.
_FUNCTIONARY = re.compile(r">>>[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,%d})[ \t]*\r?\n\s*" % _MAX_NAME)
# Gemma 4 `<|tool_call>call:NAME{k:<|"|>text<|"|>,n:3}<tool_call|>` and FunctionGemma
# `<start_function_call>call:NAME{k:<escape>text<escape>}<end_function_call>`: unquoted keys, strings between
# the delimiter tokens, bare numbers / true / false.
_GEMMA = re.compile(r"(?:<\|tool_call>|<start_function_call>)\s*call\s*:\s*(?P<name>%s)\s*\{" % _NAME)
_GEMMA_END = re.compile(r"<tool_call\|>|<end_function_call>|(?P<next><\|tool_call>|<start_function_call>)")
_GEMMA_KEY = re.compile(r"(\A\s*|[{,]\s*)([A-Za-z_][\w\-.]{0,100})\s*:")
_GEMMA_BARE = re.compile(r"(:\s*)(?!true\b|false\b|null\b)([A-Za-z_][^,{}\[\]\n]{0,200}?)(\s*(?:[,}\]]|\Z))")


def _gemma_arguments(body: str) -> Any:
    """The arguments object of a Gemma call body (between its braces), or None when it does not read."""
    delim = '<|"|>' if '<|"|>' in body else "<escape>"
    parts = body.split(delim)
    if len(parts) % 2 == 0:
        return None                      # a string never closed
    out = [json.dumps(part, ensure_ascii=False) if k % 2              # a string's text, quoted for JSON
           else _GEMMA_BARE.sub(r'\1"\2"\3', _GEMMA_KEY.sub(r'\1"\2":', part))   # keys and bare words quoted
           for k, part in enumerate(parts)]
    try:
        return json.loads("{" + "".join(out) + "}")
    except (ValueError, RecursionError):
        return None


def _gemma_call(scan: _Scan, m: re.Match) -> _Finding:
    """One Gemma call: its body runs to the closing token (a call without one is broken)."""
    text, name = scan.text, m.group("name")
    end = _GEMMA_END.search(text, m.end(), min(scan.n, m.end() + _MAX_LITERAL))
    scan.chars -= (end.start() if end else min(scan.n, m.end() + _MAX_LITERAL)) - m.end()
    if end is None or end.group("next"):
        return _found(m.start(), end.start() if end else scan.n, "gemma", f"the call of {name!r} is not closed")
    body = text[m.end():end.start()].rstrip()
    args = _gemma_arguments(body[:-1]) if body.endswith("}") else None
    if args is None:
        return _found(m.start(), end.end(), "gemma", f"the arguments of {name!r} do not parse")
    return _found(m.start(), end.end(), "gemma", _make_call(scan.tools, name, args))


_REACT = _LineRegex(r"[ \t]*Action[ \t]*:[ \t]*`?(?P<name>[^`\n]{1,%d}?)`?[ \t]*\r?\n[ \t]*Action[ \t]*Input[ \t]*:"
                    r"[ \t]*" % _MAX_NAME)


def _header_call(scan: _Scan, start: int, name: str, pos: int, form: str,
                 string_ok: bool = False) -> _Finding:
    """The call whose header (naming the tool) spans text[start:pos] and whose arguments follow: a JSON
    object, or with `string_ok` the rest of the line as the value of the tool's only required parameter.
    Without either, the header is a broken call attempt."""
    text = scan.text
    if pos < scan.n and text[pos] == "{":
        got = scan.value_at(pos, True)
        if isinstance(got, int):
            return _found(start, got, form, f"the JSON arguments of {name!r} do not parse")
        if _PARALLEL.fullmatch(name):
            reading = _Reading()
            _read_named(scan.tools, name, {"name": name, "arguments": got[0]}, reading, 0)
            return _Finding(start=start, end=got[1], form=form, calls=reading.calls,
                            problem="; ".join(reading.problems) or None,
                            answer="\n".join(reading.answers) if reading.answers else None)
        return _found(start, got[1], form, _make_call(scan.tools, name, got[0]))
    if string_ok:
        end = text.find("\n", pos)
        end = scan.n if end < 0 else end
        return _found(start, end, form, _make_call(scan.tools, name, text[pos:end].strip().strip("\"'`"),
                                                   string_ok=True))
    return _found(start, max(pos, start + 1), form, f"no JSON arguments after the call of {name!r}")


def _extract_headers(scan: _Scan) -> Iterator[_Finding]:
    text = scan.text
    if occurs("to=", text):
        for m in _HARMONY.finditer(text):
            if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
                continue                 # redirect_to=…: not the recipient
            lo, head = max(0, m.start() - 64), m.start()
            if any(h in text[lo:head] for h in ("<|", "assistant", "commentary", "analysis")):
                header = _HARMONY_HEAD.search(text, lo, head)
                assert header is not None    # every part of it is optional: it matches, empty at worst
                head = header.start()
            yield _header_call(scan, head, m.group("name"), m.end(), "harmony")
    if occurs("tool_call_begin", text) or occurs("tool▁call▁begin", text):
        for m in _KIMI.finditer(text):
            yield _header_call(scan, m.start(), m.group("name"), m.end(), "kimi")
        for m in _DEEPSEEK.finditer(text):
            yield _header_call(scan, m.start(), m.group("name") or m.group("name2"), m.end(), "deepseek")
    if occurs("[TOOL_CALLS]", text):
        for m in _MISTRAL.finditer(text):
            scan.steps -= 1
            if scan.steps < 0:
                break
            if m.group("name"):
                yield _header_call(scan, m.start(), m.group("name"), m.end(), "mistral")
    if occurs("[ARGS]", text):
        for a in _ARGS_TOKEN.finditer(text):
            q = a.start()
            scan.steps -= 1
            if scan.steps < 0:
                break
            if not q or not (text[q - 1].isalnum() or text[q - 1] in "_-. \t\n"):
                continue                 # [ARGS][ARGS]…: no name before it
            back = _MISTRAL_BACK.match(text[max(0, q - 2 * _MAX_NAME - 80):q][::-1])
            if back is None:
                continue
            name_end = q - back.start("eman")
            name = text[q - back.end("eman"):name_end].lstrip("0123456789.-")
            if name:
                yield _header_call(scan, name_end - len(name), name, a.end(), "mistral")
    if occurs("call", text) and (occurs("<|tool_call>", text) or occurs("<start_function_call>", text)):
        for m in _GEMMA.finditer(text):
            scan.steps -= 4
            if scan.steps < 0 or scan.chars <= 0:
                break
            yield _gemma_call(scan, m)
    if occurs("Action", text):
        for start, m in _REACT.finditer(text):
            if m.group("name").casefold() in _NOT_CALLS and not text.startswith("{", m.end()):
                # "Action: Final Answer" + "Action Input: …": the input, to the end, is the answer.
                yield _Finding(start, scan.n, "react", [], answer=text[m.end():].strip().strip("\"'`"))
            else:
                yield _header_call(scan, start, m.group("name"), m.end(), "react", string_ok=True)
    if occurs("Final", text):
        for start, m in _FINAL_ANSWER.finditer(text):
            yield _Finding(start, m.end(), "react", [], answer="")     # the label; the answer follows it
    if occurs(">>>", text):
        for m in _FUNCTIONARY.finditer(text):
            scan.steps -= 1
            if scan.steps < 0:
                break
            if m.group("name") == "all":                  # ">>>all": the text that follows is the answer
                yield _Finding(m.start(), m.end(), "functionary", [], answer="")
            elif text.startswith("{", m.end()):
                yield _header_call(scan, m.start(), m.group("name"), m.end(), "functionary")


# ----------------------------------------------------------------------------- pythonic

# A line that starts a call (or a list of calls): optional indentation and Llama's <|python_tag|> /
# <|python_start|>, then NAME( or [NAME(. The match ends where the expression starts.
_PY_START = _LineRegex(r"[ \t]*(?:<\|python_tag\|>|<\|python_start\|>|<tool_call>|```[\w\-]*)?[ \t]*"
                       r"(?=\[?\s{0,40}[A-Za-z_][\w.]{0,%d}[ \t]*\()" % _MAX_NAME)
_PY_TAILS = ("<|python_end|>", "<|eom_id|>", "<|eot_id|>", "</tool_call>", ";", "```")


def _call_span_end(scan: _Scan, start: int) -> int | None:
    """Where the call expression starting at text[start] ends: the end of the first line (of at most
    _MAX_CALL_LINES) where its brackets balance. Counting is per appended line, so the cost is linear in
    the expression's length."""
    text, n = scan.text, scan.n
    end, depth = start, 0
    for _ in range(_MAX_CALL_LINES):
        if scan.steps <= 0:
            return None
        scan.steps -= 1
        nl = text.find("\n", end + 1 if end > start else end)
        nl = n if nl < 0 else nl
        line = text[end:nl]
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        end = nl
        if depth <= 0:
            return end
        if end >= n or end - start > _MAX_CALL_CHARS:
            return None
    return None


_JSON_LITERALS = {"true": True, "false": False, "null": None}


class _JsonLiterals(ast.NodeTransformer):
    """JSON's true/false/null written inside a Python call (Olmo 3 and others do): the constants."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Constant(_JSON_LITERALS[node.id]) if node.id in _JSON_LITERALS else node


def _literal(node: ast.AST) -> tuple[bool, Any]:
    for attempt in (node, None):
        try:
            return True, ast.literal_eval(attempt if attempt is not None else _JsonLiterals().visit(node))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, OverflowError):
            continue
    return False, None


def _python_call(tools: Toolbox, node: ast.AST | None) -> Call | str | _Answer | None:
    """A Call from an ast.Call whose callee is a (dotted) name and whose arguments are literals; None
    otherwise (or a template), a problem string when the arguments cannot be held."""
    if not isinstance(node, ast.Call):
        return None
    if (isinstance(node.func, ast.Name) and node.func.id == "print" and len(node.args) == 1
            and not node.keywords and isinstance(node.args[0], ast.Call)):
        node = node.args[0]              # Gemma's ```tool_code print(get_weather(city="Paris"))
    parts = []
    func = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    name = ".".join([func.id, *reversed(parts)])
    name = name[:-5] if name.endswith(".call") else name      # Llama 3.1 built-ins: brave_search.call(...)
    tool = tools.canonical_name(name)
    params = [p.name for p in tools[tool].params] if tool in tools else []
    if tool not in tools and name.casefold() in _NOT_CALLS:
        # final_answer("…") / respond(text="…"): an answer object whose payload is its string arguments.
        values = [_literal(v) for v in (*node.args, *(k.value for k in node.keywords))]
        if not values or not all(ok and isinstance(v, str) for ok, v in values):
            return None
        return _Answer("\n".join(v.strip() for _, v in values))
    # An unknown name counts only with keyword arguments: sqrt(144) or print(x) on a line is code.
    if (not params and (node.args or not node.keywords)) or len(node.args) > len(params):
        return None
    args: dict[str, Any] = {}
    for key, value in [*zip(params, node.args), *((k.arg, k.value) for k in node.keywords)]:
        ok, args_value = _literal(value)
        if key is None or not ok:        # **kwargs, or a value that is not a literal
            return None
        args[key] = args_value
    return _make_call(tools, name, args)


# Tokens and tags that mark what follows as pythonic calls, wherever they stand (after prose on the same
# line too): Llama 4 <|python_start|>…<|python_end|>, Olmo 3 <function_calls>…</function_calls> (one call a
# line), MiniCPM/LFM2 <|tool_call_start|>…<|tool_call_end|>. The body may be fenced.
_PY_WRAPPED = re.compile(r"(?:<\|python_start\|>|<function_calls>|<\|tool_call_start\|>)\s*(?:```[\w\-]*\s*)?"
                         r"(?=\[?\s{0,40}[A-Za-z_][\w.]{0,%d}[ \t]*\()" % _MAX_NAME)
# Where a wrapped body ends: its closer, or the next wrapper opener (the closer was left out).
_PY_WRAPPED_END = re.compile(r"<\|python_end\|>|</function_calls>|<\|tool_call_end\|>|<\|eom_id\|>|<\|eot_id\|>"
                             r"|(?P<next><\|python_start\|>|<function_calls>|<\|tool_call_start\|>)")


def _python_finding(tools: Toolbox, start: int, end: int, expr: str) -> _Finding | None:
    """The finding of a pythonic expression: statements that are each a call or a list/tuple of calls, where
    a "no tool" pseudo-call (final_answer("…")) is an answer; None when it does not parse or holds anything
    else (code, templates, values no file can hold)."""
    try:
        tree = ast.parse(expr, mode="exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError, OverflowError):
        return None
    calls: list[Call] = []
    answers: list[str] = []
    for stmt in tree.body:
        node = stmt.value if isinstance(stmt, ast.Expr) else None
        items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
        for got in [_python_call(tools, item) for item in items] if items else [None]:
            if isinstance(got, Call):
                calls.append(got)
            elif isinstance(got, _Answer):
                answers.append(got.text)
            else:
                return None
    if not calls and not answers:
        return None
    return _Finding(start=start, end=end, form="pythonic", calls=calls, answer="\n".join(answers) if answers else None)


def _extract_wrapped_pythonic(scan: _Scan) -> Iterator[_Finding]:
    """Pythonic calls inside the wrappers of _PY_WRAPPED, up to the wrapper's end (or the text's)."""
    text = scan.text
    for m in _PY_WRAPPED.finditer(text):
        scan.steps -= 8                  # a parse per opener: real outputs have one or two
        if scan.steps < 0 or scan.chars <= 0:
            return
        end_m = _PY_WRAPPED_END.search(text, m.end(), min(scan.n, m.end() + _MAX_CALL_CHARS))
        body_end = end_m.start() if end_m else min(scan.n, m.end() + _MAX_CALL_CHARS)
        if end_m is not None and end_m.group("next"):
            end_m = None                 # not closed: the body ends where the next wrapper starts
        scan.chars -= 4 * (body_end - m.end())      # ast.parse costs more than a regex scan
        expr = text[m.end():body_end].strip()
        expr = expr[:-3].rstrip() if expr.endswith("```") else expr
        found = _python_finding(scan.tools, m.start(), end_m.end() if end_m else body_end, expr) \
            if expr.endswith((")", "]")) else None
        if found is not None:
            yield found


def _extract_pythonic(scan: _Scan) -> Iterator[_Finding]:
    text = scan.text
    if occurs("python_start", text) or occurs("function_calls", text) or occurs("tool_call_start", text):
        yield from _extract_wrapped_pythonic(scan)
    for line_start, m in _PY_START.finditer(text):
        if scan.steps <= 0:
            return
        start = m.end()
        end = _call_span_end(scan, start)
        if end is None:
            continue
        expr = text[start:end].rstrip()
        while expr.endswith(_PY_TAILS):
            expr = expr[:-len(next(t for t in _PY_TAILS if expr.endswith(t)))].rstrip()
        if not expr.endswith((")", "]")):
            continue                     # text after the call: a mention inside a sentence
        found = _python_finding(scan.tools, line_start, end, expr)
        if found is not None:
            yield found


# ----------------------------------------------------------------------------- plain

# "TOOL RESULT" lines echo the history's tool results; they are not calls.
_PLAIN_LINE = _LineRegex(r"[ \t]*TOOL:?[ \t]+(?!RESULT\b)([^\n]*)")
_PLAIN_NAME = re.compile(r"([A-Za-z_][\w.\-]{0,%d})\s*" % _MAX_NAME)
_PLAIN_KEY = re.compile(r"\s*([A-Za-z_]\w{0,%d})\s*=\s*" % _MAX_NAME)
_PLAIN_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*+"')
_PLAIN_SEP = re.compile(r"\s*(?:\||\Z)")


def _plain_args(rest: str, line: str) -> dict[str, str] | str:
    """The `k=v | k="v"` pairs after the tool name, or the problem. One left-to-right pass."""
    args: dict[str, str] = {}
    pos = 0
    while pos < len(rest):
        key = _PLAIN_KEY.match(rest, pos)
        if key is None:
            return f"cannot read 'key=value' in {line!r}"
        pos = key.end()
        if rest.startswith('"', pos):
            quoted = _PLAIN_QUOTED.match(rest, pos)
            if quoted is None:
                # An opened quote never closed: not a value with its last letter cut off.
                return f"unterminated quoted value in {line!r}"
            sep = _PLAIN_SEP.match(rest, quoted.end())
            if sep is None:
                return f"text after a quoted value in {line!r}"
            try:
                value = json.loads(quoted.group())
            except ValueError:
                value = quoted.group()[1:-1]
            pos = sep.end()
        else:
            bar = rest.find("|", pos)
            bar = len(rest) if bar < 0 else bar
            value, pos = rest[pos:bar].strip(), bar + 1
        args[key.group(1)] = value
    return args


def _plain_call(tools: Toolbox, content: str, line: str) -> Call | str | _Answer | None:
    """The call on a `TOOL name | k=v | …` line (content after "TOOL"), the problem, or None (a template)."""
    head = _PLAIN_NAME.match(content)
    if head is None:
        return f"cannot read a tool name in line {line!r}"
    rest = content[head.end():]
    if rest and not rest.startswith("|"):
        return f"expected '|' after the tool name in {line!r}"
    args = _plain_args(rest[1:], line)
    return args if isinstance(args, str) else _make_call(tools, head.group(1), args)


def _extract_plain(scan: _Scan) -> Iterator[_Finding]:
    if "TOOL" not in scan.text:
        return
    for start, m in _PLAIN_LINE.finditer(scan.text):
        yield _found(start, m.end(), "plain", _plain_call(scan.tools, m.group(1).strip(), m.group(0).strip()))


# ----------------------------------------------------------------------------- extractors

def _extractors(scan: _Scan) -> Iterator[_Finding]:
    """Every extractor's findings (each starts only where its format's anchor occurs), up to the
    findings budget."""
    for found in _all_findings(scan):
        if scan.findings <= 0:
            return
        scan.findings -= 1
        yield found


# ----------------------------------------------------------------------------- JSON5 and YAML call objects

# A JSON5 object (unquoted keys, single quotes, trailing commas) whose first key is a call key:
# `{name: "web_search", arguments: {query: "…"}}`. Read with json5 (pinned) from its opener to the matching
# brace, at most _JSON5_TRIES objects of at most _JSON5_CHARS characters each (json5 is pure Python).
_JSON5_OPENER = re.compile(r"\{\s*(?:name|function|tool|tool_name|arguments)\s*:")
# Every key of _JSON5_OPENER holds one of these letters: a text with neither (16 KB of "{") skips the scan, which
# stops at every "{". Single characters: `c in text` is a memchr, a word's search costs ~10 us on 16 KB.
_JSON5_KEY_LETTERS = ("n", "t")
_JSON5_TRIES = 16
_JSON5_CHARS = 4096


def _balanced_end(text: str, start: int, limit: int) -> int | None:
    """The index after the brace that closes the one at text[start], strings skipped; None within limit."""
    depth, quote, i = 0, "", start
    stop = min(len(text), start + limit)
    while i < stop:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _extract_json5(scan: _Scan) -> Iterator[_Finding]:
    import json5
    text = scan.text
    if not any(c in text for c in _JSON5_KEY_LETTERS):
        return
    for n, m in enumerate(_JSON5_OPENER.finditer(text)):
        if n >= _JSON5_TRIES:
            return
        end = _balanced_end(text, m.start(), _JSON5_CHARS)
        if end is None:
            yield _found(m.start(), min(len(text), m.start() + _JSON5_CHARS), "json5",
                         "a JSON5 call object that does not parse")
            continue
        try:
            value = json5.loads(text[m.start():end])
        except (ValueError, RecursionError):
            yield _found(m.start(), end, "json5", "a JSON5 call object that does not parse")
            continue
        reading = _Reading()
        _read(scan.tools, value, reading)
        if reading.calls or reading.problems:
            yield _Finding(start=m.start(), end=end, form="json5", calls=reading.calls,
                           problem="; ".join(reading.problems) or None)


# A YAML block naming a tool with an arguments mapping ("name: web_search" / "arguments:" / "  query: …"):
# a call of an offered tool when the block reads as YAML, else a broken call attempt; a name that is no
# offered tool leaves the block prose.
_YAML_CALL = _LineRegex(r"[ \t]*(?:name|tool|function):[ \t]*[\"']?(?P<name>[A-Za-z_][\w.\-]{0,%d})[\"']?[ \t]*\n"
                        r"[ \t]*(?:arguments|args|parameters):[ \t]*\n(?P<body>(?:[ \t]+[^\n]*(?:\n|$))+)"
                        % _MAX_NAME)


def _extract_yaml(scan: _Scan) -> Iterator[_Finding]:
    import yaml
    for start, m in _YAML_CALL.finditer(scan.text):
        name = m.group("name")
        if scan.tools.canonical_name(name) not in scan.tools:
            continue
        try:
            args = yaml.safe_load(textwrap_dedent(m.group("body")))
        except yaml.YAMLError:
            args = None
        got = _make_call(scan.tools, name, args) if isinstance(args, dict) \
            else f"a YAML call of {name!r} that does not parse"
        yield _found(start, m.end(), "yaml", got)


def _all_findings(scan: _Scan) -> Iterator[_Finding]:
    text = scan.text
    if "{" in text:
        yield from _extract_json(scan)
        yield from _extract_json5(scan)
    if occurs("arguments:", text) or occurs("args:", text) or occurs("parameters:", text):
        yield from _extract_yaml(scan)
    for spec in _TAG_FORMS:
        if spec.hint in text:
            yield from _extract_tags(scan, spec)
    yield from _extract_headers(scan)
    if "(" in text:
        yield from _extract_pythonic(scan)
    yield from _extract_plain(scan)


def _claim(findings: list[_Finding]) -> list[_Finding]:
    """The findings that own their spans: in text order, the longest first at the same start; one that
    starts inside a span already claimed is part of that span (nested or the same region) and dropped."""
    findings.sort(key=lambda f: (f.start, -f.end))
    kept: list[_Finding] = []
    claimed_to = -1
    for f in findings:
        if f.start >= claimed_to:
            kept.append(f)
            claimed_to = f.end
    return kept


# Wrapper markup around calls (Hermes/Qwen <tool_call>, Anthropic-style <function_calls>, Mistral
# [TOOL_CALLS], Granite <|tool_call|>, Phi-4 functools, Llama <|python_tag|>, Kimi/DeepSeek sections,
# Cohere actions, harmony <|call|>): adjacent to a claimed span, it belongs to that span.
# Also <seed:tool_call>, <minimax:tool_call>, <longcat_tool_call>, Granite's <function_call>, Nemotron's
# <TOOLCALL>, DSML's <｜DSML｜function_calls>, Apertus <|tools_prefix|>, InternLM <|action_start|><|plugin|>,
# MiniCPM/LFM2 <|tool_call_start|>, GigaChat "function call<|role_sep|>", Step-3's "function<｜tool_sep｜>".
_WRAP_TAG = r"(?:[\w\-]{1,30}[:_])?(?:tool|function)_calls?|TOOLCALL|[|｜]DSML[|｜]function_calls"
_WRAP_BEFORE = re.compile(r"(?:(?:<(?:%s)>|<\|tool_call\|>|\[TOOL_CALLS\]|<\|python_tag\|>|<\|python_start\|>"
                          r"|<\|tool_calls_section_begin\|>|<[|｜]tool[▁_ ]calls[▁_ ]begin[|｜]>"
                          r"|<\|START_ACTION\|>|functools"
                          r"|<\|tools_prefix\|>|<\|action_start\|>\s*<\|plugin\|>|<\|tool_call_start\|>"
                          r"|function call<\|role_sep\|>"
                          r"|<[|｜]tool[▁_ ]call[▁_ ]begin[|｜]>\s*function\s*<[|｜]tool[▁_ ]sep[|｜]>"
                          r")\s*)+\Z" % _WRAP_TAG)
_WRAP_AFTER = re.compile(r"(?:\s*(?:</(?:%s)>|<\|python_end\|>|<\|eom_id\|>|<\|call\|>|<\|tool_call_end\|>"
                         r"|<\|tool_calls_section_end\|>|<[|｜]tool[▁_ ]calls?[▁_ ]end[|｜]>|<\|END_ACTION\|>"
                         r"|<\|tools_suffix\|>|<\|action_end\|>))+" % _WRAP_TAG)


# The last character of every _WRAP_BEFORE alternative.
_WRAP_LAST = frozenset(">]s")


def _wrapper_before(text: str, lo: int, end: int) -> re.Match | None:
    """_WRAP_BEFORE.search(text, lo, end): the wrapper markup that ends right before `end` (whitespace
    aside). Searched only when the last other character before `end` can end markup: the pattern has no
    literal start, so the search tries every position of the window (1 MB of 2,000 example calls: 9 ms)."""
    tail = text[lo:end].rstrip()        # str.rstrip strips what \s matches (Py_UNICODE_ISSPACE)
    return _WRAP_BEFORE.search(text, lo, end) if tail and tail[-1] in _WRAP_LAST else None


def _take_wrappers(text: str, kept: list[_Finding]) -> None:
    """Extend each claimed span over the wrapper markup right around it (up to its neighbours)."""
    for k, f in enumerate(kept):
        lo = kept[k - 1].end if k else 0
        before = _wrapper_before(text, max(lo, f.start - 160), f.start)
        if before is not None:
            f.start = before.start()
        after = _WRAP_AFTER.match(text, f.end, kept[k + 1].start if k + 1 < len(kept) else len(text))
        if after is not None:
            f.end = after.end()


# ----------------------------------------------------------------------------- code blocks and examples

_FENCE = _LineRegex(r"[ \t]{0,3}(`{3,}|~{3,})([^\n]*)")
# A code span on one line: a run of 1-3 backticks, text, the same run (and not right after a backtick:
# checked in _build, a lookbehind first would cost the regex engine its literal scan). The run is written
# "`" + the rest as a group: a pattern that starts with a group loses the literal scan too (2x slower).
# The lookahead (another backtick on the line) changes no match; it fails a lone opener with one fast scan
# instead of a lazy step per character (20% of the scan of 1 MB of example blocks).
_INLINE_CODE = re.compile(r"`(`{0,2})(?!`)(?=[^\n`]*`)[^\n]{1,2000}?(?<!`)`\1(?!`)")
_LEAD_IN = 300
# Words by which the text before a code block presents it as an example (EN, RU). "I'd"/"you can" only
# with a verb of calling, so "I'd be happy to help, let me check:" stays ordinary prose.
_EXAMPLE_MARKER = re.compile(
    r"\bfor (?:example|instance)\b|\be\.\s?g\.|\bexamples?\b|\bsample\b|\bsuch as\b|\bwould look\b"
    r"|\blike (?:this|so)\b|\busage\b|\bsyntax\b|\bsignature\b|\btemplate\b|\bhypothetical(?:ly)?\b"
    r"|\bhow (?:to|you(?:['’]d| would| could| can)?|one (?:would|could|can)) (?:call|use|invoke|write|format)\b"
    r"|\b(?:you|one)(?:['’]d| would| could| can| might| may| should| need to| have to)(?: \w+)? "
    r"(?:call|use|invoke|send|write|pass|make|run|format)\b"
    r"|\b(?:I|we)(?:['’]d| would| could| might)(?: \w+)? (?:call|use|invoke|send|write|pass|make|run|do)\b"
    r"|\bif (?:I|you|we) (?:were|was|wanted|asked)\b|\billustrat|\bdemonstrat|\bto (?:call|invoke|use) it\b"
    r"|(?<!\bI )(?<!\bwe )\bwould be\b|\bsomething like\b|\blook(?:s|ed)? like\s*:|\bformat\s*:|\bthe format is\b"
    r"|\bformat of (?:the|a) call\b|\bdemo\b"
    r"|\bнапример\b|\bк примеру\b|\bпример\w*|\bобраз(?:ец|ца)\b|\bвыгляд\w*|\bсинтаксис\w*|\bшаблон\w*"
    r"|\bгипотетическ\w*|\bиспользовани[ея]\b|\bбы\b|\bвот так\b|\bчтобы (?:вызвать|использовать)\b"
    r"|\bможн\w*(?: \w+)? (?:вызвать|вызывать|использовать|написать|отправить|так)\b"
    r"|\bможете(?: \w+)? (?:вызвать|вызывать|использовать|написать|отправить)\b"
    r"|\bкак (?:вызвать|вызывается|использовать|выглядит)\b|\bформат вызова\b",
    re.I)
# Where an _EXAMPLE_MARKER alternative can start: the first words of its alternatives, each written first
# character first (then "no word character before"), so the engine scans fast; the marker is then matched
# only at those positions. Searching the marker itself tries ~40 case-insensitive alternatives at every
# position (0.2-0.7 ms per 300-character lead; a 1 MB answer quoting 2,000 example calls took 0.4 s).
_EXAMPLE_FIRST_WORDS = (    # "*" = any word may follow; else the words must end there
    "for example", "for instance", "e.", "example*", "sample", "such as", "would", "like this", "like so", "usage",
    "syntax", "signature", "template", "hypothetical*", "how to", "how you*", "how one", "you'*", "you’*",
    "you would", "you could", "you can", "you might", "you may", "you should", "you need", "you have", "one'*",
    "one would", "one could", "one can", "one might", "one may", "one should", "one need", "one have",
    "i'd", "i’d", "i would", "i could", "i might", "we'd", "we’d", "we would", "we could", "we might",
    "if i", "if you", "if we", "illustrat*", "demonstrat*", "to call", "to invoke", "to use", "something like",
    "look*", "format*", "the format", "demo", "формат вызова", "например", "к примеру", "пример*", "образ*", "выгляд*",
    "синтаксис*", "шаблон*", "гипотетическ*", "использовани*", "бы", "вот так", "чтобы", "можн*", "можете",
    "как")
def _example_first_re() -> re.Pattern:
    by_first: dict[str, list[str]] = {}
    for w in _EXAMPLE_FIRST_WORDS:
        end = "" if w.endswith(("*", "'", "’", ".")) else r"(?!\w)"
        by_first.setdefault(w[0], []).append(re.escape(w[1:].rstrip("*")) + end)
    # Grouped by first character: the engine's fast scan then looks for a set of characters.
    return re.compile("[" + "".join(re.escape(c) for c in by_first) + r"](?<!\w.)(?:" + "|".join(
        f"(?<={re.escape(c)})(?:{'|'.join(rests)})" for c, rests in by_first.items()) + ")")


_EXAMPLE_FIRST = _example_first_re()


def _presents_example(lead: str) -> bool:
    """_EXAMPLE_MARKER.search(lead) is not None, tried only where an alternative can start."""
    low = lead.lower()
    m = _EXAMPLE_FIRST.search(low)
    while m is not None:                  # overlapping: "the format" holds "format"
        if _EXAMPLE_MARKER.match(lead, m.start()):
            return True
        m = _EXAMPLE_FIRST.search(low, m.start() + 1)
    return False


class _CodeBlocks:
    """The fenced blocks of a text (``` or ~~~; an unclosed one runs to the end) and the inline `code`
    spans outside them; which of them the paragraph before presents as an example. Built on first use:
    most outputs never ask."""

    def __init__(self, text: str):
        self.text = text
        self._blocks: list[tuple[int, int, bool]] | None = None     # (start, end, fenced), sorted

    def _build(self) -> list[tuple[int, int, bool]]:
        text = self.text
        fences: list[tuple[int, int, bool]] = []
        if occurs("```", text) or occurs("~~~", text):
            opened: tuple[int, str] | None = None
            for start, m in _FENCE.finditer(text):
                if opened is None:
                    opened = (start, m.group(1))
                elif (m.group(1)[0] == opened[1][0] and len(m.group(1)) >= len(opened[1])
                      and not m.group(2).strip()):
                    fences.append((opened[0], m.end(), True))
                    opened = None
            if opened is not None:
                fences.append((opened[0], len(text), True))
        self._fence_ends = [e for _, e, _ in fences]
        inline: list[tuple[int, int, bool]] = []
        if "`" in text:
            # Code spans between the fenced blocks only: a span is one line and a fence starts a line, so no
            # span crosses into a block, and the text inside blocks is never scanned.
            gaps = zip([0, *self._fence_ends], [s for s, _, _ in fences] + [len(text)])
            inline = [(m.start(), m.end(), False) for lo, hi in gaps for m in _INLINE_CODE.finditer(text, lo, hi)
                      if not (m.start() and text[m.start() - 1] == "`")]
        self._blocks = sorted(fences + inline)
        self._starts = [s for s, _, _ in self._blocks]
        return self._blocks

    def block_at(self, pos: int) -> tuple[int, int, bool] | None:
        """The block holding pos, or None."""
        blocks = self._blocks if self._blocks is not None else self._build()
        k = _holder(blocks, self._starts, pos)
        return None if k is None else blocks[k]

    def is_example(self, pos: int) -> bool:
        """Whether pos lies in a code block that the paragraph right before it presents as an example."""
        block = self.block_at(pos)
        if block is None:
            return False
        start = block[0]
        f = bisect_right(self._fence_ends, start) - 1      # the last fence that ended before this block
        lead = self.text[max(start - _LEAD_IN, self._fence_ends[f] if f >= 0 else 0):start].rstrip()
        lead = lead[lead.rfind("\n\n") + 1:]
        return _presents_example(lead)

    def is_quoted(self, pos: int) -> bool:
        """Whether pos lies in inline code (a mention) or in an example block."""
        block = self.block_at(pos)
        return block is not None and (not block[2] or self.is_example(pos))


def _holder(spans: list, starts: list[int], pos: int) -> int | None:
    """The index of the span (sorted, disjoint, (start, end, ...)) that holds pos, or None."""
    k = bisect_right(starts, pos) - 1
    return k if k >= 0 and pos < spans[k][1] else None


# ----------------------------------------------------------------------------- markup left over, prose

# Call markup that, outside every parsed call (and outside inline code and examples), shows a call
# attempt that did not parse. Three scans, each of a pattern that starts with a literal (fast scan). The first is an
# alternation of three families, each with what every match of it holds: one of its groups of strings, all of that
# group (`<invoke` needs a "<" AND "invoke"; a call object opener a "{", a quote and its key); it scans with the
# families whose groups the text holds (`_alternation_held`: one that cannot match changes nothing), and not at all
# when none is (its "<", "[" and "{" are common: 16 KB of "{" or "[{" cost 0.5-0.6 ms, random ASCII 0.15 ms). The
# other two have groups of their own. Groups are looked for by codepoints.occurs.
_CALL_MARKUP_FAMILIES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    (r"<(?:function=|function\s+name\s*=|[|｜]DSML[|｜]|parameter=|/?tool_call>|"
     r"\|tool_call\|>|\|python_tag\|>|[|｜]tool[▁_ ]calls?[▁_ ]"
     r"(?:section[▁_ ])?begin[|｜]>|(?:[\w\-]{1,30}:)?invoke\b|function_calls>|arg_key>|\|START_ACTION\|>)",
     tuple(("<", w) for w in ("function", "DSML", "parameter=", "tool_call", "python_tag", "begin", "invoke",
                              "arg_key>", "START_ACTION"))),
    (r"\[(?:TOOL_CALLS|ARGS)\]", (("[TOOL_CALLS]",), ("[ARGS]",))),
    (_CALL_OBJECT_OPENER, tuple(("{", q, key) for q in "\"'" for key in ("name", "function", "tool", "action",
                                                                         "arguments"))),
)
_RESIDUE: tuple[tuple[re.Pattern | _LineRegex, tuple[tuple[str, ...], ...]], ...] = (
    (re.compile(r"to=functions\."), (("to=functions.",),)),
    (_LineRegex(r"[ \t]*(?:TOOL\b(?![ \t]+RESULT\b)|Action[ \t]*Input[ \t]*:)"), (("TOOL",), ("Action",))),
)


# Wrapper markup removed from the prose: harmony headers, special tokens, call wrapper tags, fences; in families,
# each with the strings every match of it holds. The prose is rid of markup when it holds one of _MARKUP_HINTS,
# by one substitution with the alternation of the families whose strings it holds (`_alternation_held`): a family
# that cannot match anywhere in the text changes nothing, and the engine then scans for the first characters of
# the others only (16 KB of random ASCII, where "<" is one character in 56, took 0.2 ms with all of them).
_MARKUP_FAMILIES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    (r"<\|(?:start\|>\s*(?:assistant\s*)?(?=<\|channel\|>)|channel\|>\s*\w{1,20}(?:\s+to=[\w.\-]{1,200})?"
     r"(?:\s*<\|constrain\|>\s*\w{1,20})?\s*<\|message\|>|[A-Za-z_][\w\- ]{0,40}\|>)", (("<|",),)),
    (r"<｜[^｜<>\n]{1,40}｜>", (("<｜",),)),
    (r"</?(?:%s)>" % _WRAP_TAG, (("tool_call",), ("function_call",), ("TOOLCALL",))),
    (r"\[/?(?:TOOL_CALLS|ARGS|CALL_ID)\]", (("TOOL_CALLS]",), ("ARGS]",), ("CALL_ID]",))),
    (r"```[\w+\-]*|~~~[\w+\-]*", (("```",), ("~~~",))),
)
_MARKUP_HINTS = ("<|", "<｜", "tool_call", "function_call", "TOOLCALL", "[TOOL_CALLS]", "[/TOOL_CALLS]", "[ARGS]",
                 "[CALL_ID]", "```", "~~~")


_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


def _residue(scan: _Scan, kept: list[_Finding], blocks: _CodeBlocks) -> str | None:
    """The first call markup outside every claimed span, inline code and example block, as a problem."""
    text = scan.text
    starts = [f.start for f in kept]
    spans = [(f.start, f.end) for f in kept]
    seen: dict[str, bool] = {}
    markup = _alternation_held(_CALL_MARKUP_FAMILIES, text, seen)
    scans: list[re.Pattern | _LineRegex] = [rx for rx, groups in _RESIDUE if _holds_any(groups, text, seen)]
    for rx in scans if markup is None else [markup, *scans]:
        hits = rx.finditer(text) if isinstance(rx, _LineRegex) else ((m.start(), m) for m in rx.finditer(text))
        for pos, m in hits:
            if _holder(spans, starts, pos) is None and not blocks.is_quoted(pos):
                return f"call markup {m.group().strip()!r} that does not parse"
            scan.steps -= 1
            if scan.steps < 0:           # markup everywhere, all of it claimed or quoted: stop looking
                return None
    return None


def _prose(text: str, spans: list[tuple[int, int, str]]) -> str:
    """text with the given spans (sorted, disjoint) replaced by their text (calls by nothing, answer
    objects by their payload), without wrapper markup and runs of blank lines."""
    out, last = [], 0
    for start, end, replacement in spans:
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    prose = "".join(out)
    if occurs_any(_MARKUP_HINTS, prose):
        markup = _alternation_held(_MARKUP_FAMILIES, prose, {})
        prose = prose if markup is None else markup.sub("", prose)
    return _BLANK_LINES.sub("\n\n", prose).strip()


# ----------------------------------------------------------------------------- extract

# Characters that change nothing a reader sees: zero-width spaces and joiners, the soft hyphen, direction marks
# and embeddings, the word joiner, the BOM. An answer word or a value carrying one ("Tok\u200byo", "ca\u00adn't")
# is the word without it. And a `TOOL` keyword written with a no-break or other Unicode space after it, or in
# full-width letters ("ＴＯＯＬ web_search | …"), is the plain protocol's keyword.
_INVISIBLE_RANGES = ((0x00ad, 0x00ad), (0x180e, 0x180e), (0x200b, 0x200f), (0x202a, 0x202e), (0x2060, 0x2064),
                     (0x2066, 0x2069), (0xfeff, 0xfeff))
_INVISIBLE_RE = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _INVISIBLE_RANGES) + "]+")
# The same characters one by one: `c in text` for each of them (memchr-like) is 3-8x faster than the regex's
# per-character class test over a non-ASCII text that holds none of them (the usual case); one read of its code
# points in a text stored at four bytes per character (codepoints.occurs_any_char).
_INVISIBLE_CHARS = tuple(chr(c) for a, b in _INVISIBLE_RANGES for c in range(a, b + 1))
_ODD_TOOL_RE = re.compile("^([ \t]*)(?:TOOL|ＴＯＯＬ)[\u00a0\u2000-\u200a\u202f\u205f\u3000]*[:：]?"
                          "[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+(?=[^\\s])", re.MULTILINE)
# _ODD_TOOL_RE's matches (a `^` of re.MULTILINE matches at the start and after each "\n"; no match spans a line),
# found by a literal scan for "\n": the sub runs only when one of them is not already "<indent>TOOL " (else it
# rewrites every match to itself); `^…` with MULTILINE tries every position (10 ms per MB of non-ASCII text).
_ODD_TOOL_LINE = _LineRegex(_ODD_TOOL_RE.pattern.removeprefix("^"))


_ESCAPED_MARKUP_RE = re.compile(r"&lt;/?(?:tool_call|function[=>]|parameter=|invoke|tool_calls?&gt;)")


def _visible(text: str) -> str:
    """`text` without invisible characters, with an odd `TOOL` keyword written plainly and with HTML-escaped
    call markup unescaped (`&lt;tool_call&gt;&lt;function=…`: a call a chat front end escaped) (see above)."""
    if occurs("&lt;", text) and _ESCAPED_MARKUP_RE.search(text):
        text = html.unescape(text)
    if not text.isascii():
        if occurs_any_char(_INVISIBLE_CHARS, text):    # else the sub removes nothing
            text = _INVISIBLE_RE.sub("", text)
        if (occurs("TOOL", text) or occurs("ＴＯＯＬ", text)) and any(
                m.group() != m.group(1) + "TOOL " for _, m in _ODD_TOOL_LINE.finditer(text)):
            text = _ODD_TOOL_RE.sub(r"\1TOOL ", text)
    return text


def extract(text: str, protocol: str | None = None, *, tools: Toolbox = TOOLS) -> Extraction:
    """Parse a model output into calls, examples, a label and prose (see the module docstring).

    Never raises on any input (a non-string reads as ""); time linear in len(text). `protocol` is
    accepted for API stability: every format is recognised in every protocol, because a model that
    answers in another well-formed format still made (or did not make) a call. `tools` are the offered
    tools (the case's, Case.toolbox): they resolve a call's tool name and type its arguments.
    """
    text = _visible(text) if isinstance(text, str) else ""
    body, thinking = strip_thinking(text)
    scan = _Scan(body, tools)
    kept = _claim(list(_extractors(scan)))
    _take_wrappers(body, kept)
    blocks = _CodeBlocks(body)
    calls: list[Call] = []
    examples: list[Call] = []
    broken: list[str] = []
    call_forms: list[str] = []
    example_forms: list[str] = []
    removed: list[tuple[int, int, str]] = []
    for f in kept:
        example = bool(f.calls or f.problem or f.answer is not None) and blocks.is_example(f.start)
        if f.calls:
            (examples if example else calls).extend(f.calls)
            (example_forms if example else call_forms).append(f.form)
            removed.append((f.start, f.end, ""))
        elif f.answer is not None and not example:
            removed.append((f.start, f.end, f.answer))
        if f.problem and not example:
            broken.append(f.problem)
    if not calls and not broken:
        left_over = _residue(scan, kept, blocks)
        if left_over:
            broken.append(left_over)
    forms = sorted(set(call_forms or example_forms))
    label: Label = "call" if calls else "malformed" if broken else "text"
    return Extraction(calls=calls, label=label, prose=_prose(body, removed), form="+".join(forms) or None,
                      problem=broken[0] if label == "malformed" else None, thinking=thinking,
                      examples=examples, broken=broken)


def extract_completion(completion: Any, protocol: str | None = None, *, tools: Toolbox = TOOLS) -> Extraction:
    """The Extraction of a backend Completion: its text as `extract` reads it, plus the calls a server
    returned as structured `tool_calls` (native protocol over the OpenAI API), which come first, in order,
    as form "api". A structured call whose arguments are not an object (a string that is not JSON) is a
    broken attempt. `tools` as `extract` reads them. Never raises."""
    ex = extract(getattr(completion, "text", "") or "", protocol, tools=tools)
    structured = getattr(completion, "tool_calls", None) or []
    if not structured:
        return ex
    calls: list[Call] = []
    broken: list[str] = []
    for tc in structured:
        name = tc.get("name") if isinstance(tc, dict) else None
        got = _make_call(tools, name, tc.get("arguments")) if isinstance(name, str) and name else \
            "a structured tool call without a name"
        if isinstance(got, Call):
            calls.append(got)
        elif isinstance(got, _Answer):   # a "no tool" pseudo-call (final_answer, ...) sent as an API tool call
            broken.append(f"a structured call of the no-tool pseudo-call {name!r}")
        elif got is not None:
            broken.append(got)
    calls += ex.calls
    broken += ex.broken
    forms = sorted({"api", *(ex.form.split("+") if ex.form and ex.calls else ())}) if calls else []
    label: Label = "call" if calls else "malformed" if broken else ex.label
    return dataclasses.replace(ex, calls=calls, label=label, broken=broken, form="+".join(forms) or ex.form,
                               problem=broken[0] if label == "malformed" else None)
