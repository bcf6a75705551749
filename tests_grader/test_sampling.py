"""Sampled trials: the statistics and seeds (tooluse1.sampling, checked against enumeration and statsmodels),
the in-process sampler (fast_decode.RowSampler, on synthetic logits), the flags, the records that keep every
sample, their summary, resume and regrade (scripted runs). The real-model checks are in test_fast_decode.py
and test_real_runs.py."""
from __future__ import annotations

import collections
import functools
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm
import torch

from tooluse1.backends.base import Completion, DecodingConfig
from tooluse1.backends.fast_decode import RowSampler
from tooluse1.compare import IncomparableError, PairedStats, decoding_differences
from tooluse1.corpus import Case, load_corpus
from tooluse1.errors import USAGE_ERROR
from tooluse1.grade import grade_completion
from tooluse1.plugin import failure_message, identical_samples_warning, sampling_usage_error
from tooluse1.results import ItemRecord, ResultsFile, ResultsFileError, Sample, build_results, schema_errors
from tooluse1.stats import paired_test, paired_test_means
from tooluse1.sampling import (SampledItem, clustered_mean, pass_at_k, pass_hat_k, sample_item_id, sample_seed,
                               summarise_samples)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_pass_at_k_and_pass_hat_k_equal_enumerating_every_k_subset(n):
    for c in range(n + 1):
        outcomes = [True] * c + [False] * (n - c)
        for k in range(1, n + 1):
            subsets = list(itertools.combinations(outcomes, k))
            assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))
            assert pass_hat_k(n, c, k) == pytest.approx(sum(all(s) for s in subsets) / len(subsets))
    assert pass_at_k(n, 1, 1) == pytest.approx(pass_hat_k(n, 1, 1)) == pytest.approx(1 / n)   # k = 1: the rate


def test_impossible_counts_are_refused():
    for n, c, k in ((3, 4, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)):
        with pytest.raises(ValueError, match="need 0 <= c <= n"):
            pass_at_k(n, c, k)


def test_a_sample_seed_depends_on_the_seed_the_item_and_the_sample_only():
    seeds = {sample_seed(s, item, j) for s in (0, 5) for item in ("calculator-en-001-json", "calculator-en-001.d2-json")
             for j in range(4)}
    assert len(seeds) == 16 and all(0 <= s < 2 ** 63 for s in seeds)
    assert sample_seed(5, "calculator-en-001-json", 2) == sample_seed(5, "calculator-en-001-json", 2)
    assert sample_seed(5, "calculator-en-001-json", 2) == 7801202508772020748     # pinned: runs stay reproducible


def test_the_clustered_interval_is_statsmodels_cluster_robust_one():
    rng = np.random.default_rng(0)
    cases = np.repeat(np.arange(30), 3)
    values = np.clip(rng.normal(0.6, 0.3, size=90) + np.repeat(rng.normal(0, 0.2, size=30), 3), 0, 1)
    got = clustered_mean(zip(cases.tolist(), values.tolist()))
    fit = sm.OLS(values, np.ones_like(values)).fit(cov_type="cluster", cov_kwds={"groups": cases})
    assert got.mean == pytest.approx(fit.params[0])
    assert got.high - got.mean == pytest.approx(1.959963984540054 * fit.bse[0])
    assert (got.n, got.n_cases) == (90, 30)
    assert clustered_mean([("a", 1.0), ("a", 0.0)]).as_dict() == {"mean": 0.5, "ci95_clustered": [0.0, 1.0],
                                                                   "n": 2, "n_cases": 1}


def test_a_sampled_run_summary():
    items = [SampledItem("c1", "c1-json", (True, True, True)), SampledItem("c1", "c1-xml", (True, False, True)),
             SampledItem("c2", "c2-json", (False, False, False)), SampledItem("c3", "c3-json", (True, False, False))]
    s = summarise_samples(items)
    assert (s["n_items"], s["n_samples"]) == (4, 3)
    assert s["mean"]["mean"] == pytest.approx((1 + 2 / 3 + 0 + 1 / 3) / 4)
    assert s["pass_at_k"]["1"]["mean"] == pytest.approx(s["mean"]["mean"]) == s["pass_hat_k"]["1"]["mean"]
    assert s["pass_at_k"]["3"]["mean"] == pytest.approx(3 / 4) and s["pass_hat_k"]["3"]["mean"] == pytest.approx(1 / 4)
    assert s["pass_at_k"]["2"]["mean"] == pytest.approx((1 + 1 + 0 + 2 / 3) / 4)
    assert s["flip_rate"]["mean"] == pytest.approx(2 / 4) and s["flip_rate"]["n_cases"] == 3
    assert s["all_samples_pass"]["mean"] == pytest.approx(s["pass_hat_k"]["3"]["mean"])
    for name in ("mean", "flip_rate"):
        low, high = s[name]["ci95_clustered"]
        assert 0 <= low <= s[name]["mean"] <= high <= 1
    with pytest.raises(ValueError, match=r"same number \(>= 1\) of samples; found \[2, 3\]"):
        summarise_samples([*items, SampledItem("c4", "c4-json", (True, False))])


# ----------------------------------------------------------------------------- the in-process sampler

def _logits(*probs: float) -> torch.Tensor:
    return torch.log(torch.tensor([probs], dtype=torch.float32))


def test_a_row_samples_from_its_own_generator_only():
    """Row i's tokens are a function of its logits and its seed: the same whatever row sits beside it."""
    seeds = {0: 11, 1: 22, 7: 33}
    logits = torch.randn(3, 50, generator=torch.Generator().manual_seed(0))
    together = RowSampler(1.0, 1.0, seeds.__getitem__)
    alone = RowSampler(1.0, 1.0, seeds.__getitem__)
    other = RowSampler(1.0, 1.0, {0: 11, 5: 99}.__getitem__)
    for _ in range(20):
        both = together.pick([0, 1, 7], logits)
        assert both[0] == alone.pick([0], logits[:1])[0] == other.pick([5, 0], logits[[2, 0]])[1]
        assert both[2] == alone.pick([7], logits[2:])[0]
    again = RowSampler(1.0, 1.0, seeds.__getitem__)
    assert [again.pick([0, 1, 7], logits) for _ in range(3)] != [again.pick([0, 1, 7], logits) for _ in range(3)]


def test_sampling_follows_the_tempered_distribution_and_top_p_keeps_the_nucleus():
    logits = _logits(0.5, 0.3, 0.15, 0.05)
    counts = collections.Counter(RowSampler(1.0, 1.0, lambda i: i).pick(list(range(4000)), logits.repeat(4000, 1)))
    for token, p in enumerate((0.5, 0.3, 0.15, 0.05)):
        assert counts[token] / 4000 == pytest.approx(p, abs=0.03)
    nucleus = collections.Counter(RowSampler(1.0, 0.7, lambda i: i).pick(list(range(2000)), logits.repeat(2000, 1)))
    assert set(nucleus) == {0, 1} and nucleus[0] / 2000 == pytest.approx(0.5 / 0.8, abs=0.04)
    # a small temperature sharpens the distribution onto the argmax
    cold = RowSampler(0.01, 1.0, lambda i: i).pick(list(range(200)), logits.repeat(200, 1))
    assert set(cold) == {0}
    with pytest.raises(ValueError, match="temperature"):
        RowSampler(0.0, 1.0, lambda i: i)


# ----------------------------------------------------------------------------- flags, records, summary

@pytest.mark.parametrize("samples,temperature,top_p,flag", [
    (0, 0.0, 1.0, "--samples 0"), (1, -0.1, 1.0, "--temperature -0.1"), (1, 0.7, 0.0, "--top-p 0"),
    (1, 0.7, 1.5, "--top-p 1.5"), (1, float("nan"), 1.0, "--temperature nan")])
def test_bad_sampling_flags_are_one_line_usage_errors(samples, temperature, top_p, flag):
    message = sampling_usage_error(samples, temperature, top_p)
    assert message is not None and message.startswith(flag + ":") and "\n" not in message
    assert sampling_usage_error(3, 0.0, 1.0) is None and sampling_usage_error(1, 0.6, 0.95) is None


def test_the_plugin_refuses_a_bad_flag_with_exit_4():
    proc = run_pytest("--model", "oracle", "--samples", "0")
    assert proc.returncode == 4 and "--samples 0: must be at least 1" in proc.stderr


@functools.cache
def _cases() -> dict[str, Case]:
    return {c.id: c for c in load_corpus()[0]}


def _sampled_record(texts: list[str], seed_base: int = 100) -> ItemRecord:
    case = _cases()["calculator-en-001"]
    samples = []
    for j, text in enumerate(texts):
        c = Completion(sample_item_id("calculator-en-001-json", j), text, prompt_tokens=10, completion_tokens=5 + j,
                       seed=seed_base + j, system_fingerprint="fp_1" if j else None)
        samples.append(Sample(j, c, *grade_completion(case, c, "json")))
    return ItemRecord.of_samples(case, "json", samples)


RIGHT = '{"tool": "calculator", "arguments": {"expression": "27 * 348"}}'


def test_a_sampled_record_keeps_every_sample_and_passes_only_when_all_do():
    record = _sampled_record([RIGHT, "I cannot help.", RIGHT])
    assert [s.passed for s in record.samples] == [True, False, True]
    assert not record.passed and record.pass_rate == pytest.approx(2 / 3) and record.item_id == "calculator-en-001-json"
    assert "samples  : 2 of 3 passed" in failure_message(record) and "seed 101" in failure_message(record)
    doc = build_results({**_provenance(), "decoding": DecodingConfig(samples=3, temperature=0.7).as_dict()}, [record])
    assert schema_errors(doc) == [] and doc["format_version"] == 5
    stored = doc["records"][0]
    assert [s["seed"] for s in stored["samples"]] == [100, 101, 102]
    assert stored["samples"][1]["system_fingerprint"] == "fp_1"
    assert (doc["cost"]["prompt_tokens"], doc["cost"]["completion_tokens"]) == (30, 18)
    back = ResultsFile.from_document(json.loads(json.dumps(doc)), "sampled")
    [again] = back.records
    assert [s.completion.text for s in again.samples] == [RIGHT, "I cannot help.", RIGHT] and not again.passed
    assert [s.completion.seed for s in again.samples] == [100, 101, 102]
    summary = back.summary
    assert summary["n_items"] == 1 and summary["overall"]["score"]["n"] == 3      # rates are means over samples
    assert summary["overall"]["score"]["rate"] == pytest.approx(2 / 3) == summary["samples"]["mean"]["mean"]
    assert summary["samples"]["flip_rate"]["mean"] == 1.0 and summary["samples"]["pass_hat_k"]["3"]["mean"] == 0
    tampered = json.loads(json.dumps(doc))
    tampered["records"][0]["samples"][1]["passed"] = True
    with pytest.raises(ResultsFileError, match="sample 1: 'passed' is True"):
        ResultsFile.from_document(tampered, "tampered")


def test_a_greedy_config_writes_the_decoding_it_always_wrote():
    assert DecodingConfig().as_dict() == {"max_new_tokens": 256, "temperature": 0.0, "do_sample": False}
    assert not DecodingConfig().sampled
    assert DecodingConfig(samples=2).sampled and DecodingConfig(temperature=0.5).sampled
    assert DecodingConfig(samples=2).as_dict()["do_sample"] is False     # N > 1 at temperature 0: allowed (APIs)


def test_identical_samples_at_a_temperature_are_warned_about():
    same = build_results({**_provenance(), "decoding": DecodingConfig(samples=2, temperature=0.7).as_dict()},
                         [_sampled_record([RIGHT, RIGHT])])
    assert identical_samples_warning(same).startswith("WARNING: every sample of every item is identical")
    differ = build_results({**_provenance(), "decoding": DecodingConfig(samples=2, temperature=0.7).as_dict()},
                           [_sampled_record([RIGHT, RIGHT + " "])])
    greedy_n = build_results({**_provenance(), "decoding": DecodingConfig(samples=2).as_dict()},
                             [_sampled_record([RIGHT, RIGHT])])
    assert identical_samples_warning(differ) is None and identical_samples_warning(greedy_n) is None


def _provenance() -> dict:
    return {"spec_version": "4.0.0", "corpus": {"sha256": "0" * 64}, "model": {"backend": "scripted", "model_id": "x"},
            "backend": {}, "decoding": DecodingConfig().as_dict(), "batch_size": None, "protocols": ["json"],
            "libraries": {}, "started_at": "2026-01-01T00:00:00+00:00", "finished_at": "2026-01-01T00:00:01+00:00"}


def test_a_sampled_scripted_run_resumes_every_sample_and_regrade_keeps_them(tmp_path):
    """`run --samples 2 --resume R`, then `--samples 3` on R generates only sample 2 of each item; the results
    file holds 3 samples per item with their seeds, and regrade keeps all of them."""
    resume, first, second = tmp_path / "r.jsonl", tmp_path / "a.json", tmp_path / "b.json"
    common = ("--model", "oracle", "--protocol", "json", "-k", "calculator-en-00", "--temperature", "0.5",
              "--sample-seed", "5", "--resume", str(resume))
    assert run_pytest(*common, "--samples", "2", "--results", str(first)).returncode == 0
    proc = run_pytest(*common, "--samples", "3", "--results", str(second))
    assert proc.returncode == 0, proc.stdout[-2000:]
    doc = json.loads(second.read_text(encoding="utf-8"))
    n = len(doc["records"])
    assert n >= 2 and doc["provenance"]["generated_items"] == n           # one new sample per item, none redone
    assert doc["provenance"]["decoding"] == {"max_new_tokens": 256, "temperature": 0.5, "do_sample": True,
                                             "top_p": 1.0, "samples": 3, "sample_seed": 5}
    for r in doc["records"]:
        assert [s["seed"] for s in r["samples"]] == [sample_seed(5, r["item_id"], j) for j in range(3)]
    assert "pass^k k=1 1.000" in proc.stdout and "flip rate 0.000" in proc.stdout
    assert "WARNING: every sample of every item is identical at temperature 0.5" in proc.stdout   # scripted
    regraded = tmp_path / "c.json"
    out = subprocess.run([sys.executable, "-m", "tooluse1", "regrade", str(second), "--out", str(regraded)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    again = json.loads(regraded.read_text(encoding="utf-8"))
    assert [r["samples"] for r in again["records"]] == [r["samples"] for r in doc["records"]]
    assert again["summary"]["samples"] == doc["summary"]["samples"]


def run_pytest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


# ----------------------------------------------------------------------------- comparing sampled runs

def test_the_paired_test_of_means_is_the_paired_test_on_pass_fail_and_exact_on_means():
    rng = np.random.default_rng(1)
    rows = [(f"c{i // 3}", bool(rng.random() < 0.6), bool(rng.random() < 0.5)) for i in range(30)]
    plain, means = paired_test(rows), paired_test_means([(c, float(b), float(n)) for c, b, n in rows], 1)
    assert (means.p_worse, means.p_two_sided, means.diff) == pytest.approx((plain.p_worse, plain.p_two_sided,
                                                                             plain.diff))
    # per-item means of 3 samples: the one-sided p is the exact sign-flip distribution of the case sums
    items = [("a", 1.0, 1 / 3), ("a", 2 / 3, 2 / 3), ("b", 1.0, 2 / 3), ("c", 1 / 3, 0.0), ("d", 0.0, 1 / 3)]
    t = paired_test_means(items, 3)
    sums = [-2 + 0, -1, -1, 1]                          # case sums of 3 x (new - base)
    flips = [sum(s * x for s, x in zip(signs, sums)) for signs in itertools.product((1, -1), repeat=4)]
    assert t.p_worse == pytest.approx(sum(f <= sum(sums) for f in flips) / 16)
    assert t.diff == pytest.approx(sum(n - b for _, b, n in items) / 5) and t.ci95[0] <= t.diff <= t.ci95[1]
    assert (t.worse, t.better, t.n_clusters) == (3, 1, 4)
    with pytest.raises(ValueError, match="not a multiple of 1/3"):
        paired_test_means([("a", 0.5, 1.0)], 3)


def test_a_sampled_comparison_scores_items_by_their_mean():
    stats = PairedStats.of([("a", True, (True, False, True)), ("b", False, (True, True, True)),
                            ("c", True, (True, True, True)), ("d", False, (False, False, False))])
    assert stats.sampled and stats.n == 4 and (stats.worse, stats.better, stats.both, stats.neither) == (1, 1, 1, 1)
    assert stats.diff == pytest.approx((-1 / 3 + 1) / 4)
    assert stats.new_rate.value == pytest.approx((2 / 3 + 1 + 1 + 0) / 4) and stats.base_rate.value == 0.5
    assert not PairedStats.of([("a", True, False)]).sampled


def test_decoding_changes_are_named_and_a_sample_count_alone_is_none():
    greedy = DecodingConfig().as_dict()
    assert decoding_differences(greedy, DecodingConfig(samples=3, temperature=0.7).as_dict()) == (
        "decoding (greedy vs 3 samples at temperature 0.7, top-p 1; pass --allow-decoding-change to compare them)")
    assert decoding_differences(greedy, DecodingConfig(samples=3).as_dict()) is not None      # N > 1 at T 0
    assert decoding_differences(DecodingConfig(samples=3, temperature=0.7).as_dict(),
                                DecodingConfig(samples=5, temperature=0.7).as_dict()) is None
    assert decoding_differences(DecodingConfig(samples=3, temperature=0.7).as_dict(),
                                DecodingConfig(samples=3, temperature=0.7, top_p=0.9).as_dict()) is not None
    assert decoding_differences(greedy, {"max_new_tokens": 256, "temperature": 0.0, "do_sample": False}) is None


def test_compare_refuses_a_greedy_baseline_against_a_sampled_run_unless_allowed(tmp_path):
    greedy, sampled = tmp_path / "g.json", tmp_path / "s.json"
    common = ("--model", "oracle", "--protocol", "json", "-k", "calculator-en-00")
    assert run_pytest(*common, "--results", str(greedy)).returncode == 0
    assert run_pytest(*common, "--samples", "2", "--temperature", "0.5", "--results", str(sampled)).returncode == 0

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tooluse1", "compare", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
    refused = cli(str(greedy), str(sampled))
    assert refused.returncode == 4 and "--allow-decoding-change" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    allowed = cli(str(greedy), str(sampled), "--allow-decoding-change")
    assert allowed.returncode == 0 and "compared as asked (--allow-decoding-change)" in allowed.stdout
    gate = run_pytest(*common, "--samples", "2", "--temperature", "0.5", "--baseline", str(greedy))
    assert gate.returncode == 4 and "--allow-decoding-change" in gate.stderr


# ----------------------------------------------------------------------------- the leaderboard and decodings

def _greedy_record(case_id: str, text: str) -> ItemRecord:
    case = _cases()[case_id]
    c = Completion(f"{case_id}-json", text, prompt_tokens=10, completion_tokens=5)
    return ItemRecord(case, "json", c, *grade_completion(case, c, "json"))


def _run(path: Path, decoding: DecodingConfig, answers: dict[str, list[str]]) -> Path:
    """A synthetic results file of one json item per case: greedy records (one answer each) when `decoding` is
    greedy, else sampled records with the given samples."""
    records = []
    for case_id, texts in answers.items():
        if not decoding.sampled:
            records.append(_greedy_record(case_id, texts[0]))
            continue
        case = _cases()[case_id]
        answers = [Completion(sample_item_id(f"{case_id}-json", j), t, seed=j) for j, t in enumerate(texts)]
        samples = [Sample(j, c, *grade_completion(case, c, "json")) for j, c in enumerate(answers)]
        records.append(ItemRecord.of_samples(case, "json", samples))
    path.write_text(json.dumps(build_results({**_provenance(), "decoding": decoding.as_dict()}, records)),
                    encoding="utf-8")
    return path


WRONG = "I cannot help."
RIGHT_2 = '{"tool": "calculator", "arguments": {"expression": "1500/12"}}'       # calculator-en-002's call
SAMPLED = {"calculator-en-001": [RIGHT, WRONG, RIGHT], "calculator-en-002": [WRONG, WRONG, RIGHT_2]}


def test_the_leaderboard_refuses_runs_that_decode_differently_in_one_line_unless_allowed(tmp_path, capsys):
    from tooluse1.cli import main
    from tooluse1.leaderboard import build, format_markdown, format_text, render_board
    from tooluse1.results import load_results
    greedy = _run(tmp_path / "greedy.json", DecodingConfig(), {k: [v[-1]] for k, v in SAMPLED.items()})
    hot = _run(tmp_path / "hot.json", DecodingConfig(samples=3, temperature=0.7), SAMPLED)
    cooler = _run(tmp_path / "cool.json", DecodingConfig(samples=3, temperature=0.3), SAMPLED)
    fewer = _run(tmp_path / "fewer.json", DecodingConfig(samples=2, temperature=0.7),
                 {k: v[:2] for k, v in SAMPLED.items()})
    nucleus = _run(tmp_path / "nucleus.json", DecodingConfig(samples=3, temperature=0.7, top_p=0.9), SAMPLED)
    for other, words in ((greedy, "greedy"), (cooler, "3 samples at temperature 0.3, top-p 1"),
                         (fewer, "2 samples at temperature 0.7, top-p 1"),
                         (nucleus, "3 samples at temperature 0.7, top-p 0.9")):
        if other is greedy:          # the command line once: exit 4 (USAGE_ERROR), one line
            assert main(["leaderboard", str(hot), str(other)]) == USAGE_ERROR
            err = capsys.readouterr().err
            assert len(err.strip().splitlines()) == 1 and "--allow-decoding-change" in err, err
        with pytest.raises(IncomparableError) as e:
            build([load_results(hot), load_results(other)])
        message = str(e.value)
        assert "\n" not in message and "--allow-decoding-change" in message
        assert f"{hot}: 3 samples at temperature 0.7, top-p 1" in message and f"{other}: {words}" in message
    # runs of one decoding rank without a note, and a sampled one is scored by its per-item mean
    same = build([load_results(hot), load_results(_run(tmp_path / "hot2.json", DecodingConfig(samples=3,
                                                                                              temperature=0.7),
                                                       {k: [v[-1]] * 3 for k, v in SAMPLED.items()}))])
    assert not any("decode" in n for n in same.notes)
    assert [e.score["rate"] for e in same.entries] == pytest.approx([1.0, (2 / 3 + 1 / 3) / 2])
    board = build([load_results(p) for p in (greedy, hot, fewer)], allow_decoding_change=True)
    assert [e.decoding for e in board.entries] == ["greedy", "3 samples at temperature 0.7, top-p 1",
                                                    "2 samples at temperature 0.7, top-p 1"]
    assert [e.score["rate"] for e in board.entries] == pytest.approx([1.0, 0.5, 0.25])
    assert any("--allow-decoding-change" in n for n in board.notes)
    text = format_text(board)
    assert f"{greedy}; decoding: greedy" in text and f"{hot}; decoding: 3 samples at temperature 0.7, top-p 1" in text
    md = format_markdown(board).splitlines()
    assert md[2].startswith("| # | model | decoding | score") and "| 2 samples at temperature 0.7, top-p 1 |" in md[6]
    page = render_board(board)
    assert "<th>decoding</th>" in page and page.count("<td>3 samples at temperature 0.7, top-p 1</td>") == 1
    assert main(["leaderboard", str(hot), str(greedy), "--allow-decoding-change"]) == 0
    assert f"{greedy}; decoding: greedy" in capsys.readouterr().out
    # a board of greedy runs shows no decoding column (as before)
    plain = build([load_results(greedy), load_results(greedy)])
    assert "decoding" not in format_text(plain) + format_markdown(plain) + render_board(plain)


# ----------------------------------------------------------------------------- the report and deployment section

HOSTILE_SAMPLE = "<script>alert('sample 2')</script>"


def test_the_report_shows_every_sample_and_the_sampled_summary_and_leaves_a_greedy_page_alone(tmp_path):
    from tooluse1.report import esc, render_report
    from tooluse1.results import load_results
    answers = {"calculator-en-001": [RIGHT, WRONG, HOSTILE_SAMPLE], "calculator-en-002": [WRONG, RIGHT_2, RIGHT_2]}
    page = render_report(load_results(_run(tmp_path / "s.json", DecodingConfig(samples=3, temperature=0.7,
                                                                               sample_seed=4), answers)))
    # every item: its pass rate and each sample's verdict, with its output escaped in a collapsed <details>
    assert "1/3 samples passed" in page and "2/3 samples passed" in page
    assert page.count('<details class="sample"') == 6
    assert '<details class="sample" data-sample="1"><summary>sample 1: <span class="fail">fail</span>' in page
    assert '<details class="sample" data-sample="2"><summary>sample 2: <span class="pass">pass</span>' in page
    assert f"<pre>{esc(WRONG)}</pre>" in page and f"<pre>{esc(RIGHT_2)}</pre>" in page
    assert f"<pre>{esc(HOSTILE_SAMPLE)}</pre>" in page and HOSTILE_SAMPLE not in page
    assert "seed 2)" in page                              # each sample's seed (here the synthetic j)
    # the sampled summary: mean, flip rate, pass@k and pass^k for k = 1..3 with clustered intervals
    section = page[page.index('<section id="samples">'):]
    section = section[:section.index("</section>")]
    assert "3 samples per item at temperature 0.7, top-p 1, sample seed 4; 2 items" in section
    for name in ("mean score", "flip rate", "pass@1", "pass@2", "pass@3", "pass^1", "pass^2", "pass^3"):
        assert f"<td>{esc(name)}" in section
    assert "<td>flip rate (items whose samples disagree)</td><td class=num>1.000</td>" in section
    assert "<td>pass^3</td><td class=num>0.000</td>" in section and "<td>pass@3</td><td class=num>1.000</td>" in section
    assert "<th>answers (samples)</th>" in page                          # the label table counts every sample
    greedy = render_report(load_results(_run(tmp_path / "g.json", DecodingConfig(), {k: v[:1] for k, v in
                                                                                     answers.items()})))
    assert 'id="samples"' not in greedy and 'class="sample"' not in greedy and "samples passed" not in greedy
    assert greedy.count("<details><summary>output, extraction, expected</summary>") == 2
    assert "<th>items</th><th>passed</th>" in greedy


def test_deployment_conformance_pairs_sample_j_with_sample_j_or_says_why_not(tmp_path):
    from tooluse1.compare import compare, format_comparison
    from tooluse1.report import render_report
    from tooluse1.results import load_results
    hot = DecodingConfig(samples=3, temperature=0.7)
    base = load_results(_run(tmp_path / "a.json", hot, SAMPLED))
    new = load_results(_run(tmp_path / "b.json", hot, {**SAMPLED, "calculator-en-001": [RIGHT, RIGHT, RIGHT]}))
    c = compare(base, new).deployment
    assert c is not None and c.sampled and c.n_items == 6                 # 2 items x 3 sample pairs
    assert c.counts["identical"] == 5 and c.counts["gained"] == 1 and not c.conformant
    [(b, n)] = c.examples["gained"]
    assert b.item_id == n.item_id == "calculator-en-001-json#1" and (b.completion.text, n.completion.text) == (WRONG,
                                                                                                               RIGHT)
    assert "deployment conformance (6 sample pairs (sample j against sample j, the same seed)" in \
        format_comparison(compare(base, new))
    assert "sample by sample" in render_report(new, base) and compare(base, new).as_dict()["deployment"]["paired"] \
        == "samples"
    # runs that do not sample alike: no section, one note saying why (compare itself goes on)
    other_seed = load_results(_run(tmp_path / "c.json", DecodingConfig(samples=3, temperature=0.7, sample_seed=9),
                                   SAMPLED))
    greedy = load_results(_run(tmp_path / "g.json", DecodingConfig(), {k: v[:1] for k, v in SAMPLED.items()}))
    for other, why in ((other_seed, "sample seeds 0 vs 9"),
                       (greedy, "3 samples at temperature 0.7, top-p 1 vs greedy")):
        cmp = compare(base, other, allow_decoding_change=True)
        assert cmp.deployment is None
        assert f"deployment conformance left out: the runs do not sample alike ({why})" in "\n".join(cmp.notes)
        assert "deployment conformance (" not in format_comparison(cmp)
