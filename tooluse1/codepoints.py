"""Looks at a long text through its code points (numpy), shared by the parser and the text rules.

Why: CPython looks for one substring at a time, and in a text stored at two or four bytes per character (any
Cyrillic, CJK or emoji in it) each look reads the whole text: 5-15 us per 16 KB. The parser and the rules ask a
few dozen such questions of every answer ("is there a `<|`, a `tool_call`, a zero-width space?"), and nearly
every answer says no. Here a long text's characters are listed once (~30 us), and a substring whose rarest
character is not among them is known to be absent without a scan.
"""
from __future__ import annotations

import array
import functools
from collections.abc import Iterable

import numpy as np

# A str's code points as an array of 32-bit integers in the machine's order: an array.array of Py_UCS4 ("w",
# Python >= 3.13) or of a 4-byte wchar_t ("u") copies them in ~3 us per 16 KB; encoding to UTF-32 (the fallback)
# takes 8-20 us, and ~100 us where lone surrogates call the error handler (random text holds them).
_UCS4_CODE = "w" if "w" in array.typecodes else "u" if array.array("u").itemsize == 4 else None

# Below this many characters, or in an ASCII text (one byte per character: `in` is a memchr), asking `in` is
# cheaper than listing the characters.
LONG_TEXT = 2048
_BMP = 0x10000
_COMMON = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n")


def code_points(s: str) -> np.ndarray:
    """ord(c) for each character of `s` (surrogates included), as a read-only uint32 array."""
    if _UCS4_CODE is not None:
        return np.frombuffer(array.array(_UCS4_CODE, s), dtype=np.uint32)
    return np.frombuffer(s.encode("utf-32", "surrogatepass")[4:], dtype=np.uint32)    # native order, after the BOM


@functools.lru_cache(maxsize=8)
def _bmp_characters(text: str) -> np.ndarray:
    """Which characters of the Basic Multilingual Plane `text` holds, as booleans by code point (every character
    above it counts as U+FFFF, a noncharacter that no needle holds)."""
    seen = np.zeros(_BMP, dtype=bool)
    seen[np.minimum(code_points(text), _BMP - 1)] = True
    return seen


@functools.lru_cache(maxsize=1024)
def _key(needle: str) -> int:
    """The code point of the needle's character least likely in prose: its first that is no ASCII letter, digit
    or space (else its last character); -1 for none to use (an empty needle, or a key outside the Basic
    Multilingual Plane)."""
    if not needle:
        return -1
    key = next((c for c in needle if c not in _COMMON), needle[-1])
    return ord(key) if ord(key) < _BMP - 1 else -1


def occurs(needle: str, text: str) -> bool:
    """`needle in text`, exactly; in a long non-ASCII text, without a scan when the needle's key character is not
    in it."""
    if len(text) >= LONG_TEXT and not text.isascii():
        key = _key(needle)
        if key >= 0 and not _bmp_characters(text)[key]:
            return False
    return needle in text


def occurs_any(needles: Iterable[str], text: str) -> bool:
    """any(n in text for n in needles), exactly; see `occurs`."""
    return any(occurs(n, text) for n in needles)
