"""Print a SPIN sitting's sample for a hand review of its outcomes (BENCHMARKS.md, issue 22).

    python benchmarks/spin_review_sample.py benchmarks/results/spin-full-default.json.gz [--every 4] [--n 15] [--offset 0]

The results file is re-graded with the current scoring and scenarios first. For every `--every`-th test
scenario by id from the `--offset`-th (`--n` of them) it prints the question, the reference calls with their World outputs, the
allowed and tempting calls and the reference answer, then for each variant the run's outcome and reason, its
executed calls (identical ones folded as "xN", at most 6 shown) and its answer: what a reader needs to say
whether the outcome is right.
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
from tooluse1.spin.scoring import regrade_section  # noqa: E402


def _calls(record: dict) -> str:
    raw = [f'{st["call"]["name"]}({json.dumps(st["call"]["arguments"], ensure_ascii=False)}) -> '
           f'{(st["output"] or st["error"] or "")[:60]}' for st in record["steps"] if st["call"]]
    count = Counter(raw)
    shown = [f"{c} x{count[c]}" if count[c] > 1 else c for c in dict.fromkeys(raw)][:6]
    missing = sum(1 for st in record["steps"] if not st["call"])
    return " | ".join(shown + ([f"+{missing} steps without a call"] if missing else []))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--n", type=int, default=15)
    ap.add_argument("--offset", type=int, default=0, help="start at this test scenario (another sample)")
    args = ap.parse_args()
    opener = gzip.open if args.results.endswith(".gz") else open
    with opener(args.results, "rt", encoding="utf-8") as f:
        section = json.load(f)["spin"]
    scenarios = {s.id: s for s in load_scenarios()[0]}
    section = regrade_section(section, scenarios, VARIANTS)
    by = {(r["scenario_id"], r["variant"]): r for r in section["records"]}
    sample = sorted(sid for sid, s in scenarios.items() if s.split == "test")[args.offset::args.every][:args.n]
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
                print(f"  -- {v}: {r['outcome']} | {r['reason'][:200]}")
                print("     calls:", _calls(r))
                print("     answer:", (r["answer"] or "")[:300].replace("\n", " "))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
