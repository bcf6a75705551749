"""Shared low-level helpers of the text-answer rules (tooluse1.answers): budgets, the non-empty test
(rule 1), regex building blocks and normalisation. Every rule module imports from here; this module
imports no other module of the package.
"""
from __future__ import annotations

import functools
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np


# Budgets (tooluse1.answers docstring, Performance): far above any real answer, they only bound pathological inputs.
_MAX_CANDIDATES = 10_000      # candidate matches of one kind examined; also the numbers read by value
_WINDOW = 400                 # characters looked at on each side of a candidate to find its sentence / clause
# Normalised forms of the last few texts: one check_answer looks at the same text several times. Small, so
# that a run over many 1 MB outputs does not keep them all alive.
_TEXT_CACHE = 8


# A letter or a digit in any script: the universal non-empty rule.
_WORDISH = re.compile(r"[^\W_]")
_NON_WORD_EDGES = " \t\n\r\f\v\u00a0\u200b\ufeff.,;:!?…-—–_*#>\"'`()[]{}|/\\"


# ============================================================================ regex building blocks

# Speed note: CPython's regex engine scans fast only for patterns that START with a literal (or a branch of
# literals). A leading \b or lookbehind makes it try every position, ~50x slower. So word boundaries are
# written as a lookbehind placed after the first character, word lists are emitted as tries, texts are
# lower-cased once instead of matching with re.I, and whitespace is collapsed so that no two unbounded
# quantifiers compete for the same characters (the cause of quadratic backtracking).

_L = r"[^\W\d_]"                       # a letter, any script
_END = r"(?!" + _L + r")"              # no letter follows


def _first(ch: str) -> str:
    """A word's first character, then the assertion that no letter precedes it (literal-first)."""
    return re.escape(ch) + r"(?<!" + _L + r".)"


def _trie(words: Iterable[str]) -> dict:
    root: dict = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    return root


def _emit(node: dict) -> str:
    alts = [re.escape(ch) + _emit(sub) for ch, sub in sorted(node.items()) if ch]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    if "" in node:
        return "(?:" + body + ")?"
    return body


def _words_re(words: Iterable[str], end: bool = True, boundary: bool = True) -> str:
    """A literal-first regex for a set of lower-case words or phrases (single spaces between words).

    Each alternative starts with its first character, then (boundary) asserts that no letter precedes it,
    so the engine can scan for the first characters quickly.
    """
    tops: dict[str, list[str]] = {}
    for w in set(words):
        tops.setdefault(w[0], []).append(w[1:])
    alts = []
    for ch, rests in sorted(tops.items()):
        rest = _emit(_trie(rests))
        alts.append((_first(ch) if boundary else re.escape(ch)) + rest)
    return "(?:" + "|".join(alts) + ")" + (_END if end else "")


_LEAD = r"[\W_]"     # a character that is neither a letter nor a digit (separates words inside tails)


def _combine(entries: Iterable[tuple[str, Iterable[str], str]]) -> re.Pattern | _Scripts:
    """One scan for many (kind, words, tail) entries: a word with no letter before or after it, then `tail`.

    A word ending in "*" is a stem (any letters may follow, `tail` comes after them). The words are grouped
    by first character, each followed by the no-letter-before lookbehind, so the engine scans for first
    characters and tests one alternative there; `m.lastgroup` is "kind__n" (see _kind). Words that start
    with a Latin character and the others get a pattern each (`_Scripts`) when both occur.
    """
    by_first: dict[str, dict[tuple[str, str], list[str]]] = {}
    for kind, words, tail in entries:
        for w in words:
            stem = w.endswith("*")
            w = w.rstrip("*")
            by_first.setdefault(w[0], {}).setdefault((kind, (_L + "*" if stem else _END) + tail), []).append(w[1:])
    alts: dict[bool, list[str]] = {True: [], False: []}
    n = 0
    for ch, groups in sorted(by_first.items()):
        inner = []
        for (kind, tail), rests in groups.items():
            n += 1
            inner.append(f"(?P<{kind}__{n}>" + _emit(_trie(rests)) + tail + ")")
        alts[ch < _SCRIPT_CUT].append(_first(ch) + "(?:" + "|".join(inner) + ")")
    parts = [re.compile("|".join(a)) for a in alts.values() if a]
    return parts[0] if len(parts) == 1 else _Scripts(parts)


# Below it, the Latin alphabet, ASCII and Latin-1 (and the other characters before Cyrillic).
_SCRIPT_CUT = "\u0400"


class _Scripts:
    """One alternation of words, compiled as one pattern per first-character script, that finds what the
    single pattern finds: `finditer` and `search` give the same matches (span, groups, lastgroup).

    Why: the engine tries the alternatives of the top-level branch one by one at every character of its
    first-character set, so a Cyrillic letter first fails every Latin alternative (and the other way
    round); split, each pattern skips the other script's letters in its fast scan. Exact, because no two
    parts can match at the same position (their first characters differ) and each keeps its alternatives
    in order: the single pattern's leftmost match from a position is the leftmost of the parts' matches.
    """

    def __init__(self, parts: list[re.Pattern]):
        self.parts = parts

    def search(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        found = [m for m in (rx.search(s, pos, endpos) for rx in self.parts) if m is not None]
        return min(found, key=re.Match.start) if found else None

    def finditer(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match]:
        pending = [rx.search(s, pos, endpos) for rx in self.parts]
        while True:
            first = min((m for m in pending if m is not None), key=re.Match.start, default=None)
            if first is None:
                return
            yield first
            pos = first.end()
            pending = [m if m is None or m.start() >= pos else rx.search(s, pos, endpos)
                       for rx, m in zip(self.parts, pending)]


def _word_set_re(words: Iterable[str]) -> re.Pattern:
    """Whole words (or phrases) of a set, anywhere; for guards over short strings."""
    return re.compile(r"(?<!" + _L + r")(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")" + _END)


def _kind(m: re.Match) -> str:
    return (m.lastgroup or "").rsplit("__", 1)[0]


# A run of letters (the words of a parameter value, rule 6; whether a look-up has an object, rule 7).
_LETTERS_RE = re.compile(_L + "+")


# ============================================================================ normalisation

_APOSTROPHES = ("’", "‘", "ʼ", "＇", "´")


# Two tables over all code points, for _nfkc (UAX #15 §9): `stable` - a code point before which NFKC may restart,
# so NFKC(s) == NFKC(s[:i]) + NFKC(s[i:]) when s[i] is one: ASCII, unassigned, private use or a surrogate (no
# decomposition, combining class 0, composes with nothing before it); `suspect` - an assigned code point that
# may change in NFKC or change its neighbours: not NFKC by itself, a non-zero combining class, or the second of a
# canonical pair (a combining mark, a Hangul vowel or final jamo, a vowel sign that composes). A stretch between
# two stable code points that holds no suspect is its own NFKC (nothing decomposes, reorders or composes).
# They come from Python's own unicodedata, cached per Unicode version in nfkc_tables.json (computing them reads
# every code point: ~0.7 s); test_fast_paths checks the file against the computation.
_NFKC_TABLES_FILE = Path(__file__).with_name("nfkc_tables.json")
_NFKC_DIRECT = 64        # a non-normalised text this short is normalised whole
_NFKC_GAP = 32           # suspect stretches closer than this are normalised together


def _nfkc_table_ranges() -> dict[str, list[list[int]]]:
    """{"stable": [[first, last], ...], "suspect": [...]}: the tables' code point ranges, computed from this
    Python's unicodedata (see above)."""
    seconds = {*range(0x1161, 0x1176), *range(0x11A8, 0x11C3)}     # Hangul V and T jamo: composed by algorithm
    for c in range(0x110000):
        d = unicodedata.decomposition(chr(c))
        if d and not d.startswith("<") and len(parts := d.split()) == 2:
            seconds.add(int(parts[1], 16))
    ranges: dict[str, list[list[int]]] = {"stable": [], "suspect": []}
    for c in range(0x110000):
        ch = chr(c)
        if c < 0x80 or unicodedata.category(ch) in ("Cn", "Co", "Cs"):
            kind = "stable"
        elif c in seconds or unicodedata.combining(ch) or not unicodedata.is_normalized("NFKC", ch):
            kind = "suspect"
        else:
            continue
        if ranges[kind] and ranges[kind][-1][1] == c - 1:
            ranges[kind][-1][1] = c
        else:
            ranges[kind].append([c, c])
    return ranges


@functools.cache
def _nfkc_tables() -> tuple[np.ndarray, np.ndarray]:
    """(stable, suspect) as boolean arrays indexed by code point: from nfkc_tables.json when it was written
    for this Python's Unicode version, else computed (once per process)."""
    try:
        saved = json.loads(_NFKC_TABLES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    ranges = saved.get(unicodedata.unidata_version) or _nfkc_table_ranges()
    tables = []
    for kind in ("stable", "suspect"):
        table = np.zeros(0x110000, dtype=bool)
        for first, last in ranges[kind]:
            table[first:last + 1] = True
        tables.append(table)
    return tables[0], tables[1]


@functools.lru_cache(maxsize=_TEXT_CACHE)      # the answer's facts and behaviour both start from it
def _nfkc(s: str) -> str:
    """unicodedata.normalize("NFKC", s), exactly, in time linear in len(s) with a small constant.

    Why: CPython composes every character of a string whose quick check fails (~130 ns each, 2 ms for 16 KB of
    random code points) even when one character needed it. Here only the stretches around suspect code points,
    each from the stable code point before it to the one after it, are normalised; the rest is kept as it is.
    """
    if s.isascii() or unicodedata.is_normalized("NFKC", s):
        return s                          # what normalize returns then, without its second quick check
    if len(s) <= _NFKC_DIRECT:
        return unicodedata.normalize("NFKC", s)
    stable, suspect = _nfkc_tables()
    codes = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    suspects = np.flatnonzero(suspect[codes])
    if not len(suspects):       # normalised already (is_normalized's quick check said "maybe")
        return s
    cuts = np.flatnonzero(stable[codes])
    # Each suspect's stretch: from the last cut before it (or 0) to the first cut after it (or the end); a suspect
    # is never stable, so searchsorted puts it strictly between two cuts. Stretches are in order (their starts
    # and ends never decrease); those less than _NFKC_GAP apart are normalised as one (exact: a union of stretches
    # between cuts is too), so a text dense with suspects takes a few calls, not one per suspect.
    k = np.searchsorted(cuts, suspects)
    starts = np.append(0, cuts)[k]
    ends = np.append(cuts, len(s))[k]
    new_run = np.flatnonzero(starts[1:] - ends[:-1] >= _NFKC_GAP) + 1
    parts: list[str] = []
    done = 0
    for lo, hi in zip(starts[np.append(0, new_run)].tolist(), ends[np.append(new_run - 1, len(ends) - 1)].tolist()):
        parts += (s[done:lo], unicodedata.normalize("NFKC", s[lo:hi]))
        done = hi
    parts.append(s[done:])
    return "".join(parts)


def _fold(s: str) -> str:
    """NFKC + casefold + ё->е: the form phrases are compared in."""
    return _nfkc(s).casefold().replace("ё", "е")
