"""Costs of the MCP track's machinery, no model: starting the 13 server processes, one tool call through the
client pool, and a full scripted sitting (18 tasks x BASE and SPIN, the oracle) through real servers.

    PYTHONPATH=. python benchmarks/bench_mcp.py [--calls 200]

Prints one JSON object. The figures depend on the machine's load; BENCHMARKS.md says under which they were taken.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from tooluse1.mcp.client import McpPool
from tooluse1.mcp.metrics import score_run
from tooluse1.mcp.scripted import ScriptedMcpBackend
from tooluse1.mcp.servers import SERVERS
from tooluse1.mcp.tasks import load_references, load_tasks
from tooluse1.spin.mcp_runner import run_base, run_spin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="tool calls to time")
    args = parser.parse_args()
    started = time.perf_counter()
    with McpPool(list(SERVERS)) as pool:
        start_s = time.perf_counter() - started
        latencies = []
        for i in range(args.calls):
            t = time.perf_counter()
            pool.call("math", "add", {"numbers": [i, 0.5]})
            latencies.append(time.perf_counter() - t)
        refs, backend = load_references(), ScriptedMcpBackend("oracle")
        t = time.perf_counter()
        perfect = 0
        for task in load_tasks():
            for run in (run_base, run_spin):
                rec = run(task, pool, backend)
                scores = score_run(task, refs[task.id], rec, [x.qualified for x in pool.tools(task.all_servers)])
                perfect += set(scores.columns.values()) == {10.0}
        sitting_s = time.perf_counter() - t
    print(json.dumps({"servers": len(SERVERS), "start_all_s": round(start_s, 2),
                      "call_ms_median": round(1000 * statistics.median(latencies), 2),
                      "call_ms_p95": round(1000 * sorted(latencies)[int(0.95 * len(latencies))], 2),
                      "oracle_sitting_s": round(sitting_s, 2), "oracle_runs_all_10": perfect, "runs": 36}))


if __name__ == "__main__":
    main()
