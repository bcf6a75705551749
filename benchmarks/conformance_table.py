"""The call-format conformance table for BENCHMARKS.md: format -> engines that serve it -> pairs -> agree.

Reads tests_grader/conformance/*.yaml (see its suite.py), extracts every output with the current
`tooluse1.parse.extract`, and prints one Markdown row per format. "agree with engines" counts the pairs where
the extraction yields the calls the engines' parsers yield (count, names, arguments by value); a pair marked
`differs` is a deliberate ToolUse.1 decision and never counts as agreeing with the engines. Exit status 1
when any pair disagrees with ToolUse.1's own expectation (what tests_grader/test_conformance.py asserts).

    .venv/bin/python benchmarks/conformance_table.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests_grader")]

from conformance.suite import disagreement, load_tables  # noqa: E402


def main() -> int:
    tables = load_tables()
    print("| format | engines that serve it | pairs | no-call / broken | agree with engines |")
    print("|---|---|---:|---:|---:|")
    total = agree = failures = 0
    for t in tables:
        ok = [disagreement(p) is None for p in t.pairs]
        failures += ok.count(False)
        with_engines = sum(o and p.differs is None for o, p in zip(ok, t.pairs))
        total += len(t.pairs)
        agree += with_engines
        print(f"| {t.format} | {t.engines} | {len(t.pairs)} | {sum(not p.calls for p in t.pairs)} "
              f"| {with_engines} ({with_engines / len(t.pairs):.0%}) |")
    print(f"| **all ({len(tables)} formats)** | | **{total}** | | **{agree} ({agree / total:.1%})** |")
    if failures:
        print(f"\n{failures} pairs disagree with ToolUse.1's expectation (see tests_grader/test_conformance.py)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
