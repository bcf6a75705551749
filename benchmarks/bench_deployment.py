"""Deployment conformance and cost: one model in-process and behind a real `transformers serve`, streamed and
not, compared item by item (the `compare` section of tooluse1/deployment.py) with each run's cost line.

    python benchmarks/bench_deployment.py --model smollm2 --protocol native --out /tmp/deploy
    python benchmarks/bench_deployment.py --model default --protocol native -k "calculator-en" --max-new-tokens 96

Writes OUT/{in-process,served,served-stream}.json and prints, per served run, `compare`'s deployment
section against the in-process run and the run's `cost:` line. The server is the raw-output launcher
(tooluse1.serve) with its own tool-call parsing for native requests, one torch thread (see serve.py).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from tooluse1.deployment import format_conformance
from tooluse1.models import resolve_model
from tooluse1.results import load_results
from tooluse1.serve import start_transformers_serve


def run(model: str, results: Path, common: list[str], extra: list[str]) -> None:
    cmd = [sys.executable, "-m", "tooluse1", "run", "--model", model, "--results", str(results), *common, *extra,
           "-p", "no:cacheprovider", "-q", "--no-header", "-rN"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    cost = [line for line in proc.stdout.splitlines() if line.startswith("cost:")]
    print(f"{results.name}: exit {proc.returncode}; {cost[0] if cost else proc.stdout[-2000:]}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--protocol", default="native")
    ap.add_argument("-k", dest="select", default=None, help="pytest -k selection of items")
    ap.add_argument("--max-new-tokens", default="256")
    ap.add_argument("--out", type=Path, default=Path("/tmp/tooluse1-deployment"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    common = ["--protocol", args.protocol, "--max-new-tokens", args.max_new_tokens,
              *(["-k", args.select] if args.select else [])]
    path = resolve_model(args.model).path
    run(args.model, args.out / "in-process.json", common, ["--threads", "1"])
    with start_transformers_serve(path, timeout_s=300, threads=1) as server:
        for name, extra in (("served", []), ("served-stream", ["--stream"])):
            run(server.model, args.out / f"{name}.json", common,
                ["--base-url", server.base_url, "--concurrency", "1", *extra])
    from tooluse1.compare import compare
    ref = load_results(args.out / "in-process.json")
    for name in ("served", "served-stream"):
        served = load_results(args.out / f"{name}.json")
        cmp = compare(ref, served)
        print(f"\nin-process vs {name}: score {ref.summary['overall']['score']['rate']:.3f} vs "
              f"{served.summary['overall']['score']['rate']:.3f}")
        assert cmp.deployment is not None
        print("\n".join(format_conformance(cmp.deployment, max_examples=1)))
    streamed = compare(load_results(args.out / "served.json"), load_results(args.out / "served-stream.json"))
    assert streamed.deployment is not None
    print("\nserved vs served-stream:\n" + "\n".join(format_conformance(streamed.deployment, max_examples=1)))


if __name__ == "__main__":
    main()
