"""Stage 6: verdicts -> Summary with Wilson 95% intervals (SPEC.md §3.4). Public API: `wilson`.

Every rate is reported as k, n, rate, low, high, over the items it applies to; backend errors (an item
with no answer at all) are excluded from every denominator and counted on their own.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

BREAKDOWNS = ("protocol", "lang", "category", "difficulty", "kind")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials; (0.0, 1.0) when n == 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # The exact bounds at k = 0 and k = n are 0 and 1; rounding gave e.g. 0.9999999999999999 for 49/49,
    # an interval that excluded the observed rate.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Rate:
    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    def as_dict(self) -> dict:
        lo, hi = wilson(self.k, self.n)
        return {"k": self.k, "n": self.n, "rate": self.value, "ci95": [lo, hi]}

    def fmt(self) -> str:
        if not self.n:
            return "    n/a          (n=0)"
        lo, hi = wilson(self.k, self.n)
        return f"{self.value:6.3f} [{lo:.3f}, {hi:.3f}] (n={self.n})"


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
                   has_constraints=exp.kind != "call", error=error, truncated=bool(v and v.cut_off))


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
    graded = [i for i in items if not i.error]
    out: dict[str, Rate] = {}
    for name, (applies, success) in METRICS.items():
        pool = [i for i in graded if applies(i)]
        out[name] = Rate(sum(1 for i in pool if success(i)), len(pool))
    return out


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


def format_summary(summary: dict, title: str = "ToolUse.1") -> str:
    """A plain-text table: every metric with its Wilson interval and n, then each breakdown's score and
    the three behaviours side by side."""
    def rate(d: dict) -> str:
        return Rate(d["k"], d["n"]).fmt()

    lines = [f"{title}: {summary['n_items']} items, {summary['n_errors']} backend errors"]
    for name, d in summary["overall"].items():
        lines.append(f"  {name:<22} {rate(d)}")
    cols = ("score", "correct_call", "correct_abstention", "correct_clarification")
    for dim, groups in summary["by"].items():
        lines.append(f"  {'by ' + dim:<22}" + "".join(f"  {c:<32}" for c in cols))
        for g, metrics in groups.items():
            lines.append(f"    {g:<20}" + "".join(f"  {rate(metrics[c]):<32}" for c in cols))
    return "\n".join(lines)


MARKDOWN_COLUMNS = ("score", "correct_call", "correct_abstention", "correct_clarification", "spurious_call_rate",
                    "malformed_rate", "truncated_rate")


def format_markdown(summary: dict, dim: str = "protocol", overall: dict | None = None,
                    overall_label: str = "**all**") -> str:
    """A Markdown table of the headline metrics (rate [Wilson 95%] and n) per value of one breakdown, then an
    overall row (`overall`, a summary's "overall" section; by default the summary's own); what the README
    and BENCHMARKS.md show for a reference run."""
    def cell(d: dict | None) -> str:
        if not d or not d["n"]:      # None: a file graded before the metric existed (truncated_rate: 2.x)
            return "n/a"
        lo, hi = d["ci95"]
        return f"{d['rate']:.3f} [{lo:.3f}, {hi:.3f}] n={d['n']}"

    head = f"| {dim} | " + " | ".join(MARKDOWN_COLUMNS) + " |"
    rows = [head, "|" + "---|" * (len(MARKDOWN_COLUMNS) + 1)]
    for group, metrics in summary["by"][dim].items():
        rows.append(f"| {group} | " + " | ".join(cell(metrics.get(m)) for m in MARKDOWN_COLUMNS) + " |")
    total = overall if overall is not None else summary["overall"]
    rows.append(f"| {overall_label} | " + " | ".join(cell(total.get(m)) for m in MARKDOWN_COLUMNS) + " |")
    return "\n".join(rows)
