"""SPIN critic: a never-failing parser for its verdicts and the stopping rule (the prompt is in spin/prompts.py).

The critic answers with one JSON object::

    {"status": "Accomplished" | "Partially accomplished" | "Not accomplished",
     "can_answer_now": true | false,
     "rationale": "short explanation"}

parse_critic_output never raises: output it cannot read becomes a "Not accomplished" verdict with
parse_ok False, so a run records the failure instead of crashing (and can count critic parse failures).
An object cut off before its closing brace (the token cap ran out inside the rationale) is read from its
head: when the head holds a complete "status" value, the verdict takes that status and can_answer_now (False
when the head stops before it) and is marked `truncated`. Reasoning blocks are cut with
tooluse1.parse.strip_thinking, the function the rest of the track uses. `json_object_end` finds where the
first JSON object of an output closes: the runner stops the critic's generation there (the public code
lets the model run to its cap, 8,192 tokens by default, and parses the object out of the text).

Acceptance (`accepts`): a verdict accepts its prefix when the critic says can_answer_now AND its status is
Accomplished or Partially accomplished - the paper's A.3 ("can_answer_now=True for tasks ... predicted as
Accomplished or Partially_Accomplished") and its code (track1_planning_spin.py, acceptance rule). Which
verdict that test is applied to depends on the prefix loop's stopping rule (STOP_RULES; runner.py): the
code's loop stops at the first Accomplished or Not accomplished verdict (or at the last step) and tests
acceptance there; the paper's text stops at the first verdict that accepts.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from tooluse1.parse import strip_thinking

__all__ = [
    "CRITIC_STATUSES",
    "STOP_RULES",
    "CriticStatus",
    "CriticVerdict",
    "SpinFeedback",
    "accepts",
    "json_object_end",
    "parse_critic_output",
    "stops_prefix_loop",
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
_DECISIVE: frozenset[str] = frozenset({"Accomplished", "Not accomplished"})
# The prefix loop's stopping rules: "code" = track1_planning_spin.py (the published numbers), "paper" = the
# text of A.3 / C.4 (stop at the first accepting verdict).
STOP_RULES: tuple[str, ...] = ("code", "paper")
# A head cut inside the object: `"status": "<complete value>"`, then optionally `"can_answer_now": <value>`.
_HEAD_STATUS_RE = re.compile(r'"status"\s*:\s*"([^"\\]*)"')
_HEAD_CAN_RE = re.compile(r'"can_answer_now"\s*:\s*(true|false|"[^"\\]*")', re.IGNORECASE)


@dataclass(frozen=True)
class CriticVerdict:
    """A sanitised critic answer. status is always one of CRITIC_STATUSES; rationale is at most
    RATIONALE_MAX_CHARS characters; parse_ok is False when no JSON object could be read (the verdict
    is then the safe default: Not accomplished, can_answer_now False)."""

    status: CriticStatus
    can_answer_now: bool
    rationale: str
    parse_ok: bool
    truncated: bool = False   # read from the head of an object cut before its closing brace


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


def json_object_end(text: str) -> int | None:
    """The index just after the closing brace of the first JSON object in `text` (the one opened by the first
    '{'), counting braces outside strings only; None while that object is still open (or none started).
    Cheap enough to call after every generated token of a short answer."""
    start = text.find("{")
    if start == -1:
        return None
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _truncated_head(text: str) -> CriticVerdict | None:
    """The verdict an unterminated object's head already states (module docstring), or None when the text
    has no open object or the head has no complete status value."""
    start = text.find("{")
    if start == -1 or json_object_end(text) is not None:
        return None
    head = text[start:]
    status = _HEAD_STATUS_RE.search(head)
    if status is None:
        return None
    can = _HEAD_CAN_RE.search(head)
    can_value: Any = None if can is None else (can.group(1).strip('"') if can.group(1).startswith('"')
                                               else can.group(1).lower() == "true")
    rationale = re.search(r'"rationale"\s*:\s*"(.*)', head, re.DOTALL)
    return CriticVerdict(status=_normalize_status(status.group(1)), can_answer_now=_coerce_bool(can_value),
                         rationale=("" if rationale is None else rationale.group(1)).strip()[:RATIONALE_MAX_CHARS],
                         parse_ok=True, truncated=True)


def parse_critic_output(text: str) -> CriticVerdict:
    """Parse a critic's raw output into a CriticVerdict; never raises (see CriticVerdict for guarantees)."""
    cleaned = strip_thinking(text)[0]
    obj = _load_object(cleaned)
    if obj is None:
        head = _truncated_head(cleaned)
        if head is not None:
            return head
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
    """The acceptance test: can_answer_now and a status of Accomplished or Partially accomplished. A verdict
    that failed to parse is Not accomplished / False, so it never accepts a prefix."""
    return verdict.can_answer_now and verdict.status in _ACCEPTING


def stops_prefix_loop(verdict: CriticVerdict, rule: str) -> bool:
    """Whether the prefix loop stops at this verdict under `rule` (STOP_RULES): "code" stops at Accomplished
    or Not accomplished (a failed parse reads as Not accomplished, so it stops the loop too) and goes on
    after Partially accomplished; "paper" stops at a verdict that accepts. ValueError for another rule."""
    if rule == "code":
        return verdict.status in _DECISIVE
    if rule == "paper":
        return accepts(verdict)
    raise ValueError(f"unknown stop rule {rule!r}: use one of {', '.join(STOP_RULES)}")
