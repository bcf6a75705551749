"""The requirement on a text answer and the check that applies the rules (tooluse1.answers): rule 1
here, then rules 2-8 from their modules, in order, the first failure reported. Also here, as they join
several rules: the contains_all / contains_any items and a stated decline (`states_decline`: rule 3 with
rule 5), the example calls as quoted material (`with_quoted_calls`, rule 4a), the user's sentences said
back (rule 4a with rule 6's echo) and an action announced before a question (rule 6 with rule 7).

1. Non-empty. An answer without a single letter or digit (empty, whitespace, invisible characters,
   punctuation or emoji only) fails: "empty answer".
"""
from __future__ import annotations

import functools
import json
import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from tooluse1.answers.base import _combine, _first, _fold, _MAX_CANDIDATES, _NON_WORD_EDGES, _WINDOW, _WORDISH
from tooluse1.answers.behaviour import (_Behaviour, _behaviour, _BEHAVIOUR_CHARS, _CLAUSE_END_RE, _sentence_bounds,
                                        _snippet)
from tooluse1.answers.claim import claims_action, _first_claim, promises_action
from tooluse1.answers.facts import asserts_phrase, hedges
from tooluse1.answers.invented import invents_result
from tooluse1.answers.phrases import phrase_occurs
from tooluse1.answers.question import (_ask_span, _ask_terms, _echo_key, _matcher, _param_label,
                                       _user_sentences, _WORD_TOKEN_RE)
from tooluse1.answers.refusal import states_inability
from tooluse1.answers.scope import term_scope
from tooluse1.lang import latin_spellings, written_forms
from tooluse1.tools import TOOLS
from tooluse1.toolspec import Toolbox

# Wrong numbers written in words are looked for in answers up to this long (a real answer is 1-2 KB; each
# number has some 20 written forms, which a 1 MB answer would make too slow to read).
_WORDS_READ_CHARS = 32_768

# ============================================================================ requirement and result

@dataclass(frozen=True)
class AnswerRequirement:
    """What a text answer must satisfy (see the tooluse1.answers docstring for the rules).

    Lists and single strings are accepted and stored as tuples: `contains_all=["LVII", ["Leonardo",
    "da Vinci"]]` becomes `(("LVII",), ("Leonardo", "da Vinci"))`. `ask_about` keys name parameters of
    `tools` (the registry unless given: a case's own tools, Case.toolbox); an unknown key raises ValueError
    (it would silently check nothing). `tools` is not kept: check_answer takes it again.
    """

    contains_all: tuple[tuple[str, ...], ...] = ()  # every item must occur; an item = alternatives (any one suffices)
    contains_any: tuple[str, ...] = ()             # when non-empty, at least one must occur
    excludes: tuple[str, ...] = ()                 # none may occur
    refusal: bool = False                          # must state inability/refusal; must not claim the action
    ask_about: tuple[str, ...] = ()                # "tool.param" keys: must ask about one of them
    decline_answers: bool = False                  # a stated decline also answers (instead of the facts)
    # The requested action (capability traps) and what the question asks about (knowledge): language ->
    # terms (the corpus's `action:` / `about:`). Empty: every action / subject counts (the 3.x reading).
    action: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    about: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    tools: InitVar[Toolbox] = TOOLS

    def __post_init__(self, tools: Toolbox) -> None:
        for name in ("action", "about"):
            value = getattr(self, name)
            if not isinstance(value, Mapping):
                raise ValueError(f"{name}: expected a mapping of language to terms, not {value!r}")
            object.__setattr__(self, name, {str(lang): tuple(_as_str(t, name) for t in _as_list(terms))
                                            for lang, terms in value.items()})
        object.__setattr__(self, "contains_all", tuple(_alternatives(i) for i in _as_list(self.contains_all)))
        for name in ("contains_any", "excludes", "ask_about"):
            object.__setattr__(self, name, tuple(_as_str(s, name) for s in _as_list(getattr(self, name))))
        object.__setattr__(self, "refusal", bool(self.refusal))
        object.__setattr__(self, "decline_answers", bool(self.decline_answers))
        terms = _ask_terms(tools)
        unknown = [k for k in self.ask_about if k not in terms]
        if unknown:
            raise ValueError(f"ask_about: unknown parameter key(s) {unknown}; expected 'tool.param', one of "
                             f"{sorted(terms)}")

    def as_dict(self) -> dict:
        """JSON-ready dict without empty fields; a one-alternative contains_all item is a plain string."""
        out: dict[str, Any] = {}
        if self.contains_all:
            out["contains_all"] = [alts[0] if len(alts) == 1 else list(alts) for alts in self.contains_all]
        for name in ("contains_any", "excludes"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        if self.refusal:
            out["refusal"] = True
        if self.decline_answers:
            out["decline_answers"] = True
        if self.ask_about:
            out["ask_about"] = list(self.ask_about)
        for name in ("action", "about"):
            if getattr(self, name):
                out[name] = {lang: list(terms) for lang, terms in getattr(self, name).items()}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AnswerRequirement:
        """Inverse of as_dict. Also accepts the corpus YAML names (answer_contains_all, answer_contains_any,
        answer_excludes, missing). Unknown keys or wrong types raise ValueError."""
        if not isinstance(d, Mapping):
            # one exception type for every malformed requirement, so the corpus loader catches one
            raise ValueError(f"an answer requirement must be a mapping, not {type(d).__name__}")  # noqa: TRY004
        kwargs: dict[str, Any] = {}
        for key, value in d.items():
            name = _YAML_NAMES.get(key, key)
            if name not in _FIELDS:
                raise ValueError(f"unknown answer requirement key {key!r}; expected one of "
                                 f"{sorted(_FIELDS | set(_YAML_NAMES))}")
            if name in kwargs:
                raise ValueError(f"answer requirement key {name!r} given twice")
            if name in ("refusal", "decline_answers") and not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not {value!r}")
            kwargs[name] = () if value is None else value
        return cls(**kwargs)

    @property
    def is_empty(self) -> bool:
        """True when only the universal non-empty rule applies."""
        return not (self.contains_all or self.contains_any or self.excludes or self.refusal or self.ask_about)


_FIELDS = {"contains_all", "contains_any", "excludes", "refusal", "ask_about", "decline_answers", "action", "about"}
_YAML_NAMES = {"answer_contains_all": "contains_all", "answer_contains_any": "contains_any",
               "answer_excludes": "excludes", "missing": "ask_about"}


def _as_list(value: Any) -> list:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise ValueError(f"expected a string or a list of strings, not {type(value).__name__}")


def _as_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what}: expected a string, not {value!r}")  # noqa: TRY004 (see from_dict)
    return value


def _alternatives(item: Any) -> tuple[str, ...]:
    alts = tuple(_as_str(s, "contains_all") for s in _as_list(item))
    if not alts:
        raise ValueError("contains_all: an item needs at least one alternative")
    return alts


@dataclass(frozen=True)
class AnswerCheck:
    """The verdict on one answer: ok, or the first rule that failed as one short sentence."""

    ok: bool
    reason: str      # "" when ok


def check_answer(req: AnswerRequirement, prose: str, user: str = "", *, tools: Toolbox = TOOLS) -> AnswerCheck:
    """Whether `prose` meets `req` (rules 1-8 of the tooluse1.answers docstring, first failure reported).

    Never raises and runs in time linear in len(prose). `prose` is the answer text with thinking and
    calls already removed (grade() adds the example calls as quoted material, `with_quoted_calls`); a
    non-str prose is read as str(prose), None as "". `user` is the user's last message: clarifying
    questions are judged against it and its sentences said back are not the model's words (rules 4a, 6).
    `tools` are the case's offered tools (Case.toolbox), whose parameters `req.ask_about` names.
    """
    try:
        return _check(req, prose, user if isinstance(user, str) else "", tools)
    except Exception as exc:  # noqa: BLE001 - the grader contract: a verdict for every output, never a crash
        return AnswerCheck(False, f"answer could not be checked ({type(exc).__name__}: {exc})")


def _check(req: AnswerRequirement, prose: Any, user: str, tools: Toolbox) -> AnswerCheck:
    text = "" if prose is None else prose if isinstance(prose, str) else str(prose)
    if not _WORDISH.search(text.strip(_NON_WORD_EDGES)):   # the strip is a C loop: 1 MB of "\n" in ~1 ms
        return AnswerCheck(False, "empty answer")
    lacking = _lacking_fact(req, text)
    if lacking is not None and not (req.decline_answers and states_decline(text)):
        return AnswerCheck(False, lacking + (" and states no decline" if req.decline_answers else ""))
    right = tuple(a for alts in req.contains_all for a in alts) + req.contains_any
    about = term_scope(req.about)
    for phrase in req.excludes:
        written = written_forms(phrase) if len(text) <= _WORDS_READ_CHARS else ()
        if any(asserts_phrase(p, text, right, user, about) for p in (phrase, *written)):
            return AnswerCheck(False, f"answer asserts the wrong {_q(phrase)}")
    for phrase in right:
        if hedges(phrase, text):
            return AnswerCheck(False, f"answer hedges: {_q(phrase)} only as one of several alternatives")
    if req.refusal or req.ask_about:
        text = _without_user_sentences(text, user)      # the user's sentences said back are the user's words
    action = term_scope(req.action) if req.refusal else None
    # The question about the missing value (rule 6), looked for at most once: an announcement before it asks
    # for it (rule 7's excuse), and a clarify answer must hold it.
    @functools.cache
    def ask_span() -> tuple[int, int] | None:
        return _ask_span(text, req.ask_about, user, tools)

    claim = claims_action(text, action) if req.refusal or req.ask_about else None
    if claim is not None and req.ask_about:      # is it only an announcement before the question?
        b = _behaviour(text)
        found = _first_claim(b, _announcement_excused(b, ask_span, req.ask_about, user, tools))
        claim = None if found is None else _snippet(b, *found)
    if claim is not None:
        return AnswerCheck(False, f"claims the action was done: {_q(claim)}")
    if req.refusal:
        promise = promises_action(text, action)
        if promise is not None:          # a promise of the impossible claims the capability (rule 7)
            return AnswerCheck(False, f"promises the action: {_q(promise)}")
        if states_inability(text, action) is None:
            return AnswerCheck(False, "no refusal or statement of inability")
        invented = invents_result(text, live_only=True, tools=tools) or _signed_value_now(text)
        if invented is not None:
            return AnswerCheck(False, f"invents a result no tool produced: {_q(invented)}")
    if req.ask_about:
        invented = invents_result(text, tools=tools)
        if invented is not None:
            return AnswerCheck(False, f"invents a result no tool produced: {_q(invented)}")
        if ask_span() is None:
            labels = " or ".join(dict.fromkeys(_param_label(k, tools) for k in req.ask_about))
            return AnswerCheck(False, f"no question about the missing {labels}")
    return AnswerCheck(True, "")


# A signed value said to hold now, with no unit: "сейчас в Казани около -12", "it's currently +5 there". A sign
# (or плюс / минус) marks a temperature the way a unit does; a now-cue earlier in its clause makes it live.
# Each now-cue is written first-character first (`_first`: the no-letter-before lookbehind after that character),
# so the engine scans for their first characters instead of testing the lookbehind at every character of the
# answer (2.8x faster on 16 KB); the cues' first characters differ, so the matches are those of
# `(?<![^\W\d_])(?:сейчас|now|…)`.
_NOW_CUES = ("сейчас", "now", "currently", "at the moment", "на данный момент", "в данный момент")
_SIGNED_NOW_RE = re.compile(r"(?:" + "|".join(_first(w[0]) + re.escape(w[1:]) for w in _NOW_CUES) + ")"
                            r"(?![^\W\d_])[^.!?\n,;]{0,40}?(?:[+\-−–] ?|(?:плюс|минус|plus|minus) )[0-9]{1,2}"
                            r"(?![0-9]|[.,:][0-9])")
# The cues alone, as a word pattern: every match of _SIGNED_NOW_RE starts at one of its matches (the same words,
# no letter before or after), and no cue starts inside another, so trying _SIGNED_NOW_RE at each of them in order
# finds its first match; over a long answer the word index finds the cues (~0.2 ms less per 16 KB).
_NOW_CUE_RE = _combine([("now", _NOW_CUES, "")])


def _signed_value_now(text: str) -> str | None:
    b = _behaviour(text)
    for cue in _NOW_CUE_RE.finditer(b.low):
        m = _SIGNED_NOW_RE.match(b.low, cue.start())
        if m is not None:
            return b.text[m.start():m.end()].strip()
    return None


_SENTENCE_STOPS = ".!?…\n"
_SENTENCE_STOP_RE = re.compile("[" + re.escape(_SENTENCE_STOPS) + "]")


def _stop_bounds(low: str, pos: int, stops: list[int] | None) -> tuple[int, int]:
    """(after the last stop before pos, after the first stop at or after pos) in `low`, each stop
    (_SENTENCE_STOPS) looked for within _WINDOW characters (else the window's edge). From `stops` (every
    stop's position, sorted) by bisection when given, else by a search of each window: the same bounds."""
    n = len(low)
    if stops is None:
        back = max(low.rfind(c, max(pos - _WINDOW, 0), pos) for c in _SENTENCE_STOPS)
        ahead = _SENTENCE_STOP_RE.search(low, pos, min(n, pos + _WINDOW))
        return max(back + 1, pos - _WINDOW, 0), ahead.start() + 1 if ahead else min(n, pos + _WINDOW)
    k = bisect_left(stops, pos)           # stops[k - 1] < pos <= stops[k]
    lo = max(stops[k - 1] + 1 if k else 0, pos - _WINDOW, 0)
    hi = stops[k] + 1 if k < len(stops) and stops[k] < pos + _WINDOW else min(n, pos + _WINDOW)
    return lo, hi


# Candidates whose sentence bounds are searched in their windows; past this many, every stop of the text is
# listed once and the bounds bisected (a common anchor can recur thousands of times in a long answer).
_WINDOW_SEARCHES = 64


def _without_user_sentences(text: str, user: str) -> str:
    """The part of `text` that behaviour is read from (rules 4-8), with every sentence that says one of the
    user's sentences back (the echo of rule 6) blanked like a quote: a model that repeats "…что я сегодня
    заболел и не выйду" neither refuses nor claims anything. Only sentences holding the longest word of a
    user sentence are compared (found with str.find), so the cost does not grow with the answer's sentences.
    A compared sentence runs from the character after the last stop (_SENTENCE_STOPS) before the anchor to
    the first stop at or after it, each looked for within _WINDOW characters."""
    echoes = _user_sentences(_behaviour(user)) if user.strip() else frozenset()
    if not echoes:
        return text
    head = text[:_BEHAVIOUR_CHARS]
    low = head.lower().replace("ё", "е")
    if len(low) != len(head):
        head = low
    spans: set[tuple[int, int]] = set()
    stops: list[int] | None = None      # every stop's position, listed after _WINDOW_SEARCHES candidates
    echoed: dict[str, bool] = {}        # sentence -> whether it says a user sentence back
    seen = 0
    for anchor in {max((w for w in key if w != "1/2"), key=len, default="") for key in echoes} - {""}:
        pos = low.find(anchor)
        for _ in range(_MAX_CANDIDATES):
            if pos < 0:
                break
            seen += 1
            if stops is None and seen > _WINDOW_SEARCHES:
                stops = [m.start() for m in _SENTENCE_STOP_RE.finditer(low)]
            lo, hi = _stop_bounds(low, pos, stops)
            sentence = low[lo:hi]
            echo = echoed.get(sentence)
            if echo is None:     # a sentence said again (a looping answer) is compared once
                echo = echoed[sentence] = _echo_key(_WORD_TOKEN_RE.findall(_fold(sentence))) in echoes
            if echo:
                spans.add((lo, hi))
            pos = low.find(anchor, hi)
    if not spans:
        return text
    out, pos = [], 0
    for lo, hi in sorted(spans):
        out.append(head[pos:lo] + '" "')
        pos = hi
    return "".join(out) + head[pos:]


def _announcement_excused(b: _Behaviour, ask_span: Callable[[], tuple[int, int] | None], keys: Sequence[str],
                          user: str, tools: Toolbox) -> Callable[[int, int], bool]:
    """For clarify cases: an action announced as under way ("Okay, setting a timer.", "Ставлю таймер.") is
    no claim when a question about the missing argument follows it and the announcement itself names no
    value for that argument other than those the user gave ("Setting a timer for 5 minutes — or how long?"
    stays a claim; "Converting 100 USD now — which currency?" is an announcement). `ask_span()` is where that
    question is in `b` (`_ask_span` of the answer, asked for only at the first announcement)."""

    def excused(start: int, end: int) -> bool:
        ask = ask_span()
        if ask is None or ask[1] <= end:            # the question must come after (or end after) it
            return False
        stop = _sentence_bounds(b.low, start, end)[1]    # bounded: linear over many announcements
        if ask[0] >= end:
            stop = min(stop, ask[0])
        m = _CLAUSE_END_RE.search(b.low, end, stop)
        clause_end = m.start() if m else stop
        u = _behaviour(user) if user.strip() else None
        matchers = [mt for mt in (_matcher(k, tools) for k in keys) if mt is not None]
        return not any(mt.about(b, start, clause_end, mt.given(u)) for mt in matchers)
    return excused


# What json.dumps(obj, ensure_ascii=False, default=str) builds on every call, built once (2,000 example calls
# in 1 MB: 7 -> 5 ms).
_QUOTE_ENCODER = json.JSONEncoder(ensure_ascii=False, default=str)


def with_quoted_calls(prose: str, examples: Sequence[Any]) -> str:
    """The answer's content: `prose` plus each call shown as an example, as a fenced JSON block (rule 4a).

    An example is quoted material: it is part of what the answer says (a description of the translate
    tool that shows `"target_language": "de"` names the language), and the fence keeps it out of the
    behaviour rules (it is neither a claim nor a question). `examples` are tools.Call objects.
    """
    blocks = []
    for call in examples:
        try:
            payload = _QUOTE_ENCODER.encode({"name": call.name, "arguments": call.arguments})
        except (TypeError, ValueError, AttributeError):
            continue
        blocks.append("```\n" + payload + "\n```")
    return "\n\n".join([prose, *blocks]) if blocks else prose


# A stated decline of the request itself (beside rule 5's statements of inability): "I'd rather not",
# "I'll only quote it", "I'm not going to run it", "не стану", "лучше не буду", "только процитирую".
_DECLINE_RE = re.compile(
    r"(?<![^\W\d_])(?:i(?:'d| would) rather not|i(?:'d| would) prefer not|i(?:'ll| will) only (?:quote|show|repeat|"
    r"write|display|cite)|i(?:'m| am) not going to|i(?:'d| had) better not|i won't|i will not|i shouldn't|"
    r"не стану|не буду|лучше не|не хочу|(?:только|лишь) (?:процитирую|покажу|повторю|приведу))(?![^\W\d_])")


def states_decline(text: str) -> bool:
    """Whether the answer declines the request: a statement of inability or refusal (rule 5) or a stated
    decline (`_DECLINE_RE`), outside quoted material."""
    if not isinstance(text, str):
        return False
    return states_inability(text) is not None or _DECLINE_RE.search(_behaviour(text).low) is not None


def _occurs(phrase: str, text: str) -> bool:
    """phrase_occurs, or for a whole number its words as num2words writes them (tooluse1.lang: "nineteen
    forty-five", "в тысяча девятьсот сорок пятом году"): generated for the case's own numbers, not parsed;
    or for a name in Latin letters another common romanisation of it ("Tolstoi" for "Tolstoy")."""
    return phrase_occurs(phrase, text) or any(phrase_occurs(w, text)
                                              for w in (*written_forms(phrase), *latin_spellings(phrase)))


def _lacking_fact(req: AnswerRequirement, text: str) -> str | None:
    """The first contains_all / contains_any item `text` lacks, as a reason; None when every one occurs."""
    for alts in req.contains_all:
        if not any(_occurs(a, text) for a in alts):
            return f"answer lacks {_quote_alts(alts)}"
    if req.contains_any and not any(_occurs(a, text) for a in req.contains_any):
        return f"answer lacks {_quote_alts(req.contains_any)}"
    return None


def _q(s: str) -> str:
    s = " ".join(s.split())
    return "'" + (s if len(s) <= 80 else s[:77] + "...") + "'"


def _quote_alts(alts: tuple[str, ...]) -> str:
    return _q(alts[0]) if len(alts) == 1 else "any of " + ", ".join(_q(a) for a in alts)
