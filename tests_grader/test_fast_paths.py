"""Fast paths that must give exactly what the plain computation gives: answers.base._nfkc (NFKC of the stretches
around suspect code points only, cut before stable ones; its tables shipped per Unicode version),
parse.strip_thinking over runs of one lone end marker, and parse._wrapper_before (the wrapper search skipped
unless the window's last character can end markup), answers.base._WordPattern (a word alternation split by the
script of its first characters, and over a long text tried only where its word index says a word can start),
answers.phrases._number_text (numbers split out, only those that are not plain read again),
parse._after_marker_run (a run of one lone end marker skipped at once), requirement._stop_bounds (window
searches and bisection); and the scans parse.extract skips when a text lacks what every match needs."""
from __future__ import annotations

import collections
import json
import random
import re
import sys
import unicodedata

import numpy as np
import pytest

from tooluse1.answers import base, behaviour, claim, facts, invented, phrases, question, refusal, requirement
from tooluse1.answers.base import _nfkc, _WordPattern
from tooluse1 import codepoints, parse
from tooluse1.parse import (_THINK_ANCHOR, _THINK_AT, _WRAP_BEFORE, _after_marker_run, _thinking_marker,
                            _wrapper_before, strip_thinking)
from tooluse1.tools import TOOLS

# Combining marks, Hangul jamo and syllables, starters that compose with a following starter (Oriya, Kannada),
# compatibility characters (ligatures, fullwidth, superscripts, no-break hyphen), ASCII, private use,
# unassigned code points and a lone surrogate: every way a cut could go wrong.
_ALPHABET = [chr(c) for c in (*range(0x300, 0x370), *range(0x1100, 0x1200), *range(0xAC00, 0xAC40),
                              0x0B47, 0x0B3E, 0x0B56, 0x0B57, 0x0CC6, 0x0CC2, 0x0CD5, 0x09C7, 0x09BE,
                              0xFB01, 0xFF21, 0xFF10, 0x00B2, 0x2011, 0x212B, 0x1E0A, 0x0323,
                              *range(0x20, 0x7F), 0xE000, 0x40000, 0xD800, 0x0451, 0x0435, 0x0308)]


@pytest.mark.parametrize("seed", range(40))
def test_pieces_equal_whole(seed: int) -> None:
    rng = random.Random(seed)
    for size in (1, 40, 700, 3000):
        mixed = "".join(rng.choices(_ALPHABET, k=size))
        anything = "".join(map(chr, rng.choices(range(0x110000), k=size)))
        for s in (mixed, anything):
            assert _nfkc(s) == unicodedata.normalize("NFKC", s)


def test_cut_never_splits_a_composition() -> None:
    # A base letter before its combining mark, a syllable before its final jamo, a stretch of neighbouring
    # suspects: the stretch normalised runs from the stable code point before the suspect to the one after it.
    s = "ж" * 1023 + "e" + "\u0301" + "ﬁ" * 50 + "가" + "\u11a8" + "x" * 2000 + "\u1100\u1161\u11a8" * 30
    dense = "a\u0301b" * 3000 + "\u0301" * 500 + "ｘ ｙ " * 300      # stretches that touch, near and far apart
    for text in (s, dense):
        assert _nfkc(text) == unicodedata.normalize("NFKC", text)


def test_every_code_point_after_every_kind_of_neighbour() -> None:
    # Each assigned code point alone and after a starter that composes (e, the Hangul L jamo and LV syllable, the
    # Oriya and Kannada vowels), inside text long enough to take the table path.
    pad = "ж" * base._NFKC_DIRECT
    before = "e\u1100가\u0b47\u0cc6"
    chunk: list[str] = []
    for c in range(0x110000):
        if 0xD800 <= c < 0xE000:
            continue
        chunk.append(before[c % len(before)] + chr(c))
        if len(chunk) == 4096 or c == 0x10FFFF:
            s = pad + " ".join(chunk)
            assert _nfkc.__wrapped__(s) == unicodedata.normalize("NFKC", s), (hex(c), chunk[:3])
            chunk = []


def test_shipped_tables_are_this_pythons_unicode() -> None:
    # nfkc_tables.json holds the tables of the Unicode versions it was written for; this Python's must be the
    # computation's (a Python with another version computes them at first use instead).
    saved = json.loads(base._NFKC_TABLES_FILE.read_text(encoding="utf-8"))
    assert unicodedata.unidata_version in saved
    assert saved[unicodedata.unidata_version] == base._nfkc_table_ranges()


def test_staged_table_is_the_flat_table() -> None:
    # _nfkc reads its table in blocks: for every code point, what the ranges of nfkc_tables.json say
    ranges = json.loads(base._NFKC_TABLES_FILE.read_text(encoding="utf-8"))[unicodedata.unidata_version]
    flat = np.zeros(0x110000, dtype=np.uint8)
    for kind, bit in (("stable", base._NFKC_STABLE), ("suspect", base._NFKC_SUSPECT)):
        for first, last in ranges[kind]:
            flat[first:last + 1] |= bit
    every = np.arange(0x110000, dtype=np.uint32)
    assert np.array_equal(base._nfkc_table()[every], flat)
    assert np.array_equal(base._nfkc_table()[every[::-7]], flat[::-7])     # in any order
    assert {0, 1, 2} <= set(flat.tolist())


@pytest.mark.parametrize("text, visible, thinking", [
    ("</think></think></think>Paris.", "Paris.", ""),
    ("plan</think></think>more</think>Paris.", "Paris.", "plan\nmore"),
    ("</think>" * 2000 + "<think>again</think>Answer", "Answer", "again"),
    ("a<|end_of_thinking|><|end_of_thinking|>>b", ">b", "a"),
    ("x</think> </think>y", "y", "x"),
    ("assistantfinal" * 50 + "Done", "Done", ""),
])
def test_runs_of_lone_end_markers(text: str, visible: str, thinking: str) -> None:
    assert strip_thinking(text) == (visible, thinking)


def _after_run_one_by_one(text: str, start: int, g: str) -> int:
    """The plain computation: read the marker again at each position while it reads as g."""
    pos = start + len(g)
    while (g and text.startswith(g, pos) and _THINK_ANCHOR.match(text, pos) is not None
           and (again := _THINK_AT.match(text, pos)) is not None and again.group() == g):
        pos = again.end()
    return pos


# Lone end markers in their spellings (the optional "<" and ">" of end-of-thinking, case), and what may follow
# a run: a longer marker that starts like one, an opener, harmony headers, the \A-only "analysis".
_MARKER_PIECES = ["</think>", "</THINK>", "</Think>", "</thinking>", "[/THINK]", "<|end_of_thought|>", "◁/think▷",
                  "<|end_of_thinking|>", "|end_of_thinking|", "<｜end▁of▁thinking｜>", "｜end of thinking｜>",
                  "<|END_THINKING|>", "assistantfinal", "assistantanalysis", "</seed:think>", "</reasoning>", ">",
                  "<", "|", "<think>", "<|start|>", "<|channel|>analysis", "analysis\n", "x", " ", "\n"]


@pytest.mark.parametrize("seed", range(20))
def test_marker_run_skip_is_the_loop(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        unit = "".join(rng.choices(_MARKER_PIECES, k=rng.choice([1, 1, 2, 3])))
        text = (rng.choice(_MARKER_PIECES) * rng.randint(0, 2) + unit * rng.choice([1, 2, 5, 9, 40, 120])
                + "".join(rng.choices(_MARKER_PIECES, k=rng.randint(0, 6))))
        pos = 0
        while (m := _thinking_marker(text, pos)) is not None:
            if m.lastgroup and m.lastgroup.startswith("e"):
                after = _after_run_one_by_one(text, m.start(), m.group())
                assert _after_marker_run(text, m.start(), m.group()) == after, (text, m.start())
                pos = after
            else:
                pos = m.end() if m.end() > pos else pos + 1


_WRAPPER_PIECES = ["<tool_call>", "<|tool_call|>", "[TOOL_CALLS]", "<|python_tag|>", "functools", "<|python_start|>",
                   "<|tool_calls_section_begin|>", "<｜tool▁calls▁begin｜>", "<|action_start|> <|plugin|>",
                   "function call<|role_sep|>", "<minimax:tool_call>", " ", "\n", "\u2003", "\x85", "s", ">", "]",
                   "x", "tools", "<", "|", "Sure:", "```json"]


@pytest.mark.parametrize("seed", range(20))
def test_wrapper_before_is_the_search(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        text = "".join(rng.choices(_WRAPPER_PIECES, k=rng.randint(0, 12)))
        end = rng.randint(0, len(text))
        lo = rng.randint(0, end)
        want = _WRAP_BEFORE.search(text, lo, end)
        got = _wrapper_before(text, lo, end)
        assert (got and got.span()) == (want and want.span()), (text, lo, end)


# Every module of the rule book (tooluse1.answers): their globals are where the patterns and word lists live.
_RULE_MODULES = (base, phrases, behaviour, facts, refusal, question, claim, invented, requirement)


def _rule_book_globals() -> dict[str, object]:
    return {name: value for module in _RULE_MODULES for name, value in vars(module).items()}


def _split_patterns() -> dict[str, _WordPattern]:
    found = {name: rx for name, rx in _rule_book_globals().items() if isinstance(rx, _WordPattern)}
    for tool in TOOLS:   # every offered tool's clarification matchers (built on demand)
        matchers = question._tool_matchers(tool, TOOLS)
        assert matchers is not None
        for key, m in matchers.full.items():
            found.update({f"{key} terms": m.terms, f"{key} values": m.values})
    return {name: rx for name, rx in found.items() if isinstance(rx, _WordPattern)}


def _one_pattern(rx: _WordPattern) -> re.Pattern:
    return re.compile("|".join(p.pattern for p in rx.parts))    # Latin first, then the rest: sorted


def _same_matches(rx: _WordPattern, one: re.Pattern, text: str, pos: int = 0, endpos: int = sys.maxsize) -> bool:
    return [(m.span(), m.lastgroup) for m in rx.finditer(text, pos, endpos)] == [
        (m.span(), m.lastgroup) for m in one.finditer(text, pos, endpos)]


@pytest.mark.parametrize("size", [200, base._INDEX_MIN + 500])
def test_word_patterns_find_what_one_pattern_finds(size: int) -> None:
    """Both ways _WordPattern scans (the script parts over a short text, the word index over a long one) find
    exactly the matches of the single pattern, with `search` from any position and to any end."""
    patterns = _split_patterns()
    assert {"_CLAIM_RE", "_RESULT_WORD_RE", "_NEG_CANDIDATE_RE", "_REQUEST_RE", "_DRAFT_LEAD_RE"} <= set(patterns)
    # The module's own word lists (what the patterns are built from), fragments of the patterns, words cut short
    # and run into letters, and characters that are letters only to some (marks, digits of other scripts, NUL).
    words = sorted({w for v in _rule_book_globals().values() if isinstance(v, (tuple, frozenset)) for w in v
                    if isinstance(w, str)} | {w for rx in patterns.values() for p in rx.parts
                                              for w in re.findall(r"[^\W\d_]{2,}", p.pattern)})
    glue = (" ", "'", ".", "\n", "5", "ё", "x", "\x00", "\u0301", "\u0663", "\ud800", "é", "-", "ß")
    rng = random.Random(5 + size)
    for _ in range(300 if size < base._INDEX_MIN else 40):
        parts: list[str] = []
        while sum(map(len, parts)) < size:
            w = rng.choice(words)
            parts.append(rng.choice((w, w, w[:rng.randrange(1, len(w) + 1)], w + "x", rng.choice(glue))))
            parts.append(rng.choice(glue))
        text = "".join(parts)
        for name, rx in patterns.items():
            one = _one_pattern(rx)
            assert _same_matches(rx, one, text), name
            lo = rng.randrange(len(text))
            assert _same_matches(rx, one, text, lo), name
            for hi in (lo + rng.randrange(80), len(text), sys.maxsize):
                got, want = rx.search(text, lo, hi), one.search(text, lo, hi)
                assert (got and (got.span(), got.lastgroup)) == (want and (want.span(), want.lastgroup)), name


def test_word_patterns_in_long_windows() -> None:
    """A window of a long text (as the clarify rule reads it, _ASK_CHUNK characters at a time) goes through the
    text's index, and finds what the single pattern finds in it: a word cut by the window's end is matched as
    the end of the text (the index's keys read past it), one that starts before the window is not."""
    patterns = _split_patterns()
    words = sorted({w for v in _rule_book_globals().values() if isinstance(v, (tuple, frozenset)) for w in v
                    if isinstance(w, str)})
    rng = random.Random(17)
    for _ in range(12):
        parts: list[str] = []
        while sum(map(len, parts)) < 3 * base._INDEX_MIN:
            w = rng.choice(words)
            parts += [rng.choice((w, w[:rng.randrange(1, len(w) + 1)], w + "x")), rng.choice((" ", ". ", "'", "\n"))]
        text = "".join(parts)
        lo = rng.randrange(base._INDEX_MIN // 2)
        for hi in rng.sample(range(lo + base._INDEX_MIN, len(text)), 6):
            for name, rx in patterns.items():
                assert rx._route(text, lo, hi) == "index", name
                assert _same_matches(rx, _one_pattern(rx), text, lo, hi), (name, hi)
        for hi in range(base._HEAD - 5, base._HEAD + 5):    # a window that ends at the index's first part's end
            assert _same_matches(patterns["_CLAIM_RE"], _one_pattern(patterns["_CLAIM_RE"]), text, 0, hi), hi


def test_word_patterns_on_sparse_text() -> None:
    """A long text of characters that cannot start a word (random code points, surrogates, CJK, capitals, digits,
    brackets and quotes) with a few words, glue and cut words in it is scanned at its few characters that can
    (the sparse route), and finds exactly what the single pattern finds, from any position."""
    patterns = _split_patterns()
    words = sorted({w for v in _rule_book_globals().values() if isinstance(v, (tuple, frozenset)) for w in v
                    if isinstance(w, str)})
    glue = (" ", "'", ".", "\n", "ё", "x", "\u0301", "\ud800", "\u4e00", "\U0001f600", "\uff21")
    rng = random.Random(11)
    every = np.arange(0x110000, dtype=np.uint32)
    high = every[~base._can_start(every)][::7].tolist() + [ord(c) for c in '{}[]" :,0123456789ABCXYZ\n'] * 200
    routes: collections.Counter[str | None] = collections.Counter()
    for _ in range(40):
        chars = [chr(rng.choice(high)) for _ in range(base._INDEX_MIN * 4)]
        for _ in range(rng.randrange(1, 10)):       # a few words, each run into glue or high characters
            w = rng.choice(words)
            at = rng.randrange(len(chars))
            chars[at:at] = [rng.choice(glue), rng.choice((w, w[:rng.randrange(1, len(w) + 1)])), rng.choice(glue)]
        text = "".join(chars)
        for name, rx in patterns.items():
            routes[rx._route(text, 0, sys.maxsize)] += 1
            one = _one_pattern(rx)
            assert _same_matches(rx, one, text), name
            assert _same_matches(rx, one, text, rng.randrange(len(text))), name
            assert _same_matches(rx, one, text, 0, rng.randrange(base._INDEX_MIN, len(text))), name
            got, want = rx.search(text), one.search(text)
            assert (got and (got.span(), got.lastgroup)) == (want and (want.span(), want.lastgroup)), name
    assert routes["sparse"] > sum(routes.values()) / 2, routes


def test_word_index_ends_of_text() -> None:
    """A word at the very start or end of a long text, a short word followed by a letter, and a text that is
    one long word are found (or not) as the pattern finds them."""
    rx = claim._CLAIM_RE
    one = _one_pattern(rx)
    filler = "x" * base._INDEX_MIN
    for text in ("done " + filler, filler + " done", filler + " i've set it", filler + " i", filler + " is",
                 filler + " isx", "done" * base._INDEX_MIN, filler + " ordered", "\x00done " + filler):
        assert _same_matches(rx, one, text), text[-20:]
    assert [m.group() for m in rx.finditer(filler + " done")] == ["done"]
    # a word on either side of the index's first part (base._HEAD), or across its end, or run into a letter there
    for at in range(base._HEAD - 6, base._HEAD + 3):
        for lead in (" " * at, "." * (at - 1) + "x"):
            text = lead + "done i've set. " + filler
            assert _same_matches(rx, one, text), at


def _number_text_by_sub(folded: str) -> str:
    """The plain computation: every number replaced by its padded value, one regex callback each."""
    return phrases._NUMBER_RE.sub(lambda m: " " + phrases._canon_number(m) + " ", folded,
                                  count=base._MAX_CANDIDATES)


@pytest.mark.parametrize("seed", range(20))
def test_number_text_is_the_substitution(seed: int) -> None:
    rng = random.Random(seed)
    # digits, every separator a number can hold, signs and minus words, and letters that make "minus" a
    # part of a longer word ("laminus 5") or touch a sign ("a-5")
    alphabet = list("0123456789 ,.-\u2212\u2013\u00a0ax") + ["minus ", "минус ", "0", "000", "1,234", "12 345"]
    for size in (1, 3, 8, 30, 200, 2000):
        text = phrases._folded_text("".join(rng.choices(alphabet, k=size)))
        assert phrases._number_text(text) == _number_text_by_sub(text), text


def test_number_text_rewrites_at_most_the_limit() -> None:
    many = " ".join(str(i) for i in range(base._MAX_CANDIDATES + 50)) + " -5 3,5 007"
    assert phrases._number_text(many) == _number_text_by_sub(many)
    assert phrases._number_text("minus 5, a-5, 0,50, 1,234.50") == "minus  -5 , a- 5 ,  0.5 ,  1234.5 "
    # the same number text read once without a sign is not reused where a sign comes before it
    assert phrases._number_text("0,50 -0,50 x0,50 минус 0,50 0,50") == \
        " 0.5  - -0.5  x 0.5  минус  -0.5   0.5 "


# parse's wrapper-markup pattern as one alternation, its first family written unfactored (each alternative with its
# own "<\\|"): what _markup_pattern's selections must agree with.
_MARKUP_WHOLE = re.compile(
    r"<\|start\|>\s*(?:assistant\s*)?(?=<\|channel\|>)|<\|channel\|>\s*\w{1,20}(?:\s+to=[\w.\-]{1,200})?"
    r"(?:\s*<\|constrain\|>\s*\w{1,20})?\s*<\|message\|>"
    r"|<\|[A-Za-z_][\w\- ]{0,40}\|>|" + "|".join(rx for rx, _ in parse._MARKUP_FAMILIES[1:]))
# parse's thinking anchor as it was written before its branches were split: a "<" and then its four kinds.
_THINK_ANCHOR_WHOLE = re.compile(
    r"<(?:/?(?i:think|thinking|reasoning|seed:think)>|\|(?:begin_of_thought|end_of_thought|START_THINKING|END_THINKING)"
    r"\|>|\|(?:start\|>\s*(?:assistant\s*)?<\|)?channel\|>\s*analysis|[|｜](?:begin|end)[▁_ ]of[▁_ ]thinking)"
    r"|\[/?THINK\]|◁/?think▷|\|end[▁_ ]of[▁_ ]thinking|｜end[▁_ ]of[▁_ ]thinking|assistant(?:final|analysis)")


@pytest.mark.parametrize("seed", range(5))
def test_think_anchor_branches_find_the_whole_anchor(seed: int) -> None:
    """The branches a text may hold find the positions the whole anchor finds, in every spelling of case."""
    rng = random.Random(seed)
    pieces = _MARKER_PIECES + ["<THINK>", "<ThInKiNg>", "</REASONING>", "<Seed:Think>", "<thin\u212a>", "<thin",
                               "k>", "g>", "K>", "G>", "<|START_THINKING|>", "<|begin_of_thought|>", "<|", "thought|>",
                               "<|channel|>", " analysis", "<｜begin of thinking", "｜end_of_thinking", "[THINK]"]
    for _ in range(600):
        text = "".join(rng.choices(pieces, k=rng.randint(1, 25)))
        anchor = parse._alternation_held(parse._THINK_ANCHOR_BRANCHES, text, {})
        got = [] if anchor is None else [m.start() for m in anchor.finditer(text)]
        assert got == [m.start() for m in _THINK_ANCHOR_WHOLE.finditer(text)], text
        assert got == [m.start() for m in _THINK_ANCHOR.finditer(text)], text
    assert _THINK_ANCHOR_WHOLE.search("<thin\u212a>") and parse._think_anchor("<thin\u212a>") is not None


@pytest.mark.parametrize("seed", range(5))
def test_markup_families_are_the_whole_pattern(seed: int) -> None:
    """The prose loses the same markup when only the families whose strings it holds are substituted."""
    rng = random.Random(seed)
    pieces = ["<|", "<|start|>", "<|channel|>", "<|message|>", "analysis", " to=functions.x", "<|constrain|>",
              "<|call|>", "<｜", "｜>", "<｜tool▁sep｜>", "tool_call", "function_calls", "TOOLCALL", "<", ">", "</",
              "[TOOL_CALLS]", "[/ARGS]", "[ARGS]", "[CALL_ID]", "[", "]", "```", "~~~", "json", "x", " ", "\n", "|"]
    for _ in range(600):
        text = "".join(rng.choices(pieces, k=rng.randint(1, 30)))
        markup = parse._alternation_held(parse._MARKUP_FAMILIES, text, {})
        assert (text if markup is None else markup.sub("", text)) == _MARKUP_WHOLE.sub("", text), text
    assert parse._prose("a <|call|> b ``` [ARGS]", []) == "a  b"


def _stop_bounds_by_find(low: str, pos: int) -> tuple[int, int]:
    """The plain computation: rfind / find of each stop character within the windows."""
    window = base._WINDOW
    lo = max(max(low.rfind(c, max(0, pos - window), pos) for c in requirement._SENTENCE_STOPS) + 1, pos - window, 0)
    ends = [e for e in (low.find(c, pos, pos + window) for c in requirement._SENTENCE_STOPS) if e >= 0]
    return lo, (min(ends) + 1 if ends else min(len(low), pos + window))


@pytest.mark.parametrize("seed", range(5))
def test_stop_bounds_are_the_finds(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [*requirement._SENTENCE_STOPS, "word ", "a", " ", "x" * 150]
    for _ in range(200):
        low = "".join(rng.choices(pieces, k=rng.choice([0, 3, 30, 200])))
        stops = [i for i, c in enumerate(low) if c in requirement._SENTENCE_STOPS]
        for pos in {0, len(low), *(rng.randint(0, len(low)) for _ in range(10))}:
            expected = _stop_bounds_by_find(low, pos)
            assert requirement._stop_bounds(low, pos, stops) == expected, (low, pos)     # bisected
            assert requirement._stop_bounds(low, pos, None) == expected, (low, pos)      # searched


@pytest.mark.parametrize("seed", range(5))
def test_drafts_need_a_colon_before_a_space(seed: int) -> None:
    # _behaviour skips _blank_drafts when no ":" is followed by whitespace: then it changes nothing.
    rng = random.Random(seed)
    pieces = ["you could send", "here's a draft", "черновик", "something like", "14:00", "a:b", ":", ": ", ":\n",
              " ", "\n\n", "Hi", '"', "«", "»", "feel free", "."]
    skipped = blanked = 0
    for _ in range(400):
        s = "".join(rng.choices(pieces, k=rng.randint(1, 12)))
        if behaviour._DRAFT_COLON_RE.search(s) is None:
            skipped += 1
            assert behaviour._blank_drafts(s) == s, s
        else:
            blanked += behaviour._blank_drafts(s) != s
    assert skipped > 50 and blanked > 10      # both sides of the test are reached


def test_draft_leads_before_colons_are_the_full_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long text is scanned for draft leads only in the stretches before its colons: the same blanked text as the
    # full scan, with leads near and far (up to ~100 characters) from colons, glued to letters, in both scripts, and
    # colons dense enough to go back to the full scan. Exact only while no lead holds another at a later word.
    for a in behaviour._DRAFT_LEADS:
        for b in behaviour._DRAFT_LEADS:
            assert not any(a.startswith(b, i) and not a[i - 1].isalpha() for i in range(1, len(a))), (a, b)
    rng = random.Random(37)
    pieces = ["you could send", "Here's a draft", "черновик", "something like", "copy", "xcopy", "draftx", "14:00",
              ": ", ":\n", ":", " ", "\n\n", "Hi there", '"Hello"', "«Привет»", "Feel free to ask.", ". ", "word",
              "слово", "x" * 150, "Можете написать так", "you could say" + " so" * 34, "можно написать" + " да" * 32]
    texts = []
    for _ in range(150):
        weights = [rng.random() for _ in pieces]
        text = ""
        while len(text) < rng.choice((2500, 6000, 16000)):
            text += rng.choices(pieces, weights)[0]
        texts.append(text)
    windowed = [behaviour._blank_drafts(t) for t in texts]
    assert sum(w != t for w, t in zip(windowed, texts)) > 50          # drafts are blanked in many of them
    full = behaviour._DRAFT_LEAD_RE.scan
    monkeypatch.setattr(behaviour, "_draft_leads", lambda s, low: full(low))
    assert windowed == [behaviour._blank_drafts(t) for t in texts]


# Call-format fragments with and without what the skipped scans need (quotes, closers, keys, "<", the Mistral
# tags), so that texts with none of them and texts with some occur.
_EXTRACT_PIECES = ["{", "[", "(", "}", "]", ")", '"', "'", ":", ",", " ", "\n", "1", "name", "tool", "function",
                   "arguments", '"name"', "'name'", '"arguments": ', '"get_weather"', "<function=x>", "<tool_call>",
                   "[TOOL_CALLS]", "[ARGS]", "get_weather", "x", "\\", '{"a":', "[{", "ж", "город", "😀", "<", "invoke",
                   "<invoke name=\"x\">", "<parameter=city>", "function_calls>", "<|DSML|", "<arg_key>", "'action':"]


def _extract_without_skips(text: str, monkeypatch: pytest.MonkeyPatch) -> parse.Extraction:
    """extract with every skip off: an empty hint is in every text."""
    with monkeypatch.context() as m:
        m.setattr(parse, "_JSON_START_NEEDS", ("",))
        m.setattr(parse, "_JSON5_KEY_LETTERS", ("",))
        m.setattr(parse, "_closer_in", lambda text, i, limit: True)      # the walk always runs
        m.setattr(parse, "_RESIDUE", tuple((rx, (("",),)) for rx, _ in parse._RESIDUE))
        m.setattr(parse, "_CALL_MARKUP_FAMILIES", tuple((rx, (("",),)) for rx, _ in parse._CALL_MARKUP_FAMILIES))
        return parse.extract(text)


@pytest.mark.parametrize("seed", range(10))
def test_extract_skips_change_nothing(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    skipped = 0
    for _ in range(150):
        pool = rng.sample(_EXTRACT_PIECES, k=rng.randint(2, 8))       # a few kinds of fragment per text
        text = "".join(rng.choices(pool, k=rng.choice([1, 5, 30, 200, 800])))
        skipped += not any(c in text for c in parse._JSON_START_NEEDS) or not parse._closer_in(text, 0, len(text))
        assert parse.extract(text) == _extract_without_skips(text, monkeypatch), text
    assert skipped > 10


def test_odd_spaces_are_the_class() -> None:
    # _behaviour looks for the odd spaces one by one: they are exactly what `[^\S \n]` matches, in all of Unicode
    every = "".join(map(chr, range(0x110000)))
    assert set(re.findall(r"[^\S \n]", every)) == set(behaviour._ODD_SPACES)


def test_one_space_is_the_class_substitution() -> None:
    # _behaviour's whitespace rule: every run of `[^\S\n]` two or more long, or of one odd space, as one space
    hspace = re.compile(r"[^\S\n](?:(?<=[^\S \n])[^\S\n]*|(?<= )[^\S\n]+)")
    rng = random.Random(11)
    alphabet = [" ", " ", "\n", "\t", "\u00a0", "\u3000", "\u2009", "\x0b", "a", "ж", ".", "😀"]
    for size in (1, 2, 5, 40, 3000):
        for _ in range(200 if size < 3000 else 5):
            text = "".join(rng.choices(alphabet, k=size))
            assert behaviour._one_space(text) == hspace.sub(" ", text), repr(text)
            assert behaviour._one_space(text, behaviour._marks(text).odd_spaces) == hspace.sub(" ", text), repr(text)


def test_occurs_is_in() -> None:
    # codepoints.occurs answers `in` for every needle the parser asks about, and for needles made of the text's
    # own pieces, in long texts of every width (ASCII, Cyrillic, astral) and short ones
    rng = random.Random(19)
    needles = sorted({*parse._THINK_HINTS, *parse._MARKUP_HINTS, *parse._INVISIBLE_CHARS, *parse._JSON_START_NEEDS,
                      *(h for _, hints in parse._RESIDUE + parse._CALL_MARKUP_FAMILIES for group in hints
                        for h in group), "to=", "[ARGS]",
                      "<|tool_call>", "ТООЛ", ""})
    pieces = ["a", " ", "ж", "😀", "<", "|", "_", "tool", "call", "\u200b", "\ud800", "[", "TOOL", "x" * 50]
    for size in (10, 3000, 9000):
        for _ in range(40):
            text = "".join(rng.choices(rng.sample(pieces, k=rng.randint(1, 6)), k=size // 4))
            own = [text[i:i + rng.randint(1, 6)] for i in rng.sample(range(len(text)), k=min(5, len(text)))]
            for needle in needles + own:
                assert codepoints.occurs(needle, text) == (needle in text), (needle, text[:40])


def test_signed_value_now_is_the_search() -> None:
    # _signed_value_now tries the pattern at each now-cue the word index finds: the first match of its search
    rng = random.Random(23)
    pieces = [*requirement._NOW_CUES, "сейчасx", "xnow", " ", " ", "-", "+", "−", "плюс ", "minus ", "5", "12", "123",
              ".", ",", "5.5", "в Казани около ", "there ", "ж", "\n", "now-", "at the", "данный момент"]
    for size in (30, 600, 3000):
        for _ in range(200 if size < 3000 else 40):
            text = "".join(rng.choices(pieces, k=size // 5))
            b = behaviour._behaviour(text)
            m = requirement._SIGNED_NOW_RE.search(b.low)
            assert requirement._signed_value_now(text) == (b.text[m.start():m.end()].strip() if m else None), text


def test_russian_first_forms_are_the_pattern() -> None:
    # _ru_first_forms finds runs by their endings: the matches of _RU_FIRST_FORM_RE, short runs, runs into Latin
    # letters, digits and ё, endings inside words and at the ends of the text
    rng = random.Random(29)
    pieces = ["у", "ю", "ем", "им", "е", "и", "м", "за", "каж", "закажу", "оформим", "тем", "му", "x", "ё", "5", " ",
              ".", "\n", "я ", "а", "я", "Ю", "ѐ", "\u042f", "\u0450", "\U0001f600"]
    for size in (1, 5, 40, 3000):
        for _ in range(300 if size < 3000 else 30):
            s = "".join(rng.choices(pieces, k=size))
            want = [m.span() for m in claim._RU_FIRST_FORM_RE.finditer(s)]
            assert list(claim._ru_first_forms(s)) == want, s
            prefixes = frozenset(rng.sample(("зак", "каж", "оформ", "офо", "тем", "кам", "ord", "за", "юю", "ему"), 4))
            assert list(claim._ru_first_forms(s, prefixes)) == [(a, b) for a, b in want if s[a:a + 3] in prefixes], s


def test_code_points_are_ord() -> None:
    # the arrays numpy reads texts by: every character's code point, lone surrogates and astral ones included
    rng = random.Random(17)
    for text in ("", "a", "ж\ud800\udfff😀\U0010ffff\x00", "".join(map(chr, rng.choices(range(0x110000), k=5000)))):
        assert codepoints.code_points(text).tolist() == [ord(c) for c in text]


def test_marks_miss_none() -> None:
    # A long text stored at four bytes per character is given to _EMOJI_RE's sub, and its apostrophes and odd
    # spaces replaced, only where _marks finds them. Every code point of the pictograph ranges and their
    # neighbours, every apostrophe and odd space, each alone in a long text of random astral code points.
    rng = random.Random(13)
    filler = "".join(map(chr, rng.sample(range(0x30000, 0x110000), base._INDEX_MIN)))
    for code in (0x25FF, 0x2600, 0x27BF, 0x27C0, 0x2AFF, 0x2B00, 0x2BFF, 0x2C00, 0x1EFFF, 0x1F000, 0x1FAFF,
                 0x1FB00, *range(0x2600, 0x27C0, 37), *range(0x1F000, 0x1FB00, 101)):
        text = filler + chr(code) + " ok"
        changes = behaviour._EMOJI_RE.sub(".", text) != text
        assert behaviour._marks(text).pictographs == changes, hex(code)
    for c in base._APOSTROPHES + behaviour._ODD_SPACES:
        marks = behaviour._marks(filler + c + "ok")
        assert c in marks.apostrophes + marks.odd_spaces, hex(ord(c))
        assert not marks.pictographs
    assert behaviour._marks(filler + "—…«»€№°\ud800") == behaviour._Marks((), False, ())
    # short texts, and texts at one or two bytes per character: looked through character by character
    assert codepoints.four_bytes_per_character(filler) and codepoints.four_bytes_per_character("ж😀")
    assert not any(map(codepoints.four_bytes_per_character, ("", "a" * 9, "é" * 9, "ж" * 9, "\ud800\uffff")))
    assert behaviour._marks("ж\u00a0’ ") == behaviour._ALL_MARKS
    assert behaviour._marks("ж" * base._INDEX_MIN + "\u2600") == behaviour._ALL_MARKS
    assert behaviour._marks("é" * base._INDEX_MIN) == behaviour._NO_PICTOGRAPH_MARKS
    # a long text at two bytes per character: the pictograph flag only where the substitution would change it
    pool = [*range(0x400, 0x500), *range(0x3000, 0xD800, 7), *range(0xE000, 0x10000, 5)]
    filler2 = "".join(map(chr, rng.choices(pool, k=base._INDEX_MIN)))
    filler2 = behaviour._EMOJI_RE.sub("", filler2)
    for code in (0x25FF, 0x2600, 0x27BF, 0x27C0, 0x2AFF, 0x2B00, 0x2BFF, 0x2C00, *range(0x2600, 0x27C0, 29),
                 *range(0x2B00, 0x2C00, 17), 0xFE0F, 0x200D):
        text = filler2 + chr(code) + " ok"
        assert not codepoints.four_bytes_per_character(text)
        changes = behaviour._EMOJI_RE.sub(".", text) != text
        assert behaviour._marks(text).pictographs == changes, hex(code)
    assert behaviour._marks("a\tb " * 1000).odd_spaces == ("\t", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f")


def test_quoted_blanks_start_like_their_matches() -> None:
    # _behaviour skips a quote substitution when the text lacks the blank's first character: every match of the
    # pattern starts with that character, so the substitution would change nothing
    for rx, blank in behaviour._QUOTED_SUBS:
        assert not re.match(r"[\\(\[.|?*+{]", rx.pattern[0]), rx.pattern      # a literal first character
        assert rx.pattern[0] == blank[0], (rx.pattern, blank)


def test_occurs_any_char_is_in() -> None:
    # codepoints.occurs_any_char answers any(c in text) in long texts of every width, with and without the chars
    rng = random.Random(23)
    pieces = ["a", " ", "ж", "😀", "\U0010fffd", "\ud800", "\u200b", "\u00ad", "\ufeff", "\u2066", "x" * 40]
    for size in (10, 3000, 9000):
        for _ in range(60):
            text = "".join(rng.choices(rng.sample(pieces, k=rng.randint(1, 5)), k=size // 4))
            for chars in (parse._INVISIBLE_CHARS, ("\u200b",), ("😀", "a"), ("\U0010fffd",)):
                assert codepoints.occurs_any_char(chars, text) == any(c in text for c in chars), (chars, text[:40])


def test_subjects_passed_over_name_no_requested_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scoped claim and the promise readings (Russian "могу" + an infinitive among them) skip a first-person
    subject where no literal of the requested action's terms starts in the clause after it
    (`claim._may_name_after`; a literal counts only where a word starts with it), and stop after the last literal
    (`claim._past_literals`): on texts of subjects, auxiliaries, verbs, action words (also inside other words:
    "border"), clause stops and long stop-free stretches they find exactly what reading every subject finds."""
    from tooluse1.answers.scope import term_scope
    scope = term_scope({"en": ("order*", "pizza*", "deliver*", "food", "smart home"), "ru": ("заказ*", "пицц*")})
    assert scope is not None
    pieces = ("i", "we", "i've", "we've", "i'll", "we will", "i'm going to", "have", "just", "already", "gladly",
              "ordered", "placed", "organised", "booked", "cleared", "set", "got", "made", "arranged", "place",
              "pizza", "pizzas", "order", "orders", "delivery", "food", "foods", "smart home", "smart-home",
              "the", "a", "your", "for", "you", "nice", "it", "i've just organised the", "we have placed your",
              "i cleared", "i'll place the", "i will arrange a", "i'm going to get you", "we'll gladly make the",
              "we have already successfully organised your extraordinary", "i'll definitely be happy to arrange your",
              "могу", "я могу", "можем", "смогу", "заказать", "оформить", "сделать", "заказ", "пиццу", "пиццы", "вам",
              "не", "border", "reorder", "xpizza", "предзаказ", "food's", "smart-homes")
    stops = (",", ".", ";", " - ", "\n", ":", "!")
    rng = random.Random(412)
    texts = []
    for _ in range(400):
        words: list[str] = []
        while len(words) < rng.choice((10, 60, 400)):
            if rng.random() < 0.1:          # a stretch with no stop, longer than the clause windows
                words += [rng.choice(("nice", "the", "a", "it", "you")) for _ in range(rng.randrange(20, 90))]
            words.append(rng.choice(pieces))
            if rng.random() < 0.15:
                words[-1] += rng.choice(stops)
        texts.append(" ".join(words))
    # the object's words end up to twice _CLAUSE_WORDS_REACH after the subject when no stop comes first
    texts += ["i've just organised the " + "x" * 180 + " pizza", "i'll arrange the " + "x" * 185 + " pizza"]
    found = [(claim._first_scoped_claim(behaviour._behaviour(t), scope), claim.promises_action(t, scope))
             for t in texts]
    assert sum(f[0] is not None for f in found) > 25 and sum(f[1] is not None for f in found) > 25
    assert sum(claim._first_ru_ability(behaviour._behaviour(t).low, scope) is not None for t in texts) > 3
    monkeypatch.setattr(claim, "_may_name_after", lambda s, pos, starts: True)
    monkeypatch.setattr(claim, "_past_literals", lambda pos, starts: False)
    assert found == [(claim._first_scoped_claim(behaviour._behaviour(t), scope), claim.promises_action(t, scope))
                     for t in texts]


def test_emoji_to_dots_is_the_substitution() -> None:
    # _behaviour replaces the emoji of a long text from its code points: the same text as _EMOJI_RE's sub, with
    # runs of pictographs and joiners, joiners before and after them, range edges, astral and two-byte texts, and
    # texts dense enough to go back to the sub (more than _EMOJI_JOINS matches)
    rng = random.Random(31)
    pieces = ["a", " ", "ж", "\u200d", "\ufe0f", "\u2600", "\u27bf", "\u27c0", "\u25ff", "\u2b00", "\u2bff", "\u2c00",
              "\U0001efff", "\U0001f000", "\U0001faff", "\U0001fb00", "\ud800", "\U0001f600\u200d\U0001f600\ufe0f"]
    for size in (1, 3, 10, 400, 3000):
        for _ in range(300 if size < 3000 else 60):
            text = "".join(rng.choices(rng.sample(pieces, k=rng.randint(1, len(pieces))), k=size))
            assert behaviour._emoji_to_dots(text) == behaviour._EMOJI_RE.sub(".", text), text[:60]
    long_text = "ж" * base._INDEX_MIN + " ok ☀️ \u200d😀\u200d😀 ok"
    assert behaviour._behaviour(long_text).text.endswith(" ok . \u200d. ok")


def test_word_keys_of_each_size_apart() -> None:
    # a position is a candidate only where its first characters hash like a key of that size: the hash of "эт"
    # met that of the key "i " in a table shared by all sizes, and every "это" was tried as a claim
    text = "это не так. " * 400
    for part in (0, 1):
        claim._CLAIM_RE._last = None
        assert claim._CLAIM_RE._candidates(text, part)[0] == [], part
