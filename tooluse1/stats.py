"""The statistics of ToolUse.1's numbers (SPEC.md §3.4): intervals of rates, clustered by case where the items
of a case are pooled, and the paired test of two runs that `compare` and `pytest --baseline` gate on.

Why clustering: one case is rendered in several protocols (json, xml, plain), and a model that cannot do a
case usually fails it in all of them, so pooled items are not independent and a binomial interval over them
is too narrow. Public API (stable; the leaderboard and the report call it):

    wilson(k, n, z) -> (low, high)                       Wilson score interval (k, n may be effective, non-integer)
    clustered_interval(pairs of (case_id, passed))       -> ClusteredInterval(rate, low, high, design_effect, ...)
    paired_test(triples of (case_id, base_passed, new_passed), alpha, power) -> PairedTest(diff, ci95, p_worse,
        p_two_sided, mcnemar_p_worse, mcnemar_p_two_sided, min_detectable_drop, design_effect, ...)
    newcombe_paired, square_and_add, mcnemar_exact        the unclustered paired statistics (secondary figures)

Methods, and why these (details in each docstring):
- A rate's clustered interval is Wilson's interval at the effective sample size n / deff (Kish), where the
  design effect deff is the ratio of the cluster-robust (CR1) variance of the rate to its variance under
  independence. Wilson keeps the interval inside [0, 1] and sensible at 0/n and n/n, where a Wald interval
  with a clustered standard error collapses to a point. Where each case appears once (one protocol), deff is
  exactly 1 and the interval is the plain Wilson interval.
- The paired test is the exact randomization (sign-flip) test on case-level differences: under H0 the two
  runs are exchangeable within a case, so each case's net difference (fail->pass minus pass->fail over its
  items) is equally likely to have either sign. Its statistic is that of Durkalski et al.'s clustered McNemar
  test (Stat Med 2003; 22:2417), evaluated exactly instead of by its chi-square approximation, and with one
  item per case it is exactly the exact McNemar test, which stays beside it as a secondary figure.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Hashable, Iterable

import numpy as np

Z95 = 1.959963984540054
DEFAULT_ALPHA = 0.05
DEFAULT_POWER = 0.80


# ----------------------------------------------------------------------------- independent items

def wilson(k: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials; (0.0, 1.0) when n == 0. k and n may be effective
    (non-integer) counts, as `clustered_interval` passes them; 0 <= k <= n is required."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # The exact bounds at k = 0 and k = n are 0 and 1; rounding gave e.g. 0.9999999999999999 for 49/49,
    # an interval that excluded the observed rate.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def square_and_add(p1: float, ci1: tuple[float, float], p2: float, ci2: tuple[float, float],
                   phi: float = 0.0) -> tuple[float, float]:
    """Newcombe's square-and-add interval for p1 - p2 from each proportion's own interval, with `phi` the
    correlation of the two estimates (0 for independent samples: Newcombe 1998, Stat Med 17:873,
    method 10; the paired phi of `newcombe_paired` gives method 10 of Stat Med 17:2635). Clipped to
    [-1, 1]."""
    (l1, u1), (l2, u2) = ci1, ci2
    d = p1 - p2
    lower = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    upper = d + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return max(-1.0, lower), min(1.0, upper)


def newcombe_paired(both: float, only_first: float, only_second: float, neither: float,
                    z: float = Z95) -> tuple[float, float]:
    """95% interval (for the default z) of p1 - p2, where p1 = (both + only_first) / n and
    p2 = (both + only_second) / n are the success rates of two paired measurements of the same n items
    (Newcombe 1998, Stat Med 17:2635, method 10). The correlation term uses Newcombe's corrected phi:
    (A - n/2) / sqrt(marginals) when A = both*neither - only_first*only_second exceeds n/2, 0 when
    0 <= A <= n/2, A / sqrt(marginals) when A < 0, and 0 when a marginal is empty. (0, 0) is never
    returned for n > 0 unless both proportions are fixed at the same bound; n = 0 gives (-1, 1). The
    counts may be effective (non-integer), as `paired_test` passes them."""
    n = both + only_first + only_second + neither
    if n == 0:
        return -1.0, 1.0
    k1, k2 = both + only_first, both + only_second
    p1, p2 = k1 / n, k2 / n
    marginals = k1 * (n - k1) * k2 * (n - k2)
    phi = 0.0
    if marginals > 0:
        a = both * neither - only_first * only_second
        if a > n / 2:
            phi = (a - n / 2) / math.sqrt(marginals)
        elif a < 0:
            phi = a / math.sqrt(marginals)
    return square_and_add(p1, wilson(k1, n, z), p2, wilson(k2, n, z), phi)


def binomial_upper_tail(k: int, n: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2), exact (integer arithmetic)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n


def mcnemar_exact(worse: int, better: int) -> tuple[float, float]:
    """Exact McNemar p-values from the discordant pairs: (two-sided, one-sided for "worse > better").

    Under H0 each of the worse + better discordant pairs is equally likely to go either way, so the
    number of `worse` ones is Binomial(worse + better, 1/2). Two-sided: twice the smaller tail, at most 1
    (the conditional exact test, as scipy.stats.binomtest and statsmodels' mcnemar(exact=True)).
    One-sided: P(X >= worse). Both are 1.0 without discordant pairs. It treats items as independent: for
    items grouped in cases it is anti-conservative (see `paired_test`)."""
    m = worse + better
    if m == 0:
        return 1.0, 1.0
    two = min(1.0, 2 * binomial_upper_tail(max(worse, better), m))
    return two, binomial_upper_tail(worse, m)


# ----------------------------------------------------------------------------- clustered rates

def _totals(pairs: Iterable[tuple[Hashable, float]]) -> tuple[np.ndarray, np.ndarray]:
    """(per-cluster sums of the values, per-cluster item counts), clusters in first-seen order."""
    sums: dict[Hashable, float] = {}
    sizes: dict[Hashable, int] = {}
    for cluster, value in pairs:
        sums[cluster] = sums.get(cluster, 0.0) + float(value)
        sizes[cluster] = sizes.get(cluster, 0) + 1
    return np.fromiter(sums.values(), float, len(sums)), np.fromiter(sizes.values(), float, len(sizes))


def cr1_variance(sums: np.ndarray, sizes: np.ndarray) -> float:
    """The cluster-robust (CR1) variance of the mean of items, from each cluster's sum and size:
    G/(G-1) * sum_g (y_g - mean * m_g)^2 / n^2 (Liang-Zeger with the small-sample factor G/(G-1); with an
    intercept-only regression this is exactly statsmodels' cov_type='cluster'). NaN for fewer than 2 clusters."""
    g, n = len(sums), float(sizes.sum())
    if g < 2:
        return math.nan
    mean = float(sums.sum()) / n
    return g / (g - 1) * float(np.sum((sums - mean * sizes) ** 2)) / (n * n)


@dataclass(frozen=True)
class ClusteredInterval:
    """A rate k/n over items grouped in clusters (cases), with its clustered 95% interval.

    `design_effect` is the estimated variance ratio (cluster-robust / independent); it may come out below
    1 by chance, but the interval never uses less than 1 (it is never narrower than Wilson's). With one item
    per cluster it is exactly 1; with fewer than 2 clusters it cannot be estimated and is n / n_clusters
    (the most it can be: every cluster's items alike)."""

    k: int
    n: int
    n_clusters: int
    rate: float | None
    low: float
    high: float
    design_effect: float
    se: float | None                  # the cluster-robust standard error (None when it cannot be estimated)

    @property
    def n_effective(self) -> float:
        return self.n / max(1.0, self.design_effect) if self.n else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return self.low, self.high


def clustered_interval(pairs: Iterable[tuple[Hashable, bool]], z: float = 1.96) -> ClusteredInterval:
    """Rate and clustered interval of (cluster id, passed) pairs, e.g. (case id, passed) per item.

    Guarantees: rate = k/n; [low, high] is Wilson's interval at the effective size n / max(1, deff) with
    k scaled alike, so it contains the rate, lies in [0, 1], is never narrower than the plain Wilson
    interval of k/n, and equals it when every cluster holds one item (deff = 1 exactly then) or the rate is
    0 or 1 (nothing varies). deff = CR1 variance / the independent-items variance p(1-p)/(n-1) (the
    ordinary least-squares variance of the mean, so both are statsmodels' cluster and nonrobust
    standard errors of an intercept-only fit, squared). z defaults to `wilson`'s 1.96, so that the interval
    is the summary's Wilson `ci95` exactly where deff is 1. n = 0 gives rate None and (0, 1)."""
    sums, sizes = _totals(pairs)
    n, k, g = int(sizes.sum()), int(round(float(sums.sum()))), len(sums)
    if n == 0:
        return ClusteredInterval(0, 0, 0, None, 0.0, 1.0, 1.0, None)
    p = k / n
    variance = cr1_variance(sums, sizes)
    independent = p * (1 - p) / (n - 1) if n > 1 else 0.0
    if math.isnan(variance):
        deff, se = n / g, None
    else:
        deff, se = (variance / independent if independent > 0 else 1.0), math.sqrt(variance)
    n_eff = n / max(1.0, deff)
    low, high = wilson(p * n_eff, n_eff, z)
    return ClusteredInterval(k, n, g, p, low, high, deff, se)


# ----------------------------------------------------------------------------- the paired test

def sign_flip_distribution(magnitudes: Iterable[int]) -> tuple[np.ndarray, int]:
    """The exact distribution of T = sum_c s_c * a_c over independent fair signs s_c = +-1, for the given
    non-negative integer magnitudes a_c: (probabilities of T = -offset .. +offset, offset = sum a_c).
    Cases of equal magnitude are grouped (a * (2 Binomial(k, 1/2) - k)), so the cost is a few convolutions."""
    counts: dict[int, int] = {}
    for a in magnitudes:
        if a:
            counts[abs(int(a))] = counts.get(abs(int(a)), 0) + 1
    dist = np.ones(1)
    for a, k in sorted(counts.items()):
        # int / int is correctly rounded for any size (a float 2.0 ** k would overflow past k = 1023)
        pmf = np.array([math.comb(k, x) / 2 ** k for x in range(k + 1)])
        spread = np.zeros(2 * a * k + 1)
        spread[::2 * a] = pmf            # values a * (2x - k), x = 0..k, step 2a
        dist = np.convolve(dist, spread)
    return dist, (len(dist) - 1) // 2


def sign_flip_p_values(case_differences: Iterable[int]) -> tuple[float, float]:
    """(two-sided, one-sided "worse") exact sign-flip p-values of the case-level differences d_c (NEW - BASE
    passes within case c). One-sided: P(T <= sum d_c); two-sided: P(|T| >= |sum d_c|), T the sign-flip sum.
    With every d_c in {-1, 0, 1} these equal `mcnemar_exact` exactly (up to floating point). Both 1.0 when
    every d_c is 0."""
    d = [int(x) for x in case_differences]
    dist, offset = sign_flip_distribution(d)
    t = sum(d)
    worse = float(dist[: offset + t + 1].sum())
    tail = float(dist[offset + abs(t):].sum())
    two = 1.0 if t == 0 else 2 * tail     # the distribution is symmetric: P(|T| >= |t|) = 2 P(T >= |t|)
    return min(1.0, two), min(1.0, worse)


@dataclass(frozen=True)
class PairedTest:
    """BASE vs NEW on n paired items in n_clusters cases: the clustered test the gate decides on, and the
    unclustered figures beside it (Newcombe's interval, exact McNemar) for reference."""

    n: int
    n_clusters: int
    base_k: int
    new_k: int
    worse: int                        # items passed in BASE and failed in NEW
    better: int                       # the reverse
    diff: float | None                # NEW rate - BASE rate
    ci95: tuple[float, float]         # clustered: Newcombe's paired interval at the effective size n / deff
    design_effect: float              # of the paired difference (cluster-robust / independent variance)
    p_worse: float                    # one-sided exact sign-flip on case differences (the gate)
    p_two_sided: float
    mcnemar_p_worse: float            # exact McNemar on items, as if independent (secondary)
    mcnemar_p_two_sided: float
    ci95_independent: tuple[float, float]   # Newcombe's paired interval, items as if independent
    null_se: float                    # the test's standard error of diff under H0: sqrt(sum_c d_c^2) / n
    alpha: float
    power: float
    method: str = "exact sign-flip (randomization) test on case-level differences; clustered McNemar"

    @property
    def min_detectable_drop(self) -> float:
        """`detectable_drop` at this test's alpha and power."""
        return self.detectable_drop()

    def detectable_drop(self, alpha: float | None = None, power: float | None = None) -> float:
        """The smallest drop in score that a one-sided test at `alpha` detects with probability `power`
        when the case differences vary as much as they do here: (z_{1-alpha} + z_power) * null_se (normal
        approximation of the same test), and never less than the smallest drop the exact test can flag at
        all (floor(log2(1/alpha)) + 1 cases, each one item worse). A pass is no evidence against a smaller
        drop. At most 1."""
        alpha = self.alpha if alpha is None else alpha
        power = self.power if power is None else power
        z = NormalDist().inv_cdf(1 - alpha) + NormalDist().inv_cdf(power)
        floor = (math.floor(math.log2(1 / alpha)) + 1) / self.n
        return min(1.0, max(floor, z * self.null_se))


def paired_test(triples: Iterable[tuple[Hashable, bool, bool]], alpha: float = DEFAULT_ALPHA,
                power: float = DEFAULT_POWER) -> PairedTest:
    """The paired comparison of two runs on the same items, clustered by case: `triples` are
    (case id, BASE passed, NEW passed), one per paired item.

    Guarantees:
    - p_worse / p_two_sided: exact sign-flip test on the case-level differences (`sign_flip_p_values`);
      valid for any within-case dependence, because under H0 (the runs exchangeable within each case) the
      case differences are symmetric and independent across cases; equal to exact McNemar when every case
      holds one item.
    - ci95: Newcombe's paired interval (`newcombe_paired`) with every cell count divided by
      max(1, design_effect), so its half-widths grow by about sqrt(deff); it contains diff. design_effect is
      the CR1 variance of the mean item difference over its independent-items variance (1 when the runs do
      not differ at all or every case holds one item).
    - min_detectable_drop (`PairedTest.detectable_drop`): the drop in score a one-sided test at `alpha`
      detects with probability `power` when the case differences vary as much as observed here; a pass of
      the gate is no evidence against a smaller drop.
    Raises ValueError for no pairs."""
    rows = [(c, bool(b), bool(nw)) for c, b, nw in triples]
    n = len(rows)
    if n == 0:
        raise ValueError("no paired items to compare")
    worse = sum(1 for _, b, nw in rows if b and not nw)
    better = sum(1 for _, b, nw in rows if nw and not b)
    both = sum(1 for _, b, nw in rows if b and nw)
    neither = n - worse - better - both
    sums, sizes = _totals((c, int(nw) - int(b)) for c, b, nw in rows)
    diff = (better - worse) / n
    variance = cr1_variance(sums, sizes)
    independent = ((worse + better) / n - diff * diff) / (n - 1) if n > 1 else 0.0
    deff = variance / independent if independent > 0 and not math.isnan(variance) else 1.0
    shrink = max(1.0, deff)
    ci = newcombe_paired(both / shrink, better / shrink, worse / shrink, neither / shrink)
    two, one = sign_flip_p_values(int(round(s)) for s in sums)
    m_two, m_one = mcnemar_exact(worse, better)
    return PairedTest(n=n, n_clusters=len(sums), base_k=both + worse, new_k=both + better, worse=worse,
                      better=better, diff=diff, ci95=ci, design_effect=deff, p_worse=one, p_two_sided=two,
                      mcnemar_p_worse=m_one, mcnemar_p_two_sided=m_two,
                      ci95_independent=newcombe_paired(both, better, worse, neither),
                      null_se=math.sqrt(float(np.sum(sums ** 2))) / n, alpha=alpha, power=power)


def paired_test_means(triples: Iterable[tuple[Hashable, float, float]], denominator: int,
                      alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER) -> PairedTest:
    """The paired comparison when an item's outcome is a per-item mean (sampled runs: the share of its samples
    that passed): `triples` are (case id, BASE mean, NEW mean), every mean a multiple of 1/`denominator` (the
    least common multiple of the runs' sample counts).

    Guarantees:
    - p_worse / p_two_sided: the exact sign-flip test on the per-case sums of the per-item differences
      (scaled by `denominator` to integers, which changes no p-value); valid under the same H0 as
      `paired_test` (the runs exchangeable within each case) for any within-case dependence. With 0/1 means
      it is exactly `paired_test`'s test.
    - ci95: the clustered interval of the mean difference, diff +- z * its CR1 standard error, clipped to
      [-1, 1] (Newcombe's interval needs 0/1 outcomes); ci95_independent the same with items as if
      independent; mcnemar_p_* are the sign-flip test's p with each item its own case (items as if
      independent; secondary).
    - worse / better: the items whose mean dropped / rose; base_k / new_k: the sums of the means, rounded.
    - null_se and min_detectable_drop as in `paired_test`.
    Raises ValueError for no pairs or a mean that is not a multiple of 1/denominator."""
    rows = [(c, float(b), float(nw)) for c, b, nw in triples]
    n = len(rows)
    if n == 0:
        raise ValueError("no paired items to compare")
    scaled = []
    for c, b, nw in rows:
        d = (nw - b) * denominator
        if abs(d - round(d)) > 1e-6:
            raise ValueError(f"a per-item mean of case {c!r} is not a multiple of 1/{denominator}")
        scaled.append((c, int(round(d))))
    sums, sizes = _totals(scaled)
    diffs = np.array([d for _, d in scaled], float) / denominator
    diff = float(diffs.mean())
    variance = cr1_variance(sums / denominator, sizes)
    independent = float(diffs.var(ddof=1)) / n if n > 1 else 0.0
    deff = variance / independent if independent > 0 and not math.isnan(variance) else 1.0

    def interval(var: float) -> tuple[float, float]:
        if math.isnan(var):
            return (-1.0, 1.0)
        half = Z95 * math.sqrt(max(var, 0.0))
        return (max(-1.0, diff - half), min(1.0, diff + half))
    two, one = sign_flip_p_values(int(round(s)) for s in sums)
    i_two, i_one = sign_flip_p_values(d for _, d in scaled)
    return PairedTest(n=n, n_clusters=len(sums), base_k=round(sum(b for _, b, _ in rows)),
                      new_k=round(sum(nw for _, _, nw in rows)), worse=sum(1 for _, b, nw in rows if nw < b),
                      better=sum(1 for _, b, nw in rows if nw > b), diff=diff, ci95=interval(variance),
                      design_effect=deff, p_worse=one, p_two_sided=two, mcnemar_p_worse=i_one,
                      mcnemar_p_two_sided=i_two, ci95_independent=interval(independent),
                      null_se=math.sqrt(float(np.sum((sums / denominator) ** 2))) / n, alpha=alpha, power=power,
                      method="exact sign-flip (randomization) test on per-case sums of per-item means (sampled "
                             "runs); clustered interval")
