"""The one language module: morphology, verb forms and number words, for the grader's text rules and for the
seeded draws of cases (DECISIONS: shared, pinned once in pyproject.toml).

- `morph`: Russian morphology through pymorphy3 with its dictionaries (person, tense, aspect, mood for reading
  a sentence; case and number for writing one), memoised; the capitalisation of what it inflects restored.
- `english`: English verb and noun forms through lemminflect.
- `translit`: the common Latin spellings of a Russian name (Tolstoy / Tolstoi / Tolstoj).
- `numbers`: numbers in words through num2words (EN and RU, Russian with case and gender), and the agreement of
  a Russian noun with a number (5 минут, 2 минуты, 21 минута).

Libraries, not hand-kept tables: they are maintained for exactly this, and a pinned version keeps verdicts and
draws from drifting. Each function here is pure and deterministic for a given set of pins.
"""
from tooluse1.lang.english import verb_forms
from tooluse1.lang.morph import morph, ru_agree, ru_forms, ru_inflect, ru_inflect_lemma, ru_is, ru_parses, ru_stem
from tooluse1.lang.numbers import number_words, written_forms
from tooluse1.lang.translit import latin_spellings

__all__ = ["latin_spellings", "load", "number_words", "ru_agree", "ru_forms", "ru_inflect", "ru_inflect_lemma",
           "ru_is", "ru_parses", "ru_stem", "verb_forms", "written_forms"]


def load() -> None:
    """Load now what the libraries otherwise load on first use (~0.5 s together): pymorphy3's dictionaries,
    lemminflect's lemma and inflection tables, num2words' English and Russian. For a process that times its
    calls (benchmarks/bench_grader_fuzz.py warms up with it): which answer first reaches each library depends on
    the answers and on the rules, and the first one would carry the loading."""
    import lemminflect
    morph()
    lemminflect.getAllLemmas("ordered", upos="VERB")
    lemminflect.getAllInflections("order", upos="VERB")
    number_words(1, "en")
    number_words(1, "ru")
