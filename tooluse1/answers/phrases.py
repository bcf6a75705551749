"""Rule 2 of the text-answer checks (tooluse1.answers): phrases match tokens, not raw substrings.

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
"""
from __future__ import annotations

import functools
import re
from itertools import accumulate

from tooluse1.answers.base import _END, _first, _fold, _L, _MAX_CANDIDATES, _TEXT_CACHE


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
_SIGN_BEFORE = (*_MINUS, *_MINUS_WORDS)      # how the text before a number that may be negative ends


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
    # value, so only the others are read again with _NUMBER_RE at the same place (the same match). A number
    # with no sign before it has the value of its text (the match depends on nothing else: every match ends
    # before a non-digit), so each such text is read once. A sign before a number ends the text part before
    # it: two numbers never touch (a number ends with a digit and none starts right after one), and
    # "minus " holds no digit.
    folded = _folded_text(text)
    parts = _NUMBER_SPLIT_RE.split(folded, maxsplit=_MAX_CANDIDATES)
    numbers = parts[1::2]
    signed: set[int] = set()
    if any(sign in folded for sign in _SIGN_BEFORE):
        signed = {k for k in range(len(numbers)) if parts[2 * k].endswith(_SIGN_BEFORE)}
    again = signed.union(k for k, number in enumerate(numbers) if not number.isdigit() or number[0] == "0")
    if again:
        ends = list(accumulate(map(len, parts)))        # ends[j]: where parts[j] ends in `folded`
        unsigned: dict[str, str] = {}                   # number text -> value, for numbers without a sign
        for k in again:
            number = numbers[k]
            if k in signed:
                parts[2 * k + 1] = _value_at(folded, ends[2 * k])
            else:
                if number not in unsigned:
                    unsigned[number] = _value_at(folded, ends[2 * k])
                parts[2 * k + 1] = unsigned[number]
    return " ".join(parts)


def _value_at(folded: str, pos: int) -> str:
    """_canon_number of the number _NUMBER_SPLIT_RE found at folded[pos]."""
    m = _NUMBER_RE.match(folded, pos)
    assert m is not None                    # the same pattern matched here in the split
    return _canon_number(m)


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
