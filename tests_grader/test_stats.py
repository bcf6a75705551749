"""tooluse1.stats: the clustered interval against statsmodels' cluster-robust regression and a plain case
bootstrap, the exact sign-flip test against brute-force enumeration and exact McNemar, and the paired test on
constructed runs (a real drop is detected, identical runs pass, clustering widens the interval)."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
import statsmodels.api as sm

from tooluse1.stats import clustered_interval, mcnemar_exact, paired_test, sign_flip_p_values, wilson


def clustered_data(rng: random.Random, n_cases: int, icc_like: float, p: float = 0.3) -> list[tuple[str, bool]]:
    """(case id, passed) items: each case has 1-4 items that copy the case's own outcome with probability
    `icc_like` and are drawn afresh otherwise (so items of a case are positively correlated)."""
    out = []
    for c in range(n_cases):
        own = rng.random() < p
        for _ in range(rng.randint(1, 4)):
            out.append((f"case-{c}", own if rng.random() < icc_like else rng.random() < p))
    return out


def statsmodels_se(values: list[float], groups: list[str]) -> tuple[float, float]:
    """(cluster-robust, ordinary) standard errors of the mean: an intercept-only OLS fit with
    cov_type='cluster' (statsmodels' CR1 small-sample correction) and without."""
    y = np.asarray(values, float)
    x = np.ones((len(y), 1))
    codes = np.unique(np.asarray(groups), return_inverse=True)[1]
    robust = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": codes})
    plain = sm.OLS(y, x).fit()
    return float(robust.bse[0]), float(plain.bse[0])


# ----------------------------------------------------------------------------- the clustered interval

@pytest.mark.parametrize("seed", range(6))
def test_clustered_interval_matches_statsmodels_cluster_robust_ols(seed):
    rng = random.Random(seed)
    data = clustered_data(rng, n_cases=rng.choice((20, 60, 200)), icc_like=rng.choice((0.0, 0.5, 0.9)))
    ci = clustered_interval(data)
    robust, plain = statsmodels_se([float(ok) for _, ok in data], [c for c, _ in data])
    assert ci.se == pytest.approx(robust, rel=1e-9)
    assert ci.design_effect == pytest.approx((robust / plain) ** 2, rel=1e-9)
    n_eff = ci.n / max(1.0, ci.design_effect)
    assert (ci.low, ci.high) == pytest.approx(wilson(ci.rate * n_eff, n_eff), abs=1e-12)
    assert 0 <= ci.low <= ci.rate <= ci.high <= 1
    lo, hi = wilson(ci.k, ci.n)
    assert ci.low <= lo + 1e-12 and ci.high >= hi - 1e-12          # never narrower than Wilson


def test_clustered_standard_error_agrees_with_a_plain_case_bootstrap():
    rng = random.Random(11)
    data = clustered_data(rng, n_cases=200, icc_like=0.7)
    ci = clustered_interval(data)
    cases: dict[str, list[bool]] = {}
    for c, ok in data:
        cases.setdefault(c, []).append(ok)
    groups = list(cases.values())
    boot = random.Random(5)
    means = []
    for _ in range(4000):
        draw = [groups[boot.randrange(len(groups))] for _ in groups]
        means.append(sum(sum(g) for g in draw) / sum(len(g) for g in draw))
    se_boot = float(np.std(means))
    # the bootstrap estimates the CR0 variance (no G/(G-1) factor); Monte Carlo error of 4000 draws is ~1-2%
    cr0 = ci.se * math.sqrt((len(groups) - 1) / len(groups))
    assert se_boot == pytest.approx(cr0, rel=0.05)


def test_one_item_per_case_is_exactly_wilson_and_replicated_items_widen_the_interval():
    rng = random.Random(2)
    single = [(f"c{i}", rng.random() < 0.4) for i in range(150)]
    ci = clustered_interval(single)
    assert ci.design_effect == pytest.approx(1.0, abs=1e-12)
    assert (ci.low, ci.high) == pytest.approx(wilson(ci.k, ci.n), abs=1e-12)
    # every case rendered three times with the same verdict: three items carry one case's information
    tripled = [(c, ok) for c, ok in single for _ in range(3)]
    ct = clustered_interval(tripled)
    g = len(single)
    assert ct.design_effect == pytest.approx((3 * g - 1) / (g - 1), rel=1e-9)
    wl, wh = wilson(ct.k, ct.n)
    assert ct.high - ct.low > 1.6 * (wh - wl)                        # ~sqrt(3) wider than the naive interval
    assert (ct.low, ct.high) == pytest.approx((ci.low, ci.high), abs=0.01)   # ~ the interval over the cases


def test_clustered_interval_edges():
    assert clustered_interval([]).rate is None and clustered_interval([]).ci95 == (0.0, 1.0)
    zero = clustered_interval([(c, False) for c in "aabbcc"])
    assert zero.rate == 0 and zero.low == 0 and zero.design_effect == 1.0
    assert zero.ci95 == pytest.approx(wilson(0, 6))
    one_case = clustered_interval([("a", True), ("a", False), ("a", True)])
    assert one_case.n_clusters == 1 and one_case.design_effect == 3.0 and one_case.se is None
    assert one_case.ci95 == pytest.approx(wilson(2 / 3, 1))


# ----------------------------------------------------------------------------- the sign-flip test

def brute_force_sign_flip(d: list[int]) -> tuple[float, float]:
    """Enumerate every sign pattern: (P(|T| >= |t|), P(T <= t))."""
    t = sum(d)
    totals = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((1, -1), repeat=len(d))]
    return (sum(abs(v) >= abs(t) for v in totals) / len(totals), sum(v <= t for v in totals) / len(totals))


@pytest.mark.parametrize("seed", range(40))
def test_sign_flip_matches_enumeration(seed):
    rng = random.Random(seed)
    d = [rng.choice((-3, -2, -1, 0, 0, 1, 2, 3)) for _ in range(rng.randint(1, 14))]
    two, worse = sign_flip_p_values(d)
    ref_two, ref_worse = brute_force_sign_flip(d)
    assert two == pytest.approx(min(1.0, ref_two), abs=1e-12) and worse == pytest.approx(ref_worse, abs=1e-12)


def test_sign_flip_with_one_item_per_case_is_exact_mcnemar():
    rng = random.Random(9)
    for _ in range(200):
        worse, better = rng.randint(0, 80), rng.randint(0, 80)
        d = [-1] * worse + [1] * better + [0] * rng.randint(0, 30)
        rng.shuffle(d)
        assert sign_flip_p_values(d) == pytest.approx(mcnemar_exact(worse, better), rel=1e-9, abs=1e-300)
    # thousands of cases of one magnitude (2^k past a float's range) still give McNemar's p
    assert sign_flip_p_values([-1] * 1300 + [1] * 1200) == pytest.approx(mcnemar_exact(1300, 1200), rel=1e-9)


# ----------------------------------------------------------------------------- the paired test

def runs_with(case_outcomes: list[tuple[list[bool], list[bool]]]) -> list[tuple[str, bool, bool]]:
    """(case id, base, new) triples from per-case lists of BASE and NEW verdicts (one per protocol)."""
    return [(f"case-{c}", b, n) for c, (bs, ns) in enumerate(case_outcomes) for b, n in zip(bs, ns)]


def test_identical_runs_pass_with_nothing_to_report():
    rng = random.Random(4)
    outcomes = [[rng.random() < 0.4] * 3 for _ in range(200)]
    t = paired_test(runs_with([(o, o) for o in outcomes]))
    assert t.diff == 0 and t.p_worse == 1.0 and t.p_two_sided == 1.0 and t.mcnemar_p_worse == 1.0
    assert t.ci95[0] < 0 < t.ci95[1] and t.design_effect == 1.0
    assert t.min_detectable_drop == pytest.approx(5 / 600)    # only the exact test's floor: 5 cases, 2^-5 < 0.05


def test_a_real_drop_in_whole_cases_is_detected():
    # NEW loses 12 cases in all three protocols and gains 2: p = P(T <= -30) over 14 cases of magnitude 3
    same = [[True] * 3] * 100 + [[False] * 3] * 86
    lost = [([True] * 3, [False] * 3)] * 12
    gained = [([False] * 3, [True] * 3)] * 2
    t = paired_test(runs_with([(o, o) for o in same] + lost + gained))
    assert t.worse == 36 and t.better == 6 and t.diff == pytest.approx(-30 / 600)
    expected = sum(math.comb(14, k) for k in range(12, 15)) / 2 ** 14     # >= 12 of 14 cases went down
    assert t.p_worse == pytest.approx(expected, rel=1e-12) and t.p_worse < 0.05
    assert t.ci95[1] < 0                                                   # the interval excludes no change
    # the same discordant counts scattered one item per case are far more significant to McNemar
    assert t.mcnemar_p_worse < t.p_worse / 100


def test_clustering_widens_the_difference_interval_and_weakens_the_evidence():
    # 30 pass->fail and 12 fail->pass items, concentrated in 10 and 4 cases vs spread one per case
    concentrated = ([([True] * 3, [False] * 3)] * 10 + [([False] * 3, [True] * 3)] * 4
                    + [([True] * 3, [True] * 3)] * 186)
    spread = ([([True, True, True], [False, True, True])] * 30 + [([False, True, True], [True, True, True])] * 12
              + [([True] * 3, [True] * 3)] * 158)
    tc, ts = paired_test(runs_with(concentrated)), paired_test(runs_with(spread))
    assert (tc.worse, tc.better, tc.n) == (ts.worse, ts.better, ts.n) == (30, 12, 600)
    assert tc.diff == ts.diff and tc.mcnemar_p_worse == ts.mcnemar_p_worse
    assert tc.design_effect > 2.5 and ts.design_effect == pytest.approx(1.0, abs=0.05)
    assert tc.ci95[1] - tc.ci95[0] > 1.5 * (ts.ci95[1] - ts.ci95[0])
    assert ts.ci95 == pytest.approx(ts.ci95_independent, abs=2e-3)
    assert tc.p_worse > 10 * ts.p_worse and tc.min_detectable_drop > ts.min_detectable_drop


def test_difference_design_effect_matches_statsmodels():
    rng = random.Random(21)
    triples = []
    for c in range(120):
        shift = rng.choice((-1, 0, 0, 0, 1))           # a case NEW handles differently, in every protocol
        for _ in range(3):
            b = rng.random() < 0.5
            n = b if rng.random() < 0.8 else (shift > 0 if shift else not b)
            triples.append((f"c{c}", b, n))
    t = paired_test(triples)
    robust, plain = statsmodels_se([int(n) - int(b) for _, b, n in triples], [c for c, _, _ in triples])
    assert t.design_effect == pytest.approx((robust / plain) ** 2, rel=1e-9)
    z = 1.6448536269514722 + 0.8416212335729143
    assert t.min_detectable_drop == pytest.approx(max(5 / t.n, z * t.null_se), rel=1e-9)
    assert t.detectable_drop(alpha=0.01) > t.min_detectable_drop > t.detectable_drop(power=0.5)


def test_no_pairs_is_an_error():
    with pytest.raises(ValueError, match="no paired items"):
        paired_test([])


def test_the_gate_simulation_calibrates_to_the_reference_runs():
    """benchmarks/gate_simulation.py: its null pairs have the reference pair's design effect and discordance,
    and a drop lowers NEW's expected score by that much."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "gate_simulation.py"
    spec = importlib.util.spec_from_file_location("gate_simulation", path)
    sim = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sim)
    ref = sim.reference_statistics()
    assert 1 < ref["pair_deff"] < 3 and 0 < ref["pair_discordance"] < 1    # three protocols: deff at most ~3
    model = sim.calibrate(ref["pair_deff"], ref["pair_discordance"], ref["default_score"], seed=1)
    deff, discordance = sim.design_effect_and_discordance(model, np.random.default_rng(2), 1500)
    assert deff == pytest.approx(ref["pair_deff"], abs=0.08)
    assert discordance == pytest.approx(ref["pair_discordance"], abs=0.01)
    base, new = model.pairs(np.random.default_rng(3), 1500, drop=0.05)
    assert base.mean() - new.mean() == pytest.approx(0.05, abs=0.005)
    assert base.mean() == pytest.approx(ref["default_score"], abs=0.01)
