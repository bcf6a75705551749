"""The SPIN track's commands and its door into the core (`TRACK`, registered in tooluse1/tracks.py):
`python -m tooluse1 build-scenarios | plan | plan-incidence`, and the re-scoring of a results file's `spin`
section on `regrade`. Thin layers over the track's library; failures end in one message, exit status 1."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooluse1.errors import USAGE_ERROR
from tooluse1.spin.variants import VARIANTS
from tooluse1.tracks import Subcommands, Track, default_results_path, passthrough_parser, pytest_session

SECTION = "spin"


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


def _cmd_plan(args: argparse.Namespace, passthrough: list[str]) -> int:
    """`plan` wraps the SPIN track's pytest session (test_plan.py), like `run` wraps the core one."""
    drawn = [a for a in passthrough if a.split("=", 1)[0] in ("--draws", "--draw-seed")]
    if drawn:
        print(f"error: {drawn[0].split('=', 1)[0]}: the SPIN planning track has no seeded draws (they are of the "
              f"core cases: `run --draws K`); drop it", file=sys.stderr)
        return USAGE_ERROR
    results = args.results or default_results_path(args.model, SECTION)
    return pytest_session("tooluse1.spin.plan_items", "test_plan.py",
                          ["--model", args.model, "--variant", args.variant, "--results", results], passthrough)


def _cmd_plan_incidence(args: argparse.Namespace) -> int:
    """Table 1 (per-rule incidence of validator errors) over a folder of saved plan texts."""
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


def add_commands(sub: Subcommands) -> None:
    """build-scenarios, plan and plan-incidence, with the flags they have always had."""
    sub.add_parser("build-scenarios", help="validate scenarios/*.yaml (SPIN) and write data/scenarios.jsonl"
                   ).set_defaults(fn=_cmd_build_scenarios)
    plan = passthrough_parser(sub, "plan", help="run the SPIN planning track (a pytest session over test_plan.py)",
                              description="Everything after the known options is passed to pytest, e.g. "
                                          "-m 'spin and chain' --save-plans DIR --trajectory-store URL")
    plan.add_argument("--model", required=True)
    plan.add_argument("--variant", default="all", help=f"{','.join(VARIANTS)} or all")
    plan.add_argument("--results", default=None, help="results file (default results/tooluse1-spin-<model>.json)")
    plan.set_defaults(fn=_cmd_plan)
    incidence = sub.add_parser("plan-incidence", help="rule-incidence table (SPIN Table 1) of saved plan texts")
    incidence.add_argument("directory", help="folder of *.txt plans (e.g. written by --save-plans)")
    incidence.add_argument("--agents", default=None,
                           help="allowed agents for every plan, comma-separated (default: the folder's index.json)")
    incidence.set_defaults(fn=_cmd_plan_incidence)


def regrade_section(section: dict) -> dict:
    """The section re-scored from its executed calls and answers against the current scenarios."""
    from tooluse1.spin.scenarios import load_scenarios
    from tooluse1.spin.scoring import regrade_section as rescore
    return rescore(section, {s.id: s for s in load_scenarios()[0]}, VARIANTS)


def format_summary(section: dict) -> str:
    from tooluse1.spin.scoring import format_spin_summary
    return format_spin_summary(section)


def report_section(document: Mapping[str, Any]) -> str:
    """The committed study of when SPIN pays (spin/study.py), for the HTML report."""
    from tooluse1.spin.study import spin_report_section
    return spin_report_section(document)


TRACK = Track(name=SECTION, add_commands=add_commands, regrade_section=regrade_section, format_summary=format_summary,
              report_section=report_section)
