"""Old grader vs new grader on the same raw outputs: what a grading change does to a real run (issue 10: 1.x ->
2.0; issue 20/21: 2.0 -> 3.0).

    git show 4bbf1ef:data/tooluse1.jsonl > /tmp/corpus-2.0.jsonl
    git show 4bbf1ef:results/reference/default.json > /tmp/ref2-default.json
    python benchmarks/regrade_study.py /tmp/ref2-default.json --old-corpus /tmp/corpus-2.0.jsonl

Reads a results file written under the old grader (its verdicts are the old grader's), re-grades every output
whose case still asks the same thing (same messages and offered tools in the current corpus; the others
answered another question and are left out, counted) with the current grader against the current expectations,
and prints Markdown: old vs new per protocol (native apart) and for json+xml+plain (the headline pool), the
paired difference with its interval clustered by case (and Newcombe's, items as if independent), exact
McNemar as a secondary figure, every metric old vs new on the headline pool, and the flipped verdicts by case
kind and by the new grader's reason.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.compare import PairedStats, format_p  # noqa: E402
from tooluse1.corpus import load_corpus  # noqa: E402
from tooluse1.grade import grade_extraction  # noqa: E402
from tooluse1.metrics import METRICS, GradedItem, Rate, compute  # noqa: E402
from tooluse1.parse import extract_completion  # noqa: E402
from tooluse1.prompts import ALL_PROTOCOLS, PROTOCOLS  # noqa: E402
from tooluse1.results import load_results  # noqa: E402


def _ci(k: int, n: int) -> str:
    return Rate(k, n).fmt().strip()


def _kind(case) -> str:
    return case.kind or case.expectation


def _reason_class(reason: str) -> str:
    """The new verdict's reason without its specifics (the quoted values after it)."""
    return re.split(r"[:'\"(]", reason, maxsplit=1)[0].strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", help="a results file from a 1.x run")
    ap.add_argument("--old-corpus", required=True, help="the corpus JSONL the run was made on")
    args = ap.parse_args(argv)
    old_cases = {d["id"]: d for d in map(json.loads, Path(args.old_corpus).read_text(encoding="utf-8").splitlines())}
    cases = {c.id: c for c in load_corpus()[0]}
    run = load_results(args.results)
    same, changed = [], Counter()
    for r in run.records:
        new_case, old = cases.get(r.case.id), old_cases.get(r.case.id)
        if r.is_error or new_case is None or old is None or old["messages"] != [dict(m) for m in new_case.messages] \
                or old["tools"] != list(new_case.tools):
            changed[r.case.id] += 1
            continue
        same.append((r, new_case))
    old_items, new_items, pairs, flips = [], [], [], []   # pairs: (protocol, case id, old passed, new passed)
    for r, case in same:
        v = grade_extraction(case, extract_completion(r.completion, r.protocol), r.completion.finish_reason,
                             r.protocol)
        if r.protocol in PROTOCOLS:     # the headline pool; native is its own row below
            old_items.append(GradedItem.of(case, r.protocol, r.verdict))
            new_items.append(GradedItem.of(case, r.protocol, v))
        pairs.append((r.protocol, case.id, r.passed, v.passed))
        if r.passed != v.passed:
            flips.append((case, r, v))
    print(f"{len(same)} items re-graded; {sum(changed.values())} left out ({len(changed)} cases whose question "
          f"changed: {', '.join(sorted(changed))})\n")
    print("| protocol | n | old grader | new grader | new − old [95% CI, clustered by case] | [Newcombe, items "
          "independent] | pass→fail | fail→pass | p (clustered) | McNemar p |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ran = {p for p, _, _, _ in pairs}
    rows = [*(p for p in PROTOCOLS if p in ran), "json+xml+plain", *(p for p in ALL_PROTOCOLS if p in ran and
                                                                       p not in PROTOCOLS)]
    for row in rows:
        pool = PROTOCOLS if row == "json+xml+plain" else (row,)
        s = PairedStats.of((c, b, n) for q, c, b, n in pairs if q in pool)
        lo, hi = s.diff_ci
        ilo, ihi = s.diff_ci_independent
        name = f"**{row}**" if row == "json+xml+plain" else row
        print(f"| {name} | {s.n} | {_ci(s.base_k, s.n)} | {_ci(s.new_k, s.n)} | {s.diff:+.3f} [{lo:+.3f}, {hi:+.3f}] "
              f"| [{ilo:+.3f}, {ihi:+.3f}] | {s.worse} | {s.better} | {format_p(s.clustered_p_values[0])} "
              f"| {format_p(s.p_values[0])} |")
    print("\n| metric (json+xml+plain) | old grader | new grader |\n|---|---|---|")
    old_m, new_m = compute(old_items), compute(new_items)
    for name in METRICS:
        o, n = old_m[name], new_m[name]
        if name == "truncated_rate":     # a property of the outputs, not of the grader: equal by construction
            continue
        print(f"| {name} | {_ci(o.k, o.n)} | {_ci(n.k, n.n)} |")
    by_kind = Counter((_kind(c), "pass→fail" if r.passed else "fail→pass") for c, r, _ in flips)
    print("\n| case kind | pass→fail | fail→pass |\n|---|---|---|")
    for kind in sorted({k for k, _ in by_kind}):
        print(f"| {kind} | {by_kind[(kind, 'pass→fail')]} | {by_kind[(kind, 'fail→pass')]} |")
    reasons = Counter((_kind(c), _reason_class(v.reason)) for c, r, v in flips if r.passed)
    print("\n| case kind | why the new grader fails an item the old one passed | items |\n|---|---|---|")
    for (kind, why), k in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {kind} | {why} | {k} |")
    gained = [(c.id, r.protocol, v.reason) for c, r, v in flips if not r.passed]
    if gained:
        print("\nfail→pass: " + "; ".join(f"{cid}-{p} ({why})" for cid, p, why in gained))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
