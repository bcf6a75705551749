"""Write the verdict of every fuzz output (bench_grader_fuzz's mix, then its 1 MB outputs), one line each.

Run it from two trees (e.g. two `git archive` copies) and `cmp` the files: a speed change must leave every
field of every verdict as it was.

    python benchmarks/dump_fuzz_verdicts.py OUT.txt [--n 20000] [--seed 424242]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_grader_fuzz as fuzz  # noqa: E402
from tooluse1.corpus import load_corpus  # noqa: E402
from tooluse1.grade import grade  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=424242)
    args = ap.parse_args(argv)
    cases, _ = load_corpus()
    with args.out.open("w", encoding="utf-8") as f:
        for i, (kind, case, protocol, output) in enumerate(fuzz.workload(cases, args.n, args.seed)):
            f.write(f"{i}\t{kind}\t{grade(case, output, protocol)!r}\n")
        for name, (output, case) in fuzz.megabyte_outputs(cases).items():
            f.write(f"{name}\t{grade(case, output, 'json')!r}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
