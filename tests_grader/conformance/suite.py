"""The call-format conformance suite: one YAML table per format (tests_grader/conformance/*.yaml).

Each table names the format, the serving engines whose tool-call parser serves it, and pairs of a model
output and the calls that output must yield (written for ToolUse.1 from each engine's documented format,
not copied from their tests):

    format: hermes
    engines: vLLM hermes; SGLang qwen25; llama.cpp Hermes 2 Pro
    pairs:
      - out: |-
          <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
        calls: [{get_weather: {city: Paris}}]
      - out: "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par"
        calls: []
        label: malformed          # optional: ToolUse.1's label; checked when given
      - out: ...
        calls: [...]              # what ToolUse.1 decides
        differs: why              # optional: the engines decide otherwise, and why ToolUse.1 does not follow

A pair agrees when the extraction has the same number of calls, the same names in order and equal
arguments by value (numbers by value, booleans only equal booleans), and the label when one is given.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tooluse1.parse import Extraction, extract

SUITE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Pair:
    """One output and what it must yield."""

    format: str
    index: int
    out: str
    calls: list[tuple[str, dict]]
    label: str | None
    differs: str | None = None   # set when the engines' parsers decide otherwise (a ToolUse.1 decision)


@dataclass(frozen=True)
class Table:
    format: str
    engines: str
    pairs: list[Pair]


def _calls(raw: Any, where: str) -> list[tuple[str, dict]]:
    if not isinstance(raw, list):
        raise ValueError(f"{where}: 'calls' must be a list of {{name: arguments}} maps")
    calls = []
    for item in raw:
        if not (isinstance(item, dict) and len(item) == 1):
            raise ValueError(f"{where}: each call is a one-key map {{name: arguments}}, got {item!r}")
        (name, args), = item.items()
        calls.append((str(name), args or {}))
    return calls


def load_tables(directory: Path = SUITE_DIR) -> list[Table]:
    """Every table of the suite, sorted by format name. Raises ValueError naming the file on a bad table."""
    tables = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as e:
            raise ValueError(f"{path.name}: not valid YAML: {e}") from None
        if not (isinstance(doc, dict) and {"format", "engines", "pairs"} <= set(doc)):
            raise ValueError(f"{path.name}: needs 'format', 'engines' and 'pairs'")
        pairs = [Pair(format=doc["format"], index=i, out=p["out"],
                      calls=_calls(p.get("calls"), f"{path.name} pair {i}"), label=p.get("label"),
                      differs=p.get("differs"))
                 for i, p in enumerate(doc["pairs"])]
        tables.append(Table(format=doc["format"], engines=doc["engines"], pairs=pairs))
    return tables


def same_value(got: Any, want: Any) -> bool:
    """Equal by value: numbers compare numerically, a boolean equals only a boolean, containers deeply."""
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and got is want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return float(got) == float(want)
    if isinstance(want, dict) and isinstance(got, dict):
        return set(got) == set(want) and all(same_value(got[k], want[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(same_value(g, w) for g, w in zip(got, want))
    return type(got) is type(want) and got == want


def disagreement(pair: Pair, ex: Extraction | None = None) -> str | None:
    """Why the extraction of pair.out differs from what the pair expects, or None when it agrees."""
    ex = ex if ex is not None else extract(pair.out)
    got = [(c.name, c.arguments) for c in ex.calls]
    if len(got) != len(pair.calls):
        return f"{len(got)} calls {got}, expected {len(pair.calls)} {pair.calls}"
    for (name, args), (want_name, want_args) in zip(got, pair.calls):
        if name != want_name or not same_value(args, want_args):
            return f"call {name} {args}, expected {want_name} {want_args}"
    if pair.label is not None and ex.label != pair.label:
        return f"label {ex.label}, expected {pair.label} ({ex.problem})"
    return None
