"""Command line: `python -m tooluse1 build | selftest | run | plan | plan-incidence ...` (thin layers over the library)."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence


def _cmd_build(args: argparse.Namespace) -> int:
    from pathlib import Path
    from tooluse1.build import build
    from tooluse1.corpus import CASES_DIR, DATA_DIR, CorpusError
    cases_dir, data_dir = Path(args.cases or CASES_DIR), Path(args.data or DATA_DIR)
    if not cases_dir.is_dir():
        print(f"error: --cases {cases_dir}: no such directory", file=sys.stderr)
        return 1
    try:
        manifest = build(cases_dir, data_dir)
    except CorpusError as e:
        print("\n".join(e.problems), file=sys.stderr)
        print(f"build failed: {len(e.problems)} problem(s)", file=sys.stderr)
        return 1
    c = manifest["counts"]
    shown = "data" if args.data is None else str(data_dir)
    print(f"built {shown}/{manifest['jsonl']}: {manifest['n_cases']} cases, sha256 {manifest['sha256'][:16]}…")
    print(f"  lang {c['lang']}  expectation {c['expectation']}")
    return 0


def _cmd_build_scenarios(args: argparse.Namespace) -> int:
    from tooluse1.spin.scenarios import ScenarioError, build_scenarios
    try:
        manifest = build_scenarios()
    except ScenarioError as e:
        print("\n".join(e.problems), file=sys.stderr)
        print(f"build-scenarios failed: {len(e.problems)} problem(s)", file=sys.stderr)
        return 1
    c = manifest["counts"]
    print(f"built data/{manifest['jsonl']}: {manifest['n_scenarios']} scenarios, sha256 {manifest['sha256'][:16]}…")
    print(f"  lang {c['lang']}  shape {c['shape']}")
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


def _cmd_run(args: argparse.Namespace, passthrough: list[str]) -> int:
    """`run` is a thin wrapper: the same pytest session, so the same results file and exit codes."""
    import pytest
    from tooluse1.corpus import ROOT
    argv = [str(ROOT / "test_tooluse1.py"), "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"),
            "--model", args.model, "--protocol", args.protocol, "--results", args.results, "-q", "-rN"]
    return int(pytest.main(argv + passthrough))


def _cmd_plan(args: argparse.Namespace, passthrough: list[str]) -> int:
    """`plan` wraps the SPIN track's pytest session (test_plan.py), like `run` wraps the core one."""
    import pytest
    from tooluse1.corpus import ROOT
    argv = [str(ROOT / "test_plan.py"), "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"),
            "--model", args.model, "--variant", args.variant, "--results", args.results, "-q", "-rN"]
    return int(pytest.main(argv + passthrough))


def _cmd_plan_incidence(args: argparse.Namespace) -> int:
    """Table 1 (per-rule incidence of validator errors) over a folder of saved plan texts."""
    from pathlib import Path
    from tooluse1.spin.scoring import format_incidence, incidence_for_dir
    agents = [a.strip() for a in args.agents.split(",") if a.strip()] if args.agents else None
    try:
        tables = incidence_for_dir(Path(args.directory), agents)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"rule incidence over {args.directory}: plans with at least one issue of each rule")
    print(format_incidence(tables))
    return 0


def _cmd_regrade(args: argparse.Namespace) -> int:
    """Re-grade a results file's raw outputs with the current grader (no model needed)."""
    import json
    from pathlib import Path
    from tooluse1.corpus import load_corpus
    from tooluse1.grade import grade_extraction
    from tooluse1.metrics import format_summary
    from tooluse1.parse import extract
    from tooluse1.results import build_results, write_json_atomic
    doc = json.loads(Path(args.results_file).read_text(encoding="utf-8"))
    cases = {c.id: c for c in load_corpus()[0]}
    records = []
    for r in doc["records"]:
        case = cases.get(r["case_id"])
        if case is None:
            print(f"error: case {r['case_id']} is not in the current corpus", file=sys.stderr)
            return 1
        if r.get("error") is None:
            ex = extract(r["output"], r["protocol"])
            v = grade_extraction(case, ex)
            r = {**r, "extraction": ex.as_dict(), "verdict": v.as_dict(), "passed": v.passed}
        records.append(r)
    new = build_results({**doc["provenance"], "regraded_from": args.results_file}, records)
    if records:
        print(format_summary(new["summary"], title=f"ToolUse.1 regrade of {args.results_file}"))
    if "spin" in doc:   # the SPIN track's section: re-scored from its executed calls and answers
        from tooluse1.spin.runner import VARIANTS
        from tooluse1.spin.scenarios import load_scenarios
        from tooluse1.spin.scoring import format_spin_summary, regrade_section
        try:
            new["spin"] = regrade_section(doc["spin"], {s.id: s for s in load_scenarios()[0]}, VARIANTS)
        except KeyError as e:
            print(f"error: {e.args[0]}", file=sys.stderr)
            return 1
        print(format_spin_summary(new["spin"]))
    if args.out:
        write_json_atomic(Path(args.out), new)
        print(f"results file: {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tooluse1", description="ToolUse.1 benchmark")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="validate cases/*.yaml and write data/")
    build.add_argument("--cases", default=None, help="case folder to read (default: the repository's cases/)")
    build.add_argument("--data", default=None, help="folder to write the corpus to (default: the repository's data/)")
    build.set_defaults(fn=_cmd_build)
    sub.add_parser("build-scenarios", help="validate scenarios/*.yaml (SPIN) and write data/scenarios.jsonl").set_defaults(
        fn=_cmd_build_scenarios)
    sub.add_parser("selftest", help="grade scripted runners with known scores (no model)").set_defaults(
        fn=_cmd_selftest)
    run = sub.add_parser("run", help="run the benchmark (a pytest session); unknown options go to pytest",
                         description="Everything after the known options is passed to pytest, e.g. "
                                     "--backend openai --base-url URL --batch-size 16 -k xml --resume FILE")
    run.add_argument("--model", required=True)
    run.add_argument("--protocol", default="all")
    run.add_argument("--results", default=None, help="results file (default results/tooluse1-<model>.json)")
    run.set_defaults(fn=_cmd_run)
    plan = sub.add_parser("plan", help="run the SPIN planning track (a pytest session over test_plan.py)",
                          description="Everything after the known options is passed to pytest, e.g. "
                                      "-m 'spin and chain' --save-plans DIR --trajectory-store URL")
    plan.add_argument("--model", required=True)
    plan.add_argument("--variant", default="all", help="base,valid,spin,spin_wo_sim,spin_wo_cri or all")
    plan.add_argument("--results", default=None, help="results file (default results/tooluse1-spin-<model>.json)")
    plan.set_defaults(fn=_cmd_plan)
    incidence = sub.add_parser("plan-incidence", help="rule-incidence table (SPIN Table 1) of saved plan texts")
    incidence.add_argument("directory", help="folder of *.txt plans (e.g. written by --save-plans)")
    incidence.add_argument("--agents", default=None,
                           help="allowed agents for every plan, comma-separated (default: the folder's index.json)")
    incidence.set_defaults(fn=_cmd_plan_incidence)
    regrade = sub.add_parser("regrade", help="re-grade a results file's raw outputs without the model")
    regrade.add_argument("results_file")
    regrade.add_argument("--out", default=None, help="write the re-graded results file here")
    regrade.set_defaults(fn=_cmd_regrade)
    args, passthrough = parser.parse_known_args(argv)
    if args.command in ("run", "plan"):
        if args.results is None:
            slug = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in args.model.strip("/"))[-60:]
            args.results = f"results/tooluse1-{'spin-' if args.command == 'plan' else ''}{slug}.json"
        return args.fn(args, passthrough)
    if passthrough:
        parser.error(f"unrecognized arguments: {' '.join(passthrough)}")
    return args.fn(args)
