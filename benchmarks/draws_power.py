"""How much power do seeded draws buy the release gate? (issue 34, item 6)

    python benchmarks/draws_power.py NEW_K5.json                    # one K = 5 run; the pair from the references
    python benchmarks/draws_power.py NEW_K5.json BASE_K5.json       # two K = 5 runs of the same draws
    ... --reps 500                                                   # quicker, coarser (default 2000, seed 34)

A K = 5 run (`python -m tooluse1 run --model M --draws 5`) contains the K = 1 and K = 3 runs (draws d1 and
d1-d3 of every case). Prints Markdown:

1. Measured, for K = 1, 3 and 5: the run's score with its clustered interval and design effect (clustered by
   case: a case's draws and protocols are one cluster), and from the design effects at K = 1 and 5 the
   within-case correlations of its verdicts: between the protocols of one draw, rho_p = (deff_1 - 1) / 2, and
   between different draws of one case, rho_d = (deff_5 - deff_1) / (3 (5 - 1)) (a cluster of K draws x 3
   protocols has deff = 1 + 2 rho_p + 3 (K - 1) rho_d). With a second K = 5 run of the same draws, the same
   for the paired difference NEW - BASE as the gate computes it (`tooluse1.stats.paired_test`), with the
   minimum detectable drop the gate prints for that pair.
2. Simulated, the gate at each K on the latent-threshold model of benchmarks/gate_simulation.py with a draw
   level added: item (case c, draw d, protocol j) of run r passes iff
       a_r + u_c + x_cd + w_cdj + v_rc + y_rcd + e_rcdj > 0,
   u, x, w shared by both runs (case, draw and rendering difficulty), v, y, e the run's own (case, draw, item).
   The run-specific variance is calibrated to the pair's discordance, the share of v + y to the pair's deff of
   the difference at K = 1 and the split of v against y to its deff at K = 5 (bisection, alternating). The
   pair: the two K = 5 runs when given; otherwise the committed reference runs (default vs SmolLM2, public
   cases = one draw each) for discordance and deff at K = 1, and for K = 5 the deff the NEW run's own
   correlations imply, assuming the difference between two models correlates across draws of a case in the
   same proportion to its correlation across protocols as one model's verdicts do (rho_d / rho_p). For each
   K: the false-alarm rate under H0 (must stay <= alpha: the sign-flip test over cases is exact whatever the
   dependence within a case), the power at true drops of 0.02 and 0.05 and at the drop the gate printed, and
   the mean printed minimum detectable drop with its ratio to K = 1.
"""
from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path
from statistics import NormalDist

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gate_simulation import bisect  # noqa: E402  (the same bisection the draw-less simulation calibrates with)
from tooluse1.prompts import PROTOCOLS  # noqa: E402
from tooluse1.results import load_results  # noqa: E402
from tooluse1.stats import clustered_interval, paired_test  # noqa: E402

KS = (1, 3, 5)
ALPHA = 0.05
DROPS = (0.0, 0.02, 0.05)
SHARED_DRAW_SHARE = 0.1     # var(x): a draw's own difficulty, shared by both runs
SHARED_ITEM_SHARE = 0.1     # var(w): the rendering's own difficulty, shared by both runs
DRAW_ID = re.compile(r"^(?P<case>.+)\.d(?P<draw>\d+)-(?P<protocol>[a-z]+)$")


def drawn_verdicts(path: Path) -> tuple[dict[tuple[str, int, str], bool], dict]:
    """(case id, draw j, protocol) -> passed, for the scored protocols' items without a backend error; and
    the run's provenance."""
    run = load_results(path)
    out = {}
    for r in run.records:
        m = DRAW_ID.match(r.item_id)
        if m is None:
            raise SystemExit(f"{path}: {r.item_id} is not a drawn item (run it with --draws 5)")
        if r.protocol in PROTOCOLS and not r.is_error:
            out[(m["case"], int(m["draw"]), m["protocol"])] = r.passed
    return out, run.provenance


def run_statistics(verdicts: dict) -> dict[int, dict[str, float]]:
    """Per K: the run's score, clustered interval and design effect over draws d1..dK."""
    out = {}
    for k in KS:
        ci = clustered_interval((c, ok) for (c, d, _), ok in verdicts.items() if d <= k)
        out[k] = {"score": ci.rate or 0.0, "low": ci.low, "high": ci.high, "deff": ci.design_effect,
                  "n": sum(1 for (_, d, _) in verdicts if d <= k)}
    return out


def pair_statistics(new: dict, base: dict) -> dict[int, dict[str, float]]:
    """Per K: the paired difference NEW - BASE as the gate sees it (design effect, discordance, printed drop)."""
    out = {}
    for k in KS:
        common = sorted(key for key in set(new) & set(base) if key[1] <= k)
        t = paired_test((c, base[(c, d, p)], new[(c, d, p)]) for c, d, p in common)
        out[k] = {"n": len(common), "diff": t.diff, "deff": t.design_effect,
                  "discordance": (t.worse + t.better) / t.n, "mdd": t.min_detectable_drop,
                  "n_cases": len({c for c, _, _ in common})}
    return out


def correlations(deff_1: float, deff_5: float) -> tuple[float, float]:
    """(rho_p, rho_d) from the design effects at K = 1 and K = 5 (module docstring)."""
    p = len(PROTOCOLS)
    return (deff_1 - 1) / (p - 1), (deff_5 - deff_1) / (p * (5 - 1))


def public_pair() -> dict[str, float]:
    """Discordance, design effect of the difference and BASE score of the committed reference pair (default vs
    SmolLM2 on the public cases, json+xml+plain): a public run is one draw of every case. The score level of
    the simulated runs is the default model's, as in benchmarks/gate_simulation.py."""
    runs = {name: load_results(ROOT / "results" / "reference" / f"{name}.json") for name in ("default", "smollm2")}
    verdicts = {name: {(r.case.id, r.protocol): r.passed for r in run.records
                       if r.protocol in PROTOCOLS and not r.is_error} for name, run in runs.items()}
    common = sorted(set(verdicts["default"]) & set(verdicts["smollm2"]))
    t = paired_test((c, verdicts["smollm2"][(c, p)], verdicts["default"][(c, p)]) for c, p in common)
    return {"deff": t.design_effect, "discordance": (t.worse + t.better) / t.n, "mdd": t.min_detectable_drop,
            "new_score": sum(verdicts["default"][key] for key in common) / len(common),
            "n_cases": len({c for c, _ in common})}


class DrawModel:
    """The latent-threshold model of the module docstring for one calibration."""

    def __init__(self, own: float, within_draw: float, case_share: float, score: float, n_cases: int):
        """own: var(v + y + e); within_draw: (var v + var y) / own; case_share: var v / (var v + var y)."""
        self.own, self.within_draw, self.case_share, self.score, self.n_cases = (own, within_draw, case_share,
                                                                                  score, n_cases)
        shared = 1.0 - own
        self.sd_w = math.sqrt(min(shared, SHARED_ITEM_SHARE))
        self.sd_x = math.sqrt(min(max(0.0, shared - SHARED_ITEM_SHARE), SHARED_DRAW_SHARE))
        self.sd_u = math.sqrt(max(0.0, shared - SHARED_ITEM_SHARE - SHARED_DRAW_SHARE))
        self.sd_v = math.sqrt(own * within_draw * case_share)
        self.sd_y = math.sqrt(own * within_draw * (1 - case_share))
        self.sd_e = math.sqrt(own * (1 - within_draw))

    def pairs(self, rng: np.random.Generator, reps: int, k: int, drop: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(BASE, NEW) verdicts, each of shape (reps, cases, draws, protocols)."""
        g, p = self.n_cases, len(PROTOCOLS)
        shape = (reps, g, k, p)
        shared = (rng.normal(0, self.sd_u, (reps, g, 1, 1)) + rng.normal(0, self.sd_x, (reps, g, k, 1))
                  + rng.normal(0, self.sd_w, shape))

        def run(level: float) -> np.ndarray:
            own = (rng.normal(0, self.sd_v, (reps, g, 1, 1)) + rng.normal(0, self.sd_y, (reps, g, k, 1))
                   + rng.normal(0, self.sd_e, shape))
            return NormalDist().inv_cdf(level) + shared + own > 0
        return run(self.score), run(self.score - drop)


def null_statistics(model: DrawModel, rng: np.random.Generator, reps: int, k: int) -> tuple[float, float]:
    """Mean design effect of the paired difference (CR1 over cases, as stats.paired_test) and mean
    discordance over `reps` null pairs at K = k."""
    base, new = model.pairs(rng, reps, k)
    d = (new.astype(float) - base.astype(float)).reshape(reps, model.n_cases, -1)
    g, m = model.n_cases, d.shape[2]
    n = g * m
    mean = d.sum(axis=(1, 2)) / n
    case = d.sum(axis=2)
    cr1 = g / (g - 1) * ((case - mean[:, None] * m) ** 2).sum(axis=1) / n ** 2
    discordance = np.abs(d).sum(axis=(1, 2)) / n
    independent = (discordance - mean ** 2) / (n - 1)
    ok = independent > 0
    return float(np.mean(cr1[ok] / independent[ok])), float(np.mean(discordance))


def calibrate(discordance: float, deff_1: float, deff_5: float, score: float, n_cases: int, seed: int) -> DrawModel:
    """A DrawModel whose null pairs have about this discordance and these design effects of the difference at
    K = 1 and K = 5."""
    own, within, case_share = 0.5, 0.5, 0.5
    reps = 200

    def stats(o: float, w: float, c: float, k: int) -> tuple[float, float]:
        return null_statistics(DrawModel(o, w, c, score, n_cases), np.random.default_rng(seed), reps, k)

    for _ in range(3):      # each target depends mostly, not only, on its own parameter: alternate
        own = bisect(lambda o, w=within, c=case_share: stats(o, w, c, 1)[1], discordance, 0.01, 0.99, steps=12)
        within = bisect(lambda w, o=own, c=case_share: stats(o, w, c, 1)[0], deff_1, 0.0, 0.999, steps=12)
        case_share = bisect(lambda c, o=own, w=within: stats(o, w, c, 5)[0], deff_5, 0.0, 1.0, steps=12)
    return DrawModel(own, within, case_share, score, n_cases)


def gate_rates(model: DrawModel, k: int, drop: float, reps: int, rng: np.random.Generator) -> dict[str, float]:
    """Share of `reps` simulated pairs the clustered gate fails at ALPHA, and the mean drop it prints."""
    base, new = model.pairs(rng, reps, k, drop)
    per_case = k * len(PROTOCOLS)
    cases = [f"c{c}" for c in range(model.n_cases) for _ in range(per_case)]
    fails, mdd = 0, 0.0
    for b, nw in zip(base.reshape(reps, -1), new.reshape(reps, -1)):
        t = paired_test(zip(cases, b.tolist(), nw.tolist()), alpha=ALPHA)
        fails += t.p_worse < ALPHA
        mdd += t.min_detectable_drop
    return {"fails": fails / reps, "mdd": mdd / reps}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("new", type=Path, help="a K = 5 run (the stronger model's: the default model)")
    ap.add_argument("base", type=Path, nargs="?", default=None,
                    help="a second K = 5 run of the same draws (the weaker model's); without it, the pair's "
                         "structure comes from the reference runs (module docstring)")
    ap.add_argument("--reps", type=int, default=2000, help="simulated pairs per cell (default 2000)")
    ap.add_argument("--seed", type=int, default=34)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    new, new_prov = drawn_verdicts(args.new)
    drawn = new_prov["corpus"].get("draws") or {}
    if drawn.get("k", 0) < 5:
        raise SystemExit(f"{args.new}: a K = 5 run is needed (it holds K = 1 and 3)")
    print(f"Draw seed sha256 {drawn['seed_sha256'][:12]}…, generator {drawn['generator']}, model "
          f"{new_prov['model'].get('model_id')}.\n")
    own = run_statistics(new)
    print("| K | items | score [95% CI] | design effect |")
    print("|---|---|---|---|")
    for k, r in own.items():
        print(f"| {k} | {r['n']} | {r['score']:.3f} [{r['low']:.3f}, {r['high']:.3f}] | {r['deff']:.2f} |")
    rho_p, rho_d = correlations(own[1]["deff"], own[5]["deff"])
    print(f"\nWithin-case correlation of the run's verdicts: between the protocols of one draw rho_p = {rho_p:.3f}; "
          f"between draws of one case rho_d = {rho_d:.3f} (rho_d / rho_p = {rho_d / rho_p:.2f}).\n")
    if args.base is not None:
        base, base_prov = drawn_verdicts(args.base)
        if (base_prov["corpus"].get("draws") or {}).get("seed_sha256") != drawn["seed_sha256"]:
            raise SystemExit(f"{args.base}: not a run of the same draw seed as {args.new}")
        pair = pair_statistics(new, base)
        print("| K | paired items | difference | deff of the difference | discordance | gate's min. detectable "
              "drop (this pair) |")
        print("|---|---|---|---|---|---|")
        for k, r in pair.items():
            print(f"| {k} | {r['n']} | {r['diff']:+.3f} | {r['deff']:.2f} | {r['discordance']:.3f} | "
                  f"{r['mdd']:.3f} |")
        discordance, deff_1, deff_5 = pair[5]["discordance"], pair[1]["deff"], pair[5]["deff"]
        score, n_cases = own[5]["score"], int(pair[5]["n_cases"])
    else:
        ref = public_pair()
        pair_rho_p = (ref["deff"] - 1) / (len(PROTOCOLS) - 1)
        discordance, deff_1 = ref["discordance"], ref["deff"]
        deff_5 = deff_1 + len(PROTOCOLS) * (5 - 1) * pair_rho_p * (rho_d / rho_p)
        score, n_cases = ref["new_score"], int(ref["n_cases"])
        print(f"The pair (reference runs, default - SmolLM2, public cases): discordance {discordance:.3f}, deff of "
              f"the difference {deff_1:.2f} (rho_p of the difference {pair_rho_p:.3f}), printed drop "
              f"{ref['mdd']:.3f}; at K = 5 its deff taken as {deff_5:.2f} (rho_d of the difference = "
              f"{pair_rho_p * rho_d / rho_p:.3f}, the run's proportion).\n")
    model = calibrate(discordance, deff_1, deff_5, score, n_cases, args.seed)
    achieved = {k: null_statistics(model, np.random.default_rng(args.seed + 7), 1000, k)[0] for k in KS}
    print(f"Calibrated model: run-specific variance {model.own:.3f}, of it within one draw "
          f"{model.within_draw:.3f}, of that shared by the case's draws {model.case_share:.3f}; simulated deff "
          f"of the difference at K = 1, 3, 5: {achieved[1]:.2f}, {achieved[3]:.2f}, {achieved[5]:.2f} "
          f"(targets {deff_1:.2f} at K = 1, {deff_5:.2f} at K = 5).\n")
    print(f"{args.reps} simulated pairs per cell, seed {args.seed}, one-sided alpha {ALPHA} (Monte Carlo SE near "
          f"0.05: {math.sqrt(ALPHA * (1 - ALPHA) / args.reps):.4f}).\n")
    print("| K | false alarms (H0) | power at 0.02 | power at 0.05 | printed min. detectable drop (H0 mean) | "
          "relative to K = 1 | power at the printed drop |")
    print("|---|---|---|---|---|---|---|")
    first = None
    for k in KS:
        rates = {drop: gate_rates(model, k, drop, args.reps, np.random.default_rng(args.seed + 100 * k + i))
                 for i, drop in enumerate(DROPS)}
        printed = round(rates[0.0]["mdd"], 3)
        at_printed = gate_rates(model, k, printed, args.reps, np.random.default_rng(args.seed + 100 * k + 9))
        first = first or printed
        print(f"| {k} | {rates[0.0]['fails']:.3f} | {rates[0.02]['fails']:.3f} | {rates[0.05]['fails']:.3f} | "
              f"{printed:.3f} | {printed / first:.2f} | {at_printed['fails']:.3f} |")
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
