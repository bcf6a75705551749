"""Call-format conformance: every pair of tests_grader/conformance/*.yaml (see its suite.py) must agree."""
from __future__ import annotations

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
