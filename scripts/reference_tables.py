"""Print (or, with --write, refresh) the README's and BENCHMARKS.md's tables of the reference runs, and their
leaderboard.

    python scripts/reference_tables.py            # print the tables
    python scripts/reference_tables.py --write    # rewrite the marked blocks in README.md and BENCHMARKS.md,
                                                  # and results/reference/board.html (also: make board)

A marked block is `<!-- reference:NAME -->` ... `<!-- /reference:NAME -->`, NAME a file
results/reference/NAME.json, or `<!-- leaderboard:reference -->` ... `<!-- /leaderboard:reference -->`, the
leaderboard of every results/reference/*.json (`python -m tooluse1 leaderboard ... --markdown`);
tests_grader/test_reference.py fails when a block or board.html differs from the files.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1.metrics import MARKDOWN_LEGEND, format_markdown, summarise  # noqa: E402
from tooluse1.prompts import PROTOCOLS  # noqa: E402
from tooluse1.leaderboard import build, format_markdown as board_markdown, render_board  # noqa: E402
from tooluse1.results import load_results  # noqa: E402

BLOCK = re.compile(r"<!-- reference:(?P<name>[\w.-]+) -->\n.*?<!-- /reference:(?P=name) -->", re.S)
BOARD_BLOCK = re.compile(r"<!-- leaderboard:reference -->\n.*?<!-- /leaderboard:reference -->", re.S)
DOCS = ("README.md", "BENCHMARKS.md")
BOARD = ROOT / "results" / "reference" / "board.html"


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


def reference_board():
    """The leaderboard of every reference run (sources named relative to the repository)."""
    runs = []
    for path in sorted((ROOT / "results" / "reference").glob("*.json")):
        run = load_results(path)
        run.source = str(path.relative_to(ROOT))   # the same page from any working directory
        runs.append(run)
    return build(runs)


def board_block() -> str:
    return f"<!-- leaderboard:reference -->\n{board_markdown(reference_board())}\n<!-- /leaderboard:reference -->"


def refreshed(text: str) -> str:
    text = BLOCK.sub(lambda m: table(m["name"]), text)
    return BOARD_BLOCK.sub(lambda m: board_block(), text) if BOARD_BLOCK.search(text) else text


def main(argv: list[str]) -> int:
    if "--write" in argv:
        for doc in DOCS:
            path = ROOT / doc
            path.write_text(refreshed(path.read_text(encoding="utf-8")), encoding="utf-8")
        BOARD.write_text(render_board(reference_board()), encoding="utf-8")
        return 0
    for path in sorted((ROOT / "results" / "reference").glob("*.json")):
        print(table(path.stem) + "\n")
    print(board_block())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
