"""The memorisation gap: a model's score on the public cases minus its score on seeded draws of the same
cases (`python -m tooluse1 compare --by-case PUBLIC.json DRAWS.json`).

The two runs grade different items (a draw is not its public case), so they cannot pair item by item as
`compare` pairs two runs of one corpus. They pair by case: each public case's score (its items averaged over
the protocols both runs have) against the average over its draws and the same protocols. The gap is the mean
of these case-level differences; its 95% interval is the normal one over the case-level differences (cases
are the independent units, so this is the interval clustered by case; with 100+ cases the normal quantile is
the t quantile to two decimals). A model that answers from memory scores high on the public cases and low on
the draws: the `memorised` runner shows the gap this finds.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean, stdev

from tooluse1.errors import ToolUse1Error
from tooluse1.results import ResultsFile
from tooluse1.stats import Z95


class GapError(ToolUse1Error, ValueError):
    """Two results files that do not make a public/draws pair: the message names the file and the fix."""


@dataclass(frozen=True)
class MemorisationGap:
    n_cases: int
    public: float          # mean case score on the public cases
    draws: float           # mean case score on their draws
    gap: float             # public - draws
    ci95: tuple[float, float]
    protocols: tuple[str, ...]

    def format(self) -> str:
        return (f"memorisation gap (public - draws), by case: {self.gap:+.3f} [{self.ci95[0]:+.3f}, "
                f"{self.ci95[1]:+.3f}] over {self.n_cases} cases ({', '.join(self.protocols)}); "
                f"public {self.public:.3f}, draws {self.draws:.3f}")


def _case_scores(run: ResultsFile, protocols: set[str]) -> dict[str, float]:
    passed: dict[str, list[bool]] = defaultdict(list)
    for r in run.records:
        if r.protocol in protocols:
            passed[r.case.cluster].append(r.passed)
    return {case: fmean(v) for case, v in passed.items()}


def memorisation_gap(public: ResultsFile, draws: ResultsFile) -> MemorisationGap:
    """The gap between a run of the public cases and a run of their draws (module docstring). GapError when
    the first is not a public run, the second not a run of draws of that corpus, or nothing pairs."""
    pd, dd = public.provenance["corpus"].get("draws"), draws.provenance["corpus"].get("draws")
    if pd is not None:
        raise GapError(f"{public.source} is a run of seeded draws: give the run of the public cases first")
    if dd is None:
        raise GapError(f"{draws.source} is a run of the public cases: give a run with --draws K second")
    if dd["public_sha256"] != public.provenance["corpus"]["sha256"]:
        raise GapError(f"{draws.source} draws from public corpus {dd['public_sha256'][:12]}…, {public.source} ran "
                       f"{public.provenance['corpus']['sha256'][:12]}…: run both on the same ToolUse.1")
    protocols = {r.protocol for r in public.records} & {r.protocol for r in draws.records}
    p_scores, d_scores = _case_scores(public, protocols), _case_scores(draws, protocols)
    cases = sorted(set(p_scores) & set(d_scores))
    if len(cases) < 2:
        raise GapError(f"{public.source} and {draws.source} share {len(cases)} case(s) in a common protocol; "
                       f"the gap needs at least 2")
    diffs = [p_scores[c] - d_scores[c] for c in cases]
    mean = fmean(diffs)
    half = Z95 * stdev(diffs) / math.sqrt(len(diffs))
    return MemorisationGap(len(cases), fmean(p_scores[c] for c in cases), fmean(d_scores[c] for c in cases), mean,
                           (mean - half, mean + half), tuple(sorted(protocols)))
