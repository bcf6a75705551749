"""What a run cost (tooluse1.cost): the figures from records, and a pytest run against the fake OpenAI server
with given prices, streamed, whose cost section and summary line are checked against the server's usage."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_openai_backend import FakeServer

from tooluse1.cost import format_cost, percentiles, run_cost
from tooluse1.recordschema import RESULTS_FORMAT_VERSION
from tooluse1.report import _cost_section

ROOT = Path(__file__).resolve().parent.parent
PROVENANCE = {"model": {"backend": "openai", "model_id": "m"}, "started_at": "2026-01-01T10:00:00+00:00",
              "finished_at": "2026-01-01T10:00:30+00:00", "config": {"price_in": 2.5, "price_out": 10.0}}


def record(latency: float, prompt: int | None = 100, completion: int | None = 20, **kw) -> dict:
    return {"latency_s": latency, "prompt_tokens": prompt, "completion_tokens": completion, "error": None, **kw}


def test_percentiles_interpolate_between_order_statistics():
    assert percentiles([]) is None
    assert percentiles([3.0]) == {"p50": 3.0, "p90": 3.0, "p99": 3.0, "mean": 3.0}
    assert percentiles([4.0, 1.0, 3.0, 2.0]) == {"p50": 2.5, "p90": 3.7, "p99": 3.97, "mean": 2.5}


def test_tokens_time_and_money_of_a_request_run():
    records = [record(1.0, ttft_s=0.2, reasoning_tokens=5), record(2.0, ttft_s=0.4), record(3.0),
               record(9.0, None, None, error="HTTP 500")]
    cost = run_cost(records, PROVENANCE)
    assert (cost["prompt_tokens"], cost["completion_tokens"], cost["reasoning_tokens"]) == (300, 60, 5)
    assert cost["items_with_usage"] == 3 and cost["cost"] is None        # one record without usage: no total
    assert cost["latency_s"]["p50"] == 2.0 and cost["ttft_s"]["p50"] == pytest.approx(0.3)   # errors left out
    assert (cost["wall_s"], cost["items_per_min"], cost["completion_tokens_per_s"]) == (30.0, 8.0, 2.0)
    priced = run_cost(records[:3], PROVENANCE)
    assert priced["cost"] == pytest.approx((300 * 2.5 + 60 * 10.0) / 1e6)
    assert "cost 0.0014 (at 2.5 in / 10 out per M tokens)" in format_cost(priced)
    unpriced = run_cost(records[:3], {**PROVENANCE, "config": {"price_in": 2.5, "price_out": None}})
    assert unpriced["cost"] is None and "cost" not in format_cost(unpriced).split("; ")[-1]


def test_in_process_runs_have_throughput_not_request_latency_and_resumed_runs_neither():
    in_process = {**PROVENANCE, "model": {"backend": "transformers", "model_id": "m"}}
    cost = run_cost([record(1.0), record(2.0)], in_process)
    assert cost["latency_s"] is None and cost["ttft_s"] is None and cost["items_per_min"] == 4.0
    resumed = run_cost([record(1.0)], {**in_process, "resumed_items": 1})
    assert resumed["wall_s"] is None and resumed["items_per_min"] is None and resumed["prompt_tokens"] == 100


def test_a_run_whose_wall_rounds_to_zero_has_no_rate_and_both_summaries_say_so():
    """A rule model finishes inside the second the timestamps resolve: wall 0 s, no items/min. The terminal line
    and the HTML report leave the throughput out instead of failing on the missing rate (the 4.1.0 CI failure)."""
    instant = {**PROVENANCE, "finished_at": PROVENANCE["started_at"]}
    cost = run_cost([record(1.0), record(2.0)], instant)
    assert cost["wall_s"] == 0.0 and cost["items_per_min"] is None
    assert "wall" not in format_cost(cost) and "200 prompt" in format_cost(cost)
    html = _cost_section(cost)
    assert "wall time" not in html and "200 prompt, 40 completion" in html
    timed = _cost_section(run_cost([record(1.0), record(2.0)], PROVENANCE))
    assert "<th>wall time</th><td>30.0 s, 4 items/min, 1.33 completion tokens/s</td>" in timed


def test_a_priced_streamed_run_reports_its_cost(tmp_path):
    """pytest against the fake server, streamed, with prices: the results file's cost section is the sum of
    the usage the server sent (7 prompt + 12 completion tokens per answer), priced; the summary prints it."""
    results = tmp_path / "r.json"
    with FakeServer() as srv:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", "--model", "fake",
             "--base-url", srv.base_url, "--stream", "--max-retries", "0", "--protocol", "json,xml",
             "-k", "calculator-en-00", "--price-in", "3", "--price-out", "15", "--results", str(results)],
            cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "OPENAI_API_KEY": ""})
    doc = json.loads(results.read_text(encoding="utf-8"))
    n = len(doc["records"])
    assert n >= 2 and all(r["error"] is None and r["ttft_s"] is not None for r in doc["records"]), proc.stdout
    cost = doc["cost"]
    assert (cost["n_items"], cost["prompt_tokens"], cost["completion_tokens"]) == (n, 7 * n, 12 * n)
    assert cost["cost"] == pytest.approx(n * (7 * 3 + 12 * 15) / 1e6)
    assert cost["ttft_s"]["p99"] <= cost["latency_s"]["p99"] and doc["format_version"] == RESULTS_FORMAT_VERSION
    assert f"cost: {7 * n:,} prompt + {12 * n:,} completion tokens" in proc.stdout
    assert f"cost {cost['cost']:.4f} (at 3 in / 15 out per M tokens)" in proc.stdout


def test_one_price_without_the_other_is_refused():
    proc = subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q",
                           "--model", "oracle", "--price-in", "3", "--collect-only"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4 and "--price-in needs --price-out too" in proc.stderr
