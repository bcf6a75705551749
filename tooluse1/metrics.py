"""Stage 6: verdicts -> Summary with 95% intervals (SPEC.md §3.4). Public API: `wilson`, `interval`.

Every rate is reported as k, n, rate and Wilson's interval (`ci95`) over the items it applies to; where the
group pools several items of one case (protocols pooled: overall, per language, category, difficulty, kind)
also the interval clustered by case (`ci95_clustered`, tooluse1/stats.py), the design effect and the number
of cases. `interval(rate)` picks the one to report. Backend errors (an item with no answer at all) are
excluded from every denominator and counted on their own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Sequence

from tooluse1.stats import ClusteredInterval, clustered_interval, wilson

BREAKDOWNS = ("protocol", "lang", "category", "difficulty", "kind")


@dataclass(frozen=True)
class Rate:
    """k of n items, with the clustered interval when some case contributes several of the n items."""

    k: int
    n: int
    clustered: ClusteredInterval | None = None

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    def as_dict(self) -> dict:
        """k, n, rate, `ci95` (Wilson, items as if independent) and, for a group that pools several items
        of a case, `ci95_clustered` (the interval to report), `design_effect` and `n_cases`."""
        lo, hi = wilson(self.k, self.n)
        out = {"k": self.k, "n": self.n, "rate": self.value, "ci95": [lo, hi]}
        if self.clustered is not None:
            c = self.clustered
            out.update(ci95_clustered=[c.low, c.high], design_effect=c.design_effect, n_cases=c.n_clusters)
        return out

    def fmt(self) -> str:
        return format_rate(self.as_dict())


def interval(rate: dict) -> tuple[float, float, str]:
    """The interval to report for a rate of a summary (`Rate.as_dict`, also from older files): the clustered
    one where the group pools several items of a case, else Wilson's; with its name ("clustered" | "Wilson")."""
    if rate.get("ci95_clustered") is not None:
        lo, hi = rate["ci95_clustered"]
        return lo, hi, "clustered"
    lo, hi = rate["ci95"]
    return lo, hi, "Wilson"


def format_rate(rate: dict, compact: bool = False, deff: bool = True) -> str:
    """`0.225 [0.185, 0.271] (n=564, 188 cases, deff 1.56)`: the rate, the interval to report (`interval`),
    n, and for a clustered interval the number of cases and the design effect; `compact` gives
    `0.225 [0.185, 0.271] n=564 deff 1.56` (without the design effect when `deff` is False)."""
    if not rate["n"]:
        return "    n/a          " + ("n=0" if compact else "(n=0)")
    lo, hi, _ = interval(rate)
    clustered = "design_effect" in rate and deff
    if compact:
        return f"{rate['rate']:6.3f} [{lo:.3f}, {hi:.3f}] n={rate['n']}" + (
            f" deff {rate['design_effect']:.2f}" if clustered else "")
    extra = f", {rate['n_cases']} cases, deff {rate['design_effect']:.2f}" if clustered else ""
    return f"{rate['rate']:6.3f} [{lo:.3f}, {hi:.3f}] (n={rate['n']}{extra})"


@dataclass(frozen=True)
class GradedItem:
    """What metrics need of one graded item (built from a results record)."""

    protocol: str
    lang: str
    category: str
    difficulty: str
    kind: str | None
    expectation: str
    passed: bool
    label: str
    tool_ok: bool | None
    args_ok: bool | None
    extra_args: bool
    constraints_ok: bool | None
    has_constraints: bool
    error: bool = False
    case_id: str | None = None        # the cluster of the clustered intervals (None: items independent)
    truncated: bool = False      # the output stopped at the token limit (finish reason `length`)

    @classmethod
    def of(cls, case, protocol: str, verdict=None, error: bool = False) -> "GradedItem":
        """From a Case and its Verdict (verdict None only for a backend error)."""
        v = verdict
        exp = case.expect
        return cls(protocol=protocol, lang=case.lang, category=case.category, difficulty=case.difficulty,
                   kind=case.kind, expectation=exp.kind, passed=bool(v and v.passed) and not error,
                   label=v.label if v else "error", tool_ok=v.tool_ok if v else None,
                   args_ok=v.args_ok if v else None, extra_args=bool(v and v.extra_args),
                   constraints_ok=v.constraints_ok if v else None,
                   has_constraints=exp.kind != "call", error=error, case_id=case.cluster,
                   truncated=bool(v and v.cut_off))


# name -> (applies to item?, success?). The order is the order of the printed table.
METRICS: dict[str, tuple[Callable[[GradedItem], bool], Callable[[GradedItem], bool]]] = {
    "score": (lambda i: True, lambda i: i.passed),
    "correct_call": (lambda i: i.expectation == "call", lambda i: i.passed),
    "correct_abstention": (lambda i: i.expectation == "no_call", lambda i: i.passed),
    "correct_clarification": (lambda i: i.expectation == "clarify", lambda i: i.passed),
    "spurious_call_rate": (lambda i: i.expectation != "call", lambda i: i.label == "call"),
    "tool_selected": (lambda i: i.expectation == "call", lambda i: bool(i.tool_ok)),
    "arguments_exact": (lambda i: i.expectation == "call",
                        lambda i: bool(i.tool_ok and i.args_ok and not i.extra_args)),
    "constraints_satisfied": (lambda i: i.expectation != "call" and i.has_constraints,
                              lambda i: bool(i.constraints_ok)),
    "malformed_rate": (lambda i: True, lambda i: i.label == "malformed"),
    # Verbosity, visible on its own: a text answer cut at the limit is judged by what it says (SPEC §3.3).
    "truncated_rate": (lambda i: True, lambda i: i.truncated),
}


def compute(items: Sequence[GradedItem]) -> dict[str, Rate]:
    """Every metric over the items without a backend error; a metric whose pool holds several items of one
    case (protocols pooled) also gets its interval clustered by case (tooluse1.stats.clustered_interval)."""
    graded = [i for i in items if not i.error]
    out: dict[str, Rate] = {}
    for name, (applies, success) in METRICS.items():
        out[name] = rate_of([(i.case_id, success(i)) for i in graded if applies(i)])
    return out


def rate_of(outcomes: Sequence[tuple[Hashable | None, bool]]) -> Rate:
    """The Rate of (case id, success) outcomes, with the interval clustered by case when some case has
    several outcomes (a case id None: that item counts as independent of every other)."""
    k = sum(1 for _, ok in outcomes if ok)
    cases = [c for c, _ in outcomes]
    if None in cases or len(set(cases)) == len(cases):
        return Rate(k, len(outcomes))
    return Rate(k, len(outcomes), clustered_interval(outcomes))


def summarise(items: Iterable[GradedItem]) -> dict:
    """The summary section of a results file: overall metrics, then per protocol/lang/category/
    difficulty/negative kind, plus counts of items and backend errors."""
    items = list(items)
    summary: dict = {"n_items": len(items), "n_errors": sum(1 for i in items if i.error),
                     "overall": {k: r.as_dict() for k, r in compute(items).items()}, "by": {}}
    for dim in BREAKDOWNS:
        groups: dict[str, list[GradedItem]] = {}
        for i in items:
            value = getattr(i, dim)
            if value is not None:
                groups.setdefault(value, []).append(i)
        summary["by"][dim] = {g: {k: r.as_dict() for k, r in compute(members).items()}
                              for g, members in sorted(groups.items())}
    return summary


def format_summary(summary: dict, title: str = "ToolUse.1", headline: tuple[str, dict] | None = None) -> str:
    """A plain-text table: every metric with its interval (`format_rate`: clustered by case where a group
    pools several items of a case, with the design effect; Wilson elsewhere) and n, then each breakdown's
    score and the three behaviours side by side. `headline` (label, summary of the comparable items, e.g.
    json+xml+plain when the run also has native items) is printed first as the run's score."""
    lines = [f"{title}: {summary['n_items']} items, {summary['n_errors']} backend errors",
             "  95% intervals: clustered by case (deff = design effect) where protocols are pooled, else Wilson"]
    if "samples" in summary:
        from tooluse1.sampling import format_samples
        lines.append(format_samples(summary["samples"]))
        lines.append("  the rates below are means over samples (n = items x samples), clustered by case")
    if headline is not None:
        label, pool = headline
        lines.append(f"  {'SCORE (' + label + ')':<22} {format_rate(pool['overall']['score'])}  <- the headline; "
                     f"the rows below pool every protocol of the run")
    for name, d in summary["overall"].items():
        lines.append(f"  {name:<22} {format_rate(d)}")
    cols = ("score", "correct_call", "correct_abstention", "correct_clarification")
    widths = (38, 30, 30, 30)         # the design effect is shown beside the score only
    for dim, groups in summary["by"].items():
        lines.append((f"  {'by ' + dim:<22}" + "".join(f"  {c:<{w}}" for c, w in zip(cols, widths))).rstrip())
        for g, metrics in groups.items():
            lines.append(f"    {g:<20}" + "".join(f"  {format_rate(metrics[c], True, c == 'score'):<{w}}"
                                                    for c, w in zip(cols, widths)).rstrip())
    return "\n".join(lines)


MARKDOWN_COLUMNS = ("score", "correct_call", "correct_abstention", "correct_clarification", "spurious_call_rate",
                    "malformed_rate", "truncated_rate")
MARKDOWN_LEGEND = ("95% intervals: Wilson within one protocol (each case once); clustered by case where protocols "
                   "are pooled, with the design effect (deff) beside it (SPEC.md §3.4).")


def format_markdown(summary: dict, dim: str = "protocol", overall: dict | None = None,
                    overall_label: str = "**all**") -> str:
    """A Markdown table of the headline metrics (rate [95% interval] n, as `format_rate` compact) per value of
    one breakdown, then an overall row (`overall`, a summary's "overall" section; by default the summary's
    own); what the README and BENCHMARKS.md show for a reference run."""
    def cell(d: dict | None) -> str:
        if not d or not d["n"]:      # None: a file graded before the metric existed (truncated_rate: 2.x)
            return "n/a"
        return format_rate(d, compact=True).strip()

    head = f"| {dim} | " + " | ".join(MARKDOWN_COLUMNS) + " |"
    rows = [head, "|" + "---|" * (len(MARKDOWN_COLUMNS) + 1)]
    for group, metrics in summary["by"][dim].items():
        rows.append(f"| {group} | " + " | ".join(cell(metrics.get(m)) for m in MARKDOWN_COLUMNS) + " |")
    total = overall if overall is not None else summary["overall"]
    rows.append(f"| {overall_label} | " + " | ".join(cell(total.get(m)) for m in MARKDOWN_COLUMNS) + " |")
    return "\n".join(rows)
