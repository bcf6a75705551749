"""ToolUse.1's grader and BFCL's own AST checker side by side on the same outputs (issue 32, item 4; BENCHMARKS.md).

    python benchmarks/bfcl_side_by_side.py PATH/BFCL_v4_live_simple.json [--answers FILE]
        [--bfcl-python /work/venvs/bfcl/bin/python] [--examples 3] [--dump FILE]

The BFCL side is the pinned package `bfcl-eval==2026.3.23` (PINNED below), installed in an interpreter of its
own, because it pulls in dozens of packages (model SDKs, tree-sitter) the project must not depend on and is kept
out of pyproject on purpose:

    python3 -m venv /work/venvs/bfcl && /work/venvs/bfcl/bin/pip install bfcl-eval==2026.3.23 soundfile

(`soundfile`: the checker's import chain reaches qwen_agent, which imports it without declaring it.)

This script runs in the project's interpreter and sends every (item, output) pair to that interpreter once,
through a subprocess (`--bfcl-python`), where `bfcl_eval.eval_checker.ast_eval.ast_checker.ast_checker` grades
them; nothing of bfcl-eval is imported here. The package also ships the data: the question file is
`site-packages/bfcl_eval/data/BFCL_v4_live_simple.json`, its possible answers `possible_answer/` beside it
(`--answers` otherwise). Nothing of the data is committed.

What it does, per item of a live single-call category (live_simple or live_multiple):

1. imports the file with `python -m tooluse1 import bfcl` (the same suite a user gets) and loads it;
2. writes outputs by rule, each a list of calls (or a text answer): the oracle's right answer (ToolUse.1's
   json-protocol oracle output for the case) and perturbations of it (PERTURBATIONS: a wrong value, a
   required argument missing, an optional argument stated as its declared default, an undeclared argument, a
   value written as a string, the first string value respelled, an optional argument left out, no call, a
   wrong function name, a second call); a perturbation that does not apply to an item (no string argument,
   say) is not written for it;
3. grades each output with ToolUse.1's grader (json protocol: the calls as JSON objects, one a line; a text
   answer as itself) and with BFCL's checker (the calls as BFCL's function-calling decoder hands them over,
   `[{name: arguments}]`; a text answer is what BFCL's runner reports as a failed decode, so it fails there
   without reaching the checker);
4. prints the counts (agree-pass, agree-fail, ToolUse.1-only pass, BFCL-only pass), overall and per output
   kind, and each disagreement bucketed by reason (BUCKETS) with a few examples.

Items the importer leaves out (their labelled call refuses its own schema) have no ToolUse.1 case and are
only counted. `--dump FILE` writes every graded pair as JSON lines for a closer look.
"""
from __future__ import annotations

import argparse
import copy
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from tooluse1.grade import grade
from tooluse1.selftest import oracle_output
from tooluse1.suite import load_suite

PINNED = "bfcl-eval==2026.3.23"

# The BFCL side, run in the bfcl-eval interpreter. It reads [{"id", "category", "functions", "answer",
# "output"}] on stdin and writes one {"valid", "error_type", "error"} per pair. An output of None stands for
# a reply BFCL's decoder cannot read as calls (a text answer): its runner fails such an item before the
# checker, and so does this. The model name only matters for dotted function names: BFCL rewrites the
# expected name's dots to underscores for models whose API refuses dots; a prompt-mode model keeps names as
# written, as ToolUse.1's json protocol does.
BFCL_SIDE = r"""
import json, sys
from importlib.metadata import version
from bfcl_eval.constants.enums import Language
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
model = sys.argv[1]
out = []
for pair in json.load(sys.stdin):
    if pair["output"] is None:
        out.append({"valid": False, "error_type": "ast_decoder:decoder_failed",
                    "error": ["the reply holds no function call (BFCL's decoder fails)"]})
        continue
    try:
        r = ast_checker(pair["functions"], pair["output"], pair["answer"], Language.PYTHON,
                        pair["category"], model)
    except Exception as e:   # the checker's own crash is a failure there, recorded as such
        r = {"valid": False, "error_type": "checker_exception", "error": [f"{type(e).__name__}: {e}"]}
    out.append({"valid": bool(r["valid"]), "error_type": r.get("error_type", ""),
                "error": [str(x) for x in r.get("error", [])]})
json.dump({"version": version("bfcl-eval"), "verdicts": out}, sys.stdout)
"""

PERTURBATIONS = ("right", "wrong_value", "missing_required", "default_stated", "extra_undeclared",
                 "value_as_string", "string_respelled", "optional_left_out", "no_call", "wrong_name",
                 "second_call")

NO_CALL_TEXT = "I'm sorry, I can't help with that."


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _category(item_id: str) -> str:
    return item_id.rsplit("_", 1)[0]


def _schema(item: dict, name: str) -> dict:
    return next((f for f in item["function"] if f["name"] == name), {}).get("parameters", {})


def _wrong(value: Any, prop: dict) -> Any:
    """A different value of the same type: another enum value where there is one."""
    enum = prop.get("enum")
    if enum:
        other = [e for e in enum if e != value and str(e).lower() != str(value).lower()]
        if other:
            return other[0]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, float):
        return value + 7.5
    if isinstance(value, str):
        return "zz " + value if value else "zz"
    if isinstance(value, list):
        return value[:-1] if value else ["zz"]
    return None       # a dict: no rule; the next argument is tried


def _respelled(value: str) -> str:
    # Case and the punctuation BFCL's string normalisation drops: a model writing the same text differently.
    out = value.upper() if value.lower() == value else value.lower()
    return out.replace(", ", " ").replace(".", "").replace("-", " ")


def perturb(kind: str, item: dict, right: dict) -> list[dict] | str | None:
    """The output of `kind` for an item whose right call is `right` ({"name", "arguments"}): a list of
    calls, a text answer, or None when the rule does not apply to this item."""
    name, args = right["name"], right["arguments"]
    schema = _schema(item, name)
    props, required = schema.get("properties", {}), schema.get("required", [])
    call = copy.deepcopy(right)
    if kind == "right":
        return [call]
    if kind == "no_call":
        return NO_CALL_TEXT
    if kind == "second_call":
        return [call, copy.deepcopy(right)]
    if kind == "wrong_name":
        others = [f["name"] for f in item["function"] if f["name"] != name]
        call["name"] = others[0] if others else name + "_v2"
        return [call]
    if kind == "wrong_value":
        for k, v in args.items():
            w = _wrong(v, props.get(k, {}))
            if w is not None and w != v:
                call["arguments"][k] = w
                return [call]
        return None
    if kind == "missing_required":
        k = next((k for k in required if k in args), None)
        if k is None:
            return None
        del call["arguments"][k]
        return [call]
    if kind == "default_stated":
        k = next((k for k, p in props.items() if k not in args and k not in required and "default" in p
                  and p["default"] is not None), None)
        if k is None:
            return None
        call["arguments"][k] = props[k]["default"]
        return [call]
    if kind == "extra_undeclared":
        call["arguments"]["note"] = "as discussed"
        return [call]
    if kind == "value_as_string":
        k = next((k for k, v in args.items() if not isinstance(v, str)), None)
        if k is None:
            return None
        v = args[k]
        call["arguments"][k] = json.dumps(v) if isinstance(v, (list, dict, bool)) else str(v)
        return [call]
    if kind == "string_respelled":
        k = next((k for k, v in args.items() if isinstance(v, str) and _respelled(v) != v
                  and not props.get(k, {}).get("enum")), None)
        if k is None:
            return None
        call["arguments"][k] = _respelled(args[k])
        return [call]
    if kind == "optional_left_out":
        k = next((k for k in args if k not in required), None)
        if k is None:
            return None
        del call["arguments"][k]
        return [call]
    raise ValueError(kind)


def as_json_protocol(output: list[dict] | str) -> str:
    """ToolUse.1's json protocol: one JSON call object a line (a second call is a second line)."""
    if isinstance(output, str):
        return output
    return "\n".join(json.dumps({"name": c["name"], "arguments": c["arguments"]}, ensure_ascii=False)
                     for c in output)


def as_bfcl(output: list[dict] | str) -> list[dict] | None:
    """What BFCL's function-calling decoder hands its checker: [{name: arguments}] (None: no calls)."""
    if isinstance(output, str):
        return None
    return [{c["name"]: c["arguments"]} for c in output]


def bfcl_verdicts(python: str, model: str, pairs: list[dict]) -> tuple[str, list[dict]]:
    done = subprocess.run([python, "-c", BFCL_SIDE, model], input=json.dumps(pairs), capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the BFCL side failed ({python}; install {PINNED} there):\n{done.stderr[-3000:]}")
    got = json.loads(done.stdout)
    return got["version"], got["verdicts"]


# Each disagreement's bucket: (output kind, which side passed[, what]) -> the reason, read from the two graders'
# rules (ToolUse.1: SPEC and tooluse1/matching.py; BFCL: ast_checker.py of the pinned package). A pair not
# listed here is bucketed by BFCL's error type so nothing goes unreported.
BUCKETS = {
    ("default_stated", "tooluse1"): "optional argument stated as its declared default: ToolUse.1 passes it "
                                    "(SPEC); BFCL refuses a parameter its possible answer does not list",
    ("extra_undeclared", "tooluse1"): "undeclared extra argument: ToolUse.1 tolerates (records) it; BFCL "
                                      "refuses any parameter not in the function's schema",
    ("value_as_string", "tooluse1"): "type coercion: ToolUse.1 reads a string holding the declared type's "
                                     "value (\"5\", \"true\", a JSON list); BFCL requires the declared type",
    ("optional_left_out", "tooluse1"): "optional argument left out whose expected value is its declared "
                                       "default: ToolUse.1 passes it (SPEC); BFCL needs \"\" among the "
                                       "possible answers",
    ("optional_left_out", "tooluse1", "object"): "ToolUse.1 defect: an object argument left out passes when "
                                                 "its declared default is {} (the default check compares {} "
                                                 "as expected against the expected value, and an object "
                                                 "comparison tolerates extra keys); BFCL fails it",
    ("missing_required", "tooluse1"): "a required argument with a declared default, left out, the expected "
                                      "value being that default: ToolUse.1's default rule does not look at "
                                      "`required`; BFCL fails the missing required argument",
    ("right", "tooluse1"): "an expected null (possible answer [None]): the importer reads null as \"may be "
                           "left out\", so the oracle leaves it out; BFCL wants the argument written as null",
    ("string_respelled", "bfcl"): "string normalisation: BFCL drops spaces and ,./-_*^ and case before "
                                  "comparing; ToolUse.1 compares text more strictly",
    ("string_respelled", "bfcl", "number"): "string normalisation through a number: BFCL's drops the decimal "
                                            "point and minus sign inside a string too (\"34.0522, -118.2437\" "
                                            "passes as \"340522  1182437\"); ToolUse.1 fails the changed value",
    ("string_respelled", "tooluse1"): "string comparison: ToolUse.1 accepts the respelling, BFCL's "
                                      "normalisation does not",
}


def bucket(kind: str, side: str, item: dict, right: dict, output: list[dict] | str, bfcl: dict) -> str:
    if kind == "optional_left_out" and side == "tooluse1" and not isinstance(output, str):
        # Which argument was left out, and does the expected value equal its declared default?
        (gone,) = set(right["arguments"]) - set(output[0]["arguments"])
        prop = _schema(item, right["name"]).get("properties", {}).get(gone, {})
        if "default" in prop and prop["default"] != right["arguments"][gone] and prop.get("type") == "dict":
            return BUCKETS[(kind, side, "object")]
    if kind == "string_respelled" and side == "bfcl":
        (value,) = [v for k, v in right["arguments"].items() if output[0]["arguments"][k] != v]
        if re.search(r"\d\.\d|(^|[\s,(])-\d", value):     # a decimal point or a minus sign
            return BUCKETS[(kind, side, "number")]
    return BUCKETS.get((kind, side)) or f"{kind}, {side} only: BFCL {bfcl['error_type']}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="a BFCL live single-call question file (BFCL_v4_live_simple.json, ...)")
    ap.add_argument("--answers", default=None, help="its possible-answer file (default: possible_answer/ beside)")
    ap.add_argument("--bfcl-python", default="/work/venvs/bfcl/bin/python",
                    help=f"an interpreter with {PINNED} installed")
    ap.add_argument("--bfcl-model", default="gpt-4o-2024-11-20",
                    help="the BFCL model name the checker is told (matters only for dotted names)")
    ap.add_argument("--examples", type=int, default=2, help="examples printed per disagreement bucket")
    ap.add_argument("--dump", default=None, help="write every graded pair here (JSON lines)")
    args = ap.parse_args()
    source = Path(args.source)
    answers_path = Path(args.answers) if args.answers else source.parent / "possible_answer" / source.name
    items = {r["id"]: r for r in _rows(source)}
    truth = {r["id"]: r["ground_truth"] for r in _rows(answers_path)}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "tooluse1", "import", "bfcl", str(source), "-o", f"{tmp}/suite",
               "--answers", str(answers_path)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"import failed:\n{done.stdout}{done.stderr}")
        print(done.stdout.strip().splitlines()[0] if done.stdout.strip() else "imported")
        suite = load_suite(f"{tmp}/suite")
    pairs, meta = [], []
    for case in suite.cases:
        item = items[case.id]
        right = json.loads(oracle_output(case, "json"))     # written by the case's own tools
        for kind in PERTURBATIONS:
            output = perturb(kind, item, right)
            if output is None:
                continue
            pairs.append({"id": case.id, "category": _category(case.id), "functions": item["function"],
                          "answer": truth[case.id], "output": as_bfcl(output)})
            meta.append((case, kind, output, item, right))
    version, bfcl = bfcl_verdicts(args.bfcl_python, args.bfcl_model, pairs)
    print(f"{len(items)} items, {len(suite.cases)} imported as cases, {len(items) - len(suite.cases)} left out by "
          f"the importer; {len(pairs)} outputs graded by ToolUse.1 (json protocol) and by bfcl-eval {version} "
          f"(ast_checker, model {args.bfcl_model})")
    table: dict[str, Counter] = defaultdict(Counter)
    buckets: dict[str, list] = defaultdict(list)
    dump = []
    for (case, kind, output, item, right), b in zip(meta, bfcl):
        v = grade(case, as_json_protocol(output), "json")
        cell = {(True, True): "agree pass", (False, False): "agree fail",
                (True, False): "ToolUse.1 only", (False, True): "BFCL only"}[(v.passed, b["valid"])]
        table[kind][cell] += 1
        table["all"][cell] += 1
        row = {"id": case.id, "kind": kind, "output": as_json_protocol(output), "tooluse1": v.passed,
               "tooluse1_reason": v.reason, "bfcl": b["valid"], "bfcl_error": b["error_type"],
               "bfcl_detail": "; ".join(b["error"])[:300]}
        dump.append(row)
        if v.passed != b["valid"]:
            side = "tooluse1" if v.passed else "bfcl"
            row["bucket"] = bucket(kind, side, item, right, output, b)
            buckets[row["bucket"]].append(row)
    cols = ("agree pass", "agree fail", "ToolUse.1 only", "BFCL only")
    print("\n| output | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
    for kind in (*PERTURBATIONS, "all"):
        if table[kind]:
            print(f"| {kind} | " + " | ".join(str(table[kind][c]) for c in cols) + " |")
    print("\ndisagreements by reason:")
    for name, rows in sorted(buckets.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(rows)}  {name}")
        for r in rows[:args.examples]:
            print(f"    {r['id']}: {r['output'][:160]}")
            print(f"      ToolUse.1 {'pass' if r['tooluse1'] else 'fail'}: {r['tooluse1_reason'][:160]}")
            print(f"      BFCL {'pass' if r['bfcl'] else 'fail'}: {r['bfcl_error']} {r['bfcl_detail'][:160]}")
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in dump),
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
