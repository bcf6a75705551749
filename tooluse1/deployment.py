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
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from tooluse1.results import ItemRecord

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
    if base.completion.text == new.completion.text and base.completion.tool_calls == new.completion.tool_calls:
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

    n_items: int
    counts: dict[str, int]
    examples: dict[str, list[tuple[ItemRecord, ItemRecord]]] = field(default_factory=dict)

    @property
    def conformant(self) -> bool:
        """No call was lost, gained, moved or changed (text-only differences allowed)."""
        return all(self.counts[c] == 0 for c in ("lost", "gained", "moved", "changed"))

    def as_dict(self, max_examples: int = 5) -> dict[str, Any]:
        def side(r: ItemRecord) -> dict[str, Any]:
            return {"output": r.completion.text, "tool_calls": r.completion.tool_calls, "calls": _calls(r)}
        return {"n_items": self.n_items, "counts": dict(self.counts), "conformant": self.conformant,
                "examples": {c: [{"item_id": b.item_id, "base": side(b), "new": side(n)}
                                 for b, n in pairs[:max_examples]] for c, pairs in self.examples.items()}}


def conformance(pairs: Iterable[tuple[ItemRecord, ItemRecord]], max_examples: int = 5) -> Conformance:
    """Classify every (base, new) pair; keep up to `max_examples` pairs per class (in the given order)."""
    counts = {c: 0 for c in CLASSES}
    examples: dict[str, list[tuple[ItemRecord, ItemRecord]]] = {}
    n = 0
    for b, new in pairs:
        n += 1
        cls = classify(b, new)
        counts[cls] += 1
        if cls != "identical" and len(examples.setdefault(cls, [])) < max_examples:
            examples[cls].append((b, new))
    return Conformance(n, counts, examples)


def _excerpt(r: ItemRecord, limit: int) -> str:
    text = r.completion.text if len(r.completion.text) <= limit else r.completion.text[:limit] + "…"
    calls = r.completion.tool_calls
    return repr(text) + (f" tool_calls={json.dumps(calls, ensure_ascii=False)[:limit]}" if calls else "")


def format_conformance(c: Conformance, max_examples: int = 2, excerpt_chars: int = 120) -> Sequence[str]:
    """The text section: one line per class with its count, then up to `max_examples` examples of each."""
    share = (lambda k: f"{k / c.n_items:6.1%}") if c.n_items else (lambda k: "   n/a")
    lines = [f"deployment conformance ({c.n_items} paired items; calls as the grader extracts them): "
             + ("no call lost, gained, moved or changed" if c.conformant else "CALLS DIFFER")]
    for cls in CLASSES:
        lines.append(f"  {cls:<10} {c.counts[cls]:>5} {share(c.counts[cls])}  {DESCRIPTIONS[cls]}")
    for cls, pairs in c.examples.items():
        for b, n in pairs[:max_examples]:
            lines.append(f"  e.g. {cls}: {b.item_id}")
            lines.append(f"    BASE {_excerpt(b, excerpt_chars)}")
            lines.append(f"    NEW  {_excerpt(n, excerpt_chars)}")
    return lines
