"""Selftest: scripted runners whose scores are known in advance, graded through the real pipeline.

- oracle:      each case's expected call (in the protocol's own format) or its reference answer -> 1.000
- variants:    the same right answers in other accepted forms (fenced JSON, `tool_calls` shape, string
               arguments, thinking first, tool-name alias, equivalent expression, aliased value, extra
               optional argument) -> 1.000
- never-call:  the reference answer on text cases, a plain-text reply on call cases -> passes exactly the
               no-call and clarify cases
- always-call: the expected call on call cases, a plausible call on the others -> passes exactly the call cases
- empty:       an empty reply everywhere -> 0 (an empty answer never passes, not even an abstention)
- pretend:     claims in prose that the action was done, without calling -> passes exactly the text cases
               whose only requirement is a non-empty answer (chit-chat); 0 on capability traps and clarify
- double:      each expected call twice, in two formats (the reference on text cases) -> 0 on call cases
- hedge:       knowledge cases answered with the right value and a wrong one as alternatives ("either Sydney
               or Canberra", "1944 or 1945"), the oracle elsewhere -> 0 on knowledge cases, 1 elsewhere
- truncated:   the oracle's answers, text answers running on past their requirement, every reply stopped at
               the token limit (finish reason `length`) -> 1.000 (a cut answer is judged by what it says)
- cut-in-thinking: every reply stops at the token limit inside unfinished thinking -> 0 (no answer)
- wrong-optional: call cases whose expected call states an optional argument get another value for it (a
               source language the text is not in, the other temperature unit, ...), the oracle elsewhere
               -> 0 on those cases, 1 elsewhere
- memorised:   a model that learnt the public cases by heart: the oracle on every public case, the never-call
               runner's answer on a seeded draw (tooluse1.draws) -> 1.000 on the public cases, never-call's
               score on draws; its memorisation gap (`compare --by-case`) is the share of call cases
The analytic values are computed from corpus counts, independently of the grader, and must match.
These runners also serve as `--model oracle|never-call|...` in the pytest harness.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from tooluse1.corpus import Case
from tooluse1.evaluator import evaluate
from tooluse1.grade import grade
from tooluse1.langtags import primary_language
from tooluse1.metrics import GradedItem, compute
from tooluse1.prompts import PROTOCOLS, format_call
from tooluse1.tools import Call
from tooluse1.toolspec import Tool, Toolbox


def oracle_output(case: Case, protocol: str) -> str:
    if case.expect.kind == "call":
        return format_call(case.expect.right_call(case.toolbox), protocol)
    return case.expect.reference or _unreferenced_answer(case)


def _unreferenced_answer(case: Case) -> str:
    """A right answer for a suite's text case written without a reference: the question about its missing
    argument (asked by its first clarification term), its refusal, or its first expected facts."""
    exp = case.expect
    if exp.kind == "clarify":
        tool, _, param = exp.missing[0].rpartition(".")
        term = case.toolbox[tool].param_index[param].ask.get(primary_language(case.lang), ("it",))[0]
        return f"Could you tell me the {term.replace('*', '').replace(' ... ', ' ')}?"
    if exp.refusal:
        return "Sorry, I can't do that: none of my tools can."
    facts = [alts[0] for alts in exp.answer_contains_all] + list(exp.answer_contains_any[:1])
    return " ".join(facts) or "Sure, happy to help."


def _said(table: dict[str, str], case: Case) -> str:
    """The table's text in the case's language (its primary subtag: en-GB reads en), English for a suite's
    language without one."""
    return table.get(primary_language(case.lang), table["en"])


_DECLINE = {"en": "I'd rather answer that without using any tools.", "ru": "Я отвечу без инструментов."}
_PRETEND = {"en": "Done! I've taken care of that for you.", "ru": "Готово! Я всё сделал."}


def never_call_output(case: Case, protocol: str) -> str:
    if case.expect.kind == "call":
        return _said(_DECLINE, case)
    return case.expect.reference or ""


def empty_output(case: Case, protocol: str) -> str:
    return ""


def pretend_output(case: Case, protocol: str) -> str:
    return _said(_PRETEND, case)


def double_output(case: Case, protocol: str) -> str:
    if case.expect.kind != "call":
        return oracle_output(case, protocol)
    other = "xml" if protocol == "json" else "json"
    call = case.expect.right_call(case.toolbox)
    return format_call(call, protocol) + "\n\n" + format_call(call, other)


def always_call_output(case: Case, protocol: str) -> str:
    """The oracle on call cases; elsewhere a plausible call (its required arguments' example values)."""
    if case.expect.kind == "call":
        return oracle_output(case, protocol)
    tools = case.toolbox
    tool = tools["web_search"] if "web_search" in case.tools else tools[case.tools[0]]
    return format_call(Call(tool.name, {p.name: p.example for p in tool.params if p.required}), protocol)


def _alias_value(tool: Tool, args: dict) -> dict | None:
    """The same arguments of `tool` with one value written in another form its comparison accepts: an alias
    of a canonical value (preferred), a number as a string (100 vs "100"), or an equivalent expression."""
    params = tool.param_index
    for name in sorted(args, key=lambda n: params[n].aliases is None):   # stable: alias values first
        other = params[name].comparison.variant(params[name], args[name])
        if other is not None:
            return {**args, name: other}
    return None


def variant_outputs(case: Case, protocol: str) -> list[tuple[str, str]]:
    """(variant name, output) pairs that must all pass the case."""
    if case.expect.kind != "call":
        ref = case.expect.reference or ""
        return [("thinking", f"<think>The user asks something no tool should do.</think>\n{ref}"),
                ("open-thinking-marker", f"Let me think.<｜end▁of▁thinking｜>{ref}")]
    call = case.expect.right_call(case.toolbox)
    tool = case.toolbox[call.name]
    args = call.arguments
    as_json = json.dumps({"name": call.name, "arguments": args}, ensure_ascii=False)
    out = [
        ("fenced-json", f"```json\n{as_json}\n```"),
        ("tool_calls", json.dumps({"tool_calls": [{"id": "call_0", "type": "function", "function": {
            "name": call.name, "arguments": json.dumps(args, ensure_ascii=False)}}]}, ensure_ascii=False)),
        ("string-arguments", json.dumps({"name": call.name, "arguments": json.dumps(args, ensure_ascii=False)},
                                        ensure_ascii=False)),
        ("thinking-first", f"<think>I need the {call.name} tool.</think>\n{format_call(call, protocol)}"),
        ("prose-around", f"Sure, let me check.\n{format_call(call, protocol)}"),
    ]
    alias = min(tool.name_aliases, default=None)
    if alias:
        out.append(("tool-alias", format_call(Call(alias, args), protocol)))
    aliased = _alias_value(tool, args)
    if aliased:
        out.append(("aliased-value", format_call(Call(call.name, aliased), protocol)))
    extra = next((p for p in tool.params if not p.required and p.name not in args), None)
    if extra:
        out.append(("extra-optional-arg", format_call(Call(call.name, {**args, extra.name: extra.example}),
                                                      protocol)))
    if call.name == "calculator":
        value = evaluate(args["expression"])
        out.append(("evaluated-number", format_call(Call(call.name, {"expression": repr(value)}), protocol)))
    return out


def _plain_words(phrase: str) -> str:
    """A requirement phrase as answer text: stems lose their `*` (a stem matches itself), gaps their dots."""
    return phrase.replace(" ... ", " ").replace("*", "")


def _right_value(case: Case) -> str:
    exp = case.expect
    return _plain_words(exp.answer_contains_any[0] if exp.answer_contains_any else exp.answer_contains_all[0][0])


def hedge_output(case: Case, protocol: str) -> str:
    """Knowledge cases: the right value offered beside another candidate; the oracle elsewhere."""
    if case.kind != "knowledge":
        return oracle_output(case, protocol)
    right = _right_value(case)
    if right.isdigit():
        return f"It was {int(right) - 1} or {right}, depending on how you count."
    wrong = _plain_words(case.expect.answer_excludes[0]) if case.expect.answer_excludes else "something else"
    return f"It is either {wrong} or {right}, depending on the source."


_MORE = {"en": "\n\nA little more background, in case it is useful: the details depend on the situation, and",
         "ru": "\n\nНемного подробнее, если это пригодится: многое зависит от обстоятельств, и"}


def truncated_output(case: Case, protocol: str) -> str:
    """The oracle's answer; a text answer runs on past it and stops mid-sentence (finish reason `length`)."""
    if case.expect.kind == "call":
        return oracle_output(case, protocol)
    return (case.expect.reference or "") + _said(_MORE, case)


def cut_in_thinking_output(case: Case, protocol: str) -> str:
    return "<think>The user asks something. First I should work out whether one of the tools fits, and"


def _wrong_optional(call: Call, tools: Toolbox) -> Call | None:
    """The call (of a tool of `tools`) with its first stated optional argument changed to another valid value;
    None without one. An argument stated as null (a nullable one, "no reminder") is passed over: another
    value of its kind is not derived from null."""
    for p in tools[call.name].params:
        if p.required or call.arguments.get(p.name) is None:
            continue
        return Call(call.name, {**call.arguments, p.name: p.comparison.other(p, call.arguments[p.name])})
    return None


def _states_optional(case: Case) -> bool:
    call = case.expect.call
    return call is not None and any(not case.toolbox[call.name].param_index[k].required and v is not None
                                    for k, v in call.arguments.items())


def wrong_optional_output(case: Case, protocol: str) -> str:
    wrong = _wrong_optional(case.expect.right_call(case.toolbox), case.toolbox) if _states_optional(case) else None
    return format_call(wrong, protocol) if wrong is not None else oracle_output(case, protocol)


Runner = Callable[[Case, str], str]
def memorised_output(case: Case, protocol: str) -> str:
    """Knows the public cases' answers and nothing else: the oracle on a public case, never-call on a draw."""
    return oracle_output(case, protocol) if case.cluster == case.id else never_call_output(case, protocol)


RUNNERS: dict[str, Runner] = {"oracle": oracle_output, "never-call": never_call_output,
                              "always-call": always_call_output, "empty": empty_output, "pretend": pretend_output,
                              "double": double_output, "hedge": hedge_output, "truncated": truncated_output,
                              "cut-in-thinking": cut_in_thinking_output, "wrong-optional": wrong_optional_output,
                              "memorised": memorised_output}
# Runners that tell a draw from its public case on purpose (draw_mismatches leaves them out).
KNOWS_THE_PUBLIC_CASES = frozenset({"memorised"})
# The finish reason a runner's replies carry (the scripted backend reports it too); "stop" when not listed.
FINISH_REASONS: dict[str, str] = {"truncated": "length", "cut-in-thinking": "length"}


def analytic_scores(cases: Sequence[Case]) -> dict[str, float]:
    """Each runner's score from corpus counts alone (no grading): what the grader must reproduce."""
    n = len(cases)
    n_call = sum(1 for c in cases if c.expect.kind == "call")
    n_bare = sum(1 for c in cases if c.expect.kind != "call" and c.expect.requirement(c.toolbox).is_empty)
    n_knowledge = sum(1 for c in cases if c.kind == "knowledge")
    n_optional = sum(1 for c in cases if _states_optional(c))
    n_drawn_call = sum(1 for c in cases if c.cluster != c.id and c.expect.kind == "call")
    return {"oracle": 1.0, "never-call": (n - n_call) / n, "always-call": n_call / n, "empty": 0.0,
            "pretend": n_bare / n, "double": (n - n_call) / n, "hedge": (n - n_knowledge) / n, "truncated": 1.0,
            "cut-in-thinking": 0.0, "wrong-optional": (n - n_optional) / n, "memorised": (n - n_drawn_call) / n}


# runner -> the metrics (and per-kind scores) that must be exactly 0 for it, whatever the corpus holds
_MUST_BE_ZERO = {"empty": ("correct_abstention", "correct_clarification"),
                 "pretend": ("correct_clarification", "kind:capability_trap"),
                 "double": ("correct_call",), "hedge": ("kind:knowledge",),
                 "cut-in-thinking": ("correct_abstention", "correct_clarification")}


@dataclass
class SelftestReport:
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    n_verdicts: int = 0
    seconds: float = 0.0
    # (runner, protocol, case id) -> passed: what the draws check compares (draw_mismatches)
    outcomes: dict[tuple[str, str, str], bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures


def _score(cases: Sequence[Case], runner: Runner, protocol: str, report: SelftestReport, name: str):
    items = []
    for case in cases:
        v = grade(case, runner(case, protocol), protocol, FINISH_REASONS.get(name))
        report.n_verdicts += 1
        report.outcomes[(name, protocol, case.id)] = v.passed
        items.append(GradedItem.of(case, protocol, v))
        if name == "oracle" and not v.passed:
            report.failures.append(f"{name}/{protocol}: {case.id} ({case.source}) fails: {v.reason}")
    return items


def run_selftest(cases: Sequence[Case]) -> SelftestReport:
    """Grade every runner over every case x protocol; collect each mismatch with its case id."""
    report = SelftestReport()
    t0 = time.perf_counter()
    n_call = sum(1 for c in cases if c.expect.kind == "call")
    analytic = analytic_scores(cases)
    for protocol in PROTOCOLS:
        for name, runner in RUNNERS.items():
            items = _score(cases, runner, protocol, report, name)
            metrics = compute(items)
            got = metrics["score"].value
            status = "ok" if got is not None and abs(got - analytic[name]) < 1e-12 else "MISMATCH"
            report.lines.append(f"{protocol:<5} {name:<15} score {got:.3f} (analytic {analytic[name]:.3f}) {status}")
            if status != "ok":
                report.failures.append(f"{name}/{protocol}: score {got} != analytic {analytic[name]}")
            for metric in _MUST_BE_ZERO.get(name, ()):
                if metric.startswith("kind:"):
                    rate = compute([i for i in items if i.kind == metric[5:]])["score"]
                else:
                    rate = metrics[metric]
                if rate.n and rate.k:
                    report.failures.append(f"{name}/{protocol}: {metric} is {rate.k}/{rate.n}, must be 0")
            if name in FINISH_REASONS and metrics["truncated_rate"].value != 1.0:
                report.failures.append(f"{name}/{protocol}: truncated_rate {metrics['truncated_rate'].value} != 1.0")
            if name == "always-call" and metrics["spurious_call_rate"].value != (1.0 if n_call < len(cases) else None):
                report.failures.append(f"always-call/{protocol}: spurious-call rate "
                                       f"{metrics['spurious_call_rate'].value} != 1.0")
        n_var = n_ok = 0
        for case in cases:
            for vname, output in variant_outputs(case, protocol):
                v = grade(case, output, protocol)
                n_var += 1
                report.n_verdicts += 1
                if v.passed:
                    n_ok += 1
                else:
                    report.failures.append(f"variants/{protocol}/{vname}: {case.id} ({case.source}) fails: {v.reason}")
        report.lines.append(f"{protocol:<5} {'variants':<15} score {n_ok / max(n_var, 1):.3f} over {n_var} outputs "
                            f"(analytic 1.000) {'ok' if n_ok == n_var else 'MISMATCH'}")
    report.seconds = time.perf_counter() - t0
    return report


def draw_mismatches(public: SelftestReport, drawn: SelftestReport, drawn_cases: Sequence[Case]) -> list[str]:
    """Each (runner, protocol, draw) whose verdict differs from the runner's verdict on the draw's public case
    (`drawn.outcomes` are of `drawn_cases`): a draw must be exactly as hard for every scripted runner as the
    case it is drawn from."""
    cluster = {c.id: c.cluster for c in drawn_cases}
    out = []
    for (name, protocol, case_id), passed in drawn.outcomes.items():
        if name in KNOWS_THE_PUBLIC_CASES:
            continue
        was = public.outcomes.get((name, protocol, cluster[case_id]))
        if was is not None and was != passed:
            out.append(f"{name}/{protocol}: {case_id} {'passes' if passed else 'fails'}, its public case "
                       f"{'passes' if was else 'fails'}")
    return out
