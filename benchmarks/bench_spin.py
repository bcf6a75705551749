"""The SPIN track at full scale, timed: every scenario under all five variants on one model, in one sitting.

    python benchmarks/bench_spin.py --model default --threads 2 --dtype bfloat16 --batch-size 64 \
        --wait-idle 0.5 --workdir /tmp/spin-full --out benchmarks/results/bench_spin.json

Phases (each a `python -m tooluse1 plan` session, so the results files are the track's own):
  fill      --spin-split train --variant FILL_VARIANTS --save-trajectories STORE: the 15 train scenarios,
            by default under all five variants, with the store still empty (the simulator predicts without
            retrieval); every executed step of those runs fills the store with its own status (each distinct
            step once; the simulator retrieves the Accomplished ones).
            --fill oracle stores the scripted oracle's trajectories instead (correct, no model time).
  evaluate  --spin-split test --variant all --trajectory-store STORE --save-plans DIR: the 61 test
            scenarios x five variants, the simulator retrieving from the train runs only.
Together every scenario runs under every variant on the model; the evaluation (the comparison with the
paper) is the test split. Both sessions resume (--spin-resume), so a stopped benchmark continues where it
was; a phase that resumed runs says so (its wall time is then not the full cost).

--wait-idle L waits (up to --wait-max seconds) until the 1-minute load average is below L before starting;
the load average is sampled every 15 s during the phases and reported (mean and max), with the start
and end uptime lines. `--scenarios a,b,c` restricts the evaluate phase to those test scenarios (a timed
subset); the output then carries a projection to all test scenarios (wall time x runs / subset runs: an
upper bound, since a larger batch decodes more rows per step).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.spin.runner import VARIANTS, parse_variants  # noqa: E402
from tooluse1.spin.scenarios import load_scenarios  # noqa: E402


class LoadSampler:
    """Samples the 1-minute load average every `every` seconds in a background thread."""

    def __init__(self, every: float = 15.0) -> None:
        self.every, self.samples = every, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(os.getloadavg()[0])
            self._stop.wait(self.every)

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> dict:
        s = self.samples or [os.getloadavg()[0]]
        return {"samples": len(s), "mean": round(sum(s) / len(s), 2), "max": round(max(s), 2)}


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def wait_idle(limit: float, max_wait: float) -> tuple[bool, float]:
    """Wait until the 1-minute load average is below `limit`; (reached, seconds waited)."""
    started = time.monotonic()
    while os.getloadavg()[0] >= limit:
        if time.monotonic() - started > max_wait:
            return False, time.monotonic() - started
        print(f"waiting for an idle machine: {uptime()}", flush=True)
        time.sleep(60)
    return True, time.monotonic() - started


def plan_session(args: argparse.Namespace, model: str, extra: list[str]) -> tuple[float, int]:
    cmd = [sys.executable, "-m", "tooluse1", "plan", "--model", model, "-p", "no:cacheprovider", *extra]
    if model != "oracle":
        cmd += ["--threads", str(args.threads), "--dtype", args.dtype]
        if args.batch_size:
            cmd += ["--batch-size", str(args.batch_size)]
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
    ap.add_argument("--batch-size", type=int, default=None, help="decode slots of the fast path (default 32)")
    ap.add_argument("--workdir", default="/tmp/spin-full", help="results, plans, store and resume logs")
    ap.add_argument("--store", default=None, help="trajectory store URL (default: a SQLite file in --workdir)")
    ap.add_argument("--fill", choices=("model", "oracle"), default="model")
    ap.add_argument("--fill-variants", default="all", help="variants of the train runs that fill the store")
    ap.add_argument("--scenarios", default=None, help="comma-separated test scenario ids (a timed subset)")
    ap.add_argument("--wait-idle", type=float, default=None, help="wait until the 1-min load average is below this")
    ap.add_argument("--wait-max", type=float, default=3600.0, help="give up waiting after this many seconds")
    ap.add_argument("--out", default=None, help="write the timing summary (JSON) here")
    args = ap.parse_args()

    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    store = args.store or f"sqlite:///{work / 'trajectories.sqlite'}"
    scenarios, _ = load_scenarios()
    test = [s.id for s in scenarios if s.split == "test"]
    train = [s.id for s in scenarios if s.split == "train"]
    chosen = test if not args.scenarios else [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(test))
    if unknown:
        ap.error(f"not test scenarios: {', '.join(unknown)}")
    fill_variants = parse_variants(args.fill_variants)

    waited = None
    if args.wait_idle is not None:
        reached, seconds = wait_idle(args.wait_idle, args.wait_max)
        waited = {"below": args.wait_idle, "reached": reached, "waited_s": round(seconds)}
    start_uptime = uptime()
    print(start_uptime, flush=True)
    with LoadSampler() as load:
        fill_wall, rc = plan_session(args, "oracle" if args.fill == "oracle" else args.model, [
            "--spin-split", "train", "--variant", ",".join(fill_variants), "--save-trajectories", store,
            "--save-plans", str(work / "plans-train"), "--results", str(work / "fill.json"),
            "--spin-resume", str(work / f"fill-{args.fill}.jsonl")])
        if rc not in (0, 1):
            return rc
        select = [] if chosen == test else ["-k", " or ".join(chosen)]
        eval_wall, rc = plan_session(args, args.model, [
            "--spin-split", "test", "--variant", "all", "--trajectory-store", store,
            "--save-plans", str(work / "plans"), "--results", str(work / "evaluate.json"),
            "--spin-resume", str(work / "evaluate.jsonl"), *select])
        if rc not in (0, 1):
            return rc
    end_uptime = uptime()

    section = json.loads((work / "evaluate.json").read_text(encoding="utf-8"))["spin"]
    fill_section = json.loads((work / "fill.json").read_text(encoding="utf-8"))["spin"]
    fill_prov, prov = fill_section["provenance"], section["provenance"]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    summary = {
        "commit": commit, "model": prov["model"], "threads": args.threads, "dtype": args.dtype,
        "batch_size": args.batch_size, "fill": args.fill, "fill_variants": list(fill_variants),
        "train_scenarios": len(train), "fill_runs": fill_section["n_runs"],
        "scenarios": len(chosen), "test_scenarios": len(test), "runs": section["n_runs"],
        "fill_wall_s": round(fill_wall, 1), "fill_resumed_runs": fill_prov["resumed_runs"],
        "fill_batching": fill_prov["batching"], "saved_steps": fill_prov["saved_steps"],
        "trajectory_store_records": prov["trajectory_store_records"],
        "trajectory_store_sha256": prov["trajectory_store_sha256"],
        "evaluate_wall_s": round(eval_wall, 1), "evaluate_runner_wall_s": prov["wall_s"],
        "evaluate_resumed_runs": prov["resumed_runs"], "batching": prov["batching"],
        "total_wall_s": round(fill_wall + eval_wall, 1),
        "wait_idle": waited, "uptime_start": start_uptime, "uptime_end": end_uptime, "load_1min": load.summary(),
    }
    if chosen != test:
        projected = eval_wall * len(test) * len(VARIANTS) / section["n_runs"]
        summary["projected_evaluate_wall_s_all_test"] = round(projected, 1)
    print(json.dumps(summary, indent=1))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
