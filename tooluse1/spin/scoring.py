"""SPIN scoring: one run's outcome, per-variant summaries, Table 1 (rule incidence) and spin-vs-base pairs.

Outcome of one run (deterministic; uses the core grader's argument comparison and answer constraints):

    Accomplished            every required call was executed with the right arguments AND the answer meets
                            the scenario's constraints (grade.compare_arguments, answers.check_answer);
    Partially accomplished  some of that: at least one required call matched, or the answer holds;
    Not accomplished        none of it;
    Error                   no valid plan, or the run failed (a backend error, an internal error).

Required calls are matched to executed calls as a multiset, order-insensitive, by maximum bipartite
matching (greedy first-fit gives false negatives: ANCHORS.md, benchflow #301). Extra executed calls are
allowed and counted. For early_answer scenarios `scenario.required_calls` is already only the sufficient
prefix, so executing the tempting steps costs executed tasks and extra calls but never the outcome.

Everything here works on the JSON-ready run records of runner.SpinRun.as_dict(), so a results file's
`spin.records` can be re-summarised without the model.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tooluse1.answers import check_answer
from tooluse1.grade import compare_arguments
from tooluse1.metrics import Rate
from tooluse1.spin.plan import RULES, IncidenceTable, rule_incidence
from tooluse1.spin.scenarios import RequiredCall, Scenario
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY
from tooluse1.tools import Call, canonical_tool_name

__all__ = [
    "ERROR",
    "OUTCOMES",
    "PLAN_INDEX_NAME",
    "RunScore",
    "error_score",
    "format_incidence",
    "format_spin_summary",
    "incidence_for_dir",
    "incidence_of",
    "match_calls",
    "outcome_rank",
    "paired_comparison",
    "score_run",
    "spin_section",
    "summarise_variant",
]

ERROR = "Error"
OUTCOMES: tuple[str, ...] = (ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED, ERROR)
_RANK = {ERROR: 0, NOT_ACCOMPLISHED: 1, PARTIALLY: 2, ACCOMPLISHED: 3}
# The file runner.save_plan_texts writes next to the plan texts: file name -> agents, kind, run.
PLAN_INDEX_NAME = "index.json"
SECTION_FORMAT = 1


def outcome_rank(outcome: str) -> int:
    """Order of outcomes for paired comparisons: Error < Not < Partially < Accomplished."""
    return _RANK[outcome]


# ----------------------------------------------------------------------------- one run

def _call_matches(required: RequiredCall, call: Call) -> bool:
    """The executed call is the required tool (aliases accepted) with matching arguments."""
    if canonical_tool_name(call.name) != required.name:
        return False
    ok, _, _ = compare_arguments(required.name, required.arguments, call.arguments)
    return ok


def match_calls(required: Sequence[RequiredCall], executed: Sequence[Call]) -> list[int | None]:
    """For each required call, the index of the executed call matched to it (None if unmatched).

    A maximum bipartite matching (Kuhn's augmenting paths): each executed call is used at most once and
    as many required calls as possible are matched, whatever the order of either list.
    """
    fits = [[j for j, call in enumerate(executed) if _call_matches(rc, call)] for rc in required]
    owner: dict[int, int] = {}   # executed index -> required index

    def augment(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(required)):
        augment(i, set())
    assignment: list[int | None] = [None] * len(required)
    for j, i in owner.items():
        assignment[i] = j
    return assignment


@dataclass(frozen=True)
class RunScore:
    """The grade of one run. n_extra = executed calls not matched to a required call; missing names the
    unmatched required calls; constraints_ok is None for an Error (nothing was answered)."""

    outcome: str
    n_required: int
    n_matched: int
    n_extra: int
    missing: tuple[str, ...]
    constraints_ok: bool | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["missing"] = list(self.missing)
        return d


def score_run(scenario: Scenario, executed: Sequence[Call], answer: str) -> RunScore:
    """Grade an executed run: its executed calls (every call sent to the World) and its final answer."""
    assignment = match_calls(scenario.required_calls, executed)
    matched = sum(1 for a in assignment if a is not None)
    missing = tuple(f"{rc.name}({json.dumps(rc.arguments, ensure_ascii=False, sort_keys=True)})"
                    for rc, a in zip(scenario.required_calls, assignment) if a is None)
    check = check_answer(scenario.answer, answer)
    ok, why = check.ok, check.reason
    n_req = len(scenario.required_calls)
    if matched == n_req and ok:
        outcome, reason = ACCOMPLISHED, "every required call executed with the right arguments; answer ok"
    else:
        outcome = PARTIALLY if matched or ok else NOT_ACCOMPLISHED
        parts = [f"{matched}/{n_req} required calls matched"]
        if missing:
            parts.append("missing " + "; ".join(missing))
        parts.append("answer ok" if ok else f"answer: {why}")
        reason = ", ".join(parts)
    return RunScore(outcome, n_req, matched, len(executed) - matched, missing, ok, reason)


def error_score(scenario: Scenario, reason: str) -> RunScore:
    """The grade of a run that produced no valid plan or failed."""
    return RunScore(ERROR, len(scenario.required_calls), 0, 0,
                    tuple(rc.name for rc in scenario.required_calls), None, reason)


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


# ----------------------------------------------------------------------------- summaries

def _totals(records: Sequence[Mapping[str, Any]], key: str) -> dict[str, float]:
    total = sum(float(r["counters"][key]) for r in records)
    return {"total": round(total, 4), "per_run": round(total / len(records), 4) if records else 0.0}


def summarise_variant(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Metrics of one variant's runs (records of runner.SpinRun.as_dict()).

    outcomes: each outcome's Rate (k, n, rate, Wilson 95% interval) over all runs; counters: total and per
    run of executed tasks, tool calls, model calls, tokens in/out, elapsed seconds; accepted_prefix: how
    many runs executed a prefix of each length ("none" = no prefix accepted, whole plan run), only for
    variants with a critic; plans: raw and final validity and Table 1 incidence (raw vs repaired), repair
    rounds used; critic_parse_failures.
    """
    n = len(records)
    outcomes = Counter(r["outcome"] for r in records)
    summary: dict[str, Any] = {
        "n": n,
        "outcomes": {o: Rate(outcomes.get(o, 0), n).as_dict() for o in OUTCOMES},
        "counters": {key: _totals(records, key) for key in
                     ("executed_tasks", "tool_calls", "model_calls", "tokens_in", "tokens_out", "elapsed_s")},
        "model_calls_by_role": dict(sorted(sum((Counter(r["counters"]["model_calls_by_role"]) for r in records),
                                               Counter()).items())),
    }
    if any(r["critic"] for r in records):
        dist = Counter("none" if r["accepted_prefix"] is None else str(r["accepted_prefix"])
                       for r in records if r["plan_valid"])
        summary["accepted_prefix"] = dict(sorted(dist.items(), key=lambda kv: (kv[0] == "none", kv[0].zfill(4))))
        summary["critic_parse_failures"] = sum(r["critic_parse_failures"] for r in records)
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


def paired_comparison(records: Sequence[Mapping[str, Any]], a: str = "spin", b: str = "base") -> dict[str, Any] | None:
    """Variant `a` against `b` on the scenarios both ran: wins/ties/losses of a's outcome (ranked Error <
    Not < Partially < Accomplished) and the executed-task difference a - b (total and mean). None when
    no scenario has both."""
    by = {(r["variant"], r["scenario_id"]): r for r in records}
    common = sorted(s for (v, s) in by if v == a and (b, s) in by)
    if not common:
        return None
    wins = ties = losses = 0
    diff = 0
    per: dict[str, dict[str, Any]] = {}
    for sid in common:
        ra, rb = by[(a, sid)], by[(b, sid)]
        d = outcome_rank(ra["outcome"]) - outcome_rank(rb["outcome"])
        wins, ties, losses = wins + (d > 0), ties + (d == 0), losses + (d < 0)
        dt = ra["counters"]["executed_tasks"] - rb["counters"]["executed_tasks"]
        diff += dt
        per[sid] = {a: ra["outcome"], b: rb["outcome"], "executed_tasks_diff": dt}
    return {"a": a, "b": b, "n": len(common), "wins": wins, "ties": ties, "losses": losses,
            "executed_tasks_diff": {"total": diff, "mean": round(diff / len(common), 4)}, "per_scenario": per}


def spin_section(records: Sequence[Mapping[str, Any]], provenance: Mapping[str, Any],
                 variant_order: Sequence[str] = ()) -> dict[str, Any]:
    """The `spin` section of the results file: provenance, per-variant summaries, paired comparisons
    (spin vs base, valid vs base, spin vs valid, each ablation vs spin; those with both variants run) and
    every run record, sorted by variant (in `variant_order`, then by name) and scenario."""
    rank = {v: i for i, v in enumerate(variant_order)}
    records = sorted(records, key=lambda r: (rank.get(r["variant"], len(rank)), r["variant"], r["scenario_id"]))
    variants = list(dict.fromkeys(r["variant"] for r in records))
    paired = {}
    for a, b in (("spin", "base"), ("valid", "base"), ("spin", "valid"),
                 ("spin_wo_sim", "spin"), ("spin_wo_cri", "spin")):
        p = paired_comparison(records, a, b)
        if p is not None:
            paired[f"{a}_vs_{b}"] = p
    return {"format": SECTION_FORMAT, "provenance": dict(provenance), "n_runs": len(records),
            "variants": {v: summarise_variant([r for r in records if r["variant"] == v]) for v in variants},
            "paired": paired, "records": list(records)}


def format_spin_summary(section: Mapping[str, Any]) -> str:
    """Plain-text summary of a spin section: outcome rates with intervals and n, costs per run, accepted
    prefix lengths, plan validity, Table 1 per variant, and the paired comparisons."""
    variants = section["variants"]
    lines = [f"SPIN: {section['n_runs']} runs, variants {', '.join(variants)}"]
    for name, v in variants.items():
        lines.append(f"  {name} (n={v['n']})")
        for o in OUTCOMES:
            lines.append(f"    {o:<24} {Rate(v['outcomes'][o]['k'], v['outcomes'][o]['n']).fmt()}")
        c = v["counters"]
        lines.append("    per run: " + ", ".join(
            f"{k.replace('_', ' ')} {c[k]['per_run']:.2f}" for k in
            ("executed_tasks", "tool_calls", "model_calls", "tokens_in", "tokens_out", "elapsed_s")))
        lines.append(f"    executed tasks total {c['executed_tasks']['total']:.0f}; "
                     f"plans valid raw {v['plans']['raw_valid']['k']}/{v['n']}, "
                     f"final {v['plans']['final_valid']['k']}/{v['n']}; repair rounds {v['plans']['repair_rounds']}")
        if "accepted_prefix" in v:
            lines.append(f"    accepted prefix length: {v['accepted_prefix']} "
                         f"(critic parse failures {v['critic_parse_failures']})")
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
        lines.append(f"  {key}: n={p['n']} wins {p['wins']} ties {p['ties']} losses {p['losses']}; "
                     f"executed tasks {p['a']}-{p['b']} total {p['executed_tasks_diff']['total']:+d}, "
                     f"mean {p['executed_tasks_diff']['mean']:+.2f}")
    return "\n".join(lines)


def _table(d: Mapping[str, Any]) -> IncidenceTable:
    return IncidenceTable(n=d["n"], n_valid=d["n_valid"], counts=dict(d["counts"]))
