"""The leaderboard: ranking, per-protocol columns, protocol consistency, truncation, every pair with the
clustered paired test and Holm's correction (checked against statsmodels and against `compare`), the refusals
`compare` makes, the CLI, and the page in a real headless Chromium with hostile strings in the files."""
from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_contract import N_ITEMS
from statsmodels.stats.multitest import multipletests

from tooluse1.compare import IncomparableError, compare
from tooluse1.leaderboard import build, format_markdown, format_text, holm, render_board
from tooluse1.report import clean_text
from tooluse1.results import ResultsFile, build_results, load_results

from browser import open_page
from test_report import _need_chromium

ROOT = Path(__file__).resolve().parent.parent
TEXT = ("json", "xml", "plain")


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def runs(scripted_results: dict[str, Path], tmp_path_factory) -> dict[str, Path]:
    """oracle and always-call (shared), never-call, and a `mixed` run: always-call's file with every
    plain item's verdict replaced by oracle's (so it passes some cases in one protocol only) and 20 of its
    items marked as cut at the token cap."""
    out = dict(scripted_results)
    d = tmp_path_factory.mktemp("board")
    out["never-call"] = d / "never-call.json"
    proc = run_cli("run", "--model", "never-call", "--results", str(out["never-call"]), "-p", "no:cacheprovider")
    assert proc.returncode in (0, 1), proc.stdout[-2000:]
    oracle, always = load_results(out["oracle"]), load_results(out["always-call"])
    right = {(r.case.id, r.protocol): r for r in oracle.records}
    records = []
    for i, r in enumerate(always.records):
        if r.protocol == "plain":
            r = dataclasses.replace(r, verdict=right[(r.case.id, r.protocol)].verdict)
        if i % 25 == 0:      # cut at the cap: the finish reason and the verdict that graded it (spec 3.0)
            r.completion.finish_reason = "length"
            r = dataclasses.replace(r, verdict=dataclasses.replace(r.verdict, cut_off=True))
        records.append(r)
    out["mixed"] = d / "mixed.json"
    out["mixed"].write_text(json.dumps(build_results(always.provenance, records)), encoding="utf-8")
    return out


def loaded(runs: dict[str, Path], *names: str) -> list[ResultsFile]:
    return [load_results(runs[n]) for n in names]


def test_holm_matches_statsmodels():
    for ps in ([0.01, 0.04, 0.03, 0.2], [0.5], [0.001, 0.001, 0.9, 0.04, 0.012, 0.3], [1.0, 0.0, 0.05]):
        assert holm(ps) == pytest.approx(list(multipletests(ps, method="holm")[1]))
    assert holm([]) == []


def test_ranking_columns_consistency_and_truncation(runs):
    files = loaded(runs, "always-call", "mixed", "never-call", "oracle")
    board = build(files)
    assert [e.source for e in board.entries][0] == str(runs["oracle"])
    rates = [e.score["rate"] for e in board.entries]
    assert rates == sorted(rates, reverse=True)
    for e, f in ((e, next(f for f in files if f.source == e.source)) for e in board.entries):
        text = [r for r in f.records if r.protocol in TEXT]
        assert e.score["n"] == len(text) and e.score["k"] == sum(r.passed for r in text)
        assert e.score["design_effect"] > 0 and e.score["ci95_clustered"][0] <= e.score["rate"]
        for p in TEXT:
            mine = [r for r in f.records if r.protocol == p]
            assert e.protocols[p]["k"] == sum(r.passed for r in mine) and e.protocols[p]["n"] == len(mine)
        # consistency, counted here case by case
        by_case: dict[str, set[bool]] = {}
        for r in text:
            by_case.setdefault(r.case.id, set()).add(r.passed)
        assert (e.consistency.k, e.consistency.n) == (sum(len(v) == 1 for v in by_case.values()), len(by_case))
        cut = sum(r.completion.finish_reason == "length" for r in text)
        assert (e.truncated.k, e.truncated.n) == (cut, len(text))
    by_source = {e.source: e for e in board.entries}
    assert by_source[str(runs["oracle"])].consistency.rate == 1.0
    mixed = by_source[str(runs["mixed"])]
    assert mixed.consistency.rate < 1.0 and mixed.truncated.k == len(range(0, N_ITEMS, 25))


def test_every_pair_is_compare_s_test_with_holm(runs):
    files = loaded(runs, "oracle", "always-call", "never-call", "mixed")
    board = build(files)
    assert len(board.pairs) == 6 and all(p.upper < p.lower for p in board.pairs)
    assert [p.p_holm for p in board.pairs] == pytest.approx(
        list(multipletests([p.test.p_two_sided for p in board.pairs], method="holm")[1]))
    by_source = {f.source: f for f in files}
    for pair in board.pairs:
        upper, lower = (by_source[board.entries[i].source] for i in (pair.upper, pair.lower))
        cmp = compare(lower, upper)                         # BASE = the lower-ranked run
        assert pair.test.diff == pytest.approx(cmp.overall.diff)
        assert pair.test.p_two_sided == pytest.approx(cmp.overall.test.p_two_sided)
        assert pair.test.n == cmp.overall.n == N_ITEMS and pair.test.diff >= 0
    oracle_vs_never = next(p for p in board.pairs if {board.entries[p.upper].source, board.entries[p.lower].source}
                           == {str(runs["oracle"]), str(runs["never-call"])})
    assert oracle_vs_never.significant(board.alpha)
    text = format_text(board)
    assert "Holm" in text and text.count("differ") >= 1 and str(runs["mixed"]) in text
    md = format_markdown(board)
    assert md.count("\n| ") >= 4 + 6 and "consistency" in md


def test_refuses_runs_compare_refuses_and_different_items(runs, tmp_path):
    doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    other = copy.deepcopy(doc)
    other["provenance"]["corpus"]["sha256"] = "c" * 64
    (tmp_path / "other-corpus.json").write_text(json.dumps(other), encoding="utf-8")
    with pytest.raises(IncomparableError, match="corpus digest"):
        build([load_results(runs["always-call"]), load_results(tmp_path / "other-corpus.json")])
    spec = copy.deepcopy(doc)
    spec["provenance"]["spec_version"] = "0.9.0"
    (tmp_path / "other-spec.json").write_text(json.dumps(spec), encoding="utf-8")
    out = run_cli("leaderboard", str(runs["oracle"]), str(tmp_path / "other-spec.json"))
    assert out.returncode == 4 and "spec version" in out.stderr and "Traceback" not in out.stderr
    # a selection against a full run: the same corpus and prompts, but not the same items
    part = run_cli("run", "--model", "oracle", "--results", str(tmp_path / "part.json"), "-k", "calculator",
                   "-p", "no:cacheprovider")
    assert part.returncode == 0
    out = run_cli("leaderboard", str(runs["oracle"]), str(tmp_path / "part.json"))
    assert out.returncode == 4 and "different json+xml+plain items" in out.stderr
    ref = load_results(ROOT / "results" / "reference" / "default.json")
    native = ResultsFile.from_document(
        build_results(ref.provenance, [r for r in ref.records if r.protocol == "native"]), "native-only")
    with pytest.raises(IncomparableError, match=r"holds no json\+xml\+plain item"):
        build([native, native])
    missing = run_cli("leaderboard", str(tmp_path / "none.json"))
    assert missing.returncode == 4 and "none.json" in missing.stderr


def test_cli_writes_text_markdown_and_the_page(runs, tmp_path):
    page = tmp_path / "sub" / "board.html"
    out = run_cli("leaderboard", str(runs["never-call"]), str(runs["oracle"]), "-o", str(page))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("1 "))
    assert "1.000" in lines[first] and str(runs["oracle"]) in lines[first + 1]
    assert page.exists() and f"HTML leaderboard: {page}" in out.stdout
    md = run_cli("leaderboard", str(runs["oracle"]), str(runs["never-call"]), "--markdown")
    assert md.returncode == 0 and md.stdout.startswith("Runs: spec") and "| 1 |" in md.stdout


HOSTILE_MODEL = "<script>alert('model')</script><img src=x onerror=\"document.title='pwned'\">\ud800"


def test_page_in_chromium_escapes_hostile_files(runs, tmp_path):
    _need_chromium()
    doc = json.loads(runs["always-call"].read_text(encoding="utf-8"))
    doc["provenance"]["model"]["model_id"] = HOSTILE_MODEL
    hostile = ResultsFile.from_document(doc, source="</td></tr></table><h1 id=board>x</h1>.json")
    board = build([hostile, load_results(runs["oracle"]), load_results(runs["never-call"])])
    path = tmp_path / "board.html"
    path.write_text(render_board(board), encoding="utf-8")
    r = open_page(path, {
        "title": "document.title",
        "scripts": "document.scripts.length",
        "imgs": "document.images.length",
        "handlers": "document.querySelectorAll('[onload],[onerror]').length",
        "boards": "document.querySelectorAll('#board').length",
        "rows": "document.querySelectorAll('#board tr[data-rank]').length",
        "pairs": "document.querySelectorAll('#pairs tr').length",
        "text": "document.getElementById('board').textContent",
        "width": "document.documentElement.scrollWidth",
    }, width=1280, height=900)
    v = r.values
    assert v["title"] == "ToolUse.1 leaderboard" and v["scripts"] == 0 and v["imgs"] == 0 and v["handlers"] == 0
    assert v["boards"] == 1 and v["rows"] == 3 and v["pairs"] == 1 + 3
    assert clean_text(HOSTILE_MODEL) in v["text"] and "</td></tr></table>" in v["text"]
    assert v["width"] <= 1280                                 # fits the page: no sideways scrolling
    assert r.dialogs == [] and r.exceptions == [] and r.console_errors == []
    assert {u.split(":", 1)[0] for u in r.requested_urls} == {"file"}


def test_a_priced_run_gets_a_cost_column_and_the_report_a_cost_section(runs, tmp_path):
    """The oracle's records with usage (100 prompt + 10 completion tokens each) and prices 1 in / 2 out:
    the board shows the run's cost, an unpriced run n/a, and boards of unpriced runs no cost column at all."""
    from tooluse1.report import render_report
    oracle = load_results(runs["oracle"])
    for r in oracle.records:
        r.completion.prompt_tokens, r.completion.completion_tokens = 100, 10
    provenance = {**oracle.provenance, "config": {**oracle.provenance["config"], "price_in": 1.0, "price_out": 2.0}}
    priced_path = tmp_path / "priced.json"
    priced_path.write_text(json.dumps(build_results(provenance, oracle.records)), encoding="utf-8")
    priced = load_results(priced_path)
    n = len(priced.records)
    assert priced.document["cost"]["cost"] == pytest.approx(n * (100 * 1.0 + 10 * 2.0) / 1e6)
    board = build([priced, load_results(runs["never-call"])])
    text, markdown = format_text(board), format_markdown(board)
    header = next(line for line in text.splitlines() if "consist." in line)
    assert f"{n * 120 / 1e6:.4f}" in text and header.endswith(" cost")
    assert markdown.splitlines()[2].endswith("| cost |") and f"| {n * 120 / 1e6:.4f} |" in markdown
    assert "| n/a |" in markdown.splitlines()[5]
    unpriced = build(loaded(runs, "oracle", "never-call"))
    assert "cost" not in format_text(unpriced) and "cost" not in format_markdown(unpriced)
    page = render_report(priced)
    assert "<h2>Cost</h2>" in page and f"{n * 100:,} prompt, {n * 10:,} completion" in page
    assert f"{n * 120 / 1e6:.4f} (at 1 in / 2 out per million tokens)" in page
