"""The built-in corpus's contract: the one place the tests pin how many cases there are and what the tools are.

Every other test counts from the loaded corpus or derives from this table (tests_grader/test_contract.py
checks both: the table against the loaded corpus, and that no other test file writes the case or item count
or the full list of tool names as literals). Adding, removing or moving a case means changing CASES here and
nothing else in the tests; a tool's name, required parameters or effect means changing TOOLS.
"""
from __future__ import annotations

from typing import NamedTuple

from tooluse1.prompts import PROTOCOLS

# (category, language) -> number of public cases (SPEC §1: 114 English, 74 Russian)
CASES: dict[tuple[str, str], int] = {
    ("calculator", "en"): 15, ("calculator", "ru"): 8,
    ("get_weather", "en"): 8, ("get_weather", "ru"): 6,
    ("web_search", "en"): 8, ("web_search", "ru"): 4,
    ("translate", "en"): 8, ("translate", "ru"): 5,
    ("convert_currency", "en"): 8, ("convert_currency", "ru"): 5,
    ("convert_units", "en"): 8, ("convert_units", "ru"): 5,
    ("set_timer", "en"): 6, ("set_timer", "ru"): 4,
    ("save_note", "en"): 6, ("save_note", "ru"): 4,
    ("get_time", "en"): 6, ("get_time", "ru"): 4,
    ("multi_step", "en"): 6, ("multi_step", "ru"): 4,
    ("negative", "en"): 30, ("negative", "ru"): 19,
    ("clarification", "en"): 5, ("clarification", "ru"): 6,
}

class ToolContract(NamedTuple):
    params: tuple[str, ...]          # every parameter, in declaration order
    required: tuple[str, ...]
    effect: str                      # "acts" or "looks_up" (DECISIONS: declared on the tool, once)


# DESIGN.md: the tools' names, parameters and required lists are part of the contract; in prompt order
TOOLS: dict[str, ToolContract] = {
    "calculator": ToolContract(("expression",), ("expression",), "looks_up"),
    "get_weather": ToolContract(("city", "unit"), ("city",), "looks_up"),
    "web_search": ToolContract(("query", "num_results"), ("query",), "looks_up"),
    "translate": ToolContract(("text", "target_language", "source_language"), ("text", "target_language"),
                              "looks_up"),
    "convert_currency": ToolContract(("amount", "from_currency", "to_currency"),
                                     ("amount", "from_currency", "to_currency"), "looks_up"),
    "convert_units": ToolContract(("value", "from_unit", "to_unit"), ("value", "from_unit", "to_unit"), "looks_up"),
    "set_timer": ToolContract(("duration_seconds", "label"), ("duration_seconds",), "acts"),
    "save_note": ToolContract(("text", "title"), ("text",), "acts"),
    "get_time": ToolContract(("timezone",), ("timezone",), "looks_up"),
}

# the categories whose cases expect a call (every other category expects none or a question)
NO_CALL_CATEGORIES = {"negative": "no_call", "clarification": "clarify"}

N_CASES = sum(CASES.values())
N_CASES_BY_LANG = {lang: sum(n for (_, case_lang), n in CASES.items() if case_lang == lang) for lang in ("en", "ru")}
N_CALL_CASES = sum(n for (category, _), n in CASES.items() if category not in NO_CALL_CATEGORIES)
N_PROTOCOLS = len(PROTOCOLS)                 # the scored text protocols (json, xml, plain); native is apart
N_ITEMS = N_CASES * N_PROTOCOLS              # the benchmark items of a default run
TOOL_NAMES = tuple(TOOLS)
N_NON_CALL_CASES = N_CASES - N_CALL_CASES    # the no-call and clarify cases (an always-call model fails each)
