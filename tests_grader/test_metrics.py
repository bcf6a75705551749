"""Metrics (tooluse1.metrics): Wilson intervals against reference values, summaries and their denominators."""
from __future__ import annotations

import dataclasses
import math
import random

import pytest
from corpus_contract import N_CASES, N_ITEMS

from tooluse1.corpus import load_corpus
from tooluse1.grade import grade
from tooluse1.metrics import (METRICS, GradedItem, Rate, compute, format_markdown, format_summary, interval,
                              summarise, wilson)
from tooluse1.prompts import PROTOCOLS
from tooluse1.selftest import never_call_output, oracle_output
from tooluse1.stats import clustered_interval


def wilson_by_quadratic(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Independent reference: the p with (p_hat - p)^2 = z^2 p (1 - p) / n, i.e. the roots of
    (1 + z^2/n) p^2 - (2 p_hat + z^2/n) p + p_hat^2 = 0."""
    p = k / n
    a, b, c = 1 + z * z / n, -(2 * p + z * z / n), p * p
    d = math.sqrt(b * b - 4 * a * c)
    return (-b - d) / (2 * a), (-b + d) / (2 * a)


# Published / hand-checked 95% Wilson intervals, 4 decimals.
@pytest.mark.parametrize("k,n,low,high", [
    (0, 10, 0.0, 0.2775),
    (1, 10, 0.0179, 0.4042),
    (5, 10, 0.2366, 0.7634),
    (9, 10, 0.5958, 0.9821),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (0, 1, 0.0, 0.7935),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert round(lo, 4) == low and round(hi, 4) == high


def test_wilson_matches_the_quadratic_solution_on_a_grid():
    for n in (1, 2, 3, 7, 10, 30, 49, N_CASES, N_ITEMS, 1000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            lo, hi = wilson(k, n)
            rlo, rhi = wilson_by_quadratic(k, n)
            assert lo == pytest.approx(max(0.0, rlo), abs=1e-12) and hi == pytest.approx(min(1.0, rhi), abs=1e-12)
            assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    lo99, hi99 = wilson(5, 10, z=2.576)
    lo95, hi95 = wilson(5, 10)
    assert lo99 < lo95 and hi99 > hi95                  # wider at 99%
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(-1, 10)


def test_rate_formatting_always_shows_n():
    assert "(n=10)" in Rate(5, 10).fmt() and "0.500" in Rate(5, 10).fmt()
    assert "n=0" in Rate(0, 0).fmt()
    d = Rate(5, 10).as_dict()
    assert d["k"] == 5 and d["n"] == 10 and d["rate"] == 0.5 and [round(x, 4) for x in d["ci95"]] == [0.2366, 0.7634]


# ----------------------------------------------------------------------------- summaries

def item(expectation="call", passed=True, label="call", protocol="json", lang="en", category="calculator",
         difficulty="easy", kind=None, tool_ok=True, args_ok=True, extra=False, constraints_ok=None,
         has_constraints=False, error=False) -> GradedItem:
    if expectation != "call":
        tool_ok = args_ok = None
    return GradedItem(protocol=protocol, lang=lang, category=category, difficulty=difficulty, kind=kind,
                      expectation=expectation, passed=passed, label=label, tool_ok=tool_ok, args_ok=args_ok,
                      extra_args=extra, constraints_ok=constraints_ok, has_constraints=has_constraints, error=error)


ITEMS = [
    item(),                                                                   # right call
    item(extra=True),                                                         # right call, extra argument
    item(passed=False, args_ok=False, protocol="xml", lang="ru", difficulty="hard"),   # wrong argument
    item(passed=False, tool_ok=False, args_ok=False, protocol="xml"),          # wrong tool
    item(passed=False, label="malformed", tool_ok=False, args_ok=False, protocol="plain"),
    item("no_call", True, "text", category="negative", kind="knowledge", constraints_ok=True, has_constraints=True),
    item("no_call", False, "call", category="negative", kind="knowledge", constraints_ok=False, has_constraints=True),
    item("no_call", True, "text", category="negative", kind="capability_trap", constraints_ok=True),
    item("no_call", False, "malformed", category="negative", kind="instruction_trap", constraints_ok=True,
         lang="ru"),
    item("clarify", True, "text", category="clarification", constraints_ok=True, has_constraints=True),
    item("clarify", False, "text", category="clarification", constraints_ok=False, has_constraints=True, lang="ru"),
    # backend errors: excluded from every denominator
    item(passed=False, label="error", tool_ok=None, args_ok=None, error=True),
    item("no_call", False, "error", category="negative", kind="knowledge", error=True),
]


def kn(rate: dict) -> tuple[int, int]:
    return rate["k"], rate["n"]


def test_overall_metrics_and_denominators():
    s = summarise(ITEMS)
    o = s["overall"]
    assert s["n_items"] == 13 and s["n_errors"] == 2
    assert kn(o["score"]) == (5, 11)
    assert kn(o["correct_call"]) == (2, 5)
    assert kn(o["correct_abstention"]) == (2, 4)
    assert kn(o["correct_clarification"]) == (1, 2)
    assert kn(o["spurious_call_rate"]) == (1, 6)
    assert kn(o["tool_selected"]) == (3, 5)
    assert kn(o["arguments_exact"]) == (1, 5)          # the extra-argument call is not exact
    assert kn(o["constraints_satisfied"]) == (2, 4)     # only no-call/clarify items with constraints
    assert kn(o["malformed_rate"]) == (2, 11)
    assert set(o) == set(METRICS)
    for rate in o.values():
        lo, hi = rate["ci95"]
        assert (lo, hi) == pytest.approx(wilson(rate["k"], rate["n"]))


def test_breakdowns():
    by = summarise(ITEMS)["by"]
    assert set(by) == {"protocol", "lang", "category", "difficulty", "kind"}
    assert {p: kn(m["score"]) for p, m in by["protocol"].items()} == {"json": (5, 8), "xml": (0, 2), "plain": (0, 1)}
    assert {p: kn(m["score"]) for p, m in by["lang"].items()} == {"en": (5, 8), "ru": (0, 3)}
    assert kn(by["category"]["negative"]["correct_abstention"]) == (2, 4)
    assert kn(by["category"]["calculator"]["correct_call"]) == (2, 5)
    assert kn(by["category"]["clarification"]["correct_clarification"]) == (1, 2)
    assert kn(by["difficulty"]["hard"]["score"]) == (0, 1)
    # kind only for negatives; call/clarify items (kind None) are not a group
    assert {k: kn(m["correct_abstention"]) for k, m in by["kind"].items()} == {
        "knowledge": (1, 2), "capability_trap": (1, 1), "instruction_trap": (0, 1)}
    assert None not in by["kind"]


def test_errors_only_group_has_zero_denominators():
    s = summarise([item(error=True, passed=False, label="error")])
    assert s["n_errors"] == 1 and kn(s["overall"]["score"]) == (0, 0)
    assert s["overall"]["score"]["rate"] is None and s["overall"]["score"]["ci95"] == [0.0, 1.0]


def test_format_summary_prints_every_metric_with_n():
    text = format_summary(summarise(ITEMS), title="T")
    assert text.splitlines()[0] == "T: 13 items, 2 backend errors"
    for name in METRICS:
        line = next(t for t in text.splitlines() if t.strip().startswith(name))
        assert "(n=" in line
    assert "by protocol" in text and "by kind" in text


def test_oracle_and_never_call_summaries_on_the_corpus():
    cases, _ = load_corpus()
    oracle, never = [], []
    for c in cases:
        for p in PROTOCOLS:
            oracle.append(GradedItem.of(c, p, grade(c, oracle_output(c, p), p)))
            never.append(GradedItem.of(c, p, grade(c, never_call_output(c, p), p)))
    s = summarise(oracle)
    assert kn(s["overall"]["score"]) == (3 * len(cases), 3 * len(cases))
    for p in PROTOCOLS:
        assert kn(s["by"]["protocol"][p]["score"]) == (len(cases), len(cases))
    assert kn(s["overall"]["spurious_call_rate"])[0] == 0
    n_call = sum(c.expectation == "call" for c in cases)
    n_text = sum(c.expectation != "call" for c in cases)   # never-call answers every text case with its reference
    m = compute(never)
    assert (m["score"].k, m["score"].n) == (3 * n_text, 3 * len(cases))
    assert (m["correct_call"].k, m["correct_call"].n) == (0, 3 * n_call)
    assert m["spurious_call_rate"].k == 0


# ----------------------------------------------------------------------------- clustered intervals in summaries

def rendered(case_id: str, verdicts: dict[str, bool], **attrs) -> list[GradedItem]:
    """One case's items, one per protocol, with the given verdicts."""
    return [dataclasses.replace(item(passed=ok, label="call", protocol=p, **attrs), case_id=case_id)
            for p, ok in verdicts.items()]


def test_pooled_groups_get_the_interval_clustered_by_case_and_single_protocol_groups_wilson():
    rng = random.Random(8)
    items = []
    for c in range(60):
        ok = rng.random() < 0.5                           # a case passes or fails in every protocol, mostly
        items += rendered(f"calculator-en-{c:03d}", {p: ok if rng.random() < 0.9 else not ok for p in PROTOCOLS},
                          lang="en" if c % 2 else "ru")
    s = summarise(items)
    score = s["overall"]["score"]
    ci = clustered_interval((i.case_id, i.passed) for i in items)
    assert score["n_cases"] == 60 and score["design_effect"] == pytest.approx(ci.design_effect)
    assert score["ci95_clustered"] == pytest.approx([ci.low, ci.high]) and score["design_effect"] > 1.5
    assert score["ci95"] == pytest.approx(wilson(score["k"], score["n"]))            # Wilson kept beside it
    assert interval(score) == (ci.low, ci.high, "clustered")
    assert score["ci95_clustered"][1] - score["ci95_clustered"][0] > score["ci95"][1] - score["ci95"][0]
    for p in PROTOCOLS:                                   # within one protocol each case appears once
        one = s["by"]["protocol"][p]["score"]
        assert "ci95_clustered" not in one and interval(one)[2] == "Wilson"
    assert s["by"]["lang"]["en"]["score"]["n_cases"] == 30
    text = format_summary(s)
    line = next(t for t in text.splitlines() if t.strip().startswith("score"))
    assert "60 cases" in line and f"deff {score['design_effect']:.2f}" in line
    assert "SCORE (" not in text
    headline = format_summary(s, headline=("json+xml+plain", s)).splitlines()[2]
    assert headline.split()[:2] == ["SCORE", "(json+xml+plain)"] and "the headline" in headline
    # items without a case id are independent: Wilson only, as before
    plain = summarise([dataclasses.replace(i, case_id=None) for i in items])
    assert "ci95_clustered" not in plain["overall"]["score"]


def test_format_markdown_marks_the_clustered_cells():
    items = rendered("c1", {"json": True, "xml": False, "plain": False}) + \
        rendered("c2", {"json": True, "xml": True, "plain": True})
    table = format_markdown(summarise(items))
    total = table.splitlines()[-1]
    assert total.startswith("| **all** |") and "deff" in total
    assert all("deff" not in row for row in table.splitlines()[2:-1])


# ----------------------------------------------------------------------------- truncated_rate (spec 3.0)

def test_truncated_rate_counts_items_stopped_at_the_token_limit_over_graded_items():
    import dataclasses
    items = [dataclasses.replace(i, truncated=n in (0, 5, 9)) for n, i in enumerate(ITEMS)]
    items.append(dataclasses.replace(item(error=True, passed=False, label="error"), truncated=True))  # excluded
    s = summarise(items)
    assert kn(s["overall"]["truncated_rate"]) == (3, 11)
    assert kn(s["by"]["protocol"]["json"]["truncated_rate"]) == (3, 8)
    assert "truncated_rate" in format_summary(s)


def test_truncated_comes_from_the_verdict_of_any_expectation():
    from tooluse1.corpus import load_corpus
    from tooluse1.grade import grade
    cases = {c.id: c for c in load_corpus()[0]}
    for cid, out in (("negative-en-001", "Canberra, the capital, was built as a compromise between"),
                     ("calculator-en-001", '{"name": "calculator", "arguments": {"expression": "348*27"}}')):
        for finish, cut in (("length", True), ("stop", False), (None, False)):
            v = grade(cases[cid], out, "json", finish)
            assert GradedItem.of(cases[cid], "json", v).truncated is cut


def test_the_markdown_table_shows_truncated_rate_and_reads_files_graded_before_it():
    from tooluse1.metrics import format_markdown
    s = summarise(ITEMS)
    assert "truncated_rate" in format_markdown(s).splitlines()[0]
    for group in s["by"]["protocol"].values():
        del group["truncated_rate"]                      # a 2.x results file has no such metric
    del s["overall"]["truncated_rate"]
    rows = format_markdown(s).splitlines()
    assert all(row.rstrip(" |").endswith("n/a") for row in rows[2:])
