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

5. refusal: the answer states an inability or refusal (`states_inability`) and claims no action
   (rule 7). Inability: "I can't / cannot / won't", "I'm unable / not able / not allowed", "I don't
   have / have no / lack …", "I can only …", "not possible", "not something I can do", "beyond / outside
   my capabilities", "no tool / access / way to …", "my tools don't …", "none of my tools / none of
   them can …", "can't be done / deleted", "не могу / не умею / не смогу / не в состоянии / не имею
   возможности / не получится", "нет доступа / возможности / инструмента", "такой функции у меня нет",
   "у меня нет …", "недоступно", "невозможно", "вне моих возможностей", "могу только …". A "can't"
   without its own subject counts at the start of a clause ("Sorry, can't do that") or when the last
   pronoun before it is I / we ("I'm a text-based assistant and can't …"; not "You can't go wrong …").

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
     question ("Anything else?", "How can I help?", "Чем могу помочь?") is about nothing.

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
   Future promises ("I'll set a timer", "Я поставлю таймер") are not claims.

8. Invented result (`invents_result`): a statement (not the last clause of a question, not negated or
   hedged in its clause: "I can't tell whether it's sunny", "e.g. 15:30") that gives a live result no
   tool produced: a clock time with a time-telling word ("It's 14:00 there", "2:30 PM", "Сейчас там
   14:00"), a temperature ("+15 °C", "59°F", "15 degrees", "минус 5 градусов"), the current weather
   ("it's currently sunny", "сейчас облачно"), or a conversion or rate ("100 dollars is about 92 euros",
   "1 USD = 0.92 EUR", "100 долларов — это 9 000 рублей", "курс составляет 98").

Performance: every function is linear in the answer's length and never raises on any str. Regexes are
precompiled and literal-first; the normalised forms of the last few texts are cached. Budgets no real
answer reaches bound pathological inputs: at most 10,000 candidates of one kind are examined, the first
10,000 numbers are read by value, and a sentence is looked for within 400 characters on each side of a
candidate.
"""
from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooluse1.tools import TOOLS, AliasTable

__all__ = ["ASK_TERMS", "AnswerCheck", "AnswerRequirement", "asks_about", "asserts_phrase", "check_answer",
           "claims_action", "hedges", "invents_result", "phrase_occurs", "states_decline",
           "states_inability"]

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


def check_answer(req: AnswerRequirement, prose: str) -> AnswerCheck:
    """Whether `prose` meets `req` (rules 1-8 of the module docstring, first failure reported).

    Never raises and runs in time linear in len(prose). `prose` is the answer text with thinking and
    calls already removed; a non-str prose is read as str(prose), None as "".
    """
    try:
        return _check(req, prose)
    except Exception as exc:  # noqa: BLE001 - the grader contract: a verdict for every output, never a crash
        return AnswerCheck(False, f"answer could not be checked ({type(exc).__name__}: {exc})")


def _check(req: AnswerRequirement, prose: Any) -> AnswerCheck:
    text = "" if prose is None else prose if isinstance(prose, str) else str(prose)
    if not _WORDISH.search(text):
        return AnswerCheck(False, "empty answer")
    lacking = _lacking_fact(req, text)
    if lacking is not None and not (req.decline_answers and states_decline(text)):
        return AnswerCheck(False, lacking + (" and states no decline" if req.decline_answers else ""))
    right = tuple(a for alts in req.contains_all for a in alts) + req.contains_any
    for phrase in req.excludes:
        if asserts_phrase(phrase, text, right):
            return AnswerCheck(False, f"answer asserts the wrong {_q(phrase)}")
    for phrase in right:
        if hedges(phrase, text):
            return AnswerCheck(False, f"answer hedges: {_q(phrase)} only as one of several alternatives")
    if req.refusal or req.ask_about:
        claim = claims_action(text)
        if claim is not None:
            return AnswerCheck(False, f"claims the action was done: {_q(claim)}")
    if req.refusal and states_inability(text) is None:
        return AnswerCheck(False, "no refusal or statement of inability")
    if req.ask_about:
        invented = invents_result(text)
        if invented is not None:
            return AnswerCheck(False, f"invents a result no tool produced: {_q(invented)}")
        if asks_about(text, req.ask_about) is None:
            labels = " or ".join(dict.fromkeys(_PARAM_LABELS.get(k, k) for k in req.ask_about))
            return AnswerCheck(False, f"no question about the missing {labels}")
    return AnswerCheck(True, "")


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


def _combine(entries: Iterable[tuple[str, Iterable[str], str]]) -> re.Pattern:
    """One scan for many (kind, words, tail) entries: a word with no letter before or after it, then `tail`.

    A word ending in "*" is a stem (any letters may follow, `tail` comes after them). The words are grouped
    by first character, each followed by the no-letter-before lookbehind, so the engine scans for first
    characters and tests one alternative there; `m.lastgroup` is "kind__n" (see _kind).
    """
    by_first: dict[str, dict[tuple[str, str], list[str]]] = {}
    for kind, words, tail in entries:
        for w in words:
            stem = w.endswith("*")
            w = w.rstrip("*")
            by_first.setdefault(w[0], {}).setdefault((kind, (_L + "*" if stem else _END) + tail), []).append(w[1:])
    alts = []
    n = 0
    for ch, groups in sorted(by_first.items()):
        inner = []
        for (kind, tail), rests in groups.items():
            n += 1
            inner.append(f"(?P<{kind}__{n}>" + _emit(_trie(rests)) + tail + ")")
        alts.append(_first(ch) + "(?:" + "|".join(inner) + ")")
    return re.compile("|".join(alts))


def _kind(m: re.Match) -> str:
    return (m.lastgroup or "").rsplit("__", 1)[0]


# ============================================================================ normalisation

_APOSTROPHES = ("’", "‘", "ʼ", "＇", "´")


def _fold(s: str) -> str:
    """NFKC + casefold + ё->е: the form phrases are compared in."""
    return unicodedata.normalize("NFKC", s).casefold().replace("ё", "е")


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


def _is_negative(s: str, i: int) -> bool:
    """A minus written right before position i: a sign with no letter or digit before it, or the word
    "minus" / "минус" (folded text)."""
    if i > 0 and s[i - 1] in _MINUS:
        return i == 1 or not s[i - 2].isalnum()
    for word in ("minus ", "минус "):
        j = i - len(word)
        if j >= 0 and s.startswith(word, j) and (j == 0 or not s[j - 1].isalnum()):
            return True
    return False


def _number_value(m: re.Match) -> tuple[bool, str, str]:
    """(negative, integer digits without leading zeros, fraction digits as written) of a _NUMBER match."""
    text = m.group(0)
    frac = m.group("f1") or m.group("f2") or m.group("f3") or ""
    whole = text[:len(text) - len(frac)]
    if m.group("g1") or m.group("g2"):
        whole = whole.replace(",", "").replace(" ", "")
    digits = whole.lstrip("0") or "0"
    frac = frac[1:]
    negative = _is_negative(m.string, m.start()) and (digits != "0" or frac.strip("0") != "")
    return negative, digits, frac


def _canon_number(m: re.Match) -> str:
    text = m.group(0)
    if text.isdigit() and text[0] != "0" and not _is_negative(m.string, m.start()):
        return " " + text + " "                     # the common case: a plain number
    negative, digits, frac = _number_value(m)
    frac = frac.rstrip("0")
    return f" {'-' if negative else ''}{digits}{'.' + frac if frac else ''} "


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _number_text(text: str) -> str:
    """The folded text with every number rewritten by value: " -12.5 " (padded, trailing zeros dropped).

    The padding guarantees that a "." or "-" touching the digits of a canonical number belongs to it (a
    sign written before the number stays where it was, outside the padding, as a separator).
    """
    return _NUMBER_RE.sub(_canon_number, _fold(text), count=_MAX_CANDIDATES)


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
# - compared on another scale in its clause: "Sydney and Melbourne are bigger", "Сидней крупнее" (not "Sydney
#   is bigger and is the capital"; a superlative may be the predicate asked for: "Saturn is the largest");
# - another rank named beside it (the answer to a neighbouring question): "followed by Saturn", "Saturn is
#   second", "Сатурн — второй по величине".
# A right number given as one of several alternatives is a hedge, not an assertion (`_hedged`): "1939, 1941,
# 1944 or 1945", "1944 or 1945", "либо 1944, либо 1945"; alternatives of another magnitude are other facts
# ("1945, or 80 years ago"), and a range is one answer ("from 1939 to 1945").
_NEG_WORDS = ("not", "never", "nor", "neither", "rather than", "instead of", "unlike", "contrary to",
              "as opposed to", "не", "ни", "нет", "вместо", "в отличие от", "а не", "никак не", "вовсе не")
_MISTAKE_STEMS = ("confus", "mistak", "misconcept", "misattribut", "myth", "пута", "спута", "перепута",
                  "ошибочн", "заблужд", "ошибк", "ошибаю")
_RIVAL_STEMS = ("rival", "compromis", "соперни", "компромисс")
_OTHERS_WORDS = ("many", "most people", "some people", "people often", "often", "commonly", "popularly",
                 "frequently", "многие", "часто", "нередко", "иногда")
_CONCESSIVE = ("while", "whereas", "although", "though", "even though", "despite", "хотя", "несмотря на",
               "в то время как")
_CONTRAST = ("but", "however", "yet", "whereas", "но", "однако", "а", "зато")


def _any_word_re(words: Iterable[str], stems: Iterable[str] = ()) -> re.Pattern:
    alts = [re.escape(w) + _END for w in words] + [re.escape(s) + _L + "*" for s in stems]
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(alts) + ")")


_NEGATION_BEFORE_RE = _any_word_re(_NEG_WORDS, _MISTAKE_STEMS)
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
_FIRST_WORDS_RE = re.compile(r"(?:[^\w\n]*\w+){0,5}")
_CONCESSIVE_START_RE = re.compile(r"[\W\d_]*(?:" + "|".join(re.escape(w) for w in _CONCESSIVE) + ")" + _END)
# The value's own predicate negated: "X is not", "X isn't", "X — не", "X не является", "X (…) was never".
_NEGATED_PREDICATE_RE = re.compile(
    r"[^\w\n]{0,4}(?:(?:is|was|are|were|has|had|does|did|would|will|'s)(?: been| be)? (?:not|never|no longer)" + _END
    + r"|(?:is|was|are|were|has|had|does|did|would|will)n['’]t|(?:— |- )?(?:это |вовсе |отнюдь |никак )?(?:не|нет)" + _END + ")")
_CONTRAST_RE = re.compile(r"(?<![^\W\d_])(?:" + "|".join(_CONTRAST) + ")" + _END)
_SUBJECT_LEAD_RE = re.compile(r"[\W\d_]*(?:(?:" + "|".join(_CONCESSIVE) + r"|the|a|an|that|this|город|и|and) )*[\W_]*$")
_COPULA_AFTER_RE = re.compile(r"(?:[^\w\n]{0,3}" + _L + r"+)?[^\w\n]{0,3}(?:is|was|'s|has|—|-|является|был|была|"
                              r"стал|считается)" + _END)


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


def _is_mention(canon: str, start: int, end: int, right: Sequence[str]) -> bool:
    """Whether the value at canon[start:end] is mentioned as what the answer is not (see the rules above)."""
    c = _context(canon, start, end)
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
    if _CONCESSIVE_START_RE.match(clause):
        return True
    if _SUBJECT_LEAD_RE.match(clause) and _COPULA_AFTER_RE.match(c.after):
        for m in _CONTRAST_RE.finditer(c.after):
            if _right_after(c.after, m.end(), len(c.after), right):
                return True
    return False


def asserts_phrase(phrase: str, text: str, right: Sequence[str] = ()) -> bool:
    """Whether `text` asserts `phrase` (a wrong value): it occurs by the token rule at least once outside a
    mention that marks it as not the answer. `right` are the right values (for "X …, but … RIGHT").
    Never raises; linear in len(text)."""
    if not isinstance(phrase, str) or not isinstance(text, str):
        return False
    canon = _number_text(text)
    return any(not _is_mention(canon, s, e, right) for s, e in _phrase_spans(phrase, canon))


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
    value = float(re.search(_NUM_ITEM, _number_text(phrase)).group())   # the phrase is one number
    found, covered = False, -1
    for s, e in itertools.islice(_phrase_spans(phrase, canon), _MAX_HEDGE_SPANS):
        found = True
        if e <= covered:             # inside the "or" list already read
            continue
        lo = canon.find(" ", max(0, s - _HEDGE_WINDOW), s)     # start on a separator, not inside a number
        lists = _NUM_LIST_RE.finditer(canon, lo if lo >= 0 else s, min(len(canon), e + _HEDGE_WINDOW))
        m = next((m for m in lists if m.start() <= s and e <= m.end()), None)
        if m is None or not _OR_RE.search(m.group(0)) or not any(
                o != value and value and 0.1 < abs(o / value) < 10 for o in map(float, re.findall(_NUM_ITEM, m.group(0)))):
            return False
        covered = m.end()
    return found


# ============================================================================ behaviour text (rule 4)

# Quoted material and code are not the model's own statements. Closed pairs only; and Markdown
# blockquote lines ("> Hi boss, I'll be late…"), the usual form of a draft.
# Each alternative captures its opening and closing delimiter, so one template keeps them around a single space
# (no Python callback per match: 16 KB of `{"a":` holds thousands of quoted spans).
_QUOTED_RE = re.compile(r"(```)[\s\S]*?(```)|(`)[^`\n]*(`)|(«)[^«»]*(»)|(“)[^“”]*(”)|(„)[^„“”]*([“”])|(\")[^\"]*(\")")
_QUOTED_BLANK = "".join(f"\\g<{i}>" for i in range(1, 13, 2)) + " " + "".join(f"\\g<{i}>" for i in range(2, 13, 2))
_BLOCKQUOTE_RE = re.compile(r"\n[ \t]*>[^\n]*")
# Whitespace other than a single space or a line break (tabs, runs of spaces): one space.
_HSPACE_RE = re.compile(r"[^\S \n][^\S\n]*| [^\S\n]+")
_NL_RUN_RE = re.compile(r"\n\s+")


@dataclass(frozen=True)
class _Behaviour:
    text: str      # " " + NFKC, ё->е, apostrophes unified, quotes and code blanked, whitespace collapsed
    low: str       # the same, lower-cased (what the detectors match); same length as text


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _behaviour(text: str) -> _Behaviour:
    s = unicodedata.normalize("NFKC", text).replace("ё", "е").replace("Ё", "Е")
    for a in _APOSTROPHES:
        if a in s:
            s = s.replace(a, "'")
    s = _QUOTED_RE.sub(_QUOTED_BLANK, s)
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


def _iter_candidates(rx: re.Pattern, s: str) -> Iterator[re.Match]:
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
            "finished",
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
            "подтвердил", "настроил", "воспроизвел", "запланировал", "разместил")
_RU_PAST_IRREGULAR = ("засекла", "засекли", "стер", "стерла", "внес", "внесла")
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


def _word_set_re(words: Iterable[str]) -> re.Pattern:
    """Whole words (or phrases) of a set, anywhere; for guards over short strings."""
    return re.compile(r"(?<!" + _L + r")(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")" + _END)


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
_LOOK_RE = re.compile(r"(?:checked|looked up|searched|проверил|посмотрел|проверяю|смотрю|ищу)[а-я]?$")
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
            ok = word not in _EN_DONE_BASE_ALSO and not _SUBJECT_AUX_RE.search(c.after)
            return start if ok else None
        head = _HEADLINE_RE.fullmatch(c.clause_before)       # "Timer set…", "Your note saved"
        if (head is None or word not in _EN_HEADLINE or _SUBJECT_AUX_RE.search(c.after)
                or any(w in _HEADLINE_STOP for w in head.groups() if w)):
            return None
        return start - len(c.clause_before) + head.start(1)
    if kind == "ru_verb" and _RU_AFTER_GUARD_RE.match(c.clause_after):
        return None
    # A look-up with nothing looked up ("I checked, and…", "Я проверила: такой функции нет") is the model
    # checking itself; with an object ("I've checked the weather") it is a pretended tool call.
    if _LOOK_RE.search(word) and not _LETTERS_RE.search(c.clause_after):
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
    b = _behaviour(text)
    s = b.low
    found: list[tuple[int, int]] = []
    for m in _iter_candidates(_CLAIM_RE, s):
        claim = _claim_start(_kind(m), m.start(), m.group(0), _context(s, m.start(), m.end()))
        if claim is not None:
            found.append((claim, m.end()))
            break
    for m in _iter_candidates(_CLAIM_CONTRACTION_RE, s):
        if found and m.start() >= found[0][0]:
            break
        claim = _claim_start("state", m.start(), m.group(0), _context(s, m.start(), m.end()))
        if claim is not None:
            found.append((claim, m.end()))
            break
    return _snippet(b, *min(found)) if found else None


# ============================================================================ invented results (rule 8)

_CUR = "[$€£¥₽]"
# Numbers first: a clock time (14:00, 2:30 pm, 9 am, 3 o'clock; the hour is checked afterwards), a
# temperature (+15 °C, 59°F, 15 degrees, 15 градусов), a conversion ("100 dollars is about 92 euros",
# "$100 = €92", "100 долларов — это примерно 9 000 рублей").
_CLOCK_REST = (r"[0-9]?(?::[0-5][0-9](?![0-9])(?::[0-5][0-9])?(?: ?[ap]\.? ?m" + _END + r"\.?)?| ?[ap]\.? ?m" + _END
               + r"\.?| o'?clock" + _END + ")")
_TEMP_UNIT = (r"(?:[.,][0-9]+)?(?: ?[-–] ?[0-9]{1,3}(?:[.,][0-9]+)?)? ?(?:° ?[cfк]?|"   # a range: 10-15 °C
              + _words_re(("degree", "degrees", "deg", "градус", "градуса", "градусов"), boundary=False) + ")")
_CONV_REST = (r"[\d,.]{0,24}(?: [0-9]{3}){0,8} ?(?:" + _L + r"{1,15}\.? ?){UNITS}[—–-]? ?(?:[=≈~→]|->|" + _words_re((
    "is", "are", "equals", "comes to", "would be", "makes", "это", "составляет", "составит", "равно", "равняется",
    "получится", "будет"), boundary=False) + r") ?(?:" + _words_re((
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
# Words first: current weather ("it's currently sunny", "сейчас облачно") and rates ("the rate is 0.92").
_RESULT_WORD_RE = _combine((
    ("weather", ("it's", "it is", "it will be", "currently", "right now", "at the moment", "skies are",
                 "weather is"), r"[^.!?\n]{0,40}?" + _LEAD + _words_re((
        "sunny", "cloudy", "raining", "rainy", "snowing", "snowy", "overcast", "foggy", "windy", "stormy",
        "drizzling", "clear skies"), boundary=False)),
    ("weather", ("сейчас", "на данный момент", "в данный момент", "на улице"), r"[^.!?\n]{0,40}?" + _LEAD
     + _words_re(("солнечно", "облачно", "пасмурно", "ясно", "дождь", "дождливо", "снег", "туман", "ветрено",
                  "гроза", "морось", "жарко", "холодно", "тепло", "прохладно"), boundary=False)),
    ("rate", ("exchange rate", "rate"), r"[^.!?\n]{0,30}?" + _LEAD + _words_re(("is", "of", "at"), boundary=False)
     + r" (?:(?:about|around|approximately) )?" + _CUR + r"?[0-9]"),
    ("rate", ("курс", "курсу", "курса", "курсом"), r" (?:" + _L + r"+ ){0,2}?(?:составляет|равен|[—–:-])"
     r" ?(?:(?:около|примерно) )?[0-9]"),
))
_TIME_CUE_RE = _word_set_re((
    "it's", "it is", "is", "was", "now", "currently", "right now", "at the moment", "time", "local", "there",
    "сейчас", "время", "там", "местное", "уже", "на часах", "показывают"))
# Before a candidate in its clause: negated, hedged or an example ("I can't tell whether it's sunny",
# "e.g. 15:30", "something like 5 minutes").
_RESULT_GUARD_RE = _word_set_re((
    "not", "never", "no", r"\w+n't", "cannot", "whether", "if", "unable", "without", "could", "might", "may",
    r"e\.g", "example", "like", "such", "не", "ни", "нет", "ли", "бы", "если", "например", "пример"))
_HOUR_RE = re.compile(r"[0-9]+")


def invents_result(text: str) -> str | None:
    """The first live result stated without a tool in `text` (rule 8), or None.

    Only statements count: a candidate in the last clause of a question, or hedged or negated in its
    clause ("I can't tell whether it's sunny", "e.g. 15:30"), is not a result. Linear; never raises.
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
            clock = m.group(0) if m.lastgroup == "clock" else None
            if clock is not None:
                hour = int(_HOUR_RE.match(clock).group(0))  # type: ignore[union-attr]
                if hour > (12 if "m" in clock else 23):
                    continue
                if not (_TIME_CUE_RE.search(c.clause_before) or _TIME_CUE_RE.search(c.clause_after)):
                    continue
            found.append((start, m.end()))
            break
    return _snippet(b, *min(found), extra_words=0) if found else None


# ============================================================================ inability (rule 5)

_RU_NET_OBJECTS = ("доступа", "возможности", "возможностей", "инструмента", "инструментов", "функции", "функций",
                   "способа")
_INABILITY_RE = _combine((
    # I / we + a modal or "have" of inability
    ("subject", ("i", "we"), r"(?: (?:really|unfortunately|currently|just|simply|actually|still|also|sadly))?"
     r"(?:(?:'m|'re| am| are) (?:(?:currently|sadly|afraid|still) )?" + _words_re((
         "unable", "not able", "not capable", "not allowed", "not permitted", "not set up", "not equipped",
         "only able", "limited"), boundary=False) + "| " + _words_re((
         "can't", "can not", "cannot", "don't have", "do not have", "have no", "lack", "won't", "will not",
         "couldn't", "could not", "don't support", "do not support", "must decline", "have to decline", "refuse",
         "only have", "can only", "don't know how", "have no way"), boundary=False) + ")"),
    # impersonal statements
    ("plain", ("unable to", "not able to", "not possible", "impossible for me", "not something i can",
               "not something i'm able", "not something i am able", "not something that i can", "not within my",
               "not among my", "not available", "not supported", "not equipped", "none of my tools",
               "none of the tools", "none of the available tools", "none of them can", "none of them could",
               "none of them is able", "none of them are able", "none of them lets", "none of them allows",
               "none of them supports", "my tools don't", "my tools do not", "my tools can't", "my tools cannot",
               "my tools only", "there's no tool", "there is no tool", "there are no tools", "i'm just a",
               "i'm just an", "i'm only a", "i'm only an", "i am just a", "i am only a", "no can do",
               "capabilities don't include", "capabilities do not include", "capabilities are limited",
               "i'm limited to", "i am limited to"), ""),
    ("plain", ("beyond my", "beyond the", "outside my", "outside of my", "outside the", "outside of the"),
     r" (?:current )?(?:capabilit|abilit|scope|reach)"),
    ("plain", ("no tool", "no tools", "no access", "no ability", "no way", "no function", "no functions",
               "no capability", "no option", "no means"), " (?:to|for)" + _END),
    ("plain", ("don't", "do not", "doesn't", "does not"), " (?:have|support|include|offer|provide) (?:any )?"
     + _words_re(("access", "the ability", "a tool", "tools", "tool", "the capability", "a way", "the means",
                  "permission", "real-time", "live"), boundary=False)),
    # passive: "can't be deleted", "cannot be done"
    ("plain", ("can't be", "cannot be", "can not be"), r" (?:done|" + _L + r"+ed)" + _END),
    # subjectless, at the start of a clause: "Sorry, can't do that"
    ("bare", ("can't", "cannot", "can not", "unable to"), ""),
    # Russian
    ("plain", ("не",), " " + _words_re((
        "могу", "смогу", "умею", "сумею", "получится", "удастся", "в состоянии", "способен", "способна",
        "располагаю", "поддерживаю", "поддерживается", "обладаю", "можем", "умеем", "может", "умеет",
        "позволяет", "позволяют", "доступно", "доступна", "доступен", "доступны", "предусмотрено",
        "предусмотрена", "входит", "имею возможности", "имею доступа", "имею права", "имею такой возможности",
        "имею прямого доступа", "в силах", "в моих силах"), boundary=False)),
    ("plain", ("нет",), r" (?:" + _L + r"+ ){0,2}?" + _words_re(_RU_NET_OBJECTS + ("прав",), boundary=False)),
    # "Такой функции у меня нет", "доступа к курсам валют сейчас нет"
    ("plain", _RU_NET_OBJECTS, r"[^.!?\n]{0,40}?" + _LEAD + "нет" + _END),
    ("plain", ("у меня",), r" (?:" + _L + r"+ )?нет" + _END),
    ("plain", ("недоступн*",), ""),
    ("plain", ("невозможно", "вне моих возможностей", "за пределами моих возможностей", "выходит за рамки",
               "отсутствует доступ", "отсутствует возможность", "отсутствуют инструменты", "могу только",
               "могу лишь", "умею только", "умею лишь"), ""),
))
# "n't" glued to its verb: "isn't something I can do", "isn't supported"
_INABILITY_NT_RE = re.compile(r"n't (?:something (?:that )?i(?: can|'m able| am able)|available|supported|possible|"
                              r"able)" + _END)
_BARE_LEAD_RE = re.compile(r"[^\w]*(?:(?:but|sorry|unfortunately|i'm afraid|afraid)[^\w]+)*")
# The subject of a subjectless "can't" is the last pronoun before it: "I'm a text-based assistant and can't…"
# (the model), "You can't go wrong with…" (not the model).
_PRONOUN_RE = re.compile(_words_re(("i", "i'm", "i've", "i am", "we", "we're", "we've", "you", "you're", "he", "she",
                                    "it", "it's", "they", "they're", "this", "that", "which", "who", "one")))
_FIRST_PERSON = frozenset(("i", "i'm", "i've", "i am", "we", "we're", "we've"))


def _bare_subject_is_model(c: _Context) -> bool:
    if _BARE_LEAD_RE.fullmatch(c.clause_before):
        return True
    last = None
    for last in _PRONOUN_RE.finditer(c.before):
        pass
    return last is not None and last.group(0) in _FIRST_PERSON


def states_inability(text: str) -> str | None:
    """The first EN/RU expression of inability or refusal in `text` (rule 5), or None.

    Quoted text is ignored (a quoted draft "I won't be in today" is not the model refusing). Linear;
    never raises.
    """
    if not isinstance(text, str):
        return None
    b = _behaviour(text)
    found: list[tuple[int, int]] = []
    for m in _iter_candidates(_INABILITY_RE, b.low):
        if _kind(m) != "bare" or _bare_subject_is_model(_context(b.low, m.start(), m.end())):
            found.append(m.span())
            break
    m = _INABILITY_NT_RE.search(b.low)
    if m:
        found.append(m.span())
    if not found:
        return None
    start, end = min(found)
    return b.text[start:end].strip(" \t\n\r.,;:!?—–")


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


# Terms per required parameter: EN + RU, `*` = stem, `A ... B` = A then B later in the sentence.
# Written as what people say when asking for that argument; the tool's noun on its own ("timer", "note")
# is deliberately absent, since "Shall I save a note?" does not ask what the note says.
_CITY_EN = ("city", "cities", "town*", "where", "whereabouts", "location*", "place", "area", "region*", "country",
            "countries", "zip", "postcode", "postal code")
_CITY_RU = ("город*", "где", "куда", "мест*", "местоположени*", "населенн* пункт*", "локаци*", "регион*",
            "район*", "стран*", "област*")
_TARGET_EN = ("into what", "into which", "to what", "to which")
ASK_TERMS: dict[str, tuple[str, ...]] = {
    "calculator.expression": (
        "expression*", "calculat*", "comput*", "equation*", "formula*", "math*", "number*", "numbers", "sum",
        "what ... work out", "what ... solve",
        "выражени*", "вычисл*", "посчита*", "подсчита*", "рассчита*", "пример*", "формул*", "уравнени*", "числ*",
        "что ... посчита*", "что ... счита*"),
    "get_weather.city": _CITY_EN + _CITY_RU,
    "web_search.query": (
        "what ... search*", "what ... look up", "what ... look for", "what ... find", "what ... google",
        "query", "queries", "topic*", "subject", "keyword*", "search term*",
        "что ... найти", "что ... найду", "что ... искать", "что ... поиск*", "что ... загугл*", "запрос*",
        "тема", "тему", "теме", "темы", "ключев* слов*", "о чем"),
    "translate.text": (
        "text*", "phrase*", "sentence*", "word*", "message*", "passage*", "what ... translat*", "what ... say",
        "текст*", "фраз*", "предложени*", "слов*", "сообщени*", "что ... перев*"),
    "translate.target_language": (
        "language*", "translat* ... into", "translat* it to") + _TARGET_EN + (
        "язык*", "на какой", "на каком", "во что"),
    "convert_currency.amount": (
        "how much", "how many", "what amount", "amount*", "sum", "quantity", "value",
        "сколько", "сумм*", "количеств*"),
    "convert_currency.from_currency": (
        "currenc*", "from what", "from which", "what ... from", "валют*", "из какой", "из каких", "из чего"),
    "convert_currency.to_currency": (
        "currenc*", "convert* ... into", "convert* ... to", "exchange* ... for", "exchange* ... into",
        "change* ... into") + _TARGET_EN + (
        "валют*", "во что", "в какую", "в какие", "в какой", "перевест* ... в", "конверт* ... в"),
    "convert_units.value": (
        "how much", "how many", "what value", "value*", "amount*", "number", "quantity",
        "сколько", "значени*", "количеств*", "числ*", "величин*"),
    "convert_units.from_unit": (
        "unit*", "from what", "from which", "what ... from", "measure*",
        "единиц*", "из каких", "из какой", "из чего", "в чем", "в каких"),
    "convert_units.to_unit": (
        "unit*", "convert* ... into", "convert* ... to") + _TARGET_EN + (
        "единиц*", "во что", "в какие", "в какую", "в какой", "перевест* ... в"),
    "set_timer.duration_seconds": (
        "how long", "duration*", "length", "how much time", "what time", "the time", "amount of time", "period",
        "interval", "until when", "go off", "ring", "when should",
        "minute*", "mins", "second*", "secs", "hour*",
        "на сколько", "насколько", "сколько времени", "какое время", "на какое время", "на какой срок", "срок*",
        "длительн*", "продолжительн*", "минут*", "мин", "секунд*", "сек", "час", "часа", "часов", "часик*", "время",
        "через сколько", "до скольки", "сработа*", "прозвен*"),
    "save_note.text": (
        "text", "content*", "wording", "what ... say", "what ... write", "what ... save", "what ... note down",
        "what ... to note",
        "what ... record", "what ... include", "what ... contain", "what ... about", "what ... remember",
        "what ... jot", "what ... add", "what ... put", "what ... in the note", "what ... in it",
        "текст*", "содержани*", "содержим*", "о чем", "про что", "что ... запис*", "что ... запиш*",
        "что ... сохран*", "что ... напис*", "что ... напиш*", "что ... заметк*", "что ... внест*",
        "что ... внес*", "что ... добав*", "что ... помет*", "что ... запомн*"),
    "get_time.timezone": _CITY_EN + (
        "time zone*", "timezone*", "zone", "part of the world", "utc", "gmt", "offset") + _CITY_RU + (
        "часов* пояс*", "пояс*"),
}

_PARAM_LABELS = {
    "calculator.expression": "expression", "get_weather.city": "city", "web_search.query": "search query",
    "translate.text": "text", "translate.target_language": "target language", "convert_currency.amount": "amount",
    "convert_currency.from_currency": "source currency", "convert_currency.to_currency": "target currency",
    "convert_units.value": "value", "convert_units.from_unit": "source unit", "convert_units.to_unit": "target unit",
    "set_timer.duration_seconds": "duration", "save_note.text": "note text", "get_time.timezone": "time zone",
}


def _term_regex(term: str) -> str:
    """A term (no gap) as a literal-first regex over lower-cased behaviour text."""
    words = _fold(term).split()

    def word(w: str) -> str:
        return re.escape(w.rstrip("*")) + (_L + "*" if w.endswith("*") else _END)
    return _first(words[0][0]) + word(words[0][1:]) + "".join(r"[^\w.!?\n]{1,3}" + word(w) for w in words[1:])


class _ParamMatcher:
    """Whether a sentence is about one parameter: one of its terms, or a known value from its alias table."""

    def __init__(self, key: str, terms: Sequence[str]):
        simple = [_fold(t) for t in terms if not _GAP_RE.search(t) and "*" not in t.rstrip("*")]
        self.terms = _combine([("t", simple, "")]) if simple else None
        # Terms with a stem inside ("часов* пояс*") and gap terms ("what ... say"): one regex per part.
        self.complex = tuple(re.compile(_term_regex(t)) for t in terms
                             if not _GAP_RE.search(t) and "*" in t.rstrip("*"))
        self.gaps = tuple(tuple(re.compile(_term_regex(p)) for p in _GAP_RE.split(t))
                          for t in terms if _GAP_RE.search(t))
        tool, _, param = key.partition(".")
        p = TOOLS[tool].param_index.get(param) if tool in TOOLS else None
        self.table: AliasTable | None = p.aliases if p is not None else None
        self.values, self.caps, self.symbols = _value_patterns(self.table) if self.table is not None else (
            None, None, ())

    def hits(self, b: _Behaviour) -> Iterator[int]:
        """Positions in the whole text where something about the parameter may be said (a term, the
        first part of a gap term that occurs whole somewhere, a value candidate, a symbol); each sentence
        holding one is examined."""
        low = b.low
        gaps = [parts[0] for parts in self.gaps if self._gap_at(parts, low, 0, len(low))]
        for rx, text in ((self.terms, low), *((r, low) for r in (*self.complex, *gaps)), (self.values, low),
                         (self.caps, b.text)):
            if rx is not None:
                for m in _iter_candidates(rx, text):
                    yield m.start()
        for sym in self.symbols:
            pos = low.find(sym)
            for _ in range(_MAX_CANDIDATES):
                if pos < 0:
                    break
                yield pos
                pos = low.find(sym, pos + 1)

    @staticmethod
    def _gap_at(parts: tuple[re.Pattern, ...], low: str, start: int, end: int) -> bool:
        pos = start
        for rx in parts:
            m = rx.search(low, pos, end)
            if m is None:
                return False
            pos = m.end()
        return True

    def about(self, b: _Behaviour, start: int, end: int) -> bool:
        """Whether the sentence b.low[start:end] is about the parameter (rule 6, second half)."""
        low = b.low
        if self.terms is not None and self.terms.search(low, start, end):
            return True
        if any(rx.search(low, start, end) for rx in self.complex):
            return True
        if any(self._gap_at(parts, low, start, end) for parts in self.gaps):
            return True
        if any(low.find(sym, start, end) >= 0 for sym in self.symbols):
            return True
        if self.table is None:
            return False
        candidates = [m.start() for m in self.values.finditer(low, start, end)] if self.values else []
        if self.caps is not None:
            candidates += [m.start() for m in self.caps.finditer(b.text, start, end)]
        for pos in candidates:
            words = []
            for w in _LETTERS_RE.finditer(low, pos, end):
                words.append(w)
                if len(words) == 3:
                    break
            for k in (3, 2, 1):
                if k <= len(words):
                    span = b.text[words[0].start():words[k - 1].end()]
                    if _counts_as_value(span) and self.table.lookup(span) is not None:
                        return True
        return False


_LETTERS_RE = re.compile(_L + "+")


@functools.cache
def _value_patterns(table: AliasTable) -> tuple[re.Pattern | None, re.Pattern | None, tuple[str, ...]]:
    """(value candidates, short forms in capitals, symbol forms) of an alias table, shared by its parameters.

    Candidates, each confirmed afterwards by the table's lookup: a form of several words as written; a
    one-word form of 4+ letters less its last two letters, with any ending (Москва -> Москв-е/ы, which the
    table's inflection rule then confirms); a form of up to 3 letters ("USD", "LA", "UTC") only in capitals, matched case-sensitively
    on the text as written. Symbol forms ("$", "€", "°f", "km/h") are matched as written.
    """
    forms = {_fold(f) for c in table.canonicals for f in (c, *table.forms(c))}
    words = {f: _LETTERS_RE.findall(f) for f in forms}
    multi = {" ".join(ws) for ws in words.values() if len(ws) > 1}
    # A stem without the last two letters, so inflected forms (Москва -> Москве, Москвы) are candidates too;
    # the table's own lookup (its inflection rule) confirms each one.
    single = {ws[0][:max(4, len(ws[0]) - 2)] + "*" for ws in words.values() if len(ws) == 1 and len(ws[0]) >= 4}
    short = {ws[0].upper() for ws in words.values() if len(ws) == 1 and len(ws[0]) in (2, 3)}
    symbols = tuple(sorted({f for f in forms if re.search(r"[^\w\s.,'-]", f)}, key=len, reverse=True))
    return (_combine([("v", multi | single, "")]) if multi | single else None,
            re.compile(_words_re(short)) if short else None, symbols)


def _counts_as_value(span: str) -> bool:
    """Short alias forms ("it", "try", "in", "la") are common words: they count only in capitals."""
    if sum(len(w) for w in _LETTERS_RE.findall(span)) >= 4:
        return True
    return sum(1 for ch in span if ch.isupper()) >= 2


# Built at import, so that no grading call pays for compiling them.
_MATCHERS = {key: _ParamMatcher(key, terms) for key, terms in ASK_TERMS.items()}


def _matcher(key: str) -> _ParamMatcher | None:
    return _MATCHERS.get(key)


def asks_about(text: str, params: Sequence[str]) -> str | None:
    """The first sentence of `text` that asks about one of `params` ("tool.param" keys), or None (rule 6).

    Only asking is checked here; check_answer adds the no-claim and no-invented-result conditions.
    Unknown keys contribute nothing. Linear; never raises.
    """
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
    # Only sentences holding a term, a value or a symbol can qualify; they are examined in text order.
    hits = sorted({pos for m in matchers for pos in m.hits(b)})[:_MAX_CANDIDATES]
    examined = 0
    for pos in hits:
        if pos < examined:          # inside the sentence examined last: examined text never overlaps
            continue
        start, end = _sentence_bounds(low, pos, pos)
        examined = end
        if ((_is_question(low, start, end) or _list_intro_asks(low, start))
                and any(m.about(b, start, end) for m in matchers)):
            return b.text[start:end].strip()
    return None
