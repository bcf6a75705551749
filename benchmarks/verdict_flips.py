"""Every item whose verdict differs between two results files of the same items (a run re-graded under a new
spec): `python benchmarks/verdict_flips.py OLD.json NEW.json` prints each changed item (passed, reason: old ->
new) and the count."""
from __future__ import annotations

import sys

from tooluse1.results import load_results


def main(old_path: str, new_path: str) -> int:
    old, new = load_results(old_path), load_results(new_path)
    before = {r.item_id: r for r in old.records}
    changed = 0
    for r in new.records:
        o = before.get(r.item_id)
        if o is None:
            print(f"{r.item_id}: not in {old_path}")
        elif o.passed != r.passed or o.verdict.reason != r.verdict.reason:
            changed += 1
            print(f"{r.item_id}: {o.passed} -> {r.passed} | {o.verdict.reason!r} -> {r.verdict.reason!r}")
    print(f"changed: {changed} of {len(new.records)} (spec {old.provenance.get('spec_version')} -> "
          f"{new.provenance.get('spec_version')})")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python benchmarks/verdict_flips.py OLD.json NEW.json")
    sys.exit(main(sys.argv[1], sys.argv[2]))
