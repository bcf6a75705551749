"""Call-format conformance: every pair of tests_grader/conformance/*.yaml (see its suite.py) must agree."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance.suite import Pair, disagreement, load_tables, same_value

TABLES = load_tables()
PAIRS = [p for t in TABLES for p in t.pairs]


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{p.format}-{p.index}" for p in PAIRS])
def test_pair_agrees(pair: Pair):
    assert disagreement(pair) is None, f"{pair.format} #{pair.index}: {disagreement(pair)}\n{pair.out}"


def test_suite_covers_the_formats():
    """The suite is as wide as the engines' parsers: many formats, no-call and broken cases among them."""
    assert len(TABLES) >= 40 and len(PAIRS) >= 400
    assert sum(not p.calls for p in PAIRS) >= 60
    assert len({t.format for t in TABLES}) == len(TABLES)


@pytest.mark.parametrize("got,want,same", [
    (1, 1.0, True), (True, 1, False), (1, True, False), ("1", 1, False), ({"a": [1, "x"]}, {"a": [1.0, "x"]}, True),
    ({"a": 1}, {"a": 1, "b": 2}, False), (None, None, True), (False, False, True),
])
def test_same_value_is_strict_about_types(got, want, same):
    assert same_value(got, want) is same


def test_the_benchmarks_table_is_what_the_script_prints(capsys):
    """BENCHMARKS.md's conformance table is the output of benchmarks/conformance_table.py for this suite."""
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("conformance_table", root / "benchmarks" / "conformance_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main() == 0
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    doc = (root / "BENCHMARKS.md").read_text(encoding="utf-8")
    stale = [line for line in table if line not in doc]
    assert not stale, "BENCHMARKS.md is stale; re-run benchmarks/conformance_table.py:\n" + "\n".join(stale)
