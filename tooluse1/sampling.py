"""Sampled trials: the seeds of the samples and the statistics of N samples per item (issue 35).

`--samples N`, `--temperature`, `--top-p` and `--sample-seed` (harness.RunConfig, DecodingConfig) make a
sampled run: each item is answered N times, the samples live inside its record (results.ItemRecord.samples)
and the summary gets `summarise_samples` as its `samples` section.

- `sample_item_id(item_id, sample)`: the id a sample's prompt and completion carry (`<item id>#<sample>`;
  `#` is not a character item ids use, so it never collides with an item).
- `sample_seed(seed, item_id, sample)`: the seed of one sample of one item, a function of those three only,
  so a run is reproducible and a sample's seed does not depend on what else was run or batched with it.
- `pass_at_k(n, c, k)` = 1 - C(n-c, k)/C(n, k): the chance that at least one of k samples drawn without
  replacement from the item's n passes (c of them passed), the unbiased estimator of Chen et al. (2021);
  `pass_hat_k(n, c, k)` = C(c, k)/C(n, k): the chance that all k pass (tau-bench's pass^k).
- `summarise_samples`: per run, the mean of the per-item pass rates (the score sampled runs are ranked and
  gated on), pass@k and pass^k for k = 1..N, the flip rate (share of items whose samples disagree) and the
  share of items every sample passed (what a pytest item reports), each the mean of a per-item value with
  a 95% interval clustered by case (cluster-robust CR1 standard error, `stats.cr1_variance`; normal, clipped
  to [0, 1]; (0, 1) with fewer than two cases).
- `decoding_key` / `describe_decoding` / `decoding_differences`: which runs' decodings (provenance.decoding)
  may be scored side by side. The one check `compare`, the `--baseline` gate, `report`, `leaderboard` and
  the deployment conformance section share (each overridden by `--allow-decoding-change` where it refuses).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Hashable, Iterable, Mapping, Sequence

import numpy as np

from tooluse1.stats import cr1_variance

Z95 = 1.959963984540054


SAMPLE_SEPARATOR = "#"


def sample_item_id(item_id: str, sample: int) -> str:
    """The id of sample `sample` (0-based) of item `item_id`: `<item id>#<sample>`."""
    return f"{item_id}{SAMPLE_SEPARATOR}{sample}"


def sample_seed(seed: int, item_id: str, sample: int) -> int:
    """The seed of sample `sample` (0-based) of item `item_id` in a run seeded with `seed`: the first 63 bits
    of SHA-256 over the three (fits an OpenAI `seed`, a signed 64-bit integer, and `torch.Generator.manual_seed`)."""
    digest = hashlib.sha256(f"tooluse1-sample:{seed}:{item_id}:{sample}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k)/C(n, k): at least one of k samples (of the item's n, c passing) passes."""
    _check(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k)/C(n, k): all k samples (of the item's n, c passing) pass."""
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


@dataclass(frozen=True)
class SampledItem:
    """One item's verdicts over its samples, in sample order."""

    case_id: str
    item_id: str
    passes: tuple[bool, ...]

    @property
    def pass_rate(self) -> float:
        return sum(self.passes) / len(self.passes)

    @property
    def flipped(self) -> bool:
        """Its samples disagree (some passed, some failed)."""
        return 0 < sum(self.passes) < len(self.passes)


@dataclass(frozen=True)
class MeanInterval:
    """The mean of a per-item value over n items in n_cases cases, with its clustered 95% interval."""

    mean: float | None
    low: float
    high: float
    n: int
    n_cases: int

    def as_dict(self) -> dict:
        return {"mean": self.mean, "ci95_clustered": [self.low, self.high], "n": self.n, "n_cases": self.n_cases}


def clustered_mean(pairs: Iterable[tuple[Hashable, float]], z: float = Z95) -> MeanInterval:
    """Mean of (case id, value) pairs with mean +- z * the CR1 standard error, clipped to [0, 1]."""
    sums: dict[Hashable, float] = {}
    sizes: dict[Hashable, int] = {}
    for case, value in pairs:
        sums[case] = sums.get(case, 0.0) + float(value)
        sizes[case] = sizes.get(case, 0) + 1
    n = sum(sizes.values())
    if n == 0:
        return MeanInterval(None, 0.0, 1.0, 0, 0)
    mean = sum(sums.values()) / n
    variance = cr1_variance(np.fromiter(sums.values(), float), np.fromiter(sizes.values(), float))
    if math.isnan(variance):
        return MeanInterval(mean, 0.0, 1.0, n, len(sums))
    half = z * math.sqrt(variance)
    return MeanInterval(mean, max(0.0, mean - half), min(1.0, mean + half), n, len(sums))


def summarise_samples(items: Sequence[SampledItem]) -> dict:
    """The sampled-run summary (see the module docstring). Every item must have the same number of samples
    N >= 1 (ValueError otherwise: pass@k over unequal N would mix estimators)."""
    counts = {len(i.passes) for i in items}
    if len(counts) > 1 or 0 in counts:
        raise ValueError(f"every item needs the same number (>= 1) of samples; found {sorted(counts)}")
    n = counts.pop() if counts else 0

    def over(values: Iterable[float]) -> dict:
        return clustered_mean(zip((i.case_id for i in items), values)).as_dict()
    passed = [sum(i.passes) for i in items]
    return {
        "n_items": len(items), "n_samples": n,
        "mean": over(i.pass_rate for i in items),
        "pass_at_k": {str(k): over(pass_at_k(n, c, k) for c in passed) for k in range(1, n + 1)},
        "pass_hat_k": {str(k): over(pass_hat_k(n, c, k) for c in passed) for k in range(1, n + 1)},
        "flip_rate": over(float(i.flipped) for i in items),
        "all_samples_pass": over(float(all(i.passes)) for i in items),
    }


def format_samples(section: dict, decoding: dict | None = None) -> str:
    """The terminal lines of a summary's `samples` section (`summarise_samples`): the mean score, pass@k and
    pass^k for k = 1..N, the flip rate and the share of items all of whose samples passed, each with its
    interval clustered by case."""
    def fmt(d: dict) -> str:
        if d["mean"] is None:
            return "n/a"
        lo, hi = d["ci95_clustered"]
        return f"{d['mean']:.3f} [{lo:.3f}, {hi:.3f}]"
    how = ""
    if decoding:
        how = (f" at temperature {decoding.get('temperature', 0):g}, top-p {decoding.get('top_p', 1):g}, "
               f"sample seed {decoding.get('sample_seed')}")
    n = section["n_samples"]
    lines = [f"  sampled: {n} samples per item{how}; {section['n_items']} items; 95% intervals clustered by case",
             f"    mean score (mean of per-item pass rates) {fmt(section['mean'])}   flip rate "
             f"{fmt(section['flip_rate'])}   all samples pass (pytest items) {fmt(section['all_samples_pass'])}"]
    for name, key in (("pass@k", "pass_at_k"), ("pass^k", "pass_hat_k")):
        lines.append(f"    {name:<6} " + "   ".join(f"k={k} {fmt(d)}" for k, d in section[key].items()))
    return "\n".join(lines)


def identical_samples(outputs: Iterable[Sequence[str]]) -> bool:
    """Whether every item's samples (its outputs, in order) are all the same text, over at least one item with
    two or more samples: at a temperature > 0 that means sampling was not switched on where it ran."""
    several = [list(o) for o in outputs if len(o) > 1]
    return bool(several) and all(len(set(o)) == 1 for o in several)


def is_sampled(decoding: Mapping) -> bool:
    """Whether a run's decoding (provenance.decoding) is a sampled one: N > 1 samples or a temperature > 0
    (as `DecodingConfig.sampled`); an empty mapping (a file that recorded none) is greedy."""
    return decoding.get("samples", 1) > 1 or decoding.get("temperature", 0) > 0


def decoding_key(decoding: Mapping, count_samples: bool = False) -> tuple:
    """What of a decoding changes what a run's scores mean: greedy or sampled, the temperature, the top-p
    (only at a temperature > 0: at 0 the choice is the argmax) and, with `count_samples`, the number of
    samples. Two runs with equal keys are scored side by side without a note."""
    sampled = is_sampled(decoding)
    temperature = float(decoding.get("temperature", 0))
    top_p = float(decoding.get("top_p", 1.0)) if temperature > 0 else 1.0
    return (sampled, temperature, top_p) + ((int(decoding.get("samples", 1)),) if count_samples else ())


def describe_decoding(decoding: Mapping) -> str:
    """A decoding in words: `greedy`, or `N samples at temperature T, top-p P`."""
    if not is_sampled(decoding):
        return "greedy"
    return (f"{decoding.get('samples', 1)} samples at temperature {decoding.get('temperature', 0):g}, "
            f"top-p {decoding.get('top_p', 1.0):g}")


def decoding_differences(base: Mapping, new: Mapping, count_samples: bool = False) -> str | None:
    """How two runs' decodings differ in a way that changes what their scores mean (`decoding_key`), or None:
    greedy against sampled (N > 1 or a temperature > 0), or another temperature or top-p; with
    `count_samples` also another number of samples. Without it a different number of samples alone is no
    difference: each run's score is its per-item mean, an unbiased estimate of the same pass rate."""
    if decoding_key(base, count_samples) == decoding_key(new, count_samples):
        return None
    return (f"decoding ({describe_decoding(base)} vs {describe_decoding(new)}; pass --allow-decoding-change to "
            f"compare them)")
