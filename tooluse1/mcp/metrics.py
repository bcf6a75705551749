"""Table 4's columns, measured deterministically against a task's reference solution.

Every rubric column is 1 + 9 x (fraction of its checks met), on 1..10 like MCP-Bench's judge, but it is NOT
the judge's scale: a judge reads the whole trajectory, these count checks. The checks:

  fulfillment        each reference fact is stated in the final answer (`states_fact`)
  grounding          each claim of the answer is backed by an output of a call that succeeded in this run;
                     claims are the answer's numbers that the task text does not give, plus the facts it
                     states (a number derived by the model, e.g. a difference it computed itself, is unbacked)
  tool appropriateness  each reference call's tool was called (calls matched one to one), and each call
                     names a tool the servers offer
  parameter accuracy each reference call was made with the right arguments: equal to the reference's (numbers
                     equal up to the rounding the agent wrote, strings up to case and spaces), or giving the
                     same output
  dependency awareness  each reference edge (a call that needs another's output) is honoured: both calls were
                     made, the parent succeeded, and the child ran in a later round
  parallelism & efficiency  each pair of reference calls of one dependency level ran in the same round, and
                     each call is not a repeat (same tool and arguments) of an earlier call

A column with no checks for a task (no edges, no parallel pairs and no calls) scores 10. Aggregates are
MCP-Bench's means: Task Completion = mean(fulfillment, grounding), Tool Selection = mean(appropriateness,
parameter accuracy), Planning Effectiveness = mean(dependency, parallelism & efficiency). Tool Call Success =
successful calls / all calls (None when no call was made).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from tooluse1.mcp.tasks import McpTask, RefCall, Reference

__all__ = ["COLUMNS", "ExecutedCall", "McpRunRecord", "Scores", "numbers_in", "score_run", "states_fact"]

COLUMNS: tuple[str, ...] = ("fulfillment", "grounding", "tool_appropriateness", "parameter_accuracy",
                            "dependency_awareness", "parallelism_efficiency")
_SCALES = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12, "bn": 9, "тыс": 3, "млн": 6, "млрд": 9,
           "трлн": 12, "k": 3, "K": 3, "M": 6, "B": 9, "T": 12}
# Thousands are grouped by a comma, space or narrow space in threes ("18,452", "18 452"); a comma before one,
# two, or four and more digits is a decimal comma ("15,1", "0,7347"), as Russian writes it. A scale letter
# counts only glued to the number ("2.5M", "12k"): "600 m" is metres, "5 K" kelvin.
_NUMBER = re.compile(
    r"(?<![\w.,])(?P<sign>[-−–]?)\$?(?P<int>\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+(?![\d,])|\d+(?!\d))"
    r"(?P<frac>\.\d+(?!\d)|,\d{1,2}(?!\d)|,\d{4,}(?!\d))?"
    r"(?:[eE](?P<exp>[-+]?\d+))?(?![.,]\d)"
    r"(?:\s?(?P<pct>%)|\s(?P<word>thousand|million|billion|trillion|bn|тыс|млн|млрд|трлн)\b\.?"
    r"|(?P<letter>[kKMBT])\b)?")


@dataclass(frozen=True)
class Number:
    """A number as written: its value, the half-unit of its last written digit (its rounding), and for a
    percentage the fraction it also reads as (97% -> 0.97)."""

    value: Decimal
    tolerance: Decimal
    fraction: Decimal | None = None


def numbers_in(text: str) -> list[Number]:
    """Every number written in `text`: thousands separators (1,234 / 1 234), decimals, exponents, a
    percent sign (read as the number and as the fraction: 0.25% is 0.25 or 0.0025), and scale words
    (41.2 million, 2.5M)."""
    found: list[Number] = []
    for m in _NUMBER.finditer(text):
        digits = re.sub(r"[,\u202f\u00a0 ]", "", m.group("int")) + (m.group("frac") or "").replace(",", ".")
        try:
            value = Decimal(digits)
        except InvalidOperation:
            continue
        places = max(len(m.group("frac") or "") - 1, 0)
        exp = int(m.group("exp") or 0) + _SCALES.get(m.group("word") or m.group("letter") or "", 0)
        sign = -1 if m.group("sign") else 1
        value = sign * value.scaleb(exp)
        tol = Decimal(5).scaleb(exp - places - 1)   # half a unit of the last digit
        found.append(Number(value, tol, value / 100 if m.group("pct") else None))
    return found


def _number_matches(written: Number, true: Decimal) -> bool:
    """`written` states `true`: equal, or a rounding of it that keeps about two significant digits (a
    percentage as its number or its fraction)."""
    readings = [(written.value, written.tolerance)]
    if written.fraction is not None:
        readings.append((written.fraction, written.tolerance / 100))
    return any(value == true or (abs(value - true) <= tol and tol <= abs(true) / 20) for value, tol in readings)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def states_fact(answer: str, fact: Any) -> bool:
    """Whether `answer` states `fact`: a number (int/float) as any written number that rounds it
    (`_number_matches`), anything else as a case- and space-insensitive substring."""
    if isinstance(fact, (int, float)) and not isinstance(fact, bool):
        true = Decimal(repr(fact))
        return any(_number_matches(n, true) for n in numbers_in(answer))
    return _norm(str(fact)) in _norm(answer)


@dataclass
class ExecutedCall:
    """One tool call of a run: the round it ran in (BASE: the round; SPIN: the dependency level), the
    tool as the agent named it (`server.tool`; may name no real tool), arguments and outcome."""

    round: int
    tool: str
    arguments: dict[str, Any]
    ok: bool
    output: str = ""
    error: str | None = None


@dataclass
class McpRunRecord:
    """One task run by one agent: the calls, the final answer, the rounds (BASE: planning rounds + the
    final answer; SPIN: executed dependency levels + the final answer), every model call as
    {role, prompt_tokens, completion_tokens}, and what the agent recorded about itself."""

    task_id: str
    agent: str
    calls: list[ExecutedCall]
    answer: str
    rounds: int
    model_calls: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    scores: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _args_equal(made: Any, ref: Any) -> bool:
    if isinstance(ref, bool) or isinstance(made, bool):
        return made == ref
    if isinstance(ref, (int, float)):
        if isinstance(made, str):
            got = numbers_in(made)
            return len(got) == 1 and _number_matches(got[0], Decimal(repr(ref)))
        if isinstance(made, (int, float)):
            return _number_matches(numbers_in(format(Decimal(repr(made)), "f"))[0], Decimal(repr(ref)))
        return False
    if isinstance(ref, str):
        return isinstance(made, (str, int, float)) and _norm(str(made)) == _norm(ref)
    if isinstance(ref, list):
        return isinstance(made, list) and len(made) == len(ref) and all(map(_args_equal, made, ref))
    if isinstance(ref, Mapping):
        return (isinstance(made, Mapping) and set(made) == set(ref)
                and all(_args_equal(made[k], ref[k]) for k in ref))
    return bool(made == ref)


def _match(ref: Reference, calls: Sequence[ExecutedCall]) -> dict[str, tuple[int | None, bool]]:
    """Reference call id -> (index of the run's call matched to it, whether its parameters are right).
    Right calls are matched first (same tool, and equal arguments or the same output), then any unused call
    of the same tool; each run call serves one reference call."""
    used: set[int] = set()
    out: dict[str, tuple[int | None, bool]] = {}

    def find(rc: RefCall, exact: bool) -> int | None:
        for i, c in enumerate(calls):
            if i in used or c.tool != f"{rc.server}.{rc.tool}":
                continue
            if not exact or _args_equal(c.arguments, rc.arguments) or (c.ok and c.output == rc.output):
                return i
        return None

    for exact in (True, False):
        for rc in ref.calls:
            if rc.id in out:
                continue
            i = find(rc, exact)
            if i is not None:
                used.add(i)
                out[rc.id] = (i, exact)
    return {rc.id: out.get(rc.id, (None, False)) for rc in ref.calls}


def _scale(met: int, total: int) -> float:
    return round(1 + 9 * met / total, 4) if total else 10.0


@dataclass(frozen=True)
class Scores:
    """The deterministic columns of one run (1..10), their aggregates, the counts behind each column
    (`checks`: column -> [met, total]), and the rule metrics."""

    columns: dict[str, float]
    checks: dict[str, list[int]]
    task_completion: float
    tool_selection: float
    planning_effectiveness: float
    tool_call_success: float | None
    calls: int
    failed_calls: int
    rounds: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_run(task: McpTask, ref: Reference, run: McpRunRecord, offered_tools: Sequence[str]) -> Scores:
    """Score `run` against `ref` (module doc); `offered_tools` are the `server.tool` names the agent saw."""
    calls = run.calls
    matched = _match(ref, calls)
    by_id = {rc.id: rc for rc in ref.calls}
    outputs = " ".join(c.output for c in calls if c.ok)
    checks: dict[str, list[int]] = {}

    facts = [v for v, _ in ref.facts]
    checks["fulfillment"] = [sum(states_fact(run.answer, f) for f in facts), len(facts)]

    given = numbers_in(task.task)
    backed_numbers = numbers_in(outputs)
    claims = [n for n in numbers_in(run.answer)
              if not any(g.value == n.value for g in given)]
    backed = sum(any(_number_matches(n, b.value) for b in backed_numbers) for n in claims)
    text_facts = [f for f in facts if not isinstance(f, (int, float)) and states_fact(run.answer, f)]
    backed += sum(states_fact(outputs, f) for f in text_facts)
    checks["grounding"] = [backed, len(claims) + len(text_facts)] if claims or text_facts else [0, 1]

    offered = set(offered_tools)
    tools_met = sum(i is not None for i, _ in matched.values()) + sum(c.tool in offered for c in calls)
    checks["tool_appropriateness"] = [tools_met, len(ref.calls) + len(calls)]
    checks["parameter_accuracy"] = [sum(exact for _, exact in matched.values()), len(ref.calls)]

    def honoured(parent: str, child: str) -> bool:
        (pi, _), (ci, _) = matched[parent], matched[child]
        return pi is not None and ci is not None and calls[pi].ok and calls[ci].round > calls[pi].round

    checks["dependency_awareness"] = [sum(honoured(p, c) for p, c in ref.edges), len(ref.edges)]

    def together(a: str, b: str) -> bool:
        (ai, _), (bi, _) = matched[a], matched[b]
        return ai is not None and bi is not None and calls[ai].round == calls[bi].round

    seen: list[ExecutedCall] = []
    fresh = 0
    for c in calls:
        fresh += not any(s.tool == c.tool and s.arguments == c.arguments for s in seen)
        seen.append(c)
    checks["parallelism_efficiency"] = [sum(together(a, b) for a, b in ref.parallel_pairs) + fresh,
                                        len(ref.parallel_pairs) + len(calls)]
    del by_id
    cols = {k: _scale(*checks[k]) for k in COLUMNS}
    mean = lambda a, b: round((cols[a] + cols[b]) / 2, 4)  # noqa: E731
    ok = sum(c.ok for c in calls)
    return Scores(cols, checks, mean("fulfillment", "grounding"),
                  mean("tool_appropriateness", "parameter_accuracy"),
                  mean("dependency_awareness", "parallelism_efficiency"),
                  round(ok / len(calls), 4) if calls else None, len(calls), len(calls) - ok, run.rounds)
