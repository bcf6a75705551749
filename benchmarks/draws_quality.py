"""Figures of the seeded draws (issue 34) for BENCHMARKS.md: the share of cases whose user messages differ
between two seeds (K = 1), over several seed pairs; the time to draw K = 1 and K = 5; whether every draw of a
fixed set of seeds passes its own grader in every protocol.

    PYTHONPATH=$PWD python benchmarks/draws_quality.py
"""
from __future__ import annotations

import time

from tooluse1.build import reference_problems
from tooluse1.corpus import load_corpus
from tooluse1.draws import draw_corpus

SEED_PAIRS = [(str(a), str(a + 1)) for a in range(1, 21, 2)]
CHECKED_SEEDS = ("7", "tooluse1", "1", "2", "3")


def user_messages(case) -> list[str]:
    return [m["content"] for m in case.messages if m["role"] == "user"]


def main() -> None:
    public, manifest = load_corpus()
    t0 = time.perf_counter()
    draw_corpus(public, manifest, "warm-up", 1)
    print(f"first draw (K = 1, loads pymorphy3 and lemminflect): {time.perf_counter() - t0:.2f} s")
    fractions = []
    for s1, s2 in SEED_PAIRS:
        a, _ = draw_corpus(public, manifest, s1, 1)
        b, _ = draw_corpus(public, manifest, s2, 1)
        fractions.append(sum(user_messages(x) != user_messages(y) for x, y in zip(a, b)) / len(a))
    print(f"user messages differ between two seeds: mean {sum(fractions) / len(fractions):.3f}, min "
          f"{min(fractions):.3f}, max {max(fractions):.3f} over {len(fractions)} seed pairs")
    for seed in CHECKED_SEEDS:
        t0 = time.perf_counter()
        drawn, m = draw_corpus(public, manifest, seed, 5)
        took = time.perf_counter() - t0
        problems = reference_problems(drawn)
        print(f"seed {seed!r} K = 5: {len(drawn)} cases drawn in {took:.2f} s, digest {m['sha256'][:12]}…, "
              f"{len(problems)} fail their own grader")


if __name__ == "__main__":
    main()
