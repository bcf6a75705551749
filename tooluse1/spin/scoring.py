"""SPIN scoring: one run's outcome and plan score, per-variant summaries, Table 1 (rule incidence), paired
variant comparisons with a sign test and intervals, and the table beside the paper's numbers.

Outcome of one run (deterministic; the core grader's argument comparison, the scenario's answer check):

    Accomplished            every required call was executed with the right arguments AND the final answer
                            meets the scenario's constraints (Scenario.answer_ok);
    Partially accomplished  some of that: at least one required call matched, or the answer holds;
    Not accomplished        none of it, OR the final answer contradicts the World, whatever calls ran: it
                            states a quantity the World's facts do not support (spin/facts.py: "118.76 °F"
                            where get_weather says 48.2 °F) or a statement the scenario lists as false
                            (`answer_excludes`: "not below freezing" at -4 °C, or a comparison the
                            wrong way round), or it is only the text the user asked to translate;
    Error                   nothing could be executed (no plan the variant can run) or the run failed.
An executed action with a side effect (a tool declared `effect: acts`: a note saved, a timer set) of a kind the scenario
neither requires nor allows - the user did not ask for it, or declined it - lowers the outcome one step
(Accomplished -> Partially, Partially -> Not): the run did something in the user's name it should not have.
So do actions of an asked kind beyond the number asked (a second note where one was asked for); one wrong
attempt at an asked action only misses its required call.

The calls the World carried out (a call it rejected, e.g. for an empty required argument, did nothing: it
meets no required call and has no side effect; `carried_out`) are matched to the reference plan as a
multiset, order-insensitive, by maximum bipartite matching (greedy first-fit gives false negatives:
ANCHORS.md, benchflow #301): required calls first, then
allowed calls on what is left. A call argument listed in the reference call's `facts` is graded by the
phrases it must contain (a note in other words is the right note), the others by value; a retrieval call
(web_search) is graded by the document the World returns for it (any query that finds the reference
document is the right search). Executed calls matched to neither are `n_extra` (tempting steps land here:
they cost; only side effects among them change the outcome).

Plan score (planner quality apart from execution): a plan's steps are paired with the reference plan's
calls by agent, in order; it reports required and allowed calls covered, extra
steps, and the reference dependencies (`depends_on` edges) the plan also declares between matched steps.

Costs are reported as the paper does: over the runs that executed at least one task ("executed runs",
its Tables 2-3 convention) and over all runs, each as total, mean and sd, labelled. Everything here works
on the JSON-ready run records of runner.SpinRun.as_dict(), so a results file's `spin.records` can be
re-scored (regrade_section) and re-summarised without the model.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tooluse1.grade import compare_arguments
from tooluse1.metrics import Rate
from tooluse1.results import schema_errors
from tooluse1.spin.plan import RULES, IncidenceTable, PlanError, StepRun, lenient_plan, parse_plan, rule_incidence
from tooluse1.spin.facts import contradicted_quantities
from tooluse1.spin.scenarios import RequiredCall, Scenario, call_signature, text_meets
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY
from tooluse1.tools import TOOLS, Call, canonical_tool_name
from tooluse1.toolspec import Toolbox
from tooluse1.world import World

__all__ = [
    "COST_KEYS",
    "ERROR",
    "OUTCOMES",
    "PAPER",
    "PLAN_INDEX_NAME",
    "PlanScore",
    "RunScore",
    "SECTION_SCHEMA",
    "carried_out",
    "error_score",
    "format_incidence",
    "format_spin_summary",
    "incidence_for_dir",
    "incidence_of",
    "match_calls",
    "outcome_rank",
    "paired_comparison",
    "plan_score",
    "plan_scores_of",
    "regrade_section",
    "score_run",
    "section_errors",
    "sign_test",
    "step_statuses",
    "spin_section",
    "summarise_variant",
]

ERROR = "Error"
OUTCOMES: tuple[str, ...] = (ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED, ERROR)
_RANK = {ERROR: 0, NOT_ACCOMPLISHED: 1, PARTIALLY: 2, ACCOMPLISHED: 3}
# The file runner.save_plan_texts writes next to the plan texts: file name -> agents, kind, run.
PLAN_INDEX_NAME = "index.json"
SECTION_FORMAT = 2
# Per-run costs (keys of a record's "counters"), in report order.
COST_KEYS: tuple[str, ...] = ("executed_tasks", "tool_calls", "model_calls", "tokens_in", "tokens_out",
                              "elapsed_s", "tool_latency_s", "model_s")

# The paper's Tables 2-3 (AssetOpsBench, 261 scenarios; costs per run over non-zero-task runs).
PAPER: dict[str, dict[str, float]] = {
    "base": {"accomplished": 0.638, "not_accomplished": 0.244, "error": 0.009, "executed_tasks_total": 1061,
             "executed_tasks_per_run": 4.07, "tool_calls_per_run": 11.81, "model_calls_per_run": 34.05,
             "elapsed_s_per_run": 198.44, "tokens_in_per_run": 111530.3, "tokens_out_per_run": 2590.4},
    "spin": {"accomplished": 0.706, "not_accomplished": 0.195, "error": 0.010, "executed_tasks_total": 623,
             "executed_tasks_per_run": 2.39, "tool_calls_per_run": 6.82, "model_calls_per_run": 19.97,
             "elapsed_s_per_run": 143.53, "tokens_in_per_run": 117592.7, "tokens_out_per_run": 5542.3},
}


# The built-in tools that act in the user's name (declared `effect: acts`; the World keeps what they did):
# executed unasked, they lower the outcome. Scoring asks `acts` of the tool itself, so a tool declared
# later (an MCP server's) counts by its own declaration.
SIDE_EFFECT_TOOLS: frozenset[str] = frozenset(t.name for t in TOOLS.values() if t.effect == "acts")


def acts(tool_name: str, *, tools: Toolbox = TOOLS) -> bool:
    """Whether the tool named so is declared to act in the user's name (`effect: acts`): the declaration in
    `tools` (the offered tools; the registry unless given), else the registry's (the built-in one's); an
    unknown tool does not."""
    tool = tools.get(tool_name) or TOOLS.get(tool_name)
    return tool is not None and tool.effect == "acts"
# Tools whose output is a retrieved document: graded by the document, not by the query's words.
RETRIEVAL_TOOLS: frozenset[str] = frozenset({"web_search"})
NO_RESULTS_PREFIX = "No results found"


def outcome_rank(outcome: str) -> int:
    """Order of outcomes for paired comparisons: Error < Not < Partially < Accomplished."""
    return _RANK[outcome]


# ----------------------------------------------------------------------------- one run

def _first_result(output: str) -> str:
    return output.strip().splitlines()[0].strip() if output.strip() else ""


def _retrieves_reference(ref: RequiredCall, args: Mapping[str, Any]) -> bool:
    """A retrieval call is graded by what it retrieves: the World's first result for these arguments is the
    reference call's first result (any query that finds the document the answer needs is the right search,
    as a note is right when it carries the facts)."""
    got = World(sleep=False).execute(Call(ref.name, dict(args)))
    return got.ok and bool(ref.output) and _first_result(got.output) == _first_result(ref.output) \
        and not got.output.startswith(NO_RESULTS_PREFIX)


def _call_matches(ref: RequiredCall, call: Call, tools: Toolbox) -> bool:
    """The executed call is the reference tool (aliases accepted) with matching arguments; a retrieval tool
    (RETRIEVAL_TOOLS) matches when it retrieves the reference document; arguments in ref.facts are matched
    by their facts (text_meets), the others by the core grader's comparison. Names and arguments are read
    by `tools`' declarations."""
    if tools.canonical_name(call.name) != ref.name:
        return False
    args = call.arguments if isinstance(call.arguments, Mapping) else {}
    if ref.name in RETRIEVAL_TOOLS:
        return _retrieves_reference(ref, args)
    for arg, phrases in ref.facts.items():
        value = args.get(arg)
        if not isinstance(value, str) or not text_meets(phrases, (), (), value)[0]:
            return False
    expected = {k: v for k, v in ref.arguments.items() if k not in ref.facts}
    actual = {k: v for k, v in args.items() if k not in ref.facts}
    ok, _, _ = compare_arguments(ref.name, expected, actual, tools=tools)
    return ok


def _max_matching(fits: Sequence[Sequence[int]], taken: set[int] | frozenset[int] = frozenset()) -> list[int | None]:
    """For each left node, its right node in a maximum bipartite matching (Kuhn's augmenting paths) that
    avoids `taken`; None where unmatched. `fits[i]` lists the right nodes left node i may take."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen or j in taken:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(fits)):
        augment(i, set())
    assignment: list[int | None] = [None] * len(fits)
    for j, i in owner.items():
        assignment[i] = j
    return assignment


def match_calls(required: Sequence[RequiredCall], executed: Sequence[Call],
                taken: set[int] | frozenset[int] = frozenset(), *, tools: Toolbox = TOOLS) -> list[int | None]:
    """For each reference call, the index of the executed call matched to it (None if unmatched): a
    maximum matching, each executed call used at most once, whatever the order of either list; executed
    calls in `taken` are not used. Calls are read by `tools`' declarations (the registry unless given)."""
    return _max_matching([[j for j, call in enumerate(executed) if _call_matches(rc, call, tools)]
                          for rc in required], taken)


@dataclass(frozen=True)
class RunScore:
    """The grade of one run. n_matched counts required calls matched, n_allowed allowed calls matched;
    n_extra = executed calls matched to neither; missing names the unmatched required calls;
    constraints_ok is None for an Error (nothing was answered)."""

    outcome: str
    n_required: int
    n_matched: int
    n_allowed: int
    n_extra: int
    missing: tuple[str, ...]
    constraints_ok: bool | None
    reason: str
    contradictions: tuple[str, ...] = ()     # what in the answer the World contradicts
    side_effects: tuple[str, ...] = ()       # unrequested side-effect calls executed (their signatures)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("missing", "contradictions", "side_effects"):
            d[key] = list(d[key])
        return d


def carried_out(steps: Iterable[StepRun]) -> list[Call]:
    """The calls of `steps` that the World carried out. A call it rejected (an invalid argument: "source_language
    must be a non-empty string") did nothing: it neither meets a required call nor has a side effect."""
    return [Call(st.call["name"], st.call["arguments"]) for st in steps if st.call is not None and st.ok]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _untranslated(scenario: Scenario, answer: str, tools: Toolbox) -> tuple[str, ...]:
    """The answer, when the scenario asks for a translation and the answer is the text to translate itself
    ("Can I pay by card?" given as the German for "Can I pay by card?"): it presents the untranslated text as
    the translation, a wrong answer whatever ran."""
    words = _words(answer)
    for rc in scenario.required_calls:
        source = rc.arguments.get("text")
        if tools.canonical_name(rc.name) == "translate" and isinstance(source, str) and words == _words(source):
            return (f"the untranslated text {answer.strip()!r}",)
    return ()


def _side_effects(scenario: Scenario, executed: Sequence[Call], taken: set[int], tools: Toolbox) -> tuple[str, ...]:
    """Signatures of the actions in `executed` (tools that `acts`) done in the user's name without being asked:
    every unmatched one of a kind the scenario neither requires nor allows (or the user declined), and, of a
    kind it asks for, the unmatched ones beyond the number asked. One wrong attempt at an asked action
    already misses its required call ("set a 20-second timer" for 20 minutes); a second note or timer is
    something nobody asked for."""
    asked = Counter(tools.canonical_name(rc.name) for rc in (*scenario.required_calls, *scenario.allowed_calls))
    ran = Counter(tools.canonical_name(c.name) for c in executed)
    excess = {kind: ran[kind] - asked[kind] for kind in ran if acts(kind, tools=tools) and ran[kind] > asked[kind]}
    out: list[str] = []
    for j in reversed(range(len(executed))):        # the last ones are the excess: the first try was the attempt
        c = executed[j]
        kind = tools.canonical_name(c.name)
        if j not in taken and excess.get(kind, 0) > 0:
            excess[kind] -= 1
            out.append(call_signature(kind, c.arguments if isinstance(c.arguments, Mapping) else {}))
    return tuple(reversed(out))


def score_run(scenario: Scenario, executed: Sequence[Call], answer: str, *, tools: Toolbox = TOOLS) -> RunScore:
    """Grade an executed run: the calls the World carried out (carried_out) and its final answer; calls are
    read by `tools`' declarations (the offered tools: the registry unless given)."""
    assignment = match_calls(scenario.required_calls, executed, tools=tools)
    used = {j for j in assignment if j is not None}
    allowed = [j for j in match_calls(scenario.allowed_calls, executed, used, tools=tools) if j is not None]
    matched = len(used)
    missing = tuple(rc.signature for rc, a in zip(scenario.required_calls, assignment) if a is None)
    ok, why = scenario.answer_ok(answer)
    n_req = len(scenario.required_calls)
    contradictions = tuple(contradicted_quantities(scenario, answer)) + tuple(
        p for p in scenario.answer_excludes if text_meets((p,), (), (), answer)[0]) \
        + _untranslated(scenario, answer, tools)
    side_effects = _side_effects(scenario, executed, used | set(allowed), tools)
    if matched == n_req and ok:
        outcome, reason = ACCOMPLISHED, "every required call executed with the right arguments; answer ok"
    else:
        outcome = PARTIALLY if matched or ok else NOT_ACCOMPLISHED
        parts = [f"{matched}/{n_req} required calls matched"]
        if missing:
            parts.append("missing " + "; ".join(missing))
        parts.append("answer ok" if ok else why)
        reason = ", ".join(parts)
    if contradictions:
        outcome = NOT_ACCOMPLISHED
        reason += "; the answer contradicts the World: " + "; ".join(contradictions)
    elif side_effects:
        outcome = PARTIALLY if outcome == ACCOMPLISHED else NOT_ACCOMPLISHED
        reason += "; unrequested side effect(s): " + "; ".join(side_effects)
    return RunScore(outcome, n_req, matched, len(allowed), len(executed) - matched - len(allowed), missing, ok,
                    reason, contradictions, side_effects)


def step_statuses(scenario: Scenario, steps: Sequence[StepRun], *, tools: Toolbox = TOOLS) -> list[str]:
    """Each executed step's own grade, in `steps` order: Accomplished when its call is matched to a required
    or allowed call (score_run's matching of all the run's calls), Partially accomplished when its call ran
    but is neither (a superfluous or wrong-argument call), Not accomplished when it gave no call or the World
    refused it. The trajectory store keeps these; the per-step accomplished rate averages them. Calls are
    read by `tools`' declarations, as score_run reads them."""
    ran_calls = [(i, s.call) for i, s in enumerate(steps) if s.call is not None and s.ok]
    ran = [i for i, _ in ran_calls]
    calls = [Call(call["name"], call["arguments"]) for _, call in ran_calls]
    used = {j for j in match_calls(scenario.required_calls, calls, tools=tools) if j is not None}
    used |= {j for j in match_calls(scenario.allowed_calls, calls, used, tools=tools) if j is not None}
    statuses = [NOT_ACCOMPLISHED] * len(steps)
    for j, i in enumerate(ran):
        statuses[i] = ACCOMPLISHED if j in used else PARTIALLY
    return statuses


def error_score(scenario: Scenario, reason: str) -> RunScore:
    """The grade of a run that could execute nothing or failed."""
    return RunScore(ERROR, len(scenario.required_calls), 0, 0, 0,
                    tuple(rc.signature for rc in scenario.required_calls), None, reason)


@dataclass(frozen=True)
class PlanScore:
    """A plan against the scenario's reference plan (module docstring). Rates are 0.0 for empty sets."""

    n_steps: int
    n_required: int
    required_covered: int
    allowed_covered: int
    extra_steps: int
    n_edges: int
    edges_covered: int

    @property
    def required_recall(self) -> float:
        return self.required_covered / self.n_required if self.n_required else 1.0

    @property
    def edge_recall(self) -> float:
        return self.edges_covered / self.n_edges if self.n_edges else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "required_recall": round(self.required_recall, 4),
                "edge_recall": round(self.edge_recall, 4)}


def plan_score(scenario: Scenario, steps: Sequence[tuple[str, Sequence[int]]]) -> PlanScore:
    """Score plan steps, given as (agent, dependencies) in plan order (1-based dependencies), against the
    reference plan. Steps carry no arguments, so reference calls and steps of the same agent are paired in
    order (the k-th reference call of an agent with its k-th step; reference order puts required calls
    before allowed ones): a maximum matching by agent that keeps same-agent chains aligned. A reference edge
    j -> i (call i depends on call j) is covered when the step paired with i declares the step paired with j
    among its dependencies."""
    ref = scenario.reference_calls
    n_req = len(scenario.required_calls)
    steps_of: dict[str, list[int]] = defaultdict(list)
    for k, (agent, _) in enumerate(steps):
        steps_of[agent].append(k)
    assignment: list[int | None] = []
    for rc in ref:
        free = steps_of.get(rc.name)
        assignment.append(free.pop(0) if free else None)
    edges = [(j - 1, i) for i, rc in enumerate(ref) for j in rc.depends_on]
    covered = 0
    for j, i in edges:
        step_i, step_j = assignment[i], assignment[j]
        if step_i is not None and step_j is not None and step_j + 1 in steps[step_i][1]:
            covered += 1
    required = sum(1 for k in assignment[:n_req] if k is not None)
    matched = sum(1 for k in assignment if k is not None)
    return PlanScore(n_steps=len(steps), n_required=n_req, required_covered=required,
                     allowed_covered=matched - required, extra_steps=len(steps) - matched,
                     n_edges=len(edges), edges_covered=covered)


def plan_scores_of(scenario: Scenario, record: Mapping[str, Any]) -> dict[str, Any]:
    """Plan scores of a run record: "raw" (its first plan, read leniently as BASE executes it) and
    "executed" (the plan it executed: accepted prefix or whole plan); a missing plan scores None."""
    out: dict[str, Any] = {"raw": None, "executed": None}
    if record["plans"]:
        plan = lenient_plan(record["plans"][0]["text"], scenario.agents).plan
        if plan is not None:
            out["raw"] = plan_score(scenario, [(s.agent, s.dependencies) for s in plan.steps]).as_dict()
    if record.get("executed_plan"):
        try:
            plan = parse_plan(record["executed_plan"], scenario.agents)
        except PlanError:
            return out
        out["executed"] = plan_score(scenario, [(s.agent, s.dependencies) for s in plan.steps]).as_dict()
    return out


# ----------------------------------------------------------------------------- Table 1

def incidence_of(plans: Iterable[tuple[str, Sequence[str]]]) -> IncidenceTable:
    """plan.rule_incidence over plans that each have their own allowed agents: (plan text, agents) pairs
    are grouped by agent set, counted by rule_incidence, and the counts summed."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for text, agents in plans:
        groups[tuple(agents)].append(text)
    n = n_valid = 0
    counts = dict.fromkeys(RULES, 0)
    for agents, texts in groups.items():
        table = rule_incidence(texts, agents)
        n, n_valid = n + table.n, n_valid + table.n_valid
        for family, c in table.counts.items():
            counts[family] += c
    return IncidenceTable(n=n, n_valid=n_valid, counts=counts)


def format_incidence(columns: Mapping[str, IncidenceTable]) -> str:
    """A plain-text Table 1: one row per rule family (share of plans with at least one such issue), then
    the valid share, one column per named set of plans, n printed in the header."""
    names = list(columns)
    head = f"  {'rule':<30}" + "".join(f"  {f'{name} (n={columns[name].n})':>20}" for name in names)
    lines = [head]
    for family in RULES:
        lines.append(f"  {family:<30}" + "".join(
            f"  {columns[nm].counts[family]:>12} {100 * columns[nm].rates[family]:>6.1f}%" for nm in names))
    lines.append(f"  {'valid plans':<30}" + "".join(
        f"  {columns[nm].n_valid:>12} {100 * columns[nm].valid_rate:>6.1f}%" for nm in names))
    return "\n".join(lines)


def incidence_for_dir(directory: Path, agents: Sequence[str] | None = None) -> dict[str, IncidenceTable]:
    """Table 1 over the *.txt plan texts of a folder.

    Agents per file come from `agents` when given (every plan judged against that list), else from the
    folder's index.json (written by --save-plans), which also splits the plans into "raw" (each run's
    first plan) and "repaired" (the plan each repairing run ended with); files it does not list are
    counted under "all" only. Raises ValueError when a file has no known agents or there is no *.txt.
    """
    files = sorted(p for p in Path(directory).glob("*.txt") if p.is_file())
    if not files:
        raise ValueError(f"{directory}: no *.txt plan files")
    index: dict[str, dict[str, Any]] = {}
    index_path = Path(directory) / PLAN_INDEX_NAME
    if index_path.is_file():
        index = json.loads(index_path.read_text(encoding="utf-8")).get("files", {})
    sets: dict[str, list[tuple[str, Sequence[str]]]] = {"all": []}
    unknown: list[str] = []
    for path in files:
        meta = index.get(path.name, {})
        plan_agents = agents if agents is not None else meta.get("agents")
        if plan_agents is None:
            unknown.append(path.name)
            continue
        text = path.read_text(encoding="utf-8")
        sets["all"].append((text, plan_agents))
        for kind in meta.get("sets", ()):
            sets.setdefault(kind, []).append((text, plan_agents))
    if unknown:
        raise ValueError(f"no allowed agents known for {len(unknown)} file(s) ({', '.join(unknown[:5])}"
                         f"{' ...' if len(unknown) > 5 else ''}): pass --agents a,b,c or use a folder written by "
                         f"--save-plans (it has {PLAN_INDEX_NAME})")
    order = ["raw", "repaired", "all"]
    return {name: incidence_of(sets[name]) for name in sorted(sets, key=order.index) if sets[name]}


# ----------------------------------------------------------------------------- statistics

def _stats(values: Sequence[float]) -> dict[str, float | int]:
    """n, total, mean and sample sd (0.0 below two values) of per-run values."""
    n = len(values)
    total = float(sum(values))
    mean = total / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "total": round(total, 4), "mean": round(mean, 4), "sd": round(sd, 4)}


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test (ties dropped): the probability, under no difference, of a split at least
    as uneven as wins:losses. 1.0 when there is nothing to test."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


# Student t, two-sided 95% (0.975 quantile), df 1..30; beyond, the Cornish-Fisher expansion (error < 1e-3).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def _t975(df: int) -> float:
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def _mean_ci(diffs: Sequence[float]) -> dict[str, Any]:
    """Mean of paired differences with a 95% t interval (None below two pairs)."""
    n = len(diffs)
    s = _stats(diffs)
    ci = None
    if n > 1:
        half = _t975(n - 1) * float(s["sd"]) / math.sqrt(n)
        ci = [round(float(s["mean"]) - half, 4), round(float(s["mean"]) + half, 4)]
    return {"n": n, "mean": s["mean"], "ci95": ci}


# ----------------------------------------------------------------------------- summaries

def _executed(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in records if r["counters"]["executed_tasks"] > 0]


def _costs(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Per-run cost statistics over all runs and over executed runs (>= 1 executed task)."""
    ran = _executed(records)
    # .get: sections written before tool latency was accounted (format 1) have no model_s / tool_latency_s
    return {key: {"all_runs": _stats([float(r["counters"].get(key, 0.0)) for r in records]),
                  "executed_runs": _stats([float(r["counters"].get(key, 0.0)) for r in ran])} for key in COST_KEYS}


def _plan_score_means(records: Sequence[Mapping[str, Any]], which: str) -> dict[str, Any] | None:
    scores = [r["plan_scores"][which] for r in records if r.get("plan_scores", {}).get(which)]
    if not scores:
        return None
    return {"n": len(scores),
            "required_recall": round(sum(s["required_recall"] for s in scores) / len(scores), 4),
            "edge_recall": round(sum(s["edge_recall"] for s in scores) / len(scores), 4),
            "extra_steps": round(sum(s["extra_steps"] for s in scores) / len(scores), 4),
            "steps": round(sum(s["n_steps"] for s in scores) / len(scores), 4)}


def step_accomplished(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The per-step counterpart of the paper's Accomplished (a reviewer's label per executed task, averaged per
    run): over the runs that executed a step, the share of steps whose own status (step_statuses) is
    Accomplished, averaged per run (`per_run_mean`), and pooled over all steps (`pooled`)."""
    shares, k, n = [], 0, 0
    for r in _executed(records):
        statuses = [st.get("status") for st in r["steps"]]
        done = sum(s == ACCOMPLISHED for s in statuses)
        shares.append(done / len(statuses))
        k, n = k + done, n + len(statuses)
    return {"runs": len(shares), "steps": n, "accomplished_steps": k,
            "per_run_mean": round(sum(shares) / len(shares), 4) if shares else None,
            "pooled": round(k / n, 4) if n else None}


def _repeats(record: Mapping[str, Any]) -> bool:
    calls = [call_signature(canonical_tool_name(st["call"]["name"]), st["call"]["arguments"]
                            if isinstance(st["call"]["arguments"], Mapping) else {})
             for st in record["steps"] if st.get("call")]
    return len(calls) != len(set(calls))


def repetition(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The counterpart of the paper's failure mode 1.3 (step repetition): runs that executed one identical
    call (same tool, same arguments) more than once, over the runs that executed a step."""
    ran = _executed(records)
    return Rate(sum(_repeats(r) for r in ran), len(ran)).as_dict()


def summarise_variant(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Metrics of one variant's runs (records of runner.SpinRun.as_dict()).

    outcomes: each outcome's Rate (k, n, rate, Wilson 95% interval) over all runs; costs: per COST_KEYS
    entry, n/total/mean/sd over all runs and over executed runs; model_calls_by_role; plan_scores (raw and
    executed plans, means); by_shape: n, Accomplished rate and mean executed tasks and tool calls per
    shape; step_accomplished (per-step statuses); repetition (runs repeating an identical call); no_valid_plan
    (runs that executed a plan the validator rejects, as the code's last repair round does); accepted_prefix
    (runs per executed prefix length, "none" = no prefix accepted), critic_parse_failures and critic_truncated
    (verdicts read from a cut head) for variants with a critic; plans: raw and final validity, repair rounds,
    and Table 1 incidence of raw and (for repairing variants) repaired plans.
    """
    n = len(records)
    outcomes = Counter(r["outcome"] for r in records)
    summary: dict[str, Any] = {
        "n": n,
        "n_executed_runs": len(_executed(records)),
        "outcomes": {o: Rate(outcomes.get(o, 0), n).as_dict() for o in OUTCOMES},
        "costs": _costs(records),
        "model_calls_by_role": dict(sorted(sum((Counter(r["counters"]["model_calls_by_role"]) for r in records),
                                               Counter()).items())),
        "plan_scores": {w: _plan_score_means(records, w) for w in ("raw", "executed")},
    }
    shapes: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        shapes[r["shape"]].append(r)
    summary["by_shape"] = {shape: {
        "n": len(rs), "accomplished": Rate(sum(r["outcome"] == ACCOMPLISHED for r in rs), len(rs)).as_dict(),
        "executed_tasks_mean": _stats([r["counters"]["executed_tasks"] for r in rs])["mean"],
        "tool_calls_mean": _stats([r["counters"]["tool_calls"] for r in rs])["mean"]}
        for shape, rs in sorted(shapes.items())}
    summary["step_accomplished"] = step_accomplished(records)
    summary["repetition"] = repetition(records)
    summary["no_valid_plan"] = Rate(sum(bool(r.get("no_valid_plan")) for r in records), n).as_dict()
    if any(r["critic"] for r in records):
        dist = Counter("none" if r["accepted_prefix"] is None else str(r["accepted_prefix"])
                       for r in records if r["plan_valid"])
        summary["accepted_prefix"] = dict(sorted(dist.items(), key=lambda kv: (kv[0] == "none", kv[0].zfill(4))))
        summary["critic_parse_failures"] = sum(r["critic_parse_failures"] for r in records)
        summary["critic_truncated"] = sum(r.get("critic_truncated", 0) for r in records)
    raw = [(r["plans"][0]["text"], r["agents"]) for r in records if r["plans"]]
    summary["plans"] = {
        "raw_valid": Rate(sum(1 for r in records if r["plans"] and r["plans"][0]["valid"]), n).as_dict(),
        "final_valid": Rate(sum(1 for r in records if r["plan_valid"]), n).as_dict(),
        "repair_rounds": dict(sorted(Counter(str(r["repair_rounds"]) for r in records).items())),
        "incidence_raw": incidence_of(raw).as_dict(),
    }
    if any(r["repairs"] for r in records):
        final = [(r["plans"][r["final_round"]]["text"], r["agents"]) for r in records if r["plans"]]
        summary["plans"]["incidence_repaired"] = incidence_of(final).as_dict()
    return summary


_PAIRED_METRICS = ("executed_tasks", "tool_calls", "model_calls", "tokens_in", "tokens_out", "elapsed_s")


def paired_comparison(records: Sequence[Mapping[str, Any]], a: str = "spin", b: str = "base") -> dict[str, Any] | None:
    """Variant `a` against `b` on the scenarios both ran (paired by scenario).

    wins/ties/losses of a's outcome (ranked Error < Not < Partially < Accomplished) with a two-sided sign
    test; the difference a - b of the Accomplished indicator and of each cost in _PAIRED_METRICS, as the
    mean with a 95% t interval; per shape the same wins/ties/losses and sign test, and the Accomplished,
    executed-task and tool-call differences with their intervals; and
    per scenario both outcomes and the executed-task difference. None when no scenario has both.
    """
    by = {(r["variant"], r["scenario_id"]): r for r in records}
    common = sorted(s for (v, s) in by if v == a and (b, s) in by)
    if not common:
        return None

    def tally(sids: Sequence[str]) -> dict[str, Any]:
        d = [outcome_rank(by[(a, s)]["outcome"]) - outcome_rank(by[(b, s)]["outcome"]) for s in sids]
        wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
        return {"n": len(sids), "wins": wins, "ties": len(d) - wins - losses, "losses": losses,
                "sign_test_p": round(sign_test(wins, losses), 4)}

    def diffs(sids: Sequence[str], key: str) -> list[float]:
        return [float(by[(a, s)]["counters"][key]) - float(by[(b, s)]["counters"][key]) for s in sids]

    def accomplished(sids: Sequence[str]) -> dict[str, Any]:
        return _mean_ci([float(by[(a, s)]["outcome"] == ACCOMPLISHED) - float(by[(b, s)]["outcome"] == ACCOMPLISHED)
                         for s in sids])

    out = {"a": a, "b": b, **tally(common), "accomplished_diff": accomplished(common),
           "diffs": {key: _mean_ci(diffs(common, key)) for key in _PAIRED_METRICS}}
    shapes: dict[str, list[str]] = defaultdict(list)
    for s in common:
        shapes[by[(a, s)]["shape"]].append(s)
    out["by_shape"] = {shape: {**tally(sids), "accomplished_diff": accomplished(sids),
                               "executed_tasks_diff": _mean_ci(diffs(sids, "executed_tasks")),
                               "tool_calls_diff": _mean_ci(diffs(sids, "tool_calls"))}
                       for shape, sids in sorted(shapes.items())}
    out["per_scenario"] = {s: {a: by[(a, s)]["outcome"], b: by[(b, s)]["outcome"],
                               "executed_tasks_diff": by[(a, s)]["counters"]["executed_tasks"]
                               - by[(b, s)]["counters"]["executed_tasks"]} for s in common}
    return out


# What each row of the table beside the paper measures there and here (they differ: the labels say how).
BESIDE_PAPER_DEFINITIONS: dict[str, tuple[str, str]] = {
    "accomplished": ("share of executed tasks a reviewer labelled Accomplished, averaged per run",
                     "share of runs whose one deterministic scenario outcome is Accomplished"),
    "accomplished_per_step": ("(the paper's Accomplished, per task)",
                              "share of executed steps whose own status is Accomplished, averaged per run"),
    "not_accomplished": ("share of tasks labelled Not accomplished, averaged per run",
                         "share of runs whose scenario outcome is Not accomplished"),
    "error": ("the reviewer could not parse the run", "nothing could be executed, or the run failed"),
    "executed_tasks_total": ("plan tasks executed, all runs", "plan steps executed, all runs"),
    "executed_tasks_per_run": ("per run that executed", "per run that executed a step"),
    "tool_calls_per_run": ("tool invocations of the execution agents", "calls sent to the World"),
    "model_calls_per_run": ("LLM/API calls of the execution agents",
                            "model calls of every role (plan, repair, simulate, critic, step, answer)"),
    "elapsed_s_per_run": ("wall time of a run", "model time (share of batched steps) + simulated tool latency"),
    "tokens_in_per_run": ("tokens sent", "prompt tokens, every role"),
    "tokens_out_per_run": ("tokens received", "completion tokens, every role"),
}


def _paper_metric(v: Mapping[str, Any], key: str) -> float | None:
    """One of our figures for a row of the table beside the paper, from a variant summary."""
    if key in ("accomplished", "not_accomplished", "error"):
        return v["outcomes"][{"accomplished": ACCOMPLISHED, "not_accomplished": NOT_ACCOMPLISHED,
                              "error": ERROR}[key]]["rate"]
    if key == "accomplished_per_step":
        return v.get("step_accomplished", {}).get("per_run_mean")
    if key == "executed_tasks_total":
        return v["costs"]["executed_tasks"]["all_runs"]["total"]
    return v["costs"][key.removesuffix("_per_run")]["executed_runs"]["mean"]


def beside_paper(variants: Mapping[str, Mapping[str, Any]],
                 matched: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Rows putting the paper's BASE and SPIN figures (PAPER) next to ours, each with what it measures there
    and here (BESIDE_PAPER_DEFINITIONS): outcome rates over all runs, the per-step accomplished rate, executed
    tasks in total, per-run costs over executed runs (the paper's convention). `matched` holds the base and
    spin summaries over the scenarios where both executed a step (same scenarios on both sides), given as
    `ours_*_matched`. A variant we did not run gives None."""
    rows = []
    for key, (paper_def, our_def) in BESIDE_PAPER_DEFINITIONS.items():
        paper_key = "accomplished" if key == "accomplished_per_step" else key
        row: dict[str, Any] = {"metric": key, "paper_definition": paper_def, "our_definition": our_def,
                               "paper_base": PAPER["base"][paper_key], "paper_spin": PAPER["spin"][paper_key]}
        for variant in ("base", "spin"):
            v = variants.get(variant)
            row[f"ours_{variant}"] = None if v is None else _paper_metric(v, key)
            m = (matched or {}).get(variant)
            row[f"ours_{variant}_matched"] = None if m is None else _paper_metric(m, key)
        rows.append(row)
    return rows


def matched_summaries(records: Sequence[Mapping[str, Any]], a: str = "spin", b: str = "base"
                      ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Summaries of `a` and `b` over the scenarios where both executed a step, and those scenario ids."""
    ran = {(r["variant"], r["scenario_id"]) for r in _executed(records)}
    common = sorted(s for (v, s) in ran if v == a and (b, s) in ran)
    if not common:
        return {}, []
    keep = set(common)
    return {v: summarise_variant([r for r in records if r["variant"] == v and r["scenario_id"] in keep])
            for v in (a, b)}, common


def spin_section(records: Sequence[Mapping[str, Any]], provenance: Mapping[str, Any],
                 variant_order: Sequence[str] = ()) -> dict[str, Any]:
    """The `spin` section of the results file: provenance, per-variant summaries, paired comparisons
    (spin vs base, valid vs base, spin vs valid, each ablation vs spin; those with both variants run),
    the table beside the paper's numbers, and every run record, sorted by variant (in `variant_order`,
    then by name) and scenario."""
    rank = {v: i for i, v in enumerate(variant_order)}
    records = sorted(records, key=lambda r: (rank.get(r["variant"], len(rank)), r["variant"], r["scenario_id"]))
    variants = list(dict.fromkeys(r["variant"] for r in records))
    paired = {}
    for a, b in (("spin", "base"), ("valid", "base"), ("spin", "valid"),
                 ("spin_wo_sim", "spin"), ("spin_wo_cri", "spin")):
        p = paired_comparison(records, a, b)
        if p is not None:
            paired[f"{a}_vs_{b}"] = p
    summaries = {v: summarise_variant([r for r in records if r["variant"] == v]) for v in variants}
    matched, common = matched_summaries(records)
    return {"format": SECTION_FORMAT, "provenance": dict(provenance), "n_runs": len(records),
            "variants": summaries, "paired": paired, "beside_paper": beside_paper(summaries, matched),
            "matched_scenarios": common, "records": list(records)}


# The `spin` section's JSON Schema. The track validates its own section (the core results schema knows only
# that named track sections exist): what regrade_section and the readers need of it.
SECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The SPIN planning track's section of a results file (spin_section).",
    "required": ["format", "provenance", "n_runs", "variants", "paired", "records"],
    "properties": {"format": {"type": "integer"}, "provenance": {"type": "object"},
                   "n_runs": {"type": "integer", "minimum": 0}, "variants": {"type": "object"},
                   "paired": {"type": "object"}, "records": {"type": "array", "items": {"type": "object"}}},
}


def section_errors(section: Any) -> list[str]:
    """Where a stored `spin` section breaks SECTION_SCHEMA, as `path: message` lines; empty when it conforms."""
    return schema_errors(section, schema=SECTION_SCHEMA)


def regrade_section(section: Mapping[str, Any], scenarios: Mapping[str, Scenario],
                    variant_order: Sequence[str] = ()) -> dict[str, Any]:
    """Re-score a saved spin section with the current scoring and scenarios (no model): every run that
    executed gets a new score and outcome from its executed calls and answer and its steps new statuses
    (step_statuses), every run new plan scores;
    failed runs (a backend or internal error, nothing executed) keep theirs. Raises ValueError for a section
    that breaks SECTION_SCHEMA, KeyError naming a scenario that is no longer in `scenarios`."""
    problems = section_errors(section)
    if problems:
        raise ValueError("not a valid spin section:\n  " + "\n  ".join(f"spin.{p}" for p in problems))
    records = []
    for r in section["records"]:
        s = scenarios.get(r["scenario_id"])
        if s is None:
            raise KeyError(f"scenario {r['scenario_id']} is not in the current scenarios")
        r = {**r, "plan_scores": plan_scores_of(s, r)}
        if r["error_kind"] is None and r["answer"] is not None:
            steps = [StepRun(**st) for st in r["steps"]]
            score = score_run(s, carried_out(steps), r["answer"])
            statuses = step_statuses(s, steps)
            r.update(outcome=score.outcome, reason=score.reason, score=score.as_dict(),
                     steps=[{**st, "status": status} for st, status in zip(r["steps"], statuses)])
        records.append(r)
    return spin_section(records, {**section["provenance"], "regraded": True}, variant_order)


def _fmt_ci(d: Mapping[str, Any]) -> str:
    ci = d["ci95"]
    return f"{d['mean']:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")


def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else (f"{x:.0f}" if float(x).is_integer() and abs(x) >= 1 else f"{x:.{digits}f}")


def format_spin_summary(section: Mapping[str, Any]) -> str:
    """Plain-text summary of a spin section: per variant the outcome rates (Wilson intervals, n), per-run
    costs (mean and sd over executed runs, mean over all runs), plan validity and scores, accepted
    prefixes; Table 1 (raw vs repaired plans); the paired comparisons (sign test, intervals, by shape);
    the table beside the paper's numbers."""
    variants = section["variants"]
    lines = [f"SPIN: {section['n_runs']} runs, variants {', '.join(variants)}"]
    for name, v in variants.items():
        lines.append(f"  {name} (n={v['n']}, {v['n_executed_runs']} executed at least one task)")
        for o in OUTCOMES:
            lines.append(f"    {o:<24} {Rate(v['outcomes'][o]['k'], v['outcomes'][o]['n']).fmt()}")
        c = v["costs"]
        lines.append("    per executed run, mean (sd): " + ", ".join(
            f"{k.replace('_', ' ')} {c[k]['executed_runs']['mean']:.2f} ({c[k]['executed_runs']['sd']:.2f})"
            for k in COST_KEYS))
        lines.append("    per run over all runs, mean: " + ", ".join(
            f"{k.replace('_', ' ')} {c[k]['all_runs']['mean']:.2f}" for k in COST_KEYS))
        lines.append(f"    executed tasks total {c['executed_tasks']['all_runs']['total']:.0f}, tool calls total "
                     f"{c['tool_calls']['all_runs']['total']:.0f}; "
                     f"plans valid raw {v['plans']['raw_valid']['k']}/{v['n']}, "
                     f"final {v['plans']['final_valid']['k']}/{v['n']}; repair rounds {v['plans']['repair_rounds']}")
        for which in ("raw", "executed"):
            ps = v["plan_scores"][which]
            if ps:
                lines.append(f"    {which} plan vs reference (n={ps['n']}): "
                             f"required recall {ps['required_recall']:.3f}, dependency recall {ps['edge_recall']:.3f}, "
                             f"steps {ps['steps']:.2f}, extra steps {ps['extra_steps']:.2f}")
        st, rep_ = v.get("step_accomplished"), v.get("repetition")
        if st and st["runs"]:
            lines.append(f"    steps Accomplished: {st['per_run_mean']:.3f} per executed run "
                         f"({st['accomplished_steps']}/{st['steps']} steps); "
                         f"runs repeating an identical call: {rep_['k']}/{rep_['n']}; "
                         f"executed a plan the validator rejects (no valid plan): {v['no_valid_plan']['k']}/{v['n']}")
        if "accepted_prefix" in v:
            lines.append(f"    accepted prefix length: {v['accepted_prefix']} "
                         f"(critic parse failures {v['critic_parse_failures']}, verdicts read from a cut head "
                         f"{v.get('critic_truncated', 0)})")
        lines.append("    by shape: " + "; ".join(
            f"{shape} n={d['n']} acc {d['accomplished']['rate']:.2f} tasks {d['executed_tasks_mean']:.2f}"
            for shape, d in v["by_shape"].items()))
    # Every variant sends the same planner prompt, so the raw plans are the same in each: one raw
    # column (the first variant's), then the plans each repairing variant ended with.
    first = next(iter(variants.values()), None)
    tables = {"raw": _table(first["plans"]["incidence_raw"])} if first else {}
    for name, v in variants.items():
        if "incidence_repaired" in v["plans"]:
            tables[name] = _table(v["plans"]["incidence_repaired"])
    lines.append("  Table 1: plans with at least one issue of each rule (raw plans, then each variant's "
                 "plans after repair)")
    lines.append(format_incidence(tables))
    for key, p in section["paired"].items():
        d = p["diffs"]
        lines.append(f"  {key}: n={p['n']} wins {p['wins']} ties {p['ties']} losses {p['losses']} "
                     f"(sign test p={p['sign_test_p']:.3f}); {p['a']}-{p['b']} mean [95% CI]: Accomplished "
                     f"{_fmt_ci(p['accomplished_diff'])}, tasks {_fmt_ci(d['executed_tasks'])}, tool calls "
                     f"{_fmt_ci(d['tool_calls'])}, elapsed s {_fmt_ci(d['elapsed_s'])}")
        lines.append("    by shape (wins/ties/losses, sign test p; mean differences [95% CI]):")
        for shape, s in p["by_shape"].items():
            lines.append(f"      {shape:<13} {s['wins']}/{s['ties']}/{s['losses']} p={s['sign_test_p']:.3f}; "
                         f"Accomplished {_fmt_ci(s['accomplished_diff'])}, tasks {_fmt_ci(s['executed_tasks_diff'])}, "
                         f"tool calls {_fmt_ci(s['tool_calls_diff'])}")
    rows = section.get("beside_paper") or []
    if rows:
        n_matched = len(section.get("matched_scenarios") or [])
        lines.append("  beside the paper (AssetOpsBench, Tables 2-3; per-run costs over executed runs; 'matched' = "
                     f"the {n_matched} scenarios where both BASE and SPIN executed a step):")
        lines.append(f"    {'metric':<26} {'paper BASE':>11} {'paper SPIN':>11} {'ours BASE':>11} {'ours SPIN':>11} "
                     f"{'BASE match':>11} {'SPIN match':>11}")
        for row in rows:
            lines.append(f"    {row['metric']:<26} {_fmt(row['paper_base']):>11} {_fmt(row['paper_spin']):>11} "
                         f"{_fmt(row['ours_base']):>11} {_fmt(row['ours_spin']):>11} "
                         f"{_fmt(row.get('ours_base_matched')):>11} {_fmt(row.get('ours_spin_matched')):>11}")
        lines.append("    what each row measures (paper | ours):")
        for row in rows:
            if "paper_definition" in row:
                lines.append(f"      {row['metric']}: {row['paper_definition']} | {row['our_definition']}")
    return "\n".join(lines)


def _table(d: Mapping[str, Any]) -> IncidenceTable:
    return IncidenceTable(n=d["n"], n_valid=d["n_valid"], counts=dict(d["counts"]))
