"""Looks at long texts, shared by the parser and the text rules: a text's code points as a numpy array, and a
substring test that skips the scan when one of the substring's rarest characters is absent.

Why: CPython looks for a substring of two or more characters by a general search that, in a text stored at two
or four bytes per character (any Cyrillic, CJK or emoji in it), takes 2-17 us per 16 KB, and the parser asks a
few dozen such questions of every answer ("is there a `<|`, a `tool_call`?"), nearly all answered no. A search
for one character is a memchr-like loop: 0.3-3 us (9 us at four bytes per character).
"""
from __future__ import annotations

import array
import functools
import sys
from collections.abc import Iterable

import numpy as np

# A str's code points as an array of 32-bit integers in the machine's order: an array.array of Py_UCS4 ("w",
# Python >= 3.13) or of a 4-byte wchar_t ("u") copies them in ~3 us per 16 KB; encoding to UTF-32 (the fallback)
# takes 8-20 us, and ~100 us where lone surrogates call the error handler (random text holds them).
_UCS4_CODE = "w" if "w" in array.typecodes else "u" if array.array("u").itemsize == 4 else None

# Below this many characters, or in an ASCII text (one byte per character: every search is a memchr), the
# substring is looked for directly.
LONG_TEXT = 2048
# sys.getsizeof of a compact non-ASCII str: this many bytes, plus 1, 2 or 4 per character and its terminator.
_STR_HEADER = sys.getsizeof("\u0100") - 2 * 2
# Characters by how common they are in prose, most common last: a needle's characters are looked for rarest first.
_BY_FREQUENCY = "QJZXVKWYFGBPMHUDLCRSNIOATE0123456789qzjxkvbpgwyfmculdrhsnioate \n"
_RANK = {c: i for i, c in enumerate(_BY_FREQUENCY)}
_KEYS_TRIED = 3


def code_points(s: str) -> np.ndarray:
    """ord(c) for each character of `s` (surrogates included), as a read-only uint32 array."""
    if _UCS4_CODE is not None:
        return np.frombuffer(array.array(_UCS4_CODE, s), dtype=np.uint32)
    return np.frombuffer(s.encode("utf-32", "surrogatepass")[4:], dtype=np.uint32)    # native order, after the BOM


def four_bytes_per_character(s: str) -> bool:
    """Whether CPython stores `s` at four bytes per character (it holds a character above U+FFFF), where every
    search of it is slowest; told by the object's size, without reading the text."""
    return not s.isascii() and sys.getsizeof(s) >= _STR_HEADER + 4 * (len(s) + 1)


@functools.lru_cache(maxsize=1024)
def _keys(needle: str) -> tuple[str, ...]:
    """The needle's characters least likely in prose, rarest first, at most _KEYS_TRIED: any that is no ASCII letter,
    digit or space, then capitals, digits and small letters by their frequency in English."""
    return tuple(sorted(set(needle), key=lambda c: (_RANK.get(c, -1), needle.index(c))))[:_KEYS_TRIED]


def occurs(needle: str, text: str) -> bool:
    """`needle in text`, exactly; in a long non-ASCII text a needle of two characters or more is looked for only
    where its rarest characters (`_keys`) are all in the text: a search for one character takes ~0.3 us per 16 KB
    where it is absent, ~0.05 us where it is near the start, a search for the needle 2-3 us."""
    if len(needle) > 1 and len(text) >= LONG_TEXT and not text.isascii():
        for c in _keys(needle):
            if c not in text:
                return False
    return needle in text


def occurs_any(needles: Iterable[str], text: str) -> bool:
    """any(n in text for n in needles), exactly; see `occurs`."""
    if len(text) < LONG_TEXT or text.isascii():
        return any(n in text for n in needles)
    return any(occurs(n, text) for n in needles)


@functools.lru_cache(maxsize=64)
def _char_table(chars: tuple[str, ...]) -> np.ndarray:
    """Whether each code point up to the largest of `chars` (and one past it, for all above) is one of them."""
    table = np.zeros(max(map(ord, chars)) + 2, dtype=bool)
    table[[ord(c) for c in chars]] = True
    return table


def occurs_any_char(chars: tuple[str, ...], text: str) -> bool:
    """any(c in text for c in chars), exactly. In a long text stored at four bytes per character, where each `in`
    takes ~9 us per 16 KB, its code points are read once against a table of `chars` instead (~30 us)."""
    if len(text) < LONG_TEXT or not four_bytes_per_character(text):
        return any(c in text for c in chars)
    table = _char_table(chars)
    return bool(table[np.minimum(code_points(text), len(table) - 1)].any())
