"""The grader accuracy card (issue 31, stage 3): how often the grader agrees with outputs written and labelled
by independent annotators, per verdict kind and language, with Wilson intervals, beside what a constant grader
(always pass, always fail) would reach on the same rows.

The labelled sets live in a checkout's tests_grader/ (they are test data): the earlier independent set
(`test_independent_set.py`, its base outputs), rounds 6 and 7 (held out when written, for the 3.0 rules; the
rules were fixed on their disagreements afterwards, so they are development data now) and round 8 (held out for
4.0.0: written before the final rule pass and graded once; its 10 disagreements were fixed by rule in 4.1.1, so it
is development data too until the next held-out round is added here). `compute_card` grades them all with the current
grader; `python -m tooluse1 grader-card --write` stores the card as package data (tooluse1/data/grader_card.json)
so an installed wheel prints the card of its own release; a test keeps the stored card equal to a fresh one.
"""
from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooluse1.corpus import DATA_DIR, ROOT, SPEC_VERSION, Case, load_corpus
from tooluse1.grade import grade
from tooluse1.stats import wilson

CARD_PATH = DATA_DIR / "grader_card.json"
TESTS_DIR = ROOT / "tests_grader"
KINDS = ("call", "knowledge", "capability_trap", "instruction_trap", "chit_chat", "clarification")


@dataclass(frozen=True)
class Source:
    """One labelled set: the module and the name of its rows (kind, case id, protocol, output, finish,
    expected), whether it is held out from the current rules, and a line saying what it is."""

    name: str
    module: str
    rows: str
    held_out: bool
    note: str


SOURCES = (
    Source("earlier set", "test_independent_set", "BASE", False,
           "issue 20-21's independent judge (base outputs, one style each); development data"),
    Source("round 6", "independent_round6", "ROUND6", False,
           "held out for 3.0.0 (97.7% when graded once); its disagreements were fixed since"),
    Source("round 7", "independent_round7", "ROUND7", False,
           "held out for 3.0.1 (98.6% when graded once); its disagreements were fixed since"),
    Source("round 8", "independent_round8", "ROUND8", False,
           "held out for 4.0.0 (97.6% when graded once); its disagreements were fixed in 4.1.1"),
    Source("round 9", "independent_round9", "ROUND9", True,
           "held out for 4.1.1: written blind and committed before 4.1.1's rule pass, graded once by it"),
)


def verdict_kind(case: Case) -> str:
    """The card's verdict kind of a case: call, clarification, or the negative kind."""
    if case.expect.kind == "call":
        return "call"
    if case.expect.kind == "clarify":
        return "clarification"
    return case.kind or "knowledge"


def _rows(source: Source, tests_dir: Path) -> list[tuple]:
    if str(tests_dir) not in sys.path:
        sys.path.insert(0, str(tests_dir))
    return list(getattr(importlib.import_module(source.module), source.rows))


def _cell(agree: int, n: int, passes: int) -> dict[str, Any]:
    lo, hi = wilson(agree, n)
    return {"n": n, "agree": agree, "rate": round(agree / n, 4) if n else None, "ci": [round(lo, 4), round(hi, 4)],
            "always_pass": round(passes / n, 4) if n else None,
            "always_fail": round((n - passes) / n, 4) if n else None}


def grade_rows(rows: Iterable[tuple], cases: dict[str, Case]) -> dict[tuple[str, str], list[int]]:
    """{(kind, lang): [rows, agreeing, labelled pass]} of labelled rows graded by the current grader."""
    counts: dict[tuple[str, str], list[int]] = {}
    for _, case_id, protocol, output, finish, expected in rows:
        case = cases[case_id]
        cell = counts.setdefault((verdict_kind(case), case.lang), [0, 0, 0])
        cell[0] += 1
        cell[1] += grade(case, output, protocol, finish_reason=finish).passed is expected
        cell[2] += bool(expected)
    return counts


def compute_card(tests_dir: Path = TESTS_DIR, sources: Sequence[Source] = SOURCES) -> dict[str, Any]:
    """The card: per source, per verdict kind and language (and in total), the grader's agreement with the
    labels, its Wilson 95% interval and the agreement of the constant graders. Needs the checkout's tests."""
    cases = {c.id: c for c in load_corpus()[0]}
    out: dict[str, Any] = {"spec_version": SPEC_VERSION, "kinds": list(KINDS), "sources": []}
    for source in sources:
        counts = grade_rows(_rows(source, tests_dir), cases)
        order = sorted(counts, key=lambda key: (KINDS.index(key[0]), key[1]))
        cells = [{"kind": kind, "lang": lang, **_cell(counts[kind, lang][1], counts[kind, lang][0],
                                                        counts[kind, lang][2])} for kind, lang in order]
        total = [sum(v[i] for v in counts.values()) for i in range(3)]
        out["sources"].append({"name": source.name, "held_out": source.held_out, "note": source.note,
                               "total": _cell(total[1], total[0], total[2]), "cells": cells})
    return out


def card_json(card: dict[str, Any]) -> str:
    """The card as stored (sorted keys, UTF-8, a final newline)."""
    return json.dumps(card, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def stored_card(path: Path = CARD_PATH) -> dict[str, Any] | None:
    """The card stored with the package, or None when there is none."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def render_card(card: dict[str, Any], markdown: bool = False) -> str:
    """The card as a text (or Markdown) table: one row per source, kind and language."""
    head = ["source", "kind", "lang", "n", "grader agrees", "95% CI", "always pass", "always fail"]
    lines = [f"Grader accuracy card, spec {card['spec_version']}: agreement with independently written and "
             f"labelled outputs (held out: {', '.join(s['name'] for s in card['sources'] if s['held_out']) or 'none'})"]
    rows = []
    for s in card["sources"]:
        for c in [*s["cells"], {"kind": "all", "lang": "", **s["total"]}]:
            rows.append([s["name"] + (" (held out)" if s["held_out"] else ""), c["kind"], c["lang"], str(c["n"]),
                         f"{c['agree']}/{c['n']} {_pct(c['rate'])}", f"[{_pct(c['ci'][0])}, {_pct(c['ci'][1])}]",
                         _pct(c["always_pass"]), _pct(c["always_fail"])])
    if markdown:
        lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(x) for x in col) for col in zip(head, *rows)]
        lines += ["  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip() for r in [head, *rows]]
    lines += [""] + [f"{s['name']}: {s['note']}" for s in card["sources"]]
    return "\n".join(lines) + "\n"
