"""Write the blind print-out of seeded draws for an independent reader (issue 34):
benchmarks/results/draws-review-sample.md, one draw of every templated case under a review seed, each shown
as the model sees it in one protocol (the protocols in turn; the system prompt of each protocol once, at the
top) with the answer the grader expects. The reader marks each item natural / correctly expected (the brief
beside it: draws-review-brief.md).

    PYTHONPATH=$PWD python benchmarks/draws_review_sample.py [--seed review-2026] [--out PATH]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from tooluse1.corpus import load_corpus
from tooluse1.draws import draw_corpus
from tooluse1.prompts import PROTOCOLS, format_call, render, system_prompt
from tooluse1.tools import TOOL_NAMES, TOOLS

OUT = Path(__file__).resolve().parent / "results" / "draws-review-sample.md"


def _turn(message: dict) -> str:
    if message.get("tool_calls"):
        return "(structured call) " + json.dumps(message["tool_calls"], ensure_ascii=False)
    role = message["role"] if message["role"] != "tool" else f"tool result ({message.get('name')})"
    return f"**{role}:** {message['content']}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", default="review-2026")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    public, manifest = load_corpus()
    drawn, _ = draw_corpus(public, manifest, args.seed, 1)
    lines = ["# Seeded draws: blind review sample", "",
             f"{len(drawn)} items, one per drawn case. Each shows the conversation the model is given (after the "
             "system prompt of its protocol, shown once below) and the answer the grader expects. Mark each item "
             "as the brief (draws-review-brief.md) says.", ""]
    for protocol in PROTOCOLS:
        lines += [f"## System prompt, protocol `{protocol}` (all tools offered; items offering fewer list fewer)",
                  "", "```", system_prompt(protocol, TOOL_NAMES), "```", ""]
    lines += ["## Items", ""]
    for n, case in enumerate(drawn, 1):
        protocol = PROTOCOLS[n % len(PROTOCOLS)]
        prompt = render(case, protocol)
        kind = f" ({case.kind})" if case.kind else ""
        lines += [f"### {n}. {case.lang.upper()} · {case.category}{kind} · {case.difficulty} · "
                  f"protocol `{protocol}`", "",
                  f"Tools offered: {', '.join(case.tools)}", ""]
        lines += [f"> {_turn(m)}" for m in prompt.messages[1:]]
        expect = case.expect
        if expect.kind == "call":
            assert expect.call is not None
            answer = f"one call, e.g.\n\n```\n{format_call(expect.right_call(), protocol)}\n```"
            # A keyword argument's example shows only the key words: say what the grader accepts, or a
            # reader takes the example for the whole expected query.
            for param in TOOLS[expect.call.name].params:
                if param.match == "keywords" and param.name in expect.call.arguments:
                    words = expect.call.arguments[param.name]
                    answer += (f"\n\nThe grader accepts any `{param.name}` that contains these key words (`a|b`: "
                               f"either; a word of 5+ letters may change its last two letters): `{words}`")
        else:
            answer = f"no call; {expect.describe()[len('no call; '):]}\n\nExample: {expect.reference}"
        lines += ["", f"**Expected:** {answer}", "", "Natural: __  Correctly expected: __  Note:", ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}: {len(drawn)} items")


if __name__ == "__main__":
    main()
