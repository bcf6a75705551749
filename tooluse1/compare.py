"""Paired comparison of two runs (BASE, NEW) on the same items, and the release gate built on it.

Items pair by (case id, protocol). `overall` and the groups (per protocol, language, category, difficulty,
negative kind) hold the comparable items, the protocols json, xml and plain (SPEC.md §2); native items, when
both runs have them, are compared in their own row only. A comparison gives both scores, the paired
difference NEW - BASE, the discordant counts and p-values, all clustered by case where a group pools several
items of a case (tooluse1/stats.py, SPEC.md §3.4): intervals at the effective sample size, and the exact
sign-flip test on case-level differences (Durkalski's clustered McNemar statistic, evaluated exactly). Exact
McNemar (items as if independent) and Newcombe's paired interval stay as labelled secondary figures; within
one protocol, where each case appears once, they coincide with the clustered ones. The gate fails when NEW is
significantly worse overall (the clustered one-sided p < alpha) or when the overall score drops by more than
`max_drop`, and says which drop it could have detected (80% power).

Runs are comparable only when they share the spec version, the corpus digest and, where both files
record one, the prompt digest (`provenance.prompt_sha256`); `allow_different_prompts` waives the last
for a deliberate prompt study. Items with a backend error in either run are left out of every pair.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from tooluse1.deployment import Conformance, conformance, format_conformance, sampled_refusal
from tooluse1.errors import ToolUse1Error
from tooluse1.metrics import BREAKDOWNS, Rate, format_rate, rate_of
from tooluse1.prompts import PROTOCOLS
from tooluse1.results import ItemRecord, ResultsFile
# The one decoding check (tooluse1.sampling); plugin and tests import it from here as well.
from tooluse1.sampling import decoding_differences
# The unclustered statistics live in tooluse1.stats; imported here under their old home as well.
from tooluse1.stats import (DEFAULT_ALPHA, Z95, PairedTest, mcnemar_exact, newcombe_paired,  # noqa: F401
                            paired_test, paired_test_means, square_and_add, wilson)

# An item's outcome in a comparison: passed, or in a sampled run the verdicts of its samples (scored by their mean).
Outcome = bool | tuple[bool, ...]


def _score(outcome: Outcome) -> float:
    return sum(outcome) / len(outcome) if isinstance(outcome, tuple) else float(outcome)


class IncomparableError(ToolUse1Error, ValueError):
    """The two runs cannot be compared (different spec, corpus or prompts; no common items)."""


# ----------------------------------------------------------------------------- comparison

@dataclass(frozen=True)
class PairedStats:
    """BASE vs NEW on n paired items. `worse` = passed in BASE and failed in NEW; `better` the reverse.
    `test` is the paired test clustered by case (tooluse1.stats.paired_test) that the gate decides on."""

    n: int
    both: int
    worse: int
    better: int
    neither: int
    test: PairedTest | None          # None only without pairs
    base_rate: Rate                  # BASE's score on these items, clustered by case where cases repeat
    new_rate: Rate
    sampled: bool = False            # some item is a sampled one: scores are per-item means (paired_test_means)

    @classmethod
    def of(cls, pairs: Iterable[tuple[Outcome, Outcome] | tuple[str, Outcome, Outcome]]) -> "PairedStats":
        """From (case id, base outcome, new outcome) triples; plain (base, new) pairs count each item as its
        own case (independent items). An outcome is passed, or a sampled item's sample verdicts: then every
        item is scored by its mean (the share of its samples that passed), the test is on per-case sums of
        per-item means (`stats.paired_test_means`), the rates count samples (a mean over samples, clustered
        by case), and worse / better / both / neither count the items whose mean dropped / rose / stayed at
        a value above 0 / stayed at 0."""
        triples = [t if len(t) == 3 else (i, *t) for i, t in enumerate(pairs)]
        if not any(isinstance(b, tuple) or isinstance(n, tuple) for _, b, n in triples):
            counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
            for _, b, n in triples:
                counts[(bool(b), bool(n))] += 1
            test = paired_test([(c, bool(b), bool(n)) for c, b, n in triples]) if triples else None
            return cls(len(triples), counts[(True, True)], counts[(True, False)], counts[(False, True)],
                       counts[(False, False)], test,
                       rate_of([(c, bool(b)) for c, b, _ in triples]), rate_of([(c, bool(n)) for c, _, n in triples]))
        sizes = {len(o) if isinstance(o, tuple) else 1 for _, b, n in triples for o in (b, n)}
        denominator = math.lcm(*sizes)
        means = [(c, _score(b), _score(n)) for c, b, n in triples]
        test = paired_test_means(means, denominator)

        def samples(outcome: Outcome) -> tuple[bool, ...]:
            return outcome if isinstance(outcome, tuple) else (bool(outcome),)
        return cls(len(triples), sum(1 for _, b, n in means if b == n > 0), test.worse, test.better,
                   sum(1 for _, b, n in means if b == n == 0), test,
                   rate_of([(c, o) for c, b, _ in triples for o in samples(b)]),
                   rate_of([(c, o) for c, _, n in triples for o in samples(n)]), sampled=True)

    @property
    def paired(self) -> PairedTest:
        """The clustered test: every comparison's overall and groups have pairs (a ValueError without)."""
        if self.test is None:
            raise ValueError("no paired items, so no paired test")
        return self.test

    @property
    def base_k(self) -> int:
        return self.both + self.worse

    @property
    def new_k(self) -> int:
        return self.both + self.better

    @property
    def diff(self) -> float | None:
        """NEW rate - BASE rate (None without pairs); sampled: the mean of the per-item mean differences."""
        if self.sampled and self.test is not None:
            return self.test.diff
        return (self.better - self.worse) / self.n if self.n else None

    @property
    def diff_ci(self) -> tuple[float, float]:
        """The 95% interval of diff to report: clustered by case (equal to Newcombe's where each case has
        one item)."""
        return self.paired.ci95 if self.n else (-1.0, 1.0)

    @property
    def diff_ci_independent(self) -> tuple[float, float]:
        """Newcombe's paired interval, items as if independent (secondary); sampled: the normal interval of the
        mean difference, items as if independent."""
        if self.sampled and self.test is not None:
            return self.test.ci95_independent
        return newcombe_paired(self.both, self.better, self.worse, self.neither)

    @property
    def p_values(self) -> tuple[float, float]:
        """(two-sided, one-sided NEW worse) exact McNemar p, items as if independent (secondary); sampled: the
        sign-flip test with each item its own case."""
        if self.sampled and self.test is not None:
            return self.test.mcnemar_p_two_sided, self.test.mcnemar_p_worse
        return mcnemar_exact(self.worse, self.better)

    @property
    def clustered_p_values(self) -> tuple[float, float]:
        """(two-sided, one-sided NEW worse) p of the clustered test (the gate's)."""
        return (self.paired.p_two_sided, self.paired.p_worse) if self.n else (1.0, 1.0)

    def as_dict(self) -> dict[str, Any]:
        """Counts, both rates (`Rate.as_dict`), diff with the clustered `diff_ci95` and Newcombe's
        `diff_ci95_independent`, the clustered p-values (`p_worse` decides the gate), exact McNemar's, the
        design effect of the difference and the minimum detectable drop at alpha 0.05, power 0.8."""
        two, worse = self.p_values
        c_two, c_worse = self.clustered_p_values
        t = self.test
        return {"n": self.n, "n_cases": t.n_clusters if t else 0, "base": self.base_rate.as_dict(),
                "new": self.new_rate.as_dict(),
                "diff": self.diff, "diff_ci95": list(self.diff_ci),
                "diff_ci95_independent": list(self.diff_ci_independent),
                "design_effect": t.design_effect if t else None, "both_passed": self.both,
                "pass_to_fail": self.worse, "fail_to_pass": self.better, "both_failed": self.neither,
                "p_two_sided": c_two, "p_worse": c_worse, "mcnemar_p_two_sided": two, "mcnemar_p_worse": worse,
                "min_detectable_drop": t.min_detectable_drop if t else None,
                "test": t.method if t else None, **({"sampled": True} if self.sampled else {})}


@dataclass(frozen=True)
class Flip:
    """One item that passed in one run and failed in the other (sampled: whose pass rate differs)."""

    base: ItemRecord
    new: ItemRecord

    @property
    def direction(self) -> str:
        return "pass->fail" if _score(outcome(self.base)) > _score(outcome(self.new)) else "fail->pass"

    def as_dict(self) -> dict[str, Any]:
        def side(r: ItemRecord) -> dict[str, Any]:
            return {"passed": r.passed, "label": r.label,
                    "reason": r.verdict.reason if r.verdict else r.completion.error, "output": r.completion.text}
        return {"item_id": self.base.item_id, "direction": self.direction,
                "base": side(self.base), "new": side(self.new)}


@dataclass
class Comparison:
    """The paired comparison of two runs: groups of PairedStats, the flips and what was left out. `overall`
    and the groups hold the comparable items (protocols json, xml, plain); `native`, when both runs have
    native items, is their own row and is in no other."""

    base_source: str
    new_source: str
    overall: PairedStats
    groups: dict[str, dict[str, PairedStats]]        # dimension -> value -> stats
    flips: list[Flip]
    only_in_base: int
    only_in_new: int
    errors_excluded: int
    notes: list[str] = field(default_factory=list)
    native: PairedStats | None = None
    deployment: Conformance | None = None     # what the answers became, item by item (tooluse1.deployment)

    def as_dict(self) -> dict[str, Any]:
        return {"base": self.base_source, "new": self.new_source, "overall": self.overall.as_dict(),
                "native": self.native.as_dict() if self.native else None,
                "by": {d: {g: s.as_dict() for g, s in groups.items()} for d, groups in self.groups.items()},
                "flips": [f.as_dict() for f in self.flips], "only_in_base": self.only_in_base,
                "only_in_new": self.only_in_new, "errors_excluded": self.errors_excluded, "notes": self.notes,
                "deployment": self.deployment.as_dict() if self.deployment else None}


def _corpus_name(provenance: dict) -> str:
    """"suite NAME " for a run of a suite of one's own (tooluse1.suite), "" for the built-in corpus."""
    suite = provenance["corpus"].get("suite")
    return f"suite {suite['name']} " if suite else ""


def draws_differences(base: dict | None, new: dict | None) -> list[str]:
    """What tells two runs' seeded draws (provenance.corpus.draws, tooluse1.draws) apart, for the refusal
    message: public cases vs draws, the seed (by its hash), K, the generator version."""
    if base is None and new is None:
        return []
    if base is None or new is None:
        which = ("BASE", "NEW")[new is None]
        return [f"{which} ran the public cases and the other seeded draws (--draws); compare public with draws "
                f"by case: compare --by-case PUBLIC.json DRAWS.json"]
    out = []
    if base["seed_sha256"] != new["seed_sha256"]:
        out.append(f"draw seed (sha256 {base['seed_sha256'][:12]}… vs {new['seed_sha256'][:12]}…)")
    if base["k"] != new["k"]:
        out.append(f"draws per case (--draws {base['k']} vs {new['k']})")
    if base["generator"] != new["generator"]:
        out.append(f"draw generator ({base['generator']} vs {new['generator']}): rerun the baseline with this "
                   f"generator")
    return out


def provenance_differences(base: dict, new: dict, allow_different_prompts: bool = False,
                           names: tuple[str, str] = ("BASE", "NEW"),
                           check_prompt_digest: bool = True) -> tuple[list[str], list[str]]:
    """(differences that make two runs incomparable, notes) from their provenance: spec version, corpus
    digest, and (with `check_prompt_digest`) the prompt digest where both record one (a difference there is a
    note when allowed). `compare` checks prompts item by item instead when the records carry their hashes."""
    diffs: list[str] = []
    notes: list[str] = []
    if base["spec_version"] != new["spec_version"]:
        diffs.append(f"spec version ({base['spec_version']} vs {new['spec_version']})")
    if base["corpus"]["sha256"] != new["corpus"]["sha256"]:
        diffs.append(f"corpus digest ({_corpus_name(base)}{base['corpus']['sha256'][:12]}… vs "
                     f"{_corpus_name(new)}{new['corpus']['sha256'][:12]}…)")
        diffs.extend(draws_differences(base["corpus"].get("draws"), new["corpus"].get("draws")))
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


def outcome(r: ItemRecord) -> Outcome:
    """What a comparison counts of a record: passed, or a sampled record's sample verdicts."""
    return tuple(s.passed for s in r.samples) if r.samples else r.passed


def paired_test_of(triples: Iterable[tuple[str, Outcome, Outcome]], alpha: float = DEFAULT_ALPHA) -> PairedTest:
    """The paired test of (case id, base outcome, new outcome) triples: `stats.paired_test` on pass/fail
    outcomes, `stats.paired_test_means` on per-item means where some item is sampled."""
    rows = list(triples)
    if not any(isinstance(b, tuple) or isinstance(n, tuple) for _, b, n in rows):
        return paired_test([(c, bool(b), bool(n)) for c, b, n in rows], alpha=alpha)
    sizes = {len(o) if isinstance(o, tuple) else 1 for _, b, n in rows for o in (b, n)}
    return paired_test_means([(c, _score(b), _score(n)) for c, b, n in rows], math.lcm(*sizes), alpha=alpha)


def _key(r: ItemRecord) -> tuple[str, str]:
    return r.case.id, r.protocol


def compare(base: ResultsFile, new: ResultsFile, allow_different_prompts: bool = False,
            allow_decoding_change: bool = False) -> Comparison:
    """Pair the runs' items and compare them (see the module docstring): overall and every group over the
    comparable items (json, xml, plain), native items in `native` only (runs that share only native items
    are compared on those, with no separate native row). A sampled item counts by its per-item mean
    (`PairedStats.of`). The deployment section pairs sampled runs sample by sample, and is left out (with a
    note) for runs that do not sample alike (`deployment.sampled_refusal`). Raises IncomparableError when the
    runs are not comparable, decode differently (`decoding_differences`) without `allow_decoding_change`, or
    share no item without a backend error."""
    notes = check_comparable(base, new, allow_different_prompts)
    decoding = decoding_differences(base.provenance.get("decoding") or {}, new.provenance.get("decoding") or {})
    if decoding and not allow_decoding_change:
        raise IncomparableError(f"{base.source} and {new.source} are not comparable: they differ in {decoding}")
    if decoding:
        notes.append(decoding.split(";")[0] + ", compared as asked (--allow-decoding-change)")
    # Sampled runs are paired sample by sample in the deployment section, which needs the same sampling.
    refusal = sampled_refusal(base.provenance.get("decoding") or {}, new.provenance.get("decoding") or {})
    if refusal:
        notes.append(refusal)
    b_items = {_key(r): r for r in base.records}
    n_items = {_key(r): r for r in new.records}
    common = sorted(set(b_items) & set(n_items))
    pairs = [(b_items[k], n_items[k]) for k in common if not (b_items[k].is_error or n_items[k].is_error)]
    if not pairs:
        raise IncomparableError(f"{base.source} and {new.source} have no item in common (without a backend "
                                f"error) to compare")
    # Runs of native alone are compared on it: it is then the only pool there is.
    comparable = [(b, n) for b, n in pairs if b.protocol in PROTOCOLS] or pairs
    groups: dict[str, dict[str, list[tuple[str, Outcome, Outcome]]]] = {d: {} for d in BREAKDOWNS}
    for b, n in comparable:
        for dim in BREAKDOWNS:
            value = _attribute(n, dim)
            if value is not None:
                groups[dim].setdefault(value, []).append((b.case.cluster, outcome(b), outcome(n)))
    pooled = {id(b) for b, _ in comparable}
    native = [(b.case.cluster, outcome(b), outcome(n)) for b, n in pairs if id(b) not in pooled]
    flips = [Flip(b, n) for b, n in pairs if _score(outcome(b)) != _score(outcome(n))]
    flips.sort(key=lambda f: (f.direction != "pass->fail", f.base.case.id, f.base.protocol))
    return Comparison(
        base_source=base.source, new_source=new.source,
        overall=PairedStats.of((b.case.cluster, outcome(b), outcome(n)) for b, n in comparable),
        groups={d: {g: PairedStats.of(v) for g, v in sorted(vals.items())} for d, vals in groups.items()},
        flips=flips, only_in_base=len(set(b_items) - set(n_items)), only_in_new=len(set(n_items) - set(b_items)),
        errors_excluded=len(common) - len(pairs), notes=notes, native=PairedStats.of(native) if native else None,
        deployment=None if refusal else conformance(pairs))


def _attribute(r: ItemRecord, dim: str) -> str | None:
    return r.protocol if dim == "protocol" else getattr(r.case, dim)


# ----------------------------------------------------------------------------- the gate

@dataclass(frozen=True)
class GateResult:
    """The gate's decision: `failed` with the reasons, or passed (reasons empty); `summary` the comparison in
    one line, `power` the line saying which drop this gate can detect (`min_detectable_drop`)."""

    failed: bool
    reasons: tuple[str, ...]
    summary: str
    power: str = ""
    min_detectable_drop: float | None = None


def gate(cmp: Comparison, alpha: float = DEFAULT_ALPHA, max_drop: float | None = None) -> GateResult:
    """Fail when NEW is significantly worse overall (the clustered test's one-sided p < alpha: the exact
    sign-flip test on case-level differences, tooluse1.stats.paired_test) or when the overall score drops by
    more than `max_drop` (BASE rate - NEW rate, on the paired comparable items). The exact McNemar p (items
    as if independent) is reported beside it and decides nothing. `min_detectable_drop` is the drop this
    comparison detects with 80% power at `alpha`."""
    o = cmp.overall
    _, p_worse = o.clustered_p_values
    _, mcnemar_worse = o.p_values
    drop = -(o.diff or 0.0)
    reasons = []
    if p_worse < alpha:
        reasons.append(f"NEW is significantly worse: {o.worse} pass->fail vs {o.better} fail->pass in "
                       f"{o.paired.n_clusters} cases, one-sided p = {p_worse:.4g} < alpha {alpha} (exact sign-flip "
                       f"test on case-level differences)")
    if max_drop is not None and drop > max_drop:
        reasons.append(f"the overall score drops by {drop:.4f} ({o.base_rate.value or 0:.4f} -> "
                       f"{o.new_rate.value or 0:.4f} on {o.n} items), more than --max-drop {max_drop}")
    summary = (f"score {o.base_rate.value or 0:.4f} -> {o.new_rate.value or 0:.4f} on {o.n} paired items in "
               f"{o.paired.n_clusters} cases (diff {o.diff:+.4f}, 95% CI clustered by case "
               f"[{o.diff_ci[0]:+.4f}, {o.diff_ci[1]:+.4f}], "
               f"deff {o.paired.design_effect:.2f}; {o.worse} pass->fail, {o.better} fail->pass; one-sided p = "
               f"{p_worse:.4g}, exact sign-flip test on cases; exact McNemar p = {mcnemar_worse:.4g}, items as if "
               f"independent)")
    mdd = o.paired.detectable_drop(alpha=alpha)
    power = (f"this gate can detect a drop of {mdd:.3f} or more (80% power, one-sided alpha {alpha}, "
             f"with the case-level variation of this comparison); a smaller drop can pass unnoticed")
    return GateResult(bool(reasons), tuple(reasons), summary, power, mdd)


# ----------------------------------------------------------------------------- text output

def format_p(p: float) -> str:
    """A p-value for tables: 4 decimals, or 2 significant digits in scientific notation below 0.0001."""
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def _row(name: str, s: PairedStats) -> str:
    c_two, c_worse = s.clustered_p_values
    _, m_worse = s.p_values
    lo, hi = s.diff_ci
    diff = f"{s.diff:+.3f} [{lo:+.3f}, {hi:+.3f}]" if s.n else "n/a"

    def rate(r: Rate) -> str:
        return format_rate(r.as_dict(), compact=True).split(" n=")[0].strip()
    return (f"  {name:<24} {s.n:>5} {s.paired.n_clusters:>5}  {rate(s.base_rate):<22} {rate(s.new_rate):<22} "
            f"{diff:<25} {s.paired.design_effect:>5.2f} {s.worse:>4} {s.better:>4}  {format_p(c_worse):>8} "
            f"{format_p(c_two):>8} {format_p(m_worse):>9}")


def _excerpt(text: str, limit: int) -> str:
    text = text if len(text) <= limit else text[:limit] + f"… [{len(text)} chars]"
    return repr(text)


def format_comparison(cmp: Comparison, max_flips: int = 20, excerpt_chars: int = 160) -> str:
    """A plain-text report: the group table (items, cases, both scores and the paired difference with their
    95% intervals, clustered by case where a group pools protocols, the design effect of the difference,
    discordant counts, the clustered test's p one-sided (the gate's) and two-sided, exact McNemar's one-sided
    p as if items were independent), overall and native rows first, then up to `max_flips` flips with both
    outputs (pass -> fail first)."""
    lines = [f"ToolUse.1 compare: BASE {cmp.base_source}  vs  NEW {cmp.new_source}"]
    lines += [f"  note: {n}" for n in cmp.notes]
    left = [f"{cmp.only_in_base} only in BASE"] * bool(cmp.only_in_base) + \
           [f"{cmp.only_in_new} only in NEW"] * bool(cmp.only_in_new) + \
           [f"{cmp.errors_excluded} with a backend error"] * bool(cmp.errors_excluded)
    if left:
        lines.append(f"  items left out: {', '.join(left)}")
    lines.append("  (overall: json+xml+plain; 95% CIs and p clustered by case (exact sign-flip test on case-level "
                 "differences); McNemar-p: items as if independent, for reference)")
    lines.append(f"  {'group':<24} {'n':>5} {'cases':>5}  {'BASE [95% CI]':<22} {'NEW [95% CI]':<22} "
                 f"{'NEW-BASE [95% CI]':<25} {'deff':>5} {'p->f':>4} {'f->p':>4}  {'p(worse)':>8} {'p(2-sid)':>8} "
                 f"{'McNemar-p':>9}")
    lines.append(_row("overall", cmp.overall))
    if cmp.native is not None:
        lines.append(_row("native (not in overall)", cmp.native))
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
    if cmp.deployment is not None:
        lines += format_conformance(cmp.deployment)
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

