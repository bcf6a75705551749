"""A/B of two graders in one process: the checkout's `grade()` against a git revision's, output by output.

Why: on a shared 2-core machine the same code's count of slow outputs varies by 15-50% between runs minutes
apart (other tenants, caches), more than most exact speed-ups move it; two runs compared one after the other
measure the machine. Here the revision's package is loaded beside the checkout's (extracted with `git archive`
into a temporary folder as `tooluse1_ab`, its own imports renamed), and each output of the fuzz mix
(`bench_grader_fuzz.workload`) is graded by both, one right after the other, the order alternating: both see
the same machine at the same moment.

Two figures per grader and kind: the first pass (each output once, in the mix's order, as the benchmark's
targets are read: whatever the previous output left in the caches) and the best of --passes further grades
per output, each with the answer checks' per-text caches cleared (the output's own cost, caches warm). The
two graders share the interpreter and the processor's caches, so both figures are somewhat slower than either
grader alone; the difference between them is what this measures.

    .venv/bin/python benchmarks/ab_grader.py REV [--n 30000] [--min-chars 0] [--passes 3]
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_grader_fuzz as fuzz  # noqa: E402
from tooluse1.corpus import load_corpus  # noqa: E402

_PACKAGE = "tooluse1_ab"
_IMPORT = re.compile(r"^(\s*)(from|import) tooluse1(?=[. \n])", re.MULTILINE)
# The answer checks' per-text caches (cleared between repeats: each repeat grades the output cold).
_CACHES = (("behaviour", "_behaviour"), ("phrases", "_number_text"), ("phrases", "_folded_text"),
           ("claim", "_readings"), ("base", "_nfkc"), ("base", "_text_index"))


def _extract_revision(rev: str, into: Path) -> None:
    """`rev`'s tooluse1/ as into/tooluse1_ab/, every `from tooluse1` / `import tooluse1` renamed."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "tooluse1"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "tooluse1").rename(into / _PACKAGE)
    for path in (into / _PACKAGE).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(_IMPORT.sub(rf"\1\2 {_PACKAGE}", text), encoding="utf-8")


def _cache_clearer(package: str) -> Callable[[], None]:
    """A function that empties `package`'s per-text caches (those of _CACHES it has)."""
    clears = []
    for module, name in _CACHES:
        fn = getattr(importlib.import_module(f"{package}.answers.{module}"), name, None)
        if fn is not None and hasattr(fn, "cache_clear"):
            clears.append(fn.cache_clear)

    def clear() -> None:
        for one in clears:
            one()
    return clear


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the git revision to compare the checkout with (e.g. HEAD~3, a commit)")
    ap.add_argument("--n", type=int, default=30_000, help="outputs of the fuzz mix (default 30000)")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--min-chars", type=int, default=0, help="grade only the outputs at least this long")
    ap.add_argument("--passes", type=int, default=3, help="warm repeats per output for the best time (default 3)")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    with tempfile.TemporaryDirectory() as tmp:
        _extract_revision(args.rev, Path(tmp))
        sys.path.insert(0, tmp)
        theirs_grade = importlib.import_module(f"{_PACKAGE}.grade").grade
        theirs_cases = {c.id: c for c in importlib.import_module(f"{_PACKAGE}.corpus").load_corpus()[0]}
        ours_grade = importlib.import_module("tooluse1.grade").grade
        cases, _ = load_corpus()
        items = [it for it in fuzz.workload(cases, args.n, args.seed) if len(it[3]) >= args.min_chars]
        def theirs(case, out, proto):      # the revision's own Case object for the same case id
            return theirs_grade(theirs_cases[case.id], out, proto)
        graders = {args.rev: (theirs, _cache_clearer(_PACKAGE)), "checkout": (ours_grade, _cache_clearer("tooluse1"))}
        gc.collect()
        gc.freeze()
        first: dict[str, list[float]] = defaultdict(list)
        best: dict[str, list[float]] = defaultdict(list)
        names = list(graders)
        for i, (_, case, proto, out) in enumerate(items):
            for name in (names if i % 2 == 0 else names[::-1]):
                grade, _ = graders[name]
                c0 = time.thread_time()
                grade(case, out, proto)
                first[name].append((time.thread_time() - c0) * 1e3)
        for i, (_, case, proto, out) in enumerate(items):
            for name in (names if i % 2 == 0 else names[::-1]):
                grade, clear = graders[name]
                ms = float("inf")
                for _ in range(args.passes):
                    clear()
                    c0 = time.thread_time()
                    grade(case, out, proto)
                    ms = min(ms, (time.thread_time() - c0) * 1e3)
                best[name].append(ms)
    kinds = [it[0] for it in items]
    target = fuzz.TARGET_P99_MS
    print(f"{len(items):,} outputs of the fuzz mix (--n {args.n}, --min-chars {args.min_chars}), graded by {args.rev} "
          f"and by the checkout alternately in one process; CPU ms per grade(); over: outputs over {target:g} ms")
    for label, times in (("first pass", first), (f"best of {args.passes}", best)):
        print(f"\n{label}: kind, then per grader outputs over {target:g} ms / mean ms")
        print(f"{'kind':<20}" + "".join(f"{name[:22]:>24}" for name in names))
        for kind in dict.fromkeys(kinds):
            cells = []
            for name in names:
                ms = [t for k, t in zip(kinds, times[name]) if k == kind]
                cells.append(f"{sum(t > target for t in ms):>8} / {sum(ms) / len(ms):7.3f}")
            print(f"{kind:<20}" + "".join(f"{c:>24}" for c in cells))
        cells = [f"{sum(t > target for t in times[name]):>8} / {sum(times[name]) / len(items):7.3f}" for name in names]
        print(f"{'all':<20}" + "".join(f"{c:>24}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
