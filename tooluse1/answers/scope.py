"""What a clause is about (tooluse1.answers rules 3, 5 and 7): the case's requested action or question.

A capability trap names its requested action (`action:`) and a knowledge case the subject of its question
(`about:`): terms per language in a parameter's `ask` syntax (`*` = a stem, `A ... B` = A then B later; here
each part of a gap term counts on its own). A refusal must decline that action, a claim must be one of doing
it, and an asserted value must be said of that subject: "The pizzeria can't take card payments" declines
nothing that was asked, and "the Normandy landings of June 1944" is not when the war ended.

`TermScope` is built once per term set (memoised) and matches over the behaviour text's lower-cased form.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from tooluse1.answers.base import _combine, _first, _fold, _L
from tooluse1.answers.phrases import _GAP_RE

# The words a clause may hold beside a negated capability and still decline "that", whatever was asked: an
# unspecified object ("I can't do that", "Я не могу этого сделать"), the model's means (tools, access,
# systems, services: what the action needs) and the words around them. A clause whose words after the
# capability are all of these, or that names the requested action, declines the request; one that names
# anything else ("I can't see your address", "I don't have personal preferences") is about something else.
_GENERIC = frozenset((
    # function words, pronouns, adverbs
    "a", "an", "the", "to", "for", "of", "on", "in", "at", "by", "with", "from", "into", "via", "through", "as",
    "and", "or", "any", "such", "that", "this", "it", "these", "those", "them", "you", "your", "yours", "me", "my",
    "us", "our", "myself", "directly", "personally", "actually", "really", "currently", "right", "now", "here",
    "there", "at", "all", "anything", "something", "things", "thing", "kind", "kinds", "sort", "type", "types",
    "behalf", "yourself", "one", "say", "tell", "answer", "provide", "give", "share", "confirm", "look", "up",
    "check", "side", "end", "part", "setup", "set-up", "configuration", "environment", "version", "mode", "have",
    "has", "had", "i've", "been", "be", "is", "are", "work", "working", "given", "today", "moment", "unfortunately",
    "sorry", "just", "simply", "also", "either",
    "other", "some", "certain", "like", "which", "what", "so", "please", "very", "much", "more", "specific",
    # generic actions and what they act on
    "do", "help", "assist", "perform", "performing", "handle", "handling", "carry", "out", "complete", "fulfil",
    "fulfill", "execute", "process", "make", "take", "care", "get", "use", "using", "interact", "interacting",
    "connect", "connected", "reach", "contact", "browse", "browsing", "access", "accessing", "control",
    "request", "requests", "task", "tasks", "action", "actions", "job", "errands", "transactions", "purchases",
    "payments", "orders", "bookings", "operations",
    # the model's means
    "tool", "tools", "function", "functions", "functionality", "feature", "features", "capability",
    "capabilities", "ability", "abilities", "permission", "permissions", "way", "means", "option", "options",
    "plugin", "plugins", "integration", "integrations", "skill", "skills", "scope", "power", "internet", "web",
    "online", "connection", "data", "information", "info", "real", "time", "real-time", "realtime", "live",
    "current", "up-to-date", "external", "third-party", "systems", "system", "services", "service", "apps",
    "app", "applications", "devices", "world", "physical", "real-world", "accounts", "account", "api", "apis",
    "platforms", "platform", "websites", "sites", "available", "here", "chat", "text", "text-based",
    "model", "language", "ai", "assistant", "chatbot", "bot", "program", "able", "allowed", "can", "could",
    # Russian
    "это", "этого", "этим", "этом", "эту", "такое", "такого", "такие", "таких", "так", "вам", "вас", "тебе",
    "за", "для", "с", "со", "в", "во", "на", "к", "по", "и", "или", "а", "но", "же", "сейчас", "сам", "сама",
    "самостоятельно", "напрямую", "лично", "помочь", "сделать", "выполнить", "выполнять", "делать", "этим",
    "сожалению", "увы", "никак", "ничего", "чего", "что", "нибудь", "действия", "действий", "задачи", "задач",
    "запросы", "запрос", "просьбу", "подобное", "подобного", "меня", "мне", "у", "я", "мы", "нас", "нам",
    "доступа", "доступ", "доступом", "инструмента", "инструментов", "инструмент", "функции", "функция",
    "возможности", "возможность", "интернету", "интернет", "сервисам", "сервисов", "системам", "систем",
    "реальном", "реальным", "времени", "внешним", "внешних", "приложениям", "устройствам", "данным", "данных",
    "здесь", "тут", "именно", "пока", "уже", "ещё", "еще", "тоже", "также", "всё", "все", "вообще", "просто",
    "онлайн", "операции", "операций", "платежи", "покупки", "заказы",
))
_WORD_RE = re.compile(_L + r"+(?:['’-]" + _L + r"+)*")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")


class TermScope:
    """The terms of one requested action or question subject, as one regex over lower-cased text."""

    def __init__(self, terms: tuple[str, ...]):
        parts = sorted({p.strip() for t in terms for p in _GAP_RE.split(_fold(t).strip()) if p.strip()})
        # The first three letters of each term's words: a cheap test of whether a word may be a form of one
        # (закажу for заказ*) before the analyser reads it.
        self.prefixes = frozenset(w[:3] for p in parts for w in p.replace("*", "").split() if len(w) >= 3)
        # What every match of a term starts with: its first word as written, a stem without its "*" (`literal_starts`).
        self.literals = tuple(sorted({p.split()[0].rstrip("*") for p in parts} - {""}))
        self._literal_words = _combine([("l", [w + "*" for w in self.literals], "")]) if self.literals else None
        # Terms with a stem only at their end: one literal-first scan; a stem inside ("умн* дом*"): a regex each.
        simple = [p for p in parts if "*" not in p.rstrip("*")]
        joined = [p.replace(" ", "-") for p in simple if " " in p]       # "smart home" is also "smart-home"
        self.simple = _combine([("t", simple + joined, "")]) if simple else None
        self.complex = tuple(re.compile(r"(?<!" + _L + r")" + _term_regex(p)) for p in parts if p not in simple)
        # The Cyrillic terms alone (the Russian readings of rule 7 look only for these).
        ru_simple = [p for p in simple if _CYRILLIC_RE.match(p)]
        self.ru = ((_combine([("t", ru_simple, "")]),) if ru_simple else ()) + tuple(
            re.compile(r"(?<!" + _L + r")" + _term_regex(p)) for p in parts if p not in simple
            and _CYRILLIC_RE.match(p))

    def named_in(self, low: str, start: int = 0, end: int | None = None) -> bool:
        """Whether low[start:end] names the action or subject (one of the terms, whole words or stems)."""
        stop = len(low) if end is None else end
        if self.simple is not None and self.simple.search(low, start, stop) is not None:
            return True
        return any(rx.search(low, start, stop) is not None for rx in self.complex)

    def literal_starts(self, low: str) -> list[int]:
        """Every position of `low` where a word starts with one of the terms' first words (`literals`; no letter
        before it), in order: a stretch of text in which none starts names none of the terms (every match of a
        term starts so). Found through the text's word index (a search of each literal took ~90 us for 16 KB)."""
        if self._literal_words is None:
            return []
        return [m.start() for m in self._literal_words.finditer(low)]

    def ru_spans(self, low: str, limit: int) -> list[tuple[int, int]]:
        """(start, end) of the first `limit` occurrences of the Cyrillic terms in `low`, in text order (each
        term part looked for up to `limit` times)."""
        found: list[tuple[int, int]] = []
        for rx in self.ru:
            for i, m in enumerate(rx.finditer(low)):
                if i >= limit:
                    break
                found.append(m.span())
        return sorted(found)[:limit]


def _term_regex(term: str) -> str:
    def word(w: str) -> str:
        return re.escape(w.rstrip("*")) + (_L + "*" if w.endswith("*") else r"(?!" + _L + ")")
    words = term.split()
    return _first(words[0][0]) + word(words[0][1:] or "") + "".join(
        r"[^\w.!?\n]{1,3}" + word(w) for w in words[1:])


@functools.lru_cache(maxsize=256)
def _scope(terms: tuple[str, ...]) -> TermScope | None:
    return TermScope(terms) if terms else None


def term_scope(terms: Mapping[str, tuple[str, ...]]) -> TermScope | None:
    """The scope of a case's `action:` or `about:` terms, every language together (an answer may switch
    languages); None when there are none (then every action or subject counts: the 3.x reading)."""
    return _scope(tuple(sorted({t for lang_terms in terms.values() for t in lang_terms})))


def only_generic(low: str, start: int, end: int) -> bool:
    """Whether low[start:end] names nothing but an unspecified object, the model's means or function words
    (`_GENERIC`): "that for you", "access to external systems", "этого сделать"."""
    return all(w in _GENERIC for w in _WORD_RE.findall(low, start, end))
