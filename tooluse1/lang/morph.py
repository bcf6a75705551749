"""Russian morphology (pymorphy3 + pymorphy3-dicts-ru, pinned): analyses of a word for the text rules, and
inflection of a word or a short phrase for generated text.

pymorphy3 answers in lower case and, for nouns that are both animate and inanimate, needs the animacy for an
accusative: `ru_inflect` restores the capitalisation of the input and lets the caller name the grammemes."""
from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

__all__ = ["morph", "ru_agree", "ru_forms", "ru_inflect", "ru_inflect_lemma", "ru_is", "ru_parses", "ru_stem"]


@cache
def morph() -> Any:
    """The process's one MorphAnalyzer (loading the dictionaries takes ~0.1 s; done on first use)."""
    import pymorphy3
    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=65536)
def ru_parses(word: str) -> tuple[Any, ...]:
    """Every analysis pymorphy3 gives of `word` (lower-cased first), most probable first; memoised."""
    return tuple(morph().parse(word.lower()))


def _with_case_of(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def ru_inflect(word: str, grammemes: set[str] | frozenset[str], pos: str | None = None) -> str:
    """`word` in the form with `grammemes` (pymorphy3's tags: {"loct"}, {"gent", "plur"}, ...), capitalised as
    given. The first analysis of part of speech `pos` (any when None) that can take the form is used; a word
    no analysis can inflect is returned unchanged (a foreign name, an abbreviation). A hyphenated name
    inflects its head: the first part when the dictionary knows it (Ростов-на-Дону -> Ростове-на-Дону), else
    the last (Санкт-Петербург -> Санкт-Петербурге); callers table the names this gets wrong."""
    if "-" in word:
        parts = word.split("-")
        head = 0 if ru_parses(parts[0])[0].is_known else len(parts) - 1
        parts[head] = ru_inflect(parts[head], grammemes, pos)
        return "-".join(parts)
    for parse in ru_parses(word):
        if pos is not None and parse.tag.POS != pos:
            continue
        form = parse.inflect(set(grammemes))
        if form is not None:
            return _with_case_of(word, form.word)
    return word


def ru_agree(n: int, noun: str) -> str:
    """`noun` in the form that agrees with the number `n` (минута: 1 минута, 2 минуты, 5 минут, 21 минута),
    capitalised as given."""
    for parse in ru_parses(noun):
        if parse.tag.POS == "NOUN":
            form = parse.make_agree_with_number(abs(n))
            if form is not None:
                return _with_case_of(noun, form.word)
    return noun


def ru_inflect_lemma(lemma: str, grammemes: set[str] | frozenset[str], animacy: str | None = None) -> str:
    """`lemma` (a dictionary form: a noun's or an adjective's nominative singular) in the form with
    `grammemes`, capitalised as given. Unlike `ru_inflect` it reads the word only as that lemma (лира is the
    noun лира, not a form of лир) and, with `animacy` ("inan" or "anim"), prefers the analyses of that
    animacy (франк the currency, not Франк the name: франки, not франков, in the accusative). A word no such
    analysis can inflect goes to `ru_inflect`."""
    if "-" in lemma:
        return ru_inflect(lemma, grammemes)
    word = lemma.lower()
    parses = [p for p in ru_parses(word) if p.normal_form == word or (p.word == word and "nomn" in p.tag)]
    if animacy is not None:
        parses.sort(key=lambda p: p.tag.animacy not in (animacy, None))
    for parse in parses:
        # An adjective takes its accusative by the animacy of its noun (турецкие лиры, not турецких).
        tags = set(grammemes) | ({animacy} if animacy and "accs" in grammemes and parse.tag.POS == "ADJF" else set())
        if (animacy == "inan" and "accs" in tags and parse.tag.POS == "NOUN" and parse.tag.animacy != "inan"
                and ("plur" in tags or parse.tag.gender != "femn")):
            # A noun the dictionary knows only as animate (дирхам) used as a thing: its accusative is its
            # nominative, except a feminine singular (Прагу).
            tags = tags - {"accs"} | {"nomn"}
        form = parse.inflect(tags)
        if form is not None:
            return _with_case_of(lemma, form.word)
    return ru_inflect(lemma, grammemes)


def ru_stem(word: str) -> str:
    """The beginning every form of `word`'s most probable lexeme shares (Эквадора -> Эквадор, Канады -> Канад,
    заметку -> замет: заметок), capitalised as given; the word itself when the dictionary does not know it."""
    parse = ru_parses(word)[0]
    if not parse.is_known:
        return word
    forms = [f.word for f in parse.lexeme]
    stem = forms[0]
    for form in forms[1:]:
        while not form.startswith(stem):
            stem = stem[:-1]
    return _with_case_of(word, stem)


@lru_cache(maxsize=1024)
def ru_forms(lemma: str, grammemes: frozenset[str], pos: str = "VERB") -> tuple[str, ...]:
    """Every form of the lexeme of `lemma` (a dictionary form: an infinitive for a verb) whose tag holds all of
    `grammemes`, lower case with ё written е (the grader's folded text), sorted; () when the dictionary does not
    know `lemma` as a `pos`. Short participles are part of a verb's lexeme: ru_forms("поставить", {"PRTS"})
    -> поставлен, поставлена, ... (pos "VERB" takes them in)."""
    word = lemma.lower()
    for parse in ru_parses(word):
        if parse.normal_form != word or (parse.tag.POS != pos and not (pos == "VERB" and parse.tag.POS == "INFN")):
            continue
        return tuple(sorted({f.word.replace("ё", "е") for f in parse.lexeme if set(grammemes) <= f.tag.grammemes}))
    return ()


@lru_cache(maxsize=65536)
def ru_is(word: str, grammemes: frozenset[str]) -> bool:
    """Whether some analysis of `word` carries all of `grammemes` (VERB/PRTS, perf, past, 1per, futr, ...) with
    a probability of at least a tenth of the best one's: the person, tense, aspect and mood of a word read by
    the analyser, memoised (the grader asks only about words beside a negation or a first-person subject)."""
    parses = ru_parses(word)
    if not parses:
        return False
    best = parses[0].score
    return any(set(grammemes) <= p.tag.grammemes for p in parses if p.score >= best / 10)
