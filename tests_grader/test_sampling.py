"""Sampled-trial statistics and seeds (tooluse1.sampling), checked against enumeration and statsmodels."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import statsmodels.api as sm

from tooluse1.sampling import (SampledItem, clustered_mean, pass_at_k, pass_hat_k, sample_seed,
                               summarise_samples)


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
