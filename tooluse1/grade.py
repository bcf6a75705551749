"""Stage 5: (case, extraction) -> Verdict, exactly as SPEC.md §3.2-3.3 says. Public API: `grade`, `grade_completion`.

Call cases pass only with exactly one call — counted over every format in the output, an example call
included (in a call case it is read as the call the user asked for), and no broken call attempt beside it —
of the expected tool (aliases accepted) whose arguments match the expected ones parameter by parameter
(tooluse1.matching says how each parameter compares); extra arguments are tolerated and flagged. No-call and
clarify cases pass only when the output makes no call (a call shown as an example is not one), is not malformed,
and its text meets the case's answer requirement (tooluse1.answers): the fact, the refusal, or a question about
the missing argument — read with the calls it shows as examples (quoted material) and against the user's last
message.
An empty answer never passes. A text answer cut off at the token limit is judged by what it already says
(SPEC §3.3): it passes when it holds no call and no call attempt, does not end in a repetition loop, and its
text already meets the requirement; a reply cut inside its thinking has no answer. A malformed output fails
every case. Tool names, argument types and schemas, and clarification terms are those of the case's offered
tools (`Case.toolbox`), passed down to parsing and the answer rules.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from tooluse1.answers import AnswerCheck, check_answer, with_quoted_calls
from tooluse1.corpus import Case, as_case
from tooluse1.langtags import primary_language
from tooluse1.matching import LEFT_OUT, alternatives
from tooluse1.parse import Extraction, extract, extract_completion
from tooluse1.prompts import format_call
from tooluse1.protocols import REGISTRY
from tooluse1.tools import TOOLS, Call
from tooluse1.toolspec import Param, Toolbox
from tooluse1.types import LANGS, ExpectationKind, Label


@dataclass
class Verdict:
    """The grade of one output for one case. Fields that do not apply to the expectation are None."""

    passed: bool
    expectation: ExpectationKind
    label: Label
    n_calls: int
    tool_ok: bool | None = None          # call cases: the (first) call is of the expected tool
    args_ok: bool | None = None          # call cases: every expected argument matches (tool_ok required)
    extra_args: list[str] = field(default_factory=list)   # arguments given but not expected (tolerated)
    spurious_call: bool = False          # no-call / clarify case answered with a call
    malformed: bool = False
    constraints_ok: bool | None = None   # no-call / clarify cases: the answer requirement holds on the prose
    reason: str = ""
    arg_mismatches: list[str] = field(default_factory=list)
    n_examples: int = 0                  # calls shown as examples (not counted as calls in no-call cases)
    cut_off: bool = False                # the reply stopped at the token limit (finish reason `length`)

    def as_dict(self) -> dict:
        return asdict(self)


# ----------------------------------------------------------------------------- argument comparison

def _states_nothing(value: Any) -> bool:
    """null or a blank string: an optional argument written this way is left out (`"source_language": ""`)."""
    return value is None or (isinstance(value, str) and not value.strip())


def _is_default(param: Param, value: Any) -> bool:
    """Whether leaving `param` out says `value`: an optional parameter whose declared default equals it. Equal
    both ways, because an object's comparison lets the model's object hold keys the expected one lacks (a
    default `{}` would otherwise stand for every object); a required parameter must be given whatever its
    schema declares as its default."""
    return (not param.required and param.default is not None
            and param.matches(param.default, value) and param.matches(value, param.default))


def compare_arguments(tool: str, expected: dict, actual: dict, *, tools: Toolbox = TOOLS
                      ) -> tuple[bool, list[str], list[str]]:
    """(all expected arguments match, mismatch descriptions, extra argument names), by `tools`' declaration
    of `tool` (the case's offered tools, Case.toolbox).

    Cases list every optional argument whose value what the user said determines (stated, or evident: the
    language of a text to translate); a stated value that differs fails. An optional argument the model left
    out (or wrote as null / "") passes when the expected value is the parameter's default (`_is_default`), or
    when the tool infers it (translate's source_language). An expected null (a nullable parameter: "no
    reminder") needs an explicit null: left out, the tool would take its own default.
    """
    spec = tools[tool]
    mismatches: list[str] = []
    for name, exp_value in expected.items():
        param = spec.param_index[name]
        alts = alternatives(exp_value)
        if alts is not None:          # one of several values; "" among them: may be left out
            given = name in actual and not (not param.required and _states_nothing(actual[name]))
            if not given and not (any(a in LEFT_OUT for a in alts) or param.inferable
                                  or any(_is_default(param, a) for a in alts if a not in LEFT_OUT)):
                mismatches.append(f"missing {name} (expected one of {list(alts)!r})")
            elif given and not any(a not in LEFT_OUT and param.matches(a, actual[name]) for a in alts):
                mismatches.append(f"{name}: expected one of {list(alts)!r}, got {actual[name]!r}")
        elif exp_value is None:
            if actual.get(name, "") is not None:
                mismatches.append(f"{name}: expected null, got {actual[name]!r}" if name in actual
                                  else f"missing {name} (expected null)")
        elif name not in actual or (not param.required and _states_nothing(actual[name])):
            if param.inferable or _is_default(param, exp_value):
                continue
            mismatches.append(f"missing {name} (expected {exp_value!r})")
        elif not param.matches(exp_value, actual[name]):
            mismatches.append(f"{name}: expected {exp_value!r}, got {actual[name]!r}")
    extra = sorted(k for k in actual if k not in expected)
    return not mismatches, mismatches, extra


# ----------------------------------------------------------------------------- grading

def _describe_calls(calls: list[Call]) -> str:
    return "; ".join(f"{c.name}({c.arguments})" for c in calls[:3]) or "none"


def _grade_call(case: Case, ex: Extraction, cut_off: bool) -> Verdict:
    want = case.expect.call
    assert want is not None
    calls = ex.calls + ex.examples
    n_calls = len(calls)
    malformed = ex.label == "malformed"
    first = calls[0] if calls else None
    tools = case.toolbox
    tool_ok = first is not None and tools.canonical_name(first.name) == want.name
    args_ok, mismatches, extra = (compare_arguments(want.name, want.arguments, first.arguments, tools=tools)
                                  if tool_ok and first is not None else (False, [], []))
    if malformed:
        reason = f"malformed output: {ex.problem}"
    elif ex.broken:
        reason = f"a call attempt that does not parse beside the call(s): {ex.broken[0]}"
    elif first is None:
        reason = f"no call; expected {want.name}"
    elif not tool_ok:
        reason = f"wrong tool {first.name!r}; expected {want.name}"
    elif not args_ok:
        reason = "arguments differ: " + "; ".join(mismatches)
    elif n_calls > 1:
        reason = f"{n_calls} calls where exactly one is required: {_describe_calls(calls)}"
    else:
        reason = "ok" + (f" (extra arguments tolerated: {extra})" if extra else "")
    # A broken second attempt is half a call: "exactly one call" cannot hold.
    passed = not malformed and not ex.broken and n_calls == 1 and tool_ok and args_ok
    return Verdict(passed=passed, expectation="call", label="call" if calls else ex.label, n_calls=n_calls,
                   tool_ok=tool_ok, args_ok=args_ok, extra_args=extra, malformed=malformed, reason=reason,
                   arg_mismatches=mismatches, n_examples=len(ex.examples), cut_off=cut_off)


_UNIT_SPLIT_RE = re.compile(r"(?<=[.!?…])\s+|\s*\n\s*")
_LOOP_TAIL = 2000      # characters of the answer's end looked at for a repetition loop


_UNIT_ENDS = frozenset(".!?…")


def loops_at_end(prose: str, repeats: int = 3, max_period: int = 4) -> bool:
    """Whether `prose` ends in a repetition loop: its last complete sentences or lines are one group of 1 to
    `max_period` units written `repeats` times in a row ("Привет! Привет! Привет! При…"). Reads only the last
    _LOOP_TAIL characters (constant time); the last unit is dropped unless the text ends a sentence there,
    as a cut may have split it."""
    tail_text = prose[-_LOOP_TAIL:].strip()
    units = [" ".join(u.split()).casefold() for u in _UNIT_SPLIT_RE.split(tail_text)]
    ended = tail_text[-1:] in _UNIT_ENDS            # the last unit ends a sentence: the cut split nothing
    units = [u for u in (units if ended else units[:-1]) if u]
    for period in range(1, max_period + 1):
        tail = units[len(units) - period * repeats:] if len(units) >= period * repeats else []
        if tail and all(tail[i] == tail[i % period] for i in range(len(tail))):
            return True
    return False


def _grade_text(case: Case, ex: Extraction, cut_off: bool) -> Verdict:
    spurious = ex.label == "call"
    malformed = ex.label == "malformed"
    # A malformed output fails whatever its text says: its answer is not checked (nor counted as satisfying).
    check = AnswerCheck(False, "") if malformed else check_answer(
        case.expect.requirement(case.toolbox), with_quoted_calls(ex.prose, ex.examples), user=_user_message(case),
        tools=case.toolbox)
    looping = cut_off and loops_at_end(ex.prose)
    if malformed:
        reason = f"malformed output: {ex.problem}"
    elif spurious:
        reason = f"called {_describe_calls(ex.calls)} where no call was expected"
    elif cut_off and ex.broken:
        reason = f"cut off at the token limit inside a call attempt: {ex.broken[0]}"
    elif looping:
        reason = "cut off at the token limit while repeating itself"
    elif not check.ok:
        reason = check.reason + _unread_language(case, ex.prose) + (" (cut off at the token limit)" if cut_off else "")
    else:
        reason = "ok" + (" (cut off at the token limit; the requirement is already met)" if cut_off else "")
    # A reply cut at the limit is judged by what it already says (SPEC §3.3): failing it would measure
    # verbosity, which `truncated_rate` reports on its own. Its call attempts still fail it (malformed /
    # spurious above), and a reply cut inside its thinking has no prose, so it fails as an empty answer.
    # A reply that hit the limit because it repeats itself in a loop never finished an answer: degeneration,
    # not verbosity.
    passed = not malformed and not spurious and not (cut_off and ex.broken) and not looping and check.ok
    return Verdict(passed=passed, expectation=case.expect.kind, label=ex.label, n_calls=len(ex.calls),
                   spurious_call=spurious, malformed=malformed, constraints_ok=check.ok, reason=reason,
                   n_examples=len(ex.examples), cut_off=cut_off)


# Letters the text rules read: Latin (with its accented letters) and Cyrillic.
_READ_LETTER_RE = re.compile(r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]")
_LETTER_RE = re.compile(r"[^\W\d_]")


def _unread_language(case: Case, prose: str) -> str:
    """A note for a failed refusal or question of a suite case in a language without text rules (ko, zh, ...)
    whose answer is written in it too: the rules read English and Russian only (README: Your own suite), so
    such an answer fails them, and the reason says why. The answer's language is told by its letters: fewer
    than half of them Latin or Cyrillic. Empty otherwise (the built-in corpus's reasons never change)."""
    req = case.expect.requirement(case.toolbox)
    if not (req.refusal or req.ask_about) or primary_language(case.lang) in LANGS:
        return ""
    letters = len(_LETTER_RE.findall(prose))
    if not letters or 2 * len(_READ_LETTER_RE.findall(prose)) >= letters:
        return ""
    return " (refusals and questions are read in English and Russian only; this answer is in neither)"


def _user_message(case: Case) -> str:
    """The user's last message: what a clarifying question must not merely repeat or re-confirm."""
    for m in reversed(case.messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return m["content"]
    return ""


_QUOTE_FORMS = ("json", "xml", "plain")


def _squeezed(text: str) -> str:
    return "".join(text.split()).casefold()


def _user_wrote(case: Case, call: Call) -> bool:
    """The user's own messages hold this call's syntax: it parses out of them (same tool and arguments), or
    its text in one of the three text formats occurs in them (spacing and case aside), e.g. mid-sentence in
    "Repeat after me: TOOL calculator | expression=1+1"."""
    said = [m["content"] for m in case.messages if m.get("role") == "user" and isinstance(m.get("content"), str)]
    for text in said:
        found = extract(text, tools=case.toolbox)
        if call in found.calls + found.examples:
            return True
        squeezed = _squeezed(text)
        if any(_squeezed(format_call(call, form)) in squeezed for form in _QUOTE_FORMS):
            return True
    return False


def with_repeated_calls_quoted(case: Case, ex: Extraction, protocol: str | None) -> Extraction:
    """`ex` with the user's own call syntax, repeated in a format that is not the protocol's call format, read
    as quoted material (SPEC §3.3): in a no-call case whose user message writes a call, an output whose calls
    all reproduce the user's (same tool, same arguments) and none of which is in the protocol's own format
    (plain: a `TOOL` line at a line start, fenced or not; json: a JSON call object; xml: a `<tool_call>` block;
    native: the API's tool calls) makes no call; the repeated text is part of its answer, fenced. A call in the
    protocol's own format is what a deployment of that protocol executes, so it stays a call."""
    forms = (ex.form or "").split("+")
    own = REGISTRY[protocol].own_form if protocol in REGISTRY else None
    if ex.label != "call" or ex.broken or own is None or own in forms:
        return ex
    if not all(_user_wrote(case, c) for c in ex.calls):
        return ex
    written = forms[0] if len(forms) == 1 and forms[0] in _QUOTE_FORMS else "json"
    quoted = "\n\n".join("```\n" + format_call(c, written) + "\n```" for c in ex.calls)
    return dataclasses.replace(ex, calls=[], label="text", prose=f"{ex.prose}\n\n{quoted}".strip())


def grade_extraction(case: Case | dict, ex: Extraction, finish_reason: str | None = None,
                     protocol: str | None = None) -> Verdict:
    """Grade an already-extracted output (the harness parses once, then grades). `finish_reason` is the
    backend's ("length" = stopped at the token limit), recorded as `cut_off`: a text answer cut off there is
    judged by what it already says, and never passes with a call attempt in it. `protocol` (the item's) lets
    a no-call case read the user's own call syntax repeated in another format as quoted material
    (`with_repeated_calls_quoted`); without it every call counts."""
    c = as_case(case)
    cut_off = finish_reason == "length"
    if c.expect.kind == "call":
        return _grade_call(c, ex, cut_off)
    return _grade_text(c, with_repeated_calls_quoted(c, ex, protocol), cut_off)


class Answer(Protocol):
    """What grading reads of a model's answer: a backend Completion (tooluse1.backends.base; not imported, so
    the grader stays below the backends), or `TextAnswer`."""

    @property
    def text(self) -> str: ...
    @property
    def finish_reason(self) -> str: ...
    @property
    def error(self) -> str | None: ...
    @property
    def tool_calls(self) -> list[dict] | None: ...


@dataclass(frozen=True)
class TextAnswer:
    """A raw output as an `Answer` (no structured calls, no backend error)."""

    text: str
    finish_reason: str = "stop"
    error: None = None
    tool_calls: None = None


def grade_completion(case: Case | dict, completion: Answer, protocol: str
                     ) -> tuple[Extraction, Verdict] | tuple[None, None]:
    """Extract and grade one backend Completion of a case in a protocol: the one path from a model's answer
    to its Verdict (the harness behind the pytest plugin, `regrade`, the selftest and `grade` take it). The
    extraction reads the text and any structured tool calls (parse.extract_completion); the verdict is
    `grade_extraction`'s with the completion's finish reason and the protocol. A backend error
    (`completion.error` set) has no answer to grade: (None, None). Never raises on output."""
    if completion.error is not None:
        return None, None
    c = as_case(case)
    ex = extract_completion(completion, protocol, tools=c.toolbox)   # the case's tools name and type its calls
    return ex, grade_extraction(c, ex, completion.finish_reason, protocol)


def grade(case: Case | dict, output: str, protocol: str, finish_reason: str | None = None) -> Verdict:
    """Grade one raw model output for one case (a Case or a corpus JSONL dict). Never raises on output."""
    _, verdict = grade_completion(case, TextAnswer(output, finish_reason or "stop"), protocol)
    assert verdict is not None   # a completion without an error is always graded
    return verdict
