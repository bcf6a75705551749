"""Print a SPIN sitting's sample for a hand review of its outcomes (BENCHMARKS.md, issue 22).

    python benchmarks/spin_review_sample.py benchmarks/results/spin-full-default.json.gz \\
        [--every 4] [--n 15] [--offset 0] [--split test]

The results file is re-graded with the current scoring and scenarios first. For every `--every`-th scenario of
the split by id from the `--offset`-th (`--n` of them) it prints the question, the reference calls with their World
outputs, the allowed and tempting calls and the reference answer, then for each variant the run's outcome and
reason, its executed calls (identical ones folded as "xN", at most 6 shown) and its answer: what a reader needs
to say whether the outcome is right.

A fresh review is blind: `--blind` leaves out each run's outcome and reason (and shows every executed call
with its whole output and the whole answer), and `--agreement LABELS.json`
(a reviewer's {"SCENARIO|VARIANT": "Accomplished" | "Partially accomplished" | "Not accomplished"}) prints
how many of the sample's graded runs the reviewer's labels agree with, and lists the disagreements.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.spin.runner import VARIANTS  # noqa: E402
from tooluse1.spin.scenarios import load_scenarios  # noqa: E402
from tooluse1.spin.scoring import ACCOMPLISHED, NOT_ACCOMPLISHED, PARTIALLY, regrade_section  # noqa: E402

OUTCOMES = (ACCOMPLISHED, PARTIALLY, NOT_ACCOMPLISHED)   # the outcomes a reviewer labels


def _calls(record: dict, whole: bool = False) -> str:
    """The run's executed calls with their outputs, identical ones folded; `whole`: every distinct call and
    its whole output (a blind reviewer has nothing else to go on), else at most 6, outputs cut at 60."""
    cut = None if whole else 60
    raw = [f'{st["call"]["name"]}({json.dumps(st["call"]["arguments"], ensure_ascii=False)}) -> '
           f'{(st["output"] or st["error"] or "")[:cut]}' for st in record["steps"] if st["call"]]
    count = Counter(raw)
    shown = [f"{c} x{count[c]}" if count[c] > 1 else c for c in dict.fromkeys(raw)][:None if whole else 6]
    missing = sum(1 for st in record["steps"] if not st["call"])
    return " | ".join(shown + ([f"+{missing} steps without a call"] if missing else []))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--n", type=int, default=15)
    ap.add_argument("--offset", type=int, default=0, help="start at this scenario (another sample)")
    ap.add_argument("--split", default="test", choices=("test", "train"),
                    help="the scenarios to sample (default test; the fill's train runs are in their own file)")
    ap.add_argument("--blind", action="store_true", help="leave out the outcomes and reasons (a fresh review)")
    ap.add_argument("--agreement", metavar="LABELS.json", help="compare a reviewer's labels with the outcomes")
    args = ap.parse_args()
    opener = gzip.open if args.results.endswith(".gz") else open
    with opener(args.results, "rt", encoding="utf-8") as f:
        section = json.load(f)["spin"]
    scenarios = {s.id: s for s in load_scenarios()[0]}
    section = regrade_section(section, scenarios, VARIANTS)
    by = {(r["scenario_id"], r["variant"]): r for r in section["records"]}
    sample = sorted(sid for sid, s in scenarios.items() if s.split == args.split)[args.offset::args.every][:args.n]
    if args.agreement:
        return _agreement(json.loads(Path(args.agreement).read_text(encoding="utf-8")), by, sample)
    for sid in sample:
        s = scenarios[sid]
        print("=" * 100)
        print(sid, "|", s.question)
        print("  REQUIRED:", [(rc.name, rc.arguments, rc.output) for rc in s.required_calls])
        print("  ALLOWED:", [(rc.name, rc.arguments) for rc in s.allowed_calls],
              "TEMPTING:", [(c.name, c.arguments) for c in s.tempting_calls])
        print("  REFERENCE:", s.reference)
        for v in VARIANTS:
            r = by.get((sid, v))
            if r is not None:
                print(f"  -- {v}:" if args.blind else f"  -- {v}: {r['outcome']} | {r['reason'][:200]}")
                print("     calls:", _calls(r, whole=args.blind))
                print("     answer:", (r["answer"] or "")[:None if args.blind else 300].replace("\n", " "))
    return 0


def _agreement(labels: dict[str, str], by: dict[tuple[str, str], dict], sample: list[str]) -> int:
    """Print agreement of a reviewer's labels with the graded outcomes over the sample's graded runs (runs
    with no outcome to judge, e.g. no valid plan, are not in the denominator); exit 1 when a run is unlabelled."""
    graded = [(sid, v) for sid in sample for v in VARIANTS
              if (sid, v) in by and by[(sid, v)]["outcome"] in OUTCOMES]
    unlabelled = [f"{sid}|{v}" for sid, v in graded if f"{sid}|{v}" not in labels]
    if unlabelled:
        print(f"{len(unlabelled)} graded run(s) have no label: {', '.join(unlabelled[:5])}", file=sys.stderr)
        return 1
    differ = [(sid, v) for sid, v in graded if labels[f"{sid}|{v}"] != by[(sid, v)]["outcome"]]
    print(f"agree on {len(graded) - len(differ)} of {len(graded)} graded runs "
          f"({(len(graded) - len(differ)) / max(len(graded), 1):.1%})")
    for sid, v in differ:
        print(f"  {sid} {v}: reviewer {labels[f'{sid}|{v}']}, grader {by[(sid, v)]['outcome']} "
              f"({by[(sid, v)]['reason'][:160]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
