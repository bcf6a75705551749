"""Rule 6 of the text-answer checks (tooluse1.answers): a clarifying question about a missing
parameter; the clarification terms (`ASK_TERMS`), the per-tool parameter matchers and the echo of
the user's own sentences (rule 4a).

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
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from tooluse1.aliases import AliasTable
from tooluse1.tools import TOOLS
from tooluse1.toolspec import Param, Tool, Toolbox
from tooluse1.answers.base import (_combine, _END, _first, _fold, _L, _LETTERS_RE, _MAX_CANDIDATES, _WINDOW,
                                   _WordPattern, _words_re)
from tooluse1.answers.behaviour import _Behaviour, _behaviour, _CLOSERS, _sentence_bounds
from tooluse1.answers.phrases import _GAP_RE
from tooluse1.lang import ru_forms


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
    r"чей|чья|чье|чьи|чему|кому|ком|кем)|где|куда|откуда|когда|насколько|кто|как|зачем|почему)" + _END)
_REQUEST_VERBS_EN = ("specify", "provide", "tell", "let", "share", "give", "clarify", "confirm", "indicate", "enter",
                     "type", "paste", "send", "state", "say", "choose", "select", "pick", "name", "write",
                     "describe", "mention", "include", "advise", "drop", "reply", "respond", "add", "list")
# Verbs of telling whose second-person future makes a condition a request ("как только скажете, …").
_RU_TELL = ("сказать", "указать", "написать", "уточнить", "сообщить", "подсказать", "назвать", "прислать", "дать",
            "выбрать", "ввести", "продиктовать", "определиться", "решить")
_RU_TELL_FUTURE = tuple(f for lemma in _RU_TELL for f in ru_forms(lemma, frozenset({"2per", "futr"})))
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
    # A condition on the user's telling: "если вы скажете…", "как только скажете, на сколько минут", "когда
    # напишете текст" (the verbs' second-person futures, from the analyser's dictionary).
    ("r", ("если", "как только", "когда", "после того как", "только скажите"), r" (?:(?:вы|ты) )?"
     + _words_re(_RU_TELL_FUTURE, boundary=False)),
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
    """The clarification terms per parameter ("tool.param" -> terms) of a toolbox's tools, read from it
    (`Param.ask`, every language in turn: EN + RU, `*` = stem, `A ... B` = A then B later in the sentence) at
    each look-up, so a tool added to the toolbox after this object was made has its terms here too. Only
    parameters with terms are keys."""

    def __init__(self, tools: Toolbox):
        self.tools = tools

    def __getitem__(self, key: str) -> tuple[str, ...]:
        p = _param(key, self.tools)
        if p is None or not p.ask_terms:
            raise KeyError(key)
        return p.ask_terms

    def __iter__(self) -> Iterator[str]:
        return (f"{t.name}.{p.name}" for t in self.tools.values() for p in t.params if p.ask_terms)

    def __len__(self) -> int:
        return sum(1 for _ in self)


# The registry's (tooluse1.tools.TOOLS); a case that declares its own tools has its own (`_ask_terms`).
ASK_TERMS: Mapping[str, tuple[str, ...]] = _AskTerms(TOOLS)


def _ask_terms(tools: Toolbox) -> Mapping[str, tuple[str, ...]]:
    """The clarification terms of `tools`' parameters, as ASK_TERMS holds the registry's."""
    return ASK_TERMS if tools is TOOLS else _AskTerms(tools)


def _param(key: str, tools: Toolbox) -> Param | None:
    """The parameter of `tools` a "tool.param" key names, or None."""
    if not isinstance(key, str):
        return None
    tool, _, param = key.rpartition(".")
    t = tools.get(tool)
    return t.param_index.get(param) if t is not None else None


def _param_label(key: str, tools: Toolbox) -> str:
    """How a failure reason names a parameter of `tools` ("source currency"); the key itself when it is
    unknown."""
    p = _param(key, tools)
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

    def hits(self, b: _Behaviour, gaps: Sequence[re.Pattern], lo: int, hi: int) -> Iterator[int]:
        """The starts lo <= p < hi in b.low of what may say something about the parameter (a term, the first
        part of a gap term in `gaps`, a value candidate, a symbol), each a sentence to examine. A match that
        starts before hi and runs on past it counts: each pattern is scanned to _ASK_REACH characters past hi."""
        low = b.low
        reach = min(len(low), hi + _ASK_REACH)
        for rx, text in ((self.terms, low), *((r, low) for r in (*self.complex, *gaps)), (self.values, low),
                         (self.caps, b.text)):
            if rx is not None:
                for m in rx.finditer(text, lo, reach):
                    if m.start() >= hi:
                        break
                    yield m.start()
        for sym in self.symbols:
            pos = low.find(sym, lo, hi + len(sym) - 1)
            while pos >= 0:
                yield pos
                pos = low.find(sym, pos + 1, hi + len(sym) - 1)

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


@functools.cache
def _value_patterns(table: AliasTable) -> tuple[_WordPattern | None, re.Pattern | None, tuple[str, ...]]:
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


# By the tool object (id), so that two tools of one name (two cases' own definitions) keep theirs. An entry
# holds its tool, so no other object can take that id while the entry exists; entries are never dropped (one
# per distinct tool object a process grades with: the loaded corpora's).
_TOOL_MATCHERS: dict[int, _ToolMatchers] = {}


def _tool_matchers(tool_name: str, tools: Toolbox) -> _ToolMatchers | None:
    """The matchers of the tool of `tools` named `tool_name` (None when there is none): compiled the first
    time a question about that tool object is checked."""
    tool = tools.get(tool_name)
    if tool is None:
        return None
    found = _TOOL_MATCHERS.get(id(tool))
    if found is None:
        found = _TOOL_MATCHERS[id(tool)] = _ToolMatchers(tool)
    return found


def _matcher(key: str, tools: Toolbox) -> _ParamMatcher | None:
    """The matcher of a "tool.param" key of `tools`, or None when the parameter is unknown or has no terms."""
    matchers = _tool_matchers(key.rpartition(".")[0], tools)
    return matchers.full.get(key) if matchers is not None else None


def _own(key: str, tools: Toolbox) -> _ParamMatcher | None:
    """The matcher over the terms of a "tool.param" key of `tools` that no sibling shares."""
    m = _matcher(key, tools)
    return m.own if m is not None else None


def _siblings(key: str, tools: Toolbox) -> list[str]:
    """The other required parameters of the same tool of `tools` (that have ask terms)."""
    matchers = _tool_matchers(key.rpartition(".")[0], tools)
    return matchers.siblings.get(key, []) if matchers is not None else []


# The tools registered at import (the built-in ones) are compiled now, so that no grading call pays for it.
for _name in TOOLS:
    _tool_matchers(_name, TOOLS)


def asks_about(text: str, params: Sequence[str], user: str = "", *, tools: Toolbox = TOOLS) -> str | None:
    """The first sentence of `text` that asks about one of `params` ("tool.param" keys), or None (rule 6).

    `user` is the user's message: one of its sentences said back (the same words, give or take "and" / "а"
    and with my/your turned round) is an echo, not a question ("Сколько это в евро?" answered with itself),
    and a value the user already gave is no evidence of asking for a
    missing parameter ("How many dollars would you like to convert?" when the target currency is missing).
    Only asking is checked here; check_answer adds the no-claim and no-invented-result conditions.
    The keys name parameters of `tools` (the case's offered tools, Case.toolbox); unknown keys contribute
    nothing. Linear; never raises.
    """
    span = _ask_span(text, params, user, tools)
    return None if span is None else _behaviour(text).text[span[0]:span[1]].strip()


_WORD_TOKEN_RE = re.compile(r"[^\W_]+")
# A yes/no question that asks permission ("Shall I look up the weather where you are?", "Хотите, я проверю…")
# or confirms a guessed value ("Do you mean Paris?", "Вы имеете в виду Париж?") does not ask for the value;
# an alternative question naming values ("Do you mean Paris or London?") does.
_OFFER_OR_CONFIRM_RE = re.compile(
    r"[\W\d_]{0,8}(?:(?:ok|okay|sure|alright|of course|хорошо|ладно|конечно)[\W_]{1,3})?(?:shall i|should i|"
    r"do you want me to|would you like me to|want me to|may i|can i|did you mean|do you mean|you mean|"
    r"хотите,? (?:я|чтобы я)|хочешь,? (?:я|чтобы я)|может,? мне|мне (?:посмотреть|проверить|узнать)|"
    r"вы имеете в виду|ты имеешь в виду|имеете в виду)" + _END)
_ALTERNATIVE_RE = re.compile(r"(?<!" + _L + r")(?:or|или|либо)" + _END)


def _offers_or_confirms(low: str, start: int, end: int) -> bool:
    """Whether the sentence low[start:end] is a permission or confirmation question with no alternative."""
    return _OFFER_OR_CONFIRM_RE.match(low, start, end) is not None and not _ALTERNATIVE_RE.search(low, start, end)
# An instruction to use some app or site instead of telling the model ("Use your phone's timer app", "Откройте
# приложение погоды и введите город", "Воспользуйтесь приложением банка"): a verb of using, opening or visiting
# and an app or site in one sentence.
_REDIRECT_VERB_RE = re.compile(r"(?<!" + _L + r")(?:use|using|open|opening|try|download|install|visit|launch|"
                               r"head|go|check|look|воспольз" + _L + r"*|использ" + _L + r"*|откро" + _L + r"*|"
                               r"открой" + _L + r"*|откройте|зайд" + _L + r"*|зайти|перейд" + _L + r"*|установ"
                               + _L + r"*|скача" + _L + r"*|скачай" + _L + r"*|попробу" + _L + r"*|посмотр" + _L
                               + r"*|провер" + _L + r"*|загляни" + _L + r"*)" + _END)
_APP_RE = re.compile(r"(?<!" + _L + r")(?:apps?|application|applications|site|sites|website|websites|service|"
                     r"widget|siri|alexa|google|clock|settings|приложени" + _L + r"*|сайт" + _L + r"*|сервис" + _L
                     + r"*|виджет" + _L + r"*|настройк" + _L + r"*|часы|часах)" + _END)
_MODEL_BEFORE_RE = re.compile(r"(?<!" + _L + r")(?:i|i'll|i'm|we|we'll|я|мы|мне)" + _END + r"[^.!?\n]*$")
# The model asked to be told ("tell me", "напишите мне"): the sentence asks for the value whatever app it names.
_TO_ME_RE = re.compile(r"(?<!" + _L + r")(?:me|мне)" + _END)


def _redirects(low: str, start: int, end: int) -> bool:
    """Whether the sentence low[start:end] sends the user to an app or site instead of asking for the value: a
    verb of using / opening / visiting and an app or site, no question mark and no request to tell the model
    ("Which city? You can also check your weather app." asks in its first sentence)."""
    if (_APP_RE.search(low, start, end) is None or _QUESTION_MARK_RE.search(low, start, end) is not None
            or _TO_ME_RE.search(low, start, end) is not None):
        return False
    # The user is told to use it: the verb is not the model's own ("so I can check the weather site").
    return any(_MODEL_BEFORE_RE.search(low, max(start, m.start() - 24), m.start()) is None
               for m in _REDIRECT_VERB_RE.finditer(low, start, end))


# Words that ask for a value (not yes or no): a question with one of them is open ("Where does your brother
# live — Moscow?").
_OPEN_WORD_RE = re.compile(r"(?<!" + _L + r")(?:what|what's|which|where|where's|when|who|whom|whose|how|how's|"
                           r"как" + _L + r"*|котор" + _L + r"*|где|куда|откуда|когда|кто|кого|кому|сколько|чей|чья|"
                           r"чье|чьи|что|чем|чему|насколько)" + _END)


# The user as the subject of a yes/no question: it asks the user about the user's own intent or whereabouts
# ("Вас интересует погода в Москве?", "Are you in Berlin?"), which the user answers with the value.
_USER_SUBJECT_RE = re.compile(r"(?<!" + _L + r")(?:you|you're|you've|вы|вас|вам|ты|тебя|тебе)" + _END)


def _guesses_value(b: _Behaviour, start: int, end: int, matchers: Sequence[_ParamMatcher]) -> bool:
    """Whether the sentence b.low[start:end] is a yes/no question that guesses one value: it names a value of the
    parameter but no term of it, no word that asks for a value, no alternative, no request and does not ask the
    user about the user ("Ваш брат живёт в Москве?", "Is it Paris?", "Москва?"). It confirms a guess about the
    world; it does not ask for the value. (A guess the user is asked to confirm as their meaning is one of the
    confirmation phrases: "Do you mean Paris?", "Вы имеете в виду…?")"""
    low = b.low
    if (_QUESTION_MARK_RE.search(low, start, end) is None or _OPEN_WORD_RE.search(low, start, end)
            or _ALTERNATIVE_RE.search(low, start, end) or _REQUEST_RE.search(low, start, end)
            or _USER_SUBJECT_RE.search(low, start, end)):
        return False
    return not any(m.says(b, start, end) for m in matchers)


# A long answer is read a stretch of _ASK_CHUNK characters at a time (_ask_span). A match of a term, value or symbol
# is far shorter than _ASK_REACH characters (only a word of about that many letters in it would make one as long),
# so one that starts in a stretch is found whole by a scan that goes on _ASK_REACH characters past the stretch.
_ASK_CHUNK = 4096
_ASK_REACH = 256
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


def _ask_span(text: Any, params: Any, user: Any, tools: Toolbox) -> tuple[int, int] | None:
    """(start, end) in the behaviour text of the first sentence that asks about one of `params` (of `tools`),
    or None."""
    if not isinstance(text, str):
        return None
    keys = (params,) if isinstance(params, str) else params
    try:
        matchers = [m for m in (_matcher(k, tools) for k in keys if isinstance(k, str)) if m is not None]
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
    given_params = [[o for g in _siblings(m.key, tools) if g not in asked if (o := _own(g, tools)) is not None]
                    for m in matchers]
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
            if (_offers_or_confirms(low, start, end) or _guesses_value(b, start, end, matchers)
                    or _redirects(low, start, end)):
                continue
            if echoes and _echo_key(_WORD_TOKEN_RE.findall(low, start, end)) in echoes:
                continue            # a sentence of the user's message said back
            if any(m.about(b, start, end, g, gp) for m, g, gp in zip(matchers, given, given_params)):
                return start, end
    return None
