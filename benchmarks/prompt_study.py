"""Prompt study: does our own prompt text shape the answers it scores? (issues 11 and 14)

Runs one model over the corpus under several system-prompt variants, grades every answer with the current
grader, and reports per variant and protocol the score and the three behaviours with Wilson intervals, the
paired difference between variants (Newcombe's interval for matched pairs, exact McNemar p) and the share of
answers that echo prompt text. Every variant uses the same corpus, grader, model and decoding; only the
prompt differs, so the items are paired.

    python benchmarks/prompt_study.py --model default --variants v1,v1-no-marker,v2-example,v2 \
        --out benchmarks/results/prompt_study-default.json
    python benchmarks/prompt_study.py --model default --variants v2,v3 --category negative \
        --out results/prompt_study-v3-default.json      # a subset: the items the change is about

Variants (each a full rendering of every item):
  v1            the 1.x prompt: a concrete example call, "answer from your own knowledge" in rule 3, and a
                rule 4 that quotes the marker tool results start with; history results as user turns with it
  v1-no-marker  v1 without rule 4, history results as the chat template's tool turns (the issue-11 change)
  v2-example    v1-no-marker with the 2.0 calling policy (the 2.0 rules) (the issue-14 change)
  v2            the 2.0 prompt: the 2.0 policy, placeholders instead of a concrete example call; rule 3 ends
                "say that you cannot" (the 2.0 rules, verbatim below)
  v3            the 3.0 prompt as shipped (tooluse1.prompts): rule 3 states that a translation asked for
                without a translate tool is written by the model (issue 20, kind 11)
Answers are resumable per variant (`--resume-dir`), so an interrupted study continues where it stopped.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tooluse1 import prompts as P  # noqa: E402
from tooluse1.compare import compare, format_comparison  # noqa: E402
from tooluse1.corpus import Case, load_corpus  # noqa: E402
from tooluse1.harness import BenchmarkRun, RunConfig  # noqa: E402
from tooluse1.metrics import Rate  # noqa: E402
from tooluse1.prompts import Prompt, item_id  # noqa: E402
from tooluse1.results import ResultsFile, build_results, write_json_atomic  # noqa: E402
from tooluse1.tools import TOOLS, Call  # noqa: E402

# ----------------------------------------------------------------------------- the 1.x prompt, verbatim

_V1_EXAMPLE = Call("get_weather", {"city": "Berlin", "unit": "celsius"})
_V1_FORMAT = {
    "json": ("To call a tool, reply with exactly one JSON object and nothing else:\n"
             "{\"name\": <tool name>, \"arguments\": {<argument name>: <value>, ...}}\n"
             "Example:\n" + P.format_call(_V1_EXAMPLE, "json")),
    "xml": ("To call a tool, reply with exactly one block in this format and nothing else:\n"
            "<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nVALUE\n</parameter>\n</function>\n"
            "</tool_call>\n(one <parameter> block per argument)\nExample:\n" + P.format_call(_V1_EXAMPLE, "xml")),
    "plain": ("To call a tool, reply with exactly one line in this format and nothing else:\n"
              "TOOL <tool name> | <argument>=<value> | <argument>=<value>\n"
              "Example:\n" + P.format_call(_V1_EXAMPLE, "plain")),
}
_V1_RULES_1_3 = """Rules:
1. Call a tool only when one of the tools above is needed to answer and you know every required argument. Then reply with the call only: one call, no other text.
2. If a tool is needed but a required argument is missing or unclear, do not call it: ask the user a short question for the missing information.
3. If no tool above fits the request, if you can answer from your own knowledge, or if the user asks you not to use tools, answer in plain text and do not write any tool call. Never pretend to do something no tool above can do; say you cannot."""  # noqa: E501 - verbatim
_V1_RULE_4 = ('4. Tool results come back in a message that starts with "TOOL RESULT". Use them to answer, or make '
              'the next call if the user asks for more.')
V1_MARKER = "TOOL RESULT"
# The 2.0 calling policy, verbatim (3.0 changed rule 3's last sentence).
_V2_RULES = """Rules:
1. Use a tool whenever one of your tools can do what the user asks: calculating, converting units or currencies, translating, looking up current information (weather, local time, the web) and taking actions (timers, notes). Then reply with the call only: exactly one call and no other text.
2. If a tool is needed but the user has not given a required argument, do not call it and do not guess: ask the user a short question for the missing information.
3. Answer in plain text, without any tool call, when no tool is needed (greetings, opinions, and well-known facts such as capitals, authors, historical dates, definitions or scientific facts: you know these, do not search for them), when the user asks you not to use tools, or when none of your tools can do what the user asks. Never pretend to have done something you cannot do: say that you cannot."""  # noqa: E501 - verbatim


def _system(protocol: str, tools: Sequence[str], fmt: str, rules: str) -> str:
    decl = "\n".join(json.dumps(TOOLS[t].json_schema(), ensure_ascii=False) for t in tools)
    return f"You are a helpful assistant with access to these tools:\n{decl}\n\n{fmt}\n\n{rules}"


def _v1_history(case: Case, protocol: str) -> list[dict]:
    """1.x: tool results as user turns starting with the marker; same-role turns merged."""
    out: list[dict] = []
    for m in case.messages:
        if m["role"] == "assistant" and "tool_call" in m:
            tc = m["tool_call"]
            role, text = "assistant", P.format_call(Call(tc["name"], dict(tc.get("arguments") or {})), protocol)
        elif m["role"] == "tool":
            role, text = "user", f"{V1_MARKER} ({m.get('name', 'tool')}): {m['content']}"
        else:
            role, text = m["role"], m["content"]
        if out and out[-1]["role"] == role:
            out[-1] = {"role": role, "content": out[-1]["content"] + "\n\n" + text}
        else:
            out.append({"role": role, "content": text})
    return out


def _prompt(case: Case, protocol: str, system: str, history: list[dict]) -> Prompt:
    return Prompt(item_id=item_id(case.id, protocol), case_id=case.id, protocol=protocol,
                  messages=({"role": "system", "content": system}, *history),
                  shared_prefix_key=hashlib.sha256(system.encode()).hexdigest()[:16])


def render_variant(variant: str, case: Case, protocol: str) -> Prompt:
    """The Prompt of one item under one study variant (see the module doc)."""
    if variant == "v3":
        return P.render(case, protocol)
    if variant == "v2":
        shipped = P.render(case, protocol)
        system = shipped.messages[0]["content"].replace(P.RULES, _V2_RULES)
        return dataclasses.replace(shipped, messages=({"role": "system", "content": system}, *shipped.messages[1:]),
                                   shared_prefix_key=hashlib.sha256(system.encode()).hexdigest()[:16], sha256="")
    if variant == "v1":
        rules, history = _V1_RULES_1_3 + "\n" + _V1_RULE_4, _v1_history(case, protocol)
    elif variant == "v1-no-marker":
        rules, history = _V1_RULES_1_3, P.render_messages(case.messages, protocol)
    elif variant == "v2-example":
        rules, history = _V2_RULES, P.render_messages(case.messages, protocol)
    else:
        raise SystemExit(f"--variants: unknown variant {variant!r}; use {', '.join(VARIANTS)}")
    return _prompt(case, protocol, _system(protocol, case.tools, _V1_FORMAT[protocol], rules), history)


VARIANTS = ("v1", "v1-no-marker", "v2-example", "v2", "v3")

# ----------------------------------------------------------------------------- echo of prompt text

_WORD = re.compile(r"\w+", re.UNICODE)
SHINGLE = 6


def _shingles(text: str, n: int = SHINGLE) -> set[tuple[str, ...]]:
    words = [w.casefold() for w in _WORD.findall(text)]
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def echoes_prompt(output: str, prompt: Prompt, case: Case) -> bool:
    """True when an answer copies text of our own prompt that is neither the user's words nor a right answer:
    a run of 6 words from the system prompt's instructions (the tool schemas excluded), a verbatim marker,
    or the prompt's example call where the case expects another one."""
    system = prompt.messages[0]["content"]
    instructions = system.split("\n\n", 1)[1] if "\n\n" in system else system   # drop the schema lines
    if V1_MARKER in output and V1_MARKER not in " ".join(str(m.get("content")) for m in case.messages):
        return True
    own = _shingles(" ".join(str(m.get("content") or "") for m in case.messages))
    if case.expect.call is not None:
        own |= _shingles(json.dumps(case.expect.call.arguments, ensure_ascii=False) + " " + case.expect.call.name)
    if case.expect.reference:
        own |= _shingles(case.expect.reference)
    return bool((_shingles(output) & _shingles(instructions)) - own)


# ----------------------------------------------------------------------------- running

class VariantRun(BenchmarkRun):
    """A BenchmarkRun whose prompts come from one study variant (resume, grading and records unchanged)."""

    variant: str = "v2"

    def prompts_for(self, items):
        return [render_variant(self.variant, self.cases[c], p) for c, p in items]


def run_variant(model: str, variant: str, cases: list[Case], manifest: dict, protocols: Sequence[str],
                resume_dir: Path, threads: int | None) -> tuple[dict, dict[str, bool]]:
    """(the variant's results document, {item id: the answer echoes prompt text})."""
    config = RunConfig(model=model, protocols=tuple(protocols), threads=threads,
                       resume=resume_dir / f"{Path(model).name}-{variant}.resume.jsonl")
    run = VariantRun(config, {c.id: c for c in cases}, manifest)
    run.variant = variant
    items = [(c.id, p) for c in cases for p in protocols]
    t0 = time.perf_counter()
    try:
        generated = run.generate(items)
        records = [run.record(c, p) for c, p in items]
        echo = {r.item_id: echoes_prompt(r.completion.text, render_variant(variant, r.case, r.protocol), r.case)
                for r in records}
        prov = {**run.provenance(), "prompt_variant": variant, "generation_s": round(time.perf_counter() - t0, 1),
                "generated_now": generated}
        return build_results(prov, records), echo
    finally:
        run.close()


def echo_table(echoes: dict[str, dict[str, bool]], protocols: Sequence[str]) -> list[str]:
    lines = ["| variant | " + " | ".join(protocols) + " | all |", "|---" * (len(protocols) + 2) + "|"]
    for variant, echo in echoes.items():
        cells = []
        for p in [*protocols, None]:
            flags = [v for item, v in echo.items() if p is None or item.endswith(f"-{p}")]
            cells.append(Rate(sum(flags), len(flags)).fmt().strip())
        lines.append(f"| {variant} | " + " | ".join(cells) + " |")
    return lines


def _select(ap: argparse.ArgumentParser, cases: list[Case], flag: str, attr: str, spec: str) -> list[Case]:
    """The cases whose `attr` is one of the comma-separated values of --`flag` (all when it is empty)."""
    wanted = {v.strip() for v in spec.split(",") if v.strip()}
    if not wanted:
        return cases
    unknown = wanted - {getattr(c, attr) for c in cases}
    if unknown:
        ap.error(f"--{flag}: no selected case has {attr} {', '.join(sorted(unknown))}")
    return [c for c in cases if getattr(c, attr) in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--protocol", default="all")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--category", default="", help="only the cases of these categories (comma-separated)")
    ap.add_argument("--kind", default="", help="only the negative cases of these kinds (comma-separated)")
    ap.add_argument("--resume-dir", default="results/prompt_study")
    ap.add_argument("--out", required=True, help="JSON file with every variant's results document and the pairs")
    args = ap.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"--variants: unknown variant {v!r}; use {', '.join(VARIANTS)}")
    protocols = P.parse_protocols(args.protocol)
    cases, manifest = load_corpus()
    for flag, attr in (("category", "category"), ("kind", "kind")):
        cases = _select(ap, cases, flag, attr, getattr(args, flag))
    resume_dir = Path(args.resume_dir)
    resume_dir.mkdir(parents=True, exist_ok=True)
    docs: dict[str, dict] = {}
    echoes: dict[str, dict[str, bool]] = {}
    for v in variants:
        print(f"== {v}: {len(cases) * len(protocols)} items", flush=True)
        docs[v], echoes[v] = run_variant(args.model, v, cases, manifest, protocols, resume_dir, args.threads)
        s = docs[v]["summary"]["overall"]["score"]
        print(f"   score {Rate(s['k'], s['n']).fmt()}  ({docs[v]['provenance']['generation_s']} s)", flush=True)
    files = {v: ResultsFile.from_document(d, v, validate=False) for v, d in docs.items()}
    steps = list(zip(variants, variants[1:])) + ([(variants[0], variants[-1])] if len(variants) > 2 else [])
    pairs = {f"{a} -> {b}": compare(files[a], files[b], allow_different_prompts=True) for a, b in steps}
    for name, comparison in pairs.items():
        print(f"\n## {name}\n" + format_comparison(comparison, max_flips=0))
    print("\n## answers that echo prompt text\n" + "\n".join(echo_table(echoes, protocols)))
    out = Path(args.out)
    write_json_atomic(out, {"model": args.model, "variants": variants, "documents": docs, "echo": echoes,
                            "pairs": {k: v.as_dict() for k, v in pairs.items()}})
    print(f"\nwritten: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
