"""The committed reference runs (results/reference/*.json) match the current corpus, prompts and grader, and
the tables shown in README.md and BENCHMARKS.md are exactly what those files say.

When this fails after a change to cases, prompts or grading, the numbers in the docs are stale: re-run the
reference models (BENCHMARKS.md says how; resume files make unchanged items free) and refresh the tables with
`python scripts/reference_tables.py --write`.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tooluse1.corpus import SPEC_VERSION, load_corpus
from tooluse1.grade import grade_extraction
from tooluse1.parse import extract_completion
from tooluse1.prompts import render
from tooluse1.results import load_results

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = sorted((ROOT / "results" / "reference").glob("*.json"))


def test_the_reference_runs_are_committed():
    assert {p.stem for p in REFERENCES} >= {"default", "smollm2"}


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.stem)
def test_a_reference_run_matches_the_current_corpus_prompts_and_grader(path):
    cases, manifest = load_corpus()
    by_id = {c.id: c for c in cases}
    run = load_results(path)
    prov = run.provenance
    assert prov["spec_version"] == SPEC_VERSION, "graded under another spec version"
    assert prov["corpus"]["sha256"] == manifest["sha256"], "made on another corpus"
    graded = {(r.case.id, r.protocol) for r in run.records}
    assert {(c.id, p) for c in cases for p in ("json", "xml", "plain")} <= graded
    for r in run.records:
        assert r.completion.prompt_sha256 == render(by_id[r.case.id], r.protocol).sha256, \
            f"{r.item_id}: answered a prompt that is no longer the current one"
        again = grade_extraction(by_id[r.case.id], extract_completion(r.completion, r.protocol),
                                 r.completion.finish_reason, r.protocol)
        assert again.passed == r.passed and again.reason == r.verdict.reason, \
            f"{r.item_id}: the current grader says {again.reason!r}, the file {r.verdict.reason!r}"


def test_the_docs_show_exactly_the_reference_numbers():
    spec = importlib.util.spec_from_file_location("reference_tables", ROOT / "scripts" / "reference_tables.py")
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    shown = 0
    for doc in tables.DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        shown += len(tables.BLOCK.findall(text))
        assert tables.refreshed(text) == text, f"{doc}: a reference table differs from its results file"
    assert shown >= 2
    assert tables.BOARD_BLOCK.search((ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")), \
        "BENCHMARKS.md shows the reference leaderboard"


def test_the_committed_board_is_the_reference_runs_board():
    spec = importlib.util.spec_from_file_location("reference_tables", ROOT / "scripts" / "reference_tables.py")
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    from tooluse1.leaderboard import render_board
    assert tables.BOARD.read_text(encoding="utf-8") == render_board(tables.reference_board()), \
        "results/reference/board.html is stale: run make board"
