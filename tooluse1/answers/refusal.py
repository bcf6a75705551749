"""Rule 5 of the text-answer checks (tooluse1.answers): a statement of inability or refusal.

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
   проблем") are skipped. Also said of the model: "this assistant / bot" (этот бот, ассистент) before the
   negation, and an impersonal "доступа … нет"; permission is a capability ("Мне не разрешено").
   - D (4.0.0), about what was asked, when the case names its requested action (`action:` terms,
     tooluse1.answers.scope): the clause names no other subject before the negation ("The pizzeria can't…",
     "McDonald's doesn't…") and names the action, or nothing but an unspecified "that" and the model's means
     ("I can't do that", "no access to external systems"), or limits the model to something else ("I can
     only…"); an inability about a detail or prerequisite ("I can't see your address", "I can't pick the
     toppings", "I don't have personal preferences") declines nothing. A counterfactual followed by the
     negated reality declines ("If I had access…, but I don't", "Будь у меня доступ…, я бы заказал, но его
     нет").
"""
from __future__ import annotations

import re

from tooluse1.answers.base import _combine, _L
from tooluse1.answers.behaviour import _behaviour, _iter_candidates, _sentence_bounds
from tooluse1.answers.scope import only_generic, TermScope
from tooluse1.lang import ru_is

_RU_FIRST_PERSON = frozenset(("VERB", "1per", "indc"))
# Every Russian first-person verb ends so (-у/-ю; -ем/-им/-ём; reflexive -сь/-ся): other words skip the analyser.
_RU_FIRST_PERSON_ENDS = ("у", "ю", "м", "сь", "ся")


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
                 "предусмотрено", "предусмотрена", "располагаю", "обладаю", "входит", "имею", "разрешено",
                 "разрешается", "позволено", "положено", "дозволено"))
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
                  "предусмотрено", "предусмотрена", "поддерживается", "разрешено", "разрешается", "позволено"))
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
# Perception is a capability when its object is data ("Я не вижу погоду в реальном времени"); with these
# objects it is an opinion ("не вижу смысла", "I don't see why"). The clause must still name the requested
# action (D), so "I don't see your address" declines nothing.
_PERCEIVE = _W(("see", "вижу", "видим"))
_OPINION_OBJECT = _W(("смысла", "смысл", "причин", "причины", "проблемы", "проблем", "необходимости", "нужды",
                      "повода", "why", "how", "any", "a", "the", "reason", "point", "problem", "need", "it", "that",
                      "what", "that's", "anything", "much", "no", "ничего", "разницы", "препятствий"))
_GAP = 6    # words between a negation and the capability it bears on ("not among the things I can do")

_NEG_WORDS = _FUSED | _VERBAL_NEG | _NOMINAL_NEG | _LIMIT | _ONLY | _LIMITED
_NEG_CANDIDATE_RE = _combine([("n", sorted(set(_NEG_WORDS) | {"недоступ*", "неспособ*", "ограничен*"}), "")])
_CLAUSE_TOKEN_RE = re.compile(r"[,;:()—–]|(?<!\S)-{1,2}(?!\S)|" + _L + r"+(?:'" + _L + r"+)?")


def _cap_noun(w: str) -> bool:
    return w in _CAP_NOUN_EN or w.startswith(_CAP_NOUN_RU)


def _capability(w: str) -> bool:
    return w in _CAP_MODAL or _cap_noun(w)


# Negations examined in one sentence: a real sentence has a few; each is read within its clause, so this keeps
# a sentence of nothing but negations ("not can't no not …") linear.
_NEGATIONS_PER_SENTENCE = 8


def _clauses(words: list[str]) -> list[tuple[int, int]]:
    """For each word index, (first, last + 1) word indices of its clause (punctuation tokens end clauses);
    one pass over the sentence."""
    out: list[tuple[int, int]] = []
    lo = 0
    for i, w in enumerate(words + [","]):
        if not _is_word(w):
            out.extend([(lo, i)] * (i - lo))
            if i < len(words):
                out.append((i + 1, i + 1))
            lo = i + 1
    return out


def _is_word(tok: str) -> bool:
    return tok[0] not in ",;:()—–-"


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
    RU "не" + a verb in the first person (pymorphy3: "не отправляю", "не бронируем"); verbs of opinion excluded."""
    verb = words[i + 1]
    if verb in _PERCEIVE and (i + 2 >= len(words) or words[i + 2] not in _OPINION_OBJECT):
        pass                 # "Я не вижу погоду", "I don't see the forecast": perceiving data is the capability
    elif verb in _NOT_ACTION:
        return False
    if words[i] == "не":     # a first-person verb by the analyser (not "не сразу"), its subject said
        return (len(verb) > 2 and verb.isalpha() and verb.endswith(_RU_FIRST_PERSON_ENDS)
                and any(w in ("я", "мы") for w in words[lo:i]) and ru_is(verb, _RU_FIRST_PERSON))
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
    if any(words[k].startswith(_IDENTITY) for k in range(lo, i)):  # "This assistant cannot…", "Этот бот не умеет…"
        return True
    if words[i] == "нет" and j < i and _cap_noun(words[j]):       # "Доступа к погоде нет": impersonal
        return True
    if words[j] in _SELF_VERB or words[i] in _SELF_VERB or (words[i] == "не" and j == i + 1 and _declined_action(
            words, i, lo)):
        return True
    if any(words[k].startswith(_TOOL_NOUN) for k in range(lo, min(len(words), max(i, j) + 1))):
        return True                                              # "None of the available tools can…"
    if all(words[k] in _BARE_LEADS for k in range(lo, i)):        # "Sorry, can't do that"
        return True
    return any(w in _SELF for w in words)                         # "That's beyond what I can do"


# Before the negation in its clause, words that leave the model the subject: leads, adverbs, the model's
# own words and the unspecified "that" ("Unfortunately, that's not something I can do").
_SUBJECT_NEUTRAL = _W(("there", "there's", "here's", "here", "is", "that", "that's", "this", "it", "it's", "which",
                       "also", "still", "really", "currently", "just", "simply", "actually", "honestly", "however",
                       "though",
                       "personally", "myself", "right", "now", "at", "the", "moment", "a", "an", "as", "yet",
                       "это", "этого", "такое", "такого", "так", "сейчас", "пока", "сам", "сама", "лично", "здесь",
                       "тут", "уже", "ещё", "еще", "же", "вот", "у", "к", "сожалению"))


def _other_subject(words: list[str], i: int, lo: int, sentence: str, toks: list[re.Match],
                   scope: TermScope) -> bool:
    """Whether the clause before the negation words[i] names a subject other than the model and the requested
    action: "The pizzeria can't take card payments", "McDonald's doesn't offer…" decline nothing asked."""
    if any(words[k] in _SELF or words[k].startswith(_IDENTITY) or words[k].startswith(_TOOL_NOUN)
           for k in range(lo, i)):
        return False
    content = [k for k in range(lo, i) if words[k] not in _SUBJECT_NEUTRAL and words[k] not in _BARE_LEADS]
    return bool(content) and not scope.named_in(sentence, toks[content[0]].start(), toks[i].start())


def _declines_the_request(words: list[str], i: int, j: int, lo: int, hi: int, sentence: str,
                          toks: list[re.Match], scope: TermScope | None) -> bool:
    """Whether the model's inability at words[i] (capability words[j]) is about the requested action: its
    clause names the action (`scope`) or names nothing but "that" and the model's means ("I can't do that",
    "I don't have access to external systems"); not an inability about a detail or prerequisite ("I can't see
    your address", "I can't pick the toppings") or of another subject. Without a scope every one counts."""
    if scope is None:
        return True
    if _other_subject(words, i, lo, sentence, toks, scope):
        return False
    if words[i] in _ONLY or words[i] in _LIMIT or words[i].startswith("ограничен") or words[i] in _LIMITED:
        return True          # "I can only…", "beyond what I can do": a limit to something else declines the rest
    start, end = toks[lo].start(), toks[hi - 1].end()
    if scope.named_in(sentence, start, end):
        return True
    after = max(i, j) + 1
    return after >= hi or only_generic(sentence, toks[after].start(), end)


def _inability_in_sentence(sentence: str, scope: TermScope | None = None) -> tuple[int, int] | None:
    """(start, end) in `sentence` of its first statement of inability (declining the action of `scope`, when
    given), or None."""
    toks = list(_CLAUSE_TOKEN_RE.finditer(sentence))
    words = [t.group(0) for t in toks]
    clauses: list[tuple[int, int]] = []
    tried = 0
    for i, w in enumerate(words):
        if not (w in _NEG_WORDS or w.startswith(("недоступ", "неспособ", "ограничен"))):
            continue
        tried += 1
        if tried > _NEGATIONS_PER_SENTENCE:
            return None
        clauses = clauses or _clauses(words)
        lo, hi = clauses[i]
        j = _bears_on_capability(words, i, lo, hi)
        if j is None or not _said_of_the_model(words, i, j, lo):
            continue
        if not _declines_the_request(words, i, j, lo, hi, sentence, toks, scope):
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


def states_inability(text: str, scope: TermScope | None = None) -> str | None:
    """The first EN/RU statement of inability or refusal in `text` (rule 5), or None.

    Structure, not phrases: a negation or limitation bearing on a capability, said of the model (see the
    word classes above); with a `scope` (the case's requested action, tooluse1.answers.scope), one that
    declines that action or an unspecified "that", or a counterfactual ("If I had access…, but I don't",
    "Будь у меня доступ…, я бы заказал, но его нет").
    Quoted text and drafts are ignored (a quoted "I won't be in today" is not the model
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
        span = _inability_in_sentence(s[start:end], scope) or _counterfactual(s[start:end])
        if span is not None:
            return b.text[start + span[0]:start + span[1]].strip(" \t\n\r.,;:!?—–")
    return None


# A counterfactual followed by the negated reality: a past or subjunctive condition of the model's ("будь у меня
# доступ", "если бы я мог", "if I had access", "if I were able") and later in the sentence a negation ("но его
# нет", "but I don't", "но я не могу").
_COUNTERFACTUAL_RE = re.compile(
    r"(?<!" + _L + r")(?:будь у (?:меня|нас)|если бы (?:у (?:меня|нас)|я|мы)|if (?:i|we) (?:had|were|could)|"
    r"were i|had i)(?!" + _L + r")[^.!?\n]*?(?<!" + _L + r")(?:нет|не|not|don't|can't|cannot|isn't|aren't|doesn't|"
    r"haven't)(?!" + _L + r")")


def _counterfactual(sentence: str) -> tuple[int, int] | None:
    m = _COUNTERFACTUAL_RE.search(sentence)
    return m.span() if m else None
