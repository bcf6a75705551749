"""Smoke benchmark of the transformers backend: resolve time, load time, one batch of short chats.

    python benchmarks/bench_transformers_smoke.py --model default --batch-size 8 --max-new-tokens 64

Prints one JSON object. Numbers on a shared machine depend on its load; the 1-minute load average is
recorded alongside so that runs can be compared honestly.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooluse1.backends.base import DecodingConfig  # noqa: E402
from tooluse1.backends.transformers_backend import TransformersBackend  # noqa: E402
from tooluse1.models import resolve_model  # noqa: E402
from tooluse1.prompts import Prompt  # noqa: E402

CHATS = [
    "What is the weather like in Berlin right now?",
    "What is 45 plus 12?",
    "Translate 'good morning' into French.",
    "Set a timer for ten minutes.",
    "What is the capital of Australia?",
    "Convert 100 US dollars to euros.",
    "What time is it in Tokyo?",
    "Save a note: buy milk and bread.",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="default")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()

    t0 = time.perf_counter()
    resolved = resolve_model(args.model)
    t1 = time.perf_counter()
    backend = TransformersBackend(resolved, dtype=args.dtype, batch_size=args.batch_size, threads=args.threads)
    t2 = time.perf_counter()
    prompts = [Prompt(item_id=f"smoke-{i}", case_id=f"smoke-{i}", protocol="plain",
                      messages=({"role": "user", "content": q},)) for i, q in enumerate(CHATS)]
    out = backend.generate(prompts, DecodingConfig(max_new_tokens=args.max_new_tokens))
    t3 = time.perf_counter()
    new_tokens = sum(c.completion_tokens or 0 for c in out)
    print(json.dumps({
        "model_id": resolved.model_id, "batch_size": backend.batch_size, "threads": backend.provenance()["threads"],
        "resolve_s": round(t1 - t0, 3), "load_s": round(t2 - t1, 2), "generate_s": round(t3 - t2, 2),
        "prompt_tokens": sum(c.prompt_tokens or 0 for c in out), "completion_tokens": new_tokens,
        "finish_reasons": [c.finish_reason for c in out], "loadavg_1m": os.getloadavg()[0],
        "samples": [c.text[:80] for c in out[:3]],
    }, indent=1))


if __name__ == "__main__":
    main()
