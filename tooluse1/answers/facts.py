"""Rule 3 of the text-answer checks (tooluse1.answers): the facts, and the wrong values the answer
ASSERTS (`asserts_phrase`) or only hedges (`hedges`). The contains_all / contains_any items and the
decline (`states_decline`) are checked in tooluse1.answers.requirement with rule 2's `phrase_occurs`.

3. contains_all: every item occurs (an item is a tuple of alternatives; any one suffices).
   contains_any: when given, at least one occurs. With `decline_answers`, a stated decline (rule 5's
   statement of inability or refusal, or "I'd rather not", "I'll only quote it", "не стану": `states_decline`)
   answers instead of those facts (a "repeat after me" of call syntax).
   excludes: plausible wrong answers, none of which the answer may ASSERT (`asserts_phrase`): a mention
   that marks it as not the answer is no assertion ("Canberra, not Sydney", "не путать с Алексеем
   Толстым", "Many think it's Sydney", "While Sydney is the largest city, …", "followed by Saturn"). A
   right number offered only as one of several alternatives of the same magnitude is a hedge and fails
   (`hedges`: "1944 or 1945", "1939, 1941, 1944 or 1945"; a range "1939 to 1945" is one answer).
"""
from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence

from tooluse1.answers.base import _END, _L, _WORDISH
from tooluse1.answers.behaviour import _Context, _context, _iter_candidates
from tooluse1.answers.phrases import _compile_phrase, _number_text
from tooluse1.answers.scope import TermScope
from tooluse1.lang import verb_forms


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
# - said of another event: its clause does not name what the question asks about (the case's `about:` terms)
#   while another clause of the sentence names it with a right value ("World War II ended in 1945, a year after
#   the Normandy landings of June 1944");
# A right number given as one of several alternatives is a hedge, not an assertion (`_hedged`): "1939, 1941,
# 1944 or 1945", "1944 or 1945", "либо 1944, либо 1945"; alternatives of another magnitude are other facts
# ("1945, or 80 years ago"), and a range is one answer ("from 1939 to 1945").
_DENIAL_WORDS = ("not", "never", "nor", "neither", "rather than", "instead of", "unlike", "contrary to",
                 "as opposed to", "не", "ни", "нет", "вместо", "в отличие от", "а не", "никак не", "вовсе не")
# "Don't mix it up with…", "easily mixed up": every form of the phrasal verb (tooluse1.lang: lemminflect).
_MIX_UP = tuple(f"{form} {obj}up" for form in sorted({"mix", *(f for fs in verb_forms("mix").values() for f in fs)})
                for obj in ("", "it ", "them ", "him ", "her ", "this ", "that ")) + ("mix-up", "mixup")
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


_NEGATION_BEFORE_RE = _any_word_re(_DENIAL_WORDS + _MIX_UP, _MISTAKE_STEMS)
_NT_RE = re.compile(r"n['’]t" + _END)
_OTHERS_BEFORE_RE = _any_word_re(_OTHERS_WORDS + _MIX_UP, _MISTAKE_STEMS)
_MISTAKE_AFTER_RE = _any_word_re(("often", "commonly", "часто", "нередко") + _MIX_UP, _MISTAKE_STEMS + _RIVAL_STEMS)
# The subject's predicate denied after a contrast: "Michelangelo and Raphael were his contemporaries, but neither
# had a hand in it", "Рафаэль жил тогда же, но никто из них не…".
# (A negative quantifier over the subjects, so that it denies them the question's predicate; "…, but he never
# signed it" denies something else.)
_DENIED_LATER_RE = re.compile(r"(?<![^\W\d_])(?:but|yet|though|however|но|однако|хотя)[^\w\n]+(?:neither|none|nor|"
                              r"no one|nobody|ни один|никто|ни тот|ни та)" + _END)
# Another rank named before a dash or colon: "Вторым — Герман Титов", "Second: Gherman Titov".
_RANK_LEAD_RE = re.compile(r"(?<![^\W\d_])(?:second|third|next|runner[- ]up|втор" + _L + r"*|трет" + _L
                           + r"*|следующ" + _L + r"*)[^\w\n]{0,3}[—–:-][^\w\n]*$")
# The value equated with another number than the question's: "(LVIII would be 58.)", "58 is LVIII", "LVIII = 58".
_EQUATED_AFTER_RE = re.compile(r"[^\w\n]{0,3}(?:would be|is|was|equals|means|stands for|=|—|-|это|будет|равно|"
                               r"означает)[^\w\n]{1,3}(-?[0-9]+(?:\.[0-9]+)?) ?(?![0-9])")
_EQUATED_BEFORE_RE = re.compile(r"(?<![0-9.])(-?[0-9]+(?:\.[0-9]+)?) ?[^\w\n]{0,3}(?:would be|is|was|equals|=|—|-|"
                                r"это|будет|равно)[^\w\n]{1,3}$")
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


_COMMA_CLAUSE_BEFORE_RE = re.compile(r".*[,;()]", re.DOTALL)
_COMMA_CLAUSE_END_RE = re.compile(r"[,;()]")


def _said_of_another(canon: str, start: int, end: int, c: _Context, right: Sequence[str],
                     about: TermScope | None) -> bool:
    """Whether the value at canon[start:end] is said of something other than what was asked: its clause does
    not name the question's subject (`about`), while another clause of its sentence names it and gives a
    right value ("World War II ended in 1945, a year after the Normandy landings of June 1944")."""
    if about is None:
        return False
    # The clause here ends at a comma, semicolon or bracket only: a dash or colon joins a subject to its
    # predicate ("Столица Австралии — Сидней").
    cut = _COMMA_CLAUSE_BEFORE_RE.match(c.before)
    head = c.before[:cut.end()] if cut else ""
    tail_at = _COMMA_CLAUSE_END_RE.search(c.after)
    tail = c.after[tail_at.start():] if tail_at else ""
    if about.named_in(canon, start - len(c.before) + len(head), end + len(c.after) - len(tail)):
        return False
    rest = head + " , " + tail
    return about.named_in(rest) and any(True for phrase in right for _ in _phrase_spans(phrase, rest))


# Words that name nothing: a sentence made of these, the value and the question's own terms says the value of
# no other subject ("Or maybe LVIII.", "It was 1946." assert it).
_NAMELESS = frozenset((
    "a", "an", "the", "it", "its", "it's", "this", "that", "these", "those", "is", "was", "are", "were", "be", "been",
    "would", "will", "could", "might", "may", "or", "and", "but", "so", "maybe", "perhaps", "possibly", "probably",
    "actually", "really", "also", "just", "only", "rather", "answer", "correct", "right", "wrong", "correction",
    "sorry", "wait", "no", "yes", "yeah", "i", "i'm", "i'd", "think", "believe", "guess", "say", "said", "mean",
    "meant", "exactly", "definitely", "certainly", "about", "around", "roughly", "approximately", "in", "on", "at",
    "of", "by", "to", "year", "years", "then", "well", "hmm", "ok", "okay", "sure", "either", "there", "here",
    "это", "был", "была", "было", "были", "будет", "или", "и", "но", "а", "так", "вот", "ну", "возможно", "может",
    "быть", "наверное", "вероятно", "скорее", "всего", "точнее", "вернее", "ответ", "правильно", "верно", "нет",
    "да", "я", "думаю", "считаю", "году", "год", "года", "в", "на", "к", "около", "примерно", "тогда", "же",
    "он", "она", "оно", "они", "его", "ее", "их", "то", "ли", "хотя", "although", "though", "however", "однако",
    "нет", "не", "not", "no", "still", "again", "instead", "вместо", "снова", "опять", "всё", "все", "таки"))
_CANON_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_SENTENCE_END_RE = re.compile(r"[.!?…\n]")


def _said_of_another_sentence(canon: str, start: int, end: int, c: _Context, right: Sequence[str],
                              about: TermScope | None) -> bool:
    """Whether the value at canon[start:end] stands in a sentence of its own about another subject: the sentence
    names nothing the question asks about (`about`), names something else (a word that is not the value, a
    question term or a function word: "The Nuremberg trials that followed ran until October 1946", "(LVIII would
    be 58.)", "Вторым — Герман Титов"), and another sentence of the answer names the question's subject with a
    right value ("The war lasted from 1939 to 1945."). An anaphor or a bare value ("It was 1946.", "Or maybe
    LVIII.") names nothing else: it still asserts."""
    if about is None or not right:
        return False
    s_start, s_end = start - len(c.before), end + len(c.after)
    if about.named_in(canon, s_start, s_end):
        return False
    own = {w for phrase in right for w in _CANON_WORD_RE.findall(_number_text(phrase))}
    others = [w for w in _CANON_WORD_RE.findall(canon, s_start, start) + _CANON_WORD_RE.findall(canon, end, s_end)
              if w not in _NAMELESS and w not in own and not (w.isdigit() and len(w) < 2)]
    if not others:
        return False
    return any(not s_start <= s < s_end for s in _right_values_about(canon, tuple(right), about))


@functools.lru_cache(maxsize=8)
def _right_values_about(canon: str, right: tuple[str, ...], about: TermScope) -> tuple[int, ...]:
    """Where a right value occurs in a sentence naming the question's subject (each occurrence's sentence looked
    for within _SENTENCE_WINDOW characters; the first _MAX_RIGHT_SPANS occurrences of each value). Computed once
    per answer: every wrong value of it is compared with the same list."""
    out: list[int] = []
    for phrase in right:
        for s, e in itertools.islice(_phrase_spans(phrase, canon), _MAX_RIGHT_SPANS):
            lo = max(0, s - _SENTENCE_WINDOW)
            ends = [m.start() for m in _SENTENCE_END_RE.finditer(canon, lo, s)]
            hi_m = _SENTENCE_END_RE.search(canon, e, e + _SENTENCE_WINDOW)
            if about.named_in(canon, ends[-1] + 1 if ends else lo, hi_m.end() if hi_m else e + _SENTENCE_WINDOW):
                out.append(s)
    return tuple(out)


_SENTENCE_WINDOW = 400
_MAX_RIGHT_SPANS = 20


def _is_mention(canon: str, start: int, end: int, right: Sequence[str],
                scales: re.Pattern | None = None, names: tuple[re.Pattern | None, re.Pattern | None] = (None, None),
                about: TermScope | None = None, numbers: frozenset[str] | None = None) -> bool:
    """Whether the value at canon[start:end] is mentioned as what the answer is not (see the rules above).
    `names`: the question's numbered names and their siblings (_question_names); `about`: the question's
    subject (a value said of another event is a mention); `numbers`: the question's numbers (a value equated
    with another number is said of that one), None when it has none."""
    c = _context(canon, start, end)
    if _RANK_LEAD_RE.search(c.before) or _equated_with_another(c, numbers):
        return True
    denied = _DENIED_LATER_RE.search(c.after) if _SUBJECT_LEAD_RE.match(c.clause_before) else None
    if denied and not (about is not None and about.named_in(c.after[:denied.start()])):
        return True
    if _said_of_another(canon, start, end, c, right, about) or _said_of_another_sentence(canon, start, end, c, right,
                                                                                         about):
        return True
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


def asserts_phrase(phrase: str, text: str, right: Sequence[str] = (), question: str = "",
                   about: TermScope | None = None) -> bool:
    """Whether `text` asserts `phrase` (a wrong value): it occurs by the token rule at least once outside a
    mention that marks it as not the answer. `right` are the right values (for "X …, but … RIGHT");
    `question` is the user's message (a superlative it does not ask about is another scale); `about` the
    terms of the question's subject (a value said of another event in a longer answer is no assertion).
    Never raises; linear in len(text)."""
    if not isinstance(phrase, str) or not isinstance(text, str):
        return False
    canon = _number_text(text)
    question = question if isinstance(question, str) else ""
    scales = _other_scales(question)
    names = _question_names(question)
    numbers = _question_numbers(question)
    return any(not _is_mention(canon, s, e, right, scales, names, about, numbers)
               for s, e in _phrase_spans(phrase, canon))


_CANON_NUMBER_RE = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


@functools.lru_cache(maxsize=64)
def _question_numbers(question: str) -> frozenset[str] | None:
    """The numbers of the user's question by value ("57"), or None when it has none."""
    found = frozenset(_CANON_NUMBER_RE.findall(_number_text(question))) if question else frozenset()
    return found or None


def _equated_with_another(c: _Context, numbers: frozenset[str] | None) -> bool:
    """Whether the value is equated with a number the question does not hold ("(LVIII would be 58.)" when the
    question asks for 57): it is the answer to another question."""
    if numbers is None:
        return False
    m = _EQUATED_AFTER_RE.match(c.clause_after) or _EQUATED_BEFORE_RE.search(c.clause_before)
    return m is not None and m.group(1) not in numbers


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
    words = tuple(w for scale in _SUPERLATIVE_SCALES if not any(w in low for w in scale) for w in scale)
    return _scales_re(words) if words else None


@functools.lru_cache(maxsize=8)
def _scales_re(words: tuple[str, ...]) -> re.Pattern:
    """_any_word_re of the stems, built once per set of scales (3 sets): built per asserts_phrase call, it cost
    the escaping and joining of every stem and a look-up in the re module's cache (512 patterns, which the
    per-case patterns of the answers also fill), or a compile when it had fallen out of that cache."""
    return _any_word_re((), words)


_OR_WORDS = r"(?:or|или|либо|either|maybe|perhaps|possibly|возможно)"
_NUM_ITEM = r"-?[0-9]+(?:\.[0-9]+)?"
_NUM_ITEM_RE = re.compile(_NUM_ITEM)      # compiled once (re.search(_NUM_ITEM, …) may miss the re module's cache)
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
    number = _NUM_ITEM_RE.search(_number_text(phrase))
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
                for o in map(float, _NUM_ITEM_RE.findall(m.group(0)))):
            return False
        covered = m.end()
    return found
