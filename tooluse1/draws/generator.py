"""Seeded draws of a case: its template's slots drawn from (seed, case id, draw index, slot name) through
SHA-256, its user message written from the draw and its expected call computed from the same draw.

A template (templates/<category>.yaml, keyed by the public case's id) names its slots and writes the last
user message and the expected arguments with `{slot}` placeholders:

    calculator-en-001:
      slots: {a: int 100..999, b: int 11..99}
      user: "What's {a} times {b}?"
      call: {expression: "{a}*{b}"}

Slot kinds: `int LO..HI [step N]`, `dec LO..HI places P` (a decimal with P places), `pick POOL` (one entry
of pools.yaml's POOL; `pick POOL not SLOT,...` skips the entries those slots drew) and `= EXPR` (arithmetic
over slots drawn before it). A placeholder is `{slot}`, `{slot.field}` and any number of `|filters`
(FILTERS below); an argument written `= EXPR` is a number computed from the draw.

Why a permutation per slot: slot `s` of candidate `t` is element `(offset + t * stride) mod N` of its domain,
offset and stride hashed from (seed, case id, s) with the stride prime to N. So candidates 0..N-1 of one slot
are pairwise distinct (draws of a case differ in every slot), and candidate t never depends on K. Draw j is
the j-th candidate whose expectation differs from the public case's: a prefix of the K = 5 draws is the K = 3
draws, and no draw repeats the public case.
"""
from __future__ import annotations

import ast
import hashlib
import math
import operator
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Mapping, Union

from tooluse1.errors import ToolUse1Error
from tooluse1.lang import number_words, ru_agree, ru_inflect, ru_inflect_lemma

Value = Union[int, Decimal, Mapping[str, Any]]

# pymorphy3 declines these names as if they were Russian nouns; they are indeclinable (Мумбаи, not Мумбаях;
# Сан-Франциско, not Сане-Франциско). Tested in tests_grader/test_draws.py.
INDECLINABLE_RU = frozenset({"Мумбаи", "Сан-Франциско", "тенге", "лари"})
# lemminflect's plurals that are wrong for these nouns (tenges, lire, zloties, kronas, wons, laris).
EN_PLURALS = {"tenge": "tenge", "lira": "lira", "zloty": "zlotys", "krona": "kronor", "won": "won", "lari": "lari",
              "yen": "yen", "yuan": "yuan"}


class TemplateError(ToolUse1Error, ValueError):
    """A template that cannot be drawn (unknown slot kind, pool, placeholder or filter): the message names
    the case id and what to fix."""


def sha_int(*parts: str) -> int:
    """A 64-bit integer from SHA-256 of `parts` (joined by a separator no part contains)."""
    return int.from_bytes(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()[:8], "big")


def permuted_index(n: int, t: int, *key: str) -> int:
    """Element t of a permutation of range(n) keyed by `key`: pairwise distinct for t in range(n)."""
    offset = sha_int(*key, "offset") % n
    stride = sha_int(*key, "stride") % n or 1
    while math.gcd(stride, n) != 1:
        stride = stride % n + 1
    return (offset + t * stride) % n


# ----------------------------------------------------------------------------- slots

_RANGE = re.compile(r"^(int|dec)\s+(-?[\d.]+)\.\.(-?[\d.]+)(?:\s+(step|places)\s+(\d+))?$")
_PICK = re.compile(r"^pick\s+(\w+)(?:\s+not\s+([\w,=.]+))?$")


def drawn_path(drawn: Mapping[str, Value], path: str) -> Any:
    """The drawn value at `slot` or `slot.field` (a pick's `not p.cur`)."""
    name, *fields = path.split(".")
    value: Any = drawn[name]
    for f in fields:
        value = value[f]
    return value


@dataclass(frozen=True)
class Slot:
    """One slot of a template: its name and spec (module docstring)."""

    name: str
    spec: str

    def value(self, t: int, key: tuple[str, ...], drawn: Mapping[str, Value], pools: Mapping[str, list]) -> Value:
        """The slot's value in candidate t (`key`: seed and case id; `drawn`: the slots drawn before it)."""
        spec = self.spec.strip()
        if spec.startswith("="):
            return evaluate(spec[1:], drawn)
        m = _RANGE.match(spec)
        if m:
            kind, lo, hi, word, num = m.groups()
            if kind == "int":
                step = int(num) if word == "step" else 1
                n = (int(hi) - int(lo)) // step + 1
                return int(lo) + step * permuted_index(n, t, *key, self.name)
            scale = Decimal(1).scaleb(-int(num or 1))
            lo_d, hi_d = Decimal(lo), Decimal(hi)
            n = int((hi_d - lo_d) / scale) + 1
            value = (lo_d + scale * permuted_index(n, t, *key, self.name)).quantize(scale)
            return int(value) if value == value.to_integral_value() else value   # 4, not 4.0
        m = _PICK.match(spec)
        if m:
            pool_name, excluded = m.groups()
            if pool_name not in pools:
                raise TemplateError(f"slot {self.name}: no pool {pool_name!r} (pools: {', '.join(sorted(pools))})")
            # `not a,b` skips what slots a and b drew; `not code=USD` skips the entries with that field value.
            rules = [s.split("=", 1) for s in (excluded or "").split(",") if "=" in s]
            taken = [drawn_path(drawn, s) for s in (excluded or "").split(",") if s and "=" not in s]
            entries = [e for e in pools[pool_name]
                       if e not in taken and not any(str(e.get(f)) == v for f, v in rules)]
            return entries[permuted_index(len(entries), t, *key, self.name)]
        raise TemplateError(f"slot {self.name}: unknown spec {spec!r} (int LO..HI, dec LO..HI places P, pick POOL, "
                            f"= EXPR)")


# ----------------------------------------------------------------------------- arithmetic

_OPS: dict[type, Callable[..., Any]] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                                        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg,
                                        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def _number(value: Decimal) -> int | Decimal:
    return int(value) if value == value.to_integral_value() else value.normalize()


def evaluate(expression: str, drawn: Mapping[str, Value]) -> int | Decimal:
    """The exact value (Decimal arithmetic) of `expression`, whose `{slot}` placeholders are filled from
    `drawn`: an int when integral."""
    text = fill(expression, drawn, "en")

    def ev(node: ast.AST) -> Decimal:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return Decimal(str(node.value))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return Decimal(_OPS[type(node.op)](ev(node.left), ev(node.right)))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return Decimal(_OPS[type(node.op)](ev(node.operand)))
        raise TemplateError(f"cannot compute {text!r}: only numbers and + - * / ** // % are allowed")

    try:
        return _number(ev(ast.parse(text.strip(), mode="eval")))
    except SyntaxError:
        raise TemplateError(f"cannot compute {text!r}: not an arithmetic expression") from None


# ----------------------------------------------------------------------------- text

def _words(value: Value, lang: str, case: str = "nomn", gender: str = "m") -> str:
    """A number in words. The accusative of a counted thing is inanimate (на тридцать четыре минуты, not
    четырёх, which num2words gives): the nominative, but for a feminine one (на двадцать одну минуту)."""
    n = int(_as_number(value))
    if lang == "ru" and case == "accs":
        words = number_words(n, lang, case="nomn", gender=gender)
        return words[:-4] + "одну" if gender == "f" and words.endswith("одна") else words
    return number_words(n, lang, case=case, gender=gender)


def _as_number(value: Value) -> int | Decimal:
    if isinstance(value, Mapping):
        raise TemplateError(f"a pool entry {dict(value)} is not a number: name one of its fields")
    return value


def _separated(value: Value, lang: str) -> str:
    """Thousands grouped as a person writes them: 12,500 (EN), 12 500 (RU); decimals as written."""
    number = _as_number(value)
    text = f"{number:,}"
    return text.replace(",", " ").replace(".", ",") if lang == "ru" else text


def _ru_case(value: str, grammemes: str) -> str:
    if value in INDECLINABLE_RU:
        return value
    # A phrase (швейцарский франк, фунт стерлингов): adjectives and the head noun agree; a genitive
    # complement after the head (стерлингов) stays as it is.
    # The head is the first word that is not an adjective, or the last word (польский злотый).
    words = value.split(" ")
    out, head_seen = [], False
    for i, word in enumerate(words):
        if head_seen:
            out.append(word)
            continue
        adjective = i < len(words) - 1 and word.lower().endswith(("ий", "ый", "ой", "ая", "яя"))
        # Everything the templates decline is a thing (a city, a currency, a language): inanimate.
        out.append(ru_inflect_lemma(word, frozenset(grammemes.split(",")), animacy="inan"))
        head_seen = not adjective
    return " ".join(out)


def _ru_counted(value: Value, noun: str, case: str) -> str:
    """The Russian noun after the number `value` when the phrase stands in `case`: a number ending in 1 (not
    11) takes the singular in that case (на 21 минуту, до 31 градуса); in the nominative and the inanimate
    accusative the others take ru_agree's form (2 минуты, 5 минут), in other cases the plural (до 5 градусов)."""
    n = abs(int(_as_number(value)))
    if n % 10 == 1 and n % 100 != 11:
        return ru_inflect(noun, frozenset({case}), "NOUN")
    if case in ("nomn", "accs"):
        return ru_agree(n, noun)
    return ru_inflect(noun, frozenset({case, "plur"}), "NOUN")


def _en_plural(noun: str) -> str:
    """The plural of an English noun phrase (its last word), by lemminflect and EN_PLURALS."""
    from lemminflect import getInflection
    *head, last = noun.split(" ")
    return " ".join([*head, EN_PLURALS.get(last) or getInflection(last, "NNS")[0]])


def _en_count(n: Value, noun: str) -> str:
    return noun if _as_number(n) == 1 else _en_plural(noun)


def _roman(n: int) -> str:
    """`n` (1..3999) in Roman numerals, the standard subtractive form."""
    out = []
    for value, numeral in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                           (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def _roman_wrong(wrong: int, right: int) -> str:
    """`wrong` in Roman numerals as a plausible wrong answer for `right`, or "" (the list item is dropped)
    where its numeral begins `right`'s: that is a step of the right explanation (250 = CCL, plus I = CCLI)."""
    numeral = _roman(wrong)
    return "" if _roman(right).startswith(numeral) else numeral


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeio" else "a ") + word


# "во" before в/ф and a consonant (во Владивостоке, во Франкфурте), "в" elsewhere.
_VO = re.compile(r"^[вфВФ][^аеёиоуыэюяАЕЁИОУЫЭЮЯ]")
FILTERS: dict[str, Callable[..., str]] = {
    "sep": lambda v, lang: _separated(v, lang),                                   # 12,500 / 12 500
    "comma": lambda v, lang: str(_as_number(v)).replace(".", ","),               # 3,5 (RU decimals)
    "words": lambda v, lang, case="nomn", gender="m": _words(v, lang, case, gender),   # forty-five / сорока пяти
    "ord": lambda v, lang, case="nomn", gender="m": number_words(                 # десятой
        int(_as_number(v)), lang, to="ordinal", case=case, gender=gender),
    "agree": lambda v, lang, noun, case="nomn": f"{_as_number(v)} {_ru_counted(v, noun, case)}",   # на 21 минуту
    "agreew": lambda v, lang, noun, case="nomn", gender="f": (                  # двадцать одна минута
        f"{_words(v, 'ru', case, gender)} {_ru_counted(v, noun, case)}"),
    "noun": lambda v, lang, noun, case="nomn": _ru_counted(v, noun, case),       # (пять с половиной) минут
    "plural": lambda v, lang, noun: f"{_as_number(v)} {_en_count(v, noun)}",     # 1 minute / 5 minutes
    "pluralw": lambda v, lang, noun: f"{_words(v, 'en')} {_en_count(v, noun)}",   # five minutes
    "nns": lambda v, lang: _en_plural(str(v)),                                    # Swiss francs
    "case": lambda v, lang, grammemes: _ru_case(str(v), grammemes.replace("+", ",")),   # в Казани
    "po": lambda v, lang: "по-" + str(v)[:-2] + "и",                              # немецкий -> по-немецки
    "enwords": lambda v, lang: _words(v, "en"),                                   # ten (in a Russian case)
    "roman": lambda v, lang: _roman(int(_as_number(v))),                          # LVII
    "romanwrong": lambda v, lang, right: _roman_wrong(int(_as_number(v)), int(right)),   # CCL, or "" for 251
    "v": lambda v, lang: ("во " if _VO.match(str(v)) else "в ") + str(v),          # в Москве, во Владивостоке
    "cap": lambda v, lang: str(v)[:1].upper() + str(v)[1:],
    "lower": lambda v, lang: str(v).lower(),
    "decap": lambda v, lang: str(v)[:1].lower() + str(v)[1:],                   # a question after "Quick one:"
    "a": lambda v, lang: _article(str(v)),                                        # an Italian / a German
}
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def _resolve(expr: str, drawn: Mapping[str, Value], lang: str) -> str:
    path, *filters = expr.split("|")
    name, *fields = path.strip().split(".")
    if name not in drawn:
        raise TemplateError(f"placeholder {{{expr}}}: no slot {name!r} (slots: {', '.join(drawn)})")
    value: Any = drawn[name]
    for f in fields:
        if isinstance(value, list) and f.isdigit() and int(f) < len(value):
            value = value[int(f)]     # {f.right.0}: an item of a list field
            continue
        if not isinstance(value, Mapping) or f not in value:
            raise TemplateError(f"placeholder {{{expr}}}: no field {f!r}")
        value = value[f]
    for spec in filters:
        fname, *args = spec.split(":")
        # An argument `@slot.field` is that drawn value (e.g. the noun a number agrees with: agree:@u.ru_from).
        args = [_resolve(arg[1:], drawn, lang) if arg.startswith("@") else arg for arg in args]
        if fname not in FILTERS:
            raise TemplateError(f"placeholder {{{expr}}}: unknown filter {fname!r} (known: {', '.join(FILTERS)})")
        value = FILTERS[fname](value, lang, *args)
    if isinstance(value, Mapping):
        raise TemplateError(f"placeholder {{{expr}}}: a pool entry; name one of its fields")
    return str(value)


def fill(text: str, drawn: Mapping[str, Value], lang: str) -> str:
    """`text` with every `{placeholder}` written from the drawn slots, in language `lang`."""
    return _PLACEHOLDER.sub(lambda m: _resolve(m.group(1), drawn, lang), text)


def draw_slots(slots: Mapping[str, Any], t: int, key: tuple[str, ...], pools: Mapping[str, list]) -> dict[str, Value]:
    """Every slot's value in candidate t, in the template's order (a computed slot sees those before it)."""
    drawn: dict[str, Value] = {}
    for name, spec in slots.items():
        if isinstance(spec, list):   # an inline list of wordings: `w: [How's the weather?, Is it cold out?]`
            drawn[name] = {"text": str(spec[permuted_index(len(spec), t, *key, name)])}
        else:
            drawn[name] = Slot(name, str(spec)).value(t, key, drawn, pools)
    return drawn


def fill_value(template: Any, drawn: Mapping[str, Value], lang: str) -> Any:
    """An argument's expected value: `= EXPR` computed (a number), a string filled, anything else as is."""
    if isinstance(template, str):
        if template.startswith("="):
            value = evaluate(template[1:], drawn)
            return value if isinstance(value, int) else float(value)
        return fill(template, drawn, lang)
    return template
