"""The MCP track's optional LLM-judge pass (tooluse1/mcp/judge.py, `--judge-base-url`): seeded shuffles, parsing
that never raises, means over the parsed repeats, aggregates, agreement with the deterministic columns, the
results file's judge section, resuming, and an unreachable judge (exit 4, nothing lost).

The unit tests judge run records built from the references (no MCP server process) through the project's
fake OpenAI-compatible server (test_openai_backend.FakeServer), whose judge replies follow the rubric order
the prompt lists. One slow test judges the scripted oracle's results with a real `transformers serve`
(SmolLM2-135M); it runs only under TOOLUSE1_SLOW=1, so CI time does not grow.
"""
from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP track needs the `mcp` extra: pip install -e '.[mcp]'")

from test_openai_backend import FakeServer  # noqa: E402

from tooluse1.errors import USAGE_ERROR  # noqa: E402
from tooluse1.mcp.__main__ import _settings, main, table  # noqa: E402
from tooluse1.mcp.judge import (COLUMNS, agreement, dimension_order, judge_prompt, offered_tools,  # noqa: E402
                                parse_scores, pearson, spearman)
from tooluse1.mcp.metrics import ExecutedCall, McpRunRecord, score_run  # noqa: E402
from tooluse1.mcp.tasks import load_references, load_tasks  # noqa: E402

TASKS = {t.id: t for t in load_tasks()}
REFS = load_references()
FAILED = "I could not work it out."
slow_real_judge = pytest.mark.skipif(os.environ.get("TOOLUSE1_SLOW") != "1",
                                     reason="serves SmolLM2 as a judge (minutes on a busy CPU); set TOOLUSE1_SLOW=1")


def _run(task_id: str, answer: str | None = None) -> dict[str, Any]:
    """The reference's calls as a BASE run (one level per round), with the reference answer or `answer`,
    scored deterministically."""
    task, ref = TASKS[task_id], REFS[task_id]
    calls = [ExecutedCall(c.level, f"{c.server}.{c.tool}", dict(c.arguments), True, c.output) for c in ref.calls]
    rec = McpRunRecord(task_id, "base", calls, ref.answer if answer is None else answer, ref.levels + 2)
    rec.scores = score_run(task, ref, rec, offered_tools(task.all_servers, False)).as_dict()
    return rec.as_dict()


def _results(path: Path, runs: list[dict[str, Any]]) -> Path:
    args = argparse.Namespace(model="scripted", backend="scripted-mcp", behaviour="oracle", max_rounds=20,
                              repair_rounds=3, distractions=False)
    path.write_text(json.dumps({"settings": _settings(args), "backend": {"backend": "scripted-mcp"}, "runs": runs,
                                "table": table(runs)}), encoding="utf-8")
    return path


def _listed_order(prompt: str) -> list[str]:
    return re.findall(r"^- (\w+): ", prompt.split("Dimensions:\n", 1)[1], re.M)


def _fake_judge(body: dict[str, Any]) -> str:
    """A judge that cannot answer when the rubric starts with grounding, and otherwise scores each dimension
    by its place in the listed order (1..6), fulfillment by whether the answer gave up (2) or not (9)."""
    prompt = body["messages"][-1]["content"]
    order = _listed_order(prompt)
    if order[0] == "grounding":
        return "The agent did well overall."
    scores = {d: i + 1 for i, d in enumerate(order)}
    scores["fulfillment"] = 2 if f"Final answer:\n{FAILED}" in prompt else 9
    return "Here are the scores:\n```json\n" + json.dumps(scores) + "\n```"


def _expected(task_id: str, seed: int, repeats: int, gave_up: bool) -> tuple[dict[str, float], int]:
    """What _fake_judge's replies average to for one run, computed from the seeded orders alone."""
    parsed = []
    for r in range(repeats):
        order = dimension_order(seed, task_id, "base", r)
        if order[0] != "grounding":
            parsed.append({**{d: i + 1 for i, d in enumerate(order)}, "fulfillment": 2 if gave_up else 9})
    return {d: sum(p[d] for p in parsed) / len(parsed) for d in COLUMNS}, len(parsed)


# ----------------------------------------------------------------------------- units

def test_rubric_orders_are_seeded_shuffles() -> None:
    orders = [dimension_order(7, "sci-math-2", "base", r) for r in range(5)]
    assert orders == [dimension_order(7, "sci-math-2", "base", r) for r in range(5)]   # reproducible
    assert all(sorted(o) == sorted(COLUMNS) for o in orders)
    assert len({tuple(o) for o in orders}) > 1                                          # shuffled per repeat
    assert orders != [dimension_order(8, "sci-math-2", "base", r) for r in range(5)]   # the seed matters
    assert orders != [dimension_order(7, "sci-math-2", "spin", r) for r in range(5)]   # and the run


@pytest.mark.parametrize("reply, scores, error", [
    ('{"fulfillment": 8, "grounding": 7, "tool_appropriateness": 9, "parameter_accuracy": 6, '
     '"dependency_awareness": 10, "parallelism_efficiency": 5}', [8, 7, 9, 6, 10, 5], None),
    # wrapped, spelled as words, numbers as strings and {"score": n}, a fence and prose around it
    ('Sure.\n```json\n{"scores": {"Task Fulfillment": "8", "Grounding": 7.5, "Tool Appropriateness": {"score": 9}, '
     '"Parameter Accuracy": "6/10", "Dependency Awareness": 10, "Parallelism and Efficiency": 5}}\n```',
     [8, 7.5, 9, 6, 10, 5], None),
    ("The agent did well.", None, "no JSON object in the reply"),
    ('{"fulfillment": 8, "grounding": 7}', None, "missing dimension(s): tool_appropriateness, parameter_accuracy, "
     "dependency_awareness, parallelism_efficiency"),
    ('{"fulfillment": 11, "grounding": 7}', None, "fulfillment: 11 is not a score from 1 to 10"),
    ('{"fulfillment": "excellent"}', None, "fulfillment: 'excellent' is not a score from 1 to 10"),
    ('{"fulfillment": true}', None, "fulfillment: True is not a score from 1 to 10"),
])
def test_judge_replies_parse_or_say_why_not(reply: str, scores: list[float] | None, error: str | None) -> None:
    got, why = parse_scores(reply)
    assert got == (dict(zip(COLUMNS, map(float, scores))) if scores else None) and why == error


def test_correlations_and_the_small_n_rule() -> None:
    assert spearman([1, 2, 2, 3], [10, 20, 20, 30]) == 1.0 and spearman([1, 2, 3], [3, 2, 1]) == -1.0
    assert spearman([1, 2, 3, 4], [1, 3, 2, 4]) == 0.8 and pearson([1, 2, 3], [2, 4, 7]) == 0.9934
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    two = [{**_run("unit-math-1"), "judge": {"mean": {**dict.fromkeys(COLUMNS, 7.0), "task_completion": 7.0,
                                                       "tool_selection": 7.0, "planning_effectiveness": 7.0}}}] * 2
    row = agreement(two)["fulfillment"]
    assert row == {"n": 2, "mean_abs_diff": 3.0, "pearson": None, "spearman": None, "note": "n too small"}


def test_the_prompt_shows_the_trajectory_and_the_rubric_in_order() -> None:
    run = _run("sci-math-2")
    order = dimension_order(0, "sci-math-2", "base", 1)
    prompt = judge_prompt(TASKS["sci-math-2"].task, run, order, offered_tools(TASKS["sci-math-2"].all_servers, False))
    assert TASKS["sci-math-2"].task in prompt and f"Final answer:\n{run['answer']}" in prompt
    assert "Round 1:\n- scientific_computing." in prompt and "Round 3:\n- math.divide(" in prompt
    assert "math.add" in prompt.split("Tools offered: ")[1].split("\n")[0]
    assert _listed_order(prompt) == order and prompt.rstrip().endswith("Your JSON scores:")


# ----------------------------------------------------------------------------- the pass, through a fake server

def test_judge_pass_records_repeats_means_aggregates_and_agreement(tmp_path: Path, capsys) -> None:
    runs = [_run("sci-math-2"), _run("unit-math-1"), _run("sci-unit-1", FAILED), _run("unit-math-2", FAILED)]
    src = _results(tmp_path / "r.json", runs)
    out = tmp_path / "judged.json"
    with FakeServer(answer=_fake_judge) as fake:
        url = fake.base_url.replace("http://", "http://judge:sekret@")   # a credential in the URL is masked
        assert main(["judge", str(src), "--judge-base-url", url, "--judge-seed", "3", "-o", str(out)]) == 0
        requests = len(fake.bodies)
        # judged again with the same settings: every run already has its replies, nothing is asked
        assert main(["judge", str(out), "--judge-base-url", url, "--judge-seed", "3"]) == 0
        assert len(fake.bodies) == requests == 4 * 5
        # in place under another seed: refused, the file untouched
        before = out.read_bytes()
        assert main(["judge", str(out), "--judge-base-url", url, "--judge-seed", "4"]) == USAGE_ERROR
        assert out.read_bytes() == before
    text = out.read_text(encoding="utf-8")
    assert "sekret" not in text
    doc = json.loads(text)
    assert [r["answer"] for r in doc["runs"]] == [r["answer"] for r in runs]   # the runs kept as they were
    section = doc["judge"]
    assert "not MCP-Bench's" in section["note"] and section["model_id"] == "fake-model-v1"
    assert section["settings"]["base_url"].startswith("http://judge:***@127.0.0.1")
    assert (section["settings"]["repeats"], section["settings"]["seed"]) == (5, 3)
    failures = 0
    for run in doc["runs"]:
        judge, gave_up = run["judge"], run["answer"] == FAILED
        assert [r["order"] for r in judge["repeats"]] == [dimension_order(3, run["task_id"], "base", r)
                                                         for r in range(5)]
        expected, parsed = _expected(run["task_id"], 3, 5, gave_up)
        failures += 5 - parsed
        assert judge["parsed"] == parsed and judge["answered"] == 5
        assert [r["error"] for r in judge["repeats"]].count("no JSON object in the reply") == 5 - parsed
        assert judge["mean"] == pytest.approx({
            **expected, "task_completion": (expected["fulfillment"] + expected["grounding"]) / 2,
            "tool_selection": (expected["tool_appropriateness"] + expected["parameter_accuracy"]) / 2,
            "planning_effectiveness": (expected["dependency_awareness"] + expected["parallelism_efficiency"]) / 2},
            abs=1e-4)
    assert failures > 0 and section["repeats_parsed"] == 20 - failures and section["repeats_total"] == 20
    agree = section["agreement"]
    # deterministic fulfillment 10, 10, 1, 1 against the judge's 9, 9, 2, 2
    assert agree["fulfillment"] == {"n": 4, "mean_abs_diff": 1.0, "pearson": 1.0, "spearman": 1.0, "note": None}
    assert agree["tool_appropriateness"]["note"] == "undefined: the deterministic scores are constant"
    det = [r["scores"]["columns"]["grounding"] for r in doc["runs"]]
    jud = [r["judge"]["mean"]["grounding"] for r in doc["runs"]]
    assert agree["grounding"]["mean_abs_diff"] == pytest.approx(sum(abs(a - b) for a, b in zip(det, jud)) / 4,
                                                                abs=1e-4)
    printed = capsys.readouterr().out
    assert "LLM judge (ours, not MCP-Bench's)" in printed and "sekret" not in printed


def test_unreachable_judge_is_one_line_and_exit_4_with_nothing_lost(tmp_path: Path, capsys) -> None:
    from tooluse1.serve import free_port
    src = _results(tmp_path / "r.json", [_run("unit-math-1")])
    before = src.read_bytes()
    url = f"http://127.0.0.1:{free_port('127.0.0.1')}/v1"
    assert main(["judge", str(src), "--judge-base-url", url]) == USAGE_ERROR
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--judge-base-url" in err and url in err
    # `run` checks the judge before any run starts: the existing results file stays as it was
    assert main(["run", "--backend", "scripted-mcp", "--tasks", "unit-math-1", "--out", str(src),
                 "--judge-base-url", url]) == USAGE_ERROR
    assert "--judge-base-url" in capsys.readouterr().err and src.read_bytes() == before
    assert main(["judge", str(src), "--judge-base-url", "not a url"]) == USAGE_ERROR
    assert src.read_bytes() == before


def test_a_judge_that_stops_answering_leaves_the_runs_to_a_later_pass(tmp_path: Path, capsys) -> None:
    src = _results(tmp_path / "r.json", [_run("unit-math-1"), _run("sci-math-2")])
    # a server that lists models but fails every request: each repeat is a recorded request error
    with FakeServer() as srv:
        srv.script = _AlwaysFail()
        assert main(["judge", str(src), "--judge-base-url", srv.base_url, "--judge-repeats", "2"]) == USAGE_ERROR
    doc = json.loads(src.read_text(encoding="utf-8"))
    assert len(doc["runs"]) == 2 and all(r["judge"]["answered"] == 0 and r["judge"]["mean"] is None
                                         for r in doc["runs"])
    assert doc["runs"][0]["judge"]["repeats"][0]["error"].startswith("judge request failed: ")
    assert "got no reply from the judge" in capsys.readouterr().err
    # a later pass with a working judge finishes them
    with FakeServer(answer=_fake_judge) as fake:
        assert main(["judge", str(src), "--judge-base-url", fake.base_url, "--judge-repeats", "2"]) == 0
    assert all(r["judge"]["answered"] == 2 for r in json.loads(src.read_text(encoding="utf-8"))["runs"])


class _AlwaysFail(dict):
    """A FakeServer script that answers every key with HTTP 400 (not retried)."""

    def get(self, key: Any, default: Any = None) -> list[str]:
        return ["400"]


# ----------------------------------------------------------------------------- a real judge

@pytest.mark.mcp
@pytest.mark.server
@pytest.mark.model
@pytest.mark.slow
@slow_real_judge
def test_real_judge_scores_the_oracle_through_transformers_serve(tmp_path: Path, capsys) -> None:
    """The scripted oracle's BASE run of one task, judged twice by SmolLM2-135M behind a real `transformers
    serve` with a small reply cap: whatever the small model writes, every repeat is recorded with its order and
    either scores or a parse error, and the section is written; no run is lost."""
    from tooluse1.models import resolve_model
    from tooluse1.serve import start_transformers_serve
    out = tmp_path / "oracle.json"
    assert main(["run", "--backend", "scripted-mcp", "--behaviour", "oracle", "--tasks", "unit-math-1",
                 "--agents", "base", "--out", str(out)]) == 0
    with start_transformers_serve(resolve_model("smollm2").path, timeout_s=240, threads=1) as server:
        rc = main(["judge", str(out), "--judge-base-url", server.base_url, "--judge-model", server.model,
                   "--judge-repeats", "2", "--judge-max-tokens", "48"])
    assert rc == 0, capsys.readouterr().err
    doc = json.loads(out.read_text(encoding="utf-8"))
    [run] = doc["runs"]
    assert set(run["scores"]["columns"].values()) == {10.0}
    judge = run["judge"]
    assert judge["answered"] == 2 and len(judge["repeats"]) == 2
    for rep in judge["repeats"]:
        assert sorted(rep["order"]) == sorted(COLUMNS) and rep["completion_tokens"]
        assert (rep["scores"] is None) == (rep["error"] is not None)
    assert doc["judge"]["agreement"]["fulfillment"]["note"] == "n too small"
    assert doc["judge"]["model_id"]


@pytest.mark.mcp
def test_run_with_a_judge_writes_the_runs_then_judges_them(tmp_path: Path, capsys) -> None:
    """`run --judge-base-url`: the scripted oracle's sitting (one task, BASE) through the live servers, then
    the judge pass into the same file; the deterministic table is printed before the judge's lines."""
    out = tmp_path / "r.json"
    with FakeServer(answer=_fake_judge) as fake:
        assert main(["run", "--backend", "scripted-mcp", "--tasks", "unit-math-1", "--agents", "base",
                     "--out", str(out), "--judge-base-url", fake.base_url, "--judge-repeats", "3"]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    [run] = doc["runs"]
    assert set(run["scores"]["columns"].values()) == {10.0} and len(run["judge"]["repeats"]) == 3
    assert doc["judge"]["runs_judged"] == (1 if run["judge"]["parsed"] else 0)
    printed = capsys.readouterr().out
    assert printed.index("task_compl") < printed.index("LLM judge (ours, not MCP-Bench's)")
