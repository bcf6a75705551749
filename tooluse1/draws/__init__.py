"""Seeded draws of the public cases: the private split and K times the items (SPEC §2.4).

`draw_corpus(seed, k)` gives K drawn cases for every templated public case, ids `<case id>.d<j>` (j = 1..K),
and their manifest: the digest of the drawn cases (what results record as the corpus digest) and a `draws`
record of SHA-256 of the seed, K, the generator version and the public corpus's digest, never the seed.
A drawn case keeps what defines its public case (category, kind, difficulty, language, the tools offered,
the history's shape) and draws what the model must get right (generator.py; templates/*.yaml; pools.yaml).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from tooluse1.errors import ToolUse1Error
from tooluse1.corpus import SPEC_VERSION, Case, Expectation, counts, render_jsonl, term_field_problem
from tooluse1.draws.generator import TemplateError, Value, draw_slots, drawn_path, fill, fill_value
from tooluse1.lang import ru_stem
from tooluse1.tools import Call

__all__ = ["DEFAULT_SEED", "GENERATOR_VERSION", "DrawError", "Template", "check_recorded_seed", "draw_case",
           "draw_corpus", "draw_options", "draws_provenance", "parse_draws", "parse_seed", "seed_sha256",
           "session_cases", "templates"]

# Bump on any change of templates, pools or generator code that changes a draw: results made under a kept
# seed with another generator are refused (compare, --baseline) unless --allow-corpus-change.
GENERATOR_VERSION = "1.1"
# The published seed: `--draws K` without `--draw-seed`. A team that keeps its own seed private has cases
# nobody has trained on.
DEFAULT_SEED = "tooluse1"
MAX_DRAWS = 20
DRAWS_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = DRAWS_DIR / "templates"
POOLS_FILE = DRAWS_DIR / "pools.yaml"
FACTS_FILE = DRAWS_DIR / "facts.yaml"
_SEED_RE = re.compile(r"^[\x21-\x7e]{1,200}$")
# Candidates tried per draw before a template counts as unable to differ from its public case.
_MAX_CANDIDATES = 64


class DrawError(ToolUse1Error, ValueError):
    """Bad draw flags or a draw that fails: the message names the flag or template and the fix."""


def parse_draws(text: Any, flag: str = "--draws") -> int:
    """K from `--draws`: an integer 0..MAX_DRAWS (0 = the public cases)."""
    try:
        k = int(str(text).strip())
    except ValueError:
        raise DrawError(f"{flag}: {text!r} is not a whole number; give the draws per case, e.g. {flag} 3 "
                        f"(0 = the public cases)") from None
    if not 0 <= k <= MAX_DRAWS:
        raise DrawError(f"{flag}: {k} is out of range; give 0..{MAX_DRAWS} draws per case")
    return k


def parse_seed(text: Any, flag: str = "--draw-seed") -> str:
    """The seed from `--draw-seed`: 1..200 printable ASCII characters without spaces."""
    seed = str(text)
    if not _SEED_RE.match(seed):
        raise DrawError(f"{flag}: the seed must be 1 to 200 printable ASCII characters without spaces "
                        f"(e.g. {flag} 7 or {flag} my-team-2026)")
    return seed


def seed_sha256(seed: str) -> str:
    """What a results file records of a seed: its SHA-256 (a private seed stays private)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Template:
    """How to draw one public case: slots, the last user message, the expected call's arguments (call
    cases). `exempt`: a case with no value to get right (chit-chat, a question about a tool) draws only its
    wording and is not held to differ from its public case in a value."""

    case_id: str
    slots: Mapping[str, str]
    user: str
    call: Mapping[str, Any] | None
    expect: Mapping[str, Any] | None = None      # text expectations: reference, answer_*, missing
    history: tuple[Any, ...] = ()                # the messages before the last (multi-step cases)
    exempt: bool = False
    # A capability trap's draw differs in the item asked for (its user message, its `action` terms), not in
    # its expectation (a refusal): `differ: message`. Every other non-exempt draw differs in its expectation.
    differ_in_message: bool = False
    # What a negative asks for, shaped like a parameter's `ask` terms ({en: [...], ru: [...]}, `*` = stem):
    # `action` (a capability trap's item), `about` (a knowledge question's fact), drawn with the case into
    # its expectation in place of the public case's.
    terms: Mapping[str, Any] | None = None


@cache
def pools() -> dict[str, list]:
    """pools.yaml and facts.yaml: named lists of values the templates pick from (each gradable by the alias
    tables; each fact with its plausible wrong answers)."""
    out: dict[str, list] = {}
    for path in (POOLS_FILE, FACTS_FILE):
        with path.open(encoding="utf-8") as f:
            for name, entries in yaml.safe_load(f).items():
                if name in out:
                    raise TemplateError(f"{path.name}: pool {name!r} is defined twice")
                out[name] = entries
    return out


@cache
def templates() -> dict[str, Template]:
    """Every template, keyed by its public case's id (templates/*.yaml)."""
    out: dict[str, Template] = {}
    for path in sorted(TEMPLATES_DIR.glob("*.yaml")):
        with path.open(encoding="utf-8") as f:
            raw = yaml.safe_load(f) or {}
        for case_id, t in raw.items():
            if case_id in out:
                raise TemplateError(f"{path.name}: {case_id} has two templates")
            unknown = set(t) - {"slots", "user", "call", "expect", "history", "exempt", "action", "about", "differ"}
            if unknown or "user" not in t:
                raise TemplateError(f"{path.name}: {case_id}: needs `user`; unknown keys {sorted(unknown)}")
            terms = {k: t[k] for k in ("action", "about") if k in t} or None
            out[case_id] = Template(case_id, dict(t.get("slots") or {}), str(t["user"]), t.get("call"),
                                    t.get("expect"), tuple(t.get("history") or ()), bool(t.get("exempt")),
                                    t.get("differ") == "message", terms)
    return out


def _filled(value: Any, drawn: Mapping[str, Value], lang: str) -> Any:
    """A template value with every string filled (lists and mappings recursively); a list item `@slot.field`
    is replaced by the items of that drawn list (a fact's plausible wrong answers); an item that fills to ""
    is dropped (a wrong answer the `romanwrong` filter rules out)."""
    if isinstance(value, list):
        out: list[Any] = []
        for v in value:
            if isinstance(v, str) and v.startswith("@"):
                out.extend(_filled(list(drawn_path(drawn, v[1:])), drawn, lang))
            else:
                item = _filled(v, drawn, lang)
                if item != "":
                    out.append(item)
        return out
    if isinstance(value, dict):
        return {k: _filled(v, drawn, lang) for k, v in value.items()}
    return fill_value(value, drawn, lang)


def _expectation(case: Case, template: Template, drawn: Mapping[str, Value]) -> Expectation:
    if template.call is not None:
        if case.expect.call is None:
            raise TemplateError("a call template for a case that expects no call")
        args = {name: fill_value(v, drawn, case.lang) for name, v in template.call.items()}
        return replace(case.expect, call=Call(case.expect.call.name, args))
    fields = _filled(dict(template.expect), drawn, case.lang) if template.expect is not None else {}
    if template.terms:
        # What this draw asks for (a capability trap's item, a knowledge question's fact): the text rules read
        # a refusal or an asserted value against these terms (SPEC §3.3), so the public case's would be wrong.
        terms = {key: {lang: [_as_stems(t) for t in words] for lang, words in value.items()}
                 for key, value in _filled(dict(template.terms), drawn, case.lang).items()}
        for key, value in terms.items():
            problem = term_field_problem(value, key)
            if problem is not None:
                raise TemplateError(f"drawn {problem}")
        fields.update(terms)
    if fields:
        # The public expectation with the drawn fields replaced, read as the corpus reads a case.
        return Expectation.from_dict({**case.expect.as_dict(), **fields})
    return case.expect


# What may stand around a word of a drawn term but is not part of it (quotes, stops, brackets).
_EDGE_PUNCTUATION = ".,;:!?«»“”„\"'()[]{}—–-"


def _as_stems(term: str) -> str:
    """A drawn term with each word that inflects written as its stem (`*`), as the public cases write theirs:
    Эквадора -> Эквадор*, sushi -> sushi*, so that any form of the word in an answer counts. Short words,
    numbers and words already ending in `*` stay as they are (a 3-letter stem would match unrelated words).
    Punctuation at a word's edges is dropped (a drawn title «Впечатление. Восходящее солнце» is the words
    Впечатлен* Восходящ* солнц*): the term syntax knows words, `*` and ` ... ` only."""
    out = []
    for raw in term.split():
        word = raw if raw == "..." else raw.strip(_EDGE_PUNCTUATION)
        if not word:
            continue
        if word.endswith("*") or not word.isalpha() or word == "...":
            out.append(word)
        elif any("\u0400" <= ch <= "\u04ff" for ch in word):
            stem = ru_stem(word)
            out.append(stem + "*" if len(stem) >= 4 else word)
        else:
            out.append(word + "*" if len(word) >= 4 else word)
    return " ".join(out)


def _history(case: Case, template: Template, drawn: dict[str, Value]) -> list[dict]:
    """The drawn messages before the last: each user or assistant text from the template, each call's
    arguments from it, each tool result computed by running the drawn call in the World (so results and
    later messages agree; `{out}` in a later text is the last result)."""
    from tooluse1.world import World
    world = World(sleep=False)
    items = iter(template.history)
    out: list[dict] = []
    for message in case.messages[:-1]:
        if message["role"] == "tool":
            result = world.execute(Call(message["name"], out[-1]["tool_call"]["arguments"]))
            if not result.ok:
                raise TemplateError(f"the drawn call fails in the World: {result.error}")
            drawn["out"] = {"text": result.output}
            out.append({**message, "content": result.output})
            continue
        try:
            item = next(items)
        except StopIteration:
            raise TemplateError("history has fewer entries than the case's messages before the last") from None
        if "tool_call" in message:
            args = {k: fill_value(v, drawn, case.lang) for k, v in dict(item).items()}
            out.append({**message, "tool_call": {**message["tool_call"], "arguments": args}})
        else:
            out.append({**message, "content": fill(str(item), drawn, case.lang)})
    return out


def _candidate(case: Case, template: Template, seed: str, t: int) -> Case:
    drawn = draw_slots(template.slots, t, (seed, case.id), pools())
    history = _history(case, template, drawn) if template.history else list(case.messages[:-1])
    last = {**case.messages[-1], "content": fill(template.user, drawn, case.lang)}
    return replace(case, messages=(*history, last), expect=_expectation(case, template, drawn))


def draw_case(case: Case, seed: str, j: int) -> Case:
    """Draw j (1-based) of `case` under `seed`: the j-th candidate that differs from the public case in what
    the model must get right (its expectation; its user message for an exempt case). Depends only on (seed,
    case id, j) and the template, never on K."""
    template = templates()[case.id]
    found = 0
    for t in range(_MAX_CANDIDATES):
        try:
            cand = _candidate(case, template, seed, t)
        except TemplateError as e:
            raise DrawError(f"template {case.id}: {e}") from None
        by_message = template.exempt or template.differ_in_message
        same = (cand.messages == case.messages) if by_message else (cand.expect == case.expect)
        if not same:
            found += 1
            if found == j:
                return replace(cand, id=f"{case.id}.d{j}", source=f"draws/templates:{case.id} draw {j}")
    raise DrawError(f"template {case.id}: fewer than {j} of {_MAX_CANDIDATES} draws differ from the public case; "
                    f"widen its slots")


def draw_corpus(public: Sequence[Case], public_manifest: Mapping[str, Any], seed: str,
                k: int) -> tuple[list[Case], dict]:
    """K draws of every templated public case (in id order) and their manifest (`draws` as in
    draws_provenance; `sha256` the digest of the drawn cases)."""
    table = templates()
    cases = [draw_case(c, seed, j) for c in public if c.id in table for j in range(1, k + 1)]
    jsonl = render_jsonl(cases)
    manifest = {"name": public_manifest.get("name", "ToolUse.1"), "version": SPEC_VERSION,
                "sha256": hashlib.sha256(jsonl).hexdigest(), "n_cases": len(cases), "counts": counts(cases),
                "draws": draws_provenance(seed, k, public_manifest["sha256"],
                                          sum(1 for c in public if c.id in table))}
    return cases, manifest


def draws_provenance(seed: str, k: int, public_sha256: str, n_templates: int) -> dict:
    """What a results file records of a drawn corpus (never the seed itself)."""
    return {"seed_sha256": seed_sha256(seed), "k": k, "generator": GENERATOR_VERSION,
            "public_sha256": public_sha256, "n_templates": n_templates}


def draw_options(draws: Any, seed: Any, suite: Any = None) -> tuple[int, str | None]:
    """(K, seed) from the `--draws`/`--draw-seed` flags of any entry point: K = 0 and no seed for the public
    cases. DrawError naming the flag: a malformed value, a seed without draws, draws of a suite."""
    k = parse_draws(draws)
    if seed is not None and k == 0:
        raise DrawError("--draw-seed: it chooses the draws, and --draws is 0 (the public cases); add --draws K "
                        "(e.g. --draws 3) or drop --draw-seed")
    if k and suite:
        raise DrawError("--draws: seeded draws are of the built-in corpus, not of a suite; drop --draws or --suite")
    return k, (parse_seed(seed) if seed is not None else DEFAULT_SEED) if k else None


def session_cases(suite: Any, draws: Any = 0, seed: Any = None) -> tuple[list[Case], dict, tuple[str, ...]]:
    """What a session grades: `tooluse1.suite.load_session_cases(suite)`, or with `--draws K` the K draws of
    the built-in corpus under `seed` (DEFAULT_SEED when None). Raises DrawError or CasesUnusable."""
    from tooluse1.suite import load_session_cases
    k, s = draw_options(draws, seed, suite)
    cases, manifest, tool_names = load_session_cases(suite)
    if not k:
        return cases, manifest, tool_names
    assert s is not None
    drawn, drawn_manifest = draw_corpus(cases, manifest, s, k)
    return drawn, drawn_manifest, tool_names


def check_recorded_seed(recorded: Mapping[str, Any], seed: Any, where: str) -> str:
    """The seed to regenerate the draws a results file records (`provenance.corpus.draws`): `seed` (the
    `--draw-seed` given again; DEFAULT_SEED when None) checked against the recorded hash and the generator
    against this one. DrawError naming the file and the fix."""
    s = parse_seed(seed) if seed is not None else DEFAULT_SEED
    if seed_sha256(s) != recorded["seed_sha256"]:
        hint = "pass the seed it was run with, --draw-seed S" if seed is None else "check the seed"
        raise DrawError(f"{where} was drawn with another seed (sha256 {recorded['seed_sha256'][:12]}…) than "
                        f"{'the published one' if seed is None else '--draw-seed'}: {hint}")
    return s


