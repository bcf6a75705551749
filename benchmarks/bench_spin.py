"""The SPIN track at full scale, timed: fill the trajectory store from the train split, then run every test
scenario under all five variants with that store, and report wall times beside the section's figures.

    python benchmarks/bench_spin.py --model default --threads 2 --dtype bfloat16 --fill oracle \
        --workdir /tmp/spin-full --out benchmarks/results/bench_spin.json

Phases (each a `python -m tooluse1 plan` session, so the results files are the track's own):
  fill      --spin-split train --variant valid --save-trajectories STORE   (the model's Accomplished train runs;
            --fill oracle stores the scripted oracle's instead: correct trajectories, no model time)
  evaluate  --spin-split test --variant all --trajectory-store STORE --save-plans DIR --spin-resume LOG
Both sessions resume (--spin-resume), so a stopped benchmark continues where it was; a phase that resumed
runs reports it (its wall time is then not the full cost). `--scenarios a,b,c` restricts the evaluate
phase to those test scenarios (a timed subset); the output then carries a projection to all test scenarios
(wall time x runs / subset runs: an upper bound, since a larger batch decodes more rows per step).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.spin.runner import VARIANTS  # noqa: E402
from tooluse1.spin.scenarios import load_scenarios  # noqa: E402


def plan_session(args: argparse.Namespace, model: str, extra: list[str]) -> tuple[float, int]:
    cmd = [sys.executable, "-m", "tooluse1", "plan", "--model", model, "-p", "no:cacheprovider", *extra]
    if model != "oracle":
        cmd += ["--threads", str(args.threads), "--dtype", args.dtype]
    print("+", " ".join(cmd), flush=True)
    started = time.perf_counter()
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    return time.perf_counter() - started, rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="default")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dtype", default="float32", help="transformers dtype (bfloat16 is ~2.8x faster on CPUs with "
                                                       "AVX512-BF16, see BENCHMARKS.md)")
    ap.add_argument("--workdir", default="/tmp/spin-full", help="results, plans, store and resume logs")
    ap.add_argument("--store", default=None, help="trajectory store URL (default: a SQLite file in --workdir)")
    ap.add_argument("--fill", choices=("model", "oracle"), default="model")
    ap.add_argument("--scenarios", default=None, help="comma-separated test scenario ids (a timed subset)")
    ap.add_argument("--out", default=None, help="write the timing summary (JSON) here")
    args = ap.parse_args()

    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    store = args.store or f"sqlite:///{work / 'trajectories.sqlite'}"
    scenarios, _ = load_scenarios()
    test = [s.id for s in scenarios if s.split == "test"]
    chosen = test if not args.scenarios else [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(test))
    if unknown:
        ap.error(f"not test scenarios: {', '.join(unknown)}")

    fill_wall, rc = plan_session(args, "oracle" if args.fill == "oracle" else args.model, [
        "--spin-split", "train", "--variant", "valid", "--save-trajectories", store,
        "--results", str(work / "fill.json"), "--spin-resume", str(work / f"fill-{args.fill}.jsonl")])
    if rc not in (0, 1):
        return rc
    select = [] if chosen == test else ["-k", " or ".join(chosen)]
    eval_wall, rc = plan_session(args, args.model, [
        "--spin-split", "test", "--variant", "all", "--trajectory-store", store, "--save-plans", str(work / "plans"),
        "--results", str(work / "evaluate.json"), "--spin-resume", str(work / "evaluate.jsonl"), *select])
    if rc not in (0, 1):
        return rc

    section = json.loads((work / "evaluate.json").read_text(encoding="utf-8"))["spin"]
    fill_prov = json.loads((work / "fill.json").read_text(encoding="utf-8"))["spin"]["provenance"]
    prov = section["provenance"]
    runs = section["n_runs"]
    summary = {
        "model": prov["model"], "threads": args.threads, "dtype": args.dtype, "fill": args.fill,
        "scenarios": len(chosen), "test_scenarios": len(test), "runs": runs,
        "fill_wall_s": round(fill_wall, 1), "fill_resumed_runs": fill_prov["resumed_runs"],
        "trajectory_store_records": prov["trajectory_store_records"],
        "trajectory_store_sha256": prov["trajectory_store_sha256"],
        "evaluate_wall_s": round(eval_wall, 1), "evaluate_runner_wall_s": prov["wall_s"],
        "evaluate_resumed_runs": prov["resumed_runs"], "batching": prov["batching"],
        "total_wall_s": round(fill_wall + eval_wall, 1),
    }
    if chosen != test:
        summary["projected_evaluate_wall_s_all_test"] = round(eval_wall * len(test) * len(VARIANTS) / runs, 1)
    print(json.dumps(summary, indent=1))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
