"""The pytest face end to end, in subprocesses: selection, results file, gate, resume, bad input.

These use the scripted runners (no model); the real-model and real-server runs are in
test_real_runs.py.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from corpus_contract import N_CASES, N_ITEMS

from tooluse1 import corpus

ROOT = Path(__file__).resolve().parent.parent


def run_pytest(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def comparable(doc: dict) -> list[tuple]:
    return [(r["item_id"], r["output"], r["passed"], json.dumps(r["verdict"], sort_keys=True)) for r in doc["records"]]


def test_without_model_items_skip_with_one_hint():
    out = run_pytest()
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{N_ITEMS} skipped" in out.stdout
    assert "benchmark items are skipped without --model" in out.stdout


def test_oracle_run_scores_one_and_writes_results(tmp_path):
    results = tmp_path / "r.json"
    out = run_pytest("--model", "oracle", "--results", str(results), "--json-report",
                     f"--json-report-file={tmp_path / 'report.json'}")
    assert out.returncode == 0, out.stdout[-3000:]
    assert f"{N_ITEMS} passed" in out.stdout
    assert "ToolUse.1 summary" in out.stdout and "correct_abstention" in out.stdout
    doc = load(results)
    assert len(doc["records"]) == N_ITEMS
    assert len({r["item_id"] for r in doc["records"]}) == N_ITEMS
    score = doc["summary"]["overall"]["score"]
    assert (score["k"], score["n"], score["rate"], score["n_cases"]) == (N_ITEMS, N_ITEMS, 1.0, N_CASES)
    assert score["ci95_clustered"] == score["ci95"] and score["design_effect"] == 1.0   # nothing varies
    prov = doc["provenance"]
    for key in ("spec_version", "corpus", "model", "backend", "decoding", "batch_size", "protocols", "libraries",
                "started_at", "finished_at"):
        assert key in prov
    assert set(doc["summary"]["by"]) == {"protocol", "lang", "category", "difficulty", "kind"}
    # pytest-json-report's file carries the same section.
    report = load(tmp_path / "report.json")
    assert report["tooluse1"]["summary"] == doc["summary"]


def test_k_selection_runs_exactly_the_negative_xml_items(tmp_path):
    results = tmp_path / "r.json"
    out = run_pytest("--model", "oracle", "-k", "xml and negative", "--results", str(results))
    assert out.returncode == 0, out.stdout[-2000:]
    ids = {r["item_id"] for r in load(results)["records"]}
    rows = [json.loads(line) for line in (corpus.DATA_DIR / corpus.JSONL_NAME).read_text(encoding="utf-8").splitlines()]
    assert ids == {f"{c['id']}-xml" for c in rows if c["category"] == "negative"}


def test_single_node_id_and_failure_message(tmp_path):
    node = "test_tooluse1.py::test_case[negative-en-001-plain]"
    out = subprocess.run([sys.executable, "-m", "pytest", node, "-p", "no:cacheprovider", "-q", "--model",
                          "always-call"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "1 failed" in out.stdout
    for part in ("expected :", "extracted:", "label=call", "reason   :", "output   :", "where no call was expected"):
        assert part in out.stdout, part


def test_with_model_pytest_collects_only_the_benchmark_items():
    """`pytest --model X -k ...` as a user types it (testpaths, no paths given) selects benchmark items only;
    the project's own tests are for `make test`. Paths given explicitly are collected as usual."""
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--collect-only", "--model", "oracle",
           "-k", "xml and negative"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    assert len(ids) == 49, out.stdout[-2000:]
    assert all(i.startswith("test_tooluse1.py::test_case[negative-") for i in ids), out.stdout[-2000:]
    explicit = subprocess.run(cmd[:-2] + ["tests_grader/test_metrics.py"], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
    assert "tests_grader/test_metrics.py::" in explicit.stdout


def test_a_failing_item_prints_the_compact_block_and_nothing_else():
    out = run_pytest("--model", "always-call", "-k", "negative-en-001-json")
    assert out.returncode == 1
    block = out.stdout.split("FAILURES")[1].split("\n=")[0]
    assert "expected : no call; an answer with any of Canberra" in block
    for noise in ("where False", "Verdict(", "ItemRecord(", "assert ", "def test_case"):
        assert noise not in block, noise
    assert len([line for line in block.splitlines() if line.strip() and not line.startswith("_")]) <= 8, block


def test_resume_regenerates_exactly_the_items_whose_prompt_changed(tmp_path, monkeypatch):
    """Each resumed answer carries its prompt's sha256: a prompt change regenerates that item only, and a
    different selection (-k) still resumes from the same file."""
    from tooluse1 import prompts
    from tooluse1.corpus import load_corpus
    from tooluse1.harness import BenchmarkRun, RunConfig
    cases, manifest = load_corpus()
    by_id = {c.id: c for c in cases}
    resume = tmp_path / "resume.jsonl"
    items = [("calculator-en-001", "json"), ("negative-en-001", "json")]
    first = BenchmarkRun(RunConfig(model="oracle", resume=resume), by_id, manifest)
    assert first.generate(items) == 2
    again = BenchmarkRun(RunConfig(model="oracle", resume=resume), by_id, manifest)
    assert again.generate(items[:1]) == 0 and again.resumed_items == 2          # another selection resumes
    monkeypatch.setattr(prompts, "RULES", prompts.RULES + "\n4. Be brief.")     # a prompt change
    changed = BenchmarkRun(RunConfig(model="oracle", resume=resume), by_id, manifest)
    assert changed.missing(items) == items and changed.generate(items) == 2
    rec = changed.record(*items[0])
    assert rec.completion.prompt_sha256 == prompts.render(by_id[items[0][0]], "json").sha256


def test_min_score_gate(tmp_path):
    ok = run_pytest("--model", "oracle", "--protocol", "json", "--min-score", "0.99")
    assert ok.returncode == 0
    # never-call passes only unconstrained no-call items: far below 0.5; the items themselves fail too,
    # so check the gate on a selection where every item passes: -k with unconstrained negatives only.
    bad = run_pytest("--model", "always-call", "--protocol", "json", "-k", "calculator", "--min-score", "1.01")
    assert bad.returncode == 1
    assert "GATE FAILED" in bad.stdout


def test_unknown_protocol_is_one_clear_message():
    out = run_pytest("--model", "oracle", "--protocol", "yaml")
    assert out.returncode != 0
    assert "unknown protocol 'yaml'" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_unknown_model_is_one_clear_message():
    out = run_pytest("--model", "/no/such/model/dir", "-k", "calculator-en-001-json")
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "--model" in text and "/no/such/model/dir" in text
    assert "Traceback" not in text


def test_transformers_backend_refuses_xdist():
    out = run_pytest("--model", "smollm2", "-n", "2")
    assert out.returncode != 0
    assert "cannot run under pytest-xdist" in out.stderr


def test_scripted_backend_under_xdist_aggregates_once(tmp_path):
    results = tmp_path / "r.json"
    out = run_pytest("--model", "oracle", "--protocol", "plain", "-n", "2", "--results", str(results))
    assert out.returncode == 0, out.stdout[-2000:]
    doc = load(results)
    assert len(doc["records"]) == N_CASES
    assert doc["summary"]["overall"]["score"]["n"] == N_CASES


def test_resume_after_kill_generates_only_missing_items(tmp_path):
    resume, results = tmp_path / "resume.jsonl", tmp_path / "r.json"
    args = [sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", "--model", "oracle",
            "--protocol", "json", "--resume", str(resume), "--results", str(results)]
    env = {**os.environ, "TOOLUSE1_SCRIPTED_DELAY_S": "0.02"}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        if resume.exists() and len(resume.read_text(encoding="utf-8").splitlines()) > 40:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    lines_before = resume.read_text(encoding="utf-8").splitlines()
    done_before = len(lines_before) - 1
    assert 40 <= done_before < N_CASES, done_before
    assert not results.exists()
    # Simulate a torn last line, as a kill during a write leaves it.
    with open(resume, "a", encoding="utf-8") as f:
        f.write('{"item_id": "calculator-en-0')
    out = run_pytest("--model", "oracle", "--protocol", "json", "--resume", str(resume), "--results", str(results))
    assert out.returncode == 0, out.stdout[-2000:]
    doc = load(results)
    assert doc["provenance"]["resumed_items"] == done_before
    assert doc["provenance"]["generated_items"] == N_CASES - done_before
    ids = [json.loads(line)["item_id"] for line in resume.read_text(encoding="utf-8").splitlines()[1:]
           if line.startswith('{"item_id": "') and line.endswith("}")]
    assert len(ids) == len(set(ids)) == N_CASES     # nothing generated twice
    fresh = tmp_path / "fresh.json"
    assert run_pytest("--model", "oracle", "--protocol", "json", "--results", str(fresh)).returncode == 0
    assert comparable(load(fresh)) == comparable(doc)


def test_resume_file_of_another_run_is_refused(tmp_path):
    resume = tmp_path / "resume.jsonl"
    assert run_pytest("--model", "oracle", "--protocol", "json", "-k", "calculator-en-00",
                      "--resume", str(resume)).returncode == 0
    out = run_pytest("--model", "never-call", "--protocol", "json", "-k", "calculator-en-00", "--resume", str(resume))
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "was written by another run" in text and "model" in text
    assert "Traceback" not in text


def test_stale_corpus_is_refused_with_the_fix(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / corpus.JSONL_NAME).write_bytes((corpus.DATA_DIR / corpus.JSONL_NAME).read_bytes()[:-200] + b"\n")
    (data / corpus.MANIFEST_NAME).write_bytes((corpus.DATA_DIR / corpus.MANIFEST_NAME).read_bytes())
    with pytest.raises(corpus.StaleCorpusError, match="python -m tooluse1 build"):
        corpus.check_fresh(data_dir=data)


def test_cli_run_wraps_the_same_session(tmp_path):
    results = tmp_path / "r.json"
    out = subprocess.run([sys.executable, "-m", "tooluse1", "run", "--model", "oracle", "--protocol", "xml",
                          "--results", str(results), "-k", "get_time"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    doc = load(results)
    assert doc["records"] and all(r["protocol"] == "xml" and r["category"] == "get_time" for r in doc["records"])
    regraded = subprocess.run([sys.executable, "-m", "tooluse1", "regrade", str(results)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert regraded.returncode == 0 and "score" in regraded.stdout
