"""The closed vocabularies of ToolUse.1 as `Literal` types (one place; the corpus's tuples are built from them)."""
from __future__ import annotations

from typing import Literal, get_args

Protocol = Literal["json", "xml", "plain", "native"]
Label = Literal["call", "malformed", "text"]
ExpectationKind = Literal["call", "no_call", "clarify"]
NegativeKind = Literal["knowledge", "chit_chat", "capability_trap", "instruction_trap"]
Lang = Literal["en", "ru"]
Difficulty = Literal["easy", "medium", "hard"]

# The SPEC's three text protocols (what `--protocol all` runs: 564 items, comparable across versions) and
# every protocol including the opt-in `native` one (tools through the chat template / the API's `tools`).
PROTOCOLS: tuple[Protocol, ...] = ("json", "xml", "plain")
ALL_PROTOCOLS: tuple[Protocol, ...] = get_args(Protocol)
LABELS: tuple[Label, ...] = get_args(Label)
EXPECTATIONS: tuple[ExpectationKind, ...] = get_args(ExpectationKind)
NEGATIVE_KINDS: tuple[NegativeKind, ...] = get_args(NegativeKind)
LANGS: tuple[Lang, ...] = get_args(Lang)
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
