"""SPIN critic: a never-failing parser for its verdicts and the stopping rule (the prompt is in spin/prompts.py).

The critic answers with one JSON object::

    {"status": "Accomplished" | "Partially accomplished" | "Not accomplished",
     "can_answer_now": true | false,
     "rationale": "short explanation"}

parse_critic_output never raises: output it cannot read becomes a "Not accomplished" verdict with
parse_ok False, so a run records the failure instead of crashing (and can count critic parse failures).
Reasoning blocks are cut with tooluse1.parse.strip_thinking, the function the rest of the track uses.

Stopping rule (`accepts`): a prefix is accepted when the critic says can_answer_now AND its status is
Accomplished or Partially accomplished - the paper's A.3 ("can_answer_now=True for tasks ... predicted as
Accomplished or Partially_Accomplished") and its code (track1_planning_spin.py, acceptance rule).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from tooluse1.parse import strip_thinking

__all__ = [
    "CRITIC_STATUSES",
    "CriticStatus",
    "CriticVerdict",
    "SpinFeedback",
    "accepts",
    "parse_critic_output",
]

CriticStatus = Literal["Accomplished", "Partially accomplished", "Not accomplished"]
CRITIC_STATUSES: tuple[CriticStatus, ...] = ("Accomplished", "Partially accomplished", "Not accomplished")
_FALLBACK_STATUS: CriticStatus = "Not accomplished"

RATIONALE_MAX_CHARS = 1000
_EXCERPT_CHARS = 200

# Status keys after normalisation: lower case, '_'/'-' as spaces, single spaces.
_STATUS_BY_KEY: dict[str, CriticStatus] = {s.lower(): s for s in CRITIC_STATUSES}
_STATUS_STRIP = " \t\r\n.,;:!?'\"`*"
_TRUE_WORDS = frozenset({"true", "yes"})
_ACCEPTING: frozenset[str] = frozenset({"Accomplished", "Partially accomplished"})


@dataclass(frozen=True)
class CriticVerdict:
    """A sanitised critic answer. status is always one of CRITIC_STATUSES; rationale is at most
    RATIONALE_MAX_CHARS characters; parse_ok is False when no JSON object could be read (the verdict
    is then the safe default: Not accomplished, can_answer_now False)."""

    status: CriticStatus
    can_answer_now: bool
    rationale: str
    parse_ok: bool


@dataclass(frozen=True)
class SpinFeedback:
    """What the SPIN loop feeds back into a plan repair (see plan.build_repair_prompt).

    stop_index is the number of leading plan steps after which the critic judged the question
    answerable (1-based: the plan truncated there is steps 1..stop_index), or None when no prefix was.
    status, can_answer_now and rationale come from the critic verdict the loop acted on.
    """

    status: CriticStatus
    can_answer_now: bool
    stop_index: int | None
    rationale: str

    @classmethod
    def from_verdict(cls, verdict: CriticVerdict, stop_index: int | None) -> SpinFeedback:
        """Feedback carrying a verdict's fields and the chosen stop index."""
        return cls(verdict.status, verdict.can_answer_now, stop_index, verdict.rationale)


def _normalize_status(value: Any) -> CriticStatus:
    """Map loose spellings ("partially_accomplished", " accomplished. ") to a status; else Not."""
    if not isinstance(value, str):
        return _FALLBACK_STATUS
    key = " ".join(re.sub(r"[_-]", " ", value.strip(_STATUS_STRIP)).lower().split())
    return _STATUS_BY_KEY.get(key, _FALLBACK_STATUS)


def _coerce_bool(value: Any) -> bool:
    """True only for JSON true or the strings "true"/"yes"; everything else (1, "maybe", null) is False,
    because an unclear "can answer now" must not stop a plan early."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() in _TRUE_WORDS
    return False


def _load_object(text: str) -> dict[str, Any] | None:
    """The first JSON object found by: the whole text; the span from the first '{' to the last '}'
    (covers ```json fences, prose around the object and braces inside strings); the object that starts
    at the first '{' (covers trailing prose that itself holds braces)."""
    candidates: list[str] = [text]
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        candidates.append(text[start:end + 1])
    for candidate in candidates:
        try:
            obj = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    if start != -1:
        try:
            obj, _ = json.JSONDecoder().raw_decode(text, start)
        except ValueError:
            return None
        if isinstance(obj, dict):
            return obj
    return None


def parse_critic_output(text: str) -> CriticVerdict:
    """Parse a critic's raw output into a CriticVerdict; never raises (see CriticVerdict for guarantees)."""
    obj = _load_object(strip_thinking(text)[0])
    if obj is None:
        excerpt = " ".join(text.split())[:_EXCERPT_CHARS]
        return CriticVerdict(
            status=_FALLBACK_STATUS,
            can_answer_now=False,
            rationale=f"Failed to parse critic JSON from model output: {excerpt!r}",
            parse_ok=False,
        )
    rationale = obj.get("rationale")
    return CriticVerdict(
        status=_normalize_status(obj.get("status")),
        can_answer_now=_coerce_bool(obj.get("can_answer_now")),
        rationale=("" if rationale is None else str(rationale)).strip()[:RATIONALE_MAX_CHARS],
        parse_ok=True,
    )


def accepts(verdict: CriticVerdict) -> bool:
    """The stopping rule: can_answer_now and a status of Accomplished or Partially accomplished. A verdict
    that failed to parse is Not accomplished / False, so it never stops a plan early."""
    return verdict.can_answer_now and verdict.status in _ACCEPTING
