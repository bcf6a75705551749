"""``python -m tooluse1.mcp``: ToolUse.1's MCP track (the paper's §4.4 / Table 4) from the command line.

    python -m tooluse1.mcp build                  solve every task against the servers, rewrite references.json
    python -m tooluse1.mcp run --model M [...]    run BASE and SPIN on the tasks, write a results file, print
                                                  Table 4's columns (deterministic, 1 + 9 x fraction met)
    python -m tooluse1.mcp servers                list the servers, their tools and effects

`run` is resumable: with an existing --out written under the same settings, finished (task, agent) runs are
kept and only the rest run; the file is rewritten after every run.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tooluse1.errors import UsageParser
from tooluse1.mcp.client import McpPool
from tooluse1.mcp.servers import SERVERS, fixtures_digest
from tooluse1.mcp.tasks import TASKS_PATH, build_references, load_references, load_tasks

FORMAT = "tooluse1-mcp/1"
# The model calls MCP-Bench counts in its prompt tokens: the planning rounds and the final answer (SPIN: the
# plan, its repairs and the answer; its simulator, critic and step calls are counted beside them).
PLANNER_ROLES = ("round", "plan", "repair", "answer")


def _cmd_build(_: argparse.Namespace) -> int:
    with McpPool(list(SERVERS)) as pool:
        refs = build_references(pool)
    print(f"wrote {len(refs)} references to tooluse1/mcp/references.json")
    return 0


def _cmd_servers(_: argparse.Namespace) -> int:
    with McpPool(list(SERVERS)) as pool:
        for t in pool.tools():
            print(f"{t.qualified:45} {t.effect:9} {' '.join(t.description.split())[:70]}")
    return 0


def _open_backend(args: argparse.Namespace) -> Any:
    if args.backend == "scripted-mcp":
        from tooluse1.mcp.scripted import ScriptedMcpBackend
        return ScriptedMcpBackend(args.behaviour)
    from tooluse1.harness import RunConfig, open_backend
    config = RunConfig(model=args.model, backend=args.backend, base_url=args.base_url, progress=False)
    return open_backend(config, {})


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    return {"format": FORMAT, "model": args.model, "backend": args.backend, "behaviour": args.behaviour,
            "max_rounds": args.max_rounds, "repair_rounds": args.repair_rounds, "distractions": args.distractions,
            "trajectory_store": "off", "fixtures_sha256": fixtures_digest(),
            "tasks_sha256": hashlib.sha256(TASKS_PATH.read_bytes()).hexdigest()}


def table(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Table 4's columns per agent: the means of each deterministic column and aggregate over its runs,
    Tool Call Success pooled over all calls, mean rounds, and mean prompt tokens per task, counted as
    MCP-Bench counts them (planner and final-answer calls) and over all model calls."""
    from tooluse1.mcp.metrics import COLUMNS
    out: dict[str, dict[str, Any]] = {}
    for agent in dict.fromkeys(r["agent"] for r in runs):
        rs = [r for r in runs if r["agent"] == agent]
        n = len(rs)

        def mean(get: Any, rs: list[dict[str, Any]] = rs, n: int = n) -> float:
            return round(sum(get(r) for r in rs) / n, 2)

        row: dict[str, Any] = {"runs": n}
        for key in ("task_completion", "tool_selection", "planning_effectiveness"):
            row[key] = mean(lambda r, k=key: r["scores"][k])
        for col in COLUMNS:
            row[col] = mean(lambda r, c=col: r["scores"]["columns"][c])
        calls = sum(r["scores"]["calls"] for r in rs)
        row["tool_call_success"] = (round(sum(r["scores"]["calls"] - r["scores"]["failed_calls"] for r in rs)
                                          / calls, 4) if calls else None)
        row["avg_rounds"] = mean(lambda r: r["rounds"])
        row["prompt_tokens"] = mean(lambda r: sum(c["prompt_tokens"] or 0 for c in r["model_calls"]
                                                  if c["role"] in PLANNER_ROLES))
        row["prompt_tokens_all_calls"] = mean(lambda r: sum(c["prompt_tokens"] or 0 for c in r["model_calls"]))
        out[agent] = row
    return out


def format_table(rows: dict[str, dict[str, Any]]) -> str:
    """The table as text, one line per agent."""
    heads = ["agent", "runs", "task_compl", "tool_sel", "planning", "fulfil", "ground", "tool_appr", "params",
             "depend", "parallel", "TCS", "rounds", "prompt_tok", "all_tok"]
    keys = ["runs", "task_completion", "tool_selection", "planning_effectiveness", "fulfillment", "grounding",
            "tool_appropriateness", "parameter_accuracy", "dependency_awareness", "parallelism_efficiency",
            "tool_call_success", "avg_rounds", "prompt_tokens", "prompt_tokens_all_calls"]
    lines = [" ".join(f"{h:>10}" for h in heads)]
    for agent, row in rows.items():
        lines.append(" ".join([f"{agent:>10}", *(f"{row[k] if row[k] is not None else 'n/a':>10}" for k in keys)]))
    return "\n".join(lines)


def _cmd_run(args: argparse.Namespace) -> int:
    from tooluse1.mcp.metrics import score_run
    from tooluse1.spin.mcp_runner import AGENTS, run_base, run_spin
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    bad = [a for a in agents if a not in AGENTS]
    if bad:
        raise SystemExit(f"--agents: unknown agent(s) {', '.join(bad)}; use {', '.join(AGENTS)}")
    tasks = load_tasks()
    if args.tasks:
        wanted = [t.strip() for t in args.tasks.split(",")]
        missing = [t for t in wanted if t not in {x.id for x in tasks}]
        if missing:
            raise SystemExit(f"--tasks: unknown task id(s) {', '.join(missing)}; see tooluse1/mcp/tasks.yaml")
        tasks = tuple(t for t in tasks if t.id in wanted)
    refs = load_references()
    backend = _open_backend(args)
    settings = _settings(args)
    out = Path(args.out)
    runs: list[dict[str, Any]] = []
    if out.exists():
        old = json.loads(out.read_text(encoding="utf-8"))
        if old.get("settings") != settings:
            raise SystemExit(f"--out {out}: written under other settings; use a new --out path or the same flags")
        runs = old["runs"]
    done = {(r["task_id"], r["agent"]) for r in runs}
    servers = list(SERVERS) if args.distractions else sorted({s for t in tasks for s in t.all_servers})
    with McpPool(servers) as pool:
        for task in tasks:
            offered = [*task.all_servers, *(s for s in servers if s not in task.all_servers)] \
                if args.distractions else list(task.all_servers)
            for agent in agents:
                if (task.id, agent) in done:
                    continue
                pool.begin_task()
                started = time.perf_counter()
                if agent == "base":
                    rec = run_base(task, pool, backend, max_rounds=args.max_rounds, offered_servers=offered)
                else:
                    rec = run_spin(task, pool, backend, repair_rounds=args.repair_rounds, offered_servers=offered)
                rec.notes["wall_s"] = round(time.perf_counter() - started, 2)
                names = [t.qualified for t in pool.tools(offered)]
                rec.scores = score_run(task, refs[task.id], rec, names).as_dict()
                runs.append(rec.as_dict())
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(json.dumps({"settings": settings, "backend": backend.provenance(), "runs": runs,
                                           "table": table(runs)}, ensure_ascii=False, indent=1) + "\n",
                               encoding="utf-8")
                print(f"{task.id:14} {agent:5} task_completion={rec.scores['task_completion']} "
                      f"rounds={rec.rounds} {rec.notes['wall_s']} s", file=sys.stderr)
    backend.close()
    print(format_table(table(runs)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = UsageParser(prog="python -m tooluse1.mcp", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="solve the tasks against the servers and rewrite references.json")
    sub.add_parser("servers", help="list servers, tools and effects")
    run = sub.add_parser("run", help="run BASE and/or SPIN on the tasks and print Table 4's columns")
    run.add_argument("--model", default="scripted", help="model id or path (as tooluse1 run takes it)")
    run.add_argument("--backend", default="auto", help="transformers, openai, or scripted-mcp (the scripted agents)")
    run.add_argument("--behaviour", default="oracle", help="scripted-mcp only: oracle or a bad agent")
    run.add_argument("--base-url", default=None, help="openai backend: the server's URL")
    run.add_argument("--agents", default="base,spin", help="comma-separated: base, spin")
    run.add_argument("--tasks", default="", help="comma-separated task ids (default: all 18)")
    run.add_argument("--max-rounds", type=int, default=20, help="BASE's round cap (MCP-Bench: 20)")
    run.add_argument("--repair-rounds", type=int, default=3, help="SPIN's validate/critic/repair rounds")
    run.add_argument("--distractions", action="store_true",
                     help="offer every other server's tools too, like MCP-Bench's 10 distraction servers "
                     "(off by default)")
    run.add_argument("--out", default="results/mcp.json", help="results file (resumed when it exists)")
    args = parser.parse_args(argv)
    return {"build": _cmd_build, "servers": _cmd_servers, "run": _cmd_run}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
