"""Numbers in words (num2words, pinned): the words of one given number, EN and RU (Russian in any case and
gender). The grader generates the words of the numbers a case expects or excludes and matches those, rather
than parsing number words in general; the draws write numbers in words with the same function."""
from __future__ import annotations

from functools import lru_cache

__all__ = ["number_words", "written_forms"]

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


_WRITTEN_NUMBER_LIMIT = 1_000_000     # beyond this no answer writes a number in words


@lru_cache(maxsize=1024)
def written_forms(phrase: str) -> tuple[str, ...]:
    """The ways an answer may write the whole number `phrase` ("1945") in words, EN and RU: cardinal,
    English year reading ("nineteen forty-five"), ordinal (a Russian year: "в тысяча девятьсот сорок пятом
    году"), Russian in every case and gender. Empty for a phrase that is not a plain non-negative integer
    (or is 0-10, which answers write as digits or as words listed in the case). Hyphens also as spaces."""
    text = phrase.strip()
    if not text.isdigit() or not 10 < int(text) < _WRITTEN_NUMBER_LIMIT:
        return ()
    n = int(text)
    forms = {number_words(n, "en"), number_words(n, "en", to="ordinal")}
    if 1000 <= n < 3000:
        forms.add(number_words(n, "en", to="year"))
    for case in _RU_CASES:
        for gender in ("m", "f", "n"):
            forms.add(number_words(n, "ru", case=case, gender=gender))
            forms.add(number_words(n, "ru", to="ordinal", case=case, gender=gender))
    forms |= {f.removeprefix("одна ").removeprefix("одной ").removeprefix("одну ").removeprefix("одною ")
              for f in forms}
    forms |= {f.replace("-", " ") for f in forms}
    return tuple(sorted(forms - {text}))
