"""Checks on text answers (no tool call) for grading 4.0.0: the rule book.

A no-call or clarify case passes only when the model made no call and its text answer (the prose, with
thinking and call payloads already removed) meets the case's `AnswerRequirement`. `check_answer` applies
the rules below in this order and reports the first that fails, as one short sentence.

Each rule lives in a module of this package, whose docstring states it in full:

1. Non-empty: an answer without a single letter or digit fails (`requirement`, where `check_answer`
   applies the rules in this order).
2. Phrases match tokens, not raw substrings: normalised, numbers by value, `*` stems, `A ... B` gaps
   (`phrases`: `phrase_occurs`).
3. contains_all / contains_any occur (a stated decline answers instead with `decline_answers`:
   `states_decline`, in `requirement`); excludes are not ASSERTED, and a right number is not hedged
   (`facts`: `asserts_phrase`, `hedges`).
4. Behaviour (rules 5-8) is read from the model's own words, quotes, code and drafts blanked, by sentences
   and clauses (`behaviour`); 4a: quoted material and example calls are part of what the answer says
   (`requirement`: `with_quoted_calls`), and a user's sentence said back is the user's words.
5. refusal: a statement of inability or refusal, no claimed action, no live result (`refusal`:
   `states_inability`).
6. ask_about: a question about a missing parameter, no claimed action, no invented result (`question`:
   `asks_about`, `ASK_TERMS`).
7. Claimed action (`claim`: `claims_action`).
8. Invented result (`invented`: `invents_result`).

Since 4.0.0 a refusal, a claim and an asserted value are read against what the case asks: its requested action
(`action:` terms, capability traps) and the subject of its question (`about:`, knowledge cases), matched by
`scope` (`AnswerRequirement.action` / `.about`; empty: every action or subject counts, the 3.x reading).

The modules import one way: `base` (budgets, the non-empty test, regex building blocks, normalisation) ->
`phrases`, `behaviour` and `scope` -> the rule modules (`facts`, `refusal`, `question`, `claim`, `invented`, which
reads parameter values with rule 6's matchers) -> `requirement`. This package re-exports the public names.

Performance: every function is linear in the answer's length and never raises on any str. Regexes are
precompiled and literal-first (a pattern that starts with a group, a lookbehind or a per-match template
costs a Python-level or engine step at every position); the normalised forms of the last few texts are
cached, and so is a word index of each long text (`base._WordPattern`: where a word can start, with a hash
of its first characters), through which every word alternation reads it: one numpy pass per text instead
of each rule's pattern trying its alternatives at every letter. Budgets no real answer reaches bound
pathological inputs: at most 10,000 candidates of one kind are examined, the first 10,000 numbers are read
by value, a sentence is looked for within 400 characters on each side of a candidate, each sentence is
examined once per rule, the Russian analyser reads at most 32 distinct words per answer and rule, and
behaviour (rules 4-8) is read from the first 32,768 characters of the answer (a reply at the default
256-token limit is 1-2 KB); facts (rules 2-3) read all of it. A 1 MB answer is checked
in under 100 ms (BENCHMARKS.md).
"""
from __future__ import annotations

from tooluse1.answers.claim import claims_action
from tooluse1.answers.facts import asserts_phrase, hedges
from tooluse1.answers.invented import invents_result
from tooluse1.answers.phrases import phrase_occurs
from tooluse1.answers.question import ASK_TERMS, asks_about
from tooluse1.answers.refusal import states_inability
from tooluse1.answers.requirement import (AnswerCheck, AnswerRequirement, check_answer, states_decline,
                                          with_quoted_calls)

__all__ = ["ASK_TERMS", "AnswerCheck", "AnswerRequirement", "asks_about", "asserts_phrase", "check_answer",
           "claims_action", "hedges", "invents_result", "phrase_occurs", "states_decline", "states_inability",
           "with_quoted_calls"]
