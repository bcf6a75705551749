"""Paired comparison of two runs (BASE, NEW) on the same items, and the release gate built on it.

Items pair by (case id, protocol). For every group (overall, and per protocol, language, category,
difficulty, negative kind) a comparison gives both scores with Wilson 95% intervals, the paired
difference NEW - BASE with Newcombe's interval for paired proportions (method 10 of Newcombe 1998,
Stat Med 17:2635: Wilson limits without continuity correction, combined with the phi correlation), the
discordant counts and the exact McNemar p-values (binomial on the discordant pairs). The gate fails
when NEW is significantly worse overall (one-sided exact McNemar p < alpha) or when the overall score
drops by more than `max_drop`.

Runs are comparable only when they share the spec version, the corpus digest and, where both files
record one, the prompt digest (`provenance.prompt_sha256`); `allow_different_prompts` waives the last
for a deliberate prompt study. Items with a backend error in either run are left out of every pair.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from tooluse1.metrics import BREAKDOWNS, wilson
from tooluse1.results import ItemRecord, ResultsFile

DEFAULT_ALPHA = 0.05
Z95 = 1.959963984540054


class IncomparableError(ValueError):
    """The two runs cannot be compared (different spec, corpus or prompts; no common items)."""


# ----------------------------------------------------------------------------- statistics

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


def newcombe_paired(both: int, only_first: int, only_second: int, neither: int,
                    z: float = Z95) -> tuple[float, float]:
    """95% interval (for the default z) of p1 - p2, where p1 = (both + only_first) / n and
    p2 = (both + only_second) / n are the success rates of two paired measurements of the same n items
    (Newcombe 1998, Stat Med 17:2635, method 10). The correlation term uses Newcombe's corrected phi:
    (A - n/2) / sqrt(marginals) when A = both*neither - only_first*only_second exceeds n/2, 0 when
    0 <= A <= n/2, A / sqrt(marginals) when A < 0, and 0 when a marginal is empty. (0, 0) is never
    returned for n > 0 unless both proportions are fixed at the same bound; n = 0 gives (-1, 1)."""
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
    One-sided: P(X >= worse). Both are 1.0 without discordant pairs."""
    m = worse + better
    if m == 0:
        return 1.0, 1.0
    two = min(1.0, 2 * binomial_upper_tail(max(worse, better), m))
    return two, binomial_upper_tail(worse, m)


# ----------------------------------------------------------------------------- comparison

@dataclass(frozen=True)
class PairedStats:
    """BASE vs NEW on n paired items. `worse` = passed in BASE and failed in NEW; `better` the reverse."""

    n: int
    both: int
    worse: int
    better: int
    neither: int

    @classmethod
    def of(cls, pairs: Iterable[tuple[bool, bool]]) -> "PairedStats":
        """From (base passed, new passed) pairs."""
        counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
        for b, n in pairs:
            counts[(bool(b), bool(n))] += 1
        return cls(sum(counts.values()), counts[(True, True)], counts[(True, False)], counts[(False, True)],
                   counts[(False, False)])

    @property
    def base_k(self) -> int:
        return self.both + self.worse

    @property
    def new_k(self) -> int:
        return self.both + self.better

    @property
    def diff(self) -> float | None:
        """NEW rate - BASE rate (None without pairs)."""
        return (self.better - self.worse) / self.n if self.n else None

    @property
    def diff_ci(self) -> tuple[float, float]:
        return newcombe_paired(self.both, self.better, self.worse, self.neither)

    @property
    def p_values(self) -> tuple[float, float]:
        """(two-sided, one-sided NEW worse) exact McNemar p."""
        return mcnemar_exact(self.worse, self.better)

    def as_dict(self) -> dict[str, Any]:
        def rate(k: int) -> dict[str, Any]:
            lo, hi = wilson(k, self.n)
            return {"k": k, "n": self.n, "rate": k / self.n if self.n else None, "ci95": [lo, hi]}
        two, worse = self.p_values
        lo, hi = self.diff_ci
        return {"n": self.n, "base": rate(self.base_k), "new": rate(self.new_k), "diff": self.diff,
                "diff_ci95": [lo, hi], "both_passed": self.both, "pass_to_fail": self.worse,
                "fail_to_pass": self.better, "both_failed": self.neither,
                "mcnemar_p_two_sided": two, "mcnemar_p_worse": worse}


@dataclass(frozen=True)
class Flip:
    """One item that passed in one run and failed in the other."""

    base: ItemRecord
    new: ItemRecord

    @property
    def direction(self) -> str:
        return "pass->fail" if self.base.passed else "fail->pass"

    def as_dict(self) -> dict[str, Any]:
        def side(r: ItemRecord) -> dict[str, Any]:
            return {"passed": r.passed, "label": r.label, "reason": r.verdict.reason if r.verdict else r.completion.error,
                    "output": r.completion.text}
        return {"item_id": self.base.item_id, "direction": self.direction, "base": side(self.base), "new": side(self.new)}


@dataclass
class Comparison:
    """The paired comparison of two runs: groups of PairedStats, the flips and what was left out."""

    base_source: str
    new_source: str
    overall: PairedStats
    groups: dict[str, dict[str, PairedStats]]        # dimension -> value -> stats
    flips: list[Flip]
    only_in_base: int
    only_in_new: int
    errors_excluded: int
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"base": self.base_source, "new": self.new_source, "overall": self.overall.as_dict(),
                "by": {d: {g: s.as_dict() for g, s in groups.items()} for d, groups in self.groups.items()},
                "flips": [f.as_dict() for f in self.flips], "only_in_base": self.only_in_base,
                "only_in_new": self.only_in_new, "errors_excluded": self.errors_excluded, "notes": self.notes}


def provenance_differences(base: dict, new: dict, allow_different_prompts: bool = False,
                           names: tuple[str, str] = ("BASE", "NEW"),
                           check_prompt_digest: bool = True) -> tuple[list[str], list[str]]:
    """(differences that make two runs incomparable, notes) from their provenance: spec version, corpus
    digest, and (with `check_prompt_digest`) the prompt digest where both record one (a difference there is a
    note when allowed). `compare` checks prompts item by item instead when the records carry their hashes."""
    diffs, notes = [], []
    if base["spec_version"] != new["spec_version"]:
        diffs.append(f"spec version ({base['spec_version']} vs {new['spec_version']})")
    if base["corpus"]["sha256"] != new["corpus"]["sha256"]:
        diffs.append(f"corpus digest ({base['corpus']['sha256'][:12]}… vs {new['corpus']['sha256'][:12]}…)")
    if not check_prompt_digest:
        return diffs, notes
    bd, nd = base.get("prompt_sha256"), new.get("prompt_sha256")
    if bd and nd and bd != nd:
        if allow_different_prompts:
            notes.append(f"prompt digests differ ({bd[:12]}… vs {nd[:12]}…), compared as asked "
                         f"(--allow-different-prompts)")
        else:
            diffs.append(f"prompt digest ({bd[:12]}… vs {nd[:12]}…; pass --allow-different-prompts for a "
                         f"deliberate prompt study)")
    elif not (bd and nd):
        missing = " and ".join(n for n, d in zip(names, (bd, nd)) if not d)
        notes.append(f"prompts not checked: no prompt digest in {missing}")
    return diffs, notes


def _prompt_differences(base: ResultsFile, new: ResultsFile, allow: bool) -> tuple[list[str], list[str]] | None:
    """The prompt check item by item, over the paired items whose records both carry their prompt's sha256
    (a selection, -k, compares fine against a full baseline); None when no paired item has both."""
    b_sha = {_key(r): r.completion.prompt_sha256 for r in base.records if r.completion.prompt_sha256}
    n_sha = {_key(r): r.completion.prompt_sha256 for r in new.records if r.completion.prompt_sha256}
    both = sorted(set(b_sha) & set(n_sha))
    if not both:
        return None
    differ = [k for k in both if b_sha[k] != n_sha[k]]
    if not differ:
        return [], []
    what = (f"prompts of {len(differ)} of {len(both)} paired items (e.g. {differ[0][0]}-{differ[0][1]})")
    if allow:
        return [], [f"{what} differ, compared as asked (--allow-different-prompts)"]
    return [f"{what}; pass --allow-different-prompts for a deliberate prompt study"], []


def check_comparable(base: ResultsFile, new: ResultsFile, allow_different_prompts: bool = False) -> list[str]:
    """Raise IncomparableError naming every difference that makes the runs incomparable (spec version,
    corpus digest, prompts unless allowed: item by item where the records carry prompt hashes, else by the
    provenance digests). Returns notes about what could not be checked."""
    per_item = _prompt_differences(base, new, allow_different_prompts)
    diffs, notes = provenance_differences(base.provenance, new.provenance, allow_different_prompts,
                                          (base.source, new.source), check_prompt_digest=per_item is None)
    if per_item is not None:
        diffs, notes = diffs + per_item[0], notes + per_item[1]
    if diffs:
        raise IncomparableError(f"{base.source} and {new.source} are not comparable: they differ in "
                                + "; ".join(diffs))
    return notes


def _key(r: ItemRecord) -> tuple[str, str]:
    return r.case.id, r.protocol


def compare(base: ResultsFile, new: ResultsFile, allow_different_prompts: bool = False) -> Comparison:
    """Pair the runs' items and compare them (see the module docstring). Raises IncomparableError when the
    runs are not comparable or share no item without a backend error."""
    notes = check_comparable(base, new, allow_different_prompts)
    b_items = {_key(r): r for r in base.records}
    n_items = {_key(r): r for r in new.records}
    common = sorted(set(b_items) & set(n_items))
    pairs = [(b_items[k], n_items[k]) for k in common if not (b_items[k].is_error or n_items[k].is_error)]
    if not pairs:
        raise IncomparableError(f"{base.source} and {new.source} have no item in common (without a backend "
                                f"error) to compare")
    groups: dict[str, dict[str, list[tuple[bool, bool]]]] = {d: {} for d in BREAKDOWNS}
    for b, n in pairs:
        for dim in BREAKDOWNS:
            value = _attribute(n, dim)
            if value is not None:
                groups[dim].setdefault(value, []).append((b.passed, n.passed))
    flips = [Flip(b, n) for b, n in pairs if b.passed != n.passed]
    flips.sort(key=lambda f: (f.direction != "pass->fail", f.base.case.id, f.base.protocol))
    return Comparison(
        base_source=base.source, new_source=new.source,
        overall=PairedStats.of((b.passed, n.passed) for b, n in pairs),
        groups={d: {g: PairedStats.of(v) for g, v in sorted(vals.items())} for d, vals in groups.items()},
        flips=flips, only_in_base=len(set(b_items) - set(n_items)), only_in_new=len(set(n_items) - set(b_items)),
        errors_excluded=len(common) - len(pairs), notes=notes)


def _attribute(r: ItemRecord, dim: str) -> str | None:
    return r.protocol if dim == "protocol" else getattr(r.case, dim)


# ----------------------------------------------------------------------------- the gate

@dataclass(frozen=True)
class GateResult:
    """The gate's decision: `failed` with the reasons, or passed (reasons empty)."""

    failed: bool
    reasons: tuple[str, ...]
    summary: str


def gate(cmp: Comparison, alpha: float = DEFAULT_ALPHA, max_drop: float | None = None) -> GateResult:
    """Fail when NEW is significantly worse overall (one-sided exact McNemar p < alpha) or when the
    overall score drops by more than `max_drop` (BASE rate - NEW rate, on the paired items)."""
    o = cmp.overall
    _, p_worse = o.p_values
    drop = -(o.diff or 0.0)
    reasons = []
    if p_worse < alpha:
        reasons.append(f"NEW is significantly worse: {o.worse} pass->fail vs {o.better} fail->pass, "
                       f"one-sided exact McNemar p = {p_worse:.4g} < alpha {alpha}")
    if max_drop is not None and drop > max_drop:
        reasons.append(f"the overall score drops by {drop:.4f} ({o.base_k}/{o.n} -> {o.new_k}/{o.n}), "
                       f"more than --max-drop {max_drop}")
    summary = (f"score {o.base_k / o.n:.4f} -> {o.new_k / o.n:.4f} on {o.n} paired items "
               f"(diff {o.diff:+.4f}, 95% CI [{o.diff_ci[0]:+.4f}, {o.diff_ci[1]:+.4f}]; "
               f"{o.worse} pass->fail, {o.better} fail->pass; one-sided p = {p_worse:.4g})")
    return GateResult(bool(reasons), tuple(reasons), summary)


# ----------------------------------------------------------------------------- text output

def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}]" if n else "n/a"


def format_p(p: float) -> str:
    """A p-value for tables: 4 decimals, or 2 significant digits in scientific notation below 0.0001."""
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def _row(name: str, s: PairedStats) -> str:
    two, worse = s.p_values
    lo, hi = s.diff_ci
    diff = f"{s.diff:+.3f} [{lo:+.3f}, {hi:+.3f}]" if s.n else "n/a"
    return (f"  {name:<24} {s.n:>5}  {_rate(s.base_k, s.n):<22} {_rate(s.new_k, s.n):<22} {diff:<25} "
            f"{s.worse:>4} {s.better:>4}  {format_p(two):>8} {format_p(worse):>8}")


def _excerpt(text: str, limit: int) -> str:
    text = text if len(text) <= limit else text[:limit] + f"… [{len(text)} chars]"
    return repr(text)


def format_comparison(cmp: Comparison, max_flips: int = 20, excerpt_chars: int = 160) -> str:
    """A plain-text report: the group table (n, both scores with Wilson CIs, the paired difference with its
    Newcombe CI, discordant counts, exact McNemar p two-sided and one-sided), then up to `max_flips` flips
    with both outputs (pass -> fail first)."""
    lines = [f"ToolUse.1 compare: BASE {cmp.base_source}  vs  NEW {cmp.new_source}"]
    lines += [f"  note: {n}" for n in cmp.notes]
    left = [f"{cmp.only_in_base} only in BASE"] * bool(cmp.only_in_base) + \
           [f"{cmp.only_in_new} only in NEW"] * bool(cmp.only_in_new) + \
           [f"{cmp.errors_excluded} with a backend error"] * bool(cmp.errors_excluded)
    if left:
        lines.append(f"  items left out: {', '.join(left)}")
    lines.append(f"  {'group':<24} {'n':>5}  {'BASE [95% CI]':<22} {'NEW [95% CI]':<22} {'NEW-BASE [95% CI]':<25} "
                 f"{'p->f':>4} {'f->p':>4}  {'p(2-sid)':>8} {'p(worse)':>8}")
    lines.append(_row("overall", cmp.overall))
    for dim, groups in cmp.groups.items():
        for g, s in groups.items():
            lines.append(_row(f"{dim}={g}", s))
    worse = sum(1 for f in cmp.flips if f.direction == "pass->fail")
    lines.append(f"flipped items: {worse} pass->fail, {len(cmp.flips) - worse} fail->pass"
                 + (f" (first {max_flips} shown)" if len(cmp.flips) > max_flips else ""))
    for f in cmp.flips[:max_flips]:
        lines.append(f"  {f.direction}  {f.base.item_id}")
        for name, r in (("BASE", f.base), ("NEW", f.new)):
            reason = r.verdict.reason if r.verdict else r.completion.error
            lines.append(f"    {name:<4} [{r.label}] {reason}")
            lines.append(f"         output: {_excerpt(r.completion.text, excerpt_chars)}")
    return "\n".join(lines)


def parse_fraction(value: str, flag: str, open_low: bool = False) -> float:
    """A number in [0, 1] (or (0, 1) with open_low) from a command-line value; ValueError names the flag."""
    try:
        x = float(value)
    except ValueError:
        raise ValueError(f"{flag}: expected a number, got {value!r}") from None
    if not (0 < x < 1 if open_low else 0 <= x <= 1) or math.isnan(x):
        raise ValueError(f"{flag}: {value} is out of range ({'0 < x < 1' if open_low else '0 <= x <= 1'})")
    return x

