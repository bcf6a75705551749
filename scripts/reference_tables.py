"""Print (or, with --write, refresh) the README's and BENCHMARKS.md's tables of the reference runs.

    python scripts/reference_tables.py            # print the tables
    python scripts/reference_tables.py --write    # rewrite the marked blocks in README.md and BENCHMARKS.md

A marked block is `<!-- reference:NAME -->` ... `<!-- /reference:NAME -->`, NAME a file
results/reference/NAME.json; tests_grader/test_reference.py fails when a block differs from its file.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.metrics import MARKDOWN_LEGEND, format_markdown, summarise  # noqa: E402
from tooluse1.prompts import PROTOCOLS  # noqa: E402
from tooluse1.results import load_results  # noqa: E402

BLOCK = re.compile(r"<!-- reference:(?P<name>[\w.-]+) -->\n.*?<!-- /reference:(?P=name) -->", re.S)
DOCS = ("README.md", "BENCHMARKS.md")


def table(name: str) -> str:
    """The marked block for results/reference/NAME.json (per protocol, then overall)."""
    run = load_results(ROOT / "results" / "reference" / f"{name}.json")
    prov = run.provenance
    caption = (f"{prov['model']['model_id']} — spec {prov['spec_version']}, corpus {prov['corpus']['sha256'][:12]}, "
               f"prompts {prov.get('prompt_sha256', '?')[:12]}, greedy, {prov['decoding']['max_new_tokens']} "
               f"new tokens (results/reference/{name}.json)")
    # The overall row is the SPEC's score: the three text protocols (native, opt-in, is its own row).
    text = summarise(r.graded_item() for r in run.records if r.protocol in PROTOCOLS)
    body = format_markdown(run.summary, overall=text["overall"], overall_label="**score (json+xml+plain)**")
    return f"<!-- reference:{name} -->\n{caption}\n\n{body}\n\n{MARKDOWN_LEGEND}\n<!-- /reference:{name} -->"


def refreshed(text: str) -> str:
    return BLOCK.sub(lambda m: table(m["name"]), text)


def main(argv: list[str]) -> int:
    if "--write" in argv:
        for doc in DOCS:
            path = ROOT / doc
            path.write_text(refreshed(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    for path in sorted((ROOT / "results" / "reference").glob("*.json")):
        print(table(path.stem) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
