"""Command line: `python -m tooluse1 build | selftest | run ...` (thin layers over the library)."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence


def _cmd_build(args: argparse.Namespace) -> int:
    from tooluse1.corpus import CorpusError, build
    try:
        manifest = build()
    except CorpusError as e:
        print("\n".join(e.problems), file=sys.stderr)
        print(f"build failed: {len(e.problems)} problem(s)", file=sys.stderr)
        return 1
    c = manifest["counts"]
    print(f"built data/{manifest['jsonl']}: {manifest['n_cases']} cases, sha256 {manifest['sha256'][:16]}…")
    print(f"  lang {c['lang']}  expectation {c['expectation']}")
    return 0


def _cmd_selftest(args: argparse.Namespace) -> int:
    from tooluse1.corpus import CorpusError, StaleCorpusError, check_fresh, load_corpus
    from tooluse1.selftest import run_selftest
    try:
        check_fresh()
        cases, _ = load_corpus()
    except CorpusError as e:
        print("\n".join(e.problems), file=sys.stderr)
        return 1
    except StaleCorpusError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    report = run_selftest(cases)
    print("\n".join(report.lines))
    for f in report.failures:
        print(f"FAIL {f}", file=sys.stderr)
    verdict = "passed" if report.ok else f"FAILED ({len(report.failures)} failures)"
    print(f"selftest {verdict}: {len(cases)} cases, {report.n_verdicts} verdicts in {report.seconds:.2f} s")
    return 0 if report.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tooluse1", description="ToolUse.1 benchmark")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="validate cases/*.yaml and write data/").set_defaults(fn=_cmd_build)
    sub.add_parser("selftest", help="grade scripted runners with known scores (no model)").set_defaults(
        fn=_cmd_selftest)
    args = parser.parse_args(argv)
    return args.fn(args)
