"""Fast greedy decoding for the transformers backend: a shared-prefix KV cache and a refilled decode batch.

Why. Every benchmark item of a protocol x tool-set group starts with the same ~1,100-token system prompt and
differs only in a ~20-token user turn, and answers range from 10 to 256 tokens. The plain path (batched
``model.generate``) prefills every prompt in full and keeps paying decode steps for rows that finished long
ago. Here:

1. **Shared prefix, computed on tokens.** Prompts are grouped by ``Prompt.shared_prefix_key``; a group's
   prefix is the longest common prefix of its members' *token id lists* (text boundaries need not fall on
   token boundaries, so the text is never split). It is prefilled once (batch 1), and its KV cache is reused
   by every member; only each member's own suffix is prefilled. The prefix is capped one token short of the
   shortest member, so every member prefills at least one token and gets the logits of its first answer token
   from its own forward pass. A group of one is prefilled whole, in one forward.
   **Across groups**, too: groups differ in their offered tools, not in the protocol instructions before
   them, so each batch-1 encoding (a group's prefix, a singleton's prompt) starts from the KV of its longest
   common token prefix with the previous one and feeds only the rest, at the positions that follow. Groups
   run in sorted token order, which makes the previous encoding the best one to start from (``group_tokens``);
   only one encoding is kept. On the full corpus this cuts the prefilled tokens from 55,222 to 37,939.
2. **Suffix prefill in chunks.** Up to ``prefill_rows`` members of a group are prefilled together over the
   (broadcast) prefix cache; members are sorted by suffix length and cut where padding would cost more than
   another forward pass (``plan_chunks``). Suffixes in a chunk differ in length, so each row is padded
   *between* prefix and suffix: ``[prefix | pad ... pad | suffix]``. The pad columns get attention-mask 0
   (nobody attends to them), and the real suffix tokens get position ids that continue from the prefix
   length (``Lp, Lp+1, ...``), exactly the positions they have in the unsplit prompt; every row's last real
   token sits in the last column, so ``logits_to_keep=1`` gives each row's next-token logits. Pad queries
   still see the (non-empty) prefix, so no query row is fully masked and no NaN can arise.
3. **A refilled decode batch.** Decoding runs on ``slots`` rows of a preallocated KV buffer (one per layer,
   ``[slots, kv_heads, capacity, head_dim]``, zero-filled so masked columns are finite). Each row holds one
   item, *dense and left-aligned*: its prompt KV (prefix copy + its suffix KV, pad columns dropped) in
   columns ``0 .. len-1``. A decode step feeds each row's last token at position ``len`` (its true position
   in the unsplit sequence), writes its K/V at column ``len`` of its own row (``_SlotLayer.update``), and
   attends with an additive 4D mask that opens columns ``0 .. len`` of that row only (rows of different
   lengths share the step; a row never sees another row's stale columns). When a row emits a stop id or
   reaches ``max_new_tokens`` it leaves at once (its callback fires), and the next prefilled item takes its
   row; when nothing is left to admit, the last row moves into the hole so the active rows stay
   contiguous and the batch shrinks instead of computing dead rows.
4. **Verified drafts.** Each row proposes up to ``DRAFT_TOKENS`` tokens by lookup in its own answer: what
   followed the latest earlier occurrence of its last 3 or 2 tokens, continued cyclically (an answer that
   repeats itself, e.g. a loop running to the token limit, is predicted as far as asked); failing that, by
   lookup in its prompt (an answer that copies from the prompt, like a plan repeated into a repair). One forward
   verifies them: row r feeds ``[last, d1 .. dk]`` at positions ``len_r ..``, and keeps the greedy tokens up
   to the first draft that differs from the model's own choice. The kept tokens are the ones plain greedy
   decoding would produce; the rejected drafts' cache columns lie beyond the row's length, so they are
   closed by the mask and overwritten later. Every row of a step feeds the same number q of query tokens
   (the batch is rectangular), so drafts are not free: the step picks the q with the most expected tokens
   per unit of cost (``choose_draft_width``), from each row's record of accepted drafts. A thin batch of
   looping rows gets long drafts; a full batch of ordinary answers gets none.

5. **Per-row token caps and continuous admission.** Each row has its own ``max_new_tokens`` (a plan may
   take 1,024 tokens in the batch where a verdict takes 96), so one ``run`` serves prompts of every cap. With
   ``more``, ``run`` keeps asking for new rows as others finish (the SPIN runner's next prompts, which exist
   only once earlier answers are in): they are planned into groups, merged into the not yet started work
   (longest cap first, so the answers that end a run start first when rows wait for slots; then token
   order), and admitted into free slots of the running batch; the KV buffer grows when a new row needs
   more columns. Batch-1 encodings are reused from a cache of the most recent ones (the entry sharing
   the longest token prefix), not only from the previous one: with rows arriving over time, the encoding a
   new prompt shares most with is rarely the one just before it.

6. **Ragged steps with packed grouped-query attention.** A decode step feeds all rows' tokens as one
   flattened sequence (``[1, T]``, T = the sum of the rows' token counts) at their true positions, so the
   weight work is proportional to the tokens actually fed. Its attention (``ragged_gqa_attention``, run as
   ``packed_gqa_sdpa``) takes each row's queries over that row's own columns only, with the query heads
   that share a key/value head as one sequence of ``group x count`` queries (no ``repeat_kv`` copy of every
   row's cache per query head). Reading the keys and values is what attention costs here, so a short row
   beside a 3,000-token repair no longer reads 3,000 columns; rows of one token and similar widths still
   go through one batched call. ``benchmarks/bench_decode_step.py`` times it against the rectangular step
   it replaced (BENCHMARKS.md, "Decode step").

7. **Sampling** (sampled trials, ``RowSampler``). With a sampler, every next token (the first, from the
   prefill's logits, and each decode step's) is drawn from the row's own ``torch.Generator`` instead of
   taken greedily, and verified drafts are off (a draft is kept when it equals the greedy token, which says
   nothing about a sampled one). The samples of one item are copies of one prompt: they share its group's
   prefix, and identical suffixes in a chunk are prefilled once (``_prefill_suffixes``), so the item's prompt
   is encoded once and each sample decodes in its own row.

Result: the same greedy tokens as encoding each whole prompt alone, up to float rounding (matrix-product
shapes differ between batchings, which can flip a near-tie; the same caveat as any batched decoding).

Scope: decoder-only models whose attention layers use the ``Cache.update`` protocol, accept explicit
``position_ids`` and a prepared 4D mask, with full attention in every layer (no sliding window, no linear
attention), and the ``sdpa`` or ``eager`` attention implementation. ``unsupported_reason`` says why a model
is not; the backend then falls back to the plain path.
"""
from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, cast

import torch
from transformers import AttentionInterface, DynamicCache
from transformers.cache_utils import Cache, CacheLayerMixin
from transformers.integrations.sdpa_attention import sdpa_attention_forward

_ATTENTION_IMPLEMENTATIONS = ("sdpa", "eager")


def unsupported_reason(model: Any) -> str | None:
    """None if the fast path can run this model, else a short reason (the backend then uses the plain path)."""
    config = model.config
    if getattr(config, "is_encoder_decoder", False):
        return "encoder-decoder model"
    attn = getattr(config, "_attn_implementation", None)
    if attn not in _ATTENTION_IMPLEMENTATIONS:
        return f"attention implementation {attn!r} (needs one of {', '.join(_ATTENTION_IMPLEMENTATIONS)})"
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    layer_types = getattr(text, "layer_types", None) or []
    other = sorted({t for t in layer_types if t != "full_attention"})
    if other:
        return f"layer types {other} (the slot cache implements full attention only)"
    if getattr(text, "sliding_window", None) is not None and getattr(text, "use_sliding_window", True):
        return "sliding-window attention"
    return None


# The attention implementation a decode step runs under (module doc, point 6).
PACKED_ATTENTION = "tooluse1_packed_gqa_sdpa"


# The model-call keyword that carries a decode step's row layout (RaggedStep) to the packed attention.
RAGGED_STEP_KWARG = "tooluse1_ragged_step"
# Attention runs as one batched call when the rows' key widths fill at least this share of the padded
# width (and no row verifies drafts), else one call per row (~20 us a row and layer).
BATCHED_ATTENTION_FILL = 0.75


@dataclass
class RaggedStep:
    """The layout of one decode step's flattened query tokens: row r owns ``counts[r]`` consecutive tokens
    from ``starts[r]`` and attends the first ``widths[r]`` columns of its cache row (its length + its count).
    Either ``padding_mask`` is set (every row feeds one token and the widths are close: one batched call,
    ``[rows, 1, groups, max width]``), or ``masks[r]`` is row r's own additive ``[1, 1, groups * count,
    width]`` mask (None when it feeds one token, which sees every column up to its own)."""

    starts: list[int]
    counts: list[int]
    widths: list[int]
    masks: list[torch.Tensor | None]
    padding_mask: torch.Tensor | None = None


def ragged_step(lengths: Sequence[int], counts: Sequence[int], groups: int, dtype: torch.dtype,
                device: torch.device | str) -> RaggedStep:
    """The RaggedStep of rows with ``lengths`` cached tokens feeding ``counts`` tokens each, for a model with
    ``groups`` query heads per key/value head; its masks are built here once for every layer of the step."""
    # Additive mask value for closed columns: the dtype's minimum rather than -inf, so that even a fully
    # masked row would give a finite (uniform) softmax instead of NaN.
    closed = torch.finfo(dtype).min
    starts = [0]
    for c in counts[:-1]:
        starts.append(starts[-1] + c)
    widths = [length + c for length, c in zip(lengths, counts)]
    width = max(widths)
    if all(c == 1 for c in counts) and sum(widths) >= BATCHED_ATTENTION_FILL * len(widths) * width:
        mask = torch.zeros((len(widths), 1, 1, width), dtype=dtype, device=device)
        mask.masked_fill_(torch.arange(width, device=device)[None, None, None, :]
                          >= torch.tensor(widths, device=device)[:, None, None, None], closed)
        return RaggedStep(starts, list(counts), widths, [None] * len(widths),
                          padding_mask=mask.expand(len(widths), 1, groups, width))
    masks: list[torch.Tensor | None] = []
    for length, c, w in zip(lengths, counts, widths):
        if c == 1:
            masks.append(None)
            continue
        mask = torch.full((c, w), closed, dtype=dtype, device=device)
        mask.masked_fill_(torch.arange(w, device=device)[None, :]
                          <= (length + torch.arange(c, device=device))[:, None], 0.0)
        masks.append(mask.repeat(groups, 1)[None, None])
    return RaggedStep(starts, list(counts), widths, masks)


def ragged_gqa_attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, step: RaggedStep,
                         scaling: float | None) -> torch.Tensor:
    """Attention of a ragged decode step: query ``[1, heads, T, dim]`` (all rows' tokens flattened), key and
    value ``[rows, kv_heads, >= max width, dim]`` (row r's cache row). Returns ``[1, T, heads, dim]``.

    The query heads that share a key/value head form one sequence of ``groups x count`` queries over that
    head's cache (no ``repeat_kv`` copy of the cache per query head), and each row reads only its own columns
    (rows of very different lengths do not all pay for the longest one), unless the step is batched
    (``step.padding_mask``: one call for all rows, see ragged_step)."""
    _, heads, total, dim = query.shape
    rows, kv_heads = key.shape[0], key.shape[1]
    groups = heads // kv_heads
    sdpa = torch.nn.functional.scaled_dot_product_attention
    if step.padding_mask is not None:
        width = step.padding_mask.shape[-1]
        packed = query[0].transpose(0, 1).reshape(rows, kv_heads, groups, dim)          # [rows, kv, g, dim]
        out = sdpa(packed, key[:, :, :width], value[:, :, :width], attn_mask=step.padding_mask, scale=scaling)
        return out.reshape(rows, heads, dim)[None]
    outs = []
    for r, (start, count, w) in enumerate(zip(step.starts, step.counts, step.widths)):
        packed = query[:, :, start:start + count].reshape(1, kv_heads, groups * count, dim)
        out = sdpa(packed, key[r:r + 1, :, :w], value[r:r + 1, :, :w], attn_mask=step.masks[r], scale=scaling)
        outs.append(out.reshape(1, heads, count, dim).transpose(1, 2))
    return torch.cat(outs, dim=1)


def packed_gqa_sdpa(module: Any, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                    attention_mask: torch.Tensor | None, dropout: float = 0.0, scaling: float | None = None,
                    is_causal: bool | None = None, **kwargs: Any) -> tuple[torch.Tensor, None]:
    """The attention implementation of a decode step: a step that carries its RaggedStep (``RAGGED_STEP_KWARG``,
    as FastGreedyDecoder's steps do) runs ragged_gqa_attention; any other call goes to transformers' sdpa.

    Why not transformers' sdpa for the step: it packs the query heads of a key/value head into one sequence
    only for a single query token of a rectangular batch; with verified drafts and an explicit mask it
    materialises the cache once per query head (``repeat_kv``: 7 copies of every row's keys and values per
    layer for the default model), and every row reads the columns of the longest one."""
    step = kwargs.pop(RAGGED_STEP_KWARG, None)
    if step is None:
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout, scaling=scaling,
                                      is_causal=is_causal, **kwargs)
    return ragged_gqa_attention(query, key, value, step, scaling).contiguous(), None


AttentionInterface.register(PACKED_ATTENTION, packed_gqa_sdpa)


def greedy_tokens(logits: torch.Tensor) -> torch.Tensor:
    """The greedy token of each row of ``logits`` ``[n, vocab]``: the index of its maximum, the first one on
    ties (as ``argmax``). ``max(dim).indices`` reads bfloat16 logits in place: 15 ms for 174 x 151,936 on two
    threads, against 46 ms for ``argmax`` on them and 56 ms for ``argmax`` on a float32 copy (a copy of
    100 MB at 170 tokens, made every decode step)."""
    return logits.max(dim=-1).indices


class RowSampler:
    """Seeded sampling of next tokens: one ``torch.Generator`` per row, seeded with ``seed_of(row index)``.

    Guarantees: a row's token is a function of its own logits and its own generator's state only (one
    uniform draw per token from the row's generator; the logits of other rows in the same call are never
    read), so a row's sampled text does not depend on what it is batched with (up to the float rounding of
    the logits themselves, module doc) and a run is reproducible. The draw is by inverse CDF: the
    probabilities of ``softmax(logits / temperature)`` (float32), in vocabulary order, or with ``top_p`` < 1
    sorted by probability and cut to the smallest head whose mass reaches ``top_p`` (the nucleus, as
    transformers' TopPLogitsWarper keeps it), renormalised; the token is the first whose cumulative
    probability exceeds ``u x mass`` (u uniform in [0, 1) from the row's generator).
    """

    def __init__(self, temperature: float, top_p: float, seed_of: Callable[[int], int]) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature {temperature}: sampling needs a temperature > 0")
        if not 0 < top_p <= 1:
            raise ValueError(f"top_p {top_p}: must be in (0, 1]")
        self.temperature, self.top_p, self.seed_of = float(temperature), float(top_p), seed_of
        self._generators: dict[int, torch.Generator] = {}

    def generator(self, index: int) -> torch.Generator:
        """Row ``index``'s generator (created and seeded on first use)."""
        g = self._generators.get(index)
        if g is None:
            g = self._generators[index] = torch.Generator().manual_seed(int(self.seed_of(index)))
        return g

    def pick(self, indices: Sequence[int], logits: torch.Tensor) -> list[int]:
        """One sampled token for each row of ``logits`` ``[n, vocab]``, row i drawn with row ``indices[i]``'s
        generator (each generator advances by one draw)."""
        u = torch.tensor([float(torch.rand((), generator=self.generator(i))) for i in indices],
                         dtype=torch.float32)
        probs = torch.softmax(logits.float() / self.temperature, dim=-1)
        order = None
        if self.top_p < 1:
            probs, order = probs.sort(dim=-1, descending=True, stable=True)
        cum = probs.cumsum(dim=-1)
        if order is None:
            mass = cum[:, -1]
            last = torch.full((len(indices),), probs.shape[-1] - 1, dtype=torch.long)
        else:
            # the nucleus: every token whose predecessors' mass is still below top_p (the first always)
            kept = ((cum - probs) < self.top_p).sum(dim=-1).clamp(min=1)
            last = (kept - 1).cpu()
            mass = cum.gather(1, (kept - 1)[:, None])[:, 0]
        target = (u.to(cum.device) * mass)[:, None]
        chosen = torch.searchsorted(cum.contiguous(), target.contiguous(), right=True)[:, 0].cpu()
        chosen = torch.minimum(chosen, last)
        if order is not None:
            chosen = order.cpu().gather(1, chosen[:, None])[:, 0]
        return [int(t) for t in chosen]


def common_prefix_len(rows: Sequence[Sequence[int]]) -> int:
    """Length of the longest common prefix of token id lists (0 for an empty input)."""
    if not rows:
        return 0
    first, n = rows[0], min(len(r) for r in rows)
    for j in range(n):
        t = first[j]
        if any(r[j] != t for r in rows):
            return j
    return n


# Prompt-lookup drafts (module doc, point 4): how many tokens a row may propose at most, and the cost model
# that decides how many of them a step verifies, in units of one query token's weight work. A step costs a
# fixed part (reading every weight once) of about STEP_OVERHEAD_TOKENS query tokens, shared by its rows, and
# each row's attention reads the row's keys and values once per step, about one query token per
# ATTENTION_COLUMNS_PER_TOKEN cached columns. Measured for the default model in bfloat16 on two threads
# (benchmarks/bench_decode_step.py's cost-model rows, BENCHMARKS.md): the constants come from one such
# measurement, 74 ms a step, 0.98 ms a query token, 1.3 us a row and column; the committed figures (75 ms,
# 1.07 ms, 1.32 us) give 70 and 810, within 10%. A draft token costs about one query token and counts as one.
DRAFT_TOKENS = 32
STEP_OVERHEAD_TOKENS = 74
ATTENTION_COLUMNS_PER_TOKEN = 770

# A forward pass costs about as much as this many extra tokens beyond its real work (reading every weight
# once, per-call overhead); used to decide when splitting a suffix chunk is worth one more forward.
CHUNK_OVERHEAD_TOKENS = 32


@dataclass
class PrefixGroup:
    """Items that share one prefilled prefix: ``members`` (indices into the run's rows) in admission order,
    cut into ``chunks`` (consecutive runs of members whose suffixes are prefilled in one forward)."""

    key: str
    members: list[int]
    prefix_len: int
    chunks: list[list[int]] = field(default_factory=list)


def plan_chunks(suffix_lens: Sequence[int], max_rows: int, overhead: int = CHUNK_OVERHEAD_TOKENS) -> list[int]:
    """Cut suffixes sorted longest-first into consecutive chunks of at most ``max_rows``, minimising the
    padded work: a chunk costs ``rows x its longest suffix + overhead`` tokens (exact dynamic programming).

    One long suffix (a multi-step history) no longer pads a whole chunk of short ones to its length; tiny
    chunks are avoided because each forward also pays ``overhead``. Returns the chunk sizes, in order.
    """
    n = len(suffix_lens)
    best: list[float] = [0, *[math.inf] * n]     # best[j]: cost of the first j suffixes (inf: none yet)
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(max(0, j - max_rows), j):
            cost = best[i] + (j - i) * suffix_lens[i] + overhead   # suffix_lens[i] is the chunk's longest
            if cost < best[j]:
                best[j], cut[j] = cost, i
    sizes, j = [], n
    while j > 0:
        sizes.append(j - cut[j])
        j = cut[j]
    return sizes[::-1]


def plan_groups(rows: Sequence[Sequence[int]], keys: Sequence[str], max_chunk_rows: int = 8) -> list[PrefixGroup]:
    """Group rows by key, give each group its token-level shared prefix, and plan the work.

    The prefix is the longest common token prefix of the group, capped at ``min(len) - 1`` so that every row
    prefills at least its last token (whose logits give the first answer token). A group of one has no
    group prefix (``prefix_len`` 0): its whole prompt is one batch-1 encoding. A group of
    several rows whose prefix would be empty is split into such singletons (a chunk of rows with no prefix
    would contain fully masked pad queries). Members are ordered by suffix length, longest first (stable by
    index), and cut into prefill chunks of at most ``max_chunk_rows`` (``plan_chunks``); groups are ordered
    by ``group_tokens`` (sorted token lists), so that each group shares the most with the one before it.
    """
    by_key: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        by_key.setdefault(key, []).append(i)
    groups: list[PrefixGroup] = []
    for key, members in by_key.items():
        member_rows = [rows[i] for i in members]
        lp = min(common_prefix_len(member_rows), min(len(r) for r in member_rows) - 1)
        if len(members) == 1:
            lp = 0                       # nothing to share: the whole prompt is the suffix, one forward
        elif lp <= 0:
            groups += [PrefixGroup(key, [i], 0) for i in members]
            continue
        members.sort(key=lambda i: (-(len(rows[i]) - lp), i))
        groups.append(PrefixGroup(key, members, max(lp, 0)))
    for g in groups:
        sizes = plan_chunks([len(rows[i]) - g.prefix_len for i in g.members], max_chunk_rows)
        starts = [sum(sizes[:k]) for k in range(len(sizes))]
        g.chunks = [g.members[a:a + size] for a, size in zip(starts, sizes)]
    groups.sort(key=lambda g: (group_tokens(rows, g), g.members[0]))
    return groups


def group_tokens(rows: Sequence[Sequence[int]], group: PrefixGroup) -> list[int]:
    """The tokens a group encodes outside its suffix chunks: its shared prefix, or a singleton's whole prompt.

    Groups run in the sorted order of these lists, because then the longest common prefix a group has with
    any group before it is the one it has with its immediate predecessor; the encoding cache
    (``_EncodingCache``) keeps that one among its most recent entries."""
    row = rows[group.members[0]]
    return list(row) if len(group.members) == 1 else list(row[:group.prefix_len])


@dataclass
class FinishedRow:
    """One item's raw result: every generated id (a final stop id included) and its share of the wall time."""

    index: int
    generated: list[int]
    cost_s: float
    shared_len: int       # prompt tokens whose KV came from a shared encoding (a group prefix, a neighbour)
    own_len: int          # prompt tokens prefilled for this item alone


@dataclass
class FastStats:
    """Counters of one ``FastGreedyDecoder.run`` (tests check them; the benchmark prints them)."""

    groups: int = 0
    prefix_prefills: int = 0          # one batch-1 forward per group of two or more (a non-empty prefix)
    prefix_tokens: int = 0            # tokens those forwards encoded (each shared prefix once)
    single_prefills: int = 0          # one batch-1 forward per group of one (its whole prompt)
    reused_tokens: int = 0            # prefix / single-prompt tokens taken from the previous such encoding
    suffix_prefills: int = 0          # chunk forwards
    suffix_tokens: int = 0            # tokens prefilled for one item alone (chunk suffixes, singletons' own)
    suffix_pad_tokens: int = 0        # pad columns between prefix and suffix in those chunks
    prompt_tokens: int = 0            # sum of full prompt lengths (what a plain path would prefill)
    admissions: int = 0               # items that entered a decode row
    decode_steps: int = 0
    decode_row_steps: int = 0         # sum over steps of active rows
    draft_steps: int = 0              # decode steps that verified drafts
    draft_tokens: int = 0             # draft tokens fed for verification (fed tokens = row steps + these)
    draft_accepted: int = 0           # draft tokens kept (tokens gained over one token per row and step)
    max_active: int = 0
    slots: int = 0
    capacity: int = 0                 # KV buffer columns per row
    kv_buffer_bytes: int = 0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    # decode steps and their seconds by active rows (1-8, 9-16, 17-32, 33-64, 65+): how much of the decode
    # time went into thin steps, where the fixed part of a step is shared by few rows
    steps_by_rows: list[int] = field(default_factory=lambda: [0] * len(ROW_BUCKETS))
    decode_s_by_rows: list[float] = field(default_factory=lambda: [0.0] * len(ROW_BUCKETS))

    def count_step(self, rows: int, seconds: float) -> None:
        bucket = next(i for i, top in enumerate(ROW_BUCKETS) if rows <= top)
        self.steps_by_rows[bucket] += 1
        self.decode_s_by_rows[bucket] += seconds

    def as_dict(self) -> dict:
        def rounded(v: Any) -> Any:
            return round(v, 3) if isinstance(v, float) else [rounded(x) for x in v] if isinstance(v, list) else v
        return {k: rounded(v) for k, v in self.__dict__.items()}


ROW_BUCKETS: tuple[float, ...] = (8, 16, 32, 64, float("inf"))   # upper bounds of FastStats' row buckets


# ----------------------------------------------------------------------------------------- the slot cache

@dataclass
class _StepState:
    """Where the current decode step writes: its t-th query token goes to cache row ``rows[t]``, column
    ``columns[t]``; keys are read from the first ``n_rows`` rows, up to ``width`` columns (the widest row)."""

    rows: torch.Tensor = field(default_factory=lambda: torch.zeros(0, dtype=torch.long))
    columns: torch.Tensor = field(default_factory=lambda: torch.zeros(0, dtype=torch.long))
    n_rows: int = 0
    width: int = 0


class _SlotLayer(CacheLayerMixin):
    """One layer's KV buffer ``[slots, kv_heads, capacity, head_dim]``; rows are written at their own column."""

    is_sliding = False
    keys: torch.Tensor              # always allocated (CacheLayerMixin's are None until the first update)
    values: torch.Tensor

    def __init__(self, keys: torch.Tensor, values: torch.Tensor, state: _StepState) -> None:
        super().__init__()
        self.keys, self.values, self._state = keys, values, state
        self.is_initialized = True
        self.device = keys.device

    def lazy_initialization(self, key_states: torch.Tensor, value_states: torch.Tensor) -> None:
        pass   # the buffers exist from the start

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args: Any,
               **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        # key_states: [1, kv_heads, T, head_dim], the step's T query tokens of every row flattened (RaggedStep);
        # token t goes to (rows[t], columns[t]).
        st = self._state
        self.keys[st.rows, :, st.columns] = key_states[0].transpose(0, 1)
        self.values[st.rows, :, st.columns] = value_states[0].transpose(0, 1)
        return self.keys[:st.n_rows, :, :st.width], self.values[:st.n_rows, :, :st.width]

    def get_mask_sizes(self, query_length: int) -> tuple[int, int]:
        return self._state.width, 0

    def get_seq_length(self) -> int:
        return max(self._state.width - 1, 0)

    def get_max_length(self) -> int:
        return self.keys.shape[-2]


def _layer_kv(layer: object) -> tuple[torch.Tensor, torch.Tensor]:
    """(keys, values) of a filled DynamicCache layer (transformers types them Optional, and its layer union
    includes kinds without them)."""
    keys, values = getattr(layer, "keys", None), getattr(layer, "values", None)
    assert isinstance(keys, torch.Tensor) and isinstance(values, torch.Tensor), type(layer).__name__
    return keys, values


class SlotCache(Cache):
    """A KV cache of ``slots`` independent rows of different lengths (see module doc, point 3)."""

    def __init__(self, num_layers: int, slots: int, kv_heads: int, capacity: int, head_dim: int,
                 dtype: torch.dtype, device: torch.device) -> None:
        self.state = _StepState()
        shape = (slots, kv_heads, capacity, head_dim)
        # zeros, not empty: masked columns are still multiplied (by a zero weight), and uninitialised memory
        # may hold NaN/Inf bit patterns, which would poison the row (0 * NaN = NaN).
        self.slot_layers = [_SlotLayer(torch.zeros(shape, dtype=dtype, device=device),
                                       torch.zeros(shape, dtype=dtype, device=device), self.state)
                            for _ in range(num_layers)]     # = self.layers, typed as what they are
        # the same list (list is invariant, so transformers' annotation, a list of its layer kinds, rejects it)
        super().__init__(layers=cast("list[Any]", self.slot_layers))

    @property
    def capacity(self) -> int:
        return self.slot_layers[0].keys.shape[2]

    @property
    def nbytes(self) -> int:
        return sum(layer.keys.nbytes + layer.values.nbytes for layer in self.slot_layers)

    def write_row(self, row: int, parts: Sequence[tuple[list[tuple[torch.Tensor, torch.Tensor]], int]]) -> None:
        """Fill row ``row`` from column 0 with KV pieces, each a per-layer list of ``[kv_heads, len, dim]``
        (key, value) tensors and its length, concatenated in order."""
        for layer_idx, layer in enumerate(self.slot_layers):
            col = 0
            for per_layer, length in parts:
                k, v = per_layer[layer_idx]
                layer.keys[row, :, col:col + length] = k
                layer.values[row, :, col:col + length] = v
                col += length

    def grow(self, capacity: int) -> None:
        """Widen every row to ``capacity`` columns (no-op when it is not wider); the stored columns are kept."""
        if capacity <= self.capacity:
            return
        for layer in self.slot_layers:
            for name in ("keys", "values"):
                old = getattr(layer, name)
                new = torch.zeros((*old.shape[:2], capacity, old.shape[3]), dtype=old.dtype, device=old.device)
                new[:, :, :old.shape[2]] = old
                setattr(layer, name, new)

    def move_row(self, src: int, dst: int, length: int) -> None:
        """Copy the first ``length`` columns of row ``src`` into row ``dst``."""
        for layer in self.slot_layers:
            layer.keys[dst, :, :length] = layer.keys[src, :, :length]
            layer.values[dst, :, :length] = layer.values[src, :, :length]


# ----------------------------------------------------------------------------------------- the decoder

KV = list[tuple[torch.Tensor, torch.Tensor]]     # per layer (key, value), each [kv_heads, length, head_dim]


@dataclass(eq=False)
class _Encoded:
    """The KV of one sequence encoded at batch 1 (a group's prefix or a singleton's prompt).

    Compared by identity: the cache holds two encodings of the same tokens when a prompt recurs after its
    first encoding was extended, and comparing their tensors by value would be ambiguous (and slow)."""

    tokens: list[int] = field(default_factory=list)
    kv: KV = field(default_factory=list)
    ids: torch.Tensor = field(init=False, repr=False)   # tokens as a tensor, for the cache's vectorised compare
    nbytes: int = field(init=False, repr=False)         # bytes of kv, for the cache's byte budget

    def __post_init__(self) -> None:
        self.ids = torch.tensor(self.tokens, dtype=torch.long)
        self.nbytes = sum(k.nbytes + v.nbytes for k, v in self.kv)


# Batch-1 encodings kept for reuse: at most this many, holding at most ENCODING_CACHE_BYTES of KV (least
# recently used dropped first). The SPIN runner keeps hundreds of runs in flight, and the encoding a prompt
# shares most with (its planner prompt for a repair, simulator k for critic k) was often made a hundred
# encodings earlier; a core run's groups come in token order, so its best entry is the newest anyway. One
# token of the default model is 12 KB of KV in bfloat16 (24.6 KB in float32).
ENCODING_CACHE_ENTRIES = 512
ENCODING_CACHE_BYTES = 2 * 1024 ** 3


class _EncodingCache:
    """The most recent batch-1 encodings (least recently used dropped first, within an entry and a byte
    budget); `best` finds the one that shares the longest token prefix with a new sequence."""

    def __init__(self, entries: int = ENCODING_CACHE_ENTRIES, max_bytes: int = ENCODING_CACHE_BYTES) -> None:
        self.entries: list[_Encoded] = []
        self.size = max(1, entries)
        self.max_bytes = max_bytes
        self.nbytes = 0

    def best(self, tokens: Sequence[int]) -> tuple[_Encoded | None, int]:
        found, length = None, 0
        if not self.entries or not tokens:
            return found, length
        query = torch.tensor(tokens, dtype=torch.long)
        for entry in reversed(self.entries):       # newest first: ties go to the most recent
            m = min(len(query), len(entry.ids))
            if m <= length:
                continue
            differs = (query[:m] != entry.ids[:m]).nonzero()
            n = int(differs[0]) if len(differs) else m
            if n > length:
                found, length = entry, n
        return found, length

    def add(self, entry: _Encoded) -> None:
        self.entries.append(entry)
        self.nbytes += entry.nbytes
        while len(self.entries) > 1 and (len(self.entries) > self.size or self.nbytes > self.max_bytes):
            self.nbytes -= self.entries.pop(0).nbytes

    def touch(self, entry: _Encoded) -> None:
        self.entries.remove(entry)
        self.entries.append(entry)


@dataclass
class _GroupWork:
    """A group not yet fully prefilled: the chunks left, and once encoded, its prefix KV and per-member share
    of the prefix's cost."""

    group: PrefixGroup
    todo: deque[list[int]]
    prefix_kv: KV | None = None
    prefix_share: float = 0.0


@dataclass
class _Ready:
    """A prefilled item waiting for a decode row: ``kv_parts`` (KV pieces and their lengths, concatenated into
    the row in order), ``shared_len`` prompt tokens taken from a shared encoding and ``own_len`` prefilled
    for this item alone (together its prompt)."""

    index: int
    kv_parts: list[tuple[KV, int]]
    shared_len: int
    own_len: int
    first_token: int
    cost_s: float


PROMPT_NGRAM = 4


def _suffix_match(a: Sequence[int], a_end: int, b: Sequence[int], b_end: int, cap: int = 64) -> int:
    """How many tokens before a_end in a equal those before b_end in b (at most cap)."""
    n = 0
    while n < cap and n < a_end and n < b_end and a[a_end - 1 - n] == b[b_end - 1 - n]:
        n += 1
    return n


def ngram_index(tokens: Sequence[int], n: int = PROMPT_NGRAM) -> dict[tuple[int, ...], int]:
    """Each n-gram of `tokens` -> the position right after its latest occurrence (for prompt lookup)."""
    return {tuple(tokens[i:i + n]): i + n for i in range(len(tokens) - n + 1)}


@dataclass
class _Row:
    """An item in a decode row: ``length`` tokens in the cache; ``generated[-1]`` is the next input.
    ``prompt`` and ``prompt_index`` (ngram_index of it) let drafts copy from the prompt."""

    index: int
    length: int
    generated: list[int]
    cost_s: float
    shared_len: int
    own_len: int
    drafts_checked: int = 0      # draft tokens compared with the model's choice (accepted + rejected)
    drafts_accepted: int = 0
    prompt: Sequence[int] = ()
    prompt_index: dict[tuple[int, ...], int] = field(default_factory=dict)

    def drafts(self, k: int) -> list[int]:
        """``k`` tokens predicted for this row, or [] when nothing predicts them, from whichever source
        matches the row's latest tokens further back: its own answer (what followed the latest earlier
        occurrence of its last 3, else 2, generated tokens, continued cyclically past the end: a loop of
        period p seen once predicts itself indefinitely) or its prompt (what followed the latest
        occurrence there of its last PROMPT_NGRAM tokens: an answer that copies from its prompt, like a plan
        repeated verbatim into a repair, keeps copying). A chance match costs one rejected draft, and the
        row's acceptance record then narrows what a step verifies."""
        if k <= 0:
            return []
        seq = self.generated
        own: list[int] = []
        own_len = 0
        for n in (3, 2):
            if len(seq) <= n:
                continue
            tail = seq[-n:]
            for i in range(len(seq) - n - 1, -1, -1):
                if seq[i:i + n] == tail:
                    extended = list(seq)
                    for j in range(k):      # index i + n + j is always already known (i + n < len(seq))
                        extended.append(extended[i + n + j])
                    own, own_len = extended[len(seq):], _suffix_match(seq, i + n, seq, len(seq))
                    break
            if own:
                break
        if self.prompt_index and len(seq) >= PROMPT_NGRAM:
            after = self.prompt_index.get(tuple(seq[-PROMPT_NGRAM:]))
            if after is not None and _suffix_match(self.prompt, after, seq, len(seq)) > own_len:
                return list(self.prompt[after:after + k])
        return own

    @property
    def acceptance(self) -> float:
        """Estimated chance that this row's next draft token is accepted, given the previous one was (Laplace
        estimate from its record: 1/2 before any draft was checked, near 1 for a loop)."""
        return (self.drafts_accepted + 1) / (self.drafts_checked + 2)

    def record_drafts(self, fed: int, accepted: int) -> None:
        """Count a verification of ``fed`` draft tokens of which the first ``accepted`` were kept."""
        self.drafts_accepted += accepted
        self.drafts_checked += accepted + (accepted < fed)


def draft_lengths(proposals: Sequence[Sequence[int]], acceptance: Sequence[float], lengths: Sequence[int],
                  overhead: float = STEP_OVERHEAD_TOKENS,
                  columns_per_token: float = ATTENTION_COLUMNS_PER_TOKEN) -> list[int]:
    """How many of its proposed draft tokens each row verifies in the next step (rows feed different numbers
    of tokens: a step is ragged). The j-th draft token of row r costs one query token now and, with
    probability ``p ** j`` (p the row's acceptance; it counts only if all before it are kept), saves one
    future step of that row, which costs ``1 + length / columns_per_token`` (its token and its attention
    over its cached columns) plus its share ``overhead / n`` of the step's fixed part. So a row verifies its
    first m drafts, m the largest with ``p ** m * saved > 1``: a loop (p near 1) verifies long drafts, a row
    without a record (p = 1/2) at most a few, a row that keeps failing none; a thin batch drafts more."""
    n = len(proposals)
    out = []
    for proposal, p, length in zip(proposals, acceptance, lengths):
        saved = 1 + length / columns_per_token + overhead / max(n, 1)
        m, gain = 0, p * saved
        while m < len(proposal) and gain > 1:
            m += 1
            gain *= p
        out.append(m)
    return out


class FastGreedyDecoder:
    """Greedy decoding of many prompts with prefix reuse and slot refill (see module doc); with ``sampler``,
    seeded sampling instead (point 7).

    ``slots``: rows decoded together. ``prefill_rows``: members of a group prefilled per chunk (default
    ``slots``). Memory: the model, a KV buffer of ``slots x capacity`` tokens (``capacity`` = the longest
    prompt + its token cap; it grows when a row admitted later needs more), up to ``ENCODING_CACHE_ENTRIES``
    batch-1 encodings within ``ENCODING_CACHE_BYTES`` (group prefixes and singletons' prompts), and at most
    ``prefill_rows`` pending suffix KVs.
    """

    def __init__(self, model: Any, stop_ids: Sequence[int], pad_id: int, slots: int,
                 prefill_rows: int | None = None, encoding_cache: int = ENCODING_CACHE_ENTRIES,
                 sampler: RowSampler | None = None) -> None:
        reason = unsupported_reason(model)
        if reason is not None:
            raise ValueError(f"fast decoding does not support this model: {reason}")
        self.model = model
        self.stop_ids = frozenset(int(t) for t in stop_ids)
        self.pad_id = int(pad_id)
        self.slots = max(1, int(slots))
        self.prefill_rows = max(1, int(prefill_rows or slots))
        self.encoding_cache = encoding_cache
        # Sampling (RowSampler) instead of greedy choice; it turns verified drafts off: a draft is accepted
        # when it equals the greedy token, which says nothing about a sampled one.
        self.sampler = sampler
        text = model.config.get_text_config()
        self.num_layers = text.num_hidden_layers
        self.kv_heads = getattr(text, "num_key_value_heads", None) or text.num_attention_heads
        self.groups = text.num_attention_heads // self.kv_heads     # query heads per key/value head
        self.head_dim = getattr(text, "head_dim", None) or text.hidden_size // text.num_attention_heads
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self._no_mask = torch.zeros((1, 1, 1, 1), dtype=self.dtype, device=self.device)
        # Configs whose attention runs as sdpa: a decode step switches them to PACKED_ATTENTION (module doc,
        # point 6); prefill and every other path keep sdpa.
        configs = {id(m.config): m.config for m in model.modules() if hasattr(m, "config")}
        self._sdpa_configs = [c for c in configs.values() if getattr(c, "_attn_implementation", None) == "sdpa"]
        # A decode step's logits go into one reused buffer (step_logits) when the model's logits are exactly
        # its output projection of the body's last hidden state (no bias, scaling or soft-capping): a fresh
        # [tokens, vocab] tensor per step is over glibc's mmap threshold once a step feeds ~110 tokens, and
        # faulting in its pages doubled the projection's time (118 ms instead of ~55 ms for 174 tokens).
        body = getattr(model, getattr(model, "base_model_prefix", ""), None)
        head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
        rescaled = any(getattr(text, name, None) not in (None, 1, 1.0)
                       for name in ("final_logit_softcapping", "logit_scale", "logits_scaling"))
        plain_head = isinstance(head, torch.nn.Linear) and head.bias is None and not rescaled
        self._body: Any = None                       # the model without its head, when the head is plain
        self._head: torch.nn.Linear | None = None
        if body is not None and plain_head and isinstance(head, torch.nn.Linear):
            self._body, self._head = body, head
        self._logits_buffer = torch.empty((0, 0), dtype=self.dtype, device=self.device)

    # -- public -------------------------------------------------------------------------------------------

    def run(self, rows: Sequence[Sequence[int]], keys: Sequence[str], max_new_tokens: int | Sequence[int],
            on_finish: Callable[[FinishedRow], None],
            more: Callable[[], Sequence[tuple[Sequence[int], str, int]]] | None = None,
            stop_when: Callable[[int, Sequence[int]], bool] | None = None) -> FastStats:
        """Decode every row greedily; ``on_finish`` is called once per row, as soon as it is done.

        ``max_new_tokens`` is one cap for every row or one per row. ``more``, when given, is asked for new
        rows (token ids, prefix key, cap) whenever rows may have finished; each new row gets the next index
        (after the initial ones, in the order returned) and is decoded like the others. ``stop_when``, when
        given, is asked (row index, ids generated so far) after each generated token and ends the row when it
        answers True, as a stop id would (the tokens so far are kept). ``run`` returns when no row is left
        and ``more`` has nothing more. A row's text does not depend on what it is batched with (up to float
        rounding, module doc).
        """
        stats = FastStats(slots=self.slots)
        token_rows = [list(map(int, r)) for r in rows]
        if isinstance(max_new_tokens, int):
            caps = [int(max_new_tokens)] * len(token_rows)
        else:
            caps = [int(c) for c in max_new_tokens]
        if len(caps) != len(token_rows) or len(keys) != len(token_rows):
            raise ValueError(f"{len(token_rows)} rows need as many keys and caps; got {len(keys)} and {len(caps)}")
        with torch.inference_mode():
            self._loop(token_rows, list(keys), caps, more, stats, on_finish, stop_when)
        return stats

    # -- the schedule --------------------------------------------------------------------------------------

    def _loop(self, rows: list[list[int]], keys: list[str], caps: list[int],
              more: Callable[[], Sequence[tuple[Sequence[int], str, int]]] | None, stats: FastStats,
              on_finish: Callable[[FinishedRow], None],
              stop_when: Callable[[int, Sequence[int]], bool] | None = None) -> None:
        pending: deque[_GroupWork] = deque()      # groups not yet fully prefilled
        ready: deque[_Ready] = deque()
        active: list[_Row] = []          # active[r] lives in cache row r (always rows 0..len-1)
        encoded = _EncodingCache(self.encoding_cache)
        cache: SlotCache | None = None

        def finish(row: _Row) -> None:
            on_finish(FinishedRow(row.index, row.generated, row.cost_s, row.shared_len, row.own_len))

        def admit(start: int) -> None:
            """Plan rows[start:] into groups and merge them into the work not started yet: longest cap first,
            then token order."""
            new = list(range(start, len(rows)))
            stats.prompt_tokens += sum(len(rows[i]) for i in new)
            for i in new:
                if caps[i] < 1:               # nothing to generate: done before any work
                    on_finish(FinishedRow(i, [], 0.0, 0, len(rows[i])))
            new = [i for i in new if caps[i] >= 1]
            if not new:
                return
            groups = plan_groups([rows[i] for i in new], [keys[i] for i in new], self.prefill_rows)
            for g in groups:                  # indices local to `new` -> indices into rows
                g.members = [new[m] for m in g.members]
                g.chunks = [[new[m] for m in chunk] for chunk in g.chunks]
            stats.groups += len(groups)
            started = [pending.popleft()] if pending and (pending[0].prefix_kv is not None or
                                                          len(pending[0].todo) < len(pending[0].group.chunks)) else []
            waiting = list(pending) + [_GroupWork(g, deque(g.chunks)) for g in groups]
            # Longest token cap first (a plan or repair of 1,024 tokens before a 64-token prediction): when more
            # rows wait than there are slots, the long answers, which end the run, start first, and the short
            # ones fill the slots beside them; within a cap, token order (shared prefixes next to each other).
            waiting.sort(key=lambda w: (-max(caps[i] for i in w.group.members), group_tokens(rows, w.group)))
            pending.clear()
            pending.extend(started + waiting)

        def fetch() -> None:
            if more is None:
                return
            new = more()
            if new:
                start = len(rows)
                for tokens, key, cap in new:
                    rows.append(list(map(int, tokens)))
                    keys.append(key)
                    caps.append(int(cap))
                admit(start)

        admit(0)
        while True:
            fetch()
            # 1. Fill free rows: admit prefilled items, prefilling the next piece of work when none is waiting.
            while len(active) < self.slots and (ready or pending):
                if not ready:
                    ready.extend(self._prefill_next(pending[0], rows, encoded, stats))
                    if not pending[0].todo:
                        pending.popleft()      # the ready items keep their own reference to the prefix KV
                item = ready.popleft()
                prompt = rows[item.index]
                row = _Row(item.index, item.shared_len + item.own_len, [item.first_token], item.cost_s,
                           item.shared_len, item.own_len, prompt=prompt, prompt_index=ngram_index(prompt))
                if item.first_token in self.stop_ids or caps[item.index] == 1 or (
                        stop_when is not None and stop_when(item.index, row.generated)):
                    finish(row)                # done after the prefill: never takes a decode row
                    continue
                needed = len(rows[item.index]) + caps[item.index]
                if cache is None:
                    capacity = max([needed] + [len(rows[i]) + caps[i] for w in pending for i in w.group.members])
                    cache = SlotCache(self.num_layers, self.slots, self.kv_heads, capacity, self.head_dim,
                                      self.dtype, self.device)
                elif needed > cache.capacity:
                    cache.grow(max(needed, cache.capacity + cache.capacity // 4))
                stats.capacity, stats.kv_buffer_bytes = cache.capacity, cache.nbytes
                cache.write_row(len(active), item.kv_parts)
                active.append(row)
                stats.admissions += 1
            if not active:
                if more is not None and not ready and not pending:
                    fetch()                    # the last finishes may have produced new rows
                    if pending:
                        continue
                break
            assert cache is not None

            # 2. One decode step for rows 0..n-1, each verifying the drafts that pay for it (draft_lengths);
            # no drafts when sampling (FastGreedyDecoder.sampler).
            proposals = [[] if self.sampler is not None else
                         row.drafts(min(DRAFT_TOKENS, cache.capacity - row.length - 1,
                                        caps[row.index] - len(row.generated) - 1)) for row in active]
            keep = draft_lengths(proposals, [row.acceptance for row in active], [row.length for row in active])
            drafts = [d[:m] for d, m in zip(proposals, keep)]
            started = time.perf_counter()
            new_tokens = self._decode_step(active, drafts, cache)
            stats.draft_steps += any(drafts)
            stats.draft_tokens += sum(len(d) for d in drafts)
            elapsed = time.perf_counter() - started
            stats.decode_s += elapsed
            stats.decode_steps += 1
            stats.decode_row_steps += len(active)
            stats.count_step(len(active), elapsed)
            stats.max_active = max(stats.max_active, len(active))

            # 3. Record tokens; finished rows leave now, their callbacks fire now.
            done: list[int] = []
            for r, (row, tokens, fed) in enumerate(zip(active, new_tokens, drafts)):
                row.cost_s += elapsed / len(active)
                row.record_drafts(len(fed), len(tokens) - 1)
                for j, token in enumerate(tokens):
                    row.length += 1                  # the token fed before this one is now in the cache
                    row.generated.append(token)
                    stats.draft_accepted += j > 0
                    if token in self.stop_ids or len(row.generated) >= caps[row.index] or (
                            stop_when is not None and stop_when(row.index, row.generated)):
                        done.append(r)
                        break
            for r in reversed(done):                 # highest first, so moves never touch a finished row
                finish(active[r])
                last_row = len(active) - 1
                if r != last_row:                    # keep active rows contiguous: the last row fills the hole
                    cache.move_row(last_row, r, active[last_row].length)
                    active[r] = active[last_row]
                active.pop()

    def _prefill_next(self, work: _GroupWork, rows: list[list[int]], encoded: _EncodingCache,
                      stats: FastStats) -> list[_Ready]:
        """Prefill the next piece of ``work`` and pop it from ``work.todo``: a group of one is its whole prompt
        (one batch-1 forward over what the best cached encoding shares with it); a larger group's next suffix
        chunk, after encoding the group's prefix when this is its first chunk."""
        group = work.group
        single = len(group.members) == 1
        if single or work.prefix_kv is None:
            tokens = group_tokens(rows, group)
            started = time.perf_counter()
            entry, reused, next_logits = self._encode(tokens, encoded, logits=single)
            elapsed = time.perf_counter() - started
            stats.reused_tokens += reused
            stats.prefill_s += elapsed
            if single:
                assert next_logits is not None    # _encode(logits=True) returns them
                (index,) = work.todo.popleft()
                first_token = self.pick([index], next_logits)[0]
                stats.single_prefills += 1
                stats.suffix_tokens += len(tokens) - reused
                return [_Ready(index, [(entry.kv, len(tokens))], reused, len(tokens) - reused, first_token, elapsed)]
            work.prefix_kv, work.prefix_share = entry.kv, elapsed / len(group.members)
            stats.prefix_prefills += 1
            stats.prefix_tokens += len(tokens) - reused
        return self._prefill_suffixes(rows, work.todo.popleft(), group.prefix_len, work.prefix_kv,
                                      work.prefix_share, stats)

    # -- forward passes -------------------------------------------------------------------------------------

    def pick(self, indices: Sequence[int], logits: torch.Tensor) -> list[int]:
        """The next token of rows ``indices`` from their logits ``[n, vocab]``: greedy, or drawn by the
        sampler with each row's own generator."""
        if self.sampler is None:
            return [int(t) for t in greedy_tokens(logits).tolist()]
        return self.sampler.pick(indices, logits)

    def _encode(self, tokens: list[int], encoded: _EncodingCache,
                logits: bool) -> tuple[_Encoded, int, torch.Tensor | None]:
        """Encode ``tokens`` at batch 1, starting from the KV of the cached encoding that shares the longest
        prefix with them (positions continue from there, as in one forward over all of them), and cache the
        result.

        Returns the new encoding, how many tokens were reused, and with ``logits`` the next-token logits
        ``[1, vocab]`` after ``tokens`` (then at least the last token is fed, whatever the cache holds, so that
        its logits exist).
        """
        base, reuse = encoded.best(tokens)
        if logits:
            reuse = min(reuse, len(tokens) - 1)
        next_logits = None
        if base is not None and reuse == len(tokens) == len(base.tokens):
            encoded.touch(base)
            return base, reuse, None
        if base is not None and reuse == len(tokens):
            kv = [(k[:, :reuse], v[:, :reuse]) for k, v in base.kv]
        else:
            cache = DynamicCache(ddp_cache_data=[(k[None, :, :reuse], v[None, :, :reuse]) for k, v in base.kv]) \
                if base is not None and reuse else DynamicCache(config=self.model.config)
            ids = torch.tensor([tokens[reuse:]], dtype=torch.long, device=self.device)
            positions = torch.arange(reuse, len(tokens), dtype=torch.long, device=self.device)[None]
            out = self.model(input_ids=ids, position_ids=positions, cache=cache, use_cache=True, logits_to_keep=1)
            kv = [(k[0], v[0]) for k, v in map(_layer_kv, cache.layers)]
            next_logits = out.logits[0, -1:]
        entry = _Encoded(list(tokens), kv)
        encoded.add(entry)
        return entry, reuse, next_logits

    def _prefill_suffixes(self, rows: list[list[int]], chunk: list[int], lp: int, prefix_kv: KV,
                          prefix_share: float, stats: FastStats) -> list[_Ready]:
        """Prefill the suffixes of ``chunk`` (members of one group) over the shared prefix, in one forward.

        Layout per row: ``[prefix (Lp) | pad (S - ls) | suffix (ls)]`` with S the longest suffix. The prefix
        KV is broadcast to the chunk (expand: no copy until the cache concatenates). Attention mask: 1 on
        prefix and suffix columns, 0 on pad columns, so no real token attends to a pad; position ids:
        ``Lp .. Lp+ls-1`` on the suffix, as in the unsplit prompt (pads get ``Lp``, any finite value would
        do: their outputs are never used). Every row's last token is in the last column, so one logit row
        per item suffices (``logits_to_keep=1``). The prefix is never empty (``plan_groups``), so no pad query
        is fully masked. Members with identical suffixes (the samples of one item) are prefilled once and
        share that row's KV and logits (each still gets its own first token: ``pick`` with its own index).
        """
        started = time.perf_counter()
        member_suffixes = [tuple(rows[i][lp:]) for i in chunk]
        unique = list(dict.fromkeys(member_suffixes))
        where = {suffix: k for k, suffix in enumerate(unique)}
        n = len(unique)
        suffixes = [list(u) for u in unique]
        lens = [len(s) for s in suffixes]
        width = max(lens)
        input_ids = torch.tensor([[self.pad_id] * (width - ls) + s for s, ls in zip(suffixes, lens)],
                                 dtype=torch.long, device=self.device)
        position_ids = torch.tensor([[lp] * (width - ls) + list(range(lp, lp + ls)) for ls in lens],
                                    dtype=torch.long, device=self.device)
        attention_mask = torch.tensor([[1] * lp + [0] * (width - ls) + [1] * ls for ls in lens],
                                      dtype=torch.long, device=self.device)
        cache = DynamicCache(ddp_cache_data=[(k.unsqueeze(0).expand(n, -1, -1, -1),
                                              v.unsqueeze(0).expand(n, -1, -1, -1)) for k, v in prefix_kv])
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                         cache=cache, use_cache=True, logits_to_keep=1)
        rows_of_members = [where[suffix] for suffix in member_suffixes]
        first_tokens = self.pick(chunk, out.logits[rows_of_members, -1, :])
        # Keep each row's real suffix columns only (pad columns dropped); clone so the chunk's big
        # concatenated cache can be freed.
        total = lp + width
        layers_kv = [_layer_kv(layer) for layer in cache.layers]
        suffix_kv = [[(k[r, :, total - ls:total].clone(), v[r, :, total - ls:total].clone()) for k, v in layers_kv]
                     for r, ls in enumerate(lens)]
        elapsed = time.perf_counter() - started
        stats.suffix_prefills += 1
        stats.suffix_tokens += sum(lens)
        stats.suffix_pad_tokens += n * width - sum(lens)
        stats.prefill_s += elapsed
        return [_Ready(i, [(prefix_kv, lp), (suffix_kv[k], lens[k])], lp, lens[k], int(tok),
                       prefix_share + elapsed / len(chunk))
                for i, k, tok in zip(chunk, rows_of_members, first_tokens)]

    def step_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """The logits ``[T, vocab]`` of hidden states ``[T, hidden]`` through the model's output projection,
        written into the decoder's reused buffer (valid until the next call; the same matrix product as the
        model's own head, so the same values)."""
        assert self._head is not None     # called only with a plain head (__init__ sets _body and _head together)
        weight = self._head.weight
        if self._logits_buffer.shape[0] < hidden.shape[0]:
            rows = -(-hidden.shape[0] // 64) * 64
            self._logits_buffer = torch.empty((rows, weight.shape[0]), dtype=hidden.dtype, device=hidden.device)
        return torch.mm(hidden, weight.t(), out=self._logits_buffer[:hidden.shape[0]])

    def _decode_step(self, active: list[_Row], drafts: list[list[int]], cache: SlotCache) -> list[list[int]]:
        """Feed each row ``[last token, *its drafts]`` at its own positions, all rows' tokens flattened into
        one sequence (a ragged step: rows feed different numbers of tokens), and return, per row, the greedy
        tokens the model produces up to and including the first one that does not confirm a draft:
        1 .. len(drafts)+1 tokens, exactly what step-by-step greedy decoding gives. Without drafts this is a
        plain decode step: one new token per row.

        Token j of row r sits at position ``length_r + j`` (its index in the unsplit sequence), its K/V goes
        to column ``length_r + j`` of cache row r, and it attends columns ``0 .. length_r + j`` of that row
        only (columns beyond a row's end hold stale or zero data); see ragged_gqa_attention.
        """
        fed = [[row.generated[-1], *d] for row, d in zip(active, drafts)]
        counts = [len(f) for f in fed]
        lengths = [row.length for row in active]
        step = ragged_step(lengths, counts, self.groups, self.dtype, self.device)
        st = cache.state
        st.rows = torch.repeat_interleave(torch.arange(len(active), device=self.device),
                                          torch.tensor(counts, device=self.device))
        st.columns = torch.tensor([length + j for length, c in zip(lengths, counts) for j in range(c)],
                                  dtype=torch.long, device=self.device)
        st.n_rows, st.width = len(active), max(step.widths)
        input_ids = torch.tensor([[t for f in fed for t in f]], dtype=torch.long, device=self.device)
        for config in self._sdpa_configs:
            config._attn_implementation_internal = PACKED_ATTENTION
        try:
            # The placeholder 4D mask makes transformers skip building one (a prepared 4D mask is used as is);
            # the attention reads the RaggedStep instead.
            inputs = dict(input_ids=input_ids, attention_mask=self._no_mask, position_ids=st.columns[None],
                          cache=cache, use_cache=True, **{RAGGED_STEP_KWARG: step})
            if self._body is not None:
                logits = self.step_logits(self._body(**inputs).last_hidden_state[0])
            else:
                logits = self.model(**inputs, logits_to_keep=len(st.columns)).logits[0]
        finally:
            for config in self._sdpa_configs:
                config._attn_implementation_internal = "sdpa"
        if self.sampler is not None:     # no drafts when sampling: one token, one logits row per row
            flat = self.sampler.pick([row.index for row in active], logits)
        else:
            flat = greedy_tokens(logits).tolist()                                         # [T]
        kept: list[list[int]] = []
        for d, start, count in zip(drafts, step.starts, step.counts):
            chosen = flat[start:start + count]
            tokens = [chosen[0]]
            for j, draft in enumerate(d):
                if draft != tokens[-1]:
                    break
                tokens.append(chosen[j + 1])
            kept.append(tokens)
        return kept
