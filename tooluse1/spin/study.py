"""When does SPIN pay? A controlled study with the scripted roles of spin/scripted.py.

The sweep runs the real pipeline (runner, validator, repair loop, critic parser and stopping rule, executor,
World, scoring) with scripted planners, repairers and critics whose behaviour is set: for every defect rate
d, repair rate r and seed it runs BASE and VALID once on every scenario, and SPIN once per critic accuracy
p. Runs are paired by (seed, scenario):

- early stopping: SPIN against the full plan (VALID: same plans, same repairs, no critic). `tasks_saved` is
  the mean of VALID's executed tasks minus SPIN's (95% t interval), `outcome_lost` the share of pairs whose
  outcome is worse under SPIN (Wilson 95%), `accomplished_diff` SPIN - VALID in the Accomplished indicator
  (95% t interval), `extra_model_calls` what judging the prefixes costs (critic and simulator calls);
- repair: VALID's outcomes at each (d, r), against BASE (the raw plan executed leniently, no repair) and
  against VALID without repair (r = 0) when the grid has it; `no_valid_plan` counts the runs whose final
  plan the validator rejects (an Error, or executed leniently once the runner does that).

The pair-level intervals (scoring.paired_comparison's t intervals, Wilson for shares) treat the (seed,
scenario) pairs as independent; draws of different seeds are, but a scenario recurs in every seed, so every
cell also has `by_scenario`: the same means with intervals clustered by scenario (wider), which the tables and
the chart show.

No model and no trajectory store: the scripted simulator reads none (spin/scripted.py), so retrieval would
only cost time. The default grid takes about 20 s of CPU (BENCHMARKS.md).
"""
from __future__ import annotations

import dataclasses
import html
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooluse1.corpus import ROOT
from tooluse1.metrics import Rate, wilson
from tooluse1.spin.runner import DEFAULT_ROUNDS, SpinRun, SpinRunner
from tooluse1.spin.scenarios import Scenario
from tooluse1.spin.scoring import outcome_rank, paired_comparison
from tooluse1.spin.scripted import Behaviour, ScriptedSpinBackend
from tooluse1.spin.store import ACCOMPLISHED

__all__ = ["STUDY_FORMAT", "STUDY_PATH", "StudyGrid", "format_study", "run_study", "spin_report_section",
           "study_html", "study_markdown", "study_svg"]

STUDY_FORMAT = 1


@dataclass(frozen=True)
class StudyGrid:
    """The sweep: BASE and VALID at every combination of defect rate, repair rate and seed; SPIN at every
    critic accuracy too where the repair rate is one of `critic_repair_rates` (a subset of repair_rates).
    SPIN is not swept at every repair rate because the answer follows from one: at repair rate 1 every plan
    is repaired to the intended one, so the defect rate changes nothing, and at 0 both sides of a pair
    treat a plan that stays invalid alike."""

    critic_accuracies: tuple[float, ...] = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
    defect_rates: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75)
    repair_rates: tuple[float, ...] = (0.0, 0.5, 1.0)
    seeds: tuple[int, ...] = tuple(range(5))
    tempting_rate: float = 0.5
    rounds: int = DEFAULT_ROUNDS
    critic_repair_rates: tuple[float, ...] = (0.5,)

    def __post_init__(self) -> None:
        for name in ("critic_accuracies", "defect_rates", "repair_rates", "seeds", "critic_repair_rates"):
            values = getattr(self, name)
            if not values or len(set(values)) != len(values):
                raise ValueError(f"{name} must list at least one value, each once; got {values}")
            if name != "seeds" and not all(0.0 <= v <= 1.0 for v in values):
                raise ValueError(f"{name} must be rates in [0, 1]; got {values}")
        if not set(self.critic_repair_rates) <= set(self.repair_rates):
            raise ValueError(f"critic_repair_rates {self.critic_repair_rates} must be among the repair rates "
                             f"{self.repair_rates}")
        if not 0.0 <= self.tempting_rate <= 1.0 or self.rounds < 0:
            raise ValueError(f"tempting_rate must be in [0, 1] and rounds >= 0; "
                             f"got {self.tempting_rate}, {self.rounds}")


_COUNTERS = ("executed_tasks", "tool_calls", "model_calls", "tokens_in", "tokens_out", "elapsed_s")


def _slim(run: SpinRun, seed: int) -> dict[str, Any]:
    """What the pairing reads of a run; the scenario id carries the seed, so pairs are (seed, scenario)."""
    return {"variant": run.variant, "scenario_id": f"{run.scenario_id}@{seed}", "shape": run.shape,
            "outcome": run.outcome, "plan_valid": run.plan_valid,
            "counters": {key: getattr(run, key) for key in _COUNTERS}}


def _negated(ci: Mapping[str, Any]) -> dict[str, Any]:
    lo_hi = ci["ci95"]
    return {"n": ci["n"], "mean": round(-ci["mean"], 4) + 0.0,
            "ci95": None if lo_hi is None else [round(-lo_hi[1], 4) + 0.0, round(-lo_hi[0], 4) + 0.0]}


_Z975 = statistics.NormalDist().inv_cdf(0.975)


def _clustered(values: Mapping[str, float], share: bool = False) -> dict[str, Any]:
    """Mean of per-(scenario@seed) values with a 95% interval clustered by scenario: the standard error of
    the per-scenario means over the seeds (normal approximation), since a scenario recurs in every seed.
    For a share (0/1 values) the interval also covers the pair-level Wilson interval, which stays open where
    every run agrees (the standard error is then 0)."""
    by: dict[str, list[float]] = defaultdict(list)
    for key, v in values.items():
        by[key.rsplit("@", 1)[0]].append(v)
    means = [statistics.fmean(v) for v in by.values()]
    mean = statistics.fmean(values.values())
    if len(means) < 2:
        return {"n": len(values), "n_scenarios": len(means), "mean": round(mean, 4), "ci95": None}
    half = _Z975 * statistics.stdev(means) / math.sqrt(len(means))
    lo, hi = mean - half, mean + half
    if share:
        w_lo, w_hi = wilson(round(sum(values.values())), len(values))
        lo, hi = min(lo, w_lo), max(hi, w_hi)
    return {"n": len(values), "n_scenarios": len(means), "mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def _early_stopping(records: Sequence[Mapping[str, Any]], against: str) -> dict[str, Any]:
    """SPIN against `against`, paired by (seed, scenario): pair-level figures of scoring.paired_comparison
    (t and Wilson intervals) and, under `by_scenario`, the same means with scenario-clustered intervals."""
    p = paired_comparison(records, "spin", against)
    assert p is not None   # both variants ran on every scenario
    spin, other = ([r for r in records if r["variant"] == v] for v in ("spin", against))
    rank = {sid: outcome_rank(o["spin"]) - outcome_rank(o[against]) for sid, o in p["per_scenario"].items()}
    return {"n": p["n"], "tasks_saved": _negated(p["diffs"]["executed_tasks"]),
            "tool_calls_saved": _negated(p["diffs"]["tool_calls"]),
            "extra_model_calls": p["diffs"]["model_calls"],
            "outcome_lost": Rate(p["losses"], p["n"]).as_dict(), "outcome_gained": Rate(p["wins"], p["n"]).as_dict(),
            "accomplished_diff": p["accomplished_diff"], "sign_test_p": p["sign_test_p"],
            "by_scenario": {
                "tasks_saved": _clustered(_minus(_counter(other, "executed_tasks"), _counter(spin, "executed_tasks"))),
                "outcome_lost": _clustered({sid: float(d < 0) for sid, d in rank.items()}, share=True),
                "accomplished_diff": _clustered(_minus(_indicator(spin, ACCOMPLISHED),
                                                       _indicator(other, ACCOMPLISHED))),
                "extra_model_calls": _clustered(_minus(_counter(spin, "model_calls"), _counter(other, "model_calls")))}}


def _counter(records: Sequence[Mapping[str, Any]], key: str) -> dict[str, float]:
    """A cost counter of each run (keyed scenario@seed)."""
    return {r["scenario_id"]: float(r["counters"][key]) for r in records}


def _indicator(records: Sequence[Mapping[str, Any]], outcome: str) -> dict[str, float]:
    """1.0 where the run (keyed scenario@seed) ended with `outcome`, else 0.0."""
    return {r["scenario_id"]: float(r["outcome"] == outcome) for r in records}


def _minus(a: Mapping[str, float], b: Mapping[str, float]) -> dict[str, float]:
    return {key: a[key] - b[key] for key in a}


def _repair(valid: Sequence[Mapping[str, Any]], base: Sequence[Mapping[str, Any]],
            no_repair: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    """VALID's outcomes at one (d, r), against BASE and against VALID at r = 0 (when given): pair-level
    figures (Wilson, paired_comparison) and, under `by_scenario`, scenario-clustered intervals."""
    n = len(valid)
    acc = _indicator(valid, ACCOMPLISHED)
    out: dict[str, Any] = {
        "n": n, "accomplished": Rate(sum(r["outcome"] == ACCOMPLISHED for r in valid), n).as_dict(),
        "no_valid_plan": Rate(sum(not r["plan_valid"] for r in valid), n).as_dict(),
        "base_accomplished": Rate(sum(r["outcome"] == ACCOMPLISHED for r in base), n).as_dict(),
        "by_scenario": {"accomplished": _clustered(acc, share=True),
                        "no_valid_plan": _clustered({r["scenario_id"]: float(not r["plan_valid"]) for r in valid},
                                                    share=True),
                        "base_accomplished": _clustered(_indicator(base, ACCOMPLISHED), share=True),
                        "vs_base": _clustered(_minus(acc, _indicator(base, ACCOMPLISHED)))}}
    vs_base = paired_comparison([*valid, *base], "valid", "base")
    assert vs_base is not None
    out["vs_base"] = {k: vs_base[k] for k in ("wins", "ties", "losses", "sign_test_p", "accomplished_diff")}
    if no_repair is not None:
        renamed = [{**r, "variant": "no_repair"} for r in no_repair]
        vs = paired_comparison([*valid, *renamed], "valid", "no_repair")
        assert vs is not None
        out["vs_no_repair"] = {k: vs[k] for k in ("wins", "ties", "losses", "sign_test_p", "accomplished_diff")}
        out["by_scenario"]["vs_no_repair"] = _clustered(_minus(acc, _indicator(no_repair, ACCOMPLISHED)))
    return out


def run_study(scenarios: Sequence[Scenario], grid: StudyGrid,
              on_progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run the sweep on `scenarios` and summarise it (module docstring); JSON-ready. Deterministic: the
    same scenarios and grid give the same result."""
    scenarios = list(scenarios)
    cells: list[dict[str, Any]] = []
    valid_by: dict[tuple[float, float], list[dict[str, Any]]] = {}
    base_by: dict[tuple[float, float], list[dict[str, Any]]] = {}
    for d in grid.defect_rates:
        for r in grid.repair_rates:
            full: list[dict[str, Any]] = []
            accuracies = grid.critic_accuracies if r in grid.critic_repair_rates else ()
            spin: dict[float, list[dict[str, Any]]] = {p: [] for p in accuracies}
            for seed in grid.seeds:
                behaviour = Behaviour(seed=seed, defect_rate=d, repair_rate=r, tempting_rate=grid.tempting_rate)
                full += [_slim(run, seed) for run in _runs(scenarios, behaviour, ("base", "valid"), grid.rounds)]
                for p in accuracies:
                    spin[p] += [_slim(run, seed) for run in _runs(
                        scenarios, dataclasses.replace(behaviour, critic_accuracy=p), ("spin",), grid.rounds)]
            valid_by[(d, r)] = [x for x in full if x["variant"] == "valid"]
            base_by[(d, r)] = [x for x in full if x["variant"] == "base"]
            for p in accuracies:
                cells.append({"defect_rate": d, "repair_rate": r, "critic_accuracy": p,
                              "vs_full_plan": _early_stopping([*full, *spin[p]], "valid"),
                              "vs_base": _early_stopping([*full, *spin[p]], "base")})
            if on_progress is not None:
                on_progress(f"defect rate {d}, repair rate {r}: {len(grid.seeds)} seeds done")
    repair = [{"defect_rate": d, "repair_rate": r,
               **_repair(valid_by[(d, r)], base_by[(d, r)], valid_by.get((d, 0.0)) if r != 0.0 else None)}
              for d in grid.defect_rates for r in grid.repair_rates]
    return {"format": STUDY_FORMAT, "grid": dataclasses.asdict(grid), "n_scenarios": len(scenarios),
            "scenarios": sorted(s.id for s in scenarios), "early_stopping": cells, "repair": repair}


def _runs(scenarios: Sequence[Scenario], behaviour: Behaviour, variants: Sequence[str], rounds: int) -> list[SpinRun]:
    runner = SpinRunner(ScriptedSpinBackend(scenarios, behaviour), None, rounds=rounds)
    return runner.run([(s, v) for s in scenarios for v in variants])


# ----------------------------------------------------------------------------- tables

def _ci(d: Mapping[str, Any], digits: int = 2) -> str:
    ci = d["ci95"]
    return f"{d['mean']:+.{digits}f}" + (f" [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]" if ci else "")


def _share(d: Mapping[str, Any]) -> str:
    ci = d["ci95"]
    return f"{d['mean']:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def _chart_repair_rate(study: Mapping[str, Any]) -> float:
    """The repair rate the early-stopping chart and table show: the first SPIN was swept at."""
    return study["grid"]["critic_repair_rates"][0]


def _tables(study: Mapping[str, Any], r: float) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) of the two tables: early stopping at repair rate `r` for every defect rate
    and critic accuracy, and repair at every defect and repair rate."""
    stop = [[str(c["defect_rate"]), str(c["critic_accuracy"]), _ci(e["by_scenario"]["tasks_saved"]),
             _share(e["by_scenario"]["outcome_lost"]), _per_loss(e), _ci(e["by_scenario"]["accomplished_diff"], 3),
             _ci(e["by_scenario"]["extra_model_calls"], 1)]
            for c in study["early_stopping"] if c["repair_rate"] == r for e in [c["vs_full_plan"]]]
    repair = [[str(c["defect_rate"]), str(c["repair_rate"]), _share(b["accomplished"]), _share(b["no_valid_plan"]),
               _share(b["base_accomplished"]), _ci(b["vs_base"], 3),
               _ci(b["vs_no_repair"], 3) if "vs_no_repair" in b else "-"]
              for c in study["repair"] for b in [c["by_scenario"]]]
    return [(f"Early stopping (SPIN vs the full plan, repair rate {r}; n = {_n_pairs(study)} pairs each, "
             "intervals clustered by scenario)",
             ["defect rate", "critic accuracy", "tasks saved / run", "outcome lost (share of runs)",
              "tasks saved per outcome lost", "Accomplished SPIN − full", "extra model calls / run"], stop),
            ("Repair (VALID: validator + repair loop, full plan; BASE: the raw plan executed leniently; "
             "intervals clustered by scenario)",
             ["defect rate", "repair rate", "VALID Accomplished", "no valid plan", "BASE Accomplished",
              "VALID − BASE", "VALID − no repair"], repair)]


def _per_loss(e: Mapping[str, Any]) -> str:
    """Tasks saved per run with a worse outcome: the exchange rate at which early stopping breaks even (it
    pays when a lost outcome is worth fewer tasks than this); "no loss" when no run lost."""
    lost = e["by_scenario"]["outcome_lost"]["mean"]
    return f"{e['by_scenario']['tasks_saved']['mean'] / lost:.1f}" if lost else "no loss"


def _markdown(caption: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return "\n".join([caption + ":", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header),
                      *("| " + " | ".join(row) + " |" for row in rows)])


def study_markdown(study: Mapping[str, Any], repair_rate: float | None = None) -> str:
    """The two tables of _tables as markdown (early stopping at `repair_rate`, default: the chart's)."""
    r = _chart_repair_rate(study) if repair_rate is None else repair_rate
    return "\n\n".join(_markdown(*table) for table in _tables(study, r))


def study_html(study: Mapping[str, Any]) -> str:
    """The chart (inline SVG) and the two tables as an HTML fragment; every text is escaped."""
    parts = [study_svg(study)]
    for caption, header, rows in _tables(study, _chart_repair_rate(study)):
        parts.append(f"<table><caption>{html.escape(caption)}</caption><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"
                     + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
                     + "</table>")
    return "".join(parts)


def _n_pairs(study: Mapping[str, Any]) -> int:
    return study["early_stopping"][0]["vs_full_plan"]["n"] if study["early_stopping"] else 0


def format_study(study: Mapping[str, Any]) -> str:
    """Plain-text summary: the grid, the early-stopping table at every repair rate, the repair table."""
    g = study["grid"]
    head = (f"SPIN study: {study['n_scenarios']} scenarios x {len(g['seeds'])} seeds; critic accuracy "
            f"{g['critic_accuracies']}, defect rate {g['defect_rates']}, repair rate {g['repair_rates']}, "
            f"tempting rate {g['tempting_rate']}, T = {g['rounds']}")
    early = [_markdown(*_tables(study, r)[0]) for r in g["critic_repair_rates"]]
    return "\n\n".join([head, *early, _markdown(*_tables(study, g["repair_rates"][0])[1])])


# ----------------------------------------------------------------------------- the chart (SVG)

_W, _H, _PAD = 430, 300, 48
_COLOURS = ("#1b6ca8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e")


class _Panel:
    """One plot area: maps data to pixels and writes SVG elements."""

    def __init__(self, x0: float, xmax: float, ymax: float, title: str, xlabel: str, ylabel: str,
                 xmin: float = 0.0) -> None:
        self.x0, self.xmin, self.xmax, self.ymax = x0, xmin, xmax, ymax
        self.out = [f'<text x="{x0 + _W / 2}" y="18" text-anchor="middle" font-weight="bold">'
                    f'{html.escape(title)}</text>',
                    f'<text x="{x0 + _W / 2}" y="{_H + 38}" text-anchor="middle">{html.escape(xlabel)}</text>',
                    f'<text transform="translate({x0 + 12},{_H / 2 + 20}) rotate(-90)" text-anchor="middle">'
                    f'{html.escape(ylabel)}</text>']
        left, bottom = self.px(xmin, 0.0)
        self.out.append(f'<path d="M{left},{30} V{bottom} H{x0 + _W - 6}" stroke="#444" fill="none"/>')
        for i in range(6):
            x, y = xmin + (xmax - xmin) * i / 5, ymax * i / 5
            px, _ = self.px(x, 0)
            _, py = self.px(xmin, y)
            self.out.append(f'<text x="{px}" y="{bottom + 14}" text-anchor="middle" font-size="10">{x:.2f}</text>')
            self.out.append(f'<text x="{left - 4}" y="{py + 3}" text-anchor="end" font-size="10">{y:.2f}</text>')
            self.out.append(f'<path d="M{left},{py} H{x0 + _W - 6}" stroke="#eee"/>')

    def px(self, x: float, y: float) -> tuple[float, float]:
        span = (self.xmax - self.xmin) or 1.0
        return (round(self.x0 + _PAD + (x - self.xmin) / span * (_W - _PAD - 10), 1),
                round(_H - y / (self.ymax or 1.0) * (_H - 40), 1))

    def series(self, points: Sequence[tuple[float, float, tuple[float, float] | None, tuple[float, float] | None, str]],
               colour: str) -> None:
        """A polyline with points; each point (x, y, x interval, y interval, label) gets whiskers and its label."""
        path = " ".join(f"{'M' if i == 0 else 'L'}{a},{b}" for i, (a, b) in
                        enumerate(self.px(x, y) for x, y, *_ in points))
        self.out.append(f'<path d="{path}" stroke="{colour}" fill="none" stroke-width="1.5"/>')
        for x, y, xci, yci, label in points:
            cx, cy = self.px(x, y)
            if xci:
                (a, _), (b, _) = self.px(xci[0], y), self.px(xci[1], y)
                self.out.append(f'<path d="M{a},{cy} H{b}" stroke="{colour}" stroke-width="0.8"/>')
            if yci:
                (_, a), (_, b) = self.px(x, yci[0]), self.px(x, yci[1])
                self.out.append(f'<path d="M{cx},{a} V{b}" stroke="{colour}" stroke-width="0.8"/>')
            self.out.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{colour}"/>')
            if label:
                self.out.append(f'<text x="{cx + 5}" y="{cy - 5}" font-size="10" fill="{colour}">'
                                f'{html.escape(label)}</text>')

    def legend(self, entries: Sequence[tuple[str, str]], left: bool) -> None:
        """Colour keys in the bottom-left or bottom-right corner (where the lines of these charts are not)."""
        for i, (label, colour) in enumerate(entries):
            x = self.x0 + _PAD + 8 if left else self.x0 + _W - 105
            y = _H - 14 * (len(entries) - i)
            self.out.append(f'<rect x="{x}" y="{y - 8}" width="10" height="10" fill="{colour}"/>'
                            f'<text x="{x + 14}" y="{y + 1}" font-size="11">{html.escape(label)}</text>')


def study_svg(study: Mapping[str, Any]) -> str:
    """The study's chart as a self-contained SVG document: left, tasks saved per run against the share of
    runs whose outcome is worse than the full plan's, one line per defect rate (at the first critic repair rate),
    points labelled with the critic accuracy, 95% whiskers clustered by scenario; right, VALID's Accomplished rate
    against the defect rate, one line per repair rate and one for BASE, whiskers clustered by scenario."""
    r = _chart_repair_rate(study)
    cells = [c for c in study["early_stopping"] if c["repair_rate"] == r]
    clustered = [c["vs_full_plan"]["by_scenario"] for c in cells]
    saved_max = max([(e["tasks_saved"]["ci95"] or [0, e["tasks_saved"]["mean"]])[1] for e in clustered] + [0.1])
    lost_max = max([(e["outcome_lost"]["ci95"] or [0, e["outcome_lost"]["mean"]])[1] for e in clustered] + [0.05])
    left = _Panel(0, _nice(saved_max), _nice(lost_max), f"Early stopping (repair rate {r})",
                  "tasks saved per run (full plan − SPIN)", "share of runs with a worse outcome")
    defects = study["grid"]["defect_rates"]
    for i, d in enumerate(defects):
        pts = []
        for c in sorted((c for c in cells if c["defect_rate"] == d), key=lambda c: c["critic_accuracy"]):
            by_scenario = c["vs_full_plan"]["by_scenario"]
            saved, lost = by_scenario["tasks_saved"], by_scenario["outcome_lost"]
            pts.append((saved["mean"], lost["mean"], _pair(saved["ci95"]), _pair(lost["ci95"]),
                        f"p={c['critic_accuracy']}" if i == 0 else ""))
        left.series(pts, _COLOURS[i % len(_COLOURS)])
    left.legend([(f"defect rate {d}", _COLOURS[i % len(_COLOURS)]) for i, d in enumerate(defects)], left=False)
    right = _Panel(_W + 20, max(defects) or 1.0, 1.0, "Repair: full-plan outcome", "defect rate",
                   "Accomplished rate")
    lines: list[tuple[str, list[tuple[float, float, None, tuple[float, float] | None, str]]]] = []
    def outcome_line(key: str, rr: float) -> list[tuple[float, float, None, tuple[float, float] | None, str]]:
        return [(c["defect_rate"], c["by_scenario"][key]["mean"], None, _pair(c["by_scenario"][key]["ci95"]), "")
                for c in study["repair"] if c["repair_rate"] == rr]

    for rr in study["grid"]["repair_rates"]:
        lines.append((f"VALID, repair rate {rr}", outcome_line("accomplished", rr)))
    lines.append(("BASE (lenient, no repair)", outcome_line("base_accomplished", r)))
    for i, (_, line_points) in enumerate(lines):
        right.series(line_points, _COLOURS[i % len(_COLOURS)])
    right.legend([(label, _COLOURS[i % len(_COLOURS)]) for i, (label, _) in enumerate(lines)], left=True)
    width, height = 2 * _W + 20, _H + 50
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'font-family="sans-serif" font-size="12"><rect width="{width}" height="{height}" fill="white"/>'
            + "".join(left.out + right.out) + "</svg>\n")


def _pair(ci: Sequence[float] | None) -> tuple[float, float] | None:
    return None if ci is None else (ci[0], ci[1])


def _nice(x: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5 x 10^k at or above x (a round axis end)."""
    step = 10.0 ** (len(str(int(x))) - 1) if x >= 1 else 0.01
    while True:
        for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 10):
            if m * step >= x:
                return m * step
        step *= 10


# ----------------------------------------------------------------------------- the HTML report

STUDY_PATH = ROOT / "benchmarks" / "results" / "spin_study.json"
REPRODUCE = ("python benchmarks/spin_study.py --out benchmarks/results/spin_study.json "
             "--svg benchmarks/results/spin_study.svg --text benchmarks/results/spin_study.txt")


def spin_report_section(document: Mapping[str, Any], study_path: Path = STUDY_PATH) -> str:
    """The HTML report's SPIN section for a results document with a `spin` section: the committed study
    (chart inline, tables, the command that reproduces it), which holds for any model; "" for a document
    without SPIN runs or when the study file is absent, unreadable or of another format."""
    if "spin" not in document:
        return ""
    try:
        study = json.loads(study_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not isinstance(study, dict) or study.get("format") != STUDY_FORMAT:
        return ""   # another version's study: regenerate it (REPRODUCE) rather than misread it
    g = study["grid"]
    intro = (f"Scripted planners, repairers and critics with set behaviour, run through the real SPIN pipeline "
             f"on {study['n_scenarios']} scenarios x {len(g['seeds'])} seeds (no model): how many tasks early "
             f"stopping saves against how often it loses outcome, by critic accuracy, and what repair buys at "
             f"each plan defect rate. Reproduce: ")
    return (f'<section id="spin-study"><h2>SPIN: when does it pay?</h2><p class=sub>{html.escape(intro)}'
            f"<code>{html.escape(REPRODUCE)}</code></p>{study_html(study)}</section>")
