"""What a run cost: tokens, time and (with prices given) money, computed from its records and provenance.

`run_cost` is a function of the results document, like the summary: written by `build_results` and
recomputed whenever a file is read, so a file written before a figure existed has it too. The figures:

- tokens: the sums of the records' prompt, completion and (where the server reports it) reasoning tokens,
  with how many records reported usage at all (`items_with_usage`); reasoning tokens are part of the
  completion tokens (as the OpenAI API counts them), never added to them;
- per request (request backends: openai, scripted): percentiles p50/p90/p99 and the mean of the items'
  latency (first attempt to final answer, retries included) and, for streamed requests, time to first token;
  a batched in-process backend has no per-request latency (its rows share batches), so there only
- wall time (provenance `started_at` to `finished_at`), items per minute and completion tokens per second.
  A resumed run has none of the three: its wall time covers only the items this process generated;
- money: with `--price-in` / `--price-out` (per million tokens), `cost` = prompt x in + completion x out,
  in the prices' currency; null when a price is missing or some record has no usage.
"""
from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

PERCENTILES = (50, 90, 99)


def percentiles(values: Sequence[float]) -> dict[str, float] | None:
    """{"p50", "p90", "p99", "mean"} of `values` (linear interpolation between order statistics, numpy's
    default), rounded to 0.1 ms; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    out: dict[str, float] = {}
    for p in PERCENTILES:
        pos = (len(ordered) - 1) * p / 100
        lo, hi = math.floor(pos), math.ceil(pos)
        out[f"p{p}"] = round(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo), 4)
    out["mean"] = round(sum(ordered) / len(ordered), 4)
    return out


def _wall_seconds(provenance: Mapping[str, Any]) -> float | None:
    try:
        start = datetime.fromisoformat(str(provenance["started_at"]))
        end = datetime.fromisoformat(str(provenance["finished_at"]))
    except (KeyError, ValueError):
        return None
    return max(0.0, (end - start).total_seconds())


def _in_process(provenance: Mapping[str, Any]) -> bool:
    from tooluse1.backends.registry import REGISTRY
    entry = REGISTRY.get(str((provenance.get("model") or {}).get("backend")))
    return bool(entry and entry.in_process)


def _sum(values: Iterable[int | None]) -> int:
    return sum(v for v in values if v is not None)


def run_cost(records: Sequence[Mapping[str, Any]], provenance: Mapping[str, Any]) -> dict[str, Any]:
    """The cost section of a results document (see the module docstring) from its records (as stored:
    `ItemRecord.as_dict`) and provenance. Never raises on a record that lacks usage or timing."""
    # A sampled record's usage and timing are its samples' (each one request, or one row of a batch).
    answers = [s for r in records for s in (r.get("samples") or [r])]
    answered = [r for r in answers if r.get("error") is None]
    with_usage = [r for r in answers if r.get("prompt_tokens") is not None and r.get("completion_tokens") is not None]
    reasoning = [r["reasoning_tokens"] for r in answers if r.get("reasoning_tokens") is not None]
    prompt_tokens = _sum(r.get("prompt_tokens") for r in answers)
    completion_tokens = _sum(r.get("completion_tokens") for r in answers)
    config = provenance.get("config") or {}
    price_in, price_out = config.get("price_in"), config.get("price_out")
    in_process = _in_process(provenance)
    wall = None if provenance.get("resumed_items") else _wall_seconds(provenance)
    per_min = tokens_per_s = None
    if wall:
        per_min = round(len(records) / wall * 60, 2)
        tokens_per_s = round(completion_tokens / wall, 2)
    cost = None
    if price_in is not None and price_out is not None and answers and len(with_usage) == len(answers):
        cost = round((prompt_tokens * price_in + completion_tokens * price_out) / 1e6, 6)
    return {
        "n_items": len(records),
        "items_with_usage": sum(1 for r in records if all(
            s.get("prompt_tokens") is not None and s.get("completion_tokens") is not None
            for s in (r.get("samples") or [r]))),
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "reasoning_tokens": sum(reasoning) if reasoning else None,
        "latency_s": None if in_process else percentiles([float(r.get("latency_s") or 0.0) for r in answered]),
        "ttft_s": None if in_process else percentiles([r["ttft_s"] for r in answered if r.get("ttft_s") is not None]),
        "wall_s": None if wall is None else round(wall, 3),
        "items_per_min": per_min,
        "completion_tokens_per_s": tokens_per_s,
        "price_in": price_in,
        "price_out": price_out,
        "cost": cost,
    }


def throughput_text(cost: Mapping[str, Any]) -> str | None:
    """'W s, N items/min, T completion tokens/s', or None when the run has no wall time or no rate: a resumed
    run has no wall time, and a run whose wall rounds to 0 s (a fast rule model) has no rate."""
    if cost.get("wall_s") is None or cost.get("items_per_min") is None:
        return None
    return (f"{cost['wall_s']:.1f} s, {cost['items_per_min']:g} items/min, "
            f"{cost['completion_tokens_per_s']:g} completion tokens/s")


def format_cost(cost: Mapping[str, Any]) -> str:
    """One line for the terminal summary: tokens, request percentiles or throughput, and the cost."""
    parts = [f"{cost['prompt_tokens']:,} prompt + {cost['completion_tokens']:,} completion tokens"]
    if cost.get("reasoning_tokens") is not None:
        parts[0] += f" ({cost['reasoning_tokens']:,} reasoning)"
    if cost["items_with_usage"] < cost["n_items"]:
        parts.append(f"usage reported for {cost['items_with_usage']}/{cost['n_items']} items")
    for key, name in (("latency_s", "latency"), ("ttft_s", "time to first token")):
        if cost.get(key):
            q = cost[key]
            parts.append(f"{name} p50 {q['p50']:.2f} s, p90 {q['p90']:.2f} s, p99 {q['p99']:.2f} s")
    if (throughput := throughput_text(cost)) is not None:
        parts.append("wall " + throughput)
    if cost.get("cost") is not None:
        parts.append(f"cost {cost['cost']:.4f} (at {cost['price_in']:g} in / {cost['price_out']:g} out per M tokens)")
    return "cost: " + "; ".join(parts)
