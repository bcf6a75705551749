"""tooluse1.compare: the paired statistics against published values and independent implementations,
the pairing and refusals, the CLI's exit statuses and the pytest gate (--baseline)."""
from __future__ import annotations

import copy
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_contract import N_CASES, N_ITEMS, N_NON_CALL_CASES
from scipy.stats import binomtest
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import confint_proportions_2indep

from tooluse1.compare import (Z95, IncomparableError, PairedStats, compare, format_comparison, gate,
                              mcnemar_exact, newcombe_paired, square_and_add)
from tooluse1.corpus import SPEC_VERSION
from tooluse1.metrics import wilson
from tooluse1.results import ItemRecord, ResultsFile, build_results, load_results

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------------------- statistics

# Newcombe (1998), Stat Med 17:873, Table II, method 10 (score interval, no continuity correction):
# (k1, n1, k2, n2) -> 95% limits of p1 - p2, to 4 decimals.
NEWCOMBE_1998_TABLE_II = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((6, 7, 2, 7), (0.0582, 0.8062)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
    ((0, 10, 0, 10), (-0.2775, 0.2775)),
    ((10, 10, 0, 20), (0.6791, 1.0000)),
    ((10, 10, 0, 10), (0.6075, 1.0000)),
]


@pytest.mark.parametrize("counts,expected", NEWCOMBE_1998_TABLE_II)
def test_square_and_add_reproduces_newcombe_table_ii(counts, expected):
    k1, n1, k2, n2 = counts
    lo, hi = square_and_add(k1 / n1, wilson(k1, n1, Z95), k2 / n2, wilson(k2, n2, Z95))
    assert (round(lo, 4), round(hi, 4)) == expected
    # and an independent implementation agrees
    ref = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")
    assert lo == pytest.approx(ref[0], abs=1e-9) and hi == pytest.approx(ref[1], abs=1e-9)


def test_newcombe_paired_reproduces_the_published_worked_example():
    # Cavo et al. (2012), complete response before/after consolidation therapy, as worked in Fagerland,
    # Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8: table [[59, 6], [16, 80]],
    # Newcombe square-and-add (method 10): -0.0621 (95% CI -0.1186 to -0.0046).
    lo, hi = newcombe_paired(59, 6, 16, 80)
    assert (round(lo, 4), round(hi, 4)) == (-0.1186, -0.0046)
    # Without the correlation term (A = 59*80 - 6*16 > n/2, so phi > 0 here) it would be wider.
    n = 161
    wide = square_and_add(65 / n, wilson(65, n, Z95), 75 / n, wilson(75, n, Z95))
    assert wide[0] < lo and wide[1] > hi


def test_newcombe_paired_phi_branches_and_symmetry():
    def independent(both, f, g, neither):
        n = both + f + g + neither
        return square_and_add((both + f) / n, wilson(both + f, n, Z95), (both + g) / n, wilson(both + g, n, Z95))

    # Newcombe's corrected phi, by A = both*neither - f*g: A < 0 gives a negative phi (wider than the
    # independent interval of the marginals), 0 <= A <= n/2 gives phi = 0 (exactly that interval), and
    # A > n/2 a positive phi (narrower; the worked example above).
    paired, indep = newcombe_paired(3, 5, 2, 0), independent(3, 5, 2, 0)        # A = -10
    assert paired[0] < indep[0] and paired[1] > indep[1]
    assert newcombe_paired(3, 2, 2, 2) == pytest.approx(independent(3, 2, 2, 2))   # A = 2 <= 4.5
    paired, indep = newcombe_paired(20, 4, 1, 20), independent(20, 4, 1, 20)     # A = 396 > 22.5
    assert paired[0] > indep[0] and paired[1] < indep[1]
    # Swapping the two measurements negates the interval; limits stay in [-1, 1] and hold the estimate.
    rng = random.Random(7)
    for _ in range(300):
        t = [rng.randint(0, 30) for _ in range(4)]
        if sum(t) == 0:
            continue
        lo, hi = newcombe_paired(*t)
        lo2, hi2 = newcombe_paired(t[0], t[2], t[1], t[3])
        assert lo == pytest.approx(-hi2, abs=1e-12) and hi == pytest.approx(-lo2, abs=1e-12)
        d = (t[1] - t[2]) / sum(t)
        assert -1 <= lo <= d + 1e-12 and d - 1e-12 <= hi <= 1
    assert newcombe_paired(0, 0, 0, 0) == (-1.0, 1.0)


def test_mcnemar_exact_against_scipy_and_statsmodels():
    # The same worked example: exact conditional McNemar P = 0.052479 (Fagerland et al., ch. 8).
    assert mcnemar_exact(16, 6)[0] == pytest.approx(0.052479, abs=1e-6)
    rng = random.Random(3)
    for _ in range(200):
        worse, better = rng.randint(0, 60), rng.randint(0, 60)
        two, one = mcnemar_exact(worse, better)
        m = worse + better
        if m == 0:
            assert (two, one) == (1.0, 1.0)
            continue
        assert two == pytest.approx(binomtest(worse, m, 0.5).pvalue, rel=1e-9, abs=1e-300)
        assert one == pytest.approx(binomtest(worse, m, 0.5, alternative="greater").pvalue, rel=1e-9, abs=1e-300)
        table = [[rng.randint(0, 50), worse], [better, rng.randint(0, 50)]]
        assert two == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-9, abs=1e-300)


def test_paired_stats_counts():
    s = PairedStats.of([(True, True)] * 5 + [(True, False)] * 3 + [(False, True)] * 1 + [(False, False)] * 2)
    assert (s.n, s.both, s.worse, s.better, s.neither, s.base_k, s.new_k) == (11, 5, 3, 1, 2, 8, 6)
    assert s.diff == pytest.approx(-2 / 11)
    d = s.as_dict()
    assert d["pass_to_fail"] == 3 and d["fail_to_pass"] == 1 and d["base"]["k"] == 8 and d["new"]["k"] == 6


# ----------------------------------------------------------------------------- comparing runs

def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooluse1", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def runs(scripted_results: dict[str, Path]) -> dict[str, Path]:
    return scripted_results


def mixed(runs: dict[str, Path], failing: set[str], path: Path) -> Path:
    """A consistent results file: always-call's records (which fail every non-call item) for the item ids
    in `failing`, the oracle's elsewhere."""
    oracle, always = load_results(runs["oracle"]), load_results(runs["always-call"])
    bad = {r.item_id: r for r in always.records}
    records = [bad[r.item_id] if r.item_id in failing else r for r in oracle.records]
    path.write_text(json.dumps(build_results(oracle.provenance, records), ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def failable(runs) -> list[str]:
    """Item ids that always-call fails (the no-call and clarify items), in a fixed order."""
    return [r.item_id for r in load_results(runs["always-call"]).records if not r.passed]


def test_compare_counts_groups_and_flips(runs, failable, tmp_path):
    base = mixed(runs, set(failable[:10]), tmp_path / "base.json")          # fails 10
    new = mixed(runs, set(failable[5:25]), tmp_path / "new.json")           # fails 20, 5 shared
    cmp = compare(load_results(base), load_results(new))
    o = cmp.overall
    assert (o.n, o.worse, o.better, o.neither) == (N_ITEMS, 15, 5, 5)
    assert o.p_values[1] == pytest.approx(binomtest(15, 20, 0.5, alternative="greater").pvalue)
    assert {f.base.item_id for f in cmp.flips if f.direction == "pass->fail"} == set(failable[10:25])
    assert {f.base.item_id for f in cmp.flips if f.direction == "fail->pass"} == set(failable[:5])
    assert cmp.flips[0].direction == "pass->fail"                    # regressions first
    # every group's pairs add up to the overall ones, per dimension
    for dim, groups in cmp.groups.items():
        if dim != "kind":
            assert sum(s.n for s in groups.values()) == o.n, dim
            assert sum(s.worse for s in groups.values()) == o.worse, dim
    assert set(cmp.groups["protocol"]) == {"json", "xml", "plain"}
    assert set(cmp.groups["kind"]) <= {"knowledge", "chit_chat", "capability_trap", "instruction_trap"}
    text = format_comparison(cmp, max_flips=3)
    assert "15" in text and "pass->fail" in text and "(first 3 shown)" in text
    first = cmp.flips[0]
    assert repr(first.new.completion.text)[:40] in text and repr(first.base.completion.text)[:40] in text
    # McNemar, counting items as independent, says p = 0.0207; but the 20 flips lie in 8 cases, and the gate
    # decides on the exact sign-flip test of the case-level differences (checked here by enumeration)
    cases: dict[str, int] = {}
    for f in cmp.flips:
        cases[f.base.case.id] = cases.get(f.base.case.id, 0) + (1 if f.direction == "fail->pass" else -1)
    d = list(cases.values())
    totals = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((1, -1), repeat=len(d))]
    assert o.clustered_p_values[1] == pytest.approx(sum(t <= sum(d) for t in totals) / len(totals))
    assert o.clustered_p_values[1] > 0.05 > o.p_values[1]
    assert not gate(cmp).failed
    assert gate(cmp, max_drop=0.01).failed                            # drop 10 items of all: about 0.018
    assert not gate(cmp, max_drop=0.02).failed
    assert "can detect a drop of" in gate(cmp).power and gate(cmp).min_detectable_drop > 0.0177


def with_native(doc: dict, native_from: dict) -> ResultsFile:
    """`doc` plus a native item for every json record of `native_from` (same verdicts, protocol native)."""
    extra = []
    for r in native_from["records"]:
        if r["protocol"] == "json":
            extra.append({**r, "protocol": "native", "item_id": r["item_id"][:-len("json")] + "native",
                          "prompt_sha256": None})
    records = [ItemRecord.from_dict(r) for r in doc["records"] + extra]
    return ResultsFile.from_document(build_results(doc["provenance"], records), "with-native")


def test_overall_is_the_comparable_items_and_native_its_own_row(runs):
    oracle = json.loads(runs["oracle"].read_text(encoding="utf-8"))
    always = json.loads(runs["always-call"].read_text(encoding="utf-8"))
    # the same text-protocol items; native items that regress on every no-call and clarify case
    base, new = with_native(oracle, oracle), with_native(oracle, always)
    cmp = compare(base, new)
    assert cmp.overall.n == N_ITEMS and cmp.overall.diff == 0 and cmp.overall.test.n_clusters == N_CASES
    assert cmp.native is not None
    assert (cmp.native.n, cmp.native.worse, cmp.native.better) == (N_CASES, N_NON_CALL_CASES, 0)
    assert set(cmp.groups["protocol"]) == {"json", "xml", "plain"}
    assert all(s.worse == 0 for groups in cmp.groups.values() for s in groups.values())
    assert not gate(cmp).failed                                       # decided on the comparable items
    assert len(cmp.flips) == N_NON_CALL_CASES                                       # the native flips are still listed
    text = format_comparison(cmp, max_flips=0)
    overall_line = next(line for line in text.splitlines() if line.split()[:1] == ["overall"])
    native_line = next(line for line in text.splitlines() if line.strip().startswith("native (not in overall)"))
    assert f" {N_ITEMS} " in overall_line and f" {N_CASES} " in native_line
    assert f"{-N_NON_CALL_CASES / N_CASES:.3f}" in native_line
    d = cmp.as_dict()
    assert d["overall"]["n"] == N_ITEMS and d["native"]["pass_to_fail"] == N_NON_CALL_CASES
    assert d["native"]["p_worse"] < 1e-9
    # without native on one side there is no native row, and the overall row is unchanged
    only_text = compare(load_results(runs["oracle"]), new)
    assert only_text.native is None and only_text.overall.n == N_ITEMS and only_text.only_in_new == N_CASES
    # runs of native alone are compared on their native items
    natives = [{**d, "records": [r for r in d["records"] if r["protocol"] == "native"]}
               for d in (base.document, new.document)]
    native_only = compare(*(ResultsFile.from_document(d, f"native-{i}") for i, d in enumerate(natives)))
    assert native_only.native is None
    assert (native_only.overall.n, native_only.overall.worse) == (N_CASES, N_NON_CALL_CASES)
    assert gate(native_only).failed


def test_compare_leaves_out_unpaired_and_error_items(runs, failable, tmp_path):
    oracle = load_results(runs["oracle"])
    doc = copy.deepcopy(oracle.document)
    doc["records"] = [r for r in doc["records"] if r["protocol"] != "plain"]
    err = doc["records"][0]
    err.update(output="", finish_reason="error", error="HTTP 503", extraction=None, verdict=None, passed=False)
    new = ResultsFile.from_document(build_results(doc["provenance"], ResultsFile.from_document(doc).records), "new")
    cmp = compare(oracle, new)
    assert cmp.only_in_base == N_CASES and cmp.only_in_new == 0 and cmp.errors_excluded == 1
    assert cmp.overall.n == N_ITEMS - N_CASES - 1


def test_refuses_different_spec_corpus_or_prompts_naming_each(runs):
    base = load_results(runs["oracle"])
    doc = copy.deepcopy(base.document)
    doc["provenance"]["corpus"]["sha256"] = "f" * 64
    doc["provenance"]["spec_version"] = "1.0.0"
    other = ResultsFile.from_document(doc, "other.json")
    with pytest.raises(IncomparableError) as e:
        compare(base, other)
    assert f"spec version ({SPEC_VERSION} vs 1.0.0)" in str(e.value) and "corpus digest" in str(e.value)
    assert "other.json" in str(e.value)
    # prompts are checked item by item where records carry their prompt's hash ...
    b = copy.deepcopy(base.document)
    b["records"][5]["prompt_sha256"] = "b" * 64
    rb = ResultsFile.from_document(b, "b.json")
    item = b["records"][5]["item_id"]
    with pytest.raises(IncomparableError, match=f"prompts of 1 of {N_ITEMS} paired items \\(e.g. {item}\\).*"
                                                f"--allow-different-prompts"):
        compare(base, rb)
    allowed = compare(base, rb, allow_different_prompts=True)
    assert any(f"prompts of 1 of {N_ITEMS} paired items" in n for n in allowed.notes)
    # ... and by the provenance digests for files whose records do not carry hashes
    a, c = copy.deepcopy(base.document), copy.deepcopy(base.document)
    for d in (a, c):
        for r in d["records"]:
            r["prompt_sha256"] = None
    a["provenance"]["prompt_sha256"], c["provenance"]["prompt_sha256"] = "a" * 64, "c" * 64
    ra, rc = ResultsFile.from_document(a, "a.json"), ResultsFile.from_document(c, "c.json")
    with pytest.raises(IncomparableError, match="prompt digest .*--allow-different-prompts"):
        compare(ra, rc)
    assert any("prompt digests differ" in n for n in compare(ra, rc, allow_different_prompts=True).notes)
    # one side without a digest (written before digests existed): compared, with a note saying so
    del c["provenance"]["prompt_sha256"]
    rc = ResultsFile.from_document(c, "c.json")
    assert any("prompts not checked" in n and "a.json" not in n for n in compare(ra, rc).notes)


def test_compare_cli_exit_statuses(runs, failable, tmp_path):
    worse = mixed(runs, set(failable[:30]), tmp_path / "worse.json")
    slightly = mixed(runs, set(failable[:2]), tmp_path / "slightly.json")
    ok = run_cli("compare", str(runs["oracle"]), str(runs["oracle"]))
    assert ok.returncode == 0, ok.stderr
    assert "gate passed" in ok.stdout and "gate power: this gate can detect a drop of" in ok.stdout
    bad = run_cli("compare", str(runs["oracle"]), str(worse), "--json", str(tmp_path / "c.json"))
    assert bad.returncode == 1 and "GATE FAILED: NEW is significantly worse" in bad.stdout
    saved = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert saved["gate"]["failed"] and saved["overall"]["pass_to_fail"] == 30 and len(saved["flips"]) == 30
    # 30 items in 10 whole cases: p = 2^-10 by the clustered test, far from McNemar's 2^-30
    assert saved["overall"]["p_worse"] == pytest.approx(2 ** -10) and saved["overall"]["n_cases"] == N_CASES
    assert saved["overall"]["mcnemar_p_worse"] == pytest.approx(2 ** -30)
    assert saved["gate"]["min_detectable_drop"] == pytest.approx(saved["overall"]["min_detectable_drop"])
    # 2 pass->fail is not significant (p = 0.25), but a drop of 2 items of all (about 0.0035) exceeds --max-drop 0.003
    assert run_cli("compare", str(runs["oracle"]), str(slightly)).returncode == 0
    drop = run_cli("compare", str(runs["oracle"]), str(slightly), "--max-drop", "0.003")
    assert drop.returncode == 1 and "--max-drop 0.003" in drop.stdout
    # improvements never fail the gate
    assert run_cli("compare", str(worse), str(runs["oracle"])).returncode == 0


@pytest.mark.parametrize("case", ["missing", "not-json", "not-results", "incomparable", "bad-alpha", "bad-drop"])
def test_compare_cli_bad_input_is_exit_2_with_one_message(runs, tmp_path, case):
    base, new, extra = str(runs["oracle"]), str(runs["always-call"]), []
    if case == "missing":
        new = str(tmp_path / "nope.json")
    elif case == "not-json":
        (tmp_path / "x.json").write_text("{oops", encoding="utf-8")
        new = str(tmp_path / "x.json")
    elif case == "not-results":
        (tmp_path / "x.json").write_text('{"tooluse1_results": 1, "records": 3}', encoding="utf-8")
        new = str(tmp_path / "x.json")
    elif case == "incomparable":
        doc = json.loads(runs["always-call"].read_text(encoding="utf-8"))
        doc["provenance"]["corpus"]["sha256"] = "e" * 64
        (tmp_path / "x.json").write_text(json.dumps(doc), encoding="utf-8")
        new = str(tmp_path / "x.json")
    elif case == "bad-alpha":
        extra = ["--alpha", "1.5"]
    else:
        extra = ["--max-drop", "lots"]
    proc = run_cli("compare", base, new, *extra)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
    named = {"missing": "nope.json", "not-json": "x.json", "not-results": "x.json", "incomparable": "corpus digest",
             "bad-alpha": "--alpha", "bad-drop": "--max-drop"}[case]
    assert named in proc.stderr


def test_compare_reads_format_1_files(runs, tmp_path):
    doc = json.loads(runs["always-call"].read_text(encoding="utf-8"))
    old = {"tooluse1_results": 1, **{k: v for k, v in doc.items() if k not in ("format", "format_version")}}
    old["records"] = [{k: v for k, v in r.items() if k != "expect"} for r in doc["records"]]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    proc = run_cli("compare", str(path), str(runs["oracle"]), "--max-flips", "1")
    assert proc.returncode == 0, proc.stderr
    assert "0 pass->fail, 180 fail->pass" in proc.stdout


# ----------------------------------------------------------------------------- the pytest gate

def run_pytest(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "test_tooluse1.py", "-p", "no:cacheprovider", "-q", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_pytest_baseline_gate(runs, tmp_path):
    # Worse than the baseline: exit 1 with the reason.
    worse = run_pytest("--model", "always-call", "--baseline", str(runs["oracle"]))
    assert worse.returncode == 1
    assert "GATE FAILED: NEW is significantly worse" in worse.stdout and "pass->fail" in worse.stdout
    # The same model as its baseline: 180 items fail (they are the measurement), the gate passes: exit 0.
    same = run_pytest("--model", "always-call", "--baseline", str(runs["always-call"]), "--max-drop", "0.02",
                      "--html", str(tmp_path / "r.html"))
    assert same.returncode == 0, same.stdout[-3000:]
    assert "180 failed" in same.stdout and "gate passed" in same.stdout
    # identical runs: the only limit is the exact test's own (5 cases of one item each: 2^-5 < 0.05)
    assert "this gate can detect a drop of 0.009 or more" in same.stdout
    assert "deff" in same.stdout and "clustered by case" in same.stdout
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="comparison"' in html and "not significantly worse" in html
    # A selection compares the selected items only.
    sel = run_pytest("--model", "always-call", "-k", "negative and json", "--baseline", str(runs["oracle"]))
    assert sel.returncode == 1 and "on 49 paired items" in sel.stdout


@pytest.mark.parametrize("case", ["missing", "corpus", "alpha-without-baseline"])
def test_pytest_bad_baseline_is_a_usage_error_before_generation(runs, tmp_path, case):
    args = ["--model", "oracle", "-k", "calculator-en-001"]
    if case == "missing":
        args += ["--baseline", str(tmp_path / "none.json")]
    elif case == "corpus":
        doc = json.loads(runs["oracle"].read_text(encoding="utf-8"))
        doc["provenance"]["corpus"]["sha256"] = "d" * 64
        (tmp_path / "b.json").write_text(json.dumps(doc), encoding="utf-8")
        args += ["--baseline", str(tmp_path / "b.json")]
    else:
        args += ["--max-drop", "0.1"]
    proc = run_pytest(*args)
    assert proc.returncode == 4, proc.stdout[-2000:] + proc.stderr[-2000:]   # pytest's usage error
    text = proc.stderr
    expected = {"missing": "none.json", "corpus": "corpus digest",
                "alpha-without-baseline": "--max-drop needs --baseline"}[case]
    assert expected in text
    assert "Traceback" not in text and "passed" not in proc.stdout
