"""Stage 5: (case, extraction) -> Verdict, exactly as SPEC.md §3.2-3.3 says. Public API: `grade`.

Call cases pass only with exactly one call, of the expected tool (aliases accepted), whose arguments
match the expected ones parameter by parameter (see tools.py for how each parameter compares); extra
arguments are tolerated and flagged. No-call and clarify cases pass only when the output holds no call
and its prose satisfies the case's answer constraints. A malformed output fails every case.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tooluse1.corpus import Case, as_case
from tooluse1.evaluator import evaluate, same_value
from tooluse1.parse import Extraction, extract
from tooluse1.tools import (TOOLS, Call, Param, canonical_tool_name, keywords_match, norm_text, to_integer,
                            to_number)


@dataclass
class Verdict:
    """The grade of one output for one case. Fields that do not apply to the expectation are None."""

    passed: bool
    expectation: str                 # call | no_call | clarify
    label: str                       # call | malformed | text
    n_calls: int
    tool_ok: bool | None             # call cases: the first call is of the expected tool
    args_ok: bool | None             # call cases: every expected argument matches (tool_ok required)
    extra_args: list[str] = field(default_factory=list)   # arguments given but not expected (tolerated)
    spurious_call: bool = False      # no-call / clarify case answered with a call
    malformed: bool = False
    constraints_ok: bool | None = None  # no-call / clarify cases: answer constraints hold on the prose
    reason: str = ""
    arg_mismatches: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


# ----------------------------------------------------------------------------- argument comparison

def values_match(param: Param, expected: Any, actual: Any) -> bool:
    """True when a model's value for `param` means the expected value (see tools.py for each kind)."""
    if param.match == "expression":
        return same_value(evaluate(expected), evaluate(actual))
    if param.match == "number":
        return same_value(to_number(expected), to_number(actual))
    if param.match == "integer":
        e, a = to_integer(expected), to_integer(actual)
        return e is not None and e == a
    if isinstance(actual, (dict, list, bool)) or actual is None:
        return False
    if param.match == "alias" and param.aliases is not None:
        return param.aliases.canonical(expected) == param.aliases.canonical(actual)
    if param.match == "keywords":
        return keywords_match(expected, actual)
    return norm_text(expected) == norm_text(actual)


def compare_arguments(tool: str, expected: dict, actual: dict) -> tuple[bool, list[str], list[str]]:
    """(all expected arguments match, mismatch descriptions, extra argument names).

    An optional argument the model left out passes when the expected value is the parameter's default, or
    when the tool infers it (translate's source_language).
    """
    spec = TOOLS[tool]
    mismatches: list[str] = []
    for name, exp_value in expected.items():
        param = spec.param_index[name]
        if name not in actual:
            if param.inferable or (param.default is not None and values_match(param, param.default, exp_value)):
                continue
            mismatches.append(f"missing {name} (expected {exp_value!r})")
        elif not values_match(param, exp_value, actual[name]):
            mismatches.append(f"{name}: expected {exp_value!r}, got {actual[name]!r}")
    extra = sorted(k for k in actual if k not in expected)
    return not mismatches, mismatches, extra


# ----------------------------------------------------------------------------- constraints

def constraints_hold(case: Case, prose: str) -> tuple[bool, str]:
    """(ok, reason): every answer_contains_all and, when listed, one of answer_contains_any occur in prose.

    Substring match after NFKC + casefold (+ ё=е), so "Canberra." and "КАНБЕРРА" both count.
    """
    text = norm_text(prose)
    missing = [s for s in case.expect.answer_contains_all if norm_text(s) not in text]
    if missing:
        return False, f"answer lacks {missing!r}"
    anyof = case.expect.answer_contains_any
    if anyof and not any(norm_text(s) in text for s in anyof):
        return False, f"answer contains none of {list(anyof)!r}"
    return True, ""


def has_constraints(case: Case) -> bool:
    return bool(case.expect.answer_contains_all or case.expect.answer_contains_any)


# ----------------------------------------------------------------------------- grading

def _describe_calls(calls: list[Call]) -> str:
    return "; ".join(f"{c.name}({c.arguments})" for c in calls[:3]) or "none"


def grade_extraction(case: Case | dict, ex: Extraction) -> Verdict:
    """Grade an already-extracted output (the harness parses once, then grades)."""
    c = as_case(case)
    exp = c.expect
    n_calls = len(ex.calls)
    malformed = ex.label == "malformed"
    if exp.kind == "call":
        assert exp.call is not None
        want = exp.call
        first = ex.calls[0] if ex.calls else None
        tool_ok = first is not None and canonical_tool_name(first.name) == want.name
        args_ok, mismatches, extra = (compare_arguments(want.name, want.arguments, first.arguments)
                                      if tool_ok and first is not None else (False, [], []))
        if malformed:
            reason = f"malformed output: {ex.problem}"
        elif n_calls == 0:
            reason = f"no call; expected {want.name}"
        elif not tool_ok:
            reason = f"wrong tool {first.name!r}; expected {want.name}" if first else ""
        elif not args_ok:
            reason = "arguments differ: " + "; ".join(mismatches)
        elif n_calls > 1:
            reason = f"{n_calls} calls where exactly one is required: {_describe_calls(ex.calls)}"
        else:
            reason = "ok" + (f" (extra arguments tolerated: {extra})" if extra else "")
        passed = not malformed and n_calls == 1 and tool_ok and args_ok
        return Verdict(passed, "call", ex.label, n_calls, tool_ok, args_ok if tool_ok else False, extra,
                       False, malformed, None, reason, mismatches)
    spurious = ex.label == "call"
    ok, why = constraints_hold(c, ex.prose)
    if malformed:
        reason = f"malformed output: {ex.problem}"
    elif spurious:
        reason = f"called {_describe_calls(ex.calls)} where no call was expected"
    elif not ok:
        reason = why
    else:
        reason = "ok"
    passed = not malformed and not spurious and ok
    return Verdict(passed, exp.kind, ex.label, n_calls, None, None, [], spurious, malformed, ok, reason)


def grade(case: Case | dict, output: str, protocol: str) -> Verdict:
    """Grade one raw model output for one case (a Case or a corpus JSONL dict). Never raises on output."""
    return grade_extraction(case, extract(output, protocol))
