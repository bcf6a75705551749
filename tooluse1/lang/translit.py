"""Common Latin spellings of a Russian name (Tolstoy / Tolstoi / Tolstoj, Dostoevsky / Dostoyevskiy): the
endings and letter pairs the usual romanisation systems (BGN/PCGN, ISO 9 without diacritics, the scholarly
system, passport spellings) write differently. The grader accepts these spellings of a name a case lists."""
from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["latin_spellings"]

# Word endings that romanisations of й / ий / ый write differently, and letters of й, х, ю, я, ё.
# (Longer endings first: "Tolstoy" ends in "oy", not in the "y" of "Gorky".)
_ENDINGS: tuple[tuple[str, ...], ...] = (
    ("skiy", "sky", "ski", "skii", "skij"), ("oy", "oi", "oj"), ("ey", "ei", "ej"), ("ay", "ai", "aj"),
    ("iy", "ii", "ij", "y"))
_LETTERS: tuple[tuple[str, ...], ...] = (("kh", "h"), ("yu", "iu", "ju"), ("ya", "ia", "ja"), ("yo", "io", "jo"))
_LATIN_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=1024)
def latin_spellings(phrase: str) -> tuple[str, ...]:
    """Other Latin spellings of `phrase` (a name written in Latin letters), lower case, `phrase`'s own
    spelling excluded; () for a phrase with other letters. Each word varies by one ending and one letter
    pair at most (what the romanisation systems differ in)."""
    low = phrase.lower()
    if not low.isascii() or not _LATIN_WORD.search(low):
        return ()
    words = [_word_spellings(w) for w in low.split(" ")]
    out = {" ".join(ws) for ws in _product(words)}
    return tuple(sorted(out - {low}))


def _word_spellings(word: str) -> set[str]:
    stems = {word}
    for group in _ENDINGS:
        end = next((e for e in group if word.endswith(e)), None)
        if end is not None:
            stems |= {word[: len(word) - len(end)] + other for other in group}
            break
    out = set(stems)
    for form in stems:
        for group in _LETTERS:
            for letters in group:
                if letters in form:
                    out |= {form.replace(letters, other) for other in group}
    return out


def _product(options: list[set[str]]) -> list[tuple[str, ...]]:
    result: list[tuple[str, ...]] = [()]
    for opts in options:
        result = [r + (o,) for r in result for o in sorted(opts)][:256]
    return result
