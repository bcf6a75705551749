"""English word forms (lemminflect, pinned): every inflection of a verb lemma, for reading tense and aspect."""
from __future__ import annotations

from functools import lru_cache

__all__ = ["verb_forms"]


@lru_cache(maxsize=4096)
def verb_forms(lemma: str) -> dict[str, tuple[str, ...]]:
    """{Penn tag: forms} of the verb `lemma`: VB, VBD (past), VBG (-ing), VBN (participle), VBP, VBZ.
    Empty for a word lemminflect does not know as a verb."""
    import lemminflect
    return {tag: tuple(forms) for tag, forms in lemminflect.getAllInflections(lemma, upos="VERB").items()}
