"""The closed vocabularies of ToolUse.1 as `Literal` types (one place; the corpus's tuples are built from them)."""
from __future__ import annotations

from typing import Literal, get_args

Protocol = Literal["json", "xml", "plain"]
Label = Literal["call", "malformed", "text"]
ExpectationKind = Literal["call", "no_call", "clarify"]
NegativeKind = Literal["knowledge", "chit_chat", "capability_trap", "instruction_trap"]
Lang = Literal["en", "ru"]
Difficulty = Literal["easy", "medium", "hard"]

PROTOCOLS: tuple[Protocol, ...] = get_args(Protocol)
LABELS: tuple[Label, ...] = get_args(Label)
EXPECTATIONS: tuple[ExpectationKind, ...] = get_args(ExpectationKind)
NEGATIVE_KINDS: tuple[NegativeKind, ...] = get_args(NegativeKind)
LANGS: tuple[Lang, ...] = get_args(Lang)
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
