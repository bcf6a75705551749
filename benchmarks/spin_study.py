"""When does SPIN pay? The controlled study of issue 22 (tooluse1/spin/study.py, tooluse1/spin/scripted.py).

Scripted planners (Table 1 defects at a set rate, tempting superfluous steps), repairers (fix a reported
defect with a set probability) and critics (right with a set probability) run through the real SPIN pipeline
on the test scenarios; no model is loaded. Writes the study (JSON), its chart (SVG) and its tables (text).

    python benchmarks/spin_study.py --out benchmarks/results/spin_study.json \
        --svg benchmarks/results/spin_study.svg --text benchmarks/results/spin_study.txt
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.results import write_json_atomic  # noqa: E402
from tooluse1.spin.scenarios import SPLITS, load_scenarios  # noqa: E402
from tooluse1.spin.study import StudyGrid, format_study, run_study, study_svg  # noqa: E402


def _floats(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    d = StudyGrid()
    ap.add_argument("--critic", type=_floats, default=d.critic_accuracies, help="critic accuracies p, e.g. 0.5,1")
    ap.add_argument("--defects", type=_floats, default=d.defect_rates, help="plan defect rates, e.g. 0,0.5")
    ap.add_argument("--repairs", type=_floats, default=d.repair_rates, help="repair success rates, e.g. 0,1")
    ap.add_argument("--critic-repairs", type=_floats, default=d.critic_repair_rates,
                    help="the repair rates at which SPIN is swept (among --repairs)")
    ap.add_argument("--seeds", type=int, default=len(d.seeds), help="number of seeds (0..N-1)")
    ap.add_argument("--tempting", type=float, default=d.tempting_rate, help="rate of each tempting step in a plan")
    ap.add_argument("--rounds", type=int, default=d.rounds, help="repair rounds T")
    ap.add_argument("--split", choices=SPLITS, default="test", help="scenarios to run (default: test)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N scenarios (for a quick check)")
    ap.add_argument("--out", type=Path, required=True, help="the study as JSON")
    ap.add_argument("--svg", type=Path, default=None, help="the chart (SVG)")
    ap.add_argument("--text", type=Path, default=None, help="the tables (text)")
    args = ap.parse_args(argv)
    try:
        grid = StudyGrid(args.critic, args.defects, args.repairs, tuple(range(args.seeds)), args.tempting,
                         args.rounds, args.critic_repairs)
    except ValueError as e:
        ap.error(str(e))
    scenarios = [s for s in load_scenarios()[0] if s.split == args.split][:args.limit]
    if not scenarios:
        ap.error(f"no {args.split} scenarios to run")
    started = time.perf_counter()
    study = run_study(scenarios, grid, on_progress=lambda msg: print(msg, file=sys.stderr))
    study["elapsed_s"] = round(time.perf_counter() - started, 1)
    write_json_atomic(args.out, study)
    text = format_study(study)
    if args.svg:
        args.svg.parent.mkdir(parents=True, exist_ok=True)
        args.svg.write_text(study_svg(study), encoding="utf-8")
    if args.text:
        args.text.parent.mkdir(parents=True, exist_ok=True)
        args.text.write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"{study['elapsed_s']} s; wrote {args.out}" + "".join(f", {p}" for p in (args.svg, args.text) if p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
