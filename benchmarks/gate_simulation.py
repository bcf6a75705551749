"""How often does each release gate raise a false alarm, and what does it catch? (issue 24)

    python benchmarks/gate_simulation.py                 # 4000 pairs of runs per setting, seed 24
    python benchmarks/gate_simulation.py --reps 1000     # quicker, coarser

Draws pairs of runs (BASE, NEW) of the 188 cases x 3 protocols and applies both gates to each pair, as
`compare` and `pytest --baseline` do: the old one (one-sided exact McNemar on items, as if independent) and
the new one (one-sided exact sign-flip test on case-level differences, tooluse1.stats.paired_test). Prints
Markdown: the false-alarm rate at alpha 0.05 under H0 (NEW exactly as good as BASE) and the power at true
drops of 0.02, 0.05 and 0.10 and at the minimum detectable drop the new gate printed under H0 (it promises 80%),
with the Monte Carlo standard error, for three strengths of within-case correlation: the one measured on the
reference runs (results/reference/*.json), a weaker and a stronger one.

The model (a latent-threshold model, one run = one draw): item (case c, protocol j) of run r passes iff
    a_r + u_c + w_cj + v_rc + e_rcj > 0,   u, w, v, e independent normals, total variance 1,
where u_c (how hard the case is) and w_cj (how hard its rendering is) are shared by both runs, v_rc is the
run's own skill on the case, shared by its three protocols, and e_rcj the run's item-level noise. Under H0
both runs have the same a; a drop d lowers NEW's a so that its expected score falls by d. The share
kappa = var(v) / (var(v) + var(e)) is the within-case correlation of the runs' differences: it is calibrated
(bisection) so that the simulated null pairs have the design effect of the paired difference measured on the
reference runs (default vs SmolLM2), and the run-specific variance var(v) + var(e) so that their discordance
(share of items whose verdict differs) matches that pair's. The weaker and stronger settings calibrate to a
design effect of 1.3 and 2.25 (with var(w) = 0.1 and this discordance, about 2.35 is the most the model reaches;
3 is the most three protocols allow) with the same discordance.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from statistics import NormalDist

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.prompts import PROTOCOLS  # noqa: E402
from tooluse1.results import load_results  # noqa: E402
from tooluse1.stats import clustered_interval, paired_test  # noqa: E402

N_CASES, N_PROTOCOLS = 188, 3
SHARED_ITEM_SHARE = 0.1            # var(w): the rendering's own difficulty, shared by both runs
ALPHA = 0.05
DROPS = (0.0, 0.02, 0.05, 0.10)


def reference_statistics() -> dict[str, float]:
    """What the committed reference runs say: each run's score and design effect over json+xml+plain, and
    for the pair (default, SmolLM2) the design effect of the paired difference and the discordance."""
    runs = {name: load_results(ROOT / "results" / "reference" / f"{name}.json") for name in ("default", "smollm2")}
    verdicts = {name: {(r.case.id, r.protocol): r.passed for r in run.records
                       if r.protocol in PROTOCOLS and not r.is_error} for name, run in runs.items()}
    out: dict[str, float] = {}
    for name, items in verdicts.items():
        ci = clustered_interval((c, ok) for (c, _), ok in items.items())
        out[f"{name}_score"], out[f"{name}_deff"] = ci.rate or 0.0, ci.design_effect
    common = sorted(set(verdicts["default"]) & set(verdicts["smollm2"]))
    test = paired_test((c, verdicts["smollm2"][(c, p)], verdicts["default"][(c, p)]) for c, p in common)
    out["pair_deff"] = test.design_effect
    out["pair_discordance"] = (test.worse + test.better) / test.n
    return out


class Model:
    """The latent-threshold model above for one (kappa, run-specific variance, score level)."""

    def __init__(self, kappa: float, own: float, score: float):
        self.kappa, self.own, self.score = kappa, own, score
        shared = 1.0 - own
        self.sd_u = math.sqrt(max(0.0, shared - SHARED_ITEM_SHARE))
        self.sd_w = math.sqrt(min(shared, SHARED_ITEM_SHARE))
        self.sd_v, self.sd_e = math.sqrt(kappa * own), math.sqrt((1 - kappa) * own)

    def pairs(self, rng: np.random.Generator, reps: int, drop: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(BASE, NEW) verdicts, each of shape (reps, cases, protocols)."""
        shape = (reps, N_CASES, N_PROTOCOLS)
        shared = (rng.normal(0, self.sd_u, (reps, N_CASES, 1)) + rng.normal(0, self.sd_w, shape))

        def run(level: float) -> np.ndarray:
            own = rng.normal(0, self.sd_v, (reps, N_CASES, 1)) + rng.normal(0, self.sd_e, shape)
            return NormalDist().inv_cdf(level) + shared + own > 0
        return run(self.score), run(self.score - drop)


def design_effect_and_discordance(model: Model, rng: np.random.Generator, reps: int) -> tuple[float, float]:
    """The mean design effect of the paired difference and the mean discordance over `reps` null pairs,
    computed as the gate computes them (vectorised: CR1 over item-level variance, as in stats.paired_test)."""
    base, new = model.pairs(rng, reps)
    d = new.astype(float) - base.astype(float)                       # (reps, cases, protocols)
    n, g = N_CASES * N_PROTOCOLS, N_CASES
    mean = d.sum(axis=(1, 2)) / n
    case = d.sum(axis=2)
    cr1 = g / (g - 1) * ((case - mean[:, None] * N_PROTOCOLS) ** 2).sum(axis=1) / n ** 2
    discordance = np.abs(d).sum(axis=(1, 2)) / n
    independent = (discordance - mean ** 2) / (n - 1)
    ok = independent > 0
    return float(np.mean(cr1[ok] / independent[ok])), float(np.mean(discordance))


def bisect(f, target: float, lo: float, hi: float, steps: int = 14) -> float:
    """x in [lo, hi] with f(x) ~ target for an increasing f."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < target else (lo, mid)
    return (lo + hi) / 2


def calibrate(deff: float, discordance: float, score: float, seed: int) -> Model:
    """A Model whose null pairs have (about) this design effect of the difference and this discordance."""
    kappa, own = 0.5, 0.5
    for _ in range(3):      # the two targets depend mostly, not only, on their own parameter: alternate
        own = bisect(lambda o, kappa=kappa: design_effect_and_discordance(
            Model(kappa, o, score), np.random.default_rng(seed), 300)[1], discordance, 0.01, 0.99)
        kappa = bisect(lambda k, own=own: design_effect_and_discordance(
            Model(k, own, score), np.random.default_rng(seed), 300)[0], deff, 0.0, 0.999)
    return Model(kappa, own, score)


def gate_rates(model: Model, drop: float, reps: int, rng: np.random.Generator) -> dict[str, float]:
    """Share of `reps` simulated pairs each gate fails at ALPHA, and the mean minimum detectable drop the new
    gate prints."""
    base, new = model.pairs(rng, reps, drop)
    cases = [f"c{c}" for c in range(N_CASES) for _ in range(N_PROTOCOLS)]
    old = clustered = 0
    mdd = 0.0
    for b, nw in zip(base.reshape(reps, -1), new.reshape(reps, -1)):
        t = paired_test(zip(cases, b.tolist(), nw.tolist()), alpha=ALPHA)
        old += t.mcnemar_p_worse < ALPHA
        clustered += t.p_worse < ALPHA
        mdd += t.min_detectable_drop
    return {"old": old / reps, "new": clustered / reps, "mdd": mdd / reps}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=4000, help="simulated pairs of runs per setting (default 4000)")
    ap.add_argument("--seed", type=int, default=24)
    args = ap.parse_args(argv)
    started = time.perf_counter()
    ref = reference_statistics()
    print(f"Reference runs (json+xml+plain): default score {ref['default_score']:.3f}, design effect "
          f"{ref['default_deff']:.2f}; SmolLM2 {ref['smollm2_score']:.3f}, {ref['smollm2_deff']:.2f}; paired "
          f"difference default - SmolLM2: design effect {ref['pair_deff']:.2f}, discordance "
          f"{ref['pair_discordance']:.3f}.\n")
    settings = (("weaker", 1.3), ("measured", ref["pair_deff"]), ("stronger", 2.25))
    se = math.sqrt(ALPHA * (1 - ALPHA) / args.reps)
    print(f"{args.reps} pairs per cell, seed {args.seed}; one-sided alpha {ALPHA}; Monte Carlo SE of a rate "
          f"near 0.05: {se:.4f}.\n")
    print("| correlation | deff of the difference (kappa) | drop | old gate: McNemar fails | new gate: clustered fails "
          "| new gate's printed min. detectable drop (mean) |")
    print("|---|---|---|---|---|---|")
    for i, (name, deff) in enumerate(settings):
        model = calibrate(deff, ref["pair_discordance"], ref["default_score"], args.seed + i)
        achieved, _ = design_effect_and_discordance(model, np.random.default_rng(args.seed + 100 + i), 2000)
        printed = None
        for j, drop in enumerate((*DROPS, None)):
            drop = printed if drop is None else drop     # last: the drop the new gate said it detects (H0 mean)
            r = gate_rates(model, drop, args.reps, np.random.default_rng(args.seed + 1000 * i + j))
            printed = round(r["mdd"], 3) if drop == 0 else printed
            what = ("false alarms (H0)" if drop == 0 else f"power at {drop:.3f} (the printed drop)"
                    if j == len(DROPS) else f"power at {drop:.2f}")
            print(f"| {name} | {achieved:.2f} ({model.kappa:.2f}) | {what} | {r['old']:.3f} | {r['new']:.3f} | "
                  f"{r['mdd']:.3f} |")
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
