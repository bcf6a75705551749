"""Grading throughput: verdicts per second on one CPU core (the issue asks for >= 20,000/s).

Grades every output the selftest produces — oracle, never-call, always-call and every accepted variant,
in all three protocols — through the public `tooluse1.grade.grade` (extract + grade), in one process
pinned to one core. Outputs are generated before timing; only grading is timed. Each round grades the
whole set; the figure reported is the median round (the first round, which fills caches, is included in
the rounds but the median is robust to it). Throughput is measured both against the process's CPU time
(the gate: what one core does, robust on a shared machine) and against wall-clock time (printed; on a
busy machine it also counts time the core spent on other processes).

    .venv/bin/python benchmarks/bench_grading.py [--rounds 7] [--min 20000]

Exit status 1 when the median is below --min (0 disables the check).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tooluse1.corpus import load_corpus  # noqa: E402
from tooluse1.grade import grade  # noqa: E402
from tooluse1.prompts import PROTOCOLS  # noqa: E402
from tooluse1.selftest import RUNNERS, variant_outputs  # noqa: E402


def workload() -> list[tuple[object, str, str]]:
    """(case, output, protocol) for every selftest output."""
    cases, _ = load_corpus()
    items = []
    for protocol in PROTOCOLS:
        for case in cases:
            for runner in RUNNERS.values():
                items.append((case, runner(case, protocol), protocol))
            for _name, output in variant_outputs(case, protocol):
                items.append((case, output, protocol))
    return items


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--min", type=float, default=20000.0, help="fail below this many verdicts/s (0: never)")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one round instead")
    args = ap.parse_args(argv)

    pinned = "not pinned (os.sched_setaffinity unavailable)"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
        pinned = f"pinned to core(s) {sorted(os.sched_getaffinity(0))}"
    items = workload()

    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        for case, output, protocol in items:
            grade(case, output, protocol)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0

    rates, wall_rates = [], []
    passed = 0
    for _ in range(args.rounds):
        c0, t0 = time.process_time(), time.perf_counter()
        passed = 0
        for case, output, protocol in items:
            passed += grade(case, output, protocol).passed
        c1, t1 = time.process_time(), time.perf_counter()
        rates.append(len(items) / max(c1 - c0, 1e-9))
        wall_rates.append(len(items) / (t1 - t0))
    median = statistics.median(rates)
    print(f"command: {os.path.relpath(sys.executable)} {' '.join(sys.argv)}")
    print(f"python {platform.python_version()} on {platform.machine()}, {pinned}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{len(items)} outputs per round ({passed} passed), {args.rounds} rounds")
    print(f"rounds (verdicts per CPU-second): {', '.join(f'{r:,.0f}' for r in rates)}")
    print(f"rounds (verdicts per wall-second): {', '.join(f'{r:,.0f}' for r in wall_rates)}")
    print(f"grading throughput: {median:,.0f} verdicts/s on one core (median CPU-time rate; best "
          f"{max(rates):,.0f}; median wall-clock rate {statistics.median(wall_rates):,.0f})")
    if args.min and median < args.min:
        print(f"BELOW TARGET: {median:,.0f} < {args.min:,.0f} verdicts/s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
