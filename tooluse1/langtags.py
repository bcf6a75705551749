"""A case's `lang`: a BCP 47 language tag (RFC 5646), and the language whose terms it picks.

The built-in corpus is written in `en` and `ru`; a suite's case may carry any well-formed tag (`en-GB`,
`zh-Hans`, `ko`, `pt-BR`, `es-419`). Only the tag's primary language subtag means anything to the grader:
it picks the user-side terms a case is checked with (a parameter's `ask` terms for a clarification case:
`en-GB` reads the `en` ones). The text rules themselves (refusals, questions, claims) read the answer in
whatever language it is written, English and Russian alike, whatever the case's tag (tooluse1.answers).
"""
from __future__ import annotations

import re

__all__ = ["LANG_TAG_PATTERN", "is_lang_tag", "primary_language"]

# RFC 5646 §2.1's ABNF for a `langtag`, as one regex (the `langcodes` package is not a dependency; the
# syntax is all "well-formed" asks for, §2.2.9; `english` is well-formed too: 5-8 letters are reserved for
# registered languages). Letters in either case: tags are case-insensitive. Left out on purpose: a tag that is
# only private use (`x-klingon`) and the irregular grandfathered tags (`i-klingon`, `i-default`): neither
# names a language whose words a case could be checked with.
# ASCII classes and no inline flags, so the JSON Schema of results files can carry the same pattern.
LANG_TAG_PATTERN = (
    r"^(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})"     # language, with up to three extlangs
    r"(?:-[A-Za-z]{4})?"                                         # script (Hans, Cyrl)
    r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"                            # region (GB, 419)
    r"(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*"            # variants (1901, pinyin)
    r"(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*"             # extensions (u-ca-buddhist)
    r"(?:-[Xx](?:-[A-Za-z0-9]{1,8})+)?$"                         # private use (x-internal)
)
_LANG_TAG_RE = re.compile(LANG_TAG_PATTERN)


def is_lang_tag(value: object) -> bool:
    """Whether `value` is a string that is a well-formed BCP 47 language tag (RFC 5646 syntax)."""
    return isinstance(value, str) and _LANG_TAG_RE.fullmatch(value) is not None


def primary_language(tag: str) -> str:
    """The tag's primary language subtag, lower-cased (`en-GB` -> `en`, `zh-Hans-CN` -> `zh`): the key of
    per-language term tables."""
    return tag.partition("-")[0].lower()
