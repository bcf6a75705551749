"""Time one decode step of the fast path (FastGreedyDecoder._decode_step) on synthetic row sets.

    python benchmarks/bench_decode_step.py --model default --dtype bfloat16 --threads 2 \
        --out benchmarks/results/bench_decode_step.json
    # the same step of another checkout (e.g. the rectangular step before the ragged one):
    git worktree add /tmp/rect aa1da26 && python benchmarks/bench_decode_step.py --root /tmp/rect ...

The cache is filled with random keys and values (timing only: the step's cost does not depend on them).
Row sets:

- ``cost model``: one row of 100 columns (the fixed part: reading every weight once), 36 rows of 100
  (+ the per-token weight work), 36 rows of 1,500 (+ attention over the columns), the same with 8 rows
  verifying 16 drafts each (+ 128 draft tokens). draft_lengths' constants STEP_OVERHEAD_TOKENS and
  ATTENTION_COLUMNS_PER_TOKEN come from these, and the check that a draft token costs about one query token.
- ``spin mix``: n rows of the lengths a SPIN sitting decodes side by side, one 3,000-token repair beside
  rows of 200-1,200 tokens (seeded), one token each.
- ``spin mix, 4 loops``: the same with 4 rows verifying 16 drafts each (looping repairs), the others none.
  A rectangular step pads every row to 17 query tokens; a ragged one feeds 4 x 17 + (n - 4) tokens.

``--root`` imports tooluse1 from another checkout; the step's interface (rows with ``length`` and
``generated``, per-row draft lists, a SlotCache) is the same before and after the ragged step.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="default")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=5, help="timed steps per row set (after one warm-up step)")
    ap.add_argument("--root", default=str(Path(__file__).resolve().parents[1]),
                    help="checkout whose tooluse1 is timed (default: this one)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    sys.path.insert(0, args.root)

    import torch

    from tooluse1.backends.fast_decode import FastGreedyDecoder, SlotCache
    from tooluse1.backends.transformers_backend import TransformersBackend
    from tooluse1.models import resolve_model

    backend = TransformersBackend(resolve_model(args.model), dtype=args.dtype, threads=args.threads, fast=True,
                                  batch_size=64)
    decoder = FastGreedyDecoder(backend.model, backend.stop_ids, backend.pad.token_id, 64)
    text = backend.model.config.get_text_config()
    cache = SlotCache(text.num_hidden_layers, 64, decoder.kv_heads, 4096, decoder.head_dim, decoder.dtype,
                      decoder.device)
    for layer in cache.layers:
        layer.keys.normal_()
        layer.values.normal_()

    def step_s(lengths: list[int], drafts: list[list[int]]) -> float:
        rows = [SimpleNamespace(length=n, generated=[100]) for n in lengths]
        with torch.inference_mode():
            decoder._decode_step(rows, drafts, cache)
            started = time.perf_counter()
            for _ in range(args.reps):
                decoder._decode_step(rows, drafts, cache)
        return (time.perf_counter() - started) / args.reps

    rng = random.Random(0)
    sets: list[tuple[str, list[int], list[list[int]]]] = [
        ("cost model: 1 row x 100", [100], [[]]),
        ("cost model: 36 rows x 100", [100] * 36, [[]] * 36),
        ("cost model: 36 rows x 1500", [1500] * 36, [[]] * 36),
        ("cost model: 36 rows x 1500, 8 verifying 16 drafts", [1500] * 36, [[7] * 16] * 8 + [[]] * 28),
    ]
    for n in (8, 36, 64):
        mix = [3000] + [rng.randint(200, 1200) for _ in range(n - 1)]
        sets.append((f"spin mix: {n} rows", mix, [[]] * n))
        sets.append((f"spin mix, 4 loops: {n} rows", mix, [[7] * 16] * 4 + [[]] * (n - 4)))
    results = []
    for name, lengths, drafts in sets:
        seconds = step_s(lengths, drafts)
        results.append({"rows": name, "n": len(lengths), "tokens": sum(1 + len(d) for d in drafts),
                        "mean_length": round(sum(lengths) / len(lengths)), "step_s": round(seconds, 4)})
        print(f"{name:32s} {seconds * 1000:8.1f} ms", flush=True)
    summary = {"root": args.root, "model": args.model, "dtype": args.dtype, "threads": args.threads,
               "reps": args.reps, "torch": torch.__version__, "steps": results}
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
