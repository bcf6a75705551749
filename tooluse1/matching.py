"""How a model's argument value is compared with the expected one: one object per comparison kind.

Every parameter declares its kind (`Param.match`, tooluse1.toolspec); `comparison(name)` gives the object,
which is all the grader, the corpus builder, the World, the parsers and the selftest need to know about it:

    expression  arithmetic, compared by value (tooluse1.evaluator; its docstring lists the notations)
    number      float, rel_tol 1e-6; numeric strings accepted ("100" == 100), one currency sign around the
                model's value ignored ("$250" == 250: the currency has its own parameter)
    integer     int; numeric strings accepted; floats only when integral; booleans never
    alias       both values read through the parameter's table (tooluse1.aliases: city, language, currency,
                unit, time zone), then compared by `AliasTable.matches`
    text        NFKC + casefold, whitespace collapsed, edge punctuation and quotes trimmed, then equal
    keywords    `keywords_match`: every expected keyword (or one of its `|` alternatives) is in the query
    boolean     true/false; the strings "true"/"false" (any case) too
    array       a list (or a JSON string of one) whose items compare by the parameter's `items` schema, in
                order; as a multiset when the schema says `uniqueItems: true` or the parameter `match: set`
    set         array, order ignored
    object      a mapping (or a JSON string of one): every expected key compared by its property's schema
                (recursively; a property without one compares as `any`); an optional property left out passes
                when the expected value is its default; extra keys are tolerated
    any         JSON values: numbers by value, strings as `text`, lists in order, mappings key by key

A model's value that is an object, a list, a boolean or null never matches a string kind. A parameter
declared nullable (`type: [T, "null"]`, or `anyOf` with `{type: null}`) also matches null with null.
"""
from __future__ import annotations

import json
import math
import os
import re
import unicodedata
from typing import Any, Protocol

from tooluse1.aliases import AliasTable, fold, norm_text
from tooluse1.evaluator import evaluate, same_value

__all__ = ["COMPARISONS", "DEFAULT_MATCH", "LEFT_OUT", "ONE_OF", "Comparison", "alternatives", "comparison",
           "first_choice", "keywords_example", "keywords_match", "to_bool", "to_integer", "to_number", "word_matches"]


# ----------------------------------------------------------------------------- numbers

_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


_QUOTE_PAIRS = {'"': '"', "'": "'", "«": "»", "“": "”", "„": "“", "`": "`"}


def _unquote(s: str) -> str:
    """`s` without one pair of quotes around it ('"250"' -> '250'), as text values lose theirs (norm_text)."""
    if len(s) >= 2 and _QUOTE_PAIRS.get(s[0]) == s[-1]:
        return s[1:-1].strip()
    return s


def to_number(value: Any) -> float | None:
    """A float from an int/float or a numeric string ("1,000.5", "1 000", "3,5", a quoted '"250"'), else None.
    Never bools."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:   # an int beyond float range (JSON allows any length): not comparable
            return None
    if not isinstance(value, str):
        return None
    s = _unquote(unicodedata.normalize("NFKC", value).strip()).replace("\u00a0", "").replace(" ", "").replace("_", "")
    if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", s):
        s = s.replace(",", "")
    elif re.fullmatch(r"[+-]?\d+,\d+", s):
        s = s.replace(",", ".")
    if _NUMBER_RE.match(s):
        try:
            return float(s)
        except (ValueError, OverflowError):
            return None
    return None


def to_integer(value: Any) -> int | None:
    """An int from an int, an integral float or a numeric string; None otherwise (booleans never)."""
    num = to_number(value)
    if num is None or num != num or num in (float("inf"), float("-inf")) or not num.is_integer():
        return None
    return int(num)


def _without_currency_sign(value: Any) -> Any:
    """A numeric string with one currency sign (Unicode category Sc) before or after it stripped ("$250",
    "250 €", "₽1500"): the sign names the currency, which its own parameter judges; anything else as is."""
    if not isinstance(value, str):
        return value
    s = value.strip()
    if s[:1] and unicodedata.category(s[0]) == "Sc":
        return s[1:]
    if s[-1:] and unicodedata.category(s[-1]) == "Sc":
        return s[:-1]
    return value


# ----------------------------------------------------------------------------- web_search keywords

# Words for keywords: runs of letters or runs of digits, so a letter-digit boundary splits ("Python3.13" is
# python 3 13, like "python 3.13"; "iPhone16" is iphone 16).
_WORD = re.compile(r"[^\W\d_]+|\d+")
_KEYWORD = re.compile(r'(?:"[^"]*"|[^\s"])+')
_RU_VOWELS = frozenset("аеиоуыэюяь")


def keywords_match(expected: Any, actual: Any) -> bool:
    """True when the model's query contains every expected keyword.

    `expected` is space-separated keywords; a keyword may list alternatives with "|" (`курс|цена|price`,
    `ceo|"chief executive"`), and an alternative of several words (quoted, or joined by punctuation:
    `chief+executive`, `python 3.13` is the keyword "python" and the keyword "3.13" = words 3 and 13)
    needs all its words. Words are compared after NFKC, casefold, ё = е by `word_matches`.
    """
    query: dict[str, list[str]] = {}
    for word in set(_WORD.findall(norm_text(actual))):
        query.setdefault(word[:2], []).append(word)   # word_matches needs 2 common first letters at least

    def found(w: str) -> bool:
        return any(word_matches(w, q) for q in query.get(w[:2], ()))

    for keyword in _KEYWORD.findall(fold(expected if isinstance(expected, str) else str(expected))):
        alternatives = [words for words in (_WORD.findall(alt) for alt in keyword.split("|")) if words]
        if alternatives and not any(all(found(w) for w in words) for words in alternatives):
            return False
    return True


def keywords_example(expected: str) -> str:
    """A query a user could type that meets `expected` (keywords_match): the first alternative of each
    keyword, written out (`курс|цена биткоина` -> "курс биткоина"). What the oracle and the World use."""
    return " ".join(kw.split("|")[0].strip('"') for kw in _KEYWORD.findall(expected))


def word_matches(expected: str, actual: str) -> bool:
    """One expected keyword word against one query word (both normalised), tolerating inflection:

    - equal words match; a word with a digit matches only itself (2024 != 2025, 3 != 13);
    - a word of 5+ letters matches a word that keeps all but at most its last two letters (and at least
      4) and adds at most 4 letters after them: Эрмитаж = Эрмитажа, биткоина = биткоин, запуск =
      запуски, launch = launches/launching, population = populations; python != pythagoras;
    - a word of 3-4 letters matches the same word plus at most 2 letters (ceo = ceos, курс = курса,
      webb = webbs), or, when it ends in a Russian vowel, with that vowel changed (цена = цены, цене);
    - a word of 1-2 letters matches only itself.
    """
    if expected == actual:
        return True
    if any(c.isdigit() for c in expected) or any(c.isdigit() for c in actual):
        return False
    common = len(os.path.commonprefix((expected, actual)))
    if len(expected) >= 5:
        return common >= max(4, len(expected) - 2) and len(actual) - common <= 4
    if len(expected) >= 3:
        keep = len(expected) - (1 if expected[-1] in _RU_VOWELS else 0)
        return common >= keep and len(actual) - common <= 2
    return False


# ----------------------------------------------------------------------------- the comparison kinds

class Declared(Protocol):
    """What a comparison reads of the parameter it compares (tooluse1.toolspec.Param has it)."""

    @property
    def aliases(self) -> AliasTable | None: ...

    @property
    def enum(self) -> tuple[Any, ...]: ...

    @property
    def items(self) -> Any: ...            # the array items' Declared schema (None: compared as `any`)

    @property
    def properties(self) -> tuple[Any, ...]: ...   # an object's Declared properties (with .name, .required)

    @property
    def default(self) -> Any: ...


class Comparison:
    """One comparison kind. Subclasses set the class attributes and override what differs.

    `types` are the JSON-schema types a parameter compared this way may declare (a declaration with another
    is refused); `expects` says in a message what a value must be ("a number"); `needs_table` says the
    parameter must name an alias table; `free_text` marks the kinds whose value is free text a person writes.
    """

    name: str = ""
    types: tuple[str, ...] = ("string",)
    expects: str = "a non-empty string"
    needs_table: bool = False
    free_text: bool = False

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        """True when a model's value `actual` means the `expected` one (the grader's comparison)."""
        raise NotImplementedError

    def check_expected(self, param: Declared, value: Any) -> str | None:
        """What is wrong with `value` as an authored expected value (a case, an example, a default), or None.
        Authored values are typed and canonical: a number is not a string, an alias value is the canonical
        one (the message names it when the table knows the form)."""
        if not isinstance(value, str) or not value.strip():
            return f"wrong type, expected {self.expects}, got {value!r}"
        return None

    def accept(self, value: Any) -> Any | None:
        """The value a simulated tool receives for a model's `value` (numbers as numbers), or None when the
        value cannot be used (the World reports "<param> must be <expects>")."""
        return value if isinstance(value, str) and value.strip() else None

    def coerce(self, raw: str) -> Any:
        """An untyped string value (an XML parameter, a plain `k=v`) typed for this kind. Strings stay
        strings, so a zip code or a numeric note text keeps its digits as written."""
        return raw

    def written(self, expected: Any) -> Any:
        """The value a right answer writes for the authored `expected` value (what the oracle calls with)."""
        return expected

    def variant(self, param: Declared, value: Any) -> Any | None:
        """The same value written in another form this kind accepts, or None when it has none."""
        return None

    def other(self, param: Declared, value: Any) -> Any:
        """A value of the right type that does NOT match `value` (an enum's other member first)."""
        return next((v for v in param.enum if v != value), f"{value} (copy)")


class _Expression(Comparison):
    name = "expression"
    expects = "an arithmetic expression"

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        return same_value(evaluate(expected), evaluate(actual))

    def check_expected(self, param: Declared, value: Any) -> str | None:
        if not isinstance(value, str) or evaluate(value) is None:
            return f"{value!r} is not an evaluable arithmetic expression"
        return None

    def accept(self, value: Any) -> Any | None:
        # A number is an expression too (a model may send the evaluated 57 for "45+12").
        return None if isinstance(value, bool) or not isinstance(value, (str, int, float)) else value

    def variant(self, param: Declared, value: Any) -> Any | None:
        return f"({value}) * 1"

    def other(self, param: Declared, value: Any) -> Any:
        return f"({value}) + 1"


class _Number(Comparison):
    name = "number"
    types = ("number",)
    expects = "a number"

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        return same_value(to_number(expected), to_number(_without_currency_sign(actual)))

    def check_expected(self, param: Declared, value: Any) -> str | None:
        if isinstance(value, str) or to_number(value) is None:
            return f"wrong type, expected {self.expects}, got {value!r}"
        return None

    def accept(self, value: Any) -> Any | None:
        num = to_number(value)
        return num if num is not None and math.isfinite(num) else None

    def coerce(self, raw: str) -> Any:
        num = to_number(raw)
        if num is None:
            return raw
        # "5" is the int 5 (as JSON would carry it); "5.0" and "5e0" stay floats, as written.
        return int(num) if num.is_integer() and "." not in raw and "e" not in raw.lower() else num

    def variant(self, param: Declared, value: Any) -> Any | None:
        return str(value)

    def other(self, param: Declared, value: Any) -> Any:
        return (to_number(value) or 0) + 1


class _Integer(Comparison):
    name = "integer"
    types = ("integer",)
    expects = "an integer"

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        e = to_integer(expected)
        return e is not None and e == to_integer(actual)

    def check_expected(self, param: Declared, value: Any) -> str | None:
        if isinstance(value, str) or to_integer(value) is None:
            return f"wrong type, expected {self.expects}, got {value!r}"
        return None

    def accept(self, value: Any) -> Any | None:
        return to_integer(value)

    def coerce(self, raw: str) -> Any:
        num = to_number(raw)
        if num is None:
            return raw
        return int(num) if num.is_integer() else num

    def variant(self, param: Declared, value: Any) -> Any | None:
        return str(value)

    def other(self, param: Declared, value: Any) -> Any:
        return int(value) + 1


class _Textual(Comparison):
    """The string kinds: a model's object, list, boolean or null never matches."""

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        if isinstance(actual, (dict, list, bool)) or actual is None:
            return False
        return self._same(param, expected, actual)

    def _same(self, param: Declared, expected: Any, actual: Any) -> bool:
        return norm_text(expected) == norm_text(actual)


class _Alias(_Textual):
    name = "alias"
    needs_table = True

    @staticmethod
    def _table(param: Declared) -> AliasTable:
        if param.aliases is None:   # a declaration without a table is refused (tooluse1.toolspec.Param)
            raise ValueError("an alias comparison needs the parameter's alias table")
        return param.aliases

    def _same(self, param: Declared, expected: Any, actual: Any) -> bool:
        return self._table(param).matches(expected, actual)

    def check_expected(self, param: Declared, value: Any) -> str | None:
        wrong = super().check_expected(param, value)
        if wrong is not None:
            return wrong
        table = self._table(param)
        if value not in (param.enum or table.canonicals):
            hint = table.lookup(value)
            return f"{value!r} is not a canonical {table.name}" + (f" (did you mean {hint!r}?)" if hint else "")
        return None

    def variant(self, param: Declared, value: Any) -> Any | None:
        table = self._table(param)
        return next((f for f in table.forms(value) if table.lookup(f) == value), None)

    def other(self, param: Declared, value: Any) -> Any:
        table = self._table(param)
        return next(v for v in (param.enum or table.canonicals) if not table.matches(value, v))


class _Text(_Textual):
    name = "text"
    free_text = True


class _Keywords(_Textual):
    name = "keywords"
    free_text = True

    def _same(self, param: Declared, expected: Any, actual: Any) -> bool:
        return keywords_match(expected, actual)

    def written(self, expected: Any) -> Any:
        return keywords_example(expected)

    def other(self, param: Declared, value: Any) -> Any:
        return "?"   # a query without a word holds none of the keywords (another query may hold them all)


_TRUE, _FALSE = frozenset({"true"}), frozenset({"false"})


def to_bool(value: Any) -> bool | None:
    """A bool from a bool or its string form ("true"/"False", as text protocols and some models write it)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = _unquote(value.strip()).casefold()
        return True if word in _TRUE else False if word in _FALSE else None
    return None


def _json_text(value: Any, shape: type) -> Any:
    """A list/dict written as JSON text (an xml or plain protocol value, or a model that quoted it) read
    back; any other value as is."""
    if isinstance(value, str) and value.strip()[:1] in "[{":
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return value
        return parsed if isinstance(parsed, shape) else value
    return value


# An expected value written `{one_of: [a, b]}` passes with any of the values (BFCL's lists of acceptable
# values); `""` or null among them: the argument may be left out.
ONE_OF = "one_of"
LEFT_OUT = ("", None)


def alternatives(value: Any) -> tuple[Any, ...] | None:
    """The values of a `{one_of: [...]}` expected value, or None for a plain one."""
    if isinstance(value, dict) and set(value) == {ONE_OF} and isinstance(value[ONE_OF], list) and value[ONE_OF]:
        return tuple(value[ONE_OF])
    return None


_DROP = object()


def first_choice(value: Any) -> Any:
    """The value a right answer writes for an expected value: each one-of's first value, at any depth; a
    mapping's key whose first value is "" or null left out (returned as LEFT_OUT[0] at the top)."""
    alts = alternatives(value)
    if alts is not None:
        return LEFT_OUT[0] if alts[0] in LEFT_OUT else first_choice(alts[0])
    if isinstance(value, dict):
        chosen = {k: _DROP if (alternatives(v) or (0,))[0] in LEFT_OUT else first_choice(v)
                  for k, v in value.items()}
        return {k: v for k, v in chosen.items() if v is not _DROP}
    if isinstance(value, list):
        return [first_choice(v) for v in value]
    return value


def _param_matches(param: Any, expected: Any, actual: Any) -> bool:
    """A nested value against its schema (`param` None: compared as `any`); a one-of by any of its values."""
    alts = alternatives(expected)
    if alts is not None:
        return any(a not in LEFT_OUT and _param_matches(param, a, actual) for a in alts)
    if param is None:
        return _ANY.same(expected, actual)
    if expected is None and getattr(param, "nullable", False):
        return actual is None
    return bool(param.comparison.matches(param, expected, actual))


class _Boolean(Comparison):
    name = "boolean"
    types = ("boolean",)
    expects = "true or false"

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        e = to_bool(expected)
        return e is not None and e == to_bool(actual)

    def check_expected(self, param: Declared, value: Any) -> str | None:
        return None if isinstance(value, bool) else f"wrong type, expected {self.expects}, got {value!r}"

    def accept(self, value: Any) -> Any | None:
        return to_bool(value)

    def coerce(self, raw: str) -> Any:
        found = to_bool(raw)
        return raw if found is None else found

    def variant(self, param: Declared, value: Any) -> Any | None:
        return str(value).lower()

    def other(self, param: Declared, value: Any) -> Any:
        return not to_bool(value)


class _JsonShaped(Comparison):
    """The kinds whose values are lists or mappings, which text protocols carry as JSON text."""

    shape: type = list

    def accept(self, value: Any) -> Any | None:
        value = _json_text(value, self.shape)
        return value if isinstance(value, self.shape) else None

    def coerce(self, raw: str) -> Any:
        return _json_text(raw, self.shape)

    def variant(self, param: Declared, value: Any) -> Any | None:
        return json.dumps(value, ensure_ascii=False)


class _Array(_JsonShaped):
    name = "array"
    types = ("array",)
    expects = "a list"
    ordered = True

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        actual = _json_text(actual, list)
        if not isinstance(expected, list) or not isinstance(actual, list) or len(expected) != len(actual):
            return False
        item = param.items if param is not None else None
        if self.ordered and not getattr(item, "unique", False) and not getattr(param, "unique", False):
            return all(_param_matches(item, e, a) for e, a in zip(expected, actual))
        left = list(actual)               # a multiset: each expected item takes one matching actual item
        for e in expected:
            hit = next((i for i, a in enumerate(left) if _param_matches(item, e, a)), None)
            if hit is None:
                return False
            del left[hit]
        return True

    def check_expected(self, param: Declared, value: Any) -> str | None:
        if not isinstance(value, list):
            return f"wrong type, expected {self.expects}, got {value!r}"
        item = param.items if param is not None else None
        for v in value if item is not None else ():
            wrong = item.comparison.check_expected(item, v) if v is not None else None
            if wrong is not None:
                return f"item {v!r}: {wrong}"
        return None

    def other(self, param: Declared, value: Any) -> Any:
        return list(value)[:-1] if value else ["?"]


class _Set(_Array):
    name = "set"
    ordered = False


class _Object(_JsonShaped):
    name = "object"
    types = ("object",)
    expects = "an object"
    shape = dict

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        actual = _json_text(actual, dict)
        if not isinstance(expected, dict) or not isinstance(actual, dict):
            return False
        props = {p.name: p for p in (param.properties if param is not None else ())}
        for key, exp in expected.items():
            prop = props.get(key)
            if key not in actual:
                default = getattr(prop, "default", None)
                optional = prop is None or not prop.required
                if optional and (any(a in LEFT_OUT for a in alternatives(exp) or ())
                                 or (default is not None and _param_matches(prop, default, exp))):
                    continue
                return False
            if not _param_matches(prop, exp, actual[key]):
                return False
        return True

    def check_expected(self, param: Declared, value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"wrong type, expected {self.expects}, got {value!r}"
        props = {p.name: p for p in (param.properties if param is not None else ())}
        for key, v in value.items():
            prop = props.get(key)
            for one in alternatives(v) or (v,):
                wrong = prop.comparison.check_expected(prop, one) if prop is not None and one not in LEFT_OUT \
                    else None
                if wrong is not None:
                    return f"{key}: {wrong}"
        return None

    def other(self, param: Declared, value: Any) -> Any:
        return {k: "?" for k in value} if value else "?"


class _Any(Comparison):
    """Any JSON value (BFCL's `any`, a property without a schema)."""

    name = "any"
    types = ("any",)
    expects = "a value"

    def matches(self, param: Declared, expected: Any, actual: Any) -> bool:
        return self.same(expected, actual)

    def same(self, expected: Any, actual: Any) -> bool:
        """Two JSON values by value: see the module docstring."""
        if isinstance(expected, bool) or isinstance(actual, bool):
            return to_bool(expected) is not None and to_bool(expected) == to_bool(actual)
        if expected is None or actual is None:
            return expected is None and actual is None
        if isinstance(expected, (int, float)):
            return same_value(to_number(expected), to_number(actual))
        if isinstance(expected, list):
            actual = _json_text(actual, list)
            return isinstance(actual, list) and len(actual) == len(expected) \
                and all(self.same(e, a) for e, a in zip(expected, actual))
        if isinstance(expected, dict):
            actual = _json_text(actual, dict)
            return isinstance(actual, dict) and all(k in actual and self.same(v, actual[k])
                                                    for k, v in expected.items())
        return not isinstance(actual, (dict, list)) and norm_text(expected) == norm_text(actual)

    def check_expected(self, param: Declared, value: Any) -> str | None:
        return None

    def accept(self, value: Any) -> Any | None:
        return value

    def coerce(self, raw: str) -> Any:
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return raw

    def other(self, param: Declared, value: Any) -> Any:
        return [value, value] if not isinstance(value, list) else [*value, None]


_ANY = _Any()

COMPARISONS: dict[str, Comparison] = {k.name: k for k in (_Expression(), _Number(), _Integer(), _Alias(), _Text(),
                                                          _Keywords(), _Boolean(), _Array(), _Set(), _Object(),
                                                          _ANY)}

# The comparison a parameter gets when its declaration names none: by its JSON-schema type.
DEFAULT_MATCH: dict[str, str] = {"string": "text", "number": "number", "integer": "integer", "boolean": "boolean",
                                 "array": "array", "object": "object", "any": "any"}


def comparison(name: str) -> Comparison:
    """The comparison kind called `name`; ValueError naming the known kinds otherwise."""
    try:
        return COMPARISONS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown comparison kind {name!r} (known: {', '.join(COMPARISONS)})") from None
