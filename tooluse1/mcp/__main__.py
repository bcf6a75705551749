"""``python -m tooluse1.mcp``: ToolUse.1's MCP track (the paper's §4.4 / Table 4) from the command line.

    python -m tooluse1.mcp build                  solve every task against the servers, rewrite references.json
    python -m tooluse1.mcp run --model M [...]    run BASE and SPIN on the tasks, write a results file, print
                                                  Table 4's columns (deterministic, 1 + 9 x fraction met)
    python -m tooluse1.mcp servers                list the servers, their tools and effects
    python -m tooluse1.mcp judge RESULTS --judge-base-url URL [-o OUT]
                                                  the optional LLM-judge pass over a results file

`run` is resumable: with an existing --out written under the same settings, finished (task, agent) runs are
kept and only the rest run; the file is rewritten after every run. `run --judge-base-url URL` adds the judge
pass (tooluse1/mcp/judge.py: our prompt, MCP-Bench's procedure, its agreement with the deterministic columns)
after the runs; it is never the default, and an unreachable judge is one line naming --judge-base-url, exit 4,
before any run starts. A judge pass is resumable the same way (runs with a judge reply are kept).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tooluse1.errors import USAGE_ERROR, BackendError, ToolUse1Error, UsageParser
from tooluse1.mcp.client import McpPool
from tooluse1.mcp.servers import SERVERS, fixtures_digest
from tooluse1.mcp.tasks import TASKS_PATH, build_references, load_references, load_tasks

if TYPE_CHECKING:
    from tooluse1.backends.openai_backend import OpenAIBackend
    from tooluse1.mcp.judge import JudgeSettings

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


def _write(out: Path, doc: dict[str, Any]) -> None:
    from tooluse1.results import write_json_atomic
    write_json_atomic(out, doc)


class _JudgeRefused(ToolUse1Error):
    """A judge pass that cannot start: the message is the one line to print (exit USAGE_ERROR)."""


def _open_judge(args: argparse.Namespace) -> tuple[OpenAIBackend, JudgeSettings]:
    """The judge's backend (checked: one GET /models) and settings from the --judge-* flags; _JudgeRefused
    naming --judge-base-url when the server cannot be reached or lists no model to default to."""
    from tooluse1.backends.openai_backend import OpenAIBackend, normalize_base_url
    from tooluse1.mcp.judge import JudgeSettings
    from tooluse1.results import scrub_secrets
    if args.judge_repeats < 1 or args.judge_max_tokens < 1:
        raise _JudgeRefused("--judge-repeats and --judge-max-tokens must be at least 1")
    try:
        normalize_base_url(args.judge_base_url)
    except BackendError:
        raise _JudgeRefused(f"--judge-base-url {scrub_secrets(args.judge_base_url)!r} is not an http(s) URL; "
                            "expected e.g. http://127.0.0.1:8000/v1") from None
    try:
        backend = OpenAIBackend(args.judge_base_url, args.judge_model or "", api_key_env=args.judge_api_key_env)
        listed = backend.check(flag="--judge-base-url")
    except BackendError as e:
        raise _JudgeRefused(scrub_secrets(" ".join(str(e).split()))) from None
    model = args.judge_model or (listed[0] if listed else "")
    if not model:
        backend.close()
        raise _JudgeRefused(f"--judge-base-url {scrub_secrets(backend.base_url)} lists no model; name one with "
                            "--judge-model")
    backend.model = model
    return backend, JudgeSettings(backend.base_url, model, args.judge_repeats, args.judge_seed,
                                  args.judge_max_tokens)


def _check_judgeable(doc: dict[str, Any], settings: JudgeSettings, where: str, fresh_copy: bool) -> None:
    """Refuse (_JudgeRefused) a results file whose tasks file differs from this checkout's, or one already
    judged under other judge settings when it would be judged in place; a fresh copy drops the old judge."""
    digest = hashlib.sha256(TASKS_PATH.read_bytes()).hexdigest()
    if doc.get("settings", {}).get("tasks_sha256") != digest:
        raise _JudgeRefused(f"{where}: written with another tasks.yaml than this checkout's; judge it with the "
                            "version that ran it")
    old = doc.get("judge")
    # the URL is recorded but is not the judge's identity: a judge server restarted on another port may
    # finish a pass; the model, the prompt, the repeats, the seed and the reply cap are
    if old and {k: v for k, v in old.get("settings", {}).items() if k != "base_url"} != \
            {k: v for k, v in settings.as_dict().items() if k != "base_url"}:
        if not fresh_copy:
            raise _JudgeRefused(f"{where}: already judged under other judge settings ({old.get('settings')}); "
                                "write the new pass elsewhere: python -m tooluse1.mcp judge FILE -o NEW.json")
        doc.pop("judge")
        for run in doc["runs"]:
            run.pop("judge", None)


def _judge_pass(doc: dict[str, Any], out: Path, backend: OpenAIBackend, settings: JudgeSettings) -> int:
    """Judge every unjudged run of `doc` (rewriting `out` after each), store the `judge` section, print its
    agreement; USAGE_ERROR with one line naming --judge-base-url when some runs got no reply (their runs and
    every other record are kept; a later pass finishes them)."""
    from tooluse1.mcp.judge import format_agreement, judge_runs, judge_section
    tasks = {t.id: t for t in load_tasks()}

    def save() -> None:
        doc["judge"] = judge_section(doc["runs"], settings, backend.provenance())
        _write(out, doc)

    try:
        unanswered = judge_runs(doc["runs"], backend, settings, {k: t.task for k, t in tasks.items()},
                                bool(doc["settings"].get("distractions")),
                                {k: t.all_servers for k, t in tasks.items()}, save)
    finally:
        backend.close()
    save()
    print(format_agreement(doc["judge"]))
    if unanswered:
        print(f"error: {unanswered} run(s) got no reply from the judge at {doc['judge']['settings']['base_url']} "
              f"(--judge-base-url); {out} keeps every run; judge it again to finish them", file=sys.stderr)
        return USAGE_ERROR
    return 0


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
    settings = _settings(args)
    out = Path(args.out)
    runs: list[dict[str, Any]] = []
    judge_doc: dict[str, Any] = {}
    if out.exists():
        old = json.loads(out.read_text(encoding="utf-8"))
        if old.get("settings") != settings:
            raise SystemExit(f"--out {out}: written under other settings; use a new --out path or the same flags")
        runs = old["runs"]
        judge_doc = {"judge": old["judge"]} if "judge" in old else {}
    judge = None
    if args.judge_base_url:   # checked before any run, so an unreachable judge costs nothing
        try:
            judge = _open_judge(args)
            _check_judgeable({"settings": settings, **judge_doc, "runs": runs}, judge[1], f"--out {out}", False)
        except _JudgeRefused as e:
            if judge is not None:
                judge[0].close()
            print(f"error: {e}", file=sys.stderr)
            return USAGE_ERROR
    backend = _open_backend(args)
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
                _write(out, {"settings": settings, "backend": backend.provenance(), "runs": runs,
                             "table": table(runs), **judge_doc})
                print(f"{task.id:14} {agent:5} task_completion={rec.scores['task_completion']} "
                      f"rounds={rec.rounds} {rec.notes['wall_s']} s", file=sys.stderr)
    backend.close()
    print(format_table(table(runs)))
    if judge is None:
        return 0
    doc = {"settings": settings, "backend": backend.provenance(), "runs": runs, "table": table(runs), **judge_doc}
    return _judge_pass(doc, out, *judge)


def _load_results(path: Path) -> dict[str, Any]:
    """An MCP results file's document; _JudgeRefused naming the file when it is not one."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise _JudgeRefused(f"{path}: cannot read it: {' '.join(str(e).split())}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list) or \
            (doc.get("settings") or {}).get("format") != FORMAT:
        raise _JudgeRefused(f"{path}: not an MCP results file ({FORMAT}, python -m tooluse1.mcp run --out)")
    return doc


def _cmd_judge(args: argparse.Namespace) -> int:
    src = Path(args.results)
    out = Path(args.o or args.results)
    # -o to a new file judges a copy (an old judge section of another judge is dropped from it); an existing
    # -o, or the file itself, is judged in place and resumed
    fresh_copy = not out.exists()
    backend = None
    try:
        doc = _load_results(src if fresh_copy else out)
        backend, settings = _open_judge(args)
        _check_judgeable(doc, settings, str(out), fresh_copy)
    except _JudgeRefused as e:
        if backend is not None:
            backend.close()
        print(f"error: {e}", file=sys.stderr)
        return USAGE_ERROR
    doc["table"] = table(doc["runs"]) if doc["runs"] else {}
    return _judge_pass(doc, out, backend, settings)


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
    _judge_flags(run, required=False)
    judge = sub.add_parser("judge", help="the optional LLM-judge pass over an MCP results file (scores ours, "
                           "not MCP-Bench's)")
    judge.add_argument("results", help="an MCP results file (python -m tooluse1.mcp run --out)")
    judge.add_argument("-o", default=None, help="where to write the judged file (default: RESULTS itself; "
                       "resumed when it exists)")
    _judge_flags(judge, required=True)
    args = parser.parse_args(argv)
    return {"build": _cmd_build, "servers": _cmd_servers, "run": _cmd_run, "judge": _cmd_judge}[args.command](args)


def _judge_flags(parser: argparse.ArgumentParser, required: bool) -> None:
    parser.add_argument("--judge-base-url", required=required, default=None,
                        help="an OpenAI-compatible server to judge the runs with (optional, never the default): "
                        "our prompt, MCP-Bench's procedure; its scores are ours, not MCP-Bench's")
    parser.add_argument("--judge-model", default=None, help="the judge's model (default: the first the server lists)")
    parser.add_argument("--judge-repeats", type=int, default=5,
                        help="judge each run this many times, the rubric shuffled each time (MCP-Bench: 5)")
    parser.add_argument("--judge-seed", type=int, default=0, help="seed of the rubric shuffles")
    parser.add_argument("--judge-max-tokens", type=int, default=256, help="new-token cap of a judge reply")
    parser.add_argument("--judge-api-key-env", default="OPENAI_API_KEY",
                        help="environment variable holding the judge server's API key")


if __name__ == "__main__":
    sys.exit(main())
