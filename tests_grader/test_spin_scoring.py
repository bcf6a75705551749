"""SPIN scoring beyond one run's outcome: the plan-level score, per-run costs over executed and over all runs,
the paired comparison (sign test, intervals, by shape) and the table beside the paper (tooluse1.spin.scoring).

Records are built with runner.SpinRun, the form a results file's `spin.records` holds."""
from __future__ import annotations

import pytest

from tooluse1.spin.runner import SpinRun, StepRun
from tooluse1.spin.scenarios import load_scenarios
from tooluse1.spin.scoring import (
    ERROR,
    PAPER,
    beside_paper,
    paired_comparison,
    plan_score,
    sign_test,
    spin_section,
    summarise_variant,
)
from tooluse1.spin.store import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY

SCENARIOS = {s.id: s for s in load_scenarios()[0]}
CHAIN = SCENARIOS["chain-en-001"]     # get_weather -> convert_units (depends on #S1)
FAN_IN = SCENARIOS["fan_in-en-001"]   # get_weather, get_weather -> allowed calculator (depends on #S1 #S2)


# ----------------------------------------------------------------------------- plan score

def test_plan_score_counts_required_calls_dependencies_and_extra_steps():
    full = plan_score(CHAIN, [("get_weather", ()), ("convert_units", (1,))])
    assert (full.required_covered, full.edges_covered, full.n_edges, full.extra_steps) == (2, 1, 1, 0)
    assert full.required_recall == full.edge_recall == 1.0
    # The dependency not declared: both calls planned, the edge is not.
    loose = plan_score(CHAIN, [("get_weather", ()), ("convert_units", ())])
    assert loose.required_recall == 1.0 and loose.edge_recall == 0.0
    # A tempting calculator step is an extra step; the planned order does not matter for coverage.
    over = plan_score(CHAIN, [("convert_units", ()), ("get_weather", ()), ("calculator", (1,))])
    assert over.required_covered == 2 and over.extra_steps == 1 and over.edges_covered == 0
    missing = plan_score(CHAIN, [("get_weather", ())])
    assert missing.required_recall == 0.5 and missing.edge_recall == 0.0 and missing.n_steps == 1


def test_plan_score_separates_allowed_calls_from_required_ones():
    bare = plan_score(FAN_IN, [("get_weather", ()), ("get_weather", ())])
    assert (bare.required_covered, bare.allowed_covered, bare.extra_steps) == (2, 0, 0)
    assert bare.required_recall == 1.0            # the calculator is allowed, never needed
    combined = plan_score(FAN_IN, [("get_weather", ()), ("get_weather", ()), ("calculator", (1, 2))])
    assert (combined.allowed_covered, combined.edges_covered, combined.n_edges) == (1, 2, 2)


# ----------------------------------------------------------------------------- summaries and comparisons

def _record(scenario_id: str, variant: str, outcome: str, tasks: int, tool_calls: int | None = None,
            model_calls: int = 3) -> dict:
    s = SCENARIOS[scenario_id]
    run = SpinRun(s.id, variant, s.shape, s.lang, list(s.agents), outcome=outcome, plan_valid=tasks > 0,
                  model_calls=model_calls, tool_calls=tasks if tool_calls is None else tool_calls,
                  tool_latency_s=0.5 * tasks, model_s=2.0)
    run.steps = [StepRun(i, s.agents[0], "t", [], "out", ok=True) for i in range(1, tasks + 1)]
    return run.as_dict()


def test_costs_are_reported_over_executed_runs_and_over_all_runs():
    records = [_record("chain-en-001", "base", ERROR, 0), _record("chain-en-002", "base", PARTIALLY, 2),
               _record("chain-en-003", "base", ACCOMPLISHED, 4, tool_calls=3)]
    v = summarise_variant(records)
    tasks, tools = v["costs"]["executed_tasks"], v["costs"]["tool_calls"]
    assert v["n"] == 3 and v["n_executed_runs"] == 2
    assert tasks["executed_runs"]["mean"] == 3.0 and tasks["all_runs"]["mean"] == 2.0
    assert tasks["all_runs"]["total"] == 6.0 and tasks["executed_runs"]["sd"] == pytest.approx(1.4142, abs=1e-4)
    assert tools["executed_runs"]["mean"] == 2.5       # tool calls are counted apart from executed tasks
    assert v["costs"]["elapsed_s"]["executed_runs"]["mean"] == pytest.approx(2.0 + 0.5 * 3)
    assert v["outcomes"][ERROR]["k"] == 1


def test_sign_test():
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert sign_test(5, 0) == pytest.approx(0.0625) and sign_test(0, 5) == pytest.approx(0.0625)
    assert sign_test(9, 1) == pytest.approx(0.021484375)


def test_paired_comparison_by_shape_with_intervals():
    records = []
    for sid in ("chain-en-001", "chain-en-002", "chain-en-003"):
        records += [_record(sid, "base", PARTIALLY, 4), _record(sid, "spin", ACCOMPLISHED, 2)]
    records += [_record("early_answer-en-001", "base", ACCOMPLISHED, 3),
                _record("early_answer-en-001", "spin", NOT_ACCOMPLISHED, 1)]
    p = paired_comparison(records, "spin", "base")
    assert (p["n"], p["wins"], p["ties"], p["losses"]) == (4, 3, 0, 1)
    assert p["sign_test_p"] == pytest.approx(0.625)
    assert p["diffs"]["executed_tasks"]["mean"] == -2.0 and p["diffs"]["executed_tasks"]["ci95"] is not None
    chain = p["by_shape"]["chain"]
    assert (chain["wins"], chain["losses"]) == (3, 0) and chain["sign_test_p"] == pytest.approx(0.25)
    assert chain["accomplished_diff"]["mean"] == 1.0 and chain["executed_tasks_diff"] == {
        "n": 3, "mean": -2.0, "ci95": [-2.0, -2.0]}
    early = p["by_shape"]["early_answer"]
    assert early["accomplished_diff"] == {"n": 1, "mean": -1.0, "ci95": None}   # one pair: no interval
    assert paired_comparison(records, "spin", "valid") is None


def test_table_beside_the_paper_reads_executed_runs():
    records = [_record("chain-en-001", "base", ERROR, 0), _record("chain-en-002", "base", ACCOMPLISHED, 4),
               _record("chain-en-001", "spin", ACCOMPLISHED, 2), _record("chain-en-002", "spin", ACCOMPLISHED, 2)]
    section = spin_section(records, {"model": "test"}, ("base", "spin"))
    rows = {r["metric"]: r for r in section["beside_paper"]}
    assert rows["executed_tasks_per_run"]["paper_base"] == PAPER["base"]["executed_tasks_per_run"] == 4.07
    assert rows["executed_tasks_per_run"]["ours_base"] == 4.0       # the Error run executed nothing
    assert rows["executed_tasks_total"]["ours_base"] == 4.0 and rows["executed_tasks_total"]["ours_spin"] == 4.0
    assert rows["accomplished"]["ours_base"] == 0.5 and rows["error"]["ours_base"] == 0.5
    assert beside_paper({})[0]["ours_base"] is None


def test_beside_the_paper_labels_each_row_and_gives_matched_scenario_figures():
    """Rows say what they measure there and here; the matched columns use only the scenarios where both BASE
    and SPIN executed a step (chain-en-002 here: BASE executed nothing on chain-en-001)."""
    records = [_record("chain-en-001", "base", ERROR, 0), _record("chain-en-002", "base", ACCOMPLISHED, 4),
               _record("chain-en-001", "spin", ACCOMPLISHED, 2), _record("chain-en-002", "spin", PARTIALLY, 1)]
    section = spin_section(records, {"model": "test"}, ("base", "spin"))
    assert section["matched_scenarios"] == ["chain-en-002"]
    rows = {r["metric"]: r for r in section["beside_paper"]}
    assert all(r["paper_definition"] and r["our_definition"] for r in rows.values())
    assert "every role" in rows["model_calls_per_run"]["our_definition"]
    assert "execution agents" in rows["model_calls_per_run"]["paper_definition"]
    executed = rows["executed_tasks_per_run"]
    assert executed["ours_spin"] == 1.5 and executed["ours_spin_matched"] == 1.0
    assert rows["accomplished"]["ours_base_matched"] == 1.0 and rows["accomplished"]["ours_spin_matched"] == 0.0
    assert rows["accomplished_per_step"]["paper_base"] == PAPER["base"]["accomplished"]


def _with_steps(record: dict, calls: list[tuple[str, dict]], statuses: list[str]) -> dict:
    record["steps"] = [{"index": i, "agent": n, "task": "t", "dependencies": [], "model_output": "",
                        "call": {"name": n, "arguments": a}, "ok": True, "output": "o", "error": None, "status": st}
                       for i, ((n, a), st) in enumerate(zip(calls, statuses), 1)]
    record["counters"]["executed_tasks"] = len(calls)
    return record


def test_per_step_accomplished_rate_and_runs_repeating_an_identical_call():
    weather = ("get_weather", {"city": "Berlin"})
    twice = _with_steps(_record("chain-en-001", "base", PARTIALLY, 3),
                        [weather, weather, ("calculator", {"expression": "1"})],
                        [ACCOMPLISHED, PARTIALLY, PARTIALLY])
    # the same tool with other arguments, or an alias of it, is not / is a repetition
    other = _with_steps(_record("chain-en-002", "base", ACCOMPLISHED, 2),
                        [weather, ("get_weather", {"city": "Berlin", "unit": "celsius"})], [ACCOMPLISHED, ACCOMPLISHED])
    alias = _with_steps(_record("chain-en-003", "base", PARTIALLY, 2), [weather, ("weather", {"city": "Berlin"})],
                        [ACCOMPLISHED, PARTIALLY])
    v = summarise_variant([twice, other, alias, _record("chain-en-004", "base", ERROR, 0)])
    assert v["repetition"]["k"] == 2 and v["repetition"]["n"] == 3
    st = v["step_accomplished"]
    assert (st["runs"], st["steps"], st["accomplished_steps"]) == (3, 7, 4)
    assert st["per_run_mean"] == pytest.approx(round((1 / 3 + 1 + 1 / 2) / 3, 4))
    assert v["no_valid_plan"]["k"] == 0
