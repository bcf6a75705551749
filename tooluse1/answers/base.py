"""Shared low-level helpers of the text-answer rules (tooluse1.answers): budgets, the non-empty test
(rule 1), regex building blocks and normalisation. Every rule module imports from here; this module
imports no other module of the package but tooluse1.codepoints.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np

from tooluse1.codepoints import code_points


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


def _combine(entries: Iterable[tuple[str, Iterable[str], str]]) -> _WordPattern:
    """One scan for many (kind, words, tail) entries: a word with no letter before or after it, then `tail`.

    A word ending in "*" is a stem (any letters may follow, `tail` comes after them). The words are grouped
    by first character, each followed by the no-letter-before lookbehind, so the engine scans for first
    characters and tests one alternative there; `m.lastgroup` is "kind__n" (see _kind). Words that start
    with a Latin character and the others get a pattern each when both occur; a long text is scanned through
    its word index (`_WordPattern`).
    """
    by_first: dict[str, dict[tuple[str, str], list[str]]] = {}
    prefixes: list[tuple[str, bool]] = []
    for kind, words, tail in entries:
        for w in words:
            stem = w.endswith("*")
            w = w.rstrip("*")
            prefixes.append((w, stem))
            by_first.setdefault(w[0], {}).setdefault((kind, (_L + "*" if stem else _END) + tail), []).append(w[1:])
    alts: dict[bool, list[str]] = {True: [], False: []}
    branches: dict[str, str] = {}
    n = 0
    for ch, groups in sorted(by_first.items()):
        inner = []
        for (kind, tail), rests in groups.items():
            n += 1
            inner.append(f"(?P<{kind}__{n}>" + _emit(_trie(rests)) + tail + ")")
        branches[ch] = _first(ch) + "(?:" + "|".join(inner) + ")"
        alts[ch < _SCRIPT_CUT].append(branches[ch])
    return _WordPattern([re.compile("|".join(a)) for a in alts.values() if a], prefixes, branches)


# Below it, the Latin alphabet, ASCII and Latin-1 (and the other characters before Cyrillic).
_SCRIPT_CUT = "\u0400"
# A text at least this long is scanned through its word index (_WordPattern); a shorter one by the patterns, whose
# scan is then cheaper than building the index (~0.1 ms).
_INDEX_MIN = 2048
_KEY_CHARS = 4          # a word is recognised in the index by (up to) its first four characters
_SPARE_BITS = 10        # a pattern's table of word hashes has 2 ** 10 entries per key or more: few collisions
_NOT_LETTER = 0x110000  # what every character that is not a letter counts as in a key (no code point)
_DENSE = 10             # the index is used where at least 1 character in 10 is a Latin or Cyrillic small letter
# A text where at most 1 character in _SPARSE can start a word (`_can_start`) is scanned at those characters only
# (_WordPattern): a Python step and a `match` per position (~0.5 us) against the engine's ~2 ns per character it
# skips. What can start a word: a small Latin letter, an apostrophe, or any character from U+00C0 to below
# _SPARSE_TOP (the Latin letters with marks, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic and Georgian letters
# among them); not digits, punctuation, capitals (the patterns read lower-cased text), CJK, emoji.
_SPARSE_TOP = 0x2000
_SPARSE = 64


def _can_start(codes: np.ndarray) -> np.ndarray:
    """For each code point, whether a word of a sparse-scanned pattern may start with it (see above)."""
    return (codes - ord("a") <= ord("z") - ord("a")) | (codes == ord("'")) | (codes - 0xC0 < _SPARSE_TOP - 0xC0)
# The index is built in two parts, the text's first _HEAD characters, then the rest when a scan gets past them: a
# scan that stops at an early match (a clarify answer's first claim, say) indexes no more than its head.
_HEAD = 2048


class _WordPattern:
    """A word alternation built by _combine: `finditer` and `search` find what the one pattern of all its
    alternatives finds (span, groups, lastgroup), in the same order.

    Why: the engine tries the alternatives of the top-level branch one by one at every character of its
    first-character set, inside words too (~1 ms for 16 KB of prose). Two things cut that, both exact:
    - one pattern per first-character script (`parts`): a Cyrillic letter then fails no Latin alternative
      (and the other way round); no two parts can match at one position (their first characters differ) and
      each keeps its alternatives in order, so the leftmost of the parts' matches is the single pattern's;
    - over a long text, only the positions where a word of the alternation can start are tried
      (`_candidates`): no letter before it, and, for a word that starts with a letter, its first `_KEY_CHARS`
      characters those of one of the words (a shorter word: all of them, then no letter unless it is a stem),
      with every character that is not a letter counted as one and the same, compared by a hash (a collision
      only adds a position); for a word that starts with another character (" 'll be at your door"), that
      character. Every match starts at such a position (a match is one of the words, literally, then its
      tail), so matching at each of them in order finds the same matches;
    - over a long text with few characters that can start a word (`_can_start`: random code points, say, ~1 in
      140; or `{" ":{" ":` nesting, none), where the index is not worth building (`_TextIndex.useful`), a pattern
      whose words all start with such characters is tried only at the positions of its words' first characters
      (`_sparse_candidates`): a match starts with one of them.
    At each candidate position only the branch of the character there is tried (`_branch_matchers`): the branches
    of a part start with different characters, so no other can match there.
    """

    def __init__(self, parts: list[re.Pattern], prefixes: Iterable[tuple[str, bool]], branches: dict[str, str]):
        self.parts = parts
        # Each first character's branch of the parts, alone: at a position holding that character only it can
        # match, and it matches there what the whole part matches (the same span and named groups: every group is
        # named), in about half the time (the part tries every branch in turn, and sets up all its groups).
        self._branch_matchers = {ord(ch): re.compile(rx).match for ch, rx in branches.items()}
        prefixes = list(prefixes)
        self._keys: list[list[int]] = []          # each word's key: its first characters as the index reads them
        odd_firsts: set[int] = set()             # the first characters of the words that start with no letter
        for w, stem in prefixes:
            if not _LETTERS_RE.match(w):
                odd_firsts.add(ord(w[0]))
                continue
            key = [ord(c) if _LETTERS_RE.fullmatch(c) else _NOT_LETTER for c in w[:_KEY_CHARS]]
            if len(w) < _KEY_CHARS and not stem:
                key.append(_NOT_LETTER)           # a whole word: no letter follows it
            self._keys.append(key)
        self._odd_firsts = tuple(sorted(odd_firsts))
        firsts = sorted({ord(w[0]) for w, _ in prefixes})
        # Whether each code point below _SPARSE_TOP is a word's first character; None unless each can start one.
        self._sparse_firsts: np.ndarray | None = None
        if firsts and _can_start(np.array(firsts, dtype=np.uint32)).all():
            self._sparse_firsts = np.zeros(_SPARSE_TOP, dtype=bool)
            self._sparse_firsts[firsts] = True
        self._tables: list[tuple[int, np.ndarray, np.uint64]] | None = None     # built for the first long text
        # the last long text and, per part of its index, the candidate positions and the `match` of the part of
        # the pattern that applies at each
        self._last: tuple[str, list[tuple[list[int], list[Callable[..., re.Match | None]]] | None]] | None = None
        self._last_sparse: tuple[str, tuple[list[int], list[Callable[..., re.Match | None]]]] | None = None

    def _key_tables(self) -> list[tuple[int, np.ndarray, np.uint64]]:
        """For each size of key: (the size, which hashes are those of a key of that size, the shift that takes a
        hash to its entry). A table per size: a position is looked up once per size, each time only among the keys
        of that size (one table for all let the hash of a common two-letter start, "эт", meet that of the key
        "i " and made every "это" a candidate)."""
        if self._tables is None:
            by_size: dict[int, list[list[int]]] = {}
            for key in self._keys:
                by_size.setdefault(len(key), []).append(key)
            tables = []
            for size, keys in sorted(by_size.items()):
                bits = min(len(keys).bit_length() + _SPARE_BITS, 20)
                shift = np.uint64(64 - bits)
                table = np.zeros(1 << bits, dtype=bool)
                for key in keys:
                    table[_prefix_hashes([np.array([c], dtype=np.uint64) for c in key])[-1] >> shift] = True
                tables.append((size, table, shift))
            self._tables = tables
        return self._tables

    def _candidates(self, s: str, part: int) -> tuple[list[int], list[Callable[..., re.Match | None]]]:
        """The positions in one part of `s` (0: its head, 1: the rest; see _HEAD), in order, where a match can
        start (see the class docstring), and at each the `match` of the pattern's part whose first characters
        its character is among."""
        last = self._last            # one reference throughout: another thread may start another text meanwhile
        if last is None or last[0] is not s:
            last = self._last = (s, [None, None])
        found = last[1][part]
        if found is not None:
            return found
        index = _text_index(s).part(part)
        at, firsts = index.word_starts, index.word_firsts
        if self._keys:
            tables = self._key_tables()
            size, table, shift = tables[0]
            ok = table[index.hashes[size - 1] >> shift]
            for size, table, shift in tables[1:]:
                ok |= table[index.hashes[size - 1] >> shift]
            at, firsts = at[ok], firsts[ok]
        else:
            at, firsts = at[:0], firsts[:0]
        if self._odd_firsts:
            odd_at, odd_firsts = index.others(self._odd_firsts)
            at = np.concatenate((at, odd_at))
            firsts = np.concatenate((firsts, odd_firsts))
            order = np.argsort(at, kind="stable")
            at, firsts = at[order], firsts[order]
        found = last[1][part] = self._with_matchers(at, firsts)
        return found

    def _sparse_candidates(self, s: str) -> tuple[list[int], list[Callable[..., re.Match | None]]]:
        """The positions in `s`, in order, of its characters that are a first character of one of the words (a
        text with a sparse index; see the class docstring), and at each the `match` of the pattern's part that
        applies there."""
        last = self._last_sparse
        if last is not None and last[0] is s:
            return last[1]
        sparse = _text_index(s).sparse
        assert sparse is not None and self._sparse_firsts is not None      # see _route
        at, firsts = sparse
        ok = self._sparse_firsts[firsts]
        found = self._with_matchers(at[ok], firsts[ok])
        self._last_sparse = s, found
        return found

    def _with_matchers(self, at: np.ndarray,
                       firsts: np.ndarray) -> tuple[list[int], list[Callable[..., re.Match | None]]]:
        """The positions `at` as a list, and for each the `match` of the branch of its first character (`firsts`),
        or `_no_match` where no word starts with that character."""
        return at.tolist(), list(map(self._branch_matchers.get, firsts.tolist(), itertools.repeat(_no_match)))

    def _route(self, s: str, pos: int, endpos: int) -> str | None:
        """How a scan of s[pos:endpos] goes: "index" (through the text's word index), "sparse" (at its few
        characters that can start a word) or None (the parts' own scans). Only a long scan (a window of
        _INDEX_MIN characters or more of a long text) goes through the index."""
        if min(endpos, len(s)) - pos < _INDEX_MIN:
            return None
        index = _text_index(s)
        if index.useful:
            return "index"
        if index.sparse is not None and self._sparse_firsts is not None:
            return "sparse"
        return None

    def search(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        if self._route(s, pos, endpos) is None:
            found = [m for m in (rx.search(s, pos, endpos) for rx in self.parts) if m is not None]
            return min(found, key=re.Match.start) if found else None
        return next(self.finditer(s, pos, endpos), None)

    def finditer(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match]:
        route = self._route(s, pos, endpos)
        if route is None:
            yield from self.scan(s, pos, endpos)
            return
        end = min(endpos, len(s))
        if route == "sparse":
            yield from _matches_at(s, *self._sparse_candidates(s), pos, end, end)
            return
        # A key reads up to _KEY_CHARS characters from its position: those closer than that to the end of a window
        # that the text goes on after read past it, where the match sees the end. They are tried by every part.
        keyed_to = end if end == len(s) else end - (_KEY_CHARS - 1)
        for part in (0, 1):
            if part == 0 and pos >= _HEAD or part == 1 and keyed_to <= _HEAD:
                continue
            for m in _matches_at(s, *self._candidates(s, part), pos, keyed_to, end):
                yield m
                pos = m.end()
        for start in range(max(pos, keyed_to), end):
            for rx in self.parts if start >= pos else ():
                at = rx.match(s, start, end)
                if at is not None:
                    yield at
                    pos = at.end()
                    break

    def scan(self, s: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match]:
        """The matches by the parts' own scans, without the text's index: for a text only this pattern reads
        (the index pays for itself over the several patterns that read one text)."""
        if len(self.parts) == 1:
            yield from self.parts[0].finditer(s, pos, endpos)
            return
        pending = [rx.search(s, pos, endpos) for rx in self.parts]
        while True:
            first = min((m for m in pending if m is not None), key=re.Match.start, default=None)
            if first is None:
                return
            yield first
            pos = first.end()
            pending = [m if m is None or m.start() >= pos else rx.search(s, pos, endpos)
                       for rx, m in zip(self.parts, pending)]


def _no_match(s: str, pos: int, end: int) -> None:
    """The `match` at a candidate whose character starts no word (a hash collision): there is none."""
    return None


def _matches_at(s: str, starts: list[int], matchers: list[Callable[..., re.Match | None]], pos: int, stop: int,
                end: int) -> Iterator[re.Match]:
    """The matches of matchers[i] at starts[i] (in order) for pos <= starts[i] < stop, each in s[:end], none
    overlapping the one before (as `finditer` finds them: no match is empty)."""
    for i in range(bisect.bisect_left(starts, pos), len(starts)):
        start = starts[i]
        if start >= stop:
            return
        if start >= pos:
            m = matchers[i](s, start, end)
            if m is not None:
                yield m
                pos = m.end()


# Odd multipliers of a multiplicative hash, one per character of a key (_KEY_CHARS).
_MIX = tuple(np.uint64(m) for m in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93))
assert len(_MIX) >= _KEY_CHARS


def _prefix_hashes(chars: list[np.ndarray]) -> list[np.ndarray]:
    """[h1, h2, ...]: hk the 64-bit hash of the first k characters (its top bits are a table's entry), for
    arrays of characters (as uint64) side by side: chars[i] the (i+1)-th character of each key. Equal
    characters, equal hashes."""
    h = np.zeros(len(chars[0]), dtype=np.uint64)
    out = []
    for c, mix in zip(chars, _MIX):
        h = (h ^ c) * mix               # wraps around: arithmetic modulo 2 ** 64
        out.append(h)
    return out


class _TextIndex:
    """Where words can start in one text (see _WordPattern), in two parts: its first _HEAD characters and the
    rest, each built when first asked for. `useful`: whether the text is worth an index at all."""

    def __init__(self, s: str):
        self._s = s
        codes = code_points(s)
        # Worth building only where the patterns' own scans are slow: where their first characters (Latin and
        # Cyrillic letters) are common. Random code points, say, hold few: their scans skip nearly everything.
        tried = np.count_nonzero((codes - ord("a") <= ord("z") - ord("a")) | (codes - ord("а") <= ord("ё") - ord("а")))
        self.useful = bool(tried * _DENSE >= len(s))
        self._codes = codes if self.useful else None
        # Where the index is not useful: the positions of the characters that can start a word and those characters,
        # when at most 1 in _SPARSE can (see _WordPattern); else None.
        self.sparse: tuple[np.ndarray, np.ndarray] | None = None
        if not self.useful:
            low = np.flatnonzero(_can_start(codes))
            if len(low) * _SPARSE <= len(s):
                self.sparse = low, codes[low]
        self._parts: list[_IndexPart | None] = [None, None]

    def part(self, k: int) -> _IndexPart:
        """Part k of the index (0: the positions before _HEAD, 1: the others)."""
        found = self._parts[k]
        if found is None:
            lo, hi = (0, min(_HEAD, len(self._s))) if k == 0 else (_HEAD, len(self._s))
            assert self._codes is not None                          # a useful index keeps the text's code points
            found = self._parts[k] = _IndexPart(self._codes, lo, hi)
        return found


class _IndexPart:
    """The positions lo <= p < hi of a text with no letter before them: `word_starts`, those holding a letter,
    with `word_firsts` their characters and `hashes[j - 1]` the hash of the j characters from each, letters as
    they are and every other character as _NOT_LETTER; `others(firsts)`, those holding one of the given
    characters that are no letters."""

    def __init__(self, text_codes: np.ndarray, lo: int, hi: int):
        back = 1 if lo else 0          # the character before the part: whether its first position starts a word
        codes = np.concatenate((text_codes[lo - back:hi + _KEY_CHARS],
                                np.zeros(_KEY_CHARS, dtype=np.uint32)))   # past the text's end: no letters
        letter = _letter_table()[codes]
        n = max(hi - lo, 0)
        no_letter_before = np.empty(n, dtype=bool)              # at piece positions back .. back + n - 1
        if back:
            np.logical_not(letter[:n], out=no_letter_before)
        elif n:
            no_letter_before[0] = True
            np.logical_not(letter[:n - 1], out=no_letter_before[1:])
        at = np.flatnonzero(no_letter_before & letter[back:back + n]) + back        # piece positions
        self.word_starts, self.word_firsts = at - back + lo, codes[at]
        as_read = np.where(letter, codes, np.uint32(_NOT_LETTER))       # each character as a key reads it
        self.hashes = _prefix_hashes([as_read[at + i] for i in range(_KEY_CHARS)])
        self._piece = codes[back:back + n], no_letter_before, lo
        self._others: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def others(self, firsts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The positions with no letter before them that hold one of `firsts` (no letters), and their characters."""
        found = self._others.get(firsts)
        if found is None:
            codes, no_letter_before, lo = self._piece
            held = codes == firsts[0]
            for c in firsts[1:]:
                held |= codes == c
            at = np.flatnonzero(held & no_letter_before)
            found = self._others[firsts] = at + lo, codes[at]
        return found


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _text_index(s: str) -> _TextIndex:
    return _TextIndex(s)


@functools.cache
def _letter_table() -> np.ndarray:
    """Whether each code point is a letter as the patterns read one (`_L`): found by the regex itself over every
    code point (~50 ms, once per process)."""
    every = np.arange(0x110000, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")
    table = np.zeros(0x110000, dtype=bool)
    for m in _LETTERS_RE.finditer(every):
        table[m.start():m.end()] = True
    return table


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


class _StagedTable:
    """A table of small integers over all code points, kept in blocks of 256: `table[codes]` is what the flat table
    (0x110000 entries) gives. Why: random code points read a flat 1.1 MB table with a cache miss each (16 KB of
    them: ~0.15 ms when it is not cached, as in a run that grades other answers in between); its distinct blocks
    and the blocks' index take a few tens of KB, and two small reads replace the one that misses."""

    def __init__(self, flat: np.ndarray):
        distinct: dict[bytes, int] = {}         # each distinct block's bytes, and its number in order of appearance
        numbers = [distinct.setdefault(block.tobytes(), len(distinct)) for block in flat.reshape(-1, 256)]
        self._index = np.array(numbers, dtype=np.uint32) << np.uint32(8)     # each block's offset in _values
        self._values = np.frombuffer(b"".join(distinct), dtype=flat.dtype)

    def __getitem__(self, codes: np.ndarray) -> np.ndarray:
        return self._values[self._index[codes >> 8] | (codes & 0xFF)]


_NFKC_STABLE, _NFKC_SUSPECT = 1, 2       # the bits of _nfkc_table's entries


@functools.cache
def _nfkc_table() -> _StagedTable:
    """Each code point's kinds (_NFKC_STABLE, _NFKC_SUSPECT) as bits: from nfkc_tables.json when it was written for
    this Python's Unicode version, else computed (once per process)."""
    try:
        saved = json.loads(_NFKC_TABLES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    ranges = saved.get(unicodedata.unidata_version) or _nfkc_table_ranges()
    flat = np.zeros(0x110000, dtype=np.uint8)
    for kind, bit in (("stable", _NFKC_STABLE), ("suspect", _NFKC_SUSPECT)):
        for first, last in ranges[kind]:
            flat[first:last + 1] |= bit
    return _StagedTable(flat)


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
    kinds = _nfkc_table()[code_points(s)]
    suspects = np.flatnonzero(kinds & _NFKC_SUSPECT)
    if not len(suspects):       # normalised already (is_normalized's quick check said "maybe")
        return s
    cuts = np.flatnonzero(kinds & _NFKC_STABLE)
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
