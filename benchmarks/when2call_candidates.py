"""Grade When2Call's 1,200 candidate answers against their labels (issue 32, item 4; BENCHMARKS.md).

    python benchmarks/when2call_candidates.py PATH/when2call_test_llm_judge.jsonl [--disagreements FILE]

Imports the file into a temporary suite (`python -m tooluse1 import when2call`), loads it, and grades each
item's four candidates (direct, tool_call, request_for_info, cannot_answer) in the json protocol: the
candidate named by `correct_answer` should pass, the other three fail. Prints the counts, and writes every
disagreement (uuid, candidate, verdict, reason) as JSON lines where asked. The source file is the user's own
copy (github.com/NVIDIA/When2Call, data/test/); nothing of it is committed.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tooluse1.grade import grade
from tooluse1.importers import import_items
from tooluse1.suite import load_suite

CANDIDATES = ("direct", "tool_call", "request_for_info", "cannot_answer")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("--disagreements", default=None, help="write each disagreement here (JSON lines)")
    args = ap.parse_args()
    rows = {}
    for line in Path(args.source).read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            rows[item["uuid"]] = item
    with tempfile.TemporaryDirectory() as tmp:
        report = import_items("when2call", Path(args.source), Path(tmp) / "suite")
        print(f"imported: {report.line()}")
        for line in report.left_out:
            print(f"  left out: {line}")
        suite = load_suite(Path(tmp) / "suite")
    counts: Counter[tuple[str, str, bool]] = Counter()
    out = []
    for case in suite.cases:
        item = rows[case.id]
        answers = item["answers"]
        for cand in CANDIDATES:
            text = answers.get(cand)
            if not isinstance(text, str):
                continue
            verdict = grade(case, text, "json")
            should = cand == item["correct_answer"]
            counts[(item["correct_answer"], cand, verdict.passed == should)] += 1
            if verdict.passed != should:
                out.append({"uuid": case.id, "label": item["correct_answer"], "candidate": cand,
                            "passed": verdict.passed, "reason": verdict.reason, "question": item["question"],
                            "answer": text})
    agree = sum(n for (_, _, ok), n in counts.items() if ok)
    total = sum(counts.values())
    print(f"pairs graded: {total}; verdict as the label says: {agree} ({agree / total:.1%}); disagree: {total - agree}")
    for label in ("tool_call", "request_for_info", "cannot_answer"):
        for cand in CANDIDATES:
            bad = counts[(label, cand, False)]
            if bad:
                print(f"  label {label:16} candidate {cand:16} disagree {bad}")
    if args.disagreements:
        Path(args.disagreements).write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in out),
                                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
