"""The corpus contract (tests_grader/corpus_contract.py) holds, and it is the only test file that pins it.

The table is checked against the loaded corpus and tools, so a corpus change fails here once, with the
difference; every other test derives its counts from the table or from the corpus. The guard reads every
other test module's syntax tree: an integer constant equal to the case or item count, a string that says
either as a number, or one literal naming all the tools is a pinned contract, reported with its line.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import corpus_contract as contract
import pytest

from tooluse1.corpus import load_corpus
from tooluse1.tools import TOOL_NAMES, TOOLS

HERE = Path(__file__).resolve().parent
# The table itself, and this guard (which writes pins on purpose to show it finds them).
NOT_ASSERTIONS = {"corpus_contract.py", "test_contract.py"}
# Annotators' labelled outputs are data, not assertions: an answer may list every tool the prompt offered.
LABELLED_DATA = "independent_round"
PINNED_NUMBERS = {contract.N_CASES, contract.N_ITEMS}


@pytest.fixture(scope="module")
def cases():
    return load_corpus()[0]


def test_the_table_is_the_loaded_corpus(cases):
    loaded = Counter((c.category, c.lang) for c in cases)
    assert dict(loaded) == contract.CASES, {k: (loaded.get(k, 0), contract.CASES.get(k, 0))
                                           for k in set(loaded) | set(contract.CASES)
                                           if loaded.get(k, 0) != contract.CASES.get(k, 0)}
    for case in cases:
        assert case.expectation == contract.NO_CALL_CATEGORIES.get(case.category, "call")
        if case.category == "negative":
            assert case.expectation == "no_call"
    assert len(cases) == contract.N_CASES


def test_the_tool_contract_is_the_loaded_tools():
    assert TOOL_NAMES == contract.TOOL_NAMES
    for name, expected in contract.TOOLS.items():
        tool = TOOLS[name]
        loaded = (tuple(p.name for p in tool.params), tuple(tool.required), tool.effect)
        assert loaded == expected, name
        schema = tool.json_schema()            # what a prompt shows: the same names and required list
        assert schema["name"] == name and tuple(schema["parameters"]["properties"]) == expected.params
        assert tuple(schema["parameters"]["required"]) == expected.required


def pinned_in(path: Path) -> list[str]:
    """Where a test module writes the contract as a literal: 'file:line: what'."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    number = re.compile(r"(?<![\w.])(" + "|".join(map(str, sorted(PINNED_NUMBERS))) + r")(?![\w.])")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value in PINNED_NUMBERS:
            found.append(f"{path.name}:{node.lineno}: the number {node.value}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and number.search(node.value):
            found.append(f"{path.name}:{node.lineno}: {number.search(node.value).group(0)} in a string")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            elements = node.keys if isinstance(node, ast.Dict) else node.elts
            names = {e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if set(contract.TOOL_NAMES) <= names:
                found.append(f"{path.name}:{node.lineno}: all {len(contract.TOOL_NAMES)} tool names")
    return found


def test_no_other_test_file_pins_the_contract():
    pinned = [hit for path in sorted(HERE.glob("*.py"))
              if path.name not in NOT_ASSERTIONS and not path.name.startswith(LABELLED_DATA)
              for hit in pinned_in(path)]
    assert not pinned, ("derive these from tests_grader/corpus_contract.py or the loaded corpus:\n"
                        + "\n".join(pinned))


def test_the_guard_finds_each_kind_of_pin(tmp_path):
    """The guard itself can fail: a module with one pin of each kind is reported three times."""
    module = tmp_path / "test_pins.py"
    names = ", ".join(repr(n) for n in contract.TOOL_NAMES)
    module.write_text(f"N = {contract.N_CASES}\nS = 'all {contract.N_ITEMS} items'\nT = ({names})\n"
                      f"OK = ('{contract.N_CASES}.5', 'x{contract.N_ITEMS}')\n", encoding="utf-8")
    assert [hit.split(": ", 1)[0] for hit in pinned_in(module)] == ["test_pins.py:1", "test_pins.py:2",
                                                                      "test_pins.py:3"]
