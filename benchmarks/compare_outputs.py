"""Compare the output texts of a run with a kept results file, item by item (e.g. after a decoding change).

    python benchmarks/compare_outputs.py NEW.json results/reference/default.json [--protocol native] [--model default]

Prints, per protocol, how many items have the same output, finish reason, token count and structured calls as
in the kept file, then every difference: both texts, and whether the difference is one of special tokens only
(the new text, re-encoded with the model's tokenizer and decoded without special tokens, equals the kept text)
or a different generation. Items present in only one file are counted apart. Exit status 0 always: this reports,
it does not judge.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

from transformers import AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tooluse1.models import resolve_model  # noqa: E402

_SAME_FIELDS = ("output", "finish_reason", "completion_tokens", "tool_calls")


def records(path: Path, protocols: set[str] | None) -> dict[str, dict]:
    """The records of a results file by item id, limited to ``protocols`` when given."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {r["item_id"]: r for r in doc["records"] if protocols is None or r["protocol"] in protocols}


def special_tokens_only(tokenizer: Any, new: str, kept: str) -> bool:
    """Whether ``new`` becomes ``kept`` once its special tokens are removed (the pre-3.0 decode)."""
    ids = tokenizer(new, add_special_tokens=False)["input_ids"]
    return tokenizer.decode(ids, skip_special_tokens=True) == kept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("new", type=Path)
    ap.add_argument("kept", type=Path)
    ap.add_argument("--protocol", help="comma-separated protocols to compare (default: all in the new file)")
    ap.add_argument("--model", default="default", help="model whose tokenizer explains differences")
    args = ap.parse_args()
    protocols = set(args.protocol.split(",")) if args.protocol else None
    new, kept = records(args.new, protocols), records(args.kept, protocols)
    tokenizer = AutoTokenizer.from_pretrained(resolve_model(args.model).path)
    same: collections.Counter[str] = collections.Counter()
    differs: collections.Counter[str] = collections.Counter()
    for item_id, r in sorted(new.items()):
        old = kept.get(item_id)
        if old is None:
            continue
        if all(r.get(f) == old.get(f) for f in _SAME_FIELDS):
            same[r["protocol"]] += 1
            continue
        differs[r["protocol"]] += 1
        why = "special tokens only" if special_tokens_only(tokenizer, r["output"], old["output"]) else "generation"
        print(f"DIFF {item_id} ({why}); passed {old.get('passed')} -> {r.get('passed')}")
        print(f"  kept: {old['output']!r} [{old['finish_reason']}, {old['completion_tokens']} tokens]")
        print(f"  new:  {r['output']!r} [{r['finish_reason']}, {r['completion_tokens']} tokens]")
    for protocol in sorted(set(same) | set(differs)):
        print(f"{protocol}: {same[protocol]} identical, {differs[protocol]} different")
    print(f"only in the new file: {len(set(new) - set(kept))}; only in the kept file: {len(set(kept) - set(new))}")


if __name__ == "__main__":
    main()
