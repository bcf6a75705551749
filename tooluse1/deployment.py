"""Deployment conformance: two runs of the same weights through different serving paths (in-process vs a
server, a server streamed vs not, vLLM vs SGLang), compared item by item on what the model's answer became.

Each paired item (both answered, no backend error) falls in exactly one class, the first that holds:

- ``identical``: the same output text and the same structured tool calls;
- ``lost`` / ``gained``: BASE has a call and NEW none (lost), or the other way round (gained): the failure
  that streamed tool parsers of serving engines show (calls dropped, or a call left as text nobody reads);
- ``moved``: the same calls (tool and arguments), but carried in ``tool_calls`` on one side and written in
  the text (``content``) on the other: a server's tool parser that did or did not take the call out;
- ``changed``: calls on both sides, with another tool, other arguments or another number of calls;
- ``text_only``: the same calls in the same place (or none on either side), only the text differs.

Calls are the extraction's (``Extraction.calls``: structured calls and calls written in the text, parsed
by the grader's formats), so two spellings of one call are the same call. The counts do not look at
verdicts: an item can move its call and still pass on both sides; flips are `compare`'s.

Sampled runs (`--samples`, `--temperature`) are compared answer by answer: sample j of an item in BASE
against sample j of the same item in NEW (`answer_pairs`), which was drawn with the same seed
(`sampling.sample_seed(S, item, j)`), over the samples both have; the counts are then of sample pairs. That is
only meaningful between runs that sample alike, so `sampled_refusal` leaves the section out (with one line
saying why) when one run is greedy and the other sampled, when temperature or top-p differ, or when the sample
seeds differ: their sample j are independent draws, and every class would count chance. Even at one seed, two
serving paths draw the same tokens only when they share the sampler and its random stream (one server
streamed vs not, a tool parser on or off); between engines (in-process vs vLLM) seeded samples differ by
chance, and the `text_only` / `changed` counts then measure sampling noise too: deployment conformance of
different engines is read from greedy runs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from tooluse1.results import ItemRecord
from tooluse1.sampling import decoding_key, describe_decoding, is_sampled

CLASSES = ("identical", "lost", "gained", "moved", "changed", "text_only")
DESCRIPTIONS = {
    "identical": "same text and tool_calls",
    "lost": "a call in BASE, none in NEW",
    "gained": "a call in NEW, none in BASE",
    "moved": "same calls, between tool_calls and content",
    "changed": "calls on both sides, another tool or arguments",
    "text_only": "same calls, different text",
}


def _calls(r: ItemRecord) -> list[str]:
    """The item's calls as canonical JSON strings (tool and arguments), in order."""
    calls = r.extraction.calls if r.extraction is not None else []
    return [json.dumps([c.name, c.arguments], sort_keys=True, ensure_ascii=False) for c in calls]


def _structured(r: ItemRecord) -> bool:
    """Whether the answer's calls came as the API's structured tool_calls (else from the text)."""
    return bool(r.completion.tool_calls)


def classify(base: ItemRecord, new: ItemRecord) -> str:
    """The class of one paired item (see the module docstring)."""
    # No structured calls is one answer whichever way a backend says it: the in-process backend records
    # None, a server that parsed the text and found no call an empty list.
    if base.completion.text == new.completion.text and \
            (base.completion.tool_calls or []) == (new.completion.tool_calls or []):
        return "identical"
    b_calls, n_calls = _calls(base), _calls(new)
    if b_calls and not n_calls:
        return "lost"
    if n_calls and not b_calls:
        return "gained"
    if b_calls != n_calls:
        return "changed"
    if b_calls and _structured(base) != _structured(new):
        return "moved"
    return "text_only"


@dataclass
class Conformance:
    """The class counts of the paired items and, per class but `identical`, the first examples (pairs)."""

    n_items: int                       # paired answers: items, or sample pairs when `sampled`
    counts: dict[str, int]
    examples: dict[str, list[tuple[ItemRecord, ItemRecord]]] = field(default_factory=dict)
    sampled: bool = False              # sample j against sample j (`answer_pairs`)

    @property
    def unit(self) -> str:
        """What `n_items` counts, in words."""
        return "sample pairs (sample j against sample j, the same seed)" if self.sampled else "paired items"

    @property
    def conformant(self) -> bool:
        """No call was lost, gained, moved or changed (text-only differences allowed)."""
        return all(self.counts[c] == 0 for c in ("lost", "gained", "moved", "changed"))

    def as_dict(self, max_examples: int = 5) -> dict[str, Any]:
        def side(r: ItemRecord) -> dict[str, Any]:
            return {"output": r.completion.text, "tool_calls": r.completion.tool_calls, "calls": _calls(r)}
        return {"n_items": self.n_items, "counts": dict(self.counts), "conformant": self.conformant,
                "paired": "samples" if self.sampled else "items",
                "examples": {c: [{"item_id": b.item_id, "base": side(b), "new": side(n)}
                                 for b, n in pairs[:max_examples]] for c, pairs in self.examples.items()}}


def sampled_refusal(base_decoding: dict, new_decoding: dict) -> str | None:
    """Why two runs' answers cannot be paired sample by sample (see the module docstring), in one line, or
    None: both greedy, or both sampled at one temperature, top-p and sample seed (the sample counts may
    differ: the samples both have are paired)."""
    if not (is_sampled(base_decoding) or is_sampled(new_decoding)):
        return None
    why = None
    if decoding_key(base_decoding) != decoding_key(new_decoding):
        why = f"{describe_decoding(base_decoding)} vs {describe_decoding(new_decoding)}"
    elif base_decoding.get("sample_seed") != new_decoding.get("sample_seed"):
        why = f"sample seeds {base_decoding.get('sample_seed')} vs {new_decoding.get('sample_seed')}"
    if why is None:
        return None
    return (f"deployment conformance left out: the runs do not sample alike ({why}), so sample j of one is no "
            f"counterpart of sample j of the other")


def answer_pairs(pairs: Iterable[tuple[ItemRecord, ItemRecord]]) -> list[tuple[ItemRecord, ItemRecord]]:
    """The (base, new) answers to classify: each pair of unsampled records as it is, and for a pair of sampled
    records sample j against sample j for every j both have (`ItemRecord.answers`; item ids `<item>#<j>`); an
    unsampled record against a sampled one meets its sample 0 (`compare` leaves such runs out: `sampled_refusal`)."""
    out: list[tuple[ItemRecord, ItemRecord]] = []
    for b, n in pairs:
        out.extend(zip(b.answers(), n.answers()))
    return out


def conformance(pairs: Iterable[tuple[ItemRecord, ItemRecord]], max_examples: int = 5) -> Conformance:
    """Classify every (base, new) pair of answers (`answer_pairs`: sampled records sample by sample); keep up
    to `max_examples` pairs per class (in the given order)."""
    counts = {c: 0 for c in CLASSES}
    examples: dict[str, list[tuple[ItemRecord, ItemRecord]]] = {}
    n = 0
    pairs = list(pairs)
    sampled = any(b.samples or new.samples for b, new in pairs)
    for b, new in answer_pairs(pairs):
        n += 1
        cls = classify(b, new)
        counts[cls] += 1
        if cls != "identical" and len(examples.setdefault(cls, [])) < max_examples:
            examples[cls].append((b, new))
    return Conformance(n, counts, examples, sampled)


def _excerpt(r: ItemRecord, limit: int) -> str:
    text = r.completion.text if len(r.completion.text) <= limit else r.completion.text[:limit] + "…"
    calls = r.completion.tool_calls
    return repr(text) + (f" tool_calls={json.dumps(calls, ensure_ascii=False)[:limit]}" if calls else "")


def format_conformance(c: Conformance, max_examples: int = 2, excerpt_chars: int = 120) -> Sequence[str]:
    """The text section: one line per class with its count, then up to `max_examples` examples of each."""
    share = (lambda k: f"{k / c.n_items:6.1%}") if c.n_items else (lambda k: "   n/a")
    lines = [f"deployment conformance ({c.n_items} {c.unit}; calls as the grader extracts them): "
             + ("no call lost, gained, moved or changed" if c.conformant else "CALLS DIFFER")]
    for cls in CLASSES:
        lines.append(f"  {cls:<10} {c.counts[cls]:>5} {share(c.counts[cls])}  {DESCRIPTIONS[cls]}")
    for cls, pairs in c.examples.items():
        for b, n in pairs[:max_examples]:
            lines.append(f"  e.g. {cls}: {b.item_id}")
            lines.append(f"    BASE {_excerpt(b, excerpt_chars)}")
            lines.append(f"    NEW  {_excerpt(n, excerpt_chars)}")
    return lines
