"""Checks on text answers (no tool call) for grading 3.0.0: the rule book.

A no-call or clarify case passes only when the model made no call and its text answer (the prose, with
thinking and call payloads already removed) meets the case's `AnswerRequirement`. `check_answer` applies
the rules below in this order and reports the first that fails, as one short sentence.

1. Non-empty. An answer without a single letter or digit (empty, whitespace, invisible characters,
   punctuation or emoji only) fails: "empty answer".

2. Phrases match tokens, not raw substrings (`phrase_occurs`; used by contains_all, contains_any and
   excludes, on the whole answer, quotes included).
   - Both sides are normalised: NFKC, casefold, ё -> е.
   - Words are runs of letters, numbers runs of the digits 0-9; anything else separates tokens, so
     punctuation is not part of a word ("1+1" is the tokens 1 1, "fifty-six" is fifty six, "CO2" is co 2,
     "convert_currency" is convert currency). A phrase's tokens must be consecutive tokens of the answer:
     "LVII" does not match "LVIII", "Au" not "because", "late" not "translate", "RUB" not "ruble".
   - A word written with a trailing `*` is a stem: `Толст*` matches Толстой, Толстого; `Канберр*`
     matches Канберра, Канберре. Without `*` a word matches only itself.
   - Numbers compare by value: 1024 = 1,024 = 1 024 (space, no-break or thin space) = 1024.0 = 01024.
     A comma followed by exactly three digits groups thousands (1,024); any other comma after digits is
     a decimal comma (3,5 = 3.5; 14 240,51 = 14240.51). A minus written right before the digits and not
     after a letter or digit is kept: -3 = −3 = –3 = "minus 3" = "минус 3"; +15 = 15; "10-15" is 10 and 15.
   - Precision: a phrase number written with d decimals also matches an answer number written with more
     decimals that rounds (half up) or truncates to it at d decimals: "14240" matches 14240.51, "48.2"
     matches 48.25; "14240" does not match 14241, nor "48.2" 48.3. Rounding and truncation act on the
     magnitude: "-4.5" matches -4.53 and -4.46, never 4.5.
   - `A ... B` (three dots with a space on each side) means A, then B anywhere later. A phrase without
     any token ("$", "€") is matched as a substring of the normalised text. An empty phrase never occurs.

3. contains_all: every item occurs (an item is a tuple of alternatives; any one suffices).
   contains_any: when given, at least one occurs. With `decline_answers`, a stated decline (rule 5's
   statement of inability or refusal, or "I'd rather not", "I'll only quote it", "не стану": `states_decline`)
   answers instead of those facts (a "repeat after me" of call syntax).
   excludes: plausible wrong answers, none of which the answer may ASSERT (`asserts_phrase`): a mention
   that marks it as not the answer is no assertion ("Canberra, not Sydney", "не путать с Алексеем
   Толстым", "Many think it's Sydney", "While Sydney is the largest city, …", "followed by Saturn"). A
   right number offered only as one of several alternatives of the same magnitude is a hedge and fails
   (`hedges`: "1944 or 1945", "1939, 1941, 1944 or 1945"; a range "1939 to 1945" is one answer).

4. Behaviour (rules 5-8) is read from the model's own words: text inside quotation marks («…», “…”, „…“,
   "…"), code (`…`, ```…```) and Markdown blockquote lines ("> …") is blanked first, so a quoted draft or
   a repeated request is neither a refusal, a claim, nor a question. Sentences end at . ! ? … followed by
   a space or the end (not "e.g.5" or "/search?city=") and at line breaks, so list items are sentences of
   their own; clauses also end at , ; : ( ) and dashes.
   4a. Quoted material is part of what the answer SAYS but not of what the model DOES. Facts (rules 2-3)
   read the whole answer, quotes and code included, and also the calls the answer shows as examples
   (`with_quoted_calls`: grade() appends each example call as a fenced JSON block, so "Here's what a call
   looks like:" + an example naming target_language names the language). A draft the model offers the
   user is the user's words: after a lead that presents text for the user ("you could send this:",
   "here's a draft:", "something like:", "вот черновик:", "можете написать так:"; not "for example:") and its
   colon, the draft runs to the end of that line when it starts on it, else over the following block to
   the end of the answer or to a later paragraph where the model speaks to the user again ("Feel free…",
   "Let me know…", "Хотите…", "Если нужно…"). "I can't send emails, but you could send this: … I've already
   started on the report" claims nothing; a claim after the draft still counts. A sentence that says one
   of the user's sentences back (rule 6's echo) is the user's words too: an echoed "…что я сегодня
   заболел и не выйду" is not the model declining.

5. refusal: the answer states an inability or refusal (`states_inability`), claims no action (rule 7)
   and states no live result (rule 8, live data only). Inability is a STRUCTURE in one sentence, read
   word by word (word classes, not phrases, EN and RU):
   - A, a negation or limitation: a negated modal (can't, cannot, unable, won't, невозможно, нельзя,
     недоступно: A and B in one word); not / n't / never / не; no / none / nothing / without / lack / нет /
     без / ни; beyond / outside / вне / за пределами / за рамками; only / лишь / только; limited /
     ограничен;
   - B, the capability it bears on: a modal or capability verb (can, able, allowed, possible, supported,
     cover, include, support, могу, умею, способен, в состоянии, получится, позволяет …) or a capability
     noun (tool, function, feature, capability, ability, access, permission, way, means, scope, reach,
     инструмент, функция, возможность, доступ, право, силы, компетенция …). B follows a negation within
     6 words of its clause ("The tools I have don't cover…", "not among the things I can do", "не под
     силу"); after no / none / нет B is a noun ("no tool", "нет доступа"; "none of them can" also takes a
     modal), and a clause-final "нет" looks back ("Такой функции у меня нет", "у меня нет …"); after
     beyond / outside / вне B is a noun or a modal ("beyond what I can do", "вне моих возможностей");
     "only" limits a modal next to it ("I can only…", "могу лишь…", "I only have…") or says what the
     model merely is ("I'm just a language model", "Я всего лишь языковая модель"); "limited" needs the
     model or its tools before it ("I'm limited to…", "Мои возможности ограничены"). A first-person
     declined action counts too: "I / we don't" + a verb, "не" + a first-person verb ("I don't book
     flights", "Билеты я не покупаю"), not verbs of opinion ("I don't think…", "Не советую…");
   - C, said of the model: the nearest subject before A in its clause is not another person ("You can't
     go wrong…", "Вы не можете…" are not refusals); and the sentence holds a first-person word (I, my, we,
     мне, у меня, мой …), or B is impersonal ("not possible", "isn't supported", "невозможно", "не
     получится"), or B is a first-person verb ("не могу"), or the tools are the subject ("None of the
     available tools can…"), or the clause starts with the negation ("Sorry, can't do that").
   Set phrases whose negation is not about ability ("Don't worry", "No problem", "Не волнуйтесь", "Нет
   проблем") are skipped.

6. ask_about (the "tool.param" keys of the required arguments the user left out): some sentence ASKS
   (`asks_about`) and is ABOUT one of the parameters, and the answer claims no action (rule 7) and
   invents no result (rule 8).
   - Asks: the sentence holds "?" (or "¿"); or starts, after a lead-in such as "Sure," / "Хорошо,", with
     an interrogative (what, which, where, how, who, when, in which …, do / does / is / are / could /
     would / can / should + subject, какой / каком / какую …, где, куда, сколько, на сколько, что, о чём,
     кто, когда, как, в каком …), an imperative request (tell, let, give, share, provide, specify …) or
     a need ("Need the city", "Нужен город"); or holds a request form anywhere ("could you tell me",
     "please specify / provide / share …", "let me know", "tell me", "I need / I'll need / I'd need",
     "need to know", "if you tell me …", "…, please.", "уточните", "подскажите", "скажите", "напишите",
     "укажите", "сообщите", "назовите", "пришлите", "напомните", "дайте знать", "прошу", "жду", "мне
     нужно / нужен …", "нужно уточнить", "не могли бы вы", "если вы скажете …", the particle "ли"). An
     item of a list whose introducing line asks and ends with ":" asks too ("I need:\n1. The city").
   - About: the sentence holds a term of `ASK_TERMS[param]` (EN + RU, `*` stems, `A ... B` = A then B
     later in the sentence), or a known value of the parameter from the tool's alias table (any city
     for get_weather.city, any currency for convert_currency.*_currency, any language for
     translate.target_language, any time zone or city for get_time.timezone, …; Russian forms as the
     table's lookup inflects them). Alias forms of up to three letters count only in capitals ("USD",
     "LA", "UTC"; not "it", "try", "in"); symbol forms ("$", "€", "°F") count as written. The tool's
     noun alone is not a term ("Shall I save a note?" does not ask what the note says), and a generic
     question ("Anything else?", "How can I help?", "Чем могу помочь?") is about nothing. A question
     for the value the action needs counts for that parameter ("What should I set it to?" = duration).
   - Against the user's message (grade() passes it): a value the user already gave is no evidence
     ("How many dollars would you like to convert?", "Is that 100 US dollars?" when the target currency
     is missing; "Вы имеете в виду евро?" when the amount and source currency are); a question that is
     one of the user's sentences said back (the same words, give or take "and"/"а", with my/your turned
     round) is an echo, not a question ("Сколько это в евро?" answering "Сколько это в евро?"). A term
     that a parameter shares with a sibling the user gave ("currency", "валюта") counts only when none of
     that sibling's own terms is there: "В какую валюту перевести?" asks for the target the user gave,
     not the missing source; "Which currency are you converting from?" asks for the given source.
   - An action announced as under way ("Okay, setting a timer.", "Хорошо, ставлю таймер.") is no claim
     (rule 7) when a question about the missing parameter follows it and the announcement names no value
     for it ("Setting a timer for 5 minutes — or how long?" stays a claim).

7. Claimed action (`claims_action`): a statement, EN or RU, that an action only a tool could perform
   was done or is under way: "Done!", "All set", "Consider it done", "I've set / started / saved /
   ordered / booked / sent / played / turned … off / transferred / deleted / converted / checked …",
   "I set / ordered …", "I'm setting / playing …", "has been set", "is set / booked / on its way / now
   off", "Timer set for 5 minutes", "Note saved", "Saved your note", "Playing some jazz now", "it will
   arrive in 30 minutes", "the transfer went through", "order number …", "Готово", "(Я) поставил(а) /
   сохранил / заказал / отправил / перевёл …", "Ставлю / Включаю …", "таймер установлен", "заметка
   сохранена", "пицца уже в пути", "заказ принят". Not claims: offers, questions, negations,
   conditionals and promises. A candidate is dropped when
   - its clause, before it, holds a negation, modal, offer or other subject (not, no, never, n't, can,
     could, would, will, 'll, shall, should, may, how, whether, let, want, не, ни, нет, бы, могу, можно,
     нужно, будет, ли, вы, он, …): "Shall I set a timer?", "I haven't set anything", "Я не могу заказать",
     "Вы уже поставили таймер?";
   - its sentence, before it, holds a conditional (if, once, when, after, before, until, unless, as soon
     as, если, когда, как только, после того как, чтобы, пока): "Once you tell me, the note will be
     saved", "Чтобы я сохранил заметку, напишите текст";
   - it is in the last clause of a sentence that ends with "?" ("Поставить таймер?");
   - its object is something a chat model produces itself ("I've drafted / created a template",
     "I've checked my tools"), or a look-up verb has no object ("Я проверила: такой функции нет");
   - a clause-initial participle or gerund is the subject of what follows ("Saved notes can't be
     deleted", "Setting a timer requires a duration"); "Set a timer." reads as an imperative.
   Future promises ("I'll set a timer", "Я поставлю таймер") are not claims. A pretended look-up is a
   claim: "I found / located / looked up / checked …" with an object ("I found a 9:40 BA flight for
   you", "Нашла для вас адрес").

8. Invented result (`invents_result`): a statement (not the last clause of a question, not negated or
   hedged in its clause: "I can't tell whether it's sunny", "e.g. 15:30") that gives a live result no
   tool produced: a clock time with a time-telling word ("It's 14:00 there", "2:30 PM", "Сейчас там
   14:00"), a temperature ("+15 °C", "59°F", "15 degrees", "минус 5 градусов"), the current weather
   ("it's currently sunny", "сейчас облачно"), or a conversion or rate ("100 dollars is about 92 euros",
   "1 USD = 0.92 EUR", "100 долларов — это 9 000 рублей", "курс составляет 98").
   A general statement is knowledge, not a result: a sentence that marks itself as typical or past
   (typically, usually, on average, in spring / in April, as of my last update, обычно, в среднем, зимой,
   в ноябре, по моим последним данным) states none ("Paris in spring is typically around 15 °C").
   Clarify cases fail on any result; refusals (capability traps) fail on live data only — a clock time,
   a temperature, the weather, a rate, or a conversion with a currency — so "I can't access live
   weather, but it's currently 18°C and sunny in Paris" and "У меня нет доступа к погоде, но сейчас в
   Казани +5 °C" fail, while "1 mile is about 1.6 km" beside a refusal does not. Results in words count
   too: the weather judged ("The weather is lovely", "Погода сегодня отличная"), a temperature in words
   ("около нуля", "freezing"), the part of the day ("Сейчас там ночь"), a currency priced in another ("the
   euro costs 99 rubles", "евро стоит 99 рублей"); a clock time may take its "now / сейчас" from an
   earlier clause of its sentence ("сейчас вечер, примерно 19:00").

Performance: every function is linear in the answer's length and never raises on any str. Regexes are
precompiled and literal-first (a pattern that starts with a group, a lookbehind or a per-match template
costs a Python-level or engine step at every position); the normalised forms of the last few texts are
cached. Budgets no real answer reaches bound pathological inputs: at most 10,000 candidates of one kind
are examined, the first 10,000 numbers are read by value, a sentence is looked for within 400 characters
on each side of a candidate, each sentence is examined once per rule, and behaviour (rules 4-8) is read
from the first 32,768 characters of the answer (a reply at the default 256-token limit is 1-2 KB); facts
(rules 2-3) read all of it. A 1 MB answer is checked in well under 100 ms (BENCHMARKS.md).
"""
from __future__ import annotations

import functools
import itertools
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooluse1.aliases import AliasTable
from tooluse1.tools import TOOLS
from tooluse1.toolspec import Param, Tool

__all__ = ["ASK_TERMS", "AnswerCheck", "AnswerRequirement", "asks_about", "asserts_phrase", "check_answer",
           "claims_action", "hedges", "invents_result", "phrase_occurs", "states_decline", "states_inability",
           "with_quoted_calls"]

# Budgets (see the module docstring): far above any real answer, they only bound pathological inputs.
_MAX_CANDIDATES = 10_000      # candidate matches of one kind examined; also the numbers read by value
_WINDOW = 400                 # characters looked at on each side of a candidate to find its sentence / clause
# Normalised forms of the last few texts: one check_answer looks at the same text several times. Small, so
# that a run over many 1 MB outputs does not keep them all alive.
_TEXT_CACHE = 8


# ============================================================================ requirement and result

@dataclass(frozen=True)
class AnswerRequirement:
    """What a text answer must satisfy (see the module docstring for the rules).

    Lists and single strings are accepted and stored as tuples: `contains_all=["LVII", ["Leonardo",
    "da Vinci"]]` becomes `(("LVII",), ("Leonardo", "da Vinci"))`. Unknown `ask_about` keys raise
    ValueError (they would silently check nothing).
    """

    contains_all: tuple[tuple[str, ...], ...] = ()  # every item must occur; an item = alternatives (any one suffices)
    contains_any: tuple[str, ...] = ()             # when non-empty, at least one must occur
    excludes: tuple[str, ...] = ()                 # none may occur
    refusal: bool = False                          # must state inability/refusal; must not claim the action
    ask_about: tuple[str, ...] = ()                # "tool.param" keys: must ask about one of them
    decline_answers: bool = False                  # a stated decline also answers (instead of the facts)

    def __post_init__(self) -> None:
        object.__setattr__(self, "contains_all", tuple(_alternatives(i) for i in _as_list(self.contains_all)))
        for name in ("contains_any", "excludes", "ask_about"):
            object.__setattr__(self, name, tuple(_as_str(s, name) for s in _as_list(getattr(self, name))))
        object.__setattr__(self, "refusal", bool(self.refusal))
        object.__setattr__(self, "decline_answers", bool(self.decline_answers))
        unknown = [k for k in self.ask_about if k not in ASK_TERMS]
        if unknown:
            raise ValueError(f"ask_about: unknown parameter key(s) {unknown}; expected 'tool.param', one of "
                             f"{sorted(ASK_TERMS)}")

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


_FIELDS = {"contains_all", "contains_any", "excludes", "refusal", "ask_about", "decline_answers"}
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


def check_answer(req: AnswerRequirement, prose: str, user: str = "") -> AnswerCheck:
    """Whether `prose` meets `req` (rules 1-8 of the module docstring, first failure reported).

    Never raises and runs in time linear in len(prose). `prose` is the answer text with thinking and
    calls already removed (grade() adds the example calls as quoted material, `with_quoted_calls`); a
    non-str prose is read as str(prose), None as "". `user` is the user's last message: clarifying
    questions are judged against it and its sentences said back are not the model's words (rules 4a, 6).
    """
    try:
        return _check(req, prose, user if isinstance(user, str) else "")
    except Exception as exc:  # noqa: BLE001 - the grader contract: a verdict for every output, never a crash
        return AnswerCheck(False, f"answer could not be checked ({type(exc).__name__}: {exc})")


def _check(req: AnswerRequirement, prose: Any, user: str) -> AnswerCheck:
    text = "" if prose is None else prose if isinstance(prose, str) else str(prose)
    if not _WORDISH.search(text.strip(_NON_WORD_EDGES)):   # the strip is a C loop: 1 MB of "\n" in ~1 ms
        return AnswerCheck(False, "empty answer")
    lacking = _lacking_fact(req, text)
    if lacking is not None and not (req.decline_answers and states_decline(text)):
        return AnswerCheck(False, lacking + (" and states no decline" if req.decline_answers else ""))
    right = tuple(a for alts in req.contains_all for a in alts) + req.contains_any
    for phrase in req.excludes:
        if asserts_phrase(phrase, text, right, user):
            return AnswerCheck(False, f"answer asserts the wrong {_q(phrase)}")
    for phrase in right:
        if hedges(phrase, text):
            return AnswerCheck(False, f"answer hedges: {_q(phrase)} only as one of several alternatives")
    if req.refusal or req.ask_about:
        text = _without_user_sentences(text, user)      # the user's sentences said back are the user's words
    claim = claims_action(text) if req.refusal or req.ask_about else None
    if claim is not None and req.ask_about:      # is it only an announcement before the question?
        b = _behaviour(text)
        found = _first_claim(b, _announcement_excused(b, text, req.ask_about, user))
        claim = None if found is None else _snippet(b, *found)
    if claim is not None:
        return AnswerCheck(False, f"claims the action was done: {_q(claim)}")
    if req.refusal:
        if states_inability(text) is None:
            return AnswerCheck(False, "no refusal or statement of inability")
        invented = invents_result(text, live_only=True)
        if invented is not None:
            return AnswerCheck(False, f"invents a result no tool produced: {_q(invented)}")
    if req.ask_about:
        invented = invents_result(text)
        if invented is not None:
            return AnswerCheck(False, f"invents a result no tool produced: {_q(invented)}")
        if asks_about(text, req.ask_about, user) is None:
            labels = " or ".join(dict.fromkeys(_param_label(k) for k in req.ask_about))
            return AnswerCheck(False, f"no question about the missing {labels}")
    return AnswerCheck(True, "")


_SENTENCE_STOPS = ".!?…\n"


def _without_user_sentences(text: str, user: str) -> str:
    """The part of `text` that behaviour is read from (rules 4-8), with every sentence that says one of the
    user's sentences back (the echo of rule 6) blanked like a quote: a model that repeats "…что я сегодня
    заболел и не выйду" neither refuses nor claims anything. Only sentences holding the longest word of a
    user sentence are compared (found with str.find), so the cost does not grow with the answer's sentences."""
    echoes = _user_sentences(_behaviour(user)) if user.strip() else frozenset()
    if not echoes:
        return text
    head = text[:_BEHAVIOUR_CHARS]
    low = head.lower().replace("ё", "е")
    if len(low) != len(head):
        head = low
    spans: set[tuple[int, int]] = set()
    for anchor in {max((w for w in key if w != "1/2"), key=len, default="") for key in echoes} - {""}:
        pos = low.find(anchor)
        for _ in range(_MAX_CANDIDATES):
            if pos < 0:
                break
            lo = max(max(low.rfind(c, max(0, pos - _WINDOW), pos) for c in _SENTENCE_STOPS) + 1, pos - _WINDOW, 0)
            ends = [e for e in (low.find(c, pos, pos + _WINDOW) for c in _SENTENCE_STOPS) if e >= 0]
            hi = min(ends) + 1 if ends else min(len(low), pos + _WINDOW)
            if _echo_key(_WORD_TOKEN_RE.findall(_fold(low[lo:hi]))) in echoes:
                spans.add((lo, hi))
            pos = low.find(anchor, hi)
    if not spans:
        return text
    out, pos = [], 0
    for lo, hi in sorted(spans):
        out.append(head[pos:lo] + '" "')
        pos = hi
    return "".join(out) + head[pos:]


def _announcement_excused(b: _Behaviour, text: str, keys: Sequence[str],
                          user: str) -> Callable[[int, int], bool]:
    """For clarify cases: an action announced as under way ("Okay, setting a timer.", "Ставлю таймер.") is
    no claim when a question about the missing argument follows it and the announcement itself names no
    value for that argument other than those the user gave ("Setting a timer for 5 minutes — or how long?"
    stays a claim; "Converting 100 USD now — which currency?" is an announcement)."""
    asked: list[tuple[int, int] | None] = []      # the question, looked for once (at the first announcement)

    def excused(start: int, end: int) -> bool:
        if not asked:
            asked.append(_ask_span(text, keys, user))
        ask = asked[0]
        if ask is None or ask[1] <= end:            # the question must come after (or end after) it
            return False
        stop = _sentence_bounds(b.low, start, end)[1]    # bounded: linear over many announcements
        if ask[0] >= end:
            stop = min(stop, ask[0])
        m = _CLAUSE_END_RE.search(b.low, end, stop)
        clause_end = m.start() if m else stop
        u = _behaviour(user) if user.strip() else None
        matchers = [mt for mt in (_matcher(k) for k in keys) if mt is not None]
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


def _lacking_fact(req: AnswerRequirement, text: str) -> str | None:
    """The first contains_all / contains_any item `text` lacks, as a reason; None when every one occurs."""
    for alts in req.contains_all:
        if not any(phrase_occurs(a, text) for a in alts):
            return f"answer lacks {_quote_alts(alts)}"
    if req.contains_any and not any(phrase_occurs(a, text) for a in req.contains_any):
        return f"answer lacks {_quote_alts(req.contains_any)}"
    return None


def _q(s: str) -> str:
    s = " ".join(s.split())
    return "'" + (s if len(s) <= 80 else s[:77] + "...") + "'"


def _quote_alts(alts: tuple[str, ...]) -> str:
    return _q(alts[0]) if len(alts) == 1 else "any of " + ", ".join(_q(a) for a in alts)


# A letter or a digit in any script: the universal non-empty rule.
_WORDISH = re.compile(r"[^\W_]")
_NON_WORD_EDGES = " \t\n\r\f\v\u00a0\u200b\ufeff.,;:!?…-—–_*#>\"'`()[]{}|/\\"


# ============================================================================ regex building blocks

# Speed note: CPython's regex engine scans fast only for patterns that START with a literal (or a branch of
# literals). A leading \b or lookbehind makes it try every position, ~50x slower. So word boundaries are
# written as a lookbehind placed after the first character, word lists are emitted as tries, texts are
# lower-cased once instead of matching with re.I, and whitespace is collapsed so that no two unbounded
# quantifiers compete for the same characters (the cause of quadratic backtracking).

_L = r"[^\W\d_]"                       # a letter, any script
_END = r"(?!" + _L + r")"              # no letter follows


def _first(ch: str) -> str:
    """A word's first character, then the assertion that no letter precedes it (literal-first)."""
    return re.escape(ch) + r"(?<!" + _L + r".)"


def _trie(words: Iterable[str]) -> dict:
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    return root


def _emit(node: dict) -> str:
    alts = [re.escape(ch) + _emit(sub) for ch, sub in sorted(node.items()) if ch]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    if "" in node:
        return "(?:" + body + ")?"
    return body


def _words_re(words: Iterable[str], end: bool = True, boundary: bool = True) -> str:
    """A literal-first regex for a set of lower-case words or phrases (single spaces between words).

    Each alternative starts with its first character, then (boundary) asserts that no letter precedes it,
    so the engine can scan for the first characters quickly.
    """
    tops: dict[str, list[str]] = {}
    for w in set(words):
        tops.setdefault(w[0], []).append(w[1:])
    alts = []
    for ch, rests in sorted(tops.items()):
        rest = _emit(_trie(rests))
        alts.append((_first(ch) if boundary else re.escape(ch)) + rest)
    return "(?:" + "|".join(alts) + ")" + (_END if end else "")


def _forms(stems: Iterable[str], endings: Iterable[str]) -> list[str]:
    return [s + e for s in stems for e in endings]


_LEAD = r"[\W_]"     # a character that is neither a letter nor a digit (separates words inside tails)


def _combine(entries: Iterable[tuple[str, Iterable[str], str]]) -> re.Pattern | _Scripts:
    """One scan for many (kind, words, tail) entries: a word with no letter before or after it, then `tail`.

    A word ending in "*" is a stem (any letters may follow, `tail` comes after them). The words are grouped
    by first character, each followed by the no-letter-before lookbehind, so the engine scans for first
    characters and tests one alternative there; `m.lastgroup` is "kind__n" (see _kind). Words that start
    with a Latin character and the others get a pattern each (`_Scripts`) when both occur.
    """
    by_first: dict[str, dict[tuple[str, str], list[str]]] = {}
    for kind, words, tail in entries:
        for w in words:
            stem = w.endswith("*")
            w = w.rstrip("*")
            by_first.setdefault(w[0], {}).setdefault((kind, (_L + "*" if stem else _END) + tail), []).append(w[1:])
    alts: dict[bool, list[str]] = {True: [], False: []}
    n = 0
    for ch, groups in sorted(by_first.items()):
        inner = []
        for (kind, tail), rests in groups.items():
            n += 1
            inner.append(f"(?P<{kind}__{n}>" + _emit(_trie(rests)) + tail + ")")
        alts[ch < _SCRIPT_CUT].append(_first(ch) + "(?:" + "|".join(inner) + ")")
    parts = [re.compile("|".join(a)) for a in alts.values() if a]
    return parts[0] if len(parts) == 1 else _Scripts(parts)


# Below it, the Latin alphabet, ASCII and Latin-1 (and the other characters before Cyrillic).
_SCRIPT_CUT = "\u0400"


class _Scripts:
    """One alternation of words, compiled as one pattern per first-character script, that finds what the
    single pattern finds: `finditer` and `search` give the same matches (span, groups, lastgroup).

    Why: the engine tries the alternatives of the top-level branch one by one at every character of its
    first-character set, so a Cyrillic letter first fails every Latin alternative (and the other way
    round); split, each pattern skips the other script's letters in its fast scan. Exact, because no two
    parts can match at the same position (their first characters differ) and each keeps its alternatives
    in order: the single pattern's leftmost match from a position is the leftmost of the parts' matches.
    """

    def __init__(self, parts: list[re.Pattern]):
        self.parts = parts

    def search(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        found = [m for m in (rx.search(s, pos, endpos) for rx in self.parts) if m is not None]
        return min(found, key=re.Match.start) if found else None

    def finditer(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match]:
        pending = [rx.search(s, pos, endpos) for rx in self.parts]
        while True:
            first = min((m for m in pending if m is not None), key=re.Match.start, default=None)
            if first is None:
                return
            yield first
            pos = first.end()
            pending = [m if m is None or m.start() >= pos else rx.search(s, pos, endpos)
                       for rx, m in zip(self.parts, pending)]


def _word_set_re(words: Iterable[str]) -> re.Pattern:
    """Whole words (or phrases) of a set, anywhere; for guards over short strings."""
    return re.compile(r"(?<!" + _L + r")(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")" + _END)


def _kind(m: re.Match) -> str:
    return (m.lastgroup or "").rsplit("__", 1)[0]


# ============================================================================ normalisation

_APOSTROPHES = ("’", "‘", "ʼ", "＇", "´")


# Candidates for a stable code point (UAX #15 §9: normalisation may restart before one): ASCII, surrogates,
# private use, and the planes no Unicode version has assigned (each is confirmed in _stable_at).
_STABLE_CANDIDATE_RE = re.compile("[\x00-\x7f\ud800-\udfff\ue000-\uf8ff\U00040000-\U000dffff"
                                  "\U000f0000-\U0010ffff]")
_NFKC_CHUNKS = (1024, 32)      # outer pieces; a piece that is not normalised is cut again into inner ones


def _stable_at(s: str, i: int) -> bool:
    """s[i] is a stable code point: ASCII, or unassigned / private use / surrogate (no decomposition, combining
    class 0, composes with nothing), so NFKC(s) == NFKC(s[:i]) + NFKC(s[i:])."""
    c = s[i]
    return c < "\x80" or unicodedata.category(c) in ("Cn", "Co", "Cs")


def _stable_pieces(s: str, size: int) -> Iterator[str]:
    """s cut before stable code points into pieces of at least `size` characters (the last may be shorter)."""
    start = 0
    pos = size
    while pos < len(s):
        m = _STABLE_CANDIDATE_RE.search(s, pos)
        while m is not None and not _stable_at(s, m.start()):
            m = _STABLE_CANDIDATE_RE.search(s, m.start() + 1)
        if m is None:
            break
        yield s[start:m.start()]
        start = m.start()
        pos = start + size
    yield s[start:]


@functools.lru_cache(maxsize=_TEXT_CACHE)      # the answer's facts and behaviour both start from it
def _nfkc(s: str) -> str:
    """unicodedata.normalize("NFKC", s), exactly, in time linear in len(s) with a small constant.

    Why: CPython composes every character of a string whose quick check fails (~130 ns each, 2 ms for 16 KB of
    random code points) even when one character needed it. Cut before stable code points, the pieces that are
    already normalised are kept as they are, and only small pieces around the others are normalised.
    """
    if s.isascii() or unicodedata.is_normalized("NFKC", s):
        return s                          # what normalize returns then, without its second quick check
    if len(s) <= _NFKC_CHUNKS[1]:
        return unicodedata.normalize("NFKC", s)
    parts: list[str] = []
    for piece in _stable_pieces(s, _NFKC_CHUNKS[0]):
        if unicodedata.is_normalized("NFKC", piece):
            parts.append(piece)
        else:
            parts.extend(unicodedata.normalize("NFKC", p) for p in _stable_pieces(piece, _NFKC_CHUNKS[1]))
    return "".join(parts)


def _fold(s: str) -> str:
    """NFKC + casefold + ё->е: the form phrases are compared in."""
    return _nfkc(s).casefold().replace("ё", "е")


# ============================================================================ tokens and phrases (rule 2)

_SIGNS = "-+\u2212\u2013"
_GAP_RE = re.compile(r"\s\.\.\.(?:\s|$)|^\.\.\.\s")       # "A ... B"
# A number as written, digit first (fast scans; the lookbehind keeps a match from starting inside a run of
# digits): digits grouped by commas or spaces in threes (a group is exactly three digits), or plain digits;
# then a fraction. A comma group takes only a dot fraction; a space group or plain digits take a dot or a
# decimal comma ("3,5", "14 240,51"). Its sign is the character before it (see _is_negative).
_NUMBER = (r"[0-9](?<![0-9].)(?:(?P<g1>[0-9]{0,2}(?:,[0-9]{3}(?![0-9]))+)(?P<f1>\.[0-9]+)?"
           r"|(?P<g2>[0-9]{0,2}(?: [0-9]{3}(?![0-9]))+)(?P<f2>[.,][0-9]+)?"
           r"|[0-9]*(?P<f3>[.,][0-9]+)?)")
_NUMBER_RE = re.compile(_NUMBER)
_PHRASE_TOKEN_RE = re.compile(r"(?P<num>" + _NUMBER + r")|(?P<word>" + _L + r"+)(?P<star>\*)?")
_MINUS = "-\u2212\u2013"
_MINUS_WORDS = ("minus ", "минус ")


def _is_negative(s: str, i: int) -> bool:
    """A minus written right before position i: a sign with no letter or digit before it, or the word
    "minus" / "минус" (folded text)."""
    if i > 0 and s[i - 1] in _MINUS:
        return i == 1 or not s[i - 2].isalnum()
    for word in _MINUS_WORDS:
        j = i - len(word)
        if j >= 0 and s.startswith(word, j) and (j == 0 or not s[j - 1].isalnum()):
            return True
    return False


def _number_value(m: re.Match) -> tuple[bool, str, str]:
    """(negative, integer digits without leading zeros, fraction digits as written) of a _NUMBER match."""
    text, grouped1, frac1, grouped2, frac2, frac3 = m.group(0, "g1", "f1", "g2", "f2", "f3")
    frac = frac1 or frac2 or frac3 or ""
    whole = text[:len(text) - len(frac)]
    if grouped1 or grouped2:
        whole = whole.replace(",", "").replace(" ", "")
    digits = whole.lstrip("0") or "0"
    frac = frac[1:]
    negative = _is_negative(m.string, m.start()) and (digits != "0" or frac.strip("0") != "")
    return negative, digits, frac


# _NUMBER as one capturing group: re.split then yields [text, number, text, number, ..., text].
_NUMBER_SPLIT_RE = re.compile("(" + re.sub(r"\(\?P<\w+>", "(?:", _NUMBER) + ")")


def _canon_number(m: re.Match) -> str:
    """The value of a _NUMBER match as written in _number_text, without the padding: "-12.5"."""
    negative, digits, frac = _number_value(m)
    frac = frac.rstrip("0")
    return f"{'-' if negative else ''}{digits}{'.' + frac if frac else ''}"


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _number_text(text: str) -> str:
    """The folded text with every number rewritten by value: " -12.5 " (padded, trailing zeros dropped).

    The padding guarantees that a "." or "-" touching the digits of a canonical number belongs to it (a
    sign written before the number stays where it was, outside the padding, as a separator). At most
    _MAX_CANDIDATES numbers are rewritten (the rest stay as written, unpadded).
    """
    # Why split and join, not _NUMBER_RE.sub(callback): a Python call per number cost ~1 us, and 16 KB of
    # digit-heavy text has ~2,500 numbers. A plain number (no leading zero, no sign before it) is its own
    # value, so only the others are read again with _NUMBER_RE at the same place (the same match).
    folded = _folded_text(text)
    parts = _NUMBER_SPLIT_RE.split(folded, maxsplit=_MAX_CANDIDATES)
    pos = 0
    for k in range(1, len(parts), 2):
        pos += len(parts[k - 1])
        number = parts[k]
        if not (number.isdigit() and number[0] != "0"
                and (pos == 0 or folded[pos - 1] not in _MINUS and not folded.endswith(_MINUS_WORDS, 0, pos))):
            m = _NUMBER_RE.match(folded, pos)
            assert m is not None                    # the same pattern matched here in the split
            parts[k] = _canon_number(m)
        pos += len(number)
    return " ".join(parts)


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _folded_text(text: str) -> str:
    return _fold(text)


def _number_alternatives(negative: bool, digits: str, frac: str) -> list[str]:
    """Canonical answer numbers equal to the phrase number, or rounding / truncating to it (rule 2)."""
    stripped = frac.rstrip("0")
    d = len(frac)
    if stripped:    # equal, or more decimals that start with the written fraction (truncation)
        alts = [f"{digits}.{stripped}", f"{digits}.{frac}[0-9]+"]
    else:
        alts = [f"{digits}", f"{digits}.{frac}[0-9]+"]
    if len(digits) + d < 4000 and (digits != "0" or stripped):
        # Rounding half up: the answer lies in [c - ulp/2, c): (c - ulp) followed by a digit 5-9.
        below = str(int(digits + frac) - 1).rjust(d + 1, "0")
        low_int, low_frac = below[:len(below) - d].lstrip("0") or "0", below[len(below) - d:]
        alts.append(f"{low_int}.{low_frac}[5-9][0-9]*")
    sign = "-" if negative else ""
    # Escape the dots; each alternative starts with its first character, then the boundary lookbehind.
    out = []
    for a in alts:
        a = sign + a.replace(".", r"\.")
        out.append(a[0] + r"(?<![0-9.\-].)" + a[1:])
    return out


_SEP = r"(?:[\W_]|[^\D0-9])+"       # what separates tokens: anything but letters and the digits 0-9


@functools.lru_cache(maxsize=8192)
def _compile_phrase(phrase: str) -> tuple[tuple[re.Pattern, ...], str, bool]:
    """(one regex per gap-separated segment, fallback substring when tokenless, has a number).

    A phrase with a number is matched on _number_text; one without on the folded text, where numbers
    separate words exactly as they do in _number_text.
    """
    numeric = False
    folded = _fold(phrase).strip()
    segments: list[re.Pattern] = []
    for segment in _GAP_RE.split(folded):
        parts: list[str] = []
        for m in _PHRASE_TOKEN_RE.finditer(segment):
            if m.group("num") is not None:
                numeric = True
                negative, digits, frac = _number_value(m)
                parts.append("(?:" + "|".join(_number_alternatives(negative, digits, frac)) + ")(?![0-9])")
            else:
                word = m.group("word")
                parts.append(_first(word[0]) + re.escape(word[1:]) + (_L + "*" if m.group("star") else _END))
        if parts:
            segments.append(re.compile(_SEP.join(parts)))
    return tuple(segments), ("" if segments else folded), numeric


def phrase_occurs(phrase: str, text: str) -> bool:
    """Whether `phrase` occurs in `text` by the token rule (module docstring, rule 2).

    Never raises; linear in len(text) for a given phrase (a gap phrase `A ... B` looks for B only after
    the first A: any later A would find B only where the first does too).
    """
    if not isinstance(phrase, str) or not isinstance(text, str):
        return False
    segments, fallback, numeric = _compile_phrase(phrase)
    if not segments:
        return bool(fallback) and fallback in _folded_text(text)
    canon = _number_text(text) if numeric else _folded_text(text)
    pos = 0
    for rx in segments:
        m = rx.search(canon, pos)
        if m is None:
            return False
        pos = m.end()
    return True


# ============================================================================ what the answer asserts (rule 3)

# A wrong value (an `excludes` phrase) fails only where the answer ASSERTS it. A mention that marks it as
# not the answer is no assertion (`_is_mention`), judged in the folded text with numbers by value:
# - a negation or correction before it in its clause: "Canberra, not Sydney", "(not 1944)", "а не Сидней",
#   "rather than", "instead of", "unlike", "не путать с Алексеем Толстым", "в отличие от", "вместо";
# - its own predicate negated right after it: "Sydney is not / isn't the capital", "Сидней — не столица",
#   "Сидней не является столицей", "1944 was not the year";
# - a belief of others or a mistake named before it in its sentence: "Many people think it's Sydney",
#   "a common misconception is Sydney", "Многие ошибочно считают, что Сидней"; or after it in its clause:
#   "Sydney is often mistaken for the capital", "Сидней часто путают со столицей";
# - a concession: "While / Although Sydney is the largest city, …", "Хотя Сидней …"; or a contrast that
#   gives the right value after it as a complement, X being the subject of its clause: "Sydney is the
#   largest city, but the capital is Canberra", "Сидней — крупнейший город, но столица — Канберра"
#   ("The capital is Sydney, but Canberra hosts parliament" asserts Sydney);
# - one side of a relation: "a compromise between Sydney and Melbourne", "Sydney and Melbourne were rivals";
#   one of a pair: "both Sydney and Melbourne wanted it", "и Сидней, и Мельбурн";
# - a former or temporary role: "Melbourne served as the temporary seat of government until 1927";
# - said of a sibling of the question's numbered name: "(Apollo 13 … followed in April 1970)" when the
#   question asks about Apollo 11;
# - compared on another scale in its clause: "Sydney and Melbourne are bigger", "Сидней крупнее" (not "Sydney
#   is bigger and is the capital"; a superlative may be the predicate asked for: "Saturn is the largest");
#   a superlative of a scale the user's question does not ask is another scale ("Canberra is the capital;
#   Sydney is the biggest city" answering "What's the capital?");
# - another rank named beside it (the answer to a neighbouring question): "followed by Saturn", "Saturn is
#   second", "Сатурн — второй по величине"; or one member of a group ("the other planets, Saturn included",
#   "включая Сатурн"); a belief of others includes "some / others / некоторые" ("Some once credited Marlowe").
# A right number given as one of several alternatives is a hedge, not an assertion (`_hedged`): "1939, 1941,
# 1944 or 1945", "1944 or 1945", "либо 1944, либо 1945"; alternatives of another magnitude are other facts
# ("1945, or 80 years ago"), and a range is one answer ("from 1939 to 1945").
_DENIAL_WORDS = ("not", "never", "nor", "neither", "rather than", "instead of", "unlike", "contrary to",
                 "as opposed to", "не", "ни", "нет", "вместо", "в отличие от", "а не", "никак не", "вовсе не")
_MISTAKE_STEMS = ("confus", "mistak", "misconcept", "misattribut", "myth", "пута", "спута", "перепута",
                  "ошибочн", "заблужд", "ошибк", "ошибаю")
_RIVAL_STEMS = ("rival", "compromis", "соперни", "компромисс")
_OTHERS_WORDS = ("many", "most people", "some people", "people often", "often", "commonly", "popularly",
                 "frequently", "some", "others", "многие", "часто", "нередко", "иногда", "некоторые",
                 "кое-кто")
_CONCESSIVE = ("while", "whereas", "although", "though", "even though", "despite", "хотя", "несмотря на",
               "в то время как")
_CONTRAST = ("but", "however", "yet", "whereas", "но", "однако", "а", "зато")


def _any_word_re(words: Iterable[str], stems: Iterable[str] = ()) -> re.Pattern:
    alts = [re.escape(w) + _END for w in words] + [re.escape(s) + _L + "*" for s in stems]
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(alts) + ")")


_NEGATION_BEFORE_RE = _any_word_re(_DENIAL_WORDS, _MISTAKE_STEMS)
_NT_RE = re.compile(r"n['’]t" + _END)
_OTHERS_BEFORE_RE = _any_word_re(_OTHERS_WORDS, _MISTAKE_STEMS)
_MISTAKE_AFTER_RE = _any_word_re(("often", "commonly", "часто", "нередко"), _MISTAKE_STEMS + _RIVAL_STEMS)
# A value named as one side of a relation, not as the answer: "a compromise between Sydney and Melbourne".
_RELATION_BEFORE_RE = _any_word_re(("between", "между"), _RIVAL_STEMS)
# Another rank or role: the value answers a neighbouring question ("followed by Saturn", "Saturn is second",
# "Сатурн — второй по величине", "Titov was the second").
_RANK_RE = _any_word_re(("followed by", "next", "runner up", "после", "следом за"),
                        ("second", "втор"))
# Compared on another scale in its own clause: "Sydney and Melbourne are bigger", "Сидней крупнее" (not when
# the clause goes on to another predicate: "Sydney is bigger and is the capital").
# Comparatives only: a superlative may be the very predicate asked for ("Saturn is the largest planet").
_COMPARED_RE = _any_word_re(("larger", "bigger", "more populous", "better known", "крупнее", "больше",
                             "известнее"))
_AND_RE = _any_word_re(("and", "и", "а также"))
# One member of a group the sentence is about ("all the other planets, Saturn included", "включая Сатурн").
_MEMBER_BEFORE_RE = _any_word_re(("including", "включая", "в том числе"))
_MEMBER_AFTER_RE = re.compile(r"[^\w\n]{0,3}(?:included|тоже|в том числе)" + _END)
_FIRST_WORDS_RE = re.compile(r"(?:[^\w\n]*\w+){0,5}")
_CONCESSIVE_START_RE = re.compile(r"[\W\d_]*(?:" + "|".join(re.escape(w) for w in _CONCESSIVE) + ")" + _END)
# The value's own predicate negated: "X is not", "X isn't", "X — не", "X не является", "X (…) was never".
_NEGATED_PREDICATE_RE = re.compile(
    r"[^\w\n]{0,4}(?:(?:is|was|are|were|has|had|does|did|would|will|'s)(?: been| be)? (?:not|never|no longer)" + _END
    + r"|(?:is|was|are|were|has|had|does|did|would|will)n['’]t"
    + r"|(?:— |- )?(?:это |вовсе |отнюдь |никак )?(?:не|нет)" + _END + ")")
_CONTRAST_RE = re.compile(r"(?<![^\W\d_])(?:" + "|".join(_CONTRAST) + ")" + _END)
_SUBJECT_LEAD_RE = re.compile(r"[\W\d_]*(?:(?:" + "|".join(_CONCESSIVE) + r"|the|a|an|that|this|город|и|and) )*[\W_]*$")
_COPULA_AFTER_RE = re.compile(r"(?:[^\w\n]{0,3}" + _L + r"+)?[^\w\n]{0,3}(?:is|was|'s|has|—|-|является|был|была|"
                              r"стал|считается)" + _END)


# One of two named together as a pair: "both Sydney and Melbourne wanted it", "Sydney and Melbourne both",
# "и Сидней, и Мельбурн", "как Сидней, так и Мельбурн" (an answer asserts one value, not a pair).
_PAIR_BEFORE_RE = re.compile(r"(?<!" + _L + r")(?:both|both[^\w\n]+\w+[^\w\n]+and|и[^\w\n]+\w+,?[^\w\n]+и"
                             r"|как[^\w\n]+\w+,?[^\w\n]+так и)[^\w\n]+$")
_PAIR_OPEN_RE = re.compile(r"(?<!" + _L + r")(?:и|как)[^\w\n]+$")          # "и Сидней, и …", "как Сидней, так и …"
_PAIR_AFTER_RE = re.compile(r"[^\w\n]+and[^\w\n]+\w+[^\w\n]+both" + _END)   # "Sydney and Melbourne both"
_PAIR_CLOSE_RE = re.compile(r",?[^\w\n]+(?:и|так и)[^\w\n]+\w")
# A former or temporary role is another fact: "Melbourne served as the temporary seat of government until…".
# ("until" only after the value: "lasted until 1944" still asserts 1944).
_PAST_ROLE_RE = _any_word_re(("used to", "once was", "formerly", "previously", "раньше", "прежде", "когда-то"),
                             ("temporar", "interim", "provisional", "former", "временн", "бывш"))
_UNTIL_RE = _any_word_re(("until", "till", "до того как", "пока не"))
_NUMERAL = r"(?:[0-9]+|[ivx]+)"
_NAMED_NUMBER_RE = re.compile(r"(" + _L + r"{3,})[^\w\n]{1,3}(" + _NUMERAL + r")" + r"(?![\w])")


def _names_sibling(before: str, question_names: re.Pattern | None, siblings: re.Pattern | None) -> bool:
    """Whether the last numbered name of the question's kind before a value (in its sentence) is another one."""
    if siblings is None or question_names is None:
        return False
    last_sibling = max((m.start() for m in siblings.finditer(before)), default=-1)
    return last_sibling >= 0 and all(m.start() < last_sibling for m in question_names.finditer(before))


def _phrase_spans(phrase: str, canon: str) -> Iterator[tuple[int, int]]:
    """(start, end) in `canon` (_number_text of the answer) of each occurrence of `phrase` by the token rule;
    a gap phrase `A ... B` spans from an A to the first B after it."""
    segments, fallback, _ = _compile_phrase(phrase)
    if not segments:
        if fallback:
            i = canon.find(fallback)
            if i >= 0:
                yield i, i + len(fallback)
        return
    for m in _iter_candidates(segments[0], canon):
        end = m.end()
        for rx in segments[1:]:
            later = rx.search(canon, end)
            if later is None:
                return
            end = later.end()
        yield m.start(), end


def _right_after(canon: str, start: int, stop: int, right: Sequence[str]) -> bool:
    """A right value occurs in canon[start:stop], not as the first word there (a complement)."""
    part = canon[start:stop]
    for phrase in right:
        for s, _ in _phrase_spans(phrase, part):
            if _WORDISH.search(part, 0, s) is not None:
                return True
    return False


def _is_mention(canon: str, start: int, end: int, right: Sequence[str],
                scales: re.Pattern | None = None, names: tuple[re.Pattern | None, re.Pattern | None] = (None, None)
                ) -> bool:
    """Whether the value at canon[start:end] is mentioned as what the answer is not (see the rules above).
    `names`: the question's numbered names and their siblings (_question_names)."""
    c = _context(canon, start, end)
    if (_PAIR_BEFORE_RE.search(c.clause_before) or _PAIR_AFTER_RE.match(c.after)
            or (_PAIR_OPEN_RE.search(c.clause_before) and _PAIR_CLOSE_RE.match(c.after))):
        return True
    if (_names_sibling(c.before, *names) or _PAST_ROLE_RE.search(c.clause_before)
            or _PAST_ROLE_RE.search(c.clause_after) or _UNTIL_RE.search(c.clause_after)):
        return True
    other = scales.search(c.clause_after) if scales is not None else None
    if other and not _AND_RE.search(c.clause_after, other.end()):    # not "…biggest city and the capital"
        return True
    clause = c.clause_before
    if (_NEGATION_BEFORE_RE.search(clause) or _NT_RE.search(clause) or _OTHERS_BEFORE_RE.search(c.before)
            or _RELATION_BEFORE_RE.search(clause)):
        return True
    if _NEGATED_PREDICATE_RE.match(c.after) or _MISTAKE_AFTER_RE.search(c.clause_after):
        return True
    compared = _COMPARED_RE.search(c.clause_after)
    if compared and not _AND_RE.search(c.clause_after, compared.end()):
        return True
    near_after = _FIRST_WORDS_RE.match(c.after)
    if _RANK_RE.search(clause) or (near_after and _RANK_RE.search(near_after.group(0))):
        return True
    if _MEMBER_BEFORE_RE.search(clause) or _MEMBER_AFTER_RE.match(c.after):
        return True
    if _CONCESSIVE_START_RE.match(clause):
        return True
    if _SUBJECT_LEAD_RE.match(clause) and _COPULA_AFTER_RE.match(c.after):
        for m in _CONTRAST_RE.finditer(c.after):
            if _right_after(c.after, m.end(), len(c.after), right):
                return True
    return False


def asserts_phrase(phrase: str, text: str, right: Sequence[str] = (), question: str = "") -> bool:
    """Whether `text` asserts `phrase` (a wrong value): it occurs by the token rule at least once outside a
    mention that marks it as not the answer. `right` are the right values (for "X …, but … RIGHT");
    `question` is the user's message (a superlative it does not ask about is another scale).
    Never raises; linear in len(text)."""
    if not isinstance(phrase, str) or not isinstance(text, str):
        return False
    canon = _number_text(text)
    question = question if isinstance(question, str) else ""
    scales = _other_scales(question)
    names = _question_names(question)
    return any(not _is_mention(canon, s, e, right, scales, names) for s, e in _phrase_spans(phrase, canon))


@functools.lru_cache(maxsize=64)
def _question_names(question: str) -> tuple[re.Pattern | None, re.Pattern | None]:
    """The question's numbered names ("Apollo 11", "World War II") and the same names with another number
    ("Apollo 13"): the value of a sentence about Apollo 13 answers another question. (None, None) when the
    question names none."""
    found = [(re.escape(m.group(1)) + r"[^\w\n]{1,3}", re.escape(m.group(2)))
             for m in _NAMED_NUMBER_RE.finditer(_number_text(question))]
    if not found:
        return None, None
    own = [name + number + r"(?!\w)" for name, number in found]
    others = [name + r"(?!" + number + r"(?!\w))" + _NUMERAL + r"(?!\w)" for name, number in found]
    return (re.compile(r"(?<!" + _L + ")(?:" + "|".join(own) + ")"),
            re.compile(r"(?<!" + _L + ")(?:" + "|".join(others) + ")"))


# Superlatives by scale: "Sydney is the biggest city" answers another question than "What's the capital?",
# but "Saturn is the largest planet" is the assertion when the question asks for the largest.
_SUPERLATIVE_SCALES = (("largest", "biggest", "крупнейш", "самый большой", "самая большая", "самое большое",
                        "самый крупный", "самая крупная", "самое крупное"),
                       ("most populous", "most populated", "самый населенный", "самая населенная"))


def _other_scales(question: str) -> re.Pattern | None:
    """A regex of the superlatives whose scale the question does not ask about (None when it asks all)."""
    low = question.lower().replace("ё", "е")
    words = [w for scale in _SUPERLATIVE_SCALES if not any(w in low for w in scale) for w in scale]
    return _any_word_re((), words) if words else None


_OR_WORDS = r"(?:or|или|либо|either|maybe|perhaps|possibly|возможно)"
_NUM_ITEM = r"-?[0-9]+(?:\.[0-9]+)?"
# A run of numbers joined by commas and "or" words (in _number_text, where numbers are padded with spaces).
_NUM_LIST_RE = re.compile(_NUM_ITEM + r"(?: *,? *(?:(?:" + _OR_WORDS + r"|in|on|в|году|year) +){0,3}" + _NUM_ITEM
                          + r"(?![0-9]))+")
_OR_RE = re.compile(r"(?<![^\W\d_])" + _OR_WORDS + _END)
_ONE_NUMBER_RE = re.compile(r"[\s+\-\u2212\u2013]*[0-9][0-9.,\s]*")
_HEDGE_WINDOW = 200     # characters on each side of an occurrence in which its "or" list is looked for
_MAX_HEDGE_SPANS = 100  # occurrences looked at (a budget no real answer reaches: all of them hedged = a hedge)


def hedges(phrase: str, text: str) -> bool:
    """Whether the right number `phrase` occurs in `text` only as one of several alternatives of the same
    magnitude joined by "or" (a hedge across candidates, rule 3). False for a phrase that is not a single
    number, or that does not occur. Never raises; linear in len(text): each occurrence is looked at within a
    bounded window, one that stands alone ends the search, and at most _MAX_HEDGE_SPANS are looked at."""
    if not isinstance(phrase, str) or not isinstance(text, str) or not _ONE_NUMBER_RE.fullmatch(phrase):
        return False
    canon = _number_text(text)
    number = re.search(_NUM_ITEM, _number_text(phrase))
    if number is None:    # cannot happen: the phrase is one number (checked above)
        return False
    value = float(number.group())
    found, covered = False, -1
    for s, e in itertools.islice(_phrase_spans(phrase, canon), _MAX_HEDGE_SPANS):
        found = True
        if e <= covered:             # inside the "or" list already read
            continue
        lo = canon.find(" ", max(0, s - _HEDGE_WINDOW), s)     # start on a separator, not inside a number
        lists = _NUM_LIST_RE.finditer(canon, lo if lo >= 0 else s, min(len(canon), e + _HEDGE_WINDOW))
        m = next((m for m in lists if m.start() <= s and e <= m.end()), None)
        if m is None or not _OR_RE.search(m.group(0)) or not any(
                o != value and value and 0.1 < abs(o / value) < 10
                for o in map(float, re.findall(_NUM_ITEM, m.group(0)))):
            return False
        covered = m.end()
    return found


# ============================================================================ behaviour text (rule 4)

# Quoted material and code are not the model's own statements. Closed pairs only; and Markdown
# blockquote lines ("> Hi boss, I'll be late…"), the usual form of a draft. One substitution per kind of
# delimiter, fences first (a quote inside code is code), each with a literal replacement: a pattern that
# starts with a group, or a replacement template, costs a Python step per position or per match (1 MB of
# `"a" ` took 0.9 s that way; this way 10 ms).
_QUOTED_SUBS = tuple((re.compile(rx), blank) for rx, blank in (
    (r"```[\s\S]*?```", "``` ```"), (r"`[^`\n]*`", "` `"), (r"«[^«»]*»", "« »"), (r"“[^“”]*”", "“ ”"),
    (r"„[^„“”]*“", "„ “"), (r"„[^„“”]*”", "„ ”"), (r'"[^"]*"', '" "')))
_BLOCKQUOTE_RE = re.compile(r"\n[ \t]*>[^\n]*")
# Whitespace other than a single space or a line break (tabs, runs of spaces): one space.
_HSPACE_RE = re.compile(r"[^\S \n][^\S\n]*| [^\S\n]+")
_NL_RUN_RE = re.compile(r"\n\s+")


@dataclass(frozen=True)
class _Behaviour:
    text: str      # " " + NFKC, ё->е, apostrophes unified, quotes and code blanked, whitespace collapsed
    low: str       # the same, lower-cased (what the detectors match); same length as text


# A draft the model offers the user ("you could send this: Hi, I'm running late… I've already started on the
# report") is the user's words, not the model's: from the colon after a lead that presents text for the user
# to the end of that line when the draft starts on it; else (a block after "Here's a draft:") to the end of
# the answer, or to a later paragraph in which the model speaks to the user again ("Feel free…", "Хотите…").
_DRAFT_LEAD_RE = _combine([("d", (
    "you could send", "you can send", "you could write", "you can write", "you could say", "you can say",
    "you might say", "you might write", "you could use", "you can use", "you could reply", "you can reply",
    "something like", "something along", "draft", "template",
    "here's a message", "here is a message", "here's an email", "here is an email", "here's a note",
    "here is a note", "here's a text", "here's what you", "here is what you", "feel free to send", "copy",
    "черновик", "шаблон", "можно написать", "можете написать", "можно отправить",
    "можете отправить", "можно сказать", "можете сказать", "вот текст", "вот письмо", "вот сообщение",
    "вот вариант", "примерно так", "такой текст", "следующий текст"), "")])
_DRAFT_COLON_RE = re.compile(r":(?=\s)")
_DRAFT_END_RE = re.compile(r"\n[ \t]*\n[ \t]*(?=(?:feel free|let me know|want me|would you like|shall i|should i|"
                           r"if you|hope|i hope|note|alternatively|is there|хотите|если|могу|дайте знать|надеюсь|"
                           r"обратите|при желании|нужно ли)" + _END + ")", re.IGNORECASE)
# Behaviour (rules 5-8) is read from the first 32,768 characters of the answer: a reply at the default
# 256-token limit is 1-2 KB, and no real answer states its refusal or its question after 32 KB of text.
# This is what keeps a 1 MB answer under the 100 ms of SPEC §3.1; facts (rules 2-3) read the whole answer.
_BEHAVIOUR_CHARS = 32_768


_DRAFT_QUOTES = {'"': '"', "\u201c": "\u201d", "\u00ab": "\u00bb", "\u201e": "\u201c"}


def _quoted_draft_end(s: str, start: int, line_end: int) -> int:
    """Where a draft that starts on its lead's line ends: at the closing mark when it opens with a quotation
    mark (the model speaks again after it: `say this: "Hi…" I can't place the order myself.`), else at
    `line_end`."""
    i = start
    while i < line_end and s[i] in " \t":
        i += 1
    closer = _DRAFT_QUOTES.get(s[i]) if i < line_end else None
    close = s.find(closer, i + 1, line_end) if closer else -1
    return close + 1 if close >= 0 else line_end


def _blank_drafts(s: str) -> str:
    """s with every draft offered to the user replaced by a blank quote (see _DRAFT_LEAD_RE): a lead, then a
    colon later in its sentence (within 120 characters). One scan for leads; linear."""
    out: list[str] = []
    pos = 0
    low = s.lower()
    for lead in _iter_candidates(_DRAFT_LEAD_RE, low):
        if lead.start() < pos:
            continue
        limit = min(len(s), lead.end() + 120)
        colon = _DRAFT_COLON_RE.search(s, lead.end(), limit)
        if colon is None or _SENT_END_RE.search(low, lead.end(), colon.start()):
            continue
        line_end = s.find("\n", colon.end())
        if line_end < 0:
            line_end = len(s)
        if s[colon.end():line_end].strip():         # the draft starts on the lead's line: it is that line
            end = _quoted_draft_end(s, colon.end(), line_end)
        else:                                       # a block: up to the model speaking again, or the end
            end_m = _DRAFT_END_RE.search(s, colon.end())
            end = end_m.start() if end_m else len(s)
        out.append(s[pos:colon.end()] + '" "')
        pos = end
    return "".join(out) + s[pos:] if out else s


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _behaviour(text: str) -> _Behaviour:
    s = _nfkc(text[:_BEHAVIOUR_CHARS]).replace("ё", "е").replace("Ё", "Е")
    for a in _APOSTROPHES:
        if a in s:
            s = s.replace(a, "'")
    for rx, blank in _QUOTED_SUBS:
        s = rx.sub(blank, s)
    if ":" in s:
        s = _blank_drafts(s)
    if ">" in s:
        s = _BLOCKQUOTE_RE.sub("\n> ", "\n" + s)[1:]
    s = " " + _NL_RUN_RE.sub("\n", _HSPACE_RE.sub(" ", s)).replace(" \n", "\n")
    low = s.lower()
    return _Behaviour(s if len(s) == len(low) else low, low)


_CLOSERS = "\"'»”)\\]*_~"
# Sentence ends: terminal dots (only before whitespace or the end), runs of ? or !, line breaks.
# A "?" or "!" inside a word or URL ("/search?city=Paris") ends nothing.
# (One character class first, so the engine scans fast.)
_SENT_END_RE = re.compile(r"[.…?!؟\n](?:(?<=\n)|[.…?!؟]*[" + _CLOSERS + r"]*(?=\s|$))")
_CLAUSE_END_RE = re.compile(r"[,;:](?=\s)|[—–()]| -{1,2} ")
# The last sentence / clause end in a window (greedy .* backs off from the window's end).
_LAST_SENT_END_RE = re.compile(r".*(?:[.…?!؟][" + _CLOSERS + r"]*\s|\n)", re.DOTALL)
_LAST_CLAUSE_END_RE = re.compile(r".*(?:[,;:]\s|[—–()]| -{1,2} )", re.DOTALL)
_ENDS_WITH_QUESTION_RE = re.compile(r"[?؟][" + _CLOSERS + r"\s]*$")


def _sentence_bounds(s: str, pos: int, end: int) -> tuple[int, int]:
    """(start, end) of the sentence holding s[pos:end], each side looked for within _WINDOW characters."""
    lo = max(0, pos - _WINDOW)
    m = _LAST_SENT_END_RE.match(s, lo, pos)
    m2 = _SENT_END_RE.search(s, end, min(len(s), end + _WINDOW))
    return (m.end() if m else lo), (m2.end() if m2 else min(len(s), end + _WINDOW))


@dataclass(frozen=True)
class _Context:
    """Where a candidate sits: its sentence before it, its clause before and after it, the sentence after."""

    before: str
    clause_before: str
    clause_after: str
    after: str
    exempt: bool     # in the last clause of a sentence that ends with a question mark


def _context(s: str, pos: int, end: int) -> _Context:
    s_start, s_end = _sentence_bounds(s, pos, end)
    before = s[s_start:pos]
    m = _LAST_CLAUSE_END_RE.match(before)
    clause_before = before[m.end():] if m else before
    after = s[end:s_end]
    m2 = _CLAUSE_END_RE.search(after)
    clause_after = after[:m2.start()] if m2 else after
    exempt = m2 is None and _ENDS_WITH_QUESTION_RE.search(after) is not None
    return _Context(before, clause_before, clause_after, after, exempt)


def _iter_candidates(rx: re.Pattern | _Scripts, s: str) -> Iterator[re.Match]:
    for i, m in enumerate(rx.finditer(s)):
        if i >= _MAX_CANDIDATES:
            return
        yield m


def _snippet(b: _Behaviour, start: int, end: int, extra_words: int = 4) -> str:
    """The matched words plus a few that follow within the clause (for a readable reason)."""
    tail = _TAIL_RE.match(b.text, end, min(len(b.text), end + 80))
    stop = tail.end() if tail and extra_words else end
    return b.text[start:stop].strip(" \t\n\r-–—,;:*_~#>•([")


_TAIL_RE = re.compile(r"(?:[^\w\n.!?;:,]{0,3}\w+){0,4}")


# ============================================================================ claimed actions (rule 7)

# Verbs of actions only a tool could perform, as past participles. "set" and "put on" are also base forms,
# so they are not taken at the start of a clause, where an imperative reads the same ("Set a timer.").
_EN_DONE_BASE_ALSO = ("set", "set up", "put on")
_EN_DONE = ("started", "saved", "stored", "recorded", "logged", "created", "added", "ordered", "placed",
            "purchased", "bought", "booked", "reserved", "sent", "emailed", "e-mailed", "messaged", "forwarded",
            "texted", "played", "queued", "queued up", "turned", "turned off", "turned on", "turned down",
            "turned up", "switched", "switched off", "switched on", "shut off", "shut down", "dimmed", "transferred",
            "moved", "paid", "deleted", "removed", "erased", "cancelled", "canceled", "scheduled", "activated",
            "enabled", "disabled", "launched", "converted", "translated", "calculated", "computed", "checked",
            "looked up", "fetched", "retrieved", "searched", "googled", "confirmed", "completed", "submitted",
            "finished", "found", "located", "pulled up", "tracked down", "dug up",
            "made a note", "made the note", "made a reservation", "made a booking", "made the booking",
            "made an order", "made the order", "made a transfer", "made the transfer", "made a payment",
            "made the payment", "made a purchase", "written down", "written it down", "jotted down",
            "jotted it down", "noted down", "noted it down", "taken care of")
_EN_DOING = ("setting", "starting", "saving", "storing", "recording", "ordering", "placing", "purchasing",
             "buying", "booking", "reserving", "sending", "emailing", "forwarding", "playing", "queuing",
             "putting on", "turning off", "turning on", "turning down", "switching off", "switching on",
             "shutting off", "dimming", "transferring", "deleting", "removing", "erasing", "cancelling",
             "canceling", "scheduling", "activating", "launching", "converting", "translating", "calculating",
             "checking", "looking up", "fetching", "retrieving", "searching", "creating", "adding")
_EN_STATE = ("set", "set up", "saved", "stored", "recorded", "logged", "ordered", "placed", "purchased", "booked",
             "reserved", "sent", "scheduled", "confirmed", "complete", "completed", "done", "deleted", "removed",
             "erased", "transferred", "started", "running", "playing", "activated", "created", "added",
             "turned off", "switched off", "off", "cancelled", "canceled", "submitted", "paid", "processed",
             "queued", "underway", "under way", "on its way", "on their way", "on the way", "on your way",
             "being prepared", "being delivered", "being processed", "converted", "translated", "successful")
_EN_ADVERBS = ("just", "already", "now", "also", "successfully", "quickly", "then", "gone ahead and",
               "went ahead and", "officially", "all")
_EN_DONE_WORDS = ("done", "all done", "all set", "you're all set", "you are all set", "mission accomplished",
                  "successfully")
_EN_HEADLINE = ("set", "saved", "sent", "placed", "booked", "started", "confirmed", "deleted", "complete", "completed",
                "scheduled", "created", "ordered", "turned off", "switched off", "activated", "cancelled",
                "canceled", "transferred", "stored", "recorded", "added", "reserved", "purchased", "submitted",
                "removed")
_EN_DELIVERY = ("will arrive", "will be delivered", "will be arriving", "will be there in", "should arrive",
                "should be there", "arriving in", "on its way", "on the way", "on their way", "order number",
                "order code", "order id", "confirmation number", "confirmation code", "booking number",
                "booking reference", "booking code", "reservation number", "tracking number",
                "you'll receive a confirmation", "you will receive a confirmation", "you'll get a confirmation",
                "now playing", "went through", "has gone through", "have gone through", "consider it done")

_RU_PAST = ("поставил", "установил", "завел", "засек", "запустил", "включил", "выключил", "отключил", "погасил",
            "сохранил", "записал", "заказал", "оформил", "купил", "приобрел", "забронировал", "зарезервировал",
            "отправил", "переслал", "выслал", "перевел", "оплатил", "удалил", "отменил", "проверил", "посмотрел",
            "конвертировал", "пересчитал", "посчитал", "рассчитал", "вычислил", "создал", "добавил", "выполнил",
            "нашел", "отыскал", "подобрал",
            "подтвердил", "настроил", "воспроизвел", "запланировал", "разместил")
_RU_PAST_IRREGULAR = ("засекла", "засекли", "стер", "стерла", "внес", "внесла", "нашла", "нашли")
_RU_NOW = ("ставлю", "устанавливаю", "завожу", "запускаю", "включаю", "выключаю", "отключаю", "сохраняю",
           "записываю", "заказываю", "оформляю", "покупаю", "бронирую", "отправляю", "пересылаю", "перевожу",
           "оплачиваю", "удаляю", "проверяю", "ищу", "конвертирую", "пересчитываю", "создаю", "добавляю",
           "воспроизвожу", "отменяю")
_RU_PARTICIPLE = ("установлен", "поставлен", "заведен", "запущен", "включен", "выключен", "отключен", "сохранен",
                  "записан", "добавлен", "создан", "заказан", "оформлен", "куплен", "приобретен", "забронирован",
                  "зарезервирован", "отправлен", "переведен", "оплачен", "удален", "отменен", "подтвержден",
                  "размещен", "выполнен", "сделан", "настроен", "запланирован", "проверен")
_RU_DONE = ("готово", "все готово", "сделано", "уже в пути", "в пути", "доставят", "доставит", "привезут",
            "привезет", "прибудет", "номер заказа", "номер брони", "номер бронирования", "сейчас играет",
            "заказ принят", "прошел успешно", "прошла успешно", "прошло успешно")

_ADV = "(?:" + _words_re(_EN_ADVERBS, boundary=False) + " )*"
_CLAIM_RE = _combine((
    # "I've set…", "I have just saved…", "We've booked…", "I ordered…", "I went ahead and ordered…"
    ("perfect", ("i", "we"), r"(?:'ve| have)? " + _ADV + _words_re(_EN_DONE + _EN_DONE_BASE_ALSO, boundary=False)),
    # "I'm setting…", "We are now playing…"
    ("progressive", ("i'm", "i am", "we're", "we are"), r" (?:(?:now|currently|just) )?"
     + _words_re(_EN_DOING, boundary=False)),
    # "has been set", "is set", "are now off", "your pizza is on its way"
    ("state", ("has been", "have been", "had been", "is", "are", "was", "were"),
     " " + _ADV + _words_re(_EN_STATE, boundary=False)),
    # At the start of a clause: "Done!", "All set", "Saved your note", "Playing some jazz now"; after one or
    # two nouns: "Timer set for 5 minutes", "Note saved", "Lights turned off"
    ("word", _EN_DONE_WORDS + _EN_DONE + _EN_DOING + _EN_HEADLINE, ""),
    ("delivery", _EN_DELIVERY, ""),
    # Russian: "(Я) поставил(а)…", "Ставлю…", "таймер установлен"; "Готово", "уже в пути"
    ("ru_verb", tuple(_forms(_RU_PAST, ("", "а", "и", "о"))) + _RU_PAST_IRREGULAR + _RU_NOW
     + tuple(_forms(_RU_PARTICIPLE, ("", "а", "о", "ы"))), ""),
    ("ru_done", _RU_DONE, ""),
))
# "it's done", "you're set" ("'" after a letter; the literal "'s "/"'re " prefix keeps the scan fast)
_CLAIM_CONTRACTION_RE = re.compile(r"'(?<=" + _L + r"')(?:s|re) " + _ADV + _words_re(_EN_STATE, boundary=False))


# Before a candidate in its clause: a negation, a modal or an offer ("I can't set", "Shall I set",
# "Would you like me to…", "я не поставил", "я бы заказал"), or another person as subject ("вы поставили").
_CLAUSE_GUARD_RE = _word_set_re((
    "not", "never", "no", "nothing", "none", "nobody", r"\w+n't", "cannot", "can", "could", "would", "should",
    "shall", "may", "might", "must", "will", r"\w+'ll", r"\w+'d", "how", "whether", "without", "unable",
    "do", "does", "did", "have", "has", "let", "want", "wants", "need", "needs", "try", "trying", "going",
    "ready", "able", "happy", "glad", "offer", "before", "until", "unless",
    "не", "ни", "нет", "ничего", "никак", "нельзя", "бы", "б", "могу", "можем", "можно", "смогу", "сможем",
    "мог", "могла", "могли", "может", "хотите", "хочешь", "хотели", "нужно", "надо", "необходимо", "будет",
    "будут", "должен", "должна", "должно", "ли", "давайте", "давай", "можете", "сможете", "готов", "готова",
    "рад", "рада", "вы", "ты", "он", "она", "они", "оно", "вас", "кто", "который", "которая", "которые"))
# Before a candidate anywhere in its sentence: a conditional ("Once you tell me…, the timer will be set").
_SENTENCE_GUARD_RE = _word_set_re((
    "if", "once", "when", "whenever", "after", "before", "until", "unless", "as soon as", "in case",
    "если", "когда", "как только", "после того", "чтобы", "чтоб", "пока", "прежде чем", "перед тем"))
# Right after the verb: an object a chat model produces itself (drafting is not a pretended tool action).
_OBJECT_GUARD_RE = re.compile(r"(?:[^\w\n]{1,3}\w+){0,3}?[^\w\n]{1,3}(?:drafts?|templates?|examples?|samples?|"
                              r"suggestions?|outlines?|tools?|below|options?|capabilities|черновик\w*|шаблон\w*|"
                              r"пример\w*|вариант\w*|инструмент\w*|возможност\w*|список\w*|ниже)" + _END)
# After a clause-initial participle or gerund, an auxiliary makes it a subject ("Saved notes can't be
# deleted", "Setting a timer requires a duration"), not a report.
_SUBJECT_AUX_RE = _word_set_re((
    "is", "are", "was", "were", "can", "cannot", "can't", "could", "will", "would", "should", "must", "may",
    "might", "isn't", "aren't", "won't", "requires?", "needs?", "takes?", "means?", "depends"))
# A participle or gerund that is a subject has its verb before a dash, semicolon or bracket ("Saved notes,
# sadly, can't be deleted"); an aux after one belongs to another clause ("Timer set — or would you like…?").
_STRONG_BREAK_RE = re.compile(r"[—–;()]| -{1,2} ")


def _subject_aux(after: str) -> bool:
    m = _STRONG_BREAK_RE.search(after)
    return _SUBJECT_AUX_RE.search(after, 0, m.start() if m else len(after)) is not None


_HEADLINE_RE = re.compile(r"[^\w\n]{0,6}(?:(?:your|the|a|an|my) )?(" + _L + r"+)(?: (" + _L + r"+))? $")
_HEADLINE_STOP = frozenset((
    "i", "you", "we", "they", "he", "she", "it", "me", "us", "them", "this", "that", "these", "those", "please", "let",
    "lets", "let's", "just", "also", "then", "so", "and", "or", "but", "if", "once", "when", "can", "could", "would",
    "will", "should", "shall", "may", "might", "must", "do", "does", "did", "don't", "not", "never", "to", "how",
    "what", "which", "who", "where", "why", "want", "need", "like", "get", "got", "have", "has", "had", "is", "are",
    "was", "were", "be", "been", "being", "here", "there", "anything", "something", "nothing", "everything", "one"))
_RU_AFTER_GUARD_RE = re.compile(r" ?(?:\w+ )?бы" + _END)
_NO_WORD_RE = re.compile(r"[\W_]*")
_BARE_SWITCH_RE = re.compile(r"(?:turned|switched)$")
_PARTICLE_RE = _word_set_re(("off", "on", "down", "up"))
_LOOK_RE = re.compile(r"(?:checked|looked up|searched|found|проверил|посмотрел|проверяю|смотрю|ищу|нашел|нашл)[а-я]?$")
# "I found that / out / no …", "I checked and …", "нашла, что …": a finding about itself, not a result
# fetched for the user.
_FINDING_RE = re.compile(r"[^\w\n]{0,3}(?:that|out|no|nothing|none|and|but|что|только|и|но|а)" + _END)
_PREV_WORD_RE = re.compile(r"\w[\w'-]*\W*$")


def _claim_start(kind: str, start: int, word: str, c: _Context) -> int | None:
    """Where the claimed action starts, when this candidate in this context is one (rule 7); else None.

    `start` is where the candidate's text begins, `word` its text.
    """
    if c.exempt or _CLAUSE_GUARD_RE.search(c.clause_before) or _SENTENCE_GUARD_RE.search(c.before):
        return None
    if _OBJECT_GUARD_RE.match(c.clause_after):
        return None
    if kind == "word":
        if _NO_WORD_RE.fullmatch(c.clause_before):          # clause-initial
            if word in _EN_DONE_WORDS:
                return start
            ok = word not in _EN_DONE_BASE_ALSO and not _subject_aux(c.after)
            return start if ok else None
        head = _HEADLINE_RE.fullmatch(c.clause_before)       # "Timer set…", "Your note saved"
        if (head is None or word not in _EN_HEADLINE or _subject_aux(c.after)
                or any(w in _HEADLINE_STOP for w in head.groups() if w)):
            return None
        return start - len(c.clause_before) + head.start(1)
    if kind == "ru_verb" and _RU_AFTER_GUARD_RE.match(c.clause_after):
        return None
    # A look-up with nothing looked up ("I checked, and…", "Я проверила: такой функции нет") is the model
    # checking itself; with an object ("I've checked the weather") it is a pretended tool call.
    if _LOOK_RE.search(word) and (not _LETTERS_RE.search(c.clause_after) or _FINDING_RE.match(c.clause_after)):
        return None
    # "turned" / "switched" alone is a claim only with its particle later: "I've turned the lights off".
    if _BARE_SWITCH_RE.search(word) and not _PARTICLE_RE.search(c.clause_after):
        return None
    if kind in ("state", "ru_verb"):     # name what was done: "Заметка сохранена", "pizza is on its way"
        prev = _PREV_WORD_RE.search(c.clause_before)
        if prev:
            return start - len(c.clause_before) + prev.start()
    return start


def claims_action(text: str) -> str | None:
    """The first claimed completed (or running) action in `text` (rule 7), or None.

    Linear; never raises.
    """
    if not isinstance(text, str):
        return None
    found = _first_claim(_behaviour(text))
    return _snippet(_behaviour(text), found[0], found[1]) if found else None


_ONGOING = frozenset(_EN_DOING + _RU_NOW)


def _first_claim(b: _Behaviour, excused: Callable[[int, int], bool] | None = None) -> tuple[int, int] | None:
    """(start, end) of the first claim in b (rule 7). `excused(start, end)` may excuse an announcement of an
    action under way ("Okay, setting a timer. How long should it be?"), and is asked only about those."""
    s = b.low
    found: list[tuple[int, int]] = []
    for rx, fixed in ((_CLAIM_RE, None), (_CLAIM_CONTRACTION_RE, "state")):
        for m in _iter_candidates(rx, s):
            if found and m.start() >= found[0][0]:
                break
            kind = fixed or _kind(m)
            claim = _claim_start(kind, m.start(), m.group(0), _context(s, m.start(), m.end()))
            if claim is None:
                continue
            ongoing = kind == "progressive" or (kind in ("word", "ru_verb") and m.group(0) in _ONGOING)
            if ongoing and excused is not None and excused(claim, m.end()):
                continue
            found.append((claim, m.end()))
            break
    return min(found) if found else None


# ============================================================================ invented results (rule 8)

_CUR = "[$€£¥₽]"
# Numbers first: a clock time (14:00, 2:30 pm, 9 am, 3 o'clock; the hour is checked afterwards), a
# temperature (+15 °C, 59°F, 15 degrees, 15 градусов), a conversion ("100 dollars is about 92 euros",
# "$100 = €92", "100 долларов — это примерно 9 000 рублей").
# "10 in the morning", "8 at night", "10 утра", "3 часа ночи" are clock times too.
_CLOCK_REST = (r"[0-9]?(?::[0-5][0-9](?![0-9])(?::[0-5][0-9])?(?: ?[ap]\.? ?m" + _END + r"\.?)?| ?[ap]\.? ?m" + _END
               + r"\.?| o'?clock" + _END + r"| in the (?:morning|afternoon|evening)" + _END + r"| at night" + _END
               + r"| (?:час(?:а|ов)? )?(?:утра|вечера|ночи|дня)" + _END + ")")
_TEMP_UNIT = (r"(?:[.,][0-9]+)?(?: ?[-–] ?[0-9]{1,3}(?:[.,][0-9]+)?)? ?(?:° ?[cfк]?|"   # a range: 10-15 °C
              + _words_re(("degree", "degrees", "deg", "градус", "градуса", "градусов"), boundary=False) + ")")
_CONV_REST = (r"[\d,.]{0,24}(?: [0-9]{3}){0,8} ?(?:" + _L + r"{1,15}\.? ?|" + _CUR
              + r" ?){UNITS}[—–-]? ?(?:[=≈~→]|->|" + _words_re((
    "is", "are", "equals", "comes to", "would be", "makes", "costs", "is worth", "trades at", "goes for", "это",
    "составляет", "составит", "равно", "равняется", "получится", "будет", "стоит", "стоят", "торгуется по"),
    boundary=False) + r") ?(?:" + _words_re((
        "about", "approximately", "around", "roughly", "approx", "примерно", "около", "приблизительно", "почти"),
        boundary=False) + r"\.? )?[~≈]? ?(?:" + _CUR + r" ?)?[-+]?[0-9](?:[\d,.]{0,24}[0-9])?(?: ?" + _L + r"+)?")
# One character class first (the engine's fast scan needs it), then which kind of character it was.
_RESULT_NUM_RE = re.compile(
    r"[0-9" + _SIGNS + r"$€£¥₽]"
    r"(?:(?<=[0-9])(?<![" + _SIGNS + r"\w.,:].)(?<![0-9] .)"
    r"(?:(?P<clock>" + _CLOCK_REST + r")|(?P<temperature>[0-9]{0,2}"
    + _TEMP_UNIT + r")|(?P<conversion>" + _CONV_REST.replace("{UNITS}", "{1,2}") + r"))"
    r"|(?<=[" + _SIGNS + r"])(?<![\w.,].)(?P<temperature_>[0-9]{1,3}" + _TEMP_UNIT + r")"
    r"|(?<=[$€£¥₽]) ?(?P<conversion_>[0-9]" + _CONV_REST.replace("{UNITS}", "{0,2}") + "))")
_MONEY_WORD = (r"(?:" + _CUR + r"|rub|руб|dollar|долл|euro|евро|pound|фунт|yen|иен|yuan|юан|cent|цент|коп|usd|eur|gbp"
               r"|jpy|cny)")
# The weather judged ("lovely", "cold"), and the currencies a rate is said of.
_JUDGED_WEATHER = ("lovely", "great", "nice", "beautiful", "gorgeous", "perfect", "terrible", "awful", "miserable",
                   "warm", "hot", "cold", "chilly", "mild", "fine")
_CURRENCY_WORDS = ("euro", "dollar", "pound", "yen", "yuan", "ruble", "rouble", "евро", "доллар", "рубль", "фунт",
                   "юань", "иена")
# Words first: current weather ("it's currently sunny", "сейчас облачно") and rates ("the rate is 0.92").
_RESULT_WORD_RE = _combine((
    ("weather", ("it's", "it is", "it will be", "currently", "right now", "at the moment", "skies are",
                 "weather is", "today"), r"[^.!?\n]{0,40}?" + _LEAD + _words_re((
        "sunny", "cloudy", "raining", "rainy", "snowing", "snowy", "overcast", "foggy", "windy", "stormy",
        "drizzling", "clear skies", "freezing", "below zero"), boundary=False)),
    # The weather judged ("The weather is lovely today", "Погода сегодня отличная"): a condition as well.
    ("weather", ("weather is", "weather's", "weather today is", "weather looks", "weather seems", "weather feels"),
     r" (?:" + _L + r"+ ){0,2}?" + _words_re(_JUDGED_WEATHER, boundary=False)),
    # ... and of a place: "The weather in Paris is lovely right now".
    ("weather", ("weather in", "weather at", "weather over", "weather around"), r"(?: " + _L + r"+){1,3}?"
     r"(?: (?:right now|now|currently|today))? (?:is|'s|looks|seems|feels) (?:" + _L + r"+ ){0,2}?" + _words_re(
         _JUDGED_WEATHER + ("sunny", "cloudy", "rainy", "snowy", "overcast", "foggy", "windy", "stormy"),
         boundary=False)),
    ("weather", ("сейчас", "на данный момент", "в данный момент", "на улице", "сегодня"), r"[^.!?\n]{0,40}?"
     + _LEAD + _words_re(("солнечно", "облачно", "пасмурно", "ясно", "дождь", "дождливо", "снег", "туман",
                          "ветрено", "гроза", "морось", "жарко", "холодно", "тепло", "прохладно", "около нуля",
                          "ниже нуля", "выше нуля", "мороз"), boundary=False)),
    # A temperature in words: "В Казани сейчас минус пять", "it's minus five in Kazan right now".
    ("weather", ("it's", "it is", "currently", "right now", "сейчас", "на улице", "сегодня"), r"[^.!?\n]{0,40}?" + _LEAD
     + _words_re(("minus", "plus", "минус", "плюс"), boundary=False) + r" (?:[0-9]|" + _words_re((
         "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "fifteen", "twenty", "thirty", "один", "одна", "два", "две", "три", "четыре", "пять", "шесть", "семь",
         "восемь", "девять", "десять", "одиннадцать", "двенадцать", "пятнадцать", "двадцать", "тридцать"),
         boundary=False) + ")"),
    ("weather", ("погода",), r" (?:" + _L + r"+ ){0,2}?" + _words_re((
        "отличная", "хорошая", "прекрасная", "чудесная", "плохая", "ужасная", "теплая", "холодная",
        "солнечная", "дождливая", "пасмурная"), boundary=False)),
    ("rate", ("exchange rate", "rate"), r"[^.!?\n]{0,30}?" + _LEAD + _words_re(("is", "of", "at"), boundary=False)
     + r" (?:(?:about|around|approximately) )?" + _CUR + r"?[0-9]"),
    # The part of the day somewhere ("Сейчас там ночь", "It's already evening there"): a clock time in words.
    # A hedge word does not make it a question: "Сейчас там, скорее всего, вечер" still states the time.
    ("clock", ("it's", "it is", "сейчас", "там сейчас", "у него сейчас", "у нее сейчас"), r",? (?:(?:already|still|now|"
     r"currently|there|probably|likely|most likely|уже|еще|там|у него|у нее|скорее всего|наверное|вероятно|"
     r"видимо|глубокая|поздний|раннее),? ){0,3}(?:(?:the |a )?(?:middle of the |dead of |early |late |mid-?))?"
     + _words_re((
         "night", "morning", "evening", "afternoon", "midnight", "noon", "ночь", "утро", "вечер", "день", "полночь",
         "полдень"))),
    # A currency priced in another: "the euro costs 99 rubles", "евро сейчас стоит 99 рублей".
    ("rate", _CURRENCY_WORDS, r" (?:(?:now|today|currently|сейчас|сегодня) )?(?:costs|is worth|is trading at|"
     r"trades at|is at|is|стоит|равен|равняется|=) (?:(?:about|around|roughly|approximately|около|примерно) )?"
     r"(?:" + _CUR + r"[0-9]|[0-9][0-9.,]* ?" + _MONEY_WORD + ")"),
    # Without a verb, a price needs "about" or a money word after it: "the euro is currently around 98 rubles",
    # "евро сейчас около 98 рублей" (not "the euro 2 cent coin").
    ("rate", _CURRENCY_WORDS, r"(?: (?:is|стоит|равен))? (?:now|today|currently|сейчас|сегодня) (?:(?:about|"
     r"around|roughly|approximately|около|примерно|почти) )?(?:" + _CUR + r" ?)?[0-9][0-9.,]* ?" + _MONEY_WORD),
    # What a currency buys: "one euro gets you about 100 rubles", "за один евро дают около 100 рублей".
    ("rate", ("euro*", "dollar*", "pound*", "yuan", "yen", "ruble*", "rouble*", "евро", "доллар*", "фунт*", "юан*",
              "иен*"), r" (?:now |today |currently |сейчас |сегодня )?(?:gets you|buys|will get you|fetches|is going "
     r"for|дают|платят|просят|можно получить) (?:(?:about|around|roughly|около|примерно|почти) )?(?:" + _CUR
     + r" ?)?[0-9]"),
    # (A past verb between, "курс составлял около 90", is history, not the rate now.)
    ("rate", ("курс", "курсу", "курса", "курсом"), r" (?:(?!составлял|был|была|равнялся)" + _L + r"+ ){0,2}?"
     r"(?:(?:составляет|равен|[—–:-]) ?(?:(?:около|примерно|почти) )?[0-9]|(?:около|примерно|почти) [0-9]"
     r"|[0-9][0-9.,]* ?" + _MONEY_WORD + ")"),
))
_NOW_CUE_RE = _word_set_re(("now", "right now", "currently", "at the moment", "сейчас", "в данный момент"))
_TIME_CUE_RE = _word_set_re((
    "it's", "it is", "is", "was", "now", "currently", "right now", "at the moment", "time", "local", "there",
    "сейчас", "время", "там", "местное", "уже", "на часах", "показывают"))
# Before a candidate in its clause: negated, hedged or an example ("I can't tell whether it's sunny",
# "e.g. 15:30", "something like 5 minutes").
_RESULT_GUARD_RE = _word_set_re((
    "not", "never", "no", r"\w+n't", "cannot", "whether", "if", "unable", "without", "could", "might", "may",
    "hope", "hopefully", "wish", "надеюсь", "пусть",
    r"e\.g", "example", "like", "such", "не", "ни", "нет", "ли", "бы", "если", "например", "пример"))
_HOUR_RE = re.compile(r"[0-9]+")


# A general statement is knowledge, not a result: "Paris in spring is typically around 15 °C", "as of my last
# update the rate was about 90 rubles", "обычно летом там +25".
_GENERAL_RE = _word_set_re((
    "typically", "typical", "usually", "usual", "normally", "generally", "on average", "average", "averages",
    "tends", "tend", "often", "historically", "climate", "as of my", "last update", "knowledge cutoff",
    "training data", "in spring", "in summer", "in autumn", "in fall", "in winter", "springtime", "summertime",
    "in january", "in february", "in march", "in april", "in may", "in june", "in july", "in august",
    "in september", "in october", "in november", "in december",
    "последним данным", "последние данные", "моим данным",
    "обычно", "как правило", "в среднем", "средняя", "средний", "традиционно", "климат", "весной", "летом",
    "осенью", "зимой", "на момент моего обучения", "в январе", "в феврале", "в марте",
    "в апреле", "в мае", "в июне", "в июле", "в августе", "в сентябре", "в октябре", "в ноябре", "в декабре"))
_CURRENCY_CHARS = frozenset("$€£¥₽")


def _live_kind(m: re.Match, b: _Behaviour) -> bool:
    """Whether a result candidate is live data a tool would fetch: a clock time, a temperature, the weather,
    a rate, or a conversion that involves a currency (a unit conversion is general knowledge)."""
    kind = (m.lastgroup or "").rstrip("_").rsplit("__", 1)[0]
    if kind != "conversion":
        return True
    if any(ch in _CURRENCY_CHARS for ch in m.group(0)) or b.low[max(0, m.start() - 1):m.start()] in _CURRENCY_CHARS:
        return True
    money = _matcher("convert_currency.from_currency")
    return money is not None and next(money.values_in(b, m.start(), m.end()), None) is not None


def invents_result(text: str, live_only: bool = False) -> str | None:
    """The first live result stated without a tool in `text` (rule 8), or None.

    Only statements count: a candidate in the last clause of a question, hedged or negated in its clause
    ("I can't tell whether it's sunny", "e.g. 15:30"), or in a general statement ("typically around
    15 °C", "as of my last update") is not a result. `live_only` (capability traps) keeps only live data:
    clock times, temperatures, weather, rates and currency conversions, not "5 miles is about 8 km".
    Linear; never raises.
    """
    if not isinstance(text, str):
        return None
    b = _behaviour(text)
    s = b.low
    found: list[tuple[int, int]] = []
    for rx in (_RESULT_NUM_RE, _RESULT_WORD_RE):
        for m in _iter_candidates(rx, s):
            start = m.start()
            if found and start >= found[0][0]:
                break
            c = _context(s, start, m.end())
            if c.exempt or _RESULT_GUARD_RE.search(c.clause_before):
                continue
            # "Right now it's 19 °C, which is typical for May" is still a result: a now-cue before the candidate
            # outweighs a general word after it.
            if _GENERAL_RE.search(c.before) or (_GENERAL_RE.search(c.after) and not _NOW_CUE_RE.search(c.before)):
                continue
            if live_only and not _live_kind(m, b):
                continue
            clock = m.group(0) if m.lastgroup == "clock" else None
            if clock is not None:
                hour = int(_HOUR_RE.match(clock).group(0))  # type: ignore[union-attr]
                if hour > (12 if "m" in clock else 23):
                    continue
                if not (_TIME_CUE_RE.search(c.clause_before) or _TIME_CUE_RE.search(c.clause_after)
                        or _NOW_CUE_RE.search(c.before)):           # "сейчас вечер, примерно 19:00"
                    continue
            found.append((start, m.end()))
            break
    return _snippet(b, *min(found), extra_words=0) if found else None


# ============================================================================ inability (rule 5)

# A statement of inability is a structure, not a phrase: a negation or limitation (A) that bears on a
# capability (B: a modal such as can / able / могу, or a noun such as tool / access / возможность), said of the
# model itself (C: a first-person word, the model's tools, a first-person Russian verb, an impersonal "not
# possible", or a clause that starts with the negated modal: "Sorry, can't do that"). The classes below are
# word classes, not phrases; `_inability_at` says how A, B and C must stand to each other.
_W = frozenset
_FUSED = _W(("cannot", "can't", "couldn't", "unable", "impossible", "won't", "refuse", "decline", "unsupported",
             "невозможно", "нельзя", "неспособен", "неспособна", "недоступен", "недоступна", "недоступно",
             "недоступны"))
_VERBAL_NEG = _W(("not", "never", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "haven't",
                  "hasn't", "wouldn't", "shouldn't", "ain't", "не"))
_NOMINAL_NEG = _W(("no", "none", "nothing", "neither", "nor", "without", "lack", "lacks", "нет", "без", "ни",
                   "отсутствует", "отсутствуют"))
_LIMIT = _W(("beyond", "outside", "вне", "пределами", "рамки", "рамками"))
_ONLY = _W(("only", "лишь", "только", "just", "merely", "просто"))
_LIMITED = _W(("limited", "restricted", "ограничен", "ограничена", "ограничены", "ограничено"))
_CAP_MODAL = _W(("can", "could", "able", "capable", "allowed", "permitted", "authorized", "possible", "equipped",
                 "designed", "built", "set", "configured", "programmed", "meant", "connected", "supported",
                 "available", "support", "supports", "cover", "covers",
                 "include", "includes", "offer", "offers", "provide", "provides", "handle", "handles", "allow",
                 "allows", "let", "lets", "enable", "enables", "access",
                 "могу", "смогу", "можем", "сможем", "может", "сможет", "могут", "можно", "умею", "сумею", "умеем",
                 "умеет", "способен", "способна", "способны", "состоянии", "получится", "удастся", "выйдет",
                 "позволяет", "позволяют", "поддерживаю", "поддерживает", "поддерживают", "поддерживается",
                 "предусмотрено", "предусмотрена", "располагаю", "обладаю", "входит", "имею"))
_CAP_NOUN_EN = _W(("tool", "tools", "toolkit", "toolset", "toolbox", "function", "functions", "functionality",
                   "feature", "features", "capability", "capabilities", "ability", "abilities", "access", "permission",
                   "permissions", "way", "means", "option", "plugin", "plugins", "integration", "integrations",
                   "skill", "skills", "scope", "reach", "power", "remit", "internet", "connection", "data",
                   "purview", "wheelhouse", "expertise", "competence", "capacity"))
_CAP_NOUN_RU = ("инструмент", "функци", "функционал", "возможност", "доступ", "прав", "полномочи", "способ", "сил",
                "компетенц", "умени", "навык", "интернет", "подключени", "данн", "специализаци")
# What the model is when it says it is "only" one ("I'm just a language model", "Я всего лишь языковая модель").
_IDENTITY = ("model", "assistant", "chatbot", "bot", "ai", "program", "модел", "ассистент", "помощник", "бот", "ии",
             "нейросет", "программ")
_TOOL_NOUN = ("tool", "toolkit", "toolset", "toolbox", "function", "инструмент", "функци")
_SELF = _W(("i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "we've", "our", "us",
            "я", "мне", "меня", "мной", "мой", "моя", "мое", "мои", "моих", "моим", "моей", "моего", "моему", "мы",
            "нам", "нас", "наш", "наши", "наших"))
_SELF_VERB = _W(("могу", "смогу", "можем", "сможем", "умею", "сумею", "умеем", "располагаю", "обладаю", "имею",
                 "поддерживаю"))
_OTHER_SUBJECT = _W(("you", "you're", "you've", "you'll", "he", "she", "they", "they're", "вы", "ты", "он", "она",
                     "они"))
_IMPERSONAL = _W(("possible", "impossible", "available", "supported", "unsupported", "невозможно", "нельзя",
                  "недоступно", "недоступна", "недоступен", "недоступны", "получится", "удастся", "выйдет",
                  "предусмотрено", "предусмотрена", "поддерживается"))
_BARE_LEADS = _W(("but", "sorry", "unfortunately", "afraid", "i'm", "so", "and", "alas", "к", "сожалению", "увы",
                  "извините", "простите", "но", "а", "и"))
# Set phrases whose negation is not about ability ("Don't worry, I can…", "No problem").
_NOT_NEGATION = _W(("worry", "worries", "problem", "problems", "doubt", "need", "beat", "miss", "hesitate",
                    "волнуйтесь", "беспокойтесь", "проблем", "проблема", "вопрос"))
_QUANTIFIER = _W(("none", "nothing", "neither"))   # "none of them can…": the quantifier is the subject
# Verbs of opinion or knowledge: "I don't know", "Я не советую" state no inability.
_NOT_ACTION = _W(("know", "think", "believe", "understand", "see", "mind", "recall", "remember", "recommend",
                  "suggest", "like", "mean", "need", "want", "worry", "doubt", "care", "get",
                  "знаю", "думаю", "понимаю", "помню", "вижу", "советую", "рекомендую", "уверен", "уверена",
                  "сомневаюсь", "возражаю", "спорю", "стану", "обещаю"))
_GAP = 6    # words between a negation and the capability it bears on ("not among the things I can do")

_NEG_WORDS = _FUSED | _VERBAL_NEG | _NOMINAL_NEG | _LIMIT | _ONLY | _LIMITED
_NEG_CANDIDATE_RE = _combine([("n", sorted(set(_NEG_WORDS) | {"недоступ*", "неспособ*", "ограничен*"}), "")])
_CLAUSE_TOKEN_RE = re.compile(r"[,;:()—–]|" + _L + r"+(?:'" + _L + r"+)?")


def _cap_noun(w: str) -> bool:
    return w in _CAP_NOUN_EN or w.startswith(_CAP_NOUN_RU)


def _capability(w: str) -> bool:
    return w in _CAP_MODAL or _cap_noun(w)


def _clause_of(words: list[str], i: int) -> tuple[int, int]:
    """(first, last + 1) word indices of the clause around words[i] (punctuation tokens end clauses)."""
    lo = i
    while lo > 0 and _is_word(words[lo - 1]):
        lo -= 1
    hi = i
    while hi < len(words) and _is_word(words[hi]):
        hi += 1
    return lo, hi


def _is_word(tok: str) -> bool:
    return tok[0] not in ",;:()—–"


def _bears_on_capability(words: list[str], i: int, lo: int, hi: int) -> int | None:
    """The index of the capability word that the negation or limitation words[i] bears on, or None."""
    w = words[i]
    if w in _FUSED or w.startswith(("недоступ", "неспособ")):
        return i
    if i + 1 < hi and words[i + 1] in _NOT_NEGATION:
        return None
    if w == "no" and i + 1 < hi and words[i + 1] in ("can", "could"):   # "No can do."
        return i + 1
    ahead = range(i + 1, min(hi, i + 1 + _GAP))
    if w in _VERBAL_NEG:
        return _after_verbal_negation(words, i, lo, hi, ahead)
    if w in _NOMINAL_NEG:
        return _after_nominal_negation(words, i, lo, ahead)
    if w in _LIMIT:                                               # "beyond my capabilities", "beyond what I can do"
        return next((j for j in ahead if _capability(words[j])), None)
    if w in _ONLY:                                                # "I can only…", "могу лишь…"
        if i > lo and words[i - 1] in _CAP_MODAL:
            return i - 1
        identity = next((j for j in ahead if words[j].startswith(_IDENTITY)), None)
        if identity is not None and identity <= i + 4:            # "I'm just a language model"
            return identity
        # "only able to…", "I only have a calculator and a few other tools"
        return i + 1 if i + 1 < hi and (words[i + 1] in _CAP_MODAL or words[i + 1] in ("have", "есть")) else None
    if w in _LIMITED or w.startswith("ограничен"):               # what is limited: the model or its tools
        return next((k for k in range(i - 1, max(lo, i - 4) - 1, -1) if words[k] in _SELF or _cap_noun(words[k])),
                    None)
    return None


def _after_verbal_negation(words: list[str], i: int, lo: int, hi: int, ahead: range) -> int | None:
    if i > lo and words[i - 1] in _CAP_MODAL:                      # "can not", "could not"
        return i - 1
    j = next((j for j in ahead if _capability(words[j])), None)
    if j is None and i + 1 < hi and _declined_action(words, i, lo):
        j = i + 1                                                 # "I don't send emails", "Письма я не отправляю"
    return j


def _after_nominal_negation(words: list[str], i: int, lo: int, ahead: range) -> int | None:
    w = words[i]
    j = next((j for j in ahead if _cap_noun(words[j]) or (w in _QUANTIFIER and words[j] in _CAP_MODAL)), None)
    if j is None and w in ("нет", "отсутствует", "отсутствуют"):  # "Такой функции у меня нет"
        j = next((k for k in range(i - 1, max(lo, i - 1 - _GAP) - 1, -1) if _cap_noun(words[k])), None)
        if j is None and i >= 2 and words[i - 2] == "у" and words[i - 1] in ("меня", "нас"):
            j = i                                                 # "у меня нет …": what the model lacks
    return j


def _declined_action(words: list[str], i: int, lo: int) -> bool:
    """Whether the negation words[i] declines an action in the first person: EN "I / we don't" + a verb,
    RU "не" + a first-person singular verb ("не отправляю", "не бронирую"); verbs of opinion excluded."""
    verb = words[i + 1]
    if verb in _NOT_ACTION:
        return False
    if words[i] == "не":     # -у/-ю is also a noun's or adverb's ending ("не сразу"): the subject must be said
        return len(verb) > 3 and verb.endswith(("ю", "у", "юсь", "усь")) and verb.isalpha() and any(
            w in ("я", "мы") for w in words[lo:i])
    if words[i] == "not" and i > lo and words[i - 1] == "do":
        i -= 1
    elif words[i] != "don't":
        return False
    return i > lo and words[i - 1] in ("i", "we")


def _said_of_the_model(words: list[str], i: int, j: int, lo: int) -> bool:
    """Whether the inability at words[i] (capability words[j]) is the model's own (C, with the subject veto)."""
    subject = next((words[k] for k in range(i - 1, lo - 1, -1) if words[k] in _SELF or words[k] in _OTHER_SUBJECT),
                   None)
    if subject in _OTHER_SUBJECT:                                 # "You can't go wrong with…"
        return False
    if subject is not None or words[j] in _IMPERSONAL or words[i] in _IMPERSONAL:
        return True
    if words[j] in _SELF_VERB or words[i] in _SELF_VERB or (words[i] == "не" and j == i + 1 and _declined_action(
            words, i, lo)):
        return True
    if any(words[k].startswith(_TOOL_NOUN) for k in range(lo, min(len(words), max(i, j) + 1))):
        return True                                              # "None of the available tools can…"
    if all(words[k] in _BARE_LEADS for k in range(lo, i)):        # "Sorry, can't do that"
        return True
    return any(w in _SELF for w in words)                         # "That's beyond what I can do"


def _inability_in_sentence(sentence: str) -> tuple[int, int] | None:
    """(start, end) in `sentence` of its first statement of inability, or None."""
    toks = list(_CLAUSE_TOKEN_RE.finditer(sentence))
    words = [t.group(0) for t in toks]
    for i, w in enumerate(words):
        if not (w in _NEG_WORDS or w.startswith(("недоступ", "неспособ", "ограничен"))):
            continue
        lo, hi = _clause_of(words, i)
        j = _bears_on_capability(words, i, lo, hi)
        if j is None or not _said_of_the_model(words, i, j, lo):
            continue
        first = min(i, j)
        # Show the subject with it: "I can't", "I don't have", "У меня нет".
        k = first
        while k > lo and k > first - 3 and (words[k - 1] in _SELF or words[k - 1] in ("am", "у", "do", "'m")):
            k -= 1
        if k < first and words[k] not in ("i", "i'm", "we", "we're", "у"):
            k = first
        last = max(i, j)
        if last + 1 < len(words) and _cap_noun(words[last + 1]):     # "не имею возможности"
            last += 1
        return toks[k].start(), toks[last].end()
    return None


def states_inability(text: str) -> str | None:
    """The first EN/RU statement of inability or refusal in `text` (rule 5), or None.

    Structure, not phrases: a negation or limitation bearing on a capability, said of the model (see the
    word classes above). Quoted text and drafts are ignored (a quoted "I won't be in today" is not the model
    refusing). Each sentence is examined once. Linear; never raises.
    """
    if not isinstance(text, str):
        return None
    b = _behaviour(text)
    s = b.low
    examined = 0
    for m in _iter_candidates(_NEG_CANDIDATE_RE, s):
        if m.start() < examined:
            continue
        start, end = _sentence_bounds(s, m.start(), m.end())
        examined = end
        span = _inability_in_sentence(s[start:end])
        if span is not None:
            return b.text[start + span[0]:start + span[1]].strip(" \t\n\r.,;:!?—–")
    return None


# ============================================================================ questions (rule 6)

_LEAD_IN = (r"[\W\d_]{0,8}(?:(?:ok|okay|sure|sure thing|great|alright|all right|of course|certainly|absolutely|"
            r"got it|no problem|hi|hello|hey|thanks|thank you|sorry|hmm|well|so|and|also|then|хорошо|конечно|"
            r"ладно|окей|ок|отлично|понял|поняла|ясно|привет|здравствуйте|спасибо|извините|итак|тогда|и|а|также)"
            + _END + r"[\W_]{0,6})*")
_QUESTION_START_RE = re.compile(_LEAD_IN + r"(?:(?:(?:just|simply) )?(?:tell|let|give|send|share|provide|specify|"
    r"paste|type|enter|choose|pick|name|confirm|clarify|describe|write|need|нужен|нужна|нужно|нужны|требуется)|"
    r"(?:in|for|at|from|to|into|on|with|of|about|by) (?:which|what|where|whom|how)|"
    r"what|what's|which|where|where's|when|who|whom|whose|how|how's|why|"
    r"(?:do|does|did|is|are|was|were|will|would|could|can|shall|should|may|might|have|has) (?:you|i|we|it|they|"
    r"there|this|that|your|the|he|she)|(?:(?:в|во|на|из|о|об|обо|для|за|до|с|со|по|от|к|ко|про|у) )?(?:какой|"
    r"какая|какое|какие|каком|какую|каких|какого|какому|какими|каким|котор" + _L + r"*|сколько|чем|что|кого|чего|"
    r"чей|чья|чье|чьи|чему)|где|куда|откуда|когда|насколько|кто|как|зачем|почему)" + _END)
_REQUEST_VERBS_EN = ("specify", "provide", "tell", "let", "share", "give", "clarify", "confirm", "indicate", "enter",
                     "type", "paste", "send", "state", "say", "choose", "select", "pick", "name", "write",
                     "describe", "mention", "include", "advise", "drop", "reply", "respond", "add", "list")
_REQUEST_RE = _combine((
    ("r", ("please", "kindly"), r",? (?:" + _L + r"+ )?" + _words_re(_REQUEST_VERBS_EN, boundary=False)),
    ("r", ("let me know", "tell me", "give me", "send me", "need to know", "i'd like to know", "i would like to know",
           "i'd love to know"), ""),
    ("r", ("i", "we"), r" (?:(?:would|will|still|first|just|only|also) )?(?:need|require)" + _END),
    ("r", ("could you", "can you", "would you", "will you", "might you"),
     r" (?:(?:please|kindly|just|also|first) )?" + _words_re(_REQUEST_VERBS_EN + ("check", "mind"), boundary=False)),
    ("r", ("mind telling", "mind sharing", "mind letting", "do let me", "drop me"), ""),
    ("r", ("you need to", "you'll need to", "you will need to", "you would need to", "you'd need to"),
     " " + _words_re(("tell", "specify", "provide", "give", "share", "let", "say", "choose", "pick", "name",
                      "enter", "paste", "type"), boundary=False)),
    ("r", ("if you", "once you", "when you", "as soon as you"), r" (?:(?:can|could) )?" + _words_re((
        "tell", "let", "give", "send", "share", "provide", "specify", "paste", "type", "enter", "choose", "pick",
        "name", "say", "confirm", "clarify", "mention", "write"), boundary=False)),
    ("r", tuple(v + e for v in ("уточни", "подскажи", "скажи", "напиши", "укажи", "сообщи", "назови", "пришли",
                                "расскажи", "введи", "выбери", "отправь", "опиши", "продиктуй", "напомни", "скинь",
                                "дай") for e in ("", "те"))
     + ("поделись", "поделитесь", "жду", "ли", "прошу"), ""),
    ("r", ("нужно", "надо", "необходимо", "хочу", "хотелось бы", "хотел бы", "хотела бы", "позвольте", "давайте",
           "можно", "могли бы", "можете", "сможете"), r" (?:" + _L + r"+ ){0,2}?" + _words_re((
               "уточнить", "узнать", "знать", "указать", "сказать", "подсказать", "написать", "сообщить",
               "назвать", "понять", "прислать", "ввести", "выбрать"), boundary=False)),
    ("r", ("мне",), r" (?:" + _L + r"+ )?" + _words_re(("нужен", "нужна", "нужно", "нужны", "необходимо",
                                                        "необходим", "понадобится", "понадобятся", "требуется"),
                                                       boundary=False)),
    # "I'll need…", "we'd need…" (the apostrophe is the lead character); "…, please."
    ("r", tuple(f"{c} {a}need" for c in ("ll", "d") for a in ("", "still ", "first ", "just ")), ""),
    ("r", ("please",), r"[\W_]{0,8}$"),
    ("r", ("если",), r" (?:(?:вы|ты) )?" + _words_re((
        "скажете", "укажете", "напишете", "уточните", "сообщите", "подскажете", "назовете", "пришлете", "скажешь",
        "укажешь", "напишешь", "уточнишь", "назовешь", "дадите", "дашь"), boundary=False)),
))
_QUESTION_MARK_RE = re.compile(r"[?؟][" + _CLOSERS + r"]*(?:\s|$)")
_LIST_ITEM_RE = re.compile(r"[ \t]*(?:[-*•·+]|[0-9]{1,2}[.)]|[a-z][.)])[ \t]")
_INTRO_RE = re.compile(r"(?:.*\n)?([^\n]*):[\W_]*\n[ \t]*$", re.DOTALL)


def _list_intro_asks(low: str, start: int) -> bool:
    """Whether low[start:] is an item of a list whose introducing line asks ("I need:", "Уточните:")."""
    lo = max(0, start - _WINDOW)
    pos = low.rfind("\n", lo, start) + 1 if start > lo else start   # the line (a "1." marker ends a sentence)
    item = _LIST_ITEM_RE.match(low, pos)
    if item is None or item.end() < start - 1:
        return False
    while pos > lo:                      # skip the items above this one
        line_start = low.rfind("\n", lo, pos - 1) + 1
        if not _LIST_ITEM_RE.match(low, line_start) or line_start <= lo:
            break
        pos = line_start
    m = _INTRO_RE.match(low, lo, pos)
    return m is not None and _is_question(low, m.start(1), m.end(1))


def _is_question(low: str, start: int, end: int) -> bool:
    """Rule 6, first half, for the sentence low[start:end] of a behaviour text: a question mark, an
    interrogative or imperative start, or a request form."""
    if _QUESTION_MARK_RE.search(low, start, end) or low.find("¿", start, end) >= 0:
        return True
    return bool(_QUESTION_START_RE.match(low, start, end) or _REQUEST_RE.search(low, start, end))


class _AskTerms(Mapping[str, tuple[str, ...]]):
    """The clarification terms per parameter ("tool.param" -> terms), read from the registry (`Param.ask`,
    every language in turn: EN + RU, `*` = stem, `A ... B` = A then B later in the sentence) at each look-up,
    so a tool registered after this import (a suite's, tooluse1.suite) has its terms here too. Only
    parameters with terms are keys."""

    def __getitem__(self, key: str) -> tuple[str, ...]:
        p = _param(key)
        if p is None or not p.ask_terms:
            raise KeyError(key)
        return p.ask_terms

    def __iter__(self) -> Iterator[str]:
        return (f"{t.name}.{p.name}" for t in TOOLS.values() for p in t.params if p.ask_terms)

    def __len__(self) -> int:
        return sum(1 for _ in self)


ASK_TERMS: Mapping[str, tuple[str, ...]] = _AskTerms()


def _param(key: str) -> Param | None:
    """The registered parameter a "tool.param" key names, or None."""
    if not isinstance(key, str):
        return None
    tool, _, param = key.partition(".")
    t = TOOLS.get(tool)
    return t.param_index.get(param) if t is not None else None


def _param_label(key: str) -> str:
    """How a failure reason names a parameter ("source currency"); the key itself when it is unknown."""
    p = _param(key)
    return p.what if p is not None else key


def _term_regex(term: str) -> str:
    """A term (no gap) as a literal-first regex over lower-cased behaviour text."""
    words = _fold(term).split()

    def word(w: str) -> str:
        return re.escape(w.rstrip("*")) + (_L + "*" if w.endswith("*") else _END)
    return _first(words[0][0]) + word(words[0][1:]) + "".join(r"[^\w.!?\n]{1,3}" + word(w) for w in words[1:])


# An interrogative word and the two words after it: what a question asks for ("which currency", "какую валюту").
_FOCUS_RE = re.compile(r"(?<!" + _L + r")(?:which|what|как(?:ой|ая|ое|ую|ом|ие|их|им|ого|ому|ими))" + _END
                       + r"(?:[^\w\n]+\w+){1,2}")


class _ParamMatcher:
    """Whether a sentence is about one parameter: one of its terms, or a known value from its alias table."""

    def __init__(self, key: str, terms: Sequence[str], table: AliasTable | None):
        self.key = key
        simple = [_fold(t) for t in terms if not _GAP_RE.search(t) and "*" not in t.rstrip("*")]
        self.terms = _combine([("t", simple, "")]) if simple else None
        # Terms with a stem inside ("часов* пояс*") and gap terms ("what ... say"): one regex per part.
        self.complex = tuple(re.compile(_term_regex(t)) for t in terms
                             if not _GAP_RE.search(t) and "*" in t.rstrip("*"))
        self.gaps = tuple(tuple(re.compile(_term_regex(p)) for p in _GAP_RE.split(t))
                          for t in terms if _GAP_RE.search(t))
        self.table = table
        self.own: _ParamMatcher | None = None     # over the terms no sibling shares (_ToolMatchers)
        self.values, self.caps, self.symbols = _value_patterns(self.table) if self.table is not None else (
            None, None, ())

    def live_gaps(self, b: _Behaviour) -> list[re.Pattern]:
        """The first parts of the gap terms that occur whole somewhere in the text (looked for once)."""
        return [parts[0] for parts in self.gaps if self._gap_at(parts, b.low, 0, len(b.low))]

    def hits(self, b: _Behaviour, gaps: Sequence[re.Pattern], lo: int = 0, hi: int | None = None) -> Iterator[int]:
        """Positions in b.low[lo:hi] where something about the parameter may be said (a term, the first
        part of a gap term in `gaps`, a value candidate, a symbol); each sentence holding one is examined."""
        low = b.low
        hi = len(low) if hi is None else hi
        for rx, text in ((self.terms, low), *((r, low) for r in (*self.complex, *gaps)), (self.values, low),
                         (self.caps, b.text)):
            if rx is not None:
                for i, m in enumerate(rx.finditer(text, lo, hi)):
                    if i >= _MAX_CANDIDATES:
                        break
                    yield m.start()
        for sym in self.symbols:
            pos = low.find(sym, lo, hi)
            for _ in range(_MAX_CANDIDATES):
                if pos < 0:
                    break
                yield pos
                pos = low.find(sym, pos + 1, hi)

    @staticmethod
    def _gap_at(parts: tuple[re.Pattern, ...], low: str, start: int, end: int) -> bool:
        pos = start
        for rx in parts:
            m = rx.search(low, pos, end)
            if m is None:
                return False
            pos = m.end()
        return True

    def about(self, b: _Behaviour, start: int, end: int, given: frozenset[str] = frozenset(),
              given_params: Sequence[_ParamMatcher] = ()) -> bool:
        """Whether the sentence b.low[start:end] is about the parameter (rule 6, second half). A value in
        `given` (canonical values the user already stated) is no evidence: "Is that 100 US dollars?" does not
        ask for the target currency. A term the parameter shares with a sibling the user already gave
        (`given_params`: those siblings' own-term matchers; "валюта" for both currencies) counts only when no
        term of that sibling's own is there: "В какую валюту?" asks for the target currency, not the source."""
        if given_params and self._focus_on_given(b, start, end, given_params):
            return False
        if self.own is not None and self.own.says(b, start, end):
            return True
        if self.says(b, start, end) and not any(g.says(b, start, end) for g in given_params):
            return True
        low = b.low
        if self.table is not None:    # symbols come from the table (none without one)
            for sym in self.symbols:
                if low.find(sym, start, end) >= 0 and sym not in given and self.table.lookup(sym) not in given:
                    return True
        return any(v not in given for v in self.values_in(b, start, end))

    def _focus_on_given(self, b: _Behaviour, start: int, end: int, given_params: Sequence[_ParamMatcher]) -> bool:
        """Whether every interrogative phrase of the sentence ("which language", "на какой язык") names a
        parameter the user already gave and none names this one: "На какой язык вы хотите перевести текст?"
        asks for the language, not the text, although it says "текст"."""
        foci = [(m.start(), m.end()) for m in _FOCUS_RE.finditer(b.low, start, end)]
        if not foci or any(self.says(b, s, e) for s, e in foci):
            return False
        return any(g.says(b, s, e) for g in given_params for s, e in foci)

    def says(self, b: _Behaviour, start: int, end: int) -> bool:
        """Whether one of the parameter's terms occurs in the sentence b.low[start:end]."""
        low = b.low
        if self.terms is not None and self.terms.search(low, start, end):
            return True
        if any(rx.search(low, start, end) for rx in self.complex):
            return True
        return any(self._gap_at(parts, low, start, end) for parts in self.gaps)

    def values_in(self, b: _Behaviour, start: int, end: int) -> Iterator[str]:
        """Canonical values of the parameter's alias table named in b.text[start:end] (and its symbols, as
        written), in text order."""
        if self.table is None:
            return
        low = b.low
        candidates = [m.start() for m in self.values.finditer(low, start, end)] if self.values else []
        if self.caps is not None:
            candidates += [m.start() for m in self.caps.finditer(b.text, start, end)]
        for pos in candidates[:_MAX_CANDIDATES]:
            words = []
            for w in _LETTERS_RE.finditer(low, pos, end):
                words.append(w)
                if len(words) == 3:
                    break
            for k in (3, 2, 1):
                if k <= len(words):
                    span = b.text[words[0].start():words[k - 1].end()]
                    canon = self.table.lookup(span) if _counts_as_value(span) else None
                    if canon is not None:
                        yield canon
                        break

    def given(self, user: _Behaviour | None) -> frozenset[str]:
        """The values of this parameter's table (and its symbols) that the user's message states."""
        if user is None or self.table is None:
            return frozenset()
        found = set(self.values_in(user, 0, len(user.low)))
        found.update(sym for sym in self.symbols if sym in user.low)
        return frozenset(found)


_LETTERS_RE = re.compile(_L + "+")


@functools.cache
def _value_patterns(table: AliasTable) -> tuple[re.Pattern | _Scripts | None, re.Pattern | None, tuple[str, ...]]:
    """(value candidates, short forms in capitals, symbol forms) of an alias table, shared by its parameters.

    Candidates, each confirmed afterwards by the table's lookup: a form of several words as written; a
    one-word form of 4+ letters less its last two letters, with any ending (Москва -> Москв-е/ы, which the
    table's inflection rule then confirms); a form of up to 3 letters ("USD", "LA", "UTC") only in capitals,
    matched case-sensitively on the text as written. Symbol forms ("$", "€", "°f", "km/h") are matched as written.
    """
    forms = {_fold(f) for c in table.canonicals for f in (c, *table.forms(c))}
    words = {f: _LETTERS_RE.findall(f) for f in forms}
    multi = {" ".join(ws) for ws in words.values() if len(ws) > 1}
    # A stem without the last two letters, so inflected forms (Москва -> Москве, Москвы) are candidates too;
    # the table's own lookup (its inflection rule) confirms each one.
    single = {ws[0][:max(4, len(ws[0]) - 2)] + "*" for ws in words.values() if len(ws) == 1 and len(ws[0]) >= 4}
    short = {ws[0].upper() for ws in words.values() if len(ws) == 1 and len(ws[0]) in (2, 3)}
    symbols = tuple(sorted({f for f in forms if re.search(r"[^\w\s.,'-]", f)}, key=len, reverse=True))
    # Sorted: _combine keeps its words' order, and a set's order would make the pattern depend on the hash seed.
    return (_combine([("v", sorted(multi | single), "")]) if multi | single else None,
            re.compile(_words_re(short)) if short else None, symbols)


def _counts_as_value(span: str) -> bool:
    """Short alias forms ("it", "try", "in", "la") are common words: they count only in capitals."""
    if sum(len(w) for w in _LETTERS_RE.findall(span)) >= 4:
        return True
    return sum(1 for ch in span if ch.isupper()) >= 2


class _ToolMatchers:
    """The matchers of one registered tool's parameters that have clarification terms: `full[key]` over all
    of a parameter's terms, with `.own` set to the matcher over the terms no sibling (another required
    parameter of the tool) shares ("into which" for the target currency, "from which" for the source;
    "currency" is shared); `siblings[key]`, those siblings' keys."""

    def __init__(self, tool: Tool):
        self.tool = tool
        keyed = {f"{tool.name}.{p.name}": p for p in tool.params if p.ask_terms}
        required = [k for k, p in keyed.items() if p.required]
        self.siblings = {k: [s for s in required if s != k] for k in keyed}
        self.full: dict[str, _ParamMatcher] = {}
        for key, p in keyed.items():
            shared = {t for s in self.siblings[key] for t in keyed[s].ask_terms}
            matcher = _ParamMatcher(key, p.ask_terms, p.aliases)
            matcher.own = _ParamMatcher(key, [t for t in p.ask_terms if t not in shared], p.aliases)
            self.full[key] = matcher


_TOOL_MATCHERS: dict[str, _ToolMatchers] = {}


def _tool_matchers(tool_name: str) -> _ToolMatchers | None:
    """The matchers of the tool registered under `tool_name` (None when none is): compiled the first time a
    question about it is checked, and again when the registry holds another tool under that name."""
    tool = TOOLS.get(tool_name)
    if tool is None:
        return None
    found = _TOOL_MATCHERS.get(tool_name)
    if found is None or found.tool is not tool:
        found = _TOOL_MATCHERS[tool_name] = _ToolMatchers(tool)
    return found


def _matcher(key: str) -> _ParamMatcher | None:
    """The matcher of a "tool.param" key, or None when the parameter is unknown or has no terms."""
    tools = _tool_matchers(key.partition(".")[0])
    return tools.full.get(key) if tools is not None else None


def _own(key: str) -> _ParamMatcher | None:
    """The matcher over the terms of a "tool.param" key that no sibling shares."""
    m = _matcher(key)
    return m.own if m is not None else None


def _siblings(key: str) -> list[str]:
    """The other required parameters of the same tool (that have ask terms)."""
    tools = _tool_matchers(key.partition(".")[0])
    return tools.siblings.get(key, []) if tools is not None else []


# The tools registered at import (the built-in ones) are compiled now, so that no grading call pays for it.
for _name in TOOLS:
    _tool_matchers(_name)


def asks_about(text: str, params: Sequence[str], user: str = "") -> str | None:
    """The first sentence of `text` that asks about one of `params` ("tool.param" keys), or None (rule 6).

    `user` is the user's message: one of its sentences said back (the same words, give or take "and" / "а"
    and with my/your turned round) is an echo, not a question ("Сколько это в евро?" answered with itself),
    and a value the user already gave is no evidence of asking for a
    missing parameter ("How many dollars would you like to convert?" when the target currency is missing).
    Only asking is checked here; check_answer adds the no-claim and no-invented-result conditions.
    Unknown keys contribute nothing. Linear; never raises.
    """
    span = _ask_span(text, params, user)
    return None if span is None else _behaviour(text).text[span[0]:span[1]].strip()


_WORD_TOKEN_RE = re.compile(r"[^\W_]+")
_ASK_CHUNK = 4096
_USER_SENTENCE_RE = re.compile(r"[^.!?…\n]+")
# An echo is the user's sentence said back: the same words, give or take these, with the person turned round
# ("мой брат" -> "ваш брат").
_ECHO_FILLERS = frozenset(("a", "and", "so", "then", "well", "oh", "just", "а", "и", "ну", "то", "тогда", "так"))
_PERSON = {w: "1/2" for w in ("i", "me", "my", "mine", "you", "your", "yours", "я", "мне", "меня", "мой", "моя",
                              "мое", "мои", "моего", "моей", "моих", "вы", "вам", "вас", "ваш", "ваша", "ваше",
                              "ваши", "вашего", "вашей", "ваших", "ты", "тебе", "тебя", "твой", "твоя", "твое",
                              "твои")}


def _echo_key(words: Iterable[str]) -> frozenset[str]:
    return frozenset(_PERSON.get(w, w) for w in words if w not in _ECHO_FILLERS)


def _user_sentences(u: _Behaviour | None) -> frozenset[frozenset[str]]:
    if u is None:
        return frozenset()
    keys = (_echo_key(_WORD_TOKEN_RE.findall(m.group(0))) for m in _USER_SENTENCE_RE.finditer(u.low))
    return frozenset(k for k in keys if k)


def _ask_span(text: Any, params: Any, user: Any = "") -> tuple[int, int] | None:
    """(start, end) in the behaviour text of the first sentence that asks about one of `params`, or None."""
    if not isinstance(text, str):
        return None
    keys = (params,) if isinstance(params, str) else params
    try:
        matchers = [m for m in (_matcher(k) for k in keys if isinstance(k, str)) if m is not None]
    except TypeError:
        return None
    if not matchers:
        return None
    b = _behaviour(text)
    low = b.low
    u = _behaviour(user) if isinstance(user, str) and user.strip() else None
    echoes = _user_sentences(u)
    given = [m.given(u) for m in matchers]
    asked = {m.key for m in matchers}
    given_params = [[o for g in _siblings(m.key) if g not in asked if (o := _own(g)) is not None] for m in matchers]
    # Only sentences holding a term, a value or a symbol can qualify; they are examined in text order, a
    # stretch of _ASK_CHUNK characters at a time, so a question near the start is found without reading on.
    gaps = [m.live_gaps(b) for m in matchers]
    examined = 0
    for lo in range(0, len(low), _ASK_CHUNK):
        hits = sorted({pos for m, g in zip(matchers, gaps) for pos in m.hits(b, g, lo, lo + _ASK_CHUNK)})
        for pos in hits:
            if pos < examined:      # inside the sentence examined last: examined text never overlaps
                continue
            start, end = _sentence_bounds(low, pos, pos)
            examined = end
            if not (_is_question(low, start, end) or _list_intro_asks(low, start)):
                continue
            if echoes and _echo_key(_WORD_TOKEN_RE.findall(low, start, end)) in echoes:
                continue            # a sentence of the user's message said back
            if any(m.about(b, start, end, g, gp) for m, g, gp in zip(matchers, given, given_params)):
                return start, end
    return None
