"""An optional LLM-judge pass over MCP runs: our prompt, MCP-Bench's procedure, and its agreement with the
deterministic columns. Never the default; its scores are ours, not MCP-Bench's.

Procedure (MCP-Bench's): the judge model gets the task, the tools offered, the run's trajectory (every call,
round by round, with its result or error) and the final answer, and scores the six rubric dimensions
(`COLUMNS`) from 1 to 10. This is done `repeats` times (5) with the dimensions listed in a different order each
time; the order of repeat r of a run is a shuffle seeded by (seed, task, agent, r), so the same seed gives the
same orders. A run's judge score per dimension is the mean over the repeats whose reply parsed; a reply that
does not parse (no JSON object, a dimension missing, a score outside 1..10) or a request that failed is a
recorded error for that repeat, never an exception. Aggregates as MCP-Bench forms them: Task Completion =
mean(fulfillment, grounding), Tool Selection = mean(appropriateness, parameter accuracy), Planning
Effectiveness = mean(dependency, parallelism & efficiency).

The prompt's words are ours; the judge is any OpenAI-compatible server, reached through the project's
`OpenAIBackend` (greedy decoding, `max_tokens` per reply). `agreement` compares the judge's means with the
deterministic columns over the judged runs: mean absolute difference, and Pearson and Spearman correlations
where there are at least 3 runs ("n too small" otherwise; undefined where one side is constant).
"""
from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooluse1.backends.base import DecodingConfig
from tooluse1.mcp.metrics import COLUMNS, ExecutedCall
from tooluse1.mcp.servers import SERVERS
from tooluse1.prompts import Prompt
from tooluse1.results import scrub_secrets
from tooluse1.spin.mcp_runner import first_json_object, result_line

__all__ = ["AGGREGATES", "DIMENSIONS", "JUDGE_MARKER", "JUDGE_NOTE", "JudgeSettings", "agreement",
           "dimension_order", "format_agreement", "judge_prompt", "judge_run", "judge_runs", "judge_section",
           "offered_tools", "parse_scores", "pearson", "spearman"]

# Our descriptions of MCP-Bench's six rubric dimensions, keyed by the deterministic columns' names.
DIMENSIONS: dict[str, str] = {
    "fulfillment": "does the final answer give the user everything the request asked for, and correctly?",
    "grounding": "is every number and fact in the final answer backed by a tool result shown above, rather "
                 "than guessed or computed without a tool?",
    "tool_appropriateness": "were the right tools chosen for each part of the request, and did every call "
                            "name a tool that was offered?",
    "parameter_accuracy": "were the arguments of each call correct and complete, taken from the request or "
                          "from earlier results?",
    "dependency_awareness": "did each call that needs another call's result run after that call, using "
                            "its result?",
    "parallelism_efficiency": "did calls that do not need each other run together in one round, with no "
                              "repeated or needless calls?",
}
AGGREGATES: dict[str, tuple[str, str]] = {"task_completion": ("fulfillment", "grounding"),
                                          "tool_selection": ("tool_appropriateness", "parameter_accuracy"),
                                          "planning_effectiveness": ("dependency_awareness",
                                                                     "parallelism_efficiency")}
JUDGE_MARKER = "Your JSON scores:"
JUDGE_NOTE = ("LLM-judge scores of ToolUse.1's own judge prompt with MCP-Bench's procedure (shuffled repeats, "
              "averaged), on 1..10: ours, not MCP-Bench's scores; compared with the deterministic columns")
_OUTPUT_CHARS = 800      # a tool result in the trajectory: enough for every fixture reply, bounded for a judge
_ANSWER_CHARS = 4000
# Key spellings a judge writes for a dimension (after lower-casing and joining words with "_").
_ALIASES: dict[str, str] = {
    **{c: c for c in COLUMNS}, "task_fulfillment": "fulfillment", "information_grounding": "grounding",
    "tool_selection": "tool_appropriateness", "tool_appropriateness_selection": "tool_appropriateness",
    "appropriateness": "tool_appropriateness", "parameters": "parameter_accuracy",
    "parameter_accuracy_score": "parameter_accuracy", "dependency": "dependency_awareness",
    "parallelism_and_efficiency": "parallelism_efficiency", "parallelism": "parallelism_efficiency",
    "efficiency": "parallelism_efficiency"}


@dataclass(frozen=True)
class JudgeSettings:
    """What identifies a judge pass: the server and model, the repeats, the shuffle seed, the reply cap."""

    base_url: str
    model: str
    repeats: int = 5
    seed: int = 0
    max_tokens: int = 256

    def as_dict(self) -> dict[str, Any]:
        """As the results file records it: the URL with any credential masked, and the prompt's digest (a
        changed prompt is another judge)."""
        template = judge_prompt("", {"calls": [], "answer": ""}, list(COLUMNS), [])
        return scrub_secrets({"base_url": self.base_url, "model": self.model, "repeats": self.repeats,
                              "seed": self.seed, "max_tokens": self.max_tokens,
                              "prompt_sha256": hashlib.sha256(template.encode()).hexdigest()})


def dimension_order(seed: int, task_id: str, agent: str, repeat: int) -> list[str]:
    """The dimensions in repeat `repeat`'s order: a shuffle of COLUMNS seeded by all four arguments (a str
    seed, so it is the same in every process and on every machine)."""
    order = list(COLUMNS)
    random.Random(f"{seed}|{task_id}|{agent}|{repeat}").shuffle(order)
    return order


def offered_tools(task_servers: Sequence[str], distractions: bool) -> list[str]:
    """The `server.tool` names a run was offered (every server's with distractions), read from the server
    definitions, so judging needs no server process."""
    servers = [*task_servers, *(s for s in SERVERS if s not in task_servers)] if distractions else task_servers
    return [f"{s}.{t.name}" for s in servers for t in SERVERS[s]]


def judge_prompt(task: str, run: Mapping[str, Any], order: Sequence[str], tools: Sequence[str]) -> str:
    """The judge's prompt for one run (a results file's run record) with the dimensions in `order`."""
    calls = [ExecutedCall(**c) for c in run["calls"]]
    rounds: list[str] = []
    for r in sorted({c.round for c in calls}):
        rounds.append(f"Round {r + 1}:")
        for c in calls:
            if c.round == r:
                line = result_line(c)
                rounds.append(line if len(line) <= _OUTPUT_CHARS else line[:_OUTPUT_CHARS] + " [...]")
    answer = run["answer"] if len(run["answer"]) <= _ANSWER_CHARS else run["answer"][:_ANSWER_CHARS] + " [...]"
    dims = "\n".join(f"- {d}: {DIMENSIONS[d]}" for d in order)
    example = ", ".join(f'"{d}": <1-10>' for d in order)
    return (
        "You are grading how well an AI agent handled a user's request by calling tools on MCP servers. Read "
        "the request, the tools it was offered, every call it made (round by round; the calls of one round ran "
        "in parallel) with each result, and its final answer. Score each dimension below from 1 (very poor) to "
        "10 (excellent), judging only what is shown here.\n\n"
        f"Request:\n{task}\n\nTools offered: {', '.join(tools) or '(none)'}\n\n"
        f"Calls:\n{chr(10).join(rounds) or '(no tool was called)'}\n\nFinal answer:\n{answer or '(empty)'}\n\n"
        f"Dimensions:\n{dims}\n\n"
        "Reply with one JSON object and nothing else: one integer from 1 to 10 per dimension, in the order "
        f"listed:\n{{{example}}}\n{JUDGE_MARKER}")


def _number(value: Any) -> float | None:
    if isinstance(value, Mapping):
        value = value.get("score")
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().split("/")[0])     # "7" or "7/10"
        except ValueError:
            return None
    return None


def parse_scores(text: str) -> tuple[dict[str, float] | None, str | None]:
    """The six scores of a judge reply, or (None, why not). Reads the first JSON object (a ``{"scores":
    {...}}`` wrapper too), keys spelled as the dimensions or common variants ("Task Fulfillment",
    "parallelism_and_efficiency"), values as numbers, numeric strings ("7", "7/10") or {"score": n}. Every
    dimension must be there with a score in 1..10; never raises."""
    obj = first_json_object(text)
    if obj is None:
        return None, "no JSON object in the reply"
    if isinstance(obj.get("scores"), Mapping):
        obj = dict(obj["scores"])
    scores: dict[str, float] = {}
    for key, value in obj.items():
        dim = _ALIASES.get("_".join("".join(ch if ch.isalnum() else " " for ch in str(key).lower()).split()))
        if dim is None or dim in scores:
            continue
        number = _number(value)
        if number is None or not 1 <= number <= 10:
            return None, f"{dim}: {value!r} is not a score from 1 to 10"
        scores[dim] = number
    missing = [d for d in COLUMNS if d not in scores]
    if missing:
        return None, f"missing dimension(s): {', '.join(missing)}"
    return {d: scores[d] for d in COLUMNS}, None


def _with_aggregates(cols: Mapping[str, float]) -> dict[str, float]:
    return {**{k: round((cols[a] + cols[b]) / 2, 4) for k, (a, b) in AGGREGATES.items()}, **cols}


def judge_run(backend: Any, settings: JudgeSettings, task: str, run: Mapping[str, Any],
              tools: Sequence[str]) -> dict[str, Any]:
    """Judge one run `settings.repeats` times (module doc): the record the results file keeps in the run's
    `judge`: each repeat's `order`, `scores` (None when unparsed), `error`, `reply` and tokens; `parsed` (how
    many repeats parsed), `answered` (how many got a reply from the server at all), and `mean` (per
    dimension and aggregate over the parsed repeats; None when none parsed). Never raises for a bad reply or
    a failed request."""
    orders = [dimension_order(settings.seed, run["task_id"], run["agent"], r) for r in range(settings.repeats)]
    prompts = [Prompt(item_id=f"{run['task_id']}-{run['agent']}-judge-{r}", case_id=run["task_id"], protocol="mcp",
                      messages=({"role": "user", "content": judge_prompt(task, run, order, tools)},))
               for r, order in enumerate(orders)]
    done = backend.generate(prompts, DecodingConfig(max_new_tokens=settings.max_tokens))
    repeats = []
    for order, c in zip(orders, done):
        scores, why = (None, f"judge request failed: {c.error}") if c.error else parse_scores(c.text)
        repeats.append({"order": order, "scores": scores, "error": why, "reply": c.text[:2000],
                        "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens})
    parsed = [r["scores"] for r in repeats if r["scores"] is not None]
    mean = (_with_aggregates({d: round(sum(s[d] for s in parsed) / len(parsed), 4) for d in COLUMNS})
            if parsed else None)
    return {"repeats": repeats, "parsed": len(parsed), "answered": sum(not c.error for c in done), "mean": mean}


# ----------------------------------------------------------------------------- agreement

def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r of two equal-length samples; None when either is constant (r is undefined)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return None if sxx == 0 or syy == 0 else round(sxy / math.sqrt(sxx * syy), 4)


def _ranks(xs: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties given the mean of the ranks they span."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho (Pearson's r of the tie-averaged ranks); None when either side is constant."""
    return pearson(_ranks(xs), _ranks(ys))


def agreement(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The judge's agreement with the deterministic scores, per dimension and aggregate, over the runs whose
    judge record has a mean: n, the mean absolute difference, Pearson's r and Spearman's rho (None with a
    `note` when n < 3, "n too small", or when one side is constant, "undefined: ... constant")."""
    judged = [r for r in runs if (r.get("judge") or {}).get("mean")]
    out: dict[str, Any] = {}
    for key in (*AGGREGATES, *COLUMNS):
        det = [float(r["scores"][key] if key in AGGREGATES else r["scores"]["columns"][key]) for r in judged]
        jud = [float(r["judge"]["mean"][key]) for r in judged]
        n = len(judged)
        row: dict[str, Any] = {"n": n, "mean_abs_diff": round(sum(abs(a - b) for a, b in zip(det, jud)) / n, 4)
                               if n else None, "pearson": None, "spearman": None, "note": None}
        if n < 3:
            row["note"] = "n too small"
        else:
            row["pearson"], row["spearman"] = pearson(det, jud), spearman(det, jud)
            if row["pearson"] is None:
                row["note"] = "undefined: the " + ("deterministic" if len(set(det)) == 1 else "judge's") + \
                    " scores are constant"
        out[key] = row
    return out


def format_agreement(section: Mapping[str, Any]) -> str:
    """The judge section's agreement as text, one line per dimension, headed as the judge's (ours)."""
    s = section["settings"]
    lines = [f"LLM judge (ours, not MCP-Bench's): {s['model']} at {s['base_url']}, {s['repeats']} shuffled "
             f"repeats, seed {s['seed']}; {section['runs_judged']} runs judged, {section['repeats_parsed']}/"
             f"{section['repeats_total']} replies parsed",
             f"{'column':>24} {'n':>4} {'judge':>7} {'determ':>7} {'MAD':>7} {'pearson':>8} {'spearman':>8}"]

    def cell(v: Any) -> str:
        return "n/a" if v is None else f"{v:g}" if isinstance(v, float) else str(v)

    for key, row in section["agreement"].items():
        means = section["means"].get(key, {})
        lines.append(f"{key:>24} {row['n']:>4} {cell(means.get('judge')):>7} {cell(means.get('deterministic')):>7} "
                     f"{cell(row['mean_abs_diff']):>7} {cell(row['pearson']):>8} {cell(row['spearman']):>8}"
                     + (f"  ({row['note']})" if row["note"] else ""))
    return "\n".join(lines)


def judge_section(runs: Sequence[Mapping[str, Any]], settings: JudgeSettings,
                  provenance: Mapping[str, Any]) -> dict[str, Any]:
    """The results file's top-level `judge` section: the note that these are our scores, the settings (URL
    masked), the judge backend's provenance (masked; its `server_model` is the model id the server
    reported), counts, the judge's and the deterministic means per column over the judged runs, and
    `agreement`."""
    judged = [r for r in runs if (r.get("judge") or {}).get("mean")]
    means: dict[str, dict[str, float | None]] = {}
    for key in (*AGGREGATES, *COLUMNS):
        det = [float(r["scores"][key] if key in AGGREGATES else r["scores"]["columns"][key]) for r in judged]
        jud = [float(r["judge"]["mean"][key]) for r in judged]
        means[key] = {"judge": round(sum(jud) / len(jud), 4) if jud else None,
                      "deterministic": round(sum(det) / len(det), 4) if det else None}
    with_judge = [r["judge"] for r in runs if r.get("judge")]
    return {"note": JUDGE_NOTE, "settings": settings.as_dict(), "backend": scrub_secrets(dict(provenance)),
            "model_id": provenance.get("server_model") or settings.model, "runs_judged": len(judged),
            "repeats_parsed": sum(j["parsed"] for j in with_judge),
            "repeats_total": sum(len(j["repeats"]) for j in with_judge), "means": means,
            "agreement": agreement(runs)}


def judge_runs(runs: list[dict[str, Any]], backend: Any, settings: JudgeSettings, tasks: Mapping[str, str],
               distractions: bool, servers_of: Mapping[str, Sequence[str]],
               save: Callable[[], None]) -> int:
    """Judge every run in `runs` that has no judge record with a reply yet (in place, `save()` after each);
    returns how many runs got no reply from the judge server at all (left for a later pass)."""
    unanswered = 0
    for run in runs:
        if (run.get("judge") or {}).get("answered"):
            continue
        tools = offered_tools(servers_of[run["task_id"]], distractions)
        run["judge"] = judge_run(backend, settings, tasks[run["task_id"]], run, tools)
        unanswered += not run["judge"]["answered"]
        save()
    return unanswered
