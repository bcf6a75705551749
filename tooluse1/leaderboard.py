"""Several runs of the same items ranked on one page: `python -m tooluse1 leaderboard RUN.json... -o board.html`.

What a row says about a run (all over the comparable items, json+xml+plain, SPEC §3.4; native is a column
of its own, never pooled):
- the score with its 95% interval clustered by case and the design effect (`metrics`/`stats`, as the report);
- the score per protocol (Wilson: each case once);
- protocol consistency: the share of cases whose verdict is the same in all three text protocols. A model
  that passes a case in one format only has a format problem there, not a tool-use skill;
- truncation: the share of items whose answer stopped at the token cap (finish_reason "length"), the
  summary's `truncated_rate` where the metrics have one.

Every pair of runs gets its paired difference on the items both answered, with the clustered paired test of
`compare` (`stats.paired_test`: exact sign-flip test on case-level differences, two-sided here: a board asks
whether two runs differ, not whether one regressed) and Holm's correction for the number of pairs.

Runs must be comparable as `compare` requires (spec version, corpus digest, prompts: `check_comparable`, the
same messages) and must cover the same comparable items, or the ranking would compare different questions.
They must also decode alike (`check_decodings`: greedy, or sampled at one temperature, top-p and number of
samples, `sampling.decoding_key`), or the board refuses them in one line naming each run's decoding unless
`allow_decoding_change` (`--allow-decoding-change`, as for `compare`). The sample count counts here, unlike in
`compare`: a row's protocol consistency and "all samples pass" verdicts depend on it. A sampled run is scored
by the mean of its per-item pass rates; whenever a board holds a sampled run, every row shows its decoding.
The page is built like the report (`report.render_page`, `esc` on every string from a file, no script).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from tooluse1.compare import IncomparableError, check_comparable, format_p, outcome, paired_test_of
from tooluse1.metrics import format_rate, interval, wilson
from tooluse1.report import bar_chart, esc, render_page
from tooluse1.results import ItemRecord, ResultsFile
from tooluse1.sampling import decoding_key, describe_decoding
from tooluse1.stats import DEFAULT_ALPHA, PairedTest
from tooluse1.types import ALL_PROTOCOLS, PROTOCOLS

TEXT_POOL = "+".join(PROTOCOLS)


@dataclass(frozen=True)
class Share:
    """k of n (cases or items) with Wilson's 95% interval; rate None when n is 0."""

    k: int
    n: int

    @property
    def rate(self) -> float | None:
        return self.k / self.n if self.n else None

    def text(self) -> str:
        if not self.n:
            return "n/a"
        lo, hi = wilson(self.k, self.n)
        return f"{self.k / self.n:.3f} [{lo:.3f}, {hi:.3f}] n={self.n}"


@dataclass(frozen=True)
class Entry:
    """One run's row: `score` and `protocols` are summary rate dicts (`Rate.as_dict`)."""

    source: str
    model: str
    score: dict                        # json+xml+plain, with ci95_clustered and design_effect when pooled
    protocols: dict[str, dict]         # protocol -> its score (each case once: Wilson)
    consistency: Share                 # cases with one verdict in all three text protocols
    truncated: Share                   # items cut at the token cap (json+xml+plain)
    n_errors: int
    cost: float | None = None          # the whole run's priced cost (results `cost.cost`; --price-in/--price-out)
    decoding: str = "greedy"           # `sampling.describe_decoding` of the run's provenance.decoding


@dataclass(frozen=True)
class Pair:
    """Run `upper` (ranked higher) against run `lower` on their common items: diff = upper - lower."""

    upper: int
    lower: int
    test: PairedTest
    p_holm: float

    def significant(self, alpha: float) -> bool:
        return self.p_holm < alpha


@dataclass(frozen=True)
class Leaderboard:
    """Entries best first, every pair of them, and what the comparability check noted."""

    entries: list[Entry]
    pairs: list[Pair]
    alpha: float
    notes: list[str]
    provenance: dict                   # the first run's: spec, corpus, prompts (all runs share them)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order: the i-th smallest p times (m - i + 1), made
    monotone and capped at 1. Rejecting where the adjusted p < alpha controls the family-wise error rate."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _text_records(run: ResultsFile) -> dict[tuple[str, str], ItemRecord]:
    """The run's json+xml+plain records by (case id, protocol)."""
    return {(r.case.id, r.protocol): r for r in run.records if r.protocol in PROTOCOLS}


def check_same_items(runs: Sequence[ResultsFile]) -> None:
    """Raise IncomparableError when two runs do not hold the same comparable (json+xml+plain) items, or hold
    none (a native-only run has no comparable score)."""
    first = set(_text_records(runs[0]))
    if not first:
        raise IncomparableError(f"{runs[0].source} holds no {TEXT_POOL} item: a leaderboard ranks the score over "
                                f"them (run with --protocol all)")
    for run in runs[1:]:
        other = set(_text_records(run))
        if other != first:
            raise IncomparableError(
                f"{runs[0].source} and {run.source} hold different {TEXT_POOL} items ({len(first - other)} only "
                f"in the first, {len(other - first)} only in the second); a leaderboard ranks runs of the same "
                f"items (run each with the same --protocol and selection)")


def _decoding(run: ResultsFile) -> dict:
    return run.provenance.get("decoding") or {}


def check_decodings(runs: Sequence[ResultsFile], allow_decoding_change: bool = False) -> list[str]:
    """Raise IncomparableError, in one line naming every run and its decoding, when the runs do not all decode
    alike (`sampling.decoding_key` counting the number of samples) and `allow_decoding_change` is off; with
    it, return the note the board prints. Runs that decode alike: no note."""
    if len({decoding_key(_decoding(r), count_samples=True) for r in runs}) <= 1:
        return []
    listing = "; ".join(f"{r.source}: {describe_decoding(_decoding(r))}" for r in runs)
    if not allow_decoding_change:
        raise IncomparableError(f"the runs decode differently ({listing}): a leaderboard ranks runs of one "
                                f"decoding; pass --allow-decoding-change to rank them side by side")
    return ["the runs decode differently (greedy, sampled or another temperature, top-p or number of samples), "
            "ranked side by side as asked (--allow-decoding-change); each row shows its decoding"]


def consistency(run: ResultsFile) -> Share:
    """Cases answered (no backend error) in all three text protocols whose verdict is the same in all three."""
    verdicts: dict[str, dict[str, bool]] = {}
    for (case, protocol), r in _text_records(run).items():
        if not r.is_error:
            verdicts.setdefault(case, {})[protocol] = r.passed
    full = [v for v in verdicts.values() if len(v) == len(PROTOCOLS)]
    return Share(sum(1 for v in full if len(set(v.values())) == 1), len(full))


def truncation(run: ResultsFile, pooled: dict) -> Share:
    """The summary's `truncated_rate` where the metrics define it, else items whose finish reason is "length"
    (answered items of json+xml+plain)."""
    stored = pooled["overall"].get("truncated_rate")
    if stored is not None:
        return Share(stored["k"], stored["n"])
    answered = [r for r in _text_records(run).values() if not r.is_error]
    return Share(sum(1 for r in answered if r.completion.finish_reason == "length"), len(answered))


def entry(run: ResultsFile) -> Entry:
    """A run's row (see `Entry`)."""
    pooled = run.summary_of(PROTOCOLS)
    by_protocol = run.summary["by"].get("protocol", {})
    return Entry(source=run.source, model=str(run.provenance.get("model", {}).get("model_id", "?")),
                 score=pooled["overall"]["score"],
                 protocols={p: by_protocol[p]["score"] for p in ALL_PROTOCOLS if p in by_protocol},
                 consistency=consistency(run), truncated=truncation(run, pooled), n_errors=pooled["n_errors"],
                 cost=run.document["cost"]["cost"], decoding=describe_decoding(_decoding(run)))


def _priced(board: Leaderboard) -> bool:
    """Whether the board has a cost column: some run was priced (the column stays out of unpriced boards)."""
    return any(e.cost is not None for e in board.entries)


def _decodings_shown(board: Leaderboard) -> bool:
    """Whether every row shows its decoding: some run is sampled (a board of greedy runs stays as it was)."""
    return any(e.decoding != "greedy" for e in board.entries)


def _cost_cell(e: Entry) -> str:
    return "n/a" if e.cost is None else f"{e.cost:.4f}"


def _paired(upper: ResultsFile, lower: ResultsFile, alpha: float) -> PairedTest:
    a, b = _text_records(upper), _text_records(lower)
    triples = [(a[key].case.cluster, outcome(b[key]), outcome(a[key])) for key in sorted(a)
               if key in b and not (a[key].is_error or b[key].is_error)]
    if not triples:
        raise IncomparableError(f"{upper.source} and {lower.source} have no {TEXT_POOL} item answered in both "
                                f"(every common item has a backend error in one of them)")
    return paired_test_of(triples, alpha=alpha)     # sampled runs: on per-item means


def build(runs: Sequence[ResultsFile], alpha: float = DEFAULT_ALPHA,
          allow_different_prompts: bool = False, allow_decoding_change: bool = False) -> Leaderboard:
    """Rank `runs` by score (json+xml+plain; ties by source name) and test every pair. Raises IncomparableError
    (naming the files and what differs) unless every run is comparable with the first as `compare` requires,
    all hold the same comparable items, and all decode alike (`check_decodings`) or `allow_decoding_change`;
    ValueError for no runs."""
    if not runs:
        raise ValueError("no results files given")
    notes: list[str] = []
    for run in runs[1:]:
        notes += check_comparable(runs[0], run, allow_different_prompts)
    check_same_items(runs)
    notes += check_decodings(runs, allow_decoding_change)
    rows = sorted(((entry(r), r) for r in runs), key=lambda er: (-(er[0].score["rate"] or 0.0), er[1].source))
    entries, ranked = [e for e, _ in rows], [r for _, r in rows]
    tests = [(i, j, _paired(ranked[i], ranked[j], alpha)) for i, j in itertools.combinations(range(len(ranked)), 2)]
    adjusted = holm([t.p_two_sided for _, _, t in tests])
    pairs = [Pair(i, j, t, p) for (i, j, t), p in zip(tests, adjusted)]
    return Leaderboard(entries, pairs, alpha, list(dict.fromkeys(notes)), runs[0].provenance)


# ----------------------------------------------------------------------------- text

def _score_cell(d: dict | None) -> str:
    if not d or not d["n"]:
        return "n/a"
    lo, hi, _ = interval(d)
    return f"{d['rate']:.3f} [{lo:.3f}, {hi:.3f}]"


def _deff(d: dict) -> str:
    return f"{d['design_effect']:.2f}" if "design_effect" in d else "1.00"


def _protocols(board: Leaderboard) -> list[str]:
    return [p for p in ALL_PROTOCOLS if any(p in e.protocols for e in board.entries)]


def _caption(board: Leaderboard) -> str:
    p = board.provenance
    return (f"spec {p.get('spec_version')}, corpus {str(p.get('corpus', {}).get('sha256'))[:12]}, prompts "
            f"{str(p.get('prompt_sha256') or 'not recorded')[:12]}")


def _pair_text(board: Leaderboard, pair: Pair) -> tuple[str, str, str, str, str, str]:
    """(runs, diff [95% CI], n items / cases, p, p Holm, verdict) for one pair."""
    t = pair.test
    names = f"#{pair.upper + 1} - #{pair.lower + 1}"
    verdict = "differ" if pair.significant(board.alpha) else "no significant difference"
    return (names, f"{t.diff:+.3f} [{t.ci95[0]:+.3f}, {t.ci95[1]:+.3f}]", f"{t.n} / {t.n_clusters}",
            format_p(t.p_two_sided), format_p(pair.p_holm), verdict)


SAMPLED_LEGEND = ("sampled runs: the score is the mean of the per-item pass rates (every rate a mean over samples); "
                  "consistency takes an item's verdict as 'every sample passed'")

PAIR_LEGEND = ("Paired difference upper - lower on the items both answered, 95% CI clustered by case; p: two-sided "
               "exact sign-flip test on case-level differences, Holm-adjusted for the number of pairs ({m}); "
               "significant when the adjusted p < {alpha}")


def format_text(board: Leaderboard) -> str:
    """The board as a plain-text table (ranks, scores with clustered CIs, per protocol, consistency,
    truncation), then every pair."""
    protocols = _protocols(board)
    lines = [f"ToolUse.1 leaderboard: {len(board.entries)} runs; {_caption(board)}",
             f"  score = {TEXT_POOL}, 95% CI clustered by case (deff = design effect); protocols: Wilson; "
             f"consistency = share of cases with one verdict in all of {', '.join(PROTOCOLS)}"]
    if _decodings_shown(board):
        lines.append(f"  {SAMPLED_LEGEND}")
    lines += [f"  note: {n}" for n in board.notes]
    head = (f"  {'#':>2}  {'model':<44} {'score [95% CI]':<22} {'n':>4} {'deff':>5} "
            + " ".join(f"{p:>6}" for p in protocols) + f" {'consist.':>8} {'trunc.':>6}"
            + (f" {'cost':>9}" if _priced(board) else ""))
    lines.append(head)
    for rank, e in enumerate(board.entries, 1):
        cells = " ".join(f"{e.protocols[p]['rate']:6.3f}" if e.protocols.get(p, {}).get("n") else f"{'n/a':>6}"
                         for p in protocols)
        cons = f"{e.consistency.rate:8.3f}" if e.consistency.n else f"{'n/a':>8}"
        trunc = f"{e.truncated.rate:6.3f}" if e.truncated.n else f"{'n/a':>6}"
        lines.append(f"  {rank:>2}  {e.model[:44]:<44} {_score_cell(e.score):<22} {e.score['n']:>4} "
                     f"{_deff(e.score):>5} {cells} {cons} {trunc}" + (f" {_cost_cell(e):>9}" if _priced(board) else ""))
        lines.append(f"      {e.source}{_errors(e)}" + (f"; decoding: {e.decoding}" if _decodings_shown(board) else ""))
    if board.pairs:
        lines.append("  pairs: " + PAIR_LEGEND.format(m=len(board.pairs), alpha=board.alpha))
        lines.append(f"  {'runs':<9} {'diff [95% CI]':<24} {'items/cases':>11} {'p':>8} {'p Holm':>8}  verdict")
        for pair in board.pairs:
            names, diff, n, p, ph, verdict = _pair_text(board, pair)
            lines.append(f"  {names:<9} {diff:<24} {n:>11} {p:>8} {ph:>8}  {verdict}")
    return "\n".join(lines)


def format_markdown(board: Leaderboard) -> str:
    """The board as Markdown tables (what BENCHMARKS.md shows)."""
    protocols = _protocols(board)
    shown = _decodings_shown(board)
    rows = [f"Runs: {_caption(board)}." + (f" {SAMPLED_LEGEND}." if shown else ""), "",
            "| # | model | " + ("decoding | " if shown else "")
            + f"score ({TEXT_POOL}) [95% CI clustered] | n | deff | " + " | ".join(protocols)
            + " | consistency | truncated |" + (" cost |" if _priced(board) else ""),
            "|---|---|" + ("---|" if shown else "") + "---|---|---|" + "---|" * len(protocols) + "---|---|"
            + ("---|" if _priced(board) else "")]
    for rank, e in enumerate(board.entries, 1):
        cells = " | ".join(format_rate(e.protocols[p], compact=True).strip() if p in e.protocols else "n/a"
                           for p in protocols)
        model = e.model.replace("|", "\\|").replace("\n", " ")    # one cell of one row, whatever the id holds
        rows.append(f"| {rank} | {model} | " + (f"{e.decoding} | " if shown else "")
                    + f"{_score_cell(e.score)} | {e.score['n']} | {_deff(e.score)} | {cells} | "
                    f"{e.consistency.text()} | {e.truncated.text()} |"
                    + (f" {_cost_cell(e)} |" if _priced(board) else ""))
    if board.pairs:
        rows += ["", PAIR_LEGEND.format(m=len(board.pairs), alpha=board.alpha) + ".", "",
                 "| runs | diff [95% CI] | items / cases | p | p (Holm) | verdict |", "|---|---|---|---|---|---|"]
        rows += ["| " + " | ".join(_pair_text(board, pair)) + " |" for pair in board.pairs]
    return "\n".join(rows)


# ----------------------------------------------------------------------------- HTML

def _two_line(rate: float | None, detail: str) -> str:
    """A table cell: the rate, and its interval and n below in small print."""
    value = "n/a" if rate is None else f"{rate:.3f}"
    return f"<td class=num>{value}<br><span class=legend>{esc(detail)}</span></td>"


def _ci(d: dict) -> str:
    lo, hi, _ = interval(d)
    return f"[{lo:.3f}, {hi:.3f}]"


def _share_cell(share: Share) -> str:
    if not share.n:
        return "<td class=num>n/a</td>"
    lo, hi = wilson(share.k, share.n)
    return _two_line(share.rate, f"[{lo:.3f}, {hi:.3f}] {share.k}/{share.n}")


def _errors(e: Entry) -> str:
    return f"; {e.n_errors} backend errors left out" if e.n_errors else ""


def _entries_table(board: Leaderboard) -> str:
    protocols = _protocols(board)
    shown = _decodings_shown(board)
    head = ("<tr><th>#</th><th>model</th>" + ("<th>decoding</th>" if shown else "")
            + "<th>score (" + esc(TEXT_POOL) + ") [95% CI clustered by case]</th><th>n</th>"
            "<th>deff</th>" + "".join(f"<th>{esc(p)}</th>" for p in protocols)
            + "<th>protocol consistency</th><th>truncated</th>" + ("<th>cost</th>" if _priced(board) else "") + "</tr>")
    rows = []
    for rank, e in enumerate(board.entries, 1):
        cells = "".join(_two_line(e.protocols[p]["rate"], f"{_ci(e.protocols[p])} n={e.protocols[p]['n']}")
                        if p in e.protocols else "<td class=num>n/a</td>" for p in protocols)
        rows.append(f'<tr data-rank="{rank}"><td class=num>{rank}</td><td>{esc(e.model)}<br>'
                    f'<span class=legend>{esc(e.source)}{_errors(e)}</span></td>'
                    + (f"<td>{esc(e.decoding)}</td>" if shown else "") +
                    f'<td class=num>{esc(_score_cell(e.score))}</td>'
                    f"<td class=num>{e.score['n']}</td><td class=num>{esc(_deff(e.score))}</td>{cells}"
                    f"{_share_cell(e.consistency)}{_share_cell(e.truncated)}"
                    + (f"<td class=num>{_cost_cell(e)}</td>" if _priced(board) else "") + "</tr>")
    return f'<table id="board">{head}{"".join(rows)}</table>'


def _pairs_table(board: Leaderboard) -> str:
    if not board.pairs:
        return "<p class=legend>One run: no pairs to compare.</p>"
    head = ("<tr><th>runs</th><th>upper</th><th>lower</th><th>difference [95% CI]</th><th>items / cases</th>"
            "<th>p (two-sided)</th><th>p (Holm)</th><th>verdict</th></tr>")
    rows = []
    for pair in board.pairs:
        names, diff, n, p, ph, verdict = _pair_text(board, pair)
        cls = "fail" if pair.significant(board.alpha) else ""
        rows.append(f"<tr><td>{esc(names)}</td><td>{esc(board.entries[pair.upper].model)}</td>"
                    f"<td>{esc(board.entries[pair.lower].model)}</td><td class=num>{esc(diff)}</td>"
                    f"<td class=num>{esc(n)}</td><td class=num>{esc(p)}</td><td class=num>{esc(ph)}</td>"
                    f"<td class='{cls}'>{esc(verdict)}</td></tr>")
    legend = PAIR_LEGEND.format(m=len(board.pairs), alpha=board.alpha)
    return f'<p class=legend>{esc(legend)}.</p><table id="pairs">{head}{"".join(rows)}</table>'


def _short(model: str, limit: int = 12) -> str:
    """A chart label: the model id without its organisation and remarks, cut to `limit` characters."""
    name = model.split(" (")[0].rsplit("/", 1)[-1]
    return name if len(name) <= limit else name[:limit - 1] + "\u2026"


def render_board(board: Leaderboard) -> str:
    """The whole self-contained HTML page (no script; every string from a results file escaped)."""
    chart = bar_chart(f"score ({TEXT_POOL}), 95% CI clustered by case",
                      {f"#{i} {_short(e.model)}": {"score": e.score} for i, e in enumerate(board.entries, 1)}, None,
                      text_w=320)
    notes = "".join(f"<p class=legend>{esc(n)}</p>" for n in board.notes)
    body = (f"<header><h1>ToolUse.1 leaderboard</h1><p class=sub>{len(board.entries)} runs \u2014 "
            f"{esc(_caption(board))}</p></header>{notes}"
            f"<section><h2>Ranking</h2><p class=legend>Sorted by the score over {esc(TEXT_POOL)} (the items every "
            f"model is given alike; native, where run, is its own column). Protocol columns: each case once, Wilson "
            f"interval. Protocol consistency: the share of cases whose verdict is the same in all of "
            f"{esc(', '.join(PROTOCOLS))} (a case passed in one format only is a format problem, not a skill). "
            f"Truncated: answers cut at the token cap."
            + (f" {esc(SAMPLED_LEGEND[0].upper() + SAMPLED_LEGEND[1:])}." if _decodings_shown(board) else "")
            + f"</p>{_entries_table(board)}"
            f'<div class="charts">{chart}</div></section>'
            f"<section><h2>Every pair</h2>{_pairs_table(board)}</section>")
    return render_page("ToolUse.1 leaderboard", body)


def write_board(path: Path, board: Leaderboard) -> None:
    """Write `render_board(board)` to `path` (UTF-8), creating its folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_board(board), encoding="utf-8")
