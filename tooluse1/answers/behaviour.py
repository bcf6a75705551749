"""Rule 4 of the text-answer checks (tooluse1.answers): the model's own words, with quotes, code and
drafts blanked, and the sentences and clauses the behaviour rules (5-8) read.

4. Behaviour (rules 5-8) is read from the model's own words: text inside quotation marks («…», “…”, „…“,
   "…"), code (`…`, ```…```) and Markdown blockquote lines ("> …") is blanked first, so a quoted draft or
   a repeated request is neither a refusal, a claim, nor a question. Sentences end at . ! ? … followed by
   a space or the end (not "e.g.5" or "/search?city=") and at line breaks, so list items are sentences of
   their own; clauses also end at , ; : ( ) and dashes.
   4a. Quoted material is part of what the answer SAYS but not of what the model DOES. Facts (rules 2-3)
   read the whole answer, quotes and code included, and also the calls the answer shows as examples
   (`with_quoted_calls`: grade() appends each example call as a fenced JSON block, so "Here's what a call
   looks like:" + an example naming target_language names the language). A draft the model offers the
   user is the user's words: after a lead that presents text for the user ("you could send this:",
   "here's a draft:", "something like:", "вот черновик:", "можете написать так:"; not "for example:") and its
   colon, the draft runs to the end of that line when it starts on it (to its closing quotation mark when it
   opens with one), else over the following block to the end of the answer or to a later paragraph where the
   model speaks to the user again ("Feel free…", "Let me know…", "Хотите…", "Если нужно…"); a block that opens
   with a quotation mark ends at its closing mark («Добрый день! …» then "Сам отправить письмо я не могу").
   "I can't send emails, but you could send this: … I've already started on the report" claims nothing; a
   claim after the draft still counts. A sentence that says one of the user's sentences back (rule 6's echo)
   is the user's words too: an echoed "…что я сегодня заболел и не выйду" is not the model declining.
"""
from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from tooluse1.answers.base import (_APOSTROPHES, _combine, _END, _MAX_CANDIDATES, _nfkc, _TEXT_CACHE, _WINDOW,
                                   _WordPattern)
from tooluse1.codepoints import code_points, four_bytes_per_character, LONG_TEXT


# ============================================================================ behaviour text (rule 4)

# Quoted material and code are not the model's own statements. Closed pairs only; and Markdown
# blockquote lines ("> Hi boss, I'll be late…"), the usual form of a draft. One substitution per kind of
# delimiter, fences first (a quote inside code is code), each with a literal replacement: a pattern that
# starts with a group, or a replacement template, costs a Python step per position or per match (1 MB of
# `"a" ` took 0.9 s that way; this way 10 ms). Each replacement starts with the character every match of its
# pattern starts with.
_QUOTED_SUBS = tuple((re.compile(rx), blank) for rx, blank in (
    (r"```[\s\S]*?```", "``` ```"), (r"`[^`\n]*`", "` `"), (r"«[^«»]*»", "« »"), (r"“[^“”]*”", "“ ”"),
    (r"„[^„“”]*“", "„ “"), (r"„[^„“”]*”", "„ ”"), (r'"[^"]*"', '" "')))
_BLOCKQUOTE_RE = re.compile(r"\n[ \t]*>[^\n]*")
# Markdown emphasis markers say nothing: "I've **set** a timer" is "I've set a timer". An emoji between two
# sentences ends the first ("I've set a timer ✅ How long…"): pictographs and dingbats, with their joiners.
# Not a list's "* " bullet: `*+(?! )|(?<=\S)*+|(?<![^\W_])_+|_+(?![^\W_])`, each alternative written to start
# with its literal (`x+` as `xx*`, a lookbehind moved after the first character and widened by it): the same
# matches at the same positions in the same order, but the engine scans for [*_] instead of trying four
# alternatives at every character (12x faster on the fuzz answers).
_EMPHASIS_RE = re.compile(r"\*\**(?! )|\*(?<=\S\*)\**|_(?<![^\W_]_)_*|__*(?![^\W_])")
# The ranges _EMOJI_RE's matches start in: (first, count). A long text holding none of them skips the sub (a
# class scan of every character, ~0.15 ms on 16 KB of Cyrillic); _marks tells (see there).
_PICTOGRAPH_RANGES = ((0x2600, 0x1C0), (0x2B00, 0x100), (0x1F000, 0xB00))
_EMOJI_JOINERS = "\u200d\ufe0f"     # what _EMOJI_RE's matches go on with, besides pictographs
_PICTOGRAPH_CLASS = "".join(f"{chr(first)}-{chr(first + count - 1)}" for first, count in _PICTOGRAPH_RANGES)
_EMOJI_RE = re.compile(f"[{_PICTOGRAPH_CLASS}][{_EMOJI_JOINERS}{_PICTOGRAPH_CLASS}]*")
# Whitespace other than a single space or a line break (tabs, runs of spaces): one space. That is, every
# maximal run of `[^\S\n]` characters two or more long, or of one other than " ", becomes one space; done as
# each odd space (what `[^\S \n]` matches: str.isspace() but " " and "\n", every one of them below U+3001,
# tests_grader/test_fast_paths.py) replaced by " ", then each run of spaces by one. `c in s` for each odd space
# is a memchr (~30 us on 16 KB for all of them), and the runs' pattern starts with a literal: the engine jumps
# from one double space to the next instead of stopping at every space (the class scan took 0.15-0.3 ms).
_ODD_SPACES = tuple(c for c in map(chr, range(0x3001)) if c.isspace() and c not in " \n")
_SPACE_RUN_RE = re.compile("  +")
_NL_RUN_RE = re.compile(r"\n\s+")


@dataclass(frozen=True)
class _Behaviour:
    text: str      # " " + NFKC, ё->е, apostrophes unified, quotes and code blanked, whitespace collapsed
    low: str       # the same, lower-cased (what the detectors match); same length as text


# A draft the model offers the user ("you could send this: Hi, I'm running late… I've already started on the
# report") is the user's words, not the model's: from the colon after a lead that presents text for the user
# to the end of that line when the draft starts on it; else (a block after "Here's a draft:") to the end of
# the answer, or to a later paragraph in which the model speaks to the user again ("Feel free…", "Хотите…").
_DRAFT_LEADS = (
    "you could send", "you can send", "you could write", "you can write", "you could say", "you can say",
    "you might say", "you might write", "you could use", "you can use", "you could reply", "you can reply",
    "something like", "something along", "draft", "template",
    "here's a message", "here is a message", "here's an email", "here is an email", "here's a note",
    "here is a note", "here's a text", "here's what you", "here is what you", "feel free to send", "copy",
    "черновик", "шаблон", "можно написать", "можете написать", "можно отправить",
    "можете отправить", "можно сказать", "можете сказать", "вот текст", "вот письмо", "вот сообщение",
    "вот вариант", "примерно так", "такой текст", "следующий текст")
_DRAFT_LEAD_RE = _combine([("d", _DRAFT_LEADS, "")])
_DRAFT_COLON_RE = re.compile(r":(?=\s)")
_DRAFT_COLON_REACH = 120       # a lead's colon is looked for this far after it
# A long text is scanned for leads only before its colons (_draft_leads), up to this length: a lead is four letters
# or more with no letter before it, so a shorter text holds fewer leads than the scan's cap (_MAX_CANDIDATES),
# which would otherwise stop the full scan and the windowed one at different leads.
_DRAFT_WINDOWS_MAX = (min(map(len, _DRAFT_LEADS)) + 1) * _MAX_CANDIDATES - 2
_DRAFT_LEAD_CHARS = max(map(len, _DRAFT_LEADS))
_DRAFT_END_RE = re.compile(r"\n[ \t]*\n[ \t]*(?=(?:feel free|let me know|want me|would you like|shall i|should i|"
                           r"if you|hope|i hope|note|alternatively|is there|i don't|i do not|i can't|"
                           r"i cannot|i'm not|i am not|i'm unable|i am unable|unfortunately|sorry|since i|as i|я не|"
                           r"к сожалению|увы|хотите|если|могу|дайте знать|надеюсь|"
                           r"обратите|при желании|нужно ли)" + _END + ")", re.IGNORECASE)
# Behaviour (rules 5-8) is read from the first 32,768 characters of the answer: a reply at the default
# 256-token limit is 1-2 KB, and no real answer states its refusal or its question after 32 KB of text.
# This is what keeps a 1 MB answer under the 100 ms of SPEC §3.1; facts (rules 2-3) read the whole answer.
_BEHAVIOUR_CHARS = 32_768


_DRAFT_QUOTES = {'"': '"', "\u201c": "\u201d", "\u00ab": "\u00bb", "\u201e": "\u201c"}


def _quoted_draft_end(s: str, start: int, line_end: int) -> int:
    """Where a draft that starts on its lead's line ends: at the closing mark when it opens with a quotation
    mark (the model speaks again after it: `say this: "Hi…" I can't place the order myself.`), else at
    `line_end`."""
    i = start
    while i < line_end and s[i] in " \t":
        i += 1
    closer = _DRAFT_QUOTES.get(s[i]) if i < line_end else None
    close = s.find(closer, i + 1, line_end) if closer else -1
    return close + 1 if close >= 0 else line_end


def _blank_drafts(s: str) -> str:
    """s with every draft offered to the user replaced by a blank quote (see _DRAFT_LEAD_RE): a lead, then a
    colon later in its sentence (within 120 characters). One scan for leads; linear."""
    out: list[str] = []
    pos = 0
    low = s.lower()
    for lead in itertools.islice(_draft_leads(s, low), _MAX_CANDIDATES):
        if lead.start() < pos:
            continue
        limit = min(len(s), lead.end() + _DRAFT_COLON_REACH)
        colon = _DRAFT_COLON_RE.search(s, lead.end(), limit)
        if colon is None or _SENT_END_RE.search(low, lead.end(), colon.start()):
            continue
        line_end = s.find("\n", colon.end())
        if line_end < 0:
            line_end = len(s)
        if s[colon.end():line_end].strip():         # the draft starts on the lead's line: it is that line
            end = _quoted_draft_end(s, colon.end(), line_end)
        else:
            first = len(s) - len(s[colon.end():].lstrip())
            if first < len(s) and s[first] in _DRAFT_QUOTES:     # a quoted block: the draft ends at its quote
                next_end = s.find("\n", first)
                end = _quoted_draft_end(s, first, len(s) if next_end < 0 else next_end)
            else:                                   # a block: up to the model speaking again, or the end
                end_m = _DRAFT_END_RE.search(s, colon.end())
                end = end_m.start() if end_m else len(s)
        out.append(s[pos:colon.end()] + '" "')
        pos = end
    return "".join(out) + s[pos:] if out else s


def _draft_leads(s: str, low: str) -> Iterator[re.Match]:
    """The matches of _DRAFT_LEAD_RE in `low` (s lower-cased) that _blank_drafts reads, in order: in a short text
    all of them (a scan of a text of its own: no index); in a long one only those in the stretches that end at a
    colon before whitespace and start _DRAFT_COLON_REACH characters and a lead's length before it, where every lead
    with a colon after it lies (16 KB of random text with colons: ~90 -> ~10 us). Exact because no lead holds
    another starting at one of its later words (test_fast_paths), so the scan of a stretch finds the full scan's
    leads there, and a stretch ends at a ":", which no lead holds; the scan's cap cannot bind below
    _DRAFT_WINDOWS_MAX characters."""
    if len(s) < LONG_TEXT or len(s) > _DRAFT_WINDOWS_MAX or len(low) != len(s):
        yield from _DRAFT_LEAD_RE.scan(low)
        return
    before = _DRAFT_COLON_REACH + _DRAFT_LEAD_CHARS
    windows: list[list[int]] = []
    for colon in _DRAFT_COLON_RE.finditer(s):
        lo, hi = max(0, colon.start() - before), colon.start() + 1
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = hi
        else:
            windows.append([lo, hi])
    if sum(hi - lo for lo, hi in windows) * 2 > len(s):     # colons all over it: one scan costs less
        yield from _DRAFT_LEAD_RE.scan(low)
        return
    for lo, hi in windows:
        yield from _DRAFT_LEAD_RE.scan(low, lo, hi)


@functools.lru_cache(maxsize=_TEXT_CACHE)
def _behaviour(text: str) -> _Behaviour:
    s = _nfkc(text[:_BEHAVIOUR_CHARS]).replace("ё", "е").replace("Ё", "Е")
    marks = _marks(s)       # the steps below add none of these characters: looked for once, here
    for a in marks.apostrophes:
        if a in s:
            s = s.replace(a, "'")
    for rx, blank in _QUOTED_SUBS:
        if blank[0] in s:        # what each match starts with; `in` is a memchr, the pattern's own scan is not
            s = rx.sub(blank, s)
    if "*" in s or "_" in s:
        s = _EMPHASIS_RE.sub("", s)
    if marks.pictographs:
        s = _EMOJI_RE.sub(".", s) if len(s) < LONG_TEXT else _emoji_to_dots(s)
    if _DRAFT_COLON_RE.search(s):       # a draft follows a colon before a space ("14:00" leads to none)
        s = _blank_drafts(s)
    if ">" in s:
        s = _BLOCKQUOTE_RE.sub("\n> ", "\n" + s)[1:]
    s = _one_space(s, marks.odd_spaces)
    s = " " + _NL_RUN_RE.sub("\n", s).replace(" \n", "\n")
    low = s.lower()
    return _Behaviour(s if len(s) == len(low) else low, low)


@dataclass(frozen=True)
class _Marks:
    """Characters of three kinds that may be in a text (a superset of those that are): apostrophes other than
    "'" (_APOSTROPHES), whether a pictograph (_PICTOGRAPH_RANGES), odd spaces (_ODD_SPACES)."""

    apostrophes: tuple[str, ...]
    pictographs: bool
    odd_spaces: tuple[str, ...]


_ALL_MARKS = _Marks(_APOSTROPHES, True, _ODD_SPACES)
_NO_PICTOGRAPH_MARKS = _Marks(_APOSTROPHES, False, _ODD_SPACES)
_ASCII_MARKS = _Marks((), False, tuple(c for c in _ODD_SPACES if c.isascii()))
_APOSTROPHE_BIT, _PICTOGRAPH_BIT, _ODD_SPACE_BIT = 1, 2, 4
_EMOJI_JOINS = 256                  # _emoji_to_dots replaces at most this many matches itself
_MARKS_TOP = max(first + count for first, count in _PICTOGRAPH_RANGES)   # every mark is below it
# The span of the pictograph ranges below U+10000 (first, end): where a text without astral characters is looked
# up in _mark_table for pictographs.
_BMP_PICTOGRAPHS = (min(f for f, _ in _PICTOGRAPH_RANGES if f < 0x10000),
                    max(f + c for f, c in _PICTOGRAPH_RANGES if f < 0x10000))


@functools.cache
def _mark_table() -> np.ndarray:
    """Each code point's kinds of mark as bits, for code points below _MARKS_TOP (any other: the last entry, 0)."""
    table = np.zeros(_MARKS_TOP + 1, dtype=np.uint8)
    for a in _APOSTROPHES:
        table[ord(a)] |= _APOSTROPHE_BIT
    for first, count in _PICTOGRAPH_RANGES:
        table[first:first + count] |= _PICTOGRAPH_BIT
    for c in _ODD_SPACES:
        table[ord(c)] |= _ODD_SPACE_BIT
    return table


def _emoji_to_dots(s: str) -> str:
    """`_EMOJI_RE.sub(".", s)`, exactly, from the code points of a long text: that pattern's class scan tests every
    character (~0.13 ms for 16 KB of random code points, ~50 matches); numpy finds the pictographs and joiners
    (~40 us), and where there are few matches (_EMOJI_JOINS) only they are looked at. A match starts at a
    pictograph and takes every pictograph and joiner after it; so in each maximal run of pictographs and joiners,
    one match runs from its first pictograph to the run's end (the joiners before that pictograph match nothing)."""
    codes = code_points(s)
    pictograph = np.zeros(len(s), dtype=bool)
    for first, count in _PICTOGRAPH_RANGES:
        pictograph |= codes - first < count           # unsigned: below `first` wraps round to large
    in_run = pictograph.copy()
    for c in _EMOJI_JOINERS:
        in_run |= codes == ord(c)
    at = np.flatnonzero(in_run)
    breaks = np.flatnonzero(np.diff(at) != 1)
    run_first = np.append(0, breaks + 1)           # each run's first and last entry in `at`
    run_last = np.append(breaks, len(at) - 1)
    pictographs = np.flatnonzero(pictograph[at])   # the entries of `at` that are pictographs
    k = np.searchsorted(pictographs, run_first)
    run_pictograph = np.append(pictographs, len(at))[k]     # each run's first pictograph entry (len(at): none)
    held = run_pictograph <= run_last
    if np.count_nonzero(held) > _EMOJI_JOINS:
        return _EMOJI_RE.sub(".", s)        # dense with emoji: the engine's replacements cost less than a join each
    out: list[str] = []
    done = 0
    for start, end in zip(at[run_pictograph[held]].tolist(), (at[run_last[held]] + 1).tolist()):
        out += (s[done:start], ".")
        done = end
    out.append(s[done:])
    return "".join(out)


def _marks(s: str) -> _Marks:
    """The marks `s` may hold. An ASCII text holds only ASCII odd spaces. A short text is said to hold all of
    them, each then looked for by `in`. A long one stored at one or two bytes per character (where `c in s` for
    thirty characters takes ~25 us on 16 KB) is said to hold every apostrophe and odd space, and a pictograph
    only where its code points (~25 us) hold one: the emoji substitution's class scan takes ~0.15 ms. A long text
    stored at four bytes per character (any emoji or other astral character in it; there the thirty scans take
    ~0.25 ms) is read once, by a table of its code points (~60 us)."""
    if s.isascii():
        return _ASCII_MARKS
    if len(s) < LONG_TEXT:
        return _ALL_MARKS
    if not four_bytes_per_character(s):      # no astral character: only the pictographs of the BMP ranges
        codes = code_points(s)
        near = codes[codes - _BMP_PICTOGRAPHS[0] < _BMP_PICTOGRAPHS[1] - _BMP_PICTOGRAPHS[0]]   # usually none
        held = bool(np.any(_mark_table()[near] & _PICTOGRAPH_BIT))
        return _ALL_MARKS if held else _NO_PICTOGRAPH_MARKS
    codes = code_points(s)
    kinds = _mark_table()[np.minimum(codes, _MARKS_TOP)]
    found = int(np.bitwise_or.reduce(kinds))
    odd: tuple[str, ...] = ()
    if found & _ODD_SPACE_BIT:
        odd = tuple(sorted(map(chr, set(codes[(kinds & _ODD_SPACE_BIT) != 0].tolist()))))
    return _Marks(_APOSTROPHES if found & _APOSTROPHE_BIT else (), bool(found & _PICTOGRAPH_BIT), odd)


def _one_space(s: str, odd_spaces: tuple[str, ...] = _ODD_SPACES) -> str:
    """`s` with each run of horizontal whitespace two or more long, or of one odd space, as one space.
    `odd_spaces`: those `s` may hold (all of them unless told)."""
    present = [c for c in odd_spaces if c in s]
    if not present and "  " not in s:
        return s
    for c in present:
        s = s.replace(c, " ")
    return _SPACE_RUN_RE.sub(" ", s)


_CLOSERS = "\"'»”)\\]*_~"
# Sentence ends: terminal dots (only before whitespace or the end), runs of ? or !, line breaks.
# A "?" or "!" inside a word or URL ("/search?city=Paris") ends nothing.
# (One character class first, so the engine scans fast.)
_SENT_END_RE = re.compile(r"[.…?!؟\n](?:(?<=\n)|[.…?!؟]*[" + _CLOSERS + r"]*(?=\s|$))")
_CLAUSE_END_RE = re.compile(r"[,;:](?=\s)|[—–()]| -{1,2} ")
# The last sentence / clause end in a window (greedy .* backs off from the window's end).
_LAST_SENT_END_RE = re.compile(r".*(?:[.…?!؟][" + _CLOSERS + r"]*\s|\n)", re.DOTALL)
_LAST_CLAUSE_END_RE = re.compile(r".*(?:[,;:]\s|[—–()]| -{1,2} )", re.DOTALL)
_ENDS_WITH_QUESTION_RE = re.compile(r"[?؟][" + _CLOSERS + r"\s]*$")


def _sentence_bounds(s: str, pos: int, end: int) -> tuple[int, int]:
    """(start, end) of the sentence holding s[pos:end], each side looked for within _WINDOW characters."""
    lo = max(0, pos - _WINDOW)
    m = _LAST_SENT_END_RE.match(s, lo, pos)
    m2 = _SENT_END_RE.search(s, end, min(len(s), end + _WINDOW))
    return (m.end() if m else lo), (m2.end() if m2 else min(len(s), end + _WINDOW))


class _Context(NamedTuple):      # a NamedTuple: built for every candidate read, in a third of a dataclass's time
    """Where a candidate sits: its sentence before it, its clause before and after it, the sentence after."""

    before: str
    clause_before: str
    clause_after: str
    after: str
    exempt: bool     # in the last clause of a sentence that ends with a question mark


def _context(s: str, pos: int, end: int) -> _Context:
    s_start, s_end = _sentence_bounds(s, pos, end)
    before = s[s_start:pos]
    m = _LAST_CLAUSE_END_RE.match(before)
    clause_before = before[m.end():] if m else before
    after = s[end:s_end]
    m2 = _CLAUSE_END_RE.search(after)
    clause_after = after[:m2.start()] if m2 else after
    exempt = m2 is None and _ENDS_WITH_QUESTION_RE.search(after) is not None
    return _Context(before, clause_before, clause_after, after, exempt)


def _iter_candidates(rx: re.Pattern | _WordPattern, s: str) -> Iterator[re.Match]:
    for i, m in enumerate(rx.finditer(s)):
        if i >= _MAX_CANDIDATES:
            return
        yield m


def _snippet(b: _Behaviour, start: int, end: int, extra_words: int = 4) -> str:
    """The matched words plus a few that follow within the clause (for a readable reason)."""
    tail = _TAIL_RE.match(b.text, end, min(len(b.text), end + 80))
    stop = tail.end() if tail and extra_words else end
    return b.text[start:stop].strip(" \t\n\r-–—,;:*_~#>•([")


_TAIL_RE = re.compile(r"(?:[^\w\n.!?;:,]{0,3}\w+){0,4}")
