"""Numbers in words (num2words, pinned): the words of one given number, EN and RU (Russian in any case and
gender). The grader generates the words of the numbers a case expects or excludes and matches those, rather
than parsing number words in general; the draws write numbers in words with the same function."""
from __future__ import annotations

from functools import lru_cache

__all__ = ["number_words"]

_RU_CASES = {"nomn": "n", "gent": "g", "datv": "d", "accs": "a", "ablt": "i", "loct": "p"}


@lru_cache(maxsize=4096)
def number_words(n: int, lang: str, to: str = "cardinal", case: str = "nomn", gender: str = "m") -> str:
    """`n` in words. `lang`: "en" or "ru"; `to`: "cardinal", "ordinal" or "year" (English years are read in
    pairs: nineteen forty-five; Russian has no separate year reading, its ordinal is used). Russian `case` is
    a pymorphy3 case tag (nomn, gent, datv, accs, ablt, loct) and `gender` m, f or n. ValueError for another
    language."""
    from num2words import num2words
    if lang == "en":
        return str(num2words(n, lang="en", to=to))
    if lang == "ru":
        kind = "ordinal" if to in ("ordinal", "year") else "cardinal"
        return str(num2words(n, lang="ru", to=kind, case=_RU_CASES[case], gender=gender))
    raise ValueError(f"number words: no language {lang!r} (en, ru)")
